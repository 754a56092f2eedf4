// The simulated disaggregated closed loop (sim/disaggregated.hpp): small runs composed by hand from
// the library's own step costs (one client; two clients on one prefill rank, one prompt a pass and
// both in one pass; a saturated prefill pool whose rate is the loop's), the laws (monotone in the
// clients; the closed form's bounds; the same seed, the same figures) and the refusals.
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/sim/disaggregated.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
deployment llama70b_tp8_fp8_f10() {
    deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    d.m.weights = d.m.kv_cache = d.m.activations = formats::fp8;
    d.engine.overheads.request = 10_ms;
    d.validate();
    return d;
}
double step(const deployment& d, double b, double context) { return decode_pass(d, b, tokens(context)).time().value(); }
}  // namespace

TEST_CASE("disagg sim: one client, every prompt alone — TTFT, TPOT and the rate by hand") {
    // One TP8 prefill worker, one TP8 decode worker (one attention rank each), F = 10 ms; prompts of
    // I = 1000, answers of O = 4, N = 3. Each request: the prefill pass of one prompt t₁, the KV
    // transfer, then four decode steps alone at contexts 1000, 1001, 1002, 1003; TTFT = t₁ + kv + s₀ + F,
    // and the client sends the next prompt F after the last token: cycle = t₁ + kv + Σ s + F.
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_result s = sim::simulate_disaggregated(
        {.d = d, .workers = 1}, {.d = d, .workers = 1},
        {.input = workload::fixed(1000_tok), .output = workload::fixed(4_tok), .clients = 1, .prompts = 3},
        kv_path::scale_up);
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const double s0 = step(d, 1, 1000), s1 = step(d, 1, 1001), s2 = step(d, 1, 1002), s3 = step(d, 1, 1003);
    const double ttft = t1 + kv + s0 + 0.010, cycle = t1 + kv + s0 + s1 + s2 + s3 + 0.010;
    CHECK(s.ttft.mean == doctest::Approx(ttft).epsilon(1e-12));
    CHECK(s.ttft.max == doctest::Approx(ttft).epsilon(1e-12));
    CHECK(s.tpot.mean == doctest::Approx((s1 + s2 + s3) / 3.0).epsilon(1e-12));
    CHECK(s.makespan == doctest::Approx(3.0 * cycle).epsilon(1e-12));
    CHECK(s.output_tokens == 12.0);
    CHECK(s.output_tokens_per_s == doctest::Approx(12.0 / (3.0 * cycle)).epsilon(1e-12));
    CHECK(s.mean_decode_batch == 1.0);
    CHECK(s.mean_prompts_per_pass == 1.0);
    CHECK(s.decode_steps == 12.0);
}

TEST_CASE("disagg sim: two clients on one prefill rank — the second prompt waits for the first pass") {
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1000_tok), .output = workload::fixed(3_tok), .clients = 2,
                                      .prompts = 2};
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double t2 = prefill_pass(d, 2.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    SUBCASE("a cap of one prompt a pass, two decode ranks: A done at t₁, B at 2·t₁, each decoding alone") {
        const sim::disaggregated_result s = sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 2}, c,
                                                                        kv_path::scale_up, {.max_tokens_per_step = 1000});
        CHECK(s.ttft.mean == doctest::Approx(1.5 * t1 + kv + step(d, 1, 1000) + 0.010).epsilon(1e-12));
        CHECK(s.ttft.max - s.ttft.p50 == doctest::Approx(0.5 * t1).epsilon(1e-9));  // B's wait: t₁, half above the mean of two
        CHECK(s.mean_prompts_per_pass == 1.0);
        CHECK(s.mean_decode_batch == 1.0);
        // The last answer (B's) ends at 2·t₁ + kv + three steps alone; the client sees it F later.
        CHECK(s.makespan ==
              doctest::Approx(2.0 * t1 + kv + step(d, 1, 1000) + step(d, 1, 1001) + step(d, 1, 1002) + 0.010).epsilon(1e-12));
    }
    SUBCASE("a cap of two prompts, one decode rank: one pass of both, then steps of two") {
        const sim::disaggregated_result s = sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, c,
                                                                        kv_path::scale_up, {.max_tokens_per_step = 2000});
        CHECK(s.ttft.mean == doctest::Approx(t2 + kv + step(d, 2, 1000) + 0.010).epsilon(1e-12));
        CHECK(s.ttft.max == doctest::Approx(s.ttft.mean).epsilon(1e-12));
        CHECK(s.tpot.mean == doctest::Approx((step(d, 2, 1001) + step(d, 2, 1002)) / 2.0).epsilon(1e-12));
        CHECK(s.mean_prompts_per_pass == 2.0);
        CHECK(s.mean_decode_batch == 2.0);
        CHECK(s.prefill_passes == 1.0);
    }
}

