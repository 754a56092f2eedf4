// `llmcost simulate`: the options in, the simulator's figures out. Every figure comes from the
// library (sim::simulate, the trace loader, the workload descriptors); this file only names them.
#include "simulate_command.hpp"

#include <llmcost/catalog/datasets.hpp>
#include <llmcost/io/lengths.hpp>
#include <llmcost/io/trace_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/sim/simulate.hpp>

#include "../tools/figures/svg.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::cli {

namespace {

/// A figure's spread as one group: JSON {"ttft_s": {"mean", "p50", "p90", "p99"}}, CSV "ttft_s.p90".
void add_percentiles(record& r, const std::string& key, const std::string& label, const sim::percentiles& p) {
    r.add_in(key, "mean", label + ", mean", p.mean, "s")
        .add_in(key, "p50", label + ", median", p.p50, "s")
        .add_in(key, "p90", label + ", 90th percentile", p.p90, "s")
        .add_in(key, "p99", label + ", 99th percentile", p.p99, "s");
}

/// The run as an SVG document: TTFT and TPOT CDFs above, running sequences and KV share over time
/// below (the first server's, as sampled by sim::options::timeline_points).
std::string simulation_svg(const sim::result& r, const std::string& title, bool disaggregated) {
    namespace svg = llmcost::figures::svg;
    svg::document doc(1000.0, 770.0, "llmcost simulate");
    // The title on two lines: the deployment, then the workload.
    const std::size_t cut = title.find(", ");
    doc.text(70.0, 26.0, title.substr(0, cut), {.size = 14.0, .bold = true});
    if (cut != std::string::npos) doc.text(70.0, 46.0, title.substr(cut + 2), {.size = 12.0, .color = "#444444"});
    // A CDF in milliseconds (seconds past 2 s), thinned to at most 800 points, its p50, p90 and
    // p99 marked.
    auto cdf_panel = [&](svg::frame f, std::vector<double> xs, sim::percentiles p, const char* what,
                         const char* colour) {
        const bool in_s = !xs.empty() && *std::max_element(xs.begin(), xs.end()) > 2.0;
        const double scale = in_s ? 1.0 : 1e3;
        for (double& x : xs) x *= scale;
        std::sort(xs.begin(), xs.end());
        const double most = xs.empty() || !(xs.back() > 0) ? 1.0 : xs.back();
        const double step = svg::nice_step(most, 6.0);
        const double hi = svg::ceil_to(most * 1.02, step);
        svg::plot pl(doc, f, svg::axis::linear(0.0, hi, svg::linear_ticks(0.0, hi, step, step < 1.0 ? (step < 0.1 ? 2 : 1) : 0)),
                     svg::axis::linear(0.0, 1.0, svg::linear_ticks(0.0, 1.0, 0.2, 1)));
        std::string x_title = what;
        x_title += in_s ? " (s)" : " (ms)";
        std::string panel_title = what;
        panel_title += ": share of requests at or below";
        pl.axes(x_title, "cumulative share", panel_title);
        std::vector<svg::point> line;
        const std::size_t stride = xs.size() / 800 + 1;
        for (std::size_t i = 0; i < xs.size(); i += stride)
            line.push_back({xs[i], static_cast<double>(i + 1) / static_cast<double>(xs.size())});
        if (!xs.empty()) line.push_back({xs.back(), 1.0});
        pl.line(line, {.stroke = colour, .stroke_width = 2.0});
        // Labels stacked at the right of their line, so close percentiles do not overprint.
        const std::array<std::pair<double, const char*>, 3> marks{{{p.p50, "p50"}, {p.p90, "p90"}, {p.p99, "p99"}}};
        double label_y = 0.30;
        for (const auto& [v, name] : marks) {
            pl.vline(v * scale, {.stroke = "#888888", .stroke_width = 1.0, .dash = "4 3"});
            std::string label = name;
            label += ' ';
            label += text::number(v * scale, 4);
            pl.label({v * scale, label_y}, 4.0, 0.0, label, {.size = 10.5, .color = "#444444"});
            label_y -= 0.1;
        }
    };
    std::vector<double> ttft, tpot;
    for (const sim::request_result& q : r.requests) {
        ttft.push_back(q.ttft);
        if (q.output > 1.0) tpot.push_back(q.tpot);
    }
    cdf_panel({.x = 70.0, .y = 90.0, .width = 400.0, .height = 250.0}, ttft, r.ttft, "TTFT", "#1f77b4");
    cdf_panel({.x = 570.0, .y = 90.0, .width = 400.0, .height = 250.0}, tpot, r.tpot, "TPOT", "#d62728");
    const std::string server = disaggregated ? "first decode server" : "first server";
    std::string batch_title = "Batch over time (", kv_title = "KV occupancy over time (";  // appended: GCC bug 105329
    batch_title += server;
    batch_title += ')';
    kv_title += server;
    kv_title += ')';
    // Occupancy over time: running sequences, and the share of the KV budget in use.
    const double t0 = r.timeline.empty() ? 0.0 : r.timeline.front().time;
    double t_end = 1.0, most_batch = 1.0;
    for (const sim::occupancy_sample& s : r.timeline) {
        t_end = std::max(t_end, s.time - t0);
        most_batch = std::max(most_batch, s.batch);
    }
    const double t_step = svg::nice_step(t_end, 8.0), t_hi = svg::ceil_to(t_end, t_step);
    const double b_step = svg::nice_step(most_batch, 5.0), b_hi = svg::ceil_to(most_batch * 1.05, b_step);
    const int t_decimals = t_step < 1.0 ? 1 : 0;
    svg::plot batch(doc, {.x = 70.0, .y = 430.0, .width = 400.0, .height = 250.0},
                    svg::axis::linear(0.0, t_hi, svg::linear_ticks(0.0, t_hi, t_step, t_decimals)),
                    svg::axis::linear(0.0, b_hi, svg::linear_ticks(0.0, b_hi, b_step, b_step < 1.0 ? 1 : 0)));
    batch.axes("time since the first step (s)", "sequences in the step", batch_title);
    svg::plot kv(doc, {.x = 570.0, .y = 430.0, .width = 400.0, .height = 250.0},
                 svg::axis::linear(0.0, t_hi, svg::linear_ticks(0.0, t_hi, t_step, t_decimals)),
                 svg::axis::linear(0.0, 1.0, svg::linear_ticks(0.0, 1.0, 0.2, 1)));
    kv.axes("time since the first step (s)", "share of the KV budget", kv_title);
    std::vector<svg::point> b_line, kv_line;
    for (const sim::occupancy_sample& s : r.timeline) {
        b_line.push_back({s.time - t0, s.batch});
        kv_line.push_back({s.time - t0, s.kv});
    }
    batch.line(b_line, {.stroke = "#2ca02c", .stroke_width = 1.4});
    kv.line(kv_line, {.stroke = "#9467bd", .stroke_width = 1.4});
    std::string foot = "Dashed: the 50th, 90th and 99th percentiles. Occupancy: ";
    foot += text::number(static_cast<double>(r.timeline.size()), 4);
    foot += " samples of the ";
    foot += server;
    foot += "'s steps.";
    doc.text(70.0, 745.0, foot, {.size = 11.5, .italic = true, .color = "#555555"});
    return doc.str();
}

}  // namespace

