// The catalog's GEMM tables, checked at compile time (docs/amd-hipblaslt-tables.md): the glitch rule's count in
// each table, the range every shape covers, and one layer's time by hand from the published µs.
#include <llmcost/catalog/gemm_tables.hpp>

namespace {
using llmcost::catalog::mi325x_llama2_70b_server;
using llmcost::catalog::mi325x_llama2_70b_spx1700;

static_assert(mi325x_llama2_70b_server.glitches == 9, "9 entries over 1.3x both neighbours in the Server table");
static_assert(mi325x_llama2_70b_spx1700.glitches == 0, "none in B15");
static_assert(mi325x_llama2_70b_server.first == 20 && mi325x_llama2_70b_server.last == 187, "Server: 320 to 2,992 tokens");
static_assert(mi325x_llama2_70b_spx1700.first == 1 && mi325x_llama2_70b_spx1700.last == 161, "B15: 16 to 2,576 tokens");
// 512 tokens in the Server table: 80.8198 + 66.8977 + 366.986 + 212.68 µs.
static_assert(mi325x_llama2_70b_server.layer_us[32] > 727.3834 && mi325x_llama2_70b_server.layer_us[32] < 727.3836);
// The down projection at 640 tokens: 592.47 µs published, (248.892 + 248.898) ÷ 2 used.
static_assert(mi325x_llama2_70b_server.entry_us(3, 640.0) > 248.8949 && mi325x_llama2_70b_server.entry_us(3, 640.0) < 248.8951);
}  // namespace
