#pragma once
/// \file
/// The `llmcost` tool's sweep commands (the Eigen layer, plan/sweep.hpp, frontier.hpp, plan.hpp):
/// `frontier` — the Pareto frontier of throughput per GPU against speed per user over a grid of
/// GPUs, formats, layouts and batches, under latency targets (optionally drawn as an SVG); `plan` —
/// the cheapest deployment for a traffic description. Options in, a report out.

#include "commands.hpp"
#include "report.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace llmcost::cli {

/// `llmcost frontier`: which configurations are worth running for one request shape.
struct frontier_command {
    std::string model = "Llama-3.1-70B";             ///< catalog name, or a config.json (or its folder)
    std::vector<std::string> hardware{"H100 SXM5"};  ///< catalog names, or rows of `hardware_file`
    std::string hardware_file;                       ///< --hardware-file: GPUs of your own (tables/hardware.csv's format)
    std::vector<int> tp{1, 2, 4, 8};
    std::vector<int> pp{1};
    std::vector<int> ep{1};                          ///< > 1: expert parallel over attention-DP ranks, dp = ep ÷ tp
    std::vector<std::string> weights{};              ///< formats to compare; empty: the model's own
    std::string kv;                                  ///< empty: the model's own (FP8 weights keep it unless given)
    checkpoint_options checkpoint;                   ///< --excluded-modules, --kept-format, --eager-prompt
    std::string engine;                              ///< --engine: trtllm, vllm, sglang; empty: the reference engine
    double kv_memory_fraction = 0;                   ///< --kv-memory-fraction: f of the engine's KV pool rule; 0: its default
    double kv_block_tokens = 0;                      ///< --kv-block-tokens: the engine's KV block on every GPU; 0: its own
    double a2a_dispatch_cap = 0;                     ///< --a2a-dispatch-cap: the engine's MORI cap on every GPU; 0: its own
    std::string gemm_table;  ///< --gemm-table: the GEMM table every deployment loads (`gemm_table_named`); empty: none
    double clock_MHz = 0;    ///< --clock: the engine clock the runs pin, MHz; 0: not pinned
    std::string quick_reduce = "none";  ///< --quick-reduce: int4 = every engine's quantized all-reduce on (`quick_reduce_engines`)
    double input = 1000;                             ///< prompt tokens
    double output = 200;                             ///< generated tokens
    double ttft = 2.0;                               ///< s
    double tpot = 0.05;                              ///< s
    double max_batch = 4096;                         ///< the largest batch tried (the KV cache may allow less)
    bool disaggregated = false;                      ///< add disaggregated points (prefill and decode pools)
    double prefill_batch = 1;                        ///< prompts per prefill pass, disaggregated
    double prefix_hit = 0;                           ///< share of the prompt in a prefix cache, [0, 1) (disaggregated: the prefill pool's)
    std::string input_dist, output_dist, dataset;    ///< lengths that vary (as estimate); empty: --input/--output
    double ttft_percentile = 0;                      ///< 0: --ttft bounds the steady state; q: the q-quantile online
    double tpot_percentile = 0;                      ///< the same for --tpot
    double max_load = 1.0;                           ///< a point's online rate at most this share of the saturated rate
    speculation_options spec;                        ///< --spec: speculative decode steps with a draft head (colocated)
    std::string svg;                                 ///< write the frontier as an SVG here; empty: none
    bool ignore_max_position = false;
    std::ostream* progress = nullptr;                ///< where a long sweep says what it is doing (stderr)
};

/// `llmcost plan`: the cheapest fleet for a traffic description.
struct plan_command {
    std::string model = "Llama-3.1-70B";
    std::vector<std::string> hardware{};   ///< names; empty: every GPU of `hardware_file` and the catalog but the seed's
    std::string hardware_file;             ///< --hardware-file: GPUs of your own (tables/hardware.csv's format)
    double rate = 10;                      ///< requests per second at the peak
    double input = 1000, output = 200;     ///< the request shape, unless `mix` is given
    /// A mix of shapes "INPUT:OUTPUT:SHARE,…" (e.g. "2000:500:3,8000:1000:1"), each item also a
    /// dataset's lengths "NAME:SHARE" (e.g. "sharegpt4:3,azure-code:1"); empty: input/output.
    std::string mix;
    std::string input_dist, output_dist, dataset;  ///< lengths that vary (as estimate), instead of input/output
    double ttft = 2.0;                     ///< s
    double tpot = 0.05;                    ///< s
    double ttft_percentile = 0;            ///< 0: --ttft bounds the mean; q in (0, 1): the q-quantile
    double tpot_percentile = 0;            ///< the same for --tpot
    double max_load = 1.0;                 ///< size the fleet at rate ÷ max_load
    double max_gpus = 0;                   ///< GPUs in the fleet; 0: no cap
    int max_instance_gpus = 8;             ///< GPUs in one instance (replica or EP group)
    std::vector<std::string> weights{};    ///< formats to consider; empty: the model's own
    std::string kv;
    checkpoint_options checkpoint;         ///< --excluded-modules, --kept-format, --eager-prompt
    std::string engine;                    ///< --engine: trtllm, vllm, sglang; empty: the reference engine
    double kv_memory_fraction = 0;         ///< --kv-memory-fraction: f of the engine's KV pool rule; 0: its default
    double kv_block_tokens = 0;            ///< --kv-block-tokens: the engine's KV block on every GPU; 0: its own
    double a2a_dispatch_cap = 0;           ///< --a2a-dispatch-cap: the engine's MORI cap on every GPU; 0: its own
    std::string gemm_table;  ///< --gemm-table: the GEMM table every deployment loads (`gemm_table_named`); empty: none
    double clock_MHz = 0;    ///< --clock: the engine clock the runs pin, MHz; 0: not pinned
    std::string quick_reduce = "none";  ///< --quick-reduce: int4 = every engine's quantized all-reduce on (`quick_reduce_engines`)
    double usd_per_gpu_hour = 0;           ///< one price for every GPU type; 0: per type or the catalog's
    std::vector<std::string> prices{};     ///< "NAME=USD_PER_GPU_HOUR" per GPU type
    double utilisation = 1.0;              ///< mean load ÷ the peak rate
    std::string pricing = "market";        ///< market | committed | tco (pricing_basis), where no price is given
    bool colocated_only = false;           ///< leave disaggregated serving out
    double prefix_hit = 0;                 ///< share of every prompt in a prefix cache, [0, 1) (disaggregated: the prefill pool's)
    speculation_options spec;              ///< --spec: speculative decode steps with a draft head, colocated only
    bool ignore_max_position = false;
    std::ostream* progress = nullptr;      ///< where a long search says what it is doing (stderr)
};

/// The frontier's points, fastest per user last: GPU, formats, layout, mode, batch, TTFT, TPOT,
/// tokens/s per user and per GPU (and P:D for disaggregated points). Unknown names are usage errors.
[[nodiscard]] report frontier(const frontier_command& c);

/// The cheapest plan per GPU type and serving mode, cheapest first: GPUs, layout, P:D, batch limit,
/// latency, $ per million tokens, power. GPU types without a price are left out with a note.
[[nodiscard]] report plan(const plan_command& c);

}  // namespace llmcost::cli
