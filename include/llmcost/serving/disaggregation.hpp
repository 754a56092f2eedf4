#pragma once
/// \file
/// Prefill/decode disaggregation (seed S24, S25, T3, T9; DistServe, OSDI 2024; Splitwise, ISCA
/// 2024): prefill on one pool, decode on another, the prompt's KV cache sent between them. What it
/// costs (the transfer), what it buys (no prefill stalls in decode steps), the pool ratio that
/// balances a workload, and goodput — requests per second per GPU that meet TTFT and TPOT targets —
/// colocated against disaggregated.

#include <llmcost/serving/speculative.hpp>
#include <llmcost/serving/throughput.hpp>

#include <optional>

namespace llmcost {

/// Where the KV cache travels: inside the scale-up domain (NVLink, seed S9) or over the NIC (S36).
enum class kv_path { scale_up, scale_out };

/// The KV cache of one prompt on its way from a prefill instance to a decode instance. Every GPU
/// of the prefill instance sends its own shard over its own link, in parallel.
struct kv_transfer {
    bytes_t total;        ///< the prompt's whole KV cache: KV per token × input (S16, S25)
    bytes_t per_gpu;      ///< the shard one prefill GPU holds and sends
    seconds_t time;       ///< α + shard ÷ per-direction bandwidth
};

/// t = α + KV_gpu(I) ÷ β — one prompt's cache over the chosen link (seed S25).
[[nodiscard]] constexpr kv_transfer kv_transfer_for(const deployment& prefill, const tokens_t& input, kv_path path) {
    const interconnect& link = path == kv_path::scale_up ? prefill.hw.scale_up : prefill.hw.scale_out;
    kv_transfer t{};
    t.total = kv_bytes_for_context(prefill.m, input);
    t.per_gpu = kv_bytes_per_gpu_for_context(prefill, input);
    t.time = point_to_point_time(t.per_gpu, link);
    return t;
}

/// The stall one prompt adds to a colocated decode step: step(b decodes + the prompt's computed
/// tokens, `r.computed()` = max(1, (1 − h)·I), after its `r.cached()` prefix) − step(b decodes) —
/// every sequence in the batch waits for it (seed T3, S24; a prefix-cache hit h, S6, computes only
/// the fresh tokens, which still attend to the cached ones).
[[nodiscard]] constexpr seconds_t prefill_stall(const deployment& d, double batch, const request_shape& r) {
    r.validate();
    const tokens_t context = mean_decode_context(r);
    return step_pass(d, {.decode_sequences = batch, .decode_context = context, .prefill_sequences = 1.0,
                         .prefill_tokens = r.computed(), .prefill_prefix = r.cached()}).time() -
           decode_pass(d, batch, context).time();
}

/// Latency targets a request must meet to count towards goodput.
struct slo {
    seconds_t ttft;  ///< time to first token
    seconds_t tpot;  ///< time per output token: the mean, or every token's when `every_token`
    /// Bound every inter-token gap (DistServe's P90 TPOT is close to this), not only the mean: a
    /// colocated step that carries a prompt (or a chunk of one) must then fit the target too.
    bool every_token = false;

