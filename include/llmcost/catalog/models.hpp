#pragma once
/// \file
/// Catalog of public models. Every figure comes from the model's `config.json`
/// (sources per row in `tables/models.csv`, which a test keeps in step with this file).
/// Every entry is validated at compile time, once, in tests/static/catalog_static.cpp (a broken
/// rule fails the build there; not in every translation unit that includes the catalog).
///
/// Counted differences against published totals (all within 2%):
/// - DeepSeek-V3: the 1 MTP module (~14B) is shipped (685B on the hub) but not counted; the
///   published 671B excludes it too.
/// - gpt-oss-120b and -20b: OpenAI's "5.1B / 3.6B active" exclude the input embedding (a row
///   lookup); compare them with `matmul_parameters`, not `active_parameters`.
/// - Llama-4-Scout: the text model only (107.8B); Meta's 109B includes the vision encoder.
/// - Llama-4-Maverick: the text model only (400.7B of the published 400B; 17.18B active of 17B).
/// - gemma-3-27b: the text model only (27.0B); the 417M vision encoder is not counted.
/// - Qwen3-Next-80B-A3B: 79.7B of the published 80B; "A3B" (3B activated) is a rounded figure:
///   counted 3.87B, 3.25B without the embedding and the LM head.

#include <llmcost/descriptors/model.hpp>

#include <array>

namespace llmcost::catalog {

// clang-format off
inline constexpr model llama_2_70b = model{
    .name = "Llama-2-70B", .layers = 80, .hidden = 8192, .vocab = 32000,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 28672},
    .max_position = 4096};

inline constexpr model llama_3_1_8b = model{
    .name = "Llama-3.1-8B", .layers = 32, .hidden = 4096, .vocab = 128256,
    .attention = {.query_heads = 32, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 14336},
    .max_position = 131072};

inline constexpr model llama_3_1_70b = model{
    .name = "Llama-3.1-70B", .layers = 80, .hidden = 8192, .vocab = 128256,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 28672},
    .max_position = 131072};

inline constexpr model llama_3_1_405b = model{
    .name = "Llama-3.1-405B", .layers = 126, .hidden = 16384, .vocab = 128256,
    .attention = {.query_heads = 128, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 53248},
    .max_position = 131072};

inline constexpr model mixtral_8x7b = model{
    .name = "Mixtral-8x7B", .layers = 32, .hidden = 4096, .vocab = 32000,
    .attention = {.query_heads = 32, .kv_heads = 8, .head_dim = 128},
    .ffn = {.routed_experts = 8, .top_k = 2, .expert_intermediate = 14336},
    .max_position = 32768};

inline constexpr model mixtral_8x22b = model{
    .name = "Mixtral-8x22B", .layers = 56, .hidden = 6144, .vocab = 32000,
    .attention = {.query_heads = 48, .kv_heads = 8, .head_dim = 128},
    .ffn = {.routed_experts = 8, .top_k = 2, .expert_intermediate = 16384},
    .max_position = 65536};

/// DeepSeek-V3: MLA, 256 routed + 1 shared expert (top-8), first 3 layers dense; FP8 weights and
/// FP8 GEMM inputs (config.json: quant_method fp8, activation_scheme dynamic). Routing skew 1.28:
/// tokens per routed expert without EPLB, standard deviation 164.1 ÷ mean 128 (DeepSeek-R1, the
/// same router; TensorRT-LLM's blog4 "Scaling Expert Parallelism", Table 1; tables/models.csv).
inline constexpr model deepseek_v3 = model{
    .name = "DeepSeek-V3", .layers = 61, .hidden = 7168, .vocab = 129280,
    .attention = {.kind = attention_kind::latent, .query_heads = 128, .kv_heads = 128,
                  .latent = {.kv_lora_rank = 512, .q_lora_rank = 1536, .rope_head_dim = 64,
                             .nope_head_dim = 128, .v_head_dim = 128}},
    .ffn = {.intermediate = 18432, .routed_experts = 256, .shared_experts = 1, .top_k = 8,
            .expert_intermediate = 2048, .first_dense_layers = 3, .router_bias = true, .routing_skew = 1.28},
    .max_position = 163840,
    .weights = formats::fp8,
    .activations = formats::fp8,
    .mtp_modules = 1};

