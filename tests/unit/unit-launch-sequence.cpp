// The host's time per kernel per sequence in the step (engine_overheads::launch_sequence, tables/engines.csv
// launch_sequence_us): an engine run without CUDA graphs and no overlap scheduler whose per-iteration host
// work walks every scheduled sequence (TensorRT-LLM's GPTAttentionPlugin::enqueueImpl loops over the
// batch's sequences on the host in every attention layer; docs/trtllm-v014.md, session 17 part D).

#include <llmcost/catalog.hpp>
#include <llmcost/io/engines_csv.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <limits>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

/// The TensorRT-LLM 0.9-0.16 profile (graphs off, no overlap scheduler) at `per_sequence` a kernel a sequence.
engine_profile per_sequence(seconds_t per_sequence) {
    engine_profile e = catalog::trtllm_hopper_trt_engine;
    e.overheads.launch_sequence = per_sequence;
    return e;
}

}  // namespace

TEST_CASE("engine host time per kernel per sequence: t_overhead += kernels · h_seq · (ds + ps), by hand") {
    // Llama-3.1-8B: 10 · 32 + 3 = 323 kernels a pass. h_seq = 0.2 µs: a decode step of 16 sequences adds
    // 323 × 0.2 µs × 16 = 1.0336 ms; a step of 3 decoding sequences and 1 prompt adds 323 × 0.2 µs × 4
    // = 0.2584 ms. Nothing else in the step moves.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = per_sequence(seconds(0.0));
    REQUIRE_FALSE(ref.engine.overheads.cuda_graphs);
    deployment d = ref;
    d.engine = per_sequence(microseconds(0.2));
    CHECK(detail::kernels_per_pass(d.m) == 323.0);
    const step_shape decode{.decode_sequences = 16, .decode_context = 1500_tok};
    const step_shape prompt{.decode_sequences = 3, .decode_context = 1500_tok, .prefill_sequences = 1,
                            .prefill_tokens = 1000_tok};
    CHECK(step_pass(d, decode).overhead_time.value() ==
          doctest::Approx(step_pass(ref, decode).overhead_time.value() + 1.0336e-3).epsilon(1e-12));
    CHECK(step_pass(d, prompt).overhead_time.value() ==
          doctest::Approx(step_pass(ref, prompt).overhead_time.value() + 0.2584e-3).epsilon(1e-12));
    CHECK(step_pass(d, decode).matmul_compute_time == step_pass(ref, decode).matmul_compute_time);
    CHECK(step_pass(d, decode).time().value() ==
          doctest::Approx(step_pass(ref, decode).time().value() + 1.0336e-3).epsilon(1e-12));
}

TEST_CASE("engine host time per kernel per sequence: 0 changes nothing; CUDA graphs on, not read") {
    // Llama-3.1-8B on H100 with the 0.9-0.16 profile's 3.568 µs launch cost (session 18's refit): at h_seq = 0
    // the step's overhead is kernels × (4 µs + 3.568 µs) = 323 × 7.568 µs = 2.444464 ms whatever the batch;
    // the catalog's 0.07685 µs adds 323 × 0.07685 µs × 32 = 0.7943216 ms at 32 sequences.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
    ref.engine = catalog::trtllm_hopper_trt_engine;
    deployment zero = ref;
    zero.engine = per_sequence(seconds(0.0));
    const step_shape s{.decode_sequences = 32, .decode_context = 600_tok};
    CHECK(step_pass(zero, s).overhead_time.value() == doctest::Approx(2.444464e-3).epsilon(1e-12));
    CHECK(step_pass(zero, step_shape{.decode_sequences = 1, .decode_context = 600_tok}).overhead_time ==
          step_pass(zero, s).overhead_time);
    CHECK(step_pass(ref, s).overhead_time.value() == doctest::Approx(2.444464e-3 + 0.7943216e-3).epsilon(1e-12));
    deployment graphs = ref, graphs_ref = ref;
    graphs.engine = per_sequence(microseconds(0.5));
    graphs.engine.overheads.cuda_graphs = true;
    graphs_ref.engine.overheads.cuda_graphs = true;
    CHECK(step_pass(graphs, s).time() == step_pass(graphs_ref, s).time());
    // The catalog's other profiles carry none.
    CHECK(catalog::trtllm_hopper.overheads.launch_sequence.value() == 0.0);
    CHECK(catalog::trtllm_blackwell.overheads.launch_sequence.value() == 0.0);
    CHECK(catalog::vllm_hopper.overheads.launch_sequence.value() == 0.0);
}

