// Engine profiles: the descriptor's rules, the catalog against tables/engines.csv, the lookup's
// refusals, and what each engine figure does to a pass (hand-worked).
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

const std::filesystem::path tables_dir{LLMCOST_TABLES_DIR};

std::string refusal(auto&& f) {
    try {
        (void)f();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return {};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// An engine table of the loader's columns, then the optional `extra` ones (comma-separated; empty:
/// none) and `source`, with one row: `fields` for the loader's columns, `values` for the extra ones.
std::string engine_table(const std::string& fields, const std::string& extra, const std::string& values) {
    const std::string more = extra.empty() ? "" : "," + extra, cells = extra.empty() ? "" : "," + values;
    return test::engine_table_columns() + more + ",source\n" + fields + cells + ",my runs\n";
}

}  // namespace

TEST_CASE("tables/engines.csv equals catalog::all_engines, row for row") {
    const std::vector<engine_profile> loaded = io::load_engines_csv(tables_dir / "engines.csv");
    REQUIRE(loaded.size() == catalog::all_engines.size());
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        CAPTURE(std::string(loaded[i].name));
        const engine_profile& entry = catalog::all_engines[i];
        CHECK(loaded[i].name == entry.name);  // same order
        CHECK(loaded[i].kernels == entry.kernels);
        CHECK(loaded[i].overheads == entry.overheads);
        CHECK(loaded[i].collectives == entry.collectives);
        CHECK(loaded[i].scheduler == entry.scheduler);
        CHECK(loaded[i].moe == entry.moe);
        CHECK(loaded[i] == entry);
    }
}

TEST_CASE("the engine loader's field lists read each engine_row figure once: the check refuses a field twice or left out") {
    namespace ec = io::detail::engines_csv;
    // The loader's own list passes (its static_assert): 108 figure fields beside the 6 names, 114 columns.
    static_assert(ec::reads_each_once(ec::all_figure_fields, ec::row_figures));
    CHECK(ec::row_texts == 6);
    CHECK(ec::row_figures == 108);
    CHECK(ec::columns.size() == 114);
    CHECK(ec::all_figure_fields.size() + ec::row_texts == ec::columns.size());
    // A list one field short (the last left out), or one that reads a field twice, is refused.
    std::array<ec::figure_field, ec::all_figure_fields.size()> twice = ec::all_figure_fields;
    twice.back() = twice.front();
    CHECK_FALSE(ec::reads_each_once(twice, ec::row_figures));
    CHECK_FALSE(ec::reads_each_once(std::span(ec::all_figure_fields).first(ec::all_figure_fields.size() - 1), ec::row_figures));
    constexpr ec::figure_field two_same[] = {&engine_row::gemm, &engine_row::gemm};
    static_assert(!ec::reads_each_once(two_same, 2));
    constexpr ec::figure_field two[] = {&engine_row::gemm, &engine_row::weights};
    static_assert(ec::reads_each_once(two, 2));
}

TEST_CASE("the engine loader pairs columns and fields by name: its list is tables/engines.csv's header, column for column") {
    namespace ec = io::detail::engines_csv;
    // A figure column's entry names the engine_row member it fills by that member's own name.
    static_assert(ec::table_columns[4].column == "gemm" && ec::table_columns[4].figure == &engine_row::gemm);
    static_assert(ec::table_columns[5].column == "grouped_gemm" && ec::table_columns[5].figure == &engine_row::grouped_gemm);
    static_assert(ec::table_columns[ec::table_columns.size() - 2].column == "mla_absorbed_prefix_below_tokens" &&
                  ec::table_columns[ec::table_columns.size() - 2].figure == &engine_row::mla_absorbed_prefix_below_tokens);
    // The last column is a text, the router's model set: it fills no figure.
    static_assert(ec::table_columns.back().column == "router_whole_bf16" && ec::table_columns.back().figure == nullptr);
    static_assert(ec::table_columns[0].figure == nullptr && ec::table_columns[0].column == "name");
    // The list's figures stand in engine_row's member order (its static_assert): two entries swapped are refused, and
    // so is an entry with another column's member or name.
    static_assert(ec::figures_in_row_order(ec::table_columns) && ec::names_each_once(ec::table_columns));
    constexpr auto swapped = [] {
        auto l = ec::table_columns;
        std::swap(l[4], l[5]);  // gemm, grouped_gemm
        return l;
    }();
    static_assert(!ec::figures_in_row_order(swapped));
    constexpr auto other_member = [] {
        auto l = ec::table_columns;
        l[4].figure = &engine_row::grouped_gemm;
        return l;
    }();
    static_assert(!ec::figures_in_row_order(other_member));
    constexpr auto other_name = [] {
        auto l = ec::table_columns;
        l[4].column = "grouped_gemm";
        return l;
    }();
    static_assert(!ec::names_each_once(other_name));
    // The table's header, read here as text, is the loader's list in order and then source: two entries of the list
    // swapped would fail this (and the loader would refuse the table, below).
    std::ifstream in(tables_dir / "engines.csv");
    std::string header;
    std::getline(in, header);
    std::vector<std::string> names;
    std::stringstream cells(header);
    for (std::string cell; std::getline(cells, cell, ',');) names.push_back(cell);
    REQUIRE(names.size() == ec::columns.size() + 1);
    for (std::size_t i = 0; i < ec::columns.size(); ++i) {
        CAPTURE(i);
        CHECK(names[i] == ec::columns[i]);
    }
    CHECK(names.back() == "source");
    // Two neighbouring figures with their own values land in their own fields.
    const std::string row = "Mine,vllm,hopper,1,0.5,0.25,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1024,8192,0,0,0.9,16,0,0,0,0,0,1,0,0";
    const auto mine = io::parse_engines_csv(test::engine_table_columns() + ",source\n" + row + ",my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.gemm == 0.5);
    CHECK(mine[0].kernels.grouped_gemm == 0.25);
}

TEST_CASE("an engine table whose header has two columns swapped is refused with file, line, column and the rule") {
    // Hand-written: the required columns with gemm and grouped_gemm (columns 5 and 6) swapped. Read by name, the
    // cells written under them would swap the two GEMM ceilings; the loader refuses the header instead.
    const std::string swapped =
        "name,engine,architecture,version,grouped_gemm,gemm,expert_tile_rows,attention_prefill,attention_decode,"
        "attention_fp8,mla_decode,elementwise,weights,step_overhead_us,launch_eager_us,launch_graph_us,cuda_graphs,"
        "all_reduce_latency_us,custom_all_reduce_max_KiB,all_to_all_latency_us,library_all_reduce_us,"
        "library_all_reduce_bus_GBps,max_sequences,max_batched_tokens,chunked_prefill,chunk_tokens,kv_memory_fraction,"
        "kv_block_tokens,prefill_alone,expert_parallel,attention_dp,load_balancing,routing_skew,busiest_rank,"
        "mtp_draft_tokens,request_overhead_us,source\n"
        "Mine,vllm,hopper,1,0.5,0.25,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1024,8192,0,0,0.9,16,0,0,0,0,0,1,0,0,my runs\n";
    const std::string m = test::message_of([&] { return io::parse_engines_csv(swapped, "swapped.csv"); });
    CAPTURE(m);
    CHECK(test::contains(m, "swapped.csv:1:6: "));  // the file, the header's line, the column that stands too late
    CHECK(test::contains(m, "key \"gemm\""));
    CHECK(test::contains(m, "column 6 \"gemm\" stands after column 5 \"grouped_gemm\", which the engine table's column order puts after it"));
    CHECK(test::contains(m, "[llmcost.engines_csv.column_order]"));
    // Two optional columns swapped at the end (the SGLang init resident and long-context factor) are refused too;
    // source, which the loader does not read, may stand anywhere.
    const std::string base = "Mine,sglang,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,1,8192,0.875,1,1,0,0,0,0,1,0,0";
    const std::string late = test::message_of([&] {
        return io::parse_engines_csv(test::engine_table_columns() + ",long_context_fraction_scale,init_resident_MiB,source\n" +
                                         base + ",0,2175,my runs\n",
                                     "late.csv");
    });
    CAPTURE(late);
    CHECK(test::contains(late, "late.csv:1:38: "));
    CHECK(test::contains(late, "column 38 \"init_resident_MiB\" stands after column 37 \"long_context_fraction_scale\""));
    const std::string trtllm = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto first = io::parse_engines_csv("source," + test::engine_table_columns() + ",prefill_request_us\nmy runs," +
                                                 trtllm + ",9354\n",
                                             "first.csv");
    REQUIRE(first.size() == 1);
    CHECK(first[0].overheads.prefill_request.value() == doctest::Approx(9.354e-3).epsilon(1e-12));  // 9,354 us
}

TEST_CASE("every row of tables/engines.csv names its source, and every profile is one engine on one architecture and version range") {
    std::ifstream in(tables_dir / "engines.csv");
    std::string header, line;
    std::getline(in, header);
    CHECK(header.ends_with(",source"));
    int rows = 0;
    while (std::getline(in, line)) {
        ++rows;
        CAPTURE(line.substr(0, 40));
        CHECK(line.size() > 200);  // the source column is a sentence, never empty
        CHECK(line.back() == '"');
    }
    CHECK(rows == static_cast<int>(catalog::all_engines.size()));
    for (std::size_t i = 0; i < catalog::all_engines.size(); ++i)
        for (std::size_t j = i + 1; j < catalog::all_engines.size(); ++j)
            CHECK_FALSE((catalog::all_engines[i].kind == catalog::all_engines[j].kind &&
                         catalog::all_engines[i].architecture == catalog::all_engines[j].architecture &&
                         catalog::all_engines[i].version == catalog::all_engines[j].version));
}

TEST_CASE("one engine's profiles on one architecture: the version a row states picks the one whose range covers it") {
    // Ranges as tables/engines.csv writes them: lo-hi on (major, minor), text after them ignored.
    CHECK(catalog::version_covers("0.9-0.16", "0.14.0"));
    CHECK(catalog::version_covers("0.9-0.16", "0.9"));
    CHECK(catalog::version_covers("0.9-0.16", "0.16.1"));
    CHECK_FALSE(catalog::version_covers("0.9-0.16", "0.17"));
    CHECK_FALSE(catalog::version_covers("0.9-0.16", "0.8.9"));
    CHECK(catalog::version_covers("0.17-1.0", "1.0 (era; PyTorch backend)"));
    CHECK_FALSE(catalog::version_covers("0.17-1.0", "1.2.0rc2"));
    CHECK(catalog::version_covers("0.9-0.11 (ROCm)", "0.9.0.2.dev108+g71faa1880 (ROCm 6.4.1)"));
    CHECK_FALSE(catalog::version_covers("0.9-0.16", "MLPerf v5.1 NVIDIA harness (TensorRT 10.11"));
    CHECK_FALSE(catalog::version_covers("0.9", "0.9"));  // not a range
    // The lookup: the covering profile; the engine's default (its first row) otherwise.
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "0.14.0") == catalog::trtllm_hopper_trt_engine);
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "0.17") == catalog::trtllm_hopper);
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "1.2.0rc2") == catalog::trtllm_hopper);
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper, "unknown") == catalog::trtllm_hopper);
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::hopper) == catalog::trtllm_hopper);
    CHECK(catalog::find_engine(engine_kind::trtllm, gpu_architecture::blackwell, "0.14.0") == catalog::trtllm_blackwell);
    CHECK_FALSE(catalog::find_engine(engine_kind::trtllm, gpu_architecture::cdna3, "0.14.0").has_value());
    // --engine trtllm keeps the default.
    CHECK(catalog::engine_for(engine_kind::trtllm, catalog::h100_sxm5) == catalog::trtllm_hopper);
}

TEST_CASE("TensorRT-LLM 0.9-0.16 on Hopper: its fitted launch gap per kernel, CUDA graphs off, by hand") {
    const engine_profile& old = catalog::trtllm_hopper_trt_engine;
    CHECK_FALSE(old.overheads.cuda_graphs);
    CHECK(old.overheads.launch().value() == doctest::Approx(4.965e-6).epsilon(1e-9));
    CHECK(old.overheads.request.value() == doctest::Approx(5.954e-3).epsilon(1e-9));
    CHECK(old.overheads.step.value() == 0.0);
    // Everything but the host costs and the all-reduce is the default profile's; the all-reduce is the
    // v0.14 plugin's AUTO strategy from measured tables (B91, B92: docs/hopper-all-reduce.md).
    CHECK(old.kernels == catalog::trtllm_hopper.kernels);
    // The scheduler too, but for the non-KV memory: aiconfigurator models TensorRT-LLM 1.x, not the
    // TensorRT engine builds, so this profile keeps the flat 2 GB (docs/kv-pool.md).
    engine_scheduler sched = old.scheduler;
    sched.non_kv = catalog::trtllm_hopper.scheduler.non_kv;
    CHECK(sched == catalog::trtllm_hopper.scheduler);
    CHECK_FALSE(old.scheduler.non_kv.given());
    // A decode step of Llama-3.1-8B on one H100 (no all-reduce) is the default's plus kernels × 4.965 µs
    // (session 18's refit): with the hardware's 4 µs a kernel, the default's launch term is kernels × 4 µs,
    // so the old profile's is kernels × 8.965 µs, and the steps differ by exactly kernels × 4.965 µs.
    const deployment now{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::trtllm_hopper};
    deployment then = now;
    then.engine = old;
    const step_shape decode{.decode_sequences = 8.0, .decode_context = 500_tok};
    const pass_cost a = step_pass(now, decode), b = step_pass(then, decode);
    const double kernels = a.overhead_time.value() / 4e-6;
    CHECK(kernels == doctest::Approx(std::round(kernels)));  // a whole number of kernels
    CHECK(b.overhead_time.value() == doctest::Approx(kernels * 8.965e-6).epsilon(1e-12));
    CHECK(b.time().value() - a.time().value() == doctest::Approx(kernels * 4.965e-6).epsilon(1e-9));
}

TEST_CASE("TensorRT-LLM 0.9-0.16 on Hopper: the all-reduce plugin's AUTO strategy from measured tables (B91, B92), hand-worked") {
    // v0.14's plugin (AUTO): its one-shot kernel below 1,000,000 B at 3-4 ranks, NCCL above
    // (NVIDIA/TensorRT-LLM allreducePlugin.cpp selectImplementation; two-shot disabled, issue #2575).
    const engine_collectives& c = catalog::trtllm_hopper_trt_engine.collectives;
    CHECK(c.all_reduce_latency.value() == doctest::Approx(3.013e-6).epsilon(1e-12));          // B91 t₀
    CHECK(c.custom_all_reduce_bus.value() == doctest::Approx(159.4e9).epsilon(1e-12));        // B91 B
    CHECK(c.custom_all_reduce_max_at(4).value() == doctest::Approx(1'000'000.0).epsilon(1e-12));
    CHECK(c.custom_all_reduce_max_at(2).value() == doctest::Approx(16'000'000.0).epsilon(1e-12));  // one-shot up to the workspace
    CHECK(c.library_all_reduce.value() == doctest::Approx(16.0e-6).epsilon(1e-12));           // B92 a
    CHECK(c.library_all_reduce_bus.value() == doctest::Approx(310.7e9).epsilon(1e-12));       // B92 B
    deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 4}};
    d.engine = catalog::trtllm_hopper_trt_engine;
    SUBCASE("one-shot: a decode step of 8 sequences, 8 × 8192 × 2 B = 131,072 B a call, 160 calls") {
        // t = 3.013 µs + 131,072 · 2·3/4 ÷ 159.4 GB/s = 3.013 + 1.2334 = 4.246 µs (B91-128KiB measured 4.26 µs).
        const double one = 3.013e-6 + 131072.0 * 1.5 / 159.4e9;
        CHECK(one == doctest::Approx(4.2464e-6).epsilon(1e-4));
        CHECK(decode_pass(d, 8.0, 1000_tok).tp_time.value() == doctest::Approx(160 * one).epsilon(1e-9));
    }
    SUBCASE("NCCL: a 467-token prompt, 467 × 16,384 B = 7,651,328 B a call, 160 calls") {
        // t = 16.0 µs + 7,651,328 · 1.5 ÷ 310.7 GB/s = 16.0 + 36.94 = 52.94 µs (B92 measured 41.5 µs at 4 MiB and
        // 62.4 µs at 8 MiB); the link model priced it 2 × 3.7 µs + 7,651,328 · 1.5 ÷ 450 GB/s = 32.90 µs.
        const double nccl = 16.0e-6 + 7651328.0 * 1.5 / 310.7e9;
        CHECK(nccl == doctest::Approx(52.939e-6).epsilon(1e-4));
        const step_shape prompt{.prefill_sequences = 1.0, .prefill_tokens = 467_tok};
        CHECK(step_pass(d, prompt).tp_time.value() == doctest::Approx(160 * nccl).epsilon(1e-9));
        deployment link = d;
        link.engine.collectives = engine_collectives{};
        CHECK(step_pass(link, prompt).tp_time.value() == doctest::Approx(160 * (7.4e-6 + 7651328.0 * 1.5 / 450e9)).epsilon(1e-9));
    }
    SUBCASE("property: the all-reduce never shortens as the message grows, across the one-shot bound too") {
        const pass_model pm = prepare_pass(d);
        double previous = 0.0;
        for (double tokens = 1.0; tokens <= 4096.0; tokens += 1.0) {
            const double t = decode_pass(pm, tokens, 1000_tok).tp_time.value();
            CHECK(t >= previous);
            previous = t;
        }
        // At S → 0 only t₀ is left.
        const interconnect one_shot = custom_all_reduce_link(c, catalog::h100_sxm5.scale_up, 4, all_reduce_algorithm::two_shot);
        CHECK(all_reduce_time(bytes(0.0), 4, one_shot, all_reduce_algorithm::two_shot).value() == doctest::Approx(3.013e-6).epsilon(1e-12));
    }
    SUBCASE("bad values are named") {
        engine_profile e = catalog::trtllm_hopper_trt_engine;
        e.collectives.library_all_reduce_bus = gigabytes_per_second(-310.7);
        CHECK(has(test::validation_message(e), "collectives.library_all_reduce_bus (B/s) = -3.107e+11"));
        e = catalog::trtllm_hopper_trt_engine;
        e.collectives.library_all_reduce = seconds(std::numeric_limits<double>::quiet_NaN());
        CHECK(has(test::validation_message(e), "collectives.library_all_reduce (s) = nan"));
        e = catalog::trtllm_hopper_trt_engine;
        e.collectives.custom_all_reduce_max = bytes(0.0);
        CHECK(has(test::validation_message(e), "a custom all-reduce latency needs the largest message it runs"));
    }
}

TEST_CASE("engine table: a rule lands on the column it came from") {
    const std::string header =
        test::engine_table_columns() + ",source\n";
    auto row = [](const std::string& kv_fraction, const std::string& engine, const std::string& flag) {
        return "Mine," + engine + ",hopper,1,1,1,0,1,1,1,1,1,1,0,0,0," + flag + ",0,0,0,0,0,256,8192,1,8192," + kv_fraction +
               ",16,0,0,0,0,0,1,0,0,my runs\n";
    };
    const std::string good = header + row("0.9", "vllm", "1");
    REQUIRE(io::parse_engines_csv(good, "mine.csv").size() == 1);
    const std::string fraction = test::message_of([&] { return io::parse_engines_csv(header + row("1.5", "vllm", "1"), "mine.csv"); });
    CHECK(has(fraction, "mine.csv:2"));
    CHECK(has(fraction, "kv_memory_fraction"));
    CHECK(has(fraction, "(0, 1]"));
    const std::string engine = test::message_of([&] { return io::parse_engines_csv(header + row("0.9", "tgi", "1"), "mine.csv"); });
    CHECK(has(engine, "engine"));
    CHECK(has(engine, "trtllm, vllm, sglang"));
    const std::string flag = test::message_of([&] { return io::parse_engines_csv(header + row("0.9", "vllm", "2"), "mine.csv"); });
    CHECK(has(flag, "cuda_graphs"));
    CHECK(has(flag, "0 or 1"));
}

TEST_CASE("engine_profile::validate names the field, the value and the rule") {
    engine_profile e = catalog::vllm_hopper;
    e.kernels.gemm = std::numeric_limits<double>::quiet_NaN();
    CHECK(has(test::validation_message(e), "kernels.gemm = nan"));
    e = catalog::vllm_hopper;
    e.kernels.mla_decode = 0.0;
    CHECK(has(test::validation_message(e), "kernels.mla_decode = 0: a kernel-rate multiplier must be positive"));
    e = catalog::vllm_hopper;
    e.overheads.step = seconds(-1e-3);
    CHECK(has(test::validation_message(e), "overheads.step (s)"));
    e = catalog::vllm_hopper;
    e.scheduler.chunk = tokens(0.0);
    CHECK(has(test::validation_message(e), "chunked prefill needs a chunk"));
    e = catalog::vllm_hopper;
    e.collectives.custom_all_reduce_max = bytes(0.0);
    CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_max"));
    e = catalog::trtllm_blackwell;
    e.collectives.library_all_reduce = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(has(test::validation_message(e), "collectives.library_all_reduce (s) = nan"));
    e = catalog::trtllm_blackwell;
    e.collectives.library_all_reduce_bus = gigabytes_per_second(-619.0);
    CHECK(has(test::validation_message(e), "collectives.library_all_reduce_bus (B/s) = -6.19e+11: a bus bandwidth must be"));
    e = catalog::trtllm_hopper;
    e.collectives.custom_all_reduce_max_2_ranks = bytes(-16e6);
    CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_max_2_ranks (B) = -"));
    CHECK(has(test::validation_message(e), "must be zero or positive and finite"));
    e.collectives.custom_all_reduce_max_2_ranks = bytes(std::numeric_limits<double>::quiet_NaN());
    CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_max_2_ranks (B) = nan"));
    e.collectives.custom_all_reduce_max_2_ranks = bytes(std::numeric_limits<double>::infinity());
    CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_max_2_ranks (B) = inf"));
    e = catalog::trtllm_blackwell;
    e.collectives.library_all_reduce_bus = gigabytes_per_second(0.0);
    CHECK(has(test::validation_message(e), "needs both its fixed time and its bus bandwidth"));
    // With the GPU: 1.5 × H100's e∞ 0.7153 = 1.07 of the datasheet.
    e = catalog::vllm_hopper;
    e.kernels.gemm = 1.5;
    CHECK(test::validation_message(e).empty());
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = e};
    CHECK(has(test::validation_message(d), "kernels.gemm = 1.5: times the hardware's achievable fraction"));
}

