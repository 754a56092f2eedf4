#pragma once
/// \file
/// Time to finish a task (seed T8): retries of a task that succeeds with probability p, the time
/// to generate what it needs, and the token budget that matches a rival's time.

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

namespace llmcost {

/// E[retries] = (1 − p) ÷ p — failed attempts before the first success, each succeeding with
/// probability p (geometric distribution).
[[nodiscard]] constexpr double expected_retries(double success_probability) {
    require(success_probability > 0.0 && success_probability <= 1.0, "expected_retries", "success_probability",
            success_probability, "must be in (0, 1]");
    return (1.0 - success_probability) / success_probability;
}

/// t = (N + retries · N_retry) ÷ R — time to finish a task: tokens it needs over the speed, plus
/// the tokens its retries burn (T8: tokens per second alone is the wrong metric).
[[nodiscard]] constexpr seconds_t time_to_finish(const tokens_t& needed, const tokens_per_second_t& rate,
                                                 double retries = 0.0, const tokens_t& tokens_per_retry = tokens(0.0)) {
    require(positive_finite(rate.value()), "time_to_finish", "rate (tokens/s)", rate.value(),
            "must be positive and finite");
    require(non_negative_finite(needed.value()), "time_to_finish", "needed (tokens)", needed.value(),
            "must be zero or positive and finite");
    require(non_negative_finite(retries), "time_to_finish", "retries", retries, "must be zero or positive");
    require(non_negative_finite(tokens_per_retry.value()), "time_to_finish", "tokens_per_retry", tokens_per_retry.value(),
            "must be zero or positive and finite");
    return (needed + tokens_per_retry * retries) / rate;
}

/// N_max = R × t_rival — the most tokens a model at `rate` may spend and still finish no later than
/// a rival that takes `rival_time` (T8: a 3× slower model wins if it needs under 1/3 of the tokens).
[[nodiscard]] constexpr tokens_t token_budget_to_match(const seconds_t& rival_time, const tokens_per_second_t& rate) {
    return rate * rival_time;
}

}  // namespace llmcost
