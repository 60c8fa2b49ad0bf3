// The result table every lesson prints, and its CSV twin (docs/results and the charts read it).
// The driver (lesson.cuh) fills it; by hand it reads:
//
//   course::ResultTable table("uniform bytes, n = 104857600", copy_gbps, cpu_ms, "16 threads");
//   table.add_checked("v1", "shared-memory histogram per block", timing, bytes_moved, mismatch);
//   std::fputs(table.text().c_str(), stdout);
//   table.write_csv("out.csv", {{"lesson", "01"}, {"dist", "uniform"}});
//
// Columns: version, idea, median ms, effective GB/s (the bytes the problem must move over the
// median time), % of the measured device-to-device copy bandwidth, speedup over the CPU, check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bits.hpp"
#include "format.hpp"
#include "kind.hpp"
#include "timing.hpp"

namespace course {

enum class Check { ok, fail, skipped };

inline const char* check_name(Check c) {
  switch (c) {
    case Check::ok:
      return "ok";
    case Check::fail:
      return "FAIL";
    case Check::skipped:
      return "skipped";
  }
  return "?";
}

struct TableRow {
  std::string version;  // "v3", "CUB"
  std::string idea;     // the one idea of the version, in a few words
  Timing time;
  double bytes = 0.0;  // bytes the problem must move (read + written), for GB/s
  Check check = Check::ok;
  std::string note;          // why a row was skipped or failed; printed under the table
  Kind kind = Kind::course;  // whose it is (kind.hpp)
  std::string of = {};       // "" or, for a second operation ("v4 find"), its version ("v4")
};

using CsvContext = std::vector<std::pair<std::string, std::string>>;

class ResultTable {
 public:
  ResultTable(std::string title, double copy_gbps, double cpu_ms, std::string cpu_name)
      : title_(std::move(title)),
        copy_gbps_(copy_gbps),
        cpu_ms_(cpu_ms),
        cpu_name_(std::move(cpu_name)) {}

  // Each returns the row, for its kind and its `of` to be set.
  TableRow& add(TableRow row) {
    rows_.push_back(std::move(row));
    return rows_.back();
  }
  // A row that a check judged: ok when `mismatch` is "" (with `note`), else FAIL with the mismatch
  // as its note.
  TableRow& add_checked(std::string version, std::string idea, const Timing& time, double bytes,
                        const std::string& mismatch, std::string note = "") {
    const bool ok = mismatch.empty();
    return add({std::move(version), std::move(idea), time, bytes, ok ? Check::ok : Check::fail,
                ok ? std::move(note) : mismatch});
  }
  // A row for a version that did not run, and why not.
  TableRow& add_skipped(std::string version, std::string idea, double bytes,
                        const std::string& why) {
    return add({std::move(version), std::move(idea), {}, bytes, Check::skipped, "skipped: " + why});
  }
  const std::vector<TableRow>& rows() const { return rows_; }

  bool any_failed() const {
    for (const auto& r : rows_) {
      if (r.check == Check::fail) return true;
    }
    return false;
  }

  static double gbps(const TableRow& r) { return r.bytes / (r.time.median_ms * 1e6); }
  double percent_of_copy(const TableRow& r) const { return 100.0 * gbps(r) / copy_gbps_; }
  double speedup(const TableRow& r) const { return cpu_ms_ / r.time.median_ms; }

  std::string text() const {
    std::size_t idea_width = 4;
    for (const auto& r : rows_)
      idea_width = std::max(idea_width, r.idea.size());
    std::string out = title_ + "\n";
    out += format("%-8s %-*s %10s %9s %7s %9s  %s\n", "version", static_cast<int>(idea_width),
                  "idea", "median ms", "GB/s", "% copy", "vs CPU", "check");
    for (const auto& r : rows_) {
      if (r.check == Check::skipped) {
        out += format("%-8s %-*s %10s %9s %7s %9s  %s\n", r.version.c_str(),
                      static_cast<int>(idea_width), r.idea.c_str(), "-", "-", "-", "-", "skipped");
        continue;
      }
      out += format("%-8s %-*s %10.4f %9.1f %6.1f%% %8.1fx  %s\n", r.version.c_str(),
                    static_cast<int>(idea_width), r.idea.c_str(), r.time.median_ms, gbps(r),
                    percent_of_copy(r), speedup(r), check_name(r.check));
    }
    out += format("100%% = %.1f GB/s device-to-device copy; vs CPU = against %s, %.3f ms\n",
                  copy_gbps_, cpu_name_.c_str(), cpu_ms_);
    for (const auto& r : rows_) {
      if (!r.note.empty()) out += "  " + r.version + ": " + r.note + "\n";
    }
    return out;
  }

