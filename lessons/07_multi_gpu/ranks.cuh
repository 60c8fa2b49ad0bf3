// Lesson 07's one-process-per-GPU runs: what a job on several hosts runs. Each process is one rank
// on one GPU: it makes its own share of the input (the generators are functions of the element's
// index), computes its partial with the lesson's kernel, and joins the others in one
// ncclAllReduce. Before NCCL can connect them, every rank needs rank 0's ncclUniqueId (an address
// where rank 0's NCCL listens). Three ways to start the ranks, one rank function:
//
//   lesson07 --processes         the program starts G copies of itself ("--rank r/G") and writes
//                                the id down each one's standard input (run_processes);
//   a launcher (mpirun, srun,    every rank reads its rank from the environment (--rank env) and
//   torchrun) or by hand         the id comes through a file or a TCP address (--rendezvous,
//                                bootstrap.hpp); rank 0 checks the answer against the CPU.
#pragma once

#if COURSE_HAVE_NCCL
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bootstrap.hpp"
#include "clock.cuh"
#include "gpus.cuh"
#include "kernels.cuh"
#include "nccl.cuh"
#include "reference.hpp"

extern char** environ;

namespace lesson07 {

// What a rank measured: the median time of partial + all-reduce, and the answer's values.
struct RankReport {
  double median_ms = 0;
  std::vector<double> values;  // 256 counts, or the dot product
};

// What a rank computes, and with what.
struct RankJob {
  Work work = Work::hist;
  std::size_t n = 0;
  std::uint64_t seed = 0;
  int reps = 1;
};

// ---- one rank ----------------------------------------------------------------------------------

// Rank `rank` of `ranks` on GPU `device`: makes its share of the input, joins the communicator of
// `id`, and times `reps` rounds of partial + ncclAllReduce (each after this GPU's L2 is emptied, as
// in the one-process versions). Every rank ends with the whole answer.
inline RankReport rank_rounds(const RankJob& job, int rank, int ranks, int device,
                              const ncclUniqueId& id, const std::function<void()>& joined = {}) {
  CUDA_CHECK(cudaSetDevice(device));
  Gpus gpus({device});
  const Share mine = share_of(job.n, ranks, rank);
  ncclComm_t comm = nullptr;
  NCCL_CHECK(ncclCommInitRank(&comm, ranks, id, rank));
  if (joined) joined();
  RankReport report;
  auto measure = [&](const auto& work, auto* out, int width) {
    using Value = std::remove_pointer_t<decltype(out)>;
    const cudaStream_t timer = nullptr;
    auto round = [&] {
      work.whole(out, timer);  // this rank's input is its share
      NCCL_CHECK(ncclAllReduce(out, out, static_cast<std::size_t>(width), nccl_type<Value>(),
                               ncclSum, comm, timer));
    };
    report.median_ms = course::Clock(job.reps).on(timer).time(round).median_ms;
    std::vector<Value> values(static_cast<std::size_t>(width));
    CUDA_CHECK(
        cudaMemcpy(values.data(), out, values.size() * sizeof(Value), cudaMemcpyDeviceToHost));
    report.values.assign(values.begin(), values.end());
  };
  if (job.work == Work::hist) {
    std::vector<std::uint8_t> bytes(mine.size());
    course::parallel_for(mine.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        bytes[i] = course::random_byte(job.seed, mine.begin + i);
    });
    course::DeviceBuffer<Histogram::Value> out(Histogram::kWidth);
    measure(Histogram(gpus, bytes), out.data(), Histogram::kWidth);
  } else {
    lesson03::Inputs in{std::vector<float>(mine.size()), std::vector<float>(mine.size())};
    course::parallel_for(mine.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        in.a[i] = lesson03::element(job.seed, mine.begin + i, 0, lesson03::Dist::uniform);
        in.b[i] = lesson03::element(job.seed, mine.begin + i, 1, lesson03::Dist::uniform);
      }
    });
    course::DeviceBuffer<Dot::Value> out(1);
    measure(Dot(gpus, in), out.data(), 1);
  }
  NCCL_CHECK(ncclCommDestroy(comm));
  return report;
}

// "" when rank 0's answer is the CPU's; else what is wrong. Builds the whole input on the CPU.
inline std::string check_rank_answer(const RankJob& job, int ranks,
                                     const std::vector<double>& got) {
  if (job.work == Work::hist) {
    const std::vector<std::uint8_t> bytes = course::random_bytes(job.n, job.seed);
    return histogram_mismatch(got, lesson01::histogram_cpu_threads(bytes.data(), job.n));
  }
  const lesson03::Inputs in = lesson03::make_inputs(job.n, lesson03::Dist::uniform, job.seed);
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), job.n);
  // The rank's grid is its GPU's occupancy grid, as Dot makes it.
  const std::size_t blocks = static_cast<std::size_t>(
      course::occupancy_grid(lesson03::near_bandwidth_kernel, lesson03::kBigBlock));
  const double bound =
      dot_error_bound(share_of(job.n, ranks, 0).size(), ref.magnitudes,
                      blocks * lesson03::kBigBlock, blocks, static_cast<std::size_t>(ranks), false);
  return dot_mismatch(got, ref.dot, bound);
}

