# The functions that add the graded exercises: course_add_exercises, which reads a lesson's
# manifests (grading/NN_topic/<name>/exercise.json), course_add_exercise, which adds one, and its
# two helpers (docs/authoring.md, docs/instructors.md).

# course_add_exercise(<NN_topic> <number> <name> [HEADERS files...] [SUPPORT names...]
#                     [FORBID names...] [LIBRARIES libs...] [USES <MM>...] [COMPILED spec]
#                     [TIME_FACTOR f])
#   One graded exercise: the student's file exercises/NN_topic/<name>.cuh, graded by
#   grading/NN_topic/<name>/test_<name>.cu through the harness <name>_harness.cu beside it
#   (docs/authoring.md describes the files; grading/NN_topic/ itself holds what a lesson's
#   exercises share, grading/probes/ what all of them do). Every answer is built in two parts:
#     - the answer with its harness, compiled with nothing on the include path but the answer,
#       the SUPPORT headers (names of files in grading/NN_topic/<name>/, or else in
#       grading/NN_topic/) and HEADERS (files of
#       this repository that they and the harness include), all copied into one folder, and the
#       lessons the harness uses (USES: their course_lessonMM targets, for <MM_topic/file>
#       includes), after cmake/check_exercise.cmake has checked that the answer includes only
#       the standard library, CUDA's headers and SUPPORT, and names no library, course or lesson
#       code and nothing in FORBID;
#     - the tests, compiled once with everything (the lesson's CPU reference, the test helpers,
#       the lessons that the folder's lesson and USES name).
#   The answers: the starter in COURSE_EXERCISES_DIR (label "exercise": it fails by design), the
#   solution in solutions/ (label "solution": it must pass), every wrong answer in
#   solutions/NN_topic/wrong/<name>/ (label "grading": each must score zero, in the way its
#   "// expect:" line says), and every answer in solutions/NN_topic/unseen/<name>/ that may pass
#   (label "unseen": its test says whether it is caught, and always passes). A kernel that does not finish fails within the watchdog's bound (testing.hpp).
#   Two more tests grade each answer, beside its test cases:
#     - COMPILED <spec> (a file in grading/NN_topic/<name>/): the answer's PTX (its harness
#       compiled with -DGRADING_SASS, no probes) holds the instructions the spec requires and none it forbids
#       (scripts/check_compiled.py); no GPU needed;
#     - TIME_FACTOR <f>: the answer's [timing] test case takes at most f times the model answer's,
#       run in turns in the same test (scripts/time_answer.py); needs the solution and a GPU.
# course_add_exercises(<NN_topic>)
#   Every graded exercise of a lesson, one for each manifest grading/NN_topic/<name>/exercise.json
#   (docs/authoring.md), in the order of their numbers: course_add_exercise with the manifest's
#   facts. A manifest holds
#     "lesson": "NN_topic", "number": k, "name": "<name>", "file": "<name>.cuh",
#     "headers": [...], "support": [...], "forbid": [...], "libraries": [...], "uses": ["MM"],
#     "compiled": "<name>_compiled.txt" or null, "time_factor": f or null, "notes": "..."
#   (the lists may be empty; "notes" says why the exercise is given or refused what it is). A
#   manifest whose lesson, name or file disagree with its folder stops the configure.
function(course_add_exercises lesson_dir)
  file(GLOB manifests "${PROJECT_SOURCE_DIR}/grading/${lesson_dir}/*/exercise.json")
  set(numbered)
  foreach(manifest IN LISTS manifests)
    file(READ "${manifest}" json)
    string(JSON number GET "${json}" number)
    # Zero-padded, so that the list sorts by number.
    string(LENGTH "${number}" digits)
    string(SUBSTRING "00000${number}" ${digits} 5 key)
    list(APPEND numbered "${key}|${manifest}")
  endforeach()
  list(SORT numbered)
  foreach(entry IN LISTS numbered)
    string(REGEX REPLACE "^[0-9]+\\|" "" manifest "${entry}")
    file(READ "${manifest}" json)
    get_filename_component(folder "${manifest}" DIRECTORY)
    get_filename_component(folder_name "${folder}" NAME)
    string(JSON lesson GET "${json}" lesson)
    string(JSON number GET "${json}" number)
    string(JSON name GET "${json}" name)
    string(JSON file GET "${json}" file)
    if(NOT lesson STREQUAL lesson_dir OR NOT name STREQUAL folder_name
       OR NOT file STREQUAL "${name}.cuh" OR NOT number MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${manifest}: \"lesson\" must be ${lesson_dir}, \"name\" its folder's "
                          "name (${folder_name}), \"file\" ${folder_name}.cuh and \"number\" a "
                          "whole number (it says ${lesson}, ${name}, ${file}, ${number})")
    endif()
    set(args)
    foreach(key IN ITEMS headers support forbid libraries uses host_calls device_calls)
      string(TOUPPER "${key}" keyword)
      string(JSON count ERROR_VARIABLE missing LENGTH "${json}" ${key})
      if(missing)
        continue()
      endif()
      if(count GREATER 0)
        list(APPEND args ${keyword})
        math(EXPR last "${count} - 1")
        foreach(i RANGE ${last})
          string(JSON item GET "${json}" ${key} ${i})
          list(APPEND args "${item}")
        endforeach()
      endif()
    endforeach()
    foreach(key IN ITEMS compiled time_factor)
      string(TOUPPER "${key}" keyword)
      string(JSON type ERROR_VARIABLE missing TYPE "${json}" ${key})
      if(NOT missing AND NOT type STREQUAL "NULL")
        string(JSON value GET "${json}" ${key})
        list(APPEND args ${keyword} "${value}")
      endif()
    endforeach()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest}")
    course_add_exercise(${lesson_dir} ${number} ${name} ${args})
  endforeach()
  # A new exercise's folder configures again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/grading/${lesson_dir}")
