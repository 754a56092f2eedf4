#pragma once
/// \file
/// What a GPU-hour is charged at, and on what basis: a public market price (on demand, or
/// committed for a term; catalog/prices.hpp, tables/gpu_prices.csv) or the owner's capex ÷
/// depreciation + wall power at a utilisation (the TCO of T7, `gpu_hour_cost`). A basis with no
/// listed figure for the GPU falls back to the TCO, and the result says so.

#include <llmcost/descriptors/economics.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/serving/economics/gpu_hour.hpp>
#include <llmcost/units/text.hpp>

#include <string>
#include <string_view>

namespace llmcost {

/// A GPU-hour's price and what it rests on.
struct gpu_hour_price {
    dollars_per_second_t rate = dollars_per_second_t::from_value(0.0);  ///< per GPU-second; 0 = unknown
    pricing_basis asked = pricing_basis::market;  ///< the basis asked for
    pricing_basis basis = pricing_basis::market;  ///< the basis of `rate`: `asked`, or tco where none was listed
    bool given = false;                           ///< the caller's own price (e.g. --usd-per-gpu-hour)
    std::string_view source = {};                 ///< market and committed: who lists it, where
    std::string_view date = {};                   ///< market and committed: when
    std::string_view term = {};                   ///< committed: the commitment's term

    [[nodiscard]] constexpr bool known() const { return rate.value() > 0.0; }
    [[nodiscard]] constexpr bool fell_back() const { return !given && basis != asked; }
    [[nodiscard]] constexpr bool operator==(const gpu_hour_price&) const = default;
};

/// C = the listed on-demand or committed $/GPU-hour when the basis asks for it and `listed` has it,
/// else capex ÷ T_dep + P_wall(u) · price (T7); unknown (0) when neither is known.
[[nodiscard]] constexpr gpu_hour_price price_gpu_hour(const hardware& h, const facility& f, double utilisation,
                                                      pricing_basis b, const gpu_market_price* listed) {
    require(utilisation >= 0.0 && utilisation <= 1.0, h.name, "utilisation", utilisation, "must be in [0, 1]");
    if (listed) listed->validate();
    gpu_hour_price p{.asked = b, .basis = b};
    const market_price* m = !listed                         ? nullptr
                            : b == pricing_basis::market    ? &listed->on_demand
                            : b == pricing_basis::committed ? &listed->committed
                                                            : nullptr;
    if (m && m->known()) {
        p.rate = m->per_gpu;
        p.source = m->source;
        p.date = m->date;
        if (b == pricing_basis::committed) p.term = listed->committed_term;
        return p;
    }
    p.basis = pricing_basis::tco;
    if (h.capex_per_gpu.value() > 0.0) p.rate = gpu_hour_cost(h, f, utilisation).total();
    return p;
}

/// The most a caller may price a GPU-hour at, $ (the tool's bound on a price, --usd-per-gpu-hour): far above any
/// listed price, so a larger figure is a slip, and $/token from it could overflow to an infinite figure.
inline constexpr double max_usd_per_gpu_hour = 1e12;

/// A price the caller gives, kept with its basis ("given"): positive, at most `max_usd_per_gpu_hour`. The tool's
/// `cost` passes its capex + power figure here too (--capex, --electricity, --depreciation-years), so the rule says so.
[[nodiscard]] constexpr gpu_hour_price given_gpu_hour(const dollars_per_second_t& rate) {
    require(positive_finite(rate.value()) && rate.value() <= dollars_per_hour(max_usd_per_gpu_hour).value(),
            "gpu_hour_price", "rate ($/GPU-h)", rate.value() * 3600.0,
            "a GPU-hour's price, given or from capex, power and electricity, must be positive and at most $10^12",
            "llmcost.cost.gpu_hour_range");
    return gpu_hour_price{.rate = rate, .given = true};
}

/// A GPU-hour's price as a person reads it, printed with every $ figure: "$2.99/GPU-h, on-demand
/// market price, <source>, <date>", or the capex, depreciation and electricity it rests on and why
/// it fell back to them.
[[nodiscard]] inline std::string basis_text(const gpu_hour_price& p, const hardware& h, const facility& site) {
    std::string s = "$";
    s += text::number(p.rate.value() * 3600.0);
    s += "/GPU-h, ";
    if (p.given) return s + "the price given";
    if (p.basis == pricing_basis::market || p.basis == pricing_basis::committed) {
        if (p.basis == pricing_basis::market) {
            s += "on-demand market price, ";
        } else {
            s += "committed price (";
            s.append(p.term);
            s += "), ";
        }
        s.append(p.source);
        s += ", ";
        s.append(p.date);
        return s;
    }
    s += "capex + power (TCO): $";
    s += text::number(h.capex_per_gpu.value(), 6);
    s += " per GPU over ";
    s += text::number(ratio(site.depreciation, years(1.0)));
    s += " years + wall power at ";
    s += to_text(site.electricity);
    if (p.fell_back()) {
        s += "; no ";
        s += p.asked == pricing_basis::committed ? "committed" : "on-demand market";
        s += " price listed for ";
        s.append(h.name);
    }
    return s;
}

}  // namespace llmcost
