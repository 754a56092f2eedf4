// llmcost — the command-line what-if tool (`llmcost --help`).
#include "cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
    return llmcost::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
