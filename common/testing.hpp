// What every test file includes: Catch2 (v2 or v3, whichever the build found, behind one set of
// names), the run's random seed, and the checks the course's GPU tests share.
//
//   #include "testing.hpp"
//   TEST_CASE("v1 counts random bytes", "[gpu]") { ... }   // [gpu]: skipped without a GPU
//
// CMake defines COURSE_CATCH2_MAJOR (2 or 3). Test files use only the macros both versions
// share: TEST_CASE, SECTION, REQUIRE, CHECK, INFO, CAPTURE, GENERATE, and course::test::Approx.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#if COURSE_CATCH2_MAJOR == 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>
#elif COURSE_CATCH2_MAJOR == 2
#include <catch2/catch.hpp>
#else
#error "COURSE_CATCH2_MAJOR must be 2 or 3 (CMake sets it)"
#endif

#ifdef __CUDACC__
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "device_memory.hpp"
#endif

namespace course::test {

#if COURSE_CATCH2_MAJOR == 3
using Catch::Approx;
#else
using Approx = Catch::Detail::Approx;
#endif

// The seed of this run's random inputs: fresh on every run, printed at start-up, and fixed by
// setting COURSE_TEST_SEED, so a failure can be repeated exactly. Defined in test_main.cpp.
std::uint64_t seed();

// What test_main.cpp prints, with the seed, after the last check when every check passed.
inline constexpr const char* kCompletionLine = "COURSE-TESTS-COMPLETE: every check passed,";

// A line for the grader: "<kind> <key> <text>" when grade.py gave the run a result key, else
// "<kind>: <text>" (test_main.cpp, which says what the key is for).
void result_line(const char* kind, const std::string& text);

// A failed check outside Catch2's (the watchdog's), as a verdict line the grader reads.
void report_failure(const char* check, const char* why);

// The seed and the sizes, as a result line ends them.
inline std::string seed_note(std::uint64_t seed) {
  return " (seed " + std::to_string(seed) + ")";
}

// A random number from the run's seed and a stream number: the same pair gives the same number,
// so a test can draw several from one seed (splitmix64).
inline std::uint64_t drawn(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// `count` sizes from `seed`'s draws at `stream` on, each a random multiple of one of `units`
// (32 for a warp, 256 for a block, ...) plus -1, 0 or +1, from `least` to `most`.
inline std::vector<std::size_t> at_edges(std::uint64_t seed, std::uint64_t stream,
                                         const std::vector<std::size_t>& units, std::size_t least,
                                         std::size_t most, int count) {
  std::vector<std::size_t> sizes;
  for (int i = 0; i < count && !units.empty(); ++i) {
    const std::size_t unit = units[drawn(seed, stream + 3 * i) % units.size()];
    const std::size_t first = (least + unit - 1) / unit;
    const std::size_t multiples = most / unit >= first ? most / unit - first + 1 : 1;
    const std::size_t base = unit * (first + drawn(seed, stream + 3 * i + 1) % multiples);
    const std::size_t n = base + drawn(seed, stream + 3 * i + 2) % 3 - 1;
    sizes.push_back(std::min(std::max(n, least), most));
  }
  return sizes;
}

// A number drawn from `seed` at `stream`, in [lo, lo + span), reported as a COURSE-SIZES line
// ("<what> = <n>") for grade.py's report: a size or a count no one can know in advance.
inline std::size_t drawn_in(std::uint64_t seed, std::uint64_t stream, std::size_t lo,
                            std::size_t span, const char* what) {
  const std::size_t value = lo + drawn(seed, stream) % std::max<std::size_t>(span, 1);
  result_line("COURSE-SIZES", std::string(what) + " = " + std::to_string(value) + seed_note(seed));
  return value;
}

// Sizes for a graded test: `fixed` (the edges every run tries), then `extra` sizes drawn from the
// seed, each a random multiple of one of `units` (32 for a warp, 256 for a block, ...) plus -1, 0
// or +1, from 1 to `most`. No size can be known in advance, and over runs every edge of every unit
// is reached. Reports them as a COURSE-SIZES line ("<what> = ...") for grade.py's report.
inline std::vector<std::size_t> drawn_sizes(std::uint64_t seed, std::vector<std::size_t> fixed,
                                            const std::vector<std::size_t>& units, std::size_t most,
                                            int extra = 4, const char* what = "n") {
  const std::vector<std::size_t> drawn_ones = at_edges(seed, 0, units, 1, most, extra);
  fixed.insert(fixed.end(), drawn_ones.begin(), drawn_ones.end());
  std::string text = std::string(what) + " =";
  for (std::size_t i = 0; i < fixed.size(); ++i)
    text += (i == 0 ? " " : ", ") + std::to_string(fixed[i]);
  result_line("COURSE-SIZES", text + seed_note(seed));
  return fixed;
}

// The [timing] test case of a graded exercise: calls `call` (the graded call, which waits for its
// kernels) once to warm up, then `reps` times, and reports the median wall time as a COURSE-TIME
// line ("<ms> ms"), which scripts/time_answer.py sets against the model answer's.
// `prepare` runs before each call, off the clock (restoring an input the call changes).
template <typename Call, typename Prepare>
double report_time(Call&& call, int reps, Prepare&& prepare) {
  prepare();
  call();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    call();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  char text[64];
  std::snprintf(text, sizeof text, "%.4f ms", median);
  result_line("COURSE-TIME", text);
  return median;
}

template <typename Call>
double report_time(Call&& call, int reps = 9) {
  return report_time(call, reps, [] {});
}

// "" when got == expected element by element; otherwise where they first differ and how often,
// so REQUIRE(mismatch(got, expected) == "") fails with a message worth reading.
template <typename Got, typename Expected>
std::string mismatch(const Got& got, const Expected& expected) {
  std::ostringstream out;
  if (got.size() != expected.size()) {
    out << "got " << got.size() << " elements, expected " << expected.size();
    return out.str();
  }
  std::size_t differences = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == expected[i])) {
      if (differences++ == 0) first = i;
    }
  }
  if (differences == 0) return "";
  out << differences << " of " << got.size() << " elements differ; first at [" << first << "]: got "
      << +got[first] << ", expected " << +expected[first];
  return out.str();
}

