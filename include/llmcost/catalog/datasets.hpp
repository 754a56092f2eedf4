#pragma once
/// \file
/// Catalog of public request-length datasets: the prompt and answer lengths of well-known chat,
/// summarisation, code and reasoning workloads, as quantiles. Each entry is two rows of
/// `tables/datasets.csv` (input and output), which names the file every figure was computed from
/// (tests/unit/unit-tables.cpp checks the two agree, figure for figure). A dataset becomes a pair
/// of length distributions through `workload::quantile_histogram`: its bins run from quantile to
/// quantile, so draws keep the published median, p90 and p99 (within a bin the draws are uniform,
/// so the mean of the draws is near, not equal to, the dataset's).
///
/// **Example**
/// \code
/// const workload::traffic t = catalog::find_dataset("sharegpt4")->traffic_with(workload::poisson(100_ms));
/// t.output.mean();   // 440.4 tokens (the dataset: 438.7)
/// \endcode

#include <llmcost/descriptors/workload.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace llmcost::workload {

/// Lengths of one side (prompt or answer) of a dataset: its count, mean and quantiles, tokens.
struct length_quantiles {
    double requests = 0, mean = 0;
    double min = 1, p10 = 1, p25 = 1, p50 = 1, p75 = 1, p90 = 1, p95 = 1, p99 = 1, p999 = 1, max = 1;
};

/// The share of requests between consecutive quantile points (min, p10, p25, p50, p75, p90, p95,
/// p99, p99.9, max): 10%, 15%, 25%, 25%, 15%, 5%, 4%, 0.9%, 0.1% (they sum to 1). The tail's
/// points keep its mass where it is: with p95 and p99.9 the draws' mean is within 14% of each
/// dataset's (the heaviest tails, code answers and reasoning prompts; 0–4% for the others).
inline constexpr std::array<double, 9> quantile_shares{0.10, 0.15, 0.25, 0.25, 0.15, 0.05, 0.04, 0.009, 0.001};

/// Nine bins from quantile to quantile (min–p10, p10–p25, …, p99.9–max) weighted by the share of
/// requests between them: a histogram whose every listed quantile is the dataset's.
[[nodiscard]] constexpr std::array<length_bin, 9> quantile_bins(const length_quantiles& q) {
    const std::array<double, 10> at{q.min, q.p10, q.p25, q.p50, q.p75, q.p90, q.p95, q.p99, q.p999, q.max};
    std::array<length_bin, 9> bins{};
    for (std::size_t i = 0; i < bins.size(); ++i) bins[i] = {.lo = at[i], .hi = at[i + 1], .weight = quantile_shares[i]};
    return bins;
}

/// A named dataset: prompt and answer lengths, what it is and where the figures come from.
struct dataset {
    std::string_view name;
    std::string_view kind;  ///< chat, summarisation, code, reasoning
    length_quantiles input, output;
    std::array<length_bin, 9> input_bins = quantile_bins(input), output_bins = quantile_bins(output);

    /// The dataset's lengths under the given arrivals.
    [[nodiscard]] constexpr traffic traffic_with(const arrival_process& a) const {
        return {.input = histogram(input_bins), .output = histogram(output_bins), .arrivals = a};
    }
};

}  // namespace llmcost::workload

