// Sweeps, frontiers and plans (plan/sweep.hpp, plan/frontier.hpp, plan/fleet.hpp). The sweep's
// vectorised figures must equal the scalar formulas bit for bit — `serve_at_batch` for colocated
// points, `disaggregated_goodput`'s formulas for disaggregated ones — so every comparison with the
// scalar path below is `==` on the doubles, across dense and MoE models, sliding windows, MLA,
// expert formats, TP, PP, EP and number formats. Frontier and plan cases are small enough to check
// by hand.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/frontier.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/plan/layouts.hpp>
#include <llmcost/plan/sweep.hpp>

#include <doctest/doctest.h>

#include <limits>

#include "test_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// Points whose figures differ from the scalar formulas (the first few are reported); `priced`
/// counts the points compared.
std::size_t mismatches(const plan::sweep_result& s, std::size_t* priced = nullptr) {
    std::size_t bad = 0, compared = 0;
    auto same = [&](double a, double b, const char* what, Eigen::Index i) {
        if (a == b) return;
        if (bad++ < 5) {
            const plan::sweep_point p = s.point(i);
            MESSAGE(what << " at point " << i << " (" << p.block->d.hw.name << ", tp " << p.block->d.layout.tp << ", pp "
                         << p.block->d.layout.pp << ", ep " << p.block->d.layout.ep << ", dp " << p.block->d.layout.dp
                         << ", batch " << p.batch << ", " << p.shape.input.value() << " -> " << p.shape.output.value()
                         << "): scalar " << a << ", sweep " << b);
        }
    };
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const plan::sweep_point p = s.point(i);
        if (p.status == plan::point_status::invalid_deployment) continue;
        ++compared;
        const deployment& d = p.block->d;
        if (p.block->status == plan::point_status::ok) {  // the block's KV room: the engine's own admission, per shape
            const std::size_t batches = s.grid.batches.size();
            const std::size_t shape = static_cast<std::size_t>(i) % (s.grid.shapes.size() * batches) / batches;
            same(admissible_batch(d, p.shape, with_engine_admission(s.grid.limits, d.engine)).batch,
                 p.block->max_batch[shape], "max batch", i);
        }
        if (!p.block->how.disaggregated) {
            serving_point r = serve_at_batch(d, p.shape, p.batch, s.grid.limits);
            if (const speculative_decoding& sd = s.grid.speculation; sd.enabled())  // as estimate prices it
                r = speculative_serving_point(
                    r, p.shape, sd.step_for(d, p.batch / d.layout.pp, mean_decode_context(p.shape)), sd.acceptance,
                    s.grid.limits);
            same(r.tpot.value(), p.tpot.value(), "tpot", i);
            same(r.ttft.value(), p.ttft.value(), "ttft", i);
            same(r.e2e.value(), p.e2e.value(), "e2e", i);
            same(r.output_rate_per_gpu.value(), p.output_rate_per_gpu.value(), "output/s per GPU", i);
            same(r.per_user.value(), p.per_user.value(), "tokens/s per user", i);
            same(r.output_rate_per_gpu.value() / p.shape.output.value(), p.requests_per_second_per_gpu, "goodput", i);
        } else {
            // disaggregated_goodput's formulas at this decode batch and prefill batch: the prefill pool
            // computes the uncached tokens after the cached ones; the decode pool's step, speculating,
            // lasts Δ longer and yields E tokens: TPOT (t + Δ) ÷ E, the first step t + Δ.
            const double pb = p.block->how.prefill_batch, out = p.shape.output.value();
            const tokens_t context = p.shape.input + p.shape.output / 2.0;
            const seconds_t step = decode_pass(d, p.batch / d.layout.pp, context).time();
            seconds_t tpot = step, first = step;
            if (const speculative_decoding& sd = s.grid.speculation; sd.enabled()) {
                const speculative_step st = sd.step_for(d, p.batch / d.layout.pp, context);
                const seconds_t dt = st.time() - st.plain_time;
                tpot = (step + dt) / expected_tokens_per_pass(sd.acceptance, sd.draft_tokens);
                first = step + dt;
            }
            const tokens_t fresh = p.shape.computed();
            const seconds_t pre = prefill_pass(d, pb, fresh, p.shape.input - fresh).time();
            // The client's TTFT: the prefill pool's pass and transfer, its engine's front end F, the first step.
            const seconds_t ttft =
                pre + kv_transfer_for(d, p.shape.input, p.block->how.path).time + d.engine.overheads.request + first;
            const double prefill_s = pre.value() / (pb * d.attention_ranks());
            const double decode_s = out * tpot.value() / (p.batch * d.attention_ranks());
            const double goodput = 1.0 / (prefill_s * d.instance_gpus() + decode_s * d.instance_gpus());
            same(tpot.value(), p.tpot.value(), "tpot", i);
            same(ttft.value(), p.ttft.value(), "ttft", i);
            same(ttft.value() + tpot.value() * (out - 1.0), p.e2e.value(), "e2e", i);
            same(1.0 / tpot.value(), p.per_user.value(), "tokens/s per user", i);
            same(prefill_s / decode_s, p.prefill_per_decode, "P:D", i);
            same(goodput, p.requests_per_second_per_gpu, "goodput", i);
            same(goodput * out, p.output_rate_per_gpu.value(), "output/s per GPU", i);
        }
    }
    if (priced) *priced = compared;
    return bad;
}

const std::vector<request_shape> shapes{{.input = 1000_tok, .output = 200_tok},
                                        {.input = 37_tok, .output = 1_tok},
                                        {.input = 3000_tok, .output = 777_tok}};
// Around the GEMM tiles (8-row steps below 64, 64-row tiles above), and fractional batches.
const std::vector<double> batches{1, 1.5, 2, 7, 8, 9, 31, 63, 64, 65, 100, 257};

model with_max_position(model m, int tokens) {
    m.max_position = tokens;
    return m;
}

}  // namespace

