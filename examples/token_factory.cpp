// The token factory's books (ledger T1, T7, S33): an in-house 1 MW site with about 100 B300s for
// about 10 billion KRW — what a GPU-hour costs, what a million tokens cost, the utilisation at which
// the tokens pay for the hardware, and how long the capital takes to come back.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <cstdio>

int main() {
    using namespace llmcost;
    using namespace llmcost::literals;

    // T1 as the catalog records it (the KRW rate and the Korean tariff are stated assumptions there).
    const facility_plan& plan = catalog::seed_token_factory;
    const facility& site = catalog::seed_token_factory_site;
    hardware h = catalog::b300_hgx;
    h.capex_per_gpu = plan.capex_per_gpu();  // all-in: GPU, server, building, power and cooling plant
    const text::options f3{.digits = 3};

    const text::options f5{.digits = 5};
    std::printf("T1   %s grid, %g GPUs, %.0f billion KRW = $%.2f million (at %.2f KRW/$)\n",
                to_text(plan.grid_power).c_str(), plan.gpus,
                plan.total_capex.value() * catalog::krw_per_usd_2025.per_dollar / 1e9, plan.total_capex.value() / 1e6,
                catalog::krw_per_usd_2025.per_dollar);
    std::printf("     per GPU: %s of capital, %s of site power; a %s draws %s at the wall at full load,\n"
                "     so the site provisions %.1fx what the GPUs need\n",
                to_text(plan.capex_per_gpu(), f5).c_str(), to_text(plan.facility_power_per_gpu()).c_str(),
                h.name.data(), to_text(wall_power_at(h, site, 1.0)).c_str(), provisioned_power_ratio(plan, h, site));

    // The GPU-hour: capital over 5 years plus the power bill at utilisation u.
    std::printf("\n$/GPU-hour (straight-line over %g years, electricity %s)\n", ratio(site.depreciation, years(1.0)),
                to_text(site.electricity, f3).c_str());
    for (double u : {0.05, 0.1, 0.5, 1.0}) {
        const gpu_cost_rate c = gpu_hour_cost(h, site, u);
        std::printf("  u = %3.0f%%: capital %s + energy %s = %s\n", 100 * u, to_text(c.capital).c_str(),
                    to_text(c.energy).c_str(), to_text(c.total()).c_str());
    }

    // Throughput assumption: DeepSeek-V3 (FP8) served as one 8-GPU EP group (attention DP 8, EP 8),
    // 64 sequences per rank at 2,048 tokens of context, prompts of 2,048 tokens prefilled one at a time.
    const deployment d{.m = catalog::deepseek_v3, .hw = h, .layout = {.tp = 1, .ep = 8, .dp = 8}};
    const pricing_point point{.decode_batch = 64, .context = 2048_tok, .prefill_batch = 1, .prompt = 2048_tok};
    const gpu_token_rates rates = gpu_token_rates_at(d, point);
    std::printf("\nThroughput (%s on 8 x %s, %g sequences per rank, each at %s):\n"
                "  %s prefill, %s decode per GPU at full use\n", d.m.name.data(), h.name.data(), point.decode_batch,
                to_text(tokens(1.0) / decode_pass(d, point.decode_batch, point.context).time(), f3).c_str(),
                to_text(rates.prefill, f5).c_str(), to_text(rates.decode, f5).c_str());
    for (double u : {0.1, 0.5, 1.0}) {
        const token_costs c = cost_per_token(h, site, rates, u);
        std::printf("  cost at u = %3.0f%%: input %s, output %s\n", 100 * u, to_text(c.input, f3).c_str(),
                    to_text(c.output, f3).c_str());
    }
    std::printf("  output/input cost ratio %.1f (S33: price lists say 5-6)\n", output_input_cost_ratio(rates));

    // Price assumption (not any provider's list): $0.50 per million input and $2.00 per million
    // output tokens, for requests of 2,048 in and 512 out.
    const token_prices price{.name = "assumed list", .input = dollars_per_million_tokens(0.5),
                             .output = dollars_per_million_tokens(2.0)};
    const dollars_per_second_t revenue = full_use_revenue(price, rates, point.prompt, 512_tok);
    const dollars_per_second_t depreciation = gpu_hour_cost(h, site, 0.0).capital;
    const break_even ledger = break_even_utilisation(depreciation, revenue);
    const break_even with_power = break_even_utilisation(h, site, revenue);
    std::printf("\nT7   at %s in / %s out, a busy GPU earns %s; depreciation is %s\n",
                to_text(price.input, f3).c_str(), to_text(price.output, f3).c_str(), to_text(revenue, f3).c_str(),
                to_text(depreciation, f3).c_str());
    std::printf("  break-even utilisation %.1f%% (depreciation only), %.1f%% with the power bill (T7 says 5%%)\n",
                100 * ledger.utilisation, 100 * with_power.utilisation);
    std::printf("  T7's 5%% needs prices %.2fx these, or that much more throughput per GPU\n",
                ledger.utilisation / 0.05);
    for (double u : {0.1, 0.25, 0.5}) {
        const utilisation_economics e = economics_at(h, site, revenue, u);
        std::printf("  at u = %2.0f%%: revenue %.2fx depreciation, payback in %.2f years\n", 100 * u,
                    e.revenue_over_depreciation(), ratio(payback_period(h, site, revenue, u), years(1.0)));
    }
    // Payback within a year (T7): u · V − E(u) ≥ capex ÷ 1 year, with E linear in u.
    const dollars_per_second_t e0 = gpu_hour_cost(h, site, 0.0).energy, e1 = gpu_hour_cost(h, site, 1.0).energy;
    const double u_year = ratio(h.capex_per_gpu / years(1.0) + e0, revenue - (e1 - e0));
    std::printf("  paid back within a year from u = %.1f%% of the time busy\n", 100 * u_year);
    return 0;
}
