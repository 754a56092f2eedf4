// Serving economics (seed S33, S34, T1, T7, T8, T10): hand-worked expectations fed with explicit
// rates and prices, and properties/relations for the deployment-level conveniences (the pass model
// is being refined, so no absolute pass time of a catalog deployment is pinned here).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/serving/economics.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>

using namespace llmcost;
using namespace llmcost::literals;

namespace {

constexpr double hour = 3600.0;
constexpr double year_s = 365.25 * 86400.0;
constexpr double year_h = 365.25 * 24.0;  // 8,766 h

// A GPU whose arithmetic is easy: 1000 W board, 100 W idle, 6 transceivers of 17 W, and capex
// $43,830 = 5 Julian years × 8,766 h → exactly $1 per hour of depreciation over 5 years.
hardware easy_gpu() {
    hardware h = catalog::b200_hgx;
    h.gpu.board_power = 1000_W;
    h.gpu.idle_power = 100_W;
    h.capex_per_gpu = 43'830_usd;
    return h;
}
// 1.3 × 1.2 = 1.56 (S30), $0.10/kWh, 5 years.
constexpr facility easy_site{.name = "easy site", .server_overhead = 1.3, .cooling = 1.2,
                             .electricity = dollars_per_kilowatt_hour(0.10), .depreciation = years(5.0)};

double per_hour(dollars_per_second_t r) { return r.value() * hour; }
double per_million(dollars_per_token_t c) { return dollars_per_million_tokens_t{c}.value(); }

// The seed's dashboard: its model on its GPU (S27–S30, S39).
constexpr deployment dash{.m = catalog::seed_dashboard_model, .hw = catalog::seed_dashboard_gpu};

// The T1 factory's GPU: a B300 carrying the factory's all-in capital per GPU.
hardware t1_b300() {
    hardware h = catalog::b300_hgx;
    h.capex_per_gpu = catalog::seed_token_factory.capex_per_gpu();
    return h;
}

}  // namespace

TEST_CASE("econ: a GPU-hour splits into capital and energy (T7, S30)") {
    const hardware h = easy_gpu();
    // u = 0.5: P = 100 + 0.5 · 900 = 550 W; × 1.56 = 858 W at the wall; 0.858 kWh/h × $0.10 = $0.0858/h.
    const gpu_cost_rate half = gpu_hour_cost(h, easy_site, 0.5);
    CHECK(per_hour(half.capital) == doctest::Approx(1.0));
    CHECK(half.wall_power.value() == doctest::Approx(858.0));
    CHECK(per_hour(half.energy) == doctest::Approx(0.0858));
    CHECK(per_hour(half.total()) == doctest::Approx(1.0858));
    SUBCASE("idle draws idle power, full use draws board power") {
        // u = 0: 100 W × 1.56 = 156 W → $0.0156/h; u = 1: 1560 W → $0.156/h.
        CHECK(per_hour(gpu_hour_cost(h, easy_site, 0.0).energy) == doctest::Approx(0.0156));
        CHECK(per_hour(gpu_hour_cost(h, easy_site, 1.0).energy) == doctest::Approx(0.156));
    }
    SUBCASE("optics: 6 transceivers × 17 W × 1.2 cooling = 122.4 W more, always on (S10)") {
        const gpu_cost_rate with = gpu_hour_cost(h, easy_site, 0.5, {.optics = true});
        CHECK(with.wall_power.value() == doctest::Approx(858.0 + 122.4));
        CHECK(per_hour(with.energy) == doctest::Approx(0.0858 + 0.01224));
        CHECK(with.capital == half.capital);
    }
    SUBCASE("doubling capex doubles the capital part and leaves energy alone") {
        hardware twice = h;
        twice.capex_per_gpu = h.capex_per_gpu * 2.0;
        const gpu_cost_rate d = gpu_hour_cost(twice, easy_site, 0.5);
        CHECK(d.capital.value() == doctest::Approx(2.0 * half.capital.value()));
        CHECK(d.energy == half.energy);
    }
    SUBCASE("unknown capex and a utilisation outside [0, 1] are refused, naming the field") {
        std::string m;
        try {
            hardware unpriced = catalog::b300_hgx;  // every catalog GPU has a price: take it away
            unpriced.capex_per_gpu = dollars(0.0);
            (void)gpu_hour_cost(unpriced, catalog::seed_site, 0.5);
        } catch (const invalid_input& e) {
            m = e.what();
        }
        CHECK(test::contains(m, "B300 (HGX): capex_per_gpu ($) = 0"));
        CHECK_THROWS_AS((void)gpu_hour_cost(h, easy_site, 1.5), invalid_input);
    }
}

