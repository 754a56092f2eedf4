// Kernels one pass launches with an engine's fusions (`detail::kernels_per_pass(deployment)`):
// TensorRT-LLM's all-reduce + residual + RMSNorm and its TRTLLM-Gen fused MoE runner; SGLang's absorbed MLA block and the
// kernels its FP8 block-scaled checkpoint adds to that block.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <limits>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment gpt_oss(parallel_layout layout, const engine_profile& e) {
    return deployment{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx, .layout = layout, .engine = e};
}

}  // namespace

TEST_CASE("kernels a pass launches: the generic count and TensorRT-LLM's fusions on Blackwell") {
    // gpt-oss-120b: 36 layers, all MoE. Generic: 10 a layer + 4 a MoE layer + 3 = 36·14 + 3 = 507.
    CHECK(detail::kernels_per_pass(catalog::gpt_oss_120b) == 507.0);
    CHECK(detail::kernels_per_pass(gpt_oss({.tp = 8}, engine_profile::reference())) == 507.0);
    CHECK(detail::kernels_per_pass(gpt_oss({.tp = 8}, catalog::vllm_blackwell)) == 507.0);  // no fusion priced
    SUBCASE("TP8: the norms inside the all-reduce, six runner kernels for the generic seven") {
        // 507 − 3·36 (norm, residual + norm, residual) + (6 − 7)·36 = 507 − 108 − 36 = 363.
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 8}, catalog::trtllm_blackwell)) == 363.0);
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 2}, catalog::trtllm_blackwell)) == 363.0);
        // TP4 with EP4 and no attention DP: the router's logits still go to the runner.
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 4, .ep = 4}, catalog::trtllm_blackwell)) == 363.0);
    }
    SUBCASE("one GPU: no all-reduce to hold the norms; the runner's count stays") {
        // 507 − 36 = 471.
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 1}, catalog::trtllm_blackwell)) == 471.0);
    }
    SUBCASE("attention DP: no TP all-reduce, and routing before the dispatch: the generic count") {
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 1, .ep = 2, .dp = 2}, catalog::trtllm_blackwell)) == 507.0);
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 1, .ep = 4, .dp = 4}, catalog::trtllm_blackwell)) == 507.0);
    }
    SUBCASE("a step the host enqueues without CUDA graphs (TensorRT engines): the generic count") {
        deployment d = gpt_oss({.tp = 8}, catalog::trtllm_blackwell);
        d.engine.overheads.cuda_graphs = false;
        d.engine.overheads.eager_enqueue = true;
        CHECK(detail::kernels_per_pass(d) == 507.0);
        d.engine.overheads.cuda_graphs = true;  // graphs on: the enqueue is not read, the fusions are
        CHECK(detail::kernels_per_pass(d) == 363.0);
    }
    SUBCASE("dense: the norm fusion alone") {
        // Llama-3.1-405B, 126 layers: 10·126 + 3 = 1,263; TP4 with the fusion 1,263 − 3·126 = 885.
        const deployment ref{.m = catalog::llama_3_1_405b, .hw = catalog::b200_hgx, .layout = {.tp = 4}};
        deployment trt = ref;
        trt.engine = catalog::trtllm_blackwell;
        CHECK(detail::kernels_per_pass(ref) == 1263.0);
        CHECK(detail::kernels_per_pass(trt) == 885.0);
        trt.engine.kernels.moe_runner_kernels = 3.0;  // a dense model has no MoE layer to count
        CHECK(detail::kernels_per_pass(trt) == 885.0);
    }
}

TEST_CASE("the launch term of a decode step: kernels × the hardware's 4 µs") {
    // B200's kernel overhead 4 µs; TensorRT-LLM's Blackwell profile adds no launch cost of its own.
    const deployment ref = gpt_oss({.tp = 8}, engine_profile::reference());
    const deployment trt = gpt_oss({.tp = 8}, catalog::trtllm_blackwell);
    // 507 × 4 µs = 2.028 ms generic; 363 × 4 µs = 1.452 ms fused: 0.576 ms (144 kernels) a step.
    CHECK(decode_pass(ref, 4.0, 1000_tok).overhead_time.value() == doctest::Approx(2.028e-3).epsilon(1e-12));
    CHECK(decode_pass(trt, 4.0, 1000_tok).overhead_time.value() == doctest::Approx(1.452e-3).epsilon(1e-12));
}

TEST_CASE("property: each fusion never lengthens a step, and more runner kernels never shorten one") {
    for (const model& m : {catalog::gpt_oss_120b, catalog::gpt_oss_20b, catalog::deepseek_v3, catalog::llama_3_1_70b}) {
        for (const parallel_layout l : {parallel_layout{.tp = 1}, parallel_layout{.tp = 2}, parallel_layout{.tp = 8},
                                        parallel_layout{.tp = 1, .ep = 8, .dp = 8}, parallel_layout{.tp = 8, .ep = 8}}) {
            if (!m.is_moe() && l.ep > 1) continue;
            CAPTURE(m.name);
            CAPTURE(l.tp);
            CAPTURE(l.dp);
            deployment off{.m = m, .hw = catalog::b200_hgx, .layout = l};
            deployment on = off;
            on.engine.kernels.all_reduce_norm_fusion = true;
            for (double batch : {1.0, 64.0, 1024.0}) {
                CHECK(decode_pass(on, batch, 2000_tok).time() <= decode_pass(off, batch, 2000_tok).time());
                CHECK(detail::kernels_per_pass(on) <= detail::kernels_per_pass(off));
                double previous = 0.0;
                for (double k : {1.0, 4.0, 6.0, 7.0, 12.0}) {
                    deployment runner = off;
                    runner.engine.kernels.moe_runner_kernels = k;
                    const double t = decode_pass(runner, batch, 2000_tok).time().value();
                    CHECK(t >= previous);
                    previous = t;
                }
                deployment seven = off;
                seven.engine.kernels.moe_runner_kernels = 7.0;  // the generic count, named
                CHECK(decode_pass(seven, batch, 2000_tok).time() == decode_pass(off, batch, 2000_tok).time());
            }
        }
    }
}

