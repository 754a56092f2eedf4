#pragma once
/// \file
/// Answers that explain themselves: a pass by kernel class (time, FLOPs, bytes, and what bounds
/// each class) and one GPU's memory by what holds it (weights by part, KV, reserve, free) — the
/// per-operator and memory tables that LLM-Viewer and llm-analysis print, from the same terms the
/// pass was priced with, so the rows always sum to the pass's time and to HBM.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>

#include <array>
#include <string_view>

namespace llmcost {

/// What sets a kernel class's time: its FLOPs at the achievable rate, its bytes at the sustained
/// bandwidth, per-kernel launch overhead, a link (collectives and hand-offs), or a grid of fixed size
/// (the padded MoE runner's m-blocks, whatever tokens arrived).
enum class bound_by { compute, memory, launch, link, grid };

[[nodiscard]] constexpr std::string_view to_text(bound_by b) {
    switch (b) {
        case bound_by::compute: return "compute";
        case bound_by::memory: return "memory";
        case bound_by::launch: return "launch";
        case bound_by::link: return "link";
        case bound_by::grid: return "grid";
    }
    return "?";
}

/// One class of kernels in a pass, on one tensor-parallel rank.
struct kernel_class_cost {
    std::string_view kernel;  ///< "GEMMs", "attention", "element-wise", "kernel launches", "MoE padded buffer", …
    seconds_t time;
    flops_t flops;
    bytes_t bytes;
    bound_by limited_by;
};

/// The kernel classes `explain` splits a pass into.
inline constexpr std::size_t kernel_classes = 8;

/// The pass by kernel class, in the order a GPU stream runs them. Each class is its own roofline
/// (`pass_cost`): GEMMs max(FLOPs ÷ R_gemm, weights ÷ B), attention max(FLOPs ÷ R_attn, KV ÷ B),
/// element-wise activations ÷ B, launches kernels · t_launch, the padded MoE runner's grid L_moe · c · N_blk
/// (`padded_moe_time_per_pass`; 0 but where it runs), then TP, EP and PP communication.
/// The times sum to `p.time()` (to rounding: the pass adds the launches and the grid first, and the three links).
[[nodiscard]] constexpr std::array<kernel_class_cost, kernel_classes> explain(const pass_cost& p) {
    const bytes_t none_b = bytes(0.0);
    const flops_t none_f = flops(0.0);
    auto roofline = [](const seconds_t& compute, const seconds_t& memory) {
        return compute > memory ? bound_by::compute : bound_by::memory;
    };
    return {{
        {"GEMMs", p.matmul_time(), p.matmul_flops, p.weight_bytes, roofline(p.matmul_compute_time, p.matmul_memory_time)},
        {"attention", p.attention_time(), p.attention_flops, p.kv_bytes,
         roofline(p.attention_compute_time, p.attention_memory_time)},
        {"element-wise", p.elementwise_time, none_f, p.activation_bytes, bound_by::memory},
        {"kernel launches", p.overhead_time, none_f, none_b, bound_by::launch},
        {"MoE padded buffer", p.padded_moe_time, none_f, none_b, bound_by::grid},
        {"TP all-reduce", p.tp_time, none_f, none_b, bound_by::link},
        {"EP all-to-all", p.ep_time, none_f, none_b, bound_by::link},
        {"PP hand-off", p.pp_time, none_f, none_b, bound_by::link},
    }};
}

/// One GPU's memory while it serves: what holds each byte of its HBM.
struct memory_breakdown {
    bytes_t capacity;        ///< the GPU's HBM
    bytes_t dense_weights;   ///< attention, dense FFN, shared experts, embeddings, LM head (÷ tp·pp)
    bytes_t expert_weights;  ///< routed experts (÷ the GPUs that share them)
    bytes_t kv;              ///< the KV cache of the sequences held
    bytes_t activations;     ///< workspace and activations the KV pool rule subtracts, and resident extras (a draft model)
    bytes_t slack;           ///< what the KV pool rule keeps outside the pool (`kv_pool_split::slack`)
    bytes_t free;            ///< what is left; negative when the rest does not fit
    bytes_t communication{}; ///< the engine's communication buffers the rule subtracts (`engine_non_kv_per_gpu`)
    bytes_t runtime{};       ///< the engine's runtime memory the rule subtracts (`engine_non_kv_per_gpu`)
};

/// HBM of one GPU holding `sequences` sequences of `context` tokens each (per attention rank):
/// capacity = dense + experts + KV + activations + communication + runtime + slack + free, with free = the KV budget
/// (`kv_budget_per_gpu`) − KV.
template <token_count T>
[[nodiscard]] constexpr memory_breakdown memory_per_gpu(const deployment& d, double sequences, const T& context,
                                                        memory_reserve r = {}) {
    require(non_negative_finite(sequences), d.m.name, "sequences", sequences, "must be 0 or more and finite",
            "llmcost.serving.sequences_non_negative");
    memory_breakdown m{};
    m.capacity = d.hw.gpu.hbm_capacity;
    m.dense_weights = dense_weight_bytes_per_gpu(d);
    m.expert_weights = expert_weight_bytes_per_gpu(d);
    m.kv = kv_bytes_per_gpu_for_context(d, context) * sequences;
    const kv_pool_split split = kv_pool_per_gpu(d, r);
    m.activations = split.activations + r.resident;
    m.slack = split.slack;
    m.free = split.pool - m.kv;
    m.communication = split.communication;
    m.runtime = split.runtime;
    return m;
}

}  // namespace llmcost
