#pragma once
/// \file
/// The validation tool's subset rules that a unit test reaches (tests/unit/unit-front-end-rule.cpp):
/// the fit GPU of a set of rows, which rows may enter an engine's launch-cost fit (`launch_candidate`),
/// and which closed-loop TTFT rows fit an engine's per-request front end
/// (`engine_overheads::request`; the rule's text is `fit_front_ends`'s in validation.cpp,
/// docs/sglang-closed-loop-ttft.md §1 and docs/sglang-cdna4-ttft.md).

#include <llmcost/plan/measurement.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::validation {

/// The GPU with the most of the rows (ties: the first in their order).
[[nodiscard]] inline std::string busiest_gpu(const std::vector<const plan::measurement*>& rows) {
    std::vector<std::pair<std::string, std::size_t>> counts;
    for (const plan::measurement* x : rows) {
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == x->d.hw.name; });
        if (it == counts.end()) counts.emplace_back(std::string(x->d.hw.name), 1);
        else ++it->second;
    }
    return std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

/// The run a closed-loop row belongs to: its id less the metric's suffix. Every closed-loop run of
/// tables/measurements.csv is three rows named `<run>-tok`, `<run>-ttft`, `<run>-tpot`.
[[nodiscard]] inline std::string_view run_of(std::string_view id) {
    const std::size_t dash = id.rfind('-');
    return dash == std::string_view::npos ? id : id.substr(0, dash);
}

/// The closed-loop runs that stalled: those whose TTFT row is `plan::stalled` (p99 TTFT above
/// `plan::stall_ratio` × its median; only a TTFT row carries the percentiles), by `run_of`.
[[nodiscard]] inline std::vector<std::string> stalled_runs(const std::vector<plan::measurement>& rows) {
    std::vector<std::string> runs;
    for (const plan::measurement& x : rows)
        if (x.prompts > 0.0 && x.what == plan::metric::ttft_s && plan::stalled(x)) runs.emplace_back(run_of(x.id));
    return runs;
}

/// Whether a row may enter an engine's launch-cost fit (`fit_engines` in validation.cpp, before its
/// every-third pick by stratum): not an online row (a rate the model may not serve), not a TTFT row
/// (under closed-loop clients it carries the prompt's admission), not a run with CUDA graphs off (held
/// to the host's enqueue, fitted apart), and not a stalled run's output tokens/s row (session 21, the
/// lead's clause: that row divides by the run's whole time, which holds the stall no engine step
/// explains, ~70 s on a ≈ 160 s SGLang B200 run, while a per-kernel cost is a per-step quantity;
/// session 16's fits on run means left the stalled runs out the same way). The stalled run's TPOT row
/// stays a candidate: the stall is paid by ~2% of the requests before their first token, outside
/// every inter-token gap. A disaggregated row (`plan::measurement::disaggregated`, session 23) is never
/// a calibration row of any fit: the fits are aggregated engines' per-step figures. A row left out
/// stays a check row.
[[nodiscard]] inline bool launch_candidate(const plan::measurement& x, const std::vector<std::string>& stalled) {
    if (x.disaggregated()) return false;
    if (x.how == plan::scenario::online || x.what == plan::metric::ttft_s || x.cuda_graphs == false) return false;
    if (x.what == plan::metric::batch_latency_s) return false;  // a whole batch's makespan: not a tokens/s or TPOT stratum
    if (x.what == plan::metric::output_tokens_per_s && x.prompts > 0.0)
        return std::find(stalled.begin(), stalled.end(), run_of(x.id)) == stalled.end();
    return true;
}

/// A latency row (TTFT, TPOT or a batch's makespan, `batch_latency_s`): its group is a latency group, apart from
/// the tokens/s rows (the check-row table's groups, the launch fit's strata).
[[nodiscard]] inline bool latency_metric(const plan::measurement& x) {
    return x.what != plan::metric::output_tokens_per_s;
}

/// A row of the closed-loop section (the steady state at the client's concurrency beside the simulated run): a
/// colocated closed-loop client's row; a disaggregated row has its own simulated run, and a batch's makespan
/// (`batch_latency_s`) has no steady state to set beside it.
[[nodiscard]] inline bool closed_loop_pair(const plan::measurement& x) {
    return x.prompts > 0.0 && !x.disaggregated() && x.what != plan::metric::batch_latency_s;
}

/// The rows the front-end rule picks from an engine's closed-loop TTFT rows on one architecture.
struct front_end_rows {
    std::string gpu;                                         ///< the fit GPU (`choose_fit_gpu`, fit_gpus.hpp)
    double concurrency = std::numeric_limits<double>::infinity();  ///< the lowest client concurrency there
    double prompt = std::numeric_limits<double>::infinity();       ///< the shortest prompt at it (tokens)
    bool every_prompt = false;  ///< the shortest prompt gave fewer than two: every prompt length's rows
    std::vector<const plan::measurement*> candidates;  ///< by id
    std::vector<const plan::measurement*> subset;      ///< the calibration rows, by id
};

