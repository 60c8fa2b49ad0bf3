// Lesson 07: one answer from several GPUs. Build alone, from this folder (NCCL is not in the CUDA
// Toolkit: README.md says how to get it; without -DCOURSE_HAVE_NCCL=1 its versions are skipped):
//   nvcc -O3 -std=c++17 -arch=native -I../../common -DCOURSE_HAVE_NCCL=1 main.cu -lnccl -o lesson07
// Runs the CPU reference, then every version of the chosen work on G GPUs against the one-GPU
// baseline, and checks each against the CPU:
//   --work hist       lesson 01's histogram of n bytes (exact: the same 256 counts);
//   --work dot        lesson 03's dot product of two arrays of n floats (within lesson 03's bound);
//   --work allreduce  n floats on every GPU, summed on every GPU: a hand-written ring of peer
//                     copies against ncclAllReduce, with NCCL's bus bandwidth.
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "allreduce.cuh"
#include "gpus.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "nccl.cuh"
#include "ranks.cuh"
#include "reference.hpp"

namespace {

using lesson07::Work;

struct Options {
  Work work = Work::hist;
  int gpus = 0;
  std::string devices;
  int chunks = 4;
  bool processes = false;
  bool no_peer = false;
  std::string rank;  // "r/G": this process is one rank of --processes
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--work", &o->work, lesson07::works());
  cli.number("--gpus", &o->gpus,
             "use GPUs 0 .. N-1, one rank each (0: every GPU; more than the machine has: exit 2)",
             0, 64);
  cli.text("--devices", &o->devices, "LIST",
           "the ranks' GPUs, by number: 0,1,3; a GPU named twice is shared by two ranks, so "
           "--devices 0,0 runs every version but NCCL's on one GPU");
  cli.number("--chunks", &o->chunks, "v4's chunks per GPU", 1, 64);
  cli.flag("--processes", &o->processes,
           "also run one process per GPU, bootstrapped through a pipe (hist and dot; needs NCCL)");
  cli.flag("--no-peer", &o->no_peer,
           "act as if no GPU could read another's memory: v2 falls back to v1, and says so");
  cli.text("--rank", &o->rank, "R/G",
           "run as rank R of G, reading NCCL's id on standard input (what --processes starts)");
}

// The ranks' devices from --devices or --gpus, checked against the machine before any work.
std::vector<int> choose_devices(const course::CommandLine& cli, const Options& o, int count) {
  std::vector<int> devices;
  if (!o.devices.empty()) {
    std::size_t at = 0;
    while (at <= o.devices.size()) {
      const std::size_t comma = std::min(o.devices.find(',', at), o.devices.size());
      const std::string word = o.devices.substr(at, comma - at);
      if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos ||
          word.size() > 3) {
        course::usage_error(
            cli, "--devices takes GPU numbers separated by commas, not '" + o.devices + "'");
      }
      const int d = std::stoi(word);
      // With no GPU at all, the lesson's CPU part runs and it exits 77, as every lesson does.
      if (d >= count && count > 0) {
        course::usage_error(cli, course::format("--devices names GPU %d, but this machine has %d "
                                                "GPU%s",
                                                d, count, count == 1 ? "" : "s"));
      }
      devices.push_back(d);
      at = comma + 1;
    }
    if (o.gpus > 0) course::usage_error(cli, "give --gpus or --devices, not both");
    return devices;
  }
  if (o.gpus > count) {
    course::usage_error(cli, course::format("--gpus %d: this machine has %d GPU%s", o.gpus, count,
                                            count == 1 ? "" : "s"));
  }
  const int g = o.gpus > 0 ? o.gpus : std::max(count, 1);
  for (int d = 0; d < g; ++d)
    devices.push_back(d);
  return devices;
}

// Why a version cannot run on these ranks ("" when it can).
std::string limit_of(const lesson07::VersionInfo& v, bool too_few, const lesson07::Gpus& gpus) {
  if (v.name == std::string("v0")) return "";
  if (too_few) return "needs 2 GPUs (--gpus 1 or --devices 0,0 runs it on this one)";
  if (!v.nccl) return "";
#if COURSE_HAVE_NCCL
  if (!gpus.distinct()) return "NCCL needs the ranks on distinct GPUs";
  return "";
#else
  (void)gpus;
  return "built without NCCL (lessons/07_multi_gpu/README.md says how to get it)";
#endif
}

