# `llmcost estimate --excluded-modules --kept-format --eager-prompt` against figures worked by hand.
#   cmake -DTOOL=<llmcost> -P check_checkpoint_options.cmake
#
# 1. --excluded-modules: DeepSeek-V3 (hidden h 7168, 128 heads, q_lora r_q 1536, kv_lora r_kv 512, d_nope 128,
#    d_rope 64, d_v 128, 61 layers, vocab 129,280) on 8 B200 at TP 8, NVFP4 weights (4 bits + an FP8 scale per 16
#    = 4.5 bits = 0.5625 B), the excluded modules in BF16 (2 B). One layer's attention:
#      kv_b (attention_kv_b)  r_kv · H · (d_nope + d_v) = 512 · 128 · 256   =  16,777,216
#      o_proj (attention_out) H · d_v · h              = 128 · 128 · 7168  = 117,440,512
#      q_a + kv_a (down)      h · (r_q + r_kv + d_rope) = 7168 · 2112      =  15,138,816
#      q_b                    r_q · H · (d_nope + d_rope) = 1536 · 128 · 192 = 37,748,736
#      q_a, kv_a norms        r_q + r_kv                                    =       2,048
#    a. attention_kv_b,attention_out: 61 · 134,217,728 = 8,187,281,408 parameters, split over 8 ranks:
#       Δ = 8,187,281,408 ÷ 8 · (2 − 0.5625) = 1,023,410,176 · 1.4375 = 1,471,152,128 B per GPU.
#    b. the same kept in FP8 (--kept-format fp8, 1 B): Δ = 1,023,410,176 · (1 − 0.5625) = 447,741,952 B.
#    c. attention_in,attention_kv_b,attention_out,lm_head: every attention parameter, 61 · 187,107,328 =
#       11,413,547,008, + the untied LM head 129,280 · 7168 = 926,679,040 → 12,340,226,048 ÷ 8 · 1.4375 =
#       2,217,384,368; and the down-projections (attention_in) that every rank holds whole: the other
#       (1 − 1/8) of 61 · 15,138,816 = 923,467,776 → 808,034,304 · 1.4375 = 1,161,549,312; Δ = 3,378,933,680 B.
# 2. --eager-prompt (docs/sglang-eager-prompt.md, docs/trtllm-eager-prompt.md): SGLang on Blackwell launches a prompt
#    step eagerly at prefill_launch_us 75.89 µs a kernel (tables/engines.csv). A lone 16-token prompt of Llama-3.1-8B
#    is host-bound, so serial: t = max(t_GPU, H) = H = kernels · 75.89 µs, a whole number of kernels; overlap with no
#    step before it: max(t_GPU, H − 0), the same; 0: not priced, the GPU's own time, shorter. vLLM on Blackwell has no
#    prompt launch cost (prefill_launch_us 0): every value leaves its estimate as it is.
cmake_minimum_required(VERSION 3.25)
function(field out key)
  execute_process(COMMAND ${TOOL} estimate ${ARGN} --format json OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "estimate ${ARGN} exited ${rc}: ${e}")
  endif()
  string(JSON v GET "${o}" ${key})
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

set(ds --model DeepSeek-V3 --hardware B200 --tp 8 --weights nvfp4 --kv fp8 --input 1000 --output 100 --batch 1)
field(base weight_bytes_per_gpu ${ds})
foreach(case "attention_kv_b,attention_out=bf16=1471152128" "attention_kv_b,attention_out=fp8=447741952"
             "attention_in,attention_kv_b,attention_out,lm_head=bf16=3378933680")
  string(REPLACE "=" ";" case "${case}")
  list(GET case 0 modules)
  list(GET case 1 kept)
  list(GET case 2 want)
  field(w weight_bytes_per_gpu ${ds} --excluded-modules ${modules} --kept-format ${kept})
  math(EXPR delta "${w} - ${base}")
  if(NOT delta EQUAL want)
    message(FATAL_ERROR "--excluded-modules ${modules} --kept-format ${kept}: ${w} - ${base} = ${delta} B per GPU, "
                        "worked by hand ${want}")
  endif()
  message(STATUS "--excluded-modules ${modules} in ${kept}: +${delta} B per GPU, as worked")
endforeach()

set(llama --model Llama-3.1-8B --hardware B200 --input 16 --output 100 --batch 1)
field(serial prefill_s ${llama} --engine sglang --eager-prompt serial)
field(overlap prefill_s ${llama} --engine sglang --eager-prompt overlap)
field(none prefill_s ${llama} --engine sglang --eager-prompt 0)
# serial in units of 10 ns, rounded from its first 9 digits after "0.0" (the tool prints 10 significant digits;
# CMake's JSON reader writes the double back in full); 75.89 µs = 7589 of them
if(NOT serial MATCHES "^0\\.0([0-9]+)$" OR NOT overlap STREQUAL serial OR NOT none LESS serial)
  message(FATAL_ERROR "--eager-prompt: serial ${serial} s, overlap ${overlap} s (alone: the same), 0 ${none} s (shorter)")
endif()
string(SUBSTRING "${CMAKE_MATCH_1}000000000" 0 9 digits)
string(REGEX REPLACE "^0+" "" digits "${digits}")
math(EXPR units "(${digits} + 50) / 100")
math(EXPR kernels "${units} / 7589")
math(EXPR rest "${units} % 7589")
if(NOT rest EQUAL 0)
  message(FATAL_ERROR "--eager-prompt serial: ${serial} s is not a whole number of kernels at 75.89 us")
endif()
message(STATUS "--eager-prompt serial: ${kernels} kernels x 75.89 us = ${serial} s; 0: ${none} s")
set(vllm --model Llama-3.1-8B --hardware B200 --input 16 --output 100 --batch 1 --engine vllm)
field(own ttft_s ${vllm})
foreach(mode serial overlap 0)
  field(t ttft_s ${vllm} --eager-prompt ${mode})
  if(NOT t STREQUAL own)
    message(FATAL_ERROR "--eager-prompt ${mode} moved vLLM (no prompt launch cost): ${t} s against ${own} s")
  endif()
endforeach()

# 3. An empty list is refused, not read as "none kept" (execute_process passes the quoted "" as one argument; a
#    function's ${ARGN} would drop it, so not llmcost_expect_failure).
execute_process(COMMAND ${TOOL} estimate ${ds} --excluded-modules "" --kept-format fp8
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
set(want "--excluded-modules: names no module; the words: attention_in, attention_kv_b, attention_out, lm_head, embedding")
if(NOT rc EQUAL 2 OR NOT e MATCHES "${want}" OR NOT o STREQUAL "")
  message(FATAL_ERROR "--excluded-modules \"\": exit ${rc}, expected 2 naming no module: ${e}")
endif()
message(STATUS "--excluded-modules \"\": exit 2, ${e}")
# 4. Spaces after the commas are trimmed by the one parser: the same bytes as case 1a.
field(spaced weight_bytes_per_gpu ${ds} --excluded-modules "attention_kv_b, attention_out")
math(EXPR delta "${spaced} - ${base}")
if(NOT delta EQUAL 1471152128)
  message(FATAL_ERROR "--excluded-modules \"attention_kv_b, attention_out\": ${delta} B per GPU, worked by hand 1471152128")
endif()
