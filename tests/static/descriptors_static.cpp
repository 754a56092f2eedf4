// Compile-time checks of the descriptors and catalogs, with seed ledger ids.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

namespace {
using namespace llmcost;
using namespace llmcost::literals;
using namespace llmcost::catalog;

// S16: Llama-3.1-70B KV cache at BF16 = 2 · 80 · 8 · 128 · 2 B = 327,680 B per token.
static_assert(kv_bytes_per_token(llama_3_1_70b) * 1_tok == 327'680_B);
static_assert(kv_bytes_per_token(llama_3_1_70b) * 1_tok == 0.3125_MiB);
// S16: × 131,072 tokens = 40 GiB.
static_assert(kv_bytes_for_context(llama_3_1_70b, 131'072_tok) == 40_GiB);
// S23: DeepSeek-V3 MLA at BF16 = 61 · (512 + 64) · 2 B = 70,272 B per token.
static_assert(kv_bytes_per_token(deepseek_v3) * 1_tok == 70'272_B);
static_assert(kv_elements_per_token_per_layer(deepseek_v3) == 576);
// Precision of the cache is the model's choice: FP8 halves it.
constexpr model llama_fp8_kv = [] { model m = llama_3_1_70b; m.kv_cache = formats::fp8; return m; }();
static_assert(kv_bytes_per_token(llama_fp8_kv) * 1_tok == 163'840_B);
// gpt-oss-120b: 18 of 36 layers keep only a 128-token window.
// 2 · 8 · 64 · 2 B = 2,048 B per layer-token; at 1,000 tokens: 18 · 1000 · 2048 + 18 · 128 · 2048.
static_assert(kv_bytes_for_context(gpt_oss_120b, 1'000_tok) == bytes(18.0 * 1000 * 2048 + 18.0 * 128 * 2048));
static_assert(kv_bytes_for_context(gpt_oss_120b, 100_tok) == bytes(36.0 * 100 * 2048));

// Block-scaled formats pay for their scales.
static_assert(formats::nvfp4.bits_per_element() == 4.5);   // 4 + 8/16
static_assert(formats::mxfp4.bits_per_element() == 4.25);  // 4 + 8/32
static_assert(formats::int4.bits_per_element() == 4.125);  // 4 + 16/128
static_assert(formats::fp8.bytes_for(40e9) == 40_GB);      // S27: 40B parameters at 8 bits

// Parameter counts (hand-worked for Llama-2-70B):
//   attention 8192·8192·2 + 8192·1024·2 = 150,994,944 per layer; FFN 3·8192·28672 = 704,643,072;
//   embeddings 2 · 32000 · 8192 = 524,288,000; norms 2·8192·80 + 8192 = 1,318,912.
static_assert(attention_parameters_per_layer(llama_2_70b) == 150'994'944);
static_assert(total_parameters(llama_2_70b) ==
              80LL * (150'994'944 + 704'643'072) + 524'288'000 + 1'318'912);
// S12: the public 70B has 80 layers and hidden 8192; the ~400B has 126 layers.
static_assert(llama_3_1_70b.layers == 80 && llama_3_1_70b.hidden == 8192);
static_assert(llama_3_1_405b.layers == 126);
// The dashboard model reads 40 GB per pass at FP8 (S27): 40.00004e9 matmul parameters.
static_assert(approx_equal(formats::fp8.bytes_for(double(matmul_parameters(seed_dashboard_model))), 40_GB, 1e-5));

// S7: the dashboard GPU has 288 GB in 8 stacks (36 GB a stack) and 20 TB/s; the previous
// generation 8 TB/s: 20 / 8 = 2.5 ("almost 3×").
static_assert(seed_dashboard_gpu.gpu.stack_capacity() == 36_GiB);  // vendors' HBM "GB" are binary
static_assert(ratio(seed_dashboard_gpu.gpu.hbm_bandwidth, b200_hgx.gpu.hbm_bandwidth) == 2.5);
// S8/S36: NVLink 5's 1.8 TB/s counts both directions: 900 GB/s each way.
static_assert(b200_hgx.scale_up.per_direction == 900_GBps);
static_assert(b200_hgx.scale_up.both_directions() == 1.8_TBps);
static_assert(b300_hgx.scale_out.per_direction == 100_GBps);  // 800 Gb/s NIC
// Without native FP4, FP4 operands run at the FP8 peak.
static_assert(h100_sxm5.gpu.peak(compute_class::fp4) == h100_sxm5.gpu.dense.fp8);
static_assert(b200_hgx.gpu.peak(compute_class::fp4) == 9000_TFLOPS);
// B107: Blackwell Ultra's FP4 GEMMs run at the FP4 peak it sustains, 13,125 × 0.8702 on B300; FP8 keeps the datasheet's.
static_assert(b300_hgx.gpu.peak(compute_class::fp4) == 13125_TFLOPS * 0.8702);
static_assert(b300_hgx.gpu.peak(compute_class::fp8) == 4500_TFLOPS);
static_assert(!rubin_vr200.gpu.supports(compute_class::bf16));
// S30: the seed site multiplies GPU power by 1.3 × 1.2 = 1.56.
static_assert(seed_site.power_multiplier() == 1.3 * 1.2);
}  // namespace

constexpr bool within(double v, double lo, double hi) { return v >= lo && v <= hi; }

// B04: the H100's GEMM curve e(n) = 0.7153 · n ÷ (n + 798) gives back both measured sizes:
// 32768³ → 1382.2 of 1978.9 TFLOP/s (0.698) and 8192³ → 1290.1 (0.652). GEMMs pay whole 64-row
// tiles; below 64 tokens, swapped-operand kernels pad the tokens to a multiple of 8 only.
static_assert(within(h100_sxm5.gpu.efficiency.matmul_at(32768, 32768, 32768), 0.697, 0.700));
static_assert(within(h100_sxm5.gpu.efficiency.matmul_at(8192, 8192, 8192), 0.650, 0.654));
static_assert(within(h100_sxm5.gpu.efficiency.matmul_at(65, 8192, 8192) /
                               h100_sxm5.gpu.efficiency.matmul_at(128, 8192, 8192), 65.0 / 128.0 - 1e-12, 65.0 / 128.0 + 1e-12));
// B15: MI325X's curve e(n) = 0.5975 · n ÷ (n + 1100), AMD's hipBLASLt table at 1,700 MHz, gives back
// its gate/up projection at 1,024 tokens: n = ∛(1024 · 57344 · 8192) = 7,835, e = 0.5239 (measured
// 1,408.3 of 2,614.9 = 0.5386). A run pinned at 1,500 MHz computes at 1,500 ÷ 1,700 of it (at_clock);
// GPUs whose figures state no clock are left as they are.
static_assert(within(mi325x.gpu.efficiency.matmul_at(1024, 8192, 57344), 0.5235, 0.5243));
static_assert(within(mi325x.gpu.efficiency.at_clock(1500).matmul_at(1024, 8192, 57344) /
                         mi325x.gpu.efficiency.matmul_at(1024, 8192, 57344),
                     1500.0 / 1700.0 - 1e-12, 1500.0 / 1700.0 + 1e-12));
static_assert(h100_sxm5.gpu.efficiency.at_clock(1500) == h100_sxm5.gpu.efficiency);
static_assert(within(h100_sxm5.gpu.efficiency.matmul_at(33, 8192, 8192) /
                               h100_sxm5.gpu.efficiency.matmul_at(40, 8192, 8192), 33.0 / 40.0 - 1e-12, 33.0 / 40.0 + 1e-12));
static_assert(achievable_fractions::padded_rows(8.5) == 16 && achievable_fractions::padded_rows(63.9) == 64 &&
              achievable_fractions::padded_rows(0.25) == 8 && achievable_fractions::padded_rows(4096.5) == 4160);
static_assert(achievable_fractions::padded_rows(1) == 8 && achievable_fractions::padded_rows(64) == 64 &&
              achievable_fractions::padded_rows(65) == 128);
// The ideal machine has no size effect.
static_assert(seed_dashboard_gpu.gpu.efficiency.matmul_at(1, 1, 1) == 1.0);
static_assert(detail::const_cbrt(27.0) == 3.0 && detail::const_cbrt(0.0) == 0.0);

// An exact divisor multiplies only by a power of two's reciprocal, and gives ÷'s bits: 1 ÷ 3 is not exact (3 keeps
// dividing); 1e300 ÷ 2^1022 is a normal result, 1e-300 ÷ 2^60 a subnormal one; 2^1023's reciprocal is subnormal (refused).
static_assert(detail::divisor(8.0).exact_inverse == 0.125 && detail::divisor(1.0).exact_inverse == 1.0);
static_assert(detail::divisor(3.0).exact_inverse == 0.0 && detail::divisor(6.0).exact_inverse == 0.0);
static_assert(detail::divisor(0.0).exact_inverse == 0.0 && detail::divisor(-4.0).exact_inverse == 0.0);
static_assert(detail::divisor(0x1p1023).exact_inverse == 0.0 && detail::divisor(0x1p1022).exact_inverse == 0x1p-1022);
static_assert(1.0 / detail::divisor(3.0) == 1.0 / 3.0 && 7.0 / detail::divisor(6.0) == 7.0 / 6.0);
static_assert(0.1 / detail::divisor(8.0) == 0.1 / 8.0 && 1e300 / detail::divisor(0x1p1022) == 1e300 / 0x1p1022);
static_assert(1e-300 / detail::divisor(0x1p60) == 1e-300 / 0x1p60 && 1e-300 / detail::divisor(0x1p60) > 0.0);
// ⌊x⌋ toward zero and ⌈x⌉ without an integer register: whole, halves, the edges of 2^52, signs.
static_assert(detail::const_trunc(2.5) == 2.0 && detail::const_trunc(3.5) == 3.0 && detail::const_trunc(2.0) == 2.0 &&
              detail::const_trunc(0.999999) == 0.0 && detail::const_trunc(-2.5) == -2.0 &&
              detail::const_trunc(-0.7) == 0.0 && detail::const_trunc(4503599627370495.5) == 4503599627370495.0 &&
              detail::const_trunc(-4503599627370495.5) == -4503599627370495.0 &&
              detail::const_trunc(9007199254740993.0) == 9007199254740993.0);
static_assert(detail::const_ceil(64.0) == 64.0 && detail::const_ceil(64.0000001) == 65.0 && detail::const_ceil(0.5) == 1.0 &&
              detail::const_ceil(0.0) == 0.0 && detail::const_ceil(1e-300) == 1.0);
// The tabulated ∛ is a cache of const_cbrt: the same bits in the table (multiples of 8 up to
// 8,192), at its edge and past it, and for values that are not multiples of 8.
constexpr bool table_matches_const_cbrt() {
    for (double x = 0.0; x <= 8200.0; x += 1.0)
        if (detail::cbrt_tabulated(x) != detail::const_cbrt(x)) return false;
    return detail::cbrt_tabulated(1e6) == detail::const_cbrt(1e6) && detail::cbrt_tabulated(-8.0) == 0.0 &&
           detail::cbrt_tabulated(8.5) == detail::const_cbrt(8.5);
}
static_assert(table_matches_const_cbrt());
static_assert(detail::cbrt_tabulated(64.0) == 4.0 && detail::cbrt_tabulated(8192.0) == detail::const_cbrt(8192.0));
// ∛(padded·k·n) as ∛padded · ∛(k·n): within a few ulp of the single root (2^-50 relative).
constexpr bool split_root_close(double m, double k, double n) {
    const double one = detail::const_cbrt(achievable_fractions::padded_rows(m) * k * n);
    const double two = detail::const_cbrt(achievable_fractions::padded_rows(m)) * detail::const_cbrt(k * n);
    return within(two / one, 1.0 - 0x1p-50, 1.0 + 0x1p-50);
}
static_assert(split_root_close(1, 8192, 1024) && split_root_close(1000, 8192, 3584) && split_root_close(20000, 7168, 16160));

// A layout from a GPU count: dp = gpus ÷ (tp·pp), at compile time (a mismatch would not compile).
static_assert(layout_for_gpus({.gpus = 64, .tp = 8, .pp = 2}).dp == 4);
static_assert(layout_for_gpus({.gpus = 8, .ep = 8, .dp = 8}).gpus() == 8);

// Per-layer patterns are constexpr: the period repeats over the layers (Gemma 3: 62 = 10 × "WWWWWF" + "WW").
static_assert(catalog::gemma_3_27b.count_layers() == model::layer_counts{.full = 10, .window = 52});
static_assert(catalog::gemma_3_27b.kind_of_layer(5) == layer_kind::full &&
              catalog::gemma_3_27b.kind_of_layer(61) == layer_kind::window);
static_assert(catalog::nemotron_h_8b.count_layers() == model::layer_counts{.full = 4, .state = 24, .ffn_only = 24});
// KV per token counts the attention layers only (Nemotron-H: 4 of 52 blocks, 2·8·128·2 B each).
static_assert(kv_bytes_per_token(catalog::nemotron_h_8b) == 16'384_B / 1_tok);
// A window holds min(L, W) tokens: gpt-oss-20b at 131,072 tokens is 12 full and 12 windowed layers of 2,048 B.
static_assert(kv_bytes_for_context(catalog::gpt_oss_20b, 131'072_tok) == 2048_B * (12.0 * 131'072 + 12.0 * 128));
// The older form (sliding_window_layers) and a pattern count the same: gpt-oss as "WF".
constexpr model gpt_oss_20b_as_pattern() {
    model m = catalog::gpt_oss_20b;
    m.attention.sliding_window_layers = 0;
    m.pattern.kinds = "WF";
    return m;
}
static_assert(gpt_oss_20b_as_pattern().count_layers() == catalog::gpt_oss_20b.count_layers());
static_assert(kv_bytes_for_context(gpt_oss_20b_as_pattern(), 50'000_tok) ==
              kv_bytes_for_context(catalog::gpt_oss_20b, 50'000_tok));

// The KV pool by the engine's rule (docs/kv-pool.md), at compile time. The reference engine keeps the
// library's reserve: the same bytes as a user's fraction 0.05.
namespace kv_pool_static {
constexpr deployment ref{.m = llama_3_1_8b, .hw = h100_sxm5};
static_assert(kv_budget_per_gpu(ref) == kv_budget_per_gpu(ref, {.fraction = 0.05}));
static_assert(kv_pool_per_gpu(ref).rule == kv_pool_rule::share_of_total);
// SGLang at 0.82: f·(H − R) − W, H the runtime's 143,071.875 MiB, R the engine's 2,175 MiB resident at init, and a user's
// reserve wins (share_of_total).
constexpr deployment sg = [] {
    deployment d{.m = deepseek_v3, .hw = h200_sxm, .layout = {.tp = 8}, .engine = sglang_hopper};
    d.engine.scheduler.kv_memory_fraction = 0.82;
    return d;
}();
static_assert(h200_sxm.gpu.runtime_hbm() == bytes(150'021'734'400.0));
static_assert(sglang_hopper.scheduler.init_resident == 2'175_MiB);
static_assert(kv_budget_per_gpu(sg) == (mebibytes(143'071.875) - 2'175_MiB) * 0.82 - weight_bytes_per_gpu(sg));
static_assert(kv_pool_per_gpu(sg, {.fraction = 0.05}).rule == kv_pool_rule::share_of_total);
// TensorRT-LLM: f·(H − X − W) with X its non-KV memory at 8,192 tokens per step: activations
// 2 · 8,192 · 4,096 · 11 = 738,197,504 B, NCCL at TP1 0, runtime 3.5 GiB = 3,758,096,384 B.
constexpr deployment trt{.m = llama_3_1_8b, .hw = h100_sxm5, .engine = trtllm_hopper};
static_assert(engine_non_kv_per_gpu(trt).activations.value() == 738'197'504.0);
static_assert(engine_non_kv_per_gpu(trt).total().value() == 738'197'504.0 + 3'758'096'384.0);
// H the H100's runtime total, 81,105.6875 MiB = 85,045,477,376 B (deviceQuery, hardware.csv runtime_capacity_MiB).
static_assert(h100_sxm5.gpu.runtime_hbm() == bytes(85'045'477'376.0));
static_assert(kv_budget_per_gpu(trt) ==
              (bytes(85'045'477'376.0) - engine_non_kv_per_gpu(trt).total() - weight_bytes_per_gpu(trt)) * 0.9);
// The step budget: 2,048 tokens a step leave a larger pool than the engine's 8,192.
static_assert(kv_budget_per_gpu(trt, {.step_tokens = 2'048_tok}) > kv_budget_per_gpu(trt));
// An engine without the figures keeps the flat 2 GB (AMD's profiles).
static_assert(engine_non_kv_per_gpu(deployment{.m = llama_3_1_8b, .hw = mi300x, .engine = vllm_cdna3}).total() == 2_GB);
// A launch's own fraction (`with_kv_memory_fraction`, as --kv-memory-fraction sets it): the reference engine at
// f = 0.7 is 0.7 · H − 2 GB − W, exactly the user's reserve of fraction 1 − f = 0.3 (its generic rule, the same
// shape; 0.7 against 0.3, so a swapped f and 1 − f would fail).
constexpr deployment ref_seven{.m = llama_3_1_8b, .hw = h100_sxm5, .engine = with_kv_memory_fraction(engine_profile::reference(), 0.7)};
static_assert(ref_seven.engine.scheduler.kv_memory_fraction == 0.7);
static_assert(kv_budget_per_gpu(ref_seven) == kv_budget_per_gpu(ref, {.fraction = 0.3}));
static_assert(kv_budget_per_gpu(ref_seven) != kv_budget_per_gpu(ref, {.fraction = 0.7}));
static_assert(kv_budget_per_gpu(ref_seven) < kv_budget_per_gpu(ref));
}  // namespace kv_pool_static
