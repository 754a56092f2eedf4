#pragma once
/// \file
/// A small RFC 4180 reader for the project's tables: comma-separated fields, optional double
/// quotes around a field (which may then hold commas, line breaks and doubled quotes `""`), a
/// header row naming the columns, CRLF or LF line ends. Every error names the file, the line
/// and the column where the problem is, so a hand-edited table can be fixed at once.

#include <llmcost/io/error.hpp>
#include <llmcost/io/files.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llmcost::io {

/// One data row: its fields and the line it starts on (a quoted field may span lines).
struct csv_row {
    std::vector<std::string> fields;
    int line = 0;
};

class csv_table {
public:
    csv_table(std::string origin, std::vector<std::string> header, std::vector<csv_row> rows,
              int header_line)
        : origin_(std::move(origin)), header_(std::move(header)), rows_(std::move(rows)),
          header_line_(header_line) {}

    [[nodiscard]] const std::string& origin() const noexcept { return origin_; }
    [[nodiscard]] const std::vector<std::string>& header() const noexcept { return header_; }
    /// The header's line in the input (1-based).
    [[nodiscard]] int header_line() const noexcept { return header_line_; }
    [[nodiscard]] const std::vector<csv_row>& rows() const noexcept { return rows_; }
    [[nodiscard]] std::size_t size() const noexcept { return rows_.size(); }

    /// Index of column `name`, if the header has it.
    [[nodiscard]] std::optional<std::size_t> find_column(std::string_view name) const {
        for (std::size_t i = 0; i < header_.size(); ++i)
            if (header_[i] == name) return i;
        return std::nullopt;
    }
    /// Index of column `name`; a table without it is a broken table, so this throws.
    [[nodiscard]] std::size_t column(std::string_view name) const {
        if (const auto i = find_column(name)) return *i;
        throw load_error(origin_, std::string(name), "no such column in the header", header_line_);
    }

    /// The text of column `name` in row `row` (0-based among data rows).
    [[nodiscard]] const std::string& field(std::size_t row, std::string_view name) const {
        return rows_.at(row).fields[column(name)];
    }

    /// The field as a number; empty when the cell is empty (the tables use empty for "n/a").
    [[nodiscard]] std::optional<double> number(std::size_t row, std::string_view name) const {
        const std::size_t c = column(name);
        const std::string& text = rows_.at(row).fields[c];
        if (text.empty()) return std::nullopt;
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size() || errno == ERANGE)
            throw load_error(origin_, std::string(name), "expected a number", rows_.at(row).line,
                             column_of(row, c), '"' + text + '"');
        return v;
    }

private:
    // The exact column of a field is not kept (rows are stored as plain strings); report the
    // 1-based field index instead, which is what a spreadsheet user counts anyway.
    [[nodiscard]] int column_of(std::size_t, std::size_t c) const { return static_cast<int>(c) + 1; }

    std::string origin_;
    std::vector<std::string> header_;
    std::vector<csv_row> rows_;
    int header_line_ = 1;
};

