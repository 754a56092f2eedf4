// A benchmark run's cold opening (engine_overheads::cold_start, cold_prompt_token; session 17,
// docs/sglang-closed-loop-ttft.md §4): a server started just before its client's burst pays one-time
// work on the prompt steps that carry its opening requests (JIT compiles per shape, modules built on
// first call: sgl-project/sglang issues 4773 and 5031, ROCm/aiter issue 4055). Read only by a simulated
// closed loop that starts cold (sim::options::cold_engine, plan::closed_loop_run); the steady state never
// sees it. Hand-worked amounts, the zero field, the simulator's laws, refusals, and the fit.
#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment cold(deployment d, seconds_t start, seconds_t per_token) {
    d.engine.overheads.cold_start = start;
    d.engine.overheads.cold_prompt_token = per_token;
    return d;
}

// Two clients, four requests of 1,000 → 10 tokens, one server, whole prompts, no token cap.
const workload::traffic burst{.input = workload::fixed(1000_tok), .output = workload::fixed(10_tok),
                              .arrivals = workload::closed_loop(2.0)};

}  // namespace

TEST_CASE("cold opening: the opening requests' TTFT grows by the hand-worked amount, the others' not at all") {
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    // W₀ = 2 s, w = 100 µs a token. The burst's two prompts (2 × 1,000 tokens) share the first step, so it
    // adds Δt = 2 + 100 µs × 2,000 = 2.2 s, and both opening requests' first tokens come 2.2 s later. The
    // next two are sent when those answers end: the engine is the same from there, 2.2 s later, so their
    // TTFT (from their own sending) does not move. Mean TTFT: +2.2 × 2 ÷ 4 = +1.1 s.
    const deployment d = cold(warm, 2.0_s, microseconds(100.0));
    const sim::options o{.requests = 4, .seed = 1, .keep_requests = true, .timeline_points = 0, .cold_engine = true};
    const sim::result a = sim::simulate(warm, burst, o), x = sim::simulate(d, burst, o);
    REQUIRE(a.requests.size() == 4);
    REQUIRE(x.requests.size() == 4);
    CHECK(x.requests[0].ttft == doctest::Approx(a.requests[0].ttft + 2.2).epsilon(1e-9));
    CHECK(x.requests[1].ttft == doctest::Approx(a.requests[1].ttft + 2.2).epsilon(1e-9));
    CHECK(x.requests[2].ttft == doctest::Approx(a.requests[2].ttft).epsilon(1e-9));
    CHECK(x.requests[3].ttft == doctest::Approx(a.requests[3].ttft).epsilon(1e-9));
    CHECK(x.ttft.mean == doctest::Approx(a.ttft.mean + 1.1).epsilon(1e-9));
    CHECK(x.makespan == doctest::Approx(a.makespan + 2.2).epsilon(1e-9));
    // Its TPOT does not hold it: the opening is before the first token.
    for (std::size_t i = 0; i < 4; ++i) CHECK(x.requests[i].tpot == doctest::Approx(a.requests[i].tpot).epsilon(1e-9));
    // The formula on its own: Δt = W₀ · [first] + w · P_open.
    CHECK(d.engine.overheads.cold_opening(2000_tok, true).value() == doctest::Approx(2.2).epsilon(1e-12));
    CHECK(d.engine.overheads.cold_opening(2000_tok, false).value() == doctest::Approx(0.2).epsilon(1e-12));
}

TEST_CASE("cold opening: with a token cap the opening spans steps, W₀ on the first, w on each") {
    // The same run with at most 1,000 tokens a step: the two opening prompts take a step each. The first
    // adds 2 + 0.1 = 2.1 s (request 1's TTFT: +2.1 s); the second adds 0.1 s more, so request 2's first
    // token is 2.1 + 0.1 = 2.2 s later.
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = cold(warm, 2.0_s, microseconds(100.0));
    const sim::options o{.limits = {.max_tokens_per_step = 1000}, .requests = 4, .seed = 1, .keep_requests = true,
                         .timeline_points = 0, .cold_engine = true};
    const sim::result a = sim::simulate(warm, burst, o), x = sim::simulate(d, burst, o);
    REQUIRE(x.requests.size() == 4);
    CHECK(x.requests[0].ttft == doctest::Approx(a.requests[0].ttft + 2.1).epsilon(1e-9));
    CHECK(x.requests[1].ttft == doctest::Approx(a.requests[1].ttft + 2.2).epsilon(1e-9));
}

