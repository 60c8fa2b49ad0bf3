// A small command-line parser with one behaviour for every course program:
//   --name value  or  --name=value;  --help prints the usage and exits 0;
//   a wrong, missing or unknown value prints one line, then one pointing at --help, and exits 2.
//
//   std::size_t n = 100 << 20;
//   course::CommandLine cli("lesson01", "Histogram of n random bytes, every version.");
//   cli.number("--n", &n, "bytes to count", 1);
//   course::parse_or_exit(cli, argc, argv);
//
// Counts accept the forms a student reaches for: 1000, 1e7, 100Mi (2^20), 4G (10^9), 2^28,
// 33*2^20, 2^32+7.
#pragma once

#include <sys/resource.h>
#include <unistd.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace course {

// The exit statuses of every course program, GPU or CPU:
constexpr int kExitOk = 0;            // every check passed
constexpr int kExitCheckFailed = 1;   // a check failed (or a CUDA call failed)
constexpr int kExitBadArguments = 2;  // bad arguments, or an n that does not fit in memory
constexpr int kExitNoGpu = 77;  // no usable CUDA GPU: the automake "skipped", which CTest honours

// The place of `name` in `names` (the names of an enum's values, in order, as a flag takes them):
// parse_dist and the like. Throws std::invalid_argument("unknown <what> <name>") when absent.
inline std::size_t index_of(const std::vector<std::string>& names, const std::string& name,
                            const std::string& what) {
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) throw std::invalid_argument("unknown " + what + " " + name);
  return static_cast<std::size_t>(found - names.begin());
}

// A bad command line. what() is the one-line message, without the program's name.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The values of an enum as a flag names them, in the enum's order, each with a few words of help:
// a lesson's inputs, for one. One list gives the flag its words and its help, and a value its name.
//
//   enum class Dist { uniform, same };
//   const course::Names<Dist> dists = {{"uniform", "random bytes"}, {"same", "one value"}};
//   cli.choice("--dist", &dist, dists);   // sets dist from "--dist same"
//   dists.name(Dist::same)                // "same"
// An entry may carry the name it had before, still accepted for a release: with
// {"source", "the book's input", "seed"}, "--dist seed" (old name) reads as "--dist source".
template <typename Enum>
class Names {
 public:
  struct Entry {
    std::string name;
    std::string help;
    std::string old_name = {};
  };
  Names(std::initializer_list<Entry> entries) : entries_(entries) {}

  const std::string& name(Enum value) const {
    return entries_.at(static_cast<std::size_t>(value)).name;
  }
  // Throws std::invalid_argument("unknown <what> <name>") for a name that is not in the list.
  Enum parse(const std::string& name, const std::string& what = "distribution") const {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (!entries_[i].old_name.empty() && entries_[i].old_name == name)
        return static_cast<Enum>(i);
    }
    return static_cast<Enum>(index_of(names(), name, what));
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_)
      out.push_back(e.name);
    return out;
  }
  // Every value, in order: for a test that tries each input.
  std::vector<Enum> all() const {
    std::vector<Enum> out;
    for (std::size_t i = 0; i < entries_.size(); ++i)
      out.push_back(static_cast<Enum>(i));
    return out;
  }
  // "uniform: random bytes; same: one value", and "(old name x)" after an entry that has one
  std::string help() const {
    std::string out;
    for (const Entry& e : entries_) {
      out += (out.empty() ? "" : "; ") + e.name + ": " + e.help;
      if (!e.old_name.empty()) out += " (old name " + e.old_name + ")";
    }
    return out;
  }

 private:
  std::vector<Entry> entries_;
};

namespace detail {

constexpr std::uint64_t kCountMax = std::numeric_limits<std::uint64_t>::max();

inline bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t* out) {
  if (a != 0 && b > kCountMax / a) return false;
  *out = a * b;
  return true;
}

