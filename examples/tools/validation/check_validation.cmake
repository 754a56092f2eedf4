# The validation report: generate it, compare it with the checked-in copy, or update that copy.
#   cmake -DMODE=compare|update -DGENERATOR=<llmcost-validation> -DTABLES=<source>/tables
#         -DOUTPUT=<scratch file> -DCHECKED_IN=<source>/tables/validation.md [-DFIGURES=<file>]
#         -P check_validation.cmake
# compare  generate OUTPUT; it must equal CHECKED_IN (the test validation.up_to_date)
# update   generate OUTPUT and copy it to CHECKED_IN when different (the `validation` target)
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/generated_files.cmake)

foreach(var MODE GENERATOR TABLES OUTPUT CHECKED_IN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_validation.cmake: -D${var}=… is required")
  endif()
endforeach()

get_filename_component(dir ${OUTPUT} DIRECTORY)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(figures_args)
if(DEFINED FIGURES)
  set(figures_args --figures ${FIGURES})  # the figures the bars hold (validation.check_rows_median, .engine_targets)
endif()
execute_process(COMMAND ${GENERATOR} ${TABLES} ${OUTPUT} ${figures_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llmcost-validation exited with ${rc}:\n${err}")
endif()
message(STATUS "llmcost-validation:\n${out}")

if(MODE STREQUAL "compare")
  if(NOT EXISTS ${CHECKED_IN})
    message(FATAL_ERROR "tables/validation.md is missing: generate it with "
                        "`cmake --build <build dir> --target validation` and commit the result")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTPUT} ${CHECKED_IN} RESULT_VARIABLE differs)
  if(differs)
    llmcost_diff_excerpt(${CHECKED_IN} ${OUTPUT} 4000 delta)
    message(FATAL_ERROR "tables/validation.md is stale: regenerate it with "
                        "`cmake --build <build dir> --target validation` and commit the result\n${delta}")
  endif()
  message(STATUS "tables/validation.md is current")
elseif(MODE STREQUAL "update")
  file(COPY_FILE ${OUTPUT} ${CHECKED_IN} ONLY_IF_DIFFERENT)
  message(STATUS "tables/validation.md written")
else()
  message(FATAL_ERROR "check_validation.cmake: unknown MODE '${MODE}' (compare or update)")
endif()
