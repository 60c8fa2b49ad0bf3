// The harness of exercise 1 (lesson 04): a grid-stride kernel that calls the student's count_key
// once for every key, and the table copied back and followed on the CPU.
#include "../../grading/harness.hpp"

#include <count_keys.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "count_keys_harness.hpp"

namespace grading04 {
namespace {

__global__ void count_kernel(const std::uint32_t* keys, std::size_t n,
                             exercise04::CountTable table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    exercise04::count_key(table, keys[i]);
  }
}

}  // namespace

CountedTable count_keys(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                        int blocks) {
  using exercise04::CountEntry;
  course::DeviceBuffer<CountEntry*> heads(buckets);
  course::DeviceBuffer<CountEntry> pool(n);
  course::DeviceBuffer<unsigned long long> counters(2);  // entries used, lock acquisitions
  course::DeviceBuffer<int> locks(buckets);
  heads.fill_bytes(0);
  pool.fill_bytes(0);
  counters.fill_bytes(0);
  locks.fill_bytes(0);
  const exercise04::CountTable table{heads.data(), pool.data(),         counters.data(),
                                     locks.data(), counters.data() + 1, buckets};
  grading::watched([&] { count_kernel<<<blocks, 256>>>(d_keys, n, table); });

  CountedTable out;
  const std::vector<unsigned long long> used = counters.download();
  out.entries_used = used[0];
  out.lock_acquisitions = used[1];
  const std::vector<CountEntry*> host_heads = heads.download();
  const std::vector<CountEntry> host_pool = pool.download();
  const auto first = reinterpret_cast<std::uintptr_t>(pool.data());
  out.buckets.resize(buckets);
  std::vector<unsigned char> seen(n, 0);  // an entry on two lists, or twice on one
  for (std::uint32_t b = 0; b < buckets; ++b) {
    for (const CountEntry* e = host_heads[b]; e != nullptr;) {
      const auto address = reinterpret_cast<std::uintptr_t>(e);
      const std::size_t index = (address - first) / sizeof(CountEntry);
      if (address < first || index >= n || (address - first) % sizeof(CountEntry) != 0 ||
          seen[index]) {
        ++out.broken;
        break;
      }
      seen[index] = 1;
      out.buckets[b].emplace_back(host_pool[index].key, host_pool[index].count);
      e = host_pool[index].next;
    }
  }
  return out;
}

}  // namespace grading04
