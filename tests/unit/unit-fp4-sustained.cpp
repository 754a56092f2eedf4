// The FP4 peak a GPU sustains on GEMMs (`achievable_fractions::fp4_sustained`, `accelerator::fp4_gemm_peak`):
// Blackwell Ultra's measured NVFP4 GEMM rate (B107, docs/blackwell-ultra-fp4.md). It slows FP4 GEMMs only.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <limits>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// B300 as the catalog has it, but at the datasheet's FP4 peak (the fraction before session 47).
hardware at_datasheet(hardware h) {
    h.gpu.efficiency.fp4_sustained = 1.0;
    return h;
}

}  // namespace

TEST_CASE("fp4_sustained: the FP4 GEMM peak by hand, the other formats' peaks the datasheet's") {
    const accelerator& b300 = catalog::b300_hgx.gpu;
    // B107: 13,125 TFLOP/s × 0.8702 = 11,421.375; GB300 15,300 × 0.7938 = 12,145.14.
    CHECK(b300.fp4_gemm_peak().value() == doctest::Approx(11421.375e12).epsilon(1e-12));
    CHECK(b300.peak(compute_class::fp4).value() == doctest::Approx(11421.375e12).epsilon(1e-12));
    CHECK(catalog::gb300_nvl72.gpu.peak(compute_class::fp4).value() == doctest::Approx(12145.14e12).epsilon(1e-12));
    CHECK(b300.dense.fp4.value() == 13125e12);  // the datasheet figure stays as printed
    CHECK(b300.peak(compute_class::fp8).value() == 4500e12);
    CHECK(b300.peak(compute_class::bf16).value() == 2250e12);
    // B200 and GB200 run at their datasheets (GB200's measured ratio, 0.9946, is within the rule's noise).
    CHECK(catalog::b200_hgx.gpu.peak(compute_class::fp4).value() == 9000e12);
    CHECK(catalog::gb200_nvl72.gpu.peak(compute_class::fp4).value() == 10000e12);
    // A GPU without FP4 units widens FP4 to its FP8 peak, which no FP4 fraction touches (and `validate` refuses one
    // other than 1 there: below).
    accelerator h100 = catalog::h100_sxm5.gpu;
    h100.efficiency.fp4_sustained = 0.5;
    CHECK(h100.peak(compute_class::fp4) == h100.dense.fp8);
}

TEST_CASE("fp4_sustained: an FP4 GEMM on B300 at 16,384³, by hand") {
    // n = ∛(16384³) = 16,384; e = 0.6093 · 16384 ÷ (16384 + 798) = 0.581002 (the Blackwell curve, B05);
    // t = 2 · 16384³ ÷ (13,125e12 · 0.8702 · 0.581002) = 8.796e12 ÷ 6.63584e15 = 1.325544 ms.
    // FP8: 2 · 16384³ ÷ (4,500e12 · 0.581002) = 3.364340 ms; BF16: 6.728680 ms, the datasheet's peaks.
    const accelerator& g = catalog::b300_hgx.gpu;
    const double n = 16384.0, flops = 2.0 * n * n * n;
    const double e = g.efficiency.matmul_at(n, n, n);
    CHECK(e == doctest::Approx(0.5810017).epsilon(1e-6));
    CHECK(flops / (g.peak(compute_class::fp4).value() * e) == doctest::Approx(1.325544e-3).epsilon(1e-6));
    CHECK(flops / (g.peak(compute_class::fp8).value() * e) == doctest::Approx(3.364340e-3).epsilon(1e-6));
    CHECK(flops / (g.peak(compute_class::bf16).value() * e) == doctest::Approx(6.728680e-3).epsilon(1e-6));
}

