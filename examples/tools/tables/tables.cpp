/// llmcost-tables <output-dir>: every catalog model on every catalog GPU — the fewest GPUs that
/// hold it, memory per GPU, the longest context, batch-1 speed, saturated throughput and price —
/// as Markdown and CSV, computed with the library alone. The `tables` target writes them to
/// tables/generated/; the test `tables.generated_up_to_date` keeps the checked-in copies current.
///
/// The output must be byte-identical under every compiler and build type: numbers go through
/// llmcost::text (correctly rounded, locale-free; 4 significant digits in Markdown, 6 in CSV),
/// never through iostream or the locale.

#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace llmcost;
using namespace llmcost::literals;

// ---- the assumptions, stated once and printed in every header --------------------------------

constexpr request_shape shape{.input = 1000_tok, .output = 200_tok};
constexpr scheduler_limits limits{.max_batch = 256};
constexpr estimate_options saturate{.batch = 0, .limits = limits, .site = catalog::seed_site,
                                    .market_prices = catalog::gpu_market_prices};
constexpr int dep_gpus = 8;  ///< the expert-parallel layout tried for MoE models: tp 1, dp 8, ep 8

// ---- numbers as text -------------------------------------------------------------------------

/// Markdown shows 4 significant digits; the CSV keeps 6 for whoever computes with it.
std::string md(double v) { return text::plain(v, 4); }
std::string plain(double v) { return text::plain(v, 6, text::grouping::none); }

/// A whole number (GPUs, sequences, tokens), exactly.
std::string whole(double v, bool commas) { return commas ? text::grouped(v) : text::fixed(v, 0); }

// ---- one model on one GPU --------------------------------------------------------------------

/// The longest single sequence whose KV fits beside the weights on one GPU, capped at the model's
/// max_position. Sliding-window layers make KV(context) piecewise linear, so bisect on whole tokens.
struct context_room {
    double tokens = 0;
    bool capped = false;  ///< the model's max_position, not HBM, set it
};

context_room max_context(const deployment& d) {
    const bytes_t budget = kv_budget_per_gpu(d, limits.pool_reserve());  // the pool `holds_a_request` prices
    const auto fits = [&](double c) { return kv_bytes_per_gpu_for_context(d, llmcost::tokens(c)) <= budget; };
    double lo = 0, hi = d.m.max_position;
    if (fits(hi)) return {hi, true};
    while (hi - lo > 1) {
        const double mid = static_cast<double>(static_cast<long long>((lo + hi) / 2));
        (fits(mid) ? lo : hi) = mid;
    }
    return {lo, false};
}

/// The layout holds the weights and the KV of one whole request (its whole blocks) beside the reserve.
bool holds_a_request(const deployment& d) {
    return weights_fit(d, limits.pool_reserve()) &&
           kv_bytes_per_gpu_for_context(d, kv_block_slots(shape.input + shape.output, kv_block_size(d))) <=
               kv_budget_per_gpu(d, limits.pool_reserve());  // in the engine's whole KV blocks
}

/// The layout keeps the model's rules (tp divides the heads, ep the experts, …). A GPU without a
/// matmul rate for the model's format breaks a rule too (`llmcost.deployment.peak_for_format`): it
/// cannot be timed, but its memory still answers (weights per GPU, context, batch), so it stays.
bool valid(const deployment& d) {
    const std::optional<invalid_input> p = problem(d);
    return !p || p->id() == "llmcost.deployment.peak_for_format";
}

/// Layouts in order of GPU count: tp 1, 2, 4, … within the scale-up domain, and for MoE models
/// DEP8 (attention data-parallel on 8 GPUs, experts 8-way expert-parallel) beside tp 8.
std::vector<parallel_layout> candidates(const deployment& d) {
    std::vector<parallel_layout> out;
    for (int tp = 1; tp <= d.hw.scale_up_domain; tp *= 2) {
        out.push_back({.tp = tp});
        if (tp == dep_gpus && d.m.is_moe()) out.push_back({.tp = 1, .ep = dep_gpus, .dp = dep_gpus});
    }
    return out;
}

/// The GPU has a dense rate for the model's matmuls (natively or widened); without one the library
/// refuses to time a pass, so the speed columns say n/a.
bool timed(const deployment& d) { return d.hw.gpu.supports(d.m.activations.compute); }

/// The context a decoding sequence attends to on average: its prompt and half its output.
constexpr tokens_t mean_context = shape.input + shape.output / 2.0;

struct row {
    deployment d;                 ///< the chosen layout (meaningless when !fits)
    bool fits = false;
    context_room context;
    tokens_per_second_t decode_batch1;  ///< 1 ÷ one decode pass of one sequence at mean_context
    request_estimate saturated;
};

