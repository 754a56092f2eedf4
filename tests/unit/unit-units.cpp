// Units layer: makers and conversions, with hand-worked expectations (text: unit-units-text.cpp).
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

using namespace llmcost;
using namespace llmcost::literals;

TEST_CASE("makers put every value in the base unit") {
    SUBCASE("decimal and binary byte prefixes differ") {
        CHECK(gigabytes(1.0).value() == 1e9);
        CHECK(gibibytes(1.0).value() == 1073741824.0);
        CHECK(terabytes(1.0).value() == 1e12);
        CHECK(tebibytes(1.0).value() == 1099511627776.0);
        CHECK(kibibytes(1.0).value() == 1024.0);
    }
    SUBCASE("line rates in bits become bytes per second") {
        CHECK(gigabits_per_second(400.0).value() == 50e9);  // S36: a 400 Gb/s NIC is 50 GB/s
        CHECK(terabits_per_second(1.6).value() == doctest::Approx(200e9));
        CHECK(bits(8.0).value() == 1.0);
    }
    SUBCASE("time, energy and money") {
        CHECK(milliseconds(2.0).value() == 0.002);
        CHECK(microseconds(137.0).value() == doctest::Approx(137e-6));
        CHECK(watt_hours(1.0).value() == 3600.0);
        CHECK(kilowatt_hours(1.0).value() == 3.6e6);
        CHECK(dollars_per_hour(2.0).value() == doctest::Approx(2.0 / 3600.0));
        CHECK(years(1.0).value() == 31557600.0);  // 365.25 days
    }
}

TEST_CASE("S30: the receipt's energy in watt-hours") {
    // Decode: 0.0625 ms × 1500 W × 500 tokens = 46.875 J; × 1.3 × 1.2 = 73.125 J = 0.0203125 Wh.
    const joules_t decode = energy_at(1.5_kW, 0.0625_ms) * 500.0;
    CHECK(decode.value() == doctest::Approx(46.875));
    const joules_t at_wall = decode * (1.3 * 1.2);
    CHECK(ratio(at_wall, 1_Wh) == doctest::Approx(0.0203125));
}

TEST_CASE("ratio and approx_equal compare across prefixes") {
    CHECK(ratio(2_ms, 1_us) == doctest::Approx(2000.0));
    CHECK(ratio(40_GiB, 1_GB) == doctest::Approx(42.94967296));
    CHECK(approx_equal(1_GB, 1e9_B));
    CHECK_FALSE(approx_equal(1_GB, 1_GiB));
    CHECK(approx_equal(1.0_s, 1.0000000001_s, 1e-9));
    CHECK_FALSE(approx_equal(1.0_s, 1.001_s, 1e-6));
}
