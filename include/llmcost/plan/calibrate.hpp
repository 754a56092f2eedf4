#pragma once
/// \file
/// Calibration with uncertainty: fit some of a hardware's efficiency parameters (measurement.hpp)
/// to measured figures, report each with a standard error, and turn the fit's residual spread into
/// an interval around any new prediction.
///
/// The fit minimises Σᵢ rᵢ², rᵢ = ln(predictedᵢ ÷ measuredᵢ), over the free parameters by
/// Levenberg–Marquardt (Marquardt's diagonal scaling, Nielsen's damping update) with a
/// central-difference Jacobian, inside box bounds:
/// - fractions (`hbm`, `matmul`, `attention`, `link_fraction`) in (0, max_fraction], 1 by default
///   and never above (every pricing path validates the hardware, and `hardware::validate` refuses a
///   fraction above 1): fitted as θ = ln f, so they stay positive, and clipped at ln max_fraction.
///   A fit that ends at 1 says the datasheet undersells the part or the cost model overcounts the
///   work (`fitted_parameter::at_bound`);
/// - n₀ (`matmul_half_dim`) ≥ 0 and the times (`kernel_overhead`, `link_latency`) ≥ 0, which can be
///   exactly 0 (no size effect, no latency): fitted as θ = v ÷ scale (scale = max(|start|, a typical
///   size)) and clipped at 0; `kernel_overhead` also below 1 ms, the descriptor's own rule.
///
/// One calibration fits one hardware: every fitted row must run on the same descriptor (rows of
/// several GPUs are refused, naming two of them; fit each GPU's rows on their own). Rows with
/// `check == true` are not fitted unless asked (`include_check_rows`).
///
/// Standard errors come from the linearisation at the optimum, Cov = (JᵀJ)⁻¹ · s² with
/// s² = RSS ÷ (n − p), J taken in natural units (s for times). Prediction intervals are the
/// linearised ones of nonlinear least squares (Seber & Wild, *Nonlinear Regression*, 1989):
/// ln ŷ ± t₍₁₊c₎⁄₂,ₙ₋ₚ · √(s² + gᵀ Cov g), g = ∂ ln ŷ ÷ ∂ parameters. They assume that the residuals of
/// new rows scatter like those of the fitted ones: rows unlike any fitted row (another regime,
/// another model family) can miss by more.
///
/// The fit, the covariance and the Student-t quantile are compiled once, in the `llmcost_plan`
/// library (calibrate-inl.hpp); define `LLMCOST_HEADER_ONLY` to compile them here instead.
///
/// **Example**
/// \code
/// const auto rows = io::load_measurements_csv("my_runs.csv");
/// const plan::calibration_result fit = plan::calibrate(rows, {.free = {plan::parameter::hbm,
///                                                                     plan::parameter::kernel_overhead}});
/// const plan::prediction_interval tpot = plan::predict_with_uncertainty(rows[0], fit, 0.8);
/// \endcode

#include <llmcost/detail/header_only.hpp>
#include <llmcost/plan/measurement.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::plan {

/// One member of `efficiency_parameters`.
enum class parameter {
    hbm,
    matmul,
    matmul_half_dim,
    attention,
    kernel_overhead,
    link_latency,
    link_fraction,
    request_overhead,  ///< the rows' engine's per-request front end (`engine_overheads::request`), not the hardware's
    host_enqueue,      ///< the rows' engine's host enqueue per kernel without CUDA graphs (`engine_overheads::host_enqueue`)
    cold_start,        ///< the rows' engine's cold opening of a benchmark run, once (`engine_overheads::cold_start`)
    cold_prompt_token, ///< and its cost per opening prompt token (`engine_overheads::cold_prompt_token`)
    first_use_build,   ///< the rows' engine's first-use kernel build in a cold run, once (`engine_overheads::first_use_build`)
    prefill_request,   ///< the rows' engine's host time per request of a serial prompt step (`engine_overheads::prefill_request`)
    v0_pass,           ///< the rows' engine's V0 scheduler pass, its fixed host time (`engine_overheads::v0_pass`)
    v0_pass_rank,      ///< and its host time per TP rank beyond the first (`engine_overheads::v0_pass_rank`)
    v0_pass_sequence,  ///< and its host time per scheduled sequence (`engine_overheads::v0_pass_sequence`)
    v0_output_token,   ///< V0's synchronous output processing per sequence-step (`engine_overheads::v0_output_token`)
    padded_moe_block,  ///< a padded expert-runner m-block's time (`engine_moe::padded_moe_block`)
};

