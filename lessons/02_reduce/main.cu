// Lesson 02: the sum of n numbers, from the source's reduce0 to CUB's speed. Runs the CPU, then
// every GPU version and CUB on the same data; checks each result against the CPU (ints exactly,
// floats within the bound in reference.hpp) and prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson02
#include <cstdio>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

struct Options {
  std::string type = "float";
  lesson02::Dist dist = lesson02::Dist::uniform;
  bool sweep = false;
  bool strides = false;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--type", &o->type, {"float", "int"}, "element type");
  cli.choice("--dist", &o->dist, lesson02::dists());
  cli.flag("--sweep", &o->sweep,
           "also time v6 for block sizes 64..1024 and 4..1024 elements per thread (exercise 4)");
  cli.flag(
      "--strides", &o->strides,
      "also time a sum of every s-th element, s = 1..32: coalesced loads against strided ones");
}

template <typename T>
std::string show(T value) {
  if constexpr (std::is_integral<T>::value) {
    return std::to_string(value);
  } else {
    return course::format("%.9g", static_cast<double>(value));
  }
}

// The CPU: the reference (every core, in 64-bit integers or doubles), and the naive loop. Returns
// the reference's sum; the loop's sum on `*in_order`.
template <typename T>
lesson02::Wide<T> run_cpu(course::Lesson& lesson, const std::vector<T>& input, const char* type,
                          T* in_order) {
  const std::size_t n = input.size();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  lesson02::Wide<T> expected = 0;
  course::NvtxRange range("CPU");
  const course::Timing parallel = course::time_cpu(
      [&] { expected = lesson02::reference_sum_threads(input.data(), n, threads); },
      lesson.cpu_reps(), 1);
  const course::Timing loop = course::time_cpu(
      [&] { *in_order = lesson02::sum_in_order(input.data(), n); }, lesson.cpu_reps(), 1);
  const double gb = static_cast<double>(n * sizeof(T)) / 1e9;
  std::printf("CPU, %2u threads, %-11s %10.3f ms  %7.2f GB/s  sum %s\n", threads,
              std::is_integral<T>::value ? "in int64:" : "in double:", parallel.median_ms,
              gb / (parallel.median_ms / 1e3), show(expected).c_str());
  std::printf("CPU, one loop in %-13s %10.3f ms  %7.2f GB/s  sum %s\n",
              (std::string(type) + ":").c_str(), loop.median_ms, gb / (loop.median_ms / 1e3),
              show(*in_order).c_str());
  lesson.set_cpu(parallel.median_ms, course::format("the CPU with %u threads", threads));
  return expected;
}

// Different summation orders round differently: the same numbers, different float sums.
template <typename T>
void print_float_sums(const std::vector<std::pair<std::string, T>>& results, T in_order,
                      double expected, double bound) {
  std::printf("%-8s %-16s %-12s %s\n", "version", "float sum", "bits",
              "error against the double sum, in units of the bound");
  for (const auto& [name, got] : results) {
    std::printf("%-8s %-16s 0x%08x   %+.3g\n", name.c_str(), show(got).c_str(),
                static_cast<unsigned int>(course::bits_of(got)),
                (static_cast<double>(got) - expected) / bound);
  }
  std::printf("%-8s %-16s %-12s   %+.3g\n\n", "CPU loop", show(in_order).c_str(), "",
              (static_cast<double>(in_order) - expected) / bound);
}

// What the bounds check costs: v2's first pass with and without it (n a multiple of 256 only),
// each run after the L2 flush, as the table's rows.
template <typename T>
void print_bounds_check_cost(const T* d_in, std::size_t n, T* partials,
                             const course::Clock& clock) {
  if (n % lesson02::kThreads != 0) return;
  const unsigned blocks = static_cast<unsigned>(n / lesson02::kThreads);
  auto first_pass = [&](auto kernel) {
    return clock.time([&] {
      kernel<<<blocks, lesson02::kThreads>>>(d_in, n, partials);
      CUDA_CHECK_LAUNCH();
    });
  };
  const course::Timing checked = first_pass(lesson02::sequential_kernel<T, true>);
  const course::Timing unchecked = first_pass(lesson02::sequential_kernel<T, false>);
  std::printf("v2's first pass: %.4f ms with the bounds check, %.4f ms without (the source's)\n",
              checked.median_ms, unchecked.median_ms);
}

