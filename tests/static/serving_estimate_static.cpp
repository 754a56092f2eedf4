// The one-call estimate is a constant expression: a user can pin what their plan relies on.
#include <llmcost/llmcost.hpp>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

constexpr deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
constexpr request_estimate e = estimate(d, {.input = 1000_tok, .output = 200_tok}, {.batch = 32});

static_assert(e.point.batch == 32.0);
// Decode at batch 32 is memory bound: a step is at least the weights per GPU ÷ HBM bandwidth.
static_assert(e.point.tpot >= transfer_time(e.weight_bytes_per_gpu, d.hw.gpu.hbm_bandwidth));
static_assert(e.cost_known(), "the catalog prices an H100");
// Energy per output token is board power × GPUs ÷ tokens per second (S29).
static_assert(approx_equal(e.gpu_energy_per_output_token * e.point.output_rate, d.hw.gpu.board_power * 8.0, 1e-12));
// FP8 halves the weights each GPU holds.
static_assert(approx_equal(weight_bytes_per_gpu(with_formats(d, formats::fp8, formats::fp8)) * 2.0,
                           weight_bytes_per_gpu(d), 1e-12));
}  // namespace
