// v7, each stretch of the table built in shared memory.
//
// v6's keys still claim their slots with compare-and-swaps in L2, one round trip each. v7 cuts
// each of v6's regions into stretches as large as a block's shared memory (kBuildBlocksPerSM
// blocks an SM), and gives each stretch a block: the block fills its stretch with empty slots in
// shared memory, reads its region's keys, inserts those whose probe starts in its stretch with
// shared-memory compare-and-swaps, and writes the stretch out whole, in order. The table is
// written once, with wide stores, and never read. A probe that runs off the end of its stretch
// cannot finish there: its key goes on a list, and one small kernel inserts the listed keys
// afterwards, in global memory as v4 does, into the slots still empty. Finds load each stretch
// into shared memory and answer there, going to global memory only for probes that run off it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../reference.hpp"
#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v4_v5_open.cuh"
#include "v6_partitioned.cuh"

namespace lesson04 {

constexpr int kBuildThreads = 512;
constexpr int kBuildBlocksPerSM = 2;  // so that one block's shared work overlaps another's copies

// The table as v7 cuts it: v6's regions, each of `per_region` stretches of `windows` windows.
struct Stretches {
  Regions r;
  std::uint32_t windows;
  std::uint32_t per_region;
};

// The windows one block's shared memory holds when kBuildBlocksPerSM blocks share an SM (each
// block loses the system's reserve, 1 KiB on an H100, none on a T4): 3616 windows, 113 KiB, on an
// H100.
inline std::uint32_t stretch_windows() {
  const auto per_sm = static_cast<std::size_t>(
      course::device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  const auto reserve =
      static_cast<std::size_t>(course::device_attribute(cudaDevAttrReservedSharedMemoryPerBlock));
  const std::size_t per_block =
      std::min<std::size_t>(per_sm / kBuildBlocksPerSM - reserve, course::max_shared_bytes());
  return static_cast<std::uint32_t>(per_block / (kWindow * sizeof(Slot)));
}

inline Stretches stretches_for(std::size_t capacity, std::size_t n, std::uint32_t windows) {
  const std::size_t table_windows = capacity / kWindow;
  const std::size_t stretches = (table_windows + windows - 1) / windows;
  const std::size_t per_region = (stretches + kMaxRegions - 1) / kMaxRegions;
  const Regions r = regions_for(capacity, n, per_region * windows * kWindow * sizeof(Slot));
  return {r, static_cast<std::uint32_t>(std::min<std::size_t>(windows, table_windows)),
          static_cast<std::uint32_t>(per_region)};
}

// Block b's stretch: windows [first, end) of the table (none, for a block past the last region's
// end), and its region's keys, [begin, finish) of the partitioned array.
struct Stretch {
  std::uint32_t first;
  std::uint32_t end;
  std::uint32_t slots;
  std::size_t begin;
  std::size_t finish;
};

__device__ inline Stretch stretch_of(const Stretches& st, const std::uint32_t* starts,
                                     std::size_t n) {
  const std::uint32_t region = blockIdx.x / st.per_region;
  Stretch s;
  s.first = region * st.r.per_region + (blockIdx.x % st.per_region) * st.windows;
  s.end = min(min(s.first + st.windows, (region + 1) * st.r.per_region), st.r.windows);
  s.end = max(s.end, s.first);
  s.slots = (s.end - s.first) * kWindow;
  s.begin = starts[static_cast<std::size_t>(region) * st.r.tiles];
  s.finish =
      region + 1 < st.r.count ? starts[static_cast<std::size_t>(region + 1) * st.r.tiles] : n;
  return s;
}

// v7's way to find block b's stretch, as the build and find kernels take it (v8 has its own).
// Its keys are its region's: those of the other stretches are skipped (kAllOwn false).
struct RegionStretch {
  static constexpr bool kAllOwn = false;
  Stretches st;
  const std::uint32_t* starts;
  std::size_t n;
  __device__ Stretch operator()() const { return stretch_of(st, starts, n); }
  __device__ std::uint32_t home_window(const OpenView& table, std::uint32_t key) const {
    return home(table, key, st.r.windows);
  }
};

// Calls work(j, key, value, home window) for each key j of the block's region whose probe starts
// in its stretch. A thread loads kStretchBatch keys at once, and then the values (values[j], when
// there are values) of those that are its stretch's, so that a block has many loads in flight;
// when every key is the stretch's (Locate::kAllOwn), the values are loaded with the keys.
constexpr int kStretchBatch = 8;

template <typename Locate, typename Work>
__device__ void for_stretch_keys(const Stretch& s, const std::uint32_t* keys,
                                 const std::uint32_t* values, const OpenView& table,
                                 const Locate& locate, Work&& work) {
  for (std::size_t base = s.begin; base < s.finish;
       base += static_cast<std::size_t>(kStretchBatch) * blockDim.x) {
    std::uint32_t key[kStretchBatch];
    std::uint32_t w[kStretchBatch];
    std::uint32_t value[kStretchBatch];
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      const std::size_t j = base + q * blockDim.x + threadIdx.x;
      if (j < s.finish) {
        key[q] = keys[j];
        if (Locate::kAllOwn && values != nullptr) value[q] = values[j];
      }
    }
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      const std::size_t j = base + q * blockDim.x + threadIdx.x;
      w[q] = j < s.finish ? locate.home_window(table, key[q]) : s.end;
      if (!Locate::kAllOwn && values != nullptr && w[q] >= s.first && w[q] < s.end) {
        value[q] = values[j];
      }
    }
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      if (w[q] >= s.first && w[q] < s.end) {
        work(base + q * blockDim.x + threadIdx.x, key[q], values != nullptr ? value[q] : 0u, w[q]);
      }
    }
  }
}

