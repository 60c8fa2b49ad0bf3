# The functions that add a lesson, its tests and its sanitizer runs (docs/authoring.md):
# course_add_lesson, course_add_tests, course_discover_tests, course_label_tests,
# course_count_gpu_test and course_add_sanitizer_tests, and what course_add_lesson runs at the end
# of the lesson's folder (course_add_exercise_targets, course_require_summary). Included by the top
# CMakeLists.txt after bench/nvbench.cmake (course_add_lesson calls its course_add_nvbench_program).

# course_add_lesson(<NN> [USES <MM>...] [NO_NVBENCH] [CUDA_LIBRARIES libs...])
#   Builds lessonNN from main.cu and lessonNN_cpu from cpu.cpp in the calling folder, and the
#   target run_lessons runs it. CUDA_LIBRARIES are linked into lessonNN (CUDA::cublas, ...). With
#   NVBench, lessonNN_nvbench too (bench/nvbench.cmake), unless NO_NVBENCH (NVBench times one
#   GPU's stream: lesson 07's versions run on several).
#
#   Every lesson is also the INTERFACE target course_lessonNN, through which other lessons reach
#   its headers as <NN_topic/file> (#include <02_reduce/block_reduce.cuh>): linking it puts
#   lessons/ on the include path, with the lessons it uses in turn. USES names the lessons whose
#   headers this one includes; their targets are linked into lessonNN, lessonNN_cpu and
#   lessonNN_nvbench here, and into the tests and exercises that course_add_tests and
#   course_add_exercise add in the same folder (they read the folder's COURSE_LESSON_USES
#   property, which this sets). lesson.json's "uses" says the same, and
#   common/tests/test_repository.cpp checks that the two and the includes agree.
add_custom_target(run_lessons
  COMMAND "${CMAKE_COMMAND}" -D "BIN_DIR=${CMAKE_BINARY_DIR}"
          -P "${PROJECT_SOURCE_DIR}/scripts/run_lessons.cmake"
  USES_TERMINAL
  COMMENT "Running every lesson at its default size")
