// tables/*.csv against the constexpr catalogs, their sources and published totals, and the
// messages of the table loaders for broken tables.
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/catalog/prices.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/hardware_csv.hpp>
#include <llmcost/io/models_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace llmcost;

namespace {

const std::filesystem::path tables_dir{LLMCOST_TABLES_DIR};

using test::contains;
using test::message_of;

// ---- building broken tables from the real ones ------------------------------------------------
// Each bad input is the real header and two real rows with one change in the second row, so the
// tests follow the tables when columns are added or reordered, and the broken row is on line 3
// (a line number that cannot be confused with the header's).

std::string quoted(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string q = "\"";
    for (const char c : field) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}
std::string csv_line(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) line += ',';  // appended: `"," + std::string` trips g++ 12's false -Wrestrict at -O3
        line += quoted(fields[i]);
    }
    return line + '\n';
}

struct table_text {
    std::vector<std::string> header, first, second;

    [[nodiscard]] std::string text() const { return csv_line(header) + csv_line(first) + csv_line(second); }
    [[nodiscard]] std::size_t index(std::string_view column) const {
        for (std::size_t i = 0; i < header.size(); ++i)
            if (header[i] == column) return i;
        FAIL("no column " << std::string(column));
        return 0;
    }
    /// The second row with `column` set to `value`.
    [[nodiscard]] table_text with(std::string_view column, std::string value) const {
        table_text t = *this;
        t.second[index(column)] = std::move(value);
        return t;
    }
    /// Both rows and the header without `column`.
    [[nodiscard]] table_text without(std::string_view column) const {
        table_text t = *this;
        const auto at = static_cast<std::ptrdiff_t>(index(column));
        t.header.erase(t.header.begin() + at);
        t.first.erase(t.first.begin() + at);
        t.second.erase(t.second.begin() + at);
        return t;
    }
};

table_text real_rows(std::string_view file) {
    const io::csv_table t = io::load_csv(tables_dir / file);
    REQUIRE(t.size() >= 2);
    return {t.header(), t.rows()[0].fields, t.rows()[1].fields};
}

/// Published parameter counts of one row of tables/models.csv, in billions (empty = none).
struct published_counts {
    std::optional<double> total_b, active_b;
};

}  // namespace

// ---- (a) the tables transcribe the catalogs ----------------------------------------------------

TEST_CASE("tables/hardware.csv equals catalog::all_hardware, row for row") {
    const std::vector<hardware> loaded = io::load_hardware_csv(tables_dir / "hardware.csv");
    REQUIRE(loaded.size() == catalog::all_hardware.size());
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        CAPTURE(std::string(loaded[i].name));
        CHECK(loaded[i].name == catalog::all_hardware[i].name);  // same order
        const hardware* entry = nullptr;
        for (const hardware& h : catalog::all_hardware)
            if (h.name == loaded[i].name) entry = &h;
        REQUIRE(entry != nullptr);
        // The parts first, so that a difference says where it is; then the whole descriptor.
        CHECK(loaded[i].gpu == entry->gpu);
        CHECK(loaded[i].scale_up == entry->scale_up);
        CHECK(loaded[i].scale_out == entry->scale_out);
        CHECK(loaded[i].host_memory == entry->host_memory);
        CHECK(loaded[i].storage == entry->storage);
        CHECK(loaded[i] == *entry);
    }
}

TEST_CASE("tables/models.csv equals catalog::all_models, row for row") {
    const std::vector<model> loaded = io::load_models_csv(tables_dir / "models.csv");
    REQUIRE(loaded.size() == catalog::all_models.size());
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        CAPTURE(std::string(loaded[i].name));
        CHECK(loaded[i].name == catalog::all_models[i].name);  // same order
        const model* entry = nullptr;
        for (const model& m : catalog::all_models)
            if (m.name == loaded[i].name) entry = &m;
        REQUIRE(entry != nullptr);
        CHECK(loaded[i].attention == entry->attention);
        CHECK(loaded[i].ffn == entry->ffn);
        CHECK(loaded[i].weights == entry->weights);
        CHECK(loaded[i].expert_weights == entry->expert_weights);
        CHECK(loaded[i] == *entry);
    }
}

// ---- (b) every figure has a source -------------------------------------------------------------

