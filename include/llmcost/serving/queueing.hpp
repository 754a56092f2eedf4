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

}  // namespace llmcost::queueing
