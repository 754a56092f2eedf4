// Measurements (plan/measurement.hpp) and their CSV loader (plan/measurements_csv.hpp): each
// scenario predicts through the serving function it names, parameters round-trip through a
// hardware descriptor, and every bad cell is refused with its file, line, column and rule.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test_helpers.hpp"

using namespace llmcost;
using namespace llmcost::literals;

namespace {
const std::string header =
    "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
    "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source\n";
std::vector<plan::measurement> parse(const std::string& rows) {
    return io::parse_measurements_csv(header + rows, "m.csv");
}
}  // namespace

TEST_CASE("measurements: each scenario predicts through its serving function") {
    const auto rows = parse(
        "A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,offline,3000,256,,,,128,128,output_tokens_per_s,1000,tok/s,s\n"
        "B,calibration,llama-3.1-8b,h100-sxm5,trtllm,1.0,1,1,1,1,,,single_prefill,,,,,,2048,1,ttft_s,36,ms,s\n"
        "C,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,,,2,,467,256,tpot_s,8,ms,s\n"
        "D,check,Llama-3.1-70B,H100 SXM5,trtllm,1.0,4,1,1,2,,,fixed_batch,,,,,16,1000,200,ttft_s,0.5,s,s\n");
    REQUIRE(rows.size() == 4);
    const deployment fp8 = with_formats({.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5}, formats::fp8, formats::fp8);
    CHECK((rows[0].d.m == fp8.m && rows[0].d.hw == fp8.hw));
    CHECK(plan::predict(rows[0]) ==
          saturated_run(fp8, {.input = 128_tok, .output = 128_tok}, 3000, {.max_batch = 256}).output_rate.value());
    CHECK_FALSE(rows[1].check);
    CHECK(rows[1].value == doctest::Approx(0.036));
    const deployment bf16{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    CHECK(plan::predict(rows[1]) == prefill_pass(bf16, 1, 2048_tok, 0_tok).time().value());
    CHECK(plan::predict(rows[2]) == serve_online(bf16, {.input = 467_tok, .output = 256_tok}, 500_ms, plan::online_caps(rows[2])).tpot.value());
    CHECK(plan::predict(rows[2]) == plan::online_closed_form(rows[2]).point.tpot.value());  // the one closed-form call
    CHECK(rows[3].d.layout == parallel_layout{.tp = 4, .dp = 2});
    CHECK((rows[0].engine == plan::serving_engine::trtllm && rows[0].engine_version == "1.0"));
    CHECK(plan::predict(rows[3]) ==
          serve_at_batch(rows[3].d, {.input = 1000_tok, .output = 200_tok}, 16).ttft.value());
}

TEST_CASE("measurements: an online row's closed form runs under its engine's caps (plan::online_caps)") {
    // G: TensorRT-LLM with max batch 64 and a 2,048-token step budget; V: vLLM with no cap given.
    const auto rows = parse(
        "G,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,64,2048,2,,467,256,tpot_s,8,ms,s\n"
        "V,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,online,,,,2,,467,256,tpot_s,8,ms,s\n");
    REQUIRE(rows.size() == 2);
    const scheduler_limits g = plan::online_caps(rows[0]);
    CHECK(g.max_batch == 64);                           // the row's max batch
    CHECK(g.reserve_full_sequence);                     // TensorRT-LLM reserves the whole sequence
    CHECK(g.reserve.step_tokens.value() == 2048);       // the pool sized for the row's step budget, as simulated
    CHECK(g.max_tokens_per_step == 0);                  // whole prompts: neither the token cap …
    CHECK(g.prefill_chunk.value() == 0);                // … nor a chunk is carried
    const scheduler_limits v = plan::online_caps(rows[1]);
    CHECK_FALSE(v.reserve_full_sequence);               // vLLM admits on the KV in use
    CHECK(v.max_batch == rows[1].d.engine.scheduler.max_sequences);  // the engine's max sequences where the row gives none
    // the one closed-form call prices each row under them
    CHECK(plan::predict(rows[0]) == serve_online(plan::as_driven(rows[0]), rows[0].r, 500_ms, g).tpot.value());
    CHECK(plan::predict(rows[1]) == plan::online_closed_form(rows[1]).point.tpot.value());
}

TEST_CASE("measurements: an online rate is per instance, an expert-parallel group's spread over its ranks") {
    // A dense row's dp replicas each take the row's rate (it is per replica); an EP group of dp
    // attention ranks takes the rate as a whole, each rank a dp-th of it: 4 req/s on 8 ranks is one
    // request every 8 ÷ 4 = 2 s per rank (MLPerf's DeepSeek-R1 Server rows: one EP group of 8).
    const auto rows = parse(
        "E,check,DeepSeek-V3,H200 SXM,trtllm,1.0,1,1,8,8,fp8,fp8,online,,,,4,,1000,500,tpot_s,20,ms,s\n"
        "F,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,2,,,online,,,,2,,467,256,ttft_s,20,ms,s\n");
    REQUIRE(rows.size() == 2);
    REQUIRE(rows[0].d.attention_ranks() == 8);
    CHECK(plan::online_interarrival(rows[0]).value() == doctest::Approx(2.0));
    CHECK(plan::predict(rows[0]) == serve_online(rows[0].d, {.input = 1000_tok, .output = 500_tok}, 2_s, plan::online_caps(rows[0])).tpot.value());
    REQUIRE(rows[1].d.attention_ranks() == 1);
    CHECK(plan::online_interarrival(rows[1]).value() == doctest::Approx(0.5));
    CHECK(plan::predict(rows[1]) == serve_online(rows[1].d, {.input = 467_tok, .output = 256_tok}, 500_ms, plan::online_caps(rows[1])).ttft.value());
    // The whole group's rate on one rank is eight times the load: a shorter gap, a longer TPOT.
    CHECK(serve_online(rows[0].d, rows[0].r, 250_ms).tpot.value() > plan::predict(rows[0]));
    // A harness's dispatch over replicas is refused on the EP group (it has one instance; its ranks
    // split the rate as above), named by its word.
    plan::measurement ep = rows[0];
    ep.dispatch = plan::replica_dispatch::round_robin;
    CHECK(test::contains(test::error_of([&] { ep.validate(); }),
                         "replica_dispatch = round_robin: a harness's dispatch over replicas belongs to an online "
                         "row of a dense deployment"));
}

TEST_CASE("measurements: efficiency parameters round-trip and change the prediction") {
    const plan::efficiency_parameters p = plan::parameters_of(catalog::h100_sxm5);
    CHECK(p.hbm == catalog::h100_sxm5.gpu.efficiency.hbm);
    CHECK(plan::with_efficiencies(catalog::h100_sxm5, p) == catalog::h100_sxm5);
    plan::efficiency_parameters slow = p;
    slow.hbm = p.hbm / 2;
    // Batch-1 decode is HBM bound; one step in 2,000 carries the (compute-bound) prompt.
    const auto rows = parse("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,1,1000,2000,tpot_s,8,ms,s\n");
    CHECK(plan::predict(rows[0], slow) > 1.8 * plan::predict(rows[0], p));
}

TEST_CASE("measurements: bad cells name file, line, column and rule") {
    auto error = [](const std::string& row) {
        return test::message_of([&] { return parse(row); });
    };
    const std::string ok_tail = ",trtllm,1.0,1,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,1000,tok/s,s\n";
    // Unknown names get catalog::lookup's three closest names (edit distance without case or
    // punctuation, to a name or its first word: "h1oo" is two edits from "h100", the first word of
    // the three H100s; "llama9b" is three edits from "llama270b" and "llama318b", four from "llama3170b").
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H1OO" + ok_tail),
                         "m.csv:2:4: key \"hardware\" = \"H1OO\": not in the catalog; closest: H100 SXM5, H100 PCIe, "
                         "H100 NVL (see `llmcost list hardware`)"));
    CHECK(test::contains(error("A,check,Llama-9B,H100 SXM5" + ok_tail),
                         "key \"model\" = \"Llama-9B\": not a path to a config.json, and not in the catalog; closest: "
                         "Llama-2-70B, Llama-3.1-8B, Llama-3.1-70B"));
    // Loose names work here as in the tool: any case, spaces or dashes, or the start of one name.
    CHECK(parse("A,check,llama-3.1-8b,h100" + ok_tail).front().d.hw.name == "H100 SXM5");
    CHECK(test::contains(error("A,maybe,Llama-3.1-8B,H100 SXM5" + ok_tail), "expected calibration or check"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,0,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,1000,tok/s,s\n"),
                         "key \"tp\" = \"0\": expected a whole number"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,10,,,,,128,128,ttft_s,10,ms,s\n"),
                         "an offline run measures output tokens/s only"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,10,ms,s\n"),
                         "output_tokens_per_s is measured in tok/s"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,sideways,10,,,,,128,128,output_tokens_per_s,10,tok/s,s\n"),
                         "expected one of offline, online, fixed_batch, single_prefill"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,1000,tok/s,\n"),
                         "key \"source\" = \"\": empty cell"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5" + ok_tail + "A,check,Llama-3.1-8B,H100 SXM5" + ok_tail),
                         "m.csv:3:1: key \"id\" = \"A\": id appears twice"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,3,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,1000,tok/s,s\n"),
                         "layout.tp = 3: must divide the query heads"));
}

TEST_CASE("measurements: the engine and its version are read, and required") {
    const std::string tail = ",1,1,1,1,,,offline,10,,,,,128,128,output_tokens_per_s,1000,tok/s,s\n";
    const auto rows = parse("A,check,Llama-3.1-8B,MI300X,vllm,0.9.0.2" + tail + "B,check,Llama-3.1-8B,H100 SXM5,sglang,0.4.6" + tail);
    CHECK(rows[0].engine == plan::serving_engine::vllm);
    CHECK(rows[0].engine_version == "0.9.0.2");
    CHECK(rows[1].engine == plan::serving_engine::sglang);
    auto error = [](const std::string& row) { return test::message_of([&] { return parse(row); }); };
    // An unknown or missing engine names the file, the line, the column and the engines known.
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,tgi,2.0" + tail),
                         "m.csv:2:5: key \"engine\" = \"tgi\": unknown; expected one of trtllm, vllm, sglang"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,,2.0" + tail),
                         "m.csv:2:5: key \"engine\" = \"\": empty cell: a value is required"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,vllm," + tail),
                         "m.csv:2:6: key \"engine_version\" = \"\": empty cell: a value is required"));
    // A table without the column is refused before any row is read.
    const std::string old_header =
        "id,role,model,hardware,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,rate_per_s,batch,"
        "input_tokens,output_tokens,metric,value,unit,source\n";
    CHECK(test::contains(test::message_of([&] {
                             return io::parse_measurements_csv(old_header + "A,check,Llama-3.1-8B,H100 SXM5" + tail, "m.csv");
                         }),
                         "engine"));
}

TEST_CASE("measurements: a closed-loop client's row is priced by the simulator, burst start and all") {
    // The client's lengths: whole tokens uniform on [⌊r·L⌋, L], L = round(2·mean ÷ (1 + r)).
    // Mean 922 at r = 0.8: L = round(1844 ÷ 1.8 = 1024.4) = 1024, ⌊0.8 × 1024 = 819.2⌋ = 819.
    const workload::length_distribution l = plan::client_lengths(922_tok, 0.8);
    CHECK(l.law == workload::length_law::uniform);
    CHECK(l.value.value() == 819.0);
    CHECK(l.high.value() == 1024.0);
    // Mean 7373 (8k nominal): L = round(14746 ÷ 1.8 = 8192.2) = 8192, ⌊6553.6⌋ = 6553.
    CHECK(plan::client_lengths(7373_tok, 0.8).value.value() == 6553.0);
    CHECK(plan::client_lengths(7373_tok, 0.8).high.value() == 8192.0);
    CHECK(plan::client_lengths(922_tok, 1.0).law == workload::length_law::fixed);

    const std::string with_client =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_client + rows, "c.csv"); };
    // One wave: 8 clients, 8 prompts of 1000 tokens, one token each, all sent at time 0. The engine
    // (TensorRT-LLM's reference limits: no caps, whole prompts) prefills the 8 prompts in its first step,
    // and every first token comes out at its end: TTFT = the prefill pass of 8 × 1000 tokens, and
    // 8 tokens ÷ that time.
    const auto wave = rows_of(
        "W,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,8,,1000,1,ttft_s,0.5,s,s\n"
        "X,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,8,,1000,1,output_tokens_per_s,10,tok/s,s\n");
    REQUIRE(wave.size() == 2);
    CHECK(wave[0].prompts == 8.0);
    CHECK(wave[0].range_ratio == 1.0);
    const deployment bf16{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const double prefill8 = prefill_pass(bf16, 8, 1000_tok, 0_tok).time().value();
    CHECK(plan::predict(wave[0]) == doctest::Approx(prefill8).epsilon(1e-9));
    CHECK(plan::predict(wave[1]) == doctest::Approx(8.0 / prefill8).epsilon(1e-9));

    // Ten waves at 64 clients (InferenceMAX's 10 × c prompts): the first 64 prompts queue for the same
    // prefill steps, so the mean TTFT is above the steady state's at batch 64, where each prompt meets
    // 63 neighbours mid-answer; the same row without the client column is that steady state.
    const auto burst = rows_of(
        "B,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,64,640,0.8,922,922,ttft_s,0.5,s,s\n"
        "S,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,64,,,922,922,ttft_s,0.5,s,s\n");
    const double simulated = plan::predict(burst[0]), steady = plan::predict(burst[1]);
    CHECK(steady == serve_at_batch(bf16, {.input = 922_tok, .output = 922_tok}, 64).ttft.value());
    CHECK(simulated > 1.5 * steady);
    CHECK(plan::predict(burst[0]) == simulated);  // seed 1: the same figure on every run

    // Refused, named: fewer prompts than clients (batch × dp), a client on another scenario, a range
    // ratio outside (0, 1], random lengths without a simulated client.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("A,check,Llama-3.1-70B,H100 SXM5,trtllm,1.0,4,1,1,2,,,fixed_batch,,,,,16,20,,1000,200,ttft_s,0.5,s,s\n"),
                         "prompts = 20: 0 (steady state), or a closed-loop fixed_batch run's whole number of prompts, at least its clients (batch × dp)"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,10,,,,,100,,128,128,output_tokens_per_s,1000,tok/s,s\n"),
                         "prompts = 100"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,80,1.5,128,128,ttft_s,1,s,s\n"),
                         "range_ratio = 1.5: a client's random-range-ratio is in (0, 1]"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,80,0,128,128,ttft_s,1,s,s\n"),
                         "range_ratio = 0:"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,,0.8,128,128,ttft_s,1,s,s\n"),
                         "range_ratio = 0.8: random lengths are simulated"));
    CHECK(test::contains(error("A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,8.5,,128,128,ttft_s,1,s,s\n"),
                         "prompts = 8.5"));
}

