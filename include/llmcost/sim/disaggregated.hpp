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
///   for). An idle rank starts a pass of the prompts at the head of its queue (`prefill_admission`): at
///   most B of them within the pass's token budget M (none: all of them), priced `prefill_pass` at the
///   pass's prompts, their mean new tokens and mean tokens already prefilled (the pass's attention at the
///   mean, not each prompt's own). SGLang takes a pass's first prompt whatever its length and a later one
///   only while its tokens are fewer than what is left of M; TensorRT-LLM a prompt while its tokens fit
///   what is left. Where the engine chunks, a prompt longer than what is left of the chunk size C is cut
///   there (the cut closes the pass, the rest waits at the head of the queue for the next); where it does
///   not, a prompt longer than M is refused when it is sent (the `send` step below).
/// - **Prefill admission** (`prefill_admission`): SGLang's prefill server gives a request a slot of its
///   metadata buffer (2 × --max-running-requests a rank) when it leaves the bootstrap queue, and frees it
///   only when its KV transfer has ended (sgl-project/sglang@000c2b942308ea5502978be73542016c230dba02
///   python/sglang/srt/disaggregation/prefill.py: PrefillBootstrapQueue.pop_bootstrapped stops at the
///   first request with no free slot, process_disagg_prefill_inflight_queue frees it on KVPoll.Success;
///   python/sglang/srt/managers/scheduler.py@0003215cf1464f44b389cd0b18d0b4c56f2a3da6: buffer_size =
///   max_running_requests × 2 in PREFILL mode); a request waits FIFO for a slot before it may enter a
///   pass. TensorRT-LLM holds no slot past the pass: its executor frees a context request's sequence slot
///   when the KV send starts (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/py_executor.py,
///   _send_disagg_ctx_cache; docs/disaggregated-rows.md §11).
/// - **Transfer**: each prompt's KV cache, `kv_transfer_for` at its own length, when its pass ends (the
///   links in parallel: no transfer queue).
/// - **Decode pool**: A_d ranks, the next in turn (round-robin); each rank batches continuously: a
///   request joins at the next step after its KV has arrived, every step is `decode_pass` at the rank's
///   current batch b and its sequences' mean context (prompt + tokens so far), and an answer of O tokens
///   takes O steps, its first token at the end of its first step.
/// - **Decode admission** (`decode_admission`): a rank holds a request (its KV reserved: in transfer,
///   waiting to join or decoding) only while it holds fewer than its cap and the reservation fits its
///   KV pool (`kv_capacity_tokens` of the decode deployment, the engine's pool rule); requests wait FIFO
///   per rank, the head first (both engines stop at the first that does not fit). TensorRT-LLM (Dynamo):
///   the generation worker takes a request once its context phase is done, schedules it in
///   DISAGG_GENERATION_INIT under max_batch_size and a whole-sequence reservation (GUARANTEED_NO_EVICT),
///   then pulls its KV (NVIDIA/TensorRT-LLM@02a10fed0dbf5db74c7da035be9c5fbef6d2df7a
///   cpp/tensorrt_llm/batch_manager/capacityScheduler.cpp, GuaranteedNoEvictScheduler: disagg-gen-init
///   requests count against mMaxNumRequests and reserve their blocks); the decode rank is picked when
///   the prefill ends and the transfer starts at admission. SGLang: the router sends a request to its
///   prefill and decode servers at once; the decode rank pre-allocates the prompt's KV plus
///   num_reserved_decode_tokens (512) for it, keeping 512 for each request it already holds, and only
///   then hands the prefill rank its destination (bootstrap), so the prefill pass waits for the
///   pre-allocation (sgl-project/sglang@0035ca42c2d615f77778ce3bf825d6ce6e089661
///   python/sglang/srt/disaggregation/decode.py, DecodePreallocQueue.pop_preallocated and
///   _allocatable_token_budgets; running requests ≤ --max-running-requests, DecodeReqToTokenPool);
///   both ranks are picked when the client sends.
/// - **The join step under attention DP** (`decode_admission::idle_join_step`, SGLang): a decode worker
///   whose attention ranks are data-parallel runs every forward in lockstep (the MoE's all-to-all in each
///   layer). An iteration in which a rank takes in requests whose KV has arrived (a "prebuilt" extend
///   batch, returned before the running batch) streams their first token (the prefill's) and runs an idle
///   forward with its peers instead of its running batch's decode: a step's time in which its running
///   sequences make no token; the new requests decode from the next iteration, their remaining O − 1
///   tokens (sgl-project/sglang python/sglang/srt/disaggregation/decode.py,
///   SchedulerDisaggregationDecodeMixin.event_loop_normal_disagg_decode: `if batch.forward_mode.is_extend():
///   self.stream_output(...); if prepare_mlp_sync_flag: self._prepare_idle_batch_and_run(None)`, the same
///   in the v0.4.6 copy and in the pipeline-parallel loop; get_next_disagg_decode_batch_to_run returns
///   the new prebuilt batch when there is one). The idle forward's time is priced as the rank's own step
///   at its batch after the join (running + joining: its peers, filled round-robin, hold about as many)
///   and the running batch's mean context (the joiners' mean prompt where none runs);
///   without attention DP the prebuilt batch runs no forward and the rule is off.
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
/// - **The prefill worker's lockstep** (`prefill_worker_lockstep`): where a prefill worker's attention ranks are
///   data-parallel and the engine carries no balance ratio, a rank's pass lasts the longest of the passes its
///   worker's ranks hold when it starts (a running one's own price, a queued one's pass as it would start),
///   each priced at its own prompts, t = max(t_own, max_j t_j): the whole pass at the busiest rank's prompts,
///   its routed experts included (which see the mean rank's tokens: over-charged by up to the busiest rank's
///   excess, as the colocated lockstep, docs/adp-lockstep-prefill.md).
///
/// Deterministic under a seed. Each rank is an independent server (the prefill lockstep above reads the
/// other ranks' passes, not a common iteration clock; a decode worker's ranks are not in lockstep but for the
/// join step's idle forward, priced at the rank's own step); SGLang's retraction when the KV runs out, and its check that one request
/// could finish alone, are left out (the reservation of 512 per held request stands for them).

