// Quantities hold doubles; scaling by an int literal is refused rather than silently converted.
// expect: no match for .*operator\*|invalid operands to binary expression
#include <llmcost/units.hpp>

int main() {
    using namespace llmcost::literals;
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    auto kv = 327680_B * 2.0;
#else
    auto kv = 327680_B * 2;
#endif
    return kv.value() > 0 ? 0 : 1;
}