TEST_CASE("measurements: a closed-loop row carries its server's caps, chunk and poll interval") {
    const std::string with_server =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,receive_interval\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_server + rows, "r.csv"); };
    // SGLang on MI300X launched with --chunked-prefill-size 196608 (InferenceMAX's script): the row's
    // token cap is also the prompt chunk (the engine chunks prompts); its batch cap is left to the
    // engine's default (2048). TensorRT-LLM does not chunk: the cap stays a cap, no chunk.
    const auto rows = rows_of(
        "A,check,DeepSeek-V3,MI300X,sglang,0.5.5,8,1,1,1,fp8,,fixed_batch,,,196608,,4,40,0.8,922,922,ttft_s,0.5,s,s,\n"
        "B,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,4,1,1,1,,fp8,fixed_batch,,512,20000,,4,40,0.8,922,922,ttft_s,0.05,s,s,\n"
        "C,check,DeepSeek-V3,B200 (HGX),sglang,0.5.6,8,1,1,1,fp8,fp8,fixed_batch,,128,32768,,16,160,0.8,922,922,ttft_s,0.4,s,s,30\n");
    REQUIRE(rows.size() == 3);
    const plan::measurement a = plan::with_own_engine(rows[0]), b = plan::with_own_engine(rows[1]), c = plan::with_own_engine(rows[2]);
    CHECK(plan::closed_loop_limits(a).prefill_chunk.value() == 196608);
    CHECK(plan::closed_loop_limits(a).max_tokens_per_step == 196608);
    CHECK(plan::closed_loop_limits(a).max_batch == 2048);
    CHECK(plan::closed_loop_limits(a).receive_interval == 1);
    CHECK(plan::closed_loop_limits(b).prefill_chunk.value() == 0);
    CHECK(plan::closed_loop_limits(b).max_tokens_per_step == 20000);
    CHECK(plan::closed_loop_limits(b).max_batch == 512);
    CHECK(b.d.m.kv_cache == formats::fp8);
    CHECK(c.receive_interval == 30);
    CHECK(plan::closed_loop_limits(c).receive_interval == 30);
    CHECK(plan::closed_loop_limits(c).prefill_chunk.value() == 32768);
    // The poll interval lengthens the simulated TTFT and nothing else about the row's shape.
    plan::measurement c1 = c;
    c1.receive_interval = 1;
    CHECK(plan::predict(c) > plan::predict(c1));
    // Refused, named: a poll interval below 1 or fractional, or one on a row that is not simulated.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("D,check,DeepSeek-V3,B200 (HGX),sglang,0.5.6,8,1,1,1,fp8,fp8,fixed_batch,,,,,16,160,0.8,922,922,ttft_s,0.4,s,s,0\n"),
                         "receive_interval = 0: a whole number of decode steps between the server's polls"));
    CHECK(test::contains(error("D,check,DeepSeek-V3,B200 (HGX),sglang,0.5.6,8,1,1,1,fp8,fp8,fixed_batch,,,,,16,160,0.8,922,922,ttft_s,0.4,s,s,2.5\n"),
                         "receive_interval = 2.5"));
    CHECK(test::contains(error("D,check,DeepSeek-V3,B200 (HGX),sglang,0.5.6,8,1,1,1,fp8,fp8,fixed_batch,,,,,16,,,922,922,ttft_s,0.4,s,s,10\n"),
                         "receive_interval = 10: a poll interval is simulated"));
}

TEST_CASE("measurements: an online row whose scheduler holds prompts is priced by its simulated run") {
    const std::string with_policy =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,receive_interval,min_waiting_prompts,"
        "prefill_alone\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_policy + rows, "p.csv"); };
    // AMD's MLPerf Server configuration as a row: vLLM V0, 9-step decode blocks, at least 8 waiting
    // prompts, prompt steps alone, max_num_seqs 650 and max_num_batched_tokens 40960; eight replicas,
    // the rate per replica.
    const auto rows = rows_of(
        "S,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,0.00001,,1000,50,ttft_s,0.1,s,s,9,8,1\n"
        "T,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,0.00001,,1000,50,tpot_s,0.01,s,s,9,8,1\n"
        "U,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,10,,1000,50,ttft_s,0.1,s,s,9,8,1\n"
        "V,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,10,,1000,50,ttft_s,0.1,s,s,,,\n");
    REQUIRE(rows.size() == 4);
    // The lone-request figures on the reference engine (no per-step cost of vLLM's profile), as the
    // library's passes price them.
    const plan::measurement& s = rows[0];
    const plan::measurement& t = rows[1];
    CHECK(s.receive_interval == 9);
    CHECK(s.min_waiting_prompts == 8);
    CHECK(s.prefill_alone);
    CHECK(plan::holds_prompts(s));
    CHECK_FALSE(plan::holds_prompts(rows[3]));
    const scheduler_limits l = plan::closed_loop_limits(s);
    CHECK((l.receive_interval == 9 && l.min_waiting_prompts == 8 && l.prefill_alone));
    CHECK((l.max_batch == 650 && l.max_tokens_per_step == 40960));
    // One request every 10⁵ s: each finds the engine idle (a pass admits at once, whatever Q), so
    // its TTFT is the prefill pass of its 1,000-token prompt, and its TPOT the mean of its 49 decode
    // steps alone at contexts 1,001 … 1,049.
    deployment one = s.d;
    one.layout.dp = 1;
    // (Arrivals reach 4·10⁸ s, within the simulation's 10⁹ s bound, so each time carries about 10⁻⁷ s of
    // rounding: 10⁻⁶ relative; one
    // request meeting another would be off by a whole step.)
    CHECK(plan::predict(s) == doctest::Approx(prefill_pass(one, 1.0, 1000_tok, 0_tok).time().value()).epsilon(1e-5));
    double steps = 0;
    for (double c = 1001; c <= 1049; ++c) steps += decode_pass(one, 1.0, tokens(c)).time().value();
    CHECK(plan::predict(t) == doctest::Approx(steps / 49).epsilon(1e-5));
    // At 10 req/s per replica prompts land among decodes: the hold makes the TTFT longer than
    // first-come-first-served admission every step (the same row without the policy, simulated).
    const plan::measurement u = plan::with_own_engine(rows[2]);
    plan::measurement fcfs = u;
    fcfs.receive_interval = 1;
    fcfs.min_waiting_prompts = 1;
    fcfs.prefill_alone = true;  // still simulated, admission every step
    CHECK(plan::predict(u) > plan::predict(fcfs));
    CHECK(plan::predict(u) == plan::online_run(u).ttft);
    // Refused, named: a fractional or zero minimum, a flag other than 0 / 1, the policy on a row that
    // is not simulated.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,9,0,1\n"),
                         "min_waiting_prompts = 0: a whole number of waiting prompts"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,9,2.5,1\n"),
                         "min_waiting_prompts = 2.5"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,9,8,2\n"),
                         "prefill_alone"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,fixed_batch,,,,,8,1000,50,ttft_s,0.1,s,s,,8,\n"),
                         "min_waiting_prompts = 8: a minimum of waiting prompts is simulated"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,fixed_batch,,,,,8,1000,50,ttft_s,0.1,s,s,,,1\n"),
                         "prefill_alone = 1: prompt steps alone are simulated"));
}

TEST_CASE("measurements: a row whose V0 multi-step blocks run whole ends each answer with its block") {
    const std::string with_blocks =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,receive_interval,min_waiting_prompts,"
        "prefill_alone,outputs_per_block\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_blocks + rows, "b.csv"); };
    // AMD's MLPerf Server harness as a row: vLLM V0, 9-step blocks, prompt steps alone, enforce_eager
    // (no async output processor: a block's answers end at its end). One request every 10⁵ s.
    const auto rows = rows_of(
        "S,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,0.00001,,1000,50,ttft_s,0.1,s,s,9,,1,1\n"
        "T,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,0.00001,,1000,50,tpot_s,0.01,s,s,9,,1,1\n"
        "U,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,650,40960,0.00001,,1000,50,tpot_s,0.01,s,s,9,,1,\n");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].outputs_per_block);
    CHECK_FALSE(rows[2].outputs_per_block);
    const scheduler_limits l = plan::closed_loop_limits(rows[0]);
    CHECK((l.receive_interval == 9 && l.prefill_alone && l.outputs_per_block));
    // Each request alone: its TTFT is its prompt step (the first token comes out at its end), and its
    // 49 decode steps end with the block they fall in: ⌈49 ÷ 9⌉ · 9 = 54 steps at contexts 1,001 …
    // 1,054, so MLPerf's TPOT, (E2E − TTFT) ÷ 49, is their sum ÷ 49; blocks that do not run whole end
    // the answer with its 49th step.
    deployment one = rows[0].d;
    one.layout.dp = 1;
    CHECK(plan::predict(rows[0]) == doctest::Approx(prefill_pass(one, 1.0, 1000_tok, 0_tok).time().value()).epsilon(1e-5));
    double whole = 0, own = 0;
    for (double c = 1001; c <= 1054; ++c) whole += decode_pass(one, 1.0, tokens(c)).time().value();
    for (double c = 1001; c <= 1049; ++c) own += decode_pass(one, 1.0, tokens(c)).time().value();
    CHECK(plan::predict(rows[1]) == doctest::Approx(whole / 49).epsilon(1e-5));
    CHECK(plan::predict(rows[2]) == doctest::Approx(own / 49).epsilon(1e-5));
    // Refused, named: whole blocks without a block, or with prompts mixed into decode steps; a flag
    // other than 0 / 1.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,,,1,1\n"),
                         "outputs_per_block = 1: a block's outputs at its end need a block of decode steps"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,9,,0,1\n"),
                         "prompt steps alone (prefill_alone)"));
    CHECK(test::contains(error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,8,,,online,,,,4,,1000,50,ttft_s,0.1,s,s,9,,1,2\n"),
                         "outputs_per_block"));
}

TEST_CASE("measurements: an online row whose scheduler holds prompts draws its lengths from its spreads") {
    // No spread: every request of the mean shape. A spread: a lognormal of that mean and standard
    // deviation, so E[L] = 1,000 and E[L²] = σ² + E[L]² = 500² + 1,000² = 1,250,000, the two moments
    // the closed forms' length bias reads (request_shape).
    const workload::length_distribution fixed = plan::online_lengths(1000_tok, 0_tok);
    CHECK(fixed.law == workload::length_law::fixed);
    CHECK(fixed.mean() == 1000);
    const workload::length_distribution drawn = plan::online_lengths(1000_tok, 500_tok);
    CHECK(drawn.law == workload::length_law::lognormal);
    CHECK(drawn.mean() == 1000);
    CHECK(drawn.second_moment() == 1250000);
    // Bounded where the run must fit the model's context: draws past 4,000 are drawn again.
    CHECK(plan::online_lengths(1000_tok, 500_tok, 4000_tok).longest() == 4000);
    CHECK(plan::online_lengths(1000_tok, 0_tok, 4000_tok).longest() == 1000);
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,input_tokens,output_tokens,metric,value,unit,source,receive_interval,input_spread,"
        "output_spread\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "p.csv"); };
    // A scheduler pass every 9 iterations (TensorRT-LLM's attention-DP balance) on one replica, 2
    // requests/s; answers of 1,000 ± 1,500 tokens (coefficient of variation 1.5) against the same row
    // with every answer 1,000 long.
    const auto rows = rows_of(
        "A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,,,2,,,1000,1000,tpot_s,0.01,s,s,9,,1500\n"
        "B,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,,,2,,,1000,1000,tpot_s,0.01,s,s,9,,\n");
    REQUIRE(rows.size() == 2);
    CHECK(plan::holds_prompts(rows[0]));
    // The live batch holds the long answers longer: its answers are E[O²] ÷ E[O] = (1,500² + 1,000²)
    // ÷ 1,000 = 3,250 tokens long on average against 1,000, so a decode reads about 1,000 + 1,625
    // tokens of KV against 1,000 + 500 — a longer step, so more sequences at the same rate.
    CHECK(plan::online_run(rows[0]).concurrency > plan::online_run(rows[1]).concurrency);
    CHECK(plan::predict(rows[0]) > plan::predict(rows[1]));
    // A closed-loop client's row still takes its client's lengths: a spread there is refused, named.
    CHECK(test::contains(test::message_of([&] {
                             return rows_of(
                                 "C,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,80,1000,200,ttft_s,0.1,s,s,,,400\n");
                         }),
                         "output_spread (tokens) = 400: lengths that vary are priced by the closed forms or an online "
                         "row's simulated run"));
}

