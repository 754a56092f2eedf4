// Workload descriptors, the trace loader and the discrete-event simulator (issue 16): the moments
// of the length distributions by hand, the trace file's errors with file:line:column, and the laws
// of the simulator — every request answered once with all its tokens, the low-load limit (TTFT →
// the prefill, TPOT → the decode step), the saturated limit (`saturated()` within 3%), M/D/1 limit
// cases against Pollaczek–Khinchine, and the same seed giving the same figures bit for bit.
#include <llmcost/catalog/models.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/descriptors/workload.hpp>
#include <llmcost/io/trace_csv.hpp>
#include <llmcost/serving/queueing.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
const deployment llama70_tp8{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
const deployment llama8{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};

std::vector<workload::request> all_at_once(double n, double in, double out) {
    return std::vector<workload::request>(static_cast<std::size_t>(n),
                                          {.arrival = seconds(0.0), .input = tokens(in), .output = tokens(out)});
}
}  // namespace

TEST_CASE("workload: moments of the length distributions, by hand") {
    // fixed 200: E[L] = 200, E[L²] = 40,000.
    CHECK(workload::fixed(200_tok).mean() == 200.0);
    CHECK(workload::fixed(200_tok).second_moment() == 40000.0);
    // Integers 1 … 3: E[L] = 2, E[L²] = (1 + 4 + 9)/3 = 14/3.
    CHECK(workload::uniform(1_tok, 3_tok).mean() == 2.0);
    CHECK(workload::uniform(1_tok, 3_tok).second_moment() == doctest::Approx(14.0 / 3.0));
    // Lognormal of mean 1,000 and deviation 1,500: E[L²] = 1,500² + 1,000² = 3.25 M; the length a
    // random token belongs to averages 3,250 (length bias).
    const workload::length_distribution ln = workload::lognormal(1000_tok, 1500_tok);
    CHECK(ln.second_moment() == 3.25e6);
    CHECK(ln.length_biased_mean() == 3250.0);
    // Two bins: 1 … 1 (weight 3) and 9 … 11 (weight 1): E[L] = (3·1 + 10)/4 = 3.25,
    // E[L²] = (3·1 + (81 + 100 + 121)/3)/4 = (3 + 100.667)/4 = 25.917.
    const std::array bins{workload::length_bin{1, 1, 3}, workload::length_bin{9, 11, 1}};
    const workload::length_distribution h = workload::histogram(bins);
    CHECK(h.mean() == 3.25);
    CHECK(h.second_moment() == doctest::Approx((3.0 + 302.0 / 3.0) / 4.0));
    CHECK(h.longest() == 11.0);
}

TEST_CASE("workload: draws follow their law (sample moments)") {
    workload::sampler g(7);
    for (const workload::length_distribution& l :
         {workload::uniform(100_tok, 300_tok), workload::lognormal(500_tok, 400_tok)}) {
        double s = 0, s2 = 0, least = 1e300;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const double x = g.length(l);
            least = std::min(least, x);
            s += x;
            s2 += x * x;
        }
        CHECK(least >= 1.0);
        CHECK(s / n == doctest::Approx(l.mean()).epsilon(0.01));
        CHECK(s2 / n == doctest::Approx(l.second_moment()).epsilon(0.03));
    }
    // A capped lognormal never exceeds its cap.
    double most = 0;
    for (int i = 0; i < 10000; ++i) most = std::max(most, g.length(workload::lognormal(500_tok, 2000_tok, 4000_tok)));
    CHECK(most <= 4000.0);
    // Gamma gaps: mean 1/λ, coefficient of variation cv.
    double s = 0, s2 = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const double x = g.gap(workload::gamma(2_s, 3.0));
        s += x;
        s2 += x * x;
    }
    const double mean = s / n, cv = std::sqrt(s2 / n - mean * mean) / mean;
    CHECK(mean == doctest::Approx(2.0).epsilon(0.03));
    CHECK(cv == doctest::Approx(3.0).epsilon(0.05));
}

