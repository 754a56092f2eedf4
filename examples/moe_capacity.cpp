// Mixture of experts against the batch (ledger S20, S21, S22, S37): how many experts a pass of T
// tokens touches, how many expert bytes each GPU then reads, how many tokens one expert may take,
// and what the expert all-to-all moves and costs — inside one 8-GPU NVLink node, and across two.
#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <array>
#include <cstdio>

namespace {
using namespace llmcost;
using namespace llmcost::literals;

constexpr std::array batch{8.0, 64.0, 256.0, 1024.0, 4096.0};  // 1 to 512 tokens per rank of 8

void report(const model& m, const hardware& hw, int gpus, double capacity_factor) {
    // DeepSeek's and TensorRT-LLM's "attention DP + EP" layout: every GPU an attention rank, the
    // routed experts spread over all of them.
    const deployment d{.m = m, .hw = hw, .layout = {.tp = 1, .ep = gpus, .dp = gpus}};
    d.validate();
    const int e = m.ffn.routed_experts, k = m.ffn.top_k;
    std::printf("%s on %d x %s (dp %d, ep %d): %d routed experts, top-%d, %d MoE layers\n", m.name.data(), gpus,
                hw.name.data(), gpus, gpus, e, k, m.moe_layers());
    std::printf("  resident per GPU: %s of experts + %s of the rest (S20: all experts stay)\n",
                to_text(expert_weight_bytes_per_gpu(d)).c_str(), to_text(dense_weight_bytes_per_gpu(d)).c_str());
    std::printf("  %8s %10s %12s %11s %12s %13s %11s %9s\n", "T tokens", "experts", "expert B", "capacity",
                "a2a/layer", "a2a per pass", "pass", "a2a share");
    for (double t : batch) {
        const double per_rank = t / gpus;  // tokens each attention rank routes
        const pass_cost pass = decode_pass(d, per_rank, 4096_tok);
        std::printf("  %8g %10.1f %12s %11.1f %12s %13s %11s %8.0f%%\n", t, expected_distinct_experts(e, k, t),
                    to_text(expert_bytes_read_per_gpu(d, t), {.digits = 3}).c_str(),
                    expert_capacity(t, k, e, capacity_factor),
                    to_text(all_to_all_bytes_per_layer(d, per_rank), {.digits = 3}).c_str(),
                    to_text(all_to_all_time_per_pass(d, per_rank), {.digits = 3}).c_str(),
                    to_text(pass.time(), {.digits = 3}).c_str(), 100.0 * ratio(pass.ep_time, pass.time()));
    }
    std::printf("  S22: a token computes with %d of %d experts, yet the pass reads %.0f%% of the resident expert\n"
                "  bytes at T = %g and %.0f%% at T = %g: bandwidth saved at batch 1 is gone at serving batches.\n",
                k, e, 100.0 * ratio(expert_bytes_read_per_gpu(d, batch[0]), expert_weight_bytes_per_gpu(d)), batch[0],
                100.0 * ratio(expert_bytes_read_per_gpu(d, batch[2]), expert_weight_bytes_per_gpu(d)), batch[2]);
    // The same experts over two nodes: the EP group leaves the NVLink domain and the share of each
    // all-to-all that leaves the node (`all_to_all_off_node_share`: 8/16 on nodes of 8) rides the NIC (S21,
    // S36), the rest NVLink at the same time (`all_to_all_time_per_pass`). Per-rank traffic is the same; the
    // link is not.
    const deployment wide{.m = m, .hw = hw, .layout = {.tp = 1, .ep = 2 * gpus, .dp = 2 * gpus}};
    const double per_rank = batch[3] / gpus;  // the same tokens per rank, twice the ranks
    const pass_cost near = decode_pass(d, per_rank, 4096_tok), far = decode_pass(wide, per_rank, 4096_tok);
    std::printf("  at %g tokens per rank the all-to-all takes %s a pass on %s (%d GPUs, %.0f%% of the pass)\n"
                "  and %s with %.0f%% of its bytes on %s (%d GPUs, %.0f%% of the pass): %.1fx\n\n",
                per_rank, to_text(near.ep_time, {.digits = 3}).c_str(), hw.scale_up.name.data(), gpus,
                100.0 * ratio(near.ep_time, near.time()), to_text(far.ep_time, {.digits = 3}).c_str(),
                100.0 * all_to_all_off_node_share(wide.layout.tp * wide.layout.dp, hw.scale_up_domain), hw.scale_out.name.data(),
                2 * gpus, 100.0 * ratio(far.ep_time, far.time()), ratio(far.ep_time, near.ep_time));
}
}  // namespace

int main() {
    constexpr double capacity_factor = 1.25;  // GShard/Switch-style slack over the mean load
    std::printf("MoE per decode pass against T, the tokens routed through the EP group (context 4096).\n"
                "experts = E(1 - (1 - k/E)^T) distinct experts touched; expert B = routed-expert bytes one GPU\n"
                "reads; capacity = %g T k / E tokens per expert; a2a = dispatch bytes one GPU sends per layer;\n"
                "per pass = dispatch + combine over every MoE layer (S21), the combine in the residual format\n"
                "(BF16: twice the dispatch's bytes where the activations are FP8).\n\n", capacity_factor);
    report(catalog::deepseek_v3, catalog::h200_sxm, 8, capacity_factor);
    report(catalog::qwen3_235b_a22b, catalog::h200_sxm, 8, capacity_factor);
    std::printf("Capacity does not fall (S20) and bytes read climb to all of it; the all-to-all grows with\n"
                "every token. Inside one NVLink node it stays a small share of the pass; once the EP group\n"
                "spans nodes the share that leaves the node rides the NIC and becomes a real cost (S21, S22,\n"
                "S37).\n");
    return 0;
}
