// Everything a lesson's main.cu needs, in one include, and the behaviour every lesson shares:
// the standard flags, the exit statuses, the "no GPU" path and the "too big for the GPU" check.
//
//   0   every check passed
//   1   a check failed (or a CUDA call failed)
//   2   bad arguments, or an n that does not fit in memory
//   77  no usable CUDA GPU: the CPU part ran and printed its result first
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "check.hpp"
#include "cli.hpp"
#include "device_memory.hpp"
#include "device_report.cuh"
#include "gpu_timing.cuh"
#include "inputs.hpp"
#include "launch.hpp"
#include "nvtx.hpp"
#include "table.hpp"
#include "timing.hpp"

namespace course {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitNoGpu = 77;  // the automake convention for "skipped", which CTest honours

// The flags every lesson takes.
struct StandardOptions {
  std::size_t n = 0;
  std::uint64_t seed = 2024;
  int reps = 20;
  std::string csv;
};

inline void add_standard_options(CommandLine& cli, StandardOptions* options,
                                 const std::string& n_help,
                                 std::size_t max_n = std::numeric_limits<std::size_t>::max()) {
  cli.number("--n", &options->n, n_help, std::size_t{1}, max_n);
  cli.number("--seed", &options->seed, "seed of the random input");
  cli.number("--reps", &options->reps, "timed runs per version; the median is reported", 1, 10000);
  cli.text("--csv", &options->csv, "FILE", "also write the result table to FILE as CSV");
}

// Call once the CPU part has run and printed. With a usable GPU, prints the device report and
// returns it; without one, says so in one line and exits 77.
inline DeviceReport require_gpu_or_exit(const std::string& program) {
  std::string why;
  if (!probe_gpu(&why)) {
    std::printf("%s: no usable CUDA GPU (%s); the CPU part above ran, the GPU part is skipped.\n",
                program.c_str(), why.c_str());
    std::exit(kExitNoGpu);
  }
  DeviceReport report = make_device_report();
  std::printf("%s\n", device_report_text(report).c_str());
  return report;
}

// Says at once, before any work, when --n is too large: exits with status 2 and one clear line
// when the input's `bytes` exceed what the host can hold (filling more than its physical memory
// would end in the process being killed, or minutes of swapping), or, if there is a GPU, what
// the GPU has free, with 64 MiB to spare for outputs and workspaces. Without a GPU only the host
// is checked: the CPU part runs, as always.
inline void require_memory_for(const std::string& program, std::size_t n, std::size_t bytes) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  auto too_large = [&](const char* where, double needed, double available) {
    std::fprintf(stderr, "%s: error: --n %zu needs %.2f GiB of %s memory; %.2f GiB is available\n",
                 program.c_str(), n, needed / gib, where, available / gib);
    std::exit(kExitBadArguments);
  };
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const double physical = static_cast<double>(pages) * static_cast<double>(page_size);
  if (pages > 0 && page_size > 0 && static_cast<double>(bytes) > 0.8 * physical) {
    too_large("host", static_cast<double>(bytes), physical);
  }
  if (probe_gpu()) {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t device_bytes = bytes + (std::size_t{64} << 20);
    if (device_bytes > free_bytes) {
      too_large("GPU", static_cast<double>(device_bytes), static_cast<double>(free_bytes));
    }
  }
}

// Writes `table` to `path` as CSV, when --csv asked for it, and says so. Every lesson's CSV starts
// with the same columns (lesson, device, cuda, command, n, dist), which the results scripts read;
// `extra` columns follow.
inline void write_table_csv(const ResultTable& table, const std::string& path, const char* lesson,
                            const DeviceReport& report, const std::string& command, std::size_t n,
                            const std::string& dist, const CsvContext& extra = {}) {
  if (path.empty()) return;
  CsvContext context = {{"lesson", lesson},
                        {"device", report.props.name},
                        {"cuda", version_text(report.runtime_version)},
                        {"command", command},
                        {"n", std::to_string(n)},
                        {"dist", dist}};
  context.insert(context.end(), extra.begin(), extra.end());
  table.write_csv(path, context);
  std::printf("wrote %s\n", path.c_str());
}

}  // namespace course