TEST_CASE("fp4_sustained: in a pass FP4 GEMMs slow by 1 ÷ f, and FP8, BF16, memory and attention do not move") {
    const hardware b300 = catalog::b300_hgx, datasheet = at_datasheet(catalog::b300_hgx);
    const double f = 0.8702;
    SUBCASE("FP4 weights and activations, the hardware's curve and TensorRT-LLM's") {
        for (const bool trt : {false, true}) {
            CAPTURE(trt);
            deployment now = with_formats({.m = catalog::llama_3_1_70b, .hw = b300}, formats::nvfp4, formats::fp8);
            deployment before = now;
            before.hw = datasheet;
            if (trt) now.engine = before.engine = catalog::trtllm_blackwell;
            const pass_cost a = decode_pass(before, 2048.0, 1000_tok), b = decode_pass(now, 2048.0, 1000_tok);
            CHECK(b.matmul_compute_time.value() == doctest::Approx(a.matmul_compute_time.value() / f).epsilon(1e-12));
            CHECK(b.matmul_memory_time == a.matmul_memory_time);
            CHECK(b.attention_time() == a.attention_time());
            CHECK(b.elementwise_time == a.elementwise_time);
            const pass_cost pa = prefill_pass(before, 1.0, 8192_tok, 0_tok), pb = prefill_pass(now, 1.0, 8192_tok, 0_tok);
            CHECK(pb.matmul_compute_time.value() == doctest::Approx(pa.matmul_compute_time.value() / f).epsilon(1e-12));
        }
    }
    SUBCASE("the dense GEMMs of an FP4 decode step, by hand under the hardware's curve") {
        // t = 2·b·(P − P_lm) ÷ (P_fp4 · f · e(b, ∛(k·n))) + 2·b·P_lm ÷ (P_fp4 · f · e(b, ∛(h·V))),
        // e(n) = 0.6093 · n ÷ (n + 798), P_fp4 · f = 13,125e12 · 0.8702.
        const deployment d = with_formats({.m = catalog::llama_3_1_70b, .hw = b300}, formats::nvfp4, formats::fp8);
        const pass_model pm = prepare_pass(d);
        const double rows = 2048.0, peak = 13125e12 * 0.8702;
        auto e = [&](double cbrt_k_n) { const double n = std::cbrt(rows) * cbrt_k_n; return 0.6093 * n / (n + 798.0); };
        const double expected = 2.0 * rows * (pm.non_expert_parameters - pm.lm_head) / (peak * e(pm.dense_cbrt_k_n)) +
                                2.0 * rows * pm.lm_head / (peak * e(pm.lm_head_cbrt_k_n));
        CHECK(decode_pass(d, rows, 1000_tok).matmul_compute_time.value() == doctest::Approx(expected).epsilon(1e-9));
    }
    SUBCASE("FP8 and BF16 deployments: bit for bit the datasheet's") {
        for (const number_format w : {formats::fp8, formats::bf16}) {
            CAPTURE(std::string(w.name));
            deployment now = with_formats({.m = catalog::llama_3_1_70b, .hw = b300}, w, formats::fp8);
            deployment before = now;
            before.hw = datasheet;
            const pass_cost a = decode_pass(before, 2048.0, 1000_tok), b = decode_pass(now, 2048.0, 1000_tok);
            CHECK(b.matmul_compute_time.value() == a.matmul_compute_time.value());
            CHECK(b.compute_time.value() == a.compute_time.value());
            CHECK(b.kernel_time().value() == a.kernel_time().value());
            const pass_cost pa = prefill_pass(before, 1.0, 8192_tok, 0_tok), pb = prefill_pass(now, 1.0, 8192_tok, 0_tok);
            CHECK(pb.matmul_compute_time.value() == pa.matmul_compute_time.value());
            CHECK(pb.kernel_time().value() == pa.kernel_time().value());
        }
    }
}

TEST_CASE("fp4_sustained: a fraction outside 0 < f <= 1 is refused with the field, the value and the rule") {
    for (const double bad : {0.0, -0.5, 1.2, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        CAPTURE(bad);
        hardware h = catalog::b300_hgx;
        h.gpu.efficiency.fp4_sustained = bad;
        const std::string msg = test::validation_message(h);
        REQUIRE_FALSE(msg.empty());
        CHECK(test::contains(msg, "efficiency.fp4_sustained"));
        CHECK(test::contains(msg, "(0, 1]"));
        CHECK(test::contains(msg, "B300 (HGX)"));
        if (bad == 1.2) CHECK(test::contains(msg, "1.2"));
    }
    hardware ok = catalog::b300_hgx;
    ok.gpu.efficiency.fp4_sustained = 1.0;
    CHECK(test::validation_message(ok).empty());
}

TEST_CASE("fp4_sustained: a fraction other than 1 on a GPU without FP4 units is refused with the field, the value and "
          "the rule") {
    hardware h = catalog::h100_sxm5;
    REQUIRE(h.gpu.dense.fp4.value() == 0.0);
    h.gpu.efficiency.fp4_sustained = 0.87;
    const std::string msg = test::validation_message(h);
    CHECK(test::contains(msg, "H100 SXM5: efficiency.fp4_sustained = 0.87: a sustained fraction of the FP4 peak needs FP4 "
                              "units: on a GPU without them (dense.fp4 = 0) it is 1"));
    // 1 (the datasheet's, what an empty cell gives) stays accepted there; and 0.87 on a GPU with FP4 units.
    h.gpu.efficiency.fp4_sustained = 1.0;
    CHECK(test::validation_message(h).empty());
    hardware b200 = catalog::b200_hgx;
    b200.gpu.efficiency.fp4_sustained = 0.87;
    CHECK(test::validation_message(b200).empty());
}
