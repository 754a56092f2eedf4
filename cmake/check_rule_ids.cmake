# Checks that docs/troubleshooting.md lists every stable rule id the headers use.
#   cmake -DROOT=<source dir> -P check_rule_ids.cmake
# A rule id is a string literal "llmcost.<area>.<rule>" in include/**, examples/cli/* or python/*.cpp (the Python module); it is listed by a table row
# of docs/troubleshooting.md that starts with "| `llmcost.<area>.<rule>` |".
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  get_filename_component(ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)  # a relative ROOT would glob nothing
file(READ ${ROOT}/docs/troubleshooting.md doc)
file(GLOB_RECURSE headers RELATIVE ${ROOT} ${ROOT}/include/*.hpp ${ROOT}/include/*.cpp
     ${ROOT}/examples/cli/*.hpp ${ROOT}/examples/cli/*.cpp ${ROOT}/python/*.cpp)
list(SORT headers)
set(problems "")
set(count 0)
foreach(h IN LISTS headers)
  file(STRINGS ${ROOT}/${h} lines REGEX "\"llmcost\\.[a-z_]+\\.[a-z_]+\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "\"llmcost\\.[a-z_]+\\.[a-z_]+\"" ids "${line}")
    foreach(quoted IN LISTS ids)
      string(REPLACE "\"" "" id "${quoted}")
      math(EXPR count "${count} + 1")
      string(FIND "${doc}" "\n| `${id}` |" at)
      if(at EQUAL -1)
        string(APPEND problems "  ${h}: rule id ${id} is not listed in docs/troubleshooting.md\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no rule ids found under ${ROOT}/include: is ROOT right?")
endif()
if(problems)
  message(FATAL_ERROR "rule ids without an entry (add a row '| `id` | the rule |' to the table "
                      "under 'Rule ids' in docs/troubleshooting.md):\n${problems}")
endif()
message(STATUS "${count} rule-id uses, all listed in docs/troubleshooting.md")
