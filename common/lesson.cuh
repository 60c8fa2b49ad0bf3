// The driver every lesson's main.cu runs on. A lesson says what is its own: its flags, its input,
// its CPU references and its list of versions. The driver does the rest, the same way in every
// lesson: the standard flags (--n, --seed, --reps, --cpu-reps, --csv, --only), the check of memory
// and of the output path before any work, the "no GPU" exit after the CPU part, the timing of each
// version (its output poisoned and the L2 flushed before every run, slow versions cut short), the
// reasons a version is skipped, the table, the best-version line, the whole trip, the CSV and the
// exit status (cli.hpp lists them).
//
//   course::Lesson lesson("05", "Sorting floats: ...", "floats to sort", 1024);
//   lesson.cli().number("--threads", &threads, "threads per block", 32, 1024);  // its own flags
//   return lesson.main(argc, argv, {"v0", "v1", "CUB"}, [&] {                  // --only's names
//     lesson.begin("sorting 1024 floats, perm", bytes);  // the header line; the memory check
//     ...the CPU part...; lesson.set_cpu(ms, "std::sort on one core");
//     lesson.gpu();                                      // exits 77 here without a GPU
//     lesson.poison([&] { out.fill_bytes(0xFF); });
//     lesson.run_versions(title, bytes, {course::as(course::Kind::source,  // kind.hpp
//                                                   {"v0", "the source's", limit, run, check}),
//                                        ...});
//     lesson.whole_trip("v8", bytes, copy_in, run_and_copy_out);
//     lesson.write_csv("perm", {{"size", "2^10 floats"}});
//     return lesson.finish(other_checks_ok);
//   });
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "cli.hpp"
#include "clock.cuh"
#include "device_memory.hpp"
#include "device_report.cuh"
#include "gpu_timing.cuh"
#include "inputs.hpp"
#include "kind.hpp"
#include "launch.hpp"
#include "nvtx.hpp"
#include "progress.hpp"
#include "table.hpp"
#include "timing.hpp"

namespace course {

// A version as the driver runs it: {name, idea, limit, run, check} and, where needed, the rest.
struct Version {
  std::string name;                    // "v3", "CUB": what the table and --only call it
  std::string idea;                    // its one idea, in a few words
  std::string limit;                   // "" when it runs on this input; else why it does not
  std::function<void()> run;           // enqueues the timed work
  std::function<std::string()> check;  // after the timed runs: "" or what is wrong
  std::function<void()> prepare = {};  // untimed, before each run, after the output's poison
  std::function<void()> setup = {};    // untimed, once, before the first run
  double bytes = 0;                    // bytes the problem must move; 0: the table's
  std::string note = {};               // said under the table when the check passes
  bool may_fail = false;               // it is there to show a failure (a race): not an error
  Kind kind = Kind::course;            // whose it is: the source's, the course's, a library's
  std::string of = {};                 // a second operation ("v4 find"): its version ("v4")
};

// `v`, said to be of `kind`: versions.push_back(course::as(course::Kind::library, {"CUB", ...})).
inline Version as(Kind kind, Version v) {
  v.kind = kind;
  return v;
}
// `v`, a second operation of `version` (lesson 04's "v4 find" of "v4").
inline Version operation_of(const std::string& version, Version v) {
  v.of = version;
  return v;
}

// A version's median time and what its check found ("" when it passed).
struct Outcome {
  Timing time;
  std::string mismatch;
};

// A second clock for a whole table, plugged in at link time: a program linked with one
// (bench/course_nvbench.cu makes the lessonNN_nvbench programs) registers it before main() with
// set_table_backend(); the driver then asks it for every version's time instead of timing each
// with the Clock. Without one, Lesson::time times the table.
class TableBackend {
 public:
  virtual ~TableBackend() = default;
  // Adds the backend's own flags to the lesson's command line.
  virtual void add_options(CommandLine& cli) = 0;
  // Sets up, times and checks, in order, every version that `chosen` accepts and whose limit
  // allows it; `poison` (may be empty) goes before every run, untimed, then the version's prepare.
  virtual std::vector<Outcome> measure(const std::vector<Version>& versions, double bytes,
                                       const std::function<void()>& poison,
                                       const std::function<bool(const Version&)>& chosen) = 0;
};

inline std::unique_ptr<TableBackend>& table_backend_slot() {
  static std::unique_ptr<TableBackend> backend;
  return backend;
}
// The backend this program was linked with, or nullptr: the Clock times the table.
inline TableBackend* table_backend() {
  return table_backend_slot().get();
}
inline void set_table_backend(std::unique_ptr<TableBackend> backend) {
  table_backend_slot() = std::move(backend);
}

// The names --only accepts: each of a lesson's `versions` (anything with a .name), then
// `libraries`.
template <typename List>
std::vector<std::string> names_of(const List& versions, std::vector<std::string> libraries) {
  std::vector<std::string> names;
  for (const auto& v : versions)
    names.push_back(v.name);
  names.insert(names.end(), libraries.begin(), libraries.end());
  return names;
}

class Lesson {
 public:
  // A slow version stops after 3 runs once its runs add up to this.
  static constexpr double kBudgetMs = 3000.0;

