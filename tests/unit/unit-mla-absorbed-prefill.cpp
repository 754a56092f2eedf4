// A prompt step that carries a chunked prompt's continuation runs absorbed MLA on SGLang on Hopper (session 52,
// docs/sglang-closed-loop-ttft.md §8): in sgl-project/sglang v0.5.6 (@7ae368efd) deepseek_v2.py l.320–367, a prompt
// step whose batch's prefix total Σ extend_prefix_lens is in (0, 8,192) (SGL_CHUNKED_PREFIX_CACHE_THRESHOLD, l.1362)
// runs FlashInfer's BatchMLAPagedAttentionWrapper (head dims 512 + 64 / 512) for every token of the step, where every
// other prompt step runs the MHA ragged kernel (192 / 128). engine_kernels::mla_absorbed_prefix_below,
// absorbed_prompt_attention. Hand-worked FLOPs and times, the profiles' cells, refusals.
#include <cmath>

#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

// DeepSeek-V3 FP8 weights, BF16 KV cache, TP8 on H200 under `e` (the InferenceMAX H200 SGLang launch's shape).
deployment dsv3_tp8(const engine_profile& e) {
    return with_formats(deployment{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8},
                                   .engine = with_kv_memory_fraction(e, 0.82)},
                        formats::fp8, formats::bf16);
}

engine_profile with_threshold(engine_profile e, double p) {
    e.kernels.mla_absorbed_prefix_below = tokens(p);
    return e;
}

