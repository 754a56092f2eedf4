#pragma once
/// \file
/// Serving many requests at once: a deployment at a given concurrency, at a given arrival rate, and
/// saturated — every request queued, as many sequences running as KV capacity and the engine's
/// limits allow (the figure of TensorRT-LLM's throughput tables and MLPerf Offline).
///
/// The engine is modelled as continuous batching (Orca, OSDI 2022): in steady state each step
/// decodes one token for each of b sequences and carries b ÷ O prompts on average, since every
/// sequence that finishes after O tokens is replaced by a new one whose prompt must be processed.
/// A prompt rides whole in one step (TensorRT-LLM's default) or in chunks, one per step
/// (chunked prefill: Sarathi-Serve, OSDI 2024); either way a step carries whole chunks, so the
/// mean step is a mixture of steps with ⌊q⌋ and ⌈q⌉ of them, not one step with a fraction.

#include <llmcost/costs/passes.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/serving/queueing.hpp>

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace llmcost {

/// The lengths of one request — or, with a spread, of a workload whose requests' lengths vary:
/// then `input` and `output` are the means E[I] and E[O], and the spreads their standard
/// deviations (make one from two length distributions with `shape_of`, serving/lengths.hpp).
/// The closed forms read the first two moments: the live batch is length-biased
/// (`mean_decode_context`, `held_context`) and a prompt's attention grows as its length squared
/// (`detail::serving_sequence_terms`). Prompt and answer lengths are taken as independent.
struct request_shape {
    tokens_t input;   ///< prompt tokens (the mean, with a spread)
    tokens_t output;  ///< generated tokens (≥ 1; the mean, with a spread)
    /// Share h of the prompt found in a prefix cache (S6): its KV is kept, only the rest computed.
    double cached_fraction = 0.0;
    tokens_t input_spread{};   ///< standard deviation of the prompt lengths (0: every prompt alike)
    tokens_t output_spread{};  ///< standard deviation of the answer lengths (0: every answer alike)

    /// Prompt tokens computed: max(1, (1 − h)·I) (`fresh_prompt_tokens`).
    [[nodiscard]] constexpr tokens_t computed() const { return fresh_prompt_tokens(input, cached_fraction); }
    /// Prompt tokens read from the prefix cache: I − computed.
    [[nodiscard]] constexpr tokens_t cached() const { return input - computed(); }

    constexpr void validate() const {
        require_prefix_hit_rate("request", "cached_fraction", cached_fraction);
        require(positive_finite(input.value()), "request", "input (tokens)", input.value(),
                "a prompt has at least one token");
        require(output.value() >= 1.0 && non_negative_finite(output.value()), "request", "output (tokens)",
                output.value(), "a request generates at least one token");
        require(non_negative_finite(input_spread.value()), "request", "input_spread (tokens)", input_spread.value(),
                "a standard deviation of the prompt lengths is zero or positive and finite",
                "llmcost.serving.spread_non_negative");
        require(non_negative_finite(output_spread.value()), "request", "output_spread (tokens)", output_spread.value(),
                "a standard deviation of the answer lengths is zero or positive and finite",
                "llmcost.serving.spread_non_negative");
    }
    /// E[I²] = E[I]² + σ_I², tokens².
    [[nodiscard]] constexpr double input_second_moment() const {
        return input.value() * input.value() + input_spread.value() * input_spread.value();
    }
    /// E[O²] = E[O]² + σ_O², tokens².
    [[nodiscard]] constexpr double output_second_moment() const {
        return output.value() * output.value() + output_spread.value() * output_spread.value();
    }
    /// E[O²] ÷ E[O]: the mean answer length of a sequence caught in the batch (O itself when all are alike).
    [[nodiscard]] constexpr tokens_t length_biased_output() const {
        return output_spread.value() > 0.0 ? tokens(output_second_moment() / output.value()) : output;
    }
    /// Whether the lengths vary from request to request.
    [[nodiscard]] constexpr bool spread() const { return input_spread.value() > 0.0 || output_spread.value() > 0.0; }
};

/// A whole number of scheduler iterations from `lo` to 10⁶ (the attention-DP balance's timeout and
/// batching wait, TensorRT-LLM's `attention_dp_config`): the one check both `scheduler_limits` and a
/// measurement row apply.
[[nodiscard]] constexpr bool is_iteration_count(double x, double lo) {
    return x >= lo && x <= 1e6 && detail::const_trunc(x) == x;
}

/// AMD's patched vLLM V0 scheduler for MLPerf (`VLLM_LLAMA2_MLPERF_SCHED` 1: github.com/mlcommons/
/// inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932 closed/AMD/setup/vllm_patches/
/// scheduler-change-to-have-prefill-and-decode-reach-go.patch, on vllm/core/scheduler.py): a decode pass
/// decodes the first `of(n)` of the n running sequences (`_get_target_decode_batch`; `_schedule_running`
/// stops there), puts the decoded ones back at the head of the running queue (`extendleft`), so the ones
/// left out keep their KV and wait at its tail, in order; and a pass prefills only while fewer than `max`
/// run and more than `prefill_free_kv` of the KV is free (`_schedule`: do_prefill). Off (`max` 0): every
/// running sequence decodes and a pass may always prefill (every other engine, and V0 unpatched).
struct decode_target {
    double min = 0;   ///< VLLM_LLAMA2_MLPERF_MIN_TARGET_DECODE_BATCH: below it every running sequence decodes
    double max = 0;   ///< VLLM_LLAMA2_MLPERF_MAX_TARGET_DECODE_BATCH: the most a pass decodes; 0 = off
    double step = 0;  ///< VLLM_LLAMA2_MLPERF_STEP_DECODE_BATCH: between min and max, whole multiples of it
    /// VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_GPU_BLOCK × the KV block size (tokens): a pass prefills only
    /// with more KV free than this.
    tokens_t prefill_free_kv{};

    [[nodiscard]] constexpr bool on() const { return max > 0.0; }
    /// The sequences a pass decodes out of n running: n ≥ MAX → MAX; MIN ≤ n < MAX → ⌊n ÷ STEP⌋ · STEP;
    /// n < MIN → MIN, i.e. all n (`Scheduler._get_target_decode_batch`, the patch above). Off: n.
    [[nodiscard]] constexpr double of(double running) const {
        if (!on()) return running;
        if (running >= max) return max;
        if (running >= min) return detail::const_trunc(running / step) * step;
        return min;
    }
    /// Whether a pass may prefill with n running and `free_kv` tokens of KV free: n < MAX and free >
    /// the threshold (`Scheduler._schedule`, do_prefill, the patch above; the KV counted in tokens, not in
    /// whole blocks). Off: always.
    [[nodiscard]] constexpr bool may_prefill(double running, tokens_t free_kv) const {
        return !on() || (running < max && free_kv.value() > prefill_free_kv.value());
    }
    constexpr void validate(std::string_view subject) const {
        require(max == 0.0 || (max >= 1.0 && max <= 1e7 && detail::const_trunc(max) == max), subject,
                "decode_target_max", max,
                "0 (no decode target) or a whole number of sequences, from 1 to 10⁷", "llmcost.serving.decode_target");
        require(non_negative_finite(prefill_free_kv.value()), subject, "prefill_free_kv (tokens)",
                prefill_free_kv.value(), "must be zero or positive and finite", "llmcost.serving.decode_target");
        if (!on()) {
            require(min == 0.0, subject, "decode_target_min", min, "a decode target's minimum needs its maximum (decode_target_max ≥ 1)",
                    "llmcost.serving.decode_target");
            require(step == 0.0, subject, "decode_target_step", step, "a decode target's step needs its maximum (decode_target_max ≥ 1)",
                    "llmcost.serving.decode_target");
            require(prefill_free_kv.value() == 0.0, subject, "prefill_free_kv (tokens)", prefill_free_kv.value(),
                    "the prefill gate on free KV belongs to the decode target: it needs decode_target_max ≥ 1",
                    "llmcost.serving.decode_target");
            return;
        }
        require(step >= 1.0 && detail::const_trunc(step) == step, subject, "decode_target_step", step,
                "a whole number of sequences, at least 1", "llmcost.serving.decode_target");
        require(detail::const_trunc(min) == min && min <= max, subject, "decode_target_min", min,
                "a whole number of sequences, at most decode_target_max",
                "llmcost.serving.decode_target");
        require(min >= step, subject, "decode_target_min", min,
                "at least decode_target_step: with fewer, a pass of MIN to STEP running would decode "
                "⌊n ÷ STEP⌋ · STEP = 0 and stall",
                "llmcost.serving.decode_target");
    }
};

/// What the engine admits: KV capacity always; optionally a batch cap and a per-step token cap
/// (TensorRT-LLM's max_batch_size and max_num_tokens; vLLM's max_num_seqs and max_num_batched_tokens).
struct scheduler_limits {
    double max_batch = 0;              ///< sequences per attention rank; 0 = no cap
    double max_tokens_per_step = 0;    ///< decode + prefill tokens per step; 0 = no cap
    memory_reserve reserve{};
    /// Reserve KV for input + output when admitting a sequence (TensorRT-LLM's default
    /// GUARANTEED_NO_EVICT policy), or only for the mean context input + output/2 (vLLM-style
    /// optimistic admission, with preemption when memory runs out).
    bool reserve_full_sequence = true;
    /// With admission on the KV in use (`reserve_full_sequence` false), admit a prompt only where every
    /// running answer and it, each run to its whole output, fit the KV at every answer's end
    /// (`sim::ignore_eos_admits`): SGLang's admission of requests sent with `ignore_eos`, whose length is
    /// known (PrefillAdder.add_one_req_ignore_eos, python/sglang/srt/managers/schedule_policy.py, v0.5.x;
    /// docs/sglang-closed-loop-ttft.md §5). SGLang takes that path only where the request has ignore_eos
    /// and the radix cache is disabled (`tree_cache.disable`); InferenceMAX's SGLang runs set both
    /// (--ignore-eos, --disable-radix-cache). Simulated only; false: the KV in use alone.
    bool ignore_eos_admission = false;
    /// Chunked prefill: 0 = every prompt is prefilled whole in one step (TensorRT-LLM's default,
    /// enable_chunked_prefill off: nvidia.github.io/TensorRT-LLM/features/long-sequence.html);
    /// C > 0 = a prompt of I tokens takes ⌈I ÷ C⌉ steps of equal chunks (Sarathi-Serve; vLLM and
    /// SGLang split the prompts longer than their token budget).
    tokens_t prefill_chunk{};
    /// Decode steps between the scheduler's polls for newly arrived requests: 1 = every step (vLLM,
    /// TensorRT-LLM, SGLang's default); N > 1 = a request that arrives while sequences decode waits
    /// for the N-th decode step since the last poll, or for the end of a step that carried a prompt,
    /// an idle engine taking it at once (SGLang `--scheduler-recv-interval N`: SchedulerRecvSkipper
    /// adds 1 per decode pass and 1000 per other pass, receiving when the count reaches N;
    /// github.com/sgl-project/sglang python/sglang/srt/managers/scheduler_recv_skipper.py
    /// @70310f051068e3ea8dbaaecd4e408919cd431417). Simulated only (`sim::simulate`): a request waits
    /// (N − 1) ÷ 2 decode steps more on average when it lands among decodes.
    double receive_interval = 1;
    /// A step that carries prompt chunks runs no decodes: prefill batches alone, the running answers
    /// waiting for them (SGLang's default scheduler: a prefill batch wins whenever one can be formed,
    /// decode runs only when none is, unless --enable-mixed-chunk; github.com/sgl-project/sglang
    /// python/sglang/srt/managers/scheduler.py get_next_batch_to_run, "Run prefill first if possible",
    /// @d51c1c21d1ac07cd5d1de9ead6c99087d8428e79); false: prompt chunks ride with
    /// every decode in one step (vLLM V1's mixed chunked prefill, TensorRT-LLM's in-flight batching).
    /// Simulated only.
    bool prefill_alone = false;
    /// Prompts that must be waiting before a scheduler pass admits any while answers run, except
    /// the pass after one that declined (AMD's MLPerf vLLM V0 scheduler, VLLM_LLAMA2_MLPERF_SCHED with
    /// VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY Q: do_prefill = (waiting ≥ Q or the last pass
    /// declined), and a pass that may prefill uses up the turn whether or not a prompt waits;
    /// github.com/mlcommons/inference_results_v5.1 closed/AMD/setup/vllm_patches/
    /// add-MIN_REQUIRE_PREFILL_QUERY-condition.patch @965182b03376a00fcae415c54e560e1c83937932).
    /// Above 1, prompts are admitted only at the scheduler's passes (every `receive_interval` decode
    /// steps, after a prompt step, or when idle), so with fewer than Q waiting a prompt waits up to two
    /// passes. 1 = any waiting prompt is admitted (every engine's default). Simulated only.
    double min_waiting_prompts = 1;
    /// The block of `receive_interval` decode steps runs whole and its tokens come out at its end:
    /// every sequence in the block runs all of its steps, so an answer whose last token falls inside
    /// it is computed to the block's end, holding its place in the batch and its KV, and ends there
    /// (vLLM V0 multi-step, `num_scheduler_steps` N: the scheduler gives each decode N steps at a pass,
    /// `SequenceGroup.init_multi_step`, and `LLMEngine.step` skips the scheduler until they are
    /// done; without the async output processor, which `enforce_eager` turns off
    /// (`RocmPlatform.is_async_output_supported`), the block's outputs, the stop checks with them,
    /// are processed only after its last step, `_process_model_outputs`; github.com/ROCm/vllm
    /// @71faa1880, vllm/engine/llm_engine.py, vllm/sequence.py, vllm/platforms/rocm.py). A prompt step
    /// is a block of one step: its first token comes out at its end. Needs `receive_interval` above 1
    /// and prompt steps alone (chunked prefill off, `prefill_alone`). Simulated only.
    bool outputs_per_block = false;
    /// TensorRT-LLM's attention-DP balance (`attention_dp_config` enable_balance: `timeout_iters` T,
    /// `batching_wait_iters` W): every iteration, on the counts all attention ranks gather, the
    /// prompts of every rank are held unless every rank has one waiting and a free slot (then, with
    /// answers running on every rank, W iterations more), or a counter of the iterations without that
    /// reaches T (`sim::adp_balance_step`; docs/trtllm-adp-online.md). 0: off (every engine's default,
    /// and TensorRT-LLM's without enable_balance). Applies only where the deployment has attention-DP
    /// ranks (`deployment::attention_ranks` ≥ 2), as TensorRT-LLM applies it only with attention DP.
    /// Simulated only: the other R − 1 ranks' prompts as Poisson streams at the simulated rank's rate.
    double adp_timeout_iters = 0;
    double adp_batching_wait_iters = 0;  ///< W above; 0 with T: no batching wait
    /// AMD's MLPerf decode target and prefill gate (`decode_target`); off by default. Simulated only.
    decode_target decode_cut{};
    /// The share w of the KV pool admission keeps free: a prompt is admitted only if the free blocks after it
    /// stay at or above w of all blocks; running sequences grow into them (vLLM V0's block manager:
    /// `BlockSpaceManager.can_allocate`, `num_free_gpu_blocks − num_required_blocks ≥ watermark_blocks`,
    /// watermark_blocks = 0.01 × num_gpu_blocks; github.com/ROCm/vllm @71faa188073d427c57862c45bf17745f3b54b1b1
    /// vllm/core/block_manager.py). 0: none (vLLM V1's KVCacheManager, TensorRT-LLM, SGLang). Simulated only.
    double admission_watermark = 0;
    /// Scheduler steps L between a closed-loop answer's last step and the first step that can carry its client's
    /// next prompt: a client freed at the end of step j is admitted no earlier than step j + 1 + L (SGLang's
    /// overlap loop, `engine_scheduler::overlap_schedule_steps`: L = 2, the next prompt launched behind the two
    /// steps already in flight; docs/sglang-closed-loop-ttft.md §6). An engine that runs nothing takes it at
    /// once (no step is in flight). none: the deployment's engine's (`engine_scheduler::overlap_schedule_steps`);
    /// `with_engine_defaults` leaves it open (one writer of L: its readers resolve it). Read by the simulator (colocated closed loops: L; open
    /// arrivals: L − 1) and the closed forms (`serve_at_batch`, the sweeps, `serve_online_latency`, `ttft_percentile`),
    /// each resolved in one place (`detail::overlap_lag_of`).
    std::optional<double> overlap_lag_steps{};

    /// The reserve that sizes the KV pool under these limits: `reserve`, its step budget (the tokens
    /// the engine's activations are sized for) taken from `max_tokens_per_step` where the reserve does
    /// not give one — a budget the user set on the reserve wins — so the simulator, the estimate, the
    /// sweep and the batch all price the same pool (docs/kv-pool.md).
    [[nodiscard]] constexpr memory_reserve pool_reserve() const {
        memory_reserve p = reserve;
        if (p.step_tokens.value() == 0.0 && max_tokens_per_step > 0.0) p.step_tokens = tokens(max_tokens_per_step);
        return p;
    }

    constexpr void validate() const {
        require(non_negative_finite(max_batch), "scheduler", "max_batch", max_batch,
                "must be 0 (no cap) or positive and finite");
        require(non_negative_finite(max_tokens_per_step), "scheduler", "max_tokens_per_step",
                max_tokens_per_step, "must be 0 (no cap) or positive and finite");
        if (reserve.fraction)
            require(*reserve.fraction >= 0.0 && *reserve.fraction < 1.0, "scheduler", "reserve.fraction",
                    *reserve.fraction, "must be in [0, 1)");
        if (reserve.activations)
            require(non_negative_finite(reserve.activations->value()), "scheduler", "reserve.activations (B)",
                    reserve.activations->value(), "must be zero or positive and finite");
        require(non_negative_finite(reserve.resident.value()), "scheduler", "reserve.resident (B)",
                reserve.resident.value(), "must be zero or positive and finite");
        require(non_negative_finite(reserve.step_tokens.value()), "scheduler", "reserve.step_tokens (tokens)",
                reserve.step_tokens.value(), "must be 0 (the engine's max_batched_tokens) or positive and finite");
        require(non_negative_finite(prefill_chunk.value()) &&
                    (prefill_chunk.value() == 0.0 || prefill_chunk.value() >= 1.0),
                "scheduler", "prefill_chunk (tokens)", prefill_chunk.value(),
                "must be 0 (whole prompts) or at least one token, and finite", "llmcost.serving.chunk_at_least_one_token");
        require(receive_interval >= 1.0 && receive_interval <= 1e6 && detail::const_trunc(receive_interval) == receive_interval,
                "scheduler", "receive_interval (decode steps)", receive_interval,
                "a whole number of decode steps between polls for new requests, from 1 (every step) to 10⁶");
        if (overlap_lag_steps) require_overlap_lag("scheduler", "overlap_lag_steps (steps)", *overlap_lag_steps);
        require(!(ignore_eos_admission && reserve_full_sequence), "scheduler", "ignore_eos_admission", 1.0,
                "peak-footprint admission applies to admission on the KV in use (reserve_full_sequence false); "
                "a whole-sequence reserve already holds every answer's end");
        require(min_waiting_prompts >= 1.0 && min_waiting_prompts <= 1e6 &&
                    detail::const_trunc(min_waiting_prompts) == min_waiting_prompts,
                "scheduler", "min_waiting_prompts", min_waiting_prompts,
                "a whole number of waiting prompts before a scheduler pass admits any, from 1 (any) to 10⁶");
        require(!outputs_per_block || (receive_interval > 1.0 && prefill_alone), "scheduler", "outputs_per_block",
                1.0,
                "a block's outputs at its end need a block of decode steps (receive_interval above 1) and prompt "
                "steps alone (prefill_alone): vLLM V0 multi-step with chunked prefill off",
                "llmcost.serving.outputs_per_block");
        require(adp_timeout_iters == 0.0 || is_iteration_count(adp_timeout_iters, 1.0),
                "scheduler", "adp_timeout_iters", adp_timeout_iters,
                "0 (no attention-DP balance) or a whole number of iterations, from 1 to 10⁶, before held prompts enter",
                "llmcost.serving.adp_balance");
        require(is_iteration_count(adp_batching_wait_iters, 0.0),
                "scheduler", "adp_batching_wait_iters", adp_batching_wait_iters,
                "a whole number of iterations, from 0 to 10⁶, that prompts wait once every rank has one",
                "llmcost.serving.adp_balance");
        require(adp_batching_wait_iters == 0.0 || adp_timeout_iters > 0.0, "scheduler", "adp_batching_wait_iters",
                adp_batching_wait_iters, "a batching wait belongs to the attention-DP balance: it needs adp_timeout_iters ≥ 1",
                "llmcost.serving.adp_balance");
        require(admission_watermark >= 0.0 && admission_watermark < 1.0, "scheduler", "admission_watermark",
                admission_watermark, "a share of the KV pool kept free at admission, in [0, 1) (vLLM V0: 0.01)",
                "llmcost.serving.admission_watermark");
        decode_cut.validate("scheduler");
        // AMD's patch sits in V0's `_schedule_default`, run only with chunked prefill off, where a prompt step
        // carries no decodes and whole prompts (ROCm/vllm @71faa1880 vllm/core/scheduler.py `_schedule`).
        require(!decode_cut.on() || (prefill_alone && prefill_chunk.value() == 0.0), "scheduler", "decode_target_max",
                decode_cut.max,
                "AMD's gate runs in V0's non-chunked path (_schedule_default): needs prefill_alone 1 and no prefill chunk",
                "llmcost.serving.decode_target");
    }
};

/// `l` with engine `e`'s admission: an engine that admits on the KV in use (`admits_on_kv_in_use`: vLLM,
/// SGLang) has its KV room counted at the context in use, not a whole-sequence reserve (docs/online-caps.md
/// §1); every other limit as given. What the planners (`sweep`, `frontier`, `fleet`, `rank_layouts`) apply per deployment,
/// whose limits are the grid's own (no engine defaults: their token cap and chunk stay as the user set them).
[[nodiscard]] constexpr scheduler_limits with_engine_admission(scheduler_limits l, const engine_profile& e) {
    if (admits_on_kv_in_use(e.kind)) l.reserve_full_sequence = false;
    return l;
}

/// A run's KV admission policy where its launch states one, over its engine's default (`with_engine_admission`):
/// `reserve` = each sequence's whole KV I + O reserved at admission (TensorRT-LLM's `CapacitySchedulerPolicy`
/// GUARANTEED_NO_EVICT, `getRemainingBlocksToCompletion`); `in_use` = admitted on the KV it uses, the blocks of
/// its next step (TensorRT-LLM's MAX_UTILIZATION, which NVIDIA's MLPerf harness runs as `batch_scheduler_policy:
/// max_util`: mlcommons/inference_results_v5.1 @965182b closed/NVIDIA/code/llmlib/cores/trtllm_executor_core.py
/// maps 'max_util' to `trtllm.CapacitySchedulerPolicy.MAX_UTILIZATION`; vLLM and SGLang by default).
enum class kv_admission {
    engine_default,  ///< the engine's rule (`admits_on_kv_in_use`)
    reserve,         ///< a whole sequence I + O reserved at admission
    in_use,          ///< the KV in use: the mean context I + O/2 plus the last block's mean waste
};

/// The words of a `kv_admission` (the CLI's --kv-admission, Python's kv_admission=, tables/measurements.csv's column).
inline constexpr std::string_view kv_admission_words = "reserve or in_use";
/// The rule a word that names no `kv_admission` breaks.
inline constexpr std::string_view kv_admission_rule =
    "reserve or in_use (reserve: the whole sequence I + O at admission, TensorRT-LLM GUARANTEED_NO_EVICT; "
    "in_use: the KV in use, TensorRT-LLM MAX_UTILIZATION), or empty for the engine's rule";
[[nodiscard]] constexpr std::optional<kv_admission> kv_admission_named(std::string_view word) noexcept {
    if (word == "reserve") return kv_admission::reserve;
    if (word == "in_use") return kv_admission::in_use;
    return std::nullopt;
}
/// The word a `kv_admission` is written as ("" for the engine's default).
[[nodiscard]] constexpr std::string_view to_string(kv_admission a) noexcept {
    switch (a) {
        case kv_admission::reserve: return "reserve";
        case kv_admission::in_use: return "in_use";
        case kv_admission::engine_default: break;
    }
    return "";
}
/// `kv_admission_named`, refused naming the field, the word and the rule.
[[nodiscard]] constexpr kv_admission require_kv_admission(std::string_view subject, std::string_view field, std::string_view word) {
    const std::optional<kv_admission> a = kv_admission_named(word);
    require_word(a.has_value(), subject, field, word, kv_admission_rule, "llmcost.serving.kv_admission");
    return *a;
}

/// `l` with admission policy `a` where it states one (`reserve_full_sequence`: true for `reserve`, false for `in_use`,
/// which `held_kv_slots` prices as x̄ + (B − 1) ÷ 2 a sequence and `admissible_batch` caps by the step's token budget);
/// `engine_default` leaves `l` as the engine's rule set it. Apply it after `with_engine_defaults` / `with_engine_admission`.
[[nodiscard]] constexpr scheduler_limits with_kv_admission(scheduler_limits l, kv_admission a) noexcept {
    if (a != kv_admission::engine_default) l.reserve_full_sequence = a == kv_admission::reserve;
    return l;
}

/// `l` with the engine's scheduler defaults where it leaves a limit open (0): max sequences, max
/// batched tokens per step, and the engine's prefill chunk when its chunked prefill is on — what
/// `llmcost … --engine` and the Python module's `engine=` run when no limit is given. An engine
/// whose prompt steps run alone (`engine_scheduler::prefill_alone`, SGLang) runs them alone here too, and
/// an engine that admits on the KV in use (`admits_on_kv_in_use`: vLLM, SGLang) admits so here: its KV room
/// is counted at the context in use, not a whole-sequence reserve (docs/online-caps.md §1).
[[nodiscard]] constexpr scheduler_limits with_engine_defaults(scheduler_limits l, const engine_profile& e) {
    if (l.max_batch == 0) l.max_batch = e.scheduler.max_sequences;
    if (l.max_tokens_per_step == 0) l.max_tokens_per_step = e.scheduler.max_batched_tokens;
    if (l.prefill_chunk.value() == 0 && e.scheduler.chunked_prefill) l.prefill_chunk = e.scheduler.chunk;
    l.prefill_alone = l.prefill_alone || e.scheduler.prefill_alone;
    return with_engine_admission(l, e);
}

/// Whether engine `k`, its chunked prefill off, runs a prompt longer than its step's token cap whole as a step's
/// first prompt: SGLang does (PrefillAdder.add_one_req without rem_chunk_tokens: "if the can_run_list is empty,
/// always accept the first prefill request", python/sglang/srt/managers/schedule_policy.py, HaiShaw/sglang mirror
/// @0077f84d37a013213fb59700564e1637987a3f79). TensorRT-LLM refuses the request (LLM._check_arguments: "The sum
/// of prompt length ... should not exceed max_num_tokens", NVIDIA/TensorRT-LLM issue #9277; PR #9499 chunks it
/// by default instead); vLLM V0 refuses to start with max_num_batched_tokens below max_model_len
/// (SchedulerConfig._verify_args, vllm/config.py) and ignores a longer prompt; the reference engine follows
/// TensorRT-LLM.
[[nodiscard]] constexpr bool runs_long_prompt_whole(engine_kind k) noexcept { return k == engine_kind::sglang; }

/// The one rule for a prompt of I tokens under a step's token cap M (the closed form's `fitting_batch`, the
/// simulator's `check_request`, the disaggregated simulator's prefill pass): where the engine does not chunk
/// prompts, I ≤ M, unless it runs a longer prompt whole (`runs_long_prompt_whole`); M = 0: no cap.
[[nodiscard]] constexpr bool prompt_within_step_cap(tokens_t prompt, tokens_t cap, bool chunked, bool long_prompt_whole) noexcept {
    return chunked || long_prompt_whole || cap.value() == 0.0 || prompt.value() <= cap.value();
}

/// `prompt_within_step_cap`, refused naming the cap M, the prompt and the rule.
constexpr void require_prompt_within_step_cap(std::string_view subject, tokens_t prompt, tokens_t cap, bool chunked,
                                              bool long_prompt_whole) {
    if (prompt_within_step_cap(prompt, cap, chunked, long_prompt_whole)) return;
    std::string rule = "below the prompt's ";  // appended: GCC bug 105329
    rule += invalid_input::show(prompt.value());
    rule += " tokens: a prompt longer than a step's token cap needs an engine that chunks prompts (chunked prefill); "
            "without it the engine runs it in no step";
    throw invalid_input(subject, "max_tokens_per_step", cap.value(), rule, "llmcost.serving.prompt_within_step_cap");
}

/// A deployment serving b concurrent sequences per attention rank in steady state.
struct serving_point {
    double batch = 0;              ///< concurrent sequences per attention rank (or per pipeline)
    pass_cost step;                ///< the commoner of the two steps: b decodes + ⌊q⌋ or ⌈q⌉ prompt chunks
    seconds_t step_time;           ///< the engine's mean step, every prompt chunk included (sets the output rate)
    seconds_t residual;            ///< mean time left in the step in flight when a request arrives
    seconds_t prefill_time;        ///< the prompt alone, batch 1
    seconds_t ttft;                ///< the steps that carry my prompt, with b − 1 neighbours decoding
    seconds_t tpot;                ///< mean time per output token: my decode steps, with the b − 1 others' prompts
    seconds_t e2e;                 ///< ttft + (O − 1) · tpot
    tokens_per_second_t output_rate;          ///< whole deployment
    tokens_per_second_t output_rate_per_gpu;
    tokens_per_second_t per_user;             ///< 1 ÷ tpot
    std::string_view limited_by;   ///< what set the batch: "KV capacity", "max batch", "max tokens per step", "given"
    /// The engine's per-request front end F inside `ttft` and `e2e` (`client_first_token`): the
    /// time the client waits outside the engine's steps; the batch and the rates do not hold it.
    seconds_t front_end{};
};

namespace detail {
/// Sequences per pipeline micro-batch: with pp stages, pp micro-batches are in flight at once.
[[nodiscard]] constexpr double micro_batch(const deployment& d, double batch) {
    return batch / static_cast<double>(d.layout.pp);
}
}  // namespace detail

namespace detail {
/// e2e = TTFT + (O − 1) · TPOT: the first token, then the other O − 1 (typed, or a lane).
template <class T>
[[nodiscard]] constexpr T end_to_end(const T& ttft, const T& tpot, double output) {
    return ttft + tpot * (output - 1.0);
}
}  // namespace detail

/// A client's time to first token: the engine's time to it plus the engine's per-request front
/// end, TTFT = t_engine + F, F = `engine_overheads::request` (HTTP, tokenisation, the API-server →
/// engine hand-off, detokenisation: the client's wait outside the GPU's steps). The one formula
/// by which a TTFT gains F: `serve_at_batch` and the sweeps (`detail::colocated_point`),
/// `serve_online` and its percentiles, and the simulator's requests. `t_engine` is a time, or
/// seconds as a number or a lane.
template <class T>
[[nodiscard]] constexpr T client_first_token(const T& engine_time, const seconds_t& front_end) {
    if constexpr (std::is_same_v<T, seconds_t>) return engine_time + front_end;
    else return T(engine_time + front_end.value());
}

/// The context a steady batch of such requests decodes at on average: x̄ = E[I] + E[O²] ÷ 2E[O],
/// = I + O/2 when every request is alike (seed S15). A sequence is in the batch for its O steps,
/// so the live batch holds answers in proportion to their length, each at a uniform point of it
/// (length bias, renewal theory's inspection paradox: Kleinrock, *Queueing Systems* I, 1975, §5.2).
[[nodiscard]] constexpr tokens_t mean_decode_context(const request_shape& r) {
    return r.input + r.length_biased_output() / 2.0;
}

/// A request's prompt in the library's chunks: `split_prompt` of the tokens computed, each chunk
/// after the cached prefix.
[[nodiscard]] constexpr prompt_chunks split_prompt(const request_shape& r, const tokens_t& chunk) {
    prompt_chunks c = split_prompt(r.computed(), chunk);
    c.prefix = c.prefix + r.cached();
    return c;
}

namespace detail {
/// The sequence terms of a steady state's steps: decodes at x̄ (`mean_decode_context`), prompts in
/// chunks. With prompts of varying length (whole prompts only: `require_spread_whole_prompts`),
/// a prompt's attention pairs and KV are E[f(I)] over the prompts, f quadratic in I: any law with
/// the prompts' E[I] and E[I²] gives the same expectation of a quadratic, so the two-point law
/// {0 with 1 − p, x = E[I²] ÷ E[I] with p = E[I]² ÷ E[I²]} prices it exactly (f(0) = 0), and
/// approximately where a sliding window caps the growth. Its tokens are linear: E[I].
[[nodiscard]] constexpr sequence_terms<double> serving_sequence_terms(const pass_model& pm, const request_shape& r,
                                                                      const prompt_chunks& c) {
    const model& m = pm.d.m;
    sequence_terms<double> s = sequence_terms_of(pm, {.decode_context = mean_decode_context(r), .prefill_tokens = c.tokens,
                                                     .prefill_prefix = c.prefix});
    if (r.input_spread.value() > 0.0) {
        const double m2 = r.input_second_moment();
        const double p = r.input.value() * r.input.value() / m2;
        const request_shape at{.input = tokens(m2 / r.input.value()), .output = r.output, .cached_fraction = r.cached_fraction};
        s.pairs_prefill = p * attention_pairs(m, pm.layer_kinds, at.cached().value(), at.computed().value());
        s.kv_prefill = p * kv_bytes_for_context(m, pm.layer_kinds, pm.kv_per_token_layer, at.input).value();
    }
    return s;
}

/// Lengths that vary are priced for whole prompts: a prompt's chunk count ⌈I ÷ C⌉ varies with it,
/// which the closed forms do not follow (the simulator does).
constexpr void require_spread_whole_prompts(const request_shape& r, const scheduler_limits& l) {
    require(!(r.input_spread.value() > 0.0 && l.prefill_chunk.value() > 0.0), "request", "input_spread (tokens)",
            r.input_spread.value(),
            "prompts of varying length are priced whole: drop the prefill chunk, or run simulate for chunked prefill",
            "llmcost.serving.spread_whole_prompts");
}

/// Steps that carry p prompt chunks on average beside `decodes` sequences decoding. Chunks come
/// whole: a share f = p − ⌊p⌋ of the steps carries ⌈p⌉ of them, the rest ⌊p⌋ (one value, or a lane).
template <class V>
struct step_mixture {
    step_terms<V> fewer, more;  ///< the steps with ⌊p⌋ and ⌈p⌉ chunks (`more` is priced only if some f > 0)
    V chunks;                   ///< ⌊p⌋
    V share;                    ///< f: the share of steps with ⌈p⌉
    /// π = min(p, 1): the probability that the step before one of these carries a prompt (`eager_prompt_wait`)
    V prompt_before;
    /// (1 − f)·t(⌊p⌋) + f·t(⌈p⌉)
    [[nodiscard]] constexpr V mean() const {
        const V t0 = fewer.time();
        if (!lanes<V>::any(share > 0.0)) return t0;
        return lanes<V>::choose(share > 0.0, V(t0 * (1.0 - share) + more.time() * share), t0);
    }
};
/// The spread of the token counts of a steady state's steps that carry p prompt chunks of I tokens on average, as
/// the width of a uniform window of the same variance, w = √12 · σ (docs/expected-padding.md). Under Poisson arrivals
/// the prompts a step carries are Poisson(p) (`queueing::decode_loop_of`, the library's own online loop), Var = p·I²;
/// the ⌊p⌋ / ⌈p⌉ mixture (`mix_steps`) already holds f·(1 − f)·I² of it (f = p − ⌊p⌋), so each of its steps gets
/// the rest, σ² = (p − f·(1 − f))·I² = (⌊p⌋ + f²)·I², and the mixture's variance is the Poisson's. Continuous in p
/// (f → 1: ⌊p⌋ + f² → ⌊p⌋ + 1); σ = p·I below one prompt a step, so a decode-heavy step spreads little. The prompts'
/// own length spread (`request_shape::input_spread`) is left out: the terms carry only E[I].
template <class V>
[[nodiscard]] constexpr V prompt_spread_window(const V& p, const V& prompt_tokens) {
    const V whole = lanes<V>::floor(p);
    const V f = p - whole;
    const V variance = (whole + f * f) * prompt_tokens * prompt_tokens;
    return lanes<V>::map(variance, [](double x) { return const_sqrt(12.0 * x); });
}

/// `window`: the spread its steps' token counts are priced over (`prompt_spread_window`; 0: each step's exact rows).
template <class V>
[[nodiscard]] constexpr step_mixture<V> mix_steps(const pass_model& pm, const sequence_terms<V>& s, const V& decodes,
                                                  const V& p, const V& window = lanes<V>::constant(0.0)) {
    const V fewer = lanes<V>::floor(p);
    const V steady = lanes<V>::constant(-1.0);  // `step_formula`'s default `previous`
    // π = min(p, 1): the share of the mixture's steps that carry a prompt, ⌊p⌋ ≥ 1 or f
    const V before = lanes<V>::choose(p > 1.0, lanes<V>::constant(1.0), p);
    // `more` starts unpriced ({} leaves an Eigen array as it is, and zeroes a double).
    step_mixture<V> m{.fewer = step_formula(pm, s, decodes, fewer, steady, window, before), .more = {}, .chunks = fewer,
                      .share = p - fewer, .prompt_before = before};
    if (lanes<V>::any(m.share > 0.0)) m.more = step_formula(pm, s, decodes, V(fewer + 1.0), steady, window, before);
    else if constexpr (std::is_arithmetic_v<V>) m.more = m.fewer;  // a whole step, copied (a constant expression reads it)
    return m;
}

/// t(k) in the lanes that `need` it, `otherwise` in the others. A lane of steps is priced whole
/// when many lanes need it, and lane by lane (the scalar formula, so the same bits) when only a
/// few do: a block of batches straddles a chunk boundary in one or two lanes, and pricing the
/// other thirty for nothing would cost a sweep a fifth of its time.
template <class V, class C>
[[nodiscard]] constexpr V step_time_where(const pass_model& pm, const sequence_terms<V>& s, const V& decodes,
                                          const V& k, const C& need, const V& otherwise, const V& window,
                                          const V& prompt_before) {
    using L = lanes<V>;
    constexpr int few = 4;  // below this many lanes, one by one is cheaper (the sweep benchmark)
    const typename L::mask where = need;  // evaluated once
    const int m = L::count(where);
    if (m == 0) return otherwise;
    if (m > few)
        return L::choose(where, step_formula(pm, s, decodes, k, L::constant(-1.0), window, prompt_before).time(), otherwise);
    V r = otherwise;
    for (int i = 0; i < L::width; ++i)
        if (L::test(where, i))
            L::set(r, i, step_formula(pm, lane_of(s, i), L::get(decodes, i), L::get(k, i), -1.0, L::get(window, i),
                                      L::get(prompt_before, i)).time());
    return r;
}

/// The mean step at p chunks, p no more than the chunks of a mixture `known` of the same steps
/// (same decodes, same sequences): (1 − g)·t(⌊p⌋) + g·t(⌊p⌋ + 1), g = p − ⌊p⌋, reusing the steps
/// `known` has priced (⌊p⌋ is most often its ⌊p'⌋ or one below) and pricing only the others; at `known`'s
/// `window` (the spread of the same steps) and its π (the engine's steps before them: `eager_prompt_wait`).
template <class V>
[[nodiscard]] constexpr V mean_step_below(const pass_model& pm, const sequence_terms<V>& s, const V& decodes,
                                          const step_mixture<V>& known, const V& p, const V& window) {
    using L = lanes<V>;
    const V n = L::floor(p);
    const V g = p - n;
    const V up = n + 1.0;
    const V t0 = known.fewer.time();                                 // t(N), N = known.chunks
    const V t1 = L::any(known.share > 0.0) ? known.more.time() : t0;  // t(N + 1) where known's f > 0
    const V lo = step_time_where(pm, s, decodes, n, n != known.chunks, t0, window, known.prompt_before);
    if (!L::any(g > 0.0)) return lo;
    // t(n + 1): known's t(N + 1) where n = N (then p > N, so known's f > 0), its t(N) where n + 1 = N.
    const V hi = step_time_where(pm, s, decodes, up, g > 0.0 && n != known.chunks && up != known.chunks,
                                 L::choose(n == known.chunks, t1, t0), window, known.prompt_before);
    return L::choose(g > 0.0, V(lo * (1.0 - g) + hi * g), lo);
}

/// A steady state at `batch` sequences per attention rank (seed S4, S5), for one value or a lane:
/// the engine's mixture of steps that each decode b ÷ pp tokens and carry q = (b ÷ pp) · k ÷ O
/// prompt chunks (its mean t̄ sets the output rate per GPU, b · dp ÷ t̄ ÷ GPUs); the first token
/// (k steps, each one chunk of my prompt beside b ÷ pp − 1 decodes); and the time per output
/// token, the mean of the steps my decode shares with the others' prompts only,
/// q′ = (b ÷ pp − 1) · k ÷ O chunks: my own prompt is in my TTFT, not again in my TPOT.
/// A closed loop's wait for an overlap loop's lag (`engine_scheduler::overlap_schedule_steps` L, the simulator's
/// `scheduler_limits::overlap_lag_steps`): the next prompt is launched behind the L steps already in flight, each the
/// others' decode step t_d(b − 1): t_w = L · t_d · min(b − 1, 1), none where no other answer runs (an engine that
/// runs nothing takes it at once), the share in between where fewer than one other runs on average.
template <class V>
[[nodiscard]] constexpr V overlap_lag_wait(double lag_steps, const V& decode_step, const V& others) {
    const V running = others / lane_max(others, lanes<V>::constant(1.0));  // min(b − 1, 1)
    return V(lag_steps * decode_step * running);
}
/// An open arrival's extra steps under an overlap loop of L steps (`engine_scheduler::overlap_schedule_steps`): each
/// turn receives, launches step s + 1 and then waits for step s, so a request that arrives while step k runs is received
/// at its end and enters step k + 2, not k + 1: L − 1 steps more than a plain loop (0 without the overlap). The closed
/// loop's L is the same rule with the prompt sent just after step j + 1 was launched (docs/sglang-closed-loop-ttft.md §6).
[[nodiscard]] constexpr double open_arrival_lag_steps(double lag_steps) noexcept { return max(0.0, lag_steps - 1.0); }
/// An open arrival's wait for the overlap lag: t_w = (L − 1)⁺ · t̄ (docs/sglang-closed-loop-ttft.md §6), the
/// `open_arrival_lag_steps` whole steps after the one in flight that it waits behind. The step is the run's mean step t̄
/// (the decode loop's root where `serve_online_latency` has one, else its steady point's), one for every path: the
/// step in flight is already in the residual (length-biased), the L − 1 after it are ordinary steps of the run.
[[nodiscard]] constexpr seconds_t open_arrival_lag_wait(double lag_steps, seconds_t step) noexcept {
    return step * open_arrival_lag_steps(lag_steps);
}
/// A run's overlap lag L: the caller's `scheduler_limits::overlap_lag_steps` where given, else its engine's
/// `engine_scheduler::overlap_schedule_steps` (docs/sglang-closed-loop-ttft.md §6): the one place both are resolved.
[[nodiscard]] constexpr double overlap_lag_of(const scheduler_limits& l, const engine_profile& e) noexcept {
    return l.overlap_lag_steps.value_or(e.scheduler.overlap_schedule_steps);
}
template <class V>
struct colocated_lanes {
    step_mixture<V> steps;
    V step_time, tpot, ttft, output_rate_per_gpu;
};
template <class V>
[[nodiscard]] constexpr colocated_lanes<V> colocated_point(const pass_model& pm, const sequence_terms<V>& s,
                                                           const V& batch, const V& output, const V& chunks,
                                                           double lag_steps) {
    using L = lanes<V>;
    const deployment& d = pm.d;
    const V b = batch / static_cast<double>(d.layout.pp);  // micro_batch
    const V others = lane_max(L::constant(0.0), V(b - 1.0));
    colocated_lanes<V> c;  // every field is set below
    // The steps' token counts spread with the Poisson prompts they carry (`prompt_spread_window`): the engine's
    // steps, the same for the mixture and for the steps my decodes share with the others' prompts (TPOT).
    const V q = b / output * chunks;
    // Only a padding FP8 kernel reads the window (`matmul_at_rows`); elsewhere it stays 0 and its √ is not taken.
    const V window = pm.dense_fp8_tile_rows > 0.0 ? prompt_spread_window(q, s.prefill_tokens) : L::constant(0.0);
    c.steps = mix_steps(pm, s, b, q, window);
    c.step_time = c.steps.mean();
    c.tpot = mean_step_below(pm, s, b, c.steps, V(others / output * chunks), window);
    // My prompt's k steps each carry one whole chunk beside b − 1 decodes: t(b − 1, 1), no mixture, and no other
    // prompt, so no spread: exact rows (at b = 1 the single-prompt step). An eager launch hides under no step
    // before (t_free = 0: t = max(t_GPU, H), `eager_prompt_wait`): the overlap scheduler would launch it under the
    // step in flight, but this TTFT does not wait for that step, so it cannot also hide the launch behind it.
    const V first_token_step = step_formula(pm, s, others, L::constant(1.0), L::constant(0.0)).time();
    V lag_wait = L::constant(0.0);
    if (lag_steps > 0.0)  // the run's L (`overlap_lag_of`)
        lag_wait = overlap_lag_wait(lag_steps, step_formula(pm, s, others, L::constant(0.0), L::constant(0.0)).time(), others);
    c.ttft = client_first_token(V(lag_wait + first_token_step * chunks), d.engine.overheads.request);
    c.output_rate_per_gpu = batch * static_cast<double>(d.layout.dp) / c.step_time / static_cast<double>(d.layout.gpus());
    return c;
}
}  // namespace detail

/// Steady state at `batch` concurrent sequences per attention rank (seed S4, S5): each step
/// decodes b tokens at context I + O/2 and carries q = b·k ÷ O prompt chunks on average. Chunks
/// come whole, so a share f = q − ⌊q⌋ of the steps carries ⌈q⌉ of them and the rest ⌊q⌋: the
/// mean step is the mixture t̄ = (1 − f)·t(⌊q⌋) + f·t(⌈q⌉), not t(q). That matters: a step with a
/// prompt is compute-bound while the others stream weights, and a fraction of a prompt spread over
/// every step would hide its work under the weight stream. A request arriving at a random moment
/// lands in a long step more often: it waits E[t²] ÷ 2t̄ for the step in flight (renewal theory's
/// inspection paradox). TTFT = k steps that each carry one chunk of my prompt beside b − 1
/// decodes. TPOT = the mean of my decode steps, which carry the prompts of the b − 1 others only,
/// q′ = (b − 1)·k ÷ O (my own prompt is in my TTFT: at batch 1, TPOT is the decode step). Output
/// rate = b ÷ t̄ × dp (independent replicas, or attention-DP ranks of one EP
/// group); per GPU ÷ tp·pp·dp. (`detail::colocated_point` is the formula, for sweeps as well.) A padding FP8
/// kernel's rows (vLLM on Hopper) in the mixture's and TPOT's steps: the staircase's mean over the spread of their
/// token counts, the Poisson prompts they carry (`detail::prompt_spread_window`); the first-token step (my prompt
/// beside b − 1 decodes, no other prompt) and the prefill of one prompt alone: exact rows (docs/expected-padding.md).
[[nodiscard]] constexpr serving_point serve_at_batch(const pass_model& pm, const request_shape& r, double batch,
                                                     const scheduler_limits& l = {}) {
    const deployment& d = pm.d;
    r.validate();
    l.validate();
    detail::require_spread_whole_prompts(r, l);
    require(batch >= 1.0 && non_negative_finite(batch), d.m.name, "batch", batch,
            "at least one sequence must be running", "llmcost.serving.batch_at_least_one");
    const double out = r.output.value();
    const prompt_chunks chunks = split_prompt(r, l.prefill_chunk);
    const detail::colocated_lanes<double> p =
        detail::colocated_point(pm, detail::serving_sequence_terms(pm, r, chunks), batch, out, chunks.count,
                                detail::overlap_lag_of(l, d.engine));
    serving_point s{};
    s.batch = batch;
    s.limited_by = "given";
    const double f = p.steps.share;
    s.step = detail::to_pass_cost(pm, f > 0.5 ? p.steps.more : p.steps.fewer);  // more is priced where f > 0
    s.step_time = seconds(p.step_time);
    if (f > 0.0) {
        const double t0 = p.steps.fewer.time(), t1 = p.steps.more.time();
        s.residual = seconds((t0 * t0 * (1.0 - f) + t1 * t1 * f) / (2.0 * p.step_time));
    } else {
        s.residual = s.step_time / 2.0;
    }
    s.prefill_time = prefill_pass(pm, 1.0, r.computed(), r.cached()).time();
    s.ttft = seconds(p.ttft);  // client_first_token: the engine's front end included
    s.front_end = d.engine.overheads.request;
    s.tpot = seconds(p.tpot);
    s.e2e = detail::end_to_end(s.ttft, s.tpot, out);
    s.output_rate = tokens(batch * d.layout.dp) / s.step_time;
    s.output_rate_per_gpu = tokens_per_second_t::from_value(p.output_rate_per_gpu);
    s.per_user = tokens(1.0) / s.tpot;
    return s;
}
[[nodiscard]] constexpr serving_point serve_at_batch(const deployment& d, const request_shape& r, double batch,
                                                     const scheduler_limits& l = {}) {
    return serve_at_batch(prepare_pass(d), r, batch, l);
}

/// The largest batch the engine admits for requests of this shape, and what limits it:
/// KV capacity ÷ KV per sequence (I + O tokens, or I + O/2), the batch cap, and the token cap
/// b · (1 + I/O) ≤ max tokens (decodes plus the prefill they bring). A batch of 0 says that not
/// even one sequence fits: `limited_by` is then "weights do not fit" or "KV capacity".
struct batch_limit {
    double batch = 0;
    std::string_view limited_by;
};

/// The context each admitted sequence reserves KV for: its whole length I + O when the engine
/// reserves full sequences, else its mean over the answer, I + O/2.
/// With lengths that vary, each over the live (length-biased) batch: E[I] + E[O²] ÷ E[O], or
/// `mean_decode_context`.
[[nodiscard]] constexpr tokens_t held_context(const request_shape& r, const scheduler_limits& l) noexcept {
    return l.reserve_full_sequence ? r.input + r.length_biased_output() : mean_decode_context(r);
}

/// The KV slots each admitted sequence holds in the engine's paged cache of B-token blocks (`kv_block_size`):
/// a whole-sequence reserve in whole blocks, ⌈(I + O) ÷ B⌉ · B (`kv_block_slots`: TensorRT-LLM's
/// GUARANTEED_NO_EVICT reserves the blocks of its whole sequence); on the KV in use, the mean context
/// plus the last block's mean waste, x̄ + (B − 1) ÷ 2 (`kv_expected_block_slots`: the answer runs through its
/// last block). With lengths that vary, the whole reserve rounds the length-biased mean up to whole blocks
/// (not the mean of each length's blocks). B = 1: `held_context` itself.
[[nodiscard]] constexpr tokens_t held_kv_slots(const deployment& d, const request_shape& r, const scheduler_limits& l) noexcept {
    return l.reserve_full_sequence ? kv_block_slots(held_context(r, l), kv_block_size(d))
                                   : kv_expected_block_slots(held_context(r, l), kv_block_size(d));
}

/// The admissible batch, without exceptions: for a valid deployment, request and limits (the
/// pricing paths check them first; sweeps and plans ask `problem(d)`), the batch and what limits
/// it, 0 when nothing fits.
[[nodiscard]] constexpr batch_limit admissible_batch(const deployment& d, const request_shape& r,
                                                     const scheduler_limits& l = {}) noexcept {
    const double in = r.computed().value(), out = r.output.value();  // prompt tokens a step carries
    const bytes_t budget = kv_budget_per_gpu(d, l.pool_reserve());
    if (!(budget.value() > 0.0)) return {.batch = 0.0, .limited_by = "weights do not fit"};
    const double per_sequence = kv_bytes_per_gpu_for_context(d, held_kv_slots(d, r, l)).value();
    batch_limit b{.batch = detail::const_trunc(budget.value() / per_sequence), .limited_by = "KV capacity"};
    if (!(b.batch >= 1.0)) return {.batch = 0.0, .limited_by = "KV capacity"};
    if (l.max_batch > 0 && l.max_batch < b.batch) b = {.batch = l.max_batch, .limited_by = "max batch"};
    if (l.max_tokens_per_step > 0) {
        const double cap = detail::const_ceil(l.max_tokens_per_step / (1.0 + in / out) - 0.5);
        if (cap < b.batch) b = {.batch = detail::max(1.0, cap), .limited_by = "max tokens per step"};
    }
    return b;
}

namespace detail {
/// `admissible_batch` for a valid deployment, after checking the request and the limits, refusing
/// a shape of which not even one sequence fits (naming what does not fit).
[[nodiscard]] constexpr batch_limit fitting_batch(const deployment& d, const request_shape& r, const scheduler_limits& l) {
    r.validate();
    l.validate();
    require_prompt_within_step_cap(d.m.name, r.input, tokens(l.max_tokens_per_step), l.prefill_chunk.value() > 0.0,
                                   runs_long_prompt_whole(d.engine.kind));
    require_weights_fit(d, l.pool_reserve());
    const batch_limit b = admissible_batch(d, r, l);
    if (!(b.batch >= 1.0)) {  // what sized the pool named: the engine's rule and its KV memory fraction, or the user's reserve
        std::string rule = "does not fit: one sequence needs more KV than the HBM left after the weights (";  // appended: GCC bug 105329
        rule += kv_pool_text(d, l.pool_reserve());
        rule += ")";
        throw invalid_input(d.m.name, "KV per sequence (B)", kv_bytes_per_gpu_for_context(d, held_kv_slots(d, r, l)).value(),
                            rule, "llmcost.fit.kv_sequence");
    }
    return b;
}
}  // namespace detail

/// `admissible_batch`, after checking the deployment, the request and the limits, and refusing a
/// shape of which not even one sequence fits (naming what does not fit).
[[nodiscard]] constexpr batch_limit max_batch(const deployment& d, const request_shape& r, const scheduler_limits& l = {}) {
    d.validate();
    return detail::fitting_batch(d, r, l);
}

/// Saturated throughput: the largest admissible batch, in steady state.
[[nodiscard]] constexpr serving_point saturated(const pass_model& pm, const request_shape& r,
                                                const scheduler_limits& l = {}) {
    const batch_limit b = detail::fitting_batch(pm.d, r, l);
    serving_point s = serve_at_batch(pm, r, b.batch, l);
    s.limited_by = b.limited_by;
    return s;
}
[[nodiscard]] constexpr serving_point saturated(const deployment& d, const request_shape& r, const scheduler_limits& l = {}) {
    return saturated(prepare_pass(d), r, l);
}

/// A finite run of N equal requests, all queued at t = 0 (trtllm-bench, MLPerf Offline): they run
/// in waves of the largest batch, and the last wave may be partly empty. Output rate =
/// N · O ÷ Σ waves' O · step time.
[[nodiscard]] constexpr serving_point saturated_run(const deployment& d, const request_shape& r, double requests,
                                                    const scheduler_limits& l = {}) {
    require(requests >= 1.0 && non_negative_finite(requests), d.m.name, "requests", requests,
            "a run has at least one request");
    const pass_model pm = prepare_pass(d);
    serving_point s = saturated(pm, r, l);
    const double per_wave = s.batch * d.layout.dp;
    const double full = detail::const_trunc(requests / per_wave);
    const double rest = requests - full * per_wave;
    seconds_t total = s.step_time * (full * r.output.value());
    if (rest > 0.0) total = total + serve_at_batch(pm, r, detail::max(1.0, rest / d.layout.dp), l).step_time * r.output.value();
    s.output_rate = tokens(requests * r.output.value()) / total;
    s.output_rate_per_gpu = s.output_rate / static_cast<double>(d.layout.gpus());
    return s;
}

/// λ·O < B ÷ t̄(B): arrivals one every `interarrival` at an attention rank, O tokens each, below what the
/// engine emits at its running-batch cap (docs/online-caps.md). `at_cap` is the steady state at the cap,
/// `saturated` under the same limits: B the admissible batch (`admissible_batch`: the scheduler's max
/// batch, the KV room, or the token cap, whichever binds first), t̄(B) its mean step (B decodes and the
/// B ÷ O prompts that replace the answers ending). The engine runs no more than B sequences, so B tokens
/// a step of t̄(B) is the most it emits; arrivals that bring more make the admission queue grow without
/// bound (a queue is stable iff its load is below its capacity: Loynes, Proc. Camb. Phil. Soc. 58, 1962).
/// Cross-multiplied, λ·O < `online_token_cap(at_cap)`, with no division.
template <duration T>
[[nodiscard]] constexpr bool within_online_cap(const serving_point& at_cap, const T& interarrival, const tokens_t& output) {
    return output.value() * at_cap.step_time.value() < at_cap.batch * in_base_units(interarrival).value();
}

/// B ÷ t̄(B): the most the engine emits per attention rank at its running-batch cap (tokens/s), the flow
/// `within_online_cap` compares λ·O with (docs/online-caps.md).
[[nodiscard]] constexpr tokens_per_second_t online_token_cap(const serving_point& at_cap) {
    return tokens(at_cap.batch) / at_cap.step_time;
}

/// λ* = B ÷ t̄(B) ÷ O (`online_token_cap` ÷ O): the arrival rate per attention rank at which `within_online_cap` stops
/// holding, the most the deployment sustains online (requests/s; × dp for the whole deployment).
[[nodiscard]] constexpr per_second_t online_rate_cap(const serving_point& at_cap, const tokens_t& output) {
    return online_token_cap(at_cap) / output;
}

namespace detail {
/// `serve_online_latency`'s refusal of a rate at or above its cap's flow (`within_online_cap`), built out of line.
[[noreturn]] inline void fail_online_cap(const deployment& d, const seconds_t& interarrival, const tokens_t& output,
                                         const serving_point& at_cap) {
    const double lambda = 1.0 / interarrival.value(), t = at_cap.step_time.value();
    std::string rule = "arrivals outpace the running-batch cap: λ·O = ";  // appended piece by piece: GCC bug 105329
    rule += text::plain(lambda * output.value(), 4);
    rule += " tokens/s per attention rank (";
    rule += text::plain(lambda, 4);
    rule += " requests/s × ";
    rule += text::plain(output.value(), 4);
    rule += " tokens) is not below B ÷ t̄(B) = ";
    rule += text::plain(online_token_cap(at_cap).value(), 4);
    rule += " tokens/s, the most the engine emits at its cap of B = ";
    rule += text::plain(at_cap.batch, 6);
    rule += " sequences (";
    rule += at_cap.limited_by;
    rule += ") in steps of t̄(B) = ";
    rule += text::plain(t * 1e3, 4);
    rule += " ms; an online rate needs λ·O < B ÷ t̄(B), else the queue for admission grows without bound";
    throw invalid_input(d.m.name, "interarrival (s)", interarrival.value(), rule, "llmcost.serving.online_cap");
}
}  // namespace detail

/// Online serving at Poisson arrivals, with the distribution of the latencies: the mean figures
/// (`point`), the engine's steps as a bulk-service queue (`steps`, queueing.hpp) whose quantiles
/// `ttft_percentile` reads, and a request's decode episode with both of its feedback channels, the
/// prompts a step carries and the decoding count (`decoding`, `queueing::decode_loop`), whose
/// quantiles `tpot_percentile` reads.
struct online_latency {
    serving_point point;
    queueing::bulk_service steps;
    queueing::decode_loop decoding;
    double output = 0;           ///< O, tokens each request generates
    bool whole_prompts = false;  ///< the percentiles' model holds: whole prompts, no token cap
    /// The mean figures are at the decode loop's root (`decoding.step` > 0); false: at the first crossing
    /// of Little's law on the raw step curve, where the loop has no root or there is none (one output
    /// token, chunked prompts, a token cap).
    bool rooted = false;
    /// The mean wait for a slot, W = E[(D − B)⁺] ÷ λ: the decoding count's law past the running-batch cap B
    /// waits for admission (docs/online-caps.md §2); Little's law averages it over every arrival, so it takes
    /// no (1 − ι) share. Inside `point.ttft`, and added to `ttft_percentile`'s quantiles. 0 where the law stays
    /// below B, and where the loop has no root (one output token, chunked prompts, a token cap: not priced there).
    seconds_t admission{};
    /// The mean wait for an overlap loop's lag over all arrivals, (1 − ι)·(L − 1)⁺·t̄ (`detail::open_arrival_lag_wait`:
    /// an arrival that finds the engine empty waits none). Inside `point.ttft`, and added to `ttft_percentile`'s
    /// quantiles (a shift by the mean, as `admission`). 0 without an overlap loop (L ≤ 1).
    seconds_t open_lag{};
};

namespace detail {
/// TTFT = R + k · t̄(b − 1 decodes, 1 + λ·R chunks): the wait for the step in flight, then my
/// prompt's k chunk steps, each also carrying the λ·R prompts that arrived during the wait (a
/// mixture of ⌊1 + λR⌋ and ⌈1 + λR⌉ chunks). `serve_online_latency`'s TTFT for chunked prompts or a
/// token cap; before issue 16 it was its TTFT for whole prompts too (tables/validation.md compares).
template <duration T>
[[nodiscard]] constexpr seconds_t step_in_flight_first_token(const pass_model& pm, const request_shape& r,
                                                             const serving_point& s, const T& interarrival,
                                                             const scheduler_limits& l = {}) {
    const double gap = in_base_units(interarrival).value();
    const prompt_chunks chunks = split_prompt(r, l.prefill_chunk);
    const double neighbours = max(0.0, micro_batch(pm.d, s.batch) - 1.0);
    const double prompts = 1.0 + s.residual.value() / gap;
    const sequence_terms<double> terms = serving_sequence_terms(pm, r, chunks);
    // The λ·R others are Poisson, mine is not: the spread of theirs (`prompt_spread_window`).
    const double window = pm.dense_fp8_tile_rows > 0.0 ? prompt_spread_window(prompts - 1.0, terms.prefill_tokens) : 0.0;
    return s.residual + seconds(mix_steps(pm, terms, neighbours, prompts, window).mean()) * chunks.count;
}
}  // namespace detail

/// Online serving with one request every `interarrival` seconds on average (λ = 1 ÷ interarrival per
/// replica or attention rank). First the first crossing of Little's law on the raw step curve,
/// b = λ · (wait + e2e(b)) by fixed-point iteration (each pass `serve_at_batch`); it refuses a rate
/// with no crossing. Then, with whole prompts and no token cap, the operating point is the decode
/// loop's root (`queueing::decode_loop_of`): t̄ = E[t(D, k)] over the k ~ Poisson(λ·t̄) prompts a
/// step carries and the D ≈ N·λ·t̄ sequences decoding (N = O − 1); the engine is the bulk-service
/// queue at D̄ = N·λ·t̄ (each step prefills every prompt that arrived during the step before), TTFT
/// its `first_token_mean`, TPOT its `decode_weighted_step`, and b = λ·(TTFT_engine + N·TPOT) (the
/// first crossing's figures stay only where the loop has no root). With chunked prompts or a token
/// cap, a new request waits for the step in flight (`residual`, R) and the λ·R prompts that arrive
/// meanwhile ride with mine: my prompt's steps carry 1 + λ·R chunks beside the b − 1 others
/// decoding. Either way an arrival that finds the engine empty (ι = e^(−n), n the requests it holds:
/// `queueing::empty_engine`) waits for no step: TTFT = ι·t(my prompt alone) + (1 − ι)·TTFT_busy; and
/// the output rate is what arrives, λ·O·dp. The engine's running-batch cap B (`admissible_batch` under
/// `l`: max batch, KV capacity, token cap) bounds both: a rate with λ·O ≥ B ÷ t̄(B) is refused
/// (`within_online_cap`), and below it a decoding count above B is priced as B running, the rest waiting
/// for a slot, W = E[(D − B)⁺] ÷ λ in TTFT (docs/online-caps.md).
template <duration T>
[[nodiscard]] constexpr online_latency serve_online_latency(const deployment& d, const request_shape& r,
                                                            const T& interarrival, const scheduler_limits& l = {}) {
    const double gap = in_base_units(interarrival).value();
    require(positive_finite(gap), d.m.name, "interarrival (s)", gap, "must be positive and finite");
    const pass_model pm = prepare_pass(d);
    // The steady points below are open arrivals': no closed loop's lag L inside them (their own L − 1 steps are
    // added once, below); `l` itself keeps the run's L for that.
    scheduler_limits open = l;
    open.overlap_lag_steps = 0.0;
    double b = 1.0;
    serving_point s = serve_at_batch(pm, r, b, open);
    for (int i = 0; i < 200; ++i) {
        // The engine holds a request from its arrival there to its last token: not the front end.
        const double next = detail::max(1.0, (s.residual + s.e2e - s.front_end).value() / gap);
        require(next < 1e7, d.m.name, "interarrival (s)", gap,
                "arrivals outpace the deployment: the queue grows without bound");
        if (detail::max(next - b, b - next) <= 1e-9 * next) break;
        b = next;
        s = serve_at_batch(pm, r, b, open);
    }
    // The running-batch cap B (`admissible_batch`) and the flow it allows: a rate at or above it is refused
    const serving_point at_cap = saturated(pm, r, l);
    if (!within_online_cap(at_cap, seconds(gap), r.output)) detail::fail_online_cap(d, seconds(gap), r.output, at_cap);
    const double cap = at_cap.batch;
    const prompt_chunks chunks = split_prompt(r, l.prefill_chunk);
    const detail::sequence_terms<double> terms = detail::serving_sequence_terms(pm, r, chunks);
    online_latency o{};
    o.output = r.output.value();
    o.whole_prompts = l.prefill_chunk.value() == 0.0 && l.max_tokens_per_step == 0.0;
    // t(k) beside min(D, B) sequences decoding, per micro-batch: the engine runs no more than its cap B; a
    // count of the law's above B is B running and D − B waiting for a slot (`admission` below)
    // Exact rows in each t(D, k): the loop averages over the Poisson k and D's law itself (docs/expected-padding.md).
    const auto step_at = [&](double decoding) {
        return [&pm, &terms, m = detail::micro_batch(d, detail::min(decoding, cap))](double k) {
            return seconds(detail::step_formula(pm, terms, m, k).time());
        };
    };
    // Whole prompts: the operating point is the decode loop's root t̄ (the step averaged over the
    // prompts a step carries and the decoding count's law, `queueing::decode_loop_of`), at any loop
    // gain, not the first crossing of the raw step curve above, which stays only where the loop has
    // no root (docs/online-smoothed-root.md).
    if (o.whole_prompts && o.output > 1.0)
        o.decoding = queueing::decode_loop_of([&](double n, double k) { return step_at(n)(k); }, seconds(gap), o.output - 1.0);
    const bool rooted = o.decoding.step.value() > 0.0;
    o.rooted = rooted;
    const double ranks = static_cast<double>(d.attention_ranks());
    // An overlap loop's lag (L, a caller's figure else the engine's): an arrival that finds a step running waits
    // L − 1 more steps before the one that carries it, each the run's mean step t̄: the loop's root where it has one,
    // else the steady point's (`detail::open_arrival_lag_wait`). An arrival that finds the engine empty waits none.
    const seconds_t busy_lag =
        detail::open_arrival_lag_wait(detail::overlap_lag_of(l, d.engine), rooted ? o.decoding.step : s.step_time);
    if (o.whole_prompts) {
        const double n_steps = detail::max(1.0, o.output - 1.0);
        // The bulk chain (Bailey 1954) at the loop's D̄ = N·λ·t̄ decoders, built once (the D-law average
        // below builds one at each node of the count's Gauss rule, none of which sits at D̄: the count's
        // law is skewed); where the loop has no root, at the first crossing's λ·(E2E − TTFT).
        const double mean_decoding = rooted ? o.decoding.steps * o.decoding.step.value() / gap : 0.0;  // D̄ = N·λ·t̄
        o.steps = queueing::bulk_steps(step_at(rooted ? mean_decoding : (s.e2e - s.ttft).value() / gap), seconds(gap));
        // TPOT = E[D·t] ÷ E[D], the step as the decoders see it, over both channels: the prompts a
        // step carries (`decode_weighted_step` on the bulk chain at D decoders) and the decoding
        // count's law at the root, Σ_i w_i·D_i·dws(D_i) ÷ Σ_i w_i·D_i over the nodes of weight ≥ 10⁻⁹
        // (`queueing::detail::decoder_weighted`: a wide law's far nodes, whose chain may refuse, left out).
        // Defined at any loop gain, unlike the linearised E[Y] (tables/percentiles.md compares them).
        s.tpot = queueing::decode_weighted_step(o.steps, n_steps);
        if (rooted) {
            const double tpot = queueing::detail::decoder_weighted(mean_decoding, o.decoding.fano, [&](double x) {
                return queueing::decode_weighted_step(queueing::bulk_steps(step_at(x), seconds(gap)), n_steps).value();
            });
            if (tpot > 0.0) s.tpot = seconds(tpot);
        }
        double held = (s.residual + s.e2e - s.front_end).value() / gap;  // the first crossing's n = λ·(R + E2E − F)
        // The wait for a slot, W = E[(D − B)⁺] ÷ λ (Little 1961): the count's law past the cap waits, not decodes
        // (`queueing::detail::count_above`); 0 where the law stays below B
        const double admission =
            rooted ? queueing::detail::count_above(mean_decoding, o.decoding.fano, cap) * gap : 0.0;
        if (rooted) {
            // n = λ·(TTFT_engine(ι) + N·TPOT) (Little: the engine holds a request from its arrival
            // to its last token), with ι = e^(−n·ranks) inside TTFT_engine = ι·t(1) + (1 − ι)·TTFT_busy,
            // TTFT_busy the bulk chain's: n = the prompts in their steps + D̄, and D̄ = λ·N·t̄ is already
            // E[min(D, B)] running + E[(D − B)⁺] = λ·W waiting, so W is not added again (docs/online-caps.md §2);
            // n on [λ·(t(1) + N·TPOT), λ·(TTFT_busy + N·TPOT)], bisected
            const double busy = queueing::first_token_mean(o.steps).value() + busy_lag.value();
            const double one = o.steps.step[1].value();
            const double decode = n_steps * s.tpot.value();
            const auto rhs = [&](double n) {
                const double i = queueing::empty_engine(n * ranks);
                return (i * one + (1.0 - i) * busy + decode) / gap;
            };
            double lo = detail::min(one, busy) / gap + decode / gap, hi = detail::max(one, busy) / gap + decode / gap;
            for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; ++i) {
                const double mid = (lo + hi) / 2.0;
                (rhs(mid) > mid ? lo : hi) = mid;
            }
            held = hi;
            b = detail::max(1.0, held);
            const seconds_t tpot = s.tpot;
            s = serve_at_batch(pm, r, b, open);
            s.tpot = tpot;
            s.step_time = o.decoding.step;  // the loop's t̄: (D̄ + λ·t̄) ÷ t̄ = λ·O tokens a step
        }
        // ι = e^(−n): an arrival finds the engine empty, n the requests it holds, and its prompt
        // starts at once, alone (`queueing::empty_engine`): an idle engine waits on its request
        // queue, it runs no step to wait for (TensorRT-LLM's executor, vLLM's and SGLang's engine
        // loops; the simulator's idle engine, sim/simulate-inl.hpp). The attention-DP ranks of an
        // expert-parallel group step together: it is empty only when all of them are, n × ranks
        // requests held (λ is one rank's).
        o.steps.idle = queueing::empty_engine(held * ranks);
        o.admission = seconds(admission);  // W over all arrivals (Little): not the busy share's (1 − ι)·W
        // The overlap's L − 1 steps for the busy share (1 − ι) of the arrivals: none for one that finds the engine empty.
        o.open_lag = busy_lag * (1.0 - o.steps.idle);
        s.ttft = client_first_token(queueing::first_token_mean(o.steps) + o.open_lag + o.admission, s.front_end);
        s.per_user = tokens(1.0) / s.tpot;
    } else {
        // An empty engine: my prompt's chunk steps alone, no step in flight, no neighbour.
        const double idle = queueing::empty_engine((s.residual + s.e2e - s.front_end).value() / gap * ranks);
        const seconds_t alone = seconds(detail::mix_steps(pm, terms, 0.0, 1.0).mean()) * chunks.count;
        const seconds_t busy = detail::step_in_flight_first_token(pm, r, s, seconds(gap), l) + busy_lag;
        s.ttft = client_first_token(alone * idle + busy * (1.0 - idle), s.front_end);
        o.open_lag = busy_lag * (1.0 - idle);
    }
    s.e2e = detail::end_to_end(s.ttft, s.tpot, o.output);
    // Flow conservation: in steady state the deployment emits what arrives, λ·O tokens a second per
    // replica (or attention rank), × dp; not b ÷ t̄, whose b counts the requests still waiting for
    // their first token.
    s.output_rate = tokens(o.output * static_cast<double>(d.layout.dp)) / seconds(gap);
    s.output_rate_per_gpu = s.output_rate / static_cast<double>(d.layout.gpus());
    s.limited_by = "arrival rate";
    o.point = s;
    return o;
}

