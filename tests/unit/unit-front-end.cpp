// The engine's front end per request (engine_overheads::request): what a client waits outside the
// engine's steps. It enters a TTFT once (client_first_token) and no step, batch or rate; the
// descriptor and the table refuse a bad one by field; plan::calibrate fits it; the measurement
// rows carry the artifact's median and p99 TTFT, and a stall is named.
#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment with_front_end(deployment d, seconds_t f) {
    d.engine.overheads.request = f;
    return d;
}

}  // namespace

TEST_CASE("front end: a lone request's TTFT is its prompt's prefill pass plus F, by hand") {
    // Batch 1, whole prompt: the first token comes out of the step that prefills the prompt alone
    // (no neighbour decoding), so TTFT = prefill pass of 2,000 tokens + F, F = 25 ms.
    const deployment ref{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const deployment d = with_front_end(ref, 25.0_ms);
    const request_shape r{.input = 2000_tok, .output = 300_tok};
    const double prefill = prefill_pass(ref, 1.0, 2000_tok, 0_tok).time().value();
    const serving_point s = serve_at_batch(d, r, 1.0);
    CHECK(s.ttft.value() == doctest::Approx(prefill + 0.025).epsilon(1e-9));
    CHECK(s.front_end.value() == 0.025);
    // E2E = TTFT + (O − 1)·TPOT: the front end once, not per token.
    CHECK(s.e2e.value() == doctest::Approx(prefill + 0.025 + 299.0 * s.tpot.value()).epsilon(1e-12));
}

TEST_CASE("front end: it moves TTFT and E2E by F and nothing else") {
    const deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const seconds_t f = 40.0_ms;
    const deployment d = with_front_end(ref, f);
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    SUBCASE("steady state at any batch") {
        for (double b : {1.0, 8.0, 64.0}) {
            const serving_point a = serve_at_batch(ref, r, b), x = serve_at_batch(d, r, b);
            CHECK(x.ttft.value() == doctest::Approx(a.ttft.value() + 0.04).epsilon(1e-12));
            CHECK(x.e2e.value() == doctest::Approx(a.e2e.value() + 0.04).epsilon(1e-12));
            CHECK(x.tpot == a.tpot);
            CHECK(x.step_time == a.step_time);
            CHECK(x.output_rate == a.output_rate);
        }
    }
    SUBCASE("online: Little's law counts the engine's requests, not the front end's") {
        const online_latency a = serve_online_latency(ref, r, 50.0_ms), x = serve_online_latency(d, r, 50.0_ms);
        CHECK(x.point.batch == a.point.batch);
        CHECK(x.point.tpot == a.point.tpot);
        CHECK(x.point.ttft.value() == doctest::Approx(a.point.ttft.value() + 0.04).epsilon(1e-12));
        // Every quantile shifts by F: a constant added to each request.
        CHECK(ttft_percentile(x, 0.9).value() == doctest::Approx(ttft_percentile(a, 0.9).value() + 0.04).epsilon(1e-12));
        CHECK(tpot_percentile(x, 0.9) == tpot_percentile(a, 0.9));
    }
    SUBCASE("simulated: each request's TTFT and E2E, not the engine's timeline") {
        const workload::traffic t{.input = workload::fixed(1000_tok), .output = workload::fixed(200_tok),
                                  .arrivals = workload::closed_loop(8.0)};
        const sim::options o{.requests = 40, .seed = 3, .keep_requests = true, .timeline_points = 0};
        const sim::result a = sim::simulate(ref, t, o), x = sim::simulate(d, t, o);
        REQUIRE(a.requests.size() == x.requests.size());
        for (std::size_t i = 0; i < a.requests.size(); ++i) {
            CHECK(x.requests[i].ttft == doctest::Approx(a.requests[i].ttft + 0.04).epsilon(1e-12));
            CHECK(x.requests[i].e2e == doctest::Approx(a.requests[i].e2e + 0.04).epsilon(1e-12));
            CHECK(x.requests[i].tpot == doctest::Approx(a.requests[i].tpot).epsilon(1e-12));
        }
        CHECK(x.makespan == a.makespan);
        CHECK(x.output_tokens_per_s == a.output_tokens_per_s);
        CHECK(x.ttft.p50 == doctest::Approx(a.ttft.p50 + 0.04).epsilon(1e-12));
    }
    SUBCASE("disaggregated: the prefill pool's front end in the TTFT") {
        // A TTFT target loose enough that KV capacity sets the prefill batch in both.
        const slo target{.ttft = 600.0_s, .tpot = 100.0_ms};
        const goodput_plan a = disaggregated_goodput(ref, ref, r, target, kv_path::scale_up);
        const goodput_plan x = disaggregated_goodput(d, d, r, target, kv_path::scale_up);
        REQUIRE(a.feasible);
        REQUIRE(x.feasible);
        REQUIRE(x.prefill_batch == a.prefill_batch);
        CHECK(x.ttft.value() == doctest::Approx(a.ttft.value() + 0.04).epsilon(1e-12));
        CHECK(x.tpot == a.tpot);
        CHECK(x.requests_per_second_per_gpu == a.requests_per_second_per_gpu);
    }
}

TEST_CASE("front end: the profile and the table refuse a bad one, naming the field") {
    engine_profile e = catalog::vllm_hopper;
    e.overheads.request = seconds(-1e-3);
    CHECK(test::contains(test::validation_message(e), "overheads.request (s) = -0.001: a per-request front-end latency must be in [0, 10 s)"));
    e.overheads.request = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.request (s) = nan"));
    e.overheads.request = 12.0_s;
    CHECK(test::contains(test::validation_message(e), "overheads.request (s) = 12"));
    e.overheads.request = 30.0_ms;
    CHECK(test::validation_message(e).empty());

    const std::string header =
        test::engine_table_columns() + ",source\n";
    auto row = [](const std::string& front_end) {
        return "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,256,8192,1,8192,0.9,16,0,0,0,0,0,1,0," + front_end +
               ",my runs\n";
    };
    const std::vector<engine_profile> mine = io::parse_engines_csv(header + row("25000"), "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.request.value() == doctest::Approx(0.025).epsilon(1e-15));
    const std::string negative = test::message_of([&] { return io::parse_engines_csv(header + row("-5"), "mine.csv"); });
    CHECK(test::contains(negative, "mine.csv:2"));
    CHECK(test::contains(negative, "request_overhead_us"));
    CHECK(test::contains(negative, "must not be negative"));
    const std::string long_wait = test::message_of([&] { return io::parse_engines_csv(header + row("2e7"), "mine.csv"); });
    CHECK(test::contains(long_wait, "mine.csv:2"));
    CHECK(test::contains(long_wait, "request_overhead_us"));
    CHECK(test::contains(long_wait, "a per-request front-end latency must be in [0, 10 s)"));
    const std::string nan = test::message_of([&] { return io::parse_engines_csv(header + row("nan"), "mine.csv"); });
    CHECK(test::contains(nan, "request_overhead_us"));
    // The catalog's fitted figures (tables/engines.csv), in seconds: 21.17 ms (vLLM, B200, fitted on the
    // runs' medians), 74.01 ms (SGLang, CDNA3, every prompt length at the lowest concurrency; 73.59
    // before the cold opening and the launch cost refitted with it, session 17) and 24.28 ms (SGLang,
    // CDNA4, the two 1k-token runs at concurrency 4 since a stalled run is a candidate, session 19; 126 ms
    // on two 8k-token runs before, docs/sglang-cdna4-ttft.md; 24.78 ms since session 21's launch refit, whose clause
    // drops the stalled runs' tokens/s rows from the launch fit). Session 28 (the FP8 checkpoint's 7 attention
    // kernels a layer on ROCm, docs/sglang-fp8-activation-quant.md): refitted by the same rule with the new
    // launch costs, 74.05 ms (CDNA3) and 39.98 ms (CDNA4); session 29 (the MXFP4-Preview checkpoint's BF16
    // attention priced, docs/checkpoint-composition.md): CDNA4 refitted by the rule at the catalog's launch cost of
    // that round (6.776 us, before its own refit to 6.36), 40.35 ms; session 29 part C (MLA's q_a and kv_a whole on
    // every TP rank, docs/mla-replicated-down-projection.md): 69.09 ms (CDNA3), 40.10 ms (CDNA4); session 31 part C
    // (SGLang on CDNA4's TP all-reduce: RCCL's curve above its 16 MiB custom bound, docs/mi355x-prefill.md): 39.55 ms (CDNA4);
    // session 38 (its MXFP4 experts at AITER's MXFP4 fused-MoE rate, docs/aiter-fused-moe.md §8): 37.83 ms (CDNA4);
    // session 39 (the MI355X rows' 50·c prompts and QuickReduce INT4, docs/mi355x-prompt-count.md §5): 37.97 ms (CDNA4);
    // session 40 (AITER's custom all-reduce to 64 MiB, docs/cdna-all-reduce.md §9; its fixed time anchored to B97
    // after review s40b): 35.54 ms (CDNA4). Session 49 (SGLang's overlap loop priced: the c = 4 medians carry its two
    // decode steps, which F had absorbed; docs/sglang-closed-loop-ttft.md §6): refitted by the same rule, 17.58 ms
    // (CDNA3), 11.72 ms (CDNA4), 24.45 ms (Hopper), 6.298 ms (Blackwell).
    CHECK(catalog::vllm_blackwell.overheads.request.value() == doctest::Approx(0.02117).epsilon(1e-12));
    CHECK(catalog::sglang_cdna3.overheads.request.value() == doctest::Approx(0.01758).epsilon(1e-12));
    CHECK(catalog::sglang_cdna4.overheads.request.value() == doctest::Approx(0.01172).epsilon(1e-12));
    CHECK(catalog::sglang_hopper.overheads.request.value() == doctest::Approx(0.02445).epsilon(1e-12));
    CHECK(catalog::sglang_blackwell.overheads.request.value() == doctest::Approx(0.006298).epsilon(1e-12));
    CHECK(catalog::trtllm_hopper.overheads.request.value() == 0.0);
    CHECK(engine_profile::reference().overheads.request.value() == 0.0);
}

TEST_CASE("front end: plan::calibrate recovers it from TTFT rows, and keeps the rows' own when not free") {
    // Rows made with F = 30 ms on vLLM's Hopper profile: a lone 1,000-token prompt and 4 neighbours
    // decoding beside a 3,000-token one. Fitted from 0 with the front end alone free: 30 ms back.
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    d.engine = catalog::vllm_hopper;
    d.engine.overheads.request = 30.0_ms;
    std::vector<plan::measurement> rows;
    for (const auto& [input, batch] : {std::pair{1000.0, 1.0}, std::pair{3000.0, 4.0}, std::pair{500.0, 16.0}}) {
        plan::measurement x{.id = std::string("F").append(std::to_string(rows.size())), .check = false, .d = d,
                            .r = {.input = tokens(input), .output = 200_tok}, .how = plan::scenario::fixed_batch,
                            .batch = batch, .what = plan::metric::ttft_s, .value = 1.0, .api_server = true,
                            .source = "synthetic"};
        x.value = plan::predict(x);
        x.d.engine.overheads.request = seconds(0.0);  // the fit starts from no front end
        rows.push_back(x);
    }
    const plan::calibration_result fit = plan::calibrate(rows, {.free = {plan::parameter::request_overhead}});
    REQUIRE(fit.parameters.size() == 1);
    CHECK(fit.parameters[0].value == doctest::Approx(0.030).epsilon(1e-6));
    CHECK(fit.sigma < 1e-6);
    CHECK(plan::unit_of(plan::parameter::request_overhead) == "s");
    CHECK(plan::parameter_named("request_overhead") == plan::parameter::request_overhead);

    // Not free: each row keeps its own engine's front end. A kernel-overhead fit on rows made with
    // F = 30 ms and carrying it comes back to the hardware's 4 µs per kernel.
    for (plan::measurement& x : rows) x.d.engine.overheads.request = 30.0_ms;
    const plan::calibration_result kernel = plan::calibrate(rows, {.free = {plan::parameter::kernel_overhead}});
    CHECK(kernel.parameters[0].value == doctest::Approx(catalog::h100_sxm5.gpu.efficiency.kernel_overhead.value()).epsilon(1e-4));

    // In process (trtllm-bench, an MLPerf harness): no API server, no front end, whatever the engine's.
    plan::measurement inproc = rows[0];
    inproc.api_server = false;
    plan::measurement served = rows[0];
    CHECK(plan::as_driven(inproc).engine.overheads.request.value() == 0.0);
    CHECK(plan::predict(served) == doctest::Approx(plan::predict(inproc) + 0.030).epsilon(1e-12));
    // Rows that never came through an API server cannot say what its front end is: refused, named.
    for (plan::measurement& x : rows) x.api_server = false;
    CHECK(test::contains(test::error_of([&] { return plan::calibrate(rows, {.free = {plan::parameter::request_overhead}}); }),
                         "request_overhead"));
}

TEST_CASE("front end: a TTFT row's median and p99, and a stall") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,ttft_median_s,ttft_p99_s,"
        "api_server\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const auto ok = rows_of(
        "A,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,ttft_s,0.03,s,s,0.027,0.059,1\n"
        "B,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,ttft_s,0.5,s,s,0.0759,21.03,1\n"
        "C,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,tpot_s,0.003,s,s,,,\n");
    REQUIRE(ok.size() == 3);
    CHECK(ok[0].ttft_median == 0.027);
    CHECK(ok[0].ttft_p99 == 0.059);
    CHECK(ok[2].ttft_median == 0.0);
    CHECK(ok[0].api_server);
    CHECK_FALSE(ok[2].api_server);
    CHECK(test::contains(
        error("A,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,ttft_s,0.03,s,s,,,2\n"),
        "api_server"));
    // p99 ÷ median: 2.2 (no stall), 277 (a stall: above 60).
    CHECK_FALSE(plan::stalled(ok[0]));
    CHECK(plan::stalled(ok[1]));
    CHECK_FALSE(plan::stalled(ok[2]));
    CHECK(test::contains(
        error("A,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,ttft_s,0.03,s,s,0.05,0.04,\n"),
        "ttft_p99 (s) = 0.04: a 99th percentile is at least the median"));
    CHECK(test::contains(
        error("A,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,tpot_s,0.003,s,s,0.05,0.06,\n"),
        "TTFT percentiles belong to a TTFT row"));
    CHECK(test::contains(
        error("A,check,Llama-3.1-8B,H100 SXM5,vllm,1.0,1,1,1,1,,,fixed_batch,,,,,4,40,0.8,922,922,ttft_s,0.03,s,s,-0.05,0.06,\n"),
        "m.csv:2:27: key \"ttft_median_s\" = \"-0.05\": must not be negative"));
    plan::measurement nan = ok[0];
    nan.ttft_median = std::numeric_limits<double>::quiet_NaN();
    CHECK(test::contains(test::error_of([&] { nan.validate(); return 0; }),
                         "a TTFT percentile is 0 (not given) or positive and finite"));
}

