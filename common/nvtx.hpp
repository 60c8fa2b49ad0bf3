// NVTX ranges: named spans on the Nsight Systems timeline, so `nsys` reads like the table.
//
//   {
//     course::NvtxRange range("v3 16-byte loads");   // pushed here, popped at the brace
//     ...
//   }
//
// NVTX 3 is header-only and ships with the CUDA Toolkit; it costs nothing when no tool listens.
#pragma once

#include <nvtx3/nvToolsExt.h>

namespace course {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace course
