#pragma once
/// \file
/// Waiting in line: the mean wait of M/M/1 and M/M/c queues (Kleinrock 1975; Erlang C), for the
/// gates and batch slots a request passes on its journey (serving/journey.hpp).
///
/// **Example**
/// \code
/// queueing::mm1_wait(1_ms, 0.5)        // 1 ms: ρ ÷ (1 − ρ) service times
/// queueing::mmc_wait(1_ms, 4, 0.5)     // shorter: four servers share the load
/// \endcode

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/concepts.hpp>
#include <llmcost/units/makers.hpp>
#include <llmcost/detail/math.hpp>

#include <array>
#include <cstddef>
#include <limits>

namespace llmcost::queueing {

/// W_q = ρ·S ÷ (1 − ρ) = ρ ÷ (μ(1 − ρ)) — mean wait before service in an M/M/1 queue, S = 1/μ
/// (Kleinrock, *Queueing Systems* vol. 1, 1975, §3.2). ρ ≥ 1 is refused: the queue never drains.
template <duration T>
[[nodiscard]] constexpr seconds_t mm1_wait(const T& service_time, double utilisation) {
    const seconds_t s = in_base_units(service_time);
    require(utilisation >= 0.0 && utilisation < 1.0, "M/M/1 queue", "utilisation", utilisation,
            "must be in [0, 1): at utilisation >= 1 arrivals outpace service and the wait diverges");
    require(non_negative_finite(s.value()), "M/M/1 queue", "service_time (s)", s.value(),
            "must be zero or positive and finite");
    return s * (utilisation / (1.0 - utilisation));
}

/// C(c, a) — Erlang C, the probability that an arrival to an M/M/c queue must wait, a = c·ρ.
/// Through the Erlang B recursion B₀ = 1, B_k = a·B_{k−1} ÷ (k + a·B_{k−1}), then
/// C = B_c ÷ (1 − ρ(1 − B_c)) — stable for large c (Harchol-Balter, *Performance Modeling and
/// Design of Computer Systems*, 2013, ch. 14). c = 1 gives C = ρ.
[[nodiscard]] constexpr double erlang_c(int servers, double utilisation) {
    require(servers >= 1, "M/M/c queue", "servers", servers, "a queue needs at least one server");
    require(utilisation >= 0.0 && utilisation < 1.0, "M/M/c queue", "utilisation", utilisation,
            "must be in [0, 1): at utilisation >= 1 arrivals outpace service and the wait diverges");
    const double a = utilisation * servers;
    double b = 1.0;
    for (int k = 1; k <= servers; ++k) b = a * b / (k + a * b);
    return b / (1.0 - utilisation * (1.0 - b));
}

/// W_q = C(c, cρ) · S ÷ (c (1 − ρ)) — mean wait before service in an M/M/c queue
/// (Erlang 1917; Kleinrock 1975, §3.5). With c = 1 it is the M/M/1 wait ρS ÷ (1 − ρ).
template <duration T>
[[nodiscard]] constexpr seconds_t mmc_wait(const T& service_time, int servers, double utilisation) {
    const seconds_t s = in_base_units(service_time);
    require(non_negative_finite(s.value()), "M/M/c queue", "service_time (s)", s.value(),
            "must be zero or positive and finite");
    return s * (erlang_c(servers, utilisation) / (servers * (1.0 - utilisation)));
}

/// W_q = λ·E[S²] ÷ (2(1 − ρ)), ρ = λ·E[S] — the mean wait of an M/G/1 queue, from the mean and the
/// second moment of the service time (Pollaczek–Khinchine; Kleinrock 1975, §5.7). Deterministic
/// service (E[S²] = E[S]²) gives the M/D/1 wait ρ·S ÷ (2(1 − ρ)), half the M/M/1 one.
template <duration T, duration U>
[[nodiscard]] constexpr seconds_t mg1_wait(const T& mean_service, const U& service_rms, double utilisation) {
    const seconds_t s = in_base_units(mean_service), rms = in_base_units(service_rms);
    require(utilisation >= 0.0 && utilisation < 1.0, "M/G/1 queue", "utilisation", utilisation,
            "must be in [0, 1): at utilisation >= 1 arrivals outpace service and the wait diverges");
    require(positive_finite(s.value()), "M/G/1 queue", "mean_service (s)", s.value(), "must be positive and finite");
    require(rms >= s && non_negative_finite(rms.value()), "M/G/1 queue", "service_rms (s)", rms.value(),
            "√E[S²] is at least E[S] and finite");
    // λ·E[S²] = ρ · E[S²] ÷ E[S]
    return rms * (rms.value() / s.value()) * (utilisation / (2.0 * (1.0 - utilisation)));
}

/// The M/D/1 wait ρ·S ÷ (2(1 − ρ)): `mg1_wait` with a constant service time.
template <duration T>
[[nodiscard]] constexpr seconds_t md1_wait(const T& service_time, double utilisation) {
    return mg1_wait(service_time, service_time, utilisation);
}

/// An engine that runs steps back to back and, at the end of each, takes in every request that
/// arrived during it: the next step carries their k prompts whole and lasts t(k) (continuous
/// batching with whole prompts, Orca, OSDI 2022). It is a bulk-service queue with no batch limit,
/// whose embedded chain — the prompts each step carries — moves by k′ ~ Poisson(λ·t(k))
/// (Bailey, "On queueing processes with bulk service", JRSS B 16, 1954). `share` is its stationary
/// law π, found by iterating π′_j = Σ_k π_k · Poisson(j; λ·t(k)) from Poisson(λ·t(0)).
struct bulk_service {
    static constexpr std::size_t capacity = 160;  ///< most prompts one step may carry
    std::array<seconds_t, capacity> step{};       ///< t(k): the step that carries k prompts
    seconds_t interarrival{};                     ///< 1 ÷ λ, Poisson arrivals
    std::array<double, capacity> share{};         ///< π_k: the share of steps that carry k prompts
    /// ι: the probability that an arrival finds the engine empty, no request in it. Such a request
    /// waits for no step: the engine, blocked on its request queue, starts its prompt at once in a
    /// step of its own, TTFT = t(1) (`empty_engine`). 0: the engine always has a step in flight
    /// (the chain above; `bulk_steps` leaves it 0).
    double idle = 0;
};

/// ι = e^(−n): the probability that a Poisson arrival finds an engine holding n requests on average
/// empty — the number in an M/G/∞ system is Poisson with mean λ·E[S], whatever the law of S
/// (Takács, *Introduction to the Theory of Queues*, 1962; Kleinrock 1975, vol. 1, the M/G/∞ queue),
/// and Poisson arrivals see it (Wolff 1982). The engine is no M/G/∞ system once requests share its
/// steps, but an empty engine is a light load, where the approximation holds; near saturation ι → 0.
[[nodiscard]] constexpr double empty_engine(double requests_held) {
    require(non_negative_finite(requests_held), "bulk-service queue", "requests held", requests_held,
            "the mean number of requests in the engine is zero or positive and finite");
    return llmcost::detail::const_exp(-requests_held);
}

namespace detail {
/// Poisson(j; μ) for j = 0 … n − 1 into `p`: p₀ = e^−μ, p_j = p_{j−1}·μ ÷ j.
constexpr void poisson_row(double mu, std::array<double, bulk_service::capacity>& p) {
    double x = llmcost::detail::const_exp(-mu);
    for (std::size_t j = 0; j < p.size(); ++j) {
        if (j > 0) x *= mu / static_cast<double>(j);
        p[j] = x;
    }
}
/// The Poisson mass beyond the last k a bulk-service step may carry, at mean μ.
[[nodiscard]] constexpr double poisson_beyond(double mu) {
    std::array<double, bulk_service::capacity> p{};
    poisson_row(mu, p);
    double sum = 0.0;
    for (double x : p) sum += x;
    return 1.0 - sum;
}
/// One step of a power iteration on a distribution: `next` scaled to sum to 1 becomes `share`;
/// returns Σ|next − share|, the change the iteration stops on.
[[nodiscard]] constexpr double renormalised_step(std::array<double, bulk_service::capacity>& next,
                                   std::array<double, bulk_service::capacity>& share) {
    double change = 0.0, total = 0.0;
    for (double x : next) total += x;
    for (std::size_t j = 0; j < bulk_service::capacity; ++j) {
        next[j] /= total;
        change += llmcost::detail::max(next[j] - share[j], share[j] - next[j]);
    }
    share = next;
    return change;
}
}  // namespace detail

/// The engine of `bulk_service` for a step price `t(k)` (a callable returning a duration) and
/// Poisson arrivals one every `interarrival`. Refused when a step's prompts would outgrow
/// `capacity` (more than 10⁻⁹ of the mass beyond it): arrivals then outpace the prefill.
template <class Step, duration T>
[[nodiscard]] constexpr bulk_service bulk_steps(const Step& t, const T& interarrival) {
    bulk_service e{};
    e.interarrival = in_base_units(interarrival);
    const double gap = e.interarrival.value();
    require(positive_finite(gap), "bulk-service queue", "interarrival (s)", gap, "must be positive and finite");
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
        e.step[k] = in_base_units(t(static_cast<double>(k)));
        require(positive_finite(e.step[k].value()), "bulk-service queue", "step time (s)", e.step[k].value(),
                "must be positive and finite");
    }
    std::array<double, bulk_service::capacity> row{}, next{};
    detail::poisson_row(e.step[0].value() / gap, e.share);
    for (int it = 0; it < 2000; ++it) {
        next.fill(0.0);
        double lost = 0.0;
        for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
            if (!(e.share[k] > 1e-300)) continue;
            const double mu = e.step[k].value() / gap;
            detail::poisson_row(mu, row);
            double kept = 0.0;
            for (std::size_t j = 0; j < bulk_service::capacity; ++j) {
                next[j] += e.share[k] * row[j];
                kept += row[j];
            }
            lost += e.share[k] * (1.0 - kept);
        }
        require(lost < 1e-9, "bulk-service queue", "interarrival (s)", gap,
                "arrivals outpace the prefill: a step would carry more than 160 prompts (use the simulator)");
        if (detail::renormalised_step(next, e.share) < 1e-13) break;
    }
    return e;
}

