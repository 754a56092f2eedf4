// Adding a size to a time has no meaning; Boost.Units refuses to add two different dimensions.
// expect: error: no match for .*operator\+|invalid operands to binary expression
#include <llmcost/units.hpp>

int main() {
    using namespace llmcost::literals;
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    auto total = 40_GB + 2_GB;
#else
    auto total = 40_GB + 2_ms;
#endif
    return total.value() > 0 ? 0 : 1;
}
