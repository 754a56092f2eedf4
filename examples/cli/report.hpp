#pragma once
/// \file
/// What a command of the `llmcost` tool produces, before it is printed: records of named figures,
/// each a raw SI value with its unit and a label, plus notes. One report renders three ways:
/// - table: for people; values with SI prefixes (2.5 ms, 40 GB), one record as label/value lines,
///   several as rows;
/// - json: for programs; SI values, the unit in the key (`ttft_s`), notes as an array;
/// - csv: for spreadsheets; a header of keys and one line per record, SI values.

#include <llmcost/units.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace llmcost::cli {

enum class output_format { table, json, csv };

/// A list of words: a JSON array, comma-joined in CSV, ", "-joined in a table (`if_null` when empty).
using words = std::vector<std::string>;
/// null (not known), a number in SI units, a word, a yes/no, or a list of words.
using value = std::variant<std::monostate, double, std::string, bool, words>;

struct field {
    std::string key;    ///< snake_case, with the unit when there is one: "ttft_s"
    std::string label;  ///< for people: "time to first token"
    value v;
    std::string unit;   ///< SI: "s", "B", "B/s", "J", "W", "token", "token/s", "USD", "" for a ratio
    std::string shown_in = {};  ///< a unit for people instead of `unit` in tables: "Wh" for "J", "whole tokens" (floored) for a token capacity
    std::string if_null = "unknown";  ///< what a table shows for null ("unreachable", "none")
    /// The key's first dot nests in JSON: "ttft_s.p90" is {"ttft_s": {"p90": …}}, the same key
    /// heads its CSV column (off by default: a key taken from a name may hold a dot of its own).
    bool nests = false;
    /// Tables show this text instead of the value when it is not empty (the weights' format with the kept modules,
    /// which JSON and CSV give as fields of their own: `add_weights`).
    std::string table_text = {};
    bool in_table = true;  ///< false: JSON and CSV only (a part of a figure a table shows whole in another field)
};

struct record {
    std::string id = {};  ///< a ledger id (receipt) or a name (lists); may be empty
    std::vector<field> fields = {};

    record& add(std::string key, std::string label, value v, std::string unit = {}, std::string shown_in = {}) {
        fields.push_back({std::move(key), std::move(label), std::move(v), std::move(unit), std::move(shown_in)});
        return *this;
    }
    /// A figure under a group: JSON {"group": {"key": v}}, CSV column "group.key".
    record& add_in(const std::string& group, std::string key, std::string label, value v, std::string unit = {}) {
        std::string path = group;
        path += '.';
        path += key;
        add(std::move(path), std::move(label), std::move(v), std::move(unit));
        fields.back().nests = true;
        return *this;
    }
    /// A figure that may not exist: null in JSON, empty in CSV, `if_null` in a table.
    record& add_or(std::string key, std::string label, bool exists, double v, std::string unit, std::string if_null) {
        add(std::move(key), std::move(label), exists ? value(v) : value(), std::move(unit));
        fields.back().if_null = std::move(if_null);
        return *this;
    }
};

/// A file a command produces besides its report (`frontier --svg`): written by the tool after the
/// command returns, whole or not at all (io::write_output_file), never over one of `inputs`.
struct output_file {
    std::string path;
    std::string contents;
    std::vector<std::filesystem::path> inputs = {};  ///< files this run read: never overwritten
    std::string note_when_written = {};              ///< a note the report gains once the file is written
};

/// A table beside a report's own figures (`estimate --explain`'s breakdowns): rows in a table,
/// an array under `key` in JSON — or one object when `single` — where a dot nests
/// ("breakdown.prefill" is {"breakdown": {"prefill": [...]}}). CSV keeps the report's own records.
struct section {
    std::string key;    ///< JSON path, dot-separated
    std::string title;  ///< the table's heading
    std::vector<record> rows = {};
    bool single = false;  ///< one record: a JSON object and label/value lines, not rows
};

struct report {
    enum class shape {
        object,  ///< one record: {"key": value, …}
        array,   ///< many records: [{…}, …]
        by_id,   ///< one figure per id: {"S27": {"value": …, "unit": …, "label": …}, …}
    };
    std::string title = {};
    shape layout = shape::object;
    std::vector<record> records = {};
    std::vector<std::string> notes = {};
    std::vector<output_file> files = {};
    std::vector<section> sections = {};  ///< object reports only
};

