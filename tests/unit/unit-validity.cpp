// A deployment that exists is valid: every pricing path refuses a layout that breaks a rule of
// the model, with the rule's stable id, and the non-throwing paths (problem, admissible_batch,
// sweep, plan) mark it instead of pricing it.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/plan/sweep.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
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

TEST_CASE("validity: a rule whose value is a word names the word, as the user wrote it") {
    // A scenario, an engine: "scenario = online", never the enum's number.
    try {
        require_word(false, "row X", "scenario", "online", "must be fixed_batch", "llmcost.test.word");
        FAIL("require_word(false, ...) must throw");
    } catch (const invalid_input& e) {
        CHECK(std::string(e.what()) == "llmcost: row X: scenario = online: must be fixed_batch [llmcost.test.word]");
        CHECK(e.field() == "scenario");
        CHECK(e.word() == "online");
        CHECK(std::isnan(e.value()));  // no number to give
        CHECK(e.id() == "llmcost.test.word");
    }
    // A number keeps its value and has no word.
    try {
        require(false, "s", "tp", 3.0, "must divide the heads");
        FAIL("require(false, ...) must throw");
    } catch (const invalid_input& e) {
        CHECK(e.word().empty());
        CHECK(e.value() == 3.0);
        CHECK(std::string(e.what()) == "llmcost: s: tp = 3: must divide the heads");
    }
    // A rule that holds is usable in a constant expression, as `require` is.
    static_assert((require_word(true, "s", "f", "w", "r"), true));
}

TEST_CASE("validity: a weight format the GPU has no units for is served weight-only, in BF16") {
    // The A100 has no FP8 units (its fp8 peak is 0): FP8 weights are widened to BF16 for the
    // matmuls, as vLLM's FP8 Marlin kernels run them on Ampere (W8A16), and price at the BF16 peak.
    const deployment a100{.m = catalog::llama_3_1_8b, .hw = catalog::a100_sxm_80gb};
    const deployment fp8_a100 = with_formats(a100, formats::fp8, formats::fp8);
    CHECK(fp8_a100.m.weights == formats::fp8);
    CHECK(fp8_a100.m.activations == formats::bf16);
    CHECK_FALSE(problem(fp8_a100));
    CHECK(fp8_a100.hw.gpu.peak(fp8_a100.m.activations.compute) == catalog::a100_sxm_80gb.gpu.dense.bf16);
    // A GPU with FP8 units computes in FP8; FP4 without FP4 units uses the FP8 units (W4A8).
    CHECK(with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5}, formats::fp8, formats::fp8).m.activations ==
          formats::fp8);
    CHECK(with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5}, formats::nvfp4, formats::fp8)
              .m.activations.compute == compute_class::fp4);
    CHECK(with_formats(a100, formats::nvfp4, formats::fp8).m.activations == formats::bf16);
    // INT8 has units on the A100 (624 TOPS): W8A8.
    CHECK(with_formats(a100, formats::int8, formats::int8).m.activations == formats::int8);
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
    const plan::traffic t{.requests_per_second = per_second(2.0), .mix = {{.shape = shape}}, .target = {.ttft = 2_s, .tpot = 50_ms}};
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

// ---- hostile input (issue 18): what a probe fed the library, refused by rule, never a signal ----

TEST_CASE("validity: hostile layouts are refused with their rule, never a division by zero or an overflow") {
    const model& m = catalog::llama_3_1_8b;  // 32 query heads, 8 KV heads
    // tp = 0 once died of SIGFPE inside a pass; every path now checks the layout first.
    const deployment tp0{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 0}};
    CHECK(problem(tp0)->id() == "llmcost.layout.degree_at_least_one");
    CHECK(test::contains(test::error_of([&] { return decode_pass(tp0, 1, 100_tok); }), "[llmcost.layout.degree_at_least_one]"));
    CHECK(test::contains(test::error_of([&] { return estimate(tp0, shape); }), "layout.tp = 0"));
    // tp = 3 on 32 heads once priced 11,368 tok/s.
    const deployment tp3_8b{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 3}};
    CHECK(test::contains(test::error_of([&] { return saturated(tp3_8b, shape); }), "[llmcost.layout.tp_divides_heads]"));
    // Degrees whose product wraps a 32-bit int (2^31 - 1 each): refused before any product is taken.
    constexpr int huge = 2147483647;
    for (const parallel_layout l : {parallel_layout{.tp = huge, .pp = huge, .dp = huge}, parallel_layout{.tp = 1, .pp = 2, .dp = huge},
                                    parallel_layout{.tp = 65536, .pp = 1, .dp = 65536}}) {
        const deployment d{.m = m, .hw = catalog::h100_sxm5, .layout = l};
        CAPTURE(l.tp);
        CAPTURE(l.dp);
        REQUIRE(problem(d));
        CHECK(test::contains(test::error_of([&] { return estimate(d, shape); }), "[llmcost.layout."));
    }
    CHECK(problem({.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 1, .pp = 2, .dp = huge}})->id() ==
          "llmcost.layout.gpu_count");
    // Sizes whose parameter count overflows 64 bits: refused by the model's own check, in doubles.
    model wide = m;
    wide.hidden = huge;
    wide.layers = huge;
    CHECK(test::contains(test::validation_message(wide), "more than 10^17 parameters"));
}

