// llmcost — the command-line what-if tool. This file parses the command line (CLI11) and maps
// errors to exit codes: 0 done, 1 the cost model refused the input, 2 the tool was called wrongly,
// 3 an output could not be written.
#include "cli.hpp"
#include "commands.hpp"
#include "numbers.hpp"
#include "plan_commands.hpp"
#include "plan_sweep_commands.hpp"
#include "rate_flag.hpp"
#include "simulate_cli.hpp"

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/files.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <ostream>
#include <system_error>

namespace {

using namespace llmcost::cli;

// Every number on the command line goes through numbers.hpp (decimal only); a check that passes
// (a CLI11 transform) rewrites the text to its canonical spelling, which CLI11 then converts (CLI11 alone would read
// "010" as octal and "0x10" as hex). CLI11 puts the flag's name before each message.

/// A real number in (0, hi], at least `lo`: a time, a rate, a price.
CLI::Validator positive_in(double lo, double hi, std::string name = "POSITIVE") {
    return {[lo, hi](std::string& s) -> std::string {
                double v = 0;
                if (std::string why = read_decimal(s, v); !why.empty()) return why;
                if (!std::isfinite(v) || v <= 0) return "must be positive and finite, got " + s;
                if (std::string why = read_real(s, lo, hi, false, v); !why.empty()) return why;
                s = canonical(v);
                return {};
            },
            std::move(name)};
}
const CLI::Validator positive = positive_in(1e-12, 1e12);
/// --clock: the library's clock rule (`require_engine_clock`; the GPU's own, its fractions at the clock, is
/// `at_engine_clock`'s in `build`, naming --clock too).
const CLI::Validator engine_clock{[](std::string& s) -> std::string {
                                      double v = 0;
                                      if (std::string why = read_decimal(s, v); !why.empty()) return why;
                                      try {
                                          llmcost::require_engine_clock("--clock", "--clock", v);
                                      } catch (const llmcost::invalid_input& e) {  // CLI11 names --clock before it
                                          return "got " + s + ": " + e.rule() + " [" + e.id() + "]";
                                      }
                                      s = canonical(v);
                                      return {};
                                  },
                                  "MHZ"};
/// --kv-admission: the library's word rule (`require_kv_admission`: reserve or in_use; empty, the default, the
/// engine's rule), its refusal's rule text and id, as --clock's.
const CLI::Validator kv_admission_word{[](const std::string& s) -> std::string {
                                           if (s.empty()) return {};  // the engine's rule (`kv_admission_rule`)
                                           try {
                                               (void)llmcost::require_kv_admission("estimate", "--kv-admission", s);
                                           } catch (const llmcost::invalid_input& e) {  // CLI11 names the flag before it
                                               return "got " + s + ": " + e.rule() + " [" + e.id() + "]";
                                           }
                                           return {};
                                       },
                                       "WORD"};
/// A time target, in seconds.
const CLI::Validator seconds_target = positive_in(1e-9, 1e6, "SECONDS");
/// Money: positive, at least a nano-dollar (so that a price never underflows to "none" on its
/// way to $/s) and at most a trillion.
const CLI::Validator usd_amount = positive_in(1e-9, 1e12, "USD");

/// A price that may be 0 (no price given).
const CLI::Validator usd_or_zero{[](std::string& s) -> std::string {
                                     double v = 0;
                                     if (std::string why = read_decimal(s, v); !why.empty()) return why;
                                     if (!std::isfinite(v) || v < 0) return "must be zero or positive and finite, got " + s;
                                     if (v != 0)
                                         if (std::string why = read_real(s, 1e-9, 1e12, false, v); !why.empty()) return why;
                                     s = canonical(v);
                                     return {};
                                 },
                                 "USD"};

/// A count of GPUs or a parallel degree: a whole number from 1 to 10^8.
CLI::Validator count_in(double hi, std::string name = "COUNT") {
    return {[hi](std::string& s) -> std::string {
                double v = 0;
                if (!read_count(s, 1, hi, v).empty())
                    return "must be a whole number from 1 to " + llmcost::text::grouped(hi) + ", got '" + s + "'";
                s = llmcost::text::fixed(v, 0);
                return {};
            },
            std::move(name)};
}
const CLI::Validator count = count_in(100'000'000);

/// Tokens or sequences: a whole number from 1 to 10^15 (fractions of a token, and counts a double
/// cannot hold exactly, are refused).
const CLI::Validator tokens_count{[](std::string& s) -> std::string {
                                      double v = 0;
                                      if (std::string why = read_count(s, 1, 1e15, v); !why.empty()) return why;
                                      s = canonical(v);
                                      return {};
                                  },
                                  "COUNT"};

CLI::Validator fraction_validator(bool zero_in, bool one_in, std::string name) {
    return {[zero_in, one_in](std::string& s) -> std::string {
                double v = 0;
                if (std::string why = read_decimal(s, v); !why.empty()) return why;
                const bool low_ok = zero_in ? v >= 0 : v > 0;
                const bool high_ok = one_in ? v <= 1 : v < 1;
                if (!(low_ok && high_ok))
                    return std::string("must be in ") + (zero_in ? "[0" : "(0") + ", 1" + (one_in ? "]" : ")") + ", got " + s;
                s = canonical(v);
                return {};
            },
            std::move(name)};
}
const CLI::Validator fraction = fraction_validator(false, true, "(0,1]");
const CLI::Validator probability = fraction_validator(true, false, "[0,1)");
/// A percentile as a fraction: 0.9 for p90, in (0, 1).
const CLI::Validator percentile = fraction_validator(false, false, "(0,1)");

void add_format(CLI::App* app, std::string& format) {
    app->add_option("--format", format, "Output: table (for people), json (SI units, unit in the key), csv")
        ->check(CLI::IsMember({"table", "json", "csv"}))
        ->capture_default_str();
}

/// --hardware-file, on every command that names GPUs: rows in tables/hardware.csv's format, which
/// --hardware (and --decode-hardware, --price) find before the catalog's.
void add_hardware_file(CLI::App* app, std::string& file) {
    app->add_option("--hardware-file", file,
                    "CSV of your own GPUs in tables/hardware.csv's format; --hardware finds its rows first")
        ->check(CLI::ExistingFile);
}

/// --pricing, on every command that prints money: what a GPU-hour is charged at.
void add_pricing(CLI::App* app, std::string& pricing, std::string_view default_text) {
    app->add_option("--pricing", pricing,
                    "GPU-hour price: market (listed on-demand, tables/gpu_prices.csv), committed (a 1-3 year "
                    "reservation), or tco (capex + power); a GPU with no listed price falls back to tco. Default: " +
                        std::string(default_text))
        ->check(CLI::IsMember({"market", "committed", "tco"}));
}

/// --kv-memory-fraction, on every command that sizes a KV pool (those with --engine): the f of the
/// engine's own KV pool rule, as the launch sets it (`with_kv_memory_fraction`; docs/kv-pool.md).
void add_kv_memory_fraction(CLI::App* app, double& f) {
    app->add_option("--kv-memory-fraction", f,
                    "Your launch's KV memory fraction f, sized by the engine's own rule: vllm --gpu-memory-utilization "
                    "(pool f*H - W - X), sglang --mem-fraction-static (f*(H - R) - W, R its memory resident at init), trtllm free_gpu_memory_fraction "
                    "(f*(H - W - X)); without --engine the reference engine's f*H - W - 2 GB. H the GPU's HBM as the runtime reports it, W the "
                    "weights, X the engine's non-KV memory. Default: the engine's own (llmcost list engines; the "
                    "reference 0.95)")
        ->transform(fraction);
}

/// --kv-block-tokens and --a2a-dispatch-cap, on every command that builds a deployment for one engine (those with
/// --engine; kv takes --a2a-dispatch-cap only to refuse it: it prices memory, not a step; frontier and plan apply
/// them to the one engine's profile on every GPU they try, the reference engine's where none is named; `where` is
/// what they add to the help): the launch's paged KV cache block size (`with_kv_block_tokens`) and the tokens a
/// rank may dispatch in one expert all-to-all, the padded expert runner's buffer (`with_dispatch_cap`;
/// docs/mi355x-disagg-decode.md §6). Each a whole number of tokens up to its bound.
void add_launch_tokens(CLI::App* app, double& kv_block_tokens, double& a2a_dispatch_cap, std::string_view where = "") {
    struct figure {
        const char* flag;
        double& value;
        std::string_view help;
        double most;
    };
    for (const figure& f : {figure{"--kv-block-tokens", kv_block_tokens,
                                   "Your launch's KV block size in tokens: each sequence holds whole blocks, ceil(n / B) * B "
                                   "slots (vllm --block-size, trtllm tokens_per_block, sglang --page-size). Default: the "
                                   "engine's own (llmcost list engines: vllm 16, trtllm 32, sglang 1; the reference engine 1)",
                                   65536},
                            figure{"--a2a-dispatch-cap", a2a_dispatch_cap,
                                   "Your launch's per-rank all-to-all dispatch cap in tokens (sglang "
                                   "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK): the receive buffer a padded expert runner "
                                   "runs over, W x cap rows a MoE layer (docs/mi355x-disagg-decode.md section 6). Default: "
                                   "the engine's (sglang 4096)",
                                   1048576}})
        app->add_option(f.flag, f.value, std::string(f.help) + std::string(where))->transform(count_in(f.most, "TOKENS"));
}

/// What frontier and plan add to --kv-block-tokens' and --a2a-dispatch-cap's help: the one figure on every GPU's
/// profile of the one engine.
constexpr std::string_view one_engine_every_gpu =
    "; applied to the one engine's profile on every GPU tried (the reference engine's where no --engine is named)";

/// --gemm-table, --clock and --quick-reduce, on every command that prices a deployment's steps (those of
/// `add_deployment`, frontier, plan): the GEMM table the engine loads (`gemm_table_named`), the clock the run pins
/// (`at_engine_clock`) and the quantized all-reduce it turns on (`with_quick_reduce`).
void add_launch(CLI::App* app, std::string& gemm_table, double& clock_MHz, std::string& quick_reduce) {
    app->add_option("--gemm-table", gemm_table,
                    "A measured GEMM table the engine loads for the dense projections (llmcost list gemm-tables; AMD's "
                    "MLPerf harness: HIPBLASLT_TUNING_OVERRIDE_FILE): their time is the table's, scaled by its clock / "
                    "--clock; refused for another GPU, format, model or TP degree (frontier, plan: such a deployment left out; "
                    "docs/amd-hipblaslt-tables.md)")
        ->check(CLI::Validator{[](const std::string& s) -> std::string {  // "" refused, as --eager-prompt's, not ignored
                                   return s.empty() ? "an empty id names no table (see `llmcost list gemm-tables`)" : "";
                               },
                               "ID"});
    app->add_option("--clock", clock_MHz,
                    "The engine clock the run pins, MHz (rocm-smi --setperfdeterminism): the GPU's compute fractions "
                    "scale by it where the hardware states their clock (MI325X: 1700), a --gemm-table's times by its "
                    "clock / this. Default: not pinned")
        ->transform(engine_clock);
    app->add_option("--quick-reduce", quick_reduce,
                    "The engine's quantized TP all-reduce the launch turns on: int4 (SGLang on ROCm: "
                    "ROCM_QUICK_REDUCE_QUANTIZATION=INT4; priced on the profile's curve for 2 MiB to 2 GiB messages) "
                    "or none; refused off SGLang, for a profile without the curve (MI355X's has it) or a TP other than "
                    "2, 4 or 8 (frontier, plan: such a layout left out; docs/cdna-all-reduce.md section 7)")
        ->check(CLI::IsMember({"int4", "none"}))
        ->capture_default_str();
}

void add_deployment(CLI::App* app, deployment_options& d, bool with_formats = true) {
    app->add_option("--model", d.model, "Catalog model (llmcost list models) or a Hugging Face config.json (or its folder)")
        ->capture_default_str();
    app->add_option("--hardware", d.hardware, "Catalog GPU (llmcost list hardware) or a row of --hardware-file")
        ->capture_default_str();
    add_hardware_file(app, d.hardware_file);
    app->add_option("--gpus", d.gpus, "GPUs in all; default tp x pp x dp")->transform(count);
    app->add_option("--tp", d.tp, "Tensor parallelism")->transform(count)->capture_default_str();
    app->add_option("--pp", d.pp, "Pipeline parallelism")->transform(count)->capture_default_str();
    app->add_option("--ep", d.ep, "Expert parallelism (MoE): experts spread over tp x dp GPUs")
        ->transform(count)
        ->capture_default_str();
    app->add_option("--dp", d.dp,
                    "Data parallelism: replicas (dense), or attention-DP ranks with --ep (MoE \"DEP\": --gpus 8 --dp 8 --ep 8)")
        ->transform(count);
    if (with_formats) {
        app->add_option("--weights", d.weights, "Weight format (default: the model's own)")
            ->check(CLI::IsMember(weight_format_names()));
        app->add_option("--kv", d.kv, "KV cache format (default: the model's own)")->check(CLI::IsMember(kv_format_names()));
    }
    app->add_option("--engine", d.engine,
                    "Serving engine: trtllm | vllm | sglang (llmcost list engines); default: the reference engine")
        ->check(CLI::IsMember({"trtllm", "vllm", "sglang"}));
    add_kv_memory_fraction(app, d.kv_memory_fraction);
    add_launch_tokens(app, d.kv_block_tokens, d.a2a_dispatch_cap);
    app->add_option("--host-loop", d.host_loop,
                    "v0: your launch runs vLLM's V0 LLMEngine loop (vLLM <= 0.6, VLLM_USE_V1=0), so each scheduler "
                    "pass's host time a0 + a1 (tp - 1) + h n is priced (docs/vllm-v0-host-loop.md); vllm only; the "
                    "per-token output processing h_t is paid only with CUDA graphs off, which no flag turns off, so "
                    "never here; kv refuses it. Default: the engine's own loop")
        ->check(CLI::IsMember({"v0"}));
    add_launch(app, d.gemm_table, d.clock_MHz, d.quick_reduce);
    app->add_flag("--ignore-max-position", d.ignore_max_position,
                  "Allow contexts beyond the model's trained maximum");
}

/// --excluded-modules, --kept-format and --eager-prompt (estimate, disagg, frontier, plan, spec, simulate, cost; kv
/// without --eager-prompt): what a checkpoint keeps out of --weights and how a run launches its prompt steps, the words
/// tables/measurements.csv's `excluded_modules` and `eager_prompt` columns take (one parser each:
/// `excluded_modules_named`, `prompt_launch_named`). `no_prompt_step`: why the command prices no prompt step (kv:
/// `kv_prices_no_step`); --eager-prompt is then still taken, so that `kv` can refuse it saying why (commands.cpp `kv`).
void add_checkpoint(CLI::App* app, checkpoint_options& c, std::string_view no_prompt_step = {}) {
    CLI::Option* kept = app->add_option_function<std::string>(
        "--excluded-modules",
        [&c](const std::string& list) {
            c.excluded_modules = list;
            c.excluded_modules_given = true;  // "" too: refused as naming no module (kept_modules_of)
        },
        "Modules the checkpoint keeps out of --weights (its quantizer's exclude list), comma-separated: attention_in "
        "(every attention input projection; MLA q_a, q_b, kv_a), attention_kv_b (MLA kv_b), attention_out (o_proj), "
        "lm_head, embedding; their bytes and matmuls in --kept-format (docs/checkpoint-composition.md)");
    app->add_option("--kept-format", c.kept_format,
                    "Format of the --excluded-modules (default bf16, as ModelOpt and Quark keep them)")
        ->check(CLI::IsMember(weight_format_names()))
        ->needs(kept);
    auto eager = [&c](const std::string& word) {
        c.eager_prompt = word;
        c.eager_prompt_given = true;  // "" too: refused as no launch word (eager_prompt_of), not read as the engine's rule
    };
    if (!no_prompt_step.empty()) {
        app->add_option_function<std::string>("--eager-prompt", eager, "Refused here: " + std::string(no_prompt_step));
        return;
    }
    app->add_option_function<std::string>("--eager-prompt", eager,
                    "How prompt steps launch without CUDA graphs: overlap (eagerly, launched while the step before runs), "
                    "serial (eagerly, the overlap scheduler off: Dynamo's prefill workers), 0 (not priced); default the "
                    "engine's rule. Read by engines with a prompt-step launch cost (TensorRT-LLM on Blackwell, SGLang: "
                    "prefill_launch_us in llmcost list engines; docs/trtllm-eager-prompt.md, docs/sglang-eager-prompt.md)");
}

void add_request(CLI::App* app, request_options& r) {
    app->add_option("--input", r.input, "Prompt tokens")->transform(tokens_count)->capture_default_str();
    app->add_option("--output", r.output, "Output tokens")->transform(tokens_count)->capture_default_str();
}

/// Lengths that vary, as simulate takes them (after `add_request`): each replaces its fixed flag.
void add_lengths(CLI::App* app, std::string& input_dist, std::string& output_dist, std::string& dataset) {
    CLI::Option* input = app->get_option("--input");
    CLI::Option* output = app->get_option("--output");
    const std::string length_words = "L, fixed:L, uniform:LO:HI or lognormal:MEAN:SD[:MAX]";
    CLI::Option* in = app->add_option("--input-dist", input_dist,
                                      "Prompt lengths that vary: L, fixed:L, uniform:LO:HI, lognormal:MEAN:SD[:MAX] (replaces --input)")
                          ->check(not_empty(length_words));
    CLI::Option* out = app->add_option("--output-dist", output_dist, "Output lengths that vary, as --input-dist (replaces --output)")
                           ->check(not_empty(length_words));
    std::string about_sets = "Prompt and output lengths of a public dataset (tables/datasets.csv): ";
    about_sets += llmcost::catalog::dataset_names();
    CLI::Option* set = app->add_option("--dataset", dataset, about_sets)->check(not_empty(llmcost::catalog::dataset_names()));
    in->excludes(input);
    out->excludes(output);
    for (CLI::Option* o : {in, out, input, output}) set->excludes(o);
    if (CLI::Option* mix = app->get_option_no_throw("--mix"))
        for (CLI::Option* o : {in, out, set}) mix->excludes(o);
}

/// The speculation flags, one reading for `spec` and for `estimate --spec`: --acceptance,
/// --draft-tokens and --drafter. With `on` (estimate), --spec switches speculation on and the
/// other three need it.
void add_speculation(CLI::App* app, speculation_options& s, bool with_switch) {
    CLI::Option* on = nullptr;
    if (with_switch)
        on = app->add_flag("--spec", s.on,
                           "Speculative decoding in every decode step (--drafter, --acceptance, --draft-tokens; "
                           "as the spec command reads them)");
    CLI::Option* a = app->add_option("--acceptance", s.acceptance, "Per-token acceptance rate alpha")
                         ->transform(probability)
                         ->capture_default_str();
    CLI::Option* g = app->add_option("--draft-tokens", s.draft_tokens, "Draft length gamma")
                         ->transform(count_in(64))
                         ->capture_default_str();
    CLI::Option* d = app->add_option("--drafter", s.drafter, "mtp, eagle, or a catalog model used as the draft model")
                         ->capture_default_str();
    if (on) {
        a->needs(on);
        g->needs(on);
        d->needs(on);
    }
}

constexpr const char* footer = R"(Examples:
  llmcost                                        the seed's receipt and the request journey
  llmcost estimate --model Llama-3.1-70B --hardware H100 --tp 8 --input 2000 --output 500 --batch 32
  llmcost estimate --model ./my-model/config.json --hardware H200 --tp 2 --weights fp8 --saturate
  llmcost estimate --model DeepSeek-V3 --hardware B200 --gpus 8 --dp 8 --ep 8 --saturate --format json
  llmcost list models --format json
  llmcost show --model ./Llama-4-Scout-17B-16E/config.json --context 131072
  llmcost kv --model Llama-3.1-70B --hardware H100 --tp 8 --context 131072 --batch 16
  llmcost kv --model Llama-3.1-8B --hardware H100 --engine vllm --kv-memory-fraction 0.5 --context 8192   (your launch's KV memory fraction)
  llmcost disagg --model Llama-3.1-70B --hardware H100 --tp 8 --input 4000 --output 300 --ttft 1 --tpot 0.05
  llmcost spec --model Llama-3.1-70B --hardware B300 --tp 8 --acceptance 0.8 --draft-tokens 4
  llmcost cost --hardware H100 --utilisation 0.6 --model Llama-3.1-8B --batch 64
  llmcost optics --hardware H100,GB200 --gpus 100000
  llmcost calibrate my_runs.csv --free hbm,matmul --with-uncertainty
  llmcost frontier --model Llama-3.1-70B --hardware H100,B200 --tp 2,4,8 --weights fp8 --svg frontier.svg
  llmcost estimate --hardware-file my_gpus.csv --hardware MyGPU --model Llama-3.1-8B   (tables/hardware.csv's format)
  llmcost plan --model Llama-3.1-70B --rate 20 --input 2000 --output 500 --ttft 1 --tpot 0.05

Exit codes: 0 done; 1 the model refused the input (e.g. tp does not divide the heads, the batch does
not fit); 2 a usage error (unknown flag, bad value, unknown name); 3 an output could not be written.)";

}  // namespace

int llmcost::cli::finish(int code, std::ostream& out, std::ostream& err) {
    errno = 0;
    out.flush();
    if (!out) {
        const int why = errno;
        err << "llmcost: cannot write the output"
            << (why != 0 ? ": " + std::error_code(why, std::generic_category()).message() : std::string()) << " ["
            << "llmcost.output.stdout" << "]\n";
        err.flush();
        return 3;
    }
    err.flush();
    if (!err) return code == 0 ? 3 : code;  // nowhere left to say why: the code must
    return code;
}

int llmcost::cli::run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
    CLI::App app{"llmcost: what an LLM request costs, from first principles (time, memory, energy, money).",
                 "llmcost"};
    app.footer(footer);
    app.require_subcommand(0, 1);
    std::string format = "table";
    add_format(&app, format);

