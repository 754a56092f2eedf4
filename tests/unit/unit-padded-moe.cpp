// MORI-EP's padded receive buffer (session 48; docs/mi355x-disagg-decode.md §6): where the MoE layers run the expert
// all-to-all and the engine's runner takes its whole fixed-shape receive buffer (SGLang's MoriEPMoE on AITER's fused
// MoE), each MoE layer of a step pays c · N_blk, N_blk = ⌈(W·C·k + E·32 − k) ÷ 32⌉ (`padded_moe_blocks`,
// `padded_moe_time_per_pass`). Every expected figure below is worked by hand in its comment.
#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <utility>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// DeepSeek-V3 FP8 on MI355X under SGLang on CDNA4 with `layout`, the padded block c and the dispatch cap as asked.
deployment dsv3(parallel_layout layout, double block_ns, double cap_tokens) {
    deployment d = with_formats({.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = layout}, formats::fp8,
                                formats::fp8);
    d.engine = catalog::sglang_cdna4;
    d.engine.moe.padded_moe_block = nanoseconds(block_ns);
    d.engine.moe.dispatch_cap_tokens = cap_tokens;
    return d;
}

constexpr parallel_layout dep8{.tp = 1, .ep = 8, .dp = 8};
constexpr parallel_layout dep16{.tp = 1, .ep = 16, .dp = 16};
constexpr parallel_layout tep8{.tp = 8, .ep = 8};

}  // namespace

TEST_CASE("padded MoE: N_blk = ceil((W C k + E b - k) / b), by hand") {
    // DEP8, C = 16384, k = 8, E = 256, b = 32: (8 · 16384 · 8 + 256 · 32 − 8) ÷ 32 = (1,048,576 + 8,192 − 8) ÷ 32
    // = 1,056,760 ÷ 32 = 33,023.75 → 33,024.
    CHECK(padded_moe_blocks(8, 16384.0, 8, 256) == 33024.0);
    // DEP16: (2,097,152 + 8,184) ÷ 32 = 2,105,336 ÷ 32 = 65,791.75 → 65,792.
    CHECK(padded_moe_blocks(16, 16384.0, 8, 256) == 65792.0);
    static_assert(padded_moe_blocks(8, 16384.0, 8, 256) == 33024.0);  // a constant expression
    // SGLang's default cap 4096 on DEP8: (262,144 + 8,184) ÷ 32 = 270,328 ÷ 32 = 8,447.75 → 8,448.
    CHECK(padded_moe_blocks(8, 4096.0, 8, 256) == 8448.0);
    // A small one: W 2, C 4, k 2, E 4, b 32: (16 + 128 − 2) ÷ 32 = 142 ÷ 32 = 4.4375 → 5; exact multiples stay whole:
    // W 1, C 4, k 1, E 1, b 4: (4 + 4 − 1) ÷ 4 = 7 ÷ 4 → 2; W 1, C 5, k 1, E 1, b 4: (5 + 4 − 1) ÷ 4 = 2 exactly.
    CHECK(padded_moe_blocks(2, 4.0, 2, 4) == 5.0);
    CHECK(padded_moe_blocks(1, 4.0, 1, 1, 4.0) == 2.0);
    CHECK(padded_moe_blocks(1, 5.0, 1, 1, 4.0) == 2.0);
    CHECK(aiter_moe_sorting_block == 32.0);
    CHECK(sglang_mori_dispatch_cap_default == 4096.0);
}

TEST_CASE("padded MoE: t_pad = L_moe c N_blk on DEP8 and DEP16, by hand") {
    REQUIRE(catalog::deepseek_v3.moe_layers() == 58);  // 61 layers, the first 3 dense
    // DEP8, c = 5 ns, C = 16384: 58 × 5 ns × 33,024 = 58 × 165,120 ns = 9,576,960 ns = 9.57696 ms.
    CHECK(padded_moe_time_per_pass(dsv3(dep8, 5.0, 16384.0)).value() == doctest::Approx(9.57696e-3).epsilon(1e-12));
    // DEP16: 58 × 5 ns × 65,792 = 58 × 328,960 ns = 19,079,680 ns = 19.07968 ms (the buffer's doubling).
    CHECK(padded_moe_time_per_pass(dsv3(dep16, 5.0, 16384.0)).value() == doctest::Approx(19.07968e-3).epsilon(1e-12));
    // No cap given: SGLang's default 4096: 58 × 5 ns × 8,448 = 58 × 42,240 ns = 2,449,920 ns.
    CHECK(padded_moe_time_per_pass(dsv3(dep8, 5.0, 0.0)).value() == doctest::Approx(2.44992e-3).epsilon(1e-12));
}

