#pragma once
/// \file
/// Sweeps: a grid of deployments — GPU type × number formats × parallel layout × serving mode
/// (colocated, or disaggregated with a prefill batch) × request shape × batch — priced in one pass.
/// For each (GPU, formats, layout) the deployment's pass constants are prepared once
/// (`prepare_pass`); the shape × batch block is then evaluated with Eigen array expressions, in
/// chunks of 256 lanes, that repeat the operations of the scalar formulas (passes.hpp's `step_pass`
/// and its `finish`, then `serve_at_batch` or `disaggregated_goodput`'s) lane by lane in the same
/// order. Every figure is therefore the scalar formulas' figure for the same inputs to the last bit
/// (the unit tests compare with `==`): IEEE-754 +, −, ×, ÷ and ⌊·⌋ are correctly rounded in a vector
/// lane as in a scalar register; the GEMM size curve is the scalar function itself
/// (`matmul_at_rows`), called lane by lane; and expert coverage, an integer power by repeated
/// squaring in `expert_coverage`, multiplies the same squares in the same order, lane by lane.
///
/// Two conditions. No FMA contraction: the default x86-64 target has no FMA instruction, but with
/// one (-march=haswell or later, -march=native) both g++ (even in -std=c++20 mode: its ISO default
/// of -ffp-contract=off is for C only) and clang fuse a·b + c in the scalar code and not across
/// Eigen's functors, so build with -ffp-contract=off there. And `detail::step_time` kept in step
/// with passes.hpp: a change to the pass formula must be repeated here (the exactness tests fail
/// until it is).
///
/// Unit system: inside and in the result arrays, plain `double` in SI — seconds, tokens per
/// second, requests per second, bytes. Typed quantities at the boundary: the grid is given as
/// descriptors and typed request shapes, and `sweep_result::point(i)` returns typed figures.
///
/// Nothing is dropped: a grid point whose deployment breaks a rule, whose weights do not fit, whose
/// context exceeds the model's trained maximum, or whose batch exceeds what the KV cache (and the
/// scheduler's caps) admit is kept with a `point_status` that says so. Figures are computed
/// whenever the pass model can price the deployment (NaN when it cannot: `invalid_deployment`).
///
/// **Example**
/// \code
/// plan::sweep_grid g{.m = catalog::llama_3_1_70b,
///                    .gpus = {catalog::h100_sxm5, catalog::b200_hgx},
///                    .layouts = plan::expand({.tp = {2, 4, 8}}),
///                    .shapes = {{.input = 1000_tok, .output = 200_tok}},
///                    .batches = {1, 8, 32, 128}};
/// const plan::sweep_result s = plan::sweep(g);
/// for (Eigen::Index i = 0; i < s.size(); ++i)
///     if (s.status(i) == plan::point_status::ok) use(s.point(i).tpot);
/// \endcode

#include <llmcost/llmcost.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::plan {

// ---- the grid ----------------------------------------------------------------------------------

/// The formats a deployment is served in (`--weights`, `--kv`); empty = the model's own. Weights
/// given: `with_formats` (matmuls in the weights' format where the GPU has a peak for it).
struct serving_formats {
    std::optional<number_format> weights{};
    std::optional<number_format> kv{};
};

/// The model with these formats applied, as `llmcost estimate --weights --kv` applies them.
[[nodiscard]] inline deployment apply(deployment d, const serving_formats& f) {
    if (f.weights) return with_formats(d, *f.weights, f.kv ? *f.kv : d.m.kv_cache);
    if (f.kv) d.m.kv_cache = *f.kv;
    return d;
}

/// How requests are served: colocated (continuous batching, prefill and decode in the same steps:
/// `serve_at_batch`), or disaggregated — a prefill pool and a decode pool of the same GPU type and
/// layout, prompts batched `prefill_batch` to a pass, the KV cache sent over `path`
/// (`disaggregated_goodput`'s model at a given decode and prefill batch).
struct serving_mode {
    bool disaggregated = false;
    double prefill_batch = 1;           ///< prompts per prefill pass (disaggregated)
    kv_path path = kv_path::scale_out;  ///< where the KV cache travels (disaggregated)

    constexpr void validate() const {
        require(!disaggregated || (prefill_batch >= 1.0 && non_negative_finite(prefill_batch)), "serving mode",
                "prefill_batch", prefill_batch, "a prefill pass carries at least one prompt");
    }
};

/// Degrees to combine into layouts (their Cartesian product). A `dp` of 0 means "as many
/// attention-DP ranks as the expert group needs": ep ÷ tp when ep > tp (the DEP layouts of MoE
/// models, e.g. tp 1 · ep 8 → dp 8), else 1.
struct layout_axes {
    std::vector<int> tp{1};
    std::vector<int> pp{1};
    std::vector<int> ep{1};
    std::vector<int> dp{1};
};

/// Every combination of the axes, tp varying slowest. Combinations that break a rule of the model
/// are kept: the sweep marks their points `invalid_deployment`.
[[nodiscard]] inline std::vector<parallel_layout> expand(const layout_axes& a) {
    std::vector<parallel_layout> out;
    for (int tp : a.tp)
        for (int pp : a.pp)
            for (int ep : a.ep)
                for (int dp : a.dp) {
                    const int ranks = dp > 0 ? dp : (ep > tp && tp > 0 ? ep / tp : 1);
                    out.push_back({.tp = tp, .pp = pp, .ep = ep, .dp = ranks});
                }
    return out;
}

