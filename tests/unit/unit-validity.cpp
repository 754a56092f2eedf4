// A deployment that exists is valid: every pricing path refuses a layout that breaks a rule of
// the model, with the rule's stable id, and the non-throwing paths (problem, admissible_batch,
// sweep, plan) mark it instead of pricing it.
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/plan/sweep.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

const request_shape shape{.input = 1000_tok, .output = 200_tok};

/// Llama-3.1-70B has 64 query heads and 8 KV heads: tp 3 divides neither.
const deployment tp3{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 3}};
/// Expert parallelism on a dense model.
const deployment ep_dense{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.ep = 4, .dp = 4}};
/// An expert group that does not fill tp × dp: DeepSeek-V3 with ep 8 over tp 1 × dp 4 GPUs.
const deployment ep_group{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 1, .ep = 8, .dp = 4}};

constexpr std::string_view tp3_id = "[llmcost.layout.tp_divides_heads]";
constexpr std::string_view ep_dense_id = "[llmcost.layout.ep_needs_moe]";
constexpr std::string_view ep_group_id = "[llmcost.layout.ep_divides_group]";

}  // namespace

TEST_CASE("validity: problem() names the first broken rule, with its id, without throwing") {
    CHECK_FALSE(problem({.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 8}}));
    const auto p = problem(tp3);
    REQUIRE(p);
    CHECK(std::string(p->what()) == "llmcost: Llama-3.1-70B: layout.tp = 3: must divide the query heads " + std::string(tp3_id));
    CHECK(p->id() == "llmcost.layout.tp_divides_heads");
    CHECK(p->field() == "layout.tp");
    CHECK(p->value() == 3);
    CHECK(problem(ep_dense)->id() == "llmcost.layout.ep_needs_moe");
    CHECK(problem(ep_group)->id() == "llmcost.layout.ep_divides_group");
    // A GPU without a published rate for the model's matmuls (Rubin's datasheet gives FP4 only)
    // is a deployment that cannot run; in NVFP4 it can.
    const deployment bf16{.m = catalog::llama_3_1_8b, .hw = catalog::rubin_vr200};
    CHECK(problem(bf16)->id() == "llmcost.deployment.peak_for_format");
    CHECK(test::contains(test::error_of([&] { return decode_pass(bf16, 1, 100_tok); }), "no published rate"));
    CHECK_FALSE(problem(with_formats(bf16, formats::nvfp4, formats::fp8)));
}

TEST_CASE("validity: every pricing path refuses an impossible deployment") {
    for (const std::pair<deployment, std::string_view>& c :
         {std::pair{tp3, tp3_id}, std::pair{ep_dense, ep_dense_id}, std::pair{ep_group, ep_group_id}}) {
        const deployment& d = c.first;
        const std::string_view id = c.second;  // not a structured binding: clang 14 cannot capture one
        CAPTURE(d.m.name);
        auto refused = [&](auto&& f) { return test::contains(test::error_of(f), id); };
        CHECK(refused([&] { return prepare_pass(d); }));
        CHECK(refused([&] { return decode_pass(d, 8, 1000_tok); }));
        CHECK(refused([&] { return prefill_pass(d, 1, 1000_tok, 0_tok); }));
        CHECK(refused([&] { return serve_at_batch(d, shape, 8); }));
        CHECK(refused([&] { return saturated(d, shape); }));
        CHECK(refused([&] { return max_batch(d, shape); }));
        CHECK(refused([&] { return estimate(d, shape); }));
        CHECK(refused([&] { return estimate(d, shape, {.batch = 4}); }));
        CHECK(refused([&] { return price_request(d, shape, 4); }));
        CHECK(refused([&] { return colocated_goodput(d, shape, {.ttft = 2_s, .tpot = 50_ms}); }));
        CHECK(refused([&] { return decode_steps(d, 4, 1000_tok, 10); }));
    }
}

TEST_CASE("validity: a sweep marks an impossible layout and prices the rest") {
    const plan::sweep_grid g{.m = catalog::llama_3_1_70b,
                             .gpus = {catalog::h200_sxm},
                             .layouts = {{.tp = 3}, {.tp = 4}, {.tp = 2, .ep = 2}},
                             .shapes = {shape},
                             .batches = {1, 8}};
    const plan::sweep_result s = plan::sweep(g);
    REQUIRE(s.blocks.size() == 3);
    CHECK(s.blocks[0].status == plan::point_status::invalid_deployment);
    CHECK(test::contains(s.blocks[0].problem, tp3_id));
    CHECK(s.blocks[1].status == plan::point_status::ok);
    CHECK(s.blocks[2].status == plan::point_status::invalid_deployment);
    CHECK(test::contains(s.blocks[2].problem, ep_dense_id));
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const bool bad = s.block_of(i) != 1;
        CHECK(s.fits(i) != bad);
        CHECK(std::isnan(s.tpot_s(i)) == bad);
    }
}

