#pragma once
/// \file
/// Static and continuous batching (seed S4) and how my speed depends on my neighbours (S5).
///
/// - Static batching: B requests start together and hold their slots until the longest ends, so a
///   batch uses mean(len) ÷ max(len) of its slot-steps.
/// - Continuous batching: one step appends one token to every request in the batch; at each step
///   boundary (refill granularity: one step) finished requests leave and waiting ones join, so no
///   slot idles while the queue is non-empty. A scheduler that refills only every g steps idles a
///   freed slot (g − 1) ÷ 2 steps on average.
/// - Throughput at a deployment = tokens per pass × passes per second = B · U ÷ t_pass(B, x).
///
/// **Example**
/// \code
/// const auto lengths = length_distribution::exponential(500_tok);
/// double u = static_expected_occupancy(lengths, 32);   // 1 ÷ H₃₂ ≈ 0.25
/// \endcode

#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/validation.hpp>

#include <cstddef>
#include <span>

namespace llmcost {

// ---- over an explicit list of output lengths ---------------------------------------------------

namespace detail {
constexpr void require_lengths(std::span<const tokens_t> lengths, std::string_view subject) {
    require(!lengths.empty(), subject, "lengths (count)", 0.0, "needs at least one output length");
    for (const tokens_t& l : lengths)
        require(positive_finite(l.value()), subject, "lengths (tokens)", l.value(),
                "an output length must be positive and finite");
}
constexpr void require_batch(int batch, std::string_view subject) {
    require(batch >= 1, subject, "batch", batch, "a batch holds at least one request");
}
}  // namespace detail

namespace batching {

/// U = mean(len) ÷ max(len) — one static batch: every slot is held until the longest request ends (S4).
[[nodiscard]] constexpr double static_batch_occupancy(std::span<const tokens_t> lengths) {
    detail::require_lengths(lengths, "static batch");
    double sum = 0.0, longest = 0.0;
    for (const tokens_t& l : lengths) {
        sum += l.value();
        longest = detail::max(longest, l.value());
    }
    return sum / static_cast<double>(lengths.size()) / longest;
}

/// T_static = Σ_k max(len in batch k) — steps to serve a queue in static batches of B, in arrival order.
[[nodiscard]] constexpr double static_steps(std::span<const tokens_t> lengths, int batch) {
    detail::require_lengths(lengths, "static batching");
    detail::require_batch(batch, "static batching");
    double steps = 0.0;
    for (std::size_t i = 0; i < lengths.size(); i += static_cast<std::size_t>(batch)) {
        double longest = 0.0;
        for (std::size_t j = i; j < lengths.size() && j < i + static_cast<std::size_t>(batch); ++j)
            longest = detail::max(longest, lengths[j].value());
        steps += longest;
    }
    return steps;
}

/// T_cont = makespan of continuous batching with B slots and refill every step: each queued
/// request takes the slot that frees first (all are waiting at step 0), so
/// T = max over slots of the lengths it served back to back. Exact for whole-token lengths.
[[nodiscard]] constexpr double continuous_steps(std::span<const tokens_t> lengths, int batch) {
    detail::require_lengths(lengths, "continuous batching");
    detail::require_batch(batch, "continuous batching");
    // The slots' free times, a new[] array (constexpr since C++20) rather than a std::vector: it
    // is the core's only dynamic array, and instantiating std::vector here cost every includer of
    // <llmcost/llmcost.hpp> 6% of its compile instructions. Nothing between new[] and delete[] throws.
    const auto slots = static_cast<std::size_t>(batch);
    double* free_at = new double[slots]{};
    for (const tokens_t& l : lengths) {
        std::size_t first = 0;
        for (std::size_t k = 1; k < slots; ++k)
            if (free_at[k] < free_at[first]) first = k;
        free_at[first] += l.value();
    }
    double makespan = 0.0;
    for (std::size_t k = 0; k < slots; ++k) makespan = detail::max(makespan, free_at[k]);
    delete[] free_at;
    return makespan;
}

/// U = Σ len ÷ (B · T_static) — slot-steps used over slot-steps held; a short last batch still
/// holds B slots (S4: "finished slots stayed empty until the whole batch ended").
[[nodiscard]] constexpr double static_occupancy(std::span<const tokens_t> lengths, int batch) {
    const double steps = static_steps(lengths, batch);
    double sum = 0.0;
    for (const tokens_t& l : lengths) sum += l.value();
    return sum / (batch * steps);
}

/// U = Σ len ÷ (B · T_cont) — 1 while the queue is non-empty; below 1 only in the final drain,
/// when there is nobody left to join (S4). Never below the static figure for the same queue.
[[nodiscard]] constexpr double continuous_occupancy(std::span<const tokens_t> lengths, int batch) {
    const double steps = continuous_steps(lengths, batch);
    double sum = 0.0;
    for (const tokens_t& l : lengths) sum += l.value();
    return sum / (batch * steps);
}

// ---- over a distribution of output lengths -----------------------------------------------------

/// How output lengths are distributed.
enum class batching_length_law {
    uniform,      ///< whole tokens, equally likely in [shortest, longest]
    geometric,    ///< whole tokens ≥ 1, a constant chance of ending at each step (mean = `mean`)
    exponential,  ///< continuous, the limit of geometric for long answers (mean = `mean`)
};

/// A distribution of output lengths; build with `uniform`, `geometric` or `exponential`.
struct length_distribution {
    batching_length_law law = batching_length_law::uniform;
    tokens_t shortest;  ///< uniform: a
    tokens_t longest;   ///< uniform: b
    tokens_t mean;      ///< geometric and exponential: E[len]

