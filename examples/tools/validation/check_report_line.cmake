# A line of the validation report the tool wrote (REPORT) that starts with ROW must contain TEXT: the tool's own
# output is read, not the checked-in copy (review s45 NIT 4: a micro-benchmark row's label clause).
#   cmake -DREPORT=<validation.md> -DROW=<row id> -DTEXT=<clause> -P check_report_line.cmake
file(READ "${REPORT}" report)  # read whole: a row holds ';', which a CMake list would split
string(FIND "${report}" "\n| ${ROW} |" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${REPORT}: no row '${ROW}'")
endif()
math(EXPR at "${at} + 1")
string(SUBSTRING "${report}" ${at} -1 rest)
string(FIND "${rest}" "\n" end)
string(SUBSTRING "${rest}" 0 ${end} found)
string(FIND "${found}" "${TEXT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${REPORT}: row '${ROW}' lacks '${TEXT}':\n${found}")
endif()
message(STATUS "${ROW}: '${TEXT}' present")
