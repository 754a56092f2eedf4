// TensorRT-LLM's serial prompt step pays a host cost per request (session 44, part D;
// docs/trtllm-prefill-request.md): with the overlap scheduler off its executor does each request's host work
// between forwards, so a prompt step lasts t = max(t_GPU, H) + n_req · t_req (`engine_overheads::prefill_request`,
// `detail::eager_prompt_wait`); a step that is not serial is unchanged.
#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/measurement.hpp>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// A Dynamo prefill worker's deployment: DeepSeek-V3 NVFP4 weights, FP8 KV, on 4 GB200, TensorRT-LLM on Blackwell,
/// its prompt steps run serially, with no per-request cost unless a test sets one.
deployment dynamo_prefill(parallel_layout l) {
    deployment d = with_formats({.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = l}, formats::nvfp4,
                                formats::fp8);
    d.engine = catalog::trtllm_blackwell;
    d.engine.overheads.prompt_launch = prompt_launch_mode::serial;
    d.engine.overheads.prefill_request = seconds(0.0);
    return d;
}

/// The same pass with neither the eager launch nor the per-request cost priced: its GPU time.
deployment gpu_only(deployment d) {
    d.engine.overheads.prompt_launch = prompt_launch_mode::none;
    return d;
}

}  // namespace

TEST_CASE("serial prompt step: t = max(t_GPU, H) + n_req · t_req, by hand") {
    // TEP4, 4 prompts of 922 tokens in one step, t_req = 10 ms. Scaled like the brief's example (t_GPU 80 ms):
    // H = 0.375 · t_GPU (30 of 80 ms): t = t_GPU + 4 × 10 ms (80 → 120 ms); H = 1.125 · t_GPU (90 of 80 ms):
    // t = H + 40 ms (→ 130 ms). The launch H = kernels × t_host: the per-kernel time set so H is that share.
    deployment d = dynamo_prefill({.tp = 4, .ep = 4});
    const double kernels = detail::kernels_per_pass(d, true);
    const double gpu = prefill_pass(gpu_only(d), 4.0, 922_tok, 0_tok).time().value();
    REQUIRE(gpu > 0.0);
    d.engine.overheads.prefill_request = 10.0_ms;
    d.engine.overheads.prefill_launch = seconds(0.375 * gpu / kernels);
    CHECK(prefill_pass(d, 4.0, 922_tok, 0_tok).time().value() == doctest::Approx(gpu + 0.040).epsilon(1e-12));
    d.engine.overheads.prefill_launch = seconds(1.125 * gpu / kernels);
    CHECK(prefill_pass(d, 4.0, 922_tok, 0_tok).time().value() == doctest::Approx(1.125 * gpu + 0.040).epsilon(1e-12));
    // Not serial: the overlap scheduler prepares step n + 1 while step n runs, so t_req is not paid; the step is
    // the one it was with no t_req, bit for bit (overlapped launch, or none priced).
    for (prompt_launch_mode mode : {prompt_launch_mode::overlap, prompt_launch_mode::engine, prompt_launch_mode::none}) {
        deployment with = d, without = d;
        with.engine.overheads.prompt_launch = without.engine.overheads.prompt_launch = mode;
        without.engine.overheads.prefill_request = seconds(0.0);
        CHECK(prefill_pass(with, 4.0, 922_tok, 0_tok).time() == prefill_pass(without, 4.0, 922_tok, 0_tok).time());
        CHECK(prepare_pass(with).prefill_request.value() == 0.0);
    }
    // A decode step carries no prompt: nothing paid.
    CHECK(decode_pass(d, 16.0, 2000_tok).time() == decode_pass(dynamo_prefill({.tp = 4, .ep = 4}), 16.0, 2000_tok).time());
}

