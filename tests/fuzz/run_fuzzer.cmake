# Runs one libFuzzer target for a bounded time on a fresh copy of its seed corpus, in the build
# tree (the checked-in corpus is never written to), and fails with the crash input's path and the
# end of the report if the fuzzer finds anything.
#   cmake -DFUZZER=exe -DCORPUS=dir -DWORK=dir -DSECONDS=n [-DDICT=file] [-DMAX_LEN=n] -P run_fuzzer.cmake
foreach(var FUZZER CORPUS WORK SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzzer.cmake: ${var} is not set")
  endif()
endforeach()
get_filename_component(target ${FUZZER} NAME)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts ${WORK}/cwd)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)

set(options -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
            -artifact_prefix=${WORK}/artifacts/)
if(DEFINED DICT)
  list(APPEND options -dict=${DICT})
endif()
if(DEFINED MAX_LEN)
  list(APPEND options -max_len=${MAX_LEN})
endif()
# The working directory is an empty folder, so that an input naming a relative path finds nothing.
execute_process(COMMAND ${FUZZER} ${options} ${WORK}/corpus
  WORKING_DIRECTORY ${WORK}/cwd
  OUTPUT_FILE ${WORK}/fuzz.log ERROR_FILE ${WORK}/fuzz.log
  RESULT_VARIABLE rc)

file(STRINGS ${WORK}/fuzz.log log)
list(LENGTH log lines)
file(GLOB found ${WORK}/artifacts/*)
if(NOT rc EQUAL 0 OR found)
  math(EXPR from "${lines} - 120")
  if(from LESS 0)
    set(from 0)
  endif()
  list(SUBLIST log ${from} -1 tail)
  list(JOIN tail "\n" tail)
  message(FATAL_ERROR "${target}: exit code ${rc}; finding(s): ${found}\n"
    "Keep each as a regression input: copy it to tests/fuzz/regressions/<target>/ (the replay test "
    "runs it), fix the code, and check that the replay passes. Full log: ${WORK}/fuzz.log\n"
    "...\n${tail}")
endif()
# On success, say how much was run: libFuzzer's final statistics.
list(FILTER log INCLUDE REGEX "^(stat::|Done |INFO: (Loaded|seed corpus))")
list(JOIN log "\n" stats)
message("${target}: no findings in ${SECONDS} s\n${stats}")
