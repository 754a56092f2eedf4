#pragma once
/// \file
/// Stable storage for names read at run time. Descriptors hold `std::string_view name` so that
/// catalog entries stay `constexpr`; a name read from a file needs an owner that outlives every
/// descriptor that points at it. `intern` is that owner.
///
/// Lifetime: interned strings are never freed (until the program exits). A tool loads a handful
/// of configs, so the leak is bounded by what the user asked to read; in exchange a loaded model
/// can be copied, stored and compared freely without a dangling `name`.

#include <deque>
#include <mutex>
#include <string>
#include <string_view>

namespace llmcost::io {

namespace detail {
struct intern_pool {
    std::mutex mutex;
    // A deque never moves its elements when it grows at the back, and a std::string's heap buffer
    // does not move either, so views into it stay valid (short strings live inside the object,
    // which is why the element itself must not move — hence deque, not vector).
    std::deque<std::string> strings;
};
/// One pool per program: a function-local static in an inline function is shared by all
/// translation units.
inline intern_pool& pool() {
    static intern_pool p;
    return p;
}
}  // namespace detail

/// Returns a view of a copy of `s` that stays valid for the rest of the program. Equal strings
/// are stored once. Thread-safe.
[[nodiscard]] inline std::string_view intern(std::string s) {
    detail::intern_pool& p = detail::pool();
    const std::lock_guard<std::mutex> lock(p.mutex);
    for (const std::string& existing : p.strings)  // linear: the pool holds a few names, not many
        if (existing == s) return existing;
    return p.strings.emplace_back(std::move(s));
}

}  // namespace llmcost::io
