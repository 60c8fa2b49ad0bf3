// Lesson 05: sorting floats on the GPU, from the source's one-block odd-even transposition sort
// through bitonic networks to a merge sort cut by merge path, faster than CUB's comparison sort.
// Runs std::sort and the source's host odd-even sort, then every GPU version, thrust::sort and CUB
// on the same data; checks every result bit for bit against std::sort in IEEE 754 totalOrder, and
// prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson05
#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

struct Options {
  lesson05::Dist dist = lesson05::Dist::perm;
  int threads = lesson05::kSourceThreads;
  bool source_compare = false;
  bool sweep = false;
  std::size_t sweep_max = std::size_t{1} << 22;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--dist", &o->dist, lesson05::dists());
  cli.number("--threads", &o->threads,
             "threads per block of v0 to v3 (a multiple of 32); the segment of v2 and v3 is "
             "twice this",
             32, 1024);
  cli.flag("--source-compare", &o->source_compare,
           "run v0 with the source's comparison (a < b) on the zeros and special inputs, and count "
           "the elements it leaves out of place")
      .old_name("--seed-compare", "--source-compare");
  cli.flag("--sweep", &o->sweep,
           "time the host odd-even sort, v0, v1, v3, v8 and CUB at n = 2^10, 2^11, ... up to "
           "--sweep-max, each until a run takes 2 s; set v3 against the exercise-3 estimate");
  cli.number("--sweep-max", &o->sweep_max, "the largest n of --sweep", std::size_t{1024},
             std::size_t{1} << 30);
}

// The CPU: std::sort in totalOrder (the reference), and the source's host odd-even sort. Returns
// the reference's result; on `*ok`, whether the source's sort and check agree with it.
std::vector<float> run_cpu(course::Lesson& lesson, const std::vector<float>& in,
                           lesson05::Dist dist, bool* ok) {
  const std::size_t n = in.size();
  std::vector<float> expected;
  course::NvtxRange range("CPU");
  const course::Timing sort =
      course::time_cpu([&] { expected = lesson05::reference_sort(in); }, lesson.cpu_reps(), 1);
  std::printf("CPU, std::sort (one core, totalOrder): %10.4f ms\n", sort.median_ms);
  *ok = true;
  if (n <= lesson05::kHostOddEvenMaxN) {
    std::vector<float> copy;
    const course::Timing t =
        course::time_cpu([&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); },
                         n <= 4096 ? lesson.cpu_reps() : 1, n <= 4096 ? 1 : 0);
    const std::string mismatch = lesson05::sort_mismatch(copy.data(), expected);
    *ok = mismatch.empty();
    std::printf("CPU, the source's odd-even sort:       %10.4f ms (%.1fx std::sort's time) %s\n",
                t.median_ms, t.median_ms / sort.median_ms,
                *ok ? "ok" : ("FAIL: " + mismatch).c_str());
  } else {
    std::printf(
        "CPU, the source's odd-even sort: not run past n = %s here (quadratic: see --sweep; "
        "lesson05_cpu runs it up to %s)\n",
        course::size_text(lesson05::kHostOddEvenMaxN).c_str(),
        course::size_text(lesson05::kCpuProgramOddEvenMaxN).c_str());
  }
  if (dist == lesson05::Dist::perm && n <= (std::size_t{1} << 24)) {
    std::printf("the source's check, c[k] == k: %s\n",
                lesson05::source_check(expected.data(), n) ? "ok" : "FAIL");
  }
  std::printf("\n");
  lesson.set_cpu(sort.median_ms, "std::sort on one core");
  return expected;
}