  // One line per row; `context` columns (lesson, device, n, ...) come first on every line.
  std::string csv(const CsvContext& context) const {
    std::string out;
    for (const auto& [key, value] : context)
      out += quote(key) + ",";
    out +=
        "version,idea,median_ms,min_ms,max_ms,reps,bytes,gbps,pct_copy,copy_gbps,cpu,cpu_ms,"
        "speedup_vs_cpu,check,note\n";
    for (const auto& r : rows_) {
      for (const auto& [key, value] : context)
        out += quote(value) + ",";
      const bool ran = r.check != Check::skipped;
      out += quote(r.version) + "," + quote(r.idea) + ",";
      out += ran ? format("%.6f,%.6f,%.6f,%d,%.0f,%.3f,%.3f,", r.time.median_ms, r.time.min_ms,
                          r.time.max_ms, r.time.reps, r.bytes, gbps(r), percent_of_copy(r))
                 : format(",,,0,%.0f,,,", r.bytes);
      out += format("%.3f,", copy_gbps_) + quote(cpu_name_) + format(",%.6f,", cpu_ms_);
      out += ran ? format("%.3f,", speedup(r)) : std::string(",");
      out += std::string(check_name(r.check)) + "," + quote(r.note) + "\n";
    }
    return out;
  }

  // Writes csv(context) to `path`; throws std::runtime_error if it cannot.
  void write_csv(const std::string& path, const CsvContext& context) const {
    std::ofstream file(path);
    if (!file) throw std::runtime_error("cannot write " + path);
    file << csv(context);
    if (!file) throw std::runtime_error("error while writing " + path);
  }

 private:
  static std::string quote(const std::string& field) {
    if (field.find_first_of(",\"\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field)
      out += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  }

  std::string title_;
  double copy_gbps_;
  double cpu_ms_;
  std::string cpu_name_;
  std::vector<TableRow> rows_;
};

// The line under a lesson's table: its fastest checked version (the source's or the course's),
// against the CPU (`cpu` names it, and cpu_ms is its time), the table's first row of the source
// (when it passed) and every checked library row. "" when no version passed. A second operation
// of a version (a row with `of`, such as "v4 find") is left out: only the first operation (lesson
// 04's insert) is compared.
//   best version v7, 0.0100 ms: 3.2x std::sort's speed, 14.2x v0's, 2.18x Thrust's, 1.14x CUB's
inline std::string best_version_line(const ResultTable& table, double cpu_ms,
                                     const std::string& cpu) {
  const TableRow* best = nullptr;
  const TableRow* source = nullptr;
  bool seen_source = false;
  for (const TableRow& r : table.rows()) {
    if (!r.of.empty()) continue;
    if (r.kind == Kind::source && !seen_source) {
      seen_source = true;
      if (r.check == Check::ok) source = &r;
    }
    if (r.check != Check::ok) continue;
    if (r.kind != Kind::library && (best == nullptr || r.time.median_ms < best->time.median_ms)) {
      best = &r;
    }
  }
  if (best == nullptr) return "";
  std::string line = format("best version %s, %.4f ms: %.1fx %s's speed", best->version.c_str(),
                            best->time.median_ms, cpu_ms / best->time.median_ms, cpu.c_str());
  if (source != nullptr) {
    line += format(", %.1fx %s's", source->time.median_ms / best->time.median_ms,
                   source->version.c_str());
  }
  for (const TableRow& r : table.rows()) {
    if (r.kind == Kind::library && r.check == Check::ok && r.of.empty()) {
      line += format(", %.2fx %s's", r.time.median_ms / best->time.median_ms, r.version.c_str());
    }
  }
  return line;
}

}  // namespace course
