#pragma once
/// \file
/// KV cache: footprint, how much fits in HBM after the weights, and where the rest spills
/// (seed S16, S17, S19), with the time to bring a spilled cache back and to load weights (S18).

#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/detail/math.hpp>

namespace llmcost {

/// What HBM must hold besides weights and KV.
struct memory_reserve {
    double fraction = 0.05;                 ///< kept free (allocator slack; vLLM's default gpu_memory_utilization is 0.9)
    bytes_t activations = gigabytes(2.0);   ///< workspace and activations per GPU
};

/// HBM left for KV on one GPU: capacity · (1 − fraction) − activations − weights. Negative means
/// the weights do not fit; `kv_capacity_tokens` then reports zero and `fits` says why.
[[nodiscard]] constexpr bytes_t kv_budget_per_gpu(const deployment& d, memory_reserve r = {}) {
    return d.hw.gpu.hbm_capacity * (1.0 - r.fraction) - r.activations - weight_bytes_per_gpu(d);
}

[[nodiscard]] constexpr bool weights_fit(const deployment& d, memory_reserve r = {}) {
    return kv_budget_per_gpu(d, r).value() > 0.0;
}

/// Refuses a deployment whose weights and memory reserve exceed HBM, naming the weights per GPU:
/// every path that serves (a batch, a simulation, a KV placement) needs the weights resident first.
constexpr void require_weights_fit(const deployment& d, memory_reserve r = {}) {
    require(weights_fit(d, r), d.m.name, "weights per GPU (B)", weight_bytes_per_gpu(d).value(),
            "does not fit: the weights and the reserve exceed HBM; use more GPUs or a smaller format",
            "llmcost.fit.weights");
}

/// Tokens of context one replica (or attention rank) can cache: budget ÷ KV bytes per token per GPU.
[[nodiscard]] constexpr tokens_t kv_capacity_tokens(const deployment& d, memory_reserve r = {}) {
    const bytes_t budget = kv_budget_per_gpu(d, r);
    if (budget.value() <= 0.0) return tokens(0.0);
    return tokens(budget / (kv_bytes_per_token_per_gpu(d) * tokens(1.0)));
}

/// Sequences of `context` tokens that fit at once (whole sequences only).
template <token_count T>
[[nodiscard]] constexpr double max_sequences(const deployment& d, const T& context, memory_reserve r = {}) {
    const bytes_t budget = kv_budget_per_gpu(d, r);
    if (budget.value() <= 0.0) return 0.0;
    const double per_seq = kv_bytes_per_gpu_for_context(d, context).value();
    const double n = budget.value() / per_seq;
    return detail::const_trunc(n);
}

/// Where a cache of `need` bytes per GPU lives: HBM first, then host DRAM, then storage (S17).
struct spill_placement {
    bytes_t in_hbm, in_host, in_storage, overflow;  ///< overflow: more than all tiers hold
    /// Time to bring the spilled part back into HBM: host bytes ÷ host link + storage bytes ÷ storage read.
    seconds_t restore_time;
};

template <data_size D>
[[nodiscard]] constexpr spill_placement place_kv(const deployment& d, const D& need, memory_reserve r = {}) {
    const double total = in_base_units(need).value();
    const double hbm = detail::max(0.0, kv_budget_per_gpu(d, r).value());
    const double host = d.hw.host_memory.capacity.value();
    const double disk = d.hw.storage.capacity.value();
    spill_placement p{};
    double left = total;
    p.in_hbm = bytes(detail::min(left, hbm));
    left -= p.in_hbm.value();
    p.in_host = bytes(detail::min(left, host));
    left -= p.in_host.value();
    p.in_storage = bytes(detail::min(left, disk));
    left -= p.in_storage.value();
    p.overflow = bytes(left);
    p.restore_time = transfer_time(p.in_host, d.hw.host_memory.bandwidth) +
                     transfer_time(p.in_storage, d.hw.storage.bandwidth);
    return p;
}

/// t = KV_gpu(context) ÷ B_host — one sequence's cache moved between HBM and host memory, each GPU
/// its own shard over its own host link (vLLM's swap preemption: out when the cache runs out, back
/// in when the sequence is scheduled again; S17's host tier).
template <token_count T>
[[nodiscard]] constexpr seconds_t kv_swap_time(const deployment& d, const T& context) {
    return transfer_time(kv_bytes_per_gpu_for_context(d, context), d.hw.host_memory.bandwidth);
}

/// t = weight bytes per GPU ÷ storage read bandwidth — why a node keeps one model resident (S18).
[[nodiscard]] constexpr seconds_t weight_load_time(const deployment& d) {
    return transfer_time(weight_bytes_per_gpu(d), d.hw.storage.bandwidth);
}

}  // namespace llmcost