    CLI::App* receipt = app.add_subcommand("receipt", "The seed dashboard's receipt (S27-S30) and the request journey (default)");
    add_format(receipt, format);

    estimate_command est;
    CLI::App* estimate = app.add_subcommand("estimate", "Latency, throughput, memory, energy and cost of one deployment");
    add_deployment(estimate, est.dep);
    add_checkpoint(estimate, est.dep.checkpoint);
    add_request(estimate, est.req);
    add_lengths(estimate, est.req.input_dist, est.req.output_dist, est.req.dataset);
    CLI::Option* batch = estimate->add_option("--batch", est.batch, "Concurrent sequences (per replica or attention rank)")
                             ->transform(tokens_count);
    CLI::Option* saturate = estimate->add_flag("--saturate", est.saturate,
                                               "Max-load offline throughput: as many sequences as KV and limits allow (default)");
    batch->excludes(saturate);
    CLI::Option* est_rate = estimate->add_option("--rate", est.rate,
                                                 "Online: Poisson arrivals, requests/s for the whole deployment (split over its "
                                                 "dp ranks); adds TTFT, TPOT and E2E percentiles")
                                ->transform(rate_check);
    est_rate->excludes(batch);
    est_rate->excludes(saturate);
    CLI::Option* max_batch = estimate->add_option("--max-batch", est.max_batch, "With --saturate: cap on sequences")->transform(tokens_count);
    CLI::Option* max_tokens = estimate->add_option("--max-tokens", est.max_tokens, "With --saturate: cap on tokens per step")
                                  ->transform(tokens_count);
    max_batch->excludes(batch);
    max_tokens->excludes(batch);
    estimate->add_option("--kv-admission", est.kv_admission,
                         "Your launch's KV admission policy: reserve = each sequence's whole KV (input + output) at "
                         "admission (trtllm's default, GUARANTEED_NO_EVICT); in_use = the KV it uses, its mean context "
                         "plus half a block (trtllm MAX_UTILIZATION, MLPerf's batch_scheduler_policy max_util; vllm and "
                         "sglang by default). Default: the engine's rule (docs/paged-kv-blocks.md)")
        ->check(kv_admission_word);
    estimate->add_option("--prefill-chunk", est.prefill_chunk,
                         "Chunked prefill: prompts in chunks of at most this many tokens, one per step (default: whole)")
        ->transform(tokens_count);
    estimate->add_option("--usd-per-gpu-hour", est.usd_per_gpu_hour, "Price a GPU-hour at this (default: on --pricing's basis)")
        ->transform(usd_amount);
    add_pricing(estimate, est.pricing, "market");
    estimate->add_option("--prefix-hit", est.req.prefix_hit,
                         "Share of each prompt found in a prefix cache, [0,1): only the rest is prefilled (S6)")
        ->transform(probability);
    add_speculation(estimate, est.spec, true);
    estimate->add_flag("--explain", est.explain,
                       "Add the prefill and the serving step by kernel class (time, FLOPs, bytes, bound) and one GPU's "
                       "memory (tables; JSON under \"breakdown\")");
    estimate->add_flag("--best-layout", est.best_layout,
                       "With --gpus N: try every tp x pp x ep x dp of N GPUs and price the one with the most saturated "
                       "output (the ranking is shown; JSON under \"layouts\")");
    estimate->add_option("--utilisation", est.utilisation, "Share of time the deployment serves, for $/token")
        ->transform(fraction)
        ->capture_default_str();
    add_format(estimate, format);

