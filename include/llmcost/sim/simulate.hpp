#pragma once
/// \file
/// A discrete-event simulator of an iteration-level serving engine: continuous batching (Orca,
/// OSDI 2022) with FCFS admission, a cap on running sequences and on tokens per step, whole or
/// chunked prompts (Sarathi-Serve, OSDI 2024), and KV capacity — reserved for the whole sequence
/// at admission (TensorRT-LLM's GUARANTEED_NO_EVICT) or only for what is cached, with the newest
/// sequence preempted and recomputed when the cache runs out (vLLM's default).
///
/// Every step is priced by the library's own step formula (`detail::step_formula`, on the
/// deployment prepared once by `prepare_pass`), with the step's sequences as they are: the decodes'
/// contexts and the prompt chunks' tokens and prefixes summed into the formula's per-sequence
/// terms, so the simulator and the closed forms cannot disagree about a step. Steps of the same
/// shape are priced once (a small cache keyed by the exact shape). Deterministic under a seed: the
/// same inputs give the same figures, bit for bit.
///
/// Beyond recompute, a preempted sequence's KV may be swapped to host memory and back
/// (`kv_swap_time`, the engine stalled while it moves); prompts may find a prefix cached (a token
/// hit rate, or the trace's shared-prefix ids), computing only `fresh_prompt_tokens` of
/// them; and the servers may be split into a prefill pool and a decode pool, each prompt's KV sent
/// between them (`kv_transfer_for`), its first token the decode pool's first step.
///
/// The engine is one attention rank; a deployment of dp ranks (and pp pipeline stages, each with
/// 1/pp of the sequences in flight, as `serve_at_batch` counts them) is dp · pp such servers,
/// each request going to one at random (a random split of a Poisson stream is Poisson).
///
/// Compiled once, in the `llmcost_plan` library (simulate-inl.hpp); define `LLMCOST_HEADER_ONLY`
/// to compile it here instead.
///
/// **Example**
/// \code
/// const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
/// const sim::result r = sim::simulate(d, {.input = workload::fixed(1000_tok), .output = workload::fixed(200_tok),
///                                         .arrivals = workload::poisson(100_ms)}, {.requests = 10000});
/// r.ttft.p90;   // seconds
/// \endcode

#include <llmcost/descriptors/workload.hpp>
#include <llmcost/detail/header_only.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/sim/sampler.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::sim {

/// What a preempted sequence's KV becomes when the cache runs out (optimistic admission only).
enum class preemption {
    recompute,  ///< dropped; the context (prompt + tokens so far) is prefilled again (vLLM's, SGLang's)
    swap,       ///< copied to host memory and back when scheduled again (`kv_swap_time` each way)
};

/// Why engine `k` cannot swap a preempted sequence's KV to host memory (`preemption::swap`), or empty
/// where it can; `disaggregated`: the servers decode prompts prefilled elsewhere (`options::prefill_servers`).
/// vLLM V1 only recomputes: when `KVCacheManager.allocate_slots` finds no free block, `Scheduler.schedule`
/// pops the newest running request and `_preempt_request` frees its blocks and puts it back at the head of
/// the waiting queue with no computed tokens (vllm/v1/core/sched/scheduler.py, vllm-project/vllm @00024d31);
/// V1 has no swap space (V0's `PreemptionMode.SWAP`, vllm/core/scheduler.py, is V0's alone; an engine of kind
/// vLLM is priced with V1's scheduler: ASSUMED for every vLLM profile, V0 rows set V0's policy as limits). SGLang retracts: `ScheduleBatch.retract_decode` releases the retracted
/// requests' KV and they are prefilled again (python/sglang/srt/managers/schedule_batch.py, sgl-project/sglang
/// @fd3907ee), except on a disaggregated decode server, whose `release_req` first copies the request's KV
/// to host memory (`offload_kv_cache` → `get_cpu_copy`, under `disaggregation_mode == "decode"`) and loads
/// it back: a swap. TensorRT-LLM and the reference engine: the library's swap, as before.
[[nodiscard]] constexpr std::string_view swap_refusal(engine_kind k, bool disaggregated) {
    if (k == engine_kind::vllm)
        return "vLLM V1 preempts by recompute only (its scheduler frees a preempted request's KV blocks and "
               "prefills it again; it has no swap space)";
    if (k == engine_kind::sglang && !disaggregated)
        return "SGLang retracts a preempted request and prefills it again; only a disaggregated decode server "
               "(prefill servers apart) copies its KV to host memory";
    return {};
}

