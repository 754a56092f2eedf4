// Compile-time checks of catalog::lookup: names are read at compile time as at run time.
// Compiling this file is the test.
#include <llmcost/catalog/lookup.hpp>

namespace {
using namespace llmcost;

// Exact, loose (case, spaces, dashes) and unique-prefix names pick one entry.
static_assert(catalog::lookup<hardware>("H100 SXM5").match == &catalog::all_hardware[0]);
static_assert(catalog::lookup<hardware>("h100-sxm5").match == catalog::lookup<hardware>("H100 SXM5").match);
static_assert(catalog::lookup<hardware>("h100").match == catalog::lookup<hardware>("H100 SXM5").match);
static_assert(catalog::lookup<model>("llama-3.1-70b").match == &catalog::all_models[2]);
static_assert(catalog::lookup<model>("LLAMA 3.1 70B").match == &catalog::all_models[2]);
// Several names start "H": ambiguous, and the suggestions are those names.
static_assert(!catalog::lookup<hardware>("H").match && catalog::lookup<hardware>("H").ambiguous);
static_assert(catalog::lookup<hardware>("H").suggestions.size() == 3);
// Unknown: the three closest names, not ambiguous.
static_assert(!catalog::lookup<model>("llama-9b") && !catalog::lookup<model>("llama-9b").ambiguous);
static_assert(catalog::lookup<model>("llama-9b").suggestions.size() == catalog::lookup_suggestions);
static_assert(catalog::lookup<model>("llama-9b").suggestions[0] == "Llama-2-70B");

}  // namespace
