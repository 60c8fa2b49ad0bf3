# The CUDA compiler and the architectures to build for. Included by the top CMakeLists.txt before
# project(), which reads both.

# --- nvcc ----------------------------------------------------------------------------------------
# Found before project() so that a missing toolkit gets one clear message. The toolkit's default
# home is searched too, since its installers do not always put it on PATH.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(COURSE_NVCC nvcc HINTS "$ENV{CUDA_PATH}/bin" /usr/local/cuda/bin)
  if(NOT COURSE_NVCC)
    message(FATAL_ERROR
      "nvcc was not found. Install the CUDA Toolkit 12.x or 13.x (docs/setup.md) and put its "
      "bin folder on PATH, or pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc.")
  endif()
  set(CMAKE_CUDA_COMPILER "${COURSE_NVCC}" CACHE FILEPATH "The CUDA compiler")
endif()

# --- CUDA architectures --------------------------------------------------------------------------
# Precedence: -DCMAKE_CUDA_ARCHITECTURES, then the CUDAARCHS environment variable (CMake reads it
# itself), then "native" when nvidia-smi sees a GPU, then COURSE_FALLBACK_CUDA_ARCHITECTURES for
# machines with none (compile-only builds such as CI). 75 (Turing) is the oldest architecture that
# CUDA 12 and 13 both compile for; its PTX is embedded too, so the driver can compile it for any
# newer GPU, at start-up and without that GPU's newer instructions.
set(COURSE_FALLBACK_CUDA_ARCHITECTURES "75" CACHE STRING
  "CUDA architectures to build for when no GPU is visible at configure time")
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  execute_process(COMMAND nvidia-smi --query-gpu=name --format=csv,noheader
    RESULT_VARIABLE course_smi_result OUTPUT_VARIABLE course_smi_gpus ERROR_QUIET)
  if(course_smi_result EQUAL 0 AND course_smi_gpus MATCHES "[A-Za-z]")
    string(STRIP "${course_smi_gpus}" course_smi_gpus)
    message(STATUS "GPU found (${course_smi_gpus}): building for the native architecture")
    set(course_arch native)
  else()
    message(STATUS "No GPU visible: building for ${COURSE_FALLBACK_CUDA_ARCHITECTURES} "
                   "(COURSE_FALLBACK_CUDA_ARCHITECTURES)")
    set(course_arch "${COURSE_FALLBACK_CUDA_ARCHITECTURES}")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${course_arch}" CACHE STRING "CUDA architectures to build for")
endif()