TEST_CASE("padded MoE: TEP, no all-to-all, a dense model and c = 0 add nothing") {
    // TEP8 (attention tensor-parallel, dp 1): no all-to-all runs, so no receive buffer.
    CHECK(padded_moe_time_per_pass(dsv3(tep8, 5.0, 16384.0)).value() == 0.0);
    CHECK(decode_pass(dsv3(tep8, 5.0, 16384.0), 64.0, 2000_tok).time() ==
          decode_pass(dsv3(tep8, 0.0, 16384.0), 64.0, 2000_tok).time());
    // c = 0 (every profile but SGLang on CDNA4): nothing, bit for bit.
    CHECK(padded_moe_time_per_pass(dsv3(dep8, 0.0, 16384.0)).value() == 0.0);
    CHECK(catalog::sglang_hopper.moe.padded_moe_block.value() == 0.0);
    CHECK(catalog::trtllm_blackwell.moe.padded_moe_block.value() == 0.0);
    CHECK(catalog::sglang_cdna3.moe.padded_moe_block.value() == 0.0);
    // An engine that all-gathers instead of the all-to-all (`moe_gathers_tokens`): none.
    deployment gather = dsv3(dep8, 5.0, 16384.0);
    gather.engine.collectives.gather_up_to_top_k = true;  // ep 8 ≤ top-k 8
    REQUIRE(moe_gathers_tokens(gather));
    CHECK(padded_moe_time_per_pass(gather).value() == 0.0);
    // A dense model has no MoE layer.
    deployment dense = with_formats({.m = catalog::llama_3_1_70b, .hw = catalog::mi355x, .layout = {.tp = 8}},
                                    formats::fp8, formats::fp8);
    dense.engine = catalog::sglang_cdna4;
    CHECK(padded_moe_time_per_pass(dense).value() == 0.0);
}

TEST_CASE("padded MoE: a DEP8 decode step on MI355X SGLang pays 58 x c x 33,024 more") {
    // The shipped profile's c (tables/engines.csv, fitted 7.504 ns, session 53) with the run's cap 16384: 58 × 33,024 = 1,915,392
    // blocks a step; × 7.504 ns = 14,373,101.568 ns = 14.3731 ms added to the decode step at any batch.
    REQUIRE(catalog::sglang_cdna4.moe.padded_moe_block.value() == doctest::Approx(7.504e-9).epsilon(1e-12));
    deployment with = with_formats({.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = dep8}, formats::fp8,
                                   formats::fp8);
    with.engine = with_dispatch_cap(catalog::sglang_cdna4, 16384.0);
    deployment without = with;
    without.engine.moe.padded_moe_block = seconds(0.0);
    for (double batch : {16.0, 64.0, 256.0}) {
        const double added = decode_pass(with, batch, 1500_tok).time().value() -
                             decode_pass(without, batch, 1500_tok).time().value();
        CHECK(added == doctest::Approx(14.373101568e-3).epsilon(1e-9));
    }
    // A prompt step goes through the same MoE path, so it pays it too (its eager launch may hide part of it behind
    // the host's enqueue, so at most t_pad and more than nothing).
    const double prompt = prefill_pass(with, 4.0, 1024_tok, 0_tok).time().value() -
                          prefill_pass(without, 4.0, 1024_tok, 0_tok).time().value();
    CHECK(prompt > 0.0);
    CHECK(prompt <= 14.373101568e-3 * (1.0 + 1e-9));
}

