// The one-call estimate (serving/estimate.hpp) and with_formats (costs/parallel.hpp): energy and
// money per output token worked by hand from the serving point's rate, the batch rules, and the
// formats a --weights flag selects.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <limits>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
constexpr deployment llama70_tp8{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
constexpr request_shape chat{.input = 2000_tok, .output = 500_tok};
}  // namespace

TEST_CASE("estimate: energy and cost per output token follow from the rate (S29, S30, S33)") {
    const request_estimate e = estimate(llama70_tp8, chat, {.batch = 32, .site = catalog::seed_site, .pricing = pricing_basis::tco});
    const serving_point p = serve_at_batch(llama70_tp8, chat, 32);
    CHECK(e.point.step_time == p.step_time);
    const double rate = p.output_rate.value();  // tokens/s for 8 GPUs
    SUBCASE("energy: 700 W x 8 GPUs / rate, x 1.3 x 1.2 at the wall, x 500 tokens per request") {
        CHECK(e.gpu_energy_per_output_token.value() == doctest::Approx(700.0 * 8 / rate).epsilon(1e-12));
        CHECK(e.wall_energy_per_output_token.value() == doctest::Approx(700.0 * 8 / rate * 1.56).epsilon(1e-12));
        CHECK(e.gpu_energy_per_request.value() == doctest::Approx(700.0 * 8 / rate * 500).epsilon(1e-12));
    }
    SUBCASE("money: an H100 at $24,875 over 5 years plus 700 W x 1.56 at $0.0806/kWh") {
        const double capital = 24875.0 / (5 * 365.25 * 86400);       // $/s
        const double energy = 700.0 * 1.56 / 3.6e6 * 0.0806;          // $/s at full use
        CHECK(e.gpu_cost.value() == doctest::Approx(capital + energy).epsilon(1e-12));
        CHECK(e.cost_per_output_token.value() == doctest::Approx((capital + energy) * 8 / rate).epsilon(1e-12));
    }
    SUBCASE("without a site: the GPUs alone, energy not priced, 5-year straight-line capital") {
        const request_estimate bare = estimate(llama70_tp8, chat, {.batch = 32, .pricing = pricing_basis::tco});
        CHECK(bare.wall_energy_per_output_token == bare.gpu_energy_per_output_token);
        CHECK(bare.gpu_cost.value() == doctest::Approx(24875.0 / (5 * 365.25 * 86400)).epsilon(1e-12));
    }
    SUBCASE("a given GPU-hour price replaces capex and power; utilisation spreads it over fewer tokens") {
        const request_estimate cloud = estimate(llama70_tp8, chat, {.batch = 32, .utilisation = 0.5,
                                                                    .gpu_cost = dollars_per_hour(2.0)});
        CHECK(cloud.cost_per_output_token.value() == doctest::Approx(2.0 / 3600 * 8 / (0.5 * rate)).epsilon(1e-12));
        CHECK(cloud.price.given);
    }
    SUBCASE("by default: the H100's listed on-demand price, $2.99 per GPU-hour (tables/gpu_prices.csv), with its basis") {
        const request_estimate market = estimate(llama70_tp8, chat, {.batch = 32, .market_prices = catalog::gpu_market_prices});
        CHECK(market.gpu_cost.value() == doctest::Approx(2.99 / 3600).epsilon(1e-12));
        CHECK(market.cost_per_output_token.value() == doctest::Approx(2.99 / 3600 * 8 / rate).epsilon(1e-12));
        CHECK(market.price.basis == pricing_basis::market);
        CHECK_FALSE(market.price.fell_back());
        CHECK(market.price.date == "2026-05-18");
        CHECK(market.price.source.find("Lambda") != std::string_view::npos);
        const request_estimate committed = estimate(llama70_tp8, chat, {.batch = 32, .pricing = pricing_basis::committed,
                                                                        .market_prices = catalog::gpu_market_prices});
        CHECK(committed.gpu_cost.value() == doctest::Approx(2.35 / 3600).epsilon(1e-12));
        CHECK(committed.price.term == "1 year");
        CHECK(committed.cost_per_output_token.value() / market.cost_per_output_token.value() ==
              doctest::Approx(2.35 / 2.99).epsilon(1e-12));
    }
    SUBCASE("a GPU with no listed price falls back to capex and power, and says so") {
        deployment h800 = llama70_tp8;
        h800.hw = catalog::h800_sxm;  // no public market price found (tables/gpu_prices.csv has no row)
        const request_estimate e800 = estimate(h800, chat, {.batch = 32, .market_prices = catalog::gpu_market_prices});
        CHECK(e800.price.asked == pricing_basis::market);
        CHECK(e800.price.basis == pricing_basis::tco);
        CHECK(e800.price.fell_back());
        CHECK(e800.gpu_cost.value() == doctest::Approx(30000.0 / (5 * 365.25 * 86400)).epsilon(1e-12));
    }
    CHECK(e.kv_bytes_per_token == kv_bytes_per_token(catalog::llama_3_1_70b));
    CHECK(e.weight_bytes_per_gpu == weight_bytes_per_gpu(llama70_tp8));
    CHECK(e.kv_capacity_tokens == kv_capacity_whole_blocks(llama70_tp8));  // the room shown, in whole blocks
}

