// Lesson 06: top-k on the GPU, from the seed's per-thread insertion lists and their 48 KiB wall to
// a radix select that reads the input twice. Times the CPU (the seed's insertion,
// std::partial_sort, std::nth_element and a sort), then every GPU version, CUB and Thrust on the
// same data; checks every result bit for bit against the CPU, and every index against the input;
// prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson06
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kBudgetMs = 3000.0;       // per version: stop after 3 runs when they are this slow
constexpr double kSweepStopMs = 2000.0;    // --k-sweep: a version stops after a run this slow
constexpr std::size_t kSeedCpuMaxK = 128;  // the seed's CPU insertion is O(n k) at worst

struct Options {
  course::StandardOptions common;
  std::size_t k = lesson06::kSeedK;
  std::string dist = "seed";
  std::string type = "int";
  int threads = lesson06::kSeedThreads;
  int blocks = 0;
  int cpu_reps = 3;
  bool k_sweep = false;
  std::string sweep_csv;
  std::string only;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = lesson06::kSeedN;
  course::CommandLine cli("lesson06",
                          "Top-k: the CPU, every GPU version, CUB and Thrust, on the same data.");
  course::add_standard_options(cli, &o.common, "values to select from");
  cli.number("--k", &o.k, "how many of the largest to find (1 to n)", std::size_t{1});
  cli.choice("--dist", &o.dist, lesson06::dist_names(), lesson06::dist_help());
  cli.choice("--type", &o.type, {"int", "float"}, "the values' type: 32-bit ints or floats");
  cli.number("--threads", &o.threads,
             "threads per block of v0 to v2 (a power of two; the seed's lists need threads x k x 4 "
             "bytes of shared memory)",
             32, 1024);
  cli.number("--blocks", &o.blocks,
             "blocks of v0 to v2's first launch (default 0: v0 the seed's n / threads, v1 and v2 "
             "32)",
             0, 1 << 20);
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of each CPU method", 1, 1000);
  cli.flag("--k-sweep", &o.k_sweep,
           "time v0 to v4 and CUB at k = 1 to 16384 on this input, each until its limit or a run "
           "of 2 s: the seed's curve, and where it stops");
  cli.text("--sweep-csv", &o.sweep_csv, "FILE", "also write the --k-sweep table to FILE as CSV");
  cli.text("--only", &o.only, "LIST",
           "run only these versions, by name, comma-separated: v0,v3,CUB (default: all)");
  course::parse_or_exit(cli, argc, argv);
  if (o.k > o.common.n) {
    course::usage_error(cli, course::format("--k %zu is larger than --n %zu: there are not k "
                                            "values to choose",
                                            o.k, o.common.n));
  }
  if (!lesson06::is_power_of_two(o.threads)) {
    course::usage_error(cli, "--threads must be a power of two (the seed's tree halves it)");
  }
  std::vector<std::string> known = {"Thrust", "CUB"};
  for (const auto& v : lesson06::versions<int>())
    known.push_back(v.name);
  const std::string unknown = course::VersionFilter(o.only).unknown(known);
  if (!unknown.empty()) course::usage_error(cli, "--only: no version is called " + unknown);
  return o;
}

// The device's result, read back.
template <typename T>
struct Result {
  std::vector<T> values;
  std::vector<std::size_t> indices;
};

// Reads `words` and writes nothing (unless their XOR is a value no buffer of 0x5A bytes gives):
// a pass over a buffer twice the L2's size leaves the L2 holding clean lines of it alone.
__global__ void read_all_kernel(const uint4* words, std::size_t count, unsigned* never) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned x = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    const uint4 w = words[i];
    x ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (x == 0x12345678u) *never = x;
}

// The output of a run on the GPU, poisoned before every run, and the L2 cache flushed: the input,
// 40 MB at the seed's n, would otherwise sit in the H100's 50 MB L2 from the run before, and every
// version after the first would read it from there. The flush reads twice the L2's size, so the
// L2 holds no dirty lines that the timed run would have to write back.
template <typename T>
struct Output {
  course::DeviceBuffer<T> values;
  course::DeviceBuffer<std::size_t> indices;
  course::DeviceBuffer<uint4> flush;
  course::DeviceBuffer<unsigned> never;

  Output(std::size_t k, std::size_t l2_bytes)
      : values(k), indices(k), flush(2 * l2_bytes / sizeof(uint4)), never(1) {
    flush.fill_bytes(0x5A);
  }
  void prepare() {
    values.fill_bytes(0xFF);
    indices.fill_bytes(0xFF);
    read_all_kernel<<<course::sm_count() * 8, 256>>>(flush.data(), flush.size(), never.data());
    CUDA_CHECK_LAUNCH();
  }
  Result<T> download() const { return {values.download(), indices.download()}; }
};

