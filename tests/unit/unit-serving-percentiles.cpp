// Latency percentiles under Poisson arrivals (issue 16): the engine as a bulk-service queue
// (queueing::bulk_steps and the quantiles that read it) checked on step laws worked by hand, then
// serve_online_latency's figures as laws. tables/percentiles.md checks them against the simulator.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/serving/queueing.hpp>
#include <llmcost/serving/throughput.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "test_helpers.hpp"

using namespace llmcost;
using namespace llmcost::literals;

TEST_CASE("percentiles: the elementary functions they need") {
    CHECK(detail::const_exp(0.0) == 1.0);
    CHECK(detail::const_exp(1.0) == doctest::Approx(2.718281828459045).epsilon(1e-15));
    CHECK(detail::const_exp(-20.0) == doctest::Approx(2.061153622438558e-09).epsilon(1e-14));
    CHECK(detail::const_exp(-800.0) == 0.0);
    CHECK(detail::const_log(1.0) == 0.0);
    CHECK(detail::const_log(10.0) == doctest::Approx(2.302585092994046).epsilon(1e-15));
    CHECK(detail::const_log(1e-300) == doctest::Approx(-690.7755278982137).epsilon(1e-14));
    for (double x : {0.001, 0.3, 7.0, 123456.0}) CHECK(detail::const_exp(detail::const_log(x)) == doctest::Approx(x).epsilon(1e-14));
    // Φ⁻¹ from tables: 0.5 → 0, 0.9 → 1.2815516, 0.99 → 2.3263479, 0.001 → −3.0902323.
    CHECK(detail::normal_quantile(0.5) == 0.0);
    CHECK(detail::normal_quantile(0.9) == doctest::Approx(1.2815515655).epsilon(1e-8));
    CHECK(detail::normal_quantile(0.99) == doctest::Approx(2.3263478740).epsilon(1e-8));
    CHECK(detail::normal_quantile(0.001) == doctest::Approx(-3.0902323062).epsilon(1e-8));
}

TEST_CASE("percentiles: a bulk-service queue with a constant step") {
    // Every step lasts τ = 10 ms whatever it carries, 40 arrivals/s: a request waits a residual
    // U(0, τ), then its step of τ. TTFT ~ τ + U(0, τ): p_q = τ(1 + q), mean 1.5τ; TPOT = τ exactly.
    const queueing::bulk_service e = queueing::bulk_steps([](double) { return 10_ms; }, 25_ms);
    CHECK(queueing::mean_step(e).value() == doctest::Approx(0.010).epsilon(1e-12));
    CHECK(queueing::first_token_mean(e).value() == doctest::Approx(0.015).epsilon(1e-12));
    for (double q : {0.1, 0.5, 0.9, 0.99})
        CHECK(queueing::first_token_quantile(e, q).value() == doctest::Approx(0.010 * (1.0 + q)).epsilon(1e-9));
    CHECK(queueing::first_token_cdf(e, 12_ms) == doctest::Approx(0.2).epsilon(1e-12));
    // π is Poisson(λτ) = Poisson(0.4): π₀ = e^−0.4.
    CHECK(e.share[0] == doctest::Approx(std::exp(-0.4)).epsilon(1e-12));
    CHECK(queueing::decode_weighted_step(e, 99).value() == doctest::Approx(0.010).epsilon(1e-12));
    CHECK(queueing::mean_step_quantile(e, 99, 0.9, 0_s).value() == doctest::Approx(0.010).epsilon(1e-12));
    // U(τ, 2τ) has standard deviation τ ÷ √12; constant steps average to τ with none.
    CHECK(queueing::first_token_deviation(e).value() == doctest::Approx(0.010 / std::sqrt(12.0)).epsilon(1e-9));
    CHECK(queueing::mean_step_deviation(e, 99, 0_s).value() == doctest::Approx(0.0).epsilon(1e-12));
    // The neighbours' spread adds in quadrature: √(0² + 3²) ms.
    CHECK(queueing::mean_step_deviation(e, 99, 3_ms).value() == doctest::Approx(0.003).epsilon(1e-12));
}

