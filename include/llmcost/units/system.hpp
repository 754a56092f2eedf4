#pragma once
/// \file
/// The unit system of llmcost: bytes, seconds, metres, kilograms (so that watts and joules come
/// out of SI), floating-point operations, tokens and US dollars — one Boost.Units system.
///
/// Every quantity in the library is a `boost::units::quantity<unit, double>` of this system.
/// Values are stored in the base unit (bytes, seconds, FLOPs, …); prefixes (GB, TB/s, ms) exist
/// only at the edges — in the makers of `units/makers.hpp` and in the formatter.

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/base_units/information/byte.hpp>
#include <boost/units/base_units/si/kilogram.hpp>
#include <boost/units/base_units/si/meter.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/make_scaled_unit.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/frequency.hpp>
#include <boost/units/physical_dimensions/information.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/unit.hpp>

namespace llmcost::units {

namespace bu = boost::units;

// Our own base dimensions. Boost's built-in ones use negative ordinals, so positive ordinals
// never collide with them (two base dimensions with one ordinal do not compile).
struct flop_base_dimension : bu::base_dimension<flop_base_dimension, 1> {};
struct token_base_dimension : bu::base_dimension<token_base_dimension, 2> {};
struct currency_base_dimension : bu::base_dimension<currency_base_dimension, 3> {};

using information_dimension = bu::information_dimension;
using time_dimension = bu::time_dimension;
using length_dimension = bu::length_dimension;
using power_dimension = bu::power_dimension;
using energy_dimension = bu::energy_dimension;
using flop_dimension = flop_base_dimension::dimension_type;
using token_dimension = token_base_dimension::dimension_type;
using currency_dimension = currency_base_dimension::dimension_type;

/// One floating-point operation (a multiply-add counts as two).
struct flop_base_unit : bu::base_unit<flop_base_unit, flop_dimension, 1> {
    static constexpr const char* name() { return "floating-point operation"; }
    static constexpr const char* symbol() { return "FLOP"; }
};
/// One token of model input or output.
struct token_base_unit : bu::base_unit<token_base_unit, token_dimension, 2> {
    static constexpr const char* name() { return "token"; }
    static constexpr const char* symbol() { return "tok"; }
};
/// One US dollar.
struct dollar_base_unit : bu::base_unit<dollar_base_unit, currency_dimension, 3> {
    static constexpr const char* name() { return "US dollar"; }
    static constexpr const char* symbol() { return "$"; }
};

/// The llmcost system: byte, metre, kilogram, second, FLOP, token, dollar.
using system = bu::make_system<bu::information::byte_base_unit, bu::si::meter_base_unit,
                               bu::si::kilogram_base_unit, bu::si::second_base_unit,
                               flop_base_unit, token_base_unit, dollar_base_unit>::type;

// Base and derived units of the system.
using byte_unit = bu::unit<information_dimension, system>;
using second_unit = bu::unit<time_dimension, system>;
using metre_unit = bu::unit<length_dimension, system>;
using watt_unit = bu::unit<power_dimension, system>;
using joule_unit = bu::unit<energy_dimension, system>;
using flop_unit = bu::unit<flop_dimension, system>;
using token_unit = bu::unit<token_dimension, system>;
using dollar_unit = bu::unit<currency_dimension, system>;

using byte_per_second_unit = decltype(byte_unit{} / second_unit{});
using flop_per_second_unit = decltype(flop_unit{} / second_unit{});
using token_per_second_unit = decltype(token_unit{} / second_unit{});
using flop_per_byte_unit = decltype(flop_unit{} / byte_unit{});
using byte_per_token_unit = decltype(byte_unit{} / token_unit{});
using flop_per_token_unit = decltype(flop_unit{} / token_unit{});
using second_per_token_unit = decltype(second_unit{} / token_unit{});
using joule_per_token_unit = decltype(joule_unit{} / token_unit{});
using dollar_per_second_unit = decltype(dollar_unit{} / second_unit{});
using dollar_per_token_unit = decltype(dollar_unit{} / token_unit{});
using dollar_per_joule_unit = decltype(dollar_unit{} / joule_unit{});
using metre_per_second_unit = decltype(metre_unit{} / second_unit{});
using per_second_unit = bu::unit<bu::frequency_dimension, system>;  ///< 1/s: a count (of requests, arrivals) per second

/// A quantity of the llmcost system in unit `U`, stored as a double in that unit.
template <class U>
using quantity = bu::quantity<U, double>;

/// A unit `U` scaled by `Base^Exp` — e.g. `scaled_unit<byte_unit, 10, 9>` is the gigabyte.
/// Quantities in scaled units convert to base units only explicitly.
template <class U, long Base, long Exp>
using scaled_unit = typename bu::make_scaled_unit<U, bu::scale<Base, bu::static_rational<Exp>>>::type;

}  // namespace llmcost::units

