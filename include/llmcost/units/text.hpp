#pragma once
/// \file
/// Text for people, one layer for the whole tree. Numbers: `text::number` (significant digits),
/// `text::fixed` (decimals), `text::plain` (significant digits without an exponent, for tables),
/// `text::grouped` (thousands separators). Quantities: `to_text(q, options)` and `operator<<` for
/// every quantity type of `units/system.hpp`. The library, the `llmcost` tool, the examples and the
/// table, figure and validation generators all print through here, so a figure reads the same
/// everywhere and every generated file is byte-identical under any compiler, build type or locale.
///
/// Why `std::to_chars`: it is correctly rounded, ignores the locale, and is specified "as if by
/// printf in the C locale", so the text equals what `%g`, `%e` and `%f` printed before. Numbers
/// never go through a stream or a string parse. Every finite double prints, subnormals included
/// (`number(4.9e-324)` is "4.941e-324"); NaN prints "nan", infinities "inf" and "-inf".
///
/// Why a quantity picks its prefix: a base-unit quantity is stored in B, s, W…, and a reader wants
/// 4e10 B as "40 GB" and 6.25e-5 s as "62.5 µs". A quantity kept in a prefixed type
/// (`gigabytes_t`, `milliseconds_t`, … of `units/system.hpp`) is in the unit its owner chose, so it
/// prints in that unit: `gibibytes_t{40.0}` is "40 GiB", `milliseconds_t{2500.0}` is "2500 ms".
///
/// No `std::formatter`: libstdc++ 12, the standard library of both g++ 12 and clang 14 here, has no
/// `<format>` (libstdc++ 13 added it); a formatter can wrap `to_text` once the toolchains have one.
/// Not `boost/units/io.hpp` either, which prints 14e9 bytes as "112 Gb" and joules as "m^2 kg s^-2".
/// Quantities are Boost.Units types, so argument-dependent lookup does not reach `llmcost`: call
/// `llmcost::to_text`, or write `using namespace llmcost;` (or `using llmcost::operator<<;`) before
/// streaming a quantity.
///
/// **Example**
/// \code
/// to_text(bytes(327680.0), {.bytes = text::byte_prefix::binary})   // "320 KiB"
/// to_text(gigabytes(40.0) / terabytes_per_second(20.0))            // "2 ms"
/// std::cout << 20_TBps;                                            // 20 TB/s
/// text::grouped(1512840.0)                                         // "1,512,840"
/// \endcode

#include <llmcost/units/concepts.hpp>
#include <llmcost/units/makers.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <iosfwd>  // operator<< is a template: its callers have <ostream>
#include <string>
#include <string_view>

