#pragma once
/// \file
/// Printing quantities the way a reader expects them: bytes in GB or GiB (the caller chooses),
/// bandwidth in GB/s or TB/s, compute in TFLOP/s, energy in J or Wh, money in $.
/// Not `boost/units/io.hpp`, which prints 14e9 bytes as "112 Gb" and joules as "m^2 kg s^-2".
///
/// **Example**
/// \code
/// format(bytes(327680.0), {.bytes = byte_prefix::binary})   // "320 KiB"
/// format(gigabytes(40.0) / terabytes_per_second(20.0))      // "2 ms"
/// \endcode

#include <llmcost/units/system.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace llmcost {

/// Decimal (kB, MB, GB: powers of 1000) or binary (KiB, MiB, GiB: powers of 1024) prefixes.
enum class byte_prefix { decimal, binary };
/// Energy as joules (J, kJ, MJ) or as watt-hours (Wh, kWh, MWh).
enum class energy_style { joules, watt_hours };

struct format_options {
    int digits = 4;                              ///< significant digits
    byte_prefix bytes = byte_prefix::decimal;    ///< for sizes and bandwidths
    energy_style energy = energy_style::joules;  ///< for energies
};

namespace detail {

struct prefix {
    double factor;
    std::string_view symbol;
};

inline constexpr std::array<prefix, 7> decimal_prefixes{{{1e0, ""},
                                                          {1e3, "k"},
                                                          {1e6, "M"},
                                                          {1e9, "G"},
                                                          {1e12, "T"},
                                                          {1e15, "P"},
                                                          {1e18, "E"}}};
inline constexpr std::array<prefix, 7> binary_prefixes{{{1.0, ""},
                                                         {1024.0, "Ki"},
                                                         {1048576.0, "Mi"},
                                                         {1073741824.0, "Gi"},
                                                         {1099511627776.0, "Ti"},
                                                         {1125899906842624.0, "Pi"},
                                                         {1152921504606846976.0, "Ei"}}};
inline constexpr std::array<prefix, 4> sub_second{{{1e-9, "n"}, {1e-6, "µ"}, {1e-3, "m"}, {1.0, ""}}};

/// "$" + text, built by insertion: g++ 12 at -O2 warns falsely (-Wrestrict, GCC bug 105329) on
/// `"$" + std::string`.
[[nodiscard]] inline std::string dollars_text(std::string text) {
    text.insert(0, 1, '$');
    return text;
}

[[nodiscard]] inline std::string number(double v, int digits) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits < 1 ? 1 : digits, v);
    return buf;
}

/// v in the largest prefix that keeps the number ≥ 1, e.g. 4e10 B → "40 GB".
template <std::size_t N>
[[nodiscard]] std::string with_prefix(double v, const std::array<prefix, N>& table,
                                      std::string_view unit, int digits) {
    const double a = std::fabs(v);
    const prefix* chosen = &table[0];
    for (const prefix& p : table)
        if (a >= p.factor * (1.0 - 5e-16)) chosen = &p;
    std::string out = number(v / chosen->factor, digits);
    out += ' ';
    out += chosen->symbol;
    out += unit;
    return out;
}

}  // namespace detail