    std::string what;
    std::string list_hardware_file;
    CLI::App* list = app.add_subcommand("list", "The catalogs: models, hardware, number formats, engines, GEMM tables");
    list->add_option("what", what, "models | hardware | formats | engines | gemm-tables")
        ->required()
        ->check(CLI::IsMember({"models", "hardware", "formats", "engines", "gemm-tables"}));
    add_hardware_file(list, list_hardware_file);
    add_format(list, format);

    show_command shc;
    CLI::App* show = app.add_subcommand("show", "What the tool reads for a model: layers by kind, parameters, KV per token");
    show->add_option("--model", shc.model, "Catalog model (llmcost list models) or a Hugging Face config.json (or its folder)")
        ->required();
    show->add_option("--context", shc.context, "Tokens per sequence for the KV figures (default: the model's maximum)")
        ->transform(tokens_count);
    show->add_flag("--ignore-max-position", shc.ignore_max_position, "Allow a context beyond the model's trained maximum");
    add_format(show, format);

    kv_command kvc;
    CLI::App* kv = app.add_subcommand("kv", "KV cache footprint at a context and batch, and where it spills");
    add_deployment(kv, kvc.dep);
    add_checkpoint(kv, kvc.dep.checkpoint, kv_prices_no_step);
    kv->add_option("--context", kvc.context, "Tokens per sequence (default: the model's maximum)")->transform(tokens_count);
    kv->add_option("--batch", kvc.batch, "Sequences")->transform(tokens_count)->capture_default_str();
    add_format(kv, format);