/// `serve_online_latency` at `rate` requests/s for the whole deployment (dp ÷ rate between arrivals at each attention
/// rank), its refusal of a rate the deployment does not sustain (the running-batch cap's flow, id
/// llmcost.serving.online_cap, or Little's law with no crossing, no id, field "interarrival (s)") told the most it
/// sustains: λ* = B ÷ (O·t̄(B)) per attention rank (`online_rate_cap` of its saturated point, the cap `within_online_cap`
/// checks), × dp as `rate` counts it (audit 40, F4), named as the caller's `rate_name` (`llmcost … --rate`, Python's
/// rate); only where that ceiling is below the refused rate (with no crossing it need not be).
[[nodiscard]] inline online_latency serve_online_latency_at_rate(const deployment& d, const request_shape& r,
                                                                 per_second_t rate, const scheduler_limits& l,
                                                                 std::string_view rate_name) {
    const double dp = static_cast<double>(d.layout.dp), per_s = rate.value();
    try {
        return serve_online_latency(d, r, seconds(dp / per_s), l);
    } catch (const invalid_input& e) {
        const bool flow_cap = e.id() == "llmcost.serving.online_cap";
        const bool no_crossing = e.id().empty() && e.field() == "interarrival (s)";
        if (!flow_cap && !no_crossing) throw;
        double per_rank = 0;
        try {
            per_rank = online_rate_cap(saturated(d, r, l), r.output).value();
        } catch (const invalid_input&) {
            throw e;  // no saturated point to read a ceiling from: the refusal as it was
        }
        if (!(per_rank * dp < per_s)) throw;  // a ceiling at or above the refused rate would mislead: as it was
        std::string rule = e.rule();
        rule += "; the deployment sustains ";
        rule += rate_name;
        rule += " below ";
        rule += text::plain(per_rank * dp, 4);
        rule += " requests/s (λ* = B ÷ (O·t̄(B))";
        if (d.layout.dp > 1) {
            rule += " = ";
            rule += text::plain(per_rank, 4);
            rule += " per attention rank × ";
            rule += std::to_string(d.layout.dp);
        }
        rule += ")";
        throw invalid_input(e.subject(), e.field(), e.value(), rule, e.id());
    }
}

