// catalog::lookup: a catalog entry by the name a person typed, or the names to try instead; the
// expectations are worked out by hand from the rules in lookup.hpp (edit distances counted below).
#include <llmcost/catalog/lookup.hpp>
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include <array>
#include <string_view>
#include <vector>

using namespace llmcost;

TEST_CASE("catalog::lookup: one name, loosely, or the names to try") {
    SUBCASE("exact and loose names pick the entry") {
        // The match points into all_hardware / all_models, which hold copies of the named entries.
        for (const char* name : {"H100 SXM5", "h100 sxm5", "h100-sxm5", "H100SXM5", "h100", " H 1 0 0 "})
            CHECK(catalog::lookup<hardware>(name).match == &catalog::all_hardware[0]);
        CHECK(catalog::all_hardware[0].name == "H100 SXM5");
        CHECK(catalog::lookup<model>("Llama-3.1-70B").match->name == "Llama-3.1-70B");
        CHECK(catalog::lookup<model>("llama 3.1 70b").match->name == "Llama-3.1-70B");
        CHECK(catalog::lookup<model>("deepseek").match->name == "DeepSeek-V3");  // the only one it starts
    }
    SUBCASE("an exact name wins over longer names it starts") {
        struct entry {
            std::string_view name;
        };
        const std::array<entry, 2> gpus{{{"H100"}, {"H100 NVL"}}};
        CHECK(catalog::lookup(gpus, "h100").match == &gpus[0]);
        CHECK(catalog::lookup(gpus, "h100n").match == &gpus[1]);
    }
    SUBCASE("a product's bare name picks its first-listed variant") {
        // "h100" starts "H100 SXM5", "H100 PCIe" and "H100 NVL", and is the first word of each.
        CHECK(catalog::lookup<hardware>("H100").match->name == "H100 SXM5");
        CHECK(catalog::lookup<hardware>("a100").match->name == "A100 SXM 80GB");
        const auto sxm = catalog::lookup<hardware>("A100 SXM");  // starts two names, is no product name
        CHECK(sxm.ambiguous);
        CHECK(sxm.problem() == "ambiguous; it starts A100 SXM 80GB, A100 SXM 40GB");
        CHECK(catalog::lookup<hardware>("L4").match->name == "L4");  // exact, not the "L40S" it starts
        CHECK(catalog::lookup<hardware>("H20").match->name == "H20");
    }
    SUBCASE("a name that starts several names is ambiguous") {
        // "llama31" starts "llama318b", "llama3170b" and "llama31405b".
        const auto several = catalog::lookup<model>("llama-3.1");
        CHECK_FALSE(several);
        CHECK(several.ambiguous);
        CHECK(several.suggestions == std::vector<std::string_view>{"Llama-3.1-8B", "Llama-3.1-70B", "Llama-3.1-405B"});
        CHECK(several.problem() == "ambiguous; it starts Llama-3.1-8B, Llama-3.1-70B, Llama-3.1-405B");
    }
    SUBCASE("an unknown name gets the three closest, closest first") {
        const auto none = catalog::lookup<hardware>("H1OO");
        CHECK(none.match == nullptr);
        CHECK_FALSE(none.ambiguous);
        // "h1oo" is two edits from the first word "h100" of "H100 SXM5", "H100 PCIe" and "H100 NVL"
        // (o→0 twice) and three from "h200", "h800" and "h20"; equally close names keep catalog order.
        CHECK(none.problem() == "not in the catalog; closest: H100 SXM5, H100 PCIe, H100 NVL");
        const auto model_none = catalog::lookup<model>("llama-9b");
        CHECK(model_none.problem() == "not in the catalog; closest: Llama-2-70B, Llama-3.1-8B, Llama-3.1-70B");
    }
    SUBCASE("any range of entries with a name") {
        const std::vector<facility> sites{catalog::seed_site, catalog::seed_token_factory_site};
        CHECK(catalog::lookup(sites, "t1 site korea").match == &sites[1]);
        CHECK(catalog::lookup(sites, "seed").match == &sites[0]);
        CHECK(catalog::lookup(sites, "").suggestions.size() == 2);  // fewer entries than three
    }
}
