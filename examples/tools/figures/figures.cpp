// llmcost-figures <output-dir>: writes the SVG figures of docs/figures, every number computed with
// the library (catalog descriptors, pass costs, serving points, batching schedules, KV footprints).
//
//   roofline_h100.svg, roofline_h200.svg, roofline_b200.svg   attainable FLOP/s vs intensity, with
//                                                            decode and prefill passes placed on it
//   frontier.svg              output tokens/s per GPU vs tokens/s per user, batch 1 … KV limit
//   continuous_batching.svg   slot grid: static vs continuous batching of one queue
//   kv_footprint.svg          KV cache of one sequence vs context, against HBM capacities
//   explain_breakdown.svg     `llmcost estimate --explain`: a prefill and a serving step by kernel
//                             class, and one GPU's memory, as stacked bars
#include "svg.hpp"

#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace llmcost;
using namespace llmcost::literals;
namespace svg = llmcost::figures::svg;
using svg::cat;

// ---- shared helpers ----------------------------------------------------------------------------

/// FP8 weights, KV cache and activations (W8A8), as TensorRT-LLM serves FP8 checkpoints.
model fp8(model m) {
    m.weights = m.kv_cache = m.activations = formats::fp8;
    return m;
}

using text::grouped;

using svg::ceil_to;
using svg::nice_step;

const text::options three{.digits = 3};
const text::options binary3{.digits = 3, .bytes = text::byte_prefix::binary};

/// Writes the figure, unless its text runs off the page or overlaps other text.
bool save(const svg::document& doc, const std::string& dir, const std::string& name) {
    const std::vector<std::string> problems = doc.layout_problems();
    for (const std::string& p : problems) std::fprintf(stderr, "llmcost-figures: %s: %s\n", name.c_str(), p.c_str());
    if (!problems.empty()) return false;
    const std::string path = cat(dir, "/", name);
    if (!doc.save(path)) {
        std::fprintf(stderr, "llmcost-figures: cannot write %s\n", path.c_str());
        return false;
    }
    std::printf("%s\n", name.c_str());
    return true;
}

// ---- roofline ----------------------------------------------------------------------------------

struct roof {
    compute_class precision;
    const char* name;
    const char* color;
};
constexpr std::array roofs{roof{compute_class::bf16, "BF16", "#2c7bb6"}, roof{compute_class::fp8, "FP8", "#d7191c"},
                           roof{compute_class::fp4, "FP4", "#1a9641"}};

/// The datasheet's dense peak the GPU has natively for `c` (0 when it would widen to another format).
flops_per_second_t native_peak(const accelerator& g, compute_class c) {
    switch (c) {
        case compute_class::bf16: return g.dense.bf16;
        case compute_class::fp8: return g.dense.fp8;
        case compute_class::fp4: return g.dense.fp4;
        case compute_class::int8: return g.dense.int8;
    }
    return g.dense.bf16;
}

/// The roof the cost model prices `c`'s matmuls under where the GPU has `c` natively: `accelerator::peak`, the
/// datasheet's except FP4's, the rate the FP4 units sustain (`fp4_gemm_peak`: B300 11,421 of 13,125 TFLOP/s); 0 where
/// it would widen to another format.
flops_per_second_t model_roof(const accelerator& g, compute_class c) {
    return native_peak(g, c).value() > 0 ? g.peak(c) : native_peak(g, c);
}