TEST_CASE("moe_runner_kernels and all_reduce_norm_fusion: refusals and the table's optional columns") {
    engine_profile e = catalog::trtllm_blackwell;
    for (double bad : {-1.0, 2.5, 33.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.moe_runner_kernels = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.moe_runner_kernels = "));
        CHECK(test::contains(m, "must be 0 (the generic seven) or a whole number of kernels up to 32"));
    }
    e.kernels.moe_runner_kernels = 32.0;
    CHECK(test::validation_message(e).empty());
    // The catalog's row: 6 and the fusion, read from tables/engines.csv's new columns.
    CHECK(catalog::trtllm_blackwell.kernels.moe_runner_kernels == 6.0);
    CHECK(catalog::trtllm_blackwell.kernels.all_reduce_norm_fusion);
    CHECK(catalog::trtllm_hopper.kernels.moe_runner_kernels == 0.0);
    CHECK(!catalog::trtllm_hopper.kernels.all_reduce_norm_fusion);
    CHECK(!catalog::vllm_blackwell.kernels.all_reduce_norm_fusion);
    // An old table without the columns loads with 0 and no fusion; a new one reads them and refuses
    // a bad value by file, line and column.
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.moe_runner_kernels == 0.0);
    CHECK(!old[0].kernels.all_reduce_norm_fusion);
    const std::string columns = header + ",moe_runner_kernels,all_reduce_norm_fusion,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",6,1,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.moe_runner_kernels == 6.0);
    CHECK(mine[0].kernels.all_reduce_norm_fusion);
    for (const char* bad : {"-1", "nan", "2.5"}) {
        const std::string m =
            test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",0,my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "moe_runner_kernels"));
    }
    const std::string flag =
        test::message_of([&] { return io::parse_engines_csv(columns + row + ",6,2,my runs\n", "mine.csv"); });
    CHECK(test::contains(flag, "mine.csv:2"));
    CHECK(test::contains(flag, "all_reduce_norm_fusion"));
    CHECK(test::contains(flag, "a flag is 0 or 1"));
}