TEST_CASE("serial prompt step: under attention DP the busiest rank's requests, by hand") {
    // DEP4 (4 attention ranks, EP4), TensorRT-LLM's ADP balance β = 0.877: the step waits for the busiest rank,
    // whose tokens are 1 ÷ β of the mean rank's (`attention_dp_wait`), and so its requests: 4 prompts a rank at
    // t_req = 10 ms add 4 × 10 ms ÷ 0.877 = 45.610 ms.
    deployment d = dynamo_prefill({.tp = 1, .ep = 4, .dp = 4});
    REQUIRE(prepare_pass(d).attention_dp_busiest == doctest::Approx(1.0 / 0.877).epsilon(1e-15));
    const double before = prefill_pass(d, 4.0, 922_tok, 0_tok).time().value();
    d.engine.overheads.prefill_request = 10.0_ms;
    CHECK(prefill_pass(d, 4.0, 922_tok, 0_tok).time().value() - before == doctest::Approx(0.04 / 0.877).epsilon(1e-9));
}

TEST_CASE("serial prompt step: the request count is capped at the rank's prompt cap B, by hand") {
    // n_req = min(ps ÷ β, B): DEP4, β = 0.877, t_req = 10 ms. 4 prompts a rank with B = 4 (the Dynamo DEP4 prefill
    // workers' prefill_max_batch): min(4.561, 4) = 4 requests, + 40 ms (not 45.61 ms); 2 prompts with B = 4:
    // min(2.281, 4) = 2.281, + 22.805 ms (the cap does not bind); no cap (∞, the default): + 45.610 ms.
    deployment d = dynamo_prefill({.tp = 1, .ep = 4, .dp = 4});
    pass_model none = prepare_pass(d);
    d.engine.overheads.prefill_request = 10.0_ms;
    pass_model capped = prepare_pass(d), uncapped = prepare_pass(d);
    REQUIRE(uncapped.prefill_request_cap == std::numeric_limits<double>::infinity());
    none.prefill_request_cap = capped.prefill_request_cap = 4.0;
    auto added = [&](const pass_model& pm, double ps) {
        return prefill_pass(pm, ps, 922_tok, 0_tok).time().value() - prefill_pass(none, ps, 922_tok, 0_tok).time().value();
    };
    CHECK(added(capped, 4.0) == doctest::Approx(0.040).epsilon(1e-9));
    CHECK(added(capped, 2.0) == doctest::Approx(0.020 / 0.877).epsilon(1e-9));
    CHECK(added(uncapped, 4.0) == doctest::Approx(0.040 / 0.877).epsilon(1e-9));
    // The cap is read only with t_req: at t_req 0 a capped pass is the uncapped one, bit for bit.
    CHECK(prefill_pass(none, 4.0, 922_tok, 0_tok).time() == prefill_pass(prepare_pass(dynamo_prefill({.tp = 1, .ep = 4, .dp = 4})), 4.0, 922_tok, 0_tok).time());
}

TEST_CASE("serial prompt step: properties (linear and monotone in the request count, 0 leaves the step bit for bit)") {
    for (const parallel_layout l : {parallel_layout{.tp = 4, .ep = 4}, parallel_layout{.tp = 1, .ep = 4, .dp = 4}}) {
        const deployment none = dynamo_prefill(l);
        deployment priced = none;
        priced.engine.overheads.prefill_request = 12.0_ms;
        const double per = 0.012 * prepare_pass(priced).attention_dp_busiest;
        double last = 0.0;
        for (double n : {1.0, 2.0, 3.0, 4.0, 6.0, 8.0}) {
            for (double prompt : {922.0, 7373.0}) {
                const double t0 = prefill_pass(none, n, tokens(prompt), 0_tok).time().value();
                const double t = prefill_pass(priced, n, tokens(prompt), 0_tok).time().value();
                CHECK(t - t0 == doctest::Approx(n * per).epsilon(1e-9));
            }
            const double extra = prefill_pass(priced, n, 922_tok, 0_tok).time().value() -
                                 prefill_pass(none, n, 922_tok, 0_tok).time().value();
            CHECK(extra > last);  // monotone in the request count
            last = extra;
        }
        // t_req = 0: today's figure, bit for bit. At 7,373 tokens the GPU time exceeds H, so the serial step is
        // exactly its GPU time, as before the term existed.
        CHECK(prefill_pass(none, 1.0, 7373_tok, 0_tok).time() == prefill_pass(gpu_only(none), 1.0, 7373_tok, 0_tok).time());
    }
}

