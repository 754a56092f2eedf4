#pragma once
/// \file
/// Capacity planning: the cheapest deployment that serves a traffic description — an arrival
/// rate, a small mix of request shapes, latency targets — on one of several GPU types: how many
/// GPUs, in which parallel layout, colocated or disaggregated (with its P:D ratio), at which batch
/// limit, and what it costs per million tokens and draws in power.
///
/// Method: one sweep over GPU × formats × layout × serving mode × the mix's shapes × a ladder of
/// batches (plan/sweep.hpp). A batch is feasible for a deployment when every shape of the mix fits
/// at it and meets TTFT and mean TPOT. Each shape's requests then cost GPU time at that batch, and
/// the fleet is sized by what the mix needs at the peak rate, in whole instances:
///   colocated:      instances = ⌈λ · Σ wᵢ · gᵢ ÷ G⌉, gᵢ = GPU-seconds per request (1 ÷ goodput per GPU)
///   disaggregated:  P = ⌈λ · Σ wᵢ · pᵢ⌉, D = ⌈λ · Σ wᵢ · dᵢ⌉ (instance-seconds per request in each pool)
/// with G the GPUs of one instance (tp · pp, or a whole expert-parallel group). The plan with the
/// least money per second wins (ties: fewer GPUs). A load ceiling sizes at λ ÷ max_load; percentile
/// targets (`traffic::ttft_percentile`, `tpot_percentile`) add instances until the q-quantile under
/// Poisson arrivals at λ ÷ instances meets the target (`serve_online_latency`; a disaggregated plan
/// sizes its decode pool for TPOT, then its prefill pool for TTFT, each a queue of its own, a prefill
/// pass carrying at most the mode's prompts (`queueing::capped_bulk_steps`):
/// `detail::fewest_disaggregated`). Its best ladder batch is refined to the exact
/// integer batch between ladder steps. Each shape is priced as if the engine ran only its kind at
/// the chosen batch — a mix's steps are not modelled together.
///
/// `cheapest_fleet` and `candidate_layouts` are compiled once, in the `llmcost_plan` library (fleet-inl.hpp);
/// define `LLMCOST_HEADER_ONLY` to compile them here instead.
///
/// Money: $ per GPU-second on `pricing`'s basis (`price_gpu_hour`: the GPU's listed market price by
/// default, else capex and power at the utilisation), or a price the user gives (per GPU type, or one
/// for all). The rate λ is the peak the fleet is sized
/// for; `utilisation` = mean load ÷ peak, so the fleet makes u · λ requests per second on average:
///   $/output token = GPUs · C(u) ÷ (u · λ · Σ wᵢ · Oᵢ).
/// Power: every GPU at board power (busy: an upper bound, as in `estimate`), and at the wall
/// × server overhead × cooling.
///
/// **Example**
/// \code
/// const plan::fleet_result p = plan::cheapest_fleet(catalog::llama_3_1_70b,
///     {.requests_per_second = per_second(20), .mix = {{.shape = {.input = 2000_tok, .output = 500_tok}}},
///      .target = {.ttft = 2_s, .tpot = 50_ms}},
///     {.gpus = {catalog::h100_sxm5, catalog::h200_sxm}});
/// if (p.best) std::cout << p.best->gpus << " × " << p.best->d.hw.name << "\n";
/// \endcode

#include <llmcost/detail/header_only.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/plan/sweep.hpp>
#include <llmcost/catalog/prices.hpp>
#include <llmcost/serving/economics/gpu_hour.hpp>
#include <llmcost/serving/economics/gpu_price.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::plan {

/// One kind of request in the traffic and its share of the requests.
struct traffic_class {
    double share = 1.0;  ///< relative weight; shares are normalised over the mix
    request_shape shape{.input = tokens(1.0), .output = tokens(1.0)};
};

/// What must be served: requests per second at the peak, their shapes, the latency targets.
struct traffic {
    per_second_t requests_per_second = per_second(1.0);  ///< requests a second at the peak, the whole fleet
    std::vector<traffic_class> mix{};
    slo target{.ttft = seconds(1.0), .tpot = seconds(0.05)};
    /// 0: `target.ttft` bounds the TTFT of the steady state at the batch (a mean); q in (0, 1): it
    /// bounds TTFT's q-quantile under Poisson arrivals at the rate each instance gets
    /// (`ttft_percentile`), and the fleet grows until it holds (a disaggregated plan: each pool).
    double ttft_percentile = 0;
    double tpot_percentile = 0;  ///< the same for `target.tpot` (`tpot_percentile`)

