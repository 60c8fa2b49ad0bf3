// Lesson 03: a dot product finished on the GPU, from the book's atomicCAS lock to cuBLAS's speed.
// Runs the CPU, then every GPU version and cublasSdot on the same data; checks each result against
// a double-precision dot product (within the bound in reference.hpp), counts how many different
// results each version gives over repeated runs, and prints the table. Build alone, from this
// folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common -I.. main.cu -lcublas -o lesson03
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

struct Options {
  lesson03::Dist dist = lesson03::Dist::source;
  int blocks = 0;
  int runs = 10;
  bool show_race = false;
  bool lock_sweep = false;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--dist", &o->dist, lesson03::dists());
  cli.number("--blocks", &o->blocks,
             "grid of v1a to v3 (0: as many blocks as the GPU holds at once)", 0,
             lesson03::kMaxBlocks);
  cli.number("--runs", &o->runs, "runs of each version for counting its different results", 1,
             1000);
  cli.flag("--show-race", &o->show_race,
           "run the source's lock (v0) 20 times at grids of 32 blocks to 8 per SM, on the source's "
           "input, and count the wrong results; the same with the sum read from L2, and for v1a");
  cli.flag("--lock-sweep", &o->lock_sweep,
           "time v1a, v1b and v2 at grids of 32 to 8192 blocks (exercise 3)");
}

std::string show(double value) {
  return course::format("%.9g", value);
}

// The CPU: the reference (every core, in double), and one loop in float.
lesson03::Reference run_cpu(course::Lesson& lesson, const lesson03::Inputs& in,
                            lesson03::Dist dist) {
  const std::size_t n = in.a.size();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  lesson03::Reference ref;
  float in_float = 0;
  course::NvtxRange range("CPU");
  const course::Timing parallel =
      course::time_cpu([&] { ref = lesson03::reference_dot(in.a.data(), in.b.data(), n, threads); },
                       lesson.cpu_reps(), 1);
  const course::Timing loop =
      course::time_cpu([&] { in_float = lesson03::dot_in_float(in.a.data(), in.b.data(), n); },
                       lesson.cpu_reps(), 1);
  const double gb = static_cast<double>(2 * n * sizeof(float)) / 1e9;
  std::printf("CPU, %2u threads, in double: %10.3f ms  %7.2f GB/s  dot %s\n", threads,
              parallel.median_ms, gb / (parallel.median_ms / 1e3), show(ref.dot).c_str());
  std::printf("CPU, one loop in float:     %10.3f ms  %7.2f GB/s  dot %s (relative error %.2g)\n",
              loop.median_ms, gb / (loop.median_ms / 1e3), show(in_float).c_str(),
              std::fabs(in_float - ref.dot) / std::fabs(ref.dot));
  if (dist == lesson03::Dist::source) {
    const double closed = lesson03::source_closed_form(n);
    std::printf(
        "the book's check, 2 sum i^2 = %s; the float arrays' own dot product differs from it by "
        "%.2g (relative)%s\n",
        show(closed).c_str(), std::fabs(ref.dot - closed) / closed,
        n > (std::size_t{1} << 24) ? ",\nbecause float(i) is not i past 2^24" : "");
  }
  std::printf("\n");
  lesson.set_cpu(parallel.median_ms, course::format("the CPU with %u threads", threads));
  return ref;
}

// A version's result: its float, the bound it was held to, and how many different results it
// gave in --runs more runs.
struct Result {
  std::string name;
  float got;
  double bound;
  std::size_t distinct;
};

void print_results(const std::vector<Result>& results, double dot, int runs) {
  std::printf("%-8s %-16s %-12s %-14s %-12s %s\n", "version", "result", "bits", "rel. error",
              "error/bound", course::format("different results in %d runs", runs).c_str());
  for (const Result& r : results) {
    const double error = static_cast<double>(r.got) - dot;
    std::printf("%-8s %-16s 0x%08x   %-14.3g %-12s %zu\n", r.name.c_str(), show(r.got).c_str(),
                static_cast<unsigned int>(course::bits_of(r.got)),
                dot == 0 ? std::fabs(error) : std::fabs(error / dot),
                r.bound > 0 ? course::format("%+.3g", error / r.bound).c_str() : "exact",
                r.distinct);
  }
  std::printf("\n");
}

// Holds a version's result to `bound`, and counts the different results (by their bits) of `runs`
// more runs; each check adds its version's row to `results`.
struct RepeatCheck {
  course::DeviceBuffer<float>& c;
  int runs;
  double dot;
  std::vector<Result>& results;

