// The one-call estimate is a constant expression: a user can pin what their plan relies on.
#include <llmcost/catalog.hpp>
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

// Prompts ride whole by default (TensorRT-LLM) or in equal chunks: 1000 tokens in chunks of at
// most 300 are 4 chunks of 250, priced at the mean prefix (0 + 250 + 500 + 750) ÷ 4 = 375.
constexpr request_shape r{.input = 1000_tok, .output = 200_tok};
static_assert(split_prompt(r, 300_tok).count == 4 && split_prompt(r, 300_tok).tokens == 250_tok &&
              split_prompt(r, 300_tok).prefix == 375_tok);
static_assert(split_prompt(r, 0_tok).count == 1 && split_prompt(r, 0_tok).tokens == 1000_tok);
// Chunks shorten the step that carries a prompt, so they lengthen my TTFT (four steps) but
// never the longest gap between two of a neighbour's tokens.
constexpr serving_point whole = serve_at_batch(d, r, 32);
constexpr serving_point chunked = serve_at_batch(d, r, 32, {.prefill_chunk = 300_tok});
static_assert(chunked.ttft > whole.ttft);
static_assert(step_pass(d, {.decode_sequences = 32, .decode_context = 1100_tok, .prefill_sequences = 1,
                            .prefill_tokens = 250_tok, .prefill_prefix = 375_tok}).time() <
              step_pass(d, {.decode_sequences = 32, .decode_context = 1100_tok, .prefill_sequences = 1,
                            .prefill_tokens = 1000_tok}).time());
// The mean wait for the step in flight is at least half a mean step (E[t²] ≥ E[t]²).
static_assert(whole.residual >= whole.step_time / 2.0 && chunked.residual >= chunked.step_time / 2.0);
}  // namespace

// S14 by kernel class: at batch 1 a decode step's GEMMs stream weights (memory-bound), and the
// breakdown of a pass is available at compile time.
static_assert(llmcost::explain(llmcost::decode_pass({.m = llmcost::catalog::llama_3_1_70b, .hw = llmcost::catalog::h100_sxm5,
                                                     .layout = {.tp = 8}},
                                                    1, llmcost::tokens(1000.0)))[0].limited_by == llmcost::bound_by::memory);
