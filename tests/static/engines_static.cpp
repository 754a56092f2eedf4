// Engine profiles at compile time: the catalog's entries validate (from_row is `checked`), the
// lookups answer in constant evaluation, and the default engine adds nothing.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/serving/throughput.hpp>

namespace {
using namespace llmcost;

static_assert(engine_named("vllm") == engine_kind::vllm);
static_assert(engine_named("sglang") == engine_kind::sglang);
static_assert(!engine_named("tgi").has_value());
static_assert(catalog::architecture_of("MI300X") == gpu_architecture::cdna3);
static_assert(catalog::architecture_of("GB200 (NVL72)") == gpu_architecture::blackwell);
static_assert(!catalog::architecture_of("My GPU").has_value());
static_assert(!catalog::find_engine(engine_kind::trtllm, gpu_architecture::cdna3).has_value());
static_assert(catalog::find_engine(engine_kind::sglang, gpu_architecture::cdna4) == catalog::sglang_cdna4);
// A row's version picks the profile whose range covers it; the default (the first row) otherwise.
static_assert(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "0.14.0") == catalog::trtllm_hopper_trt_engine);
static_assert(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "0.17") == catalog::trtllm_hopper);
static_assert(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper) == catalog::trtllm_hopper);
static_assert(catalog::release_of("0.14.0")->minor == 14 && !catalog::release_of("v0.14").has_value());

// The reference engine: every multiplier 1 and nothing added.
constexpr engine_profile ref = engine_profile::reference();
static_assert(ref.kernels == engine_kernels{} && ref.overheads.launch().value() == 0.0 && ref.overheads.step.value() == 0.0);
static_assert(deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5}.engine == ref);

// With CUDA graphs on, the per-kernel launch cost is the graph one: vLLM on Hopper's fitted 2.533 µs.
static_assert(catalog::vllm_hopper.overheads.cuda_graphs);
static_assert(catalog::vllm_hopper.overheads.launch().value() == catalog::vllm_hopper.overheads.launch_graph.value());

// TensorRT-LLM on Blackwell: NCCL's fitted all-reduce (B11) above its 1 MiB custom-kernel bound;
// on Hopper (B07, B61) above the plugin's IPC workspace, 8,000,000 B above 2 ranks and 16,000,000 B at 2
// (7812.5 and 15625 KiB); vLLM and SGLang on NVIDIA keep the link model above their custom kernels.
static_assert(catalog::trtllm_blackwell.collectives.library_all_reduce.value() == 28.5e-6);
static_assert(catalog::trtllm_blackwell.collectives.custom_all_reduce_max.value() == 1024.0 * 1024.0);
static_assert(catalog::trtllm_blackwell.collectives.custom_all_reduce_max_at(2).value() == 1024.0 * 1024.0);
static_assert(catalog::trtllm_hopper.collectives.library_all_reduce.value() == 58.95e-6);
static_assert(catalog::trtllm_hopper.collectives.custom_all_reduce_max_at(8).value() == 8e6);
static_assert(catalog::trtllm_hopper.collectives.custom_all_reduce_max_at(4).value() == 8e6);
static_assert(catalog::trtllm_hopper.collectives.custom_all_reduce_max_at(2).value() == 16e6);
// The TensorRT-engine releases (0.9-0.16): their plugin's AUTO strategy, the one-shot kernel below 1,000,000 B
// above 2 ranks (the 16,000,000 B workspace at 2), NCCL above (B91, B92; docs/hopper-all-reduce.md).
static_assert(catalog::trtllm_hopper_trt_engine.collectives.all_reduce_latency.value() == microseconds(3.013).value());
static_assert(catalog::trtllm_hopper_trt_engine.collectives.custom_all_reduce_max_at(4).value() == 1e6);
static_assert(catalog::trtllm_hopper_trt_engine.collectives.custom_all_reduce_max_at(8).value() == 1e6);
static_assert(catalog::trtllm_hopper_trt_engine.collectives.custom_all_reduce_max_at(2).value() == 16e6);
static_assert(catalog::trtllm_hopper_trt_engine.collectives.library_all_reduce.value() == microseconds(16.0).value());
static_assert(catalog::vllm_hopper.collectives.library_all_reduce.value() == 0.0);

