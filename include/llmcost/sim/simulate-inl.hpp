#pragma once
/// \file
/// The body of sim/simulate.hpp. Compiled once into the `llmcost_plan` library (simulate.cpp), or
/// included by sim/simulate.hpp when `LLMCOST_HEADER_ONLY` is defined (detail/header_only.hpp).
/// Not a public header: include sim/simulate.hpp.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/serving/prefix_cache.hpp>
#include <llmcost/sim/simulate.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llmcost::sim {

namespace internal {

/// A log-spaced histogram of step times weighted by the tokens they emit: ITL percentiles over
/// every token without keeping one number per token (bins 0.1% wide: the percentiles' error).
class itl_histogram {
public:
    void add(double t, double weight) {
        if (!(t > 0.0) || !(weight > 0.0)) return;
        const double k = std::floor(std::log(t / lo) / step);
        const std::size_t i = static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(bins - 1)));
        w_[i] += weight;
        total_ += weight;
        sum_ += t * weight;
        max_ = std::max(max_, t);
    }
    [[nodiscard]] percentiles summary() const {
        percentiles p{};
        if (!(total_ > 0.0)) return p;
        p.mean = sum_ / total_;
        p.max = max_;
        const std::array<double*, 3> out{&p.p50, &p.p90, &p.p99};
        const std::array<double, 3> q{0.5, 0.9, 0.99};
        std::size_t j = 0;
        double seen = 0.0;
        for (std::size_t i = 0; i < bins && j < 3; ++i) {
            seen += w_[i];
            while (j < 3 && seen >= q[j] * total_) *out[j++] = lo * std::exp((static_cast<double>(i) + 0.5) * step);
        }
        return p;
    }

private:
    static constexpr double lo = 1e-7;     // 0.1 µs
    static constexpr double step = 1e-3;   // ln(1.001)
    static constexpr std::size_t bins = 25000;  // up to lo · e^25 ≈ 7 · 10³ s
    std::vector<double> w_ = std::vector<double>(bins, 0.0);
    double total_ = 0, sum_ = 0, max_ = 0;
};

/// Steps priced once per exact shape: a direct-mapped table keyed by the six sums that fix the
/// step formula's terms, for an eager prompt step the step before it, and whether its prompts run absorbed MLA.
class step_cache {
public:
    using key = std::array<double, 8>;
    template <class Price>
    double get(const key& k, Price&& price, double& hits) {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (double x : k) h = (h ^ std::bit_cast<std::uint64_t>(x)) * 0x100000001b3ULL;
        slot& s = slots_[static_cast<std::size_t>(h >> 52)];  // 4096 slots
        if (s.used && s.k == k) {
            hits += 1.0;
            return s.t;
        }
        s = {.k = k, .t = price(), .used = true};
        return s.t;
    }

private:
    struct slot {
        key k{};
        double t = 0;
        bool used = false;
    };
    std::vector<slot> slots_ = std::vector<slot>(4096);
};

/// What every server shares: the prepared deployment and the engine's limits.
struct engine {
    pass_model pm;
    /// `pm` for a prompt step that runs absorbed MLA (`absorbed_prompt_attention`), set where the engine has such
    /// steps for the model (`has_absorbed_prompt_steps`; SGLang on Hopper's continuation steps)
    std::optional<pass_model> absorbed{};
    scheduler_limits limits;
    double kv_budget = 0;        ///< bytes of KV per GPU one server may use
    double kv_per_token = 0;     ///< bytes per GPU per cached token
    tokens_t kv_block = tokens(1.0);  ///< the engine's KV block B (`kv_block_size`): a whole reserve takes whole blocks
    /// Bytes per GPU a sequence on the KV in use holds past its tokens: its last block's mean waste, (B − 1) ÷ 2
    /// slots (`kv_expected_block_waste`), taken at admission and given back with the sequence.
    double kv_block_waste = 0;
    /// Bytes of the pool admission may fill: kv_budget · (1 − w), w = `scheduler_limits::admission_watermark`
    /// (vLLM V0 keeps 1% of its blocks free at admission); a running sequence grows into the rest.
    double admission_room = 0;
    double max_batch = 0;        ///< sequences per server (0: no cap)
    double max_tokens = 0;       ///< tokens per step (0: no cap)
    double chunk = 0;            ///< prompt chunk (0: whole prompts)
    bool closed_loop = false;
    bool swap = false;           ///< preempted KV swapped to host memory, not recomputed
    double prefix_hit_rate = 0;  ///< share of every prompt found cached
    bool trace_prefixes = false; ///< trace prefix ids find their shared part cached
    double shared_prefix = 0;    ///< its length (0: the shorter prompt)
    bool ignore_max_position = false;  ///< requests past max_position priced as fits (options::ignore_max_position)
    bool cold = false;           ///< a closed loop on servers started cold: the opening pays `cold_opening`
    bool cold_opening = false;   ///< and its engine's opening applies to this model (`engine_overheads::pays_cold_opening`)
    /// An overlap loop's L (`scheduler_limits::overlap_lag_steps`, else the engine's: `detail::overlap_lag_of`): a
    /// closed loop's steps between an answer's last step and the first that can carry its client's next prompt; an
    /// open arrival waits L − 1 steps more.
    double overlap_lag = 0;
    first_use_trigger build = first_use_trigger::none;  ///< a cold closed loop's first-use build trigger (`options::first_use_build`)
    /// Attention-DP ranks under TensorRT-LLM's balance (`scheduler_limits::adp_timeout_iters`): R ≥ 2
    /// with the balance on, else 1 (no balance).
    double adp_ranks = 1;
    std::uint64_t seed = 1;      ///< the run's seed (the other ranks' prompts under the balance)
    std::optional<per_second_t> adp_others_rate{};  ///< the other ranks' prompt rate; none: this rank's own so far
    std::optional<double> adp_others_input{};       ///< the other ranks' prompt length; none: drawn from the run's requests
    double adp_busiest_z = 0;    ///< z_R = E[max of R standard normals]: the busiest rank's KV (`expected_max_of_normals`)
};

/// What a server does with its requests: all of it, or one side of a disaggregated pair.
enum class stage {
    colocated,  ///< prompt and answer
    prefill,    ///< the prompt only: done when its KV is complete (no token counted here)
    decode,     ///< the answer only: the prompt's KV arrives with the request, every token a decode step
};

/// TensorRT-LLM's attention-DP balance runs this server's iterations in lockstep with R − 1 other ranks:
/// R ≥ 2 ranks with the balance on (`engine::adp_ranks`), on a colocated server only (a decode server's
/// requests arrive prefilled, generation requests the balance never holds; a prefill server keeps the
/// steady-state 1 ÷ β). Where it runs, `run_server` prices the others' prompts and the busiest rank's KV,
/// and `simulate` drops 1 ÷ β, which stands for the same imbalance.
[[nodiscard]] inline bool adp_lockstep(const engine& e, stage role) { return e.adp_ranks >= 2.0 && role == stage::colocated; }

/// A request in the engine.
struct live {
    double input = 0, output = 0;
    double prompt = 0;       ///< tokens to prefill now (input, or input + generated after a preemption)
    double prefilled = 0;
    double generated = 0;    ///< output tokens so far, at `entered` (for a decoding sequence)
    double entered = 0;      ///< the step at which it began decoding
    double reserved = 0;     ///< KV bytes held (full-sequence reserve)
    double admitted = -1;    ///< time of first admission
    std::size_t req = 0;     ///< the request (the server's own numbering)
    std::uint32_t version = 0;  ///< bumped when preempted or its slot reused: stale finish events skip it
    bool decoding = false, done = false, running = false;
    bool resident = false;   ///< its context's KV is ready (swapped out, or sent by a prefill server): no prefill
    bool answered = false;   ///< its last token is computed, but its block runs on (`scheduler_limits::outputs_per_block`)
    /// Running but left out of the decode by a decode target (`scheduler_limits::decode_cut`): it keeps its
    /// KV and waits in the running queue for a pass that decodes it.
    bool paused = false;
    std::uint64_t ticket = 0;  ///< its place in the running queue under a decode target (0: none)
};

/// Each request's times, one array a figure (all servers write into them, by request number).
struct timings {
    std::vector<double> arrival, queue, ttft, e2e;
    std::vector<int> preemptions;  ///< kept only with the requests
    std::vector<double> prefilled; ///< disaggregated: when the prefill server finished the prompt
};

