// Calibration with uncertainty (plan/calibrate.hpp): parameters come back from synthetic
// measurements made with known ones, error bars hold held-back points at about their stated rate,
// and what cannot be fitted is refused with the field, the value and the rule. The synthetic rows
// mimic the H100 rows of ../shared/reference/calibration.csv (T01, T05, T10, L01, L06, L07) and
// add the regimes those lack (TP8 links, small GEMMs, many-layer batch-1 decode).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan/calibrate.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <cmath>
#include <cstdint>
#include <random>

using namespace llmcost;
using namespace llmcost::literals;
using plan::measurement;
using plan::parameter;

namespace {

deployment on_h100(const model& m, int tp = 1, const number_format* f = nullptr) {
    deployment d{.m = m, .hw = catalog::h100_sxm5, .layout = {.tp = tp}};
    return f ? with_formats(d, *f, *f) : d;
}

measurement decode(std::string id, const deployment& d, double batch, double in = 1000, double out = 200) {
    return {.id = std::move(id), .check = false, .d = d, .r = {.input = tokens(in), .output = tokens(out)},
            .how = plan::scenario::fixed_batch, .batch = batch, .what = plan::metric::tpot_s, .value = 1.0, .source = "synthetic"};
}
measurement first_token(std::string id, const deployment& d, double batch, double in, double out = 200) {
    measurement x = decode(std::move(id), d, batch, in, out);
    x.what = plan::metric::ttft_s;
    return x;
}
measurement prefill(std::string id, const deployment& d, double in) {
    return {.id = std::move(id), .check = false, .d = d, .r = {.input = tokens(in), .output = 1_tok},
            .how = plan::scenario::single_prefill, .what = plan::metric::ttft_s, .value = 1.0, .source = "synthetic"};
}
measurement offline(std::string id, const deployment& d, double in, double out, double requests, double max_batch) {
    return {.id = std::move(id), .check = false, .d = d, .r = {.input = tokens(in), .output = tokens(out)},
            .how = plan::scenario::offline, .requests = requests, .max_batch = max_batch,
            .what = plan::metric::output_tokens_per_s, .value = 1.0, .source = "synthetic"};
}
measurement online(std::string id, const deployment& d, double rate, double in, double out, plan::metric what) {
    return {.id = std::move(id), .check = false, .d = d, .r = {.input = tokens(in), .output = tokens(out)},
            .how = plan::scenario::online, .rate = rate, .what = what, .value = 1.0, .source = "synthetic"};
}

/// The "true" H100 of the synthetic data: the hbm 0.83, e∞ 0.66, n₀ 650, 6 µs per kernel,
/// and an NVLink at 80 % of its catalogued bandwidth with 5 µs of latency; attention as catalogued.
plan::efficiency_parameters truth() {
    plan::efficiency_parameters p = plan::parameters_of(catalog::h100_sxm5);
    p.hbm = 0.83;
    p.matmul = 0.66;
    p.matmul_half_dim = 650;
    p.kernel_overhead = 6e-6;
    p.link_latency = 5e-6;
    p.link_fraction = 0.8;
    return p;
}

const std::vector<parameter> six{parameter::hbm,             parameter::matmul,       parameter::matmul_half_dim,
                                 parameter::kernel_overhead, parameter::link_latency, parameter::link_fraction};

/// Sets every row's value to what the cost model gives with parameters p.
void measure(std::vector<measurement>& rows, const plan::efficiency_parameters& p) {
    for (measurement& x : rows) x.value = plan::predict(x, p);
}

/// A dozen and a half rows that pin each of the six parameters down.
std::vector<measurement> varied_rows() {
    const deployment l8 = on_h100(catalog::llama_3_1_8b), l8f = on_h100(catalog::llama_3_1_8b, 1, &formats::fp8);
    const deployment l70f = on_h100(catalog::llama_3_1_70b, 1, &formats::fp8);
    const deployment l70_tp8 = on_h100(catalog::llama_3_1_70b, 8), l405_tp8 = on_h100(catalog::llama_3_1_405b, 8, &formats::fp8);
    const deployment mix = on_h100(catalog::mixtral_8x7b, 2, &formats::fp8);
    std::vector<measurement> rows{
        decode("decode 8B bf16 b1", l8, 1),              // HBM bound + 323 kernels
        decode("decode 70B fp8 b1", l70f, 1),            // HBM bound, 70 GB per pass
        decode("decode 8B fp8 b8", l8f, 8, 2000, 500),
        prefill("prefill 8B fp8 8192", l8f, 8192),       // compute bound, large GEMMs
        prefill("prefill 70B fp8 4096", l70f, 4096),
        prefill("prefill 8B fp8 256", l8f, 256),         // small GEMMs: n0
        prefill("prefill 8B fp8 512", l8f, 512),
        prefill("L07-like 8B fp8 2048", l8f, 2048),
        offline("T01-like", l8f, 128, 128, 30'000, 4096),
        offline("T05-like", l70f, 128, 2048, 3'000, 64),
        offline("T10-like", mix, 128, 2048, 3'000, 896),
        online("L01-like tpot", l8, 2.0, 467, 256, plan::metric::tpot_s),
        online("L01-like ttft", l8, 2.0, 467, 256, plan::metric::ttft_s),
        decode("TP8 decode 70B b1", l70_tp8, 1),         // 160 small all-reduces: link latency
        decode("TP8 decode 405B fp8 b1", l405_tp8, 1),   // 1,263 kernels: overhead
        prefill("TP8 prefill 70B 8192", l70_tp8, 8192),  // 134 MB all-reduces: link bandwidth
        decode("TP8 decode 70B b64", l70_tp8, 64, 2000, 500),
        first_token("TP8 first token 405B b16", l405_tp8, 16, 4000, 500),
    };
    measure(rows, truth());
    return rows;
}

/// Standard normal deviates from a fixed seed: Box–Muller on mt19937_64, whose output sequence the
/// standard fixes (std::normal_distribution's is up to the library).
class normal_source {
public:
    explicit normal_source(std::uint64_t seed) : bits_(seed) {}
    double operator()() {
        const double u1 = (static_cast<double>(bits_() >> 11) + 0.5) * 0x1.0p-53;
        const double u2 = static_cast<double>(bits_() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.141592653589793 * u2);
    }
    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(bits_() % n); }

private:
    std::mt19937_64 bits_;
};

/// Row `i` of a random family over deployments, regimes and shapes.
measurement random_row(normal_source& rng, int i) {
    static const std::vector<deployment> ds{
        on_h100(catalog::llama_3_1_8b), on_h100(catalog::llama_3_1_8b, 1, &formats::fp8),
        on_h100(catalog::llama_3_1_70b, 1, &formats::fp8), on_h100(catalog::llama_3_1_70b, 8),
        on_h100(catalog::llama_3_1_405b, 8, &formats::fp8), on_h100(catalog::mixtral_8x7b, 2, &formats::fp8)};
    const std::array<double, 7> inputs{128, 256, 512, 1024, 2048, 4096, 8192};
    const std::array<double, 5> outputs{64, 128, 256, 512, 1024};
    const std::array<double, 7> batches{1, 2, 4, 8, 16, 32, 64};
    const deployment& d = ds[rng.pick(ds.size())];
    const double in = inputs[rng.pick(inputs.size())], out = outputs[rng.pick(outputs.size())];
    const double b = batches[rng.pick(batches.size())];
    const std::string id = "r" + std::to_string(i);
    switch (rng.pick(4)) {
        case 0: return decode(id, d, b, in, out);
        case 1: return first_token(id, d, b, in, out);
        case 2: return prefill(id, d, in);
        default: return offline(id, d, in, out, 0, 0);
    }
}

}  // namespace

TEST_CASE("calibrate: parameters named and bounded") {
    for (parameter p : plan::all_parameters) CHECK(plan::parameter_named(plan::to_string(p)) == p);
    CHECK_FALSE(plan::parameter_named("hbm_bandwidth"));
    plan::efficiency_parameters e;
    plan::value_of(e, parameter::link_fraction) = 0.5;
    CHECK(e.link_fraction == 0.5);
    CHECK(plan::unit_of(parameter::kernel_overhead) == "s");
    CHECK(plan::unit_of(parameter::matmul_half_dim).empty());
}

TEST_CASE("calibrate: recovers known parameters from synthetic H100 rows") {
    const std::vector<measurement> rows = varied_rows();
    const plan::efficiency_parameters p = truth();
    auto recovered = [&](const plan::calibration_result& fit) {
        CHECK(fit.converged);
        CHECK(fit.rows == static_cast<int>(rows.size()));
        CHECK(fit.dof == fit.rows - 6);
        CHECK(fit.rss < 1e-12);
        for (const plan::fitted_parameter& f : fit.parameters) {
            INFO(plan::to_string(f.which) << " = " << f.value << " (true " << plan::value_of(p, f.which) << ", from " << f.start << ")");
            CHECK(std::abs(f.value / plan::value_of(p, f.which) - 1.0) < 0.01);
            CHECK_FALSE(f.at_bound);
        }
        for (const plan::row_residual& r : fit.residuals) CHECK(std::abs(r.relative_error) < 1e-6);
        CHECK(fit.fitted.attention == p.attention);  // not free: kept
        CHECK(fit.calibrated().gpu.efficiency.hbm == fit.fitted.hbm);
    };
    SUBCASE("from the catalog's H100 (B01–B06 micro-benchmark factors)") {
        const plan::calibration_result fit = plan::calibrate(rows, {.free = six});
        CHECK(fit.start == plan::parameters_of(catalog::h100_sxm5));
        recovered(fit);
    }
    SUBCASE("from far away") {
        plan::efficiency_parameters start = plan::parameters_of(catalog::h100_sxm5);
        start.hbm = 0.5;
        start.matmul = 0.95;
        start.matmul_half_dim = 100;
        start.kernel_overhead = 1e-6;
        start.link_latency = 0;
        start.link_fraction = 0.4;
        recovered(plan::calibrate(rows, {.free = six, .start = start}));
    }
    SUBCASE("a subset: the others stay at the start's values") {
        plan::efficiency_parameters start = truth();
        start.hbm = 0.7;
        start.kernel_overhead = 2e-6;
        const plan::calibration_result fit =
            plan::calibrate(rows, {.free = {parameter::hbm, parameter::kernel_overhead}, .start = start});
        REQUIRE(fit.parameters.size() == 2);
        CHECK(fit.find(parameter::hbm)->value == doctest::Approx(0.83).epsilon(1e-6));
        CHECK(fit.find(parameter::kernel_overhead)->value == doctest::Approx(6e-6).epsilon(1e-6));
        CHECK(fit.find(parameter::matmul) == nullptr);
        CHECK(fit.fitted.matmul == 0.66);
        CHECK(fit.correlation.rows() == 2);
        CHECK(fit.correlation(0, 0) == doctest::Approx(1.0));
    }
}

TEST_CASE("calibrate: standard errors and error bars under noise") {
    // 40 calibration rows and 200 held-back rows from one random family, each measured as the true
    // model × e^(0.05·z), z standard normal (fixed seed). The held-back rows go in as check rows:
    // the fit must ignore them.
    normal_source rng(20240611);
    const double noise = 0.05;
    std::vector<measurement> rows;
    for (int i = 0; i < 240; ++i) {
        measurement x = random_row(rng, i);
        x.check = i >= 40;
        x.value = plan::predict(x, truth()) * std::exp(noise * rng());
        rows.push_back(std::move(x));
    }
    const plan::calibration_result fit = plan::calibrate(rows, {.free = six});
    REQUIRE(fit.rows == 40);
    CHECK(fit.converged);
    // s estimates the noise: with 34 degrees of freedom its relative spread is 1/√68 ≈ 12 %.
    CHECK(fit.sigma == doctest::Approx(noise).epsilon(0.3));
    SUBCASE("each parameter within 3.5 standard errors of the truth") {
        for (const plan::fitted_parameter& f : fit.parameters) {
            const double z = (f.value - plan::value_of(truth(), f.which)) / f.standard_error;
            INFO(plan::to_string(f.which) << " = " << f.value << " ± " << f.standard_error << ", true "
                 << plan::value_of(truth(), f.which) << ", z = " << z);
            CHECK(f.standard_error > 0.0);
            CHECK(std::abs(z) < 3.5);
        }
        for (Eigen::Index i = 0; i < fit.correlation.rows(); ++i)
            for (Eigen::Index j = 0; j < fit.correlation.cols(); ++j)
                CHECK(std::abs(fit.correlation(i, j)) <= 1.0 + 1e-12);
    }
    SUBCASE("intervals cover held-back points at about their stated rate") {
        // 200 points: the binomial spread of the observed rate is √(0.8·0.2/200) ≈ 2.8 points; s
        // itself is uncertain by ~12 %, which moves an 80 % interval's true coverage by ~±4 points.
        // Together ~±5 points at one standard deviation: [70 %, 90 %] is two of them.
        int covered80 = 0, covered95 = 0, held = 0;
        for (const measurement& x : rows) {
            if (!x.check) continue;
            ++held;
            const plan::prediction_interval i80 = plan::predict_with_uncertainty(x, fit, 0.8);
            const plan::prediction_interval i95 = plan::predict_with_uncertainty(x, fit, 0.95);
            CHECK(i80.low < i80.value);
            CHECK(i80.value < i80.high);
            CHECK(i95.low < i80.low);
            CHECK(i95.high > i80.high);
            covered80 += i80.contains(x.value);
            covered95 += i95.contains(x.value);
        }
        REQUIRE(held == 200);
        const double rate80 = covered80 / 200.0, rate95 = covered95 / 200.0;
        MESSAGE("coverage of 200 held-back points: 80 % interval " << rate80 << ", 95 % interval " << rate95);
        CHECK(rate80 >= 0.70);
        CHECK(rate80 <= 0.90);
        CHECK(rate95 >= 0.88);  // binomial spread ~1.5 points; the same ±12 % in s moves it ~±2
    }
    SUBCASE("any figure on the calibrated hardware: TPOT of a deployment at a batch") {
        const deployment d = on_h100(catalog::llama_3_1_70b, 8);
        const plan::prediction_interval i = plan::predict_with_uncertainty(
            [&](const hardware& h) {
                deployment e = d;
                e.hw = h;
                return serve_at_batch(e, {.input = 1000_tok, .output = 200_tok}, 32).tpot.value();
            },
            fit, 0.9);
        CHECK(i.coverage == 0.9);
        CHECK(i.value == doctest::Approx(serve_at_batch({.m = d.m, .hw = fit.calibrated(), .layout = d.layout},
                                                        {.input = 1000_tok, .output = 200_tok}, 32)
                                             .tpot.value()));
        CHECK(i.low < i.value);
        // At least the noise: ±t(0.95, 34)·s ≈ ±1.69·0.05 in ln.
        CHECK(std::log(i.high / i.value) >= 1.6 * fit.sigma);
    }
}

TEST_CASE("calibrate: check rows are not fitted") {
    std::vector<measurement> rows = varied_rows();
    const plan::calibration_result plain = plan::calibrate(rows, {.free = six});
    measurement wild = decode("wild check", on_h100(catalog::llama_3_1_8b), 4);
    wild.value = 1.0;  // a second per token: nowhere near the model
    wild.check = true;
    rows.insert(rows.begin() + 3, wild);
    const plan::calibration_result with_check = plan::calibrate(rows, {.free = six});
    CHECK(with_check.fitted == plain.fitted);
    CHECK(with_check.rows == plain.rows);
    SUBCASE("unless all rows are asked for") {
        const plan::calibration_result all = plan::calibrate(rows, {.free = six, .include_check_rows = true});
        CHECK(all.rows == plain.rows + 1);
        CHECK(all.rss > 1.0);
    }
}

TEST_CASE("calibrate: refusals name the field, the value and the rule") {
    const std::vector<measurement> rows = varied_rows();
    auto error = [](std::span<const measurement> r, const plan::calibration_options& o) {
        return test::error_of([&] { return plan::calibrate(r, o); });
    };
    SUBCASE("no more rows than free parameters") {
        const std::string msg = error(std::span(rows).first(6), {.free = six});
        CHECK(test::contains(msg, "llmcost: calibration: fitted rows = 6: need more rows than free parameters (6)"));
        std::vector<measurement> checks(rows.begin(), rows.begin() + 10);
        for (std::size_t i = 0; i < 5; ++i) checks[i].check = true;
        CHECK(test::contains(error(checks, {.free = six}), "fitted rows = 5"));
        CHECK(test::contains(error(checks, {.free = six}), "check rows are not fitted"));
    }
    SUBCASE("a parameter no row depends on") {
        // Without TP rows nothing crosses the links.
        std::vector<measurement> tp1;
        for (const measurement& x : rows)
            if (x.d.layout.tp == 1) tp1.push_back(x);
        const std::string msg = error(tp1, {.free = {parameter::hbm, parameter::link_latency}});
        CHECK(test::contains(msg, "llmcost: calibration: link_latency = 3.7e-06: unidentifiable: no fitted row's prediction depends on it"));
        CHECK(test::contains(msg, "tp > 1"));
    }
    SUBCASE("parameters the rows cannot tell apart") {
        // Every compute-bound GEMM has one size, so e∞ and n₀ enter only as e∞·n/(n + n₀): the
        // prefills run 2048 rows, and so do the decode rows' prompt steps (a 2047-token prompt
        // beside the one decoding sequence); their other steps are bound by HBM.
        const deployment l8 = on_h100(catalog::llama_3_1_8b), l8f = on_h100(catalog::llama_3_1_8b, 1, &formats::fp8);
        std::vector<measurement> same_size{prefill("a", l8, 2048), prefill("b", l8f, 2048), decode("c", l8, 1, 2047, 200),
                                           decode("d", l8f, 1, 2047, 100)};
        measure(same_size, truth());
        const std::string msg = error(same_size, {.free = {parameter::hbm, parameter::matmul, parameter::matmul_half_dim}});
        CHECK(test::contains(msg, "llmcost: calibration: matmul, matmul_half_dim = "));
        CHECK(test::contains(msg, "unidentifiable together"));
    }
    SUBCASE("rows on different hardware") {
        std::vector<measurement> mixed(rows.begin(), rows.begin() + 8);
        mixed[5].d.hw = catalog::h200_sxm;
        mixed[5].id = "on H200";
        const std::string msg = error(mixed, {.free = {parameter::hbm}});
        CHECK(test::contains(msg, "hardware descriptors = 2: row 'decode 8B bf16 b1' runs on H100 SXM5, row 'on H200' on H200 SXM"));
        CHECK(test::contains(msg, "fit each hardware's rows separately"));
    }
    SUBCASE("a row the cost model refuses, named") {
        std::vector<measurement> big(rows.begin(), rows.begin() + 8);
        big.push_back(offline("405B on one GPU", on_h100(catalog::llama_3_1_405b), 128, 128, 100, 0));
        const std::string msg = error(big, {.free = {parameter::hbm}});
        CHECK(test::contains(msg, "llmcost: calibration row '405B on one GPU': weights per GPU (B) = "));
        CHECK(test::contains(msg, "does not fit"));
        CHECK(test::contains(msg, "at the starting parameters"));
    }
    SUBCASE("a start outside the bounds, a parameter named twice") {
        plan::efficiency_parameters start = truth();
        start.hbm = 1.5;
        CHECK(test::contains(error(rows, {.free = {parameter::hbm}, .start = start}),
                             "calibration start: hbm = 1.5: a fraction starts in (0, max_fraction]"));
        CHECK(test::contains(error(rows, {.free = {parameter::hbm, parameter::hbm}}), "hbm = 2: a free parameter is named twice"));
    }
    SUBCASE("an interval for another GPU, or at a coverage outside (0, 1)") {
        const plan::calibration_result fit = plan::calibrate(rows, {.free = {parameter::hbm}});
        measurement other = rows.front();
        other.d.hw = catalog::h200_sxm;
        CHECK(test::contains(test::error_of([&] { return plan::predict_with_uncertainty(other, fit); }),
                             "the row runs on H200 SXM but the calibration is of H100 SXM5"));
        CHECK(test::contains(test::error_of([&] { return plan::predict_with_uncertainty(rows.front(), fit, 1.0); }),
                             "coverage = 1: must be in (0, 1)"));
    }
}

TEST_CASE("calibrate: a fraction stops at its bound") {
    // Rows measured on H100s whose HBM really streams 1.5× the catalog's bandwidth: the fit would
    // want hbm = 1.5 × 0.83, but a fraction is capped at max_fraction = 1 (above it the hardware
    // descriptor is invalid, and every pricing path refuses it).
    std::vector<measurement> rows = varied_rows();
    std::vector<measurement> faster = rows;
    for (measurement& x : faster) x.d.hw.gpu.hbm_bandwidth = x.d.hw.gpu.hbm_bandwidth * 1.5;
    measure(faster, truth());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].value = faster[i].value;
    const plan::calibration_result fit = plan::calibrate(rows, {.free = {parameter::hbm, parameter::kernel_overhead}});
    CHECK(fit.find(parameter::hbm)->value == doctest::Approx(1.0));
    CHECK(fit.find(parameter::hbm)->at_bound);
    CHECK(fit.converged);
    CHECK(test::contains(test::error_of([&] { return plan::calibrate(rows, {.max_fraction = 1.2}); }),
                         "max_fraction = 1.2: must be in (0, 1]"));
}
