// Lesson 07: one answer from several GPUs. Build alone, from this folder (NCCL is not in the CUDA
// Toolkit: docs/setup.md says how to get it; without -DCOURSE_HAVE_NCCL=1 its versions are
// skipped):
// clang-format off
//   nvcc -O3 -std=c++17 -arch=native -I../../common -I.. -DCOURSE_HAVE_NCCL=1 main.cu -lnccl -o lesson07
// clang-format on
// Runs the CPU reference, then every version of the chosen work on G GPUs against the one-GPU
// baseline, and checks each against the CPU:
//   --work hist       lesson 01's histogram of n bytes (exact: the same 256 counts);
//   --work dot        lesson 03's dot product of two arrays of n floats (within lesson 03's bound);
//   --work allreduce  n floats on every GPU, summed on every GPU: four hand-written rings against
//                     ncclAllReduce, with NCCL's bus bandwidth (--sweep: at every size).
// The tables are combine_runs.cuh's and allreduce_runs.cuh's; one process per GPU is ranks.cuh's.
#include <cstdio>
#include <string>
#include <vector>

#include "allreduce_runs.cuh"
#include "bootstrap.hpp"
#include "combine_runs.cuh"
#include "gpus.cuh"
#include "lesson.cuh"
#include "ranks.cuh"
#include "reference.hpp"
#include "ring.cuh"

