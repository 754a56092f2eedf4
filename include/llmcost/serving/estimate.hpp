#pragma once
/// \file
/// One deployment serving one kind of request: the figures a capacity planner asks for first —
/// latency (TTFT, TPOT, end to end), throughput (deployment, per GPU, per user), memory (weights
/// per GPU, KV per token, KV room), energy and money per output token. It is what
/// `llmcost estimate` prints, and the unit a sweep evaluates millions of times.
///
/// Conventions:
/// - The deployment is busy: every GPU draws board power while it serves (the seed's S29
///   convention; an upper bound on draw, since a memory-bound GPU rarely reaches its TDP).
/// - Money: a GPU-second costs what `price_gpu_hour` says on the chosen basis (economics/gpu_price.hpp):
///   by default the GPU's public on-demand market price (from `market_prices`, e.g.
///   `catalog::gpu_market_prices`; capex + power where it lists none), or a committed price,
///   or the owner's capex ÷ depreciation + wall power at the utilisation (`pricing_basis::tco`); the
///   basis comes back in `request_estimate::price`. All of it is charged to output tokens, the way
///   "$ per million output tokens at this throughput" is quoted, so prompt processing is paid for
///   inside it (`cost_per_token` instead bills input and output tokens apart).
///
/// **Example**
/// \code
/// constexpr deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
/// constexpr request_estimate e = estimate(d, {.input = 1000_tok, .output = 200_tok}, {.batch = 32});
/// static_assert(e.point.tpot < 50_ms);
/// \endcode

#include <llmcost/costs/energy.hpp>
#include <llmcost/serving/economics.hpp>
#include <llmcost/serving/speculative.hpp>
#include <llmcost/serving/throughput.hpp>

#include <limits>

namespace llmcost {

struct estimate_options {
    double batch = 0;                          ///< concurrent sequences per attention rank; 0 = saturate
    scheduler_limits limits{};                 ///< what the engine admits when saturating
    facility site = facility::gpus_only();     ///< power multipliers, electricity, depreciation
    double utilisation = 1.0;                  ///< share of wall-clock time spent serving, for $/token
    /// $ per GPU-second to charge instead of a listed price or capex + power (e.g. your own contract); 0 = none.
    dollars_per_second_t gpu_cost = dollars_per_second_t::from_value(0.0);
    /// Without `gpu_cost`: the GPU's on-demand market price, committed price, or capex + power.
    pricing_basis pricing = pricing_basis::market;
    /// Where market and committed prices are looked up (by the GPU's exact name): pass
    /// `catalog::gpu_market_prices` (catalog/prices.hpp, tables/gpu_prices.csv), as the tool does.
    /// Empty, or no entry for the GPU: capex + power, and `request_estimate::price` says it fell back.
    std::span<const gpu_market_price> market_prices = {};
    /// Speculative decoding in every decode step (`speculative_serving_point`); off by default. A
    /// separate draft model's weights are held beside the target's, out of the KV budget.
    speculative_decoding speculation{};

    constexpr void validate() const {
        require(batch == 0.0 || (batch >= 1.0 && non_negative_finite(batch)), "estimate", "batch", batch,
                "must be 0 (saturate) or at least one sequence");
        require(utilisation > 0.0 && utilisation <= 1.0, "estimate", "utilisation", utilisation,
                "must be in (0, 1]: an idle deployment makes no tokens to charge");
        require(non_negative_finite(gpu_cost.value()), "estimate", "gpu_cost ($/s)", gpu_cost.value(),
                "must be 0 (derive from capex and power) or positive and finite");
        limits.validate();
        site.validate();
        speculation.validate();
    }
};

struct request_estimate {
    serving_point point;                       ///< batch, step, TTFT, TPOT, e2e, rates, what limited the batch
    bytes_per_token_t kv_bytes_per_token;      ///< whole model, all layers (S16)
    bytes_t weight_bytes_per_gpu;
    tokens_t kv_capacity_tokens;               ///< context one replica (attention rank) can cache, in whole KV blocks (`kv_capacity_whole_blocks`)
    joules_per_token_t gpu_energy_per_output_token;
    joules_per_token_t wall_energy_per_output_token;  ///< × server overhead × cooling (S30)
    joules_t gpu_energy_per_request;
    joules_t wall_energy_per_request;
    dollars_per_second_t gpu_cost;             ///< per GPU-second at the utilisation; 0 = unknown (= price.rate)
    /// $ per output token; NaN when the GPU's price is unknown and no `gpu_cost` was given.
    dollars_per_token_t cost_per_output_token;

