// Units layer: makers, conversions and the formatter, with hand-worked expectations.
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

TEST_CASE("format prints in the unit a reader expects") {
    SUBCASE("bytes: decimal by default, binary on request") {
        CHECK(format(40_GB) == "40 GB");
        CHECK(format(40_GiB) == "42.95 GB");
        CHECK(format(40_GiB, {.bytes = byte_prefix::binary}) == "40 GiB");
        CHECK(format(327'680_B, {.bytes = byte_prefix::binary}) == "320 KiB");
        CHECK(format(327'680_B) == "327.7 kB");
        CHECK(format(288_GB) == "288 GB");
        CHECK(format(512_B) == "512 B");
        CHECK(format(0_B) == "0 B");
    }
    SUBCASE("rates") {
        CHECK(format(20_TBps) == "20 TB/s");
        CHECK(format(400_Gbps) == "50 GB/s");
        CHECK(format_bits(400_Gbps) == "400 Gb/s");
        CHECK(format(989.4_TFLOPS) == "989.4 TFLOP/s");
        CHECK(format(2_PFLOPS) == "2 PFLOP/s");
        CHECK(format(tokens_per_second(50.0)) == "50 tokens/s");
    }
    SUBCASE("time picks s, ms, µs or ns") {
        CHECK(format(2_ms) == "2 ms");
        CHECK(format(0.0625_ms) == "62.5 µs");
        CHECK(format(137_ms) == "137 ms");
        CHECK(format(3_s) == "3 s");
        CHECK(format(5_ns) == "5 ns");
        CHECK(format(0_s) == "0 s");
        CHECK(format(hours(10.0)) == "10 h");
    }
    SUBCASE("power, energy, money") {
        CHECK(format(1.5_kW) == "1.5 kW");
        CHECK(format(180_MW) == "180 MW");
        CHECK(format(46.875_J) == "46.88 J");
        CHECK(format(watt_hours(0.0255), {.energy = energy_style::watt_hours}) == "0.0255 Wh");
        CHECK(format(dollars(2.5)) == "$2.5");
        CHECK(format(dollars_per_hour(2.0)) == "$2/h");
        CHECK(format(dollars(3.0) / tokens(1e6)) == "$3/Mtoken");
        CHECK(format(dollars_per_kilowatt_hour(0.08)) == "$0.08/kWh");
    }
    SUBCASE("digits are configurable") {
        CHECK(format(46.875_J, {.digits = 6}) == "46.875 J");
        CHECK(format(40_GiB, {.digits = 2}) == "43 GB");
    }
}
