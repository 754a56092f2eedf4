// The validation tool's front-end rule (examples/tools/validation/front_end_rule.hpp): which closed-loop
// TTFT rows fit an engine's per-request front end. Synthetic rows, each subset worked by hand from the
// rule's text (docs/sglang-closed-loop-ttft.md §1, docs/sglang-cdna4-ttft.md): the fit GPU (most rows),
// its lowest concurrency (batch × dp), the shortest prompt there (every prompt length where that gives
// fewer than two), by id, the 1st, 3rd … (both of two, none of one), at most a third of the rows.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>

#include <doctest/doctest.h>

#include "validation/front_end_rule.hpp"

#include <string>
#include <vector>

using namespace llmcost;

namespace {

/// A closed-loop TTFT row: id, GPU, batch per replica, dp, prompt tokens, median and p99 TTFT (s).
plan::measurement ttft_row(std::string id, const hardware& hw, double batch, int dp, double prompt, double median = 0.2,
                           double p99 = 1.0) {
    plan::measurement x;
    x.id = std::move(id);
    x.engine = plan::serving_engine::sglang;
    x.d.hw = hw;
    x.d.layout.dp = dp;
    x.batch = batch;
    x.prompts = 320;
    x.r = {.input = tokens(prompt), .output = tokens(1000.0)};
    x.what = plan::metric::ttft_s;
    x.value = median;
    x.ttft_median = median;
    x.ttft_p99 = p99;
    return x;
}

std::vector<const plan::measurement*> pointers(const std::vector<plan::measurement>& rows) {
    std::vector<const plan::measurement*> p;
    for (const plan::measurement& x : rows) p.push_back(&x);
    return p;
}

std::vector<std::string> ids(const std::vector<const plan::measurement*>& rows) {
    std::vector<std::string> s;
    for (const plan::measurement* x : rows) s.push_back(x->id);
    return s;
}

}  // namespace

TEST_CASE("front-end rule: the stalled run is a candidate, lowest concurrency, shortest prompt, 1st and 3rd by id") {
    const hardware& h200 = catalog::h200_sxm;
    const hardware& h100 = catalog::h100_sxm5;
    // 8 rows on H200, 2 on H100 (at a lower concurrency, but not the fit GPU): cap ⌊10 ÷ 3⌋ = 3.
    // On H200 the lowest concurrency is 4 (r08: batch 2 × dp 2 is 4 too); at it the prompts are 1,000
    // (r02, r05, r08) and 8,000 (r03, r07): the shortest give three candidates, r02, r05, r08 by id;
    // the 1st and 3rd: r02 (stalled: p99 100 × its median) and r08.
    const std::vector<plan::measurement> rows{
        ttft_row("r05", h200, 4, 1, 1000), ttft_row("r03", h200, 4, 1, 8000), ttft_row("r01", h200, 16, 1, 1000),
        ttft_row("r08", h200, 2, 2, 1000), ttft_row("r02", h200, 4, 1, 1000, 0.3, 30.0), ttft_row("r07", h200, 4, 1, 8000),
        ttft_row("r04", h200, 16, 1, 8000), ttft_row("r06", h200, 64, 1, 1000), ttft_row("r09", h100, 1, 1, 1000),
        ttft_row("r10", h100, 1, 1, 1000)};
    REQUIRE(plan::stalled(rows[4]));
    const validation::front_end_rows f = validation::front_end_subset(pointers(rows));
    CHECK(f.gpu == std::string(h200.name));
    CHECK(f.concurrency == 4.0);
    CHECK(f.prompt == 1000.0);
    CHECK_FALSE(f.every_prompt);
    CHECK(ids(f.candidates) == std::vector<std::string>{"r02", "r05", "r08"});
    CHECK(ids(f.subset) == std::vector<std::string>{"r02", "r08"});
}

TEST_CASE("front-end rule: at most a third of the engine's rows") {
    const hardware& g = catalog::h200_sxm;
    // 9 rows: cap 3. Seven candidates at concurrency 1, prompt 100 (a1 … a7); the 1st, 3rd, 5th, 7th
    // would be a1, a3, a5, a7: the cap stops at a1, a3, a5.
    std::vector<plan::measurement> rows;
    for (const char* id : {"a7", "a2", "a5", "a1", "a4", "a6", "a3"}) rows.push_back(ttft_row(id, g, 1, 1, 100));
    rows.push_back(ttft_row("b1", g, 8, 1, 100));
    rows.push_back(ttft_row("b2", g, 1, 1, 400));
    const validation::front_end_rows f = validation::front_end_subset(pointers(rows));
    CHECK(f.concurrency == 1.0);
    CHECK(f.prompt == 100.0);
    CHECK(f.candidates.size() == 7);
    CHECK(ids(f.subset) == std::vector<std::string>{"a1", "a3", "a5"});
}