TEST_CASE("front end: a stall paid by a few of a run's requests moves its mean, not the median the fit reads") {
    // Why a stalled run is a front-end candidate (session 19, docs/sglang-cdna4-ttft.md §2): the MI355X MXFP4
    // 1k runs' artifacts (mean, median, std) read as a two-point mixture put their 21–23 s stall on about 2% of
    // the requests (about 0.8 of a 4-client run's 40). By hand, a 40-request run shaped like
    // IMX-MI355X-sglang-DSR1-MXFP4-tp8-1kx1k-c4-ttft's but with two stalls, to keep the ranks whole: 38 at
    // 76 ms and 2 stalled at 21 s (the real run's mean, 0.496 s, carries less than one). Median (rank 0.5 · 39 = 19.5, between two 76 ms values) = 0.076 s, as
    // with no stall; mean = (38 · 0.076 + 2 · 21) ÷ 40 = 1.1222 s against 0.076; p99 (rank 38.61, both
    // top values 21 s) = 21 s, 276 × the median: stalled by the 60 × rule.
    std::vector<double> stalled_run(40, 0.076), quiet_run(40, 0.076);
    stalled_run[7] = stalled_run[31] = 21.0;
    const sim::percentiles s = sim::summarise(stalled_run), q = sim::summarise(quiet_run);
    CHECK(s.p50 == doctest::Approx(0.076).epsilon(1e-12));
    CHECK(s.p50 == doctest::Approx(q.p50).epsilon(1e-12));
    CHECK(s.mean == doctest::Approx(1.1222).epsilon(1e-12));
    CHECK(q.mean == doctest::Approx(0.076).epsilon(1e-12));
    CHECK(s.p99 == doctest::Approx(21.0).epsilon(1e-12));
    CHECK(s.p99 / s.p50 > plan::stall_ratio);
}

