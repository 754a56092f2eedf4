#pragma once
/// \file
/// Named concepts for the quantities of the cost model. A formula that wants a size asks for a
/// `data_size`, so passing FLOPs or seconds fails with the concept's name in the first lines of
/// the compiler's error rather than forty lines of template types.

#include <llmcost/units/system.hpp>

#include <type_traits>

namespace llmcost {

namespace detail {
template <class Q>
struct quantity_traits : std::false_type {};
template <class U>
struct quantity_traits<boost::units::quantity<U, double>> : std::true_type {
    using dimension = typename U::dimension_type;
};
}  // namespace detail

/// Any llmcost quantity: a Boost.Units quantity with a `double` value, in any unit.
template <class Q>
concept any_quantity = detail::quantity_traits<std::remove_cvref_t<Q>>::value;

/// A quantity whose dimension is that of the base quantity type `Base` (any prefix or scale).
template <class Q, class Base>
concept quantity_like =
    any_quantity<Q> && any_quantity<Base> &&
    std::is_same_v<typename detail::quantity_traits<std::remove_cvref_t<Q>>::dimension,
                   typename detail::quantity_traits<Base>::dimension>;

// clang-format off
template <class Q> concept data_size            = quantity_like<Q, bytes_t>;               ///< B, GB, GiB, bits
template <class Q> concept duration             = quantity_like<Q, seconds_t>;             ///< s, ms, µs
template <class Q> concept distance             = quantity_like<Q, metres_t>;              ///< m, km
template <class Q> concept power                = quantity_like<Q, watts_t>;               ///< W, kW, MW
template <class Q> concept energy               = quantity_like<Q, joules_t>;              ///< J, Wh, kWh
template <class Q> concept compute              = quantity_like<Q, flops_t>;               ///< FLOP
template <class Q> concept token_count          = quantity_like<Q, tokens_t>;              ///< tokens
template <class Q> concept money                = quantity_like<Q, dollars_t>;             ///< $
template <class Q> concept bandwidth            = quantity_like<Q, bytes_per_second_t>;    ///< B/s, Gb/s
template <class Q> concept compute_rate         = quantity_like<Q, flops_per_second_t>;    ///< FLOP/s
template <class Q> concept token_rate           = quantity_like<Q, tokens_per_second_t>;   ///< tokens/s
template <class Q> concept arithmetic_intensity = quantity_like<Q, flops_per_byte_t>;      ///< FLOP/B
template <class Q> concept energy_per_token     = quantity_like<Q, joules_per_token_t>;    ///< J/token
template <class Q> concept money_rate           = quantity_like<Q, dollars_per_second_t>;  ///< $/h
// clang-format on

/// The base-unit type of a quantity: `canonical_t<gigabytes_t>` is `bytes_t`.
template <any_quantity Q>
using canonical_t = units::quantity<
    boost::units::unit<typename detail::quantity_traits<std::remove_cvref_t<Q>>::dimension,
                       units::system>>;

/// Explicit conversion to the base unit of the llmcost system (GB → B, ms → s, Gb/s → B/s).
template <any_quantity Q>
[[nodiscard]] constexpr canonical_t<Q> in_base_units(const Q& q) {
    return canonical_t<Q>{q};
}

}  // namespace llmcost
