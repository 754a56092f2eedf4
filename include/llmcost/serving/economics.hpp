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
/// #include <llmcost/llmcost.hpp>
/// #include <llmcost/serving/economics.hpp>
/// using namespace llmcost::literals;
/// hardware h = catalog::b300_hgx;
/// h.capex_per_gpu = catalog::seed_token_factory.capex_per_gpu();         // T1: ≈ $70k all-in
/// const gpu_token_rates r{.prefill = 20'000_tok_per_s, .decode = 900_tok_per_s};
/// const token_costs c = cost_per_token(h, catalog::seed_token_factory_site, r, 0.5);
/// // dollars_per_million_tokens_t{c.output}.value() is the output price floor in $/M tokens
/// \endcode

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

#include <limits>
#include <string_view>

namespace llmcost {

// ---- units -----------------------------------------------------------------------------------

/// $ per million tokens, the unit of price lists: a display type (like `kilowatts_t`) that converts
/// to and from `dollars_per_token_t` only explicitly: `dollars_per_million_tokens_t{c}.value()`.
using dollars_per_million_tokens_t = units::quantity<units::scaled_unit<units::dollar_per_token_unit, 10, -6>>;

/// A price-list figure into the base unit: $10 per million tokens = 1e-5 $/token.
[[nodiscard]] constexpr dollars_per_token_t dollars_per_million_tokens(double v) {
    return dollars_per_token_t::from_value(v / detail::pow10(6));
}

namespace detail {
inline constexpr double econ_infinity = std::numeric_limits<double>::infinity();
}  // namespace detail

// ---- descriptors -----------------------------------------------------------------------------

/// Units of a foreign currency per US dollar, with where the figure comes from. Money outside
/// dollars enters the library only through `to_dollars`.
struct exchange_rate {
    std::string_view currency;  ///< ISO code, e.g. "KRW"
    double per_dollar = 1.0;    ///< units of `currency` for one US dollar
    std::string_view source = {};

    /// $ = amount ÷ (units per dollar).
    [[nodiscard]] constexpr dollars_t to_dollars(double amount) const { return dollars(amount / per_dollar); }

