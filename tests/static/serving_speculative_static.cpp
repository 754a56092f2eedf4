// Speculative decoding at compile time (ledger T4, T5, T6; calibration S03's γ = 1). Compiling this
// file is the test: every formula is constexpr, down to a whole deployment-level step.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/speculative.hpp>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

constexpr bool within(double x, double lo, double hi) { return x >= lo && x <= hi; }

// T6: E(α, γ) = 1 + α + … + α^γ, exactly where the powers of α are exact in binary.
static_assert(expected_tokens_per_pass(0.5, 3) == 1.875);   // 1 + .5 + .25 + .125
static_assert(expected_tokens_per_pass(0.75, 1) == 1.75);
static_assert(expected_tokens_per_pass(0.0, 7) == 1.0);     // nothing accepted: the target's own token
static_assert(expected_tokens_per_pass(1.0, 7) == 8.0);     // everything accepted: γ + 1
static_assert(within(expected_tokens_per_pass(0.8, 4), 3.36159, 3.36161));  // 1 + .8 + .64 + .512 + .4096
// S03: one MTP token accepted 85–90% of the time gives 1.85–1.9 tokens per pass.
static_assert(within(expected_tokens_per_pass(0.85, 1), 1.8499999, 1.8500001));
static_assert(within(expected_tokens_per_pass(0.9, 1), 1.8999999, 1.9000001));
// The inverse.
static_assert(acceptance_for_tokens_per_pass(1.75, 1) == 0.75);
static_assert(within(acceptance_for_tokens_per_pass(1.875, 3), 0.5 - 1e-12, 0.5 + 1e-12));

// One step from explicit times: γ = 3, t_step = 0.375 + 1.5 = 1.875 ms, plain 1.6 ms.
constexpr speculative_step step{.draft_tokens = 3, .draft_time = 0.375_ms, .verify_time = 1.5_ms, .plain_time = 1.6_ms};
static_assert(approx_equal(step.time(), 1.875_ms));
static_assert(approx_equal(step.plain_tokens_per_second(), 625_tok_per_s));
static_assert(approx_equal(step.tokens_per_second(0.5), 1000_tok_per_s));   // 1.875 tokens per 1.875 ms
static_assert(within(step.speedup(0.0), 0.8533, 0.8534));                   // 1.6 ÷ 1.875
// T4: 1,000 tok/s needs α = 0.5 at these times; 2,500 is out of reach (E would be 4.6875 > 4).
static_assert(within(*speculative_min_acceptance(step, 1000_tok_per_s), 0.5 - 1e-12, 0.5 + 1e-12));
static_assert(!speculative_min_acceptance(step, 2500_tok_per_s).has_value());
// T5: ~65,000 tokens (a short novel) at 1,000 tok/s is a little over a minute.
static_assert(65'000_tok / 1'000_tok_per_s == 65_s);

// The heads' extra matmuls: EAGLE's fc 2h → h with bias, DeepSeek-V3's MTP projection M (2h → h).
static_assert(eagle_draft_head(catalog::llama_3_1_8b).extra_parameters == 2LL * 4096 * 4096 + 4096);
static_assert(mtp_draft_head(catalog::deepseek_v3).extra_parameters == 2LL * 7168 * 7168);

// A whole deployment-level step is a constant expression too: DeepSeek-V3 with its MTP module on
// 8×H800 (TP 8), batch 128. Only what holds for any pass model is asserted here; the unit tests
// hold the S03 band and the physics (speedup < 1 at α = 0, < 2 at γ = 1).
constexpr deployment ds{.m = catalog::deepseek_v3, .hw = catalog::h800_sxm, .layout = {.tp = 8}};
constexpr speculative_step mtp = speculative_step_for(ds, mtp_draft_head(ds.m), 128, 4096_tok, 1);
static_assert(mtp.draft_time > 0_s && mtp.draft_time < mtp.plain_time);  // one block of 61, and the LM head
static_assert(mtp.max_speedup() > mtp.speedup(0.9) && mtp.speedup(0.9) > mtp.speedup(0.0));
static_assert(within(mtp.max_speedup() / mtp.speedup(0.0), 2.0 - 1e-12, 2.0 + 1e-12));  // E(1, 1) ÷ E(0, 1)
}  // namespace
