// The `llmcost` tool's sweep commands: options in, a report out (and for `frontier --svg`, a
// figure). Every figure comes from the library (plan/sweep.hpp, frontier.hpp, plan.hpp); this file
// chooses which to show and how to name them.
#include "plan_sweep_commands.hpp"
#include "numbers.hpp"

#include "../tools/figures/svg.hpp"

#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/descriptors/weights_text.hpp>
#include <llmcost/plan/frontier.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/plan/sweep.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace llmcost::cli {

namespace {

namespace lp = llmcost::plan;  // `plan` alone names the command in this namespace
namespace svg = llmcost::figures::svg;

// ---- names and options ---------------------------------------------------------------------

/// The formats to compare: each --weights (with --kv, or its own KV format), or --kv alone; each with the modules
/// --excluded-modules keeps in --kept-format (`kept_modules_of`).
std::vector<lp::serving_formats> formats_of(const std::vector<std::string>& weights, const std::string& kv,
                                            const checkpoint_options& checkpoint) {
    std::optional<number_format> k;
    if (!kv.empty()) k = format_named_or_throw(kv, "--kv");
    const std::optional<excluded_modules> kept = kept_modules_of(checkpoint);
    require_weights_for_kept(kept, !weights.empty());
    std::vector<lp::serving_formats> out;
    for (const std::string& w : weights)
        out.push_back({.weights = format_named_or_throw(w, "--weights"), .kv = k, .kept = kept});
    if (out.empty()) out.push_back({.kv = k, .kept = kept});
    return out;
}

void check_positive(double v, std::string_view flag) {
    if (!(v > 0.0) || !std::isfinite(v))
        throw usage_error(std::string(flag) + " must be positive and finite, got " + invalid_input::show(v));
}

/// What a sweep's speculation prices, for a note.
std::string speculation_note(const speculation_options& o) {
    std::string note = "Speculative decoding: ";
    note += o.drafter == "mtp" ? "the model's MTP module" : "an EAGLE head";
    note += ", gamma " + std::to_string(o.draft_tokens);
    note += ", alpha " + invalid_input::show(o.acceptance);
    note += ", in every decode step as estimate --spec prices it (speculative_serving_point at each point's batch).";
    return note;
}

void check_context(const model& m, double context, bool ignore) {
    if (!ignore) require_within_max_position(m, context, "; pass --ignore-max-position to price it anyway");
}

std::string layout_text(const deployment& d) {
    const parallel_layout& l = d.layout;
    std::string s = "tp " + std::to_string(l.tp);
    if (l.pp > 1) s += ", pp " + std::to_string(l.pp);
    if (l.ep > 1) s += ", ep " + std::to_string(l.ep);
    if (l.dp > 1) s += ", dp " + std::to_string(l.dp);
    return s;
}

std::string tokens_text(double v) { return invalid_input::show(v); }

// ---- the frontier figure -------------------------------------------------------------------

/// The frontier as an SVG document (the tool writes it after the command: report::files).
std::string frontier_svg(const lp::sweep_result& s, const std::vector<Eigen::Index>& front,
                         const std::vector<Eigen::Index>& eligible, const std::string& title, const std::string& subtitle) {
    static constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                              "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    double most_x = 0.0, most_y = 0.0;
    for (Eigen::Index i : eligible) {
        most_x = std::max(most_x, s.tokens_per_s_per_user(i));
        most_y = std::max(most_y, s.output_tokens_per_s_per_gpu(i));
    }
    if (!(most_x > 0.0)) most_x = 1.0;
    if (!(most_y > 0.0)) most_y = 1.0;
    const double x_step = svg::nice_step(most_x, 8.0), y_step = svg::nice_step(most_y, 7.0);
    const double x_hi = svg::ceil_to(most_x * 1.02, x_step), y_hi = svg::ceil_to(most_y * 1.02, y_step);
    svg::document doc(960.0, 640.0, "Serving frontier");
    svg::plot p(doc, {.x = 96.0, .y = 78.0, .width = 830.0, .height = 470.0},
                svg::axis::linear(0.0, x_hi, svg::linear_ticks(0.0, x_hi, x_step, x_step < 1.0 ? 1 : 0)),
                svg::axis::linear(0.0, y_hi, svg::linear_ticks(0.0, y_hi, y_step, y_step < 1.0 ? 1 : 0, true)));
    p.axes("output tokens/s per user", "output tokens/s per GPU");
    doc.text(96.0, 30.0, title, {.size = 16.0, .bold = true});
    doc.text(96.0, 52.0, subtitle, {.size = 12.0, .color = "#444444"});
    // Every eligible point, thinned to at most 2,000, in grey; the frontier on top, coloured by GPU.
    const std::size_t stride = eligible.size() / 2000 + 1;
    const svg::shape_style grey{.fill = "#c8c8c8"};
    p.clipped([&] {
        for (std::size_t k = 0; k < eligible.size(); k += stride) {
            const Eigen::Index i = eligible[k];
            p.marker({s.tokens_per_s_per_user(i), s.output_tokens_per_s_per_gpu(i)}, svg::marker_kind::circle, 3.0, grey);
        }
    });
    std::vector<svg::point> line;
    for (Eigen::Index i : front) line.push_back({s.tokens_per_s_per_user(i), s.output_tokens_per_s_per_gpu(i)});
    p.line(line, {.stroke = "#222222", .stroke_width = 1.6});
    std::vector<std::string> gpus;
    std::vector<svg::legend_entry> legend;
    for (std::size_t k = 0; k < front.size(); ++k) {
        const lp::sweep_block& blk = s.blocks[s.block_of(front[k])];
        const std::string name(blk.d.hw.name);
        std::size_t colour = std::find(gpus.begin(), gpus.end(), name) - gpus.begin();
        if (colour == gpus.size()) {
            gpus.push_back(name);
            legend.push_back({.label = name, .has_marker = true,
                              .marker_style = {.fill = palette[colour % 10], .stroke = "#222222", .stroke_width = 0.6}});
        }
        const svg::shape_style dot{.fill = palette[colour % 10], .stroke = "#222222", .stroke_width = 0.6};
        p.marker(line[k], blk.how.disaggregated ? svg::marker_kind::diamond : svg::marker_kind::circle, 7.0, dot);
    }
    legend.push_back({.label = "other configurations", .has_marker = true, .marker_style = grey});
    if (s.grid.modes.size() > 1)
        legend.push_back({.label = "disaggregated", .has_marker = true, .marker = svg::marker_kind::diamond,
                          .marker_style = {.fill = "#ffffff", .stroke = "#222222", .stroke_width = 1.0}});
    p.legend(legend, svg::corner::top_right, 10.0, "on the frontier");
    doc.text(96.0, 612.0,
             "Up and to the right is better. Grey: every configuration that fits and meets the targets; the line joins "
             "those no other beats on both axes.",
             {.size = 11.5, .italic = true, .color = "#555555"});
    return doc.str();
}

}  // namespace

