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
std::string row(const std::string& dp, const std::string& scenario, const std::string& share) {
    const std::string run = scenario == "offline" ? "offline,3000,256,,,,128,128,output_tokens_per_s,1000,tok/s"
                                                  : "online,,256,,2,,128,128,tpot_s,8,ms";
    return "A,check,Llama-3.1-8B,H100 SXM5,vllm,0.6.0,1,1,1," + dp + ",fp8,fp8," + run + ",s," + share + "\n";
}
}  // namespace

TEST_CASE("replica share: the run's tokens/s is one replica's rate over the largest share, by hand") {
    // 8 replicas at 1,000 tok/s each: an equal split gives 8,000 tok/s.
    CHECK(plan::offline_run_rate(1000.0, 8.0, {}) == doctest::Approx(8000.0).epsilon(1e-12));
    // s = 1/8 is the equal split.
    CHECK(plan::offline_run_rate(1000.0, 8.0, 0.125) == doctest::Approx(8000.0).epsilon(1e-12));
    // AMD's MI325X buckets at N = 319,488: the largest replica runs int(12.698452767323765% × N) = 40,570 samples, so
    // the run lasts 40,570 ÷ 1,000 × O and yields 319,488 × O over it: 1,000 × 319,488 ÷ 40,570 = 7,874.98 tok/s.
    CHECK(plan::offline_run_rate(1000.0, 8.0, 40570.0 / 319488.0) == doctest::Approx(7874.9815).epsilon(1e-7));
    // One replica holding every sample: its own rate.
    CHECK(plan::offline_run_rate(1000.0, 8.0, 1.0) == doctest::Approx(1000.0).epsilon(1e-12));
}

TEST_CASE("replica share: an offline row's price follows its largest replica") {
    // Two replicas, one with 60% of the samples: the run lasts that replica's 0.6 N samples, so its rate is
    // (1 / 2) ÷ 0.6 = 5/6 of the equal split's.
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

TEST_CASE("replica share: the loader refuses a bad share, naming file, line and column") {
    auto bad = [](const std::string& r) { return test::message_of([&] { return parse(r); }); };
    for (const char* share : {"0", "-0.2", "1.5", "nan"}) {
        CAPTURE(share);
        const std::string m = bad(row("2", "offline", share));
        CHECK(test::contains(m, "m.csv:2:25"));
        CHECK(test::contains(m, "replica_share_max"));
    }
    // Below 1 / replicas: no replica can hold less than an equal share's largest.
    const std::string low = bad(row("2", "offline", "0.4"));
    CHECK(test::contains(low, "m.csv:2:25"));
    CHECK(test::contains(low, "at least 1 / replicas (2 replicas here)"));
    // Not an Offline run.
    const std::string online = bad(row("2", "online", "0.6"));
    CHECK(test::contains(online, "m.csv:2:25"));
    CHECK(test::contains(online, "an Offline run's"));
}

TEST_CASE("replica share: validate refuses a share outside [1 / replicas, 1] or off an offline row") {
    plan::measurement x = parse(row("2", "offline", "0.6"))[0];
    x.replica_share_max = 0.3;
    CHECK(test::contains(test::validation_message(x), "replica_share_max"));
    x.replica_share_max = 1.2;
    CHECK(test::contains(test::validation_message(x), "replica_share_max"));
    x.replica_share_max = 0.6;
    CHECK(test::validation_message(x).empty());
}
