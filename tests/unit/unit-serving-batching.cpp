// Static vs continuous batching and my neighbours (serving/batching.hpp, seed S4, S5): slot
// utilisation over explicit lists and over distributions, worked by hand; throughput and the
// neighbour effect at a deployment checked by relations and properties.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/batching.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
using test::error_of;

/// Deterministic pseudo-random lengths in [1, 1000] (a 64-bit LCG, Knuth's MMIX constants).
std::vector<tokens_t> lcg_lengths(std::size_t n, std::uint64_t seed) {
    std::vector<tokens_t> out;
    for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        out.push_back(tokens(static_cast<double>(1 + (seed >> 33) % 1000)));
    }
    return out;
}

const deployment dash{.m = catalog::seed_dashboard_model, .hw = catalog::seed_dashboard_gpu};
}  // namespace

TEST_CASE("batching S4: static and continuous over an explicit list, by hand") {
    const std::array lengths{3_tok, 5_tok, 8_tok, 2_tok, 7_tok};
    // One static batch of all five: mean 25/5 = 5, longest 8 → 5/8.
    CHECK(batching::static_batch_occupancy(lengths) == doctest::Approx(0.625));
    // Static batches of 2 in arrival order: {3,5} → 5, {8,2} → 8, {7} → 7 steps: 20 steps;
    // a short last batch still holds both slots: 25 / (2 · 20) = 0.625.
    CHECK(batching::static_steps(lengths, 2) == 20.0);
    CHECK(batching::static_occupancy(lengths, 2) == doctest::Approx(0.625));
    // Continuous, 2 slots refilled at every step boundary: slot A 3, slot B 5; A frees at 3 → 8
    // (ends 11); B frees at 5 → 2 (ends 7); B frees at 7 → 7 (ends 14). Makespan 14: 25/28.
    CHECK(batching::continuous_steps(lengths, 2) == 14.0);
    CHECK(batching::continuous_occupancy(lengths, 2) == doctest::Approx(25.0 / 28.0));
    SUBCASE("one slot: both are a queue served one by one") {
        CHECK(batching::static_steps(lengths, 1) == 25.0);
        CHECK(batching::continuous_steps(lengths, 1) == 25.0);
        CHECK(batching::continuous_occupancy(lengths, 1) == 1.0);
    }
    SUBCASE("equal lengths: static batching wastes nothing") {
        const std::array same{40_tok, 40_tok, 40_tok, 40_tok};
        CHECK(batching::static_batch_occupancy(same) == 1.0);
        CHECK(batching::static_occupancy(same, 4) == 1.0);
        CHECK(batching::static_occupancy(same, 2) == 1.0);
        CHECK(batching::continuous_occupancy(same, 4) == 1.0);
    }
    SUBCASE("bad input is refused") {
        const std::array<tokens_t, 0> none{};
        CHECK(test::contains(error_of([&] { return batching::static_batch_occupancy(none); }), "at least one output length"));
        const std::array zero{3_tok, 0_tok};
        CHECK(test::contains(error_of([&] { return batching::static_batch_occupancy(zero); }), "lengths (tokens) = 0"));
        CHECK(test::contains(error_of([&] { return batching::continuous_steps(lengths, 0); }), "batch = 0"));
    }
}

TEST_CASE("batching S4 properties: utilisation <= 1, continuous >= static") {
    for (std::uint64_t seed : {1ULL, 7ULL, 42ULL, 2024ULL}) {
        const std::vector<tokens_t> l = lcg_lengths(200, seed);
        for (int b : {1, 2, 8, 32, 64}) {
            const double s = batching::static_occupancy(l, b);
            const double c = batching::continuous_occupancy(l, b);
            CHECK(s > 0.0);
            CHECK(s <= 1.0);
            CHECK(c <= 1.0 + 1e-15);
            CHECK(c >= s);
            // The continuous makespan is at least the perfectly balanced one, Σ len / B.
            double sum = 0.0;
            for (const tokens_t& x : l) sum += x.value();
            CHECK(batching::continuous_steps(l, b) >= sum / b);
        }
    }
}