  struct Options {
    std::size_t n = 0;
    std::uint64_t seed = kDefaultSeed;
    int reps = 20;
    int cpu_reps = 3;
    std::string csv;
    std::string only;
  };

  // `number` is "01" to "99"; `n_help` says what --n counts; `n` is its default.
  Lesson(const Lesson&) = delete;
  Lesson& operator=(const Lesson&) = delete;
  Lesson(const std::string& number, const std::string& summary, const std::string& n_help,
         std::size_t n, std::size_t max_n = std::numeric_limits<std::size_t>::max(),
         int cpu_reps = 3)
      : number_(number), program_("lesson" + number), cli_(program_, summary) {
    options_.n = n;
    options_.cpu_reps = cpu_reps;
    add_standard_flags(cli_, &options_.n, &options_.seed, &options_.reps, n_help, max_n);
    cli_.number("--cpu-reps", &options_.cpu_reps, "timed runs of each CPU version", 1, 1000);
    cli_.text("--csv", &options_.csv, "FILE", "also write the result table to FILE as CSV");
    cli_.text("--only", &options_.only, "LIST",
              "run only these versions, by name, comma-separated: v0,v3,CUB (default: all)");
    if (TableBackend* backend = table_backend()) backend->add_options(cli_);
  }

  CommandLine& cli() { return cli_; }
  const Options& options() const { return options_; }
  std::size_t n() const { return options_.n; }
  int reps() const { return options_.reps; }
  int cpu_reps() const { return options_.cpu_reps; }
  const std::string& program() const { return program_; }
  const std::string& command() const { return command_; }
  const DeviceReport& report() const { return report_; }
  bool chosen(const std::string& name) const { return VersionFilter(options_.only).chosen(name); }
  // A version is chosen by its name; a second operation by its version's.
  bool chosen(const Version& v) const { return chosen(v.of.empty() ? v.name : v.of); }

  // Parses the command line (exit 2 on a bad one), checks --only against `names` and that the
  // --csv file can be written (and, as it holds the GPU part's table, that there is a GPU: exit
  // 77 at once without one), then runs `body` and turns what it throws into one line and a
  // status.
  template <typename Body>
  int main(int argc, char** argv, const std::vector<std::string>& names, Body&& body) {
    return run_program(program_, [&] {
      parse_or_exit(cli_, argc, argv);
      device_profile();  // an unknown COURSE_DEVICE_PROFILE: one line, exit 2, before any work
      command_ = command_text(program_, argc, argv);
      const std::string unknown = VersionFilter(options_.only).unknown(names);
      if (!unknown.empty()) usage_error(cli_, "--only: no version is called " + unknown);
      require_writable(cli_, "--csv", options_.csv);
      if (!options_.csv.empty()) require_gpu_for("--csv");
      return body();
    });
  }