#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/sim/sampler.hpp>
#include <llmcost/sim/simulate.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
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

/// SGLang's decode-side KV reserve per request (`--num-reserved-decode-tokens`, ServerArgs default 512:
/// sgl-project/sglang python/sglang/srt/server_args.py; used by DecodePreallocQueue).
inline constexpr double sglang_reserved_decode_tokens = 512;

/// SGLang's prefill-side slots per running request: a prefill server's metadata buffer holds
/// max_running_requests × 2 requests ("*2 for the headroom": sgl-project/sglang
/// python/sglang/srt/managers/scheduler.py@0003215cf1464f44b389cd0b18d0b4c56f2a3da6, PREFILL branch of
/// the disaggregation init), each held from the bootstrap's end to its KV transfer's end.
inline constexpr double sglang_prefill_slots_per_running_request = 2;

/// The largest cap a prefill admission takes (prompts B, tokens M and C): the one bound the measurement
/// loader, `plan::measurement::validate` and `prefill_admission::validate` apply; held slots may reach
/// `sglang_prefill_slots_per_running_request` × it.
inline constexpr double prefill_cap_max = 1e9;

/// What one prefill attention rank of a disaggregated deployment admits (`simulate_disaggregated`).
struct prefill_admission {
    /// B: prompts one pass takes (TensorRT-LLM max_batch_size; SGLang --max-running-requests ÷ dp under
    /// DP attention, the scheduler's get_num_allocatable_reqs); ∞: no cap.
    double max_running = std::numeric_limits<double>::infinity();
    /// M: the pass's token budget (TensorRT-LLM max_num_tokens; SGLang --max-prefill-tokens, ServerArgs
    /// default 16384, not divided under DP attention: PrefillAdder's rem_input_tokens); 0: no budget.
    double max_tokens_per_step = 0;
    /// C: where a prompt is cut (SGLang --chunked-prefill-size ÷ dp under DP attention: PrefillAdder's
    /// rem_chunk_tokens; TensorRT-LLM max_num_tokens); 0: C = M. Read only where `chunked`.
    double chunk_tokens = 0;
    /// true: a prompt longer than what is left of C is prefilled in chunks (SGLang's chunked prefill;
    /// TensorRT-LLM enable_chunked_prefill), the chunk closing the pass; false: whole prompts only.
    bool chunked = false;
    /// true (SGLang, PrefillAdder.add_one_req and budget_state, sgl-project/sglang@ad0119fdde519598c25f5c48b95dacaa2b85d607
    /// python/sglang/srt/managers/schedule_policy.py): a pass's first prompt is taken whatever its tokens,
    /// a later one only while its tokens are fewer than what is left of M (`real_input_tokens >=
    /// self.rem_input_tokens and len(self.can_run_list) != 0` stops the pass), and the pass closes once M
    /// or C is spent; false (TensorRT-LLM): a prompt enters while its tokens fit what is left of M (≤), and
    /// one longer than M is refused unless `chunked`.
    bool first_prompt_always = false;
    /// Requests a rank holds from entering its queue until their KV transfer has ended (SGLang: the
    /// metadata buffer, `sglang_prefill_slots_per_running_request` × B a rank); ∞: no hold (a request
    /// leaves at its pass's end).
    double held_slots = std::numeric_limits<double>::infinity();