// Recursive-descent parser for: sum := product (('+'|'-') product)*;
// product := power ('*' power)*;  power := number ('^' digits)?;
// number := digits ('e' digits)? (k|M|G|T|Ki|Mi|Gi|Ti)?
class CountParser {
 public:
  explicit CountParser(const std::string& text) : text_(text) {}

  std::uint64_t parse() {
    if (text_.empty()) fail();
    const std::uint64_t value = sum();
    if (pos_ != text_.size()) fail();
    return value;
  }

 private:
  [[noreturn]] void fail() const {
    throw UsageError("'" + text_ +
                     "' is not a count (examples: 1000, 1e7, 100Mi, 4G, 2^28, 33*2^20, 2^32+7)");
  }
  [[noreturn]] void not_whole() const { throw UsageError("'" + text_ + "' is not a whole number"); }
  [[noreturn]] void overflow() const {
    throw UsageError("'" + text_ + "' does not fit in 64 bits");
  }
  bool accept(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::uint64_t digits() {
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') fail();
    std::uint64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const std::uint64_t digit = static_cast<std::uint64_t>(text_[pos_++] - '0');
      if (!checked_mul(value, 10, &value) || value > kCountMax - digit) overflow();
      value += digit;
    }
    return value;
  }
  std::uint64_t power_of(std::uint64_t base, std::uint64_t exponent) {
    std::uint64_t value = 1;
    for (std::uint64_t i = 0; i < exponent; ++i) {
      if (!checked_mul(value, base, &value)) overflow();
    }
    return value;
  }
  // digits ('.' digits)? ('e' digits)?: a decimal point is allowed where the exponent makes the
  // number whole again (1.6e9), and only there.
  std::uint64_t number() {
    std::uint64_t value = digits();
    std::uint64_t places = 0;  // digits after the point
    if (accept('.')) {
      const std::size_t start = pos_;
      const std::uint64_t fraction = digits();
      places = pos_ - start;
      std::uint64_t shifted = 0;
      if (!checked_mul(value, power_of(10, places), &shifted) || shifted > kCountMax - fraction) {
        overflow();
      }
      value = shifted + fraction;
    }
    if (accept('e')) {
      const std::uint64_t exponent = digits();
      if (exponent >= places) {
        if (!checked_mul(value, power_of(10, exponent - places), &value)) overflow();
        places = 0;
      } else {
        const std::uint64_t rest = power_of(10, places - exponent);
        if (value % rest != 0) not_whole();
        value /= rest;
        places = 0;
      }
    }
    if (places > 0) {
      const std::uint64_t rest = power_of(10, places);
      if (value % rest != 0) not_whole();
      value /= rest;
    }
    std::uint64_t unit = 1;
    const std::string units = "kMGT";  // K is accepted for k, as in "1Ki"
    const char c = pos_ < text_.size() ? (text_[pos_] == 'K' ? 'k' : text_[pos_]) : '\0';
    if (c != '\0' && units.find(c) != std::string::npos) {
      ++pos_;
      const std::uint64_t rank = units.find(c) + 1;
      unit = accept('i') ? power_of(1024, rank) : power_of(1000, rank);
    }
    if (!checked_mul(value, unit, &value)) overflow();
    return value;
  }
  std::uint64_t power() {
    const std::uint64_t base = number();
    return accept('^') ? power_of(base, digits()) : base;
  }
  std::uint64_t product() {
    std::uint64_t value = power();
    while (accept('*')) {
      if (!checked_mul(value, power(), &value)) overflow();
    }
    return value;
  }
  std::uint64_t sum() {
    std::uint64_t value = product();
    for (;;) {
      if (accept('+')) {
        const std::uint64_t term = product();
        if (value > kCountMax - term) overflow();
        value += term;
      } else if (accept('-')) {
        const std::uint64_t term = product();
        if (term > value) throw UsageError("'" + text_ + "' is negative");
        value -= term;
      } else {
        return value;
      }
    }
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace detail

// Parses a non-negative count: 1000, 1e7, 100Mi, 4G, 2^28, 33*2^20, 2^32+7. Throws UsageError.
inline std::uint64_t parse_count(const std::string& text) {
  return detail::CountParser(text).parse();
}

class CommandLine {
 public:
  CommandLine(std::string program, std::string summary)
      : program_(std::move(program)), summary_(std::move(summary)) {}

  const std::string& program() const { return program_; }

  // For a program that never uses a GPU (the lessons' _cpu programs): its help does not promise
  // exit status 77.
  CommandLine& cpu_only() {
    uses_gpu_ = false;
    return *this;
  }

  // A whole number in [min, max], written in any form parse_count accepts.
  template <typename Int>
  CommandLine& number(const std::string& name, Int* target, const std::string& help,
                      Int min = std::numeric_limits<Int>::min(),
                      Int max = std::numeric_limits<Int>::max()) {
    static_assert(std::is_integral<Int>::value, "number() takes an integer target");
    const std::string range =
        "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    add(name, "N", help, std::to_string(*target), [=](const std::string& text) {
      const std::uint64_t value = parse_count(text);
      if (value > static_cast<std::uint64_t>(max)) {
        // The number is fine; its size is not: say so, with the largest allowed.
        throw UsageError(name + " " + text + " is too large: the most is " + std::to_string(max) +
                         " (" + range + ")");
      }
      if (min > 0 && value < static_cast<std::uint64_t>(min)) {
        throw UsageError(name + " must be " + range + ", not " + text);
      }
      *target = static_cast<Int>(value);
    });
    return *this;
  }

