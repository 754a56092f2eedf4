// The MoE's token exchange under attention data parallelism: TensorRT-LLM all-gathers and
// reduce-scatters where its expert-parallel group has no more ranks than the model's top-k, and runs
// its all-to-all above (costs/moe.hpp `moe_gathers_tokens`; docs/trtllm-moe-comm.md).
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <limits>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

deployment gpt_oss(int ep, const engine_profile& e = catalog::trtllm_blackwell) {
    deployment d{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx, .layout = {.tp = 1, .ep = ep, .dp = ep}, .engine = e};
    d.validate();
    return d;
}
}  // namespace

// The rule at compile time: EP2 and EP4 of gpt-oss (top-4) gather, EP8 runs the all-to-all; attention
// tensor-parallel (dp 1) runs neither; an engine without the rule keeps its all-to-all.
static_assert(moe_gathers_tokens(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx,
                                            .layout = {.tp = 1, .ep = 4, .dp = 4}, .engine = catalog::trtllm_blackwell}));
static_assert(!moe_gathers_tokens(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx,
                                             .layout = {.tp = 1, .ep = 8, .dp = 8}, .engine = catalog::trtllm_blackwell}));
static_assert(!moe_gathers_tokens(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx,
                                             .layout = {.tp = 4, .ep = 4}, .engine = catalog::trtllm_blackwell}));
static_assert(!moe_gathers_tokens(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx,
                                             .layout = {.tp = 1, .ep = 2, .dp = 2}, .engine = catalog::sglang_blackwell}));
// The gate is the expert-parallel degree (TensorRT-LLM's moe_ep_size), not the MoE ranks: EP4 over DP8
// (each expert split over 2 ranks) gathers; EP8 over DP8 does not.
static_assert(moe_gathers_tokens(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx,
                                            .layout = {.tp = 1, .ep = 4, .dp = 8}, .engine = catalog::trtllm_blackwell}));

TEST_CASE("gpt-oss-120b EP2 over DP2 on TensorRT-LLM: one layer's all-gather and reduce-scatter by hand") {
    const deployment d = gpt_oss(2);
    REQUIRE(moe_gathers_tokens(d));
    // W4A8: the MXFP4 experts' activations go out as MXFP8, 8 + 8/32 = 8.25 bits an element.
    CHECK(moe_gather_bits(d) == doctest::Approx(8.25).epsilon(1e-15));
    // 32 tokens a rank, 2 ranks: the all-gather's result is 64 tokens × (2,880 × 8.25/8 B + 4 × (4 + 2) B
    // of expert ids and weights) = 64 × 2,994 = 191,616 B; the reduce-scatter's 64 × 2,880 × 2 B (BF16
    // outputs) = 368,640 B. Each: a(2) = 8.836 + 1.254 × 1 = 10.090 µs, plus 1/2 of it ÷ 428.8 GB/s:
    // 10.090 + 0.223433 = 10.313433 µs and 10.090 + 0.429851 = 10.519851 µs; 20.833284 µs a layer,
    // × 36 MoE layers = 749.998 µs.
    CHECK(gather_scatter_time_per_pass(d, 32.0).value() == doctest::Approx(749.998e-6).epsilon(1e-6));
    // In place of the all-to-all, not beside it.
    CHECK(all_to_all_time_per_pass(d, 32.0).value() == 0.0);
    // The decode pass carries it as its expert-parallel communication (no busiest-rank factor: every
    // rank receives every token). Under attention DP the ranks pad to the busiest one's tokens, 32 ÷ β =
    // 32 ÷ 0.877 = 36.488 a rank, so the bytes grow by 1/β and the fixed time does not: 36 × (2 × 10.090
    // + (0.223433 + 0.429851) ÷ 0.877) µs = 36 × (20.180 + 0.744907) = 753.297 µs, not 749.998 ÷ 0.877.
    REQUIRE(catalog::trtllm_blackwell.moe.attention_dp_balance == 0.877);
    const auto p = decode_pass(d, 32.0, 1000_tok);
    CHECK(p.ep_time.value() == doctest::Approx(753.297e-6).epsilon(1e-5));
}

