#pragma once
/// \file
/// Catalog of serving-engine profiles: one per engine × GPU architecture it runs on. Each entry is
/// one row of `tables/engines.csv`, in the CSV's own units, turned into a typed `engine_profile`
/// by `from_row` (descriptors/engine_row.hpp); a test loads the CSV through the same function and
/// checks that both agree field for field. Every figure's source (ids E01–E121 are rows of
/// ENGINES.md's micro-benchmark table, copied into the CSV's `source` column) is in the CSV.
///
/// `engine_for(kind, hw)` is the one lookup every entry point uses: the profile of that engine on
/// that GPU's architecture, or a refusal naming the engine, the GPU and the engines that do run
/// there. A deployment that names no engine keeps `engine_profile::reference()`.
///
/// One engine may have several profiles on one architecture, one per version range (the CSV's
/// `version` column, "0.9-0.16"): the first row of an engine × architecture is its **default**, the
/// profile `engine_for` and `--engine` give; a measurement that states its version is priced by the
/// profile whose range covers it (`find_engine(kind, a, version)`), and by the default where no
/// range does (a version the catalog has no profile for, or one that is not a release number).

#include <llmcost/descriptors/engine.hpp>
#include <llmcost/descriptors/engine_row.hpp>
#include <llmcost/descriptors/hardware.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace llmcost::catalog {

