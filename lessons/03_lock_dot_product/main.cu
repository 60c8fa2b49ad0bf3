// Lesson 03: a dot product finished on the GPU, from the book's atomicCAS lock to cuBLAS's speed.
// Runs the CPU, then every GPU version and cublasSdot on the same data; checks each result against
// a double-precision dot product (within the bound in reference.hpp), counts how many different
// results each version gives over repeated runs, and prints the table. Build alone, from this
// folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -lcublas -o lesson03
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kBudgetMs = 3000.0;  // per version: stop after 3 runs when they are this slow

struct Options {
  course::StandardOptions common;
  std::string dist = "seed";
  int blocks = 0;
  int runs = 10;
  int cpu_reps = 3;
  bool show_race = false;
  bool lock_sweep = false;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = std::size_t{33} << 20;  // the book's N = 33 * 1024 * 1024
  course::CommandLine cli(
      "lesson03", "The dot product of two float arrays: the CPU, every GPU version and cuBLAS.");
  course::add_standard_options(cli, &o.common, "elements of each array");
  cli.choice("--dist", &o.dist, {"seed", "uniform", "integers"},
             "seed: the book's a[i] = i, b[i] = 2i; uniform: floats in [-1, 1); integers: whole "
             "numbers in [-4, 4]");
  cli.number("--blocks", &o.blocks,
             "grid of v1a to v3 (0: as many blocks as the GPU holds at once)", 0,
             lesson03::kMaxBlocks);
  cli.number("--runs", &o.runs, "runs of each version for counting its different results", 1, 1000);
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of each CPU version", 1, 1000);
  cli.flag("--show-race", &o.show_race,
           "run the seed's lock (v0) 20 times at grids of 32 blocks to 8 per SM, on the seed's "
           "input, and count the wrong results; the same with the sum read from L2, and for v1a");
  cli.flag("--lock-sweep", &o.lock_sweep,
           "time v1a, v1b and v2 at grids of 32 to 8192 blocks (exercise 3)");
  course::parse_or_exit(cli, argc, argv);
  return o;
}

std::string show(double value) {
  return course::format("%.9g", value);
}

// The seed's lock (v0), the same with the sum read from L2, and the correct lock (v1a): 20 runs
// each at grids from the seed's 32 blocks to 8 blocks per SM, on the seed's input. Prints how many
// runs were wrong, and by how much at worst; returns whether v1a was right every time.
bool show_race(std::size_t n, const lesson03::Inputs& current, lesson03::Dist dist,
               const lesson03::DeviceInputs& current_on_gpu) {
  constexpr int kRuns = 20;
  const int sms = course::sm_count();
  // Every product of the seed's input is positive: a lost update leaves the result too small.
  const bool is_seed = dist == lesson03::Dist::seed;
  const lesson03::Inputs other =
      is_seed ? lesson03::Inputs{} : lesson03::make_inputs(n, lesson03::Dist::seed, 0);
  const lesson03::Inputs& in = is_seed ? current : other;
  const lesson03::DeviceInputs other_on_gpu(other);
  const float* a = is_seed ? current_on_gpu.a.data() : other_on_gpu.a.data();
  const float* b = is_seed ? current_on_gpu.b.data() : other_on_gpu.b.data();
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  lesson03::Workspace ws;
  course::DeviceBuffer<float> c(1);

  std::printf(
      "\nthe race: %d runs per grid on the seed's input (n = %zu); a run is wrong when it is off "
      "by more than\nits error bound; the worst error is relative to the double dot product\n",
      kRuns, n);
  const lesson03::Run runs[] = {lesson03::dot_seed_lock<false>, lesson03::dot_seed_lock<true>,
                                lesson03::dot_lock};
  std::printf("%7s %7s | %-27s | %-27s | %-27s\n", "blocks", "per SM", "v0, the seed's lock",
              "v0, c read from L2", "v1a, the correct lock");
  bool correct_lock_ok = true;
  for (int blocks : {lesson03::kSeedBlocks, sms, 2 * sms, 8 * sms}) {
    std::printf("%7d %7.2f", blocks, static_cast<double>(blocks) / sms);
    for (int which = 0; which < 3; ++which) {
      const double bound = lesson03::dot_error_bound(
          n, ref.magnitudes,
          lesson03::Shape{static_cast<std::size_t>(blocks) * lesson03::kThreads,
                          static_cast<std::size_t>(blocks)},
          true);
      int wrong = 0;
      double worst = 0;
      for (int r = 0; r < kRuns; ++r) {
        c.fill_bytes(0xFF);
        runs[which](a, b, n, c.data(), ws, {nullptr, blocks});
        const float got = c.download()[0];
        if (!lesson03::dot_ok(got, ref.dot, bound)) ++wrong;
        worst = std::max(worst, std::fabs(static_cast<double>(got) - ref.dot) / std::fabs(ref.dot));
      }
      if (which == 2 && wrong > 0) correct_lock_ok = false;
      std::printf(" | %-27s",
                  course::format("%2d of %d wrong, worst %.2g", wrong, kRuns, worst).c_str());
    }
    std::printf("\n");
  }
  return correct_lock_ok;
}

