// A row whose harness reports answers in other tokens than its engine's (session 47; docs/krai-token-unit.md):
// O = ρ · O_eng + k (`plan::output_count`: the measurements' `output_token_ratio` ρ and `output_token_offset` k).
// The row is priced on the engine's answers, O_eng = (O − k) ÷ ρ (`plan::in_engine_tokens`), and its figure reported
// as the harness counts (`plan::in_reported_tokens`): tok/s × O ÷ O_eng, TPOT × (O_eng − 1) ÷ (O − 1), times unchanged.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/measurements_csv.hpp>

#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

const std::string header =
    "id,role,model,hardware,engine,engine_version,tp,pp,ep,dp,weights,kv,scenario,requests,max_batch,max_tokens,"
    "rate_per_s,batch,input_tokens,output_tokens,metric,value,unit,source,output_token_ratio,output_token_offset\n";

std::vector<plan::measurement> parse(const std::string& rows) { return io::parse_measurements_csv(header + rows, "m.csv"); }

/// One row of each priced scenario, answers of 301 reported tokens, with the two cells as given.
std::string rows_with(const std::string& ratio, const std::string& offset) {
    const std::string tail = "," + ratio + "," + offset + "\n";
    return "OFF,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,fp8,fp8,offline,3000,256,,,,128,301,output_tokens_per_s,1000,tok/s,s" +
           tail + "TOK,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,fp8,fp8,online,,,,2,,467,301,output_tokens_per_s,500,tok/s,s" +
           tail + "TPOT,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,fp8,fp8,online,,,,2,,467,301,tpot_s,8,ms,s" + tail +
           "TTFT,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,fp8,fp8,online,,,,2,,467,301,ttft_s,40,ms,s" + tail +
           "FB,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,fp8,fp8,fixed_batch,,,,,16,1000,301,tpot_s,9,ms,s" + tail;
}

}  // namespace

TEST_CASE("output count: O_eng and the reported tok/s and TPOT, by hand") {
    // ρ = 1.25, k = 1, O = 301: O_eng = (301 − 1) ÷ 1.25 = 240.
    const plan::output_count c{.ratio = 1.25, .offset = 1.0};
    CHECK(plan::engine_output_tokens(301_tok, c).value() == doctest::Approx(240.0).epsilon(1e-12));
    // 1,000 engine tok/s: the same 1,000 ÷ 240 requests a second, each counted 301: 1,000 × 301 ÷ 240 = 1,254.1667.
    CHECK(plan::in_reported_tokens(plan::metric::output_tokens_per_s, 301_tok, c, 1000.0) ==
          doctest::Approx(1254.1667).epsilon(1e-7));
    // TPOT 10 ms over 239 engine gaps: the same decode time over 300 reported gaps, 10 × 239 ÷ 300 = 7.9667 ms.
    CHECK(plan::in_reported_tokens(plan::metric::tpot_s, 301_tok, c, 0.010) == doctest::Approx(7.9667e-3).epsilon(1e-5));
    // TTFT and a batch's latency are times of the same events: unchanged.
    CHECK(plan::in_reported_tokens(plan::metric::ttft_s, 301_tok, c, 0.25) == 0.25);
    CHECK(plan::in_reported_tokens(plan::metric::batch_latency_s, 301_tok, c, 3.5) == 3.5);
    // The engine's own count (ρ 1, k 0) leaves every figure as it is, even a one-token answer's TPOT.
    CHECK(plan::in_reported_tokens(plan::metric::tpot_s, 1_tok, {}, 0.010) == 0.010);
    CHECK(plan::engine_output_tokens(301_tok, {}).value() == 301.0);
}

TEST_CASE("output count: predict prices the engine's answers and reports in the row's tokens, every scenario") {
    const auto rows = parse(rows_with("1.25", "1"));
    REQUIRE(rows.size() == 5);
    for (const plan::measurement& x : rows) {
        CAPTURE(x.id);
        CHECK(x.answer_count.ratio == 1.25);
        CHECK(x.answer_count.offset == 1.0);
        CHECK(x.r.output.value() == 301.0);  // the row keeps its reported O
        // The engine's row by hand: the same row with answers of 240 tokens and no reported count.
        plan::measurement e = x;
        e.r.output = 240_tok;
        e.answer_count = {};
        const plan::measurement shaped = plan::in_engine_tokens(x);
        CHECK(shaped.r.output.value() == doctest::Approx(240.0).epsilon(1e-12));
        CHECK(shaped.answer_count.engine_own());
        const double engine = plan::predict(e);
        const double expected = x.what == plan::metric::output_tokens_per_s ? engine * 301.0 / 240.0
                                : x.what == plan::metric::tpot_s           ? engine * 239.0 / 300.0
                                                                           : engine;
        CHECK(plan::predict(x) == doctest::Approx(expected).epsilon(1e-9));
        plan::measurement reported = x;
        reported.answer_count = {};
        if (x.id == "TOK") {  // an online row's tok/s is its requests' rate in any unit: 2 a second × 301 reported
            CHECK(plan::predict(x) == doctest::Approx(602.0).epsilon(1e-9));
            CHECK(plan::predict(reported) == doctest::Approx(602.0).epsilon(1e-9));
        } else {  // every other row moves off the row priced at its reported O
            CHECK(plan::predict(x) != doctest::Approx(plan::predict(reported)).epsilon(1e-4));
        }
    }
    // An answer spread scales by 1 / ρ (k is the same on every answer).
    plan::measurement s = rows[1];
    s.r.output_spread = 125_tok;
    CHECK(plan::in_engine_tokens(s).r.output_spread.value() == doctest::Approx(100.0).epsilon(1e-12));
}

