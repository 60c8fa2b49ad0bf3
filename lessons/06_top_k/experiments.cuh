// Lesson 06's program, past its version list: the output every run writes and how it is checked,
// the libraries as rows of the table, then the experiments. --k-sweep times every version by k, to
// its limit (the source's curve and where it stops); after the table, v0 runs on v1's 32 blocks and
// on a managed input the CPU has just written (what the first touch costs).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson06 {

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

// What a result must be: the course's top-k or the source's (distinct), and the input the indices
// point into.
template <typename T>
struct Expected {
  const std::vector<T>* top_k;
  const std::vector<T>* distinct;
  const std::vector<T>* in;
};

// How a version's result is checked: against the source's meaning (distinct) or the course's, with
// its indices or without, and with -0.0 and +0.0 as one value (the libraries' radix sorts).
struct CheckAs {
  bool distinct = false;
  bool indices = true;
  bool zeros_equal = false;
  bool unordered = false;  // a multiset: the pairs are put in order before the check
};

template <typename T>
std::string check(const Result<T>& got, const Expected<T>& expected, CheckAs as) {
  Result<T> sorted = got;
  if (as.unordered) sort_descending(&sorted.values, &sorted.indices);
  return top_k_mismatch(sorted.values, as.indices ? &sorted.indices : nullptr,
                        as.distinct ? *expected.distinct : *expected.top_k, *expected.in,
                        as.zeros_equal);
}

// ---- the libraries, as rows of the table ------------------------------------------------------

// The libraries: CUB and Thrust sort all n pairs, then take the first k. Their radix sorts read
// -0.0 and +0.0 as one key, so floats are checked with the two zeros equal. Thrust sorts in place:
// each run sorts fresh copies of the values and of 0..n-1, made untimed.
template <typename T>
struct Libraries {
  Libraries(course::Lesson& lesson, std::size_t n)
      : limit(n <= kLibraryMaxN ? "" : "n >= 2^31"),
        cub(limit.empty() && (lesson.chosen("CUB") || lesson.chosen("Thrust")) ? n : 0),
        data(limit.empty() && lesson.chosen("Thrust") ? n : 0),
        order(data.size()) {}

  template <typename Checked>
  void add_to(std::vector<course::Version>& versions, const T* in, std::size_t n, std::size_t k,
              Output<T>& out, Checked checked) {
    const CheckAs as{false, true, std::is_same<T, float>::value};
    const std::string topk_limit = limit.empty() ? why_no_device_topk() : limit;
    if (topk_limit.empty() && device_topk == nullptr)
      device_topk = std::make_unique<CubDeviceTopK<T>>(n, k);
    versions.push_back(
        course::as(course::Kind::library,
                   {"CUB-topk",
                    "DeviceTopK::MaxPairs: unsorted, ties in no fixed order",
                    topk_limit,
                    [this, in, &out] { (*device_topk)(in, out.values.data(), out.indices.data()); },
                    checked(CheckAs{false, true, std::is_same<T, float>::value, true}),
                    {},
                    {},
                    0,
                    "checked as a multiset: its output is unsorted"}));
    versions.push_back(course::as(
        course::Kind::library,
        {"CUB", "SortPairsDescending of all n, then the first k", limit,
         [=, &out] { cub(in, k, out.values.data(), out.indices.data()); }, checked(as)}));
    versions.push_back(course::as(
        course::Kind::library,
        {"Thrust", "sort_by_key, greater, in place; then the first k", limit,
         [=, &out] {
           thrust_top_k(data.data(), order.data(), n, k, out.values.data(), out.indices.data());
         },
         checked(as),
         [=] {
           CUDA_CHECK(cudaMemcpyAsync(data.data(), in, n * sizeof(T), cudaMemcpyDeviceToDevice));
           CUDA_CHECK(cudaMemcpyAsync(order.data(), cub.iota(), n * sizeof(std::size_t),
                                      cudaMemcpyDeviceToDevice));
         }}));
  }

  std::string limit;
  std::unique_ptr<CubDeviceTopK<T>> device_topk;  // made once the row is added (it needs k)
  CubTopK<T> cub;
  course::DeviceBuffer<T> data;
  course::DeviceBuffer<std::size_t> order;
};

// ---- --k-sweep ----------------------------------------------------------------------------------

constexpr double kSweepStopMs = 2000.0;  // a version stops after a run this slow

// The sweep's columns: v0 and v2 at --threads, and (*) at the most threads whose lists fit.
constexpr const char* kSweepColumns[] = {"v0",      "v0*",    "v1", "v2", "v2*",
                                         "v3 rank", "v3 CUB", "v4", "CUB"};
constexpr std::size_t kSweepKs[] = {1,   2,   5,   10,  20,  32,   40,   48,   64,   96,
                                    128, 192, 256, 384, 512, 1024, 2048, 4096, 8192, 16384};

