// The input, spread over the ranks: the whole of it on rank 0's GPU, and every rank's share on its
// own GPU.
#pragma once

#include <cstddef>
#include <vector>

#include "../gpus.cuh"
#include "../reference.hpp"
#include "device_memory.hpp"

namespace lesson07 {

// An array of the host's, copied to the GPUs: the whole of it to rank 0's GPU (v0 reads it all),
// and to every rank its share. A rank on rank 0's GPU reads its share from the whole copy; the
// others hold their own.
template <typename T>
class Spread {
 public:
  Spread(const Gpus& gpus, const std::vector<T>& host)
      : at_(static_cast<std::size_t>(gpus.ranks())) {
    {
      OnDevice on(gpus.device(0));
      whole_ = course::DeviceBuffer<T>(host);
    }
    own_.resize(at_.size());
    for (int r = 0; r < gpus.ranks(); ++r) {
      const Share s = share_of(host.size(), gpus.ranks(), r);
      if (gpus.device(r) == gpus.device(0)) {
        at_[r] = whole_.data() + s.begin;
        continue;
      }
      OnDevice on(gpus.device(r));
      own_[r] = course::DeviceBuffer<T>(s.size());
      own_[r].upload(host.data() + s.begin, s.size());
      at_[r] = own_[r].data();
    }
  }
  const T* whole() const { return whole_.data(); }
  const T* share(int r) const { return at_.at(static_cast<std::size_t>(r)); }

 private:
  course::DeviceBuffer<T> whole_;
  std::vector<course::DeviceBuffer<T>> own_;
  std::vector<const T*> at_;
};

}  // namespace lesson07