TEST_CASE("sweep: every figure equals the scalar formulas to the last bit") {
    SUBCASE("dense: GPUs x formats x TP/PP x colocated and disaggregated") {
        const plan::sweep_grid g{
            .m = catalog::llama_3_1_70b,
            .gpus = {catalog::h100_sxm5, catalog::b200_hgx, catalog::mi300x},
            .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}, {.weights = formats::nvfp4, .kv = formats::fp8},
                        {.kv = formats::fp8}},
            // TP2 PP8: one of the seven hand-offs leaves the 8-GPU domain (`pipeline_crossings`), the rest stay.
            .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 8}, {.tp = 4, .pp = 2}, {.tp = 2, .pp = 8}},
            .modes = {{}, {.disaggregated = true, .prefill_batch = 3}},
            .shapes = shapes,
            .batches = batches};
        const plan::sweep_result s = plan::sweep(g);
        CHECK(s.size() == static_cast<Eigen::Index>(g.size()));
        std::size_t priced = 0;
        CHECK(mismatches(s, &priced) == 0);
        CHECK(priced == g.size());  // every one of these deployments can be priced
    }
    SUBCASE("chunked prefill: prompts split into steps, dense and MoE") {
        // 1000 → 4 chunks of 250, 37 → whole, 3000 → 12 chunks of 250: chunk counts, prefixes and
        // the mixture of ⌊q⌋ and ⌈q⌉ chunks per step, lane by lane.
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b}) {
            const plan::sweep_grid g{.m = m,
                                     .gpus = {catalog::h100_sxm5},
                                     .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
                                     .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 2, .pp = 2}},
                                     .modes = {{}},
                                     .shapes = shapes,
                                     .batches = batches,
                                     .limits = {.prefill_chunk = 256_tok}};
            CHECK(mismatches(plan::sweep(g)) == 0);
        }
    }
    SUBCASE("prefix hits: the prompt computed after a cached prefix, whole and chunked, dense and MoE") {
        // h = 0.5: 1000 → 500 computed after 500 cached; 37 → 18.5 after 18.5 (the formula's
        // tokens, fractional as the scalar path has them); 3000 at h = 0.9 → 300 after 2700;
        // 1000 at h = 0.999 → max(1, 1) = the one token a full hit still computes.
        const std::vector<request_shape> hit{{.input = 1000_tok, .output = 200_tok, .cached_fraction = 0.5},
                                             {.input = 37_tok, .output = 1_tok, .cached_fraction = 0.5},
                                             {.input = 3000_tok, .output = 777_tok, .cached_fraction = 0.9},
                                             {.input = 1000_tok, .output = 200_tok, .cached_fraction = 0.999}};
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b})
            for (const tokens_t& chunk : {0_tok, 256_tok}) {
                const plan::sweep_grid g{.m = m,
                                         .gpus = {catalog::h100_sxm5},
                                         .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
                                         .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 2, .pp = 2}},
                                         .modes = {{}},
                                         .shapes = hit,
                                         .batches = batches,
                                         .limits = {.prefill_chunk = chunk}};
                std::size_t priced = 0;
                CHECK(mismatches(plan::sweep(g), &priced) == 0);
                CHECK(priced == g.size());
            }
        // A hit shortens the first token and never lengthens it (the same deployment, batch 8).
        const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
        CHECK(serve_at_batch(d, hit[0], 8).ttft < serve_at_batch(d, shapes[0], 8).ttft);
        // A disaggregated mode's prefill pool prices the hit: the uncached tokens, the whole KV sent.
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b}) {
            const plan::sweep_grid dis{.m = m, .gpus = {catalog::h100_sxm5},
                                       .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 2, .pp = 2}},
                                       .modes = {{.disaggregated = true}, {.disaggregated = true, .prefill_batch = 4,
                                                                           .path = kv_path::scale_up}},
                                       .shapes = hit, .batches = batches};
            std::size_t priced = 0;
            CHECK(mismatches(plan::sweep(dis), &priced) == 0);
            CHECK(priced == dis.size());
        }
        // Disaggregated too, a hit shortens the first token: 500 tokens prefilled instead of 1000.
        const plan::sweep_grid whole{.m = catalog::llama_3_1_8b, .gpus = {catalog::h100_sxm5},
                                     .modes = {{.disaggregated = true}}, .shapes = {shapes[0]}, .batches = {8}};
        plan::sweep_grid half = whole;
        half.shapes = {hit[0]};
        CHECK(plan::sweep(half).ttft_s(0) < plan::sweep(whole).ttft_s(0));
        CHECK(plan::sweep(half).tpot_s(0) == plan::sweep(whole).tpot_s(0));  // the decode pool is untouched
    }
    SUBCASE("speculative decoding: an EAGLE head (dense, MoE, chunked, prefix hits) and an MTP module") {
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b})
            for (const tokens_t& chunk : {0_tok, 256_tok}) {
                plan::sweep_grid g{.m = m,
                                   .gpus = {catalog::h100_sxm5},
                                   .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
                                   .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 2, .pp = 2}},
                                   .modes = {{}},
                                   .shapes = {shapes[0], shapes[1], {.input = 3000_tok, .output = 777_tok, .cached_fraction = 0.9}},
                                   .batches = batches,
                                   .limits = {.prefill_chunk = chunk}};
                g.speculation = {.acceptance = 0.7, .draft_tokens = 3, .head = eagle_draft_head(m), .draft = {}};
                std::size_t priced = 0;
                CHECK(mismatches(plan::sweep(g), &priced) == 0);
                CHECK(priced == g.size());
            }
        plan::sweep_grid ds{.m = catalog::deepseek_v3, .gpus = {catalog::h200_sxm},
                            .layouts = {{.tp = 8, .ep = 8}, {.tp = 1, .ep = 8, .dp = 8}}, .modes = {{}},
                            .shapes = {shapes[0]}, .batches = {1, 8, 64}};
        ds.speculation = {.acceptance = 0.85, .draft_tokens = 1, .head = mtp_draft_head(catalog::deepseek_v3), .draft = {}};
        CHECK(mismatches(plan::sweep(ds)) == 0);
        // Speculation at α = 0.85 beats plain decoding per user at batch 1 (one MTP draft: E = 1.85).
        plan::sweep_grid plain = ds;
        plain.speculation = {};
        CHECK(plan::sweep(ds).tpot_s(0) < plan::sweep(plain).tpot_s(0));
        // Disaggregated: the decode pool speculates (dense, MoE, prefix hits in the prefill pool, MTP).
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b}) {
            plan::sweep_grid g{.m = m,
                               .gpus = {catalog::h100_sxm5},
                               .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 2, .pp = 2}},
                               .modes = {{}, {.disaggregated = true}, {.disaggregated = true, .prefill_batch = 3}},
                               .shapes = {shapes[0], shapes[1], {.input = 3000_tok, .output = 777_tok, .cached_fraction = 0.9}},
                               .batches = batches};
            g.speculation = {.acceptance = 0.7, .draft_tokens = 3, .head = eagle_draft_head(m), .draft = {}};
            std::size_t priced = 0;
            CHECK(mismatches(plan::sweep(g), &priced) == 0);
            CHECK(priced == g.size());
        }
        plan::sweep_grid dsd = ds;
        dsd.modes = {{.disaggregated = true}};
        CHECK(mismatches(plan::sweep(dsd)) == 0);
        plan::sweep_grid dsd_plain = dsd;
        dsd_plain.speculation = {};
        CHECK(plan::sweep(dsd).tpot_s(0) < plan::sweep(dsd_plain).tpot_s(0));  // faster per user in the decode pool
        CHECK(plan::sweep(dsd).ttft_s(0) > plan::sweep(dsd_plain).ttft_s(0));  // the first step drafts and verifies
        // Refused, named: a separate draft model (laid out per deployment).
        plan::sweep_grid bad = ds;
        bad.speculation = {.acceptance = 0.7, .draft_tokens = 3, .head = {},
                           .draft = deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h200_sxm}};
        CHECK(test::contains(test::error_of([&] { return plan::sweep(bad); }), "speculation.draft"));
    }
    SUBCASE("MoE: TP, expert parallel over attention-DP ranks, pipeline") {
        const plan::sweep_grid g{
            .m = catalog::mixtral_8x7b,
            .gpus = {catalog::h100_sxm5, catalog::gb200_nvl72},
            .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
            .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 1, .ep = 8, .dp = 8}, {.tp = 2, .ep = 4, .dp = 2},
                        {.tp = 2, .ep = 2}, {.tp = 2, .pp = 2}, {.tp = 4, .ep = 8, .dp = 4}},
            .modes = {{}, {.disaggregated = true, .prefill_batch = 2, .path = kv_path::scale_up}},
            .shapes = shapes,
            .batches = batches};
        CHECK(mismatches(plan::sweep(g)) == 0);
    }
    SUBCASE("engines: launch and step costs, custom all-reduce, all-to-all floor, busiest rank, MLA decode") {
        // Every engine figure the pass reads, lane by lane: vLLM on Hopper (custom all-reduce up to
        // 256 KiB, a fitted launch cost, FlashMLA's decode rate), SGLang on CDNA 3 (AMD kernel rates,
        // MORI-EP's all-to-all floor, the busiest-rank EP model) and a profile with host work per step.
        engine_profile hosty = catalog::sglang_hopper;
        hosty.overheads.step = 1.5_ms;
        hosty.moe.load_balancing = true;  // EPLB: the skew the engine leaves (0.4) in place of the model's
        hosty.moe.routing_skew = 0.4;
        hosty.moe.attention_dp_balance = 0.8;  // the busiest attention-DP rank on the DP8 and DP4 layouts
        for (const model& m : {catalog::mixtral_8x7b, catalog::deepseek_v3}) {
            const plan::sweep_grid g{
                .m = m,
                .gpus = {catalog::h200_sxm, catalog::mi300x, catalog::h100_sxm5},
                .engines = {catalog::vllm_hopper, catalog::sglang_cdna3, hosty},
                .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                // EP16 over DP16 spans two 8-GPU domains: the all-to-all's on-node and off-node shares; PP2 over EP8·DP8
                // stages hands off across the domain edge.
                .layouts = {{.tp = 8}, {.tp = 1, .ep = 8, .dp = 8}, {.tp = 2, .ep = 8, .dp = 4}, {.tp = 1, .ep = 16, .dp = 16},
                            {.tp = 1, .pp = 2, .ep = 8, .dp = 8}},  // EP stages of tp·dp = 8 GPUs: one crossing boundary
                .modes = {{}, {.disaggregated = true, .prefill_batch = 2}},
                .shapes = shapes,
                .batches = batches,
                .limits = {.prefill_chunk = 512_tok}};
            std::size_t priced = 0;
            CHECK(mismatches(plan::sweep(g), &priced) == 0);
            CHECK(priced > g.size() / 4);  // most of these deployments price (the rest break a layout rule)
        }
    }
    SUBCASE("vLLM on Hopper's 256-row FP8 units: the colocated lanes price the steps' window of rows, as serve_at_batch") {
        // Llama-3.1-70B FP8 on H200 (T = 256), batches on both sides of 768 and 1,024 step tokens at 179 → 296
        // (410 → 411: the 2-prompt step goes 768 → 769 tokens), windows from ~0 (b = 1) to ~800 tokens, lanes that
        // straddle a whole prompt; the disaggregated lanes keep the exact rows.
        const plan::sweep_grid g{.m = catalog::llama_3_1_70b,
                                 .gpus = {catalog::h200_sxm, catalog::h100_sxm5},
                                 .engines = {catalog::vllm_hopper, catalog::vllm_hopper},
                                 .formats = {{.weights = formats::fp8}},
                                 .layouts = {{.tp = 1}, {.tp = 2}},
                                 .modes = {{}, {.disaggregated = true, .prefill_batch = 2}},
                                 .shapes = {{.input = 179_tok, .output = 296_tok}, shapes[0]},
                                 .batches = {1, 64, 65, 129, 255, 256, 257, 295, 296, 297, 300, 409, 410, 411, 412, 500, 592}};
        std::size_t priced = 0;
        CHECK(mismatches(plan::sweep(g), &priced) == 0);
        CHECK(priced == g.size());
        REQUIRE(prepare_pass(plan::sweep(g).blocks[0].d).dense_fp8_tile_rows == 256.0);
    }
    SUBCASE("TensorRT-LLM on Blackwell under attention DP: all-gather + reduce-scatter at EP <= top-k, all-to-all above") {
        // gpt-oss-120b (top-4): EP2·DP2 and EP4·DP4 gather (MXFP8 W4A8 hidden states), EP8·DP8 runs the
        // all-to-all; DeepSeek-V3 (top-8) at EP8·DP8 and EP8 over TP2 x DP4 gathers (docs/trtllm-moe-comm.md).
        for (const model& m : {catalog::gpt_oss_120b, catalog::deepseek_v3}) {
            const plan::sweep_grid g{.m = m,
                                     .gpus = {catalog::b200_hgx, catalog::gb200_nvl72},
                                     .engines = {catalog::trtllm_blackwell, catalog::trtllm_blackwell},
                                     .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                                     .layouts = {{.tp = 1, .ep = 2, .dp = 2}, {.tp = 1, .ep = 4, .dp = 4},
                                                 {.tp = 1, .ep = 8, .dp = 8}, {.tp = 2, .ep = 8, .dp = 4}},
                                     .modes = {{}, {.disaggregated = true, .prefill_batch = 2}},
                                     .shapes = shapes,
                                     .batches = batches,
                                     .limits = {.prefill_chunk = 512_tok}};
            std::size_t priced = 0;
            CHECK(mismatches(plan::sweep(g), &priced) == 0);
            CHECK(priced > 0);
        }
    }
    SUBCASE("a launch's KV memory fraction (with_kv_memory_fraction): each engine's rule, KV-bound batches") {
        // The pool sets the admissible batch and the weights' fit: vLLM at 0.5 (f·H − W − X), SGLang at 0.3
        // (f·H − W: 70B in FP8 no longer fits TP 1), TensorRT-LLM at 0.6 (f·(H − W − X)) and the reference at 0.4.
        for (const engine_profile& e : {with_kv_memory_fraction(engine_profile::reference(), 0.4),
                                        with_kv_memory_fraction(catalog::vllm_hopper, 0.5),
                                        with_kv_memory_fraction(catalog::sglang_hopper, 0.3),
                                        with_kv_memory_fraction(catalog::trtllm_hopper, 0.6)}) {
            const plan::sweep_grid g{.m = catalog::llama_3_1_70b,
                                     .gpus = {catalog::h100_sxm5},
                                     .engines = {e},
                                     .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                                     .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 4}},
                                     .modes = {{}},
                                     .shapes = shapes,
                                     .batches = {1, 8, 64, 512, 4096}};
            CHECK(mismatches(plan::sweep(g)) == 0);
        }
    }
    SUBCASE("TensorRT-LLM on Blackwell: two attention kernels and the prompt kernel's curve e(s̄, W) (B95)") {
        // FP8 KV on a head_dim-128 model, the curve's class: the lanes' s̄ and W (chunked prompts after a
        // prefix included) and the lanes without prompts (the curve's guards) against the scalar pass.
        const plan::sweep_grid g{.m = catalog::llama_3_1_70b,
                                 .gpus = {catalog::b200_hgx, catalog::gb200_nvl72},
                                 .engines = {catalog::trtllm_blackwell, catalog::trtllm_blackwell},
                                 .formats = {{.weights = formats::fp8, .kv = formats::fp8},
                                             {.weights = formats::nvfp4, .kv = formats::fp8}},
                                 .layouts = {{.tp = 1}, {.tp = 4}, {.tp = 8}},
                                 .modes = {{}, {.disaggregated = true, .prefill_batch = 2}},
                                 .shapes = shapes,
                                 .batches = batches,
                                 .limits = {.prefill_chunk = 512_tok}};
        REQUIRE(prepare_pass({.m = [] {
                                  model m = catalog::llama_3_1_70b;
                                  m.kv_cache = formats::fp8;
                                  return m;
                              }(),
                              .hw = catalog::b200_hgx, .layout = {.tp = 8}, .engine = catalog::trtllm_blackwell})
                    .prompt_attention_curve);
        std::size_t priced = 0;
        CHECK(mismatches(plan::sweep(g), &priced) == 0);
        CHECK(priced > 0);
    }
    SUBCASE("MLA and dense first layers (DeepSeek-V3), windows, sinks and MXFP4 experts (gpt-oss)") {
        const plan::sweep_grid v3{.m = catalog::deepseek_v3,
                                  .gpus = {catalog::h200_sxm, catalog::b200_hgx},
                                  .layouts = {{.tp = 8}, {.tp = 1, .ep = 8, .dp = 8}, {.tp = 8, .pp = 2}},
                                  .modes = {{}, {.disaggregated = true}},
                                  .shapes = shapes,
                                  .batches = batches};
        CHECK(mismatches(plan::sweep(v3)) == 0);
        const plan::sweep_grid oss{.m = catalog::gpt_oss_120b,
                                   .gpus = {catalog::h100_sxm5, catalog::b200_hgx},
                                   .formats = {{}, {.weights = formats::fp8}},
                                   .layouts = {{.tp = 1}, {.tp = 4}, {.tp = 2, .ep = 8, .dp = 4}},
                                   .shapes = {{.input = 100_tok, .output = 20_tok}, {.input = 5000_tok, .output = 300_tok}},
                                   .batches = batches};
        CHECK(mismatches(plan::sweep(oss)) == 0);
        const plan::sweep_grid qwen{.m = catalog::qwen3_235b_a22b,
                                    .gpus = {catalog::mi355x},
                                    .layouts = {{.tp = 4}, {.tp = 1, .ep = 4, .dp = 4}},
                                    .shapes = shapes,
                                    .batches = batches};
        CHECK(mismatches(plan::sweep(qwen)) == 0);
    }
    SUBCASE("consecutive batches: the lanes that straddle a chunk boundary are priced one by one") {
        // q' = (b − 1)·k ÷ O falls one whole chunk below q = b·k ÷ O in one lane of a block here and
        // there (b = 64, 128 … for O = 64): those lanes price t(⌊q'⌋) alone; with O = 3 most lanes of
        // a block straddle and the whole lane is priced. Both must be the scalar figures.
        std::vector<double> consecutive;
        for (int b = 1; b <= 300; ++b) consecutive.push_back(b);
        for (const model& m : {catalog::llama_3_1_8b, catalog::mixtral_8x7b}) {
            const plan::sweep_grid g{.m = m,
                                     .gpus = {catalog::h100_sxm5},
                                     .layouts = {{.tp = 1}, {.tp = 2, .pp = 2}},
                                     .shapes = {{.input = 2000_tok, .output = 64_tok},
                                                {.input = 500_tok, .output = 3_tok},
                                                {.input = 9000_tok, .output = 1000_tok}},
                                     .batches = consecutive,
                                     .limits = {.prefill_chunk = 1024_tok}};
            CHECK(mismatches(plan::sweep(g)) == 0);
        }
    }
    SUBCASE("a second colocated mode of one deployment repeats the first's figures") {
        const plan::sweep_grid g{.m = catalog::llama_3_1_8b, .gpus = {catalog::h100_sxm5},
                                 .modes = {{}, {.disaggregated = true}, {}}, .shapes = shapes, .batches = batches};
        const plan::sweep_result s = plan::sweep(g);
        CHECK(mismatches(s) == 0);
        const Eigen::Index n = s.points_per_block();
        CHECK((s.tpot_s.segment(0, n) == s.tpot_s.segment(2 * n, n)).all());
        CHECK((s.ttft_s.segment(0, n) == s.ttft_s.segment(2 * n, n)).all());
    }
}

