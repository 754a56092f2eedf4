// `llmcost estimate --engine vllm|sglang` for every catalog model on every catalog GPU the engine has
// a profile for, through the tool itself (cli::run, what main() calls). A model is tried on the
// smallest layout of the ladder below that it fits (1, 2, 4, 8 GPUs of tensor parallelism, then
// 8 × 2 and 8 × 4 pipeline stages); each pair must price on one of them, and the engine must show.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "cli.hpp"

#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace {

struct outcome {
    int code = -1;
    std::string out, err;
};

outcome run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    outcome o;
    o.code = llmcost::cli::run(args, out, err);
    o.out = out.str();
    o.err = err.str();
    return o;
}

}  // namespace

TEST_CASE("estimate --engine vllm|sglang: every catalog model on every GPU the engine runs on") {
    using namespace llmcost;
    int priced = 0;
    for (const engine_kind kind : {engine_kind::vllm, engine_kind::sglang})
        for (const hardware& h : catalog::all_hardware) {
            const auto arch = catalog::architecture_of(h.name);
            if (!arch || !catalog::find_engine(kind, *arch)) continue;
            const engine_profile e = *catalog::find_engine(kind, *arch);
            for (const model& m : catalog::all_models) {
                if (m.name == catalog::seed_dashboard_model.name) continue;  // the seed's own, not a served model
                CAPTURE(std::string(to_string(kind)));
                CAPTURE(std::string(h.name));
                CAPTURE(std::string(m.name));
                outcome last;
                bool ok = false;
                for (const auto& [tp, pp] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {4, 1}, {8, 1}, {8, 2}, {8, 4}}) {
                    last = run({"estimate", "--model", std::string(m.name), "--hardware", std::string(h.name), "--engine",
                                std::string(to_string(kind)), "--tp", std::to_string(tp), "--pp", std::to_string(pp),
                                "--input", "1000", "--output", "200", "--batch", "4"});
                    if (last.code == 0) {
                        ok = true;
                        break;
                    }
                    REQUIRE(last.code == 1);  // refused by the model (does not fit, tp vs heads): never a usage error
                }
                CAPTURE(last.err);
                REQUIRE(ok);
                CHECK(last.out.find(std::string("Engine: ") + std::string(e.name)) != std::string::npos);
                ++priced;
            }
        }
    // 14 catalog GPUs have a vLLM and an SGLang profile (7 Hopper, 4 Blackwell, 2 CDNA 3, 1 CDNA 4).
    CHECK(priced == 2 * 14 * static_cast<int>(llmcost::catalog::all_models.size() - 1));
}
