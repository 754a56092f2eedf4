#pragma once
/// \file
/// A request trace as CSV: one request a row, with its arrival time in seconds, its prompt and its
/// answer in tokens, and optionally the id of a shared prefix (a system prompt, a document many
/// requests ask about):
///
///     arrival_s,input_tokens,output_tokens,prefix_id
///     0.000,812,154,
///     0.031,2048,512,7
///
/// Every error names the file, the line and the column (the field's number) and the rule broken:
/// a missing, non-numeric, negative, NaN or infinite time, times that go back, a request of zero
/// tokens or of a fraction of one.

#include <llmcost/descriptors/workload.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>

#include <cmath>
#include <optional>
#include <utility>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::io {

/// Parses a trace; `origin` names the input in error messages (usually the file's path).
[[nodiscard]] inline std::vector<workload::request> parse_trace_csv(std::string_view text, std::string_view origin) {
    const csv_table t = parse_csv(text, origin);
    const std::size_t at = t.column("arrival_s"), in = t.column("input_tokens"), out = t.column("output_tokens");
    const std::optional<std::size_t> prefix = t.find_column("prefix_id");
    if (t.size() == 0) throw load_error(t.origin(), {}, "a trace needs at least one request row");
    std::vector<workload::request> r;
    r.reserve(t.size());
    for (std::size_t row = 0; row < t.size(); ++row) {
        const int line = t.rows()[row].line;
        auto fail = [&](std::size_t column, const std::string& rule) {
            throw load_error(t.origin(), t.header()[column], rule, line, static_cast<int>(column) + 1,
                             '"' + t.rows()[row].fields[column] + '"');
        };
        auto number = [&](std::size_t column) {
            const std::optional<double> v = t.number(row, t.header()[column]);
            if (!v) fail(column, "missing value [llmcost.trace.arrival_time]");
            if (!std::isfinite(*v)) fail(column, "must be finite (not NaN or inf)");
            return *v;
        };
        const double a = number(at);
        if (a < 0.0) fail(at, "an arrival time is not negative [llmcost.trace.arrival_time]");
        if (a > workload::max_arrival_s)
            fail(at, "an arrival time is at most 10^9 s (workload::max_arrival_s: later, a double no longer resolves "
                     "a step's time) [llmcost.trace.arrival_time]");
        if (!r.empty() && a < r.back().arrival.value())
            fail(at, "arrival times must not decrease (the row before arrives at " +
                         std::to_string(r.back().arrival.value()) + " s) [llmcost.trace.arrival_order]");
        const double i = number(in), o = number(out);
        for (const auto& [column, v] : {std::pair{in, i}, std::pair{out, o}})
            if (!(v >= 1.0) || v != std::floor(v))
                fail(column, "a request has a whole number of tokens, at least one [llmcost.simulate.request_tokens]");
        long p = -1;
        if (prefix && !t.rows()[row].fields[*prefix].empty()) {
            const double v = number(*prefix);
            if (!(v >= 0.0) || v != std::floor(v) || v > 1e15)
                fail(*prefix, "a prefix id is a whole number, zero or more (empty: no shared prefix)");
            p = static_cast<long>(v);
        }
        r.push_back({.arrival = seconds(a), .input = tokens(i), .output = tokens(o), .prefix = p});
    }
    return r;
}

/// Reads and parses a trace file.
[[nodiscard]] inline std::vector<workload::request> load_trace_csv(const std::filesystem::path& file) {
    return parse_trace_csv(read_input_file(file, table_file_limit), file.string());
}

}  // namespace llmcost::io