TEST_CASE("front-end rule: fewer than two at the shortest prompt, every prompt length at the lowest concurrency") {
    const hardware& g = catalog::h200_sxm;
    // 6 rows: cap 2. Concurrency 2 holds one prompt of 500 (c3) and prompts of 2,000 (c1) and 4,000 (c2):
    // the shortest gives one, so every length at concurrency 2: c1, c2, c3 by id; the 1st and 3rd.
    const std::vector<plan::measurement> rows{ttft_row("c3", g, 2, 1, 500),  ttft_row("c2", g, 2, 1, 4000),
                                              ttft_row("c1", g, 2, 1, 2000), ttft_row("d1", g, 8, 1, 500),
                                              ttft_row("d2", g, 8, 1, 2000), ttft_row("d3", g, 8, 1, 4000)};
    const validation::front_end_rows f = validation::front_end_subset(pointers(rows));
    CHECK(f.every_prompt);
    CHECK(f.prompt == 500.0);
    CHECK(ids(f.candidates) == std::vector<std::string>{"c1", "c2", "c3"});
    CHECK(ids(f.subset) == std::vector<std::string>{"c1", "c3"});
}

TEST_CASE("front-end rule: two candidates give both, one gives none") {
    const hardware& g = catalog::h200_sxm;
    // Two at the lowest concurrency and shortest prompt, 6 rows (cap 2): both.
    const std::vector<plan::measurement> two{ttft_row("e2", g, 1, 1, 100), ttft_row("e1", g, 1, 1, 100),
                                             ttft_row("e3", g, 4, 1, 100), ttft_row("e4", g, 4, 1, 100),
                                             ttft_row("e5", g, 16, 1, 100), ttft_row("e6", g, 16, 1, 100)};
    const validation::front_end_rows both = validation::front_end_subset(pointers(two));
    CHECK_FALSE(both.every_prompt);
    CHECK(ids(both.subset) == std::vector<std::string>{"e1", "e2"});
    // One row at the lowest concurrency, whatever its prompt: a single candidate, no subset.
    const std::vector<plan::measurement> one{ttft_row("f1", g, 1, 1, 100), ttft_row("f2", g, 4, 1, 100),
                                             ttft_row("f3", g, 4, 1, 100), ttft_row("f4", g, 4, 1, 800)};
    const validation::front_end_rows none = validation::front_end_subset(pointers(one));
    CHECK(none.every_prompt);
    CHECK(ids(none.candidates) == std::vector<std::string>{"f1"});
    CHECK(none.subset.empty());
    // Two candidates but a cap of ⌊5 ÷ 3⌋ = 1: the first alone.
    const std::vector<plan::measurement> capped{ttft_row("g2", g, 1, 1, 100), ttft_row("g1", g, 1, 1, 100),
                                                ttft_row("g3", g, 4, 1, 100), ttft_row("g4", g, 4, 1, 100),
                                                ttft_row("g5", g, 4, 1, 100)};
    CHECK(ids(validation::front_end_subset(pointers(capped)).subset) == std::vector<std::string>{"g1"});
}

namespace {

/// One row of a closed-loop run named `<run>-<suffix>`, on H200 at batch 16, 1,000-token prompts.
plan::measurement run_row(const std::string& run, const char* suffix, plan::metric m, double median = 0.0, double p99 = 0.0) {
    plan::measurement x = ttft_row(run + "-" + suffix, catalog::h200_sxm, 16.0, 1, 1000.0, median, p99);
    x.what = m;
    if (m != plan::metric::ttft_s) x.ttft_median = x.ttft_p99 = 0.0;
    return x;
}

}  // namespace

TEST_CASE("launch rule: a stalled run's tokens/s row is not a candidate, its TPOT row is") {
    using plan::metric;
    // Run "s": p99 TTFT 70 s over a 0.5 s median, 140 > 60 (stalled). Run "q": 20 s over 0.5 s, 40 ≤ 60.
    // Run "e": exactly 60 × (30 s over 0.5 s): "above 60 ×" is strict, so not stalled.
    const std::vector<plan::measurement> rows{
        run_row("s", "tok", metric::output_tokens_per_s), run_row("s", "ttft", metric::ttft_s, 0.5, 70.0),
        run_row("s", "tpot", metric::tpot_s),             run_row("q", "tok", metric::output_tokens_per_s),
        run_row("q", "ttft", metric::ttft_s, 0.5, 20.0),  run_row("q", "tpot", metric::tpot_s),
        run_row("e", "tok", metric::output_tokens_per_s), run_row("e", "ttft", metric::ttft_s, 0.5, 30.0),
    };
    const std::vector<std::string> stalled = validation::stalled_runs(rows);
    CHECK(stalled == std::vector<std::string>{"s"});
    CHECK(validation::run_of("IMX-B200-sglang-DSR1-tp8-8kx1k-c16-tok") == "IMX-B200-sglang-DSR1-tp8-8kx1k-c16");
    CHECK_FALSE(validation::launch_candidate(rows[0], stalled));  // the stalled run's tokens/s row: out
    CHECK_FALSE(validation::launch_candidate(rows[1], stalled));  // a TTFT row: never
    CHECK(validation::launch_candidate(rows[2], stalled));        // the stalled run's TPOT row: kept
    CHECK(validation::launch_candidate(rows[3], stalled));        // an unstalled run's tokens/s row: kept
    CHECK(validation::launch_candidate(rows[5], stalled));
    CHECK(validation::launch_candidate(rows[6], stalled));        // at exactly 60 ×: not stalled
    // The other exclusions stand: an online row and a run with graphs off.
    plan::measurement online = rows[3];
    online.how = plan::scenario::online;
    CHECK_FALSE(validation::launch_candidate(online, stalled));
    plan::measurement eager = rows[5];
    eager.cuda_graphs = false;
    CHECK_FALSE(validation::launch_candidate(eager, stalled));
    // A batch latency (session 45): a whole batch's makespan, not a tokens/s or TPOT stratum: never a candidate.
    plan::measurement batch = rows[5];
    batch.what = metric::batch_latency_s;
    CHECK_FALSE(validation::launch_candidate(batch, stalled));
}

