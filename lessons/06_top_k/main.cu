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

constexpr double kSweepStopMs = 2000.0;    // --k-sweep: a version stops after a run this slow
constexpr std::size_t kSeedCpuMaxK = 128;  // the seed's CPU insertion is O(n k) at worst

struct Options {
  std::size_t k = lesson06::kSeedK;
  lesson06::Dist dist = lesson06::Dist::seed;
  std::string type = "int";
  int threads = lesson06::kSeedThreads;
  int blocks = 0;
  bool k_sweep = false;
  std::string sweep_csv;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.number("--k", &o->k, "how many of the largest to find (1 to n)", std::size_t{1});
  cli.choice("--dist", &o->dist, lesson06::dists());
  cli.choice("--type", &o->type, {"int", "float"}, "the values' type: 32-bit ints or floats");
  cli.number("--threads", &o->threads,
             "threads per block of v0 to v2 (a power of two; the seed's lists need threads x k x 4 "
             "bytes of shared memory)",
             32, 1024);
  cli.number("--blocks", &o->blocks,
             "blocks of v0 to v2's first launch (default 0: v0 the seed's n / threads, v1 and v2 "
             "32)",
             0, 1 << 20);
  cli.flag("--k-sweep", &o->k_sweep,
           "time v0 to v4 and CUB at k = 1 to 16384 on this input, each until its limit or a run "
           "of 2 s: the seed's curve, and where it stops");
  cli.text("--sweep-csv", &o->sweep_csv, "FILE", "also write the --k-sweep table to FILE as CSV");
}

// The output of a run on the GPU, and the device's result read back.
template <typename T>
struct Result {
  std::vector<T> values;
  std::vector<std::size_t> indices;
};

template <typename T>
struct Output {
  course::DeviceBuffer<T> values;
  course::DeviceBuffer<std::size_t> indices;