TEST_CASE("above top-k ranks, and on engines without the rule, the all-to-all stays") {
    // gpt-oss EP8 (8 > top-4) on TensorRT-LLM: the all-to-all, no gather.
    const deployment ep8 = gpt_oss(8);
    CHECK(gather_scatter_time_per_pass(ep8, 32.0).value() == 0.0);
    CHECK(all_to_all_time_per_pass(ep8, 32.0).value() > 0.0);
    // SGLang on Blackwell at EP2: its all-to-all, as before.
    const deployment sglang = gpt_oss(2, catalog::sglang_blackwell);
    CHECK(gather_scatter_time_per_pass(sglang, 32.0).value() == 0.0);
    CHECK(all_to_all_time_per_pass(sglang, 32.0).value() > 0.0);
    // Every profile but TensorRT-LLM on Blackwell leaves the rule off.
    for (const engine_profile& e : catalog::all_engines)
        CHECK(e.collectives.gather_up_to_top_k == (e.name == catalog::trtllm_blackwell.name));
}

TEST_CASE("DeepSeek-V3 EP8 over TP4 x DP2 on TensorRT-LLM gathers (8 ranks, top-8), hand-worked") {
    const deployment d{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 4, .ep = 8, .dp = 2},
                       .engine = catalog::trtllm_blackwell};
    REQUIRE(moe_gathers_tokens(d));
    // FP8 activations (8 bits), 4 tokens a rank over 8 ranks ÷ TP 4 = 8 tokens: all-gather 8 × (7,168 + 8 × 6)
    // = 57,728 B; reduce-scatter 8 × 7,168 × 2 = 114,688 B. a(8) = 8.836 + 1.254 × 7 = 17.614 µs;
    // + 7/8 × S ÷ 428.8 GB/s: 17.731799 and 17.848030 µs; × 58 MoE layers = 2.063630 ms.
    CHECK(moe_gather_bits(d) == 8.0);
    CHECK(gather_scatter_time_per_pass(d, 4.0).value() == doctest::Approx(2.063630e-3).epsilon(1e-6));
    // The same served in FP4 (the MLPerf rows' checkpoint): the hidden states go out as NVFP4, 4 bits +
    // an 8-bit scale per 16 = 4.5 bits; the all-gather carries 8 × (7,168 × 4.5/8 + 48) = 8 × 4,080 =
    // 32,640 B: 17.614 + 7/8 × 32,640 ÷ 428.8 GB/s = 17.680604 µs, + 17.848030 µs, × 58 = 2.060661 ms.
    const deployment fp4 = with_formats(d, formats::fp4, formats::fp8);
    CHECK(moe_gather_bits(fp4) == 4.5);
    CHECK(gather_scatter_time_per_pass(fp4, 4.0).value() == doctest::Approx(2.060661e-3).epsilon(1e-6));
    // EP16 (16 > 8) over two domains: the all-to-all on the NIC.
    const deployment wide{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 1, .ep = 16, .dp = 16},
                          .engine = catalog::trtllm_blackwell};
    CHECK(!moe_gathers_tokens(wide));
    CHECK(all_to_all_time_per_pass(wide, 4.0).value() > 0.0);
}