/// Qwen3-235B-A22B: every layer MoE (128 experts, top-8), QK-norm.
inline constexpr model qwen3_235b_a22b = model{
    .name = "Qwen3-235B-A22B", .layers = 94, .hidden = 4096, .vocab = 151936,
    .attention = {.query_heads = 64, .kv_heads = 4, .head_dim = 128, .qk_norm = true},
    .ffn = {.intermediate = 12288, .routed_experts = 128, .top_k = 8, .expert_intermediate = 1536},
    .max_position = 40960};

/// gpt-oss-120b: alternating 128-token sliding-window and full attention, attention sinks,
/// 128 experts (top-4) with biases, experts shipped in MXFP4.
inline constexpr model gpt_oss_120b = model{
    .name = "gpt-oss-120b", .layers = 36, .hidden = 2880, .vocab = 201088,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 64, .sliding_window = 128,
                  .sliding_window_layers = 18, .qkv_bias = true, .output_bias = true, .sinks = true},
    .ffn = {.routed_experts = 128, .top_k = 4, .expert_intermediate = 2880, .expert_bias = true,
            .router_bias = true},
    .max_position = 131072,
    .expert_weights = formats::mxfp4};

/// gpt-oss-20b: gpt-oss-120b's layer, 24 layers and 32 experts (top-4), alternating 128-token
/// sliding-window and full attention, MXFP4 experts.
inline constexpr model gpt_oss_20b = model{
    .name = "gpt-oss-20b", .layers = 24, .hidden = 2880, .vocab = 201088,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 64, .sliding_window = 128,
                  .sliding_window_layers = 12, .qkv_bias = true, .output_bias = true, .sinks = true},
    .ffn = {.routed_experts = 32, .top_k = 4, .expert_intermediate = 2880, .expert_bias = true,
            .router_bias = true},
    .max_position = 131072,
    .expert_weights = formats::mxfp4};

/// Llama-4-Scout (text model): 16 experts (top-1) plus one shared expert in every layer; three of
/// every four layers chunked attention over 8,192-token chunks (RoPE), the fourth full (NoPE).
inline constexpr model llama_4_scout = model{
    .name = "Llama-4-Scout", .layers = 48, .hidden = 5120, .vocab = 202048,
    .attention = {.query_heads = 40, .kv_heads = 8, .head_dim = 128},
    .ffn = {.routed_experts = 16, .shared_experts = 1, .top_k = 1, .expert_intermediate = 8192},
    .max_position = 262144,
    .pattern = {.kinds = "CCCF", .chunk = 8192}};

/// Llama-4-Maverick (text model): 128 experts (top-1) plus one shared expert in every other layer
/// (1, 3, ..., 47), dense SwiGLU layers of 16,384 between; attention as Scout's (chunked RoPE
/// layers, every fourth full).
inline constexpr model llama_4_maverick = model{
    .name = "Llama-4-Maverick", .layers = 48, .hidden = 5120, .vocab = 202048,
    .attention = {.query_heads = 40, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 16384, .routed_experts = 128, .shared_experts = 1, .top_k = 1,
            .expert_intermediate = 8192, .moe_layer_step = 2},
    .max_position = 1048576,
    .pattern = {.kinds = "CCCF", .chunk = 8192}};

/// Gemma 3 27B (text model): five 1,024-token sliding-window layers to one full, GeGLU FFN, four
/// norms per layer, QK-norm, tied embeddings.
inline constexpr model gemma_3_27b = model{
    .name = "gemma-3-27b", .layers = 62, .hidden = 5376, .vocab = 262208, .tied_embeddings = true,
    .attention = {.query_heads = 32, .kv_heads = 16, .head_dim = 128, .sliding_window = 1024, .qk_norm = true},
    .ffn = {.intermediate = 21504},
    .max_position = 131072,
    .pattern = {.kinds = "WWWWWF"},
    .norms_per_layer = 4};

/// Qwen3-Next-80B-A3B: three Gated DeltaNet layers to one gated full-attention layer; every layer
/// MoE, 512 experts (top-10) and one gated shared expert.
inline constexpr model qwen3_next_80b_a3b = model{
    .name = "Qwen3-Next-80B-A3B", .layers = 48, .hidden = 2048, .vocab = 151936,
    .attention = {.query_heads = 16, .kv_heads = 2, .head_dim = 256, .qk_norm = true, .output_gate = true},
    .ffn = {.intermediate = 5120, .routed_experts = 512, .shared_experts = 1, .top_k = 10,
            .expert_intermediate = 512, .shared_expert_intermediate = 512, .shared_expert_gate = true},
    .max_position = 262144,
    .pattern = {.kinds = "SSSF",
                .state = {.kind = state_space_kind::gated_delta_net, .heads = 32, .head_dim = 128,
                          .state_dim = 128, .groups = 16, .conv_kernel = 4}}};

