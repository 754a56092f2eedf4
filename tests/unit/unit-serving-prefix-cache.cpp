// Prefix caching (serving/prefix_cache.hpp, seed S6, S33): prefill saved by a cached prefix,
// what a cached input token costs next to a computed one, and routing to the node that holds a
// conversation's KV. Descriptor-only figures are worked by hand; pass times only by relation.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/prefix_cache.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <string>

using namespace llmcost;
using namespace llmcost::literals;

namespace {
using test::error_of;

const deployment dash{.m = catalog::seed_dashboard_model, .hw = catalog::seed_dashboard_gpu};
const deployment llama70_h100{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
}  // namespace

TEST_CASE("prefix cache S6: prefill with a cached fraction of the prompt") {
    SUBCASE("nothing cached: nothing saved") {
        const prefix_cache::prefill_comparison p = prefix_cache::prefill_times(dash, 2000_tok, 0.0);
        CHECK(p.cached == p.uncached);
        CHECK(p.saving() == 0_s);
    }
    SUBCASE("the cached prompt is prefill_pass with `cached` tokens") {
        // h = 0.75 of 2,000: 500 computed after 1,500 cached.
        const prefix_cache::prefill_comparison p = prefix_cache::prefill_times(dash, 2000_tok, 0.75);
        CHECK(p.cached == prefill_pass(dash, 1, 500_tok, 1500_tok).time());
        CHECK(p.uncached == prefill_pass(dash, 1, 2000_tok, 0_tok).time());
        CHECK(p.saving_fraction() > 0.0);
        CHECK(p.saving_fraction() < 1.0);
        // A near-full hit still computes the last token, for its logits: (1 − 0.9999) · 2,000 = 0.2 → 1 computed.
        CHECK(prefix_cache::prefill_times(dash, 2000_tok, 0.9999).cached == prefill_pass(dash, 1, 1_tok, 1999_tok).time());
    }
    SUBCASE("a higher hit rate never increases TTFT") {
        for (const deployment& d : {dash, llama70_h100}) {
            for (double p : {200.0, 2000.0, 32000.0}) {
                seconds_t prev = prefix_cache::prefill_times(d, tokens(p), 0.0).cached;
                for (double h = 0.05; h <= 1.0 + 1e-9; h += 0.05) {
                    const seconds_t t = prefix_cache::prefill_times(d, tokens(p), detail::min(h, 0.9999)).cached;
                    CHECK(t <= prev);
                    prev = t;
                }
            }
        }
    }
    SUBCASE("expected prefill is linear in the hit rate") {
        const prefix_cache::prefill_comparison p = prefix_cache::prefill_times(dash, 2000_tok, 0.5);
        CHECK(prefix_cache::expected_prefill(dash, 2000_tok, 1000_tok, 0.0) == p.uncached);
        CHECK(prefix_cache::expected_prefill(dash, 2000_tok, 1000_tok, 1.0) == p.cached);
        // r = 0.25: 0.25 · cached + 0.75 · uncached.
        CHECK(prefix_cache::expected_prefill(dash, 2000_tok, 1000_tok, 0.25).value() ==
              doctest::Approx(0.25 * p.cached.value() + 0.75 * p.uncached.value()));
        seconds_t prev = p.uncached;
        for (double r : {0.1, 0.3, 0.6, 0.9, 1.0}) {
            const seconds_t t = prefix_cache::expected_prefill(dash, 2000_tok, 1000_tok, r);
            CHECK(t <= prev);
            prev = t;
        }
    }
    SUBCASE("bad input is refused") {
        CHECK(test::contains(error_of([] { return prefix_cache::prefill_times(dash, 2000_tok, 1.5); }),
                             "cached_fraction = 1.5: a prefix-cache hit rate is in [0, 1)"));
        // A whole prompt cached is refused as the CLI's --prefix-hit 1 and the simulator's prefix_hit_rate = 1 are: one
        // rule and id (require_prefix_hit_rate), the prompt's last token is always computed (audit 40, F6)
        const std::string whole = error_of([] { return prefix_cache::prefill_times(dash, 2000_tok, 1.0); });
        CHECK(test::contains(whole, "prefix cache: cached_fraction = 1: a prefix-cache hit rate is in [0, 1): at least the "
                                    "prompt's last token is computed [llmcost.simulate.prefix_hit_rate]"));
        CHECK(test::contains(error_of([] { return prefix_cache::prefill_times(dash, 2000_tok, -0.25); }),
                             "cached_fraction = -0.25"));
        CHECK(test::contains(error_of([] { return prefix_cache::expected_prefill(dash, 200_tok, 200_tok, 0.5); }),
                             "prefix (tokens) = 200: must be in [0, prompt)"));
        // the same rule for a request's cached fraction and the simulator's hit rate
        CHECK(test::contains(error_of([] { return serve_at_batch(dash, {.input = 2000_tok, .output = 500_tok, .cached_fraction = 1.0}, 8); }),
                             "request: cached_fraction = 1: a prefix-cache hit rate is in [0, 1): at least the prompt's last "
                             "token is computed [llmcost.simulate.prefix_hit_rate]"));
        CHECK(test::contains(error_of([] { return prefix_cache::prefill_times(dash, 0_tok, 0.5); }), "prompt (tokens) = 0"));
        CHECK(test::contains(error_of([] { return prefix_cache::expected_prefill(dash, 200_tok, 300_tok, 0.5); }),
                             "prefix (tokens) = 300"));
        CHECK(test::contains(error_of([] { return prefix_cache::expected_prefill(dash, 200_tok, 100_tok, -0.1); }),
                             "hit_rate = -0.1"));
    }
}

TEST_CASE("prefix cache S33: a cached input token vs a computed one") {
    SUBCASE("restoring a token's KV, by hand") {
        // Dashboard model: 2 (K, V) · 80 layers · 8 heads · 128 · 2 B = 327,680 B per token, one GPU.
        // Host link 450 GB/s: 0.72818 µs; NVMe 7 GB/s: 46.811 µs; HBM 20 TB/s: 16.384 ns.
        const double kv = 2.0 * 80 * 8 * 128 * 2;
        CHECK(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::host_memory).cached.value() ==
              doctest::Approx(kv / 450e9));
        CHECK(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::storage).cached.value() ==
              doctest::Approx(kv / 7e9));
        CHECK(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::hbm).cached.value() == doctest::Approx(kv / 20e12));
        // Llama-3.1-70B over TP 8: 40,960 B per GPU, 8 GPUs restoring in parallel, each over its own
        // 64 GB/s host link: 8 · 40,960 / 64e9 = 5.12 µs of GPU time.
        CHECK(prefix_cache::token_costs(llama70_h100, 2000_tok, kv_restore_source::host_memory).cached.value() ==
              doctest::Approx(8.0 * 40'960 / 64e9));
    }
    SUBCASE("the computed side is prefill GPU-seconds per token") {
        const prefix_cache::token_cost c = prefix_cache::token_costs(llama70_h100, 2000_tok, kv_restore_source::hbm);
        CHECK(c.computed.value() == doctest::Approx(prefill_pass(llama70_h100, 1, 2000_tok, 0_tok).time().value() * 8 / 2000));
    }
    SUBCASE("slower tiers cost more; HBM is almost free") {
        for (const deployment& d : {dash, llama70_h100}) {
            const double hbm = prefix_cache::token_costs(d, 2000_tok, kv_restore_source::hbm).ratio();
            const double host = prefix_cache::token_costs(d, 2000_tok, kv_restore_source::host_memory).ratio();
            const double nvme = prefix_cache::token_costs(d, 2000_tok, kv_restore_source::storage).ratio();
            CHECK(hbm < host);
            CHECK(host < nvme);
            CHECK(hbm < 0.01);
        }
    }
    SUBCASE("S33: the restore bandwidth that makes a cached token 1/10 of a computed one") {
        for (const deployment& d : {dash, llama70_h100}) {
            const bytes_per_second_t b = prefix_cache::bandwidth_for_ratio(d, 2000_tok, 0.1);
            deployment tier = d;
            tier.hw.host_memory.bandwidth = b;
            CHECK(prefix_cache::token_costs(tier, 2000_tok, kv_restore_source::host_memory).ratio() == doctest::Approx(0.1));
            // Ten times the bandwidth, a tenth of the ratio.
            CHECK(ratio(prefix_cache::bandwidth_for_ratio(d, 2000_tok, 0.01), b) == doctest::Approx(10.0));
        }
        // On the dashboard GPU, 1/10 lies between its host link (cheaper) and its NVMe (dearer).
        CHECK(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::host_memory).ratio() < 0.1);
        CHECK(prefix_cache::token_costs(dash, 200_tok, kv_restore_source::storage).ratio() > 0.1);
        CHECK(prefix_cache::bandwidth_for_ratio(dash, 200_tok, 0.1) < dash.hw.host_memory.bandwidth);
        CHECK(prefix_cache::bandwidth_for_ratio(dash, 200_tok, 0.1) > dash.hw.storage.bandwidth);
    }
}