    disagg_command dis;
    CLI::App* disagg = app.add_subcommand("disagg", "Prefill/decode disaggregation: KV transfer, P:D ratio, goodput vs colocated");
    add_deployment(disagg, dis.dep);
    add_checkpoint(disagg, dis.dep.checkpoint);
    add_request(disagg, dis.req);
    disagg->add_option("--decode-hardware", dis.decode_hardware, "GPU of the decode pool (default: same)");
    disagg->add_option("--decode-tp", dis.decode_tp, "Tensor parallelism of the decode pool (default: same)")
        ->transform(count);
    disagg->add_option("--ttft", dis.ttft, "Time-to-first-token target, seconds")->transform(seconds_target)->capture_default_str();
    disagg->add_option("--tpot", dis.tpot, "Time-per-output-token target, seconds")->transform(seconds_target)->capture_default_str();
    disagg->add_flag("--every-token", dis.every_token, "Bound every inter-token gap, not only the mean");
    disagg->add_option("--path", dis.path, "How KV travels: scale-up (NVLink) or scale-out (NIC)")
        ->check(CLI::IsMember({"scale-up", "scale-out"}))
        ->capture_default_str();
    disagg->add_option("--chunk", dis.chunk, "Colocated chunked-prefill size, tokens")->transform(tokens_count);
    disagg->add_option("--prefix-hit", dis.req.prefix_hit,
                       "Share of each prompt found in a prefix cache, [0,1): only the rest is prefilled (S6; "
                       "disaggregated: by the prefill pool, which sends the whole prompt's KV)")
        ->transform(probability);
    add_speculation(disagg, dis.spec, true);
    add_format(disagg, format);

