#pragma once
/// \file
/// Energy (seed S29–S32): GPU-seconds × board power, × server overhead × cooling at the wall.
/// It is a floor: idle GPUs, unfilled batches, retries and tool calls are not in it (S32).

#include <llmcost/descriptors/hardware.hpp>

namespace llmcost {

/// E_gpu = t · P_board · GPUs — accelerators drawing board power for t (S29).
template <duration T>
[[nodiscard]] constexpr joules_t gpu_energy(const hardware& h, const T& busy, double gpus = 1.0) {
    return h.gpu.board_power * in_base_units(busy) * gpus;
}

/// E_wall = E_gpu · server overhead · cooling (S30: × 1.3 × 1.2).
template <energy E>
[[nodiscard]] constexpr joules_t wall_energy(const E& gpu, const facility& f) {
    return in_base_units(gpu) * f.power_multiplier();
}

/// The floor that idle power sets: t · P_idle · GPUs — no schedule can draw less.
template <duration T>
[[nodiscard]] constexpr joules_t idle_energy(const hardware& h, const T& wall_clock, double gpus = 1.0) {
    return h.gpu.idle_power * in_base_units(wall_clock) * gpus;
}

}  // namespace llmcost