/// A depreciation or a payback in years (Julian, as `years()` counts them): "5 years".
[[nodiscard]] inline std::string years_text(const seconds_t& t) { return text::number(ratio(t, years(1.0))) + " years"; }

namespace detail {

/// A count for people: whole numbers grouped ("1,512,840"), and from 1000 up rounded to one
/// (a fraction of a token in a million is noise); other fractions, and 10^15 and beyond, to 6 digits.
[[nodiscard]] inline std::string count_text(double v) {
    if (std::fabs(v) >= 1000) v = std::round(v);
    if (!(std::fabs(v) < 1e15) || v != std::floor(v)) return text::number(v, 6);
    return text::grouped(v);
}

/// A value for people: the unit picks the text (bytes and FLOPs with decimal prefixes, seconds
/// down to ns, dollars per hour and per million tokens).
[[nodiscard]] inline std::string human(double v, std::string_view unit) {
    using text::detail::dollars_text;
    if (!std::isfinite(v)) return std::isnan(v) ? "unknown" : "unbounded";
    if (unit == "s") return to_text(seconds(v));
    if (unit == "B") return to_text(bytes(v));
    if (unit == "B/s") return to_text(bytes_per_second(v));
    if (unit == "B/token") return to_text(bytes_per_token_t::from_value(v));
    if (unit == "J") return to_text(joules(v));
    if (unit == "Wh") return text::number(v, 3) + " Wh";
    if (unit == "W") return to_text(watts(v));
    if (unit == "J/token") return to_text(joules_per_token_t::from_value(v));
    if (unit == "FLOP") return to_text(flops(v));
    if (unit == "FLOP/s") return to_text(flops_per_second(v));
    if (unit == "token/s") return to_text(tokens_per_second(v));
    if (unit == "token") return count_text(v) + " tokens";
    if (unit == "count") return count_text(v);  // a plain count, grouped: "13,889"
    if (unit == "USD") return std::fabs(v) >= 1000 ? dollars_text(text::grouped(std::round(v))) : to_text(dollars(v));
    if (unit == "USD/h") return dollars_text(text::number(v) + "/h");
    if (unit == "USD/Mtoken") return dollars_text(text::number(v) + " per M tokens");
    if (unit == "%") return text::number(v, 3) + " %";
    if (unit == "x") return text::number(v, 3) + "x";
    if (unit.empty()) return text::number(v);
    return text::number(v) + " " + std::string(unit);
}

[[nodiscard]] inline std::string text_of(const value& v, std::string_view unit, std::string_view shown_in = {},
                                        std::string_view if_null = "unknown") {
    if (std::holds_alternative<std::monostate>(v)) return std::string(if_null);
    if (const double* d = std::get_if<double>(&v)) {
        if (unit == "J" && shown_in == "Wh") return human(*d / 3600.0, "Wh");
        if (unit == "B" && shown_in == "GiB") return to_text(gibibytes_t(bytes(*d)));
        // a capacity in tokens: the whole tokens that fit, ⌊v·(1 + 10⁻¹²)⌋ (1,512,840.625 fit 1,512,840; audit 40,
        // F10): the relative 10⁻¹² keeps a quotient that is n in exact arithmetic but lands a rounding below it at n
        if (unit == "token" && shown_in == "whole tokens" && std::isfinite(*d))
            return human(std::floor(*d * (1.0 + 1e-12)), unit);
        return human(*d, unit);
    }
    if (const bool* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
    if (const words* l = std::get_if<words>(&v)) {
        if (l->empty()) return std::string(if_null);
        std::string s;
        for (const std::string& w : *l) {
            if (!s.empty()) s += ", ";
            s += w;
        }
        return s;
    }
    return std::get<std::string>(v);
}

/// SI values keep 10 significant digits in JSON and CSV: enough to compare, stable to print.
/// Whole numbers (counts, byte sizes) print without a fraction: 8, not 8.0.
[[nodiscard]] inline bool whole(double v) { return std::fabs(v) < 9007199254740992.0 && v == std::floor(v); }

[[nodiscard]] inline nlohmann::ordered_json json_of(const value& v) {
    if (const double* d = std::get_if<double>(&v)) {
        if (!std::isfinite(*d)) return nullptr;  // JSON has no NaN or infinity
        if (whole(*d)) return static_cast<long long>(*d);
        return text::rounded(*d, 10);  // nlohmann writes the shortest text that reads back: these 10 digits
    }
    if (const bool* b = std::get_if<bool>(&v)) return *b;
    if (const std::string* s = std::get_if<std::string>(&v)) return text::utf8_escaped(*s);
    if (const words* l = std::get_if<words>(&v)) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const std::string& w : *l) a.push_back(text::utf8_escaped(w));
        return a;
    }
    return nullptr;
}