/// The grid: one model, and the axes to combine. Batches are concurrent sequences per attention
/// rank (as `serve_at_batch` takes them); for a disaggregated mode, the decode instance's batch.
struct sweep_grid {
    model m{};
    std::vector<hardware> gpus{};
    std::vector<serving_formats> formats{{}};
    std::vector<parallel_layout> layouts{{}};
    std::vector<serving_mode> modes{{}};
    std::vector<request_shape> shapes{};
    std::vector<double> batches{};
    scheduler_limits limits{};         ///< what the engine admits: the `fits` test (`max_batch`)
    bool ignore_max_position = false;  ///< price contexts beyond the model's trained maximum as fits

    void validate() const {
        const std::string_view s = "sweep";
        require(!gpus.empty(), s, "gpus", 0, "name at least one GPU");
        require(!formats.empty(), s, "formats", 0, "name at least one choice of formats ({} = the model's own)");
        require(!layouts.empty(), s, "layouts", 0, "name at least one parallel layout");
        require(!modes.empty(), s, "modes", 0, "name at least one serving mode");
        require(!shapes.empty(), s, "shapes", 0, "name at least one request shape");
        require(!batches.empty(), s, "batches", 0, "name at least one batch");
        for (const request_shape& r : shapes) r.validate();
        for (double b : batches)
            require(b >= 1.0 && non_negative_finite(b), s, "batch", b, "at least one sequence must be running");
        for (const serving_mode& md : modes) md.validate();
        limits.validate();
    }
    /// Grid points: blocks × shapes × batches.
    [[nodiscard]] std::size_t size() const {
        return gpus.size() * formats.size() * layouts.size() * modes.size() * shapes.size() * batches.size();
    }
};

// ---- the result --------------------------------------------------------------------------------

/// Why a grid point is not servable as it stands (the first that applies, in this order).
enum class point_status : std::uint8_t {
    ok,                   ///< priced, and the batch fits
    invalid_deployment,   ///< the layout or formats break a rule, or the GPU cannot run the format: no figures
    weights_do_not_fit,   ///< weights and the memory reserve exceed HBM (figures computed)
    beyond_max_position,  ///< input + output exceeds the model's max_position (figures computed)
    over_kv_capacity,     ///< the batch (or the prefill batch) exceeds what `max_batch` admits (figures computed)
};

[[nodiscard]] constexpr std::string_view to_string(point_status s) {
    switch (s) {
        case point_status::ok: return "ok";
        case point_status::invalid_deployment: return "invalid deployment";
        case point_status::weights_do_not_fit: return "weights do not fit";
        case point_status::beyond_max_position: return "beyond max position";
        case point_status::over_kv_capacity: return "over KV capacity";
    }
    return "?";
}

/// One (GPU, formats, layout, mode): its deployment, and what limits it per request shape.
struct sweep_block {
    deployment d;
    std::size_t gpu = 0, format = 0, layout = 0, mode = 0;  ///< indices into the grid's axes
    serving_mode how{};
    point_status status = point_status::ok;  ///< of the whole block: ok, invalid_deployment or weights_do_not_fit
    std::string problem{};                   ///< why, when not ok (the library's message)
    /// Per shape: the largest batch `max_batch` admits (0: not even one sequence, or the block is not ok).
    std::vector<double> max_batch{};
    std::vector<std::string_view> limited_by{};  ///< per shape: what set max_batch
    /// Per shape, disaggregated only: the prefill pool's instance-seconds per request,
    /// t_prefill(b_p) ÷ (b_p · attention ranks), and the prefill batch the KV cache admits.
    std::vector<double> prefill_instance_seconds{};
    std::vector<double> prefill_max_batch{};
};

/// A grid point with typed figures.
struct sweep_point {
    const sweep_block* block = nullptr;
    request_shape shape{.input = tokens(1.0), .output = tokens(1.0)};
    double batch = 0;
    point_status status = point_status::ok;
    seconds_t ttft{};                             ///< time to first token
    seconds_t tpot{};                             ///< mean time per output token (the step)
    seconds_t e2e{};                              ///< ttft + (O − 1) · tpot
    tokens_per_second_t output_rate_per_gpu{};    ///< output tokens/s per GPU
    tokens_per_second_t per_user{};               ///< 1 ÷ tpot
    double requests_per_second_per_gpu = 0;     ///< 1/s (goodput, when the point meets the SLO)
    double prefill_per_decode = 0;              ///< P:D instances (disaggregated); NaN colocated

    [[nodiscard]] bool fits() const { return status == point_status::ok; }
};

/// The figures of every grid point, as arrays in SI. Point i = (block · shapes + shape) · batches +
/// batch; blocks run GPU (slowest), formats, layout, mode (fastest), in the grid's order.
/// Stored: TTFT, TPOT, output tokens/s per GPU and the status (25 bytes a point); tokens/s per
/// user, e2e, goodput and P:D follow from them exactly (`tokens_per_s_per_user`, `e2e`,
/// `requests_per_second_per_gpu`, `prefill_per_decode`, or all of them typed: `point`).
struct sweep_result {
    sweep_grid grid{};
    std::vector<sweep_block> blocks{};

