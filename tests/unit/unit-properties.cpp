// Property tests (issue 8, numeric robustness): thousands of randomly drawn descriptors — dense and
// MoE models, standard and latent attention, MHA/GQA/MQA, sliding windows, BF16/FP8/NVFP4/INT4
// weights; catalog GPUs with their bandwidth, capacity, peaks, efficiencies, power and links
// perturbed; tensor, pipeline, data and expert parallel layouts; batches, contexts and request
// shapes — and, on every draw that `validate()` accepts, the laws the cost model must obey whatever
// the numbers: finite positive outputs, floors, energy bookkeeping, the bandwidth bound on
// throughput, and monotonicity in bandwidth, batch, context and prompt.
//
// The draws come from std::mt19937_64 with fixed seeds through this file's own distributions
// (built on the generator's raw output, never on std::*_distribution, whose output the standard
// leaves to the library, and never with two draws in one call's arguments, whose order it leaves
// to the compiler), so g++ and clang++ test the same descriptors. Draws that `validate()` rejects (the
// generator makes some on purpose: a tp that does not divide the heads, an efficiency above 1, an
// HBM stack above 64 GB, …) are skipped and counted, and each test requires most draws to be valid.
// A failing property reports its first cases as C++ designated initialisers, ready to paste.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <sstream>
#include <string>

using namespace llmcost;

