// The dataset presets: tables/datasets.csv against catalog::all_datasets, figure for figure, and
// draws of each preset keeping the dataset's quantiles.
#include <llmcost/catalog/datasets.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/sim/sampler.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <utility>
#include <string>
#include <vector>

using namespace llmcost;

namespace {

const std::filesystem::path tables_dir{LLMCOST_TABLES_DIR};

}  // namespace

TEST_CASE("tables/datasets.csv equals catalog::all_datasets, two rows a dataset, each with a source") {
    const io::csv_table t = io::load_csv(tables_dir / "datasets.csv");
    REQUIRE(t.size() == 2 * catalog::all_datasets.size());
    for (std::size_t row = 0; row < t.size(); ++row) {
        const workload::dataset* d = catalog::all_datasets[row / 2];
        CAPTURE(std::string(d->name));
        CHECK(t.field(row, "name") == d->name);
        CHECK(t.field(row, "kind") == d->kind);
        CHECK(t.field(row, "side") == (row % 2 == 0 ? "input" : "output"));
        CHECK_FALSE(t.field(row, "source").empty());
        const workload::length_quantiles& q = row % 2 == 0 ? d->input : d->output;
        CHECK(t.number(row, "requests") == q.requests);
        CHECK(t.number(row, "mean_tokens") == q.mean);
        CHECK(t.number(row, "min_tokens") == q.min);
        CHECK(t.number(row, "p10_tokens") == q.p10);
        CHECK(t.number(row, "p25_tokens") == q.p25);
        CHECK(t.number(row, "p50_tokens") == q.p50);
        CHECK(t.number(row, "p75_tokens") == q.p75);
        CHECK(t.number(row, "p90_tokens") == q.p90);
        CHECK(t.number(row, "p95_tokens") == q.p95);
        CHECK(t.number(row, "p99_tokens") == q.p99);
        CHECK(t.number(row, "p999_tokens") == q.p999);
        CHECK(t.number(row, "max_tokens") == q.max);
        // Quantiles in order, the mean between the smallest and the largest.
        CHECK((q.min <= q.p10 && q.p10 <= q.p25 && q.p25 <= q.p50 && q.p50 <= q.p75 && q.p75 <= q.p90 &&
               q.p90 <= q.p95 && q.p95 <= q.p99 && q.p99 <= q.p999 && q.p999 <= q.max));
        CHECK((q.min <= q.mean && q.mean <= q.max));
    }
}

TEST_CASE("quantile_bins: by hand, and the shares sum to one") {
    // min 1, p10 10, p25 20, p50 40, p75 80, p90 160, p95 200, p99 320, p99.9 600, max 1000.
    const workload::length_quantiles q{.requests = 1, .mean = 1, .min = 1, .p10 = 10, .p25 = 20, .p50 = 40,
                                       .p75 = 80, .p90 = 160, .p95 = 200, .p99 = 320, .p999 = 600, .max = 1000};
    const auto b = workload::quantile_bins(q);
    static_assert(workload::quantile_bins({}).size() == 9);
    CHECK(b[0].lo == 1);
    CHECK(b[0].hi == 10);
    CHECK(b[3].lo == 40);
    CHECK(b[3].hi == 80);
    CHECK(b[6].lo == 200);
    CHECK(b[6].hi == 320);
    CHECK(b[6].weight == 0.04);
    CHECK(b[8].lo == 600);
    CHECK(b[8].hi == 1000);
    CHECK(b[8].weight == 0.001);
    double sum = 0;
    for (double s : workload::quantile_shares) sum += s;
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-15));
    // Mean of the histogram: Σ wᵢ·(loᵢ + hiᵢ)/2
    //   = .1·5.5 + .15·15 + .25·30 + .25·60 + .15·120 + .05·180 + .04·260 + .009·460 + .001·800
    //   = 0.55 + 2.25 + 7.5 + 15 + 18 + 9 + 10.4 + 4.14 + 0.8 = 67.64
    CHECK(workload::histogram(b).mean() == doctest::Approx(67.64));
}

TEST_CASE("dataset presets: draws keep the dataset's median and p90, and the lengths stay in range") {
    static_assert(catalog::find_dataset("sharegpt4") == &catalog::sharegpt4);
    static_assert(catalog::find_dataset("no-such-set") == nullptr);
    CHECK(catalog::dataset_names() ==
          "sharegpt4, arxiv-summarization, azure-conversation, azure-code, servegen-deepseek-r1");
    for (const workload::dataset* d : catalog::all_datasets) {
        CAPTURE(std::string(d->name));
        const workload::traffic t = d->traffic_with(workload::poisson(seconds(1.0)));
        t.validate();
        workload::sampler g(11);
        for (const auto& [law, q] : {std::pair{&t.input, &d->input}, std::pair{&t.output, &d->output}}) {
            std::vector<double> xs(40000);
            for (double& x : xs) x = g.length(*law);
            std::sort(xs.begin(), xs.end());
            CHECK(xs.front() >= std::max(1.0, q->min));
            CHECK(xs.back() <= q->max);
            // A draw's quantile lands in the dataset's quantile, within the spread of 40,000 draws
            // (±1% of rank around the median and p90, where the bins are dense) and whole tokens.
            auto at = [&](double p) { return xs[static_cast<std::size_t>(p * static_cast<double>(xs.size() - 1))]; };
            CHECK(at(0.49) <= q->p50 + 1);
            CHECK(at(0.51) >= q->p50 - 1);
            CHECK(at(0.89) <= q->p90 + 1);
            CHECK(at(0.91) >= q->p90 - 1);
            // The preset's mean against the dataset's: uniform draws within the bins move it by at
            // most 14% (code answers 31.8 against 27.9, reasoning prompts 1,442 against 1,268).
            CHECK(law->mean() == doctest::Approx(q->mean).epsilon(0.15));
        }
    }
}