TEST_CASE("W4A8 experts: the expert GEMMs at the FP8 peak (expert_fp8_activations)") {
    // gpt-oss-120b on one B200 (MXFP4 experts, BF16 activations): BF16 peak 2,250 TFLOP/s, FP8 4,500.
    deployment off{.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx};
    deployment on = off;
    on.engine.kernels.expert_fp8_activations = true;
    const pass_model pa = prepare_pass(off), pb = prepare_pass(on);
    CHECK(!expert_activations_quantized_to_fp8(off));
    CHECK(expert_activations_quantized_to_fp8(on));
    CHECK(pa.expert_peak == 2250e12);
    CHECK(pb.expert_peak == 4500e12);
    CHECK(pb.peak.value() == 2250e12);  // dense GEMMs keep the activations' format
    CHECK(prepare_pass(gpt_oss({.tp = 8}, catalog::trtllm_blackwell)).expert_peak == 4500e12);
    SUBCASE("a prompt step: only the experts' compute moves, by half of what it was") {
        // One 8,192-token prompt: routed = 8,192 tokens, touched experts E·cover(8,192), rows = 8,192·4 ÷ touched;
        // expert FLOPs F_e = 2 · 8,192 · 4 · P_expert · 36; Δt = F_e ÷ (2.25e15 · e(rows)) − F_e ÷ (4.5e15 · e(rows))
        //                                                   = F_e ÷ (4.5e15 · e(rows)), e the hardware's size curve.
        const step_shape shape{.prefill_sequences = 1.0, .prefill_tokens = 8192_tok};
        const auto ta = detail::sequence_terms_of(pa, shape), tb = detail::sequence_terms_of(pb, shape);
        const auto ra = detail::step_formula(pa, ta, 0.0, 1.0), rb = detail::step_formula(pb, tb, 0.0, 1.0);
        const double touched = 128.0 * expert_coverage(128, 4, 8192.0);
        const double rows = 8192.0 * 4.0 / touched;
        const double e = catalog::b200_hgx.gpu.efficiency.matmul_at_rows(rows, pa.expert_cbrt_k_n);
        const double expert_flops = 2.0 * 8192.0 * 4.0 * pa.expert_parameters * 36.0;
        CHECK(ra.matmul_compute - rb.matmul_compute == doctest::Approx(expert_flops / (4500e12 * e)).epsilon(1e-9));
        CHECK(rb.matmul_memory == ra.matmul_memory);
        CHECK(rb.attention_compute == ra.attention_compute);
    }
    SUBCASE("where it does not apply") {
        // No FP8 tensor cores (A100: its FP8 peak is the BF16 one widened): the BF16 peak stays.
        deployment a100 = on;
        a100.hw = catalog::a100_sxm_80gb;
        CHECK(!expert_activations_quantized_to_fp8(a100));
        CHECK(prepare_pass(a100).expert_peak == prepare_pass(deployment{.m = catalog::gpt_oss_120b, .hw = catalog::a100_sxm_80gb}).expert_peak);
        // Experts in 8 bits (DeepSeek-V3's FP8): not narrower than 8, nothing to quantize to.
        deployment ds{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}};
        deployment ds_on = ds;
        ds_on.engine.kernels.expert_fp8_activations = true;
        CHECK(decode_pass(ds_on, 256.0, 2000_tok).time() == decode_pass(ds, 256.0, 2000_tok).time());
        // A dense model has no experts.
        deployment dense{.m = catalog::llama_3_1_70b, .hw = catalog::b200_hgx, .layout = {.tp = 8}};
        deployment dense_on = dense;
        dense_on.engine.kernels.expert_fp8_activations = true;
        CHECK(decode_pass(dense_on, 256.0, 2000_tok).time() == decode_pass(dense, 256.0, 2000_tok).time());
    }
    SUBCASE("property: never a longer step, at any batch or prompt") {
        for (double batch : {1.0, 16.0, 64.0, 512.0, 4096.0})
            CHECK(decode_pass(on, batch, 4000_tok).time() <= decode_pass(off, batch, 4000_tok).time());
        for (double prompt : {128.0, 1024.0, 8192.0})
            CHECK(prefill_pass(on, 1.0, tokens(prompt), 0_tok).time() <= prefill_pass(off, 1.0, tokens(prompt), 0_tok).time());
    }
    SUBCASE("the table's optional column: 0 or 1, named when wrong") {
        const std::string header = test::engine_table_columns();
        const std::string row =
            "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        CHECK(!io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv")[0].kernels.expert_fp8_activations);
        const std::string columns = header + ",expert_fp8_activations,source\n";
        CHECK(io::parse_engines_csv(columns + row + ",1,my runs\n", "mine.csv")[0].kernels.expert_fp8_activations);
        const std::string m = test::message_of([&] { return io::parse_engines_csv(columns + row + ",0.5,my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "expert_fp8_activations"));
        CHECK(test::contains(m, "a flag is 0 or 1"));
        CHECK(catalog::trtllm_blackwell.kernels.expert_fp8_activations);
        CHECK(!catalog::trtllm_hopper.kernels.expert_fp8_activations);
        CHECK(!catalog::vllm_blackwell.kernels.expert_fp8_activations);
    }
}

// ---- SGLang's absorbed MLA attention block (`engine_kernels::mla_attention_kernels`) --------------

TEST_CASE("kernels a pass launches: SGLang's absorbed MLA block, counted by hand") {
    // DeepSeek-V3: 61 layers, 58 of them MoE. Generic: 10·61 + 4·58 + 3 = 610 + 232 + 3 = 845.
    // SGLang's absorbed MLA block at decode on Hopper, at the H200 rows' flags (v0.5.6, the flashinfer
    // backend, a BF16 KV cache, DeepSeek-R1's 128 × 128-block FP8 checkpoint; sgl-project/sglang
    // python/sglang/srt/models/deepseek_v2.py @3e4a39ee forward_absorb_prepare / forward_absorb_core /
    // post_load_weights, CUDA; ledger: docs/sglang-batch1-moe-decode.md §11): fused q_a + kv_a projection
    // (activation quantization + GEMM: 2), q_a norm (1), kv_a norm (1), q_b projection (2), q_nope × W_kc
    // (W_kc dequantized to BF16 at load: one BMM, 1), RoPE (1), latent-cache write (1), attention (1),
    // attention out × W_vc (one BMM into the output's transposed view, 1), o projection (2) = 13 kernels,
    // for the generic 4 (QKV GEMM, RoPE + KV append, attention, O GEMM): 845 + (13 − 4)·61 = 845 + 549 =
    // 1,394. (Session 18 read 16 at @00114aef: two FP8 quantizations and a copy the rows do not run.)
    const deployment ref{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
    deployment sgl = ref;
    sgl.engine = catalog::sglang_hopper;
    CHECK(detail::kernels_per_pass(ref) == 845.0);
    CHECK(detail::kernels_per_pass(sgl) == 1394.0);
    SUBCASE("attention DP and expert parallelism leave the attention block as it is") {
        deployment dep = sgl;
        dep.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(detail::kernels_per_pass(dep) == 1394.0);
    }
    SUBCASE("a model without latent attention keeps its count") {
        deployment g = sgl;
        g.m = catalog::gpt_oss_120b;  // 36·14 + 3
        CHECK(detail::kernels_per_pass(g) == 507.0);
        g.m = catalog::llama_3_1_70b;  // 80 dense layers: 10·80 + 3
        CHECK(detail::kernels_per_pass(g) == 803.0);
    }
    SUBCASE("the other engines keep the generic four") {
        deployment t = ref;
        t.engine = catalog::trtllm_hopper;
        CHECK(detail::kernels_per_pass(t) == 845.0);
        t.engine = catalog::sglang_cdna3;  // the generic four for the block; its FP8 term (7 a layer) apart
        t.engine.kernels.fp8_attention_quant_kernels = 0.0;
        CHECK(detail::kernels_per_pass(t) == 845.0);
    }
    SUBCASE("the launch term: kernels × (the hardware's 4 µs + the profile's launch cost)") {
        // H200's 4 µs + SGLang Hopper's 1.194 µs = 5.194 µs; 1,394 × 5.194 µs = 7.240436 ms (session 29 part C's refit).
        CHECK(decode_pass(sgl, 4.0, 1000_tok).overhead_time.value() == doctest::Approx(7.240436e-3).epsilon(1e-9));
    }
}

TEST_CASE("kernels a pass launches: SGLang's absorbed MLA block on Blackwell (SM100), counted by hand") {
    // In the catalog since session 21 (SGLang on Blackwell: 11 with the fusion, docs/sglang-batch1-moe-decode.md
    // §8–10); the count, read at the rows' era
    // (sgl-project/sglang deepseek_v2.py @3e4a39ee forward_absorb_prepare / forward_absorb_core and
    // post_load_weights, trtllm_mla backend forward_decode with an FP8 KV cache), is held here.
    // Both checkpoints: q_a norm (1), kv_a norm (1), W_kc and W_vc BMMs in BF16 (the 128 × 128 block
    // FP8 kv_b weight is dequantized to BF16 at load on CUDA: 1 + 1), FP8 RoPE + quantization of q and
    // k in one kernel (1), latent-cache write (1), attention (1) = 7. NVFP4-v2 checkpoint: q_a + kv_a
    // projection BF16 (1), q_b BF16 (1), o projection NVFP4 (activation quantization + GEMM: 2) = 11.
    // FP8 block-scaled checkpoint: the three projections each quantize their activations (2 + 2 + 2) = 13.
    // With the all-reduce + RMSNorm fusion of the rows' --enable-flashinfer-allreduce-fusion at TP8:
    // DeepSeek-V3, 61 layers: 845 − 3·61 + (11 − 4)·61 = 845 − 183 + 427 = 1,089;
    //                         845 − 183 + (13 − 4)·61 = 845 − 183 + 549 = 1,211.
    // Since session 28 the catalog's row adds the FP8 checkpoint's two quantizations a layer on its own
    // (`fp8_attention_quant_kernels` 2; catalog::deepseek_v3 is the FP8 checkpoint): 1,089 + 2·61 = 1,211,
    // the FP8 path's count below; the NVFP4-v2 checkpoint keeps 1,089.
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}, .engine = catalog::sglang_blackwell};
    CHECK(detail::kernels_per_pass(d) == 1211.0);
    CHECK(detail::kernels_per_pass(with_formats(d, formats::nvfp4, formats::fp8)) == 1089.0);
    d.engine.kernels.fp8_attention_quant_kernels = 0.0;
    CHECK(detail::kernels_per_pass(d) == 1089.0);  // the block's 11 with the fusion
    d.engine.kernels.mla_attention_kernels = 0.0;
    d.engine.kernels.all_reduce_norm_fusion = false;
    CHECK(detail::kernels_per_pass(d) == 845.0);  // the generic count
    d.engine.kernels.mla_attention_kernels = 11.0;
    CHECK(detail::kernels_per_pass(d) == 1272.0);  // 845 + 7·61, without the fusion
    d.engine.kernels.all_reduce_norm_fusion = true;
    CHECK(detail::kernels_per_pass(d) == 1089.0);
    SUBCASE("the FP8 checkpoint's path") {
        deployment f = d;
        f.engine.kernels.mla_attention_kernels = 13.0;
        CHECK(detail::kernels_per_pass(f) == 1211.0);
    }
    SUBCASE("gpt-oss-120b keeps its attention; the fusion takes 3 a layer: 507 − 3·36 = 399") {
        deployment g = d;
        g.m = catalog::gpt_oss_120b;
        CHECK(detail::kernels_per_pass(g) == 399.0);
        g.layout = {.tp = 1};  // no all-reduce to hold the norms
        CHECK(detail::kernels_per_pass(g) == 507.0);
    }
    SUBCASE("the launch term at the catalog's refit: B200's 4 µs + 1.192 µs = 5.192 µs a kernel") {
        // 1,089 × 5.192 µs = 5.654088 ms a DeepSeek-V3 decode step's launches on the NVFP4-v2 path (session 29 part C's refit;
        // 1.33 µs, 5.80437 ms, at session 29's
        // refit with that checkpoint's BF16 attention priced; session 28's 1.45 µs, 5.93505 ms, before); the
        // FP8 path: 1,211 × 5.192 µs = 6.287512 ms.
        CHECK(decode_pass(d, 1.0, 1000_tok).overhead_time.value() == doctest::Approx(5.654088e-3).epsilon(1e-9));
        deployment f = d;
        f.engine.kernels.fp8_attention_quant_kernels = 2.0;
        CHECK(decode_pass(f, 1.0, 1000_tok).overhead_time.value() == doctest::Approx(6.287512e-3).epsilon(1e-9));
    }
}

