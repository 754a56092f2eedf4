#pragma once
/// \file
/// The bodies of plan/fleet.hpp: the candidate layouts and the capacity planner (its sweep, the
/// fleet sized at each batch, the refinement between ladder steps). Compiled once into the
/// `llmcost_plan` library (plan.cpp), or included by plan/fleet.hpp when `LLMCOST_HEADER_ONLY` is
/// defined (detail/header_only.hpp). Not a public header: include plan/fleet.hpp.

#include <llmcost/plan/fleet.hpp>
#include <llmcost/serving/throughput.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmcost::plan {

LLMCOST_FUNC std::vector<parallel_layout> candidate_layouts(const model& m, const hardware& hw, int max_gpus) {
    std::vector<parallel_layout> c;
    // Doubling in 64 bits: a max_gpus near INT_MAX must not wrap the last doubling.
    for (long long tp = 1; tp <= max_gpus; tp *= 2) c.push_back({.tp = static_cast<int>(tp)});
    if (m.is_moe())
        for (long long ep = 2; ep <= max_gpus; ep *= 2)
            for (long long tp = 1; tp <= ep; tp *= 2)
                c.push_back({.tp = static_cast<int>(tp), .ep = static_cast<int>(ep), .dp = static_cast<int>(ep / tp)});
    // The layout's own rules (heads, experts); a GPU that cannot run the model's format at all is
    // the sweep's to mark (invalid_deployment), whatever the layout.
    std::vector<parallel_layout> valid;
    for (const parallel_layout& l : c) {
        const std::optional<invalid_input> p = problem({.m = m, .hw = hw, .layout = l});
        if (!p || p->id() == "llmcost.deployment.peak_for_format") valid.push_back(l);
    }
    return valid;
}

