// SGLang on ROCm runs DeepSeek's fused shared expert whole on every EP rank of a TEP layout (tp = ep > 1,
// tensor-parallel attention, no all-to-all): `engine_moe::shared_expert_ep_replicated`,
// `replicated_shared_expert_share` (docs/sglang-rocm-shared-expert.md; sgl-project/sglang deepseek_v2.py
// @00e3e6ea3 determine_num_fused_shared_experts l.3271-3311, its DeepSeek-V3 shape gate l.3279-3284, and
// DeepseekV2MoE.__init__ l.644-650, PR #12201 aead0ef5e).
// Every expectation below is worked by hand from DeepSeek-V3's config (hidden 7,168, shared expert width 2,048,
// gated: 3 matrices, 58 MoE layers of 61) and MI355X's table row; none is the code's output pasted back.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <cmath>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

constexpr deployment deepseek_mi355x(parallel_layout l, const engine_profile& e = catalog::sglang_cdna4) {
    return {.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = l, .engine = e};
}
constexpr parallel_layout tep8{.tp = 8, .ep = 8};
constexpr parallel_layout dep8{.tp = 1, .ep = 8, .dp = 8};
constexpr parallel_layout tp8{.tp = 8};

// The same deployment with the switch off: the shared expert TP-sharded, as every layout priced it before.
deployment sharded(deployment d) {
    d.engine.moe.shared_expert_ep_replicated = false;
    return d;
}

// Two passes priced alike: the same GEMM FLOPs, weight bytes and time.
void check_same(const pass_cost& a, const pass_cost& b) {
    CHECK(a.matmul_flops == b.matmul_flops);
    CHECK(a.weight_bytes == b.weight_bytes);
    CHECK(a.matmul_compute_time == b.matmul_compute_time);
    CHECK(a.time() == b.time());
}

// One MoE layer's shared expert, 3 · 7,168 · 2,048 = 44,040,192 parameters; 58 MoE layers: 2,554,331,136.
constexpr double shared_parameters = 3.0 * 7168.0 * 2048.0 * 58.0;

}  // namespace

// The rule is constexpr: checked where it is compiled.
static_assert(replicated_shared_expert_share(deepseek_mi355x(tep8)) == 7.0 / 8.0);
static_assert(replicated_shared_expert_share(deepseek_mi355x(dep8)) == 0.0);
static_assert(replicated_shared_expert_share(deepseek_mi355x(tp8)) == 0.0);
static_assert(replicated_shared_expert_share(deepseek_mi355x(tep8, catalog::vllm_cdna4)) == 0.0);
static_assert(shared_expert_weight_bytes(catalog::deepseek_v3).value() == 2554331136.0);  // FP8: 1 byte a parameter
// SGLang against vLLM: the replicated shared expert, (7/8) · 2,554,331,136 = 2,235,039,744 B, and nothing else: both
// keep the BF16 router whole on every rank (`whole_router_extra_bytes_per_gpu`, session 52: G = 7,168 · 256 · 58 =
// 106,430,464 parameters, 2 G − G ÷ 8 = 199,557,120 B each; no kv_b copies priced on ROCm).
static_assert(whole_router_extra_bytes_per_gpu(deepseek_mi355x(tep8)).value() == 199557120.0);
static_assert(whole_router_extra_bytes_per_gpu(deepseek_mi355x(tep8, catalog::vllm_cdna4)).value() == 199557120.0);
static_assert(dense_weight_bytes_per_gpu(deepseek_mi355x(tep8)).value() - dense_weight_bytes_per_gpu(deepseek_mi355x(tep8, catalog::vllm_cdna4)).value() ==
              2235039744.0);
// (7/8) · 2,554,331,136 = 2,235,039,744 B, pp 1; pp 2 halves it (each stage holds half the layers).
static_assert(replicated_shared_expert_bytes_per_gpu(deepseek_mi355x(tep8)).value() == 2235039744.0);
static_assert(replicated_shared_expert_bytes_per_gpu(deepseek_mi355x({.tp = 8, .pp = 2, .ep = 8})).value() == 2235039744.0 / 2);
static_assert(replicated_shared_expert_bytes_per_gpu(deepseek_mi355x(dep8)).value() == 0.0);
// SGLang on CDNA3 (MI300X) runs the same code path (HIP ≥ gfx942).
static_assert(replicated_shared_expert_share({.m = catalog::deepseek_v3, .hw = catalog::mi300x, .layout = tep8,
                                              .engine = catalog::sglang_cdna3}) == 7.0 / 8.0);
