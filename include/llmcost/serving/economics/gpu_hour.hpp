#pragma once
/// \file
/// What a GPU-hour costs (seed S33, T7): capital ÷ depreciation + energy at a utilisation, with
/// power on the linear server model P(u) = P_idle + u · (P_board − P_idle) (Fan, Weber & Barroso,
/// ISCA 2007), optionally the GPU's optical transceivers (S10).

#include <llmcost/costs/optics.hpp>
#include <llmcost/descriptors/economics.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/validation.hpp>

namespace llmcost {

/// A GPU's cost per second at a utilisation, split into capital and energy.
struct gpu_cost_rate {
    dollars_per_second_t capital;  ///< capex ÷ depreciation period
    dollars_per_second_t energy;   ///< wall power × electricity price
    watts_t wall_power;            ///< average draw at the wall, GPU share of server and cooling

    [[nodiscard]] constexpr dollars_per_second_t total() const { return capital + energy; }
    [[nodiscard]] constexpr bool operator==(const gpu_cost_rate&) const = default;
};

/// P(u) = P_idle + u · (P_board − P_idle) — average board draw at utilisation u (Fan et al. 2007).
[[nodiscard]] constexpr watts_t gpu_power_at(const accelerator& g, double utilisation) {
    require(utilisation >= 0.0 && utilisation <= 1.0, g.name, "utilisation", utilisation, "must be in [0, 1]");
    return g.idle_power + (g.board_power - g.idle_power) * utilisation;
}

/// P_wall = P(u) · overhead · cooling (+ n_xcvr · P_xcvr · cooling) — wall power per GPU (S30, S10).
[[nodiscard]] constexpr watts_t wall_power_at(const hardware& h, const facility& f, double utilisation,
                                              gpu_cost_options o = {}) {
    const watts_t optics = o.optics ? h.transceiver_power * (h.transceivers_per_gpu * f.cooling) : watts(0.0);
    return gpu_power_at(h.gpu, utilisation) * f.power_multiplier() + optics;
}

/// C(u) = capex ÷ T_dep + P_wall(u) · price — $ per GPU-second (T7; S30 multipliers).
/// `h.capex_per_gpu` must be known (> 0): set it (e.g. from a `facility_plan`) before pricing.
[[nodiscard]] constexpr gpu_cost_rate gpu_hour_cost(const hardware& h, const facility& f, double utilisation,
                                                    gpu_cost_options o = {}) {
    f.validate();
    require(positive_finite(h.capex_per_gpu.value()), h.name, "capex_per_gpu ($)", h.capex_per_gpu.value(),
            "unknown (0) for this hardware: set capex_per_gpu before pricing a GPU-hour");
    gpu_cost_rate c{};
    c.capital = h.capex_per_gpu / f.depreciation;
    c.wall_power = wall_power_at(h, f, utilisation, o);
    c.energy = c.wall_power * f.electricity;
    return c;
}

}  // namespace llmcost
