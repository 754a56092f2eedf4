#pragma once
/// \file
/// Sweeps: a grid of deployments — GPU type × number formats × parallel layout × serving mode
/// (colocated, or disaggregated with a prefill batch) × request shape × batch — priced in one pass.
/// For each (GPU, formats, layout) the deployment is checked (`problem`) and its pass constants
/// prepared once (`prepare_pass`); the shape × batch block is then evaluated in lanes of
/// `lane_width` points by the library's own formulas — `detail::colocated_point` (the step mixture
/// of `serve_at_batch`) and `detail::step_formula` with the pools of `disaggregated_goodput` —
/// instantiated for a fixed-size Eigen array instead of a double (detail/lanes.hpp). There is no
/// second copy of a formula here: this file only says how a lane chooses, floors and maps, and
/// walks the grid. Every figure is therefore the scalar formulas' figure for the same inputs to
/// the last bit (the unit tests compare with `==`): IEEE-754 +, −, ×, ÷ and ⌊·⌋ are correctly
/// rounded in a vector lane as in a scalar register, and the scalar pieces (the ∛ table of the
/// GEMM size curve, expert coverage) are the scalar functions themselves, called lane by lane.
///
/// One condition: no FMA contraction. The default x86-64 target has no FMA instruction, but with
/// one (-march=haswell or later, -march=native) both g++ (even in -std=c++20 mode: its ISO default
/// of -ffp-contract=off is for C only) and clang fuse a·b + c in the scalar code and not across
/// Eigen's functors, so build with -ffp-contract=off there (the `llmcost::plan` target sets it).
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

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/precision.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/lanes.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/units/text.hpp>

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

/// The deployment served in these formats, as `llmcost estimate --weights --kv` serves it.
[[nodiscard]] inline deployment with_formats(deployment d, const serving_formats& f) {
    if (f.weights) return llmcost::with_formats(d, *f.weights, f.kv ? *f.kv : d.m.kv_cache);
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
        return llmcost::detail::end_to_end(ttft_s(i), tpot_s(i), grid.shapes[shape_of(i)].output.value());
    }
    /// Decode-pool instance-seconds per request, O · tpot ÷ (b · attention ranks) (disaggregated).
    [[nodiscard]] double decode_instance_seconds(Eigen::Index i) const {
        const sweep_block& blk = blocks[block_of(i)];
        return llmcost::detail::instance_seconds_per_request(grid.shapes[shape_of(i)].output.value(), tpot_s(i),
                                                             grid.batches[batch_of(i)], blk.d.attention_ranks());
    }
    /// Requests per second per GPU: colocated, output rate per GPU ÷ O (`colocated_goodput`);
    /// disaggregated, 1 ÷ GPU-seconds per request in both pools (`disaggregated_goodput`).
    [[nodiscard]] double requests_per_second_per_gpu(Eigen::Index i) const {
        const sweep_block& blk = blocks[block_of(i)];
        if (!blk.how.disaggregated) return output_tokens_per_s_per_gpu(i) / grid.shapes[shape_of(i)].output.value();
        const double gpus = blk.d.instance_gpus();
        return llmcost::detail::pooled_requests_per_gpu_second(blk.prefill_instance_seconds[shape_of(i)], gpus,
                                                               decode_instance_seconds(i), gpus);
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

// ---- the kernel ---------------------------------------------------------------------------------

/// A lane of figures: the value type the library's formulas are instantiated with in a sweep.
inline constexpr int lane_width = 32;
using lane = Eigen::Array<double, lane_width, 1>;

}  // namespace llmcost::plan

namespace llmcost::detail {
/// The lane operations of `detail/lanes.hpp` for fixed-size Eigen arrays: `select`, `any`, floor,
/// a constant, and a scalar function applied lane by lane.
template <int N>
struct lanes<Eigen::Array<double, N, 1>> {
    using V = Eigen::Array<double, N, 1>;
    template <class C>
    [[nodiscard]] static V choose(const C& c, const V& a, const V& b) {
        return c.select(a, b);
    }
    template <class C>
    [[nodiscard]] static bool any(const C& c) {
        return c.any();
    }
    // ⌊x⌋ is exact: any correct implementation agrees with const_trunc (x ≥ 0).
    [[nodiscard]] static V floor(const V& x) { return x.floor(); }
    [[nodiscard]] static V constant(double x) { return V::Constant(x); }
    template <class F>
    [[nodiscard]] static V map(const V& x, F&& f) {
        V r;
        for (int i = 0; i < N; ++i) r(i) = f(x(i));
        return r;
    }
};
}  // namespace llmcost::detail

