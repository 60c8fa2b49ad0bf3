// The repository's shape, checked on every build: each lessons/NN_* folder has the files and
// write-up sections of the lesson contract (docs/authoring.md), and its exercises/ and solutions/
// twins; lessons reach each other only through their CMake targets, as they declare (USES); every
// lesson has one shape (kernels/ and kernels.cuh, short headers, a short main.cu); and common/
// includes nothing from bench/ or lessons/.
// A half-built lesson fails here, on the CPU, before anyone runs it.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "testing.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Markdown headings of a file, lower-cased.
std::vector<std::string> headings(const std::string& markdown) {
  std::vector<std::string> out;
  std::istringstream lines(markdown);
  std::string line;
  bool in_code = false;
  while (std::getline(lines, line)) {
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    if (!in_code && line.rfind("#", 0) == 0) out.push_back(lower(line));
  }
  return out;
}

// Everything the contract asks of the lessons under `root`; empty when all is in place.
std::vector<std::string> contract_problems(const fs::path& root) {
  const std::vector<std::string> lesson_files = {
      "README.md",     "part_b.md", "appendix.md",  "main.cu",        "cpu.cpp",    "kernels.cuh",
      "reference.hpp", "test.cu",   "exercises.md", "CMakeLists.txt", "lesson.json"};
  // The write-up's sections, each found by a phrase of its heading in part A (README.md) or part
  // B (part_b.md) (docs/authoring.md, "The write-up"; scripts/check_writeups.py checks the rest).
  const std::vector<std::vector<std::string>> sections = {{"what you will learn"},
                                                          {"the problem"},
                                                          {"version 0", "v0"},
                                                          {"results"},
                                                          {"pitfalls"},
                                                          {"modern gpu"},
                                                          {"profile it yourself"},
                                                          {"exercises"},
                                                          {"further reading"}};

  std::vector<std::string> problems;
  std::vector<fs::path> lessons;
  if (fs::is_directory(root / "lessons")) {
    for (const auto& entry : fs::directory_iterator(root / "lessons")) {
      const std::string name = entry.path().filename().string();
      if (entry.is_directory() && name.size() > 3 && std::isdigit(name[0]) &&
          std::isdigit(name[1]) && name[2] == '_') {
        lessons.push_back(entry.path());
      }
    }
  }
  std::sort(lessons.begin(), lessons.end());
  for (const fs::path& lesson : lessons) {
    const std::string name = lesson.filename().string();
    for (const std::string& file : lesson_files) {
      if (!fs::is_regular_file(lesson / file)) problems.push_back(name + ": no " + file);
    }
    if (fs::is_regular_file(lesson / "README.md")) {
      std::vector<std::string> found = headings(read_file(lesson / "README.md"));
      if (fs::is_regular_file(lesson / "part_b.md")) {
        const std::vector<std::string> b = headings(read_file(lesson / "part_b.md"));
        found.insert(found.end(), b.begin(), b.end());
      }
      for (const auto& phrases : sections) {
        const bool present = std::any_of(found.begin(), found.end(), [&](const std::string& h) {
          return std::any_of(phrases.begin(), phrases.end(),
                             [&](const std::string& p) { return h.find(p) != std::string::npos; });
        });
        if (!present) {
          problems.push_back(name + ": neither README.md nor part_b.md has a '" + phrases[0] +
                             "' section");
        }
      }
    }
    if (fs::is_regular_file(lesson / "main.cu")) {
      const std::string head = read_file(lesson / "main.cu").substr(0, 600);
      if (head.find("nvcc ") == std::string::npos) {
        problems.push_back(name + ": main.cu's first comment does not give its nvcc line");
      }
    }
    if (!fs::is_directory(root / "exercises" / name) || fs::is_empty(root / "exercises" / name)) {
      problems.push_back(name + ": no exercises/" + name + "/");
    }
    // A handout for students leaves solutions/ out on purpose (docs/instructors.md).
    if (fs::is_directory(root / "solutions") &&
        !fs::is_regular_file(root / "solutions" / name / "ANSWERS.md")) {
      problems.push_back(name + ": no solutions/" + name + "/ANSWERS.md");
    }
  }
  return problems;
}

// A manifest's string or whole-number field ("key": "value", "key": 12), or "" where it has none.
std::string manifest_field(const std::string& json, const std::string& key) {
  std::smatch m;
  const std::regex field("\"" + key + R"re("\s*:\s*(?:"([^"]*)"|(-?[0-9.]+)))re");
  if (!std::regex_search(json, m, field)) return "";
  return m[1].matched ? m[1].str() : m[2].str();
}

