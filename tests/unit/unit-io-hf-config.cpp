// llmcost::io::load_hf_config: every catalog model's real config.json loads to the catalog entry,
// and broken inputs fail with a message that names the file, the key and the rule.
#include <llmcost/catalog/models.hpp>
#include <llmcost/io/hf_config.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <filesystem>
#include <string>
#include <string_view>

using namespace llmcost;

namespace {

const std::string fixtures = LLMCOST_FIXTURES_DIR;

model load_fixture(std::string_view dir, std::string_view catalog_name) {
    return io::load_hf_config(fixtures + "/hf/" + std::string(dir) + "/config.json", catalog_name);
}

using test::contains;
using test::message_of;

/// A minimal valid Llama config with one member replaced (or added) as raw JSON text.
std::string llama_with(std::string_view key, std::string_view raw_value) {
    std::string members[][2] = {{"model_type", "\"llama\""},      {"num_hidden_layers", "32"},
                                {"hidden_size", "4096"},          {"vocab_size", "128256"},
                                {"num_attention_heads", "32"},    {"num_key_value_heads", "8"},
                                {"intermediate_size", "14336"},   {"max_position_embeddings", "131072"}};
    std::string text = "{\n";
    bool replaced = false;
    for (auto& [k, v] : members) {
        if (k == key) {
            if (raw_value.empty()) continue;  // empty raw value: drop the key
            v = raw_value;
            replaced = true;
        }
        text += "  \"" + k + "\": " + v + ",\n";
    }
    if (!replaced && !raw_value.empty()) text += "  \"" + std::string(key) + "\": " + std::string(raw_value) + ",\n";
    text.resize(text.size() - 2);  // the last ",\n"
    text += "\n}\n";
    return text;
}

}  // namespace

TEST_CASE("each real config.json loads to its catalog entry") {
    CHECK(load_fixture("Llama-2-70b-hf", "Llama-2-70B") == catalog::llama_2_70b);
    CHECK(load_fixture("Llama-3.1-8B", "Llama-3.1-8B") == catalog::llama_3_1_8b);
    CHECK(load_fixture("Llama-3.1-70B-Instruct", "Llama-3.1-70B") == catalog::llama_3_1_70b);
    CHECK(load_fixture("Llama-3.1-405B-Instruct", "Llama-3.1-405B") == catalog::llama_3_1_405b);
    CHECK(load_fixture("Mixtral-8x7B-v0.1", "Mixtral-8x7B") == catalog::mixtral_8x7b);
    CHECK(load_fixture("Mixtral-8x22B-v0.1", "Mixtral-8x22B") == catalog::mixtral_8x22b);
    CHECK(load_fixture("DeepSeek-V3", "DeepSeek-V3") == catalog::deepseek_v3);
    CHECK(load_fixture("Qwen3-235B-A22B", "Qwen3-235B-A22B") == catalog::qwen3_235b_a22b);
    CHECK(load_fixture("gpt-oss-120b", "gpt-oss-120b") == catalog::gpt_oss_120b);
}

TEST_CASE("the model's name: override, else _name_or_path, else the directory") {
    CHECK(io::load_hf_config(fixtures + "/hf/Llama-2-70b-hf/config.json").name == "meta-llama/Llama-2-70b-hf");
    CHECK(io::load_hf_config(fixtures + "/hf/gpt-oss-120b/config.json").name == "gpt-oss-120b");
    CHECK(io::load_hf_config(fixtures + "/hf/gpt-oss-120b").name == "gpt-oss-120b");  // a directory
    const model m = io::parse_hf_config(llama_with("num_hidden_layers", "32"), "some/dir/config.json");
    CHECK(m.name == "dir");
}