bool roofline(const hardware& hw, const std::string& dir, const std::string& name) {
    const model m = fp8(catalog::llama_3_1_70b);
    const tokens_t context = 2048_tok;
    constexpr std::array batches{1.0, 8.0, 64.0, 256.0};
    // The smallest tensor parallelism in one node that holds the largest batch's KV cache.
    int tp = 1;
    while (tp < hw.gpus_per_node && max_sequences(deployment{.m = m, .hw = hw, .layout = {.tp = tp}}, context) < batches.back())
        tp *= 2;
    const deployment d{.m = m, .hw = hw, .layout = {.tp = tp}};
    const accelerator& g = hw.gpu;

    // The y axis reaches the decade above the highest roof (10 PFLOP/s up to Blackwell; 100 PFLOP/s for B300's FP4).
    double y_hi = 1e16;
    for (const roof& r : roofs)
        while (model_roof(g, r.precision).value() >= y_hi) y_hi *= 10.0;
    const double x_lo = 1.0, x_hi = 1e4, y_lo = 1e12;
    svg::document doc(960.0, 660.0, cat("Roofline of ", hw.name));
    svg::plot p(doc, {.x = 96.0, .y = 78.0, .width = 830.0, .height = 470.0},
                svg::axis::log(x_lo, x_hi, svg::decade_ticks(x_lo, x_hi, [](double v) { return grouped(v); })),
                svg::axis::log(y_lo, y_hi, svg::decade_ticks(y_lo, y_hi, svg::si_label)));
    p.axes("arithmetic intensity (FLOP/byte, log scale)", "attainable performance (FLOP/s, log scale)");
    doc.text(96.0, 30.0, cat("Roofline of one ", hw.name, ": where decode and prefill passes sit"),
             {.size = 17.0, .bold = true});
    doc.text(96.0, 52.0,
             cat(m.name, ", FP8 weights, KV cache and activations, TP", std::to_string(tp), ", ", grouped(context.value()),
                 "-token context; one GPU's share of each pass."),
             {.size = 12.5, .color = "#444444"});

    std::vector<svg::legend_entry> legend;
    // The HBM slope up to the highest ridge, then one flat roof per native precision.
    const bytes_per_second_t bw = g.hbm_bandwidth;
    double highest_ridge = 0.0;
    for (const roof& r : roofs)
        if (model_roof(g, r.precision).value() > 0)
            highest_ridge = std::max(highest_ridge, ridge_point(model_roof(g, r.precision), bw).value());
    const svg::shape_style slope{.stroke = "#222222", .stroke_width = 2.2};
    p.line({{x_lo, bw.value() * x_lo}, {highest_ridge, bw.value() * highest_ridge}}, slope);
    legend.push_back({.label = cat("HBM bandwidth ", to_text(bw, three), " (spec)"), .line = slope});
    for (const roof& r : roofs) {
        const flops_per_second_t peak = model_roof(g, r.precision), datasheet = native_peak(g, r.precision);
        if (peak.value() <= 0) continue;
        const double ridge = ridge_point(peak, bw).value();
        const svg::shape_style s{.stroke = r.color, .stroke_width = 2.2};
        p.line({{ridge, peak.value()}, {x_hi, peak.value()}}, s);
        p.marker({ridge, peak.value()}, svg::marker_kind::circle, 5.0, {.fill = r.color});
        // A roof below the datasheet's (Blackwell Ultra's FP4) says so, with the datasheet figure beside it.
        const std::string what = peak.value() == datasheet.value() ? cat(" dense peak ", to_text(peak, three))
                                                   : cat(" sustained peak ", to_text(peak, three), " (datasheet ",
                                                         to_text(datasheet, three), ")");
        legend.push_back({.label = cat(r.name, what, ", ridge at ", grouped(ridge), " FLOP/B"), .line = s});
    }
    // What the cost model's kernels can reach: sustained bandwidth and the large-GEMM FP8 rate.
    const bytes_per_second_t bw_sustained = g.sustained_hbm_bandwidth();
    const flops_per_second_t fp8_sustained = g.sustained_peak(compute_class::fp8);
    const double ridge_sustained = ridge_point(fp8_sustained, bw_sustained).value();
    const svg::shape_style achievable{.stroke = "#7b3294", .stroke_width = 1.6, .dash = "7 4"};
    p.line({{x_lo, bw_sustained.value() * x_lo}, {ridge_sustained, fp8_sustained.value()}, {x_hi, fp8_sustained.value()}},
           achievable);
    legend.push_back({.label = cat("achievable FP8: ", to_text(bw_sustained, three), ", ", to_text(fp8_sustained, three),
                                   " (calibrated)"),
                      .line = achievable});

    // The passes: decode at growing batch, and one prompt's prefill.
    const svg::shape_style decode_dot{.fill = "#fdae61", .stroke = "#222222", .stroke_width = 1.0};
    const svg::shape_style prefill_dot{.fill = "#abd9e9", .stroke = "#222222", .stroke_width = 1.0};
    for (double b : batches) {
        const pass_cost pass = decode_pass(d, b, context);
        const svg::point at{(pass.flops / pass.bytes()).value(), (pass.flops / pass.time()).value()};
        p.marker(at, svg::marker_kind::circle, 10.0, decode_dot);
        p.label(at, 9.0, 20.0,
                cat("decode, batch ", grouped(b), ": ", to_text(pass.time(), three), ", ",
                    to_text(pass.flops / pass.time(), three)),
                {.size = 11.5});
    }
    const pass_cost prefill = prefill_pass(d, 1.0, context, 0_tok);
    const svg::point at{(prefill.flops / prefill.bytes()).value(), (prefill.flops / prefill.time()).value()};
    p.marker(at, svg::marker_kind::diamond, 11.0, prefill_dot);
    p.label(at, 0.0, 20.0, cat("prefill, one ", grouped(context.value()), "-token prompt:"), {.size = 11.5, .anchor = "middle"});
    p.label(at, 0.0, 33.0, cat(to_text(prefill.time(), three), ", ", to_text(prefill.flops / prefill.time(), three)),
            {.size = 11.5, .anchor = "middle"});
    legend.push_back({.label = "decode pass (one token per sequence)", .has_marker = true, .marker_style = decode_dot});
    legend.push_back({.label = "prefill pass", .has_marker = true, .marker = svg::marker_kind::diamond,
                      .marker_style = prefill_dot});
    p.legend(legend, svg::corner::bottom_right);
    doc.text(96.0, 622.0, "A point is one pass at (FLOPs ÷ bytes moved, FLOPs ÷ pass time). It sits below the achievable roof:",
             {.size = 11.5, .italic = true, .color = "#555555"});
    doc.text(96.0, 640.0,
             "a pass is a sum of per-kernel rooflines (GEMMs, attention, element-wise), plus launch overheads and TP all-reduces.",
             {.size = 11.5, .italic = true, .color = "#555555"});
    return save(doc, dir, name);
}