/// E[t] = Σ π_k·t(k): the mean step (every step counted once).
[[nodiscard]] constexpr seconds_t mean_step(const bulk_service& e) {
    double m = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) m += e.share[k] * e.step[k].value();
    return seconds(m);
}

/// P(TTFT ≤ x) for a request that arrives at a random moment (Poisson arrivals see time averages:
/// Wolff, Operations Research 30, 1982): it lands in a step of k prompts with probability
/// w_k = π_k·t(k) ÷ E[t] (the inspection paradox), waits out a residual r ~ U(0, t(k)), and its
/// prompt rides the next step with the m ~ Poisson(λ·t(k)) others that arrived in the same step:
/// TTFT = r + t(1 + m), so F(x) = Σ_k w_k Σ_m Poisson(m; λ·t(k)) · clamp((x − t(1 + m)) ÷ t(k), 0, 1).
/// An arrival that finds the engine empty (probability ι, `bulk_service::idle`) starts at once:
/// F(x) = ι·[x ≥ t(1)] + (1 − ι)·F_busy(x).
template <duration T>
[[nodiscard]] constexpr double first_token_cdf(const bulk_service& e, const T& x) {
    const double at = in_base_units(x).value(), gap = e.interarrival.value();
    const double mean = mean_step(e).value();
    std::array<double, bulk_service::capacity> row{};
    double f = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
        if (!(e.share[k] > 1e-300)) continue;
        const double tk = e.step[k].value();
        detail::poisson_row(tk / gap, row);
        double g = 0.0;
        for (std::size_t m = 0; m + 1 < bulk_service::capacity; ++m)
            g += row[m] * llmcost::detail::min(1.0, llmcost::detail::max(0.0, (at - e.step[m + 1].value()) / tk));
        f += e.share[k] * tk / mean * g;
    }
    return e.idle * (at >= e.step[1].value() ? 1.0 : 0.0) + (1.0 - e.idle) * f;
}

