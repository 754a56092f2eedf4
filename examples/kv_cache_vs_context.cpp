// How big is the KV cache, and where does it live? (ledger S16, S17, S19, S23)
// Every catalog model: KV bytes per token, one sequence at 4K/32K/128K and at the model's longest
// context; then on H200, at the smallest tensor parallelism that leaves half of HBM for KV, how
// many 128K sequences HBM keeps and where 64 users' caches land: HBM, host DRAM, NVMe (S17).
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <array>
#include <cstdio>
#include <string>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

const text::options bin{.digits = 3, .bytes = text::byte_prefix::binary};

std::string attention_label(const model& m) {
    if (m.attention.kind == attention_kind::latent) return "MLA";
    const int q = m.attention.query_heads, kv = m.attention.kv_heads;
    if (kv == q) return "MHA";
    const model::layer_counts c = m.count_layers();
    return "GQA " + std::to_string(q) + ":" + std::to_string(kv) + (c.window > 0 ? "+SWA" : "") +
           (c.chunked > 0 ? "+chunk" : "") + (c.state > 0 ? "+SSM" : "");
}

// The smallest power-of-two TP in one node whose weight shard leaves half the HBM for KV; failing
// that, the smallest whose weights fit at all; 0: the model does not fit one node.
int natural_tp(const model& m, const hardware& hw) {
    for (int tp = 1; tp <= hw.gpus_per_node; tp *= 2)
        if (weight_bytes_per_gpu({.m = m, .hw = hw, .layout = {.tp = tp}}) <= hw.gpu.hbm_capacity / 2.0) return tp;
    for (int tp = 1; tp <= hw.gpus_per_node; tp *= 2)
        if (weights_fit({.m = m, .hw = hw, .layout = {.tp = tp}})) return tp;
    return 0;
}

std::string kv_at(const model& m, tokens_t context) {
    if (context.value() > m.max_position) return "> max";
    return to_text(kv_bytes_for_context(m, context), bin);
}
}  // namespace

int main() {
    const hardware& hw = catalog::h200_sxm;
    constexpr std::array contexts{4096_tok, 32768_tok, 131072_tok};
    constexpr double users = 64;

    std::printf("KV cache per sequence (model's own KV format; binary prefixes, S16)\n");
    std::printf("%-20s %-12s %14s %10s %10s %10s %10s  %s\n", "model", "attention", "per token",
                "4K", "32K", "128K", "at max", "max context");
    for (const model& m : catalog::all_models) {
        std::printf("%-20s %-12s %14s", m.name.data(), attention_label(m).c_str(),
                    to_text(kv_bytes_per_token(m), bin).c_str());
        for (tokens_t c : contexts) std::printf(" %10s", kv_at(m, c).c_str());
        std::printf(" %10s  %d\n", to_text(kv_bytes_for_context(m, tokens(m.max_position)), bin).c_str(),
                    m.max_position);
    }
    for (const model& m : catalog::all_models) {
        // Past its window (or chunk) a layer stops growing, and a state-space layer never grows.
        const model::layer_counts c = m.count_layers();
        const bytes_per_token_t growth = kv_bytes_per_token_per_layer(m) * static_cast<double>(c.full);
        if (c.window > 0)
            std::printf("(%s: %d of %d layers keep only the last %d tokens, so past them the cache grows\n"
                        " at %s, not the per-token figure of all layers.)\n", m.name.data(), c.window, m.layers,
                        m.attention.sliding_window, to_text(growth, bin).c_str());
        if (c.chunked > 0)
            std::printf("(%s: %d of %d layers attend within chunks of %d tokens, so past one chunk the cache\n"
                        " grows at %s, not the per-token figure of all layers.)\n", m.name.data(), c.chunked,
                        m.layers, m.pattern.chunk, to_text(growth, bin).c_str());
        if (c.state > 0)
            std::printf("(%s: %d of %d layers are state-space layers: %s per sequence, whatever the context.)\n",
                        m.name.data(), c.state, m.layers, to_text(state_bytes_per_sequence(m), bin).c_str());
    }

    std::printf("\nOn %s (%s HBM, host %s at %s, NVMe %s at %s per GPU), %g users each at\n"
                "min(128K, max context); TP = smallest leaving half of HBM for KV:\n",
                hw.name.data(), to_text(hw.gpu.hbm_capacity, bin).c_str(),
                to_text(hw.host_memory.capacity).c_str(), to_text(hw.host_memory.bandwidth).c_str(),
                to_text(hw.storage.capacity).c_str(), to_text(hw.storage.bandwidth).c_str(), users);
    std::printf("%-20s %3s %14s %10s %8s | %10s %10s %10s %10s %8s\n", "model", "TP", "KV/GPU",
                "KV budget", "fit HBM", "need/GPU", "HBM", "host DRAM", "NVMe", "restore");
    for (const model& m : catalog::all_models) {
        const int tp = natural_tp(m, hw);
        if (tp == 0) {
            std::printf("%-20s does not fit one node of %d GPUs at TP <= %d\n", m.name.data(), hw.gpus_per_node,
                        hw.gpus_per_node);
            continue;
        }
        const deployment d{.m = m, .hw = hw, .layout = {.tp = tp}};
        const tokens_t context = tokens(m.max_position < 131072 ? m.max_position : 131072);
        const bytes_t need = kv_bytes_per_gpu_for_context(d, context) * users;
        const spill_placement p = place_kv(d, need);
        std::printf("%-20s %3d %14s %10s %8g | %10s %10s %10s %10s %8s%s\n", m.name.data(), tp,
                    to_text(kv_bytes_per_token_per_gpu(d), bin).c_str(), to_text(kv_budget_per_gpu(d), bin).c_str(),
                    max_sequences(d, context), to_text(need, bin).c_str(), to_text(p.in_hbm, bin).c_str(),
                    to_text(p.in_host, bin).c_str(), to_text(p.in_storage, bin).c_str(),
                    to_text(p.restore_time, {.digits = 3}).c_str(),
                    p.overflow.value() > 0 ? (" +" + to_text(p.overflow, bin) + " overflow").c_str() : "");
    }

    // MLA against GQA (S23 against S16): the latent is 4.7x smaller per token, but every TP rank
    // keeps the whole latent, while GQA splits its KV heads over the ranks.
    const model& gqa = catalog::llama_3_1_70b;
    const model& mla = catalog::deepseek_v3;
    const deployment gqa8{.m = gqa, .hw = hw, .layout = {.tp = 8}};
    const deployment mla8{.m = mla, .hw = hw, .layout = {.tp = 8}};
    std::printf("\nMLA vs GQA: %s caches %s (S23), %s %s (S16): %.2fx less.\n", mla.name.data(),
                to_text(kv_bytes_per_token(mla), bin).c_str(), gqa.name.data(),
                to_text(kv_bytes_per_token(gqa), bin).c_str(),
                ratio(kv_bytes_per_token(gqa), kv_bytes_per_token(mla)));
    std::printf("Per GPU at TP 8 it turns around: %s holds %s, %s only %s,\n"
                "because MLA's latent is not split by TP (hence attention data-parallel for MLA models).\n",
                mla.name.data(), to_text(kv_bytes_per_token_per_gpu(mla8), bin).c_str(), gqa.name.data(),
                to_text(kv_bytes_per_token_per_gpu(gqa8), bin).c_str());
    return 0;
}