  // Prints "lessonNN: <what>, seed S" and, before any work, exits 2 with one line when the run's
  // `bytes` exceed what the GPU has free (less the L2 flush and 64 MiB for outputs and
  // workspaces), or its `host_bytes` (0: the same as `bytes`) what the host can hold. Without a GPU
  // only the host is checked: the CPU part runs.
  void begin(const std::string& what, std::size_t bytes, std::size_t host_bytes = 0) {
    std::printf("%s: %s, seed %llu\n\n", program_.c_str(), what.c_str(),
                static_cast<unsigned long long>(options_.seed));
    const std::string cause = course::format("--n %zu", options_.n);
    require_host_memory(program_, cause, static_cast<double>(host_bytes > 0 ? host_bytes : bytes));
    const GpuProbe probe = probe_gpu_reason();
    if (!probe.usable) {
      // Said once, first, on stderr, so a long CPU part is not a surprise; gpu() then exits 77.
      say_no_gpu(probe);
    } else {
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const std::size_t device_bytes = bytes + 2 * course::l2_bytes() + (std::size_t{64} << 20);
      if (device_bytes > free_bytes) {
        refuse_memory(program_, cause, "GPU", static_cast<double>(device_bytes),
                      static_cast<double>(free_bytes), "the GPU's free memory");
      }
    }
  }

  // The CPU time the table's "vs CPU" column compares with, and its name.
  void set_cpu(double ms, const std::string& name) {
    cpu_ms_ = ms;
    cpu_name_ = name;
  }

  // Call once the CPU part has run and printed. Without a usable GPU, exits 77 (begin() has said
  // why, in one line); with one, prints the device report and returns it.
  const DeviceReport& gpu() {
    const GpuProbe probe = probe_gpu_reason();
    if (!probe.usable) {
      std::fflush(stdout);
      if (!said_no_gpu_) say_no_gpu(probe);  // begin() said it already, where it was called
      std::exit(kExitNoGpu);
    }
    report_ = make_device_report();
    std::printf("%s\n", device_report_text(report_).c_str());
    clock_ = Clock(options_.reps);
    std::printf(
        "every timed run starts with its output poisoned and the %d MiB L2 flushed%s\n\n",
        report_.props.l2CacheSize >> 20,
        clock_.flush_writes() ? " by a memset (COURSE_L2_FLUSH=write), as NVBench does" : "");
    return report_;
  }

  // What poisons the outputs before every timed run, so that a version that writes nothing
  // cannot pass on the result of the one before.
  void poison(std::function<void()> fill) { poison_ = std::move(fill); }

  // The clock of the table (after gpu()): --reps runs after 2 warm-ups, the L2 flushed before
  // each, no budget. Experiments and sweeps time with it, or with time() for a whole version.
  const Clock& clock() const { return clock_; }

  // Times one version (its setup, then 2 warm-ups and `reps` runs, each after the poison, the L2
  // flush and its prepare; 0 reps: --reps), then checks its result. A sweep passes its own budget.
  Outcome time(const Version& v, double budget_ms = kBudgetMs, int reps = 0) {
    NvtxRange range((v.name + " " + v.idea).c_str());
    if (v.setup) v.setup();
    Outcome out;
    out.time = clock_.reps(reps > 0 ? reps : options_.reps)
                   .budget_ms(budget_ms)
                   .time(v.run, poison_, v.prepare);
    out.mismatch = v.check();
    return out;
  }