struct Outcome {
  course::Timing time;
  std::string mismatch;
};

// What a result must be: the course's top-k or the seed's (distinct), and the input the indices
// point into.
template <typename T>
struct Expected {
  const std::vector<T>* top_k;
  const std::vector<T>* distinct;
  const std::vector<T>* in;
};

template <typename T>
std::string check(const Result<T>& got, const Expected<T>& expected, bool distinct, bool indices,
                  bool zeros_equal) {
  return lesson06::top_k_mismatch(got.values, indices ? &got.indices : nullptr,
                                  distinct ? *expected.distinct : *expected.top_k, *expected.in,
                                  zeros_equal);
}

template <typename Prepare, typename Run, typename T>
Outcome time_and_check(Output<T>& out, Prepare&& prepare, Run&& run, int reps,
                       const Expected<T>& expected, bool distinct, bool indices,
                       bool zeros_equal = false, double budget_ms = kBudgetMs) {
  Outcome r;
  r.time = course::time_gpu(
      [&] {
        out.prepare();
        prepare();
      },
      run, reps, 2, nullptr, budget_ms);
  r.mismatch = check(out.download(), expected, distinct, indices, zeros_equal);
  return r;
}

// The largest power of two threads, at most `threads`, whose lists of k keys fit in `bytes`; 0
// when not even 32 do.
int threads_that_fit(int threads, std::size_t k, std::size_t bytes) {
  for (int t = threads; t >= 32; t /= 2) {
    if (lesson06::lists_bytes(t, k) <= bytes) return t;
  }
  return 0;
}