/// E[TTFT] = Σ_k w_k·(t(k) ÷ 2 + Σ_m Poisson(m; λ·t(k))·t(1 + m)) — `first_token_cdf`'s mean:
/// E[t²] ÷ 2E[t] of residual, then the step that carries my prompt and its neighbours'; with an
/// empty engine's share ι, E[TTFT] = ι·t(1) + (1 − ι)·E[TTFT_busy].
[[nodiscard]] constexpr seconds_t first_token_mean(const bulk_service& e) {
    const double gap = e.interarrival.value(), mean = mean_step(e).value();
    std::array<double, bulk_service::capacity> row{};
    double s = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
        if (!(e.share[k] > 1e-300)) continue;
        const double tk = e.step[k].value();
        detail::poisson_row(tk / gap, row);
        double g = tk / 2.0;
        for (std::size_t m = 0; m + 1 < bulk_service::capacity; ++m) g += row[m] * e.step[m + 1].value();
        s += e.share[k] * tk / mean * g;
    }
    return seconds(e.idle * e.step[1].value() + (1.0 - e.idle) * s);  // an empty engine: t(1), no wait
}

/// The q-quantile of TTFT, q in (0, 1): `first_token_cdf` inverted by bisection.
[[nodiscard]] constexpr seconds_t first_token_quantile(const bulk_service& e, double q) {
    require(q > 0.0 && q < 1.0, "bulk-service queue", "percentile", q, "must be in (0, 1)",
            "llmcost.serving.percentile_open_unit");
    double lo = 0.0, hi = 0.0;
    for (const seconds_t& t : e.step) hi = llmcost::detail::max(hi, t.value());
    hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2.0;
        (first_token_cdf(e, seconds(mid)) < q ? lo : hi) = mid;
    }
    return seconds(hi);
}

/// The mean step as the decoding requests see it, E[D·t] ÷ E[D] = E[t] + Cov(D, t) ÷ E[D]: a step
/// counts once for each of the D sequences it decodes, and D_n = Σ_{j=1}^{n} k_{n−j}, the prompts of
/// the last n steps (each decodes for n = O − 1 steps after its prompt's), so long steps that follow
/// a burst of prompts weigh more. Cov(k_{n−j}, t_n) = Σ_k π_k (k − k̄)((Pʲt)(k) − t̄), P the chain's
/// transition law (its lags summed until they vanish).
[[nodiscard]] constexpr seconds_t decode_weighted_step(const bulk_service& e, double steps) {
    require(steps >= 1.0 && positive_finite(steps), "bulk-service queue", "steps", steps, "at least one step");
    const double gap = e.interarrival.value(), t_mean = mean_step(e).value();
    double k_mean = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) k_mean += e.share[k] * static_cast<double>(k);
    if (!(k_mean > 0.0)) return seconds(t_mean);
    std::array<double, bulk_service::capacity> h{}, next{}, row{};
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) h[k] = e.step[k].value();
    double cov = 0.0;
    for (double j = 1.0; j <= steps; j += 1.0) {
        double lag = 0.0;
        for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
            if (!(e.share[k] > 1e-300)) {
                next[k] = t_mean;
                continue;
            }
            detail::poisson_row(e.step[k].value() / gap, row);
            double x = 0.0;
            for (std::size_t m = 0; m < bulk_service::capacity; ++m) x += row[m] * h[m];
            next[k] = x;
            lag += e.share[k] * (static_cast<double>(k) - k_mean) * (x - t_mean);
        }
        h = next;
        cov += lag;
        if (llmcost::detail::max(lag, -lag) < 1e-12 * t_mean) break;
    }
    return seconds(t_mean + cov / (steps * k_mean));
}

/// A request's decode episode under Poisson arrivals: the N = O − 1 steps after its prompt's, whose
/// mean is its TPOT. A step's length feeds back on the load two ways: the k prompts it carries (p
/// each) arrive during the step before, k ~ Poisson(λ·t), and every prompt decodes for the next N
/// steps, D_s = Σ_{j=1}^{N} k_{s−j} (c each). So t_s = t̄ + c·δD_s + p·δk_s and δk_s = λ·δt_{s−1} + ε_s,
/// ε_s the arrivals' Poisson noise, Var ε = λ·t̄: a linear process whose slow mode has loop gain
/// λ·(p + c·N) and relaxes over about N ÷ (1 − gain) steps, longer than the episode near
/// saturation, so a request's TPOT is set by the load of its whole episode. `decode_loop_of` finds
/// t̄, the slopes and the moments of Y = (1 ÷ N)·Σ_{j=1}^{N} t_j; `mean_step_quantile` reads them.
struct decode_loop {
    seconds_t step{};          ///< t̄, the mean step (each step once): t̄ = E[t(N·λ·t̄, k)], k ~ Poisson(λ·t̄)
    seconds_t per_decoder{};   ///< c: the step's slope in the decoding count (statistically linearised)
    seconds_t per_prompt{};    ///< p: the step's slope in the prompts it carries (statistically linearised)
    seconds_t interarrival{};  ///< 1 ÷ λ
    double steps = 0;          ///< N: a request's decode steps, and each sequence's decode life
    double gain = 0;           ///< λ·(p + c·N): the slow mode's loop gain; +∞ where no steady state exists
    seconds_t mean{};          ///< E[Y] over requests (its prompt rode a step of the size-biased k); 0 at a gain ≥ 0.99
    seconds_t deviation{};     ///< √Var(Y); 0 at a gain ≥ 0.99
    double fano = 1;           ///< F = Var(D) ÷ D̄: the decoding count's law t̄ was solved under (`detail::each_decoder`):
                               ///< the last round's input, not the F its loop response would feed a next round
                               ///< (an F below 1 was priced as 1, the Poisson law)
};

/// The loop gain past which `mean_step_quantile` refuses: the slow mode then amplifies the arrivals'
/// noise more than 100-fold, and the linearisation no longer holds (tables/percentiles.md).
inline constexpr double max_loop_gain = 0.99;

namespace detail {
/// E[t(decoding, k)], k ~ Poisson(k̄): the mean step at a decoding count, over the prompts it carries
/// (the tail past the mode dropped below 10⁻¹⁷ of the mass).
template <class Step>
[[nodiscard]] constexpr double mean_over_prompts(const Step& t, double decoding, double kbar) {
    double p = llmcost::detail::const_exp(-kbar), sum = 0.0, mass = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
        if (k > 0) p *= kbar / static_cast<double>(k);
        sum += p * in_base_units(t(llmcost::detail::max(0.0, decoding), static_cast<double>(k))).value();
        mass += p;
        if (static_cast<double>(k) > kbar && p < 1e-17) break;
    }
    return sum / mass;
}

