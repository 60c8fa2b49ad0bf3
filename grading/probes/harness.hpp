// What every exercise's harness (grading/NN_topic/<name>/<name>_harness.cu) shares: checked
// CUDA calls, device buffers, and the watchdog that stops a kernel that never finishes.
//
// A harness is the part of a graded exercise that runs the student's code: it is compiled with the
// student's file and nothing else on its include path, so it reaches the course's own headers by
// their paths from here. The tests call the harness's functions, never the student's code itself.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "../../common/check.hpp"
#include "../../common/device_memory.hpp"

namespace course::test {
const char* program_name();                               // the test program's name (test_main.cpp)
void report_failure(const char* check, const char* why);  // a verdict line for the grader
}  // namespace course::test

namespace grading {

// How long one call of a student's code may take, in seconds: COURSE_KERNEL_TIMEOUT_S, or 10.
// (COURSE_REPORT_CALL_TIMES=1 prints every call's time: docs/instructors.md gives the solutions'
// slowest on the H100.)
inline int kernel_time_limit_s() {
  const char* text = std::getenv("COURSE_KERNEL_TIMEOUT_S");
  const int seconds = text != nullptr ? std::atoi(text) : 0;
  return seconds > 0 ? seconds : 10;
}

// Runs launch(), which starts the student's kernels, and waits for the GPU to finish them. If that
// has not happened within kernel_time_limit_s(), prints one line that says so and ends the test
// program with status 1: a lock never released or an endless loop costs seconds, not the grader's
// whole run. (The process ends with the kernel still running; the driver stops it when the
// process's context goes.) A call that makes many launches, one after another (`launches`), gets
// 10 ms more for each: with other test programs on the GPU, each launch may wait for the GPU's
// time slice (an H100 running 8 test programs at once took over 10 s for 4,000 phase launches).
template <typename Launch>
void watched(Launch&& launch, std::size_t launches = 1) {
  struct Flag {
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
  } flag;
  const int limit = kernel_time_limit_s() + static_cast<int>(launches / 100);
  std::thread watchdog([&flag, limit] {
    std::unique_lock<std::mutex> lock(flag.mutex);
    if (!flag.changed.wait_for(lock, std::chrono::seconds(limit), [&flag] { return flag.done; })) {
      std::fflush(stdout);
      char why[160];
      std::snprintf(why, sizeof why,
                    "the kernel did not finish in %d s (a lock never released? an endless loop?)",
                    limit);
      std::fprintf(stderr, "%s: %s\n", course::test::program_name(), why);
      std::fflush(stderr);
      course::test::report_failure("watchdog", why);
      std::_Exit(1);
    }
  });
  struct Done {  // says "done" however launch() ends, even by an exception
    Flag& flag;
    std::thread& watchdog;
    ~Done() {
      {
        const std::lock_guard<std::mutex> lock(flag.mutex);
        flag.done = true;
      }
      flag.changed.notify_one();
      watchdog.join();
    }
  } done{flag, watchdog};
  const auto start = std::chrono::steady_clock::now();
  launch();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  if (std::getenv("COURSE_REPORT_CALL_TIMES") != nullptr) {  // how close a call comes to the limit
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "%s: a call took %.3f s\n", course::test::program_name(), took.count());
  }
}

}  // namespace grading
