#pragma once
/// \file
/// The `llmcost` tool's commands: each takes its parsed options and returns a report. Parsing
/// (main.cpp, CLI11) and the cost model (commands.cpp) live in separate translation units so that
/// neither pays for the other's templates.

#include "report.hpp"

#include <llmcost/catalog/datasets.hpp>
#include <llmcost/serving/speculative.hpp>
#include <llmcost/serving/throughput.hpp>

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost {
struct deployment;
struct hardware;
struct engine_profile;
struct model;
struct number_format;
struct speculative_decoding;
struct excluded_modules;
enum class pricing_basis;
enum class prompt_launch_mode : unsigned char;
}  // namespace llmcost

namespace llmcost::cli {

/// A mistake in how the tool was called (a flag, a value, a name): exit code 2. Errors of the
/// cost model itself (a layout that does not divide the heads, a batch that does not fit, a
/// malformed config.json) keep their own types and exit with 1.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a checkpoint and a run state beyond the formats (estimate, disagg, frontier, plan, spec, simulate, cost; kv the
/// kept modules alone, `kv_prices_no_step`): the modules the
/// checkpoint keeps out of --weights and how its prompt steps launch, as tables/measurements.csv's
/// `excluded_modules` and `eager_prompt` columns state them (docs/checkpoint-composition.md, docs/trtllm-eager-prompt.md).
struct checkpoint_options {
    std::string excluded_modules;  ///< --excluded-modules: words of `excluded_module_words`, comma-separated; empty = none
    bool excluded_modules_given = false;  ///< --excluded-modules was given (an empty list is refused, not read as none)
    std::string kept_format;       ///< --kept-format: the kept modules' format; empty = bf16
    std::string eager_prompt;      ///< --eager-prompt: overlap | serial | 0
    bool eager_prompt_given = false;  ///< --eager-prompt was given (an empty value is refused, not read as the engine's rule)
};
/// The modules `o` names kept in their format (`excluded_modules_named`, the measurements loader's parser), or
/// nothing without --excluded-modules; an unknown word or format is a usage error naming the option, the word and
/// the alternatives.
[[nodiscard]] std::optional<excluded_modules> kept_modules_of(const checkpoint_options& o);
/// The prompt launch --eager-prompt states (`prompt_launch_named`), or nothing without it; an unknown word, the empty
/// one included, is a usage error naming the option, the value and the words.
[[nodiscard]] std::optional<prompt_launch_mode> eager_prompt_of(const checkpoint_options& o);
/// The notes a command prints for the settings `o` gives (none for those left out): the kept modules and their
/// format, and how the prompt steps launch.
[[nodiscard]] std::vector<std::string> checkpoint_notes(const checkpoint_options& o, std::span<const engine_profile> engines);
/// The weights' fields of a record (estimate, kv, spec, cost, frontier and plan rows): `weights` the format name, as
/// --weights takes it back (a table shows `weights_text`: "nvfp4 (attention_kv_b in bf16)"), `excluded_modules` the
/// kept modules' words (an empty list when none; comma-joined in CSV, as --excluded-modules takes them) and
/// `kept_format` their format (null when none); the last two JSON and CSV only.
void add_weights(record& r, const model& m, std::string label);
/// --excluded-modules needs --weights (the format the rest is quantized to), as the measurements loader's
/// `excluded_modules` needs its `weights` column (`excluded_modules_need_weights`): a usage error otherwise.
void require_weights_for_kept(const std::optional<excluded_modules>& kept, bool weights_given);

/// Which model on which hardware, stored how, split how.
struct deployment_options {
    std::string model = "Llama-3.1-8B";   ///< catalog name, or a path to a config.json (or its folder); 8B fits one GPU, so the defaults run
    std::string hardware = "H100 SXM5";   ///< catalog name, or a row of `hardware_file`
    std::string hardware_file;            ///< --hardware-file: GPUs in tables/hardware.csv's format; empty = none
    int gpus = 0;                         ///< 0 = tp · pp · dp
    int tp = 1, pp = 1, ep = 1;
    int dp = 0;                           ///< 0 = gpus ÷ (tp · pp), or 1
    std::string weights;                  ///< empty = the model's own format
    std::string kv;                       ///< empty = the model's own KV format
    checkpoint_options checkpoint;        ///< --excluded-modules, --kept-format, --eager-prompt
    bool ignore_max_position = false;     ///< allow contexts beyond the model's trained maximum
    std::string engine;                   ///< --engine: trtllm, vllm or sglang; empty = the reference engine
    /// --kv-memory-fraction: the f of the engine's KV pool rule for this run (`with_kv_memory_fraction`);
    /// 0 = the engine's own default (tables/engines.csv; the reference engine's 0.95)
    double kv_memory_fraction = 0;
    /// --kv-block-tokens: the paged KV cache's block size for this run (`with_kv_block_tokens`: vLLM --block-size,
    /// TensorRT-LLM tokens_per_block, SGLang --page-size); 0 = the engine's own (tables/engines.csv kv_block_tokens)
    double kv_block_tokens = 0;
    /// --a2a-dispatch-cap: the tokens a rank may dispatch in one expert all-to-all for this run (`with_dispatch_cap`:
    /// SGLang SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK), the rows a padded expert runner's buffer holds a rank;
    /// 0 = the engine's default (`engine_moe::dispatch_cap`: SGLang's 4096)
    double a2a_dispatch_cap = 0;
    /// --host-loop: "v0" = the launch runs vLLM's V0 LLMEngine loop, each scheduler pass's host time priced
    /// (`engine_overheads::v0_loop`; vllm only); empty: the engine profile's own loop.
    std::string host_loop;
    /// --gemm-table: a catalog GEMM table's id (`catalog::gemm_table_by_id`; llmcost list gemm-tables) the engine loads
    /// for the dense projections (`deployment::gemm`); empty = none, the size curve
    std::string gemm_table;
    /// --clock: the engine clock the run pins, MHz (`at_engine_clock`, as `plan::as_run` prices a row's `clock_MHz`);
    /// 0 = not pinned
    double clock_MHz = 0;
    /// --quick-reduce: int4 = the run turns on the engine's quantized all-reduce (SGLang's QuickReduce INT4 on ROCm,
    /// ROCM_QUICK_REDUCE_QUANTIZATION=INT4), the library's rule `with_quick_reduce`; none (the default): not on
    std::string quick_reduce = "none";
    /// The flags that gave `model` and `hardware`, for messages: a second deployment of the same
    /// command (disagg's decode pool, spec's draft model) names its own flags.
    std::string_view model_flag = "--model";
    std::string_view hardware_flag = "--hardware";
};

struct request_options {
    // Every command's request: 1,000 -> 200 tokens, the one default Python's spec() takes too (speculation_defaults)
    double input = speculation_defaults::input;    ///< prompt tokens
    double output = speculation_defaults::output;  ///< generated tokens
    double prefix_hit = 0;  ///< share of the prompt found in a prefix cache (--prefix-hit), [0, 1)
    /// Lengths that vary (estimate --input-dist/--output-dist/--dataset, as simulate takes them):
    /// empty = every request has --input and --output tokens.
    std::string input_dist, output_dist, dataset;
    [[nodiscard]] bool varies() const { return !input_dist.empty() || !output_dist.empty() || !dataset.empty(); }
};

/// The length distributions of --dataset NAME, or of --input-dist/--output-dist (either one
/// missing: the fixed --input/--output); a usage error names an unknown dataset.
[[nodiscard]] workload::traffic lengths_of(const request_options& r);
/// The request shape of the flags: --input/--output, or the moments of the lengths that vary
/// (`llmcost::shape_of`: means and spreads), with the prefix hit.
[[nodiscard]] request_shape shape_of(const request_options& r);
/// The longest prompt + answer the flags' lengths draw (an unbounded lognormal: its means), tokens.
[[nodiscard]] double longest_context(const request_options& r);
/// "lengths of the sharegpt4 dataset", or "input lognormal:1000:800, output 200".
[[nodiscard]] std::string lengths_text(const request_options& r);
/// The dataset preset of this name (catalog/datasets.hpp); a usage error offers the known names.
[[nodiscard]] const workload::dataset& dataset_named(const std::string& name);

/// Speculative decoding, as `spec` reads it and as `estimate` takes it with --spec: one parser.
struct speculation_options {
    bool on = false;                ///< --spec (estimate): price every decode step as a speculative one
    double acceptance = speculation_defaults::acceptance;    ///< alpha, [0, 1)
    int draft_tokens = speculation_defaults::draft_tokens;  ///< gamma, 1 to 64
    /// "mtp", "eagle", or a catalog model name (a draft model)
    std::string drafter = std::string(speculation_defaults::drafter);
};

struct estimate_command {
    deployment_options dep;
    request_options req;
    speculation_options spec;  ///< with spec.on: speculative decode steps (--spec)
    double batch = 0;     ///< 0 with `saturate`
    bool saturate = false;
    double rate = 0;      ///< requests/s under Poisson arrivals, whole deployment; 0 = not online
    double max_batch = 0;
    double max_tokens = 0;
    /// --kv-admission: reserve | in_use, the launch's KV admission policy over the engine's (`with_kv_admission`:
    /// TensorRT-LLM's GUARANTEED_NO_EVICT | MAX_UTILIZATION); empty = the engine's rule
    std::string kv_admission;
    double prefill_chunk = 0;     ///< 0 = whole prompts
    double usd_per_gpu_hour = 0;  ///< 0 = on --pricing's basis
    std::string pricing = "market";  ///< market | committed | tco (pricing_basis)
    double utilisation = 1.0;
    bool explain = false;      ///< the passes by kernel class and one GPU's memory
    bool best_layout = false;  ///< lay --gpus out the way that serves the most (plan::rank_layouts)
};

struct kv_command {
    deployment_options dep;
    double context = 0;  ///< 0 = the model's maximum
    double batch = 1;
};

struct disagg_command {
    deployment_options dep;
    request_options req;
    std::string decode_hardware;  ///< empty = same as prefill
    int decode_tp = 0;            ///< 0 = same as prefill
    double ttft = 2.0;            ///< s
    double tpot = 0.05;           ///< s
    bool every_token = false;
    std::string path = "scale-out";
    double chunk = 0;             ///< colocated chunked-prefill size in tokens; 0 = whole prompts
    speculation_options spec;     ///< --spec: colocated steps, and the decode pool's
};

struct spec_command {
    deployment_options dep;
    request_options req;
    double batch = speculation_defaults::batch;
    speculation_options spec;
    double target = 0;              ///< tokens/s per user to reach; 0 = none
};

struct cost_command {
    deployment_options dep;
    request_options req;
    double batch = 32;
    double utilisation = 1.0;
    double capex = 0;              ///< $ per GPU; 0 = the catalog's
    double electricity = 0;        ///< $/kWh; 0 = the site's
    double depreciation_years = 0; ///< 0 = the site's
    double price_input = 0;        ///< $ per million input tokens (for break-even); 0 = none
    double price_output = 0;       ///< $ per million output tokens
    bool with_model = false;       ///< --model given: price tokens too
    /// The flags given that describe a model's deployment or its tokens (--tp, --engine, --batch, …), in
    /// the order `cost` declares them (every flag outside `cost_gpu_hour_flags`): without --model each is
    /// refused (a usage error naming it, with what it does where `cost_model_flags` says).
    std::vector<std::string> model_flags;
    std::string pricing;           ///< market | committed | tco; empty: tco with --capex, --electricity or --depreciation-years, else market
};

/// `llmcost optics`: a cluster of each GPU type, copper inside a scale-up domain, optics outside.
struct optics_command {
    std::vector<std::string> hardware{"H100", "B200", "GB200", "B300", "GB300", "Rubin"};
    std::string hardware_file;  ///< --hardware-file: GPUs of your own
    double gpus = 1e6;          ///< GPUs in the cluster (S10: a million)
};

/// `llmcost show --model X`: what the tool reads for a model (a catalog entry or a config.json).
struct show_command {
    std::string model;                  ///< catalog name, or a path to a config.json (or its folder)
    double context = 0;                 ///< 0 = the model's maximum
    bool ignore_max_position = false;
};

enum class catalog_kind { models, hardware, formats, engines, gemm_tables };

/// --pricing's value as the library's basis (the option's check admits only these three).
[[nodiscard]] pricing_basis pricing_named(const std::string& name);


/// The speculation `o` names with a draft head of model `m` (`eagle`, or `mtp` for a model that ships
/// MTP modules): what frontier and plan price, each deployment laid out its own way. A catalog model
/// as `--drafter` is a usage error there (estimate --spec prices a draft model).
[[nodiscard]] speculative_decoding head_speculation(const speculation_options& o, const model& m);

[[nodiscard]] report receipt();
[[nodiscard]] report estimate(const estimate_command& c);
/// The catalog (and, for hardware, the rows of `hardware_file` first when one is given).
[[nodiscard]] report list(catalog_kind k, const std::string& hardware_file = {});
[[nodiscard]] report kv(const kv_command& c);
/// The parsed descriptor: layers by kind, FFN or MoE, parameters (total, active), KV per token by
/// layer kind, KV and state at a context (default the maximum), max context.
[[nodiscard]] report show(const show_command& c);
[[nodiscard]] report disagg(const disagg_command& c);
[[nodiscard]] report spec(const spec_command& c);
[[nodiscard]] report cost(const cost_command& c);
/// The flags of `cost` that mean something only with --model, each with what it does: cost without
/// --model prices a GPU-hour alone, so it refuses them rather than ignore them.
struct cost_model_flag {
    std::string_view flag, does;
};
inline constexpr cost_model_flag cost_model_flags[] = {
    {"--gpus", "lays out a model's deployment"},
    {"--tp", "lays out a model's deployment"},
    {"--pp", "lays out a model's deployment"},
    {"--ep", "lays out a model's deployment"},
    {"--dp", "lays out a model's deployment"},
    {"--weights", "chooses a model's weight format"},
    {"--kv", "chooses a model's KV cache format"},
    {"--engine", "prices a model's steps with an engine's profile"},
    {"--kv-memory-fraction", "sizes a model's KV pool"},
    {"--gemm-table", "prices a model's dense projections with a measured GEMM table"},
    {"--clock", "pins the engine clock a model's steps run at"},
    {"--quick-reduce", "turns on an engine's quantized all-reduce for a model's TP group"},
    {"--excluded-modules", "keeps a model checkpoint's modules out of its weights' format"},
    {"--kept-format", "sets the format of a model checkpoint's kept modules"},
    {"--eager-prompt", "states how a model's prompt steps launch"},
    {"--ignore-max-position", "lets a model's context pass its trained maximum"},
    {"--input", "shapes the requests whose tokens are priced"},
    {"--output", "shapes the requests whose tokens are priced"},
    {"--batch", "sets the decode batch of the token rates"},
    {"--price-input", "prices tokens for a break-even against the model's token rates"},
    {"--price-output", "prices tokens for a break-even against the model's token rates"},
};
/// The flags `cost` reads without --model (the GPU-hour's own): every other flag given without --model
/// is refused, whether or not `cost_model_flags` describes it, so a flag added later cannot be ignored.
inline constexpr std::string_view cost_gpu_hour_flags[] = {
    "--model", "--hardware", "--hardware-file", "--utilisation", "--capex", "--electricity",
    "--depreciation-years", "--pricing", "--format", "--help",
};
[[nodiscard]] report optics(const optics_command& c);

// ---- names: one reading for every command ---------------------------------------------------

/// The GPUs a command can name: the rows of `hardware_file` (tables/hardware.csv's format, read
/// with io::load_hardware_csv; a bad row is a load_error naming file:line:column), then the
/// built-in catalog. Empty `hardware_file`: the catalog alone.
[[nodiscard]] std::vector<hardware> hardware_choices(const std::string& hardware_file);
/// The GPU `query` names (loosely, as `catalog::lookup`) among `hardware_choices(hardware_file)`:
/// the file's rows come first, so a row may reuse a catalog name and replace it. Otherwise a usage
/// error that says why with the names to try instead (from both):
/// "--hardware 'H1OO' is not in the catalog; closest: H100 SXM5, …".
[[nodiscard]] hardware hardware_named(std::string_view query, std::string_view flag = "--hardware",
                                      const std::string& hardware_file = {});
/// A catalog model by name, or a Hugging Face config.json (a file, or the folder that holds one).
[[nodiscard]] model model_named(const std::string& query, std::string_view flag = "--model");
/// The file `model_named(query)` reads when `query` is a path (a config.json, or the folder's
/// config.json), or nothing for a catalog name: the inputs an output file must not replace.
[[nodiscard]] std::optional<std::filesystem::path> model_file(const std::string& query);
/// A number format by name (`llmcost list formats`), or a usage error naming `flag`.
[[nodiscard]] number_format format_named_or_throw(const std::string& name, std::string_view flag);

/// The catalog GEMM table `id` names (`catalog::gemm_table_by_id`), or a usage error naming the ids (--gemm-table).
[[nodiscard]] const gemm_table* gemm_table_named(const std::string& id);
/// The deployment the flags describe (a usage error for layout arithmetic; the library's rules
/// as invalid_input).
[[nodiscard]] deployment build(const deployment_options& o);
/// The notes a command prints for the run's launch settings --gemm-table, --clock and --quick-reduce (none for those
/// left out): the table, its range and the clock ratio its times are scaled by (`gemm_tuning::time_scale`), what the
/// pinned clock scales, and the band and curve the quantized all-reduce prices (`engine_collectives::quick_reduce`).
[[nodiscard]] std::vector<std::string> launch_notes(const deployment_options& o, const deployment& d);
/// `launch_notes` over the deployments a sweep's rows show (frontier, plan), once per command: the table and clock
/// notes once each, one QuickReduce note naming every GPU and TP group n it covers.
[[nodiscard]] std::vector<std::string> launch_notes(const deployment_options& o, const std::vector<const deployment*>& rows);
/// The note a command prints when `--engine` chose the profile: its name, version and that its
/// scheduler defaults fill the limits the flags left open (`with_engine_defaults`).
[[nodiscard]] std::string engine_note(const engine_profile& e);
/// The catalog profile of engine `name` (trtllm, vllm, sglang) on `hw`: an unknown name is a
/// usage_error; an engine with no profile for the GPU's architecture is refused (invalid_input).
[[nodiscard]] engine_profile engine_named_for(const std::string& name, const hardware& hw);
/// The engine of each of `gpus` as --engine, --kv-memory-fraction and --kv-block-tokens name them, for the sweeps
/// (frontier, plan): `name`'s profile on each (the reference engine where `name` is empty), with
/// `kv_memory_fraction` as the f of its KV pool rule (`with_kv_memory_fraction`; 0: the profile's
/// own), `kv_block_tokens` its KV block (`with_kv_block_tokens`; 0: the profile's own) and `a2a_dispatch_cap` the
/// tokens a rank may dispatch in one all-to-all (`with_dispatch_cap`; 0: the profile's own). Empty when none is
/// given: the sweep's reference engine.
[[nodiscard]] std::vector<engine_profile> engines_for(const std::string& name, double kv_memory_fraction,
                                                     double kv_block_tokens, double a2a_dispatch_cap,
                                                     const std::vector<hardware>& gpus);
/// `engines_for`, each engine's prompt steps launched as --eager-prompt states (`eager_prompt_of`; the reference
/// engine's on each GPU where no engine is named).
[[nodiscard]] std::vector<engine_profile> engines_for(const std::string& name, double kv_memory_fraction,
                                                     double kv_block_tokens, double a2a_dispatch_cap,
                                                     const std::vector<hardware>& gpus, const checkpoint_options& o);
/// The note a command prints when --kv-memory-fraction sized the pool: the engine's rule with its f
/// ("f·H − W − X at f = 0.5, vLLM's gpu_memory_utilization rule …").
[[nodiscard]] std::string kv_memory_fraction_note(const engine_profile& e);

/// Names the tool accepts for --weights and --kv, in the order --help lists them.
[[nodiscard]] std::vector<std::string> weight_format_names();
[[nodiscard]] std::vector<std::string> kv_format_names();

}  // namespace llmcost::cli