TEST_CASE("measurements: a row's GEMM + all-reduce build (gemm_allreduce_plugin), carried onto its engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,gemm_allreduce_plugin\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    const auto ok = rows_of(
        "P,check,Llama-3.1-405B,B200 (HGX),trtllm,x,4,1,1,1,fp4,fp8,offline,0,256,10240,,,9429,653,output_tokens_per_s,800,tok/s,s,\n"
        "Z,check,Llama-3.1-405B,B200 (HGX),trtllm,x,4,1,1,1,fp4,fp8,offline,0,256,10240,,,9429,653,output_tokens_per_s,800,tok/s,s,0\n"
        "F,check,Llama-3.1-405B,B200 (HGX),trtllm,x,4,1,1,1,fp4,fp8,offline,0,256,10240,,,9429,653,output_tokens_per_s,800,tok/s,s,1\n");
    // (max_tokens 10,240 holds the whole 9,429-token prompt: unchunked, a prompt above the cap is refused,
    // `require_prompt_within_step_cap`.)
    REQUIRE(ok.size() == 3);
    CHECK_FALSE(ok[0].gemm_all_reduce_fused);
    CHECK_FALSE(ok[1].gemm_all_reduce_fused);
    CHECK(ok[2].gemm_all_reduce_fused);
    // The catalog profile the validation prices each row with keeps the row's build.
    const plan::measurement p = plan::with_own_engine(ok[0]), f = plan::with_own_engine(ok[2]);
    CHECK(f.d.engine.name == catalog::trtllm_blackwell.name);
    CHECK_FALSE(p.d.engine.kernels.gemm_all_reduce_fused);
    CHECK(f.d.engine.kernels.gemm_all_reduce_fused);
    // Its all-reduces hide behind the row-parallel GEMMs, so its saturated throughput is higher.
    CHECK(plan::predict(f) > plan::predict(p));
    for (const char* bad_value : {"2", "-1", "nan"}) {
        const std::string bad = test::message_of([&] {
            return rows_of(std::string("B,check,Llama-3.1-405B,B200 (HGX),trtllm,x,4,1,1,1,fp4,fp8,offline,0,256,10240,,,9429,653,"
                                       "output_tokens_per_s,800,tok/s,s,") + bad_value + "\n");
        });
        CHECK(test::contains(bad, "gemm_allreduce_plugin"));
        CHECK(test::contains(bad, "m.csv:2"));
    }
}

TEST_CASE("front end: a closed-loop run's median TTFT, like for like, and F fitted on medians") {
    // A benchmark client's closed loop (4 clients, 40 prompts of 922 -> 922 tokens, range ratio 0.8) on
    // vLLM's Hopper profile. A row whose value is the run's median (median_ttft) is predicted as the
    // simulated run's median over its requests, the mean row as their mean.
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    d.engine = catalog::vllm_hopper;
    d.engine.overheads.request = seconds(0.0);
    plan::measurement mean_row{.id = "M", .check = false, .d = d, .r = {.input = 922_tok, .output = 922_tok},
                               .how = plan::scenario::fixed_batch, .batch = 4.0, .prompts = 40.0, .range_ratio = 0.8,
                               .what = plan::metric::ttft_s, .value = 0.1, .api_server = true, .source = "synthetic"};
    plan::measurement median_row = mean_row;
    median_row.median_ttft = true;
    const sim::result run = plan::closed_loop_run(mean_row);
    CHECK(plan::predict(median_row) == run.ttft.p50);
    CHECK(plan::predict(mean_row) == run.ttft.mean);

    // F is paid by every request (client_first_token adds it to each one's TTFT), so the median moves
    // by F exactly, as the mean does: with F = 40 ms, p50 + 0.040 s.
    plan::measurement with_f = median_row;
    with_f.d.engine.overheads.request = 40.0_ms;
    CHECK(plan::predict(with_f) == doctest::Approx(run.ttft.p50 + 0.040).epsilon(1e-9));

    // Rows whose medians were made with F = 40 ms (two prompt lengths), fitted from F = 0 on their
    // medians with the front end alone free: 40 ms back, residual 0.
    std::vector<plan::measurement> rows;
    for (const double input : {922.0, 3000.0}) {
        plan::measurement x = with_f;
        x.id = "F" + std::to_string(rows.size());
        x.r.input = tokens(input);
        x.value = plan::predict(x);
        x.d.engine.overheads.request = seconds(0.0);
        rows.push_back(x);
    }
    const plan::calibration_result fit = plan::calibrate(rows, {.free = {plan::parameter::request_overhead}});
    REQUIRE(fit.parameters.size() == 1);
    CHECK(fit.parameters[0].value == doctest::Approx(0.040).epsilon(1e-6));
    CHECK(fit.sigma < 1e-6);

    // A median is a closed-loop TTFT row's: on a TPOT row, or without the client's prompts, refused, named.
    plan::measurement tpot = median_row;
    tpot.what = plan::metric::tpot_s;
    CHECK(test::contains(test::error_of([&] { tpot.validate(); return 0; }),
                         "median_ttft = 1: a run's median TTFT is its simulated closed-loop run's"));
    plan::measurement steady = median_row;
    steady.prompts = 0.0;
    steady.range_ratio = 1.0;
    CHECK(test::contains(test::error_of([&] { steady.validate(); return 0; }), "median_ttft"));
}