    void validate() const {
        constexpr double inf = std::numeric_limits<double>::infinity();
        auto whole = [](double x, double hi) { return x >= 1.0 && x <= hi && detail::const_trunc(x) == x; };
        require(max_running == inf || whole(max_running, prefill_cap_max), "prefill admission", "max_running", max_running,
                "a prefill pass takes a whole number of prompts, from 1 to 10⁹ (∞: no cap)");
        require(max_tokens_per_step == 0.0 || whole(max_tokens_per_step, prefill_cap_max), "prefill admission",
                "max_tokens_per_step", max_tokens_per_step,
                "a prefill pass's token budget is 0 (none) or a whole number of tokens, from 1 to 10⁹");
        require(chunk_tokens == 0.0 || whole(chunk_tokens, prefill_cap_max), "prefill admission", "chunk_tokens",
                chunk_tokens, "a prefill chunk is 0 (the pass's budget) or a whole number of tokens, from 1 to 10⁹");
        require(held_slots == inf || whole(held_slots, sglang_prefill_slots_per_running_request * prefill_cap_max),
                "prefill admission", "held_slots", held_slots,
                "a prefill attention rank holds a whole number of requests until their transfer ends, from 1 to 2 × 10⁹ "
                "(∞: no hold)");
    }
};

/// What one decode attention rank of a disaggregated deployment admits (`simulate_disaggregated`).
struct decode_admission {
    /// Requests one decode attention rank holds at once (KV reserved: in transfer, waiting or decoding):
    /// TensorRT-LLM max_batch_size (and max_num_tokens, one token a sequence in a decode step), SGLang
    /// --max-running-requests ÷ dp under DP attention; ∞: no cap.
    double max_running = std::numeric_limits<double>::infinity();
    /// true: a request reserves its whole sequence I + O at admission (TensorRT-LLM GUARANTEED_NO_EVICT);
    /// false: its prompt and `reserved_tokens`, with `reserved_tokens` kept free for each request held,
    /// against the KV in use (SGLang's pre-allocation: used + r·held + I + r ≤ K).
    bool reserve_full_sequence = true;
    double reserved_tokens = 0;  ///< r (SGLang: `sglang_reserved_decode_tokens`)
    /// true: the decode rank admits a request before its prefill pass (SGLang's bootstrap: the prefill
    /// waits for the pre-allocation); false: after it (TensorRT-LLM's generation-init).
    bool before_prefill = false;
    /// true: an iteration that takes in requests whose KV has arrived is an idle forward in lockstep with
    /// the worker's other attention ranks (a step's time; the rank's running sequences make no token), the
    /// new requests' first token streamed at its start and their other O − 1 made from the next iteration
    /// (SGLang's decode worker under attention DP, `require_mlp_sync`: see the file's comment).
    bool idle_join_step = false;