std::string engines_text() {
    std::ifstream in(std::filesystem::path(LLMCOST_TABLES_DIR) / "engines.csv", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// One prompt step of `prompts` prompts, `pairs` query-key pairs a layer summed over them, `fresh` new tokens in all,
// no decodes, priced by the library's one step formula as the simulator prices it (per-prompt means).
detail::step_terms<double> prompt_step(const pass_model& pm, double prompts, double fresh, double pairs_per_layer) {
    const double pairs = pairs_per_layer * 61.0;  // DeepSeek-V3: 61 layers, every one full (latent) attention
    const detail::sequence_terms<double> t{.prefill_tokens = fresh / prompts, .pairs_decode = 0.0,
                                           .pairs_prefill = pairs / prompts, .kv_decode = 0.0, .kv_prefill = 0.0};
    return detail::step_formula(pm, t, 0.0, prompts);
}

}  // namespace

TEST_CASE("absorbed MLA prompt steps: the threshold's rule, by hand") {
    const engine_kernels& k = catalog::sglang_hopper.kernels;
    CHECK(k.mla_absorbed_prefix_below.value() == 8192.0);
    // Σ p = 0: a step of whole prompts runs MHA; 0 < Σ p < 8,192: absorbed; Σ p ≥ 8,192: MHA (MHA_CHUNKED_KV).
    CHECK_FALSE(k.absorbed_mla_prompt_step(0_tok));
    CHECK(k.absorbed_mla_prompt_step(1_tok));
    CHECK(k.absorbed_mla_prompt_step(6144_tok));
    CHECK(k.absorbed_mla_prompt_step(8191_tok));
    CHECK_FALSE(k.absorbed_mla_prompt_step(8192_tok));
    CHECK_FALSE(k.absorbed_mla_prompt_step(20000_tok));
    // A profile with 0 never switches, whatever the prefix.
    for (const engine_profile* e : {&catalog::sglang_blackwell, &catalog::sglang_cdna3, &catalog::sglang_cdna4,
                                    &catalog::vllm_hopper, &catalog::trtllm_hopper})
        for (const double p : {1.0, 4096.0, 8191.0, 1e6})
            CHECK_FALSE(e->kernels.absorbed_mla_prompt_step(tokens(p)));
}

TEST_CASE("absorbed MLA: a continuation step's attention FLOPs for DeepSeek-V3 TP8, by hand, against the MHA step") {
    // Per query-key pair and head: absorbed 2·(r + d_rope) + 2·r = 2·(512 + 64) + 2·512 = 2,176 FLOPs; MHA
    // 2·(d_nope + d_rope) + 2·d_v = 2·(128 + 64) + 2·128 = 640. 128 query heads ÷ TP 8 = 16 a GPU: 34,816 and
    // 10,240 FLOPs a pair a GPU.
    const pass_model pm = prepare_pass(dsv3_tp8(catalog::sglang_hopper));
    REQUIRE(has_absorbed_prompt_steps(pm));
    const pass_model pa = absorbed_prompt_attention(pm);
    CHECK(pm.layer_kinds.attention() == 61.0);
    CHECK(pm.pair_flops_prefill / 8.0 == 10'240.0);
    CHECK(pa.pair_flops_prefill / 8.0 == 34'816.0);
    CHECK(pa.pair_flops_decode == pm.pair_flops_decode);  // decode was already absorbed: unchanged
    // A step of 32,768 tokens (SGLang's chunk on the InferenceMAX 8k runs): prompt A's tail of k = 2,048 tokens after
    // p = 6,144 (an 8,192-token prompt split by the previous step), three whole 8,192-token prompts, and the first
    // 6,144 tokens of the next. Σ p = 6,144 ∈ (0, 8,192): the whole step runs absorbed.
    // Pairs a layer: A Σ_{i=6,145}^{8,192} i = 2,048 · (6,145 + 8,192) ÷ 2 = 14,681,088; each whole prompt
    // 8,192 · 8,193 ÷ 2 = 33,558,528 (× 3 = 100,675,584); the head 6,144 · 6,145 ÷ 2 = 18,877,440; in all 134,234,112,
    // × 61 layers = 8,188,280,832.
    CHECK(pm.d.engine.kernels.absorbed_mla_prompt_step(6144_tok));
    const double pairs = 14'681'088.0 + 100'675'584.0 + 18'877'440.0;
    CHECK(pairs == 134'234'112.0);
    const detail::step_terms<double> mha = prompt_step(pm, 5.0, 32768.0, pairs);
    const detail::step_terms<double> abs = prompt_step(pa, 5.0, 32768.0, pairs);
    // MHA: 8,188,280,832 × 10,240 = 83,847,995,719,680 FLOPs a GPU; absorbed: × 34,816 = 285,083,185,446,912 (3.4 ×).
    CHECK(mha.attention_flops == doctest::Approx(83'847'995'719'680.0).epsilon(1e-12));
    CHECK(abs.attention_flops == doctest::Approx(285'083'185'446'912.0).epsilon(1e-12));
    // At the prompt rate R_p = 989.4 TFLOP/s (H200 BF16) × 0.331 (the hardware's attention fraction) × 1 (SGLang on
    // Hopper's attention_prefill) = 327.4914 TFLOP/s, the same for both (the ASSUMPTION): 0.256031 s against 0.870505 s,
    // +0.614474 s; the matmuls, KV and the rest of the step unchanged.
    CHECK(pm.attention_rate == doctest::Approx(989.4e12 * 0.331).epsilon(1e-12));
    CHECK(mha.attention_compute == doctest::Approx(83'847'995'719'680.0 / 327.4914e12).epsilon(1e-9));
    CHECK(abs.attention_compute == doctest::Approx(285'083'185'446'912.0 / 327.4914e12).epsilon(1e-9));
    CHECK(abs.attention_compute - mha.attention_compute == doctest::Approx(0.614474).epsilon(1e-5));
    CHECK(abs.matmul_compute == mha.matmul_compute);
    CHECK(abs.kv_bytes == mha.kv_bytes);
    CHECK(abs.time() - mha.time() == doctest::Approx(abs.attention_compute - mha.attention_compute).epsilon(1e-12));
    // A profile with 0 never switches: its absorbed pass model is the MHA one.
    const pass_model p0 = prepare_pass(dsv3_tp8(with_threshold(catalog::sglang_hopper, 0.0)));
    CHECK_FALSE(has_absorbed_prompt_steps(p0));
    CHECK(absorbed_prompt_attention(p0).pair_flops_prefill == p0.pair_flops_prefill);
    // A model without latent attention never switches either (Llama-3.1-70B on the same profile).
    const pass_model llama = prepare_pass(deployment{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm,
                                                     .layout = {.tp = 8}, .engine = catalog::sglang_hopper});
    CHECK_FALSE(has_absorbed_prompt_steps(llama));
    CHECK(absorbed_prompt_attention(llama).pair_flops_prefill == llama.pair_flops_prefill);
}

TEST_CASE("absorbed MLA in the simulator: a continuation below 8,192 tokens of prefix pays it, one at 8,192 does not") {
    // One 12,288-token prompt, 2 output tokens, one server.
    const workload::traffic one{.input = workload::fixed(12288_tok), .output = workload::fixed(2_tok),
                                .arrivals = workload::closed_loop(1.0)};
    const deployment d = dsv3_tp8(catalog::sglang_hopper);
    const deployment never = dsv3_tp8(with_threshold(catalog::sglang_hopper, 0.0));
    auto run = [&](const deployment& x, double chunk) {
        const sim::options o{.limits = {.max_tokens_per_step = chunk, .prefill_chunk = tokens(chunk)}, .requests = 1,
                             .seed = 1, .keep_requests = true, .timeline_points = 0};
        const sim::result r = sim::simulate(x, one, o);
        REQUIRE(r.requests.size() == 1);
        return r.requests[0].ttft;
    };
    // Chunk 4,096: steps of 4,096 at p = 0 (MHA), 4,096 at p = 4,096 (absorbed), 4,096 at p = 8,192 (MHA). Only the
    // second moves: its pairs Σ_{i=4,097}^{8,192} i = 4,096 · (4,097 + 8,192) ÷ 2 = 25,167,872 a layer, × 61 =
    // 1,535,240,192, × (34,816 − 10,240) = 37,730,062,958,592 FLOPs a GPU more, ÷ 327.4914 TFLOP/s = 0.115210 s.
    CHECK(run(d, 4096.0) - run(never, 4096.0) == doctest::Approx(37'730'062'958'592.0 / 327.4914e12).epsilon(1e-6));
    CHECK(37'730'062'958'592.0 / 327.4914e12 == doctest::Approx(0.115210).epsilon(1e-5));
    // Chunk 8,192: the continuation's prefix is 8,192, not below the threshold: MHA, the TTFT unchanged.
    CHECK(run(d, 8192.0) == run(never, 8192.0));
    // Whole prompts (no chunk): no step carries a prefix.
    CHECK(run(d, 16384.0) == run(never, 16384.0));
}

TEST_CASE("mla_absorbed_prefix_below: negative, NaN, infinite or fractional refused, named, and the table's cells") {
    for (const double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity(), 8191.5}) {
        const engine_profile e = with_threshold(catalog::sglang_hopper, bad);
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "kernels.mla_absorbed_prefix_below"));
        CHECK(test::contains(m, "0 (never) or a whole, finite number of tokens"));
        CHECK(test::contains(m, "llmcost.engine.mla_absorbed_prefix"));
    }
    // The table: 8,192 on SGLang on Hopper, 0 (never) on every other profile.
    const std::string text = engines_text();
    for (const engine_profile& e : io::parse_engines_csv(text, "engines.csv"))
        CHECK(e.kernels.mla_absorbed_prefix_below.value() == (e.name == catalog::sglang_hopper.name ? 8192.0 : 0.0));
    // A bad cell in the column is refused with the column's name.
    // ... init_resident, long-context scale, cold opening MoE-only, threshold, router_whole_bf16
    const std::string cell = ",2,2175,0,1,8192,every_moe,\"";
    const std::size_t at = text.find(cell);
    REQUIRE(at != std::string::npos);
    for (const char* bad : {"-8192", "nan"}) {
        std::string broken = text;
        broken.replace(at, cell.size(), std::string(",2,2175,0,1,") + bad + ",every_moe,\"");
        const std::string m = test::message_of([&] { return io::parse_engines_csv(broken, "bad-engines.csv"); });
        CHECK(test::contains(m, "mla_absorbed_prefix_below_tokens"));
    }
}

