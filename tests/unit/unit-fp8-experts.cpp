// FP8 × FP8 expert GEMMs at an engine's own fraction of the expert size curve
// (`engine_kernels::fp8_expert_gemm`): SGLang on Blackwell's TRTLLM-Gen FP8 block-scale MoE, fitted to
// aiconfigurator's SGLang 0.5.14 MoE table on B200 (B87; docs/sglang-blackwell-dsr1-aic.md); SGLang on
// CDNA4's AITER fused MoE, fitted to AITER's tuned fused-MoE table on MI355X (docs/aiter-fused-moe.md).
// FP4 × FP4 (W4A4) expert GEMMs likewise (`engine_kernels::fp4_expert_gemm`): SGLang on CDNA4's AITER MXFP4
// fused MoE, fitted to AITER's first tuned MXFP4 DeepSeek-V3 table (docs/aiter-fused-moe.md §8).
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <limits>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment deepseek_b200(const number_format& weights, const engine_profile& e, parallel_layout l = {.tp = 8}) {
    return with_formats({.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = l, .engine = e}, weights, formats::fp8);
}

}  // namespace

TEST_CASE("fp8_expert_gemm: an FP8 expert GEMM's rate, worked by hand (B87)") {
    // B200: FP8 peak 4,500 TFLOP/s, GEMM curve e(n) = 0.6093 · n ÷ (n + 798) (tables/hardware.csv).
    // DeepSeek-V3's experts at TP8 (width 2048 ÷ 8 = 256, hidden 7,168), 8,192 tokens: 8,192 · 8 ÷ 256 =
    // 256 rows per expert; n = ∛(256 · 7,168 · 256) = ∛469,762,048 = 777.37 (777³ = 469,097,433);
    // e = 0.6093 · 777.37 ÷ 1,575.37 = 0.30066; × 0.4953 → 4,500 · 0.30066 · 0.4953 = 670.1 TFLOP/s
    // (aiconfigurator's table: 599.3, B87-tp8-8192).
    const engine_kernels& k = catalog::sglang_blackwell.kernels;
    CHECK(k.fp8_expert_gemm == 0.4953);
    CHECK(k.expert_curve_multiplier(expert_operands::fp8) == doctest::Approx(0.4953));
    CHECK(k.expert_curve_multiplier(expert_operands::other) == 1.0);
    const expert_gemm_kernel kernel{.peak = 4.5e15, .grouped_gemm = k.expert_curve_multiplier(expert_operands::fp8)};
    const double rate = expert_gemm_rate(catalog::b200_hgx.gpu.efficiency, kernel, 256.0, std::cbrt(7168.0 * 256.0));
    CHECK(rate == doctest::Approx(670.1e12).epsilon(2e-4));
}

TEST_CASE("fp8_expert_gemm on SGLang CDNA4: one AITER tuned fused-MoE row's time, worked by hand") {
    // ROCm/aiter @0f6aede14c aiter/configs/model_configs/a8w8_blockscale_tuned_fmoe_ds_v3.csv, the row cu_num
    // 256 (MI355X), token 8,192, model_dim 7,168, inter_dim 256, expert 257, topk 9, per_1x128: 1,266.73 us,
    // 640.82 TFLOP/s. Rows per expert 8,192 · 9 ÷ 257 = 286.88 (the tuner routes top-9 of 257 at random),
    // computed as 320 (whole 64-row tiles); n = ∛(320 · 7,168 · 256) = ∛587,202,560 = 837.39 (837³ =
    // 586,376,253); MI355X's curve 0.6793 · 837.39 ÷ 1,635.39 = 0.34783, × 286.88 ÷ 320 = 0.31183;
    // peak 5,000 · gemm 0.9215 = 4,607.5 TFLOP/s → 1,436.76 on the curve, × 0.4421 = 635.19 TFLOP/s.
    // FLOPs 2 · 8,192 · 9 · 3 · 7,168 · 256 = 8.1175e11 → 1,277.96 us against the table's 1,266.73 (+0.9%,
    // within the fit's residual s 0.162 ln).
    const engine_kernels& k = catalog::sglang_cdna4.kernels;
    CHECK(k.fp8_expert_gemm == 0.4421);
    CHECK(k.expert_curve_multiplier(expert_operands::fp8) == doctest::Approx(0.4421));
    CHECK(k.expert_curve_multiplier(expert_operands::other) == 1.0);
    const expert_gemm_kernel kernel{.peak = 5.0e15 * k.gemm, .grouped_gemm = k.expert_curve_multiplier(expert_operands::fp8)};
    const double rows = 8192.0 * 9.0 / 257.0;
    const double rate = expert_gemm_rate(catalog::mi355x.gpu.efficiency, kernel, rows, std::cbrt(7168.0 * 256.0));
    CHECK(rate == doctest::Approx(635.19e12).epsilon(2e-4));
    const double flops = 2.0 * 8192.0 * 9.0 * 3.0 * 7168.0 * 256.0;
    CHECK(flops / rate == doctest::Approx(1277.96e-6).epsilon(2e-4));
    CHECK(std::abs(std::log(flops / rate / 1266.7307e-6)) < 0.162);
}

