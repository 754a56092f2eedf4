#pragma once
/// \file
/// Which layout of N GPUs serves a model best: every valid (tp, pp, ep, dp) of the count, each
/// priced saturated, best first (`llmcost estimate --gpus N --best-layout`). Scalar and header-only:
/// a GPU count has few layouts (8 GPUs: 10 for a dense model, 40 for an MoE), no Eigen needed.

#include <llmcost/costs/parallel.hpp>
#include <llmcost/serving/throughput.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace llmcost::plan {

/// Every valid layout of `m` on exactly `gpus` GPUs of `hw`: tp · pp · dp = gpus over the divisors
/// of `gpus`, and for MoE models each expert-parallel degree ep > 1 that divides tp · dp (attention
/// DP + EP) beside ep = 1 (TP-sharded experts). The deployment's own rules (`problem`) decide;
/// whether the weights fit is the ranking's to say.
[[nodiscard]] inline std::vector<parallel_layout> layouts_on(const model& m, const hardware& hw, int gpus) {
    require(gpus >= 1 && gpus <= 1'000'000, "layouts", "gpus", gpus, "must be a GPU count from 1 to 10^6",
            "llmcost.layout.gpu_count");
    std::vector<parallel_layout> c;
    for (int tp = 1; tp <= gpus; ++tp) {
        if (gpus % tp != 0) continue;
        for (int pp = 1; pp <= gpus / tp; ++pp) {
            if ((gpus / tp) % pp != 0) continue;
            const int dp = gpus / (tp * pp);
            c.push_back({.tp = tp, .pp = pp, .dp = dp});
            if (!m.is_moe()) continue;
            for (int ep = 2; ep <= tp * dp; ++ep)
                if ((tp * dp) % ep == 0) c.push_back({.tp = tp, .pp = pp, .ep = ep, .dp = dp});
        }
    }
    std::vector<parallel_layout> valid;
    for (const parallel_layout& l : c)
        if (!problem({.m = m, .hw = hw, .layout = l})) valid.push_back(l);
    return valid;
}

/// One layout's saturated serving point, or why it cannot serve.
struct layout_choice {
    parallel_layout layout{};
    std::optional<serving_point> point{};  ///< saturated (`saturated`); empty: see `why_not`
    std::string why_not{};                 ///< "weights do not fit", "KV capacity", …
};

/// `layouts_on(m, hw, gpus)` for requests of shape `r`, ranked by saturated output tokens/s of the
/// whole deployment (every GPU busy: "which layout of these GPUs serves the most"), best first;
/// layouts that cannot hold one sequence come last, with the reason. Ties keep the enumeration's
/// order (fewer-way tensor parallelism first). Every layout is served by `engine`, under `l` with the
/// engine's admission (`with_engine_admission`: vLLM and SGLang count a sequence's KV at the context in
/// use, the others reserve the whole sequence), as the sweep, the frontier and the fleet price it; the
/// other limits as given (no engine defaults: `with_engine_defaults` is the caller's, as the CLI's).
/// `gemm`: the GEMM table every layout's engine loads and the run's clock (`deployment::gemm`; `hw` already at that
/// clock, `at_engine_clock`), so that the ranking prices what the chosen layout's estimate prices; a layout the table
/// does not fit (another TP degree) cannot serve, with the library's reason (`gemm_table::check_fits`). So with an
/// engine whose quantized all-reduce is on (`with_quick_reduce` at tp 0): a layout whose TP group QuickReduce does not
/// run on cannot serve, with the rule's reason (`deployment::validate`, llmcost.quick_reduce.tp).
[[nodiscard]] inline std::vector<layout_choice> rank_layouts(const model& m, const hardware& hw, int gpus,
                                                             const request_shape& r, const scheduler_limits& l = {},
                                                             const engine_profile& engine = engine_profile::reference(),
                                                             const gemm_tuning& gemm = {}) {
    r.validate();
    l.validate();
    const scheduler_limits admits = with_engine_admission(l, engine);
    std::vector<layout_choice> out;
    for (const parallel_layout& layout : layouts_on(m, hw, gpus)) {
        const deployment d{.m = m, .hw = hw, .layout = layout, .engine = engine, .gemm = gemm};
        layout_choice c{.layout = layout};
        if (gemm.table != nullptr || engine.collectives.quick_reduce)
            if (const std::optional<invalid_input> p = problem(d)) {
                c.why_not = p->what();
                out.push_back(std::move(c));
                continue;
            }
        const batch_limit b = admissible_batch(d, r, admits);
        if (b.batch >= 1.0) c.point = saturated(d, r, admits);
        else c.why_not = std::string(b.limited_by);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const layout_choice& a, const layout_choice& b) {
        if (a.point.has_value() != b.point.has_value()) return a.point.has_value();
        return a.point && a.point->output_rate > b.point->output_rate;
    });
    return out;
}

}  // namespace llmcost::plan
