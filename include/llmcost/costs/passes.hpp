#pragma once
/// \file
/// Forward passes: prefill (a prompt at once) and decode (one token per sequence), each priced by
/// the roofline plus the communication it needs, and a whole request's decode summed in closed form.
///
/// Figures are for one pass through the whole model as seen by one tensor-parallel rank: with
/// pp > 1 the pass visits pp stages in turn, so its latency is the sum over stages, while each GPU
/// is busy for 1/pp of it.

#include <llmcost/costs/collectives.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/moe.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/descriptors/gemm_table.hpp>
#include <llmcost/detail/lanes.hpp>


namespace llmcost {

namespace detail {
/// t = max(GEMM compute, weights) + max(attention compute, KV) + element-wise + (launches + padded MoE grid)
///     + (TP + EP + PP): kernels one after another, communication not overlapped (a conservative,
/// common choice). Summed left to right, for a typed pass or a lane of passes; the fixed per-step times
/// (launches, `padded_moe`) summed first, as one term.
template <class T>
[[nodiscard]] constexpr T pass_time(const T& matmul_compute, const T& matmul_memory, const T& attention_compute,
                                    const T& attention_memory, const T& elementwise, const T& overhead,
                                    const T& padded_moe, const T& tp, const T& ep, const T& pp) {
    return lane_max(matmul_compute, matmul_memory) + lane_max(attention_compute, attention_memory) + elementwise +
           (overhead + padded_moe) + (tp + ep + pp);
}
}  // namespace detail

/// One pass as the kernels of one tensor-parallel rank see it. Each class of kernel is priced by
/// its own roofline and the classes run one after another, as they do on a GPU stream:
///   t = max(GEMM FLOPs ÷ R_gemm, weights ÷ B) + max(attention FLOPs ÷ R_attn, KV ÷ B)
///     + activations ÷ B + kernels · t_launch + communication,
/// with R_gemm the size-dependent GEMM rate (B04), R_attn the fused-attention rate (B06) and B the
/// sustained HBM bandwidth (B01–B03). A sum of rooflines is never below the roofline of the sums.
struct pass_cost {
    flops_t flops;               ///< per tensor-parallel rank: matmul_flops + attention_flops
    flops_t matmul_flops;        ///< GEMMs (projections, FFN, experts, LM head)
    flops_t attention_flops;     ///< QKᵀ and PV
    bytes_t weight_bytes;        ///< weights streamed from HBM
    bytes_t kv_bytes;            ///< KV cache read (and, for prefill, written)
    bytes_t activation_bytes;    ///< hidden states between kernels (norms, residuals, GEMM inputs/outputs)
    seconds_t compute_time;      ///< all FLOPs at the large-GEMM rate — the compute floor
    seconds_t memory_time;       ///< all bytes at sustained bandwidth — the memory floor
    seconds_t matmul_compute_time;     ///< GEMM FLOPs ÷ the GEMM rate at their size
    seconds_t matmul_memory_time;      ///< weight bytes ÷ bandwidth
    /// attention FLOPs ÷ the fused-attention rate; where the engine runs prompts and decodes as two
    /// attention kernels (`engine_kernels::separate_prompt_attention`), the two kernels' time, which is
    /// never below `attention_memory_time`
    seconds_t attention_compute_time;
    seconds_t attention_memory_time;   ///< KV bytes ÷ bandwidth
    seconds_t elementwise_time;  ///< activation bytes ÷ bandwidth
    seconds_t overhead_time;     ///< kernels launched × per-kernel overhead, the engine's host time per step
    /// MoE padded buffer: the expert runner's grid over the all-to-all's whole padded receive buffer, L_moe · c · N_blk
    /// (`padded_moe_time_per_pass`; 0 where the runner takes only the tokens that arrived)
    seconds_t padded_moe_time{};
    seconds_t tp_time;           ///< tensor-parallel all-reduces, 2 per layer (S13)
    seconds_t ep_time;           ///< expert-parallel exchange: all-to-all dispatch and combine (S21), or all-gather + reduce-scatter (`moe_gathers_tokens`)
    seconds_t pp_time;           ///< hand-offs between pipeline stages