    Eigen::ArrayXd ttft_s;                       ///< s
    Eigen::ArrayXd tpot_s;                       ///< s: colocated, the mixed step; disaggregated, the decode step
    Eigen::ArrayXd output_tokens_per_s_per_gpu;  ///< token/s
    Eigen::Array<std::uint8_t, Eigen::Dynamic, 1> status_code;  ///< point_status

    /// Tokens/s one user sees, 1 ÷ tpot (as `serve_at_batch` forms it): every point at once, as an
    /// Eigen expression (not stored: a division is cheaper than the memory).
    [[nodiscard]] auto tokens_per_s_per_user() const { return tpot_s.inverse(); }
    [[nodiscard]] double tokens_per_s_per_user(Eigen::Index i) const { return 1.0 / tpot_s(i); }

    [[nodiscard]] Eigen::Index size() const { return ttft_s.size(); }
    [[nodiscard]] Eigen::Index shapes() const { return static_cast<Eigen::Index>(grid.shapes.size()); }
    [[nodiscard]] Eigen::Index batches() const { return static_cast<Eigen::Index>(grid.batches.size()); }
    [[nodiscard]] Eigen::Index points_per_block() const { return shapes() * batches(); }

    [[nodiscard]] Eigen::Index index(std::size_t block, std::size_t shape, std::size_t batch) const {
        return (static_cast<Eigen::Index>(block) * shapes() + static_cast<Eigen::Index>(shape)) * batches() +
               static_cast<Eigen::Index>(batch);
    }
    [[nodiscard]] std::size_t block_of(Eigen::Index i) const { return static_cast<std::size_t>(i / points_per_block()); }
    [[nodiscard]] std::size_t shape_of(Eigen::Index i) const { return static_cast<std::size_t>((i / batches()) % shapes()); }
    [[nodiscard]] std::size_t batch_of(Eigen::Index i) const { return static_cast<std::size_t>(i % batches()); }

    [[nodiscard]] point_status status(Eigen::Index i) const { return static_cast<point_status>(status_code(i)); }
    [[nodiscard]] bool fits(Eigen::Index i) const { return status(i) == point_status::ok; }

    /// ttft + (O − 1) · tpot, as `serve_at_batch` forms it (s).
    [[nodiscard]] double e2e(Eigen::Index i) const {
        return ttft_s(i) + tpot_s(i) * (grid.shapes[shape_of(i)].output.value() - 1.0);
    }
    /// Decode-pool instance-seconds per request, O · tpot ÷ (b · attention ranks) (disaggregated).
    [[nodiscard]] double decode_instance_seconds(Eigen::Index i) const {
        const sweep_block& blk = blocks[block_of(i)];
        return grid.shapes[shape_of(i)].output.value() * tpot_s(i) /
               (grid.batches[batch_of(i)] * blk.d.attention_ranks());
    }
    /// Requests per second per GPU: colocated, output rate per GPU ÷ O (`colocated_goodput`);
    /// disaggregated, 1 ÷ GPU-seconds per request in both pools (`disaggregated_goodput`).
    [[nodiscard]] double requests_per_second_per_gpu(Eigen::Index i) const {
        const sweep_block& blk = blocks[block_of(i)];
        if (!blk.how.disaggregated) return output_tokens_per_s_per_gpu(i) / grid.shapes[shape_of(i)].output.value();
        const double gpus = blk.d.instance_gpus();
        return 1.0 / (blk.prefill_instance_seconds[shape_of(i)] * gpus + decode_instance_seconds(i) * gpus);
    }
    /// P:D — prefill instances per decode instance that balance the pools (disaggregated); NaN colocated.
    [[nodiscard]] double prefill_per_decode(Eigen::Index i) const {
        const sweep_block& blk = blocks[block_of(i)];
        if (!blk.how.disaggregated) return std::numeric_limits<double>::quiet_NaN();
        return blk.prefill_instance_seconds[shape_of(i)] / decode_instance_seconds(i);
    }

    [[nodiscard]] sweep_point point(Eigen::Index i) const {
        sweep_point p{};
        p.block = &blocks[block_of(i)];
        p.shape = grid.shapes[shape_of(i)];
        p.batch = grid.batches[batch_of(i)];
        p.status = status(i);
        p.ttft = seconds(ttft_s(i));
        p.tpot = seconds(tpot_s(i));
        p.e2e = seconds(e2e(i));
        p.output_rate_per_gpu = tokens_per_second_t::from_value(output_tokens_per_s_per_gpu(i));
        p.per_user = tokens_per_second_t::from_value(1.0 / tpot_s(i));
        const bool priced = p.status != point_status::invalid_deployment;
        p.requests_per_second_per_gpu = priced ? requests_per_second_per_gpu(i) : std::numeric_limits<double>::quiet_NaN();
        p.prefill_per_decode = priced ? prefill_per_decode(i) : std::numeric_limits<double>::quiet_NaN();
        return p;
    }
};

// ---- the kernel --------------------------------------------------------------------------------