endfunction()

set(COURSE_EXERCISES_DIR "${PROJECT_SOURCE_DIR}/exercises" CACHE PATH
  "The exercises folder to build and grade; point it at a student's copy to grade that")
set(COURSE_EXERCISE_TIMEOUT 300 CACHE STRING
  "CTest's limit, in seconds, for one test case of an exercise (the watchdog stops a hung kernel long before)")
function(course_add_exercise lesson_dir number name)
  if(NOT COURSE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(arg "" "COMPILED;TIME_FACTOR"
    "HEADERS;SUPPORT;FORBID;LIBRARIES;USES;HOST_CALLS;DEVICE_CALLS" ${ARGN})
  set(uses)
  foreach(used IN LISTS arg_USES)
    list(APPEND uses course_lesson${used})
  endforeach()
  string(SUBSTRING "${lesson_dir}" 0 2 nn)
  set(id "${nn}_${number}")
  set(lesson_grading "${PROJECT_SOURCE_DIR}/grading/${lesson_dir}")
  set(grading "${lesson_grading}/${name}")
  set(include_dir "${CMAKE_BINARY_DIR}/grading/exercise${id}/include")
  foreach(header IN LISTS arg_HEADERS)
    get_filename_component(header_name "${header}" NAME)
    configure_file("${PROJECT_SOURCE_DIR}/${header}" "${include_dir}/${header_name}" COPYONLY)
  endforeach()
  foreach(header IN LISTS arg_SUPPORT)
    # The exercise's own, or one its lesson's exercises share.
    if(EXISTS "${grading}/${header}")
      configure_file("${grading}/${header}" "${include_dir}/${header}" COPYONLY)
    else()
      configure_file("${lesson_grading}/${header}" "${include_dir}/${header}" COPYONLY)
    endif()
  endforeach()
  # The tests: everything on the include path but the answer, which they reach only through the
  # harness's functions (<name>_harness.hpp).
  add_library(exercise${id}_tests OBJECT "${grading}/test_${name}.cu")
  target_include_directories(exercise${id}_tests PRIVATE "${grading}" "${lesson_grading}"
    "${PROJECT_SOURCE_DIR}/grading/probes" "${CMAKE_CURRENT_SOURCE_DIR}")
  get_property(lesson_uses DIRECTORY PROPERTY COURSE_LESSON_USES)
  target_link_libraries(exercise${id}_tests PRIVATE course_test_main ${lesson_uses} ${uses}
                                                    ${arg_LIBRARIES})
  # (Commas, not semicolons: a list would come apart into separate arguments on the way.)
  string(REPLACE ";" "," support "${arg_SUPPORT}")
  string(REPLACE ";" "," forbid "${arg_FORBID}")
  set(check_args -D "SUPPORT=${support}" -D "FORBID=${forbid}"
    -P "${PROJECT_SOURCE_DIR}/cmake/check_exercise.cmake")

  # A handout for students may leave solutions/ out (docs/instructors.md): then no time bound.
  set(solution "${PROJECT_SOURCE_DIR}/solutions/${lesson_dir}/${name}.cuh")
  set(model "")
  if(EXISTS "${solution}")
    set(model solution${id})
  endif()
  # What every answer's build and checks share (course_exercise_answer, course_exercise_checks).
  set(answer_args NAME ${name} GRADING "${grading}" INCLUDE_DIR "${include_dir}"
    TESTS exercise${id}_tests COMPILED "${arg_COMPILED}" CHECK_ARGS ${check_args}
    LIBRARIES ${arg_LIBRARIES} USES ${uses})
  string(REPLACE ";" "," host_calls "${arg_HOST_CALLS}")
  string(REPLACE ";" "," device_calls "${arg_DEVICE_CALLS}")
  set(checks_args GRADING "${grading}" COMPILED "${arg_COMPILED}" TIME_FACTOR "${arg_TIME_FACTOR}"
    MODEL "${model}" NAMESPACE exercise${nn} HOST_CALLS "${host_calls}"
    DEVICE_CALLS "${device_calls}")
  course_exercise_answer(exercise${id} "${COURSE_EXERCISES_DIR}/${lesson_dir}/${name}.cuh"
    ${answer_args})
  # Its tests need the GPU check first (a CTest fixture, common/tests/summary): building the
  # exercise builds the check, however few targets a build names.
  add_dependencies(exercise${id} course_gpu_probe)
  # Every test of the exercise carries the label ex<NN>.<number> (the model answer's, sol<NN>.<number>):
  # grade.py selects them by it (scripts/course/grading.py, Exercise.label and model_label).
  course_discover_tests(exercise${id} PREFIX "${nn} exercise ${number}" GPU
    GPU_LABELS exercise ex${nn}.${number} TIMEOUT ${COURSE_EXERCISE_TIMEOUT})
  course_exercise_checks(exercise${id} "${nn} exercise ${number}" "exercise;ex${nn}.${number}" ""
    ${checks_args})
  if(model)
    course_exercise_answer(solution${id} "${solution}" ${answer_args})
    course_discover_tests(solution${id} PREFIX "${nn} solution ${number}" GPU
      GPU_LABELS solution sol${nn}.${number} TIMEOUT ${COURSE_EXERCISE_TIMEOUT})
    course_exercise_checks(solution${id} "${nn} solution ${number}" "solution;sol${nn}.${number}"
      "" ${checks_args})
  endif()

  # The wrong answers. Each says, on a line of its own, how it must score zero:
  #   // expect: rejected: <what the check prints>   (it never builds)
  #   // expect: fails: <regular expression>        (a test fails, printing this)
  #   // expect: hangs                              (the watchdog stops it)
  #   // expect: compiled: <regular expression>     (its PTX breaks a COMPILED rule, saying this)
  #   // expect: objects: <regular expression>      (its objects define or call what the exercise
  #                                                    does not allow, scripts/check_objects.py)
  #   // expect: preprocessed: <what the check prints> (its preprocessed code breaks a rule,
  #                                                    scripts/check_preprocessed.py)
  #   // expect: slow                               (it takes more than TIME_FACTOR times the model,
  #                                                    or its timed run fails its own checks)
  #   // expect: fails when timed: <regular expression> (its [timing] case fails, printing this:
  #                                                    for an answer that cheats only when timed)
  # and, beside fails: or hangs, "// needs: N GPUs" when it is wrong only on N GPUs or more.
  # They live beside the solution, out of the students' handout: solutions/NN_topic/wrong/<name>/.
  set(answers_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson_dir}")
  file(GLOB wrong_answers "${answers_dir}/wrong/${name}/*.cuh")
  foreach(wrong IN LISTS wrong_answers)
    get_filename_component(kind "${wrong}" NAME_WE)
    file(STRINGS "${wrong}" expect REGEX "^// expect: " LIMIT_COUNT 1)
    set(test_name "${nn} wrong ${number} ${kind}/scores zero")
    if(expect MATCHES "^// expect: rejected: (.+)$")
      add_test(NAME "${test_name}" COMMAND "${CMAKE_COMMAND}" -D "EXERCISE=wrong${id}_${kind}"
        -D "SOURCE=${wrong}" ${check_args})
      string(REGEX REPLACE "([][.*+?()^$|\\])" "\\\\\\1" literal "${CMAKE_MATCH_1}")
      set_tests_properties("${test_name}" PROPERTIES LABELS grading
        PASS_REGULAR_EXPRESSION "${literal} \\(not allowed in this exercise\\)")
    elseif(expect MATCHES "^// expect: compiled: (.+)$")
      set(pattern "${CMAKE_MATCH_1}")
      if(NOT arg_COMPILED)
        message(FATAL_ERROR "${wrong} expects a compiled-code failure, but the exercise has no COMPILED spec")
      endif()
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args})
      course_exercise_checks(wrong${id}_${kind} "${nn} wrong ${number} ${kind}" grading
        "COMPILED;${pattern}" ${checks_args})
    elseif(expect MATCHES "^// expect: preprocessed: (.+)$")
      # Refused by the check of its preprocessed code: only that is made, and its test runs it.
      string(REGEX REPLACE "([][.*+?()^$|\\])" "\\\\\\1" literal "${CMAKE_MATCH_1}")
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args} PREPROCESS_ONLY)
      add_test(NAME "${test_name}" COMMAND Python3::Interpreter ${COURSE_PREPROCESSED_CHECK})
      set_tests_properties("${test_name}" PROPERTIES LABELS grading
        PASS_REGULAR_EXPRESSION "${literal}[^\n]*\\(not allowed in this exercise\\)")
    elseif(expect MATCHES "^// expect: objects: (.+)$")
      set(pattern "${CMAKE_MATCH_1}")
      if(NOT model)
        message(FATAL_ERROR "${wrong} expects an objects failure, but the exercise has no solution")
      endif()
      # Its objects alone: one that defines main() would not link, and its program is not run.
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args} OBJECTS_ONLY)
      course_exercise_checks(wrong${id}_${kind} "${nn} wrong ${number} ${kind}" grading
        "OBJECTS;${pattern}" ${checks_args})
    elseif(expect MATCHES "^// expect: slow$")
      if(NOT arg_TIME_FACTOR OR NOT model)
        message(FATAL_ERROR "${wrong} expects to be slow, but the exercise has no TIME_FACTOR or no solution")
      endif()
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args})
      course_exercise_checks(wrong${id}_${kind} "${nn} wrong ${number} ${kind}" grading "SLOW"
        ${checks_args})
    elseif(expect MATCHES "^// expect: fails when timed: (.+)$")
      set(pattern "${CMAKE_MATCH_1}")
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args})
      # The [timing] case alone, once: its checks, not its time.
      add_test(NAME "${test_name}" COMMAND wrong${id}_${kind} --needs-gpu "[timing]")
      course_count_gpu_test("${test_name}")
      set_tests_properties("${test_name}" PROPERTIES LABELS grading
        PASS_REGULAR_EXPRESSION "${pattern}"
        SKIP_REGULAR_EXPRESSION "SKIPPED: " TIMEOUT ${COURSE_EXERCISE_TIMEOUT})
    elseif(expect MATCHES "^// expect: (fails: (.+)|hangs)$")
      set(pattern "${CMAKE_MATCH_2}")
      if(expect MATCHES "hangs$")
        set(pattern "the kernel did not finish in [0-9]+ s")
      endif()
      # "// needs: N GPUs": it is wrong only where ranks sit on different GPUs (lesson 07), and is
      # skipped on a machine with fewer.
      file(STRINGS "${wrong}" needs REGEX "^// needs: [0-9]+ GPUs$" LIMIT_COUNT 1)
      set(needs_gpus)
      if(needs MATCHES "^// needs: ([0-9]+) GPUs$")
        set(needs_gpus --needs-gpus ${CMAKE_MATCH_1})
      endif()
      course_exercise_answer(wrong${id}_${kind} "${wrong}" ${answer_args})
      # Every test case but the [timing] one, which time_answer.py runs.
      add_test(NAME "${test_name}" COMMAND wrong${id}_${kind} --needs-gpu ${needs_gpus} "~[timing]")
      course_count_gpu_test("${test_name}")
      set_tests_properties("${test_name}" PROPERTIES LABELS grading
        PASS_REGULAR_EXPRESSION "${pattern}"
        SKIP_REGULAR_EXPRESSION "SKIPPED: " TIMEOUT ${COURSE_EXERCISE_TIMEOUT})  # no GPU, or too few
    else()
      message(FATAL_ERROR "${wrong} has no '// expect: rejected: ...', '// expect: fails: ...', "
                          "'// expect: fails when timed: ...', '// expect: hangs', "
                          "'// expect: compiled: ...', '// expect: objects: ...', "
                          "'// expect: preprocessed: ...' or "
                          "'// expect: slow' line")
    endif()
  endforeach()

  # The answers that are wrong but may pass (solutions/NN_topic/unseen/<name>/, the reason in each
  # one's first comment): built like the others, and each run by one test (label "unseen", in no
  # test preset) that always passes and says whether its test cases, its objects check, its
  # compiled-code check or its time bound now catch it (cmake/report_unseen.cmake).
  file(GLOB unseen_answers "${answers_dir}/unseen/${name}/*.cuh")
  foreach(unseen IN LISTS unseen_answers)
    get_filename_component(kind "${unseen}" NAME_WE)
    set(target unseen${id}_${kind})
    course_exercise_answer(${target} "${unseen}" ${answer_args})
    set(report_args -D "PROGRAM=$<TARGET_FILE:${target}>" -D "ANSWER=${target}"
      -D "PYTHON=${Python3_EXECUTABLE}" -D "SCRIPTS=${PROJECT_SOURCE_DIR}/scripts"
      -D "TIMEOUT=${COURSE_EXERCISE_TIMEOUT}")
    if(arg_COMPILED)
      list(APPEND report_args -D "SPEC=${grading}/${arg_COMPILED}"
        -D "PTX=$<TARGET_OBJECTS:${target}_ptx>")
    endif()
    if(model)
      list(APPEND report_args -D "OBJECT=$<TARGET_OBJECTS:${target}_answer>"
        -D "MODEL_OBJECT=$<TARGET_OBJECTS:${model}_answer>"
        -D "OBJECT_PTX=$<TARGET_OBJECTS:${target}_ptx>"
        -D "MODEL_PTX=$<TARGET_OBJECTS:${model}_ptx>" -D "NAMESPACE=exercise${nn}"
        -D "HOST_CALLS=${host_calls}" -D "DEVICE_CALLS=${device_calls}")
    endif()
    if(arg_TIME_FACTOR AND model)
      list(APPEND report_args -D "MODEL=$<TARGET_FILE:${model}>" -D "FACTOR=${arg_TIME_FACTOR}")
    endif()
    set(test_name "${nn} unseen ${number} ${kind}/is it caught")
    add_test(NAME "${test_name}" COMMAND "${CMAKE_COMMAND}" ${report_args}
      -P "${PROJECT_SOURCE_DIR}/cmake/report_unseen.cmake")
    set_tests_properties("${test_name}" PROPERTIES LABELS unseen RUN_SERIAL ON)
  endforeach()