TEST_CASE("measurements: a row's FP4 quantization build (norm_quant_fusion), carried onto its engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,norm_quant_fusion\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    const auto ok = rows_of(
        "F,check,Llama-3.1-8B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,offline,0,6000,12000,,,871,129,output_tokens_per_s,1e5,tok/s,s,\n"
        "U,check,Llama-3.1-8B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,offline,0,6000,12000,,,871,129,output_tokens_per_s,1e5,tok/s,s,0\n");
    REQUIRE(ok.size() == 2);
    CHECK(ok[0].fp4_quantization_fused);
    CHECK_FALSE(ok[1].fp4_quantization_fused);
    // The catalog profile the validation prices each row with keeps the row's build.
    const plan::measurement f = plan::with_own_engine(ok[0]), u = plan::with_own_engine(ok[1]);
    CHECK(f.d.engine.name == catalog::trtllm_blackwell.name);
    CHECK_FALSE(f.d.engine.kernels.unfused_fp4_quantization());
    CHECK(u.d.engine.kernels.unfused_fp4_quantization());
    // The unfused build's GEMMs are slower, so its saturated throughput is lower (the same batch: the caps).
    CHECK(plan::predict(u) < plan::predict(f));
    const std::string bad = test::message_of([&] {
        return rows_of("B,check,Llama-3.1-8B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,offline,0,6000,12000,,,871,129,"
                       "output_tokens_per_s,1e5,tok/s,s,2\n");
    });
    CHECK(test::contains(bad, "norm_quant_fusion"));
    CHECK(test::contains(bad, "m.csv:2"));
}

// ---- a prompt step run eagerly (engine_overheads::prefill_launch) --------------------------------------

namespace {

engine_profile eager_prompts(engine_profile e, seconds_t per_kernel) {
    e.overheads.prefill_launch = per_kernel;
    return e;
}

}  // namespace

TEST_CASE("eager prompt step: it lasts max(its GPU time, kernels × t_host − the step before), by hand") {
    // Llama-3.1-8B: 32 dense layers, so 10 · 32 + 3 = 323 kernels a pass (detail::kernels_per_pass).
    // t_host = 200 µs: H = 323 × 200 µs = 64.6 ms. The overlap scheduler launches the prompt step while
    // the step before it runs: in the closed form that is the decode step of the same 3 sequences,
    // t_prev (a few ms on one H100), so a step with a 1,000-token prompt beside 3 decodes, GPU time t,
    // lasts max(t, 64.6 ms − t_prev) = 64.6 ms − t_prev (t + t_prev < 64.6 ms). With a prompt in a
    // quarter of the steps (0.25 of one on average) it lasts t + 0.25 · (64.6 ms − t_prev − t). A
    // decode-only step is untouched; t_host = 1 µs (H = 0.323 ms, below t) changes nothing.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = catalog::vllm_hopper;  // graphs on, no eager prompt step of its own
    REQUIRE(ref.engine.overheads.cuda_graphs);
    REQUIRE(ref.engine.overheads.prefill_launch.value() == 0.0);
    deployment d = ref;
    d.engine = eager_prompts(ref.engine, microseconds(200.0));
    CHECK(detail::kernels_per_pass(d.m) == 323.0);
    const step_shape prompt{.decode_sequences = 3, .decode_context = 1500_tok, .prefill_sequences = 1,
                            .prefill_tokens = 1000_tok};
    const step_shape before{.decode_sequences = 3, .decode_context = 1500_tok};  // the step before it
    const step_shape decode{.decode_sequences = 4, .decode_context = 1500_tok};
    const step_shape quarter{.decode_sequences = 3, .decode_context = 1500_tok, .prefill_sequences = 0.25,
                             .prefill_tokens = 1000_tok};
    const double t = step_pass(ref, prompt).time().value();
    const double t_prev = step_pass(d, before).time().value();
    CHECK(t_prev == step_pass(ref, before).time().value());  // a decode step is not held
    REQUIRE(t + t_prev < 0.0646);
    CHECK(step_pass(d, prompt).time().value() == doctest::Approx(0.0646 - t_prev).epsilon(1e-12));
    CHECK(step_pass(d, prompt).overhead_time.value() ==
          doctest::Approx(step_pass(ref, prompt).overhead_time.value() + (0.0646 - t_prev - t)).epsilon(1e-12));
    const double tq = step_pass(ref, quarter).time().value();
    CHECK(step_pass(d, quarter).time().value() == doctest::Approx(tq + 0.25 * (0.0646 - t_prev - tq)).epsilon(1e-12));
    CHECK(step_pass(d, decode).time() == step_pass(ref, decode).time());
    deployment light = ref;
    light.engine = eager_prompts(ref.engine, microseconds(1.0));
    CHECK(step_pass(light, prompt).time().value() == doctest::Approx(t).epsilon(1e-15));
    // Graphs off: every step already runs eagerly at launch_eager, so a prompt step is not held.
    deployment eager = d, eager_ref = ref;
    eager.engine.overheads.cuda_graphs = false;
    eager_ref.engine.overheads.cuda_graphs = false;
    CHECK(step_pass(eager, prompt).time() == step_pass(eager_ref, prompt).time());
}

