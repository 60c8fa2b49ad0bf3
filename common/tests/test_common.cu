// Tests of common/: the parser, the table and its CSV, the inputs, the timers, the checked-call
// macro, and (with a GPU) the device-memory owners and the guard zones the lesson tests rely on.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "clock.cuh"
#include "device_profile.hpp"
#include "device_report.cuh"
#include "gpu_timing.cuh"
#include "inputs.hpp"
#include "lesson.cuh"
#include "table.hpp"
#include "testing.hpp"

using course::test::Approx;

namespace {

struct ProcessResult {
  int exit_status;
  std::string output;  // stdout and stderr together
};

ProcessResult run_process(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, got);
  const int raw = pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, output};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `work` with standard error sent to the file descriptor `fd`, then puts it back.
template <typename Work>
void with_stderr_on(int fd, Work&& work) {
  std::fflush(stderr);
  const int saved = dup(2);
  REQUIRE(saved >= 0);
  REQUIRE(dup2(fd, 2) == 2);
  work();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
}

// What can be read from `fd` now, without waiting.
std::string read_available(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  std::string text;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(fd, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  return text;
}

// Two CPU runs of 1.3 s each: long enough for time_cpu's progress line to appear.
void two_slow_cpu_runs() {
  course::time_cpu([] { std::this_thread::sleep_for(std::chrono::milliseconds(1300)); }, 2, 0);
}

}  // namespace

// ---- counts and the command line ---------------------------------------------------------------

TEST_CASE("parse_count reads every form the usage promises", "[cli]") {
  using course::parse_count;
  CHECK(parse_count("0") == 0);
  CHECK(parse_count("1000") == 1000);
  CHECK(parse_count("1e7") == 10000000);
  CHECK(parse_count("100Mi") == 104857600);
  CHECK(parse_count("4G") == 4000000000ull);
  CHECK(parse_count("1k") == 1000);
  CHECK(parse_count("1Ki") == 1024);
  CHECK(parse_count("2Ti") == 2ull << 40);
  CHECK(parse_count("2^28") == 268435456);
  CHECK(parse_count("33*2^20") == 34603008);
  CHECK(parse_count("2^32+7") == 4294967303ull);
  CHECK(parse_count("2^20-1") == 1048575);
  CHECK(parse_count("18446744073709551615") == 18446744073709551615ull);
  CHECK(parse_count("1.6e9") == 1600000000ull);  // a point the exponent makes whole again
  CHECK(parse_count("2.50e1") == 25);
  CHECK(parse_count("3.0") == 3);
}

TEST_CASE("parse_count rejects what is not a count", "[cli]") {
  const std::string text = GENERATE(as<std::string>{}, "", "abc", "-5", "1.5", "12x", "2^", "*3",
                                    "1e", "5-7", "1 000", "18446744073709551616", "2^64", "1e20");
  CAPTURE(text);
  REQUIRE_THROWS_AS(course::parse_count(text), course::UsageError);
}

TEST_CASE("a fraction is refused as not whole, and a count past the range as too large", "[cli]") {
  for (const char* text : {"1.5", "1.25e1", "1.6"}) {
    CAPTURE(text);
    try {
      course::parse_count(text);
      FAIL("accepted");
    } catch (const course::UsageError& e) {
      CHECK(std::string(e.what()).find("is not a whole number") != std::string::npos);
    }
  }
}

TEST_CASE("CommandLine sets options given either way and leaves the rest at their defaults",
          "[cli]") {
  std::size_t n = 7;
  int reps = 3;
  std::string dist = "uniform";
  std::string csv;
  bool flag = false;
  course::CommandLine cli("prog", "summary");
  cli.number("--n", &n, "count", std::size_t{1})
      .number("--reps", &reps, "reps", 1, 50)
      .choice("--dist", &dist, {"uniform", "same"}, "dist")
      .text("--csv", &csv, "FILE", "csv")
      .flag("--flag", &flag, "a flag");

  const char* argv[] = {"prog", "--n", "2^10", "--dist=same", "--flag"};
  REQUIRE(cli.parse(5, argv));
  CHECK(n == 1024);
  CHECK(dist == "same");
  CHECK(flag);
  CHECK(reps == 3);
  CHECK(csv.empty());

  const char* help[] = {"prog", "--n", "oops", "--help"};
  CHECK_FALSE(cli.parse(4, help));  // --help wins, and nothing else is checked
}