    spec_command sp;
    CLI::App* spec = app.add_subcommand("spec", "Speculative decoding: tokens per pass, speedup, acceptance needed");
    add_deployment(spec, sp.dep);
    add_checkpoint(spec, sp.dep.checkpoint);
    add_request(spec, sp.req);
    spec->add_option("--batch", sp.batch, "Sequences per pass")->transform(tokens_count)->capture_default_str();
    add_speculation(spec, sp.spec, false);
    spec->add_option("--target", sp.target, "Tokens/s per user to reach: reports the acceptance needed")->transform(positive);
    add_format(spec, format);

    cost_command co;
    CLI::App* cost = app.add_subcommand("cost", "$/GPU-hour; with --model, $/M tokens (the layout, engine and request "
                                                "flags need it); with prices, break-even and payback");
    add_deployment(cost, co.dep);
    // Without --model, cost prices the GPU-hour alone: the deployment's default model is not applied, so not shown.
    cost->get_option("--model")
        ->default_str("")
        ->description("Catalog model (llmcost list models) or a Hugging Face config.json (or its folder); without it, "
                      "the GPU-hour alone is priced (no default model)");
    add_checkpoint(cost, co.dep.checkpoint);
    add_request(cost, co.req);
    cost->add_option("--batch", co.batch, "Decode batch for token rates")->transform(tokens_count)->capture_default_str();
    cost->add_option("--utilisation", co.utilisation, "Share of time the GPU serves")->transform(fraction)->capture_default_str();
    cost->add_option("--capex", co.capex, "Price of one GPU with its share of the server, USD")->transform(usd_amount);
    cost->add_option("--electricity", co.electricity, "USD per kWh")->transform(usd_amount);
    cost->add_option("--depreciation-years", co.depreciation_years, "Straight-line depreciation")->transform(positive_in(0.01, 1000, "YEARS"));
    cost->add_option("--price-input", co.price_input, "Selling price, USD per million input tokens")->transform(usd_or_zero);
    cost->add_option("--price-output", co.price_output, "Selling price, USD per million output tokens")->transform(usd_or_zero);
    add_pricing(cost, co.pricing, "tco with --capex, --electricity or --depreciation-years, else market");
    add_format(cost, format);

