#pragma once
/// \file
/// A value a caller may set or leave to a rule, without std::optional's disengaged storage (GCC 12's
/// optimiser reads that storage as "may be used uninitialized" when a struct holding an optional
/// quantity is moved: a false positive, but warnings are errors here).

namespace llmcost::detail {

/// T set by the caller, or left unset (then a rule supplies it: `value_or`). Converts implicitly from a
/// T, so a designated initialiser sets it: `memory_reserve{.fraction = 0.05}`.
template <class T>
struct settable {
    T stored{};
    bool set = false;

    constexpr settable() = default;
    constexpr settable(T x) : stored(x), set(true) {}  // NOLINT(google-explicit-constructor): set by assignment

    [[nodiscard]] constexpr bool has_value() const { return set; }
    constexpr explicit operator bool() const { return set; }
    [[nodiscard]] constexpr const T& operator*() const { return stored; }
    [[nodiscard]] constexpr const T* operator->() const { return &stored; }
    /// The value set, else `fallback`.
    [[nodiscard]] constexpr T value_or(const T& fallback) const { return set ? stored : fallback; }
    [[nodiscard]] constexpr bool operator==(const settable&) const = default;
};

}  // namespace llmcost::detail