TEST_CASE("sweep: the points colocated_goodput and disaggregated_goodput choose, exactly") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const request_shape r{.input = 4000_tok, .output = 300_tok};
    const slo target{.ttft = 1_s, .tpot = 50_ms};
    const goodput_plan co = colocated_goodput(d, r, target);
    const goodput_plan dis = disaggregated_goodput(d, d, r, target, kv_path::scale_out);
    REQUIRE(co.feasible);
    REQUIRE(dis.feasible);
    const plan::sweep_result s = plan::sweep(
        {.m = d.m, .gpus = {d.hw}, .layouts = {d.layout},
         .modes = {{}, {.disaggregated = true, .prefill_batch = dis.prefill_batch}},
         .shapes = {r}, .batches = {co.decode_batch, dis.decode_batch}});
    const Eigen::Index c = s.index(0, 0, 0), x = s.index(1, 0, 1);
    CHECK(s.ttft_s(c) == co.ttft.value());
    CHECK(s.tpot_s(c) == co.tpot.value());
    CHECK(s.requests_per_second_per_gpu(c) == co.requests_per_second_per_gpu);
    CHECK(s.ttft_s(x) == dis.ttft.value());
    CHECK(s.tpot_s(x) == dis.tpot.value());
    CHECK(s.prefill_per_decode(x) == dis.prefill_instances_per_decode_instance);
    CHECK(s.requests_per_second_per_gpu(x) == dis.requests_per_second_per_gpu);
    CHECK(s.fits(c));
    CHECK(s.fits(x));
    // The largest batch of a whole-number sweep that meets the SLO is the one colocated_goodput finds.
    plan::sweep_grid all{.m = d.m, .gpus = {d.hw}, .layouts = {d.layout}, .shapes = {r}};
    for (double b = 1; b <= co.decode_batch + 20; ++b) all.batches.push_back(b);
    const plan::sweep_result a = plan::sweep(all);
    double largest = 0;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        if (a.fits(i) && a.ttft_s(i) <= 1.0 && a.tpot_s(i) <= 0.05) largest = a.point(i).batch;
    CHECK(largest == co.decode_batch);
}