namespace {

using lesson07::Work;

struct Options {
  Work work = Work::hist;
  int gpus = 0;
  std::string devices;
  int chunks = 4;
  bool processes = false;
  bool no_peer = false;
  bool sweep = false;
  std::string sweep_csv;
  int slices = 0;
  std::string rank;        // "R/G" or "env": this process is one rank
  std::string rendezvous;  // "file:PATH" or "tcp:HOST:PORT": how rank 0's NCCL id reaches it
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
  cli.flag("--sweep", &o->sweep, "allreduce: every version at 1 MiB, 2 MiB, ... up to --n floats");
  cli.text("--sweep-csv", &o->sweep_csv, "FILE", "also write the --sweep rows to FILE as CSV");
  cli.number("--slices", &o->slices,
             "allreduce: the most slices per chunk of the sliced rings (0: each ring's own)", 0,
             64);
  cli.text("--rank", &o->rank, "R/G|env",
           "run as one rank of G (hist or dot): R/G by hand, or env to read it from mpirun, srun "
           "or torchrun; with no --rendezvous, NCCL's id comes on standard input (--processes)");
  cli.text("--rendezvous", &o->rendezvous, "file:PATH|tcp:HOST:PORT",
           "with --rank: rank 0 shares NCCL's id through a file all ranks see, or from a port on "
           "its host");
}

// The ranks' devices from --devices or --gpus, checked against the machine before any work.
std::vector<int> choose_devices(const course::CommandLine& cli, const Options& o, int count) {
  std::vector<int> devices;
  if (!o.devices.empty()) {
    std::size_t at = 0;
    while (at <= o.devices.size()) {
      const std::size_t comma = std::min(o.devices.find(',', at), o.devices.size());
      const std::string word = o.devices.substr(at, comma - at);
      const int d = lesson07::whole_number(word.c_str(), 999);
      if (d < 0) {
        course::usage_error(
            cli, "--devices takes GPU numbers separated by commas, not '" + o.devices + "'");
      }
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

// --rank: this process is one rank. Its place comes from R/G or from a launcher's environment; its
// GPU is --devices' entry for its local rank (the only one, or one per local rank), else its local
// rank's GPU.
int run_one_rank(course::Lesson& lesson, const Options& o, int count) {
  const course::CommandLine& cli = lesson.cli();
  if (o.work == Work::allreduce) course::usage_error(cli, "--rank runs --work hist or dot");
  lesson07::RankPlace place;
  std::string error;
  char tail = 0;
  if (o.rank == "env") {
    const auto found = lesson07::rank_from_environment(&error);
    if (!found) {
      course::usage_error(cli, error.empty() ? "--rank env: no launcher's variables (RANK and "
                                               "WORLD_SIZE, OMPI_COMM_WORLD_*, PMI_*, SLURM_*)"
                                             : error);
    }
    place = *found;
    if (o.rendezvous.empty()) course::usage_error(cli, "--rank env needs --rendezvous");
  } else if (std::sscanf(o.rank.c_str(), "%d/%d%c", &place.rank, &place.size, &tail) != 2 ||
             place.size < 1 || place.rank < 0 || place.rank >= place.size) {
    course::usage_error(cli, "--rank takes R/G with 0 <= R < G, or env");
  } else {
    place.local_rank = place.rank;
    place.launcher = "by hand";
  }
  if (!o.rendezvous.empty() && !lesson07::is_rendezvous(o.rendezvous)) {
    course::usage_error(
        cli, "--rendezvous takes file:PATH or tcp:HOST:PORT, not '" + o.rendezvous + "'");
  }
  const std::vector<int> listed =
      o.devices.empty() ? std::vector<int>{} : choose_devices(cli, o, count);
  if (listed.size() > 1 && place.local_rank >= static_cast<int>(listed.size())) {
    course::usage_error(cli, course::format("--devices lists %zu GPUs, but this is local rank %d",
                                            listed.size(), place.local_rank));
  }
  if (count == 0) {
    std::fprintf(stderr, "lesson07: no CUDA GPU found; a rank needs one\n");
    return course::kExitNoGpu;
  }
  const int device = listed.size() == 1 ? listed[0]
                     : listed.empty()   ? place.local_rank % count
                                        : listed[static_cast<std::size_t>(place.local_rank)];
#if COURSE_HAVE_NCCL
  const lesson07::RankJob job{o.work, lesson.n(), lesson.options().seed, lesson.reps()};
  if (o.rendezvous.empty()) return lesson07::run_child_rank(job, place.rank, place.size, device);
  return lesson07::run_launched_rank(job, place.rank, place.size, device, o.rendezvous,
                                     place.launcher);
#else
  (void)lesson;
  (void)device;
  std::fprintf(stderr, "lesson07: --rank needs NCCL, and this build has none\n");
  return course::kExitBadArguments;
#endif
}

int run(course::Lesson& lesson, const Options& o) {
  const int count = lesson07::device_count();
  if (!o.rank.empty()) return run_one_rank(lesson, o, count);
  if (!o.rendezvous.empty()) course::usage_error(lesson.cli(), "--rendezvous needs --rank");
  const std::vector<int> devices = choose_devices(lesson.cli(), o, count);
  if (o.processes && o.work == Work::allreduce) {
    course::usage_error(lesson.cli(), "--processes runs --work hist or dot");
  }
  if ((o.sweep || !o.sweep_csv.empty()) && o.work != Work::allreduce) {
    course::usage_error(lesson.cli(), "--sweep runs --work allreduce");
  }
  if (!o.sweep_csv.empty()) {
    course::require_writable(lesson.cli(), "--sweep-csv", o.sweep_csv);
    lesson.require_gpu_for("--sweep-csv");
  }
  // With one GPU and no --gpus or --devices, only v0 runs, and the exit says "skipped" (77).
  const bool too_few = o.gpus == 0 && o.devices.empty() && count < 2;
  const lesson07::CombineRun combine{o.chunks, o.processes && !too_few, !o.no_peer, too_few};
  bool ok = true;
  if (o.work == Work::hist) {
    ok = lesson07::run_hist(lesson, combine, devices);
  } else if (o.work == Work::dot) {
    ok = lesson07::run_dot(lesson, combine, devices);
  } else {
    ok = lesson07::run_allreduce(lesson, devices,
                                 {!o.no_peer, too_few, o.slices, o.sweep, o.sweep_csv});
  }
  lesson.write_csv(lesson07::works().name(o.work), {{"gpus", std::to_string(devices.size())},
                                                    {"size", course::size_text(lesson.n())}});
  const int status = lesson.finish(ok);
  if (too_few && status == course::kExitOk) {
    std::fprintf(stderr,
                 "lesson07: 1 GPU found; the versions that need 2 were skipped (--devices 0,0 "
                 "runs them on this one)\n");
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
  for (const auto& p : lesson07::ring_plans())
    names.push_back(p.name);
  names.push_back("NCCL");
  return lesson.main(argc, argv, names, [&] { return run(lesson, o); });
}