    optics_command opt;
    CLI::App* optics_app = app.add_subcommand(
        "optics", "Optics of a cluster: transceivers per GPU, watts, copper vs optical scale-up, power and cost share");
    optics_app->add_option("--hardware", opt.hardware, "GPUs to compare (catalog or --hardware-file)")
        ->delimiter(',')
        ->capture_default_str();
    add_hardware_file(optics_app, opt.hardware_file);
    optics_app->add_option("--gpus", opt.gpus, "GPUs in the cluster")->transform(count)->capture_default_str();
    add_format(optics_app, format);

    calibrate_command cal;
    CLI::App* calibrate = app.add_subcommand("calibrate", "Fit efficiency parameters to your own measurements (CSV), with error bars");
    calibrate->add_option("measurements", cal.csv_path, "CSV of measurements (format: include/llmcost/plan/measurements_csv.hpp)")
        ->required()
        ->check(CLI::ExistingFile);
    calibrate->add_option("--free", cal.free_parameters, "Parameters to fit (the others keep the catalog's values)")
        ->check(CLI::IsMember(calibration_parameter_names()))
        ->delimiter(',')
        ->capture_default_str();
    calibrate->add_flag("--with-uncertainty", cal.with_uncertainty, "Print each row's prediction interval");
    calibrate->add_option("--coverage", cal.coverage, "Coverage of the intervals")->transform(percentile)->capture_default_str();
    calibrate->add_flag("--all-rows", cal.all_rows, "Fit check rows too (by default only calibration rows are fitted)");
    calibrate->add_option("--engine", cal.engine,
                          "Price every row with this engine's profile (trtllm | vllm | sglang); default: the reference engine")
        ->check(CLI::IsMember({"trtllm", "vllm", "sglang"}));
    add_format(calibrate, format);