TEST_CASE("Names gives a flag its words, its help and a value its name", "[cli]") {
  enum class Shape { round, square };
  const course::Names<Shape> shapes = {{"round", "a circle"}, {"square", "four sides"}};
  CHECK(shapes.name(Shape::square) == "square");
  CHECK(shapes.parse("round") == Shape::round);
  CHECK_THROWS_AS(shapes.parse("oval"), std::invalid_argument);
  CHECK(shapes.all() == std::vector<Shape>{Shape::round, Shape::square});
  CHECK(shapes.help() == "round: a circle; square: four sides");
  Shape shape = Shape::round;
  course::CommandLine cli("prog", "summary");
  cli.choice("--shape", &shape, shapes);
  const char* args[] = {"prog", "--shape", "square"};
  REQUIRE(cli.parse(3, args));
  CHECK(shape == Shape::square);
  const char* bad[] = {"prog", "--shape", "oval"};
  std::string message;
  try {
    cli.parse(3, bad);
  } catch (const course::UsageError& e) {
    message = e.what();
  }
  CHECK(message == "--shape must be one of round|square, not 'oval'");
  CHECK(contains(cli.usage(), "--shape round|square"));
}

TEST_CASE("an old name of a flag or of a Names entry is read as the new name, for a release",
          "[cli]") {
  enum class Shape { round, square };
  const course::Names<Shape> shapes = {{"round", "a circle", "disc"}, {"square", "four sides"}};
  CHECK(shapes.parse("disc") == shapes.parse("round"));
  CHECK(shapes.name(shapes.parse("disc")) == "round");
  CHECK(shapes.help() == "round: a circle (old name disc); square: four sides");
  for (const char* spelling : {"--fill", "--paint"}) {
    CAPTURE(spelling);
    Shape shape = Shape::square;
    bool fill = false;
    course::CommandLine cli("prog", "summary");
    cli.choice("--shape", &shape, shapes)
        .flag("--fill", &fill, "fill it")
        .old_name("--paint", "--fill");
    const char* args[] = {"prog", spelling, "--shape", "disc"};
    REQUIRE(cli.parse(4, args));
    CHECK(fill);
    CHECK(shape == Shape::round);
    CHECK(contains(cli.usage(), "  --paint "));
    CHECK(contains(cli.usage(), " (old name) the same as --fill\n"));
  }
  course::CommandLine cli("prog", "summary");
  bool fill = false;
  cli.flag("--fill", &fill, "fill it").old_name("--paint", "--fill");
  const char* both[] = {"prog", "--fill", "--paint"};
  CHECK_THROWS_AS(cli.parse(3, both), course::UsageError);  // one flag, given twice
}

TEST_CASE("CommandLine rejects bad command lines with a message naming the option", "[cli]") {
  std::size_t n = 7;
  int reps = 3;
  std::string dist = "uniform";
  bool flag = false;
  course::CommandLine cli("prog", "summary");
  cli.number("--n", &n, "count", std::size_t{1})
      .number("--reps", &reps, "reps", 1, 50)
      .choice("--dist", &dist, {"uniform", "same"}, "dist")
      .flag("--flag", &flag, "a flag");

  auto message_for = [&](std::vector<const char*> args) -> std::string {
    args.insert(args.begin(), "prog");
    try {
      cli.parse(static_cast<int>(args.size()), args.data());
    } catch (const course::UsageError& e) {
      return e.what();
    }
    return "accepted";
  };
  CHECK(contains(message_for({"--bogus"}), "unknown option --bogus"));
  CHECK(contains(message_for({"stray"}), "unexpected argument 'stray'"));
  CHECK(contains(message_for({"--n"}), "--n needs a value"));
  CHECK(contains(message_for({"--n", "abc"}), "--n: 'abc' is not a count"));
  CHECK(contains(message_for({"--n", "0"}), "--n must be a whole number from 1"));
  CHECK(contains(message_for({"--reps", "51"}), "--reps 51 is too large: the most is 50"));
  CHECK(contains(message_for({"--dist", "zipf"}), "--dist must be one of uniform|same"));
  CHECK(contains(message_for({"--flag=1"}), "--flag takes no value"));
  CHECK(contains(message_for({"--n", "5", "--n=6"}), "--n is given twice"));
  CHECK(contains(message_for({"--flag", "--flag"}), "--flag is given twice"));
  CHECK(contains(cli.usage(), "--dist uniform|same"));
  CHECK(contains(cli.usage(), "(default 7)"));
}

