#pragma once
/// \file
/// The flags of `llmcost simulate` (CLI11), registered by cli.cpp beside its deployment flags.

#include "rate_flag.hpp"
#include "simulate_command.hpp"

#include <llmcost/catalog/datasets.hpp>

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
    CLI::Option* rate = app->add_option("--rate", c.rate, "Requests per second, whole deployment (open arrivals)")->transform(rate_check);
    CLI::Option* conc = app->add_option("--concurrency", c.concurrency, "Closed loop: N clients, each sending its next request when answered")
                            ->check(whole);
    CLI::Option* trace = app->add_option("--trace", c.trace, "Replay a trace CSV: arrival_s,input_tokens,output_tokens[,prefix_id]")
                             ->check(not_empty("a trace file"));
    rate->excludes(conc);
    trace->excludes(rate);
    trace->excludes(conc);
    app->add_option("--arrivals", c.arrivals, "poisson or gamma (with --cv)")->check(CLI::IsMember({"poisson", "gamma"}))->capture_default_str();
    app->add_option("--cv", c.cv, "Gamma arrivals: coefficient of variation of the gaps (>1 bursty)")->check(positive)->capture_default_str();
    CLI::Option* in = app->add_option("--input-dist", c.input_dist, "Prompt lengths: L, fixed:L, uniform:LO:HI, lognormal:MEAN:SD[:MAX]")->capture_default_str();
    CLI::Option* out = app->add_option("--output-dist", c.output_dist, "Output lengths, as --input-dist")->capture_default_str();
    std::string about_sets = "Prompt and output lengths of a public dataset (tables/datasets.csv): ";
    about_sets += catalog::dataset_names();
    CLI::Option* set = app->add_option("--dataset", c.dataset, about_sets)->check(not_empty(catalog::dataset_names()));
    set->excludes(in);
    set->excludes(out);
    set->excludes(trace);
    app->add_option("--requests", c.requests, "Requests to simulate (a trace: all of its)")->check(whole)->capture_default_str();
    app->add_option("--seed", c.seed, "Seed of the draws (same seed, same figures)")->check(whole)->capture_default_str();
    app->add_option("--max-batch", c.max_batch, "Cap on running sequences")->check(positive);
    app->add_option("--max-tokens", c.max_tokens, "Cap on tokens per step")->check(positive);
    app->add_option("--prefill-chunk", c.prefill_chunk, "Chunked prefill: prompt chunks of at most this many tokens")->check(positive);
    app->add_flag("--optimistic", c.optimistic, "Reserve KV only for what is cached (preempt and recompute when it runs out); "
                                               "implied by --engine vllm|sglang, which admit on the KV in use");
    app->add_option("--preemption", c.preemption, "With --optimistic: a preempted sequence's KV is recomputed or swapped to host memory "
                                       "(swap: not with --engine vllm, whose V1 scheduler only recomputes, nor --engine sglang "
                                       "unless --prefill-servers, whose decode servers alone copy it to host)")
        ->check(CLI::IsMember({"recompute", "swap"}))->capture_default_str();
    const CLI::Validator fraction{[](std::string& s) -> std::string {
                                      double v = 0;
                                      if (!CLI::detail::lexical_cast(s, v) || !(v >= 0 && v < 1))  // as --prefix-hit
                                          return "must be in [0, 1) (at least the prompt's last token is computed), got '" + s + "'";
                                      return {};
                                  },
                                  "SHARE"};
    app->add_option("--prefix-hit-rate", c.prefix_hit_rate, "Share of every prompt found in the prefix cache (token hit rate)")
        ->check(fraction);
    app->add_flag("--prefix-cache", c.prefix_cache, "With --trace: a prompt whose prefix_id was prefilled before finds the shared part cached");
    app->add_option("--shared-prefix", c.shared_prefix, "With --prefix-cache: the shared part's length in tokens (default: the shorter prompt)")
        ->check(positive);
    app->add_option("--prefill-servers", c.prefill_servers, "Disaggregated: this many of the dp x pp servers only prefill, the rest decode")
        ->check(whole);
    app->add_option("--kv-path", c.kv_path, "Disaggregated: the prompt's KV crosses scale-out (NIC) or scale-up (NVLink)")
        ->check(CLI::IsMember({"scale-out", "scale-up"}))->capture_default_str();
    app->add_option("--svg", c.svg, "Also draw the TTFT and TPOT CDFs and the batch and KV occupancy over time into this SVG file")
        ->check(not_empty("a file name"));
    app->add_option("--slo-ttft", c.ttft_target, "TTFT target for goodput, s")->check(positive);
    app->add_option("--slo-tpot", c.tpot_target, "TPOT target for goodput, s")->check(positive);
}

}  // namespace llmcost::cli