// ---- frontier ------------------------------------------------------------------------------

namespace {

/// A sweep's --gemm-table (`gemm_table_named`, as `build` reads it; none for "") and the --clock rule on each of its
/// GPUs (`achievable_fractions::require_clock`, as `at_engine_clock` applies it, naming --clock): the grid's deployments
/// the table does not fit (another GPU, format or TP degree) are left out by the sweep, not refused.
const gemm_table* sweep_gemm_table(const std::string& id, double clock_MHz, const std::vector<hardware>& gpus) {
    if (clock_MHz != 0.0)
        for (const hardware& h : gpus) h.gpu.efficiency.require_clock(h.name, "--clock", clock_MHz);
    return id.empty() ? nullptr : gemm_table_named(id);
}

/// The notes `estimate` prints for the run's launch settings (`launch_notes`: --gemm-table, --clock, --quick-reduce,
/// and the shared expert an engine runs whole on every EP rank), for the deployments a sweep's rows show: once per
/// command (one QuickReduce note naming every GPU and TP group n, one shared-expert note naming every tp and ep).
std::vector<std::string> rows_launch_notes(double clock_MHz, const std::vector<const deployment*>& rows) {
    deployment_options o;  // launch_notes reads the run's --clock from the options, the rest from the deployments
    o.clock_MHz = clock_MHz;
    return launch_notes(o, rows);
}

/// The short reason plan's left-out note gives for a refusal of QuickReduce's rule, by its id (the rule's own text where
/// the id is another's).
std::string quick_reduce_reason(const invalid_input& e) {
    if (e.id() == "llmcost.quick_reduce.engine") return "QuickReduce is priced under SGLang only";
    if (e.id() == "llmcost.quick_reduce.curve") return "no QuickReduce curve in the engine's profile (tables/engines.csv)";
    if (e.id() == "llmcost.quick_reduce.tp") return "QuickReduce runs on a TP group of 2, 4 or 8 ranks";
    return e.rule();
}

/// `plan` over every GPU (no --hardware) with --quick-reduce int4: the GPUs whose engine the library's rule refuses
/// (`with_quick_reduce`: another engine, a profile without the curve) are left out with their engines, and so are the
/// candidate layouts whose TP group it refuses (`require_quick_reduce_run`: TP 2, 4 or 8), a GPU with none left too.
/// Returns one note naming what was left out, grouped by the rule's id (one short reason each) and the engine; nothing
/// left: the rule's refusal (exit 1), a layout's where a GPU's engine passed and its layouts did not, else the first
/// GPU's. No GPU at all: nothing to say (`cheapest_fleet` refuses).
std::string keep_quick_reduce_runs(const model& m, lp::fleet_options& o, std::vector<engine_profile>& engines) {
    struct by_engine {
        std::string engine;
        std::vector<std::string> what;
    };
    struct by_id {
        std::string id, reason;
        std::vector<by_engine> engines;
    };
    std::vector<by_id> reasons;  // the rule's id, its short reason, what it left out under each engine
    std::optional<invalid_input> first, first_layout;  // nothing left: a GPU's layouts' refusal before another GPU's
    auto left_out = [&](const invalid_input& e, const std::string& engine, const std::string& what) {
        if (!first) first = e;
        auto at = std::find_if(reasons.begin(), reasons.end(), [&](const by_id& r) { return r.id == e.id(); });
        if (at == reasons.end()) at = reasons.insert(reasons.end(), {e.id(), quick_reduce_reason(e), {}});
        auto eng = std::find_if(at->engines.begin(), at->engines.end(),
                                [&](const by_engine& b) { return b.engine == engine; });
        if (eng == at->engines.end()) eng = at->engines.insert(at->engines.end(), {engine, {}});
        if (std::find(eng->what.begin(), eng->what.end(), what) == eng->what.end()) eng->what.push_back(what);
    };
    std::vector<hardware> gpus;
    std::vector<engine_profile> kept;
    for (std::size_t i = 0; i < o.gpus.size(); ++i) {
        const hardware& h = o.gpus[i];
        engine_profile e;  // the GPU's engine with the switch on (none named: the sweep's reference engine, refused)
        try {
            e = quick_reduce_engines(engines.empty() ? std::vector<engine_profile>{} : std::vector{engines[i]}, 1,
                                     "--quick-reduce")
                    .front();
        } catch (const invalid_input& x) {
            left_out(x, x.subject(), std::string(h.name));  // the rule's subject: the engine's name
            continue;
        }
        bool any = false;  // the layouts the fleet walks: its own, else `candidate_layouts` (as `cheapest_fleet`)
        for (const parallel_layout& l : o.layouts.empty() ? lp::candidate_layouts(m, h, o.max_instance_gpus) : o.layouts) {
            if (quick_reduce_inert_at(l.tp)) {  // planned without the switch (`sweep_grid::quick_reduce_tp_groups_only`)
                any = true;
                continue;
            }
            try {
                require_quick_reduce_run(e.kind, l.tp, e.name, "--quick-reduce");
                any = true;
            } catch (const invalid_input& x) {
                left_out(x, std::string(e.name), std::string(h.name) + " at tp " + std::to_string(l.tp));
                if (!first_layout) first_layout = x;
            }
        }
        if (!any) continue;
        gpus.push_back(h);
        kept.push_back(e);
    }
    if (!first && !first_layout) return {};  // no GPU walked: `cheapest_fleet`'s refusal
    if (gpus.empty()) throw first_layout ? *first_layout : *first;  // nothing the rule lets run: its refusal
    o.gpus = std::move(gpus);
    engines = std::move(kept);
    std::string note = "Left out by --quick-reduce int4's rule: ";
    for (std::size_t k = 0; k < reasons.size(); ++k) {
        if (k > 0) note += "; ";
        for (std::size_t b = 0; b < reasons[k].engines.size(); ++b) {
            const by_engine& g = reasons[k].engines[b];
            if (b > 0) note += ", ";
            for (std::size_t j = 0; j < g.what.size(); ++j) note += (j > 0 ? ", " : "") + g.what[j];
            note += " (" + g.engine + ")";
        }
        note += ": " + reasons[k].reason + (reasons[k].id.empty() ? "" : " [" + reasons[k].id + "]");
    }
    return note + ".";
}

}  // namespace

