// The harness of exercise 1 (lesson 05): copies the input to the output, then launches the
// student's odd_even_phase_kernel once per phase, each launch with enough blocks for one thread per
// pair; the compare-and-swaps counted when the tests ask, each against the phase of its launch.
#include "../../probes/harness.hpp"

#include <phase_launches.cuh>  // the student's file

#include <cstring>
#include <sstream>

#include "phase_launches_harness.hpp"

static_assert(exercise05::kPhaseThreads == 256,
              "the exercise's constants are part of its statement: keep them");

namespace grading05 {
namespace {

// With `probe` (armed), each launch is preceded by a copy of the probe that names its phase: the
// copy waits for the launch before it, and the launch after it waits for the copy (both on the
// default stream).
std::size_t sort_in_phases(const float* d_in, float* d_out, std::size_t n,
                           grading::PairProbe* probe = nullptr) {
  const std::size_t phases = exercise05::phases_for(n);
  const std::size_t pairs = (n + 1) / 2;
  const std::size_t blocks = (pairs + exercise05::kPhaseThreads - 1) / exercise05::kPhaseThreads;
  CUDA_CHECK(cudaMemcpy(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
  grading::watched(
      [&] {
        for (std::size_t phase = 0; phase < phases; ++phase) {
          if (probe != nullptr) {
            probe->phase = phase;
            CUDA_CHECK(cudaMemcpyToSymbol(grading::g_pair_probe, probe, sizeof *probe));
          }
          exercise05::
              odd_even_phase_kernel<<<static_cast<unsigned>(blocks), exercise05::kPhaseThreads>>>(
                  d_out, n, phase);
          CUDA_CHECK(cudaGetLastError());
        }
      },
      phases);
  return phases;
}

}  // namespace

std::size_t phase_sort(const float* d_in, float* d_out, std::size_t n) {
  return sort_in_phases(d_in, d_out, n);
}

PhaseCount phase_sort_probed(const float* d_in, float* d_out, std::size_t n) {
  // The pairs, then the strays, the calls off their launch's phase and those of another thread;
  // then the swaps of each pair.
  course::DeviceBuffer<unsigned> counts(2 * n + 3);
  counts.fill_bytes(0);
  grading::PairProbe probe{d_out,
                           n,
                           counts.data(),
                           counts.data() + n,
                           counts.data() + n + 1,
                           counts.data() + n + 2,
                           0,
                           counts.data() + n + 3};
  PhaseCount result;
  result.phases = sort_in_phases(d_in, d_out, n, &probe);
  probe = grading::PairProbe{};
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_pair_probe, &probe, sizeof probe));
  result.pair_calls = counts.download();
  result.other_thread = result.pair_calls[n + 2];
  result.off_phase = result.pair_calls[n + 1];
  result.strays = result.pair_calls[n];
  result.pair_swaps.assign(result.pair_calls.begin() + static_cast<std::ptrdiff_t>(n + 3),
                           result.pair_calls.end());
  result.pair_swaps.resize(n > 0 ? n - 1 : 0);
  result.pair_calls.resize(n > 0 ? n - 1 : 0);
  return result;
}

std::size_t phases_for(std::size_t n) {
  return exercise05::phases_for(n);
}

std::string phases_step_by_step(const std::vector<float>& in, const std::vector<std::size_t>& at) {
  const std::size_t n = in.size();
  const std::size_t phases = exercise05::phases_for(n);
  const std::size_t pairs = (n + 1) / 2;
  const std::size_t blocks = (pairs + exercise05::kPhaseThreads - 1) / exercise05::kPhaseThreads;
  course::DeviceBuffer<float> data(in);
  std::vector<float> expected = in;
  std::string verdict;
  auto next = at.begin();
  grading::watched(
      [&] {
        for (std::size_t phase = 0; phase < phases && verdict.empty(); ++phase) {
          exercise05::
              odd_even_phase_kernel<<<static_cast<unsigned>(blocks), exercise05::kPhaseThreads>>>(
                  data.data(), n, phase);
          CUDA_CHECK(cudaGetLastError());
          for (std::size_t i = phase % 2; i + 1 < n; i += 2)
            lesson05::order_pair(expected[i], expected[i + 1]);
          if (!at.empty()) {
            while (next != at.end() && *next < phase)
              ++next;
            if (next == at.end()) break;
            if (*next != phase) continue;
          }
          const std::vector<float> got = data.download();
          for (std::size_t i = 0; i < n; ++i) {
            if (std::memcmp(&got[i], &expected[i], sizeof(float)) != 0) {
              std::ostringstream out;
              out << "the launch of phase " << phase << " of " << phases << " left " << got[i]
                  << " at place " << i << ", where that phase of odd-even transposition leaves "
                  << expected[i];
              verdict = out.str();
              break;
            }
          }
        }
      },
      phases);
  return verdict;
}

}  // namespace grading05
