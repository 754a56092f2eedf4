#!/usr/bin/env python3
"""Session 29 (docs/trtllm-mnnvl-all-reduce.md): the TP all-reduce where a TP group spans hosts of one
NVLink domain. A GB200/GB300 NVL72 compute tray holds 4 GPUs (tables/hardware.csv gpus_per_node 4), and
TensorRT-LLM's PyTorch backend takes a tray for a node (llmapi/llm_args.py validate_gpus_per_node: the
local device count), so a TP8 group is multi-node (mapping.py is_multi_node: world_size > gpus_per_node)
and runs MNNVLAllReduce (tensorrt_llm/_torch/distributed/ops.py MNNVLAllReduce.is_mnnvl: multi-node,
aarch64, MNNVL support), not the single-node IPC one-shot kernel; the Dynamo decode workers at TP8
without attention DP ask for it outright (ai-dynamo/dynamo
components/backends/trtllm/performance_sweeps/scripts/gen_yaml.py @357f7dfc469b487f26c8e01ee21ee8036469f977:
`if gen_tp_size == 8 and not gen_enable_attention_dp: decode_config["allreduce_strategy"] = "MNNVL"`).
Sets, by column name, idempotently (re-running changes nothing; run from the repository root):
  tables/engines.csv: columns `cross_host_all_reduce_us`, `cross_host_all_reduce_bus_GBps`,
      `cross_host_norm_kernels` and `cross_host_all_reduce_max_KiB` (added before `source` if absent, 0 on
      every row); "TensorRT-LLM on Blackwell": 9.8, 144, 2 and 1984, the source text appended once (a note
      each for the kernels and the bound). Then run
      python3 tables/scripts/engines_catalog_sync.py.
The kernels: TensorRT-LLM 1.1's MNNVLAllReduce.forward runs RESIDUAL_RMS_NORM as two ops,
torch.ops.trtllm.mnnvl_twoshot_allreduce and then torch.ops.trtllm.mnnvl_twoshot_rmsnorm (the stored
tensorrt_llm/_torch/distributed/ops.py with SUPPORTED_FUSION_HIDDEN_DIMS; the later one-kernel
mnnvl_fusion_allreduce came after the Dynamo 0.5.1 image's tensorrt-llm 1.1.0rc5), where the single-node
all-reduce applies them in its own kernel (all_reduce_norm_fusion 1): one more kernel after each of a
DeepSeek layer's two all-reduces (modeling_deepseekv3.py forward_MoE: RESIDUAL_RMS_NORM before and after the
MoE; do_finalize is forced where mapping.is_multi_node()), 2 a layer.
The figures: t = a + 2(n-1)/n x S / B_bus fitted (least squares on log time, grid 0.1 us x 1 GB/s) to the one
published measurement of an MNNVL all-reduce over two GB200 trays found (lightseekorg/tokenspeed PR 860, GB200
world 8 across 2 nodes, hidden 7168, BF16, NCCL 2.30.7 beside it, median of 5 x 50 iterations, fused MNNVL
all-reduce + residual + RMSNorm: 1 token 10.9 us, 8: 10.9, 64: 19.1, 128: 29.4, 129: 31.2, 256: 55.8,
512: 103.2, 1024: 196.5, 2048: 380.2; tables/microbenchmarks.csv B99): a = 9.8 us, B_bus = 144 GB/s (every
point within 10%: 1 token -8.5%, 64 +9.7%, 128 +9.2%). It is another engine's MNNVL kernel (one-shot over NVLS
multicast up to 128 tokens) on the same fabric, not TensorRT-LLM 1.1.0rc5's two-shot Lamport kernel (no
published figure of that one on GB200 was found), and not a bound either way; the measured kernel includes
the residual + RMSNorm that cross_host_norm_kernels also charges as 2 kernels a layer.
"""
import sys

from csv_rows import insert_columns, load, row_named, save

