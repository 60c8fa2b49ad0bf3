// Lesson 07's tables for --work hist and --work dot: the CPU reference, the versions v0-v4 on the
// ranks (kernels.cuh), the scaling lines under the table, and, with --processes, the same work in
// one process per GPU (ranks.cuh). main.cu chooses the ranks and calls run_hist or run_dot.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gpus.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "nccl.cuh"
#include "ranks.cuh"
#include "reference.hpp"

namespace lesson07 {

// What main.cu's flags say about a run of hist or dot.
struct CombineRun {
  int chunks = 4;
  bool processes = false;  // also one process per GPU
  bool peers = true;       // false: --no-peer
  bool too_few = false;    // one GPU and no --gpus or --devices: only v0 runs
};

// Where the ranks run: "2 GPUs", or "4 ranks sharing 1 GPU".
inline std::string where(const Gpus& gpus) {
  const int ranks = gpus.ranks();
  const int used = gpus.gpu_count();
  return ranks == used
             ? course::format("%d GPU%s", used, used == 1 ? "" : "s")
             : course::format("%d ranks sharing %d GPU%s", ranks, used, used == 1 ? "" : "s");
}

// Why a version cannot run on these ranks ("" when it can).
inline std::string limit_of(const VersionInfo& v, bool too_few, const Gpus& gpus) {
  if (v.name == std::string("v0")) return "";
  if (too_few) return "needs 2 GPUs (--gpus 1 or --devices 0,0 runs it on this one)";
  if (!v.nccl) return "";
#if COURSE_HAVE_NCCL
  return gpus.distinct() ? "" : "NCCL needs the ranks on distinct GPUs";
#else
  (void)gpus;
  return "built without NCCL (docs/setup.md says how to get it)";
#endif
}

// After the CPU part: rank 0's GPU made current, and the driver's report of it (which exits 77
// without a usable GPU).
inline void start_gpus(course::Lesson& lesson, const std::vector<int>& devices) {
  if (device_count() > 0) CUDA_CHECK(cudaSetDevice(devices[0]));
  lesson.gpu();
}

// The scaling lines under the table: each version's speed-up over v0 (one GPU) and its parallel
// efficiency on these ranks' GPUs (ranks sharing a GPU count it once).
inline void print_scaling(const course::ResultTable& table, const Gpus& gpus) {
  const course::TableRow* v0 = nullptr;
  for (const course::TableRow& r : table.rows()) {
    if (r.version == "v0" && r.check == course::Check::ok) v0 = &r;
  }
  if (v0 == nullptr) return;
  const std::string on = where(gpus);
  std::printf("scaling on %s (strong: the same n), against v0 on one GPU, %.4f ms:\n", on.c_str(),
              v0->time.median_ms);
  for (const course::TableRow& r : table.rows()) {
    if (r.version == "v0" || r.check != course::Check::ok) continue;
    std::printf("  %s on %s: %.4f ms, speed-up %.2fx, efficiency %.0f%%\n", r.version.c_str(),
                on.c_str(), r.time.median_ms, speedup(v0->time.median_ms, r.time.median_ms),
                100.0 * efficiency(v0->time.median_ms, r.time.median_ms, gpus.gpu_count()));
  }
  std::printf("\n");
}

// --processes: the same work in one process per GPU; rank 0's answer is held to `check`, which
// returns "" or what is wrong. False when it failed.
inline bool run_in_processes(course::Lesson& lesson, Work work, const std::vector<int>& devices,
                             const std::function<std::string(const std::vector<double>&)>& check) {
#if COURSE_HAVE_NCCL
  const std::vector<std::string> args = {"--work", works().name(work),
                                         "--n",    std::to_string(lesson.n()),
                                         "--seed", std::to_string(lesson.options().seed),
                                         "--reps", std::to_string(lesson.reps())};
  std::string error;
  const RankReport report = run_processes(devices, args, 300, &error);
  if (error.empty()) error = check(report.values);
  std::printf(
      "one process per GPU (%zu process%s; NCCL's id sent down a pipe; partial + "
      "ncclAllReduce): %s\n\n",
      devices.size(), devices.size() == 1 ? "" : "es",
      error.empty() ? course::format("%.4f ms, ok", report.median_ms).c_str()
                    : ("FAILED: " + error).c_str());
  return error.empty();
#else
  (void)lesson;
  (void)work;
  (void)devices;
  (void)check;
  std::printf("one process per GPU: skipped, built without NCCL\n\n");
  return true;
#endif
}

// The versions of one work, checked by `check_out` (which reads `out` on rank 0's GPU).
template <typename Part>
void run_combined(course::Lesson& lesson, Gpus& gpus, const Part& work, const CombineRun& run,
                  course::DeviceBuffer<typename Part::Value>& out,
                  const std::function<std::string(const std::string&)>& check_out) {
#if COURSE_HAVE_NCCL
  std::unique_ptr<Communicators> nccl;
  if (!run.too_few && gpus.distinct()) nccl = std::make_unique<Communicators>(gpus);
  Combiner<Part> combiner(gpus, work, run.chunks, nccl.get());
#else
  Combiner<Part> combiner(gpus, work, run.chunks, nullptr);
#endif
  using Value = typename Part::Value;
  const std::function<void(Value*, cudaStream_t)> runs[] = {
    [&](Value* o, cudaStream_t t) { combiner.one_gpu(o, t); },
    [&](Value* o, cudaStream_t t) { combiner.host_staged(o, t); },
    [&](Value* o, cudaStream_t t) { combiner.peer_pull(o, t); },
#if COURSE_HAVE_NCCL
    [&](Value* o, cudaStream_t t) { combiner.nccl_reduce(o, t); },
    [&](Value* o, cudaStream_t t) { combiner.overlapped(o, t); },
#else
    [](Value*, cudaStream_t) {},
    [](Value*, cudaStream_t) {},
#endif
  };
  lesson.poison([&] {
    out.fill_bytes(0xFF);
    gpus.flush_other_l2s();
  });
  std::vector<course::Version> versions;
  const auto& list = version_list();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].name;
    const auto body = runs[i];
    course::Version v{name, list[i].idea, limit_of(list[i], run.too_few, gpus),
                      [&out, body] { body(out.data(), nullptr); },
                      [name, &check_out] { return check_out(name); }};
    v.kind = list[i].kind;
    if (name == "v2" && !gpus.all_peers()) {
      v.note = "a GPU cannot reach another directly: v1's host staging ran instead";
    }
    versions.push_back(std::move(v));
  }
  constexpr bool kHist = std::is_same_v<Part, Histogram>;
  lesson.run_versions(course::format("lesson07, %s, n = %zu, on %s (%s)", kHist ? "hist" : "dot",
                                     work.n(), where(gpus).c_str(), lesson.report().props.name),
                      static_cast<double>(work.n()) * (kHist ? 1.0 : 2.0 * sizeof(float)),
                      versions);
  print_scaling(lesson.table(), gpus);
}