// ---- the serving frontier ----------------------------------------------------------------------

struct frontier_curve {
    deployment d;
    const char* color;
    const char* dash;
};

bool frontier(const std::string& dir) {
    const model m = fp8(catalog::llama_3_1_70b);
    const request_shape shape{.input = 1024_tok, .output = 1024_tok};
    const std::array curves{
        frontier_curve{{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 2}}, "#9ecae1", ""},
        frontier_curve{{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 4}}, "#4292c6", ""},
        frontier_curve{{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = 8}}, "#08519c", ""},
        frontier_curve{{.m = m, .hw = catalog::b200_hgx, .layout = {.tp = 2}}, "#fdae6b", "8 4"},
        frontier_curve{{.m = m, .hw = catalog::b200_hgx, .layout = {.tp = 4}}, "#f16913", "8 4"},
        frontier_curve{{.m = m, .hw = catalog::b200_hgx, .layout = {.tp = 8}}, "#a63603", "8 4"},
    };
    // Each deployment at every batch from 1 to the largest its KV cache admits, reduced to its
    // Pareto frontier: a batch that another beats on both speed per user and throughput per GPU is
    // one no operator would choose (the pass model's 64-row GEMM tiles make some batches slower
    // per GPU than a smaller one).
    std::vector<std::vector<serving_point>> fronts;
    std::vector<batch_limit> limits;
    double most_per_user = 0.0, most_per_gpu = 0.0;
    for (const frontier_curve& c : curves) {
        const batch_limit limit = max_batch(c.d, shape);
        std::vector<serving_point> sweep;
        for (double b = 1.0; b <= limit.batch; b += 1.0) sweep.push_back(serve_at_batch(c.d, shape, b));
        std::stable_sort(sweep.begin(), sweep.end(), [](const serving_point& a, const serving_point& b) {
            return a.per_user > b.per_user;
        });
        std::vector<serving_point> front;
        for (const serving_point& sp : sweep)
            if (front.empty() || sp.output_rate_per_gpu > front.back().output_rate_per_gpu) front.push_back(sp);
        most_per_user = std::max(most_per_user, front.front().per_user.value());
        most_per_gpu = std::max(most_per_gpu, front.back().output_rate_per_gpu.value());
        fronts.push_back(front);
        limits.push_back(limit);
    }
    const double x_step = nice_step(most_per_user, 8.0), y_step = nice_step(most_per_gpu, 7.0);
    const double x_hi = ceil_to(most_per_user * 1.02, x_step), y_hi = ceil_to(most_per_gpu * 1.02, y_step);

    svg::document doc(960.0, 660.0, "Serving frontier");
    svg::plot p(doc, {.x = 96.0, .y = 78.0, .width = 830.0, .height = 470.0},
                svg::axis::linear(0.0, x_hi, svg::linear_ticks(0.0, x_hi, x_step, 0)),
                svg::axis::linear(0.0, y_hi, svg::linear_ticks(0.0, y_hi, y_step, 0, true)));
    p.axes("interactivity: output tokens/s per user (1 ÷ time per output token)",
           "throughput: output tokens/s per GPU");
    doc.text(96.0, 30.0, "The serving frontier: throughput per GPU against speed per user", {.size = 17.0, .bold = true});
    doc.text(96.0, 52.0,
             cat(m.name, ", FP8 weights, KV cache and activations; requests of ", grouped(shape.input.value()), " → ",
                 grouped(shape.output.value()), " tokens; continuous batching in steady state."),
             {.size = 12.0, .color = "#444444"});

    std::vector<svg::legend_entry> legend;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const frontier_curve& c = curves[i];
        const svg::shape_style s{.stroke = c.color, .stroke_width = 2.4, .dash = c.dash};
        // Thinned to points at least 1.5 px apart, first and last kept.
        std::vector<svg::point> pts;
        for (std::size_t k = 0; k < fronts[i].size(); ++k) {
            const svg::point at{fronts[i][k].per_user.value(), fronts[i][k].output_rate_per_gpu.value()};
            if (k > 0 && k + 1 < fronts[i].size()) {
                const double dx = p.px(at.x) - p.px(pts.back().x), dy = p.py(at.y) - p.py(pts.back().y);
                if (dx * dx + dy * dy < 1.5 * 1.5) continue;
            }
            pts.push_back(at);
        }
        p.line(pts, s);
        const svg::shape_style dot{.fill = c.color, .stroke = "#222222", .stroke_width = 0.8};
        p.marker(pts.back(), svg::marker_kind::circle, 8.0, dot);
        p.marker(pts.front(), svg::marker_kind::circle, 8.0, {.fill = "#ffffff", .stroke = c.color, .stroke_width = 2.0});
        legend.push_back({.label = cat(c.d.hw.name, " TP", std::to_string(c.d.layout.tp), ": best at batch ",
                                       grouped(fronts[i].back().batch), " of ", grouped(limits[i].batch), " (",
                                       limits[i].limited_by, ")"),
                          .line = s,
                          .has_marker = true,
                          .marker_style = dot});
    }
    legend.push_back({.label = "batch 1",
                      .has_marker = true,
                      .marker_style = {.fill = "#ffffff", .stroke = "#555555", .stroke_width = 2.0}});
    p.legend(legend, svg::corner::top_right, 10.0, "GPU and tensor parallelism (GPUs per replica)");
    doc.text(96.0, 622.0,
             "Each curve: every batch from 1 (open dot) to the KV-cache limit, less the batches another beats on both axes; "
             "the filled dot",
             {.size = 11.5, .italic = true, .color = "#555555"});
    doc.text(96.0, 640.0,
             "is the most throughput per GPU. Up and to the right is better: more GPUs per replica buy speed per user, "
             "fewer buy throughput.",
             {.size = 11.5, .italic = true, .color = "#555555"});
    return save(doc, dir, "frontier.svg");
}

