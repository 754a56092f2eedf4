#pragma once
/// \file
/// The whole `llmcost` tool as a function: arguments in (without the program name), text out,
/// an exit code back (0 done, 1 the cost model refused the input, 2 a usage error). main() is a
/// one-line wrapper; tests and the argument fuzzer call it directly.

#include <ostream>
#include <string>
#include <vector>

namespace llmcost::cli {

/// Exit codes: 0 done, 1 the cost model refused the input, 2 a usage error, 3 an output could not
/// be written (a file named by a flag, or `out` itself: a full disk, a closed pipe).
[[nodiscard]] int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

/// Flushes `out` and `err` and returns `code`, or 3 when `out` could not be written (saying why on
/// `err`, with errno's reason when the stream set one), or when `err` could not and `code` was 0.
[[nodiscard]] int finish(int code, std::ostream& out, std::ostream& err);

}  // namespace llmcost::cli
