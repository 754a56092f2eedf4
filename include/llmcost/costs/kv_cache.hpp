#pragma once
/// \file
/// KV cache: footprint, how much fits in HBM after the weights, and where the rest spills
/// (seed S16, S17, S19), with the time to bring a spilled cache back and to load weights (S18).

#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/roofline.hpp>
#include <llmcost/detail/math.hpp>
#include <llmcost/detail/settable.hpp>

#include <string>


namespace llmcost {

/// The library's own reserve, the reference engine's rule and a user's override: the share of HBM kept
/// free (allocator slack) and the workspace and activations per GPU (also the activations of an engine
/// profile that gives no non-KV figures of its own).
inline constexpr double library_reserve_fraction = 0.05;
inline constexpr bytes_t library_activations = gigabytes(2.0);

/// What HBM must hold besides weights and KV. Left unset (`memory_reserve{}`), the deployment's
/// engine sizes its KV pool by its own rule (`engine_scheduler::kv_pool` with its
/// `kv_memory_fraction`; docs/kv-pool.md), less the engine's non-KV memory where the rule subtracts it
/// (`engine_non_kv_per_gpu`: activations, NCCL buffers and runtime from NVIDIA's memory model of the
/// engine; the library's flat 2 GB of activations for an engine without those figures). A reserve the user gives wins over the engine: setting `fraction` or `activations`
/// prices the library's generic rule HBM · (1 − fraction) − activations − weights (0.05 and 2 GB for
/// the one left unset), whatever the engine; it is never silently dropped.
struct memory_reserve {
    detail::settable<double> fraction{};      ///< kept free (allocator slack); unset: the engine's rule
    detail::settable<bytes_t> activations{};  ///< workspace and activations per GPU; unset: the engine's rule and non-KV memory
    bytes_t resident{};                    ///< more resident bytes per GPU counted with the weights (a draft model's)
    /// Tokens per step the engine's activations are sized for (`engine_non_kv_per_gpu`); 0: the engine's
    /// `max_batched_tokens`. `scheduler_limits::pool_reserve` sets it from the limits' max tokens per
    /// step, so every caller that prices a pool under limits passes the same budget.
    tokens_t step_tokens{};
    /// Whether the user set the reserve (then the generic rule, not the engine's, sizes the pool).
    [[nodiscard]] constexpr bool given() const { return fraction.has_value() || activations.has_value(); }
};

/// An engine's memory besides weights and KV on one GPU (`engine_non_kv_per_gpu`).
struct non_kv_memory {
    bytes_t activations;    ///< the step's activations and workspace
    bytes_t communication;  ///< NCCL buffers
    bytes_t runtime;        ///< the runtime's memory (CUDA context, libraries; a deployment margin in the source)
    [[nodiscard]] constexpr bytes_t total() const { return activations + communication + runtime; }
};

/// The engine's non-KV memory at T tokens per step (T = `step`, else the engine's max_batched_tokens),
/// NVIDIA's memory model of these engines (aiconfigurator@095f58a5 sdk/backends/base_backend.py
/// `_get_memory_usage`, docs/kv-pool.md): A = max(2 · T · h · c(dense/MoE, min(tp, 8)), A_min) · (1 + o_A),
/// h = query heads × head dim (hidden where the model has no head dim: MLA, as the source's
/// utils.py falls back to hidden ÷ heads), N = NCCL(min(tp, 8)), R = runtime · (1 + o_R). A TP between
/// the source's 1, 2, 4, 8 takes the figure of the next lower one (the library's step rule). An engine
/// without the figures (`engine_non_kv_memory::given`) keeps the library's flat 2 GB of activations.
[[nodiscard]] constexpr non_kv_memory engine_non_kv_per_gpu(const deployment& d, tokens_t step = {}) {
    const engine_non_kv_memory& n = d.engine.scheduler.non_kv;
    if (!n.given()) return {.activations = library_activations, .communication = bytes(0.0), .runtime = bytes(0.0)};
    const double t = step.value() > 0.0 ? step.value() : d.engine.scheduler.max_batched_tokens;
    require(t >= 1.0, d.engine.name, step.value() > 0.0 ? "max tokens per step (the pool's step budget)" : "scheduler.max_batched_tokens", t,
            "the engine's activations are sized for its tokens per step: give max tokens per step or an engine "
            "with a step budget");
    const int tp = d.layout.tp < 8 ? d.layout.tp : 8;
    const std::size_t i = tp >= 8 ? 3 : tp >= 4 ? 2 : tp >= 2 ? 1 : 0;
    const double c = d.m.is_moe() ? n.moe[i] : n.dense[i];
    const double h = d.m.attention.head_dim > 0 ? double(d.m.attention.query_heads) * d.m.attention.head_dim
                                                : double(d.m.hidden);
    const bytes_t a = bytes(detail::max(2.0 * t * h * c, n.min_activations.value()) * (1.0 + n.activation_overhead));
    return {.activations = a, .communication = n.communication[i], .runtime = n.runtime * (1.0 + n.runtime_overhead)};
}

/// One GPU's HBM split by the KV pool rule that applies: capacity = weights + resident + activations
/// + communication + runtime + slack + pool, the pool negative when the weights do not fit.
struct kv_pool_split {
    kv_pool_rule rule;       ///< the rule that sized the pool (the engine's, or share_of_total for a user's reserve)
    double fraction;         ///< its f
    bytes_t activations;     ///< the activations term the rule subtracts (0 for share_of_total_static)
    bytes_t slack;           ///< what the rule keeps outside the pool besides weights and the non-KV terms
    bytes_t pool;            ///< HBM left for KV
    bytes_t communication{}; ///< the communication buffers the rule subtracts (`engine_non_kv_per_gpu`)
    bytes_t runtime{};       ///< the runtime memory the rule subtracts (`engine_non_kv_per_gpu`)
};

/// f as the share_of_total_static rule applies it: f · s where the engine scales its static fraction for long contexts
/// (`engine_scheduler::long_context_fraction_scale`: SGLang's aiter backend, mem_fraction_static × 0.85 where
/// context_len > 8,192, server_args.py l.1419–1422 @7ae368efd) and the model's context (`max_position`, SGLang's
/// context_len without --context-length) exceeds `long_context_fraction_tokens`; f otherwise.
[[nodiscard]] constexpr double static_memory_fraction(const deployment& d) {
    const double f = d.engine.scheduler.kv_memory_fraction, s = d.engine.scheduler.long_context_fraction_scale;
    return s > 0.0 && tokens(static_cast<double>(d.m.max_position)) > long_context_fraction_tokens ? f * s : f;
}

/// The KV pool of one GPU by the engine's rule (H = the HBM the runtime reports, `accelerator::runtime_hbm`:
/// the total CUDA reports where hardware.csv gives it, else the spec capacity; W = weights + resident; X = the engine's
/// non-KV memory, `engine_non_kv_per_gpu`: activations + NCCL buffers + runtime, the flat 2 GB for a profile without
/// figures; f = `kv_memory_fraction`): share_of_total (vLLM, the reference engine) f·H − X − W; free_after_weights
/// (TensorRT-LLM) f·(H − X − W); share_of_total_static (SGLang) f′·(H − R_init) − W, f′ = `static_memory_fraction`,
/// R_init the engine's memory resident at init (`engine_scheduler::init_resident`; SGLang v0.5.6 model_runner.py
/// `profile_max_num_token`:
/// rest = A_load − T_init·(1 − f) = f·T_init − W with T_init = H − R_init the free memory after the distributed
/// init). A reserve the user gives: H·(1 − fraction) − A − W, A its activations (2 GB unset). Every rule reads the
/// runtime's H (vLLM's gpu_memory_utilization multiplies the total the driver reports; TensorRT-LLM's and SGLang's
/// free memory starts from it); the spec capacity's difference, which the driver keeps, is in `slack`, so the
/// split still sums to the spec capacity. Sources: `kv_pool_rule` (descriptors/engine.hpp), docs/kv-pool.md.
[[nodiscard]] constexpr kv_pool_split kv_pool_per_gpu(const deployment& d, memory_reserve r = {}) {
    const bytes_t hbm = d.hw.gpu.runtime_hbm();
    const bytes_t driver = d.hw.gpu.driver_reserved;  // kept by the driver: 0 where no runtime figure is given
    const bytes_t held = weight_bytes_per_gpu(d) + r.resident;
    if (r.given()) {
        const bytes_t a = r.activations.value_or(library_activations);
        const double f = 1.0 - r.fraction.value_or(library_reserve_fraction);
        return {kv_pool_rule::share_of_total, f, a, driver + hbm * (1.0 - f), hbm * f - a - held};
    }
    const double f = d.engine.scheduler.kv_memory_fraction;
    require(is_memory_fraction(f), d.engine.name, "scheduler.kv_memory_fraction", f, memory_fraction_rule);
    if (d.engine.scheduler.kv_pool == kv_pool_rule::share_of_total_static) {
        const double fs = static_memory_fraction(d);
        const bytes_t resident = d.engine.scheduler.init_resident;
        if (!(resident < hbm))
            refuse_init_resident(d.engine.name, resident,
                                 "the memory resident at init must be below the GPU's runtime capacity, " +
                                     text::fixed(hbm.value() / detail::pow2(20), 3) + " MiB on " +
                                     std::string(d.hw.gpu.name) +
                                     " (accelerator::runtime_hbm: hardware.csv runtime_capacity_MiB, else "
                                     "hbm_capacity_GiB)");
        return {kv_pool_rule::share_of_total_static, fs, bytes(0.0), driver + (hbm - resident) * (1.0 - fs),
                (hbm - resident) * fs - held, bytes(0.0), resident};
    }
    const non_kv_memory n = engine_non_kv_per_gpu(d, r.step_tokens);
    const bytes_t x = n.total();  // = 2 GB exactly for an engine without its own figures
    if (d.engine.scheduler.kv_pool == kv_pool_rule::free_after_weights) {
        const bytes_t free = hbm - x - held;
        return {kv_pool_rule::free_after_weights, f, n.activations, driver + free * (1.0 - f), free * f, n.communication,
                n.runtime};
    }
    return {kv_pool_rule::share_of_total, f, n.activations, driver + hbm * (1.0 - f), hbm * f - x - held,
            n.communication, n.runtime};
}

/// HBM left for KV on one GPU: the pool of `kv_pool_per_gpu`. Negative means the weights do not fit;
/// `kv_capacity_tokens` then reports zero and `fits` says why.
[[nodiscard]] constexpr bytes_t kv_budget_per_gpu(const deployment& d, memory_reserve r = {}) {
    return kv_pool_per_gpu(d, r).pool;
}

[[nodiscard]] constexpr bool weights_fit(const deployment& d, memory_reserve r = {}) {
    return kv_budget_per_gpu(d, r).value() > 0.0;
}

/// What sized one GPU's KV pool, for messages: "the engine's KV pool rule share_of_total at
/// kv_memory_fraction 0.3 leaves -2.1 GB for KV" (a reserve the user gave: "the reserve (fraction
/// 0.05, activations 2 GB) leaves …").
[[nodiscard]] inline std::string kv_pool_text(const deployment& d, memory_reserve r = {}) {
    const kv_pool_split s = kv_pool_per_gpu(d, r);
    std::string t;  // appended piece by piece: GCC bug 105329's false -Wrestrict
    if (r.given()) {
        t += "the reserve (fraction ";
        t += invalid_input::show(r.fraction.value_or(library_reserve_fraction));
        t += ", activations ";
        t += to_text(r.activations.value_or(library_activations));
        t += ")";
    } else {
        t += "the engine's KV pool rule ";
        t += to_string(s.rule);
        t += " at kv_memory_fraction ";
        t += invalid_input::show(s.fraction);
    }
    t += " leaves ";
    t += to_text(s.pool);
    t += " for KV";
    return t;
}

/// Refuses a deployment whose weights and memory reserve exceed HBM, naming the weights per GPU and
/// what sized the pool (`kv_pool_text`: the engine's rule and its KV memory fraction, or the user's
/// reserve): every path that serves (a batch, a simulation, a KV placement) needs the weights resident first.
constexpr void require_weights_fit(const deployment& d, memory_reserve r = {}) {
    if (weights_fit(d, r)) return;
    std::string rule = "does not fit: the weights and the reserve exceed HBM (";
    rule += kv_pool_text(d, r);
    rule += "); use more GPUs or a smaller format";
    if (!r.given()) {  // a larger fraction is offered only where one would leave a pool (f = 1 does)
        deployment all = d;
        all.engine = with_kv_memory_fraction(d.engine, 1.0);
        if (weights_fit(all, r)) rule += ", or a larger KV memory fraction";
    }
    throw invalid_input(d.m.name, "weights per GPU (B)", weight_bytes_per_gpu(d).value(), rule, "llmcost.fit.weights");
}

/// The engine's KV block in tokens, B ≥ 1: its paged cache's block size (`engine_scheduler::kv_block_tokens`,
/// tables/engines.csv: TensorRT-LLM tokens_per_block 32, vLLM block_size 16, SGLang page_size 1); an engine
/// that does not page (0) holds each token in its own slot, B = 1.
[[nodiscard]] constexpr tokens_t kv_block_size(const deployment& d) noexcept {
    return tokens(detail::max(1.0, d.engine.scheduler.kv_block_tokens));
}

/// slots = ⌈n ÷ B⌉ · B: the token slots a sequence of n tokens takes in a paged KV cache of B-token blocks,
/// whole blocks, the waste (under one block) confined to its last block (PagedAttention: Kwon et al.,
/// "Efficient Memory Management for Large Language Model Serving with PagedAttention", SOSP 2023, §4.2–4.3).
/// B = 1: n itself (a mean length, not whole, is kept as it is).
[[nodiscard]] constexpr tokens_t kv_block_slots(const tokens_t& n, const tokens_t& block) noexcept {
    const double b = block.value();
    if (!(b > 1.0)) return n;
    return tokens(detail::const_ceil(n.value() / b) * b);
}

/// waste = (B − 1) ÷ 2: the mean empty slots in a sequence's last block when its length runs through that block
/// (a decoding answer, or lengths that vary), the block's fill uniform over 1 … B tokens (`kv_block_slots` − n
/// averaged over n mod B; Kwon et al., SOSP 2023, §4.3). B = 1: 0.
[[nodiscard]] constexpr tokens_t kv_expected_block_waste(const tokens_t& block) noexcept {
    return tokens(detail::max(0.0, block.value() - 1.0) / 2.0);
}

/// slots = n + (B − 1) ÷ 2: the mean slots of a sequence of n tokens whose length runs through its last block,
/// n plus `kv_expected_block_waste` (Kwon et al., SOSP 2023, §4.3). B = 1: n.
[[nodiscard]] constexpr tokens_t kv_expected_block_slots(const tokens_t& n, const tokens_t& block) noexcept {
    return n + kv_expected_block_waste(block);
}

/// Tokens of context one replica (or attention rank) can cache: budget ÷ KV bytes per token per GPU.
[[nodiscard]] constexpr tokens_t kv_capacity_tokens(const deployment& d, memory_reserve r = {}) {
    const bytes_t budget = kv_budget_per_gpu(d, r);
    if (budget.value() <= 0.0) return tokens(0.0);
    return tokens(budget / (kv_bytes_per_token_per_gpu(d) * tokens(1.0)));
}

/// Tokens of context one replica (or attention rank) can cache in whole KV blocks: ⌊K ÷ B⌋ · B, K =
/// `kv_capacity_tokens`, B = `kv_block_size` (PagedAttention allocates whole blocks: Kwon et al., SOSP 2023, §4.2),
/// the quotient taken as ⌊K·(1 + 10⁻¹²) ÷ B⌋ so a K that is a whole count in exact arithmetic but lands a rounding
/// below it keeps that count (audit 40, F10). The KV room the surfaces show; nothing prices from it.
[[nodiscard]] constexpr tokens_t kv_capacity_whole_blocks(const deployment& d, memory_reserve r = {}) {
    const double k = kv_capacity_tokens(d, r).value();
    const double b = kv_block_size(d).value();
    return tokens(detail::const_trunc(k * (1.0 + 1e-12) / b) * b);
}

/// Sequences of `context` tokens that fit at once (whole sequences only), each in whole KV blocks of the
/// engine's size (`kv_block_slots`).
template <token_count T>
[[nodiscard]] constexpr double max_sequences(const deployment& d, const T& context, memory_reserve r = {}) {
    const bytes_t budget = kv_budget_per_gpu(d, r);
    if (budget.value() <= 0.0) return 0.0;
    const double per_seq = kv_bytes_per_gpu_for_context(d, kv_block_slots(in_base_units(context), kv_block_size(d))).value();
    const double n = budget.value() / per_seq;
    return detail::const_trunc(n);
}

/// Where a cache of `need` bytes per GPU lives: HBM first, then host DRAM, then storage (S17).
struct spill_placement {
    bytes_t in_hbm, in_host, in_storage, overflow;  ///< overflow: more than all tiers hold
    /// Time to bring the spilled part back into HBM: host bytes ÷ host link + storage bytes ÷ storage read.
    seconds_t restore_time;
};

template <data_size D>
[[nodiscard]] constexpr spill_placement place_kv(const deployment& d, const D& need, memory_reserve r = {}) {
    const double total = in_base_units(need).value();
    const double hbm = detail::max(0.0, kv_budget_per_gpu(d, r).value());
    const double host = d.hw.host_memory.capacity.value();
    const double disk = d.hw.storage.capacity.value();
    spill_placement p{};
    double left = total;
    p.in_hbm = bytes(detail::min(left, hbm));
    left -= p.in_hbm.value();
    p.in_host = bytes(detail::min(left, host));
    left -= p.in_host.value();
    p.in_storage = bytes(detail::min(left, disk));
    left -= p.in_storage.value();
    p.overflow = bytes(left);
    p.restore_time = transfer_time(p.in_host, d.hw.host_memory.bandwidth) +
                     transfer_time(p.in_storage, d.hw.storage.bandwidth);
    return p;
}

/// t = KV_gpu(context) ÷ B_host — one sequence's cache moved between HBM and host memory, each GPU
/// its own shard over its own host link (vLLM's swap preemption: out when the cache runs out, back
/// in when the sequence is scheduled again; S17's host tier).
template <token_count T>
[[nodiscard]] constexpr seconds_t kv_swap_time(const deployment& d, const T& context) {
    return transfer_time(kv_bytes_per_gpu_for_context(d, context), d.hw.host_memory.bandwidth);
}

/// t = (weight bytes per GPU − what the engine makes on the GPU at load) ÷ storage read bandwidth — why a node keeps
/// one model resident (S18). SGLang's absorbed kv_b copies (`absorbed_kv_b_copy_bytes_per_gpu`) are computed from the
/// kv_b already read (post_load_weights), not read from storage; the whole router is read whole by every rank.
[[nodiscard]] constexpr seconds_t weight_load_time(const deployment& d) {
    return transfer_time(weight_bytes_per_gpu(d) - absorbed_kv_b_copy_bytes_per_gpu(d), d.hw.storage.bandwidth);
}

}  // namespace llmcost