/// `serve_online_latency`'s mean figures.
template <duration T>
[[nodiscard]] constexpr serving_point serve_online(const deployment& d, const request_shape& r, const T& interarrival,
                                                   const scheduler_limits& l = {}) {
    return serve_online_latency(d, r, interarrival, l).point;
}

namespace detail {
constexpr void require_percentile_model(const online_latency& o, double q) {
    require(q > 0.0 && q < 1.0, "latency percentile", "percentile", q, "must be in (0, 1), e.g. 0.9 for p90",
            "llmcost.serving.percentile_open_unit");
    require(o.whole_prompts, "latency percentile", "prefill chunk / max tokens per step", 1.0,
            "percentiles are priced for whole prompts without a token cap: run `simulate` for chunked prefill",
            "llmcost.serving.percentile_whole_prompts");
}
}  // namespace detail

/// The q-quantile of TTFT under Poisson arrivals: the engine's steps' (`queueing::first_token_quantile`),
/// shifted by the mean wait for a slot `o.admission` where the decoding count's law reaches past the
/// running-batch cap (a shift by the mean, not the wait's own law: docs/online-caps.md §5); unshifted below it;
/// and by the mean overlap-lag wait `o.open_lag` (`detail::open_arrival_lag_wait`, the one the mean TTFT holds).
[[nodiscard]] constexpr seconds_t ttft_percentile(const online_latency& o, double q) {
    detail::require_percentile_model(o, q);
    return client_first_token(queueing::first_token_quantile(o.steps, q) + o.open_lag + o.admission, o.point.front_end);
}

