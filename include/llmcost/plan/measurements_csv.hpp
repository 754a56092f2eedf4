#pragma once
/// \file
/// Reads measurements (plan/measurement.hpp) from a CSV file — the loader lives beside the planning
/// layer it feeds, and uses the io component's CSV and config.json readers (link `llmcost::io`
/// and `llmcost::plan`): `tables/measurements.csv`, or your
/// own runs for `llmcost calibrate`. One row is one measured figure with the configuration that
/// produced it. Columns, found by name (others, such as `notes`, are ignored):
///
/// | column | meaning |
/// |---|---|
/// | `id` | a unique name for the row |
/// | `role` | `calibration` (may be fitted) or `check` (never fitted) |
/// | `model` | a catalog model name, or a path to a `config.json` relative to the CSV file |
/// | `hardware` | a catalog GPU name |
/// | `engine` | the serving engine: `trtllm`, `vllm` or `sglang` |
/// | `engine_version` | the engine's version as the source states it (required) |
/// | `tp`, `pp`, `ep`, `dp` | the layout (whole numbers ≥ 1) |
/// | `weights`, `kv` | number formats (`bf16`, `fp8`, …); empty = the model's own |
/// | `excluded_modules` | optional: the modules the row's checkpoint keeps in BF16 while the rest is in `weights` (its quantizer's exclude list: ModelOpt `exclude_modules`, Quark `exclude_layers`), separated by spaces: `attention_in` (every attention input projection; MLA q_a, q_b, kv_a), `attention_kv_b` (MLA's KV up-projection), `attention_out` (o_proj / wo), `lm_head`, `embedding`; their matmuls at the BF16 peak and curve, their bytes at 16 bits (`with_formats(d, weights, kv, kept)`); empty = every weight in `weights` |
/// | `scenario` | `offline`, `online`, `fixed_batch` or `single_prefill` |
/// | `requests`, `max_batch`, `max_tokens` | offline run size and engine caps (0 or empty = none); on a disaggregated row the decode worker's caps, per decode attention rank: `max_batch` its running requests (TensorRT-LLM max_batch_size, SGLang --max-running-requests ÷ dp under DP attention), `max_tokens` its tokens per step (TensorRT-LLM max_num_tokens), whole numbers; empty = the engine's defaults; the prefill worker's caps are the `prefill_max_batch`, `prefill_max_tokens`, `prefill_chunk_tokens` columns (`plan::prefill_limits`, `plan::prefill_admission_of`) |
/// | `rate_per_s` | online arrival rate per serving instance (a replica, or one expert-parallel group) |
/// | `batch` | fixed_batch concurrency |
/// | `prompts` | optional: a fixed_batch run by a closed-loop client with a burst start (all clients' first prompts at once), this many prompts in all, priced by the simulator; empty or 0 = steady state |
/// | `range_ratio` | optional: that client's random-range-ratio r (lengths uniform on [r·L, L] around the row's mean); empty = 1, fixed lengths |
/// | `api_server` | optional: 1 when the client came through the engine's API server (HTTP; its TTFT carries the engine's front end), 0 or empty in process (trtllm-bench, MLPerf harnesses) |
/// | `norm_quant_fusion` | optional: 0 = the engine build quantizes FP4 GEMM activations in a kernel of their own (TensorRT-LLM's `norm_quant_fusion` off), priced on the engine's curve with that kernel (B19); empty or 1 = fused |
/// | `gemm_allreduce_plugin` | optional: 1 = the engine build runs each row-parallel GEMM with its TP all-reduce in one kernel (TensorRT-LLM's `gemm_allreduce_plugin`), the all-reduce priced past the GEMM it overlaps; empty or 0 = after the GEMM |
/// | `quick_reduce` | optional: `int4` = the run's launch turned on the engine's quantized all-reduce (SGLang on ROCm: ROCM_QUICK_REDUCE_QUANTIZATION=INT4), priced on the engine profile's QuickReduce curve for the messages of its band (TP 2, 4 or 8; a profile without the curve is refused); empty or `none` = not set. Other levels (fp, int8, int6) have no measured curve here and are refused |
/// | `cuda_graphs` | optional: 1 = the run captured its steps in CUDA graphs, 0 = it ran them eagerly, as its configuration states (MLPerf `use_graphs`, vLLM `enforce_eager: True` in AMD's harness): every kernel then pays the engine's `launch_eager`, and an engine that prices the host's enqueue (`host_enqueue`) holds each step to at least kernels × it; empty = the engine profile's default |
/// | `eager_prompt` | optional: how the run's prompt steps pay the host's eager launch H = kernels × the engine's `prefill_launch_us`, as its configuration states: `overlap` = they run eagerly, launched while the step before runs (TensorRT-LLM's PyTorch backend, its overlap scheduler on): t = max(t_GPU, H − t_prev); `serial` = eagerly with the overlap scheduler off (Dynamo's TensorRT-LLM prefill workers, `disable_overlap_scheduler: True`): t = max(t_GPU, H); `0` = not priced (a TensorRT engine's C++ executor, or, on TensorRT-LLM PyTorch-backend rows with graphs on, the overlapped launch left to the fitted front end: docs/trtllm-eager-prompt.md section 5); empty = the engine profile's rule (where CUDA graphs are on, overlapped) |
/// | `fp16_dense_max_tokens` | optional: steps of at most this many tokens run the dense linear layers (8-bit weights) as 16-bit GEMMs on a 16-bit copy of the weights, as the run's configuration turns on (AMD's MLPerf Mixtral Server yamls, `VLLM_MOE_USE_FP16_GEMM_FOR_SMALL_FP8_INPUTS`: 2560); empty or 0 = never |
/// | `kv_memory_fraction` | optional: the run's own KV memory fraction where its launch flags state it (SGLang `--mem-fraction-static`, vLLM `--gpu-memory-utilization`, TensorRT-LLM `kv_cache_free_gpu_mem_fraction`), sized into the KV pool by the engine's rule (docs/kv-pool.md); empty = the engine profile's default; on a disaggregated row the decode worker's (its KV pool bounds the decode ranks' admission, `sim::decode_admission`), carried onto both pools' engine (the prefill pool's KV only has to hold one prompt) |
/// | `ttft_median_s`, `ttft_p99_s` | optional: a TTFT row's median and 99th percentile over the run's requests, where the artifact gives them beside the mean; empty = not given |
/// | `receive_interval` | optional: decode steps between the server's polls for new requests (SGLang `--scheduler-recv-interval`, vLLM V0's `num_scheduler_steps`; TensorRT-LLM's attention-DP balance has columns of its own, `adp_timeout_iters`), simulated for a closed-loop or online row; empty = 1, every step |
/// | `min_waiting_prompts` | optional: prompts that must wait before a scheduler pass admits any (AMD's MLPerf vLLM scheduler, `VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY`), simulated; empty = 1, any |
/// | `decode_target_min`, `decode_target_max`, `decode_target_step`, `prefill_free_kv_tokens` | optional: AMD's MLPerf vLLM V0 scheduler as the run set it (`VLLM_LLAMA2_MLPERF_SCHED` 1 with its `MIN_TARGET_DECODE_BATCH`, `MAX_TARGET_DECODE_BATCH`, `STEP_DECODE_BATCH`, and `MIN_REQUIRE_PREFILL_GPU_BLOCK` × the KV block size in tokens): a pass decodes at most the target of its running sequences, the rest waiting with their KV, and prefills only below the maximum running and above the free-KV threshold (`decode_target`), simulated; the four columns together, empty = 0, off |
/// | `adp_timeout_iters`, `adp_batching_wait_iters` | optional: TensorRT-LLM's attention-DP balance as the run set it (`attention_dp_config` enable_balance with timeout_iters T and batching_wait_iters W; the engine's defaults 50 and 10 where the run enabled it without them), simulated over the row's dp attention ranks (`sim::adp_balance_step`); empty or 0 = off |
/// | `chunked_context` | optional: 1 = the engine cuts prompts into chunks that fill each step's `max_tokens` budget, oldest prompt first, after a token per running answer (TensorRT-LLM `enable_chunked_context` with `context_chunking_policy` first_come_first_served); needs `max_tokens`, TensorRT-LLM online or offline rows, colocated only; an online or offline row whose mean prompt is longer than `max_tokens` is simulated (`plan::fcfs_budget_holds_prompts`: `online_run`, `offline_run`), an offline row whose prompt fits is the closed form's steady state with the prompt one chunk (`plan::offline_limits`); empty or 0 = the engine's rule |
/// | `replica_dispatch` | optional, online rows of a dense deployment: how the harness sent the queries to its dp replicas, `round_robin` or `least_pending` (NVIDIA's MLPerf harness: Interactive, Server); read by the simulated run (`plan::online_arrivals`: round robin gives each replica Erlang-dp gaps; `plan::least_pending_arrivals`: the fewest in flight, ties to the first); empty = a random split, each replica a Poisson stream |
/// | `prefill_alone` | optional: 1 = prompt steps run alone, the answers waiting (vLLM V0 with chunked prefill off), simulated; empty or 0 = mixed |
/// | `kv_block_tokens` | optional: the run's own KV block size in tokens where its harness states it (vLLM `block_size`, TensorRT-LLM `tokens_per_block`, SGLang `page_size`): each sequence holds whole blocks, ⌈n ÷ B⌉ · B slots (`kv_block_slots`); empty = the engine profile's |
/// | `a2a_dispatch_cap_tokens` | optional: the tokens a rank may dispatch in one expert all-to-all where the launch sets it (SGLang `SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`): the rows per rank of the receive buffer a padded expert runner runs over (`padded_moe_time_per_pass`); empty = the engine's default (SGLang 4096) |
/// | `kv_watermark` | optional: the share of KV blocks the run's admission keeps free, 0.01 where the row runs vLLM V0's block manager (`BlockSpaceManager.can_allocate`), simulated (`scheduler_limits::admission_watermark`); empty = 0 |
/// | `kv_admission` | optional: the run's KV admission policy where its launch states one: `in_use` = a sequence admitted on the KV it uses, the mean context I + O/2 plus the last block's mean waste, the batch then bound by the step's token budget where that binds (TensorRT-LLM's MAX_UTILIZATION: NVIDIA's MLPerf harness configs' `batch_scheduler_policy: 'max_util'`), `reserve` = its whole sequence I + O reserved at admission (GUARANTEED_NO_EVICT) (`with_kv_admission`, `plan::closed_loop_limits`, `plan::offline_limits`); empty = the engine's rule (TensorRT-LLM reserves, vLLM and SGLang admit on the KV in use; an offline row's closed form reserves) |
/// | `expert_routing` | optional: how the run chose each token's experts where its launch states it: `uniform` = uniformly at random, the router ignored (SGLang `--ep-dispatch-algorithm fake` on its all-to-all MoE path, `forward_deepep`: the experts' shares carry no skew, `routing_cv` 0), `model` = the model's router; empty = the model's |
/// | `host_loop` | optional: `v0` = the run drives vLLM's V0 LLMEngine loop (a release ≤ 0.6, `VLLM_USE_V1=0`, V0 multi-step; the rule in docs/vllm-v0-host-loop.md), so each scheduler pass pays its host time a₀ + a₁ · (tp − 1) + h · n (`engine_overheads::v0_host_pass`; every step in a closed form, at each poll in a simulated run); a vllm row only; empty = the profile's own loop (no term) |
/// | `replica_share_max` | optional: the largest replica's share s of an Offline run's samples where the harness gives each replica a fixed, unequal share (AMD's MLPerf harness, `sorting: strategy: buckets`; filled by tables/scripts/replica_share.py from each row's own yaml): the run ends with that replica, tokens/s = one replica's rate ÷ s (`plan::offline_run_rate`); offline rows only, 1 ÷ replicas ≤ s ≤ 1; empty = an equal split (`plan::replica_share_rule`) |
/// | `first_use_build` | optional: what makes the run's cold server build a kernel at first use (`first_use_trigger`, docs/first-use-build.md), filled from its image, launch flags and client by tables/scripts/first_use_build.py: `prefix_extend` = the first prompt step carrying a chunked prompt's continuation (SGLang v0.5.6's release image, `--attention-backend trtllm_mla`, on B200), `moe_sort_switch` = the first prompt step of more than 1,024 tokens (SGLang's ROCm images without AITER's prebuilt kernels, MXFP4, a test prompt of at most 1,024 tokens), `none`; that step lasts the engine's `first_use_build_s` longer in the row's simulated closed loop (`plan::closed_loop_run`) only, so a trigger word on a row with no closed loop (`prompts` empty or 0) or on a disaggregated row is refused; empty = none |
/// | `outputs_per_block` | optional: 1 = the block of `receive_interval` decode steps runs whole and its answers end at its end, an answer whose last token falls inside it computed to the block's last step (vLLM V0 multi-step without the async output processor, which `enforce_eager` turns off), simulated, with `receive_interval` above 1 and `prefill_alone`; empty or 0 = an answer ends at its last token |
/// | `input_tokens`, `output_tokens` | the request shape (the means, where the lengths vary) |
/// | `output_token_ratio`, `output_token_offset` | optional: how the run's harness counts the answer tokens it reports, against the engine's: ρ reported tokens per engine token for the same text and k tokens it adds to each answer (a start token), O = ρ · O_eng + k (`plan::output_count`; Krai's MLPerf v5.1 Llama-3.1 runs re-tokenise each answer with the Llama-2 tokenizer and put its BOS first: docs/krai-token-unit.md); the row's `output_tokens`, `output_spread` and its tok/s or TPOT `value` are then in reported tokens; it is priced on the engine's answers, O_eng = (O − k) ÷ ρ (`plan::in_engine_tokens`), and its figure reported as the harness counts (`plan::in_reported_tokens`: tok/s × O ÷ O_eng, TPOT × (O_eng − 1) ÷ (O − 1)); ρ finite and > 0, 0 ≤ k < O, O_eng ≥ 1 (an O_eng below 1 refused on k where O ÷ ρ alone is at least 1, `plan::short_answer_field`); empty = 1 and 0, the engine's own count |
/// | `input_spread`, `output_spread` | optional: standard deviations of the prompt and answer lengths of the run's requests (the dataset's), priced by the closed forms' length bias (`request_shape`), or drawn from a lognormal of that mean and deviation by an online row's simulated run (`online_lengths`); not on a closed-loop client's row; empty = 0, every request alike |
/// | `prefill_workers`, `prefill_tp`, `prefill_ep`, `prefill_dp`, `decode_workers` | optional: a disaggregated deployment (prefill/decode pools): the prefill pool's workers and one prefill worker's layout (empty degree = 1), the decode pool's workers, each of the row's `tp`/`ep`/`dp` layout (pp 1); such a row is a closed-loop client's run (`prompts` > 0) whose `batch` is the client's concurrency over the whole deployment, priced by its simulated closed loop (`plan::disaggregated_run`, `sim::simulate_disaggregated`; the closed form `plan::disaggregated_bound` bounds it); empty or 0 prefill workers = colocated |
/// | `prefill_max_batch`, `prefill_max_tokens`, `prefill_chunk_tokens` | optional, disaggregated rows only: the prefill worker's caps, per prefill attention rank: the prompts a pass takes (SGLang --max-running-requests ÷ dp under DP attention, TensorRT-LLM max_batch_size), the pass's token budget (SGLang --max-prefill-tokens, ServerArgs default 16384, not divided under DP attention; TensorRT-LLM max_num_tokens) and where a prompt is cut where the engine chunks (SGLang --chunked-prefill-size ÷ dp; TensorRT-LLM: empty, max_num_tokens); whole, from 1 to 10⁹ (`sim::prefill_cap_max`); empty = the engine's default (`plan::prefill_admission_of`, `sim::prefill_admission`) |
/// | `clock_MHz` | optional: the engine clock the run pinned, in MHz (AMD's harnesses: `rocm-smi --setperfdeterminism`), priced against the clock the GPU's compute fractions hold at (`as_run`); empty = 0, not pinned |
/// | `gemm_table` | optional: the measured GEMM table the run's engine loads for the dense projections (AMD's harnesses: the yaml's `HIPBLASLT_TUNING_OVERRIDE_FILE`), an id of tables/gemm_tables.csv (`catalog::gemm_tables`) measured on the row's GPU for its model's four projections at its tp; priced at the table's times scaled to the row's `clock_MHz` (`as_run`, `gemm_table_efficiency`; docs/amd-hipblaslt-tables.md); empty = none, the size curve |
/// | `metric` | `output_tokens_per_s`, `ttft_s`, `tpot_s` or `batch_latency_s` (one batch's makespan on a warm engine, unit s or ms: vLLM's benchmark_latency.py, one `LLM.generate` of `batch` prompts each answered with exactly `output_tokens`; priced as the row's simulated closed loop's makespan, `plan::closed_loop_run` without a cold opening; only on a colocated fixed_batch row with `prompts` = batch × dp, refused elsewhere, `measurement::batch_latency_rule`) |
/// | `value`, `unit` | the figure: `tok/s`, `s` or `ms` |
/// | `source` | where the figure was published (required: a figure without a source is refused) |
///
/// **Example**
/// \code
/// const auto rows = llmcost::io::load_measurements_csv("tables/measurements.csv");
/// \endcode