row evaluate(const deployment& d) {
    row r{.d = d, .fits = true, .context = max_context(d), .decode_batch1 = {}, .saturated = {}};
    if (timed(d)) {
        r.decode_batch1 = tokens(1.0) / decode_pass(d, 1.0, mean_context).time();
        r.saturated = estimate(d, shape, saturate);
    } else {  // memory still answers: the batch the KV room admits, and the weights per GPU
        const batch_limit b = admissible_batch(d, shape, saturate.limits);
        r.saturated.point.batch = b.batch;
        r.saturated.point.limited_by = b.limited_by;
        r.saturated.weight_bytes_per_gpu = weight_bytes_per_gpu(d);
    }
    return r;
}

/// The fewest GPUs that hold the model; at equal count, the layout with more output per GPU.
row place(const deployment& base) {
    std::optional<row> best;
    for (const parallel_layout& l : candidates(base)) {
        if (best && l.gpus() > best->d.layout.gpus()) break;
        deployment d = base;
        d.layout = l;
        if (!valid(d) || !holds_a_request(d)) continue;
        row r = evaluate(d);
        if (!best || r.saturated.point.output_rate_per_gpu > best->saturated.point.output_rate_per_gpu) best = r;
    }
    if (best) return *best;
    row none{};
    none.d = base;
    return none;
}

/// "TP4", or "DEP8" with its degrees spelled out when `detail`.
std::string layout_name(const parallel_layout& l, bool detail) {
    if (l.ep == 1) return "TP" + std::to_string(l.tp);
    const std::string name = "DEP" + std::to_string(l.gpus());
    return detail ? name + " (dp " + std::to_string(l.dp) + ", ep " + std::to_string(l.ep) + ")" : name;
}

/// "Weights bf16 (routed experts mxfp4), KV cache bf16 (72 KiB/token, all layers), matmuls in bf16".
std::string formats_text(const model& m) {
    std::string s = "Weights " + std::string(m.weights.name);
    if (m.expert_weights) s += " (routed experts " + std::string(m.expert_weights->name) + ")";
    return s + ", KV cache " + std::string(m.kv_cache.name) + " (" +
           to_text(kv_bytes_per_token(m), {.bytes = text::byte_prefix::binary}) + ", all layers), matmuls in " +
           std::string(to_string(m.activations.compute));
}

// ---- a table: rows, then Markdown and CSV ----------------------------------------------------

struct table {
    std::string title;
    std::string formats_note;      ///< one assumption line about number formats
    std::vector<std::vector<row>> by_model;
};

table build(std::string title, std::string formats_note, const std::function<bool(const hardware&)>& gpu_ok,
            const std::function<deployment(deployment)>& convert) {
    table t{.title = std::move(title), .formats_note = std::move(formats_note), .by_model = {}};
    for (const model& m : catalog::all_models) {
        std::vector<row> rows;
        for (const hardware& hw : catalog::all_hardware)
            if (gpu_ok(hw)) rows.push_back(place(convert(deployment{.m = m, .hw = hw})));
        t.by_model.push_back(std::move(rows));
    }
    return t;
}

/// The GPUs of a table on which some model cannot be timed, with the rates the catalog lists.
std::string untimed(const table& t) {
    std::string s;
    for (const hardware& hw : catalog::all_hardware) {
        bool listed = false, missing = false;
        for (const std::vector<row>& rows : t.by_model)
            for (const row& r : rows) {
                listed |= r.d.hw.name == hw.name;
                missing |= r.d.hw.name == hw.name && r.fits && !timed(r.d);
            }
        if (!listed || !missing) continue;
        const dense_peaks& p = hw.gpu.dense;
        std::string rates;
        for (const auto& [name, rate] : {std::pair{"BF16", p.bf16}, {"FP8", p.fp8}, {"FP4", p.fp4}, {"INT8", p.int8}})
            if (rate.value() > 0.0) rates += (rates.empty() ? "" : ", ") + std::string(name);
        s += (s.empty() ? "" : "; ") + std::string(hw.name) + ": " + (rates.empty() ? "none" : rates + " only");
    }
    return s;
}