// ---- static vs continuous batching -------------------------------------------------------------

/// One request placed in the slot grid.
struct placement {
    int request = 0;  ///< 0-based arrival order
    int slot = 0;
    double start = 0.0;
    double length = 0.0;
};

/// Static batching in arrival order: batch k holds its B slots from the end of batch k − 1 until its
/// longest request ends (the schedule behind batching::static_steps).
std::vector<placement> static_schedule(const std::vector<tokens_t>& lengths, int batch) {
    std::vector<placement> out;
    double start = 0.0;
    for (std::size_t i = 0; i < lengths.size(); i += static_cast<std::size_t>(batch)) {
        double longest = 0.0;
        for (std::size_t j = i; j < lengths.size() && j < i + static_cast<std::size_t>(batch); ++j) {
            out.push_back({static_cast<int>(j), static_cast<int>(j - i), start, lengths[j].value()});
            longest = std::max(longest, lengths[j].value());
        }
        start += longest;
    }
    return out;
}

/// Continuous batching with a refill at every step: each request in turn takes the slot that frees
/// first, the lowest-numbered on a tie (the schedule behind batching::continuous_steps).
std::vector<placement> continuous_schedule(const std::vector<tokens_t>& lengths, int batch) {
    std::vector<placement> out;
    std::vector<double> free_at(static_cast<std::size_t>(batch), 0.0);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        std::size_t slot = 0;
        for (std::size_t k = 1; k < free_at.size(); ++k)
            if (free_at[k] < free_at[slot]) slot = k;
        out.push_back({static_cast<int>(i), static_cast<int>(slot), free_at[slot], lengths[i].value()});
        free_at[slot] += lengths[i].value();
    }
    return out;
}

double end_of(const std::vector<placement>& schedule) {
    double end = 0.0;
    for (const placement& p : schedule) end = std::max(end, p.start + p.length);
    return end;
}

