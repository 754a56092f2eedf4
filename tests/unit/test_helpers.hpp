#pragma once
// Shared by the unit tests: read the message of a loader's or a descriptor's error, and search it.
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace llmcost::test {

/// The message of the load_error that `parse` throws (fails the test when none is thrown).
template <class F>
std::string message_of(F&& parse) {
    try {
        (void)parse();
    } catch (const io::load_error& e) {
        return e.what();
    }
    FAIL("no load_error thrown");
    return {};
}

/// The message `d.validate()` throws, or "" when `d` is valid.
template <class Descriptor>
std::string validation_message(const Descriptor& d) {
    try {
        d.validate();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return {};
}

/// The message of the invalid_input that `f` throws, or "" when none is thrown.
template <class F>
std::string error_of(F&& f) {
    try {
        (void)f();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return {};
}

inline bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace llmcost::test
