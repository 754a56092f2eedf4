// vLLM's V0 LLMEngine loop pays its scheduler pass on the host (session 46, part V; docs/vllm-v0-host-loop.md):
// t_host = a0 + a1 · (tp − 1) + h · n, n the sequences the pass schedules (`engine_overheads::v0_host_pass`), every
// step in a closed form, once a pass in the simulator; only where the deployment runs V0 (`v0_loop`, a row's
// `host_loop` v0), only on a vLLM engine.
#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// Llama-3.1-8B FP16 on H100 SXM under vLLM on Hopper at TP `tp`, with the pass figures a0 = 800 µs, a1 = 700 µs,
/// h = 80 µs (round numbers for the hand sums, not the fitted ones) and the loop as asked.
deployment llama8b(int tp, bool v0) {
    deployment d = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.tp = tp}}, formats::fp16,
                                formats::fp16);
    d.engine = catalog::vllm_hopper;
    d.engine.overheads.v0_pass = microseconds(800.0);
    d.engine.overheads.v0_pass_rank = microseconds(700.0);
    d.engine.overheads.v0_pass_sequence = microseconds(80.0);
    d.engine.overheads.v0_loop = v0;
    return d;
}

}  // namespace

TEST_CASE("V0 host pass: a decode step pays a0 + a1 (tp - 1) + h n, by hand") {
    // TP4, 16 sequences decoding at 1,000 tokens of context: 800 + 700 × 3 + 80 × 16 = 800 + 2,100 + 1,280
    // = 4,180 µs on top of the V1 step (the same deployment with the loop off).
    const double with = decode_pass(llama8b(4, true), 16.0, 1000_tok).time().value();
    const double without = decode_pass(llama8b(4, false), 16.0, 1000_tok).time().value();
    CHECK(with - without == doctest::Approx(4.180e-3).epsilon(1e-9));
    // TP1, one sequence: 800 + 0 + 80 = 880 µs (the broadcast is skipped at world size 1: no a1).
    CHECK(decode_pass(llama8b(1, true), 1.0, 1000_tok).time().value() -
              decode_pass(llama8b(1, false), 1.0, 1000_tok).time().value() ==
          doctest::Approx(0.880e-3).epsilon(1e-9));
    // The formula itself: TP2, 64 sequences: 800 + 700 + 5,120 = 6,620 µs.
    CHECK(llama8b(2, true).engine.overheads.v0_host_pass(2.0, 64.0) == doctest::Approx(6.620e-3).epsilon(1e-12));
    // A prompt step of 4 prompts schedules 4 sequences: 800 + 700 × 3 + 320 = 3,220 µs at TP4.
    CHECK(prefill_pass(llama8b(4, true), 4.0, 512_tok, 0_tok).time().value() -
              prefill_pass(llama8b(4, false), 4.0, 512_tok, 0_tok).time().value() ==
          doctest::Approx(3.220e-3).epsilon(1e-9));
}

TEST_CASE("V0 host pass: under V0 multi-step a steady-state step pays t_host / S, by hand") {
    // num_scheduler_steps S = 10 (a row's receive_interval): TP4, 16 sequences, t_host = 4,180 µs (above), so each
    // step of a steady state pays 418 µs.
    deployment d = llama8b(4, true);
    d.engine.overheads.v0_steps_per_pass = 10.0;
    CHECK(decode_pass(d, 16.0, 1000_tok).time().value() - decode_pass(llama8b(4, false), 16.0, 1000_tok).time().value() ==
          doctest::Approx(0.418e-3).epsilon(1e-9));
    CHECK(d.engine.overheads.v0_host_pass(4.0, 16.0) == doctest::Approx(4.180e-3).epsilon(1e-12));  // a whole pass
    d.engine.overheads.v0_steps_per_pass = 0.5;
    CHECK(test::contains(test::validation_message(d.engine), "overheads.v0_steps_per_pass"));
}

