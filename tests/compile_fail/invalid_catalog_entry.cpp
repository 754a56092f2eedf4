// A catalog entry that breaks a rule does not compile; the note names the field and the rule.
// expect: must divide query_heads
#include <llmcost/catalog/models.hpp>

using namespace llmcost;

constexpr model bad = checked(model{
    .name = "bad-gqa", .layers = 80, .hidden = 8192, .vocab = 32000,
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    .attention = {.query_heads = 64, .kv_heads = 8, .head_dim = 128},
#else
    .attention = {.query_heads = 64, .kv_heads = 7, .head_dim = 128},
#endif
    .ffn = {.intermediate = 28672},
    .max_position = 4096});

int main() { return bad.layers == 80 ? 0 : 1; }