// The largest power of two threads, at most `threads`, whose lists of k keys fit in `bytes`; 0
// when not even 32 do.
inline int threads_that_fit(int threads, std::size_t k, std::size_t bytes) {
  for (int t = threads; t >= 32; t /= 2) {
    if (lists_bytes(t, k) <= bytes) return t;
  }
  return 0;
}

// What one sweep step shares: the input, the launch, the output and workspace for this k.
template <typename T>
struct SweepStep {
  const course::DeviceBuffer<T>& in;
  std::size_t n;
  std::size_t k;
  const Launch& launch;
  Output<T>& out;
  Workspace<T>& ws;
  CubTopK<T>& cub;
};

// One column of the sweep at one k: why it does not run ("" when it does), how it runs, with how
// many threads, and how its result is checked.
struct SweepCell {
  std::string why;
  std::function<void()> run;
  int threads;
  CheckAs as;
};

template <typename T>
SweepCell sweep_cell(const std::string& name, const SweepStep<T>& s) {
  SweepCell cell{"", nullptr, s.launch.threads, {}};
  T* values = s.out.values.data();
  std::size_t* indices = s.out.indices.data();
  if (name[1] == '0' || name[1] == '1' || name[1] == '2') {  // the source's family
    const std::size_t budget =
        name[1] == '2' ? course::max_shared_bytes() : course::kDefaultSharedBytes;
    if (name.back() == '*') cell.threads = threads_that_fit(s.launch.threads, s.k, budget);
    cell.as = {name[1] == '0', false, false};
    const Version<T>& v = versions<T>()[static_cast<std::size_t>(name[1] - '0')];
    Launch at = s.launch;
    at.threads = cell.threads > 0 ? cell.threads : 32;
    cell.why = cell.threads == 0 ? "no threads fit" : v.limit(s.n, s.k, at);
    cell.run = [s, at, v, values, indices] {
      s.ws.launch = at;
      v.run(s.in.data(), s.n, s.k, values, indices, s.ws);
    };
  } else if (name == "v3 rank" || name == "v3 CUB") {
    const SurvivorSort how = name == "v3 rank" ? SurvivorSort::automatic : SurvivorSort::cub;
    cell.why = name == "v3 rank" && s.k > kRankSortMaxK ? "rank sort: k <= 4096" : "";
    cell.run = [s, how, values, indices] {
      top_k_radix_select(s.in.data(), s.n, s.k, values, indices, s.ws, how);
    };
  } else if (name == "v4") {
    cell.why = v4_limit(s.n, s.k, s.launch);
    cell.run = [s, values, indices] { top_k_v4(s.in.data(), s.n, s.k, values, indices, s.ws); };
  } else {
    cell.why = s.n <= kLibraryMaxN ? "" : "n >= 2^31";
    cell.as.zeros_equal = true;
    cell.run = [s, values, indices] { s.cub(s.in.data(), s.k, values, indices); };
  }
  return cell;
}

// The source's answer at k: the k largest distinct keys (`distinct`: every distinct key, largest
// first), padded with the lowest key when there are fewer.
template <typename T>
std::vector<T> distinct_top_k(const std::vector<Key>& distinct, std::size_t k) {
  std::vector<Key> first(distinct.begin(), distinct.begin() + std::min(k, distinct.size()));
  first.resize(k, kLowestKey);
  return values_of<T>(first);
}