TEST_CASE("output count: a row without the columns is priced exactly as before") {
    // The same rows with no such columns, with the cells empty, and with ρ 1, k 0: the same figures, bit for bit,
    // as the engine-token pricing itself.
    const std::string old_header = header.substr(0, header.find(",output_token_ratio")) + "\n";
    std::string old_rows;
    for (std::string line = rows_with("", ""), rest; !line.empty(); line = rest) {
        const std::size_t end = line.find('\n');
        rest = line.substr(end + 1);
        old_rows += line.substr(0, end - 2) + "\n";  // drop the two empty cells
    }
    const auto old = io::parse_measurements_csv(old_header + old_rows, "old.csv");
    const auto empty = parse(rows_with("", ""));
    const auto unit = parse(rows_with("1", "0"));
    REQUIRE(old.size() == 5);
    REQUIRE(empty.size() == 5);
    REQUIRE(unit.size() == 5);
    for (std::size_t i = 0; i < old.size(); ++i) {
        CAPTURE(old[i].id);
        CHECK(old[i].answer_count.engine_own());
        CHECK(empty[i].answer_count.engine_own());
        CHECK(unit[i].answer_count.engine_own());
        const double before = plan::predict_engine_tokens(old[i]);
        CHECK(plan::predict(old[i]) == before);
        CHECK(plan::predict(empty[i]) == before);
        CHECK(plan::predict(unit[i]) == before);
    }
}

TEST_CASE("output count: bad cells are refused naming file, line, column, value and rule") {
    auto error = [](const std::string& ratio, const std::string& offset) {
        return test::message_of([&] {
            return parse("A,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,online,,,,2,,467,301,tpot_s,8,ms,s," + ratio + "," +
                         offset + "\n");
        });
    };
    const std::string rule = std::string(plan::output_count_rule);
    CHECK(test::contains(error("0", "1"), "m.csv:2:25: key \"output_token_ratio\" = \"0\": " + rule));
    CHECK(test::contains(error("-1.25", "1"), "m.csv:2:25: key \"output_token_ratio\" = \"-1.25\": " + rule));
    CHECK(test::contains(error("inf", "1"), "key \"output_token_ratio\" = \"inf\": " + rule));
    CHECK(test::contains(error("abc", "1"), "key \"output_token_ratio\" = \"abc\": expected a number"));
    CHECK(test::contains(error("1.25", "-1"), "m.csv:2:26: key \"output_token_offset\" = \"-1\": " + rule));
    CHECK(test::contains(error("1.25", "301"), "m.csv:2:26: key \"output_token_offset\" = \"301\": " + rule));  // k < O
    // (301 − 300) ÷ 1.25 = 0.8 engine tokens: an answer has at least one. 301 ÷ 1.25 = 240.8 alone: the offset takes it
    // below one, so the refusal names the offset's cell.
    CHECK(test::contains(error("1.25", "300"), "m.csv:2:26: key \"output_token_offset\" = \"300\": " + rule));
    // 301 ÷ 400 = 0.7525 with no offset: the ratio is the cause, and named.
    CHECK(test::contains(error("400", ""), "m.csv:2:25: key \"output_token_ratio\" = \"400\": " + rule));
    // (301 − 1) ÷ 400 = 0.75, and 301 ÷ 400 = 0.7525 alone is short too: the ratio again, not the offset.
    CHECK(test::contains(error("400", "1"), "m.csv:2:25: key \"output_token_ratio\" = \"400\": " + rule));
    // (301 − 299) ÷ 1.25 = 1.6: accepted
    CHECK(parse("A,check,Llama-3.1-8B,H100 SXM5,vllm,0.9,1,1,1,1,,,online,,,,2,,467,301,tpot_s,8,ms,s,1.25,299\n").size() == 1);
    // A row built in code is held to the same rule by validate.
    plan::measurement x = parse(rows_with("1.25", "1"))[2];
    x.answer_count.ratio = 0.0;
    CHECK(test::contains(test::validation_message(x), "output_token_ratio"));
    x.answer_count = {.ratio = 1.25, .offset = 301.0};
    CHECK(test::contains(test::validation_message(x), "output_token_offset"));
    // The short answer's cause named with its value, as the loader names its cell: the offset (301 ÷ 1.25 alone fits)...
    x.answer_count = {.ratio = 1.25, .offset = 300.0};
    CHECK(test::contains(test::validation_message(x), "output_token_offset = 300: " + rule));
    // ...or the ratio where O ÷ ρ alone is below one token.
    x.answer_count = {.ratio = 400.0, .offset = 1.0};
    CHECK(test::contains(test::validation_message(x), "output_token_ratio = 400: " + rule));
    x.answer_count = {.ratio = 1.25, .offset = 1.0};
    CHECK(test::validation_message(x).empty());
}
