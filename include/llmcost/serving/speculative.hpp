#pragma once
/// \file
/// Speculative decoding (ledger T4, T6, T11): a cheap drafter guesses γ tokens ahead, the target
/// checks them all in one pass and keeps the longest agreeing prefix plus one token of its own —
/// branch prediction for text. With a per-token acceptance α the expected tokens per target pass
/// are E(α, γ) = (1 − α^(γ+1)) ÷ (1 − α) (Leviathan, Kalman & Matias 2023, §3), and
///
///     speedup = E · t_plain ÷ (t_draft + t_verify)
///
/// where t_plain is one ordinary decode pass, t_draft the γ drafter passes and t_verify one target
/// pass over γ + 1 tokens per sequence. Times come either from the caller (`speculative_step` is
/// an aggregate of seconds) or from the pass model (`speculative_step_for`), with the drafter a
/// separate draft `deployment` or a `draft_head` built into the target (EAGLE, MTP).
///
/// **Example**
/// \code
/// using namespace llmcost::literals;
/// constexpr llmcost::speculative_step s{.draft_tokens = 4, .draft_time = 2_ms,
///                                       .verify_time = 10_ms, .plain_time = 10_ms};
/// static_assert(s.speedup(0.0) < 1.0);                    // drafting is never free
/// static_assert(llmcost::expected_tokens_per_pass(0.5, 3) == 1.875);  // (1 − 0.5⁴) ÷ 0.5
/// \endcode

#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/serving/throughput.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace llmcost {

// ---- acceptance arithmetic (T6) ------------------------------------------------------------------

namespace detail::speculative {
inline constexpr std::string_view subject = "speculative decoding";

constexpr void require_acceptance(double acceptance) {
    require(acceptance >= 0.0 && acceptance <= 1.0, subject, "acceptance", acceptance,
            "an acceptance rate is a probability in [0, 1]");
}
constexpr void require_draft_tokens(int draft_tokens) {
    require(draft_tokens >= 0, subject, "draft_tokens", draft_tokens,
            "the draft length γ is a count of tokens, at least 0");
}
}  // namespace detail::speculative

/// E(α, γ) = (1 − α^(γ+1)) ÷ (1 − α) = Σ_{i=0}^{γ} α^i, and E(1, γ) = γ + 1 — expected tokens one
/// verification pass yields: the accepted prefix of the γ drafts plus the target's own token
/// (Leviathan et al. 2023, §3; ledger T6). Between 1 (α = 0) and γ + 1 (α = 1).
[[nodiscard]] constexpr double expected_tokens_per_pass(double acceptance, int draft_tokens) {
    detail::speculative::require_acceptance(acceptance);
    detail::speculative::require_draft_tokens(draft_tokens);
    const double n = draft_tokens + 1.0;
    const double eps = 1.0 - acceptance;
    if (n * eps < 1e-3) {
        // Near α = 1 the closed form cancels (0/0); Σ (1 − ε)^i = Σ_k C(n, k+1) (−ε)^k instead,
        // whose terms shrink by n·ε/k: six of them are exact to double precision here.
        double sum = 0.0, binom = n, power = 1.0;  // C(n, 1), (−ε)^0
        for (int k = 0; k < 6 && binom != 0.0; ++k) {
            sum += binom * power;
            binom *= (n - (k + 1.0)) / (k + 2.0);  // C(n, k+2) from C(n, k+1)
            power *= -eps;
        }
        return sum;
    }
    return (1.0 - detail::pow_int(acceptance, draft_tokens + 1LL)) / eps;
}