/// TensorRT-LLM's attention-DP balance, its two counters (iterations): `waiting` counts the
/// iterations in which not every rank had a waiting prompt and a free slot, `batching` the
/// iterations of the batching wait since every rank had one.
struct adp_balance_counters {
    double waiting = 0;
    double batching = 0;
    [[nodiscard]] constexpr bool operator==(const adp_balance_counters&) const = default;
};

/// What the attention ranks' gathered counts say at one iteration.
struct adp_ranks_state {
    bool all_have_prompt = false;      ///< every rank has a prompt the scheduler would start
    bool all_have_free_slot = false;   ///< every rank runs fewer answers than its max batch
    bool all_have_answers = false;     ///< every rank has answers running (generation requests)
};

/// One iteration's decision of the balance and the counters after it.
struct adp_balance_decision {
    bool release = false;  ///< the ranks' waiting prompts enter this iteration
    adp_balance_counters next{};
};

/// One iteration of TensorRT-LLM's attention-DP balance with timeout T and batching wait W
/// (`scheduler_limits::adp_timeout_iters`, `adp_batching_wait_iters`): if every rank has a prompt
/// and a free slot, waiting := 0 and, where every rank has answers running, the prompts are held
/// while batching < W (batching += 1), else they enter (batching := 0); otherwise waiting += 1 and
/// they are held, unless waiting ≥ T or some rank has no answer running: then they enter and
/// waiting := 0. (NVIDIA/TensorRT-LLM pull request 6061, "ADP schedule balance optimization",
/// merged 2025-07; `PyExecutor._balance_adp_requests` in tensorrt_llm/_torch/pyexecutor/py_executor.py
/// of the 2025 releases; docs/trtllm-adp-online.md.)
[[nodiscard]] constexpr adp_balance_decision adp_balance_step(adp_balance_counters c, const adp_ranks_state& s,
                                                              double timeout_iters, double batching_wait_iters) {
    if (s.all_have_free_slot && s.all_have_prompt) {
        c.waiting = 0.0;
        if (!s.all_have_answers) return {.release = true, .next = c};
        if (c.batching < batching_wait_iters) {
            c.batching += 1.0;
            return {.release = false, .next = c};
        }
        c.batching = 0.0;
        return {.release = true, .next = c};
    }
    c.waiting += 1.0;
    if (c.waiting >= timeout_iters || !s.all_have_answers) {
        c.waiting = 0.0;
        return {.release = true, .next = c};
    }
    return {.release = false, .next = c};
}

/// The expected maximum of R independent standard normal draws, E[max] = ∫ x · R φ(x) Φ(x)^(R−1) dx
/// (order statistics; 1 ÷ √π at R = 2, 1.0294 at 4, 1.4236 at 8), by Simpson's rule on [−12, 12]: the
/// busiest of R alike attention-DP ranks, in standard deviations above their mean; 0 for one rank.
[[nodiscard]] inline double expected_max_of_normals(double ranks) {
    if (!(ranks > 1.0)) return 0.0;
    constexpr int n = 4800;  // intervals of 0.005
    constexpr double lo = -12.0, h = 24.0 / n;
    auto f = [&](double x) {
        const double phi = std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.141592653589793);
        const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
        return x * ranks * phi * std::pow(cdf, ranks - 1.0);
    };
    double sum = f(lo) + f(lo + n * h);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(lo + i * h);
    return sum * h / 3.0;
}

/// One other attention-DP rank's prompts in an iteration: its first chunk's tokens before it, and the
/// step formula's prompt terms summed over its prompts (tokens, attention pairs, KV read).
struct adp_rank_chunk {
    double tokens = 0;  ///< prompt tokens this iteration; 0: the rank runs no prompt
    double before = 0;  ///< tokens before its first chunk (prefix-cache hit, chunks so far)
    double prefix_total = 0;  ///< Σ p: the tokens its prompts held before their chunks (`engine_kernels::absorbed_mla_prompt_step`)
    double prompts = 0;
    double pairs = 0;
    double kv_prefill = 0;
};

