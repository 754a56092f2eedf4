#pragma once
/// \file
/// The one reader of numbers typed on the `llmcost` command line. Decimal only: digits, one point,
/// an exponent (`2000`, `0.05`, `1e-3`); no sign other than a leading '-', no blanks, no hex
/// (`0x10`), no octal reading of a leading zero (`010` is ten), no hex-float. `inf` and `nan` are
/// read (so that the range checks can name them) and refused by every range. Each reader returns
/// why the text is refused (empty when it is accepted); the caller puts the flag's name in front.
///
/// **Example**
/// \code
/// double v = 0;
/// read_count("32", 1, 1e15, v);   // "", v = 32
/// read_count("1.5", 1, 1e15, v);  // "must be a whole number, got 1.5"
/// \endcode

#include <llmcost/descriptors/workload.hpp>
#include <llmcost/units/text.hpp>

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <system_error>

namespace llmcost::cli {

/// Reads `text` as a decimal number into `v`; returns why not, or an empty string.
[[nodiscard]] inline std::string read_decimal(std::string_view text, double& v) {
    const auto quoted = [&] { return "expected a decimal number, got '" + std::string(text) + "'"; };
    if (text.empty()) return quoted();
    // from_chars (general format) reads no blank, no '+', no "0x": exactly the decimal spellings,
    // plus inf and nan, which the ranges refuse by name.
    const char* first = text.data();
    const char* last = first + text.size();
    const std::from_chars_result r = std::from_chars(first, last, v, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range) return "out of range, got '" + std::string(text) + "'";
    if (r.ec != std::errc() || r.ptr != last) return quoted();
    return {};
}

/// The shortest decimal text that reads back as `v` (what CLI11 converts after a check passes).
[[nodiscard]] inline std::string canonical(double v) {
    char buf[32];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    return {buf, r.ptr};
}

/// A count (tokens, sequences, GPUs): a whole number from `lo` to `hi`.
[[nodiscard]] inline std::string read_count(std::string_view text, double lo, double hi, double& v) {
    if (std::string why = read_decimal(text, v); !why.empty()) return why;
    if (!std::isfinite(v) || v <= 0) return "must be positive and finite, got " + std::string(text);
    if (v != std::floor(v)) return "must be a whole number, got " + std::string(text);
    if (v < lo || v > hi)
        return "must be a whole number from " + text::grouped(lo) + " to " + text::number(hi, 3) + ", got " +
               std::string(text);
    return {};
}

/// A real number in [lo, hi] (`open_low`: in (lo, hi]).
[[nodiscard]] inline std::string read_real(std::string_view text, double lo, double hi, bool open_low, double& v) {
    if (std::string why = read_decimal(text, v); !why.empty()) return why;
    if (!std::isfinite(v)) return "must be finite, got " + std::string(text);
    if (open_low ? !(v > lo) : !(v >= lo)) return std::string("must be ") + (open_low ? "above " : "at least ") +
                                                  text::number(lo, 6) + ", got " + std::string(text);
    if (v > hi) return "must be at most " + text::number(hi, 6) + ", got " + std::string(text);
    return {};
}

/// The most requests per second `--rate` takes, on every command that has one (estimate, plan, simulate): the
/// library's one bound, which Python's `rate=` takes too (`workload::max_requests_per_second`).
inline constexpr double max_rate_per_s = workload::max_requests_per_second;

/// A `--rate` in requests/s: positive and finite, from 10^-9 to `max_rate_per_s`.
[[nodiscard]] inline std::string read_rate(std::string_view text, double& v) {
    if (std::string why = read_decimal(text, v); !why.empty()) return why;
    if (!std::isfinite(v) || v <= 0) return "must be positive and finite, got " + std::string(text);
    return read_real(text, 1e-9, max_rate_per_s, false, v);
}

}  // namespace llmcost::cli