// Where the ranks run: "2 GPUs", or "4 ranks sharing 1 GPU".
std::string where(const lesson07::Gpus& gpus) {
  const int ranks = gpus.ranks();
  const int used = gpus.gpu_count();
  return ranks == used
             ? course::format("%d GPU%s", used, used == 1 ? "" : "s")
             : course::format("%d ranks sharing %d GPU%s", ranks, used, used == 1 ? "" : "s");
}

// The scaling lines under the table: each version's speed-up over v0 (one GPU) and its parallel
// efficiency on these ranks' GPUs (ranks sharing a GPU count it once).
void print_scaling(const course::ResultTable& table, const lesson07::Gpus& gpus) {
  const course::TableRow* v0 = nullptr;
  for (const course::TableRow& r : table.rows()) {
    if (r.version == "v0" && r.check == course::Check::ok) v0 = &r;
  }
  if (v0 == nullptr) return;
  const int used = gpus.gpu_count();
  const std::string on = where(gpus);
  std::printf("scaling on %s (strong: the same n), against v0 on one GPU, %.4f ms:\n", on.c_str(),
              v0->time.median_ms);
  for (const course::TableRow& r : table.rows()) {
    if (r.version == "v0" || r.check != course::Check::ok) continue;
    std::printf("  %s on %s: %.4f ms, speed-up %.2fx, efficiency %.0f%%\n", r.version.c_str(),
                on.c_str(), r.time.median_ms,
                lesson07::speedup(v0->time.median_ms, r.time.median_ms),
                100.0 * lesson07::efficiency(v0->time.median_ms, r.time.median_ms, used));
  }
  std::printf("\n");
}

// After the CPU part: rank 0's GPU made current, and the driver's report of it (which exits 77
// without a usable GPU).
void start_gpus(course::Lesson& lesson, const std::vector<int>& devices) {
  if (lesson07::device_count() > 0) CUDA_CHECK(cudaSetDevice(devices[0]));
  lesson.gpu();
}

bool run_in_processes(course::Lesson& lesson, const Options& o, const std::vector<int>& devices,
                      const std::function<std::string(const std::vector<double>&)>& check);

// ---- hist and dot ------------------------------------------------------------------------------

// The versions of one work, checked by `check_out` (which reads `out` on rank 0's GPU).
template <typename Part>
void run_combined(course::Lesson& lesson, lesson07::Gpus& gpus, const Part& work, int chunks,
                  bool too_few, course::DeviceBuffer<typename Part::Value>& out,
                  const std::function<std::string(const std::string&)>& check_out) {
#if COURSE_HAVE_NCCL
  std::unique_ptr<lesson07::Communicators> nccl;
  if (!too_few && gpus.distinct()) {
    nccl = std::make_unique<lesson07::Communicators>(gpus);
  }
  lesson07::Combiner<Part> combiner(gpus, work, chunks, nccl.get());
#else
  lesson07::Combiner<Part> combiner(gpus, work, chunks, nullptr);
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
  const auto& list = lesson07::version_list();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].name;
    const auto run = runs[i];
    course::Version v{name, list[i].idea, limit_of(list[i], too_few, gpus),
                      [&out, run] { run(out.data(), nullptr); },
                      [name, &check_out] { return check_out(name); }};
    if (name == "v2" && !gpus.all_peers()) {
      v.note = "a GPU cannot reach another directly: v1's host staging ran instead";
    }
    versions.push_back(std::move(v));
  }
  constexpr bool kHist = std::is_same_v<Part, lesson07::Histogram>;
  lesson.run_versions(course::format("lesson07, %s, n = %zu, on %s (%s)", kHist ? "hist" : "dot",
                                     work.n(), where(gpus).c_str(), lesson.report().props.name),
                      static_cast<double>(work.n()) * (kHist ? 1.0 : 2.0 * sizeof(float)),
                      versions);
  print_scaling(lesson.table(), gpus);
}