TEST_CASE("econ: cost per token from explicit rates (S33)") {
    // C = $2/h at u = 0.5 → $4 per busy hour = 1/900 $/s.
    // input: (1/900) ÷ 10,000 = 1.111e-7 $/tok = $0.1111/M; output ÷ 1,000 → $1.111/M;
    // cached ÷ 100,000 → $0.01111/M.
    const gpu_token_rates r{.prefill = 10'000_tok_per_s, .decode = 1'000_tok_per_s, .cached = 100'000_tok_per_s};
    const token_costs c = cost_per_token(2_usd_per_h, r, 0.5);
    CHECK(per_million(c.input) == doctest::Approx(1e6 / 900.0 / 10'000));
    CHECK(per_million(c.output) == doctest::Approx(1e6 / 900.0 / 1'000));
    CHECK(per_million(c.cached) == doctest::Approx(1e6 / 900.0 / 100'000));
    CHECK(output_input_cost_ratio(r) == doctest::Approx(10.0));
    CHECK(cached_input_cost_ratio(r) == doctest::Approx(0.1));
    SUBCASE("without a prefix cache a cached token is recomputed: priced as input") {
        const gpu_token_rates none{.prefill = 10'000_tok_per_s, .decode = 1'000_tok_per_s};
        CHECK(cost_per_token(2_usd_per_h, none, 0.5).cached == cost_per_token(2_usd_per_h, none, 0.5).input);
        CHECK(cached_input_cost_ratio(none) == 1.0);
    }
    SUBCASE("hardware and site priced at the same utilisation") {
        // easy GPU at u = 0.5: $1.0858/h ÷ 0.5 = $2.1716 per busy hour; ÷ 3600 ÷ 1,000 tok/s per M.
        const token_costs hc = cost_per_token(easy_gpu(), easy_site, r, 0.5);
        CHECK(per_million(hc.output) == doctest::Approx(2.1716 / hour / 1'000 * 1e6));
    }
    SUBCASE("an idle GPU has no tokens to spread its cost over") {
        CHECK_THROWS_AS((void)cost_per_token(2_usd_per_h, r, 0.0), invalid_input);
    }
    SUBCASE("a price list in $/M: Anthropic's Sonnet 4.5 list is exactly S33's 5× and 1/10") {
        // $3 input, $15 output, $0.30 cache hits per MTok (platform.claude.com/docs/en/about-claude/pricing).
        const token_prices sonnet{.name = "Claude Sonnet 4.5", .input = dollars_per_million_tokens(3.0),
                                  .output = dollars_per_million_tokens(15.0), .cached = dollars_per_million_tokens(0.30)};
        CHECK(sonnet.input.value() == doctest::Approx(3e-6));
        CHECK(ratio(sonnet.output, sonnet.input) == doctest::Approx(5.0));
        CHECK(ratio(sonnet.cached, sonnet.input) == doctest::Approx(0.1));
    }
}

TEST_CASE("econ: full-use revenue of a request mix") {
    // 1,000 input at $3/M + 200 output at $15/M = $0.003 + $0.003 = $0.006 per request;
    // GPU time 1,000 ÷ 10,000 + 200 ÷ 1,000 = 0.3 s → $0.02/s = $72/h.
    const token_prices p{.name = "list", .input = dollars_per_million_tokens(3.0),
                         .output = dollars_per_million_tokens(15.0)};
    const gpu_token_rates r{.prefill = 10'000_tok_per_s, .decode = 1'000_tok_per_s};
    CHECK(per_hour(full_use_revenue(p, r, 1'000_tok, 200_tok)) == doctest::Approx(72.0));
    // One kind of token: $10/M × 900 tok/s = $0.009/s = $32.40/h.
    CHECK(per_hour(full_use_revenue(dollars_per_million_tokens(10.0), 900_tok_per_s)) == doctest::Approx(32.4));
}

TEST_CASE("econ: S33 ratios on the seed's own receipt numbers, hand-worked") {
    // Prefill at the seed's effective 2 PFLOP/s: 2 · 40e9 FLOP per token → 40 µs → 25,000 tok/s (S30).
    // Decode at batch b: one 2 ms pass (40 GB ÷ 20 TB/s, S27) makes b tokens → 500 · b tok/s (S28).
    // Output ÷ input = 25,000 ÷ (500 b) = 50 ÷ b.
    auto rates = [](double b) {
        return gpu_token_rates{.prefill = tokens_per_second(1.0 / 40e-6), .decode = tokens_per_second(b / 2e-3)};
    };
    CHECK(output_input_cost_ratio(rates(32)) == doctest::Approx(1.5625));  // the receipt's batch 32: 1.6×, not 5–6×
    // 5–6× needs 50/6 ≤ b ≤ 10: b = 9 gives 5.56, b = 10 gives 5.0, b = 8 gives 6.25 (just above).
    CHECK(output_input_cost_ratio(rates(9)) == doctest::Approx(50.0 / 9));
    CHECK(output_input_cost_ratio(rates(10)) == doctest::Approx(5.0));
    CHECK(output_input_cost_ratio(rates(8)) > 6.0);
    SUBCASE("cached ÷ input: restoring the KV from host memory vs computing it") {
        // The restore rate does not depend on the pass model: 327,680 B/token (S16) over the seed
        // GPU's 450 GB/s host link → 1,373,291 tok/s; ÷ 25,000 → 1/54.9 = 0.0182 (below the 1/10 price).
        const gpu_token_rates r = gpu_token_rates_at(dash, {.prompt = 200_tok, .cached_from = kv_restore_source::host_memory});
        CHECK(r.cached.value() == doctest::Approx(450e9 / 327'680.0));
        CHECK(ratio(rates(10).prefill, r.cached) == doctest::Approx(25'000.0 * 327'680.0 / 450e9));
        // From NVMe at 7 GB/s: 21,362 tok/s → 25,000 ÷ 21,362 = 1.17: a restore from disk would cost
        // more than recomputing at the seed's prefill rate.
        const gpu_token_rates s = gpu_token_rates_at(dash, {.prompt = 200_tok, .cached_from = kv_restore_source::storage});
        CHECK(s.cached.value() == doctest::Approx(7e9 / 327'680.0));
    }
}

TEST_CASE("econ: S33 price ratios of a deployment — relations") {
    const pricing_point base{.decode_batch = 1, .context = 700_tok, .prompt = 200_tok};
    auto ratio_at = [&](const deployment& d, double b, tokens_t ctx) {
        pricing_point p = base;
        p.decode_batch = b;
        p.context = ctx;
        return output_input_cost_ratio(gpu_token_rates_at(d, p));
    };
    SUBCASE("output ÷ input falls as the decode batch grows") {
        for (double b = 1; b < 64; b *= 2) CHECK(ratio_at(dash, 2 * b, 700_tok) <= ratio_at(dash, b, 700_tok));
    }
    SUBCASE("the batch where output ÷ input crosses 6 and 5") {
        const double b6 = decode_batch_for_cost_ratio(dash, base, 6.0, 1024);
        const double b5 = decode_batch_for_cost_ratio(dash, base, 5.0, 1024);
        REQUIRE(b6 >= 1);
        REQUIRE(b5 >= b6);
        CHECK(ratio_at(dash, b6, 700_tok) <= 6.0);
        if (b6 > 1) CHECK(ratio_at(dash, b6 - 1, 700_tok) > 6.0);
        CHECK(ratio_at(dash, b5, 700_tok) <= 5.0);
        if (b5 > 1) CHECK(ratio_at(dash, b5 - 1, 700_tok) > 5.0);
        // Far below the receipt's batch 32: at 32 decode is cheap relative to prefill (S28).
        CHECK(b5 < 32);
        // A longer context reads more KV per output token: the same ratio needs a bigger batch.
        pricing_point longer = base;
        longer.context = 8'000_tok;
        const double b6_long = decode_batch_for_cost_ratio(dash, longer, 6.0, 1024);
        CHECK((b6_long == 0 || b6_long >= b6));
    }
    SUBCASE("output ÷ input rises with context at a fixed batch (KV reads per token grow)") {
        CHECK(ratio_at(dash, 32, 2'000_tok) > ratio_at(dash, 32, 700_tok));
        CHECK(ratio_at(dash, 32, 32'000_tok) > ratio_at(dash, 32, 2'000_tok));
    }
    SUBCASE("an unreachable target reports 0; the search never exceeds what the KV budget holds") {
        CHECK(decode_batch_for_cost_ratio(dash, base, 1e-3, 64) == 0.0);
        pricing_point longest = base;
        longest.context = 32'000_tok;
        const double b = decode_batch_for_cost_ratio(dash, longest, 1e3, 1e6);  // any batch meets 1000×
        CHECK(b == 1.0);
        const double cap = max_sequences(dash, 32'000_tok);
        const double b_any = decode_batch_for_cost_ratio(dash, longest, ratio_at(dash, cap, 32'000_tok), 1e6);
        CHECK(b_any <= cap);
        CHECK(b_any >= 1.0);
    }
    SUBCASE("cached ÷ input: HBM < host memory < storage") {
        deployment l70{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
        pricing_point p{.decode_batch = 32, .context = 2'000_tok, .prompt = 2'000_tok};
        p.cached_from = kv_restore_source::hbm;
        const double hbm = cached_input_cost_ratio(gpu_token_rates_at(l70, p));
        p.cached_from = kv_restore_source::host_memory;
        const double host = cached_input_cost_ratio(gpu_token_rates_at(l70, p));
        p.cached_from = kv_restore_source::storage;
        const double disk = cached_input_cost_ratio(gpu_token_rates_at(l70, p));
        CHECK(hbm < host);
        CHECK(host < disk);
        // Restore GPU-seconds per token, by hand: 40,960 B/GPU × 8 GPUs ÷ tier bandwidth.
        // host: 8 · 40,960 ÷ 64 GB/s = 5.12 µs; NVMe: ÷ 7 GB/s = 46.8 µs; their ratio is 64 ÷ 7.
        CHECK(disk / host == doctest::Approx(64.0 / 7.0));
    }
}

TEST_CASE("econ: break-even utilisation and payback, hand-worked (T7)") {
    const hardware h = easy_gpu();
    // Depreciation only (the ledger's T7 form): $1/h ÷ $20/h at full use = 5 %.
    const break_even dep = break_even_utilisation(1_usd_per_h, 20_usd_per_h);
    CHECK(dep.utilisation == doctest::Approx(0.05));
    CHECK(dep.reachable);
    // With energy: E(u) = $0.0156/h + u · $0.1404/h; u* = (1 + 0.0156) ÷ (20 − 0.1404) = 0.051139.
    const break_even all = break_even_utilisation(h, easy_site, 20_usd_per_h);
    CHECK(all.utilisation == doctest::Approx(1.0156 / 19.8596));
    CHECK(all.reachable);
    SUBCASE("economics at 10 %: revenue $2/h against $1/h of depreciation and $0.02964/h of energy") {
        // E(0.1) = (100 + 90) W × 1.56 = 296.4 W → $0.02964/h.
        const utilisation_economics e = economics_at(h, easy_site, 20_usd_per_h, 0.1);
        CHECK(per_hour(e.revenue) == doctest::Approx(2.0));
        CHECK(e.revenue_over_depreciation() == doctest::Approx(2.0));
        CHECK(e.revenue_over_cost() == doctest::Approx(2.0 / 1.02964));
        CHECK(per_hour(e.profit()) == doctest::Approx(2.0 - 1.02964));
        // Payback: $43,830 ÷ (2 − 0.02964) $/h = 22,244.6 h.
        CHECK(payback_period(h, easy_site, 20_usd_per_h, 0.1).value() / hour == doctest::Approx(43'830.0 / 1.97036));
    }
    SUBCASE("unreachable: full use covers the fixed cost less than once, or not even the marginal energy") {
        const break_even low = break_even_utilisation(h, easy_site, 0.5_usd_per_h);  // u* ≈ 2.7
        CHECK_FALSE(low.reachable);
        CHECK(low.utilisation > 1.0);
        const break_even none = break_even_utilisation(h, easy_site, 0.1_usd_per_h);  // < $0.1404/h marginal
        CHECK_FALSE(none.reachable);
        CHECK(std::isinf(none.utilisation));
        CHECK(std::isinf(payback_period(h, easy_site, 0.1_usd_per_h, 0.5).value()));
    }
    SUBCASE("payback = D · u* ÷ u when energy is free: break-even at 5 % and payback in a year at 10 % need D ≤ 2 years") {
        facility free = easy_site;
        free.electricity = dollars_per_kilowatt_hour(0.0);
        // $1/h over 5 years, V = $20/h: payback at 10 % = 5 y · 0.05 ÷ 0.1 = 2.5 years.
        CHECK(payback_period(h, free, 20_usd_per_h, 0.1).value() / year_s == doctest::Approx(2.5));
        free.depreciation = years(2.0);  // same capex, so K = $2.5/h; V = $50/h keeps u* = 5 %
        CHECK(break_even_utilisation(h, free, 50_usd_per_h).utilisation == doctest::Approx(0.05));
        CHECK(payback_period(h, free, 50_usd_per_h, 0.1).value() / year_s == doctest::Approx(1.0));
    }
}

TEST_CASE("econ: T1 — the in-house 1 MW token factory") {
    const facility_plan& t1 = catalog::seed_token_factory;
    // 1 MW ÷ 100 GPUs = 10 kW of site power per GPU.
    CHECK(t1.facility_power_per_gpu() == 10_kW);
    // 10e9 KRW ÷ 1,422.16 KRW/$ (2025 average, an explicit assumption) ÷ 100 = $70,315.6 per GPU.
    CHECK(t1.capex_per_gpu().value() == doctest::Approx(1e8 / 1422.16));
    // Korean industrial tariff: 182.7 KRW/kWh ÷ 1,422.16 = $0.12847/kWh.
    CHECK(catalog::seed_token_factory_site.electricity.value() * 3.6e6 == doctest::Approx(182.7 / 1422.16));
    // A B300 at full load draws 1,100 W × 1.56 = 1,716 W at the wall: the site provisions 10 ÷ 1.716 = 5.83×.
    CHECK(provisioned_power_ratio(t1, t1_b300(), catalog::seed_token_factory_site) == doctest::Approx(10'000.0 / 1'716.0));
    // T12: 100 GPUs stepping from idle (140 W) to full (1,100 W): 100 · 960 W · 1.56 = 149.76 kW,
    // 15 % of the 1 MW connection in one step.
    CHECK(site_power_swing(t1_b300(), catalog::seed_token_factory_site, t1.gpus).value() == doctest::Approx(149'760.0));
    // Depreciation over 5 years: $70,315.6 ÷ 43,830 h = $1.6043/h per GPU.
    CHECK(per_hour(gpu_hour_cost(t1_b300(), catalog::seed_token_factory_site, 0.1).capital) ==
          doctest::Approx(1e8 / 1422.16 / 43'830.0));
}

TEST_CASE("econ: T7 — the assumptions under which the seed's claims hold") {
    const hardware h = t1_b300();
    facility site = catalog::seed_token_factory_site;
    // Assumption: every busy GPU-second sells output tokens at $10 per million (the order of a
    // frontier list price for output) and a B300 makes 900 output tokens/s at full use.
    const dollars_per_second_t V = full_use_revenue(dollars_per_million_tokens(10.0), 900_tok_per_s);  // $32.40/h
    const dollars_per_second_t K = gpu_hour_cost(h, site, 0.0).capital;  // $1.60428/h
    SUBCASE("A: 5-year depreciation — 5 % break-even and 2× at 10 % hold; payback in a year does not") {
        // u* = 1.60428 ÷ 32.40 = 0.049515.
        const break_even be = break_even_utilisation(K, V);
        CHECK(be.utilisation == doctest::Approx(1e8 / 1422.16 / 43'830.0 / 32.4));
        CHECK(be.utilisation == doctest::Approx(0.05).epsilon(0.02));
        // With the power bill: (1.60428 + 0.02806) ÷ (32.40 − 0.19239) = 0.05068 — still ≈ 5 %.
        CHECK(break_even_utilisation(h, site, V).utilisation == doctest::Approx(0.05068).epsilon(1e-3));
        // At 10 %: $3.24/h ÷ $1.60428/h = 2.02× depreciation.
        const utilisation_economics e = economics_at(h, site, V, 0.1);
        CHECK(e.revenue_over_depreciation() == doctest::Approx(2.0196).epsilon(1e-3));
        // Payback at 10 %: E(0.1) = 236 W × 1.56 × $0.12847/kWh = $0.04730/h;
        // $70,315.6 ÷ (3.24 − 0.04730) $/h = 22,024 h = 2.51 years.
        CHECK(payback_period(h, site, V, 0.1).value() / year_s == doctest::Approx(22'024.0 / year_h).epsilon(1e-3));
        CHECK(payback_period(h, site, V, 0.1) > years(1.0));
        // A one-year payback needs u · 32.40 − (0.02806 + 0.19239 u) ≥ 70,315.6 ÷ 8,766 = 8.0214 → u ≥ 24.99 %.
        CHECK(payback_period(h, site, V, 0.25) < years(1.0));
        CHECK(payback_period(h, site, V, 0.24) > years(1.0));
    }
    SUBCASE("B: all three at 10 % need depreciation under 2 years — e.g. 1.5 years and 3,000 tok/s") {
        site.depreciation = years(1.5);
        const dollars_per_second_t V3 = full_use_revenue(dollars_per_million_tokens(10.0), 3'000_tok_per_s);  // $108/h
        // K = 70,315.6 ÷ 13,149 h = $5.3476/h; u* = 5.3476 ÷ 108 = 0.049515.
        const break_even be = break_even_utilisation(gpu_hour_cost(h, site, 0.0).capital, V3);
        CHECK(be.utilisation == doctest::Approx(0.049515).epsilon(1e-4));
        CHECK(economics_at(h, site, V3, 0.1).revenue_over_depreciation() == doctest::Approx(2.0196).epsilon(1e-3));
        // Payback at 10 %: 70,315.6 ÷ (10.80 − 0.04730) = 6,539 h = 0.746 years.
        CHECK(payback_period(h, site, V3, 0.1).value() / year_s == doctest::Approx(6'539.3 / year_h).epsilon(1e-3));
        CHECK(payback_period(h, site, V3, 0.1) < years(1.0));
    }
}

TEST_CASE("econ: T8 — time to finish, not tokens per second") {
    // Fast model: 150 tok/s, 30,000 tokens + 2 retries of 10,000 → 50,000 ÷ 150 = 333.3 s.
    const seconds_t fast = time_to_finish(30'000_tok, 150_tok_per_s, 2.0, 10'000_tok);
    CHECK(fast.value() == doctest::Approx(50'000.0 / 150.0));
    // A model 3× slower per token (50 tok/s) that needs 12,000 tokens and no retry: 240 s — sooner.
    const seconds_t slow = time_to_finish(12'000_tok, 50_tok_per_s);
    CHECK(slow.value() == doctest::Approx(240.0));
    CHECK(slow < fast);
    // The crossover: the slow model ties at 50 × 333.3 = 16,667 tokens; above it, it loses.
    const tokens_t tie = token_budget_to_match(fast, 50_tok_per_s);
    CHECK(tie.value() == doctest::Approx(50'000.0 / 3.0));
    CHECK(time_to_finish(tokens(tie.value() * 0.99), 50_tok_per_s) < fast);
    CHECK(time_to_finish(tokens(tie.value() * 1.01), 50_tok_per_s) > fast);
    SUBCASE("expected retries of attempts that succeed with probability p: (1 − p) ÷ p") {
        CHECK(expected_retries(1.0) == 0.0);
        CHECK(expected_retries(0.5) == doctest::Approx(1.0));
        CHECK(expected_retries(0.25) == doctest::Approx(3.0));
        // Fast model succeeding 1 time in 3 with 10,000 tokens an attempt: 10,000 + 2 · 10,000 = 30,000 → 200 s.
        CHECK(time_to_finish(10'000_tok, 150_tok_per_s, expected_retries(1.0 / 3.0), 10'000_tok).value() ==
              doctest::Approx(200.0));
        CHECK_THROWS_AS((void)expected_retries(0.0), invalid_input);
        CHECK_THROWS_AS((void)time_to_finish(1_tok, 0_tok_per_s), invalid_input);
    }
}

TEST_CASE("econ: S34 — inference paid every request overtakes a one-off training bill") {
    // $0.50/M input, $2/M output, $0.05/M cached; 2,000 input + 500 output + 8,000 cached tokens:
    // 0.001 + 0.001 + 0.0004 = $0.0024 per request.
    const token_costs c{.input = dollars_per_million_tokens(0.5), .output = dollars_per_million_tokens(2.0),
                        .cached = dollars_per_million_tokens(0.05)};
    const dollars_t per_request = inference_cost_per_request(c, 2'000_tok, 500_tok, 8'000_tok);
    CHECK(per_request.value() == doctest::Approx(0.0024));
    // Training assumed at $100M: overtaken after 1e8 ÷ 0.0024 = 4.17e10 requests;
    // 100 M users × 10 requests a day = 1e9 a day → about 42 days.
    const double n = requests_to_overtake_training(100'000'000_usd, per_request);
    CHECK(n == doctest::Approx(1e8 / 0.0024));
    CHECK(n / 1e9 == doctest::Approx(41.67).epsilon(1e-3));
    CHECK(cumulative_inference_cost(per_request, 100e6, 10.0).value() == doctest::Approx(2.4e6));
    CHECK(cumulative_inference_cost(per_request, 1.0, n).value() == doctest::Approx(1e8));
    CHECK_THROWS_AS((void)requests_to_overtake_training(1_usd, 0_usd), invalid_input);
}

TEST_CASE("econ: T10 — output cost rises with the context tier") {
    // Llama-3.1-70B on 8 H100 (capex known: $24,875 a GPU), seed site, 50 % utilisation.
    const deployment d{.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}};
    const double u = 0.5;
    const dollars_per_second_t busy = gpu_hour_cost(d.hw, catalog::seed_site, u).total() / u;
    context_cost previous{};
    bool first = true;
    for (double ctx : {1'000.0, 8'000.0, 32'000.0, 128'000.0}) {
        CAPTURE(ctx);
        const context_cost c = output_cost_at_context(d, catalog::seed_site, tokens(ctx), u);
        // The batch is what the KV budget allows, capped at 256.
        CHECK(c.batch == std::min(max_sequences(d, tokens(ctx)), 256.0));
        CHECK(c.output.value() == doctest::Approx((busy * c.gpu_time_per_token).value()));
        if (!first) {
            CHECK(c.batch <= previous.batch);
            CHECK(c.gpu_time_per_token > previous.gpu_time_per_token);
            CHECK(c.output > previous.output);
        }
        previous = c;
        first = false;
    }
    SUBCASE("a context that does not fit even once costs infinitely much") {
        const context_cost none = output_cost_at_context(d, catalog::seed_site, 100'000'000_tok, u);
        CHECK(none.batch == 0.0);
        CHECK(std::isinf(none.output.value()));
    }
    SUBCASE("a smaller batch cap raises the cost at a short context") {
        CHECK(output_cost_at_context(d, catalog::seed_site, 1'000_tok, u, 8).output >
              output_cost_at_context(d, catalog::seed_site, 1'000_tok, u, 256).output);
    }
}

TEST_CASE("econ: properties") {
    const hardware h = t1_b300();
    const facility& site = catalog::seed_token_factory_site;
    const gpu_token_rates r{.prefill = 20'000_tok_per_s, .decode = 900_tok_per_s, .cached = 200'000_tok_per_s};
    SUBCASE("cost per token falls as utilisation rises") {
        token_costs prev = cost_per_token(h, site, r, 0.01);
        for (double u = 0.02; u <= 1.0 + 1e-12; u += 0.01) {
            CAPTURE(u);
            const token_costs c = cost_per_token(h, site, r, std::min(u, 1.0));
            CHECK(c.input < prev.input);
            CHECK(c.output < prev.output);
            CHECK(c.cached < prev.cached);
            prev = c;
        }
    }
    SUBCASE("break-even utilisation is in (0, 1] when reachable, and reported unreachable otherwise") {
        for (double v = 0.01; v < 1e4; v *= 1.7) {
            CAPTURE(v);
            const dollars_per_second_t V = dollars_per_hour(v);
            for (const break_even b : {break_even_utilisation(h, site, V),
                                       break_even_utilisation(gpu_hour_cost(h, site, 0.0).capital, V)}) {
                if (b.reachable) {
                    CHECK(b.utilisation > 0.0);
                    CHECK(b.utilisation <= 1.0);
                    // At break-even revenue meets cost (the depreciation-only form ignores energy).
                } else {
                    CHECK(!(b.utilisation > 0.0 && b.utilisation <= 1.0));
                }
            }
            const break_even full = break_even_utilisation(h, site, V);
            if (full.reachable) {
                const utilisation_economics e = economics_at(h, site, V, full.utilisation);
                CHECK(e.revenue.value() == doctest::Approx(e.cost.total().value()));
            }
        }
    }
    SUBCASE("doubling capex doubles the capital part of every token's cost at full use, nothing else") {
        hardware twice = h;
        twice.capex_per_gpu = h.capex_per_gpu * 2.0;
        const gpu_cost_rate a = gpu_hour_cost(h, site, 0.3), b = gpu_hour_cost(twice, site, 0.3);
        CHECK(b.capital.value() == doctest::Approx(2.0 * a.capital.value()));
        CHECK(b.energy == a.energy);
        CHECK(break_even_utilisation(b.capital, 30_usd_per_h).utilisation ==
              doctest::Approx(2.0 * break_even_utilisation(a.capital, 30_usd_per_h).utilisation));
    }
    SUBCASE("output costs more than input whenever the decode pass is memory bound") {
        const deployment cases[] = {
            dash,
            {.m = catalog::llama_3_1_70b, .hw = catalog::h100_sxm5, .layout = {.tp = 8}},
            {.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5},
            {.m = catalog::llama_3_1_70b, .hw = catalog::b200_hgx, .layout = {.tp = 4}},
        };
        for (const deployment& d : cases) {
            for (double b : {1.0, 8.0, 32.0}) {
                CAPTURE(b);
                const pricing_point p{.decode_batch = b, .context = 2'000_tok, .prompt = 2'000_tok};
                if (!decode_pass(d, b, p.context).memory_bound()) continue;
                CHECK(output_input_cost_ratio(gpu_token_rates_at(d, p)) > 1.0);
            }
        }
    }
}

TEST_CASE("econ: descriptors refuse nonsense, naming field, value and rule") {
    using test::contains;
    using test::validation_message;
    CHECK(contains(validation_message(facility_plan{.name = "x", .grid_power = 0_W, .gpus = 1, .total_capex = 1_usd}),
                   "x: grid_power (W) = 0"));
    CHECK(contains(validation_message(facility_plan{.name = "x", .grid_power = 1_MW, .gpus = 0.5, .total_capex = 1_usd}),
                   "gpus = 0.5: a site holds at least one GPU"));
    CHECK(contains(validation_message(exchange_rate{.currency = "KRW", .per_dollar = -1.0}),
                   "KRW: per_dollar = -1"));
    CHECK(contains(validation_message(token_prices{.name = "p", .input = dollars_per_million_tokens(-1.0),
                                                   .output = dollars_per_million_tokens(1.0)}),
                   "p: input ($/token)"));
    CHECK(contains(validation_message(gpu_token_rates{.prefill = 1_tok_per_s, .decode = 0_tok_per_s}),
                   "decode (tokens/s) = 0"));
    CHECK(contains(validation_message(pricing_point{.decode_batch = 0.0}), "decode_batch = 0"));
    CHECK(contains(validation_message(pricing_point{.prompt = 0_tok}), "prompt (tokens) = 0"));
    CHECK(validation_message(catalog::seed_token_factory).empty());
    CHECK(validation_message(catalog::krw_per_usd_2025).empty());
}
