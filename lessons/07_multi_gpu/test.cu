// Lesson 07's tests. [cpu]: the shares, the rank-order combine, the bandwidth formulas and the
// inputs. [gpu]: every version but NCCL's, with several ranks sharing the one GPU (a GPU may be
// named more than once), against the CPU at awkward sizes: 1 element, fewer elements than ranks
// (empty shares), sizes no rank count divides. [gpu][multi]: on 2 GPUs or more, every version
// with NCCL's, more than 2^31 elements in all, and one process per GPU.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <thread>

#include "allreduce.cuh"
#include "bootstrap.hpp"
#include "gpus.cuh"
#include "kernels.cuh"
#include "reference.hpp"
#include "ring.cuh"
#include "testing.hpp"

namespace {

using course::test::seed;
using lesson07::Gpus;
using lesson07::share_of;

// Runs every version that `gpus` allows into `out` (on rank 0's GPU) and hands each result to
// check(name, values).
template <typename Work, typename Check>
void each_version(Gpus& gpus, const Work& work, Check check, int chunks = 3) {
  using Value = typename Work::Value;
#if COURSE_HAVE_NCCL
  std::unique_ptr<lesson07::Communicators> comms;
  if (gpus.distinct() && gpus.ranks() > 1) comms = std::make_unique<lesson07::Communicators>(gpus);
  lesson07::Combiner<Work> combiner(gpus, work, chunks, comms.get());
#else
  lesson07::Combiner<Work> combiner(gpus, work, chunks, nullptr);
#endif
  lesson07::OnDevice on(gpus.device(0));
  course::DeviceBuffer<Value> out(Work::kWidth);
  auto run = [&](const char* name, auto&& version) {
    for (int round = 0; round < 2; ++round) {  // twice: nothing may be left over from a run
      out.fill_bytes(0xFF);
      version(out.data(), nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      gpus.synchronize();
      INFO(name << ", round " << round);
      check(name, out.download());
    }
  };
  run("v0", [&](Value* o, cudaStream_t t) { combiner.one_gpu(o, t); });
  run("v1", [&](Value* o, cudaStream_t t) { combiner.host_staged(o, t); });
  run("v2", [&](Value* o, cudaStream_t t) { combiner.peer_pull(o, t); });
#if COURSE_HAVE_NCCL
  if (combiner.has_nccl()) {
    run("v3", [&](Value* o, cudaStream_t t) { combiner.nccl_reduce(o, t); });
    run("v4", [&](Value* o, cudaStream_t t) { combiner.overlapped(o, t); });
  }
#endif
}

void check_histograms(Gpus& gpus, std::size_t n) {
  const std::vector<std::uint8_t> bytes = course::random_bytes(n, seed());
  const lesson01::Histogram expected = lesson01::histogram_cpu_threads(bytes.data(), n);
  const lesson07::Histogram work(gpus, bytes);
  each_version(gpus, work, [&](const char*, const std::vector<unsigned long long>& got) {
    REQUIRE(course::test::mismatch(got, expected) == "");
  });
}

void check_dots(Gpus& gpus, std::size_t n, lesson03::Dist dist) {
  const lesson03::Inputs in = lesson03::make_inputs(n, dist, seed());
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  const lesson07::Dot work(gpus, in);
  const int chunks = 3;
  const std::size_t largest = share_of(n, gpus.ranks(), 0).size();
  const bool whole = dist == lesson03::Dist::integers;
  // The loosest of the versions' bounds (main.cu holds each version to its own).
  const double bound = std::max(
      lesson07::dot_error_bound(n, ref.magnitudes, work.threads(0), work.blocks(0), 0, whole),
      lesson07::dot_error_bound(largest, ref.magnitudes, work.threads(0), work.blocks(0),
                                static_cast<std::size_t>(gpus.ranks() + chunks), whole));
  std::set<std::uint32_t> fixed_order;  // v1's and v2's bits
  each_version(
      gpus, work,
      [&](const char* name, const std::vector<float>& got) {
        CAPTURE(got[0], ref.dot, bound);
        REQUIRE(lesson03::dot_ok(got[0], ref.dot, bound));
        if (std::string(name) == "v1" || std::string(name) == "v2") {
          fixed_order.insert(course::bits_of(got[0]));
        }
      },
      chunks);
  // v1 and v2 add the same partials in rank order: identical bits, on every run.
  REQUIRE(fixed_order.size() == 1);
}

// Every ring plan (and NCCL's all-reduce, where it can run) sums `n` floats per rank exactly.
// With `least` (the smallest slice, in bytes) below kMinSliceBytes, small vectors are cut into
// slices too, as the large ones of the timed runs are.
void check_all_reduce(Gpus& gpus, std::size_t n, std::size_t least = 4) {
  const std::vector<float> expected = lesson07::allreduce_expected(n, gpus.ranks(), seed());
  lesson07::Vectors vectors(gpus, n, seed());
  lesson07::OnDevice on(gpus.device(0));
  for (const lesson07::RingPlan& plan : lesson07::ring_plans()) {
    if (!lesson07::Ring::limit(plan, gpus).empty()) continue;
    lesson07::Ring ring(gpus, n, plan, least);
    for (int round = 0; round < 2; ++round) {
      vectors.restore(gpus);
      gpus.join(nullptr);
      ring.all_reduce(gpus, vectors.pointers(), nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      gpus.synchronize();
      INFO(plan.name << ", round " << round);
      REQUIRE(vectors.mismatch(gpus, expected) == "");
    }
  }
#if COURSE_HAVE_NCCL
  if (gpus.distinct() && gpus.ranks() > 1) {
    lesson07::Communicators comms(gpus);
    vectors.restore(gpus);
    gpus.join(nullptr);
    lesson07::nccl_all_reduce(gpus, comms, vectors.pointers(), n, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    gpus.synchronize();
    INFO("ncclAllReduce");
    REQUIRE(vectors.mismatch(gpus, expected) == "");
  }
#endif
}

// A path in the temporary folder that no other test process uses.
std::string temp_path(const std::string& stem) {
  static int made = 0;
  return (std::filesystem::temp_directory_path() /
          (stem + "_" + std::to_string(getpid()) + "_" + std::to_string(made++)))
      .string();
}

// "tcp:127.0.0.1:P" with a port P that was free a moment ago (the system's pick).
std::string free_tcp_address() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof at;
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0);
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&at), &size) == 0);
  close(fd);
  return "tcp:127.0.0.1:" + std::to_string(ntohs(at.sin_port));
}