TEST_CASE("validity: a plan never offers an impossible layout") {
    plan::fleet_options o{.gpus = {catalog::h200_sxm}, .layouts = {{.tp = 3}, {.tp = 2, .ep = 2}, {.tp = 4}}};
    o.gpu_cost = dollars_per_second_t::from_value(3.0 / 3600.0);
    const plan::traffic t{.requests_per_second = 2.0, .mix = {{.shape = shape}}, .target = {.ttft = 2_s, .tpot = 50_ms}};
    const plan::fleet_result p = plan::cheapest_fleet(catalog::llama_3_1_70b, t, o);
    REQUIRE(p.best);
    CHECK(p.best->d.layout.tp == 4);
    for (const plan::deployment_plan& x : p.options) CHECK(!problem(x.d));
}

TEST_CASE("validity: admissible_batch says what limits the batch, and never throws") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
    const batch_limit b = admissible_batch(d, shape);
    CHECK(b.batch == max_batch(d, shape).batch);
    CHECK(b.limited_by == "KV capacity");
    CHECK(admissible_batch(d, shape, {.max_batch = 16}).limited_by == "max batch");
    // 405B in BF16 on one H100: the weights alone exceed HBM.
    const deployment big{.m = catalog::llama_3_1_405b, .hw = catalog::h100_sxm5};
    CHECK(admissible_batch(big, shape).batch == 0);
    CHECK(admissible_batch(big, shape).limited_by == "weights do not fit");
    CHECK(test::contains(test::error_of([&] { return max_batch(big, shape); }), "[llmcost.fit.weights]"));
    // A context whose KV alone exceeds what is left after the weights.
    const request_shape huge{.input = tokens(2e7), .output = 1_tok};
    CHECK(admissible_batch(d, huge).batch == 0);
    CHECK(admissible_batch(d, huge).limited_by == "KV capacity");
    CHECK(test::contains(test::error_of([&] { return max_batch(d, huge); }), "[llmcost.fit.kv_sequence]"));
}

TEST_CASE("validity: a GPU count the degrees do not fill is refused before any pricing path") {
    // A parallel_layout has no GPU count of its own (gpus() = tp·pp·dp), so the only way to state
    // one is layout_for_gpus, and a mismatch stops there: nothing downstream can price it.
    CHECK(layout_for_gpus({.gpus = 8, .tp = 2}) == parallel_layout{.tp = 2, .dp = 4});
    CHECK(layout_for_gpus({.gpus = 16, .tp = 4, .pp = 2}) == parallel_layout{.tp = 4, .pp = 2, .dp = 2});
    CHECK(layout_for_gpus({.gpus = 8, .tp = 1, .ep = 8, .dp = 8}) == parallel_layout{.ep = 8, .dp = 8});
    CHECK(layout_for_gpus({.tp = 8}) == parallel_layout{.tp = 8});  // no count: dp 1
    CHECK(layout_for_gpus({.tp = 2, .dp = 3}).gpus() == 6);
    auto id_of = [](const layout_request& r) { return test::error_of([&] { return layout_for_gpus(r); }); };
    // 6 GPUs cannot hold whole tp-4 replicas; 8 GPUs are not tp 2 × dp 2.
    CHECK(test::contains(id_of({.gpus = 6, .tp = 4}), "gpus = 6: must be a multiple of tp × pp"));
    CHECK(test::contains(id_of({.gpus = 6, .tp = 4}), "[llmcost.layout.gpus_multiple_of_replica]"));
    CHECK(test::contains(id_of({.gpus = 8, .tp = 2, .dp = 2}), "[llmcost.layout.gpus_match]"));
    CHECK(test::contains(id_of({.gpus = 8, .tp = 0}), "[llmcost.layout.degree_at_least_one]"));
    CHECK(test::contains(id_of({.gpus = -8, .tp = 2}), "[llmcost.layout.gpu_count]"));
    CHECK(test::contains(id_of({.gpus = 8, .tp = 2, .dp = -1}), "[llmcost.layout.degree_at_least_one]"));
    // Degrees whose int product would wrap are refused before it is formed.
    CHECK(test::contains(id_of({.tp = 1 << 20, .pp = 1 << 20}), "[llmcost.layout.gpu_count]"));
    CHECK(test::contains(id_of({.gpus = 8, .tp = 1 << 20, .pp = 1 << 20}), "[llmcost.layout.gpu_count]"));
    // A count that fits the degrees still meets the model's rules downstream: 6 GPUs at tp 3.
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = layout_for_gpus({.gpus = 6, .tp = 3})};
    CHECK(test::contains(test::error_of([&] { return estimate(d, shape); }), tp3_id));
}