TEST_CASE("serial prompt step: a simulated run pays it per prompt step") {
    // Four prompts of 922 tokens arriving together on one TEP4 worker: one prompt step of 4, so the first tokens
    // come 4 × 10 ms later with t_req = 10 ms than without (the same step, and the same decode steps after it).
    const deployment none = dynamo_prefill({.tp = 4, .ep = 4});
    deployment priced = none;
    priced.engine.overheads.prefill_request = 10.0_ms;
    const workload::traffic t{.input = workload::fixed(922_tok), .output = workload::fixed(8_tok),
                              .arrivals = workload::closed_loop(4.0)};
    const sim::options o{.requests = 4, .seed = 1, .keep_requests = false, .timeline_points = 0};
    const sim::result a = sim::simulate(none, t, o), b = sim::simulate(priced, t, o);
    CHECK(b.ttft.mean - a.ttft.mean == doctest::Approx(0.040).epsilon(1e-6));
}

TEST_CASE("serial prompt step: the disaggregated simulator pays it per prefill pass (÷ β, capped at B)") {
    // One DEP4 prefill worker (4 attention ranks), one DEP4 decode worker, 16 clients sending 16 prompts of 922
    // tokens at t = 0: the router gives each prefill rank 4 (round robin), one pass of b = 4 prompts a rank, all
    // ending together; the KV transfers and decode steps after it are the same run shifted by the pass's extra
    // time. So the mean TTFT grows by exactly that pass's b · t_req ÷ β at t_req = 10 ms: 4 × 10 ms ÷ 0.877 =
    // 45.610 ms with no prompt cap, and min(4 ÷ 0.877, B) × 10 ms = 40 ms with the rank's cap B = 4.
    const deployment none = dynamo_prefill({.tp = 1, .ep = 4, .dp = 4});
    deployment priced = none;
    priced.engine.overheads.prefill_request = 10.0_ms;
    const sim::disaggregated_client c{.input = workload::fixed(922_tok), .output = workload::fixed(2_tok), .clients = 16,
                                      .prompts = 16};
    auto run = [&](const deployment& p, const sim::prefill_admission& l) {
        return sim::simulate_disaggregated({.d = p, .workers = 1}, {.d = none, .workers = 1}, c, kv_path::scale_up, l);
    };
    const sim::prefill_admission open{}, four{.max_running = 4.0};
    const sim::disaggregated_result a = run(none, open), b = run(priced, open), a4 = run(none, four), b4 = run(priced, four);
    REQUIRE(b.prefill_passes == 4.0);
    REQUIRE(b.mean_prompts_per_pass == 4.0);
    CHECK(b.ttft.mean - a.ttft.mean == doctest::Approx(0.040 / 0.877).epsilon(1e-6));
    REQUIRE(b4.mean_prompts_per_pass == 4.0);
    CHECK(b4.ttft.mean - a4.ttft.mean == doctest::Approx(0.040).epsilon(1e-6));
}