  std::function<std::string()> operator()(const std::string& name, std::function<void()> run,
                                          double bound) const {
    return [*this, name, run, bound] {
      const float got = c.download()[0];
      std::set<std::uint32_t> seen;
      for (int r = 0; r < runs; ++r) {
        c.fill_bytes(0xFF);
        run();
        seen.insert(course::bits_of(c.download()[0]));
      }
      results.push_back({name, got, bound, seen.size()});
      return lesson03::dot_ok(got, dot, bound)
                 ? std::string()
                 : course::format("got %s, expected %s within %.3g", show(got).c_str(),
                                  show(dot).c_str(), bound);
    };
  }
};

// The whole trip: copy both arrays in (from pageable memory), v4, copy the result out.
void whole_trip_v4(course::Lesson& lesson, const lesson03::Inputs& in,
                   course::DeviceBuffer<float>& d_c, lesson03::Workspace& ws) {
  const std::size_t n = in.a.size();
  lesson03::DeviceInputs copy(in);
  float out = 0;
  lesson.whole_trip(
      "v4", static_cast<double>(2 * n * sizeof(float)),
      [&] {
        copy.a.upload(in.a);
        copy.b.upload(in.b);
      },
      [&] {
        lesson03::dot_near_bandwidth(copy.a.data(), copy.b.data(), n, d_c.data(), ws, {});
        CUDA_CHECK(cudaMemcpy(&out, d_c.data(), sizeof(float), cudaMemcpyDeviceToHost));
      });
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::string dist = lesson03::dists().name(o.dist);
  lesson.begin(course::format("dot product of two arrays of %zu floats, %s", n, dist.c_str()),
               2 * n * sizeof(float));
  const lesson03::Inputs in = lesson03::make_inputs(n, o.dist, lesson.options().seed);
  const lesson03::Reference ref = run_cpu(lesson, in, o.dist);

  const course::DeviceReport& report = lesson.gpu();
  const lesson03::DeviceInputs d_in(in);
  course::DeviceBuffer<float> d_c(1);
  lesson03::Workspace ws;
  lesson.poison([&] { d_c.fill_bytes(0xFF); });
  const bool whole = o.dist != lesson03::Dist::uniform;
  std::vector<Result> results;
  const RepeatCheck check{d_c, o.runs, ref.dot, results};
  std::vector<course::Version> versions;
  double loosest = 0;
  for (const lesson03::Version& v : lesson03::versions()) {
    // --blocks sets the grid of the versions that default to the full grid (v1a to v3).
    const lesson03::Launch launch{nullptr, v.grid == lesson03::full_grid ? o.blocks : 0};
    const std::function<void()> run = [&, v, launch] {
      v.run(d_in.a.data(), d_in.b.data(), n, d_c.data(), ws, launch);
    };
    const double bound = lesson03::dot_error_bound(n, ref.magnitudes,
                                                   lesson03::shape_of(v, n, launch.blocks), whole);
    loosest = std::max(loosest, bound);
    versions.push_back(course::as(v.kind, {v.name, v.idea, "", run, check(v.name, run, bound)}));
  }
  // cuBLAS does not document its order of additions: it is held to the loosest bound above.
  lesson03::CublasDot cublas;
  const std::function<void()> cublas_run = [&] {
    cublas(d_in.a.data(), d_in.b.data(), n, d_c.data());
  };
  versions.push_back(course::as(course::Kind::library, {"cuBLAS", "cublasSdot", "", cublas_run,
                                                        check("cuBLAS", cublas_run, loosest)}));
  lesson.run_versions(course::format("lesson03, n = %zu floats (2 arrays), %s, on %s", n,
                                     dist.c_str(), report.props.name),
                      static_cast<double>(2 * n * sizeof(float)), versions);
  std::printf(
      "v0 was right here only because no SM ran two of its %d blocks: its lock orders nothing "
      "(--show-race)\n\n",
      lesson03::source_grid(n));
  print_results(results, ref.dot, o.runs);

  whole_trip_v4(lesson, in, d_c, ws);
  lesson.write_csv(dist, {{"size", course::size_text(n) + " floats"}});
  const bool race_ok = !o.show_race || lesson03::show_race(n, in, o.dist, d_in);
  if (o.lock_sweep) lesson03::print_lock_sweep(d_in.a.data(), d_in.b.data(), n, lesson.clock());
  return lesson.finish(race_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson(
      "03", "The dot product of two float arrays: the CPU, every GPU version and cuBLAS.",
      "elements of each array", std::size_t{33} << 20);  // the book's N = 33 * 1024 * 1024
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(argc, argv, course::names_of(lesson03::versions(), {"cuBLAS"}),
                     [&] { return run(lesson, o); });
}
