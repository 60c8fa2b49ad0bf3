# Runs one program and passes when it exits with STATUS: the tests that a program refuses bad
# input before any work (docs/authoring.md).
#   cmake -D PROGRAM=<path> -D "ARGS=--n;2^30" -D STATUS=2 [-D HOST_MEMORY=1Gi] [-D SKIP=77]
#         -P expect_exit.cmake
# HOST_MEMORY sets COURSE_HOST_MEMORY, the machine's memory as the programs' memory check sees it.
# SKIP: an exit that means the check could not be made here (77: no GPU); the script then prints
# "SKIPPED: no usable CUDA GPU", which the test's SKIP_REGULAR_EXPRESSION reports as skipped.
# A program not built yet: one line that says so, and the command (expect_built.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/expect_built.cmake")
if(DEFINED HOST_MEMORY)
  set(ENV{COURSE_HOST_MEMORY} "${HOST_MEMORY}")
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
get_filename_component(name "${PROGRAM}" NAME)
string(REPLACE ";" " " shown "${ARGS}")
if(DEFINED SKIP AND status STREQUAL "${SKIP}")
  message("SKIPPED: no usable CUDA GPU (${name} exit ${status})")
  return()
endif()
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "${name} ${shown}: exit ${status}, expected ${STATUS}\n${err}")
endif()
message("${name} ${shown}: exit ${status}, as expected: ${err}")
