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

namespace llmcost {

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
    seconds_t attention_compute_time;  ///< attention FLOPs ÷ the fused-attention rate
    seconds_t attention_memory_time;   ///< KV bytes ÷ bandwidth
    seconds_t elementwise_time;  ///< activation bytes ÷ bandwidth
    seconds_t overhead_time;     ///< kernels launched × per-kernel overhead
    seconds_t tp_time;           ///< tensor-parallel all-reduces, 2 per layer (S13)
    seconds_t ep_time;           ///< expert-parallel all-to-all, dispatch and combine (S21)
    seconds_t pp_time;           ///< hand-offs between pipeline stages

    [[nodiscard]] constexpr bytes_t bytes() const { return weight_bytes + kv_bytes + activation_bytes; }
    /// max(compute, memory) — the roofline of the whole pass (Williams et al. 2009): a floor.
    [[nodiscard]] constexpr seconds_t roofline_time() const {
        return compute_time > memory_time ? compute_time : memory_time;
    }
    [[nodiscard]] constexpr seconds_t matmul_time() const {
        return matmul_compute_time > matmul_memory_time ? matmul_compute_time : matmul_memory_time;
    }
    [[nodiscard]] constexpr seconds_t attention_time() const {
        return attention_compute_time > attention_memory_time ? attention_compute_time : attention_memory_time;
    }
    /// The GPU's own work: GEMMs + attention + element-wise kernels + launch overheads.
    [[nodiscard]] constexpr seconds_t kernel_time() const {
        return matmul_time() + attention_time() + elementwise_time + overhead_time;
    }
    [[nodiscard]] constexpr seconds_t communication_time() const { return tp_time + ep_time + pp_time; }
    /// t = kernels + communication (not overlapped: a conservative, common choice).
    [[nodiscard]] constexpr seconds_t time() const { return kernel_time() + communication_time(); }
    [[nodiscard]] constexpr bool memory_bound() const { return memory_time >= compute_time; }
    /// FLOP/byte of the pass (seed S14: ≈ 2·batch for decode at 8 bits).
    [[nodiscard]] constexpr flops_per_byte_t arithmetic_intensity() const { return flops / bytes(); }
};

/// Tensor-parallel synchronisations per pass: 2 all-reduces per layer (after attention and after
/// the FFN), none without TP (seed S13: 160 for 80 layers).
[[nodiscard]] constexpr int tp_all_reduces_per_pass(const deployment& d) {
    return d.layout.tp > 1 ? 2 * d.m.layers : 0;
}

namespace detail {

/// Matmul parameters per token outside the routed experts (attention projections, dense FFN,
/// shared experts, routers, LM head).
[[nodiscard]] constexpr double non_expert_matmul_parameters(const model& m) {
    const double routed_active = m.is_moe()
        ? static_cast<double>(expert_parameters(m)) * m.ffn.top_k * m.moe_layers() : 0.0;
    return static_cast<double>(matmul_parameters(m)) - routed_active;
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

/// Attention pairs per sequence summed over layers: full layers see every key, windowed ones ≤ w.
[[nodiscard]] constexpr double attention_pairs(const model& m, double prefix, double new_tokens) {
    const int windowed = m.attention.sliding_window > 0 ? m.attention.sliding_window_layers : 0;
    return causal_pairs(prefix, new_tokens, 0) * (m.layers - windowed) +
           causal_pairs(prefix, new_tokens, m.attention.sliding_window) * windowed;
}

[[nodiscard]] constexpr const interconnect& tp_link(const deployment& d) { return d.link_for(d.layout.tp); }

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
    return 10.0 * m.layers + 4.0 * (m.is_moe() ? m.moe_layers() : 0) + 3.0;
}

}  // namespace detail

/// Idle fraction of a pipeline of pp stages fed m micro-batches: (pp − 1) ÷ (m + pp − 1)
/// (GPipe, Huang et al. 2019). A single request (m = 1) leaves each stage idle (pp − 1)/pp of the time.
[[nodiscard]] constexpr double pipeline_bubble_fraction(int stages, int micro_batches) {
    return static_cast<double>(stages - 1) / (micro_batches + stages - 1);
}


