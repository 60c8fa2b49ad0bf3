# Included by the expect_*.cmake scripts: a PROGRAM not built yet (a test run before its build)
# ends the script with one line that says so, and the command that builds it.
if(NOT EXISTS "${PROGRAM}")
  get_filename_component(name "${PROGRAM}" NAME)
  get_filename_component(build "${PROGRAM}" DIRECTORY)
  while(NOT EXISTS "${build}/CMakeCache.txt" AND NOT build STREQUAL "/" AND build)
    get_filename_component(build "${build}" DIRECTORY)
  endwhile()
  message(FATAL_ERROR "${name}: not built yet: ${PROGRAM}: run cmake --build ${build} --target "
                      "${name}")
endif()