    [[nodiscard]] constexpr bytes_t bytes() const { return weight_bytes + kv_bytes + activation_bytes; }
    /// max(compute, memory) — the roofline of the whole pass (Williams et al. 2009): a floor.
    [[nodiscard]] constexpr seconds_t roofline_time() const {
        return compute_time > memory_time ? compute_time : memory_time;
    }
    [[nodiscard]] constexpr seconds_t matmul_time() const { return detail::lane_max(matmul_compute_time, matmul_memory_time); }
    [[nodiscard]] constexpr seconds_t attention_time() const {
        return detail::lane_max(attention_compute_time, attention_memory_time);
    }
    /// The GPU's own work: GEMMs + attention + element-wise kernels + launch overheads + the padded MoE grid.
    [[nodiscard]] constexpr seconds_t kernel_time() const {
        return matmul_time() + attention_time() + elementwise_time + (overhead_time + padded_moe_time);
    }
    [[nodiscard]] constexpr seconds_t communication_time() const { return tp_time + ep_time + pp_time; }
    /// t = kernels + communication (not overlapped: a conservative, common choice).
    [[nodiscard]] constexpr seconds_t time() const {
        return detail::pass_time(matmul_compute_time, matmul_memory_time, attention_compute_time, attention_memory_time,
                                 elementwise_time, overhead_time, padded_moe_time, tp_time, ep_time, pp_time);
    }
    [[nodiscard]] constexpr bool memory_bound() const { return memory_time >= compute_time; }
    /// FLOP/byte of the pass (seed S14: ≈ 2·batch for decode at 8 bits).
    [[nodiscard]] constexpr flops_per_byte_t arithmetic_intensity() const { return flops / bytes(); }
};

/// Tensor-parallel synchronisations per pass: 2 all-reduces per layer (after attention and after
/// the FFN), none without TP (seed S13: 160 for 80 layers).
[[nodiscard]] constexpr int tp_all_reduces_per_pass(const deployment& d) {
    if (d.layout.tp <= 1) return 0;
    // A split-block model (Nemotron-H) all-reduces once per block: after its mixer or its FFN.
    return d.m.pattern.split_blocks ? d.m.count_layers().mixers() + d.m.ffn_layers() : 2 * d.m.layers;
}

namespace detail {

/// Matmul parameters per token outside the routed experts (attention projections, dense FFN,
/// shared experts, routers, LM head).
[[nodiscard]] constexpr double non_expert_matmul_parameters(const model& m) {
    const double routed_active = m.is_moe()
        ? static_cast<double>(expert_parameters(m)) * m.ffn.top_k * m.moe_layers() : 0.0;
    return static_cast<double>(matmul_parameters(m)) - routed_active;
}

/// f_row = L · h · (H_q · d + w_ffn) ÷ (P_matmul − P_head): the share of a dense model's per-token GEMM
/// work (LM head aside) in its row-parallel GEMMs, the attention output and FFN down projections whose
/// outputs the TP all-reduces sum (Megatron-LM, Shoeybi et al. 2019, §3). 0 for an MoE model or latent
/// attention (no fused GEMM + all-reduce priced there). Llama-3.1-405B: 16,384 · (16,384 + 53,248) per
/// layer of 16,384 · 194,560 = 0.3579.
[[nodiscard]] constexpr double row_parallel_gemm_share(const model& m) {
    if (m.is_moe() || m.attention.kind != attention_kind::standard) return 0.0;
    const parameter_breakdown b = parameters(m);
    const double head = static_cast<double>(b.lm_head > 0 ? b.lm_head : b.embedding);
    const double dense = non_expert_matmul_parameters(m) - head;
    const double row = static_cast<double>(m.layers) * m.hidden *
                       (static_cast<double>(m.attention.query_heads) * m.attention.head_dim + m.ffn.intermediate);
    return dense > 0.0 ? row / dense : 0.0;
}

/// Attention FLOPs for one query attending to one key, all heads of one layer:
/// standard 4·H·d (QKᵀ and PV); MLA prefill 2·H·(d_nope + d_rope) + 2·H·d_v; MLA decode with
/// absorbed projections 2·H·(r + d_rope) + 2·H·r (DeepSeek-V2 §2.1.3).
[[nodiscard]] constexpr double attention_flops_per_pair(const model& m, bool decode) {
    const attention_spec& a = m.attention;
    const double h = a.query_heads;
    if (a.kind == attention_kind::latent) {
        const latent_attention& l = a.latent;
        return decode ? 2.0 * h * (l.kv_lora_rank + l.rope_head_dim) + 2.0 * h * l.kv_lora_rank
                      : 2.0 * h * (l.nope_head_dim + l.rope_head_dim) + 2.0 * h * l.v_head_dim;
    }
    return 4.0 * h * a.head_dim;
}

/// Σ_{i=p+1}^{p+n} min(i, w) — keys seen by n new queries after p cached tokens, causal, with an
/// optional window w (w = 0: none). Closed form; the causal ½ is the n(n+1)/2 (FINDINGS: a peer error).
[[nodiscard]] constexpr double causal_pairs(double p, double n, double w) {
    auto full = [](double a, double b) { return (a + b) * (b - a + 1.0) / 2.0; };  // Σ_{i=a}^{b} i
    const double lo = p + 1.0, hi = p + n;
    if (n <= 0) return 0.0;
    if (w <= 0 || hi <= w) return full(lo, hi);
    if (lo > w) return n * w;
    return full(lo, w) + (hi - w) * w;
}

/// Σ_{i=p+1}^{p+n} ((i − 1) mod C + 1) — keys seen by n new queries after p cached tokens in a
/// chunked-attention layer (Llama 4: a query attends within its own chunk of C tokens). With
/// F(x) = Σ_{i=1}^{x} = q·C(C+1)/2 + r(r+1)/2 (x = qC + r), the sum is F(p + n) − F(p).
[[nodiscard]] constexpr double chunked_pairs(double p, double n, double c) {
    if (n <= 0) return 0.0;
    auto upto = [c](double x) {
        const double q = detail::const_trunc(x / c), r = x - q * c;
        return q * c * (c + 1.0) / 2.0 + r * (r + 1.0) / 2.0;
    };
    return upto(p + n) - upto(p);
}

/// Attention pairs per sequence summed over layers: full layers see every key, windowed ones ≤ w,
/// chunked ones their chunk's; state-space layers have none (their work is `state_flops_per_token`).
/// `c`: the model's layer counts (`model::count_layers`), counted once by a caller that prices many steps.
[[nodiscard]] constexpr double attention_pairs(const model& m, const model::layer_counts& c, double prefix,
                                               double new_tokens) {
    const double pairs = causal_pairs(prefix, new_tokens, 0) * c.full +
                         causal_pairs(prefix, new_tokens, m.attention.sliding_window) * c.window;
    return c.chunked > 0 ? pairs + chunked_pairs(prefix, new_tokens, m.pattern.chunk) * c.chunked : pairs;
}
[[nodiscard]] constexpr double attention_pairs(const model& m, double prefix, double new_tokens) {
    return attention_pairs(m, m.count_layers(), prefix, new_tokens);
}

/// FLOPs one token spends in the recurrences of all state-space layers: per head, the state update
/// (a rank-1 update, 2·P·N) and the read-out (2·P·N); the delta rule adds S·k (2·P·N)
/// (P = head_dim, N = state_dim; Mamba2: Dao & Gu 2024, Gated DeltaNet: Yang et al. 2024).
[[nodiscard]] constexpr double state_flops_per_token(const model& m) {
    const int n = m.count_layers().state;
    if (n == 0) return 0.0;
    const state_space_spec& s = m.pattern.state;
    const double per_head = (s.kind == state_space_kind::mamba2 ? 4.0 : 6.0) * s.head_dim * s.state_dim;
    return per_head * s.heads * n;
}

[[nodiscard]] constexpr const interconnect& tp_link(const deployment& d) { return d.link_for(d.layout.tp); }

/// Whether the engine runs its cross-host all-reduce for the deployment's TP all-reduces: 1 < TP ≤ the
/// scale-up domain and the engine instance's ranks TP·PP > GPUs a host (`hardware::gpus_per_node`), with
/// `cross_host_all_reduce` > 0. TensorRT-LLM: `Mapping.is_multi_node()` is world_size > gpus_per_node,
/// world_size = tp·pp·cp (tensorrt_llm/mapping.py), so a TP4 group on one tray of a TP4·PP2 instance takes
/// MNNVLAllReduce too.
[[nodiscard]] constexpr bool tp_spans_hosts(const engine_collectives& c, const hardware& hw, int tp, int pp) {
    return c.cross_host_all_reduce.value() > 0.0 && tp > 1 && tp * pp > hw.gpus_per_node && tp <= hw.scale_up_domain;
}
[[nodiscard]] constexpr bool tp_spans_hosts(const deployment& d) {
    return tp_spans_hosts(d.engine.collectives, d.hw, d.layout.tp, d.layout.pp);
}

/// Whether the cross-host all-reduce takes a message of s bytes: s ≤ `cross_host_all_reduce_max`, or no
/// bound (0); above it the collective library's all-reduce runs (`pass_model::library_all_reduce_min`).
[[nodiscard]] constexpr bool cross_host_all_reduce_takes(const engine_collectives& c, double s) {
    return c.cross_host_all_reduce_max.value() == 0.0 || s <= c.cross_host_all_reduce_max.value();
}

[[nodiscard]] constexpr all_reduce_algorithm tp_algorithm(const deployment& d) {
    return d.layout.tp <= d.hw.scale_up_domain ? all_reduce_algorithm::two_shot : all_reduce_algorithm::ring;
}

/// Query and key/value widths of one token in one layer (all heads).
[[nodiscard]] constexpr double query_width(const model& m) {
    const attention_spec& a = m.attention;
    return a.kind == attention_kind::latent ? static_cast<double>(a.query_heads) * (a.latent.nope_head_dim + a.latent.rope_head_dim)
                                            : static_cast<double>(a.query_heads) * a.head_dim;
}

/// Activation elements one token moves through HBM in one layer on one TP rank. Kernels read their
/// inputs and write their outputs: the residual stream (two norms, two residual adds, the inputs of
/// the column-parallel and the outputs of the row-parallel GEMMs: 14·h, replicated on every rank)
/// and the sharded tensors (Q/K/V out and into attention, attention out and into the O projection,
/// FFN up/gate out and into the activation, activation out and into the down projection).
[[nodiscard]] constexpr double activation_elements_per_token_layer(const model& m, double tp) {
    const double h = m.hidden;
    const double q = query_width(m);
    const double kv = static_cast<double>(kv_elements_per_token_per_layer(m));
    const double width = m.is_moe()
        ? static_cast<double>(m.ffn.expert_intermediate) * (m.ffn.top_k + m.ffn.shared_experts)
        : static_cast<double>(m.ffn.intermediate);
    const double ffn = (m.ffn.gated ? 6.0 : 4.0) * width;
    const double routing = m.is_moe() ? 4.0 * h * m.ffn.top_k : 0.0;  // permute in, un-permute out
    return 14.0 * h + routing + (2.0 * (q + kv) + 2.0 * q + ffn) / tp;
}

/// Kernels one pass launches: 10 per layer (norm, QKV GEMM, RoPE + KV append, attention, O GEMM,
/// residual + norm, up/gate GEMM, activation, down GEMM, residual), 4 more per MoE layer (router,
/// top-k, permute, un-permute), and 3 at the end (final norm, LM head, sampling).
[[nodiscard]] constexpr double kernels_per_pass(const model& m) {
    return 10.0 * m.layer_equivalents() + 4.0 * (m.is_moe() ? m.moe_layers() : 0) + 3.0;
}

/// The same count with the engine's fusions and its own blocks, where they apply on this deployment:
/// K = K_generic − 3·L·[fused norm] + (k_moe − 7)·M·[fused runner] + (k_mla − 4)·L·[MLA]
/// + k_q·L·[MLA ∧ W8A8 FP8] + k_x·L·[fused norm ∧ TP spans hosts], with L layers, M MoE layers.
/// - The TP all-reduce that also adds the residual and applies the next RMSNorm
///   (`all_reduce_norm_fusion`) leaves no norm or residual kernel of a layer's own (3 fewer: norm,
///   residual + norm, residual) where the layer all-reduces over TP, i.e. TP > 1 without attention DP
///   (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/modeling_gpt_oss.py @050b6cb: `forward_tp`).
/// - A fused MoE runner that routes inside itself (`moe_runner_kernels` k_moe > 0) replaces the
///   generic seven kernels of an MoE layer's router and experts with k_moe; with attention DP the
///   tokens are routed before the dispatch and the runner gets chosen experts, not logits
///   (fused_moe_trtllm_gen.py `forward_impl`: `router_logits_arg = None if post_quant_comm`), so the
///   generic count stays.
/// - An absorbed multi-latent attention block that launches k_mla kernels (`mla_attention_kernels`
///   > 0) in place of the generic four (QKV GEMM, RoPE + KV append, attention, O GEMM) adds
///   (k_mla − 4) a layer on a model with latent attention: K += (k_mla − 4)·L·[MLA] (SGLang's
///   absorbed MLA, CUDA path, sgl-project/sglang deepseek_v2.py forward_absorb_prepare/core: 13 on
///   SGLang on Hopper (BF16 BMMs, no copy), 11 on SGLang on Blackwell; docs/sglang-batch1-moe-decode.md §10–11).
/// - A shared expert the engine runs outside its routed runner (`shared_expert_kernels` k_se > 0, a
///   model with shared experts): `shared_expert_kernels_per_pass`.
/// - An FP8 block-scaled checkpoint (FP8 weights and FP8 activations, W8A8) on a model
///   with latent attention adds k_q kernels a layer (`fp8_attention_quant_kernels`):
///   K += k_q·L·[MLA ∧ W8A8 FP8 ∧ attention inputs not excluded]: each block-FP8 attention linear quantizes its activation per
///   1 × 128 token group in a kernel of its own before the GEMM (sgl-project/sglang fp8_utils.py
///   `aiter_w8a8_block_fp8_linear`: `aiter_per1x128_quant` + `gemm_a8w8_blockscale`, v0.5-era copy and @002ed7e),
///   and on ROCm each absorbed BMM casts and scales its per-tensor FP8 weight before a BF16 bmm
///   (deepseek_v2.py @3e4a39e `forward_absorb_prepare/core`, `_is_hip`: `w_kc.to(bfloat16) * w_scale`);
///   SGLang on CDNA3/CDNA4: 3 + 2·2 = 7, where the MXFP4-Preview checkpoint's BF16 attention runs
///   plain GEMMs and fused-quant MXFP4 BMMs (docs/sglang-fp8-activation-quant.md).
/// - A TP group that spans hosts (`tp_spans_hosts`), where the fused norm applies (the same predicate),
///   adds k_x kernels a layer back (`cross_host_norm_kernels`, ≤ 3): K += k_x·L: TensorRT-LLM 1.1's MNNVLAllReduce applies the residual add
///   and RMSNorm in a kernel of its own after each all-reduce (ops.py `mnnvl_twoshot_rmsnorm`; 2 a layer;
///   docs/trtllm-mnnvl-all-reduce.md).
/// None applies to a step the host enqueues without CUDA graphs (`eager_enqueue`): that is the
/// TensorRT-engine runtime, not the PyTorch modeling code these counts are read from, and its
/// `host_enqueue` figure was fitted with the generic count.
[[nodiscard]] constexpr double kernels_per_pass(const deployment& d, bool eager_step = false);

/// The generic count's kernels for a MoE layer's router and experts: router, top-k, permute, up/gate GEMM,
/// activation, down GEMM, un-permute (`kernels_per_pass(const model&)`).
inline constexpr double generic_routed_kernels = 7.0;

/// Kernels of a MoE layer's routed branch (router and routed experts) on this deployment: the engine's fused
/// runner's k_moe (`moe_runner_kernels` > 0) where it routes inside itself, i.e. without attention DP (the
/// tokens are routed before the dispatch there: fused_moe_trtllm_gen.py `forward_impl`), else the generic 7.
[[nodiscard]] constexpr double routed_branch_kernels(const deployment& d) {
    const bool attention_dp = d.attention_data_parallel();
    return d.engine.kernels.moe_runner_kernels > 0.0 && !attention_dp ? d.engine.kernels.moe_runner_kernels
                                                                       : generic_routed_kernels;
}

/// Kernels a shared expert adds to a pass where the engine runs it as a gated MLP of its own beside the
/// routed experts (k_se = `shared_expert_kernels`, M MoE layers, k_r the routed branch's kernels: the
/// fused runner's k_moe, or the generic 7 without it or under attention DP):
///   K_se = k_se·M on a step launched eagerly (`eager_step`: every kernel on one stream, every one launched
///          by the host; a prompt step of TensorRT-LLM's PyTorch backend), or where it shares the stream,
///   K_se = max(0, k_se − k_r)·M on a decode step where it runs on an auxiliary stream (`shared_expert_stream`:
///          the engine's decode steps replay CUDA graphs): two branches of the graph, the longer sets the step.
/// TensorRT-LLM: `Deepseekv3MoE.forward` runs `shared_experts` (a GatedMLP: gate-up GEMM, SwiGLU, down GEMM)
/// and the router + routed experts through `maybe_execute_in_parallel` on the MoeShared stream, which is
/// multi-stream only under `with_multi_stream(True)`, set by the CUDA-graph runner's capture (NVIDIA/TensorRT-LLM
/// tensorrt_llm/_torch/models/modeling_deepseekv3.py @000561df0bd751d793257102bbe59cb4a64b2fd5,
/// modules/multi_stream_utils.py @05b58881e64f2c21a3d2dbfcc52fc1b8b0051114; tech blog 1 Module 11 "overlaps
/// partially with Module10 and Module 12"; docs/shared-expert-kernels.md).
[[nodiscard]] constexpr double shared_expert_kernels_per_pass(const deployment& d, bool eager_step) {
    const model& m = d.m;
    const engine_kernels& k = d.engine.kernels;
    if (!(k.shared_expert_kernels > 0.0) || !m.is_moe() || m.ffn.shared_experts <= 0) return 0.0;
    const double routed = routed_branch_kernels(d);
    const double per_layer = !eager_step && k.shared_expert_stream
                                 ? (k.shared_expert_kernels > routed ? k.shared_expert_kernels - routed : 0.0)
                                 : k.shared_expert_kernels;
    return per_layer * m.moe_layers();
}

[[nodiscard]] constexpr double kernels_per_pass(const deployment& d, bool eager_step) {
    const model& m = d.m;
    const engine_profile& en = d.engine;
    const double generic = kernels_per_pass(m);
    if (en.overheads.eager_enqueue && !en.overheads.cuda_graphs) return generic;
    const bool attention_dp = d.attention_data_parallel();
    const bool norm_fused = en.kernels.all_reduce_norm_fusion && d.layout.tp > 1 && !attention_dp;
    const double fused_norms = norm_fused ? 3.0 * m.layer_equivalents() : 0.0;
    const double moe_runner = m.is_moe() ? (routed_branch_kernels(d) - generic_routed_kernels) * m.moe_layers() : 0.0;
    const double mla = en.kernels.mla_attention_kernels > 0.0 && m.attention.kind == attention_kind::latent
                           ? (en.kernels.mla_attention_kernels - 4.0) * m.layer_equivalents() : 0.0;
    const bool w8a8_fp8 = m.weights.compute == compute_class::fp8 && m.weights.element_bits == 8.0 &&
                          m.activations.compute == compute_class::fp8;
    // A checkpoint that keeps its attention inputs out of FP8 (`model::excluded`) quantizes no activation there.
    const double fp8_quant = m.attention.kind == attention_kind::latent && w8a8_fp8 && !m.excluded.attention_inputs
                                 ? en.kernels.fp8_attention_quant_kernels * m.layer_equivalents() : 0.0;
    const double shared_expert = shared_expert_kernels_per_pass(d, eager_step);
    // + k_x·L where the TP group spans hosts: the cross-host all-reduce's RMSNorm kernels (`cross_host_norm_kernels`)
    const double cross_host_norms = norm_fused && tp_spans_hosts(d) ? en.kernels.cross_host_norm_kernels * m.layer_equivalents() : 0.0;
    return generic - fused_norms + moe_runner + mla + fp8_quant + shared_expert + cross_host_norms;
}

}  // namespace detail

/// Idle fraction of a pipeline of pp stages fed m micro-batches: (pp − 1) ÷ (m + pp − 1)
/// (GPipe, Huang et al. 2019). A single request (m = 1) leaves each stage idle (pp − 1)/pp of the time.
[[nodiscard]] constexpr double pipeline_bubble_fraction(int stages, int micro_batches) {
    return static_cast<double>(stages - 1) / (micro_batches + stages - 1);
}

namespace detail {
/// A fitted all-reduce curve t = a + 2(n−1)/n · S ÷ B_bus as a link for the α–β formula (`all_reduce_time`):
/// α' = a ÷ (the algorithm's latency steps), β = B_bus. The one place each fitted curve below becomes a link.
[[nodiscard]] constexpr interconnect fitted_all_reduce_link(interconnect link, seconds_t a, bytes_per_second_t bus, int ranks,
                                                            all_reduce_algorithm algo) {
    link.latency = a / all_reduce_steps(ranks, algo);
    link.per_direction = bus;
    return link;
}
}  // namespace detail

/// The engine's collective-library all-reduce (NCCL/RCCL, `engine_collectives::library_all_reduce`)
/// as a link for the α–β formula: t = a + 2(n−1)/n · S ÷ B_bus is `all_reduce_time` over a link with
/// α' = a ÷ (the algorithm's latency steps) and β = B_bus (fitted to nccl-tests' curve, E68, B11).
[[nodiscard]] constexpr interconnect library_all_reduce_link(const engine_collectives& c, interconnect link, int ranks,
                                                             all_reduce_algorithm algo) {
    return detail::fitted_all_reduce_link(link, c.library_all_reduce, c.library_all_reduce_bus, ranks, algo);
}

/// The engine's quantized all-reduce (SGLang's QuickReduce INT4 on ROCm, `engine_collectives::quick_reduce`) as a
/// link for the α–β formula: t = a + 2(n−1)/n · S ÷ B_bus is `all_reduce_time` over a link with α' = a ÷ (the
/// algorithm's latency steps) and β = B_bus (fitted on an 8-GPU QuickReduce table, docs/cdna-all-reduce.md §7).
[[nodiscard]] constexpr interconnect quick_reduce_link(const engine_collectives& c, interconnect link, int ranks,
                                                       all_reduce_algorithm algo) {
    return detail::fitted_all_reduce_link(link, c.quick_reduce_all_reduce, c.quick_reduce_bus, ranks, algo);
}

/// The engine's custom all-reduce on its large messages (`engine_collectives::custom_all_reduce_large`; SGLang on
/// CDNA4: AITER's CustomAllreduce above 1.5 MiB) as a link for the α–β formula: t = a + 2(n−1)/n · S ÷ B_bus, α' = a ÷
/// (the algorithm's latency steps), β = B_bus (an 8-GPU table's eager AITER column carried to MI355X,
/// docs/cdna-all-reduce.md §9).
[[nodiscard]] constexpr interconnect custom_all_reduce_large_link(const engine_collectives& c, interconnect link, int ranks,
                                                                  all_reduce_algorithm algo) {
    return detail::fitted_all_reduce_link(link, c.custom_all_reduce_large, c.custom_all_reduce_large_bus, ranks, algo);
}

/// The engine's all-reduce where a TP group spans hosts (`engine_collectives::cross_host_all_reduce`;
/// TensorRT-LLM's MNNVLAllReduce across GB200 NVL72 trays) as a link for the α–β formula:
/// t = a + 2(n−1)/n · S ÷ B_bus, α' = a ÷ (the algorithm's latency steps), β = B_bus (fitted to a
/// measured curve on 8 GB200 over two trays, B99 in tables/microbenchmarks.csv; docs/trtllm-mnnvl-all-reduce.md).
[[nodiscard]] constexpr interconnect cross_host_all_reduce_link(const engine_collectives& c, interconnect link, int ranks,
                                                                all_reduce_algorithm algo) {
    return detail::fitted_all_reduce_link(link, c.cross_host_all_reduce, c.cross_host_all_reduce_bus, ranks, algo);
}


/// The engine's custom all-reduce kernel (`engine_collectives::all_reduce_latency`) as a link for the
/// α–β formula: t = t₀ + 2(n−1)/n · S ÷ B_custom, α' = t₀ ÷ (the algorithm's latency steps), β = B_custom
/// where it was measured (`custom_all_reduce_bus`; TensorRT-LLM's all-reduce on 8 B200, B90), else the
/// link's per-direction bandwidth.
[[nodiscard]] constexpr interconnect custom_all_reduce_link(const engine_collectives& c, interconnect link, int ranks,
                                                            all_reduce_algorithm algo) {
    link.latency = c.all_reduce_latency / detail::all_reduce_steps(ranks, algo);
    if (c.custom_all_reduce_bus.value() > 0.0) link.per_direction = c.custom_all_reduce_bus;
    return link;
}

/// What one engine step carries (per attention rank): sequences that each decode one token, and
/// sequences that each prefill `prefill_tokens` new tokens after `prefill_prefix` cached ones.
/// Continuous batching with chunked prefill mixes both in one pass (Orca, Sarathi-Serve).
struct step_shape {
    double decode_sequences = 0;
    tokens_t decode_context{};    ///< context each decoding sequence attends to
    double prefill_sequences = 0;
    tokens_t prefill_tokens{};    ///< new tokens per prefilling sequence
    tokens_t prefill_prefix{};    ///< tokens already cached before them (prefix-cache hit, S6; earlier chunks)

