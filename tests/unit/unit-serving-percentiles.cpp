// Latency percentiles under Poisson arrivals (issue 16): the engine as a bulk-service queue
// (queueing::bulk_steps and the quantiles that read it) checked on step laws worked by hand, then
// serve_online_latency's figures as laws. tables/percentiles.md checks them against the simulator.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/serving/queueing.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

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
    // U(τ, 2τ) has standard deviation τ ÷ √12.
    CHECK(queueing::first_token_deviation(e).value() == doctest::Approx(0.010 / std::sqrt(12.0)).epsilon(1e-9));
    // The decode episode of the same engine: no slope in either channel, so every request's TPOT is τ.
    const queueing::decode_loop l = queueing::decode_loop_of([](double, double) { return 10_ms; }, 25_ms, 99);
    CHECK(l.step.value() == doctest::Approx(0.010).epsilon(1e-12));
    CHECK(std::abs(l.gain) < 1e-12);
    CHECK(l.mean.value() == doctest::Approx(0.010).epsilon(1e-12));
    CHECK(l.deviation.value() < 1e-15);
    for (double q : {0.1, 0.5, 0.9, 0.99}) CHECK(queueing::mean_step_quantile(l, q).value() == doctest::Approx(0.010).epsilon(1e-12));
}

TEST_CASE("percentiles: an arrival that finds the engine empty starts at once") {
    // ι = e^(−n), the M/G/∞ count's empty share: n = 0 → 1, n = ln 2 → 0.5, n = 3 → 0.0497871.
    CHECK(queueing::empty_engine(0.0) == 1.0);
    CHECK(queueing::empty_engine(std::log(2.0)) == doctest::Approx(0.5).epsilon(1e-14));
    CHECK(queueing::empty_engine(3.0) == doctest::Approx(0.049787068367863944).epsilon(1e-12));
    for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()})
        CHECK(test::contains(test::error_of([&] { return queueing::empty_engine(bad); }), "requests held"));
    // The constant step τ = 10 ms at 40 arrivals/s, with half the arrivals finding the engine empty:
    // those take t(1) = 10 ms, the others τ + U(0, τ) as before (mean 15 ms). Mean 0.5·10 + 0.5·15
    // = 12.5 ms; F(10 ms) = 0.5 (the empty half, and no busy one yet), F(12 ms) = 0.5 + 0.5·0.2 = 0.6;
    // E[T²] = 0.5·100 + 0.5·(15² + 100/12) = 166.667 ms², so σ = √(166.667 − 156.25) = 3.2275 ms.
    queueing::bulk_service e = queueing::bulk_steps([](double) { return 10_ms; }, 25_ms);
    CHECK(e.idle == 0.0);  // bulk_steps: always a step in flight
    e.idle = 0.5;
    CHECK(queueing::first_token_mean(e).value() == doctest::Approx(0.0125).epsilon(1e-12));
    CHECK(queueing::first_token_cdf(e, 9.999_ms) == 0.0);
    CHECK(queueing::first_token_cdf(e, 10_ms) == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(queueing::first_token_cdf(e, 12_ms) == doctest::Approx(0.6).epsilon(1e-12));
    CHECK(queueing::first_token_quantile(e, 0.8).value() == doctest::Approx(0.016).epsilon(1e-9));  // 0.5 + 0.5·0.6
    CHECK(queueing::first_token_deviation(e).value() == doctest::Approx(std::sqrt(166.6666666666667e-6 - 0.0125 * 0.0125)).epsilon(1e-9));
    // TPOT reads the steps that run, not the idle time: unchanged.
    CHECK(queueing::decode_weighted_step(e, 99).value() == doctest::Approx(0.010).epsilon(1e-12));
}

