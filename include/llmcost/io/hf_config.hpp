#pragma once
/// \file
/// Reads a Hugging Face `config.json` into a validated `model` descriptor.
///
/// Supported `model_type`s (or, when it is absent, the matching `architectures` entry):
/// llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss, llama4
/// (and llama4_text), gemma2, gemma3 (and gemma3_text), phi3, qwen3_next, nemotron_h. A multimodal
/// wrapper (llama4, gemma3) is read from its `text_config`: the language model only, its keys named
/// `text_config/<key>` in messages. Per-layer kinds (sliding window, chunked attention, linear
/// attention, Mamba2) become the descriptor's `layer_pattern`.
/// Keys are read by their exact Hugging Face names; a key that a family's config class gives a
/// default for may be absent, one that it needs may not. Every failure is a `load_error` naming
/// the file, the key and the rule; where the key can be found in the text, its line and column.
///
/// What is deliberately not read: `torch_dtype` (the checkpoint's storage dtype says nothing
/// about how the model is served; FP16 and BF16 cost the same 2 bytes, and the cost model keeps
/// BF16 as its default), RoPE scaling, norms' epsilon, dropout — none of them changes a cost.
///
/// **Example**
/// \code
/// const llmcost::model m = llmcost::io::load_hf_config("models/Llama-3.1-8B/config.json");
/// \endcode

#include <llmcost/descriptors/model.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/files.hpp>
#include <llmcost/io/intern.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace llmcost::io {

/// The `model_type`s this loader understands, in the order the error message lists them.
inline constexpr std::array<std::string_view, 17> supported_model_types{
    "llama",     "mistral",     "mixtral", "qwen2",       "qwen3",  "qwen3_moe",  "deepseek_v2", "deepseek_v3", "gpt_oss",
    "llama4",    "llama4_text", "gemma2",  "gemma3",      "gemma3_text", "phi3",  "qwen3_next",  "nemotron_h"};

namespace detail::hf {

using json = nlohmann::json;

/// 1-based line and column of byte `offset` in `text` (offset clamped to the text).
struct text_position {
    int line = 0;
    int column = 0;
};
[[nodiscard]] inline text_position position_of(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    text_position p{1, 1};
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

/// Where the value of member `name` starts: the first `"name"` followed by `:`. nlohmann::json
/// keeps no source positions, so this scan is how a type error gets a line and column; in a
/// config with the same name nested deeper it may point at the first one, which is still a
/// useful place to look. {0, 0} when not found.
[[nodiscard]] inline text_position locate_member(std::string_view text, std::string_view name) {
    const std::string quoted = '"' + std::string(name) + '"';
    for (std::size_t at = text.find(quoted); at != std::string_view::npos;
         at = text.find(quoted, at + 1)) {
        std::size_t j = at + quoted.size();
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) ++j;
        if (j < text.size() && text[j] == ':') {
            ++j;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) ++j;
            return position_of(text, j);
        }
    }
    return {};
}

[[nodiscard]] inline std::string type_name(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "boolean";
        case json::value_t::string: return "string";
        case json::value_t::number_float: return "a floating-point number";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "an integer";
        case json::value_t::array: return "array";
        case json::value_t::object: return "object";
        default: return "an unsupported value";
    }
}

/// The reading context: the text (for positions), the root object and the name for messages.
class reader {
public:
    reader(std::string_view text, const json& root, std::string origin, std::string prefix = {})
        : text_(text), root_(root), origin_(std::move(origin)), prefix_(std::move(prefix)) {}

    /// A reader of the nested object `key` (e.g. `text_config`), whose keys are named `key/<name>`.
    [[nodiscard]] reader nested(const json& node, const std::string& key) const {
        return reader(text_, node, origin_, prefix_ + key + "/");
    }

    [[nodiscard]] const std::string& origin() const { return origin_; }
    [[nodiscard]] const json& root() const { return root_; }

    [[noreturn]] void fail(const std::string& key, const std::string& rule, std::string value = {}) const {
        const std::string_view leaf = std::string_view(key).substr(key.rfind('/') + 1);
        const text_position p = locate_member(text_, leaf);
        throw load_error(origin_, prefix_ + key, rule, p.line, p.column, std::move(value));
    }

    /// The member, or nullptr when absent (null is returned as a null json, not as absent).
    [[nodiscard]] const json* member(std::string_view key) const {
        const auto it = root_.find(key);
        return it == root_.end() ? nullptr : &*it;
    }
    [[nodiscard]] bool has(std::string_view key) const {
        const json* v = member(key);
        return v != nullptr && !v->is_null();
    }

