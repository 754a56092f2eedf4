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
    double requests = 1000;
    double seed = 1;
    double max_batch = 0, max_tokens = 0, prefill_chunk = 0;
    bool optimistic = false;      ///< reserve KV for what is cached only (preempt and recompute)
    double ttft_target = 0, tpot_target = 0;  ///< SLOs for goodput (0: none)
};

/// Runs the simulation; a progress line goes to `progress` when the run takes more than a second.
[[nodiscard]] report simulate(const simulate_command& c, std::ostream& progress);

}  // namespace llmcost::cli
