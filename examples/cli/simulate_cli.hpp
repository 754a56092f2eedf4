#pragma once
/// \file
/// The flags of `llmcost simulate` (CLI11), registered by cli.cpp beside its deployment flags.

#include "simulate_command.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

namespace llmcost::cli {

inline void add_simulate_options(CLI::App* app, simulate_command& c) {
    const CLI::Validator positive{[](std::string& s) -> std::string {
                                      double v = 0;
                                      if (!CLI::detail::lexical_cast(s, v)) return "'" + s + "' is not a number";
                                      if (!std::isfinite(v) || v <= 0) return "must be positive and finite, got " + s;
                                      return {};
                                  },
                                  "POSITIVE"};
    const CLI::Validator whole{[](std::string& s) -> std::string {
                                   double v = 0;
                                   if (!CLI::detail::lexical_cast(s, v) || !(v >= 1 && v <= 1e9) || v != std::floor(v))
                                       return "must be a whole number from 1 to 10^9, got '" + s + "'";
                                   return {};
                               },
                               "COUNT"};
    CLI::Option* rate = app->add_option("--rate", c.rate, "Requests per second, whole deployment (open arrivals)")->check(positive);
    CLI::Option* conc = app->add_option("--concurrency", c.concurrency, "Closed loop: N clients, each sending its next request when answered")
                            ->check(whole);
    CLI::Option* trace = app->add_option("--trace", c.trace, "Replay a trace CSV: arrival_s,input_tokens,output_tokens[,prefix_id]");
    rate->excludes(conc);
    trace->excludes(rate);
    trace->excludes(conc);
    app->add_option("--arrivals", c.arrivals, "poisson or gamma (with --cv)")->check(CLI::IsMember({"poisson", "gamma"}))->capture_default_str();
    app->add_option("--cv", c.cv, "Gamma arrivals: coefficient of variation of the gaps (>1 bursty)")->check(positive)->capture_default_str();
    app->add_option("--input-dist", c.input_dist, "Prompt lengths: L, fixed:L, uniform:LO:HI, lognormal:MEAN:SD[:MAX]")->capture_default_str();
    app->add_option("--output-dist", c.output_dist, "Output lengths, as --input-dist")->capture_default_str();
    app->add_option("--requests", c.requests, "Requests to simulate (a trace: all of its)")->check(whole)->capture_default_str();
    app->add_option("--seed", c.seed, "Seed of the draws (same seed, same figures)")->check(whole)->capture_default_str();
    app->add_option("--max-batch", c.max_batch, "Cap on running sequences")->check(positive);
    app->add_option("--max-tokens", c.max_tokens, "Cap on tokens per step")->check(positive);
    app->add_option("--prefill-chunk", c.prefill_chunk, "Chunked prefill: prompt chunks of at most this many tokens")->check(positive);
    app->add_flag("--optimistic", c.optimistic, "Reserve KV only for what is cached (preempt and recompute when it runs out)");
    app->add_option("--slo-ttft", c.ttft_target, "TTFT target for goodput, s")->check(positive);
    app->add_option("--slo-tpot", c.tpot_target, "TPOT target for goodput, s")->check(positive);
}

}  // namespace llmcost::cli
