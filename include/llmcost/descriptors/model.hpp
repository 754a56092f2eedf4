#pragma once
/// \file
/// Model descriptors: the architecture (layers, hidden size, heads, FFN or MoE, attention variant)
/// and the precisions it is served in, with exact derived counts: parameters total and active,
/// per-layer breakdown, weight bytes, KV-cache bytes per token.
///
/// **Example**
/// \code
/// static_assert(kv_bytes_per_token(catalog::llama_3_1_70b) == 327'680_B / 1_tok);   // seed S16
/// \endcode

#include <llmcost/descriptors/precision.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmcost {

using count_t = std::int64_t;  ///< exact integer counts (parameters, elements): 2^63 ≈ 9.2e18

/// Standard attention (MHA, GQA or MQA, by the ratio of query to KV heads) or latent attention
/// (MLA, DeepSeek-V2/V3), which caches one compressed latent per token instead of K and V.
enum class attention_kind { standard, latent };

/// MLA dimensions (DeepSeek-V2 §2.1; DeepSeek-V3 config.json names in brackets).
struct latent_attention {
    int kv_lora_rank = 0;   ///< [kv_lora_rank] width of the cached KV latent
    int q_lora_rank = 0;    ///< [q_lora_rank] 0 = queries not compressed
    int rope_head_dim = 0;  ///< [qk_rope_head_dim] decoupled RoPE key, cached alongside
    int nope_head_dim = 0;  ///< [qk_nope_head_dim]
    int v_head_dim = 0;     ///< [v_head_dim]
    [[nodiscard]] constexpr bool operator==(const latent_attention&) const = default;
};

struct attention_spec {
    attention_kind kind = attention_kind::standard;
    int query_heads = 0;
    int kv_heads = 0;  ///< = query_heads: MHA; 1: MQA; between: GQA. For MLA: = query_heads
    int head_dim = 0;  ///< standard attention only
    latent_attention latent{};
    int sliding_window = 0;         ///< tokens a windowed layer attends to; 0 = no window
    int sliding_window_layers = 0;  ///< how many layers use the window (gpt-oss: every other)
    bool qkv_bias = false;          ///< biases on Q, K, V projections (Qwen2, gpt-oss)
    bool output_bias = false;       ///< bias on the output projection (gpt-oss)
    bool qk_norm = false;           ///< RMSNorm on queries and keys per head (Qwen3)
    bool sinks = false;             ///< one learned sink logit per head (gpt-oss)
    bool output_gate = false;       ///< a sigmoid gate on the attention output: Q projection twice as wide (Qwen3-Next)
    [[nodiscard]] constexpr bool operator==(const attention_spec&) const = default;
};

struct ffn_spec {
    int intermediate = 0;          ///< width of the dense FFN (dense layers)
    bool gated = true;             ///< SwiGLU-style: 3 matrices; plain MLP: 2
    int routed_experts = 0;        ///< 0 = dense model
    int shared_experts = 0;        ///< always-on experts (DeepSeek)
    int top_k = 0;                 ///< routed experts chosen per token
    int expert_intermediate = 0;   ///< width of one expert
    int first_dense_layers = 0;    ///< leading layers with a dense FFN (DeepSeek-V3: 3)
    bool expert_bias = false;      ///< biases inside experts (gpt-oss)
    bool router_bias = false;      ///< router bias (gpt-oss; DeepSeek's score-correction bias)
    int shared_expert_intermediate = 0;  ///< width of a shared expert; 0 = expert_intermediate (Qwen3-Next, Nemotron)
    bool shared_expert_gate = false;     ///< a hidden → 1 sigmoid gate on the shared expert (Qwen2-MoE, Qwen3-Next)
    int moe_layer_step = 1;        ///< an MoE FFN in every step-th layer after the dense ones, dense between (Llama-4 Maverick: 2)
    /// Routing skew: the coefficient of variation of the tokens each routed expert receives, per
    /// layer and step, on real data without load balancing (a property of the router and the data,
    /// not of the engine); 0: uniform routing, the spread of sampling alone. The busiest EP rank sees
    /// it (`detail::ep_imbalance`).
    double routing_skew = 0.0;
    [[nodiscard]] constexpr bool operator==(const ffn_spec&) const = default;
};

/// What a layer's token mixer is. A model's layers follow a `layer_pattern`, one letter per layer.
enum class layer_kind : char {
    full = 'F',      ///< full causal attention: keeps every token
    window = 'W',    ///< sliding-window attention: keeps the last `attention.sliding_window` tokens
    chunked = 'C',   ///< chunked local attention: attends within its chunk of `layer_pattern::chunk` tokens
    state = 'S',     ///< linear attention / state-space (Mamba2, Gated DeltaNet): a fixed state per sequence
    ffn_only = '-',  ///< no mixer: an FFN-only block (Nemotron-H's MLP layers, with `split_blocks`)
};

/// The recurrent layers of a hybrid model. Mamba2 (Dao & Gu 2024) and Gated DeltaNet (Yang et al.
/// 2024, as in Qwen3-Next) share one shape: values V = heads · head_dim, keys K = groups · state_dim,
/// a short causal convolution over (V + 2K) channels, and a state of heads · head_dim · state_dim.
enum class state_space_kind { mamba2, gated_delta_net };