TEST_CASE("range_error names the other flag's value, not the type's largest", "[cli]") {
  CHECK(course::range_error("--k", 5, 1, "n", 1000).empty());
  CHECK(course::range_error("--k", 0, 1, "n", 1000) ==
        "--k must be a whole number from 1 to n (n = 1000), not 0");
  CHECK(course::range_error("--k", 1001, 1, "n", 1000) ==
        "--k must be a whole number from 1 to n (n = 1000), not 1001");
}

TEST_CASE("parse_or_exit prints one error line and one pointing at --help, and exits 2",
          "[cli]") {
  const ProcessResult bad = run_process(std::string(COURSE_DEMO_PATH) + " cli --n abc");
  INFO(bad.output);
  CHECK(bad.exit_status == 2);
  CHECK(bad.output.rfind("common_demo: error: --n: 'abc' is not a count", 0) == 0);
  CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 2);  // not the usage block
  CHECK(contains(bad.output, "\ncommon_demo --help lists the options\n"));
  CHECK_FALSE(contains(bad.output, "usage:"));

  const ProcessResult help = run_process(std::string(COURSE_DEMO_PATH) + " cli --help");
  CHECK(help.exit_status == 0);
  CHECK(contains(help.output, "usage: common_demo [options]"));

  const ProcessResult good = run_process(std::string(COURSE_DEMO_PATH) + " cli --n 1Ki --verbose");
  CHECK(good.exit_status == 0);
  CHECK(contains(good.output, "n=1024 reps=5 dist=uniform verbose=1"));
}

// ---- CUDA_CHECK -------------------------------------------------------------------------------

TEST_CASE("CUDA_CHECK reports file, line, call and error, then exits 1", "[check]") {
  const ProcessResult r = run_process(std::string(COURSE_DEMO_PATH) + " check");
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(contains(r.output, "common_demo.cpp:"));
  CHECK(contains(r.output, ": cudaSetDevice(-1) failed: cudaError"));
  CHECK_FALSE(contains(r.output, "unreachable"));
}

TEST_CASE("cuda_error_message names the error and hints at the usual fixes", "[check]") {
  const std::string m =
      course::cuda_error_message(cudaErrorNoKernelImageForDevice, "kernel<<<1, 1>>>()", "f.cu", 9);
  CHECK(m.rfind("f.cu:9: kernel<<<1, 1>>>() failed: cudaErrorNoKernelImageForDevice (", 0) == 0);
  CHECK(contains(m, "CMAKE_CUDA_ARCHITECTURES=native"));
  // The runtime's cudaErrorInsufficientDriver means an old driver or none at all: the hint says
  // which this machine has (cudaDriverGetVersion gives 0 where there is none).
  const std::string driver = course::cuda_error_message(cudaErrorInsufficientDriver, "c", "f", 1);
  INFO(driver);
  if (course::driver_version() == 0) {
    CHECK(contains(driver, "hint: no NVIDIA driver is loaded"));
    CHECK_FALSE(contains(driver, "older"));
  } else {
    CHECK(contains(driver, "is older than this CUDA toolkit"));
  }
  CHECK(contains(course::cuda_error_message(cudaErrorNoDevice, "c", "f", 1),
                 "hint: no CUDA GPU is visible"));
}

