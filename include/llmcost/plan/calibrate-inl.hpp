#pragma once
/// \file
/// The bodies of plan/calibrate.hpp: the Levenberg–Marquardt fit, the Jacobian, the
/// identifiability check, the covariance and the Student-t intervals. Compiled once into the
/// `llmcost_plan` library (calibrate.cpp), or included by calibrate.hpp when `LLMCOST_HEADER_ONLY`
/// is defined (detail/header_only.hpp). Not a public header: include plan/calibrate.hpp.

#include <llmcost/plan/calibrate.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llmcost::plan {

namespace detail::calibration {

[[noreturn]] inline void refuse(std::string_view subject, std::string_view field, double value, std::string_view rule) {
    throw invalid_input(subject, field, value, rule);
}

/// What kind of row makes a parameter matter, for the message that refuses it.
[[nodiscard]] constexpr std::string_view rows_that_need(parameter p) {
    switch (p) {
        case parameter::hbm: return "memory-bound rows (batch-1 decode)";
        case parameter::matmul: return "compute-bound rows (long prompts, large batches)";
        case parameter::matmul_half_dim: return "compute-bound rows at several GEMM sizes (prompts of different lengths)";
        case parameter::attention: return "rows whose attention is compute-bound (long prompts)";
        case parameter::kernel_overhead: return "rows with short passes (small models, batch 1)";
        case parameter::link_latency: return "rows with tp > 1 and small messages (decode)";
        case parameter::link_fraction: return "rows with tp > 1 and large messages (long prompts)";
        case parameter::request_overhead: return "TTFT rows (a front end shows most where the engine's first token is short)";
        case parameter::host_enqueue: return "rows run without CUDA graphs whose steps are shorter than the host's enqueue (small batches)";
        case parameter::cold_start: return "closed-loop TTFT means of benchmark runs (a cold opening shows in the first requests)";
        case parameter::cold_prompt_token: return "closed-loop TTFT means of runs whose openings bring different prompt tokens";
        case parameter::first_use_build: return "closed-loop TTFT means of cold runs that meet a first-use build's trigger";
        case parameter::prefill_request: return "TTFT means of runs whose prompt steps run serially with several prompts a step";
        case parameter::v0_pass:
        case parameter::v0_pass_rank:
        case parameter::v0_pass_sequence: return "rows that run vLLM's V0 loop at several batches and TP degrees";
        case parameter::v0_output_token: return "rows that run vLLM's V0 loop with CUDA graphs off at large batches";
        case parameter::padded_moe_block: return "rows that run the expert all-to-all on an engine whose runner takes its padded buffer";
    }
    return "other rows";
}

/// The fit's coordinates θ of the free parameters: θ = ln v for fractions, θ = v ÷ scale for n₀
/// and times, with their box bounds.
struct parameter_space {
    std::vector<parameter> free;
    std::vector<double> scale;  // linear coordinates only
    double max_fraction = 1.0;

    [[nodiscard]] Eigen::Index size() const { return static_cast<Eigen::Index>(free.size()); }
    [[nodiscard]] parameter at(Eigen::Index k) const { return free[static_cast<std::size_t>(k)]; }
    [[nodiscard]] bool logarithmic(Eigen::Index k) const { return is_fraction(at(k)); }
    [[nodiscard]] double theta(Eigen::Index k, double v) const {
        return logarithmic(k) ? std::log(v) : v / scale[static_cast<std::size_t>(k)];
    }
    [[nodiscard]] double value(Eigen::Index k, double t) const {
        return logarithmic(k) ? std::exp(t) : t * scale[static_cast<std::size_t>(k)];
    }
    /// dv/dθ: v for fractions (θ = ln v), the scale otherwise.
    [[nodiscard]] double slope(Eigen::Index k, double t) const {
        return logarithmic(k) ? std::exp(t) : scale[static_cast<std::size_t>(k)];
    }
    /// Bounds in θ: fractions in [ln 10⁻⁶, ln max_fraction]; n₀ and times ≥ 0; kernel_overhead < 1 ms.
    [[nodiscard]] double lower(Eigen::Index k) const { return logarithmic(k) ? std::log(1e-6) : 0.0; }
    [[nodiscard]] double upper(Eigen::Index k) const {
        if (logarithmic(k)) return std::log(max_fraction);
        if (at(k) == parameter::kernel_overhead) return 0.999e-3 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::request_overhead) return 9.99 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::host_enqueue) return 0.999e-3 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::cold_start) return 599.0 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::cold_prompt_token) return 0.999e-3 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::first_use_build) return 599.0 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::prefill_request) return 0.999 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::v0_pass || at(k) == parameter::v0_pass_rank) return 0.999 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::v0_pass_sequence || at(k) == parameter::v0_output_token)
            return 0.999e-2 / scale[static_cast<std::size_t>(k)];
        if (at(k) == parameter::padded_moe_block) return 0.999e-6 / scale[static_cast<std::size_t>(k)];
        return std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] Eigen::VectorXd clamp(Eigen::VectorXd t) const {
        for (Eigen::Index k = 0; k < size(); ++k) t(k) = std::clamp(t(k), lower(k), upper(k));
        return t;
    }
    [[nodiscard]] efficiency_parameters parameters(efficiency_parameters base, const Eigen::VectorXd& t) const {
        for (Eigen::Index k = 0; k < size(); ++k) value_of(base, at(k)) = value(k, t(k));
        return base;
    }
};

