#pragma once
/// \file
/// Prefix caching (seed S6, S33): a prompt whose beginning this node has already seen skips the
/// prefill of those tokens, because their KV cache is still in memory. Here: the prefill saved
/// at a cached fraction or a hit rate; what a cached input token costs next to a computed one
/// (reading its KV from HBM, or restoring it from host DRAM or storage); and S6's routing — the
/// same conversation on the node that holds its KV, or on one that does not.
///
/// Costs are GPU-seconds per input token (time × GPUs busy), so they compare across layouts.
/// Restores are not overlapped with compute (a conservative choice, like `pass_cost::time`).
///
/// ## When does a cached token cost 1/10 of a computed one (S33)?
/// A computed input token costs ≈ 2·N_active FLOPs (+ attention); a cached one costs moving its
/// KV (S16: 327,680 B for a 70B-class model) into HBM. The ratio is
///     r = kv_bytes_per_token ÷ B_tier  ÷  (prefill GPU-seconds per token),
/// so r ≈ 1/10 when the tier the cache comes from delivers B* = kv_bytes ÷ (0.1 · t_token)
/// (`bandwidth_for_ratio`). For the seed's dashboard deployment (≈ 40 µs of FLOPs
/// per token at 2 PFLOP/s) B* ≈ 80 GB/s: a PCIe 5 ×16 host link or a 2 × 400 Gb/s RDMA fabric —
/// the tiers where providers keep prompt caches. From HBM the ratio is ≈ 1/2,400 (reading is
/// almost free), from the seed GPU's 450 GB/s host memory ≈ 1/55, from 7 GB/s NVMe ≈ 1.2 (worse
/// than recomputing). The condition moves with the model and GPU: Llama-3.1-70B in BF16 on 8 ×
/// H100 spends ≈ 0.4 ms of GPU time per computed token of a 2,000-token prompt, so restoring from
/// each GPU's 7 GB/s NVMe already comes out at ≈ 0.11. A price of 1/10 therefore matches a cache
/// kept below HBM and restored over a path of the order of B*, or an HBM cache priced for what
/// holding it costs (the capacity it takes from the batch), which this model does not price. S33 itself warns that prices are not set by
/// structure alone. Figures in this comment come from the pass model when it was written; the
/// tests check relations.

#include <llmcost/costs/collectives.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/serving/economics.hpp>
#include <llmcost/descriptors/validation.hpp>