TEST_CASE("property: more kernels in the MLA block never shorten a step, four is the generic count") {
    for (const parallel_layout l : {parallel_layout{.tp = 1}, parallel_layout{.tp = 8}, parallel_layout{.tp = 1, .ep = 8, .dp = 8}}) {
        CAPTURE(l.tp);
        const deployment off{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = l};
        for (double batch : {1.0, 64.0}) {
            double previous = 0.0;
            for (double k : {1.0, 4.0, 9.0, 16.0, 64.0}) {
                deployment d = off;
                d.engine.kernels.mla_attention_kernels = k;
                const double t = decode_pass(d, batch, 2000_tok).time().value();
                CHECK(t >= previous);
                previous = t;
            }
            deployment four = off;
            four.engine.kernels.mla_attention_kernels = 4.0;
            CHECK(decode_pass(four, batch, 2000_tok).time() == decode_pass(off, batch, 2000_tok).time());
        }
    }
}

TEST_CASE("kernels a pass launches: TensorRT-LLM's absorbed MLA block on Blackwell, counted by hand") {
    // DeepSeek-V3: 61 layers, 58 MoE. Generic: 10·61 + 4·58 + 3 = 845 (above).
    // TensorRT-LLM's MLA block at decode on B200 (NVIDIA/TensorRT-LLM tech blog 1, "Pushing Latency
    // Boundaries", @01c4ece9, Everything in One Diagram, Modules 1-8): Fuse_A_GEMM (1), the q_a and kv_a
    // RMSNorms on two streams (2), UQ_QR GEMM (1), UK batched GEMM (1), KV-cache concat + RoPE (1),
    // generation attention (1), UV batched GEMM (1), WO GEMM (1) = 9 for the generic 4: +5 a layer.
    // TP8 EP8, no attention DP (the dynamo-trt GB200 TEP8 decode worker): the all-reduce + RMSNorm fusion
    // takes 3 a layer (−3·61 = −183), the TRTLLM-Gen runner 6 for the generic 7 (−1·58 = −58), the MLA
    // block +5·61 = +305: 845 − 183 − 58 + 305 = 909 (604 before this block was counted); TP8 spans two
    // 4-GPU GB200 trays, so the cross-host all-reduce's RMSNorm kernels add 2·61 = 122: 1,031.
    const deployment tep{.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 8, .ep = 8},
                         .engine = catalog::trtllm_blackwell};
    CHECK(detail::kernels_per_pass(tep) == 1031.0);
    SUBCASE("attention DP keeps the MLA block, drops the norm fusion and the runner: 845 + 305") {
        deployment dep = tep;
        dep.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(detail::kernels_per_pass(dep) == 1150.0);
    }
    SUBCASE("gpt-oss (no latent attention) keeps TensorRT-LLM's 363") {
        CHECK(detail::kernels_per_pass(gpt_oss({.tp = 8}, catalog::trtllm_blackwell)) == 363.0);
    }
    SUBCASE("the launch term at one sequence: 1,031 × the hardware's 4 µs (the profile adds none) = 4.124 ms") {
        CHECK(decode_pass(tep, 1.0, 922_tok).overhead_time.value() == doctest::Approx(4.124e-3).epsilon(1e-9));
        // 305 more kernels than the count before: 1.22 ms more a step, at any batch.
        deployment before = tep;
        before.engine.kernels.mla_attention_kernels = 0.0;
        for (double b : {1.0, 8.0, 64.0}) {
            CAPTURE(b);
            const double more = decode_pass(tep, b, 922_tok).time().value() - decode_pass(before, b, 922_tok).time().value();
            CHECK(more == doctest::Approx(305.0 * 4e-6).epsilon(1e-6));
        }
    }
}