TEST_CASE("sweep: the points the goodput planners choose with a prefix hit and speculation, exactly") {
    // colocated_goodput and disaggregated_goodput with an EAGLE head (α 0.7, γ 3) and half of
    // each prompt cached: the sweep at their batches gives their figures to the last bit.
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const request_shape r{.input = 4000_tok, .output = 300_tok, .cached_fraction = 0.5};
    const slo target{.ttft = 1_s, .tpot = 50_ms};
    const speculative_decoding sd{.acceptance = 0.7, .draft_tokens = 3, .head = eagle_draft_head(d.m), .draft = {}};
    const goodput_plan co = colocated_goodput(d, r, target, {}, sd);
    const goodput_plan dis = disaggregated_goodput(d, d, r, target, kv_path::scale_out, {}, sd);
    REQUIRE(co.feasible);
    REQUIRE(dis.feasible);
    plan::sweep_grid g{.m = d.m, .gpus = {d.hw}, .layouts = {d.layout},
                       .modes = {{}, {.disaggregated = true, .prefill_batch = dis.prefill_batch}},
                       .shapes = {r}, .batches = {co.decode_batch, dis.decode_batch}};
    g.speculation = sd;
    const plan::sweep_result s = plan::sweep(g);
    const Eigen::Index c = s.index(0, 0, 0), x = s.index(1, 0, 1);
    CHECK(s.ttft_s(c) == co.ttft.value());
    CHECK(s.tpot_s(c) == co.tpot.value());
    CHECK(s.requests_per_second_per_gpu(c) == co.requests_per_second_per_gpu);
    CHECK(s.ttft_s(x) == dis.ttft.value());
    CHECK(s.tpot_s(x) == dis.tpot.value());
    CHECK(s.prefill_per_decode(x) == dis.prefill_instances_per_decode_instance);
    CHECK(s.requests_per_second_per_gpu(x) == dis.requests_per_second_per_gpu);
    // Each pool gains from what it prices: against plain decoding of whole prompts, the hit halves
    // the prefill pool's work per request and speculation cuts TPOT at the same decode batch.
    const request_shape whole{.input = 4000_tok, .output = 300_tok};
    const goodput_plan plain = disaggregated_goodput(d, d, whole, target, kv_path::scale_out);
    REQUIRE(plain.feasible);
    CHECK(dis.requests_per_second_per_gpu > plain.requests_per_second_per_gpu);
    const tokens_t context = mean_decode_context(whole);
    const speculative_step st = sd.step_for(d, 64.0, context);
    const seconds_t t64 = decode_pass(d, 64.0, context).time();
    CHECK(st.plain_time == t64);
    CHECK((t64 + (st.time() - st.plain_time)) / expected_tokens_per_pass(0.7, 3) < t64);  // E = 2.533
}

TEST_CASE("sweep: infeasible points are marked, never dropped") {
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    SUBCASE("a batch beyond the KV cache, at the limit max_batch sets") {
        const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}};
        const batch_limit most = max_batch(d, r);
        const plan::sweep_result s =
            plan::sweep({.m = d.m, .gpus = {d.hw}, .layouts = {d.layout}, .shapes = {r},
                         .batches = {1, most.batch, most.batch + 1, 4 * most.batch}});
        REQUIRE(s.size() == 4);
        CHECK(s.blocks[0].max_batch[0] == most.batch);
        CHECK(s.blocks[0].limited_by[0] == "KV capacity");
        CHECK(s.status(0) == plan::point_status::ok);
        CHECK(s.status(1) == plan::point_status::ok);
        CHECK(s.status(2) == plan::point_status::over_kv_capacity);
        CHECK(s.status(3) == plan::point_status::over_kv_capacity);
        CHECK(s.tpot_s(3) == serve_at_batch(d, r, 4 * most.batch).tpot.value());  // priced all the same
        // The scheduler's caps count too.
        const plan::sweep_result capped = plan::sweep({.m = d.m, .gpus = {d.hw}, .layouts = {d.layout}, .shapes = {r},
                                                       .batches = {16, 17}, .limits = {.max_batch = 16}});
        CHECK(capped.status(0) == plan::point_status::ok);
        CHECK(capped.status(1) == plan::point_status::over_kv_capacity);
        CHECK(capped.blocks[0].limited_by[0] == "max batch");
    }
    SUBCASE("the engine's own admission: vLLM's KV room is the context in use, TensorRT-LLM's the whole sequence") {
        // The same profile (one KV pool) under two admission rules: vLLM admits on the KV in use, I + O/2 =
        // 1,100 tokens a sequence; as TensorRT-LLM it reserves I + O = 1,200. The pool is the same, so the KV
        // room's batches stand about 1,200 : 1,100 (each a floor of pool ÷ per-sequence KV), and the vLLM block
        // is exactly the admission that reserves no whole sequence (docs/online-caps.md §1).
        engine_profile as_trtllm = catalog::vllm_hopper;
        as_trtllm.kind = engine_kind::trtllm;
        const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5, catalog::h100_sxm5},
                                                  .engines = {catalog::vllm_hopper, as_trtllm},
                                                  .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                                                  .layouts = {{.tp = 2}}, .shapes = {r}, .batches = {1}});
        REQUIRE(s.blocks.size() == 2);
        const double in_use = s.blocks[0].max_batch[0], whole = s.blocks[1].max_batch[0];
        CHECK(s.blocks[0].limited_by[0] == "KV capacity");
        CHECK(s.blocks[1].limited_by[0] == "KV capacity");
        CHECK(in_use == admissible_batch(s.blocks[0].d, r, {.reserve_full_sequence = false}).batch);
        CHECK(whole == admissible_batch(s.blocks[1].d, r, {}).batch);
        CHECK(in_use / whole == doctest::Approx(1200.0 / 1100.0).epsilon(0.01));
    }
    SUBCASE("a layout that breaks a rule: NaN figures and the library's message") {
        const plan::sweep_result s = plan::sweep(
            {.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5}, .layouts = {{.tp = 3}, {.tp = 4}}, .shapes = {r},
             .batches = {1, 2}});
        CHECK(s.status(0) == plan::point_status::invalid_deployment);
        CHECK(s.status(1) == plan::point_status::invalid_deployment);
        CHECK(std::isnan(s.tpot_s(0)));
        CHECK(std::isnan(s.point(0).requests_per_second_per_gpu));
        CHECK(test::contains(s.blocks[0].problem, "layout.tp = 3: must divide the query heads"));
        CHECK(s.status(2) == plan::point_status::ok);
    }
    SUBCASE("a GPU without a peak for the model's matmuls") {
        const plan::sweep_result s = plan::sweep(
            {.m = catalog::llama_3_1_8b, .gpus = {catalog::rubin_vr200}, .formats = {{}, {.weights = formats::nvfp4}},
             .shapes = {r}, .batches = {1}});
        CHECK(s.status(0) == plan::point_status::invalid_deployment);
        CHECK(test::contains(s.blocks[0].problem, "no published rate"));
        CHECK(s.status(1) == plan::point_status::ok);
    }
    SUBCASE("weights that do not fit, and contexts beyond the model's maximum") {
        // 405B in BF16 is 810 GB: 101 GB per GPU at tp 8, more than an H100 holds; in FP8 it fits.
        const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_405b, .gpus = {catalog::h100_sxm5},
                                                  .formats = {{}, {.weights = formats::fp8}},
                                                  .layouts = {{.tp = 8}}, .shapes = {r}, .batches = {1}});
        CHECK(s.status(0) == plan::point_status::weights_do_not_fit);
        CHECK(s.blocks[0].max_batch[0] == 0);
        CHECK(test::contains(s.blocks[0].problem, "weights need"));
        CHECK(std::isfinite(s.tpot_s(0)));  // priced all the same
        CHECK(s.status(1) == plan::point_status::ok);
        const model short_context = with_max_position(catalog::llama_3_1_8b, 1100);
        const plan::sweep_result c = plan::sweep({.m = short_context, .gpus = {catalog::h100_sxm5},
                                                  .shapes = {r, {.input = 900_tok, .output = 200_tok}}, .batches = {1}});
        CHECK(c.status(0) == plan::point_status::beyond_max_position);
        CHECK(c.status(1) == plan::point_status::ok);
        plan::sweep_grid anyway = c.grid;
        anyway.ignore_max_position = true;
        CHECK(plan::sweep(anyway).status(0) == plan::point_status::ok);
    }
    SUBCASE("a prompt longer than the step's token cap, unchunked: the status estimate and saturated refuse by") {
        // I = 1,000 prompt tokens under a cap of 500 tokens a step: with no prefill chunk the engine runs the prompt
        // in no step (`prompt_within_step_cap`), so the scalar `saturated` refuses the point, and the sweep marks it;
        // with a chunk of 500 (two chunks a prompt) it is priced; SGLang runs a longer prompt whole as a step's
        // first prompt, so its block is priced too.
        const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}};
        const scheduler_limits unchunked{.max_tokens_per_step = 500}, chunked{.max_tokens_per_step = 500, .prefill_chunk = 500_tok};
        CHECK(test::contains(test::error_of([&] { return saturated(d, r, unchunked); }),
                             "llmcost.serving.prompt_within_step_cap"));
        const plan::sweep_result s = plan::sweep({.m = d.m, .gpus = {d.hw}, .layouts = {d.layout},
                                                  .modes = {{}, {.disaggregated = true}},
                                                  .shapes = {r, {.input = 400_tok, .output = 200_tok}},
                                                  .batches = {1}, .limits = unchunked});
        REQUIRE(s.size() == 4);
        CHECK(s.status(0) == plan::point_status::prompt_above_step_cap);  // colocated, 1,000 > 500
        CHECK(s.status(1) == plan::point_status::ok);                     // 400 ≤ 500
        CHECK(s.status(2) == plan::point_status::prompt_above_step_cap);  // disaggregated: `max_batch` refuses it too
        CHECK(s.status(3) == plan::point_status::ok);
        CHECK(plan::to_string(s.status(0)) == "prompt above step cap");
        CHECK(std::isfinite(s.tpot_s(0)));  // priced all the same, as the other statuses
        plan::sweep_grid in_chunks = s.grid;
        in_chunks.limits = chunked;
        CHECK(plan::sweep(in_chunks).status(0) == plan::point_status::ok);
        CHECK(saturated(d, r, chunked).batch >= 1.0);
        const plan::sweep_result whole = plan::sweep({.m = d.m, .gpus = {d.hw}, .engines = {catalog::sglang_hopper},
                                                      .layouts = {d.layout}, .shapes = {r}, .batches = {1},
                                                      .limits = unchunked});
        CHECK(whole.status(0) == plan::point_status::ok);
    }
    SUBCASE("a malformed grid is refused") {
        CHECK(test::contains(test::error_of([&] { return plan::sweep({.m = catalog::llama_3_1_8b, .shapes = {r}, .batches = {1}}); }),
                             "gpus"));
        CHECK(test::contains(test::error_of([&] {
                                 return plan::sweep({.m = catalog::llama_3_1_8b, .gpus = {catalog::h100_sxm5},
                                                     .shapes = {r}, .batches = {0.5}});
                             }),
                             "batch = 0.5"));
    }
}