/// Attention-DP ranks run every iteration in lockstep (the MoE's collectives of each layer wait for every
/// rank), so the iteration lasts as long as its busiest rank's step: t = max(t_own, max_j price(rank j))
/// over the other ranks with prompts, each by its step time, not its token count (TensorRT-LLM blog10
/// @011cfc2 and bloc_x @b107017d: iteration time = max over ranks m of time_i,m; docs/adp-lockstep-prefill.md).
template <class Price>
[[nodiscard]] constexpr double adp_lockstep_time(double own, std::span<const adp_rank_chunk> others, Price&& price) {
    double t = own;
    for (const adp_rank_chunk& o : others)
        if (o.tokens >= 1.0) t = std::max(t, price(o));
    return t;
}

/// A sequence as an admission that knows every answer's length sees it: the tokens its answer still
/// has to generate and the tokens whose KV it holds now (its prompt and the answer so far).
struct remaining_sequence {
    tokens_t left{};
    tokens_t held{};
};

/// SGLang's admission of `ignore_eos` requests (`scheduler_limits::ignore_eos_admission`;
/// PrefillAdder.add_one_req_ignore_eos, python/sglang/srt/managers/schedule_policy.py, v0.5.x,
/// IGNORE_EOS_RESERVE_TOKENS 1): with the running sequences and the candidate in `seqs`, each run to the
/// end of its answer, at the end of every one of them the sequences still running, each grown to that
/// time, leave more than `reserve` tokens each of the pool free:
///   for every k: pool − Σ_{j: left_j ≥ left_k} (held_j + left_k) > reserve · #{j: left_j ≥ left_k}
/// (SGLang walks the sequences sorted by tokens left; at tied ends its first, strictest, test is this
/// one). A sequence with nothing left is not counted: a deliberate deviation, since SGLang still counts a
/// finished sequence's KV as in use until it leaves; the two differ only where an answered sequence stays
/// resident (`outputs_per_block` > 1, which no SGLang row sets). Cost O(m²) over the m sequences.
[[nodiscard]] constexpr bool ignore_eos_admits(std::span<const remaining_sequence> seqs, tokens_t pool, tokens_t reserve) {
    for (const remaining_sequence& k : seqs) {
        if (k.left.value() <= 0.0) continue;
        double footprint = 0.0, running = 0.0;
        for (const remaining_sequence& j : seqs)
            if (j.left.value() > 0.0 && j.left.value() >= k.left.value()) {
                footprint += j.held.value() + k.left.value();
                running += 1.0;
            }
        if (pool.value() - footprint <= reserve.value() * running) return false;
    }
    return true;
}