/// α = E⁻¹(E, γ) — the acceptance that makes γ drafts yield E tokens per pass (the inverse of T6).
/// Bisection on [0, 1], where E rises strictly with α for γ ≥ 1; γ = 1 gives α = E − 1 exactly.
/// E must lie in [1, γ + 1]; with γ = 0 every α gives E = 1, and the answer is 0.
[[nodiscard]] constexpr double acceptance_for_tokens_per_pass(double tokens_per_pass, int draft_tokens) {
    detail::speculative::require_draft_tokens(draft_tokens);
    require(tokens_per_pass >= 1.0 && tokens_per_pass <= draft_tokens + 1.0, detail::speculative::subject,
            "tokens_per_pass", tokens_per_pass,
            "must lie in [1, draft_tokens + 1]: a pass yields at least its own token and at most every draft");
    if (draft_tokens == 0) return 0.0;
    if (draft_tokens == 1) return tokens_per_pass - 1.0;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        (expected_tokens_per_pass(mid, draft_tokens) < tokens_per_pass ? lo : hi) = mid;
    }
    return hi;
}

// ---- one speculative step from explicit times ----------------------------------------------------

/// One speculative step of a decoding batch, by its times: γ drafter passes, one verification pass
/// of the target, and the plain decode pass it replaces. An aggregate, so times measured elsewhere
/// (or hand-worked ones) go straight in; `speculative_step_for` fills it from the pass model.
struct speculative_step {
    int draft_tokens = 1;   ///< γ: tokens drafted (sequential drafter passes) per step
    seconds_t draft_time;   ///< all γ drafter passes
    seconds_t verify_time;  ///< one target pass over γ + 1 (or a draft tree's) tokens per sequence
    seconds_t plain_time;   ///< one ordinary decode pass of the target: the baseline

    /// t_step = t_draft + t_verify (drafting and verifying run one after the other on the same GPUs).
    [[nodiscard]] constexpr seconds_t time() const { return draft_time + verify_time; }

    /// S = E(α, γ) · t_plain ÷ t_step — decode speedup at acceptance α: Leviathan et al.'s walltime
    /// improvement E ÷ (γ·c + 1) with measured times in place of the cost ratio c (T6).
    [[nodiscard]] constexpr double speedup(double acceptance) const {
        return expected_tokens_per_pass(acceptance, draft_tokens) * ratio(plain_time, time());
    }
    /// r = 1 token ÷ t_plain — one user's tokens/s without speculation (T2, T4).
    [[nodiscard]] constexpr tokens_per_second_t plain_tokens_per_second() const { return tokens(1.0) / plain_time; }
    /// r = E(α, γ) tokens ÷ t_step — one user's tokens/s with speculation (T4).
    [[nodiscard]] constexpr tokens_per_second_t tokens_per_second(double acceptance) const {
        return tokens(expected_tokens_per_pass(acceptance, draft_tokens)) / time();
    }
    /// S_max = (γ + 1) · t_plain ÷ t_step — the speedup when every draft is accepted (α = 1).
    [[nodiscard]] constexpr double max_speedup() const { return speedup(1.0); }

    constexpr void validate() const {
        detail::speculative::require_draft_tokens(draft_tokens);
        const std::string_view s = detail::speculative::subject;
        require(non_negative_finite(draft_time.value()), s, "draft_time (s)", draft_time.value(),
                "must be zero or positive and finite");
        require(positive_finite(verify_time.value()), s, "verify_time (s)", verify_time.value(),
                "a verification pass takes some time: positive and finite");
        require(positive_finite(plain_time.value()), s, "plain_time (s)", plain_time.value(),
                "a decode pass takes some time: positive and finite");
    }
};

namespace detail::speculative {
/// The least α with E(α, γ) ≥ `needed`: 0 when one token per pass is enough, none above γ + 1.
[[nodiscard]] constexpr std::optional<double> min_acceptance_for(double needed, int draft_tokens) {
    if (needed > draft_tokens + 1.0) return std::nullopt;
    if (needed <= 1.0) return 0.0;
    return acceptance_for_tokens_per_pass(needed, draft_tokens);
}
}  // namespace detail::speculative

