#pragma once
/// \file
/// The weights' format as the human-readable receipts print it (the `llmcost` tool's tables and notes): the format,
/// and the modules the checkpoint keeps out of it in their own format. Machine-readable fields (JSON, CSV, Python)
/// keep `weights` the format name and give the modules apart (`excluded_module_words_of`, `excluded_modules::format`).

#include <llmcost/descriptors/model.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace llmcost {

/// The words of the modules `e` keeps (`excluded_module_names`, in that order), as `excluded_modules_named` reads
/// them back: {"attention_kv_b", "attention_out"}; empty when none is kept.
[[nodiscard]] constexpr std::vector<std::string> excluded_module_words_of(const excluded_modules& e) {
    std::vector<std::string> words;
    for (const auto& n : excluded_module_names)
        if (e.*n.kept) words.emplace_back(n.word);
    return words;
}

/// The modules `e` keeps, comma-separated: "attention_kv_b, attention_out"; empty when none is kept.
[[nodiscard]] constexpr std::string excluded_modules_text(const excluded_modules& e) {
    std::string s;
    for (const std::string& w : excluded_module_words_of(e)) {
        if (!s.empty()) s += ", ";
        s += w;
    }
    return s;
}

/// The kept modules and their format: "attention_kv_b, attention_out in bf16"; empty when none is kept.
[[nodiscard]] constexpr std::string kept_modules_text(const excluded_modules& e) {
    if (!e.any()) return {};
    return excluded_modules_text(e) + " in " + std::string(e.format.name);
}

/// A format and what is held out of it, in one pair of brackets: "nvfp4 (attention_kv_b in bf16)"; the format alone
/// ("nvfp4") when `inside` is empty. The one place a receipt brackets a format's exceptions.
[[nodiscard]] constexpr std::string format_with_exceptions_text(const number_format& format, const std::string& inside) {
    std::string s(format.name);
    if (!inside.empty()) s += " (" + inside + ")";
    return s;
}

/// Weights in `weights` with the modules `kept` keeps out of it: "nvfp4 (attention_kv_b, attention_out in bf16)"; the
/// format alone ("nvfp4") when `kept` names none.
[[nodiscard]] constexpr std::string weights_text(const number_format& weights, const excluded_modules& kept) {
    return format_with_exceptions_text(weights, kept_modules_text(kept));
}

/// The weights' format of `m` with the modules its checkpoint keeps out of it (`model::excluded`).
[[nodiscard]] constexpr std::string weights_text(const model& m) { return weights_text(m.weights, m.excluded); }

/// The weights' formats of `m` in full, one pair of brackets: the format, the kept modules and the routed experts' own
/// format (`model::expert_weights`): "nvfp4 (attention_kv_b in bf16; experts mxfp4)", "bf16 (experts mxfp4)", "nvfp4".
[[nodiscard]] constexpr std::string weights_and_experts_text(const model& m) {
    std::string inside = kept_modules_text(m.excluded);
    if (m.expert_weights) {
        if (!inside.empty()) inside += "; ";
        inside += "experts ";
        inside += m.expert_weights->name;
    }
    return format_with_exceptions_text(m.weights, inside);
}

}  // namespace llmcost
