// The report every lesson prints first: which GPU, which software, and how fast the device can
// copy memory. That copy bandwidth, measured then and there, is the 100% of every table.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>

#include "check.hpp"
#include "clock.cuh"
#include "device_memory.hpp"
#include "device_profile.hpp"
#include "format.hpp"

#ifndef COURSE_CUDA_ARCHITECTURES
#define COURSE_CUDA_ARCHITECTURES "unknown (built without CMake)"
#endif

namespace course {

struct DeviceReport {
  int device = 0;
  cudaDeviceProp props{};
  int driver_version = 0;
  int runtime_version = 0;
  double copy_gbps = 0.0;  // device-to-device copy, bytes read + bytes written per second
  std::size_t copy_bytes = 0;
};

// Measures the device-to-device copy bandwidth with cudaMemcpyAsync: median of `reps` copies of
// `bytes`, counting each byte once read and once written (a kernel that only reads n bytes is
// then compared on the same DRAM traffic). Each copy after the L2 flush, as the table's rows.
inline double measure_copy_gbps(std::size_t bytes, int reps = 10) {
  DeviceBuffer<unsigned char> src(bytes);
  DeviceBuffer<unsigned char> dst(bytes);
  src.fill_bytes(0x5A);  // any non-zero pattern: never time on untouched memory
  const Timing t = Clock(reps).time([&] {
    CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e6);
}

// Gathers the report for the current device, measuring the copy bandwidth on a buffer of up to
// 1 GiB (less when the device has less free memory).
inline DeviceReport make_device_report() {
  DeviceReport r;
  CUDA_CHECK(cudaGetDevice(&r.device));
  r.props = device_properties(r.device);  // a device profile's limits, under one
  CUDA_CHECK(cudaDriverGetVersion(&r.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&r.runtime_version));
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  r.copy_bytes = std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4);
  r.copy_gbps = measure_copy_gbps(r.copy_bytes);
  return r;
}

inline std::string device_report_text(const DeviceReport& r) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  std::string out;
  out += format("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, %.0f MiB L2\n", r.device,
                r.props.name, r.props.major, r.props.minor, r.props.multiProcessorCount,
                static_cast<double>(r.props.totalGlobalMem) / gib,
                static_cast<double>(r.props.l2CacheSize) / (1024.0 * 1024.0));
  out += format("CUDA driver %s, runtime %s; this program was built for architectures %s\n",
                version_text(r.driver_version).c_str(), version_text(r.runtime_version).c_str(),
                COURSE_CUDA_ARCHITECTURES);
  out += format("Device-to-device copy: %.1f GB/s (read + write, %.0f MiB, median of 10)\n",
                r.copy_gbps, static_cast<double>(r.copy_bytes) / (1024.0 * 1024.0));
  if (const DeviceProfile* p = device_profile()) {
    out += format(
        "Device profile %s (COURSE_DEVICE_PROFILE): the %s's limits above; its clocks, "
        "bandwidth, L2 and instruction set are not emulated, so times are this GPU's\n",
        p->name, p->card);
  }
  return out;
}

}  // namespace course