inline constexpr std::array all_parameters{parameter::hbm,          parameter::matmul,
                                           parameter::matmul_half_dim, parameter::attention,
                                           parameter::kernel_overhead, parameter::link_latency,
                                           parameter::link_fraction, parameter::request_overhead,
                                           parameter::host_enqueue, parameter::cold_start,
                                           parameter::cold_prompt_token, parameter::first_use_build,
                                           parameter::prefill_request, parameter::v0_pass,
                                           parameter::v0_pass_rank, parameter::v0_pass_sequence,
                                           parameter::v0_output_token, parameter::padded_moe_block};

/// The member's name: "hbm", "matmul_half_dim", …
[[nodiscard]] constexpr std::string_view to_string(parameter p) {
    switch (p) {
        case parameter::hbm: return "hbm";
        case parameter::matmul: return "matmul";
        case parameter::matmul_half_dim: return "matmul_half_dim";
        case parameter::attention: return "attention";
        case parameter::kernel_overhead: return "kernel_overhead";
        case parameter::link_latency: return "link_latency";
        case parameter::link_fraction: return "link_fraction";
        case parameter::request_overhead: return "request_overhead";
        case parameter::host_enqueue: return "host_enqueue";
        case parameter::cold_start: return "cold_start";
        case parameter::cold_prompt_token: return "cold_prompt_token";
        case parameter::first_use_build: return "first_use_build";
        case parameter::prefill_request: return "prefill_request";
        case parameter::v0_pass: return "v0_pass";
        case parameter::v0_pass_rank: return "v0_pass_rank";
        case parameter::v0_pass_sequence: return "v0_pass_sequence";
        case parameter::v0_output_token: return "v0_output_token";
        case parameter::padded_moe_block: return "padded_moe_block";
    }
    return "?";
}

/// What the parameter means, for people.
[[nodiscard]] constexpr std::string_view description(parameter p) {
    switch (p) {
        case parameter::hbm: return "sustained / spec HBM bandwidth";
        case parameter::matmul: return "large-GEMM rate / dense peak (e_inf)";
        case parameter::matmul_half_dim: return "GEMM size curve half-size n0";
        case parameter::attention: return "fused attention rate / BF16 peak";
        case parameter::kernel_overhead: return "overhead per kernel";
        case parameter::link_latency: return "scale-up link latency (alpha)";
        case parameter::link_fraction: return "scale-up link achieved / catalogued bandwidth";
        case parameter::request_overhead: return "engine front end per request (outside the steps)";
        case parameter::host_enqueue: return "engine host enqueue per kernel, CUDA graphs off";
        case parameter::cold_start: return "engine cold opening of a benchmark run, once";
        case parameter::cold_prompt_token: return "engine cold opening per opening prompt token";
        case parameter::first_use_build: return "engine first-use kernel build of a cold benchmark run, once";
        case parameter::prefill_request: return "engine host time per request of a serial prompt step";
        case parameter::v0_pass: return "vLLM V0 scheduler pass, fixed host time";
        case parameter::v0_pass_rank: return "vLLM V0 scheduler pass, host time per TP rank beyond the first";
        case parameter::v0_pass_sequence: return "vLLM V0 scheduler pass, host time per scheduled sequence";
        case parameter::v0_output_token: return "vLLM V0 synchronous output processing, host time per sequence-step";
        case parameter::padded_moe_block: return "expert runner over a padded all-to-all buffer, time per m-block";
    }
    return "?";
}