struct state_space_spec {
    state_space_kind kind = state_space_kind::mamba2;
    int heads = 0;        ///< value heads [mamba_num_heads | linear_num_value_heads]
    int head_dim = 0;     ///< value head width [mamba_head_dim | linear_value_head_dim]
    int state_dim = 0;    ///< state (key) width per head [ssm_state_size | linear_key_head_dim]
    int groups = 0;       ///< B/C groups or key heads [n_groups | linear_num_key_heads]
    int conv_kernel = 0;  ///< [conv_kernel | linear_conv_kernel_dim]
    bool conv_bias = false;  ///< [use_conv_bias]
    [[nodiscard]] constexpr bool operator==(const state_space_spec&) const = default;
};

/// The per-layer pattern: `kinds` holds one `layer_kind` letter per layer of a period that repeats
/// over the layers (gpt-oss "WF", Gemma 3 "WWWWWF", Llama 4 "CCCF", Qwen3-Next "SSSF"), or one per
/// layer (Nemotron-H). Empty: every layer is full attention, except `attention.sliding_window_layers`
/// windowed ones (the form of the catalog's older entries, counted the same).
struct layer_pattern {
    std::string_view kinds{};
    int chunk = 0;              ///< tokens per attention chunk of 'C' layers [attention_chunk_size]
    bool split_blocks = false;  ///< each layer is a mixer or an FFN, not both (Nemotron-H)
    state_space_spec state{};   ///< the 'S' layers
    [[nodiscard]] constexpr bool operator==(const layer_pattern& o) const {
        return kinds == o.kinds && chunk == o.chunk && split_blocks == o.split_blocks && state == o.state;
    }
};

/// The modules a quantized checkpoint leaves out of its format (ModelOpt's `*attn*` and `*head*`, Quark's
/// `exclude_layers`), served in `format` (BF16) while every other weight is in the model's `weights`: an FP4
/// checkpoint that quantizes the FFNs only (nvidia/DeepSeek-R1-0528-FP4: NVIDIA/TensorRT-Model-Optimizer
/// examples/deepseek/ptq.py @1030a2210d8dbd654e7f51af85f0b3a3b64f4d38 `quant_cfg["*attn*"] = {"enable": False}`,
/// `["*head*"]` likewise; its -v2 quantizes wo too, `--enable_wo_quant`). None set: quantized throughout.
struct excluded_modules {
    number_format format = formats::bf16;
    bool attention_inputs = false;  ///< every attention input projection: Q, K, V (latent: q_a, q_b, kv_a)
    bool attention_kv_up = false;   ///< latent attention's kv_b (W_UK, W_UV); none in standard attention
    bool attention_output = false;  ///< the attention output projection (o_proj, wo)
    bool lm_head = false;           ///< the output projection (the embedding, where tied)
    bool embedding = false;         ///< the input embedding table (resident; a lookup reads a few rows)
    [[nodiscard]] constexpr bool any() const;
    [[nodiscard]] constexpr bool operator==(const excluded_modules&) const = default;
};

/// One module's word (tables/measurements.csv's `excluded_modules` column, `llmcost … --excluded-modules`, Python
/// `excluded_modules=`, the printed weights text) and the `excluded_modules` field it sets.
struct excluded_module_name {
    std::string_view word;
    bool excluded_modules::*kept;
};
/// The one table of module words, in the order every list is printed: the parser (`excluded_modules_named`), the
/// words string (`excluded_module_words`) and the text (`excluded_modules_text`) all read it.
inline constexpr std::array<excluded_module_name, 5> excluded_module_names{{
    {"attention_in", &excluded_modules::attention_inputs},
    {"attention_kv_b", &excluded_modules::attention_kv_up},
    {"attention_out", &excluded_modules::attention_output},
    {"lm_head", &excluded_modules::lm_head},
    {"embedding", &excluded_modules::embedding},
}};

constexpr bool excluded_modules::any() const {
    for (const auto& n : excluded_module_names)
        if (this->*n.kept) return true;
    return false;
}

/// The words that name excluded modules, as tables/measurements.csv's `excluded_modules` column and
/// `llmcost … --excluded-modules` take them (`excluded_modules_named`).
namespace detail {
/// `excluded_module_names`' words joined by ", ", as a constant array (a string_view needs storage that lives on).
inline constexpr auto excluded_module_words_chars = [] {
    constexpr std::size_t size = [] {
        std::size_t n = 0;
        for (const auto& e : excluded_module_names) n += e.word.size() + 2;
        return n - 2;
    }();
    std::array<char, size> a{};
    std::size_t at = 0;
    for (const auto& e : excluded_module_names) {
        if (at != 0) { a[at++] = ','; a[at++] = ' '; }
        for (char c : e.word) a[at++] = c;
    }
    return a;
}();
}  // namespace detail
inline constexpr std::string_view excluded_module_words{detail::excluded_module_words_chars.data(),
                                                        detail::excluded_module_words_chars.size()};
static_assert(excluded_module_words == "attention_in, attention_kv_b, attention_out, lm_head, embedding");

