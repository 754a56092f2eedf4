#!/usr/bin/env python3
"""Session 29 (docs/trtllm-mnnvl-all-reduce.md): the nine points TensorRT-LLM on Blackwell's cross-host
all-reduce (cross_host_all_reduce_us 9.8, cross_host_all_reduce_bus_GBps 144; tables/scripts/
trtllm_mnnvl_all_reduce.py) was fitted to, as calibration rows B99-<tokens>tok of tables/microbenchmarks.csv.
Source: lightseekorg/tokenspeed PR 860 (https://github.com/lightseekorg/tokenspeed/pull/860, PR description,
"AR performance vs NCCL" table, its "fused" column): the fused MNNVL all-reduce + residual + RMSNorm on GB200,
world 8 across 2 nodes (trays), hidden 7168, BF16, median of 5 x 50 iterations; one-shot over NVLS multicast
up to 128 tokens, two-shot (two-stage Lamport) from 129 to 2048.
Each row: size 8 x S, S = tokens x 7168 x 2 B; value the bus bandwidth 2(n-1)/n x S / t (GB/s, 4 significant
figures), fitted yes (all nine set a and B_bus: least squares on log time).
Sets the rows by id, idempotently (appends the ones absent; re-running changes nothing); run from the
repository root."""

from csv_rows import load, save, upsert_rows

TABLE = "tables/microbenchmarks.csv"
HIDDEN, RANKS = 7168, 8
# tokens -> measured microseconds (PR 860's "fused" column)
POINTS = [(1, 10.9), (8, 10.9), (64, 19.1), (128, 29.4), (129, 31.2), (256, 55.8), (512, 103.2), (1024, 196.5),
          (2048, 380.2)]
SOURCE = "https://github.com/lightseekorg/tokenspeed/pull/860 (PR description, AR performance vs NCCL table, fused column)"


def row(tokens, us):
    s = tokens * HIDDEN * 2
    bus = 2.0 * (RANKS - 1) / RANKS * s / (us * 1e-6) / 1e9
    kind = "one-shot over NVLS multicast" if tokens <= 128 else "two-shot (two-stage Lamport)"
    notes = (f"tokenspeed's fused MNNVL all-reduce + residual + RMSNorm ({kind}) on 8 GB200 over 2 trays (world 8 "
             f"across 2 nodes), hidden 7168 BF16, {tokens} tokens = {s} B in {us} us (median of 5 x 50 iterations); "
             f"bus bandwidth 2(n-1)/n x S / t; with the other B99 rows sets TensorRT-LLM on Blackwell's cross-host "
             f"all-reduce (a 9.8 us, B_bus 144 GB/s; another engine's kernel on the same fabric, "
             f"docs/trtllm-mnnvl-all-reduce.md). Priced by the serving rule (tp_spans_hosts, cross_host_all_reduce_takes): "
             f"above 1984 KiB (142 tokens and more) TensorRT-LLM's MNNVLAllReduce falls back to the AUTO all-reduce, "
             f"priced by the library fit, so those rows compare that fallback with this kernel")
    return [f"B99-{tokens}tok", "all_reduce", "GB200 (NVL72)", "", f"{RANKS}x{s}", f"{bus:.4g}", "GB/s", "yes", SOURCE, notes]


def main():
    rows = load(TABLE)
    upsert_rows(rows, [row(tokens, us) for tokens, us in POINTS])
    save(TABLE, rows)
    print(f"{TABLE}: " + ", ".join(f"{row(t, u)[0]} {row(t, u)[5]} GB/s" for t, u in POINTS))


if __name__ == "__main__":
    main()