struct finish_event {
    double step;
    std::size_t id;
    std::uint32_t version;
    bool operator>(const finish_event& o) const { return step != o.step ? step > o.step : id > o.id; }
};

/// One server's run over its requests (arrival order), writing each request's figures.
inline void run_server(const engine& e, std::span<const workload::request> all_reqs, std::span<const std::size_t> ids,
                       timings& out,
                       itl_histogram& itl, result& r, step_cache& cache, bool record_timeline, double timeline_points,
                       double clients, stage role = stage::colocated, double origin = -1.0, std::uint64_t server = 0) {
    const model& m = e.pm.d.m;
    const model::layer_counts& kinds = e.pm.layer_kinds;  // counted once, not per step
    std::vector<live> s;  // slots for the requests in the engine (waiting or running), reused
    std::vector<std::size_t> free_slots;
    struct indexed {  // this server's requests and results, by its own numbering
        std::span<const workload::request> r;
        std::span<const std::size_t> ids;
        const workload::request& operator[](std::size_t i) const { return r[ids[i]]; }
        [[nodiscard]] std::size_t size() const { return ids.size(); }
        [[nodiscard]] const workload::request& front() const { return r[ids.front()]; }
        [[nodiscard]] bool empty() const { return ids.empty(); }
    } reqs{all_reqs, ids};
    std::deque<std::size_t> waiting;
    // Arrived but not yet received by the scheduler: it polls for new requests only every
    // `receive_interval` decode steps (SGLang --scheduler-recv-interval), at once when idle or after
    // a step that carried a prompt (`scheduler_limits::receive_interval`).
    std::vector<std::size_t> unreceived;
    double decode_steps_since_poll = 0;
    bool prompt_in_last_step = false;
    // A pass may admit with fewer than `min_waiting_prompts` waiting only if the last one declined.
    bool prefill_turn = true;
    std::vector<std::size_t> prefilling, chunk_of_step;
    std::vector<double> chunk_tokens;
    std::vector<std::size_t> admitted_order;  // newest last: who is preempted first
    std::priority_queue<finish_event, std::vector<finish_event>, std::greater<>> finishing;
    std::deque<finish_event> first_token;  // resident sequences admitted: their first decode step emits token 1
    // Answers whose last token came out inside a block that runs whole (`outputs_per_block`): they
    // decode on, in the batch and the KV, until the block's last step, where they end.
    std::vector<finish_event> answered;
    std::unordered_map<long, double> cached_prefix;  // trace prefix id → the longest prompt prefilled with it
    auto swap_time = [&](double context) { return kv_swap_time(e.pm.d, tokens(context)).value(); };
    double stalled = 0.0;  // swap time since the last step: the next tokens wait for it too (ITL)
    double previous_step = 0;  // the last step's time, 0 when the engine was idle before it
    double previous_launch = 0;  // the host's own launch of the last step: H where it carried an eager prompt, else 0
    bool opening_started = false;  // a cold server has run a step of its opening (`engine::cold`)
    bool built = false;            // a cold server has paid its first-use build (`engine::build`)
    // A decode target (`scheduler_limits::decode_cut`, AMD's MLPerf V0 scheduler): the running queue in
    // V0's order (slot, ticket; an entry whose slot no longer holds that ticket, or no longer runs, is
    // stale), and the sequences it leaves out of the decode (running, holding their KV, not decoding).
    const decode_target& cut = e.limits.decode_cut;
    std::deque<std::pair<std::size_t, std::uint64_t>> running_queue;
    std::uint64_t next_ticket = 1;
    double paused = 0;
    double now = 0, step_no = 0, decodes = 0, context_sum = 0, used = 0, busy = 0;
    // Σ c² over the decoding sequences' contexts (whole tokens: exact in a double), beside context_sum = Σ c:
    // their spread, which sets how far the busiest attention-DP rank's KV is above ours (below).
    double context_squares = 0;
    auto context_enters = [&](double c) { context_sum += c; context_squares += c * c; };
    auto context_leaves = [&](double c) { context_sum -= c; context_squares -= c * c; };
    double batch_time = 0, kv_time = 0, first_arrival = reqs.empty() ? 0.0 : reqs.front().arrival.value();
    std::size_t next = 0, finished = 0;
    // Closed loop: the first `clients` requests are sent at once; each answer releases the next.
    double clients_free = 0;
    // SGLang's overlap loop (`scheduler_limits::overlap_lag_steps` L, colocated servers): a client freed at the end
    // of step j sends its next prompt then (its arrival), and the scheduler takes it no earlier than the turn that
    // builds step j + 1 + L, behind the L steps already launched; an engine that runs nothing takes it at once.
    const double lag = role == stage::colocated ? e.overlap_lag : 0.0;
    struct freed_client {
        double ready;  // the steps run after which it is taken: j + L
        double sent;   // when its client sent the next prompt: the end of step j
    };
    std::deque<freed_client> lagging;
    // Open arrivals (`detail::open_arrival_lag_steps`, L − 1 = 1 for SGLang): one that arrives while step k runs is
    // received at its end and enters step k + 1 + (L − 1); the turn after step m takes those that arrived by the start
    // of step m − (L − 1) + 1 (the starts of the last L − 1 steps kept); an engine that runs nothing takes it at once.
    const double open_lag = e.closed_loop ? 0.0 : detail::open_arrival_lag_steps(lag);
    std::deque<double> step_starts;
    double steps_run = 0;  // this server's steps so far
    double stride = 1, sampled = 0;

    auto take = [&](std::size_t i, double t) {  // request i arrives at t: a slot for it
        std::size_t k = s.size();
        if (!free_slots.empty()) {
            k = free_slots.back();
            free_slots.pop_back();
            const std::uint32_t v = s[k].version + 1;
            s[k] = live{};
            s[k].version = v;
        } else {
            s.emplace_back();
        }
        live& q = s[k];
        q.req = i;
        q.input = q.prompt = reqs[i].input.value();
        q.output = reqs[i].output.value();
        q.resident = role == stage::decode;
        if (role != stage::decode) out.arrival[ids[i]] = t;
        unreceived.push_back(k);
    };
    auto arrive = [&](double t) {
        if (e.closed_loop) {
            const bool idle = decodes + static_cast<double>(prefilling.size()) + paused == 0.0;  // no step in flight
            for (; !lagging.empty() && (idle || lagging.front().ready <= steps_run) && next < reqs.size(); lagging.pop_front())
                take(next++, lagging.front().sent);
            for (; clients_free > 0 && next < reqs.size(); clients_free -= 1) take(next++, t);
            return;
        }
        double by = t;
        if (open_lag > 0.0 && decodes + static_cast<double>(prefilling.size()) + paused > 0.0)  // a step in flight
            by = static_cast<double>(step_starts.size()) >= open_lag ? std::min(t, step_starts.front())
                                                                      : -std::numeric_limits<double>::infinity();
        for (; next < reqs.size() && reqs[next].arrival.value() <= by; ++next) take(next, reqs[next].arrival.value());
    };
    // The KV a request takes at admission: its whole sequence reserved, or its prompt's tokens.
    auto need_for = [&](double input, double output, double prompt) {
        // A prefill server holds the prompt only; its answer is another server's.
        return e.limits.reserve_full_sequence
                   ? kv_bytes_per_gpu_for_context(e.pm.d, kv_block_slots(tokens(input + (role == stage::prefill ? 0.0 : output)),
                                                                         e.kv_block)).value()
                   : e.kv_per_token * prompt + e.kv_block_waste;
    };
    auto need_at_admission = [&](const live& q) { return need_for(q.input, q.output, q.prompt); };
    auto finish = [&](std::size_t id) {
        live& q = s[id];
        q.done = true;
        q.running = false;
        free_slots.push_back(id);
        if (role == stage::prefill) {  // the prompt's KV leaves for a decode server
            out.prefilled[ids[q.req]] = now;
            used -= e.limits.reserve_full_sequence ? q.reserved : e.kv_per_token * q.prompt + e.kv_block_waste;
            return;
        }
        out.e2e[ids[q.req]] = now - out.arrival[ids[q.req]];
        used -= e.limits.reserve_full_sequence ? q.reserved : e.kv_per_token * (q.input + q.output) + e.kv_block_waste;
        r.output_tokens += q.output;
        ++finished;
        if (e.closed_loop && lag > 0.0) lagging.push_back({.ready = steps_run + lag, .sent = now});
        else if (e.closed_loop) clients_free += 1;
    };
    // The prompt tokens found in the prefix cache: a share of every prompt, or the part a trace's
    // prefix id shares with a prompt already prefilled here; never the whole prompt. Whole tokens
    // (rounded down): the chunks that follow are whole, and the prompt ends exactly.
    auto cached_tokens = [&](const live& q) {
        double c = e.prefix_hit_rate > 0.0 ? q.input - fresh_prompt_tokens(tokens(q.input), e.prefix_hit_rate).value() : 0.0;
        if (e.trace_prefixes && reqs[q.req].prefix >= 0) {
            const auto it = cached_prefix.find(reqs[q.req].prefix);
            if (it != cached_prefix.end()) {
                const double shared = e.shared_prefix > 0.0 ? std::min(e.shared_prefix, it->second) : it->second;
                c = std::max(c, std::min(shared, q.prompt - 1.0));
            }
        }
        return std::floor(c);
    };
    // A sequence whose context's KV is ready decodes from its admission: token generated + 1 comes
    // out of the next step.
    auto start_decoding = [&](std::size_t id) {
        live& q = s[id];
        q.decoding = true;
        q.entered = step_no;
        decodes += 1.0;
        context_enters(q.input + q.generated);
        finishing.push({.step = step_no + (q.output - q.generated), .id = id, .version = q.version});
        if (q.generated == 0.0) first_token.push_back({.step = step_no + 1.0, .id = id, .version = q.version});
    };
    // Its tokens so far: those it had when it last started decoding, and one a step since.
    auto tokens_so_far = [&](const live& q) { return q.decoding ? q.generated + (step_no - q.entered) : q.generated; };
    // start_decoding's reverse: it leaves the decode with its tokens so far (its finish event goes stale where the
    // caller bumps its version).
    auto stop_decoding = [&](std::size_t id) {
        live& q = s[id];
        const double gen = tokens_so_far(q);
        decodes -= 1.0;
        context_leaves(q.input + gen);
        q.generated = gen;
        q.decoding = false;
    };
    // Under a decode target: a sequence that starts running joins the running queue's tail.
    auto enqueue = [&](std::size_t id) {
        if (!cut.on()) return;
        s[id].ticket = next_ticket++;
        running_queue.emplace_back(id, s[id].ticket);
    };
    // A pass of the decode target: the first `cut.of(n)` of the n running decode, those left out wait with
    // their KV; the decoded go back at the queue's head in reverse (V0's deque.extendleft), the rest behind.
    auto decode_pass = [&] {
        std::erase_if(running_queue, [&](const std::pair<std::size_t, std::uint64_t>& k) {
            const live& q = s[k.first];
            return q.ticket != k.second || !q.running || q.done || !(q.decoding || q.paused);
        });
        const double n = static_cast<double>(running_queue.size());
        const auto head = static_cast<std::size_t>(std::min(n, cut.of(n)));
        for (std::size_t j = 0; j < running_queue.size(); ++j) {
            const std::size_t id = running_queue[j].first;
            live& q = s[id];
            if (j < head && q.paused) {  // its turn: it decodes from here
                q.paused = false;
                paused -= 1.0;
                start_decoding(id);
            } else if (j >= head && q.decoding && !q.answered) {  // left out: its tokens so far, its KV kept
                stop_decoding(id);
                q.paused = true;
                ++q.version;  // its finish event is stale; a later pass schedules it again
                paused += 1.0;
            }
        }
        std::reverse(running_queue.begin(), running_queue.begin() + static_cast<std::ptrdiff_t>(head));
    };
    if (e.closed_loop) clients_free = clients;
    // TensorRT-LLM's attention-DP balance (`adp_balance_step`) over R ranks: this server is one of
    // them; each of the other R − 1 is modelled as alike — answers running when this one has them, a
    // free slot when this one has one — with its next waiting prompt arriving as a Poisson stream at
    // this rank's own rate so far (a closed loop: its answers completed ÷ time, each freeing a client
    // whose next prompt TensorRT-LLM routes to the rank with the fewest requests; open arrivals: its
    // requests arrived ÷ time since its first). A rank's waiting prompt stays until a release admits it.
    // Colocated servers only: a decode server's requests arrive prefilled (generation requests, which
    // the balance never holds).
    const bool balance = adp_lockstep(e, role);
    std::vector<char> other_waiting(balance ? static_cast<std::size_t>(e.adp_ranks) - 1 : 0, 0);
    workload::sampler others(e.seed ^ 0xada0'ba1a'0000'0000ULL ^ (server * 0x9e37'79b9'7f4a'7c15ULL));
    // The other ranks' context requests, one a rank: the prompt tokens it still has to prefill, the
    // tokens before them (its prefix-cache hit, then its chunks so far), and this iteration's chunk.
    // The ranks run each iteration in lockstep (the MoE's all-to-all of every layer is a collective over
    // every rank: TensorRT-LLM's ADP blog, iteration time = max over ranks), so a release's iteration
    // lasts as long as the busiest rank's step (below). A length is drawn from the run's requests (their
    // prompt lengths: the run's input distribution), with the run's seed on a stream of its own, so the
    // balance's draws above are the same ones whatever the lengths.
    // A rank's request also keeps its KV need (the same rule as ours, `need_for`), whether its scheduler
    // has started it (a started prompt's next chunks need no new room) and whether it may run this iteration.
    std::vector<double> other_prompt(other_waiting.size(), 0.0), other_prefix(other_waiting.size(), 0.0),
        other_chunk(other_waiting.size(), 0.0), other_need(other_waiting.size(), 0.0);
    std::vector<char> other_started(other_waiting.size(), 0), other_may_run(other_waiting.size(), 0);
    std::vector<adp_rank_chunk> other_chunks;
    workload::sampler other_lengths(e.seed ^ 0x1e9a'57e9'0000'0000ULL ^ (server * 0x9e37'79b9'7f4a'7c15ULL));
    struct other_request {
        double prefix, fresh, need;  // tokens found cached, tokens to prefill, KV at admission
    };
    auto draw_other = [&] {
        const double n = static_cast<double>(all_reqs.size());
        const workload::request& drawn = all_reqs[std::min(all_reqs.size() - 1, static_cast<std::size_t>(other_lengths.unit() * n))];
        const double l = e.adp_others_input ? *e.adp_others_input : drawn.input.value();
        // A share found in the prefix cache, as for this rank's own prompts (`cached_tokens`).
        const double cached = e.prefix_hit_rate > 0.0 ? std::floor(l - fresh_prompt_tokens(tokens(l), e.prefix_hit_rate).value()) : 0.0;
        return other_request{.prefix = cached, .fresh = l - cached, .need = need_for(l, drawn.output.value(), l)};
    };
    auto other_prompt_arrives = [&](std::size_t k) {
        const other_request q = draw_other();
        other_prefix[k] = q.prefix;
        other_prompt[k] = q.fresh;
        other_need[k] = q.need;
        other_started[k] = 0;
    };
    adp_balance_counters counters{};
    double last_iteration = first_arrival;

    for (;;) {
        arrive(now);
        // Running: decoding, prefilling, or left out by a decode target (V0 counts all of them as running).
        const double running_count = decodes + static_cast<double>(prefilling.size()) + paused;
        // The poll: every `receive_interval` decode steps since the last, after a step that carried a
        // prompt, or when idle — whether or not a request came (SGLang's SchedulerRecvSkipper counter).
        const bool poll = running_count == 0 || prompt_in_last_step || decode_steps_since_poll >= e.limits.receive_interval;
        if (poll) {
            waiting.insert(waiting.end(), unreceived.begin(), unreceived.end());
            unreceived.clear();
            decode_steps_since_poll = 0;
        }
        // A decode target's prefill gate: a pass prefills only below its maximum running and above its
        // free-KV threshold (`decode_target::may_prefill`).
        const bool gate_open = !cut.on() || cut.may_prefill(running_count, tokens((e.kv_budget - used) / e.kv_per_token));
        // A minimum of waiting prompts (AMD's MLPerf scheduler): admission only at a pass, and there
        // only with Q waiting, with an idle engine, or on the turn after a pass that declined. The gate comes
        // first and a pass it shut declines too (add-MIN_REQUIRE_PREFILL_QUERY-condition.patch:
        // do_prefill = gate and (enough or _do_prefill); _do_prefill = not do_prefill), so the next is free.
        bool may_admit = gate_open;
        if (e.limits.min_waiting_prompts > 1.0) {
            may_admit = poll && gate_open &&
                        (running_count == 0 || prefill_turn || static_cast<double>(waiting.size()) >= e.limits.min_waiting_prompts);
            if (poll) prefill_turn = !may_admit;
        }
        if (running_count == 0 && waiting.empty()) {
            if (e.closed_loop || next >= reqs.size()) break;
            now = std::max(now, reqs[next].arrival.value());
            previous_step = 0.0;  // idle: no step runs while the next one is launched
            previous_launch = 0.0;
            continue;
        }
        bool hold = false;  // the balance holds every context request (new and partly prefilled) this iteration
        if (balance) {
            const double elapsed = now - first_arrival;
            // Arrivals counted after the first, which opens `elapsed` (counting it would start the rate at 1 ÷ t).
            const double seen = e.closed_loop ? static_cast<double>(finished)
                                              : std::max(0.0, static_cast<double>(next) - 1.0);
            const per_second_t rate = e.adp_others_rate ? *e.adp_others_rate : per_second(elapsed > 0.0 ? seen / elapsed : 0.0);
            const double x = (rate * seconds(now - last_iteration)).value();  // λ · Δt, prompts expected since the last iteration
            const double p = x > 0.0 ? 1.0 - std::exp(-x) : 0.0;  // a prompt came since the last iteration
            last_iteration = now;
            // A rank's scheduler starts a waiting prompt of KV need `need` if the batch cap leaves a slot and
            // the KV room holds it (or the rank runs nothing): the other ranks, alike ours in their running
            // sequences and KV, by the same rule as ours.
            auto would_start = [&](double need) {
                return (e.max_batch == 0 || running_count + 1.0 <= e.max_batch) &&
                       (used + need <= e.admission_room || running_count == 0);
            };
            // This rank has a context request: a prompt part-way through its chunks, or a waiting one
            // its scheduler would start.
            bool all_prompt = !prefilling.empty();
            if (!all_prompt && !waiting.empty()) all_prompt = would_start(need_at_admission(s[waiting.front()]));
            for (std::size_t j = 0; j < other_waiting.size(); ++j) {
                char& w = other_waiting[j];
                if (!w && others.unit() < p) {
                    w = 1;
                    other_prompt_arrives(j);
                }
                other_may_run[j] = w && (other_started[j] || would_start(other_need[j]));
                all_prompt = all_prompt && other_may_run[j];
            }
            const adp_balance_decision b = adp_balance_step(
                counters,
                {.all_have_prompt = all_prompt,
                 .all_have_free_slot = e.max_batch == 0 || decodes < e.max_batch,
                 .all_have_answers = decodes > 0},
                e.limits.adp_timeout_iters, e.limits.adp_batching_wait_iters);
            counters = b.next;
            if (!b.release) {
                hold = true;
                may_admit = false;
            }
        }
        // The KV this rank held before its admissions below: the other ranks, alike ours as the balance
        // found them (`would_start`: our running count and KV before this iteration's admissions), add
        // their own context requests to it, not ours.
        const double used_at_release = used;
        // Admission, first come first served: stop at the first request that does not fit.
        double admitted_now = running_count, swap_in = 0.0;
        std::vector<remaining_sequence> ends;
        // A gated pass (a decode target's, AMD's MLPerf V0 scheduler) admits whole prompts only while this step's
        // token budget holds them: V0's `_schedule_prefills` stops at the first prompt that
        // `SchedulingBudget.can_schedule` refuses (Σ uncached prompt tokens ≤ max_num_batched_tokens), the rest wait
        // for the next pass, whose gate (`may_prefill`) sees the running count these made (vllm/core/scheduler.py,
        // ROCm/vllm @71faa1880). Room = budget − prompts pending: a prompt step there carries no decodes (a decode
        // target needs prefill_alone, `scheduler_limits::validate`).
        double prompt_room = std::numeric_limits<double>::infinity();
        if (cut.on() && e.max_tokens > 0) {
            prompt_room = e.max_tokens;
            for (const std::size_t id : prefilling) prompt_room -= s[id].prompt - s[id].prefilled;
        }
        while (may_admit && !waiting.empty()) {
            const std::size_t id = waiting.front();
            live& q = s[id];
            if (e.max_batch > 0 && admitted_now + 1.0 > e.max_batch) break;
            if (cut.on() && !q.resident) {  // the step's budget, above; its first prompt always goes in (V0 has none longer)
                const double fresh = q.prompt - cached_tokens(q);
                if (fresh > prompt_room && (admitted_now > running_count || !prefilling.empty())) break;
                prompt_room -= fresh;
            }
            const double need = need_at_admission(q);
            bool fits = used + need <= e.admission_room;  // vLLM V0: free blocks after it ≥ the watermark
            // Every answer's end must fit too (SGLang, ignore_eos); a prefill server holds no answer's end. Counted
            // in tokens: SGLang's page_size 1 (B = 1); under another --kv-block-tokens it omits the last blocks' waste.
            if (fits && e.limits.ignore_eos_admission && role != stage::prefill) {
                ends.clear();
                for (const std::size_t j : admitted_order)  // the running set in this mode (no full reserve)
                    if (const live& k = s[j]; k.running && !k.done) {
                        const double gen = tokens_so_far(k);
                        ends.push_back({.left = tokens(k.output - gen), .held = tokens(k.input + gen)});
                    }
                ends.push_back({.left = tokens(q.output - q.generated), .held = tokens(q.input + q.generated)});
                fits = ignore_eos_admits(ends, tokens(e.kv_budget / e.kv_per_token), tokens(1.0));
            }
            if (!fits && admitted_now > 0) break;
            waiting.pop_front();
            used += need;
            q.reserved = e.limits.reserve_full_sequence ? need : 0.0;
            if (q.admitted < 0) {
                q.admitted = now;
                if (role != stage::decode) out.queue[ids[q.req]] = now - out.arrival[ids[q.req]];  // decode: the prefill queue's
            }
            q.running = true;
            if (!e.limits.reserve_full_sequence) admitted_order.push_back(id);
            admitted_now += 1.0;
            if (q.resident) {  // swapped back in (the engine waits for the copy), or sent by a prefill server
                if (role != stage::decode || q.generated > 0.0) swap_in += swap_time(q.prompt);
                start_decoding(id);
                enqueue(id);
                continue;
            }
            q.prefilled = cached_tokens(q);
            r.cached_prompt_tokens += q.prefilled;
            r.prompt_tokens += q.prompt;
            prefilling.push_back(id);
        }
        if (swap_in > 0.0) {
            now += swap_in;
            busy += swap_in;
            r.swap_s += swap_in;
            stalled += swap_in;
        }
        // A decode target's pass, at the scheduler's pass (a poll) on a step that decodes (no prompt
        // alone), or at once when every running sequence is left out.
        if (cut.on() && ((poll && !(e.limits.prefill_alone && !prefilling.empty())) || (decodes == 0.0 && paused > 0.0)))
            decode_pass();
        // The step: every decode, then prompt chunks in admission order within the token budget.
        const double budget = e.max_tokens > 0 ? e.max_tokens : std::numeric_limits<double>::infinity();
        const bool alone_wanted = !hold && e.limits.prefill_alone && !prefilling.empty();
        double step_tokens = alone_wanted ? 0.0 : decodes, chunk_sum = 0, pairs_sum = 0, kv_prefill_sum = 0;
        chunk_of_step.clear();
        chunk_tokens.clear();
        for (std::size_t id : prefilling) {
            if (hold) break;  // held: a decode step
            const live& q = s[id];
            double c = q.prompt - q.prefilled;
            if (e.chunk > 0) c = std::min(c, e.chunk);
            const double room = budget - step_tokens;
            if (e.chunk > 0 || e.max_tokens > 0) {
                if (e.chunk > 0) c = std::min(c, std::floor(room));
                else if (c > room && !chunk_of_step.empty()) break;  // whole prompts: the next one waits
                if (!(c >= 1.0)) break;
            }
            chunk_of_step.push_back(id);
            chunk_tokens.push_back(c);
            step_tokens += c;
            chunk_sum += c;
            pairs_sum += llmcost::detail::attention_pairs(m, kinds, q.prefilled, c);
            kv_prefill_sum += kv_bytes_for_context(m, kinds, tokens(q.prefilled + c)).value();
        }
        const double ps = static_cast<double>(chunk_of_step.size());
        const bool alone = alone_wanted && ps > 0 && decodes > 0;  // with no answer running it is any prompt step
        const double dec = alone ? 0.0 : decodes, ctx = alone ? 0.0 : context_sum;
        prompt_in_last_step = ps > 0;
        if (ps == 0) decode_steps_since_poll += 1.0;
        // An eager prompt step's launch overlaps the part of the step before it that the host is not busy
        // launching (`detail::launch_free_time`, `detail::eager_prompt_wait`).
        const bool overlapped_launch = e.pm.prefill_overhead.value() > 0.0 && !e.pm.prefill_serial;
        const double free_before = overlapped_launch ? llmcost::detail::launch_free_time(previous_step, previous_launch) : 0.0;
        const double previous = ps > 0 ? free_before : 0.0;
        // A cold server's opening: its first `clients` requests' prompt tokens in this step, and the
        // one-time start on the first step that carries any (`engine_overheads::cold_opening`).
        double cold = 0.0;
        if (e.cold_opening && ps > 0) {
            double opening = 0.0;
            for (std::size_t j = 0; j < chunk_of_step.size(); ++j)
                if (static_cast<double>(s[chunk_of_step[j]].req) < clients) opening += chunk_tokens[j];
            if (opening > 0.0) {
                cold = e.pm.d.engine.overheads.cold_opening(tokens(opening), !opening_started).value();
                opening_started = true;
            }
        }
        // A cold server's first-use kernel build, once: at the first prompt step that meets the run's trigger
        // (`first_use_build_step`: a chunk after its prompt's first, or the step's tokens, answers and chunks).
        if (e.build != first_use_trigger::none && !built && ps > 0) {
            bool continuation = false;
            for (std::size_t id : chunk_of_step) continuation = continuation || s[id].prefilled > 0.0;
            if (first_use_build_step(e.build, continuation, tokens(dec + chunk_sum))) {
                cold += e.pm.d.engine.overheads.first_use_build.value();
                built = true;
            }
        }
        // Whether a rank's prompt step whose prompts already hold `prefix` tokens (Σ extend_prefix_lens) runs absorbed
        // MLA (`engine_kernels::absorbed_mla_prompt_step`: SGLang on Hopper, 0 < Σ p < 8,192): its pass model then.
        auto absorbed_at = [&](double prefix) {
            return absorbs_prompt_prefix(e.pm, tokens(prefix));  // e.absorbed is set exactly then
        };
        // One rank's step: its dec answers (context cx in all), then n_prompts prompt chunks of
        // prompt_tokens tokens, by the library's one step formula.
        auto price = [&](double cx, double n_prompts, double prompt_tokens, double pairs, double kv_prefill, double before,
                         bool absorbed) {
            const step_cache::key k{dec, n_prompts, prompt_tokens, cx, pairs, kv_prefill, before, absorbed ? 1.0 : 0.0};
            return cache.get(k, [&] {
                const double c = dec > 0 ? cx / dec : 0.0;
                const llmcost::detail::sequence_terms<double> terms{
                    .prefill_tokens = n_prompts > 0 ? prompt_tokens / n_prompts : 0.0,
                    .pairs_decode = llmcost::detail::attention_pairs(m, kinds, c, 1.0),
                    .pairs_prefill = n_prompts > 0 ? pairs / n_prompts : 0.0,
                    .kv_decode = kv_bytes_for_context(m, kinds, tokens(c)).value(),
                    .kv_prefill = n_prompts > 0 ? kv_prefill / n_prompts : 0.0};
                return llmcost::detail::step_formula(absorbed ? *e.absorbed : e.pm, terms, dec, n_prompts, before).time();
            }, r.cache_hits);
        };
        double prefix_sum = 0.0;  // Σ p: the tokens this step's prompts held before their chunks
        for (std::size_t id : chunk_of_step) prefix_sum += s[id].prefilled;
        const double t_own = price(ctx, ps, chunk_sum, pairs_sum, kv_prefill_sum, previous, absorbed_at(prefix_sum));
        // Attention-DP ranks run every iteration in lockstep, so it lasts as long as the busiest rank's step
        // (TensorRT-LLM blog10 and bloc_x: iteration time = max over ranks m of time_i,m), each rank's step by
        // the same formula: t = max(t_own, max_j t_j, t_kv).
        double t_others = 0.0;
        if (balance) {
            // The prompts: at a release every other rank whose scheduler starts (or has started) its context
            // request runs its chunk too (a whole prompt, or up to the chunk size within the token budget after
            // its answers, alike ours), priced as a rank with our answers and its prompts (that chunk after its
            // a_j tokens, and any more it takes below); the busiest by its step's time (`adp_lockstep_time`).
            // Every rank's launch is priced under our rank's free time (`launch_free_time`): an approximation, each
            // rank has its own host thread and its own step before.
            const double before = free_before;
            other_chunks.clear();
            for (std::size_t j = 0; j < other_waiting.size(); ++j) {
                other_chunk[j] = 0.0;
                adp_rank_chunk rank{};
                if (!hold && other_may_run[j] && other_prompt[j] > 0.0) {
                    double c = other_prompt[j];
                    if (e.chunk > 0) c = std::min({c, e.chunk, std::floor(budget - dec)});
                    if (c >= 1.0) {
                        rank = {.tokens = c, .before = other_prefix[j], .prefix_total = other_prefix[j], .prompts = 1.0,
                                .pairs = llmcost::detail::attention_pairs(m, kinds, other_prefix[j], c),
                                .kv_prefill = kv_bytes_for_context(m, kinds, tokens(other_prefix[j] + c)).value()};
                        double held = (other_started[j] ? 0.0 : other_need[j]);
                        other_chunk[j] = c;
                        other_started[j] = 1;
                        // Alike ours, it holds as many context requests as ours runs in this step (ps): whole
                        // prompts run the others, each drawn as above, while the same rules admit them (its batch
                        // cap and KV room as `would_start`, the step's token budget after its answers as ours).
                        // Its room is its own: the KV held before this iteration's admissions (ours alike) plus
                        // its own context requests (`held`), not the prompts our rank admitted just now (the
                        // review s32m found `used` after our admissions here, while the batch cap counted
                        // `running_count` before them: our new prompts were charged to its KV room).
                        for (double k = 1.0; e.chunk == 0 && k < ps; k += 1.0) {
                            const other_request q = draw_other();
                            const bool admits = (e.max_batch == 0 || running_count + 1.0 + k <= e.max_batch) &&
                                                used_at_release + held + q.need <= e.admission_room &&
                                                dec + rank.tokens + q.fresh <= budget;
                            if (!admits) break;
                            held += q.need;
                            rank.tokens += q.fresh;
                            rank.prompts += 1.0;
                            rank.prefix_total += q.prefix;
                            rank.pairs += llmcost::detail::attention_pairs(m, kinds, q.prefix, q.fresh);
                            rank.kv_prefill += kv_bytes_for_context(m, kinds, tokens(q.prefix + q.fresh)).value();
                        }
                    }
                }
                other_chunks.push_back(rank);
            }
            t_others = adp_lockstep_time(0.0, other_chunks, [&](const adp_rank_chunk& k) {
                return price(ctx, k.prompts, k.tokens, k.pairs, k.kv_prefill, before, absorbed_at(k.prefix_total));
            });
            // The answers: the ranks hold as many (TensorRT-LLM gives a new request to the rank with the fewest
            // active ones) but not the same contexts: a rank's KV is the sum of its d sequences' contexts, drawn
            // alike ours, so its spread is σ_rank = √d · σ_c (σ_c the spread of our d contexts) and the busiest of
            // the R ranks holds C + z_R · σ_rank, C = Σ c our rank's, z_R = E[max of R standard normals]
            // (`expected_max_of_normals`: 1.42 at R = 8); priced as a rank with our answers at that context and
            // no prompt (note §3 H: 1.105 × the mean by Monte Carlo on the MLPerf DeepSeek-R1 Server runs).
            if (dec > 1.0 && e.adp_busiest_z > 0.0) {
                // σ_rank² = d σ_c² = (d Σc² − C²) ÷ d (whole tokens: 0 exactly when our contexts are all one length).
                const double spread = context_squares * dec - ctx * ctx;
                if (spread > 0.0) t_others = std::max(t_others, price(ctx + e.adp_busiest_z * std::sqrt(spread / dec), 0.0, 0.0, 0.0, 0.0, 0.0, false));
            }
        }
        // vLLM V0: the scheduler pass's host time, once a pass, before the pass's step, for the sequences it schedules
        // (`engine_overheads::v0_host_pass`; the steps themselves priced without it, `pass_model::v0_every_step`): a pass
        // that schedules prompts runs one step, a decode pass its S (the tokens whose outputs it processes).
        const engine_overheads& oh = e.pm.d.engine.overheads;
        const double host_pass = poll ? oh.v0_host_pass(e.pm.tp, dec + ps, ps > 0 ? 1.0 : oh.v0_steps_per_pass) : 0.0;
        const double t = cold + host_pass + std::max(t_own, t_others);
        previous_step = t;
        previous_launch = ps > 0 ? e.pm.prefill_overhead.value() : 0.0;  // the host launched this step's prompt eagerly
        now += t;
        busy += t;
        batch_time += (dec + ps) * t;
        kv_time += used / e.kv_budget * t;
        r.steps += 1.0;
        steps_run += 1.0;
        if (open_lag > 0.0) {
            step_starts.push_back(now - t);
            if (static_cast<double>(step_starts.size()) > open_lag) step_starts.pop_front();
        }
        // Resident sequences admitted before this step emit their first token in it: TTFT, not ITL.
        double firsts = 0.0;
        while (!alone && !first_token.empty() && first_token.front().step <= step_no + 1.0) {
            const finish_event f = first_token.front();
            first_token.pop_front();
            if (f.version != s[f.id].version) continue;
            out.ttft[ids[s[f.id].req]] = now - out.arrival[ids[s[f.id].req]];
            firsts += 1.0;
        }
        if (alone) {
            stalled += t;  // the decodes wait for the prompt step: their next token's gap includes it
        } else {
            itl.add(t + stalled, decodes - firsts - static_cast<double>(answered.size()));
            stalled = 0.0;
        }
        if (record_timeline && sampled++ >= stride - 1.0) {
            sampled = 0;
            r.timeline.push_back({.time = now, .batch = decodes + ps, .kv = used / e.kv_budget,
                                  .waiting = static_cast<double>(waiting.size())});
            if (static_cast<double>(r.timeline.size()) >= 2.0 * timeline_points) {  // keep every other, halve the rate
                std::size_t w = 0;
                for (std::size_t i = 0; i < r.timeline.size(); i += 2) r.timeline[w++] = r.timeline[i];
                r.timeline.resize(w);
                stride *= 2.0;
            }
        }
        if (!alone) {  // step_no counts the steps that decoded: a prompt step alone moves no answer on
            step_no += 1.0;
            // Every decode appended a token to its context: Σ (c + 1)² = Σ c² + 2 Σ c + n.
            context_squares += 2.0 * context_sum + decodes;
            context_sum += decodes;
            if (!e.limits.reserve_full_sequence) used += e.kv_per_token * decodes;
        }
        // Prompt chunks: a finished prompt emits its first token and starts decoding.
        for (std::size_t j = 0; j < chunk_of_step.size(); ++j) {
            const std::size_t id = chunk_of_step[j];
            live& q = s[id];
            q.prefilled += chunk_tokens[j];
            if (q.prefilled < q.prompt) continue;
            if (e.trace_prefixes && reqs[q.req].prefix >= 0) {
                double& held = cached_prefix[reqs[q.req].prefix];
                held = std::max(held, q.input);
            }
            if (role == stage::prefill) {  // done here: its KV goes to a decode server
                q.decoding = false;
                finish(id);
                continue;
            }
            if (q.generated == 0.0) out.ttft[ids[q.req]] = now - out.arrival[ids[q.req]];
            q.generated += 1.0;
            if (!e.limits.reserve_full_sequence) used += e.kv_per_token;
            if (q.generated >= q.output) {
                q.decoding = false;
                finish(id);
                continue;
            }
            q.decoding = true;
            q.entered = step_no;
            decodes += 1.0;
            context_enters(q.input + q.generated);
            finishing.push({.step = step_no + (q.output - q.generated), .id = id, .version = q.version});
            enqueue(id);
        }
        std::erase_if(prefilling, [&](std::size_t id) { return s[id].decoding || s[id].done; });
        // At a release the other ranks' prompts enter with ours; the ranks being alike, what ours still
        // has as context requests after the step (left waiting by KV, the batch cap or a scheduler pass, or
        // admitted with chunks still to run) theirs have too.
        // Theirs advance by their chunks; one with chunks left still has a context request, and one whose
        // prompt ended while ours still has one gets its next (drawn as above).
        if (balance && !hold)
            for (std::size_t j = 0; j < other_waiting.size(); ++j) {
                other_prompt[j] -= other_chunk[j];
                other_prefix[j] += other_chunk[j];
                other_chunk[j] = 0.0;
                other_waiting[j] = !(waiting.empty() && prefilling.empty()) || other_prompt[j] > 0.0 ? 1 : 0;
                if (other_waiting[j] && !(other_prompt[j] > 0.0)) other_prompt_arrives(j);
            }
        // A block that runs whole ends after its last decode step (or, with no answer left, at once).
        const bool block_end = !e.limits.outputs_per_block || decode_steps_since_poll >= e.limits.receive_interval;
        while (!finishing.empty() && finishing.top().step <= step_no) {
            const finish_event f = finishing.top();
            finishing.pop();
            live& q = s[f.id];
            if (f.version != q.version || !q.decoding) continue;  // preempted since
            q.answered = true;
            answered.push_back(f);
        }
        if (block_end) {
            // Each ends now, w = step_no − f.step decode steps past its last token: its context and
            // its KV grew by one token in each of them (computed, the output dropped).
            for (const finish_event& f : answered) {
                live& q = s[f.id];
                const double w = step_no - f.step;
                q.decoding = false;
                q.answered = false;
                decodes -= 1.0;
                context_leaves(q.input + q.output + w);
                if (!e.limits.reserve_full_sequence) used -= e.kv_per_token * w;
                finish(f.id);
            }
            answered.clear();
        }
        // Optimistic admission: when the cache overflows, the newest sequence gives its KV back and
        // goes to the head of the queue, to recompute its context (prompt + tokens so far).
        while (!e.limits.reserve_full_sequence && used > e.kv_budget && !admitted_order.empty()) {
            const std::size_t id = admitted_order.back();
            admitted_order.pop_back();
            live& q = s[id];
            if (!q.running || q.answered) continue;  // an answered sequence ends with its block
            if (decodes + static_cast<double>(prefilling.size()) + paused <= 1.0) break;  // alone: it must run
            if (q.paused) {  // left out by a decode target: its KV goes, its tokens so far are recomputed
                used -= e.kv_per_token * (q.input + q.generated) + e.kv_block_waste;
                q.paused = false;
                paused -= 1.0;
            } else if (q.decoding) {
                stop_decoding(id);
                used -= e.kv_per_token * (q.input + q.generated) + e.kv_block_waste;
                if (e.swap) {  // its KV goes to host memory (the engine waits for the copy) and comes back whole
                    const double out_time = swap_time(q.input + q.generated);
                    now += out_time;
                    busy += out_time;
                    r.swap_s += out_time;
                    stalled += out_time;
                }
                q.resident = e.swap;
            } else {
                used -= e.kv_per_token * q.prompt + e.kv_block_waste;  // what its admission took (the whole prompt)
                std::erase(prefilling, id);
            }
            q.prompt = q.input + q.generated;
            q.prefilled = 0;
            q.running = false;
            ++q.version;
            if (!out.preemptions.empty()) out.preemptions[ids[q.req]] += 1;
            r.preemptions += 1.0;
            waiting.push_front(id);
        }
        if (!e.limits.reserve_full_sequence)
            std::erase_if(admitted_order, [&](std::size_t id) { return !s[id].running; });
    }
    r.utilisation += busy;
    r.mean_batch += batch_time;
    r.mean_kv += kv_time;
    r.makespan = std::max(r.makespan, now - (origin >= 0.0 ? origin : first_arrival));
    r.completed += static_cast<double>(finished);
}