[[nodiscard]] inline std::string csv_of(const value& v) {
    if (const words* l = std::get_if<words>(&v)) {  // comma-joined, as --excluded-modules takes a list (then quoted)
        std::string s;
        for (const std::string& w : *l) {
            if (!s.empty()) s += ',';
            s += w;
        }
        return csv_of(value(s));
    }
    if (const double* d = std::get_if<double>(&v)) {
        if (!std::isfinite(*d)) return "";
        if (whole(*d)) return std::to_string(static_cast<long long>(*d));
        return text::number(*d, 10);
    }
    if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
    if (const std::string* s = std::get_if<std::string>(&v)) {
        if (s->find_first_of(",\"\n\r") == std::string::npos) return *s;  // a bare CR ends a line too
        std::string q = "\"";
        for (char c : *s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    }
    return "";
}

/// Display width of UTF-8 text: count the bytes that start a code point.
[[nodiscard]] inline std::size_t width(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

[[nodiscard]] inline std::string pad(std::string s, std::size_t w) {
    const std::size_t have = width(s);
    if (have < w) s.append(w - have, ' ');
    return s;
}

}  // namespace detail

namespace detail {

/// What a table shows of `f`: its table text, else its value for people.
[[nodiscard]] inline std::string table_cell(const field& f) {
    return f.table_text.empty() ? text_of(f.v, f.unit, f.shown_in, f.if_null) : f.table_text;
}

/// Records as rows under a header of their labels (every record has the first one's keys; `in_table` fields left out).
[[nodiscard]] inline std::string rows_table(const std::vector<record>& records) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> w;
    if (!records.empty()) {
        std::vector<std::string> head;
        for (const field& f : records.front().fields)
            if (f.in_table) head.push_back(f.label);
        cells.push_back(head);
    }
    for (const record& rec : records) {
        std::vector<std::string> row;
        for (const field& f : rec.fields)
            if (f.in_table) row.push_back(table_cell(f));
        cells.push_back(row);
    }
    for (const auto& row : cells)
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (w.size() <= c) w.push_back(0);
            w[c] = std::max(w[c], width(row[c]));
        }
    std::string out;
    for (const auto& row : cells) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) line += c + 1 < row.size() ? pad(row[c], w[c] + 2) : row[c];
        out += line + "\n";
    }
    return out;
}

/// Records as "  label  value" lines (with the record's id in front when `with_id`).
[[nodiscard]] inline std::string lines_table(const std::vector<record>& records, bool with_id) {
    std::size_t label_w = 0, id_w = 0;
    for (const record& rec : records) {
        id_w = std::max(id_w, width(rec.id));
        for (const field& f : rec.fields)
            if (f.in_table) label_w = std::max(label_w, width(f.label));
    }
    std::string out;
    for (const record& rec : records)
        for (const field& f : rec.fields) {
            if (!f.in_table) continue;
            std::string line = "  ";
            if (with_id) line += pad(rec.id, id_w + 2);
            line += pad(f.label, label_w + 2) + table_cell(f);
            out += line + "\n";
        }
    return out;
}

}  // namespace detail

[[nodiscard]] inline std::string render_table(const report& r) {
    std::string out;
    if (!r.title.empty()) out += r.title + "\n\n";
    if (r.layout == report::shape::array) out += detail::rows_table(r.records);
    else out += detail::lines_table(r.records, r.layout == report::shape::by_id);
    for (const section& sec : r.sections) {
        out += "\n" + sec.title + "\n\n";
        out += sec.single ? detail::lines_table(sec.rows, false) : detail::rows_table(sec.rows);
    }
    if (!r.notes.empty()) {
        out += "\n";
        for (const std::string& n : r.notes) {
            out += "note: ";
            out += n;
            out += '\n';
        }
    }
    return out;
}