    [[nodiscard]] static constexpr length_distribution uniform(tokens_t a, tokens_t b) {
        return {.law = batching_length_law::uniform, .shortest = a, .longest = b, .mean = (a + b) / 2.0};
    }
    [[nodiscard]] static constexpr length_distribution geometric(tokens_t m) {
        return {.law = batching_length_law::geometric, .shortest = tokens(1.0), .longest = tokens(0.0), .mean = m};
    }
    [[nodiscard]] static constexpr length_distribution exponential(tokens_t m) {
        return {.law = batching_length_law::exponential, .shortest = tokens(0.0), .longest = tokens(0.0), .mean = m};
    }

    constexpr void validate() const {
        const std::string_view s = "output-length distribution";
        if (law == batching_length_law::uniform) {
            const double a = shortest.value(), b = longest.value();
            require(a >= 1.0 && a == detail::const_trunc(a) && a <= 1e9, s,
                    "shortest (tokens)", a, "must be a whole number of tokens, at least 1");
            require(b >= a && b == detail::const_trunc(b) && b <= 1e9, s,
                    "longest (tokens)", b, "must be a whole number of tokens, at least shortest");
        } else if (law == batching_length_law::geometric) {
            require(mean.value() >= 1.0 && mean.value() <= 1e9, s, "mean (tokens)", mean.value(),
                    "a geometric length (≥ 1 token) has a mean of at least 1");
        } else {
            require(positive_finite(mean.value()), s, "mean (tokens)", mean.value(), "must be positive and finite");
        }
    }

    /// E[len]: (a + b) ÷ 2 for uniform, the mean otherwise.
    [[nodiscard]] constexpr tokens_t mean_length() const {
        return law == batching_length_law::uniform ? (shortest + longest) / 2.0 : mean;
    }

    /// E[len²]: uniform ((b − a + 1)² − 1) ÷ 12 + E²; geometric (2 − p) ÷ p², p = 1/mean;
    /// exponential 2·mean². In tokens² as a plain number (a moment, not a physical quantity).
    [[nodiscard]] constexpr double second_moment() const {
        validate();
        const double m = mean_length().value();
        switch (law) {
            case batching_length_law::uniform: {
                const double n = longest.value() - shortest.value() + 1.0;
                return (n * n - 1.0) / 12.0 + m * m;
            }
            case batching_length_law::geometric: {
                const double p = 1.0 / m;
                return (2.0 - p) / (p * p);
            }
            case batching_length_law::exponential: return 2.0 * m * m;
        }
        return 0.0;
    }

