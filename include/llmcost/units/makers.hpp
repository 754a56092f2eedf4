#pragma once
/// \file
/// Makers and literals: the way values enter the library. Every maker returns a quantity in the
/// base unit of the system (`gigabytes(40.0)` is 4e10 bytes as a `bytes_t`), so formulas never
/// see a prefix. Decimal prefixes are powers of 10, binary prefixes powers of 2: `gigabytes` and
/// `gibibytes` are different makers and `0.3125_MiB != 0.328_MB` (seed S16).
///
/// **Example**
/// \code
/// using namespace llmcost::literals;
/// static_assert(40_GB / 20_TBps == 2_ms);   // seed S27: one pass of the receipt
/// \endcode

#include <llmcost/units/concepts.hpp>

namespace llmcost {

namespace detail {
/// 10^n and 2^n as exact doubles (n small), so that `x * 1e9` and `x / 1e3` round once.
[[nodiscard]] constexpr double pow10(int n) {
    double r = 1.0;
    for (int i = 0; i < n; ++i) r *= 10.0;
    return r;
}
[[nodiscard]] constexpr double pow2(int n) {
    double r = 1.0;
    for (int i = 0; i < n; ++i) r *= 2.0;
    return r;
}
}  // namespace detail

// ---- information -----------------------------------------------------------------------------
[[nodiscard]] constexpr bytes_t bytes(double v) { return bytes_t::from_value(v); }
[[nodiscard]] constexpr bytes_t bits(double v) { return bytes_t::from_value(v / 8.0); }
[[nodiscard]] constexpr bytes_t kilobytes(double v) { return bytes(v * detail::pow10(3)); }
[[nodiscard]] constexpr bytes_t megabytes(double v) { return bytes(v * detail::pow10(6)); }
[[nodiscard]] constexpr bytes_t gigabytes(double v) { return bytes(v * detail::pow10(9)); }
[[nodiscard]] constexpr bytes_t terabytes(double v) { return bytes(v * detail::pow10(12)); }
[[nodiscard]] constexpr bytes_t petabytes(double v) { return bytes(v * detail::pow10(15)); }
[[nodiscard]] constexpr bytes_t kibibytes(double v) { return bytes(v * detail::pow2(10)); }
[[nodiscard]] constexpr bytes_t mebibytes(double v) { return bytes(v * detail::pow2(20)); }
[[nodiscard]] constexpr bytes_t gibibytes(double v) { return bytes(v * detail::pow2(30)); }
[[nodiscard]] constexpr bytes_t tebibytes(double v) { return bytes(v * detail::pow2(40)); }
[[nodiscard]] constexpr bytes_t pebibytes(double v) { return bytes(v * detail::pow2(50)); }

// ---- bandwidth -------------------------------------------------------------------------------
[[nodiscard]] constexpr bytes_per_second_t bytes_per_second(double v) {
    return bytes_per_second_t::from_value(v);
}
[[nodiscard]] constexpr bytes_per_second_t gigabytes_per_second(double v) {
    return bytes_per_second(v * detail::pow10(9));
}
[[nodiscard]] constexpr bytes_per_second_t terabytes_per_second(double v) {
    return bytes_per_second(v * detail::pow10(12));
}
/// Line rates are sold in bits: 400 Gb/s is 50 GB/s.
[[nodiscard]] constexpr bytes_per_second_t gigabits_per_second(double v) {
    return bytes_per_second(v * detail::pow10(9) / 8.0);
}
[[nodiscard]] constexpr bytes_per_second_t terabits_per_second(double v) {
    return bytes_per_second(v * detail::pow10(12) / 8.0);
}

// ---- time ------------------------------------------------------------------------------------
[[nodiscard]] constexpr seconds_t seconds(double v) { return seconds_t::from_value(v); }
[[nodiscard]] constexpr seconds_t milliseconds(double v) { return seconds(v / detail::pow10(3)); }
[[nodiscard]] constexpr seconds_t microseconds(double v) { return seconds(v / detail::pow10(6)); }
[[nodiscard]] constexpr seconds_t nanoseconds(double v) { return seconds(v / detail::pow10(9)); }
[[nodiscard]] constexpr seconds_t minutes(double v) { return seconds(v * 60.0); }
[[nodiscard]] constexpr seconds_t hours(double v) { return seconds(v * 3600.0); }
[[nodiscard]] constexpr seconds_t days(double v) { return seconds(v * 86400.0); }
/// A Julian year of 365.25 days, the usual basis of depreciation schedules.
[[nodiscard]] constexpr seconds_t years(double v) { return seconds(v * 365.25 * 86400.0); }
/// A price-list figure into the base unit: $10 per million tokens = 1e-5 $/token.
[[nodiscard]] constexpr dollars_per_token_t dollars_per_million_tokens(double v) {
    return dollars_per_token_t::from_value(v / detail::pow10(6));
}

// ---- length ----------------------------------------------------------------------------------
[[nodiscard]] constexpr metres_t metres(double v) { return metres_t::from_value(v); }
[[nodiscard]] constexpr metres_t kilometres(double v) { return metres(v * 1000.0); }

// ---- power and energy ------------------------------------------------------------------------
[[nodiscard]] constexpr watts_t watts(double v) { return watts_t::from_value(v); }
[[nodiscard]] constexpr watts_t kilowatts(double v) { return watts(v * detail::pow10(3)); }
[[nodiscard]] constexpr watts_t megawatts(double v) { return watts(v * detail::pow10(6)); }
[[nodiscard]] constexpr joules_t joules(double v) { return joules_t::from_value(v); }
[[nodiscard]] constexpr joules_t kilojoules(double v) { return joules(v * detail::pow10(3)); }
/// 1 Wh = 3600 J.
[[nodiscard]] constexpr joules_t watt_hours(double v) { return joules(v * 3600.0); }
[[nodiscard]] constexpr joules_t kilowatt_hours(double v) { return joules(v * 3.6e6); }
[[nodiscard]] constexpr joules_t megawatt_hours(double v) { return joules(v * 3.6e9); }

// ---- compute ---------------------------------------------------------------------------------
[[nodiscard]] constexpr flops_t flops(double v) { return flops_t::from_value(v); }
[[nodiscard]] constexpr flops_t gigaflops(double v) { return flops(v * detail::pow10(9)); }
[[nodiscard]] constexpr flops_t teraflops(double v) { return flops(v * detail::pow10(12)); }
[[nodiscard]] constexpr flops_t petaflops(double v) { return flops(v * detail::pow10(15)); }
[[nodiscard]] constexpr flops_per_second_t flops_per_second(double v) {
    return flops_per_second_t::from_value(v);
}
[[nodiscard]] constexpr flops_per_second_t teraflops_per_second(double v) {
    return flops_per_second(v * detail::pow10(12));
}
[[nodiscard]] constexpr flops_per_second_t petaflops_per_second(double v) {
    return flops_per_second(v * detail::pow10(15));
}

// ---- tokens and money ------------------------------------------------------------------------
[[nodiscard]] constexpr tokens_t tokens(double v) { return tokens_t::from_value(v); }
[[nodiscard]] constexpr tokens_per_second_t tokens_per_second(double v) {
    return tokens_per_second_t::from_value(v);
}
/// An event rate: requests (or arrivals) per second.
[[nodiscard]] constexpr per_second_t per_second(double v) { return per_second_t::from_value(v); }
[[nodiscard]] constexpr dollars_t dollars(double v) { return dollars_t::from_value(v); }
[[nodiscard]] constexpr dollars_per_second_t dollars_per_hour(double v) {
    return dollars_per_second_t::from_value(v / 3600.0);
}
/// Electricity is sold per kWh: $0.10/kWh = 0.10 / 3.6e6 $/J.
[[nodiscard]] constexpr dollars_per_joule_t dollars_per_kilowatt_hour(double v) {
    return dollars_per_joule_t::from_value(v / 3.6e6);
}

// ---- comparing and reading -------------------------------------------------------------------

/// a ÷ b for two quantities of one dimension, as a plain number: `ratio(t, milliseconds(1))` is
/// t in milliseconds.
template <any_quantity A, any_quantity B>
    requires quantity_like<A, canonical_t<B>>
[[nodiscard]] constexpr double ratio(const A& a, const B& b) {
    return in_base_units(a).value() / in_base_units(b).value();
}

/// |a − b| ≤ rel · max(|a|, |b|): equality for values that went through different roundings.
template <any_quantity A, any_quantity B>
    requires quantity_like<A, canonical_t<B>>
[[nodiscard]] constexpr bool approx_equal(const A& a, const B& b, double rel = 1e-9) {
    const double x = in_base_units(a).value();
    const double y = in_base_units(b).value();
    const double d = x > y ? x - y : y - x;
    const double ax = x < 0 ? -x : x;
    const double ay = y < 0 ? -y : y;
    return d <= rel * (ax > ay ? ax : ay);
}

/// Literals: `40_GB`, `20_TBps`, `2_ms`, `1.5_kW`, `0.3125_MiB`, `2_PFLOPS`, `500_tok`.
/// Upper-case S after FLOP means "per second" (`_TFLOPS`); `_TFLOP` is a count.
namespace literals {
#define LLMCOST_DETAIL_LITERAL(suffix, maker)                                             \
    [[nodiscard]] constexpr auto operator""_##suffix(long double v) {                    \
        return maker(static_cast<double>(v));                                             \
    }                                                                                     \
    [[nodiscard]] constexpr auto operator""_##suffix(unsigned long long v) {             \
        return maker(static_cast<double>(v));                                             \
    }
