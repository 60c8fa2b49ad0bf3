// NVBench as a second clock for the course's tables, plugged in at link time: this file is compiled
// into the lessonNN_nvbench programs only (bench/nvbench.cmake), beside the lesson's own main.cu.
// Before main() it registers itself as the table backend of the course's driver (TableBackend,
// common/lesson.cuh), which adds the --nvbench flag to those programs. Such a program then runs
// exactly as lessonNN does, on the same input, with the same checks, but its table's times come
// from NVBench instead of the course's clock (common/clock.cuh): each version becomes one NVBench
// benchmark, measured cold (NVBench flushes the L2 before every sample), with the version's poison
// and prepare steps outside the timed region, and the bytes the table counts declared as global
// memory reads, so that NVBench reports bandwidth too. What follows --nvbench goes to NVBench's
// own options:
//
//   lesson02_nvbench --n 2^28 --nvbench "--json lesson02.json --min-samples 20"
//
// scripts/timer_check.py runs both programs and sets the two clocks side by side.

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nvbench/nvbench.cuh>

#include "check.hpp"
#include "cli.hpp"
#include "gpu_timing.cuh"
#include "lesson.cuh"
#include "timing.hpp"

namespace course {
namespace nvbench_clock {

// One version to measure: its run (enqueued on the legacy default stream, as the lessons do),
// what must happen untimed before each run, the bytes to declare, and its check.
struct Request {
  std::string name;
  std::function<void()> setup;   // once, just before the version is measured
  std::function<void()> before;  // untimed, before every run (poison, prepare)
  std::function<void()> run;
  std::function<std::string()> check;  // right after the version is measured: "" or what is wrong
  double bytes = 0;
};

// What NVBench measured of a version, and what its check said.
struct Measured {
  Timing time;
  std::string mismatch;
};

inline std::vector<Request>& requests() {
  static std::vector<Request> all;
  return all;
}
inline std::vector<std::string>& mismatches() {
  static std::vector<std::string> all;
  return all;
}

// NVBench queues a kernel that holds the stream until the host has enqueued the timed work; a run
// that waits for the GPU itself (a cudaMemcpy of a result, a host-side loop) would wait for ever.
// Such a run is found by timing its call on the host behind a busy kernel of `busy_ms`: a call that
// returns only after the busy kernel has finished synchronised.
inline bool synchronizes(const std::function<void()>& run, double busy_ms = 20.0) {
  queue_ahead(nullptr, static_cast<unsigned long long>(busy_ms * 1e6));
  const auto start = std::chrono::steady_clock::now();
  run();
  const double call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CUDA_CHECK(cudaDeviceSynchronize());
  return call_ms > 0.75 * busy_ms;
}

// The NVBench benchmark of one request, found by the benchmark's name. As in the course's own
// timing (Lesson::time), a version is set up just before it is measured and checked just after,
// before the next version's setup can overwrite what it left.
struct VersionBenchmark {
  void operator()(nvbench::state& state, nvbench::type_list<>) const {
    const std::string& name = state.get_benchmark().get_name();
    for (std::size_t i = 0; i < requests().size(); ++i) {
      const Request& r = requests()[i];
      if (r.name != name) continue;
      if (r.setup) r.setup();
      // One untimed run first: a kernel's first launch loads its module (CUDA loads lazily),
      // which may wait for the GPU and would pass for a run that synchronises.
      if (r.before) r.before();
      r.run();
      CUDA_CHECK(cudaDeviceSynchronize());
      if (r.before) r.before();
      const bool waits = synchronizes(r.run);
      if (waits) {
        std::printf(
            "%s waits for the GPU inside its run: NVBench times it without its blocking "
            "kernel (exec_tag::sync), so the launch latency is in its time\n",
            name.c_str());
      }
      state.set_cuda_stream(nvbench::make_cuda_stream_view(nullptr));
      state.add_global_memory_reads(static_cast<std::size_t>(r.bytes));
      const auto timed = [&](nvbench::launch&, auto& timer) {
        if (r.before) r.before();
        timer.start();
        r.run();
        timer.stop();
      };
      if (waits) {
        state.exec(nvbench::exec_tag::timer | nvbench::exec_tag::sync, timed);
      } else {
        state.exec(nvbench::exec_tag::timer, timed);
      }
      CUDA_CHECK(cudaDeviceSynchronize());
      mismatches()[i] = r.check ? r.check() : "";
      return;
    }
    state.skip("no such version");
  }
};

// A summary NVBench wrote, or nullptr.
inline const nvbench::summary* find_summary(const nvbench::state& state, const char* tag) {
  for (const nvbench::summary& s : state.get_summaries()) {
    if (s.get_tag() == tag && s.has_value("value")) return &s;
  }
  return nullptr;
}
// A time summary in milliseconds (NVBench's are in seconds), or 0 when there is none.
inline double summary_ms(const nvbench::state& state, const char* tag) {
  const nvbench::summary* s = find_summary(state, tag);
  return s != nullptr ? s->get_float64("value") * 1e3 : 0.0;
}

// NVBench's cold GPU time of each request, in order (its median; min and max as NVBench saw
// them), and its check. `args` are NVBench's own options.
inline std::vector<Measured> measure(std::vector<Request> list, const std::string& args) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  requests() = std::move(list);
  mismatches().assign(requests().size(), "NVBench did not run it");
  nvbench::benchmark_manager& manager = nvbench::benchmark_manager::get();
  for (const Request& r : requests()) {
    manager.add(std::make_unique<nvbench::benchmark<VersionBenchmark>>()).set_name(r.name);
  }
  manager.initialize();
  std::vector<std::string> argv = {"nvbench", "--devices", std::to_string(device)};
  std::istringstream words(args);
  for (std::string word; words >> word;)
    argv.push_back(word);
  nvbench::option_parser parser;
  parser.parse(argv);
  nvbench::detail::main_print_preamble(parser);
  nvbench::detail::main_run_benchmarks(parser);
  nvbench::detail::main_print_epilogue(parser);
  nvbench::detail::main_print_results(parser);