TEST_CASE("percentiles: serve_online's TTFT with an empty engine, as laws") {
    // Llama-3.1-8B on one H100, 467 → 16: a request holds the engine about 0.13 s, so at 2 per
    // second n ≈ 0.26 and ι ≈ 0.77 of the arrivals find it empty.
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.tp = 1}};
    const request_shape r{.input = 467_tok, .output = 16_tok};
    const pass_model pm = prepare_pass(d);
    const seconds_t alone = serve_at_batch(pm, r, 1.0).ttft - serve_at_batch(pm, r, 1.0).residual;
    SUBCASE("at a rate that leaves the engine empty, TTFT is the prompt alone, no half step") {
        const online_latency o = serve_online_latency(d, r, 1000_s);
        CHECK(o.steps.idle > 0.999);
        CHECK(o.point.ttft.value() == doctest::Approx(o.steps.step[1].value()).epsilon(1e-3));
        CHECK(o.point.ttft.value() == doctest::Approx(alone.value()).epsilon(0.02));
    }
    SUBCASE("TTFT grows with the rate, the empty share falls") {
        double last_ttft = 0.0, last_idle = 1.0;
        for (double rate : {0.5, 2.0, 8.0, 32.0}) {
            const online_latency o = serve_online_latency(d, r, seconds(1.0 / rate));
            CHECK(o.point.ttft.value() > last_ttft);
            CHECK(o.steps.idle < last_idle);
            CHECK(o.steps.idle > 0.0);
            last_ttft = o.point.ttft.value();
            last_idle = o.steps.idle;
        }
    }
    SUBCASE("chunked prompts: an empty engine's arrival runs its chunks alone") {
        // One sequence's TTFT (`serve_at_batch` at b = 1) is its chunk steps alone; the step in
        // flight (its residual R) is what an arrival to a busy engine adds, and an empty one does not.
        const scheduler_limits l{.prefill_chunk = 128_tok};
        const serving_point one = serve_at_batch(pm, r, 1.0, l);
        CHECK(serve_online(d, r, 1000_s, l).ttft.value() == doctest::Approx(one.ttft.value()).epsilon(1e-3));
        CHECK(serve_online(d, r, 100_ms, l).ttft > serve_online(d, r, 1_s, l).ttft);
        CHECK(serve_online(d, r, 1_s, l).ttft < one.ttft + one.residual);
    }
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
    }
    SUBCASE("refusals name the field and the rule") {
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, 1.0); }), "percentile"));
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, 0.0); }), "(0, 1)"));
        CHECK(test::contains(test::error_of([&] { return queueing::first_token_quantile(e, std::nan("")); }), "percentile"));

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
                                         255.0 * o.decoding.deviation.value());
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
    plan::traffic t{.requests_per_second = per_second(20), .mix = {{.shape = {.input = 2000_tok, .output = 500_tok}}},
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

TEST_CASE("percentiles: a bulk-service queue whose steps carry at most B prompts") {
    SUBCASE("B = 1 with a constant step is M/D/1") {
        // t(1) = D = 100 ms, an idle poll of 1 µs, λ = 5/s: ρ = 0.5. Pollaczek–Khinchine:
        // W = λD² ÷ 2(1 − ρ) = 5 · 0.01 ÷ 1 = 50 ms, TTFT = W + D = 150 ms. The wait's law
        // (Crommelin 1932; Erlang): P(W ≤ x) = (1 − ρ) Σ_{k=0}^{⌊x/D⌋} (λ(kD − x))^k ÷ k! · e^{−λ(kD − x)}.
        const double D = 0.1, lambda = 5.0, rho = lambda * D;
        const queueing::capped_bulk_service e =
            queueing::capped_bulk_steps([](double k) { return k > 0.0 ? 100_ms : 1_us; }, 200_ms, 1.0);
        CHECK(queueing::first_token_mean(e).value() == doctest::Approx(0.150).epsilon(1e-3));
        const auto wait_cdf = [&](double x) {
            double s = 0.0;
            for (int k = 0; k <= static_cast<int>(std::floor(x / D)); ++k) {
                const double y = lambda * (k * D - x);
                s += std::pow(y, k) / std::tgamma(k + 1.0) * std::exp(-y);
            }
            return (1.0 - rho) * s;
        };
        for (double q : {0.5, 0.9, 0.99}) {
            double lo = 0.0, hi = 5.0;
            for (int i = 0; i < 100; ++i) ((wait_cdf((lo + hi) / 2.0) < q) ? lo : hi) = (lo + hi) / 2.0;
            INFO("q = " << q << ": M/D/1 wait " << hi);
            CHECK(queueing::first_token_quantile(e, q).value() == doctest::Approx(D + hi).epsilon(0.01));
        }
    }
    SUBCASE("a cap no queue reaches is the uncapped queue") {
        // t(k) = 10 ms + 20 ms·k at 20 arrivals/s, as in the test above: capped at 159 prompts, no
        // step ever leaves one waiting, and the figures are bulk_steps' to rounding.
        const auto t = [](double k) { return seconds(0.010 + 0.020 * k); };
        const queueing::bulk_service free = queueing::bulk_steps(t, 50_ms);
        const queueing::capped_bulk_service capped = queueing::capped_bulk_steps(t, 50_ms, 159.0);
        CHECK(queueing::first_token_mean(capped).value() == doctest::Approx(queueing::first_token_mean(free).value()).epsilon(1e-9));
        for (double q : {0.1, 0.5, 0.9, 0.99})
            CHECK(queueing::first_token_quantile(capped, q).value() ==
                  doctest::Approx(queueing::first_token_quantile(free, q).value()).epsilon(1e-6));
    }
    SUBCASE("a cap that binds on a step of fixed cost makes prompts wait longer") {
        // t(k) = 50 ms + 1 ms·k at 15 arrivals/s: uncapped, a step shares its 50 ms among the
        // λ·t ≈ 0.77 prompts that came during the last one; one prompt a step is an M/D/1 queue at
        // ρ = 15 × 51 ms = 0.765, whose wait λD² ÷ 2(1 − ρ) = 83 ms alone exceeds the uncapped TTFT
        // (its idle steps, 50 ms each, only add to it: TTFT > W + D).
        const auto t = [](double k) { return seconds(0.050 + 0.001 * k); };
        const queueing::bulk_service free = queueing::bulk_steps(t, 66.666666666666667_ms);
        const queueing::capped_bulk_service one = queueing::capped_bulk_steps(t, 66.666666666666667_ms, 1.0);
        CHECK(queueing::first_token_mean(free).value() < 0.083);
        CHECK(queueing::first_token_mean(one).value() > 0.083 + 0.051);
        CHECK(queueing::first_token_quantile(one, 0.9) > queueing::first_token_quantile(free, 0.9));
    }
    SUBCASE("refusals name the field and the rule") {
        const auto t = [](double) { return 10_ms; };
        for (double cap : {0.0, 1.5, 160.0, std::nan("")})
            CHECK(test::contains(test::error_of([&] { return queueing::capped_bulk_steps(t, 50_ms, cap); }), "cap"));
        // 200 ms a prompt, one a step, 10 arriving a second: ρ = 2, the queue never drains.
        CHECK(test::contains(test::error_of([&] { return queueing::capped_bulk_steps([](double) { return 200_ms; }, 100_ms, 1.0); }),
                             "outpace"));
    }
}

TEST_CASE("plan: a disaggregated prefill pool under percentile targets keeps its prompts per pass") {
    // Llama-3.1-8B on H100, 128 -> 128 tokens at 400 requests/s, TTFT p90 <= 200 ms: a pass of one
    // 128-token prompt is bound by reading the weights, so one prompt a pass costs about twice the GPU
    // time per prompt of sixteen, and an instance that takes one a pass serves half as many. Before the
    // cap was read, both modes were sized as if every queued prompt rode the next pass.
    plan::traffic t{.requests_per_second = per_second(400), .mix = {{.shape = {.input = 128_tok, .output = 128_tok}}},
                    .target = {.ttft = 200_ms, .tpot = 50_ms}, .ttft_percentile = 0.9, .tpot_percentile = 0.9};
    const auto plan_with = [&](double pb) {
        const plan::fleet_options o{.gpus = {catalog::h100_sxm5}, .layouts = {{.tp = 1}}, .colocated = false,
                                    .prefill_batches = {pb}, .refine = false};
        const plan::fleet_result r = plan::cheapest_fleet(catalog::llama_3_1_8b, t, o);
        REQUIRE(r.best);
        return *r.best;
    };
    const plan::deployment_plan one = plan_with(1.0), sixteen = plan_with(16.0);
    INFO("prefill instances: one prompt a pass " << one.prefill_instances << ", sixteen " << sixteen.prefill_instances);
    CHECK(one.prefill_instances > sixteen.prefill_instances);
    // One prompt a pass is M/D/1 per instance: its utilisation λ·t(1) ÷ n stays below 1.
    const pass_model pm = prepare_pass(one.d);
    const double t1 = prefill_pass(pm, 1.0, 128_tok, 0_tok).time().value();
    CHECK(400.0 * t1 / one.prefill_instances < 1.0);
    CHECK(one.ttft.value() <= 0.2);
    // The simulator with prefill servers that take one prompt a step keeps the plan's TTFT promise.
    // The plan's p90 is within 10% of it (6% short: with answers this short the decode pool's step,
    // nearly half the TTFT here, runs longer in the simulator than at the pool's Little's-law count).
    deployment d = one.d;
    d.layout.dp = static_cast<int>(one.prefill_instances + one.decode_instances);
    const sim::result r = sim::simulate(d, {.input = workload::fixed(128_tok), .output = workload::fixed(128_tok),
                                           .arrivals = workload::poisson(2.5_ms)},
                                        {.requests = 40000, .seed = 7, .keep_requests = false, .timeline_points = 0,
                                         .prefill_servers = one.prefill_instances, .prefill_batch = 1});
    INFO(one.prefill_instances << "P:" << one.decode_instances << "D: TTFT p90 sim " << r.ttft.p90 << " plan " << one.ttft.value());
    CHECK(r.ttft.p90 <= 0.2 * 1.05);
    CHECK(one.ttft.value() >= 0.90 * r.ttft.p90);
}

TEST_CASE("percentiles: the decoding count's Gauss rule (Charlier for Poisson, Meixner for the negative binomial)") {
    const auto moment = [](const queueing::detail::count_rule& g, int k) {
        double s = 0.0;
        for (std::size_t i = 0; i < queueing::detail::count_rule::size; ++i) s += g.weight[i] * std::pow(g.node[i], k);
        return s;
    };
    SUBCASE("1, D, D², D³ against the laws' moments, worked by hand") {
        // Poisson(μ): E[D²] = μ² + μ, E[D³] = μ³ + 3μ² + μ. μ = 0.5: 0.75 and 0.125 + 0.75 + 0.5 = 1.375;
        // μ = 3.7: 17.39 and 50.653 + 41.07 + 3.7 = 95.423.
        // Negative binomial, mean m, variance F·m, third central moment m·F·(2F − 1) (r·q·(1 + q) ÷ (1 − q)³):
        // E[D²] = m² + F·m, E[D³] = m³ + 3·m·F·m + m·F·(2F − 1). m = 0.5, F = 2: 1.25 and 0.125 + 1.5 + 3 =
        // 4.625; m = 3.7, F = 5.5: 13.69 + 20.35 = 34.04 and 50.653 + 225.885 + 203.5 = 480.038.
        struct law {
            double mean, fano, second, third;
        };
        for (const law& c : {law{0.5, 1.0, 0.75, 1.375}, law{3.7, 1.0, 17.39, 95.423}, law{0.5, 2.0, 1.25, 4.625},
                             law{3.7, 5.5, 34.04, 480.038}}) {
            CAPTURE(c.mean);
            CAPTURE(c.fano);
            const queueing::detail::count_rule g = queueing::detail::count_quadrature(c.mean, c.fano);
            CHECK(moment(g, 0) == doctest::Approx(1.0).epsilon(1e-14));
            CHECK(moment(g, 1) == doctest::Approx(c.mean).epsilon(1e-12));
            CHECK(moment(g, 2) == doctest::Approx(c.second).epsilon(1e-12));
            CHECK(moment(g, 3) == doctest::Approx(c.third).epsilon(1e-12));
            for (std::size_t i = 0; i < queueing::detail::count_rule::size; ++i) {
                CHECK(g.node[i] >= 0.0);  // inside the support: a count is never priced below 0
                CHECK(g.weight[i] >= 0.0);
                if (i > 0) CHECK(g.node[i] > g.node[i - 1]);
            }
        }
    }
    SUBCASE("exact to degree 17: the moments of the law summed term by term") {
        struct law {
            double mean, fano;
        };
        for (const law& c : {law{0.58, 1.0}, law{12.0, 1.0}, law{2.0, 3.0}, law{40.0, 1.8}}) {
            const double mean = c.mean, fano = c.fano;
            CAPTURE(mean);
            CAPTURE(fano);
            // P(j) by the laws' own recursions: Poisson P(j) = P(j − 1)·μ ÷ j; negative binomial
            // P(j) = P(j − 1)·(r + j − 1)·q ÷ j, P(0) = (1 − q)^r, r = m ÷ (F − 1), q = 1 − 1 ÷ F.
            const double r = fano > 1.0 ? mean / (fano - 1.0) : 0.0, q = fano > 1.0 ? 1.0 - 1.0 / fano : 0.0;
            double pj = fano > 1.0 ? std::pow(1.0 - q, r) : std::exp(-mean);
            std::array<double, 18> exact{};
            for (int j = 0; j < 4000; ++j) {
                if (j > 0) pj *= fano > 1.0 ? (r + j - 1.0) * q / j : mean / j;
                for (int k = 0; k < 18; ++k) exact[static_cast<std::size_t>(k)] += pj * std::pow(j, k);
            }
            const queueing::detail::count_rule g = queueing::detail::count_quadrature(mean, fano);
            for (int k = 0; k < 18; ++k) {
                CAPTURE(k);
                CHECK(moment(g, k) == doctest::Approx(exact[static_cast<std::size_t>(k)]).epsilon(1e-9));
            }
        }
    }
    SUBCASE("one rule at every mean and spread: continuous in F across 1, Gauss-Hermite's far out") {
        for (double mean : {0.3, 1.47, 30.0}) {
            const queueing::detail::count_rule at1 = queueing::detail::count_quadrature(mean, 1.0);
            const queueing::detail::count_rule above = queueing::detail::count_quadrature(mean, 1.0 + 1e-9);
            const queueing::detail::count_rule below = queueing::detail::count_quadrature(mean, 0.9);  // held at 1
            for (std::size_t i = 0; i < queueing::detail::count_rule::size; ++i) {
                CHECK(above.node[i] == doctest::Approx(at1.node[i]).epsilon(1e-7));
                CHECK(above.weight[i] == doctest::Approx(at1.weight[i]).epsilon(1e-6));
                CHECK(below.node[i] == at1.node[i]);
            }
        }
        // Poisson(10⁶): the standardised nodes (x − μ) ÷ √μ approach the probabilists' Gauss-Hermite nodes
        // (Abramowitz & Stegun 1964, table 25.10, × √2): 0, ±1.0232557, ±2.0768480, ±3.2054290, ±4.5127459,
        // shifted by the count's skew, of order x²÷(6√μ) ≈ 3·10⁻³ at the outer nodes (under 10⁻² here);
        // weight 0.40634921 (= 128/315) at the centre.
        const queueing::detail::count_rule far = queueing::detail::count_quadrature(1e6, 1.0);
        const std::array<double, 9> hermite{-4.5127459, -3.2054290, -2.0768480, -1.0232557, 0.0,
                                            1.0232557,  2.0768480,  3.2054290,  4.5127459};
        for (std::size_t i = 0; i < 9; ++i) CHECK(std::abs((far.node[i] - 1e6) / 1e3 - hermite[i]) < 1e-2);
        CHECK(far.weight[4] == doctest::Approx(128.0 / 315.0).epsilon(1e-3));
        // No decoders: the point mass at 0.
        const queueing::detail::count_rule none = queueing::detail::count_quadrature(0.0, 1.0);
        CHECK(none.weight[0] == 1.0);
        CHECK(moment(none, 1) == 0.0);
    }
    SUBCASE("a nearly-Poisson law at a small mean: the weights stay right (review s33a, SHOULD 1)") {
        // Poisson(μ): Σw = 1, E[D] = μ, E[D²] = μ² + μ; the negative binomial: E[D²] = μ² + F·μ. The forward
        // recurrence of the orthonormal polynomials gave E[D] = 3.4·10⁻¹⁰ at μ = 10⁻⁵, and NaN weights below
        // μ ≈ 3·10⁻⁵⁴.
        struct law {
            double mean, fano;
        };
        for (const law& c : {law{1e-5, 1.0}, law{1e-8, 1.0}, law{1e-4, 1.0 + 1e-6}, law{1e-4, 1.0 + 1e-9}, law{1e-60, 1.0},
                             law{1e-60, 101.0}, law{1e-270, 1.0}, law{1e-270, 1.0 + 1e-4}}) {
            CAPTURE(c.mean);
            CAPTURE(c.fano);
            const queueing::detail::count_rule g = queueing::detail::count_quadrature(c.mean, c.fano);
            for (std::size_t i = 0; i < queueing::detail::count_rule::size; ++i) {
                CHECK_FALSE(std::isnan(g.weight[i]));
                CHECK(g.weight[i] >= 0.0);
            }
            CHECK(moment(g, 0) == doctest::Approx(1.0).epsilon(1e-14));
            CHECK(moment(g, 1) == doctest::Approx(c.mean).epsilon(1e-12));
            CHECK(moment(g, 2) == doctest::Approx(c.mean * c.mean + c.fano * c.mean).epsilon(1e-12));
        }
    }
    SUBCASE("D̄ ≤ 10⁻²⁸⁰ is the point mass at 0, continuous with the rule just above") {
        // P(D > 0) ≤ D̄: a bounded f, here 1 ÷ (1 + D), has E[f] within D̄ of f(0) = 1 on both sides.
        const queueing::detail::count_rule at = queueing::detail::count_quadrature(1e-280, 1.0);
        const queueing::detail::count_rule above = queueing::detail::count_quadrature(1.001e-280, 1.0);
        CHECK(at.weight[0] == 1.0);
        CHECK(moment(at, 1) == 0.0);
        CHECK(moment(above, 1) == doctest::Approx(1.001e-280).epsilon(1e-12));
        double f_at = 0.0, f_above = 0.0;
        for (std::size_t i = 0; i < queueing::detail::count_rule::size; ++i) {
            f_at += at.weight[i] / (1.0 + at.node[i]);
            f_above += above.weight[i] / (1.0 + above.node[i]);
        }
        CHECK(f_at == 1.0);
        CHECK(std::abs(f_above - f_at) <= 1e-279);
    }
}

TEST_CASE("percentiles: the decoder-weighted average leaves out the count's nodes of negligible weight") {
    // D̄ = 100, F = 101 (the loop's F at the gain threshold): the rule's top node sits ≈ 2,650 decoders out with
    // weight ≈ 3·10⁻¹¹ (review s33a), where a bulk chain may refuse. With g(D) = D the average is E[D²] ÷ E[D] =
    // (D̄² + F·D̄) ÷ D̄ = D̄ + F = 201, the dropped node moving it by w·x² ÷ E[D²] ≈ 3·10⁻¹¹·7·10⁶ ÷ 20,100 ≈ 10⁻⁸.
    const queueing::detail::count_rule g = queueing::detail::count_quadrature(100.0, 101.0);
    const double top = g.node[8], next = g.node[7];
    REQUIRE(g.weight[8] < queueing::detail::negligible_count_mass);
    REQUIRE(g.weight[7] >= queueing::detail::negligible_count_mass);
    CHECK(top > 2000.0);
    const auto refusing_past = [](double limit) {
        return [limit](double x) {
            if (x > limit) throw std::domain_error("a chain that does not exist");
            return x;
        };
    };
    const double mean = queueing::detail::decoder_weighted(100.0, 101.0, refusing_past((top + next) / 2.0));
    CHECK(mean == doctest::Approx(201.0).epsilon(1e-6));
    CHECK(mean <= next);  // within the priced nodes' range
    // A node of weight ≥ 10⁻⁹ that cannot be priced is the average's refusal, as before.
    CHECK_THROWS_AS((void)queueing::detail::decoder_weighted(100.0, 101.0, refusing_past((next + g.node[6]) / 2.0)),
                    std::domain_error);
    // Nothing decoding: no average (0), the caller keeps its own.
    CHECK(queueing::detail::decoder_weighted(0.0, 1.0, refusing_past(0.0)) == 0.0);
}

static_assert(queueing::detail::count_quadrature(0.5, 1.0).weight[0] > 0.6 &&
              queueing::detail::count_quadrature(0.5, 1.0).weight[0] < 0.61);  // P(0) = e^(−0.5) = 0.6065, nearly

// The loop is constant-evaluable: the AR(1) case below, and a constant step's episode.
static_assert(queueing::detail::loop_response(20.0, 0.025, 0.0, 0.010, 1.0).decoding_variance > 0.5208333 &&
              queueing::detail::loop_response(20.0, 0.025, 0.0, 0.010, 1.0).decoding_variance < 0.5208334);
constexpr double constant_step_mean = queueing::decode_loop_of([](double, double) { return 10_ms; }, 25_ms, 9).mean.value();
static_assert(constant_step_mean > 0.0099999999 && constant_step_mean < 0.0100000001);

TEST_CASE("percentiles: the decode loop's linear response, worked by hand") {
    SUBCASE("the prompt channel alone, one step: an AR(1) in the prompts a step carries") {
        // λ = 20/s, p = 10 ms, c = 0, t̄ = 25 ms, N = 1: δk_s = λp·δk_{s−1} + ε_s, a = λp = 0.2,
        // Var ε = λt̄ = 0.5, so Var k = 0.5 ÷ (1 − 0.04) = 0.520833; Y = t_1 = t̄ + p·δk_1:
        // Var Y = p²·Var k = 5.20833e-5 s²; a request rode k_0, and Cov(k_0, t_1) ÷ k̄ = p·a·Var k ÷ 0.5
        // = 2.08333 ms; D_s = k_{s−1}: Var D = Var k.
        const auto m = queueing::detail::loop_response(20.0, 0.025, 0.0, 0.010, 1.0);
        CHECK(m.window_variance == doctest::Approx(1e-4 * 0.5 / 0.96).epsilon(1e-12));
        CHECK(m.mean_shift == doctest::Approx(0.010 * 0.2 * (0.5 / 0.96) / 0.5).epsilon(1e-12));
        CHECK(m.decoding_variance == doctest::Approx(0.5 / 0.96).epsilon(1e-12));
    }
    SUBCASE("the decoding channel alone, one step: an AR(2) with lag-two gain λc") {
        // λ = 20/s, c = 10 ms, p = 0, t̄ = 25 ms, N = 1: t_s = t̄ + c·δk_{s−1}, δk_s = λc·δk_{s−2} + ε_s,
        // b = λc = 0.2, Var k = 0.5 ÷ (1 − b²); Y = t_1 = t̄ + c·δk_0: Var Y = c²·Var k, and the request
        // that rode k_0 decodes beside it: shift = c·Var k ÷ k̄ = 10.4167 ms.
        const auto m = queueing::detail::loop_response(20.0, 0.025, 0.010, 0.0, 1.0);
        CHECK(m.window_variance == doctest::Approx(1e-4 * 0.5 / 0.96).epsilon(1e-12));
        CHECK(m.mean_shift == doctest::Approx(0.010 * (0.5 / 0.96) / 0.5).epsilon(1e-12));
        CHECK(m.decoding_variance == doctest::Approx(0.5 / 0.96).epsilon(1e-12));
    }
    SUBCASE("no feedback, two steps: the window sums independent prompts") {
        // λ → 0 with λt̄ = 1 (unit Poisson noise, no loop), c = 1 ms, p = 2 ms, N = 2:
        // t_1 = c(k_0 + k_−1) + p·k_1, t_2 = c(k_1 + k_0) + p·k_2, so 2Y = c·k_−1 + 2c·k_0 + (c + p)·k_1 + p·k_2:
        // Var Y = (1 + 4 + 9 + 4) ÷ 4 = 4.5 ms²; the request is one of k_0 and decodes both steps beside
        // itself: shift = (c + c) ÷ 2 = c; Var D = 2.
        const auto m = queueing::detail::loop_response(1e-12, 1e12, 0.001, 0.002, 2.0);
        CHECK(m.window_variance == doctest::Approx(4.5e-6).epsilon(1e-9));
        CHECK(m.mean_shift == doctest::Approx(0.001).epsilon(1e-9));
        CHECK(m.decoding_variance == doctest::Approx(2.0).epsilon(1e-9));
    }
}

TEST_CASE("percentiles: the decode loop of a step linear in its decoders and prompts") {
    // t(D, k) = a + c·D + p·k, a = 20 ms, c = 0.1 ms, p = 5 ms, λ = 10/s, N = 200: the mean step solves
    // t̄ = a + c·N·λ·t̄ + p·λ·t̄, so t̄ = a ÷ (1 − λ(p + cN)) = 20 ms ÷ 0.75 = 26.667 ms; the slopes of a
    // linear step are its coefficients; the gain is λ(p + cN) = 0.25.
    const auto t = [](double d, double k) { return seconds(0.020 + 0.0001 * d + 0.005 * k); };
    const queueing::decode_loop l = queueing::decode_loop_of(t, 100_ms, 200);
    CHECK(l.step.value() == doctest::Approx(0.020 / 0.75).epsilon(1e-9));
    CHECK(l.per_decoder.value() == doctest::Approx(0.0001).epsilon(1e-6));
    CHECK(l.per_prompt.value() == doctest::Approx(0.005).epsilon(1e-9));
    CHECK(l.gain == doctest::Approx(0.25).epsilon(1e-6));
    // The request's own presence: one more decoder for all its N steps, so its mean is at least t̄ + c.
    CHECK(l.mean.value() > l.step.value() + 0.0001);
    const auto m = queueing::detail::loop_response(10.0, 0.020 / 0.75, 0.0001, 0.005, 200.0);
    CHECK(l.mean.value() == doctest::Approx(0.020 / 0.75 + m.mean_shift).epsilon(1e-6));
    CHECK(l.deviation.value() == doctest::Approx(std::sqrt(m.window_variance)).epsilon(1e-6));
    SUBCASE("quantiles: lognormal, ordered, median below the mean") {
        const double s2 = std::log(1.0 + std::pow(l.deviation.value() / l.mean.value(), 2));
        CHECK(queueing::mean_step_quantile(l, 0.9).value() ==
              doctest::Approx(l.mean.value() * std::exp(-s2 / 2.0 + 1.2815515655 * std::sqrt(s2))).epsilon(1e-8));
        CHECK(queueing::mean_step_quantile(l, 0.5) < l.mean);
        CHECK(queueing::mean_step_quantile(l, 0.5) < queueing::mean_step_quantile(l, 0.9));
        CHECK(queueing::mean_step_quantile(l, 0.9) < queueing::mean_step_quantile(l, 0.99));
    }
    SUBCASE("more traffic: a longer mean, a wider spread, a higher gain") {
        const queueing::decode_loop busy = queueing::decode_loop_of(t, 50_ms, 200);
        CHECK(busy.gain == doctest::Approx(0.5).epsilon(1e-6));
        CHECK(busy.step.value() == doctest::Approx(0.040).epsilon(1e-9));
        CHECK(busy.mean > l.mean);
        CHECK(busy.deviation > l.deviation);
    }
    SUBCASE("refusals name the field and the rule") {
        // λ = 38/s: gain 38 × 25 ms = 0.95, still settles. A step of 40 ms + 0.4925 ms·D + 1 ms·k at
        // 10/s: gain 10 × (1 ms + 200 × 0.4925 ms) = 0.995, past 0.99, refused (t̄ = 40 ms ÷ 0.005 = 8 s);
        // with 0.6 ms a decoder the gain is 1.21: no steady state at all.
        CHECK(queueing::decode_loop_of(t, seconds(1.0 / 38.0), 200).gain == doctest::Approx(0.95).epsilon(1e-6));
        const auto slow = [](double c) { return [c](double d, double k) { return seconds(0.040 + c * d + 0.001 * k); }; };
        const queueing::decode_loop near = queueing::decode_loop_of(slow(0.0004925), 100_ms, 200);
        CHECK(near.gain == doctest::Approx(0.995).epsilon(1e-6));
        CHECK(test::contains(test::error_of([&] { return queueing::mean_step_quantile(near, 0.9); }), "percentile_slow_mode"));
        // Past 0.99 the root stands (t̄ = 8 s, its slopes); only the moments are left at 0.
        CHECK(near.step.value() == doctest::Approx(8.0).epsilon(1e-9));
        CHECK(near.per_decoder.value() == doctest::Approx(0.0004925).epsilon(1e-6));
        CHECK(near.mean.value() == 0.0);
        const queueing::decode_loop over = queueing::decode_loop_of(slow(0.0006), 100_ms, 200);
        CHECK_FALSE(over.gain < 1.0);
        CHECK(over.step.value() == 0.0);  // no root: no steady state
        CHECK(test::contains(test::error_of([&] { return queueing::mean_step_quantile(over, 0.9); }), "loop gain"));
        CHECK(test::contains(test::error_of([&] { return queueing::mean_step_quantile(l, 1.0); }), "percentile"));
        CHECK(test::contains(test::error_of([&] { return queueing::mean_step_quantile(l, std::nan("")); }), "percentile"));
        CHECK(test::contains(test::error_of([&] { return queueing::decode_loop_of(t, 0_s, 200); }), "interarrival"));
        CHECK(test::contains(test::error_of([&] { return queueing::decode_loop_of(t, 100_ms, 0.5); }), "steps"));
    }
}

TEST_CASE("percentiles: the decode loop's t̄ is the root under the F it returns") {
    // t(D, k) = a + c·D + e·D² + p·k, a = 20 ms, c = 50 µs, e = 1 µs, p = 2 ms, λ = 14/s, N = 200. Its mean
    // needs only D's first two moments, E[D²] = D̄² + F·D̄, and E[k] = λ·t̄, so the root under a Fano factor F
    // solves t̄ = a + c·D̄ + e·(D̄² + F·D̄) + p·λ·t̄ with D̄ = N·λ·t̄ = 2800·t̄, whatever rule integrates D's
    // law (exact to degree 17). The F that `decode_loop::fano` returns, which the TPOT averages over, must be
    // the one the root was solved with: this residual vanishes to the bisection's tolerance. At this gain
    // (≈ 0.81) F still drifts between the rounds: the F the last round's loop response would feed a fifth
    // round is 2% higher (5.34 against 5.23), and with it the relative residual was e·ΔF·D̄ ÷ t̄ = 1 µs·0.11·2800/s
    // = 3·10⁻⁴ (not 3·10⁻⁵, as commit 0c0199c's message had it).
    const auto t = [](double d, double k) { return seconds(0.020 + 50e-6 * d + 1e-6 * d * d + 0.002 * k); };
    const queueing::decode_loop l = queueing::decode_loop_of(t, seconds(1.0 / 14.0), 200);
    REQUIRE(l.step.value() > 0.0);
    const double x = l.step.value(), dbar = 2800.0 * x, f = l.fano;
    CHECK(f > 2.0);  // the loop's own spread
    CHECK(l.gain == doctest::Approx(0.81).epsilon(0.01));
    const double expected = 0.020 + 50e-6 * dbar + 1e-6 * (dbar * dbar + f * dbar) + 0.002 * 14.0 * x;
    CHECK(x == doctest::Approx(expected).epsilon(1e-11));
}

TEST_CASE("percentiles: the decoding count's spread runs on continuously across the loop gain 0.99") {
    // t(D, k) = 40 ms + c·D + 1 ms·k at λ = 10/s, N = 200: gain g = 10·(1 ms + 200·c), so c = (g ÷ 10 − 1 ms) ÷ 200,
    // and the linear step's root is t̄ = 40 ms ÷ (1 − g) whatever the spread (E[t] is linear in D). Past 0.99 the
    // moments are not priced, but F, which the TPOT averages over, must not fall back to the Poisson count's 1 (it is
    // ≈ 100 just below the threshold): neighbours on a grid of Δg = 5·10⁻⁴ across it stay within 10% of each other.
    const auto at_gain = [](double g) {
        const double c = (g / 10.0 - 0.001) / 200.0;
        return queueing::decode_loop_of([c](double d, double k) { return seconds(0.040 + c * d + 0.001 * k); }, 100_ms, 200);
    };
    double previous = 0.0;
    for (double g = 0.9880; g < 0.99205; g += 0.0005) {
        CAPTURE(g);
        const queueing::decode_loop l = at_gain(g);
        CHECK(l.gain == doctest::Approx(g).epsilon(1e-6));
        CHECK(l.step.value() == doctest::Approx(0.040 / (1.0 - g)).epsilon(1e-6));
        CHECK(l.fano > 50.0);  // the loop's own spread, far above the Poisson count's 1
        if (previous > 0.0) CHECK(std::abs(l.fano - previous) <= 0.1 * previous);
        CHECK((l.mean.value() > 0.0) == (l.gain < queueing::max_loop_gain));  // the moments only below the threshold
        previous = l.fano;
    }
}

TEST_CASE("percentiles: the decode loop's root averages a tooth over the Poisson prompts") {
    // t(D, k) = a + c·D + J·[k ≥ 2]: a = 10 ms, c = 0.1 ms a decoder, J = 20 ms when a step carries two
    // prompts or more; N = 99 decode steps, λ = 40/s. Raw first crossing (k held at its mean λ·x):
    // x = a + c·N·λ·x while λ·x < 2, so x = 10 ms ÷ (1 − 0.396) = 16.556 ms, k̄ = 0.66: the tooth never
    // bites. Averaged over k ~ Poisson(λ·x) (D enters linearly, so its spread drops out):
    // x = a + 0.396·x + J·P(k ≥ 2), P(k ≥ 2) = 1 − e^(−λx)(1 + λx). Independent python (bracket upward
    // from a in 2% steps, bisect):
    //   f = lambda x: 0.010 + 0.0001*99*40*x + 0.020*(1 - math.exp(-40*x)*(1 + 40*x)) - x
    // gives x = 25.5967 ms; by hand at x = 25.597 ms: λx = 1.0239, P = 1 − 0.35920·2.0239 = 0.27300,
    // 10 + 10.136 + 5.460 = 25.596 ms. D̄ = N·λ·x = 99 × 40 × 25.597 ms = 101.36 decoders.
    const auto t = [](double d, double k) { return seconds(0.010 + 0.0001 * d + (k >= 2.0 ? 0.020 : 0.0)); };
    const queueing::decode_loop l = queueing::decode_loop_of(t, 25_ms, 99);
    CHECK(l.step.value() == doctest::Approx(0.0255967).epsilon(1e-4));
    CHECK(l.steps * l.step.value() * 40.0 == doctest::Approx(101.363).epsilon(1e-4));
    CHECK(l.step.value() > 0.010 / (1.0 - 0.396) * 1.5);  // far above the raw first crossing, 16.556 ms
    SUBCASE("far below capacity the two roots agree within 1%") {
        // λ = 1/s: x = 10 ms ÷ (1 − 0.0099) = 10.1000 ms raw; the tooth adds 20 ms × P(k ≥ 2) ≈ 20 ms ×
        // (0.0101)²÷2 ≈ 1 µs: smoothed 10.1010 ms (python above with λ = 1).
        const queueing::decode_loop slow = queueing::decode_loop_of(t, 1_s, 99);
        CHECK(slow.step.value() == doctest::Approx(0.010101013).epsilon(1e-5));
        CHECK(slow.step.value() == doctest::Approx(0.010 / (1.0 - 0.0099)).epsilon(0.01));
    }
}

TEST_CASE("percentiles: the decode loop counts a few decoders as a count, not a normal held at 0") {
    // t(D, k) = a + c·D, a = 10 ms, c = 5 ms a decoder, N = 9, λ = 5/s: t̄ = a ÷ (1 − λ·c·N) =
    // 10 ms ÷ 0.775 = 12.903226 ms, D̄ = N·λ·t̄ = 0.58065. A linear step needs only E[D] = D̄: the
    // Poisson (F = 1) or negative-binomial count has it exactly, while a normal of variance F·D̄
    // held at 0 would have E[max(0, D)] = μ·Φ(μ/σ) + σ·φ(μ/σ) > D̄ (F = 1: μ = 0.58065, σ = 0.76201,
    // 0.58065 × 0.7770 + 0.76201 × 0.2985 = 0.679, 17% high) and a mean step ≈ 0.7 ms longer.
    const auto t = [](double d, double) { return seconds(0.010 + 0.005 * d); };
    const queueing::decode_loop l = queueing::decode_loop_of(t, 200_ms, 9);
    CHECK(l.step.value() == doctest::Approx(0.010 / 0.775).epsilon(1e-9));
    CHECK(l.per_decoder.value() == doctest::Approx(0.005).epsilon(1e-6));
    // The visitor itself: Poisson(0.5) for F = 1 and the negative binomial for F = 2, both of mean 0.5,
    // variances 0.5 and 1, every node at 0 or more.
    for (double fano : {1.0, 2.0}) {
        double mass = 0, mean = 0, second = 0, lowest = 1.0;
        queueing::detail::each_decoder(0.5, fano, [&](double w, double x) {
            mass += w;
            mean += w * x;
            second += w * x * x;
            lowest = std::min(lowest, x);
        });
        CHECK(mass == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(mean == doctest::Approx(0.5).epsilon(1e-12));
        CHECK(second - mean * mean == doctest::Approx(0.5 * fano).epsilon(1e-10));
        CHECK(lowest >= 0.0);
    }
}

TEST_CASE("percentiles: TPOT and b run smoothly where the old rule switched laws") {
    // Llama-3.1-8B on one H100, 467 → 16 (N = 15): at 11–11.5 req/s D̄ ≈ 1.2 decoders, where the old
    // visitor switched from the discrete law (D̄ + 12·√(F·D̄) ≤ 16) to 9 Hermite nodes clamped at 0: the
    // TPOT's increment over that 0.5 req/s fell 12% below its neighbours' (curvature ratio 0.12–0.15 against
    // ≈ 0.013 elsewhere). One Gauss rule at every D̄: each increment within 5% of the one before.
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.tp = 1}};
    const request_shape r{.input = 467_tok, .output = 16_tok};
    std::vector<double> tpot, batch;
    for (double rate = 9.0; rate <= 14.01; rate += 0.25) {
        const online_latency o = serve_online_latency(d, r, seconds(1.0 / rate));
        tpot.push_back(o.point.tpot.value());
        batch.push_back(o.point.batch);
    }
    for (std::size_t i = 1; i + 1 < tpot.size(); ++i) {
        CAPTURE(9.0 + 0.25 * static_cast<double>(i));
        const double dt = tpot[i + 1] - tpot[i], dt0 = tpot[i] - tpot[i - 1];
        const double db = batch[i + 1] - batch[i], db0 = batch[i] - batch[i - 1];
        CHECK(dt > 0.0);
        CHECK(db > 0.0);
        CHECK(std::abs(dt - dt0) <= 0.05 * dt);
        CHECK(std::abs(db - db0) <= 0.05 * db);
    }
}

TEST_CASE("percentiles: TPOT's quantiles as laws on a deployment") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4}};
    const request_shape r{.input = 467_tok, .output = 256_tok};
    const double zero_load = decode_pass(d, 1, 595_tok).time().value();  // one sequence at I + O/2
    const double sat = saturated(d, r).output_rate.value() / 256.0;
    double last50 = 0.0, last90 = 0.0;
    for (double load : {0.01, 0.2, 0.5, 0.7, 0.85, 0.9}) {
        const online_latency o = serve_online_latency(d, r, seconds(1.0 / (load * sat)));
        const double p50 = tpot_percentile(o, 0.5).value(), p90 = tpot_percentile(o, 0.9).value();
        INFO("load " << load << ": p50 " << p50 << " p90 " << p90 << " zero-load step " << zero_load);
        CHECK(p90 >= p50);
        CHECK(p50 >= zero_load * (1.0 - 1e-9));
        CHECK(p50 > last50);  // more load, longer and wider
        CHECK(p90 > last90);
        CHECK(o.decoding.gain < 1.0);
        last50 = p50;
        last90 = p90;
    }
}
