#pragma once
/// \file
/// The validation tool's reading of a fitted per-kernel overhead (tests/unit/unit-launch-fit.cpp): the engine
/// profile's launch cost is what the fit finds over the hardware's per-kernel cost, and a fit below the hardware's
/// is reported as such (its launch cost 0), never a silent 0; a fit that is not a finite time is refused
/// (`invalid_input`, naming the value and the rule).

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

#include <cmath>
#include <string>

namespace llmcost::validation {

/// A fitted per-kernel overhead read against the hardware's.
struct launch_over {
    seconds_t cost;         ///< the profile's launch cost, max(0, fitted − the hardware's)
    bool at_floor = false;  ///< the fit fell below the hardware's per-kernel cost (`cost` is then 0)
};

/// A fitted per-kernel overhead as the profile's launch cost over the hardware's, max(0, fitted − the hardware's):
/// the profile adds to the hardware's per-kernel cost and cannot take from it, so a fit below it gives 0, flagged
/// `at_floor`. A fit that is not finite (NaN, ∞) prices nothing: refused, naming the value and the rule.
[[nodiscard]] inline launch_over launch_over_hardware(seconds_t fitted, const hardware& h) {
    require(std::isfinite(fitted.value()), "launch fit on " + std::string(h.name), "fitted per-kernel overhead (s)",
            fitted.value(), "must be finite: a launch cost needs a finite fit", "llmcost.validation.launch_fit_finite");
    const seconds_t over = fitted - h.gpu.efficiency.kernel_overhead;
    const bool at_floor = over < seconds(0.0);
    return {.cost = at_floor ? seconds(0.0) : over, .at_floor = at_floor};
}

}  // namespace llmcost::validation