TEST_CASE("validation groups: a batch latency is a latency row, and the closed-loop section leaves it out") {
    using plan::metric;
    plan::measurement tok = run_row("c", "tok", metric::output_tokens_per_s);
    tok.prompts = 16.0;  // a closed-loop client's row: one prompt per client
    plan::measurement tpot = tok, ttft = tok, batch = tok;
    tpot.what = metric::tpot_s;
    ttft.what = metric::ttft_s;
    batch.what = metric::batch_latency_s;
    CHECK_FALSE(validation::latency_metric(tok));
    CHECK(validation::latency_metric(tpot));
    CHECK(validation::latency_metric(ttft));
    CHECK(validation::latency_metric(batch));  // grouped with TTFT and TPOT, never with tokens/s
    // The closed-loop section sets the steady state beside the simulated run: a makespan has no steady state.
    CHECK(validation::closed_loop_pair(tok));
    CHECK(validation::closed_loop_pair(tpot));
    CHECK_FALSE(validation::closed_loop_pair(batch));
    plan::measurement steady = tok;
    steady.prompts = 0.0;  // the steady state itself: no closed loop to set beside it
    CHECK_FALSE(validation::closed_loop_pair(steady));
    plan::measurement split = tok;
    split.prefill_workers = 1.0;  // disaggregated: its own simulated run
    CHECK_FALSE(validation::closed_loop_pair(split));
}

TEST_CASE("first-use build rule: fitted only where every triggered run stalled (session 42, fix C)") {
    const hardware& b200 = catalog::b200_hgx;
    // Four runs; r1 and r3 are triggered (the hand-given `fires`), r2 and r4 not. Stalled: p99 100 × the median.
    // Systematic set: r1 and r3 stalled, r2 and r4 not → 2 of 2 triggered stalled: fitted.
    const std::vector<plan::measurement> systematic{
        ttft_row("r1", b200, 64, 1, 1000, 0.5, 50.0), ttft_row("r2", b200, 4, 1, 1000, 0.2, 1.0),
        ttft_row("r3", b200, 16, 1, 8000, 0.5, 50.0), ttft_row("r4", b200, 16, 1, 1000, 0.3, 1.5)};
    const auto fires = [](const plan::measurement& x) { return x.id == "r1" || x.id == "r3"; };
    const validation::build_census yes = validation::first_use_build_census(pointers(systematic), fires);
    CHECK(ids(yes.triggered) == std::vector<std::string>{"r1", "r3"});
    CHECK(ids(yes.stalled) == std::vector<std::string>{"r1", "r3"});
    CHECK(yes.not_stalled.empty());
    CHECK(yes.untriggered == 2);
    CHECK(yes.untriggered_stalled.empty());
    CHECK(yes.systematic());
    // One triggered run that did not stall (r3: p99 2 × its median, under 60 ×): 1 of 2, not systematic (S = 0),
    // r3 named; an untriggered run that stalled (r4) is the reverse check's, and does not make it systematic.
    const std::vector<plan::measurement> one_short{
        ttft_row("r1", b200, 64, 1, 1000, 0.5, 50.0), ttft_row("r2", b200, 4, 1, 1000, 0.2, 1.0),
        ttft_row("r3", b200, 16, 1, 8000, 0.5, 1.0), ttft_row("r4", b200, 16, 1, 1000, 0.3, 30.0)};
    const validation::build_census no = validation::first_use_build_census(pointers(one_short), fires);
    CHECK(ids(no.stalled) == std::vector<std::string>{"r1"});
    CHECK(ids(no.not_stalled) == std::vector<std::string>{"r3"});
    CHECK(ids(no.untriggered_stalled) == std::vector<std::string>{"r4"});
    CHECK_FALSE(no.systematic());
    // No triggered run: nothing to fit.
    CHECK_FALSE(validation::first_use_build_census(pointers(systematic), [](const plan::measurement&) { return false; }).systematic());
}