/// The least α with E(α, γ) ÷ t_step ≥ r: E_needed = r · t_step, α = E⁻¹(E_needed, γ) — none when
/// E_needed > γ + 1, i.e. even α = 1 falls short (T4: "accepted tokens per pass × passes/s ≥ 1000").
template <token_rate R>
[[nodiscard]] constexpr std::optional<double> speculative_min_acceptance(const speculative_step& step, const R& target) {
    step.validate();
    require(positive_finite(in_base_units(target).value()), detail::speculative::subject, "target (tokens/s)",
            in_base_units(target).value(), "a target rate must be positive and finite");
    return detail::speculative::min_acceptance_for((in_base_units(target) * step.time()).value(), step.draft_tokens);
}

/// The least α with S(α) ≥ S: E_needed = S · t_step ÷ t_plain, α = E⁻¹(E_needed, γ) — none when
/// E_needed > γ + 1 (T11: which acceptance makes a prediction head worth 5–6×).
[[nodiscard]] constexpr std::optional<double> speculative_min_acceptance_for_speedup(const speculative_step& step,
                                                                                     double speedup) {
    step.validate();
    require(positive_finite(speedup), detail::speculative::subject, "speedup", speedup,
            "a target speedup must be positive and finite");
    return detail::speculative::min_acceptance_for(speedup * ratio(step.time(), step.plain_time), step.draft_tokens);
}

// ---- drafters --------------------------------------------------------------------------------------

/// A drafter built into the target (EAGLE, a DeepSeek-style MTP module, a Medusa-like head): per draft
/// token it runs `layers` transformer layers of the target's shape, an extra matmul of
/// `extra_parameters` (EAGLE's fc 2h → h, MTP's projection M), and, if `lm_head`, the target's
/// (shared) LM head to pick the token. It lives on the target's GPUs with the target's layout.
struct draft_head {
    std::string_view name;
    double layers = 1.0;           ///< target layers per draft token (a fraction for a slimmer block)
    bool lm_head = true;           ///< the draft token goes through the vocabulary projection
    count_t extra_parameters = 0;  ///< matmul parameters outside the layer, run once per draft token

    constexpr void validate() const {
        const std::string_view s = name;
        require(non_negative_finite(layers), s, "layers", layers,
                "a draft head runs zero or more target layers per draft token, finite");
        require(extra_parameters >= 0, s, "extra_parameters", static_cast<double>(extra_parameters),
                "must not be negative");
        require(layers > 0.0 || lm_head || extra_parameters > 0, s, "layers", layers,
                "a draft head with no layer, no LM head and no extra matmul does no work and drafts nothing");
    }
};

/// The MTP module a model ships (DeepSeek-V3 §2.2): per draft token one transformer block of the
/// target's shape (an MoE block for an MoE target), the projection M ∈ ℝ^{h×2h} over
/// [hidden; embedding] (2·h² parameters) and the shared output head. A model ships `mtp_modules`
/// of them, one per depth; serving stacks also reuse the first one for deeper drafts.
[[nodiscard]] constexpr draft_head mtp_draft_head(const model& m) {
    require(m.mtp_modules >= 1, m.name, "mtp_modules", m.mtp_modules,
            "the model ships no MTP module: use eagle_draft_head or a draft model");
    return draft_head{.name = "MTP module", .layers = 1.0, .lm_head = true,
                      .extra_parameters = 2 * count_t{m.hidden} * m.hidden};
}

/// An EAGLE head (Li et al. 2024, "EAGLE: Speculative Sampling Requires Rethinking Feature
/// Uncertainty"): one decoder layer of the target's shape after an fc layer [feature; embedding]
/// 2h → h with bias (2·h² + h parameters), then the target's frozen LM head.
[[nodiscard]] constexpr draft_head eagle_draft_head(const model& m) {
    return draft_head{.name = "EAGLE head", .layers = 1.0, .lm_head = true,
                      .extra_parameters = 2 * count_t{m.hidden} * m.hidden + m.hidden};
}