bool continuous_batching(const std::string& dir) {
    constexpr int slots = 4;
    // A deterministic queue of twelve requests (output lengths in tokens, in arrival order).
    const std::vector<tokens_t> lengths{9_tok,  22_tok, 5_tok,  14_tok, 18_tok, 3_tok,
                                        11_tok, 7_tok,  24_tok, 6_tok,  13_tok, 16_tok};
    const std::vector<placement> fixed = static_schedule(lengths, slots);
    const std::vector<placement> rolling = continuous_schedule(lengths, slots);
    const double static_steps = batching::static_steps(lengths, slots);
    const double continuous_steps = batching::continuous_steps(lengths, slots);
    if (end_of(fixed) != static_steps || end_of(rolling) != continuous_steps) {
        std::fprintf(stderr, "llmcost-figures: the drawn schedules disagree with serving/batching.hpp "
                             "(static %g vs %g steps, continuous %g vs %g)\n",
                     end_of(fixed), static_steps, end_of(rolling), continuous_steps);
        return false;
    }
    double total = 0.0, shortest = lengths.front().value(), longest = 0.0;
    for (const tokens_t& l : lengths) {
        total += l.value();
        shortest = std::min(shortest, l.value());
        longest = std::max(longest, l.value());
    }

    static constexpr std::array palette{"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
                                        "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3"};
    const double left = 100.0, width = 830.0, row = 28.0;
    const double step_px = width / static_steps;
    svg::document doc(960.0, 600.0, "Static and continuous batching");
    doc.text(left, 30.0,
             cat("Static vs continuous batching: ", std::to_string(slots), " slots, the same ",
                 std::to_string(lengths.size()), " requests"),
             {.size = 17.0, .bold = true});
    std::string queue = "Output lengths in arrival order (tokens = decode steps):";
    for (std::size_t i = 0; i < lengths.size(); ++i) queue += cat(i == 0 ? " " : ", ", grouped(lengths[i].value()));
    queue += ".";
    doc.text(left, 52.0, queue, {.size = 12.0, .color = "#444444"});
    doc.text(left, 69.0, "One column is one decode step; grey cells are slots held with nothing to do.",
             {.size = 12.0, .color = "#444444"});

    auto grid = [&](double top, const std::vector<placement>& schedule, double steps, const char* idle_label) {
        // Held slots (idle unless a request covers them), the requests, the step boundaries.
        for (int s = 0; s < slots; ++s) {
            const double y = top + s * row;
            doc.text(left - 10.0, y + row / 2.0 + 4.0, cat("slot ", std::to_string(s + 1)), {.size = 12.0, .anchor = "end"});
            doc.rect(left, y, steps * step_px, row, {.fill = "#d4d4d4"});
        }
        for (const placement& p : schedule)
            doc.rect(left + p.start * step_px, top + p.slot * row, p.length * step_px, row,
                     {.fill = palette[static_cast<std::size_t>(p.request) % palette.size()]});
        for (double k = 1.0; k < steps; k += 1.0)
            doc.line(left + k * step_px, top, left + k * step_px, top + slots * row,
                     {.stroke = "#ffffff", .stroke_width = 0.7});
        for (const placement& p : schedule)  // where one request hands its slot to the next
            doc.line(left + p.start * step_px, top + p.slot * row, left + p.start * step_px, top + (p.slot + 1) * row,
                     {.stroke = "#444444", .stroke_width = 1.2});
        for (int s = 1; s < slots; ++s)
            doc.line(left, top + s * row, left + steps * step_px, top + s * row, {.stroke = "#ffffff", .stroke_width = 2.0});
        // Labels: each request, and each idle stretch wide enough to say so.
        for (const placement& p : schedule)
            doc.text(left + p.start * step_px + 4.0, top + p.slot * row + row / 2.0 + 4.0,
                     cat("R", std::to_string(p.request + 1)), {.size = 11.0});
        for (int s = 0; s < slots; ++s) {
            std::vector<placement> mine;
            for (const placement& p : schedule)
                if (p.slot == s) mine.push_back(p);
            for (std::size_t i = 0; i < mine.size(); ++i) {
                const double from = mine[i].start + mine[i].length;
                const double to = i + 1 < mine.size() ? mine[i + 1].start : steps;
                if ((to - from) * step_px >= 34.0)
                    doc.text(left + (from + to) / 2.0 * step_px, top + s * row + row / 2.0 + 4.0, idle_label,
                             {.size = 10.5, .anchor = "middle", .italic = true, .color = "#555555"});
            }
        }
        // The frame and a step axis (the static makespan's, so both grids share one scale).
        doc.rect(left, top, steps * step_px, slots * row, {.stroke = "#444444", .stroke_width = 1.0});
        const double bottom = top + slots * row;
        for (const svg::tick& t : svg::linear_ticks(0.0, static_steps, 8.0, 0)) {
            doc.line(left + t.value * step_px, bottom, left + t.value * step_px, bottom + 5.0,
                     {.stroke = "#444444", .stroke_width = 1.0});
            doc.text(left + t.value * step_px, bottom + 18.0, t.label, {.size = 11.0, .anchor = "middle", .color = "#333333"});
        }
    };

    // Static batching on top, with each batch's own utilisation above it.
    const double top_static = 128.0;
    doc.text(left, 100.0,
             cat("Static batching: ", grouped(static_steps), " steps, slots busy ",
                 text::fixed(100.0 * batching::static_occupancy(lengths, slots), 1), " %",
                 " (each batch holds its slots until its longest request ends)"),
             {.size = 13.5, .bold = true});
    for (std::size_t i = 0, k = 1; i < lengths.size(); i += slots, ++k) {
        const std::size_t n = std::min(lengths.size() - i, static_cast<std::size_t>(slots));
        const std::span<const tokens_t> group(lengths.data() + i, n);
        const double from = fixed[i].start;
        const double to = from + batching::static_steps(group, slots);
        doc.line(left + from * step_px + 2.0, 121.0, left + to * step_px - 2.0, 121.0, {.stroke = "#666666", .stroke_width = 1.0});
        doc.text(left + (from + to) / 2.0 * step_px, 117.0,
                 cat("batch ", std::to_string(k), ": ", text::fixed(100.0 * batching::static_batch_occupancy(group), 0), " % busy"),
                 {.size = 11.0, .anchor = "middle", .color = "#444444"});
    }
    grid(top_static, fixed, static_steps, "idle");

    const double top_cont = 320.0;
    doc.text(left, 304.0,
             cat("Continuous batching: ", grouped(continuous_steps), " steps, slots busy ",
                 text::fixed(100.0 * batching::continuous_occupancy(lengths, slots), 1), " %",
                 " (a freed slot takes the next request at the next step)"),
             {.size = 13.5, .bold = true});
    grid(top_cont, rolling, continuous_steps, "drain");
    const double done = left + continuous_steps * step_px;
    doc.line(done, top_cont - 4.0, done, top_cont + slots * row + 4.0, {.stroke = "#d7191c", .stroke_width = 1.5, .dash = "5 3"});
    const svg::text_style note{.size = 12.0, .color = "#d7191c"};
    doc.text(done + 8.0, top_cont + 30.0, cat("queue done at step ", grouped(continuous_steps), ":"), note);
    doc.text(done + 8.0, top_cont + 48.0,
             cat(text::fixed(100.0 * (1.0 - continuous_steps / static_steps), 0), " % fewer steps than static,"), note);
    doc.text(done + 8.0, top_cont + 66.0, cat(text::fixed(static_steps / continuous_steps, 2), "× the throughput"), note);
    doc.text(left + width / 2.0, top_cont + slots * row + 40.0, "decode step", {.size = 13.0, .anchor = "middle"});

    // What the same rules give on average (batching.hpp's expectations over a length distribution).
    const batching::length_distribution uniform =
        batching::length_distribution::uniform(tokens(shortest), tokens(longest));
    const auto exponential = batching::length_distribution::exponential(tokens(total / static_cast<double>(lengths.size())));
    double y = 514.0;
    doc.text(left, y, "On average (serving/batching.hpp):", {.size = 12.5, .bold = true});
    y += 20.0;
    doc.text(left, y,
             cat("• lengths uniform on ", grouped(shortest), "…", grouped(longest), " tokens: a static batch of ",
                 std::to_string(slots), " is busy ", text::fixed(100.0 * batching::static_expected_occupancy(uniform, slots), 1), " %",
                 " of its slot-steps (mean ÷ expected longest)"),
             {.size = 12.0});
    y += 19.0;
    doc.text(left, y,
             cat("• exponential lengths with the same mean (", text::fixed(exponential.mean_length().value(), 1),
                 " tokens): ", text::fixed(100.0 * batching::static_expected_occupancy(exponential, slots), 1), " %",
                 " for a static batch of ", std::to_string(slots), ", ",
                 text::fixed(100.0 * batching::static_expected_occupancy(exponential, 64), 1), " % for 64"),
             {.size = 12.0});
    y += 19.0;
    doc.text(left, y,
             cat("• continuous batching with a full queue: ",
                 text::fixed(100.0 * batching::continuous_expected_occupancy(uniform), 0), " % refilled every step, ",
                 text::fixed(100.0 * batching::continuous_expected_occupancy(uniform, 8), 1), " %",
                 " when the scheduler refills only every 8 steps"),
             {.size = 12.0});
    return save(doc, dir, "continuous_batching.svg");
}

