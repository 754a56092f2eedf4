// Session 47: an Offline run ends with its slowest replica. AMD's MLPerf harness hands each of its replicas one fixed
// range of the samples (`sorting: strategy: buckets`), and LoadGen's run ends with the last replica's answers, so the
// run's tokens/s = one replica's rate ÷ the largest replica's share s (`plan::offline_run_rate`,
// `measurement::replica_share_max`; docs/amd-vllm.md). Equal split (no share): replicas × rate, as before.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace llmcost;

namespace {
const std::string header =
    "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
    "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,replica_share_max\n";
std::vector<plan::measurement> parse(const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); }
std::string row(const std::string& dp, const std::string& scenario, const std::string& share,
                const std::string& requests = "3000", const std::string& max_batch = "100") {
    const std::string run = scenario == "offline"
                                ? "offline," + requests + "," + max_batch + ",,,,128,128,output_tokens_per_s,1000,tok/s"
                                : "online,,256,,2,,128,128,tpot_s,8,ms";
    return "A,check,Llama-3.1-8B,H100 SXM5,vllm,0.6.0,1,1,1," + dp + ",fp8,fp8," + run + ",s," + share + "\n";
}
}  // namespace

TEST_CASE("replica share: the run's tokens/s is one replica's rate over the largest share, by hand") {
    // 8 replicas at 1,000 tok/s each: an equal split (s = 1/8) gives 8,000 tok/s.
    CHECK(plan::offline_run_rate(1000.0, 0.125) == doctest::Approx(8000.0).epsilon(1e-12));
    // AMD's MI325X buckets at N = 319,488: the largest replica runs int(12.698452767323765% × N) = 40,570 samples, so
    // the run lasts 40,570 ÷ 1,000 × O and yields 319,488 × O over it: 1,000 × 319,488 ÷ 40,570 = 7,874.98 tok/s.
    CHECK(plan::offline_run_rate(1000.0, 40570.0 / 319488.0) == doctest::Approx(7874.9815).epsilon(1e-7));
    // One replica holding every sample: its own rate.
    CHECK(plan::offline_run_rate(1000.0, 1.0) == doctest::Approx(1000.0).epsilon(1e-12));
    // The largest share of a row: its cell, or an equal split over its replicas (1/8 of 8, 1/2 of 2) where empty.
    CHECK(plan::largest_share(parse(row("8", "offline", ""))[0]) == 0.125);
    CHECK(plan::largest_share(parse(row("2", "offline", ""))[0]) == 0.5);
    CHECK(plan::largest_share(parse(row("8", "offline", "0.126984"))[0]) == 0.126984);
    // Its requests: round(s · N), at least one. 3,000 × 0.6 = 1,800; 7 × 0.126984 = 0.889 -> 1; 3 × 0.5 = 1.5 -> 2.
    CHECK(plan::largest_replica_requests(parse(row("2", "offline", "0.6"))[0]) == 1800.0);
    CHECK(plan::largest_replica_requests(parse(row("8", "offline", "0.126984", "7"))[0]) == 1.0);
    CHECK(plan::largest_replica_requests(parse(row("2", "offline", "", "3"))[0]) == 2.0);
}

TEST_CASE("replica share: an offline row's price follows its largest replica") {
    // Two replicas, one with 60% of the 3,000 samples, a batch of 100: the largest runs 1,800 = 18 full waves, the
    // equal split's 1,500 = 15, every wave the same step. The run lasts that replica's 18 waves, so its rate,
    // 3,000 ÷ 18 waves, is 15 ÷ 18 = 5/6 of the equal split's 3,000 ÷ 15 waves.
    const auto equal = parse(row("2", "offline", ""));
    const auto uneven = parse(row("2", "offline", "0.6"));
    REQUIRE(equal.size() == 1);
    REQUIRE(uneven.size() == 1);
    CHECK_FALSE(equal[0].replica_share_max);
    REQUIRE(uneven[0].replica_share_max);
    CHECK(*uneven[0].replica_share_max == 0.6);
    CHECK(plan::predict(uneven[0]) == doctest::Approx(plan::predict(equal[0]) * 5.0 / 6.0).epsilon(1e-12));
    // An equal split written out (1/2) prices as the empty cell does.
    CHECK(plan::predict(parse(row("2", "offline", "0.5"))[0]) == doctest::Approx(plan::predict(equal[0])).epsilon(1e-12));
}

TEST_CASE("replica share: the closed form prices the largest replica's own waves, its last one partial, by hand") {
    // N = 100 samples over two replicas, the largest with s = 0.65: it runs round(65) = 65 requests in waves of the
    // max batch 10, six full and one of 5. Its makespan T = O · (6 · t(10) + t(5)), t(b) a step at batch b, and the run
    // ends with it: tokens/s = N · O ÷ T = 100 ÷ (6 · t(10) + t(5)). (An equal split's waves over both replicas,
    // scaled by 1/2 ÷ s, would give 100 ÷ (6.5 · t(10)) instead: wrong unless t(5) = t(10) ÷ 2.)
    const plan::measurement x = parse(row("2", "offline", "0.65", "100", "10"))[0];
    const deployment one = plan::one_replica(plan::as_driven(x));
    CHECK(one.layout.dp == 1);
    const scheduler_limits l = plan::offline_limits(x);
    const pass_model pm = prepare_pass(one);
    const double t10 = serve_at_batch(pm, x.r, 10.0, l).step_time.value();
    const double t5 = serve_at_batch(pm, x.r, 5.0, l).step_time.value();
    REQUIRE(t5 < t10);
    CHECK(plan::predict(x) == doctest::Approx(100.0 / (6.0 * t10 + t5)).epsilon(1e-9));
    CHECK(plan::predict(x) != doctest::Approx(100.0 / (6.5 * t10)).epsilon(1e-3));  // the old, equal-split waves
}

TEST_CASE("replica share: the loader refuses a bad share, naming file, line, column, value and rule") {
    auto bad = [](const std::string& r) { return test::message_of([&] { return parse(r); }); };
    const std::string rule = std::string(plan::replica_share_rule);
    for (const char* share : {"0", "-0.2", "1.5", "nan"}) {
        CAPTURE(share);
        const std::string m = bad(row("2", "offline", share));
        CHECK(test::contains(m, "m.csv:2:25: key \"replica_share_max\" = \"" + std::string(share) + "\": " + rule));
    }
    // Below 1 / replicas: no replica can hold less than an equal share's largest.
    CHECK(test::contains(bad(row("2", "offline", "0.4")),
                         "m.csv:2:25: key \"replica_share_max\" = \"0.4\": " + rule + " (2 replicas here)"));
    // Not an Offline run: the same rule.
    CHECK(test::contains(bad(row("2", "online", "0.6")),
                         "m.csv:2:25: key \"replica_share_max\" = \"0.6\": " + rule + " (2 replicas here)"));
}

TEST_CASE("replica share: validate refuses a share outside [1 / replicas, 1] or off an offline row, by the loader's rule") {
    const std::string rule = plan::replica_share_rule_for(2);
    plan::measurement x = parse(row("2", "offline", "0.6"))[0];
    x.replica_share_max = 0.3;
    CHECK(test::contains(test::validation_message(x), "replica_share_max = 0.3: " + rule));
    x.replica_share_max = 1.2;
    CHECK(test::contains(test::validation_message(x), "replica_share_max = 1.2: " + rule));
    x.replica_share_max = 0.6;
    CHECK(test::validation_message(x).empty());
}