TEST_CASE("mla_attention_kernels: refusals, the catalog's rows and the table's optional column") {
    engine_profile e = catalog::sglang_hopper;
    for (double bad : {-1.0, 2.5, 65.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.mla_attention_kernels = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.mla_attention_kernels = "));
        CHECK(test::contains(m, "must be 0 (the generic four) or a whole number of kernels up to 64"));
    }
    e.kernels.mla_attention_kernels = 64.0;
    CHECK(test::validation_message(e).empty());
    // The catalog (tables/engines.csv): 13 on SGLang on Hopper (session 22; 16 before), 11 on SGLang on
    // Blackwell (session 21), the generic four elsewhere; Hopper's eager prompt step's host cost is PR
    // 12160's 82.64 ms over the 1,394 kernels: 59.2826 µs, tabled as 59.28.
    CHECK(catalog::sglang_hopper.kernels.mla_attention_kernels == 13.0);
    CHECK(catalog::sglang_blackwell.kernels.mla_attention_kernels == 11.0);
    // Blackwell's eager prompt step: PR 12160's 82.64 ms over its 1,089 kernels (11 a block, the fusion).
    CHECK(catalog::sglang_blackwell.overheads.prefill_launch.value() * 1089.0 == doctest::Approx(82.64e-3).epsilon(1e-3));
    CHECK(catalog::sglang_cdna3.kernels.mla_attention_kernels == 0.0);
    // TensorRT-LLM on Blackwell: 9 (session 25, NVIDIA/TensorRT-LLM tech blog 1's MLA modules 1-8);
    // TensorRT-LLM on Hopper keeps the generic four.
    CHECK(catalog::trtllm_blackwell.kernels.mla_attention_kernels == 9.0);
    CHECK(catalog::trtllm_hopper.kernels.mla_attention_kernels == 0.0);
    CHECK(catalog::sglang_hopper.overheads.prefill_launch.value() * 1394.0 == doctest::Approx(82.64e-3).epsilon(1e-3));
    // An old table without the column loads with 0; a new one reads it and refuses a bad value by
    // file, line and column.
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,sglang,hopper,1,1,1,0,1,1,1,2.015,1,1,0,0,0.837,1,5.9,256,95.5,0,0,2048,8192,1,8192,0.875,1,1,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.mla_attention_kernels == 0.0);
    const std::string columns = header + ",mla_attention_kernels,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",16,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.mla_attention_kernels == 16.0);
    for (const char* bad : {"-1", "nan", "2.5", "65"}) {
        const std::string m =
            test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "mla_attention_kernels"));
    }
}

// ---- DeepSeek's shared expert beside the routed runner (`engine_kernels::shared_expert_kernels`) -------