TEST_CASE("every row of tables/hardware.csv and tables/models.csv names its source") {
    for (const char* file : {"hardware.csv", "models.csv"}) {
        const io::csv_table t = io::load_csv(tables_dir / file);
        REQUIRE(t.size() > 0);
        for (std::size_t row = 0; row < t.size(); ++row) {
            CAPTURE(file);
            CAPTURE(t.field(row, "name"));
            CHECK_FALSE(t.field(row, "source").empty());
        }
    }
}

TEST_CASE("every catalog GPU has a price, so $/M and plan never say 'unknown' for one") {
    // Where no price was published the row borrows one and its source column says whose (the seed's
    // dashboard GPU borrows the Rubin row's: the seed prices no GPU).
    for (const hardware& h : catalog::all_hardware) {
        CAPTURE(std::string(h.name));
        CHECK(h.capex_per_gpu.value() > 0);
    }
}

// ---- (c) published totals ----------------------------------------------------------------------

TEST_CASE("tables/gpu_prices.csv equals catalog::gpu_market_prices, figure, source and date") {
    const io::csv_table t = io::load_csv(tables_dir / "gpu_prices.csv");
    REQUIRE(t.size() == catalog::gpu_market_prices.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        const gpu_market_price& p = catalog::gpu_market_prices[i];
        CAPTURE(p.gpu);
        CHECK(t.field(i, "gpu") == p.gpu);
        p.validate();
        // Each priced GPU is in the hardware catalog under exactly this name (the lookup is exact).
        CHECK(std::any_of(catalog::all_hardware.begin(), catalog::all_hardware.end(),
                          [&](const hardware& h) { return h.name == p.gpu; }));
        CHECK(catalog::market_price_of(p.gpu) == &p);
        CHECK(t.number(i, "on_demand_usd_per_gpu_hour").value() / 3600.0 == doctest::Approx(p.on_demand.per_gpu.value()).epsilon(1e-12));
        CHECK(t.field(i, "on_demand_source") == p.on_demand.source);
        CHECK(t.field(i, "on_demand_date") == p.on_demand.date);
        CHECK(t.number(i, "committed_usd_per_gpu_hour").value() / 3600.0 == doctest::Approx(p.committed.per_gpu.value()).epsilon(1e-12));
        CHECK(t.field(i, "committed_term") == p.committed_term);
        CHECK(t.field(i, "committed_source") == p.committed.source);
        CHECK(t.field(i, "committed_date") == p.committed.date);
        CHECK(p.on_demand.known());  // a row is there because a public on-demand price was found
    }
    // Figures as read off the sources (dollars per GPU-hour), so a slip in either file is caught.
    CHECK(catalog::market_price_of("H100 SXM5")->on_demand.per_gpu == dollars_per_hour(2.99));
    CHECK(catalog::market_price_of("H100 SXM5")->committed.per_gpu == dollars_per_hour(2.35));
    CHECK(catalog::market_price_of("GB200 (NVL72)")->on_demand.per_gpu.value() == doctest::Approx(9.08 / 2 / 3600).epsilon(1e-3));
    CHECK(catalog::market_price_of("A100 SXM 80GB")->on_demand.per_gpu.value() == doctest::Approx(0.000694).epsilon(1e-3));
    CHECK(catalog::market_price_of("GH200")->on_demand.per_gpu == dollars_per_hour(2.29));     // Lambda, 2026-09-20
    CHECK(catalog::market_price_of("H100 NVL")->on_demand.per_gpu == dollars_per_hour(3.19));  // RunPod Secure, 2026-11-09
    CHECK_FALSE(catalog::market_price_of("GH200")->committed.known());
    // None found (catalog/prices.hpp says why for each): capex + power, said so.
    for (const char* gpu : {"H800 SXM", "H20", "GB300 (NVL72)", "Rubin (VR200 NVL144)", "MI355X", "A100 PCIe 40GB"}) {
        CAPTURE(gpu);
        CHECK(catalog::market_price_of(gpu) == nullptr);
    }
}