TEST_CASE("padded MoE: the profile's check, tables/engines.csv's column and the measurement column refuse bad figures") {
    engine_profile e = catalog::sglang_cdna4;
    CHECK(test::validation_message(e).empty());
    e.moe.padded_moe_block = nanoseconds(-1.0);
    CHECK(test::contains(test::validation_message(e), "moe.padded_moe_block (ns) = -1"));
    CHECK(test::contains(test::validation_message(e), "a padded m-block's time must be in [0, 1 us)"));
    e.moe.padded_moe_block = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "moe.padded_moe_block (ns) = nan"));
    e.moe.padded_moe_block = nanoseconds(1000.0);
    CHECK(test::contains(test::validation_message(e), "moe.padded_moe_block (ns) = 1000"));
    e = catalog::sglang_cdna4;
    e.moe.dispatch_cap_tokens = 0.5;
    CHECK(test::contains(test::validation_message(e), "moe.dispatch_cap_tokens = 0.5"));
    CHECK(test::contains(test::validation_message(e), "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK"));
    CHECK_THROWS_AS((void)with_dispatch_cap(catalog::sglang_cdna4, -3.0), invalid_input);
    CHECK(with_dispatch_cap(catalog::sglang_cdna4, 256.0).moe.dispatch_cap() == 256.0);
    CHECK(catalog::sglang_cdna4.moe.dispatch_cap() == 4096.0);  // none given: SGLang's default
    // The engines table's column, in ns, found by name: a table without it loads 0; a bad cell names the column.
    CHECK(test::engine_column_optional("padded_moe_block_ns"));
    CHECK(test::engine_column_index("v0_output_token_us") < test::engine_column_index("padded_moe_block_ns"));
    CHECK(io::detail::engines_csv::column_for("moe.padded_moe_block (ns)") == "padded_moe_block_ns");
    const std::string base = "Mine,sglang,cdna4,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,16384,1,16384,0.875,1,1,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + base + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].moe.padded_moe_block.value() == 0.0);
    const std::string with = test::engine_table_columns() + ",padded_moe_block_ns,source\n";
    const auto mine = io::parse_engines_csv(with + base + ",7.25,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].moe.padded_moe_block.value() == doctest::Approx(7.25e-9).epsilon(1e-15));
    for (const auto& cell : {std::pair{"-3", "must not be negative"}, std::pair{"nan", "expected a finite number"},
                             std::pair{"1500", "a padded m-block's time must be in [0, 1 us)"}}) {
        const std::string bad = cell.first, rule = cell.second;
        const std::string m = test::message_of([&] { return io::parse_engines_csv(with + base + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, std::string("\"padded_moe_block_ns\" = \"") + bad + "\""));
        CHECK(test::contains(m, rule));
    }
    // The measurements table's column: a whole number of tokens, carried onto the row's engine; else refused by name.
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,a2a_dispatch_cap_tokens\n";
    auto row = [](const std::string& cap) {
        return "A,check,DeepSeek-V3,MI355X,sglang,0.5.6,1,1,8,8,fp8,fp8,fixed_batch,,,,,64,1024,1024,tpot_s,0.04,s,"
               "synthetic," + cap + "\n";
    };
    const auto ok = io::parse_measurements_csv(header + row("16384"), "m.csv");
    REQUIRE(ok.size() == 1);
    REQUIRE(ok[0].a2a_dispatch_cap_tokens);
    CHECK(*ok[0].a2a_dispatch_cap_tokens == 16384.0);
    CHECK(plan::with_own_engine(ok[0]).d.engine.moe.dispatch_cap() == 16384.0);
    CHECK_FALSE(io::parse_measurements_csv(header + row(""), "m.csv")[0].a2a_dispatch_cap_tokens);
    for (const char* bad : {"0", "12.5", "-4", "2000000"}) {
        const std::string m = test::message_of([&] { return io::parse_measurements_csv(header + row(bad), "m.csv"); });
        CHECK(test::contains(m, "a2a_dispatch_cap_tokens"));
        CHECK(test::contains(m, "m.csv:2"));
    }
}

// Uniform expert routing (SGLang --ep-dispatch-algorithm fake on its all-to-all path, docs/mi355x-prefill.md §8), by
// hand: DeepSeek-V3 on DEP8, one prompt of T = 7,373 tokens, k = 8: N = T·k = 58,984 picks, each on a rank with
// p = 1/8, so a rank's count is Binomial(58,984, 1/8): σ²/μ² = (1 − 1/8) · 8 ÷ 58,984 = 7 ÷ 58,984 = 1.186763e-4,
// σ/μ = 0.01089386; z = √(2 ln 8) = √4.158883 = 2.039334: I = 1 + 2.039334 · 0.01089386 = 1.022216.
// The model's router (c = 1.28 over E = 256): + 1.28² · 8 ÷ 256 = 0.0512 under the root, √0.05131868 = 0.2265363,
// I = 1 + 2.039334 · 0.2265363 = 1.461983.
TEST_CASE("expert routing: uniform random experts leave the busiest EP rank only the draw's spread, hand-worked") {
    deployment d = dsv3({.tp = 1, .ep = 8, .dp = 8}, 0.0, 0.0);
    const double picks = 7373.0 * 8.0;
    const pass_model routed = prepare_pass(d);
    CHECK(routed.routing_skew == 1.28);
    CHECK(detail::ep_imbalance(routed, picks) == doctest::Approx(1.461983).epsilon(1e-6));
    d.engine = with_expert_routing(d.engine, expert_routing::uniform);
    const pass_model uniform = prepare_pass(d);
    CHECK(uniform.routing_skew == 0.0);
    CHECK(routing_cv(d.m, d.engine) == 0.0);
    CHECK(detail::ep_imbalance(uniform, picks) == doctest::Approx(1.022216).epsilon(1e-6));
    // Uniform routing overrides a balancer's stated skew too (the router's logits are not read at all).
    d.engine.moe.load_balancing = true;
    d.engine.moe.routing_skew = 0.1;
    CHECK(routing_cv(d.m, d.engine) == 0.0);
    d.engine = with_expert_routing(d.engine, expert_routing::model);
    CHECK(routing_cv(d.m, d.engine) == 0.1);
    // The prefill pass prices less under uniform routing: its expert GEMMs and all-to-all wait for a lighter rank.
    const deployment m = dsv3({.tp = 1, .ep = 8, .dp = 8}, 0.0, 0.0);
    deployment u = m;
    u.engine = with_expert_routing(u.engine, expert_routing::uniform);
    CHECK(prefill_pass(u, 1.0, 7373_tok, 0_tok).time().value() < prefill_pass(m, 1.0, 7373_tok, 0_tok).time().value());
    // The measurements table's column: read by name, carried onto the row's engine; a bad word refused by name.
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,expert_routing\n";
    auto row = [](const std::string& routing) {
        return (routing.empty() ? std::string("E") : routing) +
               ",check,DeepSeek-V3,MI355X,sglang,0.5.6,1,1,8,8,fp8,fp8,fixed_batch,,,,,64,1024,1024,tpot_s,0.04,s,"
               "synthetic," + routing + "\n";
    };
    const auto rows = io::parse_measurements_csv(header + row("uniform") + row("model") + row(""), "m.csv");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].routing == expert_routing::uniform);
    CHECK(plan::with_own_engine(rows[0]).d.engine.moe.routing == expert_routing::uniform);
    CHECK(prepare_pass(plan::as_run(plan::with_own_engine(rows[0]))).routing_skew == 0.0);
    CHECK(prepare_pass(plan::as_run(plan::with_own_engine(rows[1]))).routing_skew == 1.28);
    CHECK(rows[2].routing == expert_routing::model);
    const std::string bad = test::message_of([&] { return io::parse_measurements_csv(header + row("fake"), "m.csv"); });
    CHECK(test::contains(bad, "m.csv:2:25"));
    CHECK(test::contains(bad, "expert_routing"));
    CHECK(test::contains(bad, "\"fake\""));
    CHECK(test::contains(bad, "model (the model's router, the default) or uniform"));
    // `uniform` where the fake dispatch cannot reach the experts' choice is refused by name: a TEP layout (dp 1),
    // another engine, a dense model; `model` stays accepted there.
    auto row_on = [](const std::string& engine, const std::string& model, const std::string& layout) {
        return "U," "check," + model + ",MI355X," + engine + ",0.5.6," + layout +
               ",fp8,fp8,fixed_batch,,,,,64,1024,1024,tpot_s,0.04,s,synthetic,uniform\n";
    };
    for (const std::string& r : {row_on("sglang", "DeepSeek-V3", "8,1,8,1"), row_on("vllm", "DeepSeek-V3", "1,1,8,8"),
                                 row_on("sglang", "Llama-3.1-70B", "1,1,1,8")}) {
        const std::string refused = test::message_of([&] { return io::parse_measurements_csv(header + r, "m.csv"); });
        CHECK(test::contains(refused, "m.csv:2:25"));
        CHECK(test::contains(refused, "uniform only on an SGLang row of a model with routed experts"));
        CHECK(test::contains(refused, "[llmcost.engine.expert_routing]"));
    }
}