// Everything a graded exercise needs (docs/instructors.md, "Adding an exercise"), for every
// manifest grading/NN_topic/<name>/exercise.json of a lesson under `root` (which its CMakeLists.txt
// must read, course_add_exercises(NN_topic); the manifest's lesson, name and file its folder's,
// its compiled-code spec there): the student's file and its solution, the tests and the harness, at
// least two wrong answers (solutions/NN_topic/wrong/<name>/) that each say how they must score
// zero, and a mention in the lesson's exercises.md. Across all exercises, the wrong answers must
// include one the answer check refuses and one that never finishes. A handout without solutions/
// has no wrong answers either.
std::vector<std::string> exercise_problems(const fs::path& root) {
  std::vector<std::string> problems;
  // The kinds course_add_exercise knows (cmake/CourseExercise.cmake), preprocessed:, compiled:,
  // objects:, fails when timed: and slow among them.
  const std::regex expect(
      R"(^// expect: (rejected: .+|preprocessed: .+|fails: .+|fails when timed: .+|hangs|compiled: .+|objects: .+|slow)$)");
  int refused = 0;
  int hung = 0;
  if (!fs::is_directory(root / "lessons")) return problems;
  const bool has_solutions = fs::is_directory(root / "solutions");
  std::set<std::string> starters;
  std::vector<fs::path> lists;
  for (const auto& entry : fs::directory_iterator(root / "lessons")) {
    if (fs::is_regular_file(entry.path() / "CMakeLists.txt")) {
      lists.push_back(entry.path() / "CMakeLists.txt");
    }
  }
  std::sort(lists.begin(), lists.end());
  for (const fs::path& list : lists) {
    const std::string lesson = list.parent_path().filename().string();
    std::vector<fs::path> manifests;
    if (fs::is_directory(root / "grading" / lesson)) {
      for (const auto& entry : fs::directory_iterator(root / "grading" / lesson)) {
        if (fs::is_regular_file(entry.path() / "exercise.json")) {
          manifests.push_back(entry.path() / "exercise.json");
        }
      }
    }
    std::sort(manifests.begin(), manifests.end());
    const std::string text = std::regex_replace(read_file(list), std::regex("#[^\n]*"), "");
    if (!manifests.empty() &&
        text.find("course_add_exercises(" + lesson + ")") == std::string::npos) {
      problems.push_back(lesson + ": grading/" + lesson + "/ has exercise manifests, but its " +
                         "CMakeLists.txt does not read them (course_add_exercises(" + lesson +
                         "))");
    }
    for (const fs::path& manifest : manifests) {
      const std::string json = read_file(manifest);
      const std::string name = manifest.parent_path().filename().string();
      const std::string number = manifest_field(json, "number");
      const std::string id = lesson.substr(0, 2) + "/" + number + " " + name;
      const fs::path grading = manifest.parent_path();
      if (manifest_field(json, "lesson") != lesson || manifest_field(json, "name") != name ||
          manifest_field(json, "file") != name + ".cuh" ||
          !std::regex_match(number, std::regex("[1-9][0-9]*"))) {
        problems.push_back(id + ": exercise.json's lesson, name, file or number is not its " +
                           "folder's (" + lesson + ", " + name + ", " + name + ".cuh, a number)");
      }
      const std::string compiled = manifest_field(json, "compiled");
      if (!compiled.empty() && !fs::is_regular_file(grading / compiled)) {
        problems.push_back(id + ": no compiled-code spec " + compiled + " beside exercise.json");
      }
      starters.insert("exercises/" + lesson + "/" + name + ".cuh");
      for (const fs::path& file :
           {root / "exercises" / lesson / (name + ".cuh"), grading / ("test_" + name + ".cu"),
            grading / (name + "_harness.cu"), grading / (name + "_harness.hpp")}) {
        if (!fs::is_regular_file(file)) problems.push_back(id + ": no " + file.string());
      }
      if (fs::is_directory(root / "solutions") &&
          !fs::is_regular_file(root / "solutions" / lesson / (name + ".cuh"))) {
        problems.push_back(id + ": no solution");
      }
      int wrong = 0;
      const fs::path wrong_dir = root / "solutions" / lesson / "wrong" / name;
      if (fs::is_directory(wrong_dir)) {
        for (const auto& answer : fs::directory_iterator(wrong_dir)) {
          if (answer.path().extension() != ".cuh") continue;
          ++wrong;
          std::istringstream lines(read_file(answer.path()));
          std::string line;
          bool said = false;
          while (std::getline(lines, line)) {
            std::smatch how;
            if (std::regex_match(line, how, expect)) {
              said = true;
              refused += how[1].str().rfind("rejected", 0) == 0;
              hung += how[1].str() == "hangs";
            }
          }
          if (!said) {
            problems.push_back(id + ": " + answer.path().filename().string() +
                               " does not say how it must score zero (// expect: ...)");
          }
        }
      }
      // The wrong answers sit beside the solutions (solutions/NN_topic/wrong/<name>/), and leave
      // a handout with them.
      if (has_solutions && wrong < 2) problems.push_back(id + ": fewer than two wrong answers");
      const fs::path statement = list.parent_path() / "exercises.md";
      if (!fs::is_regular_file(statement) ||
          read_file(statement).find(name + ".cuh") == std::string::npos) {
        problems.push_back(id + ": exercises.md does not state it (no " + name + ".cuh)");
      }
    }
  }
  // The handout holds the starters and nothing else: the grading lives in grading/NN_topic/, the
  // wrong answers beside the solutions.
  if (fs::is_directory(root / "exercises")) {
    for (const auto& entry : fs::recursive_directory_iterator(root / "exercises")) {
      const std::string rel = entry.path().lexically_relative(root).generic_string();
      if (entry.is_directory() && entry.path().parent_path() != root / "exercises") {
        problems.push_back(rel +
                           ": a folder in a lesson's exercises/ (only starters belong there)");
      } else if (entry.is_regular_file() && starters.count(rel) == 0) {
        problems.push_back(rel +
                           ": not a registered exercise's starter (only starters belong in "
                           "exercises/)");
      }
    }
  }
  if (has_solutions && refused == 0) {
    problems.push_back("no wrong answer that the answer check refuses");
  }
  if (has_solutions && hung == 0) problems.push_back("no wrong answer that never finishes");
  return problems;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines)
    out += line + "\n";
  return out;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// An empty folder under the system's temporary folder, named `prefix` and a number drawn from the
