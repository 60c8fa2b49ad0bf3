// The repository's shape, checked on every build: each lessons/NN_* folder has the files and
// write-up sections of the lesson contract (LESSONS.md), and its exercises/ and solutions/ twins.
// A half-built lesson fails here, on the CPU, before anyone runs it.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
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
  const std::vector<std::string> lesson_files = {"README.md",    "main.cu",       "cpu.cpp",
                                                 "kernels.cuh",  "reference.hpp", "test.cu",
                                                 "exercises.md", "CMakeLists.txt"};
  // The write-up's sections, each found by a phrase of its heading (LESSONS.md, "The write-up").
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
      const std::vector<std::string> found = headings(read_file(lesson / "README.md"));
      for (const auto& phrases : sections) {
        const bool present = std::any_of(found.begin(), found.end(), [&](const std::string& h) {
          return std::any_of(phrases.begin(), phrases.end(),
                             [&](const std::string& p) { return h.find(p) != std::string::npos; });
        });
        if (!present) problems.push_back(name + ": README.md has no '" + phrases[0] + "' section");
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
  CHECK(problems.find("'the problem' section") != std::string::npos);
  CHECK(problems.find("'pitfalls' section") != std::string::npos);  // inside a code block
  CHECK(problems.find("'results' section") == std::string::npos);
  CHECK(problems.find("nvcc line") != std::string::npos);
  CHECK(problems.find("no exercises/99_fake/") != std::string::npos);
  CHECK(problems.find("no solutions/99_fake/ANSWERS.md") != std::string::npos);
  CHECK(problems.find("not_a_lesson") == std::string::npos);

  // Completing the lesson clears every problem.
  for (const char* f :
       {"cpu.cpp", "kernels.cuh", "reference.hpp", "test.cu", "exercises.md", "CMakeLists.txt"}) {
    write_file(root / "lessons/99_fake" / f, "x\n");
  }
  write_file(root / "lessons/99_fake/main.cu", "// nvcc -O3 main.cu\n");
  write_file(root / "lessons/99_fake/README.md",
             "## What you will learn\n## The problem\n## Version 0\n## Results\n## Pitfalls\n"
             "## What changed on modern GPUs\n## Profile it yourself\n## Exercises\n"
             "## Further reading\n");
  write_file(root / "exercises/99_fake/starter.cuh", "x\n");
  write_file(root / "solutions/99_fake/ANSWERS.md", "x\n");
  const std::vector<std::string> after = contract_problems(root);
  INFO(joined(after));
  CHECK(after.empty());
  fs::remove_all(root);
}