TEST_CASE("no GPU: an older driver is named only where there is one, else no driver", "[check]") {
  CHECK(course::no_gpu_reason(cudaErrorInsufficientDriver, 0, 13000) ==
        "no NVIDIA driver is loaded");
  CHECK(course::no_gpu_reason(cudaErrorInsufficientDriver, 12020, 13000) ==
        "the NVIDIA driver (CUDA 12.2) is older than this CUDA toolkit (13.0): update the driver");
  CHECK(course::no_gpu_reason(cudaErrorNoDevice, 13000, 13000) ==
        "no CUDA GPU is visible (check nvidia-smi)");
  CHECK(course::version_text(12080) == "12.8");
  // The probe's answer on this machine: usable, or a reason and CUDA's name for the error.
  const course::GpuProbe probe = course::probe_gpu_reason();
  if (!probe.usable) {
    INFO(probe.reason);
    CHECK(probe.error.rfind("cudaError", 0) == 0);
    CHECK_FALSE(probe.reason.empty());
    CHECK(contains(probe.reason, "older") == (course::driver_version() > 0 &&
                                              probe.error == "cudaErrorInsufficientDriver"));
  }
}

// ---- timing ------------------------------------------------------------------------------------

TEST_CASE("median takes the middle sample, or the mean of the middle two", "[timing]") {
  CHECK(course::median({5.0}) == 5.0);
  CHECK(course::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(course::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(course::median({9.0, 1.0, 1.0, 1.0, 8.0}) == 1.0);  // not the mean
  REQUIRE_THROWS(course::median({}));
}

TEST_CASE("time_cpu warms up, prepares before every run and summarises the runs", "[timing]") {
  int prepared = 0;
  int ran = 0;
  const course::Timing t = course::time_cpu([&] { ++prepared; }, [&] { ++ran; }, 7, 2);
  CHECK(prepared == 9);
  CHECK(ran == 9);
  CHECK(t.reps == 7);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
  REQUIRE_THROWS(course::time_cpu([] {}, 0));
}

TEST_CASE("long CPU timing shows progress on a terminal, and wipes it when done", "[timing]") {
  const int terminal = posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(terminal >= 0);
  REQUIRE(grantpt(terminal) == 0);
  REQUIRE(unlockpt(terminal) == 0);
  const int other_end = open(ptsname(terminal), O_RDWR | O_NOCTTY);
  REQUIRE(other_end >= 0);
  with_stderr_on(other_end, two_slow_cpu_runs);
  const std::string shown = read_available(terminal);
  close(other_end);
  close(terminal);
  INFO(shown);
  // run 2 says the rate of run 1 and the time left at it, then the time so far
  CHECK(contains(shown, "timing on the CPU: run 2 of 2 (1.3 s a run, about 1.3 s left), 2 s"));
  CHECK_FALSE(contains(shown, "run 1 of 2"));  // nothing in the first two seconds
  CHECK(shown.size() >= 4);
  CHECK(shown.substr(shown.size() - 4) == "\r\033[K");
}

TEST_CASE("a duration reads as seconds, or minutes and seconds", "[timing]") {
  CHECK(course::Progress::seconds_text(0.84) == "0.8 s");
  CHECK(course::Progress::seconds_text(29.4) == "29 s");
  CHECK(course::Progress::seconds_text(125.2) == "2 min 05 s");
}

TEST_CASE("CPU timing stays quiet when standard error is not a terminal", "[timing]") {
  char path[] = "/tmp/course_progress_XXXXXX";
  const int file = mkstemp(path);
  REQUIRE(file >= 0);
  with_stderr_on(file, two_slow_cpu_runs);
  lseek(file, 0, SEEK_SET);
  const std::string written = read_available(file);
  close(file);
  std::remove(path);
  CHECK(written.empty());
}

// ---- inputs ------------------------------------------------------------------------------------

TEST_CASE("random_bytes is a pure function of seed and index, on any number of threads",
          "[inputs]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{3} << 20) + 5;  // large enough to be filled by threads
  const std::vector<std::uint8_t> bytes = course::random_bytes(n, seed);
  REQUIRE(bytes.size() == n);
  std::size_t differences = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto expected =
        static_cast<std::uint8_t>(course::random_u64(seed, i / 8) >> (8 * (i % 8)));
    differences += bytes[i] != expected;
  }
  CHECK(differences == 0);
  CHECK(course::random_bytes(1000, seed) ==
        std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 1000));
  CHECK(course::random_bytes(1000, seed + 1) !=
        std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 1000));
}