    [[nodiscard]] constexpr double tokens_in_step() const {
        return decode_sequences + prefill_sequences * prefill_tokens.value();
    }
};

/// Whether the model's routed experts' GEMMs are FP8 × FP8 (a property of the model): experts stored as
/// 8-bit floats and activations in the FP8 compute class, as a block-scaled FP8 checkpoint runs
/// (DeepSeek-R1's); where the engine has one, its FP8 expert multiplier applies (`engine_kernels::fp8_expert_gemm`,
/// B87). Not `expert_activations_quantized_to_fp8`, where the engine quantizes narrower experts' activations to FP8.
[[nodiscard]] constexpr bool experts_fp8_weights_and_activations(const model& m) {
    return m.is_moe() && m.expert_format().compute == compute_class::fp8 && m.expert_format().element_bits == 8.0 &&
           m.activations.compute == compute_class::fp8;
}

/// Whether the model's routed experts' GEMMs are FP4 × FP4 (W4A4, a property of the model): experts stored as
/// 4-bit floats and activations in the FP4 compute class, as an MXFP4 checkpoint quantizes both (AMD's
/// DeepSeek-R1 MXFP4, Quark's w_mxfp4_a_mxfp4); where the engine has one, its FP4 expert multiplier applies
/// (`engine_kernels::fp4_expert_gemm`). Not W4A16 (activations wider, the mixed-input kernel) nor W4A8
/// (`expert_activations_quantized_to_fp8`: the model's activations are wider than 8 bits).
[[nodiscard]] constexpr bool experts_fp4_weights_and_activations(const model& m) {
    return m.is_moe() && m.expert_format().compute == compute_class::fp4 && m.expert_format().element_bits == 4.0 &&
           m.activations.compute == compute_class::fp4;
}

/// Which expert multiplier of the engine a model's routed-expert GEMMs take (`engine_kernels::expert_curve_multiplier`).
[[nodiscard]] constexpr expert_operands expert_operands_of(const model& m) {
    if (experts_fp8_weights_and_activations(m)) return expert_operands::fp8;
    if (experts_fp4_weights_and_activations(m)) return expert_operands::fp4;
    return expert_operands::other;
}

/// Everything a pass costs that depends only on the deployment, worked out once. `step_pass(d, …)`
/// prepares one per call; a caller pricing many steps of one deployment (a sweep over batch and
/// context, a request's decode, a serving point's steps) prepares it once and passes it in: the
/// figures are the same to the last bit, since the same numbers go through the same operations.
/// Only `prepare_pass` makes one, and it refuses a deployment that breaks a rule: a pass model
/// that exists belongs to a valid deployment.
struct pass_model {
    deployment d;
    double tp = 1, pp = 1, ranks = 1;       ///< tensor, pipeline degree; attention ranks sharing a pass
    /// GPUs of the instance ÷ (pp · ranks): the GPU-seconds a second of one sequence's pass takes (each pipeline
    /// stage is busy 1/pp of a pass; a pass serves every attention rank), for `price_request`
    double instance_share = 1;
    detail::divisor tp_divisor{};           ///< tp as a divisor (`detail::divisor`: × 1 ÷ tp where exact)
    int pp_crossings = 0;                   ///< pipeline boundaries that leave a scale-up domain (`pipeline_crossings`)
    bool moe = false;                       ///< routed experts present
    double layers = 0, hidden = 0;          ///< as doubles, for the formulas
    model::layer_counts layer_kinds{};      ///< `model::count_layers`, counted once
    bytes_per_token_t kv_per_token_layer{}; ///< `kv_bytes_per_token_per_layer`, worked out once
    double top_k = 0, routed_experts = 0, moe_layers = 0;
    double lm_head = 0;                     ///< LM-head parameters (the embedding when tied)
    double non_expert_parameters = 0;       ///< matmul parameters per token outside the routed experts
    double expert_parameters = 0;           ///< parameters of one routed expert
    double dense_bytes_read = 0;            ///< non-expert, non-embedding weight bytes per TP rank
    /// The MLA down-projections each TP rank computes whole beyond its 1 ÷ tp share: D · (1 − 1 ÷ tp) parameters
    /// (`replicated_down_projection_bytes`); whether they are among the excluded modules (attention_in)
    double replicated_parameters = 0;
    bool replicated_excluded = false;
    /// A fused shared expert each EP rank runs whole beyond its 1 ÷ tp share: P_shared · x parameters
    /// (`replicated_shared_expert_share` x; 0: none), priced as one more expert of the fused runner
    double replicated_shared_parameters = 0;
    double expert_resident_bytes = 0;       ///< routed-expert bytes resident per GPU
    double kv_gpu_share = 1;                ///< this GPU's share of a sequence's KV bytes
    double activation_elements = 0;         ///< per token per layer per TP rank
    double residual_bits = 16;              ///< bits per hidden-state element (activations, TP and PP payloads)
    double pair_flops_decode = 0, pair_flops_prefill = 0;  ///< attention FLOPs per query-key pair
    double state_flops = 0;                 ///< recurrence FLOPs per token over the state-space layers
    flops_per_second_t peak{};              ///< the matmul peak for the activations' format
    flops_per_second_t attention_peak{};    ///< BF16 peak (fused attention)
    double attention_rate = 0;              ///< attention peak × its efficiency (FLOP/s); 0: no compute term
    bytes_per_second_t bandwidth{};         ///< sustained HBM bandwidth
    double dense_width = 0, expert_width = 0;  ///< GEMM output widths per rank
    double lm_head_width = 0;               ///< vocabulary per rank (the LM head's outputs)
    /// ∛(k·n) of each GEMM class (k = hidden, n its width), for the size curve (matmul_at_rows)
    double dense_cbrt_k_n = 0, lm_head_cbrt_k_n = 0, expert_cbrt_k_n = 0;
    /// Size curve of the dense GEMMs and the LM head: the hardware's, or the engine's own for the
    /// activations' format (`dense_gemm_curve`); the routed experts keep the hardware's.
    achievable_fractions dense_gemm{};
    /// Steps of at most this many tokens run the dense GEMMs (not the experts, not the LM head) as
    /// 16-bit GEMMs on a 16-bit copy of their weights (`engine_kernels::wide_dense_max_tokens`); 0: never.
    double wide_dense_max_tokens = 0;
    double wide_dense_peak = 0;             ///< FLOP/s of those 16-bit GEMMs: the BF16/FP16 peak × the engine's `gemm`
    double wide_dense_extra_bytes = 0;      ///< B per TP rank the 16-bit copy streams beyond the stored weights
    seconds_t overhead{};                   ///< kernels per pass × per-kernel overhead + the engine's step overhead
    /// t_pad: a padded expert runner's grid, every step through the all-to-all (`padded_moe_time_per_pass`); a
    /// forward's cost, not a launch's: an idle instance's poll (`plan::detail::prefill_ttft`) does not pay it
    seconds_t padded_moe{};
    seconds_t prefill_overhead{};           ///< kernels per pass × the host's time per kernel of an eager prompt step
    bool prefill_serial = false;            ///< that launch hides behind no step before it (overlap scheduler off)
    /// The host's time per request of such a serial prompt step (`engine_overheads::prefill_request`); 0 where the
    /// step is not serial (an overlap scheduler prepares step n + 1 while step n runs, hiding that work)
    seconds_t prefill_request{};
    /// B: the prompts a rank's serial prompt step may hold, where the caller knows it (the disaggregated prefill
    /// workers' `prefill_max_batch` per attention rank, `sim::prefill_admission::max_running`); ∞: not known.
    /// Caps the step's request count n_req = min(ps ÷ β, B) (`eager_prompt_wait`). A count, not a quantity: a whole
    /// number ≥ 1 (the setter copies the validated `max_running`) or ∞.
    double prefill_request_cap = std::numeric_limits<double>::infinity();
    seconds_t eager_overhead{};             ///< kernels per pass × the host's enqueue per kernel, every step (CUDA graphs off)
    /// The deployment runs vLLM's V0 loop: a steady-state step pays its share of a scheduler pass's host time,
    /// t_host ÷ S (`engine_overheads::v0_host_pass_per_step`, S the steps a pass schedules: 1 single-step) on top of
    /// the step; the simulator clears it and pays t_host at its own polls instead (every `receive_interval` steps).
    bool v0_every_step = false;
    interconnect tp_link{};
    all_reduce_algorithm tp_algorithm = all_reduce_algorithm::ring;
    double tp_all_reduces = 0;
    double tp_all_reduce_share = 0;         ///< 2(tp − 1)/tp (`all_reduce_share`), worked out once
    // The engine's figures (descriptors/engine.hpp), worked into rates once:
    double weight_bandwidth = 0;            ///< B/s the GEMMs stream weights at: B × kernels.weights
    double kv_bandwidth = 0;                ///< B/s attention streams KV at: B × kernels.attention_decode
    double elementwise_bandwidth = 0;       ///< B/s of element-wise kernels: B × kernels.elementwise
    double attention_rate_decode = 0;       ///< decode attention FLOP/s (MLA decode: × kernels.mla_decode)
    /// The step's prompt attention and decode attention are two kernels (`engine_kernels::separate_prompt_attention`)
    bool separate_prompt_attention = false;
    /// The prompt kernel's rate on the engine's curve e(s̄, W) (`engine_kernels::prompt_attention_at`, B95):
    /// an engine with the curve and a model of the class it was fitted on (standard attention, head_dim 128)
    bool prompt_attention_curve = false;
    double attention_layers = 0;            ///< layers with attention (full, windowed, chunked): s̄ = pairs ÷ (n · layers)
    double query_heads_per_rank = 0;        ///< query heads on a GPU: W = prompts · n · heads
    double grouped_gemm = 1;                ///< expert GEMM rate ÷ the size curve at rows per expert
    double expert_tile_rows = 0;            ///< rows an expert's GEMM is padded to; 0: the hardware's padding
    /// The most rows a dense FP8 projection's kernel covers M in (`engine_kernels::fp8_gemm_tile_rows`, read where the
    /// matmuls run FP8); 0: the hardware's padding
    double dense_fp8_tile_rows = 0;
    /// The measured GEMM table the engine loads (`deployment::gemm`), its time scale f_table ÷ f_run; nullptr: the
    /// size curve prices the projections (`gemm_table_efficiency`)
    const gemm_table* projection_table = nullptr;
    double projection_table_time_scale = 1;
    /// The ceiling of a mixed-input expert GEMM (weights narrower than the activations), a fraction of
    /// `peak` (`engine_kernels::mixed_input_expert_gemm`); 0: none, or experts in the activations' format
    double mixed_input_ceiling = 0;
    /// FLOP/s peak of the routed experts' GEMMs: `peak`, or the FP8 peak (× the engine's `gemm`)
    /// where the engine runs narrow experts with 8-bit activations (`expert_fp8_activations`)
    double expert_peak = 0;
    /// A checkpoint's excluded modules (`model::excluded`, BF16 attention of an FP4 checkpoint): their matmul
    /// parameters per token in the attention projections, whether the LM head is one, and the FLOP/s peak
    /// (their format's × the engine's `gemm`) and size curve they run at; 0 / false: none
    double excluded_attention = 0;
    bool excluded_lm_head = false;
    double excluded_peak = 0;
    achievable_fractions excluded_gemm{};
    interconnect custom_tp_link{};          ///< the TP link with the engine's custom all-reduce latency per step
    double custom_all_reduce_max = 0;       ///< B; 0: no custom all-reduce
    interconnect library_tp_link{};         ///< the collective library's fitted all-reduce as a link: α = a ÷ steps, β = B_bus
    double library_all_reduce_min = -1;     ///< B; the library's all-reduce above this size; < 0: none (the link model)
    interconnect quick_reduce_link{};       ///< the engine's quantized all-reduce as a link: α = a ÷ steps, β = B_bus
    double quick_reduce_min = -1;           ///< B; the quantized all-reduce from this size; < 0: none
    double quick_reduce_max = 0;            ///< B; … up to this size (`engine_collectives::quick_reduce_takes`)
    interconnect custom_large_link{};       ///< the custom kernel's large-message curve as a link: α = a ÷ steps, β = B_bus
    double custom_large_min = -1;           ///< B; that curve above this size, up to `custom_all_reduce_max`; < 0: none
    /// f_row where the build runs each row-parallel GEMM and its TP all-reduce as one kernel
    /// (`engine_kernels::gemm_all_reduce_fused`, `row_parallel_gemm_share`); 0: the all-reduce after the GEMM
    double fused_row_gemm_share = 0;
    bool busiest_rank = false;              ///< price the EP step at its busiest rank
    bool moe_gathers = false;               ///< the MoE all-gathers and reduce-scatters (`moe_gathers_tokens`)
    double routing_skew = 0;                ///< cv of the experts' token shares: the model's, or what the engine's EPLB leaves
    /// 1 ÷ β: the busiest attention rank's token-proportional work over the mean rank's, under
    /// attention data parallelism (`engine_moe::attention_dp_balance` β); 1: every rank alike.
    double attention_dp_busiest = 1;
    double ep_ranks = 1;                    ///< ranks of the expert-parallel group (G)
    double extreme_value_z = 0;             ///< √(2 ln G): the busiest of G ranks, in standard deviations
    detail::all_to_all_pass all_to_all{};   ///< the expert all-to-all's constants (`all_to_all_pass_of`)
    [[nodiscard]] constexpr double routing_experts_or_one() const { return routed_experts > 0 ? routed_experts : 1.0; }
};

/// The size curve dense GEMMs of format `c` run at under an engine: the hardware's e(n) = e∞ · n ÷
/// (n + n₀) (B04, B05), except where the engine has measured FP4 kernels of its own at serving shapes
/// (`engine_kernels::fp4_gemm_efficiency`, `fp4_gemm_half_dim`: e∞ and n₀ of the FP4 peak, B12), and
/// where its build quantizes the activations in a kernel of their own, the GEMM and that kernel
/// timed together (`fp4_quant_gemm_efficiency`, `fp4_quant_gemm_half_dim`, B19); and where it runs
/// FP8 GEMMs of its own (`fp8_gemm_efficiency`, `fp8_gemm_half_dim`: e∞ of the datasheet FP8 peak and n₀),
/// and BF16 / FP16 GEMMs measured at serving shapes (`bf16_gemm_efficiency`, `bf16_gemm_half_dim`, B75–B76):
/// 16-bit weights only (`wide_weights`), since weight-only quantized layers (INT4 / FP8 weights, BF16
/// activations) run mixed-input kernels, not cuBLAS's BF16 × BF16 GEMM, and keep the hardware's curve.
[[nodiscard]] constexpr achievable_fractions dense_gemm_curve(const achievable_fractions& hw, const engine_kernels& k,
                                                              compute_class c, bool wide_weights = true) {
    achievable_fractions curve = hw;
    if (c == compute_class::fp4 && k.own_fp4_curve()) {
        const bool quant = k.unfused_fp4_quantization();
        curve.matmul = (quant ? k.fp4_quant_gemm_efficiency : k.fp4_gemm_efficiency) / k.gemm;  // of the datasheet peak
        curve.matmul_half_dim = quant ? k.fp4_quant_gemm_half_dim : k.fp4_gemm_half_dim;
    } else if (c == compute_class::fp8 && k.own_fp8_curve()) {
        // e(n) = e∞ · n ÷ (n + n₀) of the datasheet FP8 peak, fitted to the engine's own kernels (AITER's
        // block-scaled FP8 GEMMs, B62–B63); the caller's peak carries `gemm`, so e∞ ÷ gemm here.
        curve.matmul = k.fp8_gemm_efficiency / k.gemm;
        curve.matmul_half_dim = k.fp8_gemm_half_dim;
    } else if (c == compute_class::bf16 && wide_weights && k.own_bf16_curve()) {
        // e(n) = e∞ · n ÷ (n + n₀) of the datasheet BF16 peak, fitted to the engine's measured BF16
        // linear layers at dense models' shapes (aiconfigurator's TensorRT-LLM GEMM table on H100, B75–B76).
        curve.matmul = k.bf16_gemm_efficiency / k.gemm;
        curve.matmul_half_dim = k.bf16_gemm_half_dim;
    }
    return curve;
}

/// The dense projections' fraction of the peak P under a measured GEMM table (`deployment::gemm`, the table the
/// harness loads): e(t) = 2 · t · Σ k·n ÷ (P · T(t) · f_table ÷ f_run), T(t) one layer's four projections at t
/// tokens at the table's clock (`gemm_table::layer_seconds`: its rules for gaps and beyond its ends), scaled to
/// the run's clock as `achievable_fractions::at_clock` scales a fraction; ≤ 0 below the table's smallest size,
/// where the caller keeps its size curve (docs/amd-hipblaslt-tables.md).
[[nodiscard]] constexpr double gemm_table_efficiency(const gemm_table& g, double t, flops_per_second_t peak,
                                                     double time_scale) {
    const double layer = g.layer_seconds(t);
    if (!(layer > 0.0)) return -1.0;
    return g.flops_per_token_layer() * t / (peak.value() * layer * time_scale);
}

/// Rows a dense FP8 GEMM kernel computes for m tokens under the engine's tile rows T
/// (`engine_kernels::fp8_gemm_tile_rows`; the rule is `achievable_fractions::padded_rows(m, T)`, T = 0 the hardware's).
[[nodiscard]] constexpr double fp8_gemm_padded_rows(double m, double T) { return achievable_fractions::padded_rows(m, T); }

/// c, the coefficient of variation of the experts' token shares the busiest-rank factor reads (`ep_imbalance`): 0 under
/// uniform routing (`expert_routing::uniform`: every expert's share is 1/E, so a rank's count of the N = T·k picks is
/// Binomial(N, 1/G), σ²/μ² = (1 − 1/G)·G ÷ N, `ep_imbalance`'s sampling term alone); else what the engine's EPLB
/// leaves where it balances (blog4 Table 1: the hottest rank 2.56× the mean without, 1.11× with), else the model's.
/// The picks are read as independent: SGLang's grouped top-k (a token's k picks within its top groups, one group a
/// rank at EP8) clusters them, which neither branch prices (docs/mi355x-prefill.md §8.3).
[[nodiscard]] constexpr double routing_cv(const model& m, const engine_profile& en) noexcept {
    if (en.moe.routing == expert_routing::uniform) return 0.0;  // c = 0: p_e = 1/E for every expert e
    return en.moe.load_balancing ? en.moe.routing_skew : m.ffn.routing_skew;
}

/// The deployment's constants for pricing passes. Refuses a deployment that breaks a rule
/// (`deployment::validate`, which also asks that the GPU can run the model's matmuls).
[[nodiscard]] constexpr pass_model prepare_pass(const deployment& d) {
    d.validate();
    const model& m = d.m;
    const accelerator& g = d.hw.gpu;
    pass_model pm{.d = d};
    pm.tp = d.layout.tp;
    pm.tp_divisor = detail::divisor(pm.tp);
    pm.pp = d.layout.pp;
    pm.ranks = d.attention_ranks();
    pm.instance_share = static_cast<double>(d.instance_gpus()) / (pm.pp * pm.ranks);  // GPUs ÷ (pp · ranks)
    pm.pp_crossings = d.layout.pp > 1 ? pipeline_crossings(d) : 0;  // once, not in every step's formula
    pm.moe = m.is_moe();
    pm.layers = m.layer_equivalents();
    pm.layer_kinds = m.count_layers();
    pm.kv_per_token_layer = kv_bytes_per_token_per_layer(m);
    pm.hidden = m.hidden;
    pm.top_k = m.ffn.top_k;
    pm.routed_experts = m.ffn.routed_experts;
    pm.moe_layers = m.moe_layers();
    const parameter_breakdown b = parameters(m);
    pm.lm_head = static_cast<double>(b.lm_head > 0 ? b.lm_head : b.embedding);  // tied: the embedding
    pm.non_expert_parameters = detail::non_expert_matmul_parameters(m);
    pm.expert_parameters = m.is_moe() ? static_cast<double>(expert_parameters(m)) : 0.0;
    // The embedding lookup reads a few rows; a tied table is streamed whole by the LM head. A checkpoint's
    // excluded modules are read in their own format: mixed_format_bytes(P_read, X_read) ÷ tp.
    const excluded_parameters_split excluded = excluded_parameters(m);
    const count_t read = b.total() - b.routed_experts - (b.lm_head > 0 ? b.embedding : 0);
    pm.dense_bytes_read = mixed_format_bytes(m, read, excluded.read(b.lm_head == 0)).value() / pm.tp;
    // The replicated MLA down-projections: + D_bytes · (1 − 1 ÷ tp) read and 2 · t · D · (1 − 1 ÷ tp) FLOPs a step.
    const double replicated_share = 1.0 - 1.0 / pm.tp;
    pm.dense_bytes_read += replicated_down_projection_bytes(m).value() * replicated_share;
    pm.replicated_parameters =
        static_cast<double>(attention_down_parameters_per_layer(m)) * pm.layer_kinds.attention() * replicated_share;
    pm.replicated_excluded = m.excluded.attention_inputs;
    // A fused shared expert replicated on every EP rank (`replicated_shared_expert_share` x): + S_bytes · x read a
    // step (`shared_expert_weight_bytes`), + 2 · t · P_shared · x FLOPs (`step_formula`).
    if (const double x = replicated_shared_expert_share(d); x > 0.0) {
        pm.dense_bytes_read += shared_expert_weight_bytes(m).value() * x;
        pm.replicated_shared_parameters = static_cast<double>(b.shared_experts) * x;
    }
    // SGLang's absorbed MLA decode multiplies by kv_b's BF16 copies w_kc, w_vc (made at load,
    // `absorbed_kv_b_copy_bytes_per_gpu`), not by kv_b: one of the two is read a step, the copies, + C · pp − K ÷ tp
    // (C the copies per GPU, K = `kv_b_weight_bytes`; torch.bmm(q_nope, w_kc) in forward_absorb_prepare and
    // torch.bmm(attn_output, w_vc) in forward_absorb_core, sgl-project/sglang @3e4a39ee73308590c5c753108bdcb8d333f7f1c6
    // python/sglang/srt/models/deepseek_v2.py; a prompt step on the MHA path, forward_normal, reads kv_b instead:
    // priced as decode, where weight reads bind). DeepSeek-V3 FP8 TP8: 255.9 − 127.9 = + 127.9 MB a step a rank.
    if (const bytes_t copies = absorbed_kv_b_copy_bytes_per_gpu(d); copies.value() > 0.0)
        pm.dense_bytes_read += copies.value() * pm.pp - kv_b_weight_bytes(m).value() / pm.tp;
    // The router kept whole (`keeps_router_whole`, the profile's router_whole_bf16): every rank runs the whole
    // BF16 gate GEMM, G · 2 B read a step where the shard above reads G · b_w ÷ (8 · tp): + the extra bytes of a GPU of
    // each stage, `whole_router_extra_bytes_per_gpu` · pp (DeepSeek-V3 FP8 TP8: 212.9 − 13.3 = + 199.6 MB a step a rank;
    // research Q, session 51). Its FLOPs stay the shard's (2 · t · G ÷ tp; the whole GEMM's ≈ 0.5% of a prompt step's).
    pm.dense_bytes_read += whole_router_extra_bytes_per_gpu(d).value() * pm.pp;
    pm.expert_resident_bytes = m.is_moe() ? expert_weight_bytes_per_gpu(d).value() : 0.0;
    pm.kv_gpu_share = kv_bytes_per_token_per_gpu(d).value() / kv_bytes_per_token(m).value();
    pm.activation_elements = detail::activation_elements_per_token_layer(m, pm.tp);
    pm.residual_bits = m.residual_format().bits_per_element();
    pm.pair_flops_decode = detail::attention_flops_per_pair(m, true);
    pm.pair_flops_prefill = detail::attention_flops_per_pair(m, false);
    pm.state_flops = detail::state_flops_per_token(m);
    pm.peak = g.peak(m.activations.compute);  // > 0: deployment::validate
    pm.attention_peak = g.peak(compute_class::bf16).value() > 0 ? g.peak(compute_class::bf16) : pm.peak;
    const engine_profile& en = d.engine;
    pm.peak = pm.peak * en.kernels.gemm;
    pm.dense_gemm = dense_gemm_curve(g.efficiency, en.kernels, m.activations.compute, m.weights.bits_per_element() >= 16.0);
    // The 256-row M units are the per-tensor FP8 kernel's (scaled_mm_sm90_fp8_dispatch.cuh); a block-scaled FP8
    // checkpoint runs vLLM's blockwise kernel (scaled_mm_blockwise_sm90_fp8_dispatch.cuh: 128-row M tile, 1 × 2 × 1
    // cluster along N), which keeps the hardware's padding here. Block scaling is read as the kernel count reads it:
    // latent attention ∧ W8A8 FP8 (DeepSeek-V3/R1's checkpoints; `fp8_attention_quant_kernels`).
    const bool block_scaled_fp8 = m.attention.kind == attention_kind::latent && m.weights.compute == compute_class::fp8 &&
                                  m.weights.element_bits == 8.0 && m.activations.compute == compute_class::fp8;
    pm.dense_fp8_tile_rows =
        m.activations.compute == compute_class::fp8 && !block_scaled_fp8 ? en.kernels.fp8_gemm_tile_rows : 0.0;
    pm.projection_table = d.gemm.table;  // its fit to the model: deployment::validate (`gemm_table::check_fits`)
    pm.projection_table_time_scale = d.gemm.time_scale();
    // The excluded modules' GEMMs: F_excl ÷ (P_excl · gemm · e_excl(n)), their format's peak and the engine's curve
    // for it (BF16 weights and activations: cuBLAS's / hipBLASLt's BF16 GEMM, `dense_gemm_curve`).
    if (m.excluded.any()) {
        pm.excluded_attention = static_cast<double>(excluded.attention);
        pm.excluded_lm_head = excluded.lm_head > 0.0 || (b.lm_head == 0 && excluded.embedding > 0.0);
        pm.excluded_peak = g.peak(m.excluded.format.compute).value() * en.kernels.gemm;  // > 0: deployment::validate
        pm.excluded_gemm = dense_gemm_curve(g.efficiency, en.kernels, m.excluded.format.compute,
                                            m.excluded.format.bits_per_element() >= 16.0);
    }
    // AMD's FP16 path for small FP8 inputs (use-fp16-gemm-for-small-fp8-inputs-for-moe.patch): a step of
    // t ≤ T tokens runs each dense linear layer as tgemm.mm(x, weight_fp16), a 16-bit GEMM on a 16-bit
    // copy of the weights: rate P₁₆ · gemm · e(n) on the hardware's curve, bytes P_dense · 16 ÷ 8 instead of
    // P_dense · b_w ÷ 8, i.e. + P_dense · (16 − b_w) ÷ 8 per TP rank (P_dense: dense matmul parameters, not the LM head).
    const double weight_bits = m.weights.bits_per_element();
    if (en.kernels.wide_dense_max_tokens > 0.0 && weight_bits < 16.0 && g.peak(compute_class::bf16).value() > 0.0) {
        pm.wide_dense_max_tokens = en.kernels.wide_dense_max_tokens;
        pm.wide_dense_peak = g.peak(compute_class::bf16).value() * en.kernels.gemm;
        pm.wide_dense_extra_bytes = ((pm.non_expert_parameters - pm.lm_head - pm.excluded_attention) / pm.tp +
                                     (pm.replicated_excluded ? 0.0 : pm.replicated_parameters)) * (16.0 - weight_bits) / 8.0;
    }
    // Attention rate R = peak × hardware fraction × engine prefill multiplier (× the FP8 one with an 8-bit KV cache).
    const double fp8_kv = m.kv_cache.bits_per_element() <= 8.0 ? en.kernels.attention_fp8 : 1.0;
    pm.attention_rate = pm.attention_peak.value() > 0
        ? (pm.attention_peak * g.efficiency.attention).value() * en.kernels.attention_prefill * fp8_kv : 0.0;
    pm.attention_rate_decode =
        m.attention.kind == attention_kind::latent ? pm.attention_rate * en.kernels.mla_decode : pm.attention_rate;
    pm.bandwidth = g.sustained_hbm_bandwidth();
    pm.weight_bandwidth = pm.bandwidth.value() * en.kernels.weights;
    pm.kv_bandwidth = pm.bandwidth.value() * en.kernels.attention_decode;
    pm.separate_prompt_attention = en.kernels.separate_prompt_attention;
    // The curve's class as fitted (B95): standard attention of head_dim 128 over every key (no windowed or
    // chunked layers, whose s̄ differs by layer), FP8 FMHA over an FP8 KV cache; anything else keeps the one rate.
    pm.prompt_attention_curve = en.kernels.separate_prompt_attention && en.kernels.own_prompt_attention_curve() &&
                                m.attention.kind == attention_kind::standard && m.attention.head_dim == 128 &&
                                m.kv_cache.bits_per_element() <= 8.0 && pm.layer_kinds.window == 0 &&
                                pm.layer_kinds.chunked == 0 && pm.attention_peak.value() > 0.0 &&
                                pm.layer_kinds.attention() > 0;
    pm.attention_layers = pm.layer_kinds.attention();
    pm.query_heads_per_rank = m.attention.query_heads / pm.tp;
    pm.elementwise_bandwidth = pm.bandwidth.value() * en.kernels.elementwise;
    // r_expert = peak · e(m) · grouped_gemm · g8 (or · g4): FP8 × FP8 (FP4 × FP4) expert GEMMs at the engine's
    // own fraction of the size curve where it has one (`engine_kernels::fp8_expert_gemm`: SGLang on Blackwell's
    // TRTLLM-Gen FP8 block-scale MoE, B87; AITER's FP8 fused MoE; `fp4_expert_gemm`: AITER's MXFP4 fused MoE).
    pm.grouped_gemm = en.kernels.expert_curve_multiplier(expert_operands_of(m));
    pm.expert_tile_rows = en.kernels.expert_tile_rows;
    pm.dense_width = (m.ffn.intermediate > 0 ? m.ffn.intermediate : m.hidden) / pm.tp;
    const double inside_expert = d.expert_parallel() ? static_cast<double>(d.layout.tp * d.layout.dp) / d.layout.ep : pm.tp;
    pm.expert_width = m.is_moe() ? m.ffn.expert_intermediate / inside_expert : 0.0;
    pm.lm_head_width = pm.lm_head / m.hidden / pm.tp;
    pm.dense_cbrt_k_n = detail::const_cbrt(m.hidden * pm.dense_width);
    pm.lm_head_cbrt_k_n = detail::const_cbrt(m.hidden * pm.lm_head_width);
    pm.expert_cbrt_k_n = detail::const_cbrt(m.hidden * pm.expert_width);
    // Experts stored narrower than the activations they multiply (W4A16: MXFP4 experts, BF16 GEMMs)
    // run a mixed-input kernel that dequantizes in its main loop, at most c of the peak (B39), on
    // matrices padded to its multiples: h' = ⌈h ÷ A_h⌉·A_h, w' = ⌈w ÷ A_w⌉·A_w, FLOPs and weight bytes
    // × h'·w' ÷ (h·w) (vLLM's Marlin MoE, mxfp4.py create_weights).
    pm.expert_peak = pm.peak.value();
    // W4A8: experts narrower than 8 bits, activations wider, quantized to 8 bits before the expert GEMMs
    // (TensorRT-LLM on Blackwell, W4A8_MXFP4_MXFP8): r_peak = P_fp8 · gemm, a block-scaled MMA with no
    // mixed-input loop (NVIDIA/TensorRT-LLM examples/models/core/gpt_oss/README.md: activations mxfp8
    // on Blackwell; PTX tcgen05.mma kind::f8f6f4 takes e2m1 operands at the 8-bit instruction shape).
    const bool w4a8 = expert_activations_quantized_to_fp8(d);
    if (w4a8) pm.expert_peak = g.peak(compute_class::fp8).value() * en.kernels.gemm;
    if (!w4a8 && m.is_moe() && m.expert_format().bits_per_element() < m.activations.bits_per_element()) {
        pm.mixed_input_ceiling = en.kernels.mixed_input_expert_gemm;
        auto padded = [](double x, double a) { return a > 0.0 ? detail::const_ceil(x / a) * a : x; };
        const double h = padded(m.hidden, en.kernels.mixed_input_hidden_align);
        const double w = padded(pm.expert_width, en.kernels.mixed_input_width_align);
        if (h != m.hidden || w != pm.expert_width) {
            const double pad = h * w / (m.hidden * pm.expert_width);
            pm.expert_parameters *= pad;
            pm.expert_resident_bytes *= pad;
            pm.expert_cbrt_k_n = detail::const_cbrt(h * w);
        }
    }
    // t_overhead = kernels · (t_kernel + t_launch) + t_step: the hardware's per-kernel cost, the
    // engine's launch cost (CUDA graphs on or off) and its host work per step.
    const double kernels = detail::kernels_per_pass(d);
    pm.overhead = (g.efficiency.kernel_overhead + en.overheads.launch()) * kernels + en.overheads.step;
    // t_pad = L_moe · c · N_blk: the expert runner's grid over the all-to-all's whole padded receive buffer, a fixed
    // time every step through that path pays, decode and prompt alike (`padded_moe_time_per_pass`; 0 elsewhere); its
    // own term of the step (`step_terms::padded_moe`), added to the launches where the step's time is summed.
    pm.padded_moe = padded_moe_time_per_pass(d);
    // H = kernels · t_host: the host's time to launch a prompt step eagerly, where the engine's graphs
    // capture decode batches only (SGLang: DeepSeek-V3's one-token prompt step 82.64 ms eager, 23.10 ms
    // as a graph; sgl-project/sglang PR 12160). With graphs off every step pays `launch_eager` instead.
    // The run's statement where it makes one (`prompt_launch_mode`): eagerly with or without an overlap
    // scheduler, or not priced; else the profile's rule (graphs on: prompt steps eager, overlapped).
    const prompt_launch_mode prompt = en.overheads.prompt_launch;
    const bool eager_prompt =
        prompt == prompt_launch_mode::engine ? en.overheads.cuda_graphs : prompt != prompt_launch_mode::none;
    // An eager step launches every kernel on the host, a shared expert's too (`shared_expert_kernels_per_pass`).
    pm.prefill_overhead = eager_prompt ? en.overheads.prefill_launch * detail::kernels_per_pass(d, true) : seconds(0.0);
    pm.prefill_serial = prompt == prompt_launch_mode::serial;
    // t_req: the serial loop's host work per request (request setup, KV blocks, the response) between forwards; only
    // a serial prompt step pays it (`eager_prompt_wait`).
    pm.prefill_request = pm.prefill_serial ? en.overheads.prefill_request : seconds(0.0);
    // H = kernels · t_enqueue: with graphs off and no overlap scheduler every step is enqueued by the
    // host while its kernels run, so it lasts max(t_GPU, H) (TensorRT-LLM's C++ executor on a TensorRT
    // engine, vLLM with enforce_eager; `engine_overheads::host_enqueue`).
    // vLLM V0's scheduler pass on the host, serial with the GPU (`engine_overheads::v0_host_pass`): a steady state's
    // every step is a pass.
    pm.v0_every_step = en.overheads.v0_loop;
    pm.eager_overhead = en.overheads.eager_enqueue && !en.overheads.cuda_graphs
                            ? en.overheads.host_enqueue * kernels
                            : seconds(0.0);
    pm.tp_link = detail::tp_link(d);
    pm.tp_algorithm = detail::tp_algorithm(d);
    pm.tp_all_reduces = static_cast<double>(tp_all_reduces_per_pass(d));
    pm.tp_all_reduce_share = detail::all_reduce_share(d.layout.tp);
    // A custom all-reduce (one-shot in the scale-up domain): its small-message latency spread over
    // the algorithm's latency steps, α' = t_custom ÷ steps, and its measured bus bandwidth or the
    // link's (`custom_all_reduce_link`).
    // An engine instance over more GPUs than a host holds runs the engine's cross-host all-reduce
    // (`tp_spans_hosts`): t = a + 2(n−1)/n · S ÷ B_bus (`cross_host_all_reduce_link`) up to its largest
    // message (`cross_host_all_reduce_max`), the collective library's fitted all-reduce above it (the
    // library_tp_link machinery below, bound at that size), none of the in-host custom-kernel rules.
    const bool spans_hosts = detail::tp_spans_hosts(d);
    if (spans_hosts) {
        const double bound = en.collectives.cross_host_all_reduce_max.value();
        if (bound > 0.0) {  // above the bound: the library's fit, else the link model
            pm.library_tp_link = en.collectives.library_all_reduce.value() > 0.0
                                     ? library_all_reduce_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm)
                                     : pm.tp_link;
            pm.library_all_reduce_min = bound;
        }
        pm.tp_link = cross_host_all_reduce_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm);
    }
    if (!spans_hosts && en.collectives.all_reduce_latency.value() > 0.0 && d.layout.tp > 1 && d.layout.tp <= d.hw.scale_up_domain) {
        pm.custom_tp_link = custom_all_reduce_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm);
        pm.custom_all_reduce_max = en.collectives.custom_all_reduce_max_at(d.layout.tp).value();
        // Its large messages on their own measured curve where the profile has one (custom_all_reduce_large_min < S
        // ≤ custom_all_reduce_max; SGLang on CDNA4: AITER's kernel above 1.5 MiB, docs/cdna-all-reduce.md §9).
        if (en.collectives.custom_all_reduce_large.value() > 0.0) {
            pm.custom_large_link = custom_all_reduce_large_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm);
            pm.custom_large_min = en.collectives.custom_all_reduce_large_min.value();
        }
    }
    // The collective library's all-reduce (NCCL) above the custom kernel's largest message, fitted
    // to a measured curve: t = a + 2(n−1)/n · S ÷ B_bus (`library_all_reduce_link`).
    if (!spans_hosts && en.collectives.library_all_reduce.value() > 0.0 && d.layout.tp > 1 && d.layout.tp <= d.hw.scale_up_domain) {
        pm.library_tp_link = library_all_reduce_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm);
        pm.library_all_reduce_min = en.collectives.custom_all_reduce_max_at(d.layout.tp).value();
    }
    // The run's quantized all-reduce (QuickReduce) for quick_reduce_min ≤ S ≤ quick_reduce_max where the run turned it
    // on, on one host: SGLang's GroupCoordinator tries its custom kernel first (below the custom cap, which stays),
    // then QuickReduce, then RCCL (parallel_state.py; quick_all_reduce.py should_quick_allreduce).
    if (!spans_hosts && en.collectives.quick_reduce && !quick_reduce_inert_at(d.layout.tp) &&
        d.layout.tp <= d.hw.scale_up_domain) {
        pm.quick_reduce_link = quick_reduce_link(en.collectives, pm.tp_link, d.layout.tp, pm.tp_algorithm);
        pm.quick_reduce_min = en.collectives.quick_reduce_min.value();
        pm.quick_reduce_max = en.collectives.quick_reduce_max.value();
    }
    if (!spans_hosts && en.kernels.gemm_all_reduce_fused && d.layout.tp > 1 && d.layout.tp <= d.hw.scale_up_domain)
        pm.fused_row_gemm_share = detail::row_parallel_gemm_share(m);
    pm.busiest_rank = en.moe.busiest_rank && d.expert_parallel();
    pm.moe_gathers = moe_gathers_tokens(d);
    pm.all_to_all = detail::all_to_all_pass_of(d);
    pm.routing_skew = routing_cv(m, en);  // the model's, the balancer's, or 0 under uniform routing
    // Attention DP: the EP group's ranks step together, so each waits for the one with the most tokens.
    if (d.attention_data_parallel() && en.moe.attention_dp_balance > 0.0)
        pm.attention_dp_busiest = 1.0 / en.moe.attention_dp_balance;
    pm.ep_ranks = d.layout.ep;
    pm.extreme_value_z = d.layout.ep > 1 ? detail::const_sqrt(2.0 * detail::const_log(static_cast<double>(d.layout.ep))) : 0.0;
    return pm;
}