TEST_CASE("measurements: a row's length spreads are priced by the closed forms' length bias") {
    const std::string with_spread =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,input_spread,output_spread\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_spread + rows, "l.csv"); };
    // Answers of 1,000 ± 1,000 tokens: a sequence caught in the batch is E[O²] ÷ E[O] = (1,000² + 1,000²)
    // ÷ 1,000 = 2,000 tokens long, so TensorRT-LLM (a whole sequence reserved at admission) holds
    // 1,000 + 2,000 = 3,000 tokens of KV per sequence, as a fixed 2,000-token answer does, and both
    // decode at 1,000 + 2,000 ÷ 2 = 2,000 tokens of context on average.
    const auto rows = rows_of(
        "A,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,0,1000\n"
        "B,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,,\n"
        "C,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,,,4,,,,1000,1000,tpot_s,0.02,s,s,300,1000\n"
        "D,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,online,,,,4,,,,1000,1000,tpot_s,0.02,s,s,,\n");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].r.output_spread.value() == 1000);
    CHECK(rows[0].r.input_spread.value() == 0);
    CHECK_FALSE(rows[1].r.spread());
    CHECK(rows[2].r.input_spread.value() == 300);
    const deployment bf16{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const request_shape spread{.input = 1000_tok, .output = 1000_tok, .output_spread = 1000_tok};
    CHECK(held_context(spread, {}).value() == 3000);
    CHECK(mean_decode_context(spread).value() == 2000);
    const serving_point a = saturated(bf16, spread);
    CHECK(a.batch == std::trunc(kv_budget_per_gpu(bf16).value() / kv_bytes_per_gpu_for_context(bf16, 3000_tok).value()));
    CHECK(a.batch == saturated(bf16, {.input = 1000_tok, .output = 2000_tok}).batch);
    CHECK(plan::predict(rows[0]) == a.output_rate.value());
    // Longer live contexts and fewer sequences: fewer tokens/s than every answer alike, a longer TPOT
    // at the same rate (and the online row prices its prompts' E[I²] too).
    CHECK(plan::predict(rows[0]) < plan::predict(rows[1]));
    const request_shape both{.input = 1000_tok, .output = 1000_tok, .input_spread = 300_tok, .output_spread = 1000_tok};
    CHECK(plan::predict(rows[2]) == serve_online(bf16, both, 250_ms, plan::online_caps(rows[2])).tpot.value());
    CHECK(plan::predict(rows[2]) > plan::predict(rows[3]));
    // Refused, named: a negative or non-numeric spread, and a spread on a simulated row (its client's
    // lengths are drawn by the simulator).
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("E,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,,-5\n"),
                         "output_spread"));
    CHECK(test::contains(error("E,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,,-5\n"),
                         "must not be negative"));
    CHECK(test::contains(error("E,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,wide,\n"),
                         "input_spread"));
    CHECK(test::contains(error("E,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,fixed_batch,,,,,8,80,0.8,1000,1000,ttft_s,0.5,s,s,,500\n"),
                         "input_spread / output_spread (tokens) = 500: lengths that vary are priced by the closed forms"));
}

TEST_CASE("measurements: a row's pinned clock scales its GPU's compute fractions against the clock they hold at") {
    // MI325X's GEMM figures are AMD's hipBLASLt table at 1,700 MHz (B15): a run pinned at 1,500 MHz
    // computes at 1,500 ÷ 1,700 of them, e∞ 0.5975 → 0.527206 (to 6 digits), attention 0.2513 →
    // 0.221735; HBM and the size curve's n₀ stay. MI300X states no clock: a pin leaves it.
    const achievable_fractions& e = catalog::mi325x.gpu.efficiency;
    REQUIRE(e.compute_clock_MHz == 1700);
    const achievable_fractions at = e.at_clock(1500);
    CHECK(at.matmul == doctest::Approx(0.527206).epsilon(1e-6));
    CHECK(at.attention == doctest::Approx(0.221735).epsilon(1e-5));
    CHECK(at.hbm == e.hbm);
    CHECK(at.matmul_half_dim == e.matmul_half_dim);
    CHECK(e.at_clock(1700) == e);
    CHECK(e.at_clock(0) == e);
    CHECK(catalog::mi300x.gpu.efficiency.at_clock(1300) == catalog::mi300x.gpu.efficiency);

    const std::string with_clock =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,clock_MHz\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_clock + rows, "c.csv"); };
    const auto rows = rows_of(
        "A,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,offline,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,1500\n"
        "B,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,offline,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,\n"
        "C,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s,1500\n");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].clock_MHz == 1500);
    CHECK(rows[1].clock_MHz == 0);
    CHECK(plan::as_run(rows[0]).hw.gpu.efficiency == at);
    CHECK(plan::as_run(rows[1]).hw.gpu.efficiency == e);
    // A slower clock: fewer tokens/s offline (its full batch's GEMMs are compute-bound); a fixed batch is
    // priced on the deployment at that clock.
    CHECK(plan::predict(rows[0]) < plan::predict(rows[1]));
    CHECK(plan::predict(rows[2]) == serve_at_batch(plan::as_driven(rows[2]), rows[2].r, 64).tpot.value());
    // Refused, named: a negative or absurd clock.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("E,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,offline,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,-1500\n"),
                         "clock_MHz"));
    CHECK(test::contains(error("E,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,offline,,,,,,1000,1000,output_tokens_per_s,1000,tok/s,s,2e6\n"),
                         "an engine clock a run pins is positive and finite, in MHz, at most 10,000"));
}

TEST_CASE("measurements: a row's graphs setting (cuda_graphs) prices its launches eagerly or as a graph") {
    // AMD's MLPerf harness runs Llama-2-70B with enforce_eager True (cuda_graphs 0): every kernel pays the
    // engine's per-kernel eager cost (launch_eager; the profile's host-enqueue floor set to 0 here). Llama-3.1-70B launches 10 · 80 + 3 = 803 kernels a pass, so an eager
    // cost of 10 µs over a graph cost of 0 lengthens each step, and a fixed batch's TPOT, by
    // 803 × 10 µs = 8.03 ms.
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,cuda_graphs\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "g.csv"); };
    const auto rows = rows_of(
        "A,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s,0\n"
        "B,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s,\n"
        "C,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s,1\n");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].cuda_graphs == false);
    CHECK_FALSE(rows[1].cuda_graphs.has_value());
    CHECK(rows[2].cuda_graphs == true);
    plan::measurement eager = plan::with_own_engine(rows[0]), fallback = plan::with_own_engine(rows[1]),
                      graphs = plan::with_own_engine(rows[2]);
    CHECK_FALSE(eager.d.engine.overheads.cuda_graphs);
    CHECK(fallback.d.engine.overheads.cuda_graphs == catalog::vllm_cdna3.overheads.cuda_graphs);
    CHECK(graphs.d.engine.overheads.cuda_graphs);
    for (plan::measurement* x : {&eager, &graphs}) {  // the gap per kernel alone: no host-enqueue floor
        x->d.engine.overheads.launch_eager = microseconds(10.0);
        x->d.engine.overheads.launch_graph = seconds(0.0);
        x->d.engine.overheads.host_enqueue = seconds(0.0);
    }
    CHECK(eager.d.engine.overheads.eager_enqueue);  // a graphs-off row's steps are enqueued by the host
    CHECK_FALSE(graphs.d.engine.overheads.eager_enqueue);
    CHECK(plan::predict(eager) - plan::predict(graphs) == doctest::Approx(8.03e-3).epsilon(1e-6));
    // An older file without the column loads, every row at its engine's default.
    const auto old = io::parse_measurements_csv(
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source\n"
        "A,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s\n",
        "old.csv");
    CHECK_FALSE(old.at(0).cuda_graphs.has_value());
    // Refused, named with the rule: anything but 0, 1 or empty.
    auto error = [&](const std::string& v) {
        return test::message_of([&] {
            return rows_of("E,check,Llama-3.1-70B,MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,64,1000,1000,tpot_s,0.05,s,s," +
                           v + "\n");
        });
    };
    for (const std::string v : {"2", "-1", "0.5", "nan", "yes"}) {
        const std::string msg = error(v);
        CHECK(test::contains(msg, "cuda_graphs"));
        CHECK(test::contains(msg, "1 (graphs on), 0 (graphs off: every kernel launched eagerly) or empty"));
    }
}

TEST_CASE("property: a graphs-off run's step grows with the eager launch cost, a graphs-on run's ignores it") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,cuda_graphs\n";
    for (const std::string model : {"Llama-2-70B", "Mixtral-8x7B"})
        for (const std::string batch : {"1", "64", "512"}) {
            const auto rows = io::parse_measurements_csv(
                header + "A,check," + model + ",MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,," + batch +
                    ",222,301,tpot_s,0.05,s,s,0\n" + "B,check," + model + ",MI325X,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,," +
                    batch + ",222,301,tpot_s,0.05,s,s,1\n",
                "p.csv");
            double eager_before = 0, graphs_at_zero = 0;
            for (const double us : {0.0, 2.0, 8.3, 20.0, 100.0}) {
                plan::measurement eager = plan::with_own_engine(rows.at(0)), graphs = plan::with_own_engine(rows.at(1));
                eager.d.engine.overheads.launch_eager = graphs.d.engine.overheads.launch_eager = microseconds(us);
                eager.d.engine.overheads.host_enqueue = seconds(0.0);  // the gap alone (the floor's own properties: unit-front-end)
                const double te = plan::predict(eager), tg = plan::predict(graphs);
                CAPTURE(model);
                CAPTURE(batch);
                CAPTURE(us);
                CHECK(te > eager_before);
                if (us == 0.0) graphs_at_zero = tg;
                CHECK(tg == graphs_at_zero);
                CHECK(te >= tg);
                eager_before = te;
            }
        }
}

TEST_CASE("measurements: an offline row whose scheduler holds prompts is priced by its simulated run") {
    const std::string with_policy =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,receive_interval,min_waiting_prompts,"
        "prefill_alone\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_policy + rows, "o.csv"); };
    // AMD's MLPerf Mixtral Offline configuration as a row: vLLM V0, 9-step decode blocks, prompt steps
    // alone; two replicas. O: one request per replica, the run's length. P: the same at steady state,
    // 64 sequences at most. Q: P without the policy (the closed form).
    const auto rows = rows_of(
        "O,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,2,64,8192,,,1000,50,output_tokens_per_s,1,tok/s,s,9,,1\n"
        "P,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,,64,8192,,,1000,50,output_tokens_per_s,1,tok/s,s,9,,1\n"
        "Q,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,,64,8192,,,1000,50,output_tokens_per_s,1,tok/s,s,,,\n");
    REQUIRE(rows.size() == 3);
    CHECK(plan::holds_prompts(rows[0]));
    CHECK(plan::holds_prompts(rows[1]));
    CHECK_FALSE(plan::holds_prompts(rows[2]));
    // One request per replica on the reference engine: its prompt step of 1,000 tokens gives token 1,
    // then 49 decode steps alone at contexts 1,001 … 1,049 give the rest, so each replica makes 50 tokens
    // in prefill(1,000) + Σ decode(1, c), and the two make twice that rate.
    deployment one = rows[0].d;
    one.layout.dp = 1;
    double e2e = prefill_pass(one, 1.0, 1000_tok, 0_tok).time().value();
    for (double c = 1001; c <= 1049; ++c) e2e += decode_pass(one, 1.0, tokens(c)).time().value();
    CHECK(plan::predict(rows[0]) == doctest::Approx(2.0 * 50.0 / e2e).epsilon(1e-9));
    CHECK(plan::predict(rows[0]) == plan::offline_run(rows[0]));
    // Steady state, 64 sequences at most on an 80 GB GPU that holds them all (64 × 1,050 tokens of
    // Llama-3.1-8B's 128 KiB a token is 8.8 GB): nothing is preempted, so the simulated run is the
    // closed form's continuous batching but for the ramp and drain of its 4,000 requests, its prompt steps
    // run alone and its 9-step blocks, within 5% (the closed form mixes the prompts into the decode steps).
    const double simulated = plan::predict(rows[1]), closed = plan::predict(rows[2]);
    CHECK(simulated == doctest::Approx(closed).epsilon(0.05));
    CHECK(simulated < closed);  // prompt steps alone cost the waiting answers their turn, never less
    // Refused, named: a simulated offline run of a row whose scheduler does not hold prompts.
    CHECK_THROWS_WITH_AS((void)plan::offline_run(rows[2]),
                         doctest::Contains("Q: receive_interval / prefill_alone / min_waiting_prompts / adp_timeout_iters / decode_target_max / chunked_context = 1: "
                                           "a simulated offline run needs a scheduler that holds prompts"),
                         invalid_input);
}

