#pragma once
/// \file
/// Reads a hardware table in the format of `tables/hardware.csv` into validated `hardware`
/// descriptors. Columns are found by name, so a table may reorder them or add its own (the
/// project's `source` and `notes` columns are not read here). Each row becomes a
/// `hardware_row` — the same struct the constexpr catalog is written in — and goes
/// through the same `from_row`, so a row and the catalog entry it transcribes compare
/// equal field for field.
///
/// Every failure is a `load_error` naming the file, the line, the column and the rule: a missing
/// column, an empty or non-numeric cell, a negative figure, a fractional count, or a rule of
/// `hardware::validate()` (reported against the column the offending field came from).
///
/// **Example**
/// \code
/// const auto systems = llmcost::io::load_hardware_csv("tables/hardware.csv");
/// \endcode

#include <llmcost/descriptors/hardware_row.hpp>
#include <llmcost/descriptors/hardware.hpp>
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
#include <utility>
#include <vector>

namespace llmcost::io {

namespace detail::hardware_csv {

/// The columns the loader reads, in the order of `tables/hardware.csv`.
inline constexpr std::array<std::string_view, 33> columns{
    "name",
    "hbm_capacity_GiB",
    "hbm_stacks",
    "hbm_bandwidth_TBps",
    "bf16_dense_TFLOPS",
    "fp8_dense_TFLOPS",
    "fp4_dense_TFLOPS",
    "int8_dense_TOPS",
    "board_power_W",
    "idle_power_W",
    "hbm_efficiency",
    "matmul_efficiency",
    "matmul_half_dim",
    "attention_efficiency",
    "kernel_overhead_us",
    "scaleup_link",
    "scaleup_GBps_bidirectional",
    "scaleup_latency_us",
    "scaleup_domain_gpus",
    "scaleout_nic",
    "scaleout_Gbps_per_gpu",
    "scaleout_latency_us",
    "gpus_per_node",
    "host_memory",
    "host_memory_GB_per_gpu",
    "host_link_GBps_per_direction",
    "storage",
    "storage_TB_per_gpu",
    "storage_read_GBps_per_gpu",
    "transceivers_per_gpu",
    "transceiver_W",
    "capex_usd_per_gpu",
    "status",
};

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

    /// A required, non-empty string, interned so that the descriptor's views outlive the table.
    [[nodiscard]] std::string_view name(std::string_view column) const {
        const std::string& t = text(column);
        if (t.empty()) fail(column, "empty cell: a name is required");
        return intern(t);
    }
    /// A string that may be empty (a link or a memory tier without a product name).
    [[nodiscard]] std::string_view label(std::string_view column) const { return intern(text(column)); }

