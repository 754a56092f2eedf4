// The simulator's swap preemption, prefix-cache hits and disaggregated prefill/decode pools: each
// law by hand — every request answered once with its tokens counted, a hit rate of 0 changing
// nothing, a cached prefix pricing the prompt as prefix_cache::prefill_times does, a disaggregated
// TTFT of prefill + KV transfer + one decode step, and swap against recompute as the host link
// speeds up or slows down.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/prefix_cache.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

const deployment llama8{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
const deployment llama8_dp2{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.dp = 2}};
const deployment llama70_tp8{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};

/// n requests of `in` → `out` tokens, one every `gap` seconds (prefix id `prefix`, −1: none).
std::vector<workload::request> spaced(std::size_t n, double gap, double in, double out, long prefix = -1) {
    std::vector<workload::request> v(n, {.input = tokens(in), .output = tokens(out), .prefix = prefix});
    for (std::size_t i = 0; i < n; ++i) v[i].arrival = seconds(gap * static_cast<double>(i));
    return v;
}

/// The first run seed whose split of `requests` requests over two servers (`sim::run`: one unit draw each,
/// below 0.5 the first server, on the stream seeded seed ^ 0x5151…) puts them all on one.
std::uint64_t seed_all_on_one_server(int requests) {
    for (std::uint64_t seed = 1;; ++seed) {
        workload::sampler split(seed ^ 0x5151'5151'5151'5151ULL);
        const bool first = split.unit() < 0.5;
        bool together = true;
        for (int i = 1; i < requests; ++i) together = (split.unit() < 0.5) == first && together;
        if (together) return seed;
    }
}

/// One step's time: a sequence decoding at context 1,001 beside `prompts` whole prompts of `each` tokens.
double one_decode_beside(const pass_model& pm, double prompts, double each) {
    return step_pass(pm, {.decode_sequences = 1.0, .decode_context = 1001_tok, .prefill_sequences = prompts,
                          .prefill_tokens = tokens(each), .prefill_prefix = 0_tok})
        .time()
        .value();
}

bool same_bits(const sim::result& a, const sim::result& b) {
    // No memcmp on an empty list: its data() may be null, which memcmp must not be given even for 0 bytes.
    return a.requests.size() == b.requests.size() &&
           (a.requests.empty() ||
            std::memcmp(a.requests.data(), b.requests.data(), a.requests.size() * sizeof(sim::request_result)) == 0) &&
           std::memcmp(&a.ttft, &b.ttft, sizeof a.ttft) == 0 && std::memcmp(&a.itl, &b.itl, sizeof a.itl) == 0 &&
           a.output_tokens_per_s == b.output_tokens_per_s && a.steps == b.steps && a.preemptions == b.preemptions;
}

}  // namespace

TEST_CASE("simulator: the transfer and swap formulas, by hand") {
    // Llama-3.1-8B: KV per token = 32 layers · 8 KV heads · 128 · 2 (K, V) · 2 B = 131,072 B.
    // 1,000 tokens on one H100 = 131.072 MB; ConnectX-7 400 Gb/s = 50 GB/s a direction, α = 2 µs:
    // 2 µs + 131.072 MB ÷ 50 GB/s = 2.62344 ms. To host memory at 64 GB/s: 2.048 ms.
    CHECK(kv_transfer_for(llama8, 1000_tok, kv_path::scale_out).time.value() == doctest::Approx(2.62344e-3));
    CHECK(kv_swap_time(llama8, 1000_tok).value() == doctest::Approx(2.048e-3));
    // Llama-3.1-70B on TP8: 80 layers · 8 · 128 · 2 · 2 B = 327,680 B a token, an eighth a GPU:
    // 2,000 tokens = 81.92 MB a GPU, 1.28 ms at 64 GB/s.
    CHECK(kv_swap_time(llama70_tp8, 2000_tok).value() == doctest::Approx(1.28e-3));
    // A share h of a P-token prompt cached: max(1, (1 − h)·P) computed.
    static_assert(fresh_prompt_tokens(tokens(1000), 0.0).value() == 1000);
    static_assert(fresh_prompt_tokens(tokens(1000), 0.75).value() == 250);
    static_assert(fresh_prompt_tokens(tokens(1000), 1.0).value() == 1);
}

TEST_CASE("simulator: a prefix hit rate of 0, recompute and no trace prefixes change nothing, bit for bit") {
    const workload::traffic t{.input = workload::lognormal(900_tok, 1200_tok, 20000_tok),
                              .output = workload::lognormal(300_tok, 400_tok, 6000_tok),
                              .arrivals = workload::poisson(12_ms)};
    const sim::options plain{.limits = {.reserve_full_sequence = false}, .requests = 1500, .seed = 5};
    sim::options explicit_zero = plain;
    explicit_zero.prefix_hit_rate = 0.0;
    explicit_zero.preempt = sim::preemption::recompute;
    explicit_zero.trace_prefixes = true;  // the generated requests carry no prefix id
    explicit_zero.prefill_servers = 0;
    const sim::result a = sim::simulate(llama8, t, plain);
    const sim::result b = sim::simulate(llama8, t, explicit_zero);
    CHECK(a.preemptions > 0);
    CHECK(same_bits(a, b));
    CHECK(b.cached_prompt_tokens == 0.0);
    CHECK(b.swap_s == 0.0);
}

TEST_CASE("simulator: a prefix hit rate computes only the fresh part of every prompt") {
    // Requests 100 s apart never meet: each TTFT is one prefill of the fresh 25% after a 75% prefix,
    // priced as prefix_cache::prefill_times prices it.
    const auto apart = spaced(20, 100.0, 4000, 50);
    const sim::result hit = sim::simulate(llama8, apart, {.prefix_hit_rate = 0.75});
    const sim::result cold = sim::simulate(llama8, apart);
    const prefix_cache::prefill_comparison p = prefix_cache::prefill_times(llama8, 4000_tok, 0.75);
    CHECK(hit.completed == 20);
    CHECK(hit.output_tokens == 20 * 50);
    CHECK(hit.ttft.p50 == doctest::Approx(p.cached.value()).epsilon(1e-9));
    CHECK(cold.ttft.p50 == doctest::Approx(p.uncached.value()).epsilon(1e-9));
    CHECK(hit.cached_prompt_tokens == 20 * 3000);
    CHECK(hit.prompt_tokens == 20 * 4000);
    // Decoding is untouched by the cache (the KV is there either way).
    CHECK(hit.tpot.p50 == doctest::Approx(cold.tpot.p50).epsilon(1e-12));
}

TEST_CASE("simulator: trace prefix ids find the shared part cached after the first prefill") {
    // Three prompts of one conversation (id 7), 100 s apart, of 3,000, 3,500 and 3,500 tokens: the
    // first computes all of its; the second finds the 3,000 the first prefilled (the shorter
    // prompt); the third finds 3,500 prefilled by the second, less the one token always computed:
    // 3,499. A 2,000-token shared prefix caps both at 2,000.
    std::vector<workload::request> conv = spaced(3, 100.0, 3000, 20, 7);
    conv[1].input = 3500_tok;
    conv[2].input = 3500_tok;
    const sim::result r = sim::simulate(llama8, conv, {.trace_prefixes = true});
    CHECK(r.completed == 3);
    CHECK(r.cached_prompt_tokens == 3000 + 3499);
    const sim::result capped = sim::simulate(llama8, conv, {.trace_prefixes = true, .shared_prefix_tokens = 2000});
    CHECK(capped.cached_prompt_tokens == 2000 + 2000);
    const double second = prefill_pass(llama8, 1.0, 500_tok, 3000_tok).time().value();
    CHECK(r.requests[1].ttft == doctest::Approx(second).epsilon(1e-9));
    CHECK(r.requests[0].ttft > r.requests[1].ttft);
    // Off, the ids are ignored: every prompt computed whole.
    const sim::result off = sim::simulate(llama8, conv);
    CHECK(off.cached_prompt_tokens == 0.0);
    CHECK(off.requests[1].ttft > r.requests[1].ttft);
}

// vLLM V1 preempts by recompute only, colocated SGLang retracts (recompute), SGLang's disaggregated decode
// servers copy a retracted request's KV to host memory (sim::swap_refusal, its sources).
static_assert(!sim::swap_refusal(engine_kind::vllm, false).empty());
static_assert(!sim::swap_refusal(engine_kind::vllm, true).empty());
static_assert(!sim::swap_refusal(engine_kind::sglang, false).empty());
static_assert(sim::swap_refusal(engine_kind::sglang, true).empty());
static_assert(sim::swap_refusal(engine_kind::trtllm, false).empty());
static_assert(sim::swap_refusal(engine_kind::reference, false).empty());

TEST_CASE("simulator: a swap preemption on an engine that has none is refused, named, and recompute is not") {
    const workload::traffic t{.input = workload::fixed(2000_tok), .output = workload::fixed(4000_tok),
                              .arrivals = workload::poisson(10_ms)};
    sim::options swap{.limits = {.reserve_full_sequence = false}, .requests = 20};
    swap.preempt = sim::preemption::swap;
    deployment vllm = llama70_tp8, sglang = llama70_tp8;
    vllm.engine = catalog::vllm_hopper;
    sglang.engine = catalog::sglang_hopper;
    const std::string v = test::error_of([&] { return sim::simulate(vllm, t, swap); });
    CHECK(test::contains(v, "vLLM on Hopper: preempt = swap: vLLM V1 preempts by recompute only"));
    CHECK(test::contains(v, "[llmcost.simulate.swap_engine]"));
    const std::string g = test::error_of([&] { return sim::simulate(sglang, t, swap); });
    CHECK(test::contains(g, "SGLang on Hopper: preempt = swap: SGLang retracts"));
    CHECK(test::contains(g, "[llmcost.simulate.swap_engine]"));
    // vLLM's disaggregated decode servers still recompute: refused there too
    deployment vllm_pd = vllm, sglang_pd = sglang;
    vllm_pd.layout.dp = sglang_pd.layout.dp = 2;
    sim::options swap_pd = swap;
    swap_pd.prefill_servers = 1;
    CHECK(test::contains(test::error_of([&] { return sim::simulate(vllm_pd, t, swap_pd); }), "[llmcost.simulate.swap_engine]"));
    // SGLang's decode servers of a disaggregated deployment swap; TensorRT-LLM's profile and the reference engine too
    CHECK(sim::simulate(sglang_pd, t, swap_pd).completed == 20);
    deployment trt = llama70_tp8;
    trt.engine = catalog::trtllm_hopper;
    CHECK(sim::simulate(trt, t, swap).completed == 20);
    CHECK(sim::simulate(llama70_tp8, t, swap).completed == 20);
    // recompute on every engine
    sim::options recompute = swap;
    recompute.preempt = sim::preemption::recompute;
    CHECK(sim::simulate(vllm, t, recompute).completed == 20);
    CHECK(sim::simulate(sglang, t, recompute).completed == 20);
}

TEST_CASE("simulator: swap preemption answers everything, and beats recompute only on a fast host link") {
    // vLLM-style optimistic admission with long answers: the cache overflows and sequences are preempted.
    const workload::traffic t{.input = workload::fixed(2000_tok), .output = workload::fixed(4000_tok),
                              .arrivals = workload::poisson(10_ms)};
    const sim::options recompute{.limits = {.reserve_full_sequence = false}, .requests = 600};
    sim::options swap = recompute;
    swap.preempt = sim::preemption::swap;
    deployment fast = llama70_tp8, slow = llama70_tp8;
    fast.hw.host_memory.bandwidth = fast.hw.host_memory.bandwidth * 1000.0;  // 64 TB/s: swapping is nearly free
    slow.hw.host_memory.bandwidth = slow.hw.host_memory.bandwidth / 1000.0;  // 64 MB/s: 1.3 s a 2,000-token context
    const sim::result rec = sim::simulate(llama70_tp8, t, recompute);
    const sim::result sw = sim::simulate(llama70_tp8, t, swap);
    const sim::result sw_fast = sim::simulate(fast, t, swap);
    const sim::result sw_slow = sim::simulate(slow, t, swap);
    for (const sim::result* r : {&rec, &sw, &sw_fast, &sw_slow}) {
        CHECK(r->completed == 600);
        CHECK(r->output_tokens == 600.0 * 4000.0);
        double tokens_out = 0;
        for (const sim::request_result& q : r->requests) tokens_out += q.output;
        CHECK(tokens_out == r->output_tokens);
        CHECK(r->preemptions > 0);
    }
    CHECK(rec.swap_s == 0.0);
    CHECK(sw.swap_s > 0.0);
    // Swapping moves the context twice (out and in) but computes nothing again: it wins when the
    // host link is fast, loses when it is slow.
    INFO("mean E2E: recompute " << rec.e2e.mean << " s, swap " << sw.e2e.mean << " s, fast link " << sw_fast.e2e.mean
                                << " s, slow link " << sw_slow.e2e.mean << " s");
    CHECK(sw_fast.makespan < rec.makespan);
    CHECK(sw_slow.makespan > rec.makespan);
    CHECK(sw_fast.makespan <= sw.makespan);
    CHECK(sw.makespan <= sw_slow.makespan);
}

TEST_CASE("simulator: disaggregated TTFT is prefill + KV transfer + one decode step") {
    // dp = 2: one server prefills, the other decodes. Requests 100 s apart never meet.
    const auto apart = spaced(10, 100.0, 1000, 200);
    const sim::result dis = sim::simulate(llama8_dp2, apart, {.prefill_servers = 1});
    const sim::result col = sim::simulate(llama8_dp2, apart);
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    const double transfer = kv_transfer_for(llama8_dp2, 1000_tok, kv_path::scale_out).time.value();
    const double first_step = decode_pass(llama8, 1.0, 1000_tok).time().value();
    CHECK(dis.completed == 10);
    CHECK(dis.output_tokens == 10 * 200);
    CHECK(col.ttft.p50 == doctest::Approx(prefill).epsilon(1e-9));
    CHECK(dis.ttft.p50 == doctest::Approx(prefill + transfer + first_step).epsilon(1e-9));
    CHECK(dis.kv_transfer_s == doctest::Approx(transfer).epsilon(1e-12));
    // The answer's other 199 tokens come from the same steps either way (contexts 1,001 … 1,199);
    // the disaggregated request also waits for the transfer and decodes its first token.
    CHECK(dis.tpot.p50 == doctest::Approx(col.tpot.p50).epsilon(1e-12));
    CHECK(dis.e2e.p50 == doctest::Approx(col.e2e.p50 + transfer + first_step).epsilon(1e-9));
    CHECK(dis.queue.max == 0.0);
}

