// Every catalog entry keeps every rule of its descriptor: `validate()` runs in a constant
// expression, so a broken rule stops this file's compilation with the field and the rule in the
// compiler's note (the catalog headers do not validate in every user's translation unit).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

namespace {
using namespace llmcost;

template <class Entry, std::size_t N>
constexpr bool all_valid(const std::array<Entry, N>& entries) {
    for (const Entry& e : entries) e.validate();
    return true;
}

static_assert(all_valid(catalog::all_hardware), "llmcost: a catalog GPU breaks a rule of hardware::validate");
static_assert(all_valid(catalog::all_models), "llmcost: a catalog model breaks a rule of model::validate");
static_assert((catalog::seed_site.validate(), true));
static_assert((catalog::seed_journey.validate(), true), "llmcost: the seed journey breaks a rule of journey::scenario::validate");
static_assert((catalog::krw_per_usd_2025.validate(), true));
static_assert((catalog::seed_token_factory.validate(), true));
static_assert((catalog::seed_token_factory_site.validate(), true));
static_assert(all_valid(catalog::gpu_market_prices), "llmcost: a market price breaks a rule of gpu_market_price::validate");

// Pricing a GPU-hour at compile time: the listed on-demand price, the committed one, and the
// fallback to capex + power where none is listed (H800: no public price found).
constexpr gpu_hour_price h100_market = price_gpu_hour(catalog::h100_sxm5, catalog::seed_site, 1.0, pricing_basis::market,
                                                      catalog::market_price_of("H100 SXM5"));
static_assert(h100_market.rate == dollars_per_hour(2.99) && h100_market.basis == pricing_basis::market);
static_assert(price_gpu_hour(catalog::h100_sxm5, catalog::seed_site, 1.0, pricing_basis::committed,
                             catalog::market_price_of("H100 SXM5")).rate == dollars_per_hour(2.35));
constexpr gpu_hour_price h800 = price_gpu_hour(catalog::h800_sxm, catalog::seed_site, 1.0, pricing_basis::market,
                                               catalog::market_price_of("H800 SXM"));
static_assert(h800.fell_back() && h800.basis == pricing_basis::tco &&
              h800.rate == gpu_hour_cost(catalog::h800_sxm, catalog::seed_site, 1.0).total());
// One NVL72 rack is copper only; the 73rd GPU brings every GPU's transceivers (S9).
static_assert(optics_of(catalog::gb200_nvl72, 72).power == watts(0.0));
static_assert(optics_of(catalog::gb200_nvl72, 73).optical);
}  // namespace