// SGLang fuses only the DeepSeek-V3/R1 shape (256 routed, 1 shared, MLA): Llama-4-Maverick (128 routed, 1 shared,
// standard attention) and Qwen3-Next (512 routed) keep their shared expert TP-sharded.
static_assert(fuses_deepseek_v3_shared_expert(catalog::deepseek_v3));
static_assert(!fuses_deepseek_v3_shared_expert(catalog::llama_4_maverick));
static_assert(!fuses_deepseek_v3_shared_expert(catalog::qwen3_next_80b_a3b));

TEST_CASE("the switch: 1 on SGLang on CDNA3 and CDNA4 (ROCm), 0 on every other profile") {
    for (const engine_profile& e : catalog::all_engines) {
        const bool rocm_sglang = e.kind == engine_kind::sglang &&
                                 (e.architecture == gpu_architecture::cdna3 || e.architecture == gpu_architecture::cdna4);
        CAPTURE(e.name);
        CHECK(e.moe.shared_expert_ep_replicated == rocm_sglang);
    }
    CHECK_FALSE(engine_profile::reference().moe.shared_expert_ep_replicated);
}

TEST_CASE("TEP8 DeepSeek-V3 on 8 MI355X, SGLang: a 7,373-token prompt gains 32.96 TFLOP a rank, hand-worked") {
    // x = (ep − 1) ÷ tp = 7 ÷ 8. F = 2 · t · P_shared · x = 2 · 7,373 · 2,554,331,136 · 7/8 = 3.29579e13 FLOP
    // (research PF40's 33.0 TFLOP a rank).
    const deployment on = deepseek_mi355x(tep8);
    const deployment off = sharded(on);
    const pass_cost a = prefill_pass(on, 1.0, 7373_tok, 0_tok);
    const pass_cost b = prefill_pass(off, 1.0, 7373_tok, 0_tok);
    const double extra = a.matmul_flops.value() - b.matmul_flops.value();
    CHECK(extra == doctest::Approx(2.0 * 7373.0 * shared_parameters * 7.0 / 8.0).epsilon(1e-12));
    CHECK(extra == doctest::Approx(32.958e12).epsilon(1e-4));
    CHECK(a.attention_flops == b.attention_flops);
    // The time: one more expert of the fused runner at all 7,373 rows, at SGLang on CDNA4's expert rate. Rows
    // padded to whole 64-row tiles, ⌈7,373 ÷ 64⌉ · 64 = 7,424; n = ∛(7,424 · 7,168 · 2,048) = ∛1.08985e11 = 4,776.63
    // (4,776.63³ = 1.08985e11); MI355X's curve 0.6793 · 4,776.63 ÷ (4,776.63 + 798) = 0.58207, × 7,373 ÷ 7,424 =
    // 0.57806; peak 5,000 TFLOP/s · gemm 0.9215 · 0.57806 · fp8_expert_gemm 0.4421 = 1,177.5 TFLOP/s;
    // 3.29579e13 ÷ 1.1775e15 = 27.99 ms. Not × the busiest rank's factor (every rank runs it alike).
    const double added = a.matmul_compute_time.value() - b.matmul_compute_time.value();
    CHECK(added == doctest::Approx(27.99e-3).epsilon(5e-4));
    CHECK(a.matmul_compute_time > b.matmul_compute_time);
}

