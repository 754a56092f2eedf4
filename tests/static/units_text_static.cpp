// Compile-time checks of the text layer. Compiling this file is the test.
// Text itself cannot be checked here: std::to_chars is not constexpr in C++20, and clang 14 cannot
// evaluate libstdc++ 12's std::string in a constant expression. What can be checked is that every
// quantity type of units/system.hpp has a text form, through `to_text` and through `operator<<`,
// and that nothing else pretends to (unit-units-text.cpp checks each type's text at run time).
#include <llmcost/llmcost.hpp>

#include <ostream>
#include <string>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

template <class Q>
constexpr bool prints = printable_quantity<Q> && requires(const Q& q, std::ostream& os) {
    { to_text(q) } -> std::same_as<std::string>;
    { to_text(q, {.digits = 3, .bytes = text::byte_prefix::binary}) } -> std::same_as<std::string>;
    { os << q } -> std::same_as<std::ostream&>;
};

// ---- every quantity type of units/system.hpp, in its order ----------------------------------
// Base units: the printer picks the prefix.
static_assert(prints<bytes_t>);
static_assert(prints<seconds_t>);
static_assert(prints<metres_t>);
static_assert(prints<watts_t>);
static_assert(prints<joules_t>);
static_assert(prints<flops_t>);
static_assert(prints<tokens_t>);
static_assert(prints<dollars_t>);
static_assert(prints<bytes_per_second_t>);
static_assert(prints<flops_per_second_t>);
static_assert(prints<tokens_per_second_t>);
static_assert(prints<flops_per_byte_t>);
static_assert(prints<bytes_per_token_t>);
static_assert(prints<flops_per_token_t>);
static_assert(prints<seconds_per_token_t>);
static_assert(prints<joules_per_token_t>);
static_assert(prints<dollars_per_second_t>);
static_assert(prints<dollars_per_token_t>);
static_assert(prints<dollars_per_joule_t>);
static_assert(prints<metres_per_second_t>);
static_assert(prints<per_second_t>);
// Bits, as links are sold.
static_assert(prints<bits_t>);
static_assert(prints<bits_per_second_t>);
// Prefixed types: printed in their own unit.
static_assert(prints<kilobytes_t>);
static_assert(prints<megabytes_t>);
static_assert(prints<gigabytes_t>);
static_assert(prints<terabytes_t>);
static_assert(prints<petabytes_t>);
static_assert(prints<kibibytes_t>);
static_assert(prints<mebibytes_t>);
static_assert(prints<gibibytes_t>);
static_assert(prints<tebibytes_t>);
static_assert(prints<pebibytes_t>);
static_assert(prints<milliseconds_t>);
static_assert(prints<microseconds_t>);
static_assert(prints<kilowatts_t>);
static_assert(prints<megawatts_t>);
// What the makers and literals return is one of the above (makers.hpp has no types of its own).
static_assert(prints<decltype(40_GB)> && prints<decltype(2_ms)> && prints<decltype(20_TBps)>);
static_assert(prints<decltype(1.5_kW)> && prints<decltype(46.875_J)> && prints<decltype(2_PFLOPS)>);
static_assert(prints<decltype(500_tok)> && prints<decltype(2.5_usd)> && prints<decltype(2_usd_per_h)>);
static_assert(prints<decltype(dollars_per_kilowatt_hour(0.08))> && prints<decltype(kilometres(1.0))>);
// cv-qualified and reference arguments print too.
static_assert(printable_quantity<const bytes_t&> && printable_quantity<volatile seconds_t>);

// ---- and nothing else ------------------------------------------------------------------------
static_assert(!printable_quantity<double>);
static_assert(!printable_quantity<int>);
static_assert(!printable_quantity<std::string>);
static_assert(!printable_quantity<decltype(1_J / 1_B)>);          // J/B has no name in the vocabulary
static_assert(!printable_quantity<decltype(1_s * 1_s)>);          // nor s²
static_assert(!printable_quantity<decltype(40_GB / 20_GB)>);      // a ratio is a number: text::number

// ---- number helpers that are constant expressions ---------------------------------------------
static_assert(text::detail::clamp_digits(0) == 1 && text::detail::clamp_digits(4) == 4 &&
              text::detail::clamp_digits(30) == 17);
static_assert(llmcost::detail::pow10(22) == 1e22);  // text::rounded's exact scale, up to 10^22

}  // namespace