/// The draft head a drafter's name selects for target `m`, as every face reads `drafter`: "mtp" the
/// model's MTP module (refused for a model without one), "eagle" an EAGLE head; any other name is
/// none (a draft model, which the caller builds on the target's layout). One reading for the
/// `llmcost` tool and the Python module.
[[nodiscard]] constexpr std::optional<draft_head> draft_head_named(std::string_view drafter, const model& m) {
    if (drafter == "mtp") return mtp_draft_head(m);
    if (drafter == "eagle") return eagle_draft_head(m);
    return std::nullopt;
}

/// How a report names the drafter `draft_head_named` read ("mtp", "eagle"), or the draft model it
/// names otherwise: one wording for the `llmcost` tool's and the Python module's reports.
[[nodiscard]] inline std::string drafter_text(std::string_view drafter, std::string_view draft_model = {}) {
    if (drafter == "mtp") return "the model's MTP module";
    if (drafter == "eagle") return "an EAGLE head";
    return "draft model " + std::string(draft_model);
}

namespace detail::speculative {

/// The target cut to `layers` layers in one pipeline stage: the shape a draft head copies. Its
/// block is the target's last kind of layer (MoE for an MoE model) with full attention.
[[nodiscard]] constexpr deployment head_shape(const deployment& target, int layers) {
    deployment h = target;
    h.m.layers = layers;
    h.m.ffn.first_dense_layers = 0;
    h.m.attention.sliding_window_layers = 0;
    h.m.pattern = {};  // the head's one layer: full attention with an FFN
    h.layout.pp = 1;
    return h;
}

constexpr void require_batch(double batch) {
    require(positive_finite(batch), subject, "batch", batch,
            "sequences per pass must be positive and finite");
}

template <token_count T>
constexpr void require_context(const T& context) {
    require(non_negative_finite(in_base_units(context).value()), subject, "context (tokens)",
            in_base_units(context).value(), "must be zero or positive and finite");
}

}  // namespace detail::speculative

/// t_head = layers · (t₂ − t₁) + [lm_head] · (2·t₁ − t₂) + [P > 0] · (max(2·b·P ÷ R(b), P·bytes ÷ B)
/// + t_launch), where t₁ and t₂ are the target's decode pass cut to one and two layers: t₂ − t₁ is
/// the marginal time of one layer and t₁ minus that the LM head with the rest of a pass's fixed
/// work. Whatever the pass model charges per layer (weights, KV, all-reduces, launch overheads)
/// the head pays too. The extra matmul is one more GEMM kernel at the rate R(b) the pass model
/// gives b rows. One draft token for `batch` sequences at `context`.
template <token_count T>
[[nodiscard]] constexpr seconds_t draft_head_time(const deployment& target, const draft_head& head, double batch,
                                                  const T& context) {
    head.validate();
    detail::speculative::require_batch(batch);
    detail::speculative::require_context(context);
    const seconds_t t1 = decode_pass(detail::speculative::head_shape(target, 1), batch, context).time();
    const seconds_t t2 = decode_pass(detail::speculative::head_shape(target, 2), batch, context).time();
    const seconds_t layer = t2 - t1;
    const seconds_t rest = t1 - layer > seconds(0.0) ? t1 - layer : seconds(0.0);  // ≥ 0 where the pass is not linear in layers
    seconds_t t = layer * head.layers + (head.lm_head ? rest : seconds(0.0));
    if (head.extra_parameters > 0) {
        const model& m = target.m;
        const double p = static_cast<double>(head.extra_parameters) / target.layout.tp;
        const accelerator& g = target.hw.gpu;
        const double rate = g.efficiency.matmul_at(batch, m.hidden, p / m.hidden);  // k = h, n = P ÷ (tp·h)
        t = t + roofline_time(flops(2.0 * batch * p), m.weights.bytes_for(p), g.peak(m.activations.compute) * rate,
                              g.sustained_hbm_bandwidth()) +
            g.efficiency.kernel_overhead;
    }
    return t;
}