namespace detail {

/// GPUs and cost of serving the traffic at one batch of one block; nullopt when a shape fails.
struct fleet {
    double instances = 0, prefill = 0, decode = 0, ratio = 0, gpus = 0, load = 0;
    double ttft = 0, tpot = 0;
};

/// ⌈x⌉, forgiving a rounding error of 1e-9 relative but never more than 10^-6 of an instance
/// (3.0000000000004 instances are 3; 3·10^10 + 0.5 are 3·10^10 + 1, not 3·10^10, which a relative
/// forgiveness alone would give, loading the fleet above 1).
[[nodiscard]] inline double whole_instances(double x) { return std::max(1.0, std::ceil(x - std::min(1e-9 * x, 1e-6))); }

/// Percentile targets on one deployment: the fewest instances at which every shape of the mix,
/// under Poisson arrivals at λ ÷ instances (÷ dp per attention rank), meets them, the percentiles
/// and the concurrency per rank there. `instances` = 0: none up to 10⁶ instances.
struct percentile_fleet {
    double instances = 0, ttft = 0, tpot = 0, concurrency = 0;
    double prefill = 0, decode = 0;  ///< disaggregated: the fewest instances of each pool (`instances` = their sum)
};

/// The fewest n ≥ 1 with ok(n) (nullopt: none up to 10⁶): doubling, then bisection (ok holds from
/// some n on: more instances, a smaller share of the arrivals each).
template <class Ok>
[[nodiscard]] std::optional<double> fewest(Ok&& ok) {
    double hi = 1.0;
    while (!ok(hi)) {
        if (hi >= 1e6) return std::nullopt;
        hi *= 2.0;
    }
    double lo = hi / 2.0;  // fails (or hi = 1)
    if (hi == 1.0) return hi;
    while (hi - lo > 1.0) {
        const double mid = std::floor((lo + hi) / 2.0);
        (ok(mid) ? hi : lo) = mid;
    }
    return hi;
}

/// One disaggregated shape under Poisson arrivals at λ, with n_p prefill and n_d decode instances:
/// the decode pool's ranks each hold D sequences, D = λ_d·(O − 1)·t_d(D) (Little's law, by
/// fixed-point iteration; λ_d = λ ÷ (n_d · ranks)), each step the decode pass at D (no prompts ride
/// it), TPOT's q-quantile t_d(D) + z_q·|t_d(D + 1) − t_d(D)|·√D (the Poisson count of decoders,
/// Palm's theorem); a prefill instance is a bulk-service queue
/// (`queueing::bulk_steps`: each pass prefills every prompt that arrived during the pass before,
/// t(k) = `prefill_pass` of k prompts, and an idle instance polls at its per-pass overhead, t(0)),
/// TTFT = its `first_token_quantile` + the KV transfer + one decode step. nullopt when the decode
/// count outgrows `batch` or arrivals outpace a pool.
struct disaggregated_figures {
    double ttft = 0, tpot = 0, concurrency = 0;
};
[[nodiscard]] inline std::optional<double> decode_concurrency(const pass_model& pm, const deployment& d,
                                                              const request_shape& r, double rate, double batch) {
    const tokens_t context = mean_decode_context(r);
    double D = 1.0;
    for (int i = 0; i < 200; ++i) {
        const double next = std::max(1.0, rate * (r.output.value() - 1.0) *
                                              decode_pass(pm, llmcost::detail::micro_batch(d, D), context).time().value());
        if (!(next <= batch)) return std::nullopt;
        if (std::abs(next - D) <= 1e-9 * next) return next;
        D = next;
    }
    return D;
}
[[nodiscard]] inline std::optional<double> decode_tpot(const pass_model& pm, const deployment& d, const request_shape& r,
                                                       double D, double q) {
    const tokens_t context = mean_decode_context(r);
    const double mb = llmcost::detail::micro_batch(d, D);
    const double here = decode_pass(pm, mb, context).time().value();
    if (!(q > 0.0)) return here;
    const double up = decode_pass(pm, mb + 1.0, context).time().value();
    return here + llmcost::detail::normal_quantile(q) * std::abs(up - here) * std::sqrt(mb);
}
/// TTFT's q-quantile (its mean when q is 0) on a prefill instance fed `rate` prompts a second, each
/// pass carrying at most `cap` prompts (the mode's prompts per prefill pass; a capped bulk-service
/// queue, `queueing::capped_bulk_steps`), or every prompt queued when `cap` is 0 (`bulk_steps`).
[[nodiscard]] inline std::optional<double> prefill_ttft(const pass_model& pm, const request_shape& r, double rate, double q,
                                                        double cap) {
    // new tokens only (a prefix hit); an idle instance polls at its launch overhead, without the padded MoE grid
    // (`pass_model::padded_moe`): that grid is a forward's MoE layers (SGLang's `MoriEPMoE.forward`,
    // docs/mi355x-disagg-decode.md §6.2), and an instance with no prompt anywhere runs no forward: under attention DP
    // a rank with nothing runs an idle batch only while another has tokens (sgl-project/sglang scheduler
    // `prepare_mlp_sync_batch`: `get_idle_batch()` where `max(global_num_tokens) > 0`), else the scheduler idles
    const auto pass = [&](double k) { return k > 0.0 ? prefill_pass(pm, k, r.computed(), r.cached()).time() : pm.overhead; };
    try {
        if (cap > 0.0 && cap < static_cast<double>(queueing::bulk_service::capacity)) {
            const queueing::capped_bulk_service e = queueing::capped_bulk_steps(pass, seconds(1.0 / rate), cap);
            return (q > 0.0 ? queueing::first_token_quantile(e, q) : queueing::first_token_mean(e)).value();
        }
        const queueing::bulk_service e = queueing::bulk_steps(pass, seconds(1.0 / rate));
        return (q > 0.0 ? queueing::first_token_quantile(e, q) : queueing::first_token_mean(e)).value();
    } catch (const invalid_input&) {
        return std::nullopt;  // arrivals outpace the prefill instance
    }
}

/// Percentile targets on a disaggregated deployment at decode batch limit `batch`: the fewest
/// decode instances whose every shape meets the TPOT target (its quantile, or its mean), then the
/// fewest prefill instances whose every shape meets TTFT (`disaggregated_figures`'s model), each
/// prefill pass carrying at most `prefill_batch` prompts (the mode's).
[[nodiscard]] inline percentile_fleet fewest_disaggregated(const deployment& d, const traffic& t, double batch,
                                                           kv_path path, double prefill_batch) {
    const pass_model pm = prepare_pass(d);
    const double ranks = d.attention_ranks();
    percentile_fleet out{};
    std::vector<double> step(t.mix.size());  // the decode step at the decode pool's count, per shape
    const std::optional<double> nd = fewest([&](double n) {
        double tpot = 0.0, conc = 0.0;
        for (std::size_t c = 0; c < t.mix.size(); ++c) {
            const request_shape& r = t.mix[c].shape;
            const std::optional<double> D = decode_concurrency(pm, d, r, t.requests_per_second.value() / (n * ranks), batch);
            if (!D) return false;
            const std::optional<double> x = decode_tpot(pm, d, r, *D, t.tpot_percentile);
            if (!(*x <= t.target.tpot.value())) return false;
            step[c] = *decode_tpot(pm, d, r, *D, 0.0);
            tpot = std::max(tpot, *x);
            conc = std::max(conc, *D);
        }
        out.tpot = tpot;
        out.concurrency = conc;
        return true;
    });
    if (!nd) return {};
    // The figures are those of the last n that met the targets, n_d itself; the steps, redone there.
    for (std::size_t c = 0; c < t.mix.size(); ++c) {  // the figures at exactly n_d
        const request_shape& r = t.mix[c].shape;
        const double D = *decode_concurrency(pm, d, r, t.requests_per_second.value() / (*nd * ranks), batch);
        step[c] = *decode_tpot(pm, d, r, D, 0.0);
    }
    const std::optional<double> np = fewest([&](double n) {
        double ttft = 0.0;
        for (std::size_t c = 0; c < t.mix.size(); ++c) {
            const request_shape& r = t.mix[c].shape;
            const std::optional<double> p = prefill_ttft(pm, r, t.requests_per_second.value() / n, t.ttft_percentile, prefill_batch);
            if (!p) return false;
            // The prefill pool's front end (client_first_token), as disaggregated_goodput.
            const double x =
                client_first_token(*p + kv_transfer_for(d, r.input, path).time.value(), d.engine.overheads.request) + step[c];
            if (!(x <= t.target.ttft.value())) return false;
            ttft = std::max(ttft, x);
        }
        out.ttft = ttft;
        return true;
    });
    if (!np) return {};
    out.prefill = *np;
    out.decode = *nd;
    out.instances = *np + *nd;
    return out;
}

/// Whether `n` instances meet the percentile targets, and the figures there.
/// Priced under `l` with the deployment's engine's admission (`with_engine_admission`), as the sweep's block.
[[nodiscard]] inline std::optional<percentile_fleet> percentiles_at(const deployment& d, const traffic& t, double n,
                                                                   const scheduler_limits& l) {
    const scheduler_limits admits = with_engine_admission(l, d.engine);
    percentile_fleet p{.instances = n};
    for (const traffic_class& c : t.mix) {
        try {
            const online_latency o =
                serve_online_latency(d, c.shape, seconds(n * static_cast<double>(d.layout.dp) / t.requests_per_second.value()),
                                     admits);
            const double ttft = t.ttft_percentile > 0 ? ttft_percentile(o, t.ttft_percentile).value() : o.point.ttft.value();
            const double tpot = t.tpot_percentile > 0 ? tpot_percentile(o, t.tpot_percentile).value() : o.point.tpot.value();
            if (!(ttft <= t.target.ttft.value() && tpot <= t.target.tpot.value())) return std::nullopt;
            p.ttft = std::max(p.ttft, ttft);
            p.tpot = std::max(p.tpot, tpot);
            p.concurrency = std::max(p.concurrency, o.point.batch);
        } catch (const invalid_input&) {
            return std::nullopt;  // arrivals outpace n instances
        }
    }
    return p;
}

/// The fewest instances that meet the percentile targets: doubling, then bisection (the
/// percentiles fall as instances rise and each gets a smaller share of the arrivals).
[[nodiscard]] inline percentile_fleet fewest_instances(const deployment& d, const traffic& t, const scheduler_limits& l) {
    double hi = 1.0;
    std::optional<percentile_fleet> at = percentiles_at(d, t, hi, l);
    while (!at && hi < 1e6) {
        hi *= 2.0;
        at = percentiles_at(d, t, hi, l);
    }
    if (!at) return {};
    double lo = hi / 2.0;  // fails (or hi = 1)
    while (hi - lo > 1.0) {
        const double mid = std::floor((lo + hi) / 2.0);
        if (std::optional<percentile_fleet> m = percentiles_at(d, t, mid, l)) {
            hi = mid;
            at = m;
        } else {
            lo = mid;
        }
    }
    return *at;
}

[[nodiscard]] inline std::optional<fleet> fleet_at(const sweep_result& s, std::size_t block, std::size_t batch,
                                                   const traffic& t, double max_load = 1.0,
                                                   const percentile_fleet* pct = nullptr) {
    const sweep_block& blk = s.blocks[block];
    const double total = t.total_share();
    const double ig = blk.d.instance_gpus();
    fleet f{};
    double need = 0.0, prefill = 0.0, decode = 0.0;
    for (std::size_t c = 0; c < t.mix.size(); ++c) {
        const Eigen::Index i = s.index(block, c, batch);
        // A percentile target is checked on the fleet below, not on the steady state at the batch.
        if (!s.fits(i) || !(t.ttft_percentile > 0 || s.ttft_s(i) <= t.target.ttft.value()) ||
            !(t.tpot_percentile > 0 || s.tpot_s(i) <= t.target.tpot.value()))
            return std::nullopt;
        f.ttft = std::max(f.ttft, s.ttft_s(i));
        f.tpot = std::max(f.tpot, s.tpot_s(i));
        const double w = t.mix[c].share / total;
        if (blk.how.disaggregated) {
            prefill += w * blk.prefill_instance_seconds[c];
            decode += w * s.decode_instance_seconds(i);
        } else {
            need += w / s.requests_per_second_per_gpu(i) / ig;  // instance-seconds per request
        }
    }
    const double lambda = t.requests_per_second.value();
    if (blk.how.disaggregated) {
        f.prefill = whole_instances(lambda * prefill / max_load);
        f.decode = whole_instances(lambda * decode / max_load);
        f.ratio = prefill / decode;
        if (pct) {
            // The percentile pools, if larger; the decode count per rank must fit under the batch limit.
            const double nd = std::max(f.decode, pct->decode);
            if (!(pct->concurrency * pct->decode / nd <= s.grid.batches[batch])) return std::nullopt;
            f.prefill = std::max(f.prefill, pct->prefill);
            f.decode = nd;
            if (t.ttft_percentile > 0) f.ttft = pct->ttft;
            if (t.tpot_percentile > 0) f.tpot = pct->tpot;
        }
        f.gpus = (f.prefill + f.decode) * ig;
        f.load = lambda * (prefill + decode) / (f.prefill + f.decode);
    } else {
        f.instances = whole_instances(lambda * need / max_load);
        if (pct) {
            // The percentile fleet, if larger; its concurrency per rank (falling with more instances,
            // Little's law) must fit under the batch limit, or the cap, not the model, sets the wait.
            const double n = std::max(f.instances, pct->instances);
            if (!(pct->concurrency * pct->instances / n <= s.grid.batches[batch])) return std::nullopt;
            f.instances = n;
            if (t.ttft_percentile > 0) f.ttft = pct->ttft;
            if (t.tpot_percentile > 0) f.tpot = pct->tpot;
        }
        f.gpus = f.instances * ig;
        f.load = lambda * need / f.instances;
    }
    return f;
}

}  // namespace detail

