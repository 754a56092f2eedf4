#pragma once
/// \file
/// The whole `llmcost` tool as a function: arguments in (without the program name), text out,
/// an exit code back (0 done, 1 the cost model refused the input, 2 a usage error). main() is a
/// one-line wrapper; tests and the argument fuzzer call it directly.

#include <ostream>
#include <string>
#include <vector>

namespace llmcost::cli {

[[nodiscard]] int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

}  // namespace llmcost::cli