    constexpr void validate() const {
        require(positive_finite(ttft.value()), "slo", "ttft (s)", ttft.value(), "must be positive and finite");
        require(positive_finite(tpot.value()), "slo", "tpot (s)", tpot.value(), "must be positive and finite");
    }
};

/// One way of serving a workload under an SLO: the batches chosen and the goodput they give.
struct goodput_plan {
    bool feasible = false;       ///< some batch meets both targets
    double decode_batch = 0;     ///< sequences per decode instance (colocated: per instance)
    double prefill_batch = 0;    ///< prompts per prefill pass (disaggregated only)
    seconds_t ttft;
    seconds_t tpot;
    double prefill_instances_per_decode_instance = 0;  ///< P:D (disaggregated only)
    double requests_per_second_per_gpu = 0;            ///< goodput
};

namespace detail {
/// Instance-seconds a pool spends per request: passes × pass time ÷ requests per pass
/// (a prefill pass of b_p prompts: 1 · t_p ÷ (b_p · ranks); decode: O · t_step ÷ (b · ranks)).
template <class V>
[[nodiscard]] constexpr V instance_seconds_per_request(const V& passes, const V& pass_time, const V& batch, double ranks) {
    return passes * pass_time / (batch * ranks);
}
/// Goodput of two pools sized in proportion to their work: 1 ÷ GPU-seconds per request
/// = 1 ÷ (s_p · GPUs_p + s_d · GPUs_d), s the instance-seconds per request of each pool.
template <class V>
[[nodiscard]] constexpr V pooled_requests_per_gpu_second(const V& prefill_instance_s, double prefill_gpus,
                                                         const V& decode_instance_s, double decode_gpus) {
    return 1.0 / (prefill_instance_s * prefill_gpus + decode_instance_s * decode_gpus);
}

/// Largest b in [1, hi] with ok(b), assuming ok is true up to some b and false after; 0 if none.
template <class Ok>
[[nodiscard]] constexpr double largest_batch(double hi, Ok&& ok) {
    if (hi < 1.0 || !ok(1.0)) return 0.0;
    double lo = 1.0;
    while (hi - lo > 0.5) {
        const double mid = detail::const_trunc((lo + hi + 1.0) / 2.0);
        if (mid <= lo) break;
        if (ok(mid)) lo = mid;
        else hi = mid - 1.0;
    }
    return ok(hi) ? hi : lo;
}
}  // namespace detail

/// Colocated (continuous batching, prefill and decode in the same steps): the largest batch whose
/// mean step (b decodes + b/O prompts, `serve_at_batch`) meets the TPOT target and whose prompt
/// steps meet TTFT; with `every_token`, the step that carries a prompt — whole, or one
/// `l.prefill_chunk` of it (chunked prefill, Sarathi-Serve) — must meet TPOT as well (seed T3: a
/// long prefill stalls every decode). With `spec`, every step drafts and verifies
/// (`speculative_serving_point` at each batch, T4), the prompt's step Δ longer too.
/// Goodput = b ÷ (O · t_step) per instance ÷ its GPUs.
[[nodiscard]] constexpr goodput_plan colocated_goodput(const deployment& d, const request_shape& r, const slo& target,
                                                      const scheduler_limits& l = {},
                                                      const speculative_decoding& spec = {}) {
    target.validate();
    spec.validate();
    const double hi = max_batch(d, r, l).batch;
    // The longest step: the prompt's last chunk (serve_at_batch's equal chunks), after the rest.
    const tokens_t chunk = split_prompt(r, l.prefill_chunk).tokens;
    const pass_model pm = prepare_pass(d);
    auto step_at = [&](double b) {
        return spec.enabled() ? std::optional<speculative_step>(spec.step_for(d, detail::micro_batch(d, b), mean_decode_context(r)))
                              : std::nullopt;
    };
    auto point = [&](double b, const std::optional<speculative_step>& st) {
        const serving_point s = serve_at_batch(pm, r, b, l);
        return st ? speculative_serving_point(s, r, *st, spec.acceptance, l) : s;
    };
    auto meets = [&](double b) {
        const std::optional<speculative_step> st = step_at(b);
        const serving_point s = point(b, st);
        if (s.tpot > target.tpot || s.ttft > target.ttft) return false;
        if (!target.every_token) return true;
        const double mb = detail::micro_batch(d, b);
        const seconds_t worst = step_pass(pm, {.decode_sequences = mb, .decode_context = mean_decode_context(r),
                                               .prefill_sequences = 1.0, .prefill_tokens = chunk,
                                               .prefill_prefix = r.input - chunk}).time() +
                                (st ? st->time() - st->plain_time : seconds(0.0));
        return worst <= target.tpot;
    };
    goodput_plan p{};
    p.decode_batch = detail::largest_batch(hi, meets);
    if (p.decode_batch < 1.0) return p;
    const serving_point s = point(p.decode_batch, step_at(p.decode_batch));
    p.feasible = true;
    p.ttft = s.ttft;
    p.tpot = s.tpot;
    p.requests_per_second_per_gpu = s.output_rate_per_gpu.value() / r.output.value();
    return p;
}

/// Disaggregated: a prefill pool (prompts in batches, then the KV transfer) and a decode pool that
/// only decodes. TTFT = prefill pass + transfer + front end + one decode step; TPOT = the decode step. The
/// pools are sized in proportion to their work: P:D = (t_prefill ÷ b_p) ÷ (O · t_step ÷ b_d)
/// instances (seed T9's 1P:2D is one such ratio). Goodput = 1 ÷ GPU-seconds per request.
/// Each pool prices what it runs: the prefill pool a prefix-cache hit (`r.cached_fraction`: only
/// the fresh tokens are prefilled, attending to the cached prefix, S6; the whole prompt's KV still
/// travels), the decode pool speculation (`spec`: every decode step drafts and verifies,
///     t′ = t + Δ,   TPOT′ = t′ ÷ E,   TTFT′ = TTFT + Δ,   decode instance-s = O · TPOT′ ÷ (b · ranks),
/// `speculative_serving_point`'s step with no prompt in it, T4).
[[nodiscard]] constexpr goodput_plan disaggregated_goodput(const deployment& prefill, const deployment& decode,
                                                          const request_shape& r, const slo& target, kv_path path,
                                                          const scheduler_limits& l = {},
                                                          const speculative_decoding& spec = {}) {
    target.validate();
    r.validate();
    spec.validate();
    const tokens_t context = mean_decode_context(r);
    const tokens_t fresh = r.computed(), cached = r.input - fresh;
    const seconds_t transfer = kv_transfer_for(prefill, r.input, path).time;
    const pass_model pm_p = prepare_pass(prefill), pm_d = prepare_pass(decode);
    const double e = spec.enabled() ? expected_tokens_per_pass(spec.acceptance, spec.draft_tokens) : 1.0;
    // The decode step at b sequences, and Δ, the speculative step's extra time (0 without speculation).
    auto step = [&](double b) { return decode_pass(pm_d, detail::micro_batch(decode, b), context).time(); };
    auto delta = [&](double b) {
        if (!spec.enabled()) return seconds(0.0);
        const speculative_step st = spec.step_for(decode, detail::micro_batch(decode, b), context);
        return st.time() - st.plain_time;
    };
    auto tpot_at = [&](double b) {
        const seconds_t t = step(b);
        return seconds(detail::speculative::speculate(t.value(), t.value(), 0.0, delta(b).value(), e, 1.0).tpot);
    };
    const double hi_d = max_batch(decode, r, l).batch;
    goodput_plan p{};
    p.decode_batch = detail::largest_batch(hi_d, [&](double b) { return tpot_at(b) <= target.tpot; });
    if (p.decode_batch < 1.0) return p;
    const seconds_t plain_step = step(p.decode_batch), dt = delta(p.decode_batch);
    const detail::speculative::speculated<double> x =
        detail::speculative::speculate(plain_step.value(), plain_step.value(), plain_step.value(), dt.value(), e, 1.0);
    const seconds_t tpot = seconds(x.tpot), first_step = seconds(x.ttft);
    // Prompts batched together wait for the whole pass; KV of the batch must fit the prefill GPUs.
    const double hi_p = max_batch(prefill, {.input = r.input, .output = tokens(1.0)}, l).batch;
    auto prefill_time = [&](double b) { return prefill_pass(pm_p, b, fresh, cached).time(); };
    // The client's wait: the prefill pool's front end (client_first_token), then the first decode step.
    auto ttft = [&](double b) {
        return client_first_token(prefill_time(b) + transfer, prefill.engine.overheads.request) + first_step;
    };
    p.prefill_batch = detail::largest_batch(hi_p, [&](double b) { return ttft(b) <= target.ttft; });
    if (p.prefill_batch < 1.0) return p;
    p.feasible = true;
    p.ttft = ttft(p.prefill_batch);
    p.tpot = tpot;
    // Instance-seconds per request in each pool, then GPU-seconds.
    const double prefill_instance_s = detail::instance_seconds_per_request(
        1.0, prefill_time(p.prefill_batch).value(), p.prefill_batch, prefill.attention_ranks());
    const double decode_instance_s =
        detail::instance_seconds_per_request(r.output.value(), tpot.value(), p.decode_batch, decode.attention_ranks());
    p.prefill_instances_per_decode_instance = prefill_instance_s / decode_instance_s;
    p.requests_per_second_per_gpu = detail::pooled_requests_per_gpu_second(
        prefill_instance_s, prefill.instance_gpus(), decode_instance_s, decode.instance_gpus());
    return p;
}

/// One pool of a disaggregated deployment: `workers` identical serving instances of `d` (each a
/// replica, or one expert-parallel group).
struct worker_pool {
    deployment d;
    double workers = 1;
    /// A = workers × each worker's attention ranks: where the pool's sequences are spread.
    [[nodiscard]] constexpr double ranks() const { return workers * d.attention_ranks(); }
    /// G = workers × each worker's GPUs.
    [[nodiscard]] constexpr double gpus() const { return workers * d.instance_gpus(); }
    constexpr void validate() const {
        d.validate();
        require(workers >= 1.0 && workers <= 1e6 && detail::const_trunc(workers) == workers, d.m.name, "workers", workers,
                "a pool has a whole number of workers, from 1 to 10⁶");
        require(d.layout.pp == 1, d.m.name, "layout.pp", d.layout.pp,
                "a disaggregated pool's worker is priced without pipeline stages (pp = 1)");
    }
};

/// A disaggregated deployment driven by a benchmark client's closed loop (`disaggregated_closed_loop`).
struct disaggregated_loop {
    seconds_t ttft;                    ///< mean over the run's prompts: the opening wave's and the steady state's
    seconds_t tpot;                    ///< the decode-only step at `decode_batch`
    tokens_per_second_t output_rate;   ///< the whole deployment: prompts × O ÷ the run's makespan
    double decode_batch = 0;           ///< b = c ÷ A_d sequences per decode attention rank
    double prompts_per_pass = 0;       ///< p: prompts one prefill rank runs in a pass at its step cap
    seconds_t transfer;                ///< one prompt's KV cache to the decode pool (`kv_transfer_for`)
    seconds_t opening_ttft;            ///< the opening wave's mean TTFT
    seconds_t steady_ttft;             ///< the steady state's TTFT
    seconds_t prefill_per_prompt;      ///< D = t_p(p) ÷ (p · A_p): the prefill pool's seconds per prompt, saturated
};

/// A closed-loop client of c clients and N prompts (each client's first prompt at t = 0, its next when
/// its answer ends: vLLM benchmark_serving --max-concurrency c --num-prompts N --request-rate inf)
/// against a prefill pool (A_p attention ranks) and a decode pool (A_d) that only decodes:
///   decode:  b = c ÷ A_d,  TPOT = t_d(b) (`decode_pass` at the mean context, no prompt in the step);
///   wave:    k = c ÷ A_p prompts per prefill rank at t = 0, in n = ⌈k ÷ p⌉ passes of p = min(k, B, ⌊M ÷ I⌋)
///            prompts (M the step's token cap, B its prompt cap `max_batch`; none: no bound), the i-th done
///            at i·t_p(p), so
///            TTFT_wave = t_p(p)·(n + 1) ÷ 2 + t_kv + F + t_d(b) (`client_first_token`, F the front end);
///   steady:  the closed loop's asymptotic bounds (Lazowska et al., *Quantitative System Performance*,
///            1984, §5.2: R = max(D₀, c·D_max − Z)), D₀ = t_p(1) + t_kv + F + t_d(b) a prompt alone,
///            D_max = t_p(p*) ÷ (p*·A_p) the prefill pool's seconds per prompt with passes full at the cap
///            or at the clients a rank can hold (p* = max(1, min(B, ⌊M ÷ I⌋, ⌈k⌉)); none: max(1, k)),
///            Z = (O − 1)·TPOT the answer's decode:
///            TTFT_ss = max(D₀, c·D_max − Z), cycle = TTFT_ss + Z, λ = c ÷ cycle;
///   run:     TTFT = (c·TTFT_wave + (N − c)·TTFT_ss) ÷ N; makespan = TTFT_wave + Z + (N ÷ c − 1)·cycle;
///            output rate = N·O ÷ makespan.
/// t_kv = `kv_transfer_for` over `path`. Each pool prices with its own deployment (its engine, layout).
[[nodiscard]] constexpr disaggregated_loop disaggregated_closed_loop(const worker_pool& prefill, const worker_pool& decode,
                                                                    const request_shape& r, double clients, double prompts,
                                                                    kv_path path, const scheduler_limits& l = {}) {
    prefill.validate();
    decode.validate();
    r.validate();
    require(clients >= 1.0 && positive_finite(clients), "disaggregated_closed_loop", "clients", clients,
            "a closed loop has at least one client");
    require(prompts >= clients && positive_finite(prompts), "disaggregated_closed_loop", "prompts", prompts,
            "a closed loop sends at least one prompt per client");
    disaggregated_loop s{};
    s.decode_batch = clients / decode.ranks();
    // The pools must hold what they serve: c ÷ A_d sequences' KV per decode rank, one prompt's per prefill rank.
    const double held = max_batch(decode.d, r).batch;
    require(s.decode_batch <= held, "disaggregated_closed_loop", "clients ÷ decode attention ranks", s.decode_batch,
            "at most the sequences the decode pool's KV cache holds per attention rank (`max_batch`)");
    require(max_batch(prefill.d, {.input = r.input, .output = tokens(1.0)}).batch >= 1.0, "disaggregated_closed_loop",
            "input (tokens)", r.input.value(), "one prompt's KV cache must fit a prefill worker's attention rank");
    s.tpot = decode_pass(decode.d, detail::micro_batch(decode.d, s.decode_batch), mean_decode_context(r)).time();
    s.transfer = kv_transfer_for(prefill.d, r.input, path).time;
    const seconds_t front_end = prefill.d.engine.overheads.request;
    const tokens_t fresh = r.computed(), cached = r.input - fresh;
    auto pass = [&](double p) { return prefill_pass(prefill.d, p, fresh, cached).time(); };
    const double k = clients / prefill.ranks();
    const double by_tokens = l.max_tokens_per_step > 0.0
                                 ? detail::max(1.0, detail::const_trunc(l.max_tokens_per_step / r.input.value()))
                                 : detail::max(1.0, k);
    const double cap = l.max_batch > 0.0 ? detail::max(1.0, detail::min(by_tokens, l.max_batch)) : by_tokens;  // min(B, ⌊M ÷ I⌋)
    s.prompts_per_pass = detail::max(1.0, detail::min(k, cap));
    const double whole = detail::const_trunc(k / s.prompts_per_pass);
    const double passes = detail::max(1.0, whole < k / s.prompts_per_pass ? whole + 1.0 : whole);
    s.opening_ttft = client_first_token(pass(s.prompts_per_pass) * ((passes + 1.0) / 2.0) + s.transfer, front_end) + s.tpot;
    // A rank's queue never holds more than its share of the clients, ⌈k⌉, so a full pass holds at most that.
    const double full = detail::max(1.0, detail::min(cap, detail::const_ceil(k)));
    s.prefill_per_prompt = pass(full) / (full * prefill.ranks());
    const seconds_t alone = client_first_token(pass(1.0) + s.transfer, front_end) + s.tpot;
    const seconds_t think = s.tpot * (r.output.value() - 1.0);
    const seconds_t queued = s.prefill_per_prompt * clients - think;
    s.steady_ttft = queued > alone ? queued : alone;
    const seconds_t cycle = detail::end_to_end(s.steady_ttft, s.tpot, r.output.value());
    s.ttft = (s.opening_ttft * clients + s.steady_ttft * (prompts - clients)) / prompts;
    const seconds_t makespan = detail::end_to_end(s.opening_ttft, s.tpot, r.output.value()) + cycle * (prompts / clients - 1.0);
    s.output_rate = tokens(prompts * r.output.value()) / makespan;
    return s;
}

}  // namespace llmcost