// TensorRT-LLM on Blackwell: its own dense FP4 GEMM curve (B12); every other profile keeps the
// hardware's one curve, and an FP8 deployment keeps it under TensorRT-LLM too.
static_assert(catalog::trtllm_blackwell.kernels.own_fp4_curve());
static_assert(catalog::trtllm_blackwell.kernels.fp4_gemm_efficiency == 0.6872 &&
              catalog::trtllm_blackwell.kernels.fp4_gemm_half_dim == 3640.0);
static_assert(!catalog::trtllm_hopper.kernels.own_fp4_curve() && !catalog::vllm_blackwell.kernels.own_fp4_curve() &&
              !catalog::sglang_blackwell.kernels.own_fp4_curve());
static_assert(dense_gemm_curve(catalog::b200_hgx.gpu.efficiency, catalog::trtllm_blackwell.kernels, compute_class::fp8) ==
              catalog::b200_hgx.gpu.efficiency);
static_assert(dense_gemm_curve(catalog::b200_hgx.gpu.efficiency, catalog::trtllm_blackwell.kernels, compute_class::fp4)
                  .matmul_half_dim == 3640.0);

// SGLang runs its prompt steps alone (no mixed chunk by default), vLLM and TensorRT-LLM mix them with
// decodes; the engine's defaults carry that into a scheduler's limits, and keep a caller's own choice.
static_assert(catalog::sglang_hopper.scheduler.prefill_alone && catalog::sglang_blackwell.scheduler.prefill_alone &&
              catalog::sglang_cdna3.scheduler.prefill_alone && catalog::sglang_cdna4.scheduler.prefill_alone);
static_assert(!catalog::vllm_hopper.scheduler.prefill_alone && !catalog::trtllm_blackwell.scheduler.prefill_alone);
static_assert(with_engine_defaults({}, catalog::sglang_hopper).prefill_alone);
static_assert(!with_engine_defaults({}, catalog::vllm_hopper).prefill_alone);
static_assert(with_engine_defaults({.prefill_alone = true}, catalog::vllm_hopper).prefill_alone);
// vLLM and SGLang admit on the KV in use; TensorRT-LLM and the reference reserve the whole sequence
static_assert(!with_engine_defaults({}, catalog::vllm_hopper).reserve_full_sequence);
static_assert(!with_engine_defaults({}, catalog::sglang_hopper).reserve_full_sequence);
static_assert(with_engine_defaults({}, engine_profile::reference()).reserve_full_sequence);
static_assert(with_engine_defaults({}, catalog::trtllm_hopper).reserve_full_sequence);

// Expert parallelism pays its all-to-all only where attention is data-parallel (costs/moe.hpp): TP8·EP8
// at dp 1 runs none, on any engine; EP8 over TP4 × DP2 runs one.
static_assert(all_to_all_time_per_pass(deployment{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx,
                                                  .layout = {.tp = 8, .ep = 8}, .engine = catalog::trtllm_blackwell},
                                       4.0)
                  .value() == 0.0);
static_assert(all_to_all_time_per_pass(deployment{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx,
                                                  .layout = {.tp = 4, .ep = 8, .dp = 2}, .engine = catalog::sglang_blackwell},
                                       4.0)
                  .value() > 0.0);

// The all-to-all past the scale-up domain, in constant evaluation (costs/collectives.hpp): n 16 on nodes of 8,
// 1 MB a rank, 400 GB/s up, 50 GB/s out, α 10 µs: 10 µs + max(0.4375 MB ÷ 400 GB/s, 0.5 MB ÷ 50 GB/s) = 20 µs.
constexpr interconnect a2a_up{.name = "up", .per_direction = bytes_per_second(400e9), .latency = seconds(1e-6)};
constexpr interconnect a2a_out{.name = "out", .per_direction = bytes_per_second(50e9), .latency = seconds(10e-6)};
static_assert(detail::all_to_all_seconds(1e6, 16, 8, a2a_up, a2a_out) > 20e-6 - 1e-15 &&
              detail::all_to_all_seconds(1e6, 16, 8, a2a_up, a2a_out) < 20e-6 + 1e-15);
static_assert(detail::all_to_all_seconds(1e6, 8, 8, a2a_up, a2a_out) == detail::all_to_all_seconds(1e6, 8, a2a_up));
// The off-node share by hand (nodes filled in order): 16 on 8 + 8 sends 8/16 off-node; 12 on 8 + 4, the rank on
// the node of 4 has 8 peers off it: 8/12; 20 on 8 + 8 + 4: 16/20; none inside one node.
static_assert(all_to_all_off_node_share(16, 8) == 0.5 && all_to_all_off_node_share(12, 8) == 8.0 / 12.0 &&
              all_to_all_off_node_share(20, 8) == 16.0 / 20.0 && all_to_all_off_node_share(8, 8) == 0.0);