TEST_CASE("disagg sim: a saturated prefill pool sets the loop's rate") {
    // Prompts of 8000 tokens, answers of 2, a cap of 8192 (one prompt a pass), one prefill rank and four
    // decode ranks: the prefill rank is never idle after t = 0, so N prompts take N·t₁ plus one
    // prompt's transfer, two decode steps and F: output tokens/s = 2N ÷ (N·t₁ + the tail).
    const deployment d = llama70b_tp8_fp8_f10();
    const double n = 320;
    const sim::disaggregated_result s = sim::simulate_disaggregated(
        {.d = d, .workers = 1}, {.d = d, .workers = 4},
        {.input = workload::fixed(8000_tok), .output = workload::fixed(2_tok), .clients = 32, .prompts = n},
        kv_path::scale_up, {.max_tokens_per_step = 8192});
    const double t1 = prefill_pass(d, 1.0, 8000_tok, 0_tok).time().value();
    CHECK(s.output_tokens_per_s <= 2.0 / t1);
    CHECK(s.output_tokens_per_s == doctest::Approx(2.0 / t1).epsilon(0.01));
    // The closed form's steady state is the same bound, λ = 1 ÷ D_max, but its opening wave is a mean
    // (16.5 passes of the 32 prompts'), so its makespan is short by about 15.5·t₁ of 320·t₁: the
    // simulated rate is below it.
    const disaggregated_loop b = disaggregated_closed_loop({.d = d, .workers = 1}, {.d = d, .workers = 4},
                                                           {.input = 8000_tok, .output = 2_tok}, 32, n, kv_path::scale_up,
                                                           {.max_tokens_per_step = 8192});
    CHECK(s.output_tokens_per_s <= b.output_rate.value());
    CHECK(s.output_tokens_per_s == doctest::Approx(b.output_rate.value() * 304.5 / 320.0).epsilon(0.01));
}

TEST_CASE("disagg sim: properties — monotone in the clients, the closed form at one client, one seed one run") {
    const deployment d = llama70b_tp8_fp8_f10();
    const worker_pool prefill{.d = d, .workers = 2}, decode{.d = d, .workers = 2};
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    double rate = 0, ttft = 0;
    for (double c : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) {
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            prefill, decode,
            {.input = workload::uniform(800_tok, 1200_tok), .output = workload::uniform(160_tok, 240_tok), .clients = c,
             .prompts = 10 * c},
            kv_path::scale_up, {.max_tokens_per_step = 8192});
        CHECK(s.output_tokens_per_s > rate);  // more clients, more tokens a second
        CHECK(s.ttft.mean >= ttft);           // and a longer wait for the first
        rate = s.output_tokens_per_s;
        ttft = s.ttft.mean;
        const disaggregated_loop b =
            disaggregated_closed_loop(prefill, decode, r, c, 10 * c, kv_path::scale_up, {.max_tokens_per_step = 8192});
        CHECK(s.output_tokens_per_s <= b.output_rate.value());
        // TTFT at least the bound's, to 3%: the closed form prices the first decode step at the mean
        // context I + O/2 and c ÷ A_d sequences, the simulated run at the prompt's context and the
        // rank's batch then (a light load: ~2% below).
        CHECK(s.ttft.mean >= 0.97 * b.ttft.value());
    }
    SUBCASE("one client of fixed lengths: the closed form within 1%") {
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            prefill, decode, {.input = workload::fixed(1000_tok), .output = workload::fixed(200_tok), .clients = 1, .prompts = 10},
            kv_path::scale_up);
        const disaggregated_loop b = disaggregated_closed_loop(prefill, decode, r, 1, 10, kv_path::scale_up);
        CHECK(s.ttft.mean == doctest::Approx(b.ttft.value()).epsilon(0.01));
        CHECK(s.tpot.mean == doctest::Approx(b.tpot.value()).epsilon(0.01));
        CHECK(s.output_tokens_per_s == doctest::Approx(b.output_rate.value()).epsilon(0.01));
    }
    SUBCASE("the same seed gives the same run, bit for bit") {
        const sim::disaggregated_client c{.input = workload::uniform(800_tok, 1200_tok),
                                          .output = workload::uniform(160_tok, 240_tok), .clients = 8, .prompts = 80, .seed = 7};
        const sim::disaggregated_result a = sim::simulate_disaggregated(prefill, decode, c, kv_path::scale_out);
        const sim::disaggregated_result b = sim::simulate_disaggregated(prefill, decode, c, kv_path::scale_out);
        CHECK(a.ttft.mean == b.ttft.mean);
        CHECK(a.output_tokens_per_s == b.output_tokens_per_s);
    }
}

TEST_CASE("disagg sim: bad input is refused, naming the field, the value and the rule") {
    const deployment d = llama70b_tp8_fp8_f10();
    const worker_pool one{.d = d, .workers = 1};
    auto run = [&](double clients, double prompts, double workers, double cap) {
        return [=] {
            return sim::simulate_disaggregated({.d = d, .workers = workers}, one,
                                               {.clients = clients, .prompts = prompts}, kv_path::scale_up,
                                               {.max_tokens_per_step = cap});
        };
    };
    CHECK(test::contains(test::error_of(run(1.5, 10, 1, 0)), "clients"));
    CHECK(test::contains(test::error_of(run(1.5, 10, 1, 0)), "a whole number of clients"));
    CHECK(test::contains(test::error_of(run(8, 4, 1, 0)), "prompts"));
    CHECK(test::contains(test::error_of(run(8, 4, 1, 0)), "at least one per client"));
    CHECK(test::contains(test::error_of(run(1, 10, 1.5, 0)), "workers"));
    CHECK(test::contains(test::error_of(run(1, 10, 1, 0.5)), "max_tokens_per_step"));
}