    /// A required finite figure ≥ 0. Every hardware figure is a size, a rate, a power, a time, a
    /// fraction or a price, so a negative one is a typo; catching it here names the column in the
    /// table's own units, before the descriptor converts it to SI.
    [[nodiscard]] double figure(std::string_view column) const {
        const std::optional<double> v = table_.number(row_, column);  // throws on non-numbers
        if (!v) fail(column, "empty cell: a number is required (write 0 where the table allows it)");
        if (!std::isfinite(*v)) fail(column, "expected a finite number");
        if (*v < 0.0) fail(column, "must not be negative");
        return *v;
    }
    /// A figure that counts whole things (stacks, GPUs, modules). `from_row` truncates to int, so
    /// a fraction would otherwise be dropped without a word.
    [[nodiscard]] double whole(std::string_view column) const {
        const double v = figure(column);
        if (v != std::floor(v)) fail(column, "expected a whole number (it counts things)");
        if (v > std::numeric_limits<int>::max()) fail(column, "too large (must fit in a 32-bit int)");
        return v;
    }

private:
    const csv_table& table_;
    std::size_t row_;
};

/// The column a descriptor field came from, so that a failed rule points at the cell to change.
/// `hardware::validate` names a link's or a memory tier's fields without saying which one, so
/// the parts are validated one at a time and `part` says which ("gpu", "scale_up", ...).
[[nodiscard]] inline std::string_view column_for(std::string_view part, std::string_view field) {
    if (part == "scale_up" || part == "scale_out") {
        const bool up = part == "scale_up";
        if (field.starts_with("per_direction")) return up ? "scaleup_GBps_bidirectional" : "scaleout_Gbps_per_gpu";
        if (field.starts_with("latency")) return up ? "scaleup_latency_us" : "scaleout_latency_us";
    }
    if (part == "host_memory" || part == "storage") {
        const bool host = part == "host_memory";
        if (field.starts_with("capacity")) return host ? "host_memory_GB_per_gpu" : "storage_TB_per_gpu";
        if (field.starts_with("bandwidth")) return host ? "host_link_GBps_per_direction" : "storage_read_GBps_per_gpu";
    }
    // Accelerator and system fields: the descriptor name, up to the unit in parentheses.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 22> by_field{{
        {"hbm_capacity", "hbm_capacity_GiB"},
        {"driver_reserved", "runtime_capacity_MiB"},
        {"hbm_stacks", "hbm_stacks"},
        {"hbm_bandwidth", "hbm_bandwidth_TBps"},
        {"dense.bf16", "bf16_dense_TFLOPS"},
        {"dense.fp8", "fp8_dense_TFLOPS"},
        {"dense.fp4", "fp4_dense_TFLOPS"},
        {"dense.int8", "int8_dense_TOPS"},
        {"board_power", "board_power_W"},
        {"idle_power", "idle_power_W"},
        {"efficiency.hbm", "hbm_efficiency"},
        {"efficiency.matmul", "matmul_efficiency"},
        {"efficiency.matmul_half_dim", "matmul_half_dim"},
        {"efficiency.attention", "attention_efficiency"},
        {"efficiency.kernel_overhead", "kernel_overhead_us"},
        {"efficiency.compute_clock_MHz", "compute_clock_MHz"},
        {"efficiency.fp4_sustained", "fp4_sustained_fraction"},
        {"scale_up_domain", "scaleup_domain_gpus"},
        {"gpus_per_node", "gpus_per_node"},
        {"transceivers_per_gpu", "transceivers_per_gpu"},
        {"transceiver_power", "transceiver_W"},
        {"capex_per_gpu", "capex_usd_per_gpu"},
    }};
    const std::string_view bare = field.substr(0, field.find(" ("));
    for (const auto& [f, c] : by_field)
        if (bare == f) return c;
    return {};  // a rule added to the descriptor later: reported without a column
}

/// Runs one part's validation and turns its `invalid_input` into a `load_error` at that cell.
template <class Check>
void check_part(const row_reader& r, const csv_table& table, std::string_view part, Check&& check) {
    try {
        check();
    } catch (const invalid_input& e) {
        const std::string_view column = column_for(part, e.field());
        const std::string rule = e.rule() + " (hardware check: " + e.what() + ")";
        if (column.empty())
            throw load_error(table.origin(), e.field(), rule, r.line(), 0, invalid_input::show(e.value()));
        r.fail(column, rule);
    }
}