    /// A non-negative integer that fits in `int`. A float is refused even when integral: configs
    /// are written by json.dump, which writes counts as integers, so a float means a broken file.
    [[nodiscard]] int integer_value(const json& v, const std::string& key) const {
        if (v.is_number_float())
            fail(key, "expected an integer, got a floating-point number", v.dump());
        if (!v.is_number_integer()) fail(key, "expected an integer, got " + type_name(v));
        if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
                fail(key, "too large (must fit in a 32-bit int)", v.dump());
            return static_cast<int>(u);
        }
        const auto s = v.get<std::int64_t>();
        if (s < 0) fail(key, "must not be negative", v.dump());
        if (s > std::numeric_limits<int>::max()) fail(key, "too large (must fit in a 32-bit int)", v.dump());
        return static_cast<int>(s);
    }

    /// A required integer: absent → "missing required key", null → "null where an integer is required".
    [[nodiscard]] int required_int(const std::string& key) const {
        const json* v = member(key);
        if (v == nullptr) fail(key, "missing required key");
        if (v->is_null()) fail(key, "expected an integer, got null (the key is required)");
        return integer_value(*v, key);
    }
    /// An optional integer: absent or null → `fallback` (Hugging Face treats null as "unset").
    [[nodiscard]] int optional_int(const std::string& key, int fallback) const {
        const json* v = member(key);
        if (v == nullptr || v->is_null()) return fallback;
        return integer_value(*v, key);
    }
    [[nodiscard]] bool optional_bool(const std::string& key, bool fallback) const {
        const json* v = member(key);
        if (v == nullptr || v->is_null()) return fallback;
        if (!v->is_boolean()) fail(key, "expected true or false, got " + type_name(*v));
        return v->get<bool>();
    }
    [[nodiscard]] std::optional<std::string> optional_string(const std::string& key) const {
        const json* v = member(key);
        if (v == nullptr || v->is_null()) return std::nullopt;
        if (!v->is_string()) fail(key, "expected a string, got " + type_name(*v));
        return v->get<std::string>();
    }

private:
    std::string_view text_;
    const json& root_;
    std::string origin_;
    std::string prefix_;
};

[[nodiscard]] inline std::string supported_list() {
    std::string s;
    for (std::string_view t : supported_model_types) {
        if (!s.empty()) s += ", ";
        s += t;
    }
    return s;
}