TEST_CASE("workload: bad descriptors name the field, the value and the rule") {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    for (double gap : {0.0, nan, inf, -1.0}) {
        const workload::traffic t{.arrivals = workload::poisson(seconds(gap))};
        const std::string msg = test::error_of([&] { t.validate(); return 0; });
        CHECK(test::contains(msg, "mean gap (s)"));
        CHECK(test::contains(msg, "[llmcost.workload.rate_positive]"));
    }
    CHECK(test::contains(test::error_of([] { workload::fixed(0_tok).validate("input lengths"); return 0; }),
                         "[llmcost.workload.length_positive]"));
    CHECK(test::contains(test::error_of([] { workload::uniform(10_tok, 5_tok).validate("input lengths"); return 0; }),
                         "[llmcost.workload.uniform_order]"));
    CHECK(test::contains(test::error_of([] { workload::closed_loop(2.5).validate(); return 0; }),
                         "[llmcost.workload.clients_whole]"));
}

TEST_CASE("simulate: drawn arrivals past 10^9 s are refused, as a trace's are") {
    // 100 Poisson arrivals 10^8 s apart on average: the last near 99 x 10^8 = 9.9e9 s (its spread ~10^9), past 10^9 s;
    // 10^6 s apart: near 9.9e7 s, inside it.
    const workload::traffic slow{.arrivals = workload::poisson(seconds(1e8))};
    const std::string why = test::error_of([&] { return sim::simulate(llama8, slow, {.requests = 100}); });
    CHECK(test::contains(why, "simulation: last arrival (s) = "));
    CHECK(test::contains(why, "[llmcost.simulate.arrival_span]"));
    const workload::traffic fine{.arrivals = workload::poisson(seconds(1e6))};
    CHECK_NOTHROW((void)sim::simulate(llama8, fine, {.requests = 100}));
}