TEST_CASE("engine host time per kernel per sequence: property, monotone in the batch and in h_seq") {
    // Llama-3.1-8B on H200, h_seq = 0.3 µs: the gap to the step without it is 323 × 0.3 µs × b, so it
    // grows with the batch; at a fixed batch the step grows with h_seq.
    deployment ref{.m = catalog::llama_3_1_8b, .hw = catalog::h200_sxm};
    ref.engine = per_sequence(seconds(0.0));
    deployment d = ref;
    d.engine = per_sequence(microseconds(0.3));
    double last_gap = -1.0;
    for (double b : {1.0, 2.0, 8.0, 32.0, 128.0}) {
        const step_shape s{.decode_sequences = b, .decode_context = 1000_tok};
        const double gap = step_pass(d, s).time().value() - step_pass(ref, s).time().value();
        CHECK(gap == doctest::Approx(323 * 0.3e-6 * b).epsilon(1e-9));
        CHECK(gap > last_gap);
        last_gap = gap;
    }
    double previous = 0.0;
    for (double us : {0.0, 0.1, 0.2, 1.0, 5.0}) {
        d.engine = per_sequence(microseconds(us));
        const double t = serve_at_batch(d, request_shape{.input = 467_tok, .output = 256_tok}, 16.0).step_time.value();
        CHECK(t >= previous);
        previous = t;
    }
}

TEST_CASE("engine host time per kernel per sequence: refusals name the field, the value and the rule") {
    engine_profile e = catalog::trtllm_hopper_trt_engine;
    e.overheads.launch_sequence = seconds(-1e-7);
    CHECK(test::contains(test::validation_message(e),
                         "overheads.launch_sequence (s) = -1e-07: a per-kernel host time per sequence must be in [0, 10 µs)"));
    e.overheads.launch_sequence = seconds(std::numeric_limits<double>::quiet_NaN());
    CHECK(test::contains(test::validation_message(e), "overheads.launch_sequence (s) = nan"));
    e.overheads.launch_sequence = microseconds(20.0);
    CHECK(test::contains(test::validation_message(e), "overheads.launch_sequence (s) = 2e-05"));
    e.overheads.launch_sequence = microseconds(0.2);
    CHECK(test::validation_message(e).empty());
}

TEST_CASE("engine host time per kernel per sequence: tables/engines.csv's optional launch_sequence_us") {
    // A table written before the column loads with 0 (none); the column in µs; a bad cell names the
    // column, the file and the line.
    const std::string old_header = test::engine_table_columns() + ",source\n";
    const std::string new_header = test::engine_table_columns() + ",launch_sequence_us,source\n";
    const std::string base = "Mine,trtllm,hopper,1,1,1,0,1,1,1,1,1,1,0,5,0,0,0,0,0,0,0,2048,8192,0,0,0.9,32,0,0,0,0,0,1,0,0";
    const std::vector<engine_profile> old_table = io::parse_engines_csv(old_header + base + ",my runs\n", "old.csv");
    REQUIRE(old_table.size() == 1);
    CHECK(old_table[0].overheads.launch_sequence.value() == 0.0);
    auto row = [&](const std::string& v) { return base + "," + v + ",my runs\n"; };
    const std::vector<engine_profile> mine = io::parse_engines_csv(new_header + row("0.25"), "mine.csv");
    REQUIRE(mine.size() == 1);
    CHECK(mine[0].overheads.launch_sequence.value() == doctest::Approx(0.25e-6).epsilon(1e-15));
    for (const char* bad : {"-0.1", "50", "nan"}) {
        const std::string m = test::message_of([&] { return io::parse_engines_csv(new_header + row(bad), "mine.csv"); });
        CHECK(test::contains(m, "mine.csv:2"));
        CHECK(test::contains(m, "launch_sequence_us"));
    }
}

TEST_CASE("engine host time per kernel per sequence: a calibrate parameter of its own") {
    CHECK(plan::parameter_named("launch_sequence") == plan::parameter::launch_sequence);
    CHECK(plan::unit_of(plan::parameter::launch_sequence) == "s");
    CHECK_FALSE(plan::is_fraction(plan::parameter::launch_sequence));
    plan::efficiency_parameters p;
    plan::value_of(p, plan::parameter::launch_sequence) = 0.2e-6;
    CHECK(p.launch_sequence == 0.2e-6);
}