namespace detail::speculative {
/// The target as its verification step runs: a decode-shaped step of b sequences × n tokens that the
/// engine replays from its CUDA graphs as it does a decode step, so it pays the launch a decode step pays,
/// kernels · (t_kernel + t_launch) + t_step (`prepare_pass`), never the eager prompt launch H = kernels ·
/// t_host of a step with prompts (`engine_overheads::prefill_launch`, `eager_prompt_wait`): the run's
/// `prompt_launch` (`--eager-prompt`) is a statement about prompt steps only. SGLang captures
/// ForwardMode.TARGET_VERIFY graphs of speculative_num_draft_tokens tokens a sequence
/// (sgl-project/sglang@21514ff5bdad2ae598bf3070d3a583aa4fa35ae7 python/sglang/srt/model_executor/cuda_graph_runner.py);
/// TensorRT-LLM's PyTorch backend captures its decoding graphs at max_draft_len + 1 tokens a request
/// (NVIDIA/TensorRT-LLM@000a01de66f0eab4ab05640711f0253f50f5209c tensorrt_llm/_torch/pyexecutor/cuda_graph_runner.py
/// `DecodingCUDAGraphRunner`, "[CUDA graph spec decode padding]"); vLLM V1's default FULL_AND_PIECEWISE runs a
/// uniform decode batch, 1 + num_spec_tokens query tokens a request, as a full CUDA graph
/// (vllm-project/vllm@74aef306c9172f7ac1e6b3167a08ef040365dbe0 docs/design/cuda_graphs.md). No engine in
/// tables/engines.csv verifies eagerly while its decode steps are captured. An engine without graphs enqueues this
/// step as it does every other (`eager_enqueue`, unchanged). docs/speculative-verify.md.
[[nodiscard]] constexpr deployment verification_step(const deployment& d) {
    deployment v = d;
    v.engine.overheads.prompt_launch = prompt_launch_mode::none;
    return v;
}
}  // namespace detail::speculative

/// t_verify = prefill_pass(d', b, n, c) + [t_lm(b·n) − t_lm(b)] — one target pass over `verify_tokens`
/// new tokens per sequence attending to `context` cached ones, d' the target with its verification
/// step launched as a captured decode step (`detail::speculative::verification_step`). prefill_pass computes logits for the
/// last position only (a prompt needs one next token), but verification needs a distribution at
/// every position to accept or correct each draft, so the LM head runs on b·n rows instead of b.
/// The LM head is its own GEMM: t_lm(rows) = max(2·rows·V·h ÷ tp ÷ R(rows), V·h·bytes ÷ tp ÷ B) at
/// the rate R(rows) the pass model gives a GEMM of that size and the sustained HBM bandwidth B;
/// the difference is what the n − 1 extra positions add (nothing while the head is memory bound;
/// its weights are already in the pass, its launch too).
/// The b·n·V logits written (~0.3 MB for n = 5, V = 32k at 16 bits) are left out.
template <token_count T>
[[nodiscard]] constexpr seconds_t speculative_verify_time(const deployment& d, double batch, int verify_tokens,
                                                          const T& context) {
    detail::speculative::require_batch(batch);
    detail::speculative::require_context(context);
    require(verify_tokens >= 1, detail::speculative::subject, "verify_tokens", verify_tokens,
            "a verification pass checks at least the one token the target would decode anyway");
    const model& m = d.m;
    const parameter_breakdown b = parameters(m);
    const double lm_head = static_cast<double>(b.lm_head > 0 ? b.lm_head : b.embedding) / d.layout.tp;  // tied: the embedding
    const accelerator& g = d.hw.gpu;
    // A checkpoint that keeps its LM head out of quantization (`model::excluded`) reads and multiplies it in that format.
    const number_format& head_weights = m.excluded.lm_head ? m.excluded.format : m.weights;
    const compute_class head_compute = m.excluded.lm_head ? m.excluded.format.compute : m.activations.compute;
    auto lm_head_time = [&](double rows) {
        const double rate = g.efficiency.matmul_at(rows, m.hidden, lm_head / m.hidden);  // k = h, n = V ÷ tp
        return roofline_time(flops(2.0 * rows * lm_head), head_weights.bytes_for(lm_head), g.peak(head_compute) * rate,
                             g.sustained_hbm_bandwidth());
    };
    return prefill_pass(detail::speculative::verification_step(d), batch, tokens(verify_tokens), context).time() +
           (lm_head_time(batch * verify_tokens) - lm_head_time(batch));
}

