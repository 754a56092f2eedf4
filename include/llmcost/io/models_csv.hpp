#pragma once
/// \file
/// Reads a model table in the format of `tables/models.csv` into validated `model` descriptors.
/// Columns are found by name and mirror the fields of `model` one to one (the nested ones by
/// their last name: `attention.latent.kv_lora_rank` is `kv_lora_rank`); columns the loader does
/// not know — `published_*`, `source`, `notes` — are left to whoever needs them.
///
/// Cell formats: counts are whole numbers ≥ 0 (write 0 for "none"; an empty cell is refused so
/// that a forgotten value cannot pass as 0); flags are `true` or `false`; `attention_kind` is
/// `standard` or `latent`; number formats are the names `format_named` knows (`bf16`, `fp8`,
/// `mxfp4`, ...). `expert_weights` alone may be empty: then the experts are stored as `weights`.
///
/// Every failure is a `load_error` naming the file, the line, the column and the rule, including
/// the rules of `model::validate()` (reported against the column the offending field came from).
///
/// **Example**
/// \code
/// const auto models = llmcost::io::load_models_csv("tables/models.csv");
/// \endcode

#include <llmcost/descriptors/model.hpp>
#include <llmcost/descriptors/precision.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/intern.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::io {

namespace detail::models_csv {

/// The columns the loader reads, in the order of `tables/models.csv`.
inline constexpr std::array<std::string_view, 50> columns{
    // model
    "name", "layers", "hidden", "vocab", "tied_embeddings",
    // attention_spec and latent_attention
    "attention_kind", "query_heads", "kv_heads", "head_dim", "kv_lora_rank", "q_lora_rank",
    "rope_head_dim", "nope_head_dim", "v_head_dim", "sliding_window", "sliding_window_layers",
    "qkv_bias", "output_bias", "qk_norm", "sinks",
    // ffn_spec
    "intermediate", "gated", "routed_experts", "shared_experts", "top_k", "expert_intermediate",
    "first_dense_layers", "expert_bias", "router_bias",
    // model, continued
    "max_position", "weights", "kv_cache", "activations", "expert_weights", "mtp_modules",
    // the per-layer pattern and the parts of newer families (hybrid, gated, interleaved MoE)
    "layer_pattern", "attention_chunk", "split_blocks", "norms_per_layer", "output_gate",
    "shared_expert_intermediate", "shared_expert_gate", "moe_layer_step", "state_kind", "state_heads",
    "state_head_dim", "state_dim", "state_groups", "state_conv_kernel", "state_conv_bias",
};

/// Columns added after tables were written: a table may leave them out (`row_reader::optional_figure`).
inline constexpr std::array<std::string_view, 1> optional_columns{"routing_skew"};

/// The names `format_named` accepts, for the message that refuses an unknown one.
[[nodiscard]] inline std::string known_formats() {
    std::string s;
    for (const number_format& f : formats::all) {
        if (!s.empty()) s += ", ";
        s += f.name;
    }
    return s;
}

/// The cells of one data row, read by column name. Every failure names the column, the line and
/// the 1-based field index, and shows the cell as it was typed.
class row_reader {
public:
    row_reader(const csv_table& table, std::size_t row) : table_(table), row_(row) {}

    [[nodiscard]] int line() const { return table_.rows()[row_].line; }
    [[nodiscard]] const std::string& text(std::string_view column) const { return table_.field(row_, column); }

    [[noreturn]] void fail(std::string_view column, const std::string& rule) const {
        const std::size_t c = table_.column(column);
        throw load_error(table_.origin(), std::string(column), rule, line(), static_cast<int>(c) + 1,
                         '"' + text(column) + '"');
    }

