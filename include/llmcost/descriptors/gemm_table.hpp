#pragma once
/// \file
/// A measured GEMM table: the times a GEMM library's tuning file records for one model's dense projections at
/// each token count, as a harness loads it (AMD's MLPerf harness: `HIPBLASLT_TUNING_OVERRIDE_FILE`, a hipBLASLt
/// bench log). Where a deployment carries one (`deployment::gemm_tuning`), the step's projection time is the
/// table's instead of the size curve's (`gemm_table_efficiency`, costs/passes.hpp). The catalog's tables are in
/// catalog/gemm_tables.hpp; the rules (glitches, gaps, beyond the ends) in docs/amd-hipblaslt-tables.md.

#include <llmcost/descriptors/model.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/math.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace llmcost {

/// One GEMM of the table: k inner and n output dimensions, as `achievable_fractions::matmul_at(m, k, n)` names
/// them (hipBLASLt's K and M); the token count m is the entry's.
struct gemm_shape {
    std::string_view name;
    double k = 0;
    double n = 0;
    [[nodiscard]] constexpr bool operator==(const gemm_shape&) const = default;
};

/// One measured entry: the shape (index into the table's shapes), the token count m and the time in µs as published.
struct gemm_table_entry {
    int shape = 0;
    double m_tokens = 0;
    double time_us = 0;
    [[nodiscard]] constexpr bool operator==(const gemm_table_entry&) const = default;
};

/// The glitch rule (docs/amd-hipblaslt-tables.md), stated, not fitted: an entry more than 1.3× both measured
/// neighbours of its shape is a timing glitch, t > 1.3 · t₋ ∧ t > 1.3 · t₊.
inline constexpr double gemm_glitch_ratio = 1.3;
[[nodiscard]] constexpr bool gemm_glitch(double before, double here, double after) {
    return here > gemm_glitch_ratio * before && here > gemm_glitch_ratio * after;
}

/// A table of the four dense projections of one model's layer (QKV, O, gate/up, down) on one GPU, measured at
/// multiples of `row_step` tokens (hipBLASLt's logs copy each measurement to the 15 counts below it).
struct gemm_table {
    static constexpr int shape_count = 4;
    static constexpr double row_step = 16.0;
    static constexpr std::size_t slots = 256;  ///< m = 16 · i, i < slots: up to 4,080 tokens

    std::string_view id;
    std::string_view gpu;              ///< `accelerator::name` the table was measured on
    double clock_MHz = 0;              ///< the engine clock its times hold at
    std::array<gemm_shape, shape_count> shapes{};
    std::span<const gemm_table_entry> entries{};  ///< as published, by shape then m
    /// Σ over the shapes of their time at m = 16 · i (µs): the entry, glitches replaced by the mean of their
    /// neighbours (`gemm_glitch`), or interpolated in a shape's gap; 0 outside [first, last]. Worked out once by
    /// `make_gemm_table`.
    std::array<double, slots> layer_us{};
    std::size_t first = 0, last = 0;   ///< slots of the smallest and the largest size every shape has
    int glitches = 0;                  ///< entries the glitch rule replaced

    /// F ÷ t = 2 · Σ k · n: the FLOPs a token costs in one layer's four projections.
    [[nodiscard]] constexpr double flops_per_token_layer() const {
        double s = 0;
        for (const gemm_shape& g : shapes) s += 2.0 * g.k * g.n;
        return s;
    }

    /// The published time of `shape` at m tokens (µs) after the glitch rule: t, or (t₋ + t₊) ÷ 2 where
    /// `gemm_glitch(t₋, t, t₊)` with t₋, t₊ its measured neighbours of the same shape; 0: not measured.
    [[nodiscard]] constexpr double entry_us(int shape, double m) const {
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (entries[i].shape == shape && entries[i].m_tokens == m) return entry_us_at(i);
        return 0.0;
    }
    /// The same for the i-th entry.
    [[nodiscard]] constexpr double entry_us_at(std::size_t i) const {
        const gemm_table_entry& e = entries[i];
        const bool inner = i > 0 && i + 1 < entries.size() && entries[i - 1].shape == e.shape && entries[i + 1].shape == e.shape;
        if (inner && gemm_glitch(entries[i - 1].time_us, e.time_us, entries[i + 1].time_us))
            return (entries[i - 1].time_us + entries[i + 1].time_us) / 2.0;
        return e.time_us;
    }

    /// One layer's four projections at t tokens (s, at the table's clock), the rules of docs/amd-hipblaslt-tables.md:
    /// - m = ⌈t ÷ 16⌉ · 16 within the table's range: T(m) = Σ over the shapes of the time at m (`layer_us`: the row
    ///   hipBLASLt matches, a copy of the measurement at m; in a shape's gap, interpolated);
    /// - m above the largest size every shape has, M: T(M) · t ÷ M, the rate at M (ASSUMED: the run falls back to
    ///   hipBLASLt's heuristics there, whose speed has no source);
    /// - m below the smallest: −1, no figure (the caller keeps its size curve).
    [[nodiscard]] constexpr double layer_seconds(double t) const {
        if (!(t > 0.0)) return -1.0;
        const double q = detail::const_ceil(t / row_step);
        if (q < static_cast<double>(first)) return -1.0;
        if (q > static_cast<double>(last)) return layer_us[last] * 1e-6 * t / (static_cast<double>(last) * row_step);
        return layer_us[static_cast<std::size_t>(q)] * 1e-6;
    }

