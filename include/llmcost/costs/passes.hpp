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

struct pass_cost {
    flops_t flops;              ///< per tensor-parallel rank
    bytes_t weight_bytes;       ///< weights streamed from HBM
    bytes_t kv_bytes;           ///< KV cache read (and, for prefill, written)
    bytes_t activation_bytes;   ///< hidden states in and out of HBM (a small term)
    seconds_t compute_time;     ///< FLOPs ÷ (peak × efficiency)
    seconds_t memory_time;      ///< bytes ÷ (HBM bandwidth × efficiency)
    seconds_t tp_time;          ///< tensor-parallel all-reduces, 2 per layer (S13)
    seconds_t ep_time;          ///< expert-parallel all-to-all, dispatch and combine (S21)
    seconds_t pp_time;          ///< hand-offs between pipeline stages

    [[nodiscard]] constexpr bytes_t bytes() const { return weight_bytes + kv_bytes + activation_bytes; }
    /// max(compute, memory) — the roofline (Williams et al. 2009).
    [[nodiscard]] constexpr seconds_t roofline_time() const {
        return compute_time > memory_time ? compute_time : memory_time;
    }
    [[nodiscard]] constexpr seconds_t communication_time() const { return tp_time + ep_time + pp_time; }
    /// t = max(compute, memory) + communication (not overlapped: a conservative, common choice).
    [[nodiscard]] constexpr seconds_t time() const { return roofline_time() + communication_time(); }
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

/// Fill in times from work and traffic.
[[nodiscard]] constexpr pass_cost finish(const deployment& d, pass_cost c, double tokens_per_rank) {
    const accelerator& g = d.hw.gpu;
    const flops_per_second_t peak = g.sustained_peak(d.m.activations.compute);
    const model& m = d.m;
    c.compute_time = peak.value() > 0 ? compute_time(c.flops, peak) : seconds(1.0 / 0.0);
    c.memory_time = transfer_time(c.bytes(), g.sustained_hbm_bandwidth());
    const bytes_t hidden_state = m.activations.bytes_for(tokens_per_rank * m.hidden);
    c.tp_time = all_reduce_time(hidden_state, d.layout.tp, tp_link(d), tp_algorithm(d)) *
                static_cast<double>(tp_all_reduces_per_pass(d));
    c.ep_time = all_to_all_time_per_pass(d, tokens_per_rank);
    c.pp_time = d.layout.pp > 1
                    ? point_to_point_time(hidden_state / static_cast<double>(d.layout.tp), d.link_for(d.layout.tp * d.layout.pp)) *
                          static_cast<double>(d.layout.pp - 1)
                    : seconds(0.0);
    return c;
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
    const double dense = static_cast<double>(b.total() - b.routed_experts - b.embedding);
    const double pp = d.layout.pp;
    return d.m.weights.bytes_for(dense) / static_cast<double>(d.layout.tp) +
           expert_bytes_read_per_gpu(d, routed_tokens) * pp;
}

/// One decode pass: `batch` sequences (per attention rank), each appending one token to a context
/// of `context` tokens. Bytes = weights touched + every sequence's KV + activations; FLOPs =
/// 2 · params · batch + attention over the context (seed S13, S14, S27).
template <token_count T>
[[nodiscard]] constexpr pass_cost decode_pass(const deployment& d, double batch, const T& context) {
    const model& m = d.m;
    const double c = in_base_units(context).value();
    const double tp = d.layout.tp;
    const double routed = batch * d.attention_ranks();
    pass_cost r{};
    const double expert_flops = m.is_moe()
        ? 2.0 * batch * m.ffn.top_k * static_cast<double>(expert_parameters(m)) * m.moe_layers() : 0.0;
    r.flops = flops((2.0 * batch * detail::non_expert_matmul_parameters(m) + expert_flops +
                     batch * detail::attention_pairs(m, c, 1.0) * detail::attention_flops_per_pair(m, true)) / tp);
    r.weight_bytes = weight_bytes_read(d, routed);
    r.kv_bytes = kv_bytes_per_gpu_for_context(d, context) * (batch * d.layout.pp);
    // Hidden states: read and written ~4 times per layer (residual, norm, attention out, FFN out).
    r.activation_bytes = m.activations.bytes_for(4.0 * batch * m.hidden * m.layers) / tp;
    return detail::finish(d, r, batch);
}

/// One prefill pass over `batch` sequences of `new_tokens` each, after `cached` tokens already in
/// the KV cache (a prefix-cache hit: seed S6). Only new tokens are computed; they attend to the
/// whole context. The LM head runs for the last position only (the first output token).
template <token_count T, token_count U>
[[nodiscard]] constexpr pass_cost prefill_pass(const deployment& d, double batch, const T& new_tokens, const U& cached) {
    const model& m = d.m;
    const double n = in_base_units(new_tokens).value();
    const double p = in_base_units(cached).value();
    const double tp = d.layout.tp;
    const double t = batch * n;
    const parameter_breakdown b = parameters(m);
    const double lm_head = static_cast<double>(b.lm_head > 0 ? b.lm_head : b.embedding);  // tied: the embedding
    pass_cost r{};
    const double expert_flops = m.is_moe()
        ? 2.0 * t * m.ffn.top_k * static_cast<double>(expert_parameters(m)) * m.moe_layers() : 0.0;
    r.flops = flops((2.0 * t * (detail::non_expert_matmul_parameters(m) - lm_head) + 2.0 * batch * lm_head +
                     expert_flops + batch * detail::attention_pairs(m, p, n) * detail::attention_flops_per_pair(m, false)) / tp);
    r.weight_bytes = weight_bytes_read(d, t * d.attention_ranks());
    // Read the cached prefix, write the new tokens' KV: the whole context once per sequence.
    r.kv_bytes = kv_bytes_per_gpu_for_context(d, tokens(p + n)) * (batch * d.layout.pp);
    r.activation_bytes = m.activations.bytes_for(4.0 * t * m.hidden * m.layers) / tp;
    return detail::finish(d, r, t);
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

/// Σ over decode steps of the pass time, in closed form. Each step's roofline is
/// max(a_c + b_c·x, a_m + b_m·x) in the context x (KV reads and attention grow linearly), so the sum
/// over x = x₀ … x₁ splits at the crossover x* and at the sliding window into arithmetic series.
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
    double k = cross < x0 ? x0 - 1.0 : (cross > x1 ? x1 : static_cast<double>(static_cast<long long>(cross)));
    return series(a_lo, b_lo, x0, k) + series(a_hi, b_hi, k + 1.0, x1);
}
}  // namespace detail

