#pragma once
/// \file
/// A simulated closed loop against a disaggregated deployment (a prefill pool and a decode pool,
/// `worker_pool`): the benchmark client's run that `disaggregated_closed_loop` bounds in closed form,
/// event by event. c clients send N prompts (each client's first at t = 0, its next when its answer
/// ends: vLLM benchmark_serving --max-concurrency c --num-prompts N --request-rate inf), the lengths
/// drawn as the colocated closed-loop rows draw them (`workload::sampler`, a seed).
///
/// - **Prefill pool**: A_p = W_p × the worker's attention ranks, each a FIFO server. A prompt goes to
///   the next rank in turn (round-robin: Dynamo's frontend routes round-robin by default, `--router-mode`
///   default `round-robin`, docs.nvidia.com/dynamo Router Guide; SGLang's data-parallel controller
///   dispatches to its attention ranks round-robin by default, `--load-balance-method`, ServerArgs.load_balance_method = "round_robin" in
///   sgl-project/sglang python/sglang/srt/server_args.py;
///   SGLang's mini load balancer picks its prefill/decode pair at random, which round-robin stands in
///   for). An idle rank starts a pass of the whole prompts at the head of its queue whose tokens fit the
///   step's cap M (at least one; no cap: all of them), priced `prefill_pass` at the pass's prompts and
///   their mean length (the pass's attention at the mean length, not each prompt's own).
/// - **Transfer**: each prompt's KV cache, `kv_transfer_for` at its own length, when its pass ends (the
///   links in parallel: no transfer queue).
/// - **Decode pool**: A_d ranks, the next in turn (round-robin) when a prompt's KV has arrived; each
///   rank batches continuously: a request joins at the next step, every step is `decode_pass` at the
///   rank's current batch b and its sequences' mean context (prompt + tokens so far), and an answer of
///   O tokens takes O steps, its first token at the end of its first step.
/// - **The client**: TTFT = `client_first_token`(first token − send, F) (F the engine's front end, as
///   the closed form states it: prefill done + transfer + F + the first decode step); the answer's end
///   reaches the client F after its last token, and the client sends its next prompt then (the front
///   end on the loop, as the closed form's cycle carries it). TPOT = (last − first token) ÷ (O − 1)
///   per request of O > 1 (vLLM's benchmark_serving mean TPOT: over requests); output rate = Σ O ÷ the
///   makespan (t = 0 to the last answer at the client).
///
/// Events at the same instant: a rank that finishes a pass or a step starts its next one as an event at
/// that instant, so the prompts and KV caches that reach it then are in it. Each drawn request is checked
/// against both pools (`check_disaggregated_request`: one sequence must fit a rank).
///
/// Deterministic under a seed. Decode ranks are not held to their KV capacity here (the caller's
/// closed-form check `disaggregated_closed_loop` holds c ÷ A_d to it); each rank is an independent
/// server (no lockstep between the attention ranks of one DEP worker).

#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/sim/sampler.hpp>
#include <llmcost/sim/simulate.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

namespace llmcost::sim {

/// The client of a disaggregated closed loop: its lengths, c clients, N prompts, the seed.
struct disaggregated_client {
    workload::length_distribution input = workload::fixed(tokens(1000.0));
    workload::length_distribution output = workload::fixed(tokens(100.0));
    double clients = 1;
    double prompts = 1;
    std::uint64_t seed = 1;

