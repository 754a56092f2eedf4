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

#include <llmcost/detail/header_only.hpp>
#include <llmcost/costs/parallel.hpp>
#include <llmcost/descriptors/precision.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/speculative.hpp>
#include <llmcost/serving/throughput.hpp>

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

/// The formats a deployment is served in, and the deployment served in them: the core's
/// `serving_formats` and `with_formats` (costs/parallel.hpp), named here as the grid has always named them.
using llmcost::serving_formats;
using llmcost::with_formats;

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
    /// The engine that serves on each of `gpus` (same order); empty: the reference engine on all.
    std::vector<engine_profile> engines{};
    std::vector<serving_formats> formats{{}};
    std::vector<parallel_layout> layouts{{}};
    std::vector<serving_mode> modes{{}};
    std::vector<request_shape> shapes{};
    std::vector<double> batches{};
    scheduler_limits limits{};         ///< what the engine admits: the `fits` test (`max_batch`)
    bool ignore_max_position = false;  ///< price contexts beyond the model's trained maximum as fits
    /// Speculative decode steps at every point, with a draft head of the model (EAGLE, MTP): a
    /// colocated point's steps (`speculative_serving_point`), a disaggregated one's decode pool
    /// (`disaggregated_goodput`). Each deployment of the grid is laid out its own way, so a separate
    /// draft model is priced by `estimate`. Off by default.
    speculative_decoding speculation{};
    /// The measured GEMM table every deployment's engine loads for the dense projections (`deployment::gemm`; a
    /// deployment it does not fit, another GPU, format or TP degree, is marked invalid_deployment), and the engine
    /// clock the runs pin (`at_engine_clock`: the compute fractions and the table's time; 0: not pinned). None by
    /// default: the size curve at the GPU's own clock.
    const gemm_table* projection_table = nullptr;
    double clock_MHz = 0;
    /// true: the engines' quantized TP all-reduce (`engine_collectives::quick_reduce`) is turned on only where the cost
    /// model prices a TP all-reduce (tp > 1); a tp-1 layout (one GPU, PP stages or attention-DP ranks,
    /// `quick_reduce_inert_at`) is priced without it, as it is off (the switch moves nothing there), rather than refused
    /// (`cheapest_fleet`: plan keeps its tp-1 layouts under --quick-reduce). SGLang's DP-attention gather all-reduce is
    /// not priced (docs/cdna-all-reduce.md §7). false: a tp-1 layout under it is an invalid_deployment (`deployment::validate`),
    /// as sweep and frontier show it.
    bool quick_reduce_tp_groups_only = false;

    void validate() const {
        const std::string_view s = "sweep";
        require(!gpus.empty(), s, "gpus", 0, "name at least one GPU");
        require(engines.empty() || engines.size() == gpus.size(), s, "engines", static_cast<double>(engines.size()),
                "give one engine per GPU (or none: the reference engine)");
        for (const engine_profile& e : engines) e.validate();
        if (clock_MHz != 0.0)  // 0: not pinned; else the clock rule on every GPU of the grid (`at_engine_clock`'s)
            for (const hardware& h : gpus) h.gpu.efficiency.require_clock(h.name, "clock_MHz", clock_MHz);
        require(!formats.empty(), s, "formats", 0, "name at least one choice of formats ({} = the model's own)");
        require(!layouts.empty(), s, "layouts", 0, "name at least one parallel layout");
        require(!modes.empty(), s, "modes", 0, "name at least one serving mode");
        require(!shapes.empty(), s, "shapes", 0, "name at least one request shape");
        require(!batches.empty(), s, "batches", 0, "name at least one batch");
        for (const request_shape& r : shapes) r.validate();
        for (double b : batches)
            require(b >= 1.0 && non_negative_finite(b), s, "batch", b, "at least one sequence must be running");
        for (const serving_mode& md : modes) md.validate();
        // A disaggregated point's prefill pool prices a prefix hit and its decode pool speculation
        // (disaggregated_goodput); a colocated one both in its steps.
        // Prompts of varying length are priced whole and colocated (`detail::serving_sequence_terms`).
        for (const request_shape& r : shapes) {
            llmcost::detail::require_spread_whole_prompts(r, limits);
            for (const serving_mode& md : modes)
                require(!(md.disaggregated && r.input_spread.value() > 0.0), s, "shapes.input_spread (tokens)",
                        r.input_spread.value(),
                        "prompts of varying length are priced for colocated serving only: a disaggregated mode's "
                        "prefill pool prices the mean prompt", "llmcost.plan.spread_colocated");
        }
        speculation.validate();
        if (speculation.enabled())
            require(!speculation.draft.has_value(), s, "speculation.draft", 1,
                    "a sweep lays out every deployment its own way: speculate with a draft head (EAGLE, MTP); "
                    "a separate draft model is priced by estimate");
        limits.validate();
        // Stated up front: a sweep holds every point in memory (about 100 B each), so 10^7 points
        // are about a gigabyte and a minute; counted in doubles, so that no product wraps.
        const double points = static_cast<double>(gpus.size()) * static_cast<double>(formats.size()) *
                              static_cast<double>(layouts.size()) * static_cast<double>(modes.size()) *
                              static_cast<double>(shapes.size()) * static_cast<double>(batches.size());
        require(points <= max_points, s, "grid points (gpus x formats x layouts x modes x shapes x batches)", points,
                "more than 10^7: split the sweep, or try fewer batches", "llmcost.plan.grid_size");
    }
    /// The most points one sweep prices.
    static constexpr double max_points = 1e7;
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
    /// the prompt is longer than the grid's token cap per step and the engine neither chunks it (no prefill chunk)
    /// nor runs it whole (`prompt_within_step_cap`, the rule `estimate` and `saturated` refuse by); checked after
    /// beyond_max_position, before over_kv_capacity (figures computed)
    prompt_above_step_cap,
};

