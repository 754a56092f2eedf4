// Paged KV in whole blocks (docs/paged-kv-blocks.md): a sequence of n tokens holds ⌈n ÷ B⌉ · B slots
// (PagedAttention, Kwon et al., SOSP 2023, §4.2–4.3), by hand; B = 1 the token count itself; the batch that
// fits falls as B grows; vLLM V0's admission watermark in the simulator; the row's own block size read
// from tables/measurements.csv's column, a bad one named with file:line:column.
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/sim/disaggregated.hpp>
#include <llmcost/sim/simulate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

// Llama-3.1-8B BF16 on one H100 under TensorRT-LLM (a whole-sequence reserve, tokens_per_block 32).
deployment llama8_trtllm(double block) {
    deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::trtllm_hopper};
    d.engine.scheduler.kv_block_tokens = block;
    return d;
}

// 2 (K and V) × 32 layers × 8 KV heads × 128 × 2 B (BF16) = 131,072 B a token.
constexpr double llama8_kv_per_token = 2.0 * 32.0 * 8.0 * 128.0 * 2.0;

}  // namespace

TEST_CASE("kv_block_slots: ⌈n ÷ B⌉ · B, by hand") {
    static_assert(kv_block_slots(tokens(2000.0), tokens(32.0)).value() == 2016.0);  // 63 blocks: 62.5 rounded up
    static_assert(kv_block_slots(tokens(1.0), tokens(32.0)).value() == 32.0);      // one token takes a whole block
    CHECK(kv_block_slots(tokens(1000.0), tokens(32.0)).value() == 1024.0);
    CHECK(kv_block_slots(tokens(32.0), tokens(32.0)).value() == 32.0);  // a full block wastes nothing
    CHECK(kv_block_slots(tokens(33.0), tokens(32.0)).value() == 64.0);
    CHECK(kv_block_slots(tokens(427.0), tokens(16.0)).value() == 432.0);
    // B = 1 (SGLang's page_size 1) and B = 0 (not paged): the tokens themselves, a mean length kept as it is.
    CHECK(kv_block_slots(tokens(2000.0), tokens(1.0)).value() == 2000.0);
    CHECK(kv_block_slots(tokens(1500.5), tokens(1.0)).value() == 1500.5);
    CHECK(kv_block_slots(tokens(1500.5), tokens(0.0)).value() == 1500.5);
    // The expected slots of a running answer: n + (B − 1) ÷ 2; 1,000 + 15 ÷ 2 = 1,007.5 at B = 16.
    static_assert(kv_expected_block_slots(tokens(1000.0), tokens(16.0)).value() == 1007.5);
    CHECK(kv_expected_block_slots(tokens(1000.0), tokens(1.0)).value() == 1000.0);
    CHECK(kv_expected_block_slots(tokens(1000.0), tokens(0.0)).value() == 1000.0);
    // Not paged (0) is one slot a token.
    CHECK(kv_block_size(llama8_trtllm(0.0)).value() == 1.0);
    CHECK(kv_block_size(llama8_trtllm(32.0)).value() == 32.0);
}