namespace llmcost {

namespace detail {
constexpr void require_fraction(double f, std::string_view field) {
    require(f >= 0.0 && f <= 1.0, "prefix cache", field, f, "a fraction must be in [0, 1]");
}
template <token_count T>
constexpr void require_prompt(const T& prompt) {
    const double p = in_base_units(prompt).value();
    require(p >= 1.0 && p <= 1e9, "prefix cache", "prompt (tokens)", p, "a prompt holds at least one token");
}
}  // namespace detail

namespace prefix_cache {

/// The prefill of one prompt with and without its cached part.
struct prefill_comparison {
    seconds_t uncached;  ///< every prompt token computed
    seconds_t cached;    ///< only the tokens after the cached prefix computed; the prefix read from HBM
    /// saved = uncached − cached — the TTFT saving (S6, S11: the prefill sets TTFT).
    [[nodiscard]] constexpr seconds_t saving() const { return uncached - cached; }
    [[nodiscard]] constexpr double saving_fraction() const { return ratio(saving(), uncached); }
};

/// new = fresh_prompt_tokens(P, h), cached = P − new; t = prefill_pass(new after cached) vs prefill_pass(P)
/// (S6), h ∈ [0, 1) (`require_prefix_hit_rate`). At least one token is always computed: a full hit still needs the
/// last position's logits (vLLM recomputes the last token for the same reason).
template <token_count T>
[[nodiscard]] constexpr prefill_comparison prefill_times(const deployment& d, const T& prompt,
                                                                        double cached_fraction, double batch = 1.0) {
    detail::require_prompt(prompt);
    require_prefix_hit_rate("prefix cache", "cached_fraction", cached_fraction);
    require(batch >= 1.0, "prefix cache", "batch", batch, "at least one prompt per pass");
    const double p = in_base_units(prompt).value();
    const double fresh = fresh_prompt_tokens(tokens(p), cached_fraction).value();
    return prefill_comparison{.uncached = prefill_pass(d, batch, tokens(p), tokens(0.0)).time(),
                                .cached = prefill_pass(d, batch, tokens(fresh), tokens(p - fresh)).time()};
}

/// E[t] = r · t(prefix cached) + (1 − r) · t(nothing cached) — a prefix of `prefix` tokens is
/// found in the cache with probability r (the hit rate).
template <token_count T, token_count U>
[[nodiscard]] constexpr seconds_t expected_prefill(const deployment& d, const T& prompt, const U& prefix,
                                                                double hit_rate, double batch = 1.0) {
    detail::require_prompt(prompt);
    detail::require_fraction(hit_rate, "hit_rate");
    const double p = in_base_units(prompt).value();
    const double h = in_base_units(prefix).value();
    require(h >= 0.0 && h < p, "prefix cache", "prefix (tokens)", h,
            "must be in [0, prompt): at least the prompt's last token is computed (`require_prefix_hit_rate`)");
    const prefill_comparison t = prefill_times(d, prompt, h / p, batch);
    return t.cached * hit_rate + t.uncached * (1.0 - hit_rate);
}

// ---- what a cached input token costs (S33) ---------------------------------------------------
// The rates come from serving/economics (`gpu_token_rates_at`, `kv_restore_source`), so that the
// library gives one answer to "what does a cached token cost"; this header adds the condition.

/// GPU-seconds per input token, computed vs cached.
struct token_cost {
    seconds_per_token_t computed;  ///< 1 ÷ R_prefill: prefill GPU-seconds per prompt token
    seconds_per_token_t cached;    ///< 1 ÷ R_cached: GPU-seconds to read one token's KV back from the tier
    /// cached ÷ computed — S33's price lists say 1/10 (= economics' `cached_input_cost_ratio`).
    [[nodiscard]] constexpr double ratio() const { return llmcost::ratio(cached * tokens(1.0), computed * tokens(1.0)); }
};

}  // namespace prefix_cache

namespace detail {
template <token_count T>
[[nodiscard]] constexpr gpu_token_rates prefix_cache_rates(const deployment& d, const T& prompt, kv_restore_source from,
                                                           double batch) {
    detail::require_prompt(prompt);
    require(batch >= 1.0, "prefix cache", "batch", batch, "at least one prompt per pass");
    return gpu_token_rates_at(d, pricing_point{.decode_batch = 1.0, .context = in_base_units(prompt),
                                               .prefill_batch = batch, .prompt = in_base_units(prompt),
                                               .cached_from = from});
}
}  // namespace detail

namespace prefix_cache {

/// computed = 1 ÷ R_prefill = t_prefill(P) · GPU share ÷ (batch · P); cached = 1 ÷ R_cached =
/// tp·pp · (KV B/token/GPU) ÷ B_tier — one cached token's KV moved into (or, from HBM, read
/// through) every GPU that holds a shard of it, instead of computing it (S6, S16, S17, S33).
template <token_count T>
[[nodiscard]] constexpr token_cost token_costs(const deployment& d, const T& prompt,
                                                                         kv_restore_source from, double batch = 1.0) {
    const gpu_token_rates r = detail::prefix_cache_rates(d, prompt, from, batch);
    return token_cost{.computed = 1.0 / r.prefill, .cached = 1.0 / r.cached};
}

/// B* = R_prefill · tp·pp · (KV B/token/GPU) ÷ r — the restore bandwidth at which a cached token
/// costs r × a computed one (S33: r = 1/10). A tier slower than B* makes a cached token dearer than r.
template <token_count T>
[[nodiscard]] constexpr bytes_per_second_t bandwidth_for_ratio(const deployment& d, const T& prompt,
                                                                           double target_ratio, double batch = 1.0) {
    require(positive_finite(target_ratio), "prefix cache", "target_ratio", target_ratio, "must be positive and finite");
    const gpu_token_rates r = detail::prefix_cache_rates(d, prompt, kv_restore_source::hbm, batch);
    const bytes_t per_token = kv_bytes_per_token_per_gpu(d) * tokens(1.0) * static_cast<double>(d.layout.tp * d.layout.pp);
    return per_token * (r.prefill / tokens(1.0)) / target_ratio;
}

// ---- routing: the node that holds the conversation (S6) ------------------------------------------

/// TTFT's prefill part for the next turn of a conversation, by where it is routed.
struct routing {
    seconds_t on_holder;          ///< the history's KV is in this node's HBM: prefill the new turn only
    seconds_t recompute_elsewhere;  ///< another node: prefill history + new turn from scratch
    seconds_t fetch_elsewhere;    ///< another node pulls the history's KV over the scale-out NIC, then prefills the new turn
    /// penalty = min(recompute, fetch) − on_holder — what routing to the wrong node costs (S6).
    [[nodiscard]] constexpr seconds_t penalty() const {
        return (recompute_elsewhere < fetch_elsewhere ? recompute_elsewhere : fetch_elsewhere) - on_holder;
    }
};

/// on_holder = prefill(new after history); recompute = prefill(history + new);
/// fetch = α + KV(history) per GPU ÷ NIC bandwidth (each GPU pulls its shard) + prefill(new after history).
template <token_count T, token_count U>
[[nodiscard]] constexpr routing routing_effect(const deployment& d, const T& history,
                                                                         const U& new_tokens) {
    const tokens_t h = in_base_units(history);
    const tokens_t n = in_base_units(new_tokens);
    require(non_negative_finite(h.value()), "prefix cache", "history (tokens)", h.value(),
            "must be zero or positive and finite");
    require(n.value() >= 1.0 && n.value() <= 1e9, "prefix cache", "new_tokens (tokens)", n.value(),
            "a new turn holds at least one token");
    const seconds_t holder = prefill_pass(d, 1.0, n, h).time();
    return routing{
        .on_holder = holder,
        .recompute_elsewhere = prefill_pass(d, 1.0, h + n, tokens(0.0)).time(),
        .fetch_elsewhere = point_to_point_time(kv_bytes_per_gpu_for_context(d, h), d.hw.scale_out) + holder};
}

}  // namespace prefix_cache

}  // namespace llmcost