TEST_CASE("gpu market prices: a price without its source, date or term, or above on-demand, is refused") {
    gpu_market_price p = *catalog::market_price_of("H100 SXM5");
    p.on_demand.date = {};
    CHECK(contains(test::validation_message(p), "source and date"));
    p = *catalog::market_price_of("H100 SXM5");
    p.committed_term = {};
    CHECK(contains(test::validation_message(p), "term"));
    p = *catalog::market_price_of("H100 SXM5");
    p.committed.per_gpu = dollars_per_hour(3.5);
    CHECK(contains(test::validation_message(p), "no more than on demand"));
    p = *catalog::market_price_of("H100 SXM5");
    p.on_demand.per_gpu = dollars_per_hour(-1.0);
    CHECK(contains(test::validation_message(p), "on_demand ($/s)"));
}

TEST_CASE("tables/models.csv: published parameter counts agree with the counted ones within 2%") {
    const io::csv_table t = io::load_csv(tables_dir / "models.csv");
    const std::vector<model> models = io::load_models_csv(tables_dir / "models.csv");
    REQUIRE(models.size() == t.size());
    const auto within_2_percent = [](double counted, double published) {
        return std::fabs(counted - published) <= 0.02 * published;
    };
    for (std::size_t row = 0; row < t.size(); ++row) {
        const model& m = models[row];
        CAPTURE(std::string(m.name));
        const published_counts p{t.number(row, "published_total_params_B"),
                                 t.number(row, "published_active_params_B")};
        // The seed's dashboard model is not a released model: it has no published total, only
        // the ledger's "40B read per pass". Every real model must have one.
        const bool seed = m.name == catalog::seed_dashboard_model.name;
        CHECK((seed || p.total_b.has_value()));
        if (p.total_b) {
            const double total = static_cast<double>(total_parameters(m)) / 1e9;
            CHECK(within_2_percent(total, *p.total_b));
        }
        if (p.active_b) {
            // OpenAI's 5.1B for gpt-oss-120b (3.61B for -20b) leaves out the input embedding (a row lookup, see
            // catalog/models.hpp), and the seed's 40B counts what one pass reads: both are the
            // matmul parameters. Every other published active count includes the embedding.
            const bool matmul_only = m.name == catalog::gpt_oss_120b.name || m.name == catalog::gpt_oss_20b.name || seed;
            const double active =
                static_cast<double>(matmul_only ? matmul_parameters(m) : active_parameters(m)) / 1e9;
            CHECK(within_2_percent(active, *p.active_b));
        }
    }
}

// ---- (d) broken tables: messages name the file, the line and the column ------------------------

TEST_CASE("hardware table: a missing column is named, at the header's line") {
    const std::string msg = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").without("hbm_bandwidth_TBps").text(), "bad-hw.csv"); });
    CHECK(contains(msg, "bad-hw.csv:1"));
    CHECK(contains(msg, "\"hbm_bandwidth_TBps\""));
    CHECK(contains(msg, "no such column"));
}

TEST_CASE("hardware table: a cell that is not a number") {
    const std::string msg = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("board_power_W", "700W").text(), "bad-hw.csv"); });
    CHECK(contains(msg, "bad-hw.csv:3:"));
    CHECK(contains(msg, "\"board_power_W\""));
    CHECK(contains(msg, "700W"));
    CHECK(contains(msg, "expected a number"));
}

TEST_CASE("hardware table: the compute fractions' clock is optional, and refused negative") {
    // A table from before the column loads, every GPU's fractions at no stated clock.
    const std::vector<hardware> old = io::parse_hardware_csv(real_rows("hardware.csv").without("compute_clock_MHz").text(), "old-hw.csv");
    REQUIRE_FALSE(old.empty());
    for (const hardware& h : old) CHECK(h.gpu.efficiency.compute_clock_MHz == 0.0);
    const std::string msg = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("compute_clock_MHz", "-1700").text(), "bad-hw.csv"); });
    CHECK(contains(msg, "bad-hw.csv:3:"));
    CHECK(contains(msg, "\"compute_clock_MHz\""));
    CHECK(contains(msg, "must not be negative"));
}