LLMCOST_FUNC fleet_result cheapest_fleet(const model& m, const traffic& t, const fleet_options& o) {
    t.validate();
    o.validate();
    if (t.percentiles())
        require(o.limits.prefill_chunk.value() == 0.0 && o.limits.max_tokens_per_step == 0.0, "plan",
                "limits.prefill_chunk", o.limits.prefill_chunk.value(),
                "percentile targets are planned for whole prompts without a token cap (the bulk-service model)",
                "llmcost.serving.percentile_whole_prompts");
    require(!(t.percentiles() && o.speculation.enabled()), "plan", "speculation.draft_tokens", o.speculation.draft_tokens,
            "percentile targets are planned with plain decode steps (the bulk-service model has no speculation): "
            "use mean targets with speculative decoding");
    fleet_result out;
    // Prices first: a GPU type without one cannot be planned.
    std::vector<hardware> priced;
    std::vector<engine_profile> engines;
    std::vector<gpu_hour_price> price;
    require(o.engines.empty() || o.engines.size() == o.gpus.size(), m.name, "engines", static_cast<double>(o.engines.size()),
            "give one engine per GPU (or none: the reference engine)");
    for (std::size_t hi = 0; hi < o.gpus.size(); ++hi) {
        const hardware& h = o.gpus[hi];
        gpu_hour_price p{};
        if (o.gpu_cost.value() > 0.0) p = given_gpu_hour(o.gpu_cost);
        if (!p.known())
            for (const gpu_price& g : o.prices)
                if (llmcost::detail::same_name(g.hardware, h.name)) p = given_gpu_hour(g.per_gpu);
        if (!p.known()) p = price_gpu_hour(h, o.site, o.utilisation, o.pricing, find_market_price(o.market_prices, h.name));
        if (!p.known()) {
            std::string why(h.name);
            why.append(": no price in the catalog; give its $ per GPU-hour to include it");
            out.skipped.push_back(std::move(why));
            continue;
        }
        priced.push_back(h);
        if (!o.engines.empty()) engines.push_back(o.engines[hi]);
        price.push_back(p);
    }
    if (priced.empty()) return out;

    sweep_grid g{.m = m, .gpus = priced, .engines = engines, .formats = o.formats, .layouts = o.layouts, .modes = {},
                 .shapes = {}, .batches = o.batches.empty() ? batch_ladder() : o.batches, .limits = o.limits};
    g.speculation = o.speculation;
    g.projection_table = o.projection_table;
    g.clock_MHz = o.clock_MHz;
    g.quick_reduce_tp_groups_only = true;  // a tp-1 layout has no TP all-reduce: planned without the switch, not dropped
    if (g.layouts.empty()) g.layouts = candidate_layouts(m, priced.front(), o.max_instance_gpus);
    require(!g.layouts.empty(), m.name, "max_instance_gpus", o.max_instance_gpus,
            "no parallel layout of the model fits in this many GPUs per instance");
    if (o.colocated) g.modes.push_back({});
    for (double pb : o.prefill_batches) g.modes.push_back({.disaggregated = true, .prefill_batch = pb, .path = o.path});
    for (const traffic_class& c : t.mix) g.shapes.push_back(c.shape);
    const sweep_result s = sweep(g);
    out.points = static_cast<std::size_t>(s.size());

    const double lambda = t.requests_per_second.value();
    double mean_output = 0.0, mean_tokens = 0.0;
    for (const traffic_class& c : t.mix) {
        mean_output += c.share / t.total_share() * c.shape.output.value();
        mean_tokens += c.share / t.total_share() * (c.shape.input.value() + c.shape.output.value());
    }
    auto make_plan = [&](const sweep_result& sr, std::size_t block, std::size_t batch, const detail::fleet& f,
                         const gpu_hour_price& c) {
        const sweep_block& blk = sr.blocks[block];
        deployment_plan p{.d = blk.d, .how = blk.how};
        p.batch = sr.grid.batches[batch];
        p.instances = f.instances;
        p.prefill_instances = f.prefill;
        p.decode_instances = f.decode;
        p.prefill_per_decode = f.ratio;
        p.gpus = f.gpus;
        p.ttft = seconds(f.ttft);
        p.tpot = seconds(f.tpot);
        p.load = f.load;
        p.gpu_cost = c.rate;
        p.price = c;
        p.fleet_cost = c.rate * f.gpus;
        const double served = o.utilisation * lambda;
        p.output_rate = tokens_per_second_t::from_value(served * mean_output);
        p.cost_per_output_token = p.fleet_cost / tokens_per_second_t::from_value(served * mean_output);
        p.cost_per_token = p.fleet_cost / tokens_per_second_t::from_value(served * mean_tokens);
        p.gpu_power = blk.d.hw.gpu.board_power * f.gpus;
        p.wall_power = p.gpu_power * o.site.power_multiplier();
        return p;
    };
    auto cheaper = [](const deployment_plan& a, const deployment_plan& b) {
        if (a.fleet_cost.value() != b.fleet_cost.value()) return a.fleet_cost.value() < b.fleet_cost.value();
        if (a.gpus != b.gpus) return a.gpus < b.gpus;
        return a.tpot.value() < b.tpot.value();
    };
    auto within = [&](const detail::fleet& f) { return o.max_gpus <= 0.0 || f.gpus <= o.max_gpus; };

    // The cheapest batch of each block, refined between ladder steps; the cheapest block of each
    // GPU type and mode (colocated, disaggregated).
    std::vector<std::optional<deployment_plan>> best_of(priced.size() * 2);
    std::vector<bool> any_slo(priced.size(), false);
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
        const sweep_block& blk = s.blocks[b];
        if (blk.status != point_status::ok) continue;
        // Percentile targets: the fewest instances of this deployment that meet them (colocated only).
        std::optional<detail::percentile_fleet> pct;
        if (t.percentiles()) {
            if (blk.how.disaggregated) {
                double most = 0.0;  // the largest batch every shape admits
                for (std::size_t c = 0; c < blk.max_batch.size(); ++c)
                    most = c == 0 ? blk.max_batch[c] : std::min(most, blk.max_batch[c]);
                pct = detail::fewest_disaggregated(blk.d, t, most, blk.how.path, blk.how.prefill_batch);
            } else {
                pct = detail::fewest_instances(blk.d, t, o.limits);
            }
            if (!(pct->instances > 0)) continue;
        }
        const detail::percentile_fleet* need = pct ? &*pct : nullptr;
        std::optional<deployment_plan> here;
        std::size_t at = 0;
        for (std::size_t j = 0; j < g.batches.size(); ++j) {
            const std::optional<detail::fleet> f = detail::fleet_at(s, b, j, t, o.max_load, need);
            if (!f) continue;
            any_slo[blk.gpu] = true;
            if (!within(*f)) continue;
            const deployment_plan p = make_plan(s, b, j, *f, price[blk.gpu]);
            if (!here || cheaper(p, *here)) {
                here = p;
                at = j;
            }
        }
        if (!here) continue;
        if (o.refine && at + 1 < g.batches.size() && g.batches[at + 1] - g.batches[at] > 1.0) {
            sweep_grid fine = g;
            fine.gpus = {priced[blk.gpu]};
            fine.formats = {g.formats[blk.format]};
            fine.layouts = {g.layouts[blk.layout]};
            fine.modes = {blk.how};
            fine.batches.clear();
            for (double x = g.batches[at] + 1.0; x < g.batches[at + 1]; x += 1.0) fine.batches.push_back(x);
            const sweep_result r = sweep(fine);
            out.points += static_cast<std::size_t>(r.size());
            for (std::size_t j = 0; j < fine.batches.size(); ++j) {
                const std::optional<detail::fleet> f = detail::fleet_at(r, 0, j, t, o.max_load, need);
                if (!f || !within(*f)) continue;
                const deployment_plan p = make_plan(r, 0, j, *f, price[blk.gpu]);
                if (cheaper(p, *here)) here = p;
            }
        }
        std::optional<deployment_plan>& slot = best_of[blk.gpu * 2 + (blk.how.disaggregated ? 1 : 0)];
        if (!slot || cheaper(*here, *slot)) slot = here;
    }
    for (std::size_t k = 0; k < priced.size(); ++k) {
        const bool any = best_of[k * 2] || best_of[k * 2 + 1];
        if (!any) {
            std::string why(priced[k].name);
            if (any_slo[k]) {
                why.append(": every configuration that meets the targets needs more than ");
                why.append(invalid_input::show(o.max_gpus));
                why.append(" GPUs");
            } else {
                why.append(": no formats, layout, batch and mode meet the targets with a KV cache that fits");
            }
            out.skipped.push_back(std::move(why));
        }
        for (std::size_t mode = 0; mode < 2; ++mode)
            if (best_of[k * 2 + mode]) out.options.push_back(*best_of[k * 2 + mode]);
    }
    std::stable_sort(out.options.begin(), out.options.end(), cheaper);
    if (!out.options.empty()) out.best = out.options.front();
    return out;
}

}  // namespace llmcost::plan