namespace detail::speculative {
/// Tokens verified per sequence: γ + 1 for a chain, or a draft tree's node count (root included).
constexpr int verified_tokens(int draft_tokens, int tree_tokens) {
    require_draft_tokens(draft_tokens);
    require(tree_tokens == 0 || tree_tokens >= draft_tokens + 1, subject, "tree_tokens", tree_tokens,
            "a draft tree of depth γ has at least γ + 1 nodes with its root (0 = a chain of γ + 1)");
    return tree_tokens > 0 ? tree_tokens : draft_tokens + 1;
}
}  // namespace detail::speculative

/// V_draft = V_target: a separate draft model proposes the target's tokens, so its vocabulary must be the target's,
/// exactly; refused otherwise, naming both sizes (rule llmcost.speculative.draft_vocab). vLLM requires equal vocab
/// sizes for a draft model (V0 spec_decode_worker asserts it, github.com/vllm-project/vllm/issues/5203; V1 checks the
/// sizes in SpeculativeConfig, vllm-project/vllm PR #24322). Tolerating a padding gap (Qwen 2.5 pads one tokenizer to
/// 128 or 256) was only proposed: PR #13849 (≤ 128) was closed unmerged and PR #42775 (an opt-in flag) is open, so
/// llmcost requires equality. A draft head (EAGLE, MTP) shares the target's LM head and is not checked.
constexpr void require_draft_vocab(const model& target, const model& draft) {
    if (draft.vocab == target.vocab) return;
    std::string rule = "the target ";  // appended piece by piece: GCC bug 105329
    rule += target.name;
    rule += "'s vocabulary holds ";
    rule += std::to_string(target.vocab);
    rule += " tokens, the draft model's ";
    rule += std::to_string(draft.vocab);
    rule += ": a draft model proposes the target's tokens, so its vocabulary must be the target's, of equal size (vLLM "
            "requires equal sizes); use a draft model with the target's tokenizer, or a draft head (eagle, mtp)";
    throw invalid_input(draft.name, "vocab", static_cast<double>(draft.vocab), rule, "llmcost.speculative.draft_vocab");
}

/// One step with a separate draft model (Leviathan et al. 2023; Chen et al. 2023): γ decode passes
/// of `draft` at the same batch and context, then one verification pass of `target` over γ + 1
/// tokens per sequence (or `tree_tokens` for a draft tree). The draft's growth from c to c + γ − 1
/// and its catch-up on the accepted tokens are left out (memory-bound: the same as a pass).
template <token_count T>
[[nodiscard]] constexpr speculative_step speculative_step_for(const deployment& target, const deployment& draft,
                                                              double batch, const T& context, int draft_tokens,
                                                              int tree_tokens = 0) {
    const int n = detail::speculative::verified_tokens(draft_tokens, tree_tokens);
    detail::speculative::require_batch(batch);
    detail::speculative::require_context(context);
    require_draft_vocab(target.m, draft.m);
    return speculative_step{
        .draft_tokens = draft_tokens,
        .draft_time = decode_pass(draft, batch, context).time() * static_cast<double>(draft_tokens),
        .verify_time = speculative_verify_time(target, batch, n, context),
        .plain_time = decode_pass(target, batch, context).time()};
}