    constexpr void validate() const {
        require(positive_finite(per_dollar), currency, "per_dollar", per_dollar,
                "an exchange rate must be positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const exchange_rate&) const = default;
};

/// A site as its owner plans it (seed T1): the grid connection, the accelerators installed and the
/// money spent on everything (GPUs, servers, building, power and cooling plant).
struct facility_plan {
    std::string_view name;
    watts_t grid_power;     ///< contracted site power (T1: 1 MW)
    double gpus = 1.0;      ///< accelerators installed (T1: ~100)
    dollars_t total_capex;  ///< all capital spent (T1: ~10 billion KRW)

    /// P_gpu = P_grid ÷ GPUs — facility power per GPU (T1: 1 MW ÷ 100 = 10 kW).
    [[nodiscard]] constexpr watts_t facility_power_per_gpu() const { return grid_power / gpus; }
    /// capex_gpu = capex ÷ GPUs — all-in capital per GPU (T1: 10e9 KRW ÷ 100).
    [[nodiscard]] constexpr dollars_t capex_per_gpu() const { return total_capex / gpus; }

    constexpr void validate() const {
        const std::string_view s = name;
        require(positive_finite(grid_power.value()), s, "grid_power (W)", grid_power.value(),
                "a site needs positive, finite grid power");
        require(gpus >= 1.0 && positive_finite(gpus), s, "gpus", gpus, "a site holds at least one GPU");
        require(positive_finite(total_capex.value()), s, "total_capex ($)", total_capex.value(),
                "capital spent must be positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const facility_plan&) const = default;
};

/// A price list: $ per input token, per output token and per cached input token (seed S33).
struct token_prices {
    std::string_view name;
    dollars_per_token_t input;
    dollars_per_token_t output;
    dollars_per_token_t cached = dollars_per_token_t::from_value(0.0);  ///< a prompt token served from a prefix cache (S6); 0 = not offered

    constexpr void validate() const {
        const std::string_view s = name;
        require(non_negative_finite(input.value()), s, "input ($/token)", input.value(), "must be zero or positive and finite");
        require(non_negative_finite(output.value()), s, "output ($/token)", output.value(), "must be zero or positive and finite");
        require(non_negative_finite(cached.value()), s, "cached ($/token)", cached.value(), "must be zero or positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const token_prices&) const = default;
};

/// Tokens per second one GPU makes while it works (utilisation 1), by kind of token.
struct gpu_token_rates {
    tokens_per_second_t prefill;  ///< input tokens computed
    tokens_per_second_t decode;   ///< output tokens generated
    tokens_per_second_t cached = tokens_per_second(0.0);  ///< cached input tokens restored (KV read back); 0 = no prefix cache

    constexpr void validate() const {
        require(positive_finite(prefill.value()), "gpu_token_rates", "prefill (tokens/s)", prefill.value(),
                "a GPU's prefill rate must be positive and finite");
        require(positive_finite(decode.value()), "gpu_token_rates", "decode (tokens/s)", decode.value(),
                "a GPU's decode rate must be positive and finite");
        require(non_negative_finite(cached.value()), "gpu_token_rates", "cached (tokens/s)", cached.value(),
                "must be zero (no prefix cache) or positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const gpu_token_rates&) const = default;
};

/// Where a cached prefix's KV is read back from when a request hits the prefix cache (S6, S17).
enum class kv_restore_source { hbm, host_memory, storage };

/// The operating point at which a deployment's full-use rates are derived from its passes.
struct pricing_point {
    double decode_batch = 32.0;               ///< sequences per decode pass (per attention rank) (S28)
    tokens_t context = tokens(1000.0);        ///< context of a decode step
    double prefill_batch = 1.0;               ///< prompts per prefill pass (per attention rank)
    tokens_t prompt = tokens(1000.0);         ///< new tokens per prompt
    kv_restore_source cached_from = kv_restore_source::host_memory;

    constexpr void validate() const {
        require(decode_batch >= 1.0 && positive_finite(decode_batch), "pricing_point", "decode_batch", decode_batch,
                "a decode pass serves at least one sequence");
        require(non_negative_finite(context.value()), "pricing_point", "context (tokens)", context.value(),
                "must be zero or positive and finite");
        require(prefill_batch >= 1.0 && positive_finite(prefill_batch), "pricing_point", "prefill_batch", prefill_batch,
                "a prefill pass serves at least one prompt");
        require(prompt.value() >= 1.0 && positive_finite(prompt.value()), "pricing_point", "prompt (tokens)",
                prompt.value(), "a prompt has at least one token");
    }
    [[nodiscard]] constexpr bool operator==(const pricing_point&) const = default;
};

/// What enters a GPU-hour besides the GPU itself.
struct gpu_cost_options {
    bool optics = false;  ///< add the GPU's optical transceivers (always on) at the site's cooling (S10)
};

// ---- 1. the GPU-hour -------------------------------------------------------------------------

/// A GPU's cost per second at a utilisation, split into capital and energy.
struct gpu_cost_rate {
    dollars_per_second_t capital;  ///< capex ÷ depreciation period
    dollars_per_second_t energy;   ///< wall power × electricity price
    watts_t wall_power;            ///< average draw at the wall, GPU share of server and cooling

    [[nodiscard]] constexpr dollars_per_second_t total() const { return capital + energy; }
    [[nodiscard]] constexpr bool operator==(const gpu_cost_rate&) const = default;
};

/// P(u) = P_idle + u · (P_board − P_idle) — average board draw at utilisation u (Fan et al. 2007).
[[nodiscard]] constexpr watts_t gpu_power_at(const accelerator& g, double utilisation) {
    require(utilisation >= 0.0 && utilisation <= 1.0, g.name, "utilisation", utilisation, "must be in [0, 1]");
    return g.idle_power + (g.board_power - g.idle_power) * utilisation;
}

/// P_wall = P(u) · overhead · cooling (+ n_xcvr · P_xcvr · cooling) — wall power per GPU (S30, S10).
[[nodiscard]] constexpr watts_t wall_power_at(const hardware& h, const facility& f, double utilisation,
                                              gpu_cost_options o = {}) {
    const watts_t optics = o.optics ? h.transceiver_power * (h.transceivers_per_gpu * f.cooling) : watts(0.0);
    return gpu_power_at(h.gpu, utilisation) * f.power_multiplier() + optics;
}

/// C(u) = capex ÷ T_dep + P_wall(u) · price — $ per GPU-second (T7; S30 multipliers).
/// `h.capex_per_gpu` must be known (> 0): set it (e.g. from a `facility_plan`) before pricing.
[[nodiscard]] constexpr gpu_cost_rate gpu_hour_cost(const hardware& h, const facility& f, double utilisation,
                                                    gpu_cost_options o = {}) {
    f.validate();
    require(positive_finite(h.capex_per_gpu.value()), h.name, "capex_per_gpu ($)", h.capex_per_gpu.value(),
            "unknown (0) for this hardware: set capex_per_gpu before pricing a GPU-hour");
    gpu_cost_rate c{};
    c.capital = h.capex_per_gpu / f.depreciation;
    c.wall_power = wall_power_at(h, f, utilisation, o);
    c.energy = c.wall_power * f.electricity;
    return c;
}

// ---- 2. cost per token -----------------------------------------------------------------------

/// $ per token by kind, at one utilisation.
struct token_costs {
    dollars_per_token_t input;
    dollars_per_token_t output;
    dollars_per_token_t cached;  ///< = input when there is no prefix cache (the token is recomputed)
    [[nodiscard]] constexpr bool operator==(const token_costs&) const = default;
};

/// c = C(u) ÷ (u · R) per kind of token — the GPU's cost spread over the tokens it makes (S33).
/// C(u) is the GPU's cost per second *at* utilisation u (e.g. `gpu_hour_cost(...).total()`).
[[nodiscard]] constexpr token_costs cost_per_token(const dollars_per_second_t& gpu_cost, const gpu_token_rates& r,
                                                   double utilisation) {
    r.validate();
    require(utilisation > 0.0 && utilisation <= 1.0, "cost_per_token", "utilisation", utilisation,
            "must be in (0, 1]: an idle GPU makes no tokens to spread its cost over");
    const dollars_per_second_t busy = gpu_cost / utilisation;
    token_costs c{};
    c.input = busy / r.prefill;
    c.output = busy / r.decode;
    c.cached = r.cached.value() > 0.0 ? busy / r.cached : c.input;
    return c;
}

/// c = (capex ÷ T_dep + P_wall(u) · price) ÷ (u · R) — hardware and site priced at utilisation u.
[[nodiscard]] constexpr token_costs cost_per_token(const hardware& h, const facility& f, const gpu_token_rates& r,
                                                   double utilisation, gpu_cost_options o = {}) {
    return cost_per_token(gpu_hour_cost(h, f, utilisation, o).total(), r, utilisation);
}

namespace detail {

/// GPU-seconds one pass occupies: t_pass · GPUs of the instance ÷ pp (each pipeline stage is busy
/// for 1/pp of the pass: passes.hpp's convention).
[[nodiscard]] constexpr seconds_t econ_gpu_seconds_per_pass(const deployment& d, const pass_cost& p) {
    return p.time() * (static_cast<double>(d.instance_gpus()) / d.layout.pp);
}

/// R = tokens per pass ÷ GPU-seconds per pass.
[[nodiscard]] constexpr tokens_per_second_t econ_rate(const deployment& d, const pass_cost& p, double tokens_per_pass) {
    return tokens(tokens_per_pass) / econ_gpu_seconds_per_pass(d, p);
}

[[nodiscard]] constexpr bytes_per_second_t econ_restore_bandwidth(const hardware& h, kv_restore_source s) {
    switch (s) {
        case kv_restore_source::hbm: return h.gpu.sustained_hbm_bandwidth();
        case kv_restore_source::host_memory: return h.host_memory.bandwidth;
        case kv_restore_source::storage: return h.storage.bandwidth;
    }
    return h.host_memory.bandwidth;
}

}  // namespace detail

/// Full-use rates of a deployment at an operating point, from its passes:
/// R_prefill = B_p · n_prompt · ranks ÷ GPU-s(prefill pass); R_decode = B_d · ranks ÷ GPU-s(decode
/// pass at the context); R_cached = BW_tier ÷ (KV bytes per token per GPU · tp · pp) — a cached
/// token is read back instead of computed (S6, S17, S33).
[[nodiscard]] constexpr gpu_token_rates gpu_token_rates_at(const deployment& d, const pricing_point& p) {
    p.validate();
    const double ranks = d.attention_ranks();
    gpu_token_rates r{};
    const pass_cost pre = prefill_pass(d, p.prefill_batch, p.prompt, tokens(0.0));
    r.prefill = detail::econ_rate(d, pre, p.prefill_batch * p.prompt.value() * ranks);
    const pass_cost dec = decode_pass(d, p.decode_batch, p.context);
    r.decode = detail::econ_rate(d, dec, p.decode_batch * ranks);
    const seconds_t restore = transfer_time(kv_bytes_per_token_per_gpu(d) * tokens(1.0),
                                            detail::econ_restore_bandwidth(d.hw, p.cached_from));
    r.cached = tokens(1.0) / (restore * static_cast<double>(d.layout.tp * d.layout.pp));
    return r;
}

/// Cost per token of a deployment at an operating point and utilisation (S33).
[[nodiscard]] constexpr token_costs cost_per_token(const deployment& d, const facility& f, const pricing_point& p,
                                                   double utilisation, gpu_cost_options o = {}) {
    return cost_per_token(d.hw, f, gpu_token_rates_at(d, p), utilisation, o);
}

// ---- 3. implied price ratios -----------------------------------------------------------------

/// Output ÷ input cost = (1/R_decode) ÷ (1/R_prefill) = R_prefill ÷ R_decode — decode GPU-seconds
/// per token over prefill GPU-seconds per token; the GPU's cost cancels (S33: lists say 5–6).
[[nodiscard]] constexpr double output_input_cost_ratio(const gpu_token_rates& r) {
    r.validate();
    return ratio(r.prefill, r.decode);
}

/// Cached ÷ input cost = R_prefill ÷ R_cached — a KV read-back against a prefill (S33: lists say
/// 1/10). Without a prefix cache (R_cached = 0) a cached token is recomputed: 1.
[[nodiscard]] constexpr double cached_input_cost_ratio(const gpu_token_rates& r) {
    r.validate();
    return r.cached.value() > 0.0 ? ratio(r.prefill, r.cached) : 1.0;
}

/// The smallest decode batch b ∈ [1, min(max_batch, sequences of `p.context` the KV budget holds)]
/// at which output ÷ input cost ≤ `target` (decode GPU-s per token t(b)/b falls as b grows;
/// bisection on integers) (S33). 0 when even the largest batch leaves the ratio above the target.
/// The point's `decode_batch` is ignored.
[[nodiscard]] constexpr double decode_batch_for_cost_ratio(const deployment& d, pricing_point p, double target,
                                                           double max_batch, memory_reserve reserve = {}) {
    require(positive_finite(target), "decode_batch_for_cost_ratio", "target", target, "must be positive and finite");
    require(max_batch >= 1.0 && positive_finite(max_batch), "decode_batch_for_cost_ratio", "max_batch", max_batch,
            "must be at least 1");
    auto ratio_at = [&](double b) {
        p.decode_batch = b;
        return output_input_cost_ratio(gpu_token_rates_at(d, p));
    };
    double hi = detail::min(detail::const_trunc(max_batch), max_sequences(d, p.context, reserve));
    if (hi < 1.0 || ratio_at(hi) > target) return 0.0;
    if (ratio_at(1.0) <= target) return 1.0;
    double lo = 1.0;  // ratio(lo) > target ≥ ratio(hi)
    while (hi - lo > 1.0) {
        const double mid = detail::const_trunc((lo + hi) / 2.0);
        if (ratio_at(mid) > target) lo = mid; else hi = mid;
    }
    return hi;
}

// ---- 4. facility: revenue, break-even, payback ----------------------------------------------

/// V = price × R — revenue per GPU-second at full use, selling one kind of token (T7).
[[nodiscard]] constexpr dollars_per_second_t full_use_revenue(const dollars_per_token_t& price,
                                                              const tokens_per_second_t& rate) {
    return price * rate;
}

/// V = (n_in · p_in + n_out · p_out) ÷ (n_in ÷ R_prefill + n_out ÷ R_decode) — revenue per
/// GPU-second at full use for requests of n_in input and n_out output tokens.
[[nodiscard]] constexpr dollars_per_second_t full_use_revenue(const token_prices& p, const gpu_token_rates& r,
                                                              const tokens_t& input, const tokens_t& output) {
    p.validate();
    r.validate();
    require(input.value() >= 0.0 && output.value() >= 0.0 && input.value() + output.value() > 0.0,
            "full_use_revenue", "input + output (tokens)", input.value() + output.value(),
            "a request has zero or more tokens of each kind and at least one in all");
    return (input * p.input + output * p.output) / (input / r.prefill + output / r.decode);
}

/// The utilisation at which revenue meets cost; `reachable` when it lies in (0, 1].
struct break_even {
    double utilisation = 0.0;  ///< u*; +∞ when the marginal energy cost eats the whole revenue
    bool reachable = false;
    [[nodiscard]] constexpr bool operator==(const break_even&) const = default;
};

/// u* = K ÷ V — fixed cost per second ÷ revenue per second at full use (T7, as the ledger states it:
/// depreciation per hour ÷ token value per hour at full use).
[[nodiscard]] constexpr break_even break_even_utilisation(const dollars_per_second_t& fixed_cost,
                                                          const dollars_per_second_t& full_use) {
    require(non_negative_finite(fixed_cost.value()), "break_even_utilisation", "fixed_cost ($/s)",
            fixed_cost.value(), "must be zero or positive and finite");
    require(non_negative_finite(full_use.value()), "break_even_utilisation", "full_use ($/s)", full_use.value(),
            "must be zero or positive and finite");
    if (full_use.value() <= 0.0) return {.utilisation = detail::econ_infinity, .reachable = false};
    const double u = ratio(fixed_cost, full_use);
    return {.utilisation = u, .reachable = u > 0.0 && u <= 1.0};
}

/// u* = (K + E(0)) ÷ (V − E₁) with running cost E(u) = E(0) + u · E₁ (energy linear in u) — capital
/// and energy covered (T7 with the power bill). Unreachable when V ≤ E₁ or u* > 1.
[[nodiscard]] constexpr break_even break_even_utilisation(const hardware& h, const facility& f,
                                                          const dollars_per_second_t& full_use,
                                                          gpu_cost_options o = {}) {
    const gpu_cost_rate at0 = gpu_hour_cost(h, f, 0.0, o);
    const gpu_cost_rate at1 = gpu_hour_cost(h, f, 1.0, o);
    const dollars_per_second_t marginal = at1.energy - at0.energy;
    if (full_use <= marginal) return {.utilisation = detail::econ_infinity, .reachable = false};
    const double u = ratio(at0.total(), full_use - marginal);
    return {.utilisation = u, .reachable = u > 0.0 && u <= 1.0};
}

/// A GPU's books at one utilisation: revenue u · V against capital and energy.
struct utilisation_economics {
    double utilisation = 0.0;
    dollars_per_second_t revenue;  ///< u · V
    gpu_cost_rate cost;            ///< at u

    /// Profit after depreciation and energy.
    [[nodiscard]] constexpr dollars_per_second_t profit() const { return revenue - cost.total(); }
    /// Cash margin: revenue − energy (depreciation is not a cash outlay); it repays the capex.
    [[nodiscard]] constexpr dollars_per_second_t cash_margin() const { return revenue - cost.energy; }
    /// Revenue ÷ depreciation (T7: "at 10 % it pays twice").
    [[nodiscard]] constexpr double revenue_over_depreciation() const { return ratio(revenue, cost.capital); }
    /// Revenue ÷ (depreciation + energy).
    [[nodiscard]] constexpr double revenue_over_cost() const { return ratio(revenue, cost.total()); }
};

/// revenue = u · V, cost = C(u) — a GPU's economics at utilisation u (T7).
[[nodiscard]] constexpr utilisation_economics economics_at(const hardware& h, const facility& f,
                                                           const dollars_per_second_t& full_use, double utilisation,
                                                           gpu_cost_options o = {}) {
    utilisation_economics e{};
    e.utilisation = utilisation;
    e.cost = gpu_hour_cost(h, f, utilisation, o);
    e.revenue = full_use * utilisation;
    return e;
}

/// T_payback = capex ÷ cash margin per second — time to earn the capital back; +∞ when the margin
/// is not positive (T7: "paid back within a year").
[[nodiscard]] constexpr seconds_t payback_period(const dollars_t& capex, const dollars_per_second_t& cash_margin) {
    require(non_negative_finite(capex.value()), "payback_period", "capex ($)", capex.value(),
            "must be zero or positive and finite");
    if (cash_margin.value() <= 0.0) return seconds(detail::econ_infinity);
    return capex / cash_margin;
}

/// T_payback = capex ÷ (u · V − E(u)) — the GPU's capital repaid from revenue less energy (T7).
[[nodiscard]] constexpr seconds_t payback_period(const hardware& h, const facility& f,
                                                 const dollars_per_second_t& full_use, double utilisation,
                                                 gpu_cost_options o = {}) {
    return payback_period(h.capex_per_gpu, economics_at(h, f, full_use, utilisation, o).cash_margin());
}

/// P_site ÷ P_wall(1) — how many times the GPUs' full-load wall draw the site's power per GPU covers
/// (T1: 10 kW per GPU against ≈ 1.7 kW for a B300 at 1.3 × 1.2).
[[nodiscard]] constexpr double provisioned_power_ratio(const facility_plan& plan, const hardware& h,
                                                       const facility& f, gpu_cost_options o = {}) {
    plan.validate();
    return ratio(plan.facility_power_per_gpu(), wall_power_at(h, f, 1.0, o));
}

/// ΔP = GPUs · (P_board − P_idle) · overhead · cooling — the step in site load when every GPU goes
/// from idle to full use at once, the swing a grid minds more than the load itself (T12).
[[nodiscard]] constexpr watts_t site_power_swing(const hardware& h, const facility& f, double gpus) {
    require(non_negative_finite(gpus), "site_power_swing", "gpus", gpus, "must be zero or positive and finite");
    return (h.gpu.board_power - h.gpu.idle_power) * (gpus * f.power_multiplier());
}

// ---- 5. time to finish a task (T8) ----------------------------------------------------------

/// E[retries] = (1 − p) ÷ p — failed attempts before the first success, each succeeding with
/// probability p (geometric distribution).
[[nodiscard]] constexpr double expected_retries(double success_probability) {
    require(success_probability > 0.0 && success_probability <= 1.0, "expected_retries", "success_probability",
            success_probability, "must be in (0, 1]");
    return (1.0 - success_probability) / success_probability;
}

/// t = (N + retries · N_retry) ÷ R — time to finish a task: tokens it needs over the speed, plus
/// the tokens its retries burn (T8: tokens per second alone is the wrong metric).
[[nodiscard]] constexpr seconds_t time_to_finish(const tokens_t& needed, const tokens_per_second_t& rate,
                                                 double retries = 0.0, const tokens_t& tokens_per_retry = tokens(0.0)) {
    require(positive_finite(rate.value()), "time_to_finish", "rate (tokens/s)", rate.value(),
            "must be positive and finite");
    require(non_negative_finite(needed.value()), "time_to_finish", "needed (tokens)", needed.value(),
            "must be zero or positive and finite");
    require(non_negative_finite(retries), "time_to_finish", "retries", retries, "must be zero or positive");
    require(non_negative_finite(tokens_per_retry.value()), "time_to_finish", "tokens_per_retry", tokens_per_retry.value(),
            "must be zero or positive and finite");
    return (needed + tokens_per_retry * retries) / rate;
}

/// N_max = R × t_rival — the most tokens a model at `rate` may spend and still finish no later than
/// a rival that takes `rival_time` (T8: a 3× slower model wins if it needs under 1/3 of the tokens).
[[nodiscard]] constexpr tokens_t token_budget_to_match(const seconds_t& rival_time, const tokens_per_second_t& rate) {
    return rate * rival_time;
}

// ---- 6. inference against training (S34) ---------------------------------------------------

/// c_req = n_in · c_in + n_out · c_out + n_cached · c_cached — one request's inference cost.
[[nodiscard]] constexpr dollars_t inference_cost_per_request(const token_costs& c, const tokens_t& input,
                                                             const tokens_t& output,
                                                             const tokens_t& cached = tokens(0.0)) {
    return input * c.input + output * c.output + cached * c.cached;
}

/// C_inf = users × requests per user × c_req — inference is paid again for every request (S34).
[[nodiscard]] constexpr dollars_t cumulative_inference_cost(const dollars_t& per_request, double users,
                                                            double requests_per_user) {
    require(non_negative_finite(users), "cumulative_inference_cost", "users", users, "must be zero or positive");
    require(non_negative_finite(requests_per_user), "cumulative_inference_cost", "requests_per_user",
            requests_per_user, "must be zero or positive");
    return per_request * (users * requests_per_user);
}

/// n* = C_train ÷ c_req — requests after which inference has cost more than the one-off training (S34).
[[nodiscard]] constexpr double requests_to_overtake_training(const dollars_t& training_cost, const dollars_t& per_request) {
    require(non_negative_finite(training_cost.value()), "requests_to_overtake_training", "training_cost ($)",
            training_cost.value(), "must be zero or positive and finite");
    require(positive_finite(per_request.value()), "requests_to_overtake_training", "per_request ($)",
            per_request.value(), "a request must cost something for inference ever to overtake training");
    return ratio(training_cost, per_request);
}

// ---- 7. cost by context tier (T10) ----------------------------------------------------------

/// Output cost of a deployment at one context: the batch the KV budget allows, the GPU time per
/// token and the $ per token.
struct context_cost {
    double batch = 0.0;                  ///< min(max_sequences(context), batch cap); 0 = does not fit
    seconds_per_token_t gpu_time_per_token;  ///< decode GPU-seconds per output token
    dollars_per_token_t output;          ///< +∞ when not even one sequence fits
};

/// c_out(x) = C(u) ÷ u × GPU-s(decode pass at b(x), x) ÷ b(x), b(x) = min(⌊KV budget ÷ KV(x)⌋, cap) —
/// longer contexts read more KV per token and fit fewer sequences per pass (T10).
[[nodiscard]] constexpr context_cost output_cost_at_context(const deployment& d, const facility& f,
                                                            const tokens_t& context, double utilisation,
                                                            double batch_cap = 256.0, memory_reserve reserve = {},
                                                            gpu_cost_options o = {}) {
    require(batch_cap >= 1.0 && positive_finite(batch_cap), "output_cost_at_context", "batch_cap", batch_cap,
            "must be at least 1");
    require(utilisation > 0.0 && utilisation <= 1.0, "output_cost_at_context", "utilisation", utilisation,
            "must be in (0, 1]");
    context_cost c{};
    c.batch = detail::min(max_sequences(d, context, reserve), detail::const_trunc(batch_cap));
    const dollars_per_second_t busy = gpu_hour_cost(d.hw, f, utilisation, o).total() / utilisation;
    if (c.batch < 1.0) {
        c.gpu_time_per_token = seconds_per_token_t::from_value(detail::econ_infinity);
        c.output = dollars_per_token_t::from_value(detail::econ_infinity);
        return c;
    }
    const pass_cost p = decode_pass(d, c.batch, context);
    c.gpu_time_per_token = detail::econ_gpu_seconds_per_pass(d, p) / tokens(c.batch * d.attention_ranks());
    c.output = busy * c.gpu_time_per_token;
    return c;
}

// ---- catalog: the seed's token factory (T1) -------------------------------------------------

namespace catalog {

/// 2025 average onshore rate, 1,422.16 KRW per US dollar (Yonhap market data, reported by KBS World
/// and NationPress on 31 Dec 2025). An assumption for T1: the episode gives no date or rate.
inline constexpr exchange_rate krw_per_usd_2025 = checked(exchange_rate{
    .currency = "KRW", .per_dollar = 1422.16, .source = "2025 average onshore USD/KRW (Yonhap via KBS World)"});

/// T1: an in-house 1 MW data centre with about 100 B300, about 10 billion KRW in all
/// → 10 kW of site power and ≈ $70.3k of capital per GPU at the 2025 rate.
inline constexpr facility_plan seed_token_factory = checked(facility_plan{
    .name = "T1 token factory", .grid_power = megawatts(1.0), .gpus = 100.0,
    .total_capex = krw_per_usd_2025.to_dollars(10e9)});

/// The T1 site's running costs: the seed's 1.3 server overhead and 1.2 cooling (S30), Korean
/// industrial tariff (B) of 182.7 KRW/kWh after KEPCO's October 2024 rise (MOTIE, reported by
/// energynews.pro) at the 2025 rate ≈ $0.128/kWh, and 5-year straight-line depreciation (as `seed_site`).
inline constexpr facility seed_token_factory_site = checked(facility{
    .name = "T1 site (Korea)",
    .server_overhead = 1.3,
    .cooling = 1.2,
    .electricity = dollars_per_kilowatt_hour(krw_per_usd_2025.to_dollars(182.7).value()),
    .depreciation = years(5.0)});

}  // namespace catalog

}  // namespace llmcost
