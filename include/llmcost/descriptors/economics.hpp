#pragma once
/// \file
/// The descriptors of the economics (seed S33, T1, T7): an exchange rate, a site as its owner plans
/// it, a price list, a GPU's full-use token rates, the operating point at which a deployment's
/// rates are derived, and what enters a GPU-hour. Formulas: serving/economics.hpp.

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>
#include <span>
#include <string_view>

namespace llmcost {

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

/// What a GPU-hour is priced at: a public market price (on demand, or committed for 1-3 years), or
/// the owner's capex ÷ depreciation + wall power (the TCO of seed T7).
enum class pricing_basis { market, committed, tco };

/// The basis as the tool's `--pricing` spells it.
[[nodiscard]] constexpr std::string_view to_string(pricing_basis b) {
    switch (b) {
        case pricing_basis::market: return "market";
        case pricing_basis::committed: return "committed";
        case pricing_basis::tco: return "tco";
    }
    return "market";
}

/// One public price of a GPU-hour, with where and when it was published. 0 $/s = none found.
struct market_price {
    dollars_per_second_t per_gpu = dollars_per_second_t::from_value(0.0);
    std::string_view source = {};  ///< who lists it, and where it was read
    std::string_view date = {};    ///< when it was listed or read (YYYY-MM or YYYY-MM-DD)

    [[nodiscard]] constexpr bool known() const { return per_gpu.value() > 0.0; }
    [[nodiscard]] constexpr bool operator==(const market_price&) const = default;
};

/// A GPU's public market prices per GPU-hour (tables/gpu_prices.csv): on demand, and committed for a
/// term (a 1-3 year reservation). Either may be unknown.
struct gpu_market_price {
    std::string_view gpu;          ///< the catalog hardware's name, as `llmcost list hardware` prints it
    market_price on_demand;
    market_price committed;
    std::string_view committed_term = {};  ///< e.g. "1 year"

    constexpr void validate() const {
        const std::string_view s = gpu;
        require(non_negative_finite(on_demand.per_gpu.value()), s, "on_demand ($/s)", on_demand.per_gpu.value(),
                "must be zero (unknown) or positive and finite");
        require(non_negative_finite(committed.per_gpu.value()), s, "committed ($/s)", committed.per_gpu.value(),
                "must be zero (unknown) or positive and finite");
        require(!on_demand.known() || (!on_demand.source.empty() && !on_demand.date.empty()), s, "on_demand source",
                on_demand.per_gpu.value(), "a market price needs its source and date");
        require(!committed.known() || (!committed.source.empty() && !committed.date.empty() && !committed_term.empty()),
                s, "committed source", committed.per_gpu.value(), "a committed price needs its source, date and term");
        require(!committed.known() || !on_demand.known() || committed.per_gpu <= on_demand.per_gpu, s,
                "committed ($/s)", committed.per_gpu.value(), "a commitment costs no more than on demand");
    }
    [[nodiscard]] constexpr bool operator==(const gpu_market_price&) const = default;
};

/// The entry of `prices` for the GPU named `gpu` (exact name), or nullptr.
[[nodiscard]] constexpr const gpu_market_price* find_market_price(std::span<const gpu_market_price> prices,
                                                                  std::string_view gpu) {
    for (const gpu_market_price& p : prices)
        if (p.gpu == gpu) return &p;
    return nullptr;
}

/// What enters a GPU-hour besides the GPU itself.
struct gpu_cost_options {
    bool optics = false;  ///< add the GPU's optical transceivers (always on) at the site's cooling (S10)
};

}  // namespace llmcost
