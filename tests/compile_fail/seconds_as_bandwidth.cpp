// A rate is bytes per second; passing a time where a bandwidth is expected names the concept.
// expect: bandwidth
#include <llmcost/llmcost.hpp>

int main() {
    using namespace llmcost::literals;
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    auto t = llmcost::transfer_time(40_GB, 20_TBps);
#else
    auto t = llmcost::transfer_time(40_GB, 20_ms);
#endif
    return t.value() > 0 ? 0 : 1;
}
