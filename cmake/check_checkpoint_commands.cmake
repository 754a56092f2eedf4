# `llmcost kv|spec|simulate|cost --excluded-modules --kept-format [--eager-prompt]` (session 31) against figures worked
# by hand, as cmake/check_checkpoint_options.cmake checks estimate.
#   cmake -DTOOL=<llmcost> -P check_checkpoint_commands.cmake
#
# The checkpoint: DeepSeek-V3 on 8 B200 at TP 8, NVFP4 weights (0.5625 B a parameter), FP8 KV, with kv_b and o_proj kept
# in BF16 (2 B): 61 · (512·128·256 + 128·128·7168) = 8,187,281,408 parameters, ÷ 8 · (2 − 0.5625) = 1,471,152,128 B
# more a GPU (the sum is worked in check_checkpoint_options.cmake). The B200 (HGX) streams HBM at 8.0 TB/s · 0.919 =
# 7.352 TB/s (tables/hardware.csv hbm_bandwidth_TBps, hbm_efficiency).
# 1. kv: the reference engine's pool f·H − W − 2 GB is 1,471,152,128 B smaller; TensorRT-LLM's f·(H − W − X) at
#    f = 0.5 is 735,576,064 B smaller. MLA at FP8 holds (512 + 64) · 61 · 1 B = 35,136 B a token, all of it on every
#    rank, so one 8,192-token sequence holds 287,834,112 B and the sequences that fit are ⌊pool ÷ 287,834,112⌋: 465
#    plain, 460 kept on the spec's 180 GiB (the pool 1,471,152,128 B, 5.11 sequences, smaller; docs/checkpoint-
#    composition.md 9.3); on the B200's runtime total (182,630 MiB, session 52) the pool is 0.95 × 1,769,881,600 =
#    1,681,387,520 B, 5.84 sequences, smaller: 465.x − 5.84 = 459.2–460.1 → 459 plain (the tool's), 459.x − 5.11 → 454 kept.
#    The JSON's `weights` stays the format name; the kept modules are `excluded_modules` (a list) and `kept_format`.
# 2. spec, batch 1, the MTP module, γ = 1: every pass is HBM-bound, so the plain decode pass and the verification read
#    1,471,152,128 B more, 1,471,152,128 ÷ 7.352e12 = 200,102,302.5 ps longer; the MTP module's one layer keeps
#    134,217,728 ÷ 8 · 1.4375 = 24,117,248 B more, 3,280,365.6 ps longer a draft.
# 3. simulate, one client in a closed loop, 1,000 → 100 tokens: every decode step runs one sequence, HBM-bound: the
#    TPOT is 200,102,302.5 ps longer.
# 4. cost, batch 1: a decode pass per GPU lasts 1 ÷ (8 · decode tokens/s per GPU), 200,102.3 ns longer.
# 5. --eager-prompt, SGLang on B200 (prefill_launch_us 75.89 µs a kernel, tables/engines.csv), a lone 16-token prompt
#    of Llama-3.1-8B, host-bound: spec's verification is a graph-captured decode-shaped step (SGLang's TARGET_VERIFY
#    graphs, docs/speculative-verify.md), so it is the same with serial, with 0 and without the flag, its plain pass
#    unmoved, and no longer than the prompt step's whole kernels · 75.89 µs; simulate's TTFT(serial) − TTFT(0) is
#    H − t_GPU, so adding estimate's prefill_s at 0 (t_GPU) gives H, whole kernels; cost's prefill tokens/s per GPU
#    is 16 ÷ H with serial.
cmake_minimum_required(VERSION 3.25)

