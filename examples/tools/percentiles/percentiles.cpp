/// llmcost-percentiles <output.md> [--max-p90-error <fraction>]: the analytical latency percentiles
/// (`serve_online_latency`, `ttft_percentile`, `tpot_percentile`: the engine as a bulk-service queue,
/// serving/queueing.hpp) against the discrete-event simulator (`sim::simulate`, the same step
/// formula) on a grid of deployments and loads. Load = arrival rate ÷ the saturated request rate
/// (`saturated`'s output rate ÷ O). The `percentiles` target writes tables/percentiles.md;
/// `percentiles.up_to_date` keeps that copy current and `percentiles.p90_bar` runs this with
/// `--max-p90-error 0.10`, which exits 1 when a p90 on the bar's rows (TTFT and TPOT at loads
/// ≤ 85%) is further than the bar from the simulator's.
///
/// The output is byte-identical under every build type: the simulator is deterministic under its
/// seed and numbers go through llmcost::text.

#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/sim/simulate.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace llmcost;

std::string ms(double s) { return text::fixed(1e3 * s, 2); }

struct grid_case {
    std::string_view name;
    deployment d;
    request_shape r;
};

constexpr double ttft_bar_load = 0.85;  ///< the issue's bar: p90 within 10% at loads up to 85%
constexpr double tpot_bar_load = 0.85;  ///< the same bar for TPOT
constexpr double sim_requests = 200000;  // 20,000 left the high-load TPOT p90s to the luck of a few bursts