report simulate(const simulate_command& c, std::ostream& progress) {
    const deployment d = build(c.dep);
    const bool from_trace = !c.trace.empty();
    if (!from_trace && c.rate == 0 && c.concurrency == 0)
        throw usage_error("simulate needs --rate R (open arrivals), --concurrency N (closed loop) or --trace FILE.csv");
    if (c.arrivals == "gamma" && c.rate == 0)
        throw usage_error("--arrivals gamma needs --rate");
    if (c.prefix_cache && !from_trace) throw usage_error("--prefix-cache needs --trace (its prefix_id column)");
    if (c.shared_prefix > 0 && !c.prefix_cache) throw usage_error("--shared-prefix needs --prefix-cache");
    const bool drawn = !c.svg.empty();
    scheduler_limits limits{.max_batch = c.max_batch, .max_tokens_per_step = c.max_tokens,
                            .reserve_full_sequence = !c.optimistic, .prefill_chunk = tokens(c.prefill_chunk)};
    if (!c.dep.engine.empty()) limits = with_engine_defaults(limits, d.engine);  // as `estimate --engine`
    if (c.preemption == "swap" && limits.reserve_full_sequence)  // vLLM and SGLang admit on the KV in use (admits_on_kv_in_use)
        throw usage_error("--preemption swap needs --optimistic (a full-sequence reserve never preempts)");
    if (c.preemption == "swap" && !c.dep.engine.empty())  // the engine's own preemption (sim::swap_refusal)
        if (const std::string_view why = sim::swap_refusal(d.engine.kind, c.prefill_servers > 0); !why.empty())
            throw usage_error("--preemption swap with --engine " + c.dep.engine + ": " + std::string(why) +
                              "; use --preemption recompute");
    const sim::options o{.limits = limits,
                         .requests = c.requests,
                         .seed = static_cast<std::uint64_t>(c.seed),
                         .keep_requests = c.ttft_target > 0 || c.tpot_target > 0 || drawn,
                         .timeline_points = drawn ? 600.0 : 0.0,
                         .preempt = c.preemption == "swap" ? sim::preemption::swap : sim::preemption::recompute,
                         .prefix_hit_rate = c.prefix_hit_rate,
                         .trace_prefixes = c.prefix_cache,
                         .shared_prefix_tokens = c.shared_prefix,
                         .prefill_servers = c.prefill_servers,
                         .transfer_path = c.kv_path == "scale-up" ? kv_path::scale_up : kv_path::scale_out,
                         .ignore_max_position = c.dep.ignore_max_position};
    const auto start = std::chrono::steady_clock::now();
    sim::result r;
    std::string workload_text;
    if (from_trace) {
        const std::vector<workload::request> trace = io::load_trace_csv(c.trace);
        r = sim::simulate_naming_lift(d, trace, o, "--ignore-max-position");
        workload_text = "trace " + std::filesystem::path(c.trace).filename().string() + " (" + invalid_input::show(static_cast<double>(trace.size())) + " requests)";
    } else {
        workload::traffic t{};
        if (!c.dataset.empty()) {
            t = dataset_named(c.dataset).traffic_with({});
        } else {
            t.input = io::parse_length(c.input_dist, "--input-dist");
            t.output = io::parse_length(c.output_dist, "--output-dist");
        }
        if (c.concurrency > 0) t.arrivals = workload::closed_loop(c.concurrency);
        else if (c.arrivals == "gamma") t.arrivals = workload::gamma(seconds(1.0 / c.rate), c.cv);
        else t.arrivals = workload::poisson(seconds(1.0 / c.rate));
        r = sim::simulate_naming_lift(d, t, o, "--ignore-max-position");
        std::string lengths = c.dataset.empty() ? "input " : "lengths of the ";
        lengths += c.dataset.empty() ? c.input_dist : c.dataset;
        lengths += c.dataset.empty() ? ", output " : " dataset";
        if (c.dataset.empty()) lengths += c.output_dist;
        workload_text = invalid_input::show(c.requests) + " requests, " + lengths +
                        (c.concurrency > 0 ? ", " + invalid_input::show(c.concurrency) + " clients in a closed loop"
                                           : ", " + c.arrivals + " arrivals at " + invalid_input::show(c.rate) + "/s");
    }
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (took > 1.0)
        progress << "llmcost: simulated " << invalid_input::show(r.completed) << " requests (" << invalid_input::show(r.steps)
                 << " steps) in " << invalid_input::show(took) << " s\n";

    report out{.title = "llmcost simulate: " + std::string(d.m.name) + " on " + std::to_string(d.layout.gpus()) + " × " +
                        std::string(d.hw.name) + ", " + workload_text};
    record rec;
    rec.add("model", "model", std::string(d.m.name)).add("hardware", "hardware", std::string(d.hw.name))
        .add("gpus", "GPUs", static_cast<double>(d.layout.gpus()))
        .add("requests", "requests answered", r.completed);
    add_percentiles(rec, "ttft_s", "time to first token", r.ttft);
    add_percentiles(rec, "tpot_s", "time per output token (per request)", r.tpot);
    add_percentiles(rec, "itl_s", "inter-token latency (per token)", r.itl);
    add_percentiles(rec, "e2e_s", "end to end", r.e2e);
    add_percentiles(rec, "queue_s", "queueing delay", r.queue);
    rec.add("output_tokens_per_s", "output tokens/s, whole deployment", r.output_tokens_per_s, "token/s")
        .add("output_tokens_per_s_per_gpu", "output tokens/s per GPU", r.output_tokens_per_s / d.layout.gpus(), "token/s")
        .add("requests_per_s", "requests answered per second", r.requests_per_s)
        .add("utilisation", "share of time the engine runs steps", r.utilisation)
        .add("mean_batch", "running sequences per engine (busy time)", r.mean_batch)
        .add("mean_kv_share", "share of the KV budget in use (busy time)", r.mean_kv)
        .add("preemptions", c.preemption == "swap" ? "preemptions (swapped)" : "preemptions (recomputed)", r.preemptions)
        .add("steps", "engine steps", r.steps)
        .add("makespan_s", "first arrival to last token", r.makespan, "s");
    // The features' own figures, only when they are on (the plain run's output stays as it was).
    if (c.preemption == "swap") rec.add("swap_s", "engine time swapping KV to host and back", r.swap_s, "s");
    if (c.prefix_hit_rate > 0 || c.prefix_cache)
        rec.add("cached_prompt_share", "share of prompt tokens found in the prefix cache",
                r.prompt_tokens > 0 ? r.cached_prompt_tokens / r.prompt_tokens : 0.0);
    if (c.prefill_servers > 0)
        rec.add("prefill_servers", "servers that only prefill", c.prefill_servers)
            .add("decode_servers", "servers that only decode", r.servers - c.prefill_servers)
            .add("kv_transfer_s", "KV transfer, prefill to decode (mean)", r.kv_transfer_s, "s");
    if (c.ttft_target > 0 || c.tpot_target > 0) {
        const double ttft = c.ttft_target > 0 ? c.ttft_target : 1e300, tpot = c.tpot_target > 0 ? c.tpot_target : 1e300;
        rec.add("goodput_requests_per_s", "requests/s meeting the SLOs (goodput)", r.goodput(ttft, tpot));
    }
    out.records.push_back(std::move(rec));
    if (drawn) {
        std::string note = "The TTFT and TPOT CDFs and the occupancy over time are drawn in ";
        note += c.svg;
        note += '.';
        out.files.push_back({.path = c.svg, .contents = simulation_svg(r, out.title, c.prefill_servers > 0), .note_when_written = std::move(note)});
        if (from_trace) out.files.back().inputs.push_back(c.trace);
    }
    if (!c.dep.engine.empty()) out.notes.push_back(engine_note(d.engine));
    if (c.dep.kv_memory_fraction > 0) out.notes.push_back(kv_memory_fraction_note(d.engine));
    for (std::string& n : checkpoint_notes(c.dep.checkpoint, std::span(&d.engine, 1))) out.notes.push_back(std::move(n));
    for (std::string& n : launch_notes(c.dep, d)) out.notes.push_back(std::move(n));
    out.notes.push_back("Every step priced by the library's step formula (sim::simulate); seed " +
                        invalid_input::show(c.seed) + ": the same seed gives the same figures.");
    out.notes.push_back(limits.reserve_full_sequence ? "KV reserved for the whole sequence at admission (TensorRT-LLM's default)."
                        : c.preemption == "swap"
                            ? "KV reserved for what is cached; the newest sequence is preempted and its KV swapped to host memory and back when it runs out."
                            : "KV reserved for what is cached; the newest sequence is preempted and recomputed when it runs out.");
    if (c.prefill_servers > 0) {
        std::string note = "Disaggregated: each prompt's KV crosses ";  // appended: GCC bug 105329's false -Wrestrict
        note += c.kv_path;
        note += " to a decode server (kv_transfer_for); its first token is that server's first step.";
        out.notes.push_back(std::move(note));
    }
    return out;
}

}  // namespace llmcost::cli
