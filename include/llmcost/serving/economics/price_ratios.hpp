#pragma once
/// \file
/// The price ratios that follow from GPU-seconds (seed S33): output ÷ input, cached ÷ input, and
/// the decode batch at which a deployment's output/input ratio reaches a target.

#include <llmcost/serving/economics/token_cost.hpp>

namespace llmcost {

/// Output ÷ input cost = (1/R_decode) ÷ (1/R_prefill) = R_prefill ÷ R_decode — decode GPU-seconds
/// per token over prefill GPU-seconds per token; the GPU's cost cancels (S33: lists say 5–6).
[[nodiscard]] constexpr double output_input_cost_ratio(const gpu_token_rates& r) {
    r.validate();
    return ratio(r.prefill, r.decode);
}

/// Cached ÷ input cost = R_prefill ÷ R_cached — a KV read-back against a prefill (S33: lists say
/// 1/10). Without a prefix cache (R_cached = 0) a cached token is recomputed: 1.
[[nodiscard]] constexpr double cached_input_cost_ratio(const gpu_token_rates& r) {
    r.validate();
    return r.cached.value() > 0.0 ? ratio(r.prefill, r.cached) : 1.0;
}

/// The smallest decode batch b ∈ [1, min(max_batch, sequences of `p.context` the KV budget holds)]
/// at which output ÷ input cost ≤ `target` (decode GPU-s per token t(b)/b falls as b grows;
/// bisection on integers) (S33). 0 when even the largest batch leaves the ratio above the target.
/// The point's `decode_batch` is ignored.
[[nodiscard]] constexpr double decode_batch_for_cost_ratio(const deployment& d, pricing_point p, double target,
                                                           double max_batch, memory_reserve reserve = {}) {
    require(positive_finite(target), "decode_batch_for_cost_ratio", "target", target, "must be positive and finite");
    require(max_batch >= 1.0 && positive_finite(max_batch), "decode_batch_for_cost_ratio", "max_batch", max_batch,
            "must be at least 1");
    auto ratio_at = [&](double b) {
        p.decode_batch = b;
        return output_input_cost_ratio(gpu_token_rates_at(d, p));
    };
    double hi = detail::min(detail::const_trunc(max_batch), max_sequences(d, p.context, reserve));
    if (hi < 1.0 || ratio_at(hi) > target) return 0.0;
    if (ratio_at(1.0) <= target) return 1.0;
    double lo = 1.0;  // ratio(lo) > target ≥ ratio(hi)
    while (hi - lo > 1.0) {
        const double mid = detail::const_trunc((lo + hi) / 2.0);
        if (ratio_at(mid) > target) lo = mid; else hi = mid;
    }
    return hi;
}

}  // namespace llmcost