TEST_CASE("fp8_expert_gemm on SGLang CDNA4: a TP8 prompt's expert GEMMs take 1 ÷ 0.4421 as long, worked by hand") {
    const deployment fp8 = with_formats({.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8},
                                         .engine = catalog::sglang_cdna4},
                                        formats::fp8, formats::fp8);
    deployment none = fp8;
    none.engine.kernels.fp8_expert_gemm = 0.0;
    // One TP rank's expert FLOPs: 2 · 7,373 · 8 · (3 · 7,168 · 2,048) · 58 ÷ 8 = 3.7666e13. Rows per expert
    // 7,373 · 8 ÷ 256 = 230.41 (every expert touched), computed as 256; expert width 2,048 ÷ 8 = 256:
    // n = ∛(256 · 7,168 · 256) = 777.37, e = 0.6793 · 777.37 ÷ 1,575.37 · (230.41 ÷ 256) = 0.30169;
    // r = 4,607.5e12 · 0.30169 = 1.3900e15 FLOP/s; F ÷ r = 27.097 ms; Δt = 27.097 · (1 ÷ 0.4421 − 1) = 34.19 ms.
    const pass_cost with = prefill_pass(fp8, 1.0, 7373_tok, 0_tok);
    const pass_cost without = prefill_pass(none, 1.0, 7373_tok, 0_tok);
    CHECK((with.matmul_compute_time - without.matmul_compute_time).value() == doctest::Approx(34.19e-3).epsilon(2e-3));
    CHECK(with.attention_time() == without.attention_time());
    CHECK(with.tp_time == without.tp_time);
    // MXFP4 experts (the MI355X MXFP4 rows) keep the curve.
    const deployment mxfp4 = with_formats(fp8, formats::mxfp4, formats::fp8);
    CHECK_FALSE(experts_fp8_weights_and_activations(mxfp4.m));
    deployment mxfp4_none = mxfp4;
    mxfp4_none.engine.kernels.fp8_expert_gemm = 0.0;
    CHECK(prefill_pass(mxfp4, 1.0, 7373_tok, 0_tok).time() == prefill_pass(mxfp4_none, 1.0, 7373_tok, 0_tok).time());
    CHECK(catalog::sglang_cdna3.kernels.fp8_expert_gemm == 0.0);
    CHECK(catalog::vllm_cdna4.kernels.fp8_expert_gemm == 0.0);
}