// A macro only because a literal operator's name cannot be built from a template argument.
LLMCOST_DETAIL_LITERAL(B, bytes)
LLMCOST_DETAIL_LITERAL(bit, bits)
LLMCOST_DETAIL_LITERAL(kB, kilobytes)
LLMCOST_DETAIL_LITERAL(MB, megabytes)
LLMCOST_DETAIL_LITERAL(GB, gigabytes)
LLMCOST_DETAIL_LITERAL(TB, terabytes)
LLMCOST_DETAIL_LITERAL(PB, petabytes)
LLMCOST_DETAIL_LITERAL(KiB, kibibytes)
LLMCOST_DETAIL_LITERAL(MiB, mebibytes)
LLMCOST_DETAIL_LITERAL(GiB, gibibytes)
LLMCOST_DETAIL_LITERAL(TiB, tebibytes)
LLMCOST_DETAIL_LITERAL(PiB, pebibytes)
LLMCOST_DETAIL_LITERAL(Bps, bytes_per_second)
LLMCOST_DETAIL_LITERAL(GBps, gigabytes_per_second)
LLMCOST_DETAIL_LITERAL(TBps, terabytes_per_second)
LLMCOST_DETAIL_LITERAL(Gbps, gigabits_per_second)
LLMCOST_DETAIL_LITERAL(Tbps, terabits_per_second)
LLMCOST_DETAIL_LITERAL(s, seconds)
LLMCOST_DETAIL_LITERAL(ms, milliseconds)
LLMCOST_DETAIL_LITERAL(us, microseconds)
LLMCOST_DETAIL_LITERAL(ns, nanoseconds)
LLMCOST_DETAIL_LITERAL(h, hours)
LLMCOST_DETAIL_LITERAL(m, metres)
LLMCOST_DETAIL_LITERAL(km, kilometres)
LLMCOST_DETAIL_LITERAL(W, watts)
LLMCOST_DETAIL_LITERAL(kW, kilowatts)
LLMCOST_DETAIL_LITERAL(MW, megawatts)
LLMCOST_DETAIL_LITERAL(J, joules)
LLMCOST_DETAIL_LITERAL(kJ, kilojoules)
LLMCOST_DETAIL_LITERAL(Wh, watt_hours)
LLMCOST_DETAIL_LITERAL(kWh, kilowatt_hours)
LLMCOST_DETAIL_LITERAL(MWh, megawatt_hours)
LLMCOST_DETAIL_LITERAL(FLOP, flops)
LLMCOST_DETAIL_LITERAL(GFLOP, gigaflops)
LLMCOST_DETAIL_LITERAL(TFLOP, teraflops)
LLMCOST_DETAIL_LITERAL(PFLOP, petaflops)
LLMCOST_DETAIL_LITERAL(FLOPS, flops_per_second)
LLMCOST_DETAIL_LITERAL(TFLOPS, teraflops_per_second)
LLMCOST_DETAIL_LITERAL(PFLOPS, petaflops_per_second)
LLMCOST_DETAIL_LITERAL(tok, tokens)
LLMCOST_DETAIL_LITERAL(tok_per_s, tokens_per_second)
LLMCOST_DETAIL_LITERAL(usd, dollars)
LLMCOST_DETAIL_LITERAL(usd_per_h, dollars_per_hour)
#undef LLMCOST_DETAIL_LITERAL
}  // namespace literals

}  // namespace llmcost