/// Whether `pm`'s engine runs some prompt steps of its model as absorbed MLA: a latent-attention model on an engine
/// with a threshold (`engine_kernels::mla_absorbed_prefix_below` > 0).
[[nodiscard]] constexpr bool has_absorbed_prompt_steps(const pass_model& pm) {
    return pm.d.m.attention.kind == attention_kind::latent && pm.d.engine.kernels.mla_absorbed_prefix_below.value() > 0.0;
}

/// The pass model of a prompt step that runs absorbed MLA (`engine_kernels::absorbed_mla_prompt_step`, SGLang v0.5.6
/// deepseek_v2.py l.320–367 @7ae368efd): f_p = 2·H·(r + d_rope) + 2·H·r a query-key pair, the absorbed form
/// (`attention_flops_per_pair`, DeepSeek-V2 §2.1.3), in place of the MHA form 2·H·(d_nope + d_rope) + 2·H·d_v, for
/// every prompt token of the step, at the prompt rate R_p (`pass_model::attention_rate`). The rate is an ASSUMPTION:
/// no source gives FlashInfer's MLA paged-prefill throughput on Hopper, so the MHA prompt kernels' is read
/// (docs/sglang-closed-loop-ttft.md §8). A pass model without absorbed prompt steps (`has_absorbed_prompt_steps`) is
/// returned as it is.
[[nodiscard]] constexpr pass_model absorbed_prompt_attention(pass_model pm) {
    if (has_absorbed_prompt_steps(pm)) pm.pair_flops_prefill = detail::attention_flops_per_pair(pm.d.m, true);
    return pm;
}

