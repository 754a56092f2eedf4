#!/usr/bin/env python3
"""Session 33 (docs/trtllm-fcfs-chunked-prompts.md): the engine limits NVIDIA's MLPerf v5.1 harness configs state
for TensorRT-LLM on the Blackwell Llama online rows (Server and Interactive), recorded on those rows.

Each config (mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932,
closed/<submitter>/configs/<system>/{Server,Interactive}/<model>.py) sets `gpu_batch_size` (the executor's max batch
size), the runtime `max_num_tokens` (`trtllm_runtime_flags`, the step's token budget), `enable_chunked_context` True
with `context_chunking_policy` first_come_first_served and `batch_scheduler_policy` max_util, in-flight batching.
TensorRT-LLM fills a step's budget with a token per running answer, then hands what is left to the oldest prompt's
next chunk, then the next one's (NVIDIA/TensorRT-LLM cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp
@0a949d3128bfaf4ddedefb0259125622a9ec830f, `setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>`).

Sets, by column name, idempotently (re-running changes nothing; run from the repository root), on tables/measurements.csv:
  max_batch = gpu_batch_size, max_tokens = the runtime max_num_tokens, and column `chunked_context` (appended to the
  header if absent, empty on every other row) = 1, on every online row of the three models whose configs state them:
    Llama-3.1-405B: B200 (NVIDIA, Google, Nebius: Server and Interactive; Broadcom/Supermicro: Server) and GB300
        (NVIDIA, Server); 256 / 2,048 (B200 Server), 256 / 1,536 (B200 Interactive), 2,048 / 1,536 (GB300 Server);
    Llama-2-70B: B200 (NVIDIA, Google, Nebius) and GB200 x4 (NVIDIA), 2,048 / 3,584 (Server), 768 / 768 (Interactive);
    Llama-3.1-8B: B200 (NVIDIA, Google), 6,000 / 12,000 (Server and Interactive).
  Column `replica_dispatch` (appended if absent, empty elsewhere) on the same rows: how the harness sends each query
  to one of the dp instances (closed/NVIDIA/code/llmlib/config.py `traffic_distribution_policy`, left unset by every
  config: Server -> `load_balancing`, the instance with the fewest pending samples, `least_pending`; Interactive, a
  scenario of its own in code/common/constants.py, -> `round_robin`; closed/NVIDIA/code/llmlib/factory.py
  `_create_scheduler`, server.py `issue_queries` picks a core per query).
  A cell already holding another figure is refused (named). A note citing the config is appended once to each row's
  `notes`.
"""

import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
MIRROR = "github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932"
RULE = ("NVIDIA/TensorRT-LLM cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp "
        "@0a949d3128bfaf4ddedefb0259125622a9ec830f setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>")

# id prefix -> (config path, gpu_batch_size, runtime max_num_tokens)
B200 = "B200-SXM-180GBx8"
ROWS = {
    "ML51-NV-B200-L31-405B-ser": (f"closed/NVIDIA/configs/{B200}/Server/llama3_1-405b.py", "256", "2048"),
    "ML51-NV-B200-L31-405B-int": (f"closed/NVIDIA/configs/{B200}/Interactive/llama3_1-405b.py", "256", "1536"),
    "ML51-Google-B200-L31-405B-ser": (f"closed/Google/configs/{B200}/Server/llama3_1-405b.py", "256", "2048"),
    "ML51-Google-B200-L31-405B-int": (f"closed/Google/configs/{B200}/Interactive/llama3_1-405b.py", "256", "1536"),
    "ML51-Nebius-B200-L31-405B-ser": (f"closed/Nebius/configs/{B200}/Server/llama3_1-405b.py", "256", "2048"),
    "ML51-Nebius-B200-L31-405B-int": (f"closed/Nebius/configs/{B200}/Interactive/llama3_1-405b.py", "256", "1536"),
    "ML51-BcmSmc-B200-L31-405B-ser": (
        f"closed/Broadcom_Supermicro/configs/vSYS-422GA-NBRT-{B200}/Server/llama3_1-405b.py", "256", "2048"),
    "ML51-NV-GB300x72-L31-405B-ser": (
        "closed/NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72_TRT/Server/llama3_1-405b.py", "2048", "1536"),
    "ML51-NV-B200-L2-70B-ser": (f"closed/NVIDIA/configs/{B200}/Server/llama2-70b.py", "2048", "3584"),
    "ML51-NV-B200-L2-70B-int": (f"closed/NVIDIA/configs/{B200}/Interactive/llama2-70b.py", "768", "768"),
    "ML51-Google-B200-L2-70B-ser": (f"closed/Google/configs/{B200}/Server/llama2-70b.py", "2048", "3584"),
    "ML51-Google-B200-L2-70B-int": (f"closed/Google/configs/{B200}/Interactive/llama2-70b.py", "768", "768"),
    "ML51-Nebius-B200-L2-70B-ser": (f"closed/Nebius/configs/{B200}/Server/llama2-70b.py", "2048", "3584"),
    "ML51-Nebius-B200-L2-70B-int": (f"closed/Nebius/configs/{B200}/Interactive/llama2-70b.py", "768", "768"),
    "ML51-NV-GB200x4-L2-70B-ser": (
        "closed/NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x4/Server/llama2-70b.py", "2048", "3584"),
    "ML51-NV-B200-L31-8B-ser": (f"closed/NVIDIA/configs/{B200}/Server/llama3_1-8b.py", "6000", "12000"),
    "ML51-NV-B200-L31-8B-int": (f"closed/NVIDIA/configs/{B200}/Interactive/llama3_1-8b.py", "6000", "12000"),
    "ML51-Google-B200-L31-8B-ser": (f"closed/Google/configs/{B200}/Server/llama3_1-8b.py", "6000", "12000"),
}