    frontier_command fr;
    CLI::App* frontier_app =
        app.add_subcommand("frontier", "Pareto frontier of tokens/s per GPU against tokens/s per user, under TTFT/TPOT targets");
    frontier_app->add_option("--model", fr.model, "Catalog model or a config.json")->capture_default_str();
    frontier_app->add_option("--hardware", fr.hardware, "GPUs to compare (catalog or --hardware-file)")->delimiter(',')->capture_default_str();
    add_hardware_file(frontier_app, fr.hardware_file);
    frontier_app->add_option("--tp", fr.tp, "Tensor-parallel degrees to try")->delimiter(',')->transform(count)->capture_default_str();
    frontier_app->add_option("--pp", fr.pp, "Pipeline degrees to try")->delimiter(',')->transform(count)->capture_default_str();
    frontier_app->add_option("--ep", fr.ep, "Expert-parallel degrees to try (MoE)")->delimiter(',')->transform(count)->capture_default_str();
    frontier_app->add_option("--weights", fr.weights, "Weight formats to compare")->delimiter(',')->check(CLI::IsMember(weight_format_names()));
    frontier_app->add_option("--kv", fr.kv, "KV cache format")->check(CLI::IsMember(kv_format_names()));
    add_checkpoint(frontier_app, fr.checkpoint);
    frontier_app->add_option("--engine", fr.engine, "Serving engine: trtllm | vllm | sglang; default: the reference engine")
        ->check(CLI::IsMember({"trtllm", "vllm", "sglang"}));
    add_kv_memory_fraction(frontier_app, fr.kv_memory_fraction);
    add_launch_tokens(frontier_app, fr.kv_block_tokens, fr.a2a_dispatch_cap, one_engine_every_gpu);
    add_launch(frontier_app, fr.gemm_table, fr.clock_MHz, fr.quick_reduce);
    frontier_app->add_option("--input", fr.input, "Prompt tokens")->transform(tokens_count)->capture_default_str();
    frontier_app->add_option("--output", fr.output, "Output tokens")->transform(tokens_count)->capture_default_str();
    add_lengths(frontier_app, fr.input_dist, fr.output_dist, fr.dataset);
    frontier_app->add_option("--ttft-percentile", fr.ttft_percentile,
                             "--ttft bounds this percentile with each point served online (Poisson arrivals at the rate "
                             "that keeps its batch; 0.9: p90); colocated only")
        ->transform(percentile);
    frontier_app->add_option("--tpot-percentile", fr.tpot_percentile,
                             "--tpot bounds this percentile of a request's TPOT, each point online; colocated only")
        ->transform(percentile);
    frontier_app->add_option("--max-load", fr.max_load,
                             "Load ceiling: a point's online rate at most this share of its saturated rate (e.g. 0.85)")
        ->transform(fraction)
        ->capture_default_str();
    frontier_app->add_option("--ttft", fr.ttft, "Time-to-first-token target, s")->transform(seconds_target)->capture_default_str();
    frontier_app->add_option("--tpot", fr.tpot, "Time-per-output-token target, s")->transform(seconds_target)->capture_default_str();
    frontier_app->add_option("--max-batch", fr.max_batch, "Largest batch tried")->transform(tokens_count)->capture_default_str();
    frontier_app->add_flag("--disagg", fr.disaggregated, "Add disaggregated (prefill/decode pools) points");
    frontier_app->add_option("--prefix-hit", fr.prefix_hit,
                             "Share of each prompt found in a prefix cache, [0,1): only the rest is prefilled (S6; "
                             "disaggregated: by the prefill pool)")
        ->transform(probability);
    add_speculation(frontier_app, fr.spec, true);
    frontier_app->add_option("--prefill-batch", fr.prefill_batch, "Prompts per prefill pass, disaggregated")->transform(tokens_count);
    frontier_app->add_option("--svg", fr.svg, "Also draw the frontier into this SVG file")->check(not_empty("a file name"));
    frontier_app->add_flag("--ignore-max-position", fr.ignore_max_position, "Allow contexts beyond the model's maximum");
    add_format(frontier_app, format);

    plan_command pl;
    CLI::App* plan_app = app.add_subcommand("plan", "The cheapest deployment for a traffic description under TTFT/TPOT targets");
    plan_app->add_option("--model", pl.model, "Catalog model or a config.json")->capture_default_str();
    plan_app->add_option("--hardware", pl.hardware, "GPUs to consider, catalog or --hardware-file (default: every priced one)")->delimiter(',');
    add_hardware_file(plan_app, pl.hardware_file);
    plan_app->add_option("--rate", pl.rate, "Requests per second at the peak")->transform(rate_check)->capture_default_str();
    plan_app->add_option("--input", pl.input, "Prompt tokens")->transform(tokens_count)->capture_default_str();
    plan_app->add_option("--output", pl.output, "Output tokens")->transform(tokens_count)->capture_default_str();
    plan_app->add_option("--mix", pl.mix,
                         "A mix of request shapes INPUT:OUTPUT:SHARE,... or datasets NAME:SHARE,... (replaces --input/--output)")
        ->check(not_empty("INPUT:OUTPUT:SHARE,... or NAME:SHARE,..."));
    add_lengths(plan_app, pl.input_dist, pl.output_dist, pl.dataset);
    plan_app->add_option("--ttft", pl.ttft, "Time-to-first-token target, s")->transform(seconds_target)->capture_default_str();
    plan_app->add_option("--tpot", pl.tpot, "Time-per-output-token target, s")->transform(seconds_target)->capture_default_str();
    plan_app->add_option("--ttft-percentile", pl.ttft_percentile,
                         "--ttft bounds this percentile under Poisson arrivals (0.9: p90), not the mean")
        ->transform(percentile);
    plan_app->add_option("--tpot-percentile", pl.tpot_percentile,
                         "--tpot bounds this percentile of a request's TPOT under Poisson arrivals")
        ->transform(percentile);
    plan_app->add_option("--max-load", pl.max_load, "Load ceiling: size the fleet at rate / max-load (e.g. 0.85)")
        ->transform(fraction)
        ->capture_default_str();
    plan_app->add_option("--max-gpus", pl.max_gpus, "GPUs in the fleet at most")->transform(tokens_count);
    plan_app->add_option("--max-instance-gpus", pl.max_instance_gpus, "GPUs in one replica or EP group")->transform(count)->capture_default_str();
    plan_app->add_option("--weights", pl.weights, "Weight formats to consider")->delimiter(',')->check(CLI::IsMember(weight_format_names()));
    plan_app->add_option("--kv", pl.kv, "KV cache format")->check(CLI::IsMember(kv_format_names()));
    add_checkpoint(plan_app, pl.checkpoint);
    plan_app->add_option("--engine", pl.engine,
                         "Serving engine: trtllm | vllm | sglang (GPUs it has no profile for are left out); "
                         "default: the reference engine")
        ->check(CLI::IsMember({"trtllm", "vllm", "sglang"}));
    add_kv_memory_fraction(plan_app, pl.kv_memory_fraction);
    add_launch_tokens(plan_app, pl.kv_block_tokens, pl.a2a_dispatch_cap, one_engine_every_gpu);
    add_launch(plan_app, pl.gemm_table, pl.clock_MHz, pl.quick_reduce);
    plan_app->add_option("--usd-per-gpu-hour", pl.usd_per_gpu_hour, "One price for every GPU type")->transform(usd_amount);
    plan_app->add_option("--price", pl.prices, "A GPU type's price: NAME=USD_PER_GPU_HOUR (repeatable)");
    plan_app->add_option("--utilisation", pl.utilisation, "Mean load / the peak rate")->transform(fraction)->capture_default_str();
    add_pricing(plan_app, pl.pricing, "market");
    plan_app->add_flag("--colocated-only", pl.colocated_only, "Leave disaggregated serving out");
    plan_app->add_option("--prefix-hit", pl.prefix_hit,
                         "Share of every prompt found in a prefix cache, [0,1): only the rest is prefilled (S6; "
                         "disaggregated: by the prefill pool)")
        ->transform(probability);
    add_speculation(plan_app, pl.spec, true);
    plan_app->add_flag("--ignore-max-position", pl.ignore_max_position, "Allow contexts beyond the model's maximum");
    add_format(plan_app, format);

