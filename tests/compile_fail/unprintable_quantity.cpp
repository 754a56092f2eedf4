// to_text prints the quantity types of units/system.hpp; J/B is none of them. The error names the
// concept.
// expect: printable_quantity
#include <llmcost/llmcost.hpp>

int main() {
    using namespace llmcost::literals;
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    const std::string s = llmcost::to_text(46.875_J / 500_tok);
#else
    const std::string s = llmcost::to_text(46.875_J / 40_GB);
#endif
    return s.empty() ? 1 : 0;
}