TEST_CASE("family details that the catalog does not exercise") {
    SUBCASE("qwen2 has Q/K/V biases; its window applies only with use_sliding_window") {
        std::string text = llama_with("model_type", "\"qwen2\"");
        const model plain = io::parse_hf_config(text, "qwen2/config.json");
        CHECK(plain.attention.qkv_bias);
        CHECK_FALSE(plain.attention.output_bias);
        CHECK(plain.attention.sliding_window == 0);
        text = llama_with("model_type", "\"qwen2\"");
        text.insert(text.size() - 3, ",\n  \"use_sliding_window\": true, \"sliding_window\": 4096, \"max_window_layers\": 28");
        const model windowed = io::parse_hf_config(text, "qwen2/config.json");
        CHECK(windowed.attention.sliding_window == 4096);
        CHECK(windowed.attention.sliding_window_layers == 32 - 28);
    }
    SUBCASE("mistral: a null sliding_window means none") {
        const model m = io::parse_hf_config(
            llama_with("model_type", "\"mistral\"").insert(1, "\n  \"sliding_window\": null,"), "m/config.json");
        CHECK(m.attention.sliding_window == 0);
        const model w = io::parse_hf_config(
            llama_with("model_type", "\"mistral\"").insert(1, "\n  \"sliding_window\": 4096,"), "m/config.json");
        CHECK(w.attention.sliding_window == 4096);
        CHECK(w.attention.sliding_window_layers == 32);
    }
    SUBCASE("the family can come from architectures alone") {
        const model m = io::parse_hf_config(llama_with("model_type", "").insert(1, "\n  \"architectures\": [\"Qwen3ForCausalLM\"],"),
                                            "q/config.json");
        CHECK(m.attention.qk_norm);
    }
    SUBCASE("DeepSeek: a null q_lora_rank means uncompressed queries") {
        const std::string text = R"({"model_type": "deepseek_v2", "num_hidden_layers": 27, "hidden_size": 2048,
            "vocab_size": 102400, "max_position_embeddings": 163840, "num_attention_heads": 16,
            "num_key_value_heads": 16, "kv_lora_rank": 512, "q_lora_rank": null, "qk_rope_head_dim": 64,
            "qk_nope_head_dim": 128, "v_head_dim": 128, "intermediate_size": 10944, "n_routed_experts": 64,
            "n_shared_experts": 2, "num_experts_per_tok": 6, "moe_intermediate_size": 1408,
            "first_k_dense_replace": 1, "topk_method": "greedy"})";
        const model m = io::parse_hf_config(text, "DeepSeek-V2-Lite/config.json");
        CHECK(m.attention.kind == attention_kind::latent);
        CHECK(m.attention.latent.q_lora_rank == 0);
        CHECK(m.ffn.shared_experts == 2);
        CHECK_FALSE(m.ffn.router_bias);
    }
}

