#pragma once
/// \file
/// The network leg of a request (seed S1, S2): great-circle distance, the speed of light in
/// fibre, and the round-trip floor that no routing can beat.

#include <llmcost/detail/math.hpp>
#include <llmcost/units/makers.hpp>

namespace llmcost {

/// A point on Earth in degrees.
struct coordinates {
    double latitude_deg = 0;
    double longitude_deg = 0;
};

/// Mean Earth radius, 6,371.0088 km (IUGG).
inline constexpr metres_t earth_radius = metres(6'371'008.8);
/// Speed of light in vacuum, 299,792,458 m/s (exact, SI).
inline constexpr metres_per_second_t speed_of_light = metres_per_second_t::from_value(299'792'458.0);
/// Group index of single-mode fibre at 1310 nm (calibration row N05: 1.468).
inline constexpr double fibre_group_index = 1.468;

/// d = 2R · asin √(sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)) — haversine great-circle distance.
[[nodiscard]] constexpr metres_t great_circle_distance(coordinates a, coordinates b) {
    constexpr double rad = detail::pi / 180.0;
    const double dphi = (b.latitude_deg - a.latitude_deg) * rad;
    const double dlambda = (b.longitude_deg - a.longitude_deg) * rad;
    const double s1 = detail::const_sin(dphi / 2.0);
    const double s2 = detail::const_sin(dlambda / 2.0);
    const double h = s1 * s1 + detail::const_cos(a.latitude_deg * rad) *
                                   detail::const_cos(b.latitude_deg * rad) * s2 * s2;
    return earth_radius * (2.0 * detail::const_asin(detail::const_sqrt(h)));
}

/// RTT_min = 2 · d · n_g ÷ c — light in fibre there and back, no detours (seed S1: 10,000 km ≈ 98 ms).
template <distance D>
[[nodiscard]] constexpr seconds_t fibre_round_trip_floor(const D& path, double group_index = fibre_group_index) {
    return in_base_units(path) * (2.0 * group_index) / speed_of_light;
}

/// How a request reaches the model: the client ↔ edge hop, and edge ↔ data-centre round trip
/// (measured, or the fibre floor × a detour factor when no measurement exists).
struct network_path {
    seconds_t client_to_edge_rtt;  ///< last mile to the nearest edge (S2), measured
    seconds_t edge_to_origin_rtt;  ///< e.g. Seoul → Oregon 137 ms (S1), measured
    [[nodiscard]] constexpr seconds_t round_trip() const { return client_to_edge_rtt + edge_to_origin_rtt; }
};

/// The detour factor of a measured path: measured RTT ÷ fibre floor (S1: 137 / 97.9 ≈ 1.4).
template <duration T, distance D>
[[nodiscard]] constexpr double route_inflation(const T& measured_rtt, const D& great_circle) {
    return ratio(measured_rtt, fibre_round_trip_floor(great_circle));
}

}  // namespace llmcost