TEST_CASE("cold opening: zero field, a warm run, or an open loop move nothing, bit for bit") {
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = cold(warm, 3.0_s, microseconds(50.0));
    const sim::options cold_run{.requests = 40, .seed = 7, .keep_requests = false, .timeline_points = 0, .cold_engine = true};
    sim::options warm_run = cold_run;
    warm_run.cold_engine = false;
    SUBCASE("the field at 0: a cold run is the warm run") {
        const sim::result a = sim::simulate(warm, burst, warm_run), x = sim::simulate(warm, burst, cold_run);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.ttft.p50 == a.ttft.p50);
        CHECK(x.tpot.mean == a.tpot.mean);
        CHECK(x.makespan == a.makespan);
    }
    SUBCASE("a warm run never reads the field") {
        const sim::result a = sim::simulate(warm, burst, warm_run), x = sim::simulate(d, burst, warm_run);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.makespan == a.makespan);
    }
    SUBCASE("Poisson arrivals are no burst start: not read") {
        const workload::traffic open{.input = workload::fixed(1000_tok), .output = workload::fixed(10_tok),
                                     .arrivals = workload::poisson(200_ms)};
        const sim::result a = sim::simulate(warm, open, cold_run), x = sim::simulate(d, open, cold_run);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.makespan == a.makespan);
    }
    SUBCASE("the steady state never reads it") {
        const request_shape r{.input = 1000_tok, .output = 200_tok};
        const serving_point a = serve_at_batch(warm, r, 8.0), x = serve_at_batch(d, r, 8.0);
        CHECK(x.ttft == a.ttft);
        CHECK(x.tpot == a.tpot);
        CHECK(x.output_rate == a.output_rate);
        CHECK(serve_online(d, r, 50.0_ms).ttft == serve_online(warm, r, 50.0_ms).ttft);
    }
}

TEST_CASE("cold opening: the simulator's laws hold on a cold run") {
    const deployment d = cold(deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5}, 1.5_s, microseconds(20.0));
    const workload::traffic t{.input = workload::uniform(800_tok, 1200_tok), .output = workload::uniform(50_tok, 150_tok),
                              .arrivals = workload::closed_loop(8.0)};
    const sim::options o{.requests = 80, .seed = 11, .keep_requests = true, .timeline_points = 0, .cold_engine = true};
    const sim::result x = sim::simulate(d, t, o), y = sim::simulate(d, t, o);
    CHECK(x.completed == 80.0);  // every request finishes, once
    CHECK(x.requests.size() == 80);
    for (const sim::request_result& q : x.requests) CHECK(q.ttft > 0.0);
    CHECK(x.ttft.mean == y.ttft.mean);  // same seed, same figures
    CHECK(x.makespan == y.makespan);
    SUBCASE("property: a dearer opening never shortens the mean TTFT nor the run") {
        double ttft = 0.0, makespan = 0.0;
        for (double w_us : {0.0, 10.0, 40.0, 200.0}) {
            const deployment e = cold(d, 1.5_s, microseconds(w_us));
            const sim::result r = sim::simulate(e, t, o);
            CHECK(r.ttft.mean >= ttft);
            CHECK(r.makespan >= makespan);
            ttft = r.ttft.mean;
            makespan = r.makespan;
        }
    }
}