/// SI unit of the parameter: "s" for times, "" for fractions and n₀ (a matrix dimension).
[[nodiscard]] constexpr std::string_view unit_of(parameter p) {
    return p == parameter::kernel_overhead || p == parameter::link_latency || p == parameter::request_overhead ||
                   p == parameter::host_enqueue || p == parameter::cold_start || p == parameter::cold_prompt_token ||
                   p == parameter::first_use_build || p == parameter::prefill_request || p == parameter::v0_pass ||
                   p == parameter::v0_pass_rank || p == parameter::v0_pass_sequence || p == parameter::v0_output_token ||
                   p == parameter::padded_moe_block
               ? "s"
               : "";
}

/// True for the parameters that are fractions of a datasheet figure.
[[nodiscard]] constexpr bool is_fraction(parameter p) {
    return p == parameter::hbm || p == parameter::matmul || p == parameter::attention || p == parameter::link_fraction;
}

/// The parameter called `name` (as `to_string` spells it), if there is one.
[[nodiscard]] constexpr std::optional<parameter> parameter_named(std::string_view name) {
    for (parameter p : all_parameters)
        if (to_string(p) == name) return p;
    return std::nullopt;
}

[[nodiscard]] constexpr double& value_of(efficiency_parameters& e, parameter p) {
    switch (p) {
        case parameter::hbm: return e.hbm;
        case parameter::matmul: return e.matmul;
        case parameter::matmul_half_dim: return e.matmul_half_dim;
        case parameter::attention: return e.attention;
        case parameter::kernel_overhead: return e.kernel_overhead;
        case parameter::link_latency: return e.link_latency;
        case parameter::link_fraction: return e.link_fraction;
        case parameter::request_overhead: return e.request_overhead;
        case parameter::host_enqueue: return e.host_enqueue;
        case parameter::cold_start: return e.cold_start;
        case parameter::cold_prompt_token: return e.cold_prompt_token;
        case parameter::first_use_build: return e.first_use_build;
        case parameter::prefill_request: return e.prefill_request;
        case parameter::v0_pass: return e.v0_pass;
        case parameter::v0_pass_rank: return e.v0_pass_rank;
        case parameter::v0_pass_sequence: return e.v0_pass_sequence;
        case parameter::v0_output_token: return e.v0_output_token;
        case parameter::padded_moe_block: return e.padded_moe_block;
    }
    return e.hbm;
}
[[nodiscard]] constexpr double value_of(const efficiency_parameters& e, parameter p) {
    efficiency_parameters copy = e;
    return value_of(copy, p);
}

/// What to fit, from where, within which bounds.
struct calibration_options {
    /// The parameters to fit; the others keep their values in `start`.
    std::vector<parameter> free{parameter::hbm, parameter::matmul, parameter::matmul_half_dim,
                                parameter::kernel_overhead};
    /// Where the fit starts, and the values of the parameters that are not free; none: the rows'
    /// hardware as it stands (`parameters_of`).
    std::optional<efficiency_parameters> start{};
    bool include_check_rows = false;  ///< fit check rows too (all rows)
    double max_fraction = 1.0;        ///< upper bound of every fraction, in (0, 1]
    int max_iterations = 200;         ///< Levenberg–Marquardt iterations (tried steps)
};

/// One free parameter after the fit.
struct fitted_parameter {
    parameter which{};
    double value = 0;           ///< SI: seconds for times
    double standard_error = 0;  ///< √Cov_kk, Cov = (JᵀJ)⁻¹ · s²
    double start = 0;
    bool at_bound = false;      ///< the fit ended on a bound: its standard error understates the doubt
};

/// One fitted row at the fitted parameters.
struct row_residual {
    std::string id;
    metric what = metric::output_tokens_per_s;
    double measured = 0;        ///< SI (tokens/s or s)
    double predicted = 0;       ///< SI
    double relative_error = 0;  ///< predicted ÷ measured − 1
    double log_residual = 0;    ///< ln(predicted ÷ measured), what the fit squares
};