/// Why a prediction failed: the row, and the rule it broke.
struct failure {
    std::string id;
    std::string field;
    double value = 0;
    std::string rule;
};

/// Whether two rows ask the cost model the same question (the same model, layout, engine with the
/// run's flags, clock, front end, scenario, shape and metric; the hardware is the fit's for every
/// row): then they share one prediction.
[[nodiscard]] inline bool same_question(const measurement& a, const measurement& b) {
    return a.d.layout == b.d.layout && a.how == b.how && a.what == b.what && a.r.input == b.r.input &&
           a.r.output == b.r.output && a.requests == b.requests && a.max_batch == b.max_batch &&
           a.max_tokens == b.max_tokens && a.rate == b.rate && a.batch == b.batch && a.d.m == b.d.m &&
           a.d.engine == b.d.engine && a.clock_MHz == b.clock_MHz && a.api_server == b.api_server &&
           a.first_use_build == b.first_use_build;
}

/// A hash consistent with same_question (from the cheap fields; the model by name).
[[nodiscard]] inline std::size_t question_hash(const measurement& x) {
    std::size_t h = std::hash<std::string_view>{}(x.d.m.name);
    const auto mix = [&h](double v) { h = h * 1000003u ^ std::hash<double>{}(v); };
    for (const double v : {static_cast<double>(x.d.layout.tp), static_cast<double>(x.d.layout.pp),
                           static_cast<double>(x.d.layout.ep), static_cast<double>(x.d.layout.dp),
                           static_cast<double>(x.how), static_cast<double>(x.what), x.r.input.value(), x.r.output.value(),
                           x.requests, x.max_batch, x.max_tokens, x.rate, x.batch})
        mix(v);
    return h;
}

/// The fitted rows, each with its own copy whose hardware is swapped at every evaluation. Rows
/// that ask the same question are predicted once per evaluation: the cost is linear in the rows
/// and, for a file of repeated runs, in its distinct configurations.
class fit_problem {
public:
    /// `front_end`: request_overhead is free, so p's value replaces every row's engine front end;
    /// otherwise each row keeps its own engine's.
    fit_problem(std::vector<measurement> rows, hardware base, bool front_end = false, bool host_enqueue = false,
                bool cold_start = false, bool cold_prompt_token = false, bool first_use_build = false,
                bool prefill_request = false, std::array<bool, 4> v0_pass = {}, bool padded_moe_block = false)
        : rows_(std::move(rows)), base_(base), front_end_(front_end), host_enqueue_(host_enqueue), cold_start_(cold_start),
          cold_prompt_token_(cold_prompt_token), first_use_build_(first_use_build), prefill_request_(prefill_request),
          v0_pass_(v0_pass), padded_moe_block_(padded_moe_block) {
        first_asked_.resize(rows_.size());
        std::unordered_map<std::size_t, std::vector<std::size_t>> by_hash;
        by_hash.reserve(rows_.size());
        for (std::size_t i = 0; i < rows_.size(); ++i) {
            std::vector<std::size_t>& same_hash = by_hash[question_hash(rows_[i])];
            const auto earlier = std::find_if(same_hash.begin(), same_hash.end(),
                                              [&](std::size_t j) { return same_question(rows_[j], rows_[i]); });
            first_asked_[i] = earlier == same_hash.end() ? i : *earlier;
            if (earlier == same_hash.end()) same_hash.push_back(i);
        }
        predicted_.resize(rows_.size());
    }

