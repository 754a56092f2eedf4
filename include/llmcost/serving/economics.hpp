#pragma once
/// \file
/// Economics of a token factory (seed S33, S34, T1, T7, T8, T10): what a GPU-hour costs
/// (capital ÷ depreciation + energy at a utilisation), what a token costs at a utilisation, the
/// output/input and cached/input price ratios that follow from decode and prefill GPU-seconds,
/// break-even utilisation and payback of a facility, time to finish a task, and the point where
/// inference spending overtakes a one-off training bill.
///
/// Conventions:
/// - **Utilisation** u ∈ [0, 1] is the fraction of wall-clock time a GPU does paid work. Power
///   follows the linear server model P(u) = P_idle + u · (P_board − P_idle) (Fan, Weber & Barroso,
///   "Power provisioning for a warehouse-sized computer", ISCA 2007).
/// - **Full-use rates** (`gpu_token_rates`) are tokens per second *per GPU* while it works;
///   at utilisation u a GPU makes u times as many. They are typed inputs, so any throughput model
///   (this library's passes, a benchmark, a vendor figure) can feed them.
/// - Every cost is per GPU; a token's cost is the GPU's cost per second ÷ the tokens it makes per
///   second: c = C(u) ÷ (u · R).
///
/// **Example**
/// \code
/// #include <llmcost/catalog.hpp>   // the seed's token factory (catalog/economics.hpp)
/// #include <llmcost/llmcost.hpp>   // the economics
/// using namespace llmcost::literals;
/// hardware h = catalog::b300_hgx;
/// h.capex_per_gpu = catalog::seed_token_factory.capex_per_gpu();         // T1: ≈ $70k all-in
/// const gpu_token_rates r{.prefill = 20'000_tok_per_s, .decode = 900_tok_per_s};
/// const token_costs c = cost_per_token(h, catalog::seed_token_factory_site, r, 0.5);
/// // dollars_per_million_tokens_t{c.output}.value() is the output price floor in $/M tokens
/// \endcode

#include <llmcost/descriptors/economics.hpp>
#include <llmcost/serving/economics/break_even.hpp>
#include <llmcost/serving/economics/context_tier.hpp>
#include <llmcost/serving/economics/gpu_hour.hpp>
#include <llmcost/serving/economics/gpu_price.hpp>
#include <llmcost/serving/economics/price_ratios.hpp>
#include <llmcost/serving/economics/task_time.hpp>
#include <llmcost/serving/economics/token_cost.hpp>
#include <llmcost/serving/economics/training.hpp>
