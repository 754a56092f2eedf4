#pragma once
/// \file
/// Catalog of accelerators and systems. Each entry is one row of `tables/hardware.csv`, in the
/// CSV's own units, turned into a typed `hardware` by `from_row` (descriptors/hardware_row.hpp); a
/// test loads the CSV through the same function and checks that both agree field for field. Every
/// figure's source is in the CSV. Every entry is validated at compile time, once, in
/// tests/static/catalog_static.cpp (not in every translation unit that includes the catalog).

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/hardware_row.hpp>

#include <array>

namespace llmcost::catalog {

// clang-format off
// name | HBM GiB, stacks, TB/s | dense TFLOP/s bf16, fp8, fp4, int8 | W board, idle |
// eff hbm, matmul (asymptotic), matmul half-dim, attention, kernel overhead µs |
// scale-up link, GB/s both ways, µs, domain | NIC, Gb/s, µs, GPUs/node | host, GB/GPU, GB/s |
// storage, TB/GPU, GB/s | transceivers, W | capex $/GPU | status
inline constexpr hardware h100_sxm5 = from_row({"H100 SXM5", 80, 5, 3.35, 989.4, 1978.9, 0, 1978.9, 700, 70, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 8, "ConnectX-7 400G", 400, 2, 8, "DDR5 (DGX H100)", 250, 64, "NVMe (DGX)", 3.84, 7, 6, 17, 24875, "spec"});
inline constexpr hardware h200_sxm = from_row({"H200 SXM", 141, 6, 4.8, 989.4, 1978.9, 0, 1978.9, 700, 75, 0.835, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 8, "ConnectX-7 400G", 400, 2, 8, "DDR5 (DGX H200)", 250, 64, "NVMe (DGX)", 3.84, 7, 6, 17, 32000, "spec"});
inline constexpr hardware h800_sxm = from_row({"H800 SXM", 80, 5, 3.35, 989.4, 1978.9, 0, 1978.9, 700, 70, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4 (reduced)", 400, 3.7, 8, "ConnectX-7 400G", 400, 2, 8, "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 0, "spec"});
inline constexpr hardware b200_hgx = from_row({"B200 (HGX)", 180, 8, 8.0, 2250, 4500, 9000, 4500, 1000, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 8, "ConnectX-7 400G", 400, 2, 8, "DDR5 (DGX B200)", 250, 64, "NVMe (DGX B200)", 3.84, 7, 6, 17, 0, "spec"});
inline constexpr hardware gb200_nvl72 = from_row({"GB200 (NVL72)", 186, 8, 8.0, 2500, 5000, 10000, 5000, 1200, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 72, "ConnectX-7 400G", 400, 2, 4, "LPDDR5X (Grace)", 240, 450, "NVMe (E1.S)", 3.84, 7, 6, 17, 41667, "spec"});
inline constexpr hardware b300_hgx = from_row({"B300 (HGX)", 288, 8, 8.0, 2250, 4500, 13125, 150, 1100, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 8, "ConnectX-8 800G", 800, 2, 8, "DDR5", 250, 128, "NVMe", 3.84, 7, 6, 17, 0, "spec"});
inline constexpr hardware gb300_nvl72 = from_row({"GB300 (NVL72)", 288, 8, 8.0, 2500, 5000, 15300, 165, 1400, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 72, "ConnectX-8 800G", 800, 2, 4, "LPDDR5X (Grace)", 240, 450, "NVMe (E1.S)", 3.84, 7, 6, 17, 48611, "spec"});
inline constexpr hardware rubin_vr200 = from_row({"Rubin (VR200 NVL144)", 288, 8, 22.0, 0, 0, 25000, 0, 1800, 180, 0.919, 0.6093, 798, 0.331, 4, "NVLink 6", 3600, 3.7, 72, "ConnectX-9 1.6T", 1600, 2, 4, "LPDDR5X (Vera)", 240, 900, "NVMe", 3.84, 7, 6, 30, 0, "preliminary"});
inline constexpr hardware mi300x = from_row({"MI300X", 192, 8, 5.3, 1307.4, 2614.9, 0, 2614.9, 750, 133, 0.87, 0.7153, 798, 0.331, 4, "Infinity Fabric", 896, 3.7, 8, "400G NIC", 400, 2, 8, "DDR5", 206.2, 64, "NVMe", 0.875, 7, 6, 17, 15000, "spec"});
inline constexpr hardware mi325x = from_row({"MI325X", 256, 8, 6.0, 1307.4, 2614.9, 0, 2614.9, 1000, 100, 0.87, 0.7153, 798, 0.331, 4, "Infinity Fabric", 896, 3.7, 8, "400G NIC", 400, 2, 8, "DDR5", 206.2, 64, "NVMe", 0.875, 7, 6, 17, 0, "spec"});
inline constexpr hardware mi355x = from_row({"MI355X", 288, 8, 8.0, 2500, 5000, 10000, 0, 1400, 140, 0.87, 0.7153, 798, 0.331, 4, "Infinity Fabric", 1075, 3.7, 8, "400G NIC", 400, 2, 8, "DDR5", 375, 64, "NVMe", 0.875, 7, 6, 17, 0, "spec"});
/// The seed's dashboard GPU (S7–S10, S29, S30, S39): its figures are already effective rates.
inline constexpr hardware seed_dashboard_gpu = from_row({"Seed dashboard GPU", 288, 8, 20.0, 1000, 2000, 0, 0, 1500, 150, 1, 1, 0, 1, 0, "NVLink (seed)", 1800, 3.7, 72, "400G NIC", 400, 2, 4, "LPDDR5X", 240, 450, "NVMe", 3.84, 7, 6, 30, 0, "seed"});
// clang-format on

inline constexpr std::array all_hardware{h100_sxm5,   h200_sxm,    h800_sxm,    b200_hgx,
                                         gb200_nvl72, b300_hgx,    gb300_nvl72, rubin_vr200,
                                         mi300x,      mi325x,      mi355x,      seed_dashboard_gpu};

/// The seed's site: 1.3 server overhead and 1.2 cooling (S30); US industrial electricity,
/// $0.0806/kWh (EIA 2023 average via Statista); 5-year straight-line depreciation (a common
/// schedule for servers; T7's economics restate it where it matters).
inline constexpr facility seed_site = checked(facility{
    .name = "seed site",
    .server_overhead = 1.3,
    .cooling = 1.2,
    .electricity = dollars_per_kilowatt_hour(0.0806),
    .depreciation = years(5.0)});

}  // namespace llmcost::catalog