namespace llmcost {

// The quantity vocabulary. One name per physical idea, used everywhere in the library.
using bytes_t = units::quantity<units::byte_unit>;                        ///< information, B
using seconds_t = units::quantity<units::second_unit>;                    ///< time, s
using metres_t = units::quantity<units::metre_unit>;                      ///< length, m
using watts_t = units::quantity<units::watt_unit>;                        ///< power, W
using joules_t = units::quantity<units::joule_unit>;                      ///< energy, J
using flops_t = units::quantity<units::flop_unit>;                        ///< operations, FLOP
using tokens_t = units::quantity<units::token_unit>;                      ///< tokens
using dollars_t = units::quantity<units::dollar_unit>;                    ///< money, $
using bytes_per_second_t = units::quantity<units::byte_per_second_unit>;  ///< bandwidth, B/s
using flops_per_second_t = units::quantity<units::flop_per_second_unit>;  ///< compute rate, FLOP/s
using tokens_per_second_t = units::quantity<units::token_per_second_unit>;    ///< token rate
using flops_per_byte_t = units::quantity<units::flop_per_byte_unit>;      ///< arithmetic intensity
using bytes_per_token_t = units::quantity<units::byte_per_token_unit>;    ///< e.g. KV cache
using flops_per_token_t = units::quantity<units::flop_per_token_unit>;    ///< work per token
using seconds_per_token_t = units::quantity<units::second_per_token_unit>;    ///< e.g. TPOT
using joules_per_token_t = units::quantity<units::joule_per_token_unit>;  ///< energy per token
using dollars_per_second_t = units::quantity<units::dollar_per_second_unit>;  ///< e.g. $/GPU-hour
using dollars_per_token_t = units::quantity<units::dollar_per_token_unit>;    ///< token price
using dollars_per_joule_t = units::quantity<units::dollar_per_joule_unit>;    ///< electricity price
using metres_per_second_t = units::quantity<units::metre_per_second_unit>;    ///< speed
using per_second_t = units::quantity<units::per_second_unit>;                 ///< an event rate: requests or arrivals per second, 1/s

/// Bits: the same dimension as bytes, one eighth of the unit. Converting to bytes is explicit:
/// `bytes_t{bits_t{8.0}}` is one byte.
using bits_t = units::quantity<units::scaled_unit<units::byte_unit, 2, -3>>;
/// Bits per second, as NICs and serdes lanes are sold.
using bits_per_second_t = units::quantity<decltype(units::scaled_unit<units::byte_unit, 2, -3>{} /
                                                   units::second_unit{})>;

// Prefixed types, for users who want to keep a value in a display unit. They never convert to
// the base types implicitly: `bytes_t b = gigabytes_t{40.0};` does not compile.
using kilobytes_t = units::quantity<units::scaled_unit<units::byte_unit, 10, 3>>;
using megabytes_t = units::quantity<units::scaled_unit<units::byte_unit, 10, 6>>;
using gigabytes_t = units::quantity<units::scaled_unit<units::byte_unit, 10, 9>>;
using terabytes_t = units::quantity<units::scaled_unit<units::byte_unit, 10, 12>>;
using petabytes_t = units::quantity<units::scaled_unit<units::byte_unit, 10, 15>>;
using kibibytes_t = units::quantity<units::scaled_unit<units::byte_unit, 2, 10>>;
using mebibytes_t = units::quantity<units::scaled_unit<units::byte_unit, 2, 20>>;
using gibibytes_t = units::quantity<units::scaled_unit<units::byte_unit, 2, 30>>;
using tebibytes_t = units::quantity<units::scaled_unit<units::byte_unit, 2, 40>>;
using pebibytes_t = units::quantity<units::scaled_unit<units::byte_unit, 2, 50>>;
using milliseconds_t = units::quantity<units::scaled_unit<units::second_unit, 10, -3>>;
using microseconds_t = units::quantity<units::scaled_unit<units::second_unit, 10, -6>>;
using kilowatts_t = units::quantity<units::scaled_unit<units::watt_unit, 10, 3>>;
using megawatts_t = units::quantity<units::scaled_unit<units::watt_unit, 10, 6>>;
/// $ per million tokens, the unit of price lists: a display type that converts to and from
/// `dollars_per_token_t` only explicitly: `dollars_per_million_tokens_t{c}.value()`.
using dollars_per_million_tokens_t = units::quantity<units::scaled_unit<units::dollar_per_token_unit, 10, -6>>;

}  // namespace llmcost
