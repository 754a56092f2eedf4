#pragma once
/// \file
/// Cost by context tier (seed T10): an output token at a longer context reads more KV, so fewer
/// sequences share a pass and each costs more.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/serving/economics/token_cost.hpp>

namespace llmcost {

/// Output cost of a deployment at one context: the batch the KV budget allows, the GPU time per
/// token and the $ per token.
struct context_cost {
    double batch = 0.0;                  ///< min(max_sequences(context), batch cap); 0 = does not fit
    seconds_per_token_t gpu_time_per_token;  ///< decode GPU-seconds per output token
    dollars_per_token_t output;          ///< +∞ when not even one sequence fits
};

/// c_out(x) = C(u) ÷ u × GPU-s(decode pass at b(x), x) ÷ b(x), b(x) = min(⌊KV budget ÷ KV(x)⌋, cap) —
/// longer contexts read more KV per token and fit fewer sequences per pass (T10).
[[nodiscard]] constexpr context_cost output_cost_at_context(const deployment& d, const facility& f,
                                                            const tokens_t& context, double utilisation,
                                                            double batch_cap = 256.0, memory_reserve reserve = {},
                                                            gpu_cost_options o = {}) {
    require(batch_cap >= 1.0 && positive_finite(batch_cap), "output_cost_at_context", "batch_cap", batch_cap,
            "must be at least 1");
    require(utilisation > 0.0 && utilisation <= 1.0, "output_cost_at_context", "utilisation", utilisation,
            "must be in (0, 1]");
    context_cost c{};
    c.batch = detail::min(max_sequences(d, context, reserve), detail::const_trunc(batch_cap));
    const dollars_per_second_t busy = gpu_hour_cost(d.hw, f, utilisation, o).total() / utilisation;
    if (c.batch < 1.0) {
        c.gpu_time_per_token = seconds_per_token_t::from_value(detail::infinity);
        c.output = dollars_per_token_t::from_value(detail::infinity);
        return c;
    }
    const pass_cost p = decode_pass(d, c.batch, context);
    c.gpu_time_per_token = detail::gpu_seconds_per_pass(d, p) / tokens(c.batch * d.attention_ranks());
    c.output = busy * c.gpu_time_per_token;
    return c;
}

}  // namespace llmcost
