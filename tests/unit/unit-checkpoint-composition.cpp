// A checkpoint that quantizes the FFNs only and keeps its quantizer's excluded modules in BF16
// (`model::excluded`, `with_formats(d, weights, kv, kept)`; docs/checkpoint-composition.md): ModelOpt's DeepSeek
// PTQ (`*attn*`, `*head*` disabled) and Quark's amd/DeepSeek-R1-0528-MXFP4-Preview (`*self_attn* *mlp.gate.* *lm_head`).
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/plan/sweep.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

constexpr excluded_modules all_attention{.attention_inputs = true, .attention_kv_up = true, .attention_output = true};

deployment mi355x_tp8() { return {.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}}; }

}  // namespace

TEST_CASE("excluded modules: DeepSeek-V3's attention parameters by projection, counted by hand") {
    // h 7,168, 128 heads, q_lora 1,536, kv_lora 512, RoPE 64, nope 128, v 128 (DeepSeek-V3 config.json):
    // q_a 7,168 · 1,536 = 11,010,048, its norm 1,536, q_b 1,536 · 128 · 192 = 37,748,736;
    // kv_a 7,168 · 576 = 4,128,768, its norm 512; kv_b 512 · 128 · 256 = 16,777,216; o 128 · 128 · 7,168 = 117,440,512.
    const model& m = catalog::deepseek_v3;
    CHECK(attention_parameters_per_layer(m) == 187'107'328);
    CHECK(attention_output_parameters_per_layer(m) == 117'440'512);
    CHECK(attention_kv_up_parameters_per_layer(m) == 16'777'216);
    model kept = m;
    kept.excluded = {.attention_inputs = true};
    CHECK(excluded_parameters(kept).attention == 52'889'600.0 * 61);  // 11,010,048 + 1,536 + 37,748,736 + 4,128,768 + 512
    kept.excluded = all_attention;
    CHECK(excluded_parameters(kept).attention == 187'107'328.0 * 61);
    CHECK(excluded_parameters(kept).lm_head == 0.0);
    kept.excluded.lm_head = kept.excluded.embedding = true;  // 129,280 · 7,168 = 926,679,040 each, untied
    CHECK(excluded_parameters(kept).lm_head == 926'679'040.0);
    CHECK(excluded_parameters(kept).embedding == 926'679'040.0);
    CHECK(excluded_parameters(kept).read(false) == 187'107'328.0 * 61 + 926'679'040.0);
    CHECK(excluded_parameters(m).total() == 0.0);  // none excluded: quantized throughout
}