TEST_CASE("kernels a pass launches: TensorRT-LLM's shared expert, on its own stream at decode, serial when eager") {
    // DeepSeek-V3: 61 layers, 58 MoE, one shared expert a MoE layer. TensorRT-LLM runs it as a GatedMLP of
    // its own (gate-up GEMM, SwiGLU + quantization, down GEMM: 3), beside the router and the routed
    // experts on the MoeShared stream under CUDA graphs (modeling_deepseekv3.py Deepseekv3MoE.forward,
    // maybe_execute_in_parallel; docs/shared-expert-kernels.md).
    const deployment tep{.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 8, .ep = 8},
                         .engine = catalog::trtllm_blackwell};
    // (TP8 spans two GB200 trays: the cross-host all-reduce's 2·61 = 122 RMSNorm kernels are in every count below.)
    SUBCASE("decode, TEP8: its 3 kernels beside the runner's 6 add none: 1,031 as before") {
        CHECK(detail::shared_expert_kernels_per_pass(tep, false) == 0.0);
        CHECK(detail::kernels_per_pass(tep) == 1031.0);
    }
    SUBCASE("an eager step launches them serially: 1,031 + 3·58 = 1,031 + 174 = 1,205") {
        CHECK(detail::shared_expert_kernels_per_pass(tep, true) == 174.0);
        CHECK(detail::kernels_per_pass(tep, true) == 1205.0);
    }
    SUBCASE("attention DP: decode 1,150 (3 beside the generic 7), eager 1,150 + 174 = 1,324") {
        deployment dep = tep;
        dep.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(detail::kernels_per_pass(dep) == 1150.0);
        CHECK(detail::kernels_per_pass(dep, true) == 1324.0);
    }
    SUBCASE("without the auxiliary stream it is serial at decode too: 1,205, and 174 × 4 µs = 0.696 ms a step") {
        deployment serial = tep;
        serial.engine.kernels.shared_expert_stream = false;
        CHECK(detail::kernels_per_pass(serial) == 1205.0);
        for (double b : {1.0, 8.0, 64.0}) {
            CAPTURE(b);
            const double more = decode_pass(serial, b, 922_tok).time().value() - decode_pass(tep, b, 922_tok).time().value();
            CHECK(more == doctest::Approx(0.696e-3).epsilon(1e-6));
        }
    }
    SUBCASE("a longer branch than the routed one lengthens the step by the difference") {
        // 8 kernels beside the runner's 6: (8 − 6)·58 = 116 → 1,147; under attention DP beside 7: 58 → 1,208.
        deployment eight = tep;
        eight.engine.kernels.shared_expert_kernels = 8.0;
        CHECK(detail::kernels_per_pass(eight) == 1147.0);
        eight.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(detail::kernels_per_pass(eight) == 1208.0);
    }
    SUBCASE("models without a shared expert keep their counts, eager or not") {
        const deployment g = gpt_oss({.tp = 8}, catalog::trtllm_blackwell);
        CHECK(detail::kernels_per_pass(g) == 363.0);
        CHECK(detail::kernels_per_pass(g, true) == 363.0);
        const deployment l{.m = catalog::llama_3_1_405b, .hw = catalog::b200_hgx, .layout = {.tp = 4}, .engine = catalog::trtllm_blackwell};
        CHECK(detail::kernels_per_pass(l) == 885.0);
        CHECK(detail::kernels_per_pass(l, true) == 885.0);
    }
    SUBCASE("an eager prompt step's host launch carries them: H = 1,205 × 75.89 µs = 91.447 ms") {
        deployment d = tep;
        d.engine.overheads.prompt_launch = prompt_launch_mode::serial;
        d.engine.overheads.prefill_request = seconds(0.0);  // H alone (session 44's per-request cost: unit-prefill-request.cpp)
        CHECK(prefill_pass(d, 1.0, 100_tok, 0_tok).time().value() == doctest::Approx(1205 * 75.89e-6).epsilon(1e-9));
        // With the profile's t_req = 9.901 ms the serial step of one prompt lasts H + t_req = 101.348 ms.
        d.engine.overheads.prefill_request = catalog::trtllm_blackwell.overheads.prefill_request;
        CHECK(prefill_pass(d, 1.0, 100_tok, 0_tok).time().value() == doctest::Approx(1205 * 75.89e-6 + 9.901e-3).epsilon(1e-9));
    }
    SUBCASE("SGLang and vLLM: none priced") {
        deployment s{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}, .engine = catalog::sglang_blackwell};
        CHECK(detail::kernels_per_pass(s, true) == detail::kernels_per_pass(s));
        s.engine = catalog::vllm_blackwell;
        CHECK(detail::kernels_per_pass(s, true) == 845.0);
    }
}

TEST_CASE("shared_expert_kernels and shared_expert_stream: refusals, the catalog's rows and the table's optional columns") {
    engine_profile e = catalog::trtllm_blackwell;
    for (double bad : {-1.0, 2.5, 17.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.shared_expert_kernels = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.shared_expert_kernels = "));
        CHECK(test::contains(m, "must be 0 (none priced) or a whole number of kernels up to 16"));
    }
    e.kernels.shared_expert_kernels = 16.0;
    CHECK(test::validation_message(e).empty());
    CHECK(catalog::trtllm_blackwell.kernels.shared_expert_kernels == 3.0);
    CHECK(catalog::trtllm_blackwell.kernels.shared_expert_stream);
    for (const engine_profile& other : {catalog::trtllm_hopper, catalog::vllm_hopper, catalog::vllm_blackwell,
                                        catalog::sglang_hopper, catalog::sglang_blackwell, catalog::sglang_cdna4}) {
        CAPTURE(other.name);
        CHECK(other.kernels.shared_expert_kernels == 0.0);
        CHECK(!other.kernels.shared_expert_stream);
    }
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.shared_expert_kernels == 0.0);
    CHECK(!old[0].kernels.shared_expert_stream);
    const std::string columns = header + ",shared_expert_kernels,shared_expert_stream,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",3,1,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.shared_expert_kernels == 3.0);
    CHECK(mine[0].kernels.shared_expert_stream);
    for (const char* bad : {"-1", "nan", "2.5", "17"}) {
        const std::string m =
            test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",1,my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "shared_expert_kernels"));
        CHECK(test::contains(m, bad));
    }
    const std::string flag =
        test::message_of([&] { return io::parse_engines_csv(columns + row + ",3,2,my runs\n", "mine.csv"); });
    CHECK(test::contains(flag, "mine.csv:2"));
    CHECK(test::contains(flag, "shared_expert_stream"));
    CHECK(test::contains(flag, "a flag is 0 or 1"));
}

// ---- The cross-host all-reduce's own RMSNorm kernels (`engine_kernels::cross_host_norm_kernels`) ------

