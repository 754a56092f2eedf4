# `llmcost cost` and `llmcost estimate` agree on $/M output tokens for one deployment at one batch,
# on every --pricing basis: estimate charges all GPU time (prefill included) to output tokens, and
# cost prints that figure as usd_per_million_output_tokens_all_in beside its split billing (decode
# alone for output, prefill for input). Both print the same GPU-hour and the same basis.
#   cmake -DTOOL=<llmcost> -DARGS="--model|M|--hardware|H|…" -P check_cost_agrees.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" ARGS "${ARGS}")
foreach(pricing IN ITEMS market committed tco)
  execute_process(COMMAND ${TOOL} estimate ${ARGS} --pricing ${pricing} --format json
                  OUTPUT_VARIABLE est RESULT_VARIABLE rc1)
  execute_process(COMMAND ${TOOL} cost ${ARGS} --pricing ${pricing} --format json
                  OUTPUT_VARIABLE cost RESULT_VARIABLE rc2)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "--pricing ${pricing}: estimate exited ${rc1}, cost ${rc2}")
  endif()
  string(JSON e_out GET "${est}" usd_per_million_output_tokens)
  string(JSON c_all GET "${cost}" usd_per_million_output_tokens_all_in)
  string(JSON c_out GET "${cost}" usd_per_million_output_tokens)
  string(JSON e_hour GET "${est}" usd_per_gpu_hour)
  string(JSON c_hour GET "${cost}" usd_per_gpu_hour)
  string(JSON e_basis GET "${est}" usd_basis)
  string(JSON c_basis GET "${cost}" usd_basis)
  if(NOT e_out STREQUAL c_all)
    message(FATAL_ERROR "--pricing ${pricing}: estimate prints ${e_out} $/M output, cost's all-GPU-time figure ${c_all}")
  endif()
  if(NOT e_hour STREQUAL c_hour OR NOT e_basis STREQUAL c_basis)
    message(FATAL_ERROR "--pricing ${pricing}: GPU-hour ${e_hour} (${e_basis}) in estimate, ${c_hour} (${c_basis}) in cost")
  endif()
  # Split billing charges output tokens only the decode's GPU time: less than all of it.
  if(NOT c_out LESS c_all)
    message(FATAL_ERROR "--pricing ${pricing}: decode-alone $/M output ${c_out} is not below the all-in ${c_all}")
  endif()
  message(STATUS "--pricing ${pricing}: ${e_out} $/M output in both (${e_basis}); ${c_out} decode alone")
endforeach()
