#pragma once
/// \file
/// `llmcost simulate`: a deployment under a workload, run through the library's discrete-event
/// simulator (sim/simulate.hpp); percentiles of TTFT, TPOT, ITL and E2E, throughput, utilisation.
/// The options live here; their flags are registered by simulate_cli.hpp (included by cli.cpp).

#include "commands.hpp"

#include <iosfwd>
#include <string>

namespace llmcost::cli {

struct simulate_command {
    deployment_options dep;
    double rate = 0;              ///< requests/s, whole deployment (0: --concurrency or --trace)
    double concurrency = 0;       ///< closed-loop clients (0: --rate or --trace)
    std::string arrivals = "poisson";
    double cv = 1.0;              ///< gamma arrivals' coefficient of variation
    std::string input_dist = "1000";
    std::string output_dist = "200";
    std::string trace;            ///< a trace CSV (replaces the arrivals and the lengths)
    std::string dataset;          ///< a dataset preset's lengths (catalog/datasets.hpp), instead of the dists
    double requests = 1000;
    double seed = 1;
    double max_batch = 0, max_tokens = 0, prefill_chunk = 0;
    bool optimistic = false;      ///< reserve KV for what is cached only (preempt and recompute)
    double ttft_target = 0, tpot_target = 0;  ///< SLOs for goodput (0: none)
    std::string preemption = "recompute";     ///< what a preempted sequence's KV becomes: recompute or swap
    double prefix_hit_rate = 0;               ///< share of every prompt found in the prefix cache
    bool prefix_cache = false;                ///< a trace's prefix ids find their shared part cached
    double shared_prefix = 0;                 ///< the shared part's length (0: the shorter prompt)
    double prefill_servers = 0;               ///< disaggregated: servers that only prefill (0: colocated)
    std::string kv_path = "scale-out";        ///< disaggregated: the KV's link, scale-out or scale-up
    std::string svg;                          ///< draw the CDFs and the occupancy over time into this file
};

/// Runs the simulation; a progress line goes to `progress` when the run takes more than a second.
[[nodiscard]] report simulate(const simulate_command& c, std::ostream& progress);

}  // namespace llmcost::cli