/// How the simulation runs.
struct options {
    scheduler_limits limits{};     ///< the engine's scheduler policy (caps, KV reserve, chunked prefill)
    double requests = 1000;        ///< requests drawn from a generated workload (a trace: all of its)
    std::uint64_t seed = 1;
    bool keep_requests = true;     ///< keep each request's figures in `result::requests`
    double timeline_points = 512;  ///< at most about this many samples of batch and KV over time (0: none)
    preemption preempt = preemption::recompute;
    /// Share of every prompt found in the prefix cache (vLLM's token hit rate): only
    /// `fresh_prompt_tokens(P, h)` of a P-token prompt are computed, after the cached part
    /// (rounded down to whole tokens).
    double prefix_hit_rate = 0;
    /// Trace prefix ids: a prompt whose id a finished prefill on the same server carried finds the
    /// shared part cached — `shared_prefix_tokens`, or when 0 the shorter of the two prompts, at
    /// most P − 1 (the cache is not evicted; its KV is still counted per sequence).
    bool trace_prefixes = false;
    double shared_prefix_tokens = 0;
    /// Disaggregated: this many of the dp · pp servers only prefill; the rest only decode, each
    /// prompt's KV sent over `transfer_path` (`kv_transfer_for`) before its first decode step.
    double prefill_servers = 0;
    kv_path transfer_path = kv_path::scale_out;
    /// Disaggregated: the most prompts a prefill server takes into one step (a plan's prompts per
    /// prefill pass); 0: the servers' `limits.max_batch`.
    double prefill_batch = 0;
    /// The servers were started just before the run (a benchmark client's burst start): the first
    /// prompt steps carrying each server's opening requests (its first closed-loop clients') pay the
    /// engine's cold opening (`engine_overheads::cold_opening`). Read by a closed loop only; false: warm.
    bool cold_engine = false;
    /// What makes such a cold server build a kernel at first use (`first_use_trigger`; a run property: its image,
    /// flags and client): the first prompt step that meets it lasts `engine_overheads::first_use_build` longer, once
    /// per server. Read with `cold_engine` only; none: no build.
    first_use_trigger first_use_build = first_use_trigger::none;
    /// Under TensorRT-LLM's attention-DP balance (`scheduler_limits::adp_timeout_iters`): the rate
    /// (prompts per second) at which each of the other attention ranks gets its next waiting prompt,
    /// where known; none: the simulated rank's own rate so far (answers completed ÷ time in a closed
    /// loop, arrivals ÷ time since its first otherwise). 0: no new prompt arrives at the other ranks
    /// (past a closed loop's burst start; after a release they keep the prompts ours still waits on).
    std::optional<per_second_t> adp_others_rate{};
    /// Under the same balance: the prompt length of each other rank's next context request, where known;
    /// none: drawn, one request at a time, from the run's own requests (their prompt lengths, with the
    /// run's seed). The ranks run every iteration in lockstep, so a release's iteration lasts as long
    /// as the busiest rank's (`internal::run_server`: the attention-DP lockstep prefill).
    std::optional<tokens_t> adp_others_input{};
    /// Price requests past the model's max_position as fits (RoPE scaling, a long-context
    /// fine-tune), as `estimate --ignore-max-position` does; false: such a request is refused.
    bool ignore_max_position = false;

    constexpr void validate() const {
        limits.validate();
        if (adp_others_rate)
            require(non_negative_finite(adp_others_rate->value()), "simulation", "adp_others_rate (1/s)",
                    adp_others_rate->value(), "zero or positive and finite (none: the simulated rank's own rate)",
                    "llmcost.serving.adp_balance");
        if (adp_others_input)
            require(adp_others_input->value() >= 1.0 && std::isfinite(adp_others_input->value()) &&
                        std::floor(adp_others_input->value()) == adp_others_input->value(),
                    "simulation", "adp_others_input (tokens)", adp_others_input->value(),
                    "a prompt is a whole number of tokens, at least one, and finite (none: drawn from the run's requests)",
                    "llmcost.serving.adp_balance");
        require(limits.max_tokens_per_step == 0.0 || limits.max_tokens_per_step >= 1.0, "simulation", "max_tokens_per_step",
                limits.max_tokens_per_step, "a step's token cap is 0 (none) or at least one token: a chunk of no token never ends",
                "llmcost.simulate.max_tokens");
        require_prefix_hit_rate("simulation", "prefix_hit_rate", prefix_hit_rate);
        require(non_negative_finite(shared_prefix_tokens), "simulation", "shared_prefix_tokens", shared_prefix_tokens,
                "must be zero or positive and finite");
        require(prefill_servers >= 0.0 && prefill_servers <= 1e6 && detail::const_trunc(prefill_servers) == prefill_servers,
                "simulation", "prefill_servers", prefill_servers, "a whole number of servers, zero for colocated",
                "llmcost.simulate.prefill_servers");
        require(prefill_batch == 0.0 || (prefill_batch >= 1.0 && prefill_batch <= 1e6 &&
                                          detail::const_trunc(prefill_batch) == prefill_batch),
                "simulation", "prefill_batch", prefill_batch, "0 (the servers' max batch) or a whole number of prompts",
                "llmcost.simulate.prefill_batch");
        require(requests >= 1.0 && requests <= 1e9 && detail::const_trunc(requests) == requests, "simulation",
                "requests", requests, "a whole number of requests, at least one (and at most 10⁹)",
                "llmcost.simulate.requests_whole");
        require(non_negative_finite(timeline_points), "simulation", "timeline_points", timeline_points,
                "must be zero or positive and finite");
    }
};

