// The measured GEMM tables AMD's MLPerf harness loads (docs/amd-hipblaslt-tables.md): the catalog against its
// CSV field for field, the glitch rule, the range rules (below, gaps, above), the efficiency that puts a table's
// time into the step, and the refusals. Expectations are worked by hand from the published µs.
#include <llmcost/catalog/gemm_tables.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/plan/sweep.hpp>
#include <llmcost/serving/throughput.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace llmcost;

namespace {

const gemm_table& server = catalog::mi325x_llama2_70b_server;
const gemm_table& b15 = catalog::mi325x_llama2_70b_spx1700;

// Llama-2-70B, FP8 weights and KV, on one MI325X (AMD's harness: TP 1, eight replicas).
deployment llama2_mi325x(const gemm_table* table = nullptr, double run_clock = 0.0) {
    deployment d = with_formats(deployment{.m = catalog::llama_2_70b, .hw = catalog::mi325x}, formats::fp8, formats::fp8);
    d.gemm = {.table = table, .run_clock_MHz = run_clock};
    return d;
}

std::vector<std::vector<std::string>> csv_lines(const std::string& path) {  // no quoted cells in the columns read
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

}  // namespace

TEST_CASE("gemm tables: the catalog holds tables/gemm_table_entries.csv field for field") {
    const auto entries = csv_lines(std::string(LLMCOST_TABLES_DIR) + "/gemm_table_entries.csv");
    REQUIRE(entries.size() == 1 + 672 + 521);  // 168 measured sizes × 4 shapes; B15's 521
    CHECK(entries[0] == std::vector<std::string>{"table", "shape", "m_tokens", "k", "n", "time_us", "solution"});
    std::size_t seen_server = 0, seen_b15 = 0;
    for (std::size_t i = 1; i < entries.size(); ++i) {
        const auto& r = entries[i];
        const gemm_table* g = catalog::gemm_table_by_id(r[0]);
        REQUIRE(g != nullptr);
        std::size_t& seen = g == &server ? seen_server : seen_b15;
        REQUIRE(seen < g->entries.size());
        const gemm_table_entry& e = g->entries[seen++];
        const gemm_shape& s = g->shapes[static_cast<std::size_t>(e.shape)];
        CHECK(s.name == r[1]);
        CHECK(e.m_tokens == std::stod(r[2]));
        CHECK(s.k == std::stod(r[3]));
        CHECK(s.n == std::stod(r[4]));
        CHECK(e.time_us == std::stod(r[5]));
    }
    CHECK(seen_server == server.entries.size());
    CHECK(seen_b15 == b15.entries.size());
    const auto tables = csv_lines(std::string(LLMCOST_TABLES_DIR) + "/gemm_tables.csv");
    REQUIRE(tables.size() == 3);
    for (std::size_t i = 1; i < tables.size(); ++i) {  // id, gpu, clock_MHz lead each row, unquoted
        const gemm_table* g = catalog::gemm_table_by_id(tables[i][0]);
        REQUIRE(g != nullptr);
        CHECK(g->gpu == tables[i][1]);
        CHECK(g->clock_MHz == std::stod(tables[i][2]));
    }
    CHECK(catalog::gemm_table_by_id("no-such-table") == nullptr);
}

TEST_CASE("gemm tables: an entry over 1.3x both measured neighbours is a glitch, replaced by their mean") {
    CHECK(server.glitches == 9);
    CHECK(b15.glitches == 0);
    // Down projection (shape 3) at 640 tokens: published 592.47 µs between 248.892 (624) and 248.898 (656).
    CHECK(server.entry_us(3, 640.0) == doctest::Approx((248.892 + 248.898) / 2.0).epsilon(1e-15));
    CHECK(server.entry_us(3, 624.0) == 248.892);
    CHECK(gemm_glitch(100.0, 131.0, 100.0));
    CHECK_FALSE(gemm_glitch(100.0, 131.0, 101.0));  // over 1.3x one neighbour only
    CHECK_FALSE(gemm_glitch(100.0, 130.0, 100.0));  // not more than 1.3x
}

TEST_CASE("gemm tables: one layer's four projections at t tokens, below, inside, in a gap and above the table") {
    // 500 tokens run the rows of 512: 80.8198 + 66.8977 + 366.986 + 212.68 µs.
    CHECK(server.layer_seconds(500.0) == doctest::Approx(727.3835e-6).epsilon(1e-12));
    CHECK(server.layer_seconds(497.0) == server.layer_seconds(512.0));  // the 15 counts below a measured size copy it
    CHECK(server.layer_seconds(304.0) < 0.0);                           // below 305: no figure, the curve
    CHECK(server.layer_seconds(305.0) > 0.0);
    // Above 2,992: the rate at 2,992, T(2,992) · t ÷ 2,992.
    const double top = (363.689 + 295.109 + 2028.81 + 987.84) * 1e-6;
    CHECK(server.layer_seconds(3000.0) == doctest::Approx(top * 3000.0 / 2992.0).epsilon(1e-12));
    // B15 measures none of 513–687: 600 tokens (row 608) lie 96 ÷ 176 of the way from 512 to 688, shape by shape.
    const double w = 96.0 / 176.0;
    const double gap = (85.585 + (106.893 - 85.585) * w) + (68.3228 + (89.8269 - 68.3228) * w) +
                       (351.107 + (503.901 - 351.107) * w) + (222.116 + (301.645 - 222.116) * w);
    CHECK(b15.layer_seconds(600.0) == doctest::Approx(gap * 1e-6).epsilon(1e-12));
    // B15's gate/up and down end at 2,576 (its QKV and O at 2,592): above 2,576, the rate at 2,576.
    const double b15_top = (314.861 + 260.372 + 1795.96 + 907.525) * 1e-6;
    CHECK(b15.layer_seconds(2576.0) == doctest::Approx(b15_top).epsilon(1e-12));
    CHECK(b15.layer_seconds(2590.0) == doctest::Approx(b15_top * 2590.0 / 2576.0).epsilon(1e-12));
    CHECK(b15.layer_seconds(1.0) > 0.0);  // B15 starts at 16 tokens
    // The token range (first_tokens, last_tokens) is where layer_seconds has a figure: the Server table's 304 has
    // none and 305 has (row 320 = 16 · 20, 305 = 16 · 19 + 1); its largest size is 2,992 (rate beyond). B15 has a
    // figure from 1 token (row 16) and all four shapes to 2,576.
    CHECK(server.first_tokens().value() == 305.0);
    CHECK(server.last_tokens().value() == 2992.0);
    CHECK(b15.first_tokens().value() == 1.0);
    CHECK(b15.last_tokens().value() == 2576.0);
    CHECK(server.layer_seconds(server.first_tokens().value() - 1.0) < 0.0);
    // The four shapes' FLOPs a token: 2 · (8,192 · 10,240 + 8,192 · 8,192 + 8,192 · 57,344 + 28,672 · 8,192).
    CHECK(server.flops_per_token_layer() == 2.0 * 855638016.0);
}

TEST_CASE("gemm tables: the step's projections take the table's time at the run's clock") {
    // e(t) = 2 · t · Σ k·n ÷ (P · T(t) · f_table ÷ f_run): 500 tokens, P = 2,614.9 TFLOP/s, 1,700 ÷ 1,600.
    const double e = gemm_table_efficiency(server, 500.0, flops_per_second(2614.9e12), 1700.0 / 1600.0);
    CHECK(e == doctest::Approx(2.0 * 855638016.0 * 500.0 / (2614.9e12 * 727.3835e-6 * 1.0625)).epsilon(1e-12));
    CHECK(gemm_table_efficiency(server, 300.0, flops_per_second(2614.9e12), 1.0) < 0.0);
    CHECK(gemm_tuning{.table = &server, .run_clock_MHz = 1600.0}.time_scale() == 1700.0 / 1600.0);
    CHECK(gemm_tuning{.table = &server}.time_scale() == 1.0);

    // A decode step of 500 sequences: the dense projections last 80 layers × T(512) × 1,700 ÷ 1,600 with the table,
    // F ÷ (P · e(512)) on the size curve without (e = 0.5975 · s ÷ (s + 1,100) · 500 ÷ 512, s = ∛(512 · 8,192 ·
    // 28,672)); the LM head and every other term alike.
    const pass_cost with = decode_pass(llama2_mi325x(&server, 1600.0), 500.0, tokens(1000.0));
    const pass_cost without = decode_pass(llama2_mi325x(), 500.0, tokens(1000.0));
    const double s = std::cbrt(512.0 * 8192.0 * 28672.0);
    const double curve = 0.5975 * s / (s + 1100.0) * 500.0 / 512.0;
    const double flops = 2.0 * 500.0 * 80.0 * 855638016.0;
    CHECK(with.matmul_compute_time.value() - without.matmul_compute_time.value() ==
          doctest::Approx(80.0 * 727.3835e-6 * 1.0625 - flops / (2614.9e12 * curve)).epsilon(1e-4));  // the curve's cube roots are tabulated
    CHECK(with.matmul_memory_time.value() == without.matmul_memory_time.value());
    CHECK(with.attention_compute_time.value() == without.attention_compute_time.value());
    // Below the table (300 tokens): the curve, unchanged.
    CHECK(decode_pass(llama2_mi325x(&server, 1600.0), 300.0, tokens(1000.0)).matmul_compute_time.value() ==
          decode_pass(llama2_mi325x(), 300.0, tokens(1000.0)).matmul_compute_time.value());
}

TEST_CASE("gemm tables: refused for another GPU, format, model or TP degree") {
    auto refusal = [](const deployment& d) { return test::validation_message(d); };
    deployment d = llama2_mi325x(&server, 1600.0);
    d.hw = catalog::mi300x;
    CHECK(test::contains(refusal(d), "llmcost.gemm_table.gpu"));
    CHECK(test::contains(refusal(d), "mi325x-llama2-70b-server"));
    d = llama2_mi325x(&server, 1600.0);
    d.layout.tp = 2;
    const std::string tp2 = refusal(d);
    CHECK(test::contains(tp2, "llmcost.gemm_table.shapes"));
    CHECK(test::contains(tp2, "qkv"));
    deployment mix = with_formats(deployment{.m = catalog::mixtral_8x7b, .hw = catalog::mi325x}, formats::fp8, formats::fp8);
    mix.gemm = {.table = &server};
    CHECK(test::contains(refusal(mix), "llmcost.gemm_table.shapes"));
    deployment bf16{.m = catalog::llama_2_70b, .hw = catalog::mi325x};
    bf16.gemm = {.table = &server};
    CHECK(test::contains(refusal(bf16), "llmcost.gemm_table.format"));
    d = llama2_mi325x(&server, -5.0);
    CHECK(test::contains(refusal(d), "llmcost.clock.range"));
    // A checkpoint keeping an attention projection 16-bit prices it on its own curve: inside the table's QKV / O time
    // it would count twice (review 38). The LM head alone is not in the table: allowed.
    d = llama2_mi325x(&server, 1600.0);
    d.m.excluded.attention_output = true;
    CHECK(test::contains(refusal(d), "no attention projection kept 16-bit"));
    d = llama2_mi325x(&server, 1600.0);
    d.m.excluded.lm_head = true;
    CHECK(refusal(d).empty());
}

TEST_CASE("measurements: gemm_table names the table a row's harness loads, priced at the row's clock") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,clock_MHz,gemm_table\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "g.csv"); };
    const auto rows = rows_of(
        "A,check,Llama-2-70B,MI325X,vllm,0.9,1,1,1,8,fp8,fp8,fixed_batch,,,,,64,2000,200,tpot_s,0.05,s,s,1600,"
        "mi325x-llama2-70b-server\n"
        "B,check,Llama-2-70B,MI325X,vllm,0.9,1,1,1,8,fp8,fp8,fixed_batch,,,,,64,2000,200,tpot_s,0.05,s,s,1700,\n");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].harness_gemm_table == &server);
    CHECK(rows[1].harness_gemm_table == nullptr);
    const deployment a = plan::as_run(rows[0]);
    CHECK(a.gemm.table == &server);
    CHECK(a.gemm.run_clock_MHz == 1600.0);
    CHECK(plan::as_run(rows[1]).gemm.table == nullptr);
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const std::string unknown = error(
        "C,check,Llama-2-70B,MI325X,vllm,0.9,1,1,1,8,fp8,fp8,fixed_batch,,,,,64,2000,200,tpot_s,0.05,s,s,1600,b15\n");
    CHECK(test::contains(unknown, "g.csv:2"));
    CHECK(test::contains(unknown, "gemm_table"));
    CHECK(test::contains(unknown, "mi325x-llama2-70b-server, mi325x-llama2-70b-spx1700"));
    const std::string gpu = error(
        "D,check,Llama-2-70B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,fixed_batch,,,,,64,2000,200,tpot_s,0.05,s,s,1300,"
        "mi325x-llama2-70b-spx1700\n");
    CHECK(test::contains(gpu, "measured on MI325X"));
    const std::string shapes = error(
        "E,check,Llama-2-70B,MI325X,vllm,0.9,2,1,1,4,fp8,fp8,fixed_batch,,,,,64,2000,200,tpot_s,0.05,s,s,1600,"
        "mi325x-llama2-70b-server\n");
    CHECK(test::contains(shapes, "does not fit"));

    // tables/measurements.csv: the Server rows of AMD's harness load the Server table, its Interactive rows B15,
    // Vultr's, every Offline, Mixtral and MI300X row none (tables/scripts/amd_hipblaslt_tables.py, from the yamls).
    const auto all = io::load_measurements_csv(std::string(LLMCOST_TABLES_DIR) + "/measurements.csv");
    int on_server = 0, on_b15 = 0;
    for (const auto& x : all) {
        if (x.harness_gemm_table == &server) {
            ++on_server;
            CHECK(x.id.find("-ser-") != std::string::npos);
            CHECK(x.clock_MHz == 1600.0);
        } else if (x.harness_gemm_table == &b15) {
            ++on_b15;
            CHECK(x.id.find("-int-") != std::string::npos);
            CHECK(x.clock_MHz == 1700.0);
        }
        if (x.harness_gemm_table != nullptr) CHECK(x.id.find("Vultr") == std::string::npos);
    }
    CHECK(on_server == 10);
    CHECK(on_b15 == 10);
}

