#pragma once
/// \file
/// The validation report's one statistic (tests/unit/unit-validation-summary.cpp): the quantiles of a
/// set of errors and `summarise`, which every summary of tables/validation.md goes through. A row
/// llmcost cannot serve is an entry of +∞ in the same vector as the priced rows' errors (validation.cpp's
/// `error_or_miss`): one representation of a refused row, no count beside the vector.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace llmcost::validation {

/// The q-quantile of `v` by linear interpolation between order statistics at rank q·(n − 1)
/// (the median is q = 0.5: the middle value, or the mean of the two middle ones); an ∞ order
/// statistic is not interpolated towards: a quantile whose upper neighbour is ∞ is ∞.
[[nodiscard]] inline double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const double rank = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    const double frac = rank - static_cast<double>(lo);
    if (frac == 0.0 || v[hi] == v[lo]) return v[lo];  // also where both are ∞ (a refused row's |error|)
    return std::isinf(v[hi]) ? v[hi] : v[lo] + (v[hi] - v[lo]) * frac;
}

struct summary {
    std::size_t n = 0;        ///< rows, the refused ones included
    std::size_t refused = 0;  ///< of which llmcost cannot serve the measured rate (no figure): the ∞ entries
    double median = 0, p90 = 0, max = 0;
    std::size_t within_10 = 0, within_25 = 0;
    double mean_signed = 0;  ///< the priced rows' mean error; 0 where every row is refused
};

/// The summary of a set of rows' errors (llmcost ÷ measured − 1), where a row llmcost cannot serve
/// although the engine did is an error of +∞: a miss, ranked beyond every priced row in the quantiles
/// (|error| = ∞) and counted outside ±10% and ±25%, so that refusing a row can never improve a median;
/// the mean signed error is the priced rows' (a refused row has no sign to add), summed in the
/// vector's order. `refused` counts the ∞ entries.
[[nodiscard]] inline summary summarise(const std::vector<double>& errors) {
    summary s;
    s.n = errors.size();
    if (s.n == 0) return s;
    std::vector<double> a;
    a.reserve(errors.size());
    double sum = 0;
    for (double e : errors) {
        a.push_back(std::abs(e));
        if (std::isinf(e)) {
            ++s.refused;
            continue;
        }
        sum += e;
        s.within_10 += std::abs(e) <= 0.10 ? 1 : 0;
        s.within_25 += std::abs(e) <= 0.25 ? 1 : 0;
    }
    s.median = quantile(a, 0.5);
    s.p90 = quantile(a, 0.9);
    s.max = *std::max_element(a.begin(), a.end());
    const std::size_t priced = s.n - s.refused;
    s.mean_signed = priced == 0 ? 0.0 : sum / static_cast<double>(priced);
    return s;
}

/// A refused row's entry in an error vector: +∞ (a miss; `summarise`).
inline constexpr double refused_error = std::numeric_limits<double>::infinity();

}  // namespace llmcost::validation