/// One request's journey through the engine (seconds).
struct request_result {
    double arrival = 0;   ///< when it arrived
    double queue = 0;     ///< arrival → admitted (its first step)
    double ttft = 0;      ///< arrival → first token
    double tpot = 0;      ///< (e2e − ttft) ÷ (O − 1); 0 for a one-token answer
    double e2e = 0;       ///< arrival → last token
    double input = 0, output = 0;  ///< tokens
    int preemptions = 0;  ///< times its KV was taken back (recomputed or swapped)
};

/// The mean and the percentiles of a figure over requests (or, for ITL, over tokens).
struct percentiles {
    double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

/// A sample of the engine's state over time (the first of the dp · pp servers).
struct occupancy_sample {
    double time = 0;       ///< s
    double batch = 0;      ///< sequences in the step
    double kv = 0;         ///< share of the KV budget in use (reserved, under a full-sequence reserve)
    double waiting = 0;    ///< requests queued
};

struct result {
    std::vector<request_result> requests;  ///< in arrival order (when kept)
    percentiles ttft, tpot, itl, e2e, queue;  ///< s; ITL is over every token after the first
    double completed = 0;                  ///< requests answered (all of them)
    double output_tokens = 0;              ///< tokens generated
    double makespan = 0;                   ///< first arrival → last token (s)
    double output_tokens_per_s = 0;        ///< output_tokens ÷ makespan
    double requests_per_s = 0;
    double utilisation = 0;                ///< share of server time spent running steps
    double mean_batch = 0;                 ///< running sequences per server, time-weighted over busy time
    double mean_kv = 0;                    ///< share of the KV budget in use, time-weighted over busy time
    double preemptions = 0;
    double swap_s = 0;                     ///< engine time spent swapping KV out and in (all servers)
    double cached_prompt_tokens = 0;       ///< prompt tokens found in the prefix cache, not computed
    double prompt_tokens = 0;              ///< prompt tokens admitted (recomputed contexts again)
    double kv_transfer_s = 0;              ///< disaggregated: mean prefill → decode KV transfer per request
    double steps = 0;                      ///< steps run (all servers)
    double cache_hits = 0;                 ///< steps priced from the cache of step shapes
    double servers = 1;                    ///< dp · pp
    std::vector<occupancy_sample> timeline;

    /// Requests that met both targets, per second of the run (goodput under SLOs, seconds).
    [[nodiscard]] double goodput(double ttft_s, double tpot_s) const;
};

/// Simulates `o.requests` requests of a generated workload (Poisson, gamma or closed-loop arrivals).
[[nodiscard]] result simulate(const deployment& d, const workload::traffic& t, const options& o = {});
/// Replays a trace (arrival times non-decreasing; `o.requests` is ignored).
[[nodiscard]] result simulate(const deployment& d, std::span<const workload::request> trace, const options& o = {});

/// `simulate`, its refusal of a context past the model's max_position (llmcost.model.context_within_max_position) told
/// how to lift it: `lift`, the caller's switch (`llmcost simulate --ignore-max-position`, Python's
/// ignore_max_position=True; audit 40 F7). The one wording for every caller; `o.ignore_max_position` set: as `simulate`.
template <class Workload>
[[nodiscard]] result simulate_naming_lift(const deployment& d, const Workload& w, const options& o, std::string_view lift) {
    try {
        return simulate(d, w, o);
    } catch (const invalid_input& e) {
        if (e.id() != "llmcost.model.context_within_max_position" || o.ignore_max_position) throw;
        std::string rule = e.rule();
        rule += "; pass ";
        rule += lift;
        rule += " to simulate it anyway";
        throw invalid_input(e.subject(), e.field(), e.value(), rule, e.id());
    }
}

/// The percentiles of `xs` (linear interpolation between order statistics at rank q·(n − 1), as
/// tables/validation.md); reorders `xs`.
[[nodiscard]] percentiles summarise(std::vector<double>& xs);

}  // namespace llmcost::sim

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/sim/simulate-inl.hpp>
#endif
