#pragma once
/// \file
/// Reads an engine table in the format of `tables/engines.csv` into validated `engine_profile`s.
/// Columns are found by name (the `source` column is not read). Each row becomes an `engine_row`
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
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::io {

namespace detail::engines_csv {

/// The columns the loader reads, in the order of `tables/engines.csv`, each with the descriptor
/// field a rule names when it fails (empty: the column's own name).
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 112> columns_and_fields{{
    {"name", ""}, {"engine", "engine"}, {"architecture", "architecture"}, {"version", ""},
    {"gemm", "kernels.gemm"}, {"grouped_gemm", "kernels.grouped_gemm"},
    {"expert_tile_rows", "kernels.expert_tile_rows"}, {"attention_prefill", "kernels.attention_prefill"},
    {"attention_decode", "kernels.attention_decode"}, {"attention_fp8", "kernels.attention_fp8"},
    {"mla_decode", "kernels.mla_decode"}, {"elementwise", "kernels.elementwise"}, {"weights", "kernels.weights"},
    {"step_overhead_us", "overheads.step"}, {"launch_eager_us", "overheads.launch_eager"},
    {"launch_graph_us", "overheads.launch_graph"}, {"cuda_graphs", "cuda_graphs"},
    {"all_reduce_latency_us", "collectives.all_reduce_latency"},
    {"custom_all_reduce_max_KiB", "collectives.custom_all_reduce_max"},
    {"all_to_all_latency_us", "collectives.all_to_all_latency"},
    {"library_all_reduce_us", "collectives.library_all_reduce"},
    {"library_all_reduce_bus_GBps", "collectives.library_all_reduce_bus"}, {"max_sequences", "scheduler.max_sequences"},
    {"max_batched_tokens", "scheduler.max_batched_tokens"}, {"chunked_prefill", "chunked_prefill"},
    {"chunk_tokens", "scheduler.chunk"}, {"kv_memory_fraction", "scheduler.kv_memory_fraction"},
    {"kv_block_tokens", "scheduler.kv_block_tokens"}, {"prefill_alone", "prefill_alone"}, {"expert_parallel", "expert_parallel"},
    {"attention_dp", "attention_dp"}, {"load_balancing", "load_balancing"}, {"routing_skew", "moe.routing_skew"},
    {"busiest_rank", "busiest_rank"}, {"mtp_draft_tokens", "moe.mtp_draft_tokens"},
    {"request_overhead_us", "overheads.request"},
    {"fp4_gemm_efficiency", "kernels.fp4_gemm_efficiency"}, {"fp4_gemm_half_dim", "kernels.fp4_gemm_half_dim"},
    {"fp4_quant_gemm_efficiency", "kernels.fp4_quant_gemm_efficiency"},
    {"fp4_quant_gemm_half_dim", "kernels.fp4_quant_gemm_half_dim"},
    {"attention_dp_balance", "moe.attention_dp_balance"},
    {"mixed_input_expert_gemm", "kernels.mixed_input_expert_gemm"},
    {"mixed_input_hidden_align", "kernels.mixed_input_hidden_align"},
    {"mixed_input_width_align", "kernels.mixed_input_width_align"},
    {"prefill_launch_us", "overheads.prefill_launch"},
    {"host_enqueue_us", "overheads.host_enqueue"},
    {"custom_all_reduce_max_2_ranks_KiB", "collectives.custom_all_reduce_max_2_ranks"},
    {"fp8_gemm_efficiency", "kernels.fp8_gemm_efficiency"}, {"fp8_gemm_half_dim", "kernels.fp8_gemm_half_dim"},
    {"moe_runner_kernels", "kernels.moe_runner_kernels"}, {"all_reduce_norm_fusion", "all_reduce_norm_fusion"},
    {"expert_fp8_activations", "expert_fp8_activations"},
    {"custom_all_reduce_bus_GBps", "collectives.custom_all_reduce_bus"},
    {"cold_start_ms", "overheads.cold_start"}, {"cold_prompt_token_us", "overheads.cold_prompt_token"},
    {"bf16_gemm_efficiency", "kernels.bf16_gemm_efficiency"}, {"bf16_gemm_half_dim", "kernels.bf16_gemm_half_dim"},
    {"separate_prompt_attention", "separate_prompt_attention"},
    {"mla_attention_kernels", "kernels.mla_attention_kernels"},
    {"prompt_attention_efficiency", "kernels.prompt_attention_efficiency"},
    {"prompt_attention_half_keys", "kernels.prompt_attention_half_keys"},
    {"prompt_attention_half_rows", "kernels.prompt_attention_half_rows"},
    {"fp8_expert_gemm", "kernels.fp8_expert_gemm"},
    {"kv_pool_rule", "kv_pool_rule"},
    {"activation_dense_tp1", "scheduler.non_kv.dense[0]"},
    {"activation_dense_tp2", "scheduler.non_kv.dense[1]"},
    {"activation_dense_tp4", "scheduler.non_kv.dense[2]"},
    {"activation_dense_tp8", "scheduler.non_kv.dense[3]"},
    {"activation_moe_tp1", "scheduler.non_kv.moe[0]"},
    {"activation_moe_tp2", "scheduler.non_kv.moe[1]"},
    {"activation_moe_tp4", "scheduler.non_kv.moe[2]"},
    {"activation_moe_tp8", "scheduler.non_kv.moe[3]"},
    {"activation_min_MiB", "scheduler.non_kv.min_activations"},
    {"activation_overhead", "scheduler.non_kv.activation_overhead"},
    {"nccl_tp1_B", "scheduler.non_kv.communication[0]"},
    {"nccl_tp2_B", "scheduler.non_kv.communication[1]"},
    {"nccl_tp4_B", "scheduler.non_kv.communication[2]"},
    {"nccl_tp8_B", "scheduler.non_kv.communication[3]"},
    {"runtime_B", "scheduler.non_kv.runtime"},
    {"runtime_overhead", "scheduler.non_kv.runtime_overhead"},
    {"moe_gather_up_to_top_k", "moe_gather_up_to_top_k"},
    {"gather_latency_us", "collectives.gather_latency"},
    {"gather_step_us", "collectives.gather_latency_per_rank"},
    {"gather_bus_GBps", "collectives.gather_bus"},
    {"shared_expert_kernels", "kernels.shared_expert_kernels"},
    {"shared_expert_stream", "shared_expert_stream"},
    {"fp8_attention_quant_kernels", "kernels.fp8_attention_quant_kernels"},
    {"cross_host_all_reduce_us", "collectives.cross_host_all_reduce"},
    {"cross_host_all_reduce_bus_GBps", "collectives.cross_host_all_reduce_bus"},
    {"cross_host_norm_kernels", "kernels.cross_host_norm_kernels"},
    {"cross_host_all_reduce_max_KiB", "collectives.cross_host_all_reduce_max"},
    {"fp8_gemm_tile_rows", "kernels.fp8_gemm_tile_rows"},
    {"fp4_expert_gemm", "kernels.fp4_expert_gemm"},
    {"quick_reduce_us", "collectives.quick_reduce_all_reduce"},
    {"quick_reduce_bus_GBps", "collectives.quick_reduce_bus"},
    {"quick_reduce_min_KiB", "collectives.quick_reduce_min"},
    {"quick_reduce_max_KiB", "collectives.quick_reduce_max"},
    {"custom_all_reduce_large_us", "collectives.custom_all_reduce_large"},
    {"custom_all_reduce_large_bus_GBps", "collectives.custom_all_reduce_large_bus"},
    {"custom_all_reduce_large_min_KiB", "collectives.custom_all_reduce_large_min"},
    {"shared_expert_ep_replicated", "shared_expert_ep_replicated"},
    {"first_use_build_s", "overheads.first_use_build"},
    {"prefill_request_us", "overheads.prefill_request"},
    {"v0_pass_us", "overheads.v0_pass"},
    {"v0_pass_rank_us", "overheads.v0_pass_rank"},
    {"v0_pass_sequence_us", "overheads.v0_pass_sequence"},
    {"v0_output_token_us", "overheads.v0_output_token"},
    {"padded_moe_block_ns", "moe.padded_moe_block"},
    {"overlap_schedule_steps", "scheduler.overlap_schedule_steps"},
    {"init_resident_MiB", "scheduler.init_resident"},
    {"long_context_fraction_scale", "scheduler.long_context_fraction_scale"},
    {"mla_absorbed_prefix_below_tokens", "kernels.mla_absorbed_prefix_below"},
}};
inline constexpr auto columns = [] {
    std::array<std::string_view, columns_and_fields.size()> c{};
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = columns_and_fields[i].first;
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
/// long-context factor: 0, none; the prefix total below which a continuation step runs absorbed MLA: 0, never).
inline constexpr std::size_t optional_columns = 76;
inline constexpr auto required_columns = [] {
    std::array<std::string_view, columns.size() - optional_columns> c{};
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = columns[i];
    return c;
}();

using row_reader = detail::hardware_csv::row_reader;

/// The figure columns' fields, by where the loader finds them: `figures`, the columns after name … version in the
/// table's order; `in_order`, the optional ones after kv_pool_rule, in order; `by_name`, those found by their names
/// (`by_name_columns`) wherever they sit.
using figure_field = double engine_row::*;
inline constexpr figure_field figures[] = {
    &engine_row::gemm, &engine_row::grouped_gemm, &engine_row::expert_tile_rows, &engine_row::attention_prefill,
    &engine_row::attention_decode, &engine_row::attention_fp8, &engine_row::mla_decode, &engine_row::elementwise,
    &engine_row::weights, &engine_row::step_overhead_us, &engine_row::launch_eager_us, &engine_row::launch_graph_us,
    &engine_row::cuda_graphs, &engine_row::all_reduce_latency_us, &engine_row::custom_all_reduce_max_KiB,
    &engine_row::all_to_all_latency_us, &engine_row::library_all_reduce_us, &engine_row::library_all_reduce_bus_GBps,
    &engine_row::max_sequences, &engine_row::max_batched_tokens, &engine_row::chunked_prefill,
    &engine_row::chunk_tokens, &engine_row::kv_memory_fraction, &engine_row::kv_block_tokens,
    &engine_row::prefill_alone, &engine_row::expert_parallel, &engine_row::attention_dp, &engine_row::load_balancing,
    &engine_row::routing_skew, &engine_row::busiest_rank, &engine_row::mtp_draft_tokens,
    &engine_row::request_overhead_us, &engine_row::fp4_gemm_efficiency, &engine_row::fp4_gemm_half_dim,
    &engine_row::fp4_quant_gemm_efficiency, &engine_row::fp4_quant_gemm_half_dim, &engine_row::attention_dp_balance,
    &engine_row::mixed_input_expert_gemm, &engine_row::mixed_input_hidden_align,
    &engine_row::mixed_input_width_align, &engine_row::prefill_launch_us, &engine_row::host_enqueue_us,
    &engine_row::custom_all_reduce_max_2_ranks_KiB, &engine_row::fp8_gemm_efficiency, &engine_row::fp8_gemm_half_dim,
    &engine_row::moe_runner_kernels, &engine_row::all_reduce_norm_fusion, &engine_row::expert_fp8_activations,
    &engine_row::custom_all_reduce_bus_GBps, &engine_row::cold_start_ms, &engine_row::cold_prompt_token_us,
    &engine_row::bf16_gemm_efficiency, &engine_row::bf16_gemm_half_dim, &engine_row::separate_prompt_attention,
    &engine_row::mla_attention_kernels, &engine_row::prompt_attention_efficiency,
    &engine_row::prompt_attention_half_keys, &engine_row::prompt_attention_half_rows, &engine_row::fp8_expert_gemm};
inline constexpr figure_field in_order[] = {
    &engine_row::activation_dense_tp1, &engine_row::activation_dense_tp2, &engine_row::activation_dense_tp4,
    &engine_row::activation_dense_tp8, &engine_row::activation_moe_tp1, &engine_row::activation_moe_tp2,
    &engine_row::activation_moe_tp4, &engine_row::activation_moe_tp8, &engine_row::activation_min_MiB,
    &engine_row::activation_overhead, &engine_row::nccl_tp1_B, &engine_row::nccl_tp2_B, &engine_row::nccl_tp4_B,
    &engine_row::nccl_tp8_B, &engine_row::runtime_B, &engine_row::runtime_overhead,
    &engine_row::moe_gather_up_to_top_k, &engine_row::gather_latency_us, &engine_row::gather_step_us,
    &engine_row::gather_bus_GBps, &engine_row::shared_expert_kernels, &engine_row::shared_expert_stream,
    &engine_row::fp8_attention_quant_kernels, &engine_row::cross_host_all_reduce_us,
    &engine_row::cross_host_all_reduce_bus_GBps, &engine_row::cross_host_norm_kernels,
    &engine_row::cross_host_all_reduce_max_KiB, &engine_row::fp8_gemm_tile_rows, &engine_row::fp4_expert_gemm,
    &engine_row::quick_reduce_us, &engine_row::quick_reduce_bus_GBps, &engine_row::quick_reduce_min_KiB,
    &engine_row::quick_reduce_max_KiB, &engine_row::custom_all_reduce_large_us,
    &engine_row::custom_all_reduce_large_bus_GBps, &engine_row::custom_all_reduce_large_min_KiB};
/// The columns found by their names, wherever they sit (each a column of the table, checked below).
inline constexpr std::array by_name_columns{std::string_view("shared_expert_ep_replicated"), std::string_view("first_use_build_s"),
                                            std::string_view("prefill_request_us"), std::string_view("v0_pass_us"),
                                            std::string_view("v0_pass_rank_us"), std::string_view("v0_pass_sequence_us"),
                                            std::string_view("v0_output_token_us"), std::string_view("padded_moe_block_ns"),
                                            std::string_view("overlap_schedule_steps"), std::string_view("init_resident_MiB"),
                                            std::string_view("long_context_fraction_scale"),
                                            std::string_view("mla_absorbed_prefix_below_tokens")};
inline constexpr figure_field by_name[] = {
    &engine_row::shared_expert_ep_replicated, &engine_row::first_use_build_s, &engine_row::prefill_request_us,
    &engine_row::v0_pass_us, &engine_row::v0_pass_rank_us, &engine_row::v0_pass_sequence_us,
    &engine_row::v0_output_token_us, &engine_row::padded_moe_block_ns, &engine_row::overlap_schedule_steps,
    &engine_row::init_resident_MiB, &engine_row::long_context_fraction_scale,
    &engine_row::mla_absorbed_prefix_below_tokens};
static_assert(std::size(by_name) == by_name_columns.size());
static_assert(std::ranges::all_of(by_name_columns, [](std::string_view n) { return std::ranges::find(columns, n) != columns.end(); }));

/// Whether `read` holds each of `engine_row`'s `n_figures` figure fields exactly once: no field twice, and as many as
/// the row has (a field left out of every list, or read twice, fails).
[[nodiscard]] constexpr bool reads_each_once(std::span<const figure_field> read, std::size_t n_figures) {
    for (std::size_t i = 0; i < read.size(); ++i)
        for (std::size_t j = i + 1; j < read.size(); ++j)
            if (read[i] == read[j]) return false;
    return read.size() == n_figures;
}
/// `engine_row`'s figure fields: all its members but its 5 names (name, engine, architecture, version, kv_pool) are
/// `double`, laid out without padding (a member of another type breaks the size's division and fails here too).
inline constexpr std::size_t row_texts = 5;
static_assert((sizeof(engine_row) - row_texts * sizeof(std::string_view)) % sizeof(double) == 0);
inline constexpr std::size_t row_figures = (sizeof(engine_row) - row_texts * sizeof(std::string_view)) / sizeof(double);
inline constexpr auto all_figure_fields = [] {
    std::array<figure_field, std::size(figures) + std::size(in_order) + std::size(by_name)> all{};
    std::size_t k = 0;
    for (const figure_field f : figures) all[k++] = f;
    for (const figure_field f : in_order) all[k++] = f;
    for (const figure_field f : by_name) all[k++] = f;
    return all;
}();
// Every figure of a row read exactly once, and every column read: the texts, then one column a figure field.
static_assert(reads_each_once(all_figure_fields, row_figures), "an engine_row figure field is read twice or never");
static_assert(row_texts + all_figure_fields.size() == columns.size());

/// The column a descriptor field came from ("kernels.gemm" → "gemm"); empty if none.
[[nodiscard]] inline std::string_view column_for(std::string_view field) {
    const std::string_view bare = field.substr(0, field.find(" ("));
    for (const auto& [column, f] : columns_and_fields)
        if (!f.empty() && f == bare) return column;
    return {};
}

[[nodiscard]] inline engine_profile read_row(const csv_table& table, std::size_t row) {
    const row_reader r(table, row);
    engine_row e{};
    e.name = r.name("name");
    e.engine = r.name("engine");
    e.architecture = r.name("architecture");
    e.version = r.label("version");
    for (std::size_t i = 0; i < std::size(figures); ++i) {
        const std::string_view column = columns[i + 4];
        const bool may_be_absent = i + 4 >= required_columns.size();
        e.*figures[i] = may_be_absent && !table.find_column(column) ? 0.0 : r.figure(column);
    }
    // An optional column's figure: 0 where the table has no such column (a table written before it).
    const auto optional_figure = [&](std::string_view column) { return table.find_column(column) ? r.figure(column) : 0.0; };
    e.kv_pool = table.find_column("kv_pool_rule") ? r.label("kv_pool_rule") : std::string_view{};
    // The optional columns that sit together after name … version, the figures and kv_pool_rule, in the table's order:
    // the non-KV memory, the MoE gather, the shared expert, FP8 attention quantisation, the cross-host all-reduce, the
    // FP8 GEMM tile and FP4 experts, the quick all-reduce, the large custom all-reduce.
    const std::size_t first_in_order = std::size(figures) + 5;  // after name … version, the figures, kv_pool_rule
    for (std::size_t i = 0; i < std::size(in_order); ++i) e.*in_order[i] = optional_figure(columns[first_in_order + i]);
    for (std::size_t i = 0; i < std::size(by_name); ++i) e.*by_name[i] = optional_figure(by_name_columns[i]);
    try {
        return from_row(e);
    } catch (const invalid_input& x) {
        const std::string_view column = column_for(x.field());
        const std::string rule = x.rule() + " (engine check: " + x.what() + ")";
        if (column.empty()) throw load_error(table.origin(), x.field(), rule, r.line(), 0, invalid_input::show(x.value()));
        r.fail(column, rule);
    }
}

[[nodiscard]] inline std::vector<engine_profile> read_table(const csv_table& table) {
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