// A pass priced in constant evaluation with an engine: host work per step adds to it.
constexpr deployment base{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
constexpr deployment slow = [] {
    deployment d = base;
    d.engine.overheads.step = seconds(1e-3);
    return d;
}();
static_assert(decode_pass(slow, 8.0, tokens(1000.0)).overhead_time.value() -
                  decode_pass(base, 8.0, tokens(1000.0)).overhead_time.value() > 0.999e-3);
// TensorRT-LLM on Blackwell: the FP4 GEMM curve with its activations' quantization kernel (B19),
// used only where a build does not fuse the quantization (the flag defaults to fused).
static_assert(catalog::trtllm_blackwell.kernels.fp4_quant_gemm_efficiency == 0.6113 &&
              catalog::trtllm_blackwell.kernels.fp4_quant_gemm_half_dim == 4825.0);
static_assert(catalog::trtllm_blackwell.kernels.fp4_quantization_fused &&
              !catalog::trtllm_blackwell.kernels.unfused_fp4_quantization());
static_assert([] {
    engine_kernels k = catalog::trtllm_blackwell.kernels;
    k.fp4_quantization_fused = false;
    const achievable_fractions c = dense_gemm_curve(catalog::b200_hgx.gpu.efficiency, k, compute_class::fp4);
    return c.matmul == 0.6113 && c.matmul_half_dim == 4825.0;
}());

// TensorRT-LLM on Blackwell's prompt attention curve (B95): e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀).
// At s̄ = s₀ and W = W₀ each factor is one half: e = e∞ ÷ 4 = 0.7376 ÷ 4 = 0.1844; far past both it
// approaches e∞ from below.
static_assert(catalog::trtllm_blackwell.kernels.prompt_attention_at(1162.0, 40160.0) > 0.18439999 &&
              catalog::trtllm_blackwell.kernels.prompt_attention_at(1162.0, 40160.0) < 0.18440001);
static_assert(catalog::trtllm_blackwell.kernels.prompt_attention_at(1e12, 1e12) < 0.7376 &&
              catalog::trtllm_blackwell.kernels.prompt_attention_at(1e12, 1e12) > 0.7375);
static_assert(!catalog::trtllm_hopper.kernels.own_prompt_attention_curve());
// A call of whole prompts: s̄ = (n + 1) ÷ 2 = 872 ÷ 2 and W = p · n · H = 12 · 871 · 32, exact (B95).
static_assert(whole_prompt_attention(12.0, tokens(871.0), 32.0).mean_keys.value() == 436.0);
static_assert(whole_prompt_attention(12.0, tokens(871.0), 32.0).query_rows == 334464.0);
// The state-space recurrence: t = S ÷ tp ÷ R_p = 6·10¹² ÷ 2 ÷ 5·10¹⁴ = 6 ms.
static_assert(recurrence_time(flops(6e12), 2, flops_per_second(5e14)) == seconds(6e-3));
// SGLang on Blackwell's FP8 × FP8 experts at g · g8 = 1 · 0.4953 of the size curve (B87); other formats at g.
static_assert(catalog::sglang_blackwell.kernels.expert_curve_multiplier(expert_operands::fp8) == 0.4953);
static_assert(catalog::sglang_blackwell.kernels.expert_curve_multiplier(expert_operands::other) == catalog::sglang_blackwell.kernels.grouped_gemm);
static_assert(catalog::trtllm_blackwell.kernels.expert_curve_multiplier(expert_operands::fp8) == catalog::trtllm_blackwell.kernels.grouped_gemm);
// SGLang on CDNA4: AITER fused MoE, FP8 × FP8 at g8 = 0.4421, MXFP4 × MXFP4 at g4 = 0.2222 (docs/aiter-fused-moe.md); vLLM on CDNA4 at g.
static_assert(catalog::sglang_cdna4.kernels.expert_curve_multiplier(expert_operands::fp4) == 0.2222);
static_assert(catalog::sglang_cdna4.kernels.expert_curve_multiplier(expert_operands::fp8) == 0.4421);
static_assert(catalog::vllm_cdna4.kernels.expert_curve_multiplier(expert_operands::fp4) == catalog::vllm_cdna4.kernels.grouped_gemm);

}  // namespace