#include <llmcost/catalog/gemm_tables.hpp>
#include <llmcost/catalog/lookup.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/hf_config.hpp>
#include <llmcost/plan/measurement.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llmcost::io {

namespace detail::measurements_csv {

inline constexpr std::array<std::string_view, 25> columns{
    "id",       "role",     "model",     "hardware",   "engine",       "engine_version",
    "tp",       "pp",       "ep",        "dp",
    "weights",  "kv",       "scenario",  "requests",   "max_batch",    "max_tokens",    "rate_per_s",
    "batch",    "input_tokens", "output_tokens", "metric", "value", "unit", "source", "notes"};

class row_reader {
public:
    row_reader(const csv_table& t, std::size_t row) : t_(t), row_(row) {}

    [[noreturn]] void fail(std::string_view column, const std::string& rule) const {
        const std::size_t c = t_.column(column);
        throw load_error(t_.origin(), std::string(column), rule, t_.rows()[row_].line, static_cast<int>(c) + 1,
                         '"' + text(column) + '"');
    }
    [[nodiscard]] const std::string& text(std::string_view column) const { return t_.field(row_, column); }
    [[nodiscard]] const std::string& required(std::string_view column) const {
        const std::string& s = text(column);
        if (s.empty()) fail(column, "empty cell: a value is required");
        return s;
    }
    /// A number ≥ 0, or `fallback` when the cell is empty.
    [[nodiscard]] double number(std::string_view column, double fallback) const {
        const std::optional<double> v = t_.number(row_, column);
        if (!v) return fallback;
        if (!std::isfinite(*v)) fail(column, "expected a finite number");
        if (*v < 0) fail(column, "must not be negative");
        return *v;
    }
    /// A 0/1 switch, `fallback` when the cell is empty; any other value fails with `rule`, which says
    /// what 1 and 0 mean for that column.
    [[nodiscard]] bool flag(std::string_view column, bool fallback, const std::string& rule) const {
        const double f = number(column, fallback ? 1.0 : 0.0);
        if (f != 0.0 && f != 1.0) fail(column, rule);
        return f == 1.0;
    }
    [[nodiscard]] int degree(std::string_view column) const {
        const double v = number(column, 1.0);
        if (v < 1 || v != std::floor(v) || v > 1e6) fail(column, "expected a whole number from 1 to 1,000,000");
        return static_cast<int>(v);
    }

private:
    const csv_table& t_;
    std::size_t row_;
};

template <class E, std::size_t N>
[[nodiscard]] E pick(const row_reader& r, std::string_view column, const std::array<E, N>& all) {
    const std::string& s = r.required(column);
    std::string known;
    for (E e : all) {
        if (plan::to_string(e) == s) return e;
        known += (known.empty() ? "" : ", ") + std::string(plan::to_string(e));
    }
    r.fail(column, "unknown; expected one of " + known);
}

/// config.json files already read, by path: a file named by many rows is read once.
using config_cache = std::unordered_map<std::string, model>;

inline plan::measurement read_row(const csv_table& t, std::size_t row, const std::filesystem::path& base,
                                  config_cache& configs) {
    const row_reader r(t, row);
    plan::measurement x;
    x.id = r.required("id");
    const std::string& role = r.required("role");
    if (role != "calibration" && role != "check") r.fail("role", "expected calibration or check");
    x.check = role == "check";

    const std::string& model_name = r.required("model");
    if (model_name.ends_with(".json")) {
        const std::string path = (base / model_name).string();
        auto known = configs.find(path);
        if (known == configs.end()) known = configs.emplace(path, load_hf_config(path)).first;
        x.d.m = known->second;
    } else if (const auto m = catalog::lookup<model>(model_name)) {
        x.d.m = *m.match;
    } else {
        r.fail("model", "not a path to a config.json, and " + m.problem() + " (see `llmcost list models`)");
    }
    const auto h = catalog::lookup<hardware>(r.required("hardware"));
    if (!h) r.fail("hardware", h.problem() + " (see `llmcost list hardware`)");
    x.d.hw = *h.match;
    x.engine = pick(r, "engine", plan::all_engines);
    x.engine_version = r.required("engine_version");
    x.d.layout = {.tp = r.degree("tp"), .pp = r.degree("pp"), .ep = r.degree("ep"), .dp = r.degree("dp")};
    auto format_in = [&](std::string_view column, const number_format& fallback) {
        const std::string& s = r.text(column);
        if (s.empty()) return fallback;
        const auto f = format_named(s);
        if (!f) r.fail(column, "unknown number format (bf16, fp16, fp8, int8, int4, fp4, nvfp4, mxfp4)");
        return *f;
    };
    const number_format w = format_in("weights", x.d.m.weights), k = format_in("kv", x.d.m.kv_cache);
    if (!r.text("weights").empty()) x.d = with_formats(x.d, w, k);
    else x.d.m.kv_cache = k;
    if (t.find_column("excluded_modules") && !r.text("excluded_modules").empty()) {  // optional: older files lack it
        // The modules the row's checkpoint keeps in BF16 (its quantizer's exclude list), served beside the
        // `weights` format of the rest (`with_formats(d, weights, kv, kept)`).
        const std::string& list = r.text("excluded_modules");
        if (r.text("weights").empty())
            r.fail("excluded_modules", std::string(excluded_modules_need_weights) + " (the weights column)");
        const excluded_modules_reading kept = excluded_modules_named(list, ' ');
        if (kept.names_none())
            r.fail("excluded_modules", std::string(excluded_modules_names_none) + std::string(excluded_module_words));
        if (!kept.ok())
            r.fail("excluded_modules", "unknown module '" + std::string(kept.unknown) +
                                           "'; expected modules kept in BF16, separated by spaces: " +
                                           std::string(excluded_module_words));
        x.d = with_formats(x.d, w, k, kept.kept);
    }

    x.how = pick(r, "scenario", plan::all_scenarios);
    x.requests = r.number("requests", 0.0);
    x.max_batch = r.number("max_batch", 0.0);
    x.max_tokens = r.number("max_tokens", 0.0);
    x.rate = r.number("rate_per_s", 0.0);
    x.batch = r.number("batch", 0.0);
    if (t.find_column("prompts")) x.prompts = r.number("prompts", 0.0);  // optional columns: older files lack them
    if (t.find_column("range_ratio")) x.range_ratio = r.number("range_ratio", 1.0);
    if (t.find_column("receive_interval")) x.receive_interval = r.number("receive_interval", 1.0);
    if (t.find_column("min_waiting_prompts")) x.min_waiting_prompts = r.number("min_waiting_prompts", 1.0);
    if (t.find_column("decode_target_max")) {  // the four go together (`decode_target`)
        x.decode_cut = {.min = r.number("decode_target_min", 0.0), .max = r.number("decode_target_max", 0.0),
                        .step = r.number("decode_target_step", 0.0),
                        .prefill_free_kv = tokens(r.number("prefill_free_kv_tokens", 0.0))};
    }
    if (t.find_column("adp_timeout_iters")) x.adp_timeout_iters = r.number("adp_timeout_iters", 0.0);
    if (t.find_column("adp_batching_wait_iters")) x.adp_batching_wait_iters = r.number("adp_batching_wait_iters", 0.0);
    if (t.find_column("chunked_context"))
        x.chunked_context = r.flag("chunked_context", false,
                                   "1 (prompts cut into chunks that fill each step's max_tokens, oldest first: TensorRT-LLM "
                                   "enable_chunked_context, first_come_first_served) or 0 / empty (the engine's rule)");
    if (t.find_column("replica_dispatch") && !r.text("replica_dispatch").empty()) {
        const std::optional<plan::replica_dispatch> w = plan::replica_dispatch_named(r.text("replica_dispatch"));
        if (!w) r.fail("replica_dispatch", std::string(plan::replica_dispatch_words) + " or empty (a random split)");
        x.dispatch = *w;
    }
    if (t.find_column("prefill_alone"))
        x.prefill_alone = r.flag("prefill_alone", false, "1 (prompt steps run alone) or 0 / empty (mixed)");
    if (t.find_column("outputs_per_block"))
        x.outputs_per_block = r.flag("outputs_per_block", false,
                                     "1 (a block of decode steps runs whole, its answers ending at its end) or 0 / empty "
                                     "(an answer ends at its last token)");
    if (t.find_column("api_server"))
        x.api_server = r.flag("api_server", false, "1 (the client came through the engine's API server) or 0 (in process)");
    if (t.find_column("norm_quant_fusion")) {
        x.fp4_quantization_fused = r.flag("norm_quant_fusion", true,
                                          "1 / empty (FP4 activation quantization fused into the norm) or 0 (a kernel of its own)");
        x.d.engine.kernels.fp4_quantization_fused = x.fp4_quantization_fused;
    }
    if (t.find_column("gemm_allreduce_plugin")) {
        x.gemm_all_reduce_fused = r.flag("gemm_allreduce_plugin", false,
                                         "1 (each row-parallel GEMM and its TP all-reduce in one kernel) or 0 / empty (the all-reduce after the GEMM)");
        x.d.engine.kernels.gemm_all_reduce_fused = x.gemm_all_reduce_fused;
    }
    if (t.find_column("quick_reduce") && !r.text("quick_reduce").empty()) {
        const std::string& q = r.text("quick_reduce");
        if (q != "int4" && q != "none")
            r.fail("quick_reduce", "int4 (the run's launch set ROCM_QUICK_REDUCE_QUANTIZATION=INT4), none or empty; other "
                                   "QuickReduce levels have no measured curve");
        x.quick_reduce = q == "int4";
    }
    if (t.find_column("cuda_graphs") && !r.text("cuda_graphs").empty()) {
        const std::string& g = r.text("cuda_graphs");
        if (g != "0" && g != "1")
            r.fail("cuda_graphs", "1 (graphs on), 0 (graphs off: every kernel launched eagerly) or empty (the engine's default)");
        x.cuda_graphs = g == "1";
        x.d.engine.overheads.cuda_graphs = *x.cuda_graphs;
        x.d.engine.overheads.eager_enqueue = !*x.cuda_graphs;
    }
    if (t.find_column("eager_prompt") && !r.text("eager_prompt").empty()) {
        const std::optional<prompt_launch_mode> g = prompt_launch_named(r.text("eager_prompt"));
        if (!g) r.fail("eager_prompt", std::string(prompt_launch_words) + " or empty (the engine's rule)");
        x.eager_prompt = *g;
        x.d.engine.overheads.prompt_launch = *x.eager_prompt;
    }
    if (t.find_column("fp16_dense_max_tokens")) {
        const double n = r.number("fp16_dense_max_tokens", 0.0);
        if (!(n >= 0.0 && n <= 1e6))
            r.fail("fp16_dense_max_tokens",
                   "0 / empty (never) or the most tokens a step has for its dense GEMMs to run 16-bit, at most 10⁶");
        x.fp16_dense_max_tokens = n;
        x.d.engine.kernels.wide_dense_max_tokens = n;
    }
    if (t.find_column("kv_memory_fraction") && !r.text("kv_memory_fraction").empty()) {
        const double f = r.number("kv_memory_fraction", 0.0);
        if (!is_memory_fraction(f))
            r.fail("kv_memory_fraction",
                   "a memory fraction in (0, 1] (the run's --mem-fraction-static, --gpu-memory-utilization or "
                   "kv_cache_free_gpu_mem_fraction) or empty (the engine's default)");
        x.kv_memory_fraction = f;  // the row's engine's flag: applied with that engine (`plan::on_engine`), never to another's rule
    }
    if (t.find_column("kv_block_tokens") && !r.text("kv_block_tokens").empty()) {
        const double b = r.number("kv_block_tokens", 0.0);
        if (!is_kv_block_size(b))
            r.fail("kv_block_tokens",
                   "a whole number of tokens per KV block, from 1 to 65,536 (the run's vLLM block_size, TensorRT-LLM "
                   "tokens_per_block or SGLang page_size), or empty (the engine's)");
        x.kv_block_tokens = b;  // applied with the row's engine (`plan::on_engine`)
    }
    if (t.find_column("a2a_dispatch_cap_tokens") && !r.text("a2a_dispatch_cap_tokens").empty()) {
        const double c = r.number("a2a_dispatch_cap_tokens", 0.0);
        if (!is_dispatch_cap(c)) r.fail("a2a_dispatch_cap_tokens", std::string(dispatch_cap_rule) + ", or empty (the engine's)");
        x.a2a_dispatch_cap_tokens = c;  // applied with the row's engine (`plan::on_engine`)
    }
    if (t.find_column("expert_routing") && !r.text("expert_routing").empty()) {
        const std::optional<expert_routing> e = expert_routing_named(r.text("expert_routing"));
        if (!e) r.fail("expert_routing", std::string(expert_routing_rule) + " [llmcost.engine.expert_routing]");
        // `uniform` is what SGLang's fake dispatch does on its all-to-all MoE path only (attention data parallel
        // under expert parallelism, `forward_deepep`); on any other row the flag changes nothing, so stating it
        // there would silently drop the model's skew (docs/mi355x-prefill.md §8.1).
        if (*e == expert_routing::uniform &&
            !(x.engine == plan::serving_engine::sglang && x.d.m.is_moe() && x.d.attention_data_parallel()))
            r.fail("expert_routing",
                   "uniform only on an SGLang row of a model with routed experts whose layout is expert parallel "
                   "with attention data parallelism (ep > 1, dp > 1): elsewhere the fake dispatch does not reach "
                   "the experts' choice [llmcost.engine.expert_routing]");
        x.routing = *e;  // applied with the row's engine (`plan::on_engine`)
    }
    if (t.find_column("kv_admission") && !r.text("kv_admission").empty()) {
        const std::optional<kv_admission> a = kv_admission_named(r.text("kv_admission"));
        if (!a) r.fail("kv_admission", std::string(kv_admission_rule));
        x.admission = *a;
    }
    if (t.find_column("kv_watermark")) {
        x.kv_watermark = r.number("kv_watermark", 0.0);
        if (!(x.kv_watermark >= 0.0 && x.kv_watermark < 1.0))
            r.fail("kv_watermark", "a share of the KV blocks kept free at admission, in [0, 1) (vLLM V0: 0.01), or empty (0)");
    }
    if (t.find_column("host_loop") && !r.text("host_loop").empty()) {
        if (r.text("host_loop") != "v0")
            r.fail("host_loop", "v0 (vLLM's V0 LLMEngine loop: each scheduler pass's host time is priced) or empty (the "
                                "engine profile's own loop)");
        if (r.text("engine") != "vllm") r.fail("host_loop", std::string(plan::measurement::v0_loop_rule));
        x.v0_loop = true;
    }
    if (t.find_column("replica_share_max") && !r.text("replica_share_max").empty()) {
        const std::optional<double> share = t.number(row, "replica_share_max");
        if (!share || !std::isfinite(*share)) r.fail("replica_share_max", std::string(plan::replica_share_rule));
        x.replica_share_max = *share;  // its range and its row's replicas: `plan::replica_share_fits` below
    }
    if (t.find_column("first_use_build") && !r.text("first_use_build").empty()) {
        const std::optional<first_use_trigger> g = first_use_trigger_named(r.text("first_use_build"));
        if (!g) r.fail("first_use_build", std::string(first_use_trigger_words) + " or empty (none)");
        x.first_use_build = *g;
    }
    if (t.find_column("ttft_median_s")) x.ttft_median = r.number("ttft_median_s", 0.0);
    if (t.find_column("ttft_p99_s")) x.ttft_p99 = r.number("ttft_p99_s", 0.0);
    const double in = r.number("input_tokens", 0.0), out = r.number("output_tokens", 0.0);
    if (in < 1) r.fail("input_tokens", "a request has at least one input token");
    if (out < 1) r.fail("output_tokens", "a request has at least one output token");
    x.r = {.input = tokens(in), .output = tokens(out)};
    if (t.find_column("output_token_ratio") && !r.text("output_token_ratio").empty()) {  // optional: older files lack it
        const std::optional<double> v = t.number(row, "output_token_ratio");
        if (!v || !std::isfinite(*v) || !(*v > 0.0)) r.fail("output_token_ratio", std::string(plan::output_count_rule));
        x.answer_count.ratio = *v;
    }
    if (t.find_column("output_token_offset") && !r.text("output_token_offset").empty()) {
        const std::optional<double> v = t.number(row, "output_token_offset");
        if (!v || !std::isfinite(*v) || !(*v >= 0.0 && *v < out)) r.fail("output_token_offset", std::string(plan::output_count_rule));
        x.answer_count.offset = *v;
    }
    if (plan::engine_output_tokens(x.r.output, x.answer_count).value() < 1.0)  // on the cell that takes it below 1
        r.fail(plan::short_answer_field(x.r.output, x.answer_count), std::string(plan::output_count_rule));
    if (t.find_column("input_spread")) x.r.input_spread = tokens(r.number("input_spread", 0.0));
    if (t.find_column("output_spread")) x.r.output_spread = tokens(r.number("output_spread", 0.0));
    if (t.find_column("clock_MHz")) x.clock_MHz = r.number("clock_MHz", 0.0);
    if (t.find_column("gemm_table") && !r.text("gemm_table").empty()) {  // the table the harness loads, checked against the row
        const std::string& id = r.text("gemm_table");
        const gemm_table* g = catalog::gemm_table_by_id(id);
        if (g == nullptr) {
            std::string known;
            for (const gemm_table* c : catalog::gemm_tables) known += (known.empty() ? "" : ", ") + std::string(c->id);
            r.fail("gemm_table", "unknown table '" + id + "'; expected one of " + known + " (tables/gemm_tables.csv) or empty");
        }
        if (g->gpu != x.d.hw.gpu.name)
            r.fail("gemm_table", "table '" + id + "' was measured on " + std::string(g->gpu) + ", not the row's " +
                                     std::string(x.d.hw.gpu.name) + ": a GEMM table applies to its own GPU");
        try {
            g->check_fits(x.d.m, x.d.hw.gpu.name, x.d.layout.tp);
        } catch (const invalid_input& e) {
            r.fail("gemm_table", "table '" + id + "' does not fit the row's model and tp: " + e.what());
        }
        x.harness_gemm_table = g;
    }
    if (t.find_column("prefill_workers")) {  // a disaggregated deployment: the prefill pool, and the decode pool's workers
        const double w = r.number("prefill_workers", 0.0);
        if (w != std::floor(w) || w > 1e6)
            r.fail("prefill_workers", "0 / empty (colocated) or a whole number of prefill workers, from 1 to 1,000,000");
        x.prefill_workers = w;
        for (const std::string_view c : {"prefill_tp", "prefill_ep", "prefill_dp", "decode_workers", "prefill_max_batch",
                                         "prefill_max_tokens", "prefill_chunk_tokens"})
            if (w == 0.0 && t.find_column(c) && !r.text(c).empty())
                r.fail(c, "belongs to a disaggregated row: it needs prefill_workers ≥ 1");
        auto optional_degree = [&](std::string_view c) { return t.find_column(c) ? r.degree(c) : 1; };
        x.prefill_layout = {.tp = optional_degree("prefill_tp"), .pp = 1, .ep = optional_degree("prefill_ep"),
                            .dp = optional_degree("prefill_dp")};
        if (w > 0.0) x.decode_workers = optional_degree("decode_workers");
        if (w > 0.0 && x.d.layout.pp != 1) r.fail("pp", "a disaggregated row's decode worker is priced without pipeline stages (pp = 1)");
        for (const std::string_view c : {"prefill_max_batch", "prefill_max_tokens", "prefill_chunk_tokens"}) {  // per prefill attention rank
            if (!t.find_column(c) || r.text(c).empty()) continue;
            const double cap = r.number(c, 0.0);
            if (!(cap >= 1.0 && cap <= sim::prefill_cap_max && cap == std::floor(cap)))
                r.fail(c, "a prefill attention rank's cap (the launch script's per worker, ÷ dp under SGLang's DP attention where "
                          "SGLang divides it): empty (the engine's default) or a whole number, from 1 to 10⁹");
            (c == "prefill_max_batch" ? x.prefill_max_batch : c == "prefill_max_tokens" ? x.prefill_max_tokens : x.prefill_chunk_tokens) = cap;
        }
        for (const std::string_view c : {"max_batch", "max_tokens"}) {  // the decode worker's caps, per attention rank
            const double cap = r.number(c, 0.0);
            if (w > 0.0 && cap != 0.0 && (cap < 1.0 || cap != std::floor(cap)))
                r.fail(c, "a disaggregated row's cap is its decode attention rank's: 0 / empty (the engine's default) or a "
                          "whole number, at least 1");
        }
    } else {
        for (const std::string_view c : {"prefill_tp", "prefill_ep", "prefill_dp", "decode_workers", "prefill_max_batch",
                                         "prefill_max_tokens", "prefill_chunk_tokens"})
            if (t.find_column(c) && !r.text(c).empty())
                r.fail(c, "a pool column needs the prefill_workers column beside it (a disaggregated row states its prefill workers)");
    }
    x.what = pick(r, "metric", plan::all_metrics);

    const double v = r.number("value", 0.0);
    if (!(v > 0)) r.fail("value", "a measured figure is positive");
    const std::string& unit = r.required("unit");
    const bool rate_metric = x.what == plan::metric::output_tokens_per_s;
    if (rate_metric && unit == "tok/s") x.value = v;
    else if (!rate_metric && unit == "s") x.value = v;
    else if (!rate_metric && unit == "ms") x.value = v / 1000.0;
    else r.fail("unit", rate_metric ? "output_tokens_per_s is measured in tok/s" : "a time is measured in s or ms");
    x.source = r.required("source");
    if (!x.dispatch_fits()) r.fail("replica_dispatch", std::string(plan::replica_dispatch_rule));  // the word as written
    if (x.first_use_build != first_use_trigger::none && !(x.prompts > 0.0 && !x.disaggregated()))
        r.fail("first_use_build", std::string(plan::measurement::first_use_build_rule));  // the word as written
    if (x.replica_share_max && !plan::replica_share_fits(*x.replica_share_max, x.how, x.d.instances()))
        r.fail("replica_share_max", plan::replica_share_rule_for(x.d.instances()));
    try {
        x.validate();
    } catch (const invalid_input& e) {
        r.fail("id", e.what());
    }
    return x;
}

}  // namespace detail::measurements_csv

