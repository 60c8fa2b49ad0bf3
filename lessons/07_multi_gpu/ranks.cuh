// Lesson 07's one-process-per-GPU version: what a job on several nodes runs. `lesson07 --processes`
// starts G copies of itself, one per GPU, each told its rank ("--rank 1/4"). The parent gets a
// ncclUniqueId (an address where rank 0's NCCL listens) and writes its bytes down each child's
// standard input: that pipe is the whole bootstrap. Each child makes its own share of the input
// (the generators are functions of the element's index), computes its partial with the lesson's
// kernel, and joins the others in one ncclAllReduce. Rank 0 prints the result and its time on its
// standard output, which the parent reads and checks. Under mpirun or a job scheduler the same
// child code runs on many nodes; only the way the id reaches the ranks changes (MPI_Bcast, a
// shared file), and NCCL picks the network instead of NVLink between nodes.
#pragma once

#if COURSE_HAVE_NCCL
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "gpus.cuh"
#include "kernels.cuh"
#include "nccl.cuh"
#include "reference.hpp"

extern char** environ;

namespace lesson07 {

// What rank 0 reports: the median time of partial + all-reduce, and the answer's values.
struct RankReport {
  double median_ms = 0;
  std::vector<double> values;  // 256 counts, or the dot product
};

// ---- the child: one rank ------------------------------------------------------------------------

// Reads the id from standard input, makes its share of the input (hist or dot), and runs `reps`
// timed rounds of partial + ncclAllReduce on GPU `device`. Rank 0 writes "ms v0 v1 ..." to standard
// output. Returns the exit status.
inline int run_rank(Work work, int rank, int ranks, int device, std::size_t n, std::uint64_t seed,
                    int reps) {
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
  CUDA_CHECK(cudaSetDevice(device));
  Gpus gpus({device});
  const Share mine = share_of(n, ranks, rank);
  ncclComm_t comm = nullptr;
  NCCL_CHECK(ncclCommInitRank(&comm, ranks, id, rank));

  auto report = [&](const auto& work, auto* out, int width) {
    const cudaStream_t timer = nullptr;
    auto round = [&] {
      work.whole(out, timer);  // this rank's input is its share
      NCCL_CHECK(ncclAllReduce(out, out, static_cast<std::size_t>(width),
                               nccl_type<std::remove_pointer_t<decltype(out)>>(), ncclSum, comm,
                               timer));
    };
    // As in the one-process versions, each timed round starts with this GPU's L2 emptied.
    course::L2Flush l2(course::l2_bytes());
    const course::Timing t = course::time_gpu([&] { l2.flush(timer); }, round, reps);
    std::vector<std::remove_pointer_t<decltype(out)>> values(static_cast<std::size_t>(width));
    CUDA_CHECK(
        cudaMemcpy(values.data(), out, values.size() * sizeof values[0], cudaMemcpyDeviceToHost));
    if (rank == 0) {
      std::printf("%.6f", t.median_ms);
      for (auto v : values)
        std::printf(" %.17g", static_cast<double>(v));
      std::printf("\n");
    }
  };
  if (work == Work::hist) {
    std::vector<std::uint8_t> bytes(mine.size());
    course::parallel_for(mine.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        bytes[i] = course::random_byte(seed, mine.begin + i);
    });
    course::DeviceBuffer<Histogram::Value> out(Histogram::kWidth);
    report(Histogram(gpus, bytes), out.data(), Histogram::kWidth);
  } else {
    lesson03::Inputs in{std::vector<float>(mine.size()), std::vector<float>(mine.size())};
    course::parallel_for(mine.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        in.a[i] = lesson03::element(seed, mine.begin + i, 0, lesson03::Dist::uniform);
        in.b[i] = lesson03::element(seed, mine.begin + i, 1, lesson03::Dist::uniform);
      }
    });
    course::DeviceBuffer<Dot::Value> out(1);
    report(Dot(gpus, in), out.data(), 1);
  }
  NCCL_CHECK(ncclCommDestroy(comm));
  return 0;
}

// ---- the parent ---------------------------------------------------------------------------------

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
