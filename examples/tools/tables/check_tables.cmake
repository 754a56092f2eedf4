# The tables of tables/generated: generate them, compare with the checked-in copies, or update those.
#   cmake -DMODE=compare|update|reject -DGENERATOR=<llmcost-tables> -DOUTPUT_DIR=<scratch dir>
#         -DCHECKED_IN=<source>/tables/generated -P check_tables.cmake
# compare  generate into OUTPUT_DIR; every file must equal its checked-in copy, and no checked-in
#          file may be left that is no longer generated (the test tables.generated_up_to_date)
# update   generate into OUTPUT_DIR and copy into CHECKED_IN, removing files no longer generated
#          (the `tables` target)
# reject   the generator refuses, with a message and a non-zero exit, no argument, a missing
#          directory, a file given as the directory, and a file it cannot write
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/generated_files.cmake)

foreach(var MODE GENERATOR OUTPUT_DIR CHECKED_IN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_tables.cmake: -D${var}=… is required")
  endif()
endforeach()

# Runs the generator with `args`; it must exit non-zero, print nothing on stdout, and say `why` on stderr.
function(expect_refusal what why)
  execute_process(COMMAND ${GENERATOR} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${what}: expected a non-zero exit, got '${rc}'\nstderr:\n${err}")
  endif()
  if(NOT err MATCHES "${why}")
    message(FATAL_ERROR "${what}: stderr does not match '${why}':\n${err}")
  endif()
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "${what}: printed to stdout:\n${out}")
  endif()
  message(STATUS "${what}: exit ${rc}, ${err}")
endfunction()

if(MODE STREQUAL "compare")
  llmcost_run_generator(${GENERATOR} ${OUTPUT_DIR} "*")
  llmcost_compare_generated(${OUTPUT_DIR} ${CHECKED_IN} "*" tables/generated tables)
elseif(MODE STREQUAL "update")
  llmcost_run_generator(${GENERATOR} ${OUTPUT_DIR} "*")
  llmcost_sync_generated(${OUTPUT_DIR} ${CHECKED_IN} "*" tables/generated)
elseif(MODE STREQUAL "reject")
  file(REMOVE_RECURSE ${OUTPUT_DIR})
  file(MAKE_DIRECTORY ${OUTPUT_DIR}/blocked/models_x_hardware.md)  # a directory where a table must go
  file(WRITE ${OUTPUT_DIR}/a-file "")
  expect_refusal("no argument" "usage: llmcost-tables <output-dir>")
  expect_refusal("missing directory" "output directory '.*/missing' does not exist" ${OUTPUT_DIR}/missing)
  expect_refusal("a file as the directory" "is not a directory" ${OUTPUT_DIR}/a-file)
  expect_refusal("unwritable table" "cannot write '.*models_x_hardware.md'" ${OUTPUT_DIR}/blocked)
else()
  message(FATAL_ERROR "check_tables.cmake: unknown MODE '${MODE}' (compare, update or reject)")
endif()