struct row {
    std::string name;
    double load = 0, rate = 0;
    sim::percentiles sim_ttft, sim_tpot, sim_e2e;
    double e2e_p90 = 0;
    double ttft_mean = 0, ttft_p50 = 0, ttft_p90 = 0, ttft_p99 = 0;
    double tpot_mean = 0, tpot_p50 = 0, tpot_p90 = 0, tpot_p99 = 0;
    double gain = 0;  ///< the decode loop's gain λ·(p + c·N)
    double tbar = 0, dws = 0, avg = 0, ey = 0;  ///< the loop's t̄, decode_weighted_step at D̄, its average over D's law (the mean reported), the loop's E[Y]
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: llmcost-percentiles <output.md> [--max-p90-error <fraction>]\n");
        return 2;
    }
    double bar = -1.0;
    for (int i = 2; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--max-p90-error" && i + 1 < argc) bar = std::strtod(argv[++i], nullptr);
        else {
            std::fprintf(stderr, "llmcost-percentiles: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    try {
        const grid_case cases[] = {
            {"Llama-3.1-8B, H100 SXM5, TP1, 467 → 256", {.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5},
             {.input = tokens(467), .output = tokens(256)}},
            {"Llama-3.1-70B, H100 SXM5, TP4, 467 → 256",
             {.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4}},
             {.input = tokens(467), .output = tokens(256)}},
            {"Llama-3.1-70B, H200 SXM, TP8, 1000 → 200",
             {.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm, .layout = {.tp = 8}},
             {.input = tokens(1000), .output = tokens(200)}},
            {"Llama-3.1-70B, H100 SXM5, TP4, 2000 → 100",
             {.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4}},
             {.input = tokens(2000), .output = tokens(100)}},
        };
        const double loads[] = {0.1, 0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95};
        std::vector<row> rows;
        double worst_ttft = 0, worst_tpot = 0;
        for (const grid_case& c : cases) {
            const double saturated_rate = saturated(c.d, c.r).output_rate.value() / c.r.output.value();
            for (double load : loads) {
                const double rate = load * saturated_rate;
                const online_latency o = serve_online_latency(c.d, c.r, seconds(1.0 / rate));
                const sim::result x = sim::simulate(
                    c.d, {.input = workload::fixed(c.r.input), .output = workload::fixed(c.r.output),
                          .arrivals = workload::poisson(seconds(1.0 / rate))},
                    {.requests = sim_requests, .seed = 7, .keep_requests = false, .timeline_points = 0});
                row w{.name = std::string(c.name), .load = load, .rate = rate, .sim_ttft = x.ttft, .sim_tpot = x.tpot, .sim_e2e = x.e2e};
                w.e2e_p90 = e2e_percentile(o, 0.9).value();
                w.ttft_mean = o.point.ttft.value();
                w.ttft_p50 = ttft_percentile(o, 0.5).value();
                w.ttft_p90 = ttft_percentile(o, 0.9).value();
                w.ttft_p99 = ttft_percentile(o, 0.99).value();
                w.tpot_mean = o.point.tpot.value();
                w.tpot_p50 = tpot_percentile(o, 0.5).value();
                w.tpot_p90 = tpot_percentile(o, 0.9).value();
                w.tpot_p99 = tpot_percentile(o, 0.99).value();
                w.gain = o.decoding.gain;
                w.tbar = o.decoding.step.value();
                w.dws = queueing::decode_weighted_step(o.steps, c.r.output.value() - 1.0).value();
                w.avg = o.point.tpot.value();
                w.ey = o.decoding.mean.value();
                if (load <= ttft_bar_load) worst_ttft = std::max(worst_ttft, std::abs(w.ttft_p90 / x.ttft.p90 - 1.0));
                if (load <= tpot_bar_load) worst_tpot = std::max(worst_tpot, std::abs(w.tpot_p90 / x.tpot.p90 - 1.0));
                rows.push_back(w);
            }
        }
        std::string s;
        s += "# Latency percentiles: the closed forms against the simulator\n\n";
        s += "Generated by the `percentiles` target (`llmcost-percentiles`, examples/tools/percentiles): do not edit by "
             "hand. Regenerate with `cmake --build <build dir> --target percentiles`; the test `percentiles.up_to_date` "
             "fails when this file is stale, and `percentiles.p90_bar` fails when a p90 on the bar's rows is more than "
             "10% from the simulator's.\n\n";
        s += "The model (`serve_online_latency`, include/llmcost/serving/throughput.hpp and queueing.hpp): the engine "
             "prefills, in each step, every prompt that arrived during the step before (continuous batching with whole "
             "prompts), so it is a bulk-service queue whose embedded chain, the prompts k a step carries, moves by "
             "k′ ~ Poisson(λ·t(k)) (Bailey 1954); t(k) is the library's step formula with the D = λ·(O − 1)·TPOT "
             "sequences decoding. A request arriving at random (PASTA, Wolff 1982) lands in a step of k prompts with "
             "probability π_k·t(k) ÷ E[t], waits a residual U(0, t(k)), and its prompt rides the next step with the "
             "Poisson(λ·t(k)) others that arrived in the same step: the TTFT distribution is that mixture, exactly. "
             "TPOT is the mean Y of a request's N = O − 1 decode steps (`queueing::decode_loop`), and a step's length "
             "feeds back on the load two ways: the k prompts it carries (p each) arrived during the step before, "
             "k ~ Poisson(λ·t), and each prompt decodes for the next N steps (c each), so t_s = t̄ + c·δD_s + p·δk_s "
             "with D_s = Σ_{j=1}^{N} k_{s−j} and δk_s = λ·δt_{s−1} + Poisson noise: a linear process whose slow mode "
             "has loop gain λ·(p + c·N). Its impulse responses give Var(Y) and the request-weighted mean (a request "
             "rode a step of the size-biased k, and decodes beside itself); t̄ and the slopes are statistical "
             "linearisations (Booton 1954) of the step formula over the Poisson prompts and a normal decoding count "
             "whose variance the loop itself gives; Y is lognormal with those two moments. The operating point is the loop's "
             "root t̄ (docs/online-smoothed-root.md), and the TPOT mean column is the point estimate `serve_online` "
             "reports: the decoders' step E[D·t] ÷ E[D], `decode_weighted_step` of the bulk chain at each count of the "
             "decoding count's law, averaged over that law (both channels, not linearised); the column t̄ / dws(D̄) / "
             "dws over D / E[Y] sets it beside the loop's t̄, the chain at D̄ alone and the loop's linearised request "
             "mean E[Y] (the percentiles' own mean), and gives each one's error against the simulator's mean.\n\n";
        s += "The simulator: `sim::simulate`, " + text::grouped(sim_requests) +
             " Poisson requests a point, seed 7, the same step formula, whole prompts, no batch or token cap. Load = "
             "arrival rate ÷ saturated request rate (`saturated`, KV-bound batch). Error = model ÷ simulator − 1.\n\n";
        s += "## Bar\n\n";
        s += "| figure | loads | worst abs. p90 error | bar | holds |\n|---|---|--:|--:|---|\n";
        s += "| TTFT p90 | ≤ " + text::fixed(100 * ttft_bar_load, 0) + "% | " + text::fixed(100 * worst_ttft, 1) +
             "% | 10% | " + (worst_ttft <= 0.10 ? "yes" : "**no**") + " |\n";
        s += "| TPOT p90 | ≤ " + text::fixed(100 * tpot_bar_load, 0) + "% | " + text::fixed(100 * worst_tpot, 1) +
             "% | 10% | " + (worst_tpot <= 0.10 ? "yes" : "**no**") + " |\n\n";
        s += "Where it breaks: TTFT p90 holds within 10% at every load of this grid (+8.7% at 95% on the 2,000-token "
             "prompts, where the KV room's cap binds and `ttft_percentile` adds the mean wait for a slot; −23% "
             "without it: docs/online-caps.md; the same shift by the mean wait moves that point's TTFT p50 from −10% "
             "to +85%: a shift by the mean, not the wait's own law). TPOT "
             "p90 holds within 5.9% to 85% and 5.6% at 90%; at 95% it runs 8.5% high on the 70B rows at TP8 (3.6% with "
             "the 2,000-token prompts, 17% before the KV room's cap priced the decoding count's nodes above it as "
             "running at the cap, the rest waiting: docs/online-caps.md; that wait puts their mean TTFT 49% above the "
             "simulator's there): the loop gain is 0.66–0.82 at 80% load and 0.84–0.95 at 90–95%, and the linear model overstates a slow mode this close to 1 (the lognormal's "
             "tail, and a step whose slope in the decoding count changes over that count's spread). "
             "`tpot_percentile` refuses a gain of 0.99 or more (the slow mode then amplifies the arrivals' noise "
             "more than 100-fold; read those loads from `simulate`). E2E p90 (`e2e_percentile`: normal, "
             "Var(TTFT) + (O − 1)²·Var(TPOT), around the reported mean) is held to no bar: it runs up to 8% short "
             "from 70% load on the 2,000-token prompts, where TTFT and the decode episode share one load and are not "
             "independent, and up to 8% long at 95%. The mean TPOT (dws over D) is within 5.6% of the simulator's "
             "to 90% load, where dws(D̄) alone runs up to 7.7% short and E[Y] up to 7.4% long. Chunked "
             "prefill and a per-step token cap are outside the model (`ttft_percentile` refuses them).\n\n";
        s += "## Grid\n\n";
        s += "Times in ms; sim = simulator, model = closed form.\n\n";
        s += "| deployment | load | rate (req/s) | TTFT mean sim / model | TTFT p50 sim / model | TTFT p90 sim / model | "
             "p90 error | TTFT p99 sim / model | TPOT mean sim / model | TPOT p50 sim / model | TPOT p90 sim / model | "
             "p90 error | TPOT p99 sim / model | TPOT loop gain | TPOT t̄ / dws(D̄) / dws over D / E[Y] | error dws(D̄) / over D / E[Y] | "
             "E2E p90 sim / model | "
             "p90 error |\n";
        s += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
        for (const row& w : rows) {
            s += "| " + w.name + " | " + text::fixed(100 * w.load, 0) + "% | " + text::fixed(w.rate, 2) + " | " +
                 ms(w.sim_ttft.mean) + " / " + ms(w.ttft_mean) + " | " + ms(w.sim_ttft.p50) + " / " + ms(w.ttft_p50) +
                 " | " + ms(w.sim_ttft.p90) + " / " + ms(w.ttft_p90) + " | " + text::signed_percent(w.ttft_p90 / w.sim_ttft.p90 - 1) +
                 " | " + ms(w.sim_ttft.p99) + " / " + ms(w.ttft_p99) + " | " + ms(w.sim_tpot.mean) + " / " +
                 ms(w.tpot_mean) + " | " + ms(w.sim_tpot.p50) + " / " + ms(w.tpot_p50) + " | " + ms(w.sim_tpot.p90) +
                 " / " + ms(w.tpot_p90) + " | " + text::signed_percent(w.tpot_p90 / w.sim_tpot.p90 - 1) + " | " +
                 ms(w.sim_tpot.p99) + " / " + ms(w.tpot_p99) + " | " + text::fixed(w.gain, 3) + " | " + ms(w.tbar) + " / " + ms(w.dws) + " / " + ms(w.avg) + " / " +
                 (w.ey > 0 ? ms(w.ey) : std::string("–")) + " | " + text::signed_percent(w.dws / w.sim_tpot.mean - 1) + " / " +
                 text::signed_percent(w.avg / w.sim_tpot.mean - 1) + " / " +
                 (w.ey > 0 ? text::signed_percent(w.ey / w.sim_tpot.mean - 1) : std::string("–")) + " | " + ms(w.sim_e2e.p90) + " / " + ms(w.e2e_p90) +
                 " | " + text::signed_percent(w.e2e_p90 / w.sim_e2e.p90 - 1) + " |\n";
        }
        std::ofstream f(argv[1], std::ios::binary);
        f << s;
        if (!f) {
            std::fprintf(stderr, "llmcost-percentiles: cannot write %s\n", argv[1]);
            return 1;
        }
        std::printf("TTFT p90 worst error at loads <= %.0f%%: %.1f%%; TPOT p90 at loads <= %.0f%%: %.1f%%\n",
                    100 * ttft_bar_load, 100 * worst_ttft, 100 * tpot_bar_load, 100 * worst_tpot);
        if (bar >= 0 && (worst_ttft > bar || worst_tpot > bar)) {
            std::fprintf(stderr, "llmcost-percentiles: a p90 is %.1f%% / %.1f%% from the simulator, above the %.0f%% bar\n",
                         100 * worst_ttft, 100 * worst_tpot, 100 * bar);
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "llmcost-percentiles: %s\n", e.what());
        return 1;
    }
    return 0;
}