function(run out command)
  execute_process(COMMAND ${TOOL} ${command} ${ARGN} --format json OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${command} ${ARGN} exited ${rc}: ${e}")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

# round(value · 10^digits) as an integer, from the decimal CMake's JSON reader writes back (no exponent expected).
function(scaled out value digits)
  if(value MATCHES "[eE]" OR NOT value MATCHES "^(-?)([0-9]+)(\\.([0-9]*))?$")
    message(FATAL_ERROR "not a plain decimal: ${value}")
  endif()
  set(sign "${CMAKE_MATCH_1}")
  set(whole "${CMAKE_MATCH_2}")
  set(frac "${CMAKE_MATCH_4}00000000000000000000")
  math(EXPR keep "${digits} + 1")
  string(SUBSTRING "${frac}" 0 ${keep} frac)
  # Leading zeros off: CMake's REGEX REPLACE anchors ^ again after each match, so "^0+([0-9])" also ate the zero after
  # the first digit of 0.0308… (3081… read as 381…); "^0+" stops at the first nonzero digit.
  string(REGEX REPLACE "^0+" "" n "${whole}${frac}")
  if(n STREQUAL "")
    set(n 0)
  endif()
  math(EXPR n "(${n} + 5) / 10")
  set(${out} "${sign}${n}" PARENT_SCOPE)
endfunction()

function(field out json key digits)
  string(JSON v GET "${json}" ${key})
  scaled(n "${v}" ${digits})
  set(${out} ${n} PARENT_SCOPE)
endfunction()

function(near what got want tolerance)
  math(EXPR off "${got} - ${want}")
  if(off LESS -${tolerance} OR off GREATER ${tolerance})
    message(FATAL_ERROR "${what}: ${got}, worked by hand ${want} (±${tolerance})")
  endif()
  message(STATUS "${what}: ${got}, worked by hand ${want}")
endfunction()

set(ds --model DeepSeek-V3 --hardware B200 --tp 8 --weights nvfp4 --kv fp8)
set(kept --excluded-modules attention_kv_b,attention_out)

# 1. kv
run(plain kv ${ds} --context 8192)
run(more kv ${ds} --context 8192 ${kept})
# The weights' fields: the format name in `weights`, the kept modules apart ([] and null when none).
function(weights_fields what json want)
  string(JSON w GET "${json}" weights)
  string(JSON n LENGTH "${json}" excluded_modules)
  set(words)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON x GET "${json}" excluded_modules ${i})
      list(APPEND words "${x}")
    endforeach()
  endif()
  string(JSON kt TYPE "${json}" kept_format)
  set(k null)
  if(NOT kt STREQUAL "NULL")
    string(JSON k GET "${json}" kept_format)
  endif()
  if(NOT "${w} [${words}] ${k}" STREQUAL "${want}")
    message(FATAL_ERROR "${what} weights, excluded_modules, kept_format: '${w} [${words}] ${k}', expected '${want}'")
  endif()
  message(STATUS "${what} weights, excluded_modules, kept_format: ${w} [${words}] ${k}")
endfunction()
weights_fields("kv" "${plain}" "nvfp4 [] null")
weights_fields("kv kept" "${more}" "nvfp4 [attention_kv_b;attention_out] bf16")
field(w0 "${plain}" weight_bytes_per_gpu 0)
field(w1 "${more}" weight_bytes_per_gpu 0)
math(EXPR d "${w1} - ${w0}")
near("kv weights per GPU, kept - plain (B)" ${d} 1471152128 0)
field(b0 "${plain}" kv_budget_bytes_per_gpu 0)
field(b1 "${more}" kv_budget_bytes_per_gpu 0)
math(EXPR d "${b0} - ${b1}")
near("kv pool per GPU, plain - kept (B), reference engine" ${d} 1471152128 1)
field(seq "${plain}" kv_bytes_per_sequence_per_gpu 0)
near("kv one 8192-token sequence (B)" ${seq} 287834112 0)
field(n "${plain}" max_sequences_at_context 0)
near("kv sequences that fit, plain" ${n} 459 0)
field(n "${more}" max_sequences_at_context 0)
near("kv sequences that fit, kv_b and o_proj kept" ${n} 454 0)
run(t0 kv ${ds} --context 8192 --engine trtllm --kv-memory-fraction 0.5)
run(t1 kv ${ds} --context 8192 --engine trtllm --kv-memory-fraction 0.5 ${kept})
field(b0 "${t0}" kv_budget_bytes_per_gpu 0)
field(b1 "${t1}" kv_budget_bytes_per_gpu 0)
math(EXPR d "${b0} - ${b1}")
near("kv pool per GPU, plain - kept (B), TensorRT-LLM at f 0.5" ${d} 735576064 1)

# 2. spec (picoseconds)
set(mtp --drafter mtp --draft-tokens 1 --acceptance 0.7 --input 1000 --output 100)
run(plain spec ${ds} ${mtp})
run(more spec ${ds} ${mtp} ${kept})
foreach(key plain_step_s verify_s)
  field(a "${plain}" ${key} 12)
  field(b "${more}" ${key} 12)
  math(EXPR d "${b} - ${a}")
  near("spec ${key}, kept - plain (ps)" ${d} 200102302 2)
endforeach()
field(a "${plain}" draft_s 12)
field(b "${more}" draft_s 12)
math(EXPR d "${b} - ${a}")
near("spec draft_s (the MTP layer), kept - plain (ps)" ${d} 3280366 2)
weights_fields("spec kept" "${more}" "nvfp4 [attention_kv_b;attention_out] bf16")

# 3. simulate (picoseconds)
set(one --concurrency 1 --input-dist 1000 --output-dist 100 --requests 20)
run(plain simulate ${ds} ${one})
run(more simulate ${ds} ${one} ${kept})
string(JSON a GET "${plain}" tpot_s mean)
string(JSON b GET "${more}" tpot_s mean)
scaled(a "${a}" 12)
scaled(b "${b}" 12)
math(EXPR d "${b} - ${a}")
near("simulate mean TPOT, kept - plain (ps)" ${d} 200102302 2)