// ---- KV footprint ------------------------------------------------------------------------------

std::string attention_summary(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind == attention_kind::latent)
        return cat("MLA, latent ", std::to_string(a.latent.kv_lora_rank), " + RoPE ", std::to_string(a.latent.rope_head_dim));
    std::string s = cat("GQA ", std::to_string(a.query_heads), ":", std::to_string(a.kv_heads));
    if (a.sliding_window > 0)
        s += cat(", ", std::to_string(a.sliding_window_layers), " of ", std::to_string(m.layers), " layers windowed to ",
                 std::to_string(a.sliding_window));
    return s;
}

bool kv_footprint(const std::string& dir) {
    struct curve {
        model m;
        const char* color;
        const char* dash;
    };
    const std::array curves{
        curve{catalog::llama_3_1_405b, "#08306b", ""},  curve{catalog::llama_3_1_70b, "#2171b5", ""},
        curve{catalog::llama_3_1_8b, "#6baed6", ""},    curve{catalog::qwen3_235b_a22b, "#238b45", ""},
        curve{catalog::deepseek_v3, "#d7191c", ""},     curve{catalog::gpt_oss_120b, "#ff7f00", "7 3"},
    };
    const bytes_t gib = gibibytes(1.0);
    const double x_lo = 1024.0, x_hi = 262144.0, y_lo = 0.01, y_hi = 1000.0;
    std::vector<svg::tick> x_ticks;
    for (double x = x_lo; x <= x_hi; x *= 2.0) x_ticks.push_back({x, cat(grouped(x / 1024.0), "K")});
    auto gib_label = [](double v) { return v < 1.0 ? text::number(v, 2) : grouped(v); };
    svg::document doc(960.0, 640.0, "KV cache footprint");
    svg::plot p(doc, {.x = 96.0, .y = 78.0, .width = 830.0, .height = 470.0}, svg::axis::log(x_lo, x_hi, x_ticks),
                svg::axis::log(y_lo, y_hi, svg::decade_ticks(y_lo, y_hi, gib_label)));
    p.axes("context length (tokens, log scale; K = 1,024)", "KV cache of one sequence (GiB, log scale)");
    doc.text(96.0, 30.0, "KV cache of one sequence against context length, and the HBM of one GPU",
             {.size = 17.0, .bold = true});
    doc.text(96.0, 52.0,
             "All layers, BF16 KV as each model ships; each curve ends at the model's longest trained context (dot).",
             {.size = 12.5, .color = "#444444"});

    // HBM capacity of one GPU (in increasing order), labelled left of the 128K curve ends: under its
    // line, or above it when the next line down is too close to leave room.
    const double label_at = 96.0 * 1024.0;
    const std::array gpus{catalog::h100_sxm5, catalog::h200_sxm, catalog::b200_hgx};
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const double cap = ratio(gpus[i].gpu.hbm_capacity, gib);
        const svg::shape_style s{.stroke = "#555555", .stroke_width = 1.4, .dash = "4 3"};
        p.hline(cap, s);
        const bool crowded = i > 0 && p.py(ratio(gpus[i - 1].gpu.hbm_capacity, gib)) - p.py(cap) < 18.0;
        p.label({label_at, cap}, 0.0, crowded ? -5.0 : 14.0,
                cat(gpus[i].name, " HBM: ", to_text(gpus[i].gpu.hbm_capacity, binary3)),
                {.size = 11.5, .anchor = "end", .color = "#333333"});
    }

    std::vector<svg::legend_entry> legend;
    for (const curve& c : curves) {
        const double end = std::min(static_cast<double>(c.m.max_position), x_hi);
        std::vector<svg::point> pts;
        for (double x = x_lo; x < end; x *= 1.189207115002721)  // 2^(1/4): four points per doubling
            pts.push_back({x, ratio(kv_bytes_for_context(c.m, tokens(x)), gib)});
        pts.push_back({end, ratio(kv_bytes_for_context(c.m, tokens(end)), gib)});
        const svg::shape_style s{.stroke = c.color, .stroke_width = 2.4, .dash = c.dash};
        p.line(pts, s);
        p.marker(pts.back(), svg::marker_kind::circle, 7.0, {.fill = c.color});
        legend.push_back({.label = cat(c.m.name, ": ", attention_summary(c.m), ", ", to_text(kv_bytes_per_token(c.m), binary3)),
                          .line = s});
    }
    p.legend(legend, svg::corner::top_left, 10.0, "model: attention, KV per token (all layers)");
    doc.text(96.0, 622.0,
             "MLA caches one compressed latent per token for all heads; GQA caches K and V for each KV head. "
             "Windowed layers stop growing at their window.",
             {.size = 11.5, .italic = true, .color = "#555555"});
    return save(doc, dir, "kv_footprint.svg");
}

