#pragma once
/// \file
/// The serving frontier of a sweep: throughput (output tokens/s per GPU) against interactivity
/// (tokens/s one user sees), over the points that fit and meet a latency target. A point is on the
/// frontier when no other point is at least as good on both axes and better on one (Pareto): the
/// configurations an operator would choose between, trading speed per user for cost per token.
///
/// `frontier` is compiled once, in the `llmcost_plan` library (frontier-inl.hpp); define
/// `LLMCOST_HEADER_ONLY` to compile it here instead.
///
/// **Example**
/// \code
/// const plan::sweep_result s = plan::sweep(grid);
/// for (Eigen::Index i : plan::frontier(s, {.ttft = 2_s, .tpot = 50_ms}))
///     std::cout << s.point(i).per_user << " " << s.point(i).output_rate_per_gpu << "\n";
/// \endcode

#include <llmcost/detail/header_only.hpp>
#include <llmcost/plan/sweep.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace llmcost::plan {

/// Which points of the sweep compete.
struct frontier_options {
    std::optional<std::size_t> shape{};      ///< one request shape (index into the grid's shapes); empty: all
    std::optional<bool> disaggregated{};     ///< only colocated (false) or disaggregated (true) points; empty: both
};

/// The points that fit (`point_status::ok`) and meet `target` (TTFT ≤ target.ttft and mean TPOT ≤
/// target.tpot), reduced to their Pareto frontier of output tokens/s per GPU against tokens/s per
/// user. Among points equal on both axes the first in the sweep's order is kept. Ordered by
/// tokens/s per user, rising; tokens/s per GPU then falls strictly from one point to the next.
/// `target.every_token` is refused: a sweep prices the mean step and the prompt's step only.
[[nodiscard]] std::vector<Eigen::Index> frontier(const sweep_result& s, const slo& target,
                                                 const frontier_options& o = {});

}  // namespace llmcost::plan

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/plan/frontier-inl.hpp>
#endif
