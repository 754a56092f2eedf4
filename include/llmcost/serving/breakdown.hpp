#pragma once
/// \file
/// A serving point explained: the prompt's prefill and the serving step by kernel class, and one
/// GPU's memory with the batch's KV held — what `llmcost estimate --explain` prints.

#include <llmcost/costs/breakdown.hpp>
#include <llmcost/serving/throughput.hpp>

#include <array>

namespace llmcost {

struct request_breakdown {
    pass_cost prefill;  ///< one prompt alone at batch 1: its time is `serving_point::prefill_time`
    pass_cost step;     ///< the serving step priced (`serving_point::step`: b ÷ pp decodes and its prompt chunks)
    std::array<kernel_class_cost, kernel_classes> prefill_kernels, step_kernels;  ///< `explain` of each; rows sum to its time
    memory_breakdown memory;  ///< one GPU holding the batch's KV at the context each sequence reserves
};

/// Why point `s` of requests `r` on `d` costs what it does: the passes it was priced with, by
/// kernel class, and one GPU's HBM holding s.batch sequences at `held_kv_slots(d, r, l)` (the KV slots
/// the batch limit reserves, so free ≥ 0 whenever the batch was admitted).
[[nodiscard]] constexpr request_breakdown explain(const deployment& d, const request_shape& r, const serving_point& s,
                                                  const scheduler_limits& l = {}) {
    r.validate();
    l.validate();
    request_breakdown b{};
    b.prefill = prefill_pass(d, 1.0, r.computed(), r.cached());
    b.step = s.step;
    b.prefill_kernels = explain(b.prefill);
    b.step_kernels = explain(b.step);
    b.memory = memory_per_gpu(d, s.batch, held_kv_slots(d, r, l), l.pool_reserve());
    return b;
}

}  // namespace llmcost
