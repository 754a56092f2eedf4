#pragma once
/// \file
/// One formula for one step and for a lane of steps. The cost formulas that a sweep evaluates
/// many times over (a step's work and time, the mixture of steps, the pools of a disaggregated
/// deployment) are written once, as templates over a value type V: `double` for one figure, or a
/// fixed-size Eigen array for a lane of figures (`plan/sweep.hpp` specialises `lanes` for it).
/// Written once, they cannot drift apart, and since IEEE-754 +, −, ×, ÷ are correctly rounded in a
/// vector lane as in a scalar register, a lane's figure is the scalar figure to the last bit.
///
/// What differs between the two is only here: choosing by a condition, asking whether any lane
/// meets one (or how many), ⌊x⌋, a constant, reading and writing one lane, and applying a
/// scalar function lane by lane (the GEMM size curve and expert coverage are scalar functions, so
/// both paths call the very same code).
///
/// Rules for code generic over V: name every intermediate with its type (`const V x = …;`, never
/// `auto`, which would keep an Eigen expression that refers to temporaries), and convert integers
/// to double before they meet a V (Eigen does not mix scalar types).

#include <llmcost/detail/math.hpp>

#include <utility>

namespace llmcost::detail {

/// The operations of a scalar value type (double, or a typed quantity for `choose`).
template <class V>
struct lanes {
    /// c ? a : b
    template <class C>
    [[nodiscard]] static constexpr V choose(const C& c, const V& a, const V& b) {
        return c ? a : b;
    }
    /// Whether any lane meets the condition (one lane: the condition).
    template <class C>
    [[nodiscard]] static constexpr bool any(const C& c) {
        return static_cast<bool>(c);
    }
    /// ⌊x⌋ for x ≥ 0 (as `const_trunc`).
    [[nodiscard]] static constexpr V floor(const V& x) { return const_trunc(x); }
    /// The same value in every lane.
    [[nodiscard]] static constexpr V constant(double x) { return V(x); }
    /// f applied to each lane.
    template <class F>
    [[nodiscard]] static constexpr V map(const V& x, F&& f) {
        return std::forward<F>(f)(x);
    }
    /// The number of lanes, a condition per lane, and lane i's condition, value and new value
    /// (one lane: the value).
    static constexpr int width = 1;
    using mask = bool;
    template <class C>
    [[nodiscard]] static constexpr bool test(const C& c, int) {
        return static_cast<bool>(c);
    }
    [[nodiscard]] static constexpr V get(const V& x, int) { return x; }
    static constexpr void set(V& x, int, const V& v) { x = v; }
    /// How many lanes meet the condition.
    template <class C>
    [[nodiscard]] static constexpr int count(const C& c) {
        return static_cast<bool>(c) ? 1 : 0;
    }
};

/// max(a, b) as `a > b ? a : b` in every lane (the comparison the scalar formulas use; it decides
/// ties and signed zeros the same way in both paths).
template <class V>
[[nodiscard]] constexpr V lane_max(const V& a, const V& b) {
    return lanes<V>::choose(a > b, a, b);
}

}  // namespace llmcost::detail