// Exercise 4: v6 with each block size, and grids of n / (block size x elements per thread), each
// run after the L2 flush, as the table's rows.
template <typename T>
void print_sweep(const T* d_in, std::size_t n, T* d_result, lesson02::Workspace<T>& ws,
                 const course::Clock& clock) {
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
      const course::Timing t =
          clock.time([&] { runs[k](d_in, n, d_result, ws, {}, static_cast<int>(blocks)); });
      std::printf("   %8.4f (%6.0f)", t.median_ms,
                  static_cast<double>(n * sizeof(T)) / (t.median_ms * 1e6));
    }
    std::printf("\n");
  }
}

// How far a result may be from the exact sum: 0 for ints; for floats, the bound in reference.hpp,
// printed.
template <typename T>
double error_bound(const std::vector<T>& input) {
  double bound = 0;
  if (!std::is_integral<T>::value) {
    bound = lesson02::float_error_bound(input.size(),
                                        lesson02::sum_of_magnitudes(input.data(), input.size()));
    std::printf("float results must be within %.3g of the double sum (reference.hpp)\n", bound);
  }
  std::printf("\n");
  return bound;
}

template <typename T>
int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::string dist = lesson02::dists().name(o.dist);
  const char* type = o.type.c_str();
  lesson.begin(course::format("sum of %zu %ss, %s", n, type, dist.c_str()), n * sizeof(T));
  const std::vector<T> input = lesson02::make_input<T>(n, o.dist, lesson.options().seed);
  T in_order = 0;
  const lesson02::Wide<T> expected = run_cpu(lesson, input, type, &in_order);
  const double bound = error_bound(input);

  const course::DeviceReport& report = lesson.gpu();
  course::DeviceBuffer<T> d_in(input);
  course::DeviceBuffer<T> d_result(1);
  lesson02::Workspace<T> ws(n);
  lesson.poison([&] { d_result.fill_bytes(0xFF); });
  std::vector<std::pair<std::string, T>> results;
  const auto check = [&](const std::string& name) {
    return [&, name] {
      const T got = d_result.download()[0];
      results.emplace_back(name, got);
      return lesson02::sum_ok(got, expected, bound)
                 ? std::string()
                 : "summed to " + show(got) + ", expected " + show(expected);
    };
  };
  std::vector<course::Version> versions;
  for (const lesson02::Version<T>& v : lesson02::versions<T>()) {
    versions.push_back(course::as(
        v.kind, {v.name, std::string(v.idea) + "; " + v.finish, "",
                 [&, v] { v.run(d_in.data(), n, d_result.data(), ws, {}); }, check(v.name)}));
  }
  lesson02::CubSum<T> cub(n);
  versions.push_back(course::as(course::Kind::library,
                                {"CUB", "cub::DeviceReduce::Sum", "",
                                 [&] { cub(d_in.data(), d_result.data()); }, check("CUB")}));
  lesson.run_versions(
      course::format("lesson02, n = %zu %ss, %s, on %s", n, type, dist.c_str(), report.props.name),
      static_cast<double>(n * sizeof(T)), versions);
  if (!std::is_integral<T>::value) {
    print_float_sums(results, in_order, static_cast<double>(expected), bound);
  }
  print_bounds_check_cost(d_in.data(), n, ws.partials(0), lesson.clock());
  lesson02::print_source_range(d_in.data(), n, ws.partials(0));

  // The whole trip: copy in (from pageable memory), v7, copy the one result out.
  T out = 0;
  lesson.whole_trip(
      "v7", static_cast<double>(n * sizeof(T)), [&] { d_in.upload(input); },
      [&] {
        lesson02::reduce_one_launch(d_in.data(), n, d_result.data(), ws, {});
        CUDA_CHECK(cudaMemcpy(&out, d_result.data(), sizeof(T), cudaMemcpyDeviceToHost));
      });
  lesson.write_csv(o.type + " " + dist, {{"size", course::size_text(n) + " " + o.type + "s"}});
  if (o.sweep) print_sweep(d_in.data(), n, d_result.data(), ws, lesson.clock());
  const bool strides_ok =
      !o.strides || lesson02::print_strides(lesson, input, d_in.data(), ws, report.copy_gbps);
  return lesson.finish(strides_ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("02", "The sum of n numbers: the CPU, every GPU version and CUB, checked.",
                        "elements to sum", std::size_t{1} << 25);
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(argc, argv, course::names_of(lesson02::versions<float>(), {"CUB"}),
                     [&] { return o.type == "int" ? run<int>(lesson, o) : run<float>(lesson, o); });
}