TEST_CASE("kv_capacity_whole_blocks: the KV room in whole blocks, by hand, and one sequence of it fits (review s41m S2)") {
    // Llama-3.1-8B BF16 on one H100 under vLLM on Hopper (block_size 16): its pool, 0.9 x 85,045,477,376 (the H100's
    // runtime total, session 52) − 16,060,522,496 − 738,197,504 − 3,758,096,384 = 55,984,113,254.4 B, holds
    // K = 55,984,113,254.4 ÷ 131,072 = 427,124.8875 tokens (432,987.9375 on the spec's 80 GiB, session 41),
    // ⌊K ÷ 16⌋ = 26,695 blocks = 427,120 tokens; K itself stays fractional.
    deployment v{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5, .engine = catalog::vllm_hopper};
    REQUIRE(kv_block_size(v).value() == 16.0);
    REQUIRE(kv_capacity_tokens(v).value() == doctest::Approx(427'124.8875).epsilon(1e-9));
    CHECK(kv_capacity_whole_blocks(v).value() == 427'120.0);
    CHECK(max_sequences(v, tokens(427'120.0)) == 1.0);
    CHECK(max_sequences(v, tokens(427'121.0)) == 0.0);
    // Property: at every block size the room is a whole number of blocks, within one block of K, and a sequence of
    // exactly that room fits while one token more does not.
    for (double block : {1.0, 8.0, 16.0, 32.0, 64.0, 4096.0}) {
        const deployment d = llama8_trtllm(block);
        const double k = kv_capacity_tokens(d).value(), w = kv_capacity_whole_blocks(d).value();
        CHECK(std::fmod(w, block) == 0.0);
        CHECK(w <= k);
        CHECK(w > k - block);
        CHECK(max_sequences(d, tokens(w)) == 1.0);
        CHECK(max_sequences(d, tokens(w + 1.0)) == 0.0);
    }
}

TEST_CASE("kv_block_slots property: at least n, under one block more, and a block that divides another wastes no more") {
    for (double n = 1.0; n <= 3000.0; n += 7.0)
        for (const double b : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0}) {
            const double s = kv_block_slots(tokens(n), tokens(b)).value();
            CHECK(s >= n);
            CHECK(s - n < b);
            CHECK(std::fmod(s, b) == 0.0);
            CHECK(kv_block_slots(tokens(n), tokens(2.0 * b)).value() >= s);  // 2B's blocks are B's blocks, paired
            CHECK(kv_expected_block_slots(tokens(n), tokens(2.0 * b)).value() > kv_expected_block_slots(tokens(n), tokens(b)).value());
        }
}

TEST_CASE("a whole-sequence reserve in 32-token blocks: a 1,000 → 1,000 request holds 2,016 slots, by hand") {
    const request_shape r{.input = 1000_tok, .output = 1000_tok};
    const scheduler_limits whole{};  // no caps: the KV room alone, a whole sequence reserved
    const deployment paged = llama8_trtllm(32.0), unpaged = llama8_trtllm(1.0);
    CHECK(kv_bytes_per_token_per_gpu(paged).value() == llama8_kv_per_token);
    // The pool (the engine's rule; docs/kv-pool.md) is the same at any block size: N slots.
    const double pool = kv_budget_per_gpu(paged, whole.pool_reserve()).value();
    REQUIRE(pool == kv_budget_per_gpu(unpaged, whole.pool_reserve()).value());
    const double slots = pool / llama8_kv_per_token;
    // ⌊N ÷ 2,016⌋ whole sequences instead of ⌊N ÷ 2,000⌋.
    CHECK(admissible_batch(paged, r, whole).batch == std::floor(slots / 2016.0));
    CHECK(admissible_batch(unpaged, r, whole).batch == std::floor(slots / 2000.0));
    CHECK(admissible_batch(paged, r, whole).batch < admissible_batch(unpaged, r, whole).batch);
    CHECK(max_sequences(paged, 2000_tok) == std::floor(slots / 2016.0));
    CHECK(max_sequences(unpaged, 2000_tok) == std::floor(slots / 2000.0));
    // On the KV in use (vLLM, SGLang): the mean context 1,000 + 500 and the last block's mean waste, 31 ÷ 2.
    const scheduler_limits in_use{.reserve_full_sequence = false};
    CHECK(held_kv_slots(paged, r, in_use).value() == 1515.5);
    CHECK(admissible_batch(paged, r, in_use).batch == std::floor(slots / 1515.5));
    // B = 1 (and an engine that does not page) is today's count, exactly.
    CHECK(held_kv_slots(unpaged, r, whole).value() == held_context(r, whole).value());
    CHECK(held_kv_slots(unpaged, r, in_use).value() == held_context(r, in_use).value());
    CHECK(admissible_batch(llama8_trtllm(0.0), r, whole).batch == admissible_batch(unpaged, r, whole).batch);
}

TEST_CASE("the KV-bound batch property: it never grows as the block doubles, whatever the shape and admission") {
    for (const double in : {1.0, 100.0, 1000.0, 5000.0})
        for (const double out : {1.0, 50.0, 1000.0})
            for (const bool whole : {true, false}) {
                const request_shape r{.input = tokens(in), .output = tokens(out)};
                const scheduler_limits l{.reserve_full_sequence = whole};
                double last = admissible_batch(llama8_trtllm(1.0), r, l).batch;
                for (double b = 2.0; b <= 256.0; b *= 2.0) {
                    const double now = admissible_batch(llama8_trtllm(b), r, l).batch;
                    CHECK(now <= last);
                    last = now;
                }
            }
}

TEST_CASE("simulator: whole blocks and vLLM V0's watermark at admission, by hand") {
    // Llama-3.1-8B on one H100 (the reference engine's pool), all requests at t = 0, a whole sequence reserved:
    // the first pass admits ⌊room ÷ slots⌋, room = N · (1 − w), slots = ⌈(I + O) ÷ B⌉ · B; the rest queue.
    auto admitted_at_once = [](double block, double watermark, double n_requests, double in, double out) {
        deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
        d.engine.scheduler.kv_block_tokens = block;
        const std::vector<workload::request> reqs(static_cast<std::size_t>(n_requests),
                                                  {.arrival = seconds(0.0), .input = tokens(in), .output = tokens(out)});
        const sim::result r = sim::simulate(d, reqs, {.limits = {.admission_watermark = watermark}, .keep_requests = true});
        double first = 0;
        for (const sim::request_result& q : r.requests) first += q.queue == 0.0 ? 1.0 : 0.0;
        return first;
    };
    const deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const double slots = kv_budget_per_gpu(d).value() / llama8_kv_per_token;  // N
    const double n = std::floor(slots / 2000.0) + 40.0;                   // more than fit
    CHECK(admitted_at_once(1.0, 0.0, n, 1000.0, 1000.0) == std::floor(slots / 2000.0));
    CHECK(admitted_at_once(32.0, 0.0, n, 1000.0, 1000.0) == std::floor(slots / 2016.0));
    CHECK(admitted_at_once(1.0, 0.01, n, 1000.0, 1000.0) == std::floor(0.99 * slots / 2000.0));
    CHECK(admitted_at_once(32.0, 0.01, n, 1000.0, 1000.0) == std::floor(0.99 * slots / 2016.0));
    CHECK(admitted_at_once(32.0, 0.01, n, 1000.0, 1000.0) < admitted_at_once(1.0, 0.0, n, 1000.0, 1000.0));
    // The watermark is a share in [0, 1), named when not.
    const std::string m = test::error_of([&] { return admitted_at_once(1.0, 1.0, 2.0, 10.0, 10.0); });
    CHECK(test::contains(m, "admission_watermark"));
}

TEST_CASE("simulator: the KV in use (vLLM V0) at B = 16 with the watermark, and the waste given back, by hand") {
    // Llama-3.1-8B on one H100 (the reference engine's pool, N slots), admission on the KV in use: a prompt of I
    // tokens takes I slots and its last block's mean waste (16 − 1) ÷ 2 = 7.5, while the KV in use stays within
    // N · (1 − w). All arrive at t = 0: the first pass admits ⌊N (1 − w) ÷ (I + 7.5)⌋ (kv_per_token cancels).
    const deployment base{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    const double slots = kv_budget_per_gpu(base).value() / llama8_kv_per_token;  // N
    auto run = [&](double block, double watermark, std::vector<workload::request> reqs) {
        deployment d = base;
        d.engine.scheduler.kv_block_tokens = block;
        return sim::simulate(d, reqs,
                             {.limits = {.reserve_full_sequence = false, .admission_watermark = watermark},
                              .keep_requests = true});
    };
    auto wave = [](double n, double at, double in, double out) {
        return std::vector<workload::request>(static_cast<std::size_t>(n),
                                              {.arrival = seconds(at), .input = tokens(in), .output = tokens(out)});
    };
    auto admitted_at_once = [](const sim::result& r, std::size_t from, std::size_t to) {
        double first = 0;
        for (std::size_t i = from; i < to; ++i) first += r.requests[i].queue == 0.0 ? 1.0 : 0.0;
        return first;
    };
    const double in = 1000.0, out = 1500.0;
    const double fit16 = std::floor(0.99 * slots / (in + 7.5));
    const double n = fit16 + 40.0;  // more than fit
    CHECK(admitted_at_once(run(16.0, 0.01, wave(n, 0.0, in, out)), 0, static_cast<std::size_t>(n)) == fit16);
    CHECK(admitted_at_once(run(16.0, 0.0, wave(n, 0.0, in, out)), 0, static_cast<std::size_t>(n)) ==
          std::floor(slots / (in + 7.5)));
    CHECK(admitted_at_once(run(1.0, 0.0, wave(n, 0.0, in, out)), 0, static_cast<std::size_t>(n)) ==
          std::floor(slots / in));
    // The answers (2,500 tokens each at the end) outgrow the pool: sequences are preempted and readmitted. A
    // second wave that arrives long after the first has finished finds the whole pool again — every path that
    // released a sequence gave its waste back — and admits the same ⌊N (1 − w) ÷ (I + 7.5)⌋ at once.
    std::vector<workload::request> both = wave(n, 0.0, in, out);
    const std::vector<workload::request> later = wave(n, 1e6, in, out);
    both.insert(both.end(), later.begin(), later.end());
    const sim::result r = run(16.0, 0.01, both);
    CHECK(r.preemptions > 0.0);
    CHECK(r.completed == 2.0 * n);
    CHECK(r.output_tokens == 2.0 * n * out);
    CHECK(admitted_at_once(r, static_cast<std::size_t>(n), static_cast<std::size_t>(2.0 * n)) == fit16);
}

TEST_CASE("disaggregated simulator: decode admission in whole blocks, by hand") {
    // Llama-3.1-70B FP8 on TP2 H100s (the reference engine), a whole sequence reserved on the decode rank:
    // I + O = 4,097 tokens take ⌈4,097 ÷ B⌉ · B slots, 8,192 at B = 4,096, so the decode rank holds
    // ⌊K ÷ 8,192⌋ at once, not ⌊K ÷ 4,097⌋. With that many clients no request waits for its decode admission;
    // with one more, one does (it waits for a finished answer's KV).
    auto decode_wait = [](double block, double clients) {
        deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}};
        d.m.weights = d.m.kv_cache = d.m.activations = formats::fp8;
        d.engine.scheduler.kv_block_tokens = block;
        d.validate();
        return sim::simulate_disaggregated({.d = d, .workers = 1}, {.d = d, .workers = 1},
                                           {.input = workload::fixed(4096_tok), .output = workload::fixed(1_tok),
                                            .clients = clients, .prompts = clients},
                                           kv_path::scale_up)
            .max_admission_wait;
    };
    deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 2}};
    d.m.weights = d.m.kv_cache = d.m.activations = formats::fp8;
    const double k = kv_capacity_tokens(d).value();
    const double fit_block = std::floor(k / 8192.0), fit_token = std::floor(k / 4097.0);
    REQUIRE(fit_block >= 1.0);
    REQUIRE(fit_block < fit_token);
    CHECK(decode_wait(4096.0, fit_block) == 0.0);
    CHECK(decode_wait(4096.0, fit_block + 1.0) > 0.0);
    CHECK(decode_wait(1.0, fit_block + 1.0) == 0.0);  // in tokens they all fit
}

TEST_CASE("measurements: a row's kv_block_tokens and kv_watermark, read and carried onto its engine") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,kv_block_tokens,kv_watermark\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "k.csv"); };
    const auto rows = rows_of(
        "A,check,Mixtral-8x7B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,offline,0,5000,51200,,,427,144,output_tokens_per_s,1,tok/s,s,32,0.01\n"
        "B,check,Mixtral-8x7B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,offline,0,5000,51200,,,427,144,output_tokens_per_s,1,tok/s,s,,\n");
    REQUIRE(rows.size() == 2);
    REQUIRE(rows[0].kv_block_tokens.has_value());
    CHECK(*rows[0].kv_block_tokens == 32.0);
    CHECK(rows[0].kv_watermark == 0.01);
    CHECK_FALSE(rows[1].kv_block_tokens.has_value());
    CHECK(rows[1].kv_watermark == 0.0);
    CHECK(plan::as_run(plan::with_own_engine(rows[0])).engine.scheduler.kv_block_tokens == 32.0);
    CHECK(plan::as_run(plan::with_own_engine(rows[1])).engine.scheduler.kv_block_tokens ==
          catalog::vllm_cdna3.scheduler.kv_block_tokens);
    CHECK(plan::closed_loop_limits(rows[0]).admission_watermark == 0.01);
    CHECK(plan::closed_loop_limits(rows[1]).admission_watermark == 0.0);
    // Refused with the file, the line, the column and the cell.
    auto error = [&](const std::string& row) { return test::message_of([&] { return rows_of(row); }); };
    const std::string half = error(
        "C,check,Mixtral-8x7B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,offline,0,5000,51200,,,427,144,output_tokens_per_s,1,tok/s,s,2.5,\n");
    CHECK(test::contains(half, "k.csv:2:25"));
    CHECK(test::contains(half, "kv_block_tokens"));
    CHECK(test::contains(half, "2.5"));
    CHECK(test::contains(half, "whole number of tokens per KV block"));
    const std::string zero = error(
        "C,check,Mixtral-8x7B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,offline,0,5000,51200,,,427,144,output_tokens_per_s,1,tok/s,s,0,\n");
    CHECK(test::contains(zero, "k.csv:2:25"));
    const std::string mark = error(
        "C,check,Mixtral-8x7B,MI300X,vllm,0.9,1,1,1,8,fp8,fp8,offline,0,5000,51200,,,427,144,output_tokens_per_s,1,tok/s,s,32,1\n");
    CHECK(test::contains(mark, "k.csv:2:26"));
    CHECK(test::contains(mark, "kv_watermark"));
    // The engine's own rule, refused named.
    CHECK(test::contains(test::error_of([] { return with_kv_block_tokens(catalog::vllm_cdna3, 0.5); }), "kv_block_tokens"));
}

// The row-level KV admission (docs/paged-kv-blocks.md, "Admission on the KV in use"): NVIDIA's MLPerf v5.1 B200
// Llama-2-70B Offline run, FP4 weights, FP8 KV, one GPU a replica, max_batch_size 2,048, max_num_tokens 3,584,
// tokens_per_block 32, I = 222, O = 273, its config's batch_scheduler_policy 'max_util' (TensorRT-LLM MAX_UTILIZATION).
// By hand: a token's FP8 KV is 80 layers × 2 (K, V) × 8 KV heads × 128 × 1 B = 163,840 B; the pool, 0.95 × (H −
// 34,488,324,096 weights (68,976,648,192 parameters at 4 bits) − 645,922,816 activations (2 × 3,584 × 8,192 × 11) −
// 3,758,096,384 runtime), H the B200's runtime total 182,630 MiB = 191,503,646,720 B (session 52; research B's F7 used
// the spec's 193.27 GB: 146.65 GB, ≈ 895,100 tokens), = 0.95 × 152,611,303,424 = 144,980,738,252.8 B, ≈ 884,892 tokens.
//  - reserve (GUARANTEED_NO_EVICT): ⌈(222 + 273) ÷ 32⌉ · 32 = 16 · 32 = 512 slots a sequence, ⌊884,892 ÷ 512⌋ = 1,728;
//  - in_use (MAX_UTILIZATION): 222 + 273 ÷ 2 + (32 − 1) ÷ 2 = 374 slots a sequence, 884,892 ÷ 374 = 2,366.0 (a knife
//    edge: the library's pool, 13 tokens under the hand figure, gives 2,365) fit, but
//    the step's token budget binds first: b (1 + 222 ÷ 273) ≤ 3,584, b = 3,584 · 273 ÷ 495 = 1,976.7 → 1,977 (the
//    nearest sequence, `admissible_batch`), below max_batch_size 2,048.
TEST_CASE("measurements: a row's kv_admission, read by name, sizes its batch on the KV in use (MAX_UTILIZATION)") {
    const std::string header =
        "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
        "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,kv_memory_fraction,kv_admission\n";
    auto rows_of = [&](const std::string& rows) { return io::parse_measurements_csv(header + rows, "a.csv"); };
    const std::string row = "check,Llama-2-70B,B200 (HGX),trtllm,v5.1,1,1,1,8,fp4,fp8,offline,0,2048,3584,,,222,273,"
                            "output_tokens_per_s,1,tok/s,s,0.95,";
    std::vector<plan::measurement> rows = rows_of("U," + row + "in_use\nR," + row + "reserve\nE," + row + "\n");
    REQUIRE(rows.size() == 3);
    for (plan::measurement& x : rows) x = plan::with_own_engine(x);  // TensorRT-LLM on Blackwell: tokens_per_block 32
    CHECK(rows[0].admission == kv_admission::in_use);
    CHECK(rows[1].admission == kv_admission::reserve);
    CHECK(rows[2].admission == kv_admission::engine_default);
    // Every path that sizes the row reads it: the offline closed form and the simulated run's scheduler.
    CHECK_FALSE(plan::offline_limits(rows[0]).reserve_full_sequence);
    CHECK_FALSE(plan::closed_loop_limits(rows[0]).reserve_full_sequence);
    CHECK_FALSE(plan::online_caps(rows[0]).reserve_full_sequence);
    CHECK(plan::closed_loop_limits(rows[1]).reserve_full_sequence);
    CHECK(plan::closed_loop_limits(rows[2]).reserve_full_sequence);  // TensorRT-LLM's default: the whole sequence
    const deployment d = plan::as_run(rows[2]);
    const double pool = kv_capacity_tokens(d, plan::offline_limits(rows[2]).pool_reserve()).value();
    CHECK(pool == doctest::Approx(884'892.0).epsilon(0.002));  // the pool by hand (F7 on the runtime total), to 0.2%
    const batch_limit whole = max_batch(d, rows[2].r, plan::offline_limits(rows[2]));
    CHECK(whole.batch == std::floor(pool / 512.0));
    CHECK(whole.batch == 1728.0);
    CHECK(whole.limited_by == "KV capacity");
    CHECK(max_batch(d, rows[1].r, plan::offline_limits(rows[1])).batch == 1728.0);  // `reserve` is the default here
    const batch_limit in_use = max_batch(d, rows[0].r, plan::offline_limits(rows[0]));
    CHECK(std::floor(pool / 374.0) >= 2365.0);  // the KV in use leaves room for more than the token budget runs
    CHECK(std::floor(pool / 374.0) <= 2366.0);  // the knife edge above: either side of 2,366
    CHECK(in_use.batch == 1977.0);
    CHECK(in_use.limited_by == "max tokens per step");
    // Without the token budget (the pool still sized for the row's 3,584-token step) max_batch_size binds, and
    // without it too the KV in use: ⌊pool ÷ 374⌋.
    scheduler_limits no_budget = plan::offline_limits(rows[0]);
    no_budget.reserve = no_budget.pool_reserve();
    no_budget.max_tokens_per_step = 0;
    CHECK(max_batch(d, rows[0].r, no_budget).batch == 2048.0);
    no_budget.max_batch = 0;
    CHECK(max_batch(d, rows[0].r, no_budget).batch == std::floor(pool / 374.0));
    // The library's rule: the engine's default unchanged, else the word's.
    const scheduler_limits trt = with_engine_defaults({}, catalog::trtllm_hopper), vllm = with_engine_defaults({}, catalog::vllm_hopper);
    CHECK(with_kv_admission(trt, kv_admission::engine_default).reserve_full_sequence);
    CHECK_FALSE(with_kv_admission(trt, kv_admission::in_use).reserve_full_sequence);
    CHECK_FALSE(with_kv_admission(vllm, kv_admission::engine_default).reserve_full_sequence);
    CHECK(with_kv_admission(vllm, kv_admission::reserve).reserve_full_sequence);
    // A word that names no policy is refused with the file, the line, the column, the cell and the rule.
    const std::string bad = test::message_of([&] { return rows_of("X," + row + "max_util\n"); });
    CHECK(test::contains(bad, "a.csv:2:26"));
    CHECK(test::contains(bad, "kv_admission"));
    CHECK(test::contains(bad, "max_util"));
    CHECK(test::contains(bad, "reserve or in_use"));
    const std::string word = test::error_of([] { return require_kv_admission("estimate", "--kv-admission", "no_evict"); });
    CHECK(test::contains(word, "--kv-admission"));
    CHECK(test::contains(word, "no_evict"));
    CHECK(test::contains(word, "GUARANTEED_NO_EVICT"));
}