    void validate() const {
        require(max_running == std::numeric_limits<double>::infinity() ||
                    (max_running >= 1.0 && max_running <= 1e9 && detail::const_trunc(max_running) == max_running),
                "decode admission", "max_running", max_running,
                "a decode attention rank holds a whole number of requests, at least 1 (∞: no cap)");
        require(reserved_tokens >= 0.0 && reserved_tokens <= 1e9, "decode admission", "reserved_tokens",
                reserved_tokens, "a per-request KV reserve is 0 or more tokens (finite)");
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
    double idle_join_steps = 0;  ///< decode iterations spent taking in requests (`decode_admission::idle_join_step`)
    /// A request's wait for its decode rank's admission (from the prefill's end, TensorRT-LLM, or the
    /// send, SGLang, to the reservation), mean and most over requests (s).
    double mean_admission_wait = 0, max_admission_wait = 0;
    double admission_kv_tokens = 0;  ///< the decode rank's KV pool K (tokens; `kv_capacity_tokens`)
};

/// Checks one drawn request against both pools (the message, with the request's number, is built only
/// for a request that breaks a rule): whole tokens, input + output within the model's max_position, the
/// prompt's KV within a prefill rank's pool and the whole sequence's (input + output) within a decode
/// rank's (`kv_budget_per_gpu`): a request no rank can hold is refused, not simulated as if it fit.
inline void check_disaggregated_request(const worker_pool& prefill, const worker_pool& decode, double input,
                                        double output, std::size_t index) {
    const bool lengths_ok = input >= 1.0 && std::isfinite(input) && output >= 1.0 && std::isfinite(output) &&
                            detail::const_trunc(input) == input && detail::const_trunc(output) == output;
    const double prefill_kv =  // in the prefill engine's whole KV blocks, as the colocated prefill role reserves
        lengths_ok ? kv_bytes_per_gpu_for_context(prefill.d, kv_block_slots(tokens(input), kv_block_size(prefill.d))).value()
                   : 0.0;
    const double decode_kv =  // in the decode engine's whole KV blocks (`kv_block_slots`)
        lengths_ok ? kv_bytes_per_gpu_for_context(decode.d, kv_block_slots(tokens(input + output), kv_block_size(decode.d))).value()
                   : 0.0;
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

/// Whether a prefill worker's attention ranks run each forward in lockstep, priced pass by pass in the
/// simulated run: attention data parallelism under expert parallelism (`attention_data_parallel`), where an
/// SGLang scheduler all-gathers every rank's token count each iteration and a rank with no prompt runs an idle
/// batch while any rank has tokens (HaiShaw/sglang@00e3e6ea3 python/sglang/srt/disaggregation/prefill.py
/// get_next_disagg_prefill_batch_to_run → prepare_mlp_sync_batch; managers/scheduler_dp_attn_mixin.py
/// prepare_mlp_sync_batch_raw, need_idle_batch = max(global_num_tokens) > 0), and each MoE layer's all-to-all
/// waits for the slowest rank (read in SGLang; applied to any engine's prefill worker of that layout, an
/// assumption where the engine's own code was not read); and an engine that carries no balance ratio β (`engine_moe::attention_dp_balance`
/// 0): where β is measured, 1/β (`pass_model::attention_dp_busiest`) already prices the same wait as a
/// steady-state average in every pass, so it is not priced twice. docs/mi355x-prefill.md §7.
[[nodiscard]] constexpr bool prefill_worker_lockstep(const deployment& d) {
    return d.attention_data_parallel() && d.attention_ranks() > 1 && !(d.engine.moe.attention_dp_balance > 0.0);
}

/// Simulates the closed loop of `c` against the pools (see the file's comment); the KV over `path`,
/// the prefill ranks' admission `l` (a pass's B prompts and M tokens, SGLang's hold), the decode ranks' `a`.
[[nodiscard]] inline disaggregated_result simulate_disaggregated(const worker_pool& prefill, const worker_pool& decode,
                                                                 const disaggregated_client& c, kv_path path,
                                                                 const prefill_admission& l = {},
                                                                 const decode_admission& a = {}) {
    prefill.validate();
    decode.validate();
    c.validate();
    l.validate();
    a.validate();
    require_weights_fit(prefill.d);
    require_weights_fit(decode.d);
    const double kv_tokens = kv_capacity_tokens(decode.d).value();  // K: one decode attention rank's pool
    // A sequence in the decode engine's paged cache of B-token blocks: a whole reserve in whole blocks
    // (`kv_block_slots`), on the KV in use the last block's mean waste (B − 1) ÷ 2 more (`kv_expected_block_waste`).
    const tokens_t block = kv_block_size(decode.d);
    auto reserve_slots = [&](const double in, const double o) { return kv_block_slots(tokens(in + o), block).value(); };
    const double block_waste = kv_expected_block_waste(block).value();
    const auto ap = static_cast<std::size_t>(prefill.ranks()), ad = static_cast<std::size_t>(decode.ranks());
    const auto n = static_cast<std::size_t>(c.prompts);
    // the prefill pass's serial request count is capped at B, the prompts a rank's pass takes (`eager_prompt_wait`)
    const pass_model pm_p = [&] {
        pass_model m = prepare_pass(prefill.d);
        m.prefill_request_cap = l.max_running;
        return m;
    }();
    const pass_model pm_d = prepare_pass(decode.d);
    const seconds_t front_end = prefill.d.engine.overheads.request;
    const double cap = l.max_tokens_per_step;                                // M: the pass's budget
    const double chunk = l.chunk_tokens > 0.0 ? l.chunk_tokens : cap;          // C: where a prompt is cut
    constexpr double no_hold = std::numeric_limits<double>::infinity();
    // R: the ranks of one prefill worker that run each forward together (`prefill_worker_lockstep`), else 1.
    const std::size_t lockstep_ranks =
        prefill_worker_lockstep(prefill.d) ? static_cast<std::size_t>(prefill.d.attention_ranks()) : 1;

    struct request {
        double input = 0, output = 0, sent = 0, first = 0, last = 0;
        double first_step = 0;  // the decode rank's step in which it makes its first token
        double prefilled = 0;   // prompt tokens prefilled so far (chunked prefill)
        double eligible = 0;    // when it began to wait for its decode rank's admission
        std::size_t p_rank = 0, d_rank = 0;
        bool streamed = false;  // its first token streamed at a join step (`idle_join_step`)
    };
    std::vector<request> reqs;
    reqs.reserve(n);
    workload::sampler draw(c.seed);

    enum class kind { arrive, prefill_done, ready, step_done, prefill_start, decode_start, join_done };
    using event = std::tuple<double, std::uint64_t, kind, std::size_t>;  // time, order, kind, request or rank
    std::priority_queue<event, std::vector<event>, std::greater<>> events;
    std::uint64_t order = 0;
    auto at = [&](double t, kind k, std::size_t i) { events.emplace(t, order++, k, i); };

    auto send = [&](double t) {  // the client's next prompt, at the prefill pool's router at once
        request r{};
        r.input = draw.length(c.input);
        r.output = draw.length(c.output);
        check_disaggregated_request(prefill, decode, r.input, r.output, reqs.size());
        require_prompt_within_step_cap("disaggregated request " + std::to_string(reqs.size() + 1), tokens(r.input),
                                       tokens(cap), l.chunked, l.first_prompt_always);
        r.sent = t;
        reqs.push_back(r);
        at(t, kind::arrive, reqs.size() - 1);
    };

    struct prefill_rank {
        std::deque<std::size_t> queue;    // requests that may enter a pass (SGLang: holding a slot)
        std::deque<std::size_t> backlog;  // FIFO: requests waiting for a slot (`prefill_admission::held_slots`)
        std::vector<std::pair<std::size_t, double>> pass;  // (request, tokens it prefills in this pass)
        double held = 0;                  // requests holding a slot
        double own_seconds = 0;           // its pass's price at its own prompts (the lockstep reads it)
        bool busy = false;
        bool in_pass = false;             // a pass is running (from its start to its end)
    };
    struct decode_rank {
        // (the step of its last token, request): the sequences in the batch, soonest end first
        std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>, std::greater<>> running;
        std::vector<std::size_t> joining, joined;
        std::vector<std::size_t> taken_in;  // first token streamed at a join step, decoding from the next step
        double step = 0;        // steps completed
        double base = 0;        // Σ (input − first_step + 1): the batch's context sum is base + b · (step − 1) in step `step`
        bool busy = false;
        std::deque<std::size_t> waiting;  // FIFO: requests waiting for admission
        double held = 0;                  // requests admitted and not finished
        double reserved = 0;              // Σ ⌈(I + O) ÷ B⌉ · B over them (whole-sequence reservation)
        double pending_input = 0;         // Σ I over those admitted and not yet decoding
    };
    std::vector<prefill_rank> pre(ap);
    std::vector<decode_rank> dec(ad);
    std::size_t next_p = 0, next_d = 0;
    disaggregated_result out{};

    // A pass: at most B prompts from the head of the queue within M (SGLang: the first whatever its
    // tokens, a later one while fewer than what is left of M; else while they fit what is left), a
    // prompt longer than what is left of C cut there where the engine chunks (the cut closes the pass).
    // Planned from the head of rank k's queue without taking the prompts (`take` = false): the pass a
    // worker's other rank would run in the same forward (the lockstep below) is priced from its plan.
    struct planned_pass {
        double prompts = 0, tokens_in = 0, done_before = 0;
    };
    auto plan_pass = [&](prefill_rank& p, bool take) {
        planned_pass plan{};
        for (std::size_t at_q = 0; at_q < p.queue.size() && plan.prompts < l.max_running; ++at_q) {
            const std::size_t j = p.queue[at_q];
            const request& q = reqs[j];
            const double rest = q.input - q.prefilled;
            if (plan.prompts > 0.0 && cap > 0.0) {
                const double left = cap - plan.tokens_in;
                const bool enters = l.first_prompt_always ? rest < left : (rest <= left || l.chunked);
                if (!enters) break;
            }
            const double chunk_take = l.chunked && chunk > 0.0 ? detail::min(rest, chunk - plan.tokens_in) : rest;
            plan.tokens_in += chunk_take;
            plan.done_before += q.prefilled;
            plan.prompts += 1.0;
            if (take) p.pass.emplace_back(j, chunk_take);
            if ((cap > 0.0 && plan.tokens_in >= cap) || (l.chunked && chunk > 0.0 && plan.tokens_in >= chunk) ||
                chunk_take < rest)
                break;
        }
        if (take)
            for (double i = 0.0; i < plan.prompts; i += 1.0) p.queue.pop_front();
        return plan;
    };
    // a pass whose prompts already hold 0 < Σ p < P tokens runs absorbed MLA (`step_pass`, `absorbs_prompt_prefix`)
    auto pass_seconds = [&](const planned_pass& plan) {
        return prefill_pass(pm_p, plan.prompts, tokens(plan.tokens_in / plan.prompts),
                            tokens(plan.done_before / plan.prompts)).time().value();
    };
    auto start_pass = [&](std::size_t k, double t) {
        prefill_rank& p = pre[k];
        p.pass.clear();
        const planned_pass own = plan_pass(p, true);
        p.busy = true;
        p.own_seconds = pass_seconds(own);
        out.prefill_passes += 1.0;
        out.mean_prompts_per_pass += own.prompts;
        // The worker's ranks in lockstep (`prefill_worker_lockstep`): the pass lasts as long as the longest pass of
        // the worker's ranks that hold a prompt now, each priced at its own prompts (one running, its own pass's
        // price; one with a queue, the pass it would start): t = max(t_own, max_j t_j).
        double seconds_taken = p.own_seconds;
        if (lockstep_ranks > 1) {
            const std::size_t first = k - k % lockstep_ranks;
            for (std::size_t j = first; j < first + lockstep_ranks; ++j) {
                if (j == k) continue;
                if (pre[j].in_pass)
                    seconds_taken = detail::max(seconds_taken, pre[j].own_seconds);
                else if (!pre[j].queue.empty())
                    seconds_taken = detail::max(seconds_taken, pass_seconds(plan_pass(pre[j], false)));
            }
        }
        p.in_pass = true;
        at(t + seconds_taken, kind::prefill_done, k);
    };
    auto wake_prefill = [&](std::size_t k, double t) {  // starts once every prompt that arrives at this instant is queued
        if (!pre[k].busy && !pre[k].queue.empty()) {
            pre[k].busy = true;
            at(t, kind::prefill_start, k);
        }
    };
    auto take_slots = [&](prefill_rank& p) {  // the backlog's head takes each free slot, FIFO, into the queue
        while (!p.backlog.empty() && p.held < l.held_slots) {
            p.held += 1.0;
            p.queue.push_back(p.backlog.front());
            p.backlog.pop_front();
        }
    };
    auto enter_prefill = [&](std::size_t i, double t) {  // into its prefill rank's FIFO, through a slot where held
        prefill_rank& p = pre[reqs[i].p_rank];
        p.backlog.push_back(i);
        take_slots(p);
        wake_prefill(reqs[i].p_rank, t);
    };
    // The KV a request reserves at admission on top of what its rank holds (see `decode_admission`).
    auto fits = [&](const decode_rank& r, const request& q) {
        if (a.reserve_full_sequence) return r.reserved + reserve_slots(q.input, q.output) <= kv_tokens;
        const double in_use = r.base + static_cast<double>(r.running.size()) * r.step + r.pending_input;
        return in_use + (a.reserved_tokens + block_waste) * r.held + q.input + a.reserved_tokens + block_waste <= kv_tokens;
    };
    double waits = 0;
    // Admits the head of rank k's queue while it has a slot and the reservation fits (FIFO: stops at the
    // first that does not); an admitted request's KV moves after its prefill, or its prefill starts.
    auto admit = [&](std::size_t k, double t) {
        decode_rank& r = dec[k];
        while (!r.waiting.empty() && r.held < a.max_running && fits(r, reqs[r.waiting.front()])) {
            const std::size_t j = r.waiting.front();
            r.waiting.pop_front();
            r.held += 1.0;
            r.reserved += reserve_slots(reqs[j].input, reqs[j].output);
            r.pending_input += reqs[j].input;
            waits += t - reqs[j].eligible;
            out.max_admission_wait = detail::max(out.max_admission_wait, t - reqs[j].eligible);
            if (a.before_prefill) {
                enter_prefill(j, t);
            } else {
                at(t + kv_transfer_for(prefill.d, tokens(reqs[j].input), path).time.value(), kind::ready, j);
            }
        }
        if (r.held == 0.0 && !r.waiting.empty()) {  // an idle rank that cannot take the head never will
            const request& q = reqs[r.waiting.front()];
            throw invalid_input("disaggregated simulation", "input + output (tokens)", q.input + q.output,
                                "one request's KV reservation must fit a decode attention rank's KV pool "
                                "(`kv_capacity_tokens`: " + invalid_input::show(kv_tokens) + " tokens)");
        }
    };
    auto wait_for_decode = [&](std::size_t j, double t) {
        reqs[j].eligible = t;
        dec[reqs[j].d_rank].waiting.push_back(j);
        admit(reqs[j].d_rank, t);
    };

    auto start_step = [&](std::size_t k, double t) {
        decode_rank& r = dec[k];
        const double s = r.step + 1.0;
        if (a.idle_join_step && !r.joining.empty()) {
            // The join step: the new requests' first token now, an idle forward of a step's time (priced as
            // the rank's step at its batch after the join), the running sequences waiting; the step count
            // does not move, so every running sequence's last step moves one iteration later.
            const double b_run = static_cast<double>(r.running.size());
            double in_sum = 0.0;
            for (const std::size_t i : r.joining) {
                reqs[i].first = t;
                reqs[i].streamed = true;
                in_sum += reqs[i].input;
                r.taken_in.push_back(i);
            }
            const auto b_new = static_cast<double>(r.joining.size());
            r.joining.clear();
            const double context = b_run > 0.0 ? (r.base + b_run * (s - 1.0)) / b_run : in_sum / b_new;
            r.busy = true;
            out.idle_join_steps += 1.0;
            at(t + decode_pass(pm_d, detail::micro_batch(decode.d, b_run + b_new), tokens(context)).time().value(),
               kind::join_done, k);
            return;
        }
        for (const std::size_t i : r.taken_in) {  // first token already out: O − 1 steps from step s, context I + 1
            reqs[i].first_step = s;
            r.pending_input -= reqs[i].input;
            r.base += reqs[i].input - s + 2.0;
            r.running.emplace(s + detail::max(reqs[i].output - 2.0, 0.0), i);  // (O = 1: still one step)
        }
        r.taken_in.clear();
        for (const std::size_t i : r.joining) {
            reqs[i].first_step = s;
            r.pending_input -= reqs[i].input;
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
                reqs[i].p_rank = next_p++ % ap;
                if (a.before_prefill) {  // SGLang: both ranks at the send; the prefill waits for the pre-allocation
                    reqs[i].d_rank = next_d++ % ad;
                    wait_for_decode(i, t);
                } else {
                    enter_prefill(i, t);
                }
                break;
            }
            case kind::prefill_done: {
                pre[i].in_pass = false;
                std::vector<std::size_t> chunked;  // a chunk's request goes back to the head of the queue
                for (const auto& [j, took] : pre[i].pass) {
                    reqs[j].prefilled += took;
                    if (reqs[j].prefilled < reqs[j].input) {
                        chunked.push_back(j);
                        continue;
                    }
                    if (l.held_slots == no_hold) pre[i].held -= 1.0;
                    if (a.before_prefill) {
                        at(t + kv_transfer_for(prefill.d, tokens(reqs[j].input), path).time.value(), kind::ready, j);
                    } else {  // TensorRT-LLM: the decode rank in turn, then its admission, then the transfer
                        reqs[j].d_rank = next_d++ % ad;
                        wait_for_decode(j, t);
                    }
                }
                for (auto it = chunked.rbegin(); it != chunked.rend(); ++it) pre[i].queue.push_front(*it);
                // The next pass starts as an event at t, after every prompt that reaches this rank at t
                // is queued (a tie with an arrival joins the pass, as the opening wave's prompts do).
                pre[i].busy = !pre[i].queue.empty();
                if (pre[i].busy) at(t, kind::prefill_start, i);
                break;
            }
            case kind::ready: {
                if (l.held_slots != no_hold) {  // the transfer has ended: its slot is free
                    prefill_rank& p = pre[reqs[i].p_rank];
                    p.held -= 1.0;
                    take_slots(p);
                    wake_prefill(reqs[i].p_rank, t);
                }
                const std::size_t k = reqs[i].d_rank;
                dec[k].joining.push_back(i);
                if (!dec[k].busy) {  // steps once every KV cache that arrives at this instant has joined
                    dec[k].busy = true;
                    at(t, kind::decode_start, k);
                }
                break;
            }
            case kind::prefill_start: start_pass(i, t); break;
            case kind::decode_start: start_step(i, t); break;
            case kind::join_done: {  // no token made, nothing finished: the next iteration at once
                decode_rank& r = dec[i];
                r.busy = !r.running.empty() || !r.joining.empty() || !r.taken_in.empty();
                if (r.busy) at(t, kind::decode_start, i);
                break;
            }
            case kind::step_done: {
                decode_rank& r = dec[i];
                r.step += 1.0;
                for (const std::size_t j : r.joined) reqs[j].first = t;
                r.joined.clear();
                while (!r.running.empty() && r.running.top().first <= r.step) {
                    const std::size_t j = r.running.top().second;
                    r.running.pop();
                    reqs[j].last = t;
                    r.base -= reqs[j].input - reqs[j].first_step + (reqs[j].streamed ? 2.0 : 1.0);
                    r.held -= 1.0;
                    r.reserved -= reserve_slots(reqs[j].input, reqs[j].output);
                    if (reqs.size() < n) send(client_first_token(seconds(t), front_end).value());
                }
                admit(i, t);  // a finished answer frees its slot and its KV
                // The next step starts as an event at t, after every KV cache that arrives at t has joined.
                r.busy = !r.running.empty() || !r.joining.empty() || !r.taken_in.empty();
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
    out.mean_admission_wait = waits / static_cast<double>(reqs.size());
    out.admission_kv_tokens = kv_tokens;
    return out;
}

}  // namespace llmcost::sim
