#pragma once
/// \file
/// The `llmcost` tool's planning commands (the Eigen layer, plan/): options in, a report out. Kept
/// apart from commands.hpp so that only this translation unit pays for Eigen.

#include "commands.hpp"
#include "report.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace llmcost::cli {

/// `llmcost calibrate FILE.csv`: fit efficiency parameters of one GPU to measured rows.
struct calibrate_command {
    std::string csv_path;  ///< measurements in plan/measurements_csv.hpp's format
    /// Parameters to fit, by name (`calibration_parameter_names()`); the others keep the catalog's values.
    /// The default pair is the one any mix of decode (bandwidth-bound) and prefill (compute-bound)
    /// rows determines, even a handful of them.
    std::vector<std::string> free_parameters{"hbm", "matmul"};
    double coverage = 0.8;          ///< of the prediction intervals, in (0, 1)
    bool with_uncertainty = false;  ///< print each row's prediction interval
    bool all_rows = false;          ///< fit check rows too
    /// --engine: price every row with this engine's profile for the row's GPU (refused where it has
    /// none); empty: each row as loaded (the reference engine)
    std::string engine;
    std::ostream* progress = nullptr;  ///< where a long fit says what it is doing (stderr)
};

/// Fitted parameters ± standard errors, their correlations, and each row's measured and predicted
/// figure (with its interval when asked). Unknown parameter names and a coverage outside (0, 1)
/// are usage errors; refusals of the fit (too few rows, a parameter the rows cannot determine,
/// several GPUs, a row the cost model refuses) are invalid_input, and a bad file a load_error.
[[nodiscard]] report calibrate(const calibrate_command& c);

/// The names `--free` accepts: "hbm", "matmul", "matmul_half_dim", "attention", "kernel_overhead",
/// "link_latency", "link_fraction", "request_overhead", "host_enqueue", "cold_start", "cold_prompt_token",
/// "first_use_build", "prefill_request", "v0_pass", "v0_pass_rank", "v0_pass_sequence", "v0_output_token",
/// "padded_moe_block".
[[nodiscard]] std::vector<std::string> calibration_parameter_names();

}  // namespace llmcost::cli
