#pragma once
/// \file
/// One request from Enter to the last token on screen (seed S1–S6, S11, S15, S26, S38): the
/// handshakes, the trip to the data centre, the three placement gates, the wait to join a batch,
/// the prefill that makes the first token, the decode passes shared with neighbours, and the trip
/// back on which tokens stream.
///
/// The timeline, with RTT_ce the client ↔ edge and RTT_eo the edge ↔ data-centre round trip:
///
///     setup    = n_ce · RTT_ce + n_eo · RTT_eo                    (handshakes, explicit counts)
///     trip     = (RTT_ce + RTT_eo) ÷ 2                            (one way, each direction)
///     TTFT     = setup + trip + gates + admission + prefill + trip   (the user sees token 1)
///     end      = TTFT + decode + neighbours' prefills             (tokens 2…n are pipelined: the
///                                                                   stream ends one trip after the
///                                                                   last token is made, S26)
///     TPOT     = (decode + neighbours' prefills) ÷ (n − 1)
///
/// Stage times can be given (`journey::times` is an aggregate; `journey::assemble` adds the network
/// and the gates to given compute times) or derived from a deployment (`journey::breakdown`).
/// Queues are in serving/queueing.hpp; what it takes to reach a given end to end (the inverse
/// questions) in serving/journey_targets.hpp; the seed's scenario in catalog/journeys.hpp.
///
/// **Example**
/// \code
/// const journey::times t = journey::breakdown(catalog::seed_journey);
/// std::printf("%s dominates: %.0f %%\n", journey::stage_name(t.dominant()).data(), 100 * t.share(t.dominant()));
/// \endcode
///
/// ## The seed's "about 3 seconds" (S38)
/// With the dashboard deployment (40 GB of weights per pass at 20 TB/s, batch 32, 200 → 500
/// tokens, Seoul ↔ Oregon at 137 ms) the model gives about half of that, ≈ 1.55 s:
///   decode 1.13 s (73 %: 499 passes of ≈ 2.27 ms — 40 GB of weights plus 32 sequences' KV at
///   100 % of the HBM bandwidth), neighbours' prefills 0.22 s (15 %: ≈ 31 neighbours join during
///   my answer, each stretching a step by ≈ 7 ms), the two one-way trips 2 × 73.5 ms (9.5 %),
///   handshakes 30 ms (2 %), gates 3 ms, prefill 9.5 ms, admission 1 ms; TTFT ≈ 0.19 s,
///   TPOT ≈ 2.7 ms (≈ 370 tokens/s for me).
/// Decode dominates. The seed's receipt is a floor (S32: read it as "at least this much"), and
/// this model inherits that optimism; we do not tune it to 3 s. What would give 3 s is a question
/// the library answers (tests "S38"):
/// - `journey::decode_slowdown_for`: every pass after the first token ≈ 2.1× slower than modelled,
///   e.g. a sustained HBM fraction of ≈ 0.43 (`journey::hbm_efficiency_for`). Copy benchmarks
///   reach 0.84–0.92 of spec (calibration rows B01–B03), a whole decode pass of small kernels
///   less, and per-kernel launch and synchronisation overheads come on top (the dashboard GPU's
///   descriptor has none), so a pass ≈ 2× the roofline is a plausible reading of "about 3 s";
/// - `journey::batch_for`: or ≈ 88 neighbours instead of 32 (≈ 117 with prefill disaggregated),
///   where decode turns compute bound (≈ 40 µs of FLOPs per sequence per pass at 2 PFLOP/s) —
///   also plausible for a busy service, and it fits: ≈ 1,090 sequences of 700 tokens fit in HBM.
/// Either way ≈ 180 tokens/s per user over 500 tokens, which is what "about 3 s" implies.
/// Figures in this comment come from the pass model as it stood when the header was written; the
/// tests check relations, not these numbers.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/network.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/serving/queueing.hpp>

#include <array>
#include <string_view>

