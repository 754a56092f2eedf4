#pragma once
/// \file
/// Hardware descriptors: the accelerator (HBM, dense FLOP/s per precision, power), the links
/// that join accelerators (with an explicit direction convention), the memory tiers below HBM,
/// the node and cluster around them, and the facility that powers and pays for them.
///
/// **Example**
/// \code
/// constexpr hardware h = catalog::h100_sxm5;
/// static_assert(h.gpu.hbm_bandwidth == 3.35_TBps);
/// \endcode

#include <llmcost/descriptors/precision.hpp>
#include <llmcost/detail/lanes.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/units/makers.hpp>

#include <string_view>
#include <type_traits>

namespace llmcost {

/// A point-to-point link (`interconnect`, since POSIX owns `::link`). Bandwidth is **per direction**: what one endpoint can send while it
/// receives as much. Vendors often print the sum of both directions (NVLink 5: "1.8 TB/s" is
/// 900 GB/s each way); build such a link with `interconnect::from_bidirectional` so the halving is
/// visible (seed S36).
struct interconnect {
    std::string_view name;
    bytes_per_second_t per_direction;  ///< sustained bandwidth, one direction
    seconds_t latency;                 ///< one-way latency of a small message

    /// The vendor's both-directions figure: 2 × per-direction.
    [[nodiscard]] constexpr bytes_per_second_t both_directions() const { return per_direction * 2.0; }

    /// A link from a figure that counts both directions: per-direction = total ÷ 2.
    [[nodiscard]] static constexpr interconnect from_bidirectional(std::string_view name,
                                                           bytes_per_second_t both,
                                                           seconds_t latency) {
        return interconnect{.name = name, .per_direction = both / 2.0, .latency = latency};
    }