namespace llmcost::plan {

namespace detail {

/// Lanes [c0, c0 + n) of `src` as one lane; lanes past n repeat the last (valid inputs whose
/// figures are dropped).
[[nodiscard]] inline lane load(const Eigen::ArrayXd& src, Eigen::Index c0, Eigen::Index n) {
    lane v = lane::Constant(src(c0 + n - 1));
    v.head(n) = src.segment(c0, n);
    return v;
}

/// Per grid point of a block: the request's lanes (batch, output, prompt chunks) and its
/// sequences' terms (`serving_sequence_terms` of its shape).
struct block_lanes {
    Eigen::ArrayXd batch, output, chunks, prefill_tokens, pairs_decode, pairs_prefill, kv_decode, kv_prefill;
    void resize(Eigen::Index n) {
        for (Eigen::ArrayXd* a : {&batch, &output, &chunks, &prefill_tokens, &pairs_decode, &pairs_prefill, &kv_decode,
                                  &kv_prefill})
            a->resize(n);
    }
    [[nodiscard]] llmcost::detail::sequence_terms<lane> terms(Eigen::Index c0, Eigen::Index n) const {
        return {.prefill_tokens = load(prefill_tokens, c0, n), .pairs_decode = load(pairs_decode, c0, n),
                .pairs_prefill = load(pairs_prefill, c0, n), .kv_decode = load(kv_decode, c0, n),
                .kv_prefill = load(kv_prefill, c0, n)};
    }
};

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
    namespace core = llmcost::detail;
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

    // The request's lanes: batch fastest, then shape.
    detail::block_lanes in;
    in.resize(N);
    const Eigen::Map<const Eigen::ArrayXd> batches(grid.batches.data(), B);
    std::vector<prompt_chunks> split;
    for (Eigen::Index s = 0; s < S; ++s) {
        const request_shape& r = grid.shapes[static_cast<std::size_t>(s)];
        split.push_back(split_prompt(r, grid.limits.prefill_chunk));  // serve_at_batch's chunks
        in.batch.segment(s * B, B) = batches;
        in.output.segment(s * B, B).setConstant(r.output.value());
        in.chunks.segment(s * B, B).setConstant(split.back().count);
    }
    Eigen::ArrayXd prefill_lane(N), prefill_seconds(N);