TEST_CASE("engine_for: the profile of the GPU's architecture, or a refusal naming the alternatives") {
    CHECK(catalog::engine_for(engine_kind::vllm, catalog::h200_sxm) == catalog::vllm_hopper);
    CHECK(catalog::engine_for(engine_kind::sglang, catalog::mi355x) == catalog::sglang_cdna4);
    CHECK(catalog::engine_for(engine_kind::trtllm, catalog::gb200_nvl72) == catalog::trtllm_blackwell);
    CHECK(catalog::engine_for(engine_kind::reference, catalog::l4) == engine_profile::reference());
    const std::string amd = refusal([] { return catalog::engine_for(engine_kind::trtllm, catalog::mi300x); });
    CHECK(has(amd, "MI300X"));
    CHECK(has(amd, "trtllm has no profile for cdna3 GPUs; engines with a profile there: vllm, sglang"));
    CHECK(has(amd, "[llmcost.engine.not_on_gpu]"));
    const std::string ampere = refusal([] { return catalog::engine_for(engine_kind::vllm, catalog::a100_sxm_80gb); });
    CHECK(has(ampere, "vllm has no profile for ampere GPUs; engines with a profile there: none"));
    hardware mine = catalog::h100_sxm5;
    mine.name = "My GPU";
    CHECK(has(refusal([&] { return catalog::engine_for(engine_kind::sglang, mine); }), "does not know this GPU's architecture"));
    CHECK(catalog::engines_on(gpu_architecture::hopper) == "trtllm, vllm, sglang");
    CHECK(catalog::engines_on(gpu_architecture::cdna3) == "vllm, sglang");
}