TEST_CASE("random_bytes looks uniform", "[inputs]") {
  const std::size_t n = 1 << 20;
  const std::vector<std::uint8_t> bytes = course::random_bytes(n, course::test::seed());
  std::vector<double> counts(256, 0.0);
  for (auto b : bytes)
    counts[b] += 1.0;
  // Chi-squared with 255 degrees of freedom: mean 255, sd 22.6. 400 is 6.4 sd out.
  double chi2 = 0.0;
  const double expected = n / 256.0;
  for (double c : counts)
    chi2 += (c - expected) * (c - expected) / expected;
  CHECK(chi2 < 400.0);
}

TEST_CASE("random_ints and random_reals stay in their ranges and cover them", "[inputs]") {
  const std::uint64_t seed = course::test::seed();
  const auto ints = course::random_ints<int>(100000, seed, -3, 3);
  CHECK(std::set<int>(ints.begin(), ints.end()) == std::set<int>{-3, -2, -1, 0, 1, 2, 3});
  const auto full = course::random_ints<std::uint32_t>(1000, seed, 0, 0xFFFFFFFFu);
  CHECK(std::set<std::uint32_t>(full.begin(), full.end()).size() > 990);
  const auto reals = course::random_reals<float>(100000, seed, -1.0f, 1.0f);
  float lo = 2.0f;
  float hi = -2.0f;
  for (float x : reals) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  CHECK(lo >= -1.0f);
  CHECK(lo < -0.99f);
  CHECK(hi < 1.0f);
  CHECK(hi > 0.99f);
  CHECK(course::random_reals<double>(10, seed, 0.0, 1.0) ==
        course::random_reals<double>(10, seed, 0.0, 1.0));
}

// ---- the table ---------------------------------------------------------------------------------

TEST_CASE("ResultTable computes GB/s, % of copy and speedup, and marks skipped rows", "[table]") {
  course::ResultTable table("title line", 2000.0, 50.0, "CPU x");
  course::Timing t;
  t.median_ms = 0.5;
  t.min_ms = 0.4;
  t.max_ms = 0.7;
  t.reps = 9;
  table.add({"v1", "an idea, with a comma", t, 500e6, course::Check::ok, ""});
  table.add({"v2", "another", t, 500e6, course::Check::skipped, "32-bit bins wrap"});
  const course::TableRow& row = table.rows()[0];
  CHECK(course::ResultTable::gbps(row) == Approx(1000.0));
  CHECK(table.percent_of_copy(row) == Approx(50.0));
  CHECK(table.speedup(row) == Approx(100.0));
  CHECK_FALSE(table.any_failed());

  const std::string text = table.text();
  CHECK(text.rfind("title line\n", 0) == 0);
  CHECK(contains(text, "1000.0"));
  CHECK(contains(text, "50.0%"));
  CHECK(contains(text, "100.0x"));
  CHECK(contains(text, "v2: 32-bit bins wrap"));

  const std::string csv = table.csv({{"lesson", "01"}, {"device", "GPU, 80GB"}});
  CHECK(csv.rfind("lesson,device,version,idea,median_ms,min_ms,max_ms,reps,", 0) == 0);
  CHECK(contains(csv,
                 "\n01,\"GPU, 80GB\",v1,\"an idea, with a comma\",0.500000,0.400000,0.700000,9,"));
  CHECK(contains(csv, ",skipped,32-bit bins wrap\n"));

  table.add({"v3", "broken", t, 1.0, course::Check::fail, "off by one"});
  CHECK(table.any_failed());
}

TEST_CASE("the best-version line compares first operations: the source's row, the libraries",
          "[table]") {
  course::ResultTable table("t", 1000.0, 10.0, "the CPU");
  const auto time = [](double ms) { return course::Timing{ms, ms, ms, 1}; };
  table.add_checked("v0", "source", time(2.0), 1e6, "").kind = course::Kind::source;
  table.add_checked("v1", "better", time(1.0), 1e6, "");
  table.add_checked("v2", "wrong", time(0.1), 1e6, "2 bins wrong");
  table.add_checked("v1 find", "a second operation", time(0.05), 1e6, "").of = "v1";
  table.add_checked("CUB", "library", time(0.5), 1e6, "").kind = course::Kind::library;
  course::TableRow& thr =
      table.add_checked("Thr find", "a library's second operation", time(0.01), 1e6, "");
  thr.kind = course::Kind::library;
  thr.of = "Thr";
  const std::string line = course::best_version_line(table, 10.0, "the CPU");
  CHECK(line == "best version v1, 1.0000 ms: 10.0x the CPU's speed, 2.0x v0's, 0.50x CUB's");
}

