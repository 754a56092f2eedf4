// The validation report's one statistic (examples/tools/validation/summary.hpp): `summarise` over a vector in which
// a row llmcost cannot serve is an error of +∞, the one representation of a refused row. Every expectation worked by
// hand from the rule's text: a refused row is a miss, ranked beyond every priced row (|error| = ∞), outside ±10% and
// ±25%, and out of the mean signed error; quantiles interpolate at rank q·(n − 1), never towards ∞.
#include <doctest/doctest.h>

#include "validation/summary.hpp"

#include <cmath>
#include <limits>
#include <vector>

using llmcost::validation::quantile;
using llmcost::validation::refused_error;
using llmcost::validation::summarise;
using llmcost::validation::summary;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("validation summary: a refused row is +inf in the same vector, a miss") {
    SUBCASE("three priced rows and two refused") {
        // |errors| sorted: 0.05, 0.20, 0.30, ∞, ∞. Median at rank 2: 0.30. p90 at rank 3.6: between ∞ and ∞: ∞.
        // Within ±10%: 0.05 alone; ±25%: 0.05 and −0.20. Mean signed over the priced: (0.05 − 0.20 + 0.30) ÷ 3 = 0.05.
        const summary s = summarise({0.05, -0.20, refused_error, 0.30, refused_error});
        CHECK(s.n == 5);
        CHECK(s.refused == 2);
        CHECK(s.median == doctest::Approx(0.30));
        CHECK(std::isinf(s.p90));
        CHECK(std::isinf(s.max));
        CHECK(s.within_10 == 1);
        CHECK(s.within_25 == 2);
        CHECK(s.mean_signed == doctest::Approx(0.05));
    }
    SUBCASE("a quantile whose upper neighbour is refused is infinite, not interpolated") {
        // 0.1, 0.2, 0.3, 0.4, ∞: median at rank 2 is 0.3; p90 at rank 3.6 lies between 0.4 and ∞: ∞.
        const summary s = summarise({0.4, -0.1, refused_error, 0.2, -0.3});
        CHECK(s.median == doctest::Approx(0.3));
        CHECK(std::isinf(s.p90));
        CHECK(s.mean_signed == doctest::Approx((0.4 - 0.1 + 0.2 - 0.3) / 4.0));
        // Without the refused row: 0.1 … 0.4, median at rank 1.5: 0.25; p90 at rank 2.7: 0.3 + 0.7 · 0.1 = 0.37.
        const summary priced = summarise({0.4, -0.1, 0.2, -0.3});
        CHECK(priced.refused == 0);
        CHECK(priced.median == doctest::Approx(0.25));
        CHECK(priced.p90 == doctest::Approx(0.37));
        CHECK(priced.max == doctest::Approx(0.4));
    }
    SUBCASE("every row refused: medians of ∞, no mean") {
        const summary s = summarise({refused_error, refused_error});
        CHECK(s.n == 2);
        CHECK(s.refused == 2);
        CHECK(std::isinf(s.median));
        CHECK(s.within_10 == 0);
        CHECK(s.within_25 == 0);
        CHECK(s.mean_signed == 0.0);
    }
    SUBCASE("no rows") {
        const summary s = summarise({});
        CHECK(s.n == 0);
        CHECK(s.refused == 0);
        CHECK(s.median == 0.0);
    }
    SUBCASE("law: refusing a row never improves a median, a p90 or a count within ±10%") {
        const std::vector<double> base{0.02, -0.15, 0.40, 0.08, -0.05, 0.22, 0.31};
        const summary b = summarise(base);
        for (std::size_t k = 0; k < base.size(); ++k) {
            std::vector<double> one = base;
            one[k] = refused_error;
            const summary r = summarise(one);
            CHECK(r.n == b.n);
            CHECK(r.refused == 1);
            CHECK(r.median >= b.median);
            CHECK(r.p90 >= b.p90);
            CHECK(r.within_10 <= b.within_10);
            CHECK(r.within_25 <= b.within_25);
        }
    }
    SUBCASE("quantile: the order of the rows does not matter") {
        CHECK(quantile({3.0, 1.0, 2.0}, 0.5) == 2.0);
        CHECK(quantile({inf, 1.0, 2.0}, 0.5) == 2.0);
        CHECK(std::isinf(quantile({inf, 1.0}, 0.5)));
        CHECK(quantile({}, 0.5) == 0.0);
    }
}
