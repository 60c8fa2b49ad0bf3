# Runs a lesson program where there may be no GPU, and passes when it says so as it should: on
# stderr, once before the CPU part and once at the end, nothing of it on stdout, and exit 77. On a
# machine with a GPU there is nothing to check: the test says "SKIPPED: a GPU is here".
#   cmake -D PROGRAM=<path> -D "ARGS=--n;1000" -P expect_no_gpu.cmake
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
get_filename_component(name "${PROGRAM}" NAME)
if(status STREQUAL "0")
  message("SKIPPED: a GPU is here (${name} exit 0)")
  return()
endif()
if(NOT status STREQUAL "77")
  message(FATAL_ERROR "${name}: exit ${status}, expected 77 without a GPU\n${err}")
endif()
if(NOT err MATCHES "^${name}: no usable CUDA GPU [^\n]*: the CPU part runs, then the program exits 77")
  message(FATAL_ERROR "${name}: stderr does not start by saying there is no GPU:\n${err}")
endif()
if(NOT err MATCHES "the GPU part is skipped")
  message(FATAL_ERROR "${name}: stderr does not end by saying the GPU part was skipped:\n${err}")
endif()
if(out MATCHES "no usable CUDA GPU")
  message(FATAL_ERROR "${name}: the no-GPU line went to stdout too")
endif()
message("${name}: without a GPU, said so on stderr first and last, exit 77")