TEST_CASE("eager prompt step: the step before it, where the caller knows it (the simulator)") {
    // Same deployment, H = 64.6 ms. A prompt step alone (no decodes, GPU time t) after an idle wait
    // (previous = 0) lasts 64.6 ms; after a 10 ms step it lasts 64.6 − 10 = 54.6 ms; after a 70 ms
    // step the launch is hidden entirely and it lasts t. A step with no prompt ignores `previous`.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = catalog::vllm_hopper;
    deployment d = ref;
    d.engine = eager_prompts(ref.engine, microseconds(200.0));
    const pass_model pm = prepare_pass(d), pm_ref = prepare_pass(ref);
    const step_shape alone{.prefill_sequences = 1, .prefill_tokens = 1000_tok};
    const detail::sequence_terms<double> s = detail::sequence_terms_of(pm, alone);
    const double t = detail::step_formula(pm_ref, s, 0.0, 1.0).time();
    REQUIRE(t < 0.0546);
    CHECK(detail::step_formula(pm, s, 0.0, 1.0, 0.0).time() == doctest::Approx(0.0646).epsilon(1e-12));
    CHECK(detail::step_formula(pm, s, 0.0, 1.0).time() == doctest::Approx(0.0646).epsilon(1e-12));  // no decodes: none
    CHECK(detail::step_formula(pm, s, 0.0, 1.0, 0.010).time() == doctest::Approx(0.0546).epsilon(1e-12));
    CHECK(detail::step_formula(pm, s, 0.0, 1.0, 0.070).time() == doctest::Approx(t).epsilon(1e-15));
    const detail::sequence_terms<double> dec = detail::sequence_terms_of(pm, {.decode_sequences = 4, .decode_context = 1500_tok});
    CHECK(detail::step_formula(pm, dec, 4.0, 0.0, 0.0).time() == detail::step_formula(pm_ref, dec, 4.0, 0.0).time());
}

TEST_CASE("eager prompt step: overlap scheduler off (serial) holds it to H whatever ran before, by hand") {
    // Same deployment, H = 323 kernels × 200 µs = 64.6 ms. With the overlap scheduler off (TensorRT-LLM's
    // PyTorch executor with disable_overlap_scheduler, Dynamo's prefill workers) the host launches the
    // prompt step only after the step before has ended, so nothing hides H: a prompt step alone lasts
    // max(t, 64.6 ms) = 64.6 ms after a 10 ms step or a 70 ms one, where the overlapped rule gives
    // 54.6 ms and t; beside 3 decodes (closed form, no caller's step) it lasts 64.6 ms, not 64.6 − t_prev.
    // `none` prices no launch on a profile whose graphs are on; `overlap` on a profile whose graphs are
    // off prices it as the graphs-on rule does.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = catalog::vllm_hopper;
    deployment serial = ref, overlap = ref, none = ref;
    serial.engine = eager_prompts(ref.engine, microseconds(200.0));
    serial.engine.overheads.prompt_launch = prompt_launch_mode::serial;
    overlap.engine = eager_prompts(ref.engine, microseconds(200.0));
    overlap.engine.overheads.prompt_launch = prompt_launch_mode::overlap;
    overlap.engine.overheads.cuda_graphs = false;  // a profile whose default is graphs off (TensorRT-LLM's)
    deployment overlap_ref = overlap;              // the same, no launch priced: its GPU time t_o
    overlap_ref.engine.overheads.prefill_launch = seconds(0.0);
    none.engine = eager_prompts(ref.engine, microseconds(200.0));
    none.engine.overheads.prompt_launch = prompt_launch_mode::none;
    const pass_model pm = prepare_pass(serial), pm_o = prepare_pass(overlap), pm_ref = prepare_pass(ref);
    CHECK(pm.prefill_serial);
    CHECK(pm.prefill_overhead.value() == doctest::Approx(0.0646).epsilon(1e-12));
    const step_shape alone{.prefill_sequences = 1, .prefill_tokens = 1000_tok};
    const detail::sequence_terms<double> s = detail::sequence_terms_of(pm, alone);
    const double t = detail::step_formula(pm_ref, s, 0.0, 1.0).time();
    REQUIRE(t < 0.0546);
    for (double prev : {0.0, 0.010, 0.070})
        CHECK(detail::step_formula(pm, s, 0.0, 1.0, prev).time() == doctest::Approx(0.0646).epsilon(1e-12));
    CHECK(detail::step_formula(pm_o, s, 0.0, 1.0, 0.010).time() == doctest::Approx(0.0546).epsilon(1e-12));
    const double t_o = detail::step_formula(prepare_pass(overlap_ref), s, 0.0, 1.0).time();
    REQUIRE(t_o < 0.0546);
    CHECK(detail::step_formula(pm_o, s, 0.0, 1.0, 0.070).time() == doctest::Approx(t_o).epsilon(1e-15));
    const step_shape prompt{.decode_sequences = 3, .decode_context = 1500_tok, .prefill_sequences = 1,
                            .prefill_tokens = 1000_tok};
    REQUIRE(step_pass(ref, prompt).time().value() < 0.0646);
    CHECK(step_pass(serial, prompt).time().value() == doctest::Approx(0.0646).epsilon(1e-12));
    CHECK(step_pass(none, prompt).time() == step_pass(ref, prompt).time());
    const step_shape decode{.decode_sequences = 4, .decode_context = 1500_tok};
    CHECK(step_pass(serial, decode).time() == step_pass(ref, decode).time());  // a decode step is not held
}

TEST_CASE("eager prompt step: a Dynamo prefill worker's DeepSeek-V3 pass on 4 GB200, by hand") {
    // TensorRT-LLM on Blackwell, DeepSeek-V3 NVFP4 weights, FP8 KV, TEP4 (tp 4, ep 4), one prompt of 922
    // tokens alone. The profile's count of such a pass is 909 kernels (detail::kernels_per_pass: the
    // generic count less 3 fused norm kernels a layer, TensorRT-LLM's MoE runner's 6 in place of 7 a MoE
    // layer, its MLA block's 9 in place of 4 a layer); t_host = 75.89 µs (SGLang on Blackwell's, borrowed:
    // tables/engines.csv), so H = 909 × 75.89 µs = 68.984 ms. Its GPU time (about 30 ms) is shorter, and
    // with the overlap scheduler off the pass lasts H: 68.984 ms (82.189 ms since session 28, below). At
    // 7,373 tokens the GPU time (about 165 ms) exceeds H and the pass is untouched.
    deployment d = with_formats({.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 4, .ep = 4}},
                                formats::nvfp4, formats::fp8);
    d.engine = catalog::trtllm_blackwell;
    CHECK(d.engine.overheads.prefill_launch.value() == doctest::Approx(75.89e-6).epsilon(1e-12));
    CHECK(detail::kernels_per_pass(d) == 909.0);
    deployment graph_off = d;  // the profile's rule: graphs off, no eager prompt launch priced
    REQUIRE_FALSE(graph_off.engine.overheads.cuda_graphs);
    d.engine.overheads.prompt_launch = prompt_launch_mode::serial;
    const double gpu = prefill_pass(graph_off, 1.0, 922_tok, 0_tok).time().value();
    REQUIRE(gpu < 0.060);
    REQUIRE(gpu > 0.020);
    // Session 28: launched eagerly, the step also launches the shared expert's 3 kernels a MoE layer on
    // the host (no auxiliary stream outside CUDA graphs): 909 + 3·58 = 1,083, H = 1,083 × 75.89 µs = 82.189 ms.
    CHECK(detail::kernels_per_pass(d, true) == 1083.0);
    // Session 44: the serial step also pays the host's time per request, t_req = 9.901 ms on this profile
    // (`engine_overheads::prefill_request`, fitted: docs/trtllm-prefill-request.md): 82.189 + 9.901 = 92.090 ms.
    CHECK(prefill_pass(d, 1.0, 922_tok, 0_tok).time().value() == doctest::Approx(1083 * 75.89e-6 + 9.901e-3).epsilon(1e-9));
    const double gpu8k = prefill_pass(graph_off, 1.0, 7373_tok, 0_tok).time().value();
    REQUIRE(gpu8k > 1083 * 75.89e-6);
    CHECK(prefill_pass(d, 1.0, 7373_tok, 0_tok).time().value() == doctest::Approx(gpu8k + 9.901e-3).epsilon(1e-12));
}

