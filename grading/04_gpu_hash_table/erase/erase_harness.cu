// The harness of exercise 3 (lesson 04): grid-stride kernels that call the student's erase for
// each key to erase, and find for each query.
#include "../../probes/harness.hpp"

#include <erase.cuh>  // the student's file

#include <stdexcept>
#include <string>

#include "../../../common/launch.hpp"
#include "erase_harness.hpp"

namespace grading04 {
namespace {

exercise04::Table table_of(const TableView& view) {
  return {view.slots, view.capacity, view.empty_key_entry, view.hash};
}

// The exercise's tables have at most 2^31 slots (its statement says so): a probe's place, home + i
// with i below the capacity, then stays below 2^32. A larger table is outside what the answers
// were asked to handle, and is refused rather than graded.
void require_in_contract(const TableView& view) {
  if (view.capacity > (1u << 31)) {
    throw std::invalid_argument(
        "erase and find are graded on tables of at most 2^31 slots (the exercise's statement); "
        "this one has " +
        std::to_string(view.capacity));
  }
}

int blocks_for(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return static_cast<int>(blocks < 4096 ? blocks : 4096);
}

}  // namespace

// (The kernels are outside the anonymous namespace, so that the compiled-code check's messages can
// name them.)
__global__ void erase_kernel(exercise04::Table table, const std::uint32_t* keys, std::size_t n) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    exercise04::erase(table, keys[i]);
  }
}

__global__ void find_kernel(exercise04::Table table, const std::uint32_t* queries, std::size_t n,
                            std::uint32_t* out) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    out[i] = exercise04::find(table, queries[i]);
  }
}

void erase_keys(const TableView& table, const std::uint32_t* d_keys, std::size_t n) {
  require_in_contract(table);
  if (n == 0) return;  // a grid of no blocks is not a launch
  grading::watched([&] { erase_kernel<<<blocks_for(n), 256>>>(table_of(table), d_keys, n); });
}

void find_keys(const TableView& table, const std::uint32_t* d_queries, std::size_t n,
               std::uint32_t* d_out) {
  require_in_contract(table);
  grading::watched(
      [&] { find_kernel<<<blocks_for(n), 256>>>(table_of(table), d_queries, n, d_out); });
}

}  // namespace grading04