bool run_hist(course::Lesson& lesson, const Options& o, const std::vector<int>& devices,
              bool too_few) {
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
  lesson07::Gpus gpus(devices, !o.no_peer);
  std::printf("%s\n", gpus.report().c_str());
  const lesson07::Histogram work(gpus, bytes);
  course::DeviceBuffer<unsigned long long> out(lesson01::kBins);
  run_combined(lesson, gpus, work, o.chunks, too_few, out, [&](const std::string&) {
    const std::vector<unsigned long long> got = out.download();
    for (int b = 0; b < lesson01::kBins; ++b) {
      if (got[static_cast<std::size_t>(b)] != expected[static_cast<std::size_t>(b)]) {
        return course::format(
            "bin %d: got %llu, expected %llu", b, got[static_cast<std::size_t>(b)],
            static_cast<unsigned long long>(expected[static_cast<std::size_t>(b)]));
      }
    }
    return std::string();
  });
  return run_in_processes(lesson, o, devices, [&](const std::vector<double>& got) {
    if (got.size() != lesson01::kBins) return std::string("rank 0 did not print 256 counts");
    for (int b = 0; b < lesson01::kBins; ++b) {
      if (got[static_cast<std::size_t>(b)] !=
          static_cast<double>(expected[static_cast<std::size_t>(b)])) {
        return course::format(
            "bin %d: got %.17g, expected %llu", b, got[static_cast<std::size_t>(b)],
            static_cast<unsigned long long>(expected[static_cast<std::size_t>(b)]));
      }
    }
    return std::string();
  });
}

bool run_dot(course::Lesson& lesson, const Options& o, const std::vector<int>& devices,
             bool too_few) {
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
  lesson07::Gpus gpus(devices, !o.no_peer);
  std::printf("%s\n", gpus.report().c_str());
  const lesson07::Dot work(gpus, in);
  course::DeviceBuffer<float> out(1);
  const int ranks = gpus.ranks();
  // Each version's bound (reference.hpp), and its result's bits over a few more runs.
  const std::size_t largest = lesson07::share_of(n, ranks, 0).size();
  const std::size_t piece = lesson07::share_of(largest, o.chunks, 0).size();
  std::vector<std::pair<std::string, std::uint32_t>> bits;
  run_combined(lesson, gpus, work, o.chunks, too_few, out, [&](const std::string& name) {
    const float got = out.download()[0];
    double bound = 0;
    if (name == "v0") {
      bound =
          lesson07::dot_error_bound(n, ref.magnitudes, work.threads(0), work.blocks(0), 0, false);
    } else if (name == "v4") {
      bound = lesson07::dot_error_bound(piece, ref.magnitudes, work.threads(0), work.blocks(0),
                                        static_cast<std::size_t>(ranks + o.chunks), false);
    } else {
      bound = lesson07::dot_error_bound(largest, ref.magnitudes, work.threads(0), work.blocks(0),
                                        static_cast<std::size_t>(ranks), false);
    }
    bits.push_back({name, course::bits_of(got)});
    if (!lesson03::dot_ok(got, ref.dot, bound)) {
      return course::format("got %.9g, expected %.9g within %.3g", got, ref.dot, bound);
    }
    return std::string();
  });
  std::printf("results' bits:");
  for (const auto& [name, b] : bits)
    std::printf(" %s 0x%08x", name.c_str(), static_cast<unsigned>(b));
  std::printf("\n(v1 and v2 add the same partials in the same rank order: the same bits)\n\n");
  // The processes' ranks run lesson 03's v4 with the same grid, and NCCL adds their sums.
  const double bound =
      lesson07::dot_error_bound(largest, ref.magnitudes, work.threads(0), work.blocks(0),
                                static_cast<std::size_t>(ranks), false);
  return run_in_processes(lesson, o, devices, [&](const std::vector<double>& got) {
    if (got.size() != 1) return std::string("rank 0 did not print one number");
    if (!lesson03::dot_ok(static_cast<float>(got[0]), ref.dot, bound)) {
      return course::format("got %.9g, expected %.9g within %.3g", got[0], ref.dot, bound);
    }
    return std::string();
  });
}