[[nodiscard]] inline std::string format(const bytes_t& b, format_options o = {}) {
    return o.bytes == byte_prefix::binary
               ? detail::with_prefix(b.value(), detail::binary_prefixes, "B", o.digits)
               : detail::with_prefix(b.value(), detail::decimal_prefixes, "B", o.digits);
}
[[nodiscard]] inline std::string format(const bytes_per_second_t& bw, format_options o = {}) {
    return o.bytes == byte_prefix::binary
               ? detail::with_prefix(bw.value(), detail::binary_prefixes, "B/s", o.digits)
               : detail::with_prefix(bw.value(), detail::decimal_prefixes, "B/s", o.digits);
}
/// A line rate in bits per second (400 Gb/s), as links are sold.
[[nodiscard]] inline std::string format_bits(const bytes_per_second_t& bw, format_options o = {}) {
    return detail::with_prefix(bw.value() * 8.0, detail::decimal_prefixes, "b/s", o.digits);
}
[[nodiscard]] inline std::string format(const bytes_per_token_t& b, format_options o = {}) {
    return o.bytes == byte_prefix::binary
               ? detail::with_prefix(b.value(), detail::binary_prefixes, "B/token", o.digits)
               : detail::with_prefix(b.value(), detail::decimal_prefixes, "B/token", o.digits);
}
[[nodiscard]] inline std::string format(const seconds_t& t, format_options o = {}) {
    if (std::fabs(t.value()) >= 3.0 * 86400.0) return detail::number(t.value() / 86400.0, o.digits) + " d";
    if (std::fabs(t.value()) >= 3.0 * 3600.0) return detail::number(t.value() / 3600.0, o.digits) + " h";
    if (t.value() == 0.0) return "0 s";
    return detail::with_prefix(t.value(), detail::sub_second, "s", o.digits);
}
[[nodiscard]] inline std::string format(const seconds_per_token_t& t, format_options o = {}) {
    return format(seconds_t::from_value(t.value()), o) + "/token";
}
[[nodiscard]] inline std::string format(const metres_t& d, format_options o = {}) {
    if (std::fabs(d.value()) >= 1000.0) return detail::number(d.value() / 1000.0, o.digits) + " km";
    return detail::number(d.value(), o.digits) + " m";
}
[[nodiscard]] inline std::string format(const watts_t& p, format_options o = {}) {
    return detail::with_prefix(p.value(), detail::decimal_prefixes, "W", o.digits);
}
[[nodiscard]] inline std::string format(const joules_t& e, format_options o = {}) {
    return o.energy == energy_style::watt_hours
               ? detail::with_prefix(e.value() / 3600.0, detail::decimal_prefixes, "Wh", o.digits)
               : detail::with_prefix(e.value(), detail::decimal_prefixes, "J", o.digits);
}
[[nodiscard]] inline std::string format(const joules_per_token_t& e, format_options o = {}) {
    return o.energy == energy_style::watt_hours
               ? detail::number(e.value() / 3600.0, o.digits) + " Wh/token"
               : detail::number(e.value(), o.digits) + " J/token";
}
[[nodiscard]] inline std::string format(const flops_t& f, format_options o = {}) {
    return detail::with_prefix(f.value(), detail::decimal_prefixes, "FLOP", o.digits);
}
[[nodiscard]] inline std::string format(const flops_per_second_t& f, format_options o = {}) {
    return detail::with_prefix(f.value(), detail::decimal_prefixes, "FLOP/s", o.digits);
}
[[nodiscard]] inline std::string format(const flops_per_byte_t& i, format_options o = {}) {
    return detail::number(i.value(), o.digits) + " FLOP/B";
}
[[nodiscard]] inline std::string format(const tokens_t& n, format_options o = {}) {
    return detail::number(n.value(), o.digits > 10 ? o.digits : 10) + " tokens";
}
[[nodiscard]] inline std::string format(const tokens_per_second_t& r, format_options o = {}) {
    return detail::number(r.value(), o.digits) + " tokens/s";
}
[[nodiscard]] inline std::string format(const dollars_t& d, format_options o = {}) {
    return detail::dollars_text(detail::number(d.value(), o.digits));
}
[[nodiscard]] inline std::string format(const dollars_per_second_t& d, format_options o = {}) {
    return detail::dollars_text(detail::number(d.value() * 3600.0, o.digits) + "/h");
}
/// Token prices are quoted per million tokens.
[[nodiscard]] inline std::string format(const dollars_per_token_t& d, format_options o = {}) {
    return detail::dollars_text(detail::number(d.value() * 1e6, o.digits) + "/Mtoken");
}
[[nodiscard]] inline std::string format(const dollars_per_joule_t& d, format_options o = {}) {
    return detail::dollars_text(detail::number(d.value() * 3.6e6, o.digits) + "/kWh");
}

}  // namespace llmcost
