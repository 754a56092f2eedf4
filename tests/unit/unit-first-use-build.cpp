// A cold benchmark run's first-use kernel build (engine_overheads::first_use_build, first_use_trigger; session 42,
// docs/first-use-build.md): a server whose image lacks a kernel builds it the first time a step needs it, a stall S
// paid once, at the first prompt step that meets the run's trigger. Read only by a simulated closed loop that starts
// cold (sim::options::cold_engine with sim::options::first_use_build, plan::closed_loop_run). Hand-worked steps, the
// trigger function, the table's rows against the research's classification, refusals, and the fit's parameter.
#include <cmath>

#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment with_build(deployment d, seconds_t s) {
    d.engine.overheads.first_use_build = s;
    return d;
}

// Two clients, four requests of 1,000 → 10 tokens, one server.
const workload::traffic burst{.input = workload::fixed(1000_tok), .output = workload::fixed(10_tok),
                              .arrivals = workload::closed_loop(2.0)};

sim::options cold_run(first_use_trigger t, double chunk) {
    return {.limits = {.max_tokens_per_step = chunk, .prefill_chunk = tokens(chunk)}, .requests = 4, .seed = 1,
            .keep_requests = true, .timeline_points = 0, .cold_engine = true, .first_use_build = t};
}

}  // namespace

TEST_CASE("first-use build: the trigger function, by hand") {
    // prefix_extend: the step carries a chunk after its prompt's first (extend_prefix_lens > 0), whatever its tokens.
    CHECK(first_use_build_step(first_use_trigger::prefix_extend, true, 500_tok));
    CHECK_FALSE(first_use_build_step(first_use_trigger::prefix_extend, false, 16384_tok));
    // moe_sort_switch: more than 1,024 tokens in the step's MoE forward (AITER's token_num_quant_moe_sort_switch).
    CHECK_FALSE(first_use_build_step(first_use_trigger::moe_sort_switch, false, 1024_tok));
    CHECK(first_use_build_step(first_use_trigger::moe_sort_switch, false, 1025_tok));
    CHECK(first_use_build_step(first_use_trigger::moe_sort_switch, true, 3688_tok));  // 1k, 4 clients: 4 × 922
    // none: never.
    CHECK_FALSE(first_use_build_step(first_use_trigger::none, true, 1e6_tok));
    // The words round-trip; anything else is no trigger.
    for (first_use_trigger t : {first_use_trigger::none, first_use_trigger::prefix_extend, first_use_trigger::moe_sort_switch})
        CHECK(first_use_trigger_named(to_string(t)) == t);
    CHECK_FALSE(first_use_trigger_named("tile_bucket").has_value());
    CHECK_FALSE(first_use_trigger_named("").has_value());
}

TEST_CASE("first-use build: a chunked prompt's continuation step lasts S longer, the requests behind it wait S") {
    // Chunk and budget 1,500 tokens. Step 1: request 0 whole (1,000) and request 1's first 500 tokens; step 2:
    // request 1's last 500 (its continuation: 500 tokens already in the KV) beside request 0's first decode. The
    // build is paid in step 2, so request 1's first token comes S = 30 s later, request 0's (out of step 1) does not
    // move. From there the engine is the same, S later: requests 2 and 3, sent when answers end, keep their TTFT
    // (from their own sending); the run ends S later.
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = with_build(warm, 30.0_s);
    const sim::options o = cold_run(first_use_trigger::prefix_extend, 1500.0);
    const sim::result a = sim::simulate(warm, burst, o), x = sim::simulate(d, burst, o);
    REQUIRE(a.requests.size() == 4);
    REQUIRE(x.requests.size() == 4);
    CHECK(x.requests[0].ttft == doctest::Approx(a.requests[0].ttft).epsilon(1e-9));
    CHECK(x.requests[1].ttft == doctest::Approx(a.requests[1].ttft + 30.0).epsilon(1e-9));
    CHECK(x.requests[2].ttft == doctest::Approx(a.requests[2].ttft).epsilon(1e-9));
    CHECK(x.requests[3].ttft == doctest::Approx(a.requests[3].ttft).epsilon(1e-9));
    CHECK(x.ttft.mean == doctest::Approx(a.ttft.mean + 30.0 / 4.0).epsilon(1e-9));
    // The tokens/s makespan carries it too.
    CHECK(x.makespan == doctest::Approx(a.makespan + 30.0).epsilon(1e-9));
}