report frontier(const frontier_command& c) {
    const model m = model_named(c.model);
    for (double v : {c.input, c.output, c.ttft, c.tpot, c.max_batch, c.prefill_batch})
        check_positive(v, "--input, --output, --ttft, --tpot, --max-batch and --prefill-batch");
    const request_options lengths{.input = c.input, .output = c.output, .prefix_hit = c.prefix_hit,
                                  .input_dist = c.input_dist, .output_dist = c.output_dist, .dataset = c.dataset};
    check_context(m, longest_context(lengths), c.ignore_max_position);
    if (c.hardware.empty()) throw usage_error("--hardware: name at least one GPU");
    if (c.disaggregated && lengths.varies())
        throw usage_error("--input-dist/--output-dist/--dataset price colocated serving only: a disaggregated point's "
                          "prefill pool prices the mean prompt (drop --disagg)");
    lp::sweep_grid g{.m = m, .formats = formats_of(c.weights, c.kv, c.checkpoint),
                     .layouts = lp::expand({.tp = c.tp, .pp = c.pp, .ep = c.ep, .dp = {0}}),
                     .modes = {{}},
                     .shapes = {shape_of(lengths)},
                     .batches = lp::batch_ladder(c.max_batch), .ignore_max_position = c.ignore_max_position};
    for (const std::string& h : c.hardware) g.gpus.push_back(hardware_named(h, "--hardware", c.hardware_file));
    // every GPU named must run the engine: refused otherwise, naming the alternatives
    g.engines = engines_for(c.engine, c.kv_memory_fraction, c.kv_block_tokens, c.a2a_dispatch_cap, g.gpus, c.checkpoint);
    if (c.quick_reduce == "int4") g.engines = quick_reduce_engines(std::move(g.engines), g.gpus.size(), "--quick-reduce");
    g.projection_table = sweep_gemm_table(c.gemm_table, c.clock_MHz, g.gpus);
    g.clock_MHz = c.clock_MHz;
    const lp::frontier_options fo{.ttft_percentile = c.ttft_percentile, .tpot_percentile = c.tpot_percentile,
                                  .max_load = c.max_load};
    if (fo.online()) {
        if (c.disaggregated)
            throw usage_error("--ttft-percentile, --tpot-percentile and --max-load price colocated points only: drop --disagg");
        if (c.spec.on)
            throw usage_error("--ttft-percentile, --tpot-percentile and --max-load price plain decode steps: drop --spec");
        if (lengths.varies())
            throw usage_error("--ttft-percentile, --tpot-percentile and --max-load are priced for equal requests: "
                              "drop --input-dist/--output-dist/--dataset (or run simulate)");
    }
    if (c.spec.on) g.speculation = head_speculation(c.spec, m);
    if (c.disaggregated) g.modes.push_back({.disaggregated = true, .prefill_batch = c.prefill_batch});
    if (g.batches.empty()) g.batches = {1};
    const slo target{.ttft = seconds(c.ttft), .tpot = seconds(c.tpot)};
    g.validate();  // the grid's size is bounded up front (sweep_grid::max_points)
    // About a microsecond a point: past a second's worth, say what is being done before doing it.
    if (c.progress != nullptr && g.size() > 1'000'000)
        *c.progress << "llmcost frontier: pricing " << text::grouped(static_cast<double>(g.size()))
                    << " configurations (at most " << text::grouped(lp::sweep_grid::max_points) << ")...\n"
                    << std::flush;
    const lp::sweep_result s = lp::sweep(g);
    lp::require_priceable(s);  // nothing priced at all (every layout breaks a rule): the library's refusal, exit 1
    const std::vector<Eigen::Index> eligible = lp::eligible(s, target, fo);
    const std::vector<Eigen::Index> front = lp::frontier_among(s, eligible);
    std::size_t fitting = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i)
        if (s.fits(i)) ++fitting;
    const std::string shape =
        lengths.varies() ? lengths_text(lengths) : tokens_text(c.input) + " -> " + tokens_text(c.output) + " tokens";
    auto which = [](double q) { return q > 0 ? " p" + invalid_input::show(q * 100.0) : std::string(); };
    std::string limits = "TTFT" + which(c.ttft_percentile) + " <= " + to_text(target.ttft) + ", TPOT" +
                         which(c.tpot_percentile) + " <= " + to_text(target.tpot);
    if (c.max_load < 1.0) limits += ", load <= " + invalid_input::show(c.max_load);
    report r{.title = "llmcost frontier: " + std::string(m.name) + ", " + shape + ", " + limits,
             .layout = report::shape::array};
    for (Eigen::Index i : front) {
        const lp::sweep_point p = s.point(i);
        const deployment& d = p.block->d;
        const bool dis = p.block->how.disaggregated;
        record rec;
        rec.add("hardware", "GPU", std::string(d.hw.name));
        add_weights(rec, d.m, "weights");
        rec.add("kv", "KV", std::string(d.m.kv_cache.name))
            .add("layout", "layout", layout_text(d))
            .add("instance_gpus", "GPUs", static_cast<double>(d.instance_gpus()))
            .add("mode", "mode", std::string(dis ? "disaggregated" : "colocated"))
            .add("batch", "batch", p.batch);
        if (fo.online()) {
            // The point online: the percentiles (or means) its targets bound, at the rate that keeps its batch.
            const std::optional<lp::online_point> o = lp::online_at(s, i, c.ttft_percentile, c.tpot_percentile);
            rec.add("rate_per_rank", "req/s per rank", o->rate_per_rank, "request/s")
                .add("load", "load", o->load)
                .add("ttft_s", "TTFT" + which(c.ttft_percentile), o->ttft.value(), "s")
                .add("tpot_s", "TPOT" + which(c.tpot_percentile), o->tpot.value(), "s");
        } else {
            rec.add("ttft_s", "TTFT", p.ttft.value(), "s").add("tpot_s", "TPOT", p.tpot.value(), "s");
        }
        rec.add("tokens_per_s_per_user", "per user", p.per_user.value(), "token/s")
            .add("output_tokens_per_s_per_gpu", "per GPU", p.output_rate_per_gpu.value(), "token/s")
            .add_or("prefill_per_decode", "P:D", dis, p.prefill_per_decode, "", "-");
        r.records.push_back(std::move(rec));
    }
    r.notes.push_back(std::to_string(s.size()) + " configurations in the grid; " + std::to_string(fitting) +
                      " fit (weights and KV cache in HBM, context within the model's), " + std::to_string(eligible.size()) +
                      " meet the targets, " + std::to_string(front.size()) +
                      " are on the frontier (no other is faster both per user and per GPU).");
    r.notes.push_back("Batch: concurrent sequences per replica (per attention rank with expert parallelism)" +
                      std::string(c.disaggregated ? "; disaggregated: per decode instance, " +
                                                        invalid_input::show(c.prefill_batch) + " prompts per prefill pass."
                                                  : "."));
    if (c.prefix_hit > 0) {
        std::string note = "Prefix cache: ";
        note += invalid_input::show(100 * c.prefix_hit);
        note += " % of each prompt found cached (S6): each prompt computes only the rest after the cached prefix, in "
                "TTFT, in the steps' prompt chunks and in the batch's token budget; the KV cache still holds the whole prompt.";
        if (c.disaggregated) note += " Disaggregated: the prefill pool prefills the rest and sends the whole prompt's KV.";
        r.notes.push_back(std::move(note));
    }
    if (c.spec.on) {
        std::string note = speculation_note(c.spec);
        if (c.disaggregated) {
            note.pop_back();
            note += "; disaggregated: in the decode pool's steps (TTFT carries the first).";
        }
        r.notes.push_back(std::move(note));
    }
    if (fo.online())
        r.notes.push_back("Online: each point served under Poisson arrivals at the rate that keeps its batch in flight "
                          "(Little's law on its steady state, b / E2E per rank); TTFT, TPOT and load there "
                          "(serve_online_latency; load = rate / the saturated request rate). Percentiles: TTFT within "
                          "5% of the simulator at p90 to 85% load, TPOT within 7.5% to 85% "
                          "(tables/percentiles.md). Per user and per GPU stay the steady state's.");
    std::map<std::string, std::string> problems;  // deployments that could not be priced, once each
    for (const lp::sweep_block& b : s.blocks)
        if (b.status == lp::point_status::invalid_deployment || b.status == lp::point_status::weights_do_not_fit)
            problems.emplace(std::string(b.d.hw.name) + " " + layout_text(b.d) + " " + weights_text(b.d.m),
                             b.problem);
    std::size_t shown = 0;
    for (const auto& [what, why] : problems)
        if (shown++ < 3) r.notes.push_back("Left out: " + what + ": " + why + ".");
    if (problems.size() > 3)
        r.notes.push_back("... and " + std::to_string(problems.size() - 3) + " more GPU, layout and format combinations.");
    if (c.kv_memory_fraction > 0 && !g.engines.empty()) r.notes.push_back(kv_memory_fraction_note(g.engines.front()));
    for (std::string& n : checkpoint_notes(c.checkpoint, g.engines)) r.notes.push_back(std::move(n));
    {
        std::vector<const deployment*> rows;
        for (Eigen::Index i : front) rows.push_back(&s.point(i).block->d);
        for (std::string& n : rows_launch_notes(c.clock_MHz, rows)) r.notes.push_back(std::move(n));
    }
    if (front.empty()) r.notes.push_back("No configuration fits and meets the targets.");
    if (!c.svg.empty()) {
        output_file f{.path = c.svg,
                      .contents = frontier_svg(s, front, eligible, "The serving frontier: " + std::string(m.name),
                                               shape + "; " + limits),
                      .note_when_written = "The frontier is drawn in " + c.svg + "."};
        if (const auto input = model_file(c.model)) f.inputs.push_back(*input);
        r.files.push_back(std::move(f));
    }
    return r;
}