    [[nodiscard]] Eigen::Index size() const { return static_cast<Eigen::Index>(rows_.size()); }
    [[nodiscard]] const measurement& row(Eigen::Index i) const { return rows_[static_cast<std::size_t>(i)]; }

    /// ln(predicted ÷ measured) for every row at parameters p; the first failing row otherwise.
    [[nodiscard]] std::optional<failure> residuals(const efficiency_parameters& p, Eigen::VectorXd& r) {
        const hardware h = with_efficiencies(base_, p);
        r.resize(size());
        for (Eigen::Index i = 0; i < size(); ++i) {
            measurement& x = rows_[static_cast<std::size_t>(i)];
            const std::size_t first = first_asked_[static_cast<std::size_t>(i)];
            if (first != static_cast<std::size_t>(i)) {  // asked before, in this same evaluation
                predicted_[static_cast<std::size_t>(i)] = predicted_[first];
                r(i) = std::log(predicted_[first] / x.value);
                continue;
            }
            x.d.hw = h;
            if (front_end_) x.d.engine.overheads.request = seconds(p.request_overhead);
            if (host_enqueue_) x.d.engine.overheads.host_enqueue = seconds(p.host_enqueue);
            if (cold_start_) x.d.engine.overheads.cold_start = seconds(p.cold_start);
            if (cold_prompt_token_) x.d.engine.overheads.cold_prompt_token = seconds(p.cold_prompt_token);
            if (first_use_build_) x.d.engine.overheads.first_use_build = seconds(p.first_use_build);
            if (prefill_request_) x.d.engine.overheads.prefill_request = seconds(p.prefill_request);
            if (v0_pass_[0]) x.d.engine.overheads.v0_pass = seconds(p.v0_pass);
            if (v0_pass_[1]) x.d.engine.overheads.v0_pass_rank = seconds(p.v0_pass_rank);
            if (v0_pass_[2]) x.d.engine.overheads.v0_pass_sequence = seconds(p.v0_pass_sequence);
            if (v0_pass_[3]) x.d.engine.overheads.v0_output_token = seconds(p.v0_output_token);
            if (padded_moe_block_) x.d.engine.moe.padded_moe_block = seconds(p.padded_moe_block);
            double predicted = 0;
            try {
                predicted = predict(x);
            } catch (const invalid_input& e) {
                return failure{x.id, e.field(), e.value(), e.rule()};
            } catch (const std::exception& e) {
                return failure{x.id, "prediction", std::numeric_limits<double>::quiet_NaN(), e.what()};
            }
            if (!positive_finite(predicted))
                return failure{x.id, "prediction", predicted, "the cost model's figure is not positive and finite"};
            predicted_[static_cast<std::size_t>(i)] = predicted;
            r(i) = std::log(predicted / x.value);
        }
        return std::nullopt;
    }

private:
    std::vector<measurement> rows_;
    hardware base_;
    bool front_end_ = false;
    bool host_enqueue_ = false;  ///< host_enqueue is free: p's value replaces every row's engine host enqueue
    bool cold_start_ = false;        ///< cold_start is free: p's value replaces every row's engine cold opening
    bool cold_prompt_token_ = false; ///< cold_prompt_token is free: likewise its cost per opening prompt token
    bool first_use_build_ = false;   ///< first_use_build is free: p's value replaces every row's engine first-use build
    bool prefill_request_ = false;   ///< prefill_request is free: likewise its host time per request of a serial prompt step
    std::array<bool, 4> v0_pass_{};  ///< v0_pass, v0_pass_rank, v0_pass_sequence, v0_output_token free: likewise vLLM V0's pass
    bool padded_moe_block_ = false;  ///< padded_moe_block free: likewise the expert runner's time per padded m-block
    std::vector<std::size_t> first_asked_;  ///< the first row that asks row i's question (i itself if none)
    std::vector<double> predicted_;          ///< this evaluation's predictions
};