TEST_CASE("simulator: disaggregated pools under load answer every request once, with all its tokens") {
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .layout = {.dp = 4}};
    const workload::traffic t{.input = workload::lognormal(1500_tok, 1500_tok, 16000_tok),
                              .output = workload::uniform(20_tok, 400_tok), .arrivals = workload::poisson(8_ms)};
    const sim::result r = sim::simulate(d, t, {.requests = 3000, .seed = 9, .prefill_servers = 1});
    CHECK(r.completed == 3000);
    double tokens_out = 0;
    bool ordered = true;
    for (const sim::request_result& q : r.requests) {
        tokens_out += q.output;
        // The first token cannot come before the prompt's prefill and its transfer.
        const double floor = prefill_pass(d, 1.0, tokens(q.input), 0_tok).time().value() +
                             kv_transfer_for(d, tokens(q.input), kv_path::scale_out).time.value();
        ordered = ordered && q.queue >= 0 && q.ttft >= floor * (1 - 1e-12) && q.e2e >= q.ttft;
    }
    CHECK(ordered);
    CHECK(r.output_tokens == tokens_out);
    CHECK(r.utilisation > 0);
    CHECK(r.utilisation <= 1.0);
    // Same seed, same figures.
    const sim::result again = sim::simulate(d, t, {.requests = 3000, .seed = 9, .prefill_servers = 1});
    CHECK(same_bits(r, again));
}

TEST_CASE("simulator: bad feature options are refused with the rule") {
    const auto one = spaced(1, 1.0, 100, 10);
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8_dp2, one, {.prefill_servers = 2}); }),
                         "[llmcost.simulate.prefill_servers]"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.prefill_servers = 1}); }),
                         "fewer prefill servers than its dp · pp servers (1)"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.prefix_hit_rate = 1.5}); }),
                         "[llmcost.simulate.prefix_hit_rate]"));
    // 1 too, as request_shape::cached_fraction refuses it: the prompt's last token is always computed (audit 40, F6)
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.prefix_hit_rate = 1.0}); }),
                         "prefix_hit_rate = 1: a prefix-cache hit rate is in [0, 1)"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8_dp2, one, {.prefill_servers = 0.5}); }),
                         "a whole number of servers"));
    // A token cap under one token let a chunked prompt be cut to nothing, step after step.
    CHECK(test::contains(test::error_of([&] {
                             return sim::simulate(llama8, one, {.limits = {.max_tokens_per_step = 0.5, .prefill_chunk = 100_tok}});
                         }),
                         "[llmcost.simulate.max_tokens]"));
}

TEST_CASE("simulator: the features together under load still answer every request once, bit for bit again") {
    // Optimistic KV with swap, a prefix hit rate, chunked prompts under a token cap, and a 1P:3D
    // split, at a load that preempts: every request answered once with all its tokens counted, and
    // the same seed giving the same figures.
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8, .dp = 4}};
    // (A prefix share of 0.3 leaves fractional cached tokens unless rounded to whole ones: this case
    // once spun on a 4·10⁻¹³-token chunk.)
    const workload::traffic t{.input = workload::lognormal(1000_tok, 1000_tok, 30000_tok),
                              .output = workload::lognormal(4000_tok, 4000_tok, 30000_tok),
                              .arrivals = workload::gamma(25_ms, 2.0)};
    const sim::options o{.limits = {.max_tokens_per_step = 8192, .reserve_full_sequence = false, .prefill_chunk = 2048_tok},
                         .requests = 4000, .seed = 4, .preempt = sim::preemption::swap, .prefix_hit_rate = 0.3,
                         .prefill_servers = 1};
    const sim::result r = sim::simulate(d, t, o);
    CHECK(r.completed == 4000);
    double tokens_out = 0, preempted = 0;
    bool ordered = true;
    for (const sim::request_result& q : r.requests) {
        tokens_out += q.output;
        preempted += q.preemptions;
        ordered = ordered && q.queue >= 0 && q.ttft > q.queue && q.e2e >= q.ttft;
    }
    CHECK(ordered);
    CHECK(r.output_tokens == tokens_out);
    CHECK(r.preemptions == preempted);
    CHECK(r.preemptions > 0);
    CHECK(r.swap_s > 0);
    CHECK(r.cached_prompt_tokens > 0);
    CHECK(r.cached_prompt_tokens < 0.3 * r.prompt_tokens + 1.0);
    CHECK(same_bits(r, sim::simulate(d, t, o)));
}

TEST_CASE("simulator: a scheduler that polls every N decode steps holds a new request for them") {
    // Request A (1000 → 200) alone from t = 0; request B (1000 → 50) arrives in the middle of A's first
    // decode step. Polling every step (N = 1), B is taken at the end of that step and prefilled in
    // the next. Polling every 10 decode steps (SGLang --scheduler-recv-interval 10: the count restarts
    // after A's prompt step), B waits for decode steps 2 … 10 too: A alone at contexts 1,002 … 1,010.
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    const double first_decode = decode_pass(llama8, 1.0, 1001_tok).time().value();
    std::vector<workload::request> two{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                       {.arrival = seconds(prefill + first_decode / 2), .input = 1000_tok, .output = 50_tok}};
    const sim::result every = sim::simulate(llama8, two, {.limits = {.receive_interval = 1}});
    const sim::result tenth = sim::simulate(llama8, two, {.limits = {.receive_interval = 10}});
    double nine_steps = 0;
    for (double c = 1002; c <= 1010; ++c) nine_steps += decode_pass(llama8, 1.0, tokens(c)).time().value();
    REQUIRE(every.requests.size() == 2);
    CHECK(every.requests[1].queue == doctest::Approx(first_decode / 2).epsilon(1e-9));
    CHECK(tenth.requests[1].queue == doctest::Approx(first_decode / 2 + nine_steps).epsilon(1e-9));
    // Its prompt step then carries A's decode at context 1,011 instead of 1,002: nine tokens of
    // attention more, well under a thousandth of the nine steps.
    CHECK(tenth.requests[1].ttft - every.requests[1].ttft == doctest::Approx(nine_steps).epsilon(1e-3));
    // A was never waiting: an idle engine polls at once.
    CHECK(tenth.requests[0].ttft == every.requests[0].ttft);
    CHECK(tenth.completed == 2);
    CHECK(tenth.output_tokens == 250);
    // A lone request never waits for a poll: the same run, bit for bit.
    const auto one = spaced(3, 100.0, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, one, {.limits = {.receive_interval = 30}}), sim::simulate(llama8, one)));
    // Under a closed loop of 16 clients every new prompt lands among decodes: the mean queue grows
    // with N, and every request is still answered once.
    const workload::traffic loop{.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok),
                                 .arrivals = workload::closed_loop(16)};
    const sim::result n1 = sim::simulate(llama8, loop, {.requests = 160, .keep_requests = false});
    const sim::result n30 = sim::simulate(llama8, loop, {.limits = {.receive_interval = 30}, .requests = 160, .keep_requests = false});
    CHECK(n30.completed == 160);
    CHECK(n30.output_tokens == n1.output_tokens);
    CHECK(n30.queue.mean > n1.queue.mean);
    CHECK(n30.ttft.mean > n1.ttft.mean);
    // Refused, named.
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.receive_interval = 0.5}}); }),
                         "receive_interval (decode steps) = 0.5"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.receive_interval = 2.5}}); }),
                         "a whole number of decode steps between polls for new requests"));
}

TEST_CASE("simulator: an overlap loop's closed-loop lag, by hand") {
    // Two clients, prompts of 1,000 tokens, answers drawn from 50 … 200 tokens. The shorter answer (o_s tokens)
    // ends at the end of step j; the other has then o_s tokens too and keeps decoding alone. Without the lag (L = 0)
    // the freed client's next prompt is taken at once and rides in step j + 1: it never queues. With L = 2 (SGLang's
    // overlap loop) the engine first runs steps j + 1 and j + 2, the other answer alone at contexts 1,000 + o_s and
    // 1,000 + o_s + 1: the prompt's queue is exactly those two decode steps (5 to 50 ms together on this deployment, checked
    // below: with t_d = 10 ms the prompt would start 20 ms after the answer's last step instead of at once).
    const workload::traffic two{.input = workload::fixed(1000_tok), .output = workload::uniform(50_tok, 200_tok),
                                .arrivals = workload::closed_loop(2)};
    // The first seed whose two opening answers differ by 3 tokens or more (the other answer runs through both steps).
    std::uint64_t seed = 1;
    auto gap_of = [&](std::uint64_t k) {
        const sim::result x = sim::simulate(llama8, two, {.requests = 3, .seed = k});
        return std::abs(x.requests[0].output - x.requests[1].output);
    };
    while (gap_of(seed) < 3.0 && seed < 64) ++seed;
    const sim::result none = sim::simulate(llama8, two, {.limits = {.overlap_lag_steps = 0.0}, .requests = 3, .seed = seed});
    const sim::result lag2 = sim::simulate(llama8, two, {.limits = {.overlap_lag_steps = 2.0}, .requests = 3, .seed = seed});
    REQUIRE(lag2.requests.size() == 3);
    const double o_short = std::min(lag2.requests[0].output, lag2.requests[1].output);
    const double o_long = std::max(lag2.requests[0].output, lag2.requests[1].output);
    REQUIRE(o_long >= o_short + 3.0);
    const double two_steps = decode_pass(llama8, 1.0, tokens(1000.0 + o_short)).time().value() +
                             decode_pass(llama8, 1.0, tokens(1000.0 + o_short + 1.0)).time().value();
    CHECK(two_steps > 0.005);
    CHECK(two_steps < 0.05);
    CHECK(none.requests[2].queue == 0.0);
    CHECK(lag2.requests[2].queue == doctest::Approx(two_steps).epsilon(1e-9));
    // Sent when the answer ended: its arrival is the same, its TTFT longer by the two steps (its prompt step then
    // carries the other answer at a context two tokens longer: well under a thousandth of them).
    CHECK(lag2.requests[2].arrival == none.requests[2].arrival);
    CHECK(lag2.requests[2].ttft - none.requests[2].ttft == doctest::Approx(two_steps).epsilon(1e-3));
    // The opening is not lagged: the first two are alike.
    CHECK(lag2.requests[0].ttft == none.requests[0].ttft);
    CHECK(lag2.requests[1].ttft == none.requests[1].ttft);
    // One client: after each answer the engine runs nothing (no step in flight), so it takes the next prompt at
    // once: the same run, bit for bit.
    const workload::traffic one{.input = workload::fixed(1000_tok), .output = workload::fixed(100_tok),
                                .arrivals = workload::closed_loop(1)};
    CHECK(same_bits(sim::simulate(llama8, one, {.limits = {.overlap_lag_steps = 2.0}, .requests = 4}),
                    sim::simulate(llama8, one, {.requests = 4})));
}

TEST_CASE("simulator: an overlap lag of 0 is today's run bit for bit, a lag answers every request once, later") {
    const workload::traffic loop{.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok),
                                 .arrivals = workload::closed_loop(16)};
    const sim::options today{.requests = 160, .keep_requests = false};
    const sim::result base = sim::simulate(llama8, loop, today);
    CHECK(same_bits(sim::simulate(llama8, loop, {.limits = {.overlap_lag_steps = 0.0}, .requests = 160, .keep_requests = false}), base));
    // Open arrivals with L = 0: today's run bit for bit (their lag, L − 1 steps, is the next test's).
    const auto open = spaced(40, 0.05, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, open, {.limits = {.overlap_lag_steps = 0.0}}), sim::simulate(llama8, open)));
    const sim::result lag2 = sim::simulate(llama8, loop, {.limits = {.overlap_lag_steps = 2.0}, .requests = 160, .keep_requests = false});
    CHECK(lag2.completed == 160);
    CHECK(lag2.output_tokens == base.output_tokens);
    CHECK(lag2.queue.mean > base.queue.mean);
    CHECK(lag2.ttft.mean > base.ttft.mean);
    // SGLang's profiles carry the overlap loop's 2 steps, the others none; the engine defaults leave the limit open
    // (L has one resolver, `detail::overlap_lag_of`: the engine's where open, a caller's own figure wins).
    CHECK(catalog::sglang_hopper.scheduler.overlap_schedule_steps == 2.0);
    CHECK(catalog::sglang_cdna4.scheduler.overlap_schedule_steps == 2.0);
    CHECK(catalog::vllm_hopper.scheduler.overlap_schedule_steps == 0.0);
    CHECK(catalog::trtllm_blackwell.scheduler.overlap_schedule_steps == 0.0);
    CHECK_FALSE(with_engine_defaults({}, catalog::sglang_blackwell).overlap_lag_steps.has_value());
    CHECK(detail::overlap_lag_of(with_engine_defaults({}, catalog::sglang_blackwell), catalog::sglang_blackwell) == 2.0);
    CHECK(detail::overlap_lag_of(with_engine_defaults({}, catalog::vllm_blackwell), catalog::vllm_blackwell) == 0.0);
    CHECK(with_engine_defaults({.overlap_lag_steps = 0.0}, catalog::sglang_blackwell).overlap_lag_steps == 0.0);
    CHECK(detail::overlap_lag_of({.overlap_lag_steps = 0.0}, catalog::sglang_blackwell) == 0.0);
    // Refused, named.
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, loop, {.limits = {.overlap_lag_steps = 1.5}, .requests = 4}); }),
                         "overlap_lag_steps (steps) = 1.5"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, loop, {.limits = {.overlap_lag_steps = -1.0}, .requests = 4}); }),
                         "a whole number of scheduler steps from 0 (none) to 16"));
    engine_profile bad = catalog::sglang_hopper;
    bad.scheduler.overlap_schedule_steps = 2.5;
    CHECK(test::contains(test::error_of([&] { bad.validate(); return 0; }), "scheduler.overlap_schedule_steps"));
}