/// `model_type`, or the family an `architectures` entry names when `model_type` is absent.
[[nodiscard]] inline std::string family_of(const reader& r) {
    if (const auto t = r.optional_string("model_type")) {
        if (std::find(supported_model_types.begin(), supported_model_types.end(), *t) ==
            supported_model_types.end())
            r.fail("model_type", "unsupported model type (supported: " + supported_list() + ")",
                   '"' + *t + '"');
        return *t;
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> by_architecture{{
        {"LlamaForCausalLM", "llama"},          {"MistralForCausalLM", "mistral"},
        {"MixtralForCausalLM", "mixtral"},      {"Qwen2ForCausalLM", "qwen2"},
        {"Qwen3ForCausalLM", "qwen3"},          {"Qwen3MoeForCausalLM", "qwen3_moe"},
        {"DeepseekV2ForCausalLM", "deepseek_v2"}, {"DeepseekV3ForCausalLM", "deepseek_v3"},
        {"GptOssForCausalLM", "gpt_oss"},       {"Llama4ForConditionalGeneration", "llama4"},
        {"Llama4ForCausalLM", "llama4_text"},   {"Gemma2ForCausalLM", "gemma2"},
        {"Gemma3ForConditionalGeneration", "gemma3"}, {"Gemma3ForCausalLM", "gemma3_text"},
        {"Phi3ForCausalLM", "phi3"},            {"Qwen3NextForCausalLM", "qwen3_next"},
        {"NemotronHForCausalLM", "nemotron_h"},
    }};
    if (const json* a = r.member("architectures"); a != nullptr && a->is_array()) {
        for (const json& e : *a)
            if (e.is_string())
                for (const auto& [arch, family] : by_architecture)
                    if (e.get<std::string>() == arch) return std::string(family);
        r.fail("architectures", "no supported architecture and no model_type (supported model types: " +
                                    supported_list() + ")");
    }
    r.fail("model_type", "missing required key (needed to tell the model family; supported: " +
                             supported_list() + ")");
}

/// Which config key a descriptor field came from, so that a validation failure points at the
/// line the user has to change.
[[nodiscard]] inline std::string config_key_for(std::string_view field, std::string_view family) {
    const bool deepseek = family == "deepseek_v2" || family == "deepseek_v3";
    if (field == "layers") return "num_hidden_layers";
    if (field == "hidden") return "hidden_size";
    if (field == "vocab") return "vocab_size";
    if (field == "max_position") return "max_position_embeddings";
    if (field == "attention.query_heads") return "num_attention_heads";
    if (field == "attention.kv_heads") return "num_key_value_heads";
    if (field == "attention.head_dim") return "head_dim";
    if (field == "attention.latent.kv_lora_rank") return "kv_lora_rank";
    if (field == "attention.latent.q_lora_rank") return "q_lora_rank";
    if (field == "attention.latent.rope_head_dim") return "qk_rope_head_dim";
    if (field == "attention.latent.nope_head_dim") return "qk_nope_head_dim";
    if (field == "attention.latent.v_head_dim") return "v_head_dim";
    if (field == "attention.sliding_window") return "sliding_window";
    if (field == "attention.sliding_window_layers") return family == "gpt_oss" ? "layer_types" : "max_window_layers";
    if (field == "pattern.chunk") return "attention_chunk_size";
    if (field == "pattern.kinds" || field == "pattern.kinds (length)")
        return family == "nemotron_h" ? "hybrid_override_pattern" : "layer_types";
    if (field == "pattern.state.heads") return family == "nemotron_h" ? "mamba_num_heads" : "linear_num_value_heads";
    if (field == "pattern.state.head_dim") return family == "nemotron_h" ? "mamba_head_dim" : "linear_value_head_dim";
    if (field == "pattern.state.state_dim") return family == "nemotron_h" ? "ssm_state_size" : "linear_key_head_dim";
    if (field == "pattern.state.groups") return family == "nemotron_h" ? "n_groups" : "linear_num_key_heads";
    if (field == "pattern.state.conv_kernel") return family == "nemotron_h" ? "conv_kernel" : "linear_conv_kernel_dim";
    if (field == "ffn.moe_layer_step") return "interleave_moe_layer_step";
    if (field == "ffn.shared_expert_intermediate") return "shared_expert_intermediate_size";
    if (field == "ffn.routed_experts")
        return deepseek ? "n_routed_experts"
                        : family == "qwen3_moe" || family == "qwen3_next" ? "num_experts" : "num_local_experts";
    if (field == "ffn.top_k") return "num_experts_per_tok";
    if (field == "ffn.shared_experts") return "n_shared_experts";
    if (field == "ffn.first_dense_layers") return deepseek ? "first_k_dense_replace" : "mlp_only_layers";
    if (field == "ffn.expert_intermediate")
        return family == "mixtral" || family == "gpt_oss" || family == "llama4" ? "intermediate_size"
                                                                                : "moe_intermediate_size";
    if (field == "ffn.intermediate") return family == "llama4" ? "intermediate_size_mlp" : "intermediate_size";
    if (field == "mtp_modules") return "num_nextn_predict_layers";
    if (field == "weights" || field == "kv_cache") return "quantization_config/quant_method";
    return std::string(field);
}

/// Standard (MHA/GQA) attention: heads, KV heads (default = heads) and head_dim (default
/// hidden / heads, which needs the division to be exact).
inline void read_standard_attention(const reader& r, model& m) {
    attention_spec& a = m.attention;
    a.query_heads = r.required_int("num_attention_heads");
    if (a.query_heads == 0) r.fail("num_attention_heads", "must be at least 1", "0");
    a.kv_heads = r.optional_int("num_key_value_heads", a.query_heads);
    if (r.has("head_dim")) {
        a.head_dim = r.required_int("head_dim");
    } else {
        if (m.hidden % a.query_heads != 0)
            r.fail("head_dim",
                   "missing, and hidden_size (" + std::to_string(m.hidden) +
                       ") is not a multiple of num_attention_heads (" + std::to_string(a.query_heads) +
                       "), so it cannot be derived");
        a.head_dim = m.hidden / a.query_heads;
    }
    // Llama, Mistral and Qwen3 put one switch on all four projections.
    const bool bias = r.optional_bool("attention_bias", false);
    a.qkv_bias = bias;
    a.output_bias = bias;
}

/// Qwen2/Qwen3: a window applies only with use_sliding_window, and then to the layers from
/// max_window_layers on (the first max_window_layers layers keep full attention).
inline void read_qwen_window(const reader& r, model& m) {
    if (!r.optional_bool("use_sliding_window", false)) return;
    m.attention.sliding_window = r.required_int("sliding_window");
    const int full = std::min(r.optional_int("max_window_layers", m.layers), m.layers);
    m.attention.sliding_window_layers = m.layers - full;
}

/// The shortest period that repeats at least twice over the per-layer letters (s[i] = s[i mod p]
/// for every i, 2p ≤ n), interned: a 62-layer Gemma 3 is "WWWWWF", a Nemotron-H pattern stays whole.
[[nodiscard]] inline std::string_view compact_pattern(const std::string& per_layer) {
    const std::size_t n = per_layer.size();
    for (std::size_t p = 1; 2 * p <= n; ++p) {
        bool repeats = true;
        for (std::size_t i = p; i < n && repeats; ++i) repeats = per_layer[i] == per_layer[i % p];
        if (repeats) return intern(per_layer.substr(0, p));
    }
    return intern(per_layer);
}

/// Per-layer letters are built for at most this many layers (a config with more is refused before
/// a string of that length is made: 10,000 is 50× the deepest released model).
inline constexpr int max_pattern_layers = 10'000;
inline void require_pattern_layers(const reader& r, int layers) {
    if (layers > max_pattern_layers)
        r.fail("num_hidden_layers", "more than " + std::to_string(max_pattern_layers) +
                                        " layers: too many for a per-layer pattern", std::to_string(layers));
}

/// `layer_types`: one entry per layer, each one of `allowed` (its HF name → our letter). Absent
/// or null: nullopt, and the family's default applies.
[[nodiscard]] inline std::optional<std::string> read_layer_types(
    const reader& r, int layers, std::initializer_list<std::pair<std::string_view, char>> allowed) {
    const json* types = r.member("layer_types");
    if (types == nullptr || types->is_null()) return std::nullopt;
    if (!types->is_array()) r.fail("layer_types", "expected an array, got " + type_name(*types));
    if (types->size() != static_cast<std::size_t>(layers))
        r.fail("layer_types", "must have one entry per layer (num_hidden_layers = " + std::to_string(layers) +
                                  "), has " + std::to_string(types->size()));
    std::string names;
    for (const auto& [name, letter] : allowed) names += (names.empty() ? "\"" : ", \"") + std::string(name) + '"';
    std::string out;
    for (const json& t : *types) {
        char letter = 0;
        if (t.is_string())
            for (const auto& [name, l] : allowed)
                if (t.get<std::string>() == name) letter = l;
        if (letter == 0) r.fail("layer_types", "unsupported layer type (supported: " + names + ")", t.dump());
        out += letter;
    }
    return out;
}

/// Llama 4 (text model): MoE every `interleave_moe_layer_step`-th layer with one shared expert of
/// the experts' width, dense layers of `intermediate_size_mlp` between; RoPE layers use chunked
/// attention over `attention_chunk_size` tokens, NoPE layers (`no_rope_layers` 0, by default every
/// 4th) full attention (transformers' Llama4TextConfig and Llama4TextAttention).
inline void read_llama4(const reader& r, model& m) {
    require_pattern_layers(r, m.layers);
    ffn_spec& f = m.ffn;
    f.routed_experts = r.required_int("num_local_experts");
    f.top_k = r.optional_int("num_experts_per_tok", 1);
    f.expert_intermediate = r.required_int("intermediate_size");
    f.shared_experts = 1;
    f.moe_layer_step = r.optional_int("interleave_moe_layer_step", 1);
    if (f.moe_layer_step == 0) r.fail("interleave_moe_layer_step", "must be at least 1", "0");
    // Dense layers only between MoE ones; with a step of 1 there are none and the width is unused.
    f.intermediate = f.moe_layer_step > 1 ? r.required_int("intermediate_size_mlp") : 0;
    // moe_layers, when listed, must be the step's own layers: step-1, 2·step-1, ...
    if (const json* moe = r.member("moe_layers"); moe != nullptr && !moe->is_null()) {
        if (!moe->is_array()) r.fail("moe_layers", "expected an array, got " + type_name(*moe));
        std::size_t k = 0;
        for (int i = f.moe_layer_step - 1; i < m.layers; i += f.moe_layer_step, ++k)
            if (k >= moe->size() || !(*moe)[k].is_number_integer() || (*moe)[k].get<std::int64_t>() != i)
                r.fail("moe_layers", "only every interleave_moe_layer_step-th layer (step - 1, 2 step - 1, ...) is supported",
                       moe->dump());
        if (k != moe->size())
            r.fail("moe_layers", "only every interleave_moe_layer_step-th layer (step - 1, 2 step - 1, ...) is supported",
                   moe->dump());
    }
    const int chunk = r.optional_int("attention_chunk_size", 8192);  // null: no chunking
    std::string kinds;
    if (const auto types = read_layer_types(r, m.layers, {{"chunked_attention", 'C'}, {"full_attention", 'F'}})) {
        kinds = *types;
    } else if (const json* rope = r.member("no_rope_layers"); rope != nullptr && !rope->is_null() &&
                                                              !(rope->is_array() && rope->empty())) {
        if (!rope->is_array()) r.fail("no_rope_layers", "expected an array, got " + type_name(*rope));
        if (rope->size() != static_cast<std::size_t>(m.layers))
            r.fail("no_rope_layers", "must have one entry per layer (num_hidden_layers = " + std::to_string(m.layers) +
                                         "), has " + std::to_string(rope->size()));
        for (const json& e : *rope) {
            if (!e.is_number_integer() || (e.get<std::int64_t>() != 0 && e.get<std::int64_t>() != 1))
                r.fail("no_rope_layers", "entries must be 1 (RoPE, chunked attention) or 0 (NoPE, full attention)", e.dump());
            kinds += e.get<std::int64_t>() == 1 ? 'C' : 'F';
        }
    } else {
        const int every = r.optional_int("no_rope_layer_interval", 4);
        if (every == 0) r.fail("no_rope_layer_interval", "must be at least 1", "0");
        for (int i = 0; i < m.layers; ++i) kinds += (i + 1) % every != 0 ? 'C' : 'F';
    }
    if (chunk == 0) std::replace(kinds.begin(), kinds.end(), 'C', 'F');
    m.pattern.kinds = compact_pattern(kinds);
    m.pattern.chunk = kinds.find('C') != std::string::npos ? chunk : 0;
}

/// Gemma 2 and 3: GeGLU FFN, four norms per layer (pre/post attention and FFN), tied embeddings by
/// default, sliding-window layers alternating with full ones — Gemma 2 every other layer, Gemma 3
/// five of every `sliding_window_pattern` (6) — or as `layer_types` lists them. Gemma 3 adds
/// QK-norm. `query_pre_attn_scalar` and soft-capping change no cost.
inline void read_gemma(const reader& r, model& m, bool gemma3) {
    require_pattern_layers(r, m.layers);
    m.norms_per_layer = 4;
    m.attention.qk_norm = gemma3;
    m.ffn.intermediate = r.required_int("intermediate_size");
    m.attention.sliding_window = r.optional_int("sliding_window", 4096);
    std::string kinds;
    if (const auto types = read_layer_types(r, m.layers, {{"sliding_attention", 'W'}, {"full_attention", 'F'}})) {
        kinds = *types;
    } else {
        const int every = gemma3 ? r.optional_int("sliding_window_pattern", 6) : 2;
        if (every == 0) r.fail("sliding_window_pattern", "must be at least 1", "0");
        for (int i = 0; i < m.layers; ++i) kinds += (i + 1) % every != 0 ? 'W' : 'F';
    }
    if (m.attention.sliding_window == 0) std::replace(kinds.begin(), kinds.end(), 'W', 'F');
    m.pattern.kinds = compact_pattern(kinds);
}

/// Qwen3-Next: every layer MoE (routed + one gated shared expert); `full_attention_interval`-th
/// layers (or `layer_types`) gated full attention with QK-norm, the others Gated DeltaNet.
inline void read_qwen3_next(const reader& r, model& m) {
    require_pattern_layers(r, m.layers);
    attention_spec& a = m.attention;
    a.qk_norm = true;
    a.output_gate = true;  // q_proj emits queries and their gate (Qwen3NextAttention)
    ffn_spec& f = m.ffn;
    f.intermediate = r.optional_int("intermediate_size", 0);
    f.routed_experts = r.required_int("num_experts");
    f.top_k = r.required_int("num_experts_per_tok");
    f.expert_intermediate = r.required_int("moe_intermediate_size");
    f.shared_expert_intermediate = r.optional_int("shared_expert_intermediate_size", 0);
    f.shared_experts = f.shared_expert_intermediate > 0 ? 1 : 0;
    f.shared_expert_gate = f.shared_experts > 0;
    if (const int step = r.optional_int("decoder_sparse_step", 1); step != 1)
        r.fail("decoder_sparse_step", "only 1 (MoE in every layer) is supported", std::to_string(step));
    if (const json* dense = r.member("mlp_only_layers"); dense != nullptr && !dense->is_null() &&
                                                         !(dense->is_array() && dense->empty()))
        r.fail("mlp_only_layers", "dense layers in a Qwen3-Next model are not supported (expected [])", dense->dump());
    std::string kinds;
    if (const auto types = read_layer_types(r, m.layers, {{"linear_attention", 'S'}, {"full_attention", 'F'}})) {
        kinds = *types;
    } else {
        const int every = r.optional_int("full_attention_interval", 4);
        if (every == 0) r.fail("full_attention_interval", "must be at least 1", "0");
        for (int i = 0; i < m.layers; ++i) kinds += (i + 1) % every != 0 ? 'S' : 'F';
    }
    m.pattern.kinds = compact_pattern(kinds);
    state_space_spec& st = m.pattern.state;
    st.kind = state_space_kind::gated_delta_net;
    st.heads = r.required_int("linear_num_value_heads");
    st.head_dim = r.required_int("linear_value_head_dim");
    st.state_dim = r.required_int("linear_key_head_dim");
    st.groups = r.required_int("linear_num_key_heads");
    st.conv_kernel = r.optional_int("linear_conv_kernel_dim", 4);
    m.mtp_modules = r.optional_int("mtp_num_hidden_layers", 0);
}

/// Nemotron-H: `hybrid_override_pattern` gives each block one job — M a Mamba2 mixer, * attention,
/// - a squared-ReLU MLP — with one norm per block (transformers' NemotronHBlock).
inline void read_nemotron_h(const reader& r, model& m) {
    require_pattern_layers(r, m.layers);
    const auto pattern = r.optional_string("hybrid_override_pattern");
    if (!pattern) r.fail("hybrid_override_pattern", "missing required key");
    if (pattern->size() != static_cast<std::size_t>(m.layers))
        r.fail("hybrid_override_pattern", "must have one letter per layer (num_hidden_layers = " +
                                              std::to_string(m.layers) + "), has " + std::to_string(pattern->size()),
               '"' + *pattern + '"');
    std::string kinds;
    for (const char c : *pattern) {
        if (c == 'M') kinds += 'S';
        else if (c == '*') kinds += 'F';
        else if (c == '-') kinds += '-';
        else
            r.fail("hybrid_override_pattern",
                   std::string("unsupported block letter '") + c + "' (supported: M Mamba2, * attention, - MLP)",
                   '"' + *pattern + '"');
    }
    m.pattern.kinds = compact_pattern(kinds);
    m.pattern.split_blocks = true;
    m.norms_per_layer = 1;
    m.ffn.intermediate = r.required_int("intermediate_size");
    if (const auto act = r.optional_string("mlp_hidden_act"); !act || *act == "relu2") {
        m.ffn.gated = false;  // up and down projections only
    } else {
        r.fail("mlp_hidden_act", "only relu2 (an ungated MLP) is supported", '"' + *act + '"');
    }
    state_space_spec& st = m.pattern.state;
    st.kind = state_space_kind::mamba2;
    st.heads = r.required_int("mamba_num_heads");
    st.head_dim = r.required_int("mamba_head_dim");
    st.state_dim = r.required_int("ssm_state_size");
    st.groups = r.optional_int("n_groups", 8);
    st.conv_kernel = r.optional_int("conv_kernel", 4);
    st.conv_bias = r.optional_bool("use_conv_bias", true);
}

/// Quantization that changes the bytes of the resident weights.
inline void read_quantization(const reader& r, model& m) {
    const json* q = r.member("quantization_config");
    if (q == nullptr || q->is_null()) return;
    if (!q->is_object()) r.fail("quantization_config", "expected an object, got " + type_name(*q));
    const auto it = q->find("quant_method");
    if (it == q->end()) r.fail("quantization_config/quant_method", "missing required key");
    if (!it->is_string())
        r.fail("quantization_config/quant_method", "expected a string, got " + type_name(*it));
    const std::string method = it->get<std::string>();
    if (method == "fp8") {
        m.weights = formats::fp8;  // DeepSeek-V3: block-scaled E4M3, scales negligible (128×128)
        // "activation_scheme": activations quantised to FP8 too ("dynamic": per-token scales at run
        // time, "static": calibrated), so the GEMMs run at the FP8 peak (W8A8).
        if (const auto a = q->find("activation_scheme"); a != q->end() && a->is_string())
            m.activations = formats::fp8;
    } else if (method == "mxfp4") {
        // gpt-oss: only the routed experts are MXFP4; attention, router and embeddings stay BF16.
        if (m.is_moe())
            m.expert_weights = formats::mxfp4;
        else
            m.weights = formats::mxfp4;
    } else {
        r.fail("quantization_config/quant_method", "unsupported quantization method (supported: fp8, mxfp4)",
               '"' + method + '"');
    }
}

[[nodiscard]] inline model read_model(const reader& top, std::string_view name) {
    std::string family = family_of(top);
    // A multimodal wrapper keeps its language model under text_config.
    std::optional<reader> inner;
    if (family == "llama4" || family == "gemma3") {
        const json* t = top.member("text_config");
        if (t == nullptr || t->is_null()) top.fail("text_config", "missing required key (the language model's config)");
        if (!t->is_object()) top.fail("text_config", "expected an object, got " + type_name(*t));
        inner.emplace(top.nested(*t, "text_config"));
    }
    if (family == "llama4_text") family = "llama4";
    if (family == "gemma3_text") family = "gemma3";
    const reader& r = inner ? *inner : top;
    const bool gemma = family == "gemma2" || family == "gemma3";
    model m;
    m.name = name;
    m.layers = r.required_int("num_hidden_layers");
    m.hidden = r.required_int("hidden_size");
    // Gemma's config classes give the vocabulary and the context a default (the real files omit them).
    m.vocab = gemma ? r.optional_int("vocab_size", family == "gemma3" ? 262208 : 256000) : r.required_int("vocab_size");
    m.max_position = gemma ? r.optional_int("max_position_embeddings", family == "gemma3" ? 131072 : 8192)
                           : r.required_int("max_position_embeddings");
    // Gemma ties the LM head to the embedding by default, every other family does not; a wrapper
    // may say it at the top level.
    m.tied_embeddings = r.optional_bool("tie_word_embeddings", top.optional_bool("tie_word_embeddings", gemma));

    if (family == "deepseek_v2" || family == "deepseek_v3") {
        attention_spec& a = m.attention;
        a.kind = attention_kind::latent;
        a.query_heads = r.required_int("num_attention_heads");
        a.kv_heads = r.optional_int("num_key_value_heads", a.query_heads);
        a.latent.kv_lora_rank = r.required_int("kv_lora_rank");
        a.latent.q_lora_rank = r.optional_int("q_lora_rank", 0);  // null: queries not compressed (V2-Lite)
        a.latent.rope_head_dim = r.required_int("qk_rope_head_dim");
        a.latent.nope_head_dim = r.required_int("qk_nope_head_dim");
        a.latent.v_head_dim = r.required_int("v_head_dim");
        ffn_spec& f = m.ffn;
        f.intermediate = r.required_int("intermediate_size");
        if (r.has("n_routed_experts")) {
            f.routed_experts = r.required_int("n_routed_experts");
            f.top_k = r.required_int("num_experts_per_tok");
            f.expert_intermediate = r.required_int("moe_intermediate_size");
            f.shared_experts = r.optional_int("n_shared_experts", 0);
            f.first_dense_layers = r.optional_int("first_k_dense_replace", 0);
            // The descriptor knows "leading dense layers, then MoE in every layer"; a sparser
            // interleave would be counted wrong, so refuse it instead.
            if (const int freq = r.optional_int("moe_layer_freq", 1); freq != 1)
                r.fail("moe_layer_freq", "only 1 (an MoE FFN in every layer after the dense ones) is supported",
                       std::to_string(freq));
            // The aux-loss-free router (noaux_tc, DeepSeek-V3's default) adds a per-expert score
            // correction bias.
            const std::string topk_method =
                r.optional_string("topk_method").value_or(family == "deepseek_v3" ? "noaux_tc" : "greedy");
            f.router_bias = topk_method == "noaux_tc";
        }
        m.mtp_modules = r.optional_int("num_nextn_predict_layers", 0);
    } else {
        read_standard_attention(r, m);
        attention_spec& a = m.attention;
        ffn_spec& f = m.ffn;
        if (family == "llama") {
            f.intermediate = r.required_int("intermediate_size");
        } else if (family == "mistral") {
            f.intermediate = r.required_int("intermediate_size");
            a.sliding_window = r.optional_int("sliding_window", 0);  // null: no window
            a.sliding_window_layers = a.sliding_window > 0 ? m.layers : 0;
        } else if (family == "mixtral") {
            // Every layer is MoE, and each expert is a full FFN of intermediate_size.
            f.routed_experts = r.required_int("num_local_experts");
            f.top_k = r.required_int("num_experts_per_tok");
            f.expert_intermediate = r.required_int("intermediate_size");
            a.sliding_window = r.optional_int("sliding_window", 0);
            a.sliding_window_layers = a.sliding_window > 0 ? m.layers : 0;
        } else if (family == "qwen2") {
            f.intermediate = r.required_int("intermediate_size");
            a.qkv_bias = true;  // Qwen2 hard-wires biases on Q, K and V (not on O)
            a.output_bias = false;
            read_qwen_window(r, m);
        } else if (family == "qwen3") {
            f.intermediate = r.required_int("intermediate_size");
            a.qk_norm = true;
            read_qwen_window(r, m);
        } else if (family == "qwen3_moe") {
            a.qk_norm = true;
            f.intermediate = r.required_int("intermediate_size");
            f.routed_experts = r.required_int("num_experts");
            f.top_k = r.required_int("num_experts_per_tok");
            f.expert_intermediate = r.required_int("moe_intermediate_size");
            if (const int step = r.optional_int("decoder_sparse_step", 1); step != 1)
                r.fail("decoder_sparse_step", "only 1 (MoE in every layer) is supported", std::to_string(step));
            // mlp_only_layers lists dense layers; only a leading run 0..k-1 is representable.
            if (const json* dense = r.member("mlp_only_layers"); dense != nullptr && !dense->is_null()) {
                if (!dense->is_array()) r.fail("mlp_only_layers", "expected an array, got " + type_name(*dense));
                int expected = 0;
                for (const json& e : *dense) {
                    if (!e.is_number_integer() || r.integer_value(e, "mlp_only_layers") != expected)
                        r.fail("mlp_only_layers",
                               "only a leading run of dense layers (0, 1, ..., k-1) is supported", dense->dump());
                    ++expected;
                }
                f.first_dense_layers = expected;
            }
            read_qwen_window(r, m);
        } else if (family == "llama4") {
            read_llama4(r, m);
        } else if (gemma) {
            if (!r.has("head_dim")) a.head_dim = 256;  // Gemma2Config / Gemma3TextConfig default
            read_gemma(r, m, family == "gemma3");
        } else if (family == "phi3") {
            // Fused qkv_proj and gate_up_proj hold the same weights as separate ones; a window,
            // when set, applies to every layer.
            f.intermediate = r.required_int("intermediate_size");
            a.sliding_window = r.optional_int("sliding_window", 0);
            a.sliding_window_layers = a.sliding_window > 0 ? m.layers : 0;
        } else if (family == "qwen3_next") {
            read_qwen3_next(r, m);
        } else if (family == "nemotron_h") {
            if (!r.has("head_dim") && r.has("attention_head_dim")) a.head_dim = r.required_int("attention_head_dim");
            read_nemotron_h(r, m);
        } else if (family == "gpt_oss") {
            f.routed_experts = r.required_int("num_local_experts");
            f.top_k = r.has("num_experts_per_tok") ? r.required_int("num_experts_per_tok")
                                                   : r.required_int("experts_per_token");
            f.expert_intermediate = r.required_int("intermediate_size");  // the expert width
            f.expert_bias = true;
            f.router_bias = true;
            a.qkv_bias = true;
            a.output_bias = true;
            a.sinks = true;
            a.sliding_window = r.required_int("sliding_window");
            if (const json* types = r.member("layer_types"); types != nullptr && !types->is_null()) {
                if (!types->is_array()) r.fail("layer_types", "expected an array, got " + type_name(*types));
                if (types->size() != static_cast<std::size_t>(m.layers))
                    r.fail("layer_types",
                           "must have one entry per layer (num_hidden_layers = " + std::to_string(m.layers) +
                               "), has " + std::to_string(types->size()));
                int windowed = 0;
                for (const json& t : *types) {
                    if (!t.is_string() ||
                        (t.get<std::string>() != "sliding_attention" && t.get<std::string>() != "full_attention"))
                        r.fail("layer_types", "entries must be \"sliding_attention\" or \"full_attention\"",
                               t.dump());
                    windowed += t.get<std::string>() == "sliding_attention" ? 1 : 0;
                }
                a.sliding_window_layers = windowed;
            } else {
                // The config class's default: sliding on even layers (0, 2, ...), full on odd.
                a.sliding_window_layers = (m.layers + 1) / 2;
            }
        }
    }
    read_quantization(inner ? top : r, m);

    try {
        m.validate();
    } catch (const invalid_input& e) {
        const std::string key = config_key_for(e.field(), family);
        // The descriptor's own message follows, so that its field name stays searchable.
        r.fail(key, e.rule() + " (model check: " + e.what() + ")", invalid_input::show(e.value()));
    }
    return m;
}

/// The name to give the model: the override, else `_name_or_path`, else the directory that
/// holds the file (Hugging Face snapshots are laid out as <model-name>/config.json).
[[nodiscard]] inline std::string_view choose_name(const reader& r, std::optional<std::string_view> name_override,
                                                  std::string_view origin) {
    if (name_override) return intern(std::string(*name_override));
    if (const auto n = r.optional_string("_name_or_path"); n && !n->empty()) return intern(*n);
    // The folder's name: "Llama-3.1-8B/config.json" is Llama-3.1-8B. "./config.json" and a bare
    // "config.json" name the working folder, whose name is in the absolute path.
    const std::filesystem::path p(origin);
    std::string dir = p.parent_path().filename().string();
    if ((dir.empty() || dir == "." || dir == "..") && p.filename() == "config.json") {
        std::error_code ec;
        dir = std::filesystem::absolute(p, ec).lexically_normal().parent_path().filename().string();
    }
    return intern(dir.empty() || dir == "." || dir == ".." ? p.filename().string() : dir);
}

}  // namespace detail::hf