// run's seed, for a check to be tried on a repository made up on the spot.
fs::path scratch_root(const std::string& prefix) {
  std::mt19937_64 rng(course::test::seed());
  const fs::path root = fs::temp_directory_path() / (prefix + std::to_string(rng() % 1000000000));
  fs::remove_all(root);
  return root;
}

// ---- the house's lines (issue 45): lessons as targets, one shape, headers that fit ------------

// The course's C++ sources under `dir` (recursively), sorted: .cu, .cuh, .cpp, .hpp and .h.
std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() &&
        (ext == ".cu" || ext == ".cuh" || ext == ".cpp" || ext == ".hpp" || ext == ".h")) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The lessons/NN_* folders under `root`, sorted.
std::vector<fs::path> lesson_dirs(const fs::path& root) {
  std::vector<fs::path> out;
  if (!fs::is_directory(root / "lessons")) return out;
  for (const auto& entry : fs::directory_iterator(root / "lessons")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.size() > 3 && std::isdigit(name[0]) && std::isdigit(name[1]) &&
        name[2] == '_') {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One #include line: whether it is spelled "quoted" (else <angled>), and the name it gives.
struct Include {
  bool quoted;
  std::string name;
};

std::vector<Include> includes_of(const fs::path& file) {
  static const std::regex directive(R"(^\s*#\s*include\s*([<"])([^">]+)[">])");
  std::vector<Include> out;
  std::istringstream lines(read_file(file));
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, directive)) out.push_back({m[1] == "\"", m[2]});
  }
  return out;
}

// `path` relative to `root`, with forward slashes ("lessons/02_reduce/kernels.cuh").
std::string repo_path(const fs::path& path, const fs::path& root) {
  return path.lexically_normal().lexically_relative(root.lexically_normal()).generic_string();
}

// The lesson folder ("02_reduce") that `path` lies in, under root/lessons; "" when none.
std::string lesson_of(const fs::path& path, const fs::path& root) {
  const std::string rel = repo_path(path, root);
  if (rel.rfind("lessons/", 0) != 0) return "";
  const std::size_t slash = rel.find('/', 8);
  return slash == std::string::npos ? "" : rel.substr(8, slash - 8);
}

// Every file under lessons/, exercises/, solutions/ and grading/ that includes a file of a lesson
// other than its own by a relative path ("../02_reduce/block_reduce.cuh"): another lesson's headers
// are reached as <NN_topic/file> through its CMake target (course_add_lesson's USES). Exercises,
// solutions and their grading have no lesson of their own.
std::vector<std::string> relative_include_problems(const fs::path& root) {
  std::vector<std::string> problems;
  for (const char* top : {"lessons", "exercises", "solutions", "grading"}) {
    for (const fs::path& file : sources_under(root / top)) {
      const std::string rel = repo_path(file, root);
      const std::string own = lesson_of(file, root);
      for (const Include& inc : includes_of(file)) {
        if (!inc.quoted) continue;
        const fs::path target = (file.parent_path() / inc.name).lexically_normal();
        const std::string other = lesson_of(target, root);
        if (other.empty() || other == own) continue;
        problems.push_back(rel + " includes \"" + inc.name + "\": include lesson " +
                           other.substr(0, 2) + "'s file as <" +
                           repo_path(target, root / "lessons") + "> (USES " + other.substr(0, 2) +
                           ")");
      }
    }
  }
  return problems;
}