// --k-sweep: every version by k, on this input, until its limit or a run of 2 s.
template <typename T>
bool k_sweep(const std::vector<T>& in, const course::DeviceBuffer<T>& d_in, int reps,
             const lesson06::Launch& launch, std::size_t l2_bytes, const std::string& csv_path) {
  const std::size_t n = in.size();
  const std::size_t max_shared = course::max_shared_bytes();
  std::printf(
      "\nk-sweep: median ms by k (- : past the version's limit, or stopped after a run of 2 s);\n"
      "v0 and v2 at --threads %d, and v0* and v2* at the most threads (a power of two) whose lists "
      "fit:\nstatic 48 KiB for v0, %zu KiB opted in for v2\n",
      launch.threads, max_shared / 1024);
  const char* names[] = {"v0", "v0*", "v1", "v2", "v2*", "v3 rank", "v3 CUB", "v4", "CUB"};
  constexpr int kColumns = 9;
  std::printf("%6s", "k");
  for (const char* name : names)
    std::printf(" %12s", name);
  std::printf("\n");
  std::string csv = "k,version,threads,median_ms,check\n";
  bool on[kColumns];
  std::fill(on, on + kColumns, true);
  bool all_ok = true;
  std::vector<lesson06::Key> distinct = lesson06::keys_of(in);
  std::sort(distinct.begin(), distinct.end(), std::greater<lesson06::Key>());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  lesson06::CubTopK<T> cub(n <= lesson06::kLibraryMaxN ? n : 0);
  const std::size_t ks[] = {1,   2,   5,   10,  20,  32,   40,   48,   64,   96,
                            128, 192, 256, 384, 512, 1024, 2048, 4096, 8192, 16384};
  for (const std::size_t k : ks) {
    if (k > n) break;
    const std::vector<T> top = lesson06::reference_top_k(in, k);
    std::vector<lesson06::Key> first(distinct.begin(),
                                     distinct.begin() + std::min(k, distinct.size()));
    first.resize(k, lesson06::kLowestKey);
    const std::vector<T> top_distinct = lesson06::values_of<T>(first);
    const Expected<T> expected{&top, &top_distinct, &in};
    Output<T> out(k, l2_bytes);
    lesson06::Workspace<T> ws(n, k, launch);
    std::printf("%6zu", k);
    for (int c = 0; c < kColumns; ++c) {
      const std::string name = names[c];
      int threads = launch.threads;
      std::string why;
      std::function<void()> run;
      bool distinct_meaning = false;
      bool indices = true;
      bool zeros_equal = false;
      if (name[1] == '0' || name[1] == '1' || name[1] == '2') {  // the seed's family
        const std::size_t budget = name[1] == '2' ? max_shared : course::kDefaultSharedBytes;
        if (name.back() == '*') threads = threads_that_fit(launch.threads, k, budget);
        distinct_meaning = name[1] == '0';
        indices = false;
        const auto& v = lesson06::versions<T>()[static_cast<std::size_t>(name[1] - '0')];
        lesson06::Launch at = launch;
        at.threads = threads > 0 ? threads : 32;
        why = threads == 0 ? "no threads fit" : v.limit(n, k, at);
        run = [&, at, v] {
          ws.launch = at;
          v.run(d_in.data(), n, k, out.values.data(), out.indices.data(), ws);
        };
      } else if (name == "v3 rank" || name == "v3 CUB") {
        const auto how =
            name == "v3 rank" ? lesson06::SurvivorSort::automatic : lesson06::SurvivorSort::cub;
        why = name == "v3 rank" && k > lesson06::kRankSortMaxK ? "rank sort: k <= 4096" : "";
        run = [&, how] {
          lesson06::top_k_radix_select(d_in.data(), n, k, out.values.data(), out.indices.data(), ws,
                                       how);
        };
      } else if (name == "v4") {
        why = lesson06::v4_limit(n, k, launch);
        run = [&] {
          lesson06::top_k_v4(d_in.data(), n, k, out.values.data(), out.indices.data(), ws);
        };
      } else {
        why = n <= lesson06::kLibraryMaxN ? "" : "n >= 2^31";
        zeros_equal = true;
        run = [&] { cub(d_in.data(), k, out.values.data(), out.indices.data()); };
      }
      if (!on[c] || !why.empty()) {
        std::printf(" %12s", "-");
        continue;
      }
      const Outcome r = time_and_check(
          out, [] {}, run, reps, expected, distinct_meaning, indices, zeros_equal, kSweepStopMs);
      all_ok = all_ok && r.mismatch.empty();
      on[c] = r.time.median_ms < kSweepStopMs;
      std::printf(
          " %12s",
          (course::format("%.4f", r.time.median_ms) + (r.mismatch.empty() ? "" : "!")).c_str());
      csv += course::format("%zu,%s,%d,%.6f,%s\n", k, names[c], threads, r.time.median_ms,
                            r.mismatch.empty() ? "ok" : "FAIL");
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("every result of the sweep %s\n",
              all_ok ? "matched the CPU" : "did NOT match the CPU (marked !)");
  if (!csv_path.empty()) {
    std::ofstream file(csv_path);
    file << csv;
    if (!file) throw std::runtime_error("cannot write " + csv_path);
    std::printf("wrote %s\n", csv_path.c_str());
  }
  return all_ok;
}

template <typename T>
int run(const Options& o, const std::string& command) {
  const std::size_t n = o.common.n;
  const std::size_t k = o.k;
  const lesson06::Dist dist = lesson06::parse_dist(o.dist);
  const lesson06::Launch launch{nullptr, o.threads, o.blocks};
  const char* type = o.type.c_str();
  const std::size_t v0_grid = lesson06::v0_blocks(n, launch);
  std::printf("lesson06: the top %zu of %zu %ss, %s, seed %llu\n\n", k, n, type, o.dist.c_str(),
              static_cast<unsigned long long>(o.common.seed));
  // On the GPU: the input and its managed copy, v3's candidates (2 x 12 bytes a value), and the
  // libraries' sorted pairs and copies (about 40 bytes a value).
  course::require_memory_for("lesson06", n, 80 * n);
  const std::vector<T> in = lesson06::make_input<T>(n, dist, o.common.seed);

  // The CPU: std::nth_element and a sort (the reference), std::partial_sort, the seed's insertion.
  // The table's "vs CPU" is against the faster of the first two.
  std::vector<T> expected;
  course::Timing cpu_select;
  {
    course::NvtxRange range("CPU");
    cpu_select =
        course::time_cpu([&] { expected = lesson06::reference_top_k(in, k); }, o.cpu_reps, 1);
  }
  std::printf("CPU, std::nth_element + sort (one core):  %10.4f ms\n", cpu_select.median_ms);
  bool cpu_ok = true;
  double cpu_ms = cpu_select.median_ms;
  std::string cpu_name = "std::nth_element + sort on one core";
  {
    std::vector<T> got;
    const course::Timing t =
        course::time_cpu([&] { got = lesson06::partial_sort_top_k(in, k); }, o.cpu_reps, 1);
    const std::string wrong = lesson06::top_k_mismatch(got, nullptr, expected, in);
    cpu_ok = wrong.empty();
    std::printf("CPU, std::partial_sort (one core):        %10.4f ms %s\n", t.median_ms,
                wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
    if (t.median_ms < cpu_ms) {
      cpu_ms = t.median_ms;
      cpu_name = "std::partial_sort on one core";
    }
  }
  const course::VersionFilter only(o.only);
  const auto chosen = [&](const std::string& name) { return only.chosen(name); };
  // The seed's meaning, for v0 (a sort of every key: computed only when v0 runs).
  std::vector<T> expected_distinct;
  const bool v0_runs = chosen("v0") && lesson06::seed_limit(n, k, launch).empty();
  if (v0_runs || k <= kSeedCpuMaxK) expected_distinct = lesson06::reference_top_k_distinct(in, k);
  if (k <= kSeedCpuMaxK) {
    std::vector<T> got;
    const course::Timing t =
        course::time_cpu([&] { got = lesson06::seed_cpu_top_k(in, k); }, o.cpu_reps, 1);
    const std::string wrong = lesson06::top_k_mismatch(got, nullptr, expected_distinct, in);
    cpu_ok = cpu_ok && wrong.empty();
    std::printf("CPU, the seed's insertion list (distinct):%10.4f ms %s\n", t.median_ms,
                wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
  } else {
    std::printf("CPU, the seed's insertion list: not run past k = %zu (O(n k))\n", kSeedCpuMaxK);
  }
  std::printf("\n");

  const course::DeviceReport report = course::require_gpu_or_exit("lesson06");
  const std::size_t l2_bytes = static_cast<std::size_t>(report.props.l2CacheSize);
  const course::DeviceBuffer<T> d_in(in);
  lesson06::ManagedBuffer<T> managed_in(n);  // v0 reads the seed's kind of memory
  std::memcpy(managed_in.data(), in.data(), n * sizeof(T));
  Output<T> out(k, l2_bytes);
  lesson06::Workspace<T> ws(n, k, launch);
  const Expected<T> check_against{&expected, &expected_distinct, &in};
  std::printf("every timed run starts with the output poisoned and the %zu MiB L2 flushed\n\n",
              l2_bytes >> 20);

  const double bytes = static_cast<double>(n * sizeof(T)) +
                       static_cast<double>(k * (sizeof(T) + sizeof(std::size_t)));
  course::ResultTable table(course::format("lesson06, top %zu of %zu %ss, %s, on %s", k, n, type,
                                           o.dist.c_str(), report.props.name),
                            report.copy_gbps, cpu_ms, cpu_name);
  auto add_row = [&](const std::string& name, const std::string& idea, const Outcome& r) {
    table.add_checked(name, idea, r.time, bytes, r.mismatch);
  };
  auto add_skipped = [&](const std::string& name, const std::string& idea, const std::string& why) {
    table.add_skipped(name, idea, bytes, why);
  };

  for (const lesson06::Version<T>& v : lesson06::versions<T>()) {
    const std::string why = chosen(v.name) ? v.limit(n, k, launch) : "not in --only";
    if (!why.empty()) {
      add_skipped(v.name, v.idea, why);
      continue;
    }
    course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
    const T* source = v.distinct ? managed_in.data() : d_in.data();
    add_row(v.name, v.idea,
            time_and_check(
                out, [] {}, [&] { v.run(source, n, k, out.values.data(), out.indices.data(), ws); },
                o.common.reps, check_against, v.distinct, v.indices));
  }
  const bool zeros_equal = std::is_same<T, float>::value;
  if (n <= lesson06::kLibraryMaxN) {
    const char* cub_idea = "SortPairsDescending of all n, then the first k";
    const char* thrust_idea = "sort_by_key, greater, in place; then the first k";
    lesson06::CubTopK<T> cub(chosen("CUB") || chosen("Thrust") ? n : 0);
    if (!chosen("CUB")) {
      add_skipped("CUB", cub_idea, "not in --only");
    } else {
      course::NvtxRange range("CUB");
      add_row("CUB", cub_idea,
              time_and_check(
                  out, [] {}, [&] { cub(d_in.data(), k, out.values.data(), out.indices.data()); },
                  o.common.reps, check_against, false, true, zeros_equal));
    }
    if (!chosen("Thrust")) {
      add_skipped("Thrust", thrust_idea, "not in --only");
    } else {
      course::NvtxRange range("Thrust");
      // Thrust sorts in place: each run sorts fresh copies of the values and of 0..n-1, made
      // untimed.
      course::DeviceBuffer<T> data(n);
      course::DeviceBuffer<std::size_t> order(n);
      const auto copy_in = [&] {
        CUDA_CHECK(
            cudaMemcpyAsync(data.data(), d_in.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpyAsync(order.data(), cub.iota(), n * sizeof(std::size_t),
                                   cudaMemcpyDeviceToDevice));
      };
      add_row("Thrust", thrust_idea,
              time_and_check(
                  out, copy_in,
                  [&] {
                    lesson06::thrust_top_k(data.data(), order.data(), n, k, out.values.data(),
                                           out.indices.data());
                  },
                  o.common.reps, check_against, false, true, zeros_equal));
    }
  } else {
    add_skipped("CUB", "SortPairsDescending of all n, then the first k", "n >= 2^31");
    add_skipped("Thrust", "sort_by_key, greater, in place; then the first k", "n >= 2^31");
  }
  std::printf("%s\n", table.text().c_str());
  if (zeros_equal) {
    std::printf(
        "CUB and Thrust are checked with -0.0 == +0.0: their radix sorts read the two "
        "zeros as one key\n\n");
  }

  // The best version against the CPU, the seed's version and the libraries, from the rows above.
  const std::string best = course::best_version_line(table, cpu_ms, "the CPU");
  if (!best.empty()) std::printf("%s (data on the GPU, no host copies timed)\n", best.c_str());

  const course::TableRow* seed_row = nullptr;
  for (const course::TableRow& r : table.rows()) {
    if (r.version == "v0" && r.check == course::Check::ok) seed_row = &r;
  }
  // The seed's grid gives each thread one value: v0 on v1's 32 blocks instead, the rest unchanged.
  bool grid_ok = true;
  if (seed_row != nullptr && o.blocks == 0) {
    course::NvtxRange range("v0 on 32 blocks");
    ws.launch.blocks = lesson06::kCourseBlocks;  // v0's lists for fewer blocks fit in its buffer
    const Outcome r = time_and_check(
        out, [] {},
        [&] { lesson06::top_k_v0(managed_in.data(), n, k, out.values.data(), nullptr, ws); },
        o.common.reps, check_against, true, false);
    ws.launch = launch;
    grid_ok = r.mismatch.empty();
    std::printf(
        "v0 on %d blocks (v1's grid), the rest unchanged: %.4f ms (median of %d), %s; "
        "against %.4f ms on the seed's %zu blocks\n",
        lesson06::kCourseBlocks, r.time.median_ms, r.time.reps,
        grid_ok ? "ok" : ("FAIL: " + r.mismatch).c_str(), seed_row->time.median_ms, v0_grid);
  }
  // Managed memory: v0 with its input just written by the CPU, so every page moves on demand.
  if (seed_row != nullptr) {
    course::NvtxRange range("v0 first touch");
    const course::Timing t = course::time_gpu(
        [&] { std::memcpy(managed_in.data(), in.data(), n * sizeof(T)); },
        [&] { lesson06::top_k_v0(managed_in.data(), n, k, out.values.data(), nullptr, ws); }, 3, 0);
    std::printf(
        "v0 with its managed input just written by the CPU: %.4f ms (median of 3), "
        "against %.4f ms once the pages live on the GPU\n",
        t.median_ms, seed_row->time.median_ms);
  }

  // The whole trip: copy the input in (from pageable memory), v3, copy the k results out.
  {
    course::NvtxRange range("whole trip");
    course::DeviceBuffer<T> copy(n);
    std::vector<T> back_values(k);
    std::vector<std::size_t> back_indices(k);
    const course::Trip trip = course::time_whole_trip(
        [&] { copy.upload(in); },
        [&] {
          lesson06::top_k_v3(copy.data(), n, k, out.values.data(), out.indices.data(), ws);
          CUDA_CHECK(cudaMemcpy(back_values.data(), out.values.data(), k * sizeof(T),
                                cudaMemcpyDeviceToHost));
          CUDA_CHECK(cudaMemcpy(back_indices.data(), out.indices.data(), k * sizeof(std::size_t),
                                cudaMemcpyDeviceToHost));
        });
    std::printf("%s\n\n",
                course::whole_trip_text("v3", trip, 3, static_cast<double>(n * sizeof(T))).c_str());
  }

  course::write_table_csv(
      table, o.common.csv, "06", report, command, n, o.dist,
      {{"size", course::format("k = %zu of %s %ss", k, course::size_text(n).c_str(), type)},
       {"k", std::to_string(k)},
       {"type", o.type}});
  bool extra_ok = grid_ok;
  if (o.k_sweep) {
    extra_ok =
        extra_ok && k_sweep(in, d_in, std::min(o.common.reps, 10), launch, l2_bytes, o.sweep_csv);
  }
  return table.any_failed() || !cpu_ok || !extra_ok ? course::kExitCheckFailed : course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson06", [&] {
    const Options o = parse(argc, argv);
    const std::string command = course::command_text("lesson06", argc, argv);
    return o.type == "float" ? run<float>(o, command) : run<std::int32_t>(o, command);
  });
}