template <typename Locate>
__global__ void stretch_build_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                     OpenView table, Locate locate, std::uint32_t* spilled,
                                     std::uint32_t* spill_count) {
  // The stretch in shared memory as two arrays of 32-bit words, keys and values: a 32-bit
  // compare-and-swap claims a slot's key and a 32-bit atomicMax sets its value, both single
  // instructions in shared memory (a 64-bit atomicMax there is a loop of compare-and-swaps).
  extern __shared__ std::uint32_t words[];
  const Stretch s = locate();
  if (s.slots == 0) return;
  std::uint32_t* slot_keys = words;
  std::uint32_t* slot_values = words + s.slots;
  for (std::uint32_t k = threadIdx.x; k < s.slots; k += blockDim.x) {
    slot_keys[k] = kEmptyKey;
    slot_values[k] = 0;
  }
  __syncthreads();
  for_stretch_keys(s, keys, indices, table, locate,
                   [&](std::size_t j, std::uint32_t key, std::uint32_t value, std::uint32_t w) {
                     if (key == kEmptyKey) {
                       assign_empty_key(table, value);
                       return;
                     }
                     std::uint32_t k = (w - s.first) * kWindow;
                     for (; k < s.slots; ++k) {
                       const std::uint32_t seen = atomicCAS(&slot_keys[k], kEmptyKey, key);
                       if (seen == kEmptyKey || seen == key) {  // claimed, or already ours
                         atomicMax(&slot_values[k], value);
                         break;
                       }
                     }
                     if (k == s.slots) {
                       spilled[atomicAdd(spill_count, 1u)] = static_cast<std::uint32_t>(j);
                     }
                   });
  __syncthreads();
  // Two slots (16 bytes) a store: the stretch starts at a whole window, 32 bytes.
  auto* to =
      reinterpret_cast<ulonglong2*>(table.slots + static_cast<std::size_t>(s.first) * kWindow);
  for (std::uint32_t k = threadIdx.x; k < s.slots / 2; k += blockDim.x) {
    auto slot = [&](std::uint32_t i) {
      return slot_keys[i] == kEmptyKey ? kEmptySlot : pack(slot_keys[i], slot_values[i]);
    };
    to[k] = make_ulonglong2(slot(2 * k), slot(2 * k + 1));
  }
}

// The keys whose probe ran off their stretch, inserted into the finished table like v4's: from
// their first slot, on through the full ones, to an empty slot (or the full-table error).
__global__ void spilled_insert_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                      const std::uint32_t* spilled,
                                      const std::uint32_t* spill_count, OpenView table) {
  const std::uint32_t count = *spill_count;
  for (std::size_t i = course::first_index(); i < count; i += course::grid_stride()) {
    const std::uint32_t j = spilled[i];
    const std::uint32_t key = keys[j];
    insert_or_assign_from(table, key, indices[j],
                          home(table, key, table.capacity / kWindow) * kWindow);
  }
}