    void validate() const {
        require(positive_finite(requests_per_second.value()), "traffic", "requests_per_second", requests_per_second.value(),
                "must be positive and finite");
        require(!mix.empty(), "traffic", "mix", 0, "name at least one request shape");
        for (const traffic_class& c : mix) {
            require(positive_finite(c.share), "traffic", "share", c.share, "must be positive and finite");
            c.shape.validate();
        }
        target.validate();
        require(!target.every_token, "traffic", "target.every_token", 1.0,
                "plans bound the mean TPOT and the TTFT; price every-token targets with colocated_goodput");
        for (const auto& [name, q] : {std::pair{"ttft_percentile", ttft_percentile}, std::pair{"tpot_percentile", tpot_percentile}})
            require(q == 0.0 || (q > 0.0 && q < 1.0), "traffic", name, q,
                    "must be 0 (the target bounds the mean) or a percentile in (0, 1), e.g. 0.9 for p90",
                    "llmcost.serving.percentile_open_unit");
        if (ttft_percentile > 0.0 || tpot_percentile > 0.0)
            for (const traffic_class& c : mix)
                require(!c.shape.spread(), "traffic", "mix.shape spread (tokens)",
                        c.shape.input_spread.value() + c.shape.output_spread.value(),
                        "percentile targets are priced for equal requests: lengths that vary plan with mean targets "
                        "(or run simulate)", "llmcost.plan.percentiles_equal_requests");
    }
    [[nodiscard]] bool percentiles() const { return ttft_percentile > 0.0 || tpot_percentile > 0.0; }
    [[nodiscard]] double total_share() const {
        double s = 0.0;
        for (const traffic_class& c : mix) s += c.share;
        return s;
    }
};

/// A price for one GPU type, by name (compared loosely: "h100-sxm5" is "H100 SXM5").
struct gpu_price {
    std::string_view hardware;
    dollars_per_second_t per_gpu{};
};

struct fleet_options {
    std::vector<hardware> gpus{};               ///< GPU types to consider
    std::vector<engine_profile> engines{};      ///< the engine on each of `gpus` (same order); empty: the reference
    std::vector<serving_formats> formats{{}};   ///< formats to consider ({} = the model's own)
    std::vector<parallel_layout> layouts{};     ///< empty: `candidate_layouts` up to max_instance_gpus
    int max_instance_gpus = 8;                  ///< GPUs in one instance (replica or EP group)
    double max_gpus = 0;                        ///< GPUs in the whole fleet; 0 = no cap
    bool colocated = true;                      ///< consider colocated serving
    std::vector<double> prefill_batches{1, 4, 16};  ///< disaggregated modes to consider; empty: none
    kv_path path = kv_path::scale_out;          ///< where a disaggregated KV cache travels
    std::vector<double> batches{};              ///< batch limits to try; empty: `batch_ladder()`
    bool refine = true;                         ///< refine each deployment's best batch between ladder steps
    scheduler_limits limits{};                  ///< KV reserve and caps applied when checking a batch fits
    facility site = facility::gpus_only();      ///< power multipliers, electricity, depreciation
    double utilisation = 1.0;                   ///< mean load ÷ the peak the fleet is sized for
    /// The most an instance may be loaded at the peak, instance-seconds needed ÷ instances: the fleet
    /// is sized at λ ÷ max_load (0.85: 15% headroom; latency percentiles grow fast near 1).
    double max_load = 1.0;
    std::vector<gpu_price> prices{};            ///< per GPU type; ahead of the catalog's capex
    dollars_per_second_t gpu_cost = dollars_per_second_t::from_value(0.0);  ///< for every GPU; 0: none
    /// Without a given price: each GPU's listed market price (on demand or committed) or capex + power
    /// (`price_gpu_hour`; a GPU with no listed price falls back to capex + power).
    pricing_basis pricing = pricing_basis::market;
    /// Where market and committed prices are looked up, by exact GPU name (tables/gpu_prices.csv).
    std::span<const gpu_market_price> market_prices = catalog::gpu_market_prices;
    /// Speculative decode steps in every deployment (`sweep_grid::speculation`: a draft head of the
    /// model): a colocated one's steps, a disaggregated one's decode pool. Off by default.
    speculative_decoding speculation{};
    /// The measured GEMM table every deployment's engine loads for the dense projections and the engine clock the runs
    /// pin, as the sweep takes them (`sweep_grid::projection_table`, `sweep_grid::clock_MHz`: a deployment the table
    /// does not fit is invalid and left out); none by default.
    const gemm_table* projection_table = nullptr;
    double clock_MHz = 0;