  // A real number in [min, max], such as 0.5 or 1e-3.
  CommandLine& real(const std::string& name, double* target, const std::string& help, double min,
                    double max) {
    char shown[64];
    std::snprintf(shown, sizeof shown, "%g", *target);
    char range[96];
    std::snprintf(range, sizeof range, "a number from %g to %g", min, max);
    add(name, "X", help, shown, [=](const std::string& text) {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !(value >= min && value <= max)) {
        throw UsageError(name + " must be " + range + ", not '" + text + "'");
      }
      *target = value;
    });
    return *this;
  }

  // One of a fixed set of words.
  CommandLine& choice(const std::string& name, std::string* target,
                      std::vector<std::string> choices, const std::string& help) {
    std::string joined;
    for (const auto& c : choices)
      joined += (joined.empty() ? "" : "|") + c;
    add(name, joined, help, *target, [=](const std::string& text) {
      for (const auto& c : choices) {
        if (text == c) {
          *target = text;
          return;
        }
      }
      throw UsageError(name + " must be one of " + joined + ", not '" + text + "'");
    });
    return *this;
  }

  // One of an enum's named values (see Names); the help lists each with its own.
  template <typename Enum>
  CommandLine& choice(const std::string& name, Enum* target, const Names<Enum>& names,
                      const std::string& lead = "") {
    std::string joined;
    for (const auto& c : names.names())
      joined += (joined.empty() ? "" : "|") + c;
    add(name, joined, lead + names.help(), names.name(*target), [=](const std::string& text) {
      try {
        *target = names.parse(text);
      } catch (const std::invalid_argument&) {
        throw UsageError(name + " must be one of " + joined + ", not '" + text + "'");
      }
    });
    return *this;
  }

  // Free text, such as a file name.
  CommandLine& text(const std::string& name, std::string* target, const std::string& value_name,
                    const std::string& help) {
    add(name, value_name, help, *target, [=](const std::string& text) {
      if (text.empty()) throw UsageError(name + " needs a non-empty " + value_name);
      *target = text;
    });
    return *this;
  }

  // A switch without a value.
  CommandLine& flag(const std::string& name, bool* target, const std::string& help) {
    options_.push_back({name, "", help, "", nullptr, target});
    return *this;
  }

  // An option's name before it was renamed, still accepted for a release: old_name("--a", "--b")
  // reads --a as --b (declared before this call). The help lists it as "(old name)".
  CommandLine& old_name(const std::string& old, const std::string& name) {
    old_names_.emplace_back(old, name);
    return *this;
  }

  // Parses argv[1..]. Throws UsageError on anything it does not accept. Returns false when
  // --help was given (nothing else is then checked).
  bool parse(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") return false;
    }
    for (Option& o : options_)
      o.seen = false;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      std::string value;
      bool has_value = false;
      const std::size_t eq = arg.find('=');
      if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_value = true;
      }
      Option* option = find(arg);
      if (option == nullptr) {
        throw UsageError(arg.rfind("-", 0) == 0 ? "unknown option " + arg
                                                : "unexpected argument '" + arg + "'");
      }
      if (option->seen) throw UsageError(arg + " is given twice");
      option->seen = true;
      if (option->flag != nullptr) {
        if (has_value) throw UsageError(arg + " takes no value");
        *option->flag = true;
        continue;
      }
      if (!has_value) {
        if (i + 1 >= argc) throw UsageError(arg + " needs a value (" + option->value_name + ")");
        value = argv[++i];
      }
      try {
        option->set(value);
      } catch (const UsageError& e) {
        const std::string message = e.what();
        throw UsageError(message.rfind(arg, 0) == 0 ? message : arg + ": " + message);
      }
    }
    return true;
  }

  std::string usage() const {
    std::string out = "usage: " + program_ + " [options]\n  " + summary_ + "\n\noptions:\n";
    std::vector<std::pair<std::string, std::string>> lines;
    std::size_t width = 0;
    for (const auto& o : options_) {
      std::string left = o.name + (o.value_name.empty() ? "" : " " + o.value_name);
      std::string right = o.help;
      if (o.flag == nullptr && !o.default_text.empty())
        right += " (default " + o.default_text + ")";
      width = std::max(width, left.size());
      lines.emplace_back(left, right);
    }
    for (const auto& [old, name] : old_names_) {
      width = std::max(width, old.size());
      lines.emplace_back(old, "(old name) the same as " + name);
    }
    lines.emplace_back("--help", "print this help and exit");
    for (const auto& [left, right] : lines) {
      out +=
          "  " + left + std::string(width + 2 - std::min(width, left.size()), ' ') + right + "\n";
    }
    out +=
        "\nCounts may be written 1000, 1e7, 100Mi (x2^20), 4G (x10^9), 2^28, 33*2^20 or 2^32+7.\n"
        "Exit status: 0 all checks passed, 1 a check failed, 2 bad arguments";
    out += uses_gpu_ ? ", 77 no CUDA GPU.\n" : ".\n";
    return out;
  }

 private:
  struct Option {
    std::string name;
    std::string value_name;
    std::string help;
    std::string default_text;
    std::function<void(const std::string&)> set;
    bool* flag;
    bool seen = false;
  };

  void add(const std::string& name, const std::string& value_name, const std::string& help,
           const std::string& default_text, std::function<void(const std::string&)> set) {
    options_.push_back({name, value_name, help, default_text, std::move(set), nullptr});
  }
  Option* find(const std::string& name) {
    for (const auto& [old, renamed] : old_names_) {
      if (old == name) return find(renamed);
    }
    for (auto& o : options_) {
      if (o.name == name) return &o;
    }
    return nullptr;
  }

  std::string program_;
  std::string summary_;
  std::vector<Option> options_;
  std::vector<std::pair<std::string, std::string>> old_names_;
  bool uses_gpu_ = true;
};

