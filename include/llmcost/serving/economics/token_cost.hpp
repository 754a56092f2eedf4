#pragma once
/// \file
/// What a token costs (seed S33, T7): the GPU's cost per second ÷ the tokens it makes per second,
/// c = C(u) ÷ (u · R), by kind of token, with the full-use rates given or derived from a
/// deployment's passes at an operating point.

#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/passes.hpp>
#include <llmcost/descriptors/economics.hpp>
#include <llmcost/serving/economics/gpu_hour.hpp>

namespace llmcost {

/// $ per token by kind, at one utilisation.
struct token_costs {
    dollars_per_token_t input;
    dollars_per_token_t output;
    dollars_per_token_t cached;  ///< = input when there is no prefix cache (the token is recomputed)
    [[nodiscard]] constexpr bool operator==(const token_costs&) const = default;
};

/// c = C(u) ÷ (u · R) per kind of token — the GPU's cost spread over the tokens it makes (S33).
/// C(u) is the GPU's cost per second *at* utilisation u (e.g. `gpu_hour_cost(...).total()`).
[[nodiscard]] constexpr token_costs cost_per_token(const dollars_per_second_t& gpu_cost, const gpu_token_rates& r,
                                                   double utilisation) {
    r.validate();
    require(utilisation > 0.0 && utilisation <= 1.0, "cost_per_token", "utilisation", utilisation,
            "must be in (0, 1]: an idle GPU makes no tokens to spread its cost over");
    const dollars_per_second_t busy = gpu_cost / utilisation;
    token_costs c{};
    c.input = busy / r.prefill;
    c.output = busy / r.decode;
    c.cached = r.cached.value() > 0.0 ? busy / r.cached : c.input;
    return c;
}

/// c = (capex ÷ T_dep + P_wall(u) · price) ÷ (u · R) — hardware and site priced at utilisation u.
[[nodiscard]] constexpr token_costs cost_per_token(const hardware& h, const facility& f, const gpu_token_rates& r,
                                                   double utilisation, gpu_cost_options o = {}) {
    return cost_per_token(gpu_hour_cost(h, f, utilisation, o).total(), r, utilisation);
}

namespace detail {

/// GPU-seconds one pass occupies: t_pass · GPUs of the instance ÷ pp (each pipeline stage is busy
/// for 1/pp of the pass: passes.hpp's convention).
[[nodiscard]] constexpr seconds_t gpu_seconds_per_pass(const deployment& d, const pass_cost& p) {
    return p.time() * (static_cast<double>(d.instance_gpus()) / d.layout.pp);
}

/// R = tokens per pass ÷ GPU-seconds per pass.
[[nodiscard]] constexpr tokens_per_second_t token_rate(const deployment& d, const pass_cost& p, double tokens_per_pass) {
    return tokens(tokens_per_pass) / gpu_seconds_per_pass(d, p);
}

[[nodiscard]] constexpr bytes_per_second_t restore_bandwidth(const hardware& h, kv_restore_source s) {
    switch (s) {
        case kv_restore_source::hbm: return h.gpu.sustained_hbm_bandwidth();
        case kv_restore_source::host_memory: return h.host_memory.bandwidth;
        case kv_restore_source::storage: return h.storage.bandwidth;
    }
    return h.host_memory.bandwidth;
}

}  // namespace detail

/// Full-use rates of a deployment at an operating point, from its passes:
/// R_prefill = B_p · n_prompt · ranks ÷ GPU-s(prefill pass); R_decode = B_d · ranks ÷ GPU-s(decode
/// pass at the context); R_cached = BW_tier ÷ (KV bytes per token per GPU · tp · pp) — a cached
/// token is read back instead of computed (S6, S17, S33).
[[nodiscard]] constexpr gpu_token_rates gpu_token_rates_at(const deployment& d, const pricing_point& p) {
    p.validate();
    const double ranks = d.attention_ranks();
    gpu_token_rates r{};
    const pass_cost pre = prefill_pass(d, p.prefill_batch, p.prompt, tokens(0.0));
    r.prefill = detail::token_rate(d, pre, p.prefill_batch * p.prompt.value() * ranks);
    const pass_cost dec = decode_pass(d, p.decode_batch, p.context);
    r.decode = detail::token_rate(d, dec, p.decode_batch * ranks);
    const seconds_t restore = transfer_time(kv_bytes_per_token_per_gpu(d) * tokens(1.0),
                                            detail::restore_bandwidth(d.hw, p.cached_from));
    r.cached = tokens(1.0) / (restore * static_cast<double>(d.layout.tp * d.layout.pp));
    return r;
}

/// Cost per token of a deployment at an operating point and utilisation (S33).
[[nodiscard]] constexpr token_costs cost_per_token(const deployment& d, const facility& f, const pricing_point& p,
                                                   double utilisation, gpu_cost_options o = {}) {
    return cost_per_token(d.hw, f, gpu_token_rates_at(d, p), utilisation, o);
}

}  // namespace llmcost
