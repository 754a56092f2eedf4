// The serving layer's journey, batching and prefix-cache formulas at compile time. Compiling this
// file is the test. Hand-worked values; no absolute pass time of a catalog deployment is pinned.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/batching.hpp>
#include <llmcost/serving/journey.hpp>
#include <llmcost/serving/prefix_cache.hpp>

#include <array>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

constexpr bool near(double x, double y, double rel = 1e-12) {
    const double d = x > y ? x - y : y - x;
    return d <= rel * (x > y ? x : y);
}

// S3: M/M/1 W_q = ρS/(1 − ρ): 2 ms at ρ = 0.75 → 6 ms. Erlang C(2, ρ = 0.5) = 1/3.
static_assert(near(ratio(queueing::mm1_wait(2_ms, 0.75), 1_ms), 6.0));
static_assert(near(queueing::erlang_c(1, 0.4), 0.4));
static_assert(near(queueing::erlang_c(2, 0.5), 1.0 / 3.0));
static_assert(queueing::mmc_wait(1_ms, 4, 0.9) > queueing::mmc_wait(1_ms, 4, 0.5));

// S1, S2, S26: a journey assembled from given stage times. 10 ms to the edge × 3 handshakes,
// 137 ms to Oregon; one way 73.5 ms; gates 1 + 2 + 3 ms; admission 1, prefill 8, decode 998 ms.
constexpr journey::times hand = journey::assemble(
    journey::network_leg{.path = {.client_to_edge_rtt = 10_ms, .edge_to_origin_rtt = 137_ms}},
    journey::placement_gates{.load_balancer = journey::gate::fixed("lb", 1_ms), .router = journey::gate::fixed("router", 2_ms),
                  .scheduler = journey::gate::fixed("scheduler", 3_ms)},
    journey::compute_times{.admission = 1_ms, .prefill = 8_ms, .decode = 998_ms, .neighbour_prefills = 0_s}, 500_tok);
static_assert(approx_equal(hand.end_to_end(), 1190_ms));          // 30 + 73.5 + 6 + 1 + 8 + 998 + 73.5
static_assert(approx_equal(hand.time_to_first_token(), 192_ms));  // all but the decode
static_assert(approx_equal(hand.time_per_output_token() * 1_tok, 2_ms));  // 998 ms / 499
static_assert(hand.dominant() == journey::stage::decode);

// S38: the seed's default journey is dominated by its 499 decode passes (S15).
constexpr journey::times seed = journey::breakdown(catalog::seed_journey);
static_assert(seed.dominant() == journey::stage::decode);
static_assert(seed.time_to_first_token() < seed.end_to_end());

// S4: one static batch {3, 5, 8, 2, 7} uses 5/8 of its slot-steps; continuous batching of the
// same queue in 2 slots finishes in 14 steps instead of 20.
constexpr std::array lengths{3_tok, 5_tok, 8_tok, 2_tok, 7_tok};
static_assert(batching::static_batch_occupancy(lengths) == 0.625);
static_assert(batching::static_steps(lengths, 2) == 20.0);
static_assert(batching::continuous_steps(lengths, 2) == 14.0);
// Exponential lengths: static utilisation 1/H_B; H₂ = 1.5.
static_assert(near(batching::static_expected_occupancy(batching::length_distribution::exponential(500_tok), 2), 2.0 / 3.0));
static_assert(near(batching::length_distribution::uniform(1_tok, 3_tok).expected_longest(2).value(), 22.0 / 9.0));

// S6: a cached prefix never costs more prefill than none.
constexpr deployment dash{.m = catalog::seed_dashboard_model, .hw = catalog::seed_dashboard_gpu};
static_assert(prefix_cache::prefill_times(dash, 2000_tok, 0.9).saving() > 0_s);
// S33: from HBM a cached token is far cheaper than a computed one; from NVMe it is not.
static_assert(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::hbm).ratio() < 0.01);
static_assert(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::storage).ratio() > 0.1);
}  // namespace