TEST_CASE("measurements: a row's eager prompt steps (eager_prompt), carried onto its engine, and refusals") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,eager_prompt\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    const auto ok = rows_of(
        "S,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,serial\n"
        "O,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,overlap\n"
        "N,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,0\n"
        "D,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,\n");
    REQUIRE(ok.size() == 4);
    CHECK(*ok[0].eager_prompt == prompt_launch_mode::serial);
    CHECK(*ok[1].eager_prompt == prompt_launch_mode::overlap);
    CHECK(*ok[2].eager_prompt == prompt_launch_mode::none);
    CHECK_FALSE(ok[3].eager_prompt.has_value());
    CHECK(plan::with_own_engine(ok[0]).d.engine.overheads.prompt_launch == prompt_launch_mode::serial);
    CHECK(plan::with_own_engine(ok[1]).d.engine.overheads.prompt_launch == prompt_launch_mode::overlap);
    CHECK(plan::with_own_engine(ok[3]).d.engine.overheads.prompt_launch == prompt_launch_mode::engine);
    for (const char* v : {"2", "yes", "Serial"}) {
        const std::string bad = test::message_of([&] {
            return rows_of(std::string("B,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,"
                                       "200,tpot_s,0.03,s,s,") + v + "\n");
        });
        CHECK(test::contains(bad, "eager_prompt"));
        CHECK(test::contains(bad, "m.csv:2:"));
        CHECK(test::contains(bad, std::string("\"") + v + "\""));
        CHECK(test::contains(bad, "overlap"));
    }
}

TEST_CASE("eager prompt step: property — a longer step before it never lengthens the prompt step") {
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
    d.engine = catalog::sglang_hopper;
    const pass_model pm = prepare_pass(d);
    const detail::sequence_terms<double> s = detail::sequence_terms_of(pm, {.prefill_sequences = 1, .prefill_tokens = 100_tok});
    double last = 1e9;
    for (double prev : {0.0, 0.005, 0.02, 0.05, 0.08, 0.2}) {
        const double t = detail::step_formula(pm, s, 0.0, 1.0, prev).time();
        CHECK(t <= last);
        last = t;
    }
}

TEST_CASE("eager prompt step: a lone request's TTFT is held to H, its TPOT is not") {
    // Batch 1: the prompt rides one step alone (the TTFT), then every step decodes: TTFT = 64.6 ms + F
    // (vLLM Hopper's profile with its front end set to F = 32.4 ms here, so the figure is the test's own)
    // where the prompt's own pass is shorter, TPOT as without.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = catalog::vllm_hopper;
    ref.engine.overheads.request = milliseconds(32.4);
    deployment d = ref;
    d.engine = eager_prompts(ref.engine, microseconds(200.0));
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const serving_point a = serve_at_batch(ref, r, 1.0), x = serve_at_batch(d, r, 1.0);
    REQUIRE(a.ttft.value() - a.front_end.value() < 0.0646);
    CHECK(x.front_end.value() == doctest::Approx(0.0324).epsilon(1e-12));
    CHECK(x.ttft.value() == doctest::Approx(0.0646 + 0.0324).epsilon(1e-9));
    CHECK(x.tpot.value() == doctest::Approx(a.tpot.value()).epsilon(1e-12));
}

TEST_CASE("eager prompt step: property — times never fall as the surcharge grows") {
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
    d.engine = catalog::sglang_hopper;
    const request_shape r{.input = 922_tok, .output = 922_tok};
    double ttft = 0.0, step = 0.0;
    for (double us : {0.0, 10.0, 40.0, 97.8, 200.0, 999.0}) {
        d.engine = eager_prompts(catalog::sglang_hopper, microseconds(us));
        const serving_point s = serve_at_batch(d, r, 16.0);
        CHECK(s.ttft.value() >= ttft);
        CHECK(s.step_time.value() >= step);
        ttft = s.ttft.value();
        step = s.step_time.value();
    }
}