  // Runs every version that --only chose and whose limit allows it, in order; prints the table
  // and, unless `best_line` is false, the line that sets the fastest version against the CPU, the
  // source's version and the libraries (each row's kind says which it is).
  const ResultTable& run_versions(const std::string& title, double bytes,
                                  const std::vector<Version>& versions, bool best_line = true) {
    table_ = ResultTable(title, report_.copy_gbps, cpu_ms_, cpu_name_);
    // With a table backend (the lessonNN_nvbench programs) it sets up, times and checks them
    // all first.
    std::vector<Outcome> by_backend;
    if (TableBackend* backend = table_backend()) {
      by_backend = backend->measure(versions, bytes, poison_,
                                    [this](const Version& v) { return chosen(v); });
    }
    std::size_t measured = 0;
    {
      Progress progress("timing the GPU versions");
      for (std::size_t i = 0; i < versions.size(); ++i) {
        const Version& v = versions[i];
        const double row_bytes = v.bytes > 0 ? v.bytes : bytes;
        const std::string why = chosen(v) ? v.limit : "not in --only";
        if (!why.empty()) {
          TableRow& row = table_.add_skipped(v.name, v.idea, row_bytes, why);
          row.kind = v.kind;
          row.of = v.of;
          continue;
        }
        progress.now(course::format("%s (%zu of %zu)", v.name.c_str(), i + 1, versions.size()));
        const Outcome r = by_backend.empty() ? time(v) : by_backend.at(measured++);
        const bool expected = !r.mismatch.empty() && v.may_fail;
        if (!r.mismatch.empty() && !v.may_fail) failed_ = true;
        TableRow& row =
            table_.add_checked(v.name, v.idea, r.time, row_bytes,
                               expected ? "as expected: " + r.mismatch : r.mismatch, v.note);
        row.kind = v.kind;
        row.of = v.of;
      }
    }
    std::printf("%s\n", table_.text().c_str());
    const std::string best = best_line ? best_version_line(table_, cpu_ms_, "the CPU") : "";
    if (!best.empty()) std::printf("%s (data on the GPU, no host copies timed)\n\n", best.c_str());
    return table_;
  }
  const ResultTable& table() const { return table_; }

  // The whole trip a user's program makes with `version`: copy_in() (the input, from pageable
  // host memory), then run_and_copy_out(); prints its line, for `bytes` copied in.
  template <typename CopyIn, typename RunAndCopyOut>
  void whole_trip(const char* version, double bytes, CopyIn&& copy_in,
                  RunAndCopyOut&& run_and_copy_out) {
    NvtxRange range("whole trip");
    const Trip trip = time_whole_trip(copy_in, run_and_copy_out);
    std::printf("%s\n\n", whole_trip_text(version, trip, 3, bytes).c_str());
  }

  // Writes the table to --csv's file, when asked. Every lesson's CSV starts with the same columns
  // (lesson, device, cuda, command, n, dist), which the results scripts read; `extra` follow.
  void write_csv(const std::string& dist, const CsvContext& extra = {}) const {
    if (options_.csv.empty()) return;
    CsvContext context = {{"lesson", number_},
                          {"device", report_.props.name},
                          {"cuda", version_text(report_.runtime_version)},
                          {"command", command_},
                          {"n", std::to_string(options_.n)},
                          {"dist", dist}};
    context.insert(context.end(), extra.begin(), extra.end());
    table_.write_csv(options_.csv, context);
    std::printf("wrote %s\n", options_.csv.c_str());
  }

  // The exit status: 1 when a version or any of the lesson's own checks (`others_ok`) failed.
  int finish(bool others_ok = true) const {
    return failed_ || !others_ok ? kExitCheckFailed : kExitOk;
  }

  // Before any work, for a flag whose file holds what only the GPU part makes (--csv, lesson
  // 07's --sweep-csv): without a usable GPU, one line and exit 77 at once, nothing run.
  void require_gpu_for(const std::string& flag) const {
    const GpuProbe probe = probe_gpu_reason();
    if (probe.usable) return;
    std::fprintf(
        stderr,
        "%s: no usable CUDA GPU, and %s writes the GPU part's table: nothing run; %s (%s)\n",
        program_.c_str(), flag.c_str(), probe.reason.c_str(), probe.error.c_str());
    std::exit(kExitNoGpu);
  }

 private:
  // The one line a program without a usable GPU prints, once, on stderr.
  void say_no_gpu(const GpuProbe& probe) {
    std::fprintf(stderr, "%s: no usable CUDA GPU: the CPU part runs, then exit %d; %s (%s)\n",
                 program_.c_str(), kExitNoGpu, probe.reason.c_str(), probe.error.c_str());
    std::fflush(stderr);
    said_no_gpu_ = true;
  }

  std::string number_;
  std::string program_;
  CommandLine cli_;
  Options options_;
  std::string command_;
  DeviceReport report_{};
  Clock clock_;
  std::function<void()> poison_;
  double cpu_ms_ = 0;
  std::string cpu_name_;
  ResultTable table_{"", 0, 0, ""};
  bool failed_ = false;
  bool said_no_gpu_ = false;
};

}  // namespace course