TEST_CASE("padded MoE: the fast paths price the padded step to the last bit (step_time, decode_steps)") {
    // s48p's time-only paths read the same step formula, so t_pad (in the pass model's overhead) reaches them
    // exactly: a step's time alone equals the typed step's, and the closed-form decode sum's first step is the
    // decode pass at that context, bit for bit (==, not Approx), with the pad on and off.
    deployment d = with_formats({.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = dep8}, formats::fp8,
                                formats::fp8);
    d.engine = with_dispatch_cap(catalog::sglang_cdna4, 16384.0);
    deployment off = d;
    off.engine.moe.padded_moe_block = seconds(0.0);
    for (const deployment* x : {&d, &off}) {
        const pass_model pm = prepare_pass(*x);
        for (double batch : {1.0, 16.0, 64.0}) {
            const step_shape s{.decode_sequences = batch, .decode_context = 1500_tok};
            CHECK(step_time(pm, s).value() == step_pass(pm, s).time().value());
            const decode_sum sum = decode_steps(pm, batch, 1500_tok, 8.0);
            CHECK(sum.first_step.value() == decode_pass(pm, batch, 1500_tok).time().value());
        }
    }
    // And the difference between the two is the pad itself on both paths (14.3731 ms, as above).
    const step_shape s{.decode_sequences = 16.0, .decode_context = 1500_tok};
    CHECK(step_time(prepare_pass(d), s).value() - step_time(prepare_pass(off), s).value() ==
          doctest::Approx(14.373101568e-3).epsilon(1e-9));
}

