#pragma once
/// \file
/// Optics (seed S9, S10, S35): inside a scale-up domain GPUs are joined by copper; every link that
/// leaves the domain needs optical transceivers, and those draw power.

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/detail/math.hpp>

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

/// A cluster of one GPU type, as `llmcost optics` prints it: copper inside a scale-up domain, optical
/// transceivers on every scale-out link once the cluster outgrows one domain (S9, S10, S36).
struct cluster_optics {
    double gpus = 0;                  ///< GPUs in the cluster
    bool optical = false;             ///< more GPUs than one scale-up domain: scale-out links are optical
    double domains = 0;               ///< scale-up domains: ⌈GPUs ÷ domain size⌉
    double transceivers = 0;          ///< GPUs × transceivers per GPU when optical, else 0
    watts_t power;                    ///< all transceivers (`transceiver_power`)
    watts_t per_gpu;                  ///< power ÷ GPUs
    double share_of_board_power = 0;  ///< per_gpu ÷ the GPU's board power
    double scale_up_advantage = 0;    ///< scale-up ÷ scale-out bandwidth, per direction (`scale_up_advantage`)
    [[nodiscard]] constexpr bool operator==(const cluster_optics&) const = default;
};

/// The optics of `gpus` GPUs of `h`: P = transceiver_power(h, n), per GPU P ÷ n, its share of P_board
/// (S10), domains ⌈n ÷ domain⌉ (S9), and the scale-up ÷ scale-out bandwidth (S36).
[[nodiscard]] constexpr cluster_optics optics_of(const hardware& h, double gpus) {
    require(gpus >= 1.0 && gpus <= 1e12, h.name, "gpus", gpus,
            "a cluster has at least one GPU (and at most 10^12)");
    cluster_optics c{};
    c.gpus = gpus;
    c.optical = gpus > h.scale_up_domain;
    const double domain = static_cast<double>(h.scale_up_domain);
    c.domains = detail::const_ceil(gpus / domain);
    c.transceivers = c.optical ? gpus * h.transceivers_per_gpu : 0.0;
    c.power = transceiver_power(h, gpus);
    c.per_gpu = c.power / gpus;
    c.share_of_board_power = ratio(c.per_gpu, h.gpu.board_power);
    c.scale_up_advantage = scale_up_advantage(h);
    return c;
}

}  // namespace llmcost