// ---- the all-reduce ----------------------------------------------------------------------------

void run_allreduce(course::Lesson& lesson, const Options& o, const std::vector<int>& devices,
                   bool too_few) {
  const std::size_t n = lesson.n();
  const int ranks = static_cast<int>(devices.size());
  int on_first = 0;
  for (int d : devices)
    on_first += d == devices[0] ? 1 : 0;
  const std::size_t per_rank = (2 * n + lesson07::share_of(n, ranks, 0).size()) * sizeof(float);
  lesson.begin(
      course::format("all-reduce of %zu floats (%s bytes) on %d rank%s", n,
                     course::size_text(n * sizeof(float)).c_str(), ranks, ranks == 1 ? "" : "s"),
      per_rank * static_cast<std::size_t>(on_first), 3 * n * sizeof(float));
  std::vector<float> expected;
  const course::Timing cpu = course::time_cpu(
      [&] { expected = lesson07::allreduce_expected(n, ranks, lesson.options().seed); },
      lesson.cpu_reps(), 1);
  std::printf("CPU, every core, the sum of %d vectors: %.3f ms\n\n", ranks, cpu.median_ms);
  lesson.set_cpu(cpu.median_ms, "the CPU's sum");
  start_gpus(lesson, devices);
  lesson07::Gpus gpus(devices, !o.no_peer);
  std::printf("%s\n", gpus.report().c_str());
  lesson07::Vectors vectors(gpus, n, lesson.options().seed);
  lesson07::Ring ring(gpus, n);
  const std::vector<float*> data = vectors.pointers();
  const auto restore = [&] {
    vectors.restore(gpus);
    gpus.join(nullptr);  // the timer's stream waits for the restore, outside the timed run
  };
  const auto check = [&] { return vectors.mismatch(gpus, expected); };
  std::vector<course::Version> versions;
  course::Version hand{
      "ring", "peer copies in a ring, by hand",
      too_few ? "needs 2 GPUs (--gpus 1 or --devices 0,0 runs it on this one)" : "",
      [&] { ring.all_reduce(gpus, data, nullptr); }, check};
  hand.prepare = restore;
  versions.push_back(hand);
  course::Version nccl{"NCCL", "ncclAllReduce", "", [] {}, check};
#if COURSE_HAVE_NCCL
  std::unique_ptr<lesson07::Communicators> comms;
  if (too_few) {
    nccl.limit = "needs 2 GPUs";
  } else if (!gpus.distinct()) {
    nccl.limit = "NCCL needs the ranks on distinct GPUs";
  } else {
    comms = std::make_unique<lesson07::Communicators>(gpus);
    nccl.run = [&] { lesson07::nccl_all_reduce(gpus, *comms, data, n, nullptr); };
  }
#else
  nccl.limit = "built without NCCL (lessons/07_multi_gpu/README.md says how to get it)";
#endif
  nccl.prepare = restore;
  versions.push_back(nccl);
  const double bytes = static_cast<double>(n * sizeof(float));
  const course::ResultTable& table = lesson.run_versions(
      course::format("lesson07, all-reduce of %zu floats on %s (%s); GB/s = algbw", n,
                     where(gpus).c_str(), lesson.report().props.name),
      bytes, versions);
  std::printf(
      "bandwidth as nccl-tests report it: algbw = bytes / time, busbw = algbw * 2(G-1)/G\n");
  for (const course::TableRow& r : table.rows()) {
    if (r.check != course::Check::ok) continue;
    std::printf("  %-5s %9.4f ms  algbw %7.1f GB/s  busbw %7.1f GB/s\n", r.version.c_str(),
                r.time.median_ms, lesson07::algbw_gbps(bytes, r.time.median_ms),
                lesson07::busbw_gbps(bytes, r.time.median_ms, ranks));
  }
  if (ranks >= 2 && gpus.device(0) != gpus.device(1) && !too_few) {
    const lesson07::LinkBandwidth link = lesson07::measure_link(
        gpus, std::min<std::size_t>(n * sizeof(float), std::size_t{1} << 30), 10);
    std::printf(
        "the link between ranks 0 and 1 (peer copies of %s): %.1f GB/s one way, %.1f GB/s "
        "both ways at once\n",
        course::size_text(std::min<std::size_t>(n * sizeof(float), std::size_t{1} << 30)).c_str(),
        link.one_way, link.both_ways);
  }
  std::printf("\n");
}