// The --only flag of a lesson program: the versions to run, by name, comma-separated ("v0,v3,CUB");
// empty, every version. (A second operation of a version, such as lesson 04's "v4 find", is chosen
// by its version's name: the driver asks for that name, course::Version's `of`.)
class VersionFilter {
 public:
  explicit VersionFilter(const std::string& list) {
    std::size_t start = 0;
    while (start < list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) names_.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  bool chosen(const std::string& name) const {
    return names_.empty() || std::find(names_.begin(), names_.end(), name) != names_.end();
  }
  // The first name that is not in `known`; "" when there is none.
  std::string unknown(const std::vector<std::string>& known) const {
    for (const std::string& name : names_) {
      if (std::find(known.begin(), known.end(), name) == known.end()) return name;
    }
    return "";
  }

 private:
  std::vector<std::string> names_;
};

// Prints "<program>: error: <what>" and a line pointing at --help (not the usage itself, which
// buried the one line that matters) to stderr, and exits 2: for a check of the arguments that
// parse() cannot make alone (two flags that must agree, say).
[[noreturn]] inline void usage_error(const CommandLine& cli, const std::string& what) {
  std::fprintf(stderr, "%s: error: %s\n%s --help lists the options\n", cli.program().c_str(),
               what.c_str(), cli.program().c_str());
  std::exit(kExitBadArguments);
}

// Parses, or on --help prints the usage and exits 0, or on a bad command line prints
// "<program>: error: <what>" and the line pointing at --help to stderr and exits 2.
inline void parse_or_exit(CommandLine& cli, int argc, const char* const* argv) {
  try {
    if (!cli.parse(argc, argv)) {
      std::fputs(cli.usage().c_str(), stdout);
      std::exit(0);
    }
  } catch (const UsageError& e) {
    usage_error(cli, e.what());
  }
}

// For a count that must lie from `min` to another flag's value, checked once both are parsed
// (whichever came first): "" when `value` does, else the line that says so with that value,
// "--k must be a whole number from 1 to n (n = 1000), not 0".
inline std::string range_error(const std::string& flag, std::uint64_t value, std::uint64_t min,
                               const std::string& max_name, std::uint64_t max) {
  if (value >= min && value <= max) return "";
  return flag + " must be a whole number from " + std::to_string(min) + " to " + max_name + " (" +
         max_name + " = " + std::to_string(max) + "), not " + std::to_string(value);
}

// The random inputs' seed when --seed is not given: one default for every program of the course.
constexpr std::uint64_t kDefaultSeed = 2024;

// The flags every lesson program shares, the GPU driver's (lesson.cuh) and the CPU programs'
// (cpu.cpp), added to `cli` in this order: --n (`n_help` says what it counts, from 1 to `max_n`),
// --seed and --reps (from 1 to `max_reps`). Their defaults are the values the pointers hold.
inline CommandLine& add_standard_flags(
    CommandLine& cli, std::size_t* n, std::uint64_t* seed, int* reps, const std::string& n_help,
    std::size_t max_n = std::numeric_limits<std::size_t>::max(),
    const std::string& reps_help = "timed runs per version; the median is reported",
    int max_reps = 10000) {
  return cli.number("--n", n, n_help, std::size_t{1}, max_n)
      .number("--seed", seed, "seed of the random input")
      .number("--reps", reps, reps_help, 1, max_reps);
}

// Before any work: exits 2 with one line when `path` (the value of `flag`; "" when not given)
// cannot be written. An existing file is left as it is; a file this made is removed again.
inline void require_writable(const CommandLine& cli, const std::string& flag,
                             const std::string& path) {
  if (path.empty()) return;
  const bool existed = static_cast<bool>(std::ifstream(path));
  const bool writable = static_cast<bool>(std::ofstream(path, std::ios::app));
  if (!writable) usage_error(cli, flag + ": cannot write " + path);
  if (!existed) std::remove(path.c_str());
}

// How much host memory a run may hold, and what sets that figure: the least of the machine's
// physical memory, the address-space limit (ulimit -v, RLIMIT_AS) and the memory limit of the
// cgroup the program runs in (a container's). COURSE_HOST_MEMORY, a count such as 1Gi, stands in
// for all of them, so that a test can see a program refuse a size without that much memory.
struct HostMemory {
  double bytes = 0;  // 0: unknown
  std::string what;  // "the machine's physical memory", "the address-space limit (ulimit -v)", ...
};

namespace detail {
// A cgroup's memory limit in bytes, from `path` ("max", or a file that is not there: none).
inline double cgroup_limit(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return 0;
  const double value = std::strtod(word.c_str(), nullptr);
  return value > 0 && value < 1e18 ? value : 0;  // cgroup v1 writes a huge number for "none"
}
}  // namespace detail

inline HostMemory host_memory() {
  if (const char* given = std::getenv("COURSE_HOST_MEMORY")) {
    return {static_cast<double>(parse_count(given)), "COURSE_HOST_MEMORY"};
  }
  HostMemory least;
  auto consider = [&least](double bytes, const char* what) {
    if (bytes > 0 && (least.bytes == 0 || bytes < least.bytes)) least = {bytes, what};
  };
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    consider(static_cast<double>(pages) * static_cast<double>(page_size),
             "the machine's physical memory");
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    consider(static_cast<double>(limit.rlim_cur), "the address-space limit (ulimit -v)");
  }
  consider(detail::cgroup_limit("/sys/fs/cgroup/memory.max"), "the cgroup's memory limit");
  consider(detail::cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
           "the cgroup's memory limit");
  return least;
}

