// The text layer (units/text.hpp): numbers and every quantity type, with hand-worked expectations.
// Each expected string is worked out from the value and the rule stated in
// the test's comment, never copied from the program's output.
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// What `os << q` writes.
template <class Q>
std::string streamed(const Q& q) {
    std::ostringstream os;
    os << q;
    return os.str();
}

/// `to_text(q)` and `os << q` agree, and both are `expected`.
template <class Q>
void check_text(const Q& q, const std::string& expected) {
    CHECK(to_text(q) == expected);
    CHECK(streamed(q) == expected);
}

}  // namespace

TEST_CASE("text::number: printf's %g, correctly rounded, for every double") {
    CHECK(text::number(2.0) == "2");
    CHECK(text::number(62.5) == "62.5");
    CHECK(text::number(46.875) == "46.88");          // 4 digits; the tie 46.875 goes to the even 8
    CHECK(text::number(1e15) == "1e+15");            // %g: exponent form from 10^digits up
    CHECK(text::number(3.14159e-5) == "3.142e-05");  // and below 10^-4
    CHECK(text::number(0.0001) == "0.0001");
    CHECK(text::number(1234.5, 6) == "1234.5");
    CHECK(text::number(-0.5) == "-0.5");
    SUBCASE("digits are clamped to 1…17") {
        CHECK(text::number(0.5, 0) == "0.5");
        CHECK(text::number(123.0, 1) == "1e+02");
        CHECK(text::number(0.1, 17) == "0.10000000000000001");  // 0.1 is 0.1000000000000000055… in binary
        CHECK(text::number(0.1, 40) == "0.10000000000000001");
    }
    SUBCASE("extremes and what is not finite") {
        CHECK(text::number(std::numeric_limits<double>::denorm_min()) == "4.941e-324");  // 2^-1074
        CHECK(text::number(std::numeric_limits<double>::min()) == "2.225e-308");         // 2^-1022
        CHECK(text::number(std::numeric_limits<double>::max()) == "1.798e+308");
        CHECK(text::number(-std::numeric_limits<double>::max(), 17) == "-1.7976931348623157e+308");
        CHECK(text::number(std::numeric_limits<double>::quiet_NaN()) == "nan");
        CHECK(text::number(-std::numeric_limits<double>::quiet_NaN()) == "nan");  // printf would say "-nan"
        CHECK(text::number(std::numeric_limits<double>::infinity()) == "inf");
        CHECK(text::number(-std::numeric_limits<double>::infinity()) == "-inf");
    }
}

TEST_CASE("text::fixed, text::grouped and text::plain") {
    SUBCASE("signed_percent: an error or a change, its sign always shown") {
        CHECK(text::signed_percent(0.121) == "+12.1%");
        CHECK(text::signed_percent(-0.05) == "-5.0%");
        CHECK(text::signed_percent(0.0) == "+0.0%");
        CHECK(text::signed_percent(-0.0004) == "+0.0%");  // rounds to zero: no "-0.0%"
        CHECK(text::signed_percent(-0.0006) == "-0.1%");
        CHECK(text::signed_percent(0.12345, 2) == "+12.35%");  // 12.345 is a little more in binary
    }
    SUBCASE("fixed: decimals as %f, never a negative zero") {
        CHECK(text::fixed(2.345, 1) == "2.3");  // 2.345 is 2.34499999999999997… in binary
        CHECK(text::fixed(2.5, 0) == "2");      // an exact tie goes to the even digit
        CHECK(text::fixed(3.5, 0) == "4");
        CHECK(text::fixed(-0.001, 2) == "0.00");
        CHECK(text::fixed(-0.0, 1) == "0.0");
        CHECK(text::fixed(-0.006, 2) == "-0.01");
        CHECK(text::fixed(1e22, 0) == "10000000000000000000000");
        CHECK(text::fixed(std::numeric_limits<double>::max(), 0).size() == 309);  // 1.8e308: 309 digits
        // The smallest subnormal, 4.94e-324, at 340 decimals: "0.", 323 zeros, then its digits.
        const std::string tiny = text::fixed(std::numeric_limits<double>::denorm_min(), 340);
        CHECK(tiny.size() == 342);
        CHECK(tiny.substr(0, 2) == "0.");
        CHECK(tiny.find_first_not_of('0', 2) == 2 + 323);
        CHECK(tiny.substr(2 + 323, 4) == "4940");
        CHECK(text::fixed(std::numeric_limits<double>::infinity(), 2) == "inf");
    }
    SUBCASE("grouped: commas between groups of three") {
        CHECK(text::grouped(1512840.0) == "1,512,840");
        CHECK(text::grouped(999.0) == "999");
        CHECK(text::grouped(1000.0) == "1,000");
        CHECK(text::grouped(-2047.6) == "-2,048");
        CHECK(text::grouped(1234.56, 1) == "1,234.6");
        CHECK(text::grouped(0.4) == "0");
        CHECK(text::grouped(-0.4) == "0");
        CHECK(text::grouped(1e18) == "1,000,000,000,000,000,000");
    }
    SUBCASE("plain: significant digits without an exponent, trailing zeros dropped") {
        CHECK(text::plain(32330.4, 4) == "32,330");
        CHECK(text::plain(32330.4, 4, text::grouping::none) == "32330");
        CHECK(text::plain(0.0012345, 3) == "0.00123");
        CHECK(text::plain(1.5e20, 2, text::grouping::none) == "150000000000000000000");
        CHECK(text::plain(-1234.5, 6) == "-1,234.5");
        CHECK(text::plain(9.9996, 4) == "10");     // 4 digits round up to 10.00; zeros dropped
        CHECK(text::plain(1234567.0, 4, text::grouping::none) == "1235000");
        CHECK(text::plain(2.5, 4) == "2.5");
        CHECK(text::plain(0.0, 4) == "0");
        CHECK(text::plain(std::numeric_limits<double>::quiet_NaN(), 4) == "nan");
        CHECK(text::plain(1e-5, 1) == "0.00001");
    }
}