    /// The table's token range, by `layer_seconds`'s rule m = ⌈t ÷ 16⌉ · 16: the smallest token count with a
    /// measured figure, t = 16 · (first − 1) + 1 (the 15 counts below a measured size copy it; 1 when the first
    /// slot is 0), ...
    [[nodiscard]] constexpr tokens_t first_tokens() const {
        return tokens(first == 0 ? 1.0 : static_cast<double>(first) * row_step - (row_step - 1.0));
    }
    /// ... and the largest measured, 16 · last (above it `layer_seconds` takes the rate at it).
    [[nodiscard]] constexpr tokens_t last_tokens() const { return tokens(static_cast<double>(last) * row_step); }

    /// The rules of a table that exists: an id, a GPU, a positive clock, four shapes, entries at whole
    /// multiples of 16 tokens within `slots`, in order, with positive times, every shape measured at least once.
    constexpr void validate() const {
        const std::string_view s = id.empty() ? std::string_view{"gemm table"} : id;
        require(!id.empty() && !gpu.empty(), s, "id / gpu", 0.0, "a GEMM table names itself and its GPU",
                "llmcost.gemm_table.entries");
        require(positive_finite(clock_MHz) && clock_MHz <= 1e4, s, "clock_MHz", clock_MHz,
                "a GEMM table's clock is positive, in MHz, at most 10,000", "llmcost.gemm_table.entries");
        for (const gemm_shape& g : shapes)
            require(positive_finite(g.k) && positive_finite(g.n), s, "shape k × n", g.k * g.n,
                    "every shape has positive inner and output dimensions", "llmcost.gemm_table.entries");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const gemm_table_entry& e = entries[i];
            const double q = e.m_tokens / row_step;
            require(e.shape >= 0 && e.shape < shape_count, s, "entry shape", e.shape, "a shape index is 0 to 3",
                    "llmcost.gemm_table.entries");
            require(q >= 1.0 && q == detail::const_ceil(q) && q < static_cast<double>(slots), s, "entry m_tokens", e.m_tokens,
                    "a measured size is a multiple of 16 tokens, from 16 to 4,080", "llmcost.gemm_table.entries");
            require(positive_finite(e.time_us), s, "entry time_us", e.time_us, "a measured time is positive",
                    "llmcost.gemm_table.entries");
            if (i > 0)
                require(entries[i - 1].shape < e.shape || (entries[i - 1].shape == e.shape && entries[i - 1].m_tokens < e.m_tokens),
                        s, "entry m_tokens", e.m_tokens, "entries are listed by shape, then by growing m",
                        "llmcost.gemm_table.entries");
        }
        std::array<bool, shape_count> any{};
        for (const gemm_table_entry& e : entries) any[static_cast<std::size_t>(e.shape)] = true;
        for (int i = 0; i < shape_count; ++i)
            require(any[static_cast<std::size_t>(i)], s, shapes[static_cast<std::size_t>(i)].name, 0.0,
                    "every shape of a GEMM table has at least one measured size", "llmcost.gemm_table.entries");
    }

    /// The table fits a model served at tensor parallelism tp on `gpu_name`: the same GPU, FP8 matmuls (the tables
    /// are FP8 × FP8 GEMMs), a dense gated FFN, and the four projections of a layer per TP rank equal to its shapes:
    /// QKV k = h, n = (H_q + 2 H_kv) · d ÷ tp; O k = H_q · d ÷ tp, n = h; gate/up k = h, n = 2 w ÷ tp; down k = w ÷ tp, n = h.
    constexpr void check_fits(const model& m, std::string_view gpu_name, int tp) const {
        require(gpu_name == gpu, id, "GPU", 0.0, "a GEMM table applies to the GPU it was measured on (its gpu column)",
                "llmcost.gemm_table.gpu");
        require(m.activations.compute == compute_class::fp8 && m.weights.compute == compute_class::fp8, id,
                "model matmul format (bits)", m.activations.bits_per_element(),
                "a GEMM table of FP8 × FP8 GEMMs applies to FP8 weights and activations", "llmcost.gemm_table.format");
        // A checkpoint that keeps attention projections 16-bit (`model::excluded`) prices them on their own curve:
        // inside the table's QKV / O times they would be counted twice.
        const excluded_modules& x = m.excluded;
        require(!(x.attention_inputs || x.attention_kv_up || x.attention_output), id, "model excluded modules",
                static_cast<double>(x.attention_inputs + x.attention_kv_up + x.attention_output),
                "a GEMM table of FP8 × FP8 GEMMs applies to FP8 weights and activations: no attention projection "
                "kept 16-bit (the checkpoint's excluded modules)",
                "llmcost.gemm_table.format");
        const attention_spec& a = m.attention;
        const double r = tp;
        const bool dense = !m.is_moe() && m.ffn.gated && a.kind == attention_kind::standard;
        const std::array<gemm_shape, shape_count> own{
            gemm_shape{"qkv", static_cast<double>(m.hidden), (a.query_heads + 2.0 * a.kv_heads) * a.head_dim / r},
            gemm_shape{"o", a.query_heads * static_cast<double>(a.head_dim) / r, static_cast<double>(m.hidden)},
            gemm_shape{"gate_up", static_cast<double>(m.hidden), 2.0 * m.ffn.intermediate / r},
            gemm_shape{"down", m.ffn.intermediate / r, static_cast<double>(m.hidden)}};
        for (int i = 0; i < shape_count; ++i) {
            const auto u = static_cast<std::size_t>(i);
            require(dense && own[u].k == shapes[u].k && own[u].n == shapes[u].n, id, shapes[u].name,
                    own[u].k * own[u].n,
                    "the model's projection (k × n per TP rank, a dense gated FFN, standard attention) differs from "
                    "the table's shape: a GEMM table applies to the model and TP degree it was measured for",
                    "llmcost.gemm_table.shapes");
        }
    }
};