namespace detail {

using array = Eigen::ArrayXd;
using lane_in = Eigen::Ref<const Eigen::ArrayXd>;
using lane_out = Eigen::Ref<Eigen::ArrayXd>;

/// Lanes a chunk is evaluated over (its length, 256, keeps every array of the kernel in L1).
inline constexpr Eigen::Index chunk = 256;

/// 1 − q^⌊T⌋ + f · q^⌊T⌋ · (1 − q) for T > 0 (q = 1 − k/E, f = T − ⌊T⌋), else 0 —
/// `expert_coverage` for a whole chunk. pow_int multiplies
/// the running product by x^(2^j) for each set bit j of ⌊T⌋, lowest first, squaring x as it goes;
/// here every lane runs the same sequence of squares (a table), multiplying where its bit is set.
/// Bits are read exactly in double (⌊q/2⌋, q − 2⌊q/2⌋), and once x^(2^j) has underflowed to 0 any
/// higher set bit makes the product 0, as it does in pow_int.
struct coverage_table {
    double miss = 1.0;
    std::vector<double> square;  ///< x^(2^j) until (and including) the first that is 0

    coverage_table() = default;
    coverage_table(int experts, int top_k) {
        if (experts <= 0) return;
        miss = 1.0 - static_cast<double>(top_k) / experts;
        double x = miss;
        for (int j = 0; j < 64; ++j) {
            square.push_back(x);
            if (x == 0.0) break;
            x *= x;
        }
    }
};

/// Work space of one chunk, reused from chunk to chunk and block to block.
struct scratch {
    array t, expert_flops, matmul_flops, weight, routed, rows, a, b, c, q, bit;
    scratch() {
        for (array* x : {&t, &expert_flops, &matmul_flops, &weight, &routed, &rows, &a, &b, &c, &q, &bit})
            x->resize(chunk);
    }
};

inline void coverage(const coverage_table& c, const lane_in& tokens, lane_out out, scratch& w) {
    const Eigen::Index n = tokens.size();
    double* q = w.q.data();    // ⌊T ÷ 2^j⌋ …
    double* h = w.bit.data();  // … and ⌊T ÷ 2^(j+1)⌋, swapped each round
    Eigen::Map<Eigen::ArrayXd>(q, n) = tokens.floor();  // (long long) T for T > 0; T ≤ 0 is replaced below
    out.setOnes();
    const double most = Eigen::Map<Eigen::ArrayXd>(q, n).maxCoeff();
    double bit_value = 1.0;  // 2^j: rounds go on while some lane has bit j or a higher one
    for (std::size_t j = 0; j < c.square.size() && bit_value <= most; ++j, bit_value *= 2.0) {
        Eigen::Map<Eigen::ArrayXd> qj(q, n), half(h, n);
        if (c.square[j] == 0.0) {  // x^(2^j) underflowed: any bit left zeroes the product
            out = (qj >= 1.0).select(out * 0.0, out);
            break;
        }
        half = (qj * 0.5).floor();
        out = (qj - (half + half) > 0.0).select(out * c.square[j], out);
        std::swap(q, h);
    }
    // f · missed · (1 − q) as expert_coverage orders it: ((1 − missed) + (f · missed) · (1 − q)).
    const Eigen::ArrayXd frac = tokens - tokens.floor();
    out = (tokens > 0.0).select((1.0 - out) + (frac * out) * (1.0 - c.miss), 0.0);
}

/// e(m) = `achievable_fractions::matmul_at_rows(m, ∛(k·n))` for every lane: the scalar function
/// itself (its ∛ of the padded rows is a table look-up for the usual row counts).
inline void matmul_efficiency(const achievable_fractions& e, double cbrt_k_n, const lane_in& rows, lane_out out) {
    for (Eigen::Index i = 0; i < rows.size(); ++i) out(i) = e.matmul_at_rows(rows(i), cbrt_k_n);
}

/// The deployment's constants as the step formula uses them (passes.hpp: step_pass and finish),
/// each formed by the same expression as there.
struct step_constants {
    const pass_model* pm = nullptr;
    bool moe = false, expert_parallel = false;
    double top_k = 0, experts = 0, moe_layers = 0, layers = 0, hidden = 0;
    double non_expert_minus_lm_head = 0;  ///< pm.non_expert_parameters − pm.lm_head
    double activation_bits = 0;           ///< bits per GEMM-input activation element (the all-to-all payload)
    double residual_bits = 0;             ///< bits per hidden-state element (activation bytes, TP and PP payloads)
    double matmul_peak = 0;               ///< pm.peak (× the size curve's efficiency, per lane)
    double attention_rate = 0;            ///< attention peak × efficiency; 0: no attention compute term
    double bandwidth = 0;
    double tp_latency_steps = 0, tp_fraction = 0, tp_link_bw = 0;  ///< all-reduce: α · steps, 2(n−1)/n, β
    double ep_latency = 0, ep_fraction = 0, ep_link_bw = 0;        ///< all-to-all: α, (n−1)/n, β
    double pp_latency = 0, pp_link_bw = 0;
    coverage_table cover;