TEST_CASE("sweep: grid order, layouts and the ladder") {
    const std::vector<parallel_layout> l = plan::expand({.tp = {1, 2}, .ep = {1, 8}, .dp = {0}});
    REQUIRE(l.size() == 4);
    CHECK(l[0] == parallel_layout{.tp = 1});
    CHECK(l[1] == parallel_layout{.tp = 1, .ep = 8, .dp = 8});  // DEP: dp = ep / tp
    CHECK(l[3] == parallel_layout{.tp = 2, .ep = 8, .dp = 4});
    const std::vector<double> ladder = plan::batch_ladder(600);
    CHECK(ladder[63] == 64);
    CHECK(ladder[64] == 72);
    CHECK(ladder.back() == 576);
    const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_8b, .gpus = {catalog::h100_sxm5, catalog::h200_sxm},
                                              .layouts = {{.tp = 1}, {.tp = 2}},
                                              .shapes = {{.input = 10_tok, .output = 10_tok}, {.input = 20_tok, .output = 10_tok}},
                                              .batches = {1, 2, 3}});
    const Eigen::Index i = s.index(3, 1, 2);  // H200, tp 2, second shape, batch 3
    CHECK(i == 3 * 6 + 1 * 3 + 2);
    CHECK(s.block_of(i) == 3);
    CHECK(s.shape_of(i) == 1);
    CHECK(s.batch_of(i) == 2);
    CHECK(s.point(i).block->d.hw.name == "H200 SXM");
    CHECK(s.point(i).block->d.layout.tp == 2);
    CHECK(s.point(i).batch == 3);
    CHECK(s.point(i).shape.input == 20_tok);
    // Tokens/s per user is 1 ÷ TPOT, point by point or as one array expression.
    CHECK((s.tokens_per_s_per_user() == 1.0 / s.tpot_s).all());
    CHECK(s.tokens_per_s_per_user(i) == s.point(i).per_user.value());
    // Sweeping again into the same result reuses it and gives the same figures.
    plan::sweep_result again = s;
    plan::sweep(s.grid, again);
    CHECK((again.tpot_s == s.tpot_s).all());
}

// ---- frontier ----------------------------------------------------------------------------------

namespace {
/// An H100 that is twice as fast in every respect: every configuration on it beats the H100's.
hardware twice_h100() {
    hardware h = catalog::h100_sxm5;
    h.name = "H100x2";
    h.gpu.hbm_bandwidth = h.gpu.hbm_bandwidth * 2.0;
    h.gpu.dense.bf16 = h.gpu.dense.bf16 * 2.0;
    h.gpu.dense.fp8 = h.gpu.dense.fp8 * 2.0;
    h.gpu.dense.int8 = h.gpu.dense.int8 * 2.0;
    h.gpu.efficiency.kernel_overhead = h.gpu.efficiency.kernel_overhead / 2.0;
    h.scale_up.per_direction = h.scale_up.per_direction * 2.0;
    h.scale_up.latency = h.scale_up.latency / 2.0;
    return h;
}
}  // namespace

TEST_CASE("frontier: a single configuration is its own frontier") {
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5},
                                              .layouts = {{.tp = 8}}, .shapes = {r}, .batches = {16}});
    const std::vector<Eigen::Index> f = plan::frontier(s, {.ttft = 10_s, .tpot = 1_s});
    REQUIRE(f.size() == 1);
    CHECK(f[0] == 0);
    // Failing either target leaves nothing.
    CHECK(plan::frontier(s, {.ttft = 10_s, .tpot = seconds(s.tpot_s(0) * 0.99)}).empty());
    CHECK(plan::frontier(s, {.ttft = seconds(s.ttft_s(0) * 0.99), .tpot = 1_s}).empty());
    CHECK(plan::frontier(s, {.ttft = seconds(s.ttft_s(0)), .tpot = seconds(s.tpot_s(0))}).size() == 1);  // ≤ holds
    CHECK(test::contains(test::error_of([&] { return plan::frontier(s, {.ttft = 1_s, .tpot = 1_s, .every_token = true}); }),
                         "every_token"));
}

TEST_CASE("frontier: a GPU that dominates leaves the other off the frontier") {
    const hardware fast = twice_h100();
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    std::vector<double> b;
    for (double x = 1; x <= 128; x *= 2) b.push_back(x);
    const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5, fast},
                                              .layouts = {{.tp = 4}, {.tp = 8}}, .shapes = {r}, .batches = b});
    // The premise, point by point: the fast GPU beats the H100 on both axes at every batch and layout.
    for (std::size_t layout = 0; layout < 2; ++layout)
        for (std::size_t j = 0; j < b.size(); ++j) {
            const Eigen::Index slow = s.index(layout, 0, j), quick = s.index(2 + layout, 0, j);
            CHECK(s.tokens_per_s_per_user(quick) > s.tokens_per_s_per_user(slow));
            CHECK(s.output_tokens_per_s_per_gpu(quick) > s.output_tokens_per_s_per_gpu(slow));
        }
    const std::vector<Eigen::Index> f = plan::frontier(s, {.ttft = 60_s, .tpot = 10_s});
    REQUIRE(!f.empty());
    for (Eigen::Index i : f) CHECK(s.point(i).block->d.hw.name == "H100x2");
}

TEST_CASE("frontier: monotone, within the targets, and nothing left off is undominated") {
    const request_shape r{.input = 2000_tok, .output = 500_tok};
    const slo target{.ttft = 1_s, .tpot = 40_ms};
    const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5, catalog::b200_hgx},
                                              .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
                                              .layouts = {{.tp = 2}, {.tp = 4}, {.tp = 8}},
                                              .modes = {{}, {.disaggregated = true}},
                                              .shapes = {r, {.input = 200_tok, .output = 100_tok}},
                                              .batches = plan::batch_ladder(1024)});
    const std::vector<Eigen::Index> f = plan::frontier(s, target, {.shape = 0});
    REQUIRE(f.size() > 3);
    for (std::size_t k = 0; k < f.size(); ++k) {
        const plan::sweep_point p = s.point(f[k]);
        CHECK(p.fits());
        CHECK(p.ttft <= target.ttft);
        CHECK(p.tpot <= target.tpot);
        CHECK(s.shape_of(f[k]) == 0);
        if (k > 0) {
            CHECK(s.tokens_per_s_per_user(f[k]) > s.tokens_per_s_per_user(f[k - 1]));
            CHECK(s.output_tokens_per_s_per_gpu(f[k]) < s.output_tokens_per_s_per_gpu(f[k - 1]));
        }
    }
    // Every eligible point is matched or beaten on both axes by a frontier point.
    std::size_t undominated = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        if (!s.fits(i) || s.shape_of(i) != 0 || s.ttft_s(i) > 1.0 || s.tpot_s(i) > 0.04) continue;
        bool covered = false;
        for (Eigen::Index j : f)
            covered = covered || (s.tokens_per_s_per_user(j) >= s.tokens_per_s_per_user(i) &&
                                  s.output_tokens_per_s_per_gpu(j) >= s.output_tokens_per_s_per_gpu(i));
        undominated += covered ? 0 : 1;
    }
    CHECK(undominated == 0);
    // Restricting to one mode never adds points the unrestricted frontier beats.
    for (Eigen::Index i : plan::frontier(s, target, {.shape = 0, .disaggregated = true}))
        CHECK(s.blocks[s.block_of(i)].how.disaggregated);
}

