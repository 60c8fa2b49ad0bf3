// Lesson 05: sorting floats on the GPU, from the seed's one-block odd-even transposition sort to a
// bitonic sort within reach of the radix sort under thrust::sort. Runs std::sort and the seed's
// host odd-even sort, then every GPU version, thrust::sort and CUB on the same data; checks every
// result bit for bit against std::sort in IEEE 754 totalOrder, and prints the table. Build alone,
// from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson05
#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kSweepStopMs = 2000.0;  // --sweep: a version stops after its first run this slow
constexpr std::size_t kHostOddEvenMaxN = std::size_t{1} << 16;  // about 2 s on one core

struct Options {
  lesson05::Dist dist = lesson05::Dist::perm;
  int threads = lesson05::kSeedThreads;
  bool seed_compare = false;
  bool sweep = false;
  std::size_t sweep_max = std::size_t{1} << 22;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--dist", &o->dist, lesson05::dists());
  cli.number("--threads", &o->threads,
             "threads per block of v0 to v3 (a multiple of 32); the segment of v2 and v3 is "
             "twice this",
             32, 1024);
  cli.flag("--seed-compare", &o->seed_compare,
           "run v0 with the seed's comparison (a < b) on the zeros and special inputs, and count "
           "the elements it leaves out of place");
  cli.flag("--sweep", &o->sweep,
           "time the host odd-even sort, v0, v1, v3, v8 and CUB at n = 2^10, 2^11, ... up to "
           "--sweep-max, each until a run takes 2 s; set v3 against the exercise-3 estimate");
  cli.number("--sweep-max", &o->sweep_max, "the largest n of --sweep", std::size_t{1024},
             std::size_t{1} << 30);
}

// The CPU: std::sort in totalOrder (the reference), and the seed's host odd-even sort. Returns
// the reference's result; on `*ok`, whether the seed's sort and check agree with it.
std::vector<float> run_cpu(course::Lesson& lesson, const std::vector<float>& in,
                           lesson05::Dist dist, bool* ok) {
  const std::size_t n = in.size();
  std::vector<float> expected;
  course::NvtxRange range("CPU");
  const course::Timing sort =
      course::time_cpu([&] { expected = lesson05::reference_sort(in); }, lesson.cpu_reps(), 1);
  std::printf("CPU, std::sort (one core, totalOrder): %10.4f ms\n", sort.median_ms);
  *ok = true;
  if (n <= kHostOddEvenMaxN) {
    std::vector<float> copy;
    const course::Timing t =
        course::time_cpu([&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); },
                         n <= 4096 ? lesson.cpu_reps() : 1, n <= 4096 ? 1 : 0);
    const std::string mismatch = lesson05::sort_mismatch(copy.data(), expected);
    *ok = mismatch.empty();
    std::printf("CPU, the seed's odd-even sort:         %10.4f ms (%.1fx std::sort's time) %s\n",
                t.median_ms, t.median_ms / sort.median_ms,
                *ok ? "ok" : ("FAIL: " + mismatch).c_str());
  } else {
    std::printf("CPU, the seed's odd-even sort: not run past n = 2^16 (quadratic: see --sweep)\n");
  }
  if (dist == lesson05::Dist::perm && n <= (std::size_t{1} << 24)) {
    std::printf("the seed's check, c[k] == k: %s\n",
                lesson05::seed_check(expected.data(), n) ? "ok" : "FAIL");
  }
  std::printf("\n");
  lesson.set_cpu(sort.median_ms, "std::sort on one core");
  return expected;
}

