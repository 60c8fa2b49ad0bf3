// The main() of every course test program (Catch2 v2 or v3).
//
// Test cases tagged [gpu] are registered with CTest apart from the others (see the top
// CMakeLists.txt): their runs pass --needs-gpu, and with no usable CUDA device this main prints
// why and returns 77, which CTest reports as "skipped", never as "passed". Set
// COURSE_REQUIRE_GPU=1 to turn that skip into a failure (on a GPU machine, so a broken driver
// cannot pass as "no GPU"). Test cases tagged [large] also pass --needs-gpu-memory BYTES, and are
// skipped the same way on a GPU with less free memory. Test cases tagged [multi] pass
// --needs-gpus N, and are skipped the same way on a machine with fewer than N GPUs.
//
// The results channel (grade.py): when the run is given a key (COURSE_RESULT_KEY, drawn fresh by
// grade.py or scripts/time_answer.py for each run of a program), main() reads it first, wipes it
// from the environment, and every line that a grader reads carries it:
//   COURSE-VERDICT <key> {"check": "tests", "pass": true, "seed": N}     after the last check
//   COURSE-VERDICT <key> {"check": "catch2", "pass": false, "test": ..., "why": ...}  each failed
//   one COURSE-VERDICT <key> {"check": "watchdog", "pass": false, "why": ...}   a kernel that hung
//   COURSE-VERDICT <key> {"check": "gpu", "skip": true, "why": ...}        no usable GPU
//   COURSE-TIME <key> <ms> ms, COURSE-SIZES <key> <what> = ...            (testing.hpp)
// A line without the run's key is not the harness's, whoever printed it. Without a key (a plain
// ctest run) none of these is printed but the sizes and the time, in their "COURSE-TIME: " form.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "cli.hpp"
#include "device_profile.hpp"

#if COURSE_CATCH2_MAJOR == 3
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "testing.hpp"