[[noreturn]] inline void refuse_row(const failure& f, std::string_view when) {
    refuse("calibration row '" + f.id + "'", f.field, f.value, f.rule + " (" + std::string(when) + ")");
}

/// J_ik = ∂rᵢ/∂θ_k by central differences; one-sided at a bound or where one side fails to predict.
[[nodiscard]] inline Eigen::MatrixXd jacobian(fit_problem& f, const parameter_space& c, const efficiency_parameters& base,
                                              const Eigen::VectorXd& t, const Eigen::VectorXd& r0) {
    Eigen::MatrixXd J(f.size(), c.size());
    Eigen::VectorXd rp, rm;
    for (Eigen::Index k = 0; k < c.size(); ++k) {
        const double h = jacobian_step * std::max(1.0, std::abs(t(k)));
        Eigen::VectorXd up = t, down = t;
        up(k) = std::min(t(k) + h, c.upper(k));
        down(k) = std::max(t(k) - h, c.lower(k));
        std::optional<failure> fail_up = f.residuals(c.parameters(base, up), rp);
        std::optional<failure> fail_down = f.residuals(c.parameters(base, down), rm);
        if (fail_up && fail_down) refuse_row(*fail_up, "near the current parameters, for the Jacobian");
        if (fail_up) {
            up = t;
            rp = r0;
        }
        if (fail_down) {
            down = t;
            rm = r0;
        }
        J.col(k) = (rp - rm) / (up(k) - down(k));
    }
    return J;
}

/// ‖∂r/∂θ_k‖ at or below which no row depends on parameter k (θ is of order one: ln f, or v ÷ scale).
inline constexpr double unidentifiable_column = 1e-9;

/// Refuses parameters the rows cannot determine: a column of J that is zero (no row depends on
/// the parameter), or a combination of columns that is (smallest eigenvalue of the correlation
/// form of JᵀJ below 10⁻¹²: columns equal up to the Jacobian's own error, ~10⁻⁸, squared).
inline void check_identifiable(const Eigen::MatrixXd& J, const parameter_space& c, const efficiency_parameters& p) {
    const Eigen::VectorXd norms = J.colwise().norm();
    for (Eigen::Index k = 0; k < c.size(); ++k)
        if (!(norms(k) > unidentifiable_column))
            refuse("calibration", to_string(c.at(k)), value_of(p, c.at(k)),
                   "unidentifiable: no fitted row's prediction depends on it (at the fitted parameters); fix it, or add " +
                       std::string(rows_that_need(c.at(k))));
    if (c.size() < 2) return;
    const Eigen::MatrixXd N = J * norms.cwiseInverse().asDiagonal();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(N.transpose() * N);
    const double smallest = es.eigenvalues()(0);
    if (smallest >= 1e-12) return;
    const Eigen::VectorXd v = es.eigenvectors().col(0);
    std::string names;
    for (Eigen::Index k = 0; k < c.size(); ++k)
        if (std::abs(v(k)) > 0.1 * v.cwiseAbs().maxCoeff())
            names += (names.empty() ? "" : ", ") + std::string(to_string(c.at(k)));
    refuse("calibration", names, smallest,
           "unidentifiable together: J'J is singular (its smallest eigenvalue, correlation form, is shown): "
           "the fitted rows cannot tell these parameters apart; fix one of them, or add rows that separate them");
}

/// The interval from the gradient of ln ŷ (see `predict_with_uncertainty`).
LLMCOST_FUNC prediction_interval interval(double value, const Eigen::VectorXd& g, const calibration_result& fit,
                                          double coverage) {
    const double variance = fit.sigma * fit.sigma + g.dot(fit.covariance * g);
    const boost::math::students_t_distribution<double> t(static_cast<double>(fit.dof));
    const double half = boost::math::quantile(t, 0.5 + coverage / 2.0) * std::sqrt(std::max(0.0, variance));
    return {.value = value, .low = value * std::exp(-half), .high = value * std::exp(half), .coverage = coverage};
}

}  // namespace detail::calibration