namespace llmcost::journey {

// ---- the network leg -----------------------------------------------------------------------------

/// RTT ≈ k · 2 d n_g ÷ c — a round trip estimated from the fibre floor and a route-inflation factor
/// k ≥ 1 (S1: the measured 137 ms Seoul → Oregon is k ≈ 1.64 over 8,534 km of great circle).
template <distance D>
[[nodiscard]] constexpr seconds_t estimated_rtt(const D& great_circle, double route_inflation_factor) {
    require(route_inflation_factor >= 1.0 && route_inflation_factor <= 100.0, "journey network",
            "route_inflation_factor", route_inflation_factor,
            "must be in [1, 100]: no route is shorter than the great circle");
    return fibre_round_trip_floor(great_circle) * route_inflation_factor;
}

/// The network side of a journey: the path (S1, S2) and the handshakes before the request leaves.
/// Connection setup is counted in round trips so the assumption is visible: a fresh HTTPS
/// connection to the edge is DNS (1, to a nearby resolver, taken as one edge RTT) + TCP (1) +
/// TLS 1.3 (1) = 3; a reused connection is 0; TLS 1.2 adds one more. The edge keeps pooled
/// connections to the origin, so 0 there by default.
struct network_leg {
    network_path path;                     ///< client ↔ edge and edge ↔ data-centre RTTs
    int client_edge_setup_round_trips = 3; ///< handshakes to the edge before the request (see above)
    int edge_origin_setup_round_trips = 0; ///< handshakes edge → data centre (pooled: 0)

    /// setup = n_ce · RTT_ce + n_eo · RTT_eo — handshakes before the request can leave.
    [[nodiscard]] constexpr seconds_t setup_time() const {
        return path.client_to_edge_rtt * static_cast<double>(client_edge_setup_round_trips) +
               path.edge_to_origin_rtt * static_cast<double>(edge_origin_setup_round_trips);
    }
    /// one way = (RTT_ce + RTT_eo) ÷ 2 — paths taken as symmetric (S2: the edge relays, no compute).
    [[nodiscard]] constexpr seconds_t one_way() const { return path.round_trip() / 2.0; }

    constexpr void validate() const {
        const std::string_view s = "journey network";
        require(non_negative_finite(path.client_to_edge_rtt.value()), s, "path.client_to_edge_rtt (s)",
                path.client_to_edge_rtt.value(), "must be zero or positive and finite");
        require(non_negative_finite(path.edge_to_origin_rtt.value()), s, "path.edge_to_origin_rtt (s)",
                path.edge_to_origin_rtt.value(), "must be zero or positive and finite");
        require(client_edge_setup_round_trips >= 0, s, "client_edge_setup_round_trips",
                client_edge_setup_round_trips, "a count of round trips cannot be negative");
        require(edge_origin_setup_round_trips >= 0, s, "edge_origin_setup_round_trips",
                edge_origin_setup_round_trips, "a count of round trips cannot be negative");
    }
};

// ---- the placement gates (S3) --------------------------------------------------------------------

/// One placement gate as an M/M/c queue: the request waits W_q for one of `servers` servers, each
/// busy `service_time` per request at utilisation ρ, then spends `handling` on the path.
/// For a proxy (load balancer, router) handling = service time; a delay given directly is a gate
/// with ρ = 0 (`gate::fixed`).
struct gate {
    std::string_view name;
    seconds_t handling;        ///< time on the request's path once served
    seconds_t service_time;    ///< S = 1/μ, one server's busy time per request
    int servers = 1;           ///< c
    double utilisation = 0.0;  ///< ρ = λ ÷ (c·μ), in [0, 1)

    /// A delay given directly: no queue.
    [[nodiscard]] static constexpr gate fixed(std::string_view name, seconds_t delay) {
        return gate{.name = name, .handling = delay, .service_time = delay, .servers = 1, .utilisation = 0.0};
    }
    /// A single-server proxy that takes `service` per request at utilisation ρ (M/M/1).
    [[nodiscard]] static constexpr gate mm1(std::string_view name, seconds_t service, double utilisation) {
        return gate{.name = name, .handling = service, .service_time = service, .servers = 1,
                            .utilisation = utilisation};
    }

    /// W_q of the gate's M/M/c queue.
    [[nodiscard]] constexpr seconds_t wait() const { return queueing::mmc_wait(service_time, servers, utilisation); }
    /// delay = handling + W_q; for an M/M/1 proxy, S ÷ (1 − ρ).
    [[nodiscard]] constexpr seconds_t delay() const { return handling + wait(); }

