#pragma once
/// \file
/// Traffic as descriptors: how long requests are (a length distribution for the prompt and one for
/// the answer) and when they come (an arrival process). Real traffic is heavy-tailed: the live
/// batch of a continuous-batching engine is length-biased, its KV occupancy and attention cost
/// follow E[L²] ÷ E[L], not E[L] (renewal theory's inspection paradox), so the moments are part of
/// the descriptor. Draws from them (`workload::sampler`, deterministic under a seed on every
/// compiler) are in sim/sampler.hpp.
///
/// **Example**
/// \code
/// const workload::traffic t{.input = workload::lognormal(1000_tok, 1500_tok, 32000_tok),
///                           .output = workload::uniform(100_tok, 300_tok),
///                           .arrivals = workload::poisson(250_ms)};
/// t.validate();
/// t.input.mean();          // 1000 (of the untruncated law)
/// \endcode

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/units/makers.hpp>

#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>

namespace llmcost::workload {

/// The shape of a length distribution.
enum class length_law { fixed, uniform, lognormal, histogram };

/// One bin of an empirical histogram: lengths lo … hi (integers, inclusive), drawn uniformly,
/// with a weight (any positive scale: the weights are normalised).
struct length_bin {
    double lo = 1, hi = 1, weight = 1;
};

/// A distribution of token counts (≥ 1). Make one with `fixed`, `uniform`, `lognormal` or
/// `histogram`; a histogram refers to bins it does not own (a catalog array, or the caller's vector).
struct length_distribution {
    length_law law = length_law::fixed;
    tokens_t value{};   ///< fixed: the length; uniform: the lowest; lognormal: the mean
    tokens_t high{};    ///< uniform: the highest (inclusive)
    tokens_t spread{};  ///< lognormal: the standard deviation
    tokens_t max{};     ///< lognormal: draws above it are drawn again (0: no limit)
    std::span<const length_bin> bins{};

    constexpr void validate(std::string_view what) const {
        switch (law) {
            case length_law::fixed:
                require(value.value() >= 1.0 && non_negative_finite(value.value()), what, "length (tokens)",
                        value.value(), "a request has at least one token", "llmcost.workload.length_positive");
                break;
            case length_law::uniform:
                require(value.value() >= 1.0 && non_negative_finite(value.value()), what, "uniform low (tokens)",
                        value.value(), "a request has at least one token", "llmcost.workload.length_positive");
                require(high.value() >= value.value() && non_negative_finite(high.value()), what,
                        "uniform high (tokens)", high.value(), "must be finite and at least the low end",
                        "llmcost.workload.uniform_order");
                break;
            case length_law::lognormal:
                require(value.value() >= 1.0 && non_negative_finite(value.value()), what, "lognormal mean (tokens)",
                        value.value(), "a request has at least one token", "llmcost.workload.length_positive");
                require(positive_finite(spread.value()), what, "lognormal spread (tokens)", spread.value(),
                        "the standard deviation must be positive and finite", "llmcost.workload.spread_positive");
                require(max.value() == 0.0 || (max.value() >= value.value() && non_negative_finite(max.value())),
                        what, "lognormal max (tokens)", max.value(), "must be 0 (no limit) or at least the mean",
                        "llmcost.workload.max_above_mean");
                break;
            case length_law::histogram: {
                require(!bins.empty(), what, "histogram bins", 0.0, "a histogram needs at least one bin",
                        "llmcost.workload.histogram_bins");
                double total = 0.0;
                for (const length_bin& b : bins) {
                    require(b.lo >= 1.0 && b.hi >= b.lo && non_negative_finite(b.hi), what, "histogram bin (tokens)",
                            b.lo, "a bin spans lo ≤ hi, both at least one token and finite",
                            "llmcost.workload.histogram_bins");
                    require(non_negative_finite(b.weight), what, "histogram weight", b.weight,
                            "must be zero or positive and finite", "llmcost.workload.histogram_bins");
                    total += b.weight;
                }
                require(total > 0.0, what, "histogram weights", total, "at least one bin needs a positive weight",
                        "llmcost.workload.histogram_bins");
                break;
            }
        }
    }