TEST_CASE("fp8_expert_gemm: FP8 experts' prompt step, not NVFP4's, a decode step that streams weights keeps its time") {
    const deployment fp8 = deepseek_b200(formats::fp8, catalog::sglang_blackwell);
    deployment none = fp8;
    none.engine.kernels.fp8_expert_gemm = 0.0;
    CHECK(experts_fp8_weights_and_activations(fp8.m));
    SUBCASE("a 7,373-token prompt: the expert GEMMs' time ÷ 0.4953, the rest as before") {
        const pass_cost with = prefill_pass(fp8, 1.0, 7373_tok, 0_tok);
        const pass_cost without = prefill_pass(none, 1.0, 7373_tok, 0_tok);
        // The expert FLOPs of one TP rank: 2 · 7,373 · 8 · (3 · 7,168 · 2,048) · 58 ÷ 8 = 3.7666e13 at a rate
        // r; with the multiplier they take 1 ÷ 0.4953 as long: Δt = F ÷ r · (1 ÷ 0.4953 − 1). Rows per expert
        // 7,373 · 8 ÷ 256 = 230.4 (every expert touched), computed as 256 (whole 64-row tiles): n = ∛(256 ·
        // 7,168 · 256) = 777.37, e = 0.6093 · 777.37 ÷ 1,575.37 · (230.4 ÷ 256) = 0.30066 · 0.9 = 0.27059;
        // r = 4.5e15 · 0.27059 = 1.2177e15 FLOP/s; F ÷ r = 30.932 ms; Δt = 30.932 · 1.01898 = 31.52 ms.
        CHECK((with.matmul_compute_time - without.matmul_compute_time).value() == doctest::Approx(31.52e-3).epsilon(2e-3));
        CHECK(with.attention_time() == without.attention_time());
        CHECK(with.tp_time == without.tp_time);
    }
    SUBCASE("decode at 64 sequences: the experts' weights set the GEMM time, so the step is unchanged") {
        const pass_cost with = decode_pass(fp8, 64.0, 1400_tok);
        const pass_cost without = decode_pass(none, 64.0, 1400_tok);
        CHECK(with.matmul_compute_time > without.matmul_compute_time);
        CHECK(with.matmul_memory_time > with.matmul_compute_time);
        CHECK(with.time() == without.time());
    }
    SUBCASE("NVFP4 experts, BF16 experts and other engines are not touched") {
        for (const number_format& f : {formats::nvfp4, formats::bf16}) {
            const deployment d = deepseek_b200(f, catalog::sglang_blackwell, {.tp = 8, .ep = 8});
            CHECK_FALSE(experts_fp8_weights_and_activations(d.m));
            deployment z = d;
            z.engine.kernels.fp8_expert_gemm = 0.0;
            CHECK(prefill_pass(d, 1.0, 7373_tok, 0_tok).time() == prefill_pass(z, 1.0, 7373_tok, 0_tok).time());
        }
        CHECK(catalog::trtllm_blackwell.kernels.fp8_expert_gemm == 0.0);
        CHECK(catalog::vllm_blackwell.kernels.fp8_expert_gemm == 0.0);
        CHECK(catalog::sglang_hopper.kernels.fp8_expert_gemm == 0.0);
    }
}

TEST_CASE("property: a smaller fp8_expert_gemm never shortens a step, 1 is the curve itself") {
    const deployment base = deepseek_b200(formats::fp8, engine_profile::reference());
    for (double n : {1.0, 512.0, 8192.0}) {
        CAPTURE(n);
        double previous = std::numeric_limits<double>::infinity();
        for (double g : {0.1, 0.3, 0.4953, 0.8, 1.0}) {
            deployment d = base;
            d.engine.kernels.fp8_expert_gemm = g;
            const double t = prefill_pass(d, 1.0, tokens(n), 0_tok).time().value();
            CHECK(t <= previous);
            previous = t;
        }
        deployment one = base;
        one.engine.kernels.fp8_expert_gemm = 1.0;
        CHECK(prefill_pass(one, 1.0, tokens(n), 0_tok).time() == prefill_pass(base, 1.0, tokens(n), 0_tok).time());
    }
}

TEST_CASE("fp8_expert_gemm: refusals and the table's optional column") {
    engine_profile e = catalog::sglang_blackwell;
    for (double bad : {-0.5, 1.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.fp8_expert_gemm = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.fp8_expert_gemm = "));
        CHECK(test::contains(m, "must be 0 (none) or a fraction in (0, 1] of the expert GEMMs' size curve"));
    }
    e.kernels.fp8_expert_gemm = 1.0;
    CHECK(test::validation_message(e).empty());
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,sglang,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,3.98,1,5.416,1024,24.95,0,0,2048,16384,1,16384,0.875,1,1,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.fp8_expert_gemm == 0.0);
    const std::string columns = header + ",fp8_expert_gemm,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",0.4953,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.fp8_expert_gemm == 0.4953);
    for (const char* bad : {"-1", "nan", "1.5"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "fp8_expert_gemm"));
    }
}