// The libraries, checked with -0.0 == +0.0 (their radix sorts read the two zeros as one key).
// thrust::sort sorts in place: each run sorts a fresh copy of the input, made untimed.
template <typename Check>
void add_libraries(std::vector<course::Version>& versions, const course::DeviceBuffer<float>& d_in,
                   course::DeviceBuffer<float>& d_out, lesson05::CubSort& cub,
                   lesson05::CubMergeSort& merge, Check check) {
  const std::size_t n = d_in.size();
  const std::string library_limit = n <= lesson05::kLibraryMaxN ? "" : "n >= 2^31";
  const char* zeros_note = "checked with -0.0 == +0.0, the order of its radix sort";
  versions.push_back(
      course::as(course::Kind::library, {"Thrust",
                                         "thrust::sort (in place; allocates scratch)",
                                         library_limit,
                                         [&, n] { lesson05::thrust_sort(d_out.data(), n); },
                                         check(true),
                                         [&, n] {
                                           CUDA_CHECK(cudaMemcpyAsync(d_out.data(), d_in.data(),
                                                                      n * sizeof(float),
                                                                      cudaMemcpyDeviceToDevice));
                                         },
                                         {},
                                         0,
                                         zeros_note}));
  versions.push_back(
      course::as(course::Kind::library,
                 {"CUB-merge", "DeviceMergeSort::SortKeysCopy (comparisons), scratch kept",
                  library_limit, [&] { merge(d_in.data(), d_out.data()); }, check(false)}));
  versions.push_back(course::as(course::Kind::library, {"CUB",
                                                        "DeviceRadixSort::SortKeys, scratch kept",
                                                        library_limit,
                                                        [&, n] { cub(d_in.data(), d_out.data()); },
                                                        check(true),
                                                        {},
                                                        {},
                                                        0,
                                                        zeros_note}));
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::string dist = lesson05::dists().name(o.dist);
  // The input, the reference's result and a result read back, on the host; on the GPU, in, out,
  // and the scratch of CUB's two sorts and of v9 (about n floats each).
  lesson.begin(course::format("sorting %zu floats, %s", n, dist.c_str()), 5 * n * sizeof(float),
               3 * n * sizeof(float));
  const std::vector<float> in = lesson05::make_input(n, o.dist, lesson.options().seed);
  bool cpu_ok = false;
  const std::vector<float> expected = run_cpu(lesson, in, o.dist, &cpu_ok);

  const course::DeviceReport& report = lesson.gpu();
  // v9's scratch, allocated once here as CUB-merge keeps its own.
  course::DeviceBuffer<unsigned char> v9_scratch(lesson05::v9_scratch_bytes(n));
  const lesson05::Launch launch{nullptr, o.threads, v9_scratch.data(), v9_scratch.size()};
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> d_out(n);
  lesson.poison([&] { d_out.fill_bytes(0xFF); });
  const auto check = [&](bool zeros_equal) {
    return [&, zeros_equal] {
      return lesson05::sort_mismatch(d_out.download().data(), expected, zeros_equal);
    };
  };
  std::vector<course::Version> versions;
  for (const lesson05::Version& v : lesson05::versions()) {
    versions.push_back(course::as(
        v.kind, {v.name, v.idea, v.limit(n, launch),
                 [&, v] { v.run(d_in.data(), d_out.data(), n, launch); }, check(false)}));
  }
  lesson05::CubSort cub(n <= lesson05::kLibraryMaxN && lesson.chosen("CUB") ? n : 0);
  lesson05::CubMergeSort merge(n <= lesson05::kLibraryMaxN && lesson.chosen("CUB-merge") ? n : 0);
  add_libraries(versions, d_in, d_out, cub, merge, check);
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  lesson.run_versions(
      course::format("lesson05, n = %zu floats, %s, on %s", n, dist.c_str(), report.props.name),
      bytes, versions);

  // The whole trip: copy the input in (from pageable memory), v8, copy the result out.
  course::DeviceBuffer<float> copy(n);
  std::vector<float> back(n);
  lesson.whole_trip(
      "v8", bytes / 2, [&] { copy.upload(in); },
      [&] {
        lesson05::sort_v8(copy.data(), d_out.data(), n, launch);
        back = d_out.download();
      });
  lesson.write_csv(dist, {{"size", course::size_text(n) + " floats"}});
  bool extra_ok = true;
  if (o.source_compare)
    extra_ok = lesson05::source_compare(n, lesson.options().seed, launch) && extra_ok;
  if (o.sweep) extra_ok = lesson05::sweep(lesson, o.sweep_max, launch) && extra_ok;
  return lesson.finish(cpu_ok && extra_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("05",
                        "Sorting floats: std::sort, the source's host odd-even sort, every GPU "
                        "version, thrust::sort and CUB, on the same data.",
                        "floats to sort", lesson05::kSourceN,
                        std::numeric_limits<std::size_t>::max(), 5);
  Options o;
  add_options(lesson.cli(), &o);
  const std::vector<std::string> names =
      course::names_of(lesson05::versions(), {"Thrust", "CUB-merge", "CUB"});
  return lesson.main(argc, argv, names, [&] {
    if (o.threads % 32 != 0)
      course::usage_error(lesson.cli(), "--threads must be a multiple of 32");
    return run(lesson, o);
  });
}