TEST_CASE("frontier and fleet end to end with vLLM: the KV room is vLLM's admission, the same profile as TensorRT-LLM the whole sequence") {
    // One KV pool (vLLM on Hopper's profile, FP8 Llama-3.1-70B at tp 2 on H100), two admission rules: vLLM admits
    // on the KV in use (I + O/2 = 2,250 tokens a sequence), the profile labelled TensorRT-LLM reserves the whole
    // sequence (I + O = 2,500). Each planner prices its deployment's KV room as `admissible_batch` under its
    // engine's rule (`with_engine_admission`), so vLLM's room is about 2,500 ÷ 2,250 of the other's.
    const request_shape r{.input = 2000_tok, .output = 500_tok};
    const serving_formats fp8{.weights = formats::fp8, .kv = formats::fp8};
    engine_profile as_trtllm = catalog::vllm_hopper;
    as_trtllm.kind = engine_kind::trtllm;
    const scheduler_limits in_use{.reserve_full_sequence = false}, whole{};
    const plan::sweep_result s = plan::sweep({.m = catalog::llama_3_1_70b, .gpus = {catalog::h100_sxm5, catalog::h100_sxm5},
                                              .engines = {catalog::vllm_hopper, as_trtllm}, .formats = {fp8},
                                              .layouts = {{.tp = 2}}, .shapes = {r}, .batches = {16}});
    REQUIRE(s.blocks.size() == 2);
    const deployment& dv = s.blocks[0].d;
    const deployment& dt = s.blocks[1].d;
    REQUIRE(dv.engine.kind == engine_kind::vllm);
    REQUIRE(dt.engine.kind == engine_kind::trtllm);
    const serving_point sat_v = saturated(dv, r, in_use), sat_t = saturated(dt, r, whole);
    CHECK(sat_v.batch == admissible_batch(dv, r, in_use).batch);
    CHECK(sat_t.batch == admissible_batch(dt, r, whole).batch);
    CHECK(sat_v.batch / sat_t.batch == doctest::Approx(2500.0 / 2250.0).epsilon(0.01));
    // A saturated request rate per instance (dp 1): output tokens/s ÷ O.
    const double lambda_v = sat_v.output_rate.value() / 500.0, lambda_t = sat_t.output_rate.value() / 500.0;
    REQUIRE(lambda_v > lambda_t);

    SUBCASE("frontier: the online point's load is its rate over the saturated rate under the engine's admission") {
        // Point i of block b (one shape, one batch): rate b ÷ E2E(b), the same for both blocks (one step model).
        for (Eigen::Index i = 0; i < 2; ++i) {
            const std::optional<plan::online_point> o = plan::online_at(s, i, 0.9, 0.9);
            REQUIRE(o);
            CHECK(o->rate_per_rank == doctest::Approx(16.0 / s.e2e(i)).epsilon(1e-12));
            CHECK(o->load == doctest::Approx(o->rate_per_rank / (i == 0 ? lambda_v : lambda_t)).epsilon(1e-12));
        }
        // vLLM's larger KV room serves more, so the same rate loads it less: by the ratio of the saturated rates
        const std::optional<plan::online_point> v = plan::online_at(s, 0, 0.9, 0.9), t = plan::online_at(s, 1, 0.9, 0.9);
        CHECK(t->load / v->load == doctest::Approx(lambda_v / lambda_t).epsilon(1e-9));
        CHECK(t->load > v->load);
    }
    SUBCASE("fleet: the percentile search refuses a rate beyond the whole-sequence room that vLLM's room serves") {
        // A peak between the two saturated rates, with targets nothing else binds (p90 TTFT within 10⁴ s, TPOT 10 s):
        // vLLM's one instance keeps up (its running cap is admissible_batch under its admission), the profile as
        // TensorRT-LLM cannot (its arrivals outpace its room), so it needs two.
        const double lambda = std::sqrt(lambda_v * lambda_t);
        const plan::traffic t{.requests_per_second = per_second(lambda), .mix = {{.shape = r}},
                              .target = {.ttft = seconds(1e4), .tpot = seconds(10.0)}, .ttft_percentile = 0.9,
                              .tpot_percentile = 0.9};
        auto plan_on = [&](const engine_profile& e) {
            return plan::cheapest_fleet(catalog::llama_3_1_70b, t,
                                        {.gpus = {catalog::h100_sxm5}, .engines = {e}, .formats = {fp8},
                                         .layouts = {{.tp = 2}}, .prefill_batches = {},
                                         .batches = {admissible_batch(dt, r, whole).batch, admissible_batch(dv, r, in_use).batch},
                                         .refine = false, .gpu_cost = dollars_per_hour(2.0)});
        };
        const plan::fleet_result v = plan_on(catalog::vllm_hopper), w = plan_on(as_trtllm);
        REQUIRE(v.best);
        REQUIRE(w.best);
        CHECK(v.best->instances == 1);
        CHECK(w.best->instances == 2);
        // The fleet's p90 figures are the online model's at its instances under the engine's admission.
        const online_latency ov = serve_online_latency(dv, r, seconds(1.0 / lambda), in_use);
        const online_latency ow = serve_online_latency(dt, r, seconds(2.0 / lambda), whole);
        CHECK(v.best->ttft.value() == ttft_percentile(ov, 0.9).value());
        CHECK(v.best->tpot.value() == tpot_percentile(ov, 0.9).value());
        CHECK(w.best->ttft.value() == ttft_percentile(ow, 0.9).value());
        CHECK(w.best->tpot.value() == tpot_percentile(ow, 0.9).value());
        // ... and at one instance the whole-sequence room is refused: the arrivals outpace it
        CHECK_THROWS_AS((void)serve_online_latency(dt, r, seconds(1.0 / lambda), whole), invalid_input);
    }
}

// ---- plan --------------------------------------------------------------------------------------

TEST_CASE("plan: one candidate, by hand") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const request_shape r{.input = 2000_tok, .output = 500_tok};
    const plan::traffic t{.requests_per_second = per_second(10), .mix = {{.shape = r}}, .target = {.ttft = 2_s, .tpot = 40_ms}};
    const plan::fleet_result p = plan::cheapest_fleet(d.m, t, {.gpus = {d.hw}, .layouts = {d.layout}, .prefill_batches = {},
                                                   .batches = {8, 16, 32, 64, 128}, .refine = false,
                                                   .site = catalog::seed_site, .pricing = pricing_basis::tco});
    REQUIRE(p.best);
    CHECK(p.options.size() == 1);
    CHECK(p.skipped.empty());
    // By hand: the largest batch of the list that meets 40 ms per token and 2 s to the first.
    double batch = 0;
    for (double b : {8.0, 16.0, 32.0, 64.0, 128.0}) {
        const serving_point s = serve_at_batch(d, r, b);
        if (s.tpot <= 40_ms && s.ttft <= 2_s && b <= max_batch(d, r).batch) batch = b;
    }
    REQUIRE(batch > 0);
    const plan::deployment_plan& best = *p.best;
    CHECK(best.batch == batch);
    CHECK_FALSE(best.how.disaggregated);
    const serving_point s = serve_at_batch(d, r, batch);
    const double per_instance = s.output_rate.value() / 500.0;  // requests/s of one 8-GPU replica
    const double instances = std::ceil(10.0 / per_instance);
    CHECK(best.instances == instances);
    CHECK(best.gpus == 8 * instances);
    CHECK(best.ttft == s.ttft);
    CHECK(best.tpot == s.tpot);
    CHECK(best.load == doctest::Approx(10.0 / per_instance / instances).epsilon(1e-12));
    const dollars_per_second_t per_gpu = gpu_hour_cost(d.hw, catalog::seed_site, 1.0).total();
    CHECK(best.gpu_cost == per_gpu);
    CHECK(best.cost_per_output_token.value() ==
          doctest::Approx(per_gpu.value() * 8 * instances / (10.0 * 500.0)).epsilon(1e-12));
    CHECK(best.cost_per_token.value() == doctest::Approx(per_gpu.value() * 8 * instances / (10.0 * 2500.0)).epsilon(1e-12));
    CHECK(best.gpu_power.value() == doctest::Approx(700.0 * 8 * instances).epsilon(1e-12));
    CHECK(best.wall_power.value() == doctest::Approx(700.0 * 8 * instances * 1.56).epsilon(1e-12));
}

TEST_CASE("plan: speculative decoding and prefix hits, colocated and disaggregated, mean targets") {
    // 40 requests/s: several instances, so a faster instance means fewer of them.
    const plan::traffic t{.requests_per_second = per_second(40), .mix = {{.shape = {.input = 1000_tok, .output = 300_tok}}},
                          .target = {.ttft = 2_s, .tpot = 50_ms}};
    plan::fleet_options o{.gpus = {catalog::h100_sxm5}, .layouts = {{.tp = 4}}, .prefill_batches = {},
                          .batches = {16, 32, 64}, .prices = {{.hardware = "H100 SXM5", .per_gpu = dollars_per_hour(3.0)}}};
    const plan::fleet_result plain = plan::cheapest_fleet(catalog::llama_3_1_70b, t, o);
    o.speculation = {.acceptance = 0.7, .draft_tokens = 3, .head = eagle_draft_head(catalog::llama_3_1_70b), .draft = {}};
    const plan::fleet_result spec = plan::cheapest_fleet(catalog::llama_3_1_70b, t, o);
    REQUIRE(plain.best);
    REQUIRE(spec.best);
    // The fleet prices each point through the sweep: the chosen point's TPOT is estimate's at its batch.
    const deployment& d = spec.best->d;
    const request_shape r = t.mix[0].shape;
    const serving_point at = speculative_serving_point(
        serve_at_batch(d, r, spec.best->batch), r,
        o.speculation.step_for(d, spec.best->batch / d.layout.pp, mean_decode_context(r)), 0.7);
    CHECK(spec.best->tpot == at.tpot);
    CHECK(spec.best->cost_per_output_token < plain.best->cost_per_output_token);
    SUBCASE("disaggregated: the decode pool speculates; refused: percentile targets") {
        plan::fleet_options dis = o;
        dis.prefill_batches = {1};
        dis.colocated = false;
        const plan::fleet_result f = plan::cheapest_fleet(catalog::llama_3_1_70b, t, dis);
        REQUIRE(f.best);
        CHECK(f.best->how.disaggregated);
        // Its TPOT is disaggregated_goodput's speculating decode step at its batch: (t + Δ) ÷ E.
        const deployment& dd = f.best->d;
        const speculative_step st = o.speculation.step_for(dd, f.best->batch / dd.layout.pp, mean_decode_context(r));
        CHECK(f.best->tpot == (st.plain_time + (st.time() - st.plain_time)) / expected_tokens_per_pass(0.7, 3));
        plan::fleet_options dis_plain = dis;
        dis_plain.speculation = {};
        CHECK(f.best->cost_per_output_token < plan::cheapest_fleet(catalog::llama_3_1_70b, t, dis_plain).best->cost_per_output_token);
        plan::traffic pct = t;
        pct.ttft_percentile = 0.9;
        CHECK(test::contains(test::error_of([&] { return plan::cheapest_fleet(catalog::llama_3_1_70b, pct, o); }),
                             "percentile targets are planned with plain decode steps"));
    }
    SUBCASE("a prefix hit lowers the cost, colocated and disaggregated (the prefill pool's share)") {
        plan::traffic hit = t;
        hit.mix[0].shape.cached_fraction = 0.5;
        plan::fleet_options none = o;
        none.speculation = {};
        CHECK(plan::cheapest_fleet(catalog::llama_3_1_70b, hit, none).best->cost_per_output_token <
              plain.best->cost_per_output_token);
        none.prefill_batches = {1};
        none.colocated = false;
        const plan::fleet_result with_hit = plan::cheapest_fleet(catalog::llama_3_1_70b, hit, none);
        const plan::fleet_result without = plan::cheapest_fleet(catalog::llama_3_1_70b, t, none);
        REQUIRE(with_hit.best);
        REQUIRE(without.best);
        CHECK(with_hit.best->how.disaggregated);
        CHECK(with_hit.best->ttft < without.best->ttft);
        CHECK(with_hit.best->cost_per_output_token <= without.best->cost_per_output_token);
    }
}