// ---- one process per GPU -----------------------------------------------------------------------

// --processes: the same work in one process per GPU (ranks.cuh); rank 0's answer is held to
// `check`, which returns "" or what is wrong. False when it failed.
bool run_in_processes(course::Lesson& lesson, const Options& o, const std::vector<int>& devices,
                      const std::function<std::string(const std::vector<double>&)>& check) {
  if (!o.processes) return true;
#if COURSE_HAVE_NCCL
  const std::vector<std::string> args = {
      "--work", lesson07::works().name(o.work),        "--n",    std::to_string(lesson.n()),
      "--seed", std::to_string(lesson.options().seed), "--reps", std::to_string(lesson.reps())};
  std::string error;
  const lesson07::RankReport report = lesson07::run_processes(devices, args, 300, &error);
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
  (void)devices;
  (void)check;
  std::printf("one process per GPU: skipped, built without NCCL\n\n");
  return true;
#endif
}

// --rank R/G: one rank of --processes.
int run_one_rank(course::Lesson& lesson, const Options& o, const std::vector<int>& devices) {
  int rank = -1;
  int ranks = 0;
  char tail = 0;
  if (std::sscanf(o.rank.c_str(), "%d/%d%c", &rank, &ranks, &tail) != 2 || ranks < 1 || rank < 0 ||
      rank >= ranks || devices.size() != 1 || o.work == Work::allreduce) {
    course::usage_error(lesson.cli(),
                        "--rank takes R/G with 0 <= R < G, one GPU in --devices, "
                        "and --work hist or dot");
  }
#if COURSE_HAVE_NCCL
  return lesson07::run_rank(o.work, rank, ranks, devices[0], lesson.n(), lesson.options().seed,
                            lesson.reps());
#else
  std::fprintf(stderr, "lesson07: --rank needs NCCL, and this build has none\n");
  return course::kExitBadArguments;
#endif
}

int run(course::Lesson& lesson, const Options& o) {
  const int count = lesson07::device_count();
  const std::vector<int> devices = choose_devices(lesson.cli(), o, count);
  if (!o.rank.empty()) return run_one_rank(lesson, o, devices);
  if (o.processes && o.work == Work::allreduce) {
    course::usage_error(lesson.cli(), "--processes runs --work hist or dot");
  }
  // With one GPU and no --gpus or --devices, only v0 runs, and the exit says "skipped" (77).
  const bool too_few = o.gpus == 0 && o.devices.empty() && count < 2;
  Options options = o;
  options.processes = o.processes && !too_few;
  bool processes_ok = true;
  if (o.work == Work::hist) {
    processes_ok = run_hist(lesson, options, devices, too_few);
  } else if (o.work == Work::dot) {
    processes_ok = run_dot(lesson, options, devices, too_few);
  } else {
    run_allreduce(lesson, o, devices, too_few);
  }
  lesson.write_csv(lesson07::works().name(o.work), {{"gpus", std::to_string(devices.size())},
                                                    {"size", course::size_text(lesson.n())}});
  const int status = lesson.finish(processes_ok);
  if (too_few && status == course::kExitOk) {
    std::printf(
        "lesson07: 1 GPU found; the versions that need 2 were skipped (--devices 0,0 runs "
        "them on this one)\n");
    return course::kExitNoGpu;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("07", "One answer from several GPUs: host staging, peer copies and NCCL.",
                        "elements: bytes (hist), floats per array (dot) or per GPU (allreduce)",
                        std::size_t{1} << 28);
  Options o;
  add_options(lesson.cli(), &o);
  std::vector<std::string> names;
  for (const auto& v : lesson07::version_list())
    names.push_back(v.name);
  names.push_back("ring");
  names.push_back("NCCL");
  return lesson.main(argc, argv, names, [&] { return run(lesson, o); });
}
