#pragma once
/// \file
/// The weights' format as every surface prints it (the `llmcost` tool's `weights` field and notes, Python's
/// `weights`): the format, and the modules the checkpoint keeps out of it in their own format.

#include <llmcost/descriptors/model.hpp>

#include <string>
#include <string_view>

namespace llmcost {

/// The modules `e` keeps, in the words `excluded_modules_named` reads back (`excluded_module_words`, in that order),
/// comma-separated: "attention_kv_b, attention_out"; empty when none is kept.
[[nodiscard]] constexpr std::string excluded_modules_text(const excluded_modules& e) {
    std::string s;
    auto add = [&s](bool kept, std::string_view word) {
        if (!kept) return;
        if (!s.empty()) s += ", ";
        s += word;
    };
    add(e.attention_inputs, "attention_in");
    add(e.attention_kv_up, "attention_kv_b");
    add(e.attention_output, "attention_out");
    add(e.lm_head, "lm_head");
    add(e.embedding, "embedding");
    return s;
}

/// Weights in `weights` with the modules `kept` keeps out of it: "nvfp4 (attention_kv_b, attention_out in bf16)"; the
/// format alone ("nvfp4") when `kept` names none.
[[nodiscard]] constexpr std::string weights_text(const number_format& weights, const excluded_modules& kept) {
    std::string s(weights.name);
    if (!kept.any()) return s;
    s += " (";
    s += excluded_modules_text(kept);
    s += " in ";
    s += kept.format.name;
    s += ")";
    return s;
}

/// The weights' format of `m` with the modules its checkpoint keeps out of it (`model::excluded`).
[[nodiscard]] constexpr std::string weights_text(const model& m) { return weights_text(m.weights, m.excluded); }

}  // namespace llmcost
