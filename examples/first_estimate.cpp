// Your first estimate: Llama-3.1-70B on 8 × H100 at 32 users, 2,000-token prompts, 500-token answers.
// The README shows this file verbatim (test docs.readme_first_estimate).
#include <llmcost/catalog.hpp>   // the data: GPUs, models, engines, prices
#include <llmcost/llmcost.hpp>   // the formulas

#include <iostream>

using namespace llmcost;
using namespace llmcost::literals;

int main() {
    constexpr deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    constexpr request_shape r{.input = 2000_tok, .output = 500_tok};
    constexpr request_estimate e = estimate(d, r, {.batch = 32});  // priced at compile time
    static_assert(e.point.tpot < 50_ms, "32 users still read faster than 20 tokens/s each");

    std::cout << "time to first token  " << e.point.ttft << '\n'
              << "time per output token " << e.point.tpot << '\n'
              << "output tokens/s       " << e.point.output_rate << '\n'
              << "KV cache per token    " << e.kv_bytes_per_token * 1_tok << '\n';
}