/// Whether prompts that already hold Σ p = `prefix_total` tokens in the KV cache (SGLang's Σ extend_prefix_lens: a split
/// prompt's earlier chunks or a prefix-cache hit) run absorbed MLA on `pm`'s engine: 0 < Σ p < P
/// (`engine_kernels::absorbed_mla_prompt_step`; SGLang v0.5.6 deepseek_v2.py l.320–367, l.1362 @7ae368efd). The one
/// test every pricing path reads, the simulator's steps and `step_pass` alike.
[[nodiscard]] constexpr bool absorbs_prompt_prefix(const pass_model& pm, const tokens_t& prefix_total) {
    return has_absorbed_prompt_steps(pm) && pm.d.engine.kernels.absorbed_mla_prompt_step(prefix_total);
}

namespace detail {

/// What a step's sequences bring, per sequence and for the whole model (this GPU's share is
/// taken inside the step formula): the tokens of a prompt chunk, the query-key pairs of a
/// decoding and of a prefilling sequence, and the KV bytes each reads (one value, or a lane).
/// The TP all-reduce with the engine's collective library where the message is above its bound
/// (`pass_model::library_all_reduce_min`); out of line, so the step's common path stays as it was.
template <class V>
[[nodiscard, gnu::noinline]] constexpr V library_all_reduce_override(const pass_model& pm, const V& hidden_state, const V& link_model) {
    using L = lanes<V>;
    return L::choose(hidden_state > pm.library_all_reduce_min,
                     V(all_reduce_seconds(hidden_state, pm.d.layout.tp, pm.library_tp_link, pm.tp_algorithm,
                                          pm.tp_all_reduce_share) * pm.tp_all_reduces),
                     link_model);
}

/// Whether a message-size band's floor takes a message of exactly that size. QuickReduce's does
/// (quick_all_reduce.py should_quick_allreduce: `_QR_MIN_SIZE ≤ size`, `engine_collectives::quick_reduce_takes`); the
/// custom kernel's large-message curve does not: it starts above the small-message model's largest checked message
/// (S > 1,536 KiB, B97's; docs/cdna-all-reduce.md §9). Both bands take their ceiling (`≤ qr_max_size`, `inp_size <= max_size`).
enum class band_floor : bool { exclusive, inclusive };

/// The TP all-reduce on `link` where the message S is in its band, lo < S ≤ hi (lo ≤ S ≤ hi with an inclusive
/// floor), else `other`: the run's quantized all-reduce (`pass_model::quick_reduce_*`) and the custom kernel's
/// large-message curve (`pass_model::custom_large_min` to `custom_all_reduce_max`); out of line, as the library's.
template <class V>
[[nodiscard, gnu::noinline]] constexpr V band_all_reduce_override(const pass_model& pm, const V& hidden_state, const V& other,
                                                                  const interconnect& link, double lo, band_floor floor_kind, double hi) {
    using L = lanes<V>;
    const V in_band =
        V(all_reduce_seconds(hidden_state, pm.d.layout.tp, link, pm.tp_algorithm, pm.tp_all_reduce_share) * pm.tp_all_reduces);
    const V below_ceiling = L::choose(hidden_state <= hi, in_band, other);
    return floor_kind == band_floor::inclusive ? L::choose(hidden_state >= lo, below_ceiling, other)
                                               : L::choose(hidden_state > lo, below_ceiling, other);
}

template <class V>
struct sequence_terms {
    V prefill_tokens;  ///< n: new tokens per prefilling sequence
    V pairs_decode;    ///< attention_pairs(m, c, 1): one query at context c
    V pairs_prefill;   ///< attention_pairs(m, p, n): n queries after p cached tokens
    V kv_decode;       ///< KV bytes of a context of c tokens
    V kv_prefill;      ///< KV bytes of p + n tokens (read, and the new ones written)
};

/// The decoding sequences' half of the sequence terms (one query at context c); the prefill half 0.
[[nodiscard]] constexpr sequence_terms<double> decode_sequence_terms(const pass_model& pm, double c) {
    return {.prefill_tokens = 0.0,
            .pairs_decode = attention_pairs(pm.d.m, pm.layer_kinds, c, 1.0),
            .pairs_prefill = 0.0,
            .kv_decode = kv_bytes_for_context(pm.d.m, pm.layer_kinds, pm.kv_per_token_layer, tokens(c)).value(),
            .kv_prefill = 0.0};
}

/// The sequence terms of a step shape.
[[nodiscard]] constexpr sequence_terms<double> sequence_terms_of(const pass_model& pm, const step_shape& s) {
    const double n = s.prefill_tokens.value(), p = s.prefill_prefix.value();
    sequence_terms<double> t = decode_sequence_terms(pm, s.decode_context.value());
    t.prefill_tokens = n;
    t.pairs_prefill = attention_pairs(pm.d.m, pm.layer_kinds, p, n);
    t.kv_prefill = kv_bytes_for_context(pm.d.m, pm.layer_kinds, pm.kv_per_token_layer, tokens(p + n)).value();
    return t;
}

/// Lane i of a lane's sequence terms (one value: the terms themselves).
template <class V>
[[nodiscard]] constexpr sequence_terms<double> lane_of(const sequence_terms<V>& s, int i) {
    using L = lanes<V>;
    return {.prefill_tokens = L::get(s.prefill_tokens, i), .pairs_decode = L::get(s.pairs_decode, i),
            .pairs_prefill = L::get(s.pairs_prefill, i), .kv_decode = L::get(s.kv_decode, i),
            .kv_prefill = L::get(s.kv_prefill, i)};
}

/// A step's work and the time of each kernel class, in SI (FLOPs, bytes, seconds), for one step
/// or a lane of steps. `pass_cost` is its typed face.
template <class V>
struct step_terms {
    V tokens, logits;                 ///< tokens through the GEMMs of a rank; positions that need the LM head
    V matmul_flops, attention_flops;  ///< per TP rank
    V weight_bytes, kv_bytes, activation_bytes;
    V matmul_compute, matmul_memory, attention_compute, attention_memory;
    V elementwise, overhead, tp, ep, pp;
    V padded_moe{};                   ///< t_pad, the padded MoE grid (`pass_model::padded_moe`)

    /// The step's time (`pass_time`).
    [[nodiscard]] constexpr V time() const {
        return pass_time(matmul_compute, matmul_memory, attention_compute, attention_memory, elementwise, overhead,
                         padded_moe, tp, ep, pp);
    }
    /// The attention's time, max(compute, KV) (`pass_cost::attention_time`'s figure, untyped).
    [[nodiscard]] constexpr V attention_time() const { return lane_max(attention_compute, attention_memory); }
};

/// t = S ÷ tp ÷ R_p: S FLOPs of the state-space layers' recurrence (`state_flops_per_token`; Mamba2: Dao
/// & Gu 2024, Gated DeltaNet: Yang et al. 2024) split over tp ranks at the prompt attention kernels' rate
/// R_p (`pass_model::attention_rate`, B06), in seconds, for one value or a lane; `recurrence_time` is its typed face.
template <class V>
[[nodiscard]] constexpr V recurrence_seconds(const V& state_flops, double tp, double rate) {
    return V(state_flops / tp / rate);
}

/// The prompt attention kernel's shape, the two arguments of its curve e(s̄, W)
/// (`engine_kernels::prompt_attention_at`, B95), for one value or a lane.
template <class V>
struct prompt_attention_shape {
    V mean_keys;   ///< s̄: the mean keys a query attends in a layer
    V query_rows;  ///< W: the kernel's query-head rows
};

/// s̄ = pairs ÷ (n · layers), W = prompts · n · H: p prompts of n new tokens each, `pairs` the keys the n
/// queries of one prompt attend summed over its `layers` attention layers (`attention_pairs`; n(n + 1)/2
/// a layer for a whole causal prompt, s̄ = (n + 1) ÷ 2), H the query heads the kernel runs (B95). n = 0 gives 0.
template <class V>
[[nodiscard]] constexpr prompt_attention_shape<V> prompt_attention_shape_of(const V& prompts, const V& new_tokens,
                                                                            const V& pairs, double layers,
                                                                            double query_heads) {
    using L = lanes<V>;
    return {.mean_keys = V(pairs / L::choose(new_tokens > 0.0, V(new_tokens * layers), L::constant(1.0))),
            .query_rows = V(prompts * new_tokens * query_heads)};
}

/// A step's attention by kind, the terms both forms of `attention_of` take, worked out once: the
/// decoding sequences' (one query each at context c) and the prompts' (n queries after p cached
/// tokens) QKᵀ and PV FLOPs over the whole model, F_d = ds · pairs_d · f_d and F_p = ps · pairs_p · f_p
/// (B06), the state-space layers' recurrence, a fixed s per token whatever the context, S_d = ds · s and
/// S_p = ps · n · s, and the KV bytes each kind reads on this GPU per stage, KV_d = KV(c) · share · ds and
/// KV_p = KV(p + n) · share · ps. The methods give the reported totals and each kind's times.
template <class V>
struct attention_kinds {
    V decode_flops, prompt_flops;  ///< F_d, F_p (whole model)
    /// S_d, S_p (whole model), and below s̄ and W: set, and read, only where the step has state-space
    /// layers (`pass_model::state_flops`) or prices the prompt curve. Left to `V{}` otherwise, which is
    /// 0 for one figure and no stores for a lane: a sweep does not write four lanes of zeros per step.
    V decode_state{}, prompt_state{};
    V decode_kv, prompt_kv;        ///< KV_d, KV_p (bytes)
    /// s̄ = pairs ÷ (n · layers), the mean keys a prompt's query attends, and W = prompts · n · H_q ÷ tp,
    /// the prompt kernel's query-head rows: the prompt rate's curve (`pass_model::prompt_attention_curve`).
    V prompt_keys{}, prompt_rows{};