/// The 9-node Gauss rule of the decoding count's own law, mean D̄ and variance F·D̄: E[f(D)] ≈
/// Σ_i w_i·f(x_i), exact for polynomials of degree ≤ 17 in D. The law is Poisson(D̄) for F ≤ 1 (the
/// M/G/∞ count: Takács 1962; Kleinrock 1975 vol. 1; an F below 1, which only rounding or a negative
/// slope gives, is held at 1) and the negative binomial
/// above it (the gamma-mixed Poisson: r = D̄ ÷ (F − 1), q = 1 − 1 ÷ F): Gauss–Charlier and Gauss–Meixner.
/// Their monic three-term recurrences (Meixner's M_n(x; β = r, c = q), DLMF §18.22.2 and Table 18.19.1;
/// Gautschi, *Orthogonal Polynomials: Computation and Approximation*, 2004, §1.5 Table 1.2), written
/// with F = 1 ÷ (1 − q) so that F = 1 is Charlier's a_n = n + D̄, b_n² = n·D̄ and no rule switches:
///     a_n = (n + (n + r)·q) ÷ (1 − q) = D̄ + n·(2F − 1),
///     b_n² = n·(n + r − 1)·q ÷ (1 − q)² = n·F·(D̄ + (n − 1)·(F − 1)).
/// Golub & Welsch (1969): the nodes are the eigenvalues of the 9 × 9 Jacobi matrix (diagonal a_0…a_8,
/// off-diagonal b_1…b_8), found one by one by Sturm-sequence bisection (Wilkinson 1965, §5.39), and the
/// weights the squared first components of the normalised eigenvectors, w_i = z_0(x_i)² ÷ ‖z(x_i)‖² (equal
/// to the Christoffel numbers 1 ÷ Σ_k p_k(x_i)², but taken by a twisted factorization, stable down to
/// D̄ = 10⁻³⁰⁰: no short-circuit near the point mass is needed). The nodes lie inside the support (0, ∞): a count is
/// never priced below 0, and as D̄ grows the rule tends to Gauss–Hermite's on the normal N(D̄, F·D̄).
/// D̄ ≤ 10⁻²⁸⁰ is the point mass at 0.
struct count_rule {
    static constexpr std::size_t size = 9;
    std::array<double, size> node{}, weight{};
};
[[nodiscard]] constexpr count_rule count_quadrature(double mean_decoding, double fano) {
    constexpr std::size_t n = count_rule::size;
    count_rule g{};
    if (!(mean_decoding > 1e-280)) {  // P(D > 0) ≤ D̄ ≤ 10⁻²⁸⁰: the point mass (the pivots' zero guard, 10⁻³⁰⁰, is this small)
        g.weight[0] = 1.0;
        return g;
    }
    const double f = llmcost::detail::max(1.0, fano);
    double a[n]{}, b2[n]{}, b[n]{};  // a_k; b_k² and b_k couple rows k − 1 and k (b_0 = 0); plain arrays: fewer constant-evaluation steps
    for (std::size_t k = 0; k < n; ++k) {
        const double x = static_cast<double>(k);
        a[k] = mean_decoding + x * (2.0 * f - 1.0);
        b2[k] = x * f * (mean_decoding + (x - 1.0) * (f - 1.0));
        b[k] = llmcost::detail::const_sqrt(b2[k]);
    }
    // Sturm count: whether more than i eigenvalues lie below x (the negative pivots of T − x·I's LDLᵀ;
    // the count only grows, so it stops once past i)
    const auto more_below = [&](double x, std::size_t i) {
        std::size_t count = 0;
        double d = 1.0;
        for (std::size_t k = 0; k < n; ++k) {
            d = a[k] - x - (k > 0 ? b2[k] / d : 0.0);
            if (d == 0.0) d = -1e-300;
            if (d < 0.0 && ++count > i) return true;
        }
        return false;
    };
    // w_i = z_0² ÷ Σ_k z_k², z the eigenvector at x_i (Golub & Welsch 1969), by a twisted factorization
    // of T − x·I (Parlett & Dhillon 1997; Golub & Meurant 2010, §3.4): forward pivots d⁺_k = a_k − x −
    // b_k² ÷ d⁺_{k−1}, backward d⁻_k = a_k − x − b_{k+1}² ÷ d⁻_{k+1}, twist r = argmin |γ_k|, γ_k = d⁺_k +
    // d⁻_k − (a_k − x); z_r = 1, z_k = −b_{k+1}·z_{k+1} ÷ d⁺_k below r and −b_k·z_{k−1} ÷ d⁻_k above it.
    // Only products, so stable where the orthonormal polynomials' forward recurrence is not (a nearly
    // diagonal T: small D̄ near Poisson, where p_k(x_i), k > i, is the recurrence's minimal solution)
    const auto first_component_squared = [&](double x) {
        double up[n]{}, down[n]{}, z[n]{};
        const auto pivot = [](double d) { return d == 0.0 ? -1e-300 : d; };
        for (std::size_t k = 0; k < n; ++k) up[k] = pivot(a[k] - x - (k > 0 ? b2[k] / up[k - 1] : 0.0));
        for (std::size_t k = n; k-- > 0;) down[k] = pivot(a[k] - x - (k + 1 < n ? b2[k + 1] / down[k + 1] : 0.0));
        std::size_t r = 0;
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < n; ++k) {
            const double gamma = up[k] + down[k] - (a[k] - x), size = gamma < 0.0 ? -gamma : gamma;
            if (size < best) best = size, r = k;  // NaN (∞ − ∞) is never taken
        }
        z[r] = 1.0;
        for (std::size_t k = r; k-- > 0;) z[k] = -b[k + 1] * z[k + 1] / up[k];
        for (std::size_t k = r + 1; k < n; ++k) z[k] = -b[k] * z[k - 1] / down[k];
        double sum = 0.0;
        for (double v : z) sum += v * v;
        return z[0] * z[0] / sum;
    };
    double lo0 = a[0], hi0 = a[0];  // Gershgorin's discs
    for (std::size_t k = 0; k < n; ++k) {
        const double r = b[k] + (k + 1 < n ? b[k + 1] : 0.0);
        lo0 = llmcost::detail::min(lo0, a[k] - r);
        hi0 = llmcost::detail::max(hi0, a[k] + r);
    }
    double total = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        // the (i + 1)-th smallest eigenvalue, above the i-th: more than i below hi, at most i below lo; to 2 ulp of
        // the node or 10⁻¹⁷·D̄, whichever is wider (not to the ulp of 0: a node near 0 would take hundreds of
        // halvings, and a constant evaluation of `decode_loop_of` past clang's step limit; 10⁻¹⁷·D̄ keeps
        // Σ w·x = D̄ to 10⁻¹⁶ however small D̄, and ≈ 1,000 halvings reach it from the widest bracket)
        const double floor = 1e-17 * mean_decoding;
        double lo = i > 0 ? llmcost::detail::max(lo0, g.node[i - 1]) : lo0, hi = hi0;
        for (int it = 0; it < 1100 && hi - lo > llmcost::detail::max(floor, 4.5e-16 * llmcost::detail::max(-lo, hi)); ++it) {
            const double mid = (lo + hi) / 2.0;
            if (!(mid > lo && mid < hi)) break;
            (more_below(mid, i) ? hi : lo) = mid;
        }
        const double x = (lo + hi) / 2.0;
        g.node[i] = llmcost::detail::max(0.0, x);
        g.weight[i] = first_component_squared(x);
        total += g.weight[i];
    }
    for (double& w : g.weight) w /= total;  // Σ w = 1 to rounding
    return g;
}

