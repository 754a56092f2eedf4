#pragma once
/// \file
/// Number formats for weights, KV cache and activations, with their real storage cost.
/// A block-scaled format pays for its scales: NVFP4 stores 4 bits per element plus one FP8
/// scale per 16 elements = 4.5 bits; MXFP4 stores one 8-bit (E8M0) scale per 32 = 4.25 bits.

#include <llmcost/units/makers.hpp>

#include <array>
#include <optional>
#include <string_view>

namespace llmcost {

/// Which dense peak of an accelerator executes a matmul whose operands are in this format.
enum class compute_class { bf16, fp8, fp4, int8 };

[[nodiscard]] constexpr std::string_view to_string(compute_class c) {
    switch (c) {
        case compute_class::bf16: return "bf16";
        case compute_class::fp8: return "fp8";
        case compute_class::fp4: return "fp4";
        case compute_class::int8: return "int8";
    }
    return "?";
}

struct number_format {
    std::string_view name;
    double element_bits = 16.0;  ///< payload bits of one element
    int block_size = 0;          ///< elements sharing one scale; 0 = no block scale
    double scale_bits = 0.0;     ///< bits of each block's scale
    compute_class compute = compute_class::bf16;

    /// b = element_bits + scale_bits ÷ block_size — the storage cost per element.
    [[nodiscard]] constexpr double bits_per_element() const {
        return element_bits + (block_size > 0 ? scale_bits / block_size : 0.0);
    }
    /// bytes = n · b ÷ 8 — storage of n elements in this format.
    [[nodiscard]] constexpr bytes_t bytes_for(double elements) const {
        return bits(elements * bits_per_element());
    }
    /// bytes per element, b ÷ 8 (1 for FP8, 2 for BF16, 0.5625 for NVFP4).
    [[nodiscard]] constexpr bytes_t bytes_per_element() const { return bytes_for(1.0); }

    [[nodiscard]] constexpr bool operator==(const number_format&) const = default;
};

namespace formats {
// clang-format off
inline constexpr number_format fp32 {.name = "fp32", .element_bits = 32, .compute = compute_class::bf16};
inline constexpr number_format bf16 {.name = "bf16", .element_bits = 16, .compute = compute_class::bf16};
inline constexpr number_format fp16 {.name = "fp16", .element_bits = 16, .compute = compute_class::bf16};
/// FP8 E4M3 with per-tensor scales (negligible storage), as in TensorRT-LLM and DeepSeek-V3.
inline constexpr number_format fp8  {.name = "fp8",  .element_bits = 8,  .compute = compute_class::fp8};
inline constexpr number_format int8 {.name = "int8", .element_bits = 8,  .compute = compute_class::int8};
/// Weight-only INT4 (GPTQ/AWQ style): 4 bits + one FP16 scale per group of 128 = 4.125 bits.
/// It is dequantized for the matmul, so it computes at the activations' precision.
inline constexpr number_format int4 {.name = "int4", .element_bits = 4, .block_size = 128, .scale_bits = 16, .compute = compute_class::bf16};
/// Plain FP4 (E2M1) without block scales.
inline constexpr number_format fp4  {.name = "fp4",  .element_bits = 4,  .compute = compute_class::fp4};
/// NVFP4: E2M1 + one FP8 (E4M3) scale per 16 elements (NVIDIA Blackwell).
inline constexpr number_format nvfp4{.name = "nvfp4", .element_bits = 4, .block_size = 16, .scale_bits = 8, .compute = compute_class::fp4};
/// MXFP4: E2M1 + one E8M0 scale per 32 elements (OCP Microscaling spec v1.0).
inline constexpr number_format mxfp4{.name = "mxfp4", .element_bits = 4, .block_size = 32, .scale_bits = 8, .compute = compute_class::fp4};
// clang-format on

inline constexpr std::array all{fp32, bf16, fp16, fp8, int8, int4, fp4, nvfp4, mxfp4};
}  // namespace formats

/// The format called `name` ("bf16", "fp8", "nvfp4", …), if there is one.
[[nodiscard]] constexpr std::optional<number_format> format_named(std::string_view name) {
    for (const number_format& f : formats::all)
        if (f.name == name) return f;
    return std::nullopt;
}

}  // namespace llmcost