TEST_CASE("the default engine is the reference, and TensorRT-LLM's kernels are the hardware table's but for its BF16 curve") {
    const deployment reference{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    CHECK(reference.engine == engine_profile::reference());
    deployment trt = reference;
    trt.engine = catalog::trtllm_hopper;
    // The Hopper profiles price dense BF16 GEMMs on their own curve (B75-B76): a BF16 prompt is faster.
    CHECK(prefill_pass(trt, 1.0, 400_tok, 0_tok).matmul_compute_time.value() <
          prefill_pass(reference, 1.0, 400_tok, 0_tok).matmul_compute_time.value());
    // The reference with that curve: every other figure the pass reads is the reference's.
    deployment plain = reference;
    plain.engine.kernels.bf16_gemm_efficiency = catalog::trtllm_hopper.kernels.bf16_gemm_efficiency;
    plain.engine.kernels.bf16_gemm_half_dim = catalog::trtllm_hopper.kernels.bf16_gemm_half_dim;
    // Dense, no MLA, no EP: every figure the pass reads is the reference's, to the last bit, while
    // its all-reduces stay in TensorRT-LLM's custom kernel (a token's hidden state is 8192 × 2 B =
    // 16,384 B: up to 488 tokens, 7,995,392 B ≤ 8,000,000 B at TP8).
    for (double batch : {1.0, 7.0, 64.0, 300.0, 488.0}) {
        const pass_cost a = decode_pass(plain, batch, 3000_tok);
        const pass_cost b = decode_pass(trt, batch, 3000_tok);
        CHECK(a.time().value() == b.time().value());
    }
    CHECK(prefill_pass(plain, 1.0, 400_tok, 0_tok).time().value() == prefill_pass(trt, 1.0, 400_tok, 0_tok).time().value());
    // Above it NCCL's fitted all-reduce runs (next test case); the rest of the pass is the reference's.
    const pass_cost a = prefill_pass(plain, 1.0, 2000_tok, 0_tok), b = prefill_pass(trt, 1.0, 2000_tok, 0_tok);
    CHECK(b.tp_time.value() > a.tp_time.value());
    CHECK(b.time().value() - b.tp_time.value() == doctest::Approx(a.time().value() - a.tp_time.value()).epsilon(1e-12));
}

TEST_CASE("engine figures in a pass, hand-worked") {
    const deployment ref{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    SUBCASE("host work per step adds to every step") {
        deployment d = ref;
        d.engine.overheads.step = 2.0_ms;
        const double before = decode_pass(ref, 16.0, 1000_tok).time().value();
        CHECK(decode_pass(d, 16.0, 1000_tok).time().value() == doctest::Approx(before + 0.002).epsilon(1e-12));
    }
    SUBCASE("launch cost per kernel: 10 per layer + 3 = 803 kernels") {
        deployment d = ref;
        d.engine.overheads.cuda_graphs = false;
        d.engine.overheads.launch_eager = 1.0_us;
        const double before = decode_pass(ref, 16.0, 1000_tok).overhead_time.value();
        CHECK(before == doctest::Approx(803 * 4e-6).epsilon(1e-12));
        CHECK(decode_pass(d, 16.0, 1000_tok).overhead_time.value() == doctest::Approx(803 * 5e-6).epsilon(1e-12));
    }
    SUBCASE("GEMM rate × 0.5: twice the GEMM compute time") {
        deployment d = ref;
        d.engine.kernels.gemm = 0.5;
        const pass_cost a = prefill_pass(ref, 1.0, 4000_tok, 0_tok), b = prefill_pass(d, 1.0, 4000_tok, 0_tok);
        CHECK(b.matmul_compute_time.value() == doctest::Approx(2.0 * a.matmul_compute_time.value()).epsilon(1e-12));
        CHECK(b.matmul_memory_time.value() == a.matmul_memory_time.value());
    }
    SUBCASE("custom all-reduce: 160 × (10.1 µs + 16384 B · 2·7/8 ÷ 450 GB/s) at batch 1") {
        deployment d = ref;
        d.engine = catalog::vllm_hopper;
        // One token's hidden state: 8192 × 2 B = 16 KiB, under vLLM's 256 KiB cap at TP8 (E99).
        CHECK(decode_pass(d, 1.0, 1000_tok).tp_time.value() == doctest::Approx(160 * (10.1e-6 + 16384 * 1.75 / 450e9)).epsilon(1e-9));
        CHECK(decode_pass(ref, 1.0, 1000_tok).tp_time.value() == doctest::Approx(160 * (2 * 3.7e-6 + 16384 * 1.75 / 450e9)).epsilon(1e-9));
        // 64 tokens: 1 MiB, above the cap: the link model again.
        CHECK(decode_pass(d, 64.0, 1000_tok).tp_time.value() == decode_pass(ref, 64.0, 1000_tok).tp_time.value());
    }
    SUBCASE("TensorRT-LLM on Blackwell: NCCL's fitted all-reduce above 1 MiB, the link model up to it") {
        // Llama-3.1-405B (hidden 16384, 126 layers: 252 all-reduces a pass) on 4 B200s: a token's
        // hidden state is 16384 × 2 B = 32 KiB, so 32 tokens are exactly 1 MiB, 33 tokens above it.
        const deployment base{.m = catalog::llama_3_1_405b, .hw = catalog::b200_hgx, .layout = {.tp = 4}};
        deployment trt = base;
        trt.engine = catalog::trtllm_blackwell;
        const double link32 = 252 * (2 * 3.7e-6 + 32 * 32768 * 1.5 / 900e9);
        CHECK(decode_pass(base, 32.0, 1000_tok).tp_time.value() == doctest::Approx(link32).epsilon(1e-9));
        CHECK(decode_pass(trt, 32.0, 1000_tok).tp_time.value() == doctest::Approx(link32).epsilon(1e-9));
        // Its own all-reduce op as measured on 8 B200 (B90: t₀ 5.416 µs, 160.7 GB/s of bus up to 1 MiB) is not
        // priced (docs/blackwell-kernels-aic.md); with it the same step would be 252 × (5.416 µs + 1,048,576 B ·
        // 2·3/4 ÷ 160.7 GB/s = 9.787 µs) = 252 × 15.20 µs = 3.831 ms, against the link model's 252 × 9.148 µs = 2.305 ms.
        deployment measured = trt;
        measured.engine.collectives.all_reduce_latency = microseconds(5.416);
        measured.engine.collectives.custom_all_reduce_bus = gigabytes_per_second(160.7);
        const double custom32 = 252 * (5.416e-6 + 32 * 32768 * 1.5 / 160.7e9);
        CHECK(custom32 == doctest::Approx(0.0038313).epsilon(1e-4));
        CHECK(link32 == doctest::Approx(0.0023053).epsilon(1e-4));
        CHECK(decode_pass(measured, 32.0, 1000_tok).tp_time.value() == doctest::Approx(custom32).epsilon(1e-9));
        // The same through the public formula, and the link's bandwidth where no bus bandwidth is given.
        const interconnect custom = custom_all_reduce_link(measured.engine.collectives, catalog::b200_hgx.scale_up, 4,
                                                           all_reduce_algorithm::two_shot);
        CHECK(all_reduce_time(bytes(1048576.0), 4, custom, all_reduce_algorithm::two_shot).value() ==
              doctest::Approx(custom32 / 252).epsilon(1e-12));
        engine_collectives unmeasured = measured.engine.collectives;
        unmeasured.custom_all_reduce_bus = bytes_per_second(0.0);
        const interconnect plain = custom_all_reduce_link(unmeasured, catalog::b200_hgx.scale_up, 4, all_reduce_algorithm::two_shot);
        CHECK(all_reduce_time(bytes(1048576.0), 4, plain, all_reduce_algorithm::two_shot).value() ==
              doctest::Approx(5.416e-6 + 1048576 * 1.5 / 900e9).epsilon(1e-12));
        CHECK(decode_pass(trt, 33.0, 1000_tok).tp_time.value() ==
              doctest::Approx(252 * (28.5e-6 + 33 * 32768 * 1.5 / 619e9)).epsilon(1e-9));
        // 1,000 tokens (32.77 MB): 252 × (28.5 µs + 32,768,000 B · 2·3/4 ÷ 619 GB/s) = 252 × 107.9 µs = 27.2 ms,
        // against the link model's 252 × (7.4 µs + 54.6 µs) = 15.6 ms.
        const double nccl = 252 * (28.5e-6 + 1000 * 32768 * 1.5 / 619e9);
        CHECK(nccl == doctest::Approx(0.027193).epsilon(1e-4));
        CHECK(decode_pass(trt, 1000.0, 1000_tok).tp_time.value() == doctest::Approx(nccl).epsilon(1e-9));
        CHECK(decode_pass(base, 1000.0, 1000_tok).tp_time.value() ==
              doctest::Approx(252 * (2 * 3.7e-6 + 1000 * 32768 * 1.5 / 900e9)).epsilon(1e-9));
        // The same size through the public formula: a + 2(n−1)/n · S ÷ B_bus.
        const interconnect lib = library_all_reduce_link(catalog::trtllm_blackwell.collectives, catalog::b200_hgx.scale_up, 4,
                                                         all_reduce_algorithm::two_shot);
        CHECK(all_reduce_time(bytes(32768000.0), 4, lib, all_reduce_algorithm::two_shot).value() ==
              doctest::Approx(nccl / 252).epsilon(1e-12));
        // TP1 has no all-reduce; TP above the scale-up domain keeps the link model (ring).
        deployment one = trt;
        one.layout.tp = 1;
        CHECK(decode_pass(one, 1000.0, 1000_tok).tp_time.value() == 0.0);
    }
    SUBCASE("TensorRT-LLM on Hopper: custom kernels up to 8,000,000 B (16,000,000 B at 2 ranks), NCCL's fitted all-reduce above") {
        // Llama-3.1-70B (hidden 8192, 80 layers: 160 all-reduces a pass) on 8 H100s: a token's hidden
        // state is 8192 × 2 B = 16,384 B, so 488 tokens are 7,995,392 B (custom kernel: the link
        // model) and 489 tokens 8,011,776 B (NCCL: a + 2(n−1)/n · S ÷ B_bus, a 58.95 µs, B_bus 460.7 GB/s).
        deployment trt = ref;
        trt.engine = catalog::trtllm_hopper;
        const double link488 = 160 * (2 * 3.7e-6 + 488 * 16384 * 1.75 / 450e9);
        CHECK(decode_pass(ref, 488.0, 1000_tok).tp_time.value() == doctest::Approx(link488).epsilon(1e-9));
        CHECK(decode_pass(trt, 488.0, 1000_tok).tp_time.value() == doctest::Approx(link488).epsilon(1e-9));
        CHECK(decode_pass(trt, 489.0, 1000_tok).tp_time.value() ==
              doctest::Approx(160 * (58.95e-6 + 489 * 16384 * 1.75 / 460.7e9)).epsilon(1e-9));
        // The lead's step (818 sequences, 13,402,112 B): 160 × (58.95 µs + 13,402,112 · 1.75 ÷ 460.7 GB/s
        // = 50.91 µs) = 160 × 109.86 µs = 17.58 ms, against the link model's 160 × (7.4 + 52.12 µs) = 9.52 ms.
        CHECK(decode_pass(trt, 818.0, 1000_tok).tp_time.value() == doctest::Approx(0.017577).epsilon(1e-4));
        CHECK(decode_pass(ref, 818.0, 1000_tok).tp_time.value() == doctest::Approx(0.009523).epsilon(1e-4));
        // At 2 ranks the workspace is 16,000,000 B: 700 tokens (11,468,800 B) stay in the custom kernel,
        // 977 tokens (16,007,168 B) go to NCCL: 160 × (58.95 µs + 16,007,168 · 2·1/2 ÷ 460.7 GB/s) = 14.99 ms.
        deployment two = trt, two_ref = ref;
        two.layout.tp = two_ref.layout.tp = 2;
        CHECK(decode_pass(two, 700.0, 1000_tok).tp_time.value() == decode_pass(two_ref, 700.0, 1000_tok).tp_time.value());
        CHECK(decode_pass(two, 977.0, 1000_tok).tp_time.value() ==
              doctest::Approx(160 * (58.95e-6 + 977 * 16384 / 460.7e9)).epsilon(1e-9));
        CHECK(decode_pass(two, 977.0, 1000_tok).tp_time.value() == doctest::Approx(0.014991).epsilon(1e-4));
    }
    SUBCASE("SGLang on CDNA4: AITER's custom all-reduce to 64 MiB, RCCL's curve above (B105, MI300X's fraction of the link)") {
        // DeepSeek-V3 (hidden 7168, 61 layers: 122 all-reduces a pass) on 8 MI355X: a token's hidden state is
        // 7168 × 2 B = 14,336 B, so 4,681 tokens are 67,106,816 B (under AITER's max_size 67,108,864 B) and 4,682
        // tokens 67,121,152 B (above it: RCCL, QuickReduce being off). Session 31's 16 MiB (SGLang's own
        // _MAX_CAR_SIZE) is AITER's 64 MiB since session 40 (docs/cdna-all-reduce.md §9).
        deployment d{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}};
        d.engine = catalog::sglang_cdna4;
        // Below 1,536 KiB the small-message model: 109 tokens (1,562,624 B), 122 × (6.3 µs + 1,562,624 · 2·7/8 ÷
        // 537.5 GB/s = 5.087 µs) = 122 × 11.387 µs = 1.3892 ms.
        CHECK(decode_pass(d, 109.0, 1000_tok).tp_time.value() ==
              doctest::Approx(122 * (6.3e-6 + 109 * 14336 * 1.75 / 537.5e9)).epsilon(1e-9));
        CHECK(decode_pass(d, 109.0, 1000_tok).tp_time.value() == doctest::Approx(0.0013892).epsilon(1e-4));
        // AITER's large-message curve: 122 × (2.80 µs + 67,106,816 · 1.75 ÷ 273.3 GB/s = 429.70 µs) = 52.765 ms.
        CHECK(decode_pass(d, 4681.0, 1000_tok).tp_time.value() ==
              doctest::Approx(122 * (2.80e-6 + 4681 * 14336 * 1.75 / 273.3e9)).epsilon(1e-9));
        CHECK(decode_pass(d, 4681.0, 1000_tok).tp_time.value() == doctest::Approx(0.052765).epsilon(1e-4));
        // RCCL: 122 × (56.88 µs + 67,121,152 · 1.75 ÷ 380 GB/s = 309.11 µs) = 122 × 365.99 µs = 44.651 ms.
        CHECK(decode_pass(d, 4682.0, 1000_tok).tp_time.value() ==
              doctest::Approx(122 * (56.88e-6 + 4682 * 14336 * 1.75 / 380e9)).epsilon(1e-9));
        CHECK(decode_pass(d, 4682.0, 1000_tok).tp_time.value() == doctest::Approx(0.044651).epsilon(1e-4));
        // The TEP8 prefill pool's 7,373-token prompt: 105,699,328 B an all-reduce, 122 × (56.88 + 486.77 µs)
        // = 122 × 543.65 µs = 66.33 ms, against the link model's 122 × (2 × 3.7 + 344.13 µs) = 42.89 ms before.
        CHECK(prefill_pass(d, 1.0, 7373_tok, 0_tok).tp_time.value() == doctest::Approx(0.066326).epsilon(1e-4));
        deployment before = d;
        before.engine.collectives.custom_all_reduce_max = kibibytes(24.0);
        before.engine.collectives.custom_all_reduce_large = seconds(0.0);
        before.engine.collectives.custom_all_reduce_large_bus = bytes_per_second(0.0);
        before.engine.collectives.custom_all_reduce_large_min = bytes(0.0);
        before.engine.collectives.library_all_reduce = seconds(0.0);
        before.engine.collectives.library_all_reduce_bus = bytes_per_second(0.0);
        CHECK(prefill_pass(before, 1.0, 7373_tok, 0_tok).tp_time.value() == doctest::Approx(0.042887).epsilon(1e-4));
    }
    SUBCASE("property: TensorRT-LLM on Hopper's all-reduce time never falls as the batch grows") {
        for (const int tp : {2, 4, 8}) {
            deployment trt = ref;
            trt.engine = catalog::trtllm_hopper;
            trt.layout.tp = tp;
            double last = 0.0;
            for (double batch = 1.0; batch <= 4096.0; batch += 7.0) {
                const double t = decode_pass(trt, batch, 1000_tok).tp_time.value();
                CHECK(t >= last);
                // and never below the link model the reference engine prices
                deployment plain = ref;
                plain.layout.tp = tp;
                CHECK(t >= decode_pass(plain, batch, 1000_tok).tp_time.value() * (1.0 - 1e-12));
                last = t;
            }
        }
    }
    SUBCASE("MLA decode at its own rate: FlashMLA's 660 TFLOPS = 2.015 × 0.331 × 989.4") {
        deployment v3{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
        deployment fast = v3;
        fast.engine.kernels.mla_decode = 2.0;
        const pass_cost a = decode_pass(v3, 64.0, 4000_tok), b = decode_pass(fast, 64.0, 4000_tok);
        CHECK(b.attention_compute_time.value() == doctest::Approx(a.attention_compute_time.value() / 2.0).epsilon(1e-12));
        // Prefill keeps the prefill rate.
        CHECK(prefill_pass(fast, 1.0, 2000_tok, 0_tok).attention_compute_time.value() ==
              prefill_pass(v3, 1.0, 2000_tok, 0_tok).attention_compute_time.value());
    }
}

TEST_CASE("TensorRT-LLM on Blackwell's dense FP4 GEMM curve (B12), hand-worked") {
    const engine_kernels& k = catalog::trtllm_blackwell.kernels;
    const achievable_fractions& hw = catalog::b200_hgx.gpu.efficiency;
    SUBCASE("the curve replaces the hardware's for FP4 only") {
        CHECK(k.own_fp4_curve());
        const achievable_fractions fp4 = dense_gemm_curve(hw, k, compute_class::fp4);
        CHECK(fp4.matmul == 0.6872);
        CHECK(fp4.matmul_half_dim == 3640.0);
        CHECK(fp4.hbm == hw.hbm);
        CHECK(fp4.attention == hw.attention);
        CHECK(dense_gemm_curve(hw, k, compute_class::fp8) == hw);
        CHECK(dense_gemm_curve(hw, k, compute_class::bf16) == hw);
        // An engine without a curve of its own keeps the hardware's, FP4 included.
        CHECK(dense_gemm_curve(hw, catalog::vllm_blackwell.kernels, compute_class::fp4) == hw);
        CHECK(dense_gemm_curve(hw, catalog::trtllm_hopper.kernels, compute_class::fp4) == hw);
    }
    SUBCASE("its rate at the fitted shape, by hand") {
        // m 2048, k 4096, n 6144: ∛(2048 · 4096 · 6144) = 3721.46; e = 0.6872 · 3721.46 ÷ (3721.46 + 3640)
        // = 0.347402, × 9,000 TFLOP/s FP4 = 3,126.6 TFLOP/s (measured 3,411.5, B12-2048); the hardware's
        // curve gives 0.6093 · 3721.46 ÷ 4519.46 = 0.501716 (4,515.4 TFLOP/s).
        const achievable_fractions fp4 = dense_gemm_curve(hw, k, compute_class::fp4);
        CHECK(fp4.matmul_at(2048.0, 4096.0, 6144.0) == doctest::Approx(0.347402).epsilon(1e-5));
        CHECK(hw.matmul_at(2048.0, 4096.0, 6144.0) == doctest::Approx(0.501716).epsilon(1e-5));
        // FlashInfer's shape (B12-fi): m 1024, k 4608, n 7168: ∛ = 3233.98, e = 0.323305 → 2,909.7 TFLOP/s.
        CHECK(fp4.matmul_at(1024.0, 4608.0, 7168.0) * 9000.0 == doctest::Approx(2909.74).epsilon(1e-5));
    }
    SUBCASE("in a pass: dense GEMMs of an FP4 deployment slow by the two curves' ratio, nothing else moves") {
        // Llama-3.1-8B on one B200: FP4 weights (NVFP4), FP8 KV, 1,024 decoding sequences.
        const deployment ref = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx}, formats::nvfp4, formats::fp8);
        deployment trt = ref;
        trt.engine = catalog::trtllm_blackwell;
        const pass_model pm = prepare_pass(trt);
        const pass_cost a = decode_pass(ref, 1024.0, 1000_tok), b = decode_pass(trt, 1024.0, 1000_tok);
        // t = 2·b·(P − P_lm) ÷ (peak · e_fp4(b, ∛(h·w))) + 2·b·P_lm ÷ (peak · e_fp4(b, ∛(h·V))).
        const double peak = 9000e12, b_rows = 1024.0;
        auto e_fp4 = [&](double cbrt_k_n) { const double n = std::cbrt(b_rows) * cbrt_k_n; return 0.6872 * n / (n + 3640.0); };
        const double expected = 2.0 * b_rows * (pm.non_expert_parameters - pm.lm_head) / (peak * e_fp4(pm.dense_cbrt_k_n)) +
                                2.0 * b_rows * pm.lm_head / (peak * e_fp4(pm.lm_head_cbrt_k_n));
        CHECK(b.matmul_compute_time.value() == doctest::Approx(expected).epsilon(1e-9));
        CHECK(b.matmul_compute_time > a.matmul_compute_time);
        CHECK(b.matmul_memory_time == a.matmul_memory_time);
        CHECK(b.attention_time() == a.attention_time());
        CHECK(b.elementwise_time == a.elementwise_time);
        // The compute floor stays a floor: every FLOP at the fastest rate a GEMM reaches (0.6872 > 0.6093).
        CHECK(b.compute_time.value() ==
              doctest::Approx((b.matmul_flops.value() + b.attention_flops.value()) / (peak * 0.6872)).epsilon(1e-12));
        CHECK(b.compute_time <= b.matmul_compute_time + b.attention_compute_time);
        // FP8 weights: the hardware's curve, bit for bit.
        const deployment ref8 = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx}, formats::fp8, formats::fp8);
        deployment trt8 = ref8;
        trt8.engine = catalog::trtllm_blackwell;
        CHECK(decode_pass(trt8, 1024.0, 1000_tok).matmul_compute_time.value() ==
              decode_pass(ref8, 1024.0, 1000_tok).matmul_compute_time.value());
    }
    SUBCASE("routed experts keep the hardware's curve") {
        const deployment ref = with_formats({.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}},
                                            formats::nvfp4, formats::fp8);
        deployment own = ref;
        own.engine.kernels.fp4_gemm_efficiency = 0.6872;
        own.engine.kernels.fp4_gemm_half_dim = 3640.0;
        const pass_model pa = prepare_pass(ref), pb = prepare_pass(own);
        const auto terms = detail::sequence_terms_of(pa, {.decode_sequences = 256.0, .decode_context = 2000_tok});
        const auto ra = detail::step_formula(pa, terms, 256.0, 0.0), rb = detail::step_formula(pb, terms, 256.0, 0.0);
        // Only the dense part moves: its time with the engine's curve, the experts' at the hardware's.
        CHECK(rb.matmul_compute > ra.matmul_compute);
        // + MLA's q_a and kv_a whole on each of the 8 ranks: 7,168 · 2,112 · 61 · 7 ÷ 8 = 808,034,304 parameters more.
        CHECK(pa.replicated_parameters == 808'034'304.0);
        const double dense_flops = (2.0 * 256.0 * (pa.non_expert_parameters - pa.lm_head)) / 8.0 + 2.0 * 256.0 * 808'034'304.0;
        const double rows = 256.0;
        auto e = [&](const achievable_fractions& c, double cbrt_k_n) { return c.matmul_at_rows(rows, cbrt_k_n); };
        const double lm = 2.0 * 256.0 * pa.lm_head / 8.0;
        const double moved = dense_flops / (pa.peak.value() * e(pb.dense_gemm, pa.dense_cbrt_k_n)) -
                             dense_flops / (pa.peak.value() * e(pa.dense_gemm, pa.dense_cbrt_k_n)) +
                             lm / (pa.peak.value() * e(pb.dense_gemm, pa.lm_head_cbrt_k_n)) -
                             lm / (pa.peak.value() * e(pa.dense_gemm, pa.lm_head_cbrt_k_n));
        CHECK(rb.matmul_compute - ra.matmul_compute == doctest::Approx(moved).epsilon(1e-9));
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::trtllm_blackwell;
        e.kernels.fp4_gemm_efficiency = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.fp4_gemm_efficiency = nan"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_gemm_efficiency = 1.2;
        CHECK(has(test::validation_message(e), "kernels.fp4_gemm_efficiency = 1.2: an FP4 GEMM e∞ must be 0"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_gemm_half_dim = -5.0;
        CHECK(has(test::validation_message(e), "kernels.fp4_gemm_half_dim = -5"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_gemm_half_dim = 0.0;
        CHECK(has(test::validation_message(e), "needs both its e∞ and its n₀"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_gemm_efficiency = 0.0;
        CHECK(has(test::validation_message(e), "needs both its e∞ and its n₀"));
        // With the GPU: the engine's GEMM multiplier times its FP4 e∞ may not pass the datasheet.
        e = catalog::trtllm_blackwell;
        e.kernels.gemm = 1.5;
        const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx, .engine = e};
        CHECK(has(test::validation_message(d), "kernels.gemm (with fp4_gemm_efficiency) = 1.5"));
    }
    SUBCASE("the table's columns: read where present, 0 (the hardware's curve) where a table leaves them out") {
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const std::string curve = "fp4_gemm_efficiency,fp4_gemm_half_dim";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK_FALSE(old[0].kernels.own_fp4_curve());
        const auto mine = io::parse_engines_csv(engine_table(row, curve, "0.6,2000"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.fp4_gemm_efficiency == 0.6);
        CHECK(mine[0].kernels.fp4_gemm_half_dim == 2000.0);
        const std::string half = test::message_of([&] { return io::parse_engines_csv(engine_table(row, curve, "0.6,0"), "mine.csv"); });
        CHECK(has(half, "mine.csv:2"));
        CHECK(has(half, "fp4_gemm_half_dim"));
        const std::string negative =
            test::message_of([&] { return io::parse_engines_csv(engine_table(row, curve, "-0.6,2000"), "mine.csv"); });
        CHECK(has(negative, "fp4_gemm_efficiency"));
        CHECK(has(negative, "must not be negative"));
    }
}

TEST_CASE("SGLang on ROCm's dense FP8 GEMM curve (AITER block-scaled FP8, B62-B63), hand-worked") {
    const achievable_fractions& mi300x = catalog::mi300x.gpu.efficiency;
    const achievable_fractions& mi355x = catalog::mi355x.gpu.efficiency;
    SUBCASE("the curve replaces the hardware's for FP8 only, on the engines that have one") {
        const engine_kernels& k = catalog::sglang_cdna3.kernels;
        CHECK(k.own_fp8_curve());
        CHECK(catalog::sglang_cdna4.kernels.own_fp8_curve());
        CHECK_FALSE(catalog::vllm_cdna3.kernels.own_fp8_curve());
        CHECK_FALSE(catalog::sglang_hopper.kernels.own_fp8_curve());
        const achievable_fractions fp8 = dense_gemm_curve(mi300x, k, compute_class::fp8);
        CHECK(fp8.matmul == 0.4332);  // gemm = 1 on CDNA3: e∞ as the table states it
        CHECK(fp8.matmul_half_dim == 3493.0);
        CHECK(fp8.hbm == mi300x.hbm);
        CHECK(fp8.attention == mi300x.attention);
        CHECK(dense_gemm_curve(mi300x, k, compute_class::bf16) == mi300x);
        CHECK(dense_gemm_curve(mi300x, k, compute_class::fp4) == mi300x);
        CHECK(dense_gemm_curve(mi300x, catalog::vllm_cdna3.kernels, compute_class::fp8) == mi300x);
    }
    SUBCASE("its rate at a prompt-sized shape, by hand") {
        // MI300X, m 1024, k 7168, n 2304 (a TP8 rank's dense down projection): ∛(1024 · 7168 · 2304) = 2566.81;
        // e = 0.4332 · 2566.81 ÷ (2566.81 + 3493) = 0.183494, × 2,614.9 TFLOP/s = 479.8 TFLOP/s (AITER's table:
        // 553.6); the hardware's hipBLASLt curve gives 0.4738 · 2566.81 ÷ (2566.81 + 1016) = 0.339450 (887.6).
        const achievable_fractions fp8 = dense_gemm_curve(mi300x, catalog::sglang_cdna3.kernels, compute_class::fp8);
        CHECK(fp8.matmul_at(1024.0, 7168.0, 2304.0) == doctest::Approx(0.183494).epsilon(1e-5));
        CHECK(mi300x.matmul_at(1024.0, 7168.0, 2304.0) == doctest::Approx(0.339450).epsilon(1e-5));
    }
    SUBCASE("e∞ is of the datasheet peak: the engine's GEMM multiplier is not applied on top") {
        // MI355X under SGLang (gemm 0.9215): m 8192, k 2048, n 7168: ∛ = 4935.97; the rate is
        // 5,000 TFLOP/s · 0.4275 · 4935.97 ÷ (4935.97 + 5741) = 988.2 TFLOP/s (AITER's table: 1,347.7),
        // priced as (5,000 · 0.9215) · (0.4275 ÷ 0.9215) · the same size term.
        const engine_kernels& k = catalog::sglang_cdna4.kernels;
        const achievable_fractions fp8 = dense_gemm_curve(mi355x, k, compute_class::fp8);
        CHECK(fp8.matmul == doctest::Approx(0.4275 / 0.9215).epsilon(1e-12));
        CHECK(5000.0 * k.gemm * fp8.matmul_at(8192.0, 2048.0, 7168.0) == doctest::Approx(988.168).epsilon(1e-5));
    }
    SUBCASE("in a pass: an FP8 prompt step's dense GEMMs slow by the two curves' ratio, a BF16 one does not move") {
        const deployment ref{.m = catalog::deepseek_v3, .hw = catalog::mi300x, .layout = {.tp = 8}};
        deployment own = ref;
        own.engine.kernels.fp8_gemm_efficiency = 0.4332;
        own.engine.kernels.fp8_gemm_half_dim = 3493.0;
        const pass_model pa = prepare_pass(ref), pb = prepare_pass(own);
        const auto terms = detail::sequence_terms_of(pa, {.prefill_sequences = 1.0, .prefill_tokens = 1024_tok});
        const auto ra = detail::step_formula(pa, terms, 0.0, 1.0), rb = detail::step_formula(pb, terms, 0.0, 1.0);
        CHECK(rb.matmul_compute > ra.matmul_compute);
        CHECK(rb.attention_compute == ra.attention_compute);
        CHECK(rb.matmul_memory == ra.matmul_memory);
        const deployment bf16_ref = with_formats(ref, formats::bf16, formats::bf16);
        deployment bf16_own = bf16_ref;
        bf16_own.engine = own.engine;
        CHECK(prefill_pass(bf16_own, 1.0, 1024_tok, 0_tok).matmul_compute_time.value() ==
              prefill_pass(bf16_ref, 1.0, 1024_tok, 0_tok).matmul_compute_time.value());
    }
    SUBCASE("property: a lower FP8 e∞ never shortens a prompt step") {
        deployment d{.m = catalog::deepseek_v3, .hw = catalog::mi300x, .layout = {.tp = 8}};
        d.engine.kernels.fp8_gemm_half_dim = 3493.0;
        double previous = 0.0;
        for (double e_inf : {0.8, 0.6, 0.4332, 0.3, 0.1}) {
            d.engine.kernels.fp8_gemm_efficiency = e_inf;
            const double t = prefill_pass(d, 1.0, 4096_tok, 0_tok).time().value();
            CHECK(t >= previous);
            previous = t;
        }
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::sglang_cdna3;
        e.kernels.fp8_gemm_efficiency = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_efficiency = nan"));
        e = catalog::sglang_cdna3;
        e.kernels.fp8_gemm_efficiency = -0.4;
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_efficiency = -0.4: an FP8 GEMM e∞ must be 0"));
        e = catalog::sglang_cdna3;
        e.kernels.fp8_gemm_efficiency = 1.2;
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_efficiency = 1.2: an FP8 GEMM e∞ must be 0"));
        e = catalog::sglang_cdna3;
        e.kernels.fp8_gemm_half_dim = 0.0;
        CHECK(has(test::validation_message(e), "the FP8 GEMM curve needs both its e∞ and its n₀"));
        e = catalog::sglang_cdna3;
        e.kernels.fp8_gemm_half_dim = std::numeric_limits<double>::infinity();
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_half_dim = inf"));
    }
    SUBCASE("the table's columns: read where present, 0 (the hardware's curve) where a table leaves them out") {
        const std::string row = "Mine,sglang,cdna3,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const std::string curve = "fp8_gemm_efficiency,fp8_gemm_half_dim";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK_FALSE(old[0].kernels.own_fp8_curve());
        const auto mine = io::parse_engines_csv(engine_table(row, curve, "0.43,3500"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.fp8_gemm_efficiency == 0.43);
        CHECK(mine[0].kernels.fp8_gemm_half_dim == 3500.0);
        const std::string zero = test::message_of([&] { return io::parse_engines_csv(engine_table(row, curve, "0.43,0"), "mine.csv"); });
        CHECK(has(zero, "mine.csv:2"));
        CHECK(has(zero, "fp8_gemm_half_dim"));
    }
}
TEST_CASE("vLLM on CDNA4's dense MXFP4 GEMM curve (AITER gemm_a4w4, B110), hand-worked") {
    const engine_kernels& k = catalog::vllm_cdna4.kernels;
    const achievable_fractions& mi355x = catalog::mi355x.gpu.efficiency;
    SUBCASE("the curve replaces the hardware's for FP4 only") {
        CHECK(k.own_fp4_curve());
        CHECK_FALSE(k.unfused_fp4_quantization());
        const achievable_fractions fp4 = dense_gemm_curve(mi355x, k, compute_class::fp4);
        CHECK(fp4.matmul == doctest::Approx(0.7081 / 0.9215).epsilon(1e-12));  // e∞ of the datasheet peak, ÷ gemm
        CHECK(fp4.matmul_half_dim == 5029.0);
        CHECK(fp4.hbm == mi355x.hbm);
        CHECK(dense_gemm_curve(mi355x, k, compute_class::fp8) == mi355x);
        CHECK(dense_gemm_curve(mi355x, k, compute_class::bf16) == mi355x);
    }
    SUBCASE("its rate at Llama-2-70B's QKV projection, 4,096 tokens, by hand") {
        // m 4096, k 8192, n 10240: ∛(4096 · 8192 · 10240) = ∛(5 · 2³⁶) = 4096 · ∛5 = 7004.06;
        // e = 0.7081 · 7004.06 ÷ (7004.06 + 5029) = 0.412162 of 10,000 TFLOP/s = 4,121.6 TFLOP/s (AITER's table:
        // 4,330.0, B110-QKV-4096); the hardware's curve under gemm 0.9215 gave 9,215 · 0.6793 · 7004.06 ÷ 7802.06
        // = 5,619.5 TFLOP/s, 30% above the kernel.
        const achievable_fractions fp4 = dense_gemm_curve(mi355x, k, compute_class::fp4);
        CHECK(10000.0 * k.gemm * fp4.matmul_at(4096.0, 8192.0, 10240.0) == doctest::Approx(4121.62).epsilon(1e-5));
        CHECK(10000.0 * k.gemm * mi355x.matmul_at(4096.0, 8192.0, 10240.0) == doctest::Approx(5619.50).epsilon(1e-5));
    }
    SUBCASE("in a pass: an MXFP4 decode step's dense GEMMs slow, attention and weight reads do not move") {
        const deployment own = with_formats({.m = catalog::llama_2_70b, .hw = catalog::mi355x, .engine = catalog::vllm_cdna4},
                                            formats::mxfp4, formats::fp8);
        deployment ref = own;
        ref.engine.kernels.fp4_gemm_efficiency = 0.0;
        ref.engine.kernels.fp4_gemm_half_dim = 0.0;
        const pass_cost a = decode_pass(ref, 3072.0, 500_tok), b = decode_pass(own, 3072.0, 500_tok);
        CHECK(b.matmul_compute_time.value() > a.matmul_compute_time.value());
        CHECK(b.attention_compute_time.value() == a.attention_compute_time.value());
        CHECK(b.matmul_memory_time.value() == a.matmul_memory_time.value());
    }
}


TEST_CASE("Hopper engines' dense BF16 GEMM curve (aiconfigurator's TensorRT-LLM BF16 GEMM table on H100, B75-B76), hand-worked") {
    const achievable_fractions& h100 = catalog::h100_sxm5.gpu.efficiency;
    SUBCASE("the curve replaces the hardware's for BF16 only, on the Hopper profiles whose BF16 GEMMs are cuBLAS's") {
        for (const engine_profile* e : {&catalog::trtllm_hopper, &catalog::trtllm_hopper_trt_engine, &catalog::vllm_hopper,
                                        &catalog::sglang_hopper}) {
            CAPTURE(e->name);
            CHECK(e->kernels.own_bf16_curve());
            const achievable_fractions bf16 = dense_gemm_curve(h100, e->kernels, compute_class::bf16);
            CHECK(bf16.matmul == 0.7721);  // gemm = 1 on Hopper: e∞ as the table states it (docs/hopper-bf16-gemm.md)
            CHECK(bf16.matmul_half_dim == 98.5);
            CHECK(bf16.hbm == h100.hbm);
            CHECK(bf16.attention == h100.attention);
            CHECK(dense_gemm_curve(h100, e->kernels, compute_class::fp8) == h100);  // FP8 stays on cuBLASLt's B04 curve
            CHECK(dense_gemm_curve(h100, e->kernels, compute_class::fp4) == h100);
        }
        // weight-only quantized layers (INT4 / FP8 weights, BF16 activations) run mixed-input kernels: the hardware's curve
        CHECK(dense_gemm_curve(h100, catalog::trtllm_hopper.kernels, compute_class::bf16, false) == h100);
        // zero: the hardware's curve, as before
        CHECK_FALSE(catalog::trtllm_blackwell.kernels.own_bf16_curve());
        CHECK_FALSE(catalog::vllm_cdna3.kernels.own_bf16_curve());
        CHECK(dense_gemm_curve(h100, engine_kernels{}, compute_class::bf16) == h100);
    }
    SUBCASE("its rate at a prompt-sized shape, by hand") {
        // H100, m 512, k 4096, n 14336 (Llama-3.1-8B's FFN at TP1, 512 prompt tokens): ∛(512 · 4096 · 14336)
        // = 3109.47; e = 0.7721 · 3109.47 ÷ (3109.47 + 98.5) = 0.748393, × 989.4 TFLOP/s = 740.5 TFLOP/s
        // (the table's nearest grid shapes at m 512: 0.70-0.79 of the peak, B75-B76); the hardware's
        // FP8-fitted curve (B04) gives 0.7153 · 3109.47 ÷ (3109.47 + 798) = 0.569218.
        const achievable_fractions bf16 = dense_gemm_curve(h100, catalog::trtllm_hopper.kernels, compute_class::bf16);
        CHECK(bf16.matmul_at(512.0, 4096.0, 14336.0) == doctest::Approx(0.748393).epsilon(1e-5));
        CHECK(h100.matmul_at(512.0, 4096.0, 14336.0) == doctest::Approx(0.569218).epsilon(1e-5));
        // m 256, k 4096, n 6144 (its QKV projection): ∛ = 1860.73, e = 0.7721 · 1860.73 ÷ 1959.23 = 0.733283
        CHECK(bf16.matmul_at(256.0, 4096.0, 6144.0) == doctest::Approx(0.733283).epsilon(1e-5));
    }
    SUBCASE("in a pass: a BF16 prompt step's dense GEMMs speed up by the two curves' ratio, an FP8 one does not move") {
        const deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
        deployment own = ref;
        own.engine.kernels.bf16_gemm_efficiency = 0.7721;
        own.engine.kernels.bf16_gemm_half_dim = 98.5;
        CHECK(prefill_pass(own, 1.0, 512_tok, 0_tok).matmul_compute_time.value() <
              prefill_pass(ref, 1.0, 512_tok, 0_tok).matmul_compute_time.value());
        CHECK(prefill_pass(own, 1.0, 512_tok, 0_tok).attention_compute_time.value() ==
              prefill_pass(ref, 1.0, 512_tok, 0_tok).attention_compute_time.value());
        const deployment fp8_ref = with_formats(ref, formats::fp8, formats::fp8);
        deployment fp8_own = fp8_ref;
        fp8_own.engine = own.engine;
        CHECK(prefill_pass(fp8_own, 1.0, 512_tok, 0_tok).matmul_compute_time.value() ==
              prefill_pass(fp8_ref, 1.0, 512_tok, 0_tok).matmul_compute_time.value());
        // INT4 weights with BF16 activations (a weight-only quantized model): the hardware's curve either way
        const deployment int4_ref = with_formats(ref, formats::int4, formats::bf16);
        deployment int4_own = int4_ref;
        int4_own.engine = own.engine;
        CHECK(prefill_pass(int4_own, 1.0, 512_tok, 0_tok).matmul_compute_time.value() ==
              prefill_pass(int4_ref, 1.0, 512_tok, 0_tok).matmul_compute_time.value());
    }
    SUBCASE("property: a lower BF16 e∞ never shortens a prompt step; a larger n₀ neither") {
        deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
        d.engine.kernels.bf16_gemm_half_dim = 98.5;
        double previous = 0.0;
        for (double e_inf : {1.0, 0.8, 0.6, 0.3, 0.1}) {
            d.engine.kernels.bf16_gemm_efficiency = e_inf;
            const double t = prefill_pass(d, 1.0, 2048_tok, 0_tok).time().value();
            CHECK(t >= previous);
            previous = t;
        }
        previous = 0.0;
        for (double n0 : {98.5, 798.0, 1503.0, 5000.0}) {
            d.engine.kernels.bf16_gemm_half_dim = n0;
            const double t = prefill_pass(d, 1.0, 2048_tok, 0_tok).time().value();
            CHECK(t >= previous);
            previous = t;
        }
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::trtllm_hopper;
        e.kernels.bf16_gemm_efficiency = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.bf16_gemm_efficiency = nan"));
        e = catalog::trtllm_hopper;
        e.kernels.bf16_gemm_efficiency = -0.5;
        CHECK(has(test::validation_message(e), "kernels.bf16_gemm_efficiency = -0.5: a BF16 GEMM e∞ must be 0"));
        e = catalog::trtllm_hopper;
        e.kernels.bf16_gemm_efficiency = 1.02;
        CHECK(has(test::validation_message(e), "kernels.bf16_gemm_efficiency = 1.02: a BF16 GEMM e∞ must be 0"));
        e = catalog::trtllm_hopper;
        e.kernels.bf16_gemm_half_dim = 0.0;
        CHECK(has(test::validation_message(e), "the BF16 GEMM curve needs both its e∞ and its n₀"));
        e = catalog::trtllm_hopper;
        e.kernels.bf16_gemm_half_dim = std::numeric_limits<double>::infinity();
        CHECK(has(test::validation_message(e), "kernels.bf16_gemm_half_dim = inf"));
    }
    SUBCASE("the table's columns: read where present, 0 (the hardware's curve) where a table leaves them out") {
        const std::string row = "Mine,trtllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const std::string curve = "bf16_gemm_efficiency,bf16_gemm_half_dim";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK_FALSE(old[0].kernels.own_bf16_curve());
        const auto mine = io::parse_engines_csv(engine_table(row, curve, "0.9,1200"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.bf16_gemm_efficiency == 0.9);
        CHECK(mine[0].kernels.bf16_gemm_half_dim == 1200.0);
        const std::string zero = test::message_of([&] { return io::parse_engines_csv(engine_table(row, curve, "0.9,0"), "mine.csv"); });
        CHECK(has(zero, "mine.csv:2"));
        CHECK(has(zero, "bf16_gemm_half_dim"));
    }
}

TEST_CASE("GEMM + TP all-reduce in one kernel (TensorRT-LLM's gemm_allreduce_plugin)") {
    // Llama-3.1-405B per layer: QKV 16,384 × (16,384 + 2 · 1,024) = 16,384 × 18,432, O 16,384 × 16,384,
    // gate + up 2 · 16,384 × 53,248, down 53,248 × 16,384: 16,384 × 194,560 in all, of which the
    // row-parallel O and down are 16,384 × (16,384 + 53,248) = 16,384 × 69,632: f_row = 69,632 ÷ 194,560
    // = 0.357895. An MoE model or latent attention: 0 (not priced).
    CHECK(detail::row_parallel_gemm_share(catalog::llama_3_1_405b) == doctest::Approx(0.357895).epsilon(1e-5));
    CHECK(detail::row_parallel_gemm_share(catalog::deepseek_v3) == 0.0);
    CHECK(detail::row_parallel_gemm_share(catalog::mixtral_8x7b) == 0.0);

    const deployment plain = [] {
        deployment d = with_formats({.m = catalog::llama_3_1_405b, .hw = catalog::b200_hgx}, formats::nvfp4, formats::fp8);
        d.layout.tp = 4;
        d.engine = catalog::trtllm_blackwell;
        return d;
    }();
    deployment fused = plain;
    fused.engine.kernels.gemm_all_reduce_fused = true;
    CHECK(prepare_pass(fused).fused_row_gemm_share == doctest::Approx(0.357895).epsilon(1e-5));
    CHECK(prepare_pass(plain).fused_row_gemm_share == 0.0);

    SUBCASE("the all-reduce pays only what its row-parallel GEMMs do not hide") {
        // t_AR' = max(0, t_AR − 0.357895 · max(GEMM compute, weights)); every other term as before.
        for (double prompt : {64.0, 2048.0, 9429.0}) {
            const pass_cost a = prefill_pass(plain, 1.0, tokens(prompt), 0_tok);
            const pass_cost b = prefill_pass(fused, 1.0, tokens(prompt), 0_tok);
            const double hidden = 0.357895 * a.matmul_time().value();
            CHECK(b.tp_time.value() == doctest::Approx(std::max(0.0, a.tp_time.value() - hidden)).epsilon(1e-5));
            CHECK(b.matmul_time().value() == a.matmul_time().value());
            CHECK(b.attention_time().value() == a.attention_time().value());
            CHECK(b.elementwise_time.value() == a.elementwise_time.value());
        }
    }
    SUBCASE("property: the fused build is never slower, and the longer the GEMMs the more they hide") {
        for (double batch : {1.0, 16.0, 64.0, 256.0}) {
            const pass_cost a = decode_pass(plain, batch, 10000_tok), b = decode_pass(fused, batch, 10000_tok);
            CHECK(b.tp_time.value() <= a.tp_time.value());
            CHECK(b.tp_time.value() >= 0.0);
            CHECK(b.time().value() <= a.time().value());
        }
        double previous = 0.0;
        for (double prompt : {256.0, 1024.0, 4096.0, 16384.0}) {  // hidden time grows with the prompt
            const pass_cost a = prefill_pass(plain, 1.0, tokens(prompt), 0_tok);
            const pass_cost b = prefill_pass(fused, 1.0, tokens(prompt), 0_tok);
            const double saved = a.tp_time.value() - b.tp_time.value();
            CHECK(saved >= previous);
            previous = saved;
        }
    }
    SUBCASE("no all-reduce to hide: TP 1, or an MoE model") {
        deployment one = fused;
        one.layout.tp = 1;
        CHECK(prepare_pass(one).fused_row_gemm_share == 0.0);
        deployment moe = with_formats({.m = catalog::mixtral_8x7b, .hw = catalog::b200_hgx}, formats::fp8, formats::fp8);
        moe.layout.tp = 4;
        moe.engine = catalog::trtllm_blackwell;
        deployment moe_fused = moe;
        moe_fused.engine.kernels.gemm_all_reduce_fused = true;
        CHECK(decode_pass(moe_fused, 64.0, 1000_tok).time().value() == decode_pass(moe, 64.0, 1000_tok).time().value());
    }
}

TEST_CASE("FP4 GEMMs whose activations are quantized by a kernel of their own (B19)") {
    // Llama-3.1-8B's dense GEMM class on one B200: k = 4,096, n = 14,336, so ∛(k·n) = 388.683; at
    // m = 2,048 rows (whole 64-row tiles) n = ∛2048 · 388.683 = 4,935.97. TensorRT-LLM on Blackwell:
    //   fused (norm_quant_fusion on, B12):   0.6872 · 4,935.97 ÷ (4,935.97 + 3,640) = 0.395524
    //   unfused (a quantization kernel, B19): 0.6113 · 4,935.97 ÷ (4,935.97 + 4,825) = 0.309125
    const double cbrt_k_n = std::cbrt(4096.0 * 14336.0);
    const achievable_fractions& hw = catalog::b200_hgx.gpu.efficiency;
    engine_kernels k = catalog::trtllm_blackwell.kernels;
    CHECK(k.fp4_quantization_fused);
    CHECK(dense_gemm_curve(hw, k, compute_class::fp4).matmul_at_rows(2048.0, cbrt_k_n) ==
          doctest::Approx(0.395524).epsilon(1e-5));
    k.fp4_quantization_fused = false;
    CHECK(k.unfused_fp4_quantization());
    CHECK(dense_gemm_curve(hw, k, compute_class::fp4).matmul_at_rows(2048.0, cbrt_k_n) ==
          doctest::Approx(0.309125).epsilon(1e-5));
    // FP8 GEMMs keep the hardware's curve whatever the flag; an engine without the curve ignores it.
    CHECK(dense_gemm_curve(hw, k, compute_class::fp8) == hw);
    engine_kernels vllm = catalog::vllm_blackwell.kernels;
    vllm.fp4_quantization_fused = false;
    CHECK_FALSE(vllm.unfused_fp4_quantization());
    CHECK(dense_gemm_curve(hw, vllm, compute_class::fp4) == dense_gemm_curve(hw, catalog::vllm_blackwell.kernels, compute_class::fp4));

    SUBCASE("property: the unfused build is never faster, and only its dense GEMMs move") {
        const deployment fused = [] {
            deployment d = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx}, formats::nvfp4, formats::fp8);
            d.engine = catalog::trtllm_blackwell;
            return d;
        }();
        deployment unfused = fused;
        unfused.engine.kernels.fp4_quantization_fused = false;
        for (double batch : {1.0, 16.0, 256.0, 2048.0}) {
            const pass_cost a = decode_pass(fused, batch, 1000_tok), b = decode_pass(unfused, batch, 1000_tok);
            CHECK(b.matmul_compute_time.value() >= a.matmul_compute_time.value());
            CHECK(b.matmul_memory_time.value() == a.matmul_memory_time.value());
            CHECK(b.attention_memory_time.value() == a.attention_memory_time.value());
            CHECK(b.elementwise_time.value() == a.elementwise_time.value());
        }
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::trtllm_blackwell;
        e.kernels.fp4_quant_gemm_efficiency = 1.2;
        CHECK(has(test::validation_message(e), "kernels.fp4_quant_gemm_efficiency = 1.2"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_quant_gemm_half_dim = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.fp4_quant_gemm_half_dim = nan"));
        e = catalog::trtllm_blackwell;
        e.kernels.fp4_quant_gemm_half_dim = 0.0;
        CHECK(has(test::validation_message(e), "needs both its e∞ and its n₀"));
        e = catalog::vllm_blackwell;
        e.kernels.fp4_quant_gemm_efficiency = 0.6;
        e.kernels.fp4_quant_gemm_half_dim = 4000.0;
        CHECK(has(test::validation_message(e), "needs the engine's FP4 GEMM curve without it"));
    }
    SUBCASE("the table's columns: read where present, 0 where a table leaves them out") {
        const std::string header = test::engine_table_columns() + ",fp4_gemm_efficiency,fp4_gemm_half_dim";
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0,0.6,2000";
        const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
        REQUIRE(old.size() == 1);
        CHECK(old[0].kernels.fp4_quant_gemm_efficiency == 0.0);
        const std::string both = header + ",fp4_quant_gemm_efficiency,fp4_quant_gemm_half_dim,source\n";
        const auto mine = io::parse_engines_csv(both + row + ",0.5,3000,my runs\n", "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.fp4_quant_gemm_efficiency == 0.5);
        CHECK(mine[0].kernels.fp4_quant_gemm_half_dim == 3000.0);
        const std::string half = test::message_of([&] { return io::parse_engines_csv(both + row + ",0.5,0,my runs\n", "mine.csv"); });
        CHECK(has(half, "mine.csv:2"));
        CHECK(has(half, "fp4_quant_gemm_half_dim"));
    }
}

TEST_CASE("expert parallelism: the busiest of G ranks, hand-worked") {
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 1, .ep = 8, .dp = 8},
                 .engine = catalog::vllm_hopper};
    pass_model pm = prepare_pass(d);
    // The model's router skew reaches the pass (no EPLB on vLLM): DeepSeek-V3's 1.28 (blog4 Table 1).
    CHECK(pm.routing_skew == 1.28);
    // At many tokens only the skew is left: 1 + √(2 ln 8) · 1.28 · √(8 ÷ 256) = 1 + 2.039334 · 0.2262742 = 1.461448.
    CHECK(detail::ep_imbalance(pm, 1e15) == doctest::Approx(1.461448).epsilon(1e-6));
    // An engine that places experts by load (EPLB) leaves the skew it states, not the router's.
    deployment eplb = d;
    eplb.engine.moe.load_balancing = true;
    eplb.engine.moe.routing_skew = 0.1;
    CHECK(prepare_pass(eplb).routing_skew == 0.1);
    pm.routing_skew = 0.0;  // the sampling spread alone, below
    // I = 1 + √(2 ln 8) · √((1 − 1/8) · 8 ÷ 1024) = 1 + 2.039334 · 0.0826797 = 1.168610
    CHECK(detail::ep_imbalance(pm, 1024.0) == doctest::Approx(1.168610).epsilon(1e-6));
    // With routing skew c = 0.5 over E = 256 experts: + c² · G ÷ E = 0.0078125 under the root.
    pm.routing_skew = 0.5;
    CHECK(detail::ep_imbalance(pm, 1024.0) == doctest::Approx(1.246823).epsilon(1e-6));
    // More tokens, a smaller sampling spread: the factor falls toward the skew's.
    CHECK(detail::ep_imbalance(pm, 1e9) < detail::ep_imbalance(pm, 1024.0));
    CHECK(detail::ep_imbalance(pm, 1e9) == doctest::Approx(1.0 + 2.039334 * 0.0883883).epsilon(1e-5));
    // One rank: no imbalance.
    deployment one{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}, .engine = catalog::vllm_hopper};
    CHECK(detail::ep_imbalance(prepare_pass(one), 1024.0) == 1.0);
    // In a pass: the expert GEMMs and the all-to-all wait for the busiest rank.
    deployment balanced = d;
    balanced.engine.moe.busiest_rank = false;
    const pass_cost a = decode_pass(balanced, 16.0, 2000_tok), b = decode_pass(d, 16.0, 2000_tok);
    CHECK(b.matmul_compute_time > a.matmul_compute_time);
    CHECK(b.ep_time > a.ep_time);
    CHECK(b.matmul_memory_time == a.matmul_memory_time);
}

TEST_CASE("attention data parallelism: every rank waits for the busiest, hand-worked") {
    // DeepSeek-V3 on 8 B200s, DP8·EP8, TensorRT-LLM (β = 0.877, its ADP balance strategy, blog10).
    // The all-to-all here: EP8 = top-8 would gather on this profile (unit-moe-comm.cpp), so the rule is off.
    deployment dep{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 1, .ep = 8, .dp = 8},
                   .engine = catalog::trtllm_blackwell};
    dep.engine.collectives.gather_up_to_top_k = false;
    REQUIRE(catalog::trtllm_blackwell.moe.attention_dp_balance == 0.877);
    deployment alike = dep;
    alike.engine.moe.attention_dp_balance = 0.0;  // not measured: every rank's step alike
    CHECK(prepare_pass(dep).attention_dp_busiest == doctest::Approx(1.0 / 0.877).epsilon(1e-15));
    CHECK(prepare_pass(alike).attention_dp_busiest == 1.0);
    // The work that grows with the rank's tokens × 1 ÷ 0.877 = 1.140251; weights and launches stay.
    const pass_cost a = decode_pass(alike, 256.0, 4000_tok), b = decode_pass(dep, 256.0, 4000_tok);
    const double f = 1.140251;
    CHECK(b.attention_compute_time.value() == doctest::Approx(a.attention_compute_time.value() * f).epsilon(1e-6));
    CHECK(b.attention_memory_time.value() == doctest::Approx(a.attention_memory_time.value() * f).epsilon(1e-6));
    CHECK(b.matmul_compute_time.value() == doctest::Approx(a.matmul_compute_time.value() * f).epsilon(1e-6));
    CHECK(b.elementwise_time.value() == doctest::Approx(a.elementwise_time.value() * f).epsilon(1e-6));
    CHECK(b.ep_time.value() == doctest::Approx(a.ep_time.value() * f).epsilon(1e-6));
    CHECK(b.matmul_memory_time == a.matmul_memory_time);
    CHECK(b.overhead_time == a.overhead_time);
    CHECK(b.flops == a.flops);  // the work is the same; the ranks wait
    // Where the profile gathers (EP8 = top-8), the ranks pad to the busiest one's tokens: the gather's
    // bytes at 256 ÷ 0.877 tokens a rank, its fixed time once, not the whole × 1.140251.
    const deployment gathers{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 1, .ep = 8, .dp = 8},
                             .engine = catalog::trtllm_blackwell};
    REQUIRE(moe_gathers_tokens(gathers));
    const double padded = gather_scatter_time_per_pass(gathers, 256.0 / 0.877).value();
    CHECK(decode_pass(gathers, 256.0, 4000_tok).ep_time.value() == doctest::Approx(padded).epsilon(1e-9));
    CHECK(padded < gather_scatter_time_per_pass(gathers, 256.0).value() * f);
    // No attention DP, no wait: EP over tensor-parallel attention (dp 1), and dense replicas (dp 2).
    const deployment tep{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8, .ep = 8},
                         .engine = catalog::trtllm_blackwell};
    CHECK(prepare_pass(tep).attention_dp_busiest == 1.0);
    const deployment replicas{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx, .layout = {.tp = 1, .dp = 2},
                              .engine = catalog::trtllm_blackwell};
    CHECK(prepare_pass(replicas).attention_dp_busiest == 1.0);
}

TEST_CASE("attention_dp_balance: the descriptor's rule and the table's optional column") {
    engine_profile e = catalog::trtllm_blackwell;
    e.moe.attention_dp_balance = 1.2;
    CHECK(has(test::validation_message(e), "moe.attention_dp_balance = 1.2: a balance ratio"));
    e.moe.attention_dp_balance = -0.5;
    CHECK(has(test::validation_message(e), "moe.attention_dp_balance = -0.5"));
    e.moe.attention_dp_balance = std::numeric_limits<double>::quiet_NaN();
    CHECK(has(test::validation_message(e), "moe.attention_dp_balance = nan"));
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].moe.attention_dp_balance == 0.0);
    const std::string columns = header + ",fp4_gemm_efficiency,fp4_gemm_half_dim,attention_dp_balance,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",0,0,0.9,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].moe.attention_dp_balance == 0.9);
    const std::string above = test::message_of([&] { return io::parse_engines_csv(columns + row + ",0,0,1.5,my runs\n", "mine.csv"); });
    CHECK(has(above, "mine.csv:2"));
    CHECK(has(above, "attention_dp_balance"));
    CHECK(has(above, "(0, 1]"));
}