/// Checks one request against the model's context and the KV of one server (the message, with
/// the request's number, is built only for a request that breaks a rule).
inline void check_request(const engine& e, const workload::request& q, std::size_t index, std::string_view origin) {
    const double in = q.input.value(), out = q.output.value();
    const double held = kv_block_slots(tokens(e.limits.reserve_full_sequence ? in + out : in + 1.0), e.kv_block).value();
    const bool lengths_ok = in >= 1.0 && std::isfinite(in) && out >= 1.0 && std::isfinite(out);
    const bool long_whole = runs_long_prompt_whole(e.pm.d.engine.kind);
    if (lengths_ok && prompt_within_step_cap(q.input, tokens(e.max_tokens), e.chunk > 0.0, long_whole) &&
        (e.ignore_max_position || in + out <= e.pm.d.m.max_position) &&
        kv_bytes_per_gpu_for_context(e.pm.d, tokens(held)).value() <= e.kv_budget)
        return;
    const std::string where = std::string(origin) + " request " + std::to_string(index + 1);
    require(in >= 1.0 && std::isfinite(in), where, "input (tokens)", in, "a request has at least one prompt token",
            "llmcost.simulate.request_tokens");
    require(out >= 1.0 && std::isfinite(out), where, "output (tokens)", out, "a request generates at least one token",
            "llmcost.simulate.request_tokens");
    if (!e.ignore_max_position) require_within_max_position(e.pm.d.m, in + out, " (" + where + ": input + output)");
    require_prompt_within_step_cap(where, q.input, tokens(e.max_tokens), e.chunk > 0.0, long_whole);
    require(false, where, "KV per sequence (B)", kv_bytes_per_gpu_for_context(e.pm.d, tokens(held)).value(),
            "does not fit: one sequence needs more KV than a server's share of the HBM left after the weights",
            "llmcost.fit.kv_sequence");
}

