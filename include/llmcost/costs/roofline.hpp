#pragma once
/// \file
/// The roofline: a phase takes as long as the slower of moving its bytes and doing its FLOPs.
/// Every time in llmcost is built from these few formulas.
///
/// **Example**
/// \code
/// static_assert(transfer_time(40_GB, 20_TBps) == 2_ms);   // seed S27
/// \endcode

#include <llmcost/units/concepts.hpp>

namespace llmcost {

/// t = bytes ÷ bandwidth — moving data at a sustained rate (seed S27, S31).
template <data_size D, bandwidth B>
[[nodiscard]] constexpr seconds_t transfer_time(const D& bytes, const B& rate) {
    return in_base_units(bytes) / in_base_units(rate);
}

/// t = FLOPs ÷ FLOP/s — doing arithmetic at a sustained rate (seed S11, S30 prefill line).
template <compute C, compute_rate R>
[[nodiscard]] constexpr seconds_t compute_time(const C& work, const R& rate) {
    return in_base_units(work) / in_base_units(rate);
}

/// I = FLOPs ÷ bytes — arithmetic intensity of a kernel or a pass (seed S14).
template <compute C, data_size D>
[[nodiscard]] constexpr flops_per_byte_t intensity(const C& work, const D& bytes) {
    return in_base_units(work) / in_base_units(bytes);
}

/// I* = peak FLOP/s ÷ bandwidth — the ridge point: below it a kernel is memory bound (seed S14).
template <compute_rate R, bandwidth B>
[[nodiscard]] constexpr flops_per_byte_t ridge_point(const R& peak, const B& rate) {
    return in_base_units(peak) / in_base_units(rate);
}

/// t = max(FLOPs ÷ FLOP/s, bytes ÷ B/s) — the roofline time of one phase (Williams et al., 2009).
template <compute C, data_size D, compute_rate R, bandwidth B>
[[nodiscard]] constexpr seconds_t roofline_time(const C& work, const D& bytes, const R& peak,
                                                const B& rate) {
    const seconds_t tc = compute_time(work, peak);
    const seconds_t tm = transfer_time(bytes, rate);
    return tc > tm ? tc : tm;
}

/// E = P · t — energy drawn at a constant power (seed S29).
template <power P, duration T>
[[nodiscard]] constexpr joules_t energy_at(const P& draw, const T& time) {
    return in_base_units(draw) * in_base_units(time);
}

}  // namespace llmcost
