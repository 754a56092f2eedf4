#pragma once
/// \file
/// Calibration with uncertainty: fit some of a hardware's efficiency parameters (measurement.hpp)
/// to measured figures, report each with a standard error, and turn the fit's residual spread into
/// an interval around any new prediction.
///
/// The fit minimises Σᵢ rᵢ², rᵢ = ln(predictedᵢ ÷ measuredᵢ), over the free parameters by
/// Levenberg–Marquardt (Marquardt's diagonal scaling, Nielsen's damping update) with a
/// central-difference Jacobian, inside box bounds:
/// - fractions (`hbm`, `matmul`, `attention`, `link_fraction`) in (0, max_fraction], 1.2 by default:
///   fitted as θ = ln f, so they stay positive, and clipped at ln 1.2. A fraction above 1 says the
///   datasheet undersells the part or the cost model overcounts the work; `hardware::validate`
///   refuses it, so cap it at 1 (`max_fraction = 1`) to get a descriptor that validates;
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
/// **Example**
/// \code
/// const auto rows = io::load_measurements_csv("my_runs.csv");
/// const plan::calibration_result fit = plan::calibrate(rows, {.free = {plan::parameter::hbm,
///                                                                     plan::parameter::kernel_overhead}});
/// const plan::prediction_interval tpot = plan::predict_with_uncertainty(rows[0], fit, 0.8);
/// \endcode

#include <llmcost/plan/measurement.hpp>

#include <Eigen/Dense>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::plan {

/// One member of `efficiency_parameters`.
enum class parameter { hbm, matmul, matmul_half_dim, attention, kernel_overhead, link_latency, link_fraction };

inline constexpr std::array all_parameters{parameter::hbm,          parameter::matmul,
                                           parameter::matmul_half_dim, parameter::attention,
                                           parameter::kernel_overhead, parameter::link_latency,
                                           parameter::link_fraction};

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
    }
    return "?";
}

/// SI unit of the parameter: "s" for times, "" for fractions and n₀ (a matrix dimension).
[[nodiscard]] constexpr std::string_view unit_of(parameter p) {
    return p == parameter::kernel_overhead || p == parameter::link_latency ? "s" : "";
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
    double max_fraction = 1.2;        ///< upper bound of every fraction
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

    /// The hardware with the fitted parameters: apply(base, fitted).
    [[nodiscard]] hardware calibrated() const { return apply(base, fitted); }
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
    }
    return "other rows";
}

/// The fit's coordinates θ of the free parameters: θ = ln v for fractions, θ = v ÷ scale for n₀
/// and times, with their box bounds.
struct coordinates {
    std::vector<parameter> free;
    std::vector<double> scale;  // linear coordinates only
    double max_fraction = 1.2;

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
    /// Typical sizes of n₀ and the times, so that θ is of order one even when the start is 0.
    [[nodiscard]] static double typical(parameter p) { return p == parameter::matmul_half_dim ? 256.0 : 1e-6; }
};

/// Why a prediction failed: the row, and the rule it broke.
struct failure {
    std::string id;
    std::string field;
    double value = 0;
    std::string rule;
};

/// The fitted rows, each with its own copy whose hardware is swapped at every evaluation.
class problem {
public:
    problem(std::vector<measurement> rows, hardware base) : rows_(std::move(rows)), base_(base) {}

    [[nodiscard]] Eigen::Index size() const { return static_cast<Eigen::Index>(rows_.size()); }
    [[nodiscard]] const measurement& row(Eigen::Index i) const { return rows_[static_cast<std::size_t>(i)]; }

    /// ln(predicted ÷ measured) for every row at parameters p; the first failing row otherwise.
    [[nodiscard]] std::optional<failure> residuals(const efficiency_parameters& p, Eigen::VectorXd& r) {
        const hardware h = apply(base_, p);
        r.resize(size());
        for (Eigen::Index i = 0; i < size(); ++i) {
            measurement& x = rows_[static_cast<std::size_t>(i)];
            x.d.hw = h;
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
            r(i) = std::log(predicted / x.value);
        }
        return std::nullopt;
    }

private:
    std::vector<measurement> rows_;
    hardware base_;
};

