// The `llmcost` tool's commands: options in, a report out. Every figure comes from the library;
// this file only chooses which figures to show and how to name them.
#include "commands.hpp"

#include <llmcost/catalog.hpp>
#include <llmcost/catalog/lookup.hpp>
#include <llmcost/descriptors/weights_text.hpp>
#include <llmcost/io/hardware_csv.hpp>
#include <llmcost/io/hf_config.hpp>
#include <llmcost/io/lengths.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/layouts.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>

namespace llmcost::cli {

namespace {

/// `query` for `flag` is not one catalog entry: a usage error with the names to try instead.
template <class Entry>
[[noreturn]] void refuse(const catalog::lookup_result<Entry>& found, std::string_view query, std::string_view flag,
                         std::string_view listing) {
    std::string msg(flag);
    msg.append(" '").append(query).append("' is ").append(found.problem());
    msg.append(" (see `llmcost list ").append(listing).append("`)");
    throw usage_error(msg);
}

}  // namespace

// ---- names ---------------------------------------------------------------------------------

std::vector<hardware> hardware_choices(const std::string& hardware_file) {
    std::vector<hardware> v;
    if (!hardware_file.empty()) v = io::load_hardware_csv(hardware_file);
    v.insert(v.end(), catalog::all_hardware.begin(), catalog::all_hardware.end());
    return v;
}

hardware hardware_named(std::string_view query, std::string_view flag, const std::string& hardware_file) {
    if (hardware_file.empty()) {
        const auto found = catalog::lookup<hardware>(query);
        if (!found) refuse(found, query, flag, "hardware");
        return *found.match;
    }
    const std::vector<hardware> choices = hardware_choices(hardware_file);
    const auto found = catalog::lookup(choices, query);
    if (!found) refuse(found, query, flag, "hardware --hardware-file " + hardware_file);
    return *found.match;
}

std::optional<std::filesystem::path> model_file(const std::string& query) {
    namespace fs = std::filesystem;
    const bool looks_like_path = query.find('/') != std::string::npos || query.ends_with(".json");
    std::error_code ec;
    if (!looks_like_path && !fs::exists(query, ec)) return std::nullopt;
    fs::path file = query;
    if (fs::is_directory(file, ec)) file /= "config.json";
    return file;
}

model model_named(const std::string& query, std::string_view flag) {
    if (const std::optional<std::filesystem::path> file = model_file(query)) {
        std::error_code ec;
        if (std::filesystem::symlink_status(*file, ec).type() == std::filesystem::file_type::not_found)
            throw usage_error(std::string(flag) + " '" + text::utf8_escaped(query) + "': no such file" +
                              (file->filename() == "config.json" && !query.ends_with(".json") ? " (looked for config.json in it)" : ""));
        return io::load_hf_config(*file);
    }
    const auto found = catalog::lookup<model>(query);
    if (!found) refuse(found, query, flag, "models");
    return *found.match;
}

number_format format_named_or_throw(const std::string& name, std::string_view flag) {
    if (const auto f = format_named(name)) return *f;
    throw usage_error(std::string(flag) + " '" + name + "' is not a number format (see `llmcost list formats`)");
}

/// The catalog profile of engine `name` on `hw` (catalog::engine_for): an unknown name is a usage
/// error naming the engines; an engine without a profile for the GPU is refused by the library.
engine_profile engine_named_for(const std::string& name, const hardware& hw) {
    const std::optional<engine_kind> k = engine_named(name);
    if (!k || *k == engine_kind::reference)
        throw usage_error("--engine: unknown engine \"" + name + "\"; the engines are trtllm, vllm, sglang");
    return catalog::engine_for(*k, hw);
}

std::optional<excluded_modules> kept_modules_of(const checkpoint_options& o) {
    if (o.excluded_modules.empty() && !o.excluded_modules_given) return std::nullopt;
    const number_format format = o.kept_format.empty() ? formats::bf16 : format_named_or_throw(o.kept_format, "--kept-format");
    const excluded_modules_reading r = excluded_modules_named(o.excluded_modules, ',', format);
    if (r.names_none())
        throw usage_error("--excluded-modules: " + std::string(excluded_modules_names_none) + std::string(excluded_module_words));
    if (!r.ok())
        throw usage_error("--excluded-modules: unknown module '" + std::string(r.unknown) +
                          "'; the modules a checkpoint keeps out of --weights, comma-separated: " +
                          std::string(excluded_module_words));
    return r.kept;
}

void add_weights(record& r, const model& m, std::string label) {
    r.add("weights", std::move(label), std::string(m.weights.name));
    r.fields.back().table_text = weights_text(m);
    r.add("excluded_modules", "kept out of the weights' format", excluded_module_words_of(m.excluded));
    r.fields.back().in_table = false;
    r.add("kept_format", "kept modules' format",
          m.excluded.any() ? value(std::string(m.excluded.format.name)) : value());
    r.fields.back().in_table = false;
}

void require_weights_for_kept(const std::optional<excluded_modules>& kept, bool weights_given) {
    if (kept && !weights_given)
        throw usage_error("--excluded-modules: " + std::string(excluded_modules_need_weights) + " (--weights)");
}

std::optional<prompt_launch_mode> eager_prompt_of(const checkpoint_options& o) {
    if (o.eager_prompt.empty() && !o.eager_prompt_given) return std::nullopt;
    const std::optional<prompt_launch_mode> m = prompt_launch_named(o.eager_prompt);  // "" too: refused below
    if (!m)
        throw usage_error("--eager-prompt: unknown value '" + o.eager_prompt + "'; one of " +
                          std::string(prompt_launch_words) + " (left out: the engine's rule)");
    return m;
}

std::vector<std::string> checkpoint_notes(const checkpoint_options& o, std::span<const engine_profile> engines) {
    std::vector<std::string> notes;
    if (const std::optional<excluded_modules> kept = kept_modules_of(o))
        notes.push_back("Kept out of the weights' format (--excluded-modules " + o.excluded_modules + "): their bytes " +
                        "and matmuls in " + std::string(kept->format.name) + " (docs/checkpoint-composition.md).");
    if (const std::optional<prompt_launch_mode> p = eager_prompt_of(o)) {
        std::string n = "Prompt steps (--eager-prompt " + o.eager_prompt + "): ";
        const bool priced = std::ranges::any_of(engines, [](const engine_profile& e) {
            return e.overheads.prefill_launch.value() > 0.0;
        });
        if (!priced) {  // the reference engine, vLLM, TensorRT-LLM on Hopper: prefill_launch 0
            n += "no effect: this engine prices no prompt launch (prefill_launch_us 0 in llmcost list engines; read by "
                 "TensorRT-LLM on Blackwell and SGLang, docs/trtllm-eager-prompt.md).";
            notes.push_back(std::move(n));
            return notes;
        }
        switch (*p) {
            case prompt_launch_mode::overlap: n += "launched eagerly while the step before runs, max(t_GPU, H - t_prev)"; break;
            case prompt_launch_mode::serial: n += "launched eagerly with nothing to hide behind, max(t_GPU, H)"; break;
            case prompt_launch_mode::none: n += "no eager launch priced"; break;
            case prompt_launch_mode::engine: n += "the engine's rule"; break;
        }
        n += "; H = kernels x the engine's prefill_launch_us, read where it is above 0 (TensorRT-LLM on Blackwell, "
             "SGLang; docs/trtllm-eager-prompt.md).";
        notes.push_back(std::move(n));
    }
    return notes;
}

const gemm_table* gemm_table_named(const std::string& id) {
    if (const gemm_table* g = catalog::gemm_table_by_id(id)) return g;
    std::string known;
    for (const gemm_table* c : catalog::gemm_tables) known += (known.empty() ? "" : ", ") + std::string(c->id);
    throw usage_error("--gemm-table: unknown table '" + id + "'; the tables are " + known + " (see `llmcost list gemm-tables`)");
}

/// The deployment the flags describe. The layout's rules (--gpus against the degrees, tp divides
/// the heads …) are the library's, thrown by `layout_for_gpus` and `validate` as invalid_input.
deployment build(const deployment_options& o) {
    deployment d{.m = model_named(o.model, o.model_flag), .hw = hardware_named(o.hardware, o.hardware_flag, o.hardware_file)};
    d.layout = layout_for_gpus({.gpus = o.gpus, .tp = o.tp, .pp = o.pp, .ep = o.ep, .dp = o.dp});
    serving_formats f;
    if (!o.weights.empty()) f.weights = format_named_or_throw(o.weights, "--weights");
    if (!o.kv.empty()) f.kv = format_named_or_throw(o.kv, "--kv");
    f.kept = kept_modules_of(o.checkpoint);
    require_weights_for_kept(f.kept, f.weights.has_value());
    d = with_formats(d, f);
    if (!o.engine.empty()) d.engine = engine_named_for(o.engine, d.hw);
    if (o.kv_memory_fraction > 0) d.engine = with_kv_memory_fraction(d.engine, o.kv_memory_fraction);  // the launch's flag
    if (o.kv_block_tokens > 0) d.engine = with_kv_block_tokens(d.engine, o.kv_block_tokens);  // the launch's block size
    if (o.a2a_dispatch_cap > 0) d.engine = with_dispatch_cap(d.engine, o.a2a_dispatch_cap);  // the launch's MORI cap
    if (o.host_loop == "v0") d.engine = with_v0_loop(d.engine, "--engine", "--host-loop");  // vLLM V0's host passes
    if (const std::optional<prompt_launch_mode> p = eager_prompt_of(o.checkpoint)) d.engine.overheads.prompt_launch = *p;
    if (!o.gemm_table.empty()) d.gemm.table = gemm_table_named(o.gemm_table);
    if (o.quick_reduce == "int4") d.engine = with_quick_reduce(d.engine, d.layout.tp, d.engine.name, "--quick-reduce");
    d = at_engine_clock(d, o.clock_MHz, "--clock");  // 0: not pinned; else the GPU's clock rule, naming --clock
    d.validate();  // a table for another GPU, format, model or TP degree: the library's refusal (gemm_table::check_fits)
    return d;
}

namespace {

/// The QuickReduce note of the deployments `rows` (those whose engine `with_quick_reduce` turned it on), one for all:
/// the curve t = a + 2(n-1)/n x S / B with each profile's a and B, the TP groups n it runs on and the custom kernel's
/// range before it; the GPU named where the rows span more than one.
std::optional<std::string> quick_reduce_note(const std::vector<const deployment*>& rows) {
    auto size = [](bytes_t b) {
        const double v = b.value();
        return v >= 1073741824.0 ? invalid_input::show(v / 1073741824.0) + " GiB" : invalid_input::show(v / 1048576.0) + " MiB";
    };
    struct group {
        const deployment* d;
        std::vector<int> tps;
    };
    std::vector<group> groups;  // one per GPU and curve, in the rows' order
    for (const deployment* d : rows) {
        if (!d->engine.collectives.quick_reduce) continue;
        auto at = std::find_if(groups.begin(), groups.end(), [&](const group& g) {
            return g.d->hw.name == d->hw.name && g.d->engine.collectives == d->engine.collectives;
        });
        if (at == groups.end()) at = groups.insert(groups.end(), group{d, {}});
        if (std::find(at->tps.begin(), at->tps.end(), d->layout.tp) == at->tps.end()) at->tps.push_back(d->layout.tp);
    }
    if (groups.empty()) return std::nullopt;
    std::string n = "TP all-reduces ";
    for (std::size_t k = 0; k < groups.size(); ++k) {
        const engine_collectives& q = groups[k].d->engine.collectives;
        std::vector<int> tps = groups[k].tps;
        std::sort(tps.begin(), tps.end());
        if (k > 0) n += "; ";
        if (groups.size() > 1) n += std::string(groups[k].d->hw.name) + ": ";
        n += "from " + size(q.quick_reduce_min) + " to " + size(q.quick_reduce_max);
        if (k == 0) n += " on QuickReduce INT4 (--quick-reduce int4): t = a + 2(n-1)/n x S / B,";
        n += " a " + invalid_input::show(q.quick_reduce_all_reduce.value() * 1e6) + " us, B " +
             invalid_input::show(q.quick_reduce_bus.value() / 1e9) + " GB/s, n = ";
        std::string caps;  // the custom kernel's range at each n: one figure where they agree
        bool same = true;
        for (std::size_t j = 0; j < tps.size(); ++j) {
            n += (j > 0 ? ", " : "") + std::to_string(tps[j]);
            if (q.custom_all_reduce_max_at(tps[j]).value() != q.custom_all_reduce_max_at(tps.front()).value()) same = false;
        }
        n += " ranks";
        for (std::size_t j = 0; j < tps.size(); ++j) {
            const bytes_t cap = q.custom_all_reduce_max_at(tps[j]);
            if (cap.value() <= 0.0 || (same && j > 0)) continue;
            caps += (caps.empty() ? "" : ", ") + size(cap) + (same ? "" : " at n = " + std::to_string(tps[j]));
        }
        if (!caps.empty()) n += "; the custom kernel keeps the messages up to its " + caps + " first";
    }
    return n + " (docs/cdna-all-reduce.md section 7).";
}

/// The replicated shared expert's note of the deployments `rows` (those whose engine runs the shared expert whole on
/// every EP rank, `replicated_shared_expert_share` > 0), one for all: each layout "tp T ep E: +X a GPU, share x",
/// grouped by engine, like `quick_reduce_note`.
std::optional<std::string> shared_expert_note(const std::vector<const deployment*>& rows) {
    struct group {
        std::string engine;
        std::vector<std::string> layouts;
    };
    std::vector<group> groups;  // one per engine, in the rows' order
    for (const deployment* d : rows) {
        const double x = replicated_shared_expert_share(*d);
        if (!(x > 0.0)) continue;
        auto at = std::find_if(groups.begin(), groups.end(), [&](const group& g) { return g.engine == d->engine.name; });
        if (at == groups.end()) at = groups.insert(groups.end(), group{std::string(d->engine.name), {}});
        std::string l = "tp " + std::to_string(d->layout.tp) + " ep " + std::to_string(d->layout.ep) + ": +" +
                        to_text(replicated_shared_expert_bytes_per_gpu(*d)) + " a GPU, share " + invalid_input::show(x);
        if (std::find(at->layouts.begin(), at->layouts.end(), l) == at->layouts.end()) at->layouts.push_back(std::move(l));
    }
    if (groups.empty()) return std::nullopt;
    std::string n = "Shared expert fused into the MoE runner and run whole on every EP rank without attention DP: each "
                    "GPU holds and reads the weights shown more and runs the share shown of the shared experts' FLOPs a "
                    "token more than a 1/tp shard, at the routed experts' rate (";
    for (std::size_t k = 0; k < groups.size(); ++k) {
        if (k > 0) n += "; ";
        n += groups[k].engine + ": ";
        for (std::size_t j = 0; j < groups[k].layouts.size(); ++j) n += (j > 0 ? "; " : "") + groups[k].layouts[j];
    }
    return n + "; docs/sglang-rocm-shared-expert.md).";
}

}  // namespace

std::vector<std::string> launch_notes(const deployment_options& o, const std::vector<const deployment*>& rows) {
    std::vector<std::string> notes;
    auto add = [&](std::string n) {
        if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(std::move(n));
    };
    for (const deployment* d : rows) {
        if (const gemm_table* g = d->gemm.table) {
            const double lo = g->first_tokens().value(), hi = g->last_tokens().value();
            std::string n = "Dense projections (--gemm-table " + std::string(g->id) + "): the table's measured times on " +
                            std::string(g->gpu) + " from " + invalid_input::show(lo) + " to " + invalid_input::show(hi) +
                            " tokens a step, at its " + invalid_input::show(g->clock_MHz) + " MHz";
            if (d->gemm.run_clock_MHz > 0.0)
                n += " x " + invalid_input::show(g->clock_MHz) + " / " + invalid_input::show(d->gemm.run_clock_MHz) +
                     " (--clock)";
            n += "; above it the rate at its largest size, below it the size curve (docs/amd-hipblaslt-tables.md).";
            add(std::move(n));
        }
        if (o.clock_MHz > 0.0) {
            const double f0 = d->hw.gpu.efficiency.compute_clock_MHz;  // at_clock keeps the clock they were measured at
            std::string n = "Engine clock pinned at " + invalid_input::show(o.clock_MHz) + " MHz (--clock): ";
            if (f0 > 0.0)
                n += "the GPU's compute fractions (GEMM, attention) x " + invalid_input::show(o.clock_MHz) + " / " +
                     invalid_input::show(f0) + ", the clock they were measured at.";
            else
                n += "no effect on the size curves: " + std::string(d->hw.name) + " states no clock for its compute fractions.";
            add(std::move(n));
        }
    }
    if (std::optional<std::string> n = shared_expert_note(rows)) notes.push_back(std::move(*n));  // `replicated_shared_expert_share`
    if (std::optional<std::string> n = quick_reduce_note(rows)) notes.push_back(std::move(*n));  // `with_quick_reduce` on
    return notes;
}

std::vector<std::string> launch_notes(const deployment_options& o, const deployment& d) {
    return launch_notes(o, std::vector<const deployment*>{&d});
}

std::vector<engine_profile> engines_for(const std::string& name, double kv_memory_fraction, double kv_block_tokens,
                                        double a2a_dispatch_cap, const std::vector<hardware>& gpus) {
    std::vector<engine_profile> engines;
    if (name.empty() && !(kv_memory_fraction > 0) && !(kv_block_tokens > 0) && !(a2a_dispatch_cap > 0))
        return engines;  // the sweep's reference engine
    for (const hardware& h : gpus) {
        engine_profile e = name.empty() ? engine_profile::reference() : engine_named_for(name, h);
        if (kv_memory_fraction > 0) e = with_kv_memory_fraction(e, kv_memory_fraction);
        if (kv_block_tokens > 0) e = with_kv_block_tokens(e, kv_block_tokens);  // the launch's block size
        if (a2a_dispatch_cap > 0) e = with_dispatch_cap(e, a2a_dispatch_cap);  // the launch's MORI cap
        engines.push_back(e);
    }
    return engines;
}

std::vector<engine_profile> engines_for(const std::string& name, double kv_memory_fraction, double kv_block_tokens,
                                        double a2a_dispatch_cap, const std::vector<hardware>& gpus,
                                        const checkpoint_options& o) {
    std::vector<engine_profile> engines = engines_for(name, kv_memory_fraction, kv_block_tokens, a2a_dispatch_cap, gpus);
    const std::optional<prompt_launch_mode> p = eager_prompt_of(o);
    if (!p) return engines;
    if (engines.empty()) engines.assign(gpus.size(), engine_profile::reference());  // the sweep's reference engine
    for (engine_profile& e : engines) e.overheads.prompt_launch = *p;
    return engines;
}

std::string kv_memory_fraction_note(const engine_profile& e) {
    const engine_scheduler& s = e.scheduler;
    std::string n = "KV pool per GPU by ";  // appended piece by piece: GCC bug 105329's false -Wrestrict
    if (e.kind == engine_kind::reference) {
        n += "the reference engine's rule ";
    } else {
        n += to_string(e.kind);
        n += "'s rule ";
    }
    n += to_string(s.kv_pool);
    switch (s.kv_pool) {
        case kv_pool_rule::share_of_total: n += ", f·H − W − X"; break;
        case kv_pool_rule::free_after_weights: n += ", f·(H − W − X)"; break;
        case kv_pool_rule::share_of_total_static: n += ", f·(H − R) − W"; break;
    }
    n += ", at f = ";
    n += invalid_input::show(s.kv_memory_fraction);
    n += " (--kv-memory-fraction)";
    if (s.long_context_fraction_scale > 0.0) {
        n += " × ";
        n += invalid_input::show(s.long_context_fraction_scale);
        n += " where the model's context exceeds " + to_text(long_context_fraction_tokens) + " (SGLang's aiter backend)";
    }
    n += ": H the GPU's HBM as the runtime reports it, W the weights";
    if (s.kv_pool == kv_pool_rule::share_of_total_static) {
        n += ", R the memory resident at init (";
        n += to_text(s.init_resident, text::options{.digits = 3, .bytes = text::byte_prefix::binary});
        n += "); the activations and CUDA graphs live in the other 1 − f";
    }
    else if (s.non_kv.given())
        n += ", X the engine's non-KV memory (activations, NCCL buffers, runtime)";
    else
        n += ", X the library's 2 GB of activations (no non-KV figures for this engine)";
    n += "; docs/kv-pool.md.";
    return n;
}

const workload::dataset& dataset_named(const std::string& name) {
    const workload::dataset* set = catalog::find_dataset(name);
    if (set == nullptr) {
        std::string why = "--dataset '";  // appended piece by piece: GCC bug 105329's false -Wrestrict
        why += name;
        why += "' is not a dataset; known: ";
        why += catalog::dataset_names();
        throw usage_error(why);
    }
    return *set;
}

workload::traffic lengths_of(const request_options& r) {
    if (!r.dataset.empty()) return dataset_named(r.dataset).traffic_with({});
    workload::traffic t{.input = workload::fixed(tokens(r.input)), .output = workload::fixed(tokens(r.output))};
    if (!r.input_dist.empty()) t.input = io::parse_length(r.input_dist, "--input-dist");
    if (!r.output_dist.empty()) t.output = io::parse_length(r.output_dist, "--output-dist");
    return t;
}

std::string lengths_text(const request_options& r) {
    if (!r.dataset.empty()) {
        std::string s = "lengths of the ";
        s += r.dataset;
        s += " dataset";
        return s;
    }
    std::string s = "input ";
    s += r.input_dist.empty() ? invalid_input::show(r.input) : r.input_dist;
    s += ", output ";
    s += r.output_dist.empty() ? invalid_input::show(r.output) : r.output_dist;
    return s;
}

request_shape shape_of(const request_options& r) {
    if (r.varies()) {
        const workload::traffic t = lengths_of(r);
        return llmcost::shape_of(t.input, t.output, r.prefix_hit);
    }
    return {.input = tokens(r.input), .output = tokens(r.output), .cached_fraction = r.prefix_hit};
}

double longest_context(const request_options& r) {
    if (!r.varies()) return r.input + r.output;
    return lengths_of(r).longest_context().value();  // an unbounded lognormal: its mean
}

namespace {

/// Contexts past the trained maximum are refused unless asked for (RoPE scaling, a fine-tune).
void check_context(const deployment& d, double context, const deployment_options& o) {
    if (!o.ignore_max_position) require_within_max_position(d.m, context, "; pass --ignore-max-position to price it anyway");
}

std::string layout_text(const deployment& d) {
    const parallel_layout& l = d.layout;
    std::string s = std::to_string(l.gpus()) + " × " + std::string(d.hw.name) + " (tp " + std::to_string(l.tp);
    if (l.pp > 1) s += ", pp " + std::to_string(l.pp);
    if (l.ep > 1) s += ", ep " + std::to_string(l.ep);
    if (l.dp > 1) s += ", dp " + std::to_string(l.dp);
    return s + ")";
}

std::string formats_text(const model& m) {
    std::string s = "weights " + weights_and_experts_text(m);  // "weights nvfp4 (attention_kv_b in bf16; experts mxfp4)"
    s += ", KV " + std::string(m.kv_cache.name) + ", matmuls in " + std::string(to_string(m.activations.compute));
    return s;
}

void add_deployment(record& r, const deployment& d) {
    r.add("model", "model", std::string(d.m.name))
        .add("hardware", "hardware", std::string(d.hw.name))
        .add("gpus", "GPUs", static_cast<double>(d.layout.gpus()))
        .add("tp", "tensor parallel", static_cast<double>(d.layout.tp))
        .add("pp", "pipeline parallel", static_cast<double>(d.layout.pp))
        .add("ep", "expert parallel", static_cast<double>(d.layout.ep))
        .add("dp", "data parallel", static_cast<double>(d.layout.dp));
    add_weights(r, d.m, "weight format");
    r.add("kv", "KV cache format", std::string(d.m.kv_cache.name));
}

double per_million(const dollars_per_token_t& c) { return c.value() * 1e6; }

/// A site's power multipliers as the notes show them: "x 1.3 server x 1.2 cooling".
std::string multipliers_text(const facility& site) {
    return "x " + text::number(site.server_overhead) + " server x " + text::number(site.cooling) + " cooling";
}

}  // namespace

pricing_basis pricing_named(const std::string& name) {
    if (name == "committed") return pricing_basis::committed;
    if (name == "tco") return pricing_basis::tco;
    if (name == "market" || name.empty()) return pricing_basis::market;
    throw usage_error("--pricing '" + name + "' is not market, committed or tco");
}

std::vector<std::string> weight_format_names() {
    std::vector<std::string> v;
    for (const number_format& f : formats::all)
        if (f.name != "fp32") v.emplace_back(f.name);
    return v;
}

std::vector<std::string> kv_format_names() { return {"bf16", "fp16", "fp8", "int8", "fp4", "nvfp4", "mxfp4"}; }

// ---- receipt -------------------------------------------------------------------------------

report receipt() {
    // The seed dashboard (S39): 40B parameters at 8 bits read per pass, a 20 TB/s GPU at 1.5 kW,
    // batch 32, 200 prompt and 500 output tokens, prefill at an effective 2 PFLOP/s.
    const facility& site = catalog::seed_site;
    const llmcost::receipt rc = seed_receipt(catalog::seed_journey, site);
    const deployment& dash = rc.scenario.serving;
    const journey::times& j = rc.journey;

    report r{.title = "llmcost receipt: the seed dashboard (" + std::string(dash.m.name) + " on " +
                      std::string(dash.hw.name) + ", batch " + text::number(rc.scenario.batch) + ", " +
                      text::number(rc.scenario.prompt.value()) + " -> " + text::number(rc.scenario.output.value()) +
                      " tokens)",
             .layout = report::shape::by_id};
    auto line = [&](std::string id, std::string label, double v, std::string unit, std::string shown = {}) {
        record rec{.id = std::move(id)};
        rec.add("value", std::move(label), v, std::move(unit), std::move(shown));
        r.records.push_back(std::move(rec));
    };
    line("S27", "one decode pass reads " + to_text(rc.step.weight_bytes) + " at " + to_text(dash.hw.gpu.hbm_bandwidth),
         rc.pass.value(), "s");
    line("S28", "GPU time per token: the pass shared by a batch of " + text::number(rc.scenario.batch),
         rc.per_token.value(), "s");
    line("S29", "decode energy: x " + to_text(dash.hw.gpu.board_power) + " x " + text::number(rc.scenario.output.value()) +
                    " tokens",
         rc.decode_energy.value(), "J");
    line("S30.decode", "at the wall (" + multipliers_text(site) + "), decode only", rc.decode_wall_energy.value(), "J",
         "Wh");
    line("S11", "prefill of the " + text::number(rc.scenario.prompt.value()) + "-token prompt at 2 PFLOP/s",
         rc.prefill_time.value(), "s");
    line("S30", "at the wall with the prefill's energy (the seed's 0.026 Wh)", rc.wall_energy.value(), "J", "Wh");
    line("S27.kv", "KV cache the same pass also reads (" + text::number(rc.scenario.batch) + " sequences mid-answer)",
         rc.step.kv_bytes.value(), "B");
    line("S27.full", "the pass with its KV reads and activations (not in the seed)", rc.step.time().value(), "s");
    for (journey::stage st : journey::all_stages) {
        std::string key;
        for (char ch : journey::stage_name(st))
            if (std::isalnum(static_cast<unsigned char>(ch))) key += ch;
            else if (ch == ' ') key += '_';
        line("S38." + key, "journey: " + std::string(journey::stage_name(st)), j.of(st).value(), "s");
    }
    line("S38.ttft", "journey: time to first token (at the client)", j.time_to_first_token().value(), "s");
    line("S38", "journey: end to end (the seed says about " + to_text(rc.target) + ")", j.end_to_end().value(), "s");
    line("S38.decode_share", "journey: decode's share of the end to end", 100.0 * j.share(journey::stage::decode), "%");
    line("S38.slowdown_for_3s", "every decode pass would have to be this much slower to reach " + to_text(rc.target),
         rc.slowdown_for_target, "x");
    r.notes = {
        "S27-S30 follow the seed's receipt: " + to_text(rc.step.weight_bytes) + " of weights per pass, board power, x " +
            text::number(site.power_multiplier()) + " at the wall.",
        "The seed leaves out the KV reads (S27.kv, from S16's KV per token) and the prefill's energy; both are shown.",
        "The journey is Seoul -> Oregon (S1), three placement gates (S3), continuous batching (S4).",
    };
    return r;
}

// ---- estimate ------------------------------------------------------------------------------

namespace {

std::string layout_words(const parallel_layout& l) {
    return "tp " + std::to_string(l.tp) + ", pp " + std::to_string(l.pp) + ", ep " + std::to_string(l.ep) + ", dp " +
           std::to_string(l.dp);
}

/// `--best-layout`: the layouts of --gpus ranked by saturated throughput (plan::rank_layouts), as a
/// table, and the best one that holds a sequence.
parallel_layout best_layout(const deployment& d, const request_shape& r, const scheduler_limits& l, int gpus,
                            report& out) {
    if (gpus < 1) throw usage_error("--best-layout needs --gpus N: the GPUs to lay the model out on");
    if (d.layout.tp != 1 || d.layout.pp != 1 || d.layout.ep != 1 || d.layout.dp != gpus)
        throw usage_error("--best-layout chooses --tp, --pp, --ep and --dp itself: leave them out");
    const std::vector<plan::layout_choice> ranked = plan::rank_layouts(d.m, d.hw, gpus, r, l, d.engine, d.gemm);
    section sec{.key = "layouts", .title = "Layouts of " + std::to_string(gpus) + " GPUs, most saturated output first"};
    for (const plan::layout_choice& c : ranked) {
        record row;
        row.add("tp", "tp", static_cast<double>(c.layout.tp))
            .add("pp", "pp", static_cast<double>(c.layout.pp))
            .add("ep", "ep", static_cast<double>(c.layout.ep))
            .add("dp", "dp", static_cast<double>(c.layout.dp))
            .add_or("saturated_output_tokens_per_s", "saturated output", c.point.has_value(),
                    c.point ? c.point->output_rate.value() : 0.0, "token/s", "-")
            .add_or("saturated_batch", "batch", c.point.has_value(), c.point ? c.point->batch : 0.0, "", "-")
            .add("fits", "serves", c.point ? std::string("yes") : "no: " + c.why_not);
        sec.rows.push_back(std::move(row));
    }
    out.sections.push_back(std::move(sec));
    if (ranked.empty() || !ranked.front().point)
        require(false, d.m.name, "gpus", gpus,
                ranked.empty() ? "no valid layout of the model on this many GPUs (tp must divide the heads …)"
                               : "no layout of this many GPUs holds one sequence: " + ranked.front().why_not,
                "llmcost.fit.no_layout");
    out.notes.push_back("Layout chosen by --best-layout: " + layout_words(ranked.front().layout) + ", the most saturated "
                        "output tokens/s of the " + std::to_string(ranked.size()) + " valid layouts of " +
                        std::to_string(gpus) + " GPUs.");
    return ranked.front().layout;
}

/// Where `serve_online_latency` put the online operating point (`online_latency::rooted`): the decode loop's root,
/// or the first crossing of Little's law on the raw step curve, and why.
std::string online_operating_point(const online_latency& o) {
    if (o.rooted) return "the decode loop's root";
    if (!o.whole_prompts) return "the first crossing of Little's law (chunked prompts or a token cap: no decode loop)";
    if (!(o.output > 1.0)) return "the first crossing of Little's law (one output token: no decode loop)";
    return "the first crossing of Little's law (NO ROOT of the decode loop at this rate: the mean step over the prompts "
           "a step carries and the decoding count outgrows any load)";
}

/// `--explain`: the prefill and the serving step by kernel class, and one GPU's memory.
void add_breakdown(report& out, const deployment& d, const request_shape& r, const serving_point& s,
                   const scheduler_limits& l) {
    const request_breakdown b = explain(d, r, s, l);
    auto kernels = [](std::string key, std::string title, const std::array<kernel_class_cost, kernel_classes>& rows) {
        section sec{.key = std::move(key), .title = std::move(title)};
        for (const kernel_class_cost& k : rows) {
            record row;
            row.add("kernel", "kernel class", std::string(k.kernel))
                .add("time_s", "time", k.time.value(), "s")
                .add("flop", "FLOPs", k.flops.value(), "FLOP")
                .add("bytes", "bytes", k.bytes.value(), "B")
                .add("bound", "bound by", std::string(to_text(k.limited_by)));
            sec.rows.push_back(std::move(row));
        }
        return sec;
    };
    const std::string where = d.layout.pp > 1 ? "one tensor-parallel rank through all " + std::to_string(d.layout.pp) +
                                                    " pipeline stages"
                                              : "one tensor-parallel rank";
    record first;
    first.add("engine_s", "the engine's steps to the first token", (s.ttft - s.front_end).value(), "s")
        .add("front_end_s", "the engine's front end per request (HTTP, tokenisation, IPC; tables/engines.csv "
                            "request_overhead_us)", s.front_end.value(), "s")
        .add("ttft_s", "time to first token as a client sees it", s.ttft.value(), "s");
    out.sections.push_back({.key = "breakdown.first_token", .title = "Time to first token: the engine's steps, then "
                            "the front end (client_first_token)", .rows = {first}, .single = true});
    out.sections.push_back(kernels("breakdown.prefill", "Prefill of one prompt alone, by kernel class (" + where +
                                   "; sums to " + to_text(b.prefill.time()) + ")", b.prefill_kernels));
    const std::string decodes = d.layout.pp > 1 ? invalid_input::show(s.batch / d.layout.pp) + " decodes per micro-batch"
                                                : invalid_input::show(s.batch) + " decodes";
    out.sections.push_back(kernels("breakdown.step", "The serving step, by kernel class (" + decodes + " and the step's "
                                   "prompt chunks, " + where + "; sums to " + to_text(b.step.time()) + ")",
                                   b.step_kernels));
    const memory_breakdown& m = b.memory;
    record mem;
    mem.add("capacity_B", "HBM", m.capacity.value(), "B")
        .add("dense_weights_B", "weights: attention, dense FFN, embeddings", m.dense_weights.value(), "B")
        .add("expert_weights_B", "weights: routed experts", m.expert_weights.value(), "B")
        .add("kv_B", "KV cache of the batch (at the context each sequence reserves)", m.kv.value(), "B")
        .add("activations_B", "activations and workspace", m.activations.value(), "B")
        .add("communication_B", "communication buffers (NCCL)", m.communication.value(), "B")
        .add("runtime_B", "runtime memory (CUDA context, libraries, margin)", m.runtime.value(), "B")
        .add("slack_B", "kept outside the KV pool by the engine's rule", m.slack.value(), "B")
        .add("free_B", "left over", m.free.value(), "B");
    out.sections.push_back({.key = "breakdown.memory_per_gpu", .title = "Memory of one GPU", .rows = {mem}, .single = true});
}

}  // namespace

// with_engine_defaults (the engine's scheduler defaults where a flag left a limit open): serving/throughput.hpp

std::string engine_note(const engine_profile& e) {
    std::string n = "Engine: ";
    n += e.name;
    n += " (";
    n += e.version;
    n += "; tables/engines.csv); its scheduler defaults fill the limits not given; ";
    n += admits_on_kv_in_use(e.kind) ? "it admits a sequence on the KV it uses (preempting when the pool runs out)"
                                     : "it reserves each sequence's whole KV (input + output) at admission";
    n += e.kind == engine_kind::sglang ? " (assumed: SGLang also reserves part of each answer, so its batch is an upper "
                                         "bound, docs/online-caps.md)."
                                       : ".";
    return n;
}

namespace {

std::optional<draft_head> head_named(const std::string& drafter, const model& m);

}  // namespace

speculative_decoding head_speculation(const speculation_options& o, const model& m) {
    speculative_decoding s{.acceptance = o.acceptance, .draft_tokens = o.draft_tokens, .head = head_named(o.drafter, m),
                           .draft = {}};
    if (!s.head)
        throw usage_error("--drafter '" + o.drafter + "': frontier and plan speculate with a draft head (eagle, or mtp for "
                          "a model with MTP modules), each deployment laid out its own way; a draft model is priced by "
                          "estimate --spec");
    return s;
}

namespace {

/// The speculation `o` names for target `d`: an MTP module (refused for a model without one), an
/// EAGLE head, or a catalog model as a draft model on the target's layout (`--drafter` names it in
/// messages), and how to say which.
struct drafter_choice {
    speculative_decoding speculation;
    std::string text;
};
std::optional<draft_head> head_named(const std::string& drafter, const model& m) {
    return draft_head_named(drafter, m);  // the library's one reading of a drafter's name
}

drafter_choice drafter_for(const speculation_options& o, const deployment& d, const deployment_options& dep) {
    drafter_choice c{.speculation = {.acceptance = o.acceptance, .draft_tokens = o.draft_tokens, .head = {}, .draft = {}},
                     .text = {}};
    if (std::optional<draft_head> h = head_named(o.drafter, d.m)) {
        c.speculation.head = h;
        c.text = drafter_text(o.drafter);
    } else {
        deployment_options x = dep;
        x.model = o.drafter;
        x.model_flag = "--drafter";
        x.gpus = 0;
        // The target checkpoint's kept modules are its own, not the drafter's (a dense drafter has no MLA kv_b);
        // the prompt launch is the engine's setting and stays.
        x.checkpoint = checkpoint_options{};
        x.gemm_table.clear();  // the target's projections' table, not the drafter's; the clock is the GPU's and stays
        x.checkpoint.eager_prompt = dep.checkpoint.eager_prompt;
        x.checkpoint.eager_prompt_given = dep.checkpoint.eager_prompt_given;
        c.speculation.draft = build(x);
        c.text = drafter_text(o.drafter, c.speculation.draft->m.name);
    }
    return c;
}

}  // namespace

report estimate(const estimate_command& c) {
    report out;
    // --best-layout with --quick-reduce int4: the engine is turned on for the layouts the search tries (tp 0), each
    // one's TP group checked by the ranking (deployment::validate), not at the --tp 1 the GPUs start from.
    deployment_options dep = c.dep;
    if (c.best_layout) dep.quick_reduce = "none";
    deployment d = build(dep);
    if (c.best_layout && c.dep.quick_reduce == "int4")
        d.engine = with_quick_reduce(d.engine, 0, d.engine.name, "--quick-reduce");
    const request_shape r = shape_of(c.req);
    check_context(d, longest_context(c.req), c.dep);  // the longest request a bounded law draws
    if (c.req.varies()) {
        if (c.rate > 0)
            throw usage_error("--rate with --input-dist/--output-dist/--dataset: the percentiles are priced for "
                              "equal requests; run simulate for lengths that vary");
        if (c.spec.on)
            throw usage_error("--spec with --input-dist/--output-dist/--dataset: speculative steps are priced for "
                              "equal requests; drop one of the two");
    }
    estimate_options o{
        .batch = c.saturate ? 0.0 : c.batch,
        .limits = {.max_batch = c.max_batch, .max_tokens_per_step = c.max_tokens,
                   .prefill_chunk = tokens(c.prefill_chunk)},
        .site = catalog::seed_site,
        .utilisation = c.utilisation,
        .gpu_cost = dollars_per_hour(c.usd_per_gpu_hour),
        .pricing = pricing_named(c.pricing),
        .market_prices = catalog::gpu_market_prices};
    if (!c.dep.engine.empty()) {
        o.limits = with_engine_defaults(o.limits, d.engine);
        out.notes.push_back(engine_note(d.engine));
    }
    if (!c.kv_admission.empty()) {  // the launch's admission policy over the engine's rule
        o.limits = with_kv_admission(o.limits, require_kv_admission("estimate", "--kv-admission", c.kv_admission));
        out.notes.push_back(o.limits.reserve_full_sequence
                                ? "KV admission: each sequence's whole KV reserved at admission (--kv-admission reserve)."
                                : "KV admission: on the KV in use, the mean context plus half a block (--kv-admission in_use).");
    }
    if (c.dep.kv_memory_fraction > 0) out.notes.push_back(kv_memory_fraction_note(d.engine));
    for (std::string& n : checkpoint_notes(c.dep.checkpoint, std::span(&d.engine, 1))) out.notes.push_back(std::move(n));
    if (c.best_layout) d.layout = best_layout(d, r, o.limits, c.dep.gpus, out);
    for (std::string& n : launch_notes(c.dep, d)) out.notes.push_back(std::move(n));  // the chosen layout's TP group
    std::optional<drafter_choice> spec;
    if (c.spec.on) {
        if (c.rate > 0)
            throw usage_error("--spec prices a steady batch (--batch or --saturate); the online model of --rate "
                              "(queueing, percentiles) has no speculative steps: drop one of the two");
        spec = drafter_for(c.spec, d, c.dep);
        o.speculation = spec->speculation;
    }
    // Online (--rate): the concurrency Little's law gives at the rate each dp rank sees, and the
    // latencies' distribution (serve_online_latency); energy and money at its output rate, the
    // arrivals' λ·O (the concurrency must still fit the KV cache).
    std::optional<online_latency> online;
    if (c.rate > 0) online = serve_online_latency_at_rate(d, r, per_second(c.rate), o.limits, "--rate");
    const request_estimate e = online ? llmcost::estimate_point(d, r, online->point, o) : llmcost::estimate(d, r, o);
    const serving_point& s = online ? online->point : e.point;
    if (c.explain) add_breakdown(out, d, r, s, o.limits);

    out.title = "llmcost estimate: " + std::string(d.m.name) + " on " + layout_text(d) + ", " +
                (c.req.varies() ? lengths_text(c.req)
                                : invalid_input::show(c.req.input) + " -> " + invalid_input::show(c.req.output) + " tokens");
    record rec;
    add_deployment(rec, d);
    if (c.req.varies()) {
        rec.add("lengths", "request lengths", lengths_text(c.req))
            .add("input_tokens", "input tokens (mean)", r.input.value(), "token")
            .add("input_tokens_sd", "input tokens (standard deviation)", r.input_spread.value(), "token")
            .add("output_tokens", "output tokens (mean)", r.output.value(), "token")
            .add("output_tokens_sd", "output tokens (standard deviation)", r.output_spread.value(), "token")
            .add("decode_context_tokens", "mean context of the live batch E[I] + E[O^2]/2E[O]",
                 mean_decode_context(r).value(), "token");
    } else {
        rec.add("input_tokens", "input tokens", c.req.input, "token")
            .add("output_tokens", "output tokens", c.req.output, "token");
    }
    if (c.req.prefix_hit > 0)
        rec.add("prefix_hit", "share of the prompt in the prefix cache", c.req.prefix_hit)
            .add("computed_input_tokens", "prompt tokens computed per request", r.computed().value(), "token");
    if (spec)
        rec.add("speculation", "speculative decoding", spec->text)
            .add("acceptance", "acceptance rate alpha", c.spec.acceptance)
            .add("draft_tokens", "draft tokens gamma", static_cast<double>(c.spec.draft_tokens))
            .add("expected_tokens_per_pass", "tokens per step and sequence (1 - a^(g+1)) / (1 - a) (T6)",
                 expected_tokens_per_pass(c.spec.acceptance, c.spec.draft_tokens));
    rec.add("batch", online ? "sequences held, running or waiting for a slot (Little's law; per replica or attention rank)"
                            : "concurrent sequences (per replica or attention rank)",
            s.batch)
        .add("limited_by", "batch set by", std::string(s.limited_by));
    if (online) {
        rec.add("rate_requests_per_s", "arrival rate, whole deployment (Poisson)", c.rate, "request/s")
            .add("operating_point", "operating point", online_operating_point(*online));
        if (!online->whole_prompts)
            rec.add("ttft_s", "time to first token (mean)", s.ttft.value(), "s")
                .add("tpot_s", "time per output token (mean)", s.tpot.value(), "s")
                .add("e2e_s", "end to end (mean)", s.e2e.value(), "s");
    } else {
        rec.add("ttft_s", "time to first token", s.ttft.value(), "s")
            .add("tpot_s", "time per output token (mean)", s.tpot.value(), "s")
            .add("e2e_s", "end to end", s.e2e.value(), "s");
    }
    rec.add("prefill_s", "prefill of one prompt alone", s.prefill_time.value(), "s")
        .add("decode_step_s", "the engine's mean step (all prompts' prefill included)", s.step_time.value(), "s")
        .add("step_memory_bound", "step limited by memory (roofline)", s.step.memory_bound())
        .add("output_tokens_per_s", "output tokens/s, whole deployment", s.output_rate.value(), "token/s")
        .add("output_tokens_per_s_per_gpu", "output tokens/s per GPU", s.output_rate_per_gpu.value(), "token/s")
        .add("tokens_per_s_per_user", "tokens/s one user sees", s.per_user.value(), "token/s")
        .add("kv_bytes_per_token", "KV cache per token (all layers)", e.kv_bytes_per_token.value(), "B/token")
        .add("weight_bytes_per_gpu", "weights per GPU", e.weight_bytes_per_gpu.value(), "B")
        .add("kv_capacity_tokens", "KV room per replica (tokens)", e.kv_capacity_tokens.value(), "token", "whole tokens")
        .add("energy_j_per_output_token", "GPU energy per output token (board power)",
             e.gpu_energy_per_output_token.value(), "J/token")
        .add("wall_energy_j_per_output_token", "at the wall (x server overhead x cooling)",
             e.wall_energy_per_output_token.value(), "J/token")
        .add("wh_per_request", "GPU energy per request", e.gpu_energy_per_request.value() / 3600.0, "Wh")
        .add("wall_wh_per_request", "at the wall, per request", e.wall_energy_per_request.value() / 3600.0, "Wh")
        .add("usd_per_gpu_hour", "cost of a GPU-hour", e.cost_known() ? value(e.gpu_cost.value() * 3600.0) : value(),
             "USD/h")
        .add("pricing", "priced on", std::string(e.price.given ? "given" : to_string(e.price.basis)))
        .add("usd_basis", "price basis", e.cost_known() ? basis_text(e.price, d.hw, o.site) : std::string("unknown"))
        .add("usd_per_million_output_tokens", "cost per million output tokens, prefill included",
             e.cost_known() ? value(per_million(e.cost_per_output_token)) : value(), "USD/Mtoken");
    out.records.push_back(std::move(rec));
    if (online && online->whole_prompts) {
        auto spread = [&](std::string key, std::string title, double mean, auto&& at) {
            record p;
            p.add("mean", "mean", mean, "s")
                .add("p50", "median", at(0.5), "s")
                .add("p90", "90th percentile", at(0.9), "s")
                .add("p99", "99th percentile", at(0.99), "s");
            out.sections.push_back({.key = std::move(key), .title = std::move(title), .rows = {std::move(p)}, .single = true});
        };
        const online_latency& l = *online;
        spread("ttft_s", "Time to first token under Poisson arrivals", s.ttft.value(),
               [&](double q) { return ttft_percentile(l, q).value(); });
        spread("tpot_s", "Time per output token (per request) under Poisson arrivals", s.tpot.value(),
               [&](double q) { return tpot_percentile(l, q).value(); });
        spread("e2e_s", "End to end under Poisson arrivals", s.e2e.value(),
               [&](double q) { return e2e_percentile(l, q).value(); });
    }

    out.notes.push_back(formats_text(d.m) +
                        (expert_activations_quantized_to_fp8(d) ? " (the experts' GEMMs in fp8: the engine quantizes their activations, W4A8)" : "") +
                        ".");
    if (moe_gathers_tokens(d))
        out.notes.push_back("EP all-to-all: here an all-gather of the tokens before the experts and a reduce-scatter after them "
                            "(the engine runs its all-to-all only for more EP ranks than the model's top-k; docs/trtllm-moe-comm.md).");
    if (d.m.weights.compute != compute_class::bf16 && d.m.activations.compute == compute_class::bf16)
        out.notes.push_back(std::string(d.hw.name) + " has no " + std::string(to_string(d.m.weights.compute)) +
                            " matmul units: the " + std::string(d.m.weights.name) +
                            " weights are widened to BF16 for the matmuls (weight-only, as vLLM's FP8 Marlin on Ampere).");
    if (online && !online->whole_prompts)
        out.notes.push_back("Online at " + invalid_input::show(c.rate) +
                            " requests/s (Poisson): the concurrency from Little's law, the mean TTFT from the wait for "
                            "the step in flight; means only, percentiles are priced for whole prompts without a token "
                            "cap (run simulate for chunked prefill).");
    else if (online)
        out.notes.push_back(
            "Online at " + invalid_input::show(c.rate) + " requests/s (Poisson), " +
            invalid_input::show(c.rate / static_cast<double>(d.layout.dp)) +
            " per attention rank: " +
            (online->rooted ? std::string("the operating point at the decode loop's root (the mean step over the prompts a "
                                          "step carries and the decoding count's law), the concurrency from Little's law at it")
                            : "the operating point at " + online_operating_point(*online)) +
            "; the engine a "
            "bulk-service queue whose every step prefills the prompts that arrived during the one before "
            "(serve_online_latency); the output rate is what arrives. Percentiles: TTFT exact in that model; TPOT "
            "lognormal over a request's decode episode (the prompts a step carries and the decoding count feeding "
            "back, linearised: its own mean can sit up to 8% above the TPOT mean shown near saturation), within 5.9% "
            "of the simulator at p90 to 85% load and up to 17% high at 95%; E2E a normal approximation "
            "(tables/percentiles.md).");
    else
    out.notes.push_back(c.saturate ? "Saturated: every request queued, the batch as large as " +
                                         std::string(s.limited_by) + " allows (prefill interleaved with decode)."
                                   : "At a batch of " + invalid_input::show(c.batch) +
                                         " concurrent sequences in steady state (continuous batching).");
    out.notes.push_back(c.prefill_chunk > 0
                            ? "Prompts prefilled in chunks of at most " + invalid_input::show(c.prefill_chunk) +
                                  " tokens, one chunk per step (chunked prefill)."
                            : "Each prompt prefilled whole in one step (TensorRT-LLM's default; --prefill-chunk "
                              "spreads it over steps): the mean step mixes steps with and without a prompt.");
    if (c.req.varies())
        out.notes.push_back("Lengths that vary: prompts " + invalid_input::show(r.input.value()) + " +/- " +
                            invalid_input::show(r.input_spread.value()) + ", answers " + invalid_input::show(r.output.value()) +
                            " +/- " + invalid_input::show(r.output_spread.value()) +
                            " tokens (mean +/- sd, the prompts and answers independent). The live batch is length-biased: "
                            "a sequence stays for its whole answer, so the batch decodes at E[I] + E[O^2]/2E[O] and holds KV "
                            "for E[I] + E[O^2]/E[O]; a prompt's attention is E[f(I)] of its quadratic cost; prompts per "
                            "step b/E[O]. Simulate checks it (saturated throughput within 3%: tests/unit/unit-serving-lengths.cpp).");
    if (c.req.prefix_hit > 0)
        out.notes.push_back("Prefix cache: " + invalid_input::show(100 * c.req.prefix_hit) + " % of each prompt's tokens "
                            "found cached (S6), so each prompt computes " + invalid_input::show(r.computed().value()) +
                            " tokens after a cached prefix of " + invalid_input::show(r.cached().value()) +
                            "; the KV cache still holds the whole prompt.");
    if (spec) {
        std::string note = "Speculative decoding: ";
        note += spec->text;
        note += ", gamma " + std::to_string(c.spec.draft_tokens);
        note += ", alpha " + invalid_input::show(c.spec.acceptance);
        note += ": each step drafts and verifies instead of decoding one token (speculative_serving_point: TPOT = "
                "(plain TPOT + t_draft + t_verify - t_plain) / E at the batch and mean context; TTFT pays the extra "
                "time in its prompt steps)";
        if (spec->speculation.draft) note += "; the draft model's weights are held out of the KV budget, its KV cache is not counted";
        if (c.explain) note += "; --explain shows the plain passes";
        note += ".";
        out.notes.push_back(std::move(note));
    }
    out.notes.push_back("Energy at board power for the whole busy time: an upper bound on the draw.");
    if (e.cost_known())
        out.notes.push_back("Cost: " + basis_text(e.price, d.hw, o.site) +
                            "; all GPU time (prefill included) charged to output tokens (`llmcost cost` bills input "
                            "and output apart, and prints this figure too).");
    else
        out.notes.push_back("Cost unknown: no listed price and no capex (capex_usd_per_gpu 0) for " + std::string(d.hw.name) +
                            "; pass --usd-per-gpu-hour.");
    return out;
}

// ---- list ----------------------------------------------------------------------------------

report list(catalog_kind k, const std::string& hardware_file) {
    report r{.layout = report::shape::array};
    if (k == catalog_kind::models) {
        r.title = "llmcost catalog: models (sources in tables/models.csv)";
        for (const model& m : catalog::all_models) {
            record rec{.id = std::string(m.name)};
            const bool mla = m.attention.kind == attention_kind::latent;
            rec.add("name", "name", std::string(m.name))
                .add("layers", "layers", static_cast<double>(m.layers), "count")  // whole counts, grouped: 16,384 (audit 40, F11)
                .add("hidden", "hidden", static_cast<double>(m.hidden), "count")
                .add("attention", "attention", std::string(mla ? "MLA" : m.attention.kv_heads == m.attention.query_heads ? "MHA" : "GQA"))
                .add("kv_heads", "KV heads", static_cast<double>(m.attention.kv_heads), "count")
                .add("routed_experts", "experts", static_cast<double>(m.ffn.routed_experts), "count")
                .add("top_k", "top-k", static_cast<double>(m.ffn.top_k), "count")
                .add("parameters", "parameters", static_cast<double>(total_parameters(m)))
                .add("active_parameters", "active", static_cast<double>(active_parameters(m)))
                .add("weights", "weights", std::string(m.weights.name))
                .add("kv_bytes_per_token", "KV per token", kv_bytes_per_token(m).value(), "B/token")
                .add("max_position_tokens", "max context", static_cast<double>(m.max_position), "token");
            r.records.push_back(std::move(rec));
        }
    } else if (k == catalog_kind::hardware) {
        r.title = "llmcost catalog: hardware (sources in tables/hardware.csv)";
        r.notes.push_back("Peaks are native dense rates; unknown means no native unit for that format or no "
                          "published figure (the model then runs it on a wider format's peak).");
        r.notes.push_back("HBM is the card's device memory whatever its kind (GDDR6 on the L4 and L40S); a PCIe "
                          "card without NVLink scales up over PCIe.");
        r.notes.push_back("$/GPU-h is what estimate and plan charge by default (--pricing market): the listed on-demand "
                          "price (source and date in tables/gpu_prices.csv), or capex + power where none is listed "
                          "(--pricing tco for every GPU).");
        auto native = [](const flops_per_second_t& f) { return f.value() > 0 ? value(f.value()) : value(); };
        if (!hardware_file.empty())
            r.notes.push_back("The rows of " + hardware_file + " come first; --hardware finds them before the catalog's.");
        for (const hardware& h : hardware_choices(hardware_file)) {
            record rec{.id = std::string(h.name)};
            rec.add("name", "name", std::string(h.name))
                .add("hbm_capacity_B", "HBM", h.gpu.hbm_capacity.value(), "B", "GiB")
                .add("hbm_bandwidth_B_per_s", "HBM bandwidth", h.gpu.hbm_bandwidth.value(), "B/s")
                .add("bf16_flop_per_s", "BF16 dense", native(h.gpu.dense.bf16), "FLOP/s")
                .add("fp8_flop_per_s", "FP8 dense", native(h.gpu.dense.fp8), "FLOP/s")
                .add("fp4_flop_per_s", "FP4 dense", native(h.gpu.dense.fp4), "FLOP/s")
                .add("board_power_W", "power", h.gpu.board_power.value(), "W")
                .add("scale_up_B_per_s", "scale-up per direction", h.scale_up.per_direction.value(), "B/s")
                .add("scale_up_domain", "domain", static_cast<double>(h.scale_up_domain))
                .add("capex_usd", "capex", h.capex_per_gpu.value() > 0 ? value(h.capex_per_gpu.value()) : value(), "USD");
            // What estimate and plan charge by default (--pricing market at full utilisation): the
            // listed on-demand price with its date, else capex + power, and which of the two.
            const gpu_hour_price p =
                price_gpu_hour(h, catalog::seed_site, 1.0, pricing_basis::market, catalog::market_price_of(h.name));
            std::string basis = "unknown";
            if (p.known() && p.basis == pricing_basis::market) {
                basis = "on demand, ";
                basis.append(p.date);
            } else if (p.known()) {
                basis = "capex + power (no listing)";
            }
            rec.add("usd_per_gpu_hour", "$/GPU-h", p.known() ? value(p.rate.value() * 3600.0) : value(), "USD")
                .add("usd_basis", "price basis", basis)
                .add("status", "status", std::string(h.status));
            r.records.push_back(std::move(rec));
        }
    } else if (k == catalog_kind::engines) {
        r.title = "llmcost catalog: engines (sources in tables/engines.csv)";
        r.notes.push_back("Without --engine the reference engine prices every GPU: the hardware table's factors, "
                          "calibrated on TensorRT-LLM rows.");
        r.notes.push_back("Kernel rates are multipliers of the hardware table's figures; --engine refuses a GPU "
                          "whose architecture has no profile for that engine.");
        r.notes.push_back("FP4 GEMM e∞ and n₀: the engine's own size curve for dense FP4 GEMMs (e∞ · n ÷ (n + n₀) of the "
                          "FP4 peak); 0: the hardware's curve. With quantization: the same curve with the kernel that "
                          "quantizes the activations to FP4, for builds that do not fuse it into the norm (B19); 0: none.");
        r.notes.push_back("FP8 GEMM e∞ and n₀: the engine's own size curve for dense FP8 GEMMs, of the datasheet FP8 peak "
                          "(SGLang on ROCm: AITER's block-scaled FP8 kernels, B62-B63); 0: the hardware's curve.");
        r.notes.push_back("An engine's first row on an architecture is its default (--engine); a later row prices the "
                          "measurements of the releases its version range covers (tables/measurements.csv engine_version).");
        r.notes.push_back("Attention-DP balance: mean ÷ most tokens over the attention-DP ranks of an EP group per "
                          "iteration; each rank waits for the busiest (0: not measured, all alike).");
        r.notes.push_back("W4A16 expert ceiling: the most an expert GEMM reaches, as a fraction of the peak, where the "
                          "experts' weights are narrower than the activations and the kernel dequantizes them in its main "
                          "loop (Marlin on Hopper, B39); 0: no ceiling.");
        r.notes.push_back("KV pool rule and KV memory fraction: how the engine sizes its KV pool from the GPU's HBM H, the "
                          "weights W and its other memory X, and the fraction f it launches with by default: "
                          "share_of_total f·H − W − X (vLLM --gpu-memory-utilization), share_of_total_static f·(H − R) − W, R "
                          "the memory resident at init (SGLang --mem-fraction-static), free_after_weights f·(H − W − X) (TensorRT-LLM "
                          "free_gpu_memory_fraction). --kv-memory-fraction F prices your launch's f instead (docs/kv-pool.md); "
                          "the reference engine: share_of_total, f = 0.95, X its 2 GB.");
        for (const engine_profile& e : catalog::all_engines) {
            record rec{.id = std::string(e.name)};
            rec.add("name", "name", std::string(e.name))
                .add("engine", "engine", std::string(to_string(e.kind)))
                .add("architecture", "architecture", std::string(to_string(e.architecture)))
                .add("version", "version", std::string(e.version))
                .add("gemm", "GEMM x", e.kernels.gemm)
                .add("fp4_gemm_efficiency", "FP4 GEMM e∞", e.kernels.fp4_gemm_efficiency)
                .add("fp4_gemm_half_dim", "FP4 GEMM n₀", e.kernels.fp4_gemm_half_dim)
                .add("fp4_quant_gemm_efficiency", "FP4+quantization e∞", e.kernels.fp4_quant_gemm_efficiency)
                .add("fp4_quant_gemm_half_dim", "FP4+quantization n₀", e.kernels.fp4_quant_gemm_half_dim)
                .add("fp8_gemm_efficiency", "FP8 GEMM e∞", e.kernels.fp8_gemm_efficiency)
                .add("fp8_gemm_half_dim", "FP8 GEMM n₀", e.kernels.fp8_gemm_half_dim)
                .add("bf16_gemm_efficiency", "BF16 GEMM e∞", e.kernels.bf16_gemm_efficiency)
                .add("bf16_gemm_half_dim", "BF16 GEMM n₀", e.kernels.bf16_gemm_half_dim)
                .add("mla_decode", "MLA decode x", e.kernels.mla_decode)
                .add("mixed_input_expert_gemm", "W4A16 expert ceiling", e.kernels.mixed_input_expert_gemm)
                .add("step_overhead_s", "step overhead", e.overheads.step.value(), "s")
                .add("front_end_s", "front end per request", e.overheads.request.value(), "s")
                .add("all_reduce_latency_s", "custom all-reduce", e.collectives.all_reduce_latency.value(), "s")
                .add("custom_all_reduce_bus_B_per_s", "custom all-reduce bus", e.collectives.custom_all_reduce_bus.value(), "B/s")
                .add("library_all_reduce_s", "NCCL all-reduce a", e.collectives.library_all_reduce.value(), "s")
                .add("library_all_reduce_bus_B_per_s", "NCCL bus bandwidth", e.collectives.library_all_reduce_bus.value(), "B/s")
                .add("all_to_all_latency_s", "all-to-all floor", e.collectives.all_to_all_latency.value(), "s")
                .add("attention_dp_balance", "attention-DP balance", e.moe.attention_dp_balance)
                .add("max_batched_tokens", "max tokens/step", e.scheduler.max_batched_tokens, "token")
                .add("chunked_prefill", "chunked prefill", std::string(e.scheduler.chunked_prefill ? "on" : "off"))
                .add("prompt_steps", "prompt steps", std::string(e.scheduler.prefill_alone ? "alone" : "mixed"))
                .add("kv_pool", "KV pool rule", std::string(to_string(e.scheduler.kv_pool)))
                .add("kv_memory_fraction", "KV memory fraction", e.scheduler.kv_memory_fraction);
            r.records.push_back(std::move(rec));
        }
    } else if (k == catalog_kind::gemm_tables) {
        r.title = "llmcost catalog: GEMM tables (--gemm-table; sources in tables/gemm_tables.csv)";
        r.notes.push_back("A GEMM table holds a GEMM library's measured time for one layer's four dense projections (QKV, O, "
                          "gate/up, down, each k x n per TP rank) at each token count, as a harness loads it; with "
                          "--gemm-table the step's projections take its time x its clock / --clock (docs/amd-hipblaslt-tables.md).");
        r.notes.push_back("Fits: the catalog models whose projections at that TP degree are the table's shapes, served with "
                          "--weights fp8 (the library's rule, gemm_table::check_fits); any other deployment is refused.");
        r.notes.push_back("Tokens: the range of step sizes every shape has a measurement for; above it the rate at its largest "
                          "size, below it the size curve. Glitches: entries over 1.3x both neighbours, replaced by their mean.");
        r.notes.push_back("Each table's source (repository @commit, file, git blob), weight layout and how its clock is known "
                          "(the Server table's is INFERRED): tables/gemm_tables.csv.");
        for (const gemm_table* g : catalog::gemm_tables) {
            std::string shapes, fits;
            for (const gemm_shape& x : g->shapes) {
                if (!shapes.empty()) shapes += ", ";
                shapes += std::string(x.name) + " " + invalid_input::show(x.k) + "x" + invalid_input::show(x.n);
            }
            const auto gpu = catalog::lookup<hardware>(g->gpu);
            for (const model& m : catalog::all_models)
                for (int tp = 1; gpu && tp <= 8; tp *= 2) {
                    try {
                        const deployment d = with_formats(deployment{.m = m, .hw = *gpu.match}, formats::fp8, formats::fp8);
                        g->check_fits(d.m, d.hw.gpu.name, tp);
                    } catch (const invalid_input&) {
                        continue;
                    }
                    if (!fits.empty()) fits += ", ";
                    fits += std::string(m.name) + " tp " + std::to_string(tp);
                }
            record rec{.id = std::string(g->id)};
            rec.add("id", "id", std::string(g->id))
                .add("gpu", "GPU", std::string(g->gpu))
                .add("clock_MHz", "clock (MHz)", g->clock_MHz)
                .add("shapes", "shapes (k x n)", shapes)
                .add("fits", "fits", fits.empty() ? value() : value(fits))
                .add("entries", "entries", static_cast<double>(g->entries.size()))
                .add("first_tokens", "from (tokens)", g->first_tokens().value(), "token")
                .add("last_tokens", "to (tokens)", g->last_tokens().value(), "token")
                .add("glitches", "glitches", static_cast<double>(g->glitches));
            r.records.push_back(std::move(rec));
        }
    } else {
        r.title = "llmcost number formats (--weights, --kv)";
        for (const number_format& f : formats::all) {
            record rec{.id = std::string(f.name)};
            rec.add("name", "name", std::string(f.name))
                .add("bits_per_element", "bits per element (scales included)", f.bits_per_element())
                .add("compute", "matmul peak used", std::string(to_string(f.compute)));
            r.records.push_back(std::move(rec));
        }
    }
    return r;
}

// ---- kv ------------------------------------------------------------------------------------

report kv(const kv_command& c) {
    if (c.dep.checkpoint.eager_prompt_given)  // taken to be refused saying why, not ignored ("" too)
        throw usage_error("--eager-prompt '" + c.dep.checkpoint.eager_prompt + "': " + std::string(kv_prices_no_step));
    if (!c.dep.gemm_table.empty() || c.dep.clock_MHz > 0)  // taken to be refused saying why, not ignored
        throw usage_error(std::string(c.dep.gemm_table.empty() ? "--clock" : "--gemm-table") +
                          ": kv prices memory (the KV footprint and where it spills), not a step, so no GEMM time or "
                          "clock enters it; estimate, simulate, spec, cost and disagg read it");
    if (!c.dep.host_loop.empty())  // taken to be refused saying why, not accepted silently
        throw usage_error("--host-loop " + c.dep.host_loop + ": " + std::string(kv_prices_no_host_loop));
    if (c.dep.quick_reduce != "none")  // taken to be refused saying why, not ignored
        throw usage_error("--quick-reduce " + c.dep.quick_reduce + ": kv prices memory, not a step, so no all-reduce "
                          "enters it; estimate, simulate, spec, cost and disagg read it");
    if (c.dep.a2a_dispatch_cap > 0)  // taken to be refused saying why, not accepted silently
        throw usage_error("--a2a-dispatch-cap " + text::plain(c.dep.a2a_dispatch_cap, 8, text::grouping::none) + ": " +
                          std::string(kv_prices_no_dispatch_cap));
    const deployment d = build(c.dep);
    const double context = c.context > 0 ? c.context : d.m.max_position;
    check_context(d, context, c.dep);
    const tokens_t ctx = tokens(context);
    // In the engine's whole KV blocks (`kv_block_slots`), as `max_sequences_at_context` counts them.
    const bytes_t per_sequence = kv_bytes_per_gpu_for_context(d, kv_block_slots(ctx, kv_block_size(d)));
    const bytes_t need = per_sequence * c.batch;
    const memory_reserve reserve{};  // none given: the engine's own KV pool rule (kv_pool_per_gpu)
    require_weights_fit(d, reserve);  // as every command: no KV placement without the weights resident
    const spill_placement p = place_kv(d, need, reserve);
    const bytes_t budget = kv_budget_per_gpu(d, reserve);

    report r{.title = "llmcost kv: " + std::string(d.m.name) + " on " + layout_text(d) + ", " +
                      invalid_input::show(c.batch) + " x " + invalid_input::show(context) + " tokens"};
    record rec;
    add_deployment(rec, d);
    rec.add("context_tokens", "context per sequence", context, "token")
        .add("sequences", "sequences", c.batch)
        .add("kv_bytes_per_token", "KV per token, all layers (S16)", kv_bytes_per_token(d.m).value(), "B/token")
        .add("kv_bytes_per_token_per_gpu", "KV per token on one GPU", kv_bytes_per_token_per_gpu(d).value(), "B/token")
        .add("kv_bytes_per_sequence_per_gpu", "one sequence on one GPU", per_sequence.value(), "B")
        .add("kv_bytes_per_gpu", "all sequences on one GPU", need.value(), "B")
        .add("weight_bytes_per_gpu", "weights per GPU", weight_bytes_per_gpu(d).value(), "B")
        .add("kv_budget_bytes_per_gpu", "HBM left for KV per GPU", std::max(0.0, budget.value()), "B")
        .add("in_hbm_B", "held in HBM", p.in_hbm.value(), "B")
        .add("in_host_B", "spilled to host DRAM (S17)", p.in_host.value(), "B")
        .add("in_storage_B", "spilled to NVMe", p.in_storage.value(), "B")
        .add("overflow_B", "beyond every tier", p.overflow.value(), "B")
        .add("restore_s", "time to bring the spilled part back", p.restore_time.value(), "s")
        .add("max_context_tokens_at_batch_1", "KV room per replica (tokens)", kv_capacity_whole_blocks(d, reserve).value(), "token",
             "whole tokens")
        .add("max_sequences_at_context", "sequences of this context that fit in HBM", max_sequences(d, ctx, reserve));
    r.records.push_back(std::move(rec));
    if (c.dep.kv_memory_fraction > 0) r.notes.push_back(kv_memory_fraction_note(d.engine));
    for (std::string& n : checkpoint_notes(c.dep.checkpoint, std::span(&d.engine, 1))) r.notes.push_back(std::move(n));
    if (p.overflow.value() > 0) r.notes.push_back("The cache does not fit even with host DRAM and NVMe.");
    return r;
}

// ---- show ----------------------------------------------------------------------------------

namespace {

std::string attention_text(const model& m) {
    const attention_spec& a = m.attention;
    if (a.kind == attention_kind::latent)
        return "MLA, " + std::to_string(a.query_heads) + " heads, latent " + std::to_string(a.latent.kv_lora_rank) +
               " + RoPE key " + std::to_string(a.latent.rope_head_dim);
    const std::string kind = a.kv_heads == a.query_heads ? "MHA" : a.kv_heads == 1 ? "MQA" : "GQA";
    std::string s = kind + ", " + std::to_string(a.query_heads) + " query / " + std::to_string(a.kv_heads) +
                    " KV heads of " + std::to_string(a.head_dim);
    if (a.qk_norm) s += ", QK-norm";
    if (a.output_gate) s += ", output gate";
    if (a.sinks) s += ", sinks";
    if (a.qkv_bias) s += ", QKV bias";
    return s;
}

std::string ffn_text(const model& m) {
    const ffn_spec& f = m.ffn;
    const std::string act = f.gated ? "gated" : "ungated";
    if (!m.is_moe()) return "dense " + act + ", width " + std::to_string(f.intermediate);
    std::string s = "MoE in " + std::to_string(m.moe_layers()) + " layers: " + std::to_string(f.routed_experts) +
                    " experts of " + std::to_string(f.expert_intermediate) + ", top-" + std::to_string(f.top_k);
    if (f.shared_experts > 0)
        s += " + " + std::to_string(f.shared_experts) + " shared of " +
             std::to_string(f.shared_expert_intermediate > 0 ? f.shared_expert_intermediate : f.expert_intermediate) +
             (f.shared_expert_gate ? " (gated)" : "");
    if (m.dense_layers() > 0) s += "; dense " + act + " width " + std::to_string(f.intermediate) + " in " +
                                   std::to_string(m.dense_layers()) + " layers";
    return s;
}

/// The pattern as people read it: "CCCF (x12)", "WF (x18)", or the letters whole.
std::string pattern_text(const model& m) {
    if (m.pattern.kinds.empty()) {
        const model::layer_counts c = m.count_layers();
        return c.window == 0 ? "all full attention" : std::to_string(c.window) + " window + " + std::to_string(c.full) + " full";
    }
    const std::string k(m.pattern.kinds);
    if (static_cast<int>(k.size()) == m.layers) return k;
    const int reps = m.layers / static_cast<int>(k.size()), rest = m.layers % static_cast<int>(k.size());
    return k + " (x" + std::to_string(reps) + (rest > 0 ? " + " + k.substr(0, static_cast<std::size_t>(rest)) : "") + ")";
}

}  // namespace

report show(const show_command& c) {
    if (c.model.empty()) throw usage_error("show needs --model (a catalog name, or a config.json or its folder)");
    const model m = model_named(c.model, "--model");
    const double context = c.context > 0 ? c.context : m.max_position;
    if (!c.ignore_max_position)
        require_within_max_position(m, context, "; pass --ignore-max-position to show it anyway");
    const tokens_t ctx = tokens(context);
    const model::layer_counts lc = m.count_layers();
    const parameter_breakdown b = parameters(m);

    report r{.title = "llmcost show: " + std::string(m.name)};
    record rec;
    rec.add("model", "model", std::string(m.name))
        .add("layers", "layers", static_cast<double>(m.layers))
        .add("layer_pattern", "layer pattern (F full, W window, C chunked, S state, - FFN only)", pattern_text(m))
        .add("hidden", "hidden", static_cast<double>(m.hidden))
        .add("vocab", "vocabulary", static_cast<double>(m.vocab))
        .add("tied_embeddings", "tied embeddings", m.tied_embeddings)
        .add("attention", "attention", attention_text(m))
        .add("ffn", "FFN", ffn_text(m))
        .add("parameters", "parameters", static_cast<double>(total_parameters(m)))
        .add("active_parameters", "active parameters (per token)", static_cast<double>(active_parameters(m)))
        .add("matmul_parameters", "in matmuls (active, no embedding lookup)", static_cast<double>(matmul_parameters(m)))
        .add("attention_parameters", "in attention", static_cast<double>(b.attention));
    if (lc.state > 0) rec.add("state_space_parameters", "in state-space layers", static_cast<double>(b.state_space));
    if (m.is_moe()) rec.add("expert_parameters", "in routed experts", static_cast<double>(b.routed_experts));
    rec.add("weights", "weights", formats_text(m))
        .add("weight_bytes", "weights, all GPUs", weight_bytes(m).value(), "B")
        .add("kv_bytes_per_token_per_layer", "KV per token per attention layer", kv_bytes_per_token_per_layer(m).value(),
             "B/token")
        .add("kv_bytes_per_token", "KV per token, all attention layers (S16)", kv_bytes_per_token(m).value(), "B/token");
    if (lc.state > 0)
        rec.add("state_bytes_per_sequence", "fixed state per sequence (state-space layers)",
                state_bytes_per_sequence(m).value(), "B");
    rec.add("context_tokens", c.context > 0 ? "context" : "context (the maximum)", context, "token")
        .add("kv_bytes_at_context", "KV of one sequence at this context", kv_bytes_for_context(m, ctx).value(), "B")
        .add("kv_bytes_at_context_if_all_full", "the same if every attention layer kept every token",
             (kv_bytes_per_token(m) * ctx).value() + (lc.state > 0 && context > 0 ? state_bytes_per_sequence(m).value() : 0.0),
             "B")
        .add("max_position_tokens", "max context (trained)", static_cast<double>(m.max_position), "token");
    r.records.push_back(std::move(rec));

    // One row per kind of layer present: what it keeps and what that costs at the context.
    section layers{.key = "layer_kinds", .title = "Layers by kind, one sequence at " + text::grouped(context) + " tokens"};
    const double per_layer = kv_bytes_per_token_per_layer(m).value();
    auto row = [&](std::string kind, int n, std::string keeps, double held_tokens, double bytes_each) {
        if (n == 0) return;
        record x{.id = kind};
        x.add("kind", "kind", kind)
            .add("layers", "layers", static_cast<double>(n))
            .add("keeps", "keeps", std::move(keeps))
            .add("kv_bytes_per_token_per_layer", "KV per token per layer", held_tokens > 0 ? value(per_layer) : value(0.0),
                 "B/token")
            .add("tokens_held", "tokens held per layer", held_tokens, "token")
            .add("bytes_at_context", "bytes, all layers of this kind", bytes_each * n, "B");
        layers.rows.push_back(std::move(x));
    };
    const double w = static_cast<double>(m.attention.sliding_window), ch = static_cast<double>(m.pattern.chunk);
    row("full", lc.full, "every token", context, per_layer * context);
    row("window", lc.window, "the last " + text::grouped(w) + " tokens", std::min(context, w), per_layer * std::min(context, w));
    row("chunked", lc.chunked, "its chunk of " + text::grouped(ch) + " tokens", std::min(context, ch),
        per_layer * std::min(context, ch));
    if (lc.state > 0) {
        const state_space_spec& st = m.pattern.state;
        const double each = lc.state > 0 ? state_bytes_per_sequence(m).value() / lc.state : 0.0;
        row(st.kind == state_space_kind::mamba2 ? "state (Mamba2)" : "state (Gated DeltaNet)", lc.state,
            "a fixed state: " + std::to_string(st.heads) + " heads x " + std::to_string(st.head_dim) + " x " +
                std::to_string(st.state_dim) + " + convolution " + std::to_string(st.conv_kernel - 1) + " steps",
            0.0, context > 0 ? each : 0.0);
    }
    row("FFN only", lc.ffn_only, "nothing", 0.0, 0.0);
    r.sections.push_back(std::move(layers));
    if (lc.window + lc.chunked + lc.state > 0)
        r.notes.push_back("KV per token counts every attention layer (what a token adds while it is inside every "
                          "window); windowed and chunked layers stop at their window or chunk, state-space layers "
                          "hold a fixed state: KV at the context accounts for both.");
    return r;
}

// ---- disagg --------------------------------------------------------------------------------

report disagg(const disagg_command& c) {
    const deployment pre = build(c.dep);
    deployment_options dec_opts = c.dep;
    if (!c.decode_hardware.empty()) {
        dec_opts.hardware = c.decode_hardware;
        dec_opts.hardware_flag = "--decode-hardware";
    }
    if (c.decode_tp > 0) {
        dec_opts.tp = c.decode_tp;
        dec_opts.gpus = 0;
    }
    const deployment dec = build(dec_opts);
    const request_shape r = shape_of(c.req);
    check_context(pre, c.req.input + c.req.output, c.dep);
    const kv_path path = c.path == "scale-up" ? kv_path::scale_up : kv_path::scale_out;
    const slo target{.ttft = seconds(c.ttft), .tpot = seconds(c.tpot), .every_token = c.every_token};
    const kv_transfer t = kv_transfer_for(pre, r.input, path);
    // --spec: the colocated steps speculate, and so does the decode pool (each its own drafter's layout).
    std::optional<drafter_choice> co_spec, dis_spec;
    if (c.spec.on) {
        co_spec = drafter_for(c.spec, pre, c.dep);
        dis_spec = drafter_for(c.spec, dec, dec_opts);
    }
    const goodput_plan co = colocated_goodput(pre, r, target, {.prefill_chunk = tokens(c.chunk)},
                                              co_spec ? co_spec->speculation : speculative_decoding{});
    const goodput_plan dis = disaggregated_goodput(pre, dec, r, target, path, {},
                                                   dis_spec ? dis_spec->speculation : speculative_decoding{});
    const double stall_batch = co.feasible ? co.decode_batch : 1.0;

    report out{.title = "llmcost disagg: " + std::string(pre.m.name) + ", prefill on " + layout_text(pre) +
                        ", decode on " + layout_text(dec)};
    record rec;
    rec.add("model", "model", std::string(pre.m.name))
        .add("input_tokens", "input tokens", c.req.input, "token")
        .add("output_tokens", "output tokens", c.req.output, "token")
        .add("kv_bytes_per_request", "KV to move per request (S25)", t.total.value(), "B")
        .add("kv_bytes_per_prefill_gpu", "sent by each prefill GPU", t.per_gpu.value(), "B")
        .add("kv_transfer_s", "transfer over " + c.path, t.time.value(), "s")
        .add("prefill_s", c.req.prefix_hit > 0 ? "prefill of one prompt's uncached tokens" : "prefill of one prompt",
             prefill_pass(pre, 1.0, r.computed(), r.input - r.computed()).time().value(), "s")
        .add("prefill_stall_s",
             c.req.prefix_hit > 0 ? "colocated: one prompt's uncached tokens stall the decode batch by (T3)"
                                  : "colocated: one prompt stalls the decode batch by (T3)",
             prefill_stall(pre, stall_batch, r).value(), "s")
        .add("colocated_feasible", "colocated meets the SLO", co.feasible)
        .add_or("colocated_batch", "colocated batch", co.feasible, co.decode_batch, "", "infeasible")
        .add_or("colocated_ttft_s", "colocated TTFT", co.feasible, co.ttft.value(), "s", "infeasible")
        .add_or("colocated_tpot_s", "colocated TPOT", co.feasible, co.tpot.value(), "s", "infeasible")
        .add("colocated_requests_per_s_per_gpu", "colocated goodput per GPU (requests/s)",
             co.requests_per_second_per_gpu)
        .add("disaggregated_feasible", "disaggregated meets the SLO", dis.feasible)
        .add_or("disaggregated_decode_batch", "decode batch", dis.feasible, dis.decode_batch, "", "infeasible")
        .add_or("disaggregated_prefill_batch", "prompts per prefill pass", dis.feasible, dis.prefill_batch, "", "infeasible")
        .add_or("disaggregated_ttft_s", "disaggregated TTFT (with the transfer)", dis.feasible, dis.ttft.value(), "s", "infeasible")
        .add_or("disaggregated_tpot_s", "disaggregated TPOT", dis.feasible, dis.tpot.value(), "s", "infeasible")
        .add_or("prefill_per_decode_instances", "P:D instances (T9)", dis.feasible,
                dis.prefill_instances_per_decode_instance, "", "infeasible")
        .add("disaggregated_requests_per_s_per_gpu", "disaggregated goodput per GPU (requests/s)",
             dis.requests_per_second_per_gpu)
        .add_or("goodput_gain", "disaggregated / colocated", co.requests_per_second_per_gpu > 0,
                dis.requests_per_second_per_gpu / co.requests_per_second_per_gpu, "x", "colocated infeasible");
    out.records.push_back(std::move(rec));
    out.notes.push_back("SLO: TTFT <= " + to_text(target.ttft) + ", TPOT <= " + to_text(target.tpot) +
                        (c.every_token ? " for every token." : " on the mean."));
    if (c.req.prefix_hit > 0)
        out.notes.push_back("Prefix cache: " + invalid_input::show(100 * c.req.prefix_hit) +
                            " % of each prompt found cached (S6): only the rest is prefilled, colocated and in the "
                            "prefill pool; the whole prompt's KV is still sent to the decode pool.");
    if (co_spec)
        out.notes.push_back("Speculative decoding: " + co_spec->text + ", gamma " + std::to_string(c.spec.draft_tokens) +
                            ", alpha " + invalid_input::show(c.spec.acceptance) +
                            ", in every colocated step and every decode-pool step (TTFT carries the first).");
    if (!co.feasible) out.notes.push_back("Colocated serving cannot meet the SLO at any batch.");
    if (!dis.feasible) out.notes.push_back("Disaggregated serving cannot meet the SLO at any batch.");
    if (c.dep.kv_memory_fraction > 0) out.notes.push_back(kv_memory_fraction_note(pre.engine) + " Both pools.");
    const std::array pools{pre.engine, dec.engine};
    for (const std::string& n : checkpoint_notes(c.dep.checkpoint, pools)) out.notes.push_back(n + " Both pools.");
    // The launch notes name the pool's own TP group and GPU (QuickReduce's n and custom cap, the clock's fractions):
    // one note for both pools where they match, else one for each (review s40a SHOULD 1).
    if (pre.layout.tp == dec.layout.tp && pre.hw.name == dec.hw.name) {
        for (const std::string& n : launch_notes(c.dep, pre)) out.notes.push_back(n + " Both pools.");
    } else {
        for (const std::string& n : launch_notes(c.dep, pre)) out.notes.push_back(n + " Prefill pool.");
        for (const std::string& n : launch_notes(dec_opts, dec)) out.notes.push_back(n + " Decode pool.");
    }
    return out;
}

// ---- spec ----------------------------------------------------------------------------------

report spec(const spec_command& c) {
    const deployment d = build(c.dep);
    const request_shape r = shape_of(c.req);
    check_context(d, c.req.input + c.req.output, c.dep);
    const drafter_choice chosen = drafter_for(c.spec, d, c.dep);
    // The weights, a draft model's beside them, and the batch fit, as estimate --spec checks.
    require_draft_fits(d, {}, chosen.speculation);  // a draft model that does not fit is named, not the target
    require_batch_fits(d, r, c.batch, with_draft_resident({}, chosen.speculation));
    const speculative_step step = chosen.speculation.step_for(d, c.batch, mean_decode_context(r));
    const std::string& drafter = chosen.text;
    const double a = c.spec.acceptance;
    report out{.title = "llmcost spec: " + std::string(d.m.name) + " on " + layout_text(d) + ", " + drafter +
                        ", gamma " + std::to_string(c.spec.draft_tokens) + ", alpha " + invalid_input::show(a)};
    record rec;
    add_deployment(rec, d);
    rec.add("drafter", "drafter", drafter)
        .add("batch", "sequences per pass", c.batch)
        .add("acceptance", "acceptance rate alpha", a)
        .add("draft_tokens", "draft tokens gamma", static_cast<double>(c.spec.draft_tokens))
        .add("expected_tokens_per_pass", "tokens per verification (1 - a^(g+1)) / (1 - a) (T6)",
             expected_tokens_per_pass(a, c.spec.draft_tokens))
        .add("draft_s", "drafting (all gamma passes)", step.draft_time.value(), "s")
        .add("verify_s", "verification pass", step.verify_time.value(), "s")
        .add("plain_step_s", "plain decode pass", step.plain_time.value(), "s")
        .add("speedup", "decode speedup", step.speedup(a), "x")
        .add("max_speedup", "speedup if every draft is accepted", step.max_speedup(), "x")
        .add("plain_tokens_per_s_per_user", "tokens/s per user without", step.plain_tokens_per_second().value(), "token/s")
        .add("tokens_per_s_per_user", "tokens/s per user with", step.tokens_per_second(a).value(), "token/s");
    if (c.target > 0) {
        const auto need = speculative_min_acceptance(step, tokens_per_second(c.target));
        rec.add("target_tokens_per_s_per_user", "target (T4)", c.target, "token/s")
            .add_or("min_acceptance_for_target", "least acceptance that reaches it", need.has_value(),
                    need.value_or(0.0), "", "unreachable");
        if (!need)
            out.notes.push_back("No acceptance rate reaches the target with this draft length and layout (T4).");
    }
    out.records.push_back(std::move(rec));
    if (c.dep.kv_memory_fraction > 0) out.notes.push_back(kv_memory_fraction_note(d.engine));
    std::vector<std::string> notes = checkpoint_notes(c.dep.checkpoint, std::span(&d.engine, 1));
    if (chosen.speculation.draft && kept_modules_of(c.dep.checkpoint))  // the first note: the kept modules
        notes.front() += " The target's checkpoint only: the draft model (--drafter) keeps none out of --weights.";
    for (std::string& n : launch_notes(c.dep, d)) notes.push_back(std::move(n));
    if (eager_prompt_of(c.dep.checkpoint))  // the last note: the prompt steps'
        notes.back() += " spec prices no prompt step: the verification pass is replayed from the engine's CUDA graphs as "
                        "a decode step is, so this moves none of its figures (docs/speculative-verify.md).";
    for (std::string& n : notes) out.notes.push_back(std::move(n));
    return out;
}

// ---- cost ----------------------------------------------------------------------------------

report cost(const cost_command& c) {
    if (!c.with_model && !c.model_flags.empty()) {
        // Without --model, cost prices the GPU-hour alone: a flag of a model's deployment or tokens would be
        // ignored, so it is refused, the first one named with what it does (and the others listed).
        std::string why = c.model_flags.front();  // appended piece by piece: GCC bug 105329's false -Wrestrict
        std::string_view does = "describes a model's deployment or its tokens";
        for (const cost_model_flag& f : cost_model_flags)
            if (f.flag == c.model_flags.front()) does = f.does;
        why += ' ';
        why += does;
        why += ": give --model (without it, cost prices the GPU-hour alone";
        if (c.model_flags.size() > 1) {
            why += "; also given without it:";
            for (std::size_t i = 1; i < c.model_flags.size(); ++i) {
                why += ' ';
                why += c.model_flags[i];
            }
        }
        why += ")";
        throw usage_error(why);
    }
    hardware h = hardware_named(c.dep.hardware, "--hardware", c.dep.hardware_file);
    if (c.capex > 0) h.capex_per_gpu = dollars(c.capex);
    facility site = catalog::seed_site;
    if (c.electricity > 0) site.electricity = dollars_per_kilowatt_hour(c.electricity);
    if (c.depreciation_years > 0) site.depreciation = years(c.depreciation_years);
    // --capex, --electricity and --depreciation-years are the owner's figures: they choose the TCO.
    const bool owner_figures = c.capex > 0 || c.electricity > 0 || c.depreciation_years > 0;
    if (owner_figures && !c.pricing.empty() && c.pricing != "tco")
        throw usage_error("--capex, --electricity and --depreciation-years price the TCO: use them with --pricing tco "
                          "(or without --pricing), not --pricing " + c.pricing);
    const pricing_basis basis = c.pricing.empty() ? (owner_figures ? pricing_basis::tco : pricing_basis::market)
                                                  : pricing_named(c.pricing);
    const gpu_hour_price price = price_gpu_hour(h, site, c.utilisation, basis, catalog::market_price_of(h.name));
    if (!price.known())
        throw usage_error("--hardware '" + std::string(h.name) + "' has no listed price and no capex (capex_usd_per_gpu 0); "
                          "pass --capex USD");

    report out{.title = "llmcost cost: " + std::string(h.name) + " at " + invalid_input::show(100 * c.utilisation) +
                        " % utilisation"};
    record rec;
    rec.add("hardware", "hardware", std::string(h.name)).add("utilisation", "utilisation", c.utilisation);
    if (h.capex_per_gpu.value() > 0) {  // the owner's view, whatever the basis charged
        const gpu_cost_rate rate = gpu_hour_cost(h, site, c.utilisation);
        rec.add("capex_usd", "price per GPU (with its share of the server)", h.capex_per_gpu.value(), "USD")
            .add("depreciation_years", "depreciation", ratio(site.depreciation, years(1.0)), "years")
            .add("wall_power_W", "wall power per GPU at this utilisation (S30)", rate.wall_power.value(), "W")
            .add("capital_usd_per_gpu_hour", "TCO: capital per GPU-hour", rate.capital.value() * 3600, "USD/h")
            .add("energy_usd_per_gpu_hour", "TCO: energy per GPU-hour", rate.energy.value() * 3600, "USD/h")
            .add("tco_usd_per_gpu_hour", "TCO: capex + power per GPU-hour", rate.total().value() * 3600, "USD/h");
    }
    rec.add("usd_per_gpu_hour", "cost of a GPU-hour (charged below)", price.rate.value() * 3600, "USD/h")
        .add("pricing", "priced on", std::string(to_string(price.basis)))
        .add("usd_basis", "price basis", basis_text(price, h, site));
    if (c.with_model) {
        deployment_options o = c.dep;
        deployment d = build(o);
        d.hw = h;
        check_context(d, c.req.input + c.req.output, c.dep);
        require_batch_fits(d, shape_of(c.req), c.batch);  // the weights and the batch fit, as estimate checks
        if (c.dep.kv_memory_fraction > 0) out.notes.push_back(kv_memory_fraction_note(d.engine));
        for (std::string& n : checkpoint_notes(c.dep.checkpoint, std::span(&d.engine, 1))) out.notes.push_back(std::move(n));
        for (std::string& n : launch_notes(c.dep, d)) out.notes.push_back(std::move(n));
        const pricing_point p{.decode_batch = c.batch, .context = mean_decode_context(shape_of(c.req)),
                              .prompt = tokens(c.req.input)};
        const gpu_token_rates rates = gpu_token_rates_at(d, p);
        const token_costs tc = cost_per_token(price.rate, rates, c.utilisation);
        // The same GPU-hour charged as `llmcost estimate` charges it: all GPU time to output tokens.
        const request_estimate all_in = llmcost::estimate(
            d, shape_of(c.req), {.batch = c.batch, .site = site, .utilisation = c.utilisation, .gpu_cost = price.rate});
        rec.add("model", "model", std::string(d.m.name))
            .add("decode_batch", "decode batch", c.batch)
            .add("prefill_tokens_per_s_per_gpu", "input tokens/s per GPU", rates.prefill.value(), "token/s")
            .add("decode_tokens_per_s_per_gpu", "output tokens/s per GPU", rates.decode.value(), "token/s")
            .add("usd_per_million_input_tokens", "cost per million input tokens (S33)", per_million(tc.input), "USD/Mtoken")
            .add("usd_per_million_output_tokens", "cost per million output tokens, decode alone",
                 per_million(tc.output), "USD/Mtoken")
            .add("usd_per_million_output_tokens_all_in",
                 "per M output, all GPU time (= estimate)",
                 per_million(all_in.cost_per_output_token), "USD/Mtoken")
            .add("usd_per_million_cached_tokens", "cost per million cached input tokens", per_million(tc.cached), "USD/Mtoken")
            .add("output_input_cost_ratio", "output / input cost (lists: 5-6x)", output_input_cost_ratio(rates), "x")
            .add("cached_input_cost_ratio", "cached / input cost (lists: 1/10)", cached_input_cost_ratio(rates));
        if (c.price_input > 0 || c.price_output > 0) {
            const token_prices prices{.name = "--price-input and --price-output", .input = dollars_per_million_tokens(c.price_input),
                                      .output = dollars_per_million_tokens(c.price_output)};
            const dollars_per_second_t full = full_use_revenue(prices, rates, tokens(c.req.input), tokens(c.req.output));
            const break_even be = break_even_utilisation(h, site, full);
            const utilisation_economics at = economics_at(h, site, full, c.utilisation);
            rec.add("revenue_usd_per_gpu_hour_at_full_use", "token revenue per GPU-hour at full use", full.value() * 3600, "USD/h")
                .add_or("break_even_utilisation", "break-even utilisation (T7)", be.reachable, be.utilisation, "",
                        "never")
                .add("revenue_over_depreciation", "revenue / depreciation at this utilisation (T7)",
                     at.revenue_over_depreciation(), "x")
                .add("payback_s", "payback period", payback_period(h, site, full, c.utilisation).value(), "s");
            if (!be.reachable) out.notes.push_back("At these prices the GPU never breaks even.");
        }
    }
    out.records.push_back(std::move(rec));
    out.notes.push_back("GPU-hour: " + basis_text(price, h, site) + ".");
    if (c.with_model)
        out.notes.push_back("Input and output are billed apart: input tokens pay for the prefill's GPU-seconds, output "
                            "tokens for the decode's. `llmcost estimate` charges all GPU time (prefill included) to "
                            "output tokens: the 'all GPU time' row is its figure at the same batch.");
    if (c.price_input > 0 || c.price_output > 0)
        out.notes.push_back("Break-even and payback are the owner's: capex and power, whatever the basis charged above.");
    out.notes.push_back("Electricity " + to_text(site.electricity) + " at the wall (" + multipliers_text(site) + ").");
    return out;
}

// ---- optics --------------------------------------------------------------------------------

report optics(const optics_command& c) {
    const facility& site = catalog::seed_site;
    report out{.title = "llmcost optics: " + text::grouped(c.gpus) + " GPUs of each type, copper inside a scale-up "
                        "domain, optical transceivers on the links that leave it (S9, S10)",
               .layout = report::shape::array};
    for (const std::string& name : c.hardware) {
        const hardware h = hardware_named(name, "--hardware", c.hardware_file);
        const cluster_optics o = optics_of(h, c.gpus);
        record rec{.id = std::string(h.name)};
        rec.add("hardware", "GPU", std::string(h.name))
            .add("scale_up_domain", "domain", static_cast<double>(h.scale_up_domain))
            .add("scale_up", "scale-up (copper)", std::string(h.scale_up.name))
            .add("domains", "domains", o.domains, "count")
            .add("optical", "optical scale-out", o.optical)
            .add("transceivers_per_gpu", "xcvrs/GPU", o.optical ? static_cast<double>(h.transceivers_per_gpu) : 0.0)
            .add("transceiver_W", "W each", h.transceiver_power.value(), "W")
            .add("optics_W", "optics", o.power.value(), "W")
            .add("optics_wall_W", "at the wall", (o.power * site.cooling).value(), "W")
            .add("optics_W_per_gpu", "per GPU", o.per_gpu.value(), "W")
            .add("share_of_board_power", "of board power", 100.0 * o.share_of_board_power, "%");
        // Cost share: the GPU-hour at capex + power with its transceivers (cooled, always on) and without.
        if (h.capex_per_gpu.value() > 0) {
            const dollars_per_second_t bare = gpu_hour_cost(h, site, 1.0).total();
            const dollars_per_second_t with = o.optical ? gpu_hour_cost(h, site, 1.0, {.optics = true}).total() : bare;
            rec.add("optics_usd_per_gpu_hour", "optics $/GPU-h", (with - bare).value() * 3600.0, "USD/h")
                .add("optics_share_of_tco", "of a GPU-hour (TCO)", 100.0 * ratio(with - bare, with), "%");
        } else {
            rec.add("optics_usd_per_gpu_hour", "optics $/GPU-h", value(), "USD/h")
                .add("optics_share_of_tco", "of a GPU-hour (TCO)", value(), "%");
        }
        rec.add("scale_up_B_per_s", "scale-up each way", h.scale_up.per_direction.value(), "B/s")
            .add("scale_out_B_per_s", "scale-out each way", h.scale_out.per_direction.value(), "B/s")
            .add("scale_up_advantage", "up/out", o.scale_up_advantage, "x");
        out.records.push_back(std::move(rec));
    }
    out.notes.push_back("A cluster within one scale-up domain is copper only (S9); beyond it every GPU's scale-out "
                        "links carry its transceivers (S10: about 6 per GPU), always on.");
    out.notes.push_back("At the wall: x " + text::number(site.cooling) + " cooling. Optics $/GPU-h: that power at " +
                        to_text(site.electricity) + "; its share of the GPU-hour at capex + power (" +
                        years_text(site.depreciation) + " straight-line), transceivers' purchase price not included.");
    out.notes.push_back("up/out: scale-up / scale-out bandwidth, each way (S36 quotes 36x for NVL72 by dividing both "
                        "directions by one; like for like it is half).");
    return out;
}

}  // namespace llmcost::cli