TEST_CASE("measurements: a simulated offline run is sized by one batch, under its engine's admission") {
    const std::string with_policy =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,receive_interval,min_waiting_prompts,"
        "prefill_alone\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_policy + rows, "b.csv"); };
    // Llama-3.1-8B, 2,000 → 2,000 tokens at steady state on one H100, caps far above the KV room: V (vLLM, V0's
    // 9-step blocks) and T (the same row under TensorRT-LLM, its scheduler polling every 9 steps), C: V in
    // closed form (no scheduler policy).
    const auto rows = rows_of(
        "V,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,offline,,100000,1000000,,,2000,2000,output_tokens_per_s,1,tok/s,s,9,,1\n"
        "T,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,,,offline,,100000,1000000,,,2000,2000,output_tokens_per_s,1,tok/s,s,9,,1\n"
        "C,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,offline,,100000,1000000,,,2000,2000,output_tokens_per_s,1,tok/s,s,,,\n");
    REQUIRE(rows.size() == 3);
    // KV a token: 2 (K and V) × 32 layers × 8 KV heads × 128 dims × 2 bytes = 131,072 B. The pool: the KV budget
    // the row's caps leave (the step's activations for 1,000,000 tokens reserved). vLLM admits on the KV in use,
    // a sequence holding I + O/2 = 3,000 tokens over its life; TensorRT-LLM reserves the whole I + O = 4,000.
    const deployment d = plan::as_run(rows[0]);
    REQUIRE(kv_bytes_per_gpu_for_context(d, 1_tok).value() == 131072.0);
    const double pool = kv_budget_per_gpu(d, scheduler_limits{.max_batch = 100000, .max_tokens_per_step = 1000000}.pool_reserve()).value();
    const plan::offline_sizing vs = plan::offline_run_batch(rows[0]), ts = plan::offline_run_batch(rows[1]);
    const batch_limit v = vs.batch, t = ts.batch;
    // The requests a replica runs: 16 × B (above the 4,000 floor here), the admission carried with them.
    CHECK(vs.requests == std::max(4000.0, 16.0 * v.batch));
    CHECK_FALSE(vs.whole_sequences);
    CHECK(ts.whole_sequences);
    CHECK_FALSE(vs.from_row);
    CHECK(v.batch == std::floor(pool / (131072.0 * 3000.0)));
    CHECK(t.batch == std::floor(pool / (131072.0 * 4000.0)));
    CHECK(v.limited_by == "KV capacity");
    CHECK(t.limited_by == "KV capacity");
    CHECK(v.batch > t.batch);  // 4 : 3, but for the truncation
    // The caps bind where they are lower: 10 sequences at most.
    const auto capped = rows_of(
        "W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,offline,,10,1000000,,,2000,2000,output_tokens_per_s,1,tok/s,s,9,,1\n");
    CHECK(plan::offline_run_batch(capped[0]).batch.batch == 10.0);
    CHECK(plan::offline_run_batch(capped[0]).batch.limited_by == "max batch");
    // 16 × 10 = 160 requests: the 4,000 floor holds.
    CHECK(plan::offline_run_batch(capped[0]).requests == 4000.0);
    // Refused, named: a row priced in closed form has no simulated run to size; its scheduler columns are named.
    CHECK_THROWS_WITH_AS((void)plan::offline_run_batch(rows[2]),
                         doctest::Contains("C: receive_interval / prefill_alone / min_waiting_prompts / adp_timeout_iters / decode_target_max / chunked_context = 1: "
                                           "a simulated offline run's batch needs a scheduler that holds prompts"),
                         invalid_input);
}

TEST_CASE("property: a simulated V0 offline run loses throughput when its KV cache no longer holds the batch") {
    // The same offline row with every prompt admitted on its own blocks (vLLM V0): on a GPU whose
    // KV cache holds fewer sequences than the cap, the newest sequence is preempted and recomputed
    // when a decode finds the cache full, so the output rate per replica falls as the KV budget does.
    const std::string with_policy =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,receive_interval,min_waiting_prompts,"
        "prefill_alone\n";
    auto row = io::parse_measurements_csv(
        with_policy + "K,check,Llama-3.1-70B,H100 SXM5,vllm,0.9,4,1,1,1,fp8,fp8,offline,,512,16384,,,1000,200,"
                      "output_tokens_per_s,1,tok/s,s,9,,1\n",
        "k.csv")[0];
    // Llama-3.1-70B in FP8 on TP4: 17.5 GB of weights a GPU and 40 KiB of KV a token (80 layers × 2
    // of its 8 KV heads × 128 × 2 bytes). Of 80 GB, 80 · 0.95 − 2 − 17.5 = 56.5 GB hold about 1,300
    // sequences of 1,100 tokens, above the cap of 512; of 30 GB, 9 GB hold about 200; of 25 GB, 4.25 GB
    // about 100.
    double last = std::numeric_limits<double>::infinity();
    for (double gb : {80.0, 30.0, 25.0}) {
        plan::measurement x = row;
        x.d.hw.gpu.hbm_capacity = gigabytes(gb);
        const double rate = plan::predict(x);
        CHECK(rate < last);
        last = rate;
    }
}

TEST_CASE("measurements: a row's attention-DP balance reaches the simulated run, refused where it cannot apply") {
    const std::string with_balance =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,adp_timeout_iters,"
        "adp_batching_wait_iters\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_balance + rows, "b.csv"); };
    // InferenceMAX's gpt-oss-120b run on 2 B200s, TP 2 / EP 2 with attention DP (dp 2), balance on at
    // TensorRT-LLM's defaults (T 50, W 10), 32 clients per rank; and the same run without the balance.
    const auto rows = rows_of(
        "A,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,1,1,2,2,,fp8,fixed_batch,,512,20000,,32,640,0.8,922,922,ttft_s,0.14,s,s,50,10\n"
        "B,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,1,1,2,2,,fp8,fixed_batch,,512,20000,,32,640,0.8,922,922,ttft_s,0.14,s,s,,\n");
    REQUIRE(rows.size() == 2);
    const plan::measurement a = plan::with_own_engine(rows[0]), b = plan::with_own_engine(rows[1]);
    CHECK(a.adp_timeout_iters == 50);
    CHECK(a.adp_batching_wait_iters == 10);
    CHECK(b.adp_timeout_iters == 0);
    CHECK((plan::closed_loop_limits(a).adp_timeout_iters == 50 && plan::closed_loop_limits(a).adp_batching_wait_iters == 10));
    // The balance holds prompts: the simulated TTFT grows.
    CHECK(plan::predict(a) > plan::predict(b));
    // An online row with the balance is priced by its simulated run.
    plan::measurement online = a;
    online.how = plan::scenario::online;
    online.prompts = 0;
    online.range_ratio = 1;
    online.rate = 10;
    CHECK(plan::holds_prompts(online));
    // Refused, named: the balance needs attention-DP ranks, a whole timeout, and a batching wait only with it.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("C,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,2,1,2,1,,fp8,fixed_batch,,512,20000,,32,640,0.8,922,922,ttft_s,0.14,s,s,50,10\n"),
                         "adp_timeout_iters = 50: the attention-DP balance holds prompts across attention ranks"));
    CHECK(test::contains(error("C,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,1,1,2,2,,fp8,fixed_batch,,512,20000,,32,640,0.8,922,922,ttft_s,0.14,s,s,2.5,\n"),
                         "adp_timeout_iters = 2.5"));
    CHECK(test::contains(error("C,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,1,1,2,2,,fp8,fixed_batch,,512,20000,,32,640,0.8,922,922,ttft_s,0.14,s,s,,10\n"),
                         "adp_batching_wait_iters = 10: a batching wait belongs to the attention-DP balance"));
    CHECK(test::contains(error("C,check,gpt-oss-120b,B200 (HGX),trtllm,1.2,1,1,2,2,,fp8,fixed_batch,,512,20000,,32,,,922,922,ttft_s,0.14,s,s,50,10\n"),
                         "adp_timeout_iters = 50: the attention-DP balance is simulated"));
}

TEST_CASE("measurements: a disaggregated row states its pools and is priced by the closed loop over them") {
    const std::string with_pools =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,api_server,"
        "prefill_workers,prefill_tp,prefill_ep,prefill_dp,decode_workers\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_pools + rows, "p.csv"); };
    // DeepSeek-V3 NVFP4 on GB200: one TEP4 prefill worker (tp 4, ep 4), two DEP8 decode workers
    // (tp 1, ep 8, dp 8: 16 attention ranks), 64 clients over the whole deployment, 640 prompts.
    const std::string head = "P,check,DeepSeek-V3,GB200 (NVL72),trtllm,dynamo,1,1,8,8,nvfp4,fp8,fixed_batch,,,8192,,64,";
    const auto rows = rows_of(head + "640,0.8,922,922,ttft_s,0.5,s,s,1,1,4,4,,2\n" +
                              head.substr(0, 1) + "2" + head.substr(1) + "640,0.8,922,922,tpot_s,0.01,s,s,1,1,4,4,,2\n");
    REQUIRE(rows.size() == 2);
    const plan::measurement& x = rows[0];
    CHECK(x.disaggregated());
    CHECK(x.prefill_workers == 1.0);
    CHECK(x.prefill_layout.tp == 4);
    CHECK(x.prefill_layout.ep == 4);
    CHECK(x.prefill_layout.dp == 1);
    CHECK(x.decode_workers == 2.0);
    CHECK(x.clients() == 64.0);  // the client's concurrency, not 64 × dp
    // TensorRT-LLM's oldest-first chunks are a colocated row's rule: refused here, named.
    // (An online disaggregated TensorRT-LLM row: the rule for chunks of any other row is the one above.)
    plan::measurement chunked = x;
    chunked.how = plan::scenario::online;
    chunked.rate = 1.0;
    chunked.prompts = 0.0;
    chunked.range_ratio = 1.0;
    chunked.chunked_context = true;
    CHECK(test::contains(test::error_of([&] { chunked.validate(); }),
                         "chunked_context = 1: a colocated row's rule: a disaggregated row states its prefill worker's chunk"));
    // The prediction is the closed loop over the two pools of the row's GPU and engine: 4 + 16 GPUs fit
    // one NVL72 domain, so the KV cache travels over NVLink; the row's caps (max_tokens 8192) are the
    // decode worker's, per attention rank (session 25), and the prefill pool takes the engine's defaults.
    deployment p = plan::as_driven(x);
    p.layout = {.tp = 4, .ep = 4};
    CHECK(plan::prefill_limits(x).max_tokens_per_step == with_engine_defaults({}, x.d.engine).max_tokens_per_step);
    CHECK(plan::closed_loop_limits(x).max_tokens_per_step == 8192.0);
    const sim::decode_admission a = plan::decode_admission_of(x);
    CHECK(a.max_running <= 8192.0);  // min(the engine's max sequences, the row's 8192 tokens a step)
    CHECK(a.reserve_full_sequence);  // TensorRT-LLM: the whole sequence, after the prefill
    CHECK_FALSE(a.before_prefill);
    CHECK_FALSE(a.idle_join_step);  // TensorRT-LLM: no SGLang prebuilt-batch iteration
    // SGLang's decode worker under attention DP spends an idle lockstep iteration on each join
    // (sim::decode_admission::idle_join_step; sglang disaggregation/decode.py); with TP attention it does not.
    const auto sglang_rows = rows_of("S,check,DeepSeek-V3,MI355X,sglang,0.5.6,1,1,8,8,fp8,fp8,fixed_batch,,,,,256,2560,0.8,922,922,"
                                     "tpot_s,0.04,s,s,1,1,8,8,,2\n"
                                     "T,check,DeepSeek-V3,MI355X,sglang,0.5.6,8,1,8,1,fp8,fp8,fixed_batch,,,,,32,320,0.8,922,922,"
                                     "tpot_s,0.02,s,s,1,1,8,8,,2\n");
    REQUIRE(sglang_rows.size() == 2);
    CHECK(plan::decode_admission_of(sglang_rows[0]).idle_join_step);
    CHECK(plan::decode_admission_of(sglang_rows[0]).before_prefill);
    CHECK_FALSE(plan::decode_admission_of(sglang_rows[1]).idle_join_step);
    const disaggregated_loop s =
        disaggregated_closed_loop({.d = p, .workers = 1}, {.d = plan::as_driven(x), .workers = 2}, x.r, 64.0, 640.0,
                                  kv_path::scale_up, plan::prefill_limits(x));
    CHECK(s.decode_batch == 4.0);  // 64 ÷ (2 workers × 8 ranks)
    CHECK(plan::disaggregated_bound(x).ttft.value() == doctest::Approx(s.ttft.value()).epsilon(1e-12));
    // The prediction is the client's run as simulated over the same pools: 64 clients, 640 prompts of
    // the client's lengths (uniform on [819, 1024] at range ratio 0.8), seed 1, the same step cap and path.
    const sim::disaggregated_result run = sim::simulate_disaggregated(
        {.d = p, .workers = 1}, {.d = plan::as_driven(x), .workers = 2},
        {.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok), .clients = 64,
         .prompts = 640, .seed = 1},
        kv_path::scale_up, plan::prefill_admission_of(x), a);
    CHECK(plan::predict(x) == run.ttft.mean);
    CHECK(plan::predict(rows[1]) == run.tpot.mean);
    // The simulated run's tokens/s is within the closed form's bound; its TTFT carries the queueing the
    // bounds leave out (at least the bound's less 3%, the first step's context: unit-sim-disaggregated).
    CHECK(run.output_tokens_per_s <= s.output_rate.value());
    CHECK(run.ttft.mean >= 0.97 * s.ttft.value());

    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    // A decode cap that is no whole number of requests (the decode attention rank's), refused by the loader.
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,12.5,,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,1,4,4,,2\n"),
                         "its decode attention rank's"));
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,0.5,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,1,4,4,,2\n"),
                         "key \"max_tokens\" = \"0.5\""));
    // A prefill layout without prefill workers, a fraction of a worker, a row that is no closed loop.
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,,4,4,,\n"),
                         "key \"prefill_tp\" = \"4\": belongs to a disaggregated row"));
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,1.5,4,4,,2\n"),
                         "key \"prefill_workers\" = \"1.5\""));
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,,,922,922,"
                               "ttft_s,0.5,s,s,1,1,4,4,,2\n"),
                         "prompts = 0: a disaggregated row is priced as a closed-loop client's run"));
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,online,,,,2,,,,922,922,"
                               "ttft_s,0.5,s,s,1,1,4,4,,2\n"),
                         "scenario = online: a disaggregated row is priced as a closed-loop client's run"));
    // Each simulated scheduler feature is named by its own column and value.
    const std::string with_interval = with_pools.substr(0, with_pools.size() - 1) + ",receive_interval\n";
    CHECK(test::contains(test::message_of([&] {
                             return io::parse_measurements_csv(
                                 with_interval + "A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,"
                                                 "0.8,922,922,ttft_s,0.5,s,s,1,1,4,4,,2,12\n",
                                 "p.csv");
                         }),
                         "receive_interval = 12: a disaggregated row is priced by its own simulated closed loop"));
    // A pool column in a table without prefill_workers is refused, not read as a colocated row.
    CHECK(test::contains(test::message_of([&] {
                             return io::parse_measurements_csv(
                                 "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,"
                                 "max_batch,max_tokens,rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,"
                                 "value,unit,source,decode_workers\n"
                                 "A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,"
                                 "922,ttft_s,0.5,s,s,2\n",
                                 "p.csv");
                         }),
                         "key \"decode_workers\" = \"2\": a pool column needs the prefill_workers column"));
    // Fewer prompts than the client's concurrency.
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,32,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,1,4,4,,2\n"),
                         "prompts"));
    // A prefill layout the model cannot take (tp 3 does not divide the heads) is named.
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,1,3,1,,2\n"),
                         "layout.tp = 3"));
    // A TPOT row whose answers are all one token has no time per output token: refused, not priced 0.
    const auto one_token = rows_of(head + "640,0.8,922,1,tpot_s,0.01,s,s,1,1,4,4,,2\n");
    REQUIRE(one_token.size() == 1);
    const std::string no_tpot = test::error_of([&] { return plan::predict(one_token[0]); });
    CHECK(test::contains(no_tpot, "output_tokens"));
    CHECK(test::contains(no_tpot, "a TPOT row needs answers of more than one token"));
}