TEST_CASE("estimate: batch 0 saturates, a batch that does not fit is refused") {
    const request_estimate sat = estimate(llama70_tp8, chat);
    const serving_point s = saturated(llama70_tp8, chat);
    CHECK(sat.point.batch == s.batch);
    CHECK(sat.point.limited_by == s.limited_by);
    CHECK(sat.point.output_rate == s.output_rate);
    const std::string err = test::error_of([&] { return estimate(llama70_tp8, chat, {.batch = s.batch + 1}); });
    CHECK(test::contains(err, "batch = "));
    CHECK(test::contains(err, "does not fit"));
    CHECK(test::error_of([&] { return estimate(llama70_tp8, chat, {.batch = s.batch}); }).empty());
}

TEST_CASE("estimate_point: a point priced elsewhere, checked as estimate checks a batch") {
    // A point at batch 32 on Llama-3.1-70B TP8: energy per token is 700 W × 8 GPUs ÷ its rate, as `estimate` has it.
    serving_point p = serve_at_batch(llama70_tp8, chat, 32);
    p.output_rate = tokens_per_second(4000.0);
    const request_estimate e = estimate_point(llama70_tp8, chat, p);
    CHECK(e.gpu_energy_per_output_token.value() == doctest::Approx(700.0 * 8 / 4000.0).epsilon(1e-12));
    SUBCASE("a point holding more than the KV room runs at most B of them: the rest wait, and it is priced") {
        // `estimate` refuses a given batch past the room; an online point's n counts the requests held, of
        // which at most B = the admissible batch run, the others waiting for a slot (docs/online-caps.md §2):
        // min(n, B) is what must fit, so the point is priced, charged at its own rate.
        const double room = saturated(llama70_tp8, chat).batch;
        CHECK(test::contains(test::error_of([&] { return estimate(llama70_tp8, chat, {.batch = room + 1}); }), "does not fit"));
        serving_point big = p;
        big.batch = room + 1;
        const request_estimate held = estimate_point(llama70_tp8, chat, big);
        CHECK(held.gpu_energy_per_output_token.value() == doctest::Approx(700.0 * 8 / 4000.0).epsilon(1e-12));
        big.batch = room;
        CHECK(test::error_of([&] { return estimate_point(llama70_tp8, chat, big); }).empty());
        // a shape of which not one sequence fits is still refused, naming it: at TP2 about 3.5 GB a GPU is left
        // after 70.5 GB of weights, and 120,500 tokens × 163.8 kB a token a GPU is 19.7 GB
        const deployment tp2{.m = llama70_tp8.m, .hw = llama70_tp8.hw, .layout = {.tp = 2}};
        const request_shape longest{.input = 120000_tok, .output = 500_tok};
        const std::string err = test::error_of([&] { return estimate_point(tp2, longest, p); });
        CHECK(test::contains(err, "KV per sequence"));
        CHECK(test::contains(err, "does not fit"));
    }
    SUBCASE("no tokens to charge: a rate that is zero, negative or not finite; a batch below one") {
        for (double rate : {0.0, -5.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
            CAPTURE(rate);
            serving_point bad = p;
            bad.output_rate = tokens_per_second(rate);
            const std::string err = test::error_of([&] { return estimate_point(llama70_tp8, chat, bad); });
            CHECK(test::contains(err, "output rate"));
            CHECK(test::contains(err, "positive and finite"));
        }
        serving_point none = p;
        none.batch = 0.0;
        CHECK(test::contains(test::error_of([&] { return estimate_point(llama70_tp8, chat, none); }), "at least one sequence"));
        none.batch = std::nan("");
        CHECK(test::contains(test::error_of([&] { return estimate_point(llama70_tp8, chat, none); }), "batch"));
    }
}

TEST_CASE("estimate: an unpriced GPU gives NaN cost, never a made-up one") {
    deployment b200{.m = catalog::llama_3_1_70b, .hw = catalog::b200_hgx, .layout = {.tp = 8}};
    b200.hw.capex_per_gpu = dollars(0.0);  // every catalog GPU has a price: take it away
    const request_estimate e = estimate(b200, chat, {.batch = 8, .pricing = pricing_basis::tco});
    CHECK_FALSE(e.cost_known());
    CHECK(std::isnan(e.cost_per_output_token.value()));
    CHECK(estimate(b200, chat, {.batch = 8, .gpu_cost = dollars_per_hour(3.0)}).cost_known());
}

TEST_CASE("estimate: options are validated") {
    CHECK(test::contains(test::error_of([] { return estimate(llama70_tp8, chat, {.batch = 0.5}); }), "batch = 0.5"));
    CHECK(test::contains(test::error_of([] { return estimate(llama70_tp8, chat, {.utilisation = 0}); }),
                         "utilisation = 0: must be in (0, 1]"));
    CHECK(test::contains(test::error_of([] {
                             return estimate(llama70_tp8, chat, {.gpu_cost = dollars_per_hour(-1.0)});
                         }),
                         "gpu_cost ($/s)"));
}

TEST_CASE("estimate: a given GPU-hour price is at most $10^12, and $ per million tokens is never infinite") {
    // The bound is the tool's (--usd-per-gpu-hour): $10^12 is priced, $10^13 refused; before session 53 Python's
    // usd_per_gpu_hour=1e308 priced usd_per_million_output_tokens as inf.
    CHECK(estimate(llama70_tp8, chat, {.batch = 8, .gpu_cost = dollars_per_hour(1e12)}).cost_known());
    const std::string high =
        test::error_of([] { return estimate(llama70_tp8, chat, {.batch = 8, .gpu_cost = dollars_per_hour(1e13)}); });
    CHECK(test::contains(high, "rate ($/GPU-h) = 1e+13"));
    CHECK(test::contains(high, "[llmcost.cost.gpu_hour_range]"));
    // Worked by hand: $10^12/h is 2.8e8 $/s; x 8 GPUs = 2.2e9 $/s; the output rate R at batch 8 lies between 10 and
    // 10^5 tokens/s, so 10^6 x 2.2e9 / (R x u) is at least 2.2e310 at u = 1e-300 (overflows a double, ~1.8e308) and at
    // most 2.2e304 at u = 1e-290 (finite).
    CHECK(estimate(llama70_tp8, chat, {.batch = 8, .utilisation = 1e-290, .gpu_cost = dollars_per_hour(1e12)}).cost_known());
    const std::string tiny = test::error_of(
        [] { return estimate(llama70_tp8, chat, {.batch = 8, .utilisation = 1e-300, .gpu_cost = dollars_per_hour(1e12)}); });
    CHECK(test::contains(tiny, "utilisation = 1e-300"));
    CHECK(test::contains(tiny, "[llmcost.cost.overflow]"));
}

TEST_CASE("estimate: properties") {
    SUBCASE("more sequences never lower the deployment's output rate nor raise energy per token") {
        double last_rate = 0, last_energy = INFINITY;
        for (double b : {1.0, 2.0, 8.0, 32.0, 128.0}) {
            const request_estimate e = estimate(llama70_tp8, chat, {.batch = b});
            CHECK(e.point.output_rate.value() >= last_rate);
            CHECK(e.gpu_energy_per_output_token.value() <= last_energy * (1 + 1e-12));
            last_rate = e.point.output_rate.value();
            last_energy = e.gpu_energy_per_output_token.value();
        }
    }
    SUBCASE("independent replicas: dp 2 doubles the rate and keeps every per-GPU figure") {
        deployment two = llama70_tp8;
        two.layout.dp = 2;
        const request_estimate one_e = estimate(llama70_tp8, chat, {.batch = 16});
        const request_estimate two_e = estimate(two, chat, {.batch = 16});
        CHECK(two_e.point.output_rate.value() == doctest::Approx(2 * one_e.point.output_rate.value()).epsilon(1e-12));
        CHECK(two_e.point.output_rate_per_gpu.value() == doctest::Approx(one_e.point.output_rate_per_gpu.value()).epsilon(1e-12));
        CHECK(two_e.cost_per_output_token.value() == doctest::Approx(one_e.cost_per_output_token.value()).epsilon(1e-12));
    }
}

TEST_CASE("with_formats: what --weights and --kv select") {
    const deployment fp8 = with_formats(llama70_tp8, formats::fp8, formats::fp8);
    CHECK(fp8.m.weights == formats::fp8);
    CHECK(fp8.m.kv_cache == formats::fp8);
    CHECK(fp8.m.activations == formats::fp8);  // W8A8 on Hopper's FP8 peak
    // 1 byte per parameter instead of 2: half the weights per GPU; half the KV per token.
    CHECK(weight_bytes_per_gpu(fp8).value() == doctest::Approx(weight_bytes_per_gpu(llama70_tp8).value() / 2).epsilon(1e-12));
    CHECK(kv_bytes_per_token(fp8.m).value() == doctest::Approx(kv_bytes_per_token(catalog::llama_3_1_70b).value() / 2));
    // INT4 is weight-only: dequantized, the matmuls stay in BF16.
    const deployment int4 = with_formats(llama70_tp8, formats::int4, formats::bf16);
    CHECK(int4.m.activations == formats::bf16);
    // gpt-oss ships MXFP4 experts; --weights replaces every weight's format.
    const deployment oss{.m = catalog::gpt_oss_120b, .hw = catalog::h100_sxm5};
    REQUIRE(oss.m.expert_weights.has_value());
    CHECK_FALSE(with_formats(oss, formats::bf16, formats::bf16).m.expert_weights.has_value());
}

TEST_CASE("price_request: one request's prefill, decode, GPU time, energy and money, by hand") {
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const request_cost c = price_request(llama70_tp8, r, 16, {.site = catalog::seed_site, .pricing = pricing_basis::tco});
    const double prefill = prefill_pass(llama70_tp8, 1, 1000_tok, 0_tok).time().value();
    double decode = 0;  // the 199 decode steps, one by one
    for (int i = 0; i < 199; ++i) decode += decode_pass(llama70_tp8, 16, tokens(1000.0 + i)).time().value();
    CHECK(c.prefill.value() == doctest::Approx(prefill).epsilon(1e-12));
    CHECK(c.decode.value() == doctest::Approx(decode).epsilon(1e-9));
    CHECK(c.end_to_end.value() == doctest::Approx(prefill + decode).epsilon(1e-9));
    // 8 GPUs: the whole prefill, 1/16 of every decode step.
    CHECK(c.gpu_seconds.value() == doctest::Approx((prefill + decode / 16) * 8).epsilon(1e-9));
    CHECK(c.gpu_energy.value() == doctest::Approx(700.0 * (prefill + decode / 16) * 8).epsilon(1e-9));
    CHECK(c.wall_energy.value() == doctest::Approx(c.gpu_energy.value() * 1.56).epsilon(1e-12));
    const double per_s = 24875.0 / (5 * 365.25 * 86400) + 700.0 * 1.56 / 3.6e6 * 0.0806;
    CHECK(c.cost.value() == doctest::Approx(per_s * c.gpu_seconds.value()).epsilon(1e-12));
    // More neighbours: each step slower, the request's share of the GPU smaller.
    const request_cost crowded = price_request(llama70_tp8, r, 64);
    CHECK(crowded.decode > c.decode);
    CHECK(crowded.gpu_seconds < c.gpu_seconds);
    hardware unpriced = catalog::b200_hgx;
    unpriced.capex_per_gpu = dollars(0.0);
    CHECK(std::isnan(price_request({.m = catalog::llama_3_1_8b, .hw = unpriced}, r, 1.0, {.pricing = pricing_basis::tco}).cost.value()));
    // On the market basis the B200 is charged its listed on-demand price ($6.03/GPU-h), capex or not.
    CHECK(price_request({.m = catalog::llama_3_1_8b, .hw = unpriced}, r, 1.0, {.market_prices = catalog::gpu_market_prices})
              .cost.value() > 0.0);
    // Without a price list the market basis falls back to capex + power: none here.
    CHECK(std::isnan(price_request({.m = catalog::llama_3_1_8b, .hw = unpriced}, r).cost.value()));
}

TEST_CASE("explain: a pass by kernel class sums to its time, and one GPU's memory to its HBM") {
    SUBCASE("Llama-3.1-70B, 8 x H100, 32 users of 2000 -> 500: the rows are the pass's own terms") {
        const serving_point s = serve_at_batch(llama70_tp8, chat, 32);
        const request_breakdown b = explain(llama70_tp8, chat, s);
        // The prefill row set is the pass behind prefill_s; the step's is the step the point priced.
        CHECK(b.prefill.time() == s.prefill_time);
        CHECK(b.step.time() == s.step.time());
        for (const auto& [pass, rows] : {std::pair{b.prefill, b.prefill_kernels}, std::pair{b.step, b.step_kernels}}) {
            double sum = 0;
            for (const kernel_class_cost& k : rows) sum += k.time.value();
            CHECK(sum == doctest::Approx(pass.time().value()).epsilon(1e-12));
            CHECK(rows[0].kernel == "GEMMs");
            CHECK(rows[0].bytes == pass.weight_bytes);
            CHECK(rows[1].flops == pass.attention_flops);
            CHECK(rows[4].kernel == "MoE padded buffer");
            CHECK(rows[4].time.value() == 0.0);  // dense: no padded expert runner
            CHECK(rows[6].time.value() == 0.0);  // dense: no all-to-all
        }
        // A 2,000-token prompt at batch 1 keeps the GEMMs compute-bound: 2000 rows against a ridge of
        // ~590 FLOP/B (989 TFLOP/s ÷ 3.35 TB/s × 2 B per weight) — the prefill is compute-bound.
        CHECK(b.prefill_kernels[0].limited_by == bound_by::compute);
        CHECK(b.prefill_kernels[5].kernel == "TP all-reduce");
        CHECK(b.prefill_kernels[5].time.value() > 0.0);
        CHECK(to_text(b.prefill_kernels[5].limited_by) == "link");
    }
    SUBCASE("memory by hand: 70.55 G BF16 parameters over 8 GPUs, 32 sequences of 2500 tokens") {
        // Dense weights 70.55e9 x 2 B / 8 = 17.64 GB; KV 327,680 B per token / 8 GPUs x 2500 x 32
        // = 3.2768 GB; slack: the driver's reserve, 80 GiB − 85,045,477,376 B (CUDA's total, session 52) = 853,868,544 B,
        // + 5% of 85,045,477,376 = 4,252,273,868.8 B: 5,106,142,412.8 B; activations 2 GB.
        const memory_breakdown m = memory_per_gpu(llama70_tp8, 32, 2500_tok);
        CHECK(m.dense_weights.value() == doctest::Approx(70.55e9 * 2 / 8).epsilon(1e-3));
        CHECK(m.expert_weights.value() == 0.0);
        CHECK(m.kv.value() == doctest::Approx(327680.0 / 8 * 2500 * 32).epsilon(1e-12));
        CHECK(m.slack.value() == doctest::Approx(5'106'142'412.8).epsilon(1e-12));
        CHECK(m.activations.value() == 2e9);
        const double parts = m.dense_weights.value() + m.expert_weights.value() + m.kv.value() + m.activations.value() +
                             m.slack.value() + m.free.value();
        CHECK(parts == doctest::Approx(m.capacity.value()).epsilon(1e-12));
        CHECK(m.free.value() == doctest::Approx(85'045'477'376.0 * 0.95 - 2e9 - 70.55e9 / 4 - 3.2768e9).epsilon(1e-3));
    }
    SUBCASE("at the saturated batch the held KV fits, and one more sequence would not") {
        const serving_point s = saturated(llama70_tp8, chat);
        const request_breakdown b = explain(llama70_tp8, chat, s);
        CHECK(s.limited_by == "KV capacity");
        CHECK(b.memory.free.value() >= 0.0);
        CHECK(memory_per_gpu(llama70_tp8, s.batch + 1, held_context(chat, {})).free.value() < 0.0);
    }
    SUBCASE("MoE: DeepSeek-V3 DEP8 on H200 holds its routed experts spread over 8 GPUs") {
        const deployment ds{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.ep = 8, .dp = 8}};
        const memory_breakdown m = memory_per_gpu(ds, 16, 4000_tok);
        // Routed experts: 58 MoE layers x 256 experts x 3 x 7168 x 2048 = 653.9 G FP8 parameters, 1 B
        // each, over the 8 GPUs of the EP group; the other ~17.1 G (671 G in all) sit whole on each.
        CHECK(m.expert_weights.value() == doctest::Approx(58.0 * 256 * 3 * 7168 * 2048 / 8).epsilon(1e-9));
        CHECK(m.dense_weights.value() == doctest::Approx(671e9 - 58.0 * 256 * 3 * 7168 * 2048).epsilon(0.02));
        const request_breakdown b = explain(ds, chat, serve_at_batch(ds, chat, 16));
        CHECK(b.step_kernels[6].time.value() > 0.0);  // EP all-to-all
        CHECK(b.step_kernels[5].time.value() == 0.0);  // tp 1: no all-reduce
        CHECK(b.step_kernels[4].time.value() == 0.0);  // H200's profile: no padded expert runner (c = 0)
    }
    SUBCASE("bad input is named") {
        CHECK(test::contains(test::error_of([] { return memory_per_gpu(llama70_tp8, -1, 100_tok); }),
                             "[llmcost.serving.sequences_non_negative]"));
    }
}