    gpu_hour_price price;                      ///< the GPU-hour's price with its basis, source and date

    [[nodiscard]] constexpr bool cost_known() const { return gpu_cost.value() > 0.0; }
};

/// The GPU-hour an estimate charges: the caller's `gpu_cost`, else `price_gpu_hour` on `o.pricing`
/// with the GPU's entry of `o.market_prices` (by its exact name).
[[nodiscard]] constexpr gpu_hour_price estimate_gpu_hour(const hardware& h, const estimate_options& o,
                                                         double utilisation) {
    return o.gpu_cost.value() > 0.0
               ? given_gpu_hour(o.gpu_cost)
               : price_gpu_hour(h, o.site, utilisation, o.pricing, find_market_price(o.market_prices, h.name));
}

/// The whole estimate for requests of shape r on deployment d:
/// E/token = P_board · GPUs ÷ R_out (S29), × overhead × cooling at the wall (S30);
/// $/token = C(u) · GPUs ÷ (u · R_out) (S33, T7); E/request = E/token · O (prefill is inside the steps).
/// Refuses a deployment and a given batch that do not fit, as the saturated path does: the weights
/// and the reserve in HBM, one sequence's KV cache beside them, then `batch` sequences of the
/// reserved context (input + output, or the mean with optimistic admission) in what is left.
/// Every command that prices a given batch (estimate, speculative decoding, $ per token) calls it.
constexpr void require_batch_fits(const deployment& d, const request_shape& r, double batch,
                                  const scheduler_limits& l = {}) {
    d.validate();
    const batch_limit room = detail::fitting_batch(d, r, {.reserve = l.pool_reserve(), .reserve_full_sequence = l.reserve_full_sequence});
    require(batch <= room.batch, d.m.name, "batch", batch,
            "does not fit: the KV cache of this many sequences exceeds the HBM left after the weights "
            "(see kv_capacity_tokens)", "llmcost.fit.batch");
}

/// The limits with a separate draft model's weights resident in HBM beside the target's: reserve + W_draft
/// per GPU (an MTP module or EAGLE head is priced with the target's weights). Every command that prices
/// speculative decoding with a draft model checks its batch against these (estimate --spec, spec).
[[nodiscard]] constexpr scheduler_limits with_draft_resident(scheduler_limits l, const speculative_decoding& s) {
    if (s.enabled() && s.draft) l.reserve.resident = l.reserve.resident + weight_bytes_per_gpu(*s.draft);
    return l;
}

/// Refuses a separate draft model whose weights do not fit beside the target's — target weights + reserve +
/// W_draft per GPU (`with_draft_resident`) > HBM — naming the draft model and W_draft, where the target's
/// weights alone fit (else `require_weights_fit` names the target's, the first thing that does not fit).
constexpr void require_draft_fits(const deployment& d, const scheduler_limits& l, const speculative_decoding& s) {
    if (!s.enabled() || !s.draft || !weights_fit(d, l.pool_reserve())) return;
    const memory_reserve with_draft = with_draft_resident(l, s).pool_reserve();
    if (weights_fit(d, with_draft)) return;
    std::string rule = "does not fit: the draft model's weights beside ";  // appended: GCC bug 105329
    rule += d.m.name;
    rule += "'s (";
    rule += to_text(weight_bytes_per_gpu(d));
    rule += " per GPU) and the reserve exceed HBM (";
    rule += kv_pool_text(d, with_draft);
    rule += "); use a smaller draft model, more GPUs or a smaller format";
    throw invalid_input(s.draft->m.name, "draft weights per GPU (B)", weight_bytes_per_gpu(*s.draft).value(), rule,
                        "llmcost.fit.weights");
}

namespace detail {
/// The rest of an estimate once its serving point is priced: the memory figures, then energy and
/// money per output token at the point's output rate (board power × GPUs ÷ rate; $/GPU-h × GPUs ÷
/// (rate × utilisation)).
[[nodiscard]] constexpr request_estimate estimate_at(const deployment& d, const request_shape& r, const estimate_options& o,
                                                     const scheduler_limits& limits, request_estimate e) {
    e.kv_bytes_per_token = kv_bytes_per_token(d.m);
    e.weight_bytes_per_gpu = weight_bytes_per_gpu(d);
    e.kv_capacity_tokens = kv_capacity_whole_blocks(d, limits.pool_reserve());

    const double gpus = static_cast<double>(d.layout.gpus());
    const tokens_per_second_t rate = e.point.output_rate;
    e.gpu_energy_per_output_token = d.hw.gpu.board_power * gpus / rate;
    e.wall_energy_per_output_token = e.gpu_energy_per_output_token * o.site.power_multiplier();
    e.gpu_energy_per_request = e.gpu_energy_per_output_token * r.output;
    e.wall_energy_per_request = e.wall_energy_per_output_token * r.output;

    e.price = estimate_gpu_hour(d.hw, o, o.utilisation);
    e.gpu_cost = e.price.rate;
    e.cost_per_output_token = e.cost_known()
        ? e.gpu_cost * gpus / (rate * o.utilisation)
        : dollars_per_token_t::from_value(std::numeric_limits<double>::quiet_NaN());
    // A known price gives a finite $ per million output tokens (the figure every face prints), or none: a tiny
    // utilisation overflows 10^6 · C · GPUs ÷ (R_out · u) to infinity.
    require(!e.cost_known() || non_negative_finite(e.cost_per_output_token.value() * 1e6), "estimate", "utilisation",
            o.utilisation,
            "the cost per million output tokens, 10^6 x $/GPU-s x GPUs / (output rate x utilisation), overflows a double",
            "llmcost.cost.overflow");
    return e;
}
}  // namespace detail

[[nodiscard]] constexpr request_estimate estimate(const deployment& d, const request_shape& r,
                                                  const estimate_options& o = {}) {
    o.validate();
    const pass_model pm = prepare_pass(d);
    require_draft_fits(d, o.limits, o.speculation);
    const scheduler_limits limits = with_draft_resident(o.limits, o.speculation);
    request_estimate e{};
    e.point = o.batch > 0.0 ? serve_at_batch(pm, r, o.batch, limits) : saturated(pm, r, limits);
    if (o.batch > 0.0) require_batch_fits(d, r, o.batch, limits);
    if (o.speculation.enabled())
        e.point = speculative_serving_point(
            e.point, r, o.speculation.step_for(d, detail::micro_batch(d, e.point.batch), mean_decode_context(r)),
            o.speculation.acceptance, limits);
    return detail::estimate_at(d, r, o, limits, e);
}

/// The estimate of a serving point priced elsewhere — the online solver's (`serve_online_latency`),
/// whose output rate is the arrivals' λ·O·dp: energy and money per output token at that rate. Refuses,
/// as `estimate` does, a point whose running batch (at least one sequence) does not fit the KV cache
/// (`require_batch_fits`), and a point that emits nothing to charge: an output rate that is not
/// positive and finite. The point's n counts the requests held, of which at most B run (the running-batch
/// cap, `admissible_batch`), the rest waiting for a slot (docs/online-caps.md §2): min(n, B) must fit.
[[nodiscard]] constexpr request_estimate estimate_point(const deployment& d, const request_shape& r, const serving_point& at,
                                                        const estimate_options& o = {}) {
    o.validate();
    require(at.batch >= 1.0 && non_negative_finite(at.batch), d.m.name, "batch", at.batch,
            "a serving point holds at least one sequence (finite)");
    require(positive_finite(at.output_rate.value()), d.m.name, "output rate (token/s)", at.output_rate.value(),
            "must be positive and finite: energy and money are charged per output token");
    require_draft_fits(d, o.limits, o.speculation);
    const scheduler_limits resident = with_draft_resident(o.limits, o.speculation);
    // min(n, B) ≤ B fits by construction; what the check still refuses is a shape of which not one sequence fits
    const double running = detail::max(1.0, detail::min(at.batch, admissible_batch(d, r, resident).batch));
    require_batch_fits(d, r, running, resident);
    request_estimate e{};
    e.point = at;
    return detail::estimate_at(d, r, o, resident, e);
}

/// One request on its own: its prompt's prefill pass, then output − 1 decode steps, each shared with
/// `batch` − 1 neighbours at the same context (the seed's S15 picture: 500 passes), and what the GPU
/// time it takes costs in energy and money. The benchmark unit of "a full request estimate".
struct request_cost {
    seconds_t prefill;      ///< the prompt's pass: time to first token on the GPU (S11)
    seconds_t decode;       ///< Σ decode steps (closed form, decode_steps)
    seconds_t end_to_end;   ///< prefill + decode
    seconds_t gpu_seconds;  ///< GPU-time charged to the request: its prefill whole, 1/batch of each decode step
    joules_t gpu_energy;    ///< gpu_seconds × board power (S29)
    joules_t wall_energy;   ///< × server overhead × cooling (S30)
    dollars_t cost;         ///< gpu_seconds × $/GPU-second; NaN when the GPU's price is unknown
};

/// GPU-s = (t_prefill + Σ t_step ÷ b) · GPUs of the instance ÷ (pp · ranks) (each pipeline stage is busy
/// 1/pp of a pass; a pass serves every attention rank); E = GPU-s · P_board; $ = GPU-s · C (S29, S30, S33).
[[nodiscard]] constexpr request_cost price_request(const pass_model& pm, const request_shape& r, double batch,
                                                   const facility& site, const dollars_per_second_t& gpu_cost) {
    const deployment& d = pm.d;
    request_cost c{};
    c.prefill = step_time(pm, {.prefill_sequences = 1.0, .prefill_tokens = r.computed(), .prefill_prefix = r.cached()});
    c.decode = decode_steps(pm, batch, r.input, r.output.value() - 1.0, false).total;
    c.end_to_end = c.prefill + c.decode;
    c.gpu_seconds = (c.prefill + c.decode / batch) * pm.instance_share;
    c.gpu_energy = d.hw.gpu.board_power * c.gpu_seconds;
    c.wall_energy = c.gpu_energy * site.power_multiplier();
    c.cost = gpu_cost.value() > 0.0 ? gpu_cost * c.gpu_seconds
                                    : dollars_t::from_value(std::numeric_limits<double>::quiet_NaN());
    return c;
}

/// The same for a deployment, its GPU-hour priced as `estimate` prices it (`o.pricing` or `o.gpu_cost`) at full use.
[[nodiscard]] constexpr request_cost price_request(const deployment& d, const request_shape& r, double batch = 1.0,
                                                   const estimate_options& o = {}) {
    r.validate();
    require(batch >= 1.0 && non_negative_finite(batch), d.m.name, "batch", batch, "at least one sequence");
    return price_request(prepare_pass(d), r, batch, o.site, estimate_gpu_hour(d.hw, o, 1.0).rate);
}

}  // namespace llmcost