TEST_CASE("excluded modules: BF16 attention on MI355X TP8 costs its bytes in a decode step, worked by hand") {
    // Attention 187,107,328 · 61 = 11,413,547,008 parameters. Per GPU at TP8: BF16 11,413,547,008 · 2 ÷ 8 =
    // 2,853,386,752 B; MXFP4 (4 + 8 ÷ 32 = 4.25 bits) 11,413,547,008 · 0.53125 ÷ 8 = 757,930,856 B; difference
    // 2,095,455,896 B; + the replicated down-projections q_a, kv_a (7,168 · 2,112 · 61 · 7 ÷ 8 = 808,034,304 more
    // parameters a GPU) at 2 − 0.53125 B: + 1,186,800,384 = 3,282,256,280 B. MI355X's weight bandwidth 8.0 TB/s ·
    // 0.8813 = 7.0504 TB/s (the reference engine: × 1), so one sequence's decode step reads them
    // 3,282,256,280 ÷ 7.0504e12 = 0.46554 ms longer.
    const deployment fp4 = with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8);
    const deployment kept = with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8, all_attention);
    CHECK((dense_weight_bytes_per_gpu(kept) - dense_weight_bytes_per_gpu(fp4)).value() == doctest::Approx(3'282'256'280.0));
    CHECK(expert_weight_bytes_per_gpu(kept) == expert_weight_bytes_per_gpu(fp4));
    const pass_cost a = decode_pass(fp4, 1.0, 2048_tok), b = decode_pass(kept, 1.0, 2048_tok);
    CHECK((b.weight_bytes - a.weight_bytes).value() == doctest::Approx(3'282'256'280.0));
    CHECK((b.matmul_memory_time - a.matmul_memory_time).value() == doctest::Approx(0.46554e-3).epsilon(1e-4));
    CHECK(b.attention_time() == a.attention_time());
}

TEST_CASE("excluded modules: a prompt's BF16 attention projections at the BF16 peak, the experts still W4A4") {
    // 8,192 tokens at TP8: F = 2 · 8,192 · (11,413,547,008 ÷ 8 + 808,034,304) = 3.66138e13 FLOPs in the attention
    // projections (q_a and kv_a whole on each rank: 7,168 · 2,112 · 61 · 7 ÷ 8 = 808,034,304 beyond the 1 ÷ 8 share).
    // The reference engine's curve on MI355X for both (no engine curves): n = ∛(8,192 · 7,168 · 2,304) = 5,133.6
    // (dense width 18,432 ÷ 8), e = 0.6793 · 5,133.6 ÷ 5,931.6 = 0.58791; BF16 peak 2,500, MXFP4 10,000 TFLOP/s:
    // Δt = F · (1 ÷ 2.5e15 − 1 ÷ 1e16) ÷ 0.58791 = 18.683 ms.
    const deployment fp4 = with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8);
    const deployment kept = with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8, all_attention);
    const pass_cost a = prefill_pass(fp4, 1.0, 8192_tok, 0_tok), b = prefill_pass(kept, 1.0, 8192_tok, 0_tok);
    CHECK((b.matmul_compute_time - a.matmul_compute_time).value() == doctest::Approx(18.683e-3).epsilon(1e-3));
    CHECK(b.matmul_flops == a.matmul_flops);
    // The routed experts keep the FP4 peak (W4A4), not the mixed-input W4A16 kernel, nor the FP8 peak.
    const pass_model pa = prepare_pass(fp4), pb = prepare_pass(kept);
    CHECK(pb.expert_peak == pa.expert_peak);
    CHECK(pb.expert_peak == 10'000e12);
    CHECK(pb.mixed_input_ceiling == 0.0);
    CHECK(pb.expert_parameters == pa.expert_parameters);
    CHECK(kept.m.activations == formats::mxfp4);
    // The scalar and the sweep's lanes price the same step.
    CHECK(decode_pass(prepare_pass(kept), 4.0, 1000_tok).time() == decode_pass(kept, 4.0, 1000_tok).time());
}

TEST_CASE("excluded modules: the measurements column is optional, applies the kept list, and refuses unknown words") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source";
    const std::string row = "A,check,DeepSeek-V3,MI355X,sglang,0.5.7,8,1,1,1,mxfp4,fp8,fixed_batch,,,,,4,1000,1000,tpot_s,10,ms,s";
    // Without the column (an older file): FP4 throughout, as before.
    const auto before = io::parse_measurements_csv(header + "\n" + row + "\n", "m.csv");
    CHECK(before[0].d.m == with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8).m);
    // With the column, empty: the same.
    const auto empty = io::parse_measurements_csv(header + ",excluded_modules\n" + row + ",\n", "m.csv");
    CHECK(empty[0].d.m == before[0].d.m);
    // With the MXFP4-Preview's list as served by SGLang on gfx950.
    const auto kept = io::parse_measurements_csv(header + ",excluded_modules\n" + row + ",attention_in attention_out lm_head embedding\n", "m.csv");
    const excluded_modules want{.attention_inputs = true, .attention_output = true, .lm_head = true, .embedding = true};
    CHECK(kept[0].d.m.excluded == want);
    CHECK(kept[0].d.m.weights == formats::mxfp4);
    CHECK(kept[0].d.m.excluded.format == formats::bf16);
    // An unknown word: refused with the file, line, column and value.
    const std::string bad = test::message_of([&] {
        return io::parse_measurements_csv(header + ",excluded_modules\n" + row + ",attention_in shared_experts\n", "m.csv");
    });
    CHECK(test::contains(bad, "m.csv:2:"));  // the file and line (then the column)
    CHECK(test::contains(bad, "key \"excluded_modules\""));
    CHECK(test::contains(bad, "shared_experts"));
    // A kept list on a row with no weights format: refused.
    const std::string bf16_row = "A,check,DeepSeek-V3,MI355X,sglang,0.5.7,8,1,1,1,,fp8,fixed_batch,,,,,4,1000,1000,tpot_s,10,ms,s";
    CHECK(test::contains(test::message_of([&] {
                             return io::parse_measurements_csv(header + ",excluded_modules\n" + bf16_row + ",lm_head\n", "m.csv");
                         }),
                         "weights column"));
    // A list that names no module (only separators): refused by the one rule, not read as "none kept".
    const std::string none = test::message_of([&] {
        return io::parse_measurements_csv(header + ",excluded_modules\n" + row + ",\" \"\n", "m.csv");
    });
    CHECK(test::contains(none, "key \"excluded_modules\""));
    CHECK(test::contains(none, "names no module; the words: attention_in, attention_kv_b"));
    // kv_b on standard attention: refused by the model's rule.
    deployment llama{.m = catalog::llama_3_1_8b, .hw = catalog::mi355x};
    llama = with_formats(llama, formats::mxfp4, formats::fp8, {.attention_kv_up = true});
    CHECK(test::contains(test::validation_message(llama), "excluded.attention_kv_up"));
}