TEST_CASE("bad inputs: each message names the file, the key and the rule") {
    SUBCASE("missing file") {
        const std::string msg = message_of([] { return io::load_hf_config(fixtures + "/bad/no-such-model/config.json"); });
        CHECK(contains(msg, "bad/no-such-model/config.json"));
        CHECK(contains(msg, "no such file"));
    }
    SUBCASE("syntax error, with line and column") {
        const std::string path = fixtures + "/bad/syntax_error.json";
        const std::string msg = message_of([&] { return io::load_hf_config(path); });
        CHECK(contains(msg, path + ":4:25:"));  // the 32 where a ':' belongs
        CHECK(contains(msg, "syntax error"));
    }
    SUBCASE("truncated file") {
        const std::string path = fixtures + "/bad/truncated.json";
        const std::string msg = message_of([&] { return io::load_hf_config(path); });
        CHECK(contains(msg, path + ":4:"));
        CHECK(contains(msg, "truncated file"));
    }
    SUBCASE("empty file") {
        const std::string path = fixtures + "/bad/empty.json";
        const std::string msg = message_of([&] { return io::load_hf_config(path); });
        CHECK(contains(msg, path));
        CHECK(contains(msg, "empty file"));
    }
    SUBCASE("wrong type: a string where an integer is expected, with the key's position") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("num_attention_heads", "\"32\""), "x/config.json");
        });
        CHECK(contains(msg, "llmcost: x/config.json:6:26: key \"num_attention_heads\": expected an integer, got string"));
    }
    SUBCASE("negative value") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("vocab_size", "-128256"), "x/config.json");
        });
        CHECK(contains(msg, "x/config.json"));
        CHECK(contains(msg, "key \"vocab_size\" = -128256: must not be negative"));
    }
    SUBCASE("float where an integer is expected") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("hidden_size", "4096.5"), "x/config.json");
        });
        CHECK(contains(msg, "key \"hidden_size\" = 4096.5: expected an integer, got a floating-point number"));
    }
    SUBCASE("missing required key") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("intermediate_size", ""), "x/config.json");
        });
        CHECK(contains(msg, "llmcost: x/config.json: key \"intermediate_size\": missing required key"));
    }
    SUBCASE("null where a value is required") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("num_hidden_layers", "null"), "x/config.json");
        });
        CHECK(contains(msg, "x/config.json:3:"));
        CHECK(contains(msg, "key \"num_hidden_layers\": expected an integer, got null"));
    }
    SUBCASE("boolean where an integer is expected") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("num_key_value_heads", "true"), "x/config.json");
        });
        CHECK(contains(msg, "key \"num_key_value_heads\": expected an integer, got boolean"));
    }
    SUBCASE("unknown model_type lists the supported ones") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(llama_with("model_type", "\"falcon\""), "x/config.json");
        });
        CHECK(contains(msg, "key \"model_type\" = \"falcon\": unsupported model type"));
        CHECK(contains(msg, "llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss"));
    }
    SUBCASE("KV heads that do not divide the query heads (validation, rethrown with the path)") {
        const std::string path = fixtures + "/bad/kv_heads_not_dividing.json";
        const std::string msg = message_of([&] { return io::load_hf_config(path); });
        CHECK(contains(msg, path + ":9:"));
        CHECK(contains(msg, "key \"num_key_value_heads\" = 7: must divide query_heads"));
        CHECK(contains(msg, "attention.kv_heads = 7"));  // the descriptor's original message
    }
    SUBCASE("top-k larger than the number of experts") {
        std::string text = llama_with("model_type", "\"mixtral\"");
        text.insert(1, "\n  \"num_local_experts\": 8, \"num_experts_per_tok\": 9,");
        const std::string msg = message_of([&] { return io::parse_hf_config(text, "mix/config.json"); });
        CHECK(contains(msg, "mix/config.json"));
        CHECK(contains(msg, "key \"num_experts_per_tok\" = 9: must not exceed routed_experts"));
    }
    SUBCASE("a top-level value that is not an object") {
        const std::string msg = message_of([] { return io::parse_hf_config("[1, 2]", "x/config.json"); });
        CHECK(contains(msg, "x/config.json: expected a JSON object at the top level, got array"));
    }
    SUBCASE("gpt-oss layer_types of the wrong length") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(R"({"model_type": "gpt_oss", "num_hidden_layers": 4, "hidden_size": 64,
                "vocab_size": 100, "max_position_embeddings": 4096, "num_attention_heads": 4, "head_dim": 16,
                "num_key_value_heads": 2, "num_local_experts": 4, "num_experts_per_tok": 2,
                "intermediate_size": 64, "sliding_window": 8, "layer_types": ["sliding_attention"]})",
                                       "oss/config.json");
        });
        CHECK(contains(msg, "key \"layer_types\": must have one entry per layer"));
    }
}

// ---- hostile input (issue 18) ------------------------------------------------------------------

TEST_CASE("the model's name from ./config.json and a bare config.json is the working folder's, never \".\"") {
    const std::filesystem::path was = std::filesystem::current_path();
    std::filesystem::current_path(fixtures + "/hf/Llama-3.1-8B");
    const std::string dot = std::string(io::load_hf_config("./config.json").name);
    const std::string bare = std::string(io::load_hf_config("config.json").name);
    std::filesystem::current_path(was);
    CHECK(dot == "Llama-3.1-8B");
    CHECK(bare == "Llama-3.1-8B");
}

TEST_CASE("a device, a folder without config.json, or a byte-order mark") {
    CHECK(contains(message_of([] { return io::load_hf_config("/dev/zero"); }),
                   "/dev/zero: is a character device: only a regular file can be read [llmcost.input.regular_file]"));
    CHECK(contains(message_of([] { return io::load_hf_config("/dev"); }), "/dev/config.json: cannot open file: no such file"));
    // A BOM before the object is skipped: the same model as without it.
    const std::string text = "\xEF\xBB\xBF" + io::read_input_file(fixtures + "/hf/Llama-3.1-8B/config.json", 1 << 20);
    CHECK(io::parse_hf_config(text, "Llama-3.1-8B/config.json", "Llama-3.1-8B") == catalog::llama_3_1_8b);
}
