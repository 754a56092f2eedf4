#pragma once
/// \file
/// Catalog of accelerators and systems. Each entry is one row of `tables/hardware.csv`, in the
/// CSV's own units, turned into a typed `hardware` by `from_row` (descriptors/hardware_row.hpp); a
/// test loads the CSV through the same function and checks that both agree field for field. Every
/// figure's source is in the CSV. Every entry is validated at compile time, once, in
/// tests/static/catalog_static.cpp (not in every translation unit that includes the catalog).
/// The `hbm_*` fields hold a card's device memory whatever its kind: GDDR6 on the L4 and L40S
/// (one "stack"), HBM elsewhere. PCIe cards without NVLink (A100 PCIe, H100 PCIe, L40S, L4) have
/// PCIe as their scale-up link, with its own bandwidth. Every entry has a price (`capex_per_gpu`);
/// where none was published for a part, the CSV names the part whose price is borrowed and why.

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/hardware_row.hpp>

#include <array>

namespace llmcost::catalog {

// clang-format off
// name | HBM GiB, stacks, TB/s | dense TFLOP/s bf16, fp8, fp4, int8 | W board, idle |
// eff hbm, matmul (asymptotic), matmul half-dim, attention, kernel overhead µs |
// scale-up link, GB/s both ways, µs, domain | NIC, Gb/s, µs, GPUs/node | host, GB/GPU, GB/s |
// storage, TB/GPU, GB/s | transceivers, W | capex $/GPU | status | compute clock MHz | FP4 sustained fraction |
// runtime capacity MiB (0: the spec capacity)
inline constexpr hardware h100_sxm5 = from_row({"H100 SXM5", 80, 5, 3.35, 989.4, 1978.9, 0, 1978.9, 700, 70, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5 (DGX H100)", 250, 64, "NVMe (DGX)", 3.84, 7, 6, 17, 24875, "spec", 0, 1, 81105.6875});
inline constexpr hardware h200_sxm = from_row({"H200 SXM", 141, 6, 4.8, 989.4, 1978.9, 0, 1978.9, 700, 75, 0.835, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5 (DGX H200)", 250, 64, "NVMe (DGX)", 3.84, 7, 6, 17, 32000, "spec", 0, 1, 143071.875});
inline constexpr hardware h800_sxm = from_row({"H800 SXM", 80, 5, 3.35, 989.4, 1978.9, 0, 1978.9, 700, 70, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4 (reduced)", 400, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 30000, "spec", 0, 1, 0});
inline constexpr hardware b200_hgx = from_row({"B200 (HGX)", 180, 8, 8.0, 2250, 4500, 9000, 4500, 1000, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5 (DGX B200)", 250, 64, "NVMe (DGX B200)", 3.84, 7, 6, 17, 40000, "spec", 0, 1, 182630});
inline constexpr hardware gb200_nvl72 = from_row({"GB200 (NVL72)", 186, 8, 8.0, 2500, 5000, 10000, 5000, 1200, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 72, "ConnectX-7 400G", 400, 5.8, 4, "LPDDR5X (Grace)", 240, 450, "NVMe (E1.S)", 3.84, 7, 6, 17, 41667, "spec", 0, 1, 0});
inline constexpr hardware b300_hgx = from_row({"B300 (HGX)", 288, 8, 8.0, 2250, 4500, 13125, 150, 1100, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 8, "ConnectX-8 800G", 800, 5.8, 8, "DDR5", 250, 128, "NVMe", 3.84, 7, 6, 17, 50000, "spec", 0, 0.8702, 0});
inline constexpr hardware gb300_nvl72 = from_row({"GB300 (NVL72)", 288, 8, 8.0, 2500, 5000, 15300, 165, 1400, 140, 0.919, 0.6093, 798, 0.331, 4, "NVLink 5", 1800, 3.7, 72, "ConnectX-8 800G", 800, 5.8, 4, "LPDDR5X (Grace)", 240, 450, "NVMe (E1.S)", 3.84, 7, 6, 17, 48611, "spec", 0, 0.7938, 0});
inline constexpr hardware rubin_vr200 = from_row({"Rubin (VR200 NVL144)", 288, 8, 22.0, 0, 0, 25000, 0, 1800, 180, 0.919, 0.6093, 798, 0.331, 4, "NVLink 6", 3600, 3.7, 72, "ConnectX-9 1.6T", 1600, 5.8, 4, "LPDDR5X (Vera)", 240, 900, "NVMe", 3.84, 7, 6, 30, 108377, "preliminary", 0, 1, 0});
inline constexpr hardware mi300x = from_row({"MI300X", 192, 8, 5.3, 1307.4, 2614.9, 0, 2614.9, 750, 133, 0.783, 0.4738, 1016, 0.2513, 4, "Infinity Fabric", 896, 8.05, 8, "400G NIC", 400, 16.75, 8, "DDR5", 206.2, 64, "NVMe", 0.875, 7, 6, 17, 15000, "spec", 0, 1, 196592});
inline constexpr hardware mi325x = from_row({"MI325X", 256, 8, 6.0, 1307.4, 2614.9, 0, 2614.9, 1000, 100, 0.783, 0.5975, 1100, 0.2513, 4, "Infinity Fabric", 896, 8.05, 8, "400G NIC", 400, 16.75, 8, "DDR5", 206.2, 64, "NVMe", 0.875, 7, 6, 17, 15000, "spec", 1700, 1, 0});
inline constexpr hardware mi355x = from_row({"MI355X", 288, 8, 8.0, 2500, 5000, 10000, 5000, 1400, 140, 0.8813, 0.6793, 798, 0.331, 4, "Infinity Fabric", 1075, 3.7, 8, "400G NIC", 400, 16.75, 8, "DDR5", 375, 64, "NVMe", 0.875, 7, 6, 17, 15000, "spec", 0, 1, 0});
inline constexpr hardware a100_sxm_80gb = from_row({"A100 SXM 80GB", 80, 5, 2.039, 312, 0, 0, 624, 400, 59, 0.79, 0.8313, 183, 0.575, 4, "NVLink 3", 600, 3.7, 8, "ConnectX-6 200G", 200, 5.8, 8, "DDR4 (DGX A100 640GB)", 250, 32, "NVMe (DGX A100 640GB)", 3.84, 7, 6, 17, 15000, "spec", 0, 1, 81157.75});
inline constexpr hardware a100_sxm_40gb = from_row({"A100 SXM 40GB", 40, 5, 1.555, 312, 0, 0, 624, 400, 59, 0.79, 0.8313, 183, 0.575, 4, "NVLink 3", 600, 3.7, 8, "ConnectX-6 200G", 200, 5.8, 8, "DDR4 (DGX A100 320GB)", 125, 32, "NVMe (DGX A100 320GB)", 1.92, 3.5, 6, 17, 15000, "spec", 0, 1, 0});
inline constexpr hardware a100_pcie_80gb = from_row({"A100 PCIe 80GB", 80, 5, 1.935, 312, 0, 0, 624, 300, 59, 0.79, 0.7752, 183, 0.575, 4, "PCIe Gen4 x16 (no NVLink)", 64, 3.7, 8, "200G NIC", 200, 5.8, 8, "DDR4", 125, 32, "NVMe", 3.84, 7, 6, 17, 15000, "spec", 0, 1, 0});
inline constexpr hardware a100_pcie_40gb = from_row({"A100 PCIe 40GB", 40, 5, 1.555, 312, 0, 0, 624, 250, 59, 0.79, 0.7752, 183, 0.575, 4, "PCIe Gen4 x16 (no NVLink)", 64, 3.7, 8, "200G NIC", 200, 5.8, 8, "DDR4", 125, 32, "NVMe", 3.84, 7, 6, 17, 7099, "spec", 0, 1, 0});
inline constexpr hardware h100_pcie = from_row({"H100 PCIe", 80, 5, 2, 756.5, 1513, 0, 1513, 350, 62, 0.866, 0.7153, 798, 0.331, 4, "PCIe Gen5 x16 (no NVLink)", 128, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 25249.95, "spec", 0, 1, 0});
inline constexpr hardware h100_nvl = from_row({"H100 NVL", 94, 6, 3.9, 835.5, 1670.5, 0, 1670.5, 400, 62, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4 bridge (pair)", 600, 3.7, 2, "ConnectX-7 400G", 400, 5.8, 8, "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 25249.95, "spec", 0, 1, 95235.4375});
inline constexpr hardware h20 = from_row({"H20", 96, 6, 4, 148, 296, 0, 296, 400, 40, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 8, "ConnectX-7 400G", 400, 5.8, 8, "DDR5", 250, 64, "NVMe", 3.84, 7, 6, 17, 13500, "spec", 0, 1, 0});
inline constexpr hardware gh200 = from_row({"GH200", 96, 6, 4, 989.4, 1978.9, 0, 1978.9, 1000, 100, 0.866, 0.7153, 798, 0.331, 4, "NVLink 4", 900, 3.7, 4, "ConnectX-7 400G", 400, 5.8, 4, "LPDDR5X (Grace)", 480, 450, "NVMe (E1.S)", 3.84, 7, 6, 17, 30000, "spec", 0, 1, 96768});
inline constexpr hardware l40s = from_row({"L40S", 48, 1, 0.864, 362.05, 733, 0, 733, 350, 33, 0.866, 0.7153, 798, 0.331, 4, "PCIe Gen4 x16 (no NVLink)", 64, 3.7, 8, "200G NIC", 200, 5.8, 8, "DDR", 125, 32, "NVMe", 3.84, 7, 6, 17, 8500, "spec", 0, 1, 45589.0625});
inline constexpr hardware l4 = from_row({"L4", 24, 1, 0.3, 121, 242.5, 0, 242.5, 72, 16, 0.866, 0.7153, 798, 0.331, 4, "PCIe Gen4 x16 (no NVLink)", 64, 3.7, 8, "200G NIC", 200, 5.8, 8, "DDR", 125, 32, "NVMe", 3.84, 7, 6, 17, 2500, "spec", 0, 1, 22478.3125});
/// The seed's dashboard GPU (S7–S10, S29, S30, S39): its figures are already effective rates.
inline constexpr hardware seed_dashboard_gpu = from_row({"Seed dashboard GPU", 288, 8, 20.0, 1000, 2000, 0, 0, 1500, 150, 1, 1, 0, 1, 0, "NVLink (seed)", 1800, 3.7, 72, "400G NIC", 400, 2, 4, "LPDDR5X", 240, 450, "NVMe", 3.84, 7, 6, 30, 108377, "seed", 0, 1, 0});
// clang-format on

inline constexpr std::array all_hardware{h100_sxm5, h200_sxm, h800_sxm, b200_hgx,
                                         gb200_nvl72, b300_hgx, gb300_nvl72, rubin_vr200,
                                         mi300x, mi325x, mi355x, a100_sxm_80gb,
                                         a100_sxm_40gb, a100_pcie_80gb, a100_pcie_40gb, h100_pcie,
                                         h100_nvl, h20, gh200, l40s,
                                         l4, seed_dashboard_gpu};

/// The seed's site: 1.3 server overhead and 1.2 cooling (S30); US industrial electricity,
/// $0.0806/kWh (EIA 2023 average via Statista); 5-year straight-line depreciation (a common
/// schedule for servers; T7's economics restate it where it matters).
inline constexpr facility seed_site = {
    .name = "seed site",
    .server_overhead = 1.3,
    .cooling = 1.2,
    .electricity = dollars_per_kilowatt_hour(0.0806),
    .depreciation = years(5.0)};

}  // namespace llmcost::catalog