  std::vector<Measured> out;
  for (std::size_t i = 0; i < requests().size(); ++i) {
    Measured m;
    m.mismatch = mismatches()[i];
    for (const auto& bench : parser.get_benchmarks()) {
      if (bench->get_name() != requests()[i].name || bench->get_states().empty()) continue;
      const nvbench::state& state = bench->get_states().front();
      if (state.is_skipped()) continue;
      m.time.median_ms = summary_ms(state, "nv/cold/time/gpu/median");
      m.time.min_ms = summary_ms(state, "nv/cold/time/gpu/min");
      m.time.max_ms = summary_ms(state, "nv/cold/time/gpu/max");
      const nvbench::summary* samples = find_summary(state, "nv/cold/sample_size");
      m.time.reps = samples != nullptr ? static_cast<int>(samples->get_int64("value")) : 0;
    }
    out.push_back(m);
  }
  return out;
}

// The backend the driver calls: --nvbench's options, and the table's versions as requests.
class NvbenchBackend : public TableBackend {
 public:
  void add_options(CommandLine& cli) override {
    cli.text("--nvbench", &args_, "ARGS",
             "NVBench's own options, in one argument: \"--json FILE --min-samples 20\"");
  }

  std::vector<Outcome> measure(const std::vector<Version>& versions, double bytes,
                               const std::function<void()>& poison,
                               const std::function<bool(const Version&)>& chosen) override {
    std::vector<Request> list;
    for (const Version& v : versions) {
      if (!chosen(v) || !v.limit.empty()) continue;
      list.push_back({v.name, v.setup,
                      [&poison, &v] {
                        if (poison) poison();
                        if (v.prepare) v.prepare();
                      },
                      v.run, v.check, v.bytes > 0 ? v.bytes : bytes});
    }
    std::vector<Outcome> out;
    for (const Measured& m : nvbench_clock::measure(list, args_))
      out.push_back({m.time, m.mismatch});
    return out;
  }

 private:
  std::string args_;  // NVBench's own options
};

// Registered before main(): the driver finds it when the lesson is made.
const bool registered = [] {
  set_table_backend(std::make_unique<NvbenchBackend>());
  return true;
}();

}  // namespace nvbench_clock
}  // namespace course
