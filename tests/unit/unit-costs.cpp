// Core cost model: hand-worked expectations for each formula, property tests, and the cross-check
// against the peer tools of ../shared/reference/FINDINGS.md.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
// A link of 100 GB/s per direction and 1 µs latency makes the α–β arithmetic easy to check by hand.
constexpr interconnect test_link{.name = "test", .per_direction = 100_GBps, .latency = 1_us};

deployment llama2_70b_tp8_fp16(bool ideal = true) {
    deployment d{.m = catalog::llama_2_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    d.m.weights = d.m.kv_cache = d.m.activations = formats::fp16;
    if (ideal) d.hw.gpu.efficiency = {1.0, 1.0};
    d.validate();
    return d;
}
}  // namespace

TEST_CASE("collectives in the alpha-beta model") {
    // 8 ranks, 1 GB: ring all-reduce = 14 · 1 µs + 2 · 7/8 · 1 GB ÷ 100 GB/s = 14 µs + 17.5 ms.
    CHECK(all_reduce_time(1_GB, 8, test_link).value() == doctest::Approx(14e-6 + 17.5e-3));
    // Tree: 2 · ⌈log₂ 8⌉ = 6 steps; two-shot: 2 steps; same bytes.
    CHECK(all_reduce_time(1_GB, 8, test_link, all_reduce_algorithm::tree).value() == doctest::Approx(6e-6 + 17.5e-3));
    CHECK(all_reduce_time(1_GB, 8, test_link, all_reduce_algorithm::two_shot).value() == doctest::Approx(2e-6 + 17.5e-3));
    // All-gather of 1 GB over 4 ranks: 3 µs + 3/4 · 10 ms.
    CHECK(all_gather_time(1_GB, 4, test_link).value() == doctest::Approx(3e-6 + 7.5e-3));
    CHECK(reduce_scatter_time(1_GB, 4, test_link) == all_gather_time(1_GB, 4, test_link));
    // All-to-all of 1 GB per rank over 8: 1 µs + 7/8 · 10 ms.
    CHECK(all_to_all_time(1_GB, 8, test_link).value() == doctest::Approx(1e-6 + 8.75e-3));
    CHECK(point_to_point_time(1_GB, test_link).value() == doctest::Approx(1e-6 + 10e-3));
    SUBCASE("one rank communicates nothing") {
        CHECK(all_reduce_time(1_GB, 1, test_link) == 0_s);
        CHECK(all_to_all_time(1_GB, 1, test_link) == 0_s);
    }
}

TEST_CASE("an all-to-all past the scale-up domain: the off-node share on the NIC, the on-node share beside it") {
    // n 16 on nodes of g 8, S 1 MB a rank, β_up 400 GB/s, β_out 50 GB/s, α 10 µs. A rank's peers: 7 on its
    // node, 8 off it. Off-node 8/16 · 1 MB = 0.5 MB ÷ 50 GB/s = 10 µs; on-node 7/16 · 1 MB = 0.4375 MB
    // ÷ 400 GB/s = 1.09375 µs, at the same time on the other link: t = 10 µs + max(1.09375, 10) µs = 20 µs.
    // The one-link form sent 15/16 over the NIC: 10 µs + 0.9375 MB ÷ 50 GB/s = 28.75 µs.
    constexpr interconnect up{.name = "up", .per_direction = 400_GBps, .latency = 1_us};
    constexpr interconnect out{.name = "out", .per_direction = 50_GBps, .latency = 10_us};
    CHECK(detail::all_to_all_seconds(1e6, 16, 8, up, out) == doctest::Approx(20e-6).epsilon(1e-12));
    CHECK(detail::all_to_all_seconds(1e6, 16, out) == doctest::Approx(28.75e-6).epsilon(1e-12));
    // Where the on-node share is the slower (a NIC 20× the fabric): 1 MB · 7/16 ÷ 400 GB/s = 1.09375 µs
    // against 0.5 MB ÷ 1000 GB/s = 0.5 µs: t = 10 µs + 1.09375 µs.
    interconnect fast_out = out;
    fast_out.per_direction = 1000_GBps;
    CHECK(detail::all_to_all_seconds(1e6, 16, 8, up, fast_out) == doctest::Approx(11.09375e-6).epsilon(1e-12));
    // 12 ranks on nodes of 8 (8 + 4): the rank on the node of 4 has 8 peers off it, 8/12 of its bytes:
    // 0.6667 MB ÷ 50 GB/s = 13.3333 µs against 7/12 MB ÷ 400 GB/s = 1.4583 µs: t = 23.3333 µs.
    CHECK(detail::all_to_all_seconds(1e6, 12, 8, up, out) == doctest::Approx(10e-6 + 8.0 / 12.0 * 1e6 / 50e9).epsilon(1e-12));
    SUBCASE("inside one domain: the one-link form on the scale-up link, to the last bit") {
        for (const int n : {1, 2, 3, 4, 7, 8})
            for (const double bytes : {0.0, 1.0, 4096.0, 1e6, 3.7e9}) {
                CAPTURE(n);
                CAPTURE(bytes);
                CHECK(detail::all_to_all_seconds(bytes, n, 8, up, out) == detail::all_to_all_seconds(bytes, n, up));
            }
        CHECK(detail::all_to_all_seconds(1e6, 8, 8, up, out) == doctest::Approx(1e-6 + 0.875e6 / 400e9).epsilon(1e-12));
    }
    SUBCASE("the typed form reads the hardware's domain and links") {
        hardware h = catalog::mi355x;
        h.scale_up = up;
        h.scale_out = out;
        h.scale_up_domain = 8;
        CHECK(all_to_all_time(1_MB, 16, h).value() == doctest::Approx(20e-6).epsilon(1e-12));
        CHECK(all_to_all_time(1_MB, 8, h) == all_to_all_time(1_MB, 8, up));
    }
    SUBCASE("properties: never more than every byte on the NIC, monotone in S, continuous in β") {
        for (const int g : {2, 4, 8, 72})
            for (const int n : {g + 1, 2 * g, 3 * g, 5 * g + 3})
                for (const double bu : {50e9, 400e9, 900e9})
                    for (const double bo : {12.5e9, 50e9})
                        for (const double alpha : {0.0, 2e-6, 25e-6}) {
                            CAPTURE(g);
                            CAPTURE(n);
                            CAPTURE(bu);
                            CAPTURE(bo);
                            interconnect u = up, o = out;
                            u.per_direction = bytes_per_second(bu);
                            o.per_direction = bytes_per_second(bo);
                            o.latency = seconds(alpha);
                            double previous = 0.0;
                            for (const double bytes : {0.0, 1e3, 1e5, 7.3e6, 1e9}) {
                                const double t = detail::all_to_all_seconds(bytes, n, g, u, o);
                                // β_up ≥ β_out here: the old form, (n−1)/n of S on the NIC, bounds it.
                                CHECK(t <= detail::all_to_all_seconds(bytes, n, o) * (1.0 + 1e-15));
                                CHECK(t >= alpha);
                                CHECK(t >= previous);
                                previous = t;
                                // A relative change ε in either β moves the time by at most ε relative
                                // (the max of two continuous terms is continuous, no jump at the switch; t · 1e-15 for rounding).
                                for (const double eps : {1e-9, 1e-6}) {
                                    interconnect u2 = u, o2 = o;
                                    u2.per_direction = bytes_per_second(bu * (1.0 + eps));
                                    o2.per_direction = bytes_per_second(bo * (1.0 + eps));
                                    const double t2 = detail::all_to_all_seconds(bytes, n, g, u2, o);
                                    const double t3 = detail::all_to_all_seconds(bytes, n, g, u, o2);
                                    CHECK(std::abs(t2 - t) <= (t - alpha) * eps * (1.0 + 1e-6) + t * 1e-15);
                                    CHECK(std::abs(t3 - t) <= (t - alpha) * eps * (1.0 + 1e-6) + t * 1e-15);
                                }
                            }
                        }
        // At the crossover both shares take the same time: t = α + either, from both sides.
        interconnect even = up;
        even.per_direction = bytes_per_second(50e9 * 7.0 / 8.0);  // 7/16 ÷ β_up = 8/16 ÷ 50 GB/s
        CHECK(detail::all_to_all_seconds(1e6, 16, 8, even, out) == doctest::Approx(20e-6).epsilon(1e-12));
    }
}