namespace {

// ---- distributions: plain arithmetic on the generator's output, the same on every compiler ------

using rng = std::mt19937_64;

/// Uniform in [0, 1): the top 53 bits of one draw.
double unit(rng& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }
double uniform(rng& g, double lo, double hi) { return lo + (hi - lo) * unit(g); }
/// Uniform integer in [lo, hi] (the modulo bias is irrelevant here).
int int_in(rng& g, int lo, int hi) {
    return lo + static_cast<int>(g() % static_cast<std::uint64_t>(hi - lo + 1));
}
bool chance(rng& g, double p) { return unit(g) < p; }
/// Roughly log-uniform integer in [lo, hi] (lo ≥ 1): a uniform power-of-two octave, then uniform in it.
int log_int(rng& g, int lo, int hi) {
    int lo_bits = 0, hi_bits = 0;
    while ((2 << lo_bits) <= lo) ++lo_bits;
    while ((2 << hi_bits) <= hi) ++hi_bits;
    const int bits = int_in(g, lo_bits, hi_bits);
    const int a = lo > (1 << bits) ? lo : (1 << bits);
    const int b = hi < (2 << bits) - 1 ? hi : (2 << bits) - 1;
    return int_in(g, a, b);
}
/// A factor in [1/s, s], log-uniform: 2^u with u uniform (exp2 of a double is exact enough anywhere).
double factor(rng& g, double octaves) { return std::exp2(uniform(g, -octaves, octaves)); }
template <class T>
T pick(rng& g, std::initializer_list<T> xs) {
    return xs.begin()[g() % xs.size()];
}

// ---- drawing descriptors ----------------------------------------------------------------------

model random_model(rng& g) {
    model m{.name = "random"};
    m.layers = log_int(g, 1, 96);
    const bool latent = chance(g, 0.2);
    if (latent) {
        m.attention.kind = attention_kind::latent;
        m.attention.query_heads = pick(g, {8, 16, 32, 64, 128});
        m.attention.kv_heads = m.attention.query_heads;
        m.attention.latent = {.kv_lora_rank = pick(g, {64, 128, 256, 512}),
                              .q_lora_rank = pick(g, {0, 0, 384, 768, 1536}),
                              .rope_head_dim = pick(g, {0, 32, 64}),
                              .nope_head_dim = pick(g, {32, 64, 128}),
                              .v_head_dim = pick(g, {32, 64, 128})};
    } else {
        const int kv = pick(g, {1, 2, 4, 8, 8, 16, 32});
        const int group = pick(g, {1, 1, 2, 4, 8, 3, 5});  // 1: MHA; kv 1: MQA; else GQA
        m.attention.kv_heads = kv;
        m.attention.query_heads = kv * group;
        m.attention.head_dim = pick(g, {32, 64, 80, 96, 128, 256});
    }
    const int q_width = m.attention.query_heads *
                        (latent ? m.attention.latent.v_head_dim : m.attention.head_dim);
    m.hidden = chance(g, 0.5) ? q_width : 64 * log_int(g, 4, 128);
    m.vocab = log_int(g, 1000, 262144);
    m.tied_embeddings = chance(g, 0.3);
    if (chance(g, 0.25)) {
        m.attention.sliding_window = log_int(g, 16, 8192);
        m.attention.sliding_window_layers = int_in(g, 0, m.layers);
    }
    m.attention.qkv_bias = chance(g, 0.2);
    m.attention.output_bias = chance(g, 0.1);
    m.attention.qk_norm = !latent && chance(g, 0.2);
    m.attention.sinks = chance(g, 0.1);
    m.ffn.gated = chance(g, 0.85);
    auto width = [&](double lo, double hi) { return 1 + static_cast<int>(m.hidden * uniform(g, lo, hi)); };
    if (chance(g, 0.4)) {
        m.ffn.routed_experts = pick(g, {4, 8, 16, 32, 64, 128, 256});
        m.ffn.top_k = int_in(g, 1, m.ffn.routed_experts < 8 ? m.ffn.routed_experts : 8);
        m.ffn.shared_experts = pick(g, {0, 0, 0, 1, 2});
        m.ffn.expert_intermediate = width(0.05, 1.5);
        m.ffn.first_dense_layers = chance(g, 0.3) ? int_in(g, 0, m.layers - 1 < 3 ? m.layers - 1 : 3) : 0;
        m.ffn.expert_bias = chance(g, 0.2);
        m.ffn.router_bias = chance(g, 0.3);
        if (m.ffn.first_dense_layers > 0 || chance(g, 0.3)) m.ffn.intermediate = width(1.0, 5.0);
    } else {
        m.ffn.intermediate = width(1.0, 5.5);
    }
    m.max_position = log_int(g, 2048, 262144);
    // Now and then a rule broken on purpose, so that the skipping is exercised too.
    if (chance(g, 0.04)) {
        switch (int_in(g, 0, 4)) {
            case 0: m.layers = 0; break;
            case 1:
                m.attention.kind = attention_kind::standard;
                m.attention.kv_heads = m.attention.query_heads + 1;
                break;
            case 2: m.attention.sliding_window_layers = m.layers + 1; break;
            case 3: m.ffn.top_k = m.ffn.routed_experts + 1; break;
            default: m.hidden = 0; break;
        }
    }
    return m;
}

hardware random_hardware(rng& g) {
    hardware h = catalog::all_hardware[g() % catalog::all_hardware.size()];
    accelerator& a = h.gpu;
    a.hbm_bandwidth = a.hbm_bandwidth * factor(g, 1.0);
    const double capacity = factor(g, 1.0);
    a.hbm_capacity = a.hbm_capacity * capacity;  // may leave 1–64 GB per stack: rejected
    auto peak = [&](flops_per_second_t p, double zero) {
        return chance(g, zero) ? flops_per_second(0.0) : p * factor(g, 1.0);
    };
    a.dense = {.bf16 = peak(a.dense.bf16, 0.05), .fp8 = peak(a.dense.fp8, 0.15),
               .fp4 = peak(a.dense.fp4, 0.15), .int8 = peak(a.dense.int8, 0.15)};
    if (a.dense.bf16.value() == 0 && a.dense.fp8.value() == 0 && a.dense.fp4.value() == 0)
        a.dense.fp8 = teraflops_per_second(1000.0 * factor(g, 1.0));
    a.board_power = a.board_power * factor(g, 1.0);
    a.idle_power = chance(g, 0.02) ? a.board_power * 1.1 : a.board_power * uniform(g, 0.0, 0.35);
    a.efficiency = {.hbm = uniform(g, 0.5, 1.03),  // above 1: rejected
                    .matmul = uniform(g, 0.3, 1.0),
                    .matmul_half_dim = chance(g, 0.2) ? 0.0 : uniform(g, 0.0, 2000.0),
                    .attention = uniform(g, 0.1, 1.0),
                    .kernel_overhead = microseconds(chance(g, 0.25) ? 0.0 : uniform(g, 0.0, 10.0))};
    h.scale_up.per_direction = h.scale_up.per_direction * factor(g, 2.0);
    h.scale_up.latency = h.scale_up.latency * uniform(g, 0.0, 3.0);
    h.scale_out.per_direction = h.scale_out.per_direction * factor(g, 2.0);
    h.scale_out.latency = h.scale_out.latency * uniform(g, 0.0, 3.0);
    h.scale_up_domain = pick(g, {1, 2, 4, 8, 8, 16, 72});
    if (chance(g, 0.3)) h.capex_per_gpu = dollars(chance(g, 0.3) ? 0.0 : uniform(g, 5000.0, 60000.0));
    return h;
}

parallel_layout random_layout(rng& g, const model& m) {
    parallel_layout l{};
    const attention_spec& a = m.attention;
    // tp: a power of two that the layout rules accept, mostly; now and then any number.
    std::array<int, 5> ok{};
    int n = 0;
    for (int tp : {1, 2, 4, 8, 16}) {
        if (a.query_heads % tp != 0) continue;
        if (a.kind == attention_kind::standard && (tp > a.kv_heads ? tp % a.kv_heads : a.kv_heads % tp) != 0) continue;
        ok[static_cast<std::size_t>(n++)] = tp;
    }
    l.tp = chance(g, 0.05) || n == 0 ? int_in(g, 1, 16) : ok[g() % static_cast<std::uint64_t>(n)];
    l.pp = chance(g, 0.6) ? 1 : int_in(g, 1, m.layers < 8 ? (m.layers < 1 ? 1 : m.layers) : 8);
    if (chance(g, 0.02)) l.pp = m.layers + 1;
    l.dp = pick(g, {1, 1, 2, 4, 8});
    if (m.is_moe() && chance(g, 0.5)) {
        std::array<int, 8> eps{};
        int k = 0;
        for (int ep : {2, 4, 8, 16, 32, 64})
            if (m.ffn.routed_experts % ep == 0 && (l.tp * l.dp) % ep == 0) eps[static_cast<std::size_t>(k++)] = ep;
        if (k > 0) l.ep = eps[g() % static_cast<std::uint64_t>(k)];
    }
    return l;
}

request_shape random_request(rng& g) {
    return {.input = tokens(log_int(g, 1, 32768)), .output = tokens(log_int(g, 1, 4096))};
}

/// One drawn case: a valid deployment whose matmuls the GPU can run, and a request shape.
struct draw {
    deployment d;
    request_shape r;
    const char* hw_base = "";  ///< the catalog GPU it was perturbed from
    int index = 0;             ///< position in its test's sequence of draws
};

struct draw_counts {
    int drawn = 0;
    int invalid = 0;     ///< `validate()` rejected the deployment
    int no_peak = 0;     ///< valid, but the GPU has no peak for the matmul format (prepare_pass refuses)
    int usable = 0;
    int fits = 0;        ///< usable and the weights plus one sequence fit in HBM (max_batch ≥ 1)
    int moe = 0, latent = 0, windowed = 0, tp = 0, pp = 0, ep = 0, dp = 0;
    int weights_bf16 = 0, weights_fp8 = 0, weights_nvfp4 = 0, weights_int4 = 0;
};

/// Draws the next case; nullopt (counted) when it is invalid or the GPU cannot run its matmuls.
std::optional<draw> next_draw(rng& g, draw_counts& n) {
    draw c{};
    c.index = n.drawn++;
    model m = random_model(g);
    hardware h = random_hardware(g);
    c.hw_base = "";
    for (const hardware& e : catalog::all_hardware)
        if (e.name == h.name) c.hw_base = e.name.data();
    const parallel_layout l = random_layout(g, m);
    c.d = {.m = m, .hw = h, .layout = l};
    if (chance(g, 0.8)) {  // as `--weights` and `--kv` select them
        // Drawn one statement at a time: the order of a call's arguments is the compiler's choice.
        const number_format weights = pick(g, {formats::bf16, formats::fp8, formats::nvfp4, formats::int4});
        const number_format kv = pick(g, {formats::bf16, formats::fp8, formats::nvfp4});
        c.d = with_formats(c.d, weights, kv);
    } else {  // spelled out: any weights with any GEMM inputs, experts maybe in their own format
        c.d.m.weights = pick(g, {formats::bf16, formats::fp8, formats::nvfp4, formats::int4});
        c.d.m.kv_cache = pick(g, {formats::bf16, formats::fp8, formats::nvfp4});
        c.d.m.activations = pick(g, {formats::bf16, formats::fp8, formats::nvfp4});
        if (c.d.m.is_moe() && chance(g, 0.5))
            c.d.m.expert_weights = pick(g, {formats::mxfp4, formats::nvfp4, formats::fp8});
    }
    c.r = random_request(g);
    if (!test::validation_message(c.d).empty()) {
        ++n.invalid;
        return std::nullopt;
    }
    if (!c.d.hw.gpu.supports(c.d.m.activations.compute)) {
        ++n.no_peak;
        return std::nullopt;
    }
    ++n.usable;
    n.moe += c.d.m.is_moe();
    n.latent += c.d.m.attention.kind == attention_kind::latent;
    n.windowed += c.d.m.attention.sliding_window_layers > 0;
    n.tp += c.d.layout.tp > 1;
    n.pp += c.d.layout.pp > 1;
    n.ep += c.d.expert_parallel();
    n.dp += c.d.layout.dp > 1;
    n.weights_bf16 += c.d.m.weights == formats::bf16;
    n.weights_fp8 += c.d.m.weights == formats::fp8;
    n.weights_nvfp4 += c.d.m.weights == formats::nvfp4;
    n.weights_int4 += c.d.m.weights == formats::int4;
    return c;
}

/// The largest batch that fits (nullopt when not even one sequence does), counted in `n.fits`.
std::optional<double> room(const draw& c, draw_counts& n) {
    std::optional<double> b;
    try {
        b = max_batch(c.d, c.r).batch;
    } catch (const invalid_input&) {
        return std::nullopt;
    }
    ++n.fits;
    return b;
}

/// Most draws must be usable, or the properties test little.
void require_mostly_valid(const draw_counts& n, double usable_share, double fit_share = 0.0) {
    INFO("drawn " << n.drawn << ", invalid " << n.invalid << ", no matmul peak " << n.no_peak << ", usable "
                  << n.usable << ", fitting " << n.fits);
    CHECK(n.usable >= usable_share * n.drawn);
    CHECK(n.fits >= fit_share * n.usable);
}

// ---- reporting a failing case as code ---------------------------------------------------------

/// 17 significant digits: every double reads back as itself.
std::string num(double v) { return text::number(v, 17); }

std::string format_name(const number_format& f) { return "formats::" + std::string(f.name); }

std::string describe(const draw& c) {
    const model& m = c.d.m;
    const attention_spec& a = m.attention;
    const latent_attention& la = a.latent;
    const ffn_spec& f = m.ffn;
    const accelerator& g = c.d.hw.gpu;
    const parallel_layout& l = c.d.layout;
    std::ostringstream o;
    o << "draw #" << c.index << "\n"
      << "model m{.name = \"random\", .layers = " << m.layers << ", .hidden = " << m.hidden << ", .vocab = " << m.vocab
      << ", .tied_embeddings = " << m.tied_embeddings << ",\n  .attention = {.kind = attention_kind::"
      << (a.kind == attention_kind::latent ? "latent" : "standard") << ", .query_heads = " << a.query_heads
      << ", .kv_heads = " << a.kv_heads << ", .head_dim = " << a.head_dim << ",\n    .latent = {.kv_lora_rank = "
      << la.kv_lora_rank << ", .q_lora_rank = " << la.q_lora_rank << ", .rope_head_dim = " << la.rope_head_dim
      << ", .nope_head_dim = " << la.nope_head_dim << ", .v_head_dim = " << la.v_head_dim
      << "},\n    .sliding_window = " << a.sliding_window << ", .sliding_window_layers = " << a.sliding_window_layers
      << ", .qkv_bias = " << a.qkv_bias << ", .output_bias = " << a.output_bias << ", .qk_norm = " << a.qk_norm
      << ", .sinks = " << a.sinks << "},\n  .ffn = {.intermediate = " << f.intermediate << ", .gated = " << f.gated
      << ", .routed_experts = " << f.routed_experts << ", .shared_experts = " << f.shared_experts
      << ", .top_k = " << f.top_k << ", .expert_intermediate = " << f.expert_intermediate
      << ", .first_dense_layers = " << f.first_dense_layers << ", .expert_bias = " << f.expert_bias
      << ", .router_bias = " << f.router_bias << "},\n  .max_position = " << m.max_position
      << ", .weights = " << format_name(m.weights) << ", .kv_cache = " << format_name(m.kv_cache)
      << ", .activations = " << format_name(m.activations);
    if (m.expert_weights) o << ", .expert_weights = " << format_name(*m.expert_weights);
    o << "};\n"
      << "hardware h = <catalog \"" << c.hw_base << "\">;\n"
      << "h.gpu.hbm_capacity = bytes(" << num(g.hbm_capacity.value()) << "); h.gpu.hbm_stacks = " << g.hbm_stacks
      << "; h.gpu.hbm_bandwidth = bytes_per_second(" << num(g.hbm_bandwidth.value()) << ");\n"
      << "h.gpu.dense = {.bf16 = flops_per_second(" << num(g.dense.bf16.value()) << "), .fp8 = flops_per_second("
      << num(g.dense.fp8.value()) << "), .fp4 = flops_per_second(" << num(g.dense.fp4.value())
      << "), .int8 = flops_per_second(" << num(g.dense.int8.value()) << ")};\n"
      << "h.gpu.board_power = watts(" << num(g.board_power.value()) << "); h.gpu.idle_power = watts("
      << num(g.idle_power.value()) << ");\n"
      << "h.gpu.efficiency = {.hbm = " << num(g.efficiency.hbm) << ", .matmul = " << num(g.efficiency.matmul)
      << ", .matmul_half_dim = " << num(g.efficiency.matmul_half_dim) << ", .attention = "
      << num(g.efficiency.attention) << ", .kernel_overhead = seconds(" << num(g.efficiency.kernel_overhead.value())
      << ")};\n"
      << "h.scale_up = {.per_direction = bytes_per_second(" << num(c.d.hw.scale_up.per_direction.value())
      << "), .latency = seconds(" << num(c.d.hw.scale_up.latency.value()) << ")}; h.scale_up_domain = "
      << c.d.hw.scale_up_domain << ";\n"
      << "h.scale_out = {.per_direction = bytes_per_second(" << num(c.d.hw.scale_out.per_direction.value())
      << "), .latency = seconds(" << num(c.d.hw.scale_out.latency.value()) << ")}; h.capex_per_gpu = dollars("
      << num(c.d.hw.capex_per_gpu.value()) << ");\n"
      << "deployment d{.m = m, .hw = h, .layout = {.tp = " << l.tp << ", .pp = " << l.pp << ", .ep = " << l.ep
      << ", .dp = " << l.dp << "}};\n"
      << "request_shape r{.input = tokens(" << num(c.r.input.value()) << "), .output = tokens("
      << num(c.r.output.value()) << ")};";
    return o.str();
}

/// A property checked over many cases: its first failures are reported with the case that broke
/// it, the rest only counted, so that a broken law does not flood the log.
struct property {
    const char* name;
    int checked = 0;
    int failed = 0;

