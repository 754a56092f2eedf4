#pragma once
/// \file
/// The journey's inverse questions (seed S38): what it would take for a request's journey to last
/// a given end to end — passes k× slower, a lower sustained HBM fraction, or a larger batch.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/serving/journey.hpp>

namespace llmcost::journey {

// ---- what it takes to reach a given end-to-end time (S38) ----------------------------------------

/// k = (target − everything else) ÷ (decode + neighbours' prefills) — how many times slower the
/// passes after the first token must run for the journey to take `target`. Model-agnostic: it
/// scales whatever the pass model gives. k < 1 means the journey is already longer.
template <duration T>
[[nodiscard]] constexpr double decode_slowdown_for(const times& t, const T& target) {
    const seconds_t after_first = t.decode + t.neighbour_prefills;
    require(after_first.value() > 0.0, "journey", "output (tokens)", t.output.value(),
            "needs at least two output tokens to scale the decode");
    return ratio(in_base_units(target) - (t.end_to_end() - after_first), after_first);
}

/// η such that end to end = target, by bisection on the GPU's sustained HBM fraction
/// (end to end falls as η rises). Requires end to end at η = 1 ≤ target.
template <duration T>
[[nodiscard]] constexpr double hbm_efficiency_for(const scenario& s, const T& target) {
    const seconds_t goal = in_base_units(target);
    auto at = [&](double eta) {
        scenario t = s;
        t.serving.hw.gpu.efficiency.hbm = eta;
        return breakdown(t).end_to_end();
    };
    require(at(1.0) <= goal, s.name, "target end to end (s)", goal.value(),
            "is shorter than the journey at 100 % of the HBM bandwidth");
    double lo = 1e-6, hi = 1.0;  // at(lo) > goal ≥ at(hi)
    if (at(lo) <= goal) return lo;
    for (int i = 0; i < 100 && hi - lo > 1e-12; ++i) {
        const double mid = (lo + hi) / 2.0;
        (at(mid) > goal ? lo : hi) = mid;
    }
    return hi;
}

/// The smallest whole batch (from the scenario's up to what fits in KV memory) at which end to end
/// ≥ target; 0 when none does. A linear scan: no monotonicity assumed.
template <duration T>
[[nodiscard]] constexpr double batch_for(const scenario& s, const T& target) {
    const seconds_t goal = in_base_units(target);
    const double fits = max_sequences(s.serving, s.prompt + s.output);
    for (double b = s.batch; b <= fits; b += 1.0) {
        scenario t = s;
        t.batch = b;
        if (breakdown(t).end_to_end() >= goal) return b;
    }
    return 0.0;
}

}  // namespace llmcost::journey
