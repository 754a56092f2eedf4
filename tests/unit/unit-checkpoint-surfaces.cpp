// One mixed-format byte sum and one parser per setting (session 30): `mixed_format_bytes` for the resident weights
// and the bytes a step reads, `excluded_modules_named` and `prompt_launch_named` for the measurements loader, the
// CLI (--excluded-modules, --kept-format, --eager-prompt) and Python (excluded_modules=, kept_format=, eager_prompt=).
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/weights_text.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

using namespace llmcost;

namespace {

// DeepSeek-V3 (h 7,168, 128 heads, kv_lora 512, nope 128, v 128, 61 layers): kv_b 512 · 128 · 256 = 16,777,216 and
// o_proj 128 · 128 · 7,168 = 117,440,512 a layer; 61 · 134,217,728 = 8,187,281,408 parameters.
constexpr double kv_b_and_o = 8'187'281'408.0;
constexpr excluded_modules kv_b_and_o_kept{.attention_kv_up = true, .attention_output = true};

deployment b200_tp8() { return {.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}}; }

}  // namespace

TEST_CASE("mixed_format_bytes: (p − kept) · b_w ÷ 8 + kept · b_excl ÷ 8, worked by hand") {
    model m = catalog::deepseek_v3;
    m.weights = formats::nvfp4;  // 4 bits + an FP8 scale per 16 = 4.5 bits = 0.5625 B
    m.excluded = {.format = formats::bf16};
    CHECK(mixed_format_bytes(m, 100, 40).value() == 60.0 * 0.5625 + 40.0 * 2.0);  // 113.75 B
    m.excluded.format = formats::fp8;
    CHECK(mixed_format_bytes(m, 100, 40).value() == 60.0 * 0.5625 + 40.0);
    CHECK(mixed_format_bytes(m, 100, 0).value() == 56.25);
    CHECK(mixed_format_bytes(m, 100, 100).value() == 100.0);  // all kept: 100 · 1 B
}

TEST_CASE("mixed_format_bytes: the kept parameters are some of the p counted (0 <= kept <= p), else refused") {
    model m = catalog::deepseek_v3;
    m.weights = formats::nvfp4;
    for (const count_t kept : {count_t{101}, count_t{-1}}) {
        std::string why;
        try {
            (void)mixed_format_bytes(m, 100, kept);
        } catch (const invalid_input& e) {
            why = e.what();
        }
        CHECK(test::contains(why, "mixed_format_bytes kept"));
        CHECK(test::contains(why, "0 <= kept <= p"));
    }
}

