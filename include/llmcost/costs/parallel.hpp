#pragma once
/// \file
/// Where a model runs: the parallel layout and the per-GPU shards it implies.
///
/// Conventions (those of Megatron-LM, vLLM and TensorRT-LLM):
/// - A replica spans tp × pp GPUs: tensor parallelism splits every layer's heads and FFN width,
///   pipeline parallelism splits the layers into pp stages.
/// - Dense models: dp independent replicas.
/// - MoE models with ep > 1: the tp × dp GPUs of each stage form one expert-parallel group
///   (DeepSeek's and TensorRT-LLM's "attention DP + EP" layouts, e.g. 8 GPUs, dp 8, ep 8):
///   attention runs data-parallel over dp ranks (each tp-way), the routed experts are spread over
///   all tp·dp GPUs of the stage, ep-way by expert and tp·dp/ep-way inside each expert.
/// - TP beyond the KV-head count replicates KV heads: each GPU still holds at least one.
/// - A group inside one scale-up domain talks over the scale-up link; a larger group is limited
///   by the scale-out NIC.

#include <llmcost/descriptors/engine.hpp>
#include <llmcost/descriptors/gemm_table.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/model.hpp>
#include <llmcost/descriptors/validation.hpp>

#include <optional>

namespace llmcost {

struct parallel_layout {
    int tp = 1;  ///< tensor parallel
    int pp = 1;  ///< pipeline parallel
    int ep = 1;  ///< expert parallel (MoE)
    int dp = 1;  ///< data parallel: replicas (dense) or attention-DP ranks (MoE with ep > 1)

    [[nodiscard]] constexpr int gpus() const { return tp * pp * dp; }
    [[nodiscard]] constexpr bool operator==(const parallel_layout&) const = default;
};

/// A model served on hardware with a layout by an engine: the input of every cost formula. The
/// engine defaults to `engine_profile::reference()`, the idealised engine of the hardware table
/// (descriptors/engine.hpp); name a catalog profile (catalog/engines.hpp) to price vLLM or SGLang.
struct deployment {
    model m;
    hardware hw;
    parallel_layout layout{};
    engine_profile engine = engine_profile::reference();
    /// A measured GEMM table the engine loads for the dense projections and the clock the run holds
    /// (descriptors/gemm_table.hpp; catalog/gemm_tables.hpp); none by default: the size curve prices them.
    gemm_tuning gemm{};

    /// MoE served as one expert-parallel instance across the dp ranks.
    [[nodiscard]] constexpr bool expert_parallel() const { return m.is_moe() && layout.ep > 1; }
    /// GPUs of one serving instance (a replica, or the whole EP group).
    [[nodiscard]] constexpr int instance_gpus() const {
        return expert_parallel() ? layout.gpus() : layout.tp * layout.pp;
    }
    /// Independent instances: dp for dense, 1 for an EP group.
    [[nodiscard]] constexpr int instances() const { return expert_parallel() ? 1 : layout.dp; }
    /// Sequences batched by one attention rank see their own KV; this many ranks share a pass.
    [[nodiscard]] constexpr int attention_ranks() const { return expert_parallel() ? layout.dp : 1; }
    /// Attention data-parallel across the EP group (ep > 1, dp > 1): each rank attends its own tokens, so the MoE
    /// exchanges them (an all-to-all, `detail::all_to_all_seconds_per_pass`, or a gather, `moe_gathers_tokens`).
    /// dp = 1 under EP is tensor-parallel attention (TEP): every rank holds every token, no exchange. An engine's
    /// DP attention without an all-to-all backend (SGLang's gather path) cannot be written apart from it here.
    [[nodiscard]] constexpr bool attention_data_parallel() const { return expert_parallel() && layout.dp > 1; }

    /// The link a group of `ranks` GPUs uses: scale-up when it fits in one domain, else the NIC.
    [[nodiscard]] constexpr const interconnect& link_for(int ranks) const {
        return ranks <= hw.scale_up_domain ? hw.scale_up : hw.scale_out;
    }

