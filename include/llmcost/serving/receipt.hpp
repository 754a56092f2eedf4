#pragma once
/// \file
/// The seed dashboard's receipt (seed S27–S30, S11, S38) for a journey scenario: the decode pass
/// read the seed's way (weights ÷ HBM bandwidth, shared by the batch), its energy at the board
/// and at the wall, the prompt's prefill, what the seed leaves out (the same pass's KV reads and
/// activations), and the request's whole journey. One function, so that the example and the
/// `llmcost receipt` command print the same figures.
///
/// **Example**
/// \code
/// const receipt r = seed_receipt(catalog::seed_journey, catalog::seed_site);
/// // r.pass == 2 ms (S27), r.per_token == 62.5 µs (S28)
/// \endcode

#include <llmcost/costs/energy.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/serving/journey.hpp>
#include <llmcost/serving/journey_targets.hpp>
#include <llmcost/serving/throughput.hpp>

namespace llmcost {

/// The receipt's figures, each with the ledger row it reproduces.
struct receipt {
    journey::scenario scenario;    ///< the deployment, batch, prompt and answer priced
    facility site;                 ///< power multipliers at the wall
    tokens_t context;              ///< the decode pass's context: mid-answer, prompt + output ÷ 2
    pass_cost step;                ///< the whole decode pass at that context (the cost model's)
    seconds_t pass;                ///< S27: weights read per pass ÷ HBM bandwidth
    seconds_t per_token;           ///< S28: the pass ÷ the batch
    joules_t decode_energy;        ///< S29: per token × board power × output tokens
    joules_t decode_wall_energy;   ///< S30 (decode only): × server overhead × cooling
    seconds_t prefill_time;        ///< S11: the prompt's pass
    joules_t prefill_energy;       ///< the prefill at board power (the seed leaves it out)
    joules_t wall_energy;          ///< S30: decode and prefill at the wall
    journey::times journey;        ///< S38: every stage of the request's journey
    seconds_t target;              ///< the end to end the seed quotes ("about 3 s")
    double slowdown_for_target;    ///< S38: how much slower every pass after the first token would have to run
};

/// S27 t = W ÷ B; S28 t ÷ b; S29 E = t_token · P_board · n; S30 E · overhead · cooling (with the
/// prefill's energy); S38 the journey and the slowdown that would make it last `target`.
[[nodiscard]] constexpr receipt seed_receipt(const journey::scenario& s, const facility& site,
                                             const seconds_t& target = seconds(3.0)) {
    s.validate();
    site.validate();
    const deployment& d = s.serving;
    const pass_model pm = prepare_pass(d);
    const tokens_t context = mean_decode_context({.input = s.prompt, .output = s.output});
    const pass_cost step = decode_pass(pm, s.batch, context);
    const seconds_t pass = transfer_time(step.weight_bytes, d.hw.gpu.hbm_bandwidth);
    const seconds_t per_token = pass / s.batch;
    const joules_t decode = gpu_energy(d.hw, per_token * s.output.value());
    const seconds_t prefill = prefill_pass(pm, 1.0, s.prompt, tokens(0.0)).time();
    const joules_t prefill_energy = gpu_energy(d.hw, prefill);
    const journey::times j = journey::breakdown(s);
    return {.scenario = s,
            .site = site,
            .context = context,
            .step = step,
            .pass = pass,
            .per_token = per_token,
            .decode_energy = decode,
            .decode_wall_energy = llmcost::wall_energy(decode, site),
            .prefill_time = prefill,
            .prefill_energy = prefill_energy,
            .wall_energy = llmcost::wall_energy(decode + prefill_energy, site),
            .journey = j,
            .target = target,
            .slowdown_for_target = journey::decode_slowdown_for(j, target)};
}

}  // namespace llmcost