TEST_CASE("overlap lag: one rule for the engine's and the scheduler's figure, the message naming field, value and rule") {
    CHECK(is_overlap_lag(0.0));
    CHECK(is_overlap_lag(2.0));
    CHECK(is_overlap_lag(16.0));
    CHECK_FALSE(is_overlap_lag(17.0));
    CHECK_FALSE(is_overlap_lag(-1.0));
    CHECK_FALSE(is_overlap_lag(0.5));
    CHECK_FALSE(is_overlap_lag(std::numeric_limits<double>::quiet_NaN()));
    engine_profile bad = catalog::sglang_hopper;
    bad.scheduler.overlap_schedule_steps = 17.0;
    const std::string engine_error = test::error_of([&] { bad.validate(); return 0; });
    CHECK(test::contains(engine_error, "scheduler.overlap_schedule_steps = 17"));
    CHECK(test::contains(engine_error, overlap_lag_rule));
    const std::string limits_error = test::error_of([&] { scheduler_limits{.overlap_lag_steps = 17.0}.validate(); return 0; });
    CHECK(test::contains(limits_error, "overlap_lag_steps (steps) = 17"));
    CHECK(test::contains(limits_error, overlap_lag_rule));
}

TEST_CASE("simulator: a direct call on an SGLang engine with default limits runs the engine's overlap lag") {
    // No `with_engine_defaults`: the simulator resolves L itself (`detail::overlap_lag_of`), the engine's 2 here.
    deployment sglang = llama8;
    sglang.engine = catalog::sglang_hopper;
    REQUIRE(sglang.engine.scheduler.overlap_schedule_steps == 2.0);
    const workload::traffic loop{.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok),
                                 .arrivals = workload::closed_loop(16)};
    const sim::result plain = sim::simulate(sglang, loop, {.requests = 64, .keep_requests = false});
    const sim::result two = sim::simulate(sglang, loop, {.limits = {.overlap_lag_steps = 2.0}, .requests = 64, .keep_requests = false});
    const sim::result none = sim::simulate(sglang, loop, {.limits = {.overlap_lag_steps = 0.0}, .requests = 64, .keep_requests = false});
    CHECK(same_bits(plain, two));
    CHECK(plain.ttft.mean > none.ttft.mean);  // the caller's 0 wins over the engine's 2
    // Through the engine defaults (the CLI's and the Python module's path), which leave L open: the same L = 2, and a
    // caller's 0 still wins.
    const sim::result defaults =
        sim::simulate(sglang, loop, {.limits = with_engine_defaults({}, sglang.engine), .requests = 64, .keep_requests = false});
    const sim::result defaults_two = sim::simulate(
        sglang, loop, {.limits = with_engine_defaults({.overlap_lag_steps = 2.0}, sglang.engine), .requests = 64, .keep_requests = false});
    const sim::result defaults_none = sim::simulate(
        sglang, loop, {.limits = with_engine_defaults({.overlap_lag_steps = 0.0}, sglang.engine), .requests = 64, .keep_requests = false});
    CHECK(same_bits(defaults, defaults_two));
    CHECK(defaults.ttft.mean > defaults_none.ttft.mean);
}

TEST_CASE("simulator: an overlap loop delays an open arrival by one step more, by hand") {
    // A (1000 → 200) at 0; B (1000 → 50) arrives in the middle of A's first decode step (context 1,001, d1). Without
    // the overlap B is taken at that step's end: its queue is the residual d1 / 2. With L = 2 (SGLang) the turn at the
    // end of step k has already launched step k + 1 (A's decode alone at context 1,002, d2): B waits d1 / 2 + d2,
    // L − 1 = 1 step more. Its arrival is the same.
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    const double d1 = decode_pass(llama8, 1.0, 1001_tok).time().value();
    const double d2 = decode_pass(llama8, 1.0, 1002_tok).time().value();
    const std::vector<workload::request> two{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                             {.arrival = seconds(prefill + d1 / 2), .input = 1000_tok, .output = 50_tok}};
    const sim::result none = sim::simulate(llama8, two, {.limits = {.overlap_lag_steps = 0.0}});
    const sim::result lag2 = sim::simulate(llama8, two, {.limits = {.overlap_lag_steps = 2.0}});
    REQUIRE(lag2.requests.size() == 2);
    CHECK(none.requests[1].queue == doctest::Approx(d1 / 2).epsilon(1e-9));
    CHECK(lag2.requests[1].queue == doctest::Approx(d1 / 2 + d2).epsilon(1e-9));
    CHECK(lag2.requests[1].arrival == none.requests[1].arrival);
    CHECK(lag2.requests[0].ttft == none.requests[0].ttft);  // A found the engine idle: taken at once
    CHECK(lag2.completed == 2);
    CHECK(lag2.output_tokens == 250);
    // L = 3 waits two steps more (d2 and A's decode at 1,003).
    const double d3 = decode_pass(llama8, 1.0, 1003_tok).time().value();
    CHECK(sim::simulate(llama8, two, {.limits = {.overlap_lag_steps = 3.0}}).requests[1].queue ==
          doctest::Approx(d1 / 2 + d2 + d3).epsilon(1e-9));
    // Idle engine: each request arrives after the one before has ended: taken at once, bit for bit; L = 1 (no extra
    // step) bit for bit the run without the field.
    const auto apart = spaced(3, 100.0, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, apart, {.limits = {.overlap_lag_steps = 2.0}}), sim::simulate(llama8, apart)));
    const auto busy = spaced(40, 0.05, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, busy, {.limits = {.overlap_lag_steps = 1.0}}), sim::simulate(llama8, busy)));
    const sim::result busy2 = sim::simulate(llama8, busy, {.limits = {.overlap_lag_steps = 2.0}});
    CHECK(busy2.completed == 40);
    CHECK(busy2.ttft.mean > sim::simulate(llama8, busy).ttft.mean);
    static_assert(detail::open_arrival_lag_steps(0.0) == 0.0);
    static_assert(detail::open_arrival_lag_steps(2.0) == 1.0);
}

TEST_CASE("closed form: an online arrival on an overlap loop waits one mean step more when the engine is busy") {
    // Poisson arrivals at 4 a second on Llama-3.1-8B / H100 under SGLang (L = 2): the busy share (1 − ι) of them waits
    // L − 1 = 1 step of the run more; without the overlap (L = 0) none. The lagged TTFT exceeds the plain one by
    // about (1 − ι)·t̄ (the run it sits in holds a little more: within half of it either way, two runs compared); TPOT
    // hardly moves. The lag's exact share of one run's TTFT is the test "the open arrival's lag wait … by hand" below.
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::sglang_hopper};
    deployment none = d;
    none.engine.scheduler.overlap_schedule_steps = 0.0;
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const online_latency x = serve_online_latency(d, r, 0.25_s), a = serve_online_latency(none, r, 0.25_s);
    const double lagged = (1.0 - x.steps.idle) * x.point.step_time.value();
    CHECK(lagged > 0.0);
    const double wait = (x.point.ttft - a.point.ttft).value();
    CHECK(wait > 0.5 * lagged);
    CHECK(wait < 1.5 * lagged);
    CHECK(x.point.tpot.value() == doctest::Approx(a.point.tpot.value()).epsilon(0.02));
    // A caller's L = 0 is the engine without the overlap, bit for bit.
    CHECK(serve_online_latency(d, r, 0.25_s, {.overlap_lag_steps = 0.0}).point.ttft == a.point.ttft);
    // The same on the engine's own limits (its prompt chunk: the chunked path), and at a given batch: the caller's
    // L = 0 wins over the engine's L in the steady point too, and no closed loop's lag enters the open arrivals'
    // fixed point (`overlap_lag_of`; the session 49 review's findings 1-3).
    const scheduler_limits mine = with_engine_defaults(scheduler_limits{}, d.engine);
    scheduler_limits mine0 = mine;
    mine0.overlap_lag_steps = 0.0;
    const scheduler_limits plain = with_engine_defaults(scheduler_limits{}, none.engine);
    REQUIRE(mine.prefill_chunk.value() > 0.0);
    const online_latency chunked = serve_online_latency(d, r, 0.25_s, mine0);
    CHECK(chunked.point.ttft == serve_online_latency(none, r, 0.25_s, plain).point.ttft);
    CHECK(chunked.point.e2e == serve_online_latency(none, r, 0.25_s, plain).point.e2e);
    CHECK(serve_at_batch(d, r, 8.0, mine0).ttft == serve_at_batch(none, r, 8.0, plain).ttft);
    CHECK(serve_at_batch(d, r, 8.0, mine).ttft > serve_at_batch(none, r, 8.0, plain).ttft);
}

TEST_CASE("closed form: the open arrival's lag wait, (L − 1)⁺ · t̄, by hand, in the mean TTFT and in its percentiles") {
    // The formula: L = 2 with a 10 ms step waits one step, 10 ms; L = 3 two, 20 ms; L = 1 and L = 0 none.
    static_assert(detail::open_arrival_lag_wait(2.0, seconds(0.010)) == seconds(0.010));
    static_assert(detail::open_arrival_lag_wait(3.0, seconds(0.010)) == seconds(0.020));
    static_assert(detail::open_arrival_lag_wait(1.0, seconds(0.010)) == seconds(0.0));
    static_assert(detail::open_arrival_lag_wait(0.0, seconds(0.010)) == seconds(0.0));
    // Whole prompts at 4 arrivals a second on Llama-3.1-8B / H100 under SGLang: the run is rooted, and its mean TTFT is,
    // term by term, F + E[TTFT_engine] + (1 − ι)·(L − 1)·t̄ + W, t̄ the loop's root (`decoding.step`), ι the chance an
    // arrival finds the engine empty. Checked: open_lag ÷ ((1 − ι)·t̄) = L − 1 for each run (L = 2 and 3 are two runs).
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::sglang_hopper};
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    for (const double lag : {2.0, 3.0}) {
        const online_latency x = serve_online_latency(d, r, 0.25_s, {.overlap_lag_steps = lag});
        REQUIRE(x.rooted);
        REQUIRE(x.whole_prompts);
        const double busy = 1.0 - x.steps.idle, t = x.decoding.step.value();
        REQUIRE(busy > 0.0);
        const double lag_wait = busy * (lag - 1.0) * t;
        CHECK(x.open_lag.value() == doctest::Approx(lag_wait).epsilon(1e-12));
        CHECK(x.open_lag.value() / (busy * t) == doctest::Approx(lag - 1.0).epsilon(1e-12));
        const double mean = x.point.front_end.value() + queueing::first_token_mean(x.steps).value() + lag_wait + x.admission.value();
        CHECK(x.point.ttft.value() == doctest::Approx(mean).epsilon(1e-12));
        // The percentiles carry the same lag wait (a shift by its mean, as the wait for a slot): p50 and p90.
        for (const double q : {0.5, 0.9}) {
            const double p = x.point.front_end.value() + queueing::first_token_quantile(x.steps, q).value() + lag_wait +
                             x.admission.value();
            CHECK(ttft_percentile(x, q).value() == doctest::Approx(p).epsilon(1e-12));
        }
    }
    // Without the overlap the lag term is 0 and the percentile is the steps' quantile alone.
    const online_latency a = serve_online_latency(d, r, 0.25_s, {.overlap_lag_steps = 0.0});
    CHECK(a.open_lag.value() == 0.0);
    CHECK(ttft_percentile(a, 0.9) == client_first_token(queueing::first_token_quantile(a.steps, 0.9) + a.admission, a.point.front_end));
}

TEST_CASE("closed form: a steady closed loop's TTFT waits for the overlap loop's lag, as the simulator's") {
    // b = 8 in a steady closed loop on SGLang's overlap loop (L = 2): my next prompt is launched behind the two
    // decode steps of the other 7 answers already in flight, each between t(7 decodes at the prompt's context) and
    // t(7 at prompt + answer). The same deployment without the lag prices the same TPOT and rate, its TTFT by exactly
    // that much less; at b = 1 no other answer runs and nothing changes.
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::sglang_hopper};
    deployment none = d;
    none.engine.scheduler.overlap_schedule_steps = 0.0;
    const request_shape r{.input = 1000_tok, .output = 200_tok};
    const serving_point x = serve_at_batch(d, r, 8.0), a = serve_at_batch(none, r, 8.0);
    const double wait = (x.ttft - a.ttft).value();
    CHECK(wait >= 2.0 * decode_pass(d, 7.0, 1000_tok).time().value() * (1.0 - 1e-9));
    CHECK(wait <= 2.0 * decode_pass(d, 7.0, 1200_tok).time().value() * (1.0 + 1e-9));
    CHECK(x.tpot == a.tpot);
    CHECK(x.output_rate == a.output_rate);
    CHECK(serve_at_batch(d, r, 1.0).ttft == serve_at_batch(none, r, 1.0).ttft);
    static_assert(detail::overlap_lag_wait(2.0, 0.01, 0.0) == 0.0);
    static_assert(detail::overlap_lag_wait(2.0, 0.01, 7.0) == 0.02);
    static_assert(detail::overlap_lag_wait(2.0, 0.01, 0.5) == 0.01);
}

TEST_CASE("simulator: prefill batches alone hold the running answers for the prompt step") {
    // A (1000 → 200) decodes alone; B (1000 → 50) arrives in the middle of A's first decode step.
    // Mixed (vLLM, TensorRT-LLM): B's prompt rides with A's decode in one step. Alone (SGLang without
    // --enable-mixed-chunk): the step carries B's 1,000 prompt tokens only — the prefill pass of one
    // 1,000-token prompt — and A's next token waits for it.
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    const double first_decode = decode_pass(llama8, 1.0, 1001_tok).time().value();
    std::vector<workload::request> two{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                       {.arrival = seconds(prefill + first_decode / 2), .input = 1000_tok, .output = 50_tok}};
    const sim::result mixed = sim::simulate(llama8, two);
    const sim::result alone = sim::simulate(llama8, two, {.limits = {.prefill_alone = true}});
    REQUIRE(alone.requests.size() == 2);
    CHECK(alone.requests[1].queue == doctest::Approx(first_decode / 2).epsilon(1e-9));
    CHECK(alone.requests[1].ttft - alone.requests[1].queue == doctest::Approx(prefill).epsilon(1e-9));
    CHECK(mixed.requests[1].ttft - mixed.requests[1].queue > prefill);
    // A's answer takes one step more: B's prompt step, in which A emitted nothing.
    CHECK(alone.requests[0].e2e > mixed.requests[0].e2e);
    CHECK(alone.steps == mixed.steps + 1);
    CHECK(alone.completed == 2);
    CHECK(alone.output_tokens == 250);
    // A lone request never meets another's prompt: the same run, bit for bit.
    const auto one = spaced(3, 100.0, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, one, {.limits = {.prefill_alone = true}}), sim::simulate(llama8, one)));
}