TEST_CASE("V0 host pass: nothing without the V0 loop, bit for bit (V1 rows keep their price)") {
    // The figures set but the loop off (the default): the step is the profile's, bit for bit.
    deployment plain = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}},
                                    formats::fp16, formats::fp16);
    plain.engine = catalog::vllm_hopper;
    deployment zeroed = plain;
    zeroed.engine.overheads.v0_pass = zeroed.engine.overheads.v0_pass_rank = zeroed.engine.overheads.v0_pass_sequence =
        seconds(0.0);
    CHECK_FALSE(plain.engine.overheads.v0_loop);  // the default: the profile's own loop
    CHECK(decode_pass(plain, 64.0, 1500_tok).time() == decode_pass(zeroed, 64.0, 1500_tok).time());
    CHECK(decode_pass(llama8b(2, false), 64.0, 1500_tok).time() == decode_pass(zeroed, 64.0, 1500_tok).time());
    CHECK(prefill_pass(llama8b(2, false), 8.0, 700_tok, 0_tok).time() == prefill_pass(zeroed, 8.0, 700_tok, 0_tok).time());
    CHECK(plain.engine.overheads.v0_host_pass(2.0, 64.0) == 0.0);
    // An existing V1 row's price (a vLLM Hopper row with no host_loop): the same with the profile's figures as with
    // them zeroed.
    plan::measurement x{.id = "V1", .check = true, .d = plain, .r = {.input = 1024_tok, .output = 256_tok},
                        .how = plan::scenario::fixed_batch, .batch = 32.0, .what = plan::metric::output_tokens_per_s,
                        .value = 1.0, .source = "synthetic"};
    plan::measurement y = x;
    y.d = zeroed;
    CHECK(plan::predict(x) == plan::predict(y));
}

TEST_CASE("V0 host pass: monotone in the sequences and the TP degree") {
    const engine_overheads o = llama8b(1, true).engine.overheads;
    double last = 0.0;
    for (double n : {0.0, 1.0, 2.0, 16.0, 64.0, 256.0}) {
        const double t = o.v0_host_pass(1.0, n);
        CHECK(t >= last);
        last = t;
    }
    last = 0.0;
    for (double tp : {1.0, 2.0, 4.0, 8.0}) {
        const double t = o.v0_host_pass(tp, 32.0);
        CHECK(t > last);
        last = t;
    }
    // And the priced decode step grows with the batch by more than the V1 step does.
    const double d16 = decode_pass(llama8b(4, true), 16.0, 1000_tok).time().value() -
                       decode_pass(llama8b(4, false), 16.0, 1000_tok).time().value();
    const double d64 = decode_pass(llama8b(4, true), 64.0, 1000_tok).time().value() -
                       decode_pass(llama8b(4, false), 64.0, 1000_tok).time().value();
    CHECK(d64 - d16 == doctest::Approx(48.0 * 80e-6).epsilon(1e-9));
}

TEST_CASE("V0 host pass: the simulator pays it once a pass, before the pass's step") {
    // A fixed batch of 2 prompts of 100 tokens answered with 3 tokens, TP1, prompts alone (V0): the closed loop runs
    // a prompt step (2 sequences) and then decode steps of 2; every step is a pass (receive_interval 1), so each pays
    // a0 + h · 2 = 800 + 160 = 960 µs more than with the loop off.
    plan::measurement x{.id = "S", .check = true, .d = llama8b(1, true), .r = {.input = 100_tok, .output = 3_tok},
                        .how = plan::scenario::fixed_batch, .batch = 2.0, .prompts = 2.0,
                        .what = plan::metric::batch_latency_s, .value = 1.0, .source = "synthetic"};
    x.prefill_alone = true;
    plan::measurement off = x;
    off.d = llama8b(1, false);
    const sim::result a = plan::closed_loop_run(off), b = plan::closed_loop_run(x);
    REQUIRE(a.steps == b.steps);
    CHECK(b.makespan - a.makespan == doctest::Approx(b.steps * 0.960e-3).epsilon(1e-6));
}