namespace llmcost::text {

/// Decimal (kB, MB, GB: powers of 1000) or binary (KiB, MiB, GiB: powers of 1024) prefixes.
enum class byte_prefix { decimal, binary };
/// Energy as joules (J, kJ, MJ) or as watt-hours (Wh, kWh, MWh).
enum class energy_style { joules, watt_hours };
/// Commas between groups of three digits of the whole part ("32,330"), or none ("32330").
enum class grouping { none, thousands };

/// How `to_text` prints a quantity.
struct options {
    int digits = 4;                              ///< significant digits (1 to 17)
    byte_prefix bytes = byte_prefix::decimal;    ///< for sizes and bandwidths kept in B and B/s
    energy_style energy = energy_style::joules;  ///< for energies
};

namespace detail {

/// A double has at most 17 significant digits that mean anything; more would print the binary
/// value's exact decimal expansion, which no reader wants.
inline constexpr int max_significant_digits = 17;

[[nodiscard]] constexpr int clamp_digits(int significant_digits) {
    return std::clamp(significant_digits, 1, max_significant_digits);
}

/// printf's spelling of what is not finite, without its "-nan".
[[nodiscard]] inline std::string non_finite(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

/// `std::to_chars(v, how…)` into a string of at most `room` characters (room is always enough:
/// callers size it from the format's longest output).
template <class... How>
[[nodiscard]] std::string chars(std::size_t room, double v, How... how) {
    std::string out(room, '\0');
    const std::to_chars_result r = std::to_chars(out.data(), out.data() + out.size(), v, how...);
    out.resize(static_cast<std::size_t>(r.ptr - out.data()));
    return out;
}

/// Commas between groups of three digits of the whole part of a printed number:
/// "-1234567.5" → "-1,234,567.5".
[[nodiscard]] inline std::string separate_thousands(std::string_view printed) {
    const std::size_t sign = !printed.empty() && printed[0] == '-' ? 1 : 0;
    const std::size_t dot = printed.find('.');
    const std::size_t digits = (dot == std::string_view::npos ? printed.size() : dot) - sign;
    std::string out(printed.substr(0, sign));
    for (std::size_t i = 0; i < digits; ++i) {
        if (i > 0 && (digits - i) % 3 == 0) out += ',';
        out += printed[sign + i];
    }
    out.append(printed.substr(sign + digits));
    return out;
}

/// A finite, non-zero v rounded to p significant digits as sign, digits and exponent:
/// v ≈ ±d₁.d₂…d_p × 10^exponent. Read off `std::to_chars`'s scientific text, whose digits are
/// printf's %.*e (correctly rounded): the digits are characters, the exponent a small integer
/// summed from its characters; no floating-point parse.
struct decimal {
    bool negative = false;
    std::string digits;  ///< p characters '0'…'9', the first non-zero
    int exponent = 0;
};

[[nodiscard]] inline decimal decimal_of(double v, int p) {
    const std::string s = chars(32, v, std::chars_format::scientific, p - 1);  // "-3.233e+04"
    decimal d;
    std::size_t i = 0;
    if (s[i] == '-') {
        d.negative = true;
        ++i;
    }
    for (; s[i] != 'e'; ++i)
        if (s[i] != '.') d.digits += s[i];
    ++i;
    const bool negative_exponent = s[i++] == '-';
    for (; i < s.size(); ++i) d.exponent = d.exponent * 10 + (s[i] - '0');
    if (negative_exponent) d.exponent = -d.exponent;
    return d;
}

}  // namespace detail

// ---- numbers ---------------------------------------------------------------------------------

/// v to `significant_digits` (1 to 17) significant digits, as printf's %g: number(2.0) = "2",
/// number(62.5) = "62.5", number(1e15) = "1e+15", number(3.14159e-5) = "3.142e-05".
[[nodiscard]] inline std::string number(double v, int significant_digits = 4) {
    if (!std::isfinite(v)) return detail::non_finite(v);
    // The longest %.17g: sign, 17 digits, point, "e-308".
    return detail::chars(32, v, std::chars_format::general, detail::clamp_digits(significant_digits));
}

/// v with `decimals` (0 to 340) digits after the point, as printf's %f, but never a negative
/// zero (a reader sees "-0.00" as a sign error): fixed(2.345, 1) = "2.3" (2.345 is a little less in
/// binary), fixed(-0.001, 2) = "0.00".
[[nodiscard]] inline std::string fixed(double v, int decimals) {
    if (!std::isfinite(v)) return detail::non_finite(v);
    const int d = std::clamp(decimals, 0, 340);  // 340 reaches the smallest subnormal's digits
    // The longest: sign, 309 digits of 1.8e308, point, the decimals.
    std::string s = detail::chars(312 + static_cast<std::size_t>(d), v, std::chars_format::fixed, d);
    if (s[0] == '-' && s.find_first_not_of("0.", 1) == std::string::npos) s.erase(0, 1);
    return s;
}

/// v with `decimals` decimals (by default none: v rounded to a whole number, ties to even as %.0f)
/// and commas between groups of three digits: grouped(1512840.0) = "1,512,840",
/// grouped(-2047.6) = "-2,048", grouped(1234.56, 1) = "1,234.6". Counts read better grouped.
[[nodiscard]] inline std::string grouped(double v, int decimals = 0) {
    return detail::separate_thousands(fixed(v, decimals));
}

/// A fraction as a signed percentage, for errors and changes: signed_percent(0.121) = "+12.1%",
/// signed_percent(-0.05) = "-5.0%", and "+0.0%" for a zero or a change that rounds to it (`fixed`
/// never prints "-0.0").
[[nodiscard]] inline std::string signed_percent(double fraction, int decimals = 1) {
    std::string s = fixed(100.0 * fraction, decimals);
    if (s[0] != '-') s.insert(0, 1, '+');
    return s + "%";
}

/// `s` where it is valid UTF-8, and each byte that is not (a Latin-1 file name, a cut-off code
/// point) as the four characters `\xFF`: utf8_escaped("caf\xE9") = "caf\\xE9". Text from a
/// file or a path goes through here before a JSON writer, which refuses invalid UTF-8.
[[nodiscard]] inline std::string utf8_escaped(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    const auto cont = [&](std::size_t i) { return i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; };
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;  // bytes of a valid sequence starting at i (RFC 3629 table 3-7), 0 if none
        const auto second = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
        if (b < 0x80) n = 1;
        else if (b >= 0xC2 && b <= 0xDF) n = cont(i + 1) ? 2 : 0;
        else if (b >= 0xE0 && b <= 0xEF) {
            const bool ok2 = b == 0xE0 ? second >= 0xA0 && second <= 0xBF : b == 0xED ? second >= 0x80 && second <= 0x9F : cont(i + 1);
            n = ok2 && cont(i + 2) ? 3 : 0;
        } else if (b >= 0xF0 && b <= 0xF4) {
            const bool ok2 = b == 0xF0 ? second >= 0x90 && second <= 0xBF : b == 0xF4 ? second >= 0x80 && second <= 0x8F : cont(i + 1);
            n = ok2 && cont(i + 2) && cont(i + 3) ? 4 : 0;
        }
        if (n == 0) {
            constexpr char hex[] = "0123456789ABCDEF";
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 0xF];
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

/// v to `significant_digits` (1 to 17) significant digits in positional notation — no exponent,
/// no trailing zeros — with the whole part grouped unless `grouping::none`: plain(32330.4, 4) =
/// "32,330", plain(0.0012345, 3) = "0.00123", plain(1.5e20, 2, grouping::none) =
/// "150000000000000000000". For tables, where an exponent breaks a column of figures.
[[nodiscard]] inline std::string plain(double v, int significant_digits, grouping g = grouping::thousands) {
    if (!std::isfinite(v)) return detail::non_finite(v);
    if (v == 0.0) return "0";
    const detail::decimal d = detail::decimal_of(v, detail::clamp_digits(significant_digits));
    std::string whole, fraction;
    if (d.exponent >= 0) {
        const auto n = static_cast<std::size_t>(d.exponent) + 1;
        std::string digits = d.digits;
        digits.resize(std::max(n, digits.size()), '0');
        whole = digits.substr(0, n);
        fraction = digits.substr(n);
    } else {
        whole = "0";
        fraction = std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
    }
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    std::string out = d.negative ? "-" : "";
    out += g == grouping::thousands ? detail::separate_thousands(whole) : whole;
    if (!fraction.empty()) {
        out += '.';
        out += fraction;
    }
    return out;
}

/// The double nearest to v rounded to `significant_digits` decimal digits — the value a reader of
/// `number(v, significant_digits)` would type back — so that a printer of shortest round-trip text
/// (nlohmann::json) writes those digits and no binary noise: rounded(0.1 + 0.2, 10) == 0.3.
/// Exact (equal to parsing the printed digits with a correctly rounded parser) whenever the digits
/// times 10^k with |k| ≤ 22 describe v and at most 15 digits are asked for — for 10 digits, every
/// |v| from 1e-13 to 1e31 — since then one product or quotient of two exact doubles is correctly
/// rounded (Clinger's fast path). Outside that range v comes back unchanged; NaN, infinities and
/// zeros always do.
[[nodiscard]] inline double rounded(double v, int significant_digits) {
    if (!std::isfinite(v) || v == 0.0 || significant_digits > 15) return v;
    const int p = detail::clamp_digits(significant_digits);
    const detail::decimal d = detail::decimal_of(v, p);
    std::uint64_t n = 0;  // < 10^15 < 2^53: exact as a double
    for (char c : d.digits) n = n * 10 + static_cast<std::uint64_t>(c - '0');
    const int k = d.exponent - (p - 1);  // v ≈ n · 10^k
    if (k > 22 || k < -22) return v;
    // 10^|k| is exact for |k| ≤ 22 (5^22 < 2^53), and so is n: one correctly rounded operation.
    const double r = k >= 0 ? static_cast<double>(n) * llmcost::detail::pow10(k)
                            : static_cast<double>(n) / llmcost::detail::pow10(-k);
    return d.negative ? -r : r;
}

// ---- quantities ------------------------------------------------------------------------------

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

/// number + " " + unit: "2500 ms". Built by appending: g++ 12 at -O2 warns falsely (-Wrestrict,
/// GCC bug 105329) on `std::string + const char*` chains.
[[nodiscard]] inline std::string in_unit(double v, std::string_view unit, int digits) {
    std::string out = number(v, digits);
    out += ' ';
    out += unit;
    return out;
}

/// "$" + text, built by insertion, for the same GCC bug.
[[nodiscard]] inline std::string dollars_text(std::string text) {
    text.insert(0, 1, '$');
    return text;
}

/// v in the largest prefix that keeps the number ≥ 1, e.g. 4e10 B → "40 GB"; NaN and the
/// infinities in the bare unit ("inf B"), as no prefix fits them.
template <std::size_t N>
[[nodiscard]] std::string with_prefix(double v, const std::array<prefix, N>& table, std::string_view unit,
                                      int digits) {
    if (!std::isfinite(v)) return in_unit(v, unit, digits);
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

/// A size or bandwidth in decimal or binary prefixes, as the options ask.
[[nodiscard]] inline std::string bytes_with(double v, std::string_view unit, const options& o) {
    return o.bytes == byte_prefix::binary ? with_prefix(v, binary_prefixes, unit, o.digits)
                                          : with_prefix(v, decimal_prefixes, unit, o.digits);
}

// One overload per quantity type of units/system.hpp; `printable_quantity` is "one of these".
// Each is a template constrained to exactly its type: a body is checked, and its quantity type's
// members instantiated, only where something is printed, not in every includer of the core.
// Base units: the prefix that keeps the number at least 1.
template <std::same_as<bytes_t> Q>
[[nodiscard]] std::string text_of(const Q& b, const options& o) { return bytes_with(b.value(), "B", o); }
template <std::same_as<bytes_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& bw, const options& o) {
    return bytes_with(bw.value(), "B/s", o);
}
template <std::same_as<bytes_per_token_t> Q>
[[nodiscard]] std::string text_of(const Q& b, const options& o) {
    return bytes_with(b.value(), "B/token", o);
}
/// Days and hours from 3 of them up (a depreciation, a payback), else s, ms, µs, ns.
template <std::same_as<seconds_t> Q>
[[nodiscard]] std::string text_of(const Q& t, const options& o) {
    if (!std::isfinite(t.value())) return in_unit(t.value(), "s", o.digits);
    if (std::fabs(t.value()) >= 3.0 * 86400.0) return in_unit(t.value() / 86400.0, "d", o.digits);
    if (std::fabs(t.value()) >= 3.0 * 3600.0) return in_unit(t.value() / 3600.0, "h", o.digits);
    if (t.value() == 0.0) return "0 s";
    return with_prefix(t.value(), sub_second, "s", o.digits);
}
template <std::same_as<seconds_per_token_t> Q>
[[nodiscard]] std::string text_of(const Q& t, const options& o) {
    std::string out = text_of(seconds_t::from_value(t.value()), o);
    out += "/token";
    return out;
}
template <std::same_as<metres_t> Q>
[[nodiscard]] std::string text_of(const Q& d, const options& o) {
    if (std::fabs(d.value()) >= 1000.0 && std::isfinite(d.value())) return in_unit(d.value() / 1000.0, "km", o.digits);
    return in_unit(d.value(), "m", o.digits);
}
template <std::same_as<metres_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& v, const options& o) {
    return in_unit(v.value(), "m/s", o.digits);
}
template <std::same_as<watts_t> Q>
[[nodiscard]] std::string text_of(const Q& p, const options& o) {
    return with_prefix(p.value(), decimal_prefixes, "W", o.digits);
}
template <std::same_as<joules_t> Q>
[[nodiscard]] std::string text_of(const Q& e, const options& o) {
    return o.energy == energy_style::watt_hours ? with_prefix(e.value() / 3600.0, decimal_prefixes, "Wh", o.digits)
                                                : with_prefix(e.value(), decimal_prefixes, "J", o.digits);
}
template <std::same_as<joules_per_token_t> Q>
[[nodiscard]] std::string text_of(const Q& e, const options& o) {
    return o.energy == energy_style::watt_hours ? in_unit(e.value() / 3600.0, "Wh/token", o.digits)
                                                : in_unit(e.value(), "J/token", o.digits);
}
template <std::same_as<flops_t> Q>
[[nodiscard]] std::string text_of(const Q& f, const options& o) {
    return with_prefix(f.value(), decimal_prefixes, "FLOP", o.digits);
}
template <std::same_as<flops_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& f, const options& o) {
    return with_prefix(f.value(), decimal_prefixes, "FLOP/s", o.digits);
}
template <std::same_as<flops_per_token_t> Q>
[[nodiscard]] std::string text_of(const Q& f, const options& o) {
    return with_prefix(f.value(), decimal_prefixes, "FLOP/token", o.digits);
}
template <std::same_as<flops_per_byte_t> Q>
[[nodiscard]] std::string text_of(const Q& i, const options& o) {
    return in_unit(i.value(), "FLOP/B", o.digits);
}
/// Token counts keep at least 10 digits: a context of 131072 tokens is not "1.311e+05 tokens".
template <std::same_as<tokens_t> Q>
[[nodiscard]] std::string text_of(const Q& n, const options& o) {
    return in_unit(n.value(), "tokens", std::max(o.digits, 10));
}
template <std::same_as<tokens_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& r, const options& o) {
    return in_unit(r.value(), "tokens/s", o.digits);
}
template <std::same_as<per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& r, const options& o) {
    return in_unit(r.value(), "/s", o.digits);
}
template <std::same_as<dollars_t> Q>
[[nodiscard]] std::string text_of(const Q& d, const options& o) {
    return dollars_text(number(d.value(), o.digits));
}
/// GPU time is rented by the hour.
template <std::same_as<dollars_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& d, const options& o) {
    std::string out = number(d.value() * 3600.0, o.digits);
    out += "/h";
    return dollars_text(std::move(out));
}
/// Token prices are quoted per million tokens.
template <std::same_as<dollars_per_token_t> Q>
[[nodiscard]] std::string text_of(const Q& d, const options& o) {
    std::string out = number(d.value() * 1e6, o.digits);
    out += "/Mtoken";
    return dollars_text(std::move(out));
}
/// Electricity is sold per kWh.
template <std::same_as<dollars_per_joule_t> Q>
[[nodiscard]] std::string text_of(const Q& d, const options& o) {
    std::string out = number(d.value() * 3.6e6, o.digits);
    out += "/kWh";
    return dollars_text(std::move(out));
}
// Bits: counted and sold in bits, with decimal prefixes ("400 Gb/s", as links are sold).
template <std::same_as<bits_t> Q>
[[nodiscard]] std::string text_of(const Q& b, const options& o) {
    return with_prefix(b.value(), decimal_prefixes, "bit", o.digits);
}
template <std::same_as<bits_per_second_t> Q>
[[nodiscard]] std::string text_of(const Q& r, const options& o) {
    return with_prefix(r.value(), decimal_prefixes, "b/s", o.digits);
}
// Prefixed types: the value in the unit its owner chose.
template <std::same_as<kilobytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "kB", o.digits); }
template <std::same_as<megabytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "MB", o.digits); }
template <std::same_as<gigabytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "GB", o.digits); }
template <std::same_as<terabytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "TB", o.digits); }
template <std::same_as<petabytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "PB", o.digits); }
template <std::same_as<kibibytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "KiB", o.digits); }
template <std::same_as<mebibytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "MiB", o.digits); }
template <std::same_as<gibibytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "GiB", o.digits); }
template <std::same_as<tebibytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "TiB", o.digits); }
template <std::same_as<pebibytes_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "PiB", o.digits); }
template <std::same_as<milliseconds_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "ms", o.digits); }
template <std::same_as<microseconds_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "µs", o.digits); }
template <std::same_as<kilowatts_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "kW", o.digits); }
template <std::same_as<megawatts_t> Q>
[[nodiscard]] std::string text_of(const Q& q, const options& o) { return in_unit(q.value(), "MW", o.digits); }

}  // namespace detail

}  // namespace llmcost::text

namespace llmcost {

/// A quantity type `to_text` can print: one of the named types of `units/system.hpp` (bytes_t,
/// seconds_t, …, gigabytes_t, milliseconds_t, …). A quantity of another unit — J/B, s² — has no
/// text form; divide or multiply it into one of them first.
template <class Q>
concept printable_quantity =
    any_quantity<Q> && requires(const std::remove_cvref_t<Q>& q, const text::options& o) {
        { text::detail::text_of(q, o) } -> std::same_as<std::string>;
    };

/// q as a reader expects it: "40 GB", "2 ms", "989.4 TFLOP/s", "$2/h", "320 KiB" with
/// `{.bytes = text::byte_prefix::binary}`, "0.0255 Wh" with `{.energy = text::energy_style::watt_hours}`.
template <printable_quantity Q>
[[nodiscard]] std::string to_text(const Q& q, const text::options& o = {}) {
    return text::detail::text_of(q, o);
}

/// Streams `to_text(q)` with the default options (4 significant digits; the stream's precision
/// is not consulted, its width is).
template <printable_quantity Q>
std::ostream& operator<<(std::ostream& os, const Q& q) {
    return os << to_text(q);
}

}  // namespace llmcost
