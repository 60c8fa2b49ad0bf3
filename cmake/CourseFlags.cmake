# The build type, the language standards, and the two interface targets every course target
# links: course_flags and course_common.

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)

# --- the flags every course target shares, and the common headers ------------------------------
# course_flags: warnings, line info, the architectures' definition and the CUDA runtime, with no
# include path; the graded exercises' own code builds with these alone (course_add_exercise).
add_library(course_flags INTERFACE)
target_compile_options(course_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  # Source lines in profiles of optimised code; -G (device debug) for cuda-gdb in Debug.
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<NOT:$<CONFIG:Debug>>>:-lineinfo>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>)
target_compile_definitions(course_flags INTERFACE
  "COURSE_CUDA_ARCHITECTURES=\"${CMAKE_CUDA_ARCHITECTURES}\"")
target_link_libraries(course_flags INTERFACE CUDA::cudart Threads::Threads ${CMAKE_DL_LIBS})
add_library(course_common INTERFACE)
target_include_directories(course_common INTERFACE "${PROJECT_SOURCE_DIR}/common")
target_link_libraries(course_common INTERFACE course_flags)
