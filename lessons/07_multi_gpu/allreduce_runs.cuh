// Lesson 07's table for --work allreduce: every ring plan (ring.cuh) against ncclAllReduce on the
// same vectors, with nccl-tests' algbw and busbw, the link's own bandwidth, and (--sweep) the same
// rows at every size from 1 MiB up, as nccl-tests sweeps them.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "allreduce.cuh"
#include "combine_runs.cuh"
#include "gpus.cuh"
#include "lesson.cuh"
#include "nccl.cuh"
#include "reference.hpp"
#include "ring.cuh"

namespace lesson07 {

// What main.cu's flags say about a run of the all-reduce.
struct AllreduceRun {
  bool peers = true;     // false: --no-peer
  bool too_few = false;  // one GPU and no --gpus or --devices
  int slices = 0;        // --slices: the most slices of the sliced rings (0: each plan's own)
  bool sweep = false;
  std::string sweep_csv;
};

// A ring plan as this run uses it: --slices replaces the most slices of the plans that slice.
inline RingPlan plan_for(RingPlan plan, int slices) {
  if (plan.slices > 1 && slices > 0) plan.slices = slices;
  return plan;
}

// The all-reduce's versions on `vectors`: each ring plan, then NCCL's. `rings` keeps the rings.
inline std::vector<course::Version> allreduce_versions(Gpus& gpus, Vectors& vectors,
                                                       const AllreduceRun& run,
                                                       const std::vector<float>& expected,
                                                       std::vector<std::unique_ptr<Ring>>& rings,
                                                       CommunicatorsPtr comms) {
  const bool too_few = run.too_few;
  const std::vector<float*> data = vectors.pointers();
  const std::size_t n = vectors.n();
  const auto restore = [&gpus, &vectors] {
    vectors.restore(gpus);
    gpus.join(nullptr);  // the timer's stream waits for the restore, outside the timed run
  };
  const auto check = [&gpus, &vectors, &expected] { return vectors.mismatch(gpus, expected); };
  std::vector<course::Version> versions;
  for (const RingPlan& listed : ring_plans()) {
    const RingPlan plan = plan_for(listed, run.slices);
    std::string why = too_few ? "needs 2 GPUs (--gpus 1 or --devices 0,0 runs it on this one)"
                              : Ring::limit(plan, gpus);
    Ring* ring = nullptr;
    if (why.empty()) {
      rings.push_back(std::make_unique<Ring>(gpus, n, plan));
      ring = rings.back().get();
    }
    course::Version v{plan.name, plan.idea, why,
                      [&gpus, ring, data] { ring->all_reduce(gpus, data, nullptr); }, check};
    v.prepare = restore;
    versions.push_back(v);
  }
  course::Version nccl{"NCCL", "ncclAllReduce", "", [] {}, check};
  nccl.kind = course::Kind::library;
#if COURSE_HAVE_NCCL
  if (too_few) {
    nccl.limit = "needs 2 GPUs";
  } else if (comms == nullptr) {
    nccl.limit = "NCCL needs the ranks on distinct GPUs";
  } else {
    nccl.run = [&gpus, comms, data, n] { nccl_all_reduce(gpus, *comms, data, n, nullptr); };
  }
#else
  (void)comms;
  nccl.limit = "built without NCCL (docs/setup.md says how to get it)";
#endif
  nccl.prepare = restore;
  versions.push_back(nccl);
  return versions;
}

// --sweep: every version at 1 MiB, 2 MiB, ... up to the run's n floats per rank; a line per size
// (busbw in GB/s), and the rows to `csv` when it is not "". False when a check failed.
inline bool allreduce_sweep(course::Lesson& lesson, Gpus& gpus, const AllreduceRun& run,
                            CommunicatorsPtr comms) {
  const std::string& csv = run.sweep_csv;
  const int ranks = gpus.ranks();
  std::printf("--sweep: bus bandwidth (GB/s) against the size of each rank's vector, %d rank%s\n",
              ranks, ranks == 1 ? "" : "s");
  std::FILE* out = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
  if (out != nullptr) {
    std::fprintf(out, "lesson,device,cuda,bytes,gpus,version,median_ms,algbw,busbw,check\n");
  }
  bool ok = true;
  bool header = false;
  for (std::size_t n = std::size_t{1} << 18; n <= lesson.n(); n *= 2) {
    const std::vector<float> expected = allreduce_expected(n, ranks, lesson.options().seed);
    Vectors vectors(gpus, n, lesson.options().seed);
    std::vector<std::unique_ptr<Ring>> rings;
    const std::vector<course::Version> versions =
        allreduce_versions(gpus, vectors, run, expected, rings, comms);
    if (!header) {
      std::printf("%10s", "bytes");
      for (const course::Version& v : versions)
        std::printf(" %10s", v.name.c_str());
      std::printf("\n");
      header = true;
    }
    const double bytes = static_cast<double>(n * sizeof(float));
    std::printf("%10s", course::size_text(n * sizeof(float)).c_str());
    for (const course::Version& v : versions) {
      if (!v.limit.empty()) {
        std::printf(" %10s", "-");
        continue;
      }
      const course::Outcome r = lesson.time(v, 1000.0);
      ok = ok && r.mismatch.empty();
      const double ms = r.time.median_ms;
      std::printf(" %10s", r.mismatch.empty()
                               ? course::format("%.1f", busbw_gbps(bytes, ms, ranks)).c_str()
                               : "FAIL");
      if (out != nullptr) {
        std::fprintf(out, "07,%s,%s,%.0f,%d,%s,%.6f,%.3f,%.3f,%s\n", lesson.report().props.name,
                     course::version_text(lesson.report().runtime_version).c_str(), bytes,
                     gpus.gpu_count(), v.name.c_str(), ms, algbw_gbps(bytes, ms),
                     busbw_gbps(bytes, ms, ranks), r.mismatch.empty() ? "ok" : "FAIL");
      }
    }
    std::printf("\n");
  }
  if (out != nullptr) {
    std::fclose(out);
    std::printf("wrote %s\n", csv.c_str());
  }
  std::printf("\n");
  return ok;
}

// --work allreduce. False when the sweep's checks failed (the table's are the lesson's).
inline bool run_allreduce(course::Lesson& lesson, const std::vector<int>& devices,
                          const AllreduceRun& run) {
  const bool too_few = run.too_few;
  const std::size_t n = lesson.n();
  const int ranks = static_cast<int>(devices.size());
  int on_first = 0;
  for (int d : devices)
    on_first += d == devices[0] ? 1 : 0;
  const std::size_t per_rank = (2 * n + share_of(n, ranks, 0).size()) * sizeof(float);
  lesson.begin(
      course::format("all-reduce of %zu floats (%s bytes) on %d rank%s", n,
                     course::size_text(n * sizeof(float)).c_str(), ranks, ranks == 1 ? "" : "s"),
      per_rank * static_cast<std::size_t>(on_first), 3 * n * sizeof(float));
  std::vector<float> expected;
  const course::Timing cpu =
      course::time_cpu([&] { expected = allreduce_expected(n, ranks, lesson.options().seed); },
                       lesson.cpu_reps(), 1);
  std::printf("CPU, every core, the sum of %d vectors: %.3f ms\n\n", ranks, cpu.median_ms);
  lesson.set_cpu(cpu.median_ms, "the CPU's sum");
  start_gpus(lesson, devices);
  Gpus gpus(devices, run.peers);
  std::printf("%s\n", gpus.report().c_str());
  CommunicatorsPtr comms = nullptr;
#if COURSE_HAVE_NCCL
  std::unique_ptr<Communicators> communicators;
  if (!too_few && gpus.distinct()) {
    communicators = std::make_unique<Communicators>(gpus);
    comms = communicators.get();
  }
#endif
  bool ok = true;
  {
    Vectors vectors(gpus, n, lesson.options().seed);
    std::vector<std::unique_ptr<Ring>> rings;
    const std::vector<course::Version> versions =
        allreduce_versions(gpus, vectors, run, expected, rings, comms);
    if (!rings.empty()) {
      std::printf("slices of each step's chunk (at least %s each):",
                  course::size_text(kMinSliceBytes).c_str());
      for (const auto& ring : rings)
        std::printf(" %s %d", ring->plan().name, ring->slices().front());
      std::printf("\n\n");
    }
    const double bytes = static_cast<double>(n * sizeof(float));
    // No best-version line: the rings are set against each other and NCCL by bandwidth, below.
    const course::ResultTable& table = lesson.run_versions(
        course::format("lesson07, all-reduce of %zu floats on %s (%s); GB/s = algbw", n,
                       where(gpus).c_str(), lesson.report().props.name),
        bytes, versions, false);
    std::printf(
        "bandwidth as nccl-tests report it: algbw = bytes / time, busbw = algbw * 2(G-1)/G\n");
    for (const course::TableRow& r : table.rows()) {
      if (r.check != course::Check::ok) continue;
      std::printf("  %-9s %9.4f ms  algbw %7.1f GB/s  busbw %7.1f GB/s\n", r.version.c_str(),
                  r.time.median_ms, algbw_gbps(bytes, r.time.median_ms),
                  busbw_gbps(bytes, r.time.median_ms, ranks));
    }
  }
  if (ranks >= 2 && gpus.device(0) != gpus.device(1) && !too_few) {
    const std::size_t link_bytes = std::min<std::size_t>(n * sizeof(float), std::size_t{1} << 30);
    const LinkBandwidth link = measure_link(gpus, link_bytes, 10);
    std::printf(
        "the link between ranks 0 and 1 (peer copies of %s): %.1f GB/s one way, %.1f GB/s "
        "both ways at once\n",
        course::size_text(link_bytes).c_str(), link.one_way, link.both_ways);
  }
  std::printf("\n");
  if (run.sweep) ok = allreduce_sweep(lesson, gpus, run, comms) && ok;
  return ok;
}

}  // namespace lesson07
