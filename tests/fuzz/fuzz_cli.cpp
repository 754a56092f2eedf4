// libFuzzer harness: bytes → the whole `llmcost` tool, llmcost::cli::run(arguments, out, err).
// The input is split into arguments at every newline or NUL byte (a corpus file is one command
// line, one argument per line). The tool must never crash and must exit 0, 1 or 2; an escaped
// exception, a sanitizer report, a hang, another exit code or an "internal error" (an exception
// the tool did not expect, caught by its last-resort handler) is a finding.
//
// Files: the fuzzer must read and write none. The tool reads a file where `--model` or
// `--drafter` names a config.json (or its folder) rather than a catalog entry, and where
// `calibrate` is given its measurements CSV; it writes one only for `frontier --svg FILE`. So an
// input is skipped when an argument is `--svg` (or `--svg=…`), or when any argument, or the value
// after an '=' in one, contains '/' or ".json" or names anything that exists (".", "..", a
// folder in the working directory): those are the only arguments the tool opens as paths.
#include "cli.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool could_name_a_file(std::string_view a) {
    if (a.find('/') != std::string_view::npos || a.find(".json") != std::string_view::npos) return true;
    std::error_code ec;
    return !a.empty() && std::filesystem::exists(std::filesystem::path(a), ec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> arguments;
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n' || c == '\0') {
            arguments.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) arguments.push_back(std::move(current));
    if (arguments.size() > 64) return -1;  // longer command lines add nothing; -1: not added to the corpus
    for (const std::string& a : arguments) {
        if (a == "--svg" || a.starts_with("--svg=")) return -1;  // frontier --svg FILE writes FILE
        if (could_name_a_file(a)) return -1;
        if (const std::size_t eq = a.find('='); eq != std::string::npos && could_name_a_file(std::string_view(a).substr(eq + 1)))
            return -1;
    }

    std::ostringstream out, err;
    const int code = llmcost::cli::run(arguments, out, err);
    // 3 (an output could not be written) cannot happen here: no file is written and a string
    // stream takes every byte.
    if (code != 0 && code != 1 && code != 2) {
        std::fprintf(stderr, "fuzz_cli: exit code %d (expected 0, 1 or 2)\n%s", code, err.str().c_str());
        std::abort();
    }
    // The tool writes one message, so the last-resort handler's is the whole of err (an argument
    // echoed in a usage message cannot fake this: arguments hold no newline, messages start with
    // their own words).
    if (err.str().starts_with("llmcost: internal error: ")) {
        std::fprintf(stderr, "fuzz_cli: unexpected exception\n%s", err.str().c_str());
        std::abort();
    }
    return 0;
}