/// The q-quantile of TPOT under Poisson arrivals: the mean of a request's O − 1 decode steps, both
/// feedback channels of its episode (`queueing::mean_step_quantile` of `decoding`). A one-token
/// answer has no TPOT: 0.
[[nodiscard]] constexpr seconds_t tpot_percentile(const online_latency& o, double q) {
    detail::require_percentile_model(o, q);
    if (!(o.output > 1.0)) return seconds(0.0);
    return queueing::mean_step_quantile(o.decoding, q);
}

/// The q-quantile of the end-to-end time, TTFT + (O − 1)·TPOT: normal, with the mean `point.e2e`
/// and the variance Var(TTFT) + (O − 1)²·Var(TPOT), the two taken as independent (a sum's central
/// limit; rough where a short answer leaves the skewed TTFT to dominate: see tables/percentiles.md).
[[nodiscard]] constexpr seconds_t e2e_percentile(const online_latency& o, double q) {
    detail::require_percentile_model(o, q);
    const double n = detail::max(0.0, o.output - 1.0);
    const double a = queueing::first_token_deviation(o.steps).value();
    require(!(n > 0.0) || o.decoding.gain < queueing::max_loop_gain, "latency percentile", "loop gain λ·(p + c·N)",
            o.decoding.gain, "must be below 0.99 for the TPOT spread: read E2E percentiles this close to saturation from `simulate`",
            "llmcost.serving.percentile_slow_mode");
    const double b = n > 0.0 ? o.decoding.deviation.value() * n : 0.0;
    return seconds(detail::max(0.0, o.point.e2e.value() + detail::normal_quantile(q) * detail::const_sqrt(a * a + b * b)));
}

}  // namespace llmcost