TEST_CASE("the best-version line reads each row's kind, never its name", "[table]") {
  course::ResultTable table("t", 1000.0, 10.0, "the CPU");
  const auto time = [](double ms) { return course::Timing{ms, ms, ms, 1}; };
  table.add_skipped("v0", "the source's, not run", 1e6, "not in --only").kind =
      course::Kind::source;
  table.add_checked("s1", "the source's second program", time(3.0), 1e6, "").kind =
      course::Kind::source;
  table.add_checked("ring", "the course's, named like no version", time(1.0), 1e6, "");
  table.add_checked("vendor", "a library named like a version", time(0.4), 1e6, "").kind =
      course::Kind::library;
  table.add_checked("v9 find", "a course row with a space and no `of`", time(0.8), 1e6, "");
  const std::string line = course::best_version_line(table, 10.0, "the CPU");
  // The first source row (v0) did not run, so no source is compared; "v9 find" is a version.
  CHECK(line == "best version v9 find, 0.8000 ms: 12.5x the CPU's speed, 0.50x vendor's");
}

TEST_CASE("the --only filter chooses a second operation with its version, by its of alone",
          "[cli]") {
  course::Lesson lesson("99", "a test of --only", "things", 10);
  const char* argv[] = {"lesson99", "--only", "v4,Thr"};
  bool ran = false;
  const int status = lesson.main(3, const_cast<char**>(argv), {"v3", "v4", "Thr"}, [&] {
    const auto version = [](const char* name) {
      return course::Version{name, "", "", [] {}, [] { return std::string(); }};
    };
    CHECK(lesson.chosen(version("v4")));
    CHECK_FALSE(lesson.chosen(version("v3")));
    CHECK(lesson.chosen(course::operation_of("v4", version("v4 find"))));
    CHECK(lesson.chosen(course::operation_of("Thr", version("Thr miss"))));
    CHECK_FALSE(lesson.chosen(course::operation_of("v3", version("v3 find"))));
    CHECK_FALSE(lesson.chosen(version("v4 find")));  // a name with a space chooses nothing
    ran = true;
    return 0;
  });
  CHECK(status == 0);
  CHECK(ran);
}

TEST_CASE("format fills a std::string like printf", "[table]") {
  CHECK(course::format("%d-%s-%.2f", 7, "x", 1.5) == "7-x-1.50");
  CHECK(course::format("%s", std::string(5000, 'a').c_str()).size() == 5000);
}

// ---- the GPU side ------------------------------------------------------------------------------

namespace {
__global__ void write_one(int* p, long long index, int value) {
  p[index] = value;
}
}  // namespace

TEST_CASE("a GPU is usable when these tests run", "[gpu]") {
  std::string why;
  const bool usable = course::probe_gpu(&why);
  INFO(why);
  REQUIRE(usable);
}