TEST_CASE("V0 host pass: under V0 multi-step (receive_interval 4) the simulator pays it once a pass, not once a step") {
    // The run above with 6 output tokens and num_scheduler_steps S = 4 (the row's receive_interval): a prompt step
    // (step 1, both first tokens) and 5 decode steps of 2 (steps 2-6). The scheduler passes, by the poll rule
    // (idle, after a step that carried a prompt, or S decode steps since the last pass): step 1 (the engine idle),
    // step 2 (after the prompt step) and step 6 (steps 2, 3, 4, 5 decoded since the pass at step 2) — 3 passes, not
    // 6. Each schedules the 2 sequences: t_host = a0 + h · 2 = 800 + 160 = 960 µs, so the makespan grows by
    // 3 × 960 = 2,880 µs; at receive_interval 1 it would be 6 × 960 = 5,760 µs.
    plan::measurement x{.id = "S4", .check = true, .d = llama8b(1, true), .r = {.input = 100_tok, .output = 6_tok},
                        .how = plan::scenario::fixed_batch, .batch = 2.0, .prompts = 2.0,
                        .what = plan::metric::batch_latency_s, .value = 1.0, .source = "synthetic"};
    x.prefill_alone = true;
    x.receive_interval = 4.0;
    plan::measurement off = x;
    off.d = llama8b(1, false);
    const sim::result a = plan::closed_loop_run(off), b = plan::closed_loop_run(x);
    REQUIRE(a.steps == 6.0);  // 1 prompt step + 5 decode steps, as worked above
    REQUIRE(b.steps == 6.0);
    CHECK(b.makespan - a.makespan == doctest::Approx(3.0 * 0.960e-3).epsilon(1e-6));
    // The same run polled every decode step pays it at each of its 6 steps.
    plan::measurement every = x, every_off = off;
    every.receive_interval = every_off.receive_interval = 1.0;
    CHECK(plan::closed_loop_run(every).makespan - plan::closed_loop_run(every_off).makespan ==
          doctest::Approx(6.0 * 0.960e-3).epsilon(1e-6));
}

TEST_CASE("V0 host pass: refusals name the field, the value and the rule") {
    engine_profile e = catalog::vllm_hopper;
    e.overheads.v0_pass = microseconds(-1.0);
    CHECK(test::contains(test::validation_message(e), "overheads.v0_pass (us) = -1"));
    e = catalog::vllm_hopper;
    e.overheads.v0_pass_rank = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.v0_pass_rank (us) = nan"));
    e = catalog::vllm_hopper;
    e.overheads.v0_pass_sequence = milliseconds(20.0);
    CHECK(test::contains(test::validation_message(e), "a V0 scheduler pass's host time per sequence must be in [0, 10 ms)"));
    // Only vLLM runs the V0 loop.
    e = catalog::sglang_hopper;
    e.overheads.v0_loop = true;
    CHECK(test::contains(test::validation_message(e), "only vLLM runs the V0 LLMEngine loop"));
    e = catalog::vllm_hopper;
    e.overheads.v0_loop = true;
    CHECK(test::validation_message(e).empty());
    // The measurements table's column: v0 on a vllm row; another word or another engine refused, naming the column.
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,host_loop\n";
    auto row = [](const std::string& engine, const std::string& loop) {
        return "A,check,Llama-3.1-8B,H100 SXM5," + engine + ",0.6.0,1,1,1,1,fp16,fp16,fixed_batch,,,,,8,128,128,output_tokens_per_s,"
               "1000,tok/s,synthetic," + loop + "\n";
    };
    const auto ok = io::parse_measurements_csv(header + row("vllm", "v0"), "m.csv");
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].v0_loop);
    CHECK_FALSE(io::parse_measurements_csv(header + row("vllm", ""), "m.csv")[0].v0_loop);
    const std::string other = test::message_of([&] { return io::parse_measurements_csv(header + row("sglang", "v0"), "m.csv"); });
    CHECK(test::contains(other, "host_loop"));
    CHECK(test::contains(other, "only vLLM runs the V0 LLMEngine loop"));
    const std::string word = test::message_of([&] { return io::parse_measurements_csv(header + row("vllm", "v1"), "m.csv"); });
    CHECK(test::contains(word, "host_loop"));
    // The engines table's optional columns, in µs, found by name: a table without them loads 0.
    for (const char* c : {"v0_pass_us", "v0_pass_rank_us", "v0_pass_sequence_us", "v0_output_token_us"}) {
        CAPTURE(c);
        CHECK(test::engine_column_optional(c));
    }
    CHECK(test::engine_column_index("v0_pass_sequence_us") < test::engine_column_index("v0_output_token_us"));
    CHECK(io::detail::engines_csv::column_for("overheads.v0_pass (us)") == "v0_pass_us");
    CHECK(io::detail::engines_csv::column_for("overheads.v0_pass_rank (us)") == "v0_pass_rank_us");
    const std::string base = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1024,8192,0,0,0.9,16,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + base + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].overheads.v0_pass_sequence.value() == 0.0);
    const std::string with = test::engine_table_columns() + ",v0_pass_us,v0_pass_rank_us,v0_pass_sequence_us,source\n";
    const auto mine = io::parse_engines_csv(with + base + ",900,600,75,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.v0_pass.value() == doctest::Approx(900e-6).epsilon(1e-15));
    CHECK(mine[0].overheads.v0_pass_rank.value() == doctest::Approx(600e-6).epsilon(1e-15));
    CHECK(mine[0].overheads.v0_pass_sequence.value() == doctest::Approx(75e-6).epsilon(1e-15));
    const std::string bad = test::message_of([&] { return io::parse_engines_csv(with + base + ",900,600,-3,my runs\n", "mine.csv"); });
    CHECK(test::contains(bad, "v0_pass_sequence_us"));
}

