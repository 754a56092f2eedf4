#pragma once
/// \file
/// The one exception the loaders throw. A `load_error` says where (file, line, column when the
/// input has them, and the key — a JSON member path or a CSV column), what value was found, and
/// which rule it broke, so that a user can fix the file without reading the loader's source:
///
///     llmcost: tests/fixtures/x.json:12:5: key "num_attention_heads": expected an integer, got string
///     llmcost: config.json: key "num_key_value_heads" = 7: must divide query_heads (...)

#include <stdexcept>
#include <string>
#include <utility>

namespace llmcost::io {

class load_error : public std::runtime_error {
public:
    /// `line` and `column` are 1-based; 0 means "not applicable" (a missing key has no position).
    /// `value` is the offending value as text; empty when there is none to show.
    load_error(std::string path, std::string key, std::string rule, int line = 0, int column = 0,
               std::string value = {})
        : std::runtime_error(make_message(path, key, rule, line, column, value)),
          path_(std::move(path)), key_(std::move(key)), rule_(std::move(rule)),
          value_(std::move(value)), line_(line), column_(column) {}

    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    /// JSON member path relative to the root ("num_attention_heads",
    /// "quantization_config/quant_method") or CSV column name; empty when the whole file is at fault.
    [[nodiscard]] const std::string& key() const noexcept { return key_; }
    [[nodiscard]] const std::string& rule() const noexcept { return rule_; }
    [[nodiscard]] const std::string& value() const noexcept { return value_; }
    [[nodiscard]] int line() const noexcept { return line_; }
    [[nodiscard]] int column() const noexcept { return column_; }

private:
    static std::string make_message(const std::string& path, const std::string& key,
                                    const std::string& rule, int line, int column,
                                    const std::string& value) {
        std::string m = "llmcost: " + path;
        if (line > 0) {
            m += ':' + std::to_string(line);
            if (column > 0) m += ':' + std::to_string(column);
        }
        m += ": ";
        if (!key.empty()) {
            m += "key \"" + key + '"';
            if (!value.empty()) m += " = " + value;
            m += ": ";
        }
        m += rule;
        return m;
    }

    std::string path_, key_, rule_, value_;
    int line_ = 0, column_ = 0;
};

}  // namespace llmcost::io
