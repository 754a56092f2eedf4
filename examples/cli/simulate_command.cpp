// `llmcost simulate`: the options in, the simulator's figures out. Every figure comes from the
// library (sim::simulate, the trace loader, the workload descriptors); this file only names them.
#include "simulate_command.hpp"

#include <llmcost/io/trace_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/sim/simulate.hpp>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <string>

namespace llmcost::cli {

namespace {

void add_percentiles(record& r, const std::string& key, const std::string& label, const sim::percentiles& p) {
    r.add(key + "_mean", label + ", mean", p.mean, "s")
        .add(key + "_p50", label + ", median", p.p50, "s")
        .add(key + "_p90", label + ", 90th percentile", p.p90, "s")
        .add(key + "_p99", label + ", 99th percentile", p.p99, "s");
}

}  // namespace

report simulate(const simulate_command& c, std::ostream& progress) {
    const deployment d = build(c.dep);
    const bool from_trace = !c.trace.empty();
    if (!from_trace && c.rate == 0 && c.concurrency == 0)
        throw usage_error("simulate needs --rate R (open arrivals), --concurrency N (closed loop) or --trace FILE.csv");
    if (c.arrivals == "gamma" && c.rate == 0)
        throw usage_error("--arrivals gamma needs --rate");
    const sim::options o{.limits = {.max_batch = c.max_batch, .max_tokens_per_step = c.max_tokens,
                                    .reserve_full_sequence = !c.optimistic, .prefill_chunk = tokens(c.prefill_chunk)},
                         .requests = c.requests,
                         .seed = static_cast<std::uint64_t>(c.seed),
                         .keep_requests = c.ttft_target > 0 || c.tpot_target > 0,
                         .timeline_points = 0};
    const auto start = std::chrono::steady_clock::now();
    sim::result r;
    std::string workload_text;
    if (from_trace) {
        const std::vector<workload::request> trace = io::load_trace_csv(c.trace);
        r = sim::simulate(d, trace, o);
        workload_text = "trace " + std::filesystem::path(c.trace).filename().string() + " (" + invalid_input::show(static_cast<double>(trace.size())) + " requests)";
    } else {
        workload::traffic t{.input = workload::parse_length(c.input_dist, "--input-dist"),
                            .output = workload::parse_length(c.output_dist, "--output-dist")};
        if (c.concurrency > 0) t.arrivals = workload::closed_loop(c.concurrency);
        else if (c.arrivals == "gamma") t.arrivals = workload::gamma(seconds(1.0 / c.rate), c.cv);
        else t.arrivals = workload::poisson(seconds(1.0 / c.rate));
        r = sim::simulate(d, t, o);
        workload_text = invalid_input::show(c.requests) + " requests, input " + c.input_dist + ", output " + c.output_dist +
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
        .add("preemptions", "preemptions (recomputed)", r.preemptions)
        .add("steps", "engine steps", r.steps)
        .add("makespan_s", "first arrival to last token", r.makespan, "s");
    if (c.ttft_target > 0 || c.tpot_target > 0) {
        const double ttft = c.ttft_target > 0 ? c.ttft_target : 1e300, tpot = c.tpot_target > 0 ? c.tpot_target : 1e300;
        rec.add("goodput_requests_per_s", "requests/s meeting the SLOs (goodput)", r.goodput(ttft, tpot));
    }
    out.records.push_back(std::move(rec));
    out.notes.push_back("Every step priced by the library's step formula (sim::simulate); seed " +
                        invalid_input::show(c.seed) + ": the same seed gives the same figures.");
    out.notes.push_back(c.optimistic ? "KV reserved for what is cached; the newest sequence is preempted and recomputed when it runs out."
                                     : "KV reserved for the whole sequence at admission (TensorRT-LLM's default).");
    return out;
}

}  // namespace llmcost::cli
