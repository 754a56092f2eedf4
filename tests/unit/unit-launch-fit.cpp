// The validation tool's reading of a fitted per-kernel overhead (examples/tools/validation/launch_fit.hpp): the
// profile's launch cost is the fit over the hardware's per-kernel cost (the H100 SXM5's 4 µs, tables/hardware.csv),
// a fit below it is flagged at the floor with a launch cost of 0, and a NaN or infinite fit is refused rather than
// read as 0. Every expectation worked by hand from the 4 µs floor.
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/units/makers.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"
#include "validation/launch_fit.hpp"

#include <cmath>
#include <limits>

using namespace llmcost;
using validation::launch_over;
using validation::launch_over_hardware;

TEST_CASE("validation: a fitted per-kernel overhead over the hardware's 4 us is the profile's launch cost") {
    const hardware& h = catalog::h100_sxm5;
    REQUIRE(h.gpu.efficiency.kernel_overhead.value() == doctest::Approx(4e-6));
    const launch_over above = launch_over_hardware(seconds(10e-6), h);  // 10 − 4 = 6 µs
    CHECK(above.cost.value() == doctest::Approx(6e-6));
    CHECK_FALSE(above.at_floor);
    const launch_over equal = launch_over_hardware(seconds(4e-6), h);  // on the floor, not below it: 0, not flagged
    CHECK(equal.cost.value() == 0.0);
    CHECK_FALSE(equal.at_floor);
    const launch_over below = launch_over_hardware(seconds(1e-6), h);  // 1 − 4 < 0: 0, flagged
    CHECK(below.cost.value() == 0.0);
    CHECK(below.at_floor);
}

TEST_CASE("validation: a NaN or infinite per-kernel fit is refused, not reported as launch 0") {
    const hardware& h = catalog::h100_sxm5;
    const std::string nan = test::error_of([&] { return launch_over_hardware(seconds(std::nan("")), h); });
    CHECK(test::contains(nan, "fitted per-kernel overhead (s) = nan"));
    CHECK(test::contains(nan, "H100 SXM5"));
    CHECK(test::contains(nan, "a launch cost needs a finite fit"));
    CHECK(test::contains(test::error_of([&] { return launch_over_hardware(seconds(std::numeric_limits<double>::infinity()), h); }),
                         "a launch cost needs a finite fit"));
}
