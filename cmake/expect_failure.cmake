# Runs a command that must fail: checks its exit code and that stderr says why.
#   cmake -DCOMMAND="exe|arg|…" (arguments joined with |, so that no list escaping is needed) -DEXIT=2 -DMESSAGE=regex -P expect_failure.cmake
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "`${COMMAND}` exited with '${rc}', expected ${EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT err MATCHES "${MESSAGE}")
  message(FATAL_ERROR "`${COMMAND}`: stderr does not match '${MESSAGE}':\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "`${COMMAND}` failed but still printed to stdout:\n${out}")
endif()
