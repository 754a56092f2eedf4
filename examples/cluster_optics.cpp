// Optics of a million-GPU cluster (ledger S9, S10, S35, S36): what the seed's 180 MW implies per
// transceiver, what the catalog's modules draw at that scale, and why the scale-up domain matters —
// copper inside, optics and a thinner pipe outside.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <array>
#include <cstdio>

int main() {
    using namespace llmcost;
    using namespace llmcost::literals;

    // S10: about 6 transceivers per GPU; 1,000,000 GPUs spend 180 MW on them.
    constexpr double gpus = 1e6, per_gpu = 6;
    constexpr watts_t seed_budget = 180_MW;
    constexpr watts_t implied = watts_per_transceiver(seed_budget, gpus, per_gpu);
    static_assert(approx_equal(implied, 30_W), "S10: 180 MW / (1e6 x 6) = 30 W");
    std::printf("S10  %s / (%.0f GPUs x %g transceivers) = %s per transceiver\n\n", to_text(seed_budget).c_str(), gpus,
                per_gpu, to_text(implied).c_str());

    const facility& site = catalog::seed_site;
    constexpr std::array systems{catalog::h100_sxm5, catalog::b200_hgx, catalog::gb200_nvl72,
                                 catalog::b300_hgx,  catalog::gb300_nvl72, catalog::rubin_vr200};
    std::printf("At %.0f GPUs with the catalog's modules (optics always on; wall = x %g cooling):\n", gpus,
                site.cooling);
    std::printf("  %-22s %6s %8s %12s %12s %10s %10s\n", "system", "xcvrs", "W each", "optics", "at the wall",
                "per GPU", "of board");
    for (const hardware& h : systems) {  // the figures `llmcost optics` prints (optics_of)
        const cluster_optics o = optics_of(h, gpus);
        std::printf("  %-22s %6d %8s %12s %12s %10s %9.1f%%\n", h.name.data(), h.transceivers_per_gpu,
                    to_text(h.transceiver_power).c_str(), to_text(o.power, {.digits = 3}).c_str(),
                    to_text(o.power * site.cooling, {.digits = 3}).c_str(), to_text(o.per_gpu).c_str(),
                    100.0 * o.share_of_board_power);
    }
    // A year of the seed's 180 MW at the seed site's price.
    const joules_t year = energy_at(seed_budget * site.cooling, years(1.0));
    std::printf("  The seed's %s for a year, with cooling: %s, $%.0f million of electricity at %s\n",
                to_text(seed_budget).c_str(), to_text(year, {.digits = 3, .energy = text::energy_style::watt_hours}).c_str(),
                (year * site.electricity).value() / 1e6, to_text(site.electricity, {.digits = 3}).c_str());
    for (const hardware& h : systems)
        if (approx_equal(h.transceiver_power, implied))
            std::printf("  %s's modules draw the %s per module S10 implies.\n", h.name.data(),
                        to_text(implied).c_str());

    // S9: one scale-up domain is copper only; optics start when a cluster outgrows it.
    const hardware& rack = catalog::gb200_nvl72;
    std::printf("\nS9   %s: %d GPUs in one domain need %s of optics; %d GPUs need %s\n", rack.name.data(),
                rack.scale_up_domain, to_text(optics_of(rack, rack.scale_up_domain).power).c_str(),
                2 * rack.scale_up_domain, to_text(optics_of(rack, 2.0 * rack.scale_up_domain).power).c_str());

    // S36: how much thicker the pipe is inside the domain. The seed's 36x divides NVLink's
    // both-directions figure by one direction of the NIC; like for like it is half of that.
    std::printf("\nS36  scale-up vs scale-out bandwidth per GPU\n");
    std::printf("  %-22s %-20s %12s   %-16s %12s %9s %9s\n", "system", "scale-up", "each way", "NIC", "each way",
                "like/like", "as quoted");
    for (const hardware& h : systems)
        std::printf("  %-22s %-20s %12s   %-16s %12s %8.0fx %8.0fx\n", h.name.data(), h.scale_up.name.data(),
                    to_text(h.scale_up.per_direction).c_str(), h.scale_out.name.data(),
                    to_text(h.scale_out.per_direction).c_str(), optics_of(h, gpus).scale_up_advantage,
                    scale_up_advantage_as_quoted(h));
    std::printf("  S36's 36x is %s's as-quoted ratio: %s both ways / %s one way; like for like %.0fx.\n",
                rack.name.data(), to_text(rack.scale_up.both_directions()).c_str(),
                to_text(rack.scale_out.per_direction).c_str(), scale_up_advantage(rack));
    return 0;
}
