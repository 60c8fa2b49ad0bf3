# NVBench, the benchmark harness of CUB and cuCollections, as a second clock for the lessons'
# tables (bench/course_nvbench.cu). When CMake finds it, every lesson also builds
# lessonNN_nvbench: the same program, timed by NVBench. Nothing else depends on it: the lessons,
# tests and exercises build and run the same without it.
#
# NVBench ships in the cuda-bench package on PyPI, built for CUDA 12 and 13:
#   python3 -m pip install cuda-bench
# CMake then finds it by itself through python3; or name its folder with -Dnvbench_DIR=... (the
# cuda/bench/cu13/nvbench/lib/cmake/nvbench folder of the unpacked wheel).
option(COURSE_NVBENCH "Build the lessonNN_nvbench programs when NVBench is found" ON)

if(COURSE_NVBENCH)
  string(REGEX MATCH "^[0-9]+" course_cuda_major "${CMAKE_CUDA_COMPILER_VERSION}")
  set(course_nvbench_hints "")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c
              "import cuda.bench, os; print(os.path.dirname(cuda.bench.__file__))"
      OUTPUT_VARIABLE course_cuda_bench_dir OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE course_cuda_bench_result ERROR_QUIET)
    if(course_cuda_bench_result EQUAL 0)
      list(APPEND course_nvbench_hints
        "${course_cuda_bench_dir}/cu${course_cuda_major}/nvbench/lib/cmake/nvbench")
    endif()
  endif()
  # NVBench's CMake package requires CMake 3.30.4; an older CMake would stop at its first line.
  # It also makes an alias of CUDA::nvml (NVML, libnvidia-ml, which comes with the GPU driver), and
  # stops the configure where there is none (a machine without a driver): it is read only when
  # NVML is there, and otherwise looked for as a file, to say why the programs are skipped.
  set(course_nvbench_file "")
  foreach(dir IN LISTS nvbench_DIR course_nvbench_hints)
    if(dir AND EXISTS "${dir}/nvbench-config.cmake")
      set(course_nvbench_file "${dir}/nvbench-config.cmake")
      break()
    endif()
  endforeach()
  if(CMAKE_VERSION VERSION_LESS 3.30.4)
    if(course_nvbench_hints OR nvbench_DIR)
      message(STATUS "NVBench's CMake package needs CMake 3.30.4 or newer (this is "
                     "${CMAKE_VERSION}): the lessonNN_nvbench programs (bench/) are skipped")
    endif()
  elseif(TARGET CUDA::nvml)
    find_package(nvbench CONFIG QUIET HINTS ${course_nvbench_hints})
  endif()
  if(course_nvbench_file AND NOT TARGET CUDA::nvml AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.30.4)
    message(STATUS "NVBench found (${course_nvbench_file}), but not NVML (libnvidia-ml, which "
                   "comes with the GPU driver): the lessonNN_nvbench programs (bench/) are skipped")
  elseif(nvbench_FOUND)
    message(STATUS "NVBench ${nvbench_VERSION}: building the lessonNN_nvbench programs (bench/)")
    set(COURSE_HAVE_NVBENCH ON)
  else()
    message(STATUS "NVBench not found: the lessonNN_nvbench programs (bench/) are skipped. To "
                   "build them: python3 -m pip install cuda-bench, then configure again "
                   "(or pass -Dnvbench_DIR=<wheel>/cuda/bench/cu${course_cuda_major}/nvbench/lib/"
                   "cmake/nvbench)")
  endif()
endif()

# course_add_nvbench_program(<NN> [CUDA_LIBRARIES libs...])
#   lessonNN_nvbench from the calling folder's main.cu, linked with bench/course_nvbench.cu: that
#   file registers NVBench as the table backend of the course's driver (common/lesson.cuh), which
#   then times the table with NVBench and takes --nvbench. Does nothing without NVBench.
function(course_add_nvbench_program number)
  if(NOT COURSE_HAVE_NVBENCH)
    return()
  endif()
  cmake_parse_arguments(arg "" "" "CUDA_LIBRARIES" ${ARGN})
  add_executable(lesson${number}_nvbench main.cu "${PROJECT_SOURCE_DIR}/bench/course_nvbench.cu")
  target_link_libraries(lesson${number}_nvbench PRIVATE course_common ${arg_CUDA_LIBRARIES}
                                                        nvbench::nvbench)
  set_target_properties(lesson${number}_nvbench
    PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endfunction()