// ---- estimate --explain ------------------------------------------------------------------------

/// `llmcost estimate --model Llama-3.1-70B --hardware H100 --tp 8 --input 2000 --output 500 --batch 32
/// --explain` drawn: each pass's kernel classes as one bar scaled to its own time, one GPU's HBM as a
/// third, and a table of the figures beneath (the bars carry no text, so nothing overlaps).
bool explain_breakdown(const std::string& dir) {
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const request_shape r{.input = 2000_tok, .output = 500_tok};
    const request_estimate e = estimate(d, r, {.batch = 32});
    const request_breakdown b = explain(d, r, e.point);
    const std::array<const char*, kernel_classes> kernel_colors{"#2171b5", "#6baed6", "#9ecae1", "#fd8d3c", "#fdd0a2",
                                                                "#d7191c", "#984ea3", "#4daf4a"};
    const double x0 = 40.0, width = 880.0, bar_h = 26.0;
    svg::document doc(960.0, 700.0, "estimate --explain");
    doc.text(x0, 30.0, cat("Where the time and the memory go: ", d.m.name, " on 8 x ", d.hw.name, ", 32 users"),
             {.size = 16.0, .bold = true});
    doc.text(x0, 52.0, "llmcost estimate --tp 8 --input 2000 --output 500 --batch 32 --explain, one tensor-parallel rank; "
             "each bar is 100% of its pass or of the HBM.", {.size = 12.0, .color = "#444444"});

    auto kernel_bar = [&](double y, const std::string& title, const std::array<kernel_class_cost, kernel_classes>& rows, seconds_t total) {
        doc.text(x0, y, cat(title, " (", to_text(total, three), ")"), {.size = 13.0, .bold = true});
        double x = x0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const double w = width * ratio(rows[i].time, total);
            if (w > 0.0) doc.rect(x, y + 8.0, w, bar_h, {.fill = kernel_colors[i], .stroke = "#ffffff", .stroke_width = 1.0});
            x += w;
        }
    };
    kernel_bar(90.0, "Prefill of one prompt alone", b.prefill_kernels, b.prefill.time());
    kernel_bar(160.0, "The serving step: 32 decodes and the step's prompt chunks", b.step_kernels, b.step.time());

    const memory_breakdown& m = b.memory;
    const std::array<std::pair<const char*, bytes_t>, 6> parts{{{"weights: attention, dense FFN, embeddings", m.dense_weights},
                                                                {"weights: routed experts", m.expert_weights},
                                                                {"KV cache of the batch", m.kv},
                                                                {"activations and workspace", m.activations + m.communication + m.runtime},
                                                                {"kept outside the KV pool by the engine's rule", m.slack},
                                                                {"left over", m.free}}};
    const std::array<const char*, 6> memory_colors{"#08519c", "#6baed6", "#e6550d", "#fdae6b", "#bdbdbd", "#f0f0f0"};
    doc.text(x0, 230.0, cat("Memory of one GPU (", to_text(m.capacity, binary3), " HBM)"), {.size = 13.0, .bold = true});
    double x = x0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double w = width * std::max(0.0, ratio(parts[i].second, m.capacity));
        if (w > 0.0) doc.rect(x, 238.0, w, bar_h, {.fill = memory_colors[i], .stroke = "#ffffff", .stroke_width = 1.0});
        x += w;
    }

    // The table: kernel class, its colour, prefill and step time (share, bound by).
    double y = 300.0;
    doc.text(x0 + 24.0, y, "kernel class", {.size = 12.0, .bold = true});
    doc.text(x0 + 220.0, y, "prefill: time (share), bound by", {.size = 12.0, .bold = true});
    doc.text(x0 + 560.0, y, "serving step: time (share), bound by", {.size = 12.0, .bold = true});
    auto cell = [&](const kernel_class_cost& k, seconds_t total) {
        if (k.time.value() <= 0.0) return std::string("-");
        return cat(to_text(k.time, three), " (", text::number(100.0 * ratio(k.time, total), 3), "%), ", to_text(k.limited_by));
    };
    for (std::size_t i = 0; i < b.prefill_kernels.size(); ++i) {
        y += 22.0;
        doc.rect(x0, y - 11.0, 14.0, 14.0, {.fill = kernel_colors[i]});
        doc.text(x0 + 24.0, y, b.prefill_kernels[i].kernel, {.size = 12.0});
        doc.text(x0 + 220.0, y, cell(b.prefill_kernels[i], b.prefill.time()), {.size = 12.0});
        doc.text(x0 + 560.0, y, cell(b.step_kernels[i], b.step.time()), {.size = 12.0});
    }
    y += 40.0;
    doc.text(x0 + 24.0, y, "memory of one GPU", {.size = 12.0, .bold = true});
    doc.text(x0 + 560.0, y, "bytes (share of HBM)", {.size = 12.0, .bold = true});
    for (std::size_t i = 0; i < parts.size(); ++i) {
        y += 22.0;
        doc.rect(x0, y - 11.0, 14.0, 14.0, {.fill = memory_colors[i], .stroke = "#888888", .stroke_width = 0.6});
        doc.text(x0 + 24.0, y, parts[i].first, {.size = 12.0});
        doc.text(x0 + 560.0, y, cat(to_text(parts[i].second, three), " (", text::number(100.0 * ratio(parts[i].second, m.capacity), 3), "%)"),
                 {.size = 12.0});
    }
    doc.text(x0, 688.0, "Each pass's rows sum to its time (tested); the memory rows sum to the HBM. Figures from the library, as the tool prints them.",
             {.size = 11.5, .italic = true, .color = "#555555"});
    return save(doc, dir, "explain_breakdown.svg");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: llmcost-figures <output-dir>\n");
        return 2;
    }
    const std::string dir = argv[1];
    bool ok = true;
    ok = roofline(catalog::h100_sxm5, dir, "roofline_h100.svg") && ok;
    ok = roofline(catalog::h200_sxm, dir, "roofline_h200.svg") && ok;
    ok = roofline(catalog::b200_hgx, dir, "roofline_b200.svg") && ok;
    ok = roofline(catalog::b300_hgx, dir, "roofline_b300.svg") && ok;  // FP4 below its datasheet (docs/blackwell-ultra-fp4.md)
    ok = frontier(dir) && ok;
    ok = continuous_batching(dir) && ok;
    ok = kv_footprint(dir) && ok;
    ok = explain_breakdown(dir) && ok;
    return ok ? 0 : 1;
}