TEST_CASE("fp4_expert_gemm on SGLang CDNA4: AITER's tuned MXFP4 fused-MoE rows at 16,384 tokens, worked by hand") {
    // ROCm/aiter @8c5fceb424 aiter/configs/model_configs/dsv3_fp4_tuned_fmoe.csv, the two rows cu_num 256
    // (MI355X), token 16,384, model_dim 7,168, inter_dim 256, expert 257, topk 9, per_1x32 (FP4 × FP4):
    // us1 + us2 = 577.0875 + 1,446.8138 = 2,023.90 us (802.16 TFLOP/s) and 508.1467 + 1,648.605 = 2,156.75 us
    // (752.75 TFLOP/s; its `us` column reads 2,356.75, 200 us above its stages). Rows per expert 16,384 · 9 ÷ 257
    // = 573.76, computed as 576 (whole 64-row tiles); n = ∛(576 · 7,168 · 256) = ∛1,056,964,608 = 1,018.64
    // (1,018³ = 1,054,977,832, 1,019³ = 1,058,089,859); MI355X's curve 0.6793 · 1,018.64 ÷ 1,816.64 = 0.38091,
    // × 573.76 ÷ 576 = 0.37942; FP4 peak 10,000 · gemm 0.9215 = 9,215 TFLOP/s → 3,496.35 on the curve; the
    // rows' ratios 802.16 ÷ 3,496.35 = 0.22943 and 752.75 ÷ 3,496.35 = 0.21530, geometric mean 0.22225 → 0.2222;
    // × 0.2222 = 776.89 TFLOP/s. FLOPs 2 · 16,384 · 9 · 3 · 7,168 · 256 = 1.62350e12 → 2,089.74 us: +3.3% and
    // −3.1% of the two rows.
    const engine_kernels& k = catalog::sglang_cdna4.kernels;
    CHECK(k.fp4_expert_gemm == 0.2222);
    CHECK(k.expert_curve_multiplier(expert_operands::fp4) == doctest::Approx(0.2222));
    CHECK(k.expert_curve_multiplier(expert_operands::fp8) == doctest::Approx(0.4421));  // FP8 experts unchanged
    CHECK(k.expert_curve_multiplier(expert_operands::other) == 1.0);
    const double row_rates[] = {802.16e12, 752.75e12};
    const expert_gemm_kernel curve{.peak = 10.0e15 * k.gemm, .grouped_gemm = 1.0};
    const double rows = 16384.0 * 9.0 / 257.0;
    const double at_curve = expert_gemm_rate(catalog::mi355x.gpu.efficiency, curve, rows, std::cbrt(7168.0 * 256.0));
    CHECK(at_curve == doctest::Approx(3496.35e12).epsilon(2e-4));
    CHECK(std::sqrt(row_rates[0] / at_curve * (row_rates[1] / at_curve)) == doctest::Approx(0.2222).epsilon(1e-3));
    const expert_gemm_kernel kernel{.peak = 10.0e15 * k.gemm, .grouped_gemm = k.expert_curve_multiplier(expert_operands::fp4)};
    const double rate = expert_gemm_rate(catalog::mi355x.gpu.efficiency, kernel, rows, std::cbrt(7168.0 * 256.0));
    CHECK(rate == doctest::Approx(776.89e12).epsilon(2e-4));
    const double flops = 2.0 * 16384.0 * 9.0 * 3.0 * 7168.0 * 256.0;
    CHECK(flops / rate == doctest::Approx(2089.74e-6).epsilon(2e-4));
    CHECK(flops / rate / 2023.9013e-6 - 1.0 == doctest::Approx(0.0325).epsilon(0.01));
    CHECK(flops / rate / 2156.7517e-6 - 1.0 == doctest::Approx(-0.0311).epsilon(0.01));
}