inline result run(const deployment& d, std::vector<workload::request> reqs, const options& o, bool closed_loop,
                  double clients, std::string_view origin) {
    o.validate();
    const std::string_view no_swap = swap_refusal(d.engine.kind, o.prefill_servers > 0.0);
    require_word(o.preempt != preemption::swap || no_swap.empty(), d.engine.name, "preempt", "swap", no_swap,
                 "llmcost.simulate.swap_engine");
    engine e{.pm = prepare_pass(d), .limits = o.limits};
    e.pm.v0_every_step = false;  // vLLM V0's pass is paid at the simulator's polls, not in every step's price
    if (has_absorbed_prompt_steps(e.pm)) e.absorbed = absorbed_prompt_attention(e.pm);
    const double pp = d.layout.pp, servers = static_cast<double>(d.layout.dp) * pp;
    require_weights_fit(d, o.limits.pool_reserve());
    e.kv_budget = kv_budget_per_gpu(d, o.limits.pool_reserve()).value() / pp;
    e.kv_per_token = kv_bytes_per_token_per_gpu(d).value();
    e.kv_block = kv_block_size(d);
    e.kv_block_waste = e.kv_per_token * kv_expected_block_waste(e.kv_block).value();
    e.admission_room = e.kv_budget * (1.0 - o.limits.admission_watermark);
    e.max_batch = o.limits.max_batch > 0 ? o.limits.max_batch / pp : 0.0;
    // A prefill gate on free KV at or above the whole pool would never admit a prompt (an idle engine has it all free).
    require(!o.limits.decode_cut.on() || o.limits.decode_cut.prefill_free_kv.value() < e.kv_budget / e.kv_per_token, "scheduler",
            "prefill_free_kv (tokens)", o.limits.decode_cut.prefill_free_kv.value(),
            "must be below the server's KV pool in tokens (" + invalid_input::show(e.kv_budget / e.kv_per_token) +
                "): with no more free, no prompt is ever admitted",
            "llmcost.serving.decode_target");
    e.max_tokens = o.limits.max_tokens_per_step;
    e.chunk = o.limits.prefill_chunk.value();
    e.closed_loop = closed_loop;
    e.swap = o.preempt == preemption::swap;
    e.prefix_hit_rate = o.prefix_hit_rate;
    e.trace_prefixes = o.trace_prefixes;
    e.shared_prefix = o.shared_prefix_tokens;
    e.ignore_max_position = o.ignore_max_position;
    e.cold = o.cold_engine && closed_loop;
    e.cold_opening = e.cold && d.engine.overheads.pays_cold_opening(d.m.is_moe());  // docs/sglang-closed-loop-ttft.md §7
    e.overlap_lag = llmcost::detail::overlap_lag_of(o.limits, d.engine);  // the caller's L, else the engine's
    e.build = e.cold ? o.first_use_build : first_use_trigger::none;
    e.adp_ranks = o.limits.adp_timeout_iters > 0.0 ? static_cast<double>(d.attention_ranks()) : 1.0;
    e.seed = o.seed;
    e.adp_others_rate = o.adp_others_rate;
    if (o.adp_others_input) e.adp_others_input = o.adp_others_input->value();
    // Under the balance the colocated run prices each iteration at its busiest rank (`run_server`: the
    // others' prompts in lockstep, and the busiest rank's KV in every iteration), the mechanism attention
    // DP's balance ratio β stands for in a steady-state step (`pass_model::attention_dp_busiest` = 1 ÷ β,
    // blog10: β = mean ÷ most tokens over the ranks, per iteration): not both, so 1 ÷ β is dropped here.
    // A disaggregated run's servers (no balance: `adp_lockstep` is colocated only) keep it.
    if (adp_lockstep(e, o.prefill_servers == 0.0 ? stage::colocated : stage::prefill)) e.pm.attention_dp_busiest = 1.0;
    // z_R: the busiest of the R ranks' KV in standard deviations, the expected maximum of R normal draws.
    e.adp_busiest_z = expected_max_of_normals(e.adp_ranks);
    for (std::size_t i = 0; i < reqs.size(); ++i) check_request(e, reqs[i], i, origin);

    const std::size_t n_servers = static_cast<std::size_t>(servers);
    const std::size_t n_prefill = static_cast<std::size_t>(o.prefill_servers);
    if (n_prefill > 0)
        require(n_prefill < n_servers, "simulation", "prefill_servers", o.prefill_servers,
                "a disaggregated deployment needs fewer prefill servers than its dp · pp servers (" +
                    invalid_input::show(servers) + "), leaving at least one to decode",
                "llmcost.simulate.prefill_servers");
    require(n_prefill == 0 || !closed_loop, "simulation", "prefill_servers", o.prefill_servers,
            "a closed loop runs colocated (its clients wait on the whole answer)", "llmcost.simulate.prefill_servers");
    // A random split over the servers (deterministic under the seed); disaggregated, over each pool.
    const std::size_t first_pool = n_prefill > 0 ? n_prefill : n_servers;
    std::vector<std::vector<std::size_t>> of(first_pool);
    workload::sampler split(o.seed ^ 0x5151'5151'5151'5151ULL);
    const double first_share = static_cast<double>(first_pool);
    for (std::size_t i = 0; i < reqs.size(); ++i)
        of[first_pool == 1 ? 0 : std::min(first_pool - 1, static_cast<std::size_t>(split.unit() * first_share))].push_back(i);

    result r;
    r.servers = servers;
    itl_histogram itl;
    const std::size_t n = reqs.size();
    timings out{.arrival = std::vector<double>(n), .queue = std::vector<double>(n), .ttft = std::vector<double>(n),
                .e2e = std::vector<double>(n), .preemptions = std::vector<int>(o.keep_requests ? n : 0),
                .prefilled = std::vector<double>(n_prefill > 0 ? n : 0)};
    step_cache cache;
    if (n_prefill == 0) {
        const double client_share = clients / servers;
        for (std::size_t k = 0; k < n_servers; ++k) {
            // Closed loop: the clients split as evenly as whole clients allow (at least one a server).
            const double here = std::max(1.0, std::floor(client_share * static_cast<double>(k + 1)) -
                                                  std::floor(client_share * static_cast<double>(k)));
            run_server(e, reqs, of[k], out, itl, r, cache, k == 0 && o.timeline_points > 0, o.timeline_points, here,
                       stage::colocated, -1.0, k);
        }
    } else {
        // Prefill pool: prompts only. Then each prompt's KV crosses to a decode server, where it
        // arrives at prefill end + transfer (kv_transfer_for: α + KV shard ÷ link), in that order.
        result pre;
        step_cache pre_cache;
        engine pe = e;  // a prefill server takes at most `prefill_batch` prompts a step, where given
        if (o.prefill_batch > 0) pe.max_batch = o.prefill_batch;
        for (std::size_t k = 0; k < n_prefill; ++k)
            run_server(pe, reqs, of[k], out, itl, pre, pre_cache, false, 0.0, 0.0, stage::prefill);
        std::vector<workload::request> sent(reqs);
        double transfer_sum = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = kv_transfer_for(d, reqs[i].input, o.transfer_path).time.value();
            transfer_sum += x;
            sent[i].arrival = seconds(out.prefilled[i] + x);
        }
        const std::size_t n_decode = n_servers - n_prefill;
        std::vector<std::vector<std::size_t>> to(n_decode);
        for (std::size_t i = 0; i < n; ++i)
            to[n_decode == 1 ? 0 : std::min(n_decode - 1, static_cast<std::size_t>(split.unit() * static_cast<double>(n_decode)))]
                .push_back(i);
        const double first_arrival = reqs.front().arrival.value();
        for (std::size_t k = 0; k < n_decode; ++k) {
            std::stable_sort(to[k].begin(), to[k].end(),
                             [&](std::size_t a, std::size_t b) { return sent[a].arrival.value() < sent[b].arrival.value(); });
            run_server(e, sent, to[k], out, itl, r, cache, k == 0 && o.timeline_points > 0, o.timeline_points, 0.0,
                       stage::decode, first_arrival);
        }
        r.kv_transfer_s = transfer_sum / static_cast<double>(n);
        r.utilisation += pre.utilisation;  // busy time of the prefill pool
        r.mean_batch += pre.mean_batch;
        r.mean_kv += pre.mean_kv;
        r.steps += pre.steps;
        r.cache_hits += pre.cache_hits;
        r.preemptions += pre.preemptions;
        r.swap_s += pre.swap_s;
        r.cached_prompt_tokens += pre.cached_prompt_tokens;
        r.prompt_tokens += pre.prompt_tokens;
    }
    // What the client sees: each request's first token and last token a front end later
    // (client_first_token; F = the engine's per-request overhead, off the engine's timeline, so
    // no step, batch or makespan holds it; the closed loop's next prompt reaches the engine at once).
    const seconds_t front_end = d.engine.overheads.request;
    if (front_end.value() > 0.0)
        for (std::size_t i = 0; i < n; ++i) {
            out.ttft[i] = client_first_token(out.ttft[i], front_end);
            out.e2e[i] = client_first_token(out.e2e[i], front_end);
        }
    if (o.keep_requests) {
        r.requests.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double in = reqs[i].input.value(), outl = reqs[i].output.value();
            r.requests[i] = {.arrival = out.arrival[i], .queue = out.queue[i], .ttft = out.ttft[i],
                             .tpot = outl > 1.0 ? (out.e2e[i] - out.ttft[i]) / (outl - 1.0) : 0.0, .e2e = out.e2e[i],
                             .input = in, .output = outl, .preemptions = out.preemptions[i]};
        }
    }
    // TPOT = (e2e − ttft) ÷ (O − 1) for the answers of more than one token, into the arrival array.
    std::size_t m = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double outl = reqs[i].output.value();
        if (outl > 1.0) out.arrival[m++] = (out.e2e[i] - out.ttft[i]) / (outl - 1.0);
    }
    out.arrival.resize(m);
    r.tpot = summarise(out.arrival);
    r.ttft = summarise(out.ttft);
    r.e2e = summarise(out.e2e);
    r.queue = summarise(out.queue);
    r.itl = itl.summary();
    const double busy = r.utilisation;
    r.mean_batch = busy > 0 ? r.mean_batch / busy : 0.0;
    r.mean_kv = busy > 0 ? r.mean_kv / busy : 0.0;
    r.utilisation = r.makespan > 0 ? busy / (servers * r.makespan) : 0.0;
    r.output_tokens_per_s = r.makespan > 0 ? r.output_tokens / r.makespan : 0.0;
    r.requests_per_s = r.makespan > 0 ? r.completed / r.makespan : 0.0;
    return r;
}

}  // namespace internal