// Session 47: V0's output processing where the async output processor is off (CUDA graphs off, `enforce_eager`): a
// pass pays n · S · h_t more, h_t per sequence-step (`engine_overheads::v0_output_token`, `v0_output_sync`), so a
// steady-state step pays n · h_t whatever S (docs/vllm-v0-host-loop.md).
namespace {

/// llama8b above with CUDA graphs off (or on) and h_t = 20 µs (a round number for the hand sums, not the fitted one).
deployment eager_llama8b(int tp, bool graphs, double h_t_us, double steps_per_pass) {
    deployment d = llama8b(tp, true);
    d.engine.overheads.cuda_graphs = graphs;
    d.engine.overheads.v0_output_token = microseconds(h_t_us);
    d.engine.overheads.v0_steps_per_pass = steps_per_pass;
    return d;
}

}  // namespace

TEST_CASE("V0 output processing: a pass pays n S h_t more with graphs off, by hand") {
    // S = 4, TP4, 16 sequences: 800 + 700 × 3 + 80 × 16 + 20 × 16 × 4 = 4,180 + 1,280 = 5,460 µs.
    CHECK(eager_llama8b(4, false, 20.0, 4.0).engine.overheads.v0_host_pass(4.0, 16.0) ==
          doctest::Approx(5.460e-3).epsilon(1e-12));
    // S = 1: 4,180 + 20 × 16 = 4,500 µs.
    CHECK(eager_llama8b(4, false, 20.0, 1.0).engine.overheads.v0_host_pass(4.0, 16.0) ==
          doctest::Approx(4.500e-3).epsilon(1e-12));
    // Graphs on: the async output processor runs, no term: 4,180 µs.
    CHECK(eager_llama8b(4, true, 20.0, 4.0).engine.overheads.v0_host_pass(4.0, 16.0) ==
          doctest::Approx(4.180e-3).epsilon(1e-12));
    CHECK(eager_llama8b(4, false, 20.0, 4.0).engine.overheads.v0_output_sync());
    CHECK_FALSE(eager_llama8b(4, true, 20.0, 4.0).engine.overheads.v0_output_sync());
    // Not the V0 loop: nothing at all.
    deployment v1 = eager_llama8b(4, false, 20.0, 4.0);
    v1.engine.overheads.v0_loop = false;
    CHECK(v1.engine.overheads.v0_host_pass(4.0, 16.0) == 0.0);
}

