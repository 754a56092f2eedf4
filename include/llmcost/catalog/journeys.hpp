#pragma once
/// \file
/// Places and the seed's journey: the coordinates a network estimate starts from, and the
/// scenario of the seed's dashboard (S1–S6, S11, S15, S39) as a journey descriptor.

#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/costs/network.hpp>
#include <llmcost/serving/journey.hpp>

namespace llmcost::catalog {

/// Seoul City Hall.
inline constexpr coordinates seoul{37.5665, 126.978};
/// The Dalles, Oregon (Google's first data centre).
inline constexpr coordinates the_dalles_oregon{45.5946, -121.1787};
/// Boardman, Oregon (AWS us-west-2's data centres around Boardman and Umatilla).
inline constexpr coordinates boardman_oregon{45.8399, -119.7006};

/// The seed's default journey (S1–S6, S11, S15, S39): the dashboard model on the dashboard GPU,
/// batch 32, 200 → 500 tokens, from Seoul through an edge in Seoul to Oregon.
/// - edge ↔ data centre: 137 ms measured (S1); Azure reports 127 ms Korea Central → West US 2
///   (calibration row N01), and the fibre floor Seoul → The Dalles is ≈ 83.6 ms;
/// - client ↔ edge: 10 ms, an assumption (the best US fixed-line ISPs' median latency to a nearby
///   test server is ≈ 9 ms, Ookla Q2 2019 as summarised on potsandpansbyccg.com); fresh HTTPS
///   connection: DNS + TCP + TLS 1.3 = 3 round trips to the edge, pooled to the origin;
/// - gates: assumed, the seed gives no figure: M/M/1 proxies of 0.1 ms (load balancer) and 0.5 ms
///   (router) and a 1 ms scheduling decision, each at ρ = 0.5; the scheduler finds a node with
///   room (S3), so no slot wait; prefill and decode share the GPU (the seed's sections 2–7).
inline constexpr journey::scenario seed_journey = {
    .name = "seed default journey",
    .serving = deployment{.m = seed_dashboard_model, .hw = seed_dashboard_gpu},
    .batch = 32,
    .prompt = tokens(200.0),
    .output = tokens(500.0),
    .cached = tokens(0.0),
    .prefill_chunk = tokens(0.0),
    .prefill_batch = 1,
    .colocated_prefill = true,
    .slot_utilisation = 0.0,
    .network = {.path = {.client_to_edge_rtt = milliseconds(10.0), .edge_to_origin_rtt = milliseconds(137.0)},
                .client_edge_setup_round_trips = 3,
                .edge_origin_setup_round_trips = 0},
    .gates = {.load_balancer = journey::gate::mm1("load balancer", milliseconds(0.1), 0.5),
              .router = journey::gate::mm1("router", milliseconds(0.5), 0.5),
              .scheduler = journey::gate::mm1("inference scheduler", milliseconds(1.0), 0.5)},
};

}  // namespace llmcost::catalog