/// The decode of one request: steps at contexts x₀ = prompt … prompt + steps − 1, `batch`
/// neighbours sharing every pass (continuous batching at a steady batch: seed S4, S5, S15).
template <token_count T>
[[nodiscard]] constexpr decode_sum decode_steps(const deployment& d, double batch, const T& prompt, double steps) {
    decode_sum s{};
    s.steps = steps;
    if (steps <= 0) return s;
    const double x0 = in_base_units(prompt).value();
    const double x1 = x0 + steps - 1.0;
    // Pieces where every term is linear in x: split at the sliding window.
    const double w = d.m.attention.sliding_window > 0 && d.m.attention.sliding_window_layers > 0
                         ? static_cast<double>(d.m.attention.sliding_window) : 0.0;
    double total = 0.0;
    auto piece = [&](double lo, double hi) {
        if (hi < lo) return 0.0;
        const pass_cost p0 = decode_pass(d, batch, tokens(lo));
        const pass_cost p1 = decode_pass(d, batch, tokens(lo + 1.0));
        const double bc = (p1.compute_time - p0.compute_time).value();
        const double bm = (p1.memory_time - p0.memory_time).value();
        const double ac = p0.compute_time.value() - bc * lo;
        const double am = p0.memory_time.value() - bm * lo;
        const double comm = p0.communication_time().value() * (hi - lo + 1.0);
        return detail::sum_max_of_lines(ac, bc, am, bm, lo, hi) + comm;
    };
    if (w > 0 && x0 < w && x1 >= w) {
        total = piece(x0, w - 1.0) + piece(w, x1);
    } else {
        total = piece(x0, x1);
    }
    s.total = seconds(total);
    s.first_step = decode_pass(d, batch, tokens(x0)).time();
    s.last_step = decode_pass(d, batch, tokens(x1)).time();
    return s;
}

}  // namespace llmcost