// --rank r/G with no --rendezvous: a child of run_processes. Reads the id on standard input; rank
// 0 writes "ms v0 v1 ..." on standard output for its parent. Returns the exit status.
inline int run_child_rank(const RankJob& job, int rank, int ranks, int device) {
  ncclUniqueId id;
  std::size_t got = 0;
  while (got < sizeof id) {
    const ssize_t r = read(0, reinterpret_cast<char*>(&id) + got, sizeof id - got);
    if (r <= 0) {
      std::fprintf(stderr, "lesson07 rank %d: no NCCL id on standard input\n", rank);
      return 1;
    }
    got += static_cast<std::size_t>(r);
  }
  const RankReport report = rank_rounds(job, rank, ranks, device, id);
  if (rank == 0) {
    std::printf("%.6f", report.median_ms);
    for (double v : report.values)
      std::printf(" %.17g", v);
    std::printf("\n");
  }
  return 0;
}

// A rank started by a launcher or by hand: rank 0 makes the id and shares it through `where`
// (bootstrap.hpp), every rank computes, and rank 0 checks the answer and says so. Returns the exit
// status: 0, or 1 when the id did not arrive or the answer is wrong.
inline int run_launched_rank(const RankJob& job, int rank, int ranks, int device,
                             const std::string& where, const std::string& launcher,
                             int timeout_s = 120) {
  ncclUniqueId id{};
  if (rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
  std::string error;
  if (!share_bytes(where, rank, ranks, &id, sizeof id, timeout_s, &error)) {
    std::fprintf(stderr, "lesson07 rank %d of %d: %s\n", rank, ranks, error.c_str());
    return 1;
  }
  const RankReport report =
      rank_rounds(job, rank, ranks, device, id, [&] { rendezvous_done(where, rank); });
  std::printf("rank %d of %d (%s), GPU %d: partial + ncclAllReduce, median %.4f ms\n", rank, ranks,
              launcher.c_str(), device, report.median_ms);
  if (rank != 0) return 0;
  error = check_rank_answer(job, ranks, report.values);
  std::printf("rank 0: the answer of %d ranks (id shared through %s): %s\n", ranks, where.c_str(),
              error.empty() ? "ok, as the CPU's" : ("FAILED: " + error).c_str());
  return error.empty() ? 0 : 1;
}

// ---- the parent of --processes -----------------------------------------------------------------

// Starts one child per device (this program again, with --rank r/G --devices d and `args`), hands
// each the id, waits for all (stopping them after `timeout_s`: a rank that dies leaves the others
// waiting in NCCL for ever), and returns rank 0's report; "" in `error` when all went well.
inline RankReport run_processes(const std::vector<int>& devices,
                                const std::vector<std::string>& args, int timeout_s,
                                std::string* error) {
  ncclUniqueId id;
  NCCL_CHECK(ncclGetUniqueId(&id));
  const int ranks = static_cast<int>(devices.size());
  std::vector<pid_t> children;
  int rank0_output = -1;
  for (int r = 0; r < ranks; ++r) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) {
      *error = "pipe() failed";
      return {};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, in[1]);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<std::string> words = {"/proc/self/exe", "--rank", course::format("%d/%d", r, ranks),
                                      "--devices",
                                      std::to_string(devices[static_cast<std::size_t>(r)])};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words)
      argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    if (spawned != 0) {
      *error = course::format("posix_spawn failed (%d)", spawned);
      return {};
    }
    children.push_back(pid);
    if (write(in[1], &id, sizeof id) != static_cast<ssize_t>(sizeof id))
      *error = "write to a rank failed";
    close(in[1]);
    if (r == 0) {
      rank0_output = out[0];
    } else {
      close(out[0]);
    }
  }
  // Wait for every child, up to the deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  std::vector<int> status(children.size(), -1);
  std::size_t running = children.size();
  while (running > 0) {
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (status[i] != -1) continue;
      int s = 0;
      if (waitpid(children[i], &s, WNOHANG) == children[i]) {
        status[i] = WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
        --running;
      }
    }
    if (running > 0 && std::chrono::steady_clock::now() > deadline) {
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (status[i] == -1) kill(children[i], SIGKILL);
      }
      *error = course::format("the ranks did not finish in %d s and were stopped", timeout_s);
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (status[i] == -1) waitpid(children[i], nullptr, 0);
      }
      close(rank0_output);
      return {};
    }
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::string text;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(rank0_output, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  close(rank0_output);
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] != 0 && error->empty()) {
      *error = course::format("rank %zu exited with status %d", i, status[i]);
    }
  }
  RankReport report;
  std::size_t at = 0;
  std::vector<double> numbers;
  while (at < text.size()) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str() + at, &end);
    if (end == text.c_str() + at) break;
    numbers.push_back(v);
    at = static_cast<std::size_t>(end - text.c_str());
  }
  if (numbers.empty()) {
    if (error->empty()) *error = "rank 0 printed no result";
    return {};
  }
  report.median_ms = numbers[0];
  report.values.assign(numbers.begin() + 1, numbers.end());
  return report;
}

}  // namespace lesson07
#endif