TEST_CASE("disagg sim: a request no rank can hold is refused, naming the request, the pool and the rule") {
    const deployment d = llama70b_tp8_fp8_f10();
    const worker_pool roomy{.d = d, .workers = 1};
    // Llama-3.1-70B in FP8 over 2 GPUs keeps ~35 GB of weights per GPU. The engine's pool is f · HBM less
    // the weights and the rest (share_of_total, docs/kv-pool.md), so f = 1 − (pool at f = 1 − 1 GB) ÷ HBM
    // leaves 1 GB, while a 60,000-token sequence needs 80 layers × 8 KV heads × 128 × 2 (K, V) × 1 B ÷ 2
    // GPUs = 81,920 B a token, 4.9 GB.
    deployment tight = d;
    tight.layout = {.tp = 2};
    REQUIRE(tight.engine.scheduler.kv_pool == kv_pool_rule::share_of_total);
    tight.engine = with_kv_memory_fraction(d.engine, 1.0);
    const double whole = kv_budget_per_gpu(tight).value();
    tight.engine = with_kv_memory_fraction(d.engine, 1.0 - (whole - 1e9) / tight.hw.gpu.hbm_capacity.value());
    tight.validate();
    REQUIRE(kv_budget_per_gpu(tight).value() > 0.0);
    REQUIRE(kv_budget_per_gpu(tight).value() < 60000.0 * 81920.0);
    const worker_pool small{.d = tight, .workers = 1};
    const sim::disaggregated_client long_prompts{.input = workload::fixed(tokens(59000.0)),
                                                 .output = workload::fixed(tokens(1000.0)), .clients = 1, .prompts = 1};
    const std::string decode_side = test::error_of([&] {
        return sim::simulate_disaggregated(roomy, small, long_prompts, kv_path::scale_up);
    });
    CHECK(test::contains(decode_side, "disaggregated request 1"));
    CHECK(test::contains(decode_side, "decode KV per sequence"));
    CHECK(test::contains(decode_side, "does not fit"));
    const std::string prefill_side = test::error_of([&] {
        return sim::simulate_disaggregated(small, roomy, long_prompts, kv_path::scale_up);
    });
    CHECK(test::contains(prefill_side, "prefill KV per sequence"));
    // Beyond the model's 131,072 positions: refused by name, before any KV question.
    const sim::disaggregated_client too_long{.input = workload::fixed(tokens(131000.0)),
                                             .output = workload::fixed(tokens(100.0)), .clients = 1, .prompts = 1};
    const std::string beyond = test::error_of([&] {
        return sim::simulate_disaggregated(roomy, roomy, too_long, kv_path::scale_up);
    });
    CHECK(test::contains(beyond, "max_position"));
    CHECK(test::contains(beyond, "disaggregated request 1"));
    // The same sequence on the roomy pools is simulated.
    CHECK(sim::simulate_disaggregated(roomy, roomy, long_prompts, kv_path::scale_up).ttft.mean > 0.0);
}

TEST_CASE("disagg sim: decode admission — a cap of one request a rank, two clients, by hand") {
    // One prefill rank (a cap of two prompts: both in one pass), one decode rank that holds one request
    // at a time; I = 1000, O = 3, one prompt per client. S = s(1,1000) + s(1,1001) + s(1,1002): one
    // answer's decode alone.
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1000_tok), .output = workload::fixed(3_tok), .clients = 2,
                                      .prompts = 2};
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double t2 = prefill_pass(d, 2.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const double s0 = step(d, 1, 1000), S = s0 + step(d, 1, 1001) + step(d, 1, 1002);
    SUBCASE("TensorRT-LLM's order: B, prefilled with A, waits for A's transfer and decode, then its own transfer") {
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1}, c, kv_path::scale_up, {.max_tokens_per_step = 2000},
            {.max_running = 1});
        // A: t₂ + kv + s₀ + F; B: A's end t₂ + kv + S, then kv + s₀ + F.
        CHECK(s.ttft.mean == doctest::Approx(t2 + kv + s0 + 0.010 + (kv + S) / 2.0).epsilon(1e-12));
        CHECK(2.0 * (s.ttft.max - s.ttft.mean) == doctest::Approx(kv + S).epsilon(1e-9));
        CHECK(s.max_admission_wait == doctest::Approx(kv + S).epsilon(1e-12));
        CHECK(s.mean_admission_wait == doctest::Approx((kv + S) / 2.0).epsilon(1e-12));
        CHECK(s.makespan == doctest::Approx(t2 + 2.0 * (kv + S) + 0.010).epsilon(1e-12));
        CHECK(s.mean_decode_batch == 1.0);  // never two in a step
        CHECK(s.tpot.mean == doctest::Approx((S - s0) / 2.0).epsilon(1e-12));
    }
    SUBCASE("SGLang's order: B's prefill waits for the pre-allocation, so B is prefilled alone after A's end") {
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1}, c, kv_path::scale_up, {.max_tokens_per_step = 2000},
            {.max_running = 1, .reserve_full_sequence = false, .reserved_tokens = 512, .before_prefill = true});
        // A: t₁ + kv + s₀ + F (alone in its pass); B admitted at A's end t₁ + kv + S, then the same again.
        CHECK(2.0 * s.ttft.mean - s.ttft.max == doctest::Approx(t1 + kv + s0 + 0.010).epsilon(1e-12));
        CHECK(s.ttft.max == doctest::Approx(2.0 * t1 + 2.0 * kv + S + s0 + 0.010).epsilon(1e-12));
        CHECK(s.max_admission_wait == doctest::Approx(t1 + kv + S).epsilon(1e-12));
        CHECK(s.makespan == doctest::Approx(2.0 * (t1 + kv + S) + 0.010).epsilon(1e-12));
        CHECK(s.mean_prompts_per_pass == 1.0);
    }
    SUBCASE("a cap of two: nobody waits, the run of no cap") {
        const sim::disaggregated_result a = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1}, c, kv_path::scale_up, {.max_tokens_per_step = 2000},
            {.max_running = 2});
        const sim::disaggregated_result b = sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, c,
                                                                        kv_path::scale_up, {.max_tokens_per_step = 2000});
        CHECK(a.max_admission_wait == 0.0);
        CHECK(a.ttft.mean == b.ttft.mean);
        CHECK(a.makespan == b.makespan);
        CHECK(a.ttft.mean == doctest::Approx(t2 + kv + step(d, 2, 1000) + 0.010).epsilon(1e-12));
    }
}