TEST_CASE("TEP8: weights per GPU +2.235 GB (FP8), read every decode step, KV room smaller, hand-worked") {
    // S_bytes · x = 2,554,331,136 B · 7/8 = 2,235,039,744 B (1 byte a parameter: FP8).
    const deployment on = deepseek_mi355x(tep8);
    const deployment off = sharded(on);
    const double resident = weight_bytes_per_gpu(on).value() - weight_bytes_per_gpu(off).value();
    CHECK(resident == doctest::Approx(2235039744.0).epsilon(1e-12));
    CHECK(dense_weight_bytes_per_gpu(on).value() - dense_weight_bytes_per_gpu(off).value() ==
          doctest::Approx(2235039744.0).epsilon(1e-12));
    CHECK(expert_weight_bytes_per_gpu(on) == expert_weight_bytes_per_gpu(off));  // the routed experts stay as they were
    // A decode step of 64 sequences reads the whole copy once more, and runs 2 · 64 · P_shared · 7/8 more FLOPs.
    const pass_cost a = decode_pass(on, 64.0, 2048_tok);
    const pass_cost b = decode_pass(off, 64.0, 2048_tok);
    CHECK(a.weight_bytes.value() - b.weight_bytes.value() == doctest::Approx(2235039744.0).epsilon(1e-12));
    CHECK(a.matmul_flops.value() - b.matmul_flops.value() ==
          doctest::Approx(2.0 * 64.0 * shared_parameters * 7.0 / 8.0).epsilon(1e-12));
    CHECK(a.kv_bytes == b.kv_bytes);
    // The KV pool is what HBM leaves after the weights: the extra copy takes its room.
    CHECK(kv_capacity_tokens(on) < kv_capacity_tokens(off));
}

TEST_CASE("DEP8, TP8·EP1, other engines and models: the shared expert priced as before") {
    SUBCASE("DEP8 (tp 1, ep 8, dp 8: attention DP with an all-to-all) and TP8·EP1 on SGLang on CDNA4") {
        for (const parallel_layout l : {dep8, tp8}) {
            const deployment on = deepseek_mi355x(l);
            CHECK(replicated_shared_expert_share(on) == 0.0);
            CHECK(weight_bytes_per_gpu(on) == weight_bytes_per_gpu(sharded(on)));
            check_same(prefill_pass(on, 1.0, 7373_tok, 0_tok), prefill_pass(sharded(on), 1.0, 7373_tok, 0_tok));
            check_same(decode_pass(on, 64.0, 2048_tok), decode_pass(sharded(on), 64.0, 2048_tok));
        }
    }
    SUBCASE("the switch off: vLLM on CDNA4 and the TensorRT-LLM Blackwell profile set on MI355X, TEP8") {
        for (const engine_profile& e : {catalog::vllm_cdna4, catalog::trtllm_blackwell}) {
            const deployment d = deepseek_mi355x(tep8, e);
            CHECK(replicated_shared_expert_share(d) == 0.0);
            CHECK(weight_bytes_per_gpu(d) == weight_bytes_per_gpu(sharded(d)));
        }
    }
    SUBCASE("a dense model, and an MoE model without shared experts, on SGLang on CDNA4") {
        const deployment dense{.m = catalog::llama_3_1_70b, .hw = catalog::mi355x, .layout = tp8, .engine = catalog::sglang_cdna4};
        CHECK(replicated_shared_expert_share(dense) == 0.0);
        CHECK(weight_bytes_per_gpu(dense) == weight_bytes_per_gpu(sharded(dense)));
        const deployment qwen{.m = catalog::qwen3_235b_a22b, .hw = catalog::mi355x, .layout = tep8, .engine = catalog::sglang_cdna4};
        REQUIRE(catalog::qwen3_235b_a22b.ffn.shared_experts == 0);
        CHECK(replicated_shared_expert_share(qwen) == 0.0);
        check_same(prefill_pass(qwen, 1.0, 4096_tok, 0_tok), prefill_pass(sharded(qwen), 1.0, 4096_tok, 0_tok));
    }
    SUBCASE("MoE models with a shared expert SGLang does not fuse: Llama-4-Maverick TEP8, Qwen3-Next tp 4 ep 4") {
        REQUIRE(catalog::llama_4_maverick.ffn.shared_experts == 1);
        REQUIRE(catalog::qwen3_next_80b_a3b.ffn.shared_experts == 1);
        const deployment maverick{.m = catalog::llama_4_maverick, .hw = catalog::mi355x, .layout = tep8, .engine = catalog::sglang_cdna4};
        const deployment next{.m = catalog::qwen3_next_80b_a3b, .hw = catalog::mi355x, .layout = {.tp = 4, .ep = 4},
                              .engine = catalog::sglang_cdna4};
        for (const deployment& d : {maverick, next}) {
            CHECK(replicated_shared_expert_share(d) == 0.0);
            CHECK(replicated_shared_expert_bytes_per_gpu(d).value() == 0.0);
            CHECK(weight_bytes_per_gpu(d) == weight_bytes_per_gpu(sharded(d)));
            check_same(prefill_pass(d, 1.0, 4096_tok, 0_tok), prefill_pass(sharded(d), 1.0, 4096_tok, 0_tok));
            check_same(decode_pass(d, 64.0, 2048_tok), decode_pass(sharded(d), 64.0, 2048_tok));
        }
    }
}