LLMCOST_FUNC percentiles summarise(std::vector<double>& xs) {
    percentiles p{};
    if (xs.empty()) return p;
    double sum = 0.0;
    for (double x : xs) sum += x;
    p.mean = sum / static_cast<double>(xs.size());
    auto at = [&](double q) {
        const double rank = q * static_cast<double>(xs.size() - 1);
        const std::size_t lo = static_cast<std::size_t>(rank);
        std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(lo), xs.end());
        const double a = xs[lo];
        if (lo + 1 >= xs.size()) return a;
        const double b = *std::min_element(xs.begin() + static_cast<std::ptrdiff_t>(lo) + 1, xs.end());
        return a + (b - a) * (rank - static_cast<double>(lo));
    };
    p.p50 = at(0.5);
    p.p90 = at(0.9);
    p.p99 = at(0.99);
    p.max = *std::max_element(xs.begin(), xs.end());
    return p;
}

LLMCOST_FUNC double result::goodput(double ttft_s, double tpot_s) const {
    double good = 0.0;
    for (const request_result& q : requests)
        if (q.ttft <= ttft_s && q.tpot <= tpot_s) good += 1.0;
    return makespan > 0 ? good / makespan : 0.0;
}

LLMCOST_FUNC result simulate(const deployment& d, const workload::traffic& t, const options& o) {
    t.validate();
    o.validate();
    if (!o.ignore_max_position)  // an unbounded lognormal: its mean (traffic::longest_context); each draw is checked in run
        require_within_max_position(d.m, t.longest_context().value(),
                                    " (the workload's longest input + longest output)");
    workload::sampler g(o.seed);
    const std::size_t n = static_cast<std::size_t>(o.requests);
    std::vector<workload::request> reqs(n);
    double clock = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        if (t.arrivals.law != workload::arrival_law::closed_loop) {
            reqs[i].arrival = seconds(clock);
            clock += g.gap(t.arrivals);
        }
        reqs[i].input = tokens(g.length(t.input));
        reqs[i].output = tokens(g.length(t.output));
    }
    const bool closed = t.arrivals.law == workload::arrival_law::closed_loop;
    // The draws obey a trace's bound: past it a double cannot tell an arrival from its first token (TTFT quantized).
    if (!closed && n > 0)
        require(reqs[n - 1].arrival.value() <= workload::max_arrival_s, "simulation", "last arrival (s)",
                reqs[n - 1].arrival.value(),
                "the draws arrive past 10^9 s (workload::max_arrival_s, where a double stops resolving a step's time): "
                "raise the rate or simulate fewer requests",
                "llmcost.simulate.arrival_span");
    return internal::run(d, std::move(reqs), o, closed, closed ? t.arrivals.clients : 0.0, "generated");
}

LLMCOST_FUNC result simulate(const deployment& d, std::span<const workload::request> trace, const options& o) {
    require(!trace.empty(), "trace", "requests", 0.0, "a trace needs at least one request", "llmcost.simulate.requests_whole");
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const double a = trace[i].arrival.value();
        require(non_negative_finite(a) && a <= workload::max_arrival_s, "trace request " + std::to_string(i + 1),
                "arrival (s)", a, "must be zero or positive, at most 10^9 s (workload::max_arrival_s)",
                "llmcost.trace.arrival_time");
        if (i > 0)
            require(a >= trace[i - 1].arrival.value(), "trace request " + std::to_string(i + 1), "arrival (s)", a,
                    "arrival times must not decrease", "llmcost.trace.arrival_order");
    }
    return internal::run(d, std::vector<workload::request>(trace.begin(), trace.end()), o, false, 0.0, "trace");
}

}  // namespace llmcost::sim
