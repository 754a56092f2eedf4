// transfer_time wants a data_size; FLOPs are work, not bytes. The error names the concept.
// expect: data_size
#include <llmcost/llmcost.hpp>

int main() {
    using namespace llmcost::literals;
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    auto t = llmcost::transfer_time(40_GB, 20_TBps);
#else
    auto t = llmcost::transfer_time(40_TFLOP, 20_TBps);
#endif
    return t.value() > 0 ? 0 : 1;
}