TEST_CASE("text::rounded: the double that the printed digits name") {
    CHECK(text::rounded(0.1 + 0.2, 10) == 0.3);  // 0.30000000000000004 → 0.3000000000
    CHECK(text::rounded(2.0 / 3.0, 3) == 0.667);
    CHECK(text::rounded(-123456.789, 4) == -123500.0);
    CHECK(text::rounded(6.25e-5, 10) == 6.25e-5);
    CHECK(text::rounded(1.0 / 3.0 * 1e12, 10) == 333333333300.0);  // 12 whole digits, 10 kept
    SUBCASE("outside 10^±22 of the digits, and for what is not finite, v itself") {
        const double tiny = 1.0 / 3.0 * 1e-20;  // needs 10^-30 after 10 digits: no exact quotient
        CHECK(text::rounded(tiny, 10) == tiny);
        CHECK(text::rounded(0.0, 10) == 0.0);
        CHECK(std::isnan(text::rounded(std::numeric_limits<double>::quiet_NaN(), 10)));
        CHECK(text::rounded(std::numeric_limits<double>::infinity(), 10) == std::numeric_limits<double>::infinity());
        CHECK(text::rounded(1.0 / 3.0, 16) == 1.0 / 3.0);  // more than 15 digits: v
    }
}

TEST_CASE("text::rounded and number at the ends of the doubles (issue 18: JSON once died on these)") {
    // The smallest subnormal, the smallest normal, the largest finite: no string parse, each comes
    // back as itself (outside 10^±22 of its digits) and prints.
    const double sub = 4.9406564584124654e-324, min = std::numeric_limits<double>::min(),
                 max = std::numeric_limits<double>::max();
    for (const double v : {sub, -sub, min, max, -max, 1e308}) {
        CAPTURE(v);
        CHECK(text::rounded(v, 10) == v);
    }
    CHECK(text::number(sub) == "4.941e-324");  // %.4g of 2^-1074
    CHECK(text::number(max) == "1.798e+308");
}