/// What `excluded_modules_named` read: the modules, and the first word it did not know (empty: none).
struct excluded_modules_reading {
    excluded_modules kept{};
    std::string_view unknown{};
    /// Whether the list named no module at all ("", ",", " "): refused by every reader (`excluded_modules_names_none`).
    [[nodiscard]] constexpr bool names_none() const { return unknown.empty() && !kept.any(); }
    [[nodiscard]] constexpr bool ok() const { return unknown.empty() && kept.any(); }
};
/// The one rule for an empty list (tables/measurements.csv, `llmcost … --excluded-modules`, Python `excluded_modules=`):
/// a list that names no module is refused, never read as "none kept" (leave the setting out for that).
inline constexpr std::string_view excluded_modules_names_none = "names no module; the words: ";
/// The one rule for a list without the weights' format: the modules are kept out of a quantized checkpoint's format,
/// so the reader needs that format (the measurements' `weights` column, `--weights`, `weights=`).
inline constexpr std::string_view excluded_modules_need_weights =
    "names the modules a quantized checkpoint keeps out of its weights' format: it needs that format";
/// The modules a list of words names, split at `separator` (the measurements column: ' '; the CLI: ','): attention_in
/// (every attention input projection; MLA q_a, q_b, kv_a), attention_kv_b (MLA's kv_b), attention_out (o_proj, wo),
/// lm_head, embedding, kept in `format`. Spaces around a word are trimmed ("attention_in, lm_head"), empty words
/// skipped; the first unknown one is returned, not thrown, and a list naming none is `names_none()`.
[[nodiscard]] constexpr excluded_modules_reading excluded_modules_named(std::string_view list, char separator,
                                                                         const number_format& format = formats::bf16) {
    excluded_modules_reading r{.kept = {.format = format}};
    std::size_t at = 0;
    while (at < list.size()) {
        const std::size_t end = std::min(list.find(separator, at), list.size());
        std::string_view word = list.substr(at, end - at);
        while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
        while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
        const auto* named = std::ranges::find(excluded_module_names, word, &excluded_module_name::word);
        if (named != excluded_module_names.end()) r.kept.*named->kept = true;
        else if (!word.empty() && r.unknown.empty()) r.unknown = word;
        at = end + 1;
    }
    return r;
}

struct model {
    std::string_view name;
    int layers = 0;
    int hidden = 0;
    int vocab = 0;
    bool tied_embeddings = false;
    attention_spec attention{};
    ffn_spec ffn{};
    int max_position = 0;  ///< longest context the model was trained for
    number_format weights = formats::bf16;
    number_format kv_cache = formats::bf16;
    number_format activations = formats::bf16;
    /// Routed-expert weights in their own format (gpt-oss ships experts in MXFP4); empty = `weights`.
    std::optional<number_format> expert_weights{};
    /// Modules the checkpoint keeps out of `weights` and `expert_weights` (BF16 attention of an FP4 checkpoint)
    excluded_modules excluded{};
    int mtp_modules = 0;  ///< multi-token-prediction modules shipped with the model (not counted)
    layer_pattern pattern{};  ///< each layer's kind (full, window, chunked, state); empty: see layer_pattern
    int norms_per_layer = 2;  ///< RMSNorm weight vectors per layer: 2 (pre-attention, pre-FFN); Gemma 2/3: 4

    [[nodiscard]] constexpr bool is_moe() const { return ffn.routed_experts > 0; }
    /// Layers of each kind: the pattern's period repeated over the layers (constexpr, no allocation).
    struct layer_counts {
        int full = 0, window = 0, chunked = 0, state = 0, ffn_only = 0;
        [[nodiscard]] constexpr int attention() const { return full + window + chunked; }
        [[nodiscard]] constexpr int mixers() const { return attention() + state; }
        [[nodiscard]] constexpr bool operator==(const layer_counts&) const = default;
    };
    [[nodiscard]] constexpr layer_counts count_layers() const {
        layer_counts c;
        if (pattern.kinds.empty()) {
            c.window = attention.sliding_window > 0 ? attention.sliding_window_layers : 0;
            c.full = layers - c.window;
            return c;
        }
        const int period = static_cast<int>(pattern.kinds.size());
        for (int i = 0; i < period; ++i) {
            const int n = layers / period + (i < layers % period ? 1 : 0);
            switch (static_cast<layer_kind>(pattern.kinds[static_cast<std::size_t>(i)])) {
                case layer_kind::full: c.full += n; break;
                case layer_kind::window: c.window += n; break;
                case layer_kind::chunked: c.chunked += n; break;
                case layer_kind::state: c.state += n; break;
                case layer_kind::ffn_only: c.ffn_only += n; break;
            }
        }
        return c;
    }
    /// The kind of layer `i` (0-based): the pattern's letter i mod period.
    [[nodiscard]] constexpr layer_kind kind_of_layer(int i) const {
        if (pattern.kinds.empty())
            return i < layers - count_layers().window ? layer_kind::full : layer_kind::window;
        return static_cast<layer_kind>(pattern.kinds[static_cast<std::size_t>(i) % pattern.kinds.size()]);
    }
    /// Layers that hold attention (full, window, chunked): the KV cache's layers.
    [[nodiscard]] constexpr int attention_layers() const { return count_layers().attention(); }
    /// Layers with an FFN: every layer, or only the FFN blocks of a split-block model.
    [[nodiscard]] constexpr int ffn_layers() const { return pattern.split_blocks ? count_layers().ffn_only : layers; }
    /// Blocks one token passes, as standard layers (mixer + FFN): (mixers + FFNs) ÷ 2; = layers unless split.
    [[nodiscard]] constexpr double layer_equivalents() const {
        if (!pattern.split_blocks) return layers;
        return (count_layers().mixers() + ffn_layers()) / 2.0;
    }
    [[nodiscard]] constexpr int moe_layers() const {
        return is_moe() ? (ffn_layers() - ffn.first_dense_layers) / ffn.moe_layer_step : 0;
    }
    [[nodiscard]] constexpr int dense_layers() const { return ffn_layers() - moe_layers(); }
    /// The hidden states between GEMMs — residual stream, norms, GEMM outputs, the TP all-reduce
    /// payload — stay in 16 bits when only the GEMM inputs are quantised (the FP8 and FP4 recipes
    /// of TensorRT-LLM, vLLM and DeepSeek-V3 quantise activations on the way into a GEMM only).
    [[nodiscard]] constexpr number_format residual_format() const {
        return activations.bits_per_element() < 16.0 ? formats::bf16 : activations;
    }
    [[nodiscard]] constexpr number_format expert_format() const {
        return expert_weights ? *expert_weights : weights;
    }

