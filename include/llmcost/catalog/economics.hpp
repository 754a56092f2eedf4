#pragma once
/// \file
/// The seed's token factory (T1) and the figures it rests on: an exchange rate, the site as its
/// owner plans it, and its running costs.

#include <llmcost/descriptors/economics.hpp>
#include <llmcost/descriptors/hardware.hpp>

namespace llmcost::catalog {

/// 2025 average onshore rate, 1,422.16 KRW per US dollar (Yonhap market data, reported by KBS World
/// and NationPress on 31 Dec 2025). An assumption for T1: the episode gives no date or rate.
inline constexpr exchange_rate krw_per_usd_2025 = {
    .currency = "KRW", .per_dollar = 1422.16, .source = "2025 average onshore USD/KRW (Yonhap via KBS World)"};

/// T1: an in-house 1 MW data centre with about 100 B300, about 10 billion KRW in all
/// → 10 kW of site power and ≈ $70.3k of capital per GPU at the 2025 rate.
inline constexpr facility_plan seed_token_factory = {
    .name = "T1 token factory", .grid_power = megawatts(1.0), .gpus = 100.0,
    .total_capex = krw_per_usd_2025.to_dollars(10e9)};

/// The T1 site's running costs: the seed's 1.3 server overhead and 1.2 cooling (S30), Korean
/// industrial tariff (B) of 182.7 KRW/kWh after KEPCO's October 2024 rise (MOTIE, reported by
/// energynews.pro) at the 2025 rate ≈ $0.128/kWh, and 5-year straight-line depreciation (as `seed_site`).
inline constexpr facility seed_token_factory_site = {
    .name = "T1 site (Korea)",
    .server_overhead = 1.3,
    .cooling = 1.2,
    .electricity = dollars_per_kilowatt_hour(krw_per_usd_2025.to_dollars(182.7).value()),
    .depreciation = years(5.0)};

}  // namespace llmcost::catalog
