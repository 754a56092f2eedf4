#pragma once
/// \file
/// How llmcost refuses nonsense. A descriptor's `validate()` checks each rule with `require`:
/// at run time a broken rule throws `invalid_input` naming the field, the value and the rule; in a
/// constant expression (a catalog entry, a `static_assert`) it stops the compilation, and the
/// compiler's note shows the `require(...)` call with the field and the rule spelled out.

#include <llmcost/units/text.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

namespace llmcost {

/// A value that breaks a rule of the cost model. `what()` reads like
/// "llmcost: Llama-3.1-70B: layout.tp = 3: must divide the query heads [llmcost.layout.tp_divides_heads]":
/// the subject, the field, the value, the rule, and the rule's stable id (where it has one;
/// docs/troubleshooting.md lists them), for scripts and searches to key on.
class invalid_input : public std::invalid_argument {
public:
    invalid_input(std::string_view subject, std::string_view field, double value,
                  std::string_view rule, std::string_view id = {})
        : std::invalid_argument(make_message(subject, field, show(value), rule, id)),
          subject_(subject), field_(field), value_(value), rule_(rule), id_(id) {}

    /// A value that is a word, not a number (a scenario, an engine, a dispatch rule): the message reads
    /// "field = online: rule", `word()` is "online" and `value()` NaN.
    invalid_input(std::string_view subject, std::string_view field, std::string_view word, std::string_view rule,
                  std::string_view id = {})
        : std::invalid_argument(make_message(subject, field, std::string(word), rule, id)),
          subject_(subject), field_(field), value_(std::numeric_limits<double>::quiet_NaN()), word_(word),
          rule_(rule), id_(id) {}

    [[nodiscard]] const std::string& subject() const noexcept { return subject_; }
    [[nodiscard]] const std::string& field() const noexcept { return field_; }
    [[nodiscard]] double value() const noexcept { return value_; }
    /// The value as a word where the rule's value is one (empty for a number: `value()`).
    [[nodiscard]] const std::string& word() const noexcept { return word_; }
    [[nodiscard]] const std::string& rule() const noexcept { return rule_; }
    /// The rule's stable id, e.g. "llmcost.layout.tp_divides_heads" (empty where it has none).
    [[nodiscard]] const std::string& id() const noexcept { return id_; }

    /// A value the way a user typed it: whole numbers below 10^9 in full ("131072"), others to 6
    /// significant digits ("0.05", "1e+19", "nan").
    [[nodiscard]] static std::string show(double v) {
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e9) return text::fixed(v, 0);
        return text::number(v, 6);
    }

private:
    static std::string make_message(std::string_view subject, std::string_view field, const std::string& value,
                                    std::string_view rule, std::string_view id) {
        std::string m = "llmcost: ";
        if (!subject.empty()) {
            m += subject;
            m += ": ";
        }
        m += field;
        m += " = ";
        m += value;
        m += ": ";
        m += rule;
        if (!id.empty()) {
            m += " [";
            m += id;
            m += "]";
        }
        return m;
    }
    std::string subject_, field_;
    double value_;
    std::string word_, rule_, id_;
};

namespace detail {

/// Not constexpr on purpose: reaching it during constant evaluation is the compile error.
[[noreturn]] inline void fail(std::string_view subject, std::string_view field, double value,
                              std::string_view rule, std::string_view id) {
    throw invalid_input(subject, field, value, rule, id);
}

/// As `fail`, for a value that is a word.
[[noreturn]] inline void fail_word(std::string_view subject, std::string_view field, std::string_view word,
                                   std::string_view rule, std::string_view id) {
    throw invalid_input(subject, field, word, rule, id);
}

}  // namespace detail

/// Checks one rule whose value is a word (a scenario, an engine's name): the message names it as the user
/// wrote it ("scenario = online: ..."), not as an enum's number.
constexpr void require_word(bool ok, std::string_view subject, std::string_view field, std::string_view word,
                            std::string_view rule, std::string_view id = {}) {
    if (!ok) detail::fail_word(subject, field, word, rule, id);
}

/// Checks one rule. `ok` false → `invalid_input` at run time, a compile error in a constant
/// expression ("call to non-constexpr function ... fail", with this call's arguments in the note).
constexpr void require(bool ok, std::string_view subject, std::string_view field, double value,
                       std::string_view rule, std::string_view id = {}) {
    if (!ok) detail::fail(subject, field, value, rule, id);
}

/// 0 < v < ∞ (NaN fails every comparison, so it fails here too).
[[nodiscard]] constexpr bool positive_finite(double v) {
    return v > 0.0 && v <= std::numeric_limits<double>::max();
}
/// 0 ≤ v < ∞.
[[nodiscard]] constexpr bool non_negative_finite(double v) {
    return v >= 0.0 && v <= std::numeric_limits<double>::max();
}

/// Validates `d` and returns it: `inline constexpr hardware h = checked(hardware{...});` makes
/// an invalid catalog entry a compile error that names the field and the rule.
template <class Descriptor>
[[nodiscard]] constexpr Descriptor checked(const Descriptor& d) {
    d.validate();
    return d;
}

}  // namespace llmcost