TEST_CASE("expert parallelism's all-to-all runs only under attention data parallelism, hand-worked") {
    // DeepSeek-V3 (hidden 7168, top-8, 58 MoE layers, FP8 activations) on 8 B200s, EP8 over TP4 × DP2,
    // on SGLang (TensorRT-LLM all-gathers there instead, 8 ranks for top-8: tests/unit/unit-moe-comm.cpp).
    deployment dep{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 4, .ep = 8, .dp = 2},
                   .engine = catalog::sglang_blackwell};
    // 4 tokens a rank: the dispatch 4 × 8 × 7168 × 1 B ÷ 4 = 57,344 B per layer, the combine in BF16
    // (the residual format) 114,688 B; over the 8 ranks on NVLink 5 (900 GB/s a direction) with the
    // engine's 24.95 µs floor: 24.95 + 57,344 · 7/8 ÷ 900 GB/s = 25.005751 µs and 24.95 + 114,688 · 7/8
    // ÷ 900 GB/s = 25.061502 µs, 50.067253 µs a layer × 58 layers = 2.903901 ms.
    CHECK(all_to_all_bytes_per_layer(dep, 4.0).value() == doctest::Approx(57344.0).epsilon(1e-15));
    CHECK(all_to_all_bytes_per_layer(dep, 4.0, all_to_all_phase::combine).value() == doctest::Approx(114688.0).epsilon(1e-15));
    CHECK(all_to_all_time_per_pass(dep, 4.0).value() == doctest::Approx(2.903901e-3).epsilon(1e-6));
    // TP8·EP8, dp 1: every rank already holds the batch after attention, runs its own experts, and the
    // FFN's all-reduce (priced with TP) sums them: no all-to-all, on every engine (SGLang's default
    // --moe-a2a-backend none, vLLM's use_all2all_kernels, TensorRT-LLM's enable_alltoall: costs/moe.hpp).
    for (const engine_profile& e : catalog::all_engines) {
        if (e.architecture != gpu_architecture::blackwell) continue;
        deployment tep{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8, .ep = 8}, .engine = e};
        CHECK(all_to_all_time_per_pass(tep, 4.0).value() == 0.0);
        CHECK(decode_pass(tep, 4.0, 2000_tok).ep_time.value() == 0.0);
        CHECK(decode_pass(tep, 4.0, 2000_tok).tp_time.value() > 0.0);
    }
}

TEST_CASE("const_log against the C library") {
    for (double x : {1e-9, 0.3, 1.0, 2.0, 8.0, 10.0, 1024.0, 7.5e7})
        CHECK(detail::const_log(x) == doctest::Approx(std::log(x)).epsilon(1e-14));
}

TEST_CASE("a mixed-input (W4A16) expert GEMM runs at most at its engine's ceiling, hand-worked") {
    // B39: Marlin W4A16 MoE on H100, 384 rows per expert, ∛(k·n) = ∛(4096 · 512). The size curve:
    // n = ∛(384 · 4096 · 512) = 930.37, e = 0.7153 · 930.37 ÷ (930.37 + 798) = 0.38504, so
    // 989.4 TFLOP/s × 0.38504 = 380.96 TFLOP/s; vLLM on Hopper's ceiling 0.2571 × 989.4 = 254.37 TFLOP/s.
    const achievable_fractions& e = catalog::h100_sxm5.gpu.efficiency;
    const double peak = 989.4e12, cbrt_k_n = std::cbrt(4096.0 * 512.0);
    REQUIRE(catalog::vllm_hopper.kernels.mixed_input_expert_gemm == 0.2571);
    CHECK(expert_gemm_rate(e, {.peak = peak}, 384.0, cbrt_k_n) == doctest::Approx(380.96e12).epsilon(1e-4));
    CHECK(expert_gemm_rate(e, {.peak = peak, .ceiling = 0.2571}, 384.0, cbrt_k_n) == doctest::Approx(0.2571 * peak).epsilon(1e-12));
    // Below the ceiling the size curve rules: 4 rows per expert (decode) → padded to 8 rows,
    // n = ∛(8 · 4096 · 512) = 256, e = 0.7153 · 256 ÷ 1054 · 4/8 = 0.08687 < 0.2571: unchanged.
    CHECK(expert_gemm_rate(e, {.peak = peak, .ceiling = 0.2571}, 4.0, cbrt_k_n) ==
          expert_gemm_rate(e, {.peak = peak}, 4.0, cbrt_k_n));
    CHECK(expert_gemm_rate(e, {.peak = peak}, 4.0, cbrt_k_n) == doctest::Approx(0.08687 * peak).epsilon(1e-3));

    // In a prefill pass: gpt-oss-120b (MXFP4 experts, BF16 activations) on one H200 under vLLM, 8,192
    // tokens: 8,192 · 4 assignments over 128 experts = 256 rows each, ∛(256 · 2880 · 2880) = 1,285.3,
    // e = 0.7153 · 1285.3 ÷ 2083.3 = 0.44131 > 0.2571. The experts' FLOPs 2 · 8,192 · 4 · 24,891,840
    // (3 · 2880² + 3 · 2880 biases) · 36 layers = 5.87272e13 take 5.87272e13 · (1 ÷ (0.2571 · 989.4e12)
    // − 1 ÷ (0.44131 · 989.4e12)) = 96.37 ms longer than without the ceiling; nothing else moves.
    deployment capped{.m = catalog::gpt_oss_120b, .hw = catalog::h200_sxm, .engine = catalog::vllm_hopper};
    capped.engine.kernels.mixed_input_hidden_align = 0.0;  // the ceiling alone (the padding: the next case)
    capped.engine.kernels.mixed_input_width_align = 0.0;
    deployment uncapped = capped;
    uncapped.engine.kernels.mixed_input_expert_gemm = 0.0;
    const pass_cost a = prefill_pass(uncapped, 1.0, 8192_tok, 0_tok), b = prefill_pass(capped, 1.0, 8192_tok, 0_tok);
    CHECK((b.matmul_compute_time - a.matmul_compute_time).value() == doctest::Approx(0.09637).epsilon(1e-3));
    CHECK(b.matmul_memory_time == a.matmul_memory_time);
    CHECK(b.attention_compute_time == a.attention_compute_time);
    CHECK(b.flops == a.flops);
    // Decode at batch 4: 16 rows over the experts, far below the ceiling: the same step.
    CHECK(decode_pass(capped, 4.0, 2000_tok).time() == decode_pass(uncapped, 4.0, 2000_tok).time());
    // Experts in the activations' format (served FP4 throughout: W4A8 at the FP8 peak) are no mixed-input GEMM.
    const deployment w4a8 = with_formats(capped, formats::mxfp4, formats::bf16);
    CHECK(prepare_pass(w4a8).mixed_input_ceiling == 0.0);
    CHECK(prepare_pass(capped).mixed_input_ceiling == 0.2571);
    // A dense model has no expert GEMM to cap.
    const deployment dense{.m = catalog::llama_3_1_8b, .hw = catalog::h200_sxm, .engine = catalog::vllm_hopper};
    CHECK(prepare_pass(dense).mixed_input_ceiling == 0.0);
}

TEST_CASE("property: a lower mixed-input ceiling never shortens a pass") {
    // The rate is min(r_curve, c · peak): monotone in c, so a step's time is non-increasing in c.
    deployment d{.m = catalog::gpt_oss_120b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}, .engine = catalog::vllm_hopper};
    for (double prompt : {128.0, 1024.0, 8192.0}) {
        double before = 0.0;
        for (double c : {1.0, 0.6, 0.4, 0.2571, 0.15, 0.05}) {
            d.engine.kernels.mixed_input_expert_gemm = c;
            const double t = prefill_pass(d, 1.0, tokens(prompt), 0_tok).time().value();
            CHECK(t >= before);
            before = t;
        }
    }
}

