# A doctest case whose name holds ';' is split in two by doctest_discover_tests (its output becomes a CMake list), and
# each half then runs 0 test cases and passes: the case never runs under CTest. Refuse such a name, file and name shown.
# Run: cmake -DDIR=<tests/unit> -P check_test_names.cmake
file(GLOB sources "${DIR}/*.cpp")
set(bad "")
foreach(src IN LISTS sources)
  file(READ "${src}" text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX MATCHALL "TEST_CASE\\(\"[^\"\n]*<semicolon>[^\"\n]*\"" hits "${text}")
  foreach(hit IN LISTS hits)
    string(REPLACE "<semicolon>" ";" hit "${hit}")
    get_filename_component(name "${src}" NAME)
    string(APPEND bad "\n  ${name}: ${hit}")
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "doctest case names with ';' (CTest splits them and runs none; use ',' instead) [llmcost.tests.case_name]:${bad}")
endif()