TEST_CASE("measurements: a disaggregated row's prefill caps (prefill_max_batch, prefill_max_tokens, prefill_chunk_tokens), per prefill attention rank") {
    const std::string with_caps =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,api_server,"
        "prefill_workers,prefill_tp,prefill_ep,prefill_dp,decode_workers,prefill_max_batch,prefill_max_tokens,prefill_chunk_tokens\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_caps + rows, "p.csv"); };
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    // GB200 dynamo-trt at 1k/1k: one TEP4 prefill worker, PREFILL_MAX_BATCH_SIZE 4, PREFILL_MAX_NUM_TOKENS 4608;
    // two DEP8 decode workers; 64 clients, 640 prompts.
    const std::string head = "P,check,DeepSeek-V3,GB200 (NVL72),trtllm,dynamo,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,922,";
    const auto trt = rows_of(head + "ttft_s,0.5,s,s,1,1,4,4,,2,4,4608,\n");
    REQUIRE(trt.size() == 1);
    const plan::measurement& x = trt[0];
    CHECK(x.prefill_max_batch == 4.0);
    CHECK(x.prefill_max_tokens == 4608.0);
    const sim::prefill_admission l = plan::prefill_admission_of(x);
    CHECK(l.max_running == 4.0);            // four prompts a pass
    CHECK(l.max_tokens_per_step == 4608.0);  // of at most 4608 tokens
    CHECK(l.held_slots == std::numeric_limits<double>::infinity());  // TensorRT-LLM: no slot past the pass
    CHECK(l.chunked == x.d.engine.scheduler.chunked_prefill);
    CHECK(l.chunk_tokens == 0.0);             // TensorRT-LLM: a prompt is cut (where chunked) at max_num_tokens, C = M
    CHECK_FALSE(l.first_prompt_always);       // TensorRT-LLM: a prompt enters while it fits
    CHECK(plan::prefill_limits(x).max_batch == 4.0);
    CHECK(plan::prefill_limits(x).max_tokens_per_step == 4608.0);
    // The row's price is the simulated run with that admission: 4 prompts of ≤ 1024 tokens (4096 ≤ 4608).
    deployment p = plan::as_driven(x);
    p.layout = {.tp = 4, .ep = 4};
    const sim::disaggregated_result run = sim::simulate_disaggregated(
        {.d = p, .workers = 1}, {.d = plan::as_driven(x), .workers = 2},
        {.input = workload::uniform(819_tok, 1024_tok), .output = workload::uniform(819_tok, 1024_tok), .clients = 64,
         .prompts = 640, .seed = 1},
        kv_path::scale_up, {.max_running = 4, .max_tokens_per_step = 4608, .chunked = false},
        plan::decode_admission_of(x));
    CHECK(plan::predict(x) == run.ttft.mean);
    CHECK(run.mean_prompts_per_pass <= 4.0);
    // Empty caps: the engine's defaults.
    const auto plain = rows_of(head + "ttft_s,0.5,s,s,1,1,4,4,,2,,,\n");
    REQUIRE(plain.size() == 1);
    // On its own engine (TensorRT-LLM on Blackwell, tables/engines.csv: max_sequences 2048, max_batched_tokens
    // 8192, no chunked prefill): TensorRT-LLM's defaults max_batch_size 2048 and max_num_tokens 8192, no hold.
    auto own = [](const plan::measurement& m) { return plan::on_engine(m, plan::own_engine(m).value()); };
    const sim::prefill_admission pl = plan::prefill_admission_of(own(plain[0]));
    CHECK(pl.max_running == 2048.0);
    CHECK(pl.max_tokens_per_step == 8192.0);
    CHECK_FALSE(pl.chunked);
    CHECK(pl.held_slots == std::numeric_limits<double>::infinity());
    // SGLang, a DEP8 prefill worker of --max-running-requests 8 and --chunked-prefill-size 262144: 8 ÷ 8 = 1
    // prompt and 262144 ÷ 8 = 32768 tokens a chunk a DP attention rank, the pass's budget --max-prefill-tokens
    // 16384 (not divided); its slot held until the transfer ends, 2 × 1 slots (the metadata buffer); the
    // pass's first prompt taken whatever its length (PrefillAdder).
    const auto sgl = rows_of("S,check,DeepSeek-V3,MI355X,sglang,0.5.6,1,1,8,8,fp8,bf16,fixed_batch,,,,,64,640,0.8,922,922,"
                             "ttft_s,0.5,s,s,1,1,1,8,8,2,1,16384,32768\n");
    REQUIRE(sgl.size() == 1);
    const sim::prefill_admission g = plan::prefill_admission_of(own(sgl[0]));  // SGLang on CDNA4 (ROCm): chunked
    CHECK(g.max_running == 1.0);
    CHECK(g.max_tokens_per_step == 16384.0);
    CHECK(g.chunk_tokens == 32768.0);
    CHECK(g.chunked);
    CHECK(g.first_prompt_always);
    CHECK(g.held_slots == 2.0);
    // Empty SGLang caps on its own engine (SGLang on CDNA4 (ROCm): max_sequences 2048, max_batched_tokens
    // 16384, chunk 16384): 2048 prompts a pass, 2 × 2048 = 4096 slots, the budget 16384 (also
    // --max-prefill-tokens' default) and the chunk 16384.
    const auto sgl_plain = rows_of("S,check,DeepSeek-V3,MI355X,sglang,0.5.6,1,1,8,8,fp8,bf16,fixed_batch,,,,,64,640,0.8,922,922,"
                                   "ttft_s,0.5,s,s,1,1,1,8,8,2,,,\n");
    REQUIRE(sgl_plain.size() == 1);
    const sim::prefill_admission gp = plan::prefill_admission_of(own(sgl_plain[0]));
    CHECK(gp.max_running == 2048.0);
    CHECK(gp.max_tokens_per_step == 16384.0);
    CHECK(gp.chunk_tokens == 16384.0);
    CHECK(gp.held_slots == 4096.0);
    // Refusals: no whole number, a cap of 0, a cap on a colocated row, a cap in a table without prefill_workers.
    const std::string half = error(head + "ttft_s,0.5,s,s,1,1,4,4,,2,1.5,4608,\n");
    CHECK(test::contains(half, "p.csv"));
    // file p.csv, line 2, column 33 (prefill_max_batch), the value, the rule
    CHECK(test::contains(half, "p.csv:2:33: key \"prefill_max_batch\" = \"1.5\""));
    CHECK(test::contains(half, "a prefill attention rank's cap"));
    CHECK(test::contains(error(head + "ttft_s,0.5,s,s,1,1,4,4,,2,4,0,\n"), "key \"prefill_max_tokens\" = \"0\": a prefill attention rank's cap"));
    CHECK(test::contains(error(head + "ttft_s,0.5,s,s,1,1,4,4,,2,4,4608,2e9\n"),
                         "key \"prefill_chunk_tokens\" = \"2e9\": a prefill attention rank's cap"));
    CHECK(test::contains(error(head + "ttft_s,0.5,s,s,1,1,4,4,,2,4,4608,2e9\n"), "from 1 to 10⁹"));
    CHECK(test::contains(error("A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,922,"
                               "ttft_s,0.5,s,s,1,,,,,,4,,\n"),
                         "key \"prefill_max_batch\" = \"4\": belongs to a disaggregated row"));
    CHECK(test::contains(test::message_of([&] {
                             return io::parse_measurements_csv(
                                 "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,"
                                 "max_batch,max_tokens,rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,"
                                 "value,unit,source,prefill_max_tokens\n"
                                 "A,check,DeepSeek-V3,GB200 (NVL72),trtllm,x,1,1,8,8,nvfp4,fp8,fixed_batch,,,,,64,640,0.8,922,"
                                 "922,ttft_s,0.5,s,s,4608\n",
                                 "p.csv");
                         }),
                         "key \"prefill_max_tokens\" = \"4608\": a pool column needs the prefill_workers column"));
}

