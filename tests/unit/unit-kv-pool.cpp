// The KV pool by the engine's own rule (docs/kv-pool.md): hand-worked pools for each rule, a user's
// reserve that wins, the memory breakdown that adds up, the refusals, and the measurement column.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/breakdown.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/serving/throughput.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <array>
#include <cmath>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

constexpr double GiB = 1073741824.0;

// DeepSeek-V3 (FP8 weights, BF16 MLA cache) on 8 H200 in TP8 under SGLang at --mem-fraction-static 0.82,
// the InferenceMAX H200 launch (tables/measurements.csv, IMX-H200-sglang-DSR1-*).
deployment dsv3_sglang(double f) {
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}, .engine = catalog::sglang_hopper};
    d.engine.scheduler.kv_memory_fraction = f;
    return d;
}

// Llama-3.1-70B in FP8 (weights and KV) on one H100 under TensorRT-LLM (T05).
deployment llama70_trtllm() {
    return with_formats(deployment{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .engine = catalog::trtllm_hopper},
                        formats::fp8, formats::fp8);
}

}  // namespace

TEST_CASE("KV pool, SGLang's rule: f x (HBM - R_init) - weights, the activations in the other 1 - f") {
    const deployment d = dsv3_sglang(0.82);
    // H200 as the runtime reports it: 143,071.875 MiB = 150,021,734,400 B (tables/hardware.csv runtime_capacity_MiB; the
    // spec's 141 GiB = 151,397,597,184 B); SGLang on Hopper's memory resident at init R = 2,175 MiB = 2,280,652,800 B.
    // Weights: 671 G FP8 parameters at 1 B, split 8 ways in TP8 = 83.88 GB per GPU, but MLA's q_a and kv_a
    // (7,168 x 2,112 x 61 = 923,467,776) whole on every rank (docs/mla-replicated-down-projection.md): + 923,467,776 x
    // 7 / 8 = 808,034,304 B; and what SGLang lays out beyond its shard (session 51): the BF16 router whole, 7,168 x 256 x
    // 58 = 106,430,464 x (2 - 1/8) = 199,557,120 B, and the BF16 w_kc/w_vc copies of kv_b, 61 x 512 x 128 x 256 x 2 / 8 =
    // 255,852,544 B: 85.142 GB.
    const double hbm = 150'021'734'400.0, resident = 2'175.0 * 1'048'576.0;
    const double weights =
        static_cast<double>(total_parameters(catalog::deepseek_v3)) / 8.0 + 808'034'304.0 + 199'557'120.0 + 255'852'544.0;
    REQUIRE(weight_bytes_per_gpu(d).value() == doctest::Approx(weights).epsilon(1e-9));
    CHECK(weights == doctest::Approx(85.142e9).epsilon(1e-4));
    // Pool = 0.82 x (150.0217 − 2.2807) GB − 85.142 GB = 121.148 − 85.142 = 36.006 GB.
    const double pool = 0.82 * (hbm - resident) - weights;
    CHECK(pool == doctest::Approx(36.006e9).epsilon(1e-4));
    const kv_pool_split s = kv_pool_per_gpu(d);
    CHECK(s.rule == kv_pool_rule::share_of_total_static);
    CHECK(s.fraction == 0.82);
    CHECK(s.pool.value() == doctest::Approx(pool).epsilon(1e-12));
    CHECK(s.activations.value() == 0.0);
    // Outside the pool: the driver's (151,397,597,184 − 150,021,734,400), R, and 0.18 of the rest.
    CHECK(s.slack.value() == doctest::Approx(141.0 * GiB - hbm + 0.18 * (hbm - resident)).epsilon(1e-12));
    CHECK(s.runtime.value() == resident);
    CHECK(kv_budget_per_gpu(d) == s.pool);
    // MLA cache in BF16: (512 + 64) x 61 layers x 2 B = 70,272 B per token, whole on every TP rank:
    // 36.006 GB / 70,272 B = 512,379 tokens (561,5xx before session 51, 573,0xx before the replicated
    // down-projections; the generic reserve gave 57.95 GB, 824,644 tokens).
    CHECK(kv_bytes_per_token_per_gpu(d).value() == 70'272.0);
    CHECK(kv_capacity_tokens(d).value() == doctest::Approx(pool / 70'272.0).epsilon(1e-12));
    CHECK(kv_capacity_tokens(d).value() == doctest::Approx(512'379.6).epsilon(1e-5));
    // 64 sequences of 7,373 + 922 tokens (the c64 run's mean) need 64 x 8,295 x 70,272 B = 37.31 GB: no longer all
    // at once (61 of them fit).
    CHECK(max_sequences(d, 8'295_tok) == std::floor(pool / (70'272.0 * 8'295)));
    CHECK(max_sequences(d, 8'295_tok) == 61.0);
}

TEST_CASE("KV pool, TensorRT-LLM's rule: f x (HBM - weights - non-KV), T05 at max tokens 2,048") {
    const deployment d = llama70_trtllm();
    // H100 as CUDA reports it (session 52): 81,105.6875 MiB = 85,045,477,376 B (deviceQuery, hardware.csv
    // runtime_capacity_MiB; the spec's 80 GiB = 85,899,345,920 B). Weights 70,553,706,496 FP8 parameters = 70.55 GB.
    // Non-KV (aiconfigurator's memory model, docs/kv-pool.md), T05's max tokens 2,048:
    //   activations 2 x 2,048 x (64 heads x 128 = 8,192) x 11 (LLAMA at TP1) = 369,098,752 B,
    //   NCCL at TP1 0, runtime 3.5 GiB = 3,758,096,384 B: 4,127,195,136 B in all.
    // Free = 85,045,477,376 - 70,553,706,496 - 369,098,752 - 3,758,096,384 = 10,364,575,744 B;
    // pool = 0.9 x 10,364,575,744 = 9,328,118,169.6 B = 9.33 GB (10.10 GB on the spec's 80 GiB).
    const double hbm = 85'045'477'376.0;
    const double weights = static_cast<double>(total_parameters(catalog::llama_3_1_70b));
    REQUIRE(weight_bytes_per_gpu(d).value() == doctest::Approx(weights).epsilon(1e-9));
    const double a = 2.0 * 2048 * 8192 * 11, runtime = 3.5 * GiB;
    CHECK(a == 369'098'752.0);
    const memory_reserve t05{.step_tokens = 2'048_tok};
    const non_kv_memory n = engine_non_kv_per_gpu(d, 2'048_tok);
    CHECK(n.activations.value() == a);
    CHECK(n.communication.value() == 0.0);
    CHECK(n.runtime.value() == runtime);
    const double free = hbm - weights - a - runtime;
    const kv_pool_split s = kv_pool_per_gpu(d, t05);
    CHECK(s.rule == kv_pool_rule::free_after_weights);
    CHECK(s.activations.value() == a);
    CHECK(s.runtime.value() == runtime);
    CHECK(s.pool.value() == doctest::Approx(0.9 * free).epsilon(1e-12));
    CHECK(s.pool.value() == doctest::Approx(9'328'118'169.6).epsilon(1e-12));
    // Slack: the driver's reserve (80 GiB − 85,045,477,376 = 853,868,544 B) + 0.1 x free = 1,890,326,118.4 B.
    CHECK(s.slack.value() == doctest::Approx(853'868'544.0 + 0.1 * free).epsilon(1e-12));
    // FP8 KV: 80 layers x 8 heads x 128 x 2 (K, V) x 1 B = 163,840 B per token; T05's sequences of
    // 128 + 2,048 tokens hold 356,515,840 B each: 9,328,118,169.6 / 356,515,840 = 26.16, 26 fit (28 on the spec's
    // 80 GiB; the flat 2 GB gave 33). The library's reserve: 0.95 x 85,045,477,376 - 2e9 - 70,553,706,496 =
    // 8,239,497,011.2 B, / 356,515,840 = 23.1: 23 (25 on the spec's).
    CHECK(kv_bytes_per_token_per_gpu(d).value() == 163'840.0);
    CHECK(max_sequences(d, 2'176_tok, t05) == std::floor(0.9 * free / (163'840.0 * 2'176)));
    CHECK(max_sequences(d, 2'176_tok, t05) == 26.0);
    CHECK(max_sequences(d, 2'176_tok, {.fraction = 0.05}) == 23.0);
    // The limits carry the budget: T05's run (max batch 64, max tokens 2,048) admits 26, by KV capacity.
    const scheduler_limits l{.max_batch = 64, .max_tokens_per_step = 2048};
    CHECK(l.pool_reserve().step_tokens.value() == 2048.0);
    const batch_limit b = max_batch(d, {.input = 128_tok, .output = 2'048_tok}, l);
    CHECK(b.batch == 26.0);
    CHECK(std::string(b.limited_by) == "KV capacity");
    // No step budget given: the engine's max_batched_tokens 8,192 (E110): activations
    // 2 x 8,192 x 8,192 x 11 = 1,476,395,008 B; pool = 0.9 x (85,045,477,376 - 70,553,706,496 - 1,476,395,008 -
    // 3,758,096,384) = 0.9 x 9,257,279,488 = 8,331,551,539.2 B, / 356,515,840 = 23.4: 23 sequences.
    const double a8k = 2.0 * 8192 * 8192 * 11;
    CHECK(engine_non_kv_per_gpu(d).activations.value() == a8k);
    CHECK(kv_budget_per_gpu(d).value() == doctest::Approx(0.9 * (hbm - weights - a8k - runtime)).epsilon(1e-12));
    CHECK(kv_budget_per_gpu(d).value() == doctest::Approx(8'331'551'539.2).epsilon(1e-12));
    CHECK(max_sequences(d, 2'176_tok) == 23.0);
}

TEST_CASE("KV pool, vLLM's rule: f x HBM - weights - non-KV, and the reference engine's 0.95") {
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::vllm_hopper};
    // vLLM prices with TensorRT-LLM's coefficients (aiconfigurator vllm_backend.py): at its 8,192 tokens
    // per step, activations 2 x 8,192 x (32 x 128 = 4,096) x 11 = 738,197,504 B; runtime 3.5 GiB.
    // H the H100's runtime total, 85,045,477,376 B (session 52). Pool = 0.9 x 85,045,477,376 - 16,060,522,496
    // (8,030,261,248 x 2 B, BF16) - 738,197,504 - 3,758,096,384 = 76,540,929,638.4 - 20,556,816,384 = 55,984,113,254.4 B.
    const double hbm = 85'045'477'376.0;
    const double weights = 2.0 * static_cast<double>(total_parameters(catalog::llama_3_1_8b));
    const double a = 2.0 * 8192 * 4096 * 11, runtime = 3.5 * GiB;
    CHECK(a == 738'197'504.0);
    CHECK(kv_pool_per_gpu(d).rule == kv_pool_rule::share_of_total);
    CHECK(kv_budget_per_gpu(d).value() == doctest::Approx(0.9 * hbm - weights - a - runtime).epsilon(1e-12));
    CHECK(kv_budget_per_gpu(d).value() == doctest::Approx(55'984'113'254.4).epsilon(1e-12));
    // Llama-3.1-70B BF16 in TP2 on H200 at max tokens 4,096: activations 2 x 4,096 x 8,192 x 6.5 (TP2)
    // = 436,207,616 B, NCCL at TP2 358,612,992 B (342 MiB), runtime 3.5 GiB; weights 141.1 GB / 2 = 70.55 GB.
    // Pool = 0.9 x 151.398 - 70.55 - 0.436 - 0.359 - 3.758 = 136.26 - 75.10 = 61.15 GB.
    deployment tp2{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 2}, .engine = catalog::vllm_hopper};
    const double w2 = static_cast<double>(total_parameters(catalog::llama_3_1_70b));
    REQUIRE(weight_bytes_per_gpu(tp2).value() == doctest::Approx(w2).epsilon(1e-9));
    const non_kv_memory n2 = engine_non_kv_per_gpu(tp2, 4'096_tok);
    CHECK(n2.activations.value() == 436'207'616.0);
    CHECK(n2.communication.value() == 358'612'992.0);
    CHECK(n2.runtime.value() == runtime);
    // H the runtime's 150,021,734,400 B (tables/hardware.csv runtime_capacity_MiB): 0.9 x 150.022 − 75.107 = 59.91 GB.
    const double pool2 = 0.9 * 150'021'734'400.0 - w2 - 436'207'616.0 - 358'612'992.0 - runtime;
    CHECK(kv_budget_per_gpu(tp2, {.step_tokens = 4'096_tok}).value() == doctest::Approx(pool2).epsilon(1e-12));
    CHECK(pool2 == doctest::Approx(59.91e9).epsilon(1e-3));
    // The reference engine (no engine named) keeps the library's reserve: 0.95 x HBM - 2 GB - weights,
    // the same bytes as the generic rule a user asks for with fraction 0.05, whatever the step budget:
    // 0.95 x 85,045,477,376 - 2e9 - 16,060,522,496 = 62,732,681,011.2 B.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    CHECK(kv_budget_per_gpu(ref).value() == doctest::Approx(0.95 * hbm - 2e9 - weights).epsilon(1e-12));
    CHECK(kv_budget_per_gpu(ref).value() == doctest::Approx(62'732'681'011.2).epsilon(1e-12));
    CHECK(kv_budget_per_gpu(ref) == kv_budget_per_gpu(ref, {.fraction = 0.05}));
    CHECK(kv_budget_per_gpu(ref, {.step_tokens = 512_tok}) == kv_budget_per_gpu(ref));
}

TEST_CASE("non-KV memory: SGLang's figures, the floor, the TP steps, SGLang's pool does not subtract them") {
    // DeepSeek-V3 (MLA: no head dim, the query width is the hidden 7,168, as aiconfigurator's utils.py)
    // in TP8 under SGLang at 8,192 tokens: 2 x 8,192 x 7,168 x 13 (MOE at TP8) x 1.15 = 1,755,735,654.4 B;
    // NCCL at TP8 411,041,792 B (392 MiB); runtime 3.5 GiB x 1.2 = 4,509,715,660.8 B.
    const deployment d = dsv3_sglang(0.82);
    const non_kv_memory n = engine_non_kv_per_gpu(d, 8'192_tok);
    CHECK(n.activations.value() == doctest::Approx(2.0 * 8192 * 7168 * 13 * 1.15).epsilon(1e-15));
    CHECK(n.activations.value() == doctest::Approx(1'755'735'654.4).epsilon(1e-12));
    CHECK(n.communication.value() == 411'041'792.0);
    CHECK(n.runtime.value() == doctest::Approx(4'509'715'660.8).epsilon(1e-15));
    CHECK(kv_budget_per_gpu(d, {.step_tokens = 8'192_tok}).value() ==
          doctest::Approx(0.82 * (150'021'734'400.0 - 2'175.0 * 1'048'576.0) - weight_bytes_per_gpu(d).value()).epsilon(1e-12));
    // The floor: one token of Llama-3.1-8B under TensorRT-LLM is 2 x 1 x 4,096 x 11 = 90,112 B, under
    // 70 MiB = 73,400,320 B; SGLang's floor is 90 MiB, then its 15 %.
    deployment small{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::trtllm_hopper};
    CHECK(engine_non_kv_per_gpu(small, 1_tok).activations.value() == 73'400'320.0);
    small.engine = catalog::sglang_hopper;
    CHECK(engine_non_kv_per_gpu(small, 1_tok).activations.value() == doctest::Approx(90.0 * 1048576 * 1.15).epsilon(1e-15));
    // TP above 8 takes TP8's figures (the source clamps at 8); TP 3 the next lower listed (TP2).
    deployment l70{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 16}, .engine = catalog::trtllm_hopper};
    CHECK(engine_non_kv_per_gpu(l70, 1'000_tok).activations.value() == 2.0 * 1000 * 8192 * 5);
    CHECK(engine_non_kv_per_gpu(l70, 1'000_tok).communication.value() == 411'041'792.0);
    // A MoE model at TP1 takes the MOE column: Mixtral-8x7B, 32 x 128 = 4,096 wide, 22.
    deployment mx{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .engine = catalog::trtllm_hopper};
    CHECK(engine_non_kv_per_gpu(mx, 1'000_tok).activations.value() == 2.0 * 1000 * 4096 * 22);
    // An engine without the figures (AMD's profiles) keeps the flat 2 GB and nothing else.
    deployment amd{.m = catalog::llama_3_1_8b, .hw = catalog::mi300x, .engine = catalog::vllm_cdna3};
    CHECK(engine_non_kv_per_gpu(amd, 2'048_tok).activations.value() == 2e9);
    CHECK(engine_non_kv_per_gpu(amd, 2'048_tok).total().value() == 2e9);
}

TEST_CASE("KV pool property: falls as the step budget rises (TensorRT-LLM, vLLM), SGLang's stays") {
    const std::array<deployment, 3> ds{llama70_trtllm(),
                                       deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h200_sxm, .engine = catalog::vllm_hopper},
                                       dsv3_sglang(0.82)};
    for (std::size_t k = 0; k < ds.size(); ++k) {
        double last = 1e300;
        for (double t = 64; t <= 65536; t *= 2) {
            const double pool = kv_budget_per_gpu(ds[k], scheduler_limits{.max_tokens_per_step = t}.pool_reserve()).value();
            if (k < 2 && t >= 2048) CHECK(pool < last);  // both budgets above the 70 MiB floor: strictly
            if (k < 2) CHECK(pool <= last);
            if (k == 2) CHECK(pool == kv_budget_per_gpu(ds[k]).value());
            last = pool;
        }
    }
}

TEST_CASE("non-KV memory: partial coefficients, no step budget, a negative step budget are refused, named") {
    engine_profile e = catalog::trtllm_hopper;
    e.scheduler.non_kv.dense[2] = 0.0;
    const std::string m = test::validation_message(e);
    CHECK(test::contains(m, "scheduler.non_kv.dense"));
    CHECK(test::contains(m, "TP 1, 2, 4, 8"));
    engine_profile f = catalog::trtllm_hopper;
    f.scheduler.max_batched_tokens = 0.0;
    CHECK(test::contains(test::validation_message(f), "scheduler.max_batched_tokens"));
    deployment d = llama70_trtllm();
    d.engine.scheduler.max_batched_tokens = 0.0;
    const std::string n = test::error_of([&] { return engine_non_kv_per_gpu(d); });
    CHECK(test::contains(n, "scheduler.max_batched_tokens"));
    CHECK(test::contains(n, "tokens per step"));
    const scheduler_limits l{.reserve = {.step_tokens = tokens(-1.0)}};
    CHECK(test::contains(test::error_of([&] { l.validate(); return 0; }), "reserve.step_tokens"));
    engine_profile g = catalog::sglang_hopper;
    g.scheduler.non_kv.runtime_overhead = 1.5;
    CHECK(test::contains(test::validation_message(g), "scheduler.non_kv.runtime_overhead"));
}

TEST_CASE("KV pool: a reserve the user gives wins over the engine's rule") {
    const deployment d = dsv3_sglang(0.82);
    // H the runtime's 150,021,734,400 B; the generic rule subtracts no memory resident at init, the engine's rule its 2,175 MiB.
    const double hbm = 150'021'734'400.0, weights = weight_bytes_per_gpu(d).value();
    // Fraction given: the generic rule, 2 GB of activations for the one left unset.
    CHECK(kv_budget_per_gpu(d, {.fraction = 0.05}).value() == doctest::Approx(0.95 * hbm - 2e9 - weights).epsilon(1e-12));
    CHECK(kv_pool_per_gpu(d, {.fraction = 0.05}).rule == kv_pool_rule::share_of_total);
    // Activations given: the generic rule too, with 5 % kept free.
    CHECK(kv_budget_per_gpu(d, {.activations = 10_GB}).value() == doctest::Approx(0.95 * hbm - 10e9 - weights).epsilon(1e-12));
    // Resident bytes (a draft model) count with the weights under the engine's rule, not in place of it.
    CHECK(kv_budget_per_gpu(d, {.resident = 1_GB}).value() ==
          doctest::Approx(0.82 * (hbm - 2'175.0 * 1'048'576.0) - weights - 1e9).epsilon(1e-12));
    CHECK_FALSE(memory_reserve{}.given());
    CHECK(memory_reserve{.fraction = 0.0}.given());
}

TEST_CASE("KV pool: HBM adds up by every rule (memory_per_gpu)") {
    const std::array<deployment, 3> ds{dsv3_sglang(0.82), llama70_trtllm(),
                                       deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::vllm_hopper}};
    for (const deployment& d : ds) {
        const memory_breakdown m = memory_per_gpu(d, 4, 1'000_tok);
        const double parts = m.dense_weights.value() + m.expert_weights.value() + m.kv.value() + m.activations.value() +
                             m.communication.value() + m.runtime.value() + m.slack.value() + m.free.value();
        CHECK(parts == doctest::Approx(m.capacity.value()).epsilon(1e-12));
        CHECK(m.free.value() == doctest::Approx(kv_budget_per_gpu(d).value() - m.kv.value()).epsilon(1e-12));
    }
}

TEST_CASE("KV pool property: grows with f and never passes HBM - weights") {
    const std::array<deployment, 3> ds{dsv3_sglang(0.82), llama70_trtllm(),
                                       deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h200_sxm, .engine = catalog::vllm_hopper}};
    for (const deployment& base : ds) {
        double last = -1e30;
        for (int i = 1; i <= 100; ++i) {
            deployment d = base;
            d.engine.scheduler.kv_memory_fraction = i / 100.0;
            const double pool = kv_budget_per_gpu(d).value();
            CHECK(pool > last);
            CHECK(pool <= d.hw.gpu.hbm_capacity.value() - weight_bytes_per_gpu(d).value());
            last = pool;
        }
    }
}

TEST_CASE("KV pool: a memory fraction outside 0 < f <= 1 is refused, named") {
    for (const double f : {0.0, -0.1, 1.2}) {
        deployment d = dsv3_sglang(0.82);
        d.engine.scheduler.kv_memory_fraction = f;
        const std::string m = test::error_of([&] { return kv_budget_per_gpu(d); });
        CHECK(test::contains(m, "scheduler.kv_memory_fraction"));
        CHECK(test::contains(m, "(0, 1]"));
        CHECK(test::contains(test::validation_message(d.engine), "scheduler.kv_memory_fraction"));
    }
}

TEST_CASE("engine table: the kv_pool_rule column, by name, and its refusal") {
    const std::string header = test::engine_table_columns() + ",kv_pool_rule,source\n";
    auto row = [](const std::string& rule) {
        return "Mine,sglang,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,256,8192,1,8192,0.82,1,1,0,0,0,0,1,0,0," + rule +
               ",my runs\n";
    };
    CHECK(io::parse_engines_csv(header + row("share_of_total_static"), "mine.csv")[0].scheduler.kv_pool ==
          kv_pool_rule::share_of_total_static);
    CHECK(io::parse_engines_csv(header + row("free_after_weights"), "mine.csv")[0].scheduler.kv_pool ==
          kv_pool_rule::free_after_weights);
    CHECK(io::parse_engines_csv(header + row(""), "mine.csv")[0].scheduler.kv_pool == kv_pool_rule::share_of_total);
    const std::string bad = test::message_of([&] { return io::parse_engines_csv(header + row("of_free"), "mine.csv"); });
    CHECK(test::contains(bad, "mine.csv:2"));
    CHECK(test::contains(bad, "kv_pool_rule"));
    CHECK(test::contains(bad, "share_of_total, free_after_weights, share_of_total_static"));
    // The catalog's rows: each engine its own rule.
    CHECK(catalog::trtllm_hopper.scheduler.kv_pool == kv_pool_rule::free_after_weights);
    CHECK(catalog::vllm_cdna3.scheduler.kv_pool == kv_pool_rule::share_of_total);
    CHECK(catalog::sglang_blackwell.scheduler.kv_pool == kv_pool_rule::share_of_total_static);
}

TEST_CASE("engine table: the non-KV memory columns, read and refused by column") {
    const std::string header = test::engine_table_columns() +
                               ",kv_pool_rule,activation_dense_tp1,activation_dense_tp2,activation_dense_tp4,"
                               "activation_dense_tp8,activation_moe_tp1,activation_moe_tp2,activation_moe_tp4,"
                               "activation_moe_tp8,activation_min_MiB,activation_overhead,nccl_tp1_B,nccl_tp2_B,"
                               "nccl_tp4_B,nccl_tp8_B,runtime_B,runtime_overhead,source\n";
    auto row = [](const std::string& non_kv) {
        return "Mine,trtllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,256,8192,1,8192,0.9,1,0,0,0,0,0,1,0,0,"
               "free_after_weights," + non_kv + ",my runs\n";
    };
    const engine_profile e =
        io::parse_engines_csv(header + row("11,6.5,5,5,22,13,10,10,70,0,0,358612992,411041792,411041792,3758096384,0"),
                              "mine.csv")[0];
    CHECK(e.scheduler.non_kv == catalog::trtllm_hopper.scheduler.non_kv);
    CHECK(e.scheduler.non_kv.min_activations.value() == 70.0 * 1048576);
    CHECK(e.scheduler.non_kv.communication[1].value() == 358'612'992.0);
    CHECK_FALSE(io::parse_engines_csv(header + row("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"), "mine.csv")[0].scheduler.non_kv.given());
    const std::string bad = test::message_of(
        [&] { return io::parse_engines_csv(header + row("11,6.5,5,5,22,0,10,10,70,0,0,0,0,0,0,0"), "mine.csv"); });
    CHECK(test::contains(bad, "mine.csv:2"));
    CHECK(test::contains(bad, "activation_moe_tp2"));  // the bad entry's own column (TP 2), not the family's first
    CHECK(test::contains(bad, "TP 1, 2, 4, 8"));
}

TEST_CASE("measurements: a row's kv_memory_fraction overrides its engine's default") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,kv_memory_fraction\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "k.csv"); };
    const auto rows = rows_of(
        "A,check,DeepSeek-V3,H200 SXM,sglang,0.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,64,7373,922,tpot_s,0.05,s,s,0.82\n"
        "B,check,DeepSeek-V3,H200 SXM,sglang,0.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,64,7373,922,tpot_s,0.05,s,s,\n");
    REQUIRE(rows.size() == 2);
    REQUIRE(rows[0].kv_memory_fraction.has_value());
    CHECK(*rows[0].kv_memory_fraction == 0.82);
    CHECK_FALSE(rows[1].kv_memory_fraction.has_value());
    const deployment a = plan::as_run(plan::with_own_engine(rows[0]));
    const deployment b = plan::as_run(plan::with_own_engine(rows[1]));
    CHECK(a.engine.scheduler.kv_memory_fraction == 0.82);
    CHECK(b.engine.scheduler.kv_memory_fraction == catalog::sglang_hopper.scheduler.kv_memory_fraction);
    CHECK(kv_budget_per_gpu(a).value() ==
          doctest::Approx(0.82 * (150'021'734'400.0 - 2'175.0 * 1'048'576.0) - weight_bytes_per_gpu(a).value()).epsilon(1e-12));
    // Refused with the file, the line, the column and the cell.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const std::string m =
        error("C,check,DeepSeek-V3,H200 SXM,sglang,0.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,64,7373,922,tpot_s,0.05,s,s,1.5\n");
    CHECK(test::contains(m, "k.csv:2"));
    CHECK(test::contains(m, "kv_memory_fraction"));
    CHECK(test::contains(m, "1.5"));
    CHECK(test::contains(m, "(0, 1]"));
    CHECK(test::contains(
        error("C,check,DeepSeek-V3,H200 SXM,sglang,0.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,64,7373,922,tpot_s,0.05,s,s,0\n"),
        "kv_memory_fraction"));
}

TEST_CASE("non-KV memory: figures without activation coefficients are refused, not ignored") {
    // AMD's profiles give no coefficients (the flat 2 GB): a runtime, a floor, an overhead or NCCL buffers
    // written beside them would never enter a pool, so each is refused, named.
    auto refused = [](auto&& set, const char* field) {
        engine_profile e = catalog::vllm_cdna3;
        REQUIRE_FALSE(e.scheduler.non_kv.given());
        set(e.scheduler.non_kv);
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, field));
        CHECK(test::contains(m, "without activation coefficients"));
    };
    refused([](engine_non_kv_memory& n) { n.runtime = bytes(3758096384.0); }, "scheduler.non_kv.runtime");
    refused([](engine_non_kv_memory& n) { n.min_activations = bytes(73400320.0); }, "scheduler.non_kv.min_activations");
    refused([](engine_non_kv_memory& n) { n.activation_overhead = 0.15; }, "scheduler.non_kv.activation_overhead");
    refused([](engine_non_kv_memory& n) { n.runtime_overhead = 0.2; }, "scheduler.non_kv.runtime_overhead");
    refused([](engine_non_kv_memory& n) { n.communication[1] = bytes(358612992.0); }, "scheduler.non_kv.communication");
    CHECK(test::validation_message(catalog::vllm_cdna3).empty());
}

TEST_CASE("KV pool: a step budget set on the reserve wins over the limits' max tokens per step") {
    const deployment d = llama70_trtllm();
    const scheduler_limits from_limits{.max_tokens_per_step = 2048};
    const scheduler_limits both{.max_tokens_per_step = 2048, .reserve = {.step_tokens = tokens(8192.0)}};
    CHECK(from_limits.pool_reserve().step_tokens.value() == 2048.0);
    CHECK(both.pool_reserve().step_tokens.value() == 8192.0);
    // T05's hand-worked pools above: 10.10 GB at 2,048 tokens, 9.10 GB at the engine's 8,192.
    CHECK(kv_budget_per_gpu(d, both.pool_reserve()).value() == doctest::Approx(kv_budget_per_gpu(d).value()).epsilon(1e-15));
    CHECK(kv_budget_per_gpu(d, from_limits.pool_reserve()).value() > kv_budget_per_gpu(d, both.pool_reserve()).value());
}

TEST_CASE("measurements: the row's flags travel with it onto any engine, and only onto an engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,kv_memory_fraction,cuda_graphs\n";
    const auto rows = io::parse_measurements_csv(
        header + "A,check,DeepSeek-V3,H200 SXM,sglang,0.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,64,7373,922,tpot_s,0.05,s,s,0.82,0\n",
        "k.csv");
    REQUIRE(rows.size() == 1);
    // Loaded, the row keeps its flag to itself: the reference engine (vLLM's rule at 0.95) does not take
    // SGLang's --mem-fraction-static.
    CHECK(rows[0].d.engine.scheduler.kv_memory_fraction == plan::measurement{}.d.engine.scheduler.kv_memory_fraction);
    CHECK(rows[0].d.engine.scheduler.kv_memory_fraction != 0.82);
    // Put on another profile (a fit's profile without launch costs, `llmcost calibrate --engine`), the run's
    // flags come along: its memory fraction and its eager steps.
    engine_profile neutral = catalog::sglang_hopper;
    neutral.overheads.launch_graph = seconds(0.0);
    const plan::measurement y = plan::on_engine(rows[0], neutral);
    CHECK(y.d.engine.scheduler.kv_memory_fraction == 0.82);
    CHECK_FALSE(y.d.engine.overheads.cuda_graphs);
    CHECK(y.d.engine.overheads.launch_graph.value() == 0.0);
    // with_own_engine is on_engine with the catalog's profile for the row.
    CHECK(plan::with_own_engine(rows[0]).d.engine == plan::on_engine(rows[0], catalog::sglang_hopper).d.engine);
}

TEST_CASE("a launch's KV memory fraction (with_kv_memory_fraction): Llama-3.1-8B BF16 on one H100, by hand") {
    // H100 SXM5 as CUDA reports it: 81,105.6875 MiB = 85,045,477,376 B (session 52; the spec's 80 GiB =
    // 85,899,345,920 B). Llama-3.1-8B: 32 layers of (q 4,096², k and v 4,096 x 1,024 each,
    // o 4,096², FFN 3 x 4,096 x 14,336, two norms of 4,096) = 218,112,000, x 32 = 6,979,584,000, embeddings
    // and LM head 2 x 128,256 x 4,096 = 1,050,673,152, final norm 4,096: 8,030,261,248 parameters, at 2 B
    // W = 16,060,522,496 B. KV: 32 layers x 2 x 8 heads x 128 x 2 B = 131,072 B a token.
    // vLLM and TensorRT-LLM on Hopper at their 8,192 tokens a step: X = 2 x 8,192 x 4,096 x 11 = 738,197,504 B
    // of activations + 3,758,096,384 B of runtime (no NCCL at TP 1) = 4,496,293,888 B.
    constexpr double H = 85'045'477'376.0, W = 16'060'522'496.0, X = 4'496'293'888.0;
    auto on = [](const engine_profile& e, double f) {
        return deployment{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = with_kv_memory_fraction(e, f)};
    };
    REQUIRE(weight_bytes_per_gpu(on(catalog::vllm_hopper, 0.5)).value() == W);
    REQUIRE(kv_bytes_per_token_per_gpu(on(catalog::vllm_hopper, 0.5)).value() == 131'072.0);
    // vLLM (--gpu-memory-utilization): f·H − W − X. 0.5: 42,522,738,688 − 20,556,816,384 = 21,965,922,304 B.
    const kv_pool_split v5 = kv_pool_per_gpu(on(catalog::vllm_hopper, 0.5));
    CHECK(v5.rule == kv_pool_rule::share_of_total);
    CHECK(v5.fraction == 0.5);
    CHECK(v5.pool.value() == 21'965'922'304.0);
    // 0.9: 76,540,929,638.4 − 20,556,816,384 = 55,984,113,254.4 B.
    CHECK(kv_budget_per_gpu(on(catalog::vllm_hopper, 0.9)).value() == doctest::Approx(55'984'113'254.4).epsilon(1e-12));
    // Sequences of 8,192 tokens (1,073,741,824 B each): 21.97 / 1.074 = 20.5 → 20; 55.98 / 1.074 = 52.1 → 52.
    CHECK(max_sequences(on(catalog::vllm_hopper, 0.5), 8192_tok) == 20.0);
    CHECK(max_sequences(on(catalog::vllm_hopper, 0.9), 8192_tok) == 52.0);
    // SGLang (--mem-fraction-static): f·(H − R) − W, R its 2,175 MiB = 2,280,652,800 B resident at init:
    // 0.5 x (85,045,477,376 − 2,280,652,800 = 82,764,824,576) − 16,060,522,496 = 25,321,889,792 B.
    CHECK(kv_budget_per_gpu(on(catalog::sglang_hopper, 0.5)).value() == 25'321'889'792.0);
    // TensorRT-LLM (free_gpu_memory_fraction): f·(H − W − X) = 0.5 x 64,488,660,992 = 32,244,330,496 B.
    CHECK(kv_budget_per_gpu(on(catalog::trtllm_hopper, 0.5)).value() == 32'244'330'496.0);
    // The reference engine: f·H − 2 GB − W = 42,522,738,688 − 2,000,000,000 − 16,060,522,496 = 24,462,216,192 B.
    CHECK(kv_budget_per_gpu(on(engine_profile::reference(), 0.5)).value() == 24'462'216'192.0);
    CHECK(H * 0.5 - W - X == 21'965'922'304.0);  // the arithmetic above, once more from the named terms
    // f = 1 is allowed (all of HBM to the engine), and only the fraction changes.
    const engine_profile one = with_kv_memory_fraction(catalog::vllm_hopper, 1.0);
    CHECK(one.scheduler.kv_memory_fraction == 1.0);
    engine_profile back = one;
    back.scheduler.kv_memory_fraction = catalog::vllm_hopper.scheduler.kv_memory_fraction;
    CHECK(back == catalog::vllm_hopper);
}

TEST_CASE("with_kv_memory_fraction property: every engine's pool grows with the launch's fraction") {
    for (const engine_profile& e : {engine_profile::reference(), catalog::vllm_hopper, catalog::sglang_hopper,
                                    catalog::trtllm_hopper, catalog::vllm_cdna3}) {
        const hardware& hw = e.architecture == gpu_architecture::cdna3 ? catalog::mi300x : catalog::h100_sxm5;
        double last = -1e30, last_tokens = -1.0;
        for (int i = 5; i <= 100; i += 5) {
            const deployment d{.m = catalog::llama_3_1_8b, .hw = hw, .engine = with_kv_memory_fraction(e, i / 100.0)};
            const double pool = kv_budget_per_gpu(d).value();
            CHECK(pool > last);
            CHECK(kv_capacity_tokens(d).value() >= last_tokens);
            last = pool;
            last_tokens = kv_capacity_tokens(d).value();
        }
    }
}

TEST_CASE("with_kv_memory_fraction: 0, negative, above 1 and NaN are refused, named") {
    for (const double f : {0.0, -0.5, 1.5, std::nan("")}) {
        const std::string m = test::error_of([&] { return with_kv_memory_fraction(catalog::vllm_hopper, f); });
        CHECK(test::contains(m, "kv_memory_fraction"));
        CHECK(test::contains(m, "a memory fraction must be in (0, 1]"));
        CHECK(test::contains(m, catalog::vllm_hopper.name));
    }
}

TEST_CASE("a fraction that leaves no KV pool: the does-not-fit refusals name the rule and the fraction") {
    // vLLM at 0.2 on the H100's runtime 85,045,477,376 B: 17,009,095,475.2 − 16,060,522,496 − 738,197,504 −
    // 3,758,096,384 = −3,547,720,908.8 B = −3.548 GB.
    const deployment v{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5,
                       .engine = with_kv_memory_fraction(catalog::vllm_hopper, 0.2)};
    const std::string w = test::error_of([&] {
        require_weights_fit(v);
        return 0;
    });
    CHECK(test::contains(w, "weights per GPU (B)"));
    CHECK(test::contains(w, "does not fit"));
    CHECK(test::contains(w, "share_of_total at kv_memory_fraction 0.2 leaves -3.548 GB for KV"));
    CHECK(test::contains(w, "a larger KV memory fraction"));
    CHECK(test::contains(w, "[llmcost.fit.weights]"));
    // TensorRT-LLM at 1e-9 keeps a pool of 64.5 B (1e-9 x 64,488,660,992; f·(H − W − X) > 0 for any f > 0): the
    // weights fit, one sequence does not; the refusal names the rule and the fraction, and no larger fraction is offered for the weights.
    const deployment t{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5,
                       .engine = with_kv_memory_fraction(catalog::trtllm_hopper, 1e-9)};
    CHECK(weights_fit(t));
    const std::string s = test::error_of([&] { return max_batch(t, {.input = 1000_tok, .output = 200_tok}); });
    CHECK(test::contains(s, "one sequence needs more KV"));
    CHECK(test::contains(s, "free_after_weights at kv_memory_fraction 1e-09"));
    CHECK(test::contains(s, "[llmcost.fit.kv_sequence]"));
    // A user's reserve: named as the reserve, not as an engine's fraction.
    const std::string r = test::error_of([&] {
        require_weights_fit(v, {.fraction = 0.9});
        return 0;
    });
    CHECK(test::contains(r, "the reserve (fraction 0.9, activations 2 GB)"));
    CHECK_FALSE(test::contains(r, "kv_memory_fraction"));
    // A larger fraction is offered only where one would leave a pool: 405B in BF16 (810 GB) on one H100 never fits.
    const std::string big = test::error_of([&] {
        require_weights_fit(deployment{.m = catalog::llama_3_1_405b, .hw = catalog::h100_sxm5});
        return 0;
    });
    CHECK(test::contains(big, "share_of_total at kv_memory_fraction 0.95"));
    CHECK_FALSE(test::contains(big, "larger KV memory fraction"));
}