TEST_CASE("MoE expert coverage and all-to-all volume") {
    // One token touches exactly k experts; many tokens touch nearly all.
    CHECK(expected_distinct_experts(256, 8, 1) == doctest::Approx(8.0));
    // Two tokens, E = 8, k = 2: 8 · (1 − (6/8)²) = 8 · 0.4375 = 3.5.
    CHECK(expected_distinct_experts(8, 2, 2) == doctest::Approx(3.5));
    CHECK(expected_distinct_experts(256, 8, 1000) == doctest::Approx(256.0).epsilon(1e-6));
    CHECK(expert_capacity(4096, 8, 256, 1.25) == doctest::Approx(160.0));  // 1.25 · 4096 · 8 / 256
    // DeepSeek-V3 DEP over 8 H800: 128 tokens per rank · 8 · 7168 · 1 B (FP8) = 7.34 MB per layer and phase.
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::h800_sxm, .layout = {.tp = 1, .ep = 8, .dp = 8}};
    d.m.activations = formats::fp8;
    d.validate();
    CHECK(all_to_all_bytes_per_layer(d, 128).value() == doctest::Approx(128.0 * 8 * 7168));
    // The combine returns the experts' outputs in the residual format, BF16: 2 B an element, 14.68 MB.
    CHECK(all_to_all_bytes_per_layer(d, 128, all_to_all_phase::combine).value() == doctest::Approx(128.0 * 8 * 7168 * 2));
    // Inside an 8-GPU domain: 58 layers · (3.7 µs + 7/8 · 7,340,032 B ÷ 200 GB/s = 35.81264 µs dispatch
    // + 3.7 µs + 7/8 · 14,680,064 B ÷ 200 GB/s = 67.92528 µs combine) = 58 · 103.73792 µs = 6.01679936 ms.
    CHECK(all_to_all_time_per_pass(d, 128).value() == doctest::Approx(6.01679936e-3).epsilon(1e-9));
    // EP 16 across two 8-GPU domains: 8/16 of each phase's bytes leave the node over the 400 Gb/s NIC
    // (50 GB/s, α 5.8 µs: docs/link-latency.md), 4× slower per byte (S21, S36), while 7/16 stay on NVLink
    // (200 GB/s) at the same time: dispatch 5.8 µs + max(7/16 · 7,340,032 B ÷ 200 GB/s = 16.05632 µs,
    // 8/16 · 7,340,032 B ÷ 50 GB/s = 73.40032 µs) = 79.20032 µs, combine 5.8 µs + 146.80064 µs = 152.60064 µs;
    // × 58 = 58 · 231.80096 µs = 13.44445568 ms (every byte's (n−1)/n = 15/16 on the NIC would be 24.4 ms).
    deployment wide = d;
    wide.layout = {.tp = 1, .ep = 16, .dp = 16};
    CHECK(&wide.link_for(16) == &wide.hw.scale_out);
    REQUIRE(wide.hw.scale_out.latency.value() == doctest::Approx(5.8e-6));
    REQUIRE(wide.hw.scale_out.per_direction.value() == doctest::Approx(50e9));
    CHECK(all_to_all_time_per_pass(wide, 128).value() == doctest::Approx(13.44445568e-3).epsilon(1e-9));
    // Attention tensor-parallel over the whole EP group (tp = ep = 8, dp = 1): every rank holds every
    // token after attention's all-reduce and the FFN's all-reduce sums the experts' outputs, so no
    // all-to-all runs; the all-reduces stay.
    deployment tep{.m = catalog::deepseek_v3, .hw = catalog::h800_sxm, .layout = {.tp = 8, .ep = 8, .dp = 1}};
    tep.validate();
    CHECK(all_to_all_time_per_pass(tep, 128).value() == 0.0);
    CHECK(decode_pass(tep, 16.0, 2000_tok).ep_time.value() == 0.0);
    CHECK(decode_pass(tep, 16.0, 2000_tok).tp_time.value() > 0.0);
    CHECK(decode_pass(d, 16.0, 2000_tok).ep_time.value() > 0.0);
}