TEST_CASE("disagg sim: decode admission — the decode rank's KV pool binds") {
    // A pool of K tokens (`kv_capacity_tokens` at a KV memory fraction of 0.14: f·H − X − W on this
    // engine's rule); no cap on requests. Two clients, O = 3.
    deployment d = llama70b_tp8_fp8_f10();
    d.engine = with_kv_memory_fraction(d.engine, 0.14);
    const double K = kv_capacity_tokens(d).value();
    REQUIRE(K > 4000.0);
    REQUIRE(K < 100000.0);
    auto run = [&](double input, sim::decode_admission a) {
        const sim::disaggregated_client c{.input = workload::fixed(tokens(input)), .output = workload::fixed(3_tok),
                                          .clients = 2, .prompts = 2};
        return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, c, kv_path::scale_up,
                                           {.max_tokens_per_step = 2.0 * input}, a);
    };
    SUBCASE("whole sequences (TensorRT-LLM): 2·(I + O) > K holds B until A's end; 2·(I + O) ≤ K does not") {
        const double big = std::floor(0.6 * K), small = std::floor(0.4 * K);
        const double kv = kv_transfer_for(d, tokens(big), kv_path::scale_up).time.value();
        const double S = step(d, 1, big) + step(d, 1, big + 1) + step(d, 1, big + 2);
        const sim::disaggregated_result held = run(big, {});
        CHECK(held.max_admission_wait == doctest::Approx(kv + S).epsilon(1e-12));
        CHECK(held.mean_decode_batch == 1.0);
        CHECK(held.admission_kv_tokens == K);
        const sim::disaggregated_result free = run(small, {});
        CHECK(free.max_admission_wait == 0.0);
        CHECK(free.mean_decode_batch == 2.0);
    }
    SUBCASE("SGLang's pre-allocation: used + r·held + I + r ≤ K — the reserve r alone decides") {
        const double input = std::floor(0.45 * K);
        const sim::decode_admission sglang{.reserve_full_sequence = false, .reserved_tokens = std::floor(0.1 * K),
                                           .before_prefill = true};
        // B: A's prompt 0.45·K + r + 0.45·K + r = 1.1·K > K: B waits for A's end; with r = 0, 0.9·K fits.
        CHECK(run(input, sglang).max_admission_wait > 0.0);
        CHECK(run(input, sglang).mean_prompts_per_pass == 1.0);
        sim::decode_admission none = sglang;
        none.reserved_tokens = 0;
        CHECK(run(input, none).max_admission_wait == 0.0);
        CHECK(run(input, none).mean_prompts_per_pass == 2.0);
    }
    SUBCASE("a request whose reservation exceeds the pool is refused, naming it") {
        // I + O > K: the request check refuses it before any admission (check_disaggregated_request).
        CHECK(test::contains(test::error_of([&] { return run(std::floor(K), {}); }), "decode KV per sequence"));
        // I + O ≤ K but I + r > K (SGLang's reserve): an idle rank that cannot take it never will.
        const std::string e = test::error_of([&] {
            return run(std::floor(0.9 * K), {.reserve_full_sequence = false, .reserved_tokens = std::floor(0.2 * K),
                                             .before_prefill = true});
        });
        CHECK(test::contains(e, "input + output (tokens)"));
        CHECK(test::contains(e, "must fit a decode attention rank's KV pool"));
    }
}

TEST_CASE("disagg sim: decode admission — bad caps are refused, naming the field, the value and the rule") {
    const deployment d = llama70b_tp8_fp8_f10();
    auto run = [&](sim::decode_admission a) {
        return [=] {
            return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, {.clients = 1, .prompts = 1},
                                               kv_path::scale_up, {}, a);
        };
    };
    for (const double cap : {0.0, std::nan(""), 1.5, -1.0}) {
        const std::string e = test::error_of(run({.max_running = cap}));
        CHECK(test::contains(e, "max_running"));
        CHECK(test::contains(e, "a decode attention rank holds a whole number of requests, at least 1"));
    }
    CHECK(test::contains(test::error_of(run({.max_running = 0})), "max_running = 0"));
    CHECK(test::contains(test::error_of(run({.reserved_tokens = -1})), "reserved_tokens"));
    CHECK(test::contains(test::error_of(run({.reserved_tokens = std::nan("")})), "a per-request KV reserve"));
}