TEST_CASE("padded MoE: its own term of the pass, printed on its own line, not a launch and not an idle poll's") {
    // DEP8, c = 5 ns, C = 16384: t_pad = 58 × 5 ns × 33,024 = 9.57696 ms (by hand above). The launches are the same
    // with and without it (c = 0): the grid is its own term, "MoE padded buffer", bound by the grid.
    const deployment with = dsv3(dep8, 5.0, 16384.0), without = dsv3(dep8, 0.0, 16384.0);
    const pass_cost p = decode_pass(with, 64.0, 2000_tok), q = decode_pass(without, 64.0, 2000_tok);
    CHECK(p.padded_moe_time.value() == doctest::Approx(9.57696e-3).epsilon(1e-12));
    CHECK(q.padded_moe_time.value() == 0.0);
    CHECK(p.overhead_time == q.overhead_time);
    CHECK(p.time().value() - q.time().value() == doctest::Approx(9.57696e-3).epsilon(1e-9));
    CHECK(p.kernel_time().value() - q.kernel_time().value() == doctest::Approx(9.57696e-3).epsilon(1e-9));
    const auto rows = explain(p);
    REQUIRE(rows.size() == 8);
    CHECK(rows[3].kernel == "kernel launches");
    CHECK(rows[3].time == q.overhead_time);
    CHECK(rows[4].kernel == "MoE padded buffer");
    CHECK(rows[4].time.value() == doctest::Approx(9.57696e-3).epsilon(1e-12));
    CHECK(to_text(rows[4].limited_by) == "grid");
    double sum = 0;
    for (const kernel_class_cost& k : rows) sum += k.time.value();
    CHECK(sum == doctest::Approx(p.time().value()).epsilon(1e-12));
    // A prompt step: the same grid on its own line (the eager launch's wait, if any, stays in the launches).
    CHECK(prefill_pass(with, 4.0, 1024_tok, 0_tok).padded_moe_time.value() == doctest::Approx(9.57696e-3).epsilon(1e-12));
    // The pass model: the per-pass launch overhead an idle prefill instance polls at (`plan` with percentile targets)
    // does not hold the grid; it is the pass model's own figure.
    const pass_model pm = prepare_pass(with), pn = prepare_pass(without);
    CHECK(pm.overhead == pn.overhead);
    CHECK(pm.padded_moe.value() == doctest::Approx(9.57696e-3).epsilon(1e-12));
    CHECK(pn.padded_moe.value() == 0.0);
}