TEST_CASE("plan: of two GPUs at the same SLO, the one cheaper per token") {
    hardware cheap = catalog::h100_sxm5;
    cheap.name = "H100 (discount)";
    const plan::traffic t{.requests_per_second = per_second(5), .mix = {{.shape = {.input = 1000_tok, .output = 300_tok}}},
                          .target = {.ttft = 2_s, .tpot = 50_ms}};
    const plan::fleet_options o{.gpus = {catalog::h100_sxm5, cheap}, .layouts = {{.tp = 4}}, .prefill_batches = {},
                               .batches = {16, 32, 64},
                               .prices = {{.hardware = "H100 SXM5", .per_gpu = dollars_per_hour(3.0)},
                                          {.hardware = "h100-discount", .per_gpu = dollars_per_hour(2.0)}}};
    const plan::fleet_result p = plan::cheapest_fleet(catalog::llama_3_1_70b, t, o);
    REQUIRE(p.best);
    REQUIRE(p.options.size() == 2);
    CHECK(p.best->d.hw.name == "H100 (discount)");
    CHECK(p.best->gpus == p.options[1].gpus);  // the same GPUs either way
    CHECK(p.options[1].cost_per_output_token.value() / p.best->cost_per_output_token.value() ==
          doctest::Approx(1.5).epsilon(1e-12));
    CHECK(p.best->gpu_cost == dollars_per_hour(2.0));
}

TEST_CASE("plan: traffic that needs more replicas scales the count linearly") {
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const request_shape r{.input = 500_tok, .output = 250_tok};
    const plan::fleet_options o{.gpus = {d.hw}, .layouts = {{.tp = 1}}, .prefill_batches = {}, .batches = {32}};
    const serving_point s = serve_at_batch(d, r, 32);
    const double per_gpu = s.output_rate_per_gpu.value() / 250.0;  // requests/s one GPU serves
    auto gpus_for = [&](double lambda) {
        const plan::fleet_result p = plan::cheapest_fleet(d.m, {.requests_per_second = per_second(lambda), .mix = {{.shape = r}},
                                                     .target = {.ttft = 10_s, .tpot = 1_s}}, o);
        REQUIRE(p.best);
        return *p.best;
    };
    const plan::deployment_plan one = gpus_for(per_gpu * 3);  // exactly three GPUs' worth
    const plan::deployment_plan more = gpus_for(per_gpu * 30);
    CHECK(one.gpus == 3);
    CHECK(more.gpus == 30);
    CHECK(more.cost_per_output_token.value() == doctest::Approx(one.cost_per_output_token.value()).epsilon(1e-12));
    CHECK(more.gpu_power.value() == doctest::Approx(10 * one.gpu_power.value()).epsilon(1e-12));
    CHECK(gpus_for(per_gpu * 3.01).gpus == 4);  // a little more traffic needs a whole GPU more
    CHECK(gpus_for(per_gpu * 3.01).load == doctest::Approx(3.01 / 4).epsilon(1e-12));
    // A cap on the fleet leaves it unplanned, and says why.
    plan::fleet_options capped = o;
    capped.max_gpus = 10;
    const plan::fleet_result none = plan::cheapest_fleet(d.m, {.requests_per_second = per_second(per_gpu * 30), .mix = {{.shape = r}},
                                                    .target = {.ttft = 10_s, .tpot = 1_s}}, capped);
    CHECK_FALSE(none.best);
    REQUIRE(none.skipped.size() == 1);
    CHECK(test::contains(none.skipped[0], "needs more than 10 GPUs"));
}

TEST_CASE("plan: disaggregated pools sized by their own work") {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 4}};
    const request_shape r{.input = 4000_tok, .output = 300_tok};
    const plan::traffic t{.requests_per_second = per_second(12), .mix = {{.shape = r}}, .target = {.ttft = 2_s, .tpot = 50_ms}};
    const plan::fleet_result p = plan::cheapest_fleet(d.m, t, {.gpus = {d.hw}, .layouts = {d.layout}, .colocated = false,
                                                   .prefill_batches = {2}, .batches = {16, 32}, .refine = false});
    REQUIRE(p.best);
    const plan::deployment_plan& b = *p.best;
    CHECK(b.how.disaggregated);
    const double batch = b.batch;
    const seconds_t tpot = decode_pass(d, batch, r.input + r.output / 2.0).time();
    const double prefill_s = prefill_pass(d, 2.0, r.input, tokens(0.0)).time().value() / 2.0;
    const double decode_s = 300.0 * tpot.value() / batch;
    CHECK(b.tpot == tpot);
    CHECK(b.prefill_instances == std::ceil(12 * prefill_s));
    CHECK(b.decode_instances == std::ceil(12 * decode_s));
    CHECK(b.prefill_per_decode == doctest::Approx(prefill_s / decode_s).epsilon(1e-12));
    CHECK(b.gpus == 4 * (b.prefill_instances + b.decode_instances));
}

TEST_CASE("plan: a mix of shapes, prices and what is left out") {
    const plan::traffic t{.requests_per_second = per_second(4),
                          .mix = {{.share = 3, .shape = {.input = 1000_tok, .output = 200_tok}},
                                  {.share = 1, .shape = {.input = 8000_tok, .output = 1000_tok}}},
                          .target = {.ttft = 3_s, .tpot = 60_ms}};
    // Every catalog GPU has a price; a GPU of one's own may not (capex 0 = unknown).
    hardware unpriced_b200 = catalog::b200_hgx;
    unpriced_b200.capex_per_gpu = dollars(0.0);
    const plan::fleet_result p = plan::cheapest_fleet(catalog::llama_3_1_70b, t,
                                           {.gpus = {catalog::h100_sxm5, unpriced_b200},
                                            .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                                            .pricing = pricing_basis::tco});
    REQUIRE(p.best);
    REQUIRE(p.skipped.size() == 1);  // the B200 copy has no price
    CHECK(test::contains(p.skipped[0], "B200 (HGX): no price"));
    // The slowest shape of the mix meets the targets at the chosen batch.
    CHECK(p.best->ttft <= t.target.ttft);
    CHECK(p.best->tpot <= t.target.tpot);
    if (!p.best->how.disaggregated)
        for (const plan::traffic_class& c : t.mix) CHECK(serve_at_batch(p.best->d, c.shape, p.best->batch).tpot <= p.best->tpot);
    CHECK(p.best->load <= 1.0);
    // With a price for the B200 it competes (and the options are sorted by cost).
    const plan::fleet_result q = plan::cheapest_fleet(catalog::llama_3_1_70b, t,
                                           {.gpus = {catalog::h100_sxm5, unpriced_b200},
                                            .formats = {{.weights = formats::fp8, .kv = formats::fp8}},
                                            .prices = {{.hardware = "b200 hgx", .per_gpu = dollars_per_hour(0.5)}},
                                            .pricing = pricing_basis::tco});
    CHECK(q.skipped.empty());
    // On the default basis the B200 copy has its listed market price ($6.03/GPU-h, tables/gpu_prices.csv).
    const plan::fleet_result m = plan::cheapest_fleet(catalog::llama_3_1_70b, t,
                                           {.gpus = {unpriced_b200}, .formats = {{.weights = formats::fp8, .kv = formats::fp8}}});
    CHECK(m.skipped.empty());
    REQUIRE(m.best);
    CHECK(m.best->gpu_cost.value() == doctest::Approx(6.03 / 3600).epsilon(1e-12));
    CHECK(q.best->d.hw.name == "B200 (HGX)");
    for (std::size_t k = 1; k < q.options.size(); ++k) CHECK(q.options[k - 1].fleet_cost <= q.options[k].fleet_cost);
    // Bad traffic is refused.
    CHECK(test::contains(test::error_of([] {
                             return plan::cheapest_fleet(catalog::llama_3_1_8b, {.requests_per_second = per_second(0), .mix = {{}}},
                                               {.gpus = {catalog::h100_sxm5}});
                         }),
                         "requests_per_second"));
}