TEST_CASE("simulator: a minimum of waiting prompts holds a lone prompt for one pass, every other pass") {
    // AMD's MLPerf vLLM scheduler with Q = 2 (VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY) and a pass
    // every step: a pass admits with fewer than Q waiting only when the pass before declined, and a
    // pass allowed to admit uses up the turn whether or not a prompt waits. A (1000 → 200) starts on
    // an idle engine (its pass admits, the turn used). After A's prompt step, the pass declines (turn
    // back), the next may admit (turn used, nothing waits), the next declines, the next may admit …:
    // the passes before A's decode steps at contexts 1,001, 1,002, 1,003, 1,004 decline, admit, decline, admit.
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    std::vector<double> d(6);  // d[k]: A's decode step at context 1,000 + k
    for (std::size_t k = 1; k < d.size(); ++k) d[k] = decode_pass(llama8, 1.0, tokens(1000.0 + static_cast<double>(k))).time().value();
    auto b_at = [&](double t) {
        return std::vector<workload::request>{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                              {.arrival = seconds(t), .input = 1000_tok, .output = 50_tok}};
    };
    const sim::options q2{.limits = {.min_waiting_prompts = 2}};
    // B lands in the middle of the step at context 1,002: the pass after it declines (one waiting,
    // the turn used), so B waits for the step at 1,003 too.
    const auto in_second = b_at(prefill + d[1] + d[2] / 2);
    const sim::result held = sim::simulate(llama8, in_second, q2);
    REQUIRE(held.requests.size() == 2);
    CHECK(held.requests[1].queue == doctest::Approx(d[2] / 2 + d[3]).epsilon(1e-9));
    CHECK(sim::simulate(llama8, in_second).requests[1].queue == doctest::Approx(d[2] / 2).epsilon(1e-9));
    // B lands in the step at context 1,003: the pass after it may admit (the one before declined).
    const auto in_third = b_at(prefill + d[1] + d[2] + d[3] / 2);
    CHECK(sim::simulate(llama8, in_third, q2).requests[1].queue == doctest::Approx(d[3] / 2).epsilon(1e-9));
    // Two prompts landing together in the step at 1,002 are Q: the next pass admits both.
    std::vector<workload::request> three = in_second;
    three.push_back(three.back());
    const sim::result both = sim::simulate(llama8, three, q2);
    CHECK(both.requests[1].queue == doctest::Approx(d[2] / 2).epsilon(1e-9));
    CHECK(both.requests[2].queue == doctest::Approx(d[2] / 2).epsilon(1e-9));
    // With passes every 4 decode steps (vLLM V0's num_scheduler_steps 4): after A's prompt step the
    // pass declines and A decodes 1,001 … 1,004; B, landing in the step at 1,002, is admitted at the
    // next pass (the turn came back): it waits for the rest of that block.
    const sim::result block = sim::simulate(llama8, in_second, {.limits = {.receive_interval = 4, .min_waiting_prompts = 2}});
    CHECK(block.requests[1].queue == doctest::Approx(d[2] / 2 + d[3] + d[4]).epsilon(1e-9));
    CHECK(block.completed == 2);
    CHECK(block.output_tokens == 250);
    // A lone request, every time on an idle engine: the same run, bit for bit.
    const auto one = spaced(3, 100.0, 1000, 200);
    CHECK(same_bits(sim::simulate(llama8, one, q2), sim::simulate(llama8, one)));
    // Poisson traffic: every request answered once, its tokens counted; the hold only lengthens the queue.
    const workload::traffic poisson{.input = workload::fixed(500_tok), .output = workload::fixed(100_tok),
                                    .arrivals = workload::poisson(20_ms)};
    const sim::result fcfs = sim::simulate(llama8, poisson, {.requests = 600, .keep_requests = false});
    const sim::result q8 = sim::simulate(llama8, poisson, {.limits = {.min_waiting_prompts = 8}, .requests = 600, .keep_requests = false});
    CHECK(q8.completed == 600);
    CHECK(q8.output_tokens == 600 * 100);
    CHECK(q8.queue.mean > fcfs.queue.mean);
    // Refused, named.
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.min_waiting_prompts = 0}}); }),
                         "min_waiting_prompts = 0"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.min_waiting_prompts = 2.5}}); }),
                         "a whole number of waiting prompts before a scheduler pass admits any"));
}

TEST_CASE("simulator: a V0 multi-step block runs whole, its answers ending at its end") {
    // vLLM V0 with num_scheduler_steps N and no async output processor (enforce_eager: ROCm/vllm
    // @71faa1880 vllm/platforms/rocm.py is_async_output_supported): a pass gives every decode N steps,
    // and the block's outputs, stop checks included, are processed after its last step
    // (vllm/engine/llm_engine.py step; docs/vllm-v0-multistep-first-token.md). A prompt step is a
    // block of one step: the first token comes out at its end.
    const double prefill = prefill_pass(llama8, 1.0, 1000_tok, 0_tok).time().value();
    std::vector<double> d(41);  // d[k]: a lone decode step at context 1,000 + k
    for (std::size_t k = 1; k < d.size(); ++k) d[k] = decode_pass(llama8, 1.0, tokens(1000.0 + static_cast<double>(k))).time().value();
    auto sum = [&](std::size_t from, std::size_t to) {
        double s = 0;
        for (std::size_t k = from; k <= to; ++k) s += d[k];
        return s;
    };
    auto v0 = [](double n) { return sim::options{.limits = {.receive_interval = n, .prefill_alone = true, .outputs_per_block = true}}; };
    // One request (1000 → O) at t = 0 on an idle engine: its TTFT is its prompt step, whatever N;
    // its answer needs O − 1 decode steps but ends only with its last block, ⌈(O − 1) ÷ N⌉ · N steps
    // (the steps past its last token at contexts up to 1,000 + that count, their tokens dropped).
    struct lone_case {
        double output, blocks_of;
        std::size_t steps;  // ⌈(O − 1) ÷ N⌉ · N, worked out by hand
    };
    for (const lone_case c : {lone_case{4, 10, 10}, lone_case{11, 10, 10}, lone_case{12, 10, 20}, lone_case{25, 8, 24},
                              lone_case{26, 8, 32}}) {
        CAPTURE(c.output);
        CAPTURE(c.blocks_of);
        const std::vector<workload::request> a{{.arrival = 0_s, .input = 1000_tok, .output = tokens(c.output)}};
        const sim::result r = sim::simulate(llama8, a, v0(c.blocks_of));
        REQUIRE(r.requests.size() == 1);
        CHECK(r.requests[0].ttft == doctest::Approx(prefill).epsilon(1e-12));
        CHECK(r.requests[0].e2e == doctest::Approx(prefill + sum(1, c.steps)).epsilon(1e-12));
        CHECK(r.requests[0].tpot == doctest::Approx(sum(1, c.steps) / (c.output - 1.0)).epsilon(1e-12));
        CHECK(r.output_tokens == c.output);  // the dropped tokens are not answers
        // Without the whole block the answer ends at its last token.
        const sim::result free = sim::simulate(llama8, a, {.limits = {.receive_interval = c.blocks_of, .prefill_alone = true}});
        CHECK(free.requests[0].e2e == doctest::Approx(prefill + sum(1, static_cast<std::size_t>(c.output) - 1)).epsilon(1e-12));
        CHECK(r.requests[0].e2e >= free.requests[0].e2e);
    }
    // A (1000 → 4) then B (1000 → 50), landing in the middle of A's 4th decode step, past A's last
    // token (N = 10). Answers ending at their last token: A is done after 3 steps, B finds the engine
    // idle and its TTFT is its prompt step. Blocks run whole: A's block runs on to its 10th step, and
    // B waits for it: d₄ ÷ 2 + d₅ + … + d₁₀, then its prompt step alone (A gone).
    const std::vector<workload::request> ab{{.arrival = 0_s, .input = 1000_tok, .output = 4_tok},
                                            {.arrival = seconds(prefill + sum(1, 3) + d[4] / 2), .input = 1000_tok, .output = 50_tok}};
    const sim::result ends_early = sim::simulate(llama8, ab, {.limits = {.receive_interval = 10, .prefill_alone = true}});
    const sim::result whole = sim::simulate(llama8, ab, v0(10));
    REQUIRE(whole.requests.size() == 2);
    CHECK(ends_early.requests[1].queue == 0.0);
    CHECK(ends_early.requests[1].ttft == doctest::Approx(prefill).epsilon(1e-12));
    CHECK(whole.requests[1].queue == doctest::Approx(d[4] / 2 + sum(5, 10)).epsilon(1e-9));
    CHECK(whole.requests[1].ttft == doctest::Approx(d[4] / 2 + sum(5, 10) + prefill).epsilon(1e-9));
    CHECK(whole.completed == 2);
    CHECK(whole.output_tokens == 54);
    // Property: B landing in A's first decode step (A: 1000 → 200, never done within these blocks)
    // waits for the rest of A's first block, d₁ ÷ 2 + d₂ + … + d_N: its TTFT never shortens as N grows.
    const std::vector<workload::request> early{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                               {.arrival = seconds(prefill + d[1] / 2), .input = 1000_tok, .output = 50_tok}};
    double last = 0;
    for (double n = 2; n <= 16; ++n) {
        CAPTURE(n);
        const sim::result r = sim::simulate(llama8, early, v0(n));
        CHECK(r.requests[1].queue == doctest::Approx(d[1] / 2 + sum(2, static_cast<std::size_t>(n))).epsilon(1e-9));
        CHECK(r.requests[1].ttft >= last);
        last = r.requests[1].ttft;
    }
    // Under Poisson traffic every request is answered once, with its own tokens only.
    const workload::traffic poisson{.input = workload::fixed(500_tok), .output = workload::uniform(20_tok, 120_tok),
                                    .arrivals = workload::poisson(20_ms)};
    const sim::result p = sim::simulate(llama8, poisson, {.limits = v0(8).limits, .requests = 600});
    const sim::result p_free = sim::simulate(llama8, poisson, {.limits = {.receive_interval = 8, .prefill_alone = true}, .requests = 600});
    CHECK(p.completed == 600);
    CHECK(p.output_tokens == p_free.output_tokens);
    CHECK(same_bits(p, sim::simulate(llama8, poisson, {.limits = v0(8).limits, .requests = 600})));
    // Refused, named: whole blocks need a block (N above 1) and prompt steps alone.
    const auto one = spaced(1, 1.0, 1000, 200);
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.prefill_alone = true, .outputs_per_block = true}}); }),
                         "[llmcost.serving.outputs_per_block]"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.receive_interval = 8, .outputs_per_block = true}}); }),
                         "need a block of decode steps (receive_interval above 1) and prompt steps alone"));
}

TEST_CASE("attention-DP balance: the rule's two counters, by hand") {
    // TensorRT-LLM's balance with timeout T = 5, batching wait W = 2. Every rank with answers running
    // and a free slot, but not every rank with a prompt: the waiting counter counts 1, 2, 3, 4 (held)
    // and at 5 the prompts enter, the counter back to 0.
    constexpr sim::adp_ranks_state some{.all_have_prompt = false, .all_have_free_slot = true, .all_have_answers = true};
    constexpr sim::adp_ranks_state all{.all_have_prompt = true, .all_have_free_slot = true, .all_have_answers = true};
    sim::adp_balance_counters c{};
    for (double k = 1; k <= 4; ++k) {
        const sim::adp_balance_decision d = sim::adp_balance_step(c, some, 5, 2);
        CHECK_FALSE(d.release);
        CHECK(d.next == sim::adp_balance_counters{.waiting = k, .batching = 0});
        c = d.next;
    }
    sim::adp_balance_decision d = sim::adp_balance_step(c, some, 5, 2);
    CHECK(d.release);
    CHECK(d.next == sim::adp_balance_counters{});
    // Three iterations in, every rank gets a prompt: the waiting counter resets and the batching wait
    // holds them two iterations (batching 1, 2); the third lets them in, batching back to 0.
    c = {.waiting = 3, .batching = 0};
    d = sim::adp_balance_step(c, all, 5, 2);
    CHECK_FALSE(d.release);
    CHECK(d.next == sim::adp_balance_counters{.waiting = 0, .batching = 1});
    d = sim::adp_balance_step(d.next, all, 5, 2);
    CHECK_FALSE(d.release);
    CHECK(d.next == sim::adp_balance_counters{.waiting = 0, .batching = 2});
    d = sim::adp_balance_step(d.next, all, 5, 2);
    CHECK(d.release);
    CHECK(d.next == sim::adp_balance_counters{});
    // A rank with no answer running lets the prompts in at once, either way (no one to wait for).
    CHECK(sim::adp_balance_step({.waiting = 1}, {.all_have_free_slot = true}, 5, 2).release);
    CHECK(sim::adp_balance_step({.waiting = 1}, {.all_have_free_slot = true}, 5, 2).next == sim::adp_balance_counters{});
    const sim::adp_balance_decision idle = sim::adp_balance_step({.waiting = 2, .batching = 1},
                                                                 {.all_have_prompt = true, .all_have_free_slot = true}, 5, 2);
    CHECK(idle.release);
    CHECK(idle.next == sim::adp_balance_counters{.waiting = 0, .batching = 1});  // the batching count is left as it was
    // A rank without a free slot is the waiting case even when every rank has a prompt.
    d = sim::adp_balance_step({}, {.all_have_prompt = true, .all_have_answers = true}, 5, 2);
    CHECK_FALSE(d.release);
    CHECK(d.next == sim::adp_balance_counters{.waiting = 1, .batching = 0});
    // Timeout 1, no batching wait: every iteration lets the prompts in, whatever the ranks say.
    for (int bits = 0; bits < 8; ++bits) {
        const sim::adp_ranks_state s{.all_have_prompt = (bits & 1) != 0, .all_have_free_slot = (bits & 2) != 0,
                                     .all_have_answers = (bits & 4) != 0};
        CHECK(sim::adp_balance_step({}, s, 1, 0).release);
        CHECK(sim::adp_balance_step({}, s, 1, 0).next == sim::adp_balance_counters{});
    }
    static_assert(!sim::adp_balance_step({}, some, 5, 2).release);
    static_assert(sim::adp_balance_step({.waiting = 4}, some, 5, 2).release);
    static_assert(sim::adp_balance_step({.batching = 2}, all, 5, 2).release);
}