/// Visits the decoding count's law, mean D̄ and variance max(1, F)·D̄, as (weight, count) pairs: the 9
/// nodes of `count_quadrature`, each with a weight above 0.
template <class Visit>
constexpr void each_decoder(double mean_decoding, double fano, const Visit& f) {
    const count_rule g = count_quadrature(mean_decoding, fano);
    for (std::size_t i = 0; i < count_rule::size; ++i)
        if (g.weight[i] > 0.0) f(g.weight[i], g.node[i]);
}

/// The weight below which a node of the count's rule is left out of `decoder_weighted` (the rest
/// renormalised): 10⁻⁹, the mass `bulk_steps` itself lets go beyond its capacity.
inline constexpr double negligible_count_mass = 1e-9;

/// E[D·g(D)] ÷ E[D] = Σ_i w_i·x_i·g(x_i) ÷ Σ_i w_i·x_i over the nodes of `count_quadrature` of weight
/// w_i ≥ 10⁻⁹ (`negligible_count_mass`): a quantity as the decoders see it. A wide law's outer nodes sit
/// 10–25·D̄ out with weights ≈ 10⁻¹¹ (D̄ = 100, F = 101: 2,650 decoders), where g (a bulk chain) may not
/// exist; a node of larger weight is priced, and g's refusal there propagates. 0 where no node has D > 0.
template <class Price>
[[nodiscard]] constexpr double decoder_weighted(double mean_decoding, double fano, const Price& g) {
    double weighted = 0.0, decoders = 0.0;
    each_decoder(mean_decoding, fano, [&](double w, double x) {
        if (!(w >= negligible_count_mass && x > 0.0)) return;
        weighted += w * x * g(x);
        decoders += w * x;
    });
    return decoders > 0.0 ? weighted / decoders : 0.0;
}

/// E[(D − B)⁺] = Σ_i w_i·max(0, x_i − B): the sequences the decoding count's law (mean D̄, variance F·D̄,
/// `each_decoder`) puts past a cap of B, which the engine cannot run: they wait for a slot instead. The
/// count's law is the uncapped (infinite-server) count's, so this is its overflow above B (the
/// infinite-server approximation of a many-server queue, Halfin & Whitt, Operations Research 29, 1981:
/// it reads the queue as (N_∞ − B)⁺ and understates it near the cap, where waiting arrivals pile up).
[[nodiscard]] constexpr double count_above(const count_rule& g, double cap) {
    double excess = 0.0;
    for (std::size_t i = 0; i < count_rule::size; ++i) excess += g.weight[i] * llmcost::detail::max(0.0, g.node[i] - cap);
    return excess;
}

/// `count_above` over the decoding count's own rule (`count_quadrature`, mean D̄, variance F·D̄).
[[nodiscard]] constexpr double count_above(double mean_decoding, double fano, double cap) {
    return count_above(count_quadrature(mean_decoding, fano), cap);
}

/// Moments of the linear loop of `decode_loop` (λ, t̄, c, p, N whole steps), from its impulse
/// responses to one arrival: G_0 = 1, G_s = λ·F_{s−1} (prompts), F_s = c·Σ_{j=1}^{N} G_{s−j} + p·G_s
/// (step time), H_s = Σ_{j=1}^{N} G_{s−j} (decoding count). With σ² = λ·t̄ and S the running sum of F,
/// an arrival i steps before the episode's first step moves its steps' sum by W_i = S(N + i) − S(i),
/// one j-th of the way in by S(N − j), so Var(Y) = σ²·Σ W² ÷ N² (Box, Jenkins & Reinsel 2008, §3.1:
/// a linear process' variance from its ψ weights); the decoders' Var(D) = σ²·Σ H²; and a request
/// that rode a step of k prompts sees E[Y] = t̄ + Σ_{j=1}^{N} Cov(k_0, t_j) ÷ (N·k̄) = t̄ + Σ_i G_i·W_i ÷ N
/// (σ² = k̄: the Poisson noise). Ring buffers of N + 1 hold G and S; the responses run 16 relaxation
/// times, 16·(N + 1) ÷ (1 − gain) steps past the episode.
struct loop_moments {
    double window_variance = 0, mean_shift = 0, decoding_variance = 0;
};
[[nodiscard]] constexpr loop_moments loop_response(double lambda, double tbar, double c, double p, double n) {
    const auto ring = static_cast<std::size_t>(n) + 1;
    const double gain = lambda * (p + c * n);
    const double last = n + llmcost::detail::const_ceil(16.0 * (n + 1.0) / (1.0 - gain));
    // Constant-evaluable storage; nothing between new[] and delete[] throws.
    double* g = new double[ring]{};
    double* sum = new double[ring]{};
    double window = 0.0, f = 0.0, s = 0.0, v = 0.0, shift = 0.0, vd = 0.0;
    for (double x = 0.0; x <= last; x += 1.0) {
        const auto at = static_cast<std::size_t>(x) % ring, back = (static_cast<std::size_t>(x) + 1) % ring;
        if (x >= 1.0) window += g[(at + ring - 1) % ring] - (x >= n + 1.0 ? g[at] : 0.0);  // Σ_{j=1}^{N} G_{s−j}
        const double gs = x == 0.0 ? 1.0 : lambda * f;
        f = c * window + p * gs;
        s += f;
        vd += window * window;
        if (x < n) v += s * s;  // an arrival inside the episode, N − x steps in
        if (x >= n) {
            const double w = s - sum[back];  // S(s) − S(s − N): an arrival s − N steps before it
            v += w * w;
            shift += g[back] * w;
        }
        g[at] = gs;
        sum[at] = s;
    }
    delete[] g;
    delete[] sum;
    const double sigma2 = lambda * tbar;
    return {.window_variance = sigma2 * v / (n * n), .mean_shift = shift / n, .decoding_variance = sigma2 * vd};
}
}  // namespace detail