TEST_CASE("batching S4: expected static utilisation for a distribution, by hand") {
    SUBCASE("uniform whole lengths") {
        // {1, 2}, B = 2: P(max = 1) = 1/4 → E[max] = 1/4 + 2 · 3/4 = 1.75; E[len] = 1.5 → 6/7.
        const auto u12 = batching::length_distribution::uniform(1_tok, 2_tok);
        CHECK(u12.expected_longest(2).value() == doctest::Approx(1.75));
        CHECK(batching::static_expected_occupancy(u12, 2) == doctest::Approx(6.0 / 7.0));
        // {1, 2, 3}, B = 2: P(max ≤ k) = (k/3)² → P(max = 1, 2, 3) = 1/9, 3/9, 5/9 → E = 22/9.
        const auto u13 = batching::length_distribution::uniform(1_tok, 3_tok);
        CHECK(u13.expected_longest(2).value() == doctest::Approx(22.0 / 9.0));
        // E[len²] = (1 + 4 + 9)/3 = 14/3.
        CHECK(u13.second_moment() == doctest::Approx(14.0 / 3.0));
        // A single length: utilisation 1.
        CHECK(batching::static_expected_occupancy(batching::length_distribution::uniform(500_tok, 500_tok), 32) == 1.0);
        // {1 … 999} at B = 32: close to the continuous uniform's a + (b − a)·B/(B + 1) = 968.8.
        const auto wide = batching::length_distribution::uniform(1_tok, 999_tok);
        CHECK(wide.expected_longest(32).value() == doctest::Approx(1.0 + 998.0 * 32.0 / 33.0).epsilon(1e-3));
    }
    SUBCASE("exponential: E[max of B] = mean · H_B") {
        const auto e = batching::length_distribution::exponential(500_tok);
        CHECK(batching::static_expected_occupancy(e, 1) == 1.0);
        // H₂ = 1.5 → E[max] = 750, U = 2/3.
        CHECK(e.expected_longest(2).value() == doctest::Approx(750.0));
        CHECK(batching::static_expected_occupancy(e, 2) == doctest::Approx(2.0 / 3.0));
        // H₃₂ ≈ ln 32 + γ + 1/64 − 1/(12 · 32²) = 3.4657359 + 0.5772157 + 0.015625 − 0.0000814
        // = 4.0584952 → U ≈ 0.24640: a static batch of 32 uses a quarter of its slot-steps.
        CHECK(batching::static_expected_occupancy(e, 32) == doctest::Approx(1.0 / 4.0584952).epsilon(1e-6));
        CHECK(e.second_moment() == doctest::Approx(2.0 * 500.0 * 500.0));
    }
    SUBCASE("geometric") {
        // Mean 1: every answer is one token.
        CHECK(batching::length_distribution::geometric(1_tok).expected_longest(16).value() == doctest::Approx(1.0));
        // Mean 2 (p = 1/2), B = 2: Σ_{k≥0} (1 − (1 − 2^−k)²) = Σ (2·2^−k − 4^−k) = 4 − 4/3 = 8/3.
        const auto g2 = batching::length_distribution::geometric(2_tok);
        CHECK(g2.expected_longest(2).value() == doctest::Approx(8.0 / 3.0));
        // E[len²] = (2 − p)/p² = 1.5/0.25 = 6 (variance 2 + mean² 4).
        CHECK(g2.second_moment() == doctest::Approx(6.0));
        // Long answers: geometric → exponential (within 0.1 %).
        const auto g = batching::length_distribution::geometric(500_tok);
        CHECK(batching::static_expected_occupancy(g, 32) ==
              doctest::Approx(batching::static_expected_occupancy(batching::length_distribution::exponential(500_tok), 32)).epsilon(1e-3));
    }
    SUBCASE("a bigger static batch never uses its slots better") {
        for (const auto& dist : {batching::length_distribution::uniform(10_tok, 1000_tok),
                                 batching::length_distribution::geometric(300_tok),
                                 batching::length_distribution::exponential(300_tok)}) {
            double prev = 1.0;
            for (int b : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
                const double u = batching::static_expected_occupancy(dist, b);
                CHECK(u <= prev + 1e-12);
                CHECK(u > 0.0);
                prev = u;
            }
        }
    }
    SUBCASE("continuous: 1 with refill at every step; g steps between refills idle (g − 1)/2") {
        const auto e = batching::length_distribution::exponential(500_tok);
        CHECK(batching::continuous_expected_occupancy(e) == 1.0);
        // g = 3: 500 / (500 + 1).
        CHECK(batching::continuous_expected_occupancy(e, 3) == doctest::Approx(500.0 / 501.0));
        CHECK(batching::continuous_expected_occupancy(e, 3) >= batching::static_expected_occupancy(e, 32));
        CHECK(test::contains(error_of([&] { return batching::continuous_expected_occupancy(e, 0); }),
                             "refill_every_steps = 0"));
    }
    SUBCASE("validation") {
        auto bad = batching::length_distribution::uniform(10_tok, 5_tok);
        CHECK(test::contains(test::validation_message(bad), "longest (tokens) = 5"));
        bad = batching::length_distribution::uniform(2.5_tok, 5_tok);
        CHECK(test::contains(test::validation_message(bad), "shortest (tokens) = 2.5"));
        CHECK(test::contains(test::validation_message(batching::length_distribution::geometric(0.5_tok)), "mean (tokens) = 0.5"));
        CHECK(test::contains(error_of([] { return batching::length_distribution::exponential(0_tok).expected_longest(2); }),
                             "mean (tokens) = 0"));
    }
}