    constexpr void validate() const;
    [[nodiscard]] constexpr bool operator==(const model&) const = default;
};

// ---- parameter counts --------------------------------------------------------------------------

/// One layer's attention output projection: H·d_v·h (latent, DeepSeek-V2 eq. 11 W_O) or H·d·h (+ bias).
[[nodiscard]] constexpr count_t attention_output_parameters_per_layer(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind == attention_kind::latent) return count_t{a.query_heads} * a.latent.v_head_dim * m.hidden;
    return count_t{a.query_heads} * a.head_dim * m.hidden + (a.output_bias ? m.hidden : 0);
}

/// One layer's latent-attention KV up-projection kv_b: r · H · (d_nope + d_v) (DeepSeek-V2 eq. 10 W_UK, W_UV); 0 standard.
[[nodiscard]] constexpr count_t attention_kv_up_parameters_per_layer(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind != attention_kind::latent) return 0;
    return count_t{a.latent.kv_lora_rank} * a.query_heads * (a.latent.nope_head_dim + a.latent.v_head_dim);
}

/// One layer's latent-attention down-projections W_qa and W_kva (DeepSeek-V2 eq. 9–10): h · (r_q + r_kv + d_rope),
/// W_qa only where q_lora_rank > 0; 0 standard. Every engine replicates them on each TP rank (`replicated_down_projection_bytes`).
[[nodiscard]] constexpr count_t attention_down_parameters_per_layer(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind != attention_kind::latent) return 0;
    const latent_attention& l = a.latent;
    return count_t{m.hidden} * (count_t{l.q_lora_rank} + l.kv_lora_rank + l.rope_head_dim);
}

/// Parameters of one layer's attention block, the layer's RMSNorms excluded (latent: q_a's and kv_a's norms in), from
/// the projection helpers above.
/// Standard: Q and O are hidden × (H·d); K and V are hidden × (H_kv·d) (+ biases, sinks, QK-norm).
/// Latent (DeepSeek-V2 eq. 9–11): down (W_qa, W_kva) + q-up (W_qb, or W_q without q_lora) + the q_a and kv_a
/// norms (r_q + r_kv) + kv-up (W_kvb) + W_o.
[[nodiscard]] constexpr count_t attention_parameters_per_layer(const model& m) {
    const attention_spec& a = m.attention;
    const count_t h = m.hidden;
    const count_t nh = a.query_heads;
    const count_t out = attention_output_parameters_per_layer(m);
    if (a.kind == attention_kind::latent) {
        const latent_attention& l = a.latent;
        const count_t qk_dim = l.nope_head_dim + l.rope_head_dim;
        const count_t q_up = l.q_lora_rank > 0 ? count_t{l.q_lora_rank} * nh * qk_dim : h * nh * qk_dim;
        const count_t norms = count_t{l.q_lora_rank} + l.kv_lora_rank;  // q_a_layernorm (where q_lora), kv_a_layernorm
        return attention_down_parameters_per_layer(m) + q_up + norms + attention_kv_up_parameters_per_layer(m) + out;
    }
    const count_t q_width = nh * a.head_dim;
    const count_t kv_width = count_t{a.kv_heads} * a.head_dim;
    count_t p = h * q_width + 2 * h * kv_width + out;
    if (a.output_gate) p += h * q_width;
    if (a.qkv_bias) p += q_width + 2 * kv_width;
    if (a.qk_norm) p += 2 * count_t{a.head_dim};
    if (a.sinks) p += nh;
    return p;
}

/// One FFN of width w: gated 3·hidden·w, plain 2·hidden·w (+ biases when the model has them).
[[nodiscard]] constexpr count_t ffn_parameters(const model& m, int width, bool with_bias) {
    const count_t mats = m.ffn.gated ? 3 : 2;
    count_t p = mats * count_t{m.hidden} * width;
    if (with_bias) p += (m.ffn.gated ? 2 * count_t{width} : count_t{width}) + m.hidden;
    return p;
}

/// One routed expert.
[[nodiscard]] constexpr count_t expert_parameters(const model& m) {
    return ffn_parameters(m, m.ffn.expert_intermediate, m.ffn.expert_bias);
}

/// One shared expert: its own width when the config gives one, else a routed expert's.
[[nodiscard]] constexpr count_t shared_expert_parameters(const model& m) {
    return m.ffn.shared_expert_intermediate > 0 ? ffn_parameters(m, m.ffn.shared_expert_intermediate, m.ffn.expert_bias)
                                                : expert_parameters(m);
}