    /// E[max of B independent lengths]:
    /// - uniform on {a…b}: b − Σ_{k=a}^{b−1} ((k − a + 1) ÷ (b − a + 1))^B  (E[X] = a + Σ_{k≥a} P(X > k), exact);
    /// - geometric, P(len ≤ k) = 1 − q^k, q = 1 − 1/mean: Σ_{k≥0} (1 − (1 − q^k)^B), summed until
    ///   the tail bound B·q^k·mean falls below 1e-13 of the sum;
    /// - exponential: mean · H_B, H_B = Σ_{j=1}^{B} 1/j (Rényi's representation of order statistics).
    [[nodiscard]] constexpr tokens_t expected_longest(int batch) const {
        validate();
        detail::require_batch(batch, "output-length distribution");
        switch (law) {
            case batching_length_law::uniform: {
                const double a = shortest.value(), b = longest.value(), n = b - a + 1.0;
                double below = 0.0;
                for (double k = a; k < b; k += 1.0) below += detail::pow_int((k - a + 1.0) / n, batch);
                return tokens(b - below);
            }
            case batching_length_law::geometric: {
                const double m = mean.value(), q = 1.0 - 1.0 / m;
                double sum = 0.0, qk = 1.0;  // qk = q^k
                for (long long k = 0; k < 100'000'000; ++k) {
                    sum += 1.0 - detail::pow_int(1.0 - qk, batch);
                    qk *= q;
                    if (batch * qk * m < 1e-13 * sum) break;
                }
                return tokens(sum);
            }
            case batching_length_law::exponential: {
                double h = 0.0;
                for (int j = batch; j >= 1; --j) h += 1.0 / j;
                return mean * h;
            }
        }
        return tokens(0.0);
    }
};

/// E[U_static] = E[len] ÷ E[max of B] — the long-run share of slot-steps a static batch of B uses
/// (Σ len ÷ Σ B·max over many batches, by the law of large numbers). Exponential lengths: 1 ÷ H_B.
[[nodiscard]] constexpr double static_expected_occupancy(const length_distribution& lengths,
                                                                 int batch) {
    return ratio(lengths.mean_length(), lengths.expected_longest(batch));
}

/// E[U_cont] = E[len] ÷ (E[len] + (g − 1) ÷ 2) — continuous batching with a full queue, refilled
/// every g steps: a freed slot waits for the next refill, uniformly 0…g − 1 steps. g = 1 (refill
/// at every step boundary, S4) gives 1.
[[nodiscard]] constexpr double continuous_expected_occupancy(const length_distribution& lengths,
                                                                     int refill_every_steps = 1) {
    lengths.validate();
    require(refill_every_steps >= 1, "continuous batching", "refill_every_steps", refill_every_steps,
            "refills happen at step boundaries: at least every step");
    const double m = lengths.mean_length().value();
    return m / (m + (refill_every_steps - 1.0) / 2.0);
}

// ---- throughput at a deployment ----------------------------------------------------------------

/// X = B · ranks · U ÷ t_pass(B, x) — tokens per second of one instance whose B slots (per
/// attention rank) are busy a fraction U, each pass priced at context x (S4, S5, decode_pass).
template <token_count T>
[[nodiscard]] constexpr tokens_per_second_t throughput(const deployment& d, double batch, const T& context,
                                                                double slot_utilisation) {
    require(batch >= 1.0, "batching", "batch", batch, "a batch holds at least one request");
    require(slot_utilisation >= 0.0 && slot_utilisation <= 1.0, "batching", "slot_utilisation", slot_utilisation,
            "a utilisation is a fraction in [0, 1]");
    return tokens(batch * d.attention_ranks() * slot_utilisation) / decode_pass(d, batch, context).time();
}

/// Static vs continuous batching of one deployment for a length distribution.
struct comparison {
    double static_utilisation;
    double continuous_utilisation;
    tokens_per_second_t static_throughput;
    tokens_per_second_t continuous_throughput;
    /// continuous ÷ static throughput.
    [[nodiscard]] constexpr double speedup() const { return ratio(continuous_throughput, static_throughput); }
};

/// Both ways of batching B slots at a deployment, each pass priced at its mean context:
/// static x = P + E[max] ÷ 2 (finished slots are still padded along, as in static generate loops);
/// continuous x = P + E[len²] ÷ (2 E[len]) (a busy slot holds a length-biased request, halfway through).
template <token_count T>
[[nodiscard]] constexpr comparison static_vs_continuous(const deployment& d, double batch,
                                                                         const T& prompt,
                                                                         const length_distribution& lengths,
                                                                         int refill_every_steps = 1) {
    require(batch >= 1.0 && batch == detail::const_trunc(batch) && batch <= 1e6, "batching",
            "batch", batch, "must be a whole number of requests, at least 1");
    const int b = static_cast<int>(batch);
    const tokens_t p = in_base_units(prompt);
    const double u_static = static_expected_occupancy(lengths, b);
    const double u_cont = continuous_expected_occupancy(lengths, refill_every_steps);
    const tokens_t x_static = p + lengths.expected_longest(b) / 2.0;
    const tokens_t x_cont = p + tokens(lengths.second_moment() / (2.0 * lengths.mean_length().value()));
    return comparison{.static_utilisation = u_static,
                               .continuous_utilisation = u_cont,
                               .static_throughput = throughput(d, batch, x_static, u_static),
                               .continuous_throughput = throughput(d, batch, x_cont, u_cont)};
}

// ---- my speed and my neighbours (S5) -----------------------------------------------------------

/// What one request gets from a pass shared with b − 1 neighbours.
struct neighbour_effect {
    double batch;
    seconds_per_token_t my_time_per_token;  ///< one token of mine per pass: t_pass(b) per token
    tokens_per_second_t my_rate;            ///< 1 ÷ t_pass(b)
    tokens_per_second_t instance_rate;      ///< b · ranks ÷ t_pass(b)
    double slowdown;                        ///< t_pass(b) ÷ t_pass(1) ≥ 1
};

/// t(b) = t_pass(b, x) per token of mine; slowdown = t_pass(b, x) ÷ t_pass(1, x) — the batch
/// divides the HBM bandwidth (S5): each neighbour adds its KV read and its FLOPs to every pass.
template <token_count T>
[[nodiscard]] constexpr neighbour_effect neighbours(const deployment& d, double batch,
                                                                      const T& context) {
    require(batch >= 1.0, "batching", "batch", batch, "a batch holds at least one request");
    const seconds_t shared = decode_pass(d, batch, context).time();
    const seconds_t alone = decode_pass(d, 1.0, context).time();
    return neighbour_effect{.batch = batch,
                                     .my_time_per_token = shared / tokens(1.0),
                                     .my_rate = tokens(1.0) / shared,
                                     .instance_rate = tokens(batch * d.attention_ranks()) / shared,
                                     .slowdown = ratio(shared, alone)};
}

}  // namespace batching

}  // namespace llmcost