TEST_CASE("gemm tables: a pinned engine clock scales the curve's compute fractions and the table's time, as a row's") {
    // MI325X's fractions hold at 1,700 MHz (B15): at 1,600 the GEMM e∞ is 0.5975 · 1,600 ÷ 1,700 = 0.562353, the
    // table's time × 1,700 ÷ 1,600; 0: not pinned, nothing scaled.
    const deployment d = at_engine_clock(llama2_mi325x(&server), 1600.0);
    CHECK(d.hw.gpu.efficiency.matmul == doctest::Approx(0.5975 * 1600.0 / 1700.0).epsilon(1e-15));
    CHECK(d.gemm.time_scale() == 1700.0 / 1600.0);
    CHECK(d.hw.gpu.efficiency.compute_clock_MHz == 1700.0);  // the clock they were measured at stays stated
    const deployment none = at_engine_clock(llama2_mi325x(&server), 0.0);
    CHECK(none.hw.gpu.efficiency.matmul == catalog::mi325x.gpu.efficiency.matmul);
    CHECK(none.gemm.time_scale() == 1.0);
    // A GPU that states no clock for its fractions (H100 SXM5): the curve as it stands.
    REQUIRE(catalog::h100_sxm5.gpu.efficiency.compute_clock_MHz == 0.0);
    const deployment h100 = at_engine_clock(deployment{.m = catalog::llama_2_70b, .hw = catalog::h100_sxm5}, 1600.0);
    CHECK(h100.hw.gpu.efficiency.matmul == catalog::h100_sxm5.gpu.efficiency.matmul);
}