std::vector<int> first_gpus(int count) {
  std::vector<int> d;
  for (int i = 0; i < count; ++i)
    d.push_back(i);
  return d;
}

}  // namespace

// ---- the CPU ------------------------------------------------------------------------------------

TEST_CASE("shares cover n in order, differ by at most one, and may be empty", "[cpu]") {
  const std::size_t n = GENERATE(0u, 1u, 2u, 3u, 7u, 1000003u);
  const int parts = GENERATE(1, 2, 3, 4, 8);
  CAPTURE(n, parts);
  std::size_t next = 0;
  std::size_t smallest = n;
  std::size_t largest = 0;
  for (int g = 0; g < parts; ++g) {
    const lesson07::Share s = share_of(n, parts, g);
    REQUIRE(s.begin == next);
    REQUIRE(s.end >= s.begin);
    next = s.end;
    smallest = std::min(smallest, s.size());
    largest = std::max(largest, s.size());
  }
  REQUIRE(next == n);
  REQUIRE(largest - smallest <= 1);
  REQUIRE(share_of(n, parts, 0).size() == (n + parts - 1) / parts);  // the largest comes first
  if (n < static_cast<std::size_t>(parts)) REQUIRE(share_of(n, parts, parts - 1).size() == 0);
}

TEST_CASE("share_of refuses a share that does not exist", "[cpu]") {
  REQUIRE_THROWS(share_of(10, 0, 0));
  REQUIRE_THROWS(share_of(10, 2, 2));
  REQUIRE_THROWS(share_of(10, 2, -1));
}

