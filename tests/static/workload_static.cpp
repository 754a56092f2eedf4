// Workload descriptors and the queueing closed forms are constant expressions: a plan can pin the
// moments of its traffic and the waits it assumes (issue 16).
#include <llmcost/descriptors/workload.hpp>
#include <llmcost/serving/queueing.hpp>
#include <llmcost/serving/throughput.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/catalog/hardware.hpp>

#include <array>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

// Integers 100 … 300: mean 200, E[L²] = (201² − 1)/12 + 200² = 43,366.67.
constexpr workload::length_distribution u = workload::uniform(100_tok, 300_tok);
static_assert(u.mean() == 200.0);
static_assert(u.second_moment() == (201.0 * 201.0 - 1.0) / 12.0 + 40000.0);
// A lognormal of mean 1,000 and deviation 1,000: a random token sits in a sequence of 2,000 on average.
static_assert(workload::lognormal(1000_tok, 1000_tok).length_biased_mean() == 2000.0);
constexpr std::array bins{workload::length_bin{1, 1, 1}, workload::length_bin{3, 3, 1}};
static_assert(workload::histogram(bins).mean() == 2.0);
static_assert(workload::histogram(bins).second_moment() == 5.0);
static_assert(workload::poisson(250_ms).rate_per_second() == 4.0);

// M/D/1 at ρ = 0.5 waits ρS ÷ 2(1 − ρ) = S/2; M/M/1 waits S.
static_assert(queueing::md1_wait(1_s, 0.5) == 0.5_s);
static_assert(queueing::mm1_wait(1_s, 0.5) == 1_s);
// Exponential service (E[S²] = 2 E[S]²) makes M/G/1 the M/M/1 wait.
static_assert(approx_equal(queueing::mg1_wait(1_s, seconds(1.4142135623730951), 0.5), queueing::mm1_wait(1_s, 0.5), 1e-15));
// An empty engine (M/G/∞ count): e^−0 = 1 of arrivals find it empty, e^−1 = 0.3679 at one request held.
static_assert(queueing::empty_engine(0.0) == 1.0);
static_assert(queueing::empty_engine(1.0) > 0.36787944 && queueing::empty_engine(1.0) < 0.36787945);

// Batch 1 (issue 16): TPOT is the decode step at I + O/2, not a share of the request's own prompt.
constexpr deployment d{.m = catalog::llama_3_1_8b, .hw = catalog::h100_sxm5};
constexpr serving_point one = serve_at_batch(d, {.input = 4000_tok, .output = 10_tok}, 1);
static_assert(one.tpot == decode_pass(d, 1, 4005_tok).time());
}  // namespace