/// Parses CSV text; `origin` names the input in error messages (usually the file's path). A UTF-8
/// byte-order mark before the header is skipped (spreadsheets save one).
[[nodiscard]] inline csv_table parse_csv(std::string_view text, std::string_view origin) {
    text = without_bom(text);
    const std::string where(origin);
    std::vector<std::vector<std::string>> records;
    std::vector<int> record_lines;

    std::size_t i = 0;
    int line = 1, col = 1;
    const auto advance = [&](char c) {
        ++i;
        if (c == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    };
    // A record ends at LF, CRLF or the end of input; a bare CR also counts as a line end, since
    // old Mac-style files would otherwise glue two records together.
    const auto at_line_end = [&]() { return i < text.size() && (text[i] == '\n' || text[i] == '\r'); };
    const auto eat_line_end = [&]() {
        if (text[i] == '\r') {
            ++i;
            if (i < text.size() && text[i] == '\n') ++i;
            ++line;
            col = 1;
        } else {
            advance('\n');
        }
    };

    while (i < text.size()) {
        if (at_line_end()) {  // blank line: skipped, so a trailing newline adds no empty record
            eat_line_end();
            continue;
        }
        std::vector<std::string> fields;
        const int record_line = line;
        for (;;) {
            std::string field;
            if (i < text.size() && text[i] == '"') {
                const int open_line = line, open_col = col;
                advance('"');
                for (;;) {
                    if (i >= text.size())
                        throw load_error(where, {}, "unterminated quoted field (the quote opened here "
                                                    "is never closed)",
                                         open_line, open_col);
                    const char c = text[i];
                    if (c == '"') {
                        if (i + 1 < text.size() && text[i + 1] == '"') {  // "" is one literal quote
                            field += '"';
                            advance('"');
                            advance('"');
                            continue;
                        }
                        advance('"');
                        break;
                    }
                    field += c;
                    advance(c);
                }
                if (i < text.size() && text[i] != ',' && !at_line_end())
                    throw load_error(where, {},
                                     std::string("unexpected character '") + text[i] +
                                         "' after a closing quote (expected ',' or end of line)",
                                     line, col);
            } else {
                while (i < text.size() && text[i] != ',' && !at_line_end()) {
                    if (text[i] == '"')
                        throw load_error(where, {},
                                         "quote inside an unquoted field (quote the whole field "
                                         "and double the inner quote)",
                                         line, col);
                    field += text[i];
                    advance(text[i]);
                }
            }
            fields.push_back(std::move(field));
            if (i < text.size() && text[i] == ',') {
                advance(',');
                continue;
            }
            break;  // end of line or of input
        }
        if (i < text.size()) eat_line_end();
        records.push_back(std::move(fields));
        record_lines.push_back(record_line);
    }

    if (records.empty()) throw load_error(where, {}, "empty file: expected a header row");
    std::vector<std::string> header = std::move(records.front());
    for (std::size_t c = 0; c < header.size(); ++c) {
        if (header[c].empty())
            throw load_error(where, {}, "empty column name in the header", record_lines.front(),
                             static_cast<int>(c) + 1);
        for (std::size_t d = 0; d < c; ++d)
            if (header[d] == header[c])
                throw load_error(where, header[c], "column name appears twice in the header",
                                 record_lines.front(), static_cast<int>(c) + 1);
    }
    std::vector<csv_row> rows;
    for (std::size_t r = 1; r < records.size(); ++r) {
        if (records[r].size() != header.size())
            throw load_error(where, {},
                             "wrong field count: expected " + std::to_string(header.size()) +
                                 " fields (as in the header), got " + std::to_string(records[r].size()),
                             record_lines[r], 1);
        rows.push_back(csv_row{std::move(records[r]), record_lines[r]});
    }
    return csv_table(where, std::move(header), std::move(rows), record_lines.front());
}

/// Reads and parses a CSV file: a regular file of at most `table_file_limit` bytes (io/files.hpp).
[[nodiscard]] inline csv_table load_csv(const std::filesystem::path& file) {
    return parse_csv(read_input_file(file, table_file_limit), file.string());
}


/// Reads every row of a catalog table with `read_row(table, row)` after checking that all
/// `columns` exist (so an empty table is still refused, naming the first missing column), and
/// refuses a name that appears twice, since callers look entries up by name. `Reader` is the
/// table's row reader, whose `fail(column, rule)` reports a row's error.
template <class Reader, class Columns, class ReadRow>
[[nodiscard]] auto read_named_rows(const csv_table& table, const Columns& columns, ReadRow read_row) {
    for (const std::string_view c : columns) (void)table.column(c);
    std::vector<decltype(read_row(table, std::size_t{0}))> out;
    out.reserve(table.size());
    std::unordered_map<std::string, std::size_t> row_of_name;  // linear in rows, not quadratic
    for (std::size_t row = 0; row < table.size(); ++row) {
        auto entry = read_row(table, row);
        if (const auto [at, fresh] = row_of_name.emplace(std::string(entry.name), row); !fresh)
            Reader(table, row).fail("name", "name appears twice (first on line " +
                                                std::to_string(table.rows()[at->second].line) + ")");
        out.push_back(entry);
    }
    return out;
}

}  // namespace llmcost::io