TEST_CASE("KV cache per GPU, capacity and spill tiers") {
    deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    // 327,680 B / 8 GPUs = 40,960 B per token per GPU.
    CHECK(kv_bytes_per_token_per_gpu(d).value() == doctest::Approx(40'960.0));
    // TP 16 > 8 KV heads: each GPU still holds one head, so no further saving.
    deployment d16 = d;
    d16.layout.tp = 16;
    d16.hw.scale_up_domain = 16;
    CHECK(kv_bytes_per_token_per_gpu(d16) == kv_bytes_per_token_per_gpu(d));
    // Budget: H · 0.95 − 2 GB − 141.1 GB / 8, H the H100's runtime total 81,105.6875 MiB = 85,045,477,376 B (CUDA's,
    // hardware.csv runtime_capacity_MiB; the spec's 80 GiB = 85.9 GB, nvidia-smi's 81,559 MiB): 80,793,203,507.2 −
    // 2,000,000,000 − 17,638,426,624 = 61,154,776,883.2 B → ÷ 40,960 B ≈ 1.493 M tokens.
    const double budget = 85'045'477'376.0 * 0.95 - 2e9 - 2.0 * static_cast<double>(total_parameters(catalog::llama_3_1_70b)) / 8;
    CHECK(budget == doctest::Approx(61'154'776'883.2).epsilon(1e-12));
    CHECK(kv_budget_per_gpu(d).value() == doctest::Approx(budget));
    CHECK(kv_capacity_tokens(d).value() == doctest::Approx(budget / 40'960.0));
    CHECK(max_sequences(d, 131'072_tok) == std::floor(budget / (40'960.0 * 131'072)));
    SUBCASE("weights that do not fit leave no room") {
        deployment one{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5};
        CHECK_FALSE(weights_fit(one));
        CHECK(kv_capacity_tokens(one) == 0_tok);
    }
    SUBCASE("S17: spilling to host DRAM and storage, and bringing it back") {
        // Need 400 GB per GPU: 61.15 GB in HBM, 250 GB in host DRAM, the rest (88.85 GB) on NVMe.
        const spill_placement p = place_kv(d, 400_GB);
        CHECK(p.in_hbm.value() == doctest::Approx(budget));
        CHECK(p.in_host == 250_GB);
        CHECK(p.in_storage.value() == doctest::Approx(400e9 - budget - 250e9));
        CHECK(p.overflow == 0_B);
        // 250 GB ÷ 64 GB/s + 88.85 GB ÷ 7 GB/s.
        CHECK(p.restore_time.value() == doctest::Approx(250.0 / 64 + (400e9 - budget - 250e9) / 7e9));
    }
    SUBCASE("S18: loading weights from storage") {
        // 141.1 GB / 8 = 17.64 GB per GPU at 7 GB/s ≈ 2.5 s.
        CHECK(weight_load_time(d).value() == doctest::Approx(2.0 * static_cast<double>(total_parameters(catalog::llama_3_1_70b)) / 8 / 7e9));
    }
}

TEST_CASE("prefill FLOPs by hand: causal attention and the LM head") {
    deployment d = llama2_70b_tp8_fp16();
    // One 200-token prompt. Matmuls: 2 · (N_mm − lm_head) · 200 + 2 · lm_head · 1;
    // attention: 80 layers · 4 · 64 heads · 128 · (200 · 201 / 2) pairs; all ÷ 8 GPUs.
    const double lm = 32000.0 * 8192;
    const double nmm = static_cast<double>(matmul_parameters(catalog::llama_2_70b));
    const double expected = (2 * (nmm - lm) * 200 + 2 * lm + 80.0 * 4 * 64 * 128 * (200.0 * 201 / 2)) / 8;
    CHECK(prefill_pass(d, 1, 200_tok, 0_tok).flops.value() == doctest::Approx(expected));
    SUBCASE("a cached prefix is not recomputed but is attended to (S6)") {
        // 100 new tokens after 100 cached: pairs Σ_{101}^{200} i = 15,050 instead of 20,100.
        const double cached = (2 * (nmm - lm) * 100 + 2 * lm + 80.0 * 4 * 64 * 128 * 15'050) / 8;
        CHECK(prefill_pass(d, 1, 100_tok, 100_tok).flops.value() == doctest::Approx(cached));
    }
    SUBCASE("chunked prefill rereads the weights per chunk") {
        const seconds_t whole = prefill_pass(d, 1, 2048_tok, 0_tok).time();
        const seconds_t chunked = chunked_prefill_time(d, 1, 2048_tok, 512_tok);
        CHECK(chunked > whole);
        CHECK(chunked_prefill_time(d, 1, 2048_tok, 4096_tok) == whole);
    }
}

TEST_CASE("decode pass by hand and the closed-form sum") {
    deployment d = llama2_70b_tp8_fp16();
    // Batch 1 at 450 tokens: weights (68.98e9 − 32000·8192) · 2 B / 8, KV 450 · 40,960 B.
    const pass_cost p = decode_pass(d, 1, 450_tok);
    const double w = (static_cast<double>(total_parameters(catalog::llama_2_70b)) - 32000.0 * 8192) * 2 / 8;
    CHECK(p.weight_bytes.value() == doctest::Approx(w));
    CHECK(p.kv_bytes.value() == doctest::Approx(450.0 * 40'960));
    CHECK(p.memory_bound());
    SUBCASE("the closed form equals the step-by-step sum") {
        for (double b : {1.0, 32.0, 256.0}) {
            double loop = 0;
            for (int i = 0; i < 499; ++i) loop += decode_pass(d, b, tokens(200.0 + i)).time().value();
            CHECK(decode_steps(d, b, 200_tok, 499).total.value() == doctest::Approx(loop).epsilon(1e-12));
        }
    }
    SUBCASE("closed form across the compute/memory crossover and a sliding window") {
        deployment g{.m = catalog::gpt_oss_120b, .hw = catalog::h100_sxm5};
        g.validate();
        double loop = 0;
        for (int i = 0; i < 400; ++i) loop += decode_pass(g, 512, tokens(10.0 + i)).time().value();
        CHECK(decode_steps(g, 512, 10_tok, 400).total.value() == doctest::Approx(loop).epsilon(1e-12));
    }
}

TEST_CASE("cross-check with the peers: Llama-2-70B, 8xH100 TP8, FP16, 200 -> 500") {
    // Peer figures (ms) from ../shared/reference/FINDINGS.md: TTFT b=1 / TPOT b=1 / TTFT b=32 / TPOT b=32.
    SUBCASE("efficiencies 1: our roofline term against the roofline tools") {
        const deployment d = llama2_70b_tp8_fp16();
        const pass_cost p1 = prefill_pass(d, 1, 200_tok, 0_tok);
        const pass_cost p32 = prefill_pass(d, 32, 200_tok, 0_tok);
        // aiconfigurator roofline mode (8.37 / 5.15 / 200.5 / 5.82) counts communication in prefill;
        // its decode is the weight stream alone: 17.2 GB per GPU ÷ 3.35 TB/s = 5.13 ms.
        CHECK(ratio(decode_pass(d, 1, 450_tok).roofline_time(), 1_ms) == doctest::Approx(5.15).epsilon(0.15));
        CHECK(ratio(decode_pass(d, 32, 450_tok).roofline_time(), 1_ms) == doctest::Approx(5.82).epsilon(0.15));
        // LLM-Viewer (8 GPUs as one, no communication): 6.00 / 5.60 / 117 / 5.74–5.98.
        CHECK(ratio(p1.roofline_time(), 1_ms) == doctest::Approx(6.00).epsilon(0.15));
        CHECK(ratio(decode_pass(d, 1, 450_tok).roofline_time(), 1_ms) == doctest::Approx(5.60).epsilon(0.15));
        CHECK(ratio(p32.roofline_time(), 1_ms) == doctest::Approx(117.0).epsilon(0.15));
        CHECK(ratio(decode_pass(d, 32, 450_tok).roofline_time(), 1_ms) == doctest::Approx(5.86).epsilon(0.15));
        // GenZ (10.16 / 7.77 / 177.4 / 8.15–8.33) and llm-analysis (7.43 / 6.57 / 178.6 / 7.12) add
        // communication; our full time also streams activations between kernels (1.3 ms at b=1,
        // 43 ms at b=32 of 6,400 tokens) and does not overlap the 160 all-reduces, so it sits above
        // llm-analysis in prefill and near GenZ at b=1.
        CHECK(ratio(p1.time(), 1_ms) == doctest::Approx(10.16).epsilon(0.15));
        const double tpot1 = decode_steps(d, 1, 200_tok, 499).total.value() / 499 * 1e3;
        CHECK(tpot1 == doctest::Approx(6.57).epsilon(0.15));
        CHECK(tpot1 == doctest::Approx(7.77).epsilon(0.20));
        CHECK(ratio(p32.time(), 1_ms) > 178.6);
    }
    SUBCASE("calibrated efficiencies against aiconfigurator's measured H100 kernels") {
        // aiconfigurator 0.10, measured-kernel mode: 18.57 / 9.45 / 265.0 / 11.57. Our H100 entry's
        // factors come from micro-benchmarks only (B01 copy, B04 GEMM sizes, B06 attention, a 4 µs
        // launch gap); none was fitted to these four figures.
        const deployment d = llama2_70b_tp8_fp16(false);
        CHECK(ratio(prefill_pass(d, 1, 200_tok, 0_tok).time(), 1_ms) == doctest::Approx(18.57).epsilon(0.15));
        CHECK(decode_steps(d, 1, 200_tok, 499).total.value() / 499 * 1e3 == doctest::Approx(9.45).epsilon(0.15));
        CHECK(ratio(prefill_pass(d, 32, 200_tok, 0_tok).time(), 1_ms) == doctest::Approx(265.0).epsilon(0.15));
        CHECK(decode_steps(d, 32, 200_tok, 499).total.value() / 499 * 1e3 == doctest::Approx(11.57).epsilon(0.15));
    }
}

TEST_CASE("properties") {
    const deployment base = llama2_70b_tp8_fp16(false);
    SUBCASE("more bandwidth is never slower") {
        for (double b : {1.0, 8.0, 64.0, 512.0}) {
            deployment fast = base;
            fast.hw.gpu.hbm_bandwidth = fast.hw.gpu.hbm_bandwidth * 2.0;
            CHECK(decode_pass(fast, b, 1000_tok).time() <= decode_pass(base, b, 1000_tok).time());
            CHECK(prefill_pass(fast, b, 1000_tok, 0_tok).time() <= prefill_pass(base, b, 1000_tok, 0_tok).time());
            deployment wider = base;
            wider.hw.scale_up.per_direction = wider.hw.scale_up.per_direction * 2.0;
            CHECK(decode_pass(wider, b, 1000_tok).time() <= decode_pass(base, b, 1000_tok).time());
        }
    }
    SUBCASE("longer context is never cheaper") {
        for (const model& m : catalog::all_models) {
            deployment d{.m = m, .hw = catalog::b200_hgx, .layout = {.tp = 8}};
            if (m.attention.kind == attention_kind::standard && m.attention.kv_heads % 8 != 0 && 8 % m.attention.kv_heads != 0) continue;
            if (m.attention.query_heads % 8 != 0) continue;
            double prev = 0;
            for (double c = 1; c <= 131072; c *= 4) {
                const double t = decode_pass(d, 16, tokens(c)).time().value();
                CHECK(t >= prev);
                prev = t;
                CHECK(kv_bytes_for_context(m, tokens(c * 2)) >= kv_bytes_for_context(m, tokens(c)));
            }
        }
    }
    SUBCASE("MoE read bytes lie between top-k and all experts and rise with the batch") {
        for (const model* m : {&catalog::mixtral_8x7b, &catalog::deepseek_v3, &catalog::qwen3_235b_a22b, &catalog::gpt_oss_120b}) {
            const deployment d{.m = *m, .hw = catalog::b200_hgx};
            const double all = expert_weight_bytes_per_gpu(d).value();
            const double topk = all * m->ffn.top_k / m->ffn.routed_experts;
            double prev = 0;
            for (double b = 1; b <= 4096; b *= 2) {
                const double r = expert_bytes_read_per_gpu(d, b).value();
                CHECK(r >= topk * (1 - 1e-12));
                CHECK(r <= all * (1 + 1e-12));
                CHECK(r >= prev);
                prev = r;
            }
        }
    }
    SUBCASE("TP = 1 has no all-reduce") {
        const deployment one{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
        CHECK(decode_pass(one, 8, 100_tok).tp_time == 0_s);
        CHECK(prefill_pass(one, 8, 100_tok, 0_tok).tp_time == 0_s);
        CHECK(tp_all_reduces_per_pass(one) == 0);
    }
    SUBCASE("MLA KV bytes do not depend on TP") {
        for (int tp : {1, 2, 4, 8}) {
            const deployment d{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = tp}};
            CHECK(kv_bytes_per_token_per_gpu(d).value() == doctest::Approx(70'272.0));
        }
    }
    SUBCASE("energy is at least the idle floor and scales with time") {
        const seconds_t t = decode_pass(base, 32, 500_tok).time();
        CHECK(gpu_energy(base.hw, t, 8) >= idle_energy(base.hw, t, 8));
        CHECK(wall_energy(gpu_energy(base.hw, t * 2.0), catalog::seed_site) == wall_energy(gpu_energy(base.hw, t), catalog::seed_site) * 2.0);
    }
}

TEST_CASE("pipeline parallelism: bubbles and stage hand-offs") {
    CHECK(pipeline_bubble_fraction(1, 1) == 0.0);
    CHECK(pipeline_bubble_fraction(4, 1) == doctest::Approx(0.75));   // 3 / 4
    CHECK(pipeline_bubble_fraction(4, 12) == doctest::Approx(0.2));   // 3 / 15
    // PP 2 × TP 4 on Llama-3.1-70B: same bytes per tensor-parallel rank as TP 8 would stream twice,
    // plus one hand-off of the hidden state between the stages.
    const deployment pp{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4, .pp = 2}};
    pp.validate();
    const pass_cost p = decode_pass(pp, 1, 100_tok);
    CHECK(p.pp_time.value() == doctest::Approx(3.7e-6 + 8192.0 * 2 / 4 / 450e9));
    CHECK(weight_bytes_per_gpu(pp).value() == doctest::Approx(2.0 * static_cast<double>(total_parameters(catalog::llama_3_1_70b)) / 8));
}

// Stage b − 1's rank j (GPU (b−1)·w + j) hands off to GPU b·w + j; domains of g GPUs filled in order.
static_assert(pipeline_crossings(2, 8, 8) == 1);  // GPUs 0-15 in pairs: only boundary 4 (GPU 7 → 9) leaves domain 0

TEST_CASE("pipeline hand-offs: only the boundaries that leave a scale-up domain cross the NIC, by hand") {
    SUBCASE("the count of crossing boundaries") {
        CHECK(pipeline_crossings(2, 8, 8) == 1);   // b = 4: GPUs 6,7 → 8,9 (7 → 9 crosses)
        CHECK(pipeline_crossings(4, 4, 8) == 1);   // b = 2: GPUs 4-7 → 8-11; b = 1 (0-3 → 4-7), b = 3 (8-11 → 12-15) stay
        CHECK(pipeline_crossings(1, 16, 8) == 1);  // b = 8: GPU 7 → 8
        CHECK(pipeline_crossings(8, 2, 8) == 1);   // w = g: GPU j → 8 + j, every pair crosses
        CHECK(pipeline_crossings(16, 2, 8) == 1);  // w > g: every boundary
        CHECK(pipeline_crossings(16, 4, 8) == 3);
        CHECK(pipeline_crossings(8, 4, 8) == 3);
        CHECK(pipeline_crossings(3, 4, 8) == 2);   // b = 2 (5 → 8) and b = 3 (6 → 9, 7 → 10); b = 1 (0-2 → 3-5) stays
        CHECK(pipeline_crossings(2, 4, 8) == 0);   // w·pp = g: one domain
        CHECK(pipeline_crossings(4, 2, 72) == 0);  // an NVL72 rack
        CHECK(pipeline_crossings(1, 1, 8) == 0);   // no boundary
        CHECK(pipeline_crossings(8, 8, 72) == 0);  // GPUs 0-63: one NVL72 rack
        CHECK(pipeline_crossings(8, 16, 72) == 1); // b = 9: GPUs 64-71 → 72-79
    }
    SUBCASE("bad input names the field, the value and the rule") {
        CHECK_THROWS_WITH_AS(static_cast<void>(pipeline_crossings(0, 2, 8)),
                             "llmcost: pipeline_crossings: stage_gpus = 0: a pipeline stage holds at least one GPU",
                             invalid_input);
        CHECK_THROWS_WITH_AS(static_cast<void>(pipeline_crossings(2, 0, 8)),
                             "llmcost: pipeline_crossings: pp = 0: pipeline parallelism must be at least 1", invalid_input);
        CHECK_THROWS_WITH_AS(static_cast<void>(pipeline_crossings(2, 2, 0)),
                             "llmcost: pipeline_crossings: domain = 0: a scale-up domain holds at least one GPU",
                             invalid_input);
        // The all-to-all's off-node share refuses the same impossible domain (n mod 0 would trap).
        CHECK_THROWS_WITH_AS(static_cast<void>(all_to_all_off_node_share(16, 0)),
                             "llmcost: all_to_all_off_node_share: domain = 0: a scale-up domain holds at least one GPU",
                             invalid_input);
        CHECK_THROWS_WITH_AS(static_cast<void>(all_to_all_off_node_share(0, 8)),
                             "llmcost: all_to_all_off_node_share: ranks = 0: an all-to-all runs over at least one rank",
                             invalid_input);
    }
    // Llama-3.1-70B at one decode token: S ÷ tp = 8192 · 2 B ÷ 2 = 8192 B a rank. H100 SXM5 (tables/hardware.csv):
    // scale-up 450 GB/s a direction, 3.7 µs; scale-out 400 Gb/s = 50 GB/s, 5.8 µs (docs/link-latency.md).
    const auto p2p = [](const interconnect& l, double s) { return l.latency.value() + s / l.per_direction.value(); };
    SUBCASE("TP2 PP8 on 8-GPU domains: one hand-off at the NIC, six on NVLink, summed") {
        const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2, .pp = 8}};
        d.validate();
        CHECK(pipeline_crossings(d) == 1);
        const pass_cost p = decode_pass(d, 1, 100_tok);
        // 1 · (5.8 µs + 8192 ÷ 50e9) + 6 · (3.7 µs + 8192 ÷ 450e9) = 5.96384 + 6 · 3.7182044 = 28.273067 µs
        // (the old all-NIC form: 7 · 5.96384 = 41.74688 µs).
        CHECK(p.pp_time.value() == doctest::Approx(28.273067e-6).epsilon(1e-7));
    }
    SUBCASE("within one domain, and at tp >= g, the one-link figure bit for bit") {
        const deployment in{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2, .pp = 4}};
        CHECK(pipeline_crossings(in) == 0);
        CHECK(decode_pass(in, 1, 100_tok).pp_time.value() == p2p(in.hw.scale_up, 8192.0) * 3.0);
        const deployment wide{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 16, .pp = 2}};
        wide.validate();
        CHECK(pipeline_crossings(wide) == 1);
        CHECK(decode_pass(wide, 1, 100_tok).pp_time.value() == p2p(wide.hw.scale_out, 1024.0) * 1.0);
    }
    SUBCASE("an EP group's stage is its tp x dp GPUs") {
        // Mixtral-8x7B, EP8 over DP8, PP2: stage 0 is GPUs 0-7, stage 1 GPUs 8-15: the one boundary crosses.
        const deployment d{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .layout = {.tp = 1, .pp = 2, .ep = 8, .dp = 8}};
        d.validate();
        CHECK(pipeline_crossings(d) == 1);
        const deployment dense{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .layout = {.tp = 1, .pp = 2, .dp = 8}};
        CHECK(pipeline_crossings(dense) == 0);  // eight replicas of two GPUs
    }
    SUBCASE("properties: between the two one-link forms, never above the old NIC form where NVLink is no slower; monotone in S") {
        const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2, .pp = 8}};
        const deployment many{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 1, .pp = 16}};
        const deployment four{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4, .pp = 4}};
        for (const deployment* x : {&d, &many, &four}) {
            double before = 0.0;
            for (const double b : {1.0, 8.0, 64.0, 512.0, 4096.0, 32768.0}) {
                const double t = decode_pass(*x, b, 100_tok).pp_time.value();
                const double s = b * 8192.0 * 2.0 / x->layout.tp, k = x->layout.pp - 1.0;
                const double up = p2p(x->hw.scale_up, s), out = p2p(x->hw.scale_out, s);
                CHECK(t >= std::min(up, out) * k * (1.0 - 1e-12));
                CHECK(t <= std::max(up, out) * k * (1.0 + 1e-12));
                if (up <= out) CHECK(t <= out * k * (1.0 + 1e-12));  // the old form: every boundary at the NIC
                CHECK(t >= before);
                before = t;
            }
        }
    }
}

TEST_CASE("layout validation names the rule") {
    auto message = [](const deployment& d) { return test::validation_message(d); };
    deployment d{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .layout = {.ep = 3, .dp = 3}};
    CHECK(message(d) == "llmcost: Mixtral-8x7B: layout.ep = 3: must divide the routed experts "
                        "[llmcost.layout.ep_divides_experts]");
    d.layout = {.tp = 3};
    CHECK(message(d) == "llmcost: Mixtral-8x7B: layout.tp = 3: must divide the query heads [llmcost.layout.tp_divides_heads]");
    deployment dense{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.ep = 2}};
    CHECK(message(dense) == "llmcost: Llama-3.1-8B: layout.ep = 2: expert parallelism needs an MoE model "
                            "[llmcost.layout.ep_needs_moe]");
    dense.layout = {.pp = 0};
    CHECK(message(dense) == "llmcost: Llama-3.1-8B: layout.pp = 0: pipeline parallelism must be at least 1 "
                            "[llmcost.layout.degree_at_least_one]");
}

TEST_CASE("network: great circle and the fibre floor (S1)") {
    // London (51.5074 N, 0.1278 W) → New York (40.7128 N, 74.0060 W): 5,570 km (standard haversine).
    CHECK(ratio(great_circle_distance({51.5074, -0.1278}, {40.7128, -74.0060}), 1_km) == doctest::Approx(5570).epsilon(0.002));
    // A quarter of the equator: π/2 · 6,371.0088 km.
    CHECK(great_circle_distance({0, 0}, {0, 90}).value() == doctest::Approx(6'371'008.8 * 3.14159265358979 / 2));
    CHECK(fibre_round_trip_floor(1_km).value() == doctest::Approx(2 * 1000 * 1.468 / 299'792'458.0));
    const network_path path{.client_to_edge_rtt = 5_ms, .edge_to_origin_rtt = 137_ms};
    CHECK(approx_equal(path.round_trip(), 142_ms));
}

TEST_CASE("per-layer patterns in the pass: chunked pairs, state FLOPs, the closed-form decode sum") {
    SUBCASE("chunked pairs by hand: a query attends within its own chunk") {
        // C = 4: positions 1..10 see 1,2,3,4, 1,2,3,4, 1,2 keys → 23 in all; after 6 cached, 4 new: 3+4+1+2.
        CHECK(detail::chunked_pairs(0, 10, 4) == 23.0);
        CHECK(detail::chunked_pairs(6, 4, 4) == 10.0);
        CHECK(detail::chunked_pairs(8, 1, 4) == 1.0);  // the first query of a new chunk sees itself
        CHECK(detail::chunked_pairs(5, 0, 4) == 0.0);
        // Within the first chunk it is the plain causal count.
        CHECK(detail::chunked_pairs(0, 4, 8) == detail::causal_pairs(0, 4, 0));
    }
    SUBCASE("Llama-4-Scout's attention pairs: 12 full layers and 36 chunked ones") {
        const model& m = catalog::llama_4_scout;
        const double n = 20'000;  // two whole chunks of 8192 and 3616 tokens
        const double full = n * (n + 1) / 2;
        const double chunked = 2 * 8192.0 * 8193 / 2 + 3616.0 * 3617 / 2;
        CHECK(detail::attention_pairs(m, 0, n) == 12 * full + 36 * chunked);
    }
    SUBCASE("state-space layers: 4·P·N per head per token (Mamba2), 6·P·N (Gated DeltaNet)") {
        CHECK(detail::state_flops_per_token(catalog::nemotron_h_8b) == 4.0 * 64 * 128 * 128 * 24);
        CHECK(detail::state_flops_per_token(catalog::qwen3_next_80b_a3b) == 6.0 * 128 * 128 * 32 * 36);
        CHECK(detail::state_flops_per_token(catalog::llama_3_1_8b) == 0.0);
    }
    SUBCASE("the recurrence's time: t = S ÷ tp ÷ R_p, in every branch of a step's attention") {
        // 6·10¹² FLOPs over 2 ranks at 500 TFLOP/s: 3·10¹² ÷ 5·10¹⁴ = 6 ms.
        CHECK(recurrence_time(flops(6e12), 2, flops_per_second(5e14)).value() == doctest::Approx(6e-3).epsilon(1e-15));
        CHECK(recurrence_time(flops(1e9), 1, flops_per_second(1e12)).value() == doctest::Approx(1e-3).epsilon(1e-15));
        // Nemotron-H 8B on B200 under TensorRT-LLM on Blackwell (the prompts' and decodes' attention apart, the
        // prompt curve priced): 4 decoding sequences and 2 prompts of 100 tokens, S = 4·64·128·128·24 a token.
        deployment d{.m = catalog::nemotron_h_8b, .hw = catalog::b200_hgx, .layout = {.tp = 2},
                     .engine = catalog::trtllm_blackwell};
        d.m.kv_cache = formats::fp8;
        d.validate();
        pass_model pm = prepare_pass(d);
        REQUIRE(pm.prompt_attention_curve);
        const double s = 4.0 * 64 * 128 * 128 * 24, rate = pm.attention_rate;
        detail::attention_kinds<double> k{.decode_flops = 3e9, .prompt_flops = 8e11, .decode_state = 4 * s,
                                          .prompt_state = 2 * 100 * s, .decode_kv = 0, .prompt_kv = 0,
                                          .prompt_keys = 50.5, .prompt_rows = 2 * 100 * 32.0 / 2};
        const double decode_recurrence = 4 * s / 2 / rate, prompt_recurrence = 200 * s / 2 / rate;
        CHECK(k.decode_compute(pm) == doctest::Approx(3e9 / 2 / pm.attention_rate_decode + decode_recurrence).epsilon(1e-14));
        CHECK(k.prompt_compute(pm) == doctest::Approx(k.prompt_on_curve(pm) + prompt_recurrence).epsilon(1e-14));
        // Off the curve, the prompts' attention and the recurrence both at R_p.
        pm.prompt_attention_curve = false;
        CHECK(k.prompt_compute(pm) == doctest::Approx(8e11 / 2 / rate + prompt_recurrence).epsilon(1e-14));
        CHECK(recurrence_time(flops(200 * s), 2, flops_per_second(rate)).value() == doctest::Approx(prompt_recurrence).epsilon(1e-15));
    }
    SUBCASE("a split-block model all-reduces once per block and launches half a layer's kernels per block") {
        const deployment d{.m = catalog::nemotron_h_8b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}};
        CHECK(tp_all_reduces_per_pass(d) == 52);  // 28 mixers + 24 MLPs
        CHECK(detail::kernels_per_pass(catalog::nemotron_h_8b) == 10.0 * 26 + 3);
    }
    SUBCASE("the closed form equals the step-by-step sum across chunk boundaries") {
        model m = catalog::llama_4_scout;
        m.pattern.chunk = 64;  // many boundaries in a short decode
        deployment d{.m = m, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
        d.validate();
        for (double b : {1.0, 64.0}) {
            double loop = 0;
            for (int i = 0; i < 300; ++i) loop += decode_pass(d, b, tokens(30.0 + i)).time().value();
            CHECK(decode_steps(d, b, 30_tok, 300).total.value() == doctest::Approx(loop).epsilon(1e-12));
        }
    }
    SUBCASE("the closed form with state-space layers (fixed state read every step)") {
        deployment d{.m = catalog::qwen3_next_80b_a3b, .hw = catalog::h200_sxm, .layout = {.tp = 2}};
        d.validate();
        double loop = 0;
        for (int i = 0; i < 200; ++i) loop += decode_pass(d, 16, tokens(100.0 + i)).time().value();
        CHECK(decode_steps(d, 16, 100_tok, 200).total.value() == doctest::Approx(loop).epsilon(1e-12));
        // The state is read with the KV: one decode step reads 16 sequences' states on top of the KV.
        const pass_cost p = decode_pass(d, 16, 100_tok);
        const double kv = 16 * (24'576.0 * 100 + state_bytes_per_sequence(d.m).value()) / 2;  // tp 2 halves both
        CHECK(p.kv_bytes.value() == doctest::Approx(kv));
    }
}

TEST_CASE("optics_of: copper inside one scale-up domain, transceivers on every GPU beyond it (S9, S10)") {
    // A million H100s: 6 transceivers x 17 W each per GPU (tables/hardware.csv), 125,000 domains of 8.
    const cluster_optics big = optics_of(catalog::h100_sxm5, 1e6);
    CHECK(big.optical);
    CHECK(big.domains == 125'000);
    CHECK(big.transceivers == 6e6);
    CHECK(big.power.value() == doctest::Approx(1e6 * 6 * 17).epsilon(1e-12));
    CHECK(big.per_gpu.value() == doctest::Approx(102.0).epsilon(1e-12));
    CHECK(big.share_of_board_power == doctest::Approx(102.0 / 700.0).epsilon(1e-12));
    CHECK(big.scale_up_advantage == doctest::Approx(450.0 / 50.0).epsilon(1e-12));
    // One NVL72 rack is one domain: no optics; one GPU more and every GPU has its transceivers.
    const cluster_optics rack = optics_of(catalog::gb200_nvl72, 72);
    CHECK_FALSE(rack.optical);
    CHECK(rack.domains == 1);
    CHECK(rack.power.value() == 0.0);
    const cluster_optics over = optics_of(catalog::gb200_nvl72, 73);
    CHECK(over.optical);
    CHECK(over.domains == 2);
    CHECK(over.power.value() == doctest::Approx(73.0 * 6 * 17).epsilon(1e-12));
    // It is transceiver_power, spread over the GPUs.
    CHECK(optics_of(catalog::b300_hgx, 4096).power == transceiver_power(catalog::b300_hgx, 4096));
    // No cluster of zero, a negative or NaN GPUs.
    for (double n : {0.0, 0.5, -8.0, std::nan("")})
        CHECK(test::error_of([&] { return optics_of(catalog::h100_sxm5, n); }).find("gpus") != std::string::npos);
}
