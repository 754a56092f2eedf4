// SGLang's KV pool as SGLang computes it (session 51, docs/kv-pool.md §"SGLang's pool as SGLang computes it"):
// the runtime's capacity (hardware.csv runtime_capacity_MiB), the memory resident at init (engines.csv
// init_resident_MiB) and the weights as SGLang lays them out (`engine_load_extra_bytes_per_gpu`).
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/breakdown.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include "engine_columns.hpp"
#include "test_helpers.hpp"

#include <cmath>
#include <concepts>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

deployment dsv3_tp8(const hardware& hw, const engine_profile& e, double f) {
    return with_formats(deployment{.m = catalog::deepseek_v3, .hw = hw, .layout = {.tp = 8}, .engine = with_kv_memory_fraction(e, f)},
                        formats::fp8, formats::bf16);
}

std::string engines_text() {
    std::ifstream in(std::filesystem::path(LLMCOST_TABLES_DIR) / "engines.csv", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("SGLang's pool, DeepSeek-V3 FP8 TP8 on H200 at f 0.82 (IMX-H200-sglang-DSR1-tp8-8kx1k-c64), by hand") {
    // H, the runtime's total: CUDA's 150,021,734,400 B (deviceQuery "143072 MBytes (150021734400 bytes)"; nvidia-smi's
    // 143,771 MiB less its reserved 700) = 143,071.875 MiB (the spec's 141 GiB = 151,397,597,184 B). R_init: 2,175 MiB =
    // 2,280,652,800 B (the mean of 1.82 and 2.43 GiB, InferenceX issue 2128 and sglang PR 11716). H − R = 147,741,081,600 B.
    const deployment d = dsv3_tp8(catalog::h200_sxm, catalog::sglang_hopper, 0.82);
    CHECK(d.hw.gpu.runtime_hbm().value() == doctest::Approx(150'021'734'400.0).epsilon(1e-15));
    CHECK(d.hw.gpu.hbm_capacity.value() == 151'397'597'184.0);
    CHECK(d.engine.scheduler.init_resident.value() == 2'280'652'800.0);
    // The checkpoint's shard (the library's count before this session): DeepSeek-V3 has 671,026,419,200 parameters:
    // embedding + LM head 2 x 129,280 x 7,168 = 1,853,358,080; attention 61 x 187,107,328 = 11,413,547,008; dense FFN
    // 3 x 3 x 7,168 x 18,432 = 1,189,085,184; routed experts 58 x 256 x 3 x 7,168 x 2,048 = 654,840,053,760; shared
    // 58 x 3 x 7,168 x 2,048 = 2,554,331,136; routers 58 x (7,168 x 256 + 256) = 106,445,312; norms 2 x 7,168 x 61 +
    // 7,168 = 881,664. At 1 B ÷ 8: 83,878,302,400 B, + the replicated down-projections 61 x 7,168 x 2,112 x 7/8 =
    // 808,034,304 B: 84,686,336,704 B. Every engine keeps the BF16 router whole on every rank (session 52: vLLM's
    // ReplicatedLinear(..., quant_config=None), TensorRT-LLM's DeepseekV3Gate, SGLang's MoEGate), G = 7,168 x 256 x 58 =
    // 106,430,464 parameters: 2 G − G ÷ 8 = 212,860,928 − 13,303,808 = 199,557,120 B; vLLM lays out
    // 84,686,336,704 + 199,557,120 = 84,885,893,824 B.
    CHECK(weight_bytes_per_gpu(dsv3_tp8(catalog::h200_sxm, catalog::vllm_hopper, 0.82)).value() ==
          doctest::Approx(84'885'893'824.0).epsilon(1e-13));
    CHECK(engine_load_extra_bytes_per_gpu(dsv3_tp8(catalog::h200_sxm, catalog::vllm_hopper, 0.82)).value() == 199'557'120.0);
    // SGLang adds (deepseek_v2.py @7ae368efd) the same router, 199,557,120 B, and the BF16 w_kc, w_vc copies of
    // kv_b, 61 x 512 x 128 x (128 + 128) = 1,023,410,176 parameters x 2 B ÷ 8 = 255,852,544 B. Extra 455,409,664 B;
    // W = 85,141,746,368 B (79.29 GiB; research P's count with the BF16 embedding and head: 79.51 GiB).
    CHECK(engine_load_extra_bytes_per_gpu(d).value() == 455'409'664.0);
    CHECK(weight_bytes_per_gpu(d).value() == doctest::Approx(85'141'746'368.0).epsilon(1e-13));
    // Pool: 0.82 x 147,741,081,600 − 85,141,746,368 = 121,147,686,912 − 85,141,746,368 = 36,005,940,544 B.
    const kv_pool_split s = kv_pool_per_gpu(d);
    CHECK(s.rule == kv_pool_rule::share_of_total_static);
    CHECK(s.pool.value() == doctest::Approx(36'005'940'544.0).epsilon(1e-12));
    // Cell: (512 + 64) x 61 x 2 B = 70,272 B a token; 36,005,940,544 ÷ 70,272 = 512,379.6 tokens (the library gave
    // 561,527 before: f·H − W on the spec's 141 GiB; SGLang's published figures give 508.8k-510.5k, aisimulate PR 263
    // "observed ~509k"; the rest, ~3.3k tokens, is the BF16 embedding and LM head the row does not declare).
    CHECK(kv_bytes_per_token_per_gpu(d).value() == 70'272.0);
    CHECK(std::floor(kv_capacity_tokens(d).value()) == 512'379.0);
    // The split still sums to the spec capacity: the driver's 1,375,862,784 B and R_init sit outside the pool.
    CHECK(s.runtime.value() == 2'280'652'800.0);
    CHECK(s.slack.value() == doctest::Approx(1'375'862'784.0 + 0.18 * 147'741'081'600.0).epsilon(1e-12));
    const memory_breakdown m = memory_per_gpu(d, 0.0, 0_tok);
    CHECK(m.dense_weights.value() + m.expert_weights.value() + m.slack.value() + m.runtime.value() + m.free.value() +
              m.activations.value() + m.communication.value() + m.kv.value() ==
          doctest::Approx(m.capacity.value()).epsilon(1e-12));
}

TEST_CASE("the runtime's capacity is what every pool rule starts from: vLLM on H200 by hand") {
    // vLLM: f·H − X − W with H = 150,021,734,400 B; the same deployment on a copy of the H200 without the runtime
    // figure starts from the spec's 151,397,597,184 B: the pools differ by f x 1,375,862,784 = 0.9 x 1,375,862,784 B.
    const deployment d = dsv3_tp8(catalog::h200_sxm, catalog::vllm_hopper, 0.9);
    hardware spec = catalog::h200_sxm;
    spec.gpu.driver_reserved = bytes(0.0);
    const deployment s = dsv3_tp8(spec, catalog::vllm_hopper, 0.9);
    CHECK(kv_budget_per_gpu(s).value() - kv_budget_per_gpu(d).value() == doctest::Approx(1'238'276'505.6).epsilon(1e-9));
    // The H100 SXM5 as CUDA reports it (session 52): 81,105.6875 MiB x 1,048,576 = 85,045,477,376 B (deviceQuery
    // "81106 MBytes (85045477376 bytes)"), the spec's 80 GiB = 85,899,345,920 B less the driver's 853,868,544 B.
    CHECK(catalog::h100_sxm5.gpu.runtime_hbm().value() == 85'045'477'376.0);
    CHECK(catalog::h100_sxm5.gpu.driver_reserved.value() == 853'868'544.0);
    // A GPU without a cited figure (H800, the same die: its total not published) keeps the spec's 80 GiB.
    CHECK(catalog::h800_sxm.gpu.runtime_hbm() == catalog::h800_sxm.gpu.hbm_capacity);
}

TEST_CASE("the load-time extras: the router whole where the engine's code keeps it, SGLang's BF16 kv_b copies on CUDA only") {
    // CDNA3 (ROCm): the router 199,557,120 B only (the FP8 copies of kv_b are not priced there).
    CHECK(engine_load_extra_bytes_per_gpu(dsv3_tp8(catalog::mi300x, catalog::sglang_cdna3, 0.8)).value() == 199'557'120.0);
    // DeepSeek-V3 FP8 TP8, TensorRT-LLM (DeepseekV3Gate: the whole BF16 [256, 7,168] weight on every rank) and vLLM on
    // ROCm: 2 x 106,430,464 − 106,430,464 ÷ 8 = 199,557,120 B, no kv_b copies.
    CHECK(engine_load_extra_bytes_per_gpu(dsv3_tp8(catalog::b200_hgx, catalog::trtllm_blackwell, 0.9)).value() == 199'557'120.0);
    CHECK(engine_load_extra_bytes_per_gpu(dsv3_tp8(catalog::h200_sxm, catalog::trtllm_hopper, 0.9)).value() == 199'557'120.0);
    CHECK(engine_load_extra_bytes_per_gpu(dsv3_tp8(catalog::mi300x, catalog::vllm_cdna3, 0.9)).value() == 199'557'120.0);
    // Mixtral-8x7B BF16 TP8 (h 4,096, 8 experts, 32 MoE layers: G = 1,048,576): vLLM keeps it whole (mixtral.py
    // ReplicatedLinear, quant_config=None): 2 G − 2 G ÷ 8 = 2,097,152 − 262,144 = 1,835,008 B. TensorRT-LLM's Mixtral
    // router is not read: its shard stays, 0. The reference engine: 0.
    const auto mixtral = [](const engine_profile& e) {
        return with_formats(deployment{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}, .engine = e},
                            formats::bf16, formats::bf16);
    };
    CHECK(engine_load_extra_bytes_per_gpu(mixtral(catalog::vllm_hopper)).value() == 1'835'008.0);
    CHECK(engine_load_extra_bytes_per_gpu(mixtral(catalog::trtllm_hopper)).value() == 0.0);
    CHECK(engine_load_extra_bytes_per_gpu(mixtral(engine_profile{})).value() == 0.0);
    // A dense model with standard attention: nothing.
    const deployment llama{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::sglang_hopper};
    CHECK(engine_load_extra_bytes_per_gpu(llama).value() == 0.0);
}

TEST_CASE("router_whole_bf16: the profile's model set decides whether a rank holds and reads the router whole, by hand") {
    const auto with_router = [](engine_profile e, router_whole_models r) {
        e.moe.router_whole_bf16 = r;
        return e;
    };
    const engine_profile none = with_router(catalog::vllm_hopper, router_whole_models::none);
    const engine_profile every = with_router(catalog::vllm_hopper, router_whole_models::every_moe);
    const engine_profile latent = with_router(catalog::vllm_hopper, router_whole_models::latent_moe);
    // DeepSeek-V3 FP8 TP8 (h 7,168, 256 routed experts, 61 − 3 dense = 58 MoE layers, latent attention): the gate has
    // G = 7,168 x 256 x 58 = 106,430,464 parameters. Sharded (none), the library prices it in the weights' format ÷ tp,
    // 1 B x G ÷ 8 = 13,303,808 B a GPU, and adds nothing. Whole in BF16 (every_moe, and latent_moe for a latent-attention
    // model): 2 B x G = 212,860,928 B a GPU in its place, + 212,860,928 − 13,303,808 = 199,557,120 B.
    const deployment d_none = dsv3_tp8(catalog::h200_sxm, none, 0.9);
    const deployment d_every = dsv3_tp8(catalog::h200_sxm, every, 0.9);
    const deployment d_latent = dsv3_tp8(catalog::h200_sxm, latent, 0.9);
    CHECK_FALSE(keeps_router_whole(d_none));
    CHECK(keeps_router_whole(d_every));
    CHECK(keeps_router_whole(d_latent));
    CHECK(whole_router_extra_bytes_per_gpu(d_none).value() == 0.0);
    CHECK(whole_router_extra_bytes_per_gpu(d_every).value() == 199'557'120.0);
    CHECK(whole_router_extra_bytes_per_gpu(d_latent).value() == 199'557'120.0);
    // Held (the weights per GPU) and read a step (pp 1: the extra of the one stage) by the same 199,557,120 B.
    CHECK(weight_bytes_per_gpu(d_every).value() - weight_bytes_per_gpu(d_none).value() ==
          doctest::Approx(199'557'120.0).epsilon(1e-12));
    CHECK(prepare_pass(d_every).dense_bytes_read - prepare_pass(d_none).dense_bytes_read ==
          doctest::Approx(199'557'120.0).epsilon(1e-12));
    // Mixtral-8x7B BF16 TP8 (h 4,096, 8 experts, 32 MoE layers, standard attention): G = 4,096 x 8 x 32 = 1,048,576.
    // every_moe: 2 B x G − 2 B x G ÷ 8 = 2,097,152 − 262,144 = 1,835,008 B; latent_moe (not latent attention) and none: 0.
    const auto mixtral = [](const engine_profile& e) {
        return with_formats(deployment{.m = catalog::mixtral_8x7b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}, .engine = e},
                            formats::bf16, formats::bf16);
    };
    CHECK(whole_router_extra_bytes_per_gpu(mixtral(every)).value() == 1'835'008.0);
    CHECK(whole_router_extra_bytes_per_gpu(mixtral(latent)).value() == 0.0);
    CHECK(whole_router_extra_bytes_per_gpu(mixtral(none)).value() == 0.0);
    // A dense model holds no router, whatever the set.
    const deployment llama{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = every};
    CHECK_FALSE(keeps_router_whole(llama));
    // The catalog's values (tables/engines.csv router_whole_bf16, each with its source): SGLang and vLLM every MoE
    // model, TensorRT-LLM latent-attention MoE models, the 0.9-0.16 TensorRT engine none (its router is FP32, not priced).
    for (const engine_profile& e : catalog::all_engines) {
        CAPTURE(e.name);
        const router_whole_models want = e.kind == engine_kind::trtllm
                                             ? (e.version == "0.9-0.16" ? router_whole_models::none : router_whole_models::latent_moe)
                                             : router_whole_models::every_moe;
        CHECK(e.moe.router_whole_bf16 == want);
    }
    CHECK(engine_profile::reference().moe.router_whole_bf16 == router_whole_models::none);
}

TEST_CASE("engine table: the router_whole_bf16 column, by name, absent as none, and its refusal") {
    namespace ec = io::detail::engines_csv;
    const std::string columns = test::engine_table_columns();
    const std::string row = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,1,0,0,0,0,0,1024,8192,1,8192,0.9,16,0,0,0,0,0,1,0,0";
    CHECK(test::engine_column_optional("router_whole_bf16"));
    // A table written before the column: none, the library's shard.
    CHECK(io::parse_engines_csv(columns + ",source\n" + row + ",my runs\n", "old.csv")[0].moe.router_whole_bf16 ==
          router_whole_models::none);
    const std::string header = columns + ",router_whole_bf16,source\n";
    const auto read = [&](const std::string& cell) {
        return io::parse_engines_csv(header + row + "," + cell + ",my runs\n", "mine.csv")[0].moe.router_whole_bf16;
    };
    CHECK(read("none") == router_whole_models::none);
    CHECK(read("every_moe") == router_whole_models::every_moe);
    CHECK(read("latent_moe") == router_whole_models::latent_moe);
    for (const char* bad : {"all", "", "EVERY_MOE", "1"}) {
        const std::string m = test::message_of([&] { return read(bad); });
        CAPTURE(m);
        // The file, the row's line 2, the column (the 37th: after the required ones), the value and the allowed names.
        CHECK(test::contains(m, "mine.csv:2:" + std::to_string(std::size(ec::required_columns) + 1)));
        CHECK(test::contains(m, "router_whole_bf16"));
        CHECK(test::contains(m, std::string("\"") + bad + "\""));
        CHECK(test::contains(m, "none, every_moe, latent_moe"));
        CHECK(test::contains(m, "[llmcost.engine.router_whole_bf16]"));
    }
}

TEST_CASE("SGLang's kv_b copies are made on the GPU: not read from storage, and read a step in place of kv_b, by hand") {
    // DeepSeek-V3 FP8 TP8 on H200: SGLang's W = 85,141,746,368 B holds the copies, 255,852,544 B, made by
    // post_load_weights from the kv_b already read. Read from storage: 85,141,746,368 − 255,852,544 = 84,885,893,824 B,
    // the bytes vLLM reads too (the same shard and router); at the H200's 7 GB/s a GPU: 12.126556 s.
    const deployment sg = dsv3_tp8(catalog::h200_sxm, catalog::sglang_hopper, 0.82);
    const deployment vl = dsv3_tp8(catalog::h200_sxm, catalog::vllm_hopper, 0.82);
    CHECK(absorbed_kv_b_copy_bytes_per_gpu(sg).value() == 255'852'544.0);
    CHECK(absorbed_kv_b_copy_bytes_per_gpu(vl).value() == 0.0);
    CHECK(weight_load_time(sg).value() == doctest::Approx(84'885'893'824.0 / 7e9).epsilon(1e-12));
    CHECK(weight_load_time(sg).value() == doctest::Approx(weight_load_time(vl).value()).epsilon(1e-15));
    // A step reads kv_b once: SGLang's absorbed decode multiplies by the BF16 copies (2 B x 1,023,410,176 ÷ 8 =
    // 255,852,544 B a rank), vLLM's shard the FP8 kv_b (1 B x 1,023,410,176 ÷ 8 = 127,926,272 B): SGLang's step reads
    // 127,926,272 B more a rank, nothing else apart (both read the whole router, below).
    CHECK(kv_b_weight_bytes(sg.m).value() == 1'023'410'176.0);
    CHECK(prepare_pass(sg).dense_bytes_read - prepare_pass(vl).dense_bytes_read == doctest::Approx(127'926'272.0).epsilon(1e-9));
    // Every rank runs the whole BF16 gate GEMM on an engine that keeps the router whole: G = 7,168 x 256 x 58 =
    // 106,430,464 parameters, 2 B each read a step (212,860,928 B) where the shard reads 1 B x G ÷ 8 = 13,303,808 B:
    // vLLM's step reads 199,557,120 B a rank more than the reference engine's (which keeps the shard).
    const deployment ref = dsv3_tp8(catalog::h200_sxm, engine_profile{}, 0.82);
    CHECK(prepare_pass(vl).dense_bytes_read - prepare_pass(ref).dense_bytes_read == doctest::Approx(199'557'120.0).epsilon(1e-9));
    // On ROCm (no copies priced) SGLang reads what vLLM reads.
    CHECK(prepare_pass(dsv3_tp8(catalog::mi300x, catalog::sglang_cdna3, 0.8)).dense_bytes_read ==
          prepare_pass(dsv3_tp8(catalog::mi300x, catalog::vllm_cdna3, 0.8)).dense_bytes_read);
}

TEST_CASE("init_resident: negative, NaN, on another pool rule and at or above the runtime's capacity are refused, named") {
    // Each refusal shows the figure in its cell's unit (MiB, the column init_resident_MiB) and its bytes after the rule.
    const std::string field = "scheduler.init_resident (MiB, column init_resident_MiB) = ";
    for (const auto& [bad, mib, in_bytes] : {std::tuple{-1.0, "-1", "(-1048576 B)"}, std::tuple{std::nan(""), "nan", "(nan B)"}}) {
        engine_profile e = catalog::sglang_hopper;
        e.scheduler.init_resident = mebibytes(bad);
        const std::string m = test::validation_message(e);
        CAPTURE(m);
        CHECK(test::contains(m, field + mib + ": "));
        CHECK(test::contains(m, "0 (none) or positive and finite " + std::string(in_bytes)));
        CHECK(test::contains(m, "[llmcost.engine.init_resident]"));
    }
    // 2,175 MiB = 2,175 x 1,048,576 = 2,280,652,800 B on vLLM, whose pool rule is share_of_total.
    engine_profile v = catalog::vllm_hopper;
    v.scheduler.init_resident = mebibytes(2175.0);
    const std::string other = test::validation_message(v);
    CAPTURE(other);
    CHECK(test::contains(other, field + "2175: "));
    CHECK(test::contains(other, "share_of_total_static"));
    CHECK(test::contains(other, "(2280652800 B)"));
    // 143,072 MiB = 150,021,865,472 B resident on an H200 whose runtime reports 143,071.875 MiB: nothing left for the
    // fraction.
    engine_profile big = catalog::sglang_hopper;
    big.scheduler.init_resident = mebibytes(143'072.0);
    const std::string cap = test::error_of([&] { return kv_pool_per_gpu(dsv3_tp8(catalog::h200_sxm, big, 0.82)); });
    CAPTURE(cap);
    CHECK(test::contains(cap, field + "143072: "));
    CHECK(test::contains(cap, "below the GPU's runtime capacity, 143071.875 MiB on H200 SXM"));
    CHECK(test::contains(cap, "(150021865472 B)"));
    CHECK(test::contains(cap, "llmcost.engine.init_resident"));
}

TEST_CASE("engines.csv init_resident_MiB: the table's SGLang on Hopper cell, and a bad cell refused with its column") {
    const std::string text = engines_text();
    const auto loaded = io::parse_engines_csv(text, "engines.csv");
    for (const engine_profile& e : loaded)
        CHECK(e.scheduler.init_resident.value() == (e.name == catalog::sglang_hopper.name ? 2'280'652'800.0 : 0.0));
    // overlap steps, init_resident_MiB, long-context scale, cold_opening_moe_only, mla_absorbed_prefix_below_tokens,
    // router_whole_bf16
    const std::string cell = ",2,2175,0,1,8192,every_moe,\"";
    const std::size_t at = text.find(cell);
    REQUIRE(at != std::string::npos);
    for (const char* bad : {"-1", "nan"}) {
        std::string broken = text;
        broken.replace(at, cell.size(), std::string(",2,") + bad + ",0,1,8192,every_moe,\"");
        const std::string m = test::message_of([&] { return io::parse_engines_csv(broken, "bad-engines.csv"); });
        CAPTURE(m);
        // The column and its cell as written (nan is refused by the figure reader, before the engine's rules).
        CHECK(test::contains(m, "key \"init_resident_MiB\" = \"" + std::string(bad) + "\""));
    }
    // A cell the engine's rule refuses (2,175 MiB on a vLLM row, whose pool rule is share_of_total): the message shows
    // the cell, then the rule with the same figure in MiB, naming the column, and its bytes, 2,175 x 1,048,576.
    const std::string vllm = "Mine,vllm,hopper,1,1,1,0,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1024,8192,0,0,0.9,16,0,0,0,0,0,1,0,0";
    const std::string m = test::message_of([&] {
        return io::parse_engines_csv(test::engine_table_columns() + ",init_resident_MiB,source\n" + vllm + ",2175,my runs\n",
                                     "mine.csv");
    });
    CAPTURE(m);
    CHECK(test::contains(m, "mine.csv:2:37: key \"init_resident_MiB\" = \"2175\""));
    CHECK(test::contains(m, "scheduler.init_resident (MiB, column init_resident_MiB) = 2175: "));
    CHECK(test::contains(m, "(2280652800 B)"));
}

TEST_CASE("SGLang's aiter backend on ROCm: mem_fraction_static x 0.85 above 8,192 tokens of context, by hand") {
    // DeepSeek-V3 FP8 TP8 on MI355X, SGLang on CDNA4 at the launch's 0.8 (server_args.py l.1419–1422 @7ae368efd: the
    // aiter backend and context_len 163,840 > 8,192): f′ = 0.8 x 0.85 = 0.68. H = 288 GiB = 309,237,645,312 B (no runtime
    // figure), R_init 0; W = 84,686,336,704 + the router's 199,557,120 B (no kv_b copies priced on ROCm) =
    // 84,885,893,824 B. Pool = 0.68 x 309,237,645,312 − 84,885,893,824 = 210,281,598,812.16 − 84,885,893,824 =
    // 125,395,704,988.16 B (162,504,222,425.6 B at f = 0.8).
    const deployment d = dsv3_tp8(catalog::mi355x, catalog::sglang_cdna4, 0.8);
    CHECK(catalog::sglang_cdna4.scheduler.long_context_fraction_scale == 0.85);
    CHECK(static_memory_fraction(d) == doctest::Approx(0.68).epsilon(1e-15));
    CHECK(weight_bytes_per_gpu(d).value() == doctest::Approx(84'885'893'824.0).epsilon(1e-13));
    const kv_pool_split s = kv_pool_per_gpu(d);
    CHECK(s.fraction == doctest::Approx(0.68).epsilon(1e-15));
    CHECK(s.pool.value() == doctest::Approx(125'395'704'988.16).epsilon(1e-12));
    // The threshold is a token count (server_args.py: context_len > 8192): a model whose context is 8,192 tokens
    // keeps the launch's f, one of 8,193 tokens takes 0.8 x 0.85 = 0.68.
    static_assert(std::same_as<std::remove_cv_t<decltype(long_context_fraction_tokens)>, tokens_t>);
    CHECK(long_context_fraction_tokens.value() == 8192.0);
    deployment short_context = d;
    short_context.m.max_position = 8192;
    CHECK(static_memory_fraction(short_context) == 0.8);
    deployment just_above = d;
    just_above.m.max_position = 8193;
    CHECK(static_memory_fraction(just_above) == doctest::Approx(0.68).epsilon(1e-15));
    CHECK(kv_budget_per_gpu(short_context).value() == doctest::Approx(162'504'222'425.6).epsilon(1e-12));
    // The other SGLang profiles do not scale it (CDNA3's rows name no attention backend).
    CHECK(static_memory_fraction(dsv3_tp8(catalog::mi300x, catalog::sglang_cdna3, 0.8)) == 0.8);
    CHECK(static_memory_fraction(dsv3_tp8(catalog::h200_sxm, catalog::sglang_hopper, 0.82)) == 0.82);
}

TEST_CASE("long_context_fraction_scale: above 1, negative, NaN or on another pool rule refused, named") {
    for (const double bad : {1.2, -0.5, std::nan("")}) {
        engine_profile e = catalog::sglang_cdna4;
        e.scheduler.long_context_fraction_scale = bad;
        const std::string m = test::validation_message(e);
        CHECK(test::contains(m, "scheduler.long_context_fraction_scale"));
        CHECK(test::contains(m, "0 (none) or in (0, 1]"));
    }
    engine_profile v = catalog::vllm_cdna4;
    v.scheduler.long_context_fraction_scale = 0.85;
    CHECK(test::contains(test::validation_message(v), "share_of_total_static"));
    for (const engine_profile& e : io::parse_engines_csv(engines_text(), "engines.csv"))
        CHECK(e.scheduler.long_context_fraction_scale == (e.name == catalog::sglang_cdna4.name ? 0.85 : 0.0));
}