/// One step with a draft head built into the target (EAGLE, MTP): γ head passes, then one
/// verification pass over γ + 1 tokens per sequence (or `tree_tokens`: EAGLE-1 verifies a
/// 26-node tree of depth 5). A tree expands several nodes per head pass; at small batch that
/// costs what one token does (memory bound), which is what this charges.
template <token_count T>
[[nodiscard]] constexpr speculative_step speculative_step_for(const deployment& target, const draft_head& head,
                                                              double batch, const T& context, int draft_tokens,
                                                              int tree_tokens = 0) {
    const int n = detail::speculative::verified_tokens(draft_tokens, tree_tokens);
    return speculative_step{
        .draft_tokens = draft_tokens,
        .draft_time = draft_head_time(target, head, batch, context) * static_cast<double>(draft_tokens),
        .verify_time = speculative_verify_time(target, batch, n, context),
        .plain_time = decode_pass(target, batch, context).time()};
}

/// The least acceptance for each draft length γ = 1 … G that lifts one user's rate to `target`
/// (T4): element γ − 1 holds α_min(γ), or nothing when even α = 1 falls short at that γ. α_min
/// first falls with γ (more tokens per pass) and then rises (each draft costs a head pass and, for
/// an MoE target, more experts read by the wider verification).
template <int G, class Drafter, token_count T, token_rate R>
    requires(G >= 1)
[[nodiscard]] constexpr std::array<std::optional<double>, G> speculative_min_acceptance_by_draft_length(
    const deployment& target, const Drafter& drafter, double batch, const T& context, const R& target_rate) {
    std::array<std::optional<double>, G> out{};
    for (int g = 1; g <= G; ++g)
        out[static_cast<std::size_t>(g - 1)] =
            speculative_min_acceptance(speculative_step_for(target, drafter, batch, context, g), target_rate);
    return out;
}

/// What the `llmcost spec` command and Python's `spec()` price when a caller names no request, batch or speculation
/// (one place for both faces, audit 40 F11): 1,000 prompt tokens, 200 generated, one sequence, an EAGLE head drafting
/// γ = 3 tokens at α = 0.8 (the tool's --acceptance, --draft-tokens and --drafter, for `estimate --spec` too). Every
/// other CLI command's default request (--input, --output: estimate, kv, cost, …) borrows `input` and `output` from here.
struct speculation_defaults {
    static constexpr double input = 1000.0;
    static constexpr double output = 200.0;
    static constexpr double batch = 1.0;
    static constexpr double acceptance = 0.8;
    static constexpr int draft_tokens = 3;
    static constexpr std::string_view drafter = "eagle";
};

// ---- speculation in a serving steady state ------------------------------------------------------

/// Speculative decoding as a serving option: a drafter (a head built into the target, or a separate
/// draft model laid out like the target), the acceptance α and the draft length γ. Off while γ = 0.
struct speculative_decoding {
    double acceptance = 0.0;          ///< α: per-token acceptance rate, [0, 1]
    int draft_tokens = 0;             ///< γ: tokens drafted per step; 0 = no speculation
    std::optional<draft_head> head;   ///< an EAGLE head or MTP module of the target, or
    std::optional<deployment> draft;  ///< a separate draft model on the target's GPUs

    [[nodiscard]] constexpr bool enabled() const { return draft_tokens > 0; }

    constexpr void validate() const {
        if (!enabled() && !head && !draft) return;
        detail::speculative::require_acceptance(acceptance);
        require(draft_tokens >= 1, detail::speculative::subject, "draft_tokens", draft_tokens,
                "speculation drafts at least one token per step");
        require(head.has_value() != draft.has_value(), detail::speculative::subject, "drafter",
                head.has_value() ? 2.0 : 0.0, "exactly one drafter: a draft head or a draft model");
        if (head) head->validate();
        if (draft) draft->validate();
    }