struct calibration_result {
    hardware base;                       ///< the rows' hardware as it stood
    efficiency_parameters start;         ///< where the fit started (and the fixed values)
    efficiency_parameters fitted;        ///< start with the free parameters replaced by their fit
    std::vector<fitted_parameter> parameters;  ///< the free ones, in the order asked
    std::vector<row_residual> residuals;       ///< one per fitted row, in input order
    Eigen::MatrixXd covariance;          ///< of the free parameters, natural units: (JᵀJ)⁻¹ · s²
    Eigen::MatrixXd correlation;         ///< Cov_ij ÷ √(Cov_ii · Cov_jj)
    double rss = 0;                      ///< Σ ln(predicted ÷ measured)²
    double sigma = 0;                    ///< s = √(RSS ÷ (n − p)): the spread of ln(predicted ÷ measured)
    int rows = 0;                        ///< n: rows fitted
    int dof = 0;                         ///< n − p
    int iterations = 0;
    bool converged = false;
    std::string stop_reason;

    /// The hardware with the fitted parameters: with_efficiencies(base, fitted).
    [[nodiscard]] hardware calibrated() const { return with_efficiencies(base, fitted); }
    /// The fit of parameter p, or nullptr when p was not free.
    [[nodiscard]] const fitted_parameter* find(parameter p) const {
        for (const fitted_parameter& f : parameters)
            if (f.which == p) return &f;
        return nullptr;
    }
};

/// A prediction with its interval, in the figure's SI unit.
struct prediction_interval {
    double value = 0;     ///< the prediction at the fitted parameters
    double low = 0;       ///< value · e^(−half), half = t · √(s² + gᵀ Cov g)
    double high = 0;      ///< value · e^(+half)
    double coverage = 0;  ///< the share of new measurements the interval is meant to hold

    [[nodiscard]] bool contains(double measured) const { return measured >= low && measured <= high; }
};

namespace detail::calibration {

/// Relative step of the numerical Jacobian in θ: 10⁻⁴ (a 0.01 % change of a fraction). Truncation
/// error ~h² = 10⁻⁸; rounding and the online fixed point (10⁻⁹) add ~10⁻⁵ of a derivative at most.
inline constexpr double jacobian_step = 1e-4;

/// Typical sizes of n₀ and the times, so that θ is of order one even when the start is 0.
[[nodiscard]] constexpr double typical(parameter p) {
    return p == parameter::matmul_half_dim ? 256.0
           : p == parameter::request_overhead || p == parameter::prefill_request || p == parameter::v0_pass ||
                     p == parameter::v0_pass_rank
                 ? 1e-3
           : p == parameter::v0_pass_sequence ? 1e-4
           : p == parameter::v0_output_token ? 1e-5
           : p == parameter::padded_moe_block ? 1e-9
           : p == parameter::cold_start || p == parameter::first_use_build ? 1.0
                                              : 1e-6;
}

/// The interval value · e^(±half), half = t₍₁₊c₎⁄₂,ₙ₋ₚ · √(s² + gᵀ Cov g), from the gradient
/// g = ∂ ln ŷ ÷ ∂ parameters (natural units, in the order of `fit.parameters`).
[[nodiscard]] prediction_interval interval(double value, const Eigen::VectorXd& g, const calibration_result& fit,
                                           double coverage);

}  // namespace detail::calibration

/// Fits `options.free` to `rows` (those with check == false, or all with `include_check_rows`) by
/// least squares on ln(predicted ÷ measured). Refuses (invalid_input) n ≤ p, rows on different
/// hardware, a start outside the bounds, a parameter the rows cannot determine (named), and a row
/// whose prediction throws (named by its id).
[[nodiscard]] calibration_result calibrate(std::span<const measurement> rows, const calibration_options& options = {});

/// The interval around `figure(calibrated hardware)` that should hold a new measurement with
/// probability `coverage`: ln ŷ ± t₍₁₊c₎⁄₂,ₙ₋ₚ · √(s² + gᵀ Cov g) (see the file comment). `figure`
/// prices anything on a hardware descriptor: a deployment and a scenario, e.g.
/// `[&](const hardware& h) { deployment e = d; e.hw = h; return serve_at_batch(e, r, 32).tpot.value(); }`.
template <class Figure>
    requires std::invocable<Figure&, const hardware&>