    void validate() const {
        input.validate("disaggregated client input");
        output.validate("disaggregated client output");
        require(clients >= 1.0 && clients <= 1e6 && detail::const_trunc(clients) == clients, "disaggregated client",
                "clients", clients, "a whole number of clients, from 1 to 10⁶");
        require(prompts >= clients && prompts <= 1e8 && detail::const_trunc(prompts) == prompts, "disaggregated client",
                "prompts", prompts, "a whole number of prompts, at least one per client (and at most 10⁸)");
    }
};

/// What the client of a simulated disaggregated closed loop reports (seconds, tokens/s).
struct disaggregated_result {
    percentiles ttft;                ///< over requests (s)
    percentiles tpot;                ///< over requests of more than one output token (s); all zero when none
    double tpot_requests = 0;        ///< requests of more than one output token (what `tpot` summarises)
    double output_tokens = 0;        ///< Σ O
    double makespan = 0;             ///< t = 0 to the last answer at the client (s)
    double output_tokens_per_s = 0;  ///< Σ O ÷ makespan
    double mean_decode_batch = 0;    ///< sequences per decode step, averaged over steps
    double mean_prompts_per_pass = 0;  ///< prompts per prefill pass, averaged over passes
    double prefill_passes = 0;
    double decode_steps = 0;
};

/// Checks one drawn request against both pools (the message, with the request's number, is built only
/// for a request that breaks a rule): whole tokens, input + output within the model's max_position, the
/// prompt's KV within a prefill rank's pool and the whole sequence's (input + output) within a decode
/// rank's (`kv_budget_per_gpu`): a request no rank can hold is refused, not simulated as if it fit.
inline void check_disaggregated_request(const worker_pool& prefill, const worker_pool& decode, double input,
                                        double output, std::size_t index) {
    const bool lengths_ok = input >= 1.0 && std::isfinite(input) && output >= 1.0 && std::isfinite(output) &&
                            detail::const_trunc(input) == input && detail::const_trunc(output) == output;
    const double prefill_kv = lengths_ok ? kv_bytes_per_gpu_for_context(prefill.d, tokens(input)).value() : 0.0;
    const double decode_kv = lengths_ok ? kv_bytes_per_gpu_for_context(decode.d, tokens(input + output)).value() : 0.0;
    if (lengths_ok && input + output <= decode.d.m.max_position && prefill_kv <= kv_budget_per_gpu(prefill.d).value() &&
        decode_kv <= kv_budget_per_gpu(decode.d).value())
        return;
    const std::string where = "disaggregated request " + std::to_string(index + 1);
    require(input >= 1.0 && std::isfinite(input) && detail::const_trunc(input) == input, where, "input (tokens)", input,
            "a request has a whole number of prompt tokens, at least one", "llmcost.simulate.request_tokens");
    require(output >= 1.0 && std::isfinite(output) && detail::const_trunc(output) == output, where, "output (tokens)",
            output, "a request generates a whole number of tokens, at least one", "llmcost.simulate.request_tokens");
    require_within_max_position(decode.d.m, input + output, " (" + where + ": input + output)");
    require(prefill_kv <= kv_budget_per_gpu(prefill.d).value(), where, "prefill KV per sequence (B)", prefill_kv,
            "does not fit: the prompt needs more KV than a prefill rank's share of the HBM left after the weights",
            "llmcost.fit.kv_sequence");
    require(false, where, "decode KV per sequence (B)", decode_kv,
            "does not fit: prompt + answer need more KV than a decode rank's share of the HBM left after the weights",
            "llmcost.fit.kv_sequence");
}

/// Simulates the closed loop of `c` against the pools (see the file's comment); the KV over `path`,
/// M = `l.max_tokens_per_step` (0: no cap).
[[nodiscard]] inline disaggregated_result simulate_disaggregated(const worker_pool& prefill, const worker_pool& decode,
                                                                 const disaggregated_client& c, kv_path path,
                                                                 const scheduler_limits& l = {}) {
    prefill.validate();
    decode.validate();
    c.validate();
    require_weights_fit(prefill.d);
    require_weights_fit(decode.d);
    require(l.max_tokens_per_step == 0.0 || l.max_tokens_per_step >= 1.0, "disaggregated simulation", "max_tokens_per_step",
            l.max_tokens_per_step, "a step's token cap is 0 (none) or at least one token");
    const auto ap = static_cast<std::size_t>(prefill.ranks()), ad = static_cast<std::size_t>(decode.ranks());
    const auto n = static_cast<std::size_t>(c.prompts);
    const pass_model pm_p = prepare_pass(prefill.d), pm_d = prepare_pass(decode.d);
    const seconds_t front_end = prefill.d.engine.overheads.request;
    const double cap = l.max_tokens_per_step;

    struct request {
        double input = 0, output = 0, sent = 0, first = 0, last = 0;
        double first_step = 0;  // the decode rank's step in which it makes its first token
    };
    std::vector<request> reqs;
    reqs.reserve(n);
    workload::sampler draw(c.seed);

    enum class kind { arrive, prefill_done, ready, step_done, prefill_start, decode_start };
    using event = std::tuple<double, std::uint64_t, kind, std::size_t>;  // time, order, kind, request or rank
    std::priority_queue<event, std::vector<event>, std::greater<>> events;
    std::uint64_t order = 0;
    auto at = [&](double t, kind k, std::size_t i) { events.emplace(t, order++, k, i); };

    auto send = [&](double t) {  // the client's next prompt, at the prefill pool's router at once
        request r{};
        r.input = draw.length(c.input);
        r.output = draw.length(c.output);
        check_disaggregated_request(prefill, decode, r.input, r.output, reqs.size());
        r.sent = t;
        reqs.push_back(r);
        at(t, kind::arrive, reqs.size() - 1);
    };

    struct prefill_rank {
        std::deque<std::size_t> queue;
        std::vector<std::size_t> pass;
        bool busy = false;
    };
    struct decode_rank {
        // (the step of its last token, request): the sequences in the batch, soonest end first
        std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>, std::greater<>> running;
        std::vector<std::size_t> joining, joined;
        double step = 0;        // steps completed
        double base = 0;        // Σ (input − first_step + 1): the batch's context sum is base + b · (step − 1) in step `step`
        bool busy = false;
    };
    std::vector<prefill_rank> pre(ap);
    std::vector<decode_rank> dec(ad);
    std::size_t next_p = 0, next_d = 0;
    disaggregated_result out{};

    auto start_pass = [&](std::size_t k, double t) {
        prefill_rank& p = pre[k];
        p.pass.clear();
        double tokens_in = 0.0;
        while (!p.queue.empty()) {
            const double next = reqs[p.queue.front()].input;
            if (!p.pass.empty() && cap > 0.0 && tokens_in + next > cap) break;
            tokens_in += next;
            p.pass.push_back(p.queue.front());
            p.queue.pop_front();
        }
        const auto b = static_cast<double>(p.pass.size());
        p.busy = true;
        out.prefill_passes += 1.0;
        out.mean_prompts_per_pass += b;
        at(t + prefill_pass(pm_p, b, tokens(tokens_in / b), tokens(0.0)).time().value(), kind::prefill_done, k);
    };
    auto start_step = [&](std::size_t k, double t) {
        decode_rank& r = dec[k];
        const double s = r.step + 1.0;
        for (const std::size_t i : r.joining) {
            reqs[i].first_step = s;
            r.base += reqs[i].input - s + 1.0;
            r.running.emplace(s + reqs[i].output - 1.0, i);
        }
        r.joined.swap(r.joining);
        r.joining.clear();
        const auto b = static_cast<double>(r.running.size());
        const double context = (r.base + b * (s - 1.0)) / b;  // prompt + tokens made before this step
        r.busy = true;
        out.decode_steps += 1.0;
        out.mean_decode_batch += b;
        at(t + decode_pass(pm_d, detail::micro_batch(decode.d, b), tokens(context)).time().value(), kind::step_done, k);
    };

    for (std::size_t i = 0; i < static_cast<std::size_t>(c.clients); ++i) send(0.0);
    while (!events.empty()) {
        const auto [t, ord, what, i] = events.top();
        (void)ord;
        events.pop();
        switch (what) {
            case kind::arrive: {
                const std::size_t k = next_p++ % ap;
                pre[k].queue.push_back(i);
                if (!pre[k].busy) {  // starts once every prompt that arrives at this instant is queued
                    pre[k].busy = true;
                    at(t, kind::prefill_start, k);
                }
                break;
            }
            case kind::prefill_done: {
                for (const std::size_t j : pre[i].pass)
                    at(t + kv_transfer_for(prefill.d, tokens(reqs[j].input), path).time.value(), kind::ready, j);
                // The next pass starts as an event at t, after every prompt that reaches this rank at t
                // is queued (a tie with an arrival joins the pass, as the opening wave's prompts do).
                pre[i].busy = !pre[i].queue.empty();
                if (pre[i].busy) at(t, kind::prefill_start, i);
                break;
            }
            case kind::ready: {
                const std::size_t k = next_d++ % ad;
                dec[k].joining.push_back(i);
                if (!dec[k].busy) {  // steps once every KV cache that arrives at this instant has joined
                    dec[k].busy = true;
                    at(t, kind::decode_start, k);
                }
                break;
            }
            case kind::prefill_start: start_pass(i, t); break;
            case kind::decode_start: start_step(i, t); break;
            case kind::step_done: {
                decode_rank& r = dec[i];
                r.step += 1.0;
                for (const std::size_t j : r.joined) reqs[j].first = t;
                r.joined.clear();
                while (!r.running.empty() && r.running.top().first <= r.step) {
                    const std::size_t j = r.running.top().second;
                    r.running.pop();
                    reqs[j].last = t;
                    r.base -= reqs[j].input - reqs[j].first_step + 1.0;
                    if (reqs.size() < n) send(client_first_token(seconds(t), front_end).value());
                }
                // The next step starts as an event at t, after every KV cache that arrives at t has joined.
                r.busy = !r.running.empty() || !r.joining.empty();
                if (r.busy) at(t, kind::decode_start, i);
                break;
            }
        }
    }

    std::vector<double> ttft, tpot;
    ttft.reserve(n);
    tpot.reserve(n);
    for (const request& r : reqs) {
        ttft.push_back(client_first_token(seconds(r.first - r.sent), front_end).value());
        if (r.output > 1.0) tpot.push_back((r.last - r.first) / (r.output - 1.0));
        out.output_tokens += r.output;
        out.makespan = detail::max(out.makespan, client_first_token(seconds(r.last), front_end).value());
    }
    out.ttft = summarise(ttft);
    out.tpot_requests = static_cast<double>(tpot.size());
    if (!tpot.empty()) out.tpot = summarise(tpot);
    out.output_tokens_per_s = out.output_tokens / out.makespan;
    out.mean_decode_batch /= out.decode_steps;
    out.mean_prompts_per_pass /= out.prefill_passes;
    return out;
}

}  // namespace llmcost::sim
