# Runs a lesson program where there may be no GPU, and passes when it says so as it should: one
# short line on stderr, once ("<program>: no usable CUDA GPU...", at most MAX_LINE characters,
# ending with why and CUDA's name for the error), nothing of it on stdout, and exit 77. The CPU
# part runs (something on stdout), or with NOTHING_RUN set (the arguments ask for what only the
# GPU part makes: --csv) nothing runs and stdout is empty. The program runs with
# CUDA_VISIBLE_DEVICES=-1, so that a machine with GPUs checks the same path (CUDA then says
# cudaErrorNoDevice); were a GPU still found, the test says "SKIPPED: a GPU is here".
#   cmake -D PROGRAM=<path> -D "ARGS=--n;1000" [-D NOTHING_RUN=1] -P expect_no_gpu.cmake
set(MAX_LINE 160)
# A program not built yet: one line that says so, and the command (expect_built.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/expect_built.cmake")
set(ENV{CUDA_VISIBLE_DEVICES} "-1")  # an index before any GPU: none is visible
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
if(NOT err MATCHES "^${name}: no usable CUDA GPU[^\n]*[(]cudaError[A-Za-z]+[)]\n$")
  message(FATAL_ERROR "${name}: stderr is not one line saying there is no GPU, why and CUDA's "
                      "error last:\n${err}")
endif()
string(LENGTH "${err}" length)
if(length GREATER MAX_LINE)
  message(FATAL_ERROR "${name}: the no-GPU line is ${length} characters, more than ${MAX_LINE}:\n"
                      "${err}")
endif()
if(out MATCHES "no usable CUDA GPU")
  message(FATAL_ERROR "${name}: the no-GPU line went to stdout too")
endif()
if(NOTHING_RUN)
  if(NOT err MATCHES "nothing run")
    message(FATAL_ERROR "${name}: the line does not say that nothing was run:\n${err}")
  endif()
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "${name}: refused, yet printed on stdout:\n${out}")
  endif()
  message("${name}: without a GPU, refused at once in one line, nothing run, exit 77")
else()
  if(NOT err MATCHES "the CPU part runs" OR out STREQUAL "")
    message(FATAL_ERROR "${name}: the CPU part was not said to run, or printed nothing:\n${err}")
  endif()
  message("${name}: without a GPU, said so once on stderr in ${length} characters, exit 77")
endif()
