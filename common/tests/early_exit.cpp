// A test program that ends with status 0 before its last check, as an answer's code could (an
// exit in a function the test calls, or in a static object's constructor). common/tests/
// CMakeLists.txt proves that such a run does not pass: a test passes only with the completion line
// that test_main.cpp prints after the last check (COURSE_COMPLETION in cmake/CourseLesson.cmake).
#include <cstdio>
#include <cstdlib>

#include "testing.hpp"

TEST_CASE("a check that is never reached", "[cpu]") {
  std::exit(0);
  REQUIRE(1 + 1 == 3);
}

TEST_CASE("a check that passes", "[cpu]") {
  REQUIRE(1 + 1 == 2);
}

TEST_CASE("a completion line printed by the code under test, then a check that fails", "[cpu]") {
  std::printf("%s seed 1\n", course::test::kCompletionLine);  // what an answer could print
  CHECK(1 + 1 == 3);
}