// v0 with the seed's comparison, against v0 with totalOrder, on the two inputs where they differ.
bool seed_compare(std::size_t n, std::uint64_t seed, const lesson05::Launch& launch) {
  if (!lesson05::v0_limit(n, launch).empty()) n = lesson05::kSeedN;
  std::printf("\nthe seed's comparison: v0 on %zu floats, with a < b and with totalOrder\n", n);
  std::printf("%-8s %-44s %s\n", "input", "seed's a < b", "totalOrder");
  bool ok = true;
  for (lesson05::Dist dist : {lesson05::Dist::zeros, lesson05::Dist::special}) {
    const std::vector<float> in = lesson05::make_input(n, dist, seed);
    const std::vector<float> expected = lesson05::reference_sort(in);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> d_out(n);
    d_out.fill_bytes(0xFF);
    lesson05::odd_even_shared(d_in.data(), d_out.data(), n, launch, lesson05::SeedLess{});
    const std::vector<float> seed_result = d_out.download();
    d_out.fill_bytes(0xFF);
    lesson05::odd_even_shared(d_in.data(), d_out.data(), n, launch, lesson05::TotalOrder{});
    const std::vector<float> total_result = d_out.download();
    std::size_t seed_wrong = 0;
    std::size_t seed_wrong_by_value = 0;  // also wrong when -0.0 and +0.0 count as equal
    std::size_t total_wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      seed_wrong += course::bits_of<float>(seed_result[i]) != course::bits_of<float>(expected[i]);
      seed_wrong_by_value += lesson05::compared_bits(seed_result[i], true) !=
                             lesson05::compared_bits(expected[i], true);
      total_wrong += course::bits_of<float>(total_result[i]) != course::bits_of<float>(expected[i]);
    }
    ok = ok && total_wrong == 0;
    std::printf(
        "%-8s %-44s %s\n", lesson05::dists().name(dist).c_str(),
        course::format("%zu out of place (%zu with -0.0 == +0.0)", seed_wrong, seed_wrong_by_value)
            .c_str(),
        course::format("%zu out of place", total_wrong).c_str());
  }
  return ok;
}

