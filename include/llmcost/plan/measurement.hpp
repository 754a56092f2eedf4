#pragma once
/// \file
/// A measurement of a serving system, as the cost model sees it: the deployment that produced the
/// figure, how it was driven, and the figure in SI units. `predict` prices one with the library;
/// calibration (plan/calibrate.hpp) fits efficiency parameters to many of them, and the validation
/// report compares them row by row.
///
/// The efficiency parameters are the hardware's `achievable_fractions` and its links' latency and
/// bandwidth: what a user with their own measurements is entitled to fit, since they describe the
/// kernels and the fabric, not the model.
///
/// **Example**
/// \code
/// plan::measurement t01{.id = "T01", .d = {.m = m_fp8, .hw = catalog::h100_sxm5},
///                       .r = {.input = 128_tok, .output = 128_tok}, .how = plan::scenario::offline,
///                       .requests = 30000, .max_batch = 4096, .value = 28836.77};
/// double predicted = plan::predict(t01);   // output tokens/s
/// \endcode

#include <llmcost/catalog/engines.hpp>
#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/settable.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/sim/disaggregated.hpp>
#include <llmcost/sim/simulate.hpp>
#include <llmcost/units/makers.hpp>

#include <cmath>

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::plan {

/// How the measured system was driven.
enum class scenario {
    offline,         ///< `requests` queued at once (trtllm-bench, MLPerf Offline); 0 = steady state
    online,          ///< requests arriving at `rate` per second (Poisson or constant)
    fixed_batch,     ///< `batch` concurrent sequences in steady state
    single_prefill,  ///< one prompt alone: its prefill pass
};

/// The serving engine that produced the figure: the validation report groups by it, and the
/// engine descriptors to come price by it. The TensorRT-LLM rows are the calibration home.
enum class serving_engine {
    trtllm,  ///< NVIDIA TensorRT-LLM (trtllm-bench, Triton, NIM, NVIDIA's MLPerf harness)
    vllm,    ///< vLLM (CUDA or ROCm)
    sglang,  ///< SGLang
};

/// The engine kind of a measurement's serving engine.
[[nodiscard]] constexpr engine_kind kind_of(serving_engine e) {
    switch (e) {
        case serving_engine::trtllm: return engine_kind::trtllm;
        case serving_engine::vllm: return engine_kind::vllm;
        case serving_engine::sglang: return engine_kind::sglang;
    }
    return engine_kind::reference;
}

/// What was measured.
enum class metric {
    output_tokens_per_s,  ///< output tokens/s of the whole deployment
    ttft_s,               ///< time to first token
    tpot_s,               ///< mean time per output token (inter-token latency)
    /// One batch's makespan on a warm engine: b prompts handed over at once, each answered with exactly its
    /// output length, timed from the hand-over to the last answer's last token (vLLM's benchmark_latency.py:
    /// one `LLM.generate` of `--batch-size` prompts, `ignore_eos`, `max_tokens` = output, after warm-up
    /// iterations, the mean over iterations). Priced as a colocated closed loop's `sim::result::makespan`
    /// with one prompt per client (`closed_loop_run`, warm: no cold opening, no first-use build).
    batch_latency_s,
};

/// How an online run's harness spreads its queries over the dp replicas of a dense deployment.
/// The row's rate is per replica, λ; the client's stream is Poisson at dp · λ (MLPerf's LoadGen
/// Server scenario).
enum class replica_dispatch {
    random_split,   ///< each query to a replica at random: each replica a Poisson stream of rate λ
    round_robin,    ///< query i to replica i mod dp: every dp-th query of the stream
    least_pending,  ///< each query to the replica with the fewest queries in flight (the harness: ties to the first)
};

/// The words of tables/measurements.csv's `replica_dispatch` column (empty: random_split).
inline constexpr std::string_view replica_dispatch_words = "round_robin or least_pending";
[[nodiscard]] constexpr std::optional<replica_dispatch> replica_dispatch_named(std::string_view word) {
    if (word == "round_robin") return replica_dispatch::round_robin;
    if (word == "least_pending") return replica_dispatch::least_pending;
    return std::nullopt;
}
/// The word a `replica_dispatch` is written as in tables/measurements.csv ("" for a random split).
[[nodiscard]] constexpr std::string_view to_string(replica_dispatch d) {
    switch (d) {
        case replica_dispatch::round_robin: return "round_robin";
        case replica_dispatch::least_pending: return "least_pending";
        case replica_dispatch::random_split: break;
    }
    return "";
}
/// The rule a `replica_dispatch` other than a random split keeps (`measurement::validate` and the
/// loader, which names the word as written).
inline constexpr std::string_view replica_dispatch_rule =
    "a harness's dispatch over replicas belongs to an online row of a dense deployment (an expert-parallel "
    "group spreads its queries over its attention ranks: online_interarrival)";

[[nodiscard]] constexpr std::string_view to_string(scenario s) {
    switch (s) {
        case scenario::offline: return "offline";
        case scenario::online: return "online";
        case scenario::fixed_batch: return "fixed_batch";
        case scenario::single_prefill: return "single_prefill";
    }
    return "?";
}
[[nodiscard]] constexpr std::string_view to_string(serving_engine e) {
    switch (e) {
        case serving_engine::trtllm: return "trtllm";
        case serving_engine::vllm: return "vllm";
        case serving_engine::sglang: return "sglang";
    }
    return "?";
}
[[nodiscard]] constexpr std::string_view to_string(metric m) {
    switch (m) {
        case metric::output_tokens_per_s: return "output_tokens_per_s";
        case metric::ttft_s: return "ttft_s";
        case metric::tpot_s: return "tpot_s";
        case metric::batch_latency_s: return "batch_latency_s";
    }
    return "?";
}
inline constexpr std::array all_scenarios{scenario::offline, scenario::online, scenario::fixed_batch,
                                          scenario::single_prefill};
inline constexpr std::array all_engines{serving_engine::trtllm, serving_engine::vllm, serving_engine::sglang};
inline constexpr std::array all_metrics{metric::output_tokens_per_s, metric::ttft_s, metric::tpot_s,
                                        metric::batch_latency_s};

/// How a run's harness counts the answer tokens it reports (a row's `output_tokens` O, its tok/s and its TPOT) against
/// the tokens the engine generated: the harness re-tokenises each answer with another tokenizer, ρ of its tokens per
/// engine token for the same text, and puts k tokens (a start token) in front, so O = ρ · O_eng + k (Krai's MLPerf
/// v5.1 Llama-3.1 runs report Llama-2 tokens, BOS first: docs/krai-token-unit.md). ρ 1 and k 0: the engine's own count.
struct output_count {
    double ratio = 1;   ///< ρ: reported tokens per engine token for the same text (finite, > 0)
    double offset = 0;  ///< k: tokens the harness adds to each reported answer (0 ≤ k < O)
    [[nodiscard]] constexpr bool engine_own() const { return ratio == 1.0 && offset == 0.0; }
};
/// The rule of a row's reported answer count (`output_count`: `measurement::validate`, the measurements loader).
inline constexpr std::string_view output_count_rule =
    "a reported answer count is O = ratio x engine tokens + offset: output_token_ratio finite and > 0 (empty = 1), "
    "output_token_offset from 0 to below output_tokens (empty = 0), and the engine's answer (O - offset) / ratio at "
    "least one token";

/// O_eng = (O − k) ÷ ρ: the tokens the engine generated for an answer its harness reports as O tokens (`output_count`).
[[nodiscard]] constexpr tokens_t engine_output_tokens(tokens_t reported, const output_count& c) {
    return tokens((reported.value() - c.offset) / c.ratio);
}
/// The field an answer of fewer than one engine token (`engine_output_tokens` below 1) is refused on: the offset k
/// where O ÷ ρ alone is at least one token (k is what takes O_eng below 1), else the ratio ρ.
[[nodiscard]] constexpr std::string_view short_answer_field(tokens_t reported, const output_count& c) {
    const bool ratio_alone_fits = engine_output_tokens(reported, {.ratio = c.ratio, .offset = 0.0}).value() >= 1.0;
    return c.offset > 0.0 && ratio_alone_fits ? "output_token_offset" : "output_token_ratio";
}
/// The value of that field (`short_answer_field`), for the refusal's text.
[[nodiscard]] constexpr double short_answer_value(tokens_t reported, const output_count& c) {
    return short_answer_field(reported, c) == "output_token_offset" ? c.offset : c.ratio;
}

/// The rule of an Offline row's largest replica share s (`measurement::replica_share_max`: `measurement::validate`,
/// the measurements loader).
inline constexpr std::string_view replica_share_rule =
    "the largest replica's share s of an Offline run's samples (its replicas each run a fixed share): 1 / replicas <= "
    "s <= 1 on an offline row, or empty (an equal split); empty on other rows";
/// Whether a largest replica share s keeps `replica_share_rule`: an offline row's, 1 ÷ R ≤ s ≤ 1 over its R replicas
/// (1e-9 below 1 ÷ R for a share written to a few figures).
[[nodiscard]] constexpr bool replica_share_fits(double share, scenario how, int replicas) {
    return how == scenario::offline && share > 0.0 && share <= 1.0 && share * static_cast<double>(replicas) >= 1.0 - 1e-9;
}
/// `replica_share_rule` as a refusal of a row of R replicas states it.
[[nodiscard]] inline std::string replica_share_rule_for(int replicas) {
    return std::string(replica_share_rule) + " (" + std::to_string(replicas) + " replicas here)";
}

/// A figure priced on the engine's answers (O_eng = `engine_output_tokens` tokens each) in the unit the row reports
/// (O tokens each). tok/s: the same requests per second counted in reported tokens, tok/s × O ÷ O_eng. TPOT: LoadGen's
/// per-request (latency − first token) ÷ (n − 1), n the reported count (mlcommons/inference @b66003e
/// loadgen/logging.cc l.475–476), so the same decode time over O − 1, TPOT × (O_eng − 1) ÷ (O − 1). TTFT and a
/// batch's latency: times, unchanged. The engine's own count (ρ 1, k 0): the figure as it is.
[[nodiscard]] constexpr double in_reported_tokens(metric m, tokens_t reported, const output_count& c, double engine_figure) {
    if (c.engine_own()) return engine_figure;
    const double o = reported.value(), o_eng = engine_output_tokens(reported, c).value();
    switch (m) {
        case metric::output_tokens_per_s: return engine_figure * o / o_eng;
        case metric::tpot_s: return engine_figure * (o_eng - 1.0) / (o - 1.0);
        case metric::ttft_s:
        case metric::batch_latency_s: return engine_figure;
    }
    return engine_figure;
}

struct measurement {
    std::string id;
    bool check = true;  ///< a check row, never used to fit; false: a calibration row
    serving_engine engine = serving_engine::trtllm;
    std::string engine_version{};  ///< as the source states it (a release, or what the source says instead)
    deployment d;
    request_shape r{.input = tokens(1.0), .output = tokens(1.0)};
    scenario how = scenario::offline;
    double requests = 0;    ///< offline: requests in the run; 0 = steady state
    double max_batch = 0;   ///< offline: the engine's batch cap; 0 = none
    double max_tokens = 0;  ///< offline: the engine's tokens-per-step cap; 0 = none
    double rate = 0;        ///< online: requests per second per serving instance (a replica, or one EP group)
    double batch = 0;       ///< fixed_batch: concurrent sequences per replica
    /// fixed_batch: a benchmark client's closed loop with a burst start — `prompts` requests in
    /// all, batch · dp clients each sending its first prompt at time 0 and its next one when its
    /// answer ends (vLLM's benchmark_serving `--num-prompts N --max-concurrency c --request-rate
    /// inf`), priced by the simulator (`closed_loop_run`); 0: the steady state (`serve_at_batch`).
    double prompts = 0;
    /// The client's random-range-ratio r: every prompt and answer length drawn on whole tokens
    /// from [r·L, L] (`client_lengths`); 1: every request exactly the mean shape.
    double range_ratio = 1;
    /// The server's decode steps between polls for new requests (`scheduler_limits::receive_interval`:
    /// SGLang `--scheduler-recv-interval`, vLLM V0's `num_scheduler_steps`); 1: every step. Simulated,
    /// so above 1 only with `prompts`, offline or online.
    double receive_interval = 1;
    /// Prompts that must wait before a scheduler pass admits any (`scheduler_limits::min_waiting_prompts`:
    /// AMD's MLPerf vLLM scheduler); 1: any. Simulated, so above 1 only with `prompts`, offline or online.
    double min_waiting_prompts = 1;
    /// Prompt steps run alone, the answers waiting (`scheduler_limits::prefill_alone`): vLLM V0 with
    /// chunked prefill off; every SGLang row is priced so anyway. Simulated: only with `prompts`, offline or online.
    bool prefill_alone = false;
    /// The block of `receive_interval` decode steps runs whole, its answers ending at its end
    /// (`scheduler_limits::outputs_per_block`: vLLM V0 multi-step, whose outputs, without the async
    /// output processor, are processed after the block's last step). Simulated: with
    /// `receive_interval` above 1 and `prefill_alone`.
    bool outputs_per_block = false;
    /// TensorRT-LLM's attention-DP balance as the run configured it (`scheduler_limits::adp_timeout_iters`,
    /// `adp_batching_wait_iters`: `attention_dp_config` timeout_iters and batching_wait_iters with
    /// enable_balance; TensorRT-LLM's own defaults, 50 and 10, where the run enabled it without them);
    /// 0: off. Simulated, over the row's dp attention ranks: only with `prompts`, offline or online,
    /// and an expert-parallel layout of dp ≥ 2.
    double adp_timeout_iters = 0;
    double adp_batching_wait_iters = 0;
    /// AMD's MLPerf V0 scheduler's decode target and prefill gate as the run's configuration set them
    /// (`scheduler_limits::decode_cut`, `decode_target`: VLLM_LLAMA2_MLPERF_SCHED with its MIN / MAX /
    /// STEP and MIN_REQUIRE_PREFILL_GPU_BLOCK × block_size); off by default. Simulated: only with
    /// `prompts`, offline or online.
    decode_target decode_cut{};
    /// The engine cuts prompts into chunks that fill each step's token budget `max_tokens`, oldest
    /// prompt first, after one token per running answer (TensorRT-LLM's `enable_chunked_context` with
    /// `context_chunking_policy` first_come_first_served: tensorrt_llm/batch_manager/microBatchScheduler.cpp
    /// `setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>`); the row's prompt chunk is then `max_tokens`
    /// (`closed_loop_limits`, `offline_limits`). false: the engine's own rule. Needs `max_tokens`; a colocated
    /// TensorRT-LLM online or offline row's (trtllm-bench 0.17 on TensorRT engines, NVIDIA's MLPerf harness).
    bool chunked_context = false;
    /// How the run's harness spread its queries over the replicas (`online_arrivals`): NVIDIA's MLPerf
    /// harness sends each Server query to the instance with the fewest pending samples and each
    /// Interactive one round robin (closed/NVIDIA/code/llmlib/config.py `traffic_distribution_policy`,
    /// factory.py `_create_scheduler`). Read by an online row's simulated run only.
    replica_dispatch dispatch = replica_dispatch::random_split;
    metric what = metric::output_tokens_per_s;
    double value = 0;       ///< the measured figure in SI (tokens/s or s)
    /// The client reached the engine through its API server (HTTP: vLLM's and SGLang's OpenAI-compatible
    /// servers, trtllm-serve; benchmark_serving, InferenceMAX), so its TTFT and E2E carry the engine's
    /// front end (`engine_overheads::request`); false: in process (trtllm-bench, the MLPerf LoadGen
    /// harnesses, which hand the engine token ids), priced with no front end (`as_driven`).
    bool api_server = false;
    /// The engine build fuses the FP4 quantization of a GEMM's activations into the RMSNorm before
    /// it (TensorRT-LLM's `norm_quant_fusion` build flag, the MLPerf configs' `trtllm_build_flags`);
    /// false: a quantization kernel runs before each FP4 GEMM, priced on the engine's curve with it
    /// (`engine_kernels::fp4_quantization_fused`, B19). Carried onto the row's engine by `with_own_engine`.
    bool fp4_quantization_fused = true;
    /// The engine build runs each row-parallel GEMM with its TP all-reduce in one kernel (TensorRT-LLM's
    /// `gemm_allreduce_plugin` build flag, the MLPerf configs' `trtllm_build_flags`); false: the
    /// all-reduce after the GEMM (`engine_kernels::gemm_all_reduce_fused`). Carried by `with_own_engine`.
    bool gemm_all_reduce_fused = false;
    /// The run turned on the engine's quantized all-reduce (SGLang's QuickReduce INT4 on ROCm: its launch
    /// exports ROCM_QUICK_REDUCE_QUANTIZATION=INT4), priced on the profile's curve for the messages its band
    /// takes (`engine_collectives::quick_reduce`; docs/cdna-all-reduce.md §7); false: not set. Carried by
    /// `on_engine`, which refuses a profile without the curve.
    bool quick_reduce = false;
    /// Whether the run captured its steps in CUDA graphs, where the source's configuration states it
    /// (the MLPerf configs' `use_graphs`, InferenceMAX's `cuda_graph_config`, vLLM's `enforce_eager`
    /// in AMD's harness yamls); empty: the engine profile's default. Carried onto the row's engine by
    /// `with_own_engine`: with graphs off every kernel pays the engine's `launch_eager` instead of
    /// `launch_graph`, and the row's steps are enqueued by the host (`engine_overheads::eager_enqueue`):
    /// an engine that prices that enqueue (`engine_overheads::host_enqueue`) holds every step to at
    /// least kernels × it. `detail::settable`, not std::optional (GCC 12's false maybe-uninitialized on a
    /// disengaged optional's storage when a row is moved, as `memory_reserve`'s fields).
    detail::settable<bool> cuda_graphs{};
    /// How the run's prompt steps pay the host's eager launch, where its configuration states it
    /// (`eager_prompt` in tables/measurements.csv: TensorRT-LLM's PyTorch backend runs a step with
    /// context requests without a CUDA graph, and Dynamo's prefill workers turn its overlap scheduler
    /// off); empty: the profile's rule. Carried onto the row's engine by `with_own_engine`
    /// (`engine_overheads::prompt_launch`).
    detail::settable<prompt_launch_mode> eager_prompt{};
    /// The most tokens a step of the run has for its dense linear layers of 8-bit weights to run as
    /// 16-bit GEMMs on a 16-bit copy of the weights, where its configuration turns that on (AMD's MLPerf
    /// Mixtral-8x7B Server yamls: `VLLM_MOE_USE_FP16_GEMM_FOR_SMALL_FP8_INPUTS: 1`, 2560 in the patch);
    /// 0: never. Carried onto the row's engine by `with_own_engine` (`engine_kernels::wide_dense_max_tokens`).
    double fp16_dense_max_tokens = 0;
    /// The run's own KV memory fraction where its launch flags state it (SGLang `--mem-fraction-static`,
    /// vLLM `--gpu-memory-utilization`, TensorRT-LLM `kv_cache_free_gpu_mem_fraction`); empty: the engine
    /// profile's default. Carried onto the row's engine by `with_own_engine`, where the engine's KV pool
    /// rule (`kv_pool_rule`) turns it into the row's KV pool (`kv_pool_per_gpu`; docs/kv-pool.md).
    detail::settable<double> kv_memory_fraction{};
    /// The run's own KV block size in tokens where its harness states it (vLLM `block_size`: AMD's MLPerf
    /// yamls set 32 on MI300X); empty: the engine profile's (`engine_scheduler::kv_block_tokens`). Carried onto
    /// the row's engine by `on_engine` (`with_kv_block_tokens`): each sequence holds whole blocks (`kv_block_slots`).
    detail::settable<double> kv_block_tokens{};
    /// The run's per-rank all-to-all dispatch cap in tokens where its launch sets it (`a2a_dispatch_cap_tokens`: SGLang
    /// `SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`, 16384 in AMD's MI355X disaggregated launches,
    /// billishyahao/sglang_disagg@22ad293 set_env_vars.sh:41); empty: the engine's default (`engine_moe::dispatch_cap`).
    /// Carried onto the row's engine by `on_engine` (`with_dispatch_cap`); read by a padded expert runner
    /// (`padded_moe_time_per_pass`).
    detail::settable<double> a2a_dispatch_cap_tokens{};
    /// The share of KV blocks the run's admission keeps free (`scheduler_limits::admission_watermark`): 0.01 where
    /// the row runs vLLM V0's block manager, 0 elsewhere. Simulated runs only.
    double kv_watermark = 0;
    /// The run's KV admission policy where its launch states one (`kv_admission` in tables/measurements.csv:
    /// `in_use` where an NVIDIA MLPerf harness config sets `batch_scheduler_policy: 'max_util'`, TensorRT-LLM's
    /// MAX_UTILIZATION; docs/paged-kv-blocks.md); engine_default: the engine's rule. Read by `closed_loop_limits`
    /// and `offline_limits` (`with_kv_admission`), so by every path that sizes the row's batch.
    kv_admission admission = kv_admission::engine_default;
    /// The run's expert choice where its launch states one (`expert_routing` in tables/measurements.csv: `uniform`
    /// where SGLang's `--ep-dispatch-algorithm fake` reaches its all-to-all MoE path, AMD's MI355X DEP launches,
    /// billishyahao/sglang_disagg@22ad293 sglang_disagg_server.sh:51 with `--moe-a2a-backend mori`, l.63); the model's
    /// router by default. Carried onto the row's engine by `on_engine` (`with_expert_routing`), read by `routing_cv`.
    expert_routing routing = expert_routing::model;
    /// Whether the run drives vLLM's V0 `LLMEngine` loop (`host_loop` v0 in tables/measurements.csv: a vLLM release
    /// ≤ 0.6, `VLLM_USE_V1=0`, V0 multi-step; the rule in docs/vllm-v0-host-loop.md), so each scheduler pass pays its
    /// host time (`engine_overheads::v0_host_pass`); false: the profile's own loop. Carried by `on_engine`.
    bool v0_loop = false;
    /// The largest replica's share s of an Offline run's samples (`replica_share_max` in tables/measurements.csv): AMD's
    /// MLPerf harness hands each of its replicas one fixed range of the samples in one `LLM.generate` and LoadGen's run
    /// ends with the last replica's answers (mlcommons/inference_results_v5.1 closed/AMD/code/llama2-70b-99/harness_llm/
    /// backends/common/offline_sut.py `issue_queries`, common/sorting.py `make_bucket_ranges`), so the run lasts the
    /// largest replica's makespan (`offline_run_rate`). 1 ÷ instances ≤ s ≤ 1, offline rows only; unset: an equal split.
    detail::settable<double> replica_share_max{};
    /// What makes the run's cold server build a kernel at first use (`first_use_trigger`, a run property: its image,
    /// launch flags and client; docs/first-use-build.md): read by its simulated closed loop only (`closed_loop_run`),
    /// where the first prompt step that meets it lasts the engine's `first_use_build` longer. none: no build.
    first_use_trigger first_use_build = first_use_trigger::none;
    /// How the run's harness counts the answers it reports (`output_token_ratio`, `output_token_offset` in
    /// tables/measurements.csv): `r.output`, `value` (tok/s, TPOT) are in its reported tokens; `predict` prices the
    /// engine's answers (`in_engine_tokens`) and reports its figure in the row's unit (`in_reported_tokens`).
    output_count answer_count{};
    /// The rule a `batch_latency_s` row keeps (`require_batch_latency`: `validate` and `predict`).
    static constexpr std::string_view batch_latency_rule =
        "a batch latency (metric batch_latency_s) is one batch's makespan, priced by a colocated closed loop with one "
        "prompt per client: a fixed_batch row, not disaggregated, with prompts equal to its clients (batch x dp)";
    /// The trigger's rule: it is met only by a colocated closed-loop client's simulated run (`closed_loop_run`).
    static constexpr std::string_view v0_loop_rule = llmcost::v0_loop_rule;  // descriptors/engine.hpp's one text
    static constexpr std::string_view first_use_build_rule =
        "a first-use build trigger is met only by a colocated closed-loop client's simulated run: it needs prompts > 0 "
        "and no prefill workers (a disaggregated row's own closed loop does not price it); none or empty elsewhere";
    /// A TTFT row's median and 99th percentile over the run's requests, where the artifact gives
    /// them beside the mean (`value`), in s; 0: not given. The median is compared with the
    /// simulator's median (like for like); p99 far above the median marks a stall (`stalled`).
    double ttft_median = 0, ttft_p99 = 0;
    /// What a closed-loop TTFT row's `value` is over the run's requests: false, the mean (every row of
    /// tables/measurements.csv); true, the median, predicted as the simulated run's median
    /// (`sim::result::ttft.p50`): a cost every request pays (the engine's front end) moves the median
    /// as it moves the mean, a wait only the first requests pay (the opening wave) moves the mean alone.
    bool median_ttft = false;
    /// The engine clock the run pinned, in MHz (AMD's MLPerf harnesses: `rocm-smi
    /// --setperfdeterminism`); 0: not pinned. Priced against the clock the GPU's compute fractions
    /// hold at (`achievable_fractions::at_clock`; `as_run`).
    double clock_MHz = 0;
    /// The measured GEMM table the run's engine loads (AMD's harnesses: `HIPBLASLT_TUNING_OVERRIDE_FILE`;
    /// catalog/gemm_tables.hpp); nullptr: none, the size curve. Priced at the row's clock (`as_run`).
    const gemm_table* harness_gemm_table = nullptr;
    /// A disaggregated deployment (prefill/decode pools, `disaggregated_run`): the prefill pool's
    /// workers, each of `prefill_layout`, and the decode pool's workers, each of the row's layout
    /// (`d.layout`), on the same GPU and engine; the row's `batch` is then the client's concurrency c
    /// over the whole deployment, not per replica. 0 prefill workers: a colocated deployment.
    double prefill_workers = 0;
    parallel_layout prefill_layout{};
    double decode_workers = 1;
    /// A disaggregated row's prefill worker's caps, per prefill attention rank (`prefill_admission_of`):
    /// the prompts a pass takes (SGLang --max-running-requests ÷ dp, TensorRT-LLM max_batch_size), its
    /// token budget (SGLang --max-prefill-tokens, not divided under DP attention; TensorRT-LLM
    /// max_num_tokens) and where a prompt is cut (SGLang --chunked-prefill-size ÷ dp; TensorRT-LLM:
    /// max_num_tokens, 0 here); 0: the engine's default.
    double prefill_max_batch = 0;
    double prefill_max_tokens = 0;
    double prefill_chunk_tokens = 0;
    std::string source;

    [[nodiscard]] bool disaggregated() const { return prefill_workers > 0.0; }
    /// Whether the row's `dispatch` may stand: a random split anywhere; round robin or least pending
    /// on an online row of a dense deployment (`replica_dispatch_rule`).
    [[nodiscard]] bool dispatch_fits() const {
        return dispatch == replica_dispatch::random_split || (how == scenario::online && !d.expert_parallel());
    }
    /// The client's concurrency: batch × dp clients (one batch per replica or attention rank), or a
    /// disaggregated row's batch, which is already the whole deployment's.
    [[nodiscard]] double clients() const { return disaggregated() ? batch : batch * d.layout.dp; }

    /// The refusal of a `dispatch` that may not stand, named by its word (out of line: `validate`
    /// stays small).
    [[noreturn]] void fail_dispatch() const;
    /// A `batch_latency_s` row's shape (`batch_latency_rule`), one field a check so a refusal names the field that
    /// breaks it: the scenario fixed_batch, no prefill workers, prompts > 0 and equal to the clients. The one place
    /// the rule is checked (`validate`, and `predict` for a row built without it).
    void require_batch_latency() const {
        const std::string_view s = id;
        require_word(how == scenario::fixed_batch, s, "scenario", to_string(how), batch_latency_rule);
        require(!disaggregated(), s, "prefill_workers", prefill_workers, batch_latency_rule);
        require(prompts > 0.0 && prompts == clients(), s, "prompts", prompts, batch_latency_rule);
    }
    void validate() const {
        const std::string_view s = id;
        d.validate();
        r.validate();
        require(positive_finite(value), s, "value", value, "a measured figure is positive and finite");
        require(non_negative_finite(requests), s, "requests", requests, "must be 0 (steady state) or positive");
        require(non_negative_finite(max_batch), s, "max_batch", max_batch, "must be 0 (no cap) or positive");
        require(non_negative_finite(max_tokens), s, "max_tokens", max_tokens, "must be 0 (no cap) or positive");
        if (how == scenario::online)
            require(positive_finite(rate), s, "rate (requests/s)", rate, "an online run needs an arrival rate");
        if (how == scenario::fixed_batch)
            require(batch >= 1.0 && positive_finite(batch), s, "batch", batch, "at least one sequence");
        require(prompts == 0.0 || (how == scenario::fixed_batch && prompts >= clients() && prompts <= 1e7 &&
                                   std::floor(prompts) == prompts),
                s, "prompts", prompts,
                "0 (steady state), or a closed-loop fixed_batch run's whole number of prompts, at least its "
                "clients (batch × dp) and at most 10⁷");
        require(range_ratio > 0.0 && range_ratio <= 1.0, s, "range_ratio", range_ratio,
                "a client's random-range-ratio is in (0, 1] (1: fixed lengths)");
        require(range_ratio == 1.0 || prompts > 0.0, s, "range_ratio", range_ratio,
                "random lengths are simulated: a range ratio below 1 needs a closed-loop run (prompts > 0)");
        require(receive_interval >= 1.0 && receive_interval <= 1e6 && std::floor(receive_interval) == receive_interval,
                s, "receive_interval", receive_interval,
                "a whole number of decode steps between the server's polls for new requests, from 1 to 10⁶");
        const bool simulated = prompts > 0.0 || how == scenario::online || how == scenario::offline;
        require(receive_interval == 1.0 || simulated, s, "receive_interval", receive_interval,
                "a poll interval is simulated: above 1 it needs a closed-loop run (prompts > 0), an offline or an "
                "online row");
        require(min_waiting_prompts >= 1.0 && min_waiting_prompts <= 1e6 &&
                    std::floor(min_waiting_prompts) == min_waiting_prompts,
                s, "min_waiting_prompts", min_waiting_prompts,
                "a whole number of waiting prompts before the scheduler admits any, from 1 (any) to 10⁶");
        require(min_waiting_prompts == 1.0 || simulated, s, "min_waiting_prompts", min_waiting_prompts,
                "a minimum of waiting prompts is simulated: above 1 it needs a closed-loop run (prompts > 0), an "
                "offline or an online row");
        require(!prefill_alone || simulated, s, "prefill_alone", 1.0,
                "prompt steps alone are simulated: they need a closed-loop run (prompts > 0), an offline or an online row");
        require(!outputs_per_block || (receive_interval > 1.0 && prefill_alone), s, "outputs_per_block", 1.0,
                "a block's outputs at its end need a block of decode steps (receive_interval above 1) and prompt steps "
                "alone (prefill_alone): vLLM V0 multi-step with chunked prefill off");
        require(adp_timeout_iters == 0.0 || is_iteration_count(adp_timeout_iters, 1.0),
                s, "adp_timeout_iters", adp_timeout_iters,
                "0 (no attention-DP balance) or a whole number of iterations, from 1 to 10⁶, before held prompts enter");
        require(is_iteration_count(adp_batching_wait_iters, 0.0),
                s, "adp_batching_wait_iters", adp_batching_wait_iters,
                "a whole number of iterations, from 0 to 10⁶, that prompts wait once every rank has one");
        require(adp_batching_wait_iters == 0.0 || adp_timeout_iters > 0.0, s, "adp_batching_wait_iters",
                adp_batching_wait_iters, "a batching wait belongs to the attention-DP balance: it needs adp_timeout_iters ≥ 1");
        require(adp_timeout_iters == 0.0 || simulated, s, "adp_timeout_iters", adp_timeout_iters,
                "the attention-DP balance is simulated: it needs a closed-loop run (prompts > 0), an offline or an "
                "online row");
        decode_cut.validate(s);
        require(!decode_cut.on() || simulated, s, "decode_target_max", decode_cut.max,
                "a decode target is simulated: it needs a closed-loop run (prompts > 0), an offline or an online row");
        require(!decode_cut.on() || (prefill_alone && !chunked_context && prefill_chunk_tokens == 0.0), s,
                "decode_target_max", decode_cut.max,
                "AMD's gate runs in V0's non-chunked path (_schedule_default): needs prefill_alone 1 and no prefill chunk");
        require(!chunked_context || max_tokens >= 1.0, s, "chunked_context", 1.0,
                "chunks that fill a step's token budget need the budget: max_tokens (the run's max_num_tokens) of at "
                "least one token");
        if (!dispatch_fits()) fail_dispatch();
        require(!chunked_context || (engine == serving_engine::trtllm && (how == scenario::online || how == scenario::offline)),
                s, "chunked_context", 1.0,
                "TensorRT-LLM's oldest-first chunks (enable_chunked_context, first_come_first_served) are priced on its "
                "online and offline rows (a prompt longer than the budget by the simulated run, a shorter one as one chunk "
                "of the closed form); vLLM's and SGLang's chunked prefill is their engine profile's rule");
        require(!chunked_context || !disaggregated(), s, "chunked_context", 1.0,
                "a colocated row's rule: a disaggregated row states its prefill worker's chunk in prefill_chunk_tokens");
        require(adp_timeout_iters == 0.0 || d.attention_ranks() >= 2, s, "adp_timeout_iters", adp_timeout_iters,
                "the attention-DP balance holds prompts across attention ranks: it needs an expert-parallel layout "
                "with dp ≥ 2 (the attention-DP ranks), dp = " + std::to_string(d.layout.dp) + " here");
        // Lengths that vary (the dataset's spreads) are priced by the closed forms' length bias, or
        // drawn by an online row's simulated run (`online_run`: lognormal of the mean and spread); a
        // closed-loop client's run draws its client's own lengths (`client_lengths`), so it takes none.
        require(!r.spread() || prompts == 0.0, s, "input_spread / output_spread (tokens)",
                r.input_spread.value() + r.output_spread.value(),
                "lengths that vary are priced by the closed forms or an online row's simulated run: a closed-loop "
                "client's row (prompts > 0) takes the client's lengths instead");
        require(!api_server || how != scenario::single_prefill, s, "api_server", 1.0,
                "a single prefill pass is the engine's alone: no API server in it");
        if (kv_memory_fraction)
            require(is_memory_fraction(*kv_memory_fraction), s, "kv_memory_fraction", *kv_memory_fraction,
                    memory_fraction_rule);
        if (kv_block_tokens)
            require(is_kv_block_size(*kv_block_tokens), s, "kv_block_tokens", *kv_block_tokens, kv_block_size_rule,
                    kv_block_size_rule_id);
        if (a2a_dispatch_cap_tokens)
            require(is_dispatch_cap(*a2a_dispatch_cap_tokens), s, "a2a_dispatch_cap_tokens", *a2a_dispatch_cap_tokens,
                    dispatch_cap_rule);
        require_word(!v0_loop || kind_of(engine) == engine_kind::vllm, s, "engine", to_string(engine), v0_loop_rule);
        require(kv_watermark >= 0.0 && kv_watermark < 1.0, s, "kv_watermark", kv_watermark,
                "a share of the KV blocks kept free at admission, in [0, 1) (vLLM V0: 0.01)",
                "llmcost.serving.admission_watermark");
        if (quick_reduce) require_quick_reduce_run(kind_of(engine), d.layout.tp, s, "quick_reduce");  // the library's rule
        if (clock_MHz != 0.0) require_engine_clock(s, "clock_MHz", clock_MHz);  // 0: not pinned; its GPU's rule: as_run
        require(non_negative_finite(ttft_median) && non_negative_finite(ttft_p99), s, "ttft_median / ttft_p99 (s)",
                ttft_median + ttft_p99, "a TTFT percentile is 0 (not given) or positive and finite");
        require((ttft_median == 0.0 && ttft_p99 == 0.0) || what == metric::ttft_s, s, "ttft_median / ttft_p99 (s)",
                ttft_median + ttft_p99, "TTFT percentiles belong to a TTFT row (metric ttft_s)");
        require(ttft_p99 == 0.0 || ttft_p99 >= ttft_median, s, "ttft_p99 (s)", ttft_p99,
                "a 99th percentile is at least the median");
        require(!median_ttft || (what == metric::ttft_s && prompts > 0.0), s, "median_ttft", 1.0,
                "a run's median TTFT is its simulated closed-loop run's: it needs a TTFT row with prompts > 0");
        require(std::isfinite(answer_count.ratio) && answer_count.ratio > 0.0, s, "output_token_ratio", answer_count.ratio,
                output_count_rule);
        require(answer_count.offset >= 0.0 && answer_count.offset < r.output.value(), s, "output_token_offset",
                answer_count.offset, output_count_rule);
        require(engine_output_tokens(r.output, answer_count).value() >= 1.0, s, short_answer_field(r.output, answer_count),
                short_answer_value(r.output, answer_count), output_count_rule);
        require(answer_count.engine_own() || what != metric::tpot_s || r.output.value() > 1.0, s, "output_tokens",
                r.output.value(), "a TPOT row in reported tokens needs answers of more than one reported token");
        require_word(first_use_build == first_use_trigger::none || (prompts > 0.0 && !disaggregated()), s, "first_use_build",
                     to_string(first_use_build), first_use_build_rule);
        if (what == metric::batch_latency_s) {
            require_batch_latency();
            require_word(first_use_build == first_use_trigger::none, s, "first_use_build", to_string(first_use_build),
                    "a batch latency is timed on a warm engine (the benchmark's warm-up iterations ran first): no "
                    "first-use build");
        }
        validate_pools();
        if (how == scenario::single_prefill)
            require_word(what == metric::ttft_s, s, "metric", to_string(what),
                    "a single prefill measures time to first token only");
        if (how == scenario::offline)
            require_word(what == metric::output_tokens_per_s, s, "metric", to_string(what),
                    "an offline run measures output tokens/s only");
        if (replica_share_max)
            require(replica_share_fits(*replica_share_max, how, d.instances()), s, "replica_share_max", *replica_share_max,
                    replica_share_rule_for(d.instances()));
    }

    /// A disaggregated row's pools: whole workers, layouts the model can take, and only what
    /// `disaggregated_run` prices (a closed-loop client's run, no simulated scheduler feature).
    void validate_pools() const {
        const std::string_view s = id;
        if (!disaggregated()) {
            require(prefill_workers == 0.0, s, "prefill_workers", prefill_workers,
                    "0 (colocated) or a whole number of prefill workers, from 1 to 10⁶");
            constexpr std::string_view pool_rule = "belongs to a disaggregated row: it needs prefill_workers ≥ 1";
            require(decode_workers == 1.0, s, "decode_workers", decode_workers, pool_rule);
            require(prefill_layout.tp == 1, s, "prefill_tp", prefill_layout.tp, pool_rule);
            require(prefill_layout.pp == 1, s, "prefill_pp", prefill_layout.pp, pool_rule);
            require(prefill_layout.ep == 1, s, "prefill_ep", prefill_layout.ep, pool_rule);
            require(prefill_layout.dp == 1, s, "prefill_dp", prefill_layout.dp, pool_rule);
            require(prefill_max_batch == 0.0, s, "prefill_max_batch", prefill_max_batch, pool_rule);
            require(prefill_max_tokens == 0.0, s, "prefill_max_tokens", prefill_max_tokens, pool_rule);
            require(prefill_chunk_tokens == 0.0, s, "prefill_chunk_tokens", prefill_chunk_tokens, pool_rule);
            return;
        }
        constexpr std::string_view closed_loop = "a disaggregated row is priced as a closed-loop client's run (fixed_batch, prompts > 0)";
        require_word(how == scenario::fixed_batch, s, "scenario", to_string(how), closed_loop);
        require(prompts > 0.0, s, "prompts", prompts, closed_loop);
        constexpr std::string_view own_loop = "a disaggregated row is priced by its own simulated closed loop (`disaggregated_run`): no feature of the colocated scheduler";
        require(receive_interval == 1.0, s, "receive_interval", receive_interval, own_loop);
        require(min_waiting_prompts == 1.0, s, "min_waiting_prompts", min_waiting_prompts, own_loop);
        require(!prefill_alone, s, "prefill_alone", 1.0, own_loop);
        require(!outputs_per_block, s, "outputs_per_block", 1.0, own_loop);
        require(adp_timeout_iters == 0.0, s, "adp_timeout_iters", adp_timeout_iters, own_loop);
        require(!decode_cut.on(), s, "decode_target_max", decode_cut.max, own_loop);
        require(!median_ttft, s, "median_ttft", 1.0, own_loop);
        // The row's caps are the decode worker's, per decode attention rank (`decode_admission_of`).
        require(max_batch == 0.0 || (max_batch >= 1.0 && std::floor(max_batch) == max_batch), s, "max_batch", max_batch,
                "a disaggregated row's max_batch is its decode attention rank's cap on running requests: 0 (the "
                "engine's default) or a whole number, at least 1");
        require(max_tokens == 0.0 || (max_tokens >= 1.0 && std::floor(max_tokens) == max_tokens), s, "max_tokens",
                max_tokens,
                "a disaggregated row's max_tokens is its decode worker's tokens per step: 0 (the engine's default) or "
                "a whole number, at least 1");
        // The prefill worker's caps, per prefill attention rank (`prefill_admission_of`), within
        // sim::prefill_cap_max (the loader's and sim::prefill_admission's bound).
        const auto prefill_cap = [&](std::string_view field, double v, std::string_view what) {
            require(v == 0.0 || (v >= 1.0 && v <= sim::prefill_cap_max && std::floor(v) == v), s, field, v,
                    std::string("a prefill attention rank's ") + std::string(what) +
                        ": 0 (the engine's default) or a whole number, from 1 to 10⁹");
        };
        prefill_cap("prefill_max_batch", prefill_max_batch, "cap on the prompts of a pass");
        prefill_cap("prefill_max_tokens", prefill_max_tokens, "token budget of a pass");
        prefill_cap("prefill_chunk_tokens", prefill_chunk_tokens, "prompt chunk");
        deployment p = d;
        p.layout = prefill_layout;
        worker_pool{.d = p, .workers = prefill_workers}.validate();
        worker_pool{.d = d, .workers = decode_workers}.validate();
    }
};

[[noreturn]] inline void measurement::fail_dispatch() const {
    throw invalid_input(id, "replica_dispatch", to_string(dispatch), replica_dispatch_rule);
}

/// A benchmark client's lengths of mean `mean` at random-range-ratio r: whole tokens uniform on
/// [⌊r·L⌋, L], L = round(2·mean ÷ (1 + r)), so the mean (⌊r·L⌋ + L) ÷ 2 is `mean` to half a token
/// (vLLM benchmark_serving's random dataset: randint(int(L·r), L + 1)); r = 1: exactly `mean`.
[[nodiscard]] constexpr workload::length_distribution client_lengths(tokens_t mean, double r) {
    if (r >= 1.0) return workload::fixed(mean);
    const double high = detail::max(1.0, detail::const_trunc(2.0 * mean.value() / (1.0 + r) + 0.5));
    return workload::uniform(tokens(detail::max(1.0, detail::const_trunc(r * high))), tokens(high));
}

/// A row's prompt chunk, the one rule for its closed form (`offline_limits`) and its simulated run
/// (`closed_loop_limits`): where the engine chunks prompts, the row's token cap M = `max_tokens` (0: none given,
/// the engine's default). vLLM splits a prompt to the step's budget (--max-num-batched-tokens), SGLang at
/// --chunked-prefill-size (the InferenceMAX launch scripts set it equal to --max-prefill-tokens, or leave that at
/// its default); TensorRT-LLM with chunked context (`measurement::chunked_context`) cuts a prompt to what is left
/// of the step's budget, oldest first (microBatchScheduler.cpp `setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>`):
/// its chunk is the budget too. A row whose prompt steps run alone (`prefill_alone`) runs V0 with chunked prefill
/// off (`_schedule_default`, V0's non-chunked path; AMD's decode-target gate sits there too): whole prompts, the
/// step's token budget bounding how many, whatever the profile's chunking: 0.
[[nodiscard]] inline tokens_t row_prompt_chunk(const measurement& x) {
    const bool chunks = x.d.engine.scheduler.chunked_prefill || x.chunked_context;
    return tokens(x.max_tokens > 0.0 && chunks && !x.prefill_alone ? x.max_tokens : 0.0);
}

/// The engine's scheduler for a simulated run of `x` (a closed loop, or an online row whose engine
/// holds prompts: `holds_prompts`): the row's caps where it gives them, else the
/// engine's defaults (`with_engine_defaults`: max sequences, tokens per step, chunked prefill);
/// TensorRT-LLM reserves a sequence's whole KV at admission (GUARANTEED_NO_EVICT), vLLM and SGLang
/// admit on the KV in use and preempt when it runs out (their defaults), SGLang only where every
/// answer's end fits too (`scheduler_limits::ignore_eos_admission`: the client sends --ignore-eos).
[[nodiscard]] inline scheduler_limits closed_loop_limits(const measurement& x) {
    scheduler_limits given{.max_batch = x.max_batch, .max_tokens_per_step = x.max_tokens,
                           .reserve_full_sequence = !admits_on_kv_in_use(kind_of(x.engine)),
                           // InferenceMAX's client sends --ignore-eos and its SGLang server runs
                           // --disable-radix-cache: SGLang admits on every answer's end
                           .ignore_eos_admission = x.engine == serving_engine::sglang,
                           .receive_interval = x.receive_interval,
                           .prefill_alone = x.prefill_alone,  // or the engine's own (SGLang): with_engine_defaults
                           .min_waiting_prompts = x.min_waiting_prompts,
                           .outputs_per_block = x.outputs_per_block,
                           .adp_timeout_iters = x.adp_timeout_iters,
                           .adp_batching_wait_iters = x.adp_batching_wait_iters,
                           .decode_cut = x.decode_cut,
                           .admission_watermark = x.kv_watermark};
    given.prefill_chunk = row_prompt_chunk(x);
    scheduler_limits l = with_engine_defaults(given, x.d.engine);
    l.reserve_full_sequence = given.reserve_full_sequence;  // the row's engine admits, whichever profile prices its steps
    l = with_kv_admission(l, x.admission);                    // or as the row's launch states
    if (x.prefill_alone) l.prefill_chunk = tokens(0.0);  // not the profile's default chunk either (`row_prompt_chunk`)
    return l;
}

/// The caps an online row's closed form prices (`serve_online_latency`: the running-batch cap B and the
/// flow B ÷ t̄(B) it allows, docs/online-caps.md): the row's max batch, else the engine's max sequences,
/// and the KV room as the simulator counts it (`closed_loop_limits`: the same pool, sized for the row's
/// step budget, and the same admission reserve, a whole sequence for TensorRT-LLM, the KV in use for
/// vLLM and SGLang). The closed form prices whole prompts without a token cap, as it always has for these
/// rows: neither the token cap nor a prefill chunk is carried.
[[nodiscard]] inline scheduler_limits online_caps(const measurement& x) {
    const scheduler_limits l = closed_loop_limits(x);
    return {.max_batch = l.max_batch, .reserve = l.pool_reserve(), .reserve_full_sequence = l.reserve_full_sequence};
}

/// The deployment as the row ran it: its GPU's compute fractions at the clock the run pinned
/// (`achievable_fractions::at_clock`; unchanged where the row pinned none or the GPU's fractions
/// state no clock), and the GEMM table its harness loads at that clock (`deployment::gemm`).
[[nodiscard]] inline deployment as_run(const measurement& x) {
    deployment d = x.d;
    if (x.harness_gemm_table != nullptr) d.gemm.table = x.harness_gemm_table;
    return at_engine_clock(d, x.clock_MHz);
}

/// One replica of a deployment: a dense deployment's dp replicas are alike, so one of them is the deployment at dp = 1;
/// an expert-parallel deployment is one instance whole (its dp the attention ranks of its one group).
[[nodiscard]] constexpr deployment one_replica(deployment d) {
    if (!d.expert_parallel()) d.layout.dp = 1;
    return d;
}

/// The deployment as the measured client drove it (`as_run`): the engine's front end only where the client
/// came through the API server (`measurement::api_server`), none for an in-process harness.
[[nodiscard]] inline deployment as_driven(const measurement& x) {
    deployment d = as_run(x);
    if (!x.api_server) d.engine.overheads.request = seconds(0.0);
    return d;
}

/// The simulated run of a closed-loop measurement (`x.prompts` > 0): `x.prompts` requests with
/// `client_lengths` of the row's shape, batch · dp clients released at time 0 (the burst start),
/// each next prompt sent when an answer ends; seed 1, so the figures are the same on every run. The
/// servers start cold (`sim::options::cold_engine`): the benchmark launched them just before its burst,
/// so the opening pays the engine's cold opening (`engine_overheads::cold_opening`; 0 in most profiles) and,
/// where the row's `first_use_build` trigger is met, its first-use kernel build (`engine_overheads::first_use_build`).
/// A batch-latency row (`metric::batch_latency_s`) runs warm instead: its benchmark timed the batch after warm-up
/// iterations, so no cold opening.
[[nodiscard]] inline sim::result closed_loop_run(const measurement& x) {
    require(x.prompts > 0.0 && x.how == scenario::fixed_batch, x.id, "prompts", x.prompts,
            "a closed-loop run needs a fixed_batch row with prompts > 0");
    const workload::traffic t{.input = client_lengths(x.r.input, x.range_ratio),
                              .output = client_lengths(x.r.output, x.range_ratio),
                              .arrivals = workload::closed_loop(x.batch * x.d.layout.dp)};
    return sim::simulate(as_driven(x), t, {.limits = closed_loop_limits(x), .requests = x.prompts, .seed = 1, .keep_requests = false,
                                  .timeline_points = 0, .cold_engine = x.what != metric::batch_latency_s,
                                  .first_use_build = x.first_use_build});
}

/// A disaggregated row's pools as driven (`as_driven`: the front end where the client came through the
/// API server): the prefill pool's workers of `prefill_layout`, the decode pool's of the row's layout,
/// both the row's GPU and engine; and the KV path: the scale-up link where both pools fit in one
/// scale-up domain, else the NIC.
struct disaggregated_pools {
    worker_pool prefill, decode;
    kv_path path = kv_path::scale_out;
};
[[nodiscard]] inline disaggregated_pools pools_of(const measurement& x) {
    require(x.disaggregated(), x.id, "prefill_workers", x.prefill_workers,
            "a disaggregated run needs a row with prefill workers");
    const deployment d = as_driven(x);
    deployment p = d;
    p.layout = x.prefill_layout;
    disaggregated_pools s{.prefill = {.d = p, .workers = x.prefill_workers}, .decode = {.d = d, .workers = x.decode_workers}};
    s.path = s.prefill.gpus() + s.decode.gpus() <= static_cast<double>(d.hw.scale_up_domain) ? kv_path::scale_up
                                                                                            : kv_path::scale_out;
    return s;
}

/// A disaggregated row's prefill pool's scheduler (`closed_loop_limits`): the row's prefill caps
/// (`prefill_max_batch`, `prefill_max_tokens`, per prefill attention rank) where it gives them, else the
/// engine's defaults (the row's `max_batch`, `max_tokens` are the decode worker's: `decode_admission_of`).
[[nodiscard]] inline scheduler_limits prefill_limits(const measurement& x) {
    measurement y = x;
    y.max_batch = x.prefill_max_batch;
    y.max_tokens = x.prefill_max_tokens;
    return closed_loop_limits(y);
}

/// What a disaggregated row's prefill attention ranks admit (`sim::prefill_admission`), from
/// `prefill_limits`: a pass of at most B = max sequences prompts within the token budget M = max tokens
/// per step (SGLang --max-prefill-tokens: the profile's 16,384 where the row gives none), a prompt cut at
/// C = the row's `prefill_chunk_tokens`, else the engine's chunk, else M (TensorRT-LLM: max_num_tokens),
/// where the engine chunks; SGLang's pass rule (its first prompt whatever its length) and its hold of
/// each request's slot until its KV transfer has ended, `sim::sglang_prefill_slots_per_running_request` ×
/// B slots a rank (its metadata buffer; disaggregation/prefill.py frees it on the transfer's success),
/// TensorRT-LLM none past the pass (sim/disaggregated.hpp cites both).
[[nodiscard]] inline sim::prefill_admission prefill_admission_of(const measurement& x) {
    const scheduler_limits l = prefill_limits(x);
    const bool sglang = x.engine == serving_engine::sglang;
    const double none = std::numeric_limits<double>::infinity();
    const double b = l.max_batch > 0.0 ? l.max_batch : none;
    const engine_scheduler& e = x.d.engine.scheduler;
    const double chunk = x.prefill_chunk_tokens > 0.0 ? x.prefill_chunk_tokens : (e.chunked_prefill ? e.chunk.value() : 0.0);
    return {.max_running = b,
            .max_tokens_per_step = l.max_tokens_per_step,
            .chunk_tokens = chunk,
            .chunked = e.chunked_prefill,
            .first_prompt_always = runs_long_prompt_whole(x.d.engine.kind),  // one rule: serving/throughput.hpp
            .held_slots = sglang ? sim::sglang_prefill_slots_per_running_request * b : none};
}

/// What a disaggregated row's decode attention ranks admit (`sim::decode_admission`): the row's caps
/// (`max_batch`, `max_tokens`: the decode worker's, per attention rank) or the engine's defaults
/// (`closed_loop_limits`), the cap min(max sequences, max tokens per step) (a decode step carries one
/// token a sequence); TensorRT-LLM reserves the whole sequence after the prefill, SGLang the prompt and
/// `sim::sglang_reserved_decode_tokens` before it (its bootstrap), both as sim/disaggregated.hpp cites;
/// SGLang's decode worker under attention DP (the row's dp > 1) spends an idle lockstep iteration on
/// each join (`sim::decode_admission::idle_join_step`).
[[nodiscard]] inline sim::decode_admission decode_admission_of(const measurement& x) {
    const scheduler_limits l = closed_loop_limits(x);
    const double none = std::numeric_limits<double>::infinity();
    const double seqs = l.max_batch > 0.0 ? l.max_batch : none, toks = l.max_tokens_per_step > 0.0 ? l.max_tokens_per_step : none;
    const bool sglang = x.engine == serving_engine::sglang;
    return {.max_running = detail::min(seqs, toks),
            .reserve_full_sequence = l.reserve_full_sequence,
            .reserved_tokens = sglang ? sim::sglang_reserved_decode_tokens : 0.0,
            .before_prefill = sglang,
            .idle_join_step = sglang && x.d.layout.dp > 1};
}

/// The closed-loop run of a disaggregated row (`measurement::disaggregated`) bounded in closed form
/// (`disaggregated_closed_loop`, the asymptotic bounds): c = `batch` clients and `prompts` prompts of
/// the row's mean shape over the row's pools (`pools_of`), the prefill pool's step cap
/// (`prefill_limits`). It also holds the row to the pools' capacities (c ÷ A_d sequences per decode
/// rank within its KV cache, one prompt within a prefill rank's); the decode admission cap is the
/// simulated run's alone (`disaggregated_run`).
[[nodiscard]] inline disaggregated_loop disaggregated_bound(const measurement& x) {
    const disaggregated_pools s = pools_of(x);
    return disaggregated_closed_loop(s.prefill, s.decode, x.r, x.batch, x.prompts, s.path, prefill_limits(x));
}

/// The simulated closed-loop run of a disaggregated row (`sim::simulate_disaggregated`): the row's pools
/// (`pools_of`), c = `batch` clients, `prompts` prompts with `client_lengths` of the row's shape,
/// seed 1, the prefill ranks' admission (`prefill_admission_of`) and the decode ranks' admission
/// (`decode_admission_of`); the row held to the pools' capacities first (`disaggregated_bound`'s
/// checks). Prices the disaggregated rows (`predict`).
[[nodiscard]] inline sim::disaggregated_result disaggregated_run(const measurement& x) {
    (void)disaggregated_bound(x);  // the capacity checks, with field, value and rule
    const disaggregated_pools s = pools_of(x);
    const sim::disaggregated_client c{.input = client_lengths(x.r.input, x.range_ratio),
                                      .output = client_lengths(x.r.output, x.range_ratio),
                                      .clients = x.batch, .prompts = x.prompts, .seed = 1};
    return sim::simulate_disaggregated(s.prefill, s.decode, c, s.path, prefill_admission_of(x), decode_admission_of(x));
}

/// A run whose 99th-percentile TTFT is more than `stall_ratio` times its median: a few requests
/// waited for something no engine step explains (a stall), and the mean TTFT carries it. In the
/// InferenceMAX closed-loop runs the burst start alone gives p99 ÷ median up to 46 (at concurrency
/// 64 the first wave's last prompt waits for the 63 prefills before it); the 14 runs with a stall
/// (SGLang on B200, p99 69–81 s; SGLang MXFP4 on MI355X, p99 21–25 s) are at 71–325. The bar sits
/// between the two, set on those runs (tables/validation.md lists the rows it marks).
inline constexpr double stall_ratio = 60.0;
[[nodiscard]] inline bool stalled(const measurement& x) {
    return x.ttft_p99 > 0.0 && x.ttft_median > 0.0 && x.ttft_p99 > stall_ratio * x.ttft_median;
}

/// The mean gap between arrivals at one attention rank of an online measurement: the row's rate is
/// per serving instance (a replica, or one expert-parallel group), and an expert-parallel group
/// spreads its arrivals over its dp attention ranks, each with its own batch (`attention_ranks`):
/// gap = ranks ÷ rate. (MLPerf's DeepSeek-R1 Server rows are one EP group of 8 attention-DP ranks.)
[[nodiscard]] inline seconds_t online_interarrival(const measurement& x) {
    require(positive_finite(x.rate), x.id, "rate (requests/s)", x.rate, "an online run needs an arrival rate");
    return seconds(static_cast<double>(x.d.attention_ranks()) / x.rate);
}

/// The closed form's online point for row `x` on `d`: `serve_online_latency` at the row's gap per attention
/// rank (`online_interarrival`) under the engine's caps (`online_caps`: its running-batch cap and KV room,
/// docs/online-caps.md) — the one call every closed-form pricing of an online row makes. `d` is the row's
/// deployment as its client drove it (`as_driven`, the prediction's) or as run (`as_run`, the validation
/// tool's mechanism figures, with the engine's front end).
[[nodiscard]] inline online_latency online_closed_form(const measurement& x, const deployment& d) {
    return serve_online_latency(d, x.r, online_interarrival(x), online_caps(x));
}

/// `online_closed_form` on the row's deployment as its client drove it (`as_driven`): what `predict` prices.
[[nodiscard]] inline online_latency online_closed_form(const measurement& x) { return online_closed_form(x, as_driven(x)); }

/// Whether an online or offline row's first-come-first-served token budget holds prompts: the engine chunks
/// prompts to fill each step's budget M oldest first (`measurement::chunked_context`) and a mean
/// prompt is longer than M, M < I, so every prompt spans ⌈I ÷ (M − decodes)⌉ ≥ 2 steps and a newer
/// prompt waits for the older one's remaining chunks before its own start (TensorRT-LLM's
/// `setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>` hands the budget to the oldest context request
/// first). The closed forms' chunked branches (`detail::step_in_flight_first_token`, `serve_at_batch`'s
/// equal chunks) have no such wait; the simulator's step fills its budget in that order (sim/simulate-inl.hpp).
/// An offline row (trtllm-bench on a TensorRT engine, MLPerf Offline) is then priced by `offline_run`.
[[nodiscard]] inline bool fcfs_budget_holds_prompts(const measurement& x) {
    return (x.how == scenario::online || x.how == scenario::offline) && x.chunked_context && x.max_tokens >= 1.0 &&
           x.max_tokens < x.r.input.value();
}

/// Whether an online or offline row's scheduler holds prompts in a way only the simulator prices:
/// polls every N > 1 decode steps (vLLM V0's multi-step block), a minimum of waiting prompts,
/// prompt steps alone, TensorRT-LLM's attention-DP balance, a decode target with its prefill gate
/// (AMD's MLPerf V0 scheduler, `decode_target`), or (online) a first-come-first-served
/// token budget shorter than a prompt (`fcfs_budget_holds_prompts`, online or offline). Such a row is priced by
/// `online_run` or `offline_run`, the others by the closed forms (`serve_online`, `saturated`).
[[nodiscard]] inline bool holds_prompts(const measurement& x) {
    return ((x.how == scenario::online || x.how == scenario::offline) &&
            (x.receive_interval > 1.0 || x.min_waiting_prompts > 1.0 || x.prefill_alone || x.adp_timeout_iters > 0.0 ||
             x.decode_cut.on())) ||
           fcfs_budget_holds_prompts(x);
}

/// An online row's lengths for its simulated run: the mean shape where the row gives no spread, else
/// a lognormal of the row's mean and standard deviation (`workload::lognormal`, whole tokens; draws
/// above `max` drawn again, 0: none), so the run's live batch carries the length bias the closed
/// forms price from the same two moments (E[L²] = σ² + E[L]², `request_shape`).
[[nodiscard]] constexpr workload::length_distribution online_lengths(tokens_t mean, tokens_t spread, tokens_t max = {}) {
    return spread.value() > 0.0 ? workload::lognormal(mean, spread, max) : workload::fixed(mean);
}

/// The arrivals at one replica of an online row (rate λ = the row's, per replica) as its harness
/// dispatched them (`measurement::dispatch`): a random split leaves each replica a Poisson stream;
/// round robin gives each replica every k-th query of the client's Poisson stream at k·λ (k = dp),
/// so its gaps are Erlang-k, a gamma of mean 1/λ and coefficient of variation 1/√k (the sum of k
/// exponential gaps). Least pending: these round-robin gaps are the first pass of its simulated run
/// (`least_pending_arrivals`).
[[nodiscard]] constexpr workload::arrival_process online_arrivals(const measurement& x) {
    const seconds_t gap = seconds(1.0 / x.rate);
    const double k = static_cast<double>(x.d.instances());
    if (x.dispatch == replica_dispatch::random_split || k <= 1.0) return workload::poisson(gap);
    return workload::gamma(gap, 1.0 / detail::const_sqrt(k));  // cv of an Erlang-k gap: √k ÷ k
}

/// One replica's queries under the fewest-pending dispatch (NVIDIA's harness, Server: each query to
/// the core with the fewest samples in flight; closed/NVIDIA/code/llmlib/factory.py
/// `_create_scheduler`): the client's Poisson stream at k·λ (k = dp) over k·n queries, each in flight
/// at its replica from its arrival for `in_flight` seconds (a constant: the mean end-to-end time of a
/// round-robin run), lengths drawn from `t`; replica 0's share (about n of the k·n sent), seed 1.
/// Ties go to one of the tied replicas at random (seed 2), not to the first as the harness's `min`
/// does: the first core wins every tie and takes more than λ (+0.2% to +1.7% at the rows' loads),
/// the measured TTFT is the mean over all replicas, and with ties at random every replica is alike,
/// so replica 0 gets λ on average and its queries stand for the mean replica's.
[[nodiscard]] inline std::vector<workload::request> least_pending_arrivals(const workload::traffic& t, per_second_t rate,
                                                                         double replicas, double n, seconds_t in_flight) {
    require(positive_finite(rate.value()), "least-pending dispatch", "rate (queries/s per replica)", rate.value(),
            "must be positive and finite");
    require(replicas >= 1.0 && replicas <= 1e6 && std::floor(replicas) == replicas, "least-pending dispatch", "replicas",
            replicas, "a whole number of replicas, from 1 to 10⁶");
    require(n >= 1.0 && n <= 1e7 && std::floor(n) == n, "least-pending dispatch", "queries per replica", n,
            "a whole number, from 1 to 10⁷");
    require(non_negative_finite(in_flight.value()), "least-pending dispatch", "time in flight (s)", in_flight.value(),
            "must be zero or positive and finite");
    const std::size_t k = static_cast<std::size_t>(replicas);
    workload::sampler draw(1);
    workload::sampler ties(2);  // its own stream: the arrivals and lengths are seed 1's whatever the ties
    std::vector<std::vector<double>> ends(k);  // each replica's queries in flight: their end times, a min-heap
    std::vector<workload::request> mine;
    double now = 0.0;
    const auto total = static_cast<std::size_t>(replicas * n);
    for (std::size_t i = 0; i < total; ++i) {
        now += draw.exponential() / (replicas * rate.value());  // the client's Poisson stream at k·λ
        std::size_t pick = 0;
        double tied = 0.0;  // replicas seen so far with the fewest in flight
        for (std::size_t j = 0; j < k; ++j) {
            std::vector<double>& e = ends[j];
            while (!e.empty() && e.front() <= now) {
                std::pop_heap(e.begin(), e.end(), std::greater<>{});
                e.pop_back();
            }
            if (j == 0 || e.size() < ends[pick].size()) {
                pick = j;
                tied = 1.0;
            } else if (e.size() == ends[pick].size()) {
                tied += 1.0;
                if (ties.unit() * tied < 1.0) pick = j;  // each of the tied replicas with chance 1 ÷ tied
            }
        }
        ends[pick].push_back(now + in_flight.value());
        std::push_heap(ends[pick].begin(), ends[pick].end(), std::greater<>{});
        const double in = draw.length(t.input), out = draw.length(t.output);
        if (pick == 0) mine.push_back({.arrival = seconds(now), .input = tokens(in), .output = tokens(out)});
    }
    return mine;
}

/// The means of an online row's simulated run, over the requests of its steady state.
struct online_means {
    double ttft = 0, tpot = 0;  ///< s
    double output_tokens_per_s = 0;
    /// Sequences per attention rank by Little's law on these means, λ · (TTFT + (O − 1) · TPOT),
    /// as the validation report counts the measured runs'.
    double concurrency = 0;
};

/// The simulated run of an online row whose engine holds prompts (`holds_prompts`): arrivals at the
/// row's rate to one serving instance (a replica; an expert-parallel group spreads them over its dp
/// attention ranks), Poisson or as the harness dispatched them over the replicas (`online_arrivals`), every request of the row's mean shape or, where the row gives its
/// lengths' spreads, drawn from them (`online_lengths`), the engine's scheduler as the
/// row gives it (`closed_loop_limits`), seed 1. The engine starts empty and drains at the end: the
/// means are over the middle half of the requests by arrival (their TTFT, and their
/// (E2E − TTFT) ÷ (O − 1) as MLPerf's loadgen reports TPOT), at least 4,000 requests and 8 times the
/// simulated concurrency, so the half spans several end-to-end times. A rate beyond the closed form's
/// capacity is refused as `serve_online` refuses it (a held engine serves no more than a free one).
[[nodiscard]] inline online_means online_run(const measurement& x) {
    require_word(holds_prompts(x), x.id, "scenario", to_string(x.how),
            "a simulated online run needs an online row whose scheduler holds prompts");
    require(positive_finite(x.rate), x.id, "rate (requests/s)", x.rate, "an online run needs an arrival rate");
    (void)online_closed_form(x, as_run(x));  // throws where the rate is beyond capacity
    // In process (MLPerf's harnesses): no API server's front end; one replica of a dense deployment: the row's rate is its own.
    const deployment d = one_replica(as_driven(x));
    // Drawn lengths stay within the model's context: prompts that vary up to half of it, answers up
    // to what the longest prompt leaves (a redraw past either: far in the tails of the rows' spreads).
    const double context = static_cast<double>(x.d.m.max_position);
    const workload::length_distribution input = online_lengths(x.r.input, x.r.input_spread, tokens(context / 2.0));
    const workload::traffic t{.input = input,
                              .output = online_lengths(x.r.output, x.r.output_spread, tokens(context - input.longest())),
                              .arrivals = online_arrivals(x)};
    const scheduler_limits l = closed_loop_limits(x);
    auto run = [&](double n) { return sim::simulate(d, t, {.limits = l, .requests = n, .seed = 1, .timeline_points = 0}); };
    double n = 4000;
    sim::result r = run(n);
    if (8.0 * r.mean_batch > n) {
        n = std::ceil(8.0 * r.mean_batch);
        r = run(n);
    }
    const double replicas = static_cast<double>(x.d.instances());
    if (x.dispatch == replica_dispatch::least_pending && replicas > 1.0) {
        // The fewest-pending dispatch: the round-robin run above gives the time a query stays in flight
        // (its mean end to end over all its requests, ramp and drain included), then one replica's
        // queries as the dispatch sends them, simulated.
        const std::vector<workload::request> mine =
            least_pending_arrivals(t, per_second(x.rate), replicas, n, seconds(r.e2e.mean));
        r = sim::simulate(d, mine, {.limits = l, .seed = 1, .timeline_points = 0});
    }
    const std::size_t lo = r.requests.size() / 4, hi = r.requests.size() - lo;
    // TPOT over the answers of more than one token (a drawn length may be 1: it has no TPOT).
    double ttft = 0, tpot = 0, answers = 0;
    for (std::size_t i = lo; i < hi; ++i) {
        ttft += r.requests[i].ttft;
        if (r.requests[i].output > 1.0) {
            tpot += r.requests[i].tpot;
            answers += 1.0;
        }
    }
    const double k = static_cast<double>(hi - lo);
    const double mean_tpot = answers > 0.0 ? tpot / answers : 0.0;
    const double lambda = 1.0 / online_interarrival(x).value();
    return {.ttft = ttft / k, .tpot = mean_tpot, .output_tokens_per_s = r.output_tokens_per_s,
            .concurrency = lambda * (ttft / k + (x.r.output.value() - 1.0) * mean_tpot)};
}

/// The caps an offline row's closed form prices (`saturated`, `saturated_run`): the row's max batch and token cap
/// per step M, and its prompt chunk where the engine chunks prompts (`row_prompt_chunk`, the rule the simulated
/// run's `closed_loop_limits` applies: vLLM's and SGLang's chunked prefill, TensorRT-LLM's chunked context, oldest
/// first, microBatchScheduler.cpp `setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>`). A prompt of I ≤ M tokens is
/// then one chunk, the closed form's whole prompt; the steady state's batch b keeps its decodes plus the prompt tokens
/// they bring near M, b · (1 + I ÷ O) ≈ M rounded to the nearest sequence (`admissible_batch`). A chunk that does not
/// cut the mean prompt (M ≥ I) is left out, the prompt priced whole as before: the same figure, and a row whose
/// prompt lengths vary stays priced (`serve_at_batch` prices varying prompts whole only).
[[nodiscard]] inline scheduler_limits offline_limits(const measurement& x) {
    const tokens_t chunk = row_prompt_chunk(x);
    return with_kv_admission({.max_batch = x.max_batch, .max_tokens_per_step = x.max_tokens,
                              .prefill_chunk = chunk.value() < x.r.input.value() ? chunk : tokens(0.0)},
                             x.admission);  // the row's stated admission; else a whole-sequence reserve
}

/// Refuses, named, an offline run of `x` that is not simulated: not an offline row (field scenario), or an offline
/// row whose scheduler holds no prompts (`holds_prompts`: its scheduler columns all at their defaults).
inline void require_simulated_offline(const measurement& x, std::string_view what) {
    require_word(x.how == scenario::offline, x.id, "scenario", to_string(x.how), std::string(what) + " needs an offline row");
    require(holds_prompts(x), x.id,
            "receive_interval / prefill_alone / min_waiting_prompts / adp_timeout_iters / decode_target_max / chunked_context",
            x.receive_interval,
            std::string(what) + " needs a scheduler that holds prompts: receive_interval above 1, prefill_alone 1, "
                                "min_waiting_prompts above 1, adp_timeout_iters or decode_target_max set, or chunked_context 1 "
                                "with max_tokens below the prompt (else the closed form prices the row)");
}

/// The largest replica's share s of an Offline row's samples: its `replica_share_max`, or where it gives none an equal
/// split over its R instances, s = 1 ÷ R.
[[nodiscard]] inline double largest_share(const measurement& x) {
    return x.replica_share_max.value_or(1.0 / static_cast<double>(x.d.instances()));
}

/// The requests the largest replica of an Offline row runs, of the row's N (`requests` > 0): max(1, round(s · N)), s
/// its `largest_share`.
[[nodiscard]] inline double largest_replica_requests(const measurement& x) {
    return std::max(1.0, std::round(x.requests * largest_share(x)));
}

/// An Offline run's output tokens/s from its largest replica's rate r: each replica runs its fixed share of the N
/// samples and the run ends with the largest, s, T = s · N · O ÷ r, so tokens/s = N · O ÷ T = r ÷ s
/// (`measurement::replica_share_max`, `largest_share`; research A F1-F2); an equal split s = 1 ÷ R gives R · r.
[[nodiscard]] constexpr double offline_run_rate(double replica_rate, double largest_share) {
    return replica_rate / largest_share;
}

/// How an offline row's simulated run is sized (`offline_run`): the batch B (`max_batch`) of the row's mean shape on
/// one replica (one attention rank of an expert-parallel group) under the row's caps (max sequences, max tokens per
/// step) and its engine's admission as the run's scheduler applies it (`closed_loop_limits(x).reserve_full_sequence`:
/// a whole sequence I + O for TensorRT-LLM, the KV in use I + O/2 for vLLM and SGLang), `limited_by` naming the bound;
/// and the requests a replica runs: its largest replica's share of the row's `requests` where it gives them
/// (`largest_replica_requests`), else
/// n = max(4,000, ⌈16 · B · dp⌉) (dp: the attention ranks a simulated instance holds, 1 for a dense replica), so
/// that the ramp and the drain are a small part of the run.
struct offline_sizing {
    batch_limit batch;                ///< B and the bound that set it
    double requests = 0;              ///< requests one simulated instance runs
    bool whole_sequences = false;     ///< admission: a whole sequence reserved (else the KV in use)
    bool from_row = false;            ///< `requests` is the row's (÷ its instances), not 16 × B
    double ranks = 1;                 ///< dp above: the attention ranks of one simulated instance
};

[[nodiscard]] inline offline_sizing offline_run_batch(const measurement& x) {
    require_simulated_offline(x, "a simulated offline run's batch");
    const bool whole = closed_loop_limits(x).reserve_full_sequence;
    scheduler_limits sizing = offline_limits(x);
    sizing.reserve_full_sequence = whole;
    offline_sizing o{.batch = max_batch(as_run(x), x.r, sizing),
                     .whole_sequences = whole,
                     .from_row = x.requests > 0.0};
    const deployment d = as_driven(x);
    o.ranks = d.expert_parallel() ? static_cast<double>(d.layout.dp) : 1.0;
    o.requests = o.from_row ? largest_replica_requests(x) : std::max(4000.0, std::ceil(16.0 * o.batch.batch * o.ranks));
    return o;
}

/// The simulated run of an offline row whose scheduler holds prompts (`holds_prompts`): every request
/// queued at time 0 on each serving instance (MLPerf Offline hands each replica its share at once,
/// and AMD's harness queues them all in one `LLM.generate`), the row's mean shape or its spreads'
/// draws (`online_lengths`), the engine's scheduler as the row gives it (`closed_loop_limits`: vLLM
/// admits a prompt on its own blocks and preempts the newest sequence, recomputed later, when a
/// decode finds the cache full — V0 `Scheduler._schedule_prefills` / `_schedule_running`), seed 1.
/// Output tokens/s of all instances = tokens ÷ makespan, as MLPerf's LoadGen reports an Offline run,
/// over `requests` (÷ the instances), or where the row gives none (steady state) over 16 times its
/// sizing batch per instance (`offline_run_batch`; at least 4,000 requests), so that the ramp at the
/// start and the drain at the end are a small part of the run.
[[nodiscard]] inline double offline_run(const measurement& x) {
    require_simulated_offline(x, "a simulated offline run");
    const deployment d = one_replica(as_driven(x));  // the largest replica: its share of the requests
    const double context = static_cast<double>(x.d.m.max_position);
    const workload::length_distribution input = online_lengths(x.r.input, x.r.input_spread, tokens(context / 2.0));
    const double n = offline_run_batch(x).requests;
    const workload::traffic t{.input = input,
                              .output = online_lengths(x.r.output, x.r.output_spread, tokens(context - input.longest())),
                              .arrivals = workload::closed_loop(n)};
    const double replica_rate = sim::simulate(d, t, {.limits = closed_loop_limits(x), .requests = n, .seed = 1,
                                                     .keep_requests = false, .timeline_points = 0})
                                    .output_tokens_per_s;
    return offline_run_rate(replica_rate, largest_share(x));  // the run ends with its largest replica
}

/// `x` as its engine ran it (`answer_count`): answers of O_eng = (O − k) ÷ ρ tokens (`engine_output_tokens`), their
/// spread σ ÷ ρ (k is the same on every answer, ρ scales each length), counted in the engine's own tokens. A row in
/// the engine's own count comes back as it is.
[[nodiscard]] inline measurement in_engine_tokens(measurement x) {
    if (x.answer_count.engine_own()) return x;
    x.r.output = engine_output_tokens(x.r.output, x.answer_count);
    x.r.output_spread = tokens(x.r.output_spread.value() / x.answer_count.ratio);
    x.answer_count = {};
    return x;
}

/// The figure the cost model gives for measurement `x`'s request shape as it stands, in the engine's own tokens
/// (`predict` calls it on the engine's answers, `in_engine_tokens`).
[[nodiscard]] inline double predict_engine_tokens(const measurement& x) {
    if (x.what == metric::batch_latency_s) x.require_batch_latency();  // only a colocated closed loop gives a makespan
    const deployment d = as_driven(x);
    switch (x.how) {
        case scenario::single_prefill: return prefill_pass(d, 1.0, x.r.input, tokens(0.0)).time().value();
        case scenario::offline: {
            if (holds_prompts(x)) return offline_run(x);  // the engine's scheduler as simulated, all queued at once
            const scheduler_limits l = offline_limits(x);
            if (x.requests > 0)  // the largest replica's run of its round(s · N) requests, in waves; the run ends with it
                return offline_run_rate(
                    saturated_run(one_replica(d), x.r, largest_replica_requests(x), l).output_rate.value(), largest_share(x));
            // Steady state: one replica's rate is the deployment's ÷ its R alike instances.
            return offline_run_rate(saturated(d, x.r, l).output_rate.value() / static_cast<double>(d.instances()),
                                    largest_share(x));
        }
        case scenario::online: {
            if (holds_prompts(x)) {  // the engine's scheduler holds prompts: its run as simulated, steady-state means
                const online_means s = online_run(x);
                return x.what == metric::ttft_s ? s.ttft : x.what == metric::tpot_s ? s.tpot : s.output_tokens_per_s;
            }
            const serving_point s = online_closed_form(x, d).point;
            return x.what == metric::ttft_s ? s.ttft.value()
                   : x.what == metric::tpot_s ? s.tpot.value()
                                              : s.output_rate.value();
        }
        case scenario::fixed_batch: {
            if (x.disaggregated()) {  // prefill and decode pools, the client's closed loop as simulated
                const sim::disaggregated_result s = disaggregated_run(x);
                require(x.what != metric::tpot_s || s.tpot_requests > 0.0, x.id, "output_tokens", x.r.output.value(),
                        "a TPOT row needs answers of more than one token (every simulated answer had one)");
                return x.what == metric::ttft_s ? s.ttft.mean
                       : x.what == metric::tpot_s ? s.tpot.mean
                                                  : s.output_tokens_per_s;
            }
            if (x.prompts > 0.0) {  // the client's run as simulated: mean TTFT and TPOT over requests, tokens ÷ makespan
                const sim::result s = closed_loop_run(x);
                if (x.what == metric::batch_latency_s) return s.makespan;  // the batch's hand-over to its last token
                if (x.what == metric::ttft_s && x.median_ttft) return s.ttft.p50;  // the run's median, like for like
                return x.what == metric::ttft_s ? s.ttft.mean
                       : x.what == metric::tpot_s ? s.tpot.mean
                                                  : s.output_tokens_per_s;
            }
            const serving_point s = serve_at_batch(d, x.r, x.batch);
            return x.what == metric::ttft_s ? s.ttft.value()
                   : x.what == metric::tpot_s ? s.tpot.value()
                                              : s.output_rate.value();
        }
    }
    return 0.0;
}

/// The figure the cost model gives for measurement `x`, run on `x.d` as it stands, in the row's unit: its engine's
/// answers priced (`in_engine_tokens`), the figure counted as the row's harness counts (`in_reported_tokens`).
[[nodiscard]] inline double predict(const measurement& x) {
    if (x.answer_count.engine_own()) return predict_engine_tokens(x);
    return in_reported_tokens(x.what, x.r.output, x.answer_count, predict_engine_tokens(in_engine_tokens(x)));
}

/// What calibration may change: the kernels' achievable fractions and the links' α and β.
struct efficiency_parameters {
    double hbm = 1.0;              ///< sustained ÷ spec HBM bandwidth
    double matmul = 1.0;           ///< e∞ of the GEMM size curve
    double matmul_half_dim = 0.0;  ///< n₀ of the GEMM size curve
    double attention = 1.0;        ///< fused attention ÷ BF16 peak
    double kernel_overhead = 0.0;  ///< seconds per kernel
    double link_latency = 0.0;     ///< seconds, α of the scale-up link (where TP and EP collectives run)
    double link_fraction = 1.0;    ///< achieved ÷ catalogued per-direction bandwidth of the scale-up link
    /// Seconds per request: the engine's front end (`engine_overheads::request`), which the
    /// deployment's engine carries, not the hardware: `with_efficiencies` leaves it, and a fit
    /// with it free sets it on every fitted row's engine (plan/calibrate.hpp).
    double request_overhead = 0.0;
    /// Seconds per kernel: the host's enqueue of a step without CUDA graphs (`engine_overheads::host_enqueue`),
    /// the engine's like `request_overhead`: a fit with it free sets it on every fitted row's engine.
    double host_enqueue = 0.0;
    /// Seconds, once, and seconds per opening prompt token: a benchmark run's cold opening
    /// (`engine_overheads::cold_start`, `cold_prompt_token`), the engine's like `request_overhead`.
    double cold_start = 0.0;
    double cold_prompt_token = 0.0;
    /// Seconds, once: a cold benchmark run's first-use kernel build (`engine_overheads::first_use_build`), the engine's.
    double first_use_build = 0.0;
    /// Seconds per request of a serial prompt step (`engine_overheads::prefill_request`), the engine's.
    double prefill_request = 0.0;
    /// Seconds: vLLM V0's scheduler pass, fixed, per TP rank beyond the first, per scheduled sequence
    /// (`engine_overheads::v0_pass`, `v0_pass_rank`, `v0_pass_sequence`), the engine's.
    double v0_pass = 0.0, v0_pass_rank = 0.0, v0_pass_sequence = 0.0;
    /// Seconds per sequence-step: V0's synchronous output processing (`engine_overheads::v0_output_token`), the engine's.
    double v0_output_token = 0.0;
    /// Seconds per m-block: an expert runner over the all-to-all's padded buffer (`engine_moe::padded_moe_block`), the engine's.
    double padded_moe_block = 0.0;

    [[nodiscard]] bool operator==(const efficiency_parameters&) const = default;
};

/// The parameters a hardware descriptor carries now (link_fraction 1: the links as catalogued).
[[nodiscard]] inline efficiency_parameters parameters_of(const hardware& h) {
    const achievable_fractions& e = h.gpu.efficiency;
    return {.hbm = e.hbm, .matmul = e.matmul, .matmul_half_dim = e.matmul_half_dim, .attention = e.attention,
            .kernel_overhead = e.kernel_overhead.value(), .link_latency = h.scale_up.latency.value(),
            .link_fraction = 1.0};
}

/// h with parameters p: fractions replaced, the scale-up link's latency set to α and its bandwidth
/// scaled by the fraction (the catalog's figure × p.link_fraction).
[[nodiscard]] inline hardware with_efficiencies(hardware h, const efficiency_parameters& p) {
    achievable_fractions& e = h.gpu.efficiency;
    e.hbm = p.hbm;
    e.matmul = p.matmul;
    e.matmul_half_dim = p.matmul_half_dim;
    e.attention = p.attention;
    e.kernel_overhead = seconds(p.kernel_overhead);
    h.scale_up.latency = seconds(p.link_latency);
    h.scale_up.per_direction = h.scale_up.per_direction * p.link_fraction;
    return h;
}

/// The prediction for `x` with its hardware's efficiency parameters replaced by `p`.
[[nodiscard]] inline double predict(const measurement& x, const efficiency_parameters& p) {
    measurement y = x;
    y.d.hw = with_efficiencies(x.d.hw, p);
    return predict(y);
}

/// The catalog profile of the engine that produced `x` on `x`'s GPU (catalog/engines.hpp): the one
/// whose version range covers the row's `engine_version`, else the engine's default there; nothing
/// when the catalog has no profile of that engine for the GPU's architecture.
[[nodiscard]] inline std::optional<engine_profile> own_engine(const measurement& x) {
    const std::optional<gpu_architecture> a = catalog::architecture_of(x.d.hw.name);
    if (!a) return std::nullopt;
    return catalog::find_engine(kind_of(x.engine), *a, x.engine_version);
}

/// `x` on engine `e` with the row's own run carried onto it (its build's fusions, its 16-bit dense
/// GEMMs, its KV memory flag, its CUDA graphs): every path that puts a row on an engine (its own,
/// a fit's profile without launch costs, `llmcost calibrate --engine`) goes through here, so no
/// flag of the run is dropped.
[[nodiscard]] inline measurement on_engine(measurement x, const engine_profile& e) {
    x.d.engine = e;
    x.d.engine.kernels.fp4_quantization_fused = x.fp4_quantization_fused;  // the row's build, not the profile's default
    x.d.engine.kernels.gemm_all_reduce_fused = x.gemm_all_reduce_fused;
    x.d.engine.collectives.quick_reduce = false;  // the row's launch environment: on where it says (`with_quick_reduce`)
    if (x.quick_reduce) x.d.engine = with_quick_reduce(x.d.engine, x.d.layout.tp, x.id, "quick_reduce");
    x.d.engine.kernels.wide_dense_max_tokens = x.fp16_dense_max_tokens;     // the row's run
    if (x.kv_memory_fraction) x.d.engine = with_kv_memory_fraction(x.d.engine, *x.kv_memory_fraction);  // the row's launch flag
    if (x.kv_block_tokens) x.d.engine = with_kv_block_tokens(x.d.engine, *x.kv_block_tokens);  // the row's harness
    if (x.a2a_dispatch_cap_tokens) x.d.engine = with_dispatch_cap(x.d.engine, *x.a2a_dispatch_cap_tokens);  // its launch env
    x.d.engine = with_expert_routing(x.d.engine, x.routing);  // the row's launch: its experts chosen as it ran
    if (x.cuda_graphs) {  // the row's run, where it says: eager steps each enqueued by the host
        x.d.engine.overheads.cuda_graphs = *x.cuda_graphs;
        x.d.engine.overheads.eager_enqueue = !*x.cuda_graphs;
    }
    if (x.eager_prompt) x.d.engine.overheads.prompt_launch = *x.eager_prompt;  // the row's run, where it says
    x.d.engine.overheads.v0_loop = x.v0_loop;  // the row's engine loop: vLLM V0 where it says, else the profile's own
    x.d.engine.overheads.v0_steps_per_pass = x.v0_loop ? x.receive_interval : 1.0;  // V0 multi-step: num_scheduler_steps
    return x;
}

/// `x` priced by its own engine's profile where the catalog has one; otherwise on the engine it
/// stands on (the deployment's, the reference unless set), the run's flags carried either way.
[[nodiscard]] inline measurement with_own_engine(measurement x) {
    const std::optional<engine_profile> e = own_engine(x);
    return on_engine(x, e ? *e : x.d.engine);
}

/// predicted ÷ measured − 1.
[[nodiscard]] inline double relative_error(const measurement& x, double predicted) { return predicted / x.value - 1.0; }

}  // namespace llmcost::plan