TEST_CASE("validity: a prefill chunk below one token is refused, not priced as NaN") {
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    for (const double chunk : {1e-300, 1e-310, 0.5}) {
        CAPTURE(chunk);
        const scheduler_limits l{.prefill_chunk = tokens(chunk)};
        CHECK(test::contains(test::error_of([&] {
                                 l.validate();
                                 return 0;
                             }),
                             "[llmcost.serving.chunk_at_least_one_token]"));
        CHECK(test::contains(test::error_of([&] { return estimate(d, shape, {.batch = 4, .limits = l}); }),
                             "prefill_chunk (tokens)"));
        CHECK(test::contains(test::error_of([&] { return colocated_goodput(d, shape, {.ttft = 2_s, .tpot = 50_ms}, l); }),
                             "at least one token"));
    }
    CHECK_NOTHROW(scheduler_limits{.prefill_chunk = 1_tok}.validate());
    CHECK_NOTHROW(scheduler_limits{.prefill_chunk = 0_tok}.validate());
}

TEST_CASE("validity: a given batch must fit on every path that prices one (require_batch_fits)") {
    // 405B in BF16 on one H100: 810 GB of weights in 80 GB.
    const deployment big{.m = catalog::llama_3_1_405b, .hw = catalog::h100_sxm5};
    CHECK(test::contains(test::error_of([&] {
                             require_batch_fits(big, shape, 1);
                             return 0;
                         }),
                         "[llmcost.fit.weights]"));
    // 8B on one H100: 16 GB of weights; KV 128 KiB per token × 1,200 tokens a sequence; 100,000
    // sequences need ~16 TB.
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    CHECK_NOTHROW(require_batch_fits(d, shape, 64));
    CHECK(test::contains(test::error_of([&] {
                             require_batch_fits(d, shape, 100000);
                             return 0;
                         }),
                         "batch = 100000: does not fit"));
    CHECK(test::contains(test::error_of([&] { return estimate(d, shape, {.batch = 100000}); }), "[llmcost.fit.batch]"));
}

TEST_CASE("validity: a plan's fleet is never loaded above 1, however high the rate") {
    plan::fleet_options o{.gpus = {catalog::h200_sxm}, .layouts = {{.tp = 1}}, .prefill_batches = {}};
    o.gpu_cost = dollars_per_second_t::from_value(3.0 / 3600.0);
    for (const double rate : {2.0, 1e6, 1e12}) {
        CAPTURE(rate);
        const plan::traffic t{.requests_per_second = per_second(rate), .mix = {{.shape = shape}}, .target = {.ttft = 2_s, .tpot = 50_ms}};
        const plan::fleet_result p = plan::cheapest_fleet(catalog::llama_3_1_8b, t, o);
        REQUIRE(p.best);
        CHECK(p.best->load <= 1.0);
        CHECK(p.best->load > 0.0);
    }
}

TEST_CASE("validity: a sweep's size is bounded up front, before any point is priced") {
    // 10 GPUs × 1,000 layouts × 1,001 batches = 10,010,000 points > 10^7.
    plan::sweep_grid g{.m = catalog::llama_3_1_8b, .shapes = {shape}};
    g.gpus.assign(10, catalog::h100_sxm5);
    g.layouts.assign(1000, parallel_layout{});
    for (int b = 1; b <= 1001; ++b) g.batches.push_back(b);
    CHECK(test::contains(test::error_of([&] { return plan::sweep(g); }), "= 10010000: more than 10^7"));
    CHECK(test::contains(test::error_of([&] { return plan::sweep(g); }), "[llmcost.plan.grid_size]"));
    g.batches.resize(1000);  // exactly 10^7: allowed (not swept here)
    CHECK_NOTHROW(g.validate());
}

TEST_CASE("validity: candidate layouts up to the largest int do not wrap") {
    // 2^30 is the last power of two below INT_MAX: tp 1 … 2^30, 31 layouts, each tp ≥ 1.
    const std::vector<parallel_layout> c = plan::candidate_layouts(catalog::llama_3_1_8b, catalog::h100_sxm5, 2147483647);
    for (const parallel_layout& l : c) CHECK(l.tp >= 1);
    CHECK(c.size() <= 31);
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