    /// FLOPs per TP rank: (F_d + F_p + S_d + S_p) ÷ tp.
    [[nodiscard]] constexpr V flops(const pass_model& pm) const {
        const V pairs = (decode_flops + prompt_flops) / pm.tp_divisor;
        if (pm.state_flops > 0) return V(pairs + (decode_state + prompt_state) / pm.tp);
        return pairs;
    }
    /// KV bytes of the step: (KV_d + KV_p) · pp.
    [[nodiscard]] constexpr V kv_bytes(const pass_model& pm) const { return V((decode_kv + prompt_kv) * pm.pp); }
    /// t = F_d ÷ tp ÷ R_d + S_d ÷ tp ÷ R_p: decode attention at its own rate (MLA decode kernels:
    /// FlashMLA, E44–E46; otherwise R_d = R_p), the recurrence at the prompt kernels' rate; 0 with no rate.
    [[nodiscard]] constexpr V decode_compute(const pass_model& pm) const {
        using L = lanes<V>;
        if (pm.attention_rate <= 0) return L::constant(0.0);
        return plus_recurrence(pm, V(decode_flops / pm.tp / pm.attention_rate_decode), decode_state);
    }
    /// t = F_p ÷ tp ÷ R_p + S_p ÷ tp ÷ R_p: the prompts' attention at the prompt (fused-attention) rate
    /// R_p = `pass_model::attention_rate` (B06), or, on the engine's curve, F_p ÷ tp ÷ (P_bf16 · e(s̄, W))
    /// (`prompt_on_curve`, B95), and the recurrence at R_p (`recurrence_seconds`); 0 with no rate.
    [[nodiscard]] constexpr V prompt_compute(const pass_model& pm) const {
        using L = lanes<V>;
        if (pm.attention_rate <= 0) return L::constant(0.0);
        if (pm.prompt_attention_curve) [[unlikely]]
            return plus_recurrence(pm, prompt_on_curve(pm), prompt_state);
        return plus_recurrence(pm, V(prompt_flops / pm.tp / pm.attention_rate), prompt_state);  // R_p
    }
    /// t + S ÷ tp ÷ R_p: a kind's attention time and its recurrence (`recurrence_seconds`), where the
    /// model has state-space layers; t otherwise.
    [[nodiscard]] static constexpr V plus_recurrence(const pass_model& pm, const V& attention, const V& state) {
        if (pm.state_flops > 0) return V(attention + recurrence_seconds(state, pm.tp, pm.attention_rate));
        return attention;
    }
    /// t = F_p ÷ tp ÷ (P_bf16 · e(s̄, W)), e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀): the prompt kernel at
    /// the engine's rate for its shape (`engine_kernels::prompt_attention_at`; TensorRT-LLM 1.3.0rc20's
    /// context FMHA on B200, B95); a step without prompt tokens (W = 0) costs 0.
    [[nodiscard]] constexpr V prompt_on_curve(const pass_model& pm) const {
        using L = lanes<V>;
        // W > 0 means n > 0, so pairs > 0 and s̄ > 0; the guards keep the lanes without prompts finite.
        const V e = pm.d.engine.kernels.prompt_attention_at(L::choose(prompt_keys > 0.0, prompt_keys, L::constant(1.0)),
                                                            L::choose(prompt_rows > 0.0, prompt_rows, L::constant(1.0)));
        return L::choose(prompt_rows > 0.0, V(prompt_flops / pm.tp / (pm.attention_peak.value() * e)), L::constant(0.0));
    }
    /// t = KV_d · pp ÷ B_kv, the decoding sequences' KV at the attention kernels' bandwidth.
    [[nodiscard]] constexpr V decode_memory(const pass_model& pm) const { return V(decode_kv * pm.pp / pm.kv_bandwidth); }
    /// t = KV_p · pp ÷ B_kv, the prompts' KV (read, and the new tokens' written).
    [[nodiscard]] constexpr V prompt_memory(const pass_model& pm) const { return V(prompt_kv * pm.pp / pm.kv_bandwidth); }
};

/// The attention kinds of a step's sequence terms: `ds` decoding sequences, `ps` prompts.
template <class V>
[[nodiscard]] constexpr attention_kinds<V> attention_kinds_of(const pass_model& pm, const sequence_terms<V>& s,
                                                              const V& ds, const V& ps) {
    attention_kinds<V> k{.decode_flops = ds * s.pairs_decode * pm.pair_flops_decode,
                         .prompt_flops = ps * s.pairs_prefill * pm.pair_flops_prefill,
                         .decode_kv = s.kv_decode * pm.kv_gpu_share * ds,
                         .prompt_kv = s.kv_prefill * pm.kv_gpu_share * ps};
    if (pm.prompt_attention_curve) [[unlikely]] {  // s̄ = pairs ÷ (n · layers), W = ps · n · H_q ÷ tp
        const prompt_attention_shape<V> shape =
            prompt_attention_shape_of(ps, s.prefill_tokens, s.pairs_prefill, pm.attention_layers, pm.query_heads_per_rank);
        k.prompt_keys = shape.mean_keys;
        k.prompt_rows = shape.query_rows;
    }
    if (pm.state_flops > 0) {  // state-space layers: a fixed recurrence per token, whatever the context
        k.decode_state = ds * pm.state_flops;
        k.prompt_state = ps * s.prefill_tokens * pm.state_flops;
    }
    return k;
}

/// t_attn = max(F_d ÷ R_d, KV_d ÷ B) + max(F_p ÷ R_p, KV_p ÷ B): a step's decode attention and prompt
/// attention as two kernels, one after the other, each its own roofline (TensorRT-LLM's attention op runs
/// its runner for the context requests, then for the generation requests: NVIDIA/TensorRT-LLM
/// cpp/tensorrt_llm/thop/attentionOp.cpp @38134b1, `attention`), carried in `attention_compute`, which is
/// then never below `attention_memory` (KV_d + KV_p) ÷ B, so the step's max(compute, memory) is the sum.
/// A step of decodes alone or prompts alone is priced as before. Out of line, so the common path compiles as before.
template <class V>
[[gnu::noinline]] constexpr void separate_attention_kernels(const pass_model& pm, const attention_kinds<V>& k,
                                                           step_terms<V>& r) {
    r.attention_compute =
        lane_max(k.decode_compute(pm), k.decode_memory(pm)) + lane_max(k.prompt_compute(pm), k.prompt_memory(pm));
}

/// Attention of a step, into `r`: FLOPs and KV bytes (`attention_kinds`), and its time in one of two
/// forms. One roofline (B06): t_compute = F_d ÷ tp ÷ R_d + (F_p + S) ÷ tp ÷ R_p, t_memory = KV · pp ÷ B;
/// where decode runs at the prompt rate (every attention but MLA's), that is the FLOPs ÷ R in one
/// division, the common path. Two kernels (`separate_attention_kernels`) where the engine runs them so.
template <class V>
constexpr void attention_of(const pass_model& pm, const sequence_terms<V>& s, const V& ds, const V& ps,
                            step_terms<V>& r) {
    using L = lanes<V>;
    const attention_kinds<V> k = attention_kinds_of(pm, s, ds, ps);
    r.attention_flops = k.flops(pm);
    r.kv_bytes = k.kv_bytes(pm);
    r.attention_memory = r.kv_bytes / pm.kv_bandwidth;
    if (pm.separate_prompt_attention) [[unlikely]]
        separate_attention_kernels(pm, k, r);
    else if (pm.attention_rate <= 0)
        r.attention_compute = L::constant(0.0);
    else if (pm.attention_rate_decode == pm.attention_rate)  // one rate: (F_d + F_p + S) ÷ tp ÷ R, the kinds'
        // times and `recurrence_seconds` summed by algebra into one division (every kind at the same R)
        r.attention_compute = V(r.attention_flops / pm.attention_rate);
    else  // decode at its own rate (MLA decode kernels: FlashMLA, E44–E46)
        r.attention_compute = V(k.decode_compute(pm) + k.prompt_compute(pm));
}

/// Busiest-rank factor of an expert-parallel step: the step waits for the rank that received the
/// most of the N = tokens · k expert assignments. Rank loads over G ranks of E/G experts each have
/// mean μ = N ÷ G and, with multinomial routing over experts whose shares have coefficient of
/// variation c (routing skew), relative variance σ²/μ² = (1 − 1/G) · G ÷ N + c² · G ÷ E; the
/// largest of G near-Gaussian loads is ≈ μ + σ √(2 ln G) (the Gaussian maximal inequality,
/// Boucheron, Lugosi & Massart, *Concentration Inequalities*, 2013, §2.5):
///   I = 1 + √(2 ln G) · √((1 − 1/G) · G ÷ N + c² · G ÷ E), and I = 1 for G = 1.
template <class V>
[[nodiscard]] constexpr V ep_imbalance(const pass_model& pm, const V& assignments) {
    using L = lanes<V>;
    const double g = pm.ep_ranks;
    if (g <= 1.0) return L::constant(1.0);
    const double skew = pm.routing_skew * pm.routing_skew * g / pm.routing_experts_or_one();
    return L::map(assignments, [&](double n) {
        const double sampling = n > 0.0 ? (1.0 - 1.0 / g) * g / n : 0.0;
        return 1.0 + pm.extreme_value_z * detail::const_sqrt(sampling + skew);
    });
}

}  // namespace detail

/// t = S ÷ tp ÷ R_p: the state-space layers' recurrence, S FLOPs over the whole model (Mamba2: Dao & Gu
/// 2024, Gated DeltaNet: Yang et al. 2024), on one of tp ranks at the prompt attention kernels' rate R_p (B06).
[[nodiscard]] constexpr seconds_t recurrence_time(flops_t state_flops, int tp, flops_per_second_t rate) {
    return seconds(detail::recurrence_seconds(state_flops.value(), static_cast<double>(tp), rate.value()));
}

/// One call of the prompt attention kernel on whole prompts: s̄ keys a query attends, W query-head rows.
struct prompt_attention_call {
    tokens_t mean_keys{};   ///< s̄
    double query_rows = 0;  ///< W
};

/// s̄ = (n + 1) ÷ 2, W = p · n · H: p whole causal prompts of n tokens, H query heads, in one call
/// (`detail::prompt_attention_shape_of` with the n(n + 1)/2 pairs of one layer; B95).
[[nodiscard]] constexpr prompt_attention_call whole_prompt_attention(double prompts, tokens_t prompt_tokens,
                                                                     double query_heads) {
    const double n = prompt_tokens.value();
    require(non_negative_finite(prompts), "prompt attention call", "prompts", prompts, "must be zero or positive and finite");
    require(non_negative_finite(n), "prompt attention call", "prompt tokens", n, "must be zero or positive and finite");
    require(non_negative_finite(query_heads) && query_heads > 0.0, "prompt attention call", "query heads", query_heads,
            "must be positive and finite");
    const detail::prompt_attention_shape<double> shape =
        detail::prompt_attention_shape_of(prompts, n, detail::causal_pairs(0.0, n, 0.0), 1.0, query_heads);
    return {.mean_keys = tokens(shape.mean_keys), .query_rows = shape.query_rows};
}

/// What an expert (grouped) GEMM kernel is given: the matmul peak, the engine's multiplier of the size
/// curve, the rows it pads each expert to (0: the hardware's padding) and the ceiling of a mixed-input
/// kernel as a fraction of the peak (0: none).
struct expert_gemm_kernel {
    double peak = 0;          ///< FLOP/s of the activations' format (× the engine's `gemm`)
    double grouped_gemm = 1;  ///< `engine_kernels::grouped_gemm`
    double tile_rows = 0;     ///< `engine_kernels::expert_tile_rows`
    double ceiling = 0;       ///< `engine_kernels::mixed_input_expert_gemm` where the experts are narrower than the activations
};

/// FLOP/s of an expert GEMM at m rows per expert: r = peak · e(m) · g (B04, B05 at the rows per expert);
/// with a tile of T rows, r = peak · e(⌈m ÷ T⌉ · T) · g · m ÷ (⌈m ÷ T⌉ · T) (Triton fused-MoE
/// BLOCK_SIZE_M; DeepGEMM masked layout, E03–E06); a mixed-input (W4A16) kernel's dequantization caps
/// it whatever the shape, r = min(r, c · peak) (Marlin on Hopper issue-bound at 25.7% of the BF16
/// peak, B39). For one row count or a lane of them.
template <class V>
[[nodiscard]] constexpr V expert_gemm_rate(const achievable_fractions& e, const expert_gemm_kernel& k, const V& rows,
                                           double cbrt_k_n) {
    using L = detail::lanes<V>;
    V rate = V(k.peak * e.matmul_at_rows(rows, cbrt_k_n)) * k.grouped_gemm;
    if (k.tile_rows > 0.0) {
        const double tile = k.tile_rows;
        const V padded = L::map(rows, [tile](double x) { return x > 0.0 ? detail::const_ceil(x / tile) * tile : tile; });
        rate = V(k.peak * e.matmul_at_rows(padded, cbrt_k_n)) * k.grouped_gemm * (rows / padded);
    }
    if (k.ceiling > 0.0) {
        const V ceiling = L::constant(k.peak * k.ceiling);
        rate = L::choose(rate > ceiling, ceiling, rate);
    }
    return rate;
}

