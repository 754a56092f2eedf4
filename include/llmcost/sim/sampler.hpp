#pragma once
/// \file
/// Draws of a workload (descriptors/workload.hpp) for the simulator: a seeded std::mt19937_64 and
/// this header's own transforms of its raw output (whose sequence the standard fixes), never the
/// std::*_distribution classes (whose output it leaves to the library), so a seed gives the same
/// requests everywhere. Its own header: <random> is heavy, and only the simulator and the tools that
/// draw requests need it, not every translation unit that describes a workload.

#include <llmcost/descriptors/workload.hpp>
#include <llmcost/detail/math.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

namespace llmcost::workload {

/// Draws of a workload: a seeded std::mt19937_64, with this header's own transforms.
class sampler {
public:
    explicit sampler(std::uint64_t seed) : g_(seed) {}

    /// Uniform in (0, 1): the top 53 bits of one draw, never 0.
    [[nodiscard]] double unit() { return (static_cast<double>(g_() >> 11) + 0.5) * 0x1.0p-53; }
    /// Standard normal (Box–Muller, cosine branch: one normal per two uniforms).
    [[nodiscard]] double normal() {
        const double u = unit();
        const double v = unit();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * detail::pi * v);
    }
    /// Exponential of mean 1.
    [[nodiscard]] double exponential() { return -std::log(unit()); }
    /// Gamma of shape k and mean k (Marsaglia and Tsang, ACM TOMS 26(3), 2000; for k < 1 the
    /// boost X·U^{1/k} with X ~ Gamma(k + 1)).
    [[nodiscard]] double gamma(double k) {
        if (k < 1.0) {
            const double x = gamma(k + 1.0);
            return x * std::pow(unit(), 1.0 / k);
        }
        const double d = k - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x = 0.0, v = 0.0;
            do {
                x = normal();
                v = 1.0 + c * x;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = unit();
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
        }
    }
    /// One length of the distribution, whole tokens, at least one.
    [[nodiscard]] double length(const length_distribution& l) {
        switch (l.law) {
            case length_law::fixed: return l.value.value();
            case length_law::uniform: return whole_between(l.value.value(), l.high.value());
            case length_law::lognormal: {
                // σ² = ln(1 + s²/m²), μ = ln m − σ²/2: the lognormal of mean m and deviation s.
                const double m = l.value.value(), s = l.spread.value();
                const double s2 = std::log1p(s * s / (m * m));
                const double mu = std::log(m) - s2 / 2.0, sigma = std::sqrt(s2);
                for (;;) {
                    const double x = std::max(1.0, std::round(std::exp(mu + sigma * normal())));
                    if (l.max.value() == 0.0 || x <= l.max.value()) return x;
                }
            }
            case length_law::histogram: break;
        }
        double total = 0.0;
        for (const length_bin& b : l.bins) total += b.weight;
        double pick = unit() * total;
        for (const length_bin& b : l.bins) {
            if (pick < b.weight) return whole_between(b.lo, b.hi);
            pick -= b.weight;
        }
        const length_bin& last = l.bins.back();
        return whole_between(last.lo, last.hi);
    }
    /// The gap to the next arrival (poisson, gamma), seconds.
    [[nodiscard]] double gap(const arrival_process& a) {
        if (a.law == arrival_law::gamma) {
            const double k = 1.0 / (a.cv * a.cv);
            return gamma(k) / k * a.mean_gap.value();
        }
        return exponential() * a.mean_gap.value();
    }

private:
    double whole_between(double lo, double hi) {
        const double a = std::ceil(lo), b = std::floor(hi);
        if (b <= a) return std::max(1.0, a);
        return std::min(b, a + std::floor(unit() * (b - a + 1.0)));
    }
    std::mt19937_64 g_;
};

}  // namespace llmcost::workload