// --k-sweep: every version by k, on this input, until its limit or a run of 2 s. Returns whether
// every result matched.
template <typename T>
bool k_sweep(course::Lesson& lesson, const std::vector<T>& in, const course::DeviceBuffer<T>& d_in,
             const Launch& launch, const std::string& csv_path) {
  const int reps = std::min(lesson.reps(), 10);
  const std::size_t n = in.size();
  std::printf(
      "\nk-sweep: median ms by k (- : past the version's limit, or stopped after a run of 2 s);\n"
      "v0 and v2 at --threads %d, and v0* and v2* at the most threads (a power of two) whose lists "
      "fit:\nstatic 48 KiB for v0, %zu KiB opted in for v2\n%6s",
      launch.threads, course::max_shared_bytes() / 1024, "k");
  for (const char* name : kSweepColumns)
    std::printf(" %12s", name);
  std::printf("\n");
  std::string csv = "k,version,threads,median_ms,check\n";
  std::vector<bool> on(std::size(kSweepColumns), true);
  bool all_ok = true;
  std::vector<Key> distinct = keys_of(in);
  std::sort(distinct.begin(), distinct.end(), std::greater<Key>());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  CubTopK<T> cub(n <= kLibraryMaxN ? n : 0);
  for (const std::size_t k : kSweepKs) {
    if (k > n) break;
    const std::vector<T> top = reference_top_k(in, k);
    const std::vector<T> top_distinct = distinct_top_k<T>(distinct, k);
    const Expected<T> expected{&top, &top_distinct, &in};
    Output<T> out(k);
    Workspace<T> ws(n, k, launch);
    const SweepStep<T> step{d_in, n, k, launch, out, ws, cub};
    std::printf("%6zu", k);
    for (std::size_t c = 0; c < on.size(); ++c) {
      const SweepCell cell = sweep_cell(kSweepColumns[c], step);
      if (!on[c] || !cell.why.empty()) {
        std::printf(" %12s", "-");
        continue;
      }
      const course::Outcome r = lesson.time(
          {kSweepColumns[c], "", "", cell.run,
           [&] { return check(out.download(), expected, cell.as); }, [&] { out.poison(); }},
          kSweepStopMs, reps);
      all_ok = all_ok && r.mismatch.empty();
      on[c] = r.time.median_ms < kSweepStopMs;
      const char* mark = r.mismatch.empty() ? "" : "!";
      std::printf(" %12s", (course::format("%.4f", r.time.median_ms) + mark).c_str());
      csv += course::format("%zu,%s,%d,%.6f,%s\n", k, kSweepColumns[c], cell.threads,
                            r.time.median_ms, r.mismatch.empty() ? "ok" : "FAIL");
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

// The table's row of `version` if it ran and passed its check, else nullptr.
inline const course::TableRow* checked_row(const course::Lesson& lesson, const char* version) {
  for (const course::TableRow& r : lesson.table().rows()) {
    if (r.version == version && r.check == course::Check::ok) return &r;
  }
  return nullptr;
}

// ---- what v5's filter kept ---------------------------------------------------------------------

// After the table: how many keys v5's last run kept above its sampled threshold, and whether its
// select fell back to the input (the sample misjudged), or why it ran as v3.
inline void print_filter_report(const course::Lesson& lesson, std::size_t n, std::size_t k,
                                const SelectSpace& ws) {
  if (checked_row(lesson, "v5") == nullptr) return;
  const FilterPlan plan = filter_plan(n, k);
  if (plan.rank == 0) {
    std::printf("v5 ran as v3: k = %zu of %zu values is too many for a sampled filter to pay\n\n",
                k, n);
    return;
  }
  const FilterReport got = filter_report(ws);
  std::printf(
      "v5's threshold, the %u-th largest of %u sampled keys, kept %llu of %zu keys (%.3f%%; k = "
      "%zu, room for %llu)%s\n\n",
      plan.rank, kSamples, got.kept, n, 100.0 * static_cast<double>(got.kept) / n, k,
      plan.most_kept,
      got.fell_back ? ": the sample misjudged, and the select read the input as v3 does" : "");
}

// ---- v0 on 32 blocks, and on a managed input just written ---------------------------------------

// v0 on v1's 32 blocks instead of the source's grid of one thread per value, the rest unchanged;
// then v0 with its managed input just written by the CPU, so every page moves on demand. Returns
// whether the first was right.
template <typename T>
bool v0_grid_and_first_touch(course::Lesson& lesson, const std::vector<T>& in, std::size_t k,
                             T* managed_in, Output<T>& out, Workspace<T>& ws,
                             const Expected<T>& expected, bool source_grid) {
  const course::TableRow* v0 = checked_row(lesson, "v0");
  if (v0 == nullptr) return true;
  const std::size_t n = in.size();
  const auto run_v0 = [&] { top_k_v0(managed_in, n, k, out.values.data(), nullptr, ws); };
  bool ok = true;
  if (source_grid) {
    const Launch launch = ws.launch;
    const std::size_t source_blocks = v0_blocks(n, launch);
    ws.launch.blocks = kCourseBlocks;  // v0's lists for fewer blocks fit in its buffer
    const course::Outcome r =
        lesson.time({"v0 on 32 blocks", "", "", run_v0, [&] {
                       return check(out.download(), expected, CheckAs{true, false, false});
                     }});
    ws.launch = launch;
    ok = r.mismatch.empty();
    std::printf(
        "v0 on %d blocks (v1's grid), the rest unchanged: %.4f ms (median of %d), %s; "
        "against %.4f ms on the source's %zu blocks\n",
        kCourseBlocks, r.time.median_ms, r.time.reps, ok ? "ok" : ("FAIL: " + r.mismatch).c_str(),
        v0->time.median_ms, source_blocks);
  }
  course::NvtxRange range("v0 first touch");
  // 3 runs, no warm-up, each after the CPU writes the input again (before the L2 flush: the GPU is
  // idle then, as a CPU access to managed memory needs on some systems), as the table's rows.
  const course::Timing t = lesson.clock().reps(3).warmups(0).time(
      run_v0, [&] { std::memcpy(managed_in, in.data(), n * sizeof(T)); });
  std::printf(
      "v0 with its managed input just written by the CPU: %.4f ms (median of 3), "
      "against %.4f ms once the pages live on the GPU\n",
      t.median_ms, v0->time.median_ms);
  return ok;
}

}  // namespace lesson06
