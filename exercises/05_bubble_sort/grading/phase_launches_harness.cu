// The harness of exercise 1 (lesson 05): copies the input to the output, then launches the
// student's odd_even_phase_kernel once per phase, each launch with enough blocks for one thread per
// pair; the compare-and-swaps counted when the tests ask.
#include "../../grading/harness.hpp"

#include <phase_launches.cuh>  // the student's file

#include "phase_launches_harness.hpp"

static_assert(exercise05::kPhaseThreads == 256,
              "the exercise's constants are part of its statement: keep them");

namespace grading05 {
namespace {

std::size_t sort_in_phases(const float* d_in, float* d_out, std::size_t n) {
  const std::size_t phases = exercise05::phases_for(n);
  const std::size_t pairs = (n + 1) / 2;
  const std::size_t blocks = (pairs + exercise05::kPhaseThreads - 1) / exercise05::kPhaseThreads;
  CUDA_CHECK(cudaMemcpy(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
  grading::watched([&] {
    for (std::size_t phase = 0; phase < phases; ++phase) {
      exercise05::
          odd_even_phase_kernel<<<static_cast<unsigned>(blocks), exercise05::kPhaseThreads>>>(
              d_out, n, phase);
      CUDA_CHECK(cudaGetLastError());
    }
  });
  return phases;
}

}  // namespace

std::size_t phase_sort(const float* d_in, float* d_out, std::size_t n) {
  return sort_in_phases(d_in, d_out, n);
}

PhaseCount phase_sort_probed(const float* d_in, float* d_out, std::size_t n) {
  course::DeviceBuffer<unsigned> counts(n + 1);  // the pairs, then the strays
  counts.fill_bytes(0);
  grading::PairProbe probe{d_out, n, counts.data(), counts.data() + n};
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_pair_probe, &probe, sizeof probe));
  PhaseCount result;
  result.phases = sort_in_phases(d_in, d_out, n);
  probe = grading::PairProbe{};
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_pair_probe, &probe, sizeof probe));
  result.pair_calls = counts.download();
  result.strays = result.pair_calls.back();
  result.pair_calls.resize(n > 0 ? n - 1 : 0);
  return result;
}

}  // namespace grading05
