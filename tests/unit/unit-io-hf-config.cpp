// llmcost::io::load_hf_config: every catalog model's real config.json loads to the catalog entry,
// and broken inputs fail with a message that names the file, the key and the rule.
#include <llmcost/catalog/models.hpp>
#include <llmcost/io/hf_config.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
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
    // The catalog adds DeepSeek-V3's measured routing skew, which no config.json carries (0: uniform).
    model measured_skew_left_out = catalog::deepseek_v3;
    measured_skew_left_out.ffn.routing_skew = 0.0;
    CHECK(load_fixture("DeepSeek-V3", "DeepSeek-V3") == measured_skew_left_out);
    CHECK(load_fixture("Qwen3-235B-A22B", "Qwen3-235B-A22B") == catalog::qwen3_235b_a22b);
    CHECK(load_fixture("gpt-oss-120b", "gpt-oss-120b") == catalog::gpt_oss_120b);
    CHECK(load_fixture("Qwen3-8B", "Qwen3-8B") == catalog::qwen3_8b);
    CHECK(load_fixture("Qwen3-14B", "Qwen3-14B") == catalog::qwen3_14b);
    CHECK(load_fixture("Qwen3-32B", "Qwen3-32B") == catalog::qwen3_32b);
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

// ---- current families: nested text_config, per-layer patterns, hybrid layers ------------------

namespace {

const std::string configs = std::string(LLMCOST_TABLES_DIR) + "/configs/";

model load_config(std::string_view dir, std::string_view name) {
    return io::load_hf_config(configs + std::string(dir) + "/config.json", name);
}

/// |counted − published| ≤ 2% of published.
bool within_2_percent(count_t counted, double published) {
    return std::abs(static_cast<double>(counted) - published) <= 0.02 * published;
}

}  // namespace

TEST_CASE("the newer families' real config.json files load to their catalog entries") {
    CHECK(load_config("gpt-oss-20b", "gpt-oss-20b") == catalog::gpt_oss_20b);
    CHECK(load_config("Llama-4-Scout-17B-16E", "Llama-4-Scout") == catalog::llama_4_scout);
    CHECK(load_config("gemma-3-27b-it", "gemma-3-27b") == catalog::gemma_3_27b);
    CHECK(load_config("Qwen3-Next-80B-A3B", "Qwen3-Next-80B-A3B") == catalog::qwen3_next_80b_a3b);
    CHECK(load_config("Nemotron-H-8B-Base-8K", "Nemotron-H-8B") == catalog::nemotron_h_8b);
    CHECK(load_config("Phi-3-mini-4k-instruct", "Phi-3-mini-4k") == catalog::phi_3_mini);
    CHECK(load_config("Llama-4-Maverick-17B-128E-Instruct", "Llama-4-Maverick") == catalog::llama_4_maverick);
}