/// Parameters of one linear-attention / state-space layer (V = heads·head_dim, K = groups·state_dim):
/// in-projection h·(2V + 2K + g·heads) (Mamba2: x, z, B, C, dt, g = 1; Gated DeltaNet: q, k, v, z,
/// β, α, g = 2), the convolution (V + 2K)·kernel (+ bias), per-head A, dt bias (and D for Mamba2),
/// the gated norm (Mamba2 over V, DeltaNet over head_dim) and the out-projection V·h.
/// Sources: Mamba2Mixer and Qwen3NextGatedDeltaNet in Hugging Face transformers.
[[nodiscard]] constexpr count_t state_space_parameters_per_layer(const model& m) {
    const state_space_spec& s = m.pattern.state;
    const count_t h = m.hidden, heads = s.heads;
    const count_t v = heads * s.head_dim, k = count_t{s.groups} * s.state_dim;
    const bool mamba = s.kind == state_space_kind::mamba2;
    const count_t in_proj = h * (2 * v + 2 * k + (mamba ? 1 : 2) * heads);
    const count_t conv = (v + 2 * k) * s.conv_kernel + (s.conv_bias ? v + 2 * k : 0);
    const count_t per_head = (mamba ? 3 : 2) * heads;
    const count_t norm = mamba ? v : s.head_dim;
    return in_proj + conv + per_head + norm + v * h;
}

/// Where the parameters are. Totals over all layers.
struct parameter_breakdown {
    count_t embedding = 0;       ///< input embedding table, vocab × hidden
    count_t lm_head = 0;         ///< output projection (0 when tied to the embedding)
    count_t attention = 0;       ///< all layers
    count_t dense_ffn = 0;       ///< dense-FFN layers
    count_t routed_experts = 0;  ///< every routed expert of every MoE layer
    count_t shared_experts = 0;
    count_t routers = 0;
    count_t norms = 0;           ///< RMSNorm weights: norms_per_layer per layer + final
    count_t state_space = 0;     ///< linear-attention / state-space layers (hybrid models)

    [[nodiscard]] constexpr count_t total() const {
        return embedding + lm_head + attention + dense_ffn + routed_experts + shared_experts +
               routers + norms + state_space;
    }
    [[nodiscard]] constexpr bool operator==(const parameter_breakdown&) const = default;
};

[[nodiscard]] constexpr parameter_breakdown parameters(const model& m) {
    parameter_breakdown b;
    b.embedding = count_t{m.vocab} * m.hidden;
    b.lm_head = m.tied_embeddings ? 0 : b.embedding;
    const model::layer_counts c = m.count_layers();
    b.attention = attention_parameters_per_layer(m) * c.attention();
    b.dense_ffn = ffn_parameters(m, m.ffn.intermediate, false) * m.dense_layers();
    if (m.is_moe()) {
        const count_t moe = m.moe_layers();
        b.routed_experts = expert_parameters(m) * m.ffn.routed_experts * moe;
        b.shared_experts = shared_expert_parameters(m) * m.ffn.shared_experts * moe;
        b.routers = (count_t{m.hidden} * m.ffn.routed_experts +
                     (m.ffn.router_bias ? m.ffn.routed_experts : 0) +
                     (m.ffn.shared_expert_gate ? count_t{m.hidden} : 0)) * moe;
    }
    b.norms = count_t{m.norms_per_layer} * m.hidden * m.layers + m.hidden;
    if (c.state > 0) b.state_space = state_space_parameters_per_layer(m) * c.state;
    return b;
}

/// N = Σ parameters — what must be resident (seed S20: every expert stays in HBM).
[[nodiscard]] constexpr count_t total_parameters(const model& m) { return parameters(m).total(); }

/// N_active = N − (E − k) experts per MoE layer — parameters one token touches, embeddings included.
[[nodiscard]] constexpr count_t active_parameters(const model& m) {
    const parameter_breakdown b = parameters(m);
    if (!m.is_moe()) return b.total();
    const count_t unused = expert_parameters(m) * (m.ffn.routed_experts - m.ffn.top_k) * m.moe_layers();
    return b.total() - unused;
}

/// N_mm = N_active − vocab·hidden — parameters in matmuls per token: the input embedding is a
/// row lookup, not a matmul. 2·N_mm is the FLOPs of one token outside attention (seed S11).
[[nodiscard]] constexpr count_t matmul_parameters(const model& m) {
    // The input embedding is a row lookup, not a matmul; a tied table is still read whole by the
    // LM head, so then it stays in.
    return active_parameters(m) - (m.tied_embeddings ? 0 : parameters(m).embedding);
}