TEST_CASE("property: the extra is monotone in tokens (FLOPs strictly, time never falls), (ep − 1) ÷ tp of the shared expert, zero at ep = 1") {
    const deployment on = deepseek_mi355x(tep8);
    const deployment off = sharded(on);
    double last_flops = 0.0, last_time = 0.0;
    for (const double n : {1.0, 7.0, 64.0, 65.0, 512.0, 2048.0, 7373.0, 16384.0, 65536.0}) {
        CAPTURE(n);
        const pass_cost a = prefill_pass(on, 1.0, tokens(n), 0_tok);
        const pass_cost b = prefill_pass(off, 1.0, tokens(n), 0_tok);
        const double flops = a.matmul_flops.value() - b.matmul_flops.value();
        const double time = a.matmul_compute_time.value() - b.matmul_compute_time.value();
        CHECK(flops > last_flops);
        CHECK(time >= last_time);  // equal within one padded row unit (1 and 7 rows both compute 8)
        CHECK(flops == doctest::Approx(2.0 * n * shared_parameters * 7.0 / 8.0).epsilon(1e-9));
        last_flops = flops;
        last_time = time;
    }
    // x = (ep − 1) ÷ tp on the layouts that keep tp·dp = tp (dp = 1): TP8 with EP 2 and 4 shard each expert
    // over tp ÷ ep = 4 and 2 ranks, so a rank holds ep ÷ tp of the shared expert, 1 ÷ tp of it already priced.
    CHECK(replicated_shared_expert_share(deepseek_mi355x({.tp = 8, .ep = 2})) == 1.0 / 8.0);
    CHECK(replicated_shared_expert_share(deepseek_mi355x({.tp = 8, .ep = 4})) == 3.0 / 8.0);
    CHECK(replicated_shared_expert_share(deepseek_mi355x({.tp = 4, .ep = 4})) == 3.0 / 4.0);
    CHECK(replicated_shared_expert_share(deepseek_mi355x({.tp = 8, .ep = 1})) == 0.0);
}

TEST_CASE("shared_expert_ep_replicated: the table's optional column, a flag refused by file, line and column") {
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,sglang,cdna4,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,7812.5,0,58.95,460.7,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK_FALSE(old[0].moe.shared_expert_ep_replicated);  // absent: 0, TP-sharded
    // An optional column, found by name (so a table may carry it alone), after the large-message custom all-reduce's
    // columns and before the first-use build's, which came after it.
    CHECK(test::engine_column_optional("shared_expert_ep_replicated"));
    CHECK(test::engine_column_index("custom_all_reduce_large_min_KiB") < test::engine_column_index("shared_expert_ep_replicated"));
    CHECK(test::engine_column_index("shared_expert_ep_replicated") < test::engine_column_index("first_use_build_s"));
    for (const char* bad : {"2", "0.5", "-1"}) {
        // A table of the required columns and this one alone: the loader finds columns by name.
        const std::string text = header + ",shared_expert_ep_replicated,source\n" + row + "," + bad + ",my runs\n";
        const std::string m = test::message_of([&] { return io::parse_engines_csv(text, "mine.csv"); });
        CAPTURE(m);
        // file:line:column: the row is line 2, the flag its table's column after the required ones
        CHECK(test::contains(m, "mine.csv:2:" + std::to_string(std::size(io::detail::engines_csv::required_columns) + 1)));
        CHECK(test::contains(m, "shared_expert_ep_replicated"));
        CHECK((test::contains(m, "a flag is 0 or 1") || test::contains(m, "must not be negative")));
    }
    const std::string text = header + ",shared_expert_ep_replicated,source\n" + row + ",1,my runs\n";
    const auto mine = io::parse_engines_csv(text, "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].moe.shared_expert_ep_replicated);
}