TEST_CASE("fp4_expert_gemm on SGLang CDNA4: an MXFP4 TP8 prompt's expert GEMMs take 1 ÷ 0.2222 as long, worked by hand") {
    const deployment mxfp4 = with_formats({.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8},
                                           .engine = catalog::sglang_cdna4},
                                          formats::mxfp4, formats::fp8);
    CHECK(experts_fp4_weights_and_activations(mxfp4.m));
    CHECK_FALSE(experts_fp8_weights_and_activations(mxfp4.m));
    CHECK(expert_operands_of(mxfp4.m) == expert_operands::fp4);
    deployment none = mxfp4;
    none.engine.kernels.fp4_expert_gemm = 0.0;
    // One TP rank's expert FLOPs: 2 · 7,373 · 8 · (3 · 7,168 · 2,048) · 58 ÷ 8 = 3.7666e13. Rows per expert
    // 7,373 · 8 ÷ 256 = 230.41, computed as 256; n = ∛(256 · 7,168 · 256) = 777.37, e = 0.6793 · 777.37 ÷
    // 1,575.37 · (230.41 ÷ 256) = 0.30169; r = 9,215e12 · 0.30169 = 2.7801e15 FLOP/s; F ÷ r = 13.549 ms;
    // Δt = 13.549 · (1 ÷ 0.2222 − 1) = 47.43 ms.
    const pass_cost with = prefill_pass(mxfp4, 1.0, 7373_tok, 0_tok);
    const pass_cost without = prefill_pass(none, 1.0, 7373_tok, 0_tok);
    CHECK((with.matmul_compute_time - without.matmul_compute_time).value() == doctest::Approx(47.43e-3).epsilon(2e-3));
    CHECK(with.attention_time() == without.attention_time());
    CHECK(with.tp_time == without.tp_time);
    // FP8 experts on the same engine keep fp8_expert_gemm alone.
    const deployment fp8 = with_formats(mxfp4, formats::fp8, formats::fp8);
    CHECK(expert_operands_of(fp8.m) == expert_operands::fp8);
    deployment fp8_none = fp8;
    fp8_none.engine.kernels.fp4_expert_gemm = 0.0;
    CHECK(prefill_pass(fp8, 1.0, 7373_tok, 0_tok).time() == prefill_pass(fp8_none, 1.0, 7373_tok, 0_tok).time());
    // Every other engine keeps 0.
    for (const engine_profile& e : catalog::all_engines)
        if (e.name != catalog::sglang_cdna4.name) CHECK(e.kernels.fp4_expert_gemm == 0.0);
}

TEST_CASE("fp4_expert_gemm: W4A16 (mixed input) and W4A8 experts are not W4A4") {
    // gpt-oss's MXFP4 experts with BF16 activations: the mixed-input kernel (vLLM's Marlin) or, where the engine
    // quantizes the activations to FP8, W4A8 (TensorRT-LLM on Blackwell); neither takes fp4_expert_gemm.
    CHECK_FALSE(experts_fp4_weights_and_activations(catalog::gpt_oss_120b));
    CHECK(expert_operands_of(catalog::gpt_oss_120b) == expert_operands::other);
    deployment d{.m = catalog::gpt_oss_120b, .hw = catalog::mi355x, .layout = {.tp = 1}, .engine = catalog::sglang_cdna4};
    deployment none = d;
    none.engine.kernels.fp4_expert_gemm = 0.0;
    CHECK(prefill_pass(d, 1.0, 4096_tok, 0_tok).time() == prefill_pass(none, 1.0, 4096_tok, 0_tok).time());
    // A dense model has no experts.
    CHECK_FALSE(experts_fp4_weights_and_activations(with_formats({.m = catalog::llama_3_1_70b, .hw = catalog::mi355x,
                                                                  .engine = catalog::sglang_cdna4},
                                                                 formats::mxfp4, formats::fp8).m));
}

TEST_CASE("fp4_expert_gemm: refusals and the table's optional column") {
    engine_profile e = catalog::sglang_cdna4;
    for (double bad : {-0.5, 1.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.fp4_expert_gemm = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.fp4_expert_gemm = "));
        CHECK(test::contains(m, "must be 0 (none) or a fraction in (0, 1] of the expert GEMMs' size curve"));
    }
    e.kernels.fp4_expert_gemm = 1.0;
    CHECK(test::validation_message(e).empty());
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,sglang,cdna4,1,1,1,0,1,1,1,1,1,1,0,0,3.98,1,5.416,1024,24.95,0,0,2048,16384,1,16384,0.875,1,1,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.fp4_expert_gemm == 0.0);
    const std::string columns = header + ",fp4_expert_gemm,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",0.2222,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.fp4_expert_gemm == 0.2222);
    for (const char* bad : {"-1", "nan", "1.5"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "fp4_expert_gemm"));
    }
}