TEST_CASE("absorbed MLA in the closed form's chunked prefill: the step's Σ p over its prompts, by hand") {
    const deployment d = dsv3_tp8(catalog::sglang_hopper);
    const deployment never = dsv3_tp8(with_threshold(catalog::sglang_hopper, 0.0));
    // One 12,288-token prompt in chunks of 4,096 (`split_prompt`: 3 chunks at prefixes 0, 4,096, 8,192): only the
    // second is absorbed, +37,730,062,958,592 FLOPs a GPU ÷ 327.4914 TFLOP/s = 0.115210 s (as in the simulator).
    const double one = chunked_prefill_time(d, 1.0, 12288_tok, 4096_tok).value() -
                       chunked_prefill_time(never, 1.0, 12288_tok, 4096_tok).value();
    CHECK(one == doctest::Approx(37'730'062'958'592.0 / 327.4914e12).epsilon(1e-9));
    // Two such prompts prefilled together: the second step's Σ p = 2 × 4,096 = 8,192, not below the threshold: MHA.
    CHECK(chunked_prefill_time(d, 2.0, 12288_tok, 4096_tok).value() ==
          chunked_prefill_time(never, 2.0, 12288_tok, 4096_tok).value());
    // Whole prompts: no step carries a prefix.
    CHECK(chunked_prefill_time(d, 1.0, 12288_tok, 16384_tok).value() ==
          chunked_prefill_time(never, 1.0, 12288_tok, 16384_tok).value());
}
