#pragma once
/// \file
/// The body of plan/frontier.hpp. Compiled once into the `llmcost_plan` library (frontier.cpp), or
/// included by plan/frontier.hpp when `LLMCOST_HEADER_ONLY` is defined (detail/header_only.hpp).
/// Not a public header: include plan/frontier.hpp.

#include <llmcost/plan/frontier.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace llmcost::plan {

LLMCOST_FUNC std::optional<online_point> online_at(const sweep_result& s, Eigen::Index i, double ttft_q, double tpot_q) {
    const sweep_block& blk = s.blocks[s.block_of(i)];
    const request_shape& r = s.grid.shapes[s.shape_of(i)];
    for (const auto& [name, q] : {std::pair{"ttft_percentile", ttft_q}, std::pair{"tpot_percentile", tpot_q}})
        require(q == 0.0 || (q > 0.0 && q < 1.0), "frontier", name, q,
                "must be 0 (the mean) or a percentile in (0, 1), e.g. 0.9 for p90", "llmcost.serving.percentile_open_unit");
    require(!blk.how.disaggregated, "frontier", "mode", 1.0,
            "online percentiles and a load ceiling are priced for colocated points only (the bulk-service model)",
            "llmcost.plan.online_colocated");
    require(s.grid.limits.prefill_chunk.value() == 0.0 && s.grid.limits.max_tokens_per_step == 0.0, "frontier",
            "limits.prefill_chunk", s.grid.limits.prefill_chunk.value(),
            "online percentiles are priced for whole prompts without a token cap (the bulk-service model)",
            "llmcost.serving.percentile_whole_prompts");
    require(!s.grid.speculation.enabled(), "frontier", "speculation.draft_tokens", s.grid.speculation.draft_tokens,
            "online percentiles are priced with plain decode steps: use mean targets with speculative decoding");
    require(!r.spread(), "frontier", "shape spread (tokens)", r.input_spread.value() + r.output_spread.value(),
            "online percentiles are priced for equal requests", "llmcost.plan.percentiles_equal_requests");
    const double batch = s.point(i).batch;
    const double rate = batch / s.e2e(i);  // per rank: Little's law on the steady state
    const scheduler_limits admits = with_engine_admission(s.grid.limits, blk.d.engine);  // as the sweep's block
    const serving_point sat = saturated(blk.d, r, admits);
    const double sat_rate = sat.output_rate.value() / r.output.value() / static_cast<double>(blk.d.layout.dp);
    try {
        const online_latency l = serve_online_latency(blk.d, r, seconds(1.0 / rate), admits);
        return online_point{.rate_per_rank = rate,
                            .load = rate / sat_rate,
                            .ttft = ttft_q > 0.0 ? ttft_percentile(l, ttft_q) : l.point.ttft,
                            .tpot = tpot_q > 0.0 ? tpot_percentile(l, tpot_q) : l.point.tpot};
    } catch (const invalid_input&) {
        return std::nullopt;  // arrivals outpace the deployment
    }
}

LLMCOST_FUNC std::vector<Eigen::Index> eligible(const sweep_result& s, const slo& target, const frontier_options& o) {
    target.validate();
    require(o.max_load > 0.0 && o.max_load <= 1.0, "frontier", "max_load", o.max_load,
            "a load ceiling is a share of the saturated rate in (0, 1]", "llmcost.plan.max_load");
    require(!target.every_token, "frontier", "slo.every_token", 1.0,
            "a sweep bounds the mean TPOT and the TTFT; price every-token targets with colocated_goodput");
    if (o.shape) require(*o.shape < s.grid.shapes.size(), "frontier", "shape", static_cast<double>(*o.shape),
                         "must index one of the sweep's request shapes");
    const double ttft = target.ttft.value(), tpot = target.tpot.value();
    std::vector<Eigen::Index> out;
    const Eigen::Index per_block = s.points_per_block();
    // Online, a point's rate b ÷ E2E(b) rises with its batch, and with it the load and the
    // percentiles: up a rising ladder of batches, the first point that misses ends its shape's run
    // (each online point costs a fixed-point solve and a queue's chain).
    const bool rising = std::is_sorted(s.grid.batches.begin(), s.grid.batches.end());
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
        const sweep_block& blk = s.blocks[b];
        if (blk.status != point_status::ok) continue;
        if (o.disaggregated && *o.disaggregated != blk.how.disaggregated) continue;
        if (o.online() && blk.how.disaggregated && !o.disaggregated) continue;  // percentiles price colocated points
        const Eigen::Index first = static_cast<Eigen::Index>(b) * per_block;
        std::optional<std::size_t> ended;  // the shape whose online run has ended
        for (Eigen::Index i = first; i < first + per_block; ++i) {
            if (s.status_code(i) != static_cast<std::uint8_t>(point_status::ok)) continue;
            if (o.shape && s.shape_of(i) != *o.shape) continue;
            if (o.online()) {
                if (ended == s.shape_of(i)) continue;
                // The mean targets the percentiles leave unbound still hold on the steady state.
                if (!(o.ttft_percentile > 0.0 || s.ttft_s(i) <= ttft) || !(o.tpot_percentile > 0.0 || s.tpot_s(i) <= tpot))
                    continue;
                const std::optional<online_point> p = online_at(s, i, o.ttft_percentile, o.tpot_percentile);
                if (!p || !(p->load <= o.max_load) || !(p->ttft.value() <= ttft && p->tpot.value() <= tpot)) {
                    if (rising) ended = s.shape_of(i);
                    continue;
                }
            } else if (!(s.ttft_s(i) <= ttft && s.tpot_s(i) <= tpot)) {
                continue;
            }
            out.push_back(i);
        }
    }
    return out;
}

LLMCOST_FUNC std::vector<Eigen::Index> frontier(const sweep_result& s, const slo& target, const frontier_options& o) {
    return frontier_among(s, eligible(s, target, o));
}

LLMCOST_FUNC std::vector<Eigen::Index> frontier_among(const sweep_result& s, const std::vector<Eigen::Index>& points) {
    struct candidate {
        double per_user, per_gpu;
        Eigen::Index i;
    };
    std::vector<candidate> c;
    for (Eigen::Index i : points) c.push_back({s.tokens_per_s_per_user(i), s.output_tokens_per_s_per_gpu(i), i});
    // Fastest per user first (ties: most per GPU, then sweep order); keep each point that beats
    // every faster one on throughput.
    std::sort(c.begin(), c.end(), [](const candidate& a, const candidate& b) {
        if (a.per_user != b.per_user) return a.per_user > b.per_user;
        if (a.per_gpu != b.per_gpu) return a.per_gpu > b.per_gpu;
        return a.i < b.i;
    });
    std::vector<Eigen::Index> front;
    double best = -1.0;
    for (const candidate& x : c)
        if (x.per_gpu > best) {
            front.push_back(x.i);
            best = x.per_gpu;
        }
    std::reverse(front.begin(), front.end());
    return front;
}

}  // namespace llmcost::plan
