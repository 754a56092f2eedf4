# What the tool does with the files it writes, and with a standard output it cannot write.
#   cmake -DTOOL=<llmcost> -DCONFIG=<a config.json> -DWORK=<scratch folder> -P cli_output_cases.cmake
# Each case: the exit code, the message with its rule id, the report still printed (a failed file
# costs the report nothing), and the files on disk afterwards (an old file intact, no partial or
# temporary file left behind).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(frontier ${TOOL} frontier --model Llama-3.1-8B --hardware H100 --tp 1 --max-batch 8)

# run(<name> <exit> <stderr regex> <stdout regex> <command…>)
function(run name exit err_regex out_regex)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc WORKING_DIRECTORY ${WORK})
  if(NOT rc STREQUAL "${exit}")
    message(FATAL_ERROR "${name}: exit '${rc}', expected ${exit}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  if(NOT err MATCHES "${err_regex}")
    message(FATAL_ERROR "${name}: stderr does not match '${err_regex}':\n${err}")
  endif()
  if(NOT out MATCHES "${out_regex}")
    message(FATAL_ERROR "${name}: stdout does not match '${out_regex}':\n${out}")
  endif()
  message(STATUS "${name}: exit ${rc} ${err}")
endfunction()

function(no_leftovers name)
  file(GLOB_RECURSE left LIST_DIRECTORIES false ${WORK}/*.tmp ${WORK}/.*.tmp)
  if(left)
    message(FATAL_ERROR "${name}: temporary files left behind: ${left}")
  endif()
endfunction()

# A frontier drawn into a new file: exit 0, the note, an SVG.
run(svg_written 0 "^$" "The frontier is drawn in out[.]svg" ${frontier} --svg out.svg)
file(READ ${WORK}/out.svg svg LIMIT 200)
if(NOT svg MATCHES "<svg")
  message(FATAL_ERROR "svg_written: out.svg is not an SVG:\n${svg}")
endif()
no_leftovers(svg_written)

# simulate draws its CDFs and occupancy the same way; its trace is an input it never overwrites.
set(simulate ${TOOL} simulate --model Llama-3.1-8B --hardware H100)
run(sim_svg_written 0 "^$" "occupancy over time are drawn in sim[.]svg" ${simulate} --rate 5 --requests 50 --svg sim.svg)
file(READ ${WORK}/sim.svg svg LIMIT 200)
if(NOT svg MATCHES "<svg")
  message(FATAL_ERROR "sim_svg_written: sim.svg is not an SVG:\n${svg}")
endif()
file(WRITE ${WORK}/trace.csv "arrival_s,input_tokens,output_tokens\n0,100,10\n0.5,200,20\n")
file(SHA256 ${WORK}/trace.csv before)
run(sim_svg_over_trace 3 "cannot write trace[.]csv: it is an input of this run .*\\[llmcost[.]output[.]overwrites_input\\]"
    "time to first token" ${simulate} --trace trace.csv --svg trace.csv)
file(SHA256 ${WORK}/trace.csv after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "sim_svg_over_trace: the trace changed")
endif()
no_leftovers(sim_svg_over_trace)

# A folder that does not exist: the table is printed, the cause named, exit 3, nothing created.
run(svg_no_folder 3 "cannot write no/such/folder/out[.]svg: no such folder \\[llmcost[.]output[.]no_folder\\]"
    "on the frontier.*Not written: no/such/folder/out[.]svg" ${frontier} --svg no/such/folder/out.svg)
if(EXISTS ${WORK}/no)
  message(FATAL_ERROR "svg_no_folder: created ${WORK}/no")
endif()

# A folder as the target.
file(MAKE_DIRECTORY ${WORK}/a_folder)
run(svg_is_folder 3 "cannot write a_folder: it is a folder \\[llmcost[.]output[.]is_folder\\]" "on the frontier"
    ${frontier} --svg a_folder)

# The run's own input as the target: refused, the config.json byte for byte as before.
file(MAKE_DIRECTORY ${WORK}/model)
file(COPY_FILE ${CONFIG} ${WORK}/model/config.json)
file(SHA256 ${WORK}/model/config.json before)
run(svg_over_input 3 "cannot write model/[.]/config[.]json: it is an input of this run .*\\[llmcost[.]output[.]overwrites_input\\]"
    "on the frontier" ${TOOL} frontier --model model --hardware H100 --tp 1 --max-batch 8 --svg model/./config.json)
file(SHA256 ${WORK}/model/config.json after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "svg_over_input: the model's config.json changed")
endif()
no_leftovers(svg_over_input)

# An existing output is replaced whole.
file(WRITE ${WORK}/old.svg "old")
run(svg_replaced 0 "^$" "drawn in old[.]svg" ${frontier} --svg old.svg)
file(READ ${WORK}/old.svg svg LIMIT 200)
if(NOT svg MATCHES "<svg")
  message(FATAL_ERROR "svg_replaced: old.svg was not replaced:\n${svg}")
endif()

# A standard output on a full disk: exit 3, the reason on stderr.
if(EXISTS /dev/full)
  execute_process(COMMAND ${TOOL} list models OUTPUT_FILE /dev/full ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "3" OR NOT err MATCHES "cannot write the output: No space left on device \\[llmcost[.]output[.]stdout\\]")
    message(FATAL_ERROR "stdout_full: exit '${rc}', stderr:\n${err}")
  endif()
  execute_process(COMMAND ${TOOL} estimate --model Llama-3.1-8B --format json OUTPUT_FILE /dev/full
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "3")
    message(FATAL_ERROR "stdout_full_json: exit '${rc}', stderr:\n${err}")
  endif()
  message(STATUS "stdout_full: exit 3 ${err}")
endif()