endfunction()

# course_exercise_answer(<target> <answer> NAME <name> GRADING <dir> INCLUDE_DIR <dir>
#                        TESTS <object library> [COMPILED <spec>] CHECK_ARGS args...
#                        [LIBRARIES libs...] [USES targets...] [OBJECTS_ONLY | PREPROCESS_ONLY])
#   One answer to exercise <name> (course_add_exercise passes the rest): checks and stages <answer>
#   as <name>.cuh with cmake/check_exercise.cmake (CHECK_ARGS), builds it with the harness
#   GRADING/<name>_harness.cu against INCLUDE_DIR and the USES lesson targets, and links the
#   exercise's tests (the object library TESTS) into the program <target>; the same answer and
#   harness as PTX too (<target>_ptx); before either compiles, the check of the preprocessed code
#   (<target>_preprocessed). OBJECTS_ONLY: the objects and the PTX, and no program.
#   PREPROCESS_ONLY: the preprocessed code alone, unchecked (a wrong answer's test checks it).
function(course_exercise_answer target answer)
  cmake_parse_arguments(arg "OBJECTS_ONLY;PREPROCESS_ONLY" "NAME;GRADING;INCLUDE_DIR;TESTS;COMPILED"
    "CHECK_ARGS;LIBRARIES;USES" ${ARGN})
  set(name "${arg_NAME}")
  set(stage_dir "${CMAKE_BINARY_DIR}/grading/${target}")
  # A missing answer fails its own check, and only that: the build may not depend on a file that
  # is not there (ninja would refuse to build anything). Its folder is watched instead, so that
  # adding the file configures again.
  set(answer_depends)
  if(EXISTS "${answer}")
    set(answer_depends "${answer}")
  else()
    get_filename_component(answer_dir "${answer}" DIRECTORY)
    if(IS_DIRECTORY "${answer_dir}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${answer_dir}")
    endif()
  endif()
  # The check's verdict, answer_check.json beside the staged answer, is what grade.py reads.
  add_custom_command(OUTPUT "${stage_dir}/${name}.cuh"
    BYPRODUCTS "${stage_dir}/answer_check.json"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${stage_dir}/${name}.cuh" "${stage_dir}/answer_check.json"
    COMMAND "${CMAKE_COMMAND}" -D "EXERCISE=${target}" -D "SOURCE=${answer}"
            -D "DESTINATION=${stage_dir}/${name}.cuh"
            -D "VERDICT=${stage_dir}/answer_check.json" ${arg_CHECK_ARGS}
    DEPENDS ${answer_depends} "${PROJECT_SOURCE_DIR}/cmake/check_exercise.cmake"
    COMMENT "Checking ${target}'s ${name}.cuh" VERBATIM)
  add_library(${target}_answer OBJECT "${arg_GRADING}/${name}_harness.cu"
                                      "${stage_dir}/${name}.cuh")
  target_include_directories(${target}_answer PRIVATE "${stage_dir}" "${arg_INCLUDE_DIR}")
  target_link_libraries(${target}_answer PRIVATE course_flags ${arg_USES})
  if(arg_PREPROCESS_ONLY)  # not built: it gives the preprocessing its include folders and macros
    set_target_properties(${target}_answer PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  if(NOT arg_OBJECTS_ONLY AND NOT arg_PREPROCESS_ONLY)
    add_executable(${target} $<TARGET_OBJECTS:${target}_answer>
                   $<TARGET_OBJECTS:${arg_TESTS}>)
    target_link_libraries(${target} PRIVATE course_test_main ${arg_LIBRARIES})
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  endif()
  # The same answer and harness as PTX, without the probes, for scripts/check_compiled.py (the
  # COMPILED spec) and scripts/check_objects.py (the device code's calls); built with the answer.
  if(NOT arg_PREPROCESS_ONLY)
    add_library(${target}_ptx OBJECT "${arg_GRADING}/${name}_harness.cu"
                                     "${stage_dir}/${name}.cuh")
    set_target_properties(${target}_ptx PROPERTIES CUDA_PTX_COMPILATION ON)
    target_compile_definitions(${target}_ptx PRIVATE GRADING_SASS=1)
    target_include_directories(${target}_ptx PRIVATE "${stage_dir}" "${arg_INCLUDE_DIR}")
    target_link_libraries(${target}_ptx PRIVATE course_flags ${arg_USES})
  endif()
  if(NOT arg_OBJECTS_ONLY AND NOT arg_PREPROCESS_ONLY)
    add_dependencies(${target} ${target}_ptx)
  endif()
  # The answer's preprocessed code, as the build and the PTX build make it, checked before either
  # compiles (scripts/check_preprocessed.py): what its text hides from the check of its text.
  set(includes "$<TARGET_PROPERTY:${target}_answer,INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target}_answer,COMPILE_DEFINITIONS>")
  set(preprocess "${CMAKE_CUDA_COMPILER}" -E -Xcompiler=-dD -x cu -std=c++${CMAKE_CUDA_STANDARD}
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
    "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>")
  get_filename_component(harness "${arg_GRADING}/${name}_harness.cu" ABSOLUTE)
  set(empty_source "${CMAKE_BINARY_DIR}/grading/empty.cu")
  if(NOT EXISTS "${empty_source}")
    file(WRITE "${empty_source}" "")
  endif()
  # The check's FORBID, from its CHECK_ARGS (-D FORBID=a,b): the names it refuses in the answer's
  # tokens too.
  set(forbid)
  foreach(arg IN LISTS arg_CHECK_ARGS)
    if(arg MATCHES "^FORBID=(.*)$")
      set(forbid "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(pp_check "${PROJECT_SOURCE_DIR}/scripts/check_preprocessed.py"
    --preprocessed "${stage_dir}/preprocessed.ii" --ptx-preprocessed "${stage_dir}/preprocessed_ptx.ii"
    --alone "${stage_dir}/preprocessed_alone.ii" "--forbid=${forbid}"
    --answer-file "${answer}" --include-dir "${arg_INCLUDE_DIR}"
    --exercise "${target}")
  set(check_step COMMAND Python3::Interpreter ${pp_check} --verdict "${stage_dir}/answer_check.json")
  if(arg_PREPROCESS_ONLY)  # a wrong answer the check must refuse: its test runs the check
    set(check_step)
    set(COURSE_PREPROCESSED_CHECK ${pp_check} PARENT_SCOPE)
  endif()
  add_custom_command(OUTPUT "${stage_dir}/preprocessed.ok"
    BYPRODUCTS "${stage_dir}/preprocessed.ii" "${stage_dir}/preprocessed_ptx.ii"
      "${stage_dir}/preprocessed_alone.ii"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${stage_dir}/preprocessed.ok"
    COMMAND ${preprocess} "${harness}" -o "${stage_dir}/preprocessed.ii"
    COMMAND ${preprocess} -DGRADING_SASS=1 "${harness}" -o "${stage_dir}/preprocessed_ptx.ii"
    # The answer alone, without the harness's macros, for the names its own tokens spell
    # (included into an empty file, as the harness includes it: no "#pragma once in main file").
    COMMAND ${preprocess} -include "${stage_dir}/${name}.cuh" "${empty_source}"
            -o "${stage_dir}/preprocessed_alone.ii"
    ${check_step}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stage_dir}/preprocessed.ok"
    DEPENDS "${stage_dir}/${name}.cuh" "${harness}"
      "${PROJECT_SOURCE_DIR}/scripts/check_preprocessed.py"
      "${PROJECT_SOURCE_DIR}/scripts/course/preprocessed.py"
      "${PROJECT_SOURCE_DIR}/cmake/answer_rules.json"
    COMMENT "Checking ${target}'s ${name}.cuh, preprocessed" COMMAND_EXPAND_LISTS VERBATIM)
  if(arg_PREPROCESS_ONLY)
    add_custom_target(${target}_preprocessed ALL DEPENDS "${stage_dir}/preprocessed.ok")
  else()
    add_custom_target(${target}_preprocessed DEPENDS "${stage_dir}/preprocessed.ok")
    add_dependencies(${target}_answer ${target}_preprocessed)
    # The PTX after the objects (a generated source of its own orders its compile behind them):
    # an answer that does not compile says so once, not twice.
    add_custom_command(OUTPUT "${stage_dir}/compiled.stamp"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stage_dir}/compiled.stamp"
      DEPENDS "$<TARGET_OBJECTS:${target}_answer>" VERBATIM)
    target_sources(${target}_ptx PRIVATE "${stage_dir}/compiled.stamp")
  endif()