TEST_CASE("mixed_input_expert_gemm: the descriptor's rule and the table's optional column") {
    engine_profile e = catalog::vllm_hopper;
    e.kernels.mixed_input_expert_gemm = 1.5;
    CHECK(has(test::validation_message(e), "kernels.mixed_input_expert_gemm = 1.5: a mixed-input expert GEMM ceiling"));
    e.kernels.mixed_input_expert_gemm = -0.1;
    CHECK(has(test::validation_message(e), "kernels.mixed_input_expert_gemm = -0.1"));
    e.kernels.mixed_input_expert_gemm = std::numeric_limits<double>::quiet_NaN();
    CHECK(has(test::validation_message(e), "kernels.mixed_input_expert_gemm = nan"));
    e.kernels.mixed_input_expert_gemm = 0.0;  // none
    CHECK(test::validation_message(e).empty());
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    // A table written before the column: no ceiling.
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.mixed_input_expert_gemm == 0.0);
    const std::string columns = header + ",mixed_input_expert_gemm,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",0.3,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.mixed_input_expert_gemm == 0.3);
    const std::string above = test::message_of([&] { return io::parse_engines_csv(columns + row + ",1.5,my runs\n", "mine.csv"); });
    CHECK(has(above, "mine.csv:2"));
    CHECK(has(above, "mixed_input_expert_gemm"));
    CHECK(has(above, "(0, 1]"));
}

TEST_CASE("a mixed-input expert kernel's padded matrices are multiplied and streamed, hand-worked") {
    // vLLM's Marlin MoE pads the hidden dimension to a multiple of 256 and the expert's width on the
    // GPU to one of 128. gpt-oss-120b at TP8: 2880 → 3072 and 2880 ÷ 8 = 360 → 384, so FLOPs and
    // expert weight bytes × 3072 · 384 ÷ (2880 · 360) = 1.137778; at TP1: 3072 · 2944 ÷ 2880² = 1.090370.
    REQUIRE(catalog::vllm_hopper.kernels.mixed_input_hidden_align == 256.0);
    REQUIRE(catalog::vllm_hopper.kernels.mixed_input_width_align == 128.0);
    const deployment padded{.m = catalog::gpt_oss_120b, .hw = catalog::h200_sxm, .layout = {.tp = 8},
                            .engine = catalog::vllm_hopper};
    deployment plain = padded;
    plain.engine.kernels.mixed_input_hidden_align = 0.0;
    plain.engine.kernels.mixed_input_width_align = 0.0;
    CHECK(prepare_pass(padded).expert_parameters == doctest::Approx(prepare_pass(plain).expert_parameters * 1.137778).epsilon(1e-6));
    // Decode, 4 sequences: the experts' FLOPs 2 · 4 · 4 · 24,891,840 · 36 ÷ 8 = 3.584425e9 grow by
    // 0.137778 of themselves, 4.93850e8; the dense FLOPs do not move.
    const pass_cost a = decode_pass(plain, 4.0, 2000_tok), b = decode_pass(padded, 4.0, 2000_tok);
    CHECK((b.matmul_flops - a.matmul_flops).value() == doctest::Approx(4.93850e8).epsilon(1e-5));
    CHECK(b.weight_bytes > a.weight_bytes);
    CHECK(b.attention_flops == a.attention_flops);
    deployment one = padded;
    one.layout.tp = 1;
    deployment one_plain = plain;
    one_plain.layout.tp = 1;
    CHECK(prepare_pass(one).expert_parameters == doctest::Approx(prepare_pass(one_plain).expert_parameters * 1.090370).epsilon(1e-6));
    // No padding where the experts are in the activations' format, nor for a dense model.
    const deployment w4a8 = with_formats(padded, formats::mxfp4, formats::bf16);
    const deployment w4a8_plain = with_formats(plain, formats::mxfp4, formats::bf16);
    CHECK(prepare_pass(w4a8).expert_parameters == prepare_pass(w4a8_plain).expert_parameters);
    // The rule: whole multiples up to 4096, 0 for none.
    engine_profile e = catalog::vllm_hopper;
    e.kernels.mixed_input_hidden_align = 2.5;
    CHECK(has(test::validation_message(e), "kernels.mixed_input_hidden_align = 2.5: a padding multiple"));
    e = catalog::vllm_hopper;
    e.kernels.mixed_input_width_align = std::numeric_limits<double>::quiet_NaN();
    CHECK(has(test::validation_message(e), "kernels.mixed_input_width_align = nan"));
    e.kernels.mixed_input_width_align = 8192.0;
    CHECK(has(test::validation_message(e), "kernels.mixed_input_width_align = 8192"));
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].kernels.mixed_input_hidden_align == 0.0);
    CHECK(old[0].kernels.mixed_input_width_align == 0.0);
    const std::string columns = header + ",mixed_input_hidden_align,mixed_input_width_align,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",256,64,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].kernels.mixed_input_width_align == 64.0);
    const std::string bad = test::message_of([&] { return io::parse_engines_csv(columns + row + ",256,0.5,my runs\n", "mine.csv"); });
    CHECK(has(bad, "mine.csv:2"));
    CHECK(has(bad, "mixed_input_width_align"));
}

TEST_CASE("custom_all_reduce_max_2_ranks: the bound at 2 ranks, the descriptor's rule and the table's optional column") {
    // S_max(n) = S_max,2 at n ≤ 2 where it is set, else S_max: TensorRT-LLM's 16,000,000 B and 8,000,000 B.
    engine_collectives c{.custom_all_reduce_max = bytes(8e6)};
    CHECK(c.custom_all_reduce_max_at(2).value() == 8e6);  // 0: one bound at every count
    c.custom_all_reduce_max_2_ranks = bytes(16e6);
    CHECK(c.custom_all_reduce_max_at(1).value() == 16e6);
    CHECK(c.custom_all_reduce_max_at(2).value() == 16e6);
    CHECK(c.custom_all_reduce_max_at(3).value() == 8e6);
    CHECK(c.custom_all_reduce_max_at(8).value() == 8e6);
    // An old table without the column loads with 0; a new one reads KiB and refuses by column and line.
    const std::string header = test::engine_table_columns();
    const std::string row = "Mine,trtllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,7812.5,0,58.95,460.7,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
    REQUIRE(old.size() == 1);
    CHECK(old[0].collectives.custom_all_reduce_max_2_ranks.value() == 0.0);
    CHECK(old[0].collectives.custom_all_reduce_max_at(2).value() == 8e6);  // 7812.5 KiB × 1024
    const std::string columns = header + ",custom_all_reduce_max_2_ranks_KiB,source\n";
    const auto mine = io::parse_engines_csv(columns + row + ",15625,my runs\n", "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].collectives.custom_all_reduce_max_at(2).value() == 16e6);  // 15625 KiB × 1024
    CHECK(mine[0].collectives == catalog::trtllm_hopper.collectives);
    for (const char* bad : {"-1", "nan", "inf"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(columns + row + "," + bad + ",my runs\n", "mine.csv"); });
        CHECK(has(m, "mine.csv:2"));
        CHECK(has(m, "custom_all_reduce_max_2_ranks_KiB"));
    }
}

TEST_CASE("custom_all_reduce_bus: the custom kernel's measured bus bandwidth (B90), the descriptor's rule and the table's optional column") {
    SUBCASE("SGLang on Blackwell at DeepSeek-V3's TP8 decode, hand-worked") {
        // 61 layers, two all-reduces each (122); 64 tokens of hidden 7168 in BF16: S = 917,504 B, under the
        // 1 MiB cap: t = 5.416 µs + 917,504 · 2·7/8 ÷ 160.7 GB/s = 5.416 + 9.991 = 15.41 µs (TensorRT-LLM's
        // op measured 11.24 µs at 512 KiB and 17.16 µs at 1 MiB, B90), against the link's 5.416 + 1.784 µs.
        deployment d = with_formats({.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8}}, formats::fp8,
                                    formats::fp8);
        d.engine = catalog::sglang_blackwell;
        const double measured_bus = 122 * (5.416e-6 + 917504 * 1.75 / 160.7e9);
        CHECK(measured_bus == doctest::Approx(122 * 15.407e-6).epsilon(1e-4));
        CHECK(decode_pass(d, 64.0, 1000_tok).tp_time.value() == doctest::Approx(measured_bus).epsilon(1e-9));
        deployment link = d;
        link.engine.collectives.custom_all_reduce_bus = bytes_per_second(0.0);
        CHECK(decode_pass(link, 64.0, 1000_tok).tp_time.value() ==
              doctest::Approx(122 * (5.416e-6 + 917504 * 1.75 / 900e9)).epsilon(1e-9));
    }
    SUBCASE("property: a faster custom kernel never lengthens the all-reduce, and at S → 0 only t₀ is left") {
        const deployment base = [] {
            deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::b200_hgx, .layout = {.tp = 8}};
            d.engine = catalog::sglang_blackwell;  // 16 KiB a token: up to 64 tokens under its 1 MiB cap
            return d;
        }();
        for (const double b : {1.0, 8.0, 32.0, 63.0}) {
            double previous = std::numeric_limits<double>::infinity();
            for (const double bus : {50.0, 160.7, 400.0, 900.0}) {
                deployment d = base;
                d.engine.collectives.custom_all_reduce_bus = gigabytes_per_second(bus);
                const double t = decode_pass(d, b, 1000_tok).tp_time.value();
                CHECK(t <= previous);
                previous = t;
            }
        }
        const interconnect c = custom_all_reduce_link(catalog::sglang_blackwell.collectives, catalog::b200_hgx.scale_up, 8,
                                                      all_reduce_algorithm::two_shot);
        CHECK(all_reduce_time(bytes(0.0), 8, c, all_reduce_algorithm::two_shot).value() == doctest::Approx(5.416e-6).epsilon(1e-12));
    }
    SUBCASE("the descriptor's rule names the field, the value and the rule") {
        engine_profile e = catalog::sglang_blackwell;
        e.collectives.custom_all_reduce_bus = gigabytes_per_second(-160.7);
        CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_bus (B/s) = -1.607e+11: a bus bandwidth must be"));
        e.collectives.custom_all_reduce_bus = bytes_per_second(std::numeric_limits<double>::quiet_NaN());
        CHECK(has(test::validation_message(e), "collectives.custom_all_reduce_bus (B/s) = nan"));
        e = catalog::sglang_blackwell;
        e.collectives.all_reduce_latency = seconds(0.0);
        e.collectives.custom_all_reduce_max = bytes(0.0);
        CHECK(has(test::validation_message(e), "needs the custom kernel's latency"));
    }
    SUBCASE("the table's optional column: 0 (the link's) where a table leaves it out, read and checked where present") {
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,5.416,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK(old[0].collectives.custom_all_reduce_bus.value() == 0.0);
        const auto mine = io::parse_engines_csv(engine_table(row, "custom_all_reduce_bus_GBps", "160.7"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].collectives.custom_all_reduce_bus.value() == doctest::Approx(160.7e9).epsilon(1e-12));
        for (const char* bad : {"-1", "nan", "inf"}) {
            const std::string m =
                test::message_of([&] { return io::parse_engines_csv(engine_table(row, "custom_all_reduce_bus_GBps", bad), "mine.csv"); });
            CHECK(has(m, "mine.csv:2"));
            CHECK(has(m, "custom_all_reduce_bus_GBps"));
        }
    }
}

TEST_CASE("cross_host_all_reduce: TensorRT-LLM's MNNVL all-reduce where a TP group spans GB200 trays, by hand") {
    // DeepSeek-V3 NVFP4 / FP8 KV on GB200 NVL72 under TensorRT-LLM on Blackwell: 61 layers, two all-reduces
    // each (122); a tray holds 4 GPUs (gpus_per_node 4), so TP8 spans two trays and runs the cross-host
    // all-reduce t = a + 2(n−1)/n · S ÷ B_bus, a = 9.8 µs, B_bus = 144 GB/s (tokenspeed PR 860's curve).
    const deployment tep = with_formats({.m = catalog::deepseek_v3, .hw = catalog::gb200_nvl72, .layout = {.tp = 8, .ep = 8},
                                         .engine = catalog::trtllm_blackwell},
                                        formats::nvfp4, formats::fp8);
    auto in_host = [](deployment d) {  // the same deployment priced by the in-host rules
        d.engine.collectives.cross_host_all_reduce = seconds(0.0);
        d.engine.collectives.cross_host_all_reduce_bus = bytes_per_second(0.0);
        d.engine.kernels.cross_host_norm_kernels = 0.0;
        d.engine.collectives.cross_host_all_reduce_max = bytes(0.0);
        return d;
    };
    SUBCASE("one sequence: S = 7168 · 2 B = 14,336 B; 9.8 + 14,336 · 1.75 ÷ 144e9 = 9.97422 µs, × 122 = 1.21685 ms") {
        CHECK(decode_pass(tep, 1.0, 922_tok).tp_time.value() == doctest::Approx(122 * 9.974222e-6).epsilon(1e-6));
        // In the tray the link model: 2 · 3.7 µs + 14,336 · 1.75 ÷ 900e9 = 7.42788 µs, × 122 = 0.906201 ms.
        CHECK(decode_pass(in_host(tep), 1.0, 922_tok).tp_time.value() == doctest::Approx(122 * 7.427876e-6).epsilon(1e-6));
        // The step: 122 × (9.97422 − 7.42788) µs = 0.310654 ms more on the all-reduces, and 2 · 61 = 122 RMSNorm
        // kernels more × the hardware's 4 µs = 0.488 ms (cross_host_norm_kernels): 0.798654 ms in all.
        const double more = decode_pass(tep, 1.0, 922_tok).time().value() - decode_pass(in_host(tep), 1.0, 922_tok).time().value();
        CHECK(more == doctest::Approx(0.310654e-3 + 0.488e-3).epsilon(1e-5));
    }
    SUBCASE("64 sequences: S = 917,504 B; 9.8 + 917,504 · 1.75 ÷ 144e9 = 20.9503 µs, × 122 = 2.55593 ms") {
        CHECK(decode_pass(tep, 64.0, 922_tok).tp_time.value() == doctest::Approx(122 * 20.950347e-6).epsilon(1e-6));
    }
    SUBCASE("the host rule: TP4 on a GB200 tray, TP8 on 8-GPU B200 HGX and TP8 where a host held 8 are not priced so") {
        deployment tep4 = tep;
        tep4.layout = {.tp = 4, .ep = 4};
        CHECK(decode_pass(tep4, 1.0, 922_tok).time() == decode_pass(in_host(tep4), 1.0, 922_tok).time());
        CHECK(detail::kernels_per_pass(tep4) == detail::kernels_per_pass(in_host(tep4)));
        deployment hgx = tep;
        hgx.hw = catalog::b200_hgx;
        CHECK(decode_pass(hgx, 8.0, 922_tok).time() == decode_pass(in_host(hgx), 8.0, 922_tok).time());
        deployment eight = tep;
        eight.hw.gpus_per_node = 8;
        CHECK(decode_pass(eight, 8.0, 922_tok).time() == decode_pass(in_host(eight), 8.0, 922_tok).time());
        // Attention DP over 8 trays' GPUs (TP1): no TP all-reduce, nothing to price.
        deployment dep = tep;
        dep.layout = {.tp = 1, .ep = 8, .dp = 8};
        CHECK(decode_pass(dep, 8.0, 922_tok).time() == decode_pass(in_host(dep), 8.0, 922_tok).time());
        // TP16 over four trays: still the cross-host curve (2·15/16 = 1.875): 9.8 + 14,336 · 1.875 ÷ 144e9 µs.
        deployment tp16 = tep;
        tp16.layout = {.tp = 16, .ep = 16};
        CHECK(decode_pass(tp16, 1.0, 922_tok).tp_time.value() ==
              doctest::Approx(122 * (9.8e-6 + 14336 * 1.875 / 144e9)).epsilon(1e-6));
    }
    SUBCASE("the workspace bound: 141 tokens the cross-host curve, 142 and a 922-token prompt the library's fit") {
        // MNNVLAllReduce's workspace holds 1,015,808 BF16 elements (1,984 KiB = 2,031,616 B): 141 tokens of
        // 7168 (2,021,376 B) fit, 142 (2,035,712 B) fall back to the AUTO all-reduce, priced by the library's
        // fit t = 28.5 µs + 2(n−1)/n · S ÷ 619 GB/s (library_all_reduce_us, library_all_reduce_bus_GBps).
        CHECK(catalog::trtllm_blackwell.collectives.cross_host_all_reduce_max.value() == 2031616.0);
        // 141: 9.8 + 2,021,376 · 1.75 ÷ 144e9 = 9.8 + 24.56533 = 34.36533 µs
        CHECK(decode_pass(tep, 141.0, 922_tok).tp_time.value() == doctest::Approx(122 * 34.365333e-6).epsilon(1e-6));
        // 142: 28.5 + 2,035,712 · 1.75 ÷ 619e9 = 28.5 + 5.755198 = 34.255198 µs
        CHECK(decode_pass(tep, 142.0, 922_tok).tp_time.value() == doctest::Approx(122 * 34.255198e-6).epsilon(1e-6));
        // A 922-token prompt step: S = 13,217,792 B; 28.5 + 13,217,792 · 1.75 ÷ 619e9 = 65.86856 µs (the
        // cross-host curve would be 9.8 + 160.6328 = 170.43 µs).
        CHECK(prefill_pass(tep, 1.0, 922_tok, 0_tok).tp_time.value() == doctest::Approx(122 * 65.868556e-6).epsilon(1e-6));
        // No bound: the cross-host curve at every size.
        deployment unbounded = tep;
        unbounded.engine.collectives.cross_host_all_reduce_max = bytes(0.0);
        CHECK(prefill_pass(unbounded, 1.0, 922_tok, 0_tok).tp_time.value() ==
              doctest::Approx(122 * (9.8e-6 + 13217792.0 * 1.75 / 144e9)).epsilon(1e-6));
        // The bound is refused where it is negative or has no cross-host all-reduce to bound.
        engine_profile e = catalog::trtllm_blackwell;
        e.collectives.cross_host_all_reduce_max = bytes(-1.0);
        CHECK(has(test::validation_message(e), "collectives.cross_host_all_reduce_max (B) = -1: a cross-host all-reduce's largest message"));
        e = catalog::trtllm_blackwell;
        e.kernels.cross_host_norm_kernels = 0.0;
        e.collectives.cross_host_all_reduce = seconds(0.0);
        e.collectives.cross_host_all_reduce_bus = bytes_per_second(0.0);
        CHECK(has(test::validation_message(e), "collectives.cross_host_all_reduce_max (B) = 2031616"));
        CHECK(has(test::validation_message(e), "needs its fixed time (cross_host_all_reduce)"));
    }
    SUBCASE("pipeline parallelism: TP4·PP2 on GB200 spans two trays (world_size tp·pp = 8 > 4)") {
        // tensorrt_llm/mapping.py is_multi_node(): world_size > gpus_per_node, world_size = tp·pp·cp; the TP4
        // group's all-reduce takes MNNVLAllReduce: 2(n−1)/n = 1.5, 9.8 + 14,336 · 1.5 ÷ 144e9 = 9.949333 µs,
        // 122 a pass (2 a layer, whatever the stage split).
        deployment tp4pp2 = tep;
        tp4pp2.layout = {.tp = 4, .pp = 2, .ep = 4};
        CHECK(decode_pass(tp4pp2, 1.0, 922_tok).tp_time.value() == doctest::Approx(122 * 9.949333e-6).epsilon(1e-6));
        deployment tp4 = tep;
        tp4.layout = {.tp = 4, .ep = 4};
        CHECK(decode_pass(tp4, 1.0, 922_tok).tp_time.value() == decode_pass(in_host(tp4), 1.0, 922_tok).tp_time.value());
    }
    SUBCASE("property: a slower cross-host fabric never shortens the all-reduce") {
        for (const double b : {1.0, 8.0, 64.0}) {
            double previous = 0.0;
            for (const double bus : {900.0, 400.0, 144.0, 50.0}) {
                deployment d = tep;
                d.engine.collectives.cross_host_all_reduce_bus = gigabytes_per_second(bus);
                const double t = decode_pass(d, b, 922_tok).tp_time.value();
                CHECK(t >= previous);
                previous = t;
            }
        }
    }
    SUBCASE("the descriptor's rules name the field, the value and the rule") {
        engine_profile e = catalog::trtllm_blackwell;
        e.collectives.cross_host_all_reduce_bus = gigabytes_per_second(-144.0);
        CHECK(has(test::validation_message(e), "collectives.cross_host_all_reduce_bus (B/s) = -1.44e+11: a bus bandwidth must be"));
        e.collectives.cross_host_all_reduce_bus = bytes_per_second(std::numeric_limits<double>::quiet_NaN());
        CHECK(has(test::validation_message(e), "collectives.cross_host_all_reduce_bus (B/s) = nan"));
        e = catalog::trtllm_blackwell;
        e.kernels.cross_host_norm_kernels = 0.0;
        e.collectives.cross_host_all_reduce = seconds(-9.8e-6);
        CHECK(has(test::validation_message(e), "collectives.cross_host_all_reduce (s)"));
        CHECK(has(test::validation_message(e), "a cross-host all-reduce's fixed time must be in [0, 10 ms)"));
        e = catalog::trtllm_blackwell;
        e.collectives.cross_host_all_reduce_bus = bytes_per_second(0.0);
        CHECK(has(test::validation_message(e), "the cross-host all-reduce needs both its fixed time and its bus bandwidth"));
    }
    SUBCASE("the catalog (tables/engines.csv): TensorRT-LLM on Blackwell only") {
        CHECK(catalog::trtllm_blackwell.collectives.cross_host_all_reduce.value() == doctest::Approx(9.8e-6).epsilon(1e-12));
        CHECK(catalog::trtllm_blackwell.collectives.cross_host_all_reduce_bus.value() == doctest::Approx(144e9).epsilon(1e-12));
        for (const engine_profile& e : catalog::all_engines)
            if (!(e == catalog::trtllm_blackwell)) CHECK(e.collectives.cross_host_all_reduce.value() == 0.0);
    }
    SUBCASE("the table's optional columns: 0 (none) where a table leaves them out, read and checked where present") {
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,5.416,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK(old[0].collectives.cross_host_all_reduce.value() == 0.0);
        CHECK(old[0].collectives.cross_host_all_reduce_bus.value() == 0.0);
        CHECK(old[0].collectives.cross_host_all_reduce_max.value() == 0.0);
        const std::string cols = "cross_host_all_reduce_us,cross_host_all_reduce_bus_GBps,cross_host_all_reduce_max_KiB";
        const auto mine = io::parse_engines_csv(engine_table(row, cols, "9.8,144,1984"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].collectives.cross_host_all_reduce.value() == doctest::Approx(9.8e-6).epsilon(1e-12));
        CHECK(mine[0].collectives.cross_host_all_reduce_bus.value() == doctest::Approx(144e9).epsilon(1e-12));
        CHECK(mine[0].collectives.cross_host_all_reduce_max.value() == 1984.0 * 1024.0);
        for (const char* bad : {"9.8,-1,0", "9.8,nan,0", "-9.8,144,0", "9.8,0,0", "9.8,144,-1", "0,0,1984"}) {
            CAPTURE(bad);
            const std::string m = test::message_of([&] { return io::parse_engines_csv(engine_table(row, cols, bad), "mine.csv"); });
            CHECK(has(m, "mine.csv:2"));
            CHECK(has(m, "cross_host_all_reduce"));
        }
    }
}