/// The `decode_loop` of a step price `t(decoding, prompts)` (a callable returning a duration),
/// Poisson arrivals one every `interarrival`, and `steps` decode steps a request (N, rounded to whole
/// steps). Every prompt decodes N steps, so the steps carry D̄ = N·λ·t̄ decoders on average, and t̄
/// solves t̄ = E[t(D, k)] over k ~ Poisson(λ·t̄) and the count D of mean D̄ and variance F·D̄ (the
/// decoding count's spread: its Fano factor F is 1 for the Poisson count of Palm's theorem, and the
/// loop's own Var(D) ÷ D̄ after that; the smallest root, bracketed upward from t(0, 0) in 2% steps,
/// then bisected): Poisson(D̄) for F ≤ 1 (the M/G/∞ count, Takács 1962; Kleinrock 1975 vol. 1),
/// negative binomial above (the gamma-mixed Poisson), integrated by its own 9-node Gauss rule at
/// every D̄ (`detail::count_quadrature`: no rule switches, no node below 0).
/// The slopes are statistical linearisations over the same laws (Booton 1954; Gelb &
/// Vander Velde, *Multiple-Input Describing Functions*, 1968): p = Cov(k, t) ÷ Var(k),
/// c = Cov(D, t) ÷ Var(D). Four rounds, each feeding the loop's Var(D)
/// (`detail::loop_response`) back into F. A gain ≥ `max_loop_gain` keeps t̄ and the slopes (the
/// root) and leaves the moments at 0, and feeds back the spread of the loop with its slopes scaled to
/// just under that gain (F ≈ 1 ÷ (1 − g) + 1 is then held at its value at the threshold), so that F,
/// and the TPOT averaged over D's law, run on continuously across it; no t̄ below 10⁷ decoders and 100
/// prompts a step, in any round (no root), leaves t̄ at 0 and the gain at +∞.
template <class Step, duration T>
[[nodiscard]] constexpr decode_loop decode_loop_of(const Step& t, const T& interarrival, double steps) {
    decode_loop l{};
    l.interarrival = in_base_units(interarrival);
    const double gap = l.interarrival.value();
    require(positive_finite(gap), "decode loop", "interarrival (s)", gap, "must be positive and finite");
    require(steps >= 1.0 && positive_finite(steps), "decode loop", "steps", steps, "at least one decode step");
    const double lambda = 1.0 / gap, n = llmcost::detail::max(1.0, llmcost::detail::const_trunc(steps + 0.5));
    l.steps = n;
    l.gain = std::numeric_limits<double>::infinity();
    const double floor = in_base_units(t(0.0, 0.0)).value();
    require(positive_finite(floor), "decode loop", "step time (s)", floor, "must be positive and finite");
    double fano = 1.0, tbar = 0.0, c = 0.0, p = 0.0;
    detail::loop_moments m{};
    const auto excess = [&](double x) {
        double sum = 0.0;
        detail::each_decoder(n * lambda * x, fano, [&](double w, double dec) { sum += w * detail::mean_over_prompts(t, dec, lambda * x); });
        return sum - x;
    };
    for (int round = 0; round < 4; ++round) {
        double lo = floor, hi = floor;
        while (excess(hi) > 0.0) {
            lo = hi;
            hi *= 1.02;
            if (!(n * lambda * hi < 1e7 && lambda * hi < 100.0))  // the steps outgrow any load: no steady state,
                return decode_loop{.interarrival = l.interarrival, .steps = n,  // not an earlier round's root
                                   .gain = std::numeric_limits<double>::infinity()};
        }
        for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
            const double mid = (lo + hi) / 2.0;
            (excess(mid) > 0.0 ? lo : hi) = mid;
        }
        tbar = hi;
        const double kbar = lambda * tbar, decoding = n * kbar;
        // Cov(k, t(D, k)) ÷ Var(k) over Poisson k, and Cov(D, t) ÷ Var(D) over D's law; one
        // decoder's secant where the count barely varies
        double e_d = 0.0, e_dd = 0.0, e_t = 0.0, e_dt = 0.0, cov_k = 0.0;
        detail::each_decoder(decoding, fano, [&](double w, double x) {
            const double y = detail::mean_over_prompts(t, x, kbar);
            e_d += w * x;
            e_dd += w * x * x;
            e_t += w * y;
            e_dt += w * x * y;
            if (!(kbar > 0.0)) return;
            double cov = 0.0, pk = llmcost::detail::const_exp(-kbar);
            for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
                if (k > 0) pk *= kbar / static_cast<double>(k);
                cov += pk * (static_cast<double>(k) - kbar) * in_base_units(t(x, static_cast<double>(k))).value();
                if (static_cast<double>(k) > kbar && pk < 1e-17) break;
            }
            cov_k += w * cov;
        });
        p = kbar > 0.0 ? cov_k / kbar : 0.0;
        const double spread = e_dd - e_d * e_d;
        c = spread > 1e-9 ? (e_dt - e_d * e_t) / spread
                          : detail::mean_over_prompts(t, decoding + 1.0, kbar) - detail::mean_over_prompts(t, decoding, kbar);
        l.gain = lambda * (p + c * n);
        l.step = seconds(tbar);  // the root stands at any gain; only the moments need the linear loop
        l.per_decoder = seconds(c);
        l.per_prompt = seconds(p);
        l.fano = fano;
        // past the threshold the slopes are scaled to just under it: F stays continuous, the moments unpriced
        const double scale = l.gain < max_loop_gain ? 1.0 : max_loop_gain * (1.0 - 1e-9) / l.gain;
        m = detail::loop_response(lambda, tbar, c * scale, p * scale, n);
        fano = decoding > 0.0 ? m.decoding_variance / decoding : 1.0;  // the next round's F; l.fano keeps this round's
    }
    if (!(l.gain < max_loop_gain)) return l;  // the moments need the linear loop below the threshold
    l.mean = seconds(tbar + m.mean_shift);
    l.deviation = seconds(llmcost::detail::const_sqrt(m.window_variance));
    return l;
}