#ifdef __CUDACC__
// A device array with guard zones before and after it, filled with a known byte. A kernel that
// writes out of bounds changes a guard, and guards_intact() says so.
template <typename T>
class GuardedBuffer {
 public:
  static constexpr std::size_t kGuardBytes = 4096;  // a multiple of 256 keeps data() aligned
  static constexpr unsigned char kGuardByte = 0xA5;

  explicit GuardedBuffer(std::size_t count)
      : count_(count), storage_(2 * kGuardBytes + count * sizeof(T)) {
    storage_.fill_bytes(kGuardByte);
  }

  T* data() { return reinterpret_cast<T*>(storage_.data() + kGuardBytes); }
  std::size_t size() const { return count_; }

  // Fills the array itself (not the guards) with one byte: poison before a kernel writes it.
  void poison(unsigned char byte) { CUDA_CHECK(cudaMemset(data(), byte, count_ * sizeof(T))); }
  void upload(const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() {
    std::vector<T> host(count_);
    CUDA_CHECK(cudaMemcpy(host.data(), data(), count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  bool guards_intact() const {
    const std::vector<unsigned char> all = storage_.download();
    for (std::size_t i = 0; i < kGuardBytes; ++i) {
      if (all[i] != kGuardByte || all[all.size() - 1 - i] != kGuardByte) return false;
    }
    return true;
  }

 private:
  std::size_t count_;
  DeviceBuffer<unsigned char> storage_;
};

// For a test case that needs much of the GPU's memory at once (tens of GiB): takes a lock that
// every such test case of every test program takes (a file in /tmp), so that programs run side by
// side (ctest -j, grade.py --jobs) do not count on the same free memory, then says whether `bytes`
// are free. Declare it before the test case's buffers: it is released after they are freed.
class LargeGpuMemory {
 public:
  explicit LargeGpuMemory(std::size_t bytes) {
    fd_ = ::open("/tmp/course-large-gpu-memory.lock", O_CREAT | O_RDWR, 0666);
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
    std::size_t total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_, &total));
    ok_ = free_ >= bytes;
  }
  ~LargeGpuMemory() {
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  LargeGpuMemory(const LargeGpuMemory&) = delete;
  LargeGpuMemory& operator=(const LargeGpuMemory&) = delete;

  bool ok() const { return ok_; }
  std::size_t free_mib() const { return free_ >> 20; }

 private:
  int fd_ = -1;
  std::size_t free_ = 0;
  bool ok_ = false;
};
#endif

}  // namespace course::test
