// What every test file includes: Catch2 (v2 or v3, whichever the build found, behind one set of
// names), the run's random seed, and the checks the course's GPU tests share.
//
//   #include "testing.hpp"
//   TEST_CASE("v1 counts random bytes", "[gpu]") { ... }   // [gpu]: skipped without a GPU
//
// CMake defines COURSE_CATCH2_MAJOR (2 or 3). Test files use only the macros both versions
// share: TEST_CASE, SECTION, REQUIRE, CHECK, INFO, CAPTURE, GENERATE, and course::test::Approx.
#pragma once

#include <cstddef>
#include <cstdint>
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
#endif

}  // namespace course::test
