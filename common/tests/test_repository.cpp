// The repository's shape, checked on every build: each lessons/NN_* folder has the files and
// write-up sections of the lesson contract (docs/authoring.md), and its exercises/ and solutions/
// twins.
// A half-built lesson fails here, on the CPU, before anyone runs it.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
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

// Everything a graded exercise needs (docs/instructors.md, "Adding an exercise"), for every
// course_add_exercise(NN_topic number name ...) in the lessons' CMakeLists.txt under `root`: the
// student's file and its solution, the tests and the harness, at least two wrong answers that each
// say how they must score zero, and a mention in the lesson's exercises.md. Across all exercises,
// the wrong answers must include one the answer check refuses and one that never finishes.
std::vector<std::string> exercise_problems(const fs::path& root) {
  std::vector<std::string> problems;
  const std::regex registered(R"(course_add_exercise\(\s*(\d\d_\w+)\s+(\d+)\s+(\w+))");
  // The kinds course_add_exercise knows (the top CMakeLists.txt), compiled: and slow among them.
  const std::regex expect(R"(^// expect: (rejected: .+|fails: .+|hangs|compiled: .+|slow)$)");
  int refused = 0;
  int hung = 0;
  if (!fs::is_directory(root / "lessons")) return problems;
  std::vector<fs::path> lists;
  for (const auto& entry : fs::directory_iterator(root / "lessons")) {
    if (fs::is_regular_file(entry.path() / "CMakeLists.txt")) {
      lists.push_back(entry.path() / "CMakeLists.txt");
    }
  }
  std::sort(lists.begin(), lists.end());
  for (const fs::path& list : lists) {
    const std::string text = std::regex_replace(read_file(list), std::regex("#[^\n]*"), "");
    for (std::sregex_iterator m(text.begin(), text.end(), registered), end; m != end; ++m) {
      const std::string lesson = (*m)[1];
      const std::string name = (*m)[3];
      const std::string id = lesson.substr(0, 2) + "/" + std::string((*m)[2]) + " " + name;
      const fs::path grading = root / "exercises" / lesson / "grading";
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
      if (fs::is_directory(grading / "wrong" / name)) {
        for (const auto& answer : fs::directory_iterator(grading / "wrong" / name)) {
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
      if (wrong < 2) problems.push_back(id + ": fewer than two wrong answers");
      const fs::path statement = list.parent_path() / "exercises.md";
      if (!fs::is_regular_file(statement) ||
          read_file(statement).find(name + ".cuh") == std::string::npos) {
        problems.push_back(id + ": exercises.md does not state it (no " + name + ".cuh)");
      }
    }
  }
  if (refused == 0) problems.push_back("no wrong answer that the answer check refuses");
  if (hung == 0) problems.push_back("no wrong answer that never finishes");
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

// What breaks "one clock" under `root`: a call of course::time_gpu outside the Clock
// (common/clock.cuh; common/gpu_timing.cuh defines it), or common/ reaching into bench/ (an
// include of its files, or the compile switch of the old lessonNN_nvbench build: NVBench plugs in
// at link time).
std::vector<std::string> clock_problems(const fs::path& root) {
  const std::string call = std::string("time_gpu") + "(";
  const std::set<std::string> clock_files = {"common/clock.cuh", "common/gpu_timing.cuh"};
  const std::regex bench_include(R"(#\s*include\s*[<"][^>"]*(bench/|course_nvbench))");
  std::vector<std::string> problems;
  for (const char* top : {"common", "lessons", "exercises", "solutions", "bench"}) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() ||
          (ext != ".cu" && ext != ".cuh" && ext != ".hpp" && ext != ".cpp" && ext != ".h")) {
        continue;
      }
      const std::string name = entry.path().lexically_relative(root).generic_string();
      const std::string text = read_file(entry.path());
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
  std::mt19937_64 rng(course::test::seed());
  const fs::path root =
      fs::temp_directory_path() / ("course_contract_" + std::to_string(rng() % 1000000000));
  fs::remove_all(root);
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
  std::mt19937_64 rng(course::test::seed());
  const fs::path root =
      fs::temp_directory_path() / ("course_clock_" + std::to_string(rng() % 1000000000));
  fs::remove_all(root);
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
  std::mt19937_64 rng(course::test::seed());
  const fs::path root =
      fs::temp_directory_path() / ("course_exercise_" + std::to_string(rng() % 1000000000));
  fs::remove_all(root);
  write_file(root / "lessons/99_fake/CMakeLists.txt",
             "course_add_exercise(99_fake 1 thing SUPPORT x.cuh)\n"
             "# course_add_exercise(99_fake 2 commented_out)\n");
  write_file(root / "lessons/99_fake/exercises.md", "File: `thing.cuh`.\n");
  write_file(root / "exercises/99_fake/thing.cuh", "x\n");
  write_file(root / "exercises/99_fake/grading/test_thing.cu", "x\n");
  write_file(root / "exercises/99_fake/grading/thing_harness.cu", "x\n");
  write_file(root / "exercises/99_fake/grading/wrong/thing/a.cuh", "// expect: hangs\n");
  fs::create_directories(root / "solutions");
  const std::string problems = joined(exercise_problems(root));
  INFO(problems);
  CHECK(problems.find("99/1 thing: no ") != std::string::npos);  // the harness's header
  CHECK(problems.find("99/1 thing: no solution") != std::string::npos);
  CHECK(problems.find("fewer than two wrong answers") != std::string::npos);
  CHECK(problems.find("no wrong answer that the answer check refuses") != std::string::npos);
  CHECK(problems.find("commented_out") == std::string::npos);

  write_file(root / "exercises/99_fake/grading/thing_harness.hpp", "x\n");
  write_file(root / "solutions/99_fake/thing.cuh", "x\n");
  write_file(root / "exercises/99_fake/grading/wrong/thing/b.cuh",
             "// A wrong answer\n// expect: rejected: uses cub::\n");
  const std::vector<std::string> after = exercise_problems(root);
  INFO(joined(after));
  CHECK(after.empty());
  write_file(root / "exercises/99_fake/grading/wrong/thing/c.cuh", "// no expectation\n");
  CHECK(joined(exercise_problems(root)).find("c.cuh does not say") != std::string::npos);
  fs::remove_all(root);
}