/// Parses the text of a `config.json`. `origin_name` names the input in messages (and, when the
/// config has no `_name_or_path`, gives the model its name: its parent directory's name).
[[nodiscard]] inline model parse_hf_config(std::string_view json_text, std::string_view origin_name,
                                           std::optional<std::string_view> name_override = std::nullopt) {
    using detail::hf::json;
    const std::string origin(origin_name);
    json_text = without_bom(json_text);
    if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw load_error(origin, {}, "empty file: expected a JSON object");
    json root;
    try {
        root = json::parse(json_text.begin(), json_text.end());
    } catch (const json::parse_error& e) {
        // e.byte counts the characters read, so the last one read is at e.byte - 1.
        const std::size_t last = e.byte > 0 ? std::min<std::size_t>(e.byte - 1, json_text.size()) : 0;
        const std::string what = e.what();
        const std::size_t reason_at = what.find("syntax error");
        const std::string reason = reason_at == std::string::npos ? what : what.substr(reason_at);
        const std::size_t end = json_text.find_last_not_of(" \t\r\n");
        if (what.find("end of input") != std::string::npos ||
            (last >= end && what.find("missing closing quote") != std::string::npos)) {
            const detail::hf::text_position p = detail::hf::position_of(json_text, json_text.size());
            throw load_error(origin, {}, "truncated file: the JSON ends before it is complete (" + reason + ")",
                             p.line, p.column);
        }
        // The parser stops at the end of the offending token; point at its start, which is where
        // a reader looks (for `"key" 32` that is the 3, not the 2).
        std::size_t at = std::min(last, json_text.size() - 1);
        const auto token_char = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '+';
        };
        if (token_char(json_text[at]))
            while (at > 0 && token_char(json_text[at - 1])) --at;
        const detail::hf::text_position p = detail::hf::position_of(json_text, at);
        throw load_error(origin, {}, "JSON " + reason, p.line, p.column);
    } catch (const json::out_of_range& e) {
        // A number beyond a double (`1e400`) is out_of_range 406, not a parse_error, and has no
        // position: point at the first place the number's text appears.
        const std::string what = e.what();
        const std::size_t open = what.find('\''), close = what.rfind('\'');
        const std::size_t at = open != std::string::npos && close > open + 1
                                   ? json_text.find(std::string_view(what).substr(open + 1, close - open - 1))
                                   : std::string_view::npos;
        const detail::hf::text_position p =
            at == std::string_view::npos ? detail::hf::text_position{} : detail::hf::position_of(json_text, at);
        const std::size_t reason_at = what.find("number overflow");
        throw load_error(origin, {},
                         "JSON number too large (" + (reason_at == std::string::npos ? what : what.substr(reason_at)) + ")",
                         p.line, p.column);
    }
    if (!root.is_object())
        throw load_error(origin, {}, "expected a JSON object at the top level, got " + detail::hf::type_name(root));
    const detail::hf::reader r(json_text, root, origin);
    return detail::hf::read_model(r, detail::hf::choose_name(r, name_override, origin_name));
}

/// Reads `file` (a `config.json`, or a model directory holding one) and returns the validated model.
/// The file must be a regular file of at most `config_file_limit` bytes (io/files.hpp).
[[nodiscard]] inline model load_hf_config(const std::filesystem::path& file,
                                          std::optional<std::string_view> name_override = std::nullopt) {
    std::error_code ec;
    const std::filesystem::path path =
        std::filesystem::is_directory(file, ec) ? file / "config.json" : file;
    return parse_hf_config(read_input_file(path, config_file_limit), path.string(), name_override);
}

}  // namespace llmcost::io