    constexpr void validate(std::string_view subject) const {
        require(positive_finite(per_direction.value()), subject, "per_direction (B/s)",
                per_direction.value(), "link bandwidth must be positive and finite");
        require(non_negative_finite(latency.value()), subject, "latency (s)", latency.value(),
                "link latency must be zero or positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const interconnect&) const = default;
};

/// A memory tier below HBM (host DRAM, local NVMe, network storage): its capacity per GPU and
/// the bandwidth at which one GPU can read from it.
struct memory_tier {
    std::string_view name;
    bytes_t capacity;              ///< per GPU
    bytes_per_second_t bandwidth;  ///< read bandwidth into one GPU

    constexpr void validate(std::string_view subject) const {
        require(positive_finite(capacity.value()), subject, "capacity (B)", capacity.value(),
                "a memory tier's capacity must be positive and finite");
        require(positive_finite(bandwidth.value()), subject, "bandwidth (B/s)", bandwidth.value(),
                "a memory tier's bandwidth must be positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const memory_tier&) const = default;
};

/// Dense (not 2:4-sparse) peak matmul rates per operand precision. Zero = no native unit for that
/// precision, or no published figure; `accelerator::peak` then falls back to a wider format, and a
/// cost formula that still finds zero refuses the request rather than dividing by it.
struct dense_peaks {
    flops_per_second_t bf16;  ///< also FP16
    flops_per_second_t fp8;
    flops_per_second_t fp4;
    flops_per_second_t int8;
    [[nodiscard]] constexpr bool operator==(const dense_peaks&) const = default;
};

/// The largest engine clock, MHz, a run may pin or a GPU's fractions be measured at (ASSUMED: no GPU clocks near it).
inline constexpr double max_engine_clock_MHz = 1e4;

/// What real kernels sustain of the datasheet figures, from micro-benchmarks (calibration rows
/// B01–B08; the sources are in tables/hardware.csv). Defaults are the ideal machine.
/// The rule of an engine clock f MHz a run pins (AMD's MLPerf harnesses: `rocm-smi --setperfdeterminism`): positive,
/// finite, at most 10,000 MHz (ASSUMED bound: no GPU clocks near it; it catches a unit slip). "0: not pinned" is the
/// callers' word for none and never reaches it. On a GPU, `achievable_fractions::require_clock` adds the fractions'.
constexpr void require_engine_clock(std::string_view subject, std::string_view field, double f_MHz) {
    require(f_MHz > 0.0 && f_MHz <= max_engine_clock_MHz, subject, field, f_MHz,
            "an engine clock a run pins is positive and finite, in MHz, at most 10,000", "llmcost.clock.range");
}

struct achievable_fractions {
    double hbm = 1.0;     ///< sustained HBM bandwidth ÷ spec (STREAM-like copy)
    double matmul = 1.0;  ///< GEMM FLOP/s ÷ dense peak for a very large GEMM (e∞)
    /// n₀ of the GEMM size curve e(n) = e∞ · n ÷ (n + n₀), n = ∛(m·k·n) the GEMM's mean dimension;
    /// 0: efficiency independent of size.
    double matmul_half_dim = 0.0;
    double attention = 1.0;       ///< fused-attention FLOP/s ÷ BF16 dense peak (prefill)
    seconds_t kernel_overhead{};  ///< fixed cost per kernel launch (launch gap, ramp and tail)
    /// The engine clock, in MHz, the compute fractions (GEMM, attention) were measured at where the
    /// source pinned it (AMD's MLPerf hipBLASLt table: 1,700); 0: not stated, so no clock scales them.
    double compute_clock_MHz = 0.0;
    /// The fraction of the datasheet dense FP4 peak the GPU's FP4 tensor units sustain on GEMMs, f ∈ (0, 1]: the
    /// FP4 peak a GEMM runs at is P_fp4 · f (`accelerator::fp4_gemm_peak`), under the same size curve as the other
    /// formats. 1: the datasheet's. Below 1 where a GPU's measured FP4 GEMMs fall short of its datasheet ratio to
    /// B200 while its FP8, BF16 and HBM do not (Blackwell Ultra: a power-limited FP4 rate; docs/blackwell-ultra-fp4.md).
    double fp4_sustained = 1.0;

    /// The fractions on a GPU whose engine clock is pinned at f MHz: e(f) = e(f₀) · f ÷ f₀ for the
    /// compute-bound fractions (GEMM e∞, fused attention), memory-bound ones unchanged — a kernel's
    /// FLOP a clock are fixed (peak = CUs × FLOP a clock × f; AMD's CDNA 3 datasheet peaks hold at
    /// 2,100 MHz), so its rate follows the clock. f = 0 or an unstated f₀: as they stand.
    [[nodiscard]] constexpr achievable_fractions at_clock(double f_MHz) const {
        if (f_MHz <= 0.0 || compute_clock_MHz <= 0.0) return *this;
        achievable_fractions e = *this;
        const double r = f_MHz / compute_clock_MHz;
        e.matmul = matmul * r;
        e.attention = attention * r;
        return e;
    }
    /// The rule of f on a GPU with these fractions: `require_engine_clock`, and the compute fractions at f, e · f ÷ f₀
    /// (`at_clock`), still at most 1 (a kernel cannot beat the peak): f ≤ f₀ ÷ max(e∞, attention) (MI325X: 1,700 ÷
    /// 0.5975 = 2,845 MHz). One rule for every caller of `at_engine_clock` (the CLI's --clock, Python's clock_MHz=,
    /// a sweep's and a measurement row's clock_MHz).
    constexpr void require_clock(std::string_view subject, std::string_view field, double f_MHz) const {
        require_engine_clock(subject, field, f_MHz);
        const achievable_fractions e = at_clock(f_MHz);
        require(e.matmul <= 1.0 && e.attention <= 1.0, subject, field, f_MHz,
                "at this engine clock the GPU's compute fractions, e(f) = e(f0) x f / f0 (f0: the clock they were "
                "measured at), would exceed 1 (a kernel above the peak): at most f0 / max(GEMM e, attention e)",
                "llmcost.clock.fractions");
    }

    /// Fraction of peak a GEMM of m rows (tokens) × k (inner) × n (outputs) sustains: the size
    /// curve at the padded size × tile quantisation, m ÷ padded(m).
    /// tile > 0: an engine kernel's own M units instead of the hardware's tiles (`padded_rows(m, tile)`).
    [[nodiscard]] constexpr double matmul_at(double m, double k, double n, double tile = 0.0) const {
        if (m <= 0.0 || matmul_half_dim <= 0.0) return matmul;
        return matmul_at_rows(m, detail::const_cbrt(k * n), tile);
    }
    /// The same with ∛(k·n) given: a GEMM class (the dense projections, the LM head, one expert)
    /// keeps k and n through every step, so a caller pricing many steps works its root out once.
    /// ∛(padded·k·n) = ∛padded · ∛(k·n), the first tabulated for the usual row counts. For one row
    /// count or a lane of them (detail/lanes.hpp): the same operations either way.
    /// `window`: the spread of a steady state's step token counts, w tokens wide (`expected_padded_rows`; below one
    /// token, the default, the exact rows of one step).
    template <class V>
        requires(!std::is_integral_v<V>)
    [[nodiscard]] constexpr V matmul_at_rows(const V& m, double cbrt_k_n, double tile = 0.0,
                                             const V& window = detail::lanes<V>::constant(0.0)) const {
        using L = detail::lanes<V>;
        if (matmul_half_dim <= 0.0) return L::constant(matmul);
        // The kernel computes the padded rows, so the size curve sees them too: the time of a GEMM
        // then never falls as rows are added within a unit (`padded_rows(m, tile)`).
        V padded = L::map(m, [tile](double x) { return x > 0.0 ? padded_rows(x, tile) : 1.0; });
        // A steady state's mean step: the staircase's mean over the window, lane by lane. Without a padding tile
        // (T = 0: the hardware's 64-row tiles) `expected_padded_rows` is the exact rows, so the lanes stay vectorised.
        if (tile > 0.0 && L::any(window >= 1.0))
            for (int i = 0; i < L::width; ++i)
                if (const double x = L::get(m, i); x > 0.0)
                    L::set(padded, i, expected_padded_rows(x, tile, L::get(window, i)));
        const V size = L::map(padded, [](double p) { return detail::cbrt_tabulated(p); }) * cbrt_k_n;
        return L::choose(m > 0.0, V(matmul * size / (size + matmul_half_dim) * (m / padded)), L::constant(matmul));
    }
    /// Rows a GEMM kernel computes for m tokens: whole 64-row tiles (CUTLASS 3 Hopper
    /// warp-specialised kernels); below 64 tokens, decode kernels swap the operands so that the
    /// tokens run along the tile's N side, which comes in steps of 8 (PTX wgmma n = 8…256;
    /// TensorRT-LLM's and CUTLASS's "swap AB" small-M kernels).
    [[nodiscard]] static constexpr double padded_rows(double m) {
        // × 1/tile, not ÷ tile: the tile is a power of two, so the same bits without a division.
        const bool small = m < gemm_tile_rows;
        return detail::const_ceil(m * (small ? 1.0 / gemm_small_m_step : 1.0 / gemm_tile_rows)) *
               (small ? gemm_small_m_step : gemm_tile_rows);
    }
    /// Rows a GEMM kernel computes for m tokens where an engine's kernel dispatch picks its tile by
    /// mp2 = max(64, next_pow2(m)) and its largest tile × cluster covers T rows of M: ⌈m ÷ u⌉ · u,
    /// u = min(T, mp2) (vLLM's CUTLASS sm90 FP8 scaled_mm, scaled_mm_sm90_fp8_dispatch.cuh @44d638a8: 64 × 64
    /// tile up to 64 tokens, 64 × 128 with a 2 × 1 cluster up to 128, 128 × 128 with a 2 × 1 cluster above, T = 256;
    /// `engine_kernels::fp8_gemm_tile_rows`, T a power of two ≥ 64). T = 0: the hardware's tiles (above); m ≤ 0: none.
    [[nodiscard]] static constexpr double padded_rows(double m, double tile) {
        if (!(tile > 0.0)) return padded_rows(m);
        if (!(m > 0.0)) return 0.0;
        const double u = padding_unit(m, tile);
        return detail::const_ceil(m / u) * u;
    }
    /// The M unit u of that dispatch at m tokens, T > 0: u = min(T, max(64, next_pow2(m))) (`padded_rows(m, T)`).
    [[nodiscard]] static constexpr double padding_unit(double m, double tile) {
        double u = gemm_tile_rows;
        while (u < m && u < tile) u *= 2.0;
        return u;
    }
    /// ∫₀ˣ padded_rows(y, T) dy, T > 0, x ≥ 0, in closed form over the stairs of `padded_rows(m, T)`: each stair
    /// (a, p] has the height p of its top, so F(x) = F(a) + p · (x − a) with a = p − u (u = `padding_unit`) above T
    /// and a = u ÷ 2 from 64 to T (next_pow2), a = 0 below 64; F at a stair's foot: 64 · a below 64,
    /// (2a² + 64²) ÷ 3 at a power of two a ≤ T (Σ v² ÷ 2 over v = 128 … a, a geometric sum), and
    /// F(T) + T² · (Σ j, j = 2 … a ÷ T) = F(T) + T² · ((a ÷ T)(a ÷ T + 1) ÷ 2 − 1) at a multiple a of T above it.
    [[nodiscard]] static constexpr double padded_rows_integral(double x, double tile) {
        if (!(x > 0.0)) return 0.0;
        const double p = padded_rows(x, tile), u = padding_unit(x, tile);
        const double below = gemm_tile_rows * gemm_tile_rows;  // F(64)
        auto at_pow2 = [below](double a) { return a > gemm_tile_rows ? (2.0 * a * a + below) / 3.0 : gemm_tile_rows * a; };
        const double top = tile > gemm_tile_rows ? tile : gemm_tile_rows;  // the stairs are whole units of T above T
        const double foot = p > top ? p - u : (p > gemm_tile_rows ? p / 2.0 : 0.0);
        const double n = foot / top;  // whole units of T below the foot, above T
        const double f_foot = foot > top ? at_pow2(top) + top * top * (n * (n + 1.0) / 2.0 - 1.0) : at_pow2(foot);
        return f_foot + p * (x - foot);
    }
    /// The mean rows that dispatch computes over steps whose token count spreads uniformly over a window of w tokens
    /// centred at m (a steady state's mean step, docs/expected-padding.md): p̄ = (F(m + w ÷ 2) − F(lo)) ÷ (m + w ÷ 2 −
    /// lo), F = `padded_rows_integral`, lo = max(0, m − w ÷ 2) (a step holds no fewer than 0 tokens: the low end
    /// clamps at the staircase's origin, where F = 0; below 64 tokens the staircase is flat at 64 rows, so 0 or 1
    /// changes nothing there). w < 1 (a count that does not spread over one token), T ≤ 0 (the hardware's 64-row
    /// tiles, `padded_rows(m)`) or m ≤ 0: the exact `padded_rows(m, T)`. Over a window of whole units above T it is
    /// m + T ÷ 2 (the uniform mean round-up; the integer count's m + (T − 1) ÷ 2, half a row below).
    [[nodiscard]] static constexpr double expected_padded_rows(double m, double tile, double window) {
        if (!(window >= 1.0) || !(tile > 0.0) || !(m > 0.0)) return padded_rows(m, tile);
        const double hi = m + window / 2.0, lo = m - window / 2.0 > 0.0 ? m - window / 2.0 : 0.0;
        return (padded_rows_integral(hi, tile) - padded_rows_integral(lo, tile)) / (hi - lo);
    }
    static constexpr double gemm_tile_rows = 64.0;
    static constexpr double gemm_small_m_step = 8.0;
    [[nodiscard]] constexpr bool operator==(const achievable_fractions&) const = default;
};

/// One accelerator (GPU) as the datasheet describes it.
struct accelerator {
    std::string_view name;
    bytes_t hbm_capacity;
    int hbm_stacks = 1;
    bytes_per_second_t hbm_bandwidth;
    dense_peaks dense;
    watts_t board_power;  ///< TDP/TGP
    watts_t idle_power;   ///< draw with nothing running
    achievable_fractions efficiency;
    /// What the driver keeps of the spec capacity: the spec's HBM less the device memory the runtime reports as the
    /// GPU's total (the total of `cudaMemGetInfo` / `torch.cuda.mem_get_info` that the engines' pool rules start from,
    /// nvidia-smi's "Total" less its "Reserved"; tables/hardware.csv `runtime_capacity_MiB`); 0: not published, the
    /// spec capacity. H200: 141 GiB − 143,071.875 MiB (150,021,734,400 B) = 1,312.125 MiB. Held as the reserve, not the total, so a caller who changes
    /// `hbm_capacity` moves the runtime's total with it.
    bytes_t driver_reserved{};

    /// H_rt = hbm_capacity − driver_reserved, the HBM the runtime reports. Every KV pool rule reads it
    /// (`kv_pool_per_gpu`): vLLM's gpu_memory_utilization multiplies the total the driver reports, TensorRT-LLM's
    /// free memory and SGLang's mem_fraction_static start from what it reports free.
    [[nodiscard]] constexpr bytes_t runtime_hbm() const { return hbm_capacity - driver_reserved; }

    /// The FP4 peak a GEMM runs at: P_fp4 · f, the datasheet's dense FP4 peak × the fraction the GPU sustains
    /// (`achievable_fractions::fp4_sustained`; B300 13,125 × 0.8702 = 11,421 TFLOP/s, from aiconfigurator's
    /// TensorRT-LLM NVFP4 GEMM tables, B107). Zero where the GPU has no FP4 units.
    [[nodiscard]] constexpr flops_per_second_t fp4_gemm_peak() const { return dense.fp4 * efficiency.fp4_sustained; }
    /// The dense peak that runs a matmul of compute class `c`: the datasheet's, except FP4's, the rate the FP4
    /// units sustain (`fp4_gemm_peak`). Without native FP4 units, FP4 operands are widened to FP8 (then BF16),
    /// at their datasheet peaks; without INT8 units, to BF16.
    [[nodiscard]] constexpr flops_per_second_t peak(compute_class c) const {
        switch (c) {
            case compute_class::fp4:
                if (dense.fp4.value() > 0) return fp4_gemm_peak();
                [[fallthrough]];
            case compute_class::fp8:
                if (dense.fp8.value() > 0) return dense.fp8;
                return dense.bf16;
            case compute_class::int8:
                if (dense.int8.value() > 0) return dense.int8;
                return dense.bf16;
            case compute_class::bf16: return dense.bf16;
        }
        return dense.bf16;
    }
    /// True when some peak can run compute class `c` (natively or widened).
    [[nodiscard]] constexpr bool supports(compute_class c) const { return peak(c).value() > 0; }
    /// Sustained HBM bandwidth: spec × achievable fraction.
    [[nodiscard]] constexpr bytes_per_second_t sustained_hbm_bandwidth() const {
        return hbm_bandwidth * efficiency.hbm;
    }
    /// Sustained matmul rate for compute class `c`: peak × achievable fraction.
    [[nodiscard]] constexpr flops_per_second_t sustained_peak(compute_class c) const {
        return peak(c) * efficiency.matmul;
    }
    /// Capacity of one HBM stack.
    [[nodiscard]] constexpr bytes_t stack_capacity() const {
        return hbm_capacity / static_cast<double>(hbm_stacks);
    }

    constexpr void validate() const {
        const std::string_view s = name;
        require(positive_finite(hbm_capacity.value()), s, "hbm_capacity (B)", hbm_capacity.value(),
                "must be positive and finite");
        // The runtime's total is the spec's less the driver's reserve, ECC and the spec's rounding, never more; more
        // than a tenth kept is a unit slip (a GiB figure in the MiB column): H200's gap is 0.4%, L4's (GDDR6) 8.5%.
        require(non_negative_finite(driver_reserved.value()) && driver_reserved <= hbm_capacity * 0.1, s,
                "driver_reserved (B)", driver_reserved.value(),
                "the runtime's total (runtime_capacity_MiB) must be at most the spec capacity and at least 90% of it "
                "(the gap is the driver's reserve, ECC and the spec's rounding: 0.4% on H200, 8.5% on L4; a figure far below "
                "is a GiB value in the MiB column)");
        require(hbm_stacks >= 1, s, "hbm_stacks", hbm_stacks, "an accelerator has at least one HBM stack");
        require(stack_capacity() >= gigabytes(1.0), s, "hbm_capacity (B)", hbm_capacity.value(),
                "capacity per stack is below 1 GB, smaller than any HBM stack: check hbm_stacks");
        require(stack_capacity() <= gigabytes(64.0), s, "hbm_stacks", hbm_stacks,
                "capacity per stack is above 64 GB, more than any HBM stack: check hbm_capacity");
        require(positive_finite(hbm_bandwidth.value()), s, "hbm_bandwidth (B/s)",
                hbm_bandwidth.value(), "must be positive and finite");
        require(non_negative_finite(dense.bf16.value()), s, "dense.bf16 (FLOP/s)", dense.bf16.value(),
                "must be zero (not published) or positive and finite");
        require(dense.bf16.value() > 0 || dense.fp8.value() > 0 || dense.fp4.value() > 0, s,
                "dense.bf16 (FLOP/s)", dense.bf16.value(),
                "an accelerator needs at least one positive dense peak (bf16, fp8 or fp4)");
        require(non_negative_finite(dense.fp8.value()), s, "dense.fp8 (FLOP/s)", dense.fp8.value(),
                "must be zero (no FP8 units) or positive and finite");
        require(non_negative_finite(dense.fp4.value()), s, "dense.fp4 (FLOP/s)", dense.fp4.value(),
                "must be zero (no FP4 units) or positive and finite");
        require(non_negative_finite(dense.int8.value()), s, "dense.int8 (FLOP/s)", dense.int8.value(),
                "must be zero (no INT8 units) or positive and finite");
        require(positive_finite(board_power.value()), s, "board_power (W)", board_power.value(),
                "must be positive and finite");
        require(non_negative_finite(idle_power.value()) && idle_power < board_power, s,
                "idle_power (W)", idle_power.value(), "must be at least 0 and below board_power");
        require(efficiency.hbm > 0.0 && efficiency.hbm <= 1.0, s, "efficiency.hbm", efficiency.hbm,
                "an achievable fraction must be in (0, 1]");
        require(efficiency.matmul > 0.0 && efficiency.matmul <= 1.0, s, "efficiency.matmul",
                efficiency.matmul, "an achievable fraction must be in (0, 1]");
        require(non_negative_finite(efficiency.matmul_half_dim), s, "efficiency.matmul_half_dim",
                efficiency.matmul_half_dim, "must be zero (no size effect) or positive and finite");
        require(efficiency.attention > 0.0 && efficiency.attention <= 1.0, s, "efficiency.attention",
                efficiency.attention, "an achievable fraction must be in (0, 1]");
        require(non_negative_finite(efficiency.kernel_overhead.value()) && efficiency.kernel_overhead.value() < 1e-3,
                s, "efficiency.kernel_overhead (s)", efficiency.kernel_overhead.value(),
                "a per-kernel overhead must be in [0, 1 ms)");
        require(efficiency.fp4_sustained > 0.0 && efficiency.fp4_sustained <= 1.0, s, "efficiency.fp4_sustained",
                efficiency.fp4_sustained,
                "the fraction of the datasheet FP4 peak a GPU sustains on GEMMs must be in (0, 1] (1: the datasheet's)");
        require(efficiency.fp4_sustained == 1.0 || dense.fp4.value() > 0, s, "efficiency.fp4_sustained",
                efficiency.fp4_sustained,
                "a sustained fraction of the FP4 peak needs FP4 units: on a GPU without them (dense.fp4 = 0) it is 1, the "
                "datasheet's (its FP4 GEMMs run widened at the FP8 or BF16 peak, which no FP4 fraction touches)");
        // The clock the fractions were measured at obeys the pinned clock's bound: --clock f scales them by f ÷ f₀,
        // so an f₀ in Hz or kHz (1.7e9 for 1,700 MHz) would price every GEMM ~10^6 times slower without a word.
        require(efficiency.compute_clock_MHz == 0.0 ||
                    (efficiency.compute_clock_MHz > 0.0 && efficiency.compute_clock_MHz <= max_engine_clock_MHz),
                s, "efficiency.compute_clock_MHz", efficiency.compute_clock_MHz,
                "must be zero (not stated) or a clock in (0, 10,000] MHz, the bound of an engine clock a run pins",
                "llmcost.clock.range");
    }
    [[nodiscard]] constexpr bool operator==(const accelerator&) const = default;
};

/// A deployable system: the accelerator, its scale-up fabric and domain, its scale-out NIC, the
/// memory tiers below HBM, and the optics that join domains (seed S8–S10, S17, S35).
struct hardware {
    std::string_view name;
    accelerator gpu;
    interconnect scale_up;            ///< NVLink / Infinity Fabric, per GPU
    int scale_up_domain = 8;  ///< GPUs joined by the scale-up fabric (copper inside, seed S9)
    interconnect scale_out;           ///< the NIC of one GPU (optics outside the domain)
    int gpus_per_node = 8;
    memory_tier host_memory;  ///< host DRAM share of one GPU, and its bandwidth to the GPU
    memory_tier storage;      ///< local NVMe share of one GPU, and its read bandwidth
    int transceivers_per_gpu = 0;   ///< optical modules per GPU outside the domain (seed S10)
    watts_t transceiver_power;      ///< per module
    dollars_t capex_per_gpu;        ///< purchase price of one GPU with its share of the server; 0 = unknown
    std::string_view status = "spec";  ///< "spec" or "preliminary"

    constexpr void validate() const {
        gpu.validate();
        const std::string_view s = name;
        scale_up.validate(s);
        scale_out.validate(s);
        host_memory.validate(s);
        storage.validate(s);
        require(scale_up_domain >= 1, s, "scale_up_domain", scale_up_domain,
                "a scale-up domain holds at least one GPU");
        require(gpus_per_node >= 1, s, "gpus_per_node", gpus_per_node, "a node holds at least one GPU");
        require(transceivers_per_gpu >= 0, s, "transceivers_per_gpu", transceivers_per_gpu,
                "must not be negative");
        require(non_negative_finite(transceiver_power.value()), s, "transceiver_power (W)",
                transceiver_power.value(), "must be zero or positive and finite");
        require(non_negative_finite(capex_per_gpu.value()), s, "capex_per_gpu ($)",
                capex_per_gpu.value(), "must be zero (unknown) or positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const hardware&) const = default;
};

/// The site: power multipliers on top of the GPUs and the money side (seed S30, T1, T7).
struct facility {
    std::string_view name;
    double server_overhead = 1.3;  ///< server power ÷ GPU power: CPUs, NICs, fans (S30)
    double cooling = 1.2;          ///< facility power ÷ IT power (≈ PUE) (S30)
    dollars_per_joule_t electricity;
    seconds_t depreciation;  ///< straight-line depreciation period of the hardware

    /// Wall power per GPU watt: server overhead × cooling (1.56 in the seed's receipt).
    [[nodiscard]] constexpr double power_multiplier() const { return server_overhead * cooling; }

    /// The neutral site, the default where a formula takes one: the GPUs alone (no server or
    /// cooling overhead), energy not priced, and the 5-year straight-line depreciation servers
    /// are commonly booked at. Name your own site (or a catalog one) for wall power and energy $.
    [[nodiscard]] static constexpr facility gpus_only() {
        return {.name = "GPUs only (no site given)", .server_overhead = 1.0, .cooling = 1.0,
                .electricity = dollars_per_joule_t::from_value(0.0), .depreciation = years(5.0)};
    }

    constexpr void validate() const {
        const std::string_view s = name;
        require(server_overhead >= 1.0 && server_overhead <= 10.0, s, "server_overhead", server_overhead,
                "a multiplier of GPU power must be in [1, 10]");
        require(cooling >= 1.0 && cooling <= 10.0, s, "cooling", cooling,
                "a PUE-like multiplier must be in [1, 10]");
        require(non_negative_finite(electricity.value()), s, "electricity ($/J)", electricity.value(),
                "must be zero or positive and finite");
        require(positive_finite(depreciation.value()), s, "depreciation (s)", depreciation.value(),
                "must be positive and finite");
    }
    [[nodiscard]] constexpr bool operator==(const facility&) const = default;
};


}  // namespace llmcost