TEST_CASE("prefix cache S6: routing a conversation to the node that holds its KV") {
    const prefix_cache::routing r = prefix_cache::routing_effect(dash, 2000_tok, 200_tok);
    CHECK(r.on_holder == prefill_pass(dash, 1, 200_tok, 2000_tok).time());
    CHECK(r.recompute_elsewhere == prefill_pass(dash, 1, 2200_tok, 0_tok).time());
    // Fetching 2,000 tokens of KV over a 400 Gb/s NIC: 2,000 · 327,680 B = 655.36 MB at 50 GB/s
    // = 13.107 ms, plus the NIC's 2 µs latency.
    CHECK((r.fetch_elsewhere - r.on_holder).value() == doctest::Approx(655.36e6 / 50e9 + 2e-6));
    CHECK(r.penalty() > 0_s);
    CHECK(r.penalty() <= r.recompute_elsewhere - r.on_holder);
    SUBCASE("no history: nothing to gain") {
        const prefix_cache::routing fresh = prefix_cache::routing_effect(dash, 0_tok, 200_tok);
        CHECK(fresh.on_holder == fresh.recompute_elsewhere);
        CHECK(fresh.penalty() == 0_s);
    }
    SUBCASE("a longer conversation makes the wrong node costlier") {
        for (const deployment& d : {dash, llama70_h100}) {
            seconds_t prev = 0_s;
            for (double h : {0.0, 500.0, 2000.0, 8000.0, 32000.0}) {
                const seconds_t p = prefix_cache::routing_effect(d, tokens(h), 200_tok).penalty();
                CHECK(p >= prev);
                prev = p;
            }
        }
    }
    CHECK(test::contains(error_of([] { return prefix_cache::routing_effect(dash, 100_tok, 0_tok); }), "new_tokens (tokens) = 0"));
}