namespace {

std::uint64_t g_seed = 0;
std::string g_program = "test";
std::string g_key;        // the run's result key, or "" (none given)
std::string g_test_case;  // the test case running now, for a failed check's verdict
// How many test cases Catch2 ran: a pass needs at least one (help, or a spec that matches
// nothing, runs none and returns 0).
int g_cases_run = 0;

// Takes an environment variable's value and wipes it from the environment, the bytes too (a
// process's /proc/self/environ reads the bytes it started with): the answer's code, which runs
// later, inside the tests, is not handed it. Returns whether it was set.
bool take_env(const char* name, std::string* value) {
  char* text = std::getenv(name);
  if (text == nullptr) return false;
  *value = text;
  std::memset(text, '0', value->size());
  unsetenv(name);
  return true;
}

std::string g_fixed_seed;  // COURSE_TEST_SEED, taken with the key
bool g_seed_given = false;

// Takes the run's key (COURSE_RESULT_KEY) and the tests' seed (COURSE_TEST_SEED) before anything
// else runs. A key is 16 to 64 hex digits; anything else is no key.
void take_key() {
  g_seed_given = take_env("COURSE_TEST_SEED", &g_fixed_seed);
  std::string key;
  if (!take_env("COURSE_RESULT_KEY", &key)) return;
  if (key.size() < 16 || key.size() > 64 ||
      key.find_first_not_of("0123456789abcdef") != std::string::npos)
    return;
  g_key = key;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// One verdict line: {"check": <check>, <fields>}.
void verdict(const char* check, const std::string& fields) {
  if (g_key.empty()) return;
  std::fflush(stdout);
  std::printf("COURSE-VERDICT %s {\"check\": %s, %s}\n", g_key.c_str(), json_string(check).c_str(),
              fields.c_str());
  std::fflush(stdout);
}

// Every failed check of a test case, as a verdict line (what Catch2 itself prints is for people).
#if COURSE_CATCH2_MAJOR == 3
using ListenerBase = Catch::EventListenerBase;
#else
using ListenerBase = Catch::TestEventListenerBase;
#endif
struct VerdictListener : ListenerBase {
  using ListenerBase::ListenerBase;
  void testCaseStarting(Catch::TestCaseInfo const& info) override {
    g_test_case = info.name;
    ++g_cases_run;
  }
  void report(Catch::AssertionStats const& stats) {
    const Catch::AssertionResult& result = stats.assertionResult;
    if (result.isOk()) return;
    std::string why = result.hasExpression() ? result.getExpressionInMacro() : std::string();
    if (result.hasExpandedExpression() && result.getExpandedExpression() != result.getExpression())
      why += " [" + result.getExpandedExpression() + "]";
    // (Catch2 v3 gives the message as a StringRef, which converts to std::string only explicitly.)
    std::string said = static_cast<std::string>(result.getMessage());
    for (const auto& info : stats.infoMessages) {
      if (info.message != said) said += (said.empty() ? "" : " ") + info.message;
    }
    if (!said.empty()) why = why.empty() ? said : said + " [" + why + "]";
    verdict("catch2", "\"pass\": false, \"test\": " + json_string(g_test_case) +
                          ", \"why\": " + json_string(why.empty() ? "failed" : why));
  }
#if COURSE_CATCH2_MAJOR == 3
  void assertionEnded(Catch::AssertionStats const& stats) override {
    report(stats);
  }
#else
  bool assertionEnded(Catch::AssertionStats const& stats) override {
    report(stats);
    return true;
  }
#endif
};
CATCH_REGISTER_LISTENER(VerdictListener)

std::uint64_t choose_seed() {
  if (g_seed_given) return std::strtoull(g_fixed_seed.c_str(), nullptr, 10);
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace

namespace course::test {
std::uint64_t seed() {
  return g_seed;
}
const char* program_name() {
  return g_program.c_str();
}
void report_failure(const char* check, const char* why) {
  verdict(check, "\"pass\": false, \"why\": " + json_string(why));
}
void result_line(const char* kind, const std::string& text) {
  if (g_key.empty()) {
    std::printf("%s: %s\n", kind, text.c_str());
  } else {
    std::printf("%s %s %s\n", kind, g_key.c_str(), text.c_str());
  }
}
}  // namespace course::test

int main(int argc, char** argv) {
  constexpr int kSkipped = 77;
  take_key();
  if (argc > 0) {
    g_program = argv[0];
    g_program = g_program.substr(g_program.find_last_of("/\\") + 1);
  }
  bool needs_gpu = false;
  std::uint64_t needs_memory = 0;
  int needs_gpus = 1;
  bool listing = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--needs-gpu") {
      needs_gpu = true;
      continue;
    }
    if (arg == "--needs-gpu-memory" && i + 1 < argc) {
      needs_memory = course::parse_count(argv[++i]);
      continue;
    }
    if (arg == "--needs-gpus" && i + 1 < argc) {
      needs_gpus = static_cast<int>(course::parse_count(argv[++i]));
      continue;
    }
    if (arg.rfind("--list", 0) == 0 || arg == "-l") listing = true;
    args.push_back(argv[i]);
  }

  course::device_profile();  // an unknown COURSE_DEVICE_PROFILE: one line, exit 2
  if (needs_gpu && !listing) {
    std::string why;
    if (!course::probe_gpu(&why)) {
      const char* required = std::getenv("COURSE_REQUIRE_GPU");
      if (required != nullptr && std::string(required) == "1") {
        std::printf("FAILED: COURSE_REQUIRE_GPU=1, but no usable CUDA GPU (%s)\n", why.c_str());
        course::test::report_failure("gpu", ("no usable CUDA GPU (" + why + ")").c_str());
        return 1;
      }
      std::printf("SKIPPED: no usable CUDA GPU (%s)\n", why.c_str());
      verdict("gpu", "\"skip\": true, \"why\": " + json_string("no usable CUDA GPU (" + why + ")"));
      return kSkipped;
    }
    int gpus = 0;
    CUDA_CHECK(cudaGetDeviceCount(&gpus));
    if (gpus < needs_gpus) {
      std::printf("SKIPPED: needs %d GPUs, %d found\n", needs_gpus, gpus);
      verdict("gpu", "\"skip\": true, \"why\": " +
                         json_string("needs " + std::to_string(needs_gpus) + " GPUs, " +
                                     std::to_string(gpus) + " found"));
      return kSkipped;
    }
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < needs_memory) {
      std::printf("SKIPPED: needs %llu bytes of free GPU memory, %zu are free\n",
                  static_cast<unsigned long long>(needs_memory), free_bytes);
      verdict("gpu",
              "\"skip\": true, \"why\": " + json_string("needs " + std::to_string(needs_memory) +
                                                        " bytes of free GPU memory, " +
                                                        std::to_string(free_bytes) + " are free"));
      return kSkipped;
    }
  }

  g_seed = choose_seed();
  if (!listing) {
    std::printf("test seed %llu (COURSE_TEST_SEED=%llu repeats this run)\n",
                static_cast<unsigned long long>(g_seed), static_cast<unsigned long long>(g_seed));
  }

#if COURSE_CATCH2_MAJOR == 2
  // Fail, rather than pass, when a test name matches nothing: Catch2 v2 returns 0 by default
  // (v3 already fails, and has no such option).
  char warn[] = "--warn";
  char no_tests[] = "NoTests";
  if (!listing) {
    args.push_back(warn);
    args.push_back(no_tests);
  }
#endif

  Catch::Session session;
  const int result = session.run(static_cast<int>(args.size()), args.data());
  // The completion line: printed here, after the last check of the last test case, and only when
  // every check passed. A graded test passes only when its output has this line with this run's
  // seed (course_label_tests in cmake/CourseLesson.cmake), so a program that ends early with
  // status 0, before or during its tests, does not pass; nor does a run of no test case at all
  // (Catch2's help, or arguments changed before main() to a spec that matches nothing).
  if (result == 0 && !listing && g_cases_run > 0) {
    std::printf("%s seed %llu\n", course::test::kCompletionLine,
                static_cast<unsigned long long>(g_seed));
    std::fflush(stdout);
    verdict("tests", "\"pass\": true, \"seed\": " + std::to_string(g_seed));
  }
  // Catch2 returns the number of failed assertions; 77 of them must not read as "skipped".
  return result == kSkipped ? 1 : result;
}
