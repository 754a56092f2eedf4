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
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/expect_failure.cmake)

foreach(var MODE GENERATOR OUTPUT_DIR CHECKED_IN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_tables.cmake: -D${var}=… is required")
  endif()
endforeach()

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
  llmcost_expect_failure("no argument" nonzero "usage: llmcost-tables <output-dir>" ${GENERATOR})
  llmcost_expect_failure("missing directory" nonzero "output directory '.*/missing' does not exist"
                         ${GENERATOR} ${OUTPUT_DIR}/missing)
  llmcost_expect_failure("a file as the directory" nonzero "is not a directory" ${GENERATOR} ${OUTPUT_DIR}/a-file)
  llmcost_expect_failure("unwritable table" nonzero "cannot write '.*models_x_hardware.md'"
                         ${GENERATOR} ${OUTPUT_DIR}/blocked)
else()
  message(FATAL_ERROR "check_tables.cmake: unknown MODE '${MODE}' (compare, update or reject)")
endif()
