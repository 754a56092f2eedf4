#pragma once
/// \file
/// Serving engines as descriptors. The hardware descriptor keeps what the silicon can do (the
/// datasheet, and what the best published kernel sustains of it: `achievable_fractions`); an
/// `engine_profile` holds what one software stack (TensorRT-LLM, vLLM, SGLang) achieves on one GPU
/// architecture: its kernels' rates as multipliers of the hardware's figures, its per-step host
/// work and per-kernel launch cost, its collectives, its scheduler defaults and how it runs MoE.
///
/// A deployment is model × hardware × layout × engine (costs/parallel.hpp). The default engine is
/// `engine_profile::reference()`: every multiplier 1, no host or launch cost beyond the
/// hardware's, collectives by the link's α–β model, balanced experts. It is the idealised engine
/// the hardware table's factors were calibrated against on TensorRT-LLM rows (tables/hardware.csv),
/// so a deployment that names no engine prices exactly as before engines existed. The catalog's
/// profiles (catalog/engines.hpp, tables/engines.csv) carry a source per figure.
///
/// **Example**
/// \code
/// deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8},
///              .engine = catalog::vllm_hopper};
/// \endcode

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/units/makers.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace llmcost {

/// The serving engines the catalog describes.
enum class engine_kind {
    reference,  ///< the idealised engine of the hardware table (the default)
    trtllm,     ///< NVIDIA TensorRT-LLM
    vllm,       ///< vLLM (CUDA or ROCm)
    sglang,     ///< SGLang
};

/// GPU architectures an engine profile is written for.
enum class gpu_architecture { any, ampere, ada, hopper, blackwell, rubin, cdna3, cdna4 };

[[nodiscard]] constexpr std::string_view to_string(engine_kind e) {
    switch (e) {
        case engine_kind::reference: return "reference";
        case engine_kind::trtllm: return "trtllm";
        case engine_kind::vllm: return "vllm";
        case engine_kind::sglang: return "sglang";
    }
    return "?";
}
[[nodiscard]] constexpr std::string_view to_string(gpu_architecture a) {
    switch (a) {
        case gpu_architecture::any: return "any";
        case gpu_architecture::ampere: return "ampere";
        case gpu_architecture::ada: return "ada";
        case gpu_architecture::hopper: return "hopper";
        case gpu_architecture::blackwell: return "blackwell";
        case gpu_architecture::rubin: return "rubin";
        case gpu_architecture::cdna3: return "cdna3";
        case gpu_architecture::cdna4: return "cdna4";
    }
    return "?";
}
inline constexpr std::array all_engine_kinds{engine_kind::trtllm, engine_kind::vllm, engine_kind::sglang};
inline constexpr std::array all_architectures{gpu_architecture::any,       gpu_architecture::ampere,
                                              gpu_architecture::ada,       gpu_architecture::hopper,
                                              gpu_architecture::blackwell, gpu_architecture::rubin,
                                              gpu_architecture::cdna3,     gpu_architecture::cdna4};
/// The engine called `name` ("trtllm", "vllm", "sglang"), if there is one.
[[nodiscard]] constexpr std::optional<engine_kind> engine_named(std::string_view name) {
    for (engine_kind e : all_engine_kinds)
        if (to_string(e) == name) return e;
    if (name == "reference") return engine_kind::reference;
    return std::nullopt;
}
[[nodiscard]] constexpr std::optional<gpu_architecture> architecture_named(std::string_view name) {
    for (gpu_architecture a : all_architectures)
        if (to_string(a) == name) return a;
    return std::nullopt;
}

/// The rule every engine's memory fraction obeys (vLLM --gpu-memory-utilization, SGLang
/// --mem-fraction-static, TensorRT-LLM free_gpu_memory_fraction): 0 < f ≤ 1, a share of the GPU's memory.
inline constexpr std::string_view memory_fraction_rule = "a memory fraction must be in (0, 1]";
[[nodiscard]] constexpr bool is_memory_fraction(double f) { return f > 0.0 && f <= 1.0; }  // NaN fails both
/// The rule a run's own KV block size keeps: a whole number of tokens, 1 (unpaged, SGLang page_size 1) to 2¹⁶.
[[nodiscard]] constexpr bool is_kv_block_size(double tokens_per_block) noexcept {
    return tokens_per_block >= 1.0 && tokens_per_block <= 65536.0 && detail::const_trunc(tokens_per_block) == tokens_per_block;
}
inline constexpr std::string_view kv_block_size_rule = "a whole number of tokens per KV block, from 1 to 65,536";
inline constexpr std::string_view kv_block_size_rule_id = "llmcost.engine.kv_block_tokens";
/// The rule id of an engine's memory resident at init (`engine_scheduler::init_resident`): non-negative and finite, on
/// the share_of_total_static rule only, and below the GPU's runtime capacity (`kv_pool_per_gpu`).
inline constexpr std::string_view init_resident_rule_id = "llmcost.engine.init_resident";
/// Refuses `resident`, an engine's memory resident at init, in its table cell's unit: the field names the column
/// (tables/engines.csv init_resident_MiB), the value is in MiB and the rule ends with the bytes. Not constexpr on
/// purpose: reached only on a refusal, during constant evaluation it is the compile error.
[[noreturn]] inline void refuse_init_resident(std::string_view subject, bytes_t resident, std::string_view rule) {
    const double b = resident.value();
    const std::string in_bytes = std::isfinite(b) ? text::fixed(b, 0) : invalid_input::show(b);
    throw invalid_input(subject, "scheduler.init_resident (MiB, column init_resident_MiB)", b / detail::pow2(20),
                        std::string(rule) + " (" + in_bytes + " B)", init_resident_rule_id);
}
/// The context above which SGLang's aiter backend scales its static fraction: a model context (context_len) of more
/// than 8,192 tokens (sgl-project/sglang v0.5.5+ python/sglang/srt/server_args.py l.1419–1422 @7ae368efd,
/// `context_len > 8192`; `engine_scheduler::long_context_fraction_scale`, `static_memory_fraction`).
inline constexpr tokens_t long_context_fraction_tokens = tokens(8192.0);
/// The rule id of an engine's absorbed-MLA prompt threshold (`engine_kernels::mla_absorbed_prefix_below`): 0 (never)
/// or a whole, finite number of tokens.
inline constexpr std::string_view mla_absorbed_prefix_rule_id = "llmcost.engine.mla_absorbed_prefix";
/// The rule an overlap loop's lag L keeps (`engine_scheduler::overlap_schedule_steps`,
/// `scheduler_limits::overlap_lag_steps`: SGLang's overlap loop, docs/sglang-closed-loop-ttft.md §6): a whole number
/// of scheduler steps, 0 (no overlap) to 16. Both `validate()`s refuse through `require_overlap_lag`.
inline constexpr std::string_view overlap_lag_rule =
    "a whole number of scheduler steps from 0 (none) to 16 between a closed-loop answer's last step and "
    "the step that can carry its client's next prompt";
inline constexpr std::string_view overlap_lag_rule_id = "llmcost.engine.overlap_lag";
[[nodiscard]] constexpr bool is_overlap_lag(double steps) noexcept {
    return steps >= 0.0 && steps <= 16.0 && detail::const_trunc(steps) == steps;  // NaN fails the range
}
/// Refuses an overlap lag outside `overlap_lag_rule`, naming `subject`, `field` and the value.
constexpr void require_overlap_lag(std::string_view subject, std::string_view field, double steps) {
    require(is_overlap_lag(steps), subject, field, steps, overlap_lag_rule, overlap_lag_rule_id);
}

/// b: the rows of one m-block AITER's `moe_sorting` pads each expert's token list to (`block_size` 32, the default its
/// fused MoE sorts with; ROCm/aiter@e28297f8f9 aiter/fused_moe.py l.27–51), which sizes `sorted_expert_ids` at
/// ⌈(M·k + E·b − k) ÷ b⌉ entries, the grid of the 1-stage assembly kernel `fmoe_fp8_blockscale_g1u1`
/// (csrc/py_itfs_cu/asm_fmoe.cu l.122–124, `sub_X_cnt = sorted_expert_ids.size(0)`; `padded_moe_blocks`).
inline constexpr double aiter_moe_sorting_block = 32.0;
/// SGLang's per-rank MORI dispatch cap where the launch sets none: `SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`
/// defaults to 4096 (HaiShaw/sglang@00e3e6ea3 python/sglang/srt/layers/moe/fused_moe_triton/layer.py:120,
/// `get_int_env_var(…, 4096)`; the `amd_mori` branch the MI355X image was built from). INFERRED for other builds.
inline constexpr double sglang_mori_dispatch_cap_default = 4096.0;
/// The rule a run's per-rank all-to-all dispatch cap keeps: a whole number of tokens, 1 to 2²⁰.
[[nodiscard]] constexpr bool is_dispatch_cap(double tokens) noexcept {
    return tokens >= 1.0 && tokens <= 1048576.0 && detail::const_trunc(tokens) == tokens;
}
inline constexpr std::string_view dispatch_cap_rule =
    "a whole number of tokens a rank may dispatch in one all-to-all, from 1 to 1,048,576 (SGLang "
    "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK)";

/// Which experts a run's tokens are sent to: `model`, the model's router (its logits and correction bias); `uniform`,
/// each token's top-k drawn uniformly at random, the router ignored (SGLang `--ep-dispatch-algorithm fake` on its
/// all-to-all MoE path: `transform_select_experts_inputs` overwrites the logits with `uniform_(5, 10)` and zeroes the
/// correction bias, HaiShaw/sglang@00e3e6ea3 python/sglang/srt/eplb/expert_location_dispatch.py l.64–73, read by
/// `select_experts` in layers/moe/topk.py only where `forward_deepep` passes an `ExpertLocationDispatchInfo`).
enum class expert_routing : unsigned char {
    model,    ///< the model's router: its experts' token shares carry its skew (`ffn_spec::routing_skew`)
    uniform,  ///< uniform random expert choice: no skew, only the draw's sampling noise
};
/// The rule a word that names no `expert_routing` breaks (tables/measurements.csv's `expert_routing`).
inline constexpr std::string_view expert_routing_rule =
    "model (the model's router, the default) or uniform (each token's experts drawn uniformly at random: SGLang "
    "--ep-dispatch-algorithm fake on its all-to-all MoE path), or empty for the model's";
/// The routing a word states; nothing for any other word (the empty one included: the model's router is the
/// absence of a statement, as the loader reads it).
[[nodiscard]] constexpr std::optional<expert_routing> expert_routing_named(std::string_view word) noexcept {
    if (word == "model") return expert_routing::model;
    if (word == "uniform") return expert_routing::uniform;
    return std::nullopt;
}

/// How an engine sizes its KV pool on one GPU from its memory fraction f, the GPU's HBM H, the
/// weights W it holds and its non-KV memory A (`engine_non_kv_per_gpu`: activations, NCCL buffers and
/// runtime; the library's flat 2 GB where the profile gives no figures).
enum class kv_pool_rule {
    /// pool = f · H − W − A: f is the share of ALL memory the instance may use for weights, peak
    /// activations and KV (vLLM's gpu_memory_utilization: requested = total · f, KV = requested −
    /// non-KV memory; vllm-project/vllm@35d5cda123ec28581759b6d34cde8052314fb1e6
    /// vllm/v1/worker/gpu_worker.py determine_available_memory). The reference engine's rule, f = 0.95.
    share_of_total,
    /// pool = f · (H − W − A): f is the share of the memory still FREE after the weights and the
    /// runtime's activations (TensorRT-LLM's KvCacheConfig.free_gpu_memory_fraction: primary pool =
    /// free_mem · f, free_mem from torch.cuda.mem_get_info() with the model loaded; NVIDIA/TensorRT-LLM@d2a5560abdadfbdf496ce057696103e0509a71ed
    /// tensorrt_llm/_torch/pyexecutor/resource_manager.py KVCacheManager.calculate_max_num_blocks).
    free_after_weights,
    /// pool = f · H − W: f is the share of ALL memory for the weights and the KV pool; activations
    /// and CUDA graphs live in the other 1 − f (SGLang's mem_fraction_static: rest = available after
    /// the weights − total · (1 − f); sgl-project/sglang@226149ac457bd1a1b5d450f55c01f72f604320d6
    /// python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py profile_max_num_token).
    share_of_total_static,
};
inline constexpr std::array all_kv_pool_rules{kv_pool_rule::share_of_total, kv_pool_rule::free_after_weights,
                                              kv_pool_rule::share_of_total_static};
[[nodiscard]] constexpr std::string_view to_string(kv_pool_rule r) {
    switch (r) {
        case kv_pool_rule::share_of_total: return "share_of_total";
        case kv_pool_rule::free_after_weights: return "free_after_weights";
        case kv_pool_rule::share_of_total_static: return "share_of_total_static";
    }
    return "?";
}
/// The KV pool rule called `name` ("share_of_total", "free_after_weights", "share_of_total_static").
[[nodiscard]] constexpr std::optional<kv_pool_rule> kv_pool_rule_named(std::string_view name) {
    for (kv_pool_rule r : all_kv_pool_rules)
        if (to_string(r) == name) return r;
    return std::nullopt;
}

/// The MoE models whose router (gate) an engine keeps whole on every rank in BF16, unsharded and unquantized
/// (`engine_moe::router_whole_bf16`, the engines.csv column router_whole_bf16; read by `keeps_router_whole`,
/// costs/parallel.hpp; each profile's source cell names the engine code read; docs/kv-pool.md).
enum class router_whole_models : unsigned char {
    none,        ///< no model: the library's shard, the weights' format ÷ tp
    every_moe,   ///< every MoE model (SGLang's `MoEGate`, vLLM's `ReplicatedLinear(..., quant_config=None)`)
    latent_moe,  ///< MoE models with latent attention only (TensorRT-LLM's `DeepseekV3Gate`)
};
inline constexpr std::array all_router_whole_models{router_whole_models::none, router_whole_models::every_moe,
                                                    router_whole_models::latent_moe};
[[nodiscard]] constexpr std::string_view to_string(router_whole_models r) {
    switch (r) {
        case router_whole_models::none: return "none";
        case router_whole_models::every_moe: return "every_moe";
        case router_whole_models::latent_moe: return "latent_moe";
    }
    return "?";
}
/// The model set called `name` ("none", "every_moe", "latent_moe").
[[nodiscard]] constexpr std::optional<router_whole_models> router_whole_models_named(std::string_view name) {
    for (router_whole_models r : all_router_whole_models)
        if (to_string(r) == name) return r;
    return std::nullopt;
}
/// The rule id of the router_whole_bf16 cell: one of the names `all_router_whole_models` lists.
inline constexpr std::string_view router_whole_bf16_rule_id = "llmcost.engine.router_whole_bf16";

/// The operands of a model's routed-expert GEMMs, as far as an engine's expert multiplier tells them apart
/// (`engine_kernels::expert_curve_multiplier`; the model's formats decide which, costs/passes.hpp).
enum class expert_operands : unsigned char {
    other,  ///< any other pair (BF16, W4A16 mixed input, W4A8): the size curve × `grouped_gemm`
    fp8,    ///< FP8 experts × FP8 activations (`engine_kernels::fp8_expert_gemm`)
    fp4,    ///< 4-bit float experts × 4-bit float activations, W4A4 (`engine_kernels::fp4_expert_gemm`)
};

/// Kernel rates of an engine, each a multiplier of the hardware's own figure (1 = the kernel the
/// hardware table's micro-benchmark measured). Products with the hardware's fractions may not pass
/// the datasheet (`engine_profile::validate_on`).
struct engine_kernels {
    double gemm = 1.0;          ///< dense GEMM rate ÷ the hardware's GEMM size curve e(n)
    double grouped_gemm = 1.0;  ///< expert (grouped) GEMM rate ÷ e(n) at the same rows per expert
    /// Rows a grouped-GEMM kernel pads each expert's tokens to (Triton fused-MoE BLOCK_SIZE_M,
    /// DeepGEMM's masked layout); 0: the hardware's own GEMM padding (`padded_rows`).
    double expert_tile_rows = 0.0;
    double attention_prefill = 1.0;  ///< fused prefill attention rate ÷ the hardware's attention fraction
    double attention_decode = 1.0;   ///< KV streaming rate of decode attention ÷ sustained HBM bandwidth
    double attention_fp8 = 1.0;      ///< attention compute rate with an 8-bit KV cache ÷ the BF16 one
    double mla_decode = 1.0;         ///< MLA decode (absorbed) compute rate ÷ the prefill attention rate
    double elementwise = 1.0;        ///< element-wise kernels' bandwidth ÷ sustained HBM bandwidth
    double weights = 1.0;            ///< weight streaming in GEMMs ÷ sustained HBM bandwidth
    /// The engine's own size curve for dense FP4 GEMMs (NVFP4 / MXFP4 activations and weights),
    /// e(n) = e∞ · n ÷ (n + n₀) of the datasheet FP4 peak (`gemm` not on top) with n = ∛(m·k·n), in place of the hardware's one
    /// curve for every format: `fp4_gemm_efficiency` its e∞, `fp4_gemm_half_dim` its n₀. Both 0: the
    /// hardware's curve (× `gemm`). Expert (grouped) GEMMs keep the hardware's curve × `grouped_gemm`.
    double fp4_gemm_efficiency = 0.0;
    double fp4_gemm_half_dim = 0.0;
    /// The same curve for an FP4 GEMM whose BF16 activations are quantized to FP4 by a kernel of
    /// their own before it (the GEMM and its quantization timed together: B19), where the engine
    /// build does not fuse that quantization into the kernel that produces the activations
    /// (`fp4_quantization_fused` false: TensorRT-LLM's `norm_quant_fusion` off). Both 0: none
    /// measured, the fused curve is used either way.
    double fp4_quant_gemm_efficiency = 0.0;
    double fp4_quant_gemm_half_dim = 0.0;
    /// The engine's own size curve for dense FP8 GEMMs (FP8 activations and weights), e(n) = e∞ · n ÷
    /// (n + n₀) of the datasheet FP8 peak, in place of the hardware's curve (which is a per-tensor
    /// library GEMM's, e.g. hipBLASLt on MI300X): where the engine runs its FP8 linear layers through
    /// kernels of its own (SGLang on ROCm: AITER's block-scaled `gemm_a8w8_blockscale` for DeepSeek's
    /// 128 × 128 FP8 blocks). `fp8_gemm_efficiency` its e∞, `fp8_gemm_half_dim` its n₀; 0, 0: the
    /// hardware's curve (× `gemm`). Expert (grouped) GEMMs keep the hardware's curve × `grouped_gemm`.
    double fp8_gemm_efficiency = 0.0;
    double fp8_gemm_half_dim = 0.0;
    /// The most rows a dense FP8 GEMM kernel's M extent covers (its tile's rows × its cluster's), where the
    /// engine's kernel dispatch picks the tile by mp2 = max(64, next_pow2(m)): the kernel computes
    /// ⌈m ÷ u⌉ · u rows, u = min(T, mp2) (`fp8_gemm_padded_rows`; vLLM's CUTLASS sm90 FP8 scaled_mm:
    /// 64 × 1 up to 64 tokens, 64 × 2 up to 128, 128 × 2 = 256 above, docs/vllm-hopper-fp8-gemm.md);
    /// 0: the hardware's padding (`achievable_fractions::padded_rows`). Dense projections of per-tensor FP8 only: not the
    /// LM head, nor a block-scaled FP8 checkpoint (latent attention ∧ W8A8 FP8: the blockwise kernel; `prepare_pass`).
    /// T a power of two ≥ 64 (`validate`).
    double fp8_gemm_tile_rows = 0.0;
    /// The engine's own size curve for dense 16-bit GEMMs (BF16 / FP16 activations and weights),
    /// e(n) = e∞ · n ÷ (n + n₀) of the datasheet BF16 peak, in place of the hardware's curve (which is
    /// fitted on cuBLASLt FP8 square GEMMs, B04, and applied to every format): where the engine's BF16
    /// linear layers were measured at serving shapes (cuBLAS through `torch.nn.functional.linear` in
    /// TensorRT-LLM's, vLLM's and SGLang's Linear modules on Hopper, B75–B76). `bf16_gemm_efficiency` its
    /// e∞, `bf16_gemm_half_dim` its n₀; 0, 0: the hardware's curve (× `gemm`). Expert (grouped) GEMMs
    /// keep the hardware's curve × `grouped_gemm`.
    double bf16_gemm_efficiency = 0.0;
    double bf16_gemm_half_dim = 0.0;
    /// Whether the engine build fuses the FP4 quantization of a GEMM's activations into the kernel
    /// before it (TensorRT-LLM's `norm_quant_fusion`: RMSNorm writes FP4 with its scales), so the
    /// GEMM runs on the FP4 curve alone; false: a quantization kernel runs before each FP4 GEMM
    /// (`fp4_quant_gemm_*`). A build choice, not a table column: a deployment or a measured row sets it.
    bool fp4_quantization_fused = true;
    /// Whether the engine build runs each row-parallel GEMM (attention output, FFN down) with its TP
    /// all-reduce inside one persistent kernel (TensorRT-LLM's `gemm_allreduce_plugin`: a CUTLASS GEMM
    /// whose finished output tiles are reduced over NVLink SHARP multicast by warps of the same kernel,
    /// two-shot, while the next tiles compute), so the all-reduce hides behind that GEMM and only its
    /// excess is paid. Dense models only. A build choice, not a table column: a measured row sets it.
    bool gemm_all_reduce_fused = false;
    /// Steps of at most this many tokens run the dense (non-expert) linear layers of 8-bit weights as
    /// 16-bit GEMMs on a 16-bit copy of those weights: AMD's MLPerf vLLM patch
    /// use-fp16-gemm-for-small-fp8-inputs-for-moe (`VLLM_MOE_USE_FP16_GEMM_FOR_SMALL_FP8_INPUTS`: an
    /// Fp8LinearMethod input of x.shape[0] ≤ 2560 rows goes to `tgemm.mm` on `weight_fp16`), set by the
    /// Mixtral-8x7B Server configurations of AMD's harness. Those GEMMs then run at the 16-bit peak and
    /// stream 2 bytes a weight. 0: never. A run's choice, not a table column: a measured row sets it.
    double wide_dense_max_tokens = 0.0;
    /// The most a mixed-input expert GEMM reaches, as a fraction of the activations' peak: routed
    /// experts whose weights are stored narrower than the activations they multiply (W4A16: MXFP4
    /// experts × BF16 activations on a GPU without FP4 units), which the kernel dequantizes in its
    /// main loop. r = peak · min(e(n) · grouped_gemm, c): where the dequantization, not the tensor
    /// cores, sets the pace (Marlin's mma.sync loop on Hopper is issue-bound, B39), c caps the rate
    /// whatever the shape; below it the size curve rules as before. 0: no cap (the kernel keeps up).
    double mixed_input_expert_gemm = 0.0;
    /// The multiples a mixed-input expert kernel pads an expert's matrices to: the hidden dimension to
    /// one of `mixed_input_hidden_align`, the expert's width on the GPU to one of
    /// `mixed_input_width_align` (vLLM's Marlin MoE: 256 and 128, mxfp4.py create_weights). The zeros
    /// are multiplied and streamed: FLOPs and weight bytes × (⌈h ÷ A_h⌉·A_h ÷ h) · (⌈w ÷ A_w⌉·A_w ÷ w).
    /// 0: no padding.
    double mixed_input_hidden_align = 0.0;
    double mixed_input_width_align = 0.0;
    /// Kernels one MoE layer launches from its router GEMM to the weighted sum of its experts'
    /// outputs where the engine's fused MoE runner routes inside itself (no attention DP: the
    /// router's logits go to the runner). 0: the generic seven (router, top-k, permute, up/gate GEMM,
    /// activation, down GEMM, un-permute). TensorRT-LLM's TRTLLM-Gen runner on Blackwell: 6 (router
    /// GEMM, activation quantization, one routing kernel, permute + GEMM1 + SwiGLU, GEMM2, finalize).
    double moe_runner_kernels = 0.0;
    /// Whether the TP all-reduce kernel also adds the residual and applies the next RMSNorm
    /// (TensorRT-LLM's PyTorch backend: `AllReduceFusionOp.RESIDUAL_RMS_NORM`), so a layer run with
    /// TP > 1 and no attention DP launches no norm or residual kernel of its own (3 fewer a layer).
    bool all_reduce_norm_fusion = false;
    /// Kernels one absorbed multi-latent attention block launches at decode, from its first
    /// projection to its output projection (norms of the latents, activation quantizations, the
    /// absorbed BMMs, RoPE, the latent-cache write and the attention kernel included), in place of
    /// the generic four (QKV GEMM, RoPE + KV append, attention, O GEMM). 0: the generic four.
    /// SGLang on Hopper: 13 (deepseek_v2.py forward_absorb_prepare/core, CUDA, FP8 block-scaled
    /// checkpoint: kv_b dequantized to BF16 at load, so each absorbed BMM is one torch.bmm); SGLang on
    /// Blackwell: 11 (docs/sglang-batch1-moe-decode.md §10–11).
    double mla_attention_kernels = 0.0;
    /// P, the prefix total below which a prompt step that carries any prefix runs absorbed MLA on a model with latent
    /// attention: a step whose prompts already hold Σ p tokens (extend_prefix_lens summed over the step's batch) with
    /// 0 < Σ p < P prices every prompt token's attention in the absorbed form (`attention_flops_per_pair`, decode form:
    /// 2·H·(r + d_rope) + 2·H·r, DeepSeek-V3 2176 against the MHA form's 640 a head) at the prompt rate; Σ p = 0 or
    /// ≥ P keeps the MHA form. SGLang v0.5.6 on Hopper (flashinfer / fa3 / flashmla backends): 8,192
    /// (`SGL_CHUNKED_PREFIX_CACHE_THRESHOLD`, deepseek_v2.py l.1362 and `handle_attention_flashinfer` l.320–367
    /// @7ae368efd; flashinfer_mla_backend.py l.321–340: a prefix runs BatchMLAPagedAttentionWrapper). 0: never (an
    /// engine that sends continuations to MHA: trtllm_mla on Blackwell, aiter on ROCm, deepseek_v2.py l.391–411).
    /// docs/sglang-closed-loop-ttft.md §8.
    tokens_t mla_absorbed_prefix_below{};
    /// Whether a prompt step whose batch already holds `prefix` tokens (Σ extend_prefix_lens) runs absorbed MLA:
    /// 0 < prefix < P (`mla_absorbed_prefix_below`; P = 0: never).
    [[nodiscard]] constexpr bool absorbed_mla_prompt_step(tokens_t prefix) const {
        return prefix.value() > 0.0 && prefix.value() < mla_absorbed_prefix_below.value();
    }
    /// Kernels one shared expert (DeepSeek's: `model::ffn.shared_experts`) launches where the engine runs
    /// it as a dense gated MLP of its own outside the routed-expert runner: gate-up GEMM, SwiGLU (+ the
    /// quantization of its output), down GEMM. 0: none priced (fused into the routed runner, or not read).
    /// TensorRT-LLM: 3 (tensorrt_llm/_torch/models/modeling_deepseekv3.py `Deepseekv3MoE.shared_experts`,
    /// a `GatedMLP`; tech blog 1 Module 11; docs/shared-expert-kernels.md).
    double shared_expert_kernels = 0.0;
    /// Whether a step replayed as a CUDA graph runs the shared expert on an auxiliary stream beside the
    /// router and the routed experts (TensorRT-LLM: `maybe_execute_in_parallel` on the MoeShared stream,
    /// multi-stream only under graph capture, `with_multi_stream(True)` in the CUDA-graph runner), so only
    /// the kernels it launches beyond the routed branch's lengthen the step; an eager step launches it serially.
    bool shared_expert_stream = false;
    /// Kernels a layer's attention block adds where the checkpoint's weights are FP8 block-scaled
    /// (W8A8 FP8, DeepSeek-V3/R1's 128 × 128 blocks) on a model with latent attention, over the count
    /// above (or the generic four): each block-FP8 linear quantizes its activation per token group
    /// (1 × 128) in a kernel of its own before the GEMM, and on ROCm each absorbed BMM casts its
    /// per-tensor FP8 weight to BF16 and scales it before a BF16 torch.bmm. 0: none (fused, or
    /// already in `mla_attention_kernels`). SGLang on CDNA3 and CDNA4: 7 (3 quantizations: fused
    /// q_a/kv_a, q_b, o_proj; 2 × 2 for W_kc and W_vc); SGLang on Blackwell: 2 (q_a/kv_a and q_b; its
    /// count of 11 is the NVFP4-v2 checkpoint's, BF16 projections but o_proj);
    /// docs/sglang-fp8-activation-quant.md.
    double fp8_attention_quant_kernels = 0.0;
    /// Kernels a layer adds where its TP group spans hosts (`engine_collectives::cross_host_all_reduce`)
    /// and the cross-host all-reduce does not apply the residual add and the next RMSNorm in its own
    /// kernel, as the in-host one does (`all_reduce_norm_fusion`): TensorRT-LLM 1.1's MNNVLAllReduce
    /// runs `mnnvl_twoshot_allreduce` and then `mnnvl_twoshot_rmsnorm` for RESIDUAL_RMS_NORM
    /// (tensorrt_llm/_torch/distributed/ops.py), one more kernel after each of a layer's two
    /// all-reduces: 2. At most 3, the kernels the in-host fusion removed (norm, residual + norm,
    /// residual); only with `all_reduce_norm_fusion` and the cross-host all-reduce's figures set.
    /// 0: none (docs/trtllm-mnnvl-all-reduce.md).
    double cross_host_norm_kernels = 0.0;
    /// Whether the engine quantizes the activations of experts stored in fewer than 8 bits to 8 bits
    /// and runs their GEMMs on the 8-bit tensor cores (W4A8: TensorRT-LLM on Blackwell runs MXFP4
    /// experts with MXFP8 activations, `W4A8_MXFP4_MXFP8`), where the activations are wider than 8
    /// bits: the expert GEMMs then run at the FP8 peak on the hardware's size curve, with no
    /// mixed-input ceiling or padding (a block-scaled MMA, no dequantization in the main loop).
    bool expert_fp8_activations = false;
    /// Whether the engine's attention op runs a step's prompt (context) requests and its decode
    /// (generation) requests as two kernels, one after the other (TensorRT-LLM: `attention` in
    /// cpp/tensorrt_llm/thop/attentionOp.cpp calls its runner with `is_context` true for the
    /// `num_contexts` requests, then false for the `num_generations`), so a mixed step's attention
    /// costs the two kernels' rooflines added, max(F_d ÷ R_d, KV_d ÷ B) + max(F_p ÷ R, KV_p ÷ B), not one
    /// roofline of their sums; false: one varlen kernel over both (vLLM V1's FlashAttention backend).
    bool separate_prompt_attention = false;
    /// The rate of the prompts' (context) attention kernel by the step's shape, in place of the one
    /// rate `attention` × `attention_prefill` of the hardware's BF16 peak: a causal FMHA whose query tiles
    /// each loop over the keys they attend (a fixed cost a tile, so the rate rises with the mean keys
    /// s̄ a query attends) and whose CTAs are the call's query-head rows W = prompts × tokens × query
    /// heads on the GPU (a call of few rows leaves the GPU part idle):
    ///   e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀) of the datasheet BF16 peak,
    /// `prompt_attention_efficiency` e∞, `prompt_attention_half_keys` s₀ (tokens), `prompt_attention_half_rows`
    /// W₀ (query-head rows); all 0: the one rate. Read only by the prompt kernel of an engine that runs
    /// it apart (`separate_prompt_attention`), for standard attention of head_dim 128, the class the
    /// figures were fitted on (TensorRT-LLM 1.3.0rc20's context FMHA on B200, FP8, B95–B96).
    double prompt_attention_efficiency = 0.0;
    double prompt_attention_half_keys = 0.0;
    double prompt_attention_half_rows = 0.0;
    /// e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀) — the prompts' attention rate ÷ the BF16 peak at a
    /// mean of s̄ keys a query and W query-head rows a call (B95); for one value or a lane of them.
    /// W > 0 (a call with no rows has no rate).
    template <class V>
        requires(!std::is_integral_v<V>)
    [[nodiscard]] constexpr V prompt_attention_at(const V& mean_keys, const V& query_rows) const {
        return V(prompt_attention_efficiency * mean_keys / (mean_keys + prompt_attention_half_keys) * query_rows /
                 (query_rows + prompt_attention_half_rows));
    }
    /// The same for one call: s̄ keys a query (tokens), W query-head rows.
    [[nodiscard]] constexpr double prompt_attention_at(tokens_t mean_keys, double query_rows) const {
        return prompt_attention_at(mean_keys.value(), query_rows);
    }
    /// Whether this engine prices its prompt attention kernel on a curve of its own.
    [[nodiscard]] constexpr bool own_prompt_attention_curve() const { return prompt_attention_efficiency > 0.0; }
    /// The rate of routed-expert GEMMs whose experts and activations are both FP8 (block-scaled FP8
    /// checkpoints, DeepSeek-R1's) over the size curve × `grouped_gemm` at the same rows per expert:
    /// r = peak · e(m) · grouped_gemm · g8. SGLang on Blackwell runs them with FlashInfer's TRTLLM-Gen
    /// FP8 block-scale MoE (`--moe-runner-backend flashinfer_trtllm`), which aiconfigurator's SGLang
    /// 0.5.14 table times at 0.40-0.57 of that curve from 4,096 tokens (B87; docs/sglang-blackwell-dsr1-aic.md).
    /// 0: none (the curve × `grouped_gemm`, every format alike).
    double fp8_expert_gemm = 0.0;
    /// The same for routed-expert GEMMs whose experts and activations are both 4-bit floats (W4A4: an
    /// MXFP4 checkpoint's experts with MXFP4 activations, AMD's DeepSeek-R1 MXFP4 on CDNA 4; not W4A16's
    /// mixed-input kernel, not W4A8): r = peak_fp4 · e(m) · grouped_gemm · g4. SGLang on ROCm runs them
    /// with AITER's per_1x32 fused MoE, which AITER's first tuned MXFP4 DeepSeek-V3 table (ROCm/aiter
    /// @8c5fceb424, dsv3_fp4_tuned_fmoe.csv) times at about its FP8 kernel's rate (docs/aiter-fused-moe.md §8).
    /// 0: none (the curve × `grouped_gemm`).
    double fp4_expert_gemm = 0.0;
    /// The expert GEMM rate's multiplier of the size curve: g · g8 for FP8 × FP8 experts where the engine
    /// has `fp8_expert_gemm`, g · g4 for FP4 × FP4 experts where it has `fp4_expert_gemm`, else g (`grouped_gemm`).
    [[nodiscard]] constexpr double expert_curve_multiplier(expert_operands operands) const {
        if (operands == expert_operands::fp8 && fp8_expert_gemm > 0.0) return grouped_gemm * fp8_expert_gemm;
        if (operands == expert_operands::fp4 && fp4_expert_gemm > 0.0) return grouped_gemm * fp4_expert_gemm;
        return grouped_gemm;
    }
    /// Whether this engine prices dense FP4 GEMMs on a curve of its own.
    [[nodiscard]] constexpr bool own_fp4_curve() const { return fp4_gemm_efficiency > 0.0; }
    /// Whether this engine prices dense FP8 GEMMs on a curve of its own.
    [[nodiscard]] constexpr bool own_fp8_curve() const { return fp8_gemm_efficiency > 0.0; }
    /// Whether this engine prices dense BF16 / FP16 GEMMs on a curve of its own.
    [[nodiscard]] constexpr bool own_bf16_curve() const { return bf16_gemm_efficiency > 0.0; }
    /// Whether its dense FP4 GEMMs run on the curve with the activations' quantization (B19).
    [[nodiscard]] constexpr bool unfused_fp4_quantization() const {
        return !fp4_quantization_fused && fp4_quant_gemm_efficiency > 0.0;
    }
    [[nodiscard]] constexpr bool operator==(const engine_kernels&) const = default;
};

/// How a run's prompt steps pay the host's eager launch (`engine_overheads::prefill_launch`), where
/// the run's configuration states it (tables/measurements.csv `eager_prompt`; docs/trtllm-eager-prompt.md).
enum class prompt_launch_mode : unsigned char {
    engine,   ///< the profile's rule: a prompt step runs eagerly where CUDA graphs are on (they capture decode
              ///< batches only), launched while the step before runs (SGLang's overlap scheduler)
    overlap,  ///< eagerly, launched while the step before it runs (an overlap scheduler): t = max(t_GPU, H − t_prev)
    serial,   ///< eagerly, with nothing to hide the launch behind (the overlap scheduler off): t = max(t_GPU, H)
    none,     ///< not priced: a TensorRT engine's C++ executor, or an overlapped eager launch left to the
              ///< fitted front end (docs/trtllm-eager-prompt.md section 5)
};

/// The words that name a stated `prompt_launch_mode` (tables/measurements.csv `eager_prompt`, `llmcost … --eager-prompt`).
inline constexpr std::string_view prompt_launch_words =
    "overlap (prompt steps run eagerly, launched while the step before runs), serial (eagerly, the overlap scheduler "
    "off), 0 (no eager prompt launch priced)";
/// Why a KV footprint (`llmcost kv`, Python `kv`) takes no prompt launch: it prices memory, not a step. Both surfaces
/// refuse the setting (`--eager-prompt`, `eager_prompt=`) with this text rather than ignore it.
inline constexpr std::string_view kv_prices_no_step =
    "kv prices memory (the KV footprint and where it spills), not a step, so it has no prompt launch to state; "
    "estimate, simulate, spec, cost, disagg, frontier and plan read it";
/// Why a KV footprint takes no V0 host loop (`llmcost kv --host-loop`, Python `kv(host_loop=)`): the loop prices a
/// scheduler pass's host time on each step (`with_v0_loop`), and kv prices memory. Both surfaces refuse it with this
/// text rather than accept it silently, as they refuse a prompt launch (`kv_prices_no_step`).
inline constexpr std::string_view kv_prices_no_host_loop =
    "kv prices memory (the KV footprint and where it spills), not a step, so no scheduler pass's host time enters it; "
    "estimate, simulate, spec, cost and disagg read it (in Python also sweep, frontier and plan)";
/// Why a KV footprint takes no all-to-all dispatch cap (`llmcost kv --a2a-dispatch-cap`, Python
/// `kv(a2a_dispatch_cap=)`): the cap sizes the padded expert runner's grid, a step's time (`padded_moe_time_per_pass`),
/// and kv prices memory. Both surfaces refuse it with this text.
inline constexpr std::string_view kv_prices_no_dispatch_cap =
    "kv prices memory (the KV footprint and where it spills), not a step, so the padded expert runner's time does not "
    "enter it; estimate, simulate, spec, cost, disagg, frontier and plan read it";
/// The mode a word states: overlap, serial, 0 (none); nothing for any other word (the empty one included: the
/// engine's rule is the absence of a statement).
[[nodiscard]] constexpr std::optional<prompt_launch_mode> prompt_launch_named(std::string_view word) {
    if (word == "overlap") return prompt_launch_mode::overlap;
    if (word == "serial") return prompt_launch_mode::serial;
    if (word == "0") return prompt_launch_mode::none;
    return std::nullopt;
}

/// What makes a cold benchmark run's server build a kernel at first use (docs/first-use-build.md): a run
/// property (its image, launch flags and client), not the engine's, read only by a simulated run that starts cold.
enum class first_use_trigger : unsigned char {
    none,           ///< nothing the opening reaches is built at first use (or a client warm-up reached it first)
    /// SGLang v0.5.6's release image on SM100 with `--attention-backend trtllm_mla`: the first prompt step that
    /// carries a prompt whose earlier tokens are already in the KV cache (a chunked prompt's continuation) plans a
    /// FlashInfer ragged-prefill wrapper whose plan() nvcc-builds the CUTLASS SM100 FMHA module (sgl-project/sglang
    /// @7ae368efd python/sglang/srt/layers/attention/flashinfer_mla_backend.py:100-151, 246-249;
    /// flashinfer-ai/flashinfer@v0.5.3 flashinfer/prefill.py:67-98; the image has no flashinfer-jit-cache,
    /// docker/Dockerfile:19, 132-134)
    prefix_extend,
    /// SGLang's ROCm images built without AITER's prebuilt kernels (gfx950, v0.5.6.post1-v0.5.7): the first prompt
    /// step whose MoE forward has more than 1,024 tokens takes AITER's separate MXFP4 quant + sort kernels, which a
    /// test prompt of at most 1,024 tokens never ran (ROCm/aiter@v0.1.9.post1 aiter/fused_moe.py fused_moe_2stages,
    /// `token_num_quant_moe_sort_switch = 1024`)
    moe_sort_switch,
};

/// The words that name a `first_use_trigger` (tables/measurements.csv `first_use_build`).
inline constexpr std::string_view first_use_trigger_words =
    "none, prefix_extend (the first prompt step carrying a chunked prompt's continuation), moe_sort_switch (the "
    "first prompt step of more than 1,024 tokens)";
[[nodiscard]] constexpr std::optional<first_use_trigger> first_use_trigger_named(std::string_view word) {
    if (word == "none") return first_use_trigger::none;
    if (word == "prefix_extend") return first_use_trigger::prefix_extend;
    if (word == "moe_sort_switch") return first_use_trigger::moe_sort_switch;
    return std::nullopt;
}
[[nodiscard]] constexpr std::string_view to_string(first_use_trigger t) {
    switch (t) {
        case first_use_trigger::none: return "none";
        case first_use_trigger::prefix_extend: return "prefix_extend";
        case first_use_trigger::moe_sort_switch: return "moe_sort_switch";
    }
    return "?";
}

/// AITER's MoE token count up to which an MXFP4 forward quantizes and sorts its activations in one fused kernel
/// (ROCm/aiter@v0.1.9.post1 aiter/fused_moe.py:890 fused_moe_2stages: `token_num_quant_moe_sort_switch = 1024`,
/// `fused_dynamic_mxfp4_quant_moe_sort` at or below it, `quant_func` + `moe_mxfp4_sort` above; SGLang's MXFP4 MoE
/// reaches it: sglang@820e97d6c python/sglang/srt/layers/quantization/quark/quark_moe.py:233–247).
inline constexpr tokens_t aiter_moe_sort_switch_tokens = tokens(1024.0);

/// Whether a cold run's prompt step is the one that meets the trigger (the build is paid once, at the first):
/// prefix_extend: the step carries a prompt chunk after the prompt's first (extend_prefix_lens > 0);
/// moe_sort_switch: the step's tokens T > 1,024 (`aiter_moe_sort_switch_tokens`); none: never.
[[nodiscard]] constexpr bool first_use_build_step(first_use_trigger t, bool carries_continuation, tokens_t step_tokens) {
    switch (t) {
        case first_use_trigger::none: return false;
        case first_use_trigger::prefix_extend: return carries_continuation;
        case first_use_trigger::moe_sort_switch: return step_tokens.value() > aiter_moe_sort_switch_tokens.value();
    }
    return false;
}

/// Host and launch costs that the GPU waits for.
/// The rule of vLLM's V0 loop (`engine_overheads::v0_loop`, a measurement's `host_loop`, the CLI's `--host-loop`):
/// one text, said by every refusal of it.
inline constexpr std::string_view v0_loop_rule =
    "only vLLM runs the V0 LLMEngine loop: host_loop v0 needs engine vllm (docs/vllm-v0-host-loop.md)";

struct engine_overheads {
    seconds_t step{};          ///< per step: scheduling, input preparation, sampling not overlapped with the GPU
    seconds_t launch_eager{};  ///< per kernel, added to the hardware's, CUDA graphs off
    seconds_t launch_graph{};  ///< per kernel, added to the hardware's, CUDA graphs on
    bool cuda_graphs = true;   ///< the engine's default
    /// Per request, outside the engine's steps: the API front end's HTTP handling, prompt
    /// tokenisation, the API-server → engine hand-off and the first token's detokenisation and
    /// streaming. A client's TTFT and E2E carry it once (`client_first_token`); the GPU does not
    /// wait for it, so no step, batch or rate does. 0: no front end priced (the reference engine,
    /// and an engine with no evidence for it).
    seconds_t request{};
    /// The host's time per kernel to launch a step that carries prompts, where the engine's CUDA
    /// graphs capture decode batches only and a prompt step runs eagerly (SGLang without
    /// `--enable-piecewise-cuda-graph`): such a step lasts at least kernels × this, the GPU waiting
    /// for the host when its own kernels are shorter (`eager_prompt_wait`). 0: a prompt step is
    /// priced as a decode step is (graphs cover it, or the engine runs eagerly throughout).
    seconds_t prefill_launch{};
    /// Whether and how a step with prompts pays `prefill_launch`: a run choice, not a profile column
    /// (a measured row's `eager_prompt` sets it; TensorRT-LLM's PyTorch backend never replays a CUDA graph
    /// for a step with context requests, tensorrt_llm/_torch/pyexecutor/scheduler.py `can_run_cuda_graph`,
    /// and Dynamo's prefill workers run with `disable_overlap_scheduler: True`).
    prompt_launch_mode prompt_launch = prompt_launch_mode::engine;
    /// The host's time per kernel to enqueue a step where the engine runs without CUDA graphs and
    /// nothing hides the enqueue (TensorRT-LLM's C++ executor running a TensorRT engine: `enqueueV3`
    /// sets up and launches each layer's kernels on the host while the GPU runs the ones before;
    /// no overlap scheduler). With `cuda_graphs` off every step then lasts at least kernels × this
    /// (`eager_prompt_wait`, the same max(host, GPU) as an eager prompt step), where the deployment
    /// runs so (`eager_enqueue`). 0: none priced. Unlike `launch_eager`, a gap added to every kernel
    /// whatever the step's GPU time (the form the TensorRT-LLM 0.9-0.16 profile was fitted in), this is
    /// a floor the GPU's work hides at large batch: the law every profile's graphs-off runs are fitted
    /// with (TensorRT-LLM's C++ executor on Blackwell, vLLM's `enforce_eager` on CDNA 3; docs/host-enqueue.md).
    seconds_t host_enqueue{};
    /// Whether this deployment's steps run that way: without CUDA graphs, each enqueued by the host with
    /// nothing to hide it behind, so `host_enqueue` is read. A run choice, not a table column: a
    /// measured row that states `cuda_graphs` 0 sets it (NVIDIA's MLPerf harness runs its TensorRT
    /// engines so, AMD's runs vLLM with `enforce_eager`), as a deployment may; a profile's own default
    /// keeps its scheduler (TensorRT-LLM's
    /// PyTorch backend overlaps the host's work with the GPU's: `step` 0).
    bool eager_enqueue = false;
    /// A benchmark run's cold opening, once: a server started just before its client's burst runs the
    /// opening's prompt steps at shapes no warm-up ran (its warm-up is one tiny request; CUDA graphs
    /// capture decode batches only), so they pay one-time work — JIT compiles and module builds on
    /// first call (DeepGEMM per shape, sgl-project/sglang issues 4773 and 5031; AITER modules, ROCm/aiter
    /// issue 4055) — before their tokens come. Read only by a simulated run that starts cold
    /// (`sim::options::cold_engine`, the closed-loop benchmark's burst start, `plan::closed_loop_run`);
    /// never by a steady-state price. Added to the first prompt step that carries the opening's prompts:
    /// Δt = cold_start + cold_prompt_token · (the opening's prompt tokens in the step) (docs/sglang-closed-loop-ttft.md §4).
    /// 0: none.
    seconds_t cold_start{};
    /// Per prompt token of the opening's requests (a server's first `clients`), added to each prompt step
    /// that carries them (see `cold_start`). 0: none.
    seconds_t cold_prompt_token{};
    /// Whether only a model with routed experts pays the cold opening (`cold_start`, `cold_prompt_token`): true where
    /// the engine's one-time work at the opening's shapes is its MoE kernels built per batch size at first use (SGLang
    /// on Hopper: Triton fused-MoE configs chosen by the step's token count, docs/sglang-closed-loop-ttft.md §7); false:
    /// every cold closed loop pays it.
    bool cold_opening_moe_only = false;
    /// A first-use kernel build, once: the stall S a cold benchmark run's server pays at the first prompt step that
    /// meets the run's `first_use_trigger` (a kernel compiled at first use that the server's warm-up and the
    /// client's single test prompt never reached; docs/first-use-build.md). Added to that step's duration, so every
    /// request whose prompt is in or behind it waits S. Read only by a simulated run that starts cold
    /// (`sim::options::cold_engine` with `sim::options::first_use_build`); never by a steady-state price. 0: none.
    seconds_t first_use_build{};
    /// The host's time per request in a prompt step the engine runs serially (`prompt_launch_mode::serial`:
    /// TensorRT-LLM's PyTorch executor with `disable_overlap_scheduler`, Dynamo's prefill workers): its loop sets each
    /// request up, allocates its KV blocks and handles its response between forwards while the GPU waits, so such a
    /// step lasts t = max(t_GPU, H) + n_req · t_req, n_req = min(ps ÷ β, B) (`eager_prompt_wait`). The fitted figure
    /// may fold in the cache transceiver's serial KV send per context rank (outside the executor loop: it would queue
    /// sends, not lengthen the pass; docs/trtllm-prefill-request.md).
    /// Not read where the step is not serial: an overlap scheduler prepares step n + 1 while step n runs, so that
    /// work hides behind the GPU's. Fitted by a rule stated before the fit (docs/trtllm-prefill-request.md). 0: none.
    seconds_t prefill_request{};
    /// vLLM's V0 `LLMEngine` loop: each scheduler pass runs `Scheduler.schedule()`, the driver's input preparation and
    /// (at TP > 1) the broadcast of the step's metadata to the other TP workers on the host while the GPU waits
    /// (vllm-project/vllm v0.6.0 `vllm/engine/llm_engine.py` step, `vllm/worker/worker_base.py` execute_model →
    /// `broadcast_tensor_dict`; vLLM's v0.6.0 blog: scheduling 29% of Llama-3-8B's time on one H100). A pass costs
    /// t_host = a₀ + a₁ · (tp − 1) + h · n, n the sequences it schedules (`v0_host_pass`; docs/vllm-v0-host-loop.md).
    /// a₀: the fixed part at one GPU, s. FITTED (no source gives it). 0: none.
    seconds_t v0_pass{};
    /// a₁: the fixed part per TP rank beyond the first, s: the driver's shared-memory broadcast queue waits on each of
    /// the tp − 1 readers' flags and each of the step's input tensors is broadcast over tp − 1 ranks (vLLM v0.5.4 and
    /// v0.6.0 `vllm/distributed/parallel_state.py` broadcast_tensor_dict, `device_communicators/shm_broadcast.py`
    /// acquire_write; skipped at world size 1). FITTED. 0: none.
    seconds_t v0_pass_rank{};
    /// h: per sequence the pass schedules (its block tables, sequence metadata, sampling metadata), s. FITTED. 0: none.
    seconds_t v0_pass_sequence{};
    /// h_t: per sequence per decode step the pass schedules, s: V0's output processing where its async output processor
    /// is off (`enforce_eager`: ROCm/vllm@71faa1880 vllm/platforms/rocm.py:286-293 `is_async_output_supported`, upstream
    /// vllm/platforms/cuda.py likewise). The S steps' outputs are pythonized after the block's last step and
    /// `_process_model_outputs` runs before the next `schedule()` (vllm/worker/multi_step_model_runner.py:413, 427-440,
    /// 591; vllm/engine/llm_engine.py:1456), a per-token loop over every sequence (append, num_computed, stop check:
    /// vllm/engine/output_processor/multi_step.py:198-213), so a pass pays n · S · h_t more while the GPU waits
    /// (`v0_output_sync`). FITTED (no source gives it). 0: none (Hopper's single-step fit folds it into h).
    seconds_t v0_output_token{};
    /// Whether this deployment runs vLLM's V0 loop, so the pass above is paid: a run choice, not a table column (a
    /// measured row's `host_loop` v0 sets it; a vLLM ≤ 0.6 release, `VLLM_USE_V1=0`). false, the default: the profile's
    /// own loop (vLLM's profiles run V1, whose per-sequence host work is a few µs and overlaps: no term). Only a vLLM
    /// engine runs it (`validate`).
    bool v0_loop = false;
    /// The decode steps one V0 scheduler pass schedules (`num_scheduler_steps`, V0 multi-step; 1: single-step, every
    /// step a pass): a run choice carried from a row's `receive_interval`. A steady state's step pays t_host ÷ this
    /// (`v0_host_pass_per_step`); the simulator pays t_host at each of its polls.
    double v0_steps_per_pass = 1;
    /// Whether V0's output processing runs synchronously, the GPU waiting: the V0 loop with CUDA graphs off (vLLM turns
    /// its async output processor off under `enforce_eager`: vllm/platforms/rocm.py:286-293, cuda.py likewise).
    [[nodiscard]] constexpr bool v0_output_sync() const { return v0_loop && !cuda_graphs; }
    /// One V0 scheduler pass's host time: t_host = a₀ + a₁ · (tp − 1) + h · n + [sync] · h_t · n · S
    /// (docs/vllm-v0-host-loop.md); 0 unless the deployment runs the V0 loop (`v0_loop`). tp the TP degree, n the
    /// sequences the pass schedules (counts), S the steps it runs (`steps`: `v0_steps_per_pass` for a decode pass; 1
    /// for a pass that schedules prompts, which V0 multi-step runs as one step, its prefills given no lookahead slots),
    /// [sync] `v0_output_sync`: a pass processes the S tokens of each of its n sequences.
    template <class V>
    [[nodiscard]] constexpr V v0_host_pass(double tp, const V& sequences, double steps) const {
        if (!v0_loop) return sequences * 0.0;
        const double per_sequence = v0_pass_sequence.value() + (v0_output_sync() ? v0_output_token.value() * steps : 0.0);
        return sequences * per_sequence + (v0_pass.value() + v0_pass_rank.value() * (tp - 1.0));
    }
    /// A decode pass's: S = `v0_steps_per_pass`.
    template <class V>
    [[nodiscard]] constexpr V v0_host_pass(double tp, const V& sequences) const {
        return v0_host_pass(tp, sequences, v0_steps_per_pass);
    }
    /// A steady state's share of it per step: t_host ÷ S, S the steps a pass schedules (`v0_steps_per_pass`).
    template <class V>
    [[nodiscard]] constexpr V v0_host_pass_per_step(double tp, const V& sequences) const {
        return v0_host_pass(tp, sequences, v0_steps_per_pass) * (1.0 / v0_steps_per_pass);
    }
    /// What a cold server's prompt step adds for the opening's prompts it carries:
    /// Δt = cold_start · [the first such step] + cold_prompt_token · P_open (docs/sglang-closed-loop-ttft.md §4).
    [[nodiscard]] constexpr seconds_t cold_opening(tokens_t opening_prompt, bool first_opening_step) const {
        return (first_opening_step ? cold_start : seconds_t{}) + cold_prompt_token * opening_prompt.value();
    }
    /// Whether a cold closed loop of this model pays the opening: ¬cold_opening_moe_only ∨ (the model has routed
    /// experts) (docs/sglang-closed-loop-ttft.md §7).
    [[nodiscard]] constexpr bool pays_cold_opening(bool moe_model) const { return !cold_opening_moe_only || moe_model; }
    /// Per-kernel launch cost the engine adds: t = graphs ? launch_graph : launch_eager.
    [[nodiscard]] constexpr seconds_t launch() const { return cuda_graphs ? launch_graph : launch_eager; }
    [[nodiscard]] constexpr bool operator==(const engine_overheads&) const = default;
};

/// Collectives the engine runs.
struct engine_collectives {
    /// Latency of the engine's custom (one-shot, fused) all-reduce for a small message, the whole
    /// operation; 0: the link's α–β model (NCCL/RCCL) for every size.
    seconds_t all_reduce_latency{};
    bytes_t custom_all_reduce_max{};  ///< the custom kernel runs up to this size; above, the link model
    /// Floor of one all-to-all phase (dispatch or combine) of one MoE layer; 0: the link's α.
    seconds_t all_to_all_latency{};
    /// The collective library's all-reduce (NCCL/RCCL) above `custom_all_reduce_max`, fitted to a
    /// measured nccl-tests curve: t = a + 2(n−1)/n · S ÷ B_bus, a its fixed time and B_bus its bus
    /// bandwidth (nccl-tests' busbw at large S). Both 0: the link's α–β model. Below the custom
    /// kernel's largest message, the custom kernel (or, with no custom latency, the link model).
    seconds_t library_all_reduce{};
    bytes_per_second_t library_all_reduce_bus{};
    /// The custom kernel's largest message at 2 ranks, where the engine gives it a larger workspace
    /// (TensorRT-LLM: 16,000,000 B at 2 ranks, 8,000,000 B above); 0: `custom_all_reduce_max` at every count.
    bytes_t custom_all_reduce_max_2_ranks{};
    /// The custom kernel's bus bandwidth where it was measured: t = t₀ + 2(n−1)/n · S ÷ B_custom, t₀ the
    /// custom latency (`all_reduce_latency`), in place of the link's per-direction bandwidth, which a
    /// one-shot or two-shot kernel's Lamport buffers and barriers do not reach at the messages it runs
    /// (TensorRT-LLM's all-reduce on 8 B200: 160.7 GB/s up to 1 MiB against NVLink 5's 900, B90);
    /// 0: the link's bandwidth.
    bytes_per_second_t custom_all_reduce_bus{};
    /// The custom kernel's curve for its large messages, where one was measured above the size its small-message
    /// model (`all_reduce_latency`, `custom_all_reduce_bus`) is checked: t = a + 2(n−1)/n · S ÷ B_bus for
    /// `custom_all_reduce_large_min` < S ≤ `custom_all_reduce_max` (SGLang on CDNA4: AITER's CustomAllreduce to 64 MiB,
    /// its eager path fitted on an 8-GPU table and carried to MI355X, docs/cdna-all-reduce.md §9). All 0: none.
    seconds_t custom_all_reduce_large{};
    bytes_per_second_t custom_all_reduce_large_bus{};
    bytes_t custom_all_reduce_large_min{};
    /// The all-reduce the engine runs where a TP group spans hosts of one scale-up domain (TP ranks >
    /// `hardware::gpus_per_node`: a GB200/GB300 NVL72 compute tray holds 4 GPUs), fitted to a measured
    /// curve: t = a + 2(n−1)/n · S ÷ B_bus at every message size, in place of the custom kernel, the
    /// link model and the collective library. TensorRT-LLM's PyTorch backend takes `MNNVLAllReduce`
    /// there (`Mapping.is_multi_node()`: world_size > gpus_per_node, the local device count;
    /// tensorrt_llm/_torch/distributed/ops.py `MNNVLAllReduce.is_mnnvl`): its IPC one-shot kernel is
    /// single-node (docs/trtllm-mnnvl-all-reduce.md). Both 0: the in-host rules at every TP size.
    seconds_t cross_host_all_reduce{};
    bytes_per_second_t cross_host_all_reduce_bus{};
    /// The largest message the cross-host all-reduce takes; above it the collective library's all-reduce
    /// (`library_all_reduce`, else the link model). TensorRT-LLM: `MNNVLAllReduce.forward` returns None
    /// (the AUTO all-reduce runs) past max_num_tokens = max_num_elements // hidden, its workspace
    /// ceil(12e6 ÷ (16384 · 12)) · (16384 · 12) = 12,189,696 B holding [3, 2, max_num_elements] BF16:
    /// 1,015,808 elements = 2,031,616 B = 1,984 KiB (ops.py `get_allreduce_mnnvl_workspace`). 0: no bound.
    bytes_t cross_host_all_reduce_max{};
    /// The engine's quantized all-reduce where the run turns it on (`quick_reduce`): SGLang's QuickReduce
    /// on ROCm (ROCM_QUICK_REDUCE_QUANTIZATION=INT4; sgl-project/sglang @054be181
    /// python/sglang/srt/distributed/device_communicators/quick_all_reduce.py), which its GroupCoordinator
    /// tries after the custom kernel and before RCCL, for quick_reduce_min ≤ S ≤ quick_reduce_max (INT4, fp16,
    /// 4 or 8 ranks: 2 MiB to 2 GiB). Fitted as t = a + 2(n−1)/n · S ÷ B_bus (docs/cdna-all-reduce.md §7).
    /// All 0: none (the custom kernel, the library or the link model at every size).
    seconds_t quick_reduce_all_reduce{};
    bytes_per_second_t quick_reduce_bus{};
    bytes_t quick_reduce_min{};
    bytes_t quick_reduce_max{};
    /// Whether this deployment's run turned the quantized all-reduce on (a run choice, not a table column:
    /// a measured row's `quick_reduce` sets it, `plan::on_engine`); only with the profile's curve above.
    bool quick_reduce = false;
    /// Whether the profile carries the quantized all-reduce's curve: its fixed time, its bus bandwidth and a band with a
    /// largest message above its smallest (tables/engines.csv quick_reduce_us, quick_reduce_bus_GBps; docs/cdna-all-reduce.md §7).
    [[nodiscard]] constexpr bool has_quick_reduce_curve() const {
        return quick_reduce_all_reduce.value() > 0.0 && quick_reduce_bus.value() > 0.0 && quick_reduce_max > quick_reduce_min;
    }
    /// Whether the quantized all-reduce takes a message of s bytes: on, and quick_reduce_min ≤ s ≤ quick_reduce_max
    /// (quick_all_reduce.py should_quick_allreduce; the custom kernel below its own cap is tried first).
    [[nodiscard]] constexpr bool quick_reduce_takes(bytes_t s) const {
        return quick_reduce && s >= quick_reduce_min && s <= quick_reduce_max;
    }
    /// Whether, under attention data parallelism, an expert-parallel group of no more ranks than the
    /// model's top-k exchanges its tokens by an all-gather before the experts and a reduce-scatter after
    /// them instead of its all-to-all (TensorRT-LLM's fused MoE modules up to 1.2.0rc2 enable the
    /// all-to-all only where `moe_ep_size > experts_per_token`; docs/trtllm-moe-comm.md).
    bool gather_up_to_top_k = false;
    /// The collective library's all-gather and reduce-scatter on the GPUs of one scale-up domain,
    /// fitted to measured nccl-tests curves: t = a₀ + a₁ · (n − 1) + (n − 1)/n · S ÷ B_bus for a gathered
    /// (or scattered) buffer of S bytes over n ranks. All 0: the link's α–β ring model.
    seconds_t gather_latency{};
    seconds_t gather_latency_per_rank{};  ///< a₁, the fixed time each further rank adds
    bytes_per_second_t gather_bus{};
    /// a(n) = a₀ + a₁ · (n − 1): the fixed time of one all-gather or reduce-scatter over n ranks.
    [[nodiscard]] constexpr seconds_t gather_fixed(int ranks) const {
        return gather_latency + gather_latency_per_rank * (static_cast<double>(ranks) - 1.0);
    }
    /// S_max(n) = S_max,2 if n ≤ 2 and S_max,2 > 0, else S_max: the largest message the custom
    /// kernel runs at n ranks (TensorRT-LLM customAllReduceUtils.h getMaxRequiredWorkspaceSize).
    [[nodiscard]] constexpr bytes_t custom_all_reduce_max_at(int ranks) const {
        return ranks <= 2 && custom_all_reduce_max_2_ranks.value() > 0.0 ? custom_all_reduce_max_2_ranks
                                                                          : custom_all_reduce_max;
    }
    [[nodiscard]] constexpr bool operator==(const engine_collectives&) const = default;
};

/// The engine's memory besides weights and KV on one GPU, by NVIDIA's published memory model of
/// these engines (github.com/ai-dynamo/aiconfigurator@095f58a51c4ca8e61b66ec108d86f223f8d559ce
/// aic-core/src/aiconfigurator_core/sdk/backends/base_backend.py `_get_memory_usage`; docs/kv-pool.md):
/// activations = max(2 · T · h · c(family, min(tp, 8)), A_min) · (1 + o_A) for T tokens per step and
/// query width h; communication buffers by TP; runtime memory (CUDA context, cuBLAS, …) · (1 + o_R).
/// Every figure 0 (`given()` false): not sourced for this engine; the library's flat activations apply.
struct engine_non_kv_memory {
    std::array<double, 4> dense{};  ///< c at TP 1, 2, 4, 8 for a dense model (the source's LLAMA family)
    std::array<double, 4> moe{};    ///< c at TP 1, 2, 4, 8 for a mixture-of-experts model (MOE / DEEPSEEK)
    bytes_t min_activations{};      ///< A_min: the activations' floor
    double activation_overhead = 0; ///< o_A: the engine's share added on top of the activations
    std::array<bytes_t, 4> communication{};  ///< NCCL buffers at TP 1, 2, 4, 8
    bytes_t runtime{};              ///< the runtime's memory (the source's other_mem: a deployment margin)
    double runtime_overhead = 0;    ///< o_R: the engine's share added on top of the runtime memory
    [[nodiscard]] constexpr bool given() const { return dense[0] > 0.0; }
    [[nodiscard]] constexpr bool operator==(const engine_non_kv_memory&) const = default;
};

/// Scheduler defaults (what the engine does when the user sets nothing).
struct engine_scheduler {
    double max_sequences = 0;         ///< sequences in flight per instance; 0: no cap
    double max_batched_tokens = 0;    ///< tokens per step; 0: no cap
    bool chunked_prefill = false;
    tokens_t chunk{};                 ///< chunk size when chunked prefill is on
    /// f of the engine's KV pool rule (`kv_pool`): vLLM's gpu_memory_utilization, TensorRT-LLM's
    /// free_gpu_memory_fraction, SGLang's mem_fraction_static. The reference engine's 0.95 with
    /// `share_of_total` is the library's reserve: 5 % of HBM kept free, then the activations.
    double kv_memory_fraction = 0.95;
    kv_pool_rule kv_pool = kv_pool_rule::share_of_total;  ///< how f sizes the KV pool
    double kv_block_tokens = 0;       ///< tokens per KV block (paged attention); 0: not paged
    engine_non_kv_memory non_kv{};    ///< activations, communication buffers, runtime (none: the library's 2 GB)
    /// A step that carries prompts carries no decodes: the running answers wait for it (SGLang without
    /// `--enable-mixed-chunk`); false: prompt chunks and decodes share a step (vLLM V1, TensorRT-LLM).
    bool prefill_alone = false;
    /// Steps L the scheduler runs between a closed-loop answer's last step and the first step that can carry
    /// its client's next prompt (`scheduler_limits::overlap_lag_steps`): SGLang's overlap loop
    /// (`Scheduler.event_loop_overlap`, its default) launches step k + 1 before it processes step k's results and
    /// receives new requests only at the top of a turn, so the next prompt reaches a prompt step L = 2 decode steps
    /// after the answer's last token (docs/sglang-closed-loop-ttft.md §6); 0: the next step (no overlap loop).
    double overlap_schedule_steps = 0;
    /// R_init, the memory resident on a GPU before the engine measures the total its static fraction applies to: CUDA
    /// context, NCCL and custom all-reduce buffers after the distributed init. SGLang's `profile_max_num_token`
    /// sizes the pool from the free memory after that init, T_init = H_rt − R_init, as f · T_init − W
    /// (`kv_pool_per_gpu`; sgl-project/sglang v0.5.6 model_runner.py, docs/kv-pool.md); read by the
    /// share_of_total_static rule only. 0: none.
    bytes_t init_resident{};
    /// s, the factor the engine applies to its static fraction where the model's context exceeds
    /// `long_context_fraction_tokens`: SGLang v0.5.5+ with the aiter attention backend on ROCm multiplies
    /// mem_fraction_static by 0.85 there, even when the launch sets it (server_args.py l.1419–1422 @7ae368efd);
    /// read by the share_of_total_static rule only (`static_memory_fraction`). 0: none (f as given).
    double long_context_fraction_scale = 0;
    [[nodiscard]] constexpr bool operator==(const engine_scheduler&) const = default;
};

/// Whether engine `k` admits a sequence on the KV it uses (and preempts when the pool runs out) rather than
/// reserving its whole sequence's KV at admission: vLLM (its scheduler allocates blocks as a sequence grows,
/// `KVCacheManager.allocate_slots`, and preempts the newest when none is free: vllm/v1/core/sched/scheduler.py)
/// and SGLang do. ASSUMED for SGLang, an upper bound: its PrefillAdder (python/sglang/srt/managers/
/// schedule_policy.py, sgl-project/sglang @00550cd) also charges each running request new_token_ratio × its
/// remaining output (0.7, decaying to 0.098 over 600 steps, back up on retraction) and a new one its whole
/// max_new, so its running cap is about KV ÷ (I + O/2 + r·O/2), 3–19% below the KV-in-use room priced here
/// (docs/online-caps.md §1). TensorRT-LLM's default GUARANTEED_NO_EVICT capacity
/// scheduler reserves input + output (the reference engine is TensorRT-LLM-calibrated). The one rule every
/// scheduler reads (`with_engine_admission`, which `with_engine_defaults` and the planners — sweep, frontier,
/// fleet, rank_layouts — apply; `plan::closed_loop_limits`).
[[nodiscard]] constexpr bool admits_on_kv_in_use(engine_kind k) {
    return k == engine_kind::vllm || k == engine_kind::sglang;
}

/// How the engine runs mixture-of-experts layers.
struct engine_moe {
    bool expert_parallel = false;  ///< experts spread over ranks (EP) rather than TP-sharded
    bool attention_dp = false;     ///< attention data-parallel beside EP
    bool load_balancing = false;   ///< redundant experts placed by load (EPLB)
    /// Coefficient of variation of the experts' token shares left under the engine's load balancer
    /// (read only with `load_balancing`: EPLB places redundant experts by measured load). Without
    /// one, the busiest-rank model sees the model's own router skew (`ffn_spec::routing_skew`).
    double routing_skew = 0.0;
    /// The run's expert choice (`expert_routing`, set with `with_expert_routing`): under `uniform` the experts'
    /// shares carry no skew, the model's or the balancer's (`routing_cv`).
    expert_routing routing = expert_routing::model;
    bool busiest_rank = false;     ///< price the EP step at its busiest rank (`ep_imbalance`)
    /// Attention data parallelism's balance ratio β = mean ÷ most tokens over the attention ranks of
    /// an EP group, per iteration (the engine's scheduler decides it: which rank takes a prompt when);
    /// every rank waits for the busiest, so a step's token-proportional work is priced at 1 ÷ β of
    /// the mean rank's (`pass_model::attention_dp_busiest`). 0: not measured, every rank's step alike.
    double attention_dp_balance = 0.0;
    int mtp_draft_tokens = 0;      ///< multi-token-prediction draft tokens the engine uses by default
    /// The engine fuses a model's shared expert into its routed-expert runner and, under expert parallelism
    /// without an all-to-all (tensor-parallel attention, dp = 1: TEP), runs that fused expert whole on every EP
    /// rank (`replicated_shared_expert_share`; the DeepSeek-V3/R1 shape only, `fuses_deepseek_v3_shared_expert`).
    /// SGLang on ROCm from v0.5.5.post3 (PR #12201 aead0ef5e, 2025-11-13; before it any EP > 1 turned the fusion off,
    /// and an older ROCm TEP run has this off): `DeepseekV2ForCausalLM.determine_num_fused_shared_experts` keeps the
    /// fusion on under EP on HIP ≥ gfx942 unless the MoE uses deepep / mori, and `DeepseekV2MoE.__init__` scales its
    /// output by 1 ÷ ep because "every gpu get shared experts gemm output" (python/sglang/srt/models/deepseek_v2.py
    /// l.3271–3311, l.644–650 @00e3e6ea3, read at the HaiShaw/sglang mirror; docs/sglang-rocm-shared-expert.md).
    /// CUDA: off under EP up to v0.5.6 (l.3220–3223 @7b2fb3d47); from 2ecee7571 (PR #14432, in v0.5.6.post1
    /// 9a327bdfc) CUDA sm80+ fuses under EP too, INFERRED replicated alike, not priced: the B200 SGLang TEP rows'
    /// image (v0.5.6, 7ae368efd) predates it. false: the shared expert TP-sharded.
    bool shared_expert_ep_replicated = false;
    /// c: the time one padded m-block of the expert runner costs where the runner takes the all-to-all's whole
    /// fixed-shape receive buffer (`padded_moe_time_per_pass`): SGLang's `MoriEPMoE.forward` hands AITER's fused
    /// MoE MORI's W·C-row dispatch output with only a device-side count of the real tokens (HaiShaw/sglang@00e3e6ea3
    /// python/sglang/srt/layers/moe/ep_moe/layer.py l.591–637; ROCm/mori@2006c417 src/pybind/mori.cpp l.72–75;
    /// docs/mi355x-disagg-decode.md §6). FITTED (no figure published for DeepSeek-R1 FP8). 0: none.
    seconds_t padded_moe_block{};
    /// C: the tokens a rank may dispatch in one all-to-all, the receive buffer's rows per rank (a launch setting:
    /// SGLang `SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`, set with `with_dispatch_cap`); 0: the engine's
    /// default (`dispatch_cap`). Read only where `padded_moe_block` > 0.
    double dispatch_cap_tokens = 0.0;
    /// The MoE models whose router the engine keeps whole on every rank in BF16 (`keeps_router_whole`,
    /// `whole_router_extra_bytes_per_gpu`); none: the library's shard.
    router_whole_models router_whole_bf16 = router_whole_models::none;
    /// C the runner's buffer holds: the run's own cap, else SGLang's default (`sglang_mori_dispatch_cap_default`;
    /// the only engine whose runner is priced padded).
    [[nodiscard]] constexpr double dispatch_cap() const {
        return dispatch_cap_tokens > 0.0 ? dispatch_cap_tokens : sglang_mori_dispatch_cap_default;
    }
    [[nodiscard]] constexpr bool operator==(const engine_moe&) const = default;
};

/// What one serving engine achieves on one GPU architecture.
struct engine_profile {
    std::string_view name = "reference (TensorRT-LLM-calibrated hardware table)";
    engine_kind kind = engine_kind::reference;
    gpu_architecture architecture = gpu_architecture::any;
    std::string_view version = "";
    engine_kernels kernels{};
    engine_overheads overheads{};
    engine_collectives collectives{};
    engine_scheduler scheduler{};
    engine_moe moe{};

    /// The default engine: every multiplier 1, nothing added (see the file comment).
    [[nodiscard]] static constexpr engine_profile reference() { return {}; }

    constexpr void validate() const {
        const std::string_view s = name;
        auto multiplier = [&](double v, std::string_view field) {
            require(positive_finite(v) && v <= 10.0, s, field, v,
                    "a kernel-rate multiplier must be positive, finite and at most 10");
        };
        multiplier(kernels.gemm, "kernels.gemm");
        multiplier(kernels.grouped_gemm, "kernels.grouped_gemm");
        multiplier(kernels.attention_prefill, "kernels.attention_prefill");
        multiplier(kernels.attention_decode, "kernels.attention_decode");
        multiplier(kernels.attention_fp8, "kernels.attention_fp8");
        multiplier(kernels.mla_decode, "kernels.mla_decode");
        multiplier(kernels.elementwise, "kernels.elementwise");
        multiplier(kernels.weights, "kernels.weights");
        // A size curve e(n) = e∞·n ÷ (n + n₀) of the FP4 peak: both figures or neither (0, 0).
        struct curve_rules {
            std::string_view e_inf, n0, both;
        };
        auto fp4_curve = [&](double e_inf, double n0, std::string_view e_field, std::string_view n0_field,
                             const curve_rules& rule) {
            require(non_negative_finite(e_inf) && e_inf <= 1.0, s, e_field, e_inf, rule.e_inf);
            require(non_negative_finite(n0) && n0 <= 1e6, s, n0_field, n0, rule.n0);
            require((e_inf > 0.0) == (n0 > 0.0), s, n0_field, n0, rule.both);
        };
        fp4_curve(kernels.fp4_gemm_efficiency, kernels.fp4_gemm_half_dim, "kernels.fp4_gemm_efficiency",
                  "kernels.fp4_gemm_half_dim",
                  {"an FP4 GEMM e∞ must be 0 (the hardware's curve) or a fraction of the FP4 peak in (0, 1]",
                   "an FP4 GEMM n₀ must be 0 or positive, finite and at most 10⁶",
                   "the FP4 GEMM curve needs both its e∞ and its n₀ (or neither)"});
        fp4_curve(kernels.fp4_quant_gemm_efficiency, kernels.fp4_quant_gemm_half_dim, "kernels.fp4_quant_gemm_efficiency",
                  "kernels.fp4_quant_gemm_half_dim",
                  {"an FP4 GEMM-with-quantization e∞ must be 0 (none) or a fraction of the FP4 peak in (0, 1]",
                   "an FP4 GEMM-with-quantization n₀ must be 0 or positive, finite and at most 10⁶",
                   "the FP4 GEMM-with-quantization curve needs both its e∞ and its n₀ (or neither)"});
        fp4_curve(kernels.fp8_gemm_efficiency, kernels.fp8_gemm_half_dim, "kernels.fp8_gemm_efficiency",
                  "kernels.fp8_gemm_half_dim",
                  {"an FP8 GEMM e∞ must be 0 (the hardware's curve) or a fraction of the FP8 peak in (0, 1]",
                   "an FP8 GEMM n₀ must be 0 or positive, finite and at most 10⁶",
                   "the FP8 GEMM curve needs both its e∞ and its n₀ (or neither)"});
        fp4_curve(kernels.bf16_gemm_efficiency, kernels.bf16_gemm_half_dim, "kernels.bf16_gemm_efficiency",
                  "kernels.bf16_gemm_half_dim",
                  {"a BF16 GEMM e∞ must be 0 (the hardware's curve) or a fraction of the BF16 peak in (0, 1]",
                   "a BF16 GEMM n₀ must be 0 or positive, finite and at most 10⁶",
                   "the BF16 GEMM curve needs both its e∞ and its n₀ (or neither)"});
        // The prompts' attention curve e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀): its three figures or none
        // (read only where the engine runs the prompt kernel apart, `separate_prompt_attention`).
        require(non_negative_finite(kernels.prompt_attention_efficiency) && kernels.prompt_attention_efficiency <= 2.0, s,
                "kernels.prompt_attention_efficiency", kernels.prompt_attention_efficiency,
                "a prompt attention e∞ must be 0 (the one rate) or a fraction of the BF16 peak in (0, 2] (an FP8 kernel may pass it)");
        require(non_negative_finite(kernels.prompt_attention_half_keys) && kernels.prompt_attention_half_keys <= 1e6, s,
                "kernels.prompt_attention_half_keys", kernels.prompt_attention_half_keys,
                "a prompt attention s₀ must be 0 or positive, finite and at most 10⁶ keys");
        require(non_negative_finite(kernels.prompt_attention_half_rows) && kernels.prompt_attention_half_rows <= 1e9, s,
                "kernels.prompt_attention_half_rows", kernels.prompt_attention_half_rows,
                "a prompt attention W₀ must be 0 or positive, finite and at most 10⁹ query-head rows");
        // All three or none; the message names the figure that breaks the set (a missing s₀ or W₀, else e∞).
        const bool curve = kernels.own_prompt_attention_curve();
        if (curve && !(kernels.prompt_attention_half_keys > 0.0))
            require(false, s, "kernels.prompt_attention_half_keys", kernels.prompt_attention_half_keys,
                    "the prompt attention curve needs its e∞, s₀ and W₀ (or none)");
        if (curve && !(kernels.prompt_attention_half_rows > 0.0))
            require(false, s, "kernels.prompt_attention_half_rows", kernels.prompt_attention_half_rows,
                    "the prompt attention curve needs its e∞, s₀ and W₀ (or none)");
        require(curve || !(kernels.prompt_attention_half_keys > 0.0 || kernels.prompt_attention_half_rows > 0.0), s,
                "kernels.prompt_attention_efficiency", kernels.prompt_attention_efficiency,
                "the prompt attention curve needs its e∞, s₀ and W₀ (or none)");
        // The curve prices the prompt kernel of an engine that runs it apart; on one that does not, it
        // would be silently ignored.
        require(!curve || kernels.separate_prompt_attention, s, "kernels.prompt_attention_efficiency",
                kernels.prompt_attention_efficiency,
                "a prompt attention curve is read only with separate_prompt_attention = 1 (the prompt kernel run apart)");
        require(non_negative_finite(kernels.mixed_input_expert_gemm) && kernels.mixed_input_expert_gemm <= 1.0, s,
                "kernels.mixed_input_expert_gemm", kernels.mixed_input_expert_gemm,
                "a mixed-input expert GEMM ceiling must be 0 (none) or a fraction of the peak in (0, 1]");
        auto alignment = [&](double v, std::string_view field) {
            require(non_negative_finite(v) && v <= 4096.0 && v == detail::const_trunc(v), s, field, v,
                    "a padding multiple must be 0 (none) or a whole number of elements up to 4096");
        };
        alignment(kernels.mixed_input_hidden_align, "kernels.mixed_input_hidden_align");
        alignment(kernels.mixed_input_width_align, "kernels.mixed_input_width_align");
        require(non_negative_finite(kernels.moe_runner_kernels) && kernels.moe_runner_kernels <= 32.0 &&
                    kernels.moe_runner_kernels == detail::const_trunc(kernels.moe_runner_kernels),
                s, "kernels.moe_runner_kernels", kernels.moe_runner_kernels,
                "must be 0 (the generic seven) or a whole number of kernels up to 32");
        require(non_negative_finite(kernels.mla_attention_kernels) && kernels.mla_attention_kernels <= 64.0 &&
                    kernels.mla_attention_kernels == detail::const_trunc(kernels.mla_attention_kernels),
                s, "kernels.mla_attention_kernels", kernels.mla_attention_kernels,
                "must be 0 (the generic four) or a whole number of kernels up to 64");
        require(non_negative_finite(kernels.mla_absorbed_prefix_below.value()) &&
                    kernels.mla_absorbed_prefix_below.value() ==
                        detail::const_trunc(kernels.mla_absorbed_prefix_below.value()),
                s, "kernels.mla_absorbed_prefix_below (tokens)", kernels.mla_absorbed_prefix_below.value(),
                "the prefix total below which a continuation step runs absorbed MLA must be 0 (never) or a whole, finite "
                "number of tokens",
                mla_absorbed_prefix_rule_id);
        require(non_negative_finite(kernels.shared_expert_kernels) && kernels.shared_expert_kernels <= 16.0 &&
                    kernels.shared_expert_kernels == detail::const_trunc(kernels.shared_expert_kernels),
                s, "kernels.shared_expert_kernels", kernels.shared_expert_kernels,
                "must be 0 (none priced) or a whole number of kernels up to 16");
        require(non_negative_finite(kernels.fp8_attention_quant_kernels) && kernels.fp8_attention_quant_kernels <= 32.0 &&
                    kernels.fp8_attention_quant_kernels == detail::const_trunc(kernels.fp8_attention_quant_kernels),
                s, "kernels.fp8_attention_quant_kernels", kernels.fp8_attention_quant_kernels,
                "must be 0 (none) or a whole number of kernels a layer up to 32");
        require(non_negative_finite(kernels.cross_host_norm_kernels) && kernels.cross_host_norm_kernels <= 3.0 &&
                    kernels.cross_host_norm_kernels == detail::const_trunc(kernels.cross_host_norm_kernels),
                s, "kernels.cross_host_norm_kernels", kernels.cross_host_norm_kernels,
                "must be 0 (none) or a whole number of kernels a layer up to 3 (the norm kernels the fused all-reduce removed)");
        require(!(kernels.cross_host_norm_kernels > 0.0) ||
                    (kernels.all_reduce_norm_fusion && collectives.cross_host_all_reduce.value() > 0.0),
                s, "kernels.cross_host_norm_kernels", kernels.cross_host_norm_kernels,
                "kernels a cross-host all-reduce adds back need the in-host fused norm (all_reduce_norm_fusion) and the "
                "cross-host all-reduce's figures (cross_host_all_reduce)");
        require(kernels.fp8_expert_gemm == 0.0 || (positive_finite(kernels.fp8_expert_gemm) && kernels.fp8_expert_gemm <= 1.0),
                s, "kernels.fp8_expert_gemm", kernels.fp8_expert_gemm,
                "must be 0 (none) or a fraction in (0, 1] of the expert GEMMs' size curve");
        require(kernels.fp4_expert_gemm == 0.0 || (positive_finite(kernels.fp4_expert_gemm) && kernels.fp4_expert_gemm <= 1.0),
                s, "kernels.fp4_expert_gemm", kernels.fp4_expert_gemm,
                "must be 0 (none) or a fraction in (0, 1] of the expert GEMMs' size curve");
        require(!(kernels.fp4_quant_gemm_efficiency > 0.0) || kernels.own_fp4_curve(), s,
                "kernels.fp4_quant_gemm_efficiency", kernels.fp4_quant_gemm_efficiency,
                "a curve with the quantization needs the engine's FP4 GEMM curve without it (fp4_gemm_efficiency)");
        require(non_negative_finite(kernels.wide_dense_max_tokens) && kernels.wide_dense_max_tokens <= 1e6, s,
                "kernels.wide_dense_max_tokens", kernels.wide_dense_max_tokens,
                "must be 0 (never) or the most tokens a step has for its dense GEMMs to run 16-bit, finite, at most 10⁶");
        require(kernels.fp8_gemm_tile_rows == 0.0 || kernels.fp8_gemm_tile_rows == 64.0 || kernels.fp8_gemm_tile_rows == 128.0 ||
                    kernels.fp8_gemm_tile_rows == 256.0 || kernels.fp8_gemm_tile_rows == 512.0 ||
                    kernels.fp8_gemm_tile_rows == 1024.0,
                s, "kernels.fp8_gemm_tile_rows", kernels.fp8_gemm_tile_rows,
                "must be 0 (the hardware's padding) or a power of two of rows from 64 to 1024");
        require(non_negative_finite(kernels.expert_tile_rows) && kernels.expert_tile_rows <= 1024.0 &&
                    kernels.expert_tile_rows == detail::const_trunc(kernels.expert_tile_rows),
                s, "kernels.expert_tile_rows", kernels.expert_tile_rows,
                "must be 0 (the hardware's padding) or a whole number of rows up to 1024");
        auto time = [&](seconds_t t, std::string_view field, double limit, std::string_view rule) {
            require(non_negative_finite(t.value()) && t.value() < limit, s, field, t.value(), rule);
        };
        time(overheads.step, "overheads.step (s)", 1.0, "a per-step host overhead must be in [0, 1 s)");
        time(overheads.request, "overheads.request (s)", 10.0,
             "a per-request front-end latency must be in [0, 10 s)");
        time(overheads.launch_eager, "overheads.launch_eager (s)", 1e-3, "a per-kernel overhead must be in [0, 1 ms)");
        time(overheads.launch_graph, "overheads.launch_graph (s)", 1e-3, "a per-kernel overhead must be in [0, 1 ms)");
        time(overheads.prefill_launch, "overheads.prefill_launch (s)", 1e-3,
             "a per-kernel overhead of a prompt step must be in [0, 1 ms)");
        time(overheads.host_enqueue, "overheads.host_enqueue (s)", 1e-3,
             "a per-kernel host enqueue time must be in [0, 1 ms)");
        time(overheads.cold_start, "overheads.cold_start (s)", 600.0,
             "a benchmark run's cold opening must be in [0, 600 s)");
        time(overheads.cold_prompt_token, "overheads.cold_prompt_token (s)", 1e-3,
             "a cold opening's cost per prompt token must be in [0, 1 ms)");
        time(overheads.first_use_build, "overheads.first_use_build (s)", 600.0,
             "a benchmark run's first-use kernel build must be in [0, 600 s)");
        // Named in µs, the unit of its table column (`prefill_request_us`): a figure of a second or more is no host work.
        require(non_negative_finite(overheads.prefill_request.value()) && overheads.prefill_request.value() < 1.0, s,
                "overheads.prefill_request (us)", overheads.prefill_request.value() * 1e6,
                "a per-request host time of a serial prompt step must be in [0, 1 s)");
        // Named in µs, the unit of their table columns (`v0_pass_us`, `v0_pass_rank_us`, `v0_pass_sequence_us`).
        require(non_negative_finite(overheads.v0_pass.value()) && overheads.v0_pass.value() < 1.0, s,
                "overheads.v0_pass (us)", overheads.v0_pass.value() * 1e6,
                "a V0 scheduler pass's fixed host time must be in [0, 1 s)");
        require(non_negative_finite(overheads.v0_pass_rank.value()) && overheads.v0_pass_rank.value() < 1.0, s,
                "overheads.v0_pass_rank (us)", overheads.v0_pass_rank.value() * 1e6,
                "a V0 scheduler pass's host time per TP rank beyond the first must be in [0, 1 s)");
        require(non_negative_finite(overheads.v0_pass_sequence.value()) && overheads.v0_pass_sequence.value() < 1e-2, s,
                "overheads.v0_pass_sequence (us)", overheads.v0_pass_sequence.value() * 1e6,
                "a V0 scheduler pass's host time per sequence must be in [0, 10 ms)");
        require(non_negative_finite(overheads.v0_output_token.value()) && overheads.v0_output_token.value() < 1e-2, s,
                "overheads.v0_output_token (us)", overheads.v0_output_token.value() * 1e6,
                "V0's output processing per sequence-step must be in [0, 10 ms)");
        require(overheads.v0_steps_per_pass >= 1.0 && overheads.v0_steps_per_pass <= 1e6, s,
                "overheads.v0_steps_per_pass", overheads.v0_steps_per_pass,
                "the steps a V0 scheduler pass schedules must be in [1, 1e6] (num_scheduler_steps)");
        require_word(!overheads.v0_loop || kind == engine_kind::vllm, s, "engine", to_string(kind), v0_loop_rule);
        time(collectives.all_reduce_latency, "collectives.all_reduce_latency (s)", 1e-2,
             "an all-reduce latency must be in [0, 10 ms)");
        require(non_negative_finite(collectives.custom_all_reduce_max.value()), s,
                "collectives.custom_all_reduce_max (B)", collectives.custom_all_reduce_max.value(),
                "must be zero or positive and finite");
        require(non_negative_finite(collectives.custom_all_reduce_max_2_ranks.value()), s,
                "collectives.custom_all_reduce_max_2_ranks (B)", collectives.custom_all_reduce_max_2_ranks.value(),
                "must be zero or positive and finite");
        require(collectives.all_reduce_latency.value() == 0.0 || collectives.custom_all_reduce_max.value() > 0.0, s,
                "collectives.custom_all_reduce_max (B)", collectives.custom_all_reduce_max.value(),
                "a custom all-reduce latency needs the largest message it runs (positive)");
        require(non_negative_finite(collectives.custom_all_reduce_bus.value()), s,
                "collectives.custom_all_reduce_bus (B/s)", collectives.custom_all_reduce_bus.value(),
                "a bus bandwidth must be zero (the link's) or positive and finite");
        require(collectives.custom_all_reduce_bus.value() == 0.0 || collectives.all_reduce_latency.value() > 0.0, s,
                "collectives.custom_all_reduce_bus (B/s)", collectives.custom_all_reduce_bus.value(),
                "a custom all-reduce bus bandwidth needs the custom kernel's latency (positive)");
        time(collectives.cross_host_all_reduce, "collectives.cross_host_all_reduce (s)", 1e-2,
             "a cross-host all-reduce's fixed time must be in [0, 10 ms)");
        require(non_negative_finite(collectives.cross_host_all_reduce_bus.value()), s,
                "collectives.cross_host_all_reduce_bus (B/s)", collectives.cross_host_all_reduce_bus.value(),
                "a bus bandwidth must be zero (none) or positive and finite");
        require((collectives.cross_host_all_reduce.value() > 0.0) == (collectives.cross_host_all_reduce_bus.value() > 0.0), s,
                "collectives.cross_host_all_reduce_bus (B/s)", collectives.cross_host_all_reduce_bus.value(),
                "the cross-host all-reduce needs both its fixed time and its bus bandwidth (or neither)");
        require(non_negative_finite(collectives.cross_host_all_reduce_max.value()) &&
                    (collectives.cross_host_all_reduce_max.value() == 0.0 || collectives.cross_host_all_reduce.value() > 0.0),
                s, "collectives.cross_host_all_reduce_max (B)", collectives.cross_host_all_reduce_max.value(),
                "a cross-host all-reduce's largest message must be 0 (no bound) or positive and finite, and needs its "
                "fixed time (cross_host_all_reduce)");
        time(collectives.custom_all_reduce_large, "collectives.custom_all_reduce_large (s)", 1e-2,
             "a custom all-reduce's large-message fixed time must be in [0, 10 ms)");
        require(non_negative_finite(collectives.custom_all_reduce_large_bus.value()) &&
                    non_negative_finite(collectives.custom_all_reduce_large_min.value()),
                s, "collectives.custom_all_reduce_large_bus (B/s)", collectives.custom_all_reduce_large_bus.value(),
                "a custom all-reduce's large-message bus bandwidth and smallest message must be zero (none) or positive and finite");
        {
            const bool any = collectives.custom_all_reduce_large.value() > 0.0 || collectives.custom_all_reduce_large_bus.value() > 0.0 ||
                             collectives.custom_all_reduce_large_min.value() > 0.0;
            const bool all = collectives.custom_all_reduce_large.value() > 0.0 && collectives.custom_all_reduce_large_bus.value() > 0.0 &&
                             collectives.all_reduce_latency.value() > 0.0 &&
                             collectives.custom_all_reduce_large_min.value() < collectives.custom_all_reduce_max.value();
            // The refusal names the first piece missing (review s40b N1): the fixed time, the bus, the custom kernel,
            // else the smallest message (at or above the kernel's largest).
            std::string_view field = "collectives.custom_all_reduce_large_min (B)";
            double value = collectives.custom_all_reduce_large_min.value();
            if (collectives.custom_all_reduce_large.value() <= 0.0) {
                field = "collectives.custom_all_reduce_large (s)";
                value = collectives.custom_all_reduce_large.value();
            } else if (collectives.custom_all_reduce_large_bus.value() <= 0.0) {
                field = "collectives.custom_all_reduce_large_bus (B/s)";
                value = collectives.custom_all_reduce_large_bus.value();
            } else if (collectives.all_reduce_latency.value() <= 0.0) {
                field = "collectives.all_reduce_latency (s)";
                value = collectives.all_reduce_latency.value();
            }
            require(any == all, s, field, value,
                    "the custom kernel's large-message curve needs its fixed time, its bus bandwidth, the custom kernel "
                    "(all_reduce_latency) and a smallest message below the kernel's largest (custom_all_reduce_max), or none of them");
        }
        time(collectives.quick_reduce_all_reduce, "collectives.quick_reduce_all_reduce (s)", 1e-2,
             "a quantized all-reduce's fixed time must be in [0, 10 ms)");
        require(non_negative_finite(collectives.quick_reduce_bus.value()) && non_negative_finite(collectives.quick_reduce_min.value()) &&
                    non_negative_finite(collectives.quick_reduce_max.value()),
                s, "collectives.quick_reduce_bus (B/s)", collectives.quick_reduce_bus.value(),
                "a quantized all-reduce's bus bandwidth and message bounds must be zero (none) or positive and finite");
        {
            const bool any = collectives.quick_reduce_all_reduce.value() > 0.0 || collectives.quick_reduce_bus.value() > 0.0 ||
                             collectives.quick_reduce_max.value() > 0.0;
            const bool all = collectives.has_quick_reduce_curve();
            require(any == all, s, "collectives.quick_reduce_max (B)", collectives.quick_reduce_max.value(),
                    "the quantized all-reduce needs its fixed time, its bus bandwidth and a largest message above its "
                    "smallest (or none of them)");
            require(!any || architecture == gpu_architecture::cdna3 || architecture == gpu_architecture::cdna4, s,
                    "collectives.quick_reduce_all_reduce (s)", collectives.quick_reduce_all_reduce.value(),
                    "QuickReduce is ROCm's (gfx94/gfx95: CDNA 3 and CDNA 4); no other architecture runs it");
            require(!collectives.quick_reduce || all, s, "collectives.quick_reduce", 1.0,
                    "a run that turns the quantized all-reduce on needs the profile's curve (quick_reduce_all_reduce, "
                    "quick_reduce_bus, quick_reduce_max)");
        }
        time(collectives.all_to_all_latency, "collectives.all_to_all_latency (s)", 1e-2,
             "an all-to-all latency must be in [0, 10 ms)");
        time(collectives.library_all_reduce, "collectives.library_all_reduce (s)", 1e-2,
             "a collective library's all-reduce fixed time must be in [0, 10 ms)");
        require(non_negative_finite(collectives.library_all_reduce_bus.value()), s,
                "collectives.library_all_reduce_bus (B/s)", collectives.library_all_reduce_bus.value(),
                "a bus bandwidth must be zero (the link model) or positive and finite");
        time(collectives.gather_latency, "collectives.gather_latency (s)", 1e-2,
             "an all-gather's fixed time must be in [0, 10 ms)");
        time(collectives.gather_latency_per_rank, "collectives.gather_latency_per_rank (s)", 1e-2,
             "an all-gather's fixed time per rank must be in [0, 10 ms)");
        require(non_negative_finite(collectives.gather_bus.value()), s, "collectives.gather_bus (B/s)",
                collectives.gather_bus.value(), "a bus bandwidth must be zero (the link model) or positive and finite");
        require((collectives.gather_latency.value() > 0.0 || collectives.gather_latency_per_rank.value() > 0.0) ==
                    (collectives.gather_bus.value() > 0.0),
                s, "collectives.gather_bus (B/s)", collectives.gather_bus.value(),
                "the library all-gather needs a fixed time (a0 or a1 above 0) and its bus bandwidth, or neither");
        require((collectives.library_all_reduce.value() > 0.0) == (collectives.library_all_reduce_bus.value() > 0.0), s,
                "collectives.library_all_reduce_bus (B/s)", collectives.library_all_reduce_bus.value(),
                "the library all-reduce needs both its fixed time and its bus bandwidth (or neither)");
        require(non_negative_finite(scheduler.max_sequences), s, "scheduler.max_sequences", scheduler.max_sequences,
                "must be 0 (no cap) or positive and finite");
        require(non_negative_finite(scheduler.max_batched_tokens), s, "scheduler.max_batched_tokens",
                scheduler.max_batched_tokens, "must be 0 (no cap) or positive and finite");
        require(non_negative_finite(scheduler.chunk.value()), s, "scheduler.chunk (tokens)", scheduler.chunk.value(),
                "must be 0 or positive and finite");
        require(!scheduler.chunked_prefill || scheduler.chunk.value() >= 1.0, s, "scheduler.chunk (tokens)",
                scheduler.chunk.value(), "chunked prefill needs a chunk of at least one token");
        require(is_memory_fraction(scheduler.kv_memory_fraction), s, "scheduler.kv_memory_fraction",
                scheduler.kv_memory_fraction, memory_fraction_rule);
        require_overlap_lag(s, "scheduler.overlap_schedule_steps", scheduler.overlap_schedule_steps);
        if (!non_negative_finite(scheduler.init_resident.value()))
            refuse_init_resident(s, scheduler.init_resident, "the memory resident at init must be 0 (none) or positive and finite");
        require(scheduler.long_context_fraction_scale == 0.0 ||
                    (scheduler.long_context_fraction_scale > 0.0 && scheduler.long_context_fraction_scale <= 1.0 &&
                     scheduler.kv_pool == kv_pool_rule::share_of_total_static),
                s, "scheduler.long_context_fraction_scale", scheduler.long_context_fraction_scale,
                "the long-context factor on the static fraction must be 0 (none) or in (0, 1], on an engine whose KV pool "
                "rule is share_of_total_static (SGLang)");
        if (scheduler.init_resident.value() != 0.0 && scheduler.kv_pool != kv_pool_rule::share_of_total_static)
            refuse_init_resident(s, scheduler.init_resident,
                                 "the memory resident at init is subtracted by the share_of_total_static rule (SGLang) "
                                 "only: 0 on an engine whose pool rule is another");
        require(scheduler.kv_block_tokens == 0.0 || is_kv_block_size(scheduler.kv_block_tokens), s,
                "scheduler.kv_block_tokens", scheduler.kv_block_tokens,
                "must be 0 (not paged) or a whole number of tokens per KV block, from 1 to 65,536",
                kv_block_size_rule_id);
        {
            const engine_non_kv_memory& n = scheduler.non_kv;
            // Each entry named by its index, so a table's refusal points at its own column (TP 1, 2, 4, 8).
            constexpr std::string_view dense[] = {
                "scheduler.non_kv.dense[0] (activation coefficient, TP 1)", "scheduler.non_kv.dense[1] (activation coefficient, TP 2)",
                "scheduler.non_kv.dense[2] (activation coefficient, TP 4)", "scheduler.non_kv.dense[3] (activation coefficient, TP 8)"};
            constexpr std::string_view moe[] = {
                "scheduler.non_kv.moe[0] (activation coefficient, TP 1)", "scheduler.non_kv.moe[1] (activation coefficient, TP 2)",
                "scheduler.non_kv.moe[2] (activation coefficient, TP 4)", "scheduler.non_kv.moe[3] (activation coefficient, TP 8)"};
            constexpr std::string_view nccl[] = {
                "scheduler.non_kv.communication[0] (B, TP 1)", "scheduler.non_kv.communication[1] (B, TP 2)",
                "scheduler.non_kv.communication[2] (B, TP 4)", "scheduler.non_kv.communication[3] (B, TP 8)"};
            for (std::size_t i = 0; i < 4; ++i) {
                require(non_negative_finite(n.dense[i]) && (n.dense[i] > 0.0) == n.given(), s, dense[i], n.dense[i],
                        "coefficients at TP 1, 2, 4, 8 are all positive and finite (or all 0: not given)");
                require(non_negative_finite(n.moe[i]) && (n.moe[i] > 0.0) == n.given(), s, moe[i], n.moe[i],
                        "coefficients at TP 1, 2, 4, 8 are all positive and finite (or all 0: not given)");
                require(non_negative_finite(n.communication[i].value()), s, nccl[i], n.communication[i].value(),
                        "must be zero or positive and finite");
            }
            require(!n.given() || scheduler.max_batched_tokens >= 1.0, s, "scheduler.max_batched_tokens",
                    scheduler.max_batched_tokens,
                    "an engine with its own non-KV memory sizes the activations for its tokens per step: at least 1");
            require(non_negative_finite(n.min_activations.value()), s, "scheduler.non_kv.min_activations (B)",
                    n.min_activations.value(), "must be zero or positive and finite");
            require(non_negative_finite(n.runtime.value()), s, "scheduler.non_kv.runtime (B)", n.runtime.value(),
                    "must be zero or positive and finite");
            if (!n.given()) {  // without coefficients the engine keeps the flat 2 GB: any other figure would be ignored
                const char* rule = "given without activation coefficients (the dense and MoE columns): all 0, or give them";
                require(n.min_activations.value() == 0.0, s, "scheduler.non_kv.min_activations (B)", n.min_activations.value(), rule);
                require(n.runtime.value() == 0.0, s, "scheduler.non_kv.runtime (B)", n.runtime.value(), rule);
                require(n.activation_overhead == 0.0, s, "scheduler.non_kv.activation_overhead", n.activation_overhead, rule);
                require(n.runtime_overhead == 0.0, s, "scheduler.non_kv.runtime_overhead", n.runtime_overhead, rule);
                for (std::size_t i = 0; i < 4; ++i)
                    require(n.communication[i].value() == 0.0, s, nccl[i], n.communication[i].value(), rule);
            }
            require(non_negative_finite(n.activation_overhead) && n.activation_overhead < 1.0, s,
                    "scheduler.non_kv.activation_overhead", n.activation_overhead, "a share in [0, 1)");
            require(non_negative_finite(n.runtime_overhead) && n.runtime_overhead < 1.0, s,
                    "scheduler.non_kv.runtime_overhead", n.runtime_overhead, "a share in [0, 1)");
        }
        require(non_negative_finite(moe.routing_skew) && moe.routing_skew <= 10.0, s, "moe.routing_skew",
                moe.routing_skew, "a coefficient of variation must be in [0, 10]");
        require(non_negative_finite(moe.attention_dp_balance) && moe.attention_dp_balance <= 1.0, s,
                "moe.attention_dp_balance", moe.attention_dp_balance,
                "a balance ratio (mean ÷ most tokens per attention rank) must be 0 (not measured) or in (0, 1]");
        require(moe.mtp_draft_tokens >= 0 && moe.mtp_draft_tokens <= 16, s, "moe.mtp_draft_tokens",
                moe.mtp_draft_tokens, "must be in [0, 16]");
        require(non_negative_finite(moe.padded_moe_block.value()) && moe.padded_moe_block.value() < 1e-6, s,
                "moe.padded_moe_block (ns)", moe.padded_moe_block.value() * 1e9,
                "a padded m-block's time must be in [0, 1 us)");
        require(moe.dispatch_cap_tokens == 0.0 || is_dispatch_cap(moe.dispatch_cap_tokens), s, "moe.dispatch_cap_tokens",
                moe.dispatch_cap_tokens, dispatch_cap_rule);
    }

    /// The rules that need the GPU: a kernel rate times the hardware's fraction may not pass the
    /// datasheet (fraction × multiplier ≤ 1).
    constexpr void validate_on(double hbm_fraction, double matmul_fraction, double attention_fraction) const {
        const std::string_view s = name;
        auto within = [&](double product, double m, std::string_view field) {
            require(product <= 1.0 + 1e-12, s, field, m,
                    "times the hardware's achievable fraction it passes the datasheet figure (> 1)");
        };
        within(kernels.gemm * matmul_fraction, kernels.gemm, "kernels.gemm");
        within(kernels.gemm * kernels.grouped_gemm * matmul_fraction, kernels.grouped_gemm, "kernels.grouped_gemm");
        within(kernels.gemm * kernels.fp4_gemm_efficiency, kernels.gemm, "kernels.gemm (with fp4_gemm_efficiency)");
        within(kernels.gemm * kernels.fp4_quant_gemm_efficiency, kernels.gemm, "kernels.gemm (with fp4_quant_gemm_efficiency)");
        within(kernels.attention_prefill * attention_fraction * detail::max(kernels.mla_decode, kernels.attention_fp8),
               detail::max(kernels.mla_decode, kernels.attention_fp8), "kernels.mla_decode / attention_fp8");
        within(kernels.attention_decode * hbm_fraction, kernels.attention_decode, "kernels.attention_decode");
        within(kernels.elementwise * hbm_fraction, kernels.elementwise, "kernels.elementwise");
        within(kernels.weights * hbm_fraction, kernels.weights, "kernels.weights");
    }
    [[nodiscard]] constexpr bool operator==(const engine_profile&) const = default;
};

/// `e` with the f of its KV pool rule set to `fraction`, the run's own launch flag (vLLM
/// --gpu-memory-utilization, SGLang --mem-fraction-static, TensorRT-LLM free_gpu_memory_fraction;
/// the reference engine: f of its share_of_total rule, 0.95 unset), read by `e`'s own rule
/// (`kv_pool_rule`; docs/kv-pool.md). The one way a run's flag reaches an engine: a measurement row
/// (`plan::on_engine`), `llmcost --kv-memory-fraction` and the Python keyword `kv_memory_fraction=`.
[[nodiscard]] constexpr engine_profile with_kv_memory_fraction(engine_profile e, double fraction) {
    require(is_memory_fraction(fraction), e.name, "kv_memory_fraction", fraction, memory_fraction_rule);
    e.scheduler.kv_memory_fraction = fraction;
    return e;
}


/// `e` with its paged KV cache's block size set to the run's own (vLLM `block_size`, TensorRT-LLM
/// `tokens_per_block`, SGLang `page_size`): every sequence then holds whole blocks (`kv_block_slots`). The
/// ways a run's block size reaches an engine: a measurement row (`plan::on_engine`) or the CLI's --kv-block-tokens.
[[nodiscard]] constexpr engine_profile with_kv_block_tokens(engine_profile e, double tokens_per_block) {
    require(is_kv_block_size(tokens_per_block), e.name, "kv_block_tokens", tokens_per_block, kv_block_size_rule,
            kv_block_size_rule_id);
    e.scheduler.kv_block_tokens = tokens_per_block;
    return e;
}

/// `e` with the per-rank all-to-all dispatch cap set to the run's own (SGLang
/// `SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`): the padded expert runner's buffer rows per rank
/// (`padded_moe_time_per_pass`). The ways a run's cap reaches an engine: a measurement row (`plan::on_engine`).
[[nodiscard]] constexpr engine_profile with_dispatch_cap(engine_profile e, double tokens) {
    require(is_dispatch_cap(tokens), e.name, "a2a_dispatch_cap_tokens", tokens, dispatch_cap_rule);
    e.moe.dispatch_cap_tokens = tokens;
    return e;
}

/// `e` with the run's expert choice (`expert_routing`: SGLang `--ep-dispatch-algorithm fake` on its all-to-all MoE
/// path draws every token's experts uniformly at random). The ways a run's routing reaches an engine: a measurement
/// row (`plan::on_engine`, tables/measurements.csv's `expert_routing`).
[[nodiscard]] constexpr engine_profile with_expert_routing(engine_profile e, expert_routing r) noexcept {
    e.moe.routing = r;
    return e;
}

/// `e` running vLLM's V0 LLMEngine loop (`engine_overheads::v0_loop`: each scheduler pass's host time
/// a0 + a1 (tp - 1) + h n priced, docs/vllm-v0-host-loop.md), or refused naming the caller's fields: an engine
/// other than vLLM (`engine_field` = its kind, `v0_loop_rule`), and a profile whose V0 pass figures a0, a1, h are all 0
/// (`host_loop_field` = v0: the loop would price as V1; only vLLM on Hopper's are fitted). The one way a launch's
/// V0 loop reaches an engine: `llmcost --host-loop v0` and the Python keyword host_loop='v0' (kv refuses both:
/// `kv_prices_no_host_loop`). The per-token output processing h_t (`v0_output_token`) is never paid through it:
/// only V0 with CUDA graphs off pays it (`v0_output_sync`), and neither the CLI nor Python turns the profile's graphs
/// off (a measured row's `cuda_graphs` 0 does), so neither checks nor prices h_t; vLLM on Hopper's is 0 anyway.
[[nodiscard]] constexpr engine_profile with_v0_loop(engine_profile e, std::string_view engine_field,
                                                    std::string_view host_loop_field) {
    require_word(e.kind == engine_kind::vllm, e.name, engine_field, to_string(e.kind), v0_loop_rule);
    const engine_overheads& h = e.overheads;
    require_word(h.v0_pass.value() + h.v0_pass_rank.value() + h.v0_pass_sequence.value() > 0.0, e.name, host_loop_field,
                 "v0",
                 "this profile has no V0 scheduler-pass figures (v0_pass_us, v0_pass_rank_us, v0_pass_sequence_us "
                 "in tables/engines.csv: only vLLM on Hopper's are fitted; docs/vllm-v0-host-loop.md), so the "
                 "V0 loop would price as V1 (its per-token output processing, v0_output_token_us, is paid only with "
                 "CUDA graphs off, which this switch leaves on)");
    e.overheads.v0_loop = true;
    return e;
}

/// How a refusal of the switch reads its value 1 (the message shows "`field` = 1"): the switch on, INT4, the way the
/// user typed it (--quick-reduce int4, quick_reduce="int4", a row's int4).
inline constexpr std::string_view quick_reduce_on = "(1: on, INT4) ";

/// The rule of a run that turns the engine's quantized all-reduce on, before its profile is known (a measured row's
/// load checks it): the engine SGLang, whose GroupCoordinator runs QuickReduce (ROCM_QUICK_REDUCE_QUANTIZATION;
/// sgl-project/sglang @054be181 python/sglang/srt/distributed/device_communicators/quick_all_reduce.py), on a TP
/// group of 2, 4 or 8 ranks (_SUPPORTED_WORLD_SIZES). `field` names the run's switch in the caller's words (a row's
/// `quick_reduce`, the CLI's --quick-reduce, Python's quick_reduce=); the TP refusal names "`field` at tp". tp 0: an
/// engine laid out many ways (a sweep's), each deployment's TP group checked by `deployment::validate`.
constexpr void require_quick_reduce_run(engine_kind k, int tp, std::string_view subject, std::string_view field) {
    if (k != engine_kind::sglang)  // its own value: the switch, the engine named in the rule
        require(false, subject, field, 1.0,
                std::string(quick_reduce_on) +
                    "QuickReduce is priced under SGLang, the engine whose profile carries its curve; the engine is '" +
                    std::string(to_string(k)) + "'",
                "llmcost.quick_reduce.engine");
    if (tp != 0 && tp != 2 && tp != 4 && tp != 8)
        require(false, subject, std::string(field) + " at tp", static_cast<double>(tp),
                "QuickReduce runs on a TP group of 2, 4 or 8 ranks (quick_all_reduce.py _SUPPORTED_WORLD_SIZES)",
                "llmcost.quick_reduce.tp");
}

/// Whether the quantized all-reduce switch is inert in a layout of `tp` TP ranks: tp 1 has no TP all-reduce in the
/// cost model (costs/passes.hpp prices QuickReduce only where tp > 1), so the switch moves nothing there. The one
/// test behind plan's keeping its tp-1 layouts under --quick-reduce (`sweep_grid::quick_reduce_tp_groups_only`, the
/// CLI's every-GPU walk). Not SGLang's own rule: its DP-attention gather all-reduce is not priced
/// (docs/cdna-all-reduce.md §7).
[[nodiscard]] constexpr bool quick_reduce_inert_at(int tp) { return tp <= 1; }

/// `e` with the quantized all-reduce turned on for a run on a TP group of `tp` ranks (`engine_collectives::quick_reduce`:
/// SGLang's QuickReduce INT4, priced on the profile's curve t = a + 2(n-1)/n * S / B_bus for 2 MiB <= S <= 2 GiB,
/// docs/cdna-all-reduce.md §7), or refused naming `field`: `require_quick_reduce_run` first (an engine other than
/// SGLang is told so, not that its profile lacks the curve), then a profile without the curve (the engine named). The one way a run's switch reaches an engine: a measured row (`plan::on_engine`),
/// `llmcost --quick-reduce int4` and the Python keyword quick_reduce="int4".
[[nodiscard]] constexpr engine_profile with_quick_reduce(engine_profile e, int tp, std::string_view subject,
                                                         std::string_view field) {
    require_quick_reduce_run(e.kind, tp, subject, field);
    if (!e.collectives.has_quick_reduce_curve())
        require(false, subject, field, 1.0,
                std::string(quick_reduce_on) +
                    "the run's quantized all-reduce (QuickReduce INT4) needs a profile with its curve (quick_reduce_us, "
                    "quick_reduce_bus_GBps in tables/engines.csv); the engine '" + std::string(e.name) + "' has none",
                "llmcost.quick_reduce.curve");
    e.collectives.quick_reduce = true;
    return e;
}

/// A sweep's engines (one per GPU; none: the sweep's reference engine on each of `gpus`, which the rule refuses) with the
/// quantized all-reduce turned on (`with_quick_reduce` at tp 0: each layout's TP group is `deployment::validate`'s, a
/// layout it refuses left out of the sweep), or the first refusal naming `field`. The one way a sweep's switch reaches
/// its engines: `llmcost frontier|plan --quick-reduce int4` and Python's sweep/frontier/plan(quick_reduce="int4").
[[nodiscard]] constexpr std::vector<engine_profile> quick_reduce_engines(std::vector<engine_profile> engines,
                                                                         std::size_t gpus, std::string_view field) {
    if (engines.empty()) engines.assign(gpus, engine_profile::reference());
    for (engine_profile& e : engines) e = with_quick_reduce(e, 0, e.name, field);
    return engines;
}

}  // namespace llmcost