TEST_CASE("disagg sim: the join step under attention DP (SGLang) — by hand") {
    // sim::decode_admission::idle_join_step: the iteration that takes in a request whose KV has arrived
    // streams its first token at once and runs an idle forward of a step's time (the rank's step at its
    // batch after the join); the request then makes its other O − 1 tokens from the next iteration, at
    // context I + 1, I + 2, …; a running sequence makes no token in the join step.
    const deployment d = llama70b_tp8_fp8_f10();
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const sim::decode_admission join{.idle_join_step = true};
    SUBCASE("one client: the first token at the KV's arrival, the join step inside the first gap") {
        // I = 1000, O = 4, N = 3, F = 10 ms. Each request: t₁ + kv, then the join step at batch 1 and
        // context 1000 (s₀), then three steps at 1001, 1002, 1003: TTFT = t₁ + kv + F (no step before
        // the first token), TPOT = (s₀ + s₁ + s₂ + s₃) ÷ 3, and the cycle is the one without the rule.
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1},
            {.input = workload::fixed(1000_tok), .output = workload::fixed(4_tok), .clients = 1, .prompts = 3},
            kv_path::scale_up, {}, join);
        const double s0 = step(d, 1, 1000), s1 = step(d, 1, 1001), s2 = step(d, 1, 1002), s3 = step(d, 1, 1003);
        const double cycle = t1 + kv + s0 + s1 + s2 + s3 + 0.010;
        CHECK(s.ttft.mean == doctest::Approx(t1 + kv + 0.010).epsilon(1e-12));
        CHECK(s.tpot.mean == doctest::Approx((s0 + s1 + s2 + s3) / 3.0).epsilon(1e-12));
        CHECK(s.makespan == doctest::Approx(3.0 * cycle).epsilon(1e-12));
        CHECK(s.idle_join_steps == 3.0);
        CHECK(s.decode_steps == 9.0);  // three a request: the join steps are not decode steps
        CHECK(s.mean_decode_batch == 1.0);
    }
    SUBCASE("two clients on one decode rank: A's answer waits one step while B joins") {
        // One prefill rank, one prompt a pass (cap 1000): A's KV arrives at t₁ + kv, B's at 2·t₁ + kv. O = 60,
        // so A is decoding when B's KV arrives. A: join step s(1, 1000), then steps at batch 1 and context
        // 1000 + j (j = 1, 2, …) until the step that ends after B's arrival; then B's join step at batch 2
        // and A's context; then both at batch 2 (mean context of the two) until A's 59th step; then B alone.
        const double O = 60;
        const sim::disaggregated_result s = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1},
            {.input = workload::fixed(1000_tok), .output = workload::fixed(tokens(O)), .clients = 2, .prompts = 2},
            kv_path::scale_up, {.max_tokens_per_step = 1000}, join);
        const double ready_a = t1 + kv, ready_b = 2.0 * t1 + kv;
        double t = ready_a + step(d, 1, 1000);
        double j = 1;  // A's next step (its context then 1000 + j)
        while (t < ready_b) t += step(d, 1, 1000 + j++);
        REQUIRE(j < O - 1);  // B arrives while A still decodes
        const double first_b = t;
        t += step(d, 2, 1000 + j);  // B's join step: A makes no token
        double jb = 1;              // B's next step (its context then 1000 + jb)
        for (; j <= O - 1; ++j, ++jb) t += step(d, 2, (1000 + j + 1000 + jb) / 2.0);
        const double last_a = t;
        for (; jb <= O - 1; ++jb) t += step(d, 1, 1000 + jb);
        const double last_b = t;
        CHECK(s.ttft.mean == doctest::Approx((ready_a + first_b) / 2.0 + 0.010).epsilon(1e-12));  // both sent at t = 0
        CHECK(s.tpot.mean == doctest::Approx(((last_a - ready_a) + (last_b - first_b)) / (2.0 * (O - 1))).epsilon(1e-12));
        CHECK(s.makespan == doctest::Approx(last_b + 0.010).epsilon(1e-12));
        CHECK(s.idle_join_steps == 2.0);
        // Without the rule B joins A's step at once and A never waits: a shorter mean TPOT.
        const sim::disaggregated_result plain = sim::simulate_disaggregated(
            {.d = d, .workers = 1}, {.d = d, .workers = 1},
            {.input = workload::fixed(1000_tok), .output = workload::fixed(tokens(O)), .clients = 2, .prompts = 2},
            kv_path::scale_up, {.max_tokens_per_step = 1000});
        CHECK(plain.idle_join_steps == 0.0);
        CHECK(plain.tpot.mean < s.tpot.mean);
    }
}