    constexpr void validate() const {
        const std::string_view s = name.empty() ? std::string_view{"journey gate"} : name;
        require(non_negative_finite(handling.value()), s, "handling (s)", handling.value(),
                "must be zero or positive and finite");
        require(non_negative_finite(service_time.value()), s, "service_time (s)", service_time.value(),
                "must be zero or positive and finite");
        require(servers >= 1, s, "servers", servers, "a queue needs at least one server");
        require(utilisation >= 0.0 && utilisation < 1.0, s, "utilisation", utilisation,
                "must be in [0, 1): at utilisation >= 1 arrivals outpace service and the wait diverges");
    }
};

/// The three gates of S3 in order: load balancer → router (model, region) → scheduler (a node).
struct placement_gates {
    gate load_balancer;
    gate router;
    gate scheduler;

    /// Σ delays of the three gates.
    [[nodiscard]] constexpr seconds_t delay() const {
        return load_balancer.delay() + router.delay() + scheduler.delay();
    }
    constexpr void validate() const {
        load_balancer.validate();
        router.validate();
        scheduler.validate();
    }
};

// ---- the journey's stages ------------------------------------------------------------------------

enum class stage {
    connection_setup,    ///< handshakes (explicit round-trip counts)
    request_trip,        ///< one way client → edge → data centre (S1, S2)
    placement,           ///< load balancer → router → scheduler (S3)
    admission,           ///< wait for a free batch slot and the next step boundary (S4)
    prefill,             ///< the prompt's pass, which makes the first token (S11, S15)
    decode,              ///< n − 1 decode passes shared with the batch (S5, S15)
    neighbour_prefills,  ///< neighbours joining the batch stall its decode with their prefills (S4)
    response_trip,       ///< one way back; the stream ends one trip after the last token (S26)
};

inline constexpr std::array all_stages{
    stage::connection_setup, stage::request_trip, stage::placement,
    stage::admission,        stage::prefill,      stage::decode,
    stage::neighbour_prefills, stage::response_trip};

[[nodiscard]] constexpr std::string_view stage_name(stage s) {
    switch (s) {
        case stage::connection_setup: return "connection setup";
        case stage::request_trip: return "request trip";
        case stage::placement: return "placement gates";
        case stage::admission: return "batch admission";
        case stage::prefill: return "prefill";
        case stage::decode: return "decode";
        case stage::neighbour_prefills: return "neighbours' prefills";
        case stage::response_trip: return "response trip";
    }
    return "?";
}

/// Each stage's time, and what the user sees: TTFT, time per output token, end to end.
struct times {
    seconds_t connection_setup;
    seconds_t request_trip;
    seconds_t placement;
    seconds_t admission;
    seconds_t prefill;
    seconds_t decode;
    seconds_t neighbour_prefills;
    seconds_t response_trip;
    tokens_t output;  ///< tokens streamed back (≥ 1)