TEST_CASE("text::utf8_escaped: valid UTF-8 kept, every other byte as \\xHH") {
    CHECK(text::utf8_escaped("Llama-3.1-8B") == "Llama-3.1-8B");
    CHECK(text::utf8_escaped("µs → 2 ms") == "µs → 2 ms");               // 2- and 3-byte code points
    CHECK(text::utf8_escaped("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");  // a 4-byte one, U+1F600
    CHECK(text::utf8_escaped("caf\xE9") == "caf\\xE9");                  // Latin-1 é: one bad byte
    CHECK(text::utf8_escaped("\xC3") == "\\xC3");                        // a cut-off 2-byte code point
    CHECK(text::utf8_escaped("\xC0\xAF") == "\\xC0\\xAF");               // an overlong '/'
    CHECK(text::utf8_escaped("\xED\xA0\x80") == "\\xED\\xA0\\x80");      // a UTF-16 surrogate, U+D800
    CHECK(text::utf8_escaped("\xF4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
    CHECK(text::utf8_escaped(std::string("a\0b", 3)) == std::string("a\0b", 3));  // NUL is valid UTF-8
}

TEST_CASE("text numbers equal printf and strtod on 300,000 random doubles") {
    // The oracle is the C library (glibc's printf and strtod are correctly rounded); half the draws
    // are arbitrary bit patterns (subnormals, huge exponents), half spread over 10^-20…10^20.
    std::mt19937_64 bits(20240611);
    std::uniform_real_distribution<double> exponent(-20.0, 20.0);
    long number_mismatches = 0, fixed_mismatches = 0, rounded_mismatches = 0, exact = 0;
    for (int i = 0; i < 300'000; ++i) {
        double v = 0;
        if (i % 2 == 0) {
            const std::uint64_t b = bits();
            std::memcpy(&v, &b, sizeof v);
            if (!std::isfinite(v)) continue;
        } else {
            v = std::pow(10.0, exponent(bits)) * (bits() % 2 == 0 ? 1.0 : -1.0);
        }
        const int digits = 1 + static_cast<int>(bits() % 15);
        char g[64];
        std::snprintf(g, sizeof g, "%.*g", digits, v);
        number_mismatches += text::number(v, digits) != g;
        if (std::fabs(v) < 1e20) {
            char f[512];
            std::snprintf(f, sizeof f, "%.*f", digits, v);
            std::string expected = f;
            if (expected.find_first_not_of("-0.") == std::string::npos && expected[0] == '-') expected.erase(0, 1);
            fixed_mismatches += text::fixed(v, digits) != expected;
        }
        const double r = text::rounded(v, digits);
        if (r != v || std::strtod(g, nullptr) == v) {
            rounded_mismatches += r != std::strtod(g, nullptr);
            ++exact;
        }
    }
    CHECK(number_mismatches == 0);
    CHECK(fixed_mismatches == 0);
    CHECK(rounded_mismatches == 0);
    CHECK(exact > 120'000);  // the fast path covers most of the draws
}

TEST_CASE("to_text: every quantity type, in the unit a reader expects") {
    SUBCASE("sizes: decimal prefixes by default, binary on request") {
        check_text(40_GB, "40 GB");
        check_text(40_GiB, "42.95 GB");  // 40 · 2^30 = 42,949,672,960 B
        CHECK(to_text(40_GiB, {.bytes = text::byte_prefix::binary}) == "40 GiB");
        CHECK(to_text(327'680_B, {.bytes = text::byte_prefix::binary}) == "320 KiB");  // S16: 0.3125 MiB per token
        check_text(327'680_B, "327.7 kB");
        check_text(512_B, "512 B");
        check_text(0_B, "0 B");
        check_text(0.5_B, "0.5 B");  // below the smallest prefix, the unit itself
    }
    SUBCASE("times: ns to s, then hours and days from 3 of them") {
        check_text(2_ms, "2 ms");
        check_text(0.0625_ms, "62.5 µs");
        check_text(5_ns, "5 ns");
        check_text(3_s, "3 s");
        check_text(0_s, "0 s");
        check_text(hours(2.0), "7200 s");  // under 3 h: seconds
        check_text(hours(10.0), "10 h");
        check_text(days(5.0), "5 d");
        check_text(years(5.0), "1826 d");  // 5 · 365.25 = 1826.25 days, 4 digits
    }
    SUBCASE("lengths and speeds") {
        check_text(80_m, "80 m");
        check_text(1.5_km, "1.5 km");
        check_text(metres(2e8) / 1_s, "2e+08 m/s");  // light in fibre, 2/3 c
    }
    SUBCASE("power and energy") {
        check_text(1.5_kW, "1.5 kW");
        check_text(180_MW, "180 MW");
        check_text(46.875_J, "46.88 J");  // S29
        CHECK(to_text(46.875_J, {.digits = 6}) == "46.875 J");
        CHECK(to_text(watt_hours(0.0255), {.energy = text::energy_style::watt_hours}) == "0.0255 Wh");
        check_text(46.875_J / 500_tok, "0.09375 J/token");
        CHECK(to_text(joules(36.0) / 1_tok, {.energy = text::energy_style::watt_hours}) == "0.01 Wh/token");
    }
    SUBCASE("work and rates") {
        check_text(40_TFLOP, "40 TFLOP");
        check_text(989.4_TFLOPS, "989.4 TFLOP/s");
        check_text(2_PFLOPS, "2 PFLOP/s");
        check_text(140_GFLOP / 1_tok, "140 GFLOP/token");
        check_text(40_TFLOP / 20_GB, "2000 FLOP/B");  // 4e13 / 2e10
        check_text(20_TBps, "20 TB/s");
        check_text(400_Gbps, "50 GB/s");
        check_text(327'680_B / 1_tok, "327.7 kB/token");
        CHECK(to_text(327'680_B / 1_tok, {.bytes = text::byte_prefix::binary}) == "320 KiB/token");
    }
    SUBCASE("tokens and latency per token") {
        check_text(131'072_tok, "131072 tokens");  // counts keep 10 digits
        check_text(tokens_per_second(50.0), "50 tokens/s");
        check_text(per_second(20.0), "20 /s");  // requests per second
        check_text(2_ms / 32_tok, "62.5 µs/token");  // S28: a 2 ms pass shared by 32
    }
    SUBCASE("money") {
        check_text(dollars(2.5), "$2.5");
        check_text(dollars_per_hour(2.0), "$2/h");
        check_text(dollars(3.0) / tokens(1e6), "$3/Mtoken");
        check_text(dollars_per_kilowatt_hour(0.0806), "$0.0806/kWh");  // the seed site's electricity
    }
    SUBCASE("bits, as links are sold") {
        check_text(bits_t::from_value(8.0), "8 bit");
        check_text(bits_t{400_GB}, "3.2 Tbit");                       // 4e11 B · 8
        check_text(bits_per_second_t{400_Gbps}, "400 Gb/s");         // S36: a 400 Gb/s NIC
        check_text(bits_per_second_t{1.8_TBps}, "14.4 Tb/s");
    }
    SUBCASE("prefixed types stay in their own unit") {
        check_text(kilobytes_t::from_value(1.5), "1.5 kB");
        check_text(megabytes_t::from_value(0.5), "0.5 MB");
        check_text(gigabytes_t::from_value(40.0), "40 GB");
        check_text(gigabytes_t{40_GiB}, "42.95 GB");  // converted, then printed in GB
        check_text(terabytes_t::from_value(2.0), "2 TB");
        check_text(petabytes_t::from_value(1200.0), "1200 PB");  // no prefix climbing: the unit was chosen
        check_text(kibibytes_t::from_value(320.0), "320 KiB");
        check_text(mebibytes_t::from_value(0.3125), "0.3125 MiB");  // S16
        check_text(gibibytes_t::from_value(40.0), "40 GiB");
        check_text(gibibytes_t{40_GB}, "37.25 GiB");  // 4e10 / 2^30 = 37.2529…
        check_text(tebibytes_t::from_value(1.0), "1 TiB");
        check_text(pebibytes_t::from_value(2.0), "2 PiB");
        check_text(milliseconds_t::from_value(2500.0), "2500 ms");
        check_text(milliseconds_t{2_s}, "2000 ms");
        check_text(microseconds_t::from_value(62.5), "62.5 µs");
        check_text(kilowatts_t::from_value(1.5), "1.5 kW");
        check_text(megawatts_t::from_value(180.0), "180 MW");
        CHECK(to_text(gibibytes_t::from_value(1.0 / 3.0), {.digits = 2}) == "0.33 GiB");
    }
    SUBCASE("non-finite values and the stream's width") {
        check_text(seconds(std::numeric_limits<double>::infinity()), "inf s");  // the bare unit: no prefix fits
        check_text(bytes(std::numeric_limits<double>::quiet_NaN()), "nan B");
        check_text(watts(-std::numeric_limits<double>::infinity()), "-inf W");
        std::ostringstream os;
        os << std::setw(8) << 2_ms << '|';
        CHECK(os.str() == "    2 ms|");
    }
}