// The lessons that lesson `dir` uses, as its course_add_lesson(NN USES ...) says; `found` false
// when its CMakeLists.txt has no course_add_lesson.
std::vector<std::string> cmake_uses(const fs::path& dir, bool& found) {
  const std::string text =
      std::regex_replace(read_file(dir / "CMakeLists.txt"), std::regex("#[^\n]*"), "");
  std::smatch m;
  found = std::regex_search(text, m, std::regex(R"(course_add_lesson\(\s*\d\d\b([^)]*)\))"));
  std::vector<std::string> uses;
  if (!found) return uses;
  std::istringstream words(m[1].str());
  std::string word;
  bool in_uses = false;
  while (words >> word) {
    if (word == "USES") {
      in_uses = true;
    } else if (std::regex_match(word, std::regex("[A-Z_]+"))) {
      in_uses = false;
    } else if (in_uses) {
      uses.push_back(word);
    }
  }
  std::sort(uses.begin(), uses.end());
  return uses;
}

// lesson.json's "uses": ["01", "03"]; `found` false when it has none.
std::vector<std::string> json_uses(const fs::path& dir, bool& found) {
  const std::string text = read_file(dir / "lesson.json");
  std::smatch m;
  found = std::regex_search(text, m, std::regex(R"re("uses"\s*:\s*\[([^\]]*)\])re"));
  std::vector<std::string> uses;
  if (!found) return uses;
  const std::string list = m[1];
  const std::regex item(R"re("([^"]*)")re");
  for (std::sregex_iterator i(list.begin(), list.end(), item), end; i != end; ++i)
    uses.push_back((*i)[1]);
  std::sort(uses.begin(), uses.end());
  return uses;
}

std::string listed(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& item : items)
    out += (out.size() > 1 ? " " : "") + item;
  return out + "]";
}

// For every lesson: lesson.json's "uses" is its course_add_lesson's USES; every lesson it names in
// builds_on's prose; and every other lesson whose header its files, or its exercises', solutions'
// and grading's files (grading/NN_topic/), include (<NN_topic/...>) is among them.
std::vector<std::string> uses_problems(const fs::path& root) {
  std::vector<std::string> problems;
  for (const fs::path& dir : lesson_dirs(root)) {
    const std::string name = dir.filename().string();
    const std::string nn = name.substr(0, 2);
    bool in_cmake = false;
    bool in_json = false;
    const std::vector<std::string> cmake = cmake_uses(dir, in_cmake);
    const std::vector<std::string> json = json_uses(dir, in_json);
    if (!in_cmake) problems.push_back(name + ": CMakeLists.txt has no course_add_lesson(" + nn);
    if (!in_json) problems.push_back(name + ": lesson.json has no \"uses\": [...]");
    if (in_cmake && in_json && cmake != json) {
      problems.push_back(name + ": lesson.json's \"uses\" is " + listed(json) +
                         ", but course_add_lesson's USES is " + listed(cmake));
    }
    std::smatch builds_on;
    const std::string meta = read_file(dir / "lesson.json");
    std::regex_search(meta, builds_on, std::regex(R"re("builds_on"\s*:\s*"([^"]*)")re"));
    for (const std::string& used : json) {
      if (builds_on[1].str().find(used) == std::string::npos) {
        problems.push_back(name + ": uses lesson " + used + ", which builds_on does not name");
      }
    }
    std::vector<fs::path> files = sources_under(dir);
    for (const char* top : {"exercises", "solutions", "grading"}) {
      const std::vector<fs::path> more = sources_under(root / top / name);
      files.insert(files.end(), more.begin(), more.end());
    }
    const std::regex lesson_header(R"((\d\d)_[A-Za-z0-9_]+/.+)");
    for (const fs::path& file : files) {
      for (const Include& inc : includes_of(file)) {
        std::smatch m;
        if (inc.quoted || !std::regex_match(inc.name, m, lesson_header)) continue;
        const std::string other = m[1];
        if (other != nn && std::find(cmake.begin(), cmake.end(), other) == cmake.end()) {
          problems.push_back(repo_path(file, root) + " includes <" + inc.name + ">, but lesson " +
                             nn + " does not say USES " + other);
        }
      }
    }
  }
  return problems;
}

std::size_t line_count(const fs::path& file) {
  const std::string text = read_file(file);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// One shape for every lesson: a kernels/ folder of headers and a kernels.cuh; no header under
// lessons/ over 400 lines; no main.cu over 250 lines.
std::vector<std::string> shape_problems(const fs::path& root) {
  std::vector<std::string> problems;
  for (const fs::path& dir : lesson_dirs(root)) {
    const std::string name = dir.filename().string();
    bool headers = false;
    for (const fs::path& file : sources_under(dir / "kernels"))
      headers = headers || file.extension() == ".cuh";
    if (!headers) {
      problems.push_back(name + ": no kernels/ folder of .cuh headers");
    }
    if (!fs::is_regular_file(dir / "kernels.cuh")) problems.push_back(name + ": no kernels.cuh");
    if (fs::is_regular_file(dir / "main.cu") && line_count(dir / "main.cu") > 250) {
      problems.push_back(name + "/main.cu has " + std::to_string(line_count(dir / "main.cu")) +
                         " lines, more than 250");
    }
  }
  for (const fs::path& file : sources_under(root / "lessons")) {
    const std::string ext = file.extension().string();
    if (ext != ".cuh" && ext != ".hpp" && ext != ".h") continue;
    const std::string rel = repo_path(file, root);
    if (line_count(file) > 400) {
      problems.push_back(rel + " has " + std::to_string(line_count(file)) +
                         " lines, more than 400: split it (one header per version or family)");
    }
  }
  return problems;
}

// Every include of a file under common/ that reaches bench/ or lessons/: by a relative path, by
// a name with bench/ or lessons/ in it, or by the name of a file of bench/ (which its -I finds).
std::vector<std::string> common_include_problems(const fs::path& root) {
  std::vector<std::string> problems;
  std::vector<std::string> bench_names;
  for (const fs::path& file : sources_under(root / "bench"))
    bench_names.push_back(file.filename().string());
  for (const fs::path& file : sources_under(root / "common")) {
    for (const Include& inc : includes_of(file)) {
      const std::string target = repo_path(file.parent_path() / inc.name, root);
      const bool named = inc.name.find("bench/") != std::string::npos ||
                         inc.name.find("lessons/") != std::string::npos;
      const bool resolves =
          inc.quoted && (target.rfind("bench/", 0) == 0 || target.rfind("lessons/", 0) == 0);
      const bool bench_file =
          std::find(bench_names.begin(), bench_names.end(),
                    fs::path(inc.name).filename().string()) != bench_names.end();
      if (named || resolves || bench_file) {
        problems.push_back(repo_path(file, root) + " includes \"" + inc.name +
                           "\", from bench/ or lessons/");
      }
    }
  }
  return problems;
}

// What breaks "one clock" under `root`: a call of course::time_gpu outside the Clock
// (common/clock.cuh; common/gpu_timing.cuh defines it), or common/ reaching into bench/ (an
// include of its files, or the compile switch of the old lessonNN_nvbench build: NVBench plugs in
// at link time).
std::vector<std::string> clock_problems(const fs::path& root) {
  const std::string call = std::string("time_gpu") + "(";
  const std::set<std::string> clock_files = {"common/clock.cuh", "common/gpu_timing.cuh"};
  const std::regex bench_include(R"(#\s*include\s*[<"][^>"]*(bench/|course_nvbench))");
  std::vector<std::string> problems;
  for (const char* top : {"common", "lessons", "exercises", "solutions", "grading", "bench"}) {
    for (const fs::path& file : sources_under(root / top)) {
      const std::string name = repo_path(file, root);
      const std::string text = read_file(file);
      if (clock_files.count(name) == 0 && text.find(call) != std::string::npos)
        problems.push_back(name + ": calls time_gpu; time through course::Clock");
      if (std::string(top) == "common" &&
          (std::regex_search(text, bench_include) ||
           text.find(std::string("COURSE_") + "NVBENCH") != std::string::npos)) {
        problems.push_back(name + ": common/ reaches into bench/");
      }
    }
  }
  std::sort(problems.begin(), problems.end());
  return problems;
}

}  // namespace

TEST_CASE("every lesson folder meets the lesson contract", "[repository]") {
  const std::vector<std::string> problems = contract_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the contract check catches a half-built lesson", "[repository]") {
  const fs::path root = scratch_root("course_contract_");
  write_file(root / "lessons/99_fake/README.md",
             "# Fake\n## What you will learn\n## Results\n```\n## Pitfalls\n```\n");
  write_file(root / "lessons/99_fake/main.cu", "// no build line here\nint main() {}\n");
  write_file(root / "lessons/not_a_lesson/README.md", "ignored\n");
  fs::create_directories(root / "solutions");

  const std::string problems = joined(contract_problems(root));
  INFO(problems);
  CHECK(problems.find("99_fake: no cpu.cpp") != std::string::npos);
  CHECK(problems.find("99_fake: no kernels.cuh") != std::string::npos);
  CHECK(problems.find("99_fake: no part_b.md") != std::string::npos);
  CHECK(problems.find("'the problem' section") != std::string::npos);
  CHECK(problems.find("'pitfalls' section") != std::string::npos);  // inside a code block
  CHECK(problems.find("'results' section") == std::string::npos);
  CHECK(problems.find("nvcc line") != std::string::npos);
  CHECK(problems.find("no exercises/99_fake/") != std::string::npos);
  CHECK(problems.find("no solutions/99_fake/ANSWERS.md") != std::string::npos);
  CHECK(problems.find("not_a_lesson") == std::string::npos);

  // Completing the lesson clears every problem.
  for (const char* f : {"appendix.md", "cpu.cpp", "kernels.cuh", "reference.hpp", "test.cu",
                        "exercises.md", "CMakeLists.txt", "lesson.json"}) {
    write_file(root / "lessons/99_fake" / f, "x\n");
  }
  write_file(root / "lessons/99_fake/main.cu", "// nvcc -O3 main.cu\n");
  write_file(root / "lessons/99_fake/README.md",
             "## What you will learn\n## The problem\n## Version 0\n## Pitfalls\n");
  write_file(root / "lessons/99_fake/part_b.md",
             "## Results\n## What changed on modern GPUs\n## Profile it yourself\n## Exercises\n"
             "## Further reading\n");
  write_file(root / "exercises/99_fake/starter.cuh", "x\n");
  write_file(root / "solutions/99_fake/ANSWERS.md", "x\n");
  const std::vector<std::string> after = contract_problems(root);
  INFO(joined(after));
  CHECK(after.empty());
  fs::remove_all(root);
}

TEST_CASE("every GPU timing goes through course::Clock and common/ knows nothing of bench/",
          "[repository]") {
  const std::vector<std::string> problems = clock_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the clock check catches a bare time_gpu call and an include of bench/", "[repository]") {
  const fs::path root = scratch_root("course_clock_");
  const std::string call = std::string("course::time_gpu") + "([] {}, run, 5);\n";
  write_file(root / "common/clock.cuh", call);
  write_file(root / "common/gpu_timing.cuh", call);
  write_file(root / "lessons/99_fake/experiments.cuh", call);
  write_file(root / "common/lesson.cuh", std::string("#include \"course_") + "nvbench.cuh\"\n");
  write_file(root / "common/other.hpp", std::string("#ifdef COURSE_") + "NVBENCH\n#endif\n");
  write_file(root / "lessons/99_fake/main.cu", "clock.time(run);  // not time_gpu\n");
  const std::vector<std::string> problems = clock_problems(root);
  INFO(joined(problems));
  CHECK(problems ==
        std::vector<std::string>{
            "common/lesson.cuh: common/ reaches into bench/",
            "common/other.hpp: common/ reaches into bench/",
            "lessons/99_fake/experiments.cuh: calls time_gpu; time through course::Clock"});
  fs::remove_all(root);
}

TEST_CASE("every graded exercise has its files and wrong answers that must score zero",
          "[repository]") {
  const std::vector<std::string> problems = exercise_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the exercise check catches a missing wrong answer", "[repository]") {
  const fs::path root = scratch_root("course_exercise_");
  write_file(root / "lessons/99_fake/CMakeLists.txt", "# course_add_exercises(99_fake)\n");
  write_file(root / "grading/99_fake/thing/exercise.json",
             "{\"lesson\": \"99_fake\", \"number\": 1, \"name\": \"thing\", \"file\": "
             "\"thing.cuh\",\n \"support\": [\"x.cuh\"], \"compiled\": \"thing_compiled.txt\"}\n");
  write_file(root / "grading/99_fake/other/exercise.json",
             "{\"lesson\": \"99_fake\", \"number\": 2, \"name\": \"commented_out\"}\n");
  write_file(root / "lessons/99_fake/exercises.md", "File: `thing.cuh`.\n");
  write_file(root / "exercises/99_fake/thing.cuh", "x\n");
  write_file(root / "grading/99_fake/thing/test_thing.cu", "x\n");
  write_file(root / "grading/99_fake/thing/thing_harness.cu", "x\n");
  write_file(root / "solutions/99_fake/wrong/thing/a.cuh", "// expect: hangs\n");
  fs::create_directories(root / "solutions");
  const std::string problems = joined(exercise_problems(root));
  INFO(problems);
  CHECK(problems.find("99/1 thing: no ") != std::string::npos);  // the harness's header
  CHECK(problems.find("99/1 thing: no solution") != std::string::npos);
  CHECK(problems.find("fewer than two wrong answers") != std::string::npos);
  CHECK(problems.find("no wrong answer that the answer check refuses") != std::string::npos);
  CHECK(problems.find("99_fake: grading/99_fake/ has exercise manifests, but its CMakeLists.txt "
                      "does not read them") != std::string::npos);
  CHECK(problems.find("99/2 other: exercise.json's lesson, name, file or number is not its "
                      "folder's") != std::string::npos);
  CHECK(problems.find("99/1 thing: no compiled-code spec thing_compiled.txt") != std::string::npos);
  CHECK(problems.find("99/1 thing: exercise.json's") == std::string::npos);

  write_file(root / "lessons/99_fake/CMakeLists.txt", "course_add_exercises(99_fake)\n");
  fs::remove_all(root / "grading/99_fake/other");
  write_file(root / "grading/99_fake/thing/thing_compiled.txt", "x\n");

  write_file(root / "grading/99_fake/thing/thing_harness.hpp", "x\n");
  write_file(root / "solutions/99_fake/thing.cuh", "x\n");
  write_file(root / "solutions/99_fake/wrong/thing/b.cuh",
             "// A wrong answer\n// expect: rejected: uses cub::\n");
  const std::vector<std::string> after = exercise_problems(root);
  INFO(joined(after));
  CHECK(after.empty());
  write_file(root / "solutions/99_fake/wrong/thing/c.cuh", "// no expectation\n");
  CHECK(joined(exercise_problems(root)).find("c.cuh does not say") != std::string::npos);
  write_file(root / "exercises/99_fake/grading/test_thing.cu", "x\n");
  CHECK(joined(exercise_problems(root)).find("exercises/99_fake/grading: a folder") !=
        std::string::npos);
  CHECK(joined(exercise_problems(root)).find("exercises/99_fake/grading/test_thing.cu: not a") !=
        std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("no file includes another lesson's file by a relative path", "[repository]") {
  const std::vector<std::string> problems = relative_include_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the relative-include check catches a reach into another lesson", "[repository]") {
  const fs::path root = scratch_root("course_includes_");
  write_file(root / "lessons/01_a/kernels/v0.cuh", "#include \"../reference.hpp\"\n");
  write_file(root / "lessons/02_b/kernels.cuh", "#include \"../01_a/reference.hpp\"\n");
  write_file(root / "grading/02_b/h/h.cu",
             "#include \"../../probes/harness.hpp\"\n#include \"../../../lessons/01_a/x.cuh\"\n");
  write_file(root / "lessons/03_c/kernels.cuh", "  #  include \"../01_a/kernels.cuh\"\n");
  const std::string problems = joined(relative_include_problems(root));
  INFO(problems);
  CHECK(problems.find("lessons/02_b/kernels.cuh includes \"../01_a/reference.hpp\"") !=
        std::string::npos);
  CHECK(problems.find("<01_a/reference.hpp>") != std::string::npos);
  CHECK(problems.find("grading/02_b/h/h.cu includes") != std::string::npos);
  CHECK(problems.find("harness.hpp") == std::string::npos);                        // not a lesson's
  CHECK(problems.find("lessons/01_a/kernels/v0.cuh") == std::string::npos);        // its own lesson
  CHECK(problems.find("lessons/03_c/kernels.cuh includes") != std::string::npos);  // spaced
  fs::remove_all(root);
}

TEST_CASE("each lesson's lesson.json \"uses\" is its USES, and covers its includes",
          "[repository]") {
  const std::vector<std::string> problems = uses_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the uses check catches a lesson.json, a USES or an include that disagree",
          "[repository]") {
  const fs::path root = scratch_root("course_uses_");
  write_file(root / "lessons/01_a/CMakeLists.txt", "course_add_lesson(01)\n");
  write_file(root / "lessons/01_a/lesson.json", "{\"builds_on\": \"basics\", \"uses\": []}\n");
  write_file(root / "lessons/02_b/CMakeLists.txt",
             "# course_add_lesson(02 USES 09)\ncourse_add_lesson(02 USES 01 CUDA_LIBRARIES x)\n");
  write_file(root / "lessons/02_b/lesson.json", "{\"builds_on\": \"01\", \"uses\": [\"01\"]}\n");
  write_file(root / "lessons/02_b/kernels.cuh", "#include <01_a/x.cuh>\n#include <cstdio>\n");
  write_file(root / "grading/02_b/h/h.cu", "#include <02_b/y.cuh>\n");
  CHECK(uses_problems(root).empty());

  write_file(root / "lessons/03_c/CMakeLists.txt", "course_add_lesson(03 NO_NVBENCH USES 01)\n");
  write_file(root / "lessons/03_c/lesson.json", "{\"builds_on\": \"02\", \"uses\": [\"02\"]}\n");
  write_file(root / "lessons/03_c/kernels/v0.cuh", "#include <02_b/z.cuh>\n");
  write_file(root / "solutions/03_c/answer.cuh", "#include <01_a/x.cuh>\n");
  write_file(root / "lessons/04_d/CMakeLists.txt", "course_add_lesson(04)\n");
  write_file(root / "lessons/04_d/lesson.json", "{\"builds_on\": \"03\"}\n");
  const std::string problems = joined(uses_problems(root));
  INFO(problems);
  CHECK(
      problems.find("03_c: lesson.json's \"uses\" is [02], but course_add_lesson's USES is [01]") !=
      std::string::npos);
  CHECK(problems.find("03_c: uses lesson 02") == std::string::npos);  // builds_on names it
  CHECK(problems.find("lessons/03_c/kernels/v0.cuh includes <02_b/z.cuh>, but lesson 03 does "
                      "not say USES 02") != std::string::npos);
  CHECK(problems.find("solutions/03_c/answer.cuh") == std::string::npos);  // 03 uses 01
  CHECK(problems.find("04_d: lesson.json has no \"uses\"") != std::string::npos);
  CHECK(problems.find("02_b:") == std::string::npos);  // it agrees with itself
  write_file(root / "lessons/03_c/lesson.json",
             "{\"builds_on\": \"basics\", \"uses\": [\"01\"]}\n");
  CHECK(joined(uses_problems(root)).find("03_c: uses lesson 01, which builds_on does not name") !=
        std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("every lesson has kernels/ and kernels.cuh, short headers and a short main.cu",
          "[repository]") {
  const std::vector<std::string> problems = shape_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the shape check catches a lesson without kernels/, a long header and a long main.cu",
          "[repository]") {
  const fs::path root = scratch_root("course_shape_");
  std::string long_text;
  for (int i = 0; i < 401; ++i)
    long_text += "// a line\n";
  write_file(root / "lessons/01_a/kernels.cuh", "x\n");
  write_file(root / "lessons/01_a/kernels/v0.cuh", long_text);
  write_file(root / "lessons/01_a/reference.hpp", long_text.substr(10));  // 400 lines: fits
  write_file(root / "lessons/01_a/main.cu", long_text.substr(0, 251 * 10));
  write_file(root / "lessons/02_b/main.cu", long_text.substr(0, 250 * 10));
  write_file(root / "lessons/02_b/kernels/notes.txt", "not a header\n");
  write_file(root / "lessons/03_c/kernels/v0.cuh", "x\n");
  write_file(root / "lessons/03_c/kernels.cuh", long_text);
  const std::string problems = joined(shape_problems(root));
  INFO(problems);
  CHECK(problems.find("lessons/01_a/kernels/v0.cuh has 401 lines") != std::string::npos);
  CHECK(problems.find("reference.hpp") == std::string::npos);
  CHECK(problems.find("01_a/main.cu has 251 lines") != std::string::npos);
  CHECK(problems.find("02_b/main.cu") == std::string::npos);
  CHECK(problems.find("02_b: no kernels/ folder") != std::string::npos);
  CHECK(problems.find("02_b: no kernels.cuh") != std::string::npos);
  CHECK(problems.find("lessons/03_c/kernels.cuh has 401 lines") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("common/ includes nothing from bench/ or lessons/", "[repository]") {
  const std::vector<std::string> problems = common_include_problems(COURSE_SOURCE_DIR);
  INFO(joined(problems));
  CHECK(problems.empty());
}

TEST_CASE("the common/ check catches an include from bench/ or lessons/", "[repository]") {
  const fs::path root = scratch_root("course_common_");
  write_file(root / "bench/course_nvbench.cuh", "x\n");
  write_file(root / "common/check.hpp", "#include <cstdio>\n");
  write_file(root / "common/lesson.cuh",
             "#include \"check.hpp\"\n#include \"course_nvbench.cuh\"\n");
  write_file(root / "common/tests/t.cu", "#include \"../../lessons/01_a/kernels.cuh\"\n");
  write_file(root / "common/other.hpp", "#include <02_b/block_reduce.cuh>\n");
  const std::string problems = joined(common_include_problems(root));
  INFO(problems);
  CHECK(problems.find("common/lesson.cuh includes \"course_nvbench.cuh\"") != std::string::npos);
  CHECK(problems.find("common/tests/t.cu includes") != std::string::npos);
  CHECK(problems.find("check.hpp") == std::string::npos);
  CHECK(problems.find("cstdio") == std::string::npos);
  fs::remove_all(root);
}