/// Weight bytes a pass streams per tensor-parallel rank when `routed_tokens` tokens pass through
/// the experts: everything but the embedding table (a lookup) and the untouched experts.
[[nodiscard]] constexpr bytes_t weight_bytes_read(const deployment& d, double routed_tokens) {
    const parameter_breakdown b = parameters(d.m);
    // The embedding lookup reads a few rows; a tied table is streamed whole by the LM head.
    const double dense = static_cast<double>(b.total() - b.routed_experts - (b.lm_head > 0 ? b.embedding : 0));
    const double pp = d.layout.pp;
    return d.m.weights.bytes_for(dense) / static_cast<double>(d.layout.tp) +
           expert_bytes_read_per_gpu(d, routed_tokens) * pp;
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

/// Everything a pass costs that depends only on the deployment, worked out once. `step_pass(d, …)`
/// prepares one per call; a caller pricing many steps of one deployment (a sweep over batch and
/// context, a request's decode, a serving point's three steps) prepares it once and passes it in:
/// the figures are the same to the last bit, since the same numbers go through the same operations.
struct pass_model {
    deployment d;
    double tp = 1, pp = 1, ranks = 1;       ///< tensor, pipeline degree; attention ranks sharing a pass
    double lm_head = 0;                     ///< LM-head parameters (the embedding when tied)
    double non_expert_parameters = 0;       ///< matmul parameters per token outside the routed experts
    double expert_parameters = 0;           ///< parameters of one routed expert
    double dense_bytes_read = 0;            ///< non-expert, non-embedding weight bytes per TP rank
    double expert_resident_bytes = 0;       ///< routed-expert bytes resident per GPU
    double kv_gpu_share = 1;                ///< this GPU's share of a sequence's KV bytes
    double activation_elements = 0;         ///< per token per layer per TP rank
    double pair_flops_decode = 0, pair_flops_prefill = 0;  ///< attention FLOPs per query-key pair
    flops_per_second_t peak{};              ///< the matmul peak for the activations' format
    flops_per_second_t attention_peak{};    ///< BF16 peak (fused attention)
    bytes_per_second_t bandwidth{};         ///< sustained HBM bandwidth
    double dense_width = 0, expert_width = 0;  ///< GEMM output widths per rank
    double lm_head_width = 0;               ///< vocabulary per rank (the LM head's outputs)
    /// ∛(k·n) of each GEMM class (k = hidden, n its width), for the size curve (matmul_at_rows)
    double dense_cbrt_k_n = 0, lm_head_cbrt_k_n = 0, expert_cbrt_k_n = 0;
    seconds_t overhead{};                   ///< kernels per pass × per-kernel overhead
    interconnect tp_link{};
    all_reduce_algorithm tp_algorithm = all_reduce_algorithm::ring;
    double tp_all_reduces = 0;
};

namespace detail {

/// Fill in times from work and traffic. `tokens_per_rank` tokens go through the GEMMs of this rank;
/// `expert_flops` of `matmul_flops` run in the routed experts, whose GEMMs see fewer rows: the
/// step's tokens (tokens_per_rank × ranks) reach a share `coverage` of the experts (expert_coverage).
[[nodiscard]] constexpr pass_cost finish(const pass_model& pm, pass_cost c, double tokens_per_rank, double expert_flops,
                                         double logits, double coverage) {
    const deployment& d = pm.d;
    const accelerator& g = d.hw.gpu;
    const model& m = d.m;
    auto at = [&](double flop, double efficiency) { return compute_time(flops(flop), pm.peak * efficiency); };
    c.flops = c.matmul_flops + c.attention_flops;
    // The floor: every FLOP at the fastest rate any kernel class reaches (GEMMs or fused attention).
    const double floor_rate = detail::max((pm.peak * g.efficiency.matmul).value(),
                                          (pm.attention_peak * g.efficiency.attention).value());
    c.compute_time = compute_time(c.flops, flops_per_second(floor_rate));
    c.memory_time = transfer_time(c.bytes(), pm.bandwidth);

    // GEMMs: dense ones see every token; the LM head only the positions that need logits; an
    // expert its share of the routed tokens.
    const double lm_head_flops = 2.0 * logits * pm.lm_head / pm.tp;
    const double dense_flops = c.matmul_flops.value() - expert_flops - lm_head_flops;
    // Rows per touched expert: routed tokens · k ÷ the experts they touch (at least one each).
    const double routed = tokens_per_rank * pm.ranks;
    const double touched = m.is_moe() ? m.ffn.routed_experts * coverage : 0.0;
    const double expert_rows = touched > 0.0 ? detail::max(1.0, routed * m.ffn.top_k / touched) : 0.0;
    c.matmul_compute_time = at(dense_flops, g.efficiency.matmul_at_rows(tokens_per_rank, pm.dense_cbrt_k_n)) +
                            at(lm_head_flops, g.efficiency.matmul_at_rows(logits, pm.lm_head_cbrt_k_n)) +
                            at(expert_flops, g.efficiency.matmul_at_rows(expert_rows, pm.expert_cbrt_k_n));
    c.matmul_memory_time = transfer_time(c.weight_bytes, pm.bandwidth);
    c.attention_compute_time = pm.attention_peak.value() > 0
        ? compute_time(c.attention_flops, pm.attention_peak * g.efficiency.attention) : seconds(0.0);
    c.attention_memory_time = transfer_time(c.kv_bytes, pm.bandwidth);
    c.elementwise_time = transfer_time(c.activation_bytes, pm.bandwidth);
    c.overhead_time = pm.overhead;

    const bytes_t hidden_state = m.residual_format().bytes_for(tokens_per_rank * m.hidden);
    c.tp_time = all_reduce_time(hidden_state, d.layout.tp, pm.tp_link, pm.tp_algorithm) * pm.tp_all_reduces;
    c.ep_time = all_to_all_time_per_pass(d, tokens_per_rank);
    c.pp_time = d.layout.pp > 1
                    ? point_to_point_time(hidden_state / pm.tp, d.link_for(d.layout.tp * d.layout.pp)) * (pm.pp - 1.0)
                    : seconds(0.0);
    return c;
}

}  // namespace detail

/// The deployment's constants for pricing passes (checks that the GPU can run its matmuls).
[[nodiscard]] constexpr pass_model prepare_pass(const deployment& d) {
    const model& m = d.m;
    const accelerator& g = d.hw.gpu;
    pass_model pm{.d = d};
    pm.tp = d.layout.tp;
    pm.pp = d.layout.pp;
    pm.ranks = d.attention_ranks();
    const parameter_breakdown b = parameters(m);
    pm.lm_head = static_cast<double>(b.lm_head > 0 ? b.lm_head : b.embedding);  // tied: the embedding
    pm.non_expert_parameters = detail::non_expert_matmul_parameters(m);
    pm.expert_parameters = m.is_moe() ? static_cast<double>(expert_parameters(m)) : 0.0;
    pm.dense_bytes_read = m.weights.bytes_for(static_cast<double>(b.total() - b.routed_experts -
                                                                  (b.lm_head > 0 ? b.embedding : 0))).value() /
                          pm.tp;
    pm.expert_resident_bytes = m.is_moe() ? expert_weight_bytes_per_gpu(d).value() : 0.0;
    pm.kv_gpu_share = kv_bytes_per_token_per_gpu(d).value() / kv_bytes_per_token(m).value();
    pm.activation_elements = detail::activation_elements_per_token_layer(m, pm.tp);
    pm.pair_flops_decode = detail::attention_flops_per_pair(m, true);
    pm.pair_flops_prefill = detail::attention_flops_per_pair(m, false);
    pm.peak = g.peak(m.activations.compute);
    require(pm.peak.value() > 0, d.hw.name, "dense peak for the matmul format (FLOP/s)", pm.peak.value(),
            "this GPU has no published rate for the model's matmul precision (nor a wider one): "
            "serve it in a format the GPU has a peak for (e.g. with_formats(d, formats::nvfp4, …))");
    pm.attention_peak = g.peak(compute_class::bf16).value() > 0 ? g.peak(compute_class::bf16) : pm.peak;
    pm.bandwidth = g.sustained_hbm_bandwidth();
    pm.dense_width = (m.ffn.intermediate > 0 ? m.ffn.intermediate : m.hidden) / pm.tp;
    const double inside_expert = d.expert_parallel() ? static_cast<double>(d.layout.tp * d.layout.dp) / d.layout.ep : pm.tp;
    pm.expert_width = m.is_moe() ? m.ffn.expert_intermediate / inside_expert : 0.0;
    pm.lm_head_width = pm.lm_head / m.hidden / pm.tp;
    pm.dense_cbrt_k_n = detail::const_cbrt(m.hidden * pm.dense_width);
    pm.lm_head_cbrt_k_n = detail::const_cbrt(m.hidden * pm.lm_head_width);
    pm.expert_cbrt_k_n = detail::const_cbrt(m.hidden * pm.expert_width);
    pm.overhead = g.efficiency.kernel_overhead * detail::kernels_per_pass(m);
    pm.tp_link = detail::tp_link(d);
    pm.tp_algorithm = detail::tp_algorithm(d);
    pm.tp_all_reduces = static_cast<double>(tp_all_reduces_per_pass(d));
    return pm;
}

/// One step: GEMM FLOPs 2·params per token (the LM head only for decoding tokens and each prompt's
/// last position), attention over each sequence's context, every touched weight streamed once,
/// each sequence's KV read (prefill also writes its new tokens'), activations per token
/// (seed S11, S13, S14, S27).
[[nodiscard]] constexpr pass_cost step_pass(const pass_model& pm, const step_shape& s) {
    const model& m = pm.d.m;
    const double ds = s.decode_sequences, c = s.decode_context.value();
    const double ps = s.prefill_sequences, n = s.prefill_tokens.value(), p = s.prefill_prefix.value();
    const double t = s.tokens_in_step();
    const double logits = ds + ps;  // positions that need the LM head
    pass_cost r{};
    const double expert_flops = m.is_moe() ? 2.0 * t * m.ffn.top_k * pm.expert_parameters * m.moe_layers() / pm.tp : 0.0;
    r.matmul_flops = flops((2.0 * t * (pm.non_expert_parameters - pm.lm_head) + 2.0 * logits * pm.lm_head) / pm.tp +
                           expert_flops);
    r.attention_flops = flops((ds * detail::attention_pairs(m, c, 1.0) * pm.pair_flops_decode +
                               ps * detail::attention_pairs(m, p, n) * pm.pair_flops_prefill) / pm.tp);
    // Weights: every dense byte once; routed experts as far as the step's tokens touch them (S20).
    // Experts touched are concave in tokens, so a fractional prompt count (an average over steps)
    // is a mixture: ⌊ps⌋ whole prompts in most steps, one more in a share of them.
    auto coverage = [&](double routed) {
        return m.is_moe() ? expert_coverage(m.ffn.routed_experts, m.ffn.top_k, routed) : 0.0;
    };
    auto read = [&](double share) {
        return bytes(pm.dense_bytes_read + (m.is_moe() ? pm.expert_resident_bytes * share * pm.pp : 0.0));
    };
    const double cover = coverage(t * pm.ranks);  // the step's routed tokens; finish sizes the expert GEMMs by it
    const double whole = detail::const_trunc(ps), extra = ps - whole;
    r.weight_bytes = extra > 0.0 && m.is_moe() ? read(coverage((ds + whole * n) * pm.ranks)) * (1.0 - extra) +
                                                     read(coverage((ds + (whole + 1.0) * n) * pm.ranks)) * extra
                                               : read(cover);
    r.kv_bytes = (kv_bytes_for_context(m, tokens(c)) * pm.kv_gpu_share * ds +
                  kv_bytes_for_context(m, tokens(p + n)) * pm.kv_gpu_share * ps) * pm.pp;
    r.activation_bytes = m.residual_format().bytes_for(t * m.layers * pm.activation_elements);
    return detail::finish(pm, r, t, expert_flops, logits, cover);
}

[[nodiscard]] constexpr pass_cost step_pass(const deployment& d, const step_shape& s) {
    return step_pass(prepare_pass(d), s);
}

namespace detail {
/// The attention terms of a decode-only step (`ds` sequences at context `c`), computed exactly as
/// `step_pass` computes them: what the closed-form decode sum needs at its second point.
struct decode_attention_times {
    seconds_t compute, memory;
};
[[nodiscard]] constexpr decode_attention_times decode_attention(const pass_model& pm, double ds, double c) {
    const model& m = pm.d.m;
    const flops_t work = flops((ds * attention_pairs(m, c, 1.0) * pm.pair_flops_decode +
                                0.0 * attention_pairs(m, 0.0, 0.0) * pm.pair_flops_prefill) / pm.tp);
    const bytes_t kv = (kv_bytes_for_context(m, tokens(c)) * pm.kv_gpu_share * ds +
                        kv_bytes_for_context(m, tokens(0.0)) * pm.kv_gpu_share * 0.0) * pm.pp;
    return {.compute = pm.attention_peak.value() > 0
                           ? compute_time(work, pm.attention_peak * pm.d.hw.gpu.efficiency.attention)
                           : seconds(0.0),
            .memory = transfer_time(kv, pm.bandwidth)};
}
}  // namespace detail

/// One decode pass: `batch` sequences (per attention rank), each appending one token to a context
/// of `context` tokens (seed S13, S14, S27).
template <token_count T>
[[nodiscard]] constexpr pass_cost decode_pass(const pass_model& pm, double batch, const T& context) {
    return step_pass(pm, {.decode_sequences = batch, .decode_context = in_base_units(context)});
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

/// Prefill of a prompt in chunks of `chunk` tokens (chunked prefill, as vLLM and TensorRT-LLM do to
/// bound a step's length): the weights are streamed once per chunk, attention sees the growing prefix.
template <token_count T, token_count U>
[[nodiscard]] constexpr seconds_t chunked_prefill_time(const deployment& d, double batch, const T& prompt, const U& chunk) {
    const double n = in_base_units(prompt).value();
    const double c = in_base_units(chunk).value();
    seconds_t total = seconds(0.0);
    for (double done = 0; done < n; done += c) {
        const double step = detail::min(c, n - done);
        total = total + prefill_pass(d, batch, tokens(step), tokens(done)).time();
    }
    return total;
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
    // Pieces where every term is linear in x: split at the sliding window.
    const attention_spec& a = pm.d.m.attention;
    const double w = a.sliding_window > 0 && a.sliding_window_layers > 0 ? static_cast<double>(a.sliding_window) : 0.0;
    auto piece = [&](double lo, double hi) {
        if (hi < lo) return 0.0;
        const pass_cost p0 = decode_pass(pm, batch, tokens(lo));
        const detail::decode_attention_times p1 = detail::decode_attention(pm, batch, lo + 1.0);
        if (lo == x0) s.first_step = p0.time();
        // Only attention grows with the context; every other term is the same at each step.
        const double bc = (p1.compute - p0.attention_compute_time).value();
        const double bm = (p1.memory - p0.attention_memory_time).value();
        const double ac = p0.attention_compute_time.value() - bc * lo;
        const double am = p0.attention_memory_time.value() - bm * lo;
        const double fixed = (p0.time() - p0.attention_time()).value() * (hi - lo + 1.0);
        return detail::sum_max_of_lines(ac, bc, am, bm, lo, hi) + fixed;
    };
    const double total = w > 0 && x0 < w && x1 >= w ? piece(x0, w - 1.0) + piece(w, x1) : piece(x0, x1);
    s.total = seconds(total);
    if (with_last_step) s.last_step = decode_pass(pm, batch, tokens(x1)).time();
    return s;
}

template <token_count T>
[[nodiscard]] constexpr decode_sum decode_steps(const deployment& d, double batch, const T& prompt, double steps) {
    return decode_steps(prepare_pass(d), batch, prompt, steps);
}

}  // namespace llmcost