TEST_CASE("batching S4 S5: throughput at a deployment") {
    SUBCASE("throughput = tokens per pass × passes per second") {
        for (double b : {1.0, 8.0, 32.0}) {
            const seconds_t pass = decode_pass(dash, b, 450_tok).time();
            CHECK(batching::throughput(dash, b, 450_tok, 0.5).value() == doctest::Approx(b * 0.5 / pass.value()));
        }
    }
    SUBCASE("continuous beats static for the same slots") {
        const batching::length_distribution g = batching::length_distribution::geometric(500_tok);
        for (double b : {4.0, 8.0, 32.0, 64.0}) {
            const batching::comparison c = batching::static_vs_continuous(dash, b, 200_tok, g);
            CHECK(c.continuous_utilisation >= c.static_utilisation);
            CHECK(c.continuous_throughput > c.static_throughput);
            CHECK(c.speedup() > 1.0);
            // The static pass is priced at 200 + E[max]/2, the continuous one at 200 + E[len²]/(2E[len]).
            const double x_static = 200.0 + g.expected_longest(static_cast<int>(b)).value() / 2.0;
            CHECK(c.static_throughput.value() ==
                  doctest::Approx(b * c.static_utilisation / decode_pass(dash, b, tokens(x_static)).time().value()));
        }
    }
}

TEST_CASE("batching S5: my time per token depends on my neighbours") {
    for (const deployment& d : {dash, deployment{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}},
                                deployment{.m = catalog::llama_3_1_8b, .hw = catalog::b200_hgx}}) {
        const batching::neighbour_effect alone = batching::neighbours(d, 1, 1000_tok);
        CHECK(alone.slowdown == 1.0);
        double prev_time = 0.0, prev_rate = 0.0;
        for (double b : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0}) {
            const batching::neighbour_effect e = batching::neighbours(d, b, 1000_tok);
            // More neighbours never make my tokens faster …
            CHECK(e.my_time_per_token.value() >= prev_time);
            CHECK(e.slowdown >= 1.0);
            // … while the instance as a whole never makes fewer (S5's trade).
            CHECK(e.instance_rate.value() >= prev_rate * (1.0 - 1e-12));
            // One token of mine per pass: rate × time per token = 1; instance = b × mine.
            CHECK(e.my_rate.value() * e.my_time_per_token.value() == doctest::Approx(1.0));
            CHECK(e.instance_rate.value() == doctest::Approx(b * e.my_rate.value()));
            CHECK(e.my_time_per_token * 1_tok == decode_pass(d, b, 1000_tok).time());
            prev_time = e.my_time_per_token.value();
            prev_rate = e.instance_rate.value();
        }
    }
}

// S5 for MoE models. Expert GEMMs see tokens·k/E rows, fewer than one at small batch; the pass
// model pads them to a 64-row tile, and once made the time of a GEMM fall as rows were added
// (Mixtral-8x7B TP2 on H200: ≈ 24 ms per pass at batch 1, ≈ 14 ms at batch 16). This guards it.
TEST_CASE("batching S5: more neighbours never make my tokens faster, MoE") {
    const deployment d{.m = catalog::mixtral_8x7b, .hw = catalog::h200_sxm, .layout = {.tp = 2}};
    double prev = 0.0;
    for (double b : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) {
        const double t = batching::neighbours(d, b, 1000_tok).my_time_per_token.value();
        CHECK(t >= prev);
        prev = t;
    }
}