ENGINES = "tables/engines.csv"
PROFILE = "TensorRT-LLM on Blackwell"
COLUMNS = ("cross_host_all_reduce_us", "cross_host_all_reduce_bus_GBps", "cross_host_norm_kernels",
           "cross_host_all_reduce_max_KiB")
VALUES = {"cross_host_all_reduce_us": "9.8", "cross_host_all_reduce_bus_GBps": "144", "cross_host_norm_kernels": "2",
          "cross_host_all_reduce_max_KiB": "1984"}
NOTE = (
    "; cross_host_all_reduce_us 9.8, cross_host_all_reduce_bus_GBps 144 (session 29, "
    "docs/trtllm-mnnvl-all-reduce.md): where a TP group spans GB200/GB300 NVL72 trays (TP > gpus_per_node 4) "
    "TensorRT-LLM runs MNNVLAllReduce, not its single-node IPC one-shot kernel (NVIDIA/TensorRT-LLM "
    "tensorrt_llm/_torch/distributed/ops.py MNNVLAllReduce.is_mnnvl: mapping.is_multi_node(), aarch64, MNNVL "
    "support; mapping.py is_multi_node: world_size > gpus_per_node; llmapi/llm_args.py validate_gpus_per_node: "
    "torch.cuda.device_count(); Dynamo's TP8 decode workers set allreduce_strategy MNNVL, ai-dynamo/dynamo "
    "components/backends/trtllm/performance_sweeps/scripts/gen_yaml.py @357f7dfc469b487f26c8e01ee21ee8036469f977); "
    "t = a + 2(n-1)/n x S / B_bus fitted to lightseekorg/tokenspeed PR 860's MNNVL all-reduce + RMSNorm on 8 "
    "GB200 over 2 trays (hidden 7168 BF16: 10.9 us at 1 token, 19.1 at 64, 29.4 at 128, 380.2 at 2048), "
    "another engine's one-shot NVLS kernel on the same fabric (no figure of TensorRT-LLM 1.1.0rc5's two-shot "
    "kernel on GB200 published)")

KERNEL_NOTE = (
    "; cross_host_norm_kernels 2 (session 29, docs/trtllm-mnnvl-all-reduce.md): TensorRT-LLM 1.1's MNNVLAllReduce "
    "runs RESIDUAL_RMS_NORM as mnnvl_twoshot_allreduce then mnnvl_twoshot_rmsnorm (tensorrt_llm/_torch/distributed/"
    "ops.py, the version with SUPPORTED_FUSION_HIDDEN_DIMS), one kernel more after each of a layer's two all-reduces "
    "than the single-node fused all-reduce + residual + RMSNorm (all_reduce_norm_fusion)")

BOUND_NOTE = (
    "; cross_host_all_reduce_max_KiB 1984 (session 29, docs/trtllm-mnnvl-all-reduce.md): MNNVLAllReduce.forward "
    "returns None (the AUTO all-reduce, priced by the library_all_reduce fit) past max_num_tokens = "
    "max_num_elements // hidden; its workspace ceil(12e6 / (16384 x 12)) x (16384 x 12) = 12,189,696 B holds "
    "[3, 2, max_num_elements] BF16: 1,015,808 elements = 2,031,616 B = 1984 KiB (141 tokens at hidden 7168) "
    "(tensorrt_llm/_torch/distributed/ops.py get_allreduce_mnnvl_workspace, the version with "
    "SUPPORTED_FUSION_HIDDEN_DIMS)")


def main():
    rows = load(ENGINES)
    head = rows[0]
    insert_columns(rows, COLUMNS)
    row = row_named(rows, PROFILE, ENGINES)
    for column, value in VALUES.items():
        row[head.index(column)] = value
    src = head.index("source")
    for note in (NOTE, KERNEL_NOTE, BOUND_NOTE):
        if note not in row[src]:
            row[src] += note
    save(ENGINES, rows)
    print(f"{ENGINES}: {PROFILE}: " + ", ".join(f"{c} {v}" for c, v in VALUES.items()))


if __name__ == "__main__":
    main()