// Where a find's answer goes: v7's in the queries' partitioned order, to be put back afterwards.
struct InLine {
  std::uint32_t* answers;
  __device__ void operator()(std::size_t j, std::uint32_t answer) const { answers[j] = answer; }
};

template <typename Locate, typename Deliver>
__global__ void stretch_find_kernel(const std::uint32_t* queries, OpenView table, Locate locate,
                                    Deliver deliver) {
  extern __shared__ Slot slots[];
  const Stretch s = locate();
  if (s.slots == 0) return;
  const auto* from = reinterpret_cast<const ulonglong2*>(
      table.slots + static_cast<std::size_t>(s.first) * kWindow);
  auto* to = reinterpret_cast<ulonglong2*>(slots);
  for (std::uint32_t k = threadIdx.x; k < s.slots / 2; k += blockDim.x)
    to[k] = from[k];
  __syncthreads();
  for_stretch_keys(s, queries, nullptr, table, locate,
                   [&](std::size_t j, std::uint32_t key, std::uint32_t, std::uint32_t w) {
                     if (key == kEmptyKey) {
                       deliver(j, find_empty_key(table));
                       return;
                     }
                     std::uint32_t answer = kNotFound;
                     std::uint32_t k = (w - s.first) * kWindow;
                     for (; k < s.slots; ++k) {
                       const Slot slot = slots[k];
                       if (key_of(slot) == key) {
                         answer = value_of(slot);
                         break;
                       }
                       if (slot == kEmptySlot) break;
                     }
                     if (k == s.slots) {  // off the end of the stretch: on in global memory
                       const std::uint32_t next = s.end * kWindow;
                       answer = find_from(table, key, next == table.capacity ? 0 : next);
                     }
                     deliver(j, answer);
                   });
}

inline Stretches stretches_for(const OpenTable& table, std::size_t n, const Launch& launch) {
  static const std::uint32_t windows = stretch_windows();
  if (launch.region_bytes == 0) return stretches_for(table.capacity(), n, windows);
  const std::size_t asked = launch.region_bytes / (kWindow * sizeof(Slot));
  return stretches_for(
      table.capacity(), n,
      static_cast<std::uint32_t>(std::max<std::size_t>(1, std::min<std::size_t>(asked, windows))));
}

inline std::size_t stretch_shared_bytes(const Stretches& st) {
  return static_cast<std::size_t>(st.windows) * kWindow * sizeof(Slot);
}

inline void insert_stretches(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                             Launch launch) {
  require_keys(n, kMaxKeys);
  const Stretches st = stretches_for(table, n, launch);
  const std::size_t shared = stretch_shared_bytes(st);
  course::allow_shared_bytes(stretch_build_kernel<RegionStretch>, shared);
  with_scratch(n, st.r, launch, [&](PartitionScratch& s) {
    partition_by_region<false>(keys, n, table.view(), st.r, s, launch.stream);
    CUDA_CHECK(cudaMemsetAsync(s.spill_count(), 0, sizeof(std::uint32_t), launch.stream));
    stretch_build_kernel<<<st.r.count * st.per_region, kBuildThreads, shared, launch.stream>>>(
        s.keys(), s.second(), table.view(), RegionStretch{st, s.counts(), n}, s.answers(),
        s.spill_count());
    CUDA_CHECK_LAUNCH();
    spilled_insert_kernel<<<course::sm_count(), kThreads, 0, launch.stream>>>(
        s.keys(), s.second(), s.answers(), s.spill_count(), table.view());
    CUDA_CHECK_LAUNCH();
  });
}

inline void find_stretches(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                           std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const Stretches st = stretches_for(table, n, launch);
  const std::size_t shared = stretch_shared_bytes(st);
  course::allow_shared_bytes(stretch_find_kernel<RegionStretch, InLine>, shared);
  with_scratch(n, st.r, launch, [&](PartitionScratch& s) {
    partition_by_region<true>(queries, n, table.view(), st.r, s, launch.stream);
    stretch_find_kernel<<<st.r.count * st.per_region, kBuildThreads, shared, launch.stream>>>(
        s.keys(), table.view(), RegionStretch{st, s.counts(), n}, InLine{s.answers()});
    CUDA_CHECK_LAUNCH();
    put_back_kernel<<<open_grid(put_back_kernel, n, launch), kThreads, 0, launch.stream>>>(
        s.answers(), s.second(), n, out);
    CUDA_CHECK_LAUNCH();
  });
}

}  // namespace lesson04
