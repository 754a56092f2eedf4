# Runs one program and compares what it prints with a checked-in expected output.
#   cmake -DCOMMAND="exe|arg|…" (arguments joined with |, so that no list escaping is needed) -DEXPECTED=file [-DUPDATE=ON] [-DWORKDIR=dir] -P compare_output.cmake
# With UPDATE=ON it rewrites the expected file instead (the `update-golden` target), so goldens
# change only deliberately, never by hand-editing them to match.
if(NOT DEFINED WORKDIR)
  set(WORKDIR ${CMAKE_CURRENT_LIST_DIR})
endif()
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND}
  WORKING_DIRECTORY ${WORKDIR}
  OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "`${COMMAND}` exited with ${rc}:\n${errors}")
endif()
if(UPDATE)
  file(WRITE ${EXPECTED} "${actual}")
  message(STATUS "updated ${EXPECTED}")
  return()
endif()
if(NOT EXISTS ${EXPECTED})
  message(FATAL_ERROR "no expected output ${EXPECTED}; create it with the update-golden target")
endif()
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  get_filename_component(name ${EXPECTED} NAME)
  set(actual_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.actual)
  file(WRITE ${actual_file} "${actual}")
  execute_process(COMMAND diff -u ${EXPECTED} ${actual_file} OUTPUT_VARIABLE delta)
  message(FATAL_ERROR "output differs from ${EXPECTED} (actual in ${actual_file}):\n${delta}")
endif()