# 4. cost (nanoseconds: 1 ÷ (8 r) from r in units of 1e-9 token/s)
set(c1 --batch 1 --input 1000 --output 100)
run(plain cost ${ds} ${c1})
run(more cost ${ds} ${c1} ${kept})
field(r0 "${plain}" decode_tokens_per_s_per_gpu 9)
field(r1 "${more}" decode_tokens_per_s_per_gpu 9)
math(EXPR d "1000000000000000000 / (8 * ${r1}) - 1000000000000000000 / (8 * ${r0})")
near("cost decode pass 1 / (8 r), kept - plain (ns)" ${d} 200102 2)

# 5. --eager-prompt: H = whole kernels of 75.89 µs = 75,890,000 ps
set(sg --model Llama-3.1-8B --hardware B200 --engine sglang)
function(whole_kernels what ps)
  math(EXPR k "(${ps} + 37945000) / 75890000")
  math(EXPR off "${ps} - ${k} * 75890000")
  if(k LESS 100 OR off LESS -20 OR off GREATER 20)
    message(FATAL_ERROR "${what}: ${ps} ps is not a whole number of kernels at 75.89 us")
  endif()
  message(STATUS "${what}: ${k} kernels x 75.89 us")
endfunction()
set(eagle --drafter eagle --input 16 --output 100)
run(serial spec ${sg} ${eagle} --eager-prompt serial)
run(none spec ${sg} ${eagle} --eager-prompt 0)
run(profile spec ${sg} ${eagle})
field(v1 "${serial}" verify_s 12)
field(v0 "${none}" verify_s 12)
field(vp "${profile}" verify_s 12)
field(p1 "${serial}" plain_step_s 12)
field(p0 "${none}" plain_step_s 12)
if(NOT v0 EQUAL v1 OR NOT vp EQUAL v1 OR NOT p0 EQUAL p1 OR v1 LESS p1)
  message(FATAL_ERROR "spec --eager-prompt: verify ${v1} ps (serial), ${v0} (0), ${vp} (the profile's rule): one "
                      "captured step expected, no shorter than the plain pass; plain ${p1} against ${p0}")
endif()
set(lone --concurrency 1 --input-dist 16 --output-dist 100 --requests 20)
run(serial simulate ${sg} ${lone} --eager-prompt serial)
run(none simulate ${sg} ${lone} --eager-prompt 0)
execute_process(COMMAND ${TOOL} estimate ${sg} --input 16 --output 100 --batch 1 --eager-prompt 0 --format json
                OUTPUT_VARIABLE gpu RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "estimate --eager-prompt 0 exited ${rc}")
endif()
string(JSON a GET "${serial}" ttft_s mean)
string(JSON b GET "${none}" ttft_s mean)
scaled(a "${a}" 12)
scaled(b "${b}" 12)
field(t "${gpu}" prefill_s 12)
math(EXPR h "${a} - ${b} + ${t}")
whole_kernels("simulate TTFT(serial) - TTFT(0) + t_GPU" ${h})
if(NOT v1 LESS h)
  message(FATAL_ERROR "spec verify ${v1} ps is not shorter than the eager prompt step's launch ${h} ps")
endif()
run(serial cost ${sg} --batch 1 --input 16 --output 100 --eager-prompt serial)
field(r "${serial}" prefill_tokens_per_s_per_gpu 8)
math(EXPR h "(1600000000000000000 + ${r} / 2) / ${r}")  # 16 tokens ÷ r, in ns (r has 10 digits: ±1 ns)
math(EXPR k "(${h} + 37945) / 75890")
math(EXPR off "${h} - ${k} * 75890")
if(k LESS 100 OR off LESS -1 OR off GREATER 1)
  message(FATAL_ERROR "cost 16 / prefill tokens/s per GPU at --eager-prompt serial: ${h} ns is not a whole number of "
                      "kernels at 75.89 us")
endif()
message(STATUS "cost 16 / prefill tokens/s per GPU at --eager-prompt serial: ${k} kernels x 75.89 us")

# 6. --eager-prompt "" is refused on every command that takes it, naming the option, the value and the words (kv: why
#    it takes none), as --excluded-modules "" is; execute_process passes the quoted "" as one argument.
set(ll --model Llama-3.1-8B --hardware H100)
foreach(cmd estimate disagg frontier plan spec simulate cost kv)
  set(extra)
  if(cmd STREQUAL "disagg")
    set(extra --ttft 1 --tpot 0.05)
  elseif(cmd STREQUAL "simulate")
    set(extra --rate 1)
  endif()
  set(want "--eager-prompt: unknown value ''; one of overlap \\(prompt steps run eagerly")
  if(cmd STREQUAL "kv")
    set(want "--eager-prompt '': kv prices memory \\(the KV footprint and where it spills\\), not a step")
  endif()
  execute_process(COMMAND ${TOOL} ${cmd} ${ll} ${extra} --eager-prompt ""
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT e MATCHES "${want}" OR NOT o STREQUAL "")
    message(FATAL_ERROR "${cmd} --eager-prompt \"\": exit ${rc}, expected 2 matching '${want}': ${e}")
  endif()
  message(STATUS "${cmd} --eager-prompt \"\": exit 2, ${e}")
endforeach()
