// An accelerator whose HBM would hold 288 GiB in one stack is refused at compile time.
// expect: more than any HBM stack
#include <llmcost/catalog/hardware.hpp>

using namespace llmcost;

constexpr hardware bad = checked(from_row({"bad", 288,
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    8,
#else
    1,
#endif
    8.0, 2250, 4500, 9000, 4500, 1000, 140, 0.9, 0.6, 798, 0.33, 4, "NVLink", 1800, 3.7, 8, "NIC", 400, 2, 8,
    "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 0, "spec", 0, 1, 0}));

int main() { return bad.gpu.hbm_stacks > 0 ? 0 : 1; }
