// Speculative decoding for one user of a 280B-class model on B300 (ledger T4, T6, T11): tokens per
// verification pass against acceptance α and draft length γ, the speedup a built-in MTP head gives,
// and the inverse question — which α, γ and layout put one user above 1,000 tokens/s (T4).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <array>
#include <cstdio>
#include <optional>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

// The catalog has no 280B-class model, so this one is made up for the example: an MoE of that
// size (≈283B total, ≈24B active: 128 experts, top-8) with one DeepSeek-style MTP module, the
// "speculative decoding built into recent models" of T4. It stands for no real product.
constexpr model illustrative_280b = checked(model{
    .name = "illustrative-280B-MoE", .layers = 58, .hidden = 6144, .vocab = 151936,
    .attention = {.query_heads = 48, .kv_heads = 8, .head_dim = 128},
    .ffn = {.intermediate = 16384, .routed_experts = 128, .top_k = 8, .expert_intermediate = 2048,
            .first_dense_layers = 1},
    .max_position = 131072,
    .weights = formats::fp8,
    .activations = formats::fp8,
    .mtp_modules = 1});

constexpr tokens_t context = 4096_tok;
constexpr double one_user = 1.0;
constexpr int max_draft = 8;

deployment on_b300(int tp, const number_format& w, seconds_t kernel_overhead) {
    deployment d{.m = illustrative_280b, .hw = catalog::b300_hgx, .layout = {.tp = tp}};
    d.m.weights = d.m.activations = w;  // W8A8 or W4A4 (NVFP4)
    d.hw.gpu.efficiency.kernel_overhead = kernel_overhead;
    return d;
}
}  // namespace

int main() {
    const model& m = illustrative_280b;
    std::printf("%s: %.0fB parameters, %.1fB active per token, %d MTP module\n\n", m.name.data(),
                static_cast<double>(total_parameters(m)) / 1e9, static_cast<double>(active_parameters(m)) / 1e9,
                m.mtp_modules);

    // T6: E(α, γ) = (1 − α^(γ+1)) ÷ (1 − α) tokens per verification pass.
    std::printf("T6   expected tokens per pass E(alpha, gamma)\n  alpha\\gamma");
    for (int g = 1; g <= 6; ++g) std::printf(" %6d", g);
    for (double a : {0.6, 0.7, 0.8, 0.9}) {
        std::printf("\n  %11.1f", a);
        for (int g = 1; g <= 6; ++g) std::printf(" %6.2f", expected_tokens_per_pass(a, g));
    }

    // The same on the pass model: B300 ×8, TP 8, FP8, batch 1, the catalog's launch overhead.
    const deployment d = on_b300(8, formats::fp8, catalog::b300_hgx.gpu.efficiency.kernel_overhead);
    const draft_head mtp = mtp_draft_head(d.m);
    const pass_cost plain = decode_pass(d, one_user, context);
    std::printf("\n\nOn %s, TP %d, FP8, one user at %g tokens of context: plain decode %s a token (%s),\n"
                "%s of it kernel launches\n",
                d.hw.name.data(), d.layout.tp, context.value(), to_text(plain.time(), {.digits = 3}).c_str(),
                to_text(tokens(1.0) / plain.time(), {.digits = 3}).c_str(),
                to_text(plain.overhead_time, {.digits = 3}).c_str());
    std::printf("  %5s %10s %10s %13s %13s %18s\n", "gamma", "draft", "verify", "speedup a=.8", "tokens/s a=.8",
                "alpha for 5x (T11)");
    for (int g : {1, 2, 3, 4, 6, 8}) {
        const speculative_step s = speculative_step_for(d, mtp, one_user, context, g);
        const std::optional<double> five = speculative_min_acceptance_for_speedup(s, 5.0);
        const std::string need = five ? text::fixed(*five, 3) : "out of reach";
        std::printf("  %5d %10s %10s %12.2fx %13.0f %18s\n", g, to_text(s.draft_time, {.digits = 3}).c_str(),
                    to_text(s.verify_time, {.digits = 3}).c_str(), s.speedup(0.8), s.tokens_per_second(0.8).value(),
                    need.c_str());
    }

    // T4, inverted: the least α (over γ = 1 … 8) that lifts one user above 1,000 tokens/s, per layout.
    // Launch overhead per kernel is the catalog's calibrated 4 µs, then what CUDA graphs and fused
    // kernels buy (1 µs), then none: at batch 1, with hundreds of kernels a pass, it decides the answer.
    constexpr tokens_per_second_t goal = 1000_tok_per_s;
    std::printf("\nT4   least alpha (best gamma) for %g tokens/s for one user; '-' = no alpha <= 1 reaches it\n",
                goal.value());
    const std::array<seconds_t, 3> overheads{catalog::b300_hgx.gpu.efficiency.kernel_overhead, 1_us, 0_us};
    std::printf("  %-10s %-6s", "layout", "format");
    for (seconds_t o : overheads) std::printf("     %4g us/kernel", ratio(o, 1_us));
    std::printf("\n");
    for (int tp : {2, 4, 8}) {
        for (const number_format& w : {formats::fp8, formats::nvfp4}) {
            std::printf("  TP %-7d %-6s", tp, w.name.data());
            for (seconds_t o : overheads) {
                const deployment t = on_b300(tp, w, o);
                const auto need = speculative_min_acceptance_by_draft_length<max_draft>(
                    t, mtp_draft_head(t.m), one_user, context, goal);
                double best = 2.0;
                int best_g = 0;
                for (int g = 1; g <= max_draft; ++g) {
                    if (const auto& a = need[static_cast<std::size_t>(g - 1)]; a && *a < best) {
                        best = *a;
                        best_g = g;
                    }
                }
                const std::string cell = best_g > 0 ? text::fixed(best, 2) + " (g=" + std::to_string(best_g) + ")" : "-";
                std::printf(" %18s", cell.c_str());
            }
            std::printf("\n");
        }
    }
    // The provider's ~50 tokens/s of T4: the largest batch at which every user still gets it.
    double lo = 1, hi = max_sequences(d, context);
    auto per_user = [&](double b) { return tokens(1.0) / decode_pass(d, b, context).time(); };
    while (hi - lo > 1) {
        const double mid = static_cast<double>(static_cast<long long>((lo + hi) / 2));
        (per_user(mid) >= 50_tok_per_s ? lo : hi) = mid;
    }
    std::printf("\nThe ~50 tokens/s a provider gives (T4) is a batched operating point: on the same 8 GPUs\n"
                "%g users get %s each, %.0f tokens/s in all. One user at 1,000 tokens/s needs a high\n"
                "acceptance and a pass that launch overhead does not dominate.\n",
                lo, to_text(per_user(lo), {.digits = 3}).c_str(), (per_user(lo) * lo).value());
    return 0;
}