    /// E[L]: L; (a + b) ÷ 2; the lognormal's mean (before truncation); Σ wᵢ·(loᵢ + hiᵢ)/2 ÷ Σ wᵢ.
    [[nodiscard]] constexpr double mean() const {
        switch (law) {
            case length_law::fixed: return value.value();
            case length_law::uniform: return (value.value() + high.value()) / 2.0;
            case length_law::lognormal: return value.value();
            case length_law::histogram: break;
        }
        double w = 0.0, s = 0.0;
        for (const length_bin& b : bins) {
            w += b.weight;
            s += b.weight * (b.lo + b.hi) / 2.0;
        }
        return s / w;
    }
    /// E[L²] = Var + E[L]²: 0 for fixed; ((b − a + 1)² − 1) ÷ 12 for integers uniform on a … b;
    /// σ² for the lognormal (before truncation); a histogram's bins are discrete uniforms, mixed.
    [[nodiscard]] constexpr double second_moment() const {
        auto uniform_m2 = [](double a, double b) {
            const double n = b - a + 1.0, m = (a + b) / 2.0;
            return (n * n - 1.0) / 12.0 + m * m;
        };
        switch (law) {
            case length_law::fixed: return value.value() * value.value();
            case length_law::uniform: return uniform_m2(value.value(), high.value());
            case length_law::lognormal: return spread.value() * spread.value() + value.value() * value.value();
            case length_law::histogram: break;
        }
        double w = 0.0, s = 0.0;
        for (const length_bin& b : bins) {
            w += b.weight;
            s += b.weight * uniform_m2(b.lo, b.hi);
        }
        return s / w;
    }
    /// E[L²] ÷ E[L]: the mean length of the sequence a random token belongs to (length bias).
    [[nodiscard]] constexpr double length_biased_mean() const { return second_moment() / mean(); }
    /// The longest length a draw can take (infinity for an unbounded lognormal).
    [[nodiscard]] constexpr double longest() const {
        switch (law) {
            case length_law::fixed: return value.value();
            case length_law::uniform: return high.value();
            case length_law::lognormal: return max.value() > 0.0 ? max.value() : detail::infinity;
            case length_law::histogram: break;
        }
        double m = 0.0;
        for (const length_bin& b : bins)
            if (b.weight > 0.0) m = detail::max(m, b.hi);
        return m;
    }
    /// The length checked against a model's context: `longest()`, or an unbounded lognormal's
    /// mean (its tail has no longest draw; a simulator checks each drawn length on its own).
    [[nodiscard]] constexpr double longest_checked() const {
        const double l = longest();
        return l < detail::infinity ? l : mean();
    }
};

/// Every request has `length` tokens.
[[nodiscard]] constexpr length_distribution fixed(tokens_t length) {
    return {.law = length_law::fixed, .value = length};
}
/// Integers from `low` to `high`, each as likely.
[[nodiscard]] constexpr length_distribution uniform(tokens_t low, tokens_t high) {
    return {.law = length_law::uniform, .value = low, .high = high};
}
/// A lognormal of this mean and standard deviation, rounded to whole tokens (at least one), draws
/// above `max` (if given) drawn again.
[[nodiscard]] constexpr length_distribution lognormal(tokens_t mean, tokens_t sd, tokens_t max = {}) {
    return {.law = length_law::lognormal, .value = mean, .spread = sd, .max = max};
}
/// An empirical histogram (the bins are referred to, not copied).
[[nodiscard]] constexpr length_distribution histogram(std::span<const length_bin> bins) {
    return {.law = length_law::histogram, .bins = bins};
}

/// How requests arrive.
enum class arrival_law {
    poisson,      ///< independent exponential gaps of mean 1/λ
    gamma,        ///< gamma gaps of mean 1/λ and coefficient of variation cv (cv > 1: bursts)
    trace,        ///< the times of a trace file, replayed
    closed_loop,  ///< N clients, each sending its next request when its last one is answered
};

struct arrival_process {
    arrival_law law = arrival_law::poisson;
    seconds_t mean_gap{};  ///< 1/λ, the mean time between arrivals (poisson, gamma)
    double cv = 1.0;       ///< gamma: the gaps' coefficient of variation (1 = Poisson)
    double clients = 0;    ///< closed loop: concurrent clients