TEST_CASE("attention-DP balance in the simulator: the timeout and the batching wait, by hand") {
    // gpt-oss-20b on two H100s, expert parallel 2 with attention DP 2 (R = 2). Request A (1000 → 200)
    // starts on an idle rank at t = 0; B (1000 → 50) arrives in the middle of A's first decode step on
    // the same rank (seed 2 sends both there: the plain run's B waits half that step).
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    REQUIRE(moe.attention_ranks() == 2);
    const double prefill = prefill_pass(moe, 1.0, 1000_tok, 0_tok).time().value();
    std::vector<double> dstep(6);  // dstep[k]: A's decode step at context 1,000 + k
    for (std::size_t k = 1; k < dstep.size(); ++k) dstep[k] = decode_pass(moe, 1.0, tokens(1000.0 + static_cast<double>(k))).time().value();
    const std::vector<workload::request> two{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                             {.arrival = seconds(prefill + dstep[1] / 2), .input = 1000_tok, .output = 50_tok}};
    const sim::result plain = sim::simulate(moe, two, {.seed = 2});
    REQUIRE(plain.requests.size() == 2);
    REQUIRE(plain.requests[1].queue == doctest::Approx(dstep[1] / 2).epsilon(1e-9));
    // The other rank never has a prompt (rate 0), T = 5: A's prompt step is iteration 0 (an idle rank
    // lets it in), A's decode steps iterations 1, 2, …, each counted; the count reaches 5 at iteration
    // 5, so B, waiting from iteration 2, is held through iterations 2, 3 and 4.
    const sim::result timeout = sim::simulate(moe, two, {.limits = {.adp_timeout_iters = 5}, .seed = 2, .adp_others_rate = per_second(0)});
    CHECK(timeout.requests[1].queue == doctest::Approx(dstep[1] / 2 + dstep[2] + dstep[3] + dstep[4]).epsilon(1e-9));
    CHECK(timeout.requests[0].ttft == plain.requests[0].ttft);
    CHECK(timeout.completed == 2);
    CHECK(timeout.output_tokens == 250);
    // The other rank always has one (a rate far above the steps'), T = 50, W = 3: at iteration 2 both
    // ranks have a prompt and answers running, so the batching wait holds B for iterations 2, 3, 4
    // (its count 1, 2, 3) and lets it in at iteration 5: the same wait, by the other counter.
    const sim::result batching = sim::simulate(
        moe, two, {.limits = {.adp_timeout_iters = 50, .adp_batching_wait_iters = 3}, .seed = 2, .adp_others_rate = per_second(1e12)});
    CHECK(batching.requests[1].queue == doctest::Approx(dstep[1] / 2 + dstep[2] + dstep[3] + dstep[4]).epsilon(1e-9));
    // No batching wait then: B enters at iteration 2, as in the plain run.
    const sim::result at_once = sim::simulate(moe, two, {.limits = {.adp_timeout_iters = 50}, .seed = 2, .adp_others_rate = per_second(1e12)});
    CHECK(at_once.requests[1].queue == doctest::Approx(dstep[1] / 2).epsilon(1e-9));
}

TEST_CASE("attention-DP balance in the simulator: a prompt held part-way through its chunks, by hand") {
    // gpt-oss-20b on two H100s, expert parallel 2 with attention DP 2 (R = 2), prompts in chunks of at
    // most 1,000 tokens. A (1000 -> 200) starts on an idle rank at t = 0 and prefills whole in one step;
    // B (2500 -> 50) arrives in the middle of A's first decode step on the same rank (seed 2 sends both
    // there) and needs three chunks: 1,000, 1,000 and 500 tokens. TensorRT-LLM's balance empties an
    // iteration's whole list of context requests while it holds (docs/trtllm-adp-online.md, Session 21),
    // so B, once partly prefilled, waits with the new prompts and resumes at the next release.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    REQUIRE(moe.attention_ranks() == 2);
    const pass_model pm = prepare_pass(moe);
    // The steps, each priced by the library's one-step formula: P, A's prompt alone; d(k), A's k-th decode
    // step alone (context 1,000 + k); m(k, n, p), A's k-th decode step with n of B's prompt tokens after p.
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    auto d = [&](double k) { return decode_pass(pm, 1.0, tokens(1000.0 + k)).time().value(); };
    auto m = [&](double k, double n, double p) {
        return step_pass(pm, {.decode_sequences = 1.0, .decode_context = tokens(1000.0 + k), .prefill_sequences = 1.0,
                              .prefill_tokens = tokens(n), .prefill_prefix = tokens(p)})
            .time()
            .value();
    };
    const std::vector<workload::request> two{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                             {.arrival = seconds(P + d(1) / 2), .input = 2500_tok, .output = 50_tok}};
    const scheduler_limits chunked{.prefill_chunk = 1000_tok};
    // Without the balance: B enters at iteration 2 (after A's first decode step) and its chunks ride A's
    // decode steps 2, 3 and 4; its first token comes at the end of iteration 4.
    const sim::result plain = sim::simulate(moe, two, {.limits = chunked, .seed = 2});
    REQUIRE(plain.requests.size() == 2);
    CHECK(plain.requests[1].queue == doctest::Approx(d(1) / 2).epsilon(1e-9));
    CHECK(plain.requests[1].ttft == doctest::Approx(d(1) / 2 + m(2, 1000, 0) + m(3, 1000, 1000) + m(4, 500, 2000)).epsilon(1e-9));
    // The other rank never gets a prompt of its own (rate 0); timeout T = 5, batching wait W = 3; its
    // context requests, when it has one, are 1,000-token prompts (one chunk). Iteration 0: A's prompt (an
    // idle rank lets it in). Iterations 1-4: A's decode steps, the waiting counter 1, 2, 3, 4 (B, waiting
    // from iteration 2, held). Iteration 5: the counter reaches 5, B enters with its first chunk (the other
    // rank has none). After it, B is still a context request, and the other rank, alike, gets one too:
    // every rank has a prompt, so the batching wait holds B's second chunk through iterations 6, 7 and 8
    // (batching 1, 2, 3; each step A's decode alone) and lets it in at 9, where both ranks prefill in
    // lockstep and the iteration lasts as long as the longer of the two steps, ours (1,000 tokens after
    // 1,000) or theirs (1,000 fresh tokens); the other rank's prompt ends there and, B still having a
    // chunk left, it gets its next; the same again for the third chunk: held at 10, 11, 12, run at 13
    // beside the other rank's 1,000 tokens, where B's first token comes.
    const scheduler_limits balanced{.prefill_chunk = 1000_tok, .adp_timeout_iters = 5, .adp_batching_wait_iters = 3};
    const sim::result held = sim::simulate(
        moe, two, {.limits = balanced, .seed = 2, .adp_others_rate = per_second(0), .adp_others_input = 1000_tok});
    REQUIRE(held.requests.size() == 2);
    const double queue = d(1) / 2 + d(2) + d(3) + d(4);
    const double ttft = queue + m(5, 1000, 0) + d(6) + d(7) + d(8) + std::max(m(9, 1000, 1000), m(9, 1000, 0)) + d(10) +
                        d(11) + d(12) + std::max(m(13, 500, 2000), m(13, 1000, 0));
    // The lockstep shows where the other rank's chunk is the larger: 1,000 fresh tokens outlast our last 500.
    CHECK(m(13, 1000, 0) > m(13, 500, 2000));
    CHECK(held.requests[1].queue == doctest::Approx(queue).epsilon(1e-9));
    CHECK(held.requests[1].ttft == doctest::Approx(ttft).epsilon(1e-9));
    CHECK(held.requests[0].ttft == doctest::Approx(P).epsilon(1e-9));  // A's prompt ran on an idle rank
    CHECK(held.completed == 2);
    CHECK(held.output_tokens == 250);
    // The other rank always has a prompt (a rate far above the steps'): B waits from iteration 2 by the
    // batching counter instead (1, 2, 3 at iterations 2, 3, 4), enters at 5, and its chunks are held as
    // above: the same first token, by the other counter.
    const sim::result busy = sim::simulate(
        moe, two, {.limits = balanced, .seed = 2, .adp_others_rate = per_second(1e12), .adp_others_input = 1000_tok});
    CHECK(busy.requests[1].queue == doctest::Approx(queue).epsilon(1e-9));
    CHECK(busy.requests[1].ttft == doctest::Approx(ttft).epsilon(1e-9));
    // No batching wait (W = 0): a release every iteration while B has chunks left, so B's chunks run back to
    // back from iteration 5 (5, 6, 7), after the same timeout wait; at 6 and 7 the other rank prefills a
    // 1,000-token prompt beside them (given it at 5 and 6, ours having chunks left).
    const scheduler_limits no_wait{.prefill_chunk = 1000_tok, .adp_timeout_iters = 5};
    const sim::result back_to_back = sim::simulate(
        moe, two, {.limits = no_wait, .seed = 2, .adp_others_rate = per_second(0), .adp_others_input = 1000_tok});
    CHECK(back_to_back.requests[1].ttft ==
          doctest::Approx(queue + m(5, 1000, 0) + std::max(m(6, 1000, 1000), m(6, 1000, 0)) +
                          std::max(m(7, 500, 2000), m(7, 1000, 0)))
              .epsilon(1e-9));
}

TEST_CASE("attention-DP lockstep prefill in the simulator: the other rank's prompt sets the iteration, by hand") {
    // gpt-oss-20b on two H100s, expert parallel 2 with attention DP 2 (R = 2). One request on the simulated
    // rank, A (1000 -> 200), on an idle rank at t = 0. The other rank gets a prompt at every iteration it
    // has none (a rate far above the steps'), 1,000 tokens long; timeout T = 5, no batching wait.
    // Iteration 0: A's prompt, alone (no rank has answers running: a release; the other rank's first prompt
    // comes after it). From iteration 1 the other rank has a prompt and ours none: the waiting counter runs
    // 1, 2, 3, 4 (held: A's decode alone) and reaches 5 at iteration 5, a release in which our rank has no
    // prompt and the other prefills its 1,000 tokens: ranks run each iteration in lockstep, so A's decode
    // step lasts as long as the other rank's, its one answer and the 1,000-token prompt (TensorRT-LLM's ADP
    // blog: iteration time = max over ranks). Its prompt done and ours having none left, it gets its next at
    // iteration 6, and so every 5th decode step of A's 199 is such a step.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    REQUIRE(moe.attention_ranks() == 2);
    const pass_model pm = prepare_pass(moe);
    REQUIRE(pm.attention_dp_busiest == 1.0);  // no balance ratio in this profile: the steps below are the run's
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    auto d = [&](double k) { return decode_pass(pm, 1.0, tokens(1000.0 + k)).time().value(); };
    auto m = [&](double k) {  // A's k-th decode step (context 1,000 + k) beside a 1,000-token prompt
        return step_pass(pm, {.decode_sequences = 1.0, .decode_context = tokens(1000.0 + k), .prefill_sequences = 1.0,
                              .prefill_tokens = 1000_tok, .prefill_prefix = 0_tok})
            .time()
            .value();
    };
    const std::vector<workload::request> one{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok}};
    double e2e = P, lockstep_steps = 0.0;
    for (double k = 1; k <= 199; ++k) {
        const bool release = std::fmod(k, 5.0) == 0.0;
        e2e += release ? m(k) : d(k);
        lockstep_steps += release ? 1.0 : 0.0;
    }
    REQUIRE(lockstep_steps == 39);
    const sim::options given{.limits = {.adp_timeout_iters = 5}, .seed = 2, .adp_others_rate = per_second(1e12),
                             .adp_others_input = 1000_tok};
    const sim::result r = sim::simulate(moe, one, given);
    REQUIRE(r.requests.size() == 1);
    CHECK(r.requests[0].ttft == doctest::Approx(P).epsilon(1e-9));
    CHECK(r.requests[0].e2e == doctest::Approx(e2e).epsilon(1e-9));
    CHECK(r.requests[0].tpot == doctest::Approx((e2e - P) / 199.0).epsilon(1e-9));
    // Each such step lasts at least the 1,000-token pass, not A's decode alone.
    CHECK(m(5) > P);
    CHECK(P > 2.0 * d(5));
    // Drawn from the run's own requests (here A's 1,000 tokens only): the same run, bit for bit.
    sim::options drawn = given;
    drawn.adp_others_input.reset();
    CHECK(same_bits(sim::simulate(moe, one, drawn), r));
    // Without lockstep prompts on the other rank (rate 0) A decodes alone at every step.
    sim::options quiet = given;
    quiet.adp_others_rate = per_second(0);
    double alone = P;
    for (double k = 1; k <= 199; ++k) alone += d(k);
    CHECK(sim::simulate(moe, one, quiet).requests[0].e2e == doctest::Approx(alone).epsilon(1e-9));
    // Refused, named: an other rank's prompt has at least one token.
    CHECK(test::contains(test::error_of([&] {
                             return sim::simulate(moe, one, {.limits = {.adp_timeout_iters = 5}, .adp_others_input = 0_tok});
                         }),
                         "adp_others_input (tokens) = 0"));
}