TEST_CASE("disagg sim: prefill admission — a cap on a pass's prompts, SGLang's slot held until the transfer ends") {
    // One prefill rank whose token cap (2000) would take both prompts of I = 1000; two decode ranks (each
    // answer decodes alone); O = 3, one prompt per client. t₁ = one prompt's pass, kv = its transfer,
    // s₀ = its first decode step alone, F = 10 ms.
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1000_tok), .output = workload::fixed(3_tok), .clients = 2,
                                      .prompts = 2};
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double t2 = prefill_pass(d, 2.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const double s0 = step(d, 1, 1000);
    auto run = [&](sim::prefill_admission l) {
        return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 2}, c, kv_path::scale_up, l);
    };
    SUBCASE("no cap: one pass of both") {
        const sim::disaggregated_result s = run({.max_tokens_per_step = 2000});
        CHECK(s.mean_prompts_per_pass == 2.0);
        CHECK(s.ttft.max == doctest::Approx(t2 + kv + s0 + 0.010).epsilon(1e-12));
    }
    SUBCASE("a cap of one prompt a pass (TensorRT-LLM: no hold): B waits A's pass, t₁") {
        const sim::disaggregated_result s = run({.max_running = 1, .max_tokens_per_step = 2000});
        CHECK(s.mean_prompts_per_pass == 1.0);
        CHECK(s.ttft.mean == doctest::Approx(1.5 * t1 + kv + s0 + 0.010).epsilon(1e-12));
        CHECK(2.0 * (s.ttft.max - s.ttft.mean) == doctest::Approx(t1).epsilon(1e-9));
    }
    SUBCASE("SGLang's hold, one slot: B enters the queue only when A's transfer has ended, t₁ + kv") {
        const sim::disaggregated_result s = run({.max_running = 1, .max_tokens_per_step = 2000, .held_slots = 1});
        // A: t₁ + kv + s₀ + F; B: its pass from t₁ + kv, so 2·t₁ + 2·kv + s₀ + F.
        CHECK(2.0 * s.ttft.mean - s.ttft.max == doctest::Approx(t1 + kv + s0 + 0.010).epsilon(1e-12));
        CHECK(s.ttft.max == doctest::Approx(2.0 * t1 + 2.0 * kv + s0 + 0.010).epsilon(1e-12));
        CHECK(s.mean_prompts_per_pass == 1.0);
    }
    SUBCASE("SGLang's 2·B slots with B = 1: B's pass follows A's at once, as with no hold") {
        const sim::disaggregated_result s = run({.max_running = 1, .max_tokens_per_step = 2000, .held_slots = 2});
        CHECK(s.ttft.max == doctest::Approx(2.0 * t1 + kv + s0 + 0.010).epsilon(1e-12));
    }
    SUBCASE("SGLang's pass rule: a later prompt enters only while its tokens are fewer than what is left of M") {
        // M = 2000: B's 1000 tokens are not fewer than the 1000 left after A, so one prompt a pass (as B = 1);
        // TensorRT-LLM's rule (fits: 1000 ≤ 1000) takes both; M = 2001 leaves 1001 > 1000, both.
        const sim::disaggregated_result s = run({.max_tokens_per_step = 2000, .first_prompt_always = true});
        CHECK(s.mean_prompts_per_pass == 1.0);
        CHECK(s.ttft.mean == doctest::Approx(1.5 * t1 + kv + s0 + 0.010).epsilon(1e-12));
        CHECK(run({.max_tokens_per_step = 2000}).mean_prompts_per_pass == 2.0);
        const sim::disaggregated_result w = run({.max_tokens_per_step = 2001, .first_prompt_always = true});
        CHECK(w.mean_prompts_per_pass == 2.0);
        CHECK(w.ttft.max == doctest::Approx(t2 + kv + s0 + 0.010).epsilon(1e-12));
    }
    SUBCASE("SGLang's pass rule: the first prompt is taken whatever M (no refusal, not chunked)") {
        // M = 500 < I = 1000, no chunking: each pass takes one whole prompt.
        const sim::disaggregated_result s = run({.max_tokens_per_step = 500, .first_prompt_always = true});
        CHECK(s.prefill_passes == 2.0);
        CHECK(s.ttft.mean == doctest::Approx(1.5 * t1 + kv + s0 + 0.010).epsilon(1e-12));
    }
}

TEST_CASE("disagg sim: prefill admission — SGLang's path: the decode pre-allocation first, then the held slot") {
    // SGLang: each request is admitted by its decode rank at the send (two decode ranks, KV to spare), then
    // enters its prefill rank through a slot held until its KV transfer ends. B = 1, one slot (S = 1): B's
    // slot frees at A's transfer end t₁ + kv, so TTFT_A = t₁ + kv + s₀ + F, TTFT_B = 2·t₁ + 2·kv + s₀ + F;
    // S = 2·B = 2: B's pass follows A's at once, TTFT_B = 2·t₁ + kv + s₀ + F.
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1000_tok), .output = workload::fixed(3_tok), .clients = 2,
                                      .prompts = 2};
    const double t1 = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const double s0 = step(d, 1, 1000);
    const sim::decode_admission sglang{.reserve_full_sequence = false, .reserved_tokens = sim::sglang_reserved_decode_tokens,
                                       .before_prefill = true};
    auto run = [&](double slots) {
        return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 2}, c, kv_path::scale_up,
                                           {.max_running = 1, .max_tokens_per_step = 16384, .chunk_tokens = 16384,
                                            .chunked = true, .first_prompt_always = true, .held_slots = slots},
                                           sglang);
    };
    const sim::disaggregated_result one = run(1);
    CHECK(one.max_admission_wait == 0.0);  // the decode side admits both at once
    CHECK(2.0 * one.ttft.mean - one.ttft.max == doctest::Approx(t1 + kv + s0 + 0.010).epsilon(1e-12));
    CHECK(one.ttft.max == doctest::Approx(2.0 * t1 + 2.0 * kv + s0 + 0.010).epsilon(1e-12));
    const sim::disaggregated_result two = run(sim::sglang_prefill_slots_per_running_request * 1.0);
    CHECK(two.ttft.max == doctest::Approx(2.0 * t1 + kv + s0 + 0.010).epsilon(1e-12));
    CHECK(two.mean_prompts_per_pass == 1.0);
}

