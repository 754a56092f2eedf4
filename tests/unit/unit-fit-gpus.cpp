// The validation tool's recorded fit GPUs (examples/tools/validation/fit_gpus.hpp, tables/engine_fits.csv): a fit
// picks its calibration subset on the GPU its shipped figures were fitted on, whatever rows are added on another
// GPU; the rule's pick (most rows) only where no fit is recorded; the loader's refusals name file:line:column, the
// value and the rule. Synthetic rows and tables, each expectation worked from the rule's text.
#include <llmcost/catalog.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>

#include <doctest/doctest.h>

#include "validation/fit_gpus.hpp"

#include <string>
#include <vector>

using namespace llmcost;

namespace {

plan::measurement row_on(std::string id, const hardware& hw) {
    plan::measurement x;
    x.id = std::move(id);
    x.engine = plan::serving_engine::vllm;
    x.d.hw = hw;
    x.what = plan::metric::tpot_s;
    x.value = 0.01;
    return x;
}

std::vector<const plan::measurement*> pointers(const std::vector<plan::measurement>& rows) {
    std::vector<const plan::measurement*> p;
    for (const plan::measurement& x : rows) p.push_back(&x);
    return p;
}

validation::fit_records records_of(const std::string& text) {
    return validation::read_fit_records(io::parse_csv(text, "fits.csv"));
}

const std::string header = "profile,fit,gpu,source,note\n";

/// The loader's refusal of `text`: its message (empty if it loads).
std::string refusal(const std::string& text) {
    try {
        (void)records_of(text);
    } catch (const io::load_error& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("fit GPU: a recorded GPU does not move when rows on another GPU outnumber it") {
    const validation::fit_records records = records_of(header + "vLLM on Hopper,launch,H200 SXM,a report,\n");
    // 3 rows on H200: recorded, and the rule's pick too.
    std::vector<plan::measurement> rows{row_on("a1", catalog::h200_sxm), row_on("a2", catalog::h200_sxm),
                                        row_on("a3", catalog::h200_sxm)};
    const validation::fit_gpu before = validation::choose_fit_gpu(records, "vLLM on Hopper", validation::fit_kind::launch, pointers(rows));
    CHECK(before.gpu == "H200 SXM");
    CHECK(before.recorded);
    // 4 rows added on H100: H100 has the most rows (4 against 3), the rule would move; the record does not.
    for (const char* id : {"b1", "b2", "b3", "b4"}) rows.push_back(row_on(id, catalog::h100_sxm5));
    REQUIRE(validation::busiest_gpu(pointers(rows)) == "H100 SXM5");
    const validation::fit_gpu after = validation::choose_fit_gpu(records, "vLLM on Hopper", validation::fit_kind::launch, pointers(rows));
    CHECK(after.gpu == "H200 SXM");
    CHECK(after.recorded);
    CHECK(after.origin() == "recorded");
    // Another fit of the same profile with no record: the rule's pick, H100, and said so.
    const validation::fit_gpu front = validation::choose_fit_gpu(records, "vLLM on Hopper", validation::fit_kind::front_end, pointers(rows));
    CHECK(front.gpu == "H100 SXM5");
    CHECK_FALSE(front.recorded);
    CHECK(front.origin() == "rule");
    // Another profile with no record: the rule's too.
    CHECK_FALSE(validation::choose_fit_gpu(records, "SGLang on Hopper", validation::fit_kind::launch, pointers(rows)).recorded);
    // No record and no row: no GPU.
    CHECK(validation::choose_fit_gpu(records, "SGLang on Hopper", validation::fit_kind::launch, {}).gpu.empty());
}

TEST_CASE("fit GPU: the front-end subset on the recorded GPU, not on the GPU with most rows") {
    // Two candidates on H200 at concurrency 4 and three H100 rows at concurrency 1: on H200 (recorded) the subset is
    // both H200 rows (two candidates give both; cap ⌊5 ÷ 3⌋ = 1 takes the first by id, h1).
    std::vector<plan::measurement> rows;
    for (const char* id : {"h2", "h1"}) {
        plan::measurement x = row_on(id, catalog::h200_sxm);
        x.batch = 4;
        x.r = {.input = tokens(1000.0), .output = tokens(100.0)};
        rows.push_back(x);
    }
    for (const char* id : {"k1", "k2", "k3"}) {
        plan::measurement x = row_on(id, catalog::h100_sxm5);
        x.batch = 1;
        x.r = {.input = tokens(1000.0), .output = tokens(100.0)};
        rows.push_back(x);
    }
    const validation::front_end_rows on_h200 = validation::front_end_subset(pointers(rows), "H200 SXM");
    CHECK(on_h200.gpu == "H200 SXM");
    CHECK(on_h200.concurrency == 4.0);
    REQUIRE(on_h200.subset.size() == 1);
    CHECK(on_h200.subset.front()->id == "h1");
    // The rule alone picks H100 (3 rows against 2).
    CHECK(validation::front_end_subset(pointers(rows)).gpu == "H100 SXM5");
}

TEST_CASE("fit GPU: the loader reads every fit word and refuses bad rows with file:line:column, value and rule") {
    const validation::fit_records ok = records_of(header +
                                                  "vLLM on Hopper,launch,H200 SXM,s,\n"
                                                  "vLLM on Hopper,front_end,H200 SXM,s,\n"
                                                  "vLLM on Hopper,cold_opening,H200 SXM,s,\n"
                                                  "vLLM on Hopper,v0_host_loop,H100 SXM5,s,\n"
                                                  "vLLM on CDNA3 (ROCm),host_enqueue,MI325X,s,\n"
                                                  "TensorRT-LLM 0.9-0.16 on Hopper (TensorRT engine + Triton),version,H200 SXM,s,\n");
    REQUIRE(ok.rows.size() == 6);
    CHECK(ok.rows[3].fit == validation::fit_kind::v0_host_loop);
    CHECK(ok.rows[3].line == 5);
    REQUIRE(ok.find("vLLM on CDNA3 (ROCm)", validation::fit_kind::host_enqueue) != nullptr);
    CHECK(ok.find("vLLM on CDNA3 (ROCm)", validation::fit_kind::host_enqueue)->gpu == "MI325X");
    CHECK(ok.find("vLLM on CDNA3 (ROCm)", validation::fit_kind::launch) == nullptr);

    // Line 2 is the first data row; columns count from 1 (profile 1, fit 2, gpu 3, source 4).
    CHECK(refusal(header + "vLLM on Hoper,launch,H200 SXM,s,\n") ==
          "llmcost: fits.csv:2:1: key \"profile\" = \"vLLM on Hoper\": unknown profile: not a name of tables/engines.csv");
    CHECK(refusal(header + "vLLM on Hopper,launch_cost,H200 SXM,s,\n") ==
          "llmcost: fits.csv:2:2: key \"fit\" = \"launch_cost\": unknown fit: one of launch, front_end, cold_opening, "
          "host_enqueue, v0_host_loop, version, v0_output, padded_moe_block");
    CHECK(refusal(header + "vLLM on Hopper,launch,H300 SXM,s,\n") ==
          "llmcost: fits.csv:2:3: key \"gpu\" = \"H300 SXM\": unknown GPU: not a name of tables/hardware.csv");
    CHECK(refusal(header + "vLLM on Hopper,launch,B200 (HGX),s,\n") ==
          "llmcost: fits.csv:2:3: key \"gpu\" = \"B200 (HGX)\": a GPU of blackwell, not of the profile's architecture (hopper)");
    CHECK(refusal(header + "vLLM on Hopper,launch,H200 SXM,,\n") ==
          "llmcost: fits.csv:2:4: key \"source\" = \"\": a recorded fit GPU names its source");
    CHECK(refusal(header + "vLLM on Hopper,launch,H200 SXM,s,\nSGLang on Hopper,launch,H200 SXM,s,\nvLLM on Hopper,launch,H100 SXM5,s,\n") ==
          "llmcost: fits.csv:4:2: key \"fit\" = \"launch\": profile and fit appear twice (first on line 2)");
    CHECK(refusal("profile,fit,gpu,note\n") == "llmcost: fits.csv:1: key \"source\": no such column in the header");
}

TEST_CASE("fit GPU: tables/engine_fits.csv loads, and records vLLM on Hopper's launch cost and front end on H200") {
    const validation::fit_records r = validation::load_fit_records(std::string(LLMCOST_TABLES_DIR) + "/engine_fits.csv");
    const validation::recorded_fit* launch = r.find("vLLM on Hopper", validation::fit_kind::launch);
    const validation::recorded_fit* front = r.find("vLLM on Hopper", validation::fit_kind::front_end);
    REQUIRE(launch != nullptr);
    REQUIRE(front != nullptr);
    CHECK(launch->gpu == "H200 SXM");
    CHECK(front->gpu == "H200 SXM");
}
