#pragma once
/// \file
/// A workload's length distributions as the closed forms take them: a `request_shape` whose
/// input and output are the means and whose spreads are the standard deviations, so that
/// `saturated`, `serve_at_batch`, `serve_online`, `estimate` and the sweeps price the live batch's
/// length bias (E[O²] ÷ E[O]) and the prompts' quadratic attention (E[I²]) — see `request_shape`.
///
/// **Example**
/// \code
/// const request_shape r = shape_of(workload::lognormal(1000_tok, 1500_tok), workload::fixed(200_tok));
/// r.input_spread;   // 1500 tokens
/// \endcode

#include <llmcost/descriptors/workload.hpp>
#include <llmcost/serving/throughput.hpp>

namespace llmcost {

/// E[L] and σ = √(E[L²] − E[L]²) of each distribution (`length_distribution::mean`,
/// `second_moment`: a lognormal's before its truncation at `max`), and a prefix-cache hit rate.
[[nodiscard]] constexpr request_shape shape_of(const workload::length_distribution& input,
                                               const workload::length_distribution& output, double cached_fraction = 0.0) {
    input.validate("input lengths");
    output.validate("output lengths");
    auto spread = [](const workload::length_distribution& l) {
        const double m = l.mean(), var = l.second_moment() - m * m;
        return tokens(var > 0.0 ? detail::const_sqrt(var) : 0.0);
    };
    const request_shape r{.input = tokens(input.mean()), .output = tokens(output.mean()), .cached_fraction = cached_fraction,
                          .input_spread = spread(input), .output_spread = spread(output)};
    r.validate();
    return r;
}

}  // namespace llmcost