// The host memory a run may hold, in bytes (0 when unknown): host_memory()'s figure.
inline double host_memory_bytes() {
  return host_memory().bytes;
}

// Exits 2 with one line: `what` (the cause, such as "--n 1000000000") needs `needed` bytes of
// `where` ("host", "GPU") memory, and `limit` (what the figure is: "the GPU's free memory", "the
// address-space limit (ulimit -v)") is only `available`, of which a run may use the fraction
// `share` (below 1, the line says how much that is, and that the rest is kept back).
[[noreturn]] inline void refuse_memory(const std::string& program, const std::string& what,
                                       const char* where, double needed, double available,
                                       const std::string& limit = "", double share = 1.0) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const std::string named = limit.empty() ? std::string(where) + " memory available" : limit;
  char kept[128] = "";
  if (share < 1.0) {
    std::snprintf(kept, sizeof kept,
                  ", of which a run may use %.0f%% (%.2f GiB): %.0f%% is kept back for the system",
                  100.0 * share, share * available / gib, 100.0 * (1.0 - share));
  }
  std::fprintf(stderr, "%s: error: %s needs %.2f GiB of %s memory; %s is %.2f GiB%s\n",
               program.c_str(), what.c_str(), needed / gib, where, named.c_str(), available / gib,
               kept);
  std::exit(kExitBadArguments);
}

