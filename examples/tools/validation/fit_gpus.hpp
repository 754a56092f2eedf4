#pragma once
/// \file
/// The GPU each shipped engine fit was fitted on (tables/engine_fits.csv), and the fit GPU a rule picks its
/// calibration subset on: the recorded GPU where the table has one, else the rule's pick (`busiest_gpu`, the GPU
/// with most of the rows: a new profile's first fit). Session 46 showed why: added rows on another GPU moved
/// vLLM on Hopper's pick from H200 SXM, where its shipped figures were fitted, to H100 SXM5, so the report
/// counted the H200 rows those figures were fitted on as check rows and took 12 H100 rows that fitted nothing
/// out of the check statistics. A recorded GPU does not move with added rows. Unit-tested in
/// tests/unit/unit-fit-gpus.cpp.

#include "front_end_rule.hpp"

#include <llmcost/catalog/engines.hpp>
#include <llmcost/io/csv.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/plan/measurement.hpp>

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::validation {

/// Which of a profile's fitted figures a row of tables/engine_fits.csv records, by the fit of validation.cpp that
/// gives it.
enum class fit_kind {
    launch,        ///< `fit_engines`: the launch cost per kernel (`launch_graph_us`)
    front_end,     ///< `fit_front_ends`: the front end per request (`request_overhead_us`)
    cold_opening,  ///< `fit_cold_openings`: the cold opening (`cold_start_s`, `cold_prompt_token_us`)
    host_enqueue,  ///< `fit_host_enqueue`: the host's enqueue per kernel without CUDA graphs
    v0_host_loop,  ///< `fit_v0_passes`: vLLM V0's scheduler pass on the host
    version,       ///< `fit_versions`: an earlier release's profile, launch cost and front end fitted together
    v0_output,     ///< `fit_v0_output_tokens`: vLLM V0's synchronous output processing per sequence-step
    padded_moe_block,  ///< `fit_padded_moe_blocks`: an expert runner's time per padded m-block (MORI-EP's buffer)
};

inline constexpr std::array fit_words{std::string_view("launch"),       std::string_view("front_end"),
                                      std::string_view("cold_opening"), std::string_view("host_enqueue"),
                                      std::string_view("v0_host_loop"), std::string_view("version"),
                                      std::string_view("v0_output"),    std::string_view("padded_moe_block")};

[[nodiscard]] constexpr std::string_view to_string(fit_kind f) { return fit_words[static_cast<std::size_t>(f)]; }

/// One row of tables/engine_fits.csv.
struct recorded_fit {
    std::string profile;  ///< a profile's `name` in tables/engines.csv
    fit_kind fit = fit_kind::launch;
    std::string gpu;      ///< a GPU of tables/hardware.csv, of the profile's architecture
    std::string source;   ///< where the record comes from (the report or note that names the GPU)
    int line = 0;
};

/// The recorded fits, looked up by profile and fit.
struct fit_records {
    std::vector<recorded_fit> rows;

    [[nodiscard]] const recorded_fit* find(std::string_view profile, fit_kind fit) const {
        for (const recorded_fit& r : rows)
            if (r.profile == profile && r.fit == fit) return &r;
        return nullptr;
    }
};

/// The rows of tables/engine_fits.csv (columns profile, fit, gpu, source, note). Refused, naming the file, line,
/// column, value and rule: a profile that is no `name` of the engine catalog; a fit word not in `fit_words`; a GPU
/// the catalog does not know, or of another architecture than the profile's; an empty source; a profile and fit
/// that appear twice.
[[nodiscard]] inline fit_records read_fit_records(const io::csv_table& t) {
    static constexpr std::array columns{"profile", "fit", "gpu", "source", "note"};
    std::array<std::size_t, columns.size()> at{};
    for (std::size_t c = 0; c < columns.size(); ++c) at[c] = t.column(columns[c]);
    fit_records out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const io::csv_row& row = t.rows()[i];
        const auto fail = [&](std::size_t c, const std::string& rule) {
            throw io::load_error(t.origin(), columns[c], rule, row.line, static_cast<int>(at[c]) + 1,
                                 '"' + row.fields[at[c]] + '"');
        };
        recorded_fit r;
        r.line = row.line;
        r.profile = row.fields[at[0]];
        const engine_profile* profile = nullptr;
        for (const engine_profile& e : catalog::all_engines)
            if (e.name == r.profile) profile = &e;
        if (profile == nullptr) fail(0, "unknown profile: not a name of tables/engines.csv");
        const std::string& word = row.fields[at[1]];
        std::size_t k = 0;
        while (k < fit_words.size() && fit_words[k] != word) ++k;
        if (k == fit_words.size())
            fail(1, "unknown fit: one of launch, front_end, cold_opening, host_enqueue, v0_host_loop, version, v0_output, "
                    "padded_moe_block");
        r.fit = static_cast<fit_kind>(k);
        r.gpu = row.fields[at[2]];
        const std::optional<gpu_architecture> arch = catalog::architecture_of(r.gpu);
        if (!arch) fail(2, "unknown GPU: not a name of tables/hardware.csv");
        if (*arch != profile->architecture)
            fail(2, "a GPU of " + std::string(to_string(*arch)) + ", not of the profile's architecture (" +
                        std::string(to_string(profile->architecture)) + ")");
        r.source = row.fields[at[3]];
        if (r.source.empty()) fail(3, "a recorded fit GPU names its source");
        if (const recorded_fit* first = out.find(r.profile, r.fit))
            fail(1, "profile and fit appear twice (first on line " + std::to_string(first->line) + ")");
        out.rows.push_back(r);
    }
    return out;
}

[[nodiscard]] inline fit_records load_fit_records(const std::filesystem::path& file) {
    return read_fit_records(io::load_csv(file));
}

/// A fit's GPU and where it comes from.
struct fit_gpu {
    std::string gpu;
    bool recorded = false;  ///< tables/engine_fits.csv's; else the rule's pick (`busiest_gpu`)

    /// "recorded" or "rule", as the report prints it.
    [[nodiscard]] std::string_view origin() const { return recorded ? "recorded" : "rule"; }
};

/// The GPU a fit picks its calibration subset on: the one recorded for the profile and fit, whatever rows were
/// added since; else the rule's, the GPU with most of `rows` (ties: the first in their order). Empty where there
/// is neither a record nor a row.
[[nodiscard]] inline fit_gpu choose_fit_gpu(const fit_records& records, std::string_view profile, fit_kind fit,
                                            const std::vector<const plan::measurement*>& rows) {
    if (const recorded_fit* r = records.find(profile, fit)) return {r->gpu, true};
    if (rows.empty()) return {};
    return {busiest_gpu(rows), false};
}

}  // namespace llmcost::validation