TEST_CASE("the all-to-all's dispatch moves the quantized input, its combine the residual format: by hand") {
    // A small MoE on a test link: DeepSeek-V3's 58 MoE layers with h = 1,000 and top-2, FP8 activations
    // (BF16 residual), EP4 over DP4, a link of α = 10 µs and 100 GB/s a direction, no engine floor.
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 1, .ep = 4, .dp = 4}};
    d.m.hidden = 1000;
    d.m.ffn.top_k = 2;
    d.m.activations = formats::fp8;
    d.hw.scale_up = interconnect{.name = "test link", .per_direction = bytes_per_second(100e9), .latency = seconds(10e-6)};
    d.engine.collectives.all_to_all_latency = seconds(0.0);
    REQUIRE(!moe_gathers_tokens(d));
    REQUIRE(d.m.moe_layers() == 58);
    CHECK(all_to_all_bits(d, all_to_all_phase::dispatch) == 8.0);
    CHECK(all_to_all_bits(d, all_to_all_phase::combine) == 16.0);
    // 5 tokens a rank: dispatch 5 × 2 × 1,000 × 1 B = 10,000 B, combine 5 × 2 × 1,000 × 2 B = 20,000 B.
    CHECK(all_to_all_bytes_per_layer(d, 5.0).value() == 10000.0);
    CHECK(all_to_all_bytes_per_layer(d, 5.0, all_to_all_phase::combine).value() == 20000.0);
    // Each phase 10 µs + 3/4 × S ÷ 100 GB/s: 10.075 µs and 10.150 µs, 20.225 µs a layer, × 58 = 1,173.05 µs
    // (both phases at the dispatch's 8 bits would be 58 × 2 × 10.075 = 1,168.70 µs).
    CHECK(all_to_all_time_per_pass(d, 5.0).value() == doctest::Approx(1173.05e-6).epsilon(1e-12));
    // W4A8 experts on an engine that quantizes their input to MXFP8 (gpt-oss on TensorRT-LLM, EP8): the
    // dispatch at the gather's 8.25 bits, the combine at BF16's 16.
    const deployment w4a8 = gpt_oss(8);
    REQUIRE(expert_activations_quantized_to_fp8(w4a8));
    CHECK(all_to_all_bits(w4a8, all_to_all_phase::dispatch) == doctest::Approx(8.25).epsilon(1e-15));
    CHECK(all_to_all_bits(w4a8, all_to_all_phase::combine) == 16.0);
    // NVFP4 activations: 4.5 bits out, 16 back.
    const deployment fp4 = with_formats(d, formats::fp4, formats::fp8);
    CHECK(all_to_all_bits(fp4, all_to_all_phase::dispatch) == 4.5);
    CHECK(all_to_all_bits(fp4, all_to_all_phase::combine) == 16.0);
}

TEST_CASE("property: the combine takes no less than the dispatch where the residual is no narrower") {
    const model models[] = {catalog::deepseek_v3, catalog::gpt_oss_120b, catalog::qwen3_235b_a22b};
    const hardware gpus[] = {catalog::b200_hgx, catalog::h800_sxm};
    for (const model& base : models)
        for (const number_format act : {formats::bf16, formats::fp8, formats::fp4})
            for (const hardware& hw : gpus)
                for (const engine_profile& e : catalog::all_engines)
                    for (const int n : {2, 8, 16, 32})
                        for (const double t : {1.0, 7.0, 64.0, 512.0}) {
                            deployment d{.m = base, .hw = hw, .layout = {.tp = 1, .ep = n, .dp = n}, .engine = e};
                            d.m.activations = act;
                            if (moe_gathers_tokens(d)) continue;
                            const double bd = all_to_all_bits(d, all_to_all_phase::dispatch);
                            const double bc = all_to_all_bits(d, all_to_all_phase::combine);
                            CAPTURE(base.name);
                            CAPTURE(act.name);
                            CAPTURE(e.name);
                            CAPTURE(n);
                            CAPTURE(t);
                            REQUIRE(bc >= bd);  // every format here quantizes on the way in only
                            const bytes_t sd = all_to_all_bytes_per_layer(d, t);
                            const bytes_t sc = all_to_all_bytes_per_layer(d, t, all_to_all_phase::combine);
                            CHECK(sc >= sd);
                            CHECK(sc.value() == doctest::Approx(sd.value() * bc / bd).epsilon(1e-12));
                            // The pass lies between both phases at the dispatch's bytes and both at the combine's.
                            hardware h = hw;
                            if (e.collectives.all_to_all_latency.value() > 0.0)
                                h.scale_up.latency = h.scale_out.latency = e.collectives.all_to_all_latency;
                            const double td = all_to_all_time(sd, n, h).value(), tc = all_to_all_time(sc, n, h).value();
                            CHECK(tc >= td);
                            const double layers = d.m.moe_layers(), pass = all_to_all_time_per_pass(d, t).value();
                            CHECK(pass >= 2.0 * layers * td * (1.0 - 1e-12));
                            CHECK(pass <= 2.0 * layers * tc * (1.0 + 1e-12));
                            CHECK(pass == doctest::Approx(layers * (td + tc)).epsilon(1e-12));
                        }
}