    template <class Detail>
    void expect(bool ok, const draw& c, Detail&& detail) {
        ++checked;
        if (ok) return;
        if (++failed <= 3) FAIL_CHECK(std::string(name) << " fails on\n" << describe(c) << "\n" << detail());
    }
    /// Every case held, and there were enough of them.
    void done(int at_least) const {
        INFO(std::string(name) << ": " << failed << " of " << checked << " cases failed");
        CHECK(failed == 0);
        CHECK(checked >= at_least);
    }
};

bool finite_positive(double v) { return std::isfinite(v) && v > 0.0; }
bool finite_non_negative(double v) { return std::isfinite(v) && v >= 0.0; }

/// Every component of a pass is finite and non-negative, and its time is finite and positive.
bool sane(const pass_cost& p) {
    for (double v : {p.flops.value(), p.matmul_flops.value(), p.attention_flops.value(), p.weight_bytes.value(),
                     p.kv_bytes.value(), p.activation_bytes.value(), p.compute_time.value(), p.memory_time.value(),
                     p.matmul_compute_time.value(), p.matmul_memory_time.value(), p.attention_compute_time.value(),
                     p.attention_memory_time.value(), p.elementwise_time.value(), p.overhead_time.value(),
                     p.tp_time.value(), p.ep_time.value(), p.pp_time.value()})
        if (!finite_non_negative(v)) return false;
    return finite_positive(p.time().value()) && finite_positive(p.roofline_time().value());
}

std::string show(const pass_cost& p) {
    std::ostringstream o;
    o << "time " << num(p.time().value()) << " s = matmul max(" << num(p.matmul_compute_time.value()) << ", "
      << num(p.matmul_memory_time.value()) << ") + attention max(" << num(p.attention_compute_time.value()) << ", "
      << num(p.attention_memory_time.value()) << ") + elementwise " << num(p.elementwise_time.value())
      << " + overhead " << num(p.overhead_time.value()) << " + tp " << num(p.tp_time.value()) << " + ep "
      << num(p.ep_time.value()) << " + pp " << num(p.pp_time.value()) << "; compute floor "
      << num(p.compute_time.value()) << ", memory floor " << num(p.memory_time.value()) << "; FLOPs matmul "
      << num(p.matmul_flops.value()) << " attention " << num(p.attention_flops.value()) << "; bytes weights "
      << num(p.weight_bytes.value()) << " kv " << num(p.kv_bytes.value()) << " activations "
      << num(p.activation_bytes.value());
    return o.str();
}

/// a ≤ b up to the rounding of a sum of a few terms.
bool at_most(double a, double b, double rel = 1e-12) { return a <= b * (1.0 + rel); }

/// A random pass of each kind for the case: decode, prefill (with a prefix now and then), mixed.
struct three_passes {
    pass_cost decode, prefill, mixed;
    double batch, context, prompt, prefix;
};
three_passes random_passes(rng& g, const pass_model& pm) {
    three_passes t{};
    t.batch = log_int(g, 1, 512);
    t.context = log_int(g, 1, 131072);
    t.prompt = log_int(g, 1, 16384);
    t.prefix = chance(g, 0.3) ? log_int(g, 1, 65536) : 0.0;
    t.decode = decode_pass(pm, t.batch, tokens(t.context));
    t.prefill = prefill_pass(pm, log_int(g, 1, 8), tokens(t.prompt), tokens(t.prefix));
    t.mixed = step_pass(pm, {.decode_sequences = t.batch, .decode_context = tokens(t.context),
                             .prefill_sequences = uniform(g, 0.0, 3.0), .prefill_tokens = tokens(t.prompt),
                             .prefill_prefix = tokens(t.prefix)});
    return t;
}

/// Share of E experts that T tokens touch under uniform top-k routing, 1 − (1 − k/E)^T, with a
/// fractional T taken as the mixture of ⌊T⌋ and ⌈T⌉ tokens (linear between them).
double mixed_coverage(int experts, int top_k, double tokens) {
    const double miss = 1.0 - static_cast<double>(top_k) / experts;
    const double whole = std::floor(tokens);
    const double below = 1.0 - std::pow(miss, whole), above = 1.0 - std::pow(miss, whole + 1.0);
    return below + (tokens - whole) * (above - below);
}

constexpr int draws_per_test = 3000;

}  // namespace