TEST_CASE("DeviceBuffer uploads, fills, downloads and moves", "[gpu]") {
  const std::vector<int> host = course::random_ints<int>(1001, course::test::seed(), -50, 50);
  course::DeviceBuffer<int> buffer(host);
  CHECK(buffer.size() == 1001);
  CHECK(buffer.bytes() == 1001 * sizeof(int));
  CHECK(buffer.download() == host);

  buffer.fill_bytes(0xFF);
  CHECK(buffer.download() == std::vector<int>(1001, -1));

  course::DeviceBuffer<int> moved(std::move(buffer));
  CHECK(moved.size() == 1001);
  CHECK(buffer.size() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state is defined
  CHECK(buffer.data() == nullptr);
  CHECK(course::DeviceBuffer<int>(0).download().empty());
}

TEST_CASE("GuardedBuffer notices a write one element past the end", "[gpu]") {
  course::test::GuardedBuffer<int> inside(100);
  write_one<<<1, 1>>>(inside.data(), 99, 7);
  CUDA_CHECK_LAUNCH();
  CHECK(inside.guards_intact());
  CHECK(inside.download()[99] == 7);

  course::test::GuardedBuffer<int> after(100);
  write_one<<<1, 1>>>(after.data(), 100, 7);
  CUDA_CHECK_LAUNCH();
  CHECK_FALSE(after.guards_intact());

  course::test::GuardedBuffer<int> before(100);
  write_one<<<1, 1>>>(before.data(), -1, 7);
  CUDA_CHECK_LAUNCH();
  CHECK_FALSE(before.guards_intact());
}

TEST_CASE("a Clock's settings are copies and it refuses fewer than one run", "[timing]") {
  const course::Clock clock(7);
  const course::Clock changed = clock.warmups(0).budget_ms(5.0).keep_l2_warm();
  CHECK(clock.reps() == 7);
  CHECK(clock.warmups() == 2);
  CHECK(clock.budget_ms() == 0.0);
  CHECK(clock.flushes_l2());
  CHECK(changed.reps() == 7);
  CHECK(changed.warmups() == 0);
  CHECK(changed.budget_ms() == 5.0);
  CHECK_FALSE(changed.flushes_l2());
  CHECK_THROWS(course::Clock(0));
  CHECK_THROWS(clock.reps(0));
}

TEST_CASE("the Clock times with events (poison and prepare untimed) and the copy is plausible",
          "[gpu]") {
  course::DeviceBuffer<float> a(1 << 24);
  course::DeviceBuffer<float> b(1 << 24);
  std::string order;
  const course::Timing t = course::Clock(5).warmups(1).time(
      [&] { CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), a.bytes(), cudaMemcpyDeviceToDevice)); },
      [&] { order += 'p'; }, [&] { order += 'r'; });
  CHECK(order == "prprprprprpr");  // the poison, then the prepare, before each of 1 + 5 runs
  CHECK(t.reps == 5);
  CHECK(t.median_ms > 0.0);
  CHECK(t.min_ms <= t.median_ms);
  // The busy kernel that queue_ahead() puts before each run (50 us) is not part of the time, nor
  // is the L2 flush: an empty run takes next to nothing, with the L2 flushed or kept warm.
  const course::Timing empty = course::Clock(5).warmups(1).time([] {});
  CHECK(empty.median_ms < 0.02);
  const course::Timing warm = course::Clock(5).warmups(1).keep_l2_warm().time([] {});
  CHECK(warm.median_ms < 0.02);
  const double gbps = course::measure_copy_gbps(std::size_t{64} << 20, 3);
  CHECK(gbps > 10.0);      // any GPU of compute capability 7.0 or newer
  CHECK(gbps < 100000.0);  // and no GPU this decade
}

// ---- device profiles (common/device_profile.hpp) ------------------------------------------------

TEST_CASE("the device profiles are the ones CMake runs the tests under", "[profile]") {
  std::string names;
  for (const course::DeviceProfile& p : course::kDeviceProfiles) {
    names += names.empty() ? p.name : std::string(",") + p.name;
  }
  CHECK(names == COURSE_DEVICE_PROFILE_NAMES);
  REQUIRE(course::find_device_profile("t4") != nullptr);
  CHECK(course::find_device_profile("t4")->sms == 40);
  CHECK(course::find_device_profile("gtx480") == nullptr);
  const course::DeviceProfile& a100 = *course::find_device_profile("a100");
  CHECK(course::profiled_attribute(a100, cudaDevAttrMultiProcessorCount, 132) == 108);
  CHECK(course::profiled_attribute(a100, cudaDevAttrComputeCapabilityMajor, 9) == 8);
  CHECK(course::profiled_attribute(a100, cudaDevAttrWarpSize, 32) == 32);  // not profiled
}