    for (std::size_t gi = 0; gi < grid.gpus.size(); ++gi)
        for (std::size_t fi = 0; fi < grid.formats.size(); ++fi)
            for (std::size_t li = 0; li < grid.layouts.size(); ++li) {
                const deployment d = with_formats({.m = m, .hw = grid.gpus[gi], .layout = grid.layouts[li]}, grid.formats[fi]);
                point_status group_status = point_status::ok;
                std::string problem_text;
                std::optional<pass_model> pm;
                if (const std::optional<invalid_input> p = problem(d)) {
                    group_status = point_status::invalid_deployment;
                    problem_text = p->what();
                } else {
                    pm = prepare_pass(d);
                    if (!weights_fit(d, grid.limits.reserve)) {
                        group_status = point_status::weights_do_not_fit;
                        problem_text = "weights need " + to_text(weight_bytes_per_gpu(d)) + " per GPU; HBM holds " +
                                       to_text(d.hw.gpu.hbm_capacity) + " less the reserve";
                    }
                }
                std::vector<batch_limit> limit, prefill_limit;
                for (const request_shape& r : grid.shapes) {
                    const bool ok = group_status == point_status::ok;
                    const batch_limit none{.batch = 0.0, .limited_by = to_string(group_status)};
                    limit.push_back(ok ? admissible_batch(d, r, grid.limits) : none);
                    prefill_limit.push_back(ok ? admissible_batch(d, {.input = r.input, .output = tokens(1.0)}, grid.limits)
                                               : none);
                }
                if (pm)
                    for (Eigen::Index s = 0; s < S; ++s) {  // this block's sequence terms (its KV format)
                        const core::sequence_terms<double> t = core::serving_sequence_terms(
                            pm->d.m, grid.shapes[static_cast<std::size_t>(s)], split[static_cast<std::size_t>(s)]);
                        in.prefill_tokens.segment(s * B, B).setConstant(t.prefill_tokens);
                        in.pairs_decode.segment(s * B, B).setConstant(t.pairs_decode);
                        in.pairs_prefill.segment(s * B, B).setConstant(t.pairs_prefill);
                        in.kv_decode.segment(s * B, B).setConstant(t.kv_decode);
                        in.kv_prefill.segment(s * B, B).setConstant(t.kv_prefill);
                    }
                const double ranks = d.attention_ranks(), instance_gpus = d.instance_gpus();
                Eigen::Index colocated_at = -1;  // a colocated block of this group already priced

                for (std::size_t mi = 0; mi < grid.modes.size(); ++mi) {
                    const serving_mode& how = grid.modes[mi];
                    sweep_block blk{.d = d, .gpu = gi, .format = fi, .layout = li, .mode = mi, .how = how,
                                    .status = group_status, .problem = problem_text};
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
                        // disaggregated_goodput at decode batch b and prefill batch b_p: TTFT = prefill
                        // pass + KV transfer + decode step; the prefill pool's instance-seconds per request.
                        const double pb = how.prefill_batch;
                        for (Eigen::Index s = 0; s < S; ++s) {
                            const request_shape& r = grid.shapes[static_cast<std::size_t>(s)];
                            const seconds_t pre = prefill_pass(*pm, pb, r.input, tokens(0.0)).time();
                            const seconds_t transfer = kv_transfer_for(d, r.input, how.path).time;
                            const double prefill_instance_s = core::instance_seconds_per_request(1.0, pre.value(), pb, ranks);
                            blk.prefill_instance_seconds.push_back(prefill_instance_s);
                            blk.prefill_max_batch.push_back(prefill_limit[static_cast<std::size_t>(s)].batch);
                            prefill_lane.segment(s * B, B).setConstant((pre + transfer).value());
                            prefill_seconds.segment(s * B, B).setConstant(prefill_instance_s);
                        }
                    }
                    const bool copy = !how.disaggregated && colocated_at >= 0;
                    if (copy) {  // a second colocated mode of the same deployment: the same figures
                        ttft = res.ttft_s.segment(colocated_at, N);
                        tpot = res.tpot_s.segment(colocated_at, N);
                        per_gpu = res.output_tokens_per_s_per_gpu.segment(colocated_at, N);
                    }
                    for (Eigen::Index c0 = 0; c0 < N && !copy; c0 += lane_width) {
                        const Eigen::Index n = std::min<Eigen::Index>(lane_width, N - c0);
                        const core::sequence_terms<lane> seq = in.terms(c0, n);
                        const lane b = detail::load(in.batch, c0, n), o = detail::load(in.output, c0, n);
                        if (!how.disaggregated) {
                            const core::colocated_lanes<lane> p =
                                core::colocated_point(*pm, seq, b, o, detail::load(in.chunks, c0, n));
                            tpot.segment(c0, n) = p.step_time.head(n);
                            ttft.segment(c0, n) = p.ttft.head(n);
                            per_gpu.segment(c0, n) = p.output_rate_per_gpu.head(n);
                        } else {
                            const lane step = core::step_formula(*pm, seq, lane(b / static_cast<double>(d.layout.pp)),
                                                                 lane(lane::Zero()))
                                                  .time();  // decode_pass
                            const lane decode_s = core::instance_seconds_per_request(o, step, b, ranks);
                            const lane goodput = core::pooled_requests_per_gpu_second(
                                detail::load(prefill_seconds, c0, n), instance_gpus, decode_s, instance_gpus);
                            tpot.segment(c0, n) = step.head(n);
                            ttft.segment(c0, n) = prefill_lane.segment(c0, n) + step.head(n);
                            per_gpu.segment(c0, n) = (goodput * o).head(n);
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