TEST_CASE("properties: the generator draws mostly valid, varied deployments") {
    rng g{0x5eed'0001};
    draw_counts n;
    for (int i = 0; i < 4000; ++i)
        if (auto c = next_draw(g, n)) (void)room(*c, n);
    require_mostly_valid(n, 0.7, 0.6);
    // Invalid draws are made on purpose too: the skipping is exercised.
    CHECK(n.invalid > 0);
    // Every family the properties are about is drawn often.
    for (int kind : {n.moe, n.latent, n.windowed, n.tp, n.pp, n.ep, n.dp, n.weights_bf16, n.weights_fp8,
                     n.weights_nvfp4, n.weights_int4})
        CHECK(kind >= 100);
}

TEST_CASE("properties: every output is finite and positive") {
    rng g{0x5eed'0002};
    draw_counts n;
    property passes{"pass figures finite, non-negative, time positive"};
    property point{"serving point figures finite and positive"};
    property est{"estimate energies and costs finite and positive (cost NaN exactly when unknown)"};
    property price{"price_request figures finite and positive"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const pass_model pm = prepare_pass(c->d);
        const three_passes t = random_passes(g, pm);
        for (const pass_cost* p : {&t.decode, &t.prefill, &t.mixed})
            passes.expect(sane(*p), *c, [&] { return show(*p); });
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        const double batch = int_in(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        const scheduler_limits chunked{.prefill_chunk = tokens(static_cast<double>(int_in(g, 1, 4096)))};
        for (const serving_point& s : {serve_at_batch(c->d, c->r, batch), saturated(c->d, c->r),
                                       serve_at_batch(c->d, c->r, batch, chunked)}) {
            bool ok = true;
            for (double v : {s.batch, s.step_time.value(), s.residual.value(), s.prefill_time.value(), s.ttft.value(),
                             s.tpot.value(), s.e2e.value(), s.output_rate.value(), s.output_rate_per_gpu.value(),
                             s.per_user.value()})
                ok = ok && finite_positive(v);
            // E[t²] ≥ E[t]²: the wait for the step in flight is at least half a mean step.
            ok = ok && s.residual.value() >= s.step_time.value() / 2.0 * (1.0 - 1e-12);
            point.expect(ok && sane(s.step), *c, [&] { return "batch " + num(s.batch) + ": " + show(s.step); });
        }
        for (double b : {batch, 0.0}) {
            const request_estimate e = estimate(c->d, c->r, {.batch = b});
            bool ok = true;
            for (double v : {e.gpu_energy_per_output_token.value(), e.wall_energy_per_output_token.value(),
                             e.gpu_energy_per_request.value(), e.wall_energy_per_request.value(),
                             e.kv_bytes_per_token.value(), e.weight_bytes_per_gpu.value(),
                             e.kv_capacity_tokens.value()})
                ok = ok && finite_positive(v);
            ok = ok && (e.cost_known() ? finite_positive(e.cost_per_output_token.value())
                                       : std::isnan(e.cost_per_output_token.value()));
            est.expect(ok, *c, [&] {
                return "batch " + num(b) + ": J/token " + num(e.gpu_energy_per_output_token.value()) + ", $/token " +
                       num(e.cost_per_output_token.value());
            });
        }
        const request_cost q = price_request(c->d, c->r, batch, {.pricing = pricing_basis::tco});
        bool ok = true;
        for (double v : {q.prefill.value(), q.end_to_end.value(), q.gpu_seconds.value(), q.gpu_energy.value(),
                         q.wall_energy.value()})
            ok = ok && finite_positive(v);
        // One output token needs no decode step.
        ok = ok && (c->r.output.value() > 1.0 ? finite_positive(q.decode.value()) : q.decode.value() == 0.0);
        ok = ok && (c->d.hw.capex_per_gpu.value() > 0.0 ? finite_positive(q.cost.value()) : std::isnan(q.cost.value()));
        price.expect(ok, *c, [&] { return "batch " + num(batch) + ": prefill " + num(q.prefill.value()) + ", decode " +
                                          num(q.decode.value()) + ", cost " + num(q.cost.value()); });
    }
    require_mostly_valid(n, 0.7, 0.6);
    passes.done(5000);
    point.done(3000);
    est.done(3000);
    price.done(1500);
}

TEST_CASE("properties: a pass is never faster than its floors") {
    // t = matmul roofline + attention roofline + element-wise + launches + communication, so t is
    // at least each class's own roofline, recomputed here from the pass's work and the descriptor:
    // GEMMs max(FLOPs ÷ (peak · e_matmul), weights ÷ B), attention max(FLOPs ÷ (attention peak · e_attn),
    // KV ÷ B), element-wise activations ÷ B; and at least the pass's own floors, compute_time and
    // memory_time (roofline_time() = the larger). The sum of byte terms may round 1 ulp either way
    // from bytes ÷ B: a relative slack of 1e-12.
    rng g{0x5eed'0003};
    draw_counts n;
    property memory{"time >= memory floor (all bytes / sustained bandwidth)"};
    property compute{"time >= compute floor (all FLOPs at the large-GEMM rate)"};
    property roofline{"time >= roofline_time()"};
    property classes{"time >= each kernel class's own roofline"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const pass_model pm = prepare_pass(c->d);
        const accelerator& gpu = c->d.hw.gpu;
        const double bw = gpu.sustained_hbm_bandwidth().value();
        const double gemm_rate = gpu.peak(c->d.m.activations.compute).value() * gpu.efficiency.matmul;
        const double bf16 = gpu.peak(compute_class::bf16).value();
        const double attention_rate =
            (bf16 > 0 ? bf16 : gpu.peak(c->d.m.activations.compute).value()) * gpu.efficiency.attention;
        const three_passes t = random_passes(g, pm);
        for (const pass_cost* p : {&t.decode, &t.prefill, &t.mixed}) {
            const double time = p->time().value();
            auto why = [&] { return show(*p); };
            memory.expect(at_most(p->bytes().value() / bw, time) && at_most(p->memory_time.value(), time), *c, why);
            compute.expect(at_most(p->compute_time.value(), time), *c, why);
            roofline.expect(at_most(p->roofline_time().value(), time), *c, why);
            const double gemm = std::fmax(p->matmul_flops.value() / gemm_rate, p->weight_bytes.value() / bw);
            const double attention = std::fmax(p->attention_flops.value() / attention_rate, p->kv_bytes.value() / bw);
            const double elementwise = p->activation_bytes.value() / bw;
            classes.expect(at_most(gemm, time) && at_most(attention, time) && at_most(elementwise, time) &&
                               at_most(gemm, p->matmul_time().value()) &&
                               at_most(attention, p->attention_time().value()) &&
                               at_most(gemm + attention + elementwise, time),
                           *c, why);
        }
    }
    require_mostly_valid(n, 0.7);
    for (const property* p : {&memory, &compute, &roofline, &classes}) p->done(5000);
}

TEST_CASE("properties: energy is board power times GPU-seconds, never below idle") {
    // price_request charges E = P_board · GPU-s; the estimate charges P_board · GPUs ÷ R_out per
    // output token, i.e. O · GPUs ÷ R_out GPU-seconds per request. Idle power is below board power
    // (validate()), so neither is below idle_energy over the same GPU-seconds; the wall adds ≥ 1×.
    rng g{0x5eed'0004};
    draw_counts n;
    property board{"GPU energy = board power x GPU-seconds"};
    property idle{"GPU energy >= idle power x GPU-seconds, wall >= GPU"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        const double batch = int_in(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        const hardware& h = c->d.hw;
        const request_cost q = price_request(c->d, c->r, batch);
        board.expect(approx_equal(q.gpu_energy, gpu_energy(h, q.gpu_seconds), 1e-12), *c,
                     [&] {
                         return "price_request: " + num(q.gpu_energy.value()) + " J for " + num(q.gpu_seconds.value()) +
                                " GPU-s";
                     });
        idle.expect(q.gpu_energy >= idle_energy(h, q.gpu_seconds) && q.wall_energy >= q.gpu_energy, *c,
                    [&] { return "price_request: " + num(q.gpu_energy.value()) + " J"; });
        for (double b : {batch, 0.0}) {
            const request_estimate e = estimate(c->d, c->r, {.batch = b});
            const seconds_t gpu_s = c->r.output / e.point.output_rate * static_cast<double>(c->d.layout.gpus());
            board.expect(approx_equal(e.gpu_energy_per_request, gpu_energy(h, gpu_s), 1e-12), *c,
                         [&] {
                             return "estimate at batch " + num(b) + ": " + num(e.gpu_energy_per_request.value()) + " J";
                         });
            idle.expect(e.gpu_energy_per_request >= idle_energy(h, gpu_s) &&
                            e.wall_energy_per_request >= e.gpu_energy_per_request,
                        *c, [&] { return "estimate at batch " + num(b); });
        }
    }
    require_mostly_valid(n, 0.7, 0.6);
    board.done(5000);
    idle.done(5000);
}

TEST_CASE("properties: throughput never beats the bandwidth bound") {
    // The bound. One step of a replica (an attention rank, for EP) produces `batch` tokens: pp
    // micro-batches of batch/pp sequences each pass once through every pipeline stage. For each
    // micro-batch, every GPU streams from HBM the weights it holds that the micro-batch touches:
    //   W_gpu = (weights outside the routed experts and the embedding table) ÷ (tp · pp)
    //         + routed-expert bytes on the GPU × coverage(E, k, routed tokens),
    // the input embedding being a row lookup, not a stream — but a model with tied embeddings
    // reads that same table whole as its LM head, so there it counts. A GPU moves at most B (sustained HBM
    // bandwidth) bytes a second, so it finishes at most B ÷ W_gpu micro-batches a second, and
    //   output rate per replica ≤ (batch ÷ pp) · B ÷ W_gpu = batch · B ÷ (pp · W_gpu).
    // The routed tokens of a micro-batch are at least its decoding tokens (batch/pp per attention
    // rank, times the ranks sharing the experts); coverage rises with tokens, so using only those
    // can only lower W_gpu: the bound stays an upper bound. KV, activations and compute only add.
    // T tokens touch a share 1 − (1 − k/E)^T of the experts; a fractional T (batch/pp is one when
    // pp does not divide the batch) is a mixture of ⌊T⌋ and ⌈T⌉ tokens, the way step_pass prices a
    // fractional prompt, so the coverage is interpolated linearly between them: below one token,
    // T · k/E (a micro-batch slot holds a sequence a share T of the time).
    rng g{0x5eed'0005};
    draw_counts n;
    property bound{"output rate per replica <= batch x B / (pp x weights per GPU read per micro-batch)"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        const deployment& d = c->d;
        const model& m = d.m;
        const parameter_breakdown pb = parameters(m);
        const double tp = d.layout.tp, pp = d.layout.pp;
        const double bw = d.hw.gpu.sustained_hbm_bandwidth().value();
        auto bound_at = [&](double batch) {
            const count_t streamed = pb.total() - pb.routed_experts - (m.tied_embeddings ? 0 : pb.embedding);
            const double dense = m.weights.bytes_for(static_cast<double>(streamed)).value() / (tp * pp);
            const double routed = batch / pp * d.attention_ranks();
            const double experts = m.is_moe() ? expert_weight_bytes_per_gpu(d).value() *
                                                    mixed_coverage(m.ffn.routed_experts, m.ffn.top_k, routed)
                                              : 0.0;
            return batch * bw / (pp * (dense + experts));
        };
        const double batch = log_int(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        for (const serving_point& s :
             {serve_at_batch(d, c->r, 1.0), serve_at_batch(d, c->r, batch), saturated(d, c->r)}) {
            const double per_replica = s.output_rate.value() / d.layout.dp;
            const double limit = bound_at(s.batch);
            bound.expect(at_most(per_replica, limit, 1e-9), *c, [&] {
                return "batch " + num(s.batch) + ": " + num(per_replica) + " tok/s per replica, bound " + num(limit) +
                       "; " + show(s.step);
            });
        }
    }
    require_mostly_valid(n, 0.7, 0.6);
    bound.done(5000);
}

TEST_CASE("properties: doubling HBM bandwidth never slows a pass nor serving") {
    rng g{0x5eed'0006};
    draw_counts n;
    property decode{"2x bandwidth: decode step no slower"};
    property prefill{"2x bandwidth: prefill no slower"};
    property mixed{"2x bandwidth: mixed step no slower"};
    property serving{"2x bandwidth: serving step no slower, rate no lower"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        deployment fast = c->d;
        fast.hw.gpu.hbm_bandwidth = fast.hw.gpu.hbm_bandwidth * 2.0;
        const pass_model pm = prepare_pass(c->d), pm_fast = prepare_pass(fast);
        const rng before = g;
        const three_passes slow_p = random_passes(g, pm);
        rng again = before;
        const three_passes fast_p = random_passes(again, pm_fast);
        auto why = [](const pass_cost& a, const pass_cost& b) {
            return [pa = &a, pb = &b] { return "B: " + show(*pa) + "\n2B: " + show(*pb); };
        };
        decode.expect(fast_p.decode.time() <= slow_p.decode.time(), *c, why(slow_p.decode, fast_p.decode));
        prefill.expect(fast_p.prefill.time() <= slow_p.prefill.time(), *c, why(slow_p.prefill, fast_p.prefill));
        mixed.expect(fast_p.mixed.time() <= slow_p.mixed.time(), *c, why(slow_p.mixed, fast_p.mixed));
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        const double batch = int_in(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        const serving_point a = serve_at_batch(c->d, c->r, batch), b = serve_at_batch(fast, c->r, batch);
        serving.expect(b.step_time <= a.step_time && b.ttft <= a.ttft && b.output_rate >= a.output_rate, *c,
                       why(a.step, b.step));
    }
    require_mostly_valid(n, 0.7, 0.6);
    decode.done(1800);
    prefill.done(1800);
    mixed.done(1800);
    serving.done(1800);
}

TEST_CASE("properties: more batch never lowers the output rate nor shortens the step") {
    // Within the KV limit (max_batch), b1 < b2: step(b2) ≥ step(b1) and rate(b2) ≥ rate(b1) (a ratio
    // b ÷ step that may round 1 ulp low when the step is proportional to b: a relative slack of
    // 1e-12). The rate holds on a GPU without GEMM tile quantisation (matmul_half_dim = 0: no
    // padded rows). With tiles it does not, and is not asserted: one row past a 64-row tile costs a
    // whole tile (batch 64 -> 65 computes 128 rows), so the rate can fall at a tile boundary on real
    // kernels too; the figures show it as the frontier's steps (docs/figures/frontier.png).
    rng g{0x5eed'0007};
    draw_counts n;
    property step{"more batch: step no shorter"};
    property rate_untiled{"more batch: deployment output rate no lower, GEMMs without tile quantisation"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const std::optional<double> most = room(*c, n);
        if (!most || *most < 2) continue;
        const int top = static_cast<int>(*most < 8192 ? *most : 8192);
        const double b1 = log_int(g, 1, top - 1);
        const double b2 = chance(g, 0.5) ? b1 + 1 : int_in(g, static_cast<int>(b1) + 1, top);
        const serving_point s1 = serve_at_batch(c->d, c->r, b1), s2 = serve_at_batch(c->d, c->r, b2);
        auto why = [&] {
            return "batch " + num(b1) + ": " + num(s1.output_rate.value()) + " tok/s, " + show(s1.step) + "\nbatch " +
                   num(b2) + ": " + num(s2.output_rate.value()) + " tok/s, " + show(s2.step);
        };
        step.expect(s2.step_time >= s1.step_time, *c, why);
        deployment untiled = c->d;
        untiled.hw.gpu.efficiency.matmul_half_dim = 0.0;
        const serving_point u1 = serve_at_batch(untiled, c->r, b1), u2 = serve_at_batch(untiled, c->r, b2);
        const bool untiled_ok = at_most(u1.output_rate.value(), u2.output_rate.value()) && u2.step_time >= u1.step_time;
        rate_untiled.expect(untiled_ok, *c, [&] {
            return "batch " + num(b1) + ": " + num(u1.output_rate.value()) + " tok/s, " + show(u1.step) + "\nbatch " +
                   num(b2) + ": " + num(u2.output_rate.value()) + " tok/s, " + show(u2.step);
        });
    }
    require_mostly_valid(n, 0.7, 0.6);
    step.done(1800);
    rate_untiled.done(1800);
}

TEST_CASE("properties: a request's own prompt is priced once, in its TTFT") {
    // My decode steps carry the prompts of the b − 1 others only (issue 16): TPOT is at least the
    // decode step at x̄ = I + O/2 and at most the engine's mean step (which carries every prompt),
    // E2E ≥ TTFT + (O − 1) · decode step, and at batch 1 TPOT is the decode step, exactly — whole
    // prompts or chunked.
    rng g{0x5eed'0016};
    draw_counts n;
    property bounds{"decode step <= TPOT <= engine step; E2E >= TTFT + (O - 1) decode step"};
    property single{"batch 1: TPOT is the decode step"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        const pass_model pm = prepare_pass(c->d);
        const double batch = log_int(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        const scheduler_limits limits{.prefill_chunk = chance(g, 0.5) ? tokens(static_cast<double>(int_in(g, 1, 4096)))
                                                                      : tokens(0.0)};
        const double pp = c->d.layout.pp, out = c->r.output.value();
        const tokens_t x = mean_decode_context(c->r);
        const serving_point s = serve_at_batch(pm, c->r, batch, limits);
        const double decode = decode_pass(pm, batch / pp, x).time().value();
        bounds.expect(at_most(decode, s.tpot.value()) && at_most(s.tpot.value(), s.step_time.value()) &&
                          at_most(s.ttft.value() + (out - 1.0) * decode, s.e2e.value()),
                      *c, [&] {
                          return "batch " + num(batch) + ": decode step " + num(decode) + ", tpot " +
                                 num(s.tpot.value()) + ", engine step " + num(s.step_time.value()) + ", ttft " +
                                 num(s.ttft.value()) + ", e2e " + num(s.e2e.value());
                      });
        const serving_point one = serve_at_batch(pm, c->r, 1.0, limits);
        const seconds_t alone = decode_pass(pm, 1.0 / pp, x).time();
        single.expect(one.tpot == alone, *c, [&] {
            return "tpot " + num(one.tpot.value()) + ", decode step " + num(alone.value());
        });
    }
    require_mostly_valid(n, 0.7, 0.6);
    bounds.done(1800);
    single.done(1800);
}

TEST_CASE("properties: splitting independent replicas keeps the per-GPU throughput") {
    // Dense models (and MoE without EP) run dp independent replicas: a deployment of dp = 2k is two
    // deployments of dp = k side by side, so every per-GPU figure is the same and the rate doubles.
    rng g{0x5eed'0008};
    draw_counts n;
    property split{"dp = 2k vs two halves of dp = k: per-GPU rate equal, total rate 2x"};
    int dense = 0;
    for (int i = 0; i < draws_per_test; ++i) {
        std::optional<draw> c = next_draw(g, n);
        if (!c || c->d.expert_parallel()) continue;
        const std::optional<double> most = room(*c, n);
        if (!most) continue;
        dense += !c->d.m.is_moe();
        deployment whole = c->d, half = c->d;
        const int k = pick(g, {1, 2, 4});
        whole.layout.dp = 2 * k;
        half.layout.dp = k;
        const double batch = int_in(g, 1, static_cast<int>(*most < 4096 ? *most : 4096));
        for (double b : {batch, 0.0}) {
            const serving_point w = b > 0 ? serve_at_batch(whole, c->r, b) : saturated(whole, c->r);
            const serving_point h = b > 0 ? serve_at_batch(half, c->r, b) : saturated(half, c->r);
            const request_estimate ew = estimate(whole, c->r, {.batch = b}), eh = estimate(half, c->r, {.batch = b});
            split.expect(approx_equal(w.output_rate_per_gpu, h.output_rate_per_gpu, 1e-12) &&
                             approx_equal(w.output_rate, h.output_rate * 2.0, 1e-12) && w.step_time == h.step_time &&
                             w.batch == h.batch &&
                             approx_equal(ew.gpu_energy_per_output_token, eh.gpu_energy_per_output_token, 1e-12),
                         *c, [&] {
                             return "dp " + std::to_string(2 * k) + ": " + num(w.output_rate_per_gpu.value()) +
                                    " tok/s/GPU; dp " + std::to_string(k) + ": " + num(h.output_rate_per_gpu.value());
                         });
        }
    }
    require_mostly_valid(n, 0.7, 0.6);
    CHECK(dense >= 400);
    split.done(3000);
}

TEST_CASE("properties: longer context never shortens a decode step, more prompt never a prefill") {
    rng g{0x5eed'0009};
    draw_counts n;
    property context{"longer context: decode step no shorter"};
    property prompt{"more prompt: prefill no shorter"};
    property prefix{"longer cached prefix: prefill of the same new tokens no shorter"};
    for (int i = 0; i < draws_per_test; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const pass_model pm = prepare_pass(c->d);
        const double batch = log_int(g, 1, 512);
        const double c1 = log_int(g, 1, 131072);
        const double c2 = chance(g, 0.5) ? c1 + 1 : c1 + log_int(g, 1, 131072);
        const pass_cost d1 = decode_pass(pm, batch, tokens(c1)), d2 = decode_pass(pm, batch, tokens(c2));
        context.expect(d2.time() >= d1.time(), *c, [&] {
            return "batch " + num(batch) + ", context " + num(c1) + ": " + show(d1) + "\ncontext " + num(c2) + ": " +
                   show(d2);
        });
        const double sequences = log_int(g, 1, 8);
        const double n1 = log_int(g, 1, 16384);
        const double n2 = chance(g, 0.5) ? n1 + 1 : n1 + log_int(g, 1, 16384);
        const double p = chance(g, 0.3) ? log_int(g, 1, 32768) : 0.0;
        const pass_cost p1 = prefill_pass(pm, sequences, tokens(n1), tokens(p));
        const pass_cost p2 = prefill_pass(pm, sequences, tokens(n2), tokens(p));
        prompt.expect(p2.time() >= p1.time(), *c, [&] {
            return num(sequences) + " x " + num(n1) + " after " + num(p) + ": " + show(p1) + "\n" + num(n2) + ": " +
                   show(p2);
        });
        const double q = p + log_int(g, 1, 32768);
        const pass_cost p3 = prefill_pass(pm, sequences, tokens(n1), tokens(q));
        prefix.expect(p3.time() >= p1.time(), *c, [&] {
            return num(sequences) + " x " + num(n1) + " after " + num(p) + ": " + show(p1) + "\nafter " + num(q) +
                   ": " + show(p3);
        });
    }
    require_mostly_valid(n, 0.7);
    context.done(1800);
    prompt.done(1800);
    prefix.done(1800);
}

TEST_CASE("properties: decode_steps in closed form equals the step-by-step sum") {
    // Steps at contexts x0 … x0 + steps − 1; windowed models often cross their window mid-run.
    rng g{0x5eed'000a};
    draw_counts n;
    property total{"decode_steps total = sum of decode_pass times (relative 1e-9)"};
    property ends{"decode_steps first and last step = decode_pass at x0 and x1"};
    int crossing = 0;  // runs that cross a sliding window: the closed form splits there
    for (int i = 0; i < 800; ++i) {
        const std::optional<draw> c = next_draw(g, n);
        if (!c) continue;
        const pass_model pm = prepare_pass(c->d);
        const double batch = log_int(g, 1, 512);
        const int steps = int_in(g, 0, 48);
        const attention_spec& a = c->d.m.attention;
        // Start near the window half of the time, so that the run crosses it.
        const double x0 = a.sliding_window_layers > 0 && chance(g, 0.5)
                              ? std::fmax(1.0, a.sliding_window - int_in(g, 0, steps))
                              : log_int(g, 1, 131072);
        const decode_sum s = decode_steps(pm, batch, tokens(x0), steps);
        crossing += a.sliding_window_layers > 0 && x0 < a.sliding_window && x0 + steps - 1 >= a.sliding_window;
        double sum = 0;
        for (int k = 0; k < steps; ++k) sum += decode_pass(pm, batch, tokens(x0 + k)).time().value();
        const bool equal = steps == 0 ? s.total.value() == 0.0 : std::fabs(s.total.value() - sum) <= 1e-9 * sum;
        total.expect(equal, *c, [&] {
            return "batch " + num(batch) + ", x0 " + num(x0) + ", " + std::to_string(steps) + " steps: closed form " +
                   num(s.total.value()) + ", sum " + num(sum);
        });
        if (steps > 0)
            ends.expect(s.first_step == decode_pass(pm, batch, tokens(x0)).time() &&
                            s.last_step == decode_pass(pm, batch, tokens(x0 + steps - 1)).time(),
                        *c, [&] { return "batch " + num(batch) + ", x0 " + num(x0); });
    }
    require_mostly_valid(n, 0.7);
    total.done(500);
    ends.done(480);
    CHECK(crossing >= 20);
}
