// Lesson 06: top-k on the GPU, from the source's per-thread insertion lists and their 48 KiB wall
// to a radix select that reads the input twice, and one that reads it once past a sampled
// threshold. Times the CPU (the source's insertion, std::partial_sort, std::nth_element and a
// sort), then every GPU version, CUB and Thrust on the same data; checks every result bit for bit
// against the CPU, and every index against the input; prints the table. Build alone, from this
// folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common -I.. main.cu -o lesson06
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr std::size_t kSourceCpuMaxK = 128;  // the source's CPU insertion is O(n k) at worst

struct Options {
  std::size_t k = lesson06::kSourceK;
  lesson06::Dist dist = lesson06::Dist::source;
  std::string type = "int";
  int threads = lesson06::kSourceThreads;
  int blocks = 0;
  bool k_sweep = false;
  std::string sweep_csv;
};

void add_options(course::CommandLine& cli, Options* o) {
  // From 0, so that range_error names n's value for a k of 0 as for one past n.
  cli.number("--k", &o->k, "how many of the largest to find (1 to n)", std::size_t{0});
  cli.choice("--dist", &o->dist, lesson06::dists());
  cli.choice("--type", &o->type, {"int", "float"}, "the values' type: 32-bit ints or floats");
  cli.number(
      "--threads", &o->threads,
      "threads per block of v0 to v2 (a power of two; the source's lists need threads x k x 4 "
      "bytes of shared memory)",
      32, 1024);
  cli.number("--blocks", &o->blocks,
             "blocks of v0 to v2's first launch (default 0: v0 the source's n / threads, v1 and v2 "
             "32)",
             0, 1 << 20);
  cli.flag("--k-sweep", &o->k_sweep,
           "time v0 to v4 and CUB at k = 1 to 16384 on this input, each until its limit or a run "
           "of 2 s: the source's curve, and where it stops");
  cli.text("--sweep-csv", &o->sweep_csv, "FILE", "also write the --k-sweep table to FILE as CSV");
}

// The CPU: std::nth_element and a sort (the reference), std::partial_sort, and the source's
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
  std::printf("CPU, std::nth_element + sort (one core):    %10.4f ms\n", select.median_ms);
  std::vector<T> got;
  const course::Timing partial =
      course::time_cpu([&] { got = lesson06::partial_sort_top_k(in, k); }, reps, 1);
  std::string wrong = lesson06::top_k_mismatch(got, nullptr, expected, in);
  *ok = wrong.empty();
  std::printf("CPU, std::partial_sort (one core):          %10.4f ms %s\n", partial.median_ms,
              wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
  if (need_distinct || k <= kSourceCpuMaxK) *distinct = lesson06::reference_top_k_distinct(in, k);
  if (k <= kSourceCpuMaxK) {
    const course::Timing t =
        course::time_cpu([&] { got = lesson06::source_cpu_top_k(in, k); }, reps, 1);
    wrong = lesson06::top_k_mismatch(got, nullptr, *distinct, in);
    *ok = *ok && wrong.empty();
    std::printf("CPU, the source's insertion list (distinct):%10.4f ms %s\n", t.median_ms,
                wrong.empty() ? "ok" : ("FAIL: " + wrong).c_str());
  } else {
    std::printf("CPU, the source's insertion list: not run past k = %zu (O(n k))\n",
                kSourceCpuMaxK);
  }
  std::printf("\n");
  if (partial.median_ms < select.median_ms) {
    lesson.set_cpu(partial.median_ms, "std::partial_sort on one core");
  } else {
    lesson.set_cpu(select.median_ms, "std::nth_element + sort on one core");
  }
  return expected;
}