TEST_CASE("kernels a pass launches: the cross-host all-reduce's RMSNorm kernels on GB200, counted by hand") {
    // DeepSeek-V3 under TensorRT-LLM on Blackwell, TP8 EP8 on GB200 NVL72 (4 GPUs a tray): 909 with the
    // in-host fused all-reduce + residual + RMSNorm (above); across trays MNNVLAllReduce runs the
    // all-reduce and then mnnvl_twoshot_rmsnorm, one kernel more after each of a layer's two all-reduces:
    // 909 + 2·61 = 1,031. TP4 on one tray, TP8 on 8-GPU B200 HGX and attention DP keep their counts.
    const deployment tep{.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 8, .ep = 8},
                         .engine = catalog::trtllm_blackwell};
    CHECK(catalog::trtllm_blackwell.kernels.cross_host_norm_kernels == 2.0);
    CHECK(detail::tp_spans_hosts(tep));
    CHECK(detail::kernels_per_pass(tep) == 1031.0);
    deployment none = tep;
    none.engine.kernels.cross_host_norm_kernels = 0.0;
    CHECK(detail::kernels_per_pass(none) == 909.0);
    deployment hgx = tep;
    hgx.hw = catalog::b200_hgx;
    CHECK(!detail::tp_spans_hosts(hgx));
    CHECK(detail::kernels_per_pass(hgx) == 909.0);
    deployment tep4 = tep;
    tep4.layout = {.tp = 4, .ep = 4};
    CHECK(!detail::tp_spans_hosts(tep4));
    CHECK(detail::kernels_per_pass(tep4) == 909.0);
    deployment dep = tep;
    dep.layout = {.tp = 1, .ep = 8, .dp = 8};
    CHECK(detail::kernels_per_pass(dep) == 1150.0);
    // An engine without the cross-host all-reduce prices none (a profile that also kept its norm kernels
    // would be refused: below), and neither does one without the in-host fused norm: the kernels are added
    // back where the fusion removed them, on the same predicate. Without the fusion the generic count keeps
    // the 3 norm kernels a layer: 909 + 3·61 = 1,092, none added.
    deployment off = tep;
    off.engine.collectives.cross_host_all_reduce = seconds(0.0);
    off.engine.collectives.cross_host_all_reduce_bus = bytes_per_second(0.0);
    off.engine.collectives.cross_host_all_reduce_max = bytes(0.0);
    CHECK(!detail::tp_spans_hosts(off));
    CHECK(detail::kernels_per_pass(off) == 909.0);
    deployment unfused = tep;
    unfused.engine.kernels.all_reduce_norm_fusion = false;
    CHECK(detail::tp_spans_hosts(unfused));
    CHECK(detail::kernels_per_pass(unfused) == 1092.0);
    // Pipeline parallelism: TensorRT-LLM's is_multi_node() is world_size = tp·pp > gpus_per_node, so a TP4
    // group on one tray of a TP4·PP2 instance (8 ranks over two trays) takes MNNVLAllReduce and its norm
    // kernels: 909 + 2·61 = 1,031, as TEP8. TP4·PP1 (one tray) keeps 909.
    deployment tp4pp2 = tep;
    tp4pp2.layout = {.tp = 4, .pp = 2, .ep = 4};
    CHECK(detail::tp_spans_hosts(tp4pp2));
    CHECK(detail::kernels_per_pass(tp4pp2) == 1031.0);
    SUBCASE("the launch term: 122 kernels × the hardware's 4 µs = 0.488 ms more a step, at any batch") {
        for (double b : {1.0, 8.0, 64.0}) {
            CAPTURE(b);
            CHECK(decode_pass(tep, b, 922_tok).overhead_time.value() - decode_pass(none, b, 922_tok).overhead_time.value() ==
                  doctest::Approx(0.488e-3).epsilon(1e-9));
        }
    }
}

TEST_CASE("cross_host_norm_kernels: refusals and the table's optional column") {
    engine_profile e = catalog::trtllm_blackwell;
    for (double bad : {-1.0, 2.5, 4.0, 9.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        e.kernels.cross_host_norm_kernels = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.cross_host_norm_kernels = "));
        CHECK(test::contains(m, "must be 0 (none) or a whole number of kernels a layer up to 3 (the norm kernels the fused all-reduce removed)"));
    }
    e.kernels.cross_host_norm_kernels = 3.0;
    CHECK(test::validation_message(e).empty());
    // Kernels added back need the fusion that removed them and the cross-host all-reduce they follow.
    e.kernels.cross_host_norm_kernels = 2.0;
    e.kernels.all_reduce_norm_fusion = false;
    const std::string unfused = test::validation_message(e);
    CHECK(test::contains(unfused, "kernels.cross_host_norm_kernels = 2: kernels a cross-host all-reduce adds back need the in-host fused norm"));
    e = catalog::trtllm_blackwell;
    e.collectives.cross_host_all_reduce = seconds(0.0);
    e.collectives.cross_host_all_reduce_bus = bytes_per_second(0.0);
    e.collectives.cross_host_all_reduce_max = bytes(0.0);
    CHECK(test::contains(test::validation_message(e), "kernels.cross_host_norm_kernels = 2: kernels a cross-host all-reduce adds back"));
    e.kernels.cross_host_norm_kernels = 0.0;
    CHECK(test::validation_message(e).empty());
    for (const engine_profile& other : catalog::all_engines)
        if (!(other == catalog::trtllm_blackwell)) CHECK(other.kernels.cross_host_norm_kernels == 0.0);
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.cross_host_norm_kernels == 0.0);
    const std::string columns =
        header + ",all_reduce_norm_fusion,cross_host_all_reduce_us,cross_host_all_reduce_bus_GBps,cross_host_norm_kernels,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",1,9.8,144,2,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.cross_host_norm_kernels == 2.0);
    for (const char* bad : {"-1", "nan", "2.5", "4"}) {
        const std::string m =
            test::message_of([&] { return io::parse_engines_csv(columns + row + ",1,9.8,144," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "cross_host_norm_kernels"));
        CHECK(test::contains(m, bad));
    }
}

// ---- The FP8 block-scaled checkpoint's own kernels (`engine_kernels::fp8_attention_quant_kernels`) -----