/// Parameters a checkpoint keeps in its excluded format (`model::excluded`), by where they sit:
/// attention = L_attn · (P_in + P_kv_b + P_o, those excluded), P_in = P_attn − P_kv_b − P_o per layer.
struct excluded_parameters_split {
    count_t attention = 0;  ///< the excluded attention projections, all layers (matmuls every token)
    count_t lm_head = 0;    ///< the LM head when excluded (0 where tied: then it is the embedding)
    count_t embedding = 0;  ///< the embedding table when excluded (or the tied table with the LM head)
    [[nodiscard]] constexpr count_t total() const { return attention + lm_head + embedding; }
    /// Of those, the ones a step streams: not the untied embedding (a lookup reads a few rows).
    [[nodiscard]] constexpr count_t read(bool tied) const { return attention + lm_head + (tied ? embedding : 0); }
};
[[nodiscard]] constexpr excluded_parameters_split excluded_parameters(const model& m) {
    excluded_parameters_split x;
    const excluded_modules& e = m.excluded;
    if (!e.any()) return x;
    const count_t out = attention_output_parameters_per_layer(m), up = attention_kv_up_parameters_per_layer(m);
    const count_t in = attention_parameters_per_layer(m) - out - up;
    const count_t layers = m.count_layers().attention();
    x.attention = ((e.attention_inputs ? in : 0) + (e.attention_kv_up ? up : 0) + (e.attention_output ? out : 0)) * layers;
    const count_t table = count_t{m.vocab} * m.hidden;
    x.lm_head = e.lm_head && !m.tied_embeddings ? table : 0;
    x.embedding = e.embedding || (e.lm_head && m.tied_embeddings) ? table : 0;
    return x;
}

// ---- bytes -------------------------------------------------------------------------------------

/// Bytes of `p` non-expert parameters of which `kept` sit in the checkpoint's excluded format (`model::excluded`):
/// (p − kept) · b_w ÷ 8 + kept · b_excl ÷ 8 (`number_format::bytes_for`). The one mixed-format sum: the resident
/// weights (`weight_bytes`, `dense_weight_bytes_per_gpu`) and the bytes a step reads (`prepare_pass`) call it.
/// Counts, as `parameters` gives them; 0 ≤ kept ≤ p (the kept parameters are some of the p).
[[nodiscard]] constexpr bytes_t mixed_format_bytes(const model& m, count_t p, count_t kept) {
    require(kept >= 0 && kept <= p, m.name, "mixed_format_bytes kept", static_cast<double>(kept),
            "the parameters kept in the excluded format are some of the p counted (0 <= kept <= p)");
    return m.weights.bytes_for(static_cast<double>(p - kept)) + m.excluded.format.bytes_for(static_cast<double>(kept));
}

/// Resident non-expert weight bytes: `mixed_format_bytes(m, N − N_routed, X)`, X every excluded parameter.
[[nodiscard]] constexpr bytes_t non_expert_weight_bytes(const model& m) {
    const parameter_breakdown b = parameters(m);
    return mixed_format_bytes(m, b.total() - b.routed_experts, excluded_parameters(m).total());
}

/// Resident weight bytes: routed experts in their format, the excluded modules in theirs, the rest in `weights`.
[[nodiscard]] constexpr bytes_t weight_bytes(const model& m) {
    const double experts = static_cast<double>(parameters(m).routed_experts);
    return non_expert_weight_bytes(m) + m.expert_format().bytes_for(experts);
}

/// KV elements cached per token per layer: 2·H_kv·d (K and V) for standard attention;
/// kv_lora_rank + rope_head_dim (one latent and one RoPE key, shared by all heads) for MLA.
[[nodiscard]] constexpr count_t kv_elements_per_token_per_layer(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind == attention_kind::latent) return count_t{a.latent.kv_lora_rank} + a.latent.rope_head_dim;
    return 2 * count_t{a.kv_heads} * a.head_dim;
}

/// KV bytes per token per layer at the model's KV precision.
[[nodiscard]] constexpr bytes_per_token_t kv_bytes_per_token_per_layer(const model& m) {
    return m.kv_cache.bytes_for(static_cast<double>(kv_elements_per_token_per_layer(m))) / tokens(1.0);
}

/// KV bytes per token of context, all attention layers: attention layers × per-layer (seed S16:
/// 327,680 B for a 70B GQA model at BF16; S23: 70,272 B for DeepSeek-V3's MLA). Window and chunked
/// layers stop growing at their window or chunk, and state-space layers keep a fixed state instead;
/// `kv_bytes_for_context` accounts for both.
[[nodiscard]] constexpr bytes_per_token_t kv_bytes_per_token(const model& m) {
    return kv_bytes_per_token_per_layer(m) * static_cast<double>(m.attention_layers());
}

/// State elements one sequence holds in one state-space layer: the recurrent state
/// heads · head_dim · state_dim plus the convolution's last (kernel − 1) inputs over V + 2K channels
/// (the shapes vLLM allocates for Mamba2 and Gated DeltaNet).
[[nodiscard]] constexpr count_t state_elements_per_sequence_per_layer(const model& m) {
    const state_space_spec& s = m.pattern.state;
    const count_t v = count_t{s.heads} * s.head_dim, k = count_t{s.groups} * s.state_dim;
    return v * s.state_dim + (count_t{s.conv_kernel} - 1) * (v + 2 * k);
}

/// Fixed state bytes of one sequence over all state-space layers, at the KV precision.
[[nodiscard]] constexpr bytes_t state_bytes_per_sequence(const model& m) {
    const int n = m.count_layers().state;
    if (n == 0) return bytes(0.0);
    return m.kv_cache.bytes_for(static_cast<double>(state_elements_per_sequence_per_layer(m))) * static_cast<double>(n);
}

