#pragma once
/// \file
/// The one check of `--rate` (CLI11), shared by every command that takes one (cli.cpp, simulate_cli.hpp).

#include "numbers.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace llmcost::cli {

/// --rate, every command's: requests/s, positive and finite, at most `max_rate_per_s` (`read_rate`), rewritten
/// to its canonical spelling for CLI11 to convert.
inline const CLI::Validator rate_check{[](std::string& s) -> std::string {
                                           double v = 0;
                                           if (std::string why = read_rate(s, v); !why.empty()) return why;
                                           s = canonical(v);
                                           return {};
                                       },
                                       "REQUESTS/S"};

}  // namespace llmcost::cli