TEST_CASE("disagg sim: prefill admission — a second prompt's chunk fills the rest of a pass (SGLang, C < M)") {
    // M = 4000, C = 1500, two prompts of 1000: A (the first) whole; B's 1000 < 4000 − 1000 enters, cut at
    // what is left of C, 500 tokens, which closes the pass: pass 1 = prefill_pass(2 prompts, mean 750 new, 0
    // before); pass 2 = B's other 500 after its first 500 (prefill_pass(1 prompt, 500 new, 500 before)).
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1000_tok), .output = workload::fixed(3_tok), .clients = 2,
                                      .prompts = 2};
    const double p1 = prefill_pass(d, 2.0, 750_tok, 0_tok).time().value();
    const double p2 = prefill_pass(d, 1.0, 500_tok, 500_tok).time().value();
    const double kv = kv_transfer_for(d, 1000_tok, kv_path::scale_up).time.value();
    const double s0 = step(d, 1, 1000);
    const sim::disaggregated_result s = sim::simulate_disaggregated(
        {.d = d, .workers = 1}, {.d = d, .workers = 2}, c, kv_path::scale_up,
        {.max_tokens_per_step = 4000, .chunk_tokens = 1500, .chunked = true, .first_prompt_always = true});
    CHECK(s.prefill_passes == 2.0);
    CHECK(s.mean_prompts_per_pass == 1.5);
    // A: p₁ + kv + s₀ + F; B: p₁ + p₂ + kv + s₀ + F.
    CHECK(2.0 * s.ttft.mean - s.ttft.max == doctest::Approx(p1 + kv + s0 + 0.010).epsilon(1e-12));
    CHECK(s.ttft.max == doctest::Approx(p1 + p2 + kv + s0 + 0.010).epsilon(1e-12));
}

TEST_CASE("disagg sim: prefill admission — a prompt longer than the token cap is chunked, or refused") {
    // One client, one prompt of 1500 tokens, a cap of 1000 a pass: chunked, a pass of its first 1000
    // tokens, then one of the other 500 after them (prefill_pass with 1000 tokens already in the KV).
    const deployment d = llama70b_tp8_fp8_f10();
    const sim::disaggregated_client c{.input = workload::fixed(1500_tok), .output = workload::fixed(2_tok), .clients = 1,
                                      .prompts = 1};
    const double ta = prefill_pass(d, 1.0, 1000_tok, 0_tok).time().value();
    const double tb = prefill_pass(d, 1.0, 500_tok, 1000_tok).time().value();
    const double kv = kv_transfer_for(d, 1500_tok, kv_path::scale_up).time.value();
    const sim::disaggregated_result s = sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, c,
                                                                    kv_path::scale_up,
                                                                    {.max_tokens_per_step = 1000, .chunked = true});
    CHECK(s.prefill_passes == 2.0);
    CHECK(s.ttft.mean == doctest::Approx(ta + tb + kv + step(d, 1, 1500) + 0.010).epsilon(1e-12));
    const std::string e = test::error_of([&] {
        return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, c, kv_path::scale_up,
                                           {.max_tokens_per_step = 1000, .chunked = false});
    });
    CHECK(test::contains(e, "disaggregated request 1"));
    CHECK(test::contains(e, "max_tokens_per_step = 1000: below the prompt's 1500 tokens"));
    CHECK(test::contains(e, "[llmcost.serving.prompt_within_step_cap]"));
    CHECK(test::contains(e, "needs an engine that chunks prompts"));
}