TEST_CASE("a request's prefix-cache hit: the serving point prefills only the computed part (S6)") {
    const request_shape plain{.input = 2000_tok, .output = 500_tok};
    const request_shape half{.input = 2000_tok, .output = 500_tok, .cached_fraction = 0.5};
    CHECK(half.computed() == 1000_tok);
    CHECK(half.cached() == 1000_tok);
    // At least the last token is computed: a near-full hit computes one.
    CHECK(request_shape{.input = 2000_tok, .output = 1_tok, .cached_fraction = 0.9999}.computed() == 1_tok);
    // The prompt alone: 1,000 new tokens after 1,000 cached ones, as prefill_times prices a hit.
    const serving_point s = serve_at_batch(llama70_h100, half, 32);
    CHECK(s.prefill_time == prefill_pass(llama70_h100, 1.0, 1000_tok, 1000_tok).time());
    CHECK(s.prefill_time == prefix_cache::prefill_times(llama70_h100, 2000_tok, 0.5).cached);
    const serving_point s0 = serve_at_batch(llama70_h100, plain, 32);
    CHECK(s.ttft < s0.ttft);
    CHECK(s.step_time < s0.step_time);
    CHECK(s.output_rate > s0.output_rate);
    // The KV cache still holds the whole prompt: the same batch fits.
    CHECK(max_batch(llama70_h100, half).batch == max_batch(llama70_h100, plain).batch);
    // Chunked: the chunks cover the computed tokens, after the cached prefix.
    const prompt_chunks c = split_prompt(half, 512_tok);
    CHECK(c.count == 2);
    CHECK(c.tokens == 500_tok);
    CHECK(c.prefix.value() == doctest::Approx(1000.0 + 250.0).epsilon(1e-12));
    // A hit rate outside [0, 1) is refused, naming the field.
    for (double h : {1.0, -0.1, std::nan("")})
        CHECK(error_of([&] { return serve_at_batch(llama70_h100, {.input = 2000_tok, .output = 500_tok, .cached_fraction = h}, 32); })
                  .find("cached_fraction") != std::string::npos);
}