[[noreturn]] inline void refuse_row(const failure& f, std::string_view when) {
    refuse("calibration row '" + f.id + "'", f.field, f.value, f.rule + " (" + std::string(when) + ")");
}

/// Relative step of the numerical Jacobian in θ: 10⁻⁴ (a 0.01 % change of a fraction). Truncation
/// error ~h² = 10⁻⁸; rounding and the online fixed point (10⁻⁹) add ~10⁻⁵ of a derivative at most.
inline constexpr double jacobian_step = 1e-4;

/// J_ik = ∂rᵢ/∂θ_k by central differences; one-sided at a bound or where one side fails to predict.
[[nodiscard]] inline Eigen::MatrixXd jacobian(problem& f, const coordinates& c, const efficiency_parameters& base,
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
inline void check_identifiable(const Eigen::MatrixXd& J, const coordinates& c, const efficiency_parameters& p) {
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

}  // namespace detail::calibration

/// Fits `options.free` to `rows` (those with check == false, or all with `include_check_rows`) by
/// least squares on ln(predicted ÷ measured). Refuses (invalid_input) n ≤ p, rows on different
/// hardware, a start outside the bounds, a parameter the rows cannot determine (named), and a row
/// whose prediction throws (named by its id).
[[nodiscard]] inline calibration_result calibrate(std::span<const measurement> rows,
                                                  const calibration_options& options = {}) {
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
    require(options.max_fraction > 0.0 && options.max_fraction <= 10.0, "calibration", "max_fraction",
            options.max_fraction, "must be in (0, 10]");

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
    coordinates c{.free = options.free, .scale = {}, .max_fraction = options.max_fraction};
    for (parameter q : options.free) {
        const double v = value_of(out.start, q);
        c.scale.push_back(is_fraction(q) ? 1.0 : std::max(std::abs(v), coordinates::typical(q)));
    }
    Eigen::VectorXd theta(p);
    for (Eigen::Index k = 0; k < p; ++k) {
        const double v = value_of(out.start, c.at(k));
        const bool inside = is_fraction(c.at(k)) ? v > 0.0 && v <= options.max_fraction
                                                 : non_negative_finite(v) && c.theta(k, v) <= c.upper(k);
        require(inside, "calibration start", to_string(c.at(k)), v,
                is_fraction(c.at(k)) ? "a fraction starts in (0, max_fraction]"
                                     : "starts at zero or above (kernel_overhead below 1 ms)");
        theta(k) = std::clamp(c.theta(k, v), c.lower(k), c.upper(k));
    }

    problem f(std::move(fitted_rows), base);
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
        const double v = static_cast<double>(figure(apply(fit.base, p)));
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
                         (is_fraction(q.which) ? v : std::max(std::abs(v), detail::calibration::coordinates::typical(q.which)));
        efficiency_parameters up = fit.fitted, down = fit.fitted;
        value_of(up, q.which) = v + h;
        value_of(down, q.which) = std::max(0.0, v - h);
        g(k) = (std::log(at(up)) - std::log(at(down))) / (value_of(up, q.which) - value_of(down, q.which));
    }
    const double variance = fit.sigma * fit.sigma + g.dot(fit.covariance * g);
    const boost::math::students_t_distribution<double> t(static_cast<double>(fit.dof));
    const double half = boost::math::quantile(t, 0.5 + coverage / 2.0) * std::sqrt(std::max(0.0, variance));
    return {.value = value, .low = value * std::exp(-half), .high = value * std::exp(half), .coverage = coverage};
}

/// The interval for measurement x's figure on the calibrated hardware. x must run on the hardware
/// the calibration was fitted to.
[[nodiscard]] inline prediction_interval predict_with_uncertainty(const measurement& x, const calibration_result& fit,
                                                                  double coverage = 0.8) {
    if (x.d.hw.name != fit.base.name)
        detail::calibration::refuse("row '" + x.id + "'", "hardware descriptors", 2.0,
                                    "the row runs on " + std::string(x.d.hw.name) + " but the calibration is of " +
                                        std::string(fit.base.name) + ": its parameters describe that hardware only");
    measurement y = x;
    return predict_with_uncertainty(
        [&y](const hardware& h) {
            y.d.hw = h;
            return predict(y);
        },
        fit, coverage);
}

}  // namespace llmcost::plan