TEST_CASE("partials are added in rank order, which fixes a float sum's bits", "[cpu]") {
  // 2^24 + 1 + 1: in order, each 1 is lost to rounding; 1 + 1 first would survive.
  const std::vector<float> partials = {16777216.0f, 1.0f, 1.0f};
  REQUIRE(lesson07::combine_in_rank_order(partials, 3)[0] == 16777216.0f);
  const std::vector<float> other_order = {1.0f, 1.0f, 16777216.0f};
  REQUIRE(lesson07::combine_in_rank_order(other_order, 3)[0] == 16777218.0f);
  const std::vector<unsigned long long> counts = {1, 2, 10, 20, 100, 200};
  REQUIRE(lesson07::combine_in_rank_order(counts, 3) == std::vector<unsigned long long>{111, 222});
  REQUIRE_THROWS(lesson07::combine_in_rank_order(counts, 4));
}

TEST_CASE("bus bandwidth is algorithm bandwidth times 2(G-1)/G, as nccl-tests define it", "[cpu]") {
  const double bytes = 1e9;
  REQUIRE(lesson07::algbw_gbps(bytes, 10.0) == course::test::Approx(100.0));
  REQUIRE(lesson07::busbw_gbps(bytes, 10.0, 2) == course::test::Approx(100.0));
  REQUIRE(lesson07::busbw_gbps(bytes, 10.0, 4) == course::test::Approx(150.0));
  REQUIRE(lesson07::busbw_gbps(bytes, 10.0, 8) == course::test::Approx(175.0));
  REQUIRE(lesson07::efficiency(8.0, 2.5, 4) == course::test::Approx(0.8));
}

TEST_CASE("the ring's chunk order, run on the CPU, leaves every rank with the sum, both ways round",
          "[cpu]") {
  // Each rank starts with its own value in every chunk; the steps move and add chunks as the ring
  // does (reduce-scatter: pull the left's chunk and add; all-gather: pull it and keep it).
  const int g = GENERATE(1, 2, 3, 4, 5, 8);
  const int direction = GENERATE(0, 1);
  CAPTURE(g, direction);
  std::vector<std::vector<long>> chunk(static_cast<std::size_t>(g),
                                       std::vector<long>(static_cast<std::size_t>(g)));
  long total = 0;
  for (int r = 0; r < g; ++r) {
    for (int c = 0; c < g; ++c)
      chunk[r][c] = 1L << (2 * r);
    total += 1L << (2 * r);
  }
  for (int step = 0; step < 2 * (g - 1); ++step) {
    const auto before = chunk;  // every rank pulls what its neighbour held after the last step
    std::set<int> chunks_this_step;
    for (int r = 0; r < g; ++r) {
      const int left = direction == 0 ? (r + g - 1) % g : (r + 1) % g;
      const int c = lesson07::ring_chunk(r, g, step, direction);
      REQUIRE(lesson07::ring_chunk(left, g, step, direction) != c);  // never the same chunk
      chunks_this_step.insert(c);
      if (step < g - 1) {
        // the left neighbour finished this chunk's partial sum in the step before
        if (step > 0) REQUIRE(lesson07::ring_chunk(left, g, step - 1, direction) == c);
        chunk[r][c] = before[r][c] + before[left][c];
      } else {
        chunk[r][c] = before[left][c];
      }
    }
    REQUIRE(chunks_this_step.size() == static_cast<std::size_t>(g));  // every link carries one
  }
  for (int r = 0; r < g; ++r) {
    for (int c = 0; c < g; ++c) {
      CAPTURE(r, c);
      REQUIRE(chunk[r][c] == total);
    }
  }
}