TEST_CASE("the newer families' parameter counts: hand-worked, and within 2% of the published ones") {
    SUBCASE("gpt-oss-20b: 20.91B total, 3.61B active without the embedding (OpenAI model card)") {
        // layer: attention 2880·4096·2 + 2880·512·2 + biases 4096 + 1024 + 2880 + sinks 64 = 26,550,144;
        // 32 experts × (3·2880·2880 + 2·2880 + 2880 = 24,891,840); router 2880·32 + 32; norms 2·2880.
        const model m = load_config("gpt-oss-20b", "gpt-oss-20b");
        CHECK(total_parameters(m) == 20'914'757'184);
        CHECK(matmul_parameters(m) == 3'608'307'264);
        CHECK(within_2_percent(total_parameters(m), 20.91e9));
        CHECK(within_2_percent(matmul_parameters(m), 3.61e9));
    }
    SUBCASE("Llama-4-Scout: 107.8B text of Meta's 109B (which includes the vision encoder), 17B active") {
        // layer: attention 62,914,560; 16 routed + 1 shared expert of 3·5120·8192 = 125,829,120;
        // router 81,920; norms 10,240. 48 layers + embedding and LM head 2·202048·5120 + final norm.
        const model m = load_config("Llama-4-Scout-17B-16E", "Llama-4-Scout");
        CHECK(total_parameters(m) == 107'769'861'120);
        CHECK(active_parameters(m) == 17'172'894'720);
        CHECK(within_2_percent(total_parameters(m), 109e9));
        CHECK(within_2_percent(active_parameters(m), 17e9));
        CHECK(m.moe_layers() == 48);
        CHECK(m.count_layers() == model::layer_counts{.full = 12, .chunked = 36});
    }
    SUBCASE("Llama-4-Maverick: 400.7B text of Meta's 400B, 17.18B active of 17B") {
        // layer: attention 62,914,560 + norms 10,240 (48 layers). MoE layers 1, 3, ..., 47 (24):
        // 128 routed + 1 shared expert of 3·5120·8192 = 125,829,120, router 5120·128 = 655,360.
        // Dense layers 0, 2, ..., 46 (24): 3·5120·16384 = 251,658,240. Embedding and LM head
        // 2·202048·5120 = 2,068,971,520 + final norm 5,120.
        // total = 48·62,924,800 + 24·(129·125,829,120 + 655,360) + 24·251,658,240 + 2,068,976,640
        // active = 48·62,924,800 + 24·(2·125,829,120 + 655,360) + 24·251,658,240 + 2,068,976,640
        const model m = load_config("Llama-4-Maverick-17B-128E-Instruct", "Llama-4-Maverick");
        CHECK(total_parameters(m) == 400'711'848'960);
        CHECK(active_parameters(m) == 17'184'691'200);
        CHECK(within_2_percent(total_parameters(m), 400e9));
        CHECK(within_2_percent(active_parameters(m), 17e9));
        CHECK(m.moe_layers() == 24);
        CHECK(m.dense_layers() == 24);
        CHECK(m.count_layers() == model::layer_counts{.full = 12, .chunked = 36});
    }
    SUBCASE("gemma-3-27b: 27.0B text (Gemma 3 report: 1,416M embedding + 25,600M non-embedding)") {
        // layer: attention 66,060,288 + QK-norm 256; GeGLU 3·5376·21504 = 346,816,512; 4 norms 21,504.
        const model m = load_config("gemma-3-27b-it", "gemma-3-27b");
        CHECK(total_parameters(m) == 27'009'346'304);
        CHECK(within_2_percent(total_parameters(m), 27e9));
        CHECK(m.tied_embeddings);
        CHECK(m.count_layers() == model::layer_counts{.full = 10, .window = 52});
    }
    SUBCASE("Qwen3-Next-80B-A3B: 79.7B of the published 80B") {
        // Gated DeltaNet layer: in-proj 2048·(2·4096 + 2·2048 + 2·32) + conv 8192·4 + 64 + norm 128
        // + out-proj 4096·2048 = 33,718,464; gated attention 2048·4096·2 + 2048·512·2 + 4096·2048
        // + QK-norm 512 = 27,263,488; MoE 513 experts of 3·2048·512 + router 2048·512 + gate 2048.
        const model m = load_config("Qwen3-Next-80B-A3B", "Qwen3-Next-80B-A3B");
        CHECK(state_space_parameters_per_layer(m) == 33'718'464);
        CHECK(attention_parameters_per_layer(m) == 27'263'488);
        CHECK(total_parameters(m) == 79'674'391'296);
        CHECK(within_2_percent(total_parameters(m), 80e9));
        CHECK(m.count_layers() == model::layer_counts{.full = 12, .state = 36});
    }
    SUBCASE("Nemotron-H-8B: 8.10B of the published 8B") {
        // Mamba2 block: in-proj 4096·(2·8192 + 2·1024 + 128) + conv 10240·4 + bias 10240 + 3·128
        // + norm 8192 + out-proj 8192·4096 = 109,635,968; MLP block 2·4096·21504; one norm per block.
        const model m = load_config("Nemotron-H-8B-Base-8K", "Nemotron-H-8B");
        CHECK(state_space_parameters_per_layer(m) == 109'635'968);
        CHECK(total_parameters(m) == 8'100'852'736);
        CHECK(within_2_percent(total_parameters(m), 8e9));
        CHECK(m.count_layers() == model::layer_counts{.full = 4, .state = 24, .ffn_only = 24});
        CHECK(m.ffn_layers() == 24);
        CHECK(m.layer_equivalents() == 26.0);
    }
    SUBCASE("Phi-3-mini-4k: 3.82B of the published 3.8B (fused projections hold the same weights)") {
        const model m = load_config("Phi-3-mini-4k-instruct", "Phi-3-mini-4k");
        CHECK(total_parameters(m) == 3'821'079'552);
        CHECK(within_2_percent(total_parameters(m), 3.8e9));
    }
}

TEST_CASE("KV follows each layer's kind: hand-worked bytes per token and at 128K") {
    const auto at = [](const model& m, double n) { return kv_bytes_for_context(m, tokens(n)).value(); };
    SUBCASE("gpt-oss-20b: 12 full + 12 window(128) layers of 2·8·64·2 = 2,048 B") {
        const model& m = catalog::gpt_oss_20b;
        CHECK(kv_bytes_per_token(m).value() == 49'152.0);
        CHECK(at(m, 131072) == 2048.0 * (12 * 131072.0 + 12 * 128.0));  // 3,224,371,200 B, half of all-full
    }
    SUBCASE("Llama-4-Scout: 12 full + 36 chunked(8192) layers of 4,096 B") {
        const model& m = catalog::llama_4_scout;
        CHECK(kv_bytes_per_token(m).value() == 196'608.0);
        CHECK(at(m, 131072) == 4096.0 * (12 * 131072.0 + 36 * 8192.0));  // 7,650,410,496 B (all-full: 3.37×)
        CHECK(at(m, 4096) == 196'608.0 * 4096);                          // inside one chunk: every layer grows
    }
    SUBCASE("Llama-4-Maverick keeps what Scout keeps: the same attention, the same 12 + 36 layers") {
        const model& m = catalog::llama_4_maverick;
        CHECK(kv_bytes_per_token(m).value() == 196'608.0);
        CHECK(at(m, 131072) == 4096.0 * (12 * 131072.0 + 36 * 8192.0));
        CHECK(at(m, 1048576) == 4096.0 * (12 * 1048576.0 + 36 * 8192.0));  // 52.7 GB at its 1M limit
    }
    SUBCASE("gemma-3-27b: 10 full + 52 window(1024) layers of 8,192 B") {
        CHECK(at(catalog::gemma_3_27b, 131072) == 8192.0 * (10 * 131072.0 + 52 * 1024.0));
    }
    SUBCASE("Qwen3-Next: 12 attention layers of 2,048 B, and 36 fixed states of 548,864 elements") {
        const model& m = catalog::qwen3_next_80b_a3b;
        CHECK(kv_bytes_per_token(m).value() == 24'576.0);
        // state: 32·128·128 recurrent + 3·(4096 + 2·2048) convolution = 548,864 elements, 2 B each.
        CHECK(state_elements_per_sequence_per_layer(m) == 548'864);
        CHECK(state_bytes_per_sequence(m).value() == 548'864.0 * 2 * 36);
        CHECK(at(m, 131072) == 24'576.0 * 131072 + 39'518'208.0);
        CHECK(at(m, 0) == 0.0);  // no sequence, no state
    }
    SUBCASE("Nemotron-H-8B: 4 attention layers; 24 Mamba2 states of 1,079,296 elements") {
        const model& m = catalog::nemotron_h_8b;
        CHECK(kv_bytes_per_token(m).value() == 16'384.0);
        CHECK(state_bytes_per_sequence(m).value() == 51'806'208.0);  // 24 · 2 · (1,048,576 + 30,720)
        CHECK(at(m, 8192) == 16'384.0 * 8192 + 51'806'208.0);
    }
}

TEST_CASE("family details of the newer loaders") {
    SUBCASE("llama4: the top-level tie and interleave step; no_rope_layers absent → every 4th layer full") {
        const std::string text = R"({"model_type": "llama4", "tie_word_embeddings": false, "text_config": {
            "num_hidden_layers": 8, "hidden_size": 64, "vocab_size": 100, "max_position_embeddings": 4096,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "num_local_experts": 4,
            "num_experts_per_tok": 1, "intermediate_size": 32, "intermediate_size_mlp": 128,
            "interleave_moe_layer_step": 2, "attention_chunk_size": 1024}})";
        const model m = io::parse_hf_config(text, "maverick-like/config.json");
        CHECK(m.pattern.kinds == "CCCF");
        CHECK(m.pattern.chunk == 1024);
        CHECK(m.moe_layers() == 4);
        CHECK(m.dense_layers() == 4);
        CHECK(m.ffn.intermediate == 128);
        // dense 4 × 3·64·128, MoE 4 × (5 experts of 3·64·32 + router 64·4)
        CHECK(parameters(m).dense_ffn == 4 * 3 * 64 * 128);
        CHECK(parameters(m).routed_experts + parameters(m).shared_experts == 4 * 5 * 3 * 64 * 32);
    }
    SUBCASE("gemma2: alternate sliding and full layers, 4096-token window by default") {
        const std::string text = R"({"model_type": "gemma2", "num_hidden_layers": 4, "hidden_size": 64,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128})";
        const model m = io::parse_hf_config(text, "gemma2/config.json");
        CHECK(m.pattern.kinds == "WF");
        CHECK(m.attention.sliding_window == 4096);
        CHECK(m.vocab == 256000);
        CHECK(m.tied_embeddings);
        CHECK(m.norms_per_layer == 4);
    }
    SUBCASE("gemma3 wrapper: the language model is text_config; layer_types win over the pattern") {
        const std::string text = R"({"model_type": "gemma3", "text_config": {"num_hidden_layers": 3,
            "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
            "intermediate_size": 128, "sliding_window": 512,
            "layer_types": ["sliding_attention", "full_attention", "full_attention"]}})";
        const model m = io::parse_hf_config(text, "gemma3/config.json");
        CHECK(m.pattern.kinds == "WFF");
        CHECK(m.count_layers() == model::layer_counts{.full = 2, .window = 1});
    }
    SUBCASE("qwen3_next without layer_types: full_attention_interval") {
        std::string text = R"({"model_type": "qwen3_next", "num_hidden_layers": 6, "hidden_size": 64,
            "vocab_size": 100, "max_position_embeddings": 4096, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "num_experts": 4, "num_experts_per_tok": 2,
            "moe_intermediate_size": 32, "full_attention_interval": 3, "linear_num_value_heads": 4,
            "linear_value_head_dim": 8, "linear_key_head_dim": 8, "linear_num_key_heads": 2})";
        const model m = io::parse_hf_config(text, "qnext/config.json");
        CHECK(m.pattern.kinds == "SSF");
        CHECK(m.ffn.shared_experts == 0);  // no shared_expert_intermediate_size
    }
}

TEST_CASE("bad inputs of the newer families: the file and the key are named") {
    SUBCASE("a wrapper without text_config") {
        const std::string msg = message_of([] { return io::parse_hf_config(R"({"model_type": "llama4"})", "l4/config.json"); });
        CHECK(contains(msg, "l4/config.json"));
        CHECK(contains(msg, "text_config"));
        CHECK(contains(msg, "missing required key"));
    }
    SUBCASE("a nested key's error names its path under text_config") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(R"({"model_type": "llama4", "text_config": {"num_hidden_layers": "48"}})",
                                       "l4/config.json");
        });
        CHECK(contains(msg, "text_config/num_hidden_layers"));
        CHECK(contains(msg, "expected an integer"));
    }
    SUBCASE("an unknown layer type is refused, not read as full attention") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(R"({"model_type": "gemma2", "num_hidden_layers": 2, "hidden_size": 64,
                "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
                "layer_types": ["sliding_attention", "chunked_attention"]})", "g2/config.json");
        });
        CHECK(contains(msg, "g2/config.json:3:"));
        CHECK(contains(msg, "layer_types"));
        CHECK(contains(msg, "unsupported layer type"));
        CHECK(contains(msg, "\"chunked_attention\""));
    }
    SUBCASE("Nemotron-H: an MoE block (E) and a pattern of the wrong length") {
        const std::string base = R"({"model_type": "nemotron_h", "num_hidden_layers": 3, "hidden_size": 64,
            "vocab_size": 100, "max_position_embeddings": 4096, "num_attention_heads": 4, "num_key_value_heads": 2,
            "intermediate_size": 128, "mamba_num_heads": 4, "mamba_head_dim": 16, "ssm_state_size": 8, )";
        const std::string e = message_of([&] { return io::parse_hf_config(base + R"("hybrid_override_pattern": "ME*"})", "nh/config.json"); });
        CHECK(contains(e, "hybrid_override_pattern"));
        CHECK(contains(e, "unsupported block letter 'E'"));
        const std::string n = message_of([&] { return io::parse_hf_config(base + R"("hybrid_override_pattern": "M*"})", "nh/config.json"); });
        CHECK(contains(n, "one letter per layer"));
        const std::string a = message_of([&] { return io::parse_hf_config(base + R"("hybrid_override_pattern": "M-M"})", "nh/config.json"); });
        CHECK(contains(a, "at least one attention layer"));
    }
    SUBCASE("Llama 4: MoE layers that are not every step-th one") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(R"({"model_type": "llama4_text", "num_hidden_layers": 4, "hidden_size": 64,
                "vocab_size": 100, "max_position_embeddings": 4096, "num_attention_heads": 4, "num_local_experts": 4,
                "intermediate_size": 32, "moe_layers": [0, 2]})", "l4/config.json");
        });
        CHECK(contains(msg, "moe_layers"));
        CHECK(contains(msg, "interleave_moe_layer_step"));
    }
    SUBCASE("Qwen3-Next: dense layers") {
        const std::string msg = message_of([] {
            return io::parse_hf_config(R"({"model_type": "qwen3_next", "num_hidden_layers": 4, "hidden_size": 64,
                "vocab_size": 100, "max_position_embeddings": 4096, "num_attention_heads": 4, "num_experts": 4,
                "num_experts_per_tok": 2, "moe_intermediate_size": 32, "mlp_only_layers": [0]})", "qn/config.json");
        });
        CHECK(contains(msg, "mlp_only_layers"));
        CHECK(contains(msg, "not supported"));
    }
}

TEST_CASE("a per-layer pattern is built for at most 10,000 layers") {
    const std::string msg = message_of([] {
        return io::parse_hf_config(R"({"model_type": "gemma2", "num_hidden_layers": 2000000000, "hidden_size": 64,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128})",
                                   "deep/config.json");
    });
    CHECK(contains(msg, "deep/config.json:1:"));
    CHECK(contains(msg, "num_hidden_layers"));
    CHECK(contains(msg, "too many for a per-layer pattern"));
}
