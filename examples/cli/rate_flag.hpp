#pragma once
/// \file
/// The one check of `--rate` (CLI11), shared by every command that takes one (cli.cpp, simulate_cli.hpp), and the
/// check of a text flag whose empty value would otherwise read as the flag left out.

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

/// A text flag given an empty value (`--dataset ""`) is refused naming what it takes, as --eager-prompt's and
/// --gemm-table's are: an empty string is how these flags say "not given", so it was silently read as left out.
[[nodiscard]] inline CLI::Validator not_empty(std::string takes) {
    return CLI::Validator{[takes](const std::string& s) -> std::string {
                              return s.empty() ? "an empty value names nothing; give " + takes : std::string{};
                          },
                          ""};
}

}  // namespace llmcost::cli
