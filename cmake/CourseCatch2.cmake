# Catch2 for the tests (COURSE_BUILD_TESTS), and the tests' shared main(), course_test_main.

# --- Catch2: v3 if installed, else v2, else fetched v3 --------------------------------------------
if(COURSE_BUILD_TESTS)
  find_package(Catch2 3 QUIET)
  if(Catch2_FOUND)
    set(COURSE_CATCH2_MAJOR 3)
  else()
    find_package(Catch2 2 QUIET)
    if(Catch2_FOUND)
      set(COURSE_CATCH2_MAJOR 2)
    endif()
  endif()
  if(NOT Catch2_FOUND)
    set(course_catch2_url "https://github.com/catchorg/Catch2/archive/refs/tags/v3.7.1.tar.gz")
    set(course_catch2_archive "${CMAKE_BINARY_DIR}/_deps/catch2-v3.7.1.tar.gz")
    message(STATUS "Catch2 not installed: trying to download v3.7.1")
    file(DOWNLOAD "${course_catch2_url}" "${course_catch2_archive}"
      STATUS course_catch2_status TIMEOUT 60 INACTIVITY_TIMEOUT 20)
    list(GET course_catch2_status 0 course_catch2_code)
    if(NOT course_catch2_code EQUAL 0)
      file(REMOVE "${course_catch2_archive}")
      message(FATAL_ERROR
        "Catch2 was not found and could not be downloaded. Install it ('sudo apt install catch2' "
        "on Debian 12 and Ubuntu 22.04/24.04), or point CMake at one with "
        "-DCMAKE_PREFIX_PATH=/path/to/catch2, or build the lessons alone with "
        "-DCOURSE_BUILD_TESTS=OFF.")
    endif()
    include(FetchContent)
    FetchContent_Declare(Catch2 URL "${course_catch2_archive}")
    FetchContent_MakeAvailable(Catch2)
    list(APPEND CMAKE_MODULE_PATH "${catch2_SOURCE_DIR}/extras")
    set(COURSE_CATCH2_MAJOR 3)
    set(Catch2_VERSION 3.7.1)
  endif()
  message(STATUS "Catch2 ${Catch2_VERSION} (v${COURSE_CATCH2_MAJOR}) for the tests")
  include(CTest)
  include(Catch)

  # The shared main(): skips [gpu] test cases when no CUDA device is usable (test_main.cpp).
  add_library(course_test_main STATIC "${PROJECT_SOURCE_DIR}/common/test_main.cpp")
  target_compile_definitions(course_test_main PUBLIC COURSE_CATCH2_MAJOR=${COURSE_CATCH2_MAJOR})
  target_link_libraries(course_test_main PUBLIC course_common Catch2::Catch2)
endif()