    [[nodiscard]] constexpr seconds_t of(stage s) const {
        switch (s) {
            case stage::connection_setup: return connection_setup;
            case stage::request_trip: return request_trip;
            case stage::placement: return placement;
            case stage::admission: return admission;
            case stage::prefill: return prefill;
            case stage::decode: return decode;
            case stage::neighbour_prefills: return neighbour_prefills;
            case stage::response_trip: return response_trip;
        }
        return seconds(0.0);
    }
    /// end to end = Σ stages (Enter → last token on screen, S38).
    [[nodiscard]] constexpr seconds_t end_to_end() const {
        seconds_t t = seconds(0.0);
        for (stage s : all_stages) t = t + of(s);
        return t;
    }
    /// share = stage ÷ end to end (the shares sum to 1).
    [[nodiscard]] constexpr double share(stage s) const { return ratio(of(s), end_to_end()); }
    /// TTFT = everything but the passes after the first token: setup + trips + gates + admission + prefill.
    [[nodiscard]] constexpr seconds_t time_to_first_token() const {
        return connection_setup + request_trip + placement + admission + prefill + response_trip;
    }
    /// TPOT = (decode + neighbours' prefills) ÷ (n − 1) — the gap between streamed tokens (S26);
    /// zero for a one-token answer.
    [[nodiscard]] constexpr seconds_per_token_t time_per_output_token() const {
        const double gaps = output.value() - 1.0;
        if (gaps <= 0.0) return seconds(0.0) / tokens(1.0);
        return (decode + neighbour_prefills) / tokens(gaps);
    }
    /// The stage that takes longest.
    [[nodiscard]] constexpr stage dominant() const {
        stage best = stage::connection_setup;
        for (stage s : all_stages)
            if (of(s) > of(best)) best = s;
        return best;
    }
};

/// What the GPU side contributes, from a deployment or given directly.
struct compute_times {
    seconds_t admission;           ///< slot wait + step-boundary wait
    seconds_t prefill;
    seconds_t decode;              ///< n − 1 decode passes
    seconds_t neighbour_prefills;  ///< other requests' prefills run between my decode passes
};

/// Adds the network and the gates to given compute times: the timeline of the file comment.
template <token_count N>
[[nodiscard]] constexpr times assemble(const network_leg& net, const placement_gates& gates,
                                                       const compute_times& gpu, const N& output) {
    net.validate();
    gates.validate();
    return times{.connection_setup = net.setup_time(),
                         .request_trip = net.one_way(),
                         .placement = gates.delay(),
                         .admission = gpu.admission,
                         .prefill = gpu.prefill,
                         .decode = gpu.decode,
                         .neighbour_prefills = gpu.neighbour_prefills,
                         .response_trip = net.one_way(),
                         .output = in_base_units(output)};
}

// ---- the scenario --------------------------------------------------------------------------------

/// One request on one deployment: the descriptor of a journey.
struct scenario {
    std::string_view name = "journey";
    deployment serving;             ///< model, hardware, layout
    double batch = 1;               ///< sequences sharing each decode pass, this one included (S5)
    tokens_t prompt;                ///< input tokens, cached ones included (S11: 200)
    tokens_t output;                ///< output tokens: one from the prefill, n − 1 decode passes (S15: 500)
    tokens_t cached;                ///< prompt tokens whose KV this node already holds (S6)
    tokens_t prefill_chunk;         ///< 0: the prompt in one pass; else chunked prefill of this many tokens
    double prefill_batch = 1;       ///< prompts prefilled together in one pass
    /// Prefill and decode on the same GPUs (the seed's sections 2–7; continuous batching with
    /// mixed steps, Orca / Sarathi-Serve): my prompt rides in a step with my batch − 1 neighbours'
    /// decodes, and every neighbour that joins later (S4) stretches one of my decode steps by its
    /// prefill. false: prefill on a separate pool (disaggregated, the seed's section 9): my prompt
    /// alone in its pass, decode steps back to back; the KV hand-off between pools is not in this
    /// journey (serving/disaggregation prices it).
    bool colocated_prefill = true;
    /// ρ of the node's batch slots. 0: the scheduler finds a node with room (S3's wording). > 0: a
    /// request waits for a slot in an M/M/c queue with c = batch and S = one request's residence.
    double slot_utilisation = 0.0;
    network_leg network;
    placement_gates gates;

    [[nodiscard]] constexpr tokens_t new_tokens() const { return prompt - cached; }