std::string assumptions(const table& t) {
    const facility& site = saturate.site;
    const double kept = 1.0 - engine_profile::reference().scheduler.kv_memory_fraction;  // the reference engine's KV pool rule
    const std::string request = whole(shape.input.value(), true) + "-token prompt, " +
                                whole(shape.output.value(), true) + " output tokens";
    std::string s;
    s += "# " + t.title + "\n\n";
    s += "Generated by `llmcost-tables` from the library's catalogs and cost model: do not edit by hand. "
         "Regenerate with `cmake --build <build dir> --target tables`; the test `tables.generated_up_to_date` "
         "fails when this file is stale. The same figures are in the `.csv` file beside it, in SI units.\n\n";
    s += "Assumptions:\n\n";
    s += "- " + t.formats_note + "\n";
    s += "- Every request: " + request + ".\n";
    s += "- Layout: the fewest GPUs whose HBM holds the weights and the KV cache of one request after the reserve (" +
         md(kept * 100.0) + "% of HBM kept free and " + to_text(library_activations) +
         " of activations per GPU): tensor parallelism 1, 2, 4, … up to the GPU's scale-up domain, "
         "where the model's heads allow it; for MoE models also DEP" + std::to_string(dep_gpus) +
         " (attention data-parallel over " + std::to_string(dep_gpus) + " GPUs, routed experts " +
         std::to_string(dep_gpus) + "-way expert-parallel). At equal GPU count, the layout with the higher "
         "saturated output per GPU. *does not fit*: not even the whole scale-up domain holds it.\n";
    s += "- Max context: the longest single sequence whose KV cache fits beside the weights on one GPU, capped at "
         "the model's `max_position` (marked \"max\").\n";
    s += "- Decode, batch 1: one sequence decoding alone, 1 ÷ the time of one decode pass at " +
         whole(mean_context.value(), true) + " tokens of context (prompt + half the output); the prompt's prefill "
         "is not in it.\n";
    s += "- Saturated: requests queued without end, as many running per attention rank as the KV cache holds "
         "(prompt + output reserved per sequence) up to a batch of " + whole(limits.max_batch, true) +
         "; the batch column says which limit applied. DEP layouts run that batch on each of their ranks. "
         "Each prompt is prefilled whole in one step (TensorRT-LLM's default), so the mean step mixes steps "
         "with and without a prompt.\n";
    s += "- $/M output tokens at saturation: the GPU's on-demand market price per GPU-hour (tables/gpu_prices.csv, "
         "with its source and date), busy " + md(saturate.utilisation * 100.0) +
         "% of the time, all GPU time (prefill included) charged to output tokens. Marked (TCO): no market price "
         "listed for that GPU, so its price ÷ " + md(ratio(site.depreciation, years(1.0))) +
         " years straight-line + board power × " + md(site.power_multiplier()) + " (server and cooling) at " +
         to_text(site.electricity) + " instead; n/a where neither is known.\n";
    if (!untimed(t).empty())
        s += "- n/a in the speed columns: the catalog has no dense matmul rate for the model's format on that GPU "
             "(" + untimed(t) + "), so the library cannot time a pass.\n";
    return s;
}

std::string markdown(const table& t) {
    std::string s = assumptions(t);
    for (const std::vector<row>& rows : t.by_model) {
        const model& m = rows.front().d.m;
        s += "\n## " + std::string(m.name) + "\n\n";
        s += formats_text(m) + "; max_position " + whole(m.max_position, true) + " tokens.\n\n";
        s += "| GPU | layout | GPUs | weights per GPU (GB) | max context, batch 1 (tokens) | decode, batch 1 "
             "(tokens/s per user) | saturated batch (limit) | saturated output (tokens/s per GPU) | "
             "$ per M output tokens |\n";
        s += "|---|---|--:|--:|--:|--:|--:|--:|--:|\n";
        for (const row& r : rows) {
            s += "| " + std::string(r.d.hw.name) + " | ";
            if (!r.fits) {
                s += "does not fit | | | | | | | |\n";
                continue;
            }
            const serving_point& p = r.saturated.point;
            const bool speed = timed(r.d);
            s += layout_name(r.d.layout, true) + " | " + whole(r.d.layout.gpus(), true) + " | " +
                 md(ratio(r.saturated.weight_bytes_per_gpu, gigabytes(1.0))) + " | " +
                 whole(r.context.tokens, true) + (r.context.capped ? " (max)" : "") + " | " +
                 (speed ? md(r.decode_batch1.value()) : "n/a") + " | " + whole(p.batch, true) + " (" +
                 std::string(p.limited_by) + ") | " + (speed ? md(p.output_rate_per_gpu.value()) : "n/a") +
                 " | " +
                 (speed && r.saturated.cost_known()
                      ? md(ratio(r.saturated.cost_per_output_token, dollars(1.0) / tokens(1e6))) +
                            (r.saturated.price.basis == pricing_basis::tco ? " (TCO)" : "")
                      : "n/a") +
                 " |\n";
        }
    }
    return s;
}

