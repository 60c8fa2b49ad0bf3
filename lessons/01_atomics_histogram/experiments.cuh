// Lesson 01's experiment, run after the table when asked: --grid-sweep times v4 and v7 against
// the grid size (exercise 4).
#pragma once

#include <cstdio>
#include <string>

#include "clock.cuh"
#include "format.hpp"
#include "kernels.cuh"
#include "reference.hpp"

namespace lesson01 {

// Exercise 4: time against grid size, k x SMs blocks for k = 1..32, each run after the L2 flush
// and the bins' poison, as the table's rows.
inline void print_grid_sweep(course::DeviceBuffer<std::uint8_t>& d_input, std::size_t n,
                             Counters<unsigned long long>& d_bins, const Histogram& expected,
                             const course::Clock& clock) {
  const int sms = course::sm_count();
  std::printf("\ngrid sweep: median ms (GB/s) with k x %d blocks\n", sms);
  std::printf("%4s %7s  %-22s %-22s\n", "k", "blocks", "v4 (256 threads)", "v7 (1024 threads)");
  bool all_ok = true;
  for (int k = 1; k <= 32; ++k) {
    const Launch launch{nullptr, k * sms};
    std::string cells;
    const Run<unsigned long long> runs[] = {histogram_occupancy_grid, histogram_pipelined};
    for (auto run : runs) {
      const course::Timing t = clock.time([&] { run(d_input.data(), n, d_bins.data(), launch); },
                                          [&] { d_bins.fill_bytes(0xFF); });
      all_ok = all_ok && to_histogram(d_bins.download()) == expected;
      cells += course::format(" %8.4f (%7.1f)     ", t.median_ms,
                              static_cast<double>(n) / (t.median_ms * 1e6));
    }
    std::printf("%4d %7d %s\n", k, k * sms, cells.c_str());
  }
  std::printf("every sweep result %s\n", all_ok ? "checked ok" : "FAILED its check");
}

}  // namespace lesson01