TEST_CASE("first-use build: no step meets the trigger, nothing moves, bit for bit") {
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = with_build(warm, 30.0_s);
    SUBCASE("prefix_extend, the opening fits the chunk: no prompt is ever split") {
        // 2 × 1,000 ≤ 2,000: step 1 holds both prompts whole; a later prompt (1,000) beside one decode fits too.
        const sim::options o = cold_run(first_use_trigger::prefix_extend, 2000.0);
        const sim::result a = sim::simulate(warm, burst, o), x = sim::simulate(d, burst, o);
        for (std::size_t i = 0; i < 4; ++i) CHECK(x.requests[i].ttft == a.requests[i].ttft);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.tpot.mean == a.tpot.mean);
        CHECK(x.makespan == a.makespan);
    }
    SUBCASE("moe_sort_switch, one client: every step holds at most 1,000 prompt tokens and no decode beside them") {
        const workload::traffic one{.input = workload::fixed(1000_tok), .output = workload::fixed(10_tok),
                                    .arrivals = workload::closed_loop(1.0)};
        const sim::options o = cold_run(first_use_trigger::moe_sort_switch, 0.0);
        const sim::result a = sim::simulate(warm, one, o), x = sim::simulate(d, one, o);
        CHECK(x.ttft.mean == a.ttft.mean);
        CHECK(x.makespan == a.makespan);
    }
    SUBCASE("a warm run, or no trigger, never reads the field") {
        sim::options o = cold_run(first_use_trigger::prefix_extend, 1500.0);
        o.cold_engine = false;
        CHECK(sim::simulate(d, burst, o).makespan == sim::simulate(warm, burst, o).makespan);
        o = cold_run(first_use_trigger::none, 1500.0);
        CHECK(sim::simulate(d, burst, o).makespan == sim::simulate(warm, burst, o).makespan);
    }
    SUBCASE("the steady state never reads it") {
        const request_shape r{.input = 1000_tok, .output = 200_tok};
        CHECK(serve_at_batch(d, r, 8.0).ttft == serve_at_batch(warm, r, 8.0).ttft);
        CHECK(serve_online(d, r, 50.0_ms).ttft == serve_online(warm, r, 50.0_ms).ttft);
    }
}

TEST_CASE("first-use build: moe_sort_switch builds at the first step of more than 1,024 tokens, once") {
    // Two clients of 1,000 tokens, whole prompts: step 1 carries 2,000 > 1,024 tokens, so both opening requests'
    // first tokens come S = 20 s later; it is paid once (requests 2 and 3 keep their TTFT).
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = with_build(warm, 20.0_s);
    const sim::options o = cold_run(first_use_trigger::moe_sort_switch, 0.0);
    const sim::result a = sim::simulate(warm, burst, o), x = sim::simulate(d, burst, o);
    REQUIRE(x.requests.size() == 4);
    CHECK(x.requests[0].ttft == doctest::Approx(a.requests[0].ttft + 20.0).epsilon(1e-9));
    CHECK(x.requests[1].ttft == doctest::Approx(a.requests[1].ttft + 20.0).epsilon(1e-9));
    CHECK(x.requests[2].ttft == doctest::Approx(a.requests[2].ttft).epsilon(1e-9));
    CHECK(x.requests[3].ttft == doctest::Approx(a.requests[3].ttft).epsilon(1e-9));
    CHECK(x.makespan == doctest::Approx(a.makespan + 20.0).epsilon(1e-9));
}

