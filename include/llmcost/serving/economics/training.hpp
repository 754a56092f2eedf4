#pragma once
/// \file
/// Inference against training (seed S34): what requests cost over time, and when inference
/// spending overtakes a one-off training bill.

#include <llmcost/serving/economics/token_cost.hpp>

namespace llmcost {

/// c_req = n_in · c_in + n_out · c_out + n_cached · c_cached — one request's inference cost.
[[nodiscard]] constexpr dollars_t inference_cost_per_request(const token_costs& c, const tokens_t& input,
                                                             const tokens_t& output,
                                                             const tokens_t& cached = tokens(0.0)) {
    return input * c.input + output * c.output + cached * c.cached;
}

/// C_inf = users × requests per user × c_req — inference is paid again for every request (S34).
[[nodiscard]] constexpr dollars_t cumulative_inference_cost(const dollars_t& per_request, double users,
                                                            double requests_per_user) {
    require(non_negative_finite(users), "cumulative_inference_cost", "users", users, "must be zero or positive");
    require(non_negative_finite(requests_per_user), "cumulative_inference_cost", "requests_per_user",
            requests_per_user, "must be zero or positive");
    return per_request * (users * requests_per_user);
}

/// n* = C_train ÷ c_req — requests after which inference has cost more than the one-off training (S34).
[[nodiscard]] constexpr double requests_to_overtake_training(const dollars_t& training_cost, const dollars_t& per_request) {
    require(non_negative_finite(training_cost.value()), "requests_to_overtake_training", "training_cost ($)",
            training_cost.value(), "must be zero or positive and finite");
    require(positive_finite(per_request.value()), "requests_to_overtake_training", "per_request ($)",
            per_request.value(), "a request must cost something for inference ever to overtake training");
    return ratio(training_cost, per_request);
}

}  // namespace llmcost