std::string csv(const table& t) {
    std::string s =
        "model,weights_format,expert_format,kv_format,gpu,fits,layout,tp,ep,dp,gpus,weights_per_gpu_B,"
        "kv_per_token_B,max_context_tokens_batch1,max_context_capped,decode_tokens_per_s_batch1,saturated_batch,"
        "saturated_limited_by,saturated_output_tokens_per_s_per_gpu,usd_per_million_output_tokens,pricing\n";
    for (const std::vector<row>& rows : t.by_model)
        for (const row& r : rows) {
            const model& m = r.d.m;
            const parallel_layout& l = r.d.layout;
            const serving_point& p = r.saturated.point;
            const bool f = r.fits, speed = f && timed(r.d);
            const std::vector<std::string> fields{
                std::string(m.name), std::string(m.weights.name),
                std::string(m.expert_weights ? m.expert_weights->name : ""), std::string(m.kv_cache.name),
                std::string(r.d.hw.name), f ? "1" : "0", f ? layout_name(l, false) : "",
                f ? whole(l.tp, false) : "", f ? whole(l.ep, false) : "", f ? whole(l.dp, false) : "",
                f ? whole(l.gpus(), false) : "", f ? plain(r.saturated.weight_bytes_per_gpu.value()) : "",
                plain(kv_bytes_per_token(m).value()), f ? whole(r.context.tokens, false) : "",
                f ? (r.context.capped ? "1" : "0") : "", speed ? plain(r.decode_batch1.value()) : "",
                f ? whole(p.batch, false) : "", f ? std::string(p.limited_by) : "",
                speed ? plain(p.output_rate_per_gpu.value()) : "",
                speed && r.saturated.cost_known()
                    ? plain(ratio(r.saturated.cost_per_output_token, dollars(1.0) / tokens(1e6)))
                    : "",
                speed && r.saturated.cost_known() ? std::string(to_string(r.saturated.price.basis)) : ""};
            for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? "," : "") + fields[i];
            s += "\n";
        }
    return s;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (f) f.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (f) f.close();
    if (!f) throw std::runtime_error("cannot write '" + path.string() + "'");
}

/// The GPUs without native FP8 units, for the FP8 table's header.
std::string without_fp8() {
    std::string s;
    for (const hardware& hw : catalog::all_hardware)
        if (hw.gpu.dense.fp8.value() <= 0.0) s += (s.empty() ? "" : ", ") + std::string(hw.name);
    return s.empty() ? "none" : s;
}

/// Models shipped in a format narrower than FP8, which the FP8 table widens.
std::string narrower_than_fp8() {
    const double fp8_bits = formats::fp8.bits_per_element();
    std::string s;
    for (const model& m : catalog::all_models) {
        const bool weights = m.weights.bits_per_element() < fp8_bits;
        const bool experts = m.expert_format().bits_per_element() < fp8_bits;
        if (weights || experts)
            s += (s.empty() ? "" : ", ") + std::string(m.name) + "'s " + (weights ? "weights" : "routed experts") +
                 " (" + std::string((weights ? m.weights : m.expert_format()).name) + ")";
    }
    return s.empty() ? "" : " Formats narrower than FP8 are widened to it: " + s + ".";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: llmcost-tables <output-dir>\n"
                             "writes models_x_hardware{,_fp8}.{md,csv} into an existing directory\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        const bool exists = std::filesystem::exists(dir, ec);
        std::fprintf(stderr, "llmcost-tables: output directory '%s' %s\n", argv[1],
                     exists ? "is not a directory" : "does not exist; create it first");
        return 1;
    }
    try {
        const table as_shipped = build(
            "Every catalog model on every catalog GPU",
            "Models in their catalog formats (the formats are listed under each model's name); matmuls in the "
            "catalog's activation format. Every catalog GPU, the seed's dashboard GPU and model included.",
            [](const hardware&) { return true; }, [](deployment d) { return d; });
        const table fp8 = build(
            "Every catalog model on every catalog GPU with FP8 units, in FP8",
            "Every weight (routed experts included) and the KV cache in FP8, matmuls at the FP8 rate "
            "(`with_formats(d, fp8, fp8)`)." + narrower_than_fp8() +
                " GPUs without an FP8 peak in the catalog are left out: " + without_fp8() + ".",
            [](const hardware& hw) { return hw.gpu.dense.fp8.value() > 0.0; },
            [](deployment d) { return with_formats(d, formats::fp8, formats::fp8); });
        write(dir / "models_x_hardware.md", markdown(as_shipped));
        write(dir / "models_x_hardware.csv", csv(as_shipped));
        write(dir / "models_x_hardware_fp8.md", markdown(fp8));
        write(dir / "models_x_hardware_fp8.csv", csv(fp8));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "llmcost-tables: %s\n", e.what());
        return 1;
    }
    return 0;
}