TEST_CASE("mixed_format_bytes: the resident weights, a GPU's share and a step's reads move by the same kept bytes") {
    // kv_b and o_proj kept in BF16 beside NVFP4: + 8,187,281,408 · (2 − 0.5625) = 11,769,217,024 B in all, ÷ 8 ranks
    // = 1,471,152,128 B a GPU, held and read (neither is a replicated down-projection, neither the embedding).
    const deployment fp4 = with_formats(b200_tp8(), formats::nvfp4, formats::fp8);
    const deployment kept = with_formats(b200_tp8(), formats::nvfp4, formats::fp8, kv_b_and_o_kept);
    CHECK((non_expert_weight_bytes(kept.m) - non_expert_weight_bytes(fp4.m)).value() == kv_b_and_o * 1.4375);
    CHECK((weight_bytes(kept.m) - weight_bytes(fp4.m)).value() == 11'769'217'024.0);
    CHECK((dense_weight_bytes_per_gpu(kept) - dense_weight_bytes_per_gpu(fp4)).value() == 1'471'152'128.0);
    CHECK(prepare_pass(kept).dense_bytes_read - prepare_pass(fp4).dense_bytes_read == 1'471'152'128.0);
    CHECK(expert_weight_bytes_per_gpu(kept) == expert_weight_bytes_per_gpu(fp4));
}

TEST_CASE("attention_parameters_per_layer: the sum of its projection helpers and the latent norms") {
    // DeepSeek-V3: down 7,168 · 2,112 = 15,138,816; q_b 1,536 · 128 · 192 = 37,748,736; norms 1,536 + 512;
    // kv_b 16,777,216; o 117,440,512: 187,107,328.
    const model& m = catalog::deepseek_v3;
    CHECK(attention_down_parameters_per_layer(m) == 15'138'816);
    CHECK(attention_parameters_per_layer(m) - attention_down_parameters_per_layer(m) -
              attention_kv_up_parameters_per_layer(m) - attention_output_parameters_per_layer(m) ==
          37'748'736 + 2'048);
    // Llama-3.1-8B (h 4,096, 32 heads, 8 KV heads, d 128): q 4,096², k and v 4,096 · 1,024 each, o 4,096².
    CHECK(attention_parameters_per_layer(catalog::llama_3_1_8b) == 2 * 16'777'216 + 2 * 4'194'304);
    CHECK(attention_output_parameters_per_layer(catalog::llama_3_1_8b) == 16'777'216);
}

TEST_CASE("excluded_modules_named: one parser for the measurements column (spaces) and the CLI (commas)") {
    static_assert(excluded_modules_named("attention_in attention_out", ' ').kept ==
                  excluded_modules{.attention_inputs = true, .attention_output = true});
    const excluded_modules_reading commas = excluded_modules_named(",lm_head,,embedding,", ',', formats::fp8);
    CHECK(commas.ok());
    CHECK(commas.kept == excluded_modules{.format = formats::fp8, .lm_head = true, .embedding = true});
    const excluded_modules_reading all =
        excluded_modules_named("attention_in,attention_kv_b,attention_out,lm_head,embedding", ',');
    CHECK(all.kept == excluded_modules{.attention_inputs = true, .attention_kv_up = true, .attention_output = true,
                                       .lm_head = true, .embedding = true});
    const excluded_modules_reading bad = excluded_modules_named("attention_in,shared_experts,gate", ',');
    CHECK_FALSE(bad.ok());
    CHECK(bad.unknown == "shared_experts");  // the first unknown word
    CHECK(excluded_modules_named("attention_in attention_out", ',').unknown == "attention_in attention_out");
    CHECK(excluded_modules_named("", ',').kept == excluded_modules{});
    // Spaces around a word are trimmed (the CLI's "attention_in, lm_head"); a space inside a comma list's word is not.
    const excluded_modules_reading spaced = excluded_modules_named(" attention_in , lm_head ", ',');
    CHECK(spaced.ok());
    CHECK(spaced.kept == excluded_modules{.attention_inputs = true, .lm_head = true});
}

TEST_CASE("weights_text: the format, then the kept modules in excluded_modules_named's words and their format") {
    model m = catalog::deepseek_v3;
    m.weights = formats::nvfp4;
    CHECK(weights_text(m) == "nvfp4");  // none kept: the format alone, as before session 31
    m.excluded = kv_b_and_o_kept;
    CHECK(weights_text(m) == "nvfp4 (attention_kv_b, attention_out in bf16)");
    m.excluded = excluded_modules_named("embedding,lm_head,attention_out,attention_kv_b,attention_in", ',', formats::fp8).kept;
    CHECK(weights_text(m) == "nvfp4 (attention_in, attention_kv_b, attention_out, lm_head, embedding in fp8)");
    // The words read back through the one parser to the same modules (the list a user can paste into --excluded-modules).
    CHECK(excluded_modules_named(excluded_modules_text(m.excluded), ',', formats::fp8).kept == m.excluded);
    // Not a static_assert: a constexpr std::string is not a constant expression under clang++ 14 with libstdc++ 12.
    CHECK(excluded_modules_text(excluded_modules{}).empty());
    // The machine-readable fields' list: the same words, one each, in the table's order; none: empty.
    CHECK(excluded_module_words_of(kv_b_and_o_kept) == std::vector<std::string>{"attention_kv_b", "attention_out"});
    CHECK(excluded_module_words_of(excluded_modules{}).empty());
}

TEST_CASE("excluded_module_names: one table for the parser, the words string and the text") {
    // Each row's word sets its own field alone, and the words string lists the rows in order.
    for (const excluded_module_name& n : excluded_module_names) {
        CAPTURE(n.word);
        excluded_modules want{};
        want.*n.kept = true;
        CHECK(excluded_modules_named(n.word, ',').kept == want);
        CHECK(excluded_modules_text(want) == n.word);
    }
    CHECK(excluded_module_words == "attention_in, attention_kv_b, attention_out, lm_head, embedding");
    CHECK(excluded_modules_named(excluded_module_words, ',').kept ==
          excluded_modules{.attention_inputs = true, .attention_kv_up = true, .attention_output = true, .lm_head = true,
                           .embedding = true});
}

TEST_CASE("weights_and_experts_text: one pair of brackets for the kept modules and the experts' format") {
    model m = catalog::deepseek_v3;
    m.weights = formats::nvfp4;
    CHECK(weights_and_experts_text(m) == "nvfp4");
    m.expert_weights = formats::mxfp4;
    CHECK(weights_and_experts_text(m) == "nvfp4 (experts mxfp4)");
    m.excluded = {.attention_kv_up = true};
    CHECK(weights_and_experts_text(m) == "nvfp4 (attention_kv_b in bf16; experts mxfp4)");
    m.expert_weights.reset();
    CHECK(weights_and_experts_text(m) == "nvfp4 (attention_kv_b in bf16)");
}

TEST_CASE("format_with_exceptions_text: the one bracket both receipts use") {
    CHECK(format_with_exceptions_text(formats::fp8, "") == "fp8");
    CHECK(format_with_exceptions_text(formats::bf16, "experts mxfp4") == "bf16 (experts mxfp4)");
}

TEST_CASE("excluded_modules_named: a list that names no module is names_none, never ok (one rule for every reader)") {
    for (const char* list : {"", ",", ",,", " , "}) {
        CAPTURE(list);
        CHECK(excluded_modules_named(list, ',').names_none());
        CHECK_FALSE(excluded_modules_named(list, ',').ok());
    }
    CHECK(excluded_modules_named("  ", ' ').names_none());
    CHECK_FALSE(excluded_modules_named("lm_head", ',').names_none());
    CHECK_FALSE(excluded_modules_named(",qkv,", ',').names_none());  // an unknown word is that refusal, not this one
    CHECK(excluded_modules_names_none == "names no module; the words: ");
}

TEST_CASE("prompt_launch_named: overlap, serial, 0, nothing else") {
    static_assert(prompt_launch_named("overlap") == prompt_launch_mode::overlap);
    CHECK(prompt_launch_named("serial") == prompt_launch_mode::serial);
    CHECK(prompt_launch_named("0") == prompt_launch_mode::none);
    for (const char* w : {"", "engine", "Serial", "1", "none"}) CHECK_FALSE(prompt_launch_named(w).has_value());
}

TEST_CASE("serving_formats: kept modules travel with the weights, alone keep the model's own formats") {
    const deployment d = b200_tp8();
    const deployment by_struct =
        with_formats(d, serving_formats{.weights = formats::nvfp4, .kv = formats::fp8, .kept = kv_b_and_o_kept});
    CHECK(by_struct.m == with_formats(d, formats::nvfp4, formats::fp8, kv_b_and_o_kept).m);
    // weights without kept modules: quantized throughout (a kept list the model had is dropped)
    deployment had = d;
    had.m.excluded = kv_b_and_o_kept;
    CHECK(with_formats(had, serving_formats{.weights = formats::nvfp4}).m.excluded == excluded_modules{});
    // kept alone: the model's own weights (DeepSeek-V3's FP8) with those modules in theirs
    const deployment alone = with_formats(d, serving_formats{.kept = kv_b_and_o_kept});
    CHECK(alone.m.weights == d.m.weights);
    CHECK(alone.m.activations == d.m.activations);
    CHECK(alone.m.excluded == kv_b_and_o_kept);
}
