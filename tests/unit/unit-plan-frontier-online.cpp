// The frontier with percentile targets and a load ceiling (issue 16): each point served online at
// the rate that keeps its batch in flight. Its figures are serve_online_latency's at that rate, its
// load is that rate over the saturated rate, the frontier's points meet the targets, and the
// model's domain is refused by name outside it.
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/plan/frontier.hpp>
#include <llmcost/plan/sweep.hpp>
#include <llmcost/serving/throughput.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;
namespace lp = llmcost::plan;

namespace {
lp::sweep_grid llama70_grid() {
    return {.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5}, .formats = {{}},
            .layouts = {{.tp = 4}}, .modes = {{}}, .shapes = {{.input = 467_tok, .output = 256_tok}},
            .batches = {8, 32, 64, 96, 128, 144, 160, 176, 192}};
}
}  // namespace

TEST_CASE("frontier online: a point's figures are serve_online_latency's at b / E2E(b)") {
    const lp::sweep_result s = lp::sweep(llama70_grid());
    const request_shape r{.input = 467_tok, .output = 256_tok};
    const deployment& d = s.blocks.front().d;
    const serving_point sat = saturated(d, r);
    for (std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{4}}) {
        const Eigen::Index i = s.index(0, 0, k);
        const double b = s.point(i).batch, rate = b / s.e2e(i);
        const std::optional<lp::online_point> p = lp::online_at(s, i, 0.9, 0.5);
        REQUIRE(p.has_value());
        const online_latency o = serve_online_latency(d, r, seconds(1.0 / rate));
        CHECK(p->rate_per_rank == doctest::Approx(rate));
        CHECK(p->load == doctest::Approx(rate / (sat.output_rate.value() / 256.0)));
        CHECK(p->ttft.value() == doctest::Approx(ttft_percentile(o, 0.9).value()));
        CHECK(p->tpot.value() == doctest::Approx(tpot_percentile(o, 0.5).value()));
        // Little's law closes: the online concurrency is near the batch the rate was read from.
        CHECK(o.point.batch == doctest::Approx(b).epsilon(0.2));
        const std::optional<lp::online_point> means = lp::online_at(s, i, 0.0, 0.0);
        CHECK(means->ttft.value() == doctest::Approx(o.point.ttft.value()));
        CHECK(means->ttft.value() < p->ttft.value());  // the p90 above the mean
    }
}

TEST_CASE("frontier online: the points meet the percentile targets and the load ceiling") {
    const lp::sweep_result s = lp::sweep(llama70_grid());
    const slo target{.ttft = 300_ms, .tpot = 60_ms};
    const lp::frontier_options o{.ttft_percentile = 0.9, .tpot_percentile = 0.9, .max_load = 0.8};
    const std::vector<Eigen::Index> el = lp::eligible(s, target, o);
    REQUIRE_FALSE(el.empty());
    for (Eigen::Index i : el) {
        const std::optional<lp::online_point> p = lp::online_at(s, i, 0.9, 0.9);
        REQUIRE(p.has_value());
        CHECK(p->ttft.value() <= 0.3);
        CHECK(p->tpot.value() <= 0.06);
        CHECK(p->load <= 0.8);
    }
    // The ceiling binds: more points compete without it, and the largest batch that meets the
    // percentiles without a ceiling runs above 80% of the saturated rate.
    const std::vector<Eigen::Index> all = lp::eligible(s, target, {.ttft_percentile = 0.9, .tpot_percentile = 0.9});
    CHECK(all.size() > el.size());
    CHECK(lp::online_at(s, all.back(), 0.9, 0.9)->load > 0.8);
    // Percentile targets are stricter than the same targets on the steady state's means.
    CHECK(el.size() < lp::eligible(s, target).size());
    const std::vector<Eigen::Index> front = lp::frontier(s, target, o);
    CHECK(front == lp::frontier_among(s, el));
    for (Eigen::Index i : front) CHECK(std::find(el.begin(), el.end(), i) != el.end());
}

TEST_CASE("frontier online: refused outside the model, named") {
    lp::sweep_grid g = llama70_grid();
    g.limits.prefill_chunk = 512_tok;
    const lp::sweep_result chunked = lp::sweep(g);
    CHECK(test::contains(test::error_of([&] { return lp::online_at(chunked, 5, 0.9, 0.0); }), "percentile_whole_prompts"));
    g = llama70_grid();
    g.modes = {{.disaggregated = true}};
    const lp::sweep_result dis = lp::sweep(g);
    CHECK(test::contains(test::error_of([&] { return lp::online_at(dis, 5, 0.9, 0.0); }), "llmcost.plan.online_colocated"));
    g = llama70_grid();
    g.shapes = {{.input = 467_tok, .output = 256_tok, .output_spread = 100_tok}};
    const lp::sweep_result spread = lp::sweep(g);
    CHECK(test::contains(test::error_of([&] { return lp::online_at(spread, 5, 0.0, 0.9); }), "percentiles_equal_requests"));
    const lp::sweep_result s = lp::sweep(llama70_grid());
    CHECK(test::contains(test::error_of([&] { return lp::online_at(s, 5, 1.0, 0.0); }), "ttft_percentile"));
    CHECK(test::contains(test::error_of([&] { return lp::eligible(s, {.ttft = 1_s, .tpot = 50_ms}, {.max_load = 0.0}); }),
                         "max_load"));
}