  explicit Output(std::size_t k) : values(k), indices(k) {}
  void poison() {
    values.fill_bytes(0xFF);
    indices.fill_bytes(0xFF);
  }
  Result<T> download() const { return {values.download(), indices.download()}; }
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

// The CPU: std::nth_element and a sort (the reference), std::partial_sort, and the seed's
// insertion (its distinct meaning, also computed when `need_distinct`). The table's "vs CPU" is
// against the faster of the first two. Returns the reference's result.
template <typename T>
std::vector<T> run_cpu(course::Lesson& lesson, const std::vector<T>& in, std::size_t k,
                       bool need_distinct, std::vector<T>* distinct, bool* ok) {
  const int reps = lesson.cpu_reps();
  std::vector<T> expected;
  course::NvtxRange range("CPU");
  const course::Timing select =
      course::time_cpu([&] { expected = lesson06::reference_top_k(in, k); }, reps, 1);
  std::printf("CPU, std::nth_element + sort (one core):  %10.4f ms\n", select.median_ms);
  std::vector<T> got;
  const course::Timing partial =
      course::time_cpu([&] { got = lesson06::partial_sort_top_k(in, k); }, reps, 1);
  std::string wrong = lesson06::top_k_mismatch(got, nullptr, expected, in);
  *ok = wrong.empty();
  std::printf("CPU, std::partial_sort (one core):        %10.4f ms %s\n", partial.median_ms,
              wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
  if (need_distinct || k <= kSeedCpuMaxK) *distinct = lesson06::reference_top_k_distinct(in, k);
  if (k <= kSeedCpuMaxK) {
    const course::Timing t =
        course::time_cpu([&] { got = lesson06::seed_cpu_top_k(in, k); }, reps, 1);
    wrong = lesson06::top_k_mismatch(got, nullptr, *distinct, in);
    *ok = *ok && wrong.empty();
    std::printf("CPU, the seed's insertion list (distinct):%10.4f ms %s\n", t.median_ms,
                wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
  } else {
    std::printf("CPU, the seed's insertion list: not run past k = %zu (O(n k))\n", kSeedCpuMaxK);
  }
  std::printf("\n");
  if (partial.median_ms < select.median_ms) {
    lesson.set_cpu(partial.median_ms, "std::partial_sort on one core");
  } else {
    lesson.set_cpu(select.median_ms, "std::nth_element + sort on one core");
  }
  return expected;
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
bool k_sweep(course::Lesson& lesson, const std::vector<T>& in, const course::DeviceBuffer<T>& d_in,
             const lesson06::Launch& launch, const std::string& csv_path) {
  const int reps = std::min(lesson.reps(), 10);
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
    Output<T> out(k);
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
      const course::Outcome r = lesson.time({names[c], "", "", run,
                                             [&, distinct_meaning, indices, zeros_equal] {
                                               return check(out.download(), expected,
                                                            distinct_meaning, indices, zeros_equal);
                                             },
                                             [&] { out.poison(); }},
                                            kSweepStopMs, reps);
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

// v0 on v1's 32 blocks instead of the seed's grid of one thread per value, the rest unchanged;
// then v0 with its managed input just written by the CPU, so every page moves on demand. Returns
// whether the first was right.
template <typename T>
bool v0_grid_and_first_touch(course::Lesson& lesson, const std::vector<T>& in, std::size_t k,
                             T* managed_in, Output<T>& out, lesson06::Workspace<T>& ws,
                             const Expected<T>& expected, bool seed_grid) {
  const course::TableRow* v0 = nullptr;
  for (const course::TableRow& r : lesson.table().rows()) {
    if (r.version == "v0" && r.check == course::Check::ok) v0 = &r;
  }
  if (v0 == nullptr) return true;
  const std::size_t n = in.size();
  const auto run_v0 = [&] { lesson06::top_k_v0(managed_in, n, k, out.values.data(), nullptr, ws); };
  bool ok = true;
  if (seed_grid) {
    const lesson06::Launch launch = ws.launch;
    const std::size_t seed_blocks = lesson06::v0_blocks(n, launch);
    ws.launch.blocks = lesson06::kCourseBlocks;  // v0's lists for fewer blocks fit in its buffer
    const course::Outcome r =
        lesson.time({"v0 on 32 blocks", "", "", run_v0,
                     [&] { return check(out.download(), expected, true, false, false); }});
    ws.launch = launch;
    ok = r.mismatch.empty();
    std::printf(
        "v0 on %d blocks (v1's grid), the rest unchanged: %.4f ms (median of %d), %s; "
        "against %.4f ms on the seed's %zu blocks\n",
        lesson06::kCourseBlocks, r.time.median_ms, r.time.reps,
        ok ? "ok" : ("FAIL: " + r.mismatch).c_str(), v0->time.median_ms, seed_blocks);
  }
  course::NvtxRange range("v0 first touch");
  const course::Timing t =
      course::time_gpu([&] { std::memcpy(managed_in, in.data(), n * sizeof(T)); }, run_v0, 3, 0);
  std::printf(
      "v0 with its managed input just written by the CPU: %.4f ms (median of 3), "
      "against %.4f ms once the pages live on the GPU\n",
      t.median_ms, v0->time.median_ms);
  return ok;
}

template <typename T>
int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::size_t k = o.k;
  const std::string dist = lesson06::dists().name(o.dist);
  const char* type = o.type.c_str();
  const lesson06::Launch launch{nullptr, o.threads, o.blocks};
  // On the GPU: the input and its managed copy, v3's candidates (2 x 12 bytes a value), and the
  // libraries' sorted pairs and copies (about 40 bytes a value).
  lesson.begin(course::format("the top %zu of %zu %ss, %s", k, n, type, dist.c_str()), 80 * n);
  const std::vector<T> in = lesson06::make_input<T>(n, o.dist, lesson.options().seed);
  // The seed's meaning, for v0 (a sort of every key: computed only when v0 runs).
  const bool v0_runs = lesson.chosen("v0") && lesson06::seed_limit(n, k, launch).empty();
  std::vector<T> expected_distinct;
  bool cpu_ok = false;
  const std::vector<T> expected = run_cpu(lesson, in, k, v0_runs, &expected_distinct, &cpu_ok);

  const course::DeviceReport& report = lesson.gpu();
  const course::DeviceBuffer<T> d_in(in);
  lesson06::ManagedBuffer<T> managed_in(n);  // v0 reads the seed's kind of memory
  std::memcpy(managed_in.data(), in.data(), n * sizeof(T));
  Output<T> out(k);
  lesson06::Workspace<T> ws(n, k, launch);
  lesson.poison([&] { out.poison(); });
  const Expected<T> against{&expected, &expected_distinct, &in};
  const auto checked = [&](bool distinct, bool indices, bool zeros_equal) {
    return [&, distinct, indices, zeros_equal] {
      return check(out.download(), against, distinct, indices, zeros_equal);
    };
  };
  std::vector<course::Version> versions;
  for (const lesson06::Version<T>& v : lesson06::versions<T>()) {
    const T* source = v.distinct ? managed_in.data() : d_in.data();
    versions.push_back(
        {v.name, v.idea, v.limit(n, k, launch),
         [&, v, source] { v.run(source, n, k, out.values.data(), out.indices.data(), ws); },
         checked(v.distinct, v.indices, false)});
  }
  // The libraries: CUB and Thrust sort all n pairs. Their radix sorts read -0.0 and +0.0 as one
  // key, so floats are checked with the two zeros equal.
  const bool zeros_equal = std::is_same<T, float>::value;
  const std::string library_limit = n <= lesson06::kLibraryMaxN ? "" : "n >= 2^31";
  const bool libraries = library_limit.empty() && (lesson.chosen("CUB") || lesson.chosen("Thrust"));
  lesson06::CubTopK<T> cub(libraries ? n : 0);
  versions.push_back({"CUB", "SortPairsDescending of all n, then the first k", library_limit,
                      [&] { cub(d_in.data(), k, out.values.data(), out.indices.data()); },
                      checked(false, true, zeros_equal)});
  // Thrust sorts in place: each run sorts fresh copies of the values and of 0..n-1, made untimed.
  course::DeviceBuffer<T> data(libraries && lesson.chosen("Thrust") ? n : 0);
  course::DeviceBuffer<std::size_t> order(data.size());
  versions.push_back({"Thrust", "sort_by_key, greater, in place; then the first k", library_limit,
                      [&] {
                        lesson06::thrust_top_k(data.data(), order.data(), n, k, out.values.data(),
                                               out.indices.data());
                      },
                      checked(false, true, zeros_equal),
                      [&] {
                        CUDA_CHECK(cudaMemcpyAsync(data.data(), d_in.data(), n * sizeof(T),
                                                   cudaMemcpyDeviceToDevice));
                        CUDA_CHECK(cudaMemcpyAsync(order.data(), cub.iota(),
                                                   n * sizeof(std::size_t),
                                                   cudaMemcpyDeviceToDevice));
                      }});
  lesson.run_versions(course::format("lesson06, top %zu of %zu %ss, %s, on %s", k, n, type,
                                     dist.c_str(), report.props.name),
                      static_cast<double>(n * sizeof(T)) +
                          static_cast<double>(k * (sizeof(T) + sizeof(std::size_t))),
                      versions);
  if (zeros_equal) {
    std::printf(
        "CUB and Thrust are checked with -0.0 == +0.0: their radix sorts read the two "
        "zeros as one key\n\n");
  }
  const bool grid_ok =
      v0_grid_and_first_touch(lesson, in, k, managed_in.data(), out, ws, against, o.blocks == 0);

  // The whole trip: copy the input in (from pageable memory), v3, copy the k results out.
  course::DeviceBuffer<T> copy(n);
  std::vector<T> back_values(k);
  std::vector<std::size_t> back_indices(k);
  lesson.whole_trip(
      "v3", static_cast<double>(n * sizeof(T)), [&] { copy.upload(in); },
      [&] {
        lesson06::top_k_v3(copy.data(), n, k, out.values.data(), out.indices.data(), ws);
        CUDA_CHECK(cudaMemcpy(back_values.data(), out.values.data(), k * sizeof(T),
                              cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(back_indices.data(), out.indices.data(), k * sizeof(std::size_t),
                              cudaMemcpyDeviceToHost));
      });
  lesson.write_csv(
      dist, {{"size", course::format("k = %zu of %s %ss", k, course::size_text(n).c_str(), type)},
             {"k", std::to_string(k)},
             {"type", o.type}});
  const bool sweep_ok = !o.k_sweep || k_sweep(lesson, in, d_in, launch, o.sweep_csv);
  return lesson.finish(cpu_ok && grid_ok && sweep_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("06",
                        "Top-k: the CPU, every GPU version, CUB and Thrust, on the same data.",
                        "values to select from", lesson06::kSeedN);
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(
      argc, argv, course::names_of(lesson06::versions<int>(), {"CUB", "Thrust"}), [&] {
        if (o.k > lesson.n()) {
          course::usage_error(lesson.cli(),
                              course::format("--k %zu is larger than --n %zu: there are not k "
                                             "values to choose",
                                             o.k, lesson.n()));
        }
        if (!lesson06::is_power_of_two(o.threads)) {
          course::usage_error(lesson.cli(),
                              "--threads must be a power of two (the seed's tree "
                              "halves it)");
        }
        course::require_writable(lesson.cli(), "--sweep-csv", o.sweep_csv);
        return o.type == "float" ? run<float>(lesson, o) : run<std::int32_t>(lesson, o);
      });
}