    constexpr void validate() const {
        if (law == arrival_law::poisson || law == arrival_law::gamma)
            require(positive_finite(mean_gap.value()), "arrivals", "mean gap (s)", mean_gap.value(),
                    "the arrival rate must be positive and finite (a rate of 0, NaN or inf has no mean gap)",
                    "llmcost.workload.rate_positive");
        if (law == arrival_law::gamma)
            require(positive_finite(cv), "arrivals", "cv", cv, "the gaps' coefficient of variation must be positive and finite",
                    "llmcost.workload.cv_positive");
        if (law == arrival_law::closed_loop)
            require(clients >= 1.0 && clients <= 1e7 && detail::const_trunc(clients) == clients, "arrivals", "clients",
                    clients, "a closed loop has a whole number of clients, at least one",
                    "llmcost.workload.clients_whole");
    }
    /// λ, requests per second (0 for a trace or a closed loop: set by the trace, or by the engine).
    [[nodiscard]] constexpr double rate_per_second() const {
        return law == arrival_law::poisson || law == arrival_law::gamma ? 1.0 / mean_gap.value() : 0.0;
    }
};

/// Poisson arrivals, one every `mean_gap` on average.
template <duration T>
[[nodiscard]] constexpr arrival_process poisson(const T& mean_gap) {
    return {.law = arrival_law::poisson, .mean_gap = in_base_units(mean_gap)};
}
/// Gamma-distributed gaps (burstiness: cv > 1 clusters arrivals, cv < 1 spaces them).
template <duration T>
[[nodiscard]] constexpr arrival_process gamma(const T& mean_gap, double cv) {
    return {.law = arrival_law::gamma, .mean_gap = in_base_units(mean_gap), .cv = cv};
}
/// N clients in a closed loop.
[[nodiscard]] constexpr arrival_process closed_loop(double clients) {
    return {.law = arrival_law::closed_loop, .clients = clients};
}

/// The most requests per second an arrival rate takes where a user states one (the CLI's `--rate` on every
/// command, Python's `rate=`; README: "`--rate` at most 10^6 requests/s"): one bound for every surface.
inline constexpr double max_requests_per_second = 1e6;

/// A workload: prompt lengths, answer lengths and arrivals (for a trace, the trace's own).
struct traffic {
    length_distribution input = fixed(tokens(1000.0));
    length_distribution output = fixed(tokens(200.0));
    arrival_process arrivals = poisson(seconds(1.0));

    /// The context checked against a model's max_position: input.longest_checked() + output.longest_checked().
    [[nodiscard]] constexpr tokens_t longest_context() const {
        return tokens(input.longest_checked() + output.longest_checked());
    }

    constexpr void validate() const {
        input.validate("input lengths");
        output.validate("output lengths");
        arrivals.validate();
        require(arrivals.law != arrival_law::trace, "arrivals", "law", 0.0,
                "trace replay takes its times from a trace (sim::simulate with a request list)",
                "llmcost.workload.trace_needs_file");
    }
};

/// The latest arrival a replayed trace may state, s (ASSUMED: 10^9 s, 31.7 years; a double resolves a time near it
/// to 1.2e-7 s, so a step of microseconds or more stays exact to several digits; at 10^308 every TTFT read 0 s).
inline constexpr double max_arrival_s = 1e9;

/// One request of a workload: when it arrives and its lengths; `prefix` names a shared prefix
/// (−1: none).
struct request {
    seconds_t arrival{};
    tokens_t input{}, output{};
    long prefix = -1;
};

}  // namespace llmcost::workload