// The whole trip: copy the input in (from pageable memory), v3, copy the k results out.
template <typename T>
void whole_trip_v3(course::Lesson& lesson, const std::vector<T>& in, lesson06::Output<T>& out,
                   lesson06::Workspace<T>& ws) {
  const std::size_t n = in.size();
  const std::size_t k = out.values.size();
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
  // The source's meaning, for v0 (a sort of every key: computed only when v0 runs).
  const bool v0_runs = lesson.chosen("v0") && lesson06::source_limit(n, k, launch).empty();
  std::vector<T> expected_distinct;
  bool cpu_ok = false;
  const std::vector<T> expected = run_cpu(lesson, in, k, v0_runs, &expected_distinct, &cpu_ok);

  const course::DeviceReport& report = lesson.gpu();
  const course::DeviceBuffer<T> d_in(in);
  course::DeviceBuffer<T> managed_in(
      n, course::Memory::managed);  // v0 reads the source's kind of memory
  std::memcpy(managed_in.data(), in.data(), n * sizeof(T));
  lesson06::Output<T> out(k);
  lesson06::Workspace<T> ws(n, k, launch);
  lesson.poison([&] { out.poison(); });
  const lesson06::Expected<T> against{&expected, &expected_distinct, &in};
  const auto checked = [&](lesson06::CheckAs as) {
    return [&, as] { return lesson06::check(out.download(), against, as); };
  };
  std::vector<course::Version> versions;
  for (const lesson06::Version<T>& v : lesson06::versions<T>()) {
    const T* source = v.distinct ? managed_in.data() : d_in.data();
    versions.push_back(course::as(
        v.kind, {v.name, v.idea, v.limit(n, k, launch),
                 [&, v, source] { v.run(source, n, k, out.values.data(), out.indices.data(), ws); },
                 checked({v.distinct, v.indices, false})}));
  }
  lesson06::Libraries<T> libraries(lesson, n);
  libraries.add_to(versions, d_in.data(), n, k, out, checked);
  lesson.run_versions(course::format("lesson06, top %zu of %zu %ss, %s, on %s", k, n, type,
                                     dist.c_str(), report.props.name),
                      static_cast<double>(n * sizeof(T)) +
                          static_cast<double>(k * (sizeof(T) + sizeof(std::size_t))),
                      versions);
  if (std::is_same<T, float>::value) {
    std::printf(
        "CUB and Thrust are checked with -0.0 == +0.0: their radix sorts read the two "
        "zeros as one key\n\n");
  }
  lesson06::print_filter_report(lesson, n, k, ws.select);
  const bool grid_ok = lesson06::v0_grid_and_first_touch(lesson, in, k, managed_in.data(), out, ws,
                                                         against, o.blocks == 0);

  whole_trip_v3(lesson, in, out, ws);
  lesson.write_csv(
      dist, {{"size", course::format("k = %zu of %s %ss", k, course::size_text(n).c_str(), type)},
             {"k", std::to_string(k)},
             {"type", o.type}});
  const bool sweep_ok = !o.k_sweep || lesson06::k_sweep(lesson, in, d_in, launch, o.sweep_csv);
  return lesson.finish(cpu_ok && grid_ok && sweep_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("06",
                        "Top-k: the CPU, every GPU version, CUB and Thrust, on the same data.",
                        "values to select from", lesson06::kSourceN);
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(
      argc, argv, course::names_of(lesson06::versions<int>(), {"CUB-topk", "CUB", "Thrust"}), [&] {
        const std::string bad_k = course::range_error("--k", o.k, 1, "n", lesson.n());
        if (!bad_k.empty()) course::usage_error(lesson.cli(), bad_k);
        if (!lesson06::is_power_of_two(o.threads)) {
          course::usage_error(lesson.cli(),
                              "--threads must be a power of two (the source's tree "
                              "halves it)");
        }
        course::require_writable(lesson.cli(), "--sweep-csv", o.sweep_csv);
        if (!o.sweep_csv.empty()) lesson.require_gpu_for("--sweep-csv");
        return o.type == "float" ? run<float>(lesson, o) : run<std::int32_t>(lesson, o);
      });
}