    constexpr void validate() const {
        serving.validate();
        network.validate();
        gates.validate();
        const std::string_view s = name;
        require(batch >= 1.0 && batch == llmcost::detail::const_trunc(batch) && batch <= 1e6, s,
                "batch", batch, "must be a whole number of sequences, at least 1");
        require(prefill_batch >= 1.0 && prefill_batch == llmcost::detail::const_trunc(prefill_batch) &&
                    prefill_batch <= 1e6,
                s, "prefill_batch", prefill_batch, "must be a whole number of prompts, at least 1");
        require(positive_finite(prompt.value()), s, "prompt (tokens)", prompt.value(), "must be positive and finite");
        require(output.value() >= 1.0 && output.value() <= 1e9, s, "output (tokens)", output.value(),
                "a journey streams at least one token");
        require(cached.value() >= 0.0 && cached < prompt, s, "cached (tokens)", cached.value(),
                "must be in [0, prompt): at least one prompt token is computed to get the first logits");
        require(non_negative_finite(prefill_chunk.value()) &&
                    (prefill_chunk.value() == 0.0 || prefill_chunk.value() >= 1.0),
                s, "prefill_chunk (tokens)", prefill_chunk.value(),
                "must be 0 (no chunking) or at least one token, and finite", "llmcost.serving.chunk_at_least_one_token");
        require(slot_utilisation >= 0.0 && slot_utilisation < 1.0, s, "slot_utilisation", slot_utilisation,
                "must be in [0, 1): at utilisation >= 1 arrivals outpace service and the wait diverges");
        require(max_sequences(serving, prompt + output) >= batch, s, "batch", batch,
                "the batch's KV cache at prompt + output tokens does not fit in HBM beside the weights");
    }
};

/// Σ over the prompt's chunks (`chunked_prefill`, the library's one chunking rule) of the step
/// that carries `prompts` prompts' chunk beside `decodes` sequences decoding at `context`.
[[nodiscard]] constexpr chunked_steps prefill_steps(const pass_model& pm, double decodes, tokens_t context,
                                                      double prompts, double fresh, double cached, double chunk) {
    return chunked_prefill(pm, {.decode_sequences = decodes, .decode_context = context, .prefill_sequences = prompts},
                           tokens(fresh), tokens(cached), tokens(chunk));
}


/// The GPU side of a scenario (P prompt, n output tokens, b batch, x̄ = P + n/2 the neighbours'
/// mean context, chunks as set by prefill_chunk):
///   prefill    = Σ_chunks step_pass(b − 1 decodes at x̄ + my new tokens after the cached ones)
///                (colocated; disaggregated: my prompt alone, b − 1 → 0);
///   decode     = Σ_{x = P}^{P + n − 2} t_pass(b, x) — decode_steps in closed form (S5, S15);
///   admission  = W_q(M/M/c: c = b, S = prefill + decode, ρ_slot) + ½ · t_pass(b, x̄)
///                (joins happen at step boundaries, S4; arriving at a random moment waits half a step);
///   neighbours = (b − 1)(n − 1) ÷ n joins during my decode (each other slot turns over every n
///                passes when neighbours look like me) ÷ prefill_batch
///                × [Σ_chunks step_pass(b decodes + their prompt) − chunks · t_pass(b, x̄)]
///                (colocated only; the stall is what their prefill adds to a step of mine).
[[nodiscard]] constexpr compute_times compute(const scenario& s) {
    s.validate();
    const deployment& d = s.serving;
    const double n = s.output.value();
    const double fresh = s.new_tokens().value(), cached = s.cached.value(), chunk = s.prefill_chunk.value();
    const tokens_t mean_context = mean_decode_context({.input = s.prompt, .output = s.output});
    const double others = s.colocated_prefill ? s.batch - 1.0 : 0.0;
    const pass_model pm = prepare_pass(d);
    const seconds_t prefill =
        prefill_steps(pm, others, mean_context, s.prefill_batch, fresh, cached, chunk).total;
    const seconds_t decode = decode_steps(pm, s.batch, s.prompt, n - 1.0).total;
    const seconds_t step = decode_pass(pm, s.batch, mean_context).time();
    const seconds_t slot_wait = s.slot_utilisation > 0.0
        ? queueing::mmc_wait(prefill + decode, static_cast<int>(s.batch), s.slot_utilisation)
        : seconds(0.0);
    seconds_t stalls = seconds(0.0);
    if (s.colocated_prefill && s.batch > 1.0) {
        const chunked_steps joined =
            prefill_steps(pm, s.batch, mean_context, s.prefill_batch, fresh, cached, chunk);
        const double join_steps = (s.batch - 1.0) * (n - 1.0) / n / s.prefill_batch;
        stalls = (joined.total - step * joined.steps) * join_steps;
    }
    return compute_times{.admission = slot_wait + step / 2.0,
                                 .prefill = prefill,
                                 .decode = decode,
                                 .neighbour_prefills = stalls};
}

/// Every stage of the scenario's journey.
[[nodiscard]] constexpr times breakdown(const scenario& s) {
    return assemble(s.network, s.gates, compute(s), s.output);
}

}  // namespace llmcost::journey
