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
    /// 0: `target.ttft` bounds the steady state's TTFT at the batch; q in (0, 1): the point is served
    /// online (`online_at`) and the target bounds TTFT's q-quantile there. Colocated points only,
    /// whole prompts, no token cap, equal requests (the bulk-service model's domain).
    double ttft_percentile = 0;
    double tpot_percentile = 0;  ///< the same for `target.tpot`
    /// A point competes only if its online arrival rate is at most this share of its deployment's
    /// saturated request rate (`online_at`); 1: no ceiling.
    double max_load = 1.0;

    [[nodiscard]] bool online() const { return ttft_percentile > 0.0 || tpot_percentile > 0.0 || max_load < 1.0; }
};

/// A sweep point served online: Poisson arrivals at the rate that keeps its batch in flight,
/// λ = b ÷ e2e(b) per attention rank (Little's law on the point's steady state), its load λ ÷ λ_sat
/// (λ_sat = the `saturated` request rate per rank of its deployment and shape under the grid's
/// limits), and the q-quantiles of TTFT and TPOT there (`serve_online_latency`, `ttft_percentile`,
/// `tpot_percentile`; q = 0: the online means).
struct online_point {
    double rate_per_rank = 0;  ///< requests/s each attention rank receives
    double load = 0;           ///< λ ÷ λ_sat
    seconds_t ttft{}, tpot{};
};

/// `online_point` of point i; nullopt when the arrivals outpace the deployment (its queue grows
/// without bound in the online model). Refuses, named, a point outside the model's domain
/// (disaggregated, chunked prefill or a token cap, lengths that vary, speculative steps).
[[nodiscard]] std::optional<online_point> online_at(const sweep_result& s, Eigen::Index i, double ttft_percentile,
                                                    double tpot_percentile);

/// The points that fit (`point_status::ok`) and meet `target` (TTFT ≤ target.ttft and mean TPOT ≤
/// target.tpot, or with `o.online()` their percentiles online and the load ceiling), reduced to their Pareto frontier of output tokens/s per GPU against tokens/s per
/// user. Among points equal on both axes the first in the sweep's order is kept. Ordered by
/// tokens/s per user, rising; tokens/s per GPU then falls strictly from one point to the next.
/// `target.every_token` is refused: a sweep prices the mean step and the prompt's step only.
[[nodiscard]] std::vector<Eigen::Index> frontier(const sweep_result& s, const slo& target,
                                                 const frontier_options& o = {});

/// The points `frontier` chooses among, in the sweep's order: those that fit and meet `target`
/// under `o` (the frontier's candidates; for a count, or to draw them).
[[nodiscard]] std::vector<Eigen::Index> eligible(const sweep_result& s, const slo& target, const frontier_options& o = {});

/// The Pareto frontier of these points (`frontier`'s second half: `frontier(s, t, o)` is
/// `frontier_among(s, eligible(s, t, o))`), ordered by tokens/s per user, rising.
[[nodiscard]] std::vector<Eigen::Index> frontier_among(const sweep_result& s, const std::vector<Eigen::Index>& points);

}  // namespace llmcost::plan

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/plan/frontier-inl.hpp>
#endif
