// Compile-time checks of the units layer. Compiling this file is the test.
#include <llmcost/llmcost.hpp>
#include <type_traits>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

// S27: 40 GB of weights read per pass at 20 TB/s is 2 ms — 4e10 / 2e13 = 2e-3 s.
static_assert(40_GB / 20_TBps == 2_ms);
static_assert(transfer_time(40_GB, 20_TBps) == 2_ms);
static_assert(transfer_time(gigabytes_t::from_value(40.0), 20_TBps) == 2_ms);  // any byte unit

// S16: KV cache of the 70B model, 2 (K,V) · 80 layers · 8 KV heads · 128 dims · 2 bytes.
constexpr bytes_t kv_per_token = bytes(2.0 * 80 * 8 * 128 * 2);
static_assert(kv_per_token == 327'680_B);
static_assert(kv_per_token == 0.3125_MiB);           // binary: 327,680 / 2^20 exactly
static_assert(kv_per_token != 0.3125_MB);            // decimal would be 312,500 B
static_assert(approx_equal(kv_per_token, 0.32768_MB));  // the seed's "0.31 MB" is MiB
static_assert(ratio(kv_per_token, 1_MB) > 0.327 && ratio(kv_per_token, 1_MB) < 0.328);
// × 131,072 tokens of context = 40 GiB exactly, which is 42.9 GB, not 40 GB.
static_assert(kv_per_token * 131'072.0 == 40_GiB);
static_assert(kv_per_token * 131'072.0 != 40_GB);
static_assert(approx_equal(40_GiB, 42.94967296_GB));

// S10: 180 MW over 1,000,000 GPUs × 6 transceivers = 30 W each.
static_assert(180_MW / (1'000'000.0 * 6.0) == 30_W);

// S36: NVLink 5 1.8 TB/s (both directions) against a 400 Gb/s NIC (one direction) = 36×.
static_assert(400_Gbps == 50_GBps);
static_assert(ratio(1.8_TBps, 400_Gbps) == 36.0);

// Explicit conversions between prefixed types and base units happen at compile time.
static_assert(bytes_t{gigabytes_t::from_value(40.0)} == 40_GB);
static_assert(bytes_t{gibibytes_t::from_value(1.0)} == 1'073'741'824_B);
static_assert(bytes_t{bits_t::from_value(8.0)} == 1_B);
static_assert(seconds_t{milliseconds_t::from_value(2.0)} == 2_ms);
static_assert(watts_t{kilowatts_t::from_value(1.5)} == 1500_W);
static_assert(in_base_units(megawatts_t::from_value(180.0)) == 180_MW);

// Derived quantities come out of the dimensions: W · s = J, J / 3600 = Wh, FLOP / B.
static_assert(1.5_kW * 1_s == 1500_J);
static_assert(energy_at(1.5_kW, 0.0625_ms) * 500.0 == 46.875_J);  // S29
static_assert(3600_J == 1_Wh && 1_kWh == 3.6e6_J);
static_assert(intensity(2_TFLOP, 1_TB) == flops_per_byte_t::from_value(2.0));
static_assert(ridge_point(1000_TFLOPS, 4_TBps) == flops_per_byte_t::from_value(250.0));
static_assert(roofline_time(2_TFLOP, 40_GB, 1_PFLOPS, 20_TBps) == 2_ms);   // memory bound
static_assert(roofline_time(80_TFLOP, 40_GB, 1_PFLOPS, 20_TBps) == 80_ms); // compute bound
static_assert(dollars_per_hour(3.6) * 1_h == 3.6_usd);
static_assert(approx_equal(dollars_per_kilowatt_hour(0.1) * 1_kWh, 0.1_usd));
static_assert(1_h == 3600_s && hours(24.0) == days(1.0));
static_assert(500_tok / 1_s == tokens_per_second(500.0));
// An event rate (requests, arrivals) is one over a duration: 4 a second is one every 250 ms.
static_assert(std::is_same_v<decltype(1.0 / 250_ms), per_second_t>);
static_assert(1.0 / 250_ms == per_second(4.0));
static_assert((per_second(4.0) * 250_ms).value() == 1.0);

// The named concepts accept every unit of their dimension and nothing else.
static_assert(data_size<bytes_t> && data_size<gigabytes_t> && data_size<bits_t>);
static_assert(!data_size<seconds_t> && !data_size<flops_t> && !data_size<double>);
static_assert(bandwidth<bytes_per_second_t> && bandwidth<bits_per_second_t>);
static_assert(!bandwidth<flops_per_second_t>);
static_assert(duration<milliseconds_t> && power<kilowatts_t> && energy<joules_t>);
static_assert(compute<flops_t> && compute_rate<flops_per_second_t> && token_count<tokens_t>);
static_assert(token_rate<tokens_per_second_t> && money<dollars_t> && money_rate<dollars_per_second_t>);
static_assert(arithmetic_intensity<flops_per_byte_t> && energy_per_token<joules_per_token_t>);
static_assert(distance<metres_t> && !distance<seconds_t>);
static_assert(sizeof(bytes_t) == sizeof(double));  // zero overhead

}  // namespace
