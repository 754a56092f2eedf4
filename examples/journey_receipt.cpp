// The main example: the seed dashboard's receipt (ledger S27–S30) computed from the catalog's
// dashboard model and GPU, next to the fuller figure the cost model gives for the same pass.
// Then the whole journey of one request (S1-S6, S26, S38), stage by stage with its share.
#include <llmcost/llmcost.hpp>

#include <cstdio>

int main() {
    using namespace llmcost;
    using namespace llmcost::literals;

    // Assumptions of the dashboard (S39): 40B parameters read per pass at 8 bits, 20 TB/s HBM,
    // batch 32, a 1.5 kW GPU, 200 input and 500 output tokens, prefill at an effective 2 PFLOP/s.
    constexpr deployment dash{.m = catalog::seed_dashboard_model, .hw = catalog::seed_dashboard_gpu};
    constexpr double batch = 32.0, output_tokens = 500.0;
    constexpr tokens_t prompt = 200_tok;
    const facility& site = catalog::seed_site;

    constexpr pass_cost step = decode_pass(dash, batch, prompt + 250_tok);  // mid-answer context
    constexpr seconds_t pass = transfer_time(step.weight_bytes, dash.hw.gpu.hbm_bandwidth);   // S27
    constexpr seconds_t per_token = pass / batch;                                              // S28
    constexpr joules_t decode = gpu_energy(dash.hw, per_token * output_tokens);                // S29
    constexpr pass_cost prefill = prefill_pass(dash, 1.0, prompt, 0_tok);
    constexpr joules_t prefill_energy = gpu_energy(dash.hw, prefill.time());
    static_assert(approx_equal(pass, 2_ms, 1e-4), "S27: 40 GB / 20 TB/s is 2 ms");

    const text::options wh{.digits = 3, .energy = text::energy_style::watt_hours};
    std::printf("llmcost: the seed dashboard's receipt (%s on %s, batch %g)\n\n",
                dash.m.name.data(), dash.hw.name.data(), batch);
    std::printf("S27  weights per pass     %s / %s = %s\n", to_text(step.weight_bytes).c_str(),
                to_text(dash.hw.gpu.hbm_bandwidth).c_str(), to_text(pass).c_str());
    std::printf("S28  per token            %s / %g = %s\n", to_text(pass).c_str(), batch, to_text(per_token).c_str());
    std::printf("S29  decode energy        %s x %s x %g tokens = %s\n", to_text(per_token).c_str(),
                to_text(dash.hw.gpu.board_power).c_str(), output_tokens, to_text(decode).c_str());
    std::printf("S30  at the wall          x %g x %g = %s (decode only)\n", site.server_overhead, site.cooling,
                to_text(wall_energy(decode, site), wh).c_str());
    std::printf("S30  with the prefill     %s of prefill = %s -> %s in all\n", to_text(prefill.time()).c_str(),
                to_text(prefill_energy).c_str(), to_text(wall_energy(decode + prefill_energy, site), wh).c_str());
    std::printf("\nWhat the seed leaves out: the same pass also reads %s of KV cache (32 sequences at %s),\n"
                "so it takes %s, not %s; and energy here is a floor (S32).\n",
                to_text(step.kv_bytes).c_str(), to_text(prompt + 250_tok).c_str(), to_text(step.time()).c_str(),
                to_text(pass).c_str());

    // The journey (S38: "about 3 seconds"): network, gates, prefill, 500 decode passes, streaming.
    const journey_times j = journey_breakdown(seed_default_journey());
    std::printf("\nThe journey of one request (Seoul -> Oregon, batch %g, %g -> %g tokens):\n", batch, 200.0, output_tokens);
    for (journey_stage st : all_journey_stages)
        std::printf("  %-22s %10s  %5.1f %%\n", journey_stage_name(st).data(), to_text(j.of(st)).c_str(), 100.0 * j.share(st));
    std::printf("  %-22s %10s  (time to first token %s)\n", "end to end", to_text(j.end_to_end()).c_str(),
                to_text(j.time_to_first_token()).c_str());
    std::printf("The seed says about 3 s; this floor-level GPU (efficiencies 1, no launch overhead) gives less:\n"
                "every decode pass would have to be %.2fx slower to reach 3 s.\n",
                journey_decode_slowdown_for(j, 3_s));
    return 0;
}