// Exercise 3 and the quadratic curve: the odd-even versions, v8 and CUB, by n, on uniform floats.
bool sweep(course::Lesson& lesson, std::size_t max_n, const lesson05::Launch& launch) {
  const std::uint64_t seed = lesson.options().seed;
  const int reps = lesson.reps();
  const int sms = course::sm_count();
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  const std::size_t segment_bytes = segment * sizeof(float);
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, lesson05::odd_even_segment_kernel<true>, launch.threads, segment_bytes));
  const std::size_t resident = static_cast<std::size_t>(per_sm) * sms;
  // One launch of one full wave: every resident block sorts one segment.
  double wave_ms = 0;
  {
    const std::size_t n = resident * segment;
    const course::DeviceBuffer<float> d_in(
        lesson05::make_input(n, lesson05::Dist::uniform, seed + 1));
    course::DeviceBuffer<float> d_out(n);
    wave_ms = course::time_gpu(
                  [&] {
                    lesson05::odd_even_segment_kernel<true>
                        <<<static_cast<unsigned>(resident), launch.threads, segment_bytes>>>(
                            d_in.data(), d_out.data(), n, 0);
                    CUDA_CHECK_LAUNCH();
                  },
                  reps)
                  .median_ms;
  }
  std::printf(
      "\nsweep: median ms by n (uniform floats; - : not run, past its limit or after a run of "
      "2 s)\nexercise 3: v3 makes 2 launches per segment of %zu; a launch runs in "
      "ceil(segments / %zu) waves\n(%d SMs x %d blocks of %d threads), and one wave takes %.4f "
      "ms, so v3 should take\n2 x segments x waves x %.4f ms\n",
      segment, resident, sms, per_sm, launch.threads, wave_ms, wave_ms);
  std::printf("%10s %12s %12s %12s %12s %12s %9s %12s %12s\n", "n", "host odd-ev", "v0", "v1", "v3",
              "v3 estimate", "est/meas", "v8", "CUB");
  bool all_ok = true;
  bool host_on = true;
  bool on[3] = {true, true, true};  // v0, v1, v3
  const lesson05::Run odd_even[3] = {lesson05::sort_v0, lesson05::sort_v1, lesson05::sort_v3};
  const lesson05::Version* versions[3] = {&lesson05::versions()[0], &lesson05::versions()[1],
                                          &lesson05::versions()[3]};
  for (std::size_t n = 1024; n <= max_n; n *= 2) {
    const std::vector<float> in = lesson05::make_input(n, lesson05::Dist::uniform, seed);
    const std::vector<float> expected = lesson05::reference_sort(in);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> d_out(n);
    // A run into d_out, poisoned first, checked against std::sort; stopped after a run of 2 s.
    const auto time_sort = [&](std::function<void()> sort, bool zeros_equal) {
      return lesson.time({"", "", "", std::move(sort),
                          [&, zeros_equal] {
                            return lesson05::sort_mismatch(d_out.download().data(), expected,
                                                           zeros_equal);
                          },
                          [&] { d_out.fill_bytes(0xFF); }},
                         kSweepStopMs);
    };
    auto cell = [](double ms) { return course::format("%12.4f", ms); };
    const std::string dash = course::format("%12s", "-");
    std::string line = course::format("%10s", course::size_text(n).c_str());
    if (host_on && n <= kHostOddEvenMaxN) {
      std::vector<float> copy;
      const course::Timing t = course::time_cpu(
          [&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); }, 1, 0);
      all_ok = all_ok && lesson05::sort_mismatch(copy.data(), expected).empty();
      host_on = t.median_ms < kSweepStopMs;
      line += cell(t.median_ms);
    } else {
      line += dash;
    }
    double v3_ms = 0;
    for (int i = 0; i < 3; ++i) {
      if (on[i] && versions[i]->limit(n, launch).empty()) {
        const course::Outcome r =
            time_sort([&] { odd_even[i](d_in.data(), d_out.data(), n, launch); }, false);
        all_ok = all_ok && r.mismatch.empty();
        on[i] = r.time.median_ms < kSweepStopMs;
        line += cell(r.time.median_ms);
        if (i == 2) v3_ms = r.time.median_ms;
      } else {
        on[i] = false;
        line += dash;
      }
    }
    const std::size_t segments = (n + segment - 1) / segment;
    const double estimate = 2.0 * static_cast<double>(segments) *
                            static_cast<double>((segments + resident - 1) / resident) * wave_ms;
    line += cell(estimate);
    line += v3_ms > 0 ? course::format("%9.2f", estimate / v3_ms) : course::format("%9s", "-");
    const course::Outcome best =
        time_sort([&] { lesson05::sort_v8(d_in.data(), d_out.data(), n, launch); }, false);
    lesson05::CubSort cub(n);
    const course::Outcome library = time_sort([&] { cub(d_in.data(), d_out.data()); }, true);
    all_ok = all_ok && best.mismatch.empty() && library.mismatch.empty();
    line += cell(best.time.median_ms) + cell(library.time.median_ms);
    std::printf("%s\n", line.c_str());
  }
  std::printf("every result of the sweep %s\n",
              all_ok ? "matched std::sort" : "did NOT match std::sort");
  return all_ok;
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::string dist = lesson05::dists().name(o.dist);
  const lesson05::Launch launch{nullptr, o.threads};
  // The input, the reference's result and a result read back, on the host; in, out and CUB's
  // scratch (about n floats) on the GPU.
  lesson.begin(course::format("sorting %zu floats, %s", n, dist.c_str()), 3 * n * sizeof(float));
  const std::vector<float> in = lesson05::make_input(n, o.dist, lesson.options().seed);
  bool cpu_ok = false;
  const std::vector<float> expected = run_cpu(lesson, in, o.dist, &cpu_ok);

  const course::DeviceReport& report = lesson.gpu();
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
    versions.push_back({v.name, v.idea, v.limit(n, launch),
                        [&, v] { v.run(d_in.data(), d_out.data(), n, launch); }, check(false)});
  }
  const std::string library_limit = n <= lesson05::kLibraryMaxN ? "" : "n >= 2^31";
  const char* zeros_note = "checked with -0.0 == +0.0, the order of its radix sort";
  // thrust::sort sorts in place: each run sorts a fresh copy of the input, made untimed.
  versions.push_back({"Thrust",
                      "thrust::sort (in place; allocates scratch)",
                      library_limit,
                      [&] { lesson05::thrust_sort(d_out.data(), n); },
                      check(true),
                      [&] {
                        CUDA_CHECK(cudaMemcpyAsync(d_out.data(), d_in.data(), n * sizeof(float),
                                                   cudaMemcpyDeviceToDevice));
                      },
                      {},
                      0,
                      zeros_note});
  lesson05::CubSort cub(library_limit.empty() && lesson.chosen("CUB") ? n : 0);
  versions.push_back({"CUB",
                      "DeviceRadixSort::SortKeys, scratch kept",
                      library_limit,
                      [&] { cub(d_in.data(), d_out.data()); },
                      check(true),
                      {},
                      {},
                      0,
                      zeros_note});
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
  if (o.seed_compare) extra_ok = seed_compare(n, lesson.options().seed, launch) && extra_ok;
  if (o.sweep) extra_ok = sweep(lesson, o.sweep_max, launch) && extra_ok;
  return lesson.finish(cpu_ok && extra_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("05",
                        "Sorting floats: std::sort, the seed's host odd-even sort, every GPU "
                        "version, thrust::sort and CUB, on the same data.",
                        "floats to sort", lesson05::kSeedN, std::numeric_limits<std::size_t>::max(),
                        5);
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(argc, argv, course::names_of(lesson05::versions(), {"Thrust", "CUB"}), [&] {
    if (o.threads % 32 != 0)
      course::usage_error(lesson.cli(), "--threads must be a multiple of 32");
    return run(lesson, o);
  });
}