    /// The model's name, interned so that the descriptor's view outlives the table.
    [[nodiscard]] std::string_view name(std::string_view column) const {
        const std::string& t = text(column);
        if (t.empty()) fail(column, "empty cell: a name is required");
        return intern(t);
    }
    /// A count: a whole number ≥ 0 that fits in `int` (every count in `model` is one).
    [[nodiscard]] int count(std::string_view column) const {
        const std::optional<double> v = table_.number(row_, column);  // throws on non-numbers
        if (!v) fail(column, "empty cell: a whole number is required (write 0 for none)");
        if (!std::isfinite(*v)) fail(column, "expected a finite number");
        if (*v < 0.0) fail(column, "must not be negative");
        if (*v != std::floor(*v)) fail(column, "expected a whole number (it counts things)");
        if (*v > std::numeric_limits<int>::max()) fail(column, "too large (must fit in a 32-bit int)");
        return static_cast<int>(*v);
    }
    /// A figure of a column a table may leave out (added after tables were written): 0 where the
    /// column or the cell is absent; otherwise a finite number (the descriptor checks its range).
    [[nodiscard]] double optional_figure(std::string_view column) const {
        if (!table_.find_column(column)) return 0.0;
        const std::optional<double> v = table_.number(row_, column);  // throws on non-numbers
        if (!v) return 0.0;
        if (!std::isfinite(*v)) fail(column, "expected a finite number");
        return *v;
    }
    /// `true` or `false`, spelled exactly so (a `1` or `yes` is more likely a misplaced value).
    [[nodiscard]] bool flag(std::string_view column) const {
        const std::string& t = text(column);
        if (t == "true") return true;
        if (t == "false") return false;
        fail(column, "expected true or false");
    }
    [[nodiscard]] attention_kind kind(std::string_view column) const {
        const std::string& t = text(column);
        if (t == "standard") return attention_kind::standard;
        if (t == "latent") return attention_kind::latent;
        fail(column, "expected standard or latent");
    }
    /// A layer pattern: empty, or the letters F W C S - (the descriptor checks which are allowed).
    [[nodiscard]] std::string_view pattern(std::string_view column) const {
        const std::string& t = text(column);
        if (t.find_first_not_of("FWCS-") != std::string::npos)
            fail(column, "expected layer letters: F (full), W (window), C (chunked), S (state space), - (FFN only)");
        return t.empty() ? std::string_view{} : intern(t);
    }
    [[nodiscard]] state_space_kind state_kind(std::string_view column) const {
        const std::string& t = text(column);
        if (t.empty() || t == "mamba2") return state_space_kind::mamba2;
        if (t == "gated_delta_net") return state_space_kind::gated_delta_net;
        fail(column, "expected mamba2 or gated_delta_net (or empty: no state-space layers)");
    }
    [[nodiscard]] number_format number_format_in(std::string_view column) const {
        const std::string& t = text(column);
        if (t.empty()) fail(column, "empty cell: a number format is required (known: " + known_formats() + ")");
        if (const std::optional<number_format> f = format_named(t)) return *f;
        fail(column, "unknown number format (known: " + known_formats() + ")");
    }
    /// A format that may be left empty (= none given).
    [[nodiscard]] std::optional<number_format> optional_format(std::string_view column) const {
        if (text(column).empty()) return std::nullopt;
        return number_format_in(column);
    }

private:
    const csv_table& table_;
    std::size_t row_;
};

/// The column of a `model::validate` field: its last component ("attention.kv_heads" →
/// "kv_heads"), which is how the columns are named. Empty when the table has no such column (a
/// rule added to the descriptor later).
[[nodiscard]] inline std::string_view column_for(const csv_table& table, std::string_view field) {
    const std::string_view last = field.substr(field.rfind('.') + 1);
    for (const std::string_view c : columns)
        if (c == last && table.find_column(c)) return c;
    for (const std::string_view c : optional_columns)
        if (c == last && table.find_column(c)) return c;
    return {};
}

[[nodiscard]] inline model read_row(const csv_table& table, std::size_t row) {
    const row_reader r(table, row);
    model m;
    m.name = r.name("name");
    m.layers = r.count("layers");
    m.hidden = r.count("hidden");
    m.vocab = r.count("vocab");
    m.tied_embeddings = r.flag("tied_embeddings");
    attention_spec& a = m.attention;
    a.kind = r.kind("attention_kind");
    a.query_heads = r.count("query_heads");
    a.kv_heads = r.count("kv_heads");
    a.head_dim = r.count("head_dim");
    a.latent.kv_lora_rank = r.count("kv_lora_rank");
    a.latent.q_lora_rank = r.count("q_lora_rank");
    a.latent.rope_head_dim = r.count("rope_head_dim");
    a.latent.nope_head_dim = r.count("nope_head_dim");
    a.latent.v_head_dim = r.count("v_head_dim");
    a.sliding_window = r.count("sliding_window");
    a.sliding_window_layers = r.count("sliding_window_layers");
    a.qkv_bias = r.flag("qkv_bias");
    a.output_bias = r.flag("output_bias");
    a.qk_norm = r.flag("qk_norm");
    a.sinks = r.flag("sinks");
    ffn_spec& f = m.ffn;
    f.intermediate = r.count("intermediate");
    f.gated = r.flag("gated");
    f.routed_experts = r.count("routed_experts");
    f.shared_experts = r.count("shared_experts");
    f.top_k = r.count("top_k");
    f.expert_intermediate = r.count("expert_intermediate");
    f.first_dense_layers = r.count("first_dense_layers");
    f.expert_bias = r.flag("expert_bias");
    f.router_bias = r.flag("router_bias");
    m.max_position = r.count("max_position");
    m.weights = r.number_format_in("weights");
    m.kv_cache = r.number_format_in("kv_cache");
    m.activations = r.number_format_in("activations");
    m.expert_weights = r.optional_format("expert_weights");
    m.mtp_modules = r.count("mtp_modules");
    layer_pattern& p = m.pattern;
    p.kinds = r.pattern("layer_pattern");
    p.chunk = r.count("attention_chunk");
    p.split_blocks = r.flag("split_blocks");
    m.norms_per_layer = r.count("norms_per_layer");
    a.output_gate = r.flag("output_gate");
    f.shared_expert_intermediate = r.count("shared_expert_intermediate");
    f.shared_expert_gate = r.flag("shared_expert_gate");
    f.moe_layer_step = r.count("moe_layer_step");
    f.routing_skew = r.optional_figure("routing_skew");
    p.state.kind = r.state_kind("state_kind");
    p.state.heads = r.count("state_heads");
    p.state.head_dim = r.count("state_head_dim");
    p.state.state_dim = r.count("state_dim");
    p.state.groups = r.count("state_groups");
    p.state.conv_kernel = r.count("state_conv_kernel");
    p.state.conv_bias = r.flag("state_conv_bias");

    try {
        m.validate();
    } catch (const invalid_input& e) {
        // The descriptor's own message follows, so that its field name stays searchable.
        const std::string rule = e.rule() + " (model check: " + e.what() + ")";
        const std::string_view column = column_for(table, e.field());
        if (column.empty())
            throw load_error(table.origin(), e.field(), rule, r.line(), 0, invalid_input::show(e.value()));
        r.fail(column, rule);
    }
    return m;
}

/// Reads the rows of an already parsed table, in the table's order.
[[nodiscard]] inline std::vector<model> read_table(const csv_table& table) {
    return read_named_rows<row_reader>(table, columns, read_row);
}

}  // namespace detail::models_csv

/// Parses the text of a model table; `origin` names the input in messages (usually its path).
[[nodiscard]] inline std::vector<model> parse_models_csv(std::string_view text, std::string_view origin) {
    return detail::models_csv::read_table(parse_csv(text, origin));
}

/// Reads and parses a model table file.
[[nodiscard]] inline std::vector<model> load_models_csv(const std::filesystem::path& file) {
    return detail::models_csv::read_table(load_csv(file));
}

}  // namespace llmcost::io