namespace llmcost::catalog {

/// Multi-turn GPT-4 conversations (openchat_sharegpt4), up to 8k tokens, Llama-2 tokenizer: the
/// chat set of Sarathi-Serve (OSDI 2024), whose paper gives the same medians and p90s.
inline constexpr workload::dataset sharegpt4{
    .name = "sharegpt4", .kind = "chat",
    .input = {.requests = 30731, .mean = 2340, .min = 1, .p10 = 74, .p25 = 580, .p50 = 1730, .p75 = 3734, .p90 = 5696, .p95 = 6563, .p99 = 7434, .p999 = 7854, .max = 8141},
    .output = {.requests = 30731, .mean = 438.7, .min = 2, .p10 = 84, .p25 = 228, .p50 = 415, .p75 = 628, .p90 = 834, .p95 = 920, .p99 = 998, .p999 = 1021, .max = 1024}};

/// arXiv papers summarised (ccdv/arxiv-summarization), Llama-2 tokenizer, prompt + answer ≤ 4k:
/// Vidur's summarisation trace (MLSys 2024).
inline constexpr workload::dataset arxiv_summarization{
    .name = "arxiv-summarization", .kind = "summarisation",
    .input = {.requests = 28257, .mean = 2588.1, .min = 1, .p10 = 1242, .p25 = 1986, .p50 = 2730, .p75 = 3370, .p90 = 3702, .p95 = 3813, .p99 = 3933, .p999 = 4012, .max = 4054},
    .output = {.requests = 28257, .mean = 291.4, .min = 5, .p10 = 78, .p25 = 115, .p50 = 167, .p75 = 242, .p90 = 372, .p95 = 736, .p99 = 3271, .p999 = 3844, .max = 4056}};

/// Azure LLM inference trace 2023, conversation service (Splitwise, ISCA 2024: median prompt 1020,
/// median answer 129 tokens).
inline constexpr workload::dataset azure_conversation{
    .name = "azure-conversation", .kind = "chat",
    .input = {.requests = 19366, .mean = 1154.7, .min = 2, .p10 = 207, .p25 = 396, .p50 = 1020, .p75 = 1189, .p90 = 2734, .p95 = 4083, .p99 = 4142, .p999 = 6179, .max = 14050},
    .output = {.requests = 19366, .mean = 211.1, .min = 7, .p10 = 54, .p25 = 85, .p50 = 129, .p75 = 395, .p90 = 424, .p95 = 451, .p99 = 601, .p999 = 954, .max = 1000}};

/// Azure LLM inference trace 2023, code-completion service (Splitwise: median prompt about 1500,
/// median answer 13 tokens).
inline constexpr workload::dataset azure_code{
    .name = "azure-code", .kind = "code",
    .input = {.requests = 8819, .mean = 2047.8, .min = 3, .p10 = 147, .p25 = 578, .p50 = 1469, .p75 = 2744, .p90 = 5188, .p95 = 7303, .p99 = 7436, .p999 = 7437, .max = 7437},
    .output = {.requests = 8819, .mean = 27.9, .min = 6, .p10 = 7, .p25 = 9, .p50 = 13, .p75 = 24, .p90 = 55, .p95 = 90, .p99 = 251, .p999 = 825, .max = 1899}};

/// DeepSeek-R1 served in production (ServeGen, 2025): long reasoning answers, a heavy tail of
/// prompts; the clients' length distributions weighted by their requests.
inline constexpr workload::dataset servegen_deepseek_r1{
    .name = "servegen-deepseek-r1", .kind = "reasoning",
    .input = {.requests = 1383669, .mean = 1268.2, .min = 4, .p10 = 18, .p25 = 41, .p50 = 208, .p75 = 482, .p90 = 2092, .p95 = 6714, .p99 = 23423, .p999 = 33783, .max = 57284},
    .output = {.requests = 1383669, .mean = 1527.4, .min = 9, .p10 = 287, .p25 = 427, .p50 = 792, .p75 = 1499, .p90 = 3432, .p95 = 5701, .p99 = 12607, .p999 = 20833, .max = 32768}};

inline constexpr std::array<const workload::dataset*, 5> all_datasets{&sharegpt4, &arxiv_summarization, &azure_conversation,
                                                                      &azure_code, &servegen_deepseek_r1};

/// The dataset of this exact name, or nullptr.
[[nodiscard]] constexpr const workload::dataset* find_dataset(std::string_view name) {
    for (const workload::dataset* d : all_datasets)
        if (d->name == name) return d;
    return nullptr;
}

/// The datasets' names, comma-separated (for a refusal that offers them).
[[nodiscard]] inline std::string dataset_names() {
    std::string s;
    for (const workload::dataset* d : all_datasets) {
        if (!s.empty()) s += ", ";
        s += d->name;
    }
    return s;
}

}  // namespace llmcost::catalog