TEST_CASE("dense GEMMs run 16-bit in small steps (AMD's FP16 path for small FP8 inputs)") {
    // Mixtral-8x7B, FP8 weights and activations, on one MI325X under vLLM on CDNA 3 (gemm = 1, no FP8
    // curve of its own: the hardware's e(n) = 0.5975 · n ÷ (n + 1100) for both formats). Dense matmul
    // parameters outside the experts and the LM head, 32 layers of QKV 4,096 × 6,144, O 4,096 × 4,096
    // and the router 4,096 × 8: P_dense = 32 · (25,165,824 + 16,777,216 + 32,768) = 1,343,225,856
    // (the norms' 266,240 are within 0.02%).
    // A decode step of b = 512 sequences: t = 512 tokens ≤ 2,560, so with the rule on
    //   n = ∛(512 · 4,096 · 4,096) = 2,048, e = 0.5975 · 2,048 ÷ 3,148 = 0.388717
    //   8-bit:  F ÷ (P₈ · e) = 2 · 512 · 1.343226e9 ÷ (2,614.9e12 · 0.388717) = 1.353196 ms
    //   16-bit: the same FLOPs at P₁₆ = 1,307.4 TFLOP/s: × 2,614.9 ÷ 1,307.4 = 2.0000765 → + 1.353300 ms
    //   bytes:  + P_dense · (16 − 8) ÷ 8 = 1.343226e9 B at 6.0 TB/s · 0.783 = 4.698 TB/s → + 0.285914 ms
    const deployment narrow = [] {
        deployment d = with_formats({.m = catalog::mixtral_8x7b, .hw = catalog::mi325x}, formats::fp8, formats::fp8);
        d.engine = catalog::vllm_cdna3;
        return d;
    }();
    deployment wide = narrow;
    wide.engine.kernels.wide_dense_max_tokens = 2560.0;
    const pass_cost a = decode_pass(narrow, 512.0, 1000_tok), b = decode_pass(wide, 512.0, 1000_tok);
    CHECK((b.matmul_compute_time - a.matmul_compute_time).value() == doctest::Approx(1.353300e-3).epsilon(5e-4));
    CHECK((b.matmul_memory_time - a.matmul_memory_time).value() == doctest::Approx(0.285914e-3).epsilon(5e-4));
    CHECK(b.attention_memory_time.value() == a.attention_memory_time.value());
    CHECK(b.elementwise_time.value() == a.elementwise_time.value());

    SUBCASE("a step of more than T tokens keeps its 8-bit GEMMs: priced exactly as without the rule") {
        // 8 prompts of 512 tokens: t = 4,096 > 2,560.
        const pass_cost p = prefill_pass(narrow, 8.0, 512_tok, 0_tok), q = prefill_pass(wide, 8.0, 512_tok, 0_tok);
        CHECK(q.matmul_compute_time.value() == p.matmul_compute_time.value());
        CHECK(q.matmul_memory_time.value() == p.matmul_memory_time.value());
        CHECK(q.time().value() == p.time().value());
    }
    SUBCASE("property: never faster, the GEMMs alone move, and only up to T tokens") {
        for (double batch : {1.0, 8.0, 64.0, 512.0, 2048.0, 2560.0, 2561.0, 4096.0}) {
            const pass_cost x = decode_pass(narrow, batch, 1000_tok), y = decode_pass(wide, batch, 1000_tok);
            CHECK(y.time().value() >= x.time().value());
            CHECK(y.matmul_compute_time.value() >= x.matmul_compute_time.value());
            CHECK(y.attention_compute_time.value() == x.attention_compute_time.value());
            if (batch > 2560.0) CHECK(y.time().value() == x.time().value());
            else CHECK(y.matmul_compute_time.value() > x.matmul_compute_time.value());
        }
        // 16-bit weights already: nothing to widen.
        deployment bf16 = with_formats({.m = catalog::mixtral_8x7b, .hw = catalog::mi325x}, formats::bf16, formats::fp8);
        bf16.engine = catalog::vllm_cdna3;
        deployment bf16_wide = bf16;
        bf16_wide.engine.kernels.wide_dense_max_tokens = 2560.0;
        CHECK(decode_pass(bf16_wide, 512.0, 1000_tok).time().value() == decode_pass(bf16, 512.0, 1000_tok).time().value());
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::vllm_cdna3;
        e.kernels.wide_dense_max_tokens = -1.0;
        CHECK(has(test::validation_message(e), "kernels.wide_dense_max_tokens = -1"));
        e.kernels.wide_dense_max_tokens = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.wide_dense_max_tokens = nan"));
        e.kernels.wide_dense_max_tokens = std::numeric_limits<double>::infinity();
        CHECK(has(test::validation_message(e), "16-bit"));
    }
}

namespace {
/// A profile with its prompt kernel at the one rate (the prompt attention curve, B95, off): the tests of
/// the two-kernel form work their figures at R = 744.75 TFLOP/s.
engine_profile prompts_at_one_rate(engine_profile e) {
    e.kernels.prompt_attention_efficiency = 0.0;
    e.kernels.prompt_attention_half_keys = 0.0;
    e.kernels.prompt_attention_half_rows = 0.0;
    return e;
}
}  // namespace

TEST_CASE("a step's prompt and decode attention as two kernels (separate_prompt_attention)") {
    // TensorRT-LLM's attention op runs its runner for the context requests, then for the generation
    // requests (NVIDIA/TensorRT-LLM @38134b1 cpp/tensorrt_llm/thop/attentionOp.cpp; docs/blackwell-dense-decode-aic.md).
    // The prompt kernel at the one rate here; its curve (B95) has a test of its own.
    deployment two{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx, .engine = prompts_at_one_rate(catalog::trtllm_blackwell)};
    deployment one = two;
    one.engine.kernels.separate_prompt_attention = false;
    REQUIRE(two.engine.kernels.separate_prompt_attention);
    const step_shape mixed{.decode_sequences = 1000, .decode_context = 1000_tok, .prefill_sequences = 1,
                           .prefill_tokens = 2000_tok, .prefill_prefix = 0_tok};
    SUBCASE("a mixed step by hand") {
        // Llama-3.1-8B, BF16 KV: 32 layers · 8 KV heads · 128 · 2 (K, V) · 2 B = 131,072 B a token; 4 · 32 heads · 128 =
        // 16,384 FLOPs a query-key pair a layer. B200: R = 2,250 TFLOP/s · 0.331 = 744.75 TFLOP/s, B = 8 TB/s · 0.919
        // = 7.352 TB/s (tables/hardware.csv; TensorRT-LLM on Blackwell's attention multipliers are 1).
        // Decodes: 1,000 · 32 · 1,001 pairs · 16,384 = 524.81 GFLOP → 0.704682 ms; KV 1,000 · 1,000 · 131,072 B
        //   = 131.07 GB → 17.828074 ms.
        // Prompt: 32 · 2,000 · 2,001 ÷ 2 pairs · 16,384 = 1,049.10 GFLOP → 1.408661 ms; KV 2,000 · 131,072 B → 0.035656 ms.
        // Two kernels: 17.828074 + 1.408661 = 19.236735 ms; one: max(0.704682 + 1.408661, 17.828074 + 0.035656) = 17.863730 ms.
        CHECK(step_pass(two, mixed).attention_time().value() == doctest::Approx(19.236735e-3).epsilon(1e-6));
        CHECK(step_pass(one, mixed).attention_time().value() == doctest::Approx(17.863730e-3).epsilon(1e-6));
        // the step's other terms do not move
        CHECK(step_pass(two, mixed).matmul_time().value() == step_pass(one, mixed).matmul_time().value());
        CHECK(step_pass(two, mixed).attention_memory_time.value() == step_pass(one, mixed).attention_memory_time.value());
    }
    SUBCASE("property: never shorter than one kernel; decodes alone or prompts alone priced as before") {
        for (double ds : {0.0, 1.0, 64.0, 1500.0}) {
            for (double ps : {0.0, 1.0, 12.0}) {
                if (ds + ps == 0.0) continue;
                for (double n : {128.0, 871.0, 8192.0}) {
                    const step_shape s{.decode_sequences = ds, .decode_context = 935_tok, .prefill_sequences = ps,
                                       .prefill_tokens = tokens(n), .prefill_prefix = 0_tok};
                    CAPTURE(ds);
                    CAPTURE(ps);
                    CAPTURE(n);
                    const double t2 = step_pass(two, s).time().value(), t1 = step_pass(one, s).time().value();
                    CHECK(t2 >= t1);
                    if (ds == 0.0 || ps == 0.0) CHECK(t2 == doctest::Approx(t1).epsilon(1e-12));
                    // the two kernels' time is never below the KV stream of both
                    CHECK(step_pass(two, s).attention_compute_time.value() >=
                          step_pass(two, s).attention_memory_time.value() * (1.0 - 1e-12));
                }
            }
        }
    }
    SUBCASE("the profiles: TensorRT-LLM on Blackwell only") {
        CHECK(catalog::trtllm_blackwell.kernels.separate_prompt_attention);
        CHECK_FALSE(catalog::trtllm_hopper.kernels.separate_prompt_attention);
        CHECK_FALSE(catalog::vllm_blackwell.kernels.separate_prompt_attention);
        CHECK_FALSE(catalog::sglang_blackwell.kernels.separate_prompt_attention);
    }
    SUBCASE("the table's column: 0 where a table leaves it out, 0 or 1 else, a bad value named") {
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK_FALSE(old[0].kernels.separate_prompt_attention);
        const auto mine = io::parse_engines_csv(engine_table(row, "separate_prompt_attention", "1"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.separate_prompt_attention);
        const std::string two_value = test::message_of(
            [&] { return io::parse_engines_csv(engine_table(row, "separate_prompt_attention", "2"), "mine.csv"); });
        CHECK(has(two_value, "mine.csv:2"));
        CHECK(has(two_value, "separate_prompt_attention"));
        CHECK(has(two_value, "a flag is 0 or 1"));
    }
}

TEST_CASE("a step's attention by kind (attention_kinds): the four terms both forms of the step take") {
    // One set of terms, F_d, F_p, S_d, S_p, KV_d, KV_p, for the one-roofline form (B06; MLA decode at its own rate,
    // E44–E46) and the two-kernel form (NVIDIA/TensorRT-LLM @38134b1 cpp/tensorrt_llm/thop/attentionOp.cpp).
    // The prompt kernel at the one rate (its curve, B95, has a test of its own).
    const deployment llama{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx, .engine = prompts_at_one_rate(catalog::trtllm_blackwell)};
    const step_shape mixed{.decode_sequences = 1000, .decode_context = 1000_tok, .prefill_sequences = 1,
                           .prefill_tokens = 2000_tok, .prefill_prefix = 0_tok};
    auto kinds = [](const pass_model& pm, const step_shape& s) {
        return detail::attention_kinds_of(pm, detail::sequence_terms_of(pm, s), s.decode_sequences, s.prefill_sequences);
    };
    SUBCASE("the four terms by hand (Llama-3.1-8B on B200, the mixed step of the two-kernel test)") {
        // 16,384 FLOPs a query-key pair a layer, 131,072 KV bytes a token; R = 744.75 TFLOP/s, B = 7.352 TB/s.
        const pass_model pm = prepare_pass(llama);
        const detail::attention_kinds<double> k = kinds(pm, mixed);
        CHECK(k.decode_flops == 1000.0 * 32 * 1001 * 16384);       // 524.81 GFLOP
        CHECK(k.prompt_flops == 32.0 * 2000 * 2001 / 2 * 16384);   // 1,049.10 GFLOP
        CHECK(k.decode_state == 0.0);
        CHECK(k.prompt_state == 0.0);
        CHECK(k.decode_kv == 1000.0 * 1000 * 131072);
        CHECK(k.prompt_kv == 2000.0 * 131072);
        CHECK(k.decode_compute(pm) == doctest::Approx(0.704682e-3).epsilon(1e-6));
        CHECK(k.prompt_compute(pm) == doctest::Approx(1.408661e-3).epsilon(1e-6));
        CHECK(k.decode_memory(pm) == doctest::Approx(17.828074e-3).epsilon(1e-6));
        CHECK(k.prompt_memory(pm) == doctest::Approx(0.035656e-3).epsilon(1e-6));
        CHECK(k.flops(pm) == doctest::Approx(1573.912576e9).epsilon(1e-12));
        CHECK(k.kv_bytes(pm) == doctest::Approx(131.334144e9).epsilon(1e-12));
    }
    SUBCASE("state-space layers: each token's recurrence with its own kind (Nemotron-H 8B)") {
        // s = 4 · 64 · 128 · 128 · 24 FLOPs a token (unit-costs); 10 decodes, 2 prompts of 300 tokens.
        const deployment hybrid{.m = catalog::nemotron_h_8b, .hw = catalog::b200_hgx, .engine = catalog::trtllm_blackwell};
        const pass_model pm = prepare_pass(hybrid);
        const step_shape s{.decode_sequences = 10, .decode_context = 1000_tok, .prefill_sequences = 2,
                           .prefill_tokens = 300_tok, .prefill_prefix = 0_tok};
        const detail::attention_kinds<double> k = kinds(pm, s);
        const double per_token = 4.0 * 64 * 128 * 128 * 24;
        CHECK(k.decode_state == 10.0 * per_token);
        CHECK(k.prompt_state == 600.0 * per_token);
        CHECK(k.flops(pm) == doctest::Approx(k.decode_flops + k.prompt_flops + 610.0 * per_token).epsilon(1e-12));
        // one rate: the decode kernel's recurrence at R as its pairs
        CHECK(k.decode_compute(pm) == doctest::Approx((k.decode_flops + 10.0 * per_token) / pm.attention_rate).epsilon(1e-12));
    }
    SUBCASE("property: both forms take the same terms, at one rate and at MLA decode's own rate") {
        deployment v3{.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8},
                      .engine = prompts_at_one_rate(catalog::trtllm_blackwell)};
        v3.engine.kernels.mla_decode = 2.0;
        for (const deployment& two : {llama, v3}) {
            deployment one = two;
            one.engine.kernels.separate_prompt_attention = false;
            const pass_model p1 = prepare_pass(one), p2 = prepare_pass(two);
            const bool mla = two.m.attention.kind == attention_kind::latent;
            CHECK((p1.attention_rate_decode == 2.0 * p1.attention_rate) == mla);
            for (double ds : {0.0, 1.0, 300.0}) {
                for (double ps : {0.0, 1.0, 3.0}) {
                    if (ds + ps == 0.0) continue;
                    const step_shape s{.decode_sequences = ds, .decode_context = 3000_tok, .prefill_sequences = ps,
                                       .prefill_tokens = 1500_tok, .prefill_prefix = 500_tok};
                    CAPTURE(mla);
                    CAPTURE(ds);
                    CAPTURE(ps);
                    const detail::attention_kinds<double> k = kinds(p1, s);
                    const pass_cost c1 = step_pass(p1, s), c2 = step_pass(p2, s);
                    // one roofline: decode + prompt compute (one division of the FLOPs at one rate), the KV total ÷ B
                    CHECK(c1.attention_compute_time.value() ==
                          doctest::Approx(k.decode_compute(p1) + k.prompt_compute(p1)).epsilon(1e-12));
                    CHECK(c1.attention_memory_time.value() ==
                          doctest::Approx(k.decode_memory(p1) + k.prompt_memory(p1)).epsilon(1e-12));
                    CHECK(c1.attention_flops.value() == c2.attention_flops.value());
                    CHECK(c1.kv_bytes.value() == c2.kv_bytes.value());
                    // two kernels: each kind's own roofline, summed
                    CHECK(c2.attention_compute_time.value() ==
                          doctest::Approx(std::max(k.decode_compute(p1), k.decode_memory(p1)) +
                                          std::max(k.prompt_compute(p1), k.prompt_memory(p1)))
                              .epsilon(1e-12));
                }
            }
        }
    }
}