// ---- plan ----------------------------------------------------------------------------------

report plan(const plan_command& c) {
    const model m = model_named(c.model);
    for (double v : {c.rate, c.ttft, c.tpot, c.input, c.output}) check_positive(v, "--rate, --ttft, --tpot, --input and --output");
    lp::traffic t{.requests_per_second = per_second(c.rate), .target = {.ttft = seconds(c.ttft), .tpot = seconds(c.tpot)},
                  .ttft_percentile = c.ttft_percentile, .tpot_percentile = c.tpot_percentile};
    const request_options lengths{.input = c.input, .output = c.output, .prefix_hit = c.prefix_hit,
                                  .input_dist = c.input_dist, .output_dist = c.output_dist, .dataset = c.dataset};
    std::vector<double> longest;  // per class: the longest request its lengths draw
    if (c.mix.empty()) {
        t.mix.push_back({.shape = shape_of(lengths)});
        longest.push_back(longest_context(lengths));
    } else {
        std::size_t at = 0;
        while (at <= c.mix.size()) {
            const std::size_t end = std::min(c.mix.find(',', at), c.mix.size());
            const std::string item = c.mix.substr(at, end - at);
            // Three decimal numbers (numbers.hpp): whole token counts and a positive share; or a
            // dataset's name and a share.
            double in = 0, out = 0, share = 0;
            const std::size_t c1 = item.find(':'), c2 = c1 == std::string::npos ? c1 : item.find(':', c1 + 1);
            if (c1 != std::string::npos && c2 == std::string::npos && catalog::find_dataset(item.substr(0, c1)) != nullptr) {
                if (!read_real(item.substr(c1 + 1), 0, 1e12, true, share).empty())
                    throw usage_error("--mix '" + item + "': expected NAME:SHARE, a dataset and a positive share (e.g. sharegpt4:3)");
                const request_options set{.prefix_hit = c.prefix_hit, .input_dist = {}, .output_dist = {}, .dataset = item.substr(0, c1)};
                t.mix.push_back({.share = share, .shape = shape_of(set)});
                longest.push_back(longest_context(set));
                at = end + 1;
                continue;
            }
            const bool parsed =
                c2 != std::string::npos && read_count(item.substr(0, c1), 1, 1e15, in).empty() &&
                read_count(item.substr(c1 + 1, c2 - c1 - 1), 1, 1e15, out).empty() &&
                read_real(item.substr(c2 + 1), 0, 1e12, true, share).empty();
            if (!parsed)
                throw usage_error("--mix '" + item +
                                  "': expected INPUT:OUTPUT:SHARE, whole token counts and a positive share (e.g. 2000:500:3), "
                                  "or NAME:SHARE of a dataset (" + catalog::dataset_names() + ")");
            t.mix.push_back({.share = share, .shape = {.input = tokens(in), .output = tokens(out)}});
            longest.push_back(in + out);
            at = end + 1;
        }
    }
    for (lp::traffic_class& k : t.mix) k.shape.cached_fraction = c.prefix_hit;  // every shape alike (S6)
    for (double context : longest) check_context(m, context, c.ignore_max_position);
    const bool varies = std::any_of(t.mix.begin(), t.mix.end(), [](const lp::traffic_class& k) { return k.shape.spread(); });
    if (varies && t.percentiles())
        throw usage_error("--ttft-percentile/--tpot-percentile are priced for equal requests: lengths that vary "
                          "(--input-dist, --output-dist, --dataset, a dataset in --mix) plan with mean targets");

    lp::fleet_options o{.formats = formats_of(c.weights, c.kv, c.checkpoint), .max_instance_gpus = c.max_instance_gpus,
                       .max_gpus = c.max_gpus, .site = catalog::seed_site, .utilisation = c.utilisation,
                       .max_load = c.max_load, .gpu_cost = dollars_per_hour(c.usd_per_gpu_hour),
                       .pricing = pricing_named(c.pricing)};
    // A disaggregated fleet's prefill pool prices the prefix hit, its decode pool the speculation.
    if (c.colocated_only || varies) o.prefill_batches.clear();  // varying prompts: colocated only
    if (c.spec.on) {
        if (c.ttft_percentile > 0 || c.tpot_percentile > 0)
            throw usage_error("--spec plans with mean targets: the percentiles' model (--ttft-percentile, "
                              "--tpot-percentile) has no speculative steps");
        o.speculation = head_speculation(c.spec, m);
    }
    if (c.hardware.empty()) {
        for (const hardware& h : hardware_choices(c.hardware_file))
            if (h.status != "seed") o.gpus.push_back(h);
    } else {
        for (const std::string& h : c.hardware) o.gpus.push_back(hardware_named(h, "--hardware", c.hardware_file));
    }
    std::vector<std::string> engine_skipped;
    if (!c.engine.empty()) {
        if (c.hardware.empty()) {  // every GPU: keep those the engine runs on, and say which were left out
            std::vector<hardware> kept;
            for (const hardware& h : o.gpus) {
                const std::optional<gpu_architecture> a = catalog::architecture_of(h.name);
                const std::optional<engine_kind> k = engine_named(c.engine);
                if (a && k && catalog::find_engine(*k, *a)) kept.push_back(h);
                else engine_skipped.push_back(std::string(h.name));
            }
            o.gpus = kept;
        }
    }
    std::vector<engine_profile> engines =
        engines_for(c.engine, c.kv_memory_fraction, c.kv_block_tokens, c.a2a_dispatch_cap, o.gpus, c.checkpoint);
    std::string quick_reduce_left_out;  // every GPU walked: those the rule refuses left out, not refused
    if (c.hardware.empty() && c.quick_reduce == "int4") quick_reduce_left_out = keep_quick_reduce_runs(m, o, engines);
    o.engines = c.quick_reduce == "int4" ? quick_reduce_engines(std::move(engines), o.gpus.size(), "--quick-reduce")
                                         : std::move(engines);
    o.projection_table = sweep_gemm_table(c.gemm_table, c.clock_MHz, o.gpus);
    o.clock_MHz = c.clock_MHz;
    std::vector<std::string> price_names;  // keeps the names the gpu_price views point to
    price_names.reserve(c.prices.size());
    for (const std::string& p : c.prices) {
        const std::size_t eq = p.find('=');
        double usd = 0;
        if (eq == std::string::npos || !read_real(std::string_view(p).substr(eq + 1), 1e-9, 1e12, false, usd).empty())
            throw usage_error("--price '" + p + "': expected GPU=USD_PER_GPU_HOUR (e.g. B200=4.5)");
        price_names.push_back(std::string(hardware_named(p.substr(0, eq), "--price", c.hardware_file).name));
        o.prices.push_back({.hardware = price_names.back(), .per_gpu = dollars_per_hour(usd)});
    }
    // The search grows with GPU types × formats × layouts × serving modes: stated before it starts.
    double deployments = 0;
    for (const hardware& h : o.gpus)
        deployments += static_cast<double>(lp::candidate_layouts(m, h, o.max_instance_gpus).size());
    deployments *= static_cast<double>(o.formats.size()) * static_cast<double>(1 + o.prefill_batches.size());
    if (deployments > 100'000)
        throw usage_error("plan: " + text::grouped(deployments) +
                          " deployments to search (GPU types x formats x layouts x modes): more than 100,000; "
                          "name fewer --hardware or --weights, or a smaller --max-instance-gpus");
    if (c.progress != nullptr && deployments > 1'000)
        *c.progress << "llmcost plan: searching " << text::grouped(deployments)
                    << " deployments (GPU types x formats x layouts x modes)...\n"
                    << std::flush;
    const lp::fleet_result res = lp::cheapest_fleet(m, t, o);

    std::string shapes;
    for (const lp::traffic_class& k : t.mix) {
        shapes += (shapes.empty() ? "" : ", ") + tokens_text(k.shape.input.value());
        if (k.shape.input_spread.value() > 0) shapes += " +/- " + tokens_text(k.shape.input_spread.value());
        shapes += " -> " + tokens_text(k.shape.output.value());
        if (k.shape.output_spread.value() > 0) shapes += " +/- " + tokens_text(k.shape.output_spread.value());
        if (t.mix.size() > 1) shapes += " (x" + invalid_input::show(k.share) + ")";
    }
    auto which = [](double q) { return q > 0 ? " p" + invalid_input::show(q * 100.0) : std::string(); };
    report r{.title = "llmcost plan: " + std::string(m.name) + ", " + invalid_input::show(c.rate) + " requests/s of " +
                      shapes + ", TTFT" + which(t.ttft_percentile) + " <= " + to_text(t.target.ttft) + ", TPOT" +
                      which(t.tpot_percentile) + " <= " + to_text(t.target.tpot),
             .layout = report::shape::array};
    for (const lp::deployment_plan& p : res.options) {
        const bool dis = p.how.disaggregated;
        record rec;
        rec.add("hardware", "GPU", std::string(p.d.hw.name));
        add_weights(rec, p.d.m, "weights");
        rec.add("kv", "KV", std::string(p.d.m.kv_cache.name))
            .add("layout", "layout", layout_text(p.d))
            .add("mode", "mode", std::string(dis ? "disaggregated" : "colocated"))
            .add("gpus", "GPUs", p.gpus)
            .add("instances", "instances", dis ? p.prefill_instances + p.decode_instances : p.instances)
            .add_or("prefill_instances", "P", dis, p.prefill_instances, "", "-")
            .add_or("decode_instances", "D", dis, p.decode_instances, "", "-")
            .add_or("prefill_per_decode", "P:D balanced", dis, p.prefill_per_decode, "", "-")
            .add("batch", "batch limit", p.batch)
            .add_or("prefill_batch", "prefill batch", dis, p.how.prefill_batch, "", "-")
            .add("ttft_s", "TTFT" + which(t.ttft_percentile), p.ttft.value(), "s")
            .add("tpot_s", "TPOT" + which(t.tpot_percentile), p.tpot.value(), "s")
            .add("load", "load at peak", p.load)
            .add("usd_per_gpu_hour", "$/GPU-hour", p.gpu_cost.value() * 3600.0, "USD/h")
            .add("pricing", "priced on", std::string(p.price.given ? "given" : to_string(p.price.basis)))
            .add("usd_per_hour", "$/hour", p.fleet_cost.value() * 3600.0, "USD/h")
            .add("usd_per_million_output_tokens", "$/M output", p.cost_per_output_token.value() * 1e6, "USD/Mtoken")
            .add("usd_per_million_tokens", "$/M tokens", p.cost_per_token.value() * 1e6, "USD/Mtoken")
            .add("gpu_power_W", "GPU power", p.gpu_power.value(), "W")
            .add("wall_power_W", "wall power", p.wall_power.value(), "W");
        r.records.push_back(std::move(rec));
    }
    if (res.best) {
        const lp::deployment_plan& b = *res.best;
        std::string what = "Cheapest: " + invalid_input::show(b.gpus) + " x " + std::string(b.d.hw.name) + " (" +
                           layout_text(b.d) + ", " + weights_text(b.d.m) + " weights), ";
        if (b.how.disaggregated)
            what += "disaggregated " + invalid_input::show(b.prefill_instances) + "P:" +
                    invalid_input::show(b.decode_instances) + "D";
        else
            what += "colocated, " + invalid_input::show(b.instances) + " instances";
        what += ", batch limit " + invalid_input::show(b.batch) + ".";
        r.notes.push_back(what);
    } else {
        r.notes.push_back("No GPU type, layout and batch meets the targets within the limits.");
    }
    for (const std::string& why : res.skipped) r.notes.push_back("Left out: " + why + ".");
    if (c.kv_memory_fraction > 0 && !o.engines.empty()) r.notes.push_back(kv_memory_fraction_note(o.engines.front()));
    for (std::string& n : checkpoint_notes(c.checkpoint, o.engines)) r.notes.push_back(std::move(n));
    if (t.percentiles())
        r.notes.push_back("Percentile targets: each instance gets rate / instances as Poisson arrivals; the fleet has at "
                          "least the fewest instances whose TTFT/TPOT percentiles (serve_online_latency, each shape "
                          "alone) meet them, the figures shown there. Disaggregated: the fewest decode instances whose "
                          "TPOT (the decode step at the Little's-law count, its Poisson spread) meets its target, then "
                          "the fewest prefill instances whose TTFT (each a bulk-service queue of prefill passes, + the "
                          "KV transfer + one decode step) meets its own.");
    if (c.max_load < 1.0)
        r.notes.push_back("Load ceiling " + invalid_input::show(c.max_load) + ": the fleet is sized at rate / " +
                          invalid_input::show(c.max_load) + ".");
    if (!quick_reduce_left_out.empty()) r.notes.push_back(quick_reduce_left_out);
    // Said only where a row shown has a tp-1 layout (every walk has one: `candidate_layouts` starts at tp 1).
    if (c.quick_reduce == "int4" && std::any_of(res.options.begin(), res.options.end(), [](const lp::deployment_plan& p) {
            return quick_reduce_inert_at(p.d.layout.tp);
        }))
        r.notes.push_back("--quick-reduce int4 switches the TP all-reduce: llmcost prices no TP all-reduce in a tp-1 "
                          "layout (one GPU, PP stages or attention-DP ranks), so the switch moves nothing there; they "
                          "are planned without it, not left out.");
    {
        std::vector<const deployment*> rows;
        for (const lp::deployment_plan& p : res.options) rows.push_back(&p.d);
        for (std::string& n : rows_launch_notes(c.clock_MHz, rows)) r.notes.push_back(std::move(n));
    }
    for (const std::string& name : engine_skipped) {
        std::string note = "Left out: ";
        note += name;
        note += " (--engine ";
        note += c.engine;
        note += " has no profile for it).";
        r.notes.push_back(note);
    }
    std::vector<std::string_view> priced;  // one note per GPU type shown: what its GPU-hour rests on
    for (const lp::deployment_plan& p : res.options) {
        if (std::find(priced.begin(), priced.end(), p.d.hw.name) != priced.end()) continue;
        priced.push_back(p.d.hw.name);
        r.notes.push_back(std::string(p.d.hw.name) + " GPU-hour: " + basis_text(p.price, p.d.hw, o.site) + ".");
    }
    const auto fell_back = [](const lp::deployment_plan& p) { return p.price.fell_back(); };
    if (std::any_of(res.options.begin(), res.options.end(), fell_back) &&
        !std::all_of(res.options.begin(), res.options.end(), fell_back))
        r.notes.push_back("The GPU types are priced on different bases (a capex + power fallback is far below a market "
                          "price): give their prices with --price NAME=USD_PER_GPU_HOUR, or --pricing tco, to compare like with like.");
    if (c.prefix_hit > 0) {
        std::string note = "Prefix cache: ";
        note += invalid_input::show(100 * c.prefix_hit);
        note += " % of every prompt found cached (S6), only the rest prefilled (disaggregated: by the prefill pool, "
                "which sends the whole prompt's KV).";
        r.notes.push_back(std::move(note));
    }
    if (varies)
        r.notes.push_back("Lengths that vary (mean +/- sd): each class's live batch is length-biased, decoding at "
                          "E[I] + E[O^2]/2E[O] and holding KV for E[I] + E[O^2]/E[O], its prompts' attention E[f(I)]; "
                          "colocated serving only (a disaggregated prefill pool prices the mean prompt, so it was left out).");
    if (c.spec.on) {
        std::string note = speculation_note(c.spec);
        note.pop_back();
        note += "; disaggregated: in the decode pool's steps.";
        r.notes.push_back(std::move(note));
    }
    r.notes.push_back("Each row: the cheapest plan of one GPU type and mode; " + std::to_string(res.points) +
                      " configurations priced. Fleet sized for the peak rate in whole instances; "
                      "power at board power (busy); $ per GPU-hour as each GPU type's note says.");
    return r;
}

}  // namespace llmcost::cli
