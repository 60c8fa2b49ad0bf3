// The harness of exercise 2 (lesson 04): a grid-stride kernel in which the thread for key i fills
// entry i of the pool and links it into its bucket with the student's insert_sorted.
#include "../../probes/harness.hpp"

#include <sorted_insert.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "sorted_insert_harness.hpp"

#include <memory>

namespace grading04 {

// (Outside an anonymous namespace, so that the compiled-code check's messages can name it.)
__global__ void insert_kernel(const std::uint32_t* keys, std::size_t n, lesson04::Entry** heads,
                              lesson04::Entry* pool, std::uint32_t buckets) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    lesson04::Entry* entry = &pool[i];
    entry->key = keys[i];
    entry->value = static_cast<std::uint32_t>(i);
    entry->next = nullptr;
    exercise04::insert_sorted(&heads[lesson04::bucket_of(keys[i], buckets)], entry);
  }
}

Chains insert_all_sorted(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                         int blocks) {
  course::DeviceBuffer<lesson04::Entry*> heads(buckets);
  course::DeviceBuffer<lesson04::Entry> pool(n);
  heads.fill_bytes(0);
  grading::watched(
      [&] { insert_kernel<<<blocks, 256>>>(d_keys, n, heads.data(), pool.data(), buckets); });
  return {heads.download(), pool.download(), pool.data()};
}

namespace {

// The table of the last timed inserts, kept until the next ones, so that the tests can check it.
struct Timed {
  std::unique_ptr<course::DeviceBuffer<lesson04::Entry*>> heads;
  std::unique_ptr<course::DeviceBuffer<lesson04::Entry>> pool;
};
Timed& timed() {
  static Timed last;
  return last;
}

}  // namespace

void insert_all_sorted_only(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                            int blocks) {
  Timed& last = timed();
  last.heads.reset();  // the last inserts' table, freed as inserts that kept nothing would free it
  last.pool.reset();
  last.heads = std::make_unique<course::DeviceBuffer<lesson04::Entry*>>(buckets);
  last.pool = std::make_unique<course::DeviceBuffer<lesson04::Entry>>(n);
  last.heads->fill_bytes(0);
  grading::watched([&] {
    insert_kernel<<<blocks, 256>>>(d_keys, n, last.heads->data(), last.pool->data(), buckets);
  });
}

Chains last_timed_table() {
  Timed& last = timed();
  if (!last.heads) return {};
  return {last.heads->download(), last.pool->download(), last.pool->data()};
}

}  // namespace grading04