TEST_CASE("the prompts' attention curve e(s̄, W) on TensorRT-LLM on Blackwell (B95-B96)") {
    // e(s̄, W) = e∞ · s̄ ÷ (s̄ + s₀) · W ÷ (W + W₀) of the BF16 peak, e∞ 0.7376, s₀ 1,162 keys, W₀ 40,160
    // query-head rows, fitted to TensorRT-LLM 1.3.0rc20's context attention on B200 (aiconfigurator's table,
    // docs/blackwell-dense-decode-aic.md, session 19).
    const engine_kernels& k = catalog::trtllm_blackwell.kernels;
    // Llama-3.1-8B with an FP8 KV cache, the class the curve was fitted on (FP8 FMHA over FP8 KV)
    const deployment llama = [] {
        deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx, .engine = catalog::trtllm_blackwell};
        d.m.kv_cache = formats::fp8;
        return d;
    }();
    SUBCASE("the curve by hand") {
        // one prompt of 2,000 tokens, 32 query heads: s̄ = 2,001 ÷ 2 = 1,000.5, W = 64,000:
        // 0.7376 · 1,000.5 ÷ 2,162.5 · 64,000 ÷ 104,160 = 0.7376 · 0.462659 · 0.614439 = 0.2096819
        CHECK(k.prompt_attention_at(tokens(1000.5), 64000.0) == doctest::Approx(0.2096819).epsilon(1e-6));
        // 12 prompts of 871 (the 8B Offline step): s̄ 436, W 334,464: 0.1796737 (404.3 TFLOP/s, the table ~410)
        CHECK(k.prompt_attention_at(tokens(436.0), 12.0 * 871 * 32) == doctest::Approx(0.1796737).epsilon(1e-6));
        // 6 prompts of 222 at 64 heads (the 70B Offline step): s̄ 111.5, W 85,248: 0.0438991 (98.8 TFLOP/s)
        CHECK(k.prompt_attention_at(tokens(111.5), 6.0 * 222 * 64) == doctest::Approx(0.0438991).epsilon(1e-6));
        // the lane form is the same formula
        CHECK(k.prompt_attention_at(1000.5, 64000.0) == k.prompt_attention_at(tokens(1000.5), 64000.0));
    }
    SUBCASE("a mixed step by hand: the prompt kernel at its shape's rate") {
        // Llama-3.1-8B, FP8 KV, 1,000 decodes at 1,000 + one 2,000-token prompt (the two-kernel test's step):
        // F_p = 32 · 2,000 · 2,001 ÷ 2 · 16,384 = 1,049.10 GFLOP at 2,250 TFLOP/s · 0.2096819 = 471.78 TFLOP/s
        // → 2.223687 ms (1.408661 ms at the BF16 one rate, 744.75 TFLOP/s); the decode kernel reads half the
        // BF16 test's KV (1,000 · 1,000 · 65,536 B = 65.54 GB, 17.828074 ÷ 2 = 8.914037 ms), so two kernels
        // 8.914037 + 2.223687 = 11.137724 ms.
        const step_shape mixed{.decode_sequences = 1000, .decode_context = 1000_tok, .prefill_sequences = 1,
                               .prefill_tokens = 2000_tok, .prefill_prefix = 0_tok};
        const pass_model pm = prepare_pass(llama);
        CHECK(pm.prompt_attention_curve);
        const auto kinds = detail::attention_kinds_of(pm, detail::sequence_terms_of(pm, mixed), 1000.0, 1.0);
        CHECK(kinds.prompt_keys == 1000.5);
        CHECK(kinds.prompt_rows == 64000.0);
        CHECK(kinds.prompt_compute(pm) == doctest::Approx(2.223687e-3).epsilon(1e-6));
        CHECK(step_pass(llama, mixed).attention_time().value() == doctest::Approx(11.137724e-3).epsilon(1e-6));
        // the decode kernel and the other terms do not move
        deployment flat = llama;
        flat.engine.kernels.prompt_attention_efficiency = 0.0;
        flat.engine.kernels.prompt_attention_half_keys = 0.0;
        flat.engine.kernels.prompt_attention_half_rows = 0.0;
        const step_shape decodes{.decode_sequences = 1000, .decode_context = 1000_tok};
        CHECK(step_pass(llama, decodes).time().value() == step_pass(flat, decodes).time().value());
        CHECK(step_pass(llama, mixed).matmul_time().value() == step_pass(flat, mixed).matmul_time().value());
    }
    SUBCASE("a chunk after a prefix: s̄ is the mean keys a new query attends") {
        // 3 prompts of 1,500 new tokens after 500 cached: pairs a layer Σ_{501}^{2000} i = 1,875,750,
        // s̄ = 1,875,750 ÷ 1,500 = 1,250.5, W = 3 · 1,500 · 32 = 144,000: e = 0.2989541
        const step_shape s{.prefill_sequences = 3, .prefill_tokens = 1500_tok, .prefill_prefix = 500_tok};
        const pass_model pm = prepare_pass(llama);
        const auto kinds = detail::attention_kinds_of(pm, detail::sequence_terms_of(pm, s), 0.0, 3.0);
        CHECK(kinds.prompt_keys == doctest::Approx(1250.5).epsilon(1e-12));
        CHECK(kinds.prompt_rows == 144000.0);
        CHECK(kinds.prompt_compute(pm) ==
              doctest::Approx(kinds.prompt_flops / (2250e12 * 0.2989541)).epsilon(1e-6));
    }
    SUBCASE("a call of whole prompts: s̄ = (n + 1) ÷ 2, W = p · n · H, the shape a step of whole prompts gets") {
        // one prompt of 2,000 tokens, 32 heads: s̄ = 2,001 ÷ 2 = 1,000.5, W = 64,000
        const prompt_attention_call one = whole_prompt_attention(1.0, 2000_tok, 32.0);
        CHECK(one.mean_keys.value() == 1000.5);
        CHECK(one.query_rows == 64000.0);
        // 12 prompts of 871 tokens: s̄ = 872 ÷ 2 = 436, W = 12 · 871 · 32 = 334,464; 6 of 222 at 64 heads: 111.5, 85,248
        const prompt_attention_call twelve = whole_prompt_attention(12.0, 871_tok, 32.0);
        CHECK(twelve.mean_keys.value() == 436.0);
        CHECK(twelve.query_rows == 334464.0);
        const prompt_attention_call six = whole_prompt_attention(6.0, 222_tok, 64.0);
        CHECK(six.mean_keys.value() == 111.5);
        CHECK(six.query_rows == 85248.0);
        // no prompt tokens: no shape
        CHECK(whole_prompt_attention(3.0, 0_tok, 32.0).mean_keys.value() == 0.0);
        CHECK(whole_prompt_attention(3.0, 0_tok, 32.0).query_rows == 0.0);
        // A step of 12 whole prompts of Llama-3.1-8B (32 layers, 32 heads on one GPU) gets the same shape to the bit.
        const step_shape s{.prefill_sequences = 12, .prefill_tokens = 871_tok, .prefill_prefix = 0_tok};
        const pass_model pm = prepare_pass(llama);
        const auto kinds = detail::attention_kinds_of(pm, detail::sequence_terms_of(pm, s), 0.0, 12.0);
        CHECK(kinds.prompt_keys == twelve.mean_keys.value());
        CHECK(kinds.prompt_rows == twelve.query_rows);
        // Impossible calls are refused, the argument and its value named.
        CHECK(test::contains(test::error_of([] { return whole_prompt_attention(-1.0, 871_tok, 32.0); }), "prompts"));
        CHECK(test::contains(test::error_of([] { return whole_prompt_attention(1.0, tokens(-5.0), 32.0); }), "prompt tokens"));
        const std::string heads = test::error_of([] { return whole_prompt_attention(1.0, 871_tok, 0.0); });
        CHECK(test::contains(heads, "query heads"));
        CHECK(test::contains(heads, "positive"));
    }
    SUBCASE("where it applies: standard attention of head_dim 128 on an engine that runs the prompt kernel apart") {
        CHECK(k.own_prompt_attention_curve());
        CHECK_FALSE(catalog::trtllm_hopper.kernels.own_prompt_attention_curve());
        CHECK_FALSE(catalog::vllm_blackwell.kernels.own_prompt_attention_curve());
        CHECK_FALSE(catalog::sglang_blackwell.kernels.own_prompt_attention_curve());
        CHECK(prepare_pass(llama).prompt_attention_curve);
        // MLA (DeepSeek-V3) and head_dim 64 (gpt-oss) keep the one rate: not the kernel class of the fit
        CHECK_FALSE(prepare_pass({.m = catalog::deepseek_v3, .hw = catalog::b200_hgx, .layout = {.tp = 8},
                                  .engine = catalog::trtllm_blackwell}).prompt_attention_curve);
        CHECK_FALSE(prepare_pass({.m = catalog::gpt_oss_120b, .hw = catalog::b200_hgx, .engine = catalog::trtllm_blackwell})
                        .prompt_attention_curve);
        deployment one = llama;  // one kernel over both: the curve is refused, not silently ignored
        one.engine.kernels.separate_prompt_attention = false;
        CHECK_THROWS_WITH_AS(static_cast<void>(prepare_pass(one)),
                             doctest::Contains("read only with separate_prompt_attention = 1"), invalid_input);
    }
    SUBCASE("property: the rate rises with the prompt's length and with the prompts a step carries") {
        double previous = 0.0;
        for (double n : {64.0, 222.0, 871.0, 2048.0, 8192.0, 20000.0}) {
            const double e = k.prompt_attention_at(tokens((n + 1.0) / 2.0), n * 32.0);
            CHECK(e > previous);
            CHECK(e < k.prompt_attention_efficiency);
            previous = e;
        }
        previous = 0.0;
        for (double p : {1.0, 2.0, 6.0, 12.0, 64.0}) {
            const double e = k.prompt_attention_at(tokens(436.0), p * 871.0 * 32.0);
            CHECK(e > previous);
            previous = e;
        }
        // and a step's time never falls as prompts are added
        double t_prev = 0.0;
        for (double p : {0.0, 1.0, 2.0, 5.0, 12.0}) {
            const step_shape s{.decode_sequences = 1548, .decode_context = 935_tok, .prefill_sequences = p,
                               .prefill_tokens = 871_tok, .prefill_prefix = 0_tok};
            const double t = step_pass(llama, s).time().value();
            CHECK(t >= t_prev);
            t_prev = t;
        }
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_efficiency = std::numeric_limits<double>::quiet_NaN();
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_efficiency = nan"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_efficiency = 2.5;
        CHECK(has(test::validation_message(e), "a prompt attention e∞ must be 0"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_half_keys = -1.0;
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_half_keys = -1"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_half_rows = std::numeric_limits<double>::infinity();
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_half_rows = inf"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_half_rows = 0.0;
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_half_rows = 0"));
        CHECK(has(test::validation_message(e), "the prompt attention curve needs its e∞, s₀ and W₀"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_half_keys = 0.0;
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_half_keys = 0"));
        e = catalog::trtllm_blackwell;
        e.kernels.prompt_attention_efficiency = 0.0;
        CHECK(has(test::validation_message(e), "kernels.prompt_attention_efficiency = 0"));
        e = catalog::trtllm_blackwell;  // a curve on an engine that runs one attention kernel would be ignored
        e.kernels.separate_prompt_attention = false;
        CHECK(has(test::validation_message(e), "read only with separate_prompt_attention = 1"));
    }
    SUBCASE("outside the fitted class the prompt kernel keeps the one rate") {
        // BF16 KV (the catalog's Llama-3.1-8B) and windowed layers (Gemma 3) are not the class of B95
        CHECK_FALSE(prepare_pass(deployment{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx,
                                            .engine = catalog::trtllm_blackwell})
                        .prompt_attention_curve);
        CHECK(prepare_pass(llama).prompt_attention_curve);
        deployment gemma{.m = catalog::gemma_3_27b, .hw = catalog::b200_hgx, .engine = catalog::trtllm_blackwell};
        gemma.m.kv_cache = formats::fp8;
        REQUIRE(gemma.m.attention.head_dim == 128);
        CHECK_FALSE(prepare_pass(gemma).prompt_attention_curve);
    }
    SUBCASE("the table's columns: read where present, 0 (the one rate) where a table leaves them out") {
        const std::string header = test::engine_table_columns();
        const std::string row = "Mine,trtllm,blackwell,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const auto old = io::parse_engines_csv(header + ",source\n" + row + ",my runs\n", "old.csv");
        REQUIRE(old.size() == 1);
        CHECK_FALSE(old[0].kernels.own_prompt_attention_curve());
        const std::string cols = ",separate_prompt_attention,prompt_attention_efficiency,prompt_attention_half_keys,prompt_attention_half_rows,source\n";
        const auto mine = io::parse_engines_csv(header + cols + row + ",1,0.7,1000,40000,my runs\n", "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.prompt_attention_efficiency == 0.7);
        CHECK(mine[0].kernels.prompt_attention_half_keys == 1000.0);
        CHECK(mine[0].kernels.prompt_attention_half_rows == 40000.0);
        const std::string missing = test::message_of(
            [&] { return io::parse_engines_csv(header + cols + row + ",1,0.7,0,40000,my runs\n", "mine.csv"); });
        CHECK(has(missing, "mine.csv:2"));
        CHECK(has(missing, "prompt_attention_half_keys"));
    }
}

TEST_CASE("vLLM on Hopper's dense FP8 GEMM rows (CUTLASS sm90 dispatch: 256-row M units above 128 tokens), hand-worked") {
    SUBCASE("the rows the kernel computes: u = min(T, max(64, next_pow2(m))), ⌈m ÷ u⌉ · u") {
        CHECK(fp8_gemm_padded_rows(1.0, 256.0) == 64.0);     // 64 × 64 tile, 1 × 8 cluster
        CHECK(fp8_gemm_padded_rows(64.0, 256.0) == 64.0);
        CHECK(fp8_gemm_padded_rows(65.0, 256.0) == 128.0);   // 64 × 128 tile, 2 × 1 cluster
        CHECK(fp8_gemm_padded_rows(128.0, 256.0) == 128.0);
        CHECK(fp8_gemm_padded_rows(129.0, 256.0) == 256.0);  // 128 × 128 tile, 2 × 1 cluster
        CHECK(fp8_gemm_padded_rows(256.0, 256.0) == 256.0);
        CHECK(fp8_gemm_padded_rows(257.0, 256.0) == 512.0);
        CHECK(fp8_gemm_padded_rows(572.0, 256.0) == 768.0);  // a Krai H200 step's 393 decodes and a 179-token prompt
        CHECK(fp8_gemm_padded_rows(1025.0, 256.0) == 1280.0);
        CHECK(fp8_gemm_padded_rows(200.0, 128.0) == 256.0);  // T = 128: u = 128 above 64 tokens
        CHECK(fp8_gemm_padded_rows(257.0, 128.0) == 384.0);
        CHECK(fp8_gemm_padded_rows(572.0, 0.0) == 576.0);    // T = 0: the hardware's 64-row tiles
        CHECK(fp8_gemm_padded_rows(7.0, 0.0) == 8.0);        // ... and 8-row steps below 64
        CHECK(fp8_gemm_padded_rows(0.0, 256.0) == 0.0);
        CHECK(catalog::vllm_hopper.kernels.fp8_gemm_tile_rows == 256.0);
        // the size curve at the kernel's rows, e(p) · m ÷ p (achievable_fractions::matmul_at with a tile): 257 tokens
        // run 512 rows, so their fraction is 512 rows' fraction × 257 ÷ 512
        const achievable_fractions& h200 = catalog::h200_sxm.gpu.efficiency;
        CHECK(h200.matmul_at(257.0, 8192.0, 10240.0, 256.0) ==
              doctest::Approx(h200.matmul_at(512.0, 8192.0, 10240.0) * 257.0 / 512.0).epsilon(1e-12));
        CHECK(h200.matmul_at(300.0, 8192.0, 10240.0, 0.0) == h200.matmul_at(300.0, 8192.0, 10240.0));
        CHECK(catalog::trtllm_hopper.kernels.fp8_gemm_tile_rows == 0.0);
        CHECK(catalog::sglang_hopper.kernels.fp8_gemm_tile_rows == 0.0);
        CHECK(catalog::vllm_blackwell.kernels.fp8_gemm_tile_rows == 0.0);
    }
    SUBCASE("in a prompt step: 257 tokens take the dense GEMM time of 512, an aligned 512 nothing more") {
        // One prompt, one logit row either way, so the LM head's term is the same: the dense projections of
        // 257 tokens compute 512 rows at e(512) and keep 257, t = 2 · 257 · W ÷ (P · e(512) · 257 ÷ 512), which
        // is 512 tokens' time without the padding; 65 tokens likewise run as 128 rows.
        const deployment ref =
            with_formats({.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm}, formats::fp8, formats::bf16);
        deployment tiled = ref;
        tiled.engine.kernels.fp8_gemm_tile_rows = 256.0;
        auto compute = [](const deployment& d, auto tokens) {
            const pass_model pm = prepare_pass(d);
            const auto terms = detail::sequence_terms_of(pm, {.prefill_sequences = 1.0, .prefill_tokens = tokens});
            return detail::step_formula(pm, terms, 0.0, 1.0).matmul_compute;
        };
        CHECK(compute(tiled, 257_tok) == doctest::Approx(compute(ref, 512_tok)).epsilon(1e-12));
        CHECK(compute(tiled, 512_tok) == doctest::Approx(compute(ref, 512_tok)).epsilon(1e-12));
        CHECK(compute(tiled, 65_tok) == doctest::Approx(compute(ref, 128_tok)).epsilon(1e-12));
        CHECK(compute(tiled, 257_tok) > compute(ref, 257_tok));
        // BF16 matmuls are not the FP8 kernel: unchanged
        const deployment bf16_ref = with_formats(ref, formats::bf16, formats::bf16);
        deployment bf16_tiled = bf16_ref;
        bf16_tiled.engine.kernels.fp8_gemm_tile_rows = 256.0;
        CHECK(compute(bf16_tiled, 257_tok) == compute(bf16_ref, 257_tok));
    }
    SUBCASE("a block-scaled FP8 checkpoint (latent attention, W8A8 FP8) runs the blockwise kernel: no 256-row units") {
        // vLLM's block-FP8 linear layers take scaled_mm_blockwise_sm90_fp8_dispatch.cuh (128-row M tile, cluster along
        // N), not the per-tensor kernel: the pass carries no tile rows there; a per-tensor FP8 dense model does.
        deployment dsv3{.m = catalog::deepseek_v3, .hw = catalog::h200_sxm, .layout = {.tp = 8}};
        dsv3.engine = catalog::vllm_hopper;
        CHECK(prepare_pass(with_formats(dsv3, formats::fp8, formats::fp8)).dense_fp8_tile_rows == 0.0);
        deployment llama{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm};
        llama.engine = catalog::vllm_hopper;
        CHECK(prepare_pass(with_formats(llama, formats::fp8, formats::bf16)).dense_fp8_tile_rows == 256.0);
        CHECK(prepare_pass(with_formats(llama, formats::bf16, formats::bf16)).dense_fp8_tile_rows == 0.0);
    }
    SUBCASE("the table's fp8_gemm_tile_rows column: 0 where a table leaves it out, read and refused with file and line") {
        const std::string row = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,5.416,1024,24.95,28.5,619,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
        const auto old = io::parse_engines_csv(engine_table(row, "", ""), "old.csv");
        REQUIRE(old.size() == 1);
        CHECK(old[0].kernels.fp8_gemm_tile_rows == 0.0);
        const auto mine = io::parse_engines_csv(engine_table(row, "fp8_gemm_tile_rows", "256"), "mine.csv");
        REQUIRE(mine.size() == 1);
        CHECK(mine[0].kernels.fp8_gemm_tile_rows == 256.0);
        for (const char* bad : {"100", "-1", "nan", "4096"}) {
            CAPTURE(bad);
            const std::string m =
                test::message_of([&] { return io::parse_engines_csv(engine_table(row, "fp8_gemm_tile_rows", bad), "mine.csv"); });
            CHECK(has(m, "mine.csv:2"));
            CHECK(has(m, "fp8_gemm_tile_rows"));
        }
    }
    SUBCASE("a MoE model's routed experts are not the dense kernel: an aligned Mixtral FP8 step does not move") {
        // 512 decodes of Mixtral-8x7B FP8 on one H200: the dense projections' 512 rows are two 256-row units, so
        // they do not move; the routed experts see 512 · 2 ÷ 8 = 128 rows each, which 256-row units would pad to
        // 256 (the hardware's 64-row padding keeps 128): a step equal to the bit says the experts are not padded.
        // 300 decodes pad the dense projections to 512 rows: longer.
        deployment ref = with_formats({.m = catalog::mixtral_8x7b, .hw = catalog::h200_sxm}, formats::fp8, formats::fp8);
        ref.engine = catalog::vllm_hopper;
        ref.engine.kernels.fp8_gemm_tile_rows = 0.0;
        deployment tiled = ref;
        tiled.engine.kernels.fp8_gemm_tile_rows = 256.0;
        auto compute = [](const deployment& d, double decodes) {
            const pass_model pm = prepare_pass(d);
            const auto terms = detail::sequence_terms_of(pm, {.decode_sequences = decodes, .decode_context = 1000_tok});
            return detail::step_formula(pm, terms, decodes, 0.0).matmul_compute;
        };
        CHECK(compute(tiled, 512.0) == compute(ref, 512.0));
        CHECK(compute(tiled, 300.0) > compute(ref, 300.0));
    }
    SUBCASE("refusals name the field, the value and the rule") {
        engine_profile e = catalog::vllm_hopper;
        e.kernels.fp8_gemm_tile_rows = 100.0;
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_tile_rows = 100: must be 0 (the hardware's padding) or a power of two"));
        e.kernels.fp8_gemm_tile_rows = -256.0;
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_tile_rows = -256"));
        e.kernels.fp8_gemm_tile_rows = 2048.0;
        CHECK(has(test::validation_message(e), "kernels.fp8_gemm_tile_rows = 2048"));
    }
}

TEST_CASE("expected padded rows of vLLM's FP8 dispatch: the staircase's mean over a window of w tokens, hand-worked") {
    using af = achievable_fractions;
    SUBCASE("the unit u = min(T, max(64, next_pow2(m))) that padded_rows(m, T) pads to") {
        CHECK(af::padding_unit(1.0, 256.0) == 64.0);
        CHECK(af::padding_unit(64.0, 256.0) == 64.0);
        CHECK(af::padding_unit(65.0, 256.0) == 128.0);
        CHECK(af::padding_unit(128.0, 256.0) == 128.0);
        CHECK(af::padding_unit(129.0, 256.0) == 256.0);
        CHECK(af::padding_unit(5000.0, 256.0) == 256.0);  // capped at T
        CHECK(af::padding_unit(200.0, 128.0) == 128.0);
        CHECK(af::padding_unit(200.0, 64.0) == 64.0);
    }
    SUBCASE("the staircase's integral F(x), stair by stair") {
        CHECK(af::padded_rows_integral(0.0, 256.0) == 0.0);
        CHECK(af::padded_rows_integral(10.0, 256.0) == 640.0);              // 64 · 10
        CHECK(af::padded_rows_integral(100.0, 256.0) == 8704.0);            // 64 · 64 + 128 · 36
        CHECK(af::padded_rows_integral(256.0, 256.0) == 45056.0);           // 4,096 + 128 · 64 + 256 · 128
        CHECK(af::padded_rows_integral(769.0, 256.0) == 373760.0);          // 45,056 + 512 · 256 + 768 · 256 + 1,024 · 1
        CHECK(af::padded_rows_integral(300.0, 128.0) == 61952.0);           // 4,096 + 128 · 64 + 256 · 128 + 384 · 44
        CHECK(af::padded_rows_integral(200.0, 64.0) == 4096.0 + 8192.0 + 12288.0 + 256.0 * 8.0);  // whole 64-row units
    }
    SUBCASE("p-bar = (F(m + w/2) - F(lo)) / (m + w/2 - lo); exact where w < 1 or T = 0") {
        // m = 769, w = 256: (641, 768] at 768 rows, (768, 897] at 1,024: (127 · 768 + 129 · 1,024) ÷ 256 = 897 = m + T ÷ 2
        // (the continuous window; the integer counts 642 … 897 give the same, their residue's m + (T − 1) ÷ 2 = 896.5
        // centred half a token lower)
        CHECK(af::expected_padded_rows(769.0, 256.0, 256.0) == 897.0);
        // m = 128, w = 256: [0, 256], (64 · 64 + 64 · 128 + 128 · 256) ÷ 256 = 176 (the integer counts 0 … 255, with 0
        // rows at 0, give 44,800 ÷ 256 = 175: the review's figure)
        CHECK(af::expected_padded_rows(128.0, 256.0, 256.0) == 176.0);
        // straddling 128 and 256: m = 200, w = 256, [72, 328]: (56 · 128 + 128 · 256 + 72 · 512) ÷ 256 = 300
        CHECK(af::expected_padded_rows(200.0, 256.0, 256.0) == 300.0);
        // m = 100, w = 100, [50, 150]: (14 · 64 + 64 · 128 + 22 · 256) ÷ 100 = 147.2
        CHECK(af::expected_padded_rows(100.0, 256.0, 100.0) == doctest::Approx(147.2).epsilon(1e-15));
        // the low end clamps at 0: m = 100, w = 256, [0, 228]: (12,288 + 100 · 256) ÷ 228
        CHECK(af::expected_padded_rows(100.0, 256.0, 256.0) == doctest::Approx(37888.0 / 228.0).epsilon(1e-15));
        // T = 128: m = 200, w = 128, [136, 264]: (120 · 256 + 8 · 384) ÷ 128 = 264
        CHECK(af::expected_padded_rows(200.0, 128.0, 128.0) == 264.0);
        CHECK(af::expected_padded_rows(769.0, 256.0, 0.0) == 1024.0);  // w = 0: one step's exact rows
        CHECK(af::expected_padded_rows(769.0, 256.0, 0.99) == 1024.0);
        CHECK(af::expected_padded_rows(572.0, 0.0, 256.0) == 576.0);  // T = 0: the hardware's 64-row tiles, exact
        CHECK(af::expected_padded_rows(0.0, 256.0, 256.0) == 0.0);
        CHECK(af::expected_padded_rows(30.0, 256.0, 40.0) == 64.0);  // within the 64-row stair: flat
    }
    SUBCASE("property: the mean exact rows over w consecutive token counts is the window's, straddling units or not") {
        // the integer counts m0 … m0 + w − 1 each stand for (x − 1, x], where the staircase is flat at padded_rows(x):
        // the continuous window [m0 − 1, m0 + w − 1], centred at m0 − 1 + w ÷ 2
        for (const double tile : {128.0, 256.0})
            for (const double w : {16.0, 100.0, 256.0, 731.0})
                for (const double m0 : {1.0, 40.0, 65.0, 100.0, 129.0, 200.0, 250.0, 300.0, 513.0, 769.0, 4097.0}) {
                    CAPTURE(tile);
                    CAPTURE(w);
                    CAPTURE(m0);
                    double rows = 0.0;
                    for (double x = m0; x < m0 + w; x += 1.0) rows += af::padded_rows(x, tile);
                    CHECK(af::expected_padded_rows(m0 - 1.0 + w / 2.0, tile, w) == doctest::Approx(rows / w).epsilon(1e-13));
                }
    }
    SUBCASE("property: between the staircase's ends of the window, non-decreasing in m, m + T/2 over whole units above T") {
        for (const double w : {8.0, 64.0, 256.0, 731.0}) {
            double last = 0.0;
            for (double m = 1.0; m < 3000.0; m += 0.75) {
                CAPTURE(w);
                CAPTURE(m);
                const double p = af::expected_padded_rows(m, 256.0, w);
                CHECK(p >= last);
                CHECK(p >= af::padded_rows(std::max(m - w / 2.0, 1e-9), 256.0));
                CHECK(p <= af::padded_rows(m + w / 2.0, 256.0));
                last = p;
            }
        }
        for (const double m : {640.0, 1000.5, 2049.25})
            CHECK(af::expected_padded_rows(m, 256.0, 512.0) == doctest::Approx(m + 128.0).epsilon(1e-15));
    }
    SUBCASE("the size curve reads the window it is given; exact by default (a kernel's shape: B101-B104's linear_vllm)") {
        const achievable_fractions& h200 = catalog::h200_sxm.gpu.efficiency;
        const double root = std::cbrt(8192.0 * 10240.0);
        CHECK(h200.matmul_at_rows(769.0, root, 256.0) == h200.matmul_at_rows(769.0, root, 256.0, 0.0));
        CHECK(h200.matmul_at_rows(769.0, root, 256.0) ==
              doctest::Approx(h200.matmul_at_rows(1024.0, root) * 769.0 / 1024.0).epsilon(1e-12));
        // e(p̄) · m ÷ p̄, e(p) = e∞ · ∛(p·k·n) ÷ (∛(p·k·n) + n₀) at p̄ = 897 rows (w = 256; no further padding of p̄)
        const double size = std::cbrt(897.0) * root;
        CHECK(h200.matmul_at_rows(769.0, root, 256.0, 256.0) ==
              doctest::Approx(h200.matmul * size / (size + h200.matmul_half_dim) * 769.0 / 897.0).epsilon(1e-12));
        CHECK(h200.matmul_at_rows(40.0, root, 256.0, 40.0) == h200.matmul_at_rows(40.0, root, 256.0));  // flat stair
    }
    SUBCASE("the step formula: the window's rows for a padding FP8 kernel, nothing else changed") {
        deployment llama{.m = catalog::llama_3_1_70b, .hw = catalog::h200_sxm};
        llama.engine = catalog::vllm_hopper;
        const pass_model pm = prepare_pass(with_formats(llama, formats::fp8, formats::bf16));
        // a prompt step of 769 tokens: the dense GEMMs of 1,024 rows exact, 897 over a 256-token window
        auto compute = [](const pass_model& m, auto tokens, double window) {
            const auto terms = detail::sequence_terms_of(m, {.prefill_sequences = 1.0, .prefill_tokens = tokens});
            return detail::step_formula(m, terms, 0.0, 1.0, -1.0, window).matmul_compute;
        };
        CHECK(compute(pm, 769_tok, 256.0) < compute(pm, 769_tok, 0.0));
        CHECK(compute(pm, 768_tok, 256.0) > compute(pm, 768_tok, 0.0));
        CHECK(compute(pm, 769_tok, 0.0) == [&] {
            const auto terms = detail::sequence_terms_of(pm, {.prefill_sequences = 1.0, .prefill_tokens = 769_tok});
            return detail::step_formula(pm, terms, 0.0, 1.0).matmul_compute;
        }());
        // BF16 matmuls run no padding FP8 kernel: the window changes nothing there
        const pass_model bf16 = prepare_pass(with_formats(llama, formats::bf16, formats::bf16));
        CHECK(compute(bf16, 769_tok, 256.0) == compute(bf16, 769_tok, 0.0));
    }
}

TEST_CASE("SGLang on CDNA4: QuickReduce INT4 where the run turns it on, 2 MiB to 2 GiB above the custom kernel, hand-worked") {
    // docs/cdna-all-reduce.md §7. DeepSeek-V3 (hidden 7168: 14,336 B a token, 122 all-reduces a pass) on 8 MI355X.
    // The profile's QuickReduce curve: a 25.39 µs, B_bus 625.2 GB/s, band 2 MiB ≤ S ≤ 2 GiB (quick_all_reduce.py
    // _QR_MIN_SIZE[(fp16, 8)][INT4], qr_max_size); RCCL a 56.88 µs, B_bus 380 GB/s; custom kernel (AITER's) up to
    // 64 MiB since session 40 (§9), so QuickReduce starts above 64 MiB.
    const engine_collectives& c = catalog::sglang_cdna4.collectives;
    CHECK(c.quick_reduce_all_reduce.value() == doctest::Approx(25.39e-6).epsilon(1e-12));
    CHECK(c.quick_reduce_bus.value() == doctest::Approx(625.2e9).epsilon(1e-12));
    CHECK(c.quick_reduce_min.value() == 2097152.0);
    CHECK(c.quick_reduce_max.value() == 2147483648.0);
    CHECK_FALSE(c.quick_reduce);  // the profile alone never turns it on: a run does
    CHECK_FALSE(c.quick_reduce_takes(bytes(100e6)));
    engine_collectives on = c;
    on.quick_reduce = true;
    CHECK_FALSE(on.quick_reduce_takes(bytes(2097151.0)));  // below 2 MiB
    CHECK(on.quick_reduce_takes(bytes(2097152.0)));         // 2 MiB, inclusive (size >= _QR_MIN_SIZE)
    CHECK(on.quick_reduce_takes(bytes(2147483648.0)));      // 2 GiB, inclusive (size <= qr_max_size)
    CHECK_FALSE(on.quick_reduce_takes(bytes(2147483649.0)));
    deployment rccl{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}};
    rccl.engine = catalog::sglang_cdna4;
    deployment qr = rccl;
    qr.engine.collectives.quick_reduce = true;
    SUBCASE("the custom kernel keeps its messages: 4,681 tokens, 67,106,816 B, under AITER's 64 MiB cap, QR on or off") {
        // 122 × (2.80 µs + 67,106,816 · 1.75 ÷ 273.3 GB/s = 429.70 µs) = 52.765 ms (§9's large-message curve).
        CHECK(decode_pass(qr, 4681.0, 1000_tok).tp_time.value() == doctest::Approx(0.052765).epsilon(1e-4));
        CHECK(decode_pass(rccl, 4681.0, 1000_tok).tp_time.value() == doctest::Approx(0.052765).epsilon(1e-4));
    }
    SUBCASE("above the custom cap: 4,682 tokens, 67,121,152 B, QuickReduce instead of RCCL") {
        // 122 × (25.39 µs + 67,121,152 · 2·7/8 ÷ 625.2 GB/s = 187.87 µs) = 122 × 213.26 µs = 26.019 ms;
        // RCCL 122 × (56.88 + 309.11 µs) = 44.651 ms.
        CHECK(decode_pass(qr, 4682.0, 1000_tok).tp_time.value() == doctest::Approx(0.026019).epsilon(1e-4));
        CHECK(decode_pass(rccl, 4682.0, 1000_tok).tp_time.value() == doctest::Approx(0.044651).epsilon(1e-4));
    }
    SUBCASE("a 7,373-token prompt: 105,699,328 B, 122 × (25.39 + 295.86 µs) = 39.19 ms against RCCL's 66.33 ms") {
        CHECK(prefill_pass(qr, 1.0, 7373_tok, 0_tok).tp_time.value() == doctest::Approx(0.039193).epsilon(1e-4));
        CHECK(prefill_pass(rccl, 1.0, 7373_tok, 0_tok).tp_time.value() == doctest::Approx(0.066326).epsilon(1e-4));
    }
    SUBCASE("either side of 2 MiB, with the custom kernel's cap lowered to 1 MiB so that the band's floor shows") {
        qr.engine.collectives.custom_all_reduce_max = kibibytes(1024.0);
        qr.engine.collectives.custom_all_reduce_large = seconds(0.0);  // no large-message curve under a 1 MiB cap
        qr.engine.collectives.custom_all_reduce_large_bus = bytes_per_second(0.0);
        qr.engine.collectives.custom_all_reduce_large_min = bytes(0.0);
        // 146 tokens: 2,093,056 B < 2,097,152 B: RCCL, 122 × (56.88 + 2,093,056 · 1.75 ÷ 380 GB/s = 9.639 µs) = 8.115 ms;
        // 147 tokens: 2,107,392 B: QuickReduce, 122 × (25.39 + 5.899 µs) = 3.817 ms.
        CHECK(decode_pass(qr, 146.0, 1000_tok).tp_time.value() == doctest::Approx(0.0081152).epsilon(1e-4));
        CHECK(decode_pass(qr, 147.0, 1000_tok).tp_time.value() == doctest::Approx(0.0038172).epsilon(1e-4));
    }
    SUBCASE("either side of 2 GiB: 149,796 tokens (2,147,475,456 B) QuickReduce, 149,797 (2,147,489,792 B) RCCL") {
        // 122 × (25.39 µs + 2,147,475,456 · 1.75 ÷ 625.2 GB/s = 6,011.0 µs) = 0.73644 s;
        // 122 × (56.88 µs + 2,147,489,792 · 1.75 ÷ 380 GB/s = 9,889.8 µs) = 1.21349 s.
        CHECK(prefill_pass(qr, 1.0, 149796_tok, 0_tok).tp_time.value() == doctest::Approx(0.73644).epsilon(1e-4));
        CHECK(prefill_pass(qr, 1.0, 149797_tok, 0_tok).tp_time.value() == doctest::Approx(1.21349).epsilon(1e-4));
    }
    SUBCASE("property: at every size QuickReduce on is never slower than off (its curve lies under RCCL's)") {
        for (double n = 1000.0; n <= 160000.0; n *= 1.1)
            CHECK(prefill_pass(qr, 1.0, tokens(n), 0_tok).tp_time.value() <= prefill_pass(rccl, 1.0, tokens(n), 0_tok).tp_time.value());
    }
    SUBCASE("refusals: a run's flag without the curve, a curve off ROCm, a half-set curve") {
        engine_profile none = catalog::sglang_cdna3;
        none.collectives.quick_reduce = true;
        CHECK(test::contains(test::validation_message(none), "collectives.quick_reduce"));
        CHECK(test::contains(test::validation_message(none), "needs the profile's curve"));
        engine_profile nvidia = catalog::sglang_hopper;
        nvidia.collectives.quick_reduce_all_reduce = c.quick_reduce_all_reduce;
        nvidia.collectives.quick_reduce_bus = c.quick_reduce_bus;
        nvidia.collectives.quick_reduce_min = c.quick_reduce_min;
        nvidia.collectives.quick_reduce_max = c.quick_reduce_max;
        CHECK(test::contains(test::validation_message(nvidia), "QuickReduce is ROCm's"));
        engine_profile half = catalog::sglang_cdna4;
        half.collectives.quick_reduce_bus = bytes_per_second(0.0);
        CHECK(test::contains(test::validation_message(half), "needs its fixed time, its bus bandwidth"));
    }
}

TEST_CASE("with_quick_reduce: the one rule of a run that turns QuickReduce on, an 8k-token prompt step on 8 MI355X, hand-worked") {
    // tables/engines.csv, "SGLang on CDNA4 (ROCm)": quick_reduce_us 25.39, quick_reduce_bus_GBps 625.2, band 2048 KiB to
    // 2,097,152 KiB; its custom kernel (AITER's) up to 65,536 KiB. DeepSeek-V3: hidden 7,168, 61 layers, two TP all-reduces each.
    deployment d{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}};
    d.engine = with_quick_reduce(catalog::sglang_cdna4, 8, "MI355X", "--quick-reduce");
    CHECK(d.engine.collectives.quick_reduce);
    CHECK_FALSE(catalog::sglang_cdna4.collectives.quick_reduce);  // the profile is taken by value: the catalog's stays off
    CHECK(test::validation_message(d).empty());
    // 8,192 tokens x 7,168 x 2 B = 117,440,512 B a message: above the custom kernel's 64 MiB, within 2 MiB..2 GiB.
    // t = a + 2(n-1)/n x S / B = 25.39 us + 1.75 x 117,440,512 B / 625.2 GB/s = 25.39 + 328.73 = 354.12 us;
    // 122 all-reduces a step: 122 x 354.12 us = 43.202 ms.
    CHECK(prefill_pass(d, 1.0, 8192_tok, 0_tok).tp_time.value() == doctest::Approx(0.0432024).epsilon(1e-4));
    deployment rccl = d;
    rccl.engine = catalog::sglang_cdna4;  // off: RCCL, 122 x (56.88 + 1.75 x 117,440,512 B / 380 GB/s = 540.84 us) = 122 x 597.72 us = 72.922 ms
    CHECK(prefill_pass(rccl, 1.0, 8192_tok, 0_tok).tp_time.value() == doctest::Approx(0.0729220).epsilon(1e-4));

    SUBCASE("a profile without the curve: refused naming the field, the switch's value and the engine") {
        const std::string m = test::error_of([] { return with_quick_reduce(catalog::sglang_cdna3, 8, "MI300X", "--quick-reduce"); });
        CHECK(test::contains(m, "MI300X: --quick-reduce = 1: (1: on, INT4) the run's quantized all-reduce"));  // the value read as the switch (review s40a N2)
        CHECK(test::contains(m, "the engine 'SGLang on CDNA3 (ROCm)' has none"));
        CHECK(test::contains(m, "[llmcost.quick_reduce.curve]"));
    }
    SUBCASE("the engine is checked before the curve: vLLM (no curve either) is told QuickReduce is SGLang's (review s40a N1)") {
        const std::string m = test::error_of([] { return with_quick_reduce(catalog::vllm_cdna4, 8, "MI355X", "quick_reduce"); });
        CHECK(test::contains(m, "QuickReduce is priced under SGLang"));
        CHECK(test::contains(m, "[llmcost.quick_reduce.engine]"));
        CHECK_FALSE(test::contains(m, "has none"));
        CHECK(test::contains(test::error_of([] { return with_quick_reduce(engine_profile::reference(), 8, "MI355X", "quick_reduce"); }),
                             "the engine is 'reference'"));
    }
    SUBCASE("one curve predicate (engine_collectives::has_quick_reduce_curve) for the profile's rule and the run's") {
        static_assert(catalog::sglang_cdna4.collectives.has_quick_reduce_curve());
        static_assert(!catalog::sglang_cdna3.collectives.has_quick_reduce_curve());
        static_assert(!engine_profile::reference().collectives.has_quick_reduce_curve());
        engine_profile flat = catalog::sglang_cdna4;  // a band of no width: max = min = 2 MiB
        flat.collectives.quick_reduce_max = flat.collectives.quick_reduce_min;
        CHECK_FALSE(flat.collectives.has_quick_reduce_curve());
        CHECK(test::contains(test::validation_message(flat), "a largest message above its smallest"));  // engine_profile::validate
        CHECK(test::contains(test::error_of([&] { return with_quick_reduce(flat, 8, "MI355X", "--quick-reduce"); }),
                             "[llmcost.quick_reduce.curve]"));  // the run's rule: the same predicate
    }
    SUBCASE("an engine other than SGLang, even with a curve: refused naming the engine") {
        engine_profile vllm = catalog::vllm_cdna4;
        const engine_collectives& c = catalog::sglang_cdna4.collectives;
        vllm.collectives.quick_reduce_all_reduce = c.quick_reduce_all_reduce;
        vllm.collectives.quick_reduce_bus = c.quick_reduce_bus;
        vllm.collectives.quick_reduce_min = c.quick_reduce_min;
        vllm.collectives.quick_reduce_max = c.quick_reduce_max;
        const std::string m = test::error_of([&] { return with_quick_reduce(vllm, 8, "MI355X", "--quick-reduce"); });
        CHECK(test::contains(m, "--quick-reduce = 1:"));
        CHECK(test::contains(m, "QuickReduce is priced under SGLang"));
        CHECK(test::contains(m, "the engine is 'vllm'"));
        CHECK(test::contains(m, "[llmcost.quick_reduce.engine]"));
        CHECK(test::contains(test::error_of([] { require_quick_reduce_run(engine_kind::trtllm, 8, "row", "quick_reduce"); }),
                             "row: quick_reduce = 1: (1: on, INT4) QuickReduce is priced under SGLang"));
    }
    SUBCASE("tp 0: a sweep's engine, laid out many ways, turns on; each deployment's TP group is checked by validate") {
        const engine_profile swept = with_quick_reduce(catalog::sglang_cdna4, 0, "MI355X", "--quick-reduce");
        CHECK(swept.collectives.quick_reduce);
        deployment four{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 4}, .engine = swept};
        CHECK(test::validation_message(four).empty());
        four.layout.tp = 1;
        CHECK(test::contains(test::validation_message(four), "[llmcost.quick_reduce.tp]"));
    }
    SUBCASE("property: a TP group of 2, 4 or 8 ranks turns it on, any other size is refused naming the size") {
        for (int tp = 1; tp <= 16; ++tp) {
            const std::string m = test::error_of([tp] { return with_quick_reduce(catalog::sglang_cdna4, tp, "MI355X", "--quick-reduce"); });
            if (tp == 2 || tp == 4 || tp == 8) {
                CHECK(m.empty());
            } else {
                CHECK(test::contains(m, "--quick-reduce at tp = " + std::to_string(tp) + ": QuickReduce runs on a TP group of 2, 4 or 8 ranks"));
                CHECK(test::contains(m, "[llmcost.quick_reduce.tp]"));
            }
        }
    }
    SUBCASE("a deployment whose run has it on meets the rule too: its TP group and its engine") {
        deployment one = d;
        one.layout.tp = 1;
        CHECK(test::contains(test::validation_message(one), "engine.collectives.quick_reduce at tp = 1:"));
        deployment sixteen = d;
        sixteen.layout = {.tp = 16};
        CHECK(test::contains(test::validation_message(sixteen), "[llmcost.quick_reduce.tp]"));
    }
}

TEST_CASE("SGLang on CDNA4: AITER's custom all-reduce to 64 MiB, its large-message curve above 1.5 MiB, hand-worked") {
    // docs/cdna-all-reduce.md §9. The fit, recomputed by hand from EmbeddedLLM/vllmtests @355978b8
    // kernels/allreduce/benchmark_results_ws8.md 'AITER Unreg' (2, 4, 8, 16, 32, 64 MiB: 55, 71, 102, 177, 302, 572 µs):
    // t = a + 1.75 · S ÷ B with a 37.87 µs, B 219.79 GB/s reproduces them within 3% (64 MiB: 37.87 + 1.75 · 67,108,864
    // ÷ 219.79 GB/s = 37.87 + 534.33 = 572.2 µs; 2 MiB: 37.87 + 16.70 = 54.6 µs). Carried by the profile's RCCL fit over
    // the table's NCCL fit (B 305.64 GB/s): B = 219.79 · 380 ÷ 305.64 = 273.3 GB/s. The fixed time is anchored to B97 at
    // the band's floor (amended after review s40b; the transferred 37.87 · 56.88 ÷ 121.52 = 17.72 µs is not used):
    // 1,572,864 B at 213.9 GB/s bus is 1.75 · 1,572,864 ÷ 213.9 GB/s = 12.868 µs, less 1.75 · 1,572,864 ÷ 273.3 GB/s
    // = 10.071 µs: a = 2.797 → 2.80 µs. DeepSeek-V3 on 8 MI355X: 14,336 B a token, 122 all-reduces a pass.
    const engine_collectives& c = catalog::sglang_cdna4.collectives;
    CHECK(c.custom_all_reduce_max.value() == 67108864.0);  // AITER's max_size = 8192 * 1024 * 8
    CHECK(c.custom_all_reduce_large.value() == doctest::Approx(2.80e-6).epsilon(1e-12));
    CHECK(c.custom_all_reduce_large_bus.value() == doctest::Approx(273.3e9).epsilon(1e-12));
    CHECK(c.custom_all_reduce_large_min.value() == 1572864.0);  // 1,536 KiB: B97's largest message
    deployment rccl{.m = catalog::deepseek_v3, .hw = catalog::mi355x, .layout = {.tp = 8}};
    rccl.engine = catalog::sglang_cdna4;
    deployment qr = rccl;
    qr.engine.collectives.quick_reduce = true;
    const auto prompt = [](const deployment& d, double bytes_a_message) {
        return prefill_pass(d, 1.0, tokens(bytes_a_message / 14336.0), 0_tok).tp_time.value();
    };
    SUBCASE("exactly 64 MiB (67,108,864 B) on AITER's kernel; 64 MiB + 1 B on QuickReduce where on, else RCCL") {
        // 122 × (2.80 µs + 67,108,864 · 1.75 ÷ 273.3 GB/s = 429.713 µs) = 122 × 432.513 µs = 52.767 ms, QR on or off;
        // 122 × (25.39 µs + 67,108,865 · 1.75 ÷ 625.2 GB/s = 187.845 µs) = 122 × 213.235 µs = 26.015 ms (QuickReduce);
        // 122 × (56.88 µs + 67,108,865 · 1.75 ÷ 380 GB/s = 309.054 µs) = 122 × 365.934 µs = 44.644 ms (RCCL).
        CHECK(prompt(qr, 67108864.0) == doctest::Approx(0.052767).epsilon(1e-4));
        CHECK(prompt(rccl, 67108864.0) == doctest::Approx(0.052767).epsilon(1e-4));
        CHECK(prompt(qr, 67108865.0) == doctest::Approx(0.026015).epsilon(1e-4));
        CHECK(prompt(rccl, 67108865.0) == doctest::Approx(0.044644).epsilon(1e-4));
    }
    SUBCASE("exactly 1,536 KiB (1,572,864 B) on the small-message model; 1 B more on the large-message curve") {
        // 122 × (6.3 µs + 1,572,864 · 1.75 ÷ 537.5 GB/s = 5.121 µs) = 122 × 11.421 µs = 1.3934 ms;
        // 122 × (2.80 µs + 1,572,865 · 1.75 ÷ 273.3 GB/s = 10.071 µs) = 122 × 12.871 µs = 1.5703 ms (B97's 12.868 µs: the
        // curve meets the measurement at the floor; the small-message model's 11.421 µs is 11% under it).
        CHECK(prompt(rccl, 1572864.0) == doctest::Approx(0.0013934).epsilon(1e-4));
        CHECK(prompt(rccl, 1572865.0) == doctest::Approx(0.0015703).epsilon(1e-4));
    }
    SUBCASE("a 1,024-token prompt (14,680,064 B): 122 × (2.80 + 94.00 µs) = 11.810 ms, the link model's 6.600 ms before") {
        CHECK(prompt(rccl, 1024.0 * 14336.0) == doctest::Approx(0.011810).epsilon(1e-4));
    }
    SUBCASE("property: inside the band the curve rises with the message, and QuickReduce never enters it") {
        double last = 0.0;
        for (double s = 1572865.0; s <= 67108864.0; s *= 1.07) {
            const double t = prompt(qr, s);
            CHECK(t > last);
            CHECK(t == prompt(rccl, s));
            last = t;
        }
    }
    SUBCASE("refusals: a half-set curve, a band floor at or above the cap, a curve without the custom kernel") {
        engine_profile half = catalog::sglang_cdna4;
        half.collectives.custom_all_reduce_large_bus = bytes_per_second(0.0);
        CHECK(test::contains(test::validation_message(half), "collectives.custom_all_reduce_large_bus"));
        CHECK_FALSE(test::contains(test::validation_message(half), "collectives.custom_all_reduce_large_min"));
        CHECK(test::contains(test::validation_message(half), "needs its fixed time, its bus bandwidth"));
        engine_profile no_time = catalog::sglang_cdna4;
        no_time.collectives.custom_all_reduce_large = seconds(0.0);
        CHECK(test::contains(test::validation_message(no_time), "collectives.custom_all_reduce_large (s)"));
        engine_profile floor = catalog::sglang_cdna4;
        floor.collectives.custom_all_reduce_large_min = floor.collectives.custom_all_reduce_max;
        CHECK(test::contains(test::validation_message(floor), "collectives.custom_all_reduce_large_min"));
        CHECK(test::contains(test::validation_message(floor), "a smallest message below the kernel's largest"));
        engine_profile bare = catalog::sglang_cdna4;
        bare.collectives.all_reduce_latency = seconds(0.0);
        CHECK(test::contains(test::validation_message(bare), "collectives.all_reduce_latency"));
        CHECK(test::contains(test::validation_message(bare), "the custom kernel (all_reduce_latency)"));
    }
}