TEST_CASE("cold opening: the profile and the table refuse a bad one, naming the field") {
    engine_profile e = catalog::sglang_cdna3;
    e.overheads.cold_start = seconds(-1.0);
    CHECK(test::contains(test::validation_message(e), "overheads.cold_start (s) = -1: a benchmark run's cold opening must be in [0, 600 s)"));
    e.overheads.cold_start = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.cold_start (s) = nan"));
    e.overheads.cold_start = 700.0_s;
    CHECK(test::contains(test::validation_message(e), "overheads.cold_start (s) = 700"));
    e = catalog::sglang_cdna3;
    e.overheads.cold_prompt_token = seconds(-1e-6);
    CHECK(test::contains(test::validation_message(e), "overheads.cold_prompt_token (s) = -1e-06: a cold opening's cost per prompt token"));
    e.overheads.cold_prompt_token = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.cold_prompt_token (s) = nan"));
    e.overheads.cold_prompt_token = 2.0_ms;
    CHECK(test::contains(test::validation_message(e), "overheads.cold_prompt_token (s) = 0.002"));

    // tables/engines.csv: the columns are optional (absent: 0, none); ms and µs; a bad cell names the column.
    const std::string base = "Mine,sglang,cdna3,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const std::string old_header = test::engine_table_columns() + ",source\n";
    const std::string new_header = test::engine_table_columns() + ",cold_start_ms,cold_prompt_token_us,source\n";
    // The catalog's fitted figures (tables/engines.csv), each fitted by the rule in tables/validation.md:
    // SGLang on CDNA3 (2.516 s and 26.06 µs a token, on MI325X; session 17, refitted in session 29 part C with MLA's
    // q_a and kv_a whole on every TP rank; 2.568 s and 28.3 µs before) and SGLang on Blackwell (185.3 ms and 129.7 µs
    // a token, on B200, its stalled runs left out; session 28, refitted in session 29 with the NVFP4-v2 checkpoint's
    // BF16 attention priced, 181.4 ms and 131.7 µs, and again in part C; 117.9 ms and 132.1 µs before); 0 elsewhere.
    CHECK(catalog::sglang_cdna3.overheads.cold_start.value() == doctest::Approx(2.516).epsilon(1e-12));
    CHECK(catalog::sglang_cdna3.overheads.cold_prompt_token.value() == doctest::Approx(26.06e-6).epsilon(1e-12));
    // Four clients' 922-token prompts in the opening step: 0.1853 + 4 · 922 · 129.7 µs = 0.1853 + 0.4783336 s.
    CHECK(catalog::sglang_blackwell.overheads.cold_opening(3688_tok, true).value() == doctest::Approx(0.6636336).epsilon(1e-12));
    CHECK(catalog::sglang_blackwell.overheads.cold_opening(3688_tok, false).value() == doctest::Approx(0.4783336).epsilon(1e-12));
    // SGLang on Hopper (session 51, docs/kv-pool.md): 0.6111 s, the start alone (two rows), on H200 once its pool is
    // priced as SGLang computes it; no per-token cost: 0.6111 s at any opening.
    CHECK(catalog::sglang_hopper.overheads.cold_opening(3688_tok, true).value() == doctest::Approx(0.6111).epsilon(1e-12));
    CHECK(catalog::sglang_hopper.overheads.cold_opening(3688_tok, false).value() == 0.0);
    for (const engine_profile& p : catalog::all_engines)
        if (p.name != catalog::sglang_cdna3.name && p.name != catalog::sglang_blackwell.name &&
            p.name != catalog::sglang_hopper.name)
            CHECK(p.overheads.cold_opening(1000_tok, true).value() == 0.0);
    const auto old_table = io::parse_engines_csv(old_header + base + ",my runs\n", "old.csv");
    REQUIRE(old_table.size() == 1);
    CHECK(old_table[0].overheads.cold_start.value() == 0.0);
    CHECK(old_table[0].overheads.cold_prompt_token.value() == 0.0);
    const auto mine = io::parse_engines_csv(new_header + base + ",2500,25,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.cold_start.value() == doctest::Approx(2.5).epsilon(1e-15));
    CHECK(mine[0].overheads.cold_prompt_token.value() == doctest::Approx(25e-6).epsilon(1e-15));
    for (const char* bad : {"-5,25", "nan,25", "2500,-1", "2500,5000"}) {
        const std::string m = test::message_of([&] {
            return io::parse_engines_csv(new_header + base + "," + bad + ",my runs\n", "mine.csv");
        });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK((test::contains(m, "cold_start_ms") || test::contains(m, "cold_prompt_token_us")));
    }
}

TEST_CASE("cold opening: plan::closed_loop_run starts cold, and plan::calibrate recovers W₀ and w from run means") {
    // Benchmark rows (burst start, 10 × c prompts, range ratio 0.8) on Llama-3.1-8B, one H100: means made with
    // W₀ = 1.5 s and w = 30 µs a token at three openings (c · I = 4 × 922, 16 × 922, 16 × 3,000 tokens),
    // fitted from W₀ = 1 s, w = 10 µs with both free: the figures come back, residual 0.
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const plan::measurement base{.id = "C", .check = false, .d = d, .r = {.input = 922_tok, .output = 200_tok},
                                 .how = plan::scenario::fixed_batch, .batch = 4.0, .prompts = 40.0, .range_ratio = 0.8,
                                 .what = plan::metric::ttft_s, .value = 1.0, .api_server = true, .source = "synthetic"};
    plan::measurement made = base;
    made.d = cold(d, 1.5_s, microseconds(30.0));
    CHECK(plan::predict(made) > plan::predict(base) + 1.5 * 4.0 / 40.0 - 1e-9);  // each opening request waits ≥ W₀
    std::vector<plan::measurement> rows;
    for (const auto& [c, input] : {std::pair{4.0, 922.0}, std::pair{16.0, 922.0}, std::pair{16.0, 3000.0}}) {
        plan::measurement x = made;
        x.id = "C";
        x.id += std::to_string(rows.size());  // not "C" + …: GCC 12 -O3 reads that as an overlapping memcpy (-Wrestrict, GCC bug 105329)
        x.batch = c;
        x.prompts = 10.0 * c;
        x.r.input = tokens(input);
        x.value = plan::predict(x);
        x.d = d;
        rows.push_back(x);
    }
    plan::efficiency_parameters start = plan::parameters_of(d.hw);
    start.cold_start = 1.0;
    start.cold_prompt_token = 10e-6;
    const plan::calibration_result fit = plan::calibrate(
        rows, {.free = {plan::parameter::cold_start, plan::parameter::cold_prompt_token}, .start = start});
    REQUIRE(fit.parameters.size() == 2);
    CHECK(fit.parameters[0].value == doctest::Approx(1.5).epsilon(1e-4));
    CHECK(fit.parameters[1].value == doctest::Approx(30e-6).epsilon(1e-3));
    CHECK(plan::unit_of(plan::parameter::cold_start) == "s");
    CHECK(plan::parameter_named("cold_prompt_token") == plan::parameter::cold_prompt_token);
}

TEST_CASE("cold opening only for MoE models (cold_opening_moe_only, docs/sglang-closed-loop-ttft.md §7): a dense run pays none") {
    // The rule on its own: ¬moe_only ∨ moe.
    engine_overheads o{};
    CHECK(o.pays_cold_opening(false));
    CHECK(o.pays_cold_opening(true));
    o.cold_opening_moe_only = true;
    CHECK_FALSE(o.pays_cold_opening(false));
    CHECK(o.pays_cold_opening(true));
    // The catalog: SGLang on Hopper alone carries the rule (tables/engines.csv cold_opening_moe_only 1).
    for (const engine_profile& p : catalog::all_engines)
        CHECK(p.overheads.cold_opening_moe_only == (p.name == catalog::sglang_hopper.name));

    // The same burst as above (two clients, 1,000 → 10 tokens, four requests), W₀ = 2 s, w = 100 µs, the rule on.
    const sim::options run{.requests = 4, .seed = 1, .keep_requests = true, .timeline_points = 0, .cold_engine = true};
    auto moe_only = [](deployment d) {
        d = cold(d, 2.0_s, microseconds(100.0));
        d.engine.overheads.cold_opening_moe_only = true;
        return d;
    };
    SUBCASE("a dense model (Qwen3-8B, BF16) pays nothing: bit for bit the run without the opening") {
        const deployment warm{.m = catalog::qwen3_8b, .hw = catalog::h100_sxm5};
        REQUIRE_FALSE(warm.m.is_moe());
        const sim::result a = sim::simulate(warm, burst, run), x = sim::simulate(moe_only(warm), burst, run);
        REQUIRE(x.requests.size() == 4);
        for (std::size_t i = 0; i < 4; ++i) CHECK(x.requests[i].ttft == a.requests[i].ttft);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.makespan == a.makespan);
        // Without the rule the same dense run pays it: both opening prompts in one step, +2 + 100 µs × 2,000 = +2.2 s.
        const sim::result y = sim::simulate(cold(warm, 2.0_s, microseconds(100.0)), burst, run);
        CHECK(y.requests[0].ttft == doctest::Approx(a.requests[0].ttft + 2.2).epsilon(1e-9));
    }
    SUBCASE("an MoE model (gpt-oss-20b) pays it: +2.2 s on both opening requests, nothing on the next two") {
        const deployment warm{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5};
        REQUIRE(warm.m.is_moe());
        const sim::result a = sim::simulate(warm, burst, run), x = sim::simulate(moe_only(warm), burst, run);
        REQUIRE(x.requests.size() == 4);
        CHECK(x.requests[0].ttft == doctest::Approx(a.requests[0].ttft + 2.2).epsilon(1e-9));
        CHECK(x.requests[1].ttft == doctest::Approx(a.requests[1].ttft + 2.2).epsilon(1e-9));
        CHECK(x.requests[2].ttft == doctest::Approx(a.requests[2].ttft).epsilon(1e-9));
        CHECK(x.requests[3].ttft == doctest::Approx(a.requests[3].ttft).epsilon(1e-9));
        CHECK(x.makespan == doctest::Approx(a.makespan + 2.2).epsilon(1e-9));
    }
    SUBCASE("the table: the column is optional (absent: 0, every model), a flag, a bad cell refused naming it") {
        const std::string base = "Mine,sglang,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const std::string header = test::engine_table_columns() + ",cold_opening_moe_only,source\n";
        const auto on = io::parse_engines_csv(header + base + ",1,my runs\n", "mine.csv");
        REQUIRE(on.size() == 1);
        CHECK(on[0].overheads.cold_opening_moe_only);
        const auto off = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + base + ",my runs\n", "old.csv");
        REQUIRE(off.size() == 1);
        CHECK_FALSE(off[0].overheads.cold_opening_moe_only);
        for (const char* bad : {"2", "0.5", "-1", "nan"}) {
            const std::string m = test::message_of([&] {
                return io::parse_engines_csv(header + base + "," + bad + ",my runs\n", "mine.csv");
            });
            CHECK(test::contains(m, "mine.csv:2"));
            CHECK(test::contains(m, "cold_opening_moe_only"));
        }
    }
}