TEST_CASE("disagg sim: prefill admission — bad caps are refused, naming the field, the value and the rule") {
    const deployment d = llama70b_tp8_fp8_f10();
    auto run = [&](sim::prefill_admission l) {
        return [=] {
            return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1}, {.clients = 1, .prompts = 1},
                                               kv_path::scale_up, l);
        };
    };
    for (const double cap : {0.0, std::nan(""), 1.5, -1.0, 2e9}) {
        const std::string e = test::error_of(run({.max_running = cap}));
        CHECK(test::contains(e, "prefill admission"));
        CHECK(test::contains(e, "max_running"));
        CHECK(test::contains(e, "a prefill pass takes a whole number of prompts, from 1 to 10⁹"));
    }
    for (const double cap : {0.0, std::nan(""), 1.5, -1.0, 3e9}) {
        const std::string h = test::error_of(run({.held_slots = cap}));
        CHECK(test::contains(h, "prefill admission"));
        CHECK(test::contains(h, "held_slots"));
        CHECK(test::contains(h, "until their transfer ends, from 1 to 2 × 10⁹"));
    }
    for (const double cap : {0.5, std::nan(""), 1.5, -1.0, 2e9}) {
        const std::string m = test::error_of(run({.max_tokens_per_step = cap}));
        CHECK(test::contains(m, "prefill admission"));
        CHECK(test::contains(m, "max_tokens_per_step"));
        CHECK(test::contains(m, "a whole number of tokens, from 1 to 10⁹"));
        const std::string k = test::error_of(run({.chunk_tokens = cap}));
        CHECK(test::contains(k, "prefill admission"));
        CHECK(test::contains(k, "chunk_tokens"));
        CHECK(test::contains(k, "a whole number of tokens, from 1 to 10⁹"));
    }
    CHECK(test::contains(test::error_of(run({.max_running = 1.5})), "max_running = 1.5"));
    CHECK(test::contains(test::error_of(run({.max_tokens_per_step = 1500.5})), "max_tokens_per_step = 1500.5"));
    // The bound's largest caps run: B = 10⁹ and SGLang's 2·B held slots (a bound the user never set is not tripped).
    CHECK(run({.max_running = sim::prefill_cap_max, .max_tokens_per_step = sim::prefill_cap_max,
               .held_slots = sim::sglang_prefill_slots_per_running_request * sim::prefill_cap_max})()
              .prefill_passes == 1.0);
}

TEST_CASE("disagg sim: a DEP prefill worker's ranks in lockstep — the pass lasts the longest rank's, by hand") {
    // sim::prefill_worker_lockstep: gpt-oss-20b, one EP2·DP2 prefill worker (two attention ranks, engine without a
    // balance ratio β), two one-GPU decode workers (each answer decodes alone), F = 10 ms, O = 2. Prompts drawn
    // uniformly from 1,000–3,000 tokens (seed 7), replayed here in the run's order (input, output per request):
    // A → prefill rank 0 and decode rank 0, B → rank 1 and decode rank 1. Each prompt's own pass t_X =
    // prefill_pass(1, I_X); its TTFT = (pass end) + kv_X + s₀(I_X) + F.
    deployment pre{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    pre.engine.overheads.request = 10_ms;
    pre.validate();
    deployment dec{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {}};
    dec.engine.overheads.request = 10_ms;
    dec.validate();
    const workload::length_distribution input = workload::uniform(1000_tok, 3000_tok);
    const workload::length_distribution output = workload::fixed(2_tok);
    workload::sampler draw(7);
    const double in_a = draw.length(input);
    (void)draw.length(output);
    const double in_b = draw.length(input);
    REQUIRE(in_a != in_b);
    auto own = [&](const deployment& d, double in) { return prefill_pass(d, 1.0, tokens(in), 0_tok).time().value(); };
    auto after = [&](double in) {  // transfer, first decode step alone, front end
        return kv_transfer_for(pre, tokens(in), kv_path::scale_up).time.value() + step(dec, 1, in) + 0.010;
    };
    auto run = [&](const deployment& p, double clients) {
        return sim::simulate_disaggregated({.d = p, .workers = 1}, {.d = dec, .workers = 2},
                                           {.input = input, .output = output, .clients = clients, .prompts = 2, .seed = 7},
                                           kv_path::scale_up, {.max_running = 1});
    };
    CHECK(sim::prefill_worker_lockstep(pre));
    SUBCASE("two clients: both ranks hold a prompt at t = 0, both passes last max(t_A, t_B)") {
        const double t = std::max(own(pre, in_a), own(pre, in_b));
        const sim::disaggregated_result s = run(pre, 2);
        CHECK(s.ttft.mean == doctest::Approx(t + (after(in_a) + after(in_b)) / 2.0).epsilon(1e-12));
        CHECK(s.ttft.max == doctest::Approx(t + std::max(after(in_a), after(in_b))).epsilon(1e-12));
        CHECK(s.prefill_passes == 2.0);
    }
    SUBCASE("one client: the other rank holds no prompt (an idle batch), each pass at its own prompt") {
        const sim::disaggregated_result s = run(pre, 1);
        CHECK(s.ttft.mean == doctest::Approx((own(pre, in_a) + after(in_a) + own(pre, in_b) + after(in_b)) / 2.0).epsilon(1e-12));
    }
    SUBCASE("an engine with a measured balance ratio β: 1/β in every pass prices the wait, no lockstep on top") {
        deployment b = pre;
        b.engine.moe.attention_dp_balance = 0.5;
        CHECK_FALSE(sim::prefill_worker_lockstep(b));
        const sim::disaggregated_result s = run(b, 2);
        CHECK(s.ttft.mean == doctest::Approx((own(b, in_a) + after(in_a) + own(b, in_b) + after(in_b)) / 2.0).epsilon(1e-12));
    }
    SUBCASE("TEP (dp 1) and a dense TP worker are one attention rank: no lockstep") {
        deployment tep{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.tp = 2, .ep = 2}};
        CHECK_FALSE(sim::prefill_worker_lockstep(tep));
        CHECK_FALSE(sim::prefill_worker_lockstep(llama70b_tp8_fp8_f10()));
    }
}