TEST_CASE("hardware table: the compute fractions' clock is refused above 10,000 MHz (a clock in Hz or kHz)") {
    // 1,700 MHz written in Hz: --clock 1600 would scale the fractions by 1600 / 1.7e9 and price every GEMM ~10^6
    // times slower (1e308 gave a TTFT of 2e303 s before the rule), so the loader refuses it at its cell.
    const std::string msg = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("compute_clock_MHz", "1.7e9").text(), "bad-hw.csv"); });
    CHECK(contains(msg, "bad-hw.csv:3:"));
    CHECK(contains(msg, "\"compute_clock_MHz\""));
    CHECK(contains(msg, "1.7e9"));
    CHECK(contains(msg, "llmcost.clock.range"));
    // The descriptor's own rule, for a GPU built in C++: 10,000 MHz is the bound, 0 (not stated) stays allowed.
    hardware h = catalog::mi325x;
    h.gpu.efficiency.compute_clock_MHz = 10'000.0;
    CHECK_NOTHROW(h.validate());
    h.gpu.efficiency.compute_clock_MHz = 0.0;
    CHECK_NOTHROW(h.validate());
    h.gpu.efficiency.compute_clock_MHz = 10'000.5;
    CHECK_THROWS_AS(h.validate(), invalid_input);
}

TEST_CASE("hardware table: the FP4 sustained fraction is optional (1 without it), and refused outside 0 < f <= 1") {
    // A table from before the column loads, every GPU's FP4 GEMMs at the datasheet's peak.
    const std::vector<hardware> old =
        io::parse_hardware_csv(real_rows("hardware.csv").without("fp4_sustained_fraction").text(), "old-hw.csv");
    REQUIRE_FALSE(old.empty());
    for (const hardware& h : old) CHECK(h.gpu.efficiency.fp4_sustained == 1.0);
    // An empty cell is the datasheet's too (README: "1 or absent"), not a refusal asking for a number.
    const std::vector<hardware> blank =
        io::parse_hardware_csv(real_rows("hardware.csv").with("fp4_sustained_fraction", "").text(), "blank-hw.csv");
    REQUIRE_FALSE(blank.empty());
    CHECK(blank.front().gpu.efficiency.fp4_sustained == 1.0);
    // The descriptor's rule lands on the column, with the value as typed.
    for (const char* bad : {"0", "1.2"}) {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("fp4_sustained_fraction", bad).text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"fp4_sustained_fraction\""));
        CHECK(contains(msg, std::string("\"") + bad + "\""));
        CHECK(contains(msg, "(0, 1]"));
    }
    const std::string negative = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("fp4_sustained_fraction", "-0.87").text(), "bad-hw.csv"); });
    CHECK(contains(negative, "\"fp4_sustained_fraction\""));
    CHECK(contains(negative, "must not be negative"));
}

TEST_CASE("hardware table: an FP4 sustained fraction on a GPU without FP4 units is refused at its cell") {
    // The second real row is H200 SXM, whose fp4_dense_TFLOPS is 0: a fraction other than 1 has no FP4 peak to scale.
    const table_text t = real_rows("hardware.csv");
    REQUIRE(t.second[t.index("fp4_dense_TFLOPS")] == "0");
    const std::string msg =
        message_of([&] { return io::parse_hardware_csv(t.with("fp4_sustained_fraction", "0.87").text(), "bad-hw.csv"); });
    const std::string column = std::to_string(t.index("fp4_sustained_fraction") + 1);
    CHECK(contains(msg, "bad-hw.csv:3:" + column + ":"));
    CHECK(contains(msg, "\"fp4_sustained_fraction\" = \"0.87\""));
    CHECK(contains(msg, "a sustained fraction of the FP4 peak needs FP4 units: on a GPU without them (dense.fp4 = 0) it is 1"));
    // 1 there is the datasheet's, accepted as the empty cell is.
    CHECK(io::parse_hardware_csv(t.with("fp4_sustained_fraction", "1").text(), "ok-hw.csv").size() == 2);
}