[[nodiscard]] prediction_interval predict_with_uncertainty(Figure&& figure, const calibration_result& fit,
                                                           double coverage = 0.8) {
    require(coverage > 0.0 && coverage < 1.0, "prediction interval", "coverage", coverage, "must be in (0, 1)");
    require(fit.dof >= 1 && !fit.parameters.empty(), "prediction interval", "calibration dof", fit.dof,
            "needs a calibration with more rows than parameters");
    auto at = [&](const efficiency_parameters& p) {
        const double v = static_cast<double>(figure(with_efficiencies(fit.base, p)));
        require(positive_finite(v), "prediction interval", "prediction", v, "the figure must be positive and finite");
        return v;
    };
    const double value = at(fit.fitted);
    // g_k = ∂ ln ŷ ÷ ∂v_k by central differences of relative step 10⁻⁴ (one-sided at zero).
    const auto p = static_cast<Eigen::Index>(fit.parameters.size());
    Eigen::VectorXd g(p);
    for (Eigen::Index k = 0; k < p; ++k) {
        const fitted_parameter& q = fit.parameters[static_cast<std::size_t>(k)];
        const double v = q.value;
        const double h = detail::calibration::jacobian_step *
                         (is_fraction(q.which) ? v : std::max(std::abs(v), detail::calibration::typical(q.which)));
        efficiency_parameters up = fit.fitted, down = fit.fitted;
        value_of(up, q.which) = v + h;
        value_of(down, q.which) = std::max(0.0, v - h);
        g(k) = (std::log(at(up)) - std::log(at(down))) / (value_of(up, q.which) - value_of(down, q.which));
    }
    return detail::calibration::interval(value, g, fit, coverage);
}

/// Measurement `x` as the fit prices it: the fitted hardware, and the fitted front end on x's
/// engine where `request_overhead` was free (else x's engine keeps its own).
[[nodiscard]] inline measurement as_fitted(measurement x, const calibration_result& fit) {
    x.d.hw = fit.calibrated();
    if (fit.find(parameter::request_overhead) != nullptr) x.d.engine.overheads.request = seconds(fit.fitted.request_overhead);
    if (fit.find(parameter::host_enqueue) != nullptr) x.d.engine.overheads.host_enqueue = seconds(fit.fitted.host_enqueue);
    if (fit.find(parameter::cold_start) != nullptr) x.d.engine.overheads.cold_start = seconds(fit.fitted.cold_start);
    if (fit.find(parameter::cold_prompt_token) != nullptr)
        x.d.engine.overheads.cold_prompt_token = seconds(fit.fitted.cold_prompt_token);
    if (fit.find(parameter::first_use_build) != nullptr)
        x.d.engine.overheads.first_use_build = seconds(fit.fitted.first_use_build);
    if (fit.find(parameter::prefill_request) != nullptr)
        x.d.engine.overheads.prefill_request = seconds(fit.fitted.prefill_request);
    if (fit.find(parameter::v0_pass) != nullptr) x.d.engine.overheads.v0_pass = seconds(fit.fitted.v0_pass);
    if (fit.find(parameter::v0_pass_rank) != nullptr) x.d.engine.overheads.v0_pass_rank = seconds(fit.fitted.v0_pass_rank);
    if (fit.find(parameter::v0_pass_sequence) != nullptr)
        x.d.engine.overheads.v0_pass_sequence = seconds(fit.fitted.v0_pass_sequence);
    if (fit.find(parameter::v0_output_token) != nullptr)
        x.d.engine.overheads.v0_output_token = seconds(fit.fitted.v0_output_token);
    if (fit.find(parameter::padded_moe_block) != nullptr)
        x.d.engine.moe.padded_moe_block = seconds(fit.fitted.padded_moe_block);
    return x;
}

/// The interval for measurement x's figure on the calibrated hardware (and the fitted front end,
/// `as_fitted`; the interval's gradient covers the hardware's parameters, not the front end's).
/// x must run on the hardware the calibration was fitted to.
[[nodiscard]] prediction_interval predict_with_uncertainty(const measurement& x, const calibration_result& fit,
                                                           double coverage = 0.8);

}  // namespace llmcost::plan

#ifdef LLMCOST_HEADER_ONLY
#include <llmcost/plan/calibrate-inl.hpp>
#endif