def note(path, batch, tokens):
    return (f" Engine limits (session 33, docs/trtllm-fcfs-chunked-prompts.md): {MIRROR} {path}: gpu_batch_size "
            f"{batch} (max_batch), trtllm_runtime_flags max_num_tokens {tokens} (max_tokens), enable_chunked_context "
            f"True, context_chunking_policy first_come_first_served, batch_scheduler_policy max_util (chunked_context 1:"
            f" a step's budget goes to a token per running answer, then to the oldest prompt's next chunk first, {RULE}).")


DISPATCH_NOTE = (
    f" Dispatch (session 33): {MIRROR} closed/NVIDIA/code/llmlib/config.py traffic_distribution_policy (unset in the "
    "configs): Server load_balancing (factory.py _create_scheduler: the core with the fewest pending samples), "
    "Interactive round_robin (replica_dispatch).")


def main():
    rows = load(MEAS)
    h = rows[0]
    for column in ("chunked_context", "replica_dispatch"):
        if column not in h:
            h.append(column)
            for r in rows[1:]:
                if r:
                    r.append("")
    c = {k: h.index(k) for k in ("id", "engine", "scenario", "max_batch", "max_tokens", "chunked_context",
                                 "replica_dispatch", "notes")}
    seen = {p: 0 for p in ROWS}
    changed = 0
    for r in rows[1:]:
        if not r:
            continue
        rid = r[c["id"]]
        prefix = rid.rsplit("-", 1)[0]
        if prefix not in ROWS:
            continue
        if r[c["engine"]] != "trtllm" or r[c["scenario"]] != "online":
            sys.exit(f"{MEAS}: {rid}: expected an online trtllm row; refused")
        path, batch, tokens = ROWS[prefix]
        before = list(r)
        dispatch = {"ser": "least_pending", "int": "round_robin"}[prefix.rsplit("-", 1)[1]]
        for field, value in (("max_batch", batch), ("max_tokens", tokens), ("chunked_context", "1"),
                             ("replica_dispatch", dispatch)):
            if r[c[field]] not in ("", value):
                sys.exit(f"{MEAS}: {rid}: {field} is {r[c[field]]!r}, neither empty nor {value!r}; refused")
            r[c[field]] = value
        text = note(path, batch, tokens)
        for text in (text, DISPATCH_NOTE):
            if text not in r[c["notes"]]:
                r[c["notes"]] += text
        seen[prefix] += 1
        changed += r != before
    missing = [p for p, n in seen.items() if n != 2]
    if missing:
        sys.exit(f"{MEAS}: expected a TTFT and a TPOT row for each of {missing}; refused")
    save(MEAS, rows)
    print(f"{MEAS}: engine limits, chunked_context and replica_dispatch on {sum(seen.values())} online rows ({changed} changed)")


if __name__ == "__main__":
    main()