TEST_CASE("attention-DP lockstep in the simulator: the busiest rank's KV in the answers' steps, by hand") {
    // gpt-oss-20b on two H100s, EP2·DP2 (R = 2), the balance with timeout 1 (a release every iteration), the
    // other rank never getting a prompt (rate 0). A (1000 -> 200) at t = 0, B (3000 -> 50) arriving during
    // A's prompt step. Step 0: A's prompt, P. Step 1: A's first decode (context 1,001) beside B's prompt (one
    // answer: no spread). Steps k = 2 ... 50: two answers, A at context 1000 + k and B at 2999 + k, C = 3999 + 2k
    // in all, d = 2, and d Σc² − C² = (a − b)² = 1999²: the rank's KV spread σ_rank = √((a − b)² ÷ 2) =
    // 1999 ÷ √2, and the busiest of R = 2 ranks holds C + z₂ σ_rank, z₂ = E[max of two standard normals] =
    // 1 ÷ √π: C + 1999 ÷ √(2π) ≈ C + 797.5. Every rank waits for it: each such step is the two answers'
    // decode at that context (797.5 ÷ 2 tokens more a sequence). B's last token comes at step 50; A decodes alone (no spread) from step 51 to 199.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    const pass_model pm = prepare_pass(moe);
    REQUIRE(pm.attention_dp_busiest == 1.0);
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    const double t1 = step_pass(pm, {.decode_sequences = 1.0, .decode_context = 1001_tok, .prefill_sequences = 1.0,
                                     .prefill_tokens = 3000_tok, .prefill_prefix = 0_tok})
                          .time()
                          .value();
    const double lift = 1999.0 / std::sqrt(2.0 * 3.141592653589793);
    CHECK(lift == doctest::Approx(797.5).epsilon(1e-4));
    // z_R by its closed forms: R = 2, 1 ÷ √π; R = 3, 3 ÷ (2√π); R = 8, 1.42360 (order-statistics tables); one rank, 0.
    CHECK(sim::expected_max_of_normals(2.0) == doctest::Approx(1.0 / std::sqrt(3.141592653589793)).epsilon(1e-10));
    CHECK(sim::expected_max_of_normals(3.0) == doctest::Approx(1.5 / std::sqrt(3.141592653589793)).epsilon(1e-10));
    CHECK(sim::expected_max_of_normals(8.0) == doctest::Approx(1.42360).epsilon(1e-5));
    CHECK(sim::expected_max_of_normals(1.0) == 0.0);
    auto two = [&](double k, double extra) { return decode_pass(pm, 2.0, tokens((3999.0 + 2.0 * k + extra) / 2.0)).time().value(); };
    auto d = [&](double k) { return decode_pass(pm, 1.0, tokens(1000.0 + k)).time().value(); };
    double both = 0.0, both_plain = 0.0, a_alone = 0.0;
    for (double k = 2; k <= 50; ++k) {
        both += two(k, lift);
        both_plain += two(k, 0.0);
    }
    for (double k = 51; k <= 199; ++k) a_alone += d(k);
    const std::vector<workload::request> ab{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                            {.arrival = seconds(P / 2.0), .input = 3000_tok, .output = 50_tok}};
    // The run splits its requests over the dp = 2 servers (ranks) at random under its seed (`sim::run`):
    // the first seed that puts both on one.
    const std::uint64_t seed = seed_all_on_one_server(2);
    const sim::result lockstep =
        sim::simulate(moe, ab, {.limits = {.adp_timeout_iters = 1}, .seed = seed, .adp_others_rate = per_second(0)});
    const sim::result plain = sim::simulate(moe, ab, {.seed = seed});
    REQUIRE(lockstep.requests.size() == 2);
    CHECK(lockstep.requests[1].ttft == doctest::Approx(P / 2.0 + t1).epsilon(1e-9));
    CHECK(lockstep.requests[1].e2e == doctest::Approx(P / 2.0 + t1 + both).epsilon(1e-9));
    CHECK(lockstep.requests[0].e2e == doctest::Approx(P + t1 + both + a_alone).epsilon(1e-9));
    // Without attention DP's lockstep (no balance) the same run prices our rank's own KV.
    CHECK(plain.requests[1].e2e == doctest::Approx(P / 2.0 + t1 + both_plain).epsilon(1e-9));
    CHECK(plain.requests[0].e2e == doctest::Approx(P + t1 + both_plain + a_alone).epsilon(1e-9));
    CHECK(both > both_plain);
    // Answers all of one context (two alike requests together) have no spread: the plain engine's steps.
    const std::vector<workload::request> alike{{.arrival = 0_s, .input = 1000_tok, .output = 100_tok},
                                               {.arrival = 0_s, .input = 1000_tok, .output = 100_tok}};
    CHECK(same_bits(sim::simulate(moe, alike, {.limits = {.adp_timeout_iters = 1}, .seed = seed, .adp_others_rate = per_second(0)}),
                    sim::simulate(moe, alike, {.seed = seed})));
}

TEST_CASE("attention-DP lockstep: the busiest rank is the one with the longest step, not the most tokens") {
    // A step price that grows with the tokens before the chunk (its attention over them): c + 4a. Our own
    // step 100; the other ranks' chunks 1,000 fresh (1,000), 300 after 500 (2,300) and none after 9,000
    // (no prompt this iteration: not counted). The busiest by tokens would be the 1,000; by time it is 2,300.
    constexpr auto price = [](const sim::adp_rank_chunk& k) { return k.tokens + 4.0 * k.before; };
    constexpr std::array<sim::adp_rank_chunk, 3> chunks{{{.tokens = 1000, .before = 0},
                                                         {.tokens = 300, .before = 500},
                                                         {.tokens = 0, .before = 9000}}};
    static_assert(sim::adp_lockstep_time(100.0, chunks, price) == 2300.0);
    static_assert(sim::adp_lockstep_time(3000.0, chunks, price) == 3000.0);  // ours the busiest
    static_assert(sim::adp_lockstep_time(100.0, std::span<const sim::adp_rank_chunk>{}, price) == 100.0);
}

TEST_CASE("attention-DP lockstep prefill: an other rank runs as many prompts as ours, by hand") {
    // EP2·DP2 (R = 2), timeout 1, the other rank with a 1,000-token prompt at every iteration it has none.
    // A (1000 -> 200) at t = 0; B and C (300 -> 20 each) arrive during A's prompt step (P). Iteration 1: ours
    // runs A's first decode (context 1,001) and B's and C's prompts; the other rank, alike ours, runs two
    // prompts too, its own and one more drawn (1,000 tokens each: whole prompts, no cap): its step, A's
    // decode beside two 1,000-token prompts, is the longer, and B's and C's first tokens come at its end.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    const pass_model pm = prepare_pass(moe);
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    const auto with = [&](double prompts, double each) { return one_decode_beside(pm, prompts, each); };
    const double theirs = with(2.0, 1000.0);
    CHECK(theirs > with(2.0, 300.0));   // ours
    CHECK(theirs > with(1.0, 1000.0));  // theirs with one prompt only
    const std::vector<workload::request> abc{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                             {.arrival = seconds(P / 2.0), .input = 300_tok, .output = 20_tok},
                                             {.arrival = seconds(P / 2.0), .input = 300_tok, .output = 20_tok}};
    const std::uint64_t seed = seed_all_on_one_server(3);  // all three on one server (`sim::run`)
    const sim::result r = sim::simulate(moe, abc, {.limits = {.adp_timeout_iters = 1}, .seed = seed,
                                                   .adp_others_rate = per_second(1e12), .adp_others_input = 1000_tok});
    REQUIRE(r.requests.size() == 3);
    CHECK(r.requests[0].ttft == doctest::Approx(P).epsilon(1e-9));
    CHECK(r.requests[1].ttft == doctest::Approx(P / 2.0 + theirs).epsilon(1e-9));
    CHECK(r.requests[2].ttft == doctest::Approx(P / 2.0 + theirs).epsilon(1e-9));
}

TEST_CASE("attention-DP lockstep prefill: an other rank's extra prompts fit its own KV room, not ours after our admissions") {
    // The by-hand case above ("an other rank runs as many prompts as ours") with B and C answering 1,000 tokens
    // (KV reserved for whole sequences: A 1,200 tokens, B and C 1,300 each) and a KV pool sized by hand: the
    // other rank, alike ours as the balance found it (A's 1,200 tokens), takes its own prompt and one more
    // drawn from the run's requests (1,000-token prompts, answers of 200 or 1,000: 1,200 or 2,000 tokens each).
    // The pool holds A + two of the largest, kv(1200) + 2·kv(2000), plus half the margin m = kv(1300) + kv(1200)
    // − kv(2000) > 0, so the other rank always admits its second prompt. Charged with our B and C too (A + B +
    // C + its two ≥ kv(1200) + 2·kv(1300) + 2·kv(1200) = the pool + 3m/2) it would not,
    // and its step would be one 1,000-token prompt's: B's and C's first tokens would come at the end of
    // max(ours, theirs with one prompt) instead of theirs with two.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    const pass_model pm = prepare_pass(moe);
    const auto kv = [&](double n) { return kv_bytes_per_gpu_for_context(moe, tokens(n)).value(); };
    const double margin = kv(1300.0) + kv(1200.0) - kv(2000.0);
    REQUIRE(margin > 0.0);
    const double pool = kv(1200.0) + 2.0 * kv(2000.0) + margin / 2.0;
    CHECK(kv(1200.0) + 2.0 * kv(1300.0) + 2.0 * kv(1200.0) > pool);  // charged with ours, it would not fit
    CHECK(kv(1200.0) + 2.0 * kv(1300.0) <= pool);                    // ours fit: A, B and C run
    // The pool of a given reserve (fraction 0): H − activations − weights, H the runtime's total (`runtime_hbm`, what
    // every pool rule reads), so activations = H − weights − pool.
    const memory_reserve reserve{.fraction = 0.0,
                                 .activations = bytes(moe.hw.gpu.runtime_hbm().value() - weight_bytes_per_gpu(moe).value() - pool)};
    REQUIRE(kv_budget_per_gpu(moe, reserve).value() == doctest::Approx(pool).epsilon(1e-12));
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    const auto with = [&](double prompts, double each) { return one_decode_beside(pm, prompts, each); };
    const double theirs = with(2.0, 1000.0);
    CHECK(theirs > std::max(with(2.0, 300.0), with(1.0, 1000.0)));
    const std::vector<workload::request> abc{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok},
                                             {.arrival = seconds(P / 2.0), .input = 300_tok, .output = 1000_tok},
                                             {.arrival = seconds(P / 2.0), .input = 300_tok, .output = 1000_tok}};
    const std::uint64_t seed = seed_all_on_one_server(3);  // all three on one server (`sim::run`)
    const sim::result r = sim::simulate(moe, abc, {.limits = {.reserve = reserve, .adp_timeout_iters = 1}, .seed = seed,
                                                   .adp_others_rate = per_second(1e12), .adp_others_input = 1000_tok});
    REQUIRE(r.requests.size() == 3);
    CHECK(r.requests[0].ttft == doctest::Approx(P).epsilon(1e-9));
    CHECK(r.requests[1].ttft == doctest::Approx(P / 2.0 + theirs).epsilon(1e-9));
    CHECK(r.requests[2].ttft == doctest::Approx(P / 2.0 + theirs).epsilon(1e-9));
}

TEST_CASE("attention-DP lockstep prefill: an other rank's prompt its batch cap refuses does not run") {
    // As in "the other rank's prompt sets the iteration" (A 1000 -> 200 alone on our rank; the other rank
    // with a 1,000-token prompt at every iteration it has none; timeout 5), with a cap of one sequence a
    // rank: the other rank, running one answer like ours, may not start its prompt (1 + 1 > 1), by the
    // same rule as ours, so no iteration carries it: A decodes alone at every step, P + Σ d(k), k = 1 ... 199.
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    const pass_model pm = prepare_pass(moe);
    const double P = prefill_pass(pm, 1.0, 1000_tok, 0_tok).time().value();
    double alone = P;
    for (double k = 1; k <= 199; ++k) alone += decode_pass(pm, 1.0, tokens(1000.0 + k)).time().value();
    const std::vector<workload::request> one{{.arrival = 0_s, .input = 1000_tok, .output = 200_tok}};
    const sim::options capped{.limits = {.max_batch = 1, .adp_timeout_iters = 5}, .seed = 2,
                              .adp_others_rate = per_second(1e12), .adp_others_input = 1000_tok};
    CHECK(sim::simulate(moe, one, capped).requests[0].e2e == doctest::Approx(alone).epsilon(1e-9));
    // Uncapped, the other rank's prompts run beside A's decodes (the by-hand case above): longer.
    sim::options free = capped;
    free.limits.max_batch = 0;
    CHECK(sim::simulate(moe, one, free).requests[0].e2e > alone * 1.05);
}

TEST_CASE("attention-DP balance ratio 1/beta: steady state and disaggregated runs only, never in a balanced simulated run") {
    // The balance ratio beta (engine_moe::attention_dp_balance) stands for the same imbalance the balanced
    // simulation prices rank by rank (the others' prompts in lockstep, the busiest rank's KV): a balanced
    // colocated run with beta = 0.5 is the run with no beta, bit for bit (applied there too it would count
    // twice); the closed form, a run without the balance and a disaggregated run keep 1/beta = 2 (dropped
    // there, it would count nowhere).
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    deployment skewed = moe;
    skewed.engine.moe.attention_dp_balance = 0.5;
    REQUIRE(prepare_pass(moe).attention_dp_busiest == 1.0);
    REQUIRE(prepare_pass(skewed).attention_dp_busiest == 2.0);
    const workload::traffic poisson{.input = workload::fixed(500_tok), .output = workload::fixed(100_tok),
                                    .arrivals = workload::poisson(20_ms)};
    const scheduler_limits trtllm{.adp_timeout_iters = 50, .adp_batching_wait_iters = 10};
    CHECK(same_bits(sim::simulate(skewed, poisson, {.limits = trtllm, .requests = 200}),
                    sim::simulate(moe, poisson, {.limits = trtllm, .requests = 200})));
    const step_shape shape{.decode_sequences = 16.0, .decode_context = 1000_tok};
    CHECK(step_pass(skewed, shape).time() > step_pass(moe, shape).time());
    CHECK(sim::simulate(skewed, poisson, {.requests = 200}).tpot.mean > sim::simulate(moe, poisson, {.requests = 200}).tpot.mean);
    CHECK(sim::simulate(skewed, poisson, {.limits = trtllm, .requests = 200, .prefill_servers = 1}).tpot.mean >
          sim::simulate(moe, poisson, {.limits = trtllm, .requests = 200, .prefill_servers = 1}).tpot.mean);
}

