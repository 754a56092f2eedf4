// Descriptors: parameter counts against published totals, validation messages.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <string>

using namespace llmcost;
using namespace llmcost::literals;
using test::validation_message;

namespace {
struct published {
    const model* m;
    double total_b;   // billions, ../shared/reference/models.csv (each model's card / config)
    double active_b;  // 0 = not published separately
    bool active_excludes_embedding;
};
}  // namespace

TEST_CASE("parameter counts agree with published totals within 2%") {
    const published rows[] = {
        {&catalog::llama_2_70b, 69.0, 0, false},
        {&catalog::llama_3_1_8b, 8.0, 0, false},
        {&catalog::llama_3_1_70b, 70.6, 0, false},
        {&catalog::llama_3_1_405b, 405.9, 0, false},
        {&catalog::mixtral_8x7b, 46.7, 12.9, false},
        {&catalog::mixtral_8x22b, 140.6, 39.1, false},
        {&catalog::deepseek_v3, 671, 37, false},  // 671B excludes the MTP module, as we do
        {&catalog::qwen3_235b_a22b, 235, 22, false},
        {&catalog::gpt_oss_120b, 116.8, 5.1, true},  // OpenAI's active count excludes the embedding
        {&catalog::qwen3_8b, 8.2, 0, false},          // Qwen model cards' "Number of Parameters"
        {&catalog::qwen3_14b, 14.8, 0, false},
        {&catalog::qwen3_32b, 32.8, 0, false},
    };
    for (const published& p : rows) {
        CAPTURE(std::string(p.m->name));
        const double total = static_cast<double>(total_parameters(*p.m)) / 1e9;
        CHECK(total == doctest::Approx(p.total_b).epsilon(0.02));
        if (p.active_b > 0) {
            const double active = static_cast<double>(p.active_excludes_embedding ? matmul_parameters(*p.m)
                                                                                  : active_parameters(*p.m)) / 1e9;
            CHECK(active == doctest::Approx(p.active_b).epsilon(0.02));
        } else {
            CHECK(active_parameters(*p.m) == total_parameters(*p.m));  // dense: every weight is active
        }
    }
}

TEST_CASE("parameter breakdown by hand: DeepSeek-V3 MLA layer") {
    // q: 7168·1536 + 1536 + 1536·128·192; kv: 7168·576 + 512 + 512·128·256; o: 128·128·7168.
    const count_t expected = 7168LL * 1536 + 1536 + 1536LL * 128 * 192 + 7168LL * 576 + 512 +
                             512LL * 128 * 256 + 128LL * 128 * 7168;
    CHECK(attention_parameters_per_layer(catalog::deepseek_v3) == expected);
    const parameter_breakdown b = parameters(catalog::deepseek_v3);
    CHECK(b.routed_experts == 58LL * 256 * 3 * 7168 * 2048);  // 58 MoE layers × 256 experts
    CHECK(b.shared_experts == 58LL * 1 * 3 * 7168 * 2048);
    CHECK(b.dense_ffn == 3LL * 3 * 7168 * 18432);
    CHECK(b.total() == total_parameters(catalog::deepseek_v3));
}

TEST_CASE("weight bytes follow each tensor's format") {
    // gpt-oss-120b: experts MXFP4 (4.25 bits), the rest BF16.
    const parameter_breakdown b = parameters(catalog::gpt_oss_120b);
    const double expected = static_cast<double>(b.routed_experts) * 4.25 / 8 +
                            static_cast<double>(b.total() - b.routed_experts) * 2;
    CHECK(weight_bytes(catalog::gpt_oss_120b).value() == doctest::Approx(expected));
    CHECK(ratio(weight_bytes(catalog::gpt_oss_120b), 1_GB) == doctest::Approx(65.2).epsilon(0.01));
    CHECK(weight_bytes(catalog::llama_3_1_70b).value() ==
          doctest::Approx(2.0 * static_cast<double>(total_parameters(catalog::llama_3_1_70b))));
}


TEST_CASE("validation names the field, the value and the rule") {
    model m = catalog::llama_3_1_70b;
    SUBCASE("KV heads must divide query heads") {
        m.attention.kv_heads = 7;
        CHECK(validation_message(m) == "llmcost: Llama-3.1-70B: attention.kv_heads = 7: must divide query_heads "
                               "(each KV head serves a whole group of query heads)");
    }
    SUBCASE("zero layers") {
        m.layers = 0;
        CHECK(validation_message(m) == "llmcost: Llama-3.1-70B: layers = 0: a model has at least one layer");
    }
    SUBCASE("top-k beyond the experts") {
        model moe = catalog::mixtral_8x7b;
        moe.ffn.top_k = 9;
        CHECK(validation_message(moe).find("ffn.top_k = 9: must not exceed routed_experts") != std::string::npos);
    }
    SUBCASE("latent attention without a latent") {
        model ds = catalog::deepseek_v3;
        ds.attention.latent.kv_lora_rank = 0;
        CHECK(validation_message(ds).find("attention.latent.kv_lora_rank = 0") != std::string::npos);
    }
    SUBCASE("windowed layers without a window") {
        model g = catalog::gpt_oss_120b;
        g.attention.sliding_window = 0;
        CHECK(validation_message(g).find("windowed layers need a window") != std::string::npos);
    }
    SUBCASE("negative and non-finite bandwidth") {
        hardware h = catalog::h100_sxm5;
        h.gpu.hbm_bandwidth = terabytes_per_second(-3.35);
        CHECK(validation_message(h) == "llmcost: H100 SXM5: hbm_bandwidth (B/s) = -3.35e+12: must be positive and finite");
        h = catalog::h100_sxm5;
        h.scale_up.per_direction = bytes_per_second(std::numeric_limits<double>::quiet_NaN());
        CHECK(validation_message(h).find("per_direction (B/s) = nan: link bandwidth must be positive") != std::string::npos);
    }
    SUBCASE("capacity smaller than a stack") {
        hardware h = catalog::h100_sxm5;
        h.gpu.hbm_capacity = 4_GB;
        h.gpu.driver_reserved = bytes(0.0);  // the H100's 853,868,544 B reserve would be refused first (over 10% of 4 GB)
        CHECK(validation_message(h).find("capacity per stack is below 1 GB") != std::string::npos);
    }
    SUBCASE("idle power above board power") {
        hardware h = catalog::h100_sxm5;
        h.gpu.idle_power = 800_W;
        CHECK(validation_message(h).find("idle_power (W) = 800: must be at least 0 and below board_power") != std::string::npos);
    }
    SUBCASE("every catalog entry is valid") {
        for (const model& c : catalog::all_models) CHECK(validation_message(c) == "");
        for (const hardware& c : catalog::all_hardware) CHECK(validation_message(c) == "");
    }
}