TEST_CASE("eager prompt step: the profile and the table refuse a bad one, naming the field") {
    engine_profile e = catalog::sglang_cdna3;
    e.overheads.prefill_launch = seconds(-0.001);
    CHECK(test::contains(test::validation_message(e),
                         "overheads.prefill_launch (s) = -0.001: a per-kernel overhead of a prompt step must be in [0, 1 ms)"));
    e.overheads.prefill_launch = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.prefill_launch (s) = nan"));
    e.overheads.prefill_launch = 2.0_ms;
    CHECK(test::contains(test::validation_message(e), "overheads.prefill_launch (s) = 0.002"));
    e.overheads.prefill_launch = microseconds(97.8);
    CHECK(test::validation_message(e).empty());

    // An old table without the column loads with 0; a new one reads µs and refuses by column and line.
    const std::string old_header = test::engine_table_columns() + ",source\n";
    const std::string new_header = test::engine_table_columns() +
                                   ",fp4_gemm_efficiency,fp4_gemm_half_dim,fp4_quant_gemm_efficiency,fp4_quant_gemm_half_dim,"
                                   "attention_dp_balance,prefill_launch_us,source\n";
    const std::string base = "Mine,sglang,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,256,8192,1,8192,0.9,16,1,0,0,0,0,1,0,0";
    const std::vector<engine_profile> old_table = io::parse_engines_csv(old_header + base + ",my runs\n", "old.csv");
    REQUIRE(old_table.size() == 1);
    CHECK(old_table[0].overheads.prefill_launch.value() == 0.0);
    auto row = [&](const std::string& v) { return base + ",0,0,0,0,0," + v + ",my runs\n"; };
    const std::vector<engine_profile> mine = io::parse_engines_csv(new_header + row("97.8"), "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.prefill_launch.value() == doctest::Approx(97.8e-6).epsilon(1e-15));
    const std::string negative = test::message_of([&] { return io::parse_engines_csv(new_header + row("-5"), "mine.csv"); });
    CHECK(test::contains(negative, "mine.csv:2"));
    CHECK(test::contains(negative, "prefill_launch_us"));
    const std::string large = test::message_of([&] { return io::parse_engines_csv(new_header + row("5000"), "mine.csv"); });
    CHECK(test::contains(large, "mine.csv:2"));
    CHECK(test::contains(large, "prefill_launch_us"));
    CHECK(test::contains(large, "a per-kernel overhead of a prompt step must be in [0, 1 ms)"));
    const std::string nan = test::message_of([&] { return io::parse_engines_csv(new_header + row("nan"), "mine.csv"); });
    CHECK(test::contains(nan, "prefill_launch_us"));
    // The catalog's figure (tables/engines.csv): 82.64 ms ÷ 845 kernels = 97.8 µs on SGLang's ROCm profiles until
    // session 28, now ÷ the FP8 checkpoint's 1,272 there (845 + 7·61, `fp8_attention_quant_kernels`) = 64.97 µs; 0
    // elsewhere; on Hopper ÷ SGLang's own 1,394 (its absorbed MLA block's 13 kernels, unit-kernel-count.cpp) =
    // 59.2826 µs, tabled as 59.28; on Blackwell ÷ its 1,089 (11 a block, the all-reduce + RMSNorm fusion) = 75.89 µs.
    CHECK(catalog::sglang_hopper.overheads.prefill_launch.value() == doctest::Approx(59.28e-6).epsilon(1e-12));
    CHECK(catalog::sglang_blackwell.overheads.prefill_launch.value() == doctest::Approx(75.89e-6).epsilon(1e-12));
    CHECK(catalog::sglang_cdna4.overheads.prefill_launch.value() == doctest::Approx(64.97e-6).epsilon(1e-12));
    CHECK(catalog::sglang_cdna3.overheads.prefill_launch.value() == doctest::Approx(64.97e-6).epsilon(1e-12));
    CHECK(catalog::sglang_cdna4.overheads.prefill_launch.value() * 1272.0 == doctest::Approx(82.64e-3).epsilon(1e-3));
    CHECK(catalog::vllm_hopper.overheads.prefill_launch.value() == 0.0);
    // TensorRT-LLM on Blackwell borrows SGLang on Blackwell's 75.89 µs (no TensorRT-LLM figure published;
    // docs/trtllm-eager-prompt.md), read where a row's graphs are on or it states `eager_prompt`.
    CHECK(catalog::trtllm_blackwell.overheads.prefill_launch.value() == doctest::Approx(75.89e-6).epsilon(1e-12));
    CHECK(catalog::trtllm_hopper.overheads.prefill_launch.value() == 0.0);
    CHECK(detail::kernels_per_pass(catalog::deepseek_v3) == 845.0);
}

// ---- every step enqueued by the host, CUDA graphs off (engine_overheads::host_enqueue) ----------------

namespace {

/// e run without CUDA graphs, every step enqueued by the host at `per_kernel` a kernel.
engine_profile enqueued(engine_profile e, seconds_t per_kernel) {
    e.overheads.cuda_graphs = false;
    e.overheads.eager_enqueue = true;
    e.overheads.host_enqueue = per_kernel;
    return e;
}

}  // namespace

TEST_CASE("host enqueue without CUDA graphs: every step lasts max(its GPU time, kernels × t_enqueue), by hand") {
    // Llama-3.1-8B: 10 · 32 + 3 = 323 kernels a pass. t_enqueue = 200 µs: H = 323 × 200 µs = 64.6 ms.
    // A decode step of 4 sequences at 1,500 tokens on one H100 runs a few ms on the GPU (t < H), so it
    // lasts 64.6 ms, the difference carried as launch overhead: overhead = overhead_ref + (64.6 ms − t).
    // A prompt step is held alike (no step before it hides the enqueue: no overlap scheduler). With
    // t_enqueue = 1 µs, H = 0.323 ms < t: nothing changes; with graphs on the field is not read.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = enqueued(catalog::vllm_hopper, seconds(0.0));
    REQUIRE(ref.engine.overheads.prefill_launch.value() == 0.0);
    deployment d = ref;
    d.engine = enqueued(ref.engine, microseconds(200.0));
    CHECK(detail::kernels_per_pass(d.m) == 323.0);
    const step_shape decode{.decode_sequences = 4, .decode_context = 1500_tok};
    const step_shape prompt{.decode_sequences = 3, .decode_context = 1500_tok, .prefill_sequences = 1,
                            .prefill_tokens = 1000_tok};
    for (const step_shape& s : {decode, prompt}) {
        const double t = step_pass(ref, s).time().value();
        REQUIRE(t < 0.0646);
        CHECK(step_pass(d, s).time().value() == doctest::Approx(0.0646).epsilon(1e-12));
        CHECK(step_pass(d, s).overhead_time.value() ==
              doctest::Approx(step_pass(ref, s).overhead_time.value() + (0.0646 - t)).epsilon(1e-12));
    }
    deployment light = ref;
    light.engine = enqueued(ref.engine, microseconds(1.0));
    CHECK(step_pass(light, decode).time().value() == doctest::Approx(step_pass(ref, decode).time().value()).epsilon(1e-15));
    deployment graphs = d, graphs_ref = ref;
    graphs.engine.overheads.cuda_graphs = true;
    graphs_ref.engine.overheads.cuda_graphs = true;
    CHECK(step_pass(graphs, decode).time() == step_pass(graphs_ref, decode).time());
    // Graphs off but the engine's own scheduler (a profile's default: eager_enqueue false): not read.
    deployment overlapped = d;
    overlapped.engine.overheads.eager_enqueue = false;
    CHECK(step_pass(overlapped, decode).time() == step_pass(ref, decode).time());
}

TEST_CASE("host enqueue without CUDA graphs: a floor at small batch that a large batch does not see") {
    // Llama-3.1-8B on one H100, t_enqueue = 20 µs: H = 323 × 20 µs = 6.46 ms. Law: the step is
    // max(t_ref, H) at every batch, so the held step never falls below H nor below the unheld step, and
    // it grows with the batch once the GPU's time passes H (batch 256 at 2,000 tokens: tens of ms).
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = enqueued(catalog::vllm_hopper, seconds(0.0));
    deployment d = ref;
    d.engine = enqueued(ref.engine, microseconds(20.0));
    double last = 0.0;
    for (double b : {1.0, 4.0, 16.0, 64.0, 256.0}) {
        const step_shape s{.decode_sequences = b, .decode_context = 2000_tok};
        const double t = step_pass(d, s).time().value(), t_ref = step_pass(ref, s).time().value();
        CHECK(t == doctest::Approx(std::max(t_ref, 323 * 20e-6)).epsilon(1e-12));
        CHECK(t >= last);
        last = t;
    }
    CHECK(step_pass(d, step_shape{.decode_sequences = 256, .decode_context = 2000_tok}).time() ==
          step_pass(ref, step_shape{.decode_sequences = 256, .decode_context = 2000_tok}).time());
    // Monotone in t_enqueue at a fixed batch.
    double prev = 0.0;
    for (double us : {0.0, 5.0, 20.0, 80.0}) {
        d.engine = enqueued(ref.engine, microseconds(us));
        const double t = serve_at_batch(d, request_shape{.input = 1000_tok, .output = 200_tok}, 8.0).step_time.value();
        CHECK(t >= prev);
        prev = t;
    }
}

TEST_CASE("host enqueue without CUDA graphs: the profile refuses a bad one, naming the field") {
    engine_profile e = catalog::trtllm_blackwell;
    e.overheads.host_enqueue = seconds(-0.001);
    CHECK(test::contains(test::validation_message(e),
                         "overheads.host_enqueue (s) = -0.001: a per-kernel host enqueue time must be in [0, 1 ms)"));
    e.overheads.host_enqueue = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.host_enqueue (s) = nan"));
    e.overheads.host_enqueue = 2.0_ms;
    CHECK(test::contains(test::validation_message(e), "overheads.host_enqueue (s) = 0.002"));
    e.overheads.host_enqueue = microseconds(24.38);
    CHECK(test::validation_message(e).empty());
}

TEST_CASE("host enqueue without CUDA graphs: tables/engines.csv's optional host_enqueue_us, and its refusals") {
    // A table written before the column loads with 0 (none); the column in µs; a bad cell names the
    // column, the file and the line. The catalog's figure: 32.47 µs on TensorRT-LLM on Blackwell (session 19's refit by the rule, with the prompt attention curve; 30.67 µs in session 18, 30.82 µs before), 0 elsewhere.
    const std::string old_header = test::engine_table_columns() + ",source\n";
    const std::string new_header = test::engine_table_columns() + ",host_enqueue_us,source\n";
    const std::string base = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const std::vector<engine_profile> old_table = io::parse_engines_csv(old_header + base + ",my runs\n", "old.csv");
    REQUIRE(old_table.size() == 1);
    CHECK(old_table[0].overheads.host_enqueue.value() == 0.0);
    auto row = [&](const std::string& v) { return base + "," + v + ",my runs\n"; };
    const std::vector<engine_profile> mine = io::parse_engines_csv(new_header + row("24.38"), "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.host_enqueue.value() == doctest::Approx(24.38e-6).epsilon(1e-15));
    for (const char* bad : {"-5", "5000", "nan"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(new_header + row(bad), "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "host_enqueue_us"));
    }
    CHECK(catalog::trtllm_blackwell.overheads.host_enqueue.value() == doctest::Approx(32.47e-6).epsilon(1e-12));
    CHECK(catalog::trtllm_hopper.overheads.host_enqueue.value() == 0.0);
    CHECK(catalog::sglang_blackwell.overheads.host_enqueue.value() == 0.0);
}

TEST_CASE("measurements: a row's CUDA-graph setting (cuda_graphs), carried onto its engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,cuda_graphs\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    const auto ok = rows_of(
        "E,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,0\n"
        "G,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,1\n"
        "D,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,\n");
    REQUIRE(ok.size() == 3);
    CHECK(ok[0].cuda_graphs == false);
    CHECK(ok[1].cuda_graphs == true);
    CHECK_FALSE(ok[2].cuda_graphs.has_value());
    // The catalog profile keeps the row's setting; an empty cell keeps the profile's (graphs off under
    // its overlap scheduler: the enqueue is read only where a row states graphs off).
    const plan::measurement e = plan::with_own_engine(ok[0]), g = plan::with_own_engine(ok[1]),
                            p = plan::with_own_engine(ok[2]);
    CHECK_FALSE(e.d.engine.overheads.cuda_graphs);
    CHECK(e.d.engine.overheads.eager_enqueue);
    CHECK(g.d.engine.overheads.cuda_graphs);
    CHECK_FALSE(g.d.engine.overheads.eager_enqueue);
    CHECK(p.d.engine.overheads.cuda_graphs == catalog::trtllm_blackwell.overheads.cuda_graphs);
    CHECK_FALSE(p.d.engine.overheads.eager_enqueue);
    // Graphs on (g) now also prices the PyTorch backend's eager prompt step, overlapped with the step before
    // (`prefill_launch`, docs/trtllm-eager-prompt.md); with it stated off (`eager_prompt` 0) nothing else
    // differs: launch_eager = launch_graph = 0 on this profile.
    plan::measurement g_none = g;
    g_none.d.engine.overheads.prompt_launch = prompt_launch_mode::none;
    CHECK(plan::predict(p) == plan::predict(g_none));
    CHECK(plan::predict(g) >= plan::predict(g_none));
    // 16 decodes of Llama-2-70B on one B200 run well under H = 803 kernels × 32.47 µs ≈ 26.1 ms: held.
    CHECK(plan::predict(e) > plan::predict(g));
    const std::string bad = test::message_of([&] {
        return rows_of("B,check,Llama-2-70B,B200 (HGX),trtllm,x,1,1,1,1,fp4,fp8,fixed_batch,,,,,16,1000,200,tpot_s,0.03,s,s,2\n");
    });
    CHECK(test::contains(bad, "cuda_graphs"));
    CHECK(test::contains(bad, "m.csv:2"));
}

TEST_CASE("measurements: a row's FP16 path for small FP8 inputs (fp16_dense_max_tokens), carried onto its engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,fp16_dense_max_tokens\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    const auto ok = rows_of(
        "W,check,Mixtral-8x7B,MI325X,vllm,x,1,1,1,1,fp8,fp8,fixed_batch,,,,,512,427,144,tpot_s,0.1,s,s,2560\n"
        "N,check,Mixtral-8x7B,MI325X,vllm,x,1,1,1,1,fp8,fp8,fixed_batch,,,,,512,427,144,tpot_s,0.1,s,s,\n");
    REQUIRE(ok.size() == 2);
    CHECK(ok[0].fp16_dense_max_tokens == 2560.0);
    CHECK(ok[1].fp16_dense_max_tokens == 0.0);
    // The catalog profile (vLLM on CDNA 3) takes the row's setting; 512 decodes a step are ≤ 2,560
    // tokens, so their attention projections run 16-bit and the step is longer.
    const plan::measurement w = plan::with_own_engine(ok[0]), n = plan::with_own_engine(ok[1]);
    CHECK(w.d.engine.kernels.wide_dense_max_tokens == 2560.0);
    CHECK(n.d.engine.kernels.wide_dense_max_tokens == 0.0);
    CHECK(plan::predict(w) > plan::predict(n));
    for (const char* bad_value : {"-1", "nan", "2e6"}) {
        const std::string bad = test::message_of([&] {
            return rows_of(std::string("B,check,Mixtral-8x7B,MI325X,vllm,x,1,1,1,1,fp8,fp8,fixed_batch,,,,,512,427,144,tpot_s,0.1,s,s,") +
                           bad_value + "\n");
        });
        CHECK(test::contains(bad, "fp16_dense_max_tokens"));
        CHECK(test::contains(bad, "m.csv:2"));
    }
}
