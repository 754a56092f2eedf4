#pragma once
/// \file
/// The row schema of `tables/engines.csv`, shared by the constexpr catalog (catalog/engines.hpp)
/// and the CSV loader (io/engines_csv.hpp): both go through `from_row`, so a catalog entry and the
/// row it transcribes agree field for field. Flags are 0 or 1; times in µs; sizes in KiB.

#include <llmcost/descriptors/engine.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

#include <string_view>

namespace llmcost {

/// One row of `tables/engines.csv`, in the units of its column names.
struct engine_row {
    std::string_view name, engine, architecture, version;
    double gemm, grouped_gemm, expert_tile_rows, attention_prefill, attention_decode, attention_fp8, mla_decode,
        elementwise, weights;
    double step_overhead_us, launch_eager_us, launch_graph_us, cuda_graphs;
    double all_reduce_latency_us, custom_all_reduce_max_KiB, all_to_all_latency_us, library_all_reduce_us,
        library_all_reduce_bus_GBps;
    double max_sequences, max_batched_tokens, chunked_prefill, chunk_tokens, kv_memory_fraction, kv_block_tokens,
        prefill_alone;
    double expert_parallel, attention_dp, load_balancing, routing_skew, busiest_rank, mtp_draft_tokens;
    double request_overhead_us;  ///< per-request front-end latency (`engine_overheads::request`), µs
    double fp4_gemm_efficiency, fp4_gemm_half_dim;  ///< the engine's dense FP4 GEMM size curve (e∞, n₀); 0, 0: the hardware's
    /// The curve of an FP4 GEMM with its activations' quantization kernel (e∞, n₀), for builds that
    /// do not fuse it; 0, 0: none
    double fp4_quant_gemm_efficiency, fp4_quant_gemm_half_dim;
    double attention_dp_balance;  ///< attention DP's balance ratio (`engine_moe::attention_dp_balance`); 0: not measured
    /// The mixed-input (W4A16) expert GEMM's ceiling, a fraction of the peak
    /// (`engine_kernels::mixed_input_expert_gemm`); 0: none
    double mixed_input_expert_gemm;
    /// The multiples a mixed-input expert kernel pads the hidden dimension and the expert's width to
    /// (`engine_kernels::mixed_input_hidden_align`, `mixed_input_width_align`); 0: none
    double mixed_input_hidden_align, mixed_input_width_align;
    double prefill_launch_us;     ///< per kernel on a prompt step run eagerly (`engine_overheads::prefill_launch`), µs
    double host_enqueue_us;  ///< per kernel, the host's enqueue of a step without CUDA graphs (`engine_overheads::host_enqueue`), µs
    /// the custom all-reduce's largest message at 2 ranks (`engine_collectives::custom_all_reduce_max_2_ranks`),
    /// KiB; 0: `custom_all_reduce_max_KiB` at every count
    double custom_all_reduce_max_2_ranks_KiB;
    double fp8_gemm_efficiency, fp8_gemm_half_dim;  ///< the engine's dense FP8 GEMM size curve (e∞, n₀); 0, 0: the hardware's
    /// kernels of an MoE layer's router and experts in the engine's fused runner
    /// (`engine_kernels::moe_runner_kernels`); 0: the generic seven
    double moe_runner_kernels;
    /// 1: the TP all-reduce also adds the residual and applies the next RMSNorm (`engine_kernels::all_reduce_norm_fusion`)
    double all_reduce_norm_fusion;
    /// 1: experts narrower than 8 bits run with 8-bit activations at the FP8 peak (`engine_kernels::expert_fp8_activations`)
    double expert_fp8_activations;
    /// the custom all-reduce's bus bandwidth (`engine_collectives::custom_all_reduce_bus`), GB/s; 0: the link's
    double custom_all_reduce_bus_GBps;
    /// a benchmark run's cold opening (`engine_overheads::cold_start`), ms, and its cost per prompt token of
    /// the opening's requests (`engine_overheads::cold_prompt_token`), µs; 0, 0: none
    double cold_start_ms, cold_prompt_token_us;
    /// the engine's dense BF16 GEMM size curve (e∞, n₀); 0, 0: the hardware's
    double bf16_gemm_efficiency, bf16_gemm_half_dim;
    /// 1: the prompts' and the decodes' attention of a step run as two kernels (`engine_kernels::separate_prompt_attention`)
    double separate_prompt_attention;
    /// kernels of an absorbed multi-latent attention block at decode (`engine_kernels::mla_attention_kernels`);
    /// 0: the generic four
    double mla_attention_kernels;
    /// the prompts' attention curve e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀) of the BF16 peak
    /// (`engine_kernels::prompt_attention_efficiency`, `prompt_attention_half_keys`, `prompt_attention_half_rows`);
    /// 0, 0, 0: the one rate
    double prompt_attention_efficiency, prompt_attention_half_keys, prompt_attention_half_rows;
    /// FP8 experts' GEMM rate over the expert size curve (`engine_kernels::fp8_expert_gemm`); 0: none
    double fp8_expert_gemm;
    /// how `kv_memory_fraction` sizes the KV pool (`engine_scheduler::kv_pool`): "share_of_total"
    /// (vLLM), "free_after_weights" (TensorRT-LLM), "share_of_total_static" (SGLang); empty: share_of_total
    std::string_view kv_pool;
    /// The engine's non-KV memory (`engine_scheduler::non_kv`; all 0: not given): activation
    /// coefficients c at TP 1, 2, 4, 8 for dense and MoE models, the activations' floor (MiB) and
    /// overhead share, NCCL buffers at TP 1, 2, 4, 8 (B), the runtime memory (B) and its overhead share
    double activation_dense_tp1, activation_dense_tp2, activation_dense_tp4, activation_dense_tp8;
    double activation_moe_tp1, activation_moe_tp2, activation_moe_tp4, activation_moe_tp8;
    double activation_min_MiB, activation_overhead;
    double nccl_tp1_B, nccl_tp2_B, nccl_tp4_B, nccl_tp8_B;
    double runtime_B, runtime_overhead;
    /// 1: under attention DP an EP group of at most top-k ranks gathers and reduce-scatters its tokens
    /// (`engine_collectives::gather_up_to_top_k`); the library all-gather's fit a₀, a₁ (µs) and bus
    /// bandwidth (GB/s) (`gather_latency`, `gather_latency_per_rank`, `gather_bus`); 0: the link model
    double moe_gather_up_to_top_k, gather_latency_us, gather_step_us, gather_bus_GBps;
    /// kernels of one shared expert outside the routed runner (`engine_kernels::shared_expert_kernels`; 0: none
    /// priced); 1: under CUDA graphs it runs on an auxiliary stream beside the routed experts
    /// (`engine_kernels::shared_expert_stream`)
    double shared_expert_kernels, shared_expert_stream;
    /// kernels a layer's latent attention adds on an FP8 block-scaled checkpoint
    /// (`engine_kernels::fp8_attention_quant_kernels`); 0: none
    double fp8_attention_quant_kernels;
    /// the all-reduce where a TP group spans hosts (`engine_collectives::cross_host_all_reduce`,
    /// `cross_host_all_reduce_bus`): its fixed time a (µs) and bus bandwidth (GB/s); 0, 0: none
    double cross_host_all_reduce_us, cross_host_all_reduce_bus_GBps;
    /// kernels a layer adds where the TP group spans hosts (`engine_kernels::cross_host_norm_kernels`); 0: none
    double cross_host_norm_kernels;
    /// the cross-host all-reduce's largest message (KiB; `engine_collectives::cross_host_all_reduce_max`); 0: no bound
    double cross_host_all_reduce_max_KiB;
    /// the most rows a dense FP8 GEMM kernel's M extent covers (`engine_kernels::fp8_gemm_tile_rows`); 0: the hardware's padding
    double fp8_gemm_tile_rows;
    /// FP4 × FP4 experts' GEMM rate over the expert size curve (`engine_kernels::fp4_expert_gemm`); 0: none
    double fp4_expert_gemm;
    /// the quantized all-reduce a run may turn on (`engine_collectives::quick_reduce_all_reduce`, `quick_reduce_bus`,
    /// `quick_reduce_min`, `quick_reduce_max`): its fixed time a (µs), bus bandwidth (GB/s) and message band (KiB); 0: none
    double quick_reduce_us, quick_reduce_bus_GBps, quick_reduce_min_KiB, quick_reduce_max_KiB;
    /// the custom kernel's large-message curve (`engine_collectives::custom_all_reduce_large`, `custom_all_reduce_large_bus`,
    /// `custom_all_reduce_large_min`): its fixed time a (µs), bus bandwidth (GB/s) and the size above which it runs (KiB); 0: none
    double custom_all_reduce_large_us, custom_all_reduce_large_bus_GBps, custom_all_reduce_large_min_KiB;
    /// 1: the engine runs a fused shared expert whole on every EP rank of a TEP layout
    /// (`engine_moe::shared_expert_ep_replicated`); 0: TP-sharded
    double shared_expert_ep_replicated;
    /// a benchmark run's first-use kernel build (`engine_overheads::first_use_build`), s; 0: none
    double first_use_build_s;
    /// the host's time per request of a prompt step run serially (`engine_overheads::prefill_request`), µs; 0: none
    double prefill_request_us;
    /// vLLM V0's scheduler pass on the host (`engine_overheads::v0_pass`, `v0_pass_rank`, `v0_pass_sequence`): its
    /// fixed time, its time per TP rank beyond the first and per scheduled sequence, µs; 0: none
    double v0_pass_us, v0_pass_rank_us, v0_pass_sequence_us;
    /// vLLM V0's output processing per sequence-step where the async output processor is off
    /// (`engine_overheads::v0_output_token`), µs; 0: none
    double v0_output_token_us;
    /// the time one padded m-block of an expert runner that takes the all-to-all's whole receive buffer costs
    /// (`engine_moe::padded_moe_block`), ns; 0: none
    double padded_moe_block_ns;
    /// steps between a closed-loop answer's last step and the first step that can carry its client's next prompt
    /// (`engine_scheduler::overlap_schedule_steps`, SGLang's overlap loop); 0: the next step
    double overlap_schedule_steps;
    /// the memory resident on a GPU at init, before the static fraction applies (`engine_scheduler::init_resident`,
    /// SGLang), MiB; 0: none
    double init_resident_MiB;
    /// the factor on the static fraction where the model's context exceeds `long_context_fraction_tokens` (8,192)
    /// (`engine_scheduler::long_context_fraction_scale`, SGLang's aiter backend); 0: none
    double long_context_fraction_scale;
    /// 1: only a model with routed experts pays the cold opening (`engine_overheads::cold_opening_moe_only`); 0: every
    /// cold closed loop does
    double cold_opening_moe_only;
    /// the prefix total below which a prompt step carrying a prefix runs absorbed MLA
    /// (`engine_kernels::mla_absorbed_prefix_below`, SGLang on Hopper), tokens; 0: never
    double mla_absorbed_prefix_below_tokens;
    /// the MoE models whose router the engine keeps whole on every rank in BF16 (`engine_moe::router_whole_bf16`):
    /// "none", "every_moe" or "latent_moe"; the loader writes "none" for a table without the column
    std::string_view router_whole_bf16;
};

/// The typed, validated profile of a table row. An engine or architecture the library does not
/// know is refused with the name and the known ones.
[[nodiscard]] constexpr engine_profile from_row(const engine_row& r) {
    const std::optional<engine_kind> kind = engine_named(r.engine);
    require_word(kind.has_value(), r.name, "engine", r.engine, "unknown engine: the known ones are trtllm, vllm, sglang, reference");
    const std::optional<gpu_architecture> arch = architecture_named(r.architecture);
    require_word(arch.has_value(), r.name, "architecture", r.architecture,
            "unknown architecture: the known ones are any, ampere, ada, hopper, blackwell, rubin, cdna3, cdna4");
    auto flag = [&](double v, std::string_view field) {
        require(v == 0.0 || v == 1.0, r.name, field, v, "a flag is 0 or 1");
        return v == 1.0;
    };
    const std::optional<kv_pool_rule> pool = r.kv_pool.empty() ? kv_pool_rule::share_of_total : kv_pool_rule_named(r.kv_pool);
    require(pool.has_value(), r.name, "kv_pool_rule", 0.0,
            "unknown KV pool rule: the known ones are share_of_total, free_after_weights, share_of_total_static");
    const std::optional<router_whole_models> router = router_whole_models_named(r.router_whole_bf16);
    require_word(router.has_value(), r.name, "router_whole_bf16", r.router_whole_bf16,
                 "unknown router model set: the known ones are none, every_moe, latent_moe", router_whole_bf16_rule_id);
    require(r.mtp_draft_tokens >= 0.0 && r.mtp_draft_tokens <= 16.0 &&
                r.mtp_draft_tokens == detail::const_trunc(r.mtp_draft_tokens),
            r.name, "mtp_draft_tokens", r.mtp_draft_tokens, "a whole number of draft tokens in [0, 16]");
    return checked(engine_profile{
        .name = r.name,
        .kind = *kind,
        .architecture = *arch,
        .version = r.version,
        .kernels = {.gemm = r.gemm,
                    .grouped_gemm = r.grouped_gemm,
                    .expert_tile_rows = r.expert_tile_rows,
                    .attention_prefill = r.attention_prefill,
                    .attention_decode = r.attention_decode,
                    .attention_fp8 = r.attention_fp8,
                    .mla_decode = r.mla_decode,
                    .elementwise = r.elementwise,
                    .weights = r.weights,
                    .fp4_gemm_efficiency = r.fp4_gemm_efficiency,
                    .fp4_gemm_half_dim = r.fp4_gemm_half_dim,
                    .fp4_quant_gemm_efficiency = r.fp4_quant_gemm_efficiency,
                    .fp4_quant_gemm_half_dim = r.fp4_quant_gemm_half_dim,
                    .fp8_gemm_efficiency = r.fp8_gemm_efficiency,
                    .fp8_gemm_half_dim = r.fp8_gemm_half_dim,
                    .fp8_gemm_tile_rows = r.fp8_gemm_tile_rows,
                    .bf16_gemm_efficiency = r.bf16_gemm_efficiency,
                    .bf16_gemm_half_dim = r.bf16_gemm_half_dim,
                    .mixed_input_expert_gemm = r.mixed_input_expert_gemm,
                    .mixed_input_hidden_align = r.mixed_input_hidden_align,
                    .mixed_input_width_align = r.mixed_input_width_align,
                    .moe_runner_kernels = r.moe_runner_kernels,
                    .all_reduce_norm_fusion = flag(r.all_reduce_norm_fusion, "all_reduce_norm_fusion"),
                    .mla_attention_kernels = r.mla_attention_kernels,
                    .mla_absorbed_prefix_below = tokens(r.mla_absorbed_prefix_below_tokens),
                    .shared_expert_kernels = r.shared_expert_kernels,
                    .shared_expert_stream = flag(r.shared_expert_stream, "shared_expert_stream"),
                    .fp8_attention_quant_kernels = r.fp8_attention_quant_kernels,
                    .cross_host_norm_kernels = r.cross_host_norm_kernels,
                    .expert_fp8_activations = flag(r.expert_fp8_activations, "expert_fp8_activations"),
                    .separate_prompt_attention = flag(r.separate_prompt_attention, "separate_prompt_attention"),
                    .prompt_attention_efficiency = r.prompt_attention_efficiency,
                    .prompt_attention_half_keys = r.prompt_attention_half_keys,
                    .prompt_attention_half_rows = r.prompt_attention_half_rows,
                    .fp8_expert_gemm = r.fp8_expert_gemm,
                    .fp4_expert_gemm = r.fp4_expert_gemm},
        .overheads = {.step = microseconds(r.step_overhead_us),
                      .launch_eager = microseconds(r.launch_eager_us),
                      .launch_graph = microseconds(r.launch_graph_us),
                      .cuda_graphs = flag(r.cuda_graphs, "cuda_graphs"),
                      .request = microseconds(r.request_overhead_us),
                      .prefill_launch = microseconds(r.prefill_launch_us),
                      .host_enqueue = microseconds(r.host_enqueue_us),
                      .cold_start = milliseconds(r.cold_start_ms),
                      .cold_prompt_token = microseconds(r.cold_prompt_token_us),
                      .cold_opening_moe_only = flag(r.cold_opening_moe_only, "cold_opening_moe_only"),
                      .first_use_build = seconds(r.first_use_build_s),
                      .prefill_request = microseconds(r.prefill_request_us),
                      .v0_pass = microseconds(r.v0_pass_us),
                      .v0_pass_rank = microseconds(r.v0_pass_rank_us),
                      .v0_pass_sequence = microseconds(r.v0_pass_sequence_us),
                      .v0_output_token = microseconds(r.v0_output_token_us)},
        .collectives = {.all_reduce_latency = microseconds(r.all_reduce_latency_us),
                        .custom_all_reduce_max = kibibytes(r.custom_all_reduce_max_KiB),
                        .all_to_all_latency = microseconds(r.all_to_all_latency_us),
                        .library_all_reduce = microseconds(r.library_all_reduce_us),
                        .library_all_reduce_bus = gigabytes_per_second(r.library_all_reduce_bus_GBps),
                        .custom_all_reduce_max_2_ranks = kibibytes(r.custom_all_reduce_max_2_ranks_KiB),
                        .custom_all_reduce_bus = gigabytes_per_second(r.custom_all_reduce_bus_GBps),
                        .custom_all_reduce_large = microseconds(r.custom_all_reduce_large_us),
                        .custom_all_reduce_large_bus = gigabytes_per_second(r.custom_all_reduce_large_bus_GBps),
                        .custom_all_reduce_large_min = kibibytes(r.custom_all_reduce_large_min_KiB),
                        .cross_host_all_reduce = microseconds(r.cross_host_all_reduce_us),
                        .cross_host_all_reduce_bus = gigabytes_per_second(r.cross_host_all_reduce_bus_GBps),
                        .cross_host_all_reduce_max = kibibytes(r.cross_host_all_reduce_max_KiB),
                        .quick_reduce_all_reduce = microseconds(r.quick_reduce_us),
                        .quick_reduce_bus = gigabytes_per_second(r.quick_reduce_bus_GBps),
                        .quick_reduce_min = kibibytes(r.quick_reduce_min_KiB),
                        .quick_reduce_max = kibibytes(r.quick_reduce_max_KiB),
                        .gather_up_to_top_k = flag(r.moe_gather_up_to_top_k, "moe_gather_up_to_top_k"),
                        .gather_latency = microseconds(r.gather_latency_us),
                        .gather_latency_per_rank = microseconds(r.gather_step_us),
                        .gather_bus = gigabytes_per_second(r.gather_bus_GBps)},
        .scheduler = {.max_sequences = r.max_sequences,
                      .max_batched_tokens = r.max_batched_tokens,
                      .chunked_prefill = flag(r.chunked_prefill, "chunked_prefill"),
                      .chunk = tokens(r.chunk_tokens),
                      .kv_memory_fraction = r.kv_memory_fraction,
                      .kv_pool = *pool,
                      .kv_block_tokens = r.kv_block_tokens,
                      .non_kv = {.dense = {r.activation_dense_tp1, r.activation_dense_tp2, r.activation_dense_tp4,
                                           r.activation_dense_tp8},
                                 .moe = {r.activation_moe_tp1, r.activation_moe_tp2, r.activation_moe_tp4,
                                         r.activation_moe_tp8},
                                 .min_activations = mebibytes(r.activation_min_MiB),
                                 .activation_overhead = r.activation_overhead,
                                 .communication = {bytes(r.nccl_tp1_B), bytes(r.nccl_tp2_B), bytes(r.nccl_tp4_B),
                                                   bytes(r.nccl_tp8_B)},
                                 .runtime = bytes(r.runtime_B),
                                 .runtime_overhead = r.runtime_overhead},
                      .prefill_alone = flag(r.prefill_alone, "prefill_alone"),
                      .overlap_schedule_steps = r.overlap_schedule_steps,
                      .init_resident = mebibytes(r.init_resident_MiB),
                      .long_context_fraction_scale = r.long_context_fraction_scale},
        .moe = {.expert_parallel = flag(r.expert_parallel, "expert_parallel"),
                .attention_dp = flag(r.attention_dp, "attention_dp"),
                .load_balancing = flag(r.load_balancing, "load_balancing"),
                .routing_skew = r.routing_skew,
                .busiest_rank = flag(r.busiest_rank, "busiest_rank"),
                .attention_dp_balance = r.attention_dp_balance,
                .mtp_draft_tokens = static_cast<int>(r.mtp_draft_tokens),
                .shared_expert_ep_replicated = flag(r.shared_expert_ep_replicated, "shared_expert_ep_replicated"),
                .padded_moe_block = seconds(r.padded_moe_block_ns * 1e-9),
                .router_whole_bf16 = *router},
    });
}

}  // namespace llmcost