[[nodiscard]] inline hardware read_row(const csv_table& table, std::size_t row) {
    const row_reader r(table, row);
    hardware_row h{};
    h.name = r.name("name");
    h.hbm_capacity_GiB = r.figure("hbm_capacity_GiB");
    h.hbm_stacks = r.whole("hbm_stacks");
    h.hbm_bandwidth_TBps = r.figure("hbm_bandwidth_TBps");
    h.bf16_dense_TFLOPS = r.figure("bf16_dense_TFLOPS");
    h.fp8_dense_TFLOPS = r.figure("fp8_dense_TFLOPS");
    h.fp4_dense_TFLOPS = r.figure("fp4_dense_TFLOPS");
    h.int8_dense_TOPS = r.figure("int8_dense_TOPS");
    h.board_power_W = r.figure("board_power_W");
    h.idle_power_W = r.figure("idle_power_W");
    h.hbm_efficiency = r.figure("hbm_efficiency");
    h.matmul_efficiency = r.figure("matmul_efficiency");
    h.matmul_half_dim = r.figure("matmul_half_dim");
    h.attention_efficiency = r.figure("attention_efficiency");
    h.kernel_overhead_us = r.figure("kernel_overhead_us");
    h.scaleup_link = r.label("scaleup_link");
    h.scaleup_GBps_bidirectional = r.figure("scaleup_GBps_bidirectional");
    h.scaleup_latency_us = r.figure("scaleup_latency_us");
    h.scaleup_domain_gpus = r.whole("scaleup_domain_gpus");
    h.scaleout_nic = r.label("scaleout_nic");
    h.scaleout_Gbps_per_gpu = r.figure("scaleout_Gbps_per_gpu");
    h.scaleout_latency_us = r.figure("scaleout_latency_us");
    h.gpus_per_node = r.whole("gpus_per_node");
    h.host_memory = r.label("host_memory");
    h.host_memory_GB_per_gpu = r.figure("host_memory_GB_per_gpu");
    h.host_link_GBps_per_direction = r.figure("host_link_GBps_per_direction");
    h.storage = r.label("storage");
    h.storage_TB_per_gpu = r.figure("storage_TB_per_gpu");
    h.storage_read_GBps_per_gpu = r.figure("storage_read_GBps_per_gpu");
    h.transceivers_per_gpu = r.whole("transceivers_per_gpu");
    h.transceiver_W = r.figure("transceiver_W");
    h.capex_usd_per_gpu = r.figure("capex_usd_per_gpu");
    h.status = r.label("status");
    // Optional (tables before issue 15's AMD clocks lack it): the clock the compute fractions hold at.
    h.compute_clock_MHz = table.find_column("compute_clock_MHz") ? r.figure("compute_clock_MHz") : 0.0;
    // Optional (tables before session 47 lack it): the fraction of the datasheet FP4 peak the GPU sustains on
    // GEMMs; without the column, or with its cell empty, the datasheet's (1). Its rule (0 < f ≤ 1) is the descriptor's.
    h.fp4_sustained_fraction =
        table.find_column("fp4_sustained_fraction") && !r.text("fp4_sustained_fraction").empty() ? r.figure("fp4_sustained_fraction") : 1.0;

    // Optional (tables before session 51 lack it): the memory the runtime reports as the total, MiB; without the
    // column, or with its cell empty, 0 (the spec capacity). Its rule (0 or (0, hbm_capacity]) is the descriptor's.
    h.runtime_capacity_MiB =
        table.find_column("runtime_capacity_MiB") && !r.text("runtime_capacity_MiB").empty() ? r.figure("runtime_capacity_MiB") : 0.0;

    const hardware hw = from_row(h);
    // Part by part first, so that a link's or a tier's rule lands on the right column; then the
    // whole descriptor, for its own rules (and any that a later version adds).
    check_part(r, table, "gpu", [&] { hw.gpu.validate(); });
    check_part(r, table, "scale_up", [&] { hw.scale_up.validate(hw.name); });
    check_part(r, table, "scale_out", [&] { hw.scale_out.validate(hw.name); });
    check_part(r, table, "host_memory", [&] { hw.host_memory.validate(hw.name); });
    check_part(r, table, "storage", [&] { hw.storage.validate(hw.name); });
    check_part(r, table, "hardware", [&] { hw.validate(); });
    return hw;
}

/// Reads the rows of an already parsed table, in the table's order.
[[nodiscard]] inline std::vector<hardware> read_table(const csv_table& table) {
    return read_named_rows<row_reader>(table, columns, read_row);
}

}  // namespace detail::hardware_csv

/// Parses the text of a hardware table; `origin` names the input in messages (usually its path).
[[nodiscard]] inline std::vector<hardware> parse_hardware_csv(std::string_view text, std::string_view origin) {
    return detail::hardware_csv::read_table(parse_csv(text, origin));
}

/// Reads and parses a hardware table file.
[[nodiscard]] inline std::vector<hardware> load_hardware_csv(const std::filesystem::path& file) {
    return detail::hardware_csv::read_table(load_csv(file));
}

}  // namespace llmcost::io