TEST_CASE("kernels a pass launches: SGLang's FP8 block-scaled attention on ROCm, counted by hand") {
    // DeepSeek-V3: 61 layers, 58 MoE; generic 10·61 + 4·58 + 3 = 845. SGLang on ROCm, DeepSeek-R1's
    // 128 × 128-block FP8 checkpoint (sgl-project/sglang fp8_utils.py @6082c49 aiter_w8a8_block_fp8_linear;
    // deepseek_v2.py @3e4a39e, `_is_hip`; docs/sglang-fp8-activation-quant.md): fused q_a/kv_a, q_b and
    // o_proj each run aiter_per1x128_quant before gemm_a8w8_blockscale (+3), and W_kc and W_vc each run
    // `w.to(bfloat16) * w_scale` (a cast and a multiply) before the BF16 bmm (+2 + 2): 7 a layer,
    // 845 + 7·61 = 845 + 427 = 1,272. amd/DeepSeek-R1-0528-MXFP4-Preview keeps its attention in BF16
    // (plain GEMMs, MXFP4 BMMs with the quantization inside): the generic 845, as before.
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}, .engine = catalog::sglang_cdna4};
    CHECK(d.m.weights.name == "fp8");  // the catalog's DeepSeek-V3 is the FP8 checkpoint
    CHECK(detail::kernels_per_pass(d) == 1272.0);
    CHECK(detail::kernels_per_pass(with_formats(d, formats::mxfp4, formats::fp8)) == 845.0);
    CHECK(detail::kernels_per_pass(with_formats(d, formats::bf16, formats::bf16)) == 845.0);
    SUBCASE("CDNA3 (MI325X, MI300X): the same HIP path, 1,272") {
        deployment c = d;
        c.hw = catalog::mi325x;
        c.engine = catalog::sglang_cdna3;
        CHECK(detail::kernels_per_pass(c) == 1272.0);
        c.hw = catalog::mi300x;
        CHECK(detail::kernels_per_pass(c) == 1272.0);
    }
    SUBCASE("TP4 and attention DP: the count is per layer, not per rank") {
        deployment t = d;
        t.layout = {.tp = 4};
        CHECK(detail::kernels_per_pass(t) == 1272.0);
        t.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(detail::kernels_per_pass(t) == 1272.0);
    }
    SUBCASE("only W8A8 FP8 on latent attention: FP8 weights computed in BF16, or a model without MLA, keep theirs") {
        deployment a = d;
        a.hw = catalog::a100_sxm_80gb;  // no FP8 units: with_formats runs FP8 weights as W8A16
        a = with_formats(a, formats::fp8, formats::bf16);
        CHECK(a.m.activations.compute == compute_class::bf16);
        CHECK(detail::kernels_per_pass(a) == 845.0);
        deployment l = with_formats(d, formats::fp8, formats::bf16);
        l.m = catalog::llama_3_1_70b;  // 80 dense layers, grouped-query attention: 10·80 + 3
        l = with_formats(l, formats::fp8, formats::bf16);
        CHECK(detail::kernels_per_pass(l) == 803.0);
    }
    SUBCASE("an FP8 checkpoint that keeps its attention inputs in BF16 quantizes no attention activation: 845") {
        const deployment k = with_formats(d, formats::fp8, formats::fp8, excluded_modules{.attention_inputs = true});
        CHECK(detail::kernels_per_pass(k) == 845.0);
    }
    SUBCASE("Hopper's 13 already holds the FP8 quantizations: no term, 1,394 as before") {
        deployment h{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}, .engine = catalog::sglang_hopper};
        CHECK(catalog::sglang_hopper.kernels.fp8_attention_quant_kernels == 0.0);
        CHECK(detail::kernels_per_pass(h) == 1394.0);
    }
    SUBCASE("the step at one sequence: 427 more kernels × (MI355X's 4 µs + the profile's launch cost)") {
        deployment none = d;
        none.engine.kernels.fp8_attention_quant_kernels = 0.0;
        const double per_kernel = 4e-6 + catalog::sglang_cdna4.overheads.launch_graph.value();
        for (double b : {1.0, 4.0, 64.0}) {
            CAPTURE(b);
            const double more = decode_pass(d, b, 1000_tok).time().value() - decode_pass(none, b, 1000_tok).time().value();
            CHECK(more == doctest::Approx(427.0 * per_kernel).epsilon(1e-6));
        }
    }
}

TEST_CASE("fp8_attention_quant_kernels: refusals, the catalog's rows and the table's optional column") {
    engine_profile e = catalog::sglang_cdna4;
    for (double bad : {-1.0, 2.5, 33.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        CAPTURE(bad);
        e.kernels.fp8_attention_quant_kernels = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.fp8_attention_quant_kernels = "));
        CHECK(test::contains(m, "must be 0 (none) or a whole number of kernels a layer up to 32"));
    }
    e.kernels.fp8_attention_quant_kernels = -1.0;
    CHECK(test::contains(test::validation_message(e), "kernels.fp8_attention_quant_kernels = -1"));
    e.kernels.fp8_attention_quant_kernels = 32.0;
    CHECK(test::validation_message(e).empty());
    // The catalog (tables/engines.csv, tables/scripts/sglang_fp8_attention_quant.py): 7 on SGLang on CDNA3 and
    // CDNA4, 2 on SGLang on Blackwell, none elsewhere.
    CHECK(catalog::sglang_cdna3.kernels.fp8_attention_quant_kernels == 7.0);
    CHECK(catalog::sglang_cdna4.kernels.fp8_attention_quant_kernels == 7.0);
    CHECK(catalog::sglang_blackwell.kernels.fp8_attention_quant_kernels == 2.0);
    CHECK(catalog::sglang_hopper.kernels.fp8_attention_quant_kernels == 0.0);
    CHECK(catalog::trtllm_blackwell.kernels.fp8_attention_quant_kernels == 0.0);
    CHECK(catalog::vllm_cdna4.kernels.fp8_attention_quant_kernels == 0.0);
    // An old table without the column loads with 0; a new one reads it and refuses a bad value by
    // file, line and column.
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,sglang,cdna4,1,1,1,0,1,1,1,1,1,1,0,0,8.976,1,6.3,24,33.5,0,0,2048,16384,1,16384,0.875,1,1,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.fp8_attention_quant_kernels == 0.0);
    const std::string columns = header + ",fp8_attention_quant_kernels,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",5,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.fp8_attention_quant_kernels == 5.0);
    for (const char* bad : {"-1", "nan", "2.5", "33"}) {
        CAPTURE(bad);
        const std::string m =
            test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "fp8_attention_quant_kernels"));
        CHECK(test::contains(m, bad));
    }
}