/// JSON of a report. Every string goes through text::utf8_escaped (a file name or a CSV id need not
/// be UTF-8). Notes are kept: an object or a by-id report gains "notes" when it has any; a report of
/// rows is {"rows": [...], "notes": [...]}, so that a program sees why a list is empty.
[[nodiscard]] inline std::string render_json(const report& r) {
    using json = nlohmann::ordered_json;
    json out;
    auto object_of = [](const record& rec) {
        json o = json::object();
        for (const field& f : rec.fields) {
            const std::size_t dot = f.nests ? f.key.find('.') : std::string::npos;
            if (dot == std::string::npos) o[text::utf8_escaped(f.key)] = detail::json_of(f.v);
            else o[text::utf8_escaped(f.key.substr(0, dot))][text::utf8_escaped(f.key.substr(dot + 1))] = detail::json_of(f.v);
        }
        return o;
    };
    std::vector<std::string> notes;
    for (const std::string& n : r.notes) notes.push_back(text::utf8_escaped(n));
    switch (r.layout) {
        case report::shape::object:
            out = r.records.empty() ? json::object() : object_of(r.records.front());
            for (const section& sec : r.sections) {
                json* at = &out;
                for (std::size_t from = 0;;) {
                    const std::size_t dot = sec.key.find('.', from);
                    at = &(*at)[sec.key.substr(from, dot == std::string::npos ? std::string::npos : dot - from)];
                    if (dot == std::string::npos) break;
                    from = dot + 1;
                }
                if (sec.single) {
                    *at = sec.rows.empty() ? json::object() : object_of(sec.rows.front());
                } else {
                    *at = json::array();
                    for (const record& rec : sec.rows) at->push_back(object_of(rec));
                }
            }
            if (!notes.empty()) out["notes"] = notes;
            break;
        case report::shape::array: {
            json rows = json::array();
            for (const record& rec : r.records) rows.push_back(object_of(rec));
            out = json::object();
            out["rows"] = std::move(rows);
            out["notes"] = notes;
            break;
        }
        case report::shape::by_id: {
            out = json::object();
            // Appended, not looked up: ids are unique, and an ordered_json look-up is linear (a
            // calibration of a million rows has three million ids).
            auto& members = out.get_ref<json::object_t&>();
            members.reserve(r.records.size() + 1);
            for (const record& rec : r.records)
                for (const field& f : rec.fields)
                    members.emplace_back(text::utf8_escaped(rec.id),
                                         json{{"value", detail::json_of(f.v)}, {"unit", f.unit},
                                              {"label", text::utf8_escaped(f.label)}});
            if (!notes.empty()) out["notes"] = notes;
            break;
        }
    }
    return out.dump(2) + "\n";
}

[[nodiscard]] inline std::string render_csv(const report& r) {
    std::string out;
    if (r.layout == report::shape::by_id) {
        out = "id,value,unit,label\n";
        for (const record& rec : r.records)
            for (const field& f : rec.fields)
                out += detail::csv_of(rec.id) + "," + detail::csv_of(f.v) + "," + detail::csv_of(f.unit) + "," +
                       detail::csv_of(f.label) + "\n";
        return out;
    }
    if (r.records.empty()) return out;
    std::string head;
    // Appends, not `"," + std::string`: g++ 12 at -O2 warns falsely on that (-Wrestrict, GCC bug 105329).
    for (const field& f : r.records.front().fields) {
        if (!head.empty()) head += ',';
        head += detail::csv_of(f.key);
    }
    out = head + "\n";
    for (const record& rec : r.records) {
        std::string line;
        for (std::size_t i = 0; i < rec.fields.size(); ++i) {
            if (i) line += ',';
            line += detail::csv_of(rec.fields[i].v);
        }
        out += line + "\n";
    }
    return out;
}

[[nodiscard]] inline std::string render(const report& r, output_format f) {
    switch (f) {
        case output_format::json: return render_json(r);
        case output_format::csv: return render_csv(r);
        case output_format::table: break;
    }
    return render_table(r);
}

}  // namespace llmcost::cli
