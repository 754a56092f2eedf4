#!/usr/bin/env python3
"""Session 33 (docs/trtllm-fcfs-chunked-prompts.md): a sketch, not a table edit (it writes nothing). The prompt-queue
wait at one replica under three ways of spreading a Poisson stream over dp replicas: a random split, round robin,
and NVIDIA's MLPerf harness's load_balancing (each query to the core with the fewest samples in flight, ties to the
first: closed/NVIDIA/code/llmlib/factory.py _create_scheduler). Each replica's prompt stage is an FCFS server of
deterministic service S; a query stays in flight at its replica until S + W after its start (W: its answer).
The figures at the Llama-3.1-405B rows' loads are quoted in the doc."""
import random, heapq
def run(rule, dp, lam, S, W, n=200000, seed=1):
    rng = random.Random(seed)
    t = 0.0
    free_at = [0.0]*dp            # when each replica's prompt stage is next free
    pending = [[] for _ in range(dp)]  # heaps of departure times
    rr = -1
    waits = []
    for i in range(n):
        t += rng.expovariate(dp*lam)
        if rule == 'random': k = rng.randrange(dp)
        elif rule == 'rr': rr = (rr+1) % dp; k = rr
        else:
            for q in pending:
                while q and q[0] <= t: heapq.heappop(q)
            k = min(range(dp), key=lambda j: len(pending[j]))
        start = max(t, free_at[k]); waits.append(start - t); free_at[k] = start + S
        heapq.heappush(pending[k], start + S + W)   # in flight until its answer ends
    w = waits[n//4: 3*n//4]
    return sum(w)/len(w)
for dp, lam, S, W in [(2, 0.9494, 0.8, 65.0), (2, 0.5746, 0.6, 40.0), (36, 0.543, 1.0, 45.0)]:
    print(dp, lam, S, W, {r: round(run(r, dp, lam, S, W, n=100000 if dp==2 else 200000), 3) for r in ('random','rr','jsq')})