/// KV bytes of one sequence holding `context` tokens: full-attention layers keep every token,
/// windowed layers at most `sliding_window`, chunked layers at most one chunk (what an engine must
/// provision: a chunk fills before it is dropped), state-space layers a fixed state
/// (seed S16: 40 GiB at 131,072 tokens for a 70B GQA model).
/// The same with the model's layer counts given (`model::count_layers`): a caller pricing many
/// contexts of one model (a pass model, a sweep) counts them once.
/// `per_layer` is `kv_bytes_per_token_per_layer(m)`, worked out once by a caller that prices many
/// contexts (a pass model).
template <token_count T>
[[nodiscard]] constexpr bytes_t kv_bytes_for_context(const model& m, const model::layer_counts& c,
                                                     const bytes_per_token_t& per_layer, const T& context) {
    const double n = in_base_units(context).value();
    const double w = c.window > 0 && n > m.attention.sliding_window ? m.attention.sliding_window : n;
    const double ch = c.chunked > 0 && n > m.pattern.chunk ? m.pattern.chunk : n;
    const bytes_t kv = per_layer * tokens(n * c.full + w * c.window + ch * c.chunked);
    return c.state > 0 && n > 0 ? kv + state_bytes_per_sequence(m) : kv;
}
template <token_count T>
[[nodiscard]] constexpr bytes_t kv_bytes_for_context(const model& m, const model::layer_counts& c, const T& context) {
    return kv_bytes_for_context(m, c, kv_bytes_per_token_per_layer(m), context);
}
template <token_count T>
[[nodiscard]] constexpr bytes_t kv_bytes_for_context(const model& m, const T& context) {
    return kv_bytes_for_context(m, m.count_layers(), context);
}

// ---- validation --------------------------------------------------------------------------------

