// A tiny outside project: uses llmcost the way a user's tool would — the core, and the planning
// layer's compiled library (llmcost::plan: llmcost_plan, or header-only with LLMCOST_PLAN_HEADER_ONLY).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/fleet.hpp>

#include <cstdio>

int main() {
    using namespace llmcost::literals;
    constexpr auto pass = llmcost::transfer_time(40_GB, 20_TBps);  // seed S27
    static_assert(pass == 2_ms);
    std::printf("consumer: one pass of 40 GB at 20 TB/s takes %s\n", llmcost::to_text(pass).c_str());
    // A function whose body is in llmcost_plan: links only if the library is installed and exported.
    const auto layouts = llmcost::plan::candidate_layouts(llmcost::catalog::llama_3_1_70b, llmcost::catalog::h100_sxm5, 8);
    std::printf("consumer: llmcost::plan lays Llama-3.1-70B out %zu ways on up to 8 H100s\n", layouts.size());
    return 0;
}