LLMCOST_FUNC calibration_result calibrate(std::span<const measurement> rows, const calibration_options& options) {
    using namespace detail::calibration;
    std::vector<measurement> fitted_rows;
    for (const measurement& x : rows)
        if (!x.check || options.include_check_rows) fitted_rows.push_back(x);
    const auto n = static_cast<Eigen::Index>(fitted_rows.size());
    const auto p = static_cast<Eigen::Index>(options.free.size());
    require(p >= 1, "calibration", "free parameters", 0.0, "name at least one parameter to fit");
    for (std::size_t i = 0; i < options.free.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            require(options.free[i] != options.free[j], "calibration", to_string(options.free[i]), 2.0,
                    "a free parameter is named twice");
    require(n > p, "calibration", "fitted rows", static_cast<double>(n),
            "need more rows than free parameters (" + std::to_string(p) + ")" +
                (options.include_check_rows ? std::string() : std::string("; check rows are not fitted")));
    require(options.max_fraction > 0.0 && options.max_fraction <= 1.0, "calibration", "max_fraction",
            options.max_fraction, "must be in (0, 1]: a fraction above 1 makes a hardware descriptor that every pricing path refuses");

    const hardware base = fitted_rows.front().d.hw;
    for (const measurement& x : fitted_rows) {
        x.validate();
        if (!(x.d.hw == base))
            refuse("calibration", "hardware descriptors", 2.0,
                   "row '" + fitted_rows.front().id + "' runs on " + std::string(base.name) + ", row '" + x.id +
                       "' on " + std::string(x.d.hw.name) +
                       (x.d.hw.name == base.name ? " with other figures" : "") +
                       ": one calibration fits one hardware's parameters; fit each hardware's rows separately");
    }

    calibration_result out;
    out.base = base;
    out.start = options.start.value_or(parameters_of(base));
    // The front end is the rows' engine's: the start takes the first row's where none was given.
    if (!options.start) out.start.request_overhead = fitted_rows.front().d.engine.overheads.request.value();
    if (!options.start) out.start.host_enqueue = fitted_rows.front().d.engine.overheads.host_enqueue.value();
    if (!options.start) out.start.cold_start = fitted_rows.front().d.engine.overheads.cold_start.value();
    if (!options.start) out.start.cold_prompt_token = fitted_rows.front().d.engine.overheads.cold_prompt_token.value();
    if (!options.start) out.start.first_use_build = fitted_rows.front().d.engine.overheads.first_use_build.value();
    if (!options.start) out.start.prefill_request = fitted_rows.front().d.engine.overheads.prefill_request.value();
    if (!options.start) out.start.v0_pass = fitted_rows.front().d.engine.overheads.v0_pass.value();
    if (!options.start) out.start.v0_pass_rank = fitted_rows.front().d.engine.overheads.v0_pass_rank.value();
    if (!options.start) out.start.v0_pass_sequence = fitted_rows.front().d.engine.overheads.v0_pass_sequence.value();
    if (!options.start) out.start.v0_output_token = fitted_rows.front().d.engine.overheads.v0_output_token.value();
    if (!options.start) out.start.padded_moe_block = fitted_rows.front().d.engine.moe.padded_moe_block.value();
    const auto is_free = [&](parameter q) { return std::find(options.free.begin(), options.free.end(), q) != options.free.end(); };
    const bool eager_free =
        std::find(options.free.begin(), options.free.end(), parameter::host_enqueue) != options.free.end();
    const bool front_end_free =
        std::find(options.free.begin(), options.free.end(), parameter::request_overhead) != options.free.end();
    parameter_space c{.free = options.free, .scale = {}, .max_fraction = options.max_fraction};
    for (parameter q : options.free) {
        const double v = value_of(out.start, q);
        c.scale.push_back(is_fraction(q) ? 1.0 : std::max(std::abs(v), typical(q)));
    }
    Eigen::VectorXd theta(p);
    for (Eigen::Index k = 0; k < p; ++k) {
        const double v = value_of(out.start, c.at(k));
        const bool inside = is_fraction(c.at(k)) ? v > 0.0 && v <= options.max_fraction
                                                 : non_negative_finite(v) && c.theta(k, v) <= c.upper(k);
        require(inside, "calibration start", to_string(c.at(k)), v,
                is_fraction(c.at(k)) ? "a fraction starts in (0, max_fraction]"
                                     : "starts at zero or above (kernel_overhead, host_enqueue and cold_prompt_token below 1 ms, "
                                       "request_overhead below 10 s, prefill_request, v0_pass and v0_pass_rank below 1 s, "
                                       "v0_pass_sequence and v0_output_token below 10 ms, padded_moe_block below 1 us, cold_start and "
                                       "first_use_build below 599 s)");
        theta(k) = std::clamp(c.theta(k, v), c.lower(k), c.upper(k));
    }

    fit_problem f(std::move(fitted_rows), base, front_end_free, eager_free, is_free(parameter::cold_start),
                  is_free(parameter::cold_prompt_token), is_free(parameter::first_use_build),
                  is_free(parameter::prefill_request),
                  {is_free(parameter::v0_pass), is_free(parameter::v0_pass_rank), is_free(parameter::v0_pass_sequence),
                   is_free(parameter::v0_output_token)},
                  is_free(parameter::padded_moe_block));
    Eigen::VectorXd r;
    if (const auto fail = f.residuals(c.parameters(out.start, theta), r)) refuse_row(*fail, "at the starting parameters");
    Eigen::MatrixXd J = jacobian(f, c, out.start, theta, r);

    // Levenberg–Marquardt on F = ½‖r‖²: (A + λ·diag A) δ = −g, A = JᵀJ, g = Jᵀr (Marquardt 1963);
    // λ shrinks by max(⅓, 1 − (2ρ − 1)³) after a good step and doubles its growth after a bad one
    // (Nielsen 1999), ρ = actual ÷ predicted decrease of F. A parameter on a bound whose gradient
    // pushes outwards is held there for the step, and so is one that no row depends on at this
    // point (it may matter once the others have moved; if it still does not at the end, the fit is
    // refused); the others are clipped to the box.
    double cost = 0.5 * r.squaredNorm();
    double lambda = 1e-3, nu = 2.0;
    Eigen::VectorXd trial_r;
    out.stop_reason = "reached max_iterations";
    int it = 0;
    for (; it < options.max_iterations; ++it) {
        if (cost <= 1e-30) {
            out.converged = true;
            out.stop_reason = "the rows are matched exactly";
            break;
        }
        const Eigen::MatrixXd A = J.transpose() * J;
        const Eigen::VectorXd g = J.transpose() * r;
        std::vector<Eigen::Index> moving;
        for (Eigen::Index k = 0; k < p; ++k) {
            const bool held = (theta(k) >= c.upper(k) && g(k) < 0.0) || (theta(k) <= c.lower(k) && g(k) > 0.0) ||
                              !(J.col(k).norm() > unidentifiable_column);
            if (!held) moving.push_back(k);
        }
        double projected_gradient = 0;
        for (Eigen::Index k : moving) projected_gradient = std::max(projected_gradient, std::abs(g(k)));
        if (moving.empty() || projected_gradient <= 1e-14) {
            out.converged = true;
            out.stop_reason = "the gradient vanishes (within the bounds)";
            break;
        }
        const auto m = static_cast<Eigen::Index>(moving.size());
        Eigen::MatrixXd M(m, m);
        Eigen::VectorXd rhs(m);
        for (Eigen::Index a = 0; a < m; ++a) {
            rhs(a) = -g(moving[static_cast<std::size_t>(a)]);
            for (Eigen::Index b = 0; b < m; ++b)
                M(a, b) = A(moving[static_cast<std::size_t>(a)], moving[static_cast<std::size_t>(b)]);
            M(a, a) += lambda * A(moving[static_cast<std::size_t>(a)], moving[static_cast<std::size_t>(a)]);
        }
        const Eigen::VectorXd step = M.ldlt().solve(rhs);
        Eigen::VectorXd trial = theta;
        for (Eigen::Index a = 0; a < m; ++a) trial(moving[static_cast<std::size_t>(a)]) += step(a);
        trial = c.clamp(trial);
        const Eigen::VectorXd d = trial - theta;
        const double predicted_decrease = -g.dot(d) - 0.5 * d.dot(A * d);
        const bool evaluated = step.allFinite() && !f.residuals(c.parameters(out.start, trial), trial_r);
        const double trial_cost = evaluated ? 0.5 * trial_r.squaredNorm() : std::numeric_limits<double>::infinity();
        if (evaluated && predicted_decrease > 0.0 && trial_cost < cost) {
            const double rho = (cost - trial_cost) / predicted_decrease;
            const double decrease = cost - trial_cost;
            const double previous = cost;
            theta = trial;
            r = trial_r;
            cost = trial_cost;
            J = jacobian(f, c, out.start, theta, r);
            lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
            nu = 2.0;
            if (decrease <= 1e-12 * previous) {
                out.converged = true;
                out.stop_reason = "the RSS changed by less than 1e-12 of itself";
                ++it;
                break;
            }
            if (d.cwiseAbs().maxCoeff() <= 1e-10 * (1.0 + theta.cwiseAbs().maxCoeff())) {
                out.converged = true;
                out.stop_reason = "the parameters moved by less than 1e-10";
                ++it;
                break;
            }
        } else {
            lambda *= nu;
            nu *= 2.0;
            if (lambda > 1e16) {
                out.converged = true;
                out.stop_reason = "no nearby parameters lower the RSS (damping exhausted)";
                ++it;
                break;
            }
        }
    }
    out.iterations = it;

    // A parameter that crept up to a bound (n₀ → 0 step by step) is put on it, so that it reads 0,
    // not 3e-7; the residuals and J follow it there.
    Eigen::VectorXd snapped = theta;
    for (Eigen::Index k = 0; k < p; ++k) {
        const double tol = 1e-9 * (1.0 + std::abs(theta(k)));
        if (theta(k) <= c.lower(k) + tol) snapped(k) = c.lower(k);
        if (theta(k) >= c.upper(k) - tol) snapped(k) = c.upper(k);
    }
    if (snapped != theta && !f.residuals(c.parameters(out.start, snapped), trial_r)) {
        theta = snapped;
        r = trial_r;
        J = jacobian(f, c, out.start, theta, r);
    }

    const efficiency_parameters best = c.parameters(out.start, theta);
    check_identifiable(J, c, best);
    out.fitted = best;
    out.rows = static_cast<int>(n);
    out.dof = static_cast<int>(n - p);
    out.rss = r.squaredNorm();
    out.sigma = std::sqrt(out.rss / static_cast<double>(out.dof));

    // Natural units: ∂r/∂v = ∂r/∂θ ÷ (dv/dθ); Cov = (JᵥᵀJᵥ)⁻¹ · s² (the delta method through θ).
    Eigen::VectorXd slope(p);
    for (Eigen::Index k = 0; k < p; ++k) slope(k) = c.slope(k, theta(k));
    const Eigen::MatrixXd Jv = J * slope.cwiseInverse().asDiagonal();
    const Eigen::MatrixXd inverse = (Jv.transpose() * Jv).ldlt().solve(Eigen::MatrixXd::Identity(p, p));
    out.covariance = inverse * (out.sigma * out.sigma);
    out.correlation.resize(p, p);
    for (Eigen::Index i = 0; i < p; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            out.correlation(i, j) = inverse(i, j) / std::sqrt(inverse(i, i) * inverse(j, j));

    for (Eigen::Index k = 0; k < p; ++k)
        out.parameters.push_back({.which = c.at(k),
                                  .value = value_of(best, c.at(k)),
                                  .standard_error = std::sqrt(std::max(0.0, out.covariance(k, k))),
                                  .start = value_of(out.start, c.at(k)),
                                  .at_bound = theta(k) <= c.lower(k) || theta(k) >= c.upper(k)});
    for (Eigen::Index i = 0; i < n; ++i) {
        const measurement& x = f.row(i);
        const double predicted = x.value * std::exp(r(i));
        out.residuals.push_back({.id = x.id,
                                 .what = x.what,
                                 .measured = x.value,
                                 .predicted = predicted,
                                 .relative_error = relative_error(x, predicted),
                                 .log_residual = r(i)});
    }
    return out;
}


LLMCOST_FUNC prediction_interval predict_with_uncertainty(const measurement& x, const calibration_result& fit,
                                                      double coverage) {
    if (x.d.hw.name != fit.base.name)
        detail::calibration::refuse("row '" + x.id + "'", "hardware descriptors", 2.0,
                                    "the row runs on " + std::string(x.d.hw.name) + " but the calibration is of " +
                                        std::string(fit.base.name) + ": its parameters describe that hardware only");
    measurement y = as_fitted(x, fit);
    return predict_with_uncertainty(
        [&y](const hardware& h) {
            y.d.hw = h;
            return predict(y);
        },
        fit, coverage);
}


}  // namespace llmcost::plan
