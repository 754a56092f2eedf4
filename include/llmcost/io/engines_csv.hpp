#pragma once
/// \file
/// Reads an engine table in the format of `tables/engines.csv` into validated `engine_profile`s.
/// Columns are found by name (the `source` column is not read), and the ones the loader knows must stand in the
/// table's order (a header with two columns swapped is refused, `column_order_rule_id`). Each row becomes an `engine_row`
/// — the struct the constexpr catalog is written in — and goes through the same `from_row`, so a
/// row and the catalog entry it transcribes compare equal field for field. Every failure is a
/// `load_error` naming the file, the line, the column and the rule (a rule of
/// `engine_profile::validate()` is reported against the column its field came from).
///
/// **Example**
/// \code
/// const auto engines = llmcost::io::load_engines_csv("tables/engines.csv");
/// \endcode

#include <llmcost/descriptors/engine.hpp>
#include <llmcost/descriptors/engine_row.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/hardware_csv.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::io {

namespace detail::engines_csv {

/// `engine_row`'s figure fields, as pointers to its members.
using figure_field = double engine_row::*;
/// One column of the table: its name, the descriptor field a rule names when it fails (empty: the column's own name),
/// and the `engine_row` figure it fills (none for the 6 texts: name, engine, architecture, version, kv_pool_rule,
/// router_whole_bf16).
struct column_field {
    std::string_view column;
    std::string_view field;
    figure_field figure = nullptr;
};
/// A figure column: its name is its `engine_row` member's, both written from the one token `member`, so a column
/// cannot be paired with another column's field (the loader reads each figure by its column's name).
#define LLMCOST_DETAIL_ENGINE_FIGURE(member, descriptor_field) \
    column_field { #member, descriptor_field, &engine_row::member }
/// The columns the loader reads, in the order of `tables/engines.csv` (the loader refuses a table whose header has
/// them in another order, `column_order_rule_id`), each with the descriptor field a rule names when it fails and the
/// figure it fills.
inline constexpr std::array<column_field, 114> table_columns{{
    column_field{"name", ""},
    column_field{"engine", "engine"},
    column_field{"architecture", "architecture"},
    column_field{"version", ""},
    LLMCOST_DETAIL_ENGINE_FIGURE(gemm, "kernels.gemm"),
    LLMCOST_DETAIL_ENGINE_FIGURE(grouped_gemm, "kernels.grouped_gemm"),
    LLMCOST_DETAIL_ENGINE_FIGURE(expert_tile_rows, "kernels.expert_tile_rows"),
    LLMCOST_DETAIL_ENGINE_FIGURE(attention_prefill, "kernels.attention_prefill"),
    LLMCOST_DETAIL_ENGINE_FIGURE(attention_decode, "kernels.attention_decode"),
    LLMCOST_DETAIL_ENGINE_FIGURE(attention_fp8, "kernels.attention_fp8"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mla_decode, "kernels.mla_decode"),
    LLMCOST_DETAIL_ENGINE_FIGURE(elementwise, "kernels.elementwise"),
    LLMCOST_DETAIL_ENGINE_FIGURE(weights, "kernels.weights"),
    LLMCOST_DETAIL_ENGINE_FIGURE(step_overhead_us, "overheads.step"),
    LLMCOST_DETAIL_ENGINE_FIGURE(launch_eager_us, "overheads.launch_eager"),
    LLMCOST_DETAIL_ENGINE_FIGURE(launch_graph_us, "overheads.launch_graph"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cuda_graphs, "cuda_graphs"),
    LLMCOST_DETAIL_ENGINE_FIGURE(all_reduce_latency_us, "collectives.all_reduce_latency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_max_KiB, "collectives.custom_all_reduce_max"),
    LLMCOST_DETAIL_ENGINE_FIGURE(all_to_all_latency_us, "collectives.all_to_all_latency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(library_all_reduce_us, "collectives.library_all_reduce"),
    LLMCOST_DETAIL_ENGINE_FIGURE(library_all_reduce_bus_GBps, "collectives.library_all_reduce_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(max_sequences, "scheduler.max_sequences"),
    LLMCOST_DETAIL_ENGINE_FIGURE(max_batched_tokens, "scheduler.max_batched_tokens"),
    LLMCOST_DETAIL_ENGINE_FIGURE(chunked_prefill, "chunked_prefill"),
    LLMCOST_DETAIL_ENGINE_FIGURE(chunk_tokens, "scheduler.chunk"),
    LLMCOST_DETAIL_ENGINE_FIGURE(kv_memory_fraction, "scheduler.kv_memory_fraction"),
    LLMCOST_DETAIL_ENGINE_FIGURE(kv_block_tokens, "scheduler.kv_block_tokens"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prefill_alone, "prefill_alone"),
    LLMCOST_DETAIL_ENGINE_FIGURE(expert_parallel, "expert_parallel"),
    LLMCOST_DETAIL_ENGINE_FIGURE(attention_dp, "attention_dp"),
    LLMCOST_DETAIL_ENGINE_FIGURE(load_balancing, "load_balancing"),
    LLMCOST_DETAIL_ENGINE_FIGURE(routing_skew, "moe.routing_skew"),
    LLMCOST_DETAIL_ENGINE_FIGURE(busiest_rank, "busiest_rank"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mtp_draft_tokens, "moe.mtp_draft_tokens"),
    LLMCOST_DETAIL_ENGINE_FIGURE(request_overhead_us, "overheads.request"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp4_gemm_efficiency, "kernels.fp4_gemm_efficiency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp4_gemm_half_dim, "kernels.fp4_gemm_half_dim"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp4_quant_gemm_efficiency, "kernels.fp4_quant_gemm_efficiency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp4_quant_gemm_half_dim, "kernels.fp4_quant_gemm_half_dim"),
    LLMCOST_DETAIL_ENGINE_FIGURE(attention_dp_balance, "moe.attention_dp_balance"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mixed_input_expert_gemm, "kernels.mixed_input_expert_gemm"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mixed_input_hidden_align, "kernels.mixed_input_hidden_align"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mixed_input_width_align, "kernels.mixed_input_width_align"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prefill_launch_us, "overheads.prefill_launch"),
    LLMCOST_DETAIL_ENGINE_FIGURE(host_enqueue_us, "overheads.host_enqueue"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_max_2_ranks_KiB, "collectives.custom_all_reduce_max_2_ranks"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp8_gemm_efficiency, "kernels.fp8_gemm_efficiency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp8_gemm_half_dim, "kernels.fp8_gemm_half_dim"),
    LLMCOST_DETAIL_ENGINE_FIGURE(moe_runner_kernels, "kernels.moe_runner_kernels"),
    LLMCOST_DETAIL_ENGINE_FIGURE(all_reduce_norm_fusion, "all_reduce_norm_fusion"),
    LLMCOST_DETAIL_ENGINE_FIGURE(expert_fp8_activations, "expert_fp8_activations"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_bus_GBps, "collectives.custom_all_reduce_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cold_start_ms, "overheads.cold_start"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cold_prompt_token_us, "overheads.cold_prompt_token"),
    LLMCOST_DETAIL_ENGINE_FIGURE(bf16_gemm_efficiency, "kernels.bf16_gemm_efficiency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(bf16_gemm_half_dim, "kernels.bf16_gemm_half_dim"),
    LLMCOST_DETAIL_ENGINE_FIGURE(separate_prompt_attention, "separate_prompt_attention"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mla_attention_kernels, "kernels.mla_attention_kernels"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prompt_attention_efficiency, "kernels.prompt_attention_efficiency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prompt_attention_half_keys, "kernels.prompt_attention_half_keys"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prompt_attention_half_rows, "kernels.prompt_attention_half_rows"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp8_expert_gemm, "kernels.fp8_expert_gemm"),
    column_field{"kv_pool_rule", "kv_pool_rule"},
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_dense_tp1, "scheduler.non_kv.dense[0]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_dense_tp2, "scheduler.non_kv.dense[1]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_dense_tp4, "scheduler.non_kv.dense[2]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_dense_tp8, "scheduler.non_kv.dense[3]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_moe_tp1, "scheduler.non_kv.moe[0]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_moe_tp2, "scheduler.non_kv.moe[1]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_moe_tp4, "scheduler.non_kv.moe[2]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_moe_tp8, "scheduler.non_kv.moe[3]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_min_MiB, "scheduler.non_kv.min_activations"),
    LLMCOST_DETAIL_ENGINE_FIGURE(activation_overhead, "scheduler.non_kv.activation_overhead"),
    LLMCOST_DETAIL_ENGINE_FIGURE(nccl_tp1_B, "scheduler.non_kv.communication[0]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(nccl_tp2_B, "scheduler.non_kv.communication[1]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(nccl_tp4_B, "scheduler.non_kv.communication[2]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(nccl_tp8_B, "scheduler.non_kv.communication[3]"),
    LLMCOST_DETAIL_ENGINE_FIGURE(runtime_B, "scheduler.non_kv.runtime"),
    LLMCOST_DETAIL_ENGINE_FIGURE(runtime_overhead, "scheduler.non_kv.runtime_overhead"),
    LLMCOST_DETAIL_ENGINE_FIGURE(moe_gather_up_to_top_k, "moe_gather_up_to_top_k"),
    LLMCOST_DETAIL_ENGINE_FIGURE(gather_latency_us, "collectives.gather_latency"),
    LLMCOST_DETAIL_ENGINE_FIGURE(gather_step_us, "collectives.gather_latency_per_rank"),
    LLMCOST_DETAIL_ENGINE_FIGURE(gather_bus_GBps, "collectives.gather_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(shared_expert_kernels, "kernels.shared_expert_kernels"),
    LLMCOST_DETAIL_ENGINE_FIGURE(shared_expert_stream, "shared_expert_stream"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp8_attention_quant_kernels, "kernels.fp8_attention_quant_kernels"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cross_host_all_reduce_us, "collectives.cross_host_all_reduce"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cross_host_all_reduce_bus_GBps, "collectives.cross_host_all_reduce_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cross_host_norm_kernels, "kernels.cross_host_norm_kernels"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cross_host_all_reduce_max_KiB, "collectives.cross_host_all_reduce_max"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp8_gemm_tile_rows, "kernels.fp8_gemm_tile_rows"),
    LLMCOST_DETAIL_ENGINE_FIGURE(fp4_expert_gemm, "kernels.fp4_expert_gemm"),
    LLMCOST_DETAIL_ENGINE_FIGURE(quick_reduce_us, "collectives.quick_reduce_all_reduce"),
    LLMCOST_DETAIL_ENGINE_FIGURE(quick_reduce_bus_GBps, "collectives.quick_reduce_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(quick_reduce_min_KiB, "collectives.quick_reduce_min"),
    LLMCOST_DETAIL_ENGINE_FIGURE(quick_reduce_max_KiB, "collectives.quick_reduce_max"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_large_us, "collectives.custom_all_reduce_large"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_large_bus_GBps, "collectives.custom_all_reduce_large_bus"),
    LLMCOST_DETAIL_ENGINE_FIGURE(custom_all_reduce_large_min_KiB, "collectives.custom_all_reduce_large_min"),
    LLMCOST_DETAIL_ENGINE_FIGURE(shared_expert_ep_replicated, "shared_expert_ep_replicated"),
    LLMCOST_DETAIL_ENGINE_FIGURE(first_use_build_s, "overheads.first_use_build"),
    LLMCOST_DETAIL_ENGINE_FIGURE(prefill_request_us, "overheads.prefill_request"),
    LLMCOST_DETAIL_ENGINE_FIGURE(v0_pass_us, "overheads.v0_pass"),
    LLMCOST_DETAIL_ENGINE_FIGURE(v0_pass_rank_us, "overheads.v0_pass_rank"),
    LLMCOST_DETAIL_ENGINE_FIGURE(v0_pass_sequence_us, "overheads.v0_pass_sequence"),
    LLMCOST_DETAIL_ENGINE_FIGURE(v0_output_token_us, "overheads.v0_output_token"),
    LLMCOST_DETAIL_ENGINE_FIGURE(padded_moe_block_ns, "moe.padded_moe_block"),
    LLMCOST_DETAIL_ENGINE_FIGURE(overlap_schedule_steps, "scheduler.overlap_schedule_steps"),
    LLMCOST_DETAIL_ENGINE_FIGURE(init_resident_MiB, "scheduler.init_resident"),
    LLMCOST_DETAIL_ENGINE_FIGURE(long_context_fraction_scale, "scheduler.long_context_fraction_scale"),
    LLMCOST_DETAIL_ENGINE_FIGURE(cold_opening_moe_only, "overheads.cold_opening_moe_only"),
    LLMCOST_DETAIL_ENGINE_FIGURE(mla_absorbed_prefix_below_tokens, "kernels.mla_absorbed_prefix_below"),
    column_field{"router_whole_bf16", "router_whole_bf16"},
}};
#undef LLMCOST_DETAIL_ENGINE_FIGURE
inline constexpr auto columns = [] {
    std::array<std::string_view, table_columns.size()> c{};
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = table_columns[i].column;
    return c;
}();
/// The last columns, added after tables were written, may be left out: their figure is then 0
/// (the engine's dense FP4 GEMM curves: 0, 0 is the hardware's, and none with the quantization; attention
/// DP's balance: 0, not measured; the mixed-input expert GEMM's ceiling and padding: 0, none; the
/// per-kernel cost of an eager prompt step, and the host's enqueue per kernel without CUDA graphs: 0, none;
/// the custom all-reduce's largest message at 2 ranks: 0, the one at every count; the engine's dense FP8
/// GEMM curve: 0, 0, the hardware's; the kernels of a fused MoE runner: 0, the generic count; the
/// all-reduce + residual + RMSNorm fusion: 0, none; 8-bit activations for narrow experts: 0, the
/// activations' format; the custom all-reduce's bus bandwidth: 0, the link's; a benchmark run's cold
/// opening and its cost per opening prompt token: 0, 0, none; the engine's dense BF16 GEMM curve: 0, 0,
/// the hardware's; the prompts' and the decodes' attention as two kernels: 0, one kernel; the kernels
/// of an absorbed MLA attention block: 0, the generic four; the prompts' attention curve: 0, 0, 0, the
/// one rate; FP8 experts' GEMM rate over the expert size curve: 0, none; the KV pool rule, a name
/// and not a figure: empty, share_of_total; the engine's non-KV memory, 16 figures: 0, not given, the
/// library's flat activations; the MoE's all-gather + reduce-scatter at most top-k ranks and the
/// library all-gather's fit, 4 figures: 0, the all-to-all and the link model; the kernels of a shared
/// expert outside the routed runner and its auxiliary stream under CUDA graphs: 0, 0, none priced; the
/// kernels an FP8 block-scaled checkpoint adds to a latent attention layer: 0, none; the all-reduce where
/// a TP group spans hosts, 2 figures, and the kernels it adds a layer: 0, 0, 0, none; its largest message: 0, no bound;
/// the rows a dense FP8 GEMM kernel's M extent covers: 0, the hardware's padding; the FP4 × FP4 experts'
/// multiplier: 0, none; the quantized all-reduce a run may turn on, 4 figures: 0, none; the custom kernel's
/// large-message curve, 3 figures: 0, none; a fused shared expert whole on every EP rank of a TEP layout: 0, TP-sharded;
/// a benchmark run's first-use kernel build: 0, none; the host's time per request of a serial prompt step: 0, none;
/// vLLM V0's scheduler pass, 3 figures: 0, none; V0's output processing per sequence-step: 0, none; a padded
/// expert-runner m-block: 0, none; the steps between a closed-loop answer's last step and its client's next prompt: 0,
/// the next step; the memory resident at init before the static fraction: 0, none; the static fraction's
/// long-context factor: 0, none; only a model with routed experts paying the cold opening: 0, every model; the prefix total below which a
/// continuation step runs absorbed MLA: 0, never; the MoE models whose router the engine keeps whole in BF16, a name
/// and not a figure: none).
inline constexpr std::size_t optional_columns = 78;
inline constexpr auto required_columns = [] {
    std::array<std::string_view, columns.size() - optional_columns> c{};
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = columns[i];
    return c;
}();

using row_reader = detail::hardware_csv::row_reader;

/// Whether `read` holds each of `engine_row`'s `n_figures` figure fields exactly once: no field twice, and as many as
/// the row has (a field left out of every list, or read twice, fails).
[[nodiscard]] constexpr bool reads_each_once(std::span<const figure_field> read, std::size_t n_figures) {
    for (std::size_t i = 0; i < read.size(); ++i)
        for (std::size_t j = i + 1; j < read.size(); ++j)
            if (read[i] == read[j]) return false;
    return read.size() == n_figures;
}
/// `engine_row`'s figure fields: all its members but its 6 names (name, engine, architecture, version, kv_pool,
/// router_whole_bf16) are `double`, laid out without padding (a member of another type breaks the size's division and
/// fails here too).
inline constexpr std::size_t row_texts = 6;
static_assert((sizeof(engine_row) - row_texts * sizeof(std::string_view)) % sizeof(double) == 0);
inline constexpr std::size_t row_figures = (sizeof(engine_row) - row_texts * sizeof(std::string_view)) / sizeof(double);
/// The figure fields of `table_columns`, in its order.
inline constexpr auto all_figure_fields = [] {
    std::array<figure_field, table_columns.size() - row_texts> all{};
    std::size_t k = 0;
    for (const column_field& c : table_columns)
        if (c.figure != nullptr && k < all.size()) all[k++] = c.figure;
    return all;
}();
/// How many of `table_columns` fill a figure (the others are the texts).
inline constexpr std::size_t figure_columns =
    static_cast<std::size_t>(std::ranges::count_if(table_columns, [](const column_field& c) { return c.figure != nullptr; }));
static_assert(figure_columns == all_figure_fields.size(), "the table's columns are the 6 texts and one column a figure");
/// The figures `table_columns` lists before kv_pool_rule, the one text among the figures.
inline constexpr std::size_t figures_before_kv_pool = [] {
    std::size_t n = 0;
    for (const column_field& c : table_columns) {
        if (c.column == "kv_pool_rule") return n;
        if (c.figure != nullptr) ++n;
    }
    return n;
}();
/// An `engine_row` whose figures hold their places among its figures, 0, 1, 2, … in declaration order (the texts
/// empty; router_whole_bf16, the last member, after the figures), built by position: `engine_row`'s members stand in
/// the table's column order (the catalog's rows are written so), so `table_columns`' k-th figure must point at the
/// member holding k.
inline constexpr engine_row figure_places = []<std::size_t... A, std::size_t... B>(std::index_sequence<A...>,
                                                                                     std::index_sequence<B...>) {
    return engine_row{{}, {}, {}, {}, static_cast<double>(A)..., std::string_view{},
                      static_cast<double>(sizeof...(A) + B)..., std::string_view{}};
}(std::make_index_sequence<figures_before_kv_pool>{}, std::make_index_sequence<row_figures - figures_before_kv_pool>{});
/// Whether each figure of `table_columns` stands at its member's place in `engine_row`: two entries swapped, or an
/// entry written by hand with another column's member, fail to compile.
[[nodiscard]] constexpr bool figures_in_row_order(std::span<const column_field> list) {
    std::size_t k = 0;
    for (const column_field& c : list)
        if (c.figure != nullptr && figure_places.*c.figure != static_cast<double>(k++)) return false;
    return true;
}
static_assert(figures_in_row_order(table_columns), "table_columns' figures stand in engine_row's order, one column a member");
/// Whether no two entries of `list` name one column.
[[nodiscard]] constexpr bool names_each_once(std::span<const column_field> list) {
    for (std::size_t i = 0; i < list.size(); ++i)
        for (std::size_t j = i + 1; j < list.size(); ++j)
            if (list[i].column == list[j].column) return false;
    return true;
}
static_assert(names_each_once(table_columns), "a column of table_columns is named twice");
// Every figure of a row read exactly once, and every column read: the texts, then one column a figure field.
static_assert(reads_each_once(all_figure_fields, row_figures), "an engine_row figure field is read twice or never");
static_assert(row_texts + all_figure_fields.size() == columns.size());

/// The column a descriptor field came from ("kernels.gemm" → "gemm"); empty if none.
[[nodiscard]] inline std::string_view column_for(std::string_view field) {
    const std::string_view bare = field.substr(0, field.find(" ("));
    for (const column_field& c : table_columns)
        if (!c.field.empty() && c.field == bare) return c.column;
    return {};
}

[[nodiscard]] inline engine_profile read_row(const csv_table& table, std::size_t row) {
    const row_reader r(table, row);
    engine_row e{};
    e.name = r.name("name");
    e.engine = r.name("engine");
    e.architecture = r.name("architecture");
    e.version = r.label("version");
    // Each figure by its column's name (`table_columns`): 0 where the column is an optional one the table lacks (a
    // table written before it).
    for (std::size_t i = 0; i < table_columns.size(); ++i) {
        const column_field& c = table_columns[i];
        if (c.figure == nullptr) continue;
        const bool may_be_absent = i >= required_columns.size();
        e.*c.figure = may_be_absent && !table.find_column(c.column) ? 0.0 : r.figure(c.column);
    }
    e.kv_pool = table.find_column("kv_pool_rule") ? r.label("kv_pool_rule") : std::string_view{};
    // A table written before router_whole_bf16: none, the library's shard (an empty cell is refused by `from_row`).
    e.router_whole_bf16 = table.find_column("router_whole_bf16") ? r.label("router_whole_bf16") : std::string_view{"none"};
    try {
        return from_row(e);
    } catch (const invalid_input& x) {
        const std::string_view column = column_for(x.field());
        const std::string rule = x.rule() + " (engine check: " + x.what() + ")";
        if (column.empty()) throw load_error(table.origin(), x.field(), rule, r.line(), 0, invalid_input::show(x.value()));
        r.fail(column, rule);
    }
}

/// The rule id of the header's order: the columns the loader knows stand in `columns`' order (that of
/// tables/engines.csv; `parse_csv` refuses a name twice); an optional column may be left out, a column the loader does not know (source)
/// may stand anywhere.
inline constexpr std::string_view column_order_rule_id = "llmcost.engines_csv.column_order";

/// Refuses a header whose known columns stand out of `columns`' order, naming the file, the header's line, the
/// column that stands too late and the one it should precede: two swapped column names would otherwise hand each
/// column's figures to the other's field (a table's cells are written in its header's order).
inline void require_column_order(const csv_table& table) {
    const std::vector<std::string>& header = table.header();
    std::optional<std::size_t> last;  // the header index of the last known column
    std::size_t last_rank = 0;        // its index in `columns`
    for (std::size_t i = 0; i < header.size(); ++i) {
        const auto at = std::ranges::find(columns, std::string_view(header[i]));
        if (at == columns.end()) continue;
        const auto rank = static_cast<std::size_t>(at - columns.begin());
        if (last && rank < last_rank)
            throw load_error(table.origin(), header[i],
                             "column " + std::to_string(i + 1) + " \"" + header[i] + "\" stands after column " +
                                 std::to_string(*last + 1) + " \"" + header[*last] +
                                 "\", which the engine table's column order puts after it (two columns swapped or "
                                 "moved): the columns stand in the order of tables/engines.csv, the loader's "
                                 "io::detail::engines_csv::table_columns [" +
                                 std::string(column_order_rule_id) + "]",
                             table.header_line(), static_cast<int>(i) + 1);
        last = i;
        last_rank = rank;
    }
}

[[nodiscard]] inline std::vector<engine_profile> read_table(const csv_table& table) {
    require_column_order(table);
    return read_named_rows<row_reader>(table, required_columns, read_row);
}

}  // namespace detail::engines_csv

/// Parses the text of an engine table; `origin` names the input in messages (usually its path).
[[nodiscard]] inline std::vector<engine_profile> parse_engines_csv(std::string_view text, std::string_view origin) {
    return detail::engines_csv::read_table(parse_csv(text, origin));
}

/// Reads and parses an engine table file.
[[nodiscard]] inline std::vector<engine_profile> load_engines_csv(const std::filesystem::path& file) {
    return detail::engines_csv::read_table(load_csv(file));
}

}  // namespace llmcost::io
