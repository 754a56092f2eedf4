// The edges of scale the hardening issue names: 10^7 GPUs, 10^8-token contexts, 10^13-parameter
// models compute correctly (checked against hand arithmetic), and sizes past what 64-bit counts
// hold are refused with the rule, never a wrapped integer.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

using namespace llmcost;
using namespace llmcost::literals;

TEST_CASE("scale: a 10^13-parameter dense model is counted exactly") {
    // 1,000 layers, hidden 65,536, MHA with 512 heads of 128, FFN 262,144 (gated), vocab 256,000:
    // per layer 4h² (attention) + 3·h·I (FFN); plus the embedding and the LM head.
    model m = catalog::llama_3_1_8b;
    m.name = "huge";
    m.layers = 1000;
    m.hidden = 65536;
    m.vocab = 256000;
    m.attention = {.query_heads = 512, .kv_heads = 512, .head_dim = 128};
    m.ffn = {.intermediate = 262144};
    m.validate();
    const double h = 65536, per_layer = 4.0 * h * h + 3.0 * h * 262144 + 2.0 * h;  // + two RMSNorms
    const double expected = 1000 * per_layer + 2.0 * 256000 * h + h;              // + final norm
    CHECK(static_cast<double>(total_parameters(m)) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(static_cast<double>(total_parameters(m)) > 6.8e13);  // 6.9 × 10^13
    // Its weights need 10^14 bytes in BF16: 8,192 GPUs of 141 GiB at TP 8 and PP 1,000 pipeline stages.
    const deployment d{.m = m, .hw = catalog::h200_sxm, .layout = {.tp = 8, .pp = 1000}};
    CHECK(weight_bytes_per_gpu(d).value() == doctest::Approx(2.0 * expected / 8000).epsilon(1e-9));
}

TEST_CASE("scale: 10^7 GPUs as independent replicas keep every per-GPU figure") {
    const deployment one{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    deployment many = one;
    many.layout.dp = 10'000'000;
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const serving_point a = serve_at_batch(one, r, 32), b = serve_at_batch(many, r, 32);
    CHECK(b.output_rate.value() == doctest::Approx(a.output_rate.value() * 1e7).epsilon(1e-12));
    CHECK(b.output_rate_per_gpu.value() == doctest::Approx(a.output_rate_per_gpu.value()).epsilon(1e-12));
    // Optics for 10^7 GPUs (S10 at ten times the seed's cluster): transceivers × W, no overflow.
    CHECK(transceiver_power(catalog::h100_sxm5, 1e7).value() ==
          doctest::Approx(1e7 * catalog::h100_sxm5.transceivers_per_gpu * catalog::h100_sxm5.transceiver_power.value()));
}

TEST_CASE("scale: a layout whose GPU count would wrap an int is refused") {
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.tp = 8, .pp = 32, .dp = 2'000'000'000}};
    CHECK(test::contains(test::validation_message(d), "layout.tp × pp × dp = 5.12e+11: more than 10^9 GPUs"));
}

TEST_CASE("scale: a 10^8-token context") {
    // S16 at 10^8 tokens: 327,680 B per token = 32.768 TB for one sequence of Llama-3.1-70B.
    CHECK(kv_bytes_for_context(catalog::llama_3_1_70b, tokens(1e8)).value() == doctest::Approx(327680.0 * 1e8));
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const spill_placement p = place_kv(d, kv_bytes_per_gpu_for_context(d, tokens(1e8)));
    // 4.1 TB per GPU: HBM and host DRAM overflow into NVMe, placed tier by tier, not wrapped.
    CHECK(p.in_storage.value() > 3e12);
    CHECK(p.in_hbm.value() + p.in_host.value() + p.in_storage.value() + p.overflow.value() ==
          doctest::Approx(327680.0 * 1e8 / 8));
    // A decode step at that context is finite and dominated by the KV read.
    const pass_cost step = decode_pass(d, 1.0, tokens(1e8));
    CHECK(std::isfinite(step.time().value()));
    CHECK(step.attention_memory_time > step.matmul_time());
}

TEST_CASE("scale: sizes whose parameter counts would overflow are refused") {
    model m = catalog::llama_3_1_8b;
    m.name = "absurd";
    m.hidden = 2'000'000'000;
    m.attention = {.query_heads = 2'000'000'000, .kv_heads = 2'000'000'000, .head_dim = 1};
    const std::string msg = test::validation_message(m);
    INFO(msg);
    CHECK(test::contains(msg, "parameters (estimated)"));
    CHECK(test::contains(msg, "more than 10^17 parameters"));
}