function(course_add_lesson number)
  cmake_parse_arguments(arg "NO_NVBENCH" "" "USES;CUDA_LIBRARIES" ${ARGN})
  set(uses)
  foreach(used IN LISTS arg_USES)
    if(NOT TARGET course_lesson${used})
      message(FATAL_ERROR "Lesson ${number} uses lesson ${used}, which is not added before it "
                          "(lessons are added in number order: a lesson uses earlier ones)")
    endif()
    list(APPEND uses course_lesson${used})
  endforeach()
  add_library(course_lesson${number} INTERFACE)
  target_include_directories(course_lesson${number} INTERFACE "${PROJECT_SOURCE_DIR}/lessons")
  target_link_libraries(course_lesson${number} INTERFACE ${uses})
  set_property(DIRECTORY PROPERTY COURSE_LESSON_USES ${uses})
  # At the end of the folder, once its exercises and tests are added: each exercise's exNN.K
  # target and the summary's fixture on every test (course_finish_lesson_folder).
  cmake_language(DEFER CALL course_finish_lesson_folder)
  add_executable(lesson${number} main.cu)
  target_link_libraries(lesson${number} PRIVATE course_common ${uses} ${arg_CUDA_LIBRARIES})
  add_executable(lesson${number}_cpu cpu.cpp)
  target_link_libraries(lesson${number}_cpu PRIVATE course_common ${uses})
  set_target_properties(lesson${number} lesson${number}_cpu
    PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_dependencies(run_lessons lesson${number})
  if(NOT arg_NO_NVBENCH)
    course_add_nvbench_program(${number} CUDA_LIBRARIES ${uses} ${arg_CUDA_LIBRARIES})
  endif()
  if(COURSE_BUILD_TESTS)
    # Bad input is refused with exit 2 before any work, GPU or not: an --n larger than the
    # machine's memory (COURSE_HOST_MEMORY stands in for it), a flag given twice, and (the lesson
    # program) a --csv that cannot be written.
    set(expect "${PROJECT_SOURCE_DIR}/scripts/expect_exit.cmake")
    foreach(program lesson${number} lesson${number}_cpu)
      add_test(NAME "${number}/${program} refuses an --n larger than memory"
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=$<TARGET_FILE:${program}>" "-DARGS=--n;2^30"
                -D STATUS=2 -D HOST_MEMORY=1Gi -P "${expect}")
      add_test(NAME "${number}/${program} refuses a flag given twice"
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=$<TARGET_FILE:${program}>"
                "-DARGS=--seed;1;--seed;2" -D STATUS=2 -P "${expect}")
      set_tests_properties("${number}/${program} refuses an --n larger than memory"
        "${number}/${program} refuses a flag given twice" PROPERTIES LABELS cpu TIMEOUT 10)
      # The memory refusal says that 20% of the host's memory is kept back (its 3.1 GiB of 3.8
      # read as a mistake); a usage error is its line and one pointing at --help, no usage block.
      string(CONCAT kept_back "exit 2, as expected: [^\n]*needs [0-9.]+ GiB of host memory; "
        "COURSE_HOST_MEMORY is 1.00 GiB, of which a run may use 80% [(]0.80 GiB[)]: "
        "20% is kept back")
      set_tests_properties("${number}/${program} refuses an --n larger than memory" PROPERTIES
        PASS_REGULAR_EXPRESSION "${kept_back}")
      string(CONCAT two_lines "exit 2, as expected: ${program}: error: --seed is given twice\n"
        "${program} --help lists the options\n")
      set_tests_properties("${number}/${program} refuses a flag given twice" PROPERTIES
        FAIL_REGULAR_EXPRESSION "usage:" PASS_REGULAR_EXPRESSION "${two_lines}")
    endforeach()
    add_test(NAME "${number}/lesson${number} refuses an unwritable --csv before any work"
      COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=$<TARGET_FILE:lesson${number}>"
              "-DARGS=--csv;${CMAKE_BINARY_DIR}/no-such-folder/out.csv" -D STATUS=2 -P "${expect}")
    set_tests_properties("${number}/lesson${number} refuses an unwritable --csv before any work"
      PROPERTIES LABELS cpu TIMEOUT 10)
    # Without a GPU (CUDA_VISIBLE_DEVICES=-1, so a machine with one checks it too): one short
    # line on stderr, once, the CPU part, exit 77; and --csv, whose file holds the GPU part's
    # table, refused at once, nothing run.
    set(no_gpu "${PROJECT_SOURCE_DIR}/scripts/expect_no_gpu.cmake")
    add_test(NAME "${number}/lesson${number} without a GPU says so once, in one short line"
      COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=$<TARGET_FILE:lesson${number}>"
              "-DARGS=--n;1000;--cpu-reps;1" -P "${no_gpu}")
    add_test(NAME "${number}/lesson${number} without a GPU refuses --csv at once, nothing run"
      COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=$<TARGET_FILE:lesson${number}>"
              "-DARGS=--n;1000;--cpu-reps;1;--csv;${CMAKE_BINARY_DIR}/lesson${number}_no_gpu.csv"
              -D NOTHING_RUN=1 -P "${no_gpu}")
    set_tests_properties("${number}/lesson${number} without a GPU says so once, in one short line"
      "${number}/lesson${number} without a GPU refuses --csv at once, nothing run"
      PROPERTIES LABELS cpu TIMEOUT 60 SKIP_REGULAR_EXPRESSION "SKIPPED: a GPU is here")
  endif()
endfunction()

# Run at the end of a lesson's folder (course_add_lesson defers it there).
function(course_finish_lesson_folder)
  course_add_exercise_targets()
  course_require_summary()
endfunction()

# exNN.K, one target per graded exercise of the calling lesson's folder, builds everything that
# `ctest --preset exercises -L exNN.K` runs (docs/students.md, the fast path): the starter's test
# program with its objects, its PTX and the GPU check (exerciseNN_K), and the model answer's
# program, objects and PTX, which the time bound and the objects check read (solutionNN_K; not in
# a handout without solutions/). Seconds to a minute, where the whole build takes many minutes.
function(course_add_exercise_targets)
  get_filename_component(lesson_dir "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  string(SUBSTRING "${lesson_dir}" 0 2 nn)
  file(GLOB manifests "${PROJECT_SOURCE_DIR}/grading/${lesson_dir}/*/exercise.json")
  foreach(manifest IN LISTS manifests)
    file(READ "${manifest}" json)
    string(JSON number GET "${json}" number)
    if(NOT TARGET exercise${nn}_${number})
      continue()
    endif()
    add_custom_target(ex${nn}.${number})
    add_dependencies(ex${nn}.${number} exercise${nn}_${number} course_gpu_probe)
    if(TARGET solution${nn}_${number})
      add_dependencies(ex${nn}.${number} solution${nn}_${number})
    endif()
  endforeach()
endfunction()

# Every test of the calling folder requires the fixture course_summary, whose cleanup test (common/
# tests/summary) therefore runs after them, whatever -R, -E or -L picks, and says what this run's
# tests did. The Catch2 test cases, listed when CTest starts, get it from course_label_tests.
function(course_require_summary)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_property(cleanup TEST "${test}" PROPERTY FIXTURES_CLEANUP)
    if(NOT "course_summary" IN_LIST cleanup)
      set_property(TEST "${test}" APPEND PROPERTY FIXTURES_REQUIRED course_summary)
    endif()
  endforeach()
endfunction()

# course_add_tests(<target> <source> PREFIX <name> [CPU] [GPU] [LARGE_GPU_MEMORY bytes]
#                  [MULTI_GPU count] [LABELS extra...] [INCLUDE_DIRS dirs...] [LIBRARIES libs...])
#   Builds a Catch2 test program and registers each of its test cases with CTest: those tagged
#   [gpu] (GPU) under the label "gpu", skipped (exit 77) without a GPU; the others (CPU) under
#   the label "cpu". Say CPU and/or GPU for the kinds of test case the program has. Test cases
#   tagged [gpu][large] need LARGE_GPU_MEMORY bytes free (for example 6Gi) and are skipped on a
#   GPU with less. Test cases tagged [gpu][multi] need MULTI_GPU GPUs, and are skipped on a machine
#   with fewer. LABELS are added to all. The program is linked with the lessons that the folder's
#   lesson USES (course_add_lesson), and with LIBRARIES.
function(course_add_tests target source)
  if(NOT COURSE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(arg "CPU;GPU" "PREFIX;LARGE_GPU_MEMORY;MULTI_GPU"
    "LABELS;INCLUDE_DIRS;LIBRARIES" ${ARGN})
  add_executable(${target} ${source})
  target_include_directories(${target} PRIVATE ${arg_INCLUDE_DIRS})
  get_property(uses DIRECTORY PROPERTY COURSE_LESSON_USES)
  target_link_libraries(${target} PRIVATE course_test_main ${uses} ${arg_LIBRARIES})
  set(kinds)
  foreach(kind CPU GPU)
    if(arg_${kind})
      list(APPEND kinds ${kind})
    endif()
  endforeach()
  set(large)
  if(arg_LARGE_GPU_MEMORY)
    set(large LARGE_GPU_MEMORY ${arg_LARGE_GPU_MEMORY})
  endif()
  if(arg_MULTI_GPU)
    list(APPEND large MULTI_GPU ${arg_MULTI_GPU})
  endif()
  course_discover_tests(${target} PREFIX "${arg_PREFIX}" ${kinds} ${large}
    CPU_LABELS cpu ${arg_LABELS} GPU_LABELS gpu ${arg_LABELS} TIMEOUT 600)
endfunction()

# course_discover_tests(<target> PREFIX <name> [CPU] [GPU] [LARGE_GPU_MEMORY bytes]
#                       [MULTI_GPU count] CPU_LABELS labels... GPU_LABELS labels... TIMEOUT seconds)
#   Registers each test case of the Catch2 program <target> with CTest, as course_add_tests says.
function(course_discover_tests target)
  cmake_parse_arguments(arg "CPU;GPU" "PREFIX;LARGE_GPU_MEMORY;MULTI_GPU;TIMEOUT"
    "CPU_LABELS;GPU_LABELS" ${ARGN})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  if(arg_CPU)
    catch_discover_tests(${target} TEST_SPEC "~[gpu]" TEST_PREFIX "${arg_PREFIX}/"
      TEST_LIST ${target}_cpu_tests PROPERTIES TIMEOUT ${arg_TIMEOUT})
    course_label_tests(${target}_cpu_tests "${arg_CPU_LABELS}")
  endif()
  if(arg_GPU)
    catch_discover_tests(${target} TEST_SPEC "[gpu]~[large]~[multi]~[timing]"
      TEST_PREFIX "${arg_PREFIX}/"
      EXTRA_ARGS --needs-gpu TEST_LIST ${target}_gpu_tests
      PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${arg_TIMEOUT})
    course_label_tests(${target}_gpu_tests "${arg_GPU_LABELS}")
    if(NOT "exercise" IN_LIST arg_GPU_LABELS)
      course_add_profile_tests(${target} "${arg_PREFIX}")
    endif()
  endif()
  if(arg_LARGE_GPU_MEMORY)
    catch_discover_tests(${target} TEST_SPEC "[gpu][large]" TEST_PREFIX "${arg_PREFIX}/"
      EXTRA_ARGS --needs-gpu --needs-gpu-memory ${arg_LARGE_GPU_MEMORY}
      TEST_LIST ${target}_large_tests PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL ON)
    course_label_tests(${target}_large_tests "${arg_GPU_LABELS}")
  endif()
  if(arg_MULTI_GPU)
    catch_discover_tests(${target} TEST_SPEC "[gpu][multi]" TEST_PREFIX "${arg_PREFIX}/"
      EXTRA_ARGS --needs-gpu --needs-gpus ${arg_MULTI_GPU} TEST_LIST ${target}_multi_tests
      PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${arg_TIMEOUT} RUN_SERIAL ON)
    course_label_tests(${target}_multi_tests "${arg_GPU_LABELS}")
  endif()
endfunction()

# The device profiles (common/device_profile.hpp, which checks that its list is this one).
set(COURSE_DEVICE_PROFILES t4 rtx3060 rtx4090 a100 l4)

# Runs the same test cases of <target> as the label "gpu" (or "solution") does, all in one run of
# the program, once under each device profile (COURSE_DEVICE_PROFILE): label "profile", which the
# test presets leave out (`ctest --preset profile` runs them), since each profile runs them all
# again. Named "profile <name>/<prefix>"; a second program with the same prefix (lesson 04's
# test_lesson04_cuco beside test_lesson04) adds its target's name: "profile <name>/<prefix> <target>".
function(course_add_profile_tests target prefix)
  foreach(profile ${COURSE_DEVICE_PROFILES})
    set(name "profile ${profile}/${prefix}")
    if(TEST "${name}")
      set(name "${name} ${target}")
    endif()
    add_test(NAME "${name}"
      COMMAND $<TARGET_FILE:${target}> "[gpu]~[large]~[multi]~[timing]" --needs-gpu)
    set_tests_properties("${name}" PROPERTIES LABELS profile
      ENVIRONMENT "COURSE_DEVICE_PROFILE=${profile}" SKIP_RETURN_CODE 77 TIMEOUT 900
      PASS_REGULAR_EXPRESSION "${COURSE_COMPLETION}" FAIL_REGULAR_EXPRESSION "${COURSE_FAILURE}"
      SKIP_REGULAR_EXPRESSION "SKIPPED: ")
  endforeach()
endfunction()

# Gives the tests that catch_discover_tests listed in `list_var` the labels `labels`. A label list
# cannot go through its PROPERTIES (the list is flattened on the way), so a CTest script, read
# after Catch2's own, sets them on the discovered names. Every one of them requires the fixture
# course_summary (course_require_summary), and the starters' tests (exercise) need the GPU check
# first too (common/tests/summary).
#
# Every test case passes only when its program printed the completion line (COURSE_COMPLETION),
# which test_main.cpp writes after the last check, with the run's seed, when every check passed:
# a program that ends early with status 0 does not pass. "SKIPPED: " lines (no GPU) still skip.
# A pass regex makes CTest ignore the exit status, so a check that failed must fail the test by
# its words (COURSE_FAILURE: Catch2's "FAILED:", the watchdog's line), whatever else was printed
# (a completion line an answer printed itself, say).
set(COURSE_COMPLETION "COURSE-TESTS-COMPLETE: every check passed, seed [0-9]+")
set(COURSE_FAILURE "FAILED:|did not finish in [0-9]+ s")
function(course_label_tests list_var labels)
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${list_var}_labels.cmake")
  set(fixtures course_summary)
  # (One quoted string: a list of labels keeps its semicolons.)
  string(CONCAT properties "LABELS \"${labels}\" "
                "PASS_REGULAR_EXPRESSION \"${COURSE_COMPLETION}\" "
                "FAIL_REGULAR_EXPRESSION \"${COURSE_FAILURE}\" "
                "SKIP_REGULAR_EXPRESSION \"SKIPPED: \"")
  if("exercise" IN_LIST labels)
    # The starters' tests first need the GPU check (common/tests/summary), even when -R picks a few.
    set(fixtures "course_exercise_gpu;course_summary")
  endif()
  string(APPEND properties " FIXTURES_REQUIRED \"${fixtures}\"")
  # A program not built yet has one stand-in test instead, <target>_NOT_BUILT-<hash> (Catch.cmake,
  # the hash its include file's name ends with, the include just added): it too runs before the
  # summary, which counts it as not run.
  set(stand_in "")
  get_property(includes DIRECTORY PROPERTY TEST_INCLUDE_FILES)
  list(GET includes -1 catch_include)
  if(catch_include MATCHES "/([^/]+)_include-([0-9a-f]+)\\.cmake$")
    string(CONCAT stand_in "else()\n  set_tests_properties(${CMAKE_MATCH_1}_NOT_BUILT-"
                           "${CMAKE_MATCH_2} PROPERTIES FIXTURES_REQUIRED course_summary)\n")
  endif()
  file(WRITE "${script}"
    "if(${list_var})\n"
    "  set_tests_properties(\${${list_var}} PROPERTIES ${properties})\n"
    "${stand_in}"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

# Names a test registered at configure time that needs a GPU (a wrong answer that runs, a time
# bound), in the GLOBAL property COURSE_GPU_TESTS. That list once made the line that counted the
# skipped GPU tests, fixed when CTest started; the summary (common/tests/summary) now counts what
# each run did, so nothing reads it. Kept for its callers (cmake/CourseExercise.cmake).
function(course_count_gpu_test name)
  set_property(GLOBAL APPEND PROPERTY COURSE_GPU_TESTS "${name}")
endfunction()

# course_add_sanitizer_tests(<NN> [SUFFIX text] ARGS args...)
#   Runs lessonNN with ARGS (a small n) under compute-sanitizer's memcheck, racecheck, synccheck
#   and initcheck; any report fails the test (label "sanitize"). Skipped without a GPU, or
#   without compute-sanitizer. SUFFIX ends the tests' names, for a lesson that needs a second set
#   of arguments to reach all of its kernels.
find_program(COURSE_COMPUTE_SANITIZER compute-sanitizer
  HINTS "${CUDAToolkit_BIN_DIR}" "${CUDAToolkit_BIN_DIR}/../compute-sanitizer")
function(course_add_sanitizer_tests number)
  if(NOT COURSE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(arg "" "SUFFIX" "ARGS" ${ARGN})
  foreach(tool memcheck racecheck synccheck initcheck)
    set(name "${number}/sanitize ${tool}${arg_SUFFIX}")
    set(tool_options --tool ${tool} --error-exitcode 99)
    if(tool STREQUAL "memcheck")
      list(APPEND tool_options --leak-check=full)
    endif()
    if(COURSE_COMPUTE_SANITIZER)
      add_test(NAME "${name}"
        COMMAND "${COURSE_COMPUTE_SANITIZER}" ${tool_options} $<TARGET_FILE:lesson${number}>
                ${arg_ARGS})
      # The lesson exits 77 when there is no GPU, and compute-sanitizer passes that on. COST starts
      # these, the suite's longest tests (racecheck the longest of them), first when CTest has no
      # timings of its own yet, as in a fresh clone, so that none of them is left to run alone at
      # the end of a parallel ctest.
      if(tool STREQUAL "racecheck")
        set(cost 1000)
      else()
        set(cost 100)
      endif()
      # (CTest's log does not record the exit status: the regex makes the skip one that the
      # summary, common/tests/summary, reads as such.)
      set_tests_properties("${name}" PROPERTIES LABELS sanitize SKIP_RETURN_CODE 77 TIMEOUT 900
                                                COST ${cost}
                                                SKIP_REGULAR_EXPRESSION "no usable CUDA GPU")
    else()
      add_test(NAME "${name}" COMMAND "${CMAKE_COMMAND}" -E echo
               "SKIPPED: compute-sanitizer not found (it ships with the CUDA Toolkit)")
      set_tests_properties("${name}" PROPERTIES LABELS sanitize
                           SKIP_REGULAR_EXPRESSION "SKIPPED: compute-sanitizer")
    endif()
  endforeach()
endfunction()
