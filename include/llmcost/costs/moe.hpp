#pragma once
/// \file
/// Mixture of experts (seed S20–S22): resident bytes are all experts; bytes read per pass are the
/// experts some token in the batch picked; tokens travel to their experts and back (all-to-all).

#include <llmcost/costs/collectives.hpp>
#include <llmcost/costs/parallel.hpp>
#include <llmcost/detail/math.hpp>

namespace llmcost {

/// Probability that a given expert is chosen by at least one of T tokens under uniform top-k
/// routing: 1 − (1 − k/E)^T. A fractional T (a micro-batch of 0.75 sequences: steady-state
/// averages) is the linear mixture of ⌊T⌋ and ⌈T⌉ tokens: 1 − q^⌊T⌋ + f · q^⌊T⌋ · (1 − q), q = 1 − k/E.
[[nodiscard]] constexpr double expert_coverage(int experts, int top_k, double tokens) {
    if (experts <= 0 || tokens <= 0) return 0.0;
    const double miss = 1.0 - static_cast<double>(top_k) / experts;
    const double whole = detail::const_trunc(tokens), frac = tokens - whole;
    if (whole >= 4611686018427387904.0) return miss < 1.0 ? 1.0 : 0.0;  // 2^62 tokens: past any long long power
    const double missed = detail::pow_int(miss, static_cast<long long>(whole));
    return 1.0 - missed + frac * missed * (1.0 - miss);
}

/// E_distinct = E · (1 − (1 − k/E)^T) — expected distinct experts a batch of T tokens touches
/// (k at T = 1, → E as T grows; seed S20).
[[nodiscard]] constexpr double expected_distinct_experts(int experts, int top_k, double tokens) {
    return experts * expert_coverage(experts, top_k, tokens);
}

/// Tokens one expert may take with capacity factor f: f · T · k ÷ E (GShard / Switch Transformer).
/// Kernels that pad to capacity do f× the routed-expert work.
[[nodiscard]] constexpr double expert_capacity(double tokens, int top_k, int experts, double capacity_factor = 1.0) {
    return capacity_factor * tokens * top_k / experts;
}

/// Routed-expert bytes one GPU reads in a pass that routes `tokens` tokens through its EP group:
/// resident expert bytes × coverage. Between k/E and all of them; rising with the batch.
[[nodiscard]] constexpr bytes_t expert_bytes_read_per_gpu(const deployment& d, double tokens) {
    if (!d.m.is_moe()) return bytes(0.0);
    return expert_weight_bytes_per_gpu(d) * expert_coverage(d.m.ffn.routed_experts, d.m.ffn.top_k, tokens);
}

/// Whether the engine quantizes the routed experts' activations to FP8 (W4A8, a property of the
/// deployment): the engine does (`engine_kernels::expert_fp8_activations`), the experts are stored in
/// fewer than 8 bits (MXFP4), the activations in more, and the GPU has FP8 tensor cores of its own (a
/// dense FP8 peak in the hardware table, not one widened to BF16); the GEMMs then run on the 8-bit
/// tensor cores. Not `experts_fp8_weights_and_activations`, where the model itself is FP8 × FP8.
[[nodiscard]] constexpr bool expert_activations_quantized_to_fp8(const deployment& d) {
    const model& m = d.m;
    return m.is_moe() && d.engine.kernels.expert_fp8_activations && m.expert_format().bits_per_element() < 8.0 &&
           m.activations.bits_per_element() > 8.0 && d.hw.gpu.dense.fp8.value() > 0.0;
}

/// Whether the MoE layers exchange tokens by an all-gather before the experts and a reduce-scatter after
/// them, not an all-to-all: attention data-parallel (dp > 1) with an expert-parallel degree (`layout.ep`,
/// TensorRT-LLM's `moe_ep_size`) of no more than the model's top-k, on an engine that does so
/// (`engine_collectives::gather_up_to_top_k`). The gather itself runs over all tp·dp MoE ranks.
/// TensorRT-LLM up to 1.2.0rc2 enables its all-to-all only where `moe_ep_size > experts_per_token`
/// (fused_moe_trtllm_gen.py, fused_moe_cutlass.py, fused_moe_wide_ep.py `select_alltoall_method_type`)
/// and otherwise all-gathers the quantized hidden states with the routing and reduce-scatters the
/// experts' outputs (`run_post_quant_allgather`, `reducescatter_or_allreduce`; docs/trtllm-moe-comm.md).
[[nodiscard]] constexpr bool moe_gathers_tokens(const deployment& d) {
    return d.m.is_moe() && d.attention_data_parallel() && d.engine.collectives.gather_up_to_top_k &&
           d.layout.ep <= d.m.ffn.top_k;
}

/// Bits one hidden element of a token takes in the MoE's all-gather: the format the engine quantizes the
/// experts' input to before its communication (TensorRT-LLM `quantize_input(post_quant_comm)`): MXFP8,
/// 8 bits + one E8M0 scale per 32 elements = 8.25, where it runs the experts W4A8; NVFP4, 4 bits + one
/// FP8 scale per 16 = 4.5, where the activations are FP4 (the scales travel with the elements); else
/// the activations' own format.
[[nodiscard]] constexpr double moe_gather_bits(const deployment& d) {
    constexpr number_format mxfp8{.name = "mxfp8", .element_bits = 8, .block_size = 32, .scale_bits = 8,
                                  .compute = compute_class::fp8};
    if (expert_activations_quantized_to_fp8(d)) return mxfp8.bits_per_element();
    if (d.m.activations.compute == compute_class::fp4) return formats::nvfp4.bits_per_element();
    return d.m.activations.bits_per_element();
}

namespace detail {
/// Seconds of a pass's all-gather + reduce-scatter (`moe_gathers_tokens`), per MoE layer: the all-gather
/// of every rank's T tokens, S_g = n · T · (h · b_g/8 + 6k) ÷ tp bytes (hidden states at `moe_gather_bits`,
/// k int32 expert ids and k BF16 weights a token), then the reduce-scatter of the experts' outputs,
/// S_r = n · T · h · b_r/8 ÷ tp (the residual format), each t = a(n) + (n−1)/n · S ÷ B_bus on the engine's
/// library fit inside a scale-up domain (`engine_collectives::gather_fixed`, B_bus), else the link's ring.
template <class V>
[[nodiscard]] constexpr V gather_scatter_seconds_per_pass(const deployment& d, const V& tokens_per_rank) {
    if (!moe_gathers_tokens(d)) return lanes<V>::constant(0.0);
    const model& m = d.m;
    const int group = d.layout.tp * d.layout.dp;
    const double n = group, h = static_cast<double>(m.hidden), k = static_cast<double>(m.ffn.top_k);
    const V tokens = tokens_per_rank * (n / static_cast<double>(d.layout.tp));
    const V gathered = tokens * (h * moe_gather_bits(d) / 8.0 + 6.0 * k);
    const V scattered = tokens * (h * m.residual_format().bits_per_element() / 8.0);
    const engine_collectives& c = d.engine.collectives;
    if (c.gather_bus.value() > 0.0 && group <= d.hw.scale_up_domain)
        return (library_gather_seconds(gathered, group, c.gather_fixed(group), c.gather_bus) +
                library_gather_seconds(scattered, group, c.gather_fixed(group), c.gather_bus)) *
               static_cast<double>(m.moe_layers());
    const interconnect& l = d.link_for(group);
    return (all_gather_seconds(gathered, group, l) + all_gather_seconds(scattered, group, l)) *
           static_cast<double>(m.moe_layers());
}

/// All-to-all bytes per MoE layer of one phase at b bits a hidden element: T · k · h · b/8 ÷ tp (S21;
/// one value or a lane), b the phase's bits (`all_to_all_bits`).
template <class V>
[[nodiscard]] constexpr V all_to_all_payload_per_layer(const deployment& d, const V& tokens_per_rank, double bits) {
    const model& m = d.m;
    return tokens_per_rank * static_cast<double>(m.ffn.top_k) * static_cast<double>(m.hidden) * bits / 8.0 /
           static_cast<double>(d.layout.tp);
}
}  // namespace detail

/// The two phases of the expert all-to-all: the dispatch sends each token's hidden state to its k experts'
/// ranks, the combine sends the experts' outputs back to the token's rank.
enum class all_to_all_phase : unsigned char { dispatch, combine };

/// Bits a hidden element takes in one phase of the expert all-to-all. Dispatch: the experts' input as the
/// engine quantizes it before the exchange, the same rule as the gather (`moe_gather_bits`: MXFP8 8.25 for
/// W4A8, NVFP4 4.5 for FP4 activations, else the activations' format; TensorRT-LLM's post-quant
/// all-to-all, `TRTLLM_MOE_POST_QUANT_ALLTOALLV`, fused_moe_wide_ep.py @01303b3887e039d6dda1b5487ec8a94d9ef9db76).
/// Combine: the experts' outputs in the residual format (`model::residual_format`, BF16 under quantized
/// activations), as every engine's kernel returns them: TensorRT-LLM's NVLink one-sided all-to-all
/// ("combine … in BF16 by default", NVIDIA/TensorRT-LLM@22de8b34 docs/source/blogs/tech_blog/blog18, E28),
/// MORI-EP ("FP8 dispatch + BF16 combine": ROCm/mori@624002c8 README.md, Benchmarks, E40), DeepEP
/// (FP8 dispatch, BF16 combine: deepseek-ai/DeepEP@dd758caf docs/legacy.md, E21).
[[nodiscard]] constexpr double all_to_all_bits(const deployment& d, all_to_all_phase phase) {
    return phase == all_to_all_phase::dispatch ? moe_gather_bits(d) : d.m.residual_format().bits_per_element();
}

/// Whether the MoE layers exchange tokens by the expert all-to-all: attention data parallelism (dp > 1) under
/// expert parallelism, unless the engine gathers instead (`moe_gathers_tokens`); the rule
/// `detail::all_to_all_seconds_per_pass` documents.
[[nodiscard]] constexpr bool moe_runs_all_to_all(const deployment& d) {
    return d.m.is_moe() && d.attention_data_parallel() && !moe_gathers_tokens(d);
}

namespace detail {
/// What of a pass's all-to-all the deployment fixes, worked out once (`all_to_all_pass_of`): whether one runs, its
/// group and links, each phase's bits and the MoE layers; `seconds` prices a step's tokens with it.
struct all_to_all_pass {
    bool runs = false;  ///< `moe_runs_all_to_all`: a MoE model, attention data-parallel, not gathering
    int group = 1;      ///< ranks of the EP group, tp · dp
    int domain = 1;     ///< GPUs of a scale-up domain
    interconnect up{}, out{};
    double dispatch_bits = 0, combine_bits = 0;  ///< `all_to_all_bits` of each phase
    double moe_layers = 0;