TEST_CASE("gemm tables: one clock rule, positive, finite, at most 10,000 MHz and the fractions at it at most 1") {
    // MI325X's GEMM e∞ 0.5975 at 1,700 MHz reaches 1 at 1,700 ÷ 0.5975 = 2,845.19 MHz (attention's is lower): 2,845
    // is allowed, 3,000 would price GEMMs at 0.5975 · 3,000 ÷ 1,700 = 1.054 of peak and is refused naming the field.
    const auto thrown = [](auto&& f) -> std::string {
        try {
            f();
        } catch (const invalid_input& e) {
            return e.what();
        }
        return "nothing thrown";
    };
    const auto message = [&](double f, std::string_view field = "clock_MHz") {
        return thrown([&] { (void)at_engine_clock(llama2_mi325x(&server), f, field); });
    };
    CHECK(at_engine_clock(llama2_mi325x(&server), 2845.0).hw.gpu.efficiency.matmul <= 1.0);
    CHECK(test::contains(message(3000.0), "llmcost.clock.fractions"));
    CHECK(test::contains(message(3000.0), "clock_MHz = 3000"));
    CHECK(test::contains(message(3000.0, "--clock"), "--clock = 3000"));
    CHECK(test::contains(message(std::nan("")), "llmcost.clock.range"));
    CHECK(test::contains(message(-1600.0), "llmcost.clock.range"));
    CHECK(test::contains(message(20000.0), "llmcost.clock.range"));
    // H100 states no clock for its fractions: only the range applies there.
    CHECK(at_engine_clock(deployment{.m = catalog::llama_2_70b, .hw = catalog::h100_sxm5}, 3000.0).hw.gpu.efficiency ==
          catalog::h100_sxm5.gpu.efficiency);
    // A sweep's clock takes the same rule on every GPU of its grid, before any block.
    plan::sweep_grid g{.gpus = {catalog::mi325x}, .clock_MHz = 3000.0};
    CHECK(test::contains(thrown([&] { g.validate(); }), "llmcost.clock.fractions"));
}

