// Every catalog entry keeps every rule of its descriptor: `validate()` runs in a constant
// expression, so a broken rule stops this file's compilation with the field and the rule in the
// compiler's note (the catalog headers do not validate in every user's translation unit).
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
}  // namespace