    /// The rules of a deployment that exists, each with its stable id (docs/troubleshooting.md).
    constexpr void validate() const {
        m.validate();
        hw.validate();
        engine.validate();
        engine.validate_on(hw.gpu.efficiency.hbm, hw.gpu.efficiency.matmul, hw.gpu.efficiency.attention);
        const std::string_view s = m.name;
        const parallel_layout& l = layout;
        require(l.tp >= 1, s, "layout.tp", l.tp, "tensor parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
        require(l.pp >= 1, s, "layout.pp", l.pp, "pipeline parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
        require(l.ep >= 1, s, "layout.ep", l.ep, "expert parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
        require(l.dp >= 1, s, "layout.dp", l.dp, "data parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
        // gpus() is an int product: bound it before it can wrap.
        require(static_cast<double>(l.tp) * l.pp * l.dp <= 1e9, s, "layout.tp × pp × dp",
                static_cast<double>(l.tp) * l.pp * l.dp, "more than 10^9 GPUs in one deployment",
                "llmcost.layout.gpu_count");
        require(l.pp <= m.layers, s, "layout.pp", l.pp, "cannot exceed the model's layers", "llmcost.layout.pp_within_layers");
        require(hw.gpu.peak(m.activations.compute).value() > 0, hw.name, "dense peak for the matmul format (FLOP/s)",
                hw.gpu.peak(m.activations.compute).value(),
                "this GPU has no published rate for the model's matmul precision (nor a wider one): "
                "serve it in a format the GPU has a peak for (e.g. with_formats(d, formats::nvfp4, …))",
                "llmcost.deployment.peak_for_format");
        if (m.excluded.any())
            require(hw.gpu.peak(m.excluded.format.compute).value() > 0, hw.name, "dense peak for the excluded modules' format (FLOP/s)",
                    hw.gpu.peak(m.excluded.format.compute).value(),
                    "this GPU has no published rate for the format the checkpoint keeps its excluded modules in",
                    "llmcost.deployment.peak_for_format");
        if (gemm.table != nullptr) {
            gemm.table->check_fits(m, hw.gpu.name, l.tp);
            if (gemm.run_clock_MHz != 0.0)  // 0: the table's own clock
                require_engine_clock(gemm.table->id, "gemm.run_clock_MHz", gemm.run_clock_MHz);
        }
        if (engine.collectives.quick_reduce)  // the run's quantized all-reduce: SGLang's, on 2, 4 or 8 TP ranks
            require_quick_reduce_run(engine.kind, l.tp, s, "engine.collectives.quick_reduce");
        const int q = m.attention.query_heads;
        require(q % l.tp == 0, s, "layout.tp", l.tp, "must divide the query heads", "llmcost.layout.tp_divides_heads");
        if (m.attention.kind == attention_kind::standard && l.tp > m.attention.kv_heads)
            require(l.tp % m.attention.kv_heads == 0, s, "layout.tp", l.tp,
                    "beyond the KV-head count, tp must be a multiple of kv_heads (heads are replicated)",
                    "llmcost.layout.tp_multiple_of_kv_heads");
        else if (m.attention.kind == attention_kind::standard)
            require(m.attention.kv_heads % l.tp == 0, s, "layout.tp", l.tp, "must divide the KV heads",
                    "llmcost.layout.tp_divides_kv_heads");
        if (l.ep > 1) {
            require(m.is_moe(), s, "layout.ep", l.ep, "expert parallelism needs an MoE model", "llmcost.layout.ep_needs_moe");
            require(m.ffn.routed_experts % l.ep == 0, s, "layout.ep", l.ep, "must divide the routed experts",
                    "llmcost.layout.ep_divides_experts");
            require((l.tp * l.dp) % l.ep == 0, s, "layout.ep", l.ep,
                    "must divide tp × dp (the expert group lives inside one pipeline stage)",
                    "llmcost.layout.ep_divides_group");
        }
    }
};

/// Pipeline boundaries whose hand-off leaves a scale-up domain, c of the pp − 1. Stage b holds the w GPUs
/// b·w … b·w + w − 1 and rank j of stage b − 1 (GPU (b−1)·w + j) sends to GPU b·w + j; domains of g GPUs,
/// filled in order (GPU x in domain ⌊x ÷ g⌋). Boundary b crosses where some pair straddles a multiple of g:
/// ⌊((b+1)·w − 1) ÷ g⌋ > ⌊(b−1)·w ÷ g⌋ (every boundary when w ≥ g, none when w·pp ≤ g). Its ranks send at
/// once, so one crossing pair puts the whole boundary on the NIC. E.g. w 2, pp 8, g 8: only b = 4 (GPU 7 → 9).
[[nodiscard]] constexpr int pipeline_crossings(int stage_gpus, int pp, int domain) {
    constexpr std::string_view s = "pipeline_crossings";
    require(stage_gpus >= 1, s, "stage_gpus", stage_gpus, "a pipeline stage holds at least one GPU");
    require(pp >= 1, s, "pp", pp, "pipeline parallelism must be at least 1");
    require(domain >= 1, s, "domain", domain, "a scale-up domain holds at least one GPU");
    const long long w = stage_gpus, g = domain;  // (b + 1)·w ≤ pp·w: wide, so no int product wraps
    int crossings = 0;
    for (long long b = 1; b < pp; ++b)
        if (((b + 1) * w - 1) / g > ((b - 1) * w) / g) ++crossings;
    return crossings;
}
/// The deployment's crossings: a stage's GPUs are its instance's ÷ pp (tp; tp·dp for an EP group), g its
/// hardware's scale-up domain (`deployment::link_for`'s, not `gpus_per_node`: NVLink joins an NVL72's trays).
[[nodiscard]] constexpr int pipeline_crossings(const deployment& d) {
    return pipeline_crossings(d.instance_gpus() / d.layout.pp, d.layout.pp, d.hw.scale_up_domain);
}

/// A layout as a user states it: a GPU count and some degrees, the rest left to derive.
struct layout_request {
    int gpus = 0;  ///< GPUs in all; 0 = tp · pp · dp
    int tp = 1, pp = 1, ep = 1;
    int dp = 0;  ///< 0 = gpus ÷ (tp · pp), or 1 when gpus is 0 too
};

/// The layout on `r.gpus` GPUs: dp = gpus ÷ (tp·pp) when dp is left open, else tp·pp·dp must be
/// gpus. The degrees' own rules (≥ 1, divides the heads …) stay with `deployment::validate`.
[[nodiscard]] constexpr parallel_layout layout_for_gpus(const layout_request& r) {
    constexpr std::string_view s = "layout";
    require(r.tp >= 1, s, "tp", r.tp, "tensor parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
    require(r.pp >= 1, s, "pp", r.pp, "pipeline parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
    require(r.ep >= 1, s, "ep", r.ep, "expert parallelism must be at least 1", "llmcost.layout.degree_at_least_one");
    require(r.dp >= 0, s, "dp", r.dp, "data parallelism must be at least 1 (or 0: derived from gpus)",
            "llmcost.layout.degree_at_least_one");
    require(r.gpus >= 0, s, "gpus", r.gpus, "cannot be negative (0: tp × pp × dp)", "llmcost.layout.gpu_count");
    // In double: the products are bounded here, before any int product can wrap.
    const double replica = static_cast<double>(r.tp) * r.pp;
    const double asked = replica * (r.dp == 0 ? 1 : r.dp);
    require(asked <= 1e9, s, "tp × pp × dp", asked, "more than 10^9 GPUs in one deployment", "llmcost.layout.gpu_count");
    parallel_layout l{.tp = r.tp, .pp = r.pp, .ep = r.ep, .dp = r.dp == 0 ? 1 : r.dp};
    if (r.gpus == 0) return l;
    if (r.dp == 0) {
        require(r.gpus % (r.tp * r.pp) == 0, s, "gpus", r.gpus, "must be a multiple of tp × pp (a whole number of replicas)",
                "llmcost.layout.gpus_multiple_of_replica");
        l.dp = r.gpus / (r.tp * r.pp);
    } else {
        require(asked == r.gpus, s, "gpus", r.gpus, "must equal tp × pp × dp", "llmcost.layout.gpus_match");
    }
    return l;
}

/// `d` on a GPU whose engine clock the run pins at f MHz (AMD's MLPerf harnesses: `rocm-smi
/// --setperfdeterminism`; `plan::as_run` from a row's `clock_MHz`, the CLI's --clock): the compute
/// fractions at f, e(f) = e(f₀) · f ÷ f₀ (`achievable_fractions::at_clock`: unchanged where the GPU
/// states no f₀), and the GEMM table's time × f_table ÷ f (`gemm_tuning::time_scale`). f = 0: not
/// pinned, the fractions as they stand and the table at its own clock. In MHz as `clock_MHz` and
/// `gemm_tuning::run_clock_MHz` hold it; any other f is refused by the one clock rule
/// (`achievable_fractions::require_clock`), naming `field` (the caller's word for it: "clock_MHz", "--clock").
/// Applied once: the fractions keep f₀, so a second call would compound (f ÷ f₀)²; no path calls it twice.
[[nodiscard]] constexpr deployment at_engine_clock(deployment d, double f_MHz, std::string_view field = "clock_MHz") {
    if (f_MHz != 0.0) d.hw.gpu.efficiency.require_clock(d.hw.name, field, f_MHz);
    d.hw.gpu.efficiency = d.hw.gpu.efficiency.at_clock(f_MHz);
    d.gemm.run_clock_MHz = f_MHz;
    return d;
}

/// The first rule the deployment breaks, or nothing: `validate` without the exception, for a
/// sweep or a plan that marks an impossible candidate instead of stopping.
[[nodiscard]] inline std::optional<invalid_input> problem(const deployment& d) noexcept {
    try {
        d.validate();
        return std::nullopt;
    } catch (const invalid_input& e) {
        return e;
    }
}

/// KV heads each GPU holds: ⌈H_kv ÷ tp⌉ (replicated when tp > H_kv). MLA keeps one latent that
/// every TP rank needs whole, so its cache does not shrink with tp.
[[nodiscard]] constexpr int kv_heads_per_gpu(const model& m, int tp) {
    return (m.attention.kv_heads + tp - 1) / tp;
}

/// KV bytes per token of context on one GPU: per-layer KV × layers of its stage, split by TP
/// for standard attention (seed S16 divided by the layout).
[[nodiscard]] constexpr bytes_per_token_t kv_bytes_per_token_per_gpu(const deployment& d) {
    const model& m = d.m;
    const double layers = static_cast<double>(m.attention_layers()) / d.layout.pp;
    if (m.attention.kind == attention_kind::latent) return kv_bytes_per_token_per_layer(m) * layers;
    const double share = static_cast<double>(kv_heads_per_gpu(m, d.layout.tp)) / m.attention.kv_heads;
    return kv_bytes_per_token_per_layer(m) * (layers * share);
}

/// KV bytes one GPU holds for a sequence of `context` tokens (windowed layers capped).
template <token_count T>
[[nodiscard]] constexpr bytes_t kv_bytes_per_gpu_for_context(const deployment& d, const T& context) {
    const double per_token_all = kv_bytes_per_token(d.m).value();
    const double per_token_gpu = kv_bytes_per_token_per_gpu(d).value();
    return kv_bytes_for_context(d.m, context) * (per_token_gpu / per_token_all);
}

/// Weight bytes resident on one GPU: non-expert weights ÷ (tp·pp); routed experts ÷ (GPUs of
/// the stage that share them: tp·dp with EP, tp otherwise) ÷ pp. All experts stay resident (S20).
[[nodiscard]] constexpr bytes_t expert_weight_bytes_per_gpu(const deployment& d) {
    const parameter_breakdown b = parameters(d.m);
    const double shards = static_cast<double>(d.expert_parallel() ? d.layout.tp * d.layout.dp : d.layout.tp) * d.layout.pp;
    return d.m.expert_format().bytes_for(static_cast<double>(b.routed_experts)) / shards;
}
/// The MLA down-projections' bytes, all layers: D · b ÷ 8, D = L_attn · h · (r_q + r_kv + d_rope), b the excluded
/// format where the checkpoint keeps attention_in, else the weights'. No engine shards them: SGLang
/// (sgl-project/sglang@3e4a39e python/sglang/srt/models/deepseek_v2.py fused_qkv_a_proj_with_mqa = ReplicatedLinear),
/// vLLM (vllm-project/vllm@b863fe5 vllm/model_executor/models/deepseek_v2.py fused_qkv_a_proj = MergedReplicatedLinear),
/// TensorRT-LLM (NVIDIA/TensorRT-LLM@c6d3bb2 tensorrt_llm/_torch/modules/attention.py kv_a_proj_with_mqa = Linear(h, r_q + r_kv + d_rope), no TP mode).
[[nodiscard]] constexpr bytes_t replicated_down_projection_bytes(const model& m) {
    const double down = static_cast<double>(attention_down_parameters_per_layer(m)) * m.count_layers().attention();
    return (m.excluded.attention_inputs ? m.excluded.format : m.weights).bytes_for(down);
}
/// Whether SGLang fuses the model's shared expert into its routed-expert runner: the DeepSeek-V3/R1 shape only,
/// 256 routed experts, 1 shared expert, latent (MLA) attention. `determine_num_fused_shared_experts` turns the fusion
/// off unless `architectures[0] == "DeepseekV3ForCausalLM"`, `n_routed_experts == 256` and `n_shared_experts == 1`
/// (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py l.3279–3284 @00e3e6ea3; l.3263–3269 @9a327bdfc);
/// llama4.py and qwen3_next.py fuse none. Read through the model's fields, not its name: Kimi-K2 (384 experts),
/// DeepSeek-V2 (160 / 2 shared), Llama-4 and Qwen3-Next (standard attention) are out.
[[nodiscard]] constexpr bool fuses_deepseek_v3_shared_expert(const model& m) {
    return m.ffn.routed_experts == 256 && m.ffn.shared_experts == 1 && m.attention.kind == attention_kind::latent;
}
/// x = (ep − 1) ÷ tp where the engine runs a fused shared expert whole on every EP rank of a TEP layout, else 0: the
/// share of the model's shared expert a GPU runs and holds beyond its TP shard (1 ÷ tp, which every layout prices).
/// The rule: `engine_moe::shared_expert_ep_replicated`, a model whose shared expert the engine fuses
/// (`fuses_deepseek_v3_shared_expert`), ep > 1 and tensor-parallel attention (not `attention_data_parallel`: the MoE
/// runs without an all-to-all). The fused runner shards each expert over tp ÷ ep ranks (SGLang's moe_tp_size), so a
/// rank holds 1 ÷ (tp ÷ ep) = ep ÷ tp of it: x = ep ÷ tp − 1 ÷ tp; TEP8 (tp = ep = 8): 7 ÷ 8. SGLang on ROCm from
/// v0.5.5.post3 (PR #12201 aead0ef5e), deepseek_v2.py @00e3e6ea3 `determine_num_fused_shared_experts`
/// (l.3271–3311: fused under EP on HIP ≥ gfx942, off with deepep / mori) and `DeepseekV2MoE.__init__` (l.644–650:
/// output × 1 ÷ ep, "every gpu get shared experts gemm output") (docs/sglang-rocm-shared-expert.md).
[[nodiscard]] constexpr double replicated_shared_expert_share(const deployment& d) {
    if (!d.engine.moe.shared_expert_ep_replicated || !d.expert_parallel() || d.attention_data_parallel() ||
        !fuses_deepseek_v3_shared_expert(d.m))
        return 0.0;
    return static_cast<double>(d.layout.ep - 1) / d.layout.tp;
}
/// The shared experts' bytes all layers, in the weights' format (they are never an excluded module):
/// S_bytes = `mixed_format_bytes`(P_shared, 0), P_shared = `parameter_breakdown::shared_experts`.
[[nodiscard]] constexpr bytes_t shared_expert_weight_bytes(const model& m) {
    return mixed_format_bytes(m, parameters(m).shared_experts, 0);
}
/// The replicated shared expert's extra bytes per GPU: S_bytes · x ÷ pp (`shared_expert_weight_bytes`,
/// `replicated_shared_expert_share` x); 0 where the rule does not apply.
[[nodiscard]] constexpr bytes_t replicated_shared_expert_bytes_per_gpu(const deployment& d) {
    return shared_expert_weight_bytes(d.m) * (replicated_shared_expert_share(d) / d.layout.pp);
}
/// Whether the engine keeps the MoE router (gate) whole on every rank in the model's dtype (BF16), unsharded and
/// unquantized, where the library's shard prices it in the weights' format ÷ tp: the profile's model set
/// (`engine_moe::router_whole_bf16`, tables/engines.csv router_whole_bf16, each profile's source cell naming the engine
/// code read; docs/kv-pool.md): every_moe, any MoE model (SGLang's `MoEGate`; vLLM's `ReplicatedLinear(hidden,
/// experts, quant_config=None)`); latent_moe, an MoE model with latent attention (TensorRT-LLM's `DeepseekV3Gate`);
/// none, no model.
[[nodiscard]] constexpr bool keeps_router_whole(const deployment& d) {
    if (!d.m.is_moe()) return false;
    switch (d.engine.moe.router_whole_bf16) {
        case router_whole_models::none: return false;
        case router_whole_models::every_moe: return true;
        case router_whole_models::latent_moe: return d.m.attention.kind == attention_kind::latent;
    }
    return false;
}
/// The whole router's bytes on a GPU beyond its TP shard, where `keeps_router_whole`: G · (2 B ÷ pp − b_w ÷ (8 · tp ·
/// pp)), G = h · E · L_moe (the gate kept BF16 without block scales, where the library's shard prices it in the
/// weights' format ÷ tp); 0 otherwise. DeepSeek-V3 FP8 TP8: G = 106,430,464, 212.9 − 13.3 = 199.6 MB.
[[nodiscard]] constexpr bytes_t whole_router_extra_bytes_per_gpu(const deployment& d) {
    if (!keeps_router_whole(d)) return bytes(0.0);
    const model& m = d.m;
    const double tp = d.layout.tp, pp = d.layout.pp;
    const double gate = static_cast<double>(count_t{m.hidden} * m.ffn.routed_experts * m.moe_layers());
    return formats::bf16.bytes_for(gate) / pp - m.weights.bytes_for(gate) / (tp * pp);
}
/// Latent attention's kv_b (W_UK, W_UV) bytes, all layers, in the checkpoint's format: P_kv_b · L_attn · b ÷ 8, b the
/// excluded format where the checkpoint keeps attention_kv_b, else the weights'; 0 for standard attention.
[[nodiscard]] constexpr bytes_t kv_b_weight_bytes(const model& m) {
    if (m.attention.kind != attention_kind::latent) return bytes(0.0);
    const double kv_b = static_cast<double>(attention_kv_up_parameters_per_layer(m) * m.count_layers().attention());
    return (m.excluded.attention_kv_up ? m.excluded.format : m.weights).bytes_for(kv_b);
}
/// SGLang's absorbed copies of latent attention's kv_b on CUDA (Hopper, Blackwell), per GPU: P_kv_b · L_attn · 2 B ÷
/// (tp · pp); 0 on other engines, other attention and ROCm. `post_load_weights` (sgl-project/sglang v0.5.6 @7ae368efd
/// python/sglang/srt/models/deepseek_v2.py l.3502–3665) dequantizes a 128 × 128 block-FP8 kv_b to BF16
/// (`block_quant_dequant`, no DeepGEMM BMM by default) and keeps `w_kc`, `w_vc` as new contiguous BF16 tensors beside
/// kv_b (a BF16 kv_b is copied the same way). On ROCm the copies are FP8 per-tensor or MXFP4
/// (`block_quant_to_tensor_quant`, `quark_post_load_weights`): not priced. Made on the GPU, not read from disk.
[[nodiscard]] constexpr bytes_t absorbed_kv_b_copy_bytes_per_gpu(const deployment& d) {
    if (d.engine.kind != engine_kind::sglang || d.m.attention.kind != attention_kind::latent) return bytes(0.0);
    const bool cuda = d.engine.architecture == gpu_architecture::hopper || d.engine.architecture == gpu_architecture::blackwell;
    if (!cuda) return bytes(0.0);
    const double kv_b = static_cast<double>(attention_kv_up_parameters_per_layer(d.m) * d.m.count_layers().attention());
    return formats::bf16.bytes_for(kv_b) / (static_cast<double>(d.layout.tp) * d.layout.pp);
}
/// What the engine lays out on a GPU at load beyond the checkpoint's TP shard (docs/kv-pool.md): the whole router
/// (`whole_router_extra_bytes_per_gpu`) + SGLang's absorbed kv_b copies (`absorbed_kv_b_copy_bytes_per_gpu`).
[[nodiscard]] constexpr bytes_t engine_load_extra_bytes_per_gpu(const deployment& d) {
    return whole_router_extra_bytes_per_gpu(d) + absorbed_kv_b_copy_bytes_per_gpu(d);
}
/// Non-expert bytes per GPU: `non_expert_weight_bytes` ÷ (tp·pp) (the excluded modules in their format,
/// `mixed_format_bytes`), + the replicated down-projections' D_bytes · (1 − 1 ÷ tp) ÷ pp (`replicated_down_projection_bytes`),
/// + a fused shared expert replicated on every EP rank (`replicated_shared_expert_bytes_per_gpu`), + what the engine
/// lays out at load beyond the shard (`engine_load_extra_bytes_per_gpu`: the whole BF16 router, SGLang's absorbed MLA copies).
[[nodiscard]] constexpr bytes_t dense_weight_bytes_per_gpu(const deployment& d) {
    const double tp = d.layout.tp, pp = d.layout.pp;
    return non_expert_weight_bytes(d.m) / (tp * pp) + replicated_down_projection_bytes(d.m) * ((1.0 - 1.0 / tp) / pp) +
           replicated_shared_expert_bytes_per_gpu(d) + engine_load_extra_bytes_per_gpu(d);
}
[[nodiscard]] constexpr bytes_t weight_bytes_per_gpu(const deployment& d) {
    return dense_weight_bytes_per_gpu(d) + expert_weight_bytes_per_gpu(d);
}

/// The deployment with its weights (experts included) stored in `weights` and its KV cache in
/// `kv`. Matmuls run in the weights' format when it is a compute format the GPU has units for
/// (W8A8, W4A4, as TensorRT-LLM and vLLM serve FP8 and NVFP4 checkpoints; FP4 without FP4 units
/// at the FP8 peak, `accelerator::peak`). A weight-only format (INT4 AWQ/GPTQ), and a compute format
/// the GPU has no units for (FP8 or INT8 on an A100, FP4 without FP4 or FP8 units), is dequantized
/// to BF16: weight-only W8A16, as vLLM runs FP8 checkpoints on Ampere with its FP8 Marlin kernels.
[[nodiscard]] constexpr deployment with_formats(deployment d, const number_format& weights, const number_format& kv) {
    d.m.weights = weights;
    d.m.expert_weights.reset();
    d.m.excluded = {};
    d.m.kv_cache = kv;
    const dense_peaks& p = d.hw.gpu.dense;
    bool units = false;
    switch (weights.compute) {
        case compute_class::fp4: units = p.fp4.value() > 0 || p.fp8.value() > 0; break;
        case compute_class::fp8: units = p.fp8.value() > 0; break;
        case compute_class::int8: units = p.int8.value() > 0; break;
        case compute_class::bf16: units = false; break;
    }
    d.m.activations = units ? weights : formats::bf16;
    return d;
}

/// The deployment served from a checkpoint that quantizes all but `kept` to `weights` (`kept.format`, BF16, for
/// the rest): `with_formats(d, weights, kv)`, then those modules in their own format. The routed experts' (and
/// the other quantized layers') matmuls keep the weights' compute class, activations quantized too (W4A4:
/// ModelOpt's NVFP4_DEFAULT_CFG quantizes each linear's input and weight, NVIDIA/TensorRT-Model-Optimizer
/// examples/deepseek/ptq.py @1030a2210d8dbd654e7f51af85f0b3a3b64f4d38; Quark's w_mxfp4_a_mxfp4), never the
/// mixed-input W4A16 path; the kept modules run at their own format's peak and curve (`pass_model::excluded_peak`).
[[nodiscard]] constexpr deployment with_formats(deployment d, const number_format& weights, const number_format& kv,
                                                const excluded_modules& kept) {
    d = with_formats(d, weights, kv);
    d.m.excluded = kept;
    return d;
}

/// The formats a deployment is served in (`llmcost estimate --weights --kv --excluded-modules`,
/// `llmcost.estimate(weights=, kv=, excluded_modules=)`, a sweep's formats axis); empty = the model's own.
struct serving_formats {
    std::optional<number_format> weights{};
    std::optional<number_format> kv{};
    /// The modules the checkpoint keeps out of `weights`, in their own format (`model::excluded`); empty = none
    /// beyond the model's own (with `weights` given: none, quantized throughout).
    std::optional<excluded_modules> kept{};
};

/// The deployment served in formats `f`: weights given → `with_formats(d, weights, kv or the model's
/// KV format[, kept])` (matmuls in the weights' format where the GPU has a peak for it); KV alone → only the
/// cache's format changes; kept alone → those modules in their format beside the model's own weights.
[[nodiscard]] constexpr deployment with_formats(deployment d, const serving_formats& f) {
    if (f.weights) {
        const number_format& kv = f.kv ? *f.kv : d.m.kv_cache;
        return f.kept ? with_formats(d, *f.weights, kv, *f.kept) : with_formats(d, *f.weights, kv);
    }
    if (f.kv) d.m.kv_cache = *f.kv;
    if (f.kept) d.m.excluded = *f.kept;
    return d;
}

}  // namespace llmcost