/// Measurements from a parsed table; `base` resolves relative config.json paths.
[[nodiscard]] inline std::vector<plan::measurement> measurements_from(const csv_table& t,
                                                                      const std::filesystem::path& base) {
    for (const std::string_view c : detail::measurements_csv::columns)
        if (c != "notes") (void)t.column(c);  // a missing column is named before any row is read
    std::vector<plan::measurement> out;
    out.reserve(t.size());
    detail::measurements_csv::config_cache configs;
    std::unordered_map<std::string, std::size_t> row_of_id;  // linear in rows, not quadratic
    row_of_id.reserve(t.size());
    for (std::size_t row = 0; row < t.size(); ++row) {
        plan::measurement x = detail::measurements_csv::read_row(t, row, base, configs);
        if (const auto [at, fresh] = row_of_id.emplace(x.id, row); !fresh)
            detail::measurements_csv::row_reader(t, row).fail(
                "id", "id appears twice (first on line " + std::to_string(t.rows()[at->second].line) + ")");
        out.push_back(std::move(x));
    }
    return out;
}

[[nodiscard]] inline std::vector<plan::measurement> parse_measurements_csv(std::string_view text, std::string_view origin,
                                                                           const std::filesystem::path& base = {}) {
    return measurements_from(parse_csv(text, origin), base);
}

[[nodiscard]] inline std::vector<plan::measurement> load_measurements_csv(const std::filesystem::path& file) {
    return measurements_from(load_csv(file), file.parent_path());
}

}  // namespace llmcost::io