TEST_CASE("gemm tables: the sweep's lanes with a table equal the scalar formulas to the last bit") {
    // Llama-2-70B FP8 on one MI325X with the Server table at 1,600 MHz, as AMD's Server rows run: decode batches below
    // the table's 305 tokens (64), inside it (320, 500), 1,000-token prompts of 64 to 500 sequences (inside and
    // above its 2,992 tokens); at TP 2, which the table does not fit, every point is marked, never priced.
    const deployment d = at_engine_clock(llama2_mi325x(&server), 1600.0);
    plan::sweep_grid g{.m = d.m,
                       .gpus = {catalog::mi325x},
                       .formats = {{}},
                       .layouts = {{.tp = 1}, {.tp = 2}},
                       .modes = {{}},
                       .shapes = {{.input = tokens(1000.0), .output = tokens(200.0)}},
                       .batches = {64.0, 320.0, 500.0}};
    g.projection_table = &server;
    g.clock_MHz = 1600.0;
    const plan::sweep_result s = plan::sweep(g);
    g.projection_table = nullptr;
    const plan::sweep_result curve = plan::sweep(g);
    std::size_t compared = 0, refused = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const plan::sweep_point p = s.point(i);
        if (p.block->d.layout.tp == 2) {
            CHECK(p.status == plan::point_status::invalid_deployment);
            CHECK(test::contains(p.block->problem, "llmcost.gemm_table.shapes"));
            ++refused;
            continue;
        }
        REQUIRE(p.status == plan::point_status::ok);
        ++compared;
        CHECK(p.block->d.gemm.table == &server);
        CHECK(p.block->d.gemm.run_clock_MHz == 1600.0);
        const serving_point r = serve_at_batch(d, p.shape, p.batch, s.grid.limits);
        CHECK(r.tpot.value() == p.tpot.value());
        CHECK(r.ttft.value() == p.ttft.value());
        CHECK(r.output_rate_per_gpu.value() == p.output_rate_per_gpu.value());
        // The table is in the lanes: every point's 1,000-token prompt steps are inside its range (and its decode
        // steps from 320 on), so no point prices as the curve alone does.
        const plan::sweep_point c = curve.point(i);
        CHECK(p.tpot.value() != c.tpot.value());
        CHECK(p.ttft.value() != c.ttft.value());
    }
    CHECK(compared == 3);
    CHECK(refused == 3);
}