TEST_CASE("percentiles: a bulk-service queue with a step linear in its prompts") {
    // t(k) = a + c·k, a = 10 ms, c = 20 ms, λ = 20/s (λc = 0.4). Worked by hand from
    // k′ ~ Poisson(λt): E[t] = a + cλE[t] → E[t] = a ÷ (1 − λc) = 16.667 ms;
    // E[t²] = a² + 2acλE[t] + c²(λE[t] + λ²E[t²]) → E[t²] = (a² + (2acλ + c²λ)E[t]) ÷ (1 − c²λ²);
    // TTFT = r + a + c(1 + m): E[r] = E[t²] ÷ 2E[t], E[m] = λE[t²] ÷ E[t].
    const double a = 0.010, c = 0.020, lambda = 20.0;
    const queueing::bulk_service e = queueing::bulk_steps([&](double k) { return seconds(a + c * k); }, seconds(1.0 / lambda));
    const double t1 = a / (1.0 - lambda * c);
    const double t2 = (a * a + (2.0 * a * c * lambda + c * c * lambda) * t1) / (1.0 - c * c * lambda * lambda);
    CHECK(queueing::mean_step(e).value() == doctest::Approx(t1).epsilon(1e-9));
    CHECK(queueing::first_token_mean(e).value() ==
          doctest::Approx(t2 / (2.0 * t1) + a + c * (1.0 + lambda * t2 / t1)).epsilon(1e-9));
    SUBCASE("the quantile inverts the distribution, and the distribution rises from 0 to 1") {
        double prev = 0.0;
        for (double x = 0.0; x < 0.4; x += 0.005) {
            const double f = queueing::first_token_cdf(e, seconds(x));
            CHECK(f >= prev - 1e-15);
            prev = f;
        }
        CHECK(prev > 0.999999);
        CHECK(queueing::first_token_cdf(e, 2_s) == doctest::Approx(1.0).epsilon(1e-12));
        for (double q : {0.5, 0.9, 0.99})
            CHECK(queueing::first_token_cdf(e, queueing::first_token_quantile(e, q)) == doctest::Approx(q).epsilon(1e-9));
        CHECK(queueing::first_token_cdf(e, 30_ms) == 0.0);  // nobody is faster than a + c
    }
    SUBCASE("the decoders see longer steps than the mean step: a burst of prompts is followed by long steps") {
        CHECK(queueing::decode_weighted_step(e, 100).value() > t1);
        // ... and the wider the window of steps a request decodes over, the less it matters.
        CHECK(queueing::decode_weighted_step(e, 1000).value() < queueing::decode_weighted_step(e, 100).value());
        CHECK(queueing::mean_step_quantile(e, 100, 0.9, 0_s) > queueing::mean_step_quantile(e, 100, 0.5, 0_s));
        CHECK(queueing::mean_step_quantile(e, 1000, 0.9, 0_s) < queueing::mean_step_quantile(e, 100, 0.9, 0_s));
    }
    SUBCASE("refusals name the field and the rule") {
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, 1.0); }), "percentile"));
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, 0.0); }), "(0, 1)"));
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, std::nan("")); }), "percentile"));
        CHECK(test::contains(test::error_of([&] { return queueing::mean_step_quantile(e, 10, -0.5, 0_s); }), "percentile"));
        // λc = 1.2: each step brings more prompt work than it does.
        CHECK(test::contains(test::error_of([&] { return queueing::bulk_steps([&](double k) { return seconds(a + c * k); }, 1_s / 60.0); }),
                             "arrivals outpace the prefill"));
        CHECK(test::contains(test::error_of([&] { return queueing::bulk_steps([&](double k) { return seconds(a + c * k); }, 0_s); }),
                             "interarrival"));
    }
}