TEST_CASE("attention-DP balance in the simulator: properties and refusals") {
    const deployment moe{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.ep = 2, .dp = 2}};
    const deployment one_rank{.m = catalog::gpt_oss_20b, .hw = catalog::h100_sxm5, .layout = {.tp = 2, .ep = 2}};
    const workload::traffic loop{.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok),
                                 .arrivals = workload::closed_loop(32)};
    const workload::traffic poisson{.input = workload::fixed(500_tok), .output = workload::fixed(100_tok),
                                    .arrivals = workload::poisson(20_ms)};
    const scheduler_limits trtllm{.adp_timeout_iters = 50, .adp_batching_wait_iters = 10};
    // R = 1 (no attention DP): the balance does not apply, the plain engine bit for bit.
    REQUIRE(one_rank.attention_ranks() == 1);
    CHECK(same_bits(sim::simulate(one_rank, poisson, {.limits = trtllm, .requests = 300}),
                    sim::simulate(one_rank, poisson, {.requests = 300})));
    // Timeout 1 without a batching wait lets every prompt in at every iteration: with the other rank never
    // getting a prompt (rate 0) the plain engine's requests and tokens, each answer's steps at the busiest
    // rank's KV (no shorter than ours; by hand in "the busiest rank's KV in the answers' steps").
    const sim::options no_others{.limits = {.adp_timeout_iters = 1}, .requests = 300, .adp_others_rate = per_second(0)};
    const sim::result kv_only = sim::simulate(moe, poisson, no_others);
    const sim::result plain = sim::simulate(moe, poisson, {.requests = 300});
    CHECK(kv_only.completed == plain.completed);
    CHECK(kv_only.output_tokens == plain.output_tokens);
    CHECK(kv_only.tpot.mean >= plain.tpot.mean);
    const sim::result loop_kv = sim::simulate(moe, loop, {.limits = {.adp_timeout_iters = 1}, .requests = 320, .adp_others_rate = per_second(0)});
    const sim::result loop_plain = sim::simulate(moe, loop, {.requests = 320});
    CHECK(loop_kv.completed == loop_plain.completed);
    CHECK(loop_kv.output_tokens == loop_plain.output_tokens);
    CHECK(loop_kv.tpot.mean > loop_plain.tpot.mean);
    // With its prompts (at this rank's rate, lengths drawn from the run's), every iteration in which it
    // prefills and ours does not lasts its prompt step: the answers' tokens come no sooner.
    const sim::result lockstep = sim::simulate(moe, poisson, {.limits = {.adp_timeout_iters = 1}, .requests = 300});
    const sim::result alone = sim::simulate(moe, poisson, {.requests = 300});
    CHECK(lockstep.completed == 300);
    CHECK(lockstep.output_tokens == alone.output_tokens);
    CHECK(lockstep.tpot.mean > alone.tpot.mean);
    // A closed loop of 32 clients: every request answered once with its tokens, the same run twice
    // bit for bit, and the hold only lengthens the wait for the first token.
    const sim::result held = sim::simulate(moe, loop, {.limits = trtllm, .requests = 320});
    const sim::result free = sim::simulate(moe, loop, {.requests = 320});
    CHECK(held.completed == 320);
    CHECK(held.output_tokens == free.output_tokens);
    CHECK(same_bits(held, sim::simulate(moe, loop, {.limits = trtllm, .requests = 320})));
    CHECK(held.ttft.mean > free.ttft.mean);
    CHECK(held.queue.mean > free.queue.mean);
    // A disaggregated run (one prefill and one decode server): its prefill server runs no answers, so the
    // rule releases at once, and its decode server's requests arrive prefilled (generation requests, which
    // TensorRT-LLM's balance never holds): the balance changes nothing, bit for bit.
    CHECK(same_bits(sim::simulate(moe, poisson, {.limits = trtllm, .requests = 300, .prefill_servers = 1}),
                    sim::simulate(moe, poisson, {.requests = 300, .prefill_servers = 1})));
    // Refused, named.
    const auto one = spaced(3, 100.0, 1000, 200);
    CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = {.adp_timeout_iters = 0.5}}); }),
                         "adp_timeout_iters = 0.5"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = {.adp_timeout_iters = -1}}); }),
                         "[llmcost.serving.adp_balance]"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = {.adp_batching_wait_iters = 3}}); }),
                         "a batching wait belongs to the attention-DP balance"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = {.adp_timeout_iters = 5, .adp_batching_wait_iters = 1.5}}); }),
                         "adp_batching_wait_iters = 1.5"));
    CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = trtllm, .adp_others_rate = per_second(std::numeric_limits<double>::infinity())}); }),
                         "adp_others_rate (1/s)"));
    // An other rank's prompt length: a whole number of tokens, at least one, finite; the field, the value, the rule.
    for (const double bad : {1000.5, 0.0, -3.0, 0.25}) {
        const std::string what = test::error_of([&] { return sim::simulate(moe, one, {.limits = trtllm, .adp_others_input = tokens(bad)}); });
        CHECK(test::contains(what, "adp_others_input (tokens) = " + invalid_input::show(bad)));
        CHECK(test::contains(what, "a prompt is a whole number of tokens, at least one, and finite"));
        CHECK(test::contains(what, "[llmcost.serving.adp_balance]"));
    }
    for (const double bad : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
        CHECK(test::contains(test::error_of([&] { return sim::simulate(moe, one, {.limits = trtllm, .adp_others_input = tokens(bad)}); }),
                             "a prompt is a whole number of tokens, at least one, and finite"));
}

TEST_CASE("simulator: SGLang's ignore-EOS admission, every answer's end by hand") {
    // Two answers running, (tokens left, tokens held) = (2, 3) and (5, 3), and a candidate of input 2 and
    // output 1: (1, 2); a reserve of 1 token a running sequence. At the first end (t = 1) the three hold
    // (2 + 1) + (3 + 1) + (3 + 1) = 11 tokens; at t = 2 the two left hold (3 + 2) + (3 + 2) = 10; at t = 5
    // the last holds 3 + 5 = 8. A pool of 15 leaves 4 > 3, 5 > 2, 7 > 1: admitted. A pool of 14 leaves
    // 3, not more than 3 · 1: held; so does 13 (2).
    constexpr std::array<sim::remaining_sequence, 3> three{{{.left = 2_tok, .held = 3_tok},
                                                            {.left = 5_tok, .held = 3_tok},
                                                            {.left = 1_tok, .held = 2_tok}}};
    static_assert(sim::ignore_eos_admits(three, 15_tok, 1_tok));
    static_assert(!sim::ignore_eos_admits(three, 14_tok, 1_tok));
    static_assert(!sim::ignore_eos_admits(three, 13_tok, 1_tok));
    // The last end binds alone: one sequence left 5 holding 3 needs 3 + 5 = 8 and 1 more free: 10 admits, 9 does not.
    constexpr std::array<sim::remaining_sequence, 1> one{{{.left = 5_tok, .held = 3_tok}}};
    static_assert(sim::ignore_eos_admits(one, 10_tok, 1_tok) && !sim::ignore_eos_admits(one, 9_tok, 1_tok));
    // A sequence with nothing left to generate is not counted; an empty set always fits.
    constexpr std::array<sim::remaining_sequence, 1> done{{{.left = 0_tok, .held = 100_tok}}};
    static_assert(sim::ignore_eos_admits(done, 1_tok, 1_tok));
    static_assert(sim::ignore_eos_admits(std::span<const sim::remaining_sequence>{}, 0_tok, 1_tok));
}

TEST_CASE("simulator: SGLang's ignore-EOS admission — no preemption where the KV runs out, nothing moves where it does not") {
    const workload::traffic t{.input = workload::lognormal(900_tok, 1200_tok, 20000_tok),
                              .output = workload::lognormal(300_tok, 400_tok, 6000_tok),
                              .arrivals = workload::poisson(12_ms)};
    const sim::options plain{.limits = {.reserve_full_sequence = false}, .requests = 1500, .seed = 5};
    sim::options eos = plain;
    eos.limits.ignore_eos_admission = true;
    const sim::result a = sim::simulate(llama8, t, plain);
    const sim::result b = sim::simulate(llama8, t, eos);
    REQUIRE(a.preemptions > 0);  // the KV in use alone over-admits here
    CHECK(b.preemptions == 0.0);  // every admitted answer's end fits: nothing is ever given back
    CHECK(b.completed == a.completed);
    CHECK(b.output_tokens == a.output_tokens);
    // Twenty requests far apart: the pool holds every answer's end, the rule never binds, bit for bit.
    sim::options few{.limits = {.reserve_full_sequence = false}, .keep_requests = true};
    sim::options few_eos = few;
    few_eos.limits.ignore_eos_admission = true;
    const std::vector<workload::request> spaced20 = spaced(20, 0.05, 2000, 500);
    CHECK(same_bits(sim::simulate(llama8, spaced20, few), sim::simulate(llama8, spaced20, few_eos)));
}

TEST_CASE("simulator: SGLang's ignore-EOS admission refuses a whole-sequence reserve, naming the field") {
    const scheduler_limits l{.reserve_full_sequence = true, .ignore_eos_admission = true};
    const std::string m = test::validation_message(l);
    CHECK(test::contains(m, "ignore_eos_admission"));
    CHECK(test::contains(m, "applies to admission on the KV in use"));
}

// AMD's patched vLLM V0 scheduler (VLLM_LLAMA2_MLPERF_SCHED; mlcommons/inference_results_v5.1 @965182b0
// closed/AMD/setup/vllm_patches/scheduler-change-to-have-prefill-and-decode-reach-go.patch): the decode target
// and the prefill gate, by hand (docs/amd-v0-decode-target.md).
namespace {
constexpr decode_target cut_4_6_2{.min = 4, .max = 6, .step = 2};
// _get_target_decode_batch: n ≥ MAX → MAX; MIN ≤ n < MAX → ⌊n ÷ STEP⌋ · STEP; n < MIN → MIN (all of them).
static_assert(cut_4_6_2.of(9) == 6 && cut_4_6_2.of(7) == 6 && cut_4_6_2.of(6) == 6);
static_assert(cut_4_6_2.of(5) == 4 && cut_4_6_2.of(4) == 4);
static_assert(cut_4_6_2.of(3) == 4 && cut_4_6_2.of(1) == 4);  // MIN: more than the 3 running, so all of them
static_assert(decode_target{}.of(7) == 7 && !decode_target{}.on());  // off: every running sequence
// do_prefill: fewer than MAX running and more free KV than the threshold.
static_assert(!cut_4_6_2.may_prefill(6, 1000_tok) && cut_4_6_2.may_prefill(5, 1000_tok));
static_assert(!decode_target{.min = 4, .max = 6, .step = 2, .prefill_free_kv = 50_tok}.may_prefill(5, 50_tok));
static_assert(decode_target{.min = 4, .max = 6, .step = 2, .prefill_free_kv = 50_tok}.may_prefill(5, 51_tok));

/// n requests of 100 → `out` tokens at time 0 (request k's answer `first_out` tokens where given).
std::vector<workload::request> at_once(std::size_t n, double out, double first_out = 0) {
    std::vector<workload::request> v(n, {.arrival = 0_s, .input = 100_tok, .output = tokens(out)});
    if (first_out > 0) v[0].output = tokens(first_out);
    return v;
}
/// The decode step of b sequences at context c (the library's pass, as the simulator prices it).
double dstep(double b, double c) { return decode_pass(llama8, b, tokens(c)).time().value(); }
}  // namespace

TEST_CASE("simulator: AMD's decode target decodes the first of the running, the rest wait with their KV, by hand") {
    const sim::options cut{.limits = {.prefill_alone = true, .decode_cut = cut_4_6_2}};
    const sim::options none{.limits = {.prefill_alone = true}};
    const double prefill7 = prefill_pass(llama8, 7.0, 100_tok, 0_tok).time().value();
    // 7 prompts of 100 → 10 tokens at once: one prompt step (the gate: 0 running < 6), then 7 run and a pass decodes
    // 6 (of(7) = 6). Requests 1–6 decode 9 steps at batch 6, contexts 101 … 109, and end; the 7th, left out with its
    // first token and its KV, then decodes its 9 alone (of(1) = all).
    const sim::result r = sim::simulate(llama8, at_once(7, 10), cut);
    REQUIRE(r.requests.size() == 7);
    double six = 0, one = 0;
    for (double c = 101; c <= 109; ++c) {
        six += dstep(6, c);
        one += dstep(1, c);
    }
    for (std::size_t k = 0; k < 7; ++k) CHECK(r.requests[k].ttft == doctest::Approx(prefill7).epsilon(1e-9));
    for (std::size_t k = 0; k < 6; ++k) CHECK(r.requests[k].e2e == doctest::Approx(prefill7 + six).epsilon(1e-9));
    CHECK(r.requests[6].e2e == doctest::Approx(prefill7 + six + one).epsilon(1e-9));
    CHECK(r.completed == 7);
    CHECK(r.output_tokens == 70);
    // Without the target the 7 decode together.
    double seven = 0;
    for (double c = 101; c <= 109; ++c) seven += dstep(7, c);
    CHECK(sim::simulate(llama8, at_once(7, 10), none).requests[6].e2e == doctest::Approx(prefill7 + seven).epsilon(1e-9));
    // 5 running: of(5) = 4, the 5th waits for the 4; 3 running: of(3) = all, the run bit for bit the one without.
    const double prefill5 = prefill_pass(llama8, 5.0, 100_tok, 0_tok).time().value();
    double four = 0;
    for (double c = 101; c <= 109; ++c) four += dstep(4, c);
    const sim::result five = sim::simulate(llama8, at_once(5, 10), cut);
    CHECK(five.requests[3].e2e == doctest::Approx(prefill5 + four).epsilon(1e-9));
    CHECK(five.requests[4].e2e == doctest::Approx(prefill5 + four + one).epsilon(1e-9));
    CHECK(same_bits(sim::simulate(llama8, at_once(3, 10), cut), sim::simulate(llama8, at_once(3, 10), none)));
}

