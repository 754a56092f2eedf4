// The seed ledger (../shared/seeds/LEDGER.md), row by row, computed from descriptors and formulas.
// Compiling this file is the test. Each assertion cites its row id.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

namespace {
using namespace llmcost;
using namespace llmcost::literals;
using namespace llmcost::catalog;

constexpr bool within(double x, double lo, double hi) { return x >= lo && x <= hi; }

// The dashboard deployment: the seed's model on the seed's GPU, one GPU (40 GB fits in 288 GB).
constexpr deployment dash{.m = seed_dashboard_model, .hw = seed_dashboard_gpu};
constexpr double batch = 32.0;          // S28
constexpr double output_tokens = 500;   // S15, S29

// S1: light in fibre over 10,000 km and back: 2 · 1e7 m · 1.468 / c = 97.93 ms; the measured
// 137 ms (and Azure's 127 ms Korea → West US 2, row N01) sit above that floor.
static_assert(within(ratio(fibre_round_trip_floor(10'000_km), 1_ms), 97.9, 98.0));
static_assert(137_ms > fibre_round_trip_floor(10'000_km));
// Seoul (37.5665 N, 126.978 E) → The Dalles, Oregon (45.5946 N, 121.1787 W): 8,534 km great circle.
constexpr metres_t seoul_oregon = great_circle_distance({37.5665, 126.978}, {45.5946, -121.1787});
static_assert(within(ratio(seoul_oregon, 1_km), 8'530, 8'540));
static_assert(within(route_inflation(137_ms, seoul_oregon), 1.6, 1.65));  // 137 / 83.6 ms

// S7: 288 GB in 8 stacks = 36 GB a stack; 20 TB/s vs the previous 8 TB/s = 2.5×.
static_assert(seed_dashboard_gpu.gpu.stack_capacity() == 36_GiB);  // vendors' HBM "GB" are binary
static_assert(ratio(seed_dashboard_gpu.gpu.hbm_bandwidth, b200_hgx.gpu.hbm_bandwidth) == 2.5);

// S10: 1,000,000 GPUs × 6 transceivers × 30 W = 180 MW; and 180 MW ÷ 6e6 = 30 W.
static_assert(transceiver_power(seed_dashboard_gpu, 1e6) == 180_MW);
static_assert(watts_per_transceiver(180_MW, 1e6, 6.0) == 30_W);
// S9: one 72-GPU domain is copper only — no transceivers.
static_assert(transceiver_power(seed_dashboard_gpu, 72) == 0_W);

// S12: the public 70B has 80 layers and hidden 8192; the ~400B has 126 layers.
static_assert(llama_3_1_70b.layers == 80 && llama_3_1_70b.hidden == 8192 && llama_3_1_405b.layers == 126);

// S13: 2 all-reduces per layer under TP → 160 per token for 80 layers (none at TP = 1).
static_assert(tp_all_reduces_per_pass(deployment{.m = llama_3_1_70b, .hw = h100_sxm5, .layout = {.tp = 8}}) == 160);
static_assert(tp_all_reduces_per_pass(dash) == 0);

// S14: decode is memory bound: at batch 32 and 8 bits the weights give 2·32 = 64 FLOP/B, below
// the ridge of 2 PFLOP/s ÷ 20 TB/s = 100 FLOP/B; compute is used 20–40 % at batch 12–20.
constexpr pass_cost step32 = decode_pass(dash, batch, 450_tok);
static_assert(step32.memory_bound());
static_assert(within((flops(2.0 * batch * double(matmul_parameters(seed_dashboard_model))) / step32.weight_bytes).value(), 63.9, 64.1));
static_assert(ridge_point(seed_dashboard_gpu.gpu.dense.fp8, seed_dashboard_gpu.gpu.hbm_bandwidth) == flops_per_byte_t::from_value(100.0));
static_assert(within(ratio(decode_pass(dash, 12, 450_tok).compute_time, decode_pass(dash, 12, 450_tok).time()), 0.2, 0.4));
static_assert(within(ratio(decode_pass(dash, 20, 450_tok).compute_time, decode_pass(dash, 20, 450_tok).time()), 0.2, 0.4));

// S15: 500 output tokens = 500 passes: one prefill (first token) + 499 decode steps.
static_assert(decode_steps(dash, batch, 200_tok, output_tokens - 1).steps + 1 == 500);

// S16: 327,680 B = 0.3125 MiB per token; 40 GiB at 131,072 tokens.
static_assert(kv_bytes_per_token(llama_3_1_70b) * 1_tok == 0.3125_MiB);
static_assert(kv_bytes_for_context(llama_3_1_70b, 131'072_tok) == 40_GiB);
// S23: latent attention takes it to 70,272 B ≈ 0.067 MiB.
static_assert(kv_bytes_per_token(deepseek_v3) * 1_tok == 70'272_B);
static_assert(within(ratio(kv_bytes_per_token(deepseek_v3) * 1_tok, 1_MiB), 0.067, 0.0671));

// S27: 40 GB of weights per pass ÷ 20 TB/s = 2 ms (the weight stream of the dashboard's pass).
constexpr seconds_t weight_stream = transfer_time(step32.weight_bytes, seed_dashboard_gpu.gpu.hbm_bandwidth);
static_assert(approx_equal(step32.weight_bytes, 40_GB, 1e-5));
static_assert(approx_equal(weight_stream, 2_ms, 1e-5));
// The full pass also reads 32 sequences' KV (≈ 4.7 GB at 450 tokens): the seed leaves it out.
static_assert(within(ratio(step32.time(), 1_ms), 2.2, 2.3));

// S28: a 2 ms pass shared by 32 sequences → 0.0625 ms of occupancy per token.
constexpr seconds_t per_token = weight_stream / batch;
static_assert(approx_equal(per_token, 0.0625_ms, 1e-5));

// S29: × 1.5 kW × 500 tokens = 46.875 J.
constexpr joules_t decode_energy = gpu_energy(seed_dashboard_gpu, per_token * output_tokens);
static_assert(approx_equal(decode_energy, 46.875_J, 1e-5));

// S30: × 1.3 × 1.2 = 0.0203 Wh for decode alone; with the prefill at an effective 2 PFLOP/s
// (2 · 40e9 · 200 FLOP ≈ 8 ms at 1.5 kW ≈ 12 J) the total is 0.0255 ≈ 0.026 Wh.
static_assert(within(ratio(wall_energy(decode_energy, seed_site), 1_Wh), 0.02031, 0.02032));
constexpr pass_cost prefill = prefill_pass(dash, 1.0, 200_tok, 0_tok);
static_assert(!prefill.memory_bound());
// GEMMs 7.8 ms (the LM head for the last token only) + 0.4 ms of BF16 hidden states between kernels.
static_assert(within(ratio(prefill.time(), 1_ms), 7.7, 8.3));
constexpr joules_t total_energy = wall_energy(decode_energy + gpu_energy(seed_dashboard_gpu, prefill.time()), seed_site);
static_assert(within(ratio(total_energy, 1_Wh), 0.025, 0.026));

// S36: 1.8 TB/s (both directions) ÷ 50 GB/s (one direction of 400 Gb/s) = 36×; like for like 18×.
static_assert(scale_up_advantage_as_quoted(seed_dashboard_gpu) == 36.0);
static_assert(scale_up_advantage(seed_dashboard_gpu) == 18.0);

// T2: one stream's tokens/s ≤ HBM B/s ÷ bytes read per pass (500 tokens/s for 40 GB at 20 TB/s).
constexpr seconds_t single = decode_pass(dash, 1, 200_tok).time();
static_assert(1.0 / single.value() <= 500.0);
static_assert(within(1.0 / single.value(), 495.0, 500.0));
}  // namespace
