#pragma once
/// \file
/// Optics (seed S9, S10, S35): inside a scale-up domain GPUs are joined by copper; every link that
/// leaves the domain needs optical transceivers, and those draw power.

#include <llmcost/descriptors/hardware.hpp>

namespace llmcost {

/// P = GPUs × transceivers per GPU × watts per transceiver (S10: 10⁶ × 6 × 30 W = 180 MW).
/// Only scale-out links are optical; a cluster that is a single scale-up domain needs none.
[[nodiscard]] constexpr watts_t transceiver_power(const hardware& h, double gpus) {
    if (gpus <= h.scale_up_domain) return watts(0.0);  // one domain: copper only (S9)
    return h.transceiver_power * (gpus * h.transceivers_per_gpu);
}

/// W per transceiver implied by a cluster's optics budget: P ÷ (GPUs × transceivers per GPU).
template <power P>
[[nodiscard]] constexpr watts_t watts_per_transceiver(const P& budget, double gpus, double per_gpu) {
    return in_base_units(budget) / (gpus * per_gpu);
}

/// Scale-up ÷ scale-out bandwidth, like for like (per direction). S36 quotes 36× by dividing
/// NVLink's both-directions 1.8 TB/s by one direction of a 400 Gb/s NIC; like for like it is 18×.
[[nodiscard]] constexpr double scale_up_advantage(const hardware& h) {
    return ratio(h.scale_up.per_direction, h.scale_out.per_direction);
}
/// The same ratio as vendors' slides compute it: both-directions scale-up ÷ one-direction NIC.
[[nodiscard]] constexpr double scale_up_advantage_as_quoted(const hardware& h) {
    return ratio(h.scale_up.both_directions(), h.scale_out.per_direction);
}

}  // namespace llmcost