TEST_CASE("trace CSV: a good trace, and each error with file:line:column") {
    const auto r = io::parse_trace_csv("arrival_s,input_tokens,output_tokens,prefix_id\n0,100,10,\n0.5,200,20,3\n",
                                       "t.csv");
    REQUIRE(r.size() == 2);
    CHECK(r[1].arrival == 0.5_s);
    CHECK(r[1].input == 200_tok);
    CHECK(r[1].prefix == 3);
    CHECK(r[0].prefix == -1);
    auto error = [](const char* text) {
        try {
            (void)io::parse_trace_csv(text, "t.csv");
        } catch (const io::load_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const char* h = "arrival_s,input_tokens,output_tokens\n";
    CHECK(test::contains(error((std::string(h) + "0,1,1\n-1,1,1\n").c_str()), "t.csv:3:1: key \"arrival_s\" = \"-1\""));
    CHECK(test::contains(error((std::string(h) + "0,1,1\n,1,1\n").c_str()), "t.csv:3:1: key \"arrival_s\""));
    CHECK(test::contains(error((std::string(h) + "0,1,1\n,1,1\n").c_str()), "missing value"));
    CHECK(test::contains(error((std::string(h) + "soon,1,1\n").c_str()), "t.csv:2:1: key \"arrival_s\" = \"soon\": expected a number"));
    CHECK(test::contains(error((std::string(h) + "nan,1,1\n").c_str()), "must be finite"));
    CHECK(test::contains(error((std::string(h) + "2,1,1\n1,1,1\n").c_str()), "t.csv:3:1"));
    CHECK(test::contains(error((std::string(h) + "2,1,1\n1,1,1\n").c_str()), "[llmcost.trace.arrival_order]"));
    // An arrival past 10^9 s is refused at its cell: at 1e308 the arrival absorbed every step's time (1e308 + 0.03 =
    // 1e308), and TTFT, TPOT and E2E all read 0 s with exit 0 before session 53.
    CHECK(test::contains(error((std::string(h) + "0,1,1\n1e308,1,1\n").c_str()),
                         "t.csv:3:1: key \"arrival_s\" = \"1e308\": an arrival time is at most 10^9 s"));
    CHECK(io::parse_trace_csv(std::string(h) + "1e9,1,1\n", "t.csv").size() == 1);  // 10^9 s itself is allowed
    // The library's own rule, for a request list built in C++ or Python (sim::simulate).
    std::vector<workload::request> late = all_at_once(2, 100, 10);
    late[1].arrival = seconds(2e9);
    const std::string why = test::error_of([&] { return sim::simulate(llama8, late, {}); });
    CHECK(test::contains(why, "trace request 2: arrival (s) = 2e+09"));
    CHECK(test::contains(why, "[llmcost.trace.arrival_time]"));
    CHECK(test::contains(error((std::string(h) + "0,0,1\n").c_str()), "t.csv:2:2: key \"input_tokens\" = \"0\""));
    CHECK(test::contains(error((std::string(h) + "0,5,2.5\n").c_str()), "t.csv:2:3: key \"output_tokens\""));
    CHECK(test::contains(error("arrival_s,input_tokens\n0,1\n"), "key \"output_tokens\": no such column"));
    CHECK(test::contains(error(h), "at least one request row"));
}

TEST_CASE("simulator: every request is answered once, with all its tokens") {
    const sim::result r = sim::simulate(llama8,
                                        {.input = workload::lognormal(800_tok, 900_tok, 20000_tok),
                                         .output = workload::uniform(1_tok, 400_tok),
                                         .arrivals = workload::poisson(20_ms)},
                                        {.requests = 3000, .seed = 3});
    REQUIRE(r.requests.size() == 3000);
    CHECK(r.completed == 3000);
    double tokens_out = 0;
    bool ordered = true;
    for (const sim::request_result& q : r.requests) {
        tokens_out += q.output;
        ordered = ordered && q.queue >= 0 && q.ttft >= q.queue && q.e2e >= q.ttft && q.e2e > 0;
    }
    CHECK(ordered);
    CHECK(r.output_tokens == tokens_out);
    CHECK(r.output_tokens_per_s == doctest::Approx(tokens_out / r.makespan));
    CHECK(r.ttft.p50 <= r.ttft.p90);
    CHECK(r.ttft.p90 <= r.ttft.p99);
    CHECK(r.ttft.p99 <= r.ttft.max);
    CHECK(r.utilisation > 0);
    CHECK(r.utilisation <= 1.0);
}

TEST_CASE("simulator: optimistic admission preempts and recomputes, and still answers everything") {
    // vLLM-style: KV for what is cached only; long answers fill it, the newest sequence is preempted.
    const sim::result r = sim::simulate(llama70_tp8,
                                        {.input = workload::fixed(2000_tok), .output = workload::fixed(4000_tok),
                                         .arrivals = workload::poisson(10_ms)},
                                        {.limits = {.reserve_full_sequence = false}, .requests = 1500});
    CHECK(r.completed == 1500);
    CHECK(r.output_tokens == 1500.0 * 4000.0);
    CHECK(r.preemptions > 0);
    CHECK(r.mean_kv <= 1.0);
}

TEST_CASE("simulator: at low load TTFT is the prefill and TPOT the decode step") {
    const request_shape shape{.input = 1000_tok, .output = 200_tok};
    const serving_point alone = serve_at_batch(llama70_tp8, shape, 1);
    // One request every 100 s: they never meet (Poisson arrivals at low load meet now and then, and
    // wait for the step in flight).
    std::vector<workload::request> apart = all_at_once(50, 1000, 200);
    for (std::size_t i = 0; i < apart.size(); ++i) apart[i].arrival = seconds(100.0 * static_cast<double>(i));
    const sim::result r = sim::simulate(llama70_tp8, apart);
    CHECK(r.ttft.p50 == doctest::Approx(alone.prefill_time.value()).epsilon(1e-9));
    CHECK(r.queue.max == 0.0);
    // The decode steps run at contexts 1,001 … 1,199; the closed form prices them at x̄ = 1,100.
    CHECK(r.tpot.p50 == doctest::Approx(alone.tpot.value()).epsilon(0.01));
    CHECK(r.mean_batch == doctest::Approx(1.0));
}

TEST_CASE("simulator: saturated throughput equals saturated() within 3%") {
    // All requests queued at t = 0, an engine with TensorRT-LLM's max_num_tokens of 8,192 (which
    // staggers the prompts, as in steady state), 30 waves of the largest batch.
    struct row {
        deployment d;
        double in, out;
        scheduler_limits l;
    };
    for (const row& c : {row{llama70_tp8, 1000, 200, {.max_tokens_per_step = 8192}},
                         row{llama70_tp8, 1000, 200, {.max_tokens_per_step = 8192, .prefill_chunk = 512_tok}},
                         row{llama8, 128, 128, {.max_tokens_per_step = 8192}},
                         row{llama8, 2000, 500, {}}}) {
        const serving_point s = saturated(c.d, {.input = tokens(c.in), .output = tokens(c.out)}, c.l);
        const sim::result r = sim::simulate(c.d, all_at_once(30 * s.batch, c.in, c.out), {.limits = c.l, .keep_requests = false});
        INFO(c.d.m.name << " " << c.in << " -> " << c.out << ": simulated " << r.output_tokens_per_s << " tok/s, saturated() "
                        << s.output_rate.value());
        CHECK(r.output_tokens_per_s == doctest::Approx(s.output_rate.value()).epsilon(0.03));
    }
}

TEST_CASE("simulator: one sequence at a time is an M/D/1 queue (Pollaczek–Khinchine)") {
    // max_batch 1 and fixed lengths: every request is served alone for S = prefill + 9 decode steps
    // (S constant), so the wait before service is the M/D/1 wait ρS ÷ (2(1 − ρ)).
    const scheduler_limits one{.max_batch = 1};
    const request_shape shape{.input = 500_tok, .output = 10_tok};
    const sim::result probe = sim::simulate(llama8, all_at_once(1, 500, 10), {.limits = one});
    const double service = probe.requests[0].e2e;
    for (double rho : {0.3, 0.8}) {
        const sim::result r = sim::simulate(llama8, {.input = workload::fixed(shape.input), .output = workload::fixed(shape.output),
                                                     .arrivals = workload::poisson(seconds(service / rho))},
                                            {.limits = one, .requests = 40000, .seed = 11});
        const double wait = queueing::md1_wait(seconds(service), rho).value();
        INFO("rho " << rho << ": simulated wait " << r.queue.mean << " s, M/D/1 " << wait << " s");
        CHECK(r.queue.mean == doctest::Approx(wait).epsilon(0.05));
        CHECK(r.e2e.mean == doctest::Approx(wait + service).epsilon(0.03));
    }
}

TEST_CASE("simulator: the same seed gives the same figures, bit for bit") {
    const workload::traffic t{.input = workload::lognormal(600_tok, 800_tok, 16000_tok),
                              .output = workload::lognormal(300_tok, 300_tok, 8000_tok),
                              .arrivals = workload::gamma(15_ms, 2.0)};
    const sim::result a = sim::simulate(llama8, t, {.requests = 2000, .seed = 42});
    const sim::result b = sim::simulate(llama8, t, {.requests = 2000, .seed = 42});
    const sim::result c = sim::simulate(llama8, t, {.requests = 2000, .seed = 43});
    REQUIRE(a.requests.size() == b.requests.size());
    CHECK(std::memcmp(a.requests.data(), b.requests.data(), a.requests.size() * sizeof(sim::request_result)) == 0);
    CHECK(std::memcmp(&a.ttft, &b.ttft, sizeof a.ttft) == 0);
    CHECK(a.output_tokens_per_s == b.output_tokens_per_s);
    CHECK(a.ttft.p90 != c.ttft.p90);
}

TEST_CASE("simulator: closed loop keeps N requests in the system") {
    // 8 clients, short answers: never more than 8 running, and every request answered.
    const sim::result r = sim::simulate(llama8, {.input = workload::fixed(300_tok), .output = workload::fixed(50_tok),
                                                 .arrivals = workload::closed_loop(8)},
                                        {.requests = 400});
    CHECK(r.completed == 400);
    CHECK(r.mean_batch <= 8.0);
    CHECK(r.mean_batch > 6.0);
    CHECK(r.queue.max == 0.0);
}

TEST_CASE("simulator: the context check reads an unbounded lognormal at its mean, and can be lifted") {
    // traffic::longest_context: fixed 1000 + uniform to 300 = 1,300; lognormal (mean 1000, no cap) + 200 = 1,200.
    CHECK(workload::traffic{.input = workload::fixed(1000_tok), .output = workload::uniform(1_tok, 300_tok)}
              .longest_context()
              .value() == 1300.0);
    CHECK(workload::traffic{.input = workload::lognormal(1000_tok, 500_tok)}.longest_context().value() == 1200.0);
    // Uncapped, a lognormal's longest is infinite; the check reads its mean (as estimate does) and each
    // draw (mean 1000, sd 500: none near 131,072) passes.
    const workload::traffic uncapped{.input = workload::lognormal(1000_tok, 500_tok), .arrivals = workload::poisson(1_s)};
    CHECK(sim::simulate(llama8, uncapped, {.requests = 20}).completed == 20.0);
    // 140,000 + 200 > 131,072: refused, unless asked to price it anyway (a trace too).
    const workload::traffic past{.input = workload::fixed(140000_tok), .arrivals = workload::poisson(1_s)};
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, past, {.requests = 2}); }),
                         "[llmcost.model.context_within_max_position]"));
    CHECK(sim::simulate(llama8, past, {.requests = 2, .ignore_max_position = true}).completed == 2.0);
    CHECK(sim::simulate(llama8, all_at_once(1, 131000, 500), {.ignore_max_position = true}).completed == 1.0);
}

