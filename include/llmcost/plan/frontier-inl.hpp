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
#include <vector>

namespace llmcost::plan {

LLMCOST_FUNC std::vector<Eigen::Index> frontier(const sweep_result& s, const slo& target, const frontier_options& o) {
    target.validate();
    require(!target.every_token, "frontier", "slo.every_token", 1.0,
            "a sweep bounds the mean TPOT and the TTFT; price every-token targets with colocated_goodput");
    if (o.shape) require(*o.shape < s.grid.shapes.size(), "frontier", "shape", static_cast<double>(*o.shape),
                         "must index one of the sweep's request shapes");
    const double ttft = target.ttft.value(), tpot = target.tpot.value();
    struct candidate {
        double per_user, per_gpu;
        Eigen::Index i;
    };
    std::vector<candidate> c;
    const Eigen::Index per_block = s.points_per_block();
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
        const sweep_block& blk = s.blocks[b];
        if (blk.status != point_status::ok) continue;
        if (o.disaggregated && *o.disaggregated != blk.how.disaggregated) continue;
        const Eigen::Index first = static_cast<Eigen::Index>(b) * per_block;
        for (Eigen::Index i = first; i < first + per_block; ++i) {
            if (s.status_code(i) != static_cast<std::uint8_t>(point_status::ok)) continue;
            if (!(s.ttft_s(i) <= ttft && s.tpot_s(i) <= tpot)) continue;
            if (o.shape && s.shape_of(i) != *o.shape) continue;
            c.push_back({s.tokens_per_s_per_user(i), s.output_tokens_per_s_per_gpu(i), i});
        }
    }
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