namespace detail {

/// The busiest attention rank's step: its token-proportional terms × f = 1 ÷ β (`step_formula`).
/// Out of line, so the common path of a step without attention DP compiles as before.
template <class V>
[[gnu::noinline]] constexpr void attention_dp_wait(double f, step_terms<V>& r) {
    r.matmul_compute = r.matmul_compute * f;
    r.attention_compute = r.attention_compute * f;
    r.attention_memory = r.attention_memory * f;
    r.elementwise = r.elementwise * f;
    r.tp = r.tp * f;
    r.ep = r.ep * f;
}

template <class V>
[[nodiscard]] constexpr step_terms<V> step_formula(const pass_model& pm, const sequence_terms<V>& s, const V& ds,
                                                   const V& ps, const V& previous = lanes<V>::constant(-1.0),
                                                   const V& window = lanes<V>::constant(0.0),
                                                   const V& prompt_before = lanes<V>::constant(0.0));

/// The time of the step before an eager prompt step that the host is free to launch the prompt step under:
/// t_free = max(0, t_prev − h_prev), h_prev the host's own launch time of that step (H = kernels · t_host where it
/// carried an eager prompt, 0 for a graph-replayed decode step). The host is one thread that launches steps in
/// order (SGLang's overlap loop, python/sglang/srt/managers/scheduler.py `event_loop_overlap`, v0.5.5: it runs
/// step k's batch, then resolves step k − 1's, then schedules and launches step k + 1), so a launch overlaps only
/// the GPU time of the step before that the host is not busy launching (docs/sglang-eager-prompt.md, "One host thread").
template <class V>
[[nodiscard]] constexpr V launch_free_time(const V& previous, const V& previous_launch) {
    return lane_max(lanes<V>::constant(0.0), V(previous - previous_launch));  // t_free = max(0, t_prev − h_prev)
}

/// A prompt step run eagerly lasts as long as the host takes to launch it, where that is longer than
/// its kernels; SGLang's overlap scheduler (on by default: python/sglang/srt/managers/scheduler.py
/// `event_loop_overlap`, v0.5.5) launches a step while the GPU still runs the one before it, so the
/// launch also hides behind the part of that step the host is free (`launch_free_time`): t = max(t_GPU,
/// H − t_free), H = kernels · t_host (`pass_model::prefill_overhead`), the difference carried as launch
/// overhead. `previous` ≥ 0: t_free where the caller knows it (the simulator's last step less its own
/// launch, 0 after an idle wait, 0 for a first-token step whose wait for the step before is not priced).
/// Negative (a steady state): the step before carries an eager prompt with probability π = `prompt_before`
/// (the mixture's min(q, 1), `mix_steps`; 1 where the engine runs prompt steps alone, `prefill_alone`: the merged
/// step's GPU time holds the decode step before it), and then the host launched it and is free only for its GPU time
/// past H (a step like this one: t_free = max(0, t_GPU − H)); else it is the decode step of the ds running
/// sequences (this formula at ps = 0, graph-replayed: t_free = t_decode; none with no sequence running):
/// wait = (1 − π) · max(0, H − t_decode − t_GPU) + π · max(0, H − t_GPU). A fractional prompt count (an
/// average over steps) has a prompt in a share min(p, 1) of them: t_overhead += min(p, 1) · wait. An engine without CUDA graphs whose
/// executor enqueues every step on the host with nothing to hide it behind (no overlap scheduler:
/// TensorRT-LLM's C++ executor running a TensorRT engine; vLLM with enforce_eager) is the same law on every step, prompt or
/// not, with no previous step: t = max(t_GPU, H), H = kernels · t_enqueue (`pass_model::eager_overhead`),
/// t_overhead += max(0, H − t_GPU). A run whose prompt steps run eagerly with the overlap scheduler off
/// (`pass_model::prefill_serial`: TensorRT-LLM's PyTorch executor with `disable_overlap_scheduler`, Dynamo's
/// prefill workers) has no step before to hide H behind, and its loop does each request's host work (setup, KV
/// block allocation, the response) between forwards while the GPU waits:
/// t = max(t_GPU, H) + n_req · t_req (`pass_model::prefill_request`), n_req the prompts (whole or chunks) the step
/// carries on this rank; under attention DP, where the step already waits for the busiest rank (its tokens 1 ÷ β of
/// the mean's, `attention_dp_wait`), the busiest rank's count ps ÷ β, capped by the prompts a rank may hold:
/// n_req = min(ps ÷ β, B) (`pass_model::prefill_request_cap`, B the disaggregated prefill workers' prompt cap per
/// attention rank; where the pass has no cap, ps ÷ β) — a host count cannot exceed the prompts a rank holds. Where the
/// figure t_req comes from: docs/trtllm-prefill-request.md. An overlapped step pays no t_req: the overlap
/// scheduler prepares step n + 1 while step n runs. Out of line, so the common path of an engine whose graphs cover
/// every step compiles as before.
template <class V>
[[gnu::noinline]] constexpr void eager_prompt_wait(const pass_model& pm, const sequence_terms<V>& s, const V& ds,
                                                   const V& ps, const V& previous, const V& prompt_before,
                                                   step_terms<V>& r) {
    using L = lanes<V>;
    // n_req · t_req, n_req = min(ps ÷ β, B) (the busiest rank's prompts, β = 1 without attention DP, within the
    // rank's prompt cap B where known); 0 unless serial
    const V busiest = ps * pm.attention_dp_busiest;
    const V cap = L::constant(pm.prefill_request_cap);
    const V requests = L::choose(busiest < cap, busiest, cap) * pm.prefill_request.value();
    if (pm.eager_overhead.value() > 0.0) {  // graphs off: the host enqueues every step, none hidden
        r.overhead = r.overhead + lane_max(L::constant(0.0), V(L::constant(pm.eager_overhead.value()) - r.time())) + requests;
        return;
    }
    if (!L::any(ps > 0.0)) return;  // no prompt in any lane: nothing held (and the previous step's own call ends here)
    const V zero = L::constant(0.0);
    const V host = L::constant(pm.prefill_overhead.value());
    const V gpu = r.time();
    // wait(t_free) = max(0, H − t_free − t_GPU)
    auto wait_after = [&](const V& free) { return lane_max(zero, V(host - free - gpu)); };
    V wait = wait_after(pm.prefill_serial ? zero : lane_max(zero, previous));  // overlap scheduler off: t = max(t_GPU, H)
    if (!pm.prefill_serial && L::any(previous < 0.0)) {
        // The steady state: after a decode step (graph-replayed, h_prev = 0) or after a prompt step like this one.
        const V decode_step = L::choose(ds > 0.0, step_formula(pm, s, ds, zero, zero).time(), zero);
        const V after_decode = wait_after(launch_free_time(decode_step, zero));
        const V after_prompt = wait_after(launch_free_time(gpu, host));
        // π: the chance the step before was launched by the same host for a prompt (`prompt_before`, already a
        // probability: `mix_steps`' min(q, 1)). An engine whose prompt steps run alone (SGLang, `prefill_alone`)
        // is priced here as one merged step of its decodes and its prompt, whose GPU time already holds the
        // graph-replayed decode step the launch hides under: t_d + max(t_p, H − t_d) = max(t_GPU, H), π = 1 at any q
        // (session 43 integration review); hiding H behind another t_decode would count that step twice.
        const V pi = pm.d.engine.scheduler.prefill_alone ? L::constant(1.0) : prompt_before;
        wait = L::choose(previous < 0.0, V((1.0 - pi) * after_decode + pi * after_prompt), wait);
    }
    // t = max(t_GPU, H) + n_req · t_req
    r.overhead = r.overhead + L::map(ps, [](double p) { return p < 1.0 ? p : 1.0; }) * wait + requests;
}

/// A fused shared expert replicated on every EP rank (`pass_model::replicated_shared_parameters` P_shared · x,
/// `replicated_shared_expert_share`): F = 2 · t · P_shared · x more GEMM FLOPs on a rank of t tokens, Δt_gemm =
/// F ÷ r_expert(t) more GEMM time. It runs inside the fused MoE runner as one more expert that every one of the rank's t tokens picks
/// (SGLang's `topk_ids[:, -1]` = the shared slot), so at the routed experts' rate for t rows (`expert_gemm_rate`: the
/// profile's expert curve, AITER's fused_moe; FP8 × `fp8_expert_gemm`), at the routed experts' ∛(k·n) (the fused
/// expert has their width: it is stacked into their weight tensor). Not × the busiest rank's factor (`ep_imbalance`):
/// every rank runs it alike; only the routed experts' load is skewed. The 1 ÷ tp share every layout has stays
/// with the dense projections, as before. The rate is a choice: the curve at t rows gives DeepSeek-V3's 7,373-token
/// TEP8 prompt on MI355X 1,177.5 TFLOP/s, +28 ms; at the routed rows' rate of the same fused launch (~865 TFLOP/s,
/// AITER's 1-stage kernel runs the shared slot's rows as m-blocks of that launch) it would be ≈ +38 ms, at AITER's
/// ~720 TFLOP/s fused-MoE ceiling ≈ +46 ms (docs/sglang-rocm-shared-expert.md §4).
template <class V>
[[gnu::noinline]] constexpr void add_replicated_shared_expert(const pass_model& pm, const V& t, step_terms<V>& r) {
    using L = lanes<V>;
    const V flops = 2.0 * t * pm.replicated_shared_parameters;
    const V rate = llmcost::expert_gemm_rate(pm.d.hw.gpu.efficiency,
                                             {.peak = pm.expert_peak, .grouped_gemm = pm.grouped_gemm,
                                              .tile_rows = pm.expert_tile_rows, .ceiling = pm.mixed_input_ceiling},
                                             lane_max(L::constant(1.0), t), pm.expert_cbrt_k_n);
    r.matmul_flops = r.matmul_flops + flops;
    r.matmul_compute = r.matmul_compute + flops / rate;
}

/// One step of `ds` decoding and `ps` prefilling sequences — the pass formula, once, for a value
/// or a lane of values. GEMM FLOPs are 2·params per token (the LM head only for the positions
/// that need logits), attention runs over each sequence's context, every touched weight is
/// streamed once (routed experts as far as the step's tokens reach them, S20), each sequence's KV
/// is read (prefill also writes its new tokens'), and activations move between kernels
/// (seed S11, S13, S14, S27). Each kernel class takes max(FLOPs ÷ its rate, bytes ÷ B).
/// `previous`: the step before this one, where the caller prices steps one by one (the simulator);
/// negative (the default): a steady state, whose step before carries an eager prompt with probability
/// `prompt_before` (0, the default: the decode step of the ds sequences; `eager_prompt_wait`).
/// `window`: the spread of a steady state's step token counts that a padding FP8 kernel's rows are averaged over
/// (`prompt_spread_window`, `achievable_fractions::expected_padded_rows`) where the step carries a prompt; 0 (the
/// default), or a step of decodes only: one step's exact rows.
template <class V>
[[nodiscard]] constexpr step_terms<V> step_formula(const pass_model& pm, const sequence_terms<V>& s, const V& ds,
                                                   const V& ps, const V& previous, const V& window,
                                                   const V& prompt_before) {
    using L = lanes<V>;
    const deployment& d = pm.d;
    const achievable_fractions& e = d.hw.gpu.efficiency;
    const double peak = pm.peak.value();
    step_terms<V> r;  // every field is set below
    r.tokens = ds + ps * s.prefill_tokens;
    r.logits = ds + ps;
    const V& t = r.tokens;

    // GEMM FLOPs: dense ones see every token, the LM head the positions that need logits, the
    // routed experts k of E per token.
    const V lm_head_flops = 2.0 * r.logits * pm.lm_head / pm.tp_divisor;
    const V dense_part = (2.0 * t * (pm.non_expert_parameters - pm.lm_head) + 2.0 * r.logits * pm.lm_head) / pm.tp_divisor +
                         2.0 * t * pm.replicated_parameters;
    auto dense_efficiency = [&](const V& rows, double cbrt_k_n) {  // the engine's own FP4 curve where it has one (B12)
        return pm.dense_gemm.matmul_at_rows(rows, cbrt_k_n);
    };
    // t_dense = F_dense ÷ (P · e(t)), or F_dense ÷ (P₁₆ · gemm · e_hw(t)) in a step of t ≤ T tokens that
    // runs them 16-bit (`pass_model::wide_dense_max_tokens`; AMD's MLPerf Mixtral Server patch).
    // The dense projections under a kernel whose tile and cluster pad M (`fp8_gemm_padded_rows`, p rows):
    // e(p) · t ÷ p, the padded rows computed and discarded; the LM head is not an FP8 GEMM there. A steady
    // state's mean step: p̄, the staircase's mean over the steps' spread `window` (`expected_padded_rows`).
    // Under a measured GEMM table (`pass_model::projection_table`) the table's e(t) where it has a figure
    // (`gemm_table_efficiency`), the size curve below its smallest size.
    // A step with no prompt holds the running batch, no spread (and vLLM's CUDA graphs run it at a capture size,
    // E98): its exact rows whatever the window.
    auto projection_efficiency = [&](const V& rows) {
        const V curve = pm.dense_gemm.matmul_at_rows(rows, pm.dense_cbrt_k_n, pm.dense_fp8_tile_rows,
                                                     L::choose(ps > 0.0, window, L::constant(0.0)));
        if (pm.projection_table == nullptr) [[likely]] return curve;
        const V table = L::map(rows, [&](double x) {
            return gemm_table_efficiency(*pm.projection_table, x, pm.peak, pm.projection_table_time_scale);
        });
        return L::choose(table > 0.0, table, curve);
    };
    auto dense_compute = [&](const V& dense_flops) {
        const V narrow = dense_flops / (peak * projection_efficiency(t));
        if (!(pm.wide_dense_max_tokens > 0.0)) return narrow;
        const V wide = dense_flops / (pm.wide_dense_peak * e.matmul_at_rows(t, pm.dense_cbrt_k_n));
        return L::choose(t <= pm.wide_dense_max_tokens, wide, narrow);
    };
    // ... and + P_dense · (16 − b_w) ÷ 8 bytes of the 16-bit weight copy in those steps.
    auto wide_dense_bytes = [&] {
        return L::choose(t <= pm.wide_dense_max_tokens, L::constant(pm.wide_dense_extra_bytes), L::constant(0.0));
    };
    // The dense GEMMs and the LM head; a checkpoint's excluded modules (`model::excluded`) at their own rate:
    // t = (F_dense − F_excl) ÷ (P · e(t)) + F_excl ÷ (P_excl · e_excl(t)), F_excl = 2 · t · X_attn ÷ tp, and the
    // LM head at P_excl where the checkpoint keeps it too.
    auto dense_and_head = [&](const V& dense_flops) {
        if (!(pm.excluded_peak > 0.0))
            return V(dense_compute(dense_flops) + lm_head_flops / (peak * dense_efficiency(r.logits, pm.lm_head_cbrt_k_n)));
        const V kept = 2.0 * t * (pm.excluded_attention / pm.tp + (pm.replicated_excluded ? pm.replicated_parameters : 0.0));
        const V head = pm.excluded_lm_head
                           ? V(lm_head_flops / (pm.excluded_peak * pm.excluded_gemm.matmul_at_rows(r.logits, pm.lm_head_cbrt_k_n)))
                           : V(lm_head_flops / (peak * dense_efficiency(r.logits, pm.lm_head_cbrt_k_n)));
        return V(dense_compute(V(dense_flops - kept)) +
                 kept / (pm.excluded_peak * pm.excluded_gemm.matmul_at_rows(t, pm.dense_cbrt_k_n)) + head);
    };
    // Under expert parallelism the busiest rank sets the step (`ep_imbalance`) at the step's N = t · ranks · k
    // expert assignments: its experts' GEMMs and its all-to-all alike, so worked out once for both.
    const V busiest = pm.busiest_rank ? ep_imbalance(pm, V(t * pm.ranks * pm.top_k)) : L::constant(1.0);
    if (pm.moe) {
        const V expert_flops = 2.0 * t * pm.top_k * pm.expert_parameters * pm.moe_layers / pm.tp_divisor;
        r.matmul_flops = dense_part + expert_flops;
        // Experts touched are concave in tokens, so a fractional prompt count (an average over
        // steps) is a mixture: ⌊ps⌋ whole prompts in most steps, one more in a share of them.
        auto coverage = [&](const V& routed) {
            return L::map(routed, [&](double x) { return expert_coverage(d.m.ffn.routed_experts, d.m.ffn.top_k, x); });
        };
        auto read = [&](const V& share) { return V(pm.dense_bytes_read + pm.expert_resident_bytes * share * pm.pp); };
        const V routed = t * pm.ranks;  // the step's routed tokens, over every attention rank
        const V cover = coverage(routed);
        const V whole = L::floor(ps);
        const V extra = ps - whole;
        r.weight_bytes = read(cover);
        if (L::any(extra > 0.0)) {
            const V fewer = read(coverage((ds + whole * s.prefill_tokens) * pm.ranks));
            const V more = read(coverage((ds + (whole + 1.0) * s.prefill_tokens) * pm.ranks));
            r.weight_bytes = L::choose(extra > 0.0, V(fewer * (1.0 - extra) + more * extra), r.weight_bytes);
        }
        // Rows per touched expert: routed tokens · k ÷ the experts they touch (at least one each).
        const V touched = pm.routed_experts * cover;
        const V rows = L::choose(touched > 0.0, lane_max(L::constant(1.0), V(routed * pm.top_k / touched)),
                                 L::constant(0.0));
        const V expert_rate = llmcost::expert_gemm_rate(e, {.peak = pm.expert_peak, .grouped_gemm = pm.grouped_gemm,
                                                   .tile_rows = pm.expert_tile_rows, .ceiling = pm.mixed_input_ceiling},
                                               rows, pm.expert_cbrt_k_n);
        r.matmul_compute = dense_and_head(V(r.matmul_flops - expert_flops - lm_head_flops)) +
                           expert_flops * busiest / expert_rate;
        if (pm.replicated_shared_parameters > 0.0) [[unlikely]]
            detail::add_replicated_shared_expert(pm, t, r);
    } else {
        r.matmul_flops = dense_part;
        r.weight_bytes = L::constant(pm.dense_bytes_read);
        r.matmul_compute = dense_and_head(V(r.matmul_flops - lm_head_flops));
    }
    if (pm.wide_dense_max_tokens > 0.0) r.weight_bytes = r.weight_bytes + wide_dense_bytes();
    r.matmul_memory = r.weight_bytes / pm.weight_bandwidth;

    attention_of(pm, s, ds, ps, r);

    r.activation_bytes = t * pm.layers * pm.activation_elements * pm.residual_bits / 8.0;
    r.elementwise = r.activation_bytes / pm.elementwise_bandwidth;
    r.overhead = L::constant(pm.overhead.value());
    r.padded_moe = L::constant(pm.padded_moe.value());

    // Communication: two all-reduces of the hidden state per layer (S13), the experts'
    // all-to-all (S21), and the hand-off between pipeline stages.
    const V hidden_state = t * pm.hidden * pm.residual_bits / 8.0;
    r.tp = all_reduce_seconds(hidden_state, d.layout.tp, pm.tp_link, pm.tp_algorithm, pm.tp_all_reduce_share) *
           pm.tp_all_reduces;
    if (pm.library_all_reduce_min >= 0.0) [[unlikely]]  // the engine's collective library above the custom kernel's sizes
        r.tp = detail::library_all_reduce_override(pm, hidden_state, r.tp);
    if (pm.quick_reduce_min >= 0.0) [[unlikely]]  // the run's quantized all-reduce in its band, above the custom kernel
        r.tp = detail::band_all_reduce_override(pm, hidden_state, r.tp, pm.quick_reduce_link, pm.quick_reduce_min,
                                                detail::band_floor::inclusive, pm.quick_reduce_max);
    if (pm.custom_all_reduce_max > 0.0)  // the engine's custom all-reduce up to its largest message
        r.tp = L::choose(hidden_state <= pm.custom_all_reduce_max,
                         V(all_reduce_seconds(hidden_state, d.layout.tp, pm.custom_tp_link, pm.tp_algorithm,
                                              pm.tp_all_reduce_share) * pm.tp_all_reduces),
                         r.tp);
    if (pm.custom_large_min >= 0.0) [[unlikely]]  // the custom kernel's large messages on their own curve
        r.tp = detail::band_all_reduce_override(pm, hidden_state, r.tp, pm.custom_large_link, pm.custom_large_min,
                                                detail::band_floor::exclusive, pm.custom_all_reduce_max);
    // GEMM + all-reduce in one kernel (TensorRT-LLM's gemm_allreduce_plugin): each output tile of a
    // row-parallel GEMM is reduced over NVLS while the next tiles compute, so the pair lasts
    // max(t_row, t_AR) and the step pays t_AR' = max(0, t_AR − f_row · max(GEMM compute, weights)).
    if (pm.fused_row_gemm_share > 0.0) [[unlikely]]
        r.tp = lane_max(L::constant(0.0),
                        V(r.tp - pm.fused_row_gemm_share * lane_max(r.matmul_compute, r.matmul_memory)));
    // The all-to-all, unless the engine gathers instead (priced after the attention-DP wait, below).
    if (!pm.moe_gathers) [[likely]] {
        r.ep = pm.all_to_all.seconds(d, t);
        if (pm.busiest_rank) r.ep = r.ep * busiest;
    } else {
        r.ep = L::constant(0.0);
    }
    // The pp − 1 hand-offs of a pass run one after another along the pipeline, so they add: c of them cross a
    // domain at the NIC, the rest stay on the scale-up link, t = c · p2p(S ÷ tp, out) + (pp − 1 − c) · p2p(S ÷ tp, up)
    // (`pipeline_crossings`). c = 0 and c = pp − 1 keep the one-link product, bit for bit.
    if (d.layout.pp > 1) {
        const int crossings = pm.pp_crossings;
        const V share = hidden_state / pm.tp;
        const double boundaries = pm.pp - 1.0;
        if (crossings == 0)
            r.pp = V(point_to_point_seconds(share, d.hw.scale_up) * boundaries);
        else if (crossings == d.layout.pp - 1)
            r.pp = V(point_to_point_seconds(share, d.hw.scale_out) * boundaries);
        else
            r.pp = V(point_to_point_seconds(share, d.hw.scale_out) * static_cast<double>(crossings) +
                     point_to_point_seconds(share, d.hw.scale_up) * (boundaries - crossings));
    } else {
        r.pp = L::constant(0.0);
    }
    // Attention data parallelism: every rank of the EP group waits for the busiest, whose tokens are
    // 1 ÷ β of the mean rank's, β = mean ÷ most tokens per iteration (TensorRT-LLM's ADP balance,
    // blog10): t_k × 1/β for the work that grows with the rank's tokens (GEMM FLOPs, attention, the
    // element-wise kernels, the collectives); the weights every rank streams and its launches stay.
    if (pm.attention_dp_busiest != 1.0) [[unlikely]]
        attention_dp_wait(pm.attention_dp_busiest, r);
    // Or the all-gather + reduce-scatter in place of the all-to-all (`moe_gathers_tokens`): every rank
    // receives every token whichever experts they chose, so the busiest expert rank's share does not
    // apply to it; the ranks pad to the busiest one's tokens (TensorRT-LLM `use_dp_padding`), so its
    // bytes are t ÷ β a rank while its fixed time a(n) is paid once, not stretched by the wait above.
    if (pm.moe_gathers) [[unlikely]]
        r.ep = gather_scatter_seconds_per_pass(d, V(t * pm.attention_dp_busiest));
    if (pm.prefill_overhead.value() > 0.0 || pm.eager_overhead.value() > 0.0 || pm.prefill_request.value() > 0.0) [[unlikely]]
        eager_prompt_wait(pm, s, ds, ps, previous, prompt_before, r);
    // vLLM V0: t += t_host ÷ S, t_host = a₀ + a₁ · (tp − 1) + h · (ds + ps) the scheduler pass the GPU waits for, S
    // the steps a pass schedules (1 single-step; `engine_overheads::v0_host_pass_per_step`; docs/vllm-v0-host-loop.md).
    if (pm.v0_every_step) [[unlikely]]
        r.overhead = r.overhead + d.engine.overheads.v0_host_pass_per_step(pm.tp, V(ds + ps));
    return r;
}

/// The typed pass of a step's terms, with the whole pass's floors.
[[nodiscard]] constexpr pass_cost to_pass_cost(const pass_model& pm, const step_terms<double>& r) {
    const achievable_fractions& e = pm.d.hw.gpu.efficiency;
    pass_cost c{};
    c.matmul_flops = flops(r.matmul_flops);
    c.attention_flops = flops(r.attention_flops);
    c.flops = c.matmul_flops + c.attention_flops;
    c.weight_bytes = bytes(r.weight_bytes);
    c.kv_bytes = bytes(r.kv_bytes);
    c.activation_bytes = bytes(r.activation_bytes);
    // The floor: every FLOP at the fastest rate any kernel class reaches (GEMMs or fused attention).
    const double floor_rate = detail::max(detail::max((pm.peak * detail::max(e.matmul, pm.dense_gemm.matmul)).value(),
                                                      pm.expert_peak * e.matmul),
                                          (pm.attention_peak * e.attention).value());
    c.compute_time = compute_time(c.flops, flops_per_second(floor_rate));
    c.memory_time = transfer_time(c.bytes(), pm.bandwidth);
    c.matmul_compute_time = seconds(r.matmul_compute);
    c.matmul_memory_time = seconds(r.matmul_memory);
    c.attention_compute_time = seconds(r.attention_compute);
    c.attention_memory_time = seconds(r.attention_memory);
    c.elementwise_time = seconds(r.elementwise);
    c.overhead_time = seconds(r.overhead);
    c.padded_moe_time = seconds(r.padded_moe);
    c.tp_time = seconds(r.tp);
    c.ep_time = seconds(r.ep);
    c.pp_time = seconds(r.pp);
    return c;
}

}  // namespace detail