TEST_CASE("hardware table: the runtime's capacity is optional (the spec's without it), and refused above the spec") {
    // A table from before the column loads, every GPU's pool starting from its spec capacity.
    const std::vector<hardware> old =
        io::parse_hardware_csv(real_rows("hardware.csv").without("runtime_capacity_MiB").text(), "old-hw.csv");
    REQUIRE_FALSE(old.empty());
    for (const hardware& h : old) CHECK(h.gpu.runtime_hbm() == h.gpu.hbm_capacity);
    // The second row is the H200: 143,071.875 MiB = 150,021,734,400 B as CUDA reports it.
    const std::vector<hardware> real = io::parse_hardware_csv(real_rows("hardware.csv").text(), "hw.csv");
    REQUIRE(real.size() == 2);
    CHECK(real[1].name == "H200 SXM");
    CHECK(real[1].gpu.runtime_hbm().value() == doctest::Approx(150'021'734'400.0).epsilon(1e-15));
    // 141 GiB = 144,384 MiB: a runtime figure above it is refused on its column, as typed.
    const std::string above = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("runtime_capacity_MiB", "144385").text(), "bad-hw.csv"); });
    CHECK(contains(above, "bad-hw.csv:3:"));
    CHECK(contains(above, "\"runtime_capacity_MiB\""));
    CHECK(contains(above, "\"144385\""));
    CHECK(contains(above, "at most the spec capacity"));
    CHECK(io::parse_hardware_csv(real_rows("hardware.csv").with("runtime_capacity_MiB", "144384").text(), "ok-hw.csv").size() == 2);
    const std::string negative = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("runtime_capacity_MiB", "-1").text(), "bad-hw.csv"); });
    CHECK(contains(negative, "\"runtime_capacity_MiB\""));
    // A GiB figure typed into the MiB column (140 for 140.4 GiB) leaves the driver 99.9% of the spec: refused as a
    // unit slip, naming the column, not later as weights that do not fit.
    const std::string slip = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("runtime_capacity_MiB", "140").text(), "bad-hw.csv"); });
    CHECK(contains(slip, "\"runtime_capacity_MiB\""));
    CHECK(contains(slip, "at least 90%"));
}

TEST_CASE("hardware table: a negative bandwidth") {
    const std::string msg = message_of(
        [&] { return io::parse_hardware_csv(real_rows("hardware.csv").with("hbm_bandwidth_TBps", "-4.8").text(), "bad-hw.csv"); });
    CHECK(contains(msg, "bad-hw.csv:3:"));
    CHECK(contains(msg, "\"hbm_bandwidth_TBps\""));
    CHECK(contains(msg, "-4.8"));
    CHECK(contains(msg, "must not be negative"));
}

TEST_CASE("hardware table: a descriptor rule lands on the column it came from") {
    const table_text t = real_rows("hardware.csv");
    SUBCASE("scale-out bandwidth of zero: the link's rule, on the NIC's column (not the scale-up's)") {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(t.with("scaleout_Gbps_per_gpu", "0").text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"scaleout_Gbps_per_gpu\""));
        CHECK(contains(msg, "link bandwidth must be positive"));
    }
    SUBCASE("storage read bandwidth of zero: the tier's rule, on the storage column") {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(t.with("storage_read_GBps_per_gpu", "0").text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"storage_read_GBps_per_gpu\""));
    }
    SUBCASE("idle power above board power") {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(t.with("idle_power_W", "800").text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"idle_power_W\""));
        CHECK(contains(msg, "below board_power"));
    }
    SUBCASE("a fractional count") {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(t.with("hbm_stacks", "5.5").text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"hbm_stacks\""));
        CHECK(contains(msg, "whole number"));
    }
    SUBCASE("the same name twice") {
        const std::string msg = message_of(
            [&] { return io::parse_hardware_csv(t.with("name", t.first[t.index("name")]).text(), "bad-hw.csv"); });
        CHECK(contains(msg, "bad-hw.csv:3:"));
        CHECK(contains(msg, "\"name\""));
        CHECK(contains(msg, "appears twice (first on line 2)"));
    }
}

TEST_CASE("hardware table: a row with the wrong number of fields") {
    table_text t = real_rows("hardware.csv");
    t.second.pop_back();
    const std::string msg = message_of([&] { return io::parse_hardware_csv(t.text(), "bad-hw.csv"); });
    // The CSV reader refuses the row before any column is read, so it names the line, not a column.
    CHECK(contains(msg, "bad-hw.csv:3:"));
    CHECK(contains(msg, "wrong field count"));
}

TEST_CASE("hardware table: a file that is not there") {
    const std::string msg = message_of([] { return io::load_hardware_csv(tables_dir / "no-such-table.csv"); });
    CHECK(contains(msg, "no-such-table.csv"));
    CHECK(contains(msg, "no such file"));
}

TEST_CASE("model table: a missing column is named, at the header's line") {
    const std::string msg = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").without("mtp_modules").text(), "bad-models.csv"); });
    CHECK(contains(msg, "bad-models.csv:1"));
    CHECK(contains(msg, "\"mtp_modules\""));
    CHECK(contains(msg, "no such column"));
}

