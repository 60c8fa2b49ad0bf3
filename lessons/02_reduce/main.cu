// Lesson 02: the sum of n numbers, from the seed's reduce0 to CUB's speed. Runs the CPU, then
// every GPU version and CUB on the same data; checks each result against the CPU (ints exactly,
// floats within the bound in reference.hpp) and prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson02
#include <cstdio>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kBudgetMs = 3000.0;  // per version: stop after 3 runs when they are this slow

struct Options {
  course::StandardOptions common;
  std::string type = "float";
  std::string dist = "uniform";
  int cpu_reps = 3;
  bool sweep = false;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = std::size_t{1} << 25;
  course::CommandLine cli("lesson02",
                          "The sum of n numbers: the CPU, every GPU version and CUB, checked.");
  course::add_standard_options(cli, &o.common, "elements to sum");
  cli.choice("--type", &o.type, {"float", "int"}, "element type");
  cli.choice("--dist", &o.dist, {"uniform", "integers"},
             "uniform: floats in [-1, 1) or ints in [-8, 8]; integers: whole numbers in [-8, 8] "
             "as floats, whose float sum is exact in any order");
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of each CPU version", 1, 1000);
  cli.flag("--sweep", &o.sweep,
           "also time v6 for block sizes 64..1024 and 4..1024 elements per thread (exercise 4)");
  course::parse_or_exit(cli, argc, argv);
  return o;
}

template <typename T>
std::string show(T value) {
  if constexpr (std::is_integral<T>::value) {
    return std::to_string(value);
  } else {
    return course::format("%.9g", static_cast<double>(value));
  }
}

// Exercise 4: v6 with each block size, and grids of n / (block size x elements per thread).
template <typename T>
void print_sweep(const T* d_in, std::size_t n, T* d_result, lesson02::Workspace<T>& ws, int reps) {
  using Run = void (*)(const T*, std::size_t, T*, lesson02::Workspace<T>&, lesson02::Launch, int);
  const int sizes[] = {64, 128, 256, 512, 1024};
  const Run runs[] = {lesson02::reduce_grid_stride<T, 64>, lesson02::reduce_grid_stride<T, 128>,
                      lesson02::reduce_grid_stride<T, 256>, lesson02::reduce_grid_stride<T, 512>,
                      lesson02::reduce_grid_stride<T, 1024>};
  const std::size_t per_thread[] = {4, 16, 64, 256, 1024};
  std::printf(
      "\nsweep of v6: median ms (GB/s); rows: threads per block, columns: elements per "
      "thread (grid = n / both, at least 1 block)\n%8s",
      "threads");
  for (std::size_t e : per_thread)
    std::printf(" %19zu", e);
  std::printf("\n");
  for (int k = 0; k < 5; ++k) {
    std::printf("%8d", sizes[k]);
    for (std::size_t e : per_thread) {
      const std::size_t blocks = std::max<std::size_t>(1, n / (sizes[k] * e));
      const course::Timing t = course::time_gpu(
          [] {}, [&] { runs[k](d_in, n, d_result, ws, {}, static_cast<int>(blocks)); }, reps);
      std::printf("   %8.4f (%6.0f)", t.median_ms,
                  static_cast<double>(n * sizeof(T)) / (t.median_ms * 1e6));
    }
    std::printf("\n");
  }
}