/// The rule, fixed before any fit: on the fit GPU `gpu` (the recorded one, else `busiest_gpu`:
/// `choose_fit_gpu`, fit_gpus.hpp), the candidates are the rows at the
/// client's lowest concurrency (batch × dp) and, among those, the shortest prompts; where that gives
/// fewer than two, the rows at the lowest concurrency of every prompt length; sorted by id; the subset
/// is the 1st, 3rd, 5th … of them (the first two where there are two; none from a single candidate), at
/// most a third of `rows` (⌊rows ÷ 3⌋). A stalled run (`plan::stalled`) is a candidate like any other
/// (session 19: the fit reads the run's median, which a stall paid by a few requests leaves untouched).
[[nodiscard]] inline front_end_rows front_end_subset(const std::vector<const plan::measurement*>& rows, const std::string& gpu) {
    front_end_rows f;
    if (rows.empty()) return f;
    f.gpu = gpu;
    const auto concurrency = [](const plan::measurement* x) { return x->batch * x->d.layout.dp; };
    for (const plan::measurement* x : rows)
        if (x->d.hw.name == f.gpu) f.concurrency = std::min(f.concurrency, concurrency(x));
    for (const plan::measurement* x : rows)
        if (x->d.hw.name == f.gpu && concurrency(x) == f.concurrency) f.prompt = std::min(f.prompt, x->r.input.value());
    for (const plan::measurement* x : rows)
        if (x->d.hw.name == f.gpu && concurrency(x) == f.concurrency && x->r.input.value() == f.prompt)
            f.candidates.push_back(x);
    // Fewer than two at the shortest prompt: every prompt length at the lowest concurrency (a front end
    // is the same whatever the prompt; the floor's intercept is read through the lengths the rows give).
    f.every_prompt = f.candidates.size() < 2;
    if (f.every_prompt) {
        f.candidates.clear();
        for (const plan::measurement* x : rows)
            if (x->d.hw.name == f.gpu && concurrency(x) == f.concurrency) f.candidates.push_back(x);
    }
    std::sort(f.candidates.begin(), f.candidates.end(),
              [](const plan::measurement* a, const plan::measurement* b) { return a->id < b->id; });
    const std::size_t n = f.candidates.size(), cap = rows.size() / 3;
    if (n < 2) return f;
    for (std::size_t i = 0; i < n && f.subset.size() < cap; ++i)
        if (i % 2 == 0 || (n == 2 && i == 1)) f.subset.push_back(f.candidates[i]);
    return f;
}

/// The rule on the GPU with most of the rows (`busiest_gpu`): a profile with no recorded fit GPU.
[[nodiscard]] inline front_end_rows front_end_subset(const std::vector<const plan::measurement*>& rows) {
    return rows.empty() ? front_end_rows{} : front_end_subset(rows, busiest_gpu(rows));
}

/// Where a run's first-use kernel build (`engine_overheads::first_use_build`, docs/first-use-build.md) is
/// systematic (session 42, fix C; `fit_first_use_builds` in validation.cpp). A run is triggered where its
/// simulated cold closed loop meets its row's trigger (`fires`: the B200 opening overflows the chunk, the
/// MI355X one crosses AITER's 1,024-token switch). The rule, the cold opening's kind (`fit_cold_openings`:
/// fitted only where every run that is not stalled shows the opening): S is fitted only where at least one run
/// is triggered and every triggered run is stalled (`plan::stalled`); one triggered run that did not stall and
/// the build is not systematic (S stays 0). The reverse check: the stalled runs that are not triggered.
struct build_census {
    std::vector<const plan::measurement*> triggered;            ///< the trigger fires, by id
    std::vector<const plan::measurement*> stalled;              ///< of them, stalled, by id
    std::vector<const plan::measurement*> not_stalled;          ///< of them, not stalled, by id
    std::vector<const plan::measurement*> untriggered_stalled;  ///< the trigger does not fire, stalled all the same
    std::size_t untriggered = 0;                                ///< runs where the trigger does not fire
    /// Every triggered run stalled, and there is one: systematic (S fitted), else S = 0.
    [[nodiscard]] bool systematic() const { return !triggered.empty() && not_stalled.empty(); }
};

/// The census of a set of closed-loop TTFT rows (one a run) under `fires(row)` (whether the run's trigger
/// fires), each list by id.
template <class Fires>
[[nodiscard]] build_census first_use_build_census(std::vector<const plan::measurement*> rows, Fires&& fires) {
    std::sort(rows.begin(), rows.end(), [](const plan::measurement* a, const plan::measurement* b) { return a->id < b->id; });
    build_census c;
    for (const plan::measurement* x : rows) {
        if (fires(*x)) {
            c.triggered.push_back(x);
            (plan::stalled(*x) ? c.stalled : c.not_stalled).push_back(x);
        } else {
            ++c.untriggered;
            if (plan::stalled(*x)) c.untriggered_stalled.push_back(x);
        }
    }
    return c;
}

}  // namespace llmcost::validation