TEST_CASE("excluded modules: the sweep's lanes equal the scalar formulas to the last bit") {
    // The model's own formats (an empty formats axis keeps them): MXFP4 with the MXFP4-Preview's kept list as SGLang
    // serves it, on MI355X and B200, TP8 and EP8 with attention DP.
    const model m = with_formats(mi355x_tp8(), formats::mxfp4, formats::fp8,
                                 {.attention_inputs = true, .attention_output = true, .lm_head = true, .embedding = true})
                        .m;
    const plan::sweep_grid g{.m = m,
                             .gpus = {catalog::mi355x, catalog::b200_hgx},
                             .formats = {{}},
                             .layouts = {{.tp = 8}, {.tp = 1, .ep = 8, .dp = 8}},
                             .modes = {{}},
                             .shapes = {{.input = 1000_tok, .output = 200_tok}, {.input = 7373_tok, .output = 922_tok}},
                             .batches = {1.0, 16.0, 256.0}};
    const plan::sweep_result s = plan::sweep(g);
    std::size_t compared = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const plan::sweep_point p = s.point(i);
        if (p.status == plan::point_status::invalid_deployment) continue;
        ++compared;
        CHECK(p.block->d.m.excluded == m.excluded);
        const serving_point r = serve_at_batch(p.block->d, p.shape, p.batch, s.grid.limits);
        CHECK(r.tpot.value() == p.tpot.value());
        CHECK(r.ttft.value() == p.ttft.value());
        CHECK(r.output_rate_per_gpu.value() == p.output_rate_per_gpu.value());
    }
    CHECK(compared > 0);
}

TEST_CASE("replicated MLA down-projections: DeepSeek-V3 TP8 holds and reads q_a and kv_a whole on every rank, by hand") {
    // q_a + kv_a: 7,168 · (1,536 + 512 + 64) = 7,168 · 2,112 = 15,138,816 a layer, · 61 = 923,467,776 parameters.
    // TP8 shards the rest (÷ 8), not these: each GPU holds 923,467,776 · 7 ÷ 8 = 808,034,304 parameters more
    // than 1 ÷ 8 of the TP1 deployment: + 808,034,304 B at FP8 (1 B), + 1,616,068,608 B at BF16 (2 B).
    CHECK(attention_down_parameters_per_layer(catalog::deepseek_v3) == 15'138'816);
    CHECK(replicated_down_projection_bytes(with_formats(mi355x_tp8(), formats::fp8, formats::fp8).m).value() == 923'467'776.0);
    auto at = [](deployment d, int tp) { d.layout.tp = tp; return d; };
    const deployment fp8 = with_formats(mi355x_tp8(), formats::fp8, formats::fp8);
    CHECK((dense_weight_bytes_per_gpu(fp8) - dense_weight_bytes_per_gpu(at(fp8, 1)) / 8.0).value() ==
          doctest::Approx(808'034'304.0));
    // One sequence's decode step on MI355X FP8 reads them too: 808,034,304 B ÷ (8.0 TB/s · 0.8813 = 7.0504 TB/s)
    // = 0.11461 ms beyond 1 ÷ 8 of the TP1 step's weight read (the experts and the rest scale by 1 ÷ 8 exactly).
    const pass_cost a8 = decode_pass(fp8, 1.0, 2048_tok), a1 = decode_pass(at(fp8, 1), 1.0, 2048_tok);
    CHECK((a8.weight_bytes - a1.weight_bytes / 8.0).value() == doctest::Approx(808'034'304.0));
    CHECK((a8.matmul_memory_time - a1.matmul_memory_time / 8.0).value() == doctest::Approx(0.11461e-3).epsilon(1e-4));
    // GB200 NVFP4 with the attention inputs kept in BF16 (ModelOpt's DeepSeek FP4): 808,034,304 · 2 = 1,616,068,608 B
    // ÷ (8.0 TB/s · 0.919 = 7.352 TB/s) = 0.21981 ms.
    const deployment gb = with_formats({.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 8}},
                                       formats::nvfp4, formats::fp8, {.attention_inputs = true});
    CHECK((dense_weight_bytes_per_gpu(gb) - dense_weight_bytes_per_gpu(at(gb, 1)) / 8.0).value() ==
          doctest::Approx(1'616'068'608.0));
    const pass_cost g8 = decode_pass(gb, 1.0, 2048_tok), g1 = decode_pass(at(gb, 1), 1.0, 2048_tok);
    CHECK((g8.weight_bytes - g1.weight_bytes / 8.0).value() == doctest::Approx(1'616'068'608.0));
    CHECK((g8.matmul_memory_time - g1.matmul_memory_time / 8.0).value() == doctest::Approx(0.21981e-3).epsilon(1e-4));
    // FLOPs: a 1,000-token prompt computes 2 · 1,000 · 808,034,304 = 1.61607e12 more than 1 ÷ 8 of TP1's.
    const pass_cost p8 = prefill_pass(fp8, 1.0, 1000_tok, 0_tok), p1 = prefill_pass(at(fp8, 1), 1.0, 1000_tok, 0_tok);
    CHECK((p8.matmul_flops - p1.matmul_flops / 8.0).value() == doctest::Approx(1.616068608e12));
    // Attention DP (TP1 per attention rank, EP8): nothing replicated beyond one rank; standard attention: none.
    deployment adp = fp8;
    adp.layout = {.tp = 1, .ep = 8, .dp = 8};
    CHECK(prepare_pass(adp).replicated_parameters == 0.0);
    CHECK(attention_down_parameters_per_layer(catalog::llama_3_1_70b) == 0);
    // The scalar and the sweep's lanes price the same step.
    CHECK(decode_pass(prepare_pass(gb), 4.0, 1000_tok).time() == decode_pass(gb, 4.0, 1000_tok).time());
}