template <typename T>
int run_typed(const Options& o, const std::string& command) {
  using lesson02::Wide;
  const std::size_t n = o.common.n;
  const lesson02::Dist dist = lesson02::parse_dist(o.dist);
  std::printf("lesson02: sum of %zu %ss, %s, seed %llu\n\n", n, o.type.c_str(), o.dist.c_str(),
              static_cast<unsigned long long>(o.common.seed));
  course::require_memory_for("lesson02", n, n * sizeof(T));  // before any work
  const std::vector<T> input = lesson02::make_input<T>(n, dist, o.common.seed);

  // The CPU: the reference (every core, in 64-bit integers or doubles), and the naive loop.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  Wide<T> expected = 0;
  T in_order = 0;
  course::Timing cpu_threads;
  course::Timing cpu_loop;
  {
    course::NvtxRange range("CPU");
    cpu_threads = course::time_cpu(
        [&] { expected = lesson02::reference_sum_threads(input.data(), n, threads); }, o.cpu_reps,
        1);
    cpu_loop = course::time_cpu([&] { in_order = lesson02::sum_in_order(input.data(), n); },
                                o.cpu_reps, 1);
  }
  const double bound =
      std::is_integral<T>::value
          ? 0.0
          : lesson02::float_error_bound(n, lesson02::sum_of_magnitudes(input.data(), n));
  const double gb = static_cast<double>(n * sizeof(T)) / 1e9;
  std::printf("CPU, %2u threads, %-11s %10.3f ms  %7.2f GB/s  sum %s\n", threads,
              std::is_integral<T>::value ? "in int64:" : "in double:", cpu_threads.median_ms,
              gb / (cpu_threads.median_ms / 1e3), show(expected).c_str());
  std::printf("CPU, one loop in %-13s %10.3f ms  %7.2f GB/s  sum %s\n", (o.type + ":").c_str(),
              cpu_loop.median_ms, gb / (cpu_loop.median_ms / 1e3), show(in_order).c_str());
  if (!std::is_integral<T>::value) {
    std::printf("float results must be within %.3g of the double sum (reference.hpp)\n", bound);
  }
  std::printf("\n");

  const course::DeviceReport report = course::require_gpu_or_exit("lesson02");
  course::DeviceBuffer<T> d_in(input);
  course::DeviceBuffer<T> d_result(1);
  lesson02::Workspace<T> ws(n);

  course::ResultTable table(course::format("lesson02, n = %zu %ss, %s, on %s", n, o.type.c_str(),
                                           o.dist.c_str(), report.props.name),
                            report.copy_gbps, cpu_threads.median_ms,
                            course::format("the CPU with %u threads", threads));
  std::vector<std::pair<std::string, T>> results;
  auto add_row = [&](const char* name, const std::string& idea, const course::Timing& t, T got) {
    course::TableRow row{name, idea, t, static_cast<double>(n * sizeof(T)), course::Check::ok, ""};
    if (!lesson02::sum_ok(got, expected, bound)) {
      row.check = course::Check::fail;
      row.note = "summed to " + show(got) + ", expected " + show(expected);
    }
    table.add(row);
    results.emplace_back(name, got);
  };
  for (const lesson02::Version<T>& v : lesson02::versions<T>()) {
    course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
    const course::Timing t = course::time_gpu(
        [&] { d_result.fill_bytes(0xFF); }, [&] { v.run(d_in.data(), n, d_result.data(), ws, {}); },
        o.common.reps, 2, nullptr, kBudgetMs);
    add_row(v.name, std::string(v.idea) + "; " + v.finish, t, d_result.download()[0]);
  }
  {
    course::NvtxRange range("CUB DeviceReduce::Sum");
    lesson02::CubSum<T> cub(n);
    const course::Timing t = course::time_gpu([&] { d_result.fill_bytes(0xFF); },
                                              [&] { cub(d_in.data(), d_result.data()); },
                                              o.common.reps, 2, nullptr, kBudgetMs);
    add_row("CUB", "cub::DeviceReduce::Sum", t, d_result.download()[0]);
  }
  std::printf("%s\n", table.text().c_str());

  if constexpr (!std::is_integral<T>::value) {
    // Different summation orders round differently: the same numbers, different float sums.
    std::printf("%-8s %-16s %-12s %s\n", "version", "float sum", "bits",
                "error against the double sum, in units of the bound");
    for (const auto& [name, got] : results) {
      std::printf("%-8s %-16s 0x%08x   %+.3g\n", name.c_str(), show(got).c_str(),
                  static_cast<unsigned int>(course::bits_of(got)),
                  (static_cast<double>(got) - static_cast<double>(expected)) / bound);
    }
    std::printf("%-8s %-16s %-12s   %+.3g\n\n", "CPU loop", show(in_order).c_str(), "",
                (static_cast<double>(in_order) - static_cast<double>(expected)) / bound);
  }

  // What the bounds check costs: v2's first pass with and without it (n a multiple of 256 only).
  if (n % lesson02::kThreads == 0) {
    const unsigned blocks = static_cast<unsigned>(n / lesson02::kThreads);
    T* partials = ws.partials(0);
    auto first_pass = [&](auto kernel) {
      return course::time_gpu(
          [&] {
            kernel<<<blocks, lesson02::kThreads>>>(d_in.data(), n, partials);
            CUDA_CHECK_LAUNCH();
          },
          o.common.reps);
    };
    const course::Timing checked = first_pass(lesson02::sequential_kernel<T, true>);
    const course::Timing unchecked = first_pass(lesson02::sequential_kernel<T, false>);
    std::printf("v2's first pass: %.4f ms with the bounds check, %.4f ms without (the seed's)\n",
                checked.median_ms, unchecked.median_ms);
  }

  // The whole trip: copy in (from pageable memory), v7, copy the one result out.
  {
    course::NvtxRange range("whole trip");
    T out = 0;
    const course::Trip trip = course::time_whole_trip(
        [&] { d_in.upload(input); },
        [&] {
          lesson02::reduce_one_launch(d_in.data(), n, d_result.data(), ws, {});
          CUDA_CHECK(cudaMemcpy(&out, d_result.data(), sizeof(T), cudaMemcpyDeviceToHost));
        });
    std::printf("%s\n",
                course::whole_trip_text("v7", trip, 3, static_cast<double>(n * sizeof(T))).c_str());
  }

  course::write_table_csv(table, o.common.csv, "02", report, command, n, o.type + " " + o.dist,
                          {{"size", course::size_text(n) + " " + o.type + "s"}});
  if (o.sweep) print_sweep(d_in.data(), n, d_result.data(), ws, o.common.reps);
  return table.any_failed() ? course::kExitCheckFailed : course::kExitOk;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string command = course::command_text("lesson02", argc, argv);
  return o.type == "int" ? run_typed<int>(o, command) : run_typed<float>(o, command);
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson02", [&] { return run(argc, argv); });
}