TEST_CASE("measurements: a Krai MLPerf v5.1 open row (vLLM, Llama-3.1-70B, TP2·DP4 H100) loads with its harness's fields") {
    // tables/measurements.csv, ML51-Krai-H100x8-vllm092-L31-70B-dyn-ser-ttft (docs/krai-open-dense.md):
    // open/Krai/measurements/xe9680_h100_x8_vllm_092/llama3_1-70b-fp8_dyn/server/README.md runs tp=2 dp=4 on
    // 8 GPUs, quantization=fp8 (no KV flag: BF16), max_num_seqs=2476, max_num_batched_tokens=12140,
    // gpu_memory_utilization=0.9, through vLLM's OpenAI server. The log: 72.97 completed samples/s and
    // 21,433.25 tokens/s, mean first token 300,639,534 ns, median 295,036,361 ns, p99 522,673,060 ns.
    const auto all = io::load_measurements_csv(std::string(LLMCOST_TABLES_DIR) + "/measurements.csv");
    const auto it = std::find_if(all.begin(), all.end(),
                                 [](const plan::measurement& x) { return x.id == "ML51-Krai-H100x8-vllm092-L31-70B-dyn-ser-ttft"; });
    REQUIRE(it != all.end());
    const plan::measurement& x = *it;
    CHECK(x.check);
    CHECK(x.engine == plan::serving_engine::vllm);
    CHECK(x.engine_version == "0.9.2");
    CHECK(x.d.m.name == "Llama-3.1-70B");
    CHECK(x.d.hw.name == "H100 SXM5");
    CHECK(x.d.layout.tp == 2);
    CHECK(x.d.layout.dp == 4);
    CHECK(x.d.m.weights == formats::fp8);
    CHECK(x.d.m.kv_cache == formats::bf16);
    CHECK(x.how == plan::scenario::online);
    CHECK(x.what == plan::metric::ttft_s);
    // Per replica, offered (docs/mlperf-scheduled-rate.md): the detail log's result_scheduled_samples_per_sec
    // 75.4799 (the Poisson schedule; the completed rate 72.9736 is diluted by the last query's latency)
    // ÷ 4 replicas = 18.869975, stated to four figures.
    CHECK(x.rate == doctest::Approx(18.87));
    CHECK(std::abs(x.rate - 75.4799 / 4.0) < 0.0005);
    // Input (docs/krai-token-unit.md §5): MLPerf's Llama-2 mean 222.3 holds the reference chat template's 23 tokens
    // (10 without a system prompt); Krai's Llama-3.1 template adds 15 (9); the text goes at the Llama-2 ÷ Llama-3
    // ratio of all 19 runs' answers, 530,343 ÷ 450,729 = 1.17664: 15 + 199.3 ÷ 1.17664 = 184.38 and
    // 9 + 212.3 ÷ 1.17664 = 189.43, the system-prompt share unpublished, so the midpoint 186.91 → 187;
    // output: 21,433.25 ÷ 72.97 = 293.7 → 294.
    constexpr double text_ratio = 530343.0 / 450729.0;
    CHECK(x.r.input.value() ==
          std::round((15.0 + (222.3 - 23.0) / text_ratio + 9.0 + (222.3 - 10.0) / text_ratio) / 2.0));
    // Answers: the run's TEST06 log holds 100 answers of 26,950 Llama-2 ids (mean 269.50), 26,850 after the BOSes,
    // re-encoded to 22,696 Llama-3 tokens + 99 end-of-turn tokens (one answer hit the 1,024-token cap):
    // ρ = 26,850 ÷ 22,795 = 1.17789, stored to 4 decimals; k = 1, the BOS.
    CHECK(x.answer_count.ratio == doctest::Approx(26850.0 / 22795.0).epsilon(5e-5));
    CHECK(x.answer_count.offset == 1.0);
    CHECK(x.r.output.value() == std::round(21433.25 / 72.97));
    CHECK(x.value == doctest::Approx(0.300639534));
    CHECK(x.ttft_median == doctest::Approx(0.295036361));
    CHECK(x.ttft_p99 == doctest::Approx(0.52267306));
    CHECK(x.max_batch == 2476.0);
    CHECK(x.max_tokens == 12140.0);
    REQUIRE(x.kv_memory_fraction.has_value());
    CHECK(*x.kv_memory_fraction == 0.9);
    CHECK(x.cuda_graphs == true);
    CHECK(x.api_server);
    CHECK(test::contains(x.source, "open/Krai/results/xe9680_h100_x8_vllm_092/llama3_1-70b-fp8_dyn/server/performance/run_1"));
}

TEST_CASE("tables/measurements.csv: Krai's vLLM Server row on 8 MI300X reads with every field its harness states") {
    // docs/amd-open-dense.md; MLPerf v5.1 open/Krai xe9680_mi300x_x8_vllm_091 llama3_1-70b-fp8_dyn Server.
    const auto all = io::load_measurements_csv(std::string(LLMCOST_TABLES_DIR) + "/measurements.csv");
    auto find = [&](std::string_view id) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const plan::measurement& x) { return x.id == id; });
        REQUIRE(it != all.end());
        return *it;
    };
    const plan::measurement x = find("ML51-Krai-MI300Xx8-vllm091-L31-70B-ser-ttft");
    CHECK(x.check);
    CHECK(x.engine == plan::serving_engine::vllm);
    CHECK(x.engine_version.starts_with("0.9.2.dev364+gb432b7a28"));
    CHECK(x.d.m.name == "Llama-3.1-70B");
    CHECK(x.d.hw.name == "MI300X");
    // tp=1, pp=1, dp=8 in the axs command: eight one-GPU replicas.
    CHECK(x.d.layout.tp == 1);
    CHECK(x.d.layout.pp == 1);
    CHECK(x.d.layout.dp == 8);
    // quantization=fp8 on the BF16 checkpoint, no kv_cache_dtype: FP8 weights, BF16 cache.
    CHECK(x.d.m.weights.name == "fp8");
    CHECK(x.d.m.kv_cache.name == "bf16");
    CHECK(x.how == plan::scenario::online);
    CHECK(x.max_batch == 1866.0);   // max_num_seqs
    CHECK(x.max_tokens == 17338.0); // max_num_batched_tokens
    // Offered: the detail log's result_scheduled_samples_per_sec 55.3519 over 8 replicas = 6.9189875 → 6.919 a
    // replica (not the 53.56 completed samples/s: docs/mlperf-scheduled-rate.md).
    CHECK(x.rate == doctest::Approx(6.919).epsilon(1e-12));
    CHECK(std::abs(x.rate - 55.3519 / 8.0) < 0.0005);
    // The same harness and prompts as Krai's NVIDIA rows: 187 Llama-3.1 tokens (docs/krai-token-unit.md §5, worked
    // in the H100 row's test above); its own answers' ratio: 100 answers, 27,419 Llama-2 ids (27,319 after the
    // BOSes) against 23,302 Llama-3 tokens + 98 end-of-turn tokens (two at the cap): 27,319 ÷ 23,400 = 1.16748.
    CHECK(x.r.input.value() == 187.0);
    CHECK(x.answer_count.ratio == doctest::Approx(27319.0 / 23400.0).epsilon(5e-5));
    CHECK(x.r.input.value() == find("ML51-Krai-H100x8-vllm092-L31-70B-dyn-ser-ttft").r.input.value());
    // 15,863.67 tokens/s / 53.56 samples/s = 296.19 tokens a sample.
    CHECK(x.r.output.value() == 296.0);
    CHECK(x.what == plan::metric::ttft_s);
    CHECK(x.value == doctest::Approx(0.367560014).epsilon(1e-12));  // 367,560,014 ns
    CHECK(x.ttft_median == doctest::Approx(0.348622932).epsilon(1e-12));
    CHECK(x.ttft_p99 == doctest::Approx(0.806522953).epsilon(1e-12));
    CHECK(x.api_server);  // vLLM's OpenAI server, Krai's client over HTTP
    REQUIRE(static_cast<bool>(x.kv_memory_fraction));
    CHECK(*x.kv_memory_fraction == 0.99);  // gpu_memory_utilization=0.99
    CHECK_FALSE(static_cast<bool>(x.cuda_graphs));          // not stated: the profile's default
    CHECK(x.receive_interval == 1.0);      // V1: no multi-step
    CHECK_FALSE(x.prefill_alone);

    // AMD's MXFP4 Llama-2-70B Offline on 8 MI355X: offline_mi355x.yaml's flags.
    const plan::measurement y = find("ML51-AMD-MI355Xx8-L2-70B-mxfp4-off");
    CHECK(y.d.hw.name == "MI355X");
    CHECK(y.d.m.weights.name == "mxfp4");
    CHECK(y.d.m.kv_cache.name == "fp8");
    CHECK(y.d.layout.dp == 8);
    CHECK(y.max_batch == 3450.0);
    CHECK(y.receive_interval == 19.0);  // num_scheduler_steps 19
    CHECK(y.prefill_alone);             // enable_chunked_prefill False
    REQUIRE(static_cast<bool>(y.cuda_graphs));
    CHECK(*y.cuda_graphs);              // enforce_eager False
    CHECK_FALSE(y.api_server);          // AMD's in-process harness
    // 93,045.8 tokens/s / 333.216 samples/s = 279.24 tokens a sample.
    CHECK(y.r.output.value() == 279.0);
    CHECK(y.value == doctest::Approx(93045.8).epsilon(1e-12));
}

TEST_CASE("measurements: a first-come-first-served token budget shorter than a prompt holds prompts: simulated") {
    const std::string with_chunks =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,chunked_context\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_chunks + rows, "c.csv"); };
    // An online TensorRT-LLM row with chunked context (first come, first served) under a budget of
    // 1,024 tokens a step and prompts of 4,000 (F); the same with a budget of 8,192, longer than a prompt
    // (G); F without chunked context (H); H offline (O).
    const auto rows = rows_of(
        "F,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1\n"
        "G,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256,8192,2,,4000,50,ttft_s,0.3,s,s,1\n"
        "H,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,\n"
        "O,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,offline,,256,1024,,,4000,50,output_tokens_per_s,1,tok/s,s,\n");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].chunked_context);
    CHECK_FALSE(rows[2].chunked_context);
    // The row's chunk is its budget where it chunks context; none where it does not (TensorRT-LLM's profile).
    CHECK(plan::closed_loop_limits(rows[0]).prefill_chunk.value() == 1024.0);
    CHECK(plan::closed_loop_limits(rows[0]).max_tokens_per_step == 1024.0);
    CHECK(plan::closed_loop_limits(rows[1]).prefill_chunk.value() == 8192.0);
    CHECK(plan::closed_loop_limits(rows[2]).prefill_chunk.value() == 0.0);
    // Held only where a mean prompt is longer than the budget, online.
    CHECK(plan::fcfs_budget_holds_prompts(rows[0]));
    CHECK(plan::holds_prompts(rows[0]));
    CHECK_FALSE(plan::holds_prompts(rows[1]));
    CHECK_FALSE(plan::holds_prompts(rows[2]));
    CHECK_FALSE(plan::fcfs_budget_holds_prompts(rows[3]));
    CHECK_FALSE(plan::holds_prompts(rows[3]));
    // At the boundary, a budget equal to the mean prompt (M = I = 4,000): a prompt fits one step's
    // budget when no answer runs beside it, so nothing is held: the closed form prices it; one token
    // shorter (M = I − 1), every prompt spans two steps: held.
    plan::measurement at = rows[0];
    at.max_tokens = 4000.0;
    CHECK_FALSE(plan::fcfs_budget_holds_prompts(at));
    CHECK_FALSE(plan::holds_prompts(at));
    at.max_tokens = 3999.0;
    CHECK(plan::fcfs_budget_holds_prompts(at));
    // F is priced by its simulated run; G by the closed form.
    CHECK(plan::predict(rows[0]) == plan::online_run(rows[0]).ttft);
    CHECK(plan::predict(rows[1]) ==
          plan::online_closed_form(rows[1]).point.ttft.value());
    // A prompt of 4,000 tokens in chunks of at most 1,024 spans at least ⌈4,000 ÷ 1,024⌉ = 4 steps: its TTFT is
    // at least the four chunk passes alone (0, 1,024, 2,048 and 3,072 tokens before them).
    double four = 0;
    for (const double before : {0.0, 1024.0, 2048.0})
        four += prefill_pass(plan::as_driven(rows[0]), 1.0, 1024_tok, tokens(before)).time().value();
    four += prefill_pass(plan::as_driven(rows[0]), 1.0, 928_tok, 3072_tok).time().value();
    CHECK(plan::predict(rows[0]) > four);
    // Refused, named: chunks that fill a budget need one; a flag is 0 or 1.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    CHECK(test::contains(error("X,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256,,2,,4000,50,ttft_s,0.3,s,s,1\n"),
                         "chunked_context = 1: chunks that fill a step's token budget need the budget"));
    CHECK(test::contains(error("X,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,2\n"),
                         "chunked_context"));
    // TensorRT-LLM's online and offline rows only (session 43: an offline row is accepted, C below): a vLLM row
    // and a TensorRT-LLM fixed-batch row are refused, named with the cell's file:line:column.
    const std::string only = "chunked_context = 1: TensorRT-LLM's oldest-first chunks (enable_chunked_context, "
                             "first_come_first_served) are priced on its online and offline rows";
    const std::string vllm = error("X,check,Llama-3.1-8B,H100 SXM5,vllm,0.10.0,1,1,1,1,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1\n");
    CHECK(test::contains(vllm, only));
    CHECK(test::contains(vllm, "c.csv:2:"));
    const std::string fixed = error("X,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,fixed_batch,,256,1024,,8,4000,50,output_tokens_per_s,1,tok/s,s,1\n");
    CHECK(test::contains(fixed, only));
    CHECK(test::contains(fixed, "c.csv:2:"));
    CHECK(rows_of("C,check,Llama-3.1-8B,H100 SXM5,trtllm,0.17,1,1,1,1,fp8,fp8,offline,,256,1024,,,4000,50,output_tokens_per_s,1,tok/s,s,1\n")[0]
              .chunked_context);
}