TEST_CASE("model table: KV heads that do not divide the query heads") {
    const std::string msg = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").with("kv_heads", "7").text(), "bad-models.csv"); });
    CHECK(contains(msg, "bad-models.csv:3:"));
    CHECK(contains(msg, "\"kv_heads\" = \"7\""));
    CHECK(contains(msg, "must divide query_heads"));
}

TEST_CASE("model table: routing skew, a column a table may leave out") {
    // Left out: 0, uniform routing (tables written before the column).
    const std::vector<model> old = io::parse_models_csv(real_rows("models.csv").without("routing_skew").text(), "old.csv");
    REQUIRE(old.size() == 2);
    CHECK(old[1].ffn.routing_skew == 0.0);
    // A dense model has no router to skew: the rule lands on the column.
    const std::string dense = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").with("routing_skew", "0.3").text(), "bad-models.csv"); });
    CHECK(contains(dense, "bad-models.csv:3:"));
    CHECK(contains(dense, "\"routing_skew\" = \"0.3\""));
    CHECK(contains(dense, "0 for a dense model"));
    const std::string negative = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").with("routing_skew", "-1").text(), "bad-models.csv"); });
    CHECK(contains(negative, "\"routing_skew\" = \"-1\""));
    CHECK(contains(negative, "[0, 10]"));
    const std::string nan = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").with("routing_skew", "nan").text(), "bad-models.csv"); });
    CHECK(contains(nan, "routing_skew"));
    // DeepSeek-V3's row carries its measured skew (blog4 Table 1: 164.1 ÷ 128).
    for (const model& m : io::load_models_csv(tables_dir / "models.csv"))
        if (m.name == "DeepSeek-V3") CHECK(m.ffn.routing_skew == 1.28);
}

TEST_CASE("model table: an unknown number format") {
    const std::string msg = message_of(
        [&] { return io::parse_models_csv(real_rows("models.csv").with("weights", "fp7").text(), "bad-models.csv"); });
    CHECK(contains(msg, "bad-models.csv:3:"));
    CHECK(contains(msg, "\"weights\" = \"fp7\""));
    CHECK(contains(msg, "unknown number format"));
    CHECK(contains(msg, "mxfp4"));  // the message lists what would have been accepted
}

TEST_CASE("model table: cells of the wrong kind") {
    const table_text t = real_rows("models.csv");
    SUBCASE("a count that is not a number") {
        const std::string msg =
            message_of([&] { return io::parse_models_csv(t.with("layers", "eighty").text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"layers\""));
        CHECK(contains(msg, "expected a number"));
    }
    SUBCASE("a negative count") {
        const std::string msg =
            message_of([&] { return io::parse_models_csv(t.with("hidden", "-4096").text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"hidden\""));
        CHECK(contains(msg, "must not be negative"));
    }
    SUBCASE("an empty count") {
        const std::string msg =
            message_of([&] { return io::parse_models_csv(t.with("vocab", "").text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"vocab\""));
        CHECK(contains(msg, "empty cell"));
    }
    SUBCASE("a flag that is not true or false") {
        const std::string msg =
            message_of([&] { return io::parse_models_csv(t.with("qkv_bias", "yes").text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"qkv_bias\""));
        CHECK(contains(msg, "expected true or false"));
    }
    SUBCASE("an unknown attention kind") {
        const std::string msg = message_of(
            [&] { return io::parse_models_csv(t.with("attention_kind", "sparse").text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"attention_kind\""));
        CHECK(contains(msg, "standard or latent"));
    }
    SUBCASE("top_k above the expert count, on an MoE row") {
        const table_text moe = t.with("routed_experts", "8").with("top_k", "9").with("expert_intermediate", "14336");
        const std::string msg = message_of([&] { return io::parse_models_csv(moe.text(), "bad-models.csv"); });
        CHECK(contains(msg, "bad-models.csv:3:"));
        CHECK(contains(msg, "\"top_k\""));
        CHECK(contains(msg, "must not exceed routed_experts"));
    }
}

TEST_CASE("model table: a row with the wrong number of fields") {
    table_text t = real_rows("models.csv");
    t.second.push_back("extra");
    const std::string msg = message_of([&] { return io::parse_models_csv(t.text(), "bad-models.csv"); });
    CHECK(contains(msg, "bad-models.csv:3:"));
    CHECK(contains(msg, "wrong field count"));
}