TEST_CASE("simulator: bad input is refused with the rule") {
    // A request longer than the model's context (Llama-3.1-8B: 131,072).
    const std::string longer = test::error_of(
        [] { return sim::simulate(llama8, all_at_once(1, 131000, 500)); });
    CHECK(test::contains(longer, "trace request 1"));
    CHECK(test::contains(longer, "[llmcost.model.context_within_max_position]"));
    const std::string workload_longer = test::error_of([] {
        return sim::simulate(llama8, {.input = workload::uniform(1_tok, 200000_tok), .arrivals = workload::poisson(1_s)});
    });
    CHECK(test::contains(workload_longer, "[llmcost.model.context_within_max_position]"));
    std::vector<workload::request> back = all_at_once(2, 10, 10);
    back[0].arrival = 1_s;
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, back); }), "[llmcost.trace.arrival_order]"));
    CHECK(test::contains(test::error_of([] { return sim::simulate(llama8, all_at_once(1, 0, 10)); }),
                         "[llmcost.simulate.request_tokens]"));
    CHECK(test::contains(test::error_of([] { return sim::simulate(llama8, workload::traffic{}, {.requests = 0}); }),
                         "[llmcost.simulate.requests_whole]"));
}

TEST_CASE("simulator: a token budget goes to the oldest prompt's chunk first (first come, first served)") {
    // TensorRT-LLM's chunked context, first_come_first_served (microBatchScheduler.cpp
    // setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>): the step's budget, after a token per running
    // answer, goes to the oldest prompt's next chunk, then the next prompt's. Two prompts of 300 tokens
    // at t = 0, one-token answers, a budget of 256 tokens a step, chunks up to the budget. By hand:
    //   step 1: A 256 (A's tokens 0–255)            B waits: the budget is spent
    //   step 2: A 44 (256–299), then B 212 (0–211)  A's first token at its end
    //   step 3: B 88 (212–299)                      B's first token at its end
    const scheduler_limits budget{.max_tokens_per_step = 256, .prefill_chunk = 256_tok};
    const sim::result r = sim::simulate(llama8, all_at_once(2, 300, 1), {.limits = budget});
    REQUIRE(r.requests.size() == 2);
    const double a = r.requests[0].ttft, b = r.requests[1].ttft;
    const double step1 = prefill_pass(llama8, 1.0, 256_tok, 0_tok).time().value();
    const double a_rest = prefill_pass(llama8, 1.0, 44_tok, 256_tok).time().value();
    const double step3 = prefill_pass(llama8, 1.0, 88_tok, 212_tok).time().value();
    // B's first token comes one step after A's, the step of its last 88 tokens alone.
    CHECK(b - a == doctest::Approx(step3).epsilon(1e-6));
    // A's second step also carries B's first 212 tokens: longer than A's 44 alone, shorter than a step of
    // 256 prompt tokens from scratch twice over.
    CHECK(a > step1 + a_rest);
    CHECK(a < 3.0 * step1);
    // Without the budget both whole prompts share one step: both first tokens at its end, before B's above.
    const sim::result whole = sim::simulate(llama8, all_at_once(2, 300, 1));
    CHECK(whole.requests[0].ttft == whole.requests[1].ttft);
    CHECK(whole.requests[1].ttft < b);
}
