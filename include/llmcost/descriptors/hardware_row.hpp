#pragma once
/// \file
/// The row schema of `tables/hardware.csv`, shared by the constexpr catalog (catalog/hardware.hpp
/// writes its entries as rows) and the CSV loader (io/hardware_csv.hpp reads rows into the same
/// struct): both go through `from_row`, so a catalog entry and the row it transcribes agree field
/// for field.

#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/units/makers.hpp>

#include <string_view>

namespace llmcost {

/// One row of `tables/hardware.csv`, in the units of its column names. The `hbm_*` columns hold
/// the card's device memory whatever its kind (GDDR6 on the L4 and L40S, counted as one stack).
struct hardware_row {
    std::string_view name;
    double hbm_capacity_GiB, hbm_stacks, hbm_bandwidth_TBps;
    double bf16_dense_TFLOPS, fp8_dense_TFLOPS, fp4_dense_TFLOPS, int8_dense_TOPS;
    double board_power_W, idle_power_W, hbm_efficiency, matmul_efficiency, matmul_half_dim,
        attention_efficiency, kernel_overhead_us;
    std::string_view scaleup_link;
    double scaleup_GBps_bidirectional, scaleup_latency_us, scaleup_domain_gpus;
    std::string_view scaleout_nic;
    double scaleout_Gbps_per_gpu, scaleout_latency_us, gpus_per_node;
    std::string_view host_memory;
    double host_memory_GB_per_gpu, host_link_GBps_per_direction;
    std::string_view storage;
    double storage_TB_per_gpu, storage_read_GBps_per_gpu, transceivers_per_gpu, transceiver_W,
        capex_usd_per_gpu;
    std::string_view status;
    double compute_clock_MHz;  ///< optional column: the clock the compute fractions hold at; 0: not stated
    /// optional column: the fraction of the datasheet dense FP4 peak the GPU sustains on GEMMs; 1: the datasheet's
    double fp4_sustained_fraction;
    /// optional column: the device memory the runtime reports as the total, MiB (nvidia-smi); 0: the spec capacity
    double runtime_capacity_MiB;
};

/// The typed descriptor of a table row. The scale-up figure counts both directions (vendor
/// convention) and is halved here; the NIC's line rate is per direction (seed S36).
[[nodiscard]] constexpr hardware from_row(const hardware_row& r) {
    return hardware{
        .name = r.name,
        .gpu = {.name = r.name,
                .hbm_capacity = gibibytes(r.hbm_capacity_GiB),
                .hbm_stacks = static_cast<int>(r.hbm_stacks),
                .hbm_bandwidth = terabytes_per_second(r.hbm_bandwidth_TBps),
                .dense = {.bf16 = teraflops_per_second(r.bf16_dense_TFLOPS),
                          .fp8 = teraflops_per_second(r.fp8_dense_TFLOPS),
                          .fp4 = teraflops_per_second(r.fp4_dense_TFLOPS),
                          .int8 = teraflops_per_second(r.int8_dense_TOPS)},
                .board_power = watts(r.board_power_W),
                .idle_power = watts(r.idle_power_W),
                .efficiency = {.hbm = r.hbm_efficiency,
                               .matmul = r.matmul_efficiency,
                               .matmul_half_dim = r.matmul_half_dim,
                               .attention = r.attention_efficiency,
                               .kernel_overhead = microseconds(r.kernel_overhead_us),
                               .compute_clock_MHz = r.compute_clock_MHz,
                               .fp4_sustained = r.fp4_sustained_fraction},
                // the driver's share: the spec less the runtime's total, where the table gives one
                .driver_reserved = r.runtime_capacity_MiB != 0.0 ? gibibytes(r.hbm_capacity_GiB) - mebibytes(r.runtime_capacity_MiB)
                                                                : bytes(0.0)},
        .scale_up = interconnect::from_bidirectional(r.scaleup_link,
                                             gigabytes_per_second(r.scaleup_GBps_bidirectional),
                                             microseconds(r.scaleup_latency_us)),
        .scale_up_domain = static_cast<int>(r.scaleup_domain_gpus),
        .scale_out = {.name = r.scaleout_nic,
                      .per_direction = gigabits_per_second(r.scaleout_Gbps_per_gpu),
                      .latency = microseconds(r.scaleout_latency_us)},
        .gpus_per_node = static_cast<int>(r.gpus_per_node),
        .host_memory = {.name = r.host_memory,
                        .capacity = gigabytes(r.host_memory_GB_per_gpu),
                        .bandwidth = gigabytes_per_second(r.host_link_GBps_per_direction)},
        .storage = {.name = r.storage,
                    .capacity = terabytes(r.storage_TB_per_gpu),
                    .bandwidth = gigabytes_per_second(r.storage_read_GBps_per_gpu)},
        .transceivers_per_gpu = static_cast<int>(r.transceivers_per_gpu),
        .transceiver_power = watts(r.transceiver_W),
        .capex_per_gpu = dollars(r.capex_usd_per_gpu),
        .status = r.status,
    };
}

}  // namespace llmcost