/// The q-quantile of a request's TPOT: lognormal with `decode_loop`'s mean m and deviation s
/// (σ² = ln(1 + s² ÷ m²), μ = ln m − σ² ÷ 2; moment matching, Fenton 1960): a mean of positive steps,
/// skewed by the slow mode. Refused past `max_loop_gain` (read those loads from `simulate`).
[[nodiscard]] constexpr seconds_t mean_step_quantile(const decode_loop& l, double q) {
    require(q > 0.0 && q < 1.0, "decode loop", "percentile", q, "must be in (0, 1)",
            "llmcost.serving.percentile_open_unit");
    require(l.gain < max_loop_gain, "decode loop", "loop gain λ·(p + c·N)", l.gain,
            "must be below 0.99: this close to saturation the load's slow mode barely settles and the "
            "linear model does not hold; read TPOT percentiles from `simulate`",
            "llmcost.serving.percentile_slow_mode");
    const double m = l.mean.value(), s = l.deviation.value();
    require(m > 0.0, "decode loop", "mean step (s)", m, "must be positive: the loop has no steady state at this load",
            "llmcost.serving.percentile_slow_mode");
    const double s2 = llmcost::detail::const_log(1.0 + s * s / (m * m));
    return seconds(llmcost::detail::const_exp(llmcost::detail::const_log(m) - s2 / 2.0 +
                                              llmcost::detail::normal_quantile(q) * llmcost::detail::const_sqrt(s2)));
}

/// The standard deviation of TTFT: E[TTFT²] = Σ_k w_k Σ_m Poisson(m; λ·t(k))·(t(k)²÷3 + t(k)·t(1+m) +
/// t(1+m)²) (the residual U(0, t(k)) plus the step t(1 + m), as `first_token_cdf`), mixed with an
/// empty engine's ι·t(1)², less the mean².
[[nodiscard]] constexpr seconds_t first_token_deviation(const bulk_service& e) {
    const double gap = e.interarrival.value(), mean = mean_step(e).value();
    std::array<double, bulk_service::capacity> row{};
    double m2 = 0.0;
    for (std::size_t k = 0; k < bulk_service::capacity; ++k) {
        if (!(e.share[k] > 1e-300)) continue;
        const double tk = e.step[k].value();
        detail::poisson_row(tk / gap, row);
        double g = 0.0;
        for (std::size_t m = 0; m + 1 < bulk_service::capacity; ++m) {
            const double u = e.step[m + 1].value();
            g += row[m] * (tk * tk / 3.0 + tk * u + u * u);
        }
        m2 += e.share[k] * tk / mean * g;
    }
    m2 = e.idle * e.step[1].value() * e.step[1].value() + (1.0 - e.idle) * m2;  // an empty engine: t(1)²
    const double mu = first_token_mean(e).value();
    return seconds(llmcost::detail::const_sqrt(llmcost::detail::max(0.0, m2 - mu * mu)));
}

/// A bulk-service engine whose steps carry at most B prompts (a prefill instance that batches at
/// most B prompts to a pass): Bailey's bulk queue with capacity B ("On queueing processes with bulk
/// service", JRSS B 16, 1954). Its embedded chain is the queue Q at a step's start: the step takes
/// c = min(Q, B) prompts and lasts t(c), and Q′ = Q − c + Poisson(λ·t(c)). `share` is its stationary
/// law π over Q; with B at least every reachable Q it is `bulk_service` (k = Q).
struct capped_bulk_service {
    std::array<seconds_t, bulk_service::capacity> step{};  ///< t(c) for c = 0 … B (B ≤ capacity − 1)
    double cap = 1;                                        ///< B, most prompts one step may carry
    seconds_t interarrival{};                              ///< 1 ÷ λ, Poisson arrivals
    std::array<double, bulk_service::capacity> share{};    ///< π_Q: the share of steps that start with Q queued
};

/// The engine of `capped_bulk_service` for a step price `t(c)`, Poisson arrivals one every
/// `interarrival`, and at most `cap` prompts a step. Refused when the queue would outgrow
/// `capacity` (more than 10⁻⁹ of the mass beyond it): arrivals then outpace the steps.
template <class Step, duration T>
[[nodiscard]] constexpr capped_bulk_service capped_bulk_steps(const Step& t, const T& interarrival, double cap) {
    capped_bulk_service e{};
    e.interarrival = in_base_units(interarrival);
    const double gap = e.interarrival.value();
    require(positive_finite(gap), "bulk-service queue", "interarrival (s)", gap, "must be positive and finite");
    require(cap >= 1.0 && cap < static_cast<double>(bulk_service::capacity) && llmcost::detail::const_trunc(cap) == cap,
            "bulk-service queue", "cap (prompts a step)", cap, "a whole number of prompts, from 1 to 159");
    e.cap = cap;
    const auto b = static_cast<std::size_t>(cap);
    for (std::size_t c = 0; c <= b; ++c) {
        e.step[c] = in_base_units(t(static_cast<double>(c)));
        require(positive_finite(e.step[c].value()), "bulk-service queue", "step time (s)", e.step[c].value(),
                "must be positive and finite");
    }
    std::array<double, bulk_service::capacity> row{}, next{};
    detail::poisson_row(e.step[0].value() / gap, e.share);
    for (int it = 0; it < 20000; ++it) {
        next.fill(0.0);
        double lost = 0.0;
        for (std::size_t q = 0; q < bulk_service::capacity; ++q) {
            if (!(e.share[q] > 1e-300)) continue;
            const std::size_t c = q < b ? q : b, left = q - c;
            detail::poisson_row(e.step[c].value() / gap, row);
            double kept = 0.0;
            for (std::size_t a = 0; a + left < bulk_service::capacity; ++a) {
                next[a + left] += e.share[q] * row[a];
                kept += row[a];
            }
            lost += e.share[q] * (1.0 - kept);
        }
        require(lost < 1e-9, "bulk-service queue", "interarrival (s)", gap,
                "arrivals outpace the steps: more than 160 prompts would queue (use the simulator)");
        if (detail::renormalised_step(next, e.share) < 1e-13) break;
    }
    return e;
}

