// Lesson 07: one answer from several GPUs. The histogram (lesson 01) and the dot product (lesson
// 03) are cut into one share per rank; each rank computes a partial result on its share with the
// lesson's own best kernel; the versions differ in how the partials become one answer on rank 0's
// GPU. Each version changes one idea.
//
//   v0  one GPU does it all: the baseline every speed-up is measured against;
//   v1  every GPU its share; the host copies the partials back, adds them, copies the sum up;
//   v2  no host: rank 0's GPU pulls the partials over peer-to-peer copies and adds them;
//   v3  NCCL: one ncclReduce of the partials, rank 0 the root;
//   v4  overlap: each share in chunks, the reduce of one chunk running beside the next chunk's
//       computation.
//
// Every version enqueues its work after what the timer's stream (of rank 0's GPU) holds, and
// leaves that stream waiting for the result, which it writes to `out` on rank 0's GPU.
//
// They live in kernels/, read in this order: spread.cuh (the input on the ranks' GPUs), works.cuh
// (the two works, from lessons 01 and 03) and v0_v4_combiner.cuh (the versions). This file lists
// the versions for the program and the tests.
#pragma once

#include <vector>

#include "kernels/spread.cuh"
#include "kernels/v0_v4_combiner.cuh"
#include "kernels/works.cuh"
#include "kind.hpp"

namespace lesson07 {

struct VersionInfo {
  const char* name;
  const char* idea;
  bool nccl;  // needs NCCL and distinct GPUs
  course::Kind kind = course::Kind::course;
};

// This lesson's source is the course's own next step (lesson.json): the program it starts from is
// v0, one GPU with lesson 01's or 03's best kernel, so v0 is the source's row the others beat.
inline const std::vector<VersionInfo>& version_list() {
  static const std::vector<VersionInfo> list = {
      {"v0", "one GPU, the lesson's best kernel", false, course::Kind::source},
      {"v1", "each GPU its share; the host adds", false},
      {"v2", "peer copies to GPU 0, no host", false},
      {"v3", "NCCL: one ncclReduce", true},
      {"v4", "chunks: reduce one, compute next", true}};
  return list;
}

}  // namespace lesson07