TEST_CASE("V0 output processing: a steady-state decode step pays n h_t, at S = 1 and S = 4") {
    // 16 sequences at 1,000 tokens of context, TP4, graphs off: the step with h_t = 20 µs lasts 16 × 20 = 320 µs more
    // than with h_t = 0, at S = 1 and at S = 4 (n S h_t a pass ÷ S steps).
    for (double s : {1.0, 4.0}) {
        CAPTURE(s);
        const double with = decode_pass(eager_llama8b(4, false, 20.0, s), 16.0, 1000_tok).time().value();
        const double without = decode_pass(eager_llama8b(4, false, 0.0, s), 16.0, 1000_tok).time().value();
        CHECK(with - without == doctest::Approx(0.320e-3).epsilon(1e-9));
        // Graphs on: no term.
        CHECK(decode_pass(eager_llama8b(4, true, 20.0, s), 16.0, 1000_tok).time().value() ==
              decode_pass(eager_llama8b(4, true, 0.0, s), 16.0, 1000_tok).time().value());
    }
}

TEST_CASE("V0 output processing: the simulator pays n S h_t at each decode pass, n h_t at a prompt pass, at S = 1 and S = 4") {
    // A fixed batch of 2 prompts of 100 tokens, TP1, prompts alone, graphs off, h_t = 20 µs against 0.
    auto run = [](double h_t_us, double s, double output) {
        plan::measurement x{.id = "S", .check = true, .d = eager_llama8b(1, false, h_t_us, s),
                            .r = {.input = 100_tok, .output = tokens(output)}, .how = plan::scenario::fixed_batch,
                            .batch = 2.0, .prompts = 2.0, .what = plan::metric::batch_latency_s, .value = 1.0,
                            .source = "synthetic"};
        x.prefill_alone = true;
        x.receive_interval = s;
        return plan::closed_loop_run(x);
    };
    // S = 1, 3 tokens: a prompt step and 2 decode steps, every step a pass of 2 sequences: 3 × 2 × 1 × 20 = 120 µs.
    {
        const sim::result a = run(0.0, 1.0, 3.0), b = run(20.0, 1.0, 3.0);
        REQUIRE(a.steps == b.steps);
        REQUIRE(a.steps == 3.0);
        CHECK(b.makespan - a.makespan == doctest::Approx(0.120e-3).epsilon(1e-6));
    }
    // S = 4, 9 tokens: the prompt step (a pass of one step: 2 × 1 × 20 µs = 40 µs), then 8 decode steps; the
    // scheduler passes at the first decode step (after a prompt step) and again 4 decode steps later (steps 1 and
    // 5): 2 decode passes of 2 sequences and 4 steps, each 2 × 4 × 20 µs = 160 µs; 40 + 2 × 160 = 360 µs in all.
    {
        const sim::result a = run(0.0, 4.0, 9.0), b = run(20.0, 4.0, 9.0);
        REQUIRE(a.steps == b.steps);
        REQUIRE(a.steps == 9.0);
        CHECK(b.makespan - a.makespan == doctest::Approx(0.360e-3).epsilon(1e-6));
    }
}

TEST_CASE("V0 output processing: refusals and the engines table's column") {
    engine_profile e = catalog::vllm_cdna3;
    e.overheads.v0_output_token = microseconds(-2.0);
    CHECK(test::contains(test::validation_message(e), "overheads.v0_output_token (us) = -2"));
    e.overheads.v0_output_token = milliseconds(10.0);
    CHECK(test::contains(test::validation_message(e), "V0's output processing per sequence-step must be in [0, 10 ms)"));
    CHECK(io::detail::engines_csv::column_for("overheads.v0_output_token (us)") == "v0_output_token_us");
    // Found by its name; a table without it loads 0.
    const std::string base = "Mine,vllm,cdna3,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1024,8192,0,0,0.9,16,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + base + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].overheads.v0_output_token.value() == 0.0);
    const std::string with = test::engine_table_columns() + ",v0_output_token_us,source\n";
    const auto mine = io::parse_engines_csv(with + base + ",17.5,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.v0_output_token.value() == doctest::Approx(17.5e-6).epsilon(1e-15));
    const std::string bad = test::message_of([&] { return io::parse_engines_csv(with + base + ",-3,my runs\n", "mine.csv"); });
    CHECK(test::contains(bad, "v0_output_token_us"));
    CHECK(test::contains(bad, "mine.csv:2"));
}
