// The `llmcost` tool's planning commands: options in, a report out. Every figure comes from the
// library (plan/calibrate.hpp); this file only chooses which figures to show and how to name them.
#include "plan_commands.hpp"

#include <llmcost/llmcost.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/plan/calibrate.hpp>

#include <filesystem>
#include <ostream>

namespace llmcost::cli {

namespace {

std::string unit_of(plan::metric m) { return m == plan::metric::output_tokens_per_s ? "token/s" : "s"; }

std::string percent(double fraction) { return invalid_input::show(fraction * 100.0) + "%"; }

std::vector<plan::parameter> parameters_named(const std::vector<std::string>& names) {
    std::vector<plan::parameter> out;
    for (const std::string& name : names) {
        const std::optional<plan::parameter> p = plan::parameter_named(name);
        if (!p) {
            std::string known;
            for (const std::string& k : calibration_parameter_names()) known += (known.empty() ? "" : ", ") + k;
            throw usage_error("--free '" + name + "' is not an efficiency parameter; expected one of " + known);
        }
        for (plan::parameter q : out)
            if (q == *p) throw usage_error("--free '" + name + "' is named twice");
        out.push_back(*p);
    }
    if (out.empty()) throw usage_error("--free: name at least one parameter to fit");
    return out;
}

/// The prediction for a row at the fitted parameters; a refusal names the row.
double predicted_for(const plan::measurement& x, const plan::calibration_result& fit) {
    try {
        return plan::predict(plan::as_fitted(x, fit));
    } catch (const invalid_input& e) {
        throw invalid_input("row '" + x.id + "'", e.field(), e.value(), e.rule());
    }
}

}  // namespace

std::vector<std::string> calibration_parameter_names() {
    std::vector<std::string> v;
    for (plan::parameter p : plan::all_parameters) v.emplace_back(plan::to_string(p));
    return v;
}

report calibrate(const calibrate_command& c) {
    if (!(c.coverage > 0.0 && c.coverage < 1.0))
        throw usage_error("--coverage must be in (0, 1), got " + invalid_input::show(c.coverage));
    const std::vector<plan::parameter> free = parameters_named(c.free_parameters);
    // The file is at most io::table_file_limit (1 GiB); the fit is linear in its rows.
    std::vector<plan::measurement> rows = io::load_measurements_csv(c.csv_path);
    if (!c.engine.empty())
        for (plan::measurement& x : rows) x = plan::on_engine(x, engine_named_for(c.engine, x.d.hw));
    if (c.progress != nullptr && rows.size() > 20'000)
        *c.progress << "llmcost calibrate: fitting " << text::grouped(static_cast<double>(rows.size())) << " rows...\n"
                    << std::flush;
    const plan::calibration_result fit = plan::calibrate(rows, {.free = free, .include_check_rows = c.all_rows});
    const std::string hw(fit.base.name);

    report r{.title = "llmcost calibrate: " + std::filesystem::path(c.csv_path).filename().string() + ", " + hw + ", " +
                      std::to_string(fit.rows) + " rows fitted, " + std::to_string(free.size()) + " free parameters",
             .layout = report::shape::by_id};
    auto line = [&](std::string id, std::string label, value v, std::string unit = {}) {
        record rec{.id = std::move(id)};
        rec.add("value", std::move(label), std::move(v), std::move(unit));
        r.records.push_back(std::move(rec));
    };
    line("fit.hardware", "hardware", hw);
    line("fit.rows", "rows fitted", static_cast<double>(fit.rows));
    line("fit.dof", "degrees of freedom (rows - parameters)", static_cast<double>(fit.dof));
    line("fit.iterations", "Levenberg-Marquardt iterations", static_cast<double>(fit.iterations));
    line("fit.converged", "converged", fit.converged);
    line("fit.rss", "residual sum of squares of ln(predicted / measured)", fit.rss);
    line("fit.sigma", "s = sqrt(RSS / dof): typical ln(predicted / measured)", fit.sigma);

    for (const plan::fitted_parameter& p : fit.parameters) {
        const std::string name(plan::to_string(p.which)), unit(plan::unit_of(p.which));
        line(name, std::string(plan::description(p.which)) + ", fitted", p.value, unit);
        line(name + ".standard_error", name + ": +/- standard error", p.standard_error, unit);
        line(name + ".start", name + ": catalog value (the start)", p.start, unit);
    }
    for (std::size_t i = 0; i < fit.parameters.size(); ++i)
        for (std::size_t j = i + 1; j < fit.parameters.size(); ++j) {
            const std::string a(plan::to_string(fit.parameters[i].which)), b(plan::to_string(fit.parameters[j].which));
            line("correlation." + a + "." + b, "correlation of " + a + " and " + b,
                 fit.correlation(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
        }

    const std::string band = percent(c.coverage) + " interval";
    std::vector<std::string> other_hardware;
    for (const plan::measurement& x : rows) {
        if (x.d.hw.name != fit.base.name) {
            other_hardware.push_back(x.id);
            continue;
        }
        const bool fitted = !x.check || c.all_rows;
        const std::string unit = unit_of(x.what);
        const std::string head = x.id + " (" + (fitted ? "fitted" : "check") + ", " + std::string(plan::to_string(x.what)) + "): ";
        const double predicted = predicted_for(x, fit);
        line(x.id + ".measured", head + "measured", x.value, unit);
        line(x.id + ".predicted", head + "predicted", predicted, unit);
        line(x.id + ".error", head + "predicted / measured - 1", 100.0 * plan::relative_error(x, predicted), "%");
        if (c.with_uncertainty) {
            const plan::prediction_interval i = plan::predict_with_uncertainty(x, fit, c.coverage);
            line(x.id + ".low", head + band + ", low", i.low, unit);
            line(x.id + ".high", head + band + ", high", i.high, unit);
            line(x.id + ".covered", head + "measured inside the interval", i.contains(x.value));
        }
    }

    std::string names;
    for (plan::parameter p : free) names += (names.empty() ? "" : ", ") + std::string(plan::to_string(p));
    r.notes.push_back("Fitted " + names + " of " + hw + " to " + std::to_string(fit.rows) +
                      (c.all_rows ? " rows (check rows included)" : " calibration rows; check rows are predicted, not fitted") +
                      "; the other parameters keep the catalog's values.");
    r.notes.push_back("Least squares on ln(predicted / measured) by Levenberg-Marquardt (" + fit.stop_reason +
                      "); standard errors from (J'J)^-1 * s^2, s^2 = RSS / (n - p).");
    if (!fit.converged) r.notes.push_back("The fit did not converge: treat the parameters as a rough guide.");
    for (const plan::fitted_parameter& p : fit.parameters)
        if (p.at_bound)
            r.notes.push_back(std::string(plan::to_string(p.which)) +
                              " ended on its bound: its standard error understates the doubt.");
    if (fit.dof < 3)
        r.notes.push_back("Only " + std::to_string(fit.dof) + " degree(s) of freedom: standard errors" +
                          (c.with_uncertainty ? " and intervals" : "") + " rest on very few rows.");
    if (c.with_uncertainty)
        r.notes.push_back("Intervals: ln(predicted) +/- t(" + invalid_input::show(0.5 + c.coverage / 2.0) +
                          ", n - p) * sqrt(s^2 + g' Cov g), g = d ln(predicted) / d parameters; they hold " +
                          percent(c.coverage) + " of new rows that scatter like the fitted ones.");
    for (const std::string& id : other_hardware)
        r.notes.push_back("Row " + id + " runs on other hardware than " + hw + ": not shown.");
    return r;
}

}  // namespace llmcost::cli
