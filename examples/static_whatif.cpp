// A what-if pinned at compile time: a user writes down the assumptions their plan rests on as
// `static_assert`s over llmcost's constexpr formulas. Change a descriptor (a smaller GPU, a longer
// context, another layout) and the program stops compiling at the assumption that broke, with its
// message. If it compiles, every line below held; the program prints what was checked.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <cstdio>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

// ---- my plan: a 70B model on H200 at TP 2, 32K-token conversations ----------------------------
// Try `.tp = 1`: the BF16 weights still squeeze in, but the next assertion stops the build with
// "my 70B model's KV at 32K fits H200 HBM at TP 2 (after the weights)".
constexpr deployment mine{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 2}};
constexpr tokens_t my_context = 32768_tok;

constexpr bytes_t my_kv = kv_bytes_per_gpu_for_context(mine, my_context);
constexpr bytes_t my_budget = kv_budget_per_gpu(mine);
static_assert(weights_fit(mine), "my 70B model's weights fit H200 HBM at TP 2");
static_assert(my_kv <= my_budget, "my 70B model's KV at 32K fits H200 HBM at TP 2 (after the weights)");
constexpr double my_sequences = max_sequences(mine, my_context);
static_assert(my_sequences >= 4, "at least 4 conversations of 32K fit at once per TP-2 pair");

// S14: decode at batch 1 is memory bound: intensity far below the ridge point.
constexpr pass_cost my_step = decode_pass(mine, 1, my_context);
constexpr flops_per_byte_t ridge =
    ridge_point(mine.hw.gpu.peak(mine.m.activations.compute), mine.hw.gpu.hbm_bandwidth);
static_assert(my_step.memory_bound(), "S14: decode at batch 1 is memory bound");
static_assert(my_step.arithmetic_intensity() < ridge / 10.0, "S14: ... by more than 10x");

// S13: with tensor parallelism every layer synchronises twice.
static_assert(tp_all_reduces_per_pass(mine) == 2 * 80, "S13: 160 all-reduces per token for 80 layers");

// ---- the seed's figures ----------------------------------------------------------------------
constexpr seconds_t s27 = transfer_time(40_GB, 20_TBps);
static_assert(s27 == 2_ms, "S27: 40 GB of weights at 20 TB/s is 2 ms a pass");
constexpr bytes_t s16 = kv_bytes_per_token(catalog::llama_3_1_70b) * 1_tok;
static_assert(s16 == 0.3125_MiB, "S16: 0.3125 MiB of KV per token (binary, not 0.3125 MB)");
static_assert(kv_bytes_for_context(catalog::llama_3_1_70b, 131072_tok) == 40_GiB, "S16: 40 GiB at 128K");
constexpr bytes_t s23 = kv_bytes_per_token(catalog::deepseek_v3) * 1_tok;
static_assert(s23 == 70272_B, "S23: DeepSeek-V3's latent cache is 70,272 B per token");
constexpr watts_t s10 = watts_per_transceiver(180_MW, 1e6, 6);
static_assert(approx_equal(s10, 30_W), "S10: 180 MW over 6 million transceivers is 30 W each");
static_assert(scale_up_advantage_as_quoted(catalog::gb200_nvl72) == 36.0 &&
              scale_up_advantage(catalog::gb200_nvl72) == 18.0, "S36: 36x as quoted, 18x like for like");

// ---- MoE (S20) and speculative decoding (T6) ---------------------------------------------------
constexpr deployment ds{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
static_assert(weights_fit(ds), "DeepSeek-V3 at FP8 fits one 8 x H200 node");
constexpr double read_at_1 = ratio(expert_bytes_read_per_gpu(ds, 1), expert_weight_bytes_per_gpu(ds));
constexpr double read_at_256 = ratio(expert_bytes_read_per_gpu(ds, 256), expert_weight_bytes_per_gpu(ds));
static_assert(read_at_1 < 0.05 && read_at_256 > 0.99, "S20: bytes read fall at batch 1, not at batch 256");
constexpr double t6 = expected_tokens_per_pass(0.8, 4);
static_assert(t6 > 3.36 && t6 < 3.37, "T6: alpha 0.8, gamma 4 gives 3.36 tokens per pass");
}  // namespace

int main() {
    const text::options bin{.digits = 4, .bytes = text::byte_prefix::binary};
    std::printf("Compiled, so every assumption held:\n");
    std::printf("  [mine] %s at TP %d on %s: KV at %g tokens %s per GPU <= budget %s; %g such sequences fit\n",
                mine.m.name.data(), mine.layout.tp, mine.hw.name.data(), my_context.value(),
                to_text(my_kv, bin).c_str(), to_text(my_budget, bin).c_str(), my_sequences);
    std::printf("  [S14]  decode at batch 1: %s vs ridge point %s: memory bound\n",
                to_text(my_step.arithmetic_intensity(), {.digits = 3}).c_str(), to_text(ridge, {.digits = 3}).c_str());
    std::printf("  [S13]  %d all-reduces per token\n", tp_all_reduces_per_pass(mine));
    std::printf("  [S27]  40 GB / 20 TB/s = %s\n", to_text(s27).c_str());
    std::printf("  [S16]  %g MiB (%.0f B) per token; %s at 131072 tokens\n", ratio(s16, 1_MiB), s16.value(),
                to_text(kv_bytes_for_context(catalog::llama_3_1_70b, 131072_tok), bin).c_str());
    std::printf("  [S23]  DeepSeek-V3: %.0f B per token, %.2fx less than S16\n", s23.value(), ratio(s16, s23));
    std::printf("  [S10]  %s per transceiver\n", to_text(s10).c_str());
    std::printf("  [S36]  %gx as quoted, %gx like for like\n", scale_up_advantage_as_quoted(catalog::gb200_nvl72),
                scale_up_advantage(catalog::gb200_nvl72));
    std::printf("  [S20]  DeepSeek-V3 reads %.1f%% of its resident expert bytes at 1 token, %.1f%% at 256\n",
                100 * read_at_1, 100 * read_at_256);
    std::printf("  [T6]   E(0.8, 4) = %.4f tokens per pass\n", t6);
    return 0;
}