    /// t = MoE layers × (t(S_dispatch) + t(S_combine)), each phase's bytes at its own format, each inside one
    /// scale-up domain on its link, past it the on-node and off-node shares at once; 0 where none runs.
    template <class V>
    [[nodiscard]] constexpr V seconds(const deployment& d, const V& tokens_per_rank) const {
        if (!runs) return lanes<V>::constant(0.0);
        const V dispatch = all_to_all_payload_per_layer(d, tokens_per_rank, dispatch_bits);
        const V combine = all_to_all_payload_per_layer(d, tokens_per_rank, combine_bits);
        return (all_to_all_seconds(dispatch, group, domain, up, out) + all_to_all_seconds(combine, group, domain, up, out)) *
               moe_layers;
    }
};

/// The deployment's all-to-all constants (`all_to_all_pass`).
[[nodiscard]] constexpr all_to_all_pass all_to_all_pass_of(const deployment& d) {
    all_to_all_pass a{};
    a.runs = moe_runs_all_to_all(d);
    if (!a.runs) return a;
    a.group = d.layout.tp * d.layout.dp;
    // The engine's all-to-all kernels (DeepEP, MORI-EP, NVLink one-sided) have their own floor per
    // phase, α_engine, in place of the link's α (descriptors/engine.hpp; E21, E28, E39, E40).
    a.up = d.hw.scale_up;
    a.out = d.hw.scale_out;
    if (d.engine.collectives.all_to_all_latency.value() > 0.0)
        a.up.latency = a.out.latency = d.engine.collectives.all_to_all_latency;
    a.domain = d.hw.scale_up_domain;
    a.dispatch_bits = all_to_all_bits(d, all_to_all_phase::dispatch);
    a.combine_bits = all_to_all_bits(d, all_to_all_phase::combine);
    a.moe_layers = static_cast<double>(d.m.moe_layers());
    return a;
}

/// Seconds of a pass's all-to-all: MoE layers × (t_dispatch + t_combine), one all-to-all each over the
/// EP group at the phase's bytes (`all_to_all_bits`), where
/// the group's attention ranks hold different tokens (attention data parallelism, dp > 1). With
/// attention tensor-parallel over the whole group (dp = 1, ep = tp) every rank already holds every
/// token after attention's all-reduce: it runs its own experts on them and the FFN's all-reduce,
/// priced with TP, sums the experts' outputs, so no all-to-all runs (SGLang's default
/// `--moe-a2a-backend none`, "Uses All-Reduce or All-Gather for token dispatch", sgl-project/sglang
/// docs/advanced_features/expert_parallelism.md @020017c4965d9224b6f353e557daa093c59c4835; vLLM's
/// `FusedMoEParallelConfig.use_all2all_kernels` is dp_size > 1 and use_ep, vllm/model_executor/layers/
/// fused_moe/config.py; TensorRT-LLM's fused MoE enables its all-to-all only with attention DP,
/// `enable_alltoall` requires `mapping.enable_attention_dp`, tensorrt_llm/_torch/modules/fused_moe).
/// None either where the engine gathers and reduce-scatters instead (`moe_gathers_tokens`).
template <class V>
[[nodiscard]] constexpr V all_to_all_seconds_per_pass(const deployment& d, const V& tokens_per_rank) {
    return all_to_all_pass_of(d).seconds(d, tokens_per_rank);
}
}  // namespace detail

/// All-to-all bytes one GPU sends per MoE layer in one phase: tokens × top-k × hidden × bytes ÷ tp
/// (seed S21), the bytes of the phase's format (`all_to_all_bits`); the dispatch unless asked for the
/// combine. (ep_group − 1)/ep_group of it leaves the GPU. The payload an all-to-all would carry, whether
/// or not the deployment runs one: a deployment that gathers (`moe_gathers_tokens`) or whose attention
/// is tensor-parallel runs none (`all_to_all_time_per_pass`).
[[nodiscard]] constexpr bytes_t all_to_all_bytes_per_layer(const deployment& d, double tokens_per_rank,
                                                           all_to_all_phase phase = all_to_all_phase::dispatch) {
    if (!d.m.is_moe()) return bytes(0.0);
    return bytes(detail::all_to_all_payload_per_layer(d, tokens_per_rank, all_to_all_bits(d, phase)));
}

/// Time of the expert all-to-all for one pass: MoE layers × (dispatch + combine, each at its own format,
/// `all_to_all_bits`), each over the stage's EP group
/// (tp·dp GPUs) on the scale-up link when the group fits in a domain; past it the off-node share,
/// (n − m)/n, m = n mod g or g (`all_to_all_off_node_share`), on the NIC and the on-node share, (g − 1)/n, on the scale-up link at once (S21, S22;
/// `detail::all_to_all_seconds` with the domain);
/// none when the group's attention is tensor-parallel (dp = 1: `detail::all_to_all_seconds_per_pass`).
[[nodiscard]] constexpr seconds_t all_to_all_time_per_pass(const deployment& d, double tokens_per_rank) {
    return seconds(detail::all_to_all_seconds_per_pass(d, tokens_per_rank));
}

/// N_blk = ⌈(W·C·k + E·b − k) ÷ b⌉: the m-blocks AITER's `moe_sorting` sizes `sorted_expert_ids` at for a
/// receive buffer of M = W·C rows (W ranks × C tokens a rank may dispatch), k experts a token, E routed experts,
/// b rows a block (ROCm/aiter@e28297f8f9 aiter/fused_moe.py l.27–51; `aiter_moe_sorting_block`). DEP8 at C = 16384:
/// (131,072·8 + 256·32 − 8) ÷ 32 → 33,024; DEP16: 65,792.
[[nodiscard]] constexpr double padded_moe_blocks(int ranks, double cap_tokens, int top_k, int experts,
                                                 double block = aiter_moe_sorting_block) {
    const double k = top_k;
    return detail::const_ceil((ranks * cap_tokens * k + experts * block - k) / block);
}

/// t_pad = L_moe · c · N_blk a pass: where the layers run the all-to-all (`moe_runs_all_to_all`) and the engine's
/// expert runner takes its whole fixed-shape receive buffer (c = `engine_moe::padded_moe_block` > 0), each MoE layer's
/// 1-stage kernel runs a grid of N_blk m-blocks (`padded_moe_blocks`, W = tp·dp MoE ranks, C the run's dispatch cap,
/// `engine_moe::dispatch_cap`) whatever tokens arrived (HaiShaw/sglang@00e3e6ea3 ep_moe/layer.py l.591–637; AITER
/// csrc/py_itfs_cu/asm_fmoe.cu l.122–124; the grid captured in the CUDA graph). Every step through that path pays it,
/// decode and prompt alike (the buffer is the same). FITTED c (docs/mi355x-disagg-decode.md §6). 0 elsewhere.
[[nodiscard]] constexpr seconds_t padded_moe_time_per_pass(const deployment& d) {
    const engine_moe& e = d.engine.moe;
    if (e.padded_moe_block.value() <= 0.0 || !moe_runs_all_to_all(d)) return seconds(0.0);
    const double blocks = padded_moe_blocks(d.layout.tp * d.layout.dp, e.dispatch_cap(), d.m.ffn.top_k,
                                            d.m.ffn.routed_experts);
    return e.padded_moe_block * (blocks * static_cast<double>(d.m.moe_layers()));
}

/// Time of the MoE's all-gather + reduce-scatter for one pass, where the engine runs them in place of
/// the all-to-all (`moe_gathers_tokens`; 0 elsewhere): MoE layers × (t_gather + t_scatter).
[[nodiscard]] constexpr seconds_t gather_scatter_time_per_pass(const deployment& d, double tokens_per_rank) {
    return seconds(detail::gather_scatter_seconds_per_pass(d, tokens_per_rank));
}

}  // namespace llmcost