TEST_CASE("simulator: a sequence the decode target left out waits exactly until there is room, in order") {
    const sim::options cut{.limits = {.prefill_alone = true, .decode_cut = cut_4_6_2}};
    // 7 at once, request 0's answer 3 tokens: it ends after 2 decode steps, n = 6 → of(6) = 6, and the 7th (left out
    // since the prompt step) decodes from the 3rd step. Requests 1–5 end after their 9th step; the 7th two steps
    // later, alone, at contexts 108 and 109.
    const sim::result r = sim::simulate(llama8, at_once(7, 10, 3), cut);
    REQUIRE(r.requests.size() == 7);
    CHECK(r.requests[6].e2e - r.requests[1].e2e == doctest::Approx(dstep(1, 108) + dstep(1, 109)).epsilon(1e-9));
    // 8 at once: of(8) = 6, requests 6 and 7 wait at the tail in that order; request 0's end makes room for one: the
    // 7th (request 6), who waited longest; request 7 waits for requests 1–5 to end after 9 steps (then n = 2: both
    // decode, request 6 at contexts 108, 109 and request 7 at 101, 102: mean contexts 104.5, 105.5).
    const sim::result r8 = sim::simulate(llama8, at_once(8, 10, 3), cut);
    REQUIRE(r8.requests.size() == 8);
    CHECK(r8.requests[6].e2e < r8.requests[7].e2e);
    CHECK(r8.requests[6].e2e - r8.requests[1].e2e == doctest::Approx(dstep(2, 104.5) + dstep(2, 105.5)).epsilon(1e-9));
    CHECK(r8.completed == 8);
    CHECK(r8.output_tokens == 7 * 10 + 3);
}

TEST_CASE("simulator: the decode target's prefill gate, at MAX running and at the free-KV threshold, by hand") {
    const double prefill6 = prefill_pass(llama8, 6.0, 100_tok, 0_tok).time().value();
    // 6 prompts at once (request 0's answer 5 tokens, the rest 50), then B (100 → 10) in the first decode step: with 6
    // running (MAX) no pass prefills, until request 0 ends after its 4th decode step (5 running < 6).
    std::vector<workload::request> v = at_once(6, 50, 5);
    v.push_back({.arrival = seconds(prefill6 + dstep(6, 101) / 2), .input = 100_tok, .output = 10_tok});
    const sim::result gated = sim::simulate(llama8, v, {.limits = {.prefill_alone = true, .decode_cut = cut_4_6_2}});
    REQUIRE(gated.requests.size() == 7);
    CHECK(gated.requests[6].queue ==
          doctest::Approx(dstep(6, 101) / 2 + dstep(6, 102) + dstep(6, 103) + dstep(6, 104)).epsilon(1e-9));
    CHECK(sim::simulate(llama8, v, {.limits = {.prefill_alone = true}}).requests[6].queue ==
          doctest::Approx(dstep(6, 101) / 2).epsilon(1e-9));
    // With at least Q = 2 waiting prompts wanted (MIN_REQUIRE_PREFILL_QUERY): a pass the gate shut declines, so the
    // next one may prefill with fewer (the patch sets _do_prefill = not do_prefill after the gate). B, alone in the
    // queue, enters at the first pass with room, as without Q; had the gate come after the turn, the turns would
    // alternate over B's waiting passes and B would miss that pass by one step (review of session 36).
    const sim::result gated_q =
        sim::simulate(llama8, v, {.limits = {.prefill_alone = true, .min_waiting_prompts = 2, .decode_cut = cut_4_6_2}});
    CHECK(gated_q.requests[6].queue == doctest::Approx(gated.requests[6].queue).epsilon(1e-12));
    // The free-KV threshold: the pool less 50 tokens. An idle engine admits A (100 → 20); once A holds 101 tokens no
    // more than the threshold is free, so B, arriving in A's decode, waits for A's end.
    const double pool = kv_budget_per_gpu(llama8).value() / kv_bytes_per_token_per_gpu(llama8).value();
    const decode_target kv_gate{.min = 4, .max = 6, .step = 2, .prefill_free_kv = tokens(pool - 50.0)};
    const double prefill1 = prefill_pass(llama8, 1.0, 100_tok, 0_tok).time().value();
    std::vector<workload::request> ab{{.arrival = 0_s, .input = 100_tok, .output = 20_tok},
                                      {.arrival = seconds(prefill1 + dstep(1, 101) / 2), .input = 100_tok, .output = 10_tok}};
    const sim::result kv = sim::simulate(llama8, ab, {.limits = {.prefill_alone = true, .decode_cut = kv_gate}});
    REQUIRE(kv.requests.size() == 2);
    CHECK(kv.requests[1].queue == doctest::Approx(kv.requests[0].e2e - kv.requests[1].arrival).epsilon(1e-9));
    CHECK(sim::simulate(llama8, ab, {.limits = {.prefill_alone = true}}).requests[1].queue ==
          doctest::Approx(dstep(1, 101) / 2).epsilon(1e-9));
    // A threshold of the whole pool would never admit a prompt: refused, named.
    const decode_target whole{.min = 4, .max = 6, .step = 2, .prefill_free_kv = tokens(pool)};
    CHECK(test::contains(test::error_of([&] { return sim::simulate(llama8, ab, {.limits = {.prefill_alone = true, .decode_cut = whole}}); }),
                         "prefill_free_kv (tokens)"));
}

TEST_CASE("simulator: a gated pass admits whole prompts within one step's token budget, the gate checked again next pass") {
    // vLLM V0 `_schedule_prefills` (ROCm/vllm @71faa1880 vllm/core/scheduler.py): a pass admits whole prompts while
    // the step's budget (max_num_batched_tokens) holds them; the rest wait for the next pass, where AMD's gate
    // (running < MAX) is checked again. 10 prompts of 100 → 10 tokens at once, MAX 6, a budget of 300 tokens:
    // pass 1 admits requests 0–2 (300 tokens), pass 2 (3 running) requests 3–5; with 6 running the gate shuts, the 6
    // decode 9 steps at contexts 101 … 109 (of(6) = 6) and end; then 6–8 in one prompt step and, 3 running, request 9
    // alone in the next; the 4 decode their 9 steps together (of(4) = 4). Admitting all 10 at the first pass (the gate
    // seen once) would have run 10 sequences, 4 above MAX.
    const sim::options budget{.limits = {.max_tokens_per_step = 300, .prefill_alone = true, .decode_cut = cut_4_6_2}};
    const sim::result r = sim::simulate(llama8, at_once(10, 10), budget);
    REQUIRE(r.requests.size() == 10);
    const double prefill3 = prefill_pass(llama8, 3.0, 100_tok, 0_tok).time().value();
    const double prefill1 = prefill_pass(llama8, 1.0, 100_tok, 0_tok).time().value();
    double six = 0, four = 0;
    for (double c = 101; c <= 109; ++c) {
        six += dstep(6, c);
        four += dstep(4, c);
    }
    const double first_end = 2.0 * prefill3 + six;
    for (std::size_t k = 0; k < 3; ++k) CHECK(r.requests[k].ttft == doctest::Approx(prefill3).epsilon(1e-9));
    for (std::size_t k = 3; k < 6; ++k) CHECK(r.requests[k].ttft == doctest::Approx(2.0 * prefill3).epsilon(1e-9));
    for (std::size_t k = 0; k < 6; ++k) CHECK(r.requests[k].e2e == doctest::Approx(first_end).epsilon(1e-9));
    for (std::size_t k = 6; k < 9; ++k) CHECK(r.requests[k].ttft == doctest::Approx(first_end + prefill3).epsilon(1e-9));
    CHECK(r.requests[9].ttft == doctest::Approx(first_end + prefill3 + prefill1).epsilon(1e-9));
    for (std::size_t k = 6; k < 10; ++k)
        CHECK(r.requests[k].e2e == doctest::Approx(first_end + prefill3 + prefill1 + four).epsilon(1e-9));
    CHECK(r.completed == 10);
    CHECK(r.output_tokens == 100);
    // Without the target the budget does not hold admission back (the engine's step packing does): all 10 are
    // admitted at once and prefilled 3, 3, 3, 1 in consecutive prompt steps, so request 6's first token comes
    // after three prompt steps.
    const sim::result ungated = sim::simulate(llama8, at_once(10, 10), {.limits = {.max_tokens_per_step = 300, .prefill_alone = true}});
    CHECK(ungated.requests[6].ttft == doctest::Approx(3.0 * prefill3).epsilon(1e-9));
}

TEST_CASE("simulator: the decode target under load, its defaults, and its refusals") {
    const workload::traffic poisson{.input = workload::fixed(200_tok), .output = workload::fixed(100_tok),
                                    .arrivals = workload::poisson(5_ms)};
    const sim::options v0{.limits = {.reserve_full_sequence = false, .receive_interval = 4, .prefill_alone = true,
                                     .outputs_per_block = true},
                          .requests = 800};
    sim::options held = v0;
    held.limits.decode_cut = {.min = 16, .max = 32, .step = 8, .prefill_free_kv = 1000_tok};
    const sim::result base = sim::simulate(llama8, poisson, v0);
    const sim::result cut = sim::simulate(llama8, poisson, held);
    // Every request answered once, with all its tokens; the target binds (the run is not the one without it).
    CHECK(cut.completed == 800);
    CHECK(cut.output_tokens == 800 * 100);
    CHECK_FALSE(same_bits(cut, base));
    // A target above every batch the run reaches changes nothing, bit for bit (the default is off).
    sim::options far = v0;
    far.limits.decode_cut = {.min = 100000, .max = 100000, .step = 1};
    CHECK(same_bits(sim::simulate(llama8, poisson, far), base));
    // Refused, named: a step of 0, a minimum above the maximum or below the step, a negative threshold, parts without
    // the maximum.
    const auto one = spaced(1, 1.0, 100, 10);
    auto refused = [&](decode_target t) { return test::error_of([&] { return sim::simulate(llama8, one, {.limits = {.decode_cut = t}}); }); };
    CHECK(test::contains(refused({.min = 4, .max = 6, .step = 0}), "decode_target_step = 0: a whole number of sequences, at least 1"));
    CHECK(test::contains(refused({.min = 8, .max = 6, .step = 2}), "decode_target_min = 8: a whole number of sequences, at most decode_target_max"));
    CHECK(test::contains(refused({.min = 1, .max = 6, .step = 2}), "decode_target_min = 1: at least decode_target_step"));
    CHECK(test::contains(refused({.min = 4, .max = 6, .step = 2, .prefill_free_kv = tokens(-1.0)}), "prefill_free_kv (tokens) = -1"));
    CHECK(test::contains(refused({.min = 4}), "decode_target_min = 4: a decode target's minimum needs its maximum"));
    CHECK(test::contains(refused({.max = 6.5, .step = 1}), "decode_target_max = 6.5"));
    // Outside V0's non-chunked path (AMD's gate sits in `_schedule_default`): a target without prompt steps alone,
    // or with a prefill chunk, is refused, named; with prompt steps alone and whole prompts it runs.
    const std::string_view v0_only = "decode_target_max = 6: AMD's gate runs in V0's non-chunked path (_schedule_default): "
                                     "needs prefill_alone 1 and no prefill chunk";
    CHECK(test::contains(refused(cut_4_6_2), v0_only));
    CHECK(test::contains(test::error_of([&] {
                             return sim::simulate(llama8, one, {.limits = {.prefill_chunk = 64_tok, .prefill_alone = true,
                                                                           .decode_cut = cut_4_6_2}});
                         }),
                         v0_only));
    CHECK(sim::simulate(llama8, one, {.limits = {.prefill_alone = true, .decode_cut = cut_4_6_2}}).completed == 1);
}

TEST_CASE("simulator and closed form: a prompt above the step's token cap is chunked, refused, or (SGLang) run whole") {
    // One request of 1,000 prompt tokens and 10 output tokens under a cap of M = 400 tokens a step (audit s42 F5).
    const auto one = spaced(1, 1.0, 1000.0, 10.0);
    const scheduler_limits whole{.max_tokens_per_step = 400};
    const scheduler_limits chunked{.max_tokens_per_step = 400, .prefill_chunk = 400_tok};
    // Not chunked, the reference engine (TensorRT-LLM's rule): refused, naming the cap, the prompt and the rule.
    const std::string e = test::error_of([&] { return sim::simulate(llama8, one, {.limits = whole}); });
    CHECK(test::contains(e, "request 1"));
    CHECK(test::contains(e, "max_tokens_per_step = 400: below the prompt's 1000 tokens"));
    CHECK(test::contains(e, "needs an engine that chunks prompts"));
    CHECK(test::contains(e, "[llmcost.serving.prompt_within_step_cap]"));
    // The closed form applies the same rule (`fitting_batch`), the same words.
    const std::string closed = test::error_of([&] { return max_batch(llama8, {.input = 1000_tok, .output = 10_tok}, whole); });
    CHECK(test::contains(closed, "max_tokens_per_step = 400: below the prompt's 1000 tokens"));
    CHECK(test::contains(closed, "[llmcost.serving.prompt_within_step_cap]"));
    // A prompt of exactly M fits (I ≤ M), and M = 0 is no cap.
    CHECK(max_batch(llama8, {.input = 400_tok, .output = 10_tok}, whole).batch >= 1.0);
    CHECK(sim::simulate(llama8, spaced(1, 1.0, 400.0, 10.0), {.limits = whole}).completed == 1.0);
    // Chunked: ⌈1000 ÷ 400⌉ = 3 prompt steps (400, 400, 200), the last making the first token, then 9 decode steps.
    CHECK(sim::simulate(llama8, one, {.limits = chunked}).steps == 3.0 + 9.0);
    // SGLang, chunking off, takes a step's first prompt whatever its length: one prompt step, then 9 decode steps.
    deployment sglang = llama8;
    sglang.engine.kind = engine_kind::sglang;
    CHECK(sim::simulate(sglang, one, {.limits = whole}).steps == 1.0 + 9.0);
    CHECK(max_batch(sglang, {.input = 1000_tok, .output = 10_tok}, whole).batch >= 1.0);
    CHECK(runs_long_prompt_whole(engine_kind::sglang));
    CHECK_FALSE(runs_long_prompt_whole(engine_kind::trtllm));
    CHECK_FALSE(runs_long_prompt_whole(engine_kind::vllm));
    CHECK_FALSE(runs_long_prompt_whole(engine_kind::reference));
}