// Exercise 3: what finishing under a lock costs as the grid grows.
void print_lock_sweep(const float* a, const float* b, std::size_t n, int reps) {
  lesson03::Workspace ws;
  course::DeviceBuffer<float> c(1);
  std::printf(
      "\nlock sweep: median ms of v1a (every block takes the lock), v1b (the holder adds for the\n"
      "waiting) and v2 (atomicAdd), by grid (blocks of %d threads)\n%8s %12s %12s %12s\n",
      lesson03::kThreads, "blocks", "v1a", "v1b", "v2");
  for (int blocks = 32; blocks <= lesson03::kMaxBlocks; blocks *= 2) {
    std::printf("%8d", blocks);
    for (lesson03::Run run :
         {lesson03::dot_lock, lesson03::dot_combining_lock, lesson03::dot_atomic_add}) {
      const course::Timing t = course::time_gpu(
          [&] {
            run(a, b, n, c.data(), ws, {nullptr, blocks});
          },
          reps, 1, nullptr, kBudgetMs);
      std::printf(" %12.4f", t.median_ms);
    }
    std::printf("\n");
  }
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string command = course::command_text("lesson03", argc, argv);
  const std::size_t n = o.common.n;
  const lesson03::Dist dist = lesson03::parse_dist(o.dist);
  std::printf("lesson03: dot product of two arrays of %zu floats, %s, seed %llu\n\n", n,
              o.dist.c_str(), static_cast<unsigned long long>(o.common.seed));
  course::require_memory_for("lesson03", n, 2 * n * sizeof(float));  // before any work
  const lesson03::Inputs in = lesson03::make_inputs(n, dist, o.common.seed);

  // The CPU: the reference (every core, in double), and one loop in float.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  lesson03::Reference ref;
  float in_float = 0;
  course::Timing cpu_threads;
  course::Timing cpu_loop;
  {
    course::NvtxRange range("CPU");
    cpu_threads = course::time_cpu(
        [&] { ref = lesson03::reference_dot(in.a.data(), in.b.data(), n, threads); }, o.cpu_reps,
        1);
    cpu_loop = course::time_cpu(
        [&] { in_float = lesson03::dot_in_float(in.a.data(), in.b.data(), n); }, o.cpu_reps, 1);
  }
  const double gb = static_cast<double>(2 * n * sizeof(float)) / 1e9;
  std::printf("CPU, %2u threads, in double: %10.3f ms  %7.2f GB/s  dot %s\n", threads,
              cpu_threads.median_ms, gb / (cpu_threads.median_ms / 1e3), show(ref.dot).c_str());
  std::printf("CPU, one loop in float:     %10.3f ms  %7.2f GB/s  dot %s (relative error %.2g)\n",
              cpu_loop.median_ms, gb / (cpu_loop.median_ms / 1e3), show(in_float).c_str(),
              std::fabs(in_float - ref.dot) / std::fabs(ref.dot));
  if (dist == lesson03::Dist::seed) {
    const double closed = lesson03::seed_closed_form(n);
    std::printf(
        "the book's check, 2 sum i^2 = %s; the float arrays' own dot product differs from it by "
        "%.2g (relative)%s\n",
        show(closed).c_str(), std::fabs(ref.dot - closed) / closed,
        n > (std::size_t{1} << 24) ? ",\nbecause float(i) is not i past 2^24" : "");
  }
  std::printf("\n");

  const course::DeviceReport report = course::require_gpu_or_exit("lesson03");
  const lesson03::DeviceInputs d_in(in);
  course::DeviceBuffer<float> d_c(1);
  lesson03::Workspace ws;
  const bool whole = dist != lesson03::Dist::uniform;

  course::ResultTable table(course::format("lesson03, n = %zu floats (2 arrays), %s, on %s", n,
                                           o.dist.c_str(), report.props.name),
                            report.copy_gbps, cpu_threads.median_ms,
                            course::format("the CPU with %u threads", threads));
  struct Outcome {
    std::string name;
    float got;
    double bound;
    std::size_t distinct;
  };
  std::vector<Outcome> outcomes;
  // Runs `run` o.runs times more, and counts the different results (by their bits).
  auto distinct_results = [&](auto&& run_once) {
    std::set<std::uint32_t> seen;
    for (int r = 0; r < o.runs; ++r) {
      d_c.fill_bytes(0xFF);
      run_once();
      seen.insert(course::bits_of(d_c.download()[0]));
    }
    return seen.size();
  };
  auto add_row = [&](const std::string& name, const std::string& idea, const course::Timing& t,
                     float got, double bound, std::size_t distinct) {
    course::TableRow row{
        name, idea, t, static_cast<double>(2 * n * sizeof(float)), course::Check::ok, ""};
    if (!lesson03::dot_ok(got, ref.dot, bound)) {
      row.check = course::Check::fail;
      row.note = course::format("got %s, expected %s within %.3g", show(got).c_str(),
                                show(ref.dot).c_str(), bound);
    }
    table.add(row);
    outcomes.push_back({name, got, bound, distinct});
  };

  double loosest = 0;
  for (const lesson03::Version& v : lesson03::versions()) {
    course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
    // --blocks sets the grid of the versions that default to the full grid (v1a to v3).
    const lesson03::Launch launch{nullptr, v.grid == lesson03::full_grid ? o.blocks : 0};
    const auto run_once = [&] { v.run(d_in.a.data(), d_in.b.data(), n, d_c.data(), ws, launch); };
    const course::Timing t = course::time_gpu([&] { d_c.fill_bytes(0xFF); }, run_once,
                                              o.common.reps, 2, nullptr, kBudgetMs);
    const float got = d_c.download()[0];
    const double bound = lesson03::dot_error_bound(n, ref.magnitudes,
                                                   lesson03::shape_of(v, n, launch.blocks), whole);
    loosest = std::max(loosest, bound);
    add_row(v.name, v.idea, t, got, bound, distinct_results(run_once));
  }
  {
    course::NvtxRange range("cublasSdot");
    lesson03::CublasDot cublas;
    const auto run_once = [&] { cublas(d_in.a.data(), d_in.b.data(), n, d_c.data()); };
    const course::Timing t = course::time_gpu([&] { d_c.fill_bytes(0xFF); }, run_once,
                                              o.common.reps, 2, nullptr, kBudgetMs);
    // cuBLAS does not document its order of additions: it is held to the loosest bound above.
    add_row("cuBLAS", "cublasSdot", t, d_c.download()[0], loosest, distinct_results(run_once));
  }
  std::printf("%s\n", table.text().c_str());
  std::printf(
      "v0 was right here only because no SM ran two of its %d blocks: its lock orders nothing "
      "(--show-race)\n\n",
      lesson03::seed_grid(n));

  std::printf("%-8s %-16s %-12s %-14s %-12s %s\n", "version", "result", "bits", "rel. error",
              "error/bound", course::format("different results in %d runs", o.runs).c_str());
  for (const Outcome& r : outcomes) {
    const double error = static_cast<double>(r.got) - ref.dot;
    std::printf("%-8s %-16s 0x%08x   %-14.3g %-12s %zu\n", r.name.c_str(), show(r.got).c_str(),
                static_cast<unsigned int>(course::bits_of(r.got)),
                ref.dot == 0 ? std::fabs(error) : std::fabs(error / ref.dot),
                r.bound > 0 ? course::format("%+.3g", error / r.bound).c_str() : "exact",
                r.distinct);
  }
  std::printf("\n");

  // The whole trip: copy both arrays in (from pageable memory), v4, copy the result out.
  {
    course::NvtxRange range("whole trip");
    lesson03::DeviceInputs copy(in);
    float out = 0;
    const course::Trip trip = course::time_whole_trip(
        [&] {
          copy.a.upload(in.a);
          copy.b.upload(in.b);
        },
        [&] {
          lesson03::dot_near_bandwidth(copy.a.data(), copy.b.data(), n, d_c.data(), ws, {});
          CUDA_CHECK(cudaMemcpy(&out, d_c.data(), sizeof(float), cudaMemcpyDeviceToHost));
        });
    std::printf(
        "%s\n",
        course::whole_trip_text("v4", trip, 3, static_cast<double>(2 * n * sizeof(float))).c_str());
  }

  course::write_table_csv(table, o.common.csv, "03", report, command, n, o.dist,
                          {{"size", course::size_text(n) + " floats"}});
  bool race_ok = true;
  if (o.show_race) race_ok = show_race(n, in, dist, d_in);
  if (o.lock_sweep) print_lock_sweep(d_in.a.data(), d_in.b.data(), n, o.common.reps);
  return table.any_failed() || !race_ok ? course::kExitCheckFailed : course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson03", [&] { return run(argc, argv); });
}