/// Nemotron-H-8B: 52 blocks, each one Mamba2 mixer (24), attention (4) or squared-ReLU MLP (24).
inline constexpr model nemotron_h_8b = model{
    .name = "Nemotron-H-8B", .layers = 52, .hidden = 4096, .vocab = 131072,
    .attention = {.query_heads = 32, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 21504, .gated = false},
    .max_position = 8192,
    .pattern = {.kinds = "S-S-S-SF-S-S-S-S-SF-S-S-S-S-SF-S-S-S-S-SF-S-S-S-S-S-", .split_blocks = true,
                .state = {.kind = state_space_kind::mamba2, .heads = 128, .head_dim = 64, .state_dim = 128,
                          .groups = 8, .conv_kernel = 4, .conv_bias = true}},
    .norms_per_layer = 1};

/// Phi-3-mini-4k: a dense MHA model whose every layer attends over a 2,047-token window.
inline constexpr model phi_3_mini = model{
    .name = "Phi-3-mini-4k", .layers = 32, .hidden = 3072, .vocab = 32064,
    .attention = {.query_heads = 32, .kv_heads = 32, .head_dim = 96, .sliding_window = 2047,
                  .sliding_window_layers = 32},
    .ffn = {.intermediate = 8192},
    .max_position = 4096};

/// Qwen3 dense models (8B, 14B, 32B): GQA with 8 KV heads of 128, SwiGLU, RMSNorm, QK-norm (an
/// RMSNorm of head_dim weights on every query and key head), untied embeddings, 40,960 positions.
inline constexpr model qwen3_8b = model{
    .name = "Qwen3-8B", .layers = 36, .hidden = 4096, .vocab = 151936,
    .attention = {.query_heads = 32, .kv_heads = 8, .head_dim = 128, .qk_norm = true},
    .ffn = {.intermediate = 12288},
    .max_position = 40960};

inline constexpr model qwen3_14b = model{
    .name = "Qwen3-14B", .layers = 40, .hidden = 5120, .vocab = 151936,
    .attention = {.query_heads = 40, .kv_heads = 8, .head_dim = 128, .qk_norm = true},
    .ffn = {.intermediate = 17408},
    .max_position = 40960};

inline constexpr model qwen3_32b = model{
    .name = "Qwen3-32B", .layers = 64, .hidden = 5120, .vocab = 151936,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 128, .qk_norm = true},
    .ffn = {.intermediate = 25600},
    .max_position = 40960};

/// The seed's dashboard model (S12, S27, S39): the shape of a public 70B model — 80 layers,
/// hidden 8192, GQA with 8 KV heads of 128 — but **40B parameters read per pass** at 8 bits,
/// as the receipt assumes. A dense 70B model reads 70 GB per pass, and a 70B-total MoE at batch
/// 32 would touch almost every expert (E·(1 − (1 − k/E)^32) ≈ E), so neither gives the seed's
/// 40 GB. The faithful reading is a dense model of that shape with a slimmer FFN: width 13,666
/// puts the matmul parameters at 40.00004e9 (= 40 GB at FP8). KV stays BF16 (S16: 0.3125 MiB).
inline constexpr model seed_dashboard_model = model{
    .name = "seed-dashboard-40B", .layers = 80, .hidden = 8192, .vocab = 128256,
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 13666},
    .max_position = 131072,
    .weights = formats::fp8,
    .activations = formats::fp8};  // W8A8: the matmuls run at the FP8 peak (S30's 2 PFLOP/s)
// clang-format on

inline constexpr std::array all_models{llama_2_70b,    llama_3_1_8b,    llama_3_1_70b,
                                       llama_3_1_405b, mixtral_8x7b,    mixtral_8x22b,
                                       deepseek_v3,    qwen3_235b_a22b, gpt_oss_120b,
                                       seed_dashboard_model, gpt_oss_20b, llama_4_scout,
                                       gemma_3_27b,    qwen3_next_80b_a3b, nemotron_h_8b,
                                       phi_3_mini,     llama_4_maverick, qwen3_8b,
                                       qwen3_14b,      qwen3_32b};

}  // namespace llmcost::catalog
