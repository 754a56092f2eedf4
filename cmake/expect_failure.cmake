# Runs a command that must fail: checks its exit code and that stderr says why, and that it
# printed nothing on stdout.
#   cmake -DCOMMAND="exe|arg|…" (arguments joined with |, so that no list escaping is needed) -DEXIT=2 -DMESSAGE=regex -P expect_failure.cmake
# Included from another script, it defines llmcost_expect_failure(<what> <exit> <regex> <command…>)
# for the same check; <exit> may be "nonzero" to accept any failing exit code.

function(llmcost_expect_failure what exit regex)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(exit STREQUAL "nonzero")
    if(rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${what}: expected a non-zero exit, got '${rc}'\nstdout:\n${out}\nstderr:\n${err}")
    endif()
  elseif(NOT rc STREQUAL "${exit}")
    message(FATAL_ERROR "${what} exited with '${rc}', expected ${exit}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  if(NOT err MATCHES "${regex}")
    message(FATAL_ERROR "${what}: stderr does not match '${regex}':\n${err}")
  endif()
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "${what} failed but still printed to stdout:\n${out}")
  endif()
  message(STATUS "${what}: exit ${rc}, ${err}")
endfunction()

if(DEFINED COMMAND)
  string(REPLACE "|" ";" COMMAND "${COMMAND}")
  llmcost_expect_failure("`${COMMAND}`" "${EXIT}" "${MESSAGE}" ${COMMAND})
endif()