    void validate() const {
        require(!gpus.empty(), "plan", "gpus", 0, "name at least one GPU type");
        require(!formats.empty(), "plan", "formats", 0, "name at least one choice of formats ({} = the model's own)");
        require(max_instance_gpus >= 1, "plan", "max_instance_gpus", max_instance_gpus, "must be at least 1");
        require(non_negative_finite(max_gpus), "plan", "max_gpus", max_gpus, "must be 0 (no cap) or positive");
        require(colocated || !prefill_batches.empty(), "plan", "prefill_batches", 0,
                "with colocated serving off, name at least one disaggregated prefill batch");
        require(utilisation > 0.0 && utilisation <= 1.0, "plan", "utilisation", utilisation, "must be in (0, 1]");
        require(max_load > 0.0 && max_load <= 1.0, "plan", "max_load", max_load,
                "must be in (0, 1]: the share of an instance's capacity the peak may use", "llmcost.plan.max_load");
        require(non_negative_finite(gpu_cost.value()), "plan", "gpu_cost ($/s)", gpu_cost.value(),
                "must be 0 (none) or positive and finite");
        for (const gpu_price& p : prices)
            require(positive_finite(p.per_gpu.value()), p.hardware, "price ($/s)", p.per_gpu.value(),
                    "must be positive and finite");
        speculation.validate();
        limits.validate();
        site.validate();
    }
};

/// The cheapest way found to serve the traffic on one deployment.
struct deployment_plan {
    deployment d;                        ///< one instance: model, formats, GPU, layout
    serving_mode how{};
    double batch = 0;                    ///< the engine's batch limit per attention rank (decode batch)
    double instances = 0;                ///< colocated: instances
    double prefill_instances = 0;        ///< disaggregated: prefill pool
    double decode_instances = 0;         ///< disaggregated: decode pool
    double prefill_per_decode = 0;       ///< disaggregated: the balanced P:D ratio (before rounding)
    double gpus = 0;                     ///< the whole fleet
    seconds_t ttft{};                      ///< the slowest shape's
    seconds_t tpot{};                      ///< the slowest shape's mean
    double load = 0;                     ///< instance-seconds needed per second ÷ instances (≤ 1): headroom
    dollars_per_second_t gpu_cost{};       ///< per GPU-second, at the utilisation
    gpu_hour_price price{};                ///< gpu_cost with its basis: given, listed market price, or capex + power
    dollars_per_second_t fleet_cost{};     ///< GPUs × gpu_cost
    dollars_per_token_t cost_per_output_token{};
    dollars_per_token_t cost_per_token{};  ///< per input and output token alike
    tokens_per_second_t output_rate{};     ///< u · λ · mean output, on average
    watts_t gpu_power{};                   ///< GPUs × board power
    watts_t wall_power{};                  ///< × server overhead × cooling
};

struct fleet_result {
    std::optional<deployment_plan> best{};
    std::vector<deployment_plan> options{};  ///< the cheapest plan per GPU type and serving mode, cheapest first
    std::vector<std::string> skipped{};    ///< GPU types left out or without a plan, and why
    std::size_t points = 0;                ///< grid points priced
};

/// Layouts worth trying for `m` with at most `max_gpus` GPUs per instance, valid on `hw`: tensor
/// parallelism 1, 2, 4 …; for MoE also expert parallelism over attention-DP ranks (ep = tp · dp,
/// tp ≤ ep: the DEP layouts).
[[nodiscard]] std::vector<parallel_layout> candidate_layouts(const model& m, const hardware& hw, int max_gpus);

/// The cheapest deployment for `t` among `o`'s GPU types, formats, layouts and serving modes.
/// GPU types without a price (none in the catalog, none given) are skipped, with the reason in
/// `skipped`; so are those where nothing meets the targets within the limits.
[[nodiscard]] fleet_result cheapest_fleet(const model& m, const traffic& t, const fleet_options& o);

}  // namespace llmcost::plan

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/plan/fleet-inl.hpp>
#endif