TEST_CASE("first-use build: the B200 burst, hand-counted (research R2 §1: 1k c16 fits 16,384, 1k c64 does not)") {
    // SGLang's chunk and step budget 16,384 tokens, prompts of 922 tokens. 16 clients: 16 × 922 = 14,752 ≤ 16,384,
    // no prompt is split, no build. 64 clients: 59,008 tokens; step 1 holds 17 whole prompts (15,674 tokens) and the
    // 18th's first 710; step 2 carries its continuation and pays S. Requests 0-16 keep their TTFT; 17-63, S later.
    const deployment warm{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const deployment d = with_build(warm, 70.0_s);
    auto run = [](const deployment& e, double clients) {
        const workload::traffic t{.input = workload::fixed(922_tok), .output = workload::fixed(4_tok),
                                  .arrivals = workload::closed_loop(clients)};
        sim::options o = cold_run(first_use_trigger::prefix_extend, 16384.0);
        o.requests = clients;
        return sim::simulate(e, t, o);
    };
    const sim::result a16 = run(warm, 16.0), x16 = run(d, 16.0);
    CHECK(x16.ttft.mean == a16.ttft.mean);
    CHECK(x16.makespan == a16.makespan);
    const sim::result a64 = run(warm, 64.0), x64 = run(d, 64.0);
    REQUIRE(x64.requests.size() == 64);
    for (std::size_t i = 0; i < 17; ++i) CHECK(x64.requests[i].ttft == doctest::Approx(a64.requests[i].ttft).epsilon(1e-9));
    for (std::size_t i = 17; i < 64; ++i)
        CHECK(x64.requests[i].ttft == doctest::Approx(a64.requests[i].ttft + 70.0).epsilon(1e-9));
    CHECK(x64.ttft.mean == doctest::Approx(a64.ttft.mean + 70.0 * 47.0 / 64.0).epsilon(1e-9));
}

TEST_CASE("first-use build: the table's triggers, row by row (research R2 §1 and §4)") {
    const std::vector<plan::measurement> rows = io::load_measurements_csv(std::filesystem::path(LLMCOST_TABLES_DIR) / "measurements.csv");
    auto row = [&](const std::string& id) -> const plan::measurement& {
        for (const plan::measurement& x : rows)
            if (x.id == id) return x;
        FAIL("no row " << id);
        return rows.front();
    };
    // Every SGLang v0.5.6 B200 run names prefix_extend; whether a step meets it is the simulated run's.
    CHECK(row("IMX-B200-sglang-DSR1-NVFP4-tp4ep4-1kx1k-c16-ttft").first_use_build == first_use_trigger::prefix_extend);
    CHECK(row("IMX-B200-sglang-DSR1-tp8-8kx1k-c64-ttft").first_use_build == first_use_trigger::prefix_extend);
    // MI355X MXFP4 on v0.5.7 (AITER prebuild off): the 1k runs' test prompt has at most 1,024 tokens; the 8k runs'
    // at least 6,554, which ran AITER's >1,024-token path before the timed run.
    CHECK(row("IMX-MI355X-sglang-DSR1-MXFP4-tp4-1kx1k-c4-ttft").first_use_build == first_use_trigger::moe_sort_switch);
    CHECK(row("IMX-MI355X-sglang-DSR1-MXFP4-tp8-1kx1k-c64-ttft").first_use_build == first_use_trigger::moe_sort_switch);
    CHECK(row("IMX-MI355X-sglang-DSR1-MXFP4-tp8-8kx1k-c4-ttft").first_use_build == first_use_trigger::none);
    // MI355X FP8 on v0.5.5.post3: prebuilt.
    CHECK(row("IMX-MI355X-sglang-DSR1-tp8-1kx1k-c64-ttft").first_use_build == first_use_trigger::none);
    // The closed loops as priced: the NVFP4 1k run at 16 clients (14,752 ≤ 16,384) carries no build; at 64 clients
    // (59,008 > 16,384) its mean TTFT carries the profile's S over most of its 64 opening requests.
    auto with_s = [](plan::measurement x, double s) {
        x = plan::with_own_engine(x);
        x.d.engine.overheads.first_use_build = seconds(s);
        return plan::closed_loop_run(x);
    };
    const plan::measurement& c16 = row("IMX-B200-sglang-DSR1-NVFP4-tp4ep4-1kx1k-c16-ttft");
    CHECK(with_s(c16, 70.0).ttft.mean == with_s(c16, 0.0).ttft.mean);
    const plan::measurement& c64 = row("IMX-B200-sglang-DSR1-NVFP4-tp4ep4-1kx1k-c64-ttft");
    // Each opening request behind the first 16,384-token step waits the whole 70 s, the others none, so the mean over
    // the 640 prompts gains 70 × n / 640 s for a whole n: with the client's drawn lengths (range ratio 0.8, not 922
    // each as in the burst case above, where n = 47) n lies between 64 − 16,384 / 819 ≈ 44 and 64 − 16,384 / 1,024 = 48.
    const double n = (with_s(c64, 70.0).ttft.mean - with_s(c64, 0.0).ttft.mean) * 640.0 / 70.0;
    CHECK(c64.prompts == 640.0);
    CHECK(n == doctest::Approx(std::round(n)).epsilon(1e-9));
    CHECK(n >= 44.0);
    CHECK(n <= 48.0);
}

TEST_CASE("first-use build: the profile and the table refuse a bad one, naming the field") {
    engine_profile e = catalog::sglang_blackwell;
    e.overheads.first_use_build = seconds(0.0);
    CHECK(test::validation_message(e).empty());  // zero: none
    e.overheads.first_use_build = seconds(-1.0);
    CHECK(test::contains(test::validation_message(e),
                         "overheads.first_use_build (s) = -1: a benchmark run's first-use kernel build must be in [0, 600 s)"));
    e.overheads.first_use_build = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.first_use_build (s) = nan"));
    e.overheads.first_use_build = 700.0_s;
    CHECK(test::contains(test::validation_message(e), "overheads.first_use_build (s) = 700"));
    // The table's column, found by name (the profile's check above names its field for a negative figure).
    CHECK(test::engine_column_optional("first_use_build_s"));
    CHECK(test::engine_column_index("shared_expert_ep_replicated") < test::engine_column_index("first_use_build_s"));
    CHECK(test::engine_column_index("first_use_build_s") < test::engine_column_index("prefill_request_us"));
    CHECK(io::detail::engines_csv::column_for("overheads.first_use_build") == "first_use_build_s");
    // The catalog: SGLang on CDNA4 carries a fitted S; every other profile 0 (SGLang on Blackwell too: 8 of its 10
    // triggered runs stalled, not systematic, tables/validation.md; session 42, fix C).
    for (const engine_profile& p : catalog::all_engines) {
        CAPTURE(p.name);
        if (p.name == catalog::sglang_cdna4.name)
            CHECK(p.overheads.first_use_build.value() > 0.0);
        else CHECK(p.overheads.first_use_build.value() == 0.0);
    }
}

TEST_CASE("first-use build: a row's trigger word, or a refusal naming the column") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,input_tokens,output_tokens,metric,value,unit,source,prefill_workers,first_use_build\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "f.csv"); };
    auto row = [](const char* id) {
        return std::string(id) + ",check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,bf16,bf16,fixed_batch,0,8,8192,,8,80,1000,100,ttft_s,1,s,s,,";
    };
    // The same run with no closed loop (prompts 0), or disaggregated (one prefill worker).
    auto steady_row = [](const char* id) {
        return std::string(id) + ",check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,bf16,bf16,fixed_batch,0,8,8192,,8,0,1000,100,ttft_s,1,s,s,,";
    };
    auto disagg_row = [](const char* id) {
        return std::string(id) + ",check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,bf16,bf16,fixed_batch,0,8,8192,,8,80,1000,100,ttft_s,1,s,s,1,";
    };
    const auto rows = rows_of(row("A") + "prefix_extend\n" + row("B") + "moe_sort_switch\n" + row("C") + "none\n" + row("D") + "\n");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].first_use_build == first_use_trigger::prefix_extend);
    CHECK(rows[1].first_use_build == first_use_trigger::moe_sort_switch);
    CHECK(rows[2].first_use_build == first_use_trigger::none);
    CHECK(rows[3].first_use_build == first_use_trigger::none);  // empty: none
    const std::string m = test::message_of([&] { return rows_of(row("E") + "tile_bucket\n"); });
    CHECK(test::contains(m, "f.csv:2:27"));  // the 27th column: first_use_build
    CHECK(test::contains(m, "first_use_build"));
    CHECK(test::contains(m, "tile_bucket"));
    CHECK(test::contains(m, "prefix_extend"));

    // A trigger where it cannot apply: refused with file:line:column, the column, the word and the rule.
    const std::string s = test::message_of([&] { return rows_of(row("F") + "none\n" + steady_row("G") + "prefix_extend\n"); });
    CHECK(test::contains(s, "f.csv:3:27"));
    CHECK(test::contains(s, "first_use_build"));
    CHECK(test::contains(s, "prefix_extend"));
    CHECK(test::contains(s, "prompts > 0"));
    const std::string d = test::message_of([&] { return rows_of(disagg_row("H") + "moe_sort_switch\n"); });
    CHECK(test::contains(d, "f.csv:2:27"));
    CHECK(test::contains(d, "moe_sort_switch"));
    CHECK(test::contains(d, "no prefill workers"));
    // none / empty stays accepted on both kinds of row.
    CHECK(rows_of(steady_row("I") + "none\n" + steady_row("J") + "\n").size() == 2);
    // A row built in code: validate() refuses it too, naming the field.
    plan::measurement x = rows_of(steady_row("K") + "\n").front();
    x.first_use_build = first_use_trigger::moe_sort_switch;
    CHECK(test::contains(test::error_of([&] { x.validate(); return 0; }), "first_use_build"));
}

TEST_CASE("first-use build: a calibration parameter like the cold opening's") {
    CHECK(plan::parameter_named("first_use_build") == plan::parameter::first_use_build);
    CHECK(plan::unit_of(plan::parameter::first_use_build) == "s");
    CHECK_FALSE(plan::is_fraction(plan::parameter::first_use_build));
    plan::efficiency_parameters p;
    plan::value_of(p, plan::parameter::first_use_build) = 12.5;
    CHECK(p.first_use_build == 12.5);
}