// The share of host_memory() one run may hold: the rest is kept back for the system and the
// programs beside it.
constexpr double kHostMemoryShare = 0.8;

// Before any work: refuses (refuse_memory) a run that holds `bytes` of host memory at once (its
// estimate: inputs, copies, the library's and the standard containers' own memory) when that
// would pass kHostMemoryShare (80%) of what host_memory() allows. The lessons' GPU and CPU
// programs both ask here.
inline void require_host_memory(const std::string& program, const std::string& what, double bytes) {
  const HostMemory host = host_memory();
  if (host.bytes > 0 && bytes > kHostMemoryShare * host.bytes) {
    refuse_memory(program, what, "host", bytes, host.bytes, host.what, kHostMemoryShare);
  }
}

// The command as typed, with the program's short name first: "lesson01 --n 1Gi --dist same". The
// CSVs record it, so every table says which command produced it.
inline std::string command_text(const std::string& program, int argc, const char* const* argv) {
  std::string command = program;
  for (int i = 1; i < argc; ++i)
    command += std::string(" ") + argv[i];
  return command;
}

// Runs a program's body and turns the errors it throws into one line and an exit status, so a
// student never sees "terminate called after throwing an instance of std::bad_alloc".
template <typename Body>
int run_program(const std::string& program, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: not enough host memory for this --n\n", program.c_str());
    return kExitBadArguments;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), e.what());
    return kExitCheckFailed;
  }
}

}  // namespace course
