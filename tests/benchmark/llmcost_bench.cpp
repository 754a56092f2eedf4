// Speed of the cost model (Google Benchmark). Run with the `bench` workflow preset; the README
// quotes the figures with the machine they came from. Speed is measured here, never asserted in
// a timed test.
#include <llmcost/llmcost.hpp>

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
        const pass_cost p = decode_pass(pm, 32.0 + static_cast<double>(i & 31), tokens(1000.0 + static_cast<double>(i++ & 1023)));
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(decode_step, llama70_tp8, llama70);
BENCHMARK_CAPTURE(decode_step, deepseek_v3_dep8, deepseek);

}  // namespace

BENCHMARK_MAIN();