    /// The step at `batch` sequences and `context`: `speculative_step_for` with the drafter.
    template <token_count T>
    [[nodiscard]] constexpr speculative_step step_for(const deployment& target, double batch, const T& context) const {
        validate();
        require(enabled(), detail::speculative::subject, "draft_tokens", draft_tokens,
                "no speculation to price: at least one draft token");
        return head ? speculative_step_for(target, *head, batch, context, draft_tokens)
                    : speculative_step_for(target, *draft, batch, context, draft_tokens);
    }
};

namespace detail::speculative {
/// `speculative_serving_point`'s figures for one value or a lane (sweeps): the mean step t̄ + Δ,
/// TPOT (TPOT + Δ) ÷ E, TTFT + k·Δ, and the output rate's factor E · t̄ ÷ (t̄ + Δ).
template <class V>
struct speculated {
    V step_time, tpot, ttft, rate_gain;
};
template <class V>
[[nodiscard]] constexpr speculated<V> speculate(const V& step_time, const V& tpot, const V& ttft, const V& delta,
                                                double tokens_per_pass, double prompt_steps) {
    speculated<V> x{.step_time = step_time + delta, .tpot = (tpot + delta) / tokens_per_pass,
                    .ttft = ttft + delta * prompt_steps, .rate_gain = step_time};
    x.rate_gain = tokens_per_pass * (step_time / x.step_time);
    return x;
}
}  // namespace detail::speculative

/// A steady state with speculative steps in place of plain decode steps (T4, T6): every step of the
/// engine drafts γ tokens and verifies them instead of decoding one token per sequence, so it lasts
/// Δ = t_draft + t_verify − t_plain longer and yields E(α, γ) tokens per sequence:
///     t̄′ = t̄ + Δ,   TPOT′ = (TPOT + Δ) ÷ E,   TTFT′ = TTFT + k·Δ,   R′ = R · E · t̄ ÷ t̄′,
/// with k my prompt's chunk steps (they carry the others' speculation), and the mean wait for the
/// step in flight E[(t + Δ)²] ÷ 2t̄′ = (2·w·t̄ + 2·Δ·t̄ + Δ²) ÷ 2t̄′ from w = E[t²] ÷ 2t̄. At batch 1
/// with no prompt in the step, TPOT′ = t_step ÷ E = 1 ÷ `speculative_step::tokens_per_second`.
/// The step's prompt chunks are priced as before; `step` and `prefill_time` stay the plain ones.
[[nodiscard]] constexpr serving_point speculative_serving_point(const serving_point& plain, const request_shape& r,
                                                                const speculative_step& step, double acceptance,
                                                                const scheduler_limits& l = {}) {
    r.validate();
    step.validate();
    const double e = expected_tokens_per_pass(acceptance, step.draft_tokens);
    const double t = plain.step_time.value(), w = plain.residual.value(), dt = (step.time() - step.plain_time).value();
    const detail::speculative::speculated<double> x = detail::speculative::speculate(
        t, plain.tpot.value(), plain.ttft.value(), dt, e, split_prompt(r, l.prefill_chunk).count);
    serving_point s = plain;
    s.step_time = seconds(x.step_time);
    s.residual = seconds((2.0 * w * t + 2.0 * dt * t + dt * dt) / (2.0 * (t + dt)));
    s.tpot = seconds(x.tpot);
    s.ttft = seconds(x.ttft);
    s.e2e = detail::end_to_end(s.ttft, s.tpot, r.output.value());
    s.output_rate = plain.output_rate * x.rate_gain;
    s.output_rate_per_gpu = plain.output_rate_per_gpu * x.rate_gain;
    s.per_user = tokens(1.0) / s.tpot;
    return s;
}

}  // namespace llmcost
