#pragma once
/// \file
/// The body of plan/sweep.hpp: the lane type and its operations (detail/lanes.hpp for a fixed-size
/// Eigen array), and the walk over the grid that evaluates the library's formulas lane by lane.
/// Compiled once into the `llmcost_plan` library (sweep.cpp), or included by plan/sweep.hpp when
/// `LLMCOST_HEADER_ONLY` is defined (detail/header_only.hpp). Not a public header: include
/// plan/sweep.hpp.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/detail/lanes.hpp>
#include <llmcost/plan/sweep.hpp>
#include <llmcost/units/text.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmcost::plan {

// ---- the kernel ---------------------------------------------------------------------------------

/// A lane of figures: the value type the library's formulas are instantiated with in a sweep.
inline constexpr int lane_width = 32;
using lane = Eigen::Array<double, lane_width, 1>;

}  // namespace llmcost::plan

namespace llmcost::detail {
/// The lane operations of `detail/lanes.hpp` for fixed-size Eigen arrays: `select`, `any`, `count`,
/// floor, a constant, one lane read and written, and a scalar function applied lane
/// by lane.
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
    // f is a pure function of one double: a lane that repeats its neighbour's bits repeats its
    // value, so runs (the padded rows of consecutive batches) cost one call.
    template <class F>
    [[nodiscard]] static V map(const V& x, F&& f) {
        V r;
        std::uint64_t at = std::bit_cast<std::uint64_t>(x(0));
        double value = f(x(0));
        r(0) = value;
        for (int i = 1; i < N; ++i) {
            if (const std::uint64_t bits = std::bit_cast<std::uint64_t>(x(i)); bits != at) {
                at = bits;
                value = f(x(i));
            }
            r(i) = value;
        }
        return r;
    }
    static constexpr int width = N;
    using mask = Eigen::Array<bool, N, 1>;
    template <class C>
    [[nodiscard]] static bool test(const C& c, int i) {
        return c.coeff(i);
    }
    [[nodiscard]] static double get(const V& x, int i) { return x(i); }
    static void set(V& x, int i, double v) { x(i) = v; }
    template <class C>
    [[nodiscard]] static int count(const C& c) {
        return static_cast<int>(c.count());
    }
};
}  // namespace llmcost::detail

