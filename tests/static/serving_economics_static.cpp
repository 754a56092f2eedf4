// Serving economics at compile time (seed T1, T7, T8, S33): compiling this file is the test.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/economics.hpp>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

constexpr bool within(double x, double lo, double hi) { return x >= lo && x <= hi; }

// $/M tokens is a display unit: $10 per million = 1e-5 $/token, and back.
static_assert(dollars_per_million_tokens(10.0) == dollars_per_token_t::from_value(1e-5));
static_assert(within(dollars_per_million_tokens_t{dollars_per_million_tokens(10.0)}.value(), 10.0 - 1e-12, 10.0 + 1e-12));

// T1: 1 MW ÷ 100 GPUs = 10 kW per GPU; 10e9 KRW ÷ 1,422.16 ÷ 100 ≈ $70,316 per GPU.
static_assert(catalog::seed_token_factory.facility_power_per_gpu() == 10_kW);
static_assert(within(catalog::seed_token_factory.capex_per_gpu().value(), 70'315, 70'316));

// A GPU-hour: $43,830 over 5 Julian years (43,830 h) = $1/h; at u = 0 the energy is the idle draw.
constexpr hardware easy = [] {
    hardware h = catalog::b200_hgx;
    h.gpu.board_power = 1000_W;
    h.gpu.idle_power = 100_W;
    h.capex_per_gpu = 43'830_usd;
    return h;
}();
constexpr facility free_power{.name = "free power", .electricity = dollars_per_kilowatt_hour(0.0),
                              .depreciation = years(5.0)};
static_assert(approx_equal(gpu_hour_cost(easy, free_power, 0.5).capital, 1_usd_per_h));
static_assert(gpu_hour_cost(easy, free_power, 0.5).energy == 0_usd_per_h);
static_assert(approx_equal(wall_power_at(easy, free_power, 0.0), 156_W));  // 100 W × 1.3 × 1.2

// T7 in the ledger's form: $1/h of depreciation ÷ $20/h of tokens at full use = 5 %.
static_assert(within(break_even_utilisation(1_usd_per_h, 20_usd_per_h).utilisation, 0.05 - 1e-12, 0.05 + 1e-12));
static_assert(break_even_utilisation(1_usd_per_h, 20_usd_per_h).reachable);
static_assert(!break_even_utilisation(30_usd_per_h, 20_usd_per_h).reachable);
// Payback with free power: $43,830 ÷ (0.1 × $20/h) = 21,915 h = 2.5 years.
static_assert(approx_equal(payback_period(easy, free_power, 20_usd_per_h, 0.1), years(2.5)));

// S33: output ÷ input = R_prefill ÷ R_decode; 25,000 ÷ 5,000 = 5.
static_assert(output_input_cost_ratio({.prefill = 25'000_tok_per_s, .decode = 5'000_tok_per_s}) == 5.0);
static_assert(cached_input_cost_ratio({.prefill = 25'000_tok_per_s, .decode = 5'000_tok_per_s,
                                       .cached = 250'000_tok_per_s}) == 0.1);

// T8: 12,000 tokens at 50 tok/s = 240 s beats 50,000 tokens at 150 tok/s = 333 s.
static_assert(time_to_finish(12'000_tok, 50_tok_per_s) == 240_s);
static_assert(time_to_finish(12'000_tok, 50_tok_per_s) < time_to_finish(30'000_tok, 150_tok_per_s, 2.0, 10'000_tok));

}  // namespace