TEST_CASE("a profile's occupancy is limited by threads, registers and shared memory", "[profile]") {
  const course::DeviceProfile& t4 = *course::find_device_profile("t4");
  const course::DeviceProfile& a100 = *course::find_device_profile("a100");
  const course::DeviceProfile& rtx3060 = *course::find_device_profile("rtx3060");
  // Threads: a T4 SM holds 1024 threads, an A100's 2048; 32 registers fit either.
  CHECK(course::profiled_blocks_per_sm(t4, 256, 32, 0) == 4);
  CHECK(course::profiled_blocks_per_sm(a100, 256, 32, 0) == 8);
  CHECK(course::profiled_blocks_per_sm(rtx3060, 1024, 32, 0) == 1);
  // Blocks: 32 threads a block, at most 16 (T4) or 32 (A100) blocks.
  CHECK(course::profiled_blocks_per_sm(t4, 32, 16, 0) == 16);
  CHECK(course::profiled_blocks_per_sm(a100, 32, 16, 0) == 32);
  // Registers: 64 a thread, in warps of 2048, leave room for 32 warps: one block of 1024.
  CHECK(course::profiled_blocks_per_sm(a100, 1024, 64, 0) == 1);
  CHECK(course::profiled_blocks_per_sm(a100, 256, 64, 0) == 4);
  CHECK(course::profiled_blocks_per_sm(a100, 1024, 255, 0) == 0);  // past 64K registers a block
  // Shared memory: with the reserve of 1 KiB a block on an A100, none on a T4.
  CHECK(course::profiled_blocks_per_sm(t4, 128, 32, 32 * 1024) == 2);
  CHECK(course::profiled_blocks_per_sm(a100, 128, 32, 40 * 1024) == 4);
  CHECK(course::profiled_blocks_per_sm(a100, 128, 32, 40 * 1024 + 1) == 3);
  CHECK(course::profiled_blocks_per_sm(a100, 128, 32, 54 * 1024) == 2);
  CHECK(course::profiled_blocks_per_sm(t4, 128, 32, 64 * 1024 + 1) == 0);  // past the opt-in
  CHECK(course::profiled_blocks_per_sm(t4, 2048, 32, 0) == 0);
  // The calculator's finer rules: shared memory in units (256 bytes on a T4), and registers from
  // four quarters of the file, each holding whole warps.
  CHECK(course::profiled_blocks_per_sm(t4, 128, 32, 13100) == 4);  // 13312 bytes a block: 4
  CHECK(course::profiled_blocks_per_sm(a100, 64, 48, 0) == 20);    // 10 warps a quarter, not 42.7
  CHECK(course::profiled_blocks_per_sm(a100, 352, 184, 0) == 0);   // 2 warps a quarter: 8 < 11
}

__global__ void profile_probe_kernel(int* out) {
  extern __shared__ int staged[];
  staged[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, staged[blockDim.x - 1]);
}

// The same checks hold on the GPU itself and under any profile (ctest -L profile runs this under
// each): the attributes are the profile's, and a request past its limits gets the GPU's refusal.
TEST_CASE("requests past the GPU's limits, or the profile's, are refused as the GPU refuses them",
          "[gpu]") {
  if (const course::DeviceProfile* p = course::device_profile()) {
    CHECK(course::sm_count() == p->sms);
    CHECK(course::l2_bytes() == static_cast<std::size_t>(p->l2_bytes));
    CHECK(course::max_shared_bytes() == static_cast<std::size_t>(p->shared_per_block_optin));
    CHECK(course::make_device_report().props.multiProcessorCount == p->sms);
  }
  const std::size_t most = course::max_shared_bytes();
  CHECK(course::set_dynamic_shared_bytes(profile_probe_kernel, most) == cudaSuccess);
  CHECK(course::set_dynamic_shared_bytes(profile_probe_kernel, most + 1) == cudaErrorInvalidValue);
  cudaGetLastError();
  course::DeviceBuffer<int> out(1);
  out.fill_bytes(0);
  int* d_out = out.data();
  void* args[] = {&d_out};
  const int threads = 256;
  const std::size_t bytes = threads * sizeof(int);
  const int grid = course::occupancy_grid(profile_probe_kernel, threads, bytes);
  REQUIRE(grid >= course::sm_count());
  CHECK(course::launch_cooperative(profile_probe_kernel, grid + 1, threads, args, bytes, nullptr) ==
        cudaErrorCooperativeLaunchTooLarge);
  cudaGetLastError();
  CHECK(course::launch_cooperative(profile_probe_kernel, grid, threads, args, bytes, nullptr) ==
        cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out.download()[0] == grid);
}
