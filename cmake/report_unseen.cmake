# Says whether an answer kept in solutions/NN_topic/unseen/ (wrong, but one the grading may not
# see) is now caught, and passes either way: the test of label "unseen" that
# cmake/CourseExercise.cmake adds for each.
#
#   cmake -D PROGRAM=build/tests/unseen02_2_x -D ANSWER=unseen02_2_x -D PYTHON=python3
#         -D SCRIPTS=scripts [-D TIMEOUT=300] [-D SPEC=..._compiled.txt -D PTX=....ptx]
#         [-D OBJECT=....o -D MODEL_OBJECT=....o -D OBJECT_PTX=....ptx -D MODEL_PTX=....ptx
#          -D NAMESPACE=exercise02 -D HOST_CALLS=a,b -D DEVICE_CALLS=]
#         [-D MODEL=build/tests/solution02_2 -D FACTOR=3] -P cmake/report_unseen.cmake
#
# It runs what would grade the answer: its test cases but the [timing] one (as a wrong answer's
# test does), its objects against the model answer's (scripts/check_objects.py, no GPU needed),
# its compiled code against SPEC (scripts/check_compiled.py, no GPU needed) and its
# time against MODEL's (scripts/time_answer.py), and prints one line for each and a last line,
#   unseen02_2_x: caught (by its test cases)
# or "not caught", or "not run" where nothing could run (no GPU and no compiled-code check).
cmake_minimum_required(VERSION 3.18)

foreach(required PROGRAM ANSWER PYTHON SCRIPTS)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "report_unseen.cmake needs -D ${required}=...")
  endif()
endforeach()
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 300)
endif()
set(caught_by)
set(ran OFF)
if(NOT EXISTS "${PROGRAM}")
  message("${ANSWER}: not run (not built: cmake --build <build> --target ${ANSWER})")
  return()
endif()

# Its test cases, but the [timing] one.
execute_process(COMMAND "${PROGRAM}" --needs-gpu "~[timing]" RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT ${TIMEOUT})
if(out MATCHES "SKIPPED: ")
  message("${ANSWER}: test cases not run (no GPU)")
elseif(rc EQUAL 0)
  set(ran ON)
  set(cases_ran ON)
  message("${ANSWER}: its test cases pass")
else()
  set(ran ON)
  set(cases_ran ON)
  list(APPEND caught_by "its test cases")
  string(REGEX MATCH "[^\n]*(FAILED|did not finish)[^\n]*" line "${out}")
  message("${ANSWER}: its test cases fail (${rc}): ${line}")
endif()

# Its compiled code.
if(DEFINED OBJECT)
  execute_process(COMMAND "${PYTHON}" "${SCRIPTS}/check_objects.py" --object "${OBJECT}"
    --model "${MODEL_OBJECT}" --ptx "${OBJECT_PTX}" --model-ptx "${MODEL_PTX}"
    --namespace "${NAMESPACE}" "--host-calls=${HOST_CALLS}" "--device-calls=${DEVICE_CALLS}"
    --answer "${ANSWER}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(ran ON)
  string(STRIP "${out}" out)
  if(rc EQUAL 0)
    message("${ANSWER}: its objects pass the check")
  else()
    list(APPEND caught_by "its objects")
    message("${ANSWER}: its objects fail the check: ${out}")
  endif()
endif()

if(DEFINED SPEC)
  execute_process(COMMAND "${PYTHON}" "${SCRIPTS}/check_compiled.py" --spec "${SPEC}"
    --ptx "${PTX}" --answer "${ANSWER}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  set(ran ON)
  string(STRIP "${out}" out)
  if(rc EQUAL 0)
    message("${ANSWER}: its compiled code passes the check")
  else()
    list(APPEND caught_by "its compiled code")
    message("${ANSWER}: its compiled code fails the check: ${out}")
  endif()
endif()

# Its time.
if(DEFINED MODEL AND NOT EXISTS "${MODEL}")
  message("${ANSWER}: its time not measured (the model answer, ${MODEL}, is not built)")
elseif(DEFINED MODEL)
  execute_process(COMMAND "${PYTHON}" "${SCRIPTS}/time_answer.py" --answer "${PROGRAM}"
    --model "${MODEL}" --factor "${FACTOR}" --name "${ANSWER}" RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT ${TIMEOUT})
  string(STRIP "${out}" out)
  if(rc EQUAL 77)
    message("${ANSWER}: its time not measured (${out})")
  elseif(rc EQUAL 0)
    set(ran ON)
    message("${ANSWER}: its time is within the bound")
  elseif(out MATCHES "more than [0-9.]+ times the model answer's|the answer's timed run failed")
    set(ran ON)
    list(APPEND caught_by "its time")
    message("${ANSWER}: its time is not within the bound: ${out}")
  else()
    message("${ANSWER}: its time could not be measured (${rc}): ${out}")
  endif()
endif()

if(caught_by)
  string(REPLACE ";" ", " caught_by "${caught_by}")
  message("${ANSWER}: caught (by ${caught_by})")
elseif(ran AND NOT cases_ran)
  message("${ANSWER}: not caught by the checks that ran here (its test cases need a GPU)")
elseif(ran)
  message("${ANSWER}: not caught")
else()
  message("${ANSWER}: not run")
endif()