/// One step (seed S11, S13, S14, S27): `detail::step_formula` for one shape, typed.
namespace detail {
/// Whether step `s` runs its prompts as absorbed MLA: Σ p = prompts · prefix (`absorbs_prompt_prefix`).
[[nodiscard]] constexpr bool absorbs_prompt_step(const pass_model& pm, const step_shape& s) {
    return s.prefill_sequences > 0.0 && absorbs_prompt_prefix(pm, s.prefill_prefix * s.prefill_sequences);
}
}  // namespace detail

/// One step of `s`, priced by the step formula on `pm`, or on `absorbed_prompt_attention(pm)` where its prompts run
/// absorbed MLA (`detail::absorbs_prompt_step`): every closed form that prices a prompt step reads the rule here.
[[nodiscard]] constexpr pass_cost step_pass(const pass_model& pm, const step_shape& s) {
    const auto on = [&s](const pass_model& p) {
        return detail::to_pass_cost(p, detail::step_formula(p, detail::sequence_terms_of(p, s), s.decode_sequences,
                                                            s.prefill_sequences));
    };
    return detail::absorbs_prompt_step(pm, s) ? on(absorbed_prompt_attention(pm)) : on(pm);
}

[[nodiscard]] constexpr pass_cost step_pass(const deployment& d, const step_shape& s) {
    return step_pass(prepare_pass(d), s);
}

/// The time of one step, `step_pass(pm, s).time()` to the last bit, without the typed pass's other
/// figures (its floors, FLOP and byte totals): for a caller that needs the time alone (`price_request`).
[[nodiscard]] constexpr seconds_t step_time(const pass_model& pm, const step_shape& s) {
    if (detail::absorbs_prompt_step(pm, s)) return step_pass(pm, s).time();
    return seconds(
        detail::step_formula(pm, detail::sequence_terms_of(pm, s), s.decode_sequences, s.prefill_sequences).time());
}

namespace detail {
/// The attention terms of a decode-only step (`ds` sequences at context `c`), by the step
/// formula's own attention term: what the closed-form decode sum needs at its second point.
[[nodiscard]] constexpr step_terms<double> decode_attention(const pass_model& pm, double ds, double c) {
    step_terms<double> r{};
    attention_of(pm, decode_sequence_terms(pm, c), ds, 0.0, r);
    return r;
}

/// The terms of a decode-only step (`ds` sequences at context `c`): `decode_pass`'s step formula, untyped,
/// for the closed-form decode sum, which reads only its time and its attention terms. Its sequence terms are
/// the decoding half alone (`decode_sequence_terms`): a step shape without prompts has 0 in the prefill half.
[[nodiscard]] constexpr step_terms<double> decode_step_terms(const pass_model& pm, double ds, double c) {
    return step_formula(pm, decode_sequence_terms(pm, c), ds, 0.0);
}
}  // namespace detail

/// One decode pass: `batch` sequences (per attention rank), each appending one token to a context
/// of `context` tokens (seed S13, S14, S27).
template <token_count T>
[[nodiscard]] constexpr pass_cost decode_pass(const pass_model& pm, double batch, const T& context) {
    return detail::to_pass_cost(pm, detail::decode_step_terms(pm, batch, in_base_units(context).value()));
}
template <token_count T>
[[nodiscard]] constexpr pass_cost decode_pass(const deployment& d, double batch, const T& context) {
    return decode_pass(prepare_pass(d), batch, context);
}

/// One prefill pass over `batch` sequences of `new_tokens` each, after `cached` tokens already in
/// the KV cache (a prefix-cache hit: seed S6). Only new tokens are computed; they attend to the
/// whole context. The LM head runs for the last position only (the first output token).
template <token_count T, token_count U>
[[nodiscard]] constexpr pass_cost prefill_pass(const pass_model& pm, double batch, const T& new_tokens, const U& cached) {
    return step_pass(pm, {.prefill_sequences = batch, .prefill_tokens = in_base_units(new_tokens),
                          .prefill_prefix = in_base_units(cached)});
}
template <token_count T, token_count U>
[[nodiscard]] constexpr pass_cost prefill_pass(const deployment& d, double batch, const T& new_tokens, const U& cached) {
    return prefill_pass(prepare_pass(d), batch, new_tokens, cached);
}

/// The one chunking rule of the library. A prompt of I new tokens rides whole (k = 1, `chunk` = 0
/// or ≥ I: TensorRT-LLM's default, chunked context off), or in k = ⌈I ÷ C⌉ equal chunks of I ÷ k
/// tokens, chunk j after j · I ÷ k of them (Sarathi-Serve, OSDI 2024; vLLM and SGLang split the
/// prompts longer than their token budget). Equal chunks keep every step of a prompt alike, so a
/// steady state can price them at their mean prefix, (k − 1) · I ÷ 2k, while one request's prefill
/// sums the k chunks at their own prefixes (`chunked_prefill`).
struct prompt_chunks {
    double count = 1;   ///< k
    tokens_t tokens{};  ///< I ÷ k
    tokens_t prefix{};  ///< (k − 1) · I ÷ 2k, the chunks' mean prefix
};
/// new = max(1, (1 − h)·P) — the prompt tokens computed when a share h of them is found in a prefix
/// cache (S6). At least one: a full hit still needs the last position's logits (vLLM recomputes the
/// last token for the same reason).
[[nodiscard]] constexpr tokens_t fresh_prompt_tokens(const tokens_t& prompt, double cached_fraction) {
    return tokens(detail::max(1.0, (1.0 - cached_fraction) * prompt.value()));
}

/// h ∈ [0, 1): a prefix-cache hit rate (the share of a prompt found in the cache) leaves at least the prompt's last
/// token to compute (`fresh_prompt_tokens`); one rule, llmcost.simulate.prefix_hit_rate, for every path that takes one
/// (`request_shape::cached_fraction`, `sim::options::prefix_hit_rate`, `prefix_cache::prefill_times`).
constexpr void require_prefix_hit_rate(std::string_view subject, std::string_view field, double h) {
    require(h >= 0.0 && h < 1.0, subject, field, h,
            "a prefix-cache hit rate is in [0, 1): at least the prompt's last token is computed",
            "llmcost.simulate.prefix_hit_rate");
}

[[nodiscard]] constexpr prompt_chunks split_prompt(const tokens_t& prompt, const tokens_t& chunk) {
    const double in = prompt.value(), c = chunk.value();
    const double k = c > 0.0 && c < in ? detail::const_ceil(in / c) : 1.0;
    return {.count = k, .tokens = tokens(in / k), .prefix = tokens((k - 1.0) * in / (2.0 * k))};
}

/// The steps that prefill a prompt in chunks, summed.
struct chunked_steps {
    seconds_t total;
    double steps = 0;
};

/// Σ_{j=0}^{k−1} step(`base` + chunk j of the `fresh` prompt tokens after `cached` + j · I ÷ k):
/// `base` gives the decodes that share each step and the prompts prefilled together
/// (`prefill_sequences`); the chunks are `split_prompt`'s. Every step streams the weights again. A step whose
/// prompts already hold Σ p = prompts · (cached + j · I ÷ k) tokens with 0 < Σ p < P runs absorbed MLA (`step_pass`).
[[nodiscard]] constexpr chunked_steps chunked_prefill(const pass_model& pm, step_shape base, const tokens_t& fresh,
                                                      const tokens_t& cached, const tokens_t& chunk) {
    const prompt_chunks c = split_prompt(fresh, chunk);
    chunked_steps r{.total = seconds(0.0), .steps = c.count};
    base.prefill_tokens = c.tokens;
    for (double j = 0; j < c.count; j += 1.0) {
        base.prefill_prefix = cached + c.tokens * j;
        r.total = r.total + step_pass(pm, base).time();
    }
    return r;
}

/// Prefill of a prompt in chunks of `chunk` tokens (chunked prefill, as vLLM and TensorRT-LLM do to
/// bound a step's length): the weights are streamed once per chunk, attention sees the growing prefix.
template <token_count T, token_count U>
[[nodiscard]] constexpr seconds_t chunked_prefill_time(const deployment& d, double batch, const T& prompt, const U& chunk) {
    return chunked_prefill(prepare_pass(d), {.prefill_sequences = batch}, in_base_units(prompt), tokens(0.0),
                           in_base_units(chunk))
        .total;
}

/// Σ over decode steps of the pass time, in closed form. Only attention changes with the context x:
/// max(a_c + b_c·x, a_m + b_m·x) (its FLOPs and KV reads grow linearly), so the sum over
/// x = x₀ … x₁ splits at the crossover x* and at the sliding window into arithmetic series.
struct decode_sum {
    seconds_t total;       ///< all steps
    seconds_t first_step;  ///< context x₀
    seconds_t last_step;   ///< context x₁
    double steps = 0;
};

namespace detail {
/// Σ_{x=x0}^{x1} max(a₁ + b₁·x, a₂ + b₂·x) over integers x. Two lines cross once, at x*: below it the
/// line with the smaller slope is on top, above it the other; each side is an arithmetic series.
[[nodiscard]] constexpr double sum_max_of_lines(double a1, double b1, double a2, double b2, double x0, double x1) {
    auto series = [](double a, double b, double lo, double hi) {  // Σ_{x=lo}^{hi} (a + b·x)
        if (hi < lo) return 0.0;
        const double count = hi - lo + 1.0;
        return a * count + b * (lo + hi) * count / 2.0;
    };
    if (x1 < x0) return 0.0;
    if (b1 == b2) return a1 >= a2 ? series(a1, b1, x0, x1) : series(a2, b2, x0, x1);
    const double cross = (a2 - a1) / (b1 - b2);
    const bool first_flatter = b1 < b2;
    const double a_lo = first_flatter ? a1 : a2, b_lo = first_flatter ? b1 : b2;  // on top below x*
    const double a_hi = first_flatter ? a2 : a1, b_hi = first_flatter ? b2 : b1;  // on top above x*
    double k = cross < x0 ? x0 - 1.0 : (cross > x1 ? x1 : detail::const_trunc(cross));
    return series(a_lo, b_lo, x0, k) + series(a_hi, b_hi, k + 1.0, x1);
}
}  // namespace detail

/// The decode of one request: steps at contexts x₀ = prompt … prompt + steps − 1, `batch`
/// neighbours sharing every pass (continuous batching at a steady batch: seed S4, S5, S15).
/// `last_step` is priced only when asked for (it is one more pass).
template <token_count T>
[[nodiscard]] constexpr decode_sum decode_steps(const pass_model& pm, double batch, const T& prompt, double steps,
                                                bool with_last_step = true) {
    decode_sum s{};
    s.steps = steps;
    if (steps <= 0) return s;
    const double x0 = in_base_units(prompt).value();
    const double x1 = x0 + steps - 1.0;
    // Pieces where every term is linear in x: split at the sliding window and at every chunk boundary.
    const model& m = pm.d.m;
    const model::layer_counts& lc = pm.layer_kinds;
    const double w = lc.window > 0 ? static_cast<double>(m.attention.sliding_window) : 0.0;
    const double chunk = lc.chunked > 0 ? static_cast<double>(m.pattern.chunk) : 0.0;
    auto piece = [&](double lo, double hi) {
        if (hi < lo) return 0.0;
        const detail::step_terms<double> p0 = detail::decode_step_terms(pm, batch, lo);
        const detail::step_terms<double> p1 = detail::decode_attention(pm, batch, lo + 1.0);
        const double t0 = p0.time();
        if (lo == x0) s.first_step = seconds(t0);
        // Only attention grows with the context; every other term is the same at each step.
        const double bc = p1.attention_compute - p0.attention_compute;
        const double bm = p1.attention_memory - p0.attention_memory;
        const double ac = p0.attention_compute - bc * lo;
        const double am = p0.attention_memory - bm * lo;
        const double fixed = (t0 - p0.attention_time()) * (hi - lo + 1.0);
        return detail::sum_max_of_lines(ac, bc, am, bm, lo, hi) + fixed;
    };
    double total = 0.0, lo = x0;
    double next_chunk = chunk > 0 ? (detail::const_trunc(x0 / chunk) + 1.0) * chunk : x1 + 1.0;
    bool window_done = !(w > 0 && x0 < w);
    while (true) {
        // The next breakpoint after lo: the window (once) or the next multiple of the chunk.
        double bp = x1 + 1.0;
        if (!window_done && w <= x1) bp = w;
        if (chunk > 0 && next_chunk <= x1 && next_chunk < bp) bp = next_chunk;
        if (bp > x1) break;
        total = total + piece(lo, bp - 1.0);
        lo = bp;
        if (bp == w) window_done = true;
        if (bp == next_chunk) next_chunk += chunk;
    }
    total = total + piece(lo, x1);
    s.total = seconds(total);
    if (with_last_step) s.last_step = seconds(detail::decode_step_terms(pm, batch, x1).time());
    return s;
}

template <token_count T>
[[nodiscard]] constexpr decode_sum decode_steps(const deployment& d, double batch, const T& prompt, double steps) {
    return decode_steps(prepare_pass(d), batch, prompt, steps);
}

}  // namespace llmcost
