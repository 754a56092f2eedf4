// A tiny outside project: uses llmcost the way a user's tool would.
#include <llmcost/llmcost.hpp>

#include <cstdio>

int main() {
    using namespace llmcost::literals;
    constexpr auto pass = llmcost::transfer_time(40_GB, 20_TBps);  // seed S27
    static_assert(pass == 2_ms);
    std::printf("consumer: one pass of 40 GB at 20 TB/s takes %s\n", llmcost::format(pass).c_str());
    return 0;
}
