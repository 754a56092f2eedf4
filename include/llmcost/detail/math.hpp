#pragma once
/// \file
/// Constant-evaluable elementary functions. <cmath> is not constexpr in C++20 (and clang 14 does
/// not fold it), so the few functions the cost model needs are written here. Accuracy ~1e-15
/// relative over the ranges the model uses.

#include <llmcost/detail/cbrt_table.hpp>

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

/// A divisor d kept with its reciprocal where that is exact: d = 2^k (a normal double whose reciprocal is normal
/// too), so x · 2^−k and x ÷ 2^k are the same real number rounded once, the same bits for every x (IEEE 754:
/// every operation rounds its exact result once). `x / divisor` then multiplies (a division costs several times
/// a multiplication); any other d divides. For divisors a formula applies again and again (a pass's tp).
struct divisor {
    double value = 1.0;
    double exact_inverse = 1.0;  ///< 1 ÷ d where exact, else 0

    constexpr divisor() = default;
    constexpr explicit divisor(double d) : value(d), exact_inverse(0.0) {
        const auto bits = std::bit_cast<unsigned long long>(d);
        const auto exponent = (bits >> 52) & 0x7ffull;
        // positive, no mantissa bits, 2^−1022 ≤ d ≤ 2^1022
        if (d > 0.0 && (bits & 0xfffffffffffffull) == 0 && exponent > 0 && exponent < 2046) exact_inverse = 1.0 / d;
    }
};
/// x ÷ d (`divisor`): × 1 ÷ d where that is exact, else ÷ d; the same bits either way. One value; a lane (or
/// its expression) divides lane by lane, as it did.
[[nodiscard]] constexpr double operator/(double x, const divisor& d) {
    if (d.exact_inverse > 0.0) return x * d.exact_inverse;
    return x / d.value;
}
template <class X>
    requires(!std::is_arithmetic_v<X>)
[[nodiscard]] constexpr auto operator/(const X& x, const divisor& d) {
    return x / d.value;
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

// `cbrt_of_eighths`: ∛ of the multiples of 8 up to 8,192 — the padded row counts of most GEMMs
// (decode batches, prefill chunks) — the very bits `const_cbrt` returns (detail/cbrt_table.hpp).
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

/// eˣ: x = k·ln 2 + r with |r| ≤ ln 2 ÷ 2, then a Taylor series for eʳ and an exact scaling by
/// 2ᵏ (Muller, *Elementary Functions*, 2016, ch. 11: additive range reduction). Below −745 the
/// result underflows to 0, above 709.78 it is +∞.
[[nodiscard]] constexpr double const_exp(double x) {
    if (x != x) return x;
    if (x < -745.2) return 0.0;
    if (x > 709.78) return infinity;
    constexpr double ln2 = 0.69314718055994530942;
    const double kf = x / ln2;
    const long long k = static_cast<long long>(kf < 0 ? kf - 0.5 : kf + 0.5);
    const double r = x - static_cast<double>(k) * ln2;
    double term = 1.0, sum = 1.0;
    for (int n = 1; n < 24; ++n) {
        term *= r / n;
        sum += term;
    }
    // 2ᵏ in two halves, so that neither leaves the range of a double before the product does.
    const long long half = k / 2;
    return sum * pow_int(half >= 0 ? 2.0 : 0.5, half >= 0 ? half : -half) *
           pow_int(k - half >= 0 ? 2.0 : 0.5, k - half >= 0 ? k - half : half - k);
}

/// ln x (x > 0): x = m·2ᵉ with m in [1/√2, √2), then ln m = 2·atanh((m − 1) ÷ (m + 1)) by its
/// series (Muller 2016, ch. 11). ln 0 = −∞; a negative x or NaN gives NaN.
[[nodiscard]] constexpr double const_log(double x) {
    if (x != x || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0) return -infinity;
    if (x == infinity) return infinity;
    constexpr double ln2 = 0.69314718055994530942, sqrt2 = 1.41421356237309504880;
    long long e = 0;
    while (x >= sqrt2) { x /= 2.0; ++e; }
    while (x < sqrt2 / 2.0) { x *= 2.0; --e; }
    const double u = (x - 1.0) / (x + 1.0), u2 = u * u;
    double term = u, sum = u;
    for (int n = 1; n < 40; ++n) {
        term *= u2;
        sum += term / (2.0 * n + 1.0);
    }
    return 2.0 * sum + static_cast<double>(e) * ln2;
}

/// Φ⁻¹(q), the standard normal quantile, q in (0, 1): Acklam's rational approximations (central
/// region and tails, relative error below 1.2·10⁻⁹; P. J. Acklam, "An algorithm for computing the
/// inverse normal cumulative distribution function", 2003).
[[nodiscard]] constexpr double normal_quantile(double q) {
    constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                            1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                            6.680131188771972e+01,  -1.328068155288572e+01};
    constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                            -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                            3.754408661907416e+00};
    constexpr double low = 0.02425;
    auto tail = [&](double p) {
        const double t = const_sqrt(-2.0 * const_log(p));
        return (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
               ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
    };
    if (q < low) return tail(q);
    if (q > 1.0 - low) return -tail(1.0 - q);
    const double u = q - 0.5, r = u * u;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * u /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

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