TEST_CASE("measurements: an offline TensorRT-LLM row with chunked context, by hand (session 43)") {
    const std::string with_chunks =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,chunked_context\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_chunks + rows, "c.csv"); };
    // Two requests of 1,500 -> 3 tokens queued at once, max batch 2, a step's budget M = 1,000 tokens, chunked
    // oldest first (TensorRT-LLM's FCFS context chunking); N: the same row with chunking off.
    const auto rows = rows_of(
        "C,check,Llama-3.1-8B,H100 SXM5,trtllm,0.17,1,1,1,1,fp8,fp8,offline,2,2,1000,,,1500,3,output_tokens_per_s,1,tok/s,s,1\n"
        "N,check,Llama-3.1-8B,H100 SXM5,trtllm,0.17,1,1,1,1,fp8,fp8,offline,2,2,1000,,,1500,3,output_tokens_per_s,1,tok/s,s,0\n");
    const plan::measurement& x = rows[0];
    REQUIRE(plan::fcfs_budget_holds_prompts(x));  // M = 1,000 < I = 1,500: simulated (`offline_run`)
    REQUIRE(plan::holds_prompts(x));
    CHECK(plan::offline_limits(x).prefill_chunk.value() == 1000.0);
    // The steps by hand, each budget M holding one token per running answer D first, then the oldest prompt's
    // chunk, then the next prompt's (a prompt under D decodes spans ⌈I ÷ (M − D)⌉ steps; R2 below starts in
    // what R1 leaves of step 2):
    //   1: D = 0, R1 1,000 (0 before)                        -> R1's prompt 1,000 of 1,500
    //   2: D = 0, R1 500 (1,000 before), R2 500 (0 before)   -> R1's first token; R2 500 of 1,500
    //   3: D = 1 (R1), R2 999 (500 before)                   -> R1's 2nd token; R2 1,499
    //   4: D = 1 (R1), R2 1 (1,499 before)                   -> R1's 3rd token, R1 ends; R2's first token
    //   5, 6: D = 1 (R2)                                     -> R2's 2nd and 3rd tokens
    // 6 tokens over the six steps' time, each step priced by the library's one step formula (`step_pass`).
    const deployment d = plan::as_driven(x);
    auto step = [&](double decodes, double context, std::vector<std::pair<double, double>> chunks) {
        // a step of `decodes` answers at `context` and prompt chunks (tokens, tokens before) of one mean size
        double tokens_sum = 0, before_sum = 0;
        for (const auto& [c, before] : chunks) {
            tokens_sum += c;
            before_sum += before;
        }
        // n chunks priced by their means (one chunk: its own size; step 2's two: as the simulator does, by their sums)
        const double n = static_cast<double>(chunks.size());
        const double per = chunks.empty() ? 0.0 : 1.0 / n;
        return step_pass(d, {.decode_sequences = decodes, .decode_context = tokens(context), .prefill_sequences = n,
                             .prefill_tokens = tokens(tokens_sum * per), .prefill_prefix = tokens(before_sum * per)})
            .time()
            .value();
    };
    const double t1 = step(0, 0, {{1000.0, 0.0}});
    const double t2 = step(0, 0, {{500.0, 1000.0}, {500.0, 0.0}});
    const double t3 = step(1, 1501, {{999.0, 500.0}});
    const double t4 = step(1, 1502, {{1.0, 1499.0}});
    const double t5 = step(1, 1501, {}), t6 = step(1, 1502, {});
    const double by_hand = 6.0 / (t1 + t2 + t3 + t4 + t5 + t6);
    CAPTURE(by_hand);
    // Within 0.01%: the simulator prices step 2's two chunks from their summed attention pairs and KV (the
    // hand step takes the mean chunk, 500 tokens after 500), and a decode's context is its tokens so far.
    CHECK(plan::predict(x) == doctest::Approx(by_hand).epsilon(1e-4));
    CHECK(plan::predict(x) == plan::offline_run(x));
    // The six steps themselves: the two requests run alone (max batch 2) take exactly the steps listed above.
    const workload::traffic two{.input = workload::fixed(tokens(1500.0)), .output = workload::fixed(tokens(3.0)),
                                .arrivals = workload::closed_loop(2.0)};
    CHECK(sim::simulate(d, two, {.limits = plan::closed_loop_limits(x), .requests = 2.0}).steps == 6.0);
    // Without chunking, the same row's 1,500-token prompt is longer than the 1,000-token cap: refused, named
    // (`require_prompt_within_step_cap`: TensorRT-LLM refuses such a prompt, LLM._check_arguments).
    const std::string refused = test::error_of([&] { return plan::predict(rows[1]); });
    CHECK(test::contains(refused, "max_tokens_per_step = 1000"));
    CHECK(test::contains(refused, "below the prompt's 1500 tokens"));
    CHECK(test::contains(refused, "needs an engine that chunks prompts"));
}

TEST_CASE("measurements: an offline chunked row whose prompt fits the budget: the closed form, one chunk a prompt") {
    const std::string with_chunks =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,chunked_context\n";
    // 500 -> 500 tokens under M = 1,000, chunked: every prompt is one chunk; the steady state's decodes and the
    // prompt tokens they bring stay within M: b · (1 + I ÷ O) <= M, b <= 1,000 ÷ (1 + 500 ÷ 500) = 500, below
    // the max batch 4,096 and the KV room of an H100 for Llama-3.1-8B in FP8 (about 780 sequences of 1,000 tokens).
    const plan::measurement x = io::parse_measurements_csv(
        with_chunks + "C,check,Llama-3.1-8B,H100 SXM5,trtllm,0.17,1,1,1,1,fp8,fp8,offline,,4096,1000,,,500,500,output_tokens_per_s,1,tok/s,s,1\n",
        "c.csv")[0];
    CHECK_FALSE(plan::holds_prompts(x));
    // The row's chunk is the budget (`row_prompt_chunk`); it does not cut a 500-token prompt, so the closed form
    // leaves it out (`offline_limits`): one chunk of I ≤ M is the whole prompt.
    CHECK(plan::row_prompt_chunk(x).value() == 1000.0);
    const scheduler_limits l = plan::offline_limits(x);
    CHECK(l.prefill_chunk.value() == 0.0);
    const batch_limit b = max_batch(plan::as_run(x), x.r, l);
    CHECK(b.batch == 500.0);
    CHECK(b.limited_by == "max tokens per step");
    // The same figure as the closed form with the prompt as one chunk of M.
    scheduler_limits one_chunk = l;
    one_chunk.prefill_chunk = tokens(1000.0);
    CHECK(plan::predict(x) == doctest::Approx(saturated(plan::as_driven(x), x.r, one_chunk).output_rate.value()).epsilon(1e-12));
}

TEST_CASE("measurements: a vLLM offline row whose budget is below its prompt is chunked by its profile, not refused") {
    // vLLM V1 chunks prompts to the step's budget (--max-num-batched-tokens; the profile's chunked_prefill): a
    // 1,500-token prompt under M = 1,000 is two chunks of 750 (`split_prompt`), the same chunk rule as the simulated
    // run's (`row_prompt_chunk`). The batch keeps its decodes plus the prompt tokens they bring near M:
    // b = 1,000 ÷ (1 + 1,500 ÷ 500) = 250, below the max batch 256 and the KV room (about 520 sequences of 2,000
    // tokens on an H100 for Llama-3.1-8B in FP8).
    const plan::measurement x = plan::with_own_engine(io::parse_measurements_csv(
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source\n"
        "V,check,Llama-3.1-8B,H100 SXM5,vllm,0.10.0,1,1,1,1,fp8,fp8,offline,,256,1000,,,1500,500,output_tokens_per_s,1,tok/s,s\n",
        "c.csv")[0]);  // priced on vLLM on Hopper's profile, as validation prices it
    REQUIRE(x.d.engine.scheduler.chunked_prefill);
    REQUIRE_FALSE(plan::holds_prompts(x));  // the closed form prices it
    CHECK(plan::row_prompt_chunk(x).value() == 1000.0);
    CHECK(plan::offline_limits(x).prefill_chunk.value() == 1000.0);
    CHECK(plan::closed_loop_limits(x).prefill_chunk.value() == 1000.0);
    const batch_limit b = max_batch(plan::as_run(x), x.r, plan::offline_limits(x));
    CHECK(b.batch == 250.0);
    CHECK(b.limited_by == "max tokens per step");
    CHECK(split_prompt(x.r, plan::offline_limits(x).prefill_chunk).count == 2.0);
    CHECK(plan::predict(x) > 0.0);  // priced, not refused by the prompt-within-step-cap rule
}

TEST_CASE("property: under a first-come-first-served budget shorter than the prompt, TTFT grows as the budget shrinks") {
    const std::string with_chunks =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,chunked_context\n";
    double last = 0;
    for (const std::string budget : {"3000", "1500", "750"}) {
        const plan::measurement x = io::parse_measurements_csv(
            with_chunks + "F,check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,1,fp8,fp8,online,,256," + budget +
                ",2,,4000,50,ttft_s,0.3,s,s,1\n",
            "c.csv")[0];
        REQUIRE(plan::holds_prompts(x));
        const double ttft = plan::predict(x);
        CAPTURE(budget);
        CHECK(ttft > last);  // more, smaller chunks: more steps before the first token, each with the answers running
        last = ttft;
    }
}

TEST_CASE("measurements: the harness's dispatch over the replicas sets a simulated replica's arrivals") {
    const std::string with_dispatch =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,chunked_context,replica_dispatch\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_dispatch + rows, "d.csv"); };
    // Two replicas at 2 queries/s each (the client's stream: 4/s), prompts of 4,000 tokens in chunks of
    // 1,024 (simulated): round robin (R), least pending (L), a random split (P); one replica round robin (S).
    const std::string row = ",check,Llama-3.1-8B,H100 SXM5,trtllm,1.0,1,1,1,";
    const auto rows = rows_of("R" + row + "2,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1,round_robin\n" +
                              "L" + row + "2,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1,least_pending\n" +
                              "P" + row + "2,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1,\n" +
                              "S" + row + "1,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1,round_robin\n");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].dispatch == plan::replica_dispatch::round_robin);
    CHECK(rows[1].dispatch == plan::replica_dispatch::least_pending);
    CHECK(rows[2].dispatch == plan::replica_dispatch::random_split);
    // Round robin over 2: every other query of a Poisson stream at 4/s, so a replica's gap is the sum of two
    // exponential gaps of mean 0.25 s: mean 0.5 s, standard deviation √2 · 0.25 s, cv 1/√2 (Erlang-2).
    const workload::arrival_process rr = plan::online_arrivals(rows[0]);
    CHECK(rr.law == workload::arrival_law::gamma);
    CHECK(rr.mean_gap.value() == doctest::Approx(0.5));
    CHECK(rr.cv == doctest::Approx(std::sqrt(2.0) * 0.25 / 0.5));
    const workload::arrival_process lp = plan::online_arrivals(rows[1]);  // its run's first pass: round robin
    CHECK((lp.law == rr.law && lp.mean_gap.value() == rr.mean_gap.value() && lp.cv == rr.cv));
    CHECK(plan::online_arrivals(rows[2]).law == workload::arrival_law::poisson);
    CHECK(plan::online_arrivals(rows[3]).law == workload::arrival_law::poisson);  // one replica: its own stream
    CHECK(plan::online_arrivals(rows[3]).mean_gap.value() == doctest::Approx(0.5));
    // Gaps more regular than Poisson: a prompt meets a shorter queue, the same rate served.
    CHECK(plan::predict(rows[0]) < plan::predict(rows[2]));
    // Least pending, through predict: its own simulated run (round robin's run for the time in flight,
    // then replica 0's queries as the dispatch sends them), the same on a second call (seeded).
    const double lp_ttft = plan::predict(rows[1]);
    CHECK(lp_ttft == plan::online_run(rows[1]).ttft);
    CHECK(lp_ttft == plan::predict(rows[1]));
    CHECK(lp_ttft != plan::predict(rows[0]));  // not the round-robin figure: the branch ran
    // A query sent to the replica with fewer in flight meets no longer a queue than one sent at random,
    // at the same rate: TTFT no more than the random split's; and no less than the prompt's own chunk
    // steps alone, ⌈4,000 ÷ 1,024⌉ = 4 passes (0, 1,024, 2,048 and 3,072 tokens before them).
    CHECK(lp_ttft <= plan::predict(rows[2]));
    double four = 0;
    for (const double before : {0.0, 1024.0, 2048.0})
        four += prefill_pass(plan::as_driven(rows[1]), 1.0, 1024_tok, tokens(before)).time().value();
    four += prefill_pass(plan::as_driven(rows[1]), 1.0, 928_tok, 3072_tok).time().value();
    CHECK(lp_ttft >= four);
    // Refused, named: an unknown word; a dispatch on an offline row.
    auto error = [&](const std::string& r) { return test::message_of([&] { return rows_of(r); }); };
    CHECK(test::contains(error("X" + row + "2,fp8,fp8,online,,256,1024,2,,4000,50,ttft_s,0.3,s,s,1,random\n"),
                         "round_robin or least_pending"));
    CHECK(test::contains(error("X" + row + "2,fp8,fp8,offline,,256,1024,,,4000,50,output_tokens_per_s,1,tok/s,s,,round_robin\n"),
                         "key \"replica_dispatch\" = \"round_robin\": a harness's dispatch over replicas belongs to an online row"));
    // Built in code: the word, from the enum.
    plan::measurement offline = rows[0];
    offline.how = plan::scenario::offline;
    offline.dispatch = plan::replica_dispatch::least_pending;
    CHECK(test::contains(test::error_of([&] { offline.validate(); }),
                         "replica_dispatch = least_pending: a harness's dispatch over replicas belongs to an online row"));
}

