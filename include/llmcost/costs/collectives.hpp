#pragma once
/// \file
/// Collective communication in the α–β model: t = steps · α + bytes on the busiest link ÷ β,
/// with β the link's **per-direction** bandwidth and α its one-way latency. `bytes` is always the
/// size of the whole buffer one rank holds (the all-reduce's tensor, the gathered result, the
/// data one rank sends in an all-to-all). Thakur, Rabenseifner & Gropp (2005); NCCL's docs.

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/detail/lanes.hpp>
#include <llmcost/detail/math.hpp>

namespace llmcost {

enum class all_reduce_algorithm {
    ring,      ///< 2(n−1) steps; bandwidth-optimal, latency grows with n (NCCL across nodes)
    tree,      ///< 2⌈log₂n⌉ steps; same bytes, fewer steps (NCCL double binary tree)
    two_shot,  ///< reduce-scatter + all-gather through a switch: 2 steps (NVLS, custom all-reduce)
};

namespace detail {
[[nodiscard]] constexpr double ceil_log2(int n) {
    double steps = 0;
    for (long long p = 1; p < n; p *= 2) steps += 1;
    return steps;
}
}  // namespace detail

/// f = (n − m)/n, m = the fewest ranks a node holds (g where g divides n, else n mod g; nodes filled in order),
/// 0 for n ≤ g: the share of a rank's all-to-all bytes that leaves its node at the busiest rank, uniform routing.
[[nodiscard]] constexpr double all_to_all_off_node_share(int ranks, int domain) {
    constexpr std::string_view s = "all_to_all_off_node_share";
    require(ranks >= 1, s, "ranks", ranks, "an all-to-all runs over at least one rank");
    require(domain >= 1, s, "domain", domain, "a scale-up domain holds at least one GPU");
    if (ranks <= domain) return 0.0;
    const double n = ranks;
    const double fewest = ranks % domain == 0 ? static_cast<double>(domain) : static_cast<double>(ranks % domain);
    return (n - fewest) / n;
}

namespace detail {
/// Latency steps of an all-reduce over n ranks: ring 2(n−1), tree 2⌈log₂n⌉, two-shot 2.
[[nodiscard]] constexpr double all_reduce_steps(int ranks, all_reduce_algorithm algo) {
    const double n = ranks;
    return algo == all_reduce_algorithm::ring ? 2.0 * (n - 1.0)
           : algo == all_reduce_algorithm::tree ? 2.0 * ceil_log2(ranks)
                                                : 2.0;
}
/// s = 2(n−1)/n: the share of a message an all-reduce over n ranks moves through each rank's link.
[[nodiscard]] constexpr double all_reduce_share(int ranks) {
    const double n = ranks;
    return 2.0 * (n - 1.0) / n;
}
/// t = α · steps + S · s ÷ β in seconds, for S bytes (one value, or a lane of them), s = `all_reduce_share(n)`
/// given by a caller that prices many all-reduces over the same ranks.
template <class V>
[[nodiscard]] constexpr V all_reduce_seconds(const V& bytes, int ranks, const interconnect& l, all_reduce_algorithm algo,
                                             double share) {
    if (ranks <= 1) return lanes<V>::constant(0.0);
    return l.latency.value() * all_reduce_steps(ranks, algo) + bytes * share / l.per_direction.value();
}
/// t = α · steps + S · 2(n−1)/n ÷ β in seconds, for S bytes (one value, or a lane of them).
template <class V>
[[nodiscard]] constexpr V all_reduce_seconds(const V& bytes, int ranks, const interconnect& l, all_reduce_algorithm algo) {
    return all_reduce_seconds(bytes, ranks, l, algo, all_reduce_share(ranks));
}
/// t = α + S · (n−1)/n ÷ β in seconds (all-to-all through a switch or a full mesh).
template <class V>
[[nodiscard]] constexpr V all_to_all_seconds(const V& bytes, int ranks, const interconnect& l) {
    if (ranks <= 1) return lanes<V>::constant(0.0);
    const double n = ranks;
    return l.latency.value() + bytes * ((n - 1.0) / n) / l.per_direction.value();
}
/// t = α + max(S·(g−1)/n ÷ β_up, S·(n−m)/n ÷ β_out) in seconds for n > g ranks on nodes (scale-up
/// domains) of g, m and (n − m)/n as in `all_to_all_off_node_share` (nodes filled in order, 8 + 4 for 12 on
/// nodes of 8; a balanced 6 + 6 sends 6/12 off-node, so the form is conservative there); for n ≤ g the one-link
/// form above, on `up`. Under uniform routing a rank's peers are g − 1 on its node and n − g off it: only
/// (n − g)/n of its bytes cross the NIC (8/16 at EP16 on nodes of 8), (g − 1)/n stay on the scale-up fabric
/// (the busiest rank of each kind: the off-node share is largest on the smallest node). Max, not sum: one
/// kernel moves the xGMI and the RDMA tokens in one elapsed time (MORI-EP EP16-V1 and V1-LL: its two
/// "bandwidth" columns are token counts over that one time, not per-link busy times; E122, E123,
/// ROCm/mori@624002c8 docs/MORI-EP-BENCHMARK.md l.60–63), and DeepEP's normal internode kernels (training,
/// prefill) send over RDMA to the same-index GPU of each other node and forward over NVLink in a pipeline
/// beside it, not after it (deepseek-ai/DeepEP@0297fc80 docs/legacy.md, Performance; B10). Sourced for those
/// kernels only: DeepEP's low-latency decode kernels are pure RDMA (DeepEP@0297fc80 docs/legacy.md: on-node
/// peers through the NIC too, the one-link form on `out`), not priced apart. Where the scale-up link is PCIe (A100/H100 PCIe, L40S, L4) the
/// GPU's one port carries both shares, so their sum, not their max, bounds the time: not priced apart either.
/// α is `out`'s (the engine's floor, if any).
template <class V>
[[nodiscard]] constexpr V all_to_all_seconds(const V& bytes, int ranks, int domain, const interconnect& up,
                                             const interconnect& out) {
    if (ranks <= domain) return all_to_all_seconds(bytes, ranks, up);
    const double n = ranks, g = domain;
    const V on_node = bytes * ((g - 1.0) / n) / up.per_direction.value();
    const V off_node = bytes * all_to_all_off_node_share(ranks, domain) / out.per_direction.value();
    return out.latency.value() + lane_max(on_node, off_node);
}
/// t = (n−1)·α + (n−1)/n · S ÷ β in seconds: a ring all-gather (or reduce-scatter) of a result of S bytes.
template <class V>
[[nodiscard]] constexpr V all_gather_seconds(const V& bytes, int ranks, const interconnect& l) {
    if (ranks <= 1) return lanes<V>::constant(0.0);
    const double n = ranks;
    return l.latency.value() * (n - 1.0) + bytes * ((n - 1.0) / n) / l.per_direction.value();
}
/// t = a + (n−1)/n · S ÷ B_bus in seconds: an all-gather (or reduce-scatter) of a result of S bytes by a
/// collective library fitted to nccl-tests (a its fixed time at n ranks, B_bus nccl-tests' bus bandwidth).
template <class V>
[[nodiscard]] constexpr V library_gather_seconds(const V& bytes, int ranks, seconds_t fixed, bytes_per_second_t bus) {
    if (ranks <= 1) return lanes<V>::constant(0.0);
    const double n = ranks;
    return fixed.value() + bytes * ((n - 1.0) / n) / bus.value();
}
/// t = α + S ÷ β in seconds.
template <class V>
[[nodiscard]] constexpr V point_to_point_seconds(const V& bytes, const interconnect& l) {
    return l.latency.value() + bytes / l.per_direction.value();
}
}  // namespace detail

/// All-reduce of S bytes over n ranks. Every algorithm moves 2(n−1)/n · S through each rank's link;
/// they differ in the number of latency steps: ring 2(n−1), tree 2⌈log₂n⌉, two-shot 2.
template <data_size D>
[[nodiscard]] constexpr seconds_t all_reduce_time(const D& bytes, int ranks, const interconnect& l,
                                                  all_reduce_algorithm algo = all_reduce_algorithm::ring) {
    return seconds(detail::all_reduce_seconds(in_base_units(bytes).value(), ranks, l, algo));
}

/// All-gather (or reduce-scatter) of a result of S bytes over n ranks: (n−1)·α + (n−1)/n · S ÷ β.
template <data_size D>
[[nodiscard]] constexpr seconds_t all_gather_time(const D& bytes, int ranks, const interconnect& l) {
    return seconds(detail::all_gather_seconds(in_base_units(bytes).value(), ranks, l));
}

/// Reduce-scatter has the cost of an all-gather run backwards.
template <data_size D>
[[nodiscard]] constexpr seconds_t reduce_scatter_time(const D& bytes, int ranks, const interconnect& l) {
    return all_gather_time(bytes, ranks, l);
}

/// All-to-all where each rank holds S bytes spread evenly over n ranks: (n−1)/n of them leave.
/// Through a switch (or a full mesh) the exchanges overlap: α + (n−1)/n · S ÷ β.
template <data_size D>
[[nodiscard]] constexpr seconds_t all_to_all_time(const D& bytes, int ranks, const interconnect& l) {
    return seconds(detail::all_to_all_seconds(in_base_units(bytes).value(), ranks, l));
}

/// All-to-all of S bytes a rank over n ranks of `h`, on nodes of its scale-up domain g: α + (n−1)/n · S ÷ β
/// inside one domain; past it, α_out + max(S·(g−1)/n ÷ β_up, S·(n−m)/n ÷ β_out), m = g where g divides n,
/// m = n mod g otherwise (nodes filled in order): the on-node and off-node shares on their own links at once
/// (`detail::all_to_all_seconds`; MORI-EP, DeepEP normal kernels).
template <data_size D>
[[nodiscard]] constexpr seconds_t all_to_all_time(const D& bytes, int ranks, const hardware& h) {
    return seconds(detail::all_to_all_seconds(in_base_units(bytes).value(), ranks, h.scale_up_domain, h.scale_up,
                                              h.scale_out));
}

/// Point to point: α + S ÷ β (pipeline stages, KV transfer).
template <data_size D>
[[nodiscard]] constexpr seconds_t point_to_point_time(const D& bytes, const interconnect& l) {
    return seconds(detail::point_to_point_seconds(in_base_units(bytes).value(), l));
}

}  // namespace llmcost