    explicit step_constants(const pass_model& p) : pm(&p) {
        const deployment& d = p.d;
        const model& m = d.m;
        moe = m.is_moe();
        expert_parallel = d.expert_parallel();
        top_k = m.ffn.top_k;
        experts = m.ffn.routed_experts;
        moe_layers = m.moe_layers();
        layers = m.layers;
        hidden = m.hidden;
        non_expert_minus_lm_head = p.non_expert_parameters - p.lm_head;
        activation_bits = m.activations.bits_per_element();
        residual_bits = m.residual_format().bits_per_element();
        matmul_peak = p.peak.value();
        attention_rate = p.attention_peak.value() > 0 ? (p.attention_peak * d.hw.gpu.efficiency.attention).value() : 0.0;
        bandwidth = p.bandwidth.value();
        if (d.layout.tp > 1) {
            const double n = d.layout.tp;
            const double steps = p.tp_algorithm == all_reduce_algorithm::ring   ? 2.0 * (n - 1.0)
                                 : p.tp_algorithm == all_reduce_algorithm::tree ? 2.0 * llmcost::detail::ceil_log2(d.layout.tp)
                                                                                : 2.0;
            tp_latency_steps = (p.tp_link.latency * steps).value();
            tp_fraction = 2.0 * (n - 1.0) / n;
            tp_link_bw = p.tp_link.per_direction.value();
        }
        if (expert_parallel) {
            const int group = d.layout.tp * d.layout.dp;
            const interconnect& l = d.link_for(group);
            const double n = group;
            ep_latency = l.latency.value();
            ep_fraction = (n - 1.0) / n;
            ep_link_bw = l.per_direction.value();
        }
        if (d.layout.pp > 1) {
            const interconnect& l = d.link_for(d.layout.tp * d.layout.pp);
            pp_latency = l.latency.value();
            pp_link_bw = l.per_direction.value();
        }
        if (moe) cover = coverage_table(m.ffn.routed_experts, m.ffn.top_k);
    }
};

/// The inputs of one chunk's lanes.
struct chunk_lanes {
    lane_in input;          ///< n: the tokens of one prompt chunk (prefill_tokens; the prompt I when whole)
    lane_in pairs_decode;   ///< attention_pairs(m, c, 1) at the decode context c
    lane_in pairs_prefill;  ///< attention_pairs(m, p, n), p the chunk's prefix (prefill_prefix)
    lane_in kv_decode;      ///< kv_bytes_for_context(m, c) (whole model; × this GPU's share inside)
    lane_in kv_prefill;     ///< kv_bytes_for_context(m, p + n)
};

/// `step_pass(pm, s).time()` for every lane, s = {ds decodes at context c, ps prompt chunks of n
/// tokens after p cached ones}. Each term repeats passes.hpp (step_pass, then finish) in its order; terms are
/// fused into few array statements, and sums keep the scalar code's left-to-right order.
inline void step_time(const step_constants& k, const chunk_lanes& s, const lane_in& ds, const lane_in& ps, scratch& w,
                      lane_out out) {
    const pass_model& pm = *k.pm;
    const accelerator& g = pm.d.hw.gpu;
    const Eigen::Index n = ds.size();
    auto t = w.t.head(n), expert_flops = w.expert_flops.head(n), matmul_flops = w.matmul_flops.head(n);
    auto weight = w.weight.head(n), routed = w.routed.head(n), rows = w.rows.head(n);
    auto a = w.a.head(n), b = w.b.head(n), c = w.c.head(n);

    t = ds + ps * s.input;  // tokens_in_step
    // GEMMs (finish): FLOPs ÷ (peak · e(rows)), the dense ones at t rows, each expert at its rows;
    // against the weights streamed (step_pass's read(): experts as far as the step's tokens touch
    // them, a fractional prompt count mixing ⌊ps⌋ and ⌊ps⌋ + 1 whole prompts).
    matmul_efficiency(g.efficiency, pm.dense_cbrt_k_n, t, a);
    if (k.moe) {
        expert_flops = 2.0 * t * k.top_k * pm.expert_parameters * k.moe_layers / pm.tp;
        matmul_flops = (2.0 * t * k.non_expert_minus_lm_head + 2.0 * (ds + ps) * pm.lm_head) / pm.tp + expert_flops;
        auto whole = rows, extra = routed;
        whole = ps.floor();  // ps ≥ 0: ⌊ps⌋ = (long long) ps
        extra = ps - whole;
        const bool mixed = (extra > 0.0).any();
        b = (ds + whole * s.input) * pm.ranks;
        coverage(k.cover, b, weight, w);
        auto touched = c;  // coverage of the step's routed tokens t · ranks: when every prompt count
        if (mixed) {       // is whole, (ds + ⌊ps⌋ · n) · ranks is that very number
            b = (ds + (whole + 1.0) * s.input) * pm.ranks;
            coverage(k.cover, b, c, w);
            c = pm.dense_bytes_read + pm.expert_resident_bytes * c * pm.pp;
            b = pm.dense_bytes_read + pm.expert_resident_bytes * weight * pm.pp;
            weight = (extra > 0.0).select(b * (1.0 - extra) + c * extra, b);
            routed = t * pm.ranks;
            coverage(k.cover, routed, touched, w);
        } else {
            touched = weight;
            weight = pm.dense_bytes_read + pm.expert_resident_bytes * weight * pm.pp;
            routed = t * pm.ranks;
        }
        b = k.experts * touched;  // touched experts
        rows = (b > 0.0).select(routed * k.top_k / b, 0.0);
        rows = (b > 0.0 && rows < 1.0).select(1.0, rows);  // max(1, ·) where any expert is touched
        matmul_efficiency(g.efficiency, pm.expert_cbrt_k_n, rows, b);
        rows = ds + ps;  // logits
        matmul_efficiency(g.efficiency, pm.lm_head_cbrt_k_n, rows, c);
        weight = weight / k.bandwidth;  // the memory side, before the scratch is reused
        rows = 2.0 * (ds + ps) * pm.lm_head / pm.tp;  // the LM head's FLOPs
        a = (matmul_flops - expert_flops - rows) / (k.matmul_peak * a) + rows / (k.matmul_peak * c) +
            expert_flops / (k.matmul_peak * b);
        b = weight;
    } else {
        // no experts: their term is 0 ÷ (peak · e∞) = 0, and the weights are the dense bytes
        matmul_flops = (2.0 * t * k.non_expert_minus_lm_head + 2.0 * (ds + ps) * pm.lm_head) / pm.tp + 0.0;
        rows = ds + ps;  // logits
        matmul_efficiency(g.efficiency, pm.lm_head_cbrt_k_n, rows, c);
        rows = 2.0 * (ds + ps) * pm.lm_head / pm.tp;  // the LM head's FLOPs
        a = (matmul_flops - 0.0 - rows) / (k.matmul_peak * a) + rows / (k.matmul_peak * c) + 0.0;
        b.setConstant((pm.dense_bytes_read + 0.0) / k.bandwidth);
    }
    out = (a > b).select(a, b);  // matmul_time
    // Attention: max(FLOPs ÷ attention rate, KV ÷ B); then activations ÷ B and the launch overheads.
    a = (ds * s.pairs_decode * pm.pair_flops_decode + ps * s.pairs_prefill * pm.pair_flops_prefill) / pm.tp;
    if (k.attention_rate > 0) a = a / k.attention_rate;
    else a.setZero();
    c = (s.kv_decode * pm.kv_gpu_share * ds + s.kv_prefill * pm.kv_gpu_share * ps) * pm.pp / k.bandwidth;
    out = out + (a > c).select(a, c) + t * k.layers * pm.activation_elements * k.residual_bits / 8.0 / k.bandwidth +
          pm.overhead.value();
    // Communication: (tp + ep) + pp, each absent term a zero.
    const bool tp = pm.d.layout.tp > 1, pp = pm.d.layout.pp > 1;
    if (tp || k.expert_parallel || pp) {
        b = t * k.hidden * k.residual_bits / 8.0;  // the step's hidden state
        if (tp) a = (k.tp_latency_steps + b * k.tp_fraction / k.tp_link_bw) * pm.tp_all_reduces;
        else a.setZero();
        if (k.expert_parallel)
            a = a + (k.ep_latency + (t * k.top_k * k.hidden * k.activation_bits / 8.0 / pm.tp) * k.ep_fraction / k.ep_link_bw) *
                        (2.0 * k.moe_layers);
        if (pp) a = a + (k.pp_latency + b / pm.tp / k.pp_link_bw) * (pm.pp - 1.0);
        out = out + a;
    }
}

}  // namespace detail

