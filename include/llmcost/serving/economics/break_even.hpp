#pragma once
/// \file
/// A facility's money over time (seed T1, T7): revenue at full use, the utilisation at which a
/// price list breaks even, payback of the capital, and how much of the site's power the GPUs
/// draw and swing.

#include <llmcost/descriptors/economics.hpp>
#include <llmcost/serving/economics/gpu_hour.hpp>
#include <limits>

namespace llmcost {

/// V = price × R — revenue per GPU-second at full use, selling one kind of token (T7).
[[nodiscard]] constexpr dollars_per_second_t full_use_revenue(const dollars_per_token_t& price,
                                                              const tokens_per_second_t& rate) {
    return price * rate;
}

/// V = (n_in · p_in + n_out · p_out) ÷ (n_in ÷ R_prefill + n_out ÷ R_decode) — revenue per
/// GPU-second at full use for requests of n_in input and n_out output tokens.
[[nodiscard]] constexpr dollars_per_second_t full_use_revenue(const token_prices& p, const gpu_token_rates& r,
                                                              const tokens_t& input, const tokens_t& output) {
    p.validate();
    r.validate();
    require(input.value() >= 0.0 && output.value() >= 0.0 && input.value() + output.value() > 0.0,
            "full_use_revenue", "input + output (tokens)", input.value() + output.value(),
            "a request has zero or more tokens of each kind and at least one in all");
    return (input * p.input + output * p.output) / (input / r.prefill + output / r.decode);
}

/// The utilisation at which revenue meets cost; `reachable` when it lies in (0, 1].
struct break_even {
    double utilisation = 0.0;  ///< u*; +∞ when the marginal energy cost eats the whole revenue
    bool reachable = false;
    [[nodiscard]] constexpr bool operator==(const break_even&) const = default;
};

/// u* = K ÷ V — fixed cost per second ÷ revenue per second at full use (T7, as the ledger states it:
/// depreciation per hour ÷ token value per hour at full use).
[[nodiscard]] constexpr break_even break_even_utilisation(const dollars_per_second_t& fixed_cost,
                                                          const dollars_per_second_t& full_use) {
    require(non_negative_finite(fixed_cost.value()), "break_even_utilisation", "fixed_cost ($/s)",
            fixed_cost.value(), "must be zero or positive and finite");
    require(non_negative_finite(full_use.value()), "break_even_utilisation", "full_use ($/s)", full_use.value(),
            "must be zero or positive and finite");
    if (full_use.value() <= 0.0) return {.utilisation = detail::infinity, .reachable = false};
    const double u = ratio(fixed_cost, full_use);
    return {.utilisation = u, .reachable = u > 0.0 && u <= 1.0};
}

/// u* = (K + E(0)) ÷ (V − E₁) with running cost E(u) = E(0) + u · E₁ (energy linear in u) — capital
/// and energy covered (T7 with the power bill). Unreachable when V ≤ E₁ or u* > 1.
[[nodiscard]] constexpr break_even break_even_utilisation(const hardware& h, const facility& f,
                                                          const dollars_per_second_t& full_use,
                                                          gpu_cost_options o = {}) {
    const gpu_cost_rate at0 = gpu_hour_cost(h, f, 0.0, o);
    const gpu_cost_rate at1 = gpu_hour_cost(h, f, 1.0, o);
    const dollars_per_second_t marginal = at1.energy - at0.energy;
    if (full_use <= marginal) return {.utilisation = detail::infinity, .reachable = false};
    const double u = ratio(at0.total(), full_use - marginal);
    return {.utilisation = u, .reachable = u > 0.0 && u <= 1.0};
}

/// A GPU's books at one utilisation: revenue u · V against capital and energy.
struct utilisation_economics {
    double utilisation = 0.0;
    dollars_per_second_t revenue;  ///< u · V
    gpu_cost_rate cost;            ///< at u

    /// Profit after depreciation and energy.
    [[nodiscard]] constexpr dollars_per_second_t profit() const { return revenue - cost.total(); }
    /// Cash margin: revenue − energy (depreciation is not a cash outlay); it repays the capex.
    [[nodiscard]] constexpr dollars_per_second_t cash_margin() const { return revenue - cost.energy; }
    /// Revenue ÷ depreciation (T7: "at 10 % it pays twice").
    [[nodiscard]] constexpr double revenue_over_depreciation() const { return ratio(revenue, cost.capital); }
    /// Revenue ÷ (depreciation + energy).
    [[nodiscard]] constexpr double revenue_over_cost() const { return ratio(revenue, cost.total()); }
};

/// revenue = u · V, cost = C(u) — a GPU's economics at utilisation u (T7).
[[nodiscard]] constexpr utilisation_economics economics_at(const hardware& h, const facility& f,
                                                           const dollars_per_second_t& full_use, double utilisation,
                                                           gpu_cost_options o = {}) {
    utilisation_economics e{};
    e.utilisation = utilisation;
    e.cost = gpu_hour_cost(h, f, utilisation, o);
    e.revenue = full_use * utilisation;
    return e;
}

/// T_payback = capex ÷ cash margin per second — time to earn the capital back; +∞ when the margin
/// is not positive (T7: "paid back within a year").
[[nodiscard]] constexpr seconds_t payback_period(const dollars_t& capex, const dollars_per_second_t& cash_margin) {
    require(non_negative_finite(capex.value()), "payback_period", "capex ($)", capex.value(),
            "must be zero or positive and finite");
    if (cash_margin.value() <= 0.0) return seconds(detail::infinity);
    return capex / cash_margin;
}

/// T_payback = capex ÷ (u · V − E(u)) — the GPU's capital repaid from revenue less energy (T7).
[[nodiscard]] constexpr seconds_t payback_period(const hardware& h, const facility& f,
                                                 const dollars_per_second_t& full_use, double utilisation,
                                                 gpu_cost_options o = {}) {
    return payback_period(h.capex_per_gpu, economics_at(h, f, full_use, utilisation, o).cash_margin());
}

/// P_site ÷ P_wall(1) — how many times the GPUs' full-load wall draw the site's power per GPU covers
/// (T1: 10 kW per GPU against ≈ 1.7 kW for a B300 at 1.3 × 1.2).
[[nodiscard]] constexpr double provisioned_power_ratio(const facility_plan& plan, const hardware& h,
                                                       const facility& f, gpu_cost_options o = {}) {
    plan.validate();
    return ratio(plan.facility_power_per_gpu(), wall_power_at(h, f, 1.0, o));
}

/// ΔP = GPUs · (P_board − P_idle) · overhead · cooling — the step in site load when every GPU goes
/// from idle to full use at once, the swing a grid minds more than the load itself (T12).
[[nodiscard]] constexpr watts_t site_power_swing(const hardware& h, const facility& f, double gpus) {
    require(non_negative_finite(gpus), "site_power_swing", "gpus", gpus, "must be zero or positive and finite");
    return (h.gpu.board_power - h.gpu.idle_power) * (gpus * f.power_multiplier());
}

}  // namespace llmcost