    simulate_command simc;
    CLI::App* simulate_app = app.add_subcommand("simulate", "Discrete-event simulation under random or traced traffic: percentiles, goodput");
    add_deployment(simulate_app, simc.dep);
    add_checkpoint(simulate_app, simc.dep.checkpoint);
    add_simulate_options(simulate_app, simc);
    add_format(simulate_app, format);

    try {
        std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());  // CLI11 parses from the back
        app.parse(reversed);
    } catch (const CLI::CallForHelp& e) {
        return finish(app.exit(e, out, err), out, err);
    } catch (const CLI::CallForAllHelp& e) {
        return finish(app.exit(e, out, err), out, err);
    } catch (const CLI::ExtrasError& e) {
        // CLI11 lists the extras last to first; list them in the order given.
        std::vector<std::string> extra = app.remaining(true);
        for (const CLI::App* sub : app.get_subcommands())
            for (const std::string& a : sub->remaining(true)) extra.push_back(a);
        std::string listed;
        std::size_t n = 0;
        for (const std::string& a : arguments)
            if (const auto at = std::find(extra.begin(), extra.end(), a); at != extra.end()) {
                extra.erase(at);
                listed += (n++ ? " " : "") + a;
            }
        if (n == 0) listed = e.what();  // not expected: keep CLI11's own text
        else listed = (n > 1 ? "The following arguments were not expected: " : "The following argument was not expected: ") + listed;
        err << "llmcost: " << listed << "\nRun 'llmcost --help' (or 'llmcost <command> --help') for usage.\n";
        return finish(2, out, err);
    } catch (const CLI::ParseError& e) {
        err << "llmcost: " << e.what() << "\nRun 'llmcost --help' (or 'llmcost <command> --help') for usage.\n";
        return finish(2, out, err);
    }

    try {
        report r;
        if (estimate->parsed()) {
            if (!est.saturate && est.batch == 0) est.saturate = true;
            r = llmcost::cli::estimate(est);
        } else if (list->parsed()) {
            r = llmcost::cli::list(what == "models" ? catalog_kind::models
                                   : what == "hardware" ? catalog_kind::hardware
                                   : what == "engines"  ? catalog_kind::engines
                                   : what == "gemm-tables" ? catalog_kind::gemm_tables
                                                        : catalog_kind::formats,
                                   list_hardware_file);
        } else if (kv->parsed()) {
            r = llmcost::cli::kv(kvc);
        } else if (show->parsed()) {
            r = llmcost::cli::show(shc);
        } else if (disagg->parsed()) {
            r = llmcost::cli::disagg(dis);
        } else if (spec->parsed()) {
            r = llmcost::cli::spec(sp);
        } else if (frontier_app->parsed()) {
            fr.progress = &err;
            r = llmcost::cli::frontier(fr);
        } else if (plan_app->parsed()) {
            pl.progress = &err;
            r = llmcost::cli::plan(pl);
        } else if (simulate_app->parsed()) {
            r = llmcost::cli::simulate(simc, err);
        } else if (calibrate->parsed()) {
            cal.progress = &err;
            r = llmcost::cli::calibrate(cal);
        } else if (cost->parsed()) {
            co.with_model = cost->count("--model") > 0;
            // Every flag given that the GPU-hour does not read, in the order the command declares them.
            for (const CLI::Option* o : cost->get_options()) {
                const std::string name = o->get_name();
                if (o->count() == 0 || std::find(std::begin(cost_gpu_hour_flags), std::end(cost_gpu_hour_flags), name) !=
                                           std::end(cost_gpu_hour_flags))
                    continue;
                co.model_flags.push_back(name);
            }
            r = llmcost::cli::cost(co);
        } else if (optics_app->parsed()) {
            r = llmcost::cli::optics(opt);
        } else {
            r = llmcost::cli::receipt();
        }
        // Files first, so that the report says which were written; a file that cannot be written
        // costs the report nothing: it is still printed, and the exit code says what failed.
        std::vector<std::string> unwritten;
        for (const output_file& f : r.files) {
            try {
                llmcost::io::write_output_file(f.path, f.contents, f.inputs);
                if (!f.note_when_written.empty()) r.notes.push_back(f.note_when_written);
            } catch (const llmcost::io::write_error& e) {
                unwritten.push_back(e.what());
                r.notes.push_back("Not written: " + f.path + " (" + e.rule() + ").");
            }
        }
        out << render(r, format == "json" ? output_format::json
                               : format == "csv" ? output_format::csv
                                                 : output_format::table);
        for (const std::string& why : unwritten) err << why << "\n";
        return finish(unwritten.empty() ? 0 : 3, out, err);
    } catch (const usage_error& e) {
        err << "llmcost: " << e.what() << "\n";
        return finish(2, out, err);
    } catch (const llmcost::invalid_input& e) {
        err << e.what() << "\n";
        return finish(1, out, err);
    } catch (const llmcost::io::load_error& e) {
        err << e.what() << "\n";
        return finish(1, out, err);
    } catch (const std::exception& e) {
        err << "llmcost: internal error: " << e.what() << "\n";
        return finish(1, out, err);
    }
}