namespace detail {
/// Cells of a step's elapsed time in `capped_first_token`: the residual is integrated by the
/// midpoint rule over this many equal cells, uniform within each.
inline constexpr int capped_residual_cells = 16;

/// Visits every outcome of a random arrival to `capped_bulk_service` e (Poisson arrivals see time
/// averages: Wolff 1982) as f(weight, lowest TTFT, spread): it lands in a step that started with Q
/// queued with probability w_Q = π_Q·t(c) ÷ E[t], c = min(Q, B), in a cell of its elapsed time u
/// (residual r = t(c) − u, uniform over the cell's width, the spread); the L = Q − c left waiting
/// and the A₁ ~ Poisson(λu) that arrived before it are ahead, p = L + A₁, so it waits j = ⌊p ÷ B⌋
/// full steps of t(B), then rides a step of min(B, p mod B + 1 + A₂) prompts, A₂ ~ Poisson(λ(r + j·t(B)))
/// the arrivals behind it by then: TTFT = r + j·t(B) + t(min(B, p mod B + 1 + A₂)).
template <class F>
constexpr void capped_first_token_outcomes(const capped_bulk_service& e, const F& f) {
    const double lambda = 1.0 / e.interarrival.value();
    const auto b = static_cast<std::size_t>(e.cap);
    const double t_full = e.step[b].value();
    double mean = 0.0;
    for (std::size_t q = 0; q < bulk_service::capacity; ++q) mean += e.share[q] * e.step[q < b ? q : b].value();
    std::array<double, bulk_service::capacity> ahead{};
    for (std::size_t q = 0; q < bulk_service::capacity; ++q) {
        if (!(e.share[q] > 1e-15)) continue;  // states below 10⁻¹⁵ of the steps: no figure moves
        const std::size_t c = q < b ? q : b, left = q - c;
        const double tau = e.step[c].value(), w = e.share[q] * tau / mean, h = tau / capped_residual_cells;
        for (int i = 0; i < capped_residual_cells; ++i) {
            const double u = (static_cast<double>(i) + 0.5) * h, r = tau - u, mu1 = lambda * u;
            poisson_row(mu1, ahead);
            for (std::size_t a1 = 0; a1 + left < bulk_service::capacity; ++a1) {
                if (static_cast<double>(a1) > mu1 && ahead[a1] < 1e-16) break;  // the Poisson tail, past its mode
                const double p1 = w / capped_residual_cells * ahead[a1];
                const std::size_t pos = left + a1, j = pos / b, m = pos % b;
                const double wait = static_cast<double>(j) * t_full, mu2 = lambda * (r + wait);
                double rest = 1.0, p2 = llmcost::detail::const_exp(-mu2);  // Poisson(a₂; μ₂), a₂ = 0, 1, …
                for (std::size_t a2 = 0; m + 1 + a2 < b; ++a2) {
                    if (a2 > 0) p2 *= mu2 / static_cast<double>(a2);
                    f(p1 * p2, r - h / 2.0 + wait + e.step[m + 1 + a2].value(), h);
                    rest -= p2;
                }
                f(p1 * llmcost::detail::max(0.0, rest), r - h / 2.0 + wait + t_full, h);
            }
        }
    }
}
}  // namespace detail

/// P(TTFT ≤ x) for a random arrival to a `capped_bulk_service` (`capped_first_token_outcomes`).
template <duration T>
[[nodiscard]] constexpr double first_token_cdf(const capped_bulk_service& e, const T& x) {
    const double at = in_base_units(x).value();
    double f = 0.0;
    detail::capped_first_token_outcomes(e, [&](double w, double low, double width) {
        f += w * llmcost::detail::min(1.0, llmcost::detail::max(0.0, (at - low) / width));
    });
    return f;
}

/// E[TTFT] for a `capped_bulk_service`: the outcomes' mean, each cell at its middle.
[[nodiscard]] constexpr seconds_t first_token_mean(const capped_bulk_service& e) {
    double s = 0.0, total = 0.0;
    detail::capped_first_token_outcomes(e, [&](double w, double low, double width) {
        s += w * (low + width / 2.0);
        total += w;
    });
    return seconds(s / total);
}

/// The q-quantile of TTFT for a `capped_bulk_service`, q in (0, 1): its cdf inverted by bisection.
[[nodiscard]] constexpr seconds_t first_token_quantile(const capped_bulk_service& e, double q) {
    require(q > 0.0 && q < 1.0, "bulk-service queue", "percentile", q, "must be in (0, 1)",
            "llmcost.serving.percentile_open_unit");
    double lo = 0.0, hi = 0.0;
    detail::capped_first_token_outcomes(e, [&](double w, double low, double width) {
        if (w > 1e-12) hi = llmcost::detail::max(hi, low + width);
    });
    for (int i = 0; i < 60 && first_token_cdf(e, seconds(hi)) < q; ++i) hi *= 2.0;  // the tail beyond the bound
    for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = (lo + hi) / 2.0;
        (first_token_cdf(e, seconds(mid)) < q ? lo : hi) = mid;
    }
    return seconds(hi);
}

}  // namespace llmcost::queueing