TEST_CASE("without the library fit, or past the scale-up domain, the gather is the link's ring") {
    deployment d = gpt_oss(2);
    d.engine.collectives.gather_latency = seconds(0.0);
    d.engine.collectives.gather_latency_per_rank = seconds(0.0);
    d.engine.collectives.gather_bus = bytes_per_second(0.0);
    // NVLink 5 on B200 (HGX): α 3.7 µs, 900 GB/s a direction. Ring over 2 ranks: 1 × 3.7 µs + 1/2 × S ÷ 900 GB/s:
    // 3.7 + 0.106453 = 3.806453 µs and 3.7 + 0.204800 = 3.904800 µs; × 36 = 277.605 µs.
    REQUIRE(d.hw.scale_up.latency.value() == doctest::Approx(3.7e-6));
    REQUIRE(d.hw.scale_up.per_direction.value() == doctest::Approx(900e9));
    CHECK(gather_scatter_time_per_pass(d, 32.0).value() == doctest::Approx(277.605e-6).epsilon(1e-5));
}

TEST_CASE("the gather's figures are checked: field, value and rule") {
    engine_profile e = catalog::trtllm_blackwell;
    e.collectives.gather_bus = bytes_per_second(0.0);
    CHECK(has(test::validation_message(e), "collectives.gather_bus (B/s)"));
    CHECK(has(test::validation_message(e), "needs a fixed time (a0 or a1 above 0) and its bus bandwidth"));
    // A fixed time per rank alone, without a bus bandwidth, is half a fit: refused, not ignored.
    e = catalog::trtllm_hopper;
    e.collectives.gather_latency_per_rank = microseconds(1.254);
    CHECK(has(test::validation_message(e), "needs a fixed time (a0 or a1 above 0) and its bus bandwidth"));
    // a0 = 0 with a1 and a bus bandwidth is a whole fit (a(n) = a1 (n - 1)).
    e.collectives.gather_bus = gigabytes_per_second(428.8);
    CHECK(test::validation_message(e).empty());
    e = catalog::trtllm_blackwell;
    e.collectives.gather_latency_per_rank = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(has(test::validation_message(e), "collectives.gather_latency_per_rank (s) = nan"));
    e = catalog::trtllm_blackwell;
    e.collectives.gather_bus = bytes_per_second(-1.0);
    CHECK(has(test::validation_message(e), "a bus bandwidth must be zero"));
}

TEST_CASE("the engine table's gather columns: optional, and a bad flag names its column") {
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,256,8192,1,8192,0.9,16,0,0,0,0,0,1,0,0";
    // Without the columns: the rule is off.
    const auto plain = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "mine.csv");
    REQUIRE(plain.size() == 1);
    CHECK(!plain[0].collectives.gather_up_to_top_k);
    CHECK(plain[0].collectives.gather_bus.value() == 0.0);
    // With them: read; a flag of 2 names its column and the rule.
    const std::string gather = header + ",moe_gather_up_to_top_k,gather_latency_us,gather_step_us,gather_bus_GBps,source\n";
    const auto mine = io::parse_engines_csv(gather + row + ",1,8.836,1.254,428.8,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].collectives.gather_up_to_top_k);
    CHECK(mine[0].collectives.gather_fixed(8).value() == doctest::Approx(17.614e-6).epsilon(1e-12));
    const std::string bad = test::message_of([&] { return io::parse_engines_csv(gather + row + ",2,8.836,1.254,428.8,my runs\n", "mine.csv"); });
    CHECK(has(bad, "mine.csv:2"));
    CHECK(has(bad, "moe_gather_up_to_top_k"));
    CHECK(has(bad, "0 or 1"));
    const std::string half = test::message_of([&] { return io::parse_engines_csv(gather + row + ",1,8.836,1.254,0,my runs\n", "mine.csv"); });
    CHECK(has(half, "gather_bus_GBps"));
}