/// The batch ladder used by `plan` when no batches are given: 1 … 64 by 1, then by 8 to 512, by
/// 64 to 4,096, by 512 beyond, up to `most`.
[[nodiscard]] inline std::vector<double> batch_ladder(double most = 16384) {
    // Beyond a million sequences per rank no engine runs, and the ladder would grow without end.
    require(most >= 1.0 && most <= 1e6, "sweep", "largest batch", most, "must be between 1 and 1,000,000");
    std::vector<double> b;
    for (double x = 1; x <= most; x += x < 64 ? 1 : x < 512 ? 8 : x < 4096 ? 64 : 512) b.push_back(x);
    return b;
}

// ---- the sweep ---------------------------------------------------------------------------------

/// `sweep(grid)` written into `res`, whose arrays are reused when the grid has as many points: a
/// fresh result's arrays are new memory, and first touching it is a good share of a large sweep.
inline void sweep(const sweep_grid& grid, sweep_result& res) {
    using detail::array;
    grid.validate();
    res.grid = grid;
    res.blocks.clear();
    const model& m = grid.m;
    const Eigen::Index S = static_cast<Eigen::Index>(grid.shapes.size());
    const Eigen::Index B = static_cast<Eigen::Index>(grid.batches.size());
    const Eigen::Index N = S * B;
    const std::size_t blocks = grid.gpus.size() * grid.formats.size() * grid.layouts.size() * grid.modes.size();
    const Eigen::Index total = N * static_cast<Eigen::Index>(blocks);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    res.ttft_s.resize(total);
    res.tpot_s.resize(total);
    res.output_tokens_per_s_per_gpu.resize(total);
    res.status_code.resize(total);
    res.blocks.reserve(blocks);

    // Lanes that depend on the shape and batch only, and per formats choice the KV bytes.
    array batch(N), input(N), output(N), pairs_decode(N), pairs_prefill(N), chunks(N);
    const Eigen::Map<const Eigen::ArrayXd> batches(grid.batches.data(), B);
    std::vector<double> context(grid.shapes.size());
    for (Eigen::Index s = 0; s < S; ++s) {
        const request_shape& r = grid.shapes[static_cast<std::size_t>(s)];
        const double in = r.input.value(), out = r.output.value();
        const double c = in + out / 2.0;  // serve_at_batch's decode context, I + O/2
        context[static_cast<std::size_t>(s)] = c;
        const prompt_chunks split = split_prompt(r, grid.limits.prefill_chunk);  // serve_at_batch's chunks
        batch.segment(s * B, B) = batches;
        input.segment(s * B, B).setConstant(split.tokens.value());
        output.segment(s * B, B).setConstant(out);
        chunks.segment(s * B, B).setConstant(split.count);
        pairs_decode.segment(s * B, B).setConstant(llmcost::detail::attention_pairs(m, c, 1.0));
        pairs_prefill.segment(s * B, B).setConstant(
            llmcost::detail::attention_pairs(m, split.prefix.value(), split.tokens.value()));
    }
    std::vector<array> kv_decode(grid.formats.size(), array(N)), kv_prefill(grid.formats.size(), array(N));
    for (std::size_t fi = 0; fi < grid.formats.size(); ++fi) {
        const model fm = apply({.m = m, .hw = grid.gpus.front()}, grid.formats[fi]).m;  // KV format: not the GPU's
        for (Eigen::Index s = 0; s < S; ++s) {
            const request_shape& r = grid.shapes[static_cast<std::size_t>(s)];
            kv_decode[fi].segment(s * B, B).setConstant(kv_bytes_for_context(fm, tokens(context[static_cast<std::size_t>(s)])).value());
            const prompt_chunks split = split_prompt(r, grid.limits.prefill_chunk);
            kv_prefill[fi].segment(s * B, B).setConstant(
                kv_bytes_for_context(fm, tokens(split.prefix.value() + split.tokens.value())).value());
        }
    }
    detail::scratch w;
    array mb(detail::chunk), ds(detail::chunk), ps(detail::chunk), frac(detail::chunk), longer(detail::chunk);
    array prefill_lane(N), pre_s(N);

    for (std::size_t gi = 0; gi < grid.gpus.size(); ++gi)
        for (std::size_t fi = 0; fi < grid.formats.size(); ++fi)
            for (std::size_t li = 0; li < grid.layouts.size(); ++li) {
                deployment d = apply({.m = m, .hw = grid.gpus[gi], .layout = grid.layouts[li]}, grid.formats[fi]);
                point_status group_status = point_status::ok;
                std::string problem;
                std::optional<pass_model> pm;
                try {
                    d.validate();
                    pm = prepare_pass(d);
                } catch (const invalid_input& e) {
                    group_status = point_status::invalid_deployment;
                    problem = e.what();
                }
                if (pm && !weights_fit(d, grid.limits.reserve)) {
                    group_status = point_status::weights_do_not_fit;
                    problem = "weights need " + format(weight_bytes_per_gpu(d)) + " per GPU; HBM holds " +
                              format(d.hw.gpu.hbm_capacity) + " less the reserve";
                }
                // The batch max_batch admits, without its exceptions: 0 when nothing fits.
                auto admitted = [&](const request_shape& r) -> batch_limit {
                    if (group_status != point_status::ok) return {.batch = 0.0, .limited_by = to_string(group_status)};
                    const double held = grid.limits.reserve_full_sequence ? r.input.value() + r.output.value()
                                                                          : r.input.value() + r.output.value() / 2.0;
                    const double per_sequence = kv_bytes_per_gpu_for_context(d, tokens(held)).value();
                    if (kv_budget_per_gpu(d, grid.limits.reserve).value() / per_sequence < 1.0)
                        return {.batch = 0.0, .limited_by = "KV capacity"};
                    return max_batch(d, r, grid.limits);
                };
                std::vector<batch_limit> limit, prefill_limit;
                for (const request_shape& r : grid.shapes) {
                    limit.push_back(admitted(r));
                    prefill_limit.push_back(admitted({.input = r.input, .output = tokens(1.0)}));
                }
                std::optional<detail::step_constants> k;
                if (pm) k.emplace(*pm);
                const double pp = d.layout.pp, dp = d.layout.dp, gpus = d.layout.gpus();
                const double ranks = d.attention_ranks(), instance_gpus = d.instance_gpus();
                Eigen::Index colocated_at = -1;  // a colocated block of this group already priced

                for (std::size_t mi = 0; mi < grid.modes.size(); ++mi) {
                    const serving_mode& how = grid.modes[mi];
                    sweep_block blk{.d = d, .gpu = gi, .format = fi, .layout = li, .mode = mi, .how = how,
                                    .status = group_status, .problem = problem};
                    for (const batch_limit& l : limit) {
                        blk.max_batch.push_back(l.batch);
                        blk.limited_by.push_back(l.limited_by);
                    }
                    const Eigen::Index off = static_cast<Eigen::Index>(res.blocks.size()) * N;
                    auto status = res.status_code.segment(off, N);
                    auto ttft = res.ttft_s.segment(off, N), tpot = res.tpot_s.segment(off, N);
                    auto per_gpu = res.output_tokens_per_s_per_gpu.segment(off, N);
                    if (!pm) {
                        for (auto* a : {&ttft, &tpot, &per_gpu}) a->setConstant(nan);
                        status.setConstant(static_cast<std::uint8_t>(point_status::invalid_deployment));
                        res.blocks.push_back(std::move(blk));
                        continue;
                    }
                    if (how.disaggregated) {
                        // disaggregated_goodput's figures at decode batch b and prefill batch b_p:
                        // TTFT = prefill pass + KV transfer + decode step; per request, instance-seconds
                        // t_p ÷ (b_p · ranks) in the prefill pool and O · t_step ÷ (b · ranks) in the decode
                        // pool; goodput 1 ÷ GPU-seconds; output/s per GPU = goodput × O.
                        const double pb = how.prefill_batch;
                        for (Eigen::Index s = 0; s < S; ++s) {
                            const request_shape& r = grid.shapes[static_cast<std::size_t>(s)];
                            const seconds_t pre = prefill_pass(*pm, pb, r.input, tokens(0.0)).time();
                            const seconds_t transfer = kv_transfer_for(d, r.input, how.path).time;
                            const double prefill_instance_s = pre.value() / (pb * ranks);
                            blk.prefill_instance_seconds.push_back(prefill_instance_s);
                            blk.prefill_max_batch.push_back(prefill_limit[static_cast<std::size_t>(s)].batch);
                            prefill_lane.segment(s * B, B).setConstant((pre + transfer).value());
                            pre_s.segment(s * B, B).setConstant(prefill_instance_s);
                        }
                    }
                    const bool copy = !how.disaggregated && colocated_at >= 0;
                    if (copy) {  // a second colocated mode of the same deployment: the same figures
                        ttft = res.ttft_s.segment(colocated_at, N);
                        tpot = res.tpot_s.segment(colocated_at, N);
                        per_gpu = res.output_tokens_per_s_per_gpu.segment(colocated_at, N);
                    }
                    for (Eigen::Index c0 = 0; c0 < N && !copy; c0 += detail::chunk) {
                        const Eigen::Index n = std::min(detail::chunk, N - c0);
                        const detail::chunk_lanes lanes{input.segment(c0, n), pairs_decode.segment(c0, n),
                                                        pairs_prefill.segment(c0, n), kv_decode[fi].segment(c0, n),
                                                        kv_prefill[fi].segment(c0, n)};
                        auto b = batch.segment(c0, n), o = output.segment(c0, n), kc = chunks.segment(c0, n);
                        auto mbn = mb.head(n), dsn = ds.head(n), psn = ps.head(n);
                        auto f = frac.head(n), t1 = longer.head(n);
                        auto step = tpot.segment(c0, n);
                        mbn = b / pp;  // micro_batch
                        if (!how.disaggregated) {
                            // serve_at_batch: q = b ÷ O · k chunks per step, a mixture of steps with
                            // ⌊q⌋ and ⌈q⌉ chunks, (1 − f)·t0 + f·t1; TTFT = k steps of
                            // {max(0, b − 1) decodes, one chunk}.
                            psn = mbn / o * kc;
                            dsn = psn.floor();  // q ≥ 0: ⌊q⌋ = (long long) q
                            f = psn - dsn;
                            psn = dsn;
                            detail::step_time(*k, lanes, mbn, psn, w, step);
                            if ((f > 0.0).any()) {
                                psn = dsn + 1.0;
                                detail::step_time(*k, lanes, mbn, psn, w, t1);
                                step = (f > 0.0).select(step * (1.0 - f) + t1 * f, step);
                            }
                            dsn = (mbn - 1.0 < 0.0).select(0.0, mbn - 1.0);
                            psn.setOnes();
                            detail::step_time(*k, lanes, dsn, psn, w, ttft.segment(c0, n));
                            ttft.segment(c0, n) *= kc;
                            per_gpu.segment(c0, n) = b * dp / step / gpus;  // output_rate ÷ GPUs
                        } else {
                            psn.setZero();
                            detail::step_time(*k, lanes, mbn, psn, w, step);  // decode_pass
                            ttft.segment(c0, n) = prefill_lane.segment(c0, n) + step;
                            auto decode_instance_s = dsn;
                            decode_instance_s = o * step / (b * ranks);
                            per_gpu.segment(c0, n) =
                                1.0 / (pre_s.segment(c0, n) * instance_gpus + decode_instance_s * instance_gpus) * o;
                        }
                    }
                    if (!how.disaggregated && colocated_at < 0) colocated_at = off;
                    // Status: the block's, else the context, else the batch against what fits.
                    if (group_status != point_status::ok) {
                        status.setConstant(static_cast<std::uint8_t>(group_status));
                    } else {
                        for (Eigen::Index s = 0; s < S; ++s) {
                            const std::size_t su = static_cast<std::size_t>(s);
                            const request_shape& r = grid.shapes[su];
                            auto st = status.segment(s * B, B);
                            if (!grid.ignore_max_position && r.input.value() + r.output.value() > m.max_position) {
                                st.setConstant(static_cast<std::uint8_t>(point_status::beyond_max_position));
                                continue;
                            }
                            const bool prefill_fits = !how.disaggregated || how.prefill_batch <= prefill_limit[su].batch;
                            const double most = prefill_fits ? limit[su].batch : 0.0;
                            for (Eigen::Index j = 0; j < B; ++j)
                                st(j) = static_cast<std::uint8_t>(batches(j) <= most ? point_status::ok
                                                                                     : point_status::over_kv_capacity);
                        }
                    }
                    res.blocks.push_back(std::move(blk));
                }
            }
}

/// Every point of the grid. Per (GPU, formats, layout): one `prepare_pass`, one `max_batch` per
/// shape; then the shape × batch block in chunks of 256 lanes, three vectorised steps per colocated
/// point (the steps with ⌊q⌋ and ⌈q⌉ prompt chunks whose mixture is the mean step, and the step
/// that carries a prompt), one per disaggregated point.
/// Throws `invalid_input` for a malformed grid (no GPUs, a batch below 1, …); a deployment that
/// breaks a rule is a point status, not an exception.
[[nodiscard]] inline sweep_result sweep(const sweep_grid& grid) {
    sweep_result res;
    sweep(grid, res);
    return res;
}

}  // namespace llmcost::plan