constexpr void model::validate() const {
    const std::string_view s = name;
    require(layers >= 1, s, "layers", layers, "a model has at least one layer");
    require(hidden >= 1, s, "hidden", hidden, "hidden size must be at least 1");
    require(vocab >= 1, s, "vocab", vocab, "vocabulary size must be at least 1");
    require(max_position >= 1, s, "max_position", max_position, "must be at least 1 token");
    const attention_spec& a = attention;
    require(a.query_heads >= 1, s, "attention.query_heads", a.query_heads, "must be at least 1");
    if (a.kind == attention_kind::standard) {
        require(a.kv_heads >= 1, s, "attention.kv_heads", a.kv_heads, "must be at least 1");
        require(a.kv_heads <= a.query_heads, s, "attention.kv_heads", a.kv_heads,
                "must not exceed query_heads");
        require(a.query_heads % a.kv_heads == 0, s, "attention.kv_heads", a.kv_heads,
                "must divide query_heads (each KV head serves a whole group of query heads)");
        require(a.head_dim >= 1, s, "attention.head_dim", a.head_dim, "must be at least 1");
    } else {
        require(a.latent.kv_lora_rank >= 1, s, "attention.latent.kv_lora_rank", a.latent.kv_lora_rank,
                "latent attention needs a KV latent of at least 1");
        require(a.latent.q_lora_rank >= 0, s, "attention.latent.q_lora_rank", a.latent.q_lora_rank,
                "must not be negative (0 = uncompressed queries)");
        require(a.latent.rope_head_dim >= 0, s, "attention.latent.rope_head_dim",
                a.latent.rope_head_dim, "must not be negative");
        require(a.latent.nope_head_dim >= 1, s, "attention.latent.nope_head_dim",
                a.latent.nope_head_dim, "must be at least 1");
        require(a.latent.v_head_dim >= 1, s, "attention.latent.v_head_dim", a.latent.v_head_dim,
                "must be at least 1");
    }
    require(a.sliding_window >= 0, s, "attention.sliding_window", a.sliding_window,
            "must not be negative (0 = no window)");
    require(a.sliding_window_layers >= 0 && a.sliding_window_layers <= layers, s,
            "attention.sliding_window_layers", a.sliding_window_layers, "must be between 0 and layers");
    require(!excluded.attention_kv_up || a.kind == attention_kind::latent, s, "excluded.attention_kv_up", 1,
            "only latent attention has a KV up-projection (kv_b) to keep out of the weights' format");
    require(a.sliding_window_layers == 0 || a.sliding_window > 0, s, "attention.sliding_window",
            a.sliding_window, "windowed layers need a window of at least 1 token");
    require(norms_per_layer >= 0, s, "norms_per_layer", norms_per_layer, "must not be negative");
    const layer_pattern& p = pattern;
    if (!p.kinds.empty()) {
        require(static_cast<double>(p.kinds.size()) <= layers, s, "pattern.kinds (length)",
                static_cast<double>(p.kinds.size()), "a pattern's period cannot be longer than the model's layers");
        require(a.sliding_window_layers == 0, s, "attention.sliding_window_layers", a.sliding_window_layers,
                "must be 0 when a layer pattern says which layers are windowed");
        for (const char k : p.kinds) {
            const bool known = k == 'F' || k == 'W' || k == 'C' || k == 'S' || (k == '-' && p.split_blocks);
            require_word(known, s, "pattern.kinds", std::string_view(&k, 1),
                    "letters are F (full), W (window), C (chunked), S (state space), and - (FFN only, split blocks only)");
        }
    }
    const layer_counts lc = count_layers();
    require(lc.attention() >= 1, s, "pattern.kinds", lc.attention(),
            "needs at least one attention layer (full, window or chunked)");
    require(lc.window == 0 || a.sliding_window > 0, s, "attention.sliding_window", a.sliding_window,
            "windowed layers need a window of at least 1 token");
    require(p.chunk >= 0, s, "pattern.chunk", p.chunk, "must not be negative (0 = no chunked layers)");
    require(lc.chunked == 0 || p.chunk > 0, s, "pattern.chunk", p.chunk,
            "chunked layers need a chunk of at least 1 token");
    if (lc.state > 0) {
        const state_space_spec& st = p.state;
        require(st.heads >= 1, s, "pattern.state.heads", st.heads, "state-space layers need at least 1 head");
        require(st.head_dim >= 1, s, "pattern.state.head_dim", st.head_dim, "must be at least 1");
        require(st.state_dim >= 1, s, "pattern.state.state_dim", st.state_dim, "must be at least 1");
        require(st.groups >= 1, s, "pattern.state.groups", st.groups, "must be at least 1");
        require(st.conv_kernel >= 1, s, "pattern.state.conv_kernel", st.conv_kernel, "must be at least 1");
        require(static_cast<double>(st.heads) * st.head_dim * st.state_dim <= 1e12, s, "pattern.state (size)",
                static_cast<double>(st.heads) * st.head_dim * st.state_dim, "a state beyond 10^12 elements per layer");
    }
    const ffn_spec& f = ffn;
    require(f.moe_layer_step >= 1, s, "ffn.moe_layer_step", f.moe_layer_step, "must be at least 1");
    require(f.shared_expert_intermediate >= 0, s, "ffn.shared_expert_intermediate", f.shared_expert_intermediate,
            "must not be negative (0 = the routed experts' width)");
    require(f.routed_experts >= 0, s, "ffn.routed_experts", f.routed_experts, "must not be negative");
    require(non_negative_finite(f.routing_skew) && f.routing_skew <= 10.0 && (f.routed_experts > 0 || f.routing_skew == 0.0),
            s, "ffn.routing_skew", f.routing_skew,
            "a coefficient of variation of tokens per expert must be in [0, 10], and 0 for a dense model");
    if (f.routed_experts > 0) {
        require(f.top_k >= 1, s, "ffn.top_k", f.top_k, "an MoE model routes each token to at least 1 expert");
        require(f.top_k <= f.routed_experts, s, "ffn.top_k", f.top_k,
                "must not exceed routed_experts (a token cannot pick more experts than exist)");
        require(f.expert_intermediate >= 1, s, "ffn.expert_intermediate", f.expert_intermediate,
                "must be at least 1");
        require(f.shared_experts >= 0, s, "ffn.shared_experts", f.shared_experts, "must not be negative");
        require(f.first_dense_layers >= 0 && f.first_dense_layers < ffn_layers(), s, "ffn.first_dense_layers",
                f.first_dense_layers, "must be between 0 and layers - 1");
    } else {
        require(f.top_k == 0 && f.shared_experts == 0, s, "ffn.top_k", f.top_k,
                "a dense model (routed_experts = 0) has no top_k or shared experts");
    }
    if (dense_layers() > 0)
        require(f.intermediate >= 1, s, "ffn.intermediate", f.intermediate,
                "dense FFN layers need an intermediate size of at least 1");
    require(mtp_modules >= 0, s, "mtp_modules", mtp_modules, "must not be negative");
    require(weights.bits_per_element() > 0, s, "weights", weights.bits_per_element(),
            "a number format needs a positive number of bits");
    require(kv_cache.bits_per_element() > 0, s, "kv_cache", kv_cache.bits_per_element(),
            "a number format needs a positive number of bits");
    // Parameters are counted exactly in 64-bit integers; bound the sizes (in doubles, before any
    // integer product) so that no count can overflow: 10^17 parameters is 10,000× today's largest.
    const double h = hidden, L = layers;
    const double width = a.kind == attention_kind::latent
        ? static_cast<double>(a.query_heads) * (a.latent.nope_head_dim + a.latent.rope_head_dim + a.latent.v_head_dim) +
              static_cast<double>(a.latent.kv_lora_rank) * (a.query_heads + 2.0) + a.latent.q_lora_rank * 2.0
        : (static_cast<double>(a.query_heads) + a.kv_heads) * a.head_dim * 2.0;
    const double ffn_width = static_cast<double>(f.intermediate) +
                             (static_cast<double>(f.routed_experts) + f.shared_experts) * f.expert_intermediate +
                             static_cast<double>(f.shared_experts) * f.shared_expert_intermediate +
                             (static_cast<double>(p.state.heads) * p.state.head_dim +
                              static_cast<double>(p.state.groups) * p.state.state_dim) * 2.0;
    const double estimate = L * h * (width + 3.0 * ffn_width) + 2.0 * static_cast<double>(vocab) * h;
    require(estimate <= 1e17, s, "parameters (estimated)", estimate,
            "more than 10^17 parameters: beyond what llmcost counts exactly (check hidden, heads and widths)");
}

/// A context (prompt and output) within the positions the model was trained for: refused past
/// `max_position` (rule llmcost.model.context_within_max_position), with `hint` after the rule
/// (e.g. how the caller can ask to price it anyway: RoPE scaling, a long-context fine-tune).
inline void require_within_max_position(const model& m, double context, std::string_view hint = {}) {
    if (context <= m.max_position) return;
    std::string rule = "exceeds the model's max_position (" + std::to_string(m.max_position) + ")";
    rule += hint;
    require(false, m.name, "context (tokens)", context, rule, "llmcost.model.context_within_max_position");
}

}  // namespace llmcost