// clang-format off
// name | engine | architecture | version | kernels: gemm, grouped_gemm, expert_tile_rows, attention_prefill,
// attention_decode, attention_fp8, mla_decode, elementwise, weights | step µs, launch eager µs, launch graph µs,
// cuda_graphs | all-reduce µs, custom max KiB, all-to-all µs, library all-reduce µs, its bus GB/s | max seqs, max batched tokens, chunked, chunk,
// KV fraction, KV block, prompt steps alone | EP, attention DP, EPLB, routing skew, busiest rank, MTP | request front end µs
// | dense FP4 GEMM curve: e∞, n₀ (0, 0: the hardware's) | FP4 GEMM with its activations' quantization kernel: e∞, n₀ (0, 0: none) | attention DP balance (0: not measured)
// | mixed-input (W4A16) expert GEMM ceiling, a fraction of the peak (0: none), the multiples it pads the hidden
// dimension and the expert's width to (0: none) | per-kernel cost of an eager prompt step µs (0: none)
// | the host's enqueue per kernel of a step without CUDA graphs µs (0: none)
// | the custom all-reduce's largest message at 2 ranks KiB (0: the custom max KiB at every count)
// | dense FP8 GEMM curve: e∞ of the datasheet FP8 peak, n₀ (0, 0: the hardware's)
// | kernels of an MoE layer's router and experts in the engine's fused runner (0: the generic 7)
// | the TP all-reduce also adds the residual and applies the next RMSNorm (0/1)
// | experts narrower than 8 bits run with 8-bit activations at the FP8 peak (0/1)
// | the custom all-reduce's bus bandwidth GB/s where it was measured (0: the link's per-direction bandwidth)
// | a benchmark run's cold opening ms, its cost per prompt token of the opening's requests µs (0, 0: none)
// | dense BF16 GEMM curve: e∞ of the datasheet BF16 peak, n₀ (0, 0: the hardware's)
// | the prompts' and the decodes' attention of a step run as two kernels (0/1; 0: one kernel over both)
// | kernels of an absorbed MLA attention block at decode (0: the generic 4)
// | the prompts' attention curve e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀) of the BF16 peak: e∞, s₀ keys, W₀ query-head rows (0, 0, 0: the one rate)
// | FP8 experts' (FP8 weights and activations) GEMM rate over the expert size curve (0: none)
// | the KV pool rule its kv_memory_fraction follows (kv_pool_rule; docs/kv-pool.md)
// | non-KV memory (docs/kv-pool.md): activation coefficients at TP 1, 2, 4, 8 dense, then MoE; activations floor (MiB), overhead share; NCCL buffers at TP 1, 2, 4, 8 (B); runtime memory (B), overhead share (all 0: not given)
// | under attention DP, an EP group of at most top-k ranks all-gathers and reduce-scatters its tokens (0/1; 0: the all-to-all); the library all-gather's fit a₀ µs, a₁ µs per further rank, bus GB/s (0, 0, 0: the link model; docs/trtllm-moe-comm.md)
// | kernels of one shared expert outside the routed runner (0: none priced); under CUDA graphs it runs on an auxiliary stream beside the routed experts (0/1; docs/shared-expert-kernels.md)
// | kernels a latent attention layer adds on an FP8 block-scaled checkpoint (0: none); where a TP group spans hosts: the engine's all-reduce a µs, bus GB/s (0, 0: the in-host rules), kernels a layer it adds back (0: none), its largest message KiB (0: no bound; docs/trtllm-mnnvl-all-reduce.md)
// | the most rows a dense FP8 GEMM kernel's M extent covers, p = ceil(m/u)·u, u = min(T, max(64, next_pow2(m))) (0: the hardware's padding; docs/vllm-hopper-fp8-gemm.md) | the FP4 × FP4 (W4A4) experts' GEMM rate over the expert size curve (0: none; docs/aiter-fused-moe.md §8)
// | QuickReduce (ROCm's quantized all-reduce where a run turns it on): fixed time µs, bus GB/s, smallest and largest message KiB (0, 0, 0, 0: none; docs/cdna-all-reduce.md §7)
// | the custom all-reduce's large-message curve above its checked range: fixed time µs, bus GB/s, the smallest message it takes KiB (S above it, up to the custom max; 0, 0, 0: none; docs/cdna-all-reduce.md §9)
// | a fused shared expert whole on every EP rank (0/1), a cold run's first-use build s (0: none)
// | the host's time per request of a serial prompt step µs (0: none; docs/trtllm-prefill-request.md)
// | vLLM V0's scheduler pass on the host: fixed µs, per TP rank beyond the first µs, per scheduled sequence µs (0, 0, 0: none; docs/vllm-v0-host-loop.md)
// | V0's output processing per sequence-step µs (0: none) | one padded m-block of an expert runner fed the all-to-all's whole receive buffer ns (0: none; docs/mi355x-disagg-decode.md §6)
// | ... | the prefix total below which a prompt step carrying a prefix runs absorbed MLA, tokens (0: never; docs/sglang-closed-loop-ttft.md §8)
// | the MoE models whose router the engine keeps whole on every rank in BF16 (router_whole_bf16: none, every_moe, latent_moe; docs/kv-pool.md)
inline constexpr engine_profile trtllm_hopper = from_row(engine_row{"TensorRT-LLM on Hopper", "trtllm", "hopper", "0.17-1.0", 1, 1, 0, 1, 1, 1, 2.015, 1, 1, 0, 0, 0, 0, 0, 7812.5, 0, 58.95, 460.7, 2048, 8192, 0, 0, 0.9, 32, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0.877, 0, 0, 0, 0, 0, 15625, 0, 0, 0, 0, 0, 0, 0, 0, 0.7721, 98.5, 0, 0, 0, 0, 0, 0, "free_after_weights", 11, 6.5, 5, 5, 22, 13, 10, 10, 70, 0, 0, 358612992, 411041792, 411041792, 3758096384, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9901, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "latent_moe"});
inline constexpr engine_profile trtllm_blackwell = from_row(engine_row{"TensorRT-LLM on Blackwell", "trtllm", "blackwell", "0.17-1.0", 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1024, 24.95, 28.5, 619, 2048, 8192, 0, 0, 0.9, 32, 0, 0, 0, 0, 0, 1, 0, 29840, 0.6872, 3640, 0.6113, 4825, 0.877, 0, 0, 0, 75.89, 32.47, 0, 0, 0, 6, 1, 1, 0, 0, 0, 0, 0, 1, 9, 0.7376, 1162, 40160, 0, "free_after_weights", 11, 6.5, 5, 5, 22, 13, 10, 10, 70, 0, 0, 358612992, 411041792, 411041792, 3758096384, 0, 1, 8.836, 1.254, 428.8, 3, 1, 0, 9.8, 144, 2, 1984, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9901, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "latent_moe"});
inline constexpr engine_profile vllm_hopper = from_row(engine_row{"vLLM on Hopper", "vllm", "hopper", "0.10-0.11", 1, 1, 0, 1, 1, 1, 2.015, 1, 1, 0, 0, 1.50, 1, 10.1, 256, 95.5, 0, 0, 1024, 8192, 1, 8192, 0.9, 16, 0, 0, 0, 0, 0, 1, 0, 28720, 0, 0, 0, 0, 0, 0.2571, 256, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.7721, 98.5, 0, 0, 0, 0, 0, 0, "share_of_total", 11, 6.5, 5, 5, 22, 13, 10, 10, 70, 0, 0, 358612992, 411041792, 411041792, 3758096384, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 256, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 934.3, 349.1, 72.33, 0, 0, 0, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile vllm_blackwell = from_row(engine_row{"vLLM on Blackwell", "vllm", "blackwell", "0.10-0.11", 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 10.1, 1024, 24.95, 0, 0, 1024, 8192, 1, 8192, 0.9, 16, 0, 0, 0, 0, 0, 1, 0, 21170, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "share_of_total", 11, 6.5, 5, 5, 22, 13, 10, 10, 70, 0, 0, 358612992, 411041792, 411041792, 3758096384, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile vllm_cdna3 = from_row(engine_row{"vLLM on CDNA3 (ROCm)", "vllm", "cdna3", "0.9-0.11 (ROCm)", 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 16.22, 32, 0, 17.04, 223.4, 1024, 8192, 1, 8192, 0.9, 16, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 37.84, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "share_of_total", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile vllm_cdna4 = from_row(engine_row{"vLLM on CDNA4 (ROCm)", "vllm", "cdna4", "0.10-0.11 (ROCm)", 0.9215, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 6.3, 24, 0, 0, 0, 1024, 8192, 1, 8192, 0.9, 16, 0, 0, 0, 0, 0, 1, 0, 0, 0.7081, 5029, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "share_of_total", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile sglang_hopper = from_row(engine_row{"SGLang on Hopper", "sglang", "hopper", "0.4-0.5", 1, 1, 0, 1, 1, 1, 2.015, 1, 1, 0, 0, 1.194, 1, 5.9, 256, 95.5, 0, 0, 2048, 8192, 1, 8192, 0.875, 1, 1, 0, 0, 0, 0, 1, 0, 24450, 0, 0, 0, 0, 0, 0, 0, 0, 59.28, 0, 0, 0, 0, 0, 0, 0, 0, 611.1, 0, 0.7721, 98.5, 0, 13, 0, 0, 0, 0, "share_of_total_static", 14, 8.5, 6.5, 6.5, 28, 17, 13, 13, 90, 0.15, 0, 358612992, 411041792, 411041792, 3758096384, 0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2175, 0, 1, 8192, "every_moe"});
inline constexpr engine_profile sglang_blackwell = from_row(engine_row{"SGLang on Blackwell", "sglang", "blackwell", "0.4-0.5", 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1.192, 1, 5.416, 1024, 24.95, 0, 0, 2048, 16384, 1, 16384, 0.875, 1, 1, 0, 0, 0, 0, 1, 0, 6298, 0, 0, 0, 0, 0, 0, 0, 0, 75.89, 0, 0, 0, 0, 0, 1, 0, 160.7, 185.3, 129.7, 0, 0, 0, 11, 0, 0, 0, 0.4953, "share_of_total_static", 14, 8.5, 6.5, 6.5, 28, 17, 13, 13, 90, 0.15, 0, 358612992, 411041792, 411041792, 3758096384, 0.2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile sglang_cdna3 = from_row(engine_row{"SGLang on CDNA3 (ROCm)", "sglang", "cdna3", "0.4-0.5 (ROCm)", 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 13.01, 1, 16.22, 32, 41, 17.04, 223.4, 2048, 16384, 1, 16384, 0.875, 1, 1, 0, 0, 0, 0, 1, 0, 17580, 0, 0, 0, 0, 0, 0, 0, 0, 64.97, 0, 0, 0.4332, 3493, 0, 0, 0, 0, 2516, 26.06, 0, 0, 0, 0, 0, 0, 0, 0, "share_of_total_static", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, "every_moe"});
inline constexpr engine_profile sglang_cdna4 = from_row(engine_row{"SGLang on CDNA4 (ROCm)", "sglang", "cdna4", "0.4-0.5 (ROCm)", 0.9215, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 5.04, 1, 6.3, 65536, 33.5, 56.88, 380, 2048, 16384, 1, 16384, 0.875, 1, 1, 0, 0, 0, 0, 1, 0, 11720, 0, 0, 0, 0, 0, 0, 0, 0, 64.97, 0, 0, 0.4275, 5741, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.4421, "share_of_total_static", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0.2222, 25.39, 625.2, 2048, 2097152, 2.80, 273.3, 1536, 1, 21.64, 0, 0, 0, 0, 0, 7.504, 2, 0, 0.85, 0, 0, "every_moe"});
inline constexpr engine_profile trtllm_hopper_trt_engine = from_row(engine_row{"TensorRT-LLM 0.9-0.16 on Hopper (TensorRT engine + Triton)", "trtllm", "hopper", "0.9-0.16", 1, 1, 0, 1, 1, 1, 2.015, 1, 1, 0, 4.965, 0, 0, 3.013, 976.5625, 0, 16, 310.7, 2048, 8192, 0, 0, 0.9, 32, 0, 0, 0, 0, 0, 1, 0, 5954, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15625, 0, 0, 0, 0, 0, 159.4, 0, 0, 0.7721, 98.5, 0, 0, 0, 0, 0, 0, "free_after_weights", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "none"});
// clang-format on

/// Every profile, in tables/engines.csv's order: an engine × architecture's first row is its default.
inline constexpr std::array all_engines{trtllm_hopper, trtllm_blackwell, vllm_hopper,  vllm_blackwell, vllm_cdna3,
                                        vllm_cdna4,    sglang_hopper,    sglang_blackwell, sglang_cdna3, sglang_cdna4,
                                        trtllm_hopper_trt_engine};

/// A release number's major and minor parts ("0.14.0" → {0, 14}); nothing where the text does not
/// start with digits, a dot and digits ("1.0 (era)" → {1, 0}; "MLPerf v5.1 harness" → nothing).
struct release {
    int major = 0, minor = 0;
    [[nodiscard]] constexpr bool operator<=(const release& o) const {
        return major < o.major || (major == o.major && minor <= o.minor);
    }
};
[[nodiscard]] constexpr std::optional<release> release_of(std::string_view text) {
    auto number = [&](std::size_t& i) -> std::optional<int> {
        int v = 0;
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 6) v = v * 10 + (text[i++] - '0');
        if (i == start) return std::nullopt;
        return v;
    };
    std::size_t i = 0;
    const std::optional<int> major = number(i);
    if (!major || i >= text.size() || text[i] != '.') return std::nullopt;
    ++i;
    const std::optional<int> minor = number(i);
    if (!minor) return std::nullopt;
    return release{*major, *minor};
}

/// Whether a profile's version range ("0.9-0.16", "0.17-1.0", "0.9-0.11 (ROCm)") covers the release
/// `version` names: lo ≤ version ≤ hi on (major, minor). A range or version that is not a release
/// number covers nothing.
[[nodiscard]] constexpr bool version_covers(std::string_view range, std::string_view version) {
    const std::optional<release> v = release_of(version);
    const std::size_t dash = range.find('-');
    if (!v || dash == std::string_view::npos) return false;
    const std::optional<release> lo = release_of(range.substr(0, dash)), hi = release_of(range.substr(dash + 1));
    return lo && hi && *lo <= *v && *v <= *hi;
}

/// The architecture of a catalog GPU, by its name (tables/hardware.csv); nothing for a GPU the
/// catalog does not know (a user's own hardware row).
[[nodiscard]] constexpr std::optional<gpu_architecture> architecture_of(std::string_view gpu) {
    struct entry {
        std::string_view gpu;
        gpu_architecture arch;
    };
    constexpr std::array<entry, 21> table{{
        {"H100 SXM5", gpu_architecture::hopper},     {"H200 SXM", gpu_architecture::hopper},
        {"H800 SXM", gpu_architecture::hopper},      {"H100 PCIe", gpu_architecture::hopper},
        {"H100 NVL", gpu_architecture::hopper},      {"H20", gpu_architecture::hopper},
        {"GH200", gpu_architecture::hopper},         {"B200 (HGX)", gpu_architecture::blackwell},
        {"GB200 (NVL72)", gpu_architecture::blackwell}, {"B300 (HGX)", gpu_architecture::blackwell},
        {"GB300 (NVL72)", gpu_architecture::blackwell}, {"Rubin (VR200 NVL144)", gpu_architecture::rubin},
        {"MI300X", gpu_architecture::cdna3},         {"MI325X", gpu_architecture::cdna3},
        {"MI355X", gpu_architecture::cdna4},         {"A100 SXM 80GB", gpu_architecture::ampere},
        {"A100 SXM 40GB", gpu_architecture::ampere}, {"A100 PCIe 80GB", gpu_architecture::ampere},
        {"A100 PCIe 40GB", gpu_architecture::ampere}, {"L40S", gpu_architecture::ada},
        {"L4", gpu_architecture::ada},
    }};
    for (const entry& e : table)
        if (e.gpu == gpu) return e.arch;
    return std::nullopt;
}

/// The catalog's default profile of `kind` on architecture `a` (its first row), if it has one.
[[nodiscard]] constexpr std::optional<engine_profile> find_engine(engine_kind kind, gpu_architecture a) {
    for (const engine_profile& e : all_engines)
        if (e.kind == kind && e.architecture == a) return e;
    return std::nullopt;
}

/// The profile of `kind` on `a` whose version range covers `version` (a source's "0.14.0"); the
/// default profile where none does (`find_engine(kind, a)`); nothing where the engine has no
/// profile on `a`.
[[nodiscard]] constexpr std::optional<engine_profile> find_engine(engine_kind kind, gpu_architecture a,
                                                                  std::string_view version) {
    for (const engine_profile& e : all_engines)
        if (e.kind == kind && e.architecture == a && version_covers(e.version, version)) return e;
    return find_engine(kind, a);
}

/// The catalog engines with a profile for architecture `a`, as "trtllm, vllm" (empty: none).
[[nodiscard]] inline std::string engines_on(gpu_architecture a) {
    std::string out;
    for (engine_kind k : all_engine_kinds)
        if (find_engine(k, a)) {
            if (!out.empty()) out += ", ";
            out += to_string(k);
        }
    return out;
}

/// The profile of engine `kind` on GPU `hw`: the reference engine for `engine_kind::reference`;
/// otherwise the catalog's profile for the GPU's architecture. Refuses a GPU the catalog cannot
/// place and an engine with no profile there, naming the engine, the GPU and the alternatives.
[[nodiscard]] inline engine_profile engine_for(engine_kind kind, const hardware& hw) {
    if (kind == engine_kind::reference) return engine_profile::reference();
    const std::optional<gpu_architecture> a = architecture_of(hw.name);
    std::string rule;
    if (!a) {
        rule = std::string(to_string(kind));
        rule += ": the engine catalog does not know this GPU's architecture (a catalog GPU is needed to pick an engine "
               "profile; without --engine the reference engine prices any GPU)";
    } else if (const std::optional<engine_profile> p = find_engine(kind, *a)) {
        return *p;
    } else {
        const std::string others = engines_on(*a);
        rule = std::string(to_string(kind));
        rule += " has no profile for ";
        rule += to_string(*a);
        rule += " GPUs; engines with a profile there: ";
        rule += others.empty() ? std::string("none (use the reference engine)") : others;
    }
    throw invalid_input(std::string(hw.name), "engine", to_string(kind), rule, "llmcost.engine.not_on_gpu");
}

}  // namespace llmcost::catalog