TEST_CASE("a ring's chunk is cut into slices of at least the least size, at most the plan's",
          "[cpu]") {
  // counts in floats: kMinSliceBytes / 4 floats make one slice of the least size
  const std::size_t least = lesson07::kMinSliceBytes / sizeof(float);
  REQUIRE(lesson07::slices_for(0, 8) == 1);
  REQUIRE(lesson07::slices_for(least, 8) == 1);
  REQUIRE(lesson07::slices_for(2 * least - 1, 8) == 1);
  REQUIRE(lesson07::slices_for(2 * least, 8) == 2);
  REQUIRE(lesson07::slices_for(64 * least, 8) == 8);
  REQUIRE(lesson07::slices_for(64 * least, 1) == 1);
  REQUIRE(lesson07::slices_for(5, 8, 4) == 5);
  const auto& plans = lesson07::ring_plans();
  REQUIRE(plans.front().slices == 1);  // the textbook ring moves whole chunks
  for (const auto& p : plans) {
    CAPTURE(p.name);
    REQUIRE((p.directions == 1 || p.directions == 2));
    REQUIRE(p.slices >= 1);
  }
}

TEST_CASE("a rank reads its place from mpirun's, srun's or torchrun's variables", "[cpu]") {
  std::map<std::string, std::string> env;
  auto get = [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  std::string error;
  REQUIRE_FALSE(lesson07::rank_from_environment(get, &error).has_value());
  REQUIRE(error.empty());
  env = {{"OMPI_COMM_WORLD_RANK", "3"},
         {"OMPI_COMM_WORLD_SIZE", "8"},
         {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}};
  auto p = lesson07::rank_from_environment(get, &error);
  REQUIRE(p.has_value());
  REQUIRE((p->rank == 3 && p->size == 8 && p->local_rank == 1 && p->launcher == "Open MPI"));
  env = {{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}, {"SLURM_LOCALID", "1"}};
  p = lesson07::rank_from_environment(get, &error);
  REQUIRE((p.has_value() && p->rank == 5 && p->local_rank == 1 && p->launcher == "Slurm"));
  env = {{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}};  // no local rank: the rank stands in
  p = lesson07::rank_from_environment(get, &error);
  REQUIRE((p.has_value() && p->local_rank == 2 && p->launcher == "MPICH"));
  // torchrun's names come first: a job started by torchrun under srun is torchrun's.
  env = {{"RANK", "1"},
         {"WORLD_SIZE", "2"},
         {"LOCAL_RANK", "1"},
         {"SLURM_PROCID", "0"},
         {"SLURM_NTASKS", "1"}};
  p = lesson07::rank_from_environment(get, &error);
  REQUIRE((p.has_value() && p->rank == 1 && p->launcher == "torchrun"));
  for (const auto& [rank, size] : std::vector<std::pair<std::string, std::string>>{
           {"2", "2"}, {"-1", "2"}, {"x", "2"}, {"0", "0"}, {"1", ""}}) {
    env = {{"RANK", rank}, {"WORLD_SIZE", size}};
    error.clear();
    CAPTURE(rank, size);
    REQUIRE_FALSE(lesson07::rank_from_environment(get, &error).has_value());
    REQUIRE(error.find("RANK") != std::string::npos);
  }
}

TEST_CASE(
    "rank 0's id reaches every rank through a file or a TCP port, and a late rank 0 is "
    "waited for",
    "[cpu]") {
  const int ranks = 4;
  const std::string file = "file:" + temp_path("lesson07_id");
  for (const std::string& where : {file, free_tcp_address()}) {
    CAPTURE(where);
    REQUIRE(lesson07::is_rendezvous(where));
    std::vector<std::array<unsigned char, 128>> got(ranks);
    std::vector<int> ok(ranks, 0);
    std::vector<std::string> errors(ranks);
    std::vector<std::thread> threads;
    for (int r = ranks - 1; r >= 0; --r) {  // rank 0 starts last
      threads.emplace_back([&, r] {
        if (r == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          for (int i = 0; i < 128; ++i)
            got[0][static_cast<std::size_t>(i)] = static_cast<unsigned char>(i * 7 + 1);
        }
        ok[r] = lesson07::share_bytes(where, r, ranks, got[r].data(), 128, 10, &errors[r]);
      });
    }
    for (std::thread& t : threads)
      t.join();
    for (int r = 0; r < ranks; ++r) {
      CAPTURE(r, errors[r]);
      REQUIRE(ok[r]);
      REQUIRE(got[r] == got[0]);
    }
    REQUIRE(got[0][5] == 36);
    lesson07::rendezvous_done(where, 0);
    if (where == file) REQUIRE(access(file.substr(5).c_str(), F_OK) != 0);  // removed for the next
  }
}

TEST_CASE("a rendezvous that never comes, or is not one, fails in one line", "[cpu]") {
  std::string error;
  unsigned char id[128] = {};
  const std::string path = temp_path("lesson07_never");
  REQUIRE_FALSE(lesson07::share_bytes("file:" + path, 1, 2, id, sizeof id, 1, &error));
  REQUIRE(error.find("within 1 s") != std::string::npos);
  error.clear();
  REQUIRE_FALSE(lesson07::share_bytes(free_tcp_address(), 1, 2, id, sizeof id, 1, &error));
  REQUIRE(error.find("within 1 s") != std::string::npos);
  error.clear();
  REQUIRE_FALSE(lesson07::share_bytes(free_tcp_address(), 0, 2, id, sizeof id, 1, &error));
  REQUIRE(error.find("0 of 1 ranks connected") != std::string::npos);
  for (const char* bad : {"", "file:", "tcp:host", "tcp::80", "tcp:h:0", "tcp:h:99999", "ftp:x"}) {
    CAPTURE(bad);
    REQUIRE_FALSE(lesson07::is_rendezvous(bad));
  }
  // A file left by a run that failed is refused by rank 0, not read by the others as a new id.
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("old", f);
    std::fclose(f);
  }
  error.clear();
  REQUIRE_FALSE(lesson07::share_bytes("file:" + path, 0, 2, id, sizeof id, 1, &error));
  REQUIRE(error.find("exists") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("the all-reduce's inputs are small whole numbers, not all zero, and their sum exact",
          "[cpu]") {
  const std::size_t n = 4097;
  std::set<float> seen;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = lesson07::allreduce_element(seed(), 1, i);
    REQUIRE(x == static_cast<float>(static_cast<int>(x)));
    REQUIRE(std::fabs(x) <= 8.0f);
    seen.insert(x);
  }
  REQUIRE(seen.size() == 17);
  const std::vector<float> sum = lesson07::allreduce_expected(n, 3, seed());
  for (std::size_t i = 0; i < n; i += 97) {
    REQUIRE(sum[i] == lesson07::allreduce_element(seed(), 0, i) +
                          lesson07::allreduce_element(seed(), 1, i) +
                          lesson07::allreduce_element(seed(), 2, i));
  }
}

TEST_CASE("a rank can make its own share of the bytes: random_byte(i) is random_bytes' byte i",
          "[cpu]") {
  const std::vector<std::uint8_t> all = course::random_bytes(1001, seed());
  for (std::size_t i = 0; i < all.size(); ++i)
    REQUIRE(course::random_byte(seed(), i) == all[i]);
}

// ---- ranks sharing one GPU ---------------------------------------------------------------------

TEST_CASE("every version counts bytes exactly, with ranks sharing a GPU", "[gpu]") {
  const int ranks = GENERATE(1, 2, 3);
  const std::size_t n = GENERATE(1u, 2u, 31u, 4097u, 1000003u);
  CAPTURE(ranks, n);
  Gpus gpus(std::vector<int>(static_cast<std::size_t>(ranks), 0));
  check_histograms(gpus, n);
}

TEST_CASE("every version's dot product is within lesson 03's bound, v1 and v2 bit for bit alike",
          "[gpu]") {
  const int ranks = GENERATE(2, 3);
  const std::size_t n = GENERATE(1u, 2u, 4097u, 1000003u);
  const lesson03::Dist dist = GENERATE(lesson03::Dist::uniform, lesson03::Dist::integers);
  CAPTURE(ranks, n, static_cast<int>(dist));
  Gpus gpus(std::vector<int>(static_cast<std::size_t>(ranks), 0));
  check_dots(gpus, n, dist);
}

TEST_CASE("the hand-written ring all-reduce sums exactly, with ranks sharing a GPU", "[gpu]") {
  const int ranks = GENERATE(1, 2, 3, 4);
  const std::size_t n = GENERATE(1u, 3u, 5u, 4097u, 1000003u);
  CAPTURE(ranks, n);
  Gpus gpus(std::vector<int>(static_cast<std::size_t>(ranks), 0));
  check_all_reduce(gpus, n);
}

TEST_CASE("without peer access, v2 falls back to v1's host staging and still counts exactly",
          "[gpu]") {
  // lesson07 --no-peer: as on a machine whose GPUs cannot read each other's memory.
  Gpus gpus({0, 0}, false);
  REQUIRE_FALSE(gpus.all_peers());
  REQUIRE_FALSE(gpus.peer(0, 1));
  REQUIRE(gpus.peer(1, 1));
  REQUIRE(gpus.report().find("--no-peer") != std::string::npos);
  check_histograms(gpus, 1000003);
  check_dots(gpus, 4097, lesson03::Dist::uniform);
}

// ---- several GPUs -------------------------------------------------------------------------------

TEST_CASE("on several GPUs every version, NCCL's too, counts bytes exactly", "[gpu][multi]") {
  const std::size_t n = GENERATE(1u, 3u, 4097u, 1000003u);
  CAPTURE(n);
  Gpus gpus(first_gpus(lesson07::device_count()));
  check_histograms(gpus, n);
}

TEST_CASE("on two GPUs, more than 2^31 bytes in all are counted exactly", "[gpu][multi]") {
  Gpus gpus(first_gpus(2));
  check_histograms(gpus, (std::size_t{1} << 31) + 7);
}

TEST_CASE("on several GPUs every version's dot product is within its bound", "[gpu][multi]") {
  const std::size_t n = GENERATE(1u, 3u, 1000003u);
  CAPTURE(n);
  Gpus gpus(first_gpus(lesson07::device_count()));
  check_dots(gpus, n, lesson03::Dist::uniform);
  check_dots(gpus, n, lesson03::Dist::integers);
}

TEST_CASE("on two GPUs, a dot product of more than 2^31 elements is within its bound",
          "[gpu][multi]") {
  Gpus gpus(first_gpus(2));
  check_dots(gpus, (std::size_t{1} << 31) + 3, lesson03::Dist::uniform);
}

TEST_CASE("on several GPUs the ring and NCCL's all-reduce sum exactly", "[gpu][multi]") {
  const std::size_t n = GENERATE(1u, 5u, 1000003u);
  CAPTURE(n);
  Gpus gpus(first_gpus(lesson07::device_count()));
  check_all_reduce(gpus, n);
}

TEST_CASE("on several GPUs without peer access, every version and the ring are still exact",
          "[gpu][multi]") {
  Gpus gpus(first_gpus(lesson07::device_count()), false);
  REQUIRE_FALSE(gpus.all_peers());
  check_histograms(gpus, 1000003);
  check_dots(gpus, 1000003, lesson03::Dist::uniform);
  check_all_reduce(gpus, 1000003);
}
