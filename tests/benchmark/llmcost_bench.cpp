// Speed of the cost model (Google Benchmark). Run with the `bench` workflow preset; the README
// quotes the figures with the machine they came from. Speed is measured here, never asserted in
// a timed test.
#include <llmcost/llmcost.hpp>
#include <llmcost/plan.hpp>
#include <llmcost/sim/simulate.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace llmcost;
using namespace llmcost::literals;

constexpr deployment llama70{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
constexpr deployment deepseek{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.ep = 8, .dp = 8}};

// Requests whose lengths change every iteration, so nothing is hoisted out of the loop.
request_shape request_at(std::int64_t i) {
    return {.input = tokens(1000.0 + static_cast<double>(i & 63)), .output = tokens(200.0 + static_cast<double>(i & 7))};
}

/// One full request: prefill + closed-form decode of every output token + energy + cost, on a
/// deployment prepared once (how a planner or a simulator calls it in a loop).
void full_request(benchmark::State& state, const deployment& d) {
    const pass_model pm = prepare_pass(d);
    const dollars_per_second_t rate = gpu_hour_cost(d.hw, catalog::seed_site, 1.0).total();
    std::int64_t i = 0;
    for (auto _ : state) {
        const request_cost c = price_request(pm, request_at(i++), 16.0, catalog::seed_site, rate);
        benchmark::DoNotOptimize(c);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(full_request, llama70_tp8, llama70);
BENCHMARK_CAPTURE(full_request, deepseek_v3_dep8, deepseek);

/// The same from the deployment (prepare_pass included), as a one-off what-if calls it.
void full_request_from_deployment(benchmark::State& state) {
    std::int64_t i = 0;
    for (auto _ : state) {
        const request_cost c = price_request(llama70, request_at(i++), 16.0);
        benchmark::DoNotOptimize(c);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(full_request_from_deployment);

/// The steady-state serving point `llmcost estimate` prints (three mixed steps, KV limits, energy, $).
void serving_estimate(benchmark::State& state) {
    std::int64_t i = 0;
    for (auto _ : state) {
        const request_estimate e = estimate(llama70, request_at(i++), {.batch = 32});
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(serving_estimate);

/// One decode step at a batch and context.
void decode_step(benchmark::State& state, const deployment& d) {
    const pass_model pm = prepare_pass(d);
    std::int64_t i = 0;
    for (auto _ : state) {
        const pass_cost p = decode_pass(pm, 32.0 + static_cast<double>(i & 31), tokens(1000.0 + static_cast<double>(i & 1023)));
        ++i;
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(decode_step, llama70_tp8, llama70);
BENCHMARK_CAPTURE(decode_step, deepseek_v3_dep8, deepseek);

/// A grid of 1,048,576 configurations: 4 GPUs × 2 formats × 4 layouts × 2 modes × 16 request
/// shapes × 1,024 batches of Llama-3.1-70B. The result arrays are reused between iterations, as a
/// planner that sweeps again and again would (a fresh result also pays the page faults of 26 MB).
plan::sweep_grid million_grid() {
    std::vector<request_shape> shapes;
    for (double in : {128.0, 512.0, 2048.0, 8192.0})
        for (double out : {64.0, 256.0, 1024.0, 4096.0}) shapes.push_back({.input = tokens(in), .output = tokens(out)});
    std::vector<double> batches;
    for (int b = 1; b <= 1024; ++b) batches.push_back(b);
    return {.m = catalog::llama_3_1_70b,
            .gpus = {catalog::h100_sxm5, catalog::h200_sxm, catalog::b200_hgx, catalog::mi300x},
            .formats = {{}, {.weights = formats::fp8, .kv = formats::fp8}},
            .layouts = {{.tp = 1}, {.tp = 2}, {.tp = 4}, {.tp = 8}},
            .modes = {{}, {.disaggregated = true}},
            .shapes = shapes,
            .batches = batches};
}

void sweep_million(benchmark::State& state) {
    const plan::sweep_grid g = million_grid();
    plan::sweep_result r;
    plan::sweep(g, r);
    for (auto _ : state) {
        plan::sweep(g, r);
        benchmark::DoNotOptimize(r.tpot_s.data());
    }
    state.counters["configurations"] = static_cast<double>(g.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(g.size()));
}
BENCHMARK(sweep_million)->Unit(benchmark::kMillisecond);

/// The frontier of that sweep for one request shape under TTFT ≤ 2 s and TPOT ≤ 50 ms.
void frontier_search(benchmark::State& state) {
    const plan::sweep_grid g = million_grid();
    const plan::sweep_result r = plan::sweep(g);
    const slo target{.ttft = seconds(2.0), .tpot = seconds(0.05)};
    for (auto _ : state) {
        const auto f = plan::frontier(r, target, {.shape = 6});
        benchmark::DoNotOptimize(f.data());
    }
}
BENCHMARK(frontier_search)->Unit(benchmark::kMillisecond);

/// One million simulated requests (sim::simulate) on Llama-3.1-70B TP8, 1,000 → 200 tokens, Poisson
/// arrivals at 80% of the saturated request rate (`saturated()`): drawing the workload, every step
/// of the engine priced by the step formula, and the percentiles.
void simulate_million(benchmark::State& state) {
    const request_shape shape{.input = 1000_tok, .output = 200_tok};
    const double saturated_rate = saturated(llama70, shape).output_rate.value() / shape.output.value();
    const workload::traffic t{.input = workload::fixed(shape.input), .output = workload::fixed(shape.output),
                              .arrivals = workload::poisson(seconds(1.0 / (0.8 * saturated_rate)))};
    double steps = 0;
    for (auto _ : state) {
        const sim::result r = sim::simulate(llama70, t, {.requests = 1e6, .keep_requests = false});
        steps = r.steps;
        benchmark::DoNotOptimize(r.ttft.p90);
    }
    state.counters["steps"] = steps;
    state.SetItemsProcessed(state.iterations() * 1000000);
}
BENCHMARK(simulate_million)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