TEST_CASE("percentiles: serve_online_latency") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4}};
    const request_shape r{.input = 467_tok, .output = 256_tok};
    SUBCASE("quantiles are ordered, the mean lies between p50 and p99") {
        for (double gap : {2.0, 0.25, 0.1}) {
            const online_latency o = serve_online_latency(d, r, seconds(gap));
            const seconds_t t50 = ttft_percentile(o, 0.5), t90 = ttft_percentile(o, 0.9), t99 = ttft_percentile(o, 0.99);
            CHECK(t50 < t90);
            CHECK(t90 < t99);
            CHECK(o.point.ttft < t99);
            CHECK(o.point.ttft > t50 * 0.8);
            CHECK(tpot_percentile(o, 0.5) < tpot_percentile(o, 0.9));
            CHECK(tpot_percentile(o, 0.9) < tpot_percentile(o, 0.99));
            // E2E: normal around the mean end to end, Var(TTFT) + (O − 1)²·Var(TPOT).
            CHECK(e2e_percentile(o, 0.5).value() == doctest::Approx(o.point.e2e.value()).epsilon(1e-12));
            const double sd = std::hypot(queueing::first_token_deviation(o.steps).value(),
                                         255.0 * queueing::mean_step_deviation(o.steps, 255.0, o.spread).value());
            CHECK(e2e_percentile(o, 0.9).value() == doctest::Approx(o.point.e2e.value() + 1.2815515655 * sd).epsilon(1e-8));
        }
    }
    SUBCASE("at a low rate TTFT is the prefill step after part of a decode step, TPOT the decode step") {
        const online_latency o = serve_online_latency(d, r, 100_s);
        const seconds_t prefill = step_pass(d, {.prefill_sequences = 1, .prefill_tokens = 467_tok}).time();
        const seconds_t decode = decode_pass(d, 1, 595_tok).time();  // I + O/2
        CHECK(ttft_percentile(o, 0.5).value() == doctest::Approx(prefill.value()).epsilon(0.02));
        CHECK(ttft_percentile(o, 0.99).value() < (prefill + decode).value());
        CHECK(o.point.tpot.value() == doctest::Approx(decode.value()).epsilon(0.01));
        CHECK(tpot_percentile(o, 0.9).value() == doctest::Approx(decode.value()).epsilon(0.02));
    }
    SUBCASE("more traffic: every percentile grows") {
        const online_latency slow = serve_online_latency(d, r, 500_ms), fast = serve_online_latency(d, r, 100_ms);
        for (double q : {0.5, 0.9, 0.99}) {
            CHECK(ttft_percentile(fast, q) > ttft_percentile(slow, q));
            CHECK(tpot_percentile(fast, q) > tpot_percentile(slow, q));
        }
    }
    SUBCASE("chunked prompts are outside the model: refused, naming it") {
        const online_latency o = serve_online_latency(d, r, 500_ms, {.prefill_chunk = 128_tok});
        CHECK(test::contains(test::error_of([&] { return ttft_percentile(o, 0.9); }), "whole prompts"));
        CHECK(test::contains(test::error_of([&] { return tpot_percentile(o, 1.5); }), "percentile"));
    }
}

TEST_CASE("percentiles: plan with percentile targets and a load ceiling") {
    const model m = catalog::llama_3_1_70b;
    plan::traffic t{.requests_per_second = 20, .mix = {{.shape = {.input = 2000_tok, .output = 500_tok}}},
                    .target = {.ttft = 1_s, .tpot = 50_ms}, .ttft_percentile = 0.9, .tpot_percentile = 0.9};
    const plan::fleet_options o{.gpus = {catalog::h100_sxm5}, .prefill_batches = {}, .max_load = 0.85};
    const plan::fleet_result r = plan::cheapest_fleet(m, t, o);
    REQUIRE(r.best);
    const plan::deployment_plan& p = *r.best;
    CHECK(p.load <= 0.85 + 1e-12);
    // At the plan's instances the percentiles meet the targets; they are what the plan reports or less.
    const online_latency at = serve_online_latency(p.d, t.mix[0].shape, seconds(p.instances / 20.0));
    CHECK(ttft_percentile(at, 0.9) <= 1_s);
    CHECK(tpot_percentile(at, 0.9) <= 50_ms);
    CHECK(ttft_percentile(at, 0.9) <= p.ttft * (1 + 1e-12));
    SUBCASE("a tighter percentile target needs at least as many GPUs") {
        plan::traffic tight = t;
        tight.ttft_percentile = 0.99;
        const plan::fleet_result q = plan::cheapest_fleet(m, tight, o);
        REQUIRE(q.best);
        CHECK(q.best->gpus >= p.gpus);
    }
    SUBCASE("refusals") {
        plan::traffic bad = t;
        bad.ttft_percentile = 1.0;
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(m, bad, o); }), "ttft_percentile"));
        bad.ttft_percentile = std::nan("");
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(m, bad, o); }), "ttft_percentile"));
        plan::fleet_options high = o;
        high.max_load = 1.5;
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(m, t, high); }), "max_load"));
        high.max_load = 0.0;
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(m, t, high); }), "max_load"));
        plan::fleet_options chunked = o;
        chunked.limits.prefill_chunk = 512_tok;
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(m, t, chunked); }), "whole prompts"));
    }
    SUBCASE("a load ceiling alone sizes at rate / ceiling") {
        plan::traffic mean = t;
        mean.ttft_percentile = mean.tpot_percentile = 0;
        plan::fleet_options full = o;
        full.max_load = 1.0;
        const plan::fleet_result a = plan::cheapest_fleet(m, mean, full), b = plan::cheapest_fleet(m, mean, o);
        REQUIRE(a.best);
        REQUIRE(b.best);
        CHECK(b.best->load <= 0.85 + 1e-12);
        CHECK(b.best->gpus >= a.best->gpus);
    }
}