// The traffic's rate is an event rate (1/s), typed: a bare double cannot be passed for it by mistake.
static_assert(std::is_same_v<decltype(plan::traffic::requests_per_second), per_second_t>);
static_assert(!std::is_convertible_v<double, per_second_t>);

TEST_CASE("plan::traffic: a typed rate of 20 requests a second reads back as 20 per second") {
    const plan::traffic t{.requests_per_second = per_second(20.0), .mix = {{.shape = {.input = 2000_tok, .output = 500_tok}}}};
    CHECK(t.requests_per_second.value() == 20.0);
    CHECK_NOTHROW(t.validate());
    // A rate of zero, a negative one or NaN is refused with the field's name and value.
    for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
        const plan::traffic z{.requests_per_second = per_second(bad), .mix = {{.shape = {.input = 2000_tok, .output = 500_tok}}}};
        CHECK(test::contains(test::validation_message(z), "requests_per_second"));
    }
}

TEST_CASE("layouts: every layout of a GPU count, ranked by saturated throughput") {
    const request_shape r{.input = tokens(2000.0), .output = tokens(500.0)};
    SUBCASE("Llama-3.1-70B (64 heads, 8 KV heads, 80 layers) on 8 x H100: the 10 (tp, pp, dp) of 8") {
        const std::vector<parallel_layout> ls = plan::layouts_on(catalog::llama_3_1_70b, catalog::h100_sxm5, 8);
        // tp·pp·dp = 8 over tp, pp ∈ {1, 2, 4, 8}: 4 + 3 + 2 + 1 = 10, all valid (tp divides 8 KV heads).
        CHECK(ls.size() == 10);
        for (const parallel_layout& l : ls) CHECK(l.gpus() == 8);
        const std::vector<plan::layout_choice> ranked = plan::rank_layouts(catalog::llama_3_1_70b, catalog::h100_sxm5, 8, r);
        REQUIRE(ranked.size() == 10);
        // 141 GB of BF16 weights do not fit one 80 GB GPU: tp 1 × pp 1 (× dp 8) comes last, with why.
        CHECK(ranked.back().layout == parallel_layout{.dp = 8});
        CHECK_FALSE(ranked.back().point);
        CHECK(ranked.back().why_not == "weights do not fit");
        for (std::size_t i = 0; i + 1 < ranked.size(); ++i)
            if (ranked[i + 1].point) CHECK(ranked[i].point->output_rate >= ranked[i + 1].point->output_rate);
        // The best is priced exactly as saturated() prices its deployment.
        const deployment best{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = ranked.front().layout};
        CHECK(ranked.front().point->output_rate == saturated(best, r).output_rate);
    }
    SUBCASE("QuickReduce on (with_quick_reduce at tp 0): a TP group it does not run on cannot serve, the rule's reason") {
        // review s40a SHOULD 4: --best-layout --quick-reduce int4 ranks the layouts of 8 MI355X; tp 1 (and any TP other
        // than 2, 4, 8) is refused by deployment::validate, as the estimate of that layout would be.
        const engine_profile on = with_quick_reduce(catalog::sglang_cdna4, 0, "MI355X", "--quick-reduce");
        const auto ranked = plan::rank_layouts(catalog::llama_3_1_70b, catalog::mi355x, 8, r, {}, on);
        int served = 0;
        for (const plan::layout_choice& c : ranked) {
            const bool runs = c.layout.tp == 2 || c.layout.tp == 4 || c.layout.tp == 8;
            if (!runs) {
                CHECK_FALSE(c.point);
                CHECK(test::contains(c.why_not, "[llmcost.quick_reduce.tp]"));
            }
            if (c.point) {
                ++served;
                CHECK(runs);
            }
        }
        CHECK(served > 0);
        REQUIRE(ranked.front().point);
        CHECK(ranked.front().layout.tp >= 2);
    }
    SUBCASE("an MoE adds expert parallelism over the attention-DP ranks: DeepSeek-V3 on 8 x H200") {
        const std::vector<parallel_layout> ls = plan::layouts_on(catalog::deepseek_v3, catalog::h200_sxm, 8);
        auto has = [&](const parallel_layout& want) { return std::find(ls.begin(), ls.end(), want) != ls.end(); };
        CHECK(has({.ep = 8, .dp = 8}));          // DEP8
        CHECK(has({.tp = 8}));                   // TP8, experts sharded
        CHECK(has({.tp = 2, .ep = 8, .dp = 4})); // attention TP2 × DP4, experts over all 8
        CHECK_FALSE(has({.tp = 1, .ep = 3, .dp = 8}));  // 3 does not divide 8
        for (const parallel_layout& l : ls) CHECK_FALSE(problem({.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = l}));
    }
    SUBCASE("the engine's own admission: vLLM ranks on the KV in use, the same profile as TensorRT-LLM on the whole sequence") {
        // As the sweep's block (above): one KV pool, two admission rules. vLLM admits on the KV in use,
        // I + O/2 = 2,250 tokens a sequence; labelled TensorRT-LLM it reserves I + O = 2,500. Every layout that
        // holds a sequence is limited by its KV room here (no cap given), so the batches stand about
        // 2,500 : 2,250 (each a floor of pool ÷ per-sequence KV), and each is `admissible_batch` under its rule.
        engine_profile as_trtllm = catalog::vllm_hopper;
        as_trtllm.kind = engine_kind::trtllm;
        const auto vllm = plan::rank_layouts(catalog::llama_3_1_70b, catalog::h100_sxm5, 8, r, {}, catalog::vllm_hopper);
        const auto trt = plan::rank_layouts(catalog::llama_3_1_70b, catalog::h100_sxm5, 8, r, {}, as_trtllm);
        REQUIRE(vllm.size() == 10);
        REQUIRE(trt.size() == 10);
        int priced = 0, large = 0;
        for (const plan::layout_choice& v : vllm) {
            if (!v.point) continue;
            const auto t = std::find_if(trt.begin(), trt.end(), [&](const plan::layout_choice& c) { return c.layout == v.layout; });
            REQUIRE(t != trt.end());
            REQUIRE(t->point);
            const deployment dv{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = v.layout,
                                .engine = catalog::vllm_hopper};
            const deployment dt{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = v.layout, .engine = as_trtllm};
            CHECK(v.point->limited_by == "KV capacity");
            CHECK(v.point->batch == admissible_batch(dv, r, {.reserve_full_sequence = false}).batch);
            CHECK(t->point->batch == admissible_batch(dt, r, {}).batch);
            // Each batch is a floor of pool ÷ per-sequence KV: where the room holds a hundred sequences or more the
            // floors move the ratio by under 1%; a pipeline stage's tiny rooms (a few sequences) are floors apart.
            if (t->point->batch >= 100.0) {
                CHECK(v.point->batch / t->point->batch == doctest::Approx(2500.0 / 2250.0).epsilon(0.01));
                ++large;
            }
            CHECK(v.point->batch >= t->point->batch);
            ++priced;
        }
        CHECK(priced == 9);  // all but tp 1 × dp 8, whose 141 GB of BF16 weights do not fit one GPU
        CHECK(large >= 1);
    }
    SUBCASE("a GPU count below one is refused, named") {
        CHECK(test::contains(test::error_of([] { return plan::layouts_on(catalog::llama_3_1_8b, catalog::h100_sxm5, 0); }),
                             "[llmcost.layout.gpu_count]"));
    }
}

TEST_CASE("quick_reduce_engines and require_priceable: a sweep's switch and its refusal when nothing is priced (review s41c)") {
    SUBCASE("quick_reduce_engines: with_quick_reduce at tp 0 on each engine; none named: the reference engine's refusal") {
        const std::vector<engine_profile> on =
            quick_reduce_engines({catalog::sglang_cdna4, catalog::sglang_cdna4}, 2, "quick_reduce");
        REQUIRE(on.size() == 2);
        CHECK(on[0].collectives.quick_reduce);
        CHECK(on[1] == with_quick_reduce(catalog::sglang_cdna4, 0, "MI355X", "quick_reduce"));
        const std::string none = test::error_of([] { return quick_reduce_engines({}, 1, "--quick-reduce"); });
        CHECK(test::contains(none, "the engine is 'reference'"));
        CHECK(test::contains(none, "[llmcost.quick_reduce.engine]"));
        CHECK(test::contains(test::error_of([] {
                                 return quick_reduce_engines({catalog::sglang_cdna4, catalog::sglang_cdna3}, 2, "--quick-reduce");
                             }),
                             "[llmcost.quick_reduce.curve]"));  // the second GPU's engine has no curve
    }
    SUBCASE("require_priceable: every layout left out refuses with the first's rule; one priced layout passes") {
        // Llama-3.1-8B at tp 1 on MI355X under QuickReduce: only the switch's TP rule (2, 4 or 8 ranks) refuses it.
        plan::sweep_grid g{.m = catalog::llama_3_1_8b,
                           .gpus = {catalog::mi355x},
                           .engines = quick_reduce_engines({catalog::sglang_cdna4}, 1, "quick_reduce"),
                           .layouts = {{.tp = 1}},
                           .modes = {{}},
                           .shapes = {{.input = 1000_tok, .output = 200_tok}},
                           .batches = {1}};
        const std::string m = test::error_of([&] { plan::require_priceable(plan::sweep(g)); });
        CHECK(test::contains(m, "engine.collectives.quick_reduce at tp = 1"));
        CHECK(test::contains(m, "[llmcost.quick_reduce.tp]"));
        g.layouts.push_back({.tp = 2});
        CHECK_NOTHROW(plan::require_priceable(plan::sweep(g)));
    }
}
