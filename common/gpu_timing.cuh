// The parts the course's clock (clock.cuh) is made of: timing device work with CUDA events (warm
// up, repeat, report the median and the spread), and emptying the L2 between runs. time_gpu is the
// Clock's engine: nothing else calls it (a repository test holds this), so every timing gets the
// Clock's poison, L2 policy and budget.
//
// The GPU runs what it is given as soon as it is given it, so an event recorded on an idle GPU
// gets its timestamp at once, and the host's time to enqueue the run (microseconds per launch)
// is counted as if the GPU had spent it. For runs of tens of microseconds that is a large error.
// So a short busy kernel (queue_ahead) is enqueued first: while it runs, the host enqueues the
// start event, the run and the stop event, and the time measured is the GPU's alone. (nvbench
// does the same with its "blocking kernel".)
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "launch.hpp"
#include "timing.hpp"

namespace course {

namespace detail {

// One thread that waits about `nanoseconds` on the GPU's global timer. A template, so that every
// program that includes this header can define it without a link clash.
template <typename = void>
__global__ void busy_wait_kernel(unsigned long long nanoseconds) {
  unsigned long long start = 0;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

}  // namespace detail

// Keeps the GPU busy long enough for the host to enqueue a timed run behind it.
inline void queue_ahead(cudaStream_t stream, unsigned long long nanoseconds = 50000) {
  detail::busy_wait_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  CUDA_CHECK_LAUNCH();
}

// Times device work with CUDA events on `stream`. `run` enqueues the work (kernels, memsets:
// everything the version needs to produce its result); `prepare` enqueues what must happen
// before each run but is not part of it, such as poisoning the output. Both are checked by
// the caller's CUDA_CHECK / CUDA_CHECK_LAUNCH. Slow versions stop early once their samples add
// up to budget_ms (0: no budget), after at least 3 samples.
template <typename Prepare, typename Run>
Timing time_gpu(Prepare&& prepare, Run&& run, int reps, int warmups = 2,
                cudaStream_t stream = nullptr, double budget_ms = 0.0) {
  if (reps < 1) throw std::invalid_argument("time_gpu needs reps >= 1");
  for (int i = 0; i < warmups; ++i) {
    prepare();
    run();
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CudaEvent start;
  CudaEvent stop;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    prepare();
    queue_ahead(stream);
    start.record(stream);
    run();
    stop.record(stream);
    samples.push_back(stop.elapsed_ms_since(start));
    if (budget_spent(samples, budget_ms)) break;
  }
  return summarise(samples);
}

namespace detail {

// Reads `words` and writes nothing (unless their XOR is a value no buffer of 0x5A bytes gives).
template <typename = void>
__global__ void read_all_kernel(const uint4* words, std::size_t count, unsigned* never) {
  unsigned x = 0;
  for (std::size_t i = course::first_index(); i < count; i += course::grid_stride()) {
    const uint4 w = words[i];
    x ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (x == 0x12345678u) *never = x;
}

}  // namespace detail

// Empties the L2 cache of everything a timed run could reuse: an input of 40 MB would otherwise
// sit in an H100's 50 MB L2 from the run before, and every run after the first would read it from
// there. flush() reads a buffer twice the L2's size, so the L2 is left holding clean lines of that
// buffer alone, and the timed run has no dirty lines to write back either.
// COURSE_L2_FLUSH=write in the environment flushes as NVBench does instead, with a memset of the
// L2's size, which leaves the L2 full of dirty lines (docs/profiling.md compares the two clocks).
class L2Flush {
 public:
  explicit L2Flush(std::size_t l2_bytes)
      : words_(2 * l2_bytes / sizeof(uint4)),
        never_(1),
        blocks_(sm_count() * 8),
        l2_bytes_(l2_bytes),
        write_(std::getenv("COURSE_L2_FLUSH") != nullptr &&
               std::string(std::getenv("COURSE_L2_FLUSH")) == "write") {
    words_.fill_bytes(0x5A);
  }
  void flush(cudaStream_t stream = nullptr) {
    if (write_) {
      CUDA_CHECK(cudaMemsetAsync(words_.data(), 0, l2_bytes_, stream));
      return;
    }
    detail::read_all_kernel<<<blocks_, 256, 0, stream>>>(words_.data(), words_.size(),
                                                         never_.data());
    CUDA_CHECK_LAUNCH();
  }
  bool writes() const { return write_; }

 private:
  DeviceBuffer<uint4> words_;
  DeviceBuffer<unsigned> never_;
  int blocks_;
  std::size_t l2_bytes_;
  bool write_;
};

// The whole trip a user's program makes: copy_in() (the input, host to device), then
// run_and_copy_out() (the work, and the result back to the host), with CUDA events around both.
// One untimed trip, then `reps` timed ones; returns the median of the whole and of the copy in,
// and the text of the line the lessons print, for `bytes` copied in.
struct Trip {
  double total_ms = 0;
  double copy_in_ms = 0;
};

template <typename CopyIn, typename RunAndCopyOut>
Trip time_whole_trip(CopyIn&& copy_in, RunAndCopyOut&& run_and_copy_out, int reps = 3) {
  std::vector<double> total;
  std::vector<double> in;
  for (int r = 0; r <= reps; ++r) {
    CudaEvent start, copied, done;
    start.record();
    copy_in();
    copied.record();
    run_and_copy_out();
    done.record();
    if (r == 0) continue;  // warm-up
    total.push_back(done.elapsed_ms_since(start));
    in.push_back(copied.elapsed_ms_since(start));
  }
  return Trip{median(total), median(in)};
}

inline std::string whole_trip_text(const char* version, const Trip& trip, int reps, double bytes) {
  char line[256];
  std::snprintf(line, sizeof line,
                "whole trip with %s (median of %d): %.3f ms, of which copy in %.3f ms (%.1f GB/s "
                "over PCIe, pageable)",
                version, reps, trip.total_ms, trip.copy_in_ms, bytes / (trip.copy_in_ms * 1e6));
  return line;
}

}  // namespace course