TEST_CASE("prefill_request: the profile's check and tables/engines.csv's optional column refuse a bad figure") {
    engine_profile e = catalog::trtllm_blackwell;
    e.overheads.prefill_request = seconds(0.0);
    CHECK(test::validation_message(e).empty());  // 0 allowed: none priced
    e.overheads.prefill_request = microseconds(-1.0);
    CHECK(test::contains(test::validation_message(e), "overheads.prefill_request (us) = -1"));
    CHECK(test::contains(test::validation_message(e), "a per-request host time of a serial prompt step must be in [0, 1 s)"));
    e.overheads.prefill_request = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.prefill_request (us) = nan"));
    e.overheads.prefill_request = seconds(1.0);
    CHECK(test::contains(test::validation_message(e), "overheads.prefill_request (us) = 1000000"));
    // The table's column, in µs, found by name: a table without it loads 0; a bad cell names the column.
    const std::string base = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + base + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].overheads.prefill_request.value() == 0.0);
    const std::string header = test::engine_table_columns() + ",prefill_request_us,source\n";
    const auto mine = io::parse_engines_csv(header + base + ",9354,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.prefill_request.value() == doctest::Approx(9.354e-3).epsilon(1e-15));
    for (const char* bad : {"-5", "2e6", "nan"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(header + base + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "prefill_request_us"));
    }
    CHECK(test::engine_column_optional("prefill_request_us"));  // found by name, wherever it sits
    CHECK(test::engine_column_index("first_use_build_s") < test::engine_column_index("prefill_request_us"));
    CHECK(test::engine_column_index("prefill_request_us") < test::engine_column_index("v0_pass_us"));
    CHECK(io::detail::engines_csv::column_for("overheads.prefill_request (us)") == "prefill_request_us");
}

TEST_CASE("prefill_request: plan::calibrate recovers it alone from serial TTFT rows") {
    // Rows made with t_req = 12 ms on the TEP4 worker (fixed batches of 1, 4 and 8 prompts of 922 tokens, TTFT),
    // fitted from 10 ms with prefill_request alone free: 12 ms back.
    deployment d = dynamo_prefill({.tp = 4, .ep = 4});
    d.engine.overheads.prefill_request = 12.0_ms;
    std::vector<plan::measurement> rows;
    for (double batch : {1.0, 4.0, 8.0}) {
        plan::measurement x{.id = "R" + std::to_string(rows.size()), .check = false, .d = d,
                            .r = {.input = 922_tok, .output = 64_tok}, .how = plan::scenario::fixed_batch, .batch = batch,
                            .what = plan::metric::ttft_s, .value = 1.0, .source = "synthetic"};
        x.value = plan::predict(x);
        x.d.engine.overheads.prefill_request = 10.0_ms;
        rows.push_back(x);
    }
    const plan::calibration_result fit = plan::calibrate(rows, {.free = {plan::parameter::prefill_request}});
    REQUIRE(fit.parameters.size() == 1);
    CHECK(fit.parameters[0].value == doctest::Approx(0.012).epsilon(1e-6));
    CHECK(plan::parameter_named("prefill_request") == plan::parameter::prefill_request);
    CHECK(plan::unit_of(plan::parameter::prefill_request) == "s");
    CHECK_FALSE(plan::is_fraction(plan::parameter::prefill_request));
    CHECK(plan::as_fitted(rows[0], fit).d.engine.overheads.prefill_request.value() == doctest::Approx(0.012).epsilon(1e-6));
}

TEST_CASE("prefill_request: the catalog's figure is the fit's") {
    // The validation tool's fit (`fit_prefill_requests`, the rule of docs/trtllm-prefill-request.md, stated before
    // fitting): 9.901 ± 0.21 ms per request on 5 Dynamo GB200 TTFT rows (session 44, with n_req = min(ps ÷ β, B);
    // 9.354 ± 0.40 ms before the cap). TensorRT-LLM on Hopper carries
    // the same figure, ASSUMED (the same software's host work; no Hopper rows run serially); every other profile 0
    // (its prompt steps are not serial, so the figure would not be read).
    CHECK(catalog::trtllm_blackwell.overheads.prefill_request.value() == doctest::Approx(9.901e-3).epsilon(1e-12));
    CHECK(catalog::trtllm_hopper.overheads.prefill_request.value() == doctest::Approx(9.901e-3).epsilon(1e-12));
    for (const engine_profile& e : catalog::all_engines)
        if (!(e == catalog::trtllm_blackwell) && !(e == catalog::trtllm_hopper))
            CHECK(e.overheads.prefill_request.value() == 0.0);
}
