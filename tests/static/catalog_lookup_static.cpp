// Compile-time checks of catalog::lookup: names are read at compile time as at run time.
// Compiling this file is the test.
#include <llmcost/catalog/lookup.hpp>

#include <string_view>

namespace {
using namespace llmcost;

// Exact, loose (case, spaces, dashes) and unique-prefix names pick one entry.
static_assert(catalog::lookup<hardware>("H100 SXM5").match == &catalog::all_hardware[0]);
static_assert(catalog::lookup<hardware>("h100-sxm5").match == catalog::lookup<hardware>("H100 SXM5").match);
static_assert(catalog::lookup<hardware>("h100").match == catalog::lookup<hardware>("H100 SXM5").match);
static_assert(catalog::lookup<model>("llama-3.1-70b").match == &catalog::all_models[2]);
static_assert(catalog::lookup<model>("LLAMA 3.1 70B").match == &catalog::all_models[2]);
// Several names start "H": ambiguous, and the suggestions are those names (H100 SXM5, H200 SXM,
// H800 SXM, H100 PCIe, H100 NVL, H20: not one product).
static_assert(!catalog::lookup<hardware>("H").match && catalog::lookup<hardware>("H").ambiguous);
static_assert(catalog::lookup<hardware>("H").suggestions.size() == 6);
// A product's bare name is the first word of every entry it starts: it picks the first listed.
static_assert(catalog::lookup<hardware>("A100").match == &catalog::all_hardware[11]);
static_assert(catalog::all_hardware[11].name == std::string_view("A100 SXM 80GB"));
static_assert(catalog::lookup<hardware>("A100 SXM").ambiguous);  // two SXM parts, and not a product name
static_assert(catalog::lookup<hardware>("L4").match->name == std::string_view("L4"));  // exact beats "L40S"
// Unknown: the three closest names, not ambiguous.
static_assert(!catalog::lookup<model>("llama-9b") && !catalog::lookup<model>("llama-9b").ambiguous);
static_assert(catalog::lookup<model>("llama-9b").suggestions.size() == catalog::lookup_suggestions);
static_assert(catalog::lookup<model>("llama-9b").suggestions[0] == "Llama-2-70B");

}  // namespace