endfunction()

# course_exercise_checks(<target> <prefix> <label> <expect> GRADING <dir> [COMPILED <spec>]
#                        [TIME_FACTOR <f>] [MODEL <target>] [NAMESPACE <exerciseNN>]
#                        [HOST_CALLS <a,b,...>] [DEVICE_CALLS <a,b,...>])
#   The checks beside an answer's test cases: its objects against the model answer's (what they
#   define and call, scripts/check_objects.py, with the manifest's allow-lists), its compiled code
#   against the COMPILED spec (a file in GRADING), and its time against the model answer's program
#   MODEL (TIME_FACTOR). <prefix> names the tests, <label> labels them. <expect>: "" (they must
#   pass), "OBJECTS;<regex>" (the objects check must fail, printing this), "COMPILED;<regex>" (the
#   compiled check must fail, printing this) or "SLOW" (the time bound must fail).
function(course_exercise_checks target prefix label expect)
  cmake_parse_arguments(arg "" "GRADING;COMPILED;TIME_FACTOR;MODEL;NAMESPACE;HOST_CALLS;DEVICE_CALLS"
    "" ${ARGN})
  set(grading "${arg_GRADING}")
  set(model "${arg_MODEL}")
  set(want "")
  if(expect)
    list(GET expect 0 want)
  endif()
  if(model AND NOT want STREQUAL "SLOW" AND NOT want STREQUAL "COMPILED")
    set(name "${prefix}/its objects define and call only what the exercise allows")
    if(want STREQUAL "OBJECTS")
      set(name "${prefix}/scores zero")
    endif()
    add_test(NAME "${name}" COMMAND Python3::Interpreter
      "${PROJECT_SOURCE_DIR}/scripts/check_objects.py" --object $<TARGET_OBJECTS:${target}_answer>
      --model $<TARGET_OBJECTS:${model}_answer> --ptx $<TARGET_OBJECTS:${target}_ptx>
      --model-ptx $<TARGET_OBJECTS:${model}_ptx> --namespace ${arg_NAMESPACE}
      "--host-calls=${arg_HOST_CALLS}" "--device-calls=${arg_DEVICE_CALLS}" --answer "${target}")
    set_tests_properties("${name}" PROPERTIES LABELS "${label}")
    if(want STREQUAL "OBJECTS")
      list(GET expect 1 pattern)
      set_tests_properties("${name}" PROPERTIES PASS_REGULAR_EXPRESSION "${pattern}")
    endif()
  endif()
  if(arg_COMPILED AND NOT want STREQUAL "SLOW" AND NOT want STREQUAL "OBJECTS")
    set(name "${prefix}/its compiled code has what the technique needs and nothing it rules out")
    if(want STREQUAL "COMPILED")
      set(name "${prefix}/scores zero")
    endif()
    add_test(NAME "${name}" COMMAND Python3::Interpreter
      "${PROJECT_SOURCE_DIR}/scripts/check_compiled.py" --spec "${grading}/${arg_COMPILED}"
      --ptx $<TARGET_OBJECTS:${target}_ptx> --answer "${target}")
    set_tests_properties("${name}" PROPERTIES LABELS "${label}")
    if(want STREQUAL "COMPILED")
      list(GET expect 1 pattern)
      set_tests_properties("${name}" PROPERTIES PASS_REGULAR_EXPRESSION "${pattern}")
    endif()
  endif()
  if(arg_TIME_FACTOR AND model AND NOT want STREQUAL "COMPILED" AND NOT want STREQUAL "OBJECTS")
    set(name "${prefix}/it takes at most ${arg_TIME_FACTOR} times the model answer's time")
    if(want STREQUAL "SLOW")
      set(name "${prefix}/scores zero")
    endif()
    add_test(NAME "${name}" COMMAND Python3::Interpreter
      "${PROJECT_SOURCE_DIR}/scripts/time_answer.py" --answer $<TARGET_FILE:${target}>
      --model $<TARGET_FILE:${model}> --factor ${arg_TIME_FACTOR} --name "${target}")
    set_tests_properties("${name}" PROPERTIES LABELS "${label}" SKIP_RETURN_CODE 77
      SKIP_REGULAR_EXPRESSION "SKIPPED: " TIMEOUT ${COURSE_EXERCISE_TIMEOUT} RUN_SERIAL ON)
    if(want STREQUAL "SLOW")
      set_tests_properties("${name}" PROPERTIES
        PASS_REGULAR_EXPRESSION
        "more than [0-9.]+ times the model answer's|the answer's timed run failed")
    endif()
    if(NOT "exercise" IN_LIST label)
      course_count_gpu_test("${name}")
    endif()
  endif()
endfunction()