// --work hist. False when the processes' run failed (the table's checks are the lesson's).
inline bool run_hist(course::Lesson& lesson, const CombineRun& run,
                     const std::vector<int>& devices) {
  const std::size_t n = lesson.n();
  lesson.begin(course::format("histogram of %zu random bytes on %zu rank%s", n, devices.size(),
                              devices.size() == 1 ? "" : "s"),
               n);
  const std::vector<std::uint8_t> bytes = course::random_bytes(n, lesson.options().seed);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  lesson01::Histogram expected{};
  const course::Timing cpu = course::time_cpu(
      [&] { expected = lesson01::histogram_cpu_threads(bytes.data(), n, threads); },
      lesson.cpu_reps(), 1);
  std::printf("CPU, %u threads: %.3f ms\n\n", threads, cpu.median_ms);
  lesson.set_cpu(cpu.median_ms, course::format("the CPU with %u threads", threads));
  start_gpus(lesson, devices);
  Gpus gpus(devices, run.peers);
  std::printf("%s\n", gpus.report().c_str());
  const Histogram work(gpus, bytes);
  course::DeviceBuffer<unsigned long long> out(lesson01::kBins);
  run_combined(lesson, gpus, work, run, out, [&](const std::string&) {
    const std::vector<unsigned long long> got = out.download();
    return histogram_mismatch(std::vector<double>(got.begin(), got.end()), expected);
  });
  if (!run.processes) return true;
  return run_in_processes(lesson, Work::hist, devices, [&](const std::vector<double>& got) {
    return histogram_mismatch(got, expected);
  });
}

// --work dot. False when the processes' run failed.
inline bool run_dot(course::Lesson& lesson, const CombineRun& run,
                    const std::vector<int>& devices) {
  const std::size_t n = lesson.n();
  lesson.begin(course::format("dot product of two arrays of %zu floats on %zu rank%s", n,
                              devices.size(), devices.size() == 1 ? "" : "s"),
               2 * n * sizeof(float));
  const lesson03::Inputs in =
      lesson03::make_inputs(n, lesson03::Dist::uniform, lesson.options().seed);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  lesson03::Reference ref;
  const course::Timing cpu =
      course::time_cpu([&] { ref = lesson03::reference_dot(in.a.data(), in.b.data(), n, threads); },
                       lesson.cpu_reps(), 1);
  std::printf("CPU, %u threads, in double: %.3f ms, dot %.9g\n\n", threads, cpu.median_ms, ref.dot);
  lesson.set_cpu(cpu.median_ms, course::format("the CPU with %u threads", threads));
  start_gpus(lesson, devices);
  Gpus gpus(devices, run.peers);
  std::printf("%s\n", gpus.report().c_str());
  const Dot work(gpus, in);
  course::DeviceBuffer<float> out(1);
  const int ranks = gpus.ranks();
  // Each version's bound (reference.hpp), and its result's bits.
  const std::size_t largest = share_of(n, ranks, 0).size();
  const std::size_t piece = share_of(largest, run.chunks, 0).size();
  auto bound_of = [&](std::size_t items, std::size_t combine_adds) {
    return dot_error_bound(items, ref.magnitudes, work.threads(0), work.blocks(0), combine_adds,
                           false);
  };
  std::vector<std::pair<std::string, std::uint32_t>> bits;
  run_combined(lesson, gpus, work, run, out, [&](const std::string& name) {
    const float got = out.download()[0];
    bits.push_back({name, course::bits_of(got)});
    const double bound = name == "v0" ? bound_of(n, 0)
                         : name == "v4"
                             ? bound_of(piece, static_cast<std::size_t>(ranks + run.chunks))
                             : bound_of(largest, static_cast<std::size_t>(ranks));
    return dot_mismatch({got}, ref.dot, bound);
  });
  std::printf("results' bits:");
  for (const auto& [name, b] : bits)
    std::printf(" %s 0x%08x", name.c_str(), static_cast<unsigned>(b));
  std::printf("\n(v1 and v2 add the same partials in the same rank order: the same bits)\n\n");
  if (!run.processes) return true;
  // The processes' ranks run lesson 03's v4 with the same grid, and NCCL adds their sums.
  const double bound = bound_of(largest, static_cast<std::size_t>(ranks));
  return run_in_processes(lesson, Work::dot, devices, [&](const std::vector<double>& got) {
    return dot_mismatch(got, ref.dot, bound);
  });
}

}  // namespace lesson07