[[nodiscard]] constexpr std::string_view to_string(point_status s) {
    switch (s) {
        case point_status::ok: return "ok";
        case point_status::invalid_deployment: return "invalid deployment";
        case point_status::weights_do_not_fit: return "weights do not fit";
        case point_status::beyond_max_position: return "beyond max position";
        case point_status::over_kv_capacity: return "over KV capacity";
        case point_status::prompt_above_step_cap: return "prompt above step cap";
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
    seconds_t tpot{};                             ///< mean time per output token
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
    Eigen::ArrayXd tpot_s;                       ///< s: colocated, my decode steps with the others' prompts; disaggregated, the decode step
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
void sweep(const sweep_grid& grid, sweep_result& res);

/// Every point of the grid. Per (GPU, formats, layout): one `prepare_pass`, one `max_batch` per
/// shape; then the shape × batch block in lanes of `lane_width` points, three vectorised steps per colocated
/// point (the steps with ⌊q⌋ and ⌈q⌉ prompt chunks whose mixture is the mean step, and the step
/// that carries a prompt), one per disaggregated point.
/// Throws `invalid_input` for a malformed grid (no GPUs, a batch below 1, …); a deployment that
/// breaks a rule is a point status, not an exception.
[[nodiscard]] sweep_result sweep(const sweep_grid& grid);

/// Nothing priced at all (every block `invalid_deployment`: every layout breaks a rule): the rule that left the first
/// block out, thrown (`deployment::validate`, then `prepare_pass`), as `llmcost frontier` and Python's frontier() refuse;
/// a sweep with a priced block (or none) passes.
inline void require_priceable(const sweep_result& s) {
    if (s.blocks.empty() || std::any_of(s.blocks.begin(), s.blocks.end(), [](const sweep_block& b) {
            return b.status != point_status::invalid_deployment;
        }))
        return;
    const deployment& d = s.blocks.front().d;
    d.validate();
    (void)prepare_pass(d);
}

}  // namespace llmcost::plan

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/plan/sweep-inl.hpp>
#endif
