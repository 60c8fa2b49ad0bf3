# FindNCCL: NCCL, which is not part of the CUDA Toolkit (lesson 07).
#
#   find_package(NCCL [QUIET] [REQUIRED])
#
# Looks in the system's folders (NVIDIA's libnccl-dev package), under NCCL_ROOT (-DNCCL_ROOT=... or
# the environment), and in the nvidia-nccl-cu12/-cu13 package from PyPI (python3 -m pip install
# nvidia-nccl-cu13), which python3 is asked for. Gives
#   NCCL_FOUND         whether nccl.h and the library were both found;
#   NCCL_INCLUDE_DIR   the folder of nccl.h, and NCCL_LIBRARY the library (cache variables);
#   NCCL::nccl         an imported target with both.
set(course_nccl_hints "")
if(DEFINED ENV{NCCL_ROOT})
  list(APPEND course_nccl_hints "$ENV{NCCL_ROOT}")
endif()
if(NOT Python3_EXECUTABLE)
  find_package(Python3 COMPONENTS Interpreter QUIET)
endif()
if(Python3_EXECUTABLE)
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c
            "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))"
    OUTPUT_VARIABLE course_pip_nccl OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE course_pip_nccl_result ERROR_QUIET)
  if(course_pip_nccl_result EQUAL 0)
    list(APPEND course_nccl_hints "${course_pip_nccl}")
  endif()
endif()
find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} ${course_nccl_hints} PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2
  HINTS ${NCCL_ROOT} ${course_nccl_hints} PATH_SUFFIXES lib lib64)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR)
if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl UNKNOWN IMPORTED)
  set_target_properties(NCCL::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