/// The table with its layer times worked out: `gemm_table::layer_us`, validated, so a catalog entry that breaks a
/// rule does not compile. Each shape's time at m = 16 · i: its entry after the glitch rule (`gemm_table::entry_us_at`),
/// or, between two of its measured sizes m₋ < m < m₊ (a gap: B15 measures none of 513–672 tokens, and some sizes
/// for two of its four shapes only), t₋ + (t₊ − t₋) · (m − m₋) ÷ (m₊ − m₋) (ASSUMED: linear between measurements;
/// the run falls back to hipBLASLt's heuristics there, whose speed has no source). The table's range is where every
/// shape has a time: from the largest of their smallest sizes to the smallest of their largest.
[[nodiscard]] constexpr gemm_table make_gemm_table(std::string_view id, std::string_view gpu, double clock_MHz,
                                                   const std::array<gemm_shape, gemm_table::shape_count>& shapes,
                                                   std::span<const gemm_table_entry> entries) {
    gemm_table g{.id = id, .gpu = gpu, .clock_MHz = clock_MHz, .shapes = shapes, .entries = entries};
    g.validate();
    std::array<std::size_t, gemm_table::shape_count> lo{}, hi{};
    lo.fill(gemm_table::slots);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const gemm_table_entry& e = entries[i];
        const auto s = static_cast<std::size_t>(e.shape);
        const auto j = static_cast<std::size_t>(e.m_tokens / gemm_table::row_step);
        const double here = g.entry_us_at(i);
        g.glitches += here != e.time_us ? 1 : 0;
        if (lo[s] == gemm_table::slots) lo[s] = j;
        hi[s] = j;
    }
    g.first = 0;
    g.last = gemm_table::slots - 1;
    for (std::size_t s = 0; s < lo.size(); ++s) {
        g.first = lo[s] > g.first ? lo[s] : g.first;
        g.last = hi[s] < g.last ? hi[s] : g.last;
    }
    require(g.first <= g.last, id, "entries", 0.0, "the four shapes' measured sizes overlap", "llmcost.gemm_table.entries");
    for (std::size_t i = 0; i < entries.size(); ++i) {  // each entry, and the gap up to the next one of its shape
        const gemm_table_entry& e = entries[i];
        const auto j = static_cast<std::size_t>(e.m_tokens / gemm_table::row_step);
        const double here = g.entry_us_at(i);
        if (j >= g.first && j <= g.last) g.layer_us[j] += here;
        if (i + 1 == entries.size() || entries[i + 1].shape != e.shape) continue;
        const auto k = static_cast<std::size_t>(entries[i + 1].m_tokens / gemm_table::row_step);
        const double next = g.entry_us_at(i + 1);
        for (std::size_t u = j + 1; u < k; ++u)
            if (u >= g.first && u <= g.last)
                g.layer_us[u] += here + (next - here) * static_cast<double>(u - j) / static_cast<double>(k - j);
    }
    return g;
}

/// The GEMM table a deployment's engine loads and the engine clock the run holds (AMD's harnesses pin it:
/// `plan::measurement::clock_MHz`); none by default, the size curve pricing every projection.
struct gemm_tuning {
    const gemm_table* table = nullptr;
    double run_clock_MHz = 0;  ///< 0: the table's own clock
    /// f_table ÷ f_run: a GEMM's time at the run's clock over the table's (compute-bound: a kernel's FLOP a
    /// clock are fixed, as `achievable_fractions::at_clock` reads it).
    [[nodiscard]] constexpr double time_scale() const {
        return table != nullptr && run_clock_MHz > 0.0 ? table->clock_MHz / run_clock_MHz : 1.0;
    }
};

}  // namespace llmcost
