// The main example: the seed dashboard's receipt (ledger S27–S30) computed from the catalog's
// dashboard model and GPU, next to the fuller figure the cost model gives for the same pass.
// Then the whole journey of one request (S1-S6, S26, S38), stage by stage with its share.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <cstdio>

int main() {
    using namespace llmcost;
    using namespace llmcost::literals;

    // Assumptions of the dashboard (S39): 40B parameters read per pass at 8 bits, 20 TB/s HBM,
    // batch 32, a 1.5 kW GPU, 200 input and 500 output tokens, prefill at an effective 2 PFLOP/s.
    constexpr receipt r = seed_receipt(catalog::seed_journey, catalog::seed_site);
    static_assert(approx_equal(r.pass, 2_ms, 1e-4), "S27: 40 GB / 20 TB/s is 2 ms");
    const deployment& dash = r.scenario.serving;
    const double batch = r.scenario.batch, output_tokens = r.scenario.output.value();
    const facility& site = r.site;
    const pass_cost& step = r.step;
    const seconds_t pass = r.pass, per_token = r.per_token, prefill_time = r.prefill_time;
    const joules_t decode = r.decode_energy, prefill_energy = r.prefill_energy;
    const tokens_t context = r.context;

    const text::options wh{.digits = 3, .energy = text::energy_style::watt_hours};
    std::printf("llmcost: the seed dashboard's receipt (%s on %s, batch %g)\n\n",
                dash.m.name.data(), dash.hw.name.data(), batch);
    std::printf("S27  weights per pass     %s / %s = %s\n", to_text(step.weight_bytes).c_str(),
                to_text(dash.hw.gpu.hbm_bandwidth).c_str(), to_text(pass).c_str());
    std::printf("S28  per token            %s / %g = %s\n", to_text(pass).c_str(), batch, to_text(per_token).c_str());
    std::printf("S29  decode energy        %s x %s x %g tokens = %s\n", to_text(per_token).c_str(),
                to_text(dash.hw.gpu.board_power).c_str(), output_tokens, to_text(decode).c_str());
    std::printf("S30  at the wall          x %g x %g = %s (decode only)\n", site.server_overhead, site.cooling,
                to_text(r.decode_wall_energy, wh).c_str());
    std::printf("S30  with the prefill     %s of prefill = %s -> %s in all\n", to_text(prefill_time).c_str(),
                to_text(prefill_energy).c_str(), to_text(r.wall_energy, wh).c_str());
    std::printf("\nWhat the seed leaves out: the same pass also reads %s of KV cache (32 sequences at %s),\n"
                "so it takes %s, not %s; and energy here is a floor (S32).\n",
                to_text(step.kv_bytes).c_str(), to_text(context).c_str(), to_text(step.time()).c_str(),
                to_text(pass).c_str());

    // The journey (S38: "about 3 seconds"): network, gates, prefill, 500 decode passes, streaming.
    const journey::times& j = r.journey;
    std::printf("\nThe journey of one request (Seoul -> Oregon, batch %g, %g -> %g tokens):\n", batch,
                r.scenario.prompt.value(), output_tokens);
    for (journey::stage st : journey::all_stages)
        std::printf("  %-22s %10s  %5.1f %%\n", journey::stage_name(st).data(), to_text(j.of(st)).c_str(), 100.0 * j.share(st));
    std::printf("  %-22s %10s  (time to first token %s)\n", "end to end", to_text(j.end_to_end()).c_str(),
                to_text(j.time_to_first_token()).c_str());
    std::printf("The seed says about 3 s; this floor-level GPU (efficiencies 1, no launch overhead) gives less:\n"
                "every decode pass would have to be %.2fx slower to reach 3 s.\n",
                r.slowdown_for_target);
    return 0;
}
