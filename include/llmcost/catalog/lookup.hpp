#pragma once
/// \file
/// A catalog entry by the name a person typed. Names match loosely — case, spaces and punctuation
/// do not count, so `h100`, `H100 SXM5` and `h100-sxm5` are one GPU — and a name that starts
/// exactly one entry's name picks it. A product's bare name — the first word of several entries,
/// such as `H100` for "H100 SXM5", "H100 PCIe" and "H100 NVL" — picks the first of them listed
/// (the catalog lists the reference part first), and every answer names the entry it used. A name
/// that picks nothing comes back with what to offer instead: the entries it starts (it is
/// ambiguous: `A100 SXM`) or the three closest names (it is unknown; a name is as close as the
/// nearer of its whole and its first word).
/// One lookup for the `llmcost` tool, the measurements CSV and anyone else who reads names, so a
/// name that works in one works in all, and every refusal offers the same suggestions.
///
/// **Example**
/// \code
/// static_assert(catalog::lookup<hardware>("h100-sxm5").match == &catalog::h100_sxm5);
/// const auto found = catalog::lookup<model>(argv[1]);
/// if (!found) std::cerr << "'" << argv[1] << "' is " << found.problem() << "\n";
///     // 'llama-70b' is not in the catalog; closest: Llama-2-70B, Llama-3.1-70B, Llama-3.1-8B
/// \endcode

#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::detail {

/// Lower case, letters and digits only: "H100 SXM5" → "h100sxm5". ASCII only, as the names are.
[[nodiscard]] constexpr std::vector<char> loose(std::string_view s) {
    std::vector<char> out;
    for (char c : s) {
        if (c >= 'A' && c <= 'Z') out.push_back(static_cast<char>(c - 'A' + 'a'));
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out.push_back(c);
    }
    return out;
}

/// Levenshtein distance — insertions, deletions and substitutions — for "closest".
[[nodiscard]] constexpr std::size_t edit_distance(const std::vector<char>& a, const std::vector<char>& b) {
    std::vector<std::size_t> row;
    for (std::size_t j = 0; j <= b.size(); ++j) row.push_back(j);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace llmcost::detail

namespace llmcost::catalog {

/// What a name found: the entry, or the names to offer instead.
template <class Entry>
struct lookup_result {
    const Entry* match = nullptr;  ///< the entry the name picks, when it picks exactly one
    bool ambiguous = false;        ///< no match because several names start with it
    /// Without a match: the names it starts (ambiguous), else the three closest, closest first.
    std::vector<std::string_view> suggestions = {};

    [[nodiscard]] constexpr explicit operator bool() const { return match != nullptr; }

    /// Why there is no match, for a message that has named the query:
    /// "not in the catalog; closest: A, B, C" or "ambiguous; it starts A, B".
    [[nodiscard]] std::string problem() const {
        std::string out = ambiguous ? "ambiguous; it starts " : "not in the catalog; closest: ";
        for (std::size_t i = 0; i < suggestions.size(); ++i) {
            if (i > 0) out += ", ";
            out += suggestions[i];
        }
        return out;
    }
};


/// How many closest names an unknown name is offered.
inline constexpr std::size_t lookup_suggestions = 3;

/// The entry of `entries` (anything with a `name`) that `name` picks: the one whose name equals it
/// loosely, else the only one whose name starts with it. Otherwise no match, with suggestions.
template <class Entry>
    requires requires(const Entry& e) { std::string_view(e.name); }
[[nodiscard]] constexpr lookup_result<Entry> lookup(std::span<const Entry> entries, std::string_view name) {
    using entry = Entry;
    const std::vector<char> q = llmcost::detail::loose(name);
    lookup_result<entry> out;
    std::vector<const entry*> starting;
    for (const entry& e : entries) {
        const std::vector<char> n = llmcost::detail::loose(e.name);
        if (n == q) {
            out.match = &e;
            return out;
        }
        if (!q.empty() && n.size() > q.size() && std::equal(q.begin(), q.end(), n.begin())) starting.push_back(&e);
    }
    if (starting.size() == 1) {
        out.match = starting.front();
        return out;
    }
    // The product's bare name: it is the first word of every entry it starts.
    const auto first_word = [](std::string_view n) { return llmcost::detail::loose(n.substr(0, n.find(' '))); };
    if (starting.size() > 1 &&
        std::all_of(starting.begin(), starting.end(), [&](const entry* e) { return first_word(e->name) == q; })) {
        out.match = starting.front();
        return out;
    }
    if (starting.size() > 1) {
        out.ambiguous = true;
        for (const entry* e : starting) out.suggestions.push_back(e->name);
        return out;
    }
    // Closest first; equally close names in catalog order. A name is as close as the nearer of its
    // whole and its first word (the product: "H1OO" is two edits from the "H100" of "H100 PCIe").
    std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (distance, position)
    std::size_t position = 0;
    for (const entry& e : entries)
        ranked.emplace_back(std::min(llmcost::detail::edit_distance(q, llmcost::detail::loose(e.name)),
                                     llmcost::detail::edit_distance(q, first_word(e.name))),
                            position++);
    std::sort(ranked.begin(), ranked.end());
    for (std::size_t i = 0; i < ranked.size() && i < lookup_suggestions; ++i)
        out.suggestions.push_back(entries[ranked[i].second].name);
    return out;
}
/// The same over a catalog array (or any contiguous container of entries).
template <class Entry, std::size_t N>
[[nodiscard]] constexpr lookup_result<Entry> lookup(const std::array<Entry, N>& entries, std::string_view name) {
    return lookup(std::span<const Entry>(entries), name);
}
template <class Entry>
[[nodiscard]] constexpr lookup_result<Entry> lookup(const std::vector<Entry>& entries, std::string_view name) {
    return lookup(std::span<const Entry>(entries), name);
}

/// A model or a GPU of the built-in catalog (`all_models`, `all_hardware`) by name:
/// `lookup<hardware>("h100")`, `lookup<model>("llama-3.1-70b")`.
template <class Entry>
    requires std::same_as<Entry, model> || std::same_as<Entry, hardware>
[[nodiscard]] constexpr lookup_result<Entry> lookup(std::string_view name) {
    if constexpr (std::same_as<Entry, model>) return lookup(all_models, name);
    else return lookup(all_hardware, name);
}

}  // namespace llmcost::catalog
