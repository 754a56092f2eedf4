// A batch's latency (plan::metric::batch_latency_s; session 45, docs/amd-dev-docker.md): vLLM's benchmark_latency.py
// times one LLM.generate of b prompts, each answered with exactly O tokens, on a warm engine. Priced as the row's
// simulated closed loop of b clients with b prompts, all at t = 0 (plan::closed_loop_run), its makespan, with no
// cold opening. Hand-worked makespans, the warm start, and the refusals (the loader's and validate's).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

const std::string header =
    "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
    "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,prefill_workers,"
    "first_use_build\n";

std::vector<plan::measurement> rows_of(const std::string& rows) { return io::parse_measurements_csv(header + rows, "b.csv"); }

// Llama-3.1-8B on one H100 under vLLM's Hopper profile, `b` prompts of 1,000 tokens answered with `o`, one prompt a
// client (`prompts` = batch), fixed lengths (range_ratio 1).
std::string row(const std::string& id, int b, int o, const std::string& metric = "batch_latency_s",
                const std::string& prompts = "", const std::string& tail = ",") {
    const std::string p = prompts.empty() ? std::to_string(b) : prompts;
    return id + ",check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,bf16,bf16,fixed_batch,,,,," + std::to_string(b) + "," + p +
           ",1,1000," + std::to_string(o) + "," + metric + ",10,s,src," + tail + "\n";
}

double prefill(const deployment& d, double b) { return prefill_pass(d, b, 1000_tok, 0_tok).time().value(); }
double decode(const deployment& d, double b, double context) { return decode_pass(d, b, tokens(context)).time().value(); }

}  // namespace

TEST_CASE("batch latency: one prompt step, then O - 1 decode steps of the whole batch, by hand") {
    // b prompts of I = 1,000 tokens, all at t = 0, each answered with exactly O tokens. The engine's step budget
    // (vLLM on Hopper: 8,192 tokens) holds every prompt, so step 1 is one prompt pass of b prompts, which gives each
    // answer its first token; then O - 1 decode steps of all b answers at contexts I + 1 ... I + O - 1, the last of
    // which gives every answer its last token. Makespan = prefill(b, I) + sum over k = 1 .. O - 1 of decode(b, I + k).
    for (const int b : {1, 2, 4}) {
        CAPTURE(b);
        const plan::measurement x = rows_of(row("L", b, 5)).front();
        const deployment d = plan::as_driven(x);
        const double hand = prefill(d, b) + decode(d, b, 1001) + decode(d, b, 1002) + decode(d, b, 1003) + decode(d, b, 1004);
        CHECK(plan::predict(x) == doctest::Approx(hand).epsilon(1e-12));
        CHECK(plan::closed_loop_run(x).makespan == doctest::Approx(hand).epsilon(1e-12));
    }
    // One token: the prompt step alone.
    const plan::measurement one = rows_of(row("L1", 2, 1)).front();
    CHECK(plan::predict(one) == doctest::Approx(prefill(plan::as_driven(one), 2)).epsilon(1e-12));
    // Read as a tokens/s row, the same run: b · O tokens over the same makespan.
    const plan::measurement lat = rows_of(row("L2", 2, 5)).front();
    plan::measurement tok = lat;
    tok.what = plan::metric::output_tokens_per_s;
    CHECK(plan::predict(tok) == doctest::Approx(2.0 * 5.0 / plan::predict(lat)).epsilon(1e-12));
}

TEST_CASE("batch latency: timed warm, after the benchmark's warm-up, a cold opening is not paid") {
    // The same rows on an engine with a cold opening of 7 s: the tokens/s row (a benchmark client's burst on a server
    // started just before it) pays it; the batch-latency row does not.
    plan::measurement lat = rows_of(row("W", 2, 5)).front();
    plan::measurement tok = lat;
    tok.what = plan::metric::output_tokens_per_s;
    const double warm = plan::predict(lat), warm_tok = plan::predict(tok);
    lat.d.engine.overheads.cold_start = 7.0_s;
    tok.d.engine.overheads.cold_start = 7.0_s;
    CHECK(plan::predict(lat) == warm);
    CHECK(10.0 / plan::predict(tok) == doctest::Approx(10.0 / warm_tok + 7.0).epsilon(1e-12));
}

TEST_CASE("batch latency: the metric's word, and the rows it cannot be priced on, refused naming field, value and rule") {
    CHECK(plan::to_string(plan::metric::batch_latency_s) == "batch_latency_s");
    const auto ok = rows_of(row("A", 8, 16));
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].what == plan::metric::batch_latency_s);
    CHECK(ok[0].value == 10.0);
    // In milliseconds too, like every time.
    std::string ms = row("C", 8, 16);
    ms.replace(ms.find(",10,s,"), 6, ",1500,ms,");
    CHECK(rows_of(ms).front().value == doctest::Approx(1.5));
    // A rate unit for a time: refused.
    std::string bad_unit = row("D", 8, 16);
    bad_unit.replace(bad_unit.find(",10,s,"), 6, ",10,tok/s,");
    CHECK(test::contains(test::message_of([&] { return rows_of(bad_unit); }), "a time is measured in s or ms"));
    // No closed loop (prompts 0: the steady state), or more prompts than clients (not one batch): refused.
    for (const std::string& prompts : {std::string("0"), std::string("16")}) {
        CAPTURE(prompts);
        const std::string m = test::message_of([&] { return rows_of(row("E", 8, 16, "batch_latency_s", prompts)); });
        CHECK(test::contains(m, "b.csv:2"));
        CHECK(test::contains(m, "prompts"));
        CHECK(test::contains(m, "= " + prompts));
        CHECK(test::contains(m, "one batch's makespan"));
    }
    // A disaggregated row (one prefill worker): refused.
    const std::string dis = test::message_of([&] { return rows_of(row("F", 8, 16, "batch_latency_s", "", "1,")); });
    CHECK(test::contains(dis, "not disaggregated"));
    CHECK(test::contains(dis, "prefill_workers = 1"));  // the field that breaks the rule, not prompts
    CHECK(!test::contains(dis, "prompts = "));
    // A first-use build on a warm engine: refused, naming the column.
    const std::string fub = test::message_of([&] { return rows_of(row("G", 8, 16, "batch_latency_s", "", ",prefix_extend")); });
    CHECK(test::contains(fub, "first_use_build"));
    CHECK(test::contains(fub, "warm engine"));
    // An online or offline row: refused by validate (built in code), and predict refuses it too.
    plan::measurement x = ok[0];
    x.how = plan::scenario::online;
    x.rate = 1.0;
    x.prompts = 0.0;
    CHECK(test::contains(test::error_of([&] { x.validate(); return 0; }), "batch_latency_s"));
    CHECK(test::contains(test::error_of([&] { return plan::predict(x); }), "one batch's makespan"));
    // ... naming the scenario, the field that breaks the rule (one prompt per client would hold: prompts = clients)
    x.prompts = x.clients();
    const std::string online = test::error_of([&] { return plan::predict(x); });
    CHECK(test::contains(online, "scenario = online: "));  // the word, not the enum's number
    CHECK(!test::contains(online, "prompts = "));
}