TEST_CASE("measurements: the fewest-pending dispatch gives the simulated replica the row's rate λ") {
    // Ties do not favour replica 0, so over a long seeded run its share of the k·n queries sent is n
    // and its arrival rate λ, within sampling error. The count of a replica under a random split is
    // binomial(k·n, 1/k), standard deviation √(n (1 − 1/k)) < √n; the fewest-pending dispatch evens
    // the counts out, so 4√n bounds it. Loads: nearly idle (every arrival a tie: the harness's rule
    // gave replica 0 almost all of them), about half busy, and near saturation, k = 2, 4 and 36.
    const workload::traffic t{.input = workload::fixed(100_tok), .output = workload::fixed(10_tok),
                              .arrivals = workload::poisson(1_s)};
    const double lambda = 0.5;  // per replica, queries/s
    for (const double k : {2.0, 4.0, 36.0})
        for (const double w : {0.01, 1.0, 4.0}) {  // s in flight: λ·w = 0.005, 0.5 and 2 per replica
            const double n = k > 4.0 ? 2000.0 : 20000.0;
            const auto mine = plan::least_pending_arrivals(t, per_second(lambda), k, n, seconds(w));
            CAPTURE(k);
            CAPTURE(w);
            CHECK(std::abs(static_cast<double>(mine.size()) - n) <= 4.0 * std::sqrt(n));
            // Its rate: its queries over the span of the client's k·n arrivals at k·λ (about n ÷ λ).
            const double rate = static_cast<double>(mine.size()) / mine.back().arrival.value();
            CHECK(rate == doctest::Approx(lambda).epsilon(5.0 / std::sqrt(n)));
        }
}

TEST_CASE("measurements: the fewest-pending dispatch, by hand at its two limits") {
    // NVIDIA's harness, Server: each query to the core with the fewest in flight; ties here at random.
    const workload::traffic t{.input = workload::fixed(1000_tok), .output = workload::fixed(10_tok),
                              .arrivals = workload::poisson(1_s)};
    // Queries that never end: the counts only grow, so the two replicas take turns from a tie: of each
    // pair of arrivals replica 0 gets exactly one — half of the 2 × 500 sent.
    const auto forever = plan::least_pending_arrivals(t, per_second(1.0), 2.0, 500.0, seconds(1e12));
    CHECK(forever.size() == 500);
    // Queries that end at once: every query finds both replicas empty, a tie, and goes to either with
    // chance ½: replica 0's count is binomial(1,000, ½), 500 ± 15.8; within 4 standard deviations.
    const auto at_once = plan::least_pending_arrivals(t, per_second(1.0), 2.0, 500.0, seconds(0.0));
    CHECK(std::abs(static_cast<double>(at_once.size()) - 500.0) <= 4.0 * std::sqrt(1000.0 * 0.25));
    // The client's stream is Poisson at 2 × 1 query/s: 1,000 of them span about 500 s, and replica 0's
    // arrivals are in order, with the row's lengths.
    CHECK(at_once.back().arrival.value() == doctest::Approx(500.0).epsilon(0.1));
    CHECK(std::is_sorted(forever.begin(), forever.end(),
                         [](const workload::request& a, const workload::request& b) { return a.arrival < b.arrival; }));
    CHECK((forever.front().input.value() == 1000.0 && forever.front().output.value() == 10.0));
    // Refused, named: a fractional replica count, a rate of 0, a fractional or zero query count, a
    // negative or infinite time in flight.
    auto refusal = [&](double rate, double k, double n, double w) {
        return test::error_of([&] { return plan::least_pending_arrivals(t, per_second(rate), k, n, seconds(w)); });
    };
    CHECK(test::contains(refusal(1.0, 2.5, 500.0, 1.0), "replicas = 2.5: a whole number of replicas"));
    CHECK(test::contains(refusal(0.0, 2.0, 500.0, 1.0), "rate (queries/s per replica) = 0: must be positive and finite"));
    CHECK(test::contains(refusal(1.0, 2.0, 0.5, 1.0), "queries per replica = 0.5: a whole number, from 1 to 10⁷"));
    CHECK(test::contains(refusal(1.0, 2.0, 0.0, 1.0), "queries per replica = 0: a whole number"));
    CHECK(test::contains(refusal(1.0, 2.0, 500.0, -1.0), "time in flight (s) = -1: must be zero or positive and finite"));
    CHECK(test::contains(refusal(1.0, 2.0, 500.0, std::numeric_limits<double>::infinity()),
                         "time in flight (s) = inf: must be zero or positive"));
}

TEST_CASE("measurements: a row with AMD's decode target is simulated, its fields carried, bad ones refused") {
    const std::string with_target =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,decode_target_min,decode_target_max,"
        "decode_target_step,prefill_free_kv_tokens,prefill_alone\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(with_target + rows, "t.csv"); };
    // An Offline row with the target (MIN 4, MAX 6, STEP 2), prompt steps alone: 14 requests over two replicas, 7 each, of
    // 100 → 10 tokens. N: the same without it (the closed form).
    const auto rows = rows_of(
        "O,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,14,64,8192,,,100,10,output_tokens_per_s,1,tok/s,s,4,6,2,64,1\n"
        "N,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,14,64,8192,,,100,10,output_tokens_per_s,1,tok/s,s,,,,,\n");
    REQUIRE(rows.size() == 2);
    const plan::measurement& o = rows[0];
    CHECK((o.decode_cut.min == 4 && o.decode_cut.max == 6 && o.decode_cut.step == 2 && o.decode_cut.prefill_free_kv == 64_tok));
    CHECK(plan::holds_prompts(o));
    CHECK_FALSE(plan::holds_prompts(rows[1]));
    CHECK_FALSE(rows[1].decode_cut.on());
    const scheduler_limits l = plan::closed_loop_limits(o);
    CHECK((l.decode_cut.min == 4 && l.decode_cut.max == 6 && l.decode_cut.step == 2 && l.decode_cut.prefill_free_kv == 64_tok));
    // Each replica: one prompt step of the 7 prompts, then 6 decode 9 steps at contexts 101 … 109 and end, then the
    // 7th, left out, its 9 alone: 70 tokens in prefill(7 × 100) + Σ decode(6, c) + Σ decode(1, c), the two replicas
    // twice that rate (LoadGen's tokens ÷ makespan).
    deployment one = o.d;
    one.layout.dp = 1;
    double t = prefill_pass(one, 7.0, 100_tok, 0_tok).time().value();
    for (double c = 101; c <= 109; ++c)
        t += decode_pass(one, 6.0, tokens(c)).time().value() + decode_pass(one, 1.0, tokens(c)).time().value();
    CHECK(plan::predict(o) == doctest::Approx(2.0 * 70.0 / t).epsilon(1e-9));
    CHECK(plan::predict(o) == plan::offline_run(o));
    // Refused, named (the loader adds the file and line): a step of 0, a minimum above the maximum, a negative
    // threshold, a target on a row priced in closed form.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const std::string head = "W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,14,64,8192,,,100,10,output_tokens_per_s,1,tok/s,s,";
    CHECK(test::contains(error(head + "4,6,0,0,1\n"), "decode_target_step = 0: a whole number of sequences, at least 1"));
    CHECK(test::contains(error(head + "8,6,2,0,1\n"), "decode_target_min = 8: a whole number of sequences, at most decode_target_max"));
    CHECK(test::contains(error(head + "4,6,2,-1,1\n"), "prefill_free_kv_tokens"));
    CHECK(test::contains(error(head + "4,6,2,-1,1\n"), "must not be negative"));
    CHECK(test::contains(
        error("W,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,fixed_batch,,,,,8,100,10,tpot_s,0.01,s,s,4,6,2,0,0\n"),
        "decode_target_max = 6: a decode target is simulated"));
    // Outside V0's non-chunked path: a target on a row without prompt steps alone (here vLLM 0.9's mixed chunked
    // prefill) is refused, named.
    CHECK(test::contains(error(head + "4,6,2,0,0\n"),
                         "decode_target_max = 6: AMD's gate runs in V0's non-chunked path (_schedule_default): needs "
                         "prefill_alone 1 and no prefill chunk"));
}

TEST_CASE("measurements: a row whose prompt steps run alone takes whole prompts, its token cap a budget, not a chunk") {
    // vLLM V0 with chunked prefill off (prefill_alone 1): `_schedule_default` admits whole prompts while the step's
    // budget (max_num_batched_tokens, the row's 8,192) holds them; the profile of vLLM 0.9 chunks, so the same row
    // without prefill_alone is cut into 8,192-token chunks. With or without AMD's decode target.
    const std::string head =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,prefill_alone\n";
    const auto rows = io::parse_measurements_csv(
        head + "A,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,14,64,8192,,,100,10,output_tokens_per_s,1,tok/s,s,1\n"
               "M,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,2,,,offline,14,64,8192,,,100,10,output_tokens_per_s,1,tok/s,s,0\n",
        "a.csv");
    REQUIRE(rows.size() == 2);
    const scheduler_limits alone = plan::closed_loop_limits(plan::with_own_engine(rows[0])),
                           mixed = plan::closed_loop_limits(plan::with_own_engine(rows[1]));
    CHECK(alone.prefill_alone);
    CHECK(alone.prefill_chunk.value() == 0.0);
    CHECK(alone.max_tokens_per_step == 8192);
    CHECK(mixed.prefill_chunk.value() == 8192.0);
}

TEST_CASE("tables/measurements.csv: the MI355X single-node SGLang DeepSeek-R1 rows sent 50 x concurrency prompts") {
    // docs/mi355x-prompt-count.md: InferenceX's runners/launch_mi355x-amd.sh @2c679ab9 exports NUM_PROMPTS =
    // CONC * 50 for the DeepSeek-R1 models at OSL 1,024, not the README's CONC * 10. By hand: c16 -> 16 x 50 = 800,
    // c4 -> 200, c64 -> 3,200; the disaggregated rows (their own launcher) keep theirs.
    const auto all = io::load_measurements_csv(std::string(LLMCOST_TABLES_DIR) + "/measurements.csv");
    auto find = [&](std::string_view id) {
        const auto it = std::find_if(all.begin(), all.end(), [&](const plan::measurement& x) { return x.id == id; });
        REQUIRE(it != all.end());
        return *it;
    };
    CHECK(find("IMX-MI355X-sglang-DSR1-tp8-8kx1k-c16-ttft").prompts == 800.0);
    CHECK(find("IMX-MI355X-sglang-DSR1-MXFP4-tp8-1kx1k-c4-ttft").prompts == 200.0);
    CHECK(find("IMX-MI355X-sglang-DSR1-MXFP4-tp4-1kx1k-c64-tok").prompts == 3200.0);
    int rows = 0;
    for (const plan::measurement& x : all)
        if (x.id.starts_with("IMX-MI355X-sglang-DSR1-")) {
            CHECK(x.prompts == 50.0 * x.batch);
            ++rows;
        }
    CHECK(rows == 45);
}

TEST_CASE("measurements: quick_reduce int4 is carried onto the row's engine, and refused where it cannot run") {
    // docs/cdna-all-reduce.md §7: the MI355X single-node SGLang rows' launch exports ROCM_QUICK_REDUCE_QUANTIZATION=INT4.
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,prompts,range_ratio,input_tokens,output_tokens,metric,value,unit,source,quick_reduce\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); };
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const auto ok = rows_of(
        "A,check,DeepSeek-V3,MI355X,sglang,0.5.5.post3,8,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int4\n"
        "B,check,DeepSeek-V3,MI355X,sglang,0.5.5.post3,8,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,\n");
    CHECK(ok[0].quick_reduce);
    CHECK_FALSE(ok[1].quick_reduce);
    CHECK(plan::with_own_engine(ok[0]).d.engine.collectives.quick_reduce);
    CHECK_FALSE(plan::with_own_engine(ok[1]).d.engine.collectives.quick_reduce);
    // A level without a measured curve, a TP group QuickReduce does not run on, and a profile without the curve.
    CHECK(test::contains(
        error("A,check,DeepSeek-V3,MI355X,sglang,0.5.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int8\n"),
        "quick_reduce"));
    CHECK(test::contains(
        error("A,check,DeepSeek-V3,MI355X,sglang,0.5.5,1,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int4\n"),
        "2, 4 or 8 ranks"));
    // Each rule names its own value (review 39 N8): the TP group's size for the ranks, the flag for the engine.
    CHECK(test::contains(
        error("A,check,DeepSeek-V3,MI355X,sglang,0.5.5,1,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int4\n"),
        "quick_reduce at tp = 1:"));
    const std::string on_vllm =
        error("A,check,DeepSeek-V3,MI355X,vllm,0.9.0,8,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int4\n");
    CHECK(test::contains(on_vllm, "quick_reduce = 1:"));
    CHECK(test::contains(on_vllm, "engine is 'vllm'"));
    CHECK_FALSE(test::contains(on_vllm, "= 8:"));
    const auto mi325x = rows_of(
        "C,check,DeepSeek-V3,MI325X,sglang,0.5.5,8,1,1,1,fp8,bf16,fixed_batch,,,,,16,800,0.8,7373,922,ttft_s,0.45,s,s,int4\n");
    CHECK(test::contains(test::error_of([&] { return plan::with_own_engine(mi325x[0]); }), "has none"));
}