namespace llmcost::plan {

namespace detail {

/// Lanes [c0, c0 + n) of `src` as one lane; lanes past n repeat the last (valid inputs whose
/// figures are dropped).
[[nodiscard]] inline lane load(const Eigen::ArrayXd& src, Eigen::Index c0, Eigen::Index n) {
    if (n == lane_width) return src.segment<lane_width>(c0);
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

LLMCOST_FUNC void sweep(const sweep_grid& grid, sweep_result& res) {
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
                engine_profile engine = grid.engines.empty() ? engine_profile::reference() : grid.engines[gi];
                if (grid.quick_reduce_tp_groups_only && quick_reduce_inert_at(grid.layouts[li].tp))
                    engine.collectives.quick_reduce = false;
                const deployment d = at_engine_clock(
                    with_formats({.m = m, .hw = grid.gpus[gi], .layout = grid.layouts[li], .engine = engine,
                                  .gemm = {.table = grid.projection_table}},
                                 grid.formats[fi]),
                    grid.clock_MHz);
                point_status group_status = point_status::ok;
                std::string problem_text;
                std::optional<pass_model> pm;
                if (const std::optional<invalid_input> p = problem(d)) {
                    group_status = point_status::invalid_deployment;
                    problem_text = p->what();
                } else {
                    pm = prepare_pass(d);
                    if (!weights_fit(d, grid.limits.pool_reserve())) {
                        group_status = point_status::weights_do_not_fit;
                        problem_text = "weights need " + to_text(weight_bytes_per_gpu(d)) + " per GPU; HBM holds " +
                                       to_text(d.hw.gpu.runtime_hbm()) + " less the reserve (" +
                                       kv_pool_text(d, grid.limits.pool_reserve()) + ")";
                    }
                }
                std::vector<batch_limit> limit, prefill_limit;
                const scheduler_limits admits = with_engine_admission(grid.limits, d.engine);  // this GPU's engine's
                for (const request_shape& r : grid.shapes) {
                    const bool ok = group_status == point_status::ok;
                    const batch_limit none{.batch = 0.0, .limited_by = to_string(group_status)};
                    limit.push_back(ok ? admissible_batch(d, r, admits) : none);
                    prefill_limit.push_back(ok ? admissible_batch(d, {.input = r.input, .output = tokens(1.0)}, admits)
                                               : none);
                }
                if (pm)
                    for (Eigen::Index s = 0; s < S; ++s) {  // this block's sequence terms (its KV format)
                        const core::sequence_terms<double> t = core::serving_sequence_terms(
                            *pm, grid.shapes[static_cast<std::size_t>(s)], split[static_cast<std::size_t>(s)]);
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
                            // The prefill pool prices a prefix hit: only the fresh tokens, after the cached ones.
                            const seconds_t pre = prefill_pass(*pm, pb, r.computed(), r.input - r.computed()).time();
                            const seconds_t transfer = kv_transfer_for(d, r.input, how.path).time;
                            const double prefill_instance_s = core::instance_seconds_per_request(1.0, pre.value(), pb, ranks);
                            blk.prefill_instance_seconds.push_back(prefill_instance_s);
                            blk.prefill_max_batch.push_back(prefill_limit[static_cast<std::size_t>(s)].batch);
                            // The front end (client_first_token) on the prefill side, as disaggregated_goodput.
                            prefill_lane.segment(s * B, B).setConstant(
                                client_first_token(pre + transfer, d.engine.overheads.request).value());
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
                            const lane k = detail::load(in.chunks, c0, n);
                            const core::colocated_lanes<lane> p = core::colocated_point(*pm, seq, b, o, k, core::overlap_lag_of(grid.limits, pm->d.engine));
                            if (!grid.speculation.enabled()) {
                                tpot.segment(c0, n) = p.tpot.head(n);
                                ttft.segment(c0, n) = p.ttft.head(n);
                                per_gpu.segment(c0, n) = p.output_rate_per_gpu.head(n);
                            } else {
                                // speculative_serving_point lane by lane: Δ from the scalar step at each
                                // lane's batch and shape, then the one formula on the lane.
                                const speculative_decoding& sd = grid.speculation;
                                const double e = expected_tokens_per_pass(sd.acceptance, sd.draft_tokens);
                                lane delta = lane::Zero();
                                for (Eigen::Index i = 0; i < n; ++i) {
                                    const request_shape& r = grid.shapes[static_cast<std::size_t>((c0 + i) / B)];
                                    const speculative_step st =
                                        sd.step_for(d, core::micro_batch(d, b(i)), mean_decode_context(r));
                                    delta(i) = (st.time() - st.plain_time).value();
                                }
                                for (Eigen::Index i = 0; i < n; ++i) {  // chunks per lane: its shape's k
                                    const core::speculative::speculated<double> x = core::speculative::speculate(
                                        p.step_time(i), p.tpot(i), p.ttft(i), delta(i), e, k(i));
                                    tpot(c0 + i) = x.tpot;
                                    ttft(c0 + i) = x.ttft;
                                    per_gpu(c0 + i) = p.output_rate_per_gpu(i) * x.rate_gain;
                                }
                            }
                        } else {
                            const lane step = core::step_formula(*pm, seq, lane(b / static_cast<double>(d.layout.pp)),
                                                                 lane(lane::Zero()))
                                                  .time();  // decode_pass
                            // The decode pool prices speculation (disaggregated_goodput): Δ from the scalar
                            // step at each lane's batch and shape, then the one formula on the lane.
                            lane step_tpot = step, first_step = step;
                            if (grid.speculation.enabled()) {
                                const speculative_decoding& sd = grid.speculation;
                                const double e = expected_tokens_per_pass(sd.acceptance, sd.draft_tokens);
                                for (Eigen::Index i = 0; i < n; ++i) {
                                    const request_shape& r = grid.shapes[static_cast<std::size_t>((c0 + i) / B)];
                                    const speculative_step st =
                                        sd.step_for(d, core::micro_batch(d, b(i)), mean_decode_context(r));
                                    const core::speculative::speculated<double> x = core::speculative::speculate(
                                        step(i), step(i), step(i), (st.time() - st.plain_time).value(), e, 1.0);
                                    step_tpot(i) = x.tpot;
                                    first_step(i) = x.ttft;
                                }
                            }
                            const lane decode_s = core::instance_seconds_per_request(o, step_tpot, b, ranks);
                            const lane goodput = core::pooled_requests_per_gpu_second(
                                detail::load(prefill_seconds, c0, n), instance_gpus, decode_s, instance_gpus);
                            tpot.segment(c0, n) = step_tpot.head(n);
                            ttft.segment(c0, n) = prefill_lane.segment(c0, n) + first_step.head(n);
                            per_gpu.segment(c0, n) = (goodput * o).head(n);
                        }
                    }
                    if (!how.disaggregated && colocated_at < 0) colocated_at = off;
                    // Status: the block's, else the context, else the prompt against the step's cap, else the batch against
                    // what fits.
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
                            // the one rule for a prompt under a step's token cap, as `max_batch` refuses it
                            if (!prompt_within_step_cap(r.input, tokens(admits.max_tokens_per_step),
                                                        admits.prefill_chunk.value() > 0.0,
                                                        runs_long_prompt_whole(d.engine.kind))) {
                                st.setConstant(static_cast<std::uint8_t>(point_status::prompt_above_step_cap));
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

LLMCOST_FUNC sweep_result sweep(const sweep_grid& grid) {
    sweep_result res;
    sweep(grid, res);
    return res;
}

}  // namespace llmcost::plan
