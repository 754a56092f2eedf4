"""pytest suite of the Python module: every function, the error mapping, agreement with the
`llmcost` tool's golden outputs to the last printed digit, NumPy dtypes and shapes.

Run by ctest (python.pytest) with PYTHONPATH=<build>/python; LLMCOST_SOURCE_DIR points at the
source tree (goldens, fixtures).
"""
import csv
import json
import math
import os
import pathlib

import numpy as np
import pytest

import llmcost

SOURCE = pathlib.Path(os.environ.get("LLMCOST_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
EXPECTED = SOURCE / "examples" / "cli" / "expected"
FIXTURES = SOURCE / "tests" / "fixtures"


def dense_ds_drafter():
    """A dense draft model with DeepSeek-V3's vocabulary (Llama-3.1-8B's config.json, vocab_size 129280; hypothetical):
    a draft of another vocabulary is refused (require_draft_vocab)."""
    return llmcost.Model.from_hf_config(FIXTURES / "cli" / "dense_drafter_deepseek_vocab" / "config.json")


def printed(v):
    """A figure as the tool's JSON and CSV print it: whole numbers in full, others to 10 significant digits."""
    if abs(v) < 2.0**53 and v == math.floor(v):
        return v
    return float(f"{v:.10g}")


def shown(v, digits=4):
    """A figure as the tool's table shows it: 4 significant digits (ratios, "3.09x": 3)."""
    return float(f"{v:.{digits}g}")


def assert_matches_golden(e, golden):
    d = e.to_dict()
    assert list(d) == [k for k in golden if k != "notes"], "the same fields, in the tool's order"
    for key, want in golden.items():
        if key == "notes":
            continue
        assert_same_figure(key, d[key], want)


def assert_same_figure(key, got, want):
    if isinstance(want, dict):  # a group, {"ttft_s": {"mean": …, "p90": …}}: the same members, in order
        assert isinstance(got, dict) and list(got) == list(want), key
        for k, w in want.items():
            assert_same_figure(f"{key}.{k}", got[k], w)
    elif isinstance(want, (bool, str, list)) or want is None:  # a list: words (excluded_modules)
        assert got == want, key
    else:
        assert printed(got) == want, f"{key}: {got!r} prints {printed(got)!r}, the tool printed {want!r}"


# ---- agreement with the tool's golden outputs ------------------------------------------------------

def test_estimate_matches_the_tools_json_saturated():
    # llmcost estimate --model Llama-3.1-8B --hardware "H100 SXM5" --weights fp8 --kv fp8
    #                  --input 128 --output 128 --saturate --max-batch 2048 --format json
    golden = json.loads((EXPECTED / "estimate.json").read_text())
    e = llmcost.estimate("Llama-3.1-8B", "H100 SXM5", weights="fp8", kv="fp8", input=128, output=128,
                         saturate=True, max_batch=2048)
    assert_matches_golden(e, golden)


def test_simulate_matches_the_tools_json():
    # llmcost simulate --model Llama-3.1-8B --hardware H100 --rate 20 --input-dist lognormal:500:600:8000
    #                  --output-dist uniform:50:300 --requests 2000 --seed 7 --slo-ttft 0.2 --slo-tpot 0.02 --format json
    golden = json.loads((EXPECTED / "simulate.json").read_text())
    r = llmcost.simulate("Llama-3.1-8B", "H100", rate=20, input_dist="lognormal:500:600:8000",
                         output_dist="uniform:50:300", requests=2000, seed=7, ttft=0.2, tpot=0.02)
    assert r.kind == "simulate"
    assert_matches_golden(r, golden)


def test_simulate_laws_and_refusals():
    # The same seed gives the same figures; every request is answered once.
    a = llmcost.simulate("Llama-3.1-8B", "H100", rate=5, requests=300, seed=3)
    b = llmcost.simulate("Llama-3.1-8B", "H100", rate=5, requests=300, seed=3)
    assert a.to_dict() == b.to_dict()
    assert a.requests == 300
    assert a.ttft_s["p50"] <= a.ttft_s["p90"] <= a.ttft_s["p99"]
    assert list(a.tpot_s) == ["mean", "p50", "p90", "p99"]
    closed = llmcost.simulate("Llama-3.1-8B", "H100", concurrency=4, requests=200)
    assert closed.requests == 200
    with pytest.raises(llmcost.InvalidInput, match="rate=R") as e:
        llmcost.simulate("Llama-3.1-8B", "H100")
    assert e.value.rule.startswith("simulate needs")
    with pytest.raises(llmcost.InvalidInput, match="poisson"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, arrivals="weibull")
    with pytest.raises(llmcost.InvalidInput, match="unknown_name"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, input_dist="weibull:3")
    with pytest.raises(llmcost.LoadError, match="no such file"):
        llmcost.simulate("Llama-3.1-8B", "H100", trace="no_such_trace.csv")


def test_simulate_engine_fills_the_limits_not_given():
    # engine="vllm" runs vLLM's scheduler defaults on Hopper (tables/engines.csv: 1024 sequences,
    # 8192 tokens a step, prompts chunked at 8192) and its admission on the KV in use (optimistic): the
    # same run as with them spelled out, and not the same as with the token cap lifted, since 6000-token
    # prompts meet it.
    args = dict(rate=3, input_dist="6000", output_dist="100", requests=400, engine="vllm", optimistic=True)
    implied = llmcost.simulate("Llama-3.1-8B", "H100", **{**args, "optimistic": False})
    spelled = llmcost.simulate("Llama-3.1-8B", "H100", max_batch=1024, max_tokens=8192, prefill_chunk=8192, **args)
    lifted = llmcost.simulate("Llama-3.1-8B", "H100", max_batch=1024, max_tokens=65536, prefill_chunk=65536, **args)
    assert implied.to_dict() == spelled.to_dict()
    assert implied.steps != lifted.steps
    with pytest.raises(llmcost.InvalidInput, match="trtllm, vllm, sglang"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, engine="tgi")


def test_simulate_dataset_features_and_refusals():
    # A dataset preset's lengths; swap preemption; a prefix hit rate; disaggregated pools.
    a = llmcost.simulate("Llama-3.1-8B", "H100", rate=4, dataset="azure-code", requests=300, seed=2)
    assert a.requests == 300
    assert a.ttft_s["p50"] <= a.ttft_s["p99"]
    hit = llmcost.simulate("Llama-3.1-8B", "H100", rate=4, dataset="azure-code", requests=300, seed=2,
                           prefix_hit_rate=0.5)
    assert 0.45 < hit.cached_prompt_share <= 0.5
    assert hit.ttft_s["mean"] < a.ttft_s["mean"]
    dis = llmcost.simulate("Llama-3.1-8B", "H100", rate=4, requests=300, dp=2, prefill_servers=1)
    assert dis.decode_servers == 1 and dis.kv_transfer_s > 0
    sw = llmcost.simulate("Llama-3.1-70B", "H100", tp=8, rate=100, input_dist="2000", output_dist="4000",
                          requests=300, optimistic=True, preemption="swap")
    assert sw.requests == 300 and sw.swap_s > 0
    with pytest.raises(llmcost.InvalidInput, match="sharegpt4"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, dataset="sharegpt")
    with pytest.raises(llmcost.InvalidInput, match="recompute"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, preemption="evict")
    # vLLM V1 only recomputes a preempted sequence (sim::swap_refusal): a swap on it is refused, named
    with pytest.raises(llmcost.InvalidInput, match="swap_engine"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, engine="vllm", preemption="swap")


def test_estimate_matches_the_tools_json_dep_layout():
    # llmcost estimate --model DeepSeek-V3 --hardware H200 --gpus 8 --dp 8 --ep 8 --input 1000 --output 1000 --saturate
    golden = json.loads((EXPECTED / "estimate_dep.json").read_text())
    e = llmcost.estimate("DeepSeek-V3", "H200", gpus=8, dp=8, ep=8, input=1000, output=1000, saturate=True)
    assert_matches_golden(e, golden)


def test_estimate_with_an_engine_matches_the_tools_json():
    # llmcost estimate --model DeepSeek-V3 --hardware MI355X --gpus 8 --dp 8 --ep 8 --input 1000 --output 1000
    #                  --saturate --engine sglang --format json
    golden = json.loads((EXPECTED / "estimate_sglang_dep.json").read_text())
    e = llmcost.estimate("DeepSeek-V3", "MI355X", gpus=8, dp=8, ep=8, input=1000, output=1000, saturate=True,
                         engine="sglang")
    assert_matches_golden(e, golden)


def test_engine_none_is_the_reference_and_an_engine_changes_the_price():
    base = dict(tp=8, input=2000, output=500, batch=32)
    ref = llmcost.estimate("Llama-3.1-70B", "H100", **base)
    assert llmcost.estimate("Llama-3.1-70B", "H100", engine=None, **base).to_dict() == ref.to_dict()
    vllm = llmcost.estimate("Llama-3.1-70B", "H100", engine="vllm", **base)
    sglang = llmcost.estimate("Llama-3.1-70B", "H100", engine="sglang", **base)
    # vLLM on Hopper adds a fitted launch cost per kernel (tables/engines.csv, 1.49 us): its step takes longer
    # than the reference engine's. SGLang's profile prices the step differently (its own launch cost, 1.47 us
    # since its fit counts SGLang's MLA kernels, docs/sglang-batch1-moe-decode.md, and its custom all-reduce),
    # so its price differs from both; the layout and the KV per token stay.
    assert ref.tpot_s < vllm.tpot_s
    assert sglang.tpot_s != ref.tpot_s and sglang.tpot_s < vllm.tpot_s
    assert vllm.kv_bytes_per_token == ref.kv_bytes_per_token and vllm.tp == 8



def test_a_sweep_axis_past_the_grid_bound_is_refused_before_it_is_read():
    # Before session 53 the binding read every value of an axis before the library's grid bound (10^7 points):
    # batch=range(1, 10**9) filled 21 GB and the kernel was killed. An axis stating a longer length is refused
    # unread, as the grid would be; this one fails the test if it is ever iterated.
    class Unread:
        def __len__(self):
            return 10**9

        def __iter__(self):
            raise AssertionError("the axis was read before its length was checked")

    for axis in ("batch", "input", "tp", "dp"):
        kwargs = {"input": 100, "output": 10, "batch": 1, axis: Unread()}
        with pytest.raises(llmcost.InvalidInput) as e:
            llmcost.sweep("Llama-3.1-8B", ["H100"], **kwargs)
        assert e.value.field == axis and e.value.id == "llmcost.plan.grid_size"
    # The layouts tp x pp x ep x dp are bounded as the grid is, before they are built: 4 axes of 100 values
    # each is 10^8 layouts (each axis alone is short).
    short = list(range(1, 101))
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.sweep("Llama-3.1-8B", ["H100"], input=100, output=10, batch=1, tp=short, pp=short, ep=short, dp=short)
    assert e.value.field == "tp x pp x ep x dp" and e.value.id == "llmcost.plan.grid_size"

def test_sweep_with_an_engine_equals_the_scalar_estimate():
    # 128-token prompts fit vLLM's 8192-token chunk and step budget, so the engine's scheduler defaults
    # that estimate fills in change nothing at these batches: the sweep point is estimate's, to the bit.
    s = llmcost.sweep("Llama-3.1-8B", "H100", tp=[1, 2], input=[128], output=[128], batch=[1, 16], engine="vllm")
    ref = llmcost.sweep("Llama-3.1-8B", "H100", tp=[1, 2], input=[128], output=[128], batch=[1, 16])
    c = s.coordinates()
    for i in range(len(s.tpot_s)):
        e = llmcost.estimate("Llama-3.1-8B", "H100", tp=int(c["tp"][i]), input=128, output=128,
                             batch=float(c["batch"][i]), engine="vllm")
        assert s.tpot_s[i] == e.tpot_s and s.ttft_s[i] == e.ttft_s
        assert s.tpot_s[i] > ref.tpot_s[i]


def test_engine_refusals_name_the_engines_and_the_alternatives():
    with pytest.raises(llmcost.InvalidInput, match="trtllm, vllm, sglang") as e:
        llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, engine="tgi")
    assert e.value.field == "engine"
    with pytest.raises(llmcost.InvalidInput, match="trtllm has no profile for cdna3 GPUs.*vllm, sglang") as e:
        llmcost.estimate("Llama-3.1-8B", "MI300X", input=128, output=128, batch=1, engine="trtllm")
    # the engine as its name, as the user wrote it, not an enum's number
    assert e.value.field == "engine" and e.value.value == "trtllm" and e.value.id == "llmcost.engine.not_on_gpu"
    assert "engine = trtllm: " in str(e.value)
    with pytest.raises(llmcost.InvalidInput, match="trtllm has no profile for cdna4 GPUs"):
        llmcost.sweep("Llama-3.1-8B", ["H100", "MI355X"], input=[128], output=[128], batch=[1], engine="trtllm")
    with pytest.raises(llmcost.InvalidInput, match="vllm has no profile for ampere GPUs; engines with a profile there: none"):
        llmcost.estimate("Llama-3.1-8B", "A100 SXM 80GB", input=128, output=128, batch=1, engine="vllm")


def test_estimate_gemm_table_prices_the_projections_at_the_tables_time_worked_by_hand():
    # Llama-2-70B FP8 on one MI325X (the reference engine), one 1,024-token prompt alone: with AMD's Server table the
    # four dense projections of a layer take the entries at 1,024 tokens (tables/gemm_table_entries.csv: QKV 134.901,
    # O 111.654, gate/up 690.993, down 375.709 us; none a glitch), 80 layers, at the table's own clock (no clock_MHz).
    # Without it the size curve: F / (P e), F = 2 * 1,024 * 855,638,016 * 80, P = 2,614.9 TFLOP/s,
    # e = 0.5975 * s / (s + 1,100), s = cbrt(1,024 * 8,192 * 28,672) (1,024 rows: no padding). Everything else in the
    # prompt's pass is the same, so the prefills differ by the projections alone.
    base = dict(weights="fp8", kv="fp8", input=1024, output=16, batch=1)
    table = llmcost.estimate("Llama-2-70B", "MI325X", gemm_table="mi325x-llama2-70b-server", **base)
    curve = llmcost.estimate("Llama-2-70B", "MI325X", **base)
    t_table = 80 * (134.901 + 111.654 + 690.993 + 375.709) * 1e-6
    s = (1024 * 8192 * 28672) ** (1 / 3)
    t_curve = 2 * 1024 * 855638016 * 80 / (2614.9e12 * 0.5975 * s / (s + 1100))
    assert table.prefill_s - curve.prefill_s == pytest.approx(t_table - t_curve, abs=2e-5 * t_curve)
    # At the table's own clock pinned (1,700 MHz: MI325X's fractions hold there too) nothing moves.
    pinned = llmcost.estimate("Llama-2-70B", "MI325X", gemm_table="mi325x-llama2-70b-server", clock_MHz=1700, **base)
    assert pinned.to_dict() == table.to_dict()


def test_estimate_gemm_table_refusals():
    base = dict(weights="fp8", kv="fp8", input=1024, output=16, batch=1)
    with pytest.raises(llmcost.InvalidInput, match="mi325x-llama2-70b-server, mi325x-llama2-70b-spx1700") as e:
        llmcost.estimate("Llama-2-70B", "MI325X", gemm_table="b15", **base)
    assert e.value.field == "gemm_table" and e.value.id == "llmcost.argument.choice"
    with pytest.raises(llmcost.InvalidInput) as e:  # another TP degree: the library's rule
        llmcost.estimate("Llama-2-70B", "MI325X", tp=2, gemm_table="mi325x-llama2-70b-server", **base)
    assert e.value.id == "llmcost.gemm_table.shapes"
    with pytest.raises(llmcost.InvalidInput) as e:  # another GPU
        llmcost.estimate("Llama-2-70B", "MI300X", gemm_table="mi325x-llama2-70b-server", **base)
    assert e.value.id == "llmcost.gemm_table.gpu"
    for bad in (0, -1600, 20000, float("nan")):  # the tool's --clock rule, 0 included
        with pytest.raises(llmcost.InvalidInput) as e:
            llmcost.estimate("Llama-2-70B", "MI325X", clock_MHz=bad, **base)
        assert e.value.field == "clock_MHz" and e.value.id == "llmcost.clock.range"
    # 3,000 MHz: MI325X's GEMM fraction 0.5975 x 3,000 / 1,700 = 1.054 of peak; 0.5 MHz is a clock (as --clock 0.5).
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.estimate("Llama-2-70B", "MI325X", clock_MHz=3000, **base)
    assert e.value.field == "clock_MHz" and e.value.id == "llmcost.clock.fractions"
    assert llmcost.estimate("Llama-2-70B", "MI325X", clock_MHz=0.5, **base).tpot_s > 0


def test_estimate_quick_reduce_matches_the_tools_json_and_prices_the_prompt_by_hand():
    # llmcost estimate --model DeepSeek-V3 --hardware MI355X --tp 8 --engine sglang --weights fp8 --input 8192
    #                  --output 1024 --batch 16 --quick-reduce int4 --format json
    kw = dict(tp=8, engine="sglang", weights="fp8", input=8192, output=1024, batch=16)
    golden = json.loads((EXPECTED / "estimate_quick_reduce.json").read_text())
    assert_matches_golden(llmcost.estimate("DeepSeek-V3", "MI355X", quick_reduce="int4", **kw), golden)
    assert llmcost.estimate("DeepSeek-V3", "MI355X", quick_reduce="none", **kw).to_dict() == \
        llmcost.estimate("DeepSeek-V3", "MI355X", **kw).to_dict()
    # One 8,192-token prompt alone: its 122 TP all-reduces (61 layers x 2) of 8,192 x 7,168 x 2 B = 117,440,512 B each,
    # above the custom kernel's 64 MiB (AITER's), on QuickReduce INT4 instead of RCCL (tables/engines.csv, SGLang on CDNA4:
    # a 25.39 us, B 625.2 GB/s; RCCL a 56.88 us, B 380 GB/s; t = a + 2(n-1)/n S / B, n = 8). Nothing else moves.
    one = dict(kw, output=16, batch=1)
    on = llmcost.estimate("DeepSeek-V3", "MI355X", quick_reduce="int4", **one)
    off = llmcost.estimate("DeepSeek-V3", "MI355X", **one)
    s = 8192 * 7168 * 2
    quick = 122 * (25.39e-6 + 1.75 * s / 625.2e9)
    rccl = 122 * (56.88e-6 + 1.75 * s / 380e9)
    assert on.prefill_s - off.prefill_s == pytest.approx(quick - rccl, rel=1e-6)


def test_quick_reduce_refusals_name_the_field_the_value_and_the_rule():
    kw = dict(tp=8, weights="fp8", input=8192, output=1024, batch=16)
    with pytest.raises(llmcost.InvalidInput, match="QuickReduce is priced under SGLang.*the engine is 'vllm'") as e:
        llmcost.estimate("DeepSeek-V3", "MI355X", engine="vllm", quick_reduce="int4", **kw)  # the engine before the curve
    assert e.value.field == "quick_reduce" and e.value.id == "llmcost.quick_reduce.engine"
    with pytest.raises(llmcost.InvalidInput, match="SGLang on CDNA3") as e:  # MI300X's SGLang profile has no curve
        llmcost.estimate("DeepSeek-V3", "MI300X", engine="sglang", quick_reduce="int4", **kw)
    assert e.value.id == "llmcost.quick_reduce.curve"
    with pytest.raises(llmcost.InvalidInput, match="2, 4 or 8 ranks") as e:
        llmcost.estimate("Llama-3.1-8B", "MI355X", engine="sglang", quick_reduce="int4", input=128, output=16, batch=1)
    assert e.value.field == "quick_reduce at tp" and e.value.value == 1 and e.value.id == "llmcost.quick_reduce.tp"
    for bad in ("int8", "INT4", ""):
        with pytest.raises(llmcost.InvalidInput) as e:
            llmcost.estimate("DeepSeek-V3", "MI355X", engine="sglang", quick_reduce=bad, **kw)
        assert e.value.field == "quick_reduce" and e.value.id == "llmcost.argument.choice"


def test_disagg_spec_simulate_take_the_launch_keywords_as_estimate():
    # gemm_table=, clock_MHz= and quick_reduce= reach disagg, spec and simulate through the one deployment builder.
    qr = dict(tp=8, engine="sglang", weights="fp8", quick_reduce="int4")
    base = dict(tp=8, engine="sglang", weights="fp8")
    on = llmcost.disagg("DeepSeek-V3", "MI355X", input=8192, output=1024, ttft=10, tpot=0.2, **qr)
    off = llmcost.disagg("DeepSeek-V3", "MI355X", input=8192, output=1024, ttft=10, tpot=0.2, **base)
    assert on.to_dict() != off.to_dict()  # the 8k prompt's all-reduces run on QuickReduce
    assert llmcost.spec("DeepSeek-V3", "MI355X", input=8192, output=1024, batch=16, acceptance=0.7, draft_tokens=1,
                        drafter="mtp", **qr).speedup > 0
    sim = llmcost.simulate("DeepSeek-V3", "MI355X", concurrency=4, requests=20, input_dist="8192", output_dist="64", **qr)
    assert sim.to_dict() != llmcost.simulate("DeepSeek-V3", "MI355X", concurrency=4, requests=20, input_dist="8192",
                                             output_dist="64", **base).to_dict()
    table = dict(weights="fp8", kv="fp8", engine="vllm", gemm_table="mi325x-llama2-70b-server", clock_MHz=1600)
    assert llmcost.spec("Llama-2-70B", "MI325X", input=2000, output=200, batch=32, acceptance=0.7, draft_tokens=3,
                        drafter="eagle", **table).speedup > 0
    assert llmcost.simulate("Llama-2-70B", "MI325X", concurrency=8, requests=20, **table).kind == "simulate"
    assert llmcost.disagg("Llama-2-70B", "MI325X", input=2000, output=200, ttft=10, tpot=0.2, **table).kind == "disagg"
    with pytest.raises(llmcost.InvalidInput) as e:  # the decode pool at another TP: the table does not fit it
        llmcost.disagg("Llama-2-70B", "MI325X", input=2000, output=200, ttft=10, tpot=0.2, decode_tp=2, **table)
    assert e.value.id == "llmcost.gemm_table.shapes"
    for call in (lambda: llmcost.simulate("Llama-3.1-8B", "MI355X", engine="sglang", quick_reduce="int4"),
                 lambda: llmcost.spec("Llama-3.1-8B", "MI355X", engine="sglang", quick_reduce="int4", input=128,
                                      output=16, batch=1, acceptance=0.7, draft_tokens=3, drafter="eagle"),
                 lambda: llmcost.disagg("Llama-3.1-8B", "MI355X", engine="sglang", quick_reduce="int4", input=128,
                                        output=16, ttft=1, tpot=0.1)):
        with pytest.raises(llmcost.InvalidInput) as e:
            call()
        assert e.value.id == "llmcost.quick_reduce.tp"


def test_frontier_plan_sweep_take_quick_reduce_and_match_the_tools_json():
    # llmcost frontier --model DeepSeek-V3 --hardware MI355X --tp 1,4,8 --engine sglang --weights fp8 --input 8192
    #                  --output 1024 --ttft 5 --tpot 0.1 --max-batch 16 --quick-reduce int4 --format json
    kw = dict(engine="sglang", weights="fp8", input=8192, output=1024, ttft=5, tpot=0.1)
    f = llmcost.frontier("DeepSeek-V3", "MI355X", tp=[1, 4, 8], max_batch=16, quick_reduce="int4", **kw)
    rows = json.loads((EXPECTED / "frontier_quick_reduce.json").read_text())["rows"]
    d = f.to_dict()
    assert len(rows) == len(d["hardware"]) > 0
    for k, row in enumerate(rows):
        assert row["layout"] == f"tp {d['tp'][k]}" and d["tp"][k] in (4, 8)  # tp 1: left out by the rule
        for key, want in row.items():
            if key != "layout":
                assert_same_figure(f"{key}[{k}]", d[key][k], want)
    # llmcost plan --model DeepSeek-V3 --hardware MI355X --engine sglang --weights fp8 --input 8192 --output 1024
    #              --ttft 5 --tpot 0.1 --rate 1 --quick-reduce int4 --format json
    p = llmcost.plan("DeepSeek-V3", ["MI355X"], rate=1, mix=[(8192, 1024, 1)], engine="sglang", weights="fp8", ttft=5,
                     tpot=0.1, quick_reduce="int4")
    rows = json.loads((EXPECTED / "plan_quick_reduce.json").read_text())["rows"]
    assert len(rows) == len(p.options) > 0
    for row, got in zip(rows, p.options):
        # tp 1 (DEP, one GPU) is kept, planned without the switch it has no TP all-reduce for (s41 review C NIT 11)
        assert row["layout"].startswith(f"tp {got['tp']}") and got["tp"] in (1, 2, 4, 8)
        for key, want in row.items():
            if key in got:
                assert_same_figure(key, got[key], want)
    # By hand: one 8,192-token prompt alone at tp 8 (batch 1), its 122 TP all-reduces (61 layers x 2) of
    # 8,192 x 7,168 x 2 B each, above AITER's 64 MiB, on QuickReduce INT4 (a 25.39 us, B 625.2 GB/s) instead of RCCL
    # (a 56.88 us, B 380 GB/s), t = a + 2(n-1)/n S / B at n = 8 (tables/engines.csv, SGLang on CDNA4): TTFT shorter.
    one = dict(kw, tp=[8], batch=[1])
    on = llmcost.frontier("DeepSeek-V3", "MI355X", quick_reduce="int4", **one)
    off = llmcost.frontier("DeepSeek-V3", "MI355X", **one)
    s = 8192 * 7168 * 2
    quick = 122 * (25.39e-6 + 1.75 * s / 625.2e9)
    rccl = 122 * (56.88e-6 + 1.75 * s / 380e9)
    assert on.ttft_s[0] - off.ttft_s[0] == pytest.approx(quick - rccl, rel=1e-6) and quick < rccl
    assert llmcost.frontier("DeepSeek-V3", "MI355X", quick_reduce="none", **one).to_dict() == off.to_dict()
    sweep = dict(tp=[1, 8], weights="fp8", engine="sglang", input=[8192], output=[1024], batch=[1])
    sw_on = llmcost.sweep("DeepSeek-V3", "MI355X", quick_reduce="int4", **sweep)
    sw_off = llmcost.sweep("DeepSeek-V3", "MI355X", **sweep)
    assert list(sw_on.status) != list(sw_off.status)  # tp 1: invalid_deployment under the rule
    i = list(sw_on.coordinates()["tp"]).index(8)
    assert sw_on.ttft_s[i] == pytest.approx(on.ttft_s[0], rel=1e-12) and sw_on.ttft_s[i] < sw_off.ttft_s[i]


def test_frontier_plan_sweep_refuse_quick_reduce_where_the_rule_does():
    kw = dict(weights="fp8", input=8192, output=1024, ttft=5, tpot=0.1)
    plan_kw = dict(rate=1, mix=[(8192, 1024, 1)], weights="fp8", ttft=5, tpot=0.1)
    sweep_kw = dict(weights="fp8", input=[8192], output=[1024], batch=[1])
    for call in (lambda e, hw: llmcost.frontier("DeepSeek-V3", hw, tp=[8], engine=e, quick_reduce="int4", **kw),
                 lambda e, hw: llmcost.plan("DeepSeek-V3", [hw], engine=e, quick_reduce="int4", **plan_kw),
                 lambda e, hw: llmcost.sweep("DeepSeek-V3", hw, tp=[8], engine=e, quick_reduce="int4", **sweep_kw)):
        with pytest.raises(llmcost.InvalidInput, match="the engine is 'vllm'") as e:
            call("vllm", "MI355X")
        assert e.value.field == "quick_reduce" and e.value.id == "llmcost.quick_reduce.engine"
        with pytest.raises(llmcost.InvalidInput) as e:  # the reference engine, none named
            call(None, "MI355X")
        assert e.value.id == "llmcost.quick_reduce.engine"
        with pytest.raises(llmcost.InvalidInput, match="SGLang on Hopper") as e:  # SGLang's Hopper profile: no curve
            call("sglang", "H100")
        assert e.value.field == "quick_reduce" and e.value.id == "llmcost.quick_reduce.curve"
    for call in (lambda: llmcost.frontier("DeepSeek-V3", "MI355X", tp=[8], engine="sglang", quick_reduce="int8", **kw),
                 lambda: llmcost.plan("DeepSeek-V3", ["MI355X"], engine="sglang", quick_reduce="int8", **plan_kw),
                 lambda: llmcost.sweep("DeepSeek-V3", "MI355X", tp=[8], engine="sglang", quick_reduce="int8", **sweep_kw)):
        with pytest.raises(llmcost.InvalidInput) as e:  # a level without a measured curve
            call()
        assert e.value.field == "quick_reduce" and e.value.id == "llmcost.argument.choice"
    # TP 1 (a layout only QuickReduce's rule refuses: Llama-3.1-8B runs at tp 1 otherwise): the frontier has nothing the
    # rule lets it price (refused, as `llmcost frontier --tp 1`); the sweep keeps the point with its status.
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.frontier("Llama-3.1-8B", "MI355X", tp=[1], engine="sglang", quick_reduce="int4", input=1000,
                         output=200, ttft=5, tpot=0.1)
    assert e.value.field == "engine.collectives.quick_reduce at tp" and e.value.value == 1
    assert e.value.id == "llmcost.quick_reduce.tp"
    assert len(llmcost.frontier("Llama-3.1-8B", "MI355X", tp=[1], engine="sglang", input=1000, output=200, ttft=5,
                                tpot=0.1).ttft_s) > 0  # priced without the switch
    s = llmcost.sweep("Llama-3.1-8B", "MI355X", tp=[1], engine="sglang", quick_reduce="int4", input=[1000],
                      output=[200], batch=[1])
    assert list(s.status) == [1]  # invalid_deployment


def test_frontier_plan_sweep_take_gemm_table_and_clock():
    # The MI325X Server table fits Llama-2-70B FP8 at tp 1: the tp 2 layouts are left out (invalid_deployment), the
    # tp 1 ones take the table's times; a clock below the table's 1,700 MHz makes them slower (x 1700 / 1600).
    kw = dict(weights="fp8", kv="fp8", engine="vllm", input=2000, output=200, ttft=10, tpot=0.2, batch=[1, 8])
    plain = llmcost.frontier("Llama-2-70B", "MI325X", tp=[1], **kw)
    table = llmcost.frontier("Llama-2-70B", "MI325X", tp=[1, 2], gemm_table="mi325x-llama2-70b-server", **kw)
    slow = llmcost.frontier("Llama-2-70B", "MI325X", tp=[1, 2], gemm_table="mi325x-llama2-70b-server", clock_MHz=1600,
                            **kw)
    assert set(table.tp) == {1} and table.ttft_s != plain.ttft_s
    assert all(b > a for a, b in zip(table.ttft_s, slow.ttft_s))
    sw = llmcost.sweep("Llama-2-70B", "MI325X", tp=[1, 2], input=[2000], output=[200], batch=[1], weights="fp8", kv="fp8",
                       engine="vllm", gemm_table="mi325x-llama2-70b-server")
    assert list(sw.status) == [0, 1]  # tp 2: the table does not fit, kept as invalid_deployment
    p = dict(rate=1, mix=[(2000, 200, 1)], weights="fp8", kv="fp8", engine="vllm", ttft=10, tpot=0.2,
             colocated_only=True)
    on = llmcost.plan("Llama-2-70B", ["MI325X"], gemm_table="mi325x-llama2-70b-server", clock_MHz=1600, **p)
    assert on.best is not None and on.best["tp"] == 1
    assert on.to_dict() != llmcost.plan("Llama-2-70B", ["MI325X"], **p).to_dict()
    for call in (lambda **a: llmcost.frontier("Llama-2-70B", "MI325X", tp=[1], **kw, **a),
                 lambda **a: llmcost.plan("Llama-2-70B", ["MI325X"], **p, **a),
                 lambda **a: llmcost.sweep("Llama-2-70B", "MI325X", tp=[1], input=[2000], output=[200], batch=[1],
                                           weights="fp8", kv="fp8", engine="vllm", **a)):
        with pytest.raises(llmcost.InvalidInput) as e:
            call(gemm_table="b15")
        assert e.value.field == "gemm_table" and e.value.id == "llmcost.argument.choice"
        with pytest.raises(llmcost.InvalidInput) as e:  # 1,700 / 0.5975 = 2,845 MHz: the GEMM fraction would pass 1
            call(clock_MHz=3000)
        assert e.value.field == "clock_MHz" and e.value.id == "llmcost.clock.fractions"
        with pytest.raises(llmcost.InvalidInput) as e:
            call(clock_MHz=-5)
        assert e.value.field == "clock_MHz" and e.value.id == "llmcost.clock.range"


def test_estimate_matches_the_tools_csv_from_a_config_file():
    # llmcost estimate --model tests/fixtures/hf/Llama-3.1-70B-Instruct/config.json --hardware H200 --tp 2
    #                  --weights fp8 --batch 16 --format csv
    with open(EXPECTED / "estimate_config.csv", newline="") as f:
        row = next(csv.DictReader(f))
    m = llmcost.Model.from_hf_config(FIXTURES / "hf" / "Llama-3.1-70B-Instruct" / "config.json")
    e = llmcost.estimate(m, "H200", tp=2, weights="fp8", input=1000, output=200, batch=16)
    for key, text in row.items():
        got = getattr(e, key)
        if isinstance(got, bool):
            assert str(got).lower() == text, key
        elif isinstance(got, list):  # words, comma-joined in CSV (as excluded_modules= takes them)
            assert ",".join(got) == text, key
        elif got is None:  # null: an empty CSV cell
            assert text == "", key
        elif isinstance(got, str):
            assert got == text, key
        else:
            assert printed(got) == float(text), key


def test_kv_matches_the_tools_table():
    # llmcost kv --model Llama-3.1-70B --hardware H100 --tp 8 --context 131072 --batch 64
    r = llmcost.kv("Llama-3.1-70B", "H100", tp=8, context=131072, batch=64)
    assert r.kind == "kv"
    assert shown(r.kv_bytes_per_sequence_per_gpu) == 5.369e9
    # H100 at CUDA's 85,045,477,376 B (session 52): 0.95 H − 2 GB − 17.64 GB = 61.15 GB; 343.6 − 61.15 − 250 = 32.44 GB.
    assert shown(r.kv_budget_bytes_per_gpu) == 61.15e9
    assert shown(r.in_host_B) == 250e9
    assert shown(r.in_storage_B) == 32.44e9
    assert shown(r.restore_s) == 8.541  # 250 GB ÷ 64 GB/s + 32.44 GB ÷ 7 GB/s
    assert r.max_sequences_at_context == 11
    assert r["overflow_B"] == 0
    assert r.to_dict()["gpus"] == 8


def test_spec_matches_the_tools_table():
    # llmcost spec --model Llama-3.1-70B --hardware B300 --tp 8 --acceptance 0.8 --draft-tokens 4 --target 1000
    r = llmcost.spec("Llama-3.1-70B", "B300", tp=8, input=1000, output=200, batch=1, acceptance=0.8,
                     draft_tokens=4, drafter="eagle", target=1000)
    assert r.drafter == "an EAGLE head"
    assert shown(r.expected_tokens_per_pass) == 3.362
    assert shown(r.draft_s) == 561.5e-6
    assert shown(r.verify_s) == 6.806e-3
    assert shown(r.speedup, 3) == 3.09
    assert shown(r.tokens_per_s_per_user) == 456.3
    assert r.min_acceptance_for_target is None  # unreachable


def test_spec_takes_the_tools_defaults():
    # `llmcost spec --model Llama-3.1-70B --hardware H100 --tp 8` prices 1000 -> 200 tokens, batch 1, an EAGLE head,
    # gamma 3, alpha 0.8 (speculation_defaults, one place for both faces; audit 40, F11)
    given = llmcost.spec("Llama-3.1-70B", "H100", tp=8, input=1000, output=200, batch=1, acceptance=0.8,
                         draft_tokens=3, drafter="eagle")
    assert llmcost.spec("Llama-3.1-70B", "H100", tp=8).to_dict() == given.to_dict()
    # the audit's call, acceptance and draft_tokens given, the rest defaulted
    assert llmcost.spec("Llama-3.1-70B", "H100", tp=8, acceptance=0.8, draft_tokens=4).drafter == "an EAGLE head"


def test_spec_refuses_a_draft_model_of_another_vocabulary():
    # As `llmcost spec --model Llama-2-70B --hardware H100 --tp 8 --drafter Llama-3.1-8B` (exit 1): a draft model
    # proposes the target's tokens, so Llama-3.1-8B's 128,256-entry vocabulary cannot draft for Llama-2-70B's 32,000
    # (audit 40, F2; require_draft_vocab)
    kw = dict(tp=8, input=1000, output=200, batch=1, acceptance=0.7, draft_tokens=3)
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.spec("Llama-2-70B", "H100", drafter="Llama-3.1-8B", **kw)
    assert err.value.id == "llmcost.speculative.draft_vocab"
    assert err.value.subject == "Llama-3.1-8B" and err.value.field == "vocab" and err.value.value == 128256
    assert "Llama-2-70B's vocabulary holds 32000 tokens, the draft model's 128256" in err.value.rule
    # DeepSeek-V3's 129,280 entries against Llama-3.1-70B's 128,256: another size, refused too
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.spec("Llama-3.1-70B", "H200", weights="fp8", drafter="DeepSeek-V3", **kw)
    assert err.value.id == "llmcost.speculative.draft_vocab" and err.value.value == 129280
    # a draft head shares the target's LM head: EAGLE on Llama-2-70B is priced
    assert llmcost.spec("Llama-2-70B", "H100", drafter="eagle", **kw).drafter == "an EAGLE head"
    # the same vocabulary: priced
    assert llmcost.spec("Llama-3.1-70B", "H100", drafter="Llama-3.1-8B", **kw).speedup > 0


def test_spec_refuses_a_draft_model_that_does_not_fit_naming_the_draft():
    # As `llmcost spec --model Llama-3.1-70B --tp 8 --drafter Llama-3.1-405B` (exit 1; session 40 F1,
    # require_draft_fits): the target's 70.6e9 B / 8 fit an H100, but the draft's 405B parameters in BF16 hold
    # about 101 GB a GPU at TP8, more than the 80 GB HBM, so the refusal names the draft and its weights, not the target.
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.spec("Llama-3.1-70B", "H100", tp=8, input=1000, output=200, batch=1, acceptance=0.7, draft_tokens=3,
                     drafter="Llama-3.1-405B")
    assert err.value.subject == "Llama-3.1-405B"
    assert err.value.field == "draft weights per GPU (B)"
    assert 100e9 < err.value.value < 102e9  # 405.9e9 parameters × 2 B ÷ 8 = 101.5e9 B
    assert err.value.id == "llmcost.fit.weights"
    assert "the draft model's weights beside Llama-3.1-70B's" in err.value.rule


def test_disagg_matches_the_tools_table():
    # llmcost disagg --model Llama-3.1-70B --hardware H100 --tp 8 --input 4000 --output 300 --ttft 1 --tpot 0.05
    r = llmcost.disagg("Llama-3.1-70B", "H100", tp=8, input=4000, output=300, ttft=1, tpot=0.05)
    assert shown(r.kv_bytes_per_request) == 1.311e9
    assert shown(r.kv_transfer_s) == 3.283e-3  # 1.311e9 B over 8 NICs of 50 GB/s + α 5.8 µs (docs/link-latency.md)
    assert r.colocated_feasible and r.disaggregated_feasible
    assert r.colocated_batch == 57
    # The reference engine's pool on an H100 at CUDA's 85,045,477,376 B (session 52): 0.95 H − 2 GB − 17.64 GB =
    # 61,154,776,883.2 B, ÷ (4,300 tokens × 40,960 B) = 347.2 (351 on the spec's 80 GiB).
    assert r.disaggregated_decode_batch == 347
    assert shown(r.prefill_per_decode_instances) == 4.942  # the golden disagg.txt (4.965 before session 52)
    assert shown(r.goodput_gain, 3) == 1.17


def test_disagg_with_prefix_hit_and_speculation_matches_the_tools_json():
    # llmcost disagg --model Llama-3.1-70B --hardware H100 --tp 8 --input 4000 --output 300 --prefix-hit 0.5
    #                --spec --drafter eagle --acceptance 0.7 --draft-tokens 3 --format json   (--ttft 2 --tpot 0.05)
    golden = json.loads((EXPECTED / "disagg_spec_prefix.json").read_text())
    r = llmcost.disagg("Llama-3.1-70B", "H100", tp=8, input=4000, output=300, ttft=2, tpot=0.05, prefix_hit=0.5,
                       acceptance=0.7, draft_tokens=3, drafter="eagle")
    assert r.kind == "disagg"
    assert_matches_golden(r, golden)


def test_disagg_with_a_draft_model_matches_the_tools_json():
    # llmcost disagg --model Llama-3.1-70B --hardware H100 --tp 8 --input 4000 --output 300 --decode-hardware H200
    #                --decode-tp 4 --tpot 0.06 --spec --drafter Llama-3.1-8B --acceptance 0.6 --draft-tokens 4 --format json
    # The draft model on each pool's own layout: tp 8 on H100 colocated, tp 4 on H200 in the decode pool.
    golden = json.loads((EXPECTED / "disagg_spec_draft.json").read_text())
    kw = dict(tp=8, input=4000, output=300, decode_hardware="H200", decode_tp=4, ttft=2, tpot=0.06,
              acceptance=0.6, draft_tokens=4)
    assert_matches_golden(llmcost.disagg("Llama-3.1-70B", "H100", drafter="Llama-3.1-8B", **kw), golden)
    assert_matches_golden(llmcost.disagg("Llama-3.1-70B", "H100", drafter=llmcost.Model.named("Llama-3.1-8B"), **kw),
                          golden)


def test_disagg_prefix_hit_and_speculation_laws():
    d = dict(tp=8, input=4000, output=300, ttft=2, tpot=0.05)
    plain = llmcost.disagg("Llama-3.1-70B", "H100", **d)
    assert llmcost.disagg("Llama-3.1-70B", "H100", prefix_hit=0.0, acceptance=None, draft_tokens=None,
                          **d).to_dict() == plain.to_dict(), "the defaults are off"
    hit = llmcost.disagg("Llama-3.1-70B", "H100", prefix_hit=0.75, **d)
    # The whole prompt's KV still travels: 2 × 80 layers × 8 KV heads × 128 dims × 2 B × 4000 tokens (S16, S25).
    assert hit.kv_bytes_per_request == plain.kv_bytes_per_request == 2 * 80 * 8 * 128 * 2 * 4000
    assert hit.prefill_s < plain.prefill_s                      # only 1000 of 4000 tokens are prefilled
    spec = llmcost.disagg("Llama-3.1-70B", "H100", acceptance=0.7, draft_tokens=3, **d)
    # Speculation leaves the prompt's side alone and serves more sequences in the decode pool under the same TPOT.
    assert spec.kv_transfer_s == plain.kv_transfer_s and spec.prefill_s == plain.prefill_s
    assert spec.disaggregated_decode_batch >= plain.disaggregated_decode_batch
    assert spec.disaggregated_requests_per_s_per_gpu > plain.disaggregated_requests_per_s_per_gpu


def test_disagg_refuses_bad_speculation_and_prefix_hit():
    d = dict(tp=8, input=4000, output=300, ttft=2, tpot=0.05)
    cases = [(dict(acceptance=0.7), "acceptance", "needs draft_tokens="),
             (dict(draft_tokens=3), "acceptance", "is required with draft_tokens="),
             (dict(acceptance=1.5, draft_tokens=3), "acceptance", "probability in \\[0, 1\\]"),
             (dict(acceptance=0.7, draft_tokens=0), "draft_tokens", "whole number"),
             (dict(acceptance=0.7, draft_tokens=3, drafter="mtp"), "mtp_modules", "ships no MTP module"),
             (dict(acceptance=0.7, draft_tokens=3, drafter="no-such-model"), "drafter", "not in the catalog"),
             (dict(acceptance=0.7, draft_tokens=3, drafter=3), "drafter", "must be a catalog name"),
             (dict(prefix_hit=1.0), "prefix_hit", "must be in \\[0, 1\\)"),
             (dict(prefix_hit=-0.1), "prefix_hit", "must be in \\[0, 1\\)"),
             (dict(prefix_hit="half"), "prefix_hit", "must be a number")]
    for extra, field, rule in cases:
        with pytest.raises(llmcost.InvalidInput, match=rule) as err:
            llmcost.disagg("Llama-3.1-70B", "H100", **d, **extra)
        assert err.value.field == field, extra


# ---- hand-worked figures ---------------------------------------------------------------------------

def test_kv_per_token_by_hand():
    # Llama-3.1-70B: 2 (K and V) × 80 layers × 8 KV heads × 128 dims × 2 bytes (bf16) = 327,680 B (S16).
    e = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=32)
    assert e.kv_bytes_per_token == 2 * 80 * 8 * 128 * 2
    r = llmcost.kv("Llama-3.1-70B", "H100", tp=8, context=1000, batch=3)
    assert r.kv_bytes_per_token_per_gpu == 2 * 80 * 8 * 128 * 2 / 8     # heads split over tp 8
    assert r.kv_bytes_per_gpu == 3 * 1000 * 40960
    m = llmcost.Model.named("Llama-3.1-70B")
    assert m.kv_bytes_per_token == 327680


def test_estimate_laws():
    e = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=32)
    assert e.tokens_per_s_per_user == pytest.approx(1 / e.tpot_s, rel=1e-12)
    assert e.output_tokens_per_s_per_gpu == pytest.approx(e.output_tokens_per_s / 8, rel=1e-12)
    assert e.e2e_s == pytest.approx(e.ttft_s + 499 * e.tpot_s, rel=1e-12)
    assert e.wall_energy_j_per_output_token > e.energy_j_per_output_token > 0
    assert e.limited_by == "given" and e.batch == 32
    tpots = [llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=b).tpot_s
             for b in (1, 8, 32, 64)]
    assert tpots == sorted(tpots), "a bigger batch never makes a step shorter"
    bigger_tp = llmcost.estimate("Llama-3.1-70B", "H100", tp=4, input=2000, output=500, batch=32)
    assert bigger_tp.weight_bytes_per_gpu == pytest.approx(2 * e.weight_bytes_per_gpu)


def test_estimate_excluded_modules_add_the_kept_bytes_worked_by_hand():
    # DeepSeek-V3 on 8 B200 at TP 8, NVFP4 weights (4.5 bits = 0.5625 B): kv_b 512 * 128 * 256 = 16,777,216 and o_proj
    # 128 * 128 * 7168 = 117,440,512 a layer, 61 layers = 8,187,281,408 parameters kept in BF16 (2 B): per GPU
    # 8,187,281,408 / 8 * (2 - 0.5625) = 1,471,152,128 B more; in FP8 (1 B) 1,023,410,176 * 0.4375 = 447,741,952 B.
    # As `llmcost estimate --excluded-modules attention_kv_b,attention_out [--kept-format fp8]`.
    base = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, batch=1)
    plain = llmcost.estimate("DeepSeek-V3", "B200", **base)
    kept = llmcost.estimate("DeepSeek-V3", "B200", excluded_modules="attention_kv_b,attention_out", **base)
    assert kept.weight_bytes_per_gpu - plain.weight_bytes_per_gpu == 1_471_152_128
    as_list = llmcost.estimate("DeepSeek-V3", "B200", excluded_modules=["attention_kv_b", "attention_out"], **base)
    assert as_list.to_dict() == kept.to_dict()
    fp8 = llmcost.estimate("DeepSeek-V3", "B200", excluded_modules="attention_kv_b,attention_out", kept_format="fp8",
                           **base)
    assert fp8.weight_bytes_per_gpu - plain.weight_bytes_per_gpu == 447_741_952
    assert llmcost.estimate("DeepSeek-V3", "B200", excluded_modules=None, **base).to_dict() == plain.to_dict()
    with pytest.raises(llmcost.InvalidInput, match="unknown module 'shared_experts'.*attention_in, attention_kv_b"):
        llmcost.estimate("DeepSeek-V3", "B200", excluded_modules="attention_in,shared_experts", **base)
    with pytest.raises(llmcost.InvalidInput, match="kept_format.*needs excluded_modules"):
        llmcost.estimate("DeepSeek-V3", "B200", kept_format="fp8", **base)
    # disagg serves the one checkpoint in both pools
    d = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, ttft=2, tpot=0.05)
    assert (llmcost.disagg("DeepSeek-V3", "B200", excluded_modules="attention_kv_b,attention_out", **d).to_dict()
            != llmcost.disagg("DeepSeek-V3", "B200", **d).to_dict())


def test_excluded_modules_refusals_and_the_draft_model_as_the_tool_reads_them():
    # The rules `llmcost … --excluded-modules` and the measurements loader share: a list that names no module is refused
    # (not read as none kept), a list needs weights= (the format the rest is quantized to), kept_format= is a checkpoint
    # format (not fp32), spaces after the commas are trimmed; a draft model keeps none of the target's kept modules
    # (Llama-3.1-8B has no MLA kv_b: before the fix this raised on excluded.attention_kv_up).
    base = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, batch=1)
    for empty in ("", ",", [], [" "]):
        with pytest.raises(llmcost.InvalidInput, match=r"excluded_modules.*names no module; the words: attention_in, "
                                                       r".*\[llmcost\.argument\.choice\]"):
            llmcost.estimate("DeepSeek-V3", "B200", excluded_modules=empty, **base)
    with pytest.raises(llmcost.InvalidInput, match=r"excluded_modules.*it needs that format \(weights=\).*"
                                                   r"\[llmcost\.argument\.needs\]"):
        llmcost.estimate("DeepSeek-V3", "B200", tp=8, input=1000, output=100, batch=1, excluded_modules="lm_head")
    with pytest.raises(llmcost.InvalidInput, match=r"excluded_modules.*it needs that format"):
        llmcost.sweep("DeepSeek-V3", "B200", tp=8, input=[1000], output=[100], batch=[1], excluded_modules="lm_head")
    with pytest.raises(llmcost.InvalidInput, match=r"kept_format.*fp32.*\[llmcost\.argument\.choice\]"):
        llmcost.estimate("DeepSeek-V3", "B200", excluded_modules="lm_head", kept_format="fp32", **base)
    # "attention_kv_b, attention_out" is the list without spaces: 1,471,152,128 B more a GPU (the test above)
    spaced = llmcost.estimate("DeepSeek-V3", "B200", excluded_modules="attention_kv_b, attention_out", **base)
    plain = llmcost.estimate("DeepSeek-V3", "B200", **base)
    assert spaced.weight_bytes_per_gpu - plain.weight_bytes_per_gpu == 1_471_152_128
    d = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, ttft=2, tpot=0.05, acceptance=0.7,
             draft_tokens=3, drafter=dense_ds_drafter())
    r = llmcost.disagg("DeepSeek-V3", "B200", excluded_modules="attention_kv_b", **d)
    assert r.to_dict() != llmcost.disagg("DeepSeek-V3", "B200", **d).to_dict()  # the target's kv_b still kept


def test_estimate_eager_prompt_as_the_tool_states_it():
    # SGLang on Blackwell launches a prompt step eagerly at 75.89 us a kernel (tables/engines.csv prefill_launch_us):
    # a lone 16-token prompt is host-bound, so 'serial' lasts kernels * 75.89 us (a whole number of kernels), 'overlap'
    # with no step before it the same, '0' (not priced) the GPU's own shorter time. vLLM on Blackwell has no prompt
    # launch cost: every value leaves it as it is. As `llmcost estimate --eager-prompt`.
    base = dict(input=16, output=100, batch=1)
    serial = llmcost.estimate("Llama-3.1-8B", "B200", engine="sglang", eager_prompt="serial", **base)
    overlap = llmcost.estimate("Llama-3.1-8B", "B200", engine="sglang", eager_prompt="overlap", **base)
    none = llmcost.estimate("Llama-3.1-8B", "B200", engine="sglang", eager_prompt="0", **base)
    kernels = serial.prefill_s / 75.89e-6
    assert kernels == pytest.approx(round(kernels), abs=1e-6) and round(kernels) > 100
    assert overlap.prefill_s == serial.prefill_s
    assert none.prefill_s < serial.prefill_s
    vllm = llmcost.estimate("Llama-3.1-8B", "B200", engine="vllm", **base).to_dict()
    for mode in ("serial", "overlap", "0"):
        assert llmcost.estimate("Llama-3.1-8B", "B200", engine="vllm", eager_prompt=mode, **base).to_dict() == vllm
    with pytest.raises(llmcost.InvalidInput, match="eager_prompt.*overlap.*serial.*0"):
        llmcost.estimate("Llama-3.1-8B", "B200", engine="sglang", eager_prompt="Serial", **base)


def test_sweep_frontier_and_plan_take_the_kept_modules_and_eager_prompts():
    # A sweep point with kv_b and o_proj kept BF16 beside NVFP4 is estimate's with the same keywords, to the bit, and
    # its TPOT is longer than the plain grid's (1,471,152,128 B more a GPU read each step: see the estimate test);
    # eager_prompt='serial' reaches the grid's engines (SGLang on B200: a lone 16-token prompt is host-bound).
    kw = dict(tp=8, weights="nvfp4", kv="fp8", input=[1000], output=[100], batch=[1, 8])
    kept = dict(excluded_modules="attention_kv_b,attention_out")
    s = llmcost.sweep("DeepSeek-V3", "B200", engine="sglang", eager_prompt="serial", **kept, **kw)
    ref = llmcost.sweep("DeepSeek-V3", "B200", engine="sglang", eager_prompt="serial", **kw)
    c = s.coordinates()
    for i in range(len(s.tpot_s)):
        e = llmcost.estimate("DeepSeek-V3", "B200", tp=8, weights="nvfp4", kv="fp8", input=1000, output=100,
                             batch=float(c["batch"][i]), engine="sglang", eager_prompt="serial", **kept)
        assert s.tpot_s[i] == e.tpot_s and s.ttft_s[i] == e.ttft_s
        assert s.tpot_s[i] > ref.tpot_s[i]
    f = llmcost.frontier("DeepSeek-V3", "B200", tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, ttft=5,
                         tpot=0.2, batch=[1, 8], **kept)
    g = llmcost.frontier("DeepSeek-V3", "B200", tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, ttft=5,
                         tpot=0.2, batch=[1, 8])
    assert f.to_dict() != g.to_dict()
    with pytest.raises(llmcost.InvalidInput, match="eager_prompt"):
        llmcost.plan("Llama-3.1-8B", "H100", rate=1, mix=[(128, 128, 1)], ttft=2, tpot=0.05, eager_prompt="always")
    with pytest.raises(llmcost.InvalidInput, match="unknown module 'qkv'"):
        llmcost.plan("Llama-3.1-8B", "H100", rate=1, mix=[(128, 128, 1)], ttft=2, tpot=0.05, weights="fp8",
                     excluded_modules=["qkv"])


def test_kv_spec_simulate_take_the_kept_modules_worked_by_hand():
    # DeepSeek-V3 on 8 B200 at TP 8, NVFP4 weights, FP8 KV, kv_b and o_proj kept in BF16: 1,471,152,128 B more a GPU
    # (the estimate test above). kv: the reference engine's pool f*H - W - 2 GB is that much smaller, TensorRT-LLM's
    # f*(H - W - X) at f = 0.5 half of it (735,576,064 B); MLA at FP8 holds (512 + 64) * 61 = 35,136 B a token on every
    # rank, so the longest context is 1,471,152,128 / 35,136 = 41,870.22 tokens shorter. As `llmcost kv
    # --excluded-modules attention_kv_b,attention_out`; kv takes no eager_prompt= (it prices memory, not a step).
    base = dict(tp=8, weights="nvfp4", kv="fp8", context=8192, batch=1)
    kept = dict(excluded_modules="attention_kv_b,attention_out")
    plain = llmcost.kv("DeepSeek-V3", "B200", **base)
    k = llmcost.kv("DeepSeek-V3", "B200", **kept, **base)
    assert (plain.weights, plain.excluded_modules, plain.kept_format) == ("nvfp4", [], None)
    assert (k.weights, k.excluded_modules, k.kept_format) == ("nvfp4", ["attention_kv_b", "attention_out"], "bf16")
    assert k.weight_bytes_per_gpu - plain.weight_bytes_per_gpu == 1_471_152_128
    assert plain.kv_budget_bytes_per_gpu - k.kv_budget_bytes_per_gpu == pytest.approx(1_471_152_128, abs=1e-3)
    assert plain.kv_bytes_per_token_per_gpu == 35_136
    # each room in whole tokens (the reference engine's block of 1, `kv_capacity_whole_blocks`): within one token
    assert (plain.max_context_tokens_at_batch_1 - k.max_context_tokens_at_batch_1
            == pytest.approx(1_471_152_128 / 35_136, abs=1.0))
    trt = dict(engine="trtllm", kv_memory_fraction=0.5)
    assert (llmcost.kv("DeepSeek-V3", "B200", **trt, **base).kv_budget_bytes_per_gpu
            - llmcost.kv("DeepSeek-V3", "B200", **trt, **kept, **base).kv_budget_bytes_per_gpu
            == pytest.approx(735_576_064, abs=1e-3))
    fp8 = llmcost.kv("DeepSeek-V3", "B200", kept_format="fp8", **kept, **base)
    assert (fp8.weights, fp8.excluded_modules, fp8.kept_format) == ("nvfp4", ["attention_kv_b", "attention_out"], "fp8")
    assert fp8.weight_bytes_per_gpu - plain.weight_bytes_per_gpu == 447_741_952
    # kv takes eager_prompt= only to refuse it, as `llmcost kv --eager-prompt` (None, the default, is accepted).
    why = ("kv prices memory (the KV footprint and where it spills), not a step, so it has no prompt launch to state; "
           "estimate, simulate, spec, cost, disagg, frontier and plan read it")
    assert llmcost.kv("DeepSeek-V3", "B200", eager_prompt=None, **base).weights == "nvfp4"
    for value in ("serial", "", "0"):
        with pytest.raises(llmcost.InvalidInput) as refused:
            llmcost.kv("DeepSeek-V3", "B200", eager_prompt=value, **base)
        assert (refused.value.field, refused.value.value, refused.value.rule) == ("eager_prompt", value, why)
        assert refused.value.id == "llmcost.argument.not_taken"
    # spec at batch 1 with the MTP module, gamma 1: every pass HBM-bound at 8.0 TB/s * 0.919 = 7.352 TB/s
    # (tables/hardware.csv), so the plain pass and the verification read 1,471,152,128 B more, 200.1023 us longer;
    # the MTP layer's kv_b and o_proj 134,217,728 / 8 * 1.4375 = 24,117,248 B more, 3.2804 us a draft.
    s = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100, batch=1, acceptance=0.7, draft_tokens=1,
             drafter="mtp")
    p = llmcost.spec("DeepSeek-V3", "B200", **s)
    q = llmcost.spec("DeepSeek-V3", "B200", **kept, **s)
    assert (q.weights, q.excluded_modules, q.kept_format) == ("nvfp4", ["attention_kv_b", "attention_out"], "bf16")
    assert q.plain_step_s - p.plain_step_s == pytest.approx(1_471_152_128 / 7.352e12, rel=1e-8)
    assert q.verify_s - p.verify_s == pytest.approx(1_471_152_128 / 7.352e12, rel=1e-8)
    assert q.draft_s - p.draft_s == pytest.approx(24_117_248 / 7.352e12, rel=1e-6)
    # a draft model keeps none of the target's modules (a dense drafter has no MLA kv_b): that property is tested by
    # disagg's twin above (a dense drafter with DeepSeek-V3's vocabulary, dense_ds_drafter(), priced with kv_b kept),
    # as spec's drafter= takes only a catalog name; here only the order: Llama-3.1-8B is refused for its vocabulary
    # (128,256 against DeepSeek-V3's 129,280), not for a kv_b it would have been given
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.spec("DeepSeek-V3", "B200", **dict(s, drafter="Llama-3.1-8B"), excluded_modules="attention_kv_b")
    assert err.value.id == "llmcost.speculative.draft_vocab"
    # simulate, one client, fixed lengths: every decode step runs one sequence, 200.1023 us longer, so the TPOT is
    one = dict(tp=8, weights="nvfp4", kv="fp8", concurrency=1, input_dist="1000", output_dist="100", requests=20)
    a = llmcost.simulate("DeepSeek-V3", "B200", **one)
    b = llmcost.simulate("DeepSeek-V3", "B200", **kept, **one)
    assert b.tpot_s["mean"] - a.tpot_s["mean"] == pytest.approx(1_471_152_128 / 7.352e12, rel=1e-8)
    # refusals, as estimate's: an unknown word, kept_format alone, a list without weights=
    for f, kw in ((llmcost.kv, base), (llmcost.spec, s), (llmcost.simulate, one)):
        with pytest.raises(llmcost.InvalidInput, match="unknown module 'kv_b'"):
            f("DeepSeek-V3", "B200", excluded_modules="attention_in,kv_b", **kw)
        with pytest.raises(llmcost.InvalidInput, match="kept_format.*needs excluded_modules"):
            f("DeepSeek-V3", "B200", kept_format="fp8", **kw)
        with pytest.raises(llmcost.InvalidInput, match=r"excluded_modules.*it needs that format \(weights=\)"):
            f("DeepSeek-V3", "B200", excluded_modules="lm_head", **dict(kw, weights=None))


def test_spec_and_simulate_take_eager_prompt():
    # SGLang on B200 launches a prompt step eagerly at 75.89 us a kernel. spec's verification is a graph-captured
    # decode-shaped step (SGLang's TARGET_VERIFY graphs), so eager_prompt does not reach it: the same with 'serial',
    # '0' and the profile's rule, the plain pass unmoved, and shorter than the eager prompt step's launch H.
    # simulate, one client, 16-token prompts: TTFT('serial') - TTFT('0') = H - t_GPU, t_GPU estimate's prefill_s at '0'.
    s = dict(input=16, output=100, batch=1, acceptance=0.8, draft_tokens=3, drafter="eagle", engine="sglang")
    serial = llmcost.spec("Llama-3.1-8B", "B200", eager_prompt="serial", **s)
    none = llmcost.spec("Llama-3.1-8B", "B200", eager_prompt="0", **s)
    profile = llmcost.spec("Llama-3.1-8B", "B200", **s)
    assert none.verify_s == serial.verify_s == profile.verify_s and none.plain_step_s == serial.plain_step_s
    assert serial.verify_s >= serial.plain_step_s
    one = dict(concurrency=1, input_dist="16", output_dist="100", requests=20, engine="sglang")
    t1 = llmcost.simulate("Llama-3.1-8B", "B200", eager_prompt="serial", **one).ttft_s["mean"]
    t0 = llmcost.simulate("Llama-3.1-8B", "B200", eager_prompt="0", **one).ttft_s["mean"]
    gpu = llmcost.estimate("Llama-3.1-8B", "B200", engine="sglang", input=16, output=100, batch=1,
                           eager_prompt="0").prefill_s
    h = (t1 - t0 + gpu) / 75.89e-6
    assert h == pytest.approx(round(h), abs=1e-5) and round(h) > 100
    assert serial.verify_s < round(h) * 75.89e-6
    with pytest.raises(llmcost.InvalidInput, match="eager_prompt.*overlap.*serial.*0"):
        llmcost.simulate("Llama-3.1-8B", "B200", eager_prompt="on", **one)


def test_weights_fields_stay_the_format_name_with_the_kept_modules_apart():
    # `weights` stays the format name weights= takes back; the kept modules are `excluded_modules` (their words, in
    # excluded_modules_named's order: attention_in, attention_kv_b, attention_out, lm_head, embedding; [] when none)
    # and `kept_format` (None when none), so a row passes back as keywords.
    kw = dict(tp=8, weights="nvfp4", kv="fp8", input=1000, output=100)
    kept = ["attention_kv_b", "attention_out"]
    e = llmcost.estimate("DeepSeek-V3", "B200", batch=1, excluded_modules="attention_out,attention_kv_b", **kw)
    assert (e.weights, e.excluded_modules, e.kept_format) == ("nvfp4", kept, "bf16")
    assert {k: e.to_dict()[k] for k in ("weights", "excluded_modules", "kept_format")} == {
        "weights": "nvfp4", "excluded_modules": kept, "kept_format": "bf16"}
    again = llmcost.estimate("DeepSeek-V3", "B200", batch=1, **dict(kw, weights=e.weights),
                             excluded_modules=e.excluded_modules, kept_format=e.kept_format)
    assert again.weight_bytes_per_gpu == e.weight_bytes_per_gpu
    plain = llmcost.estimate("DeepSeek-V3", "B200", batch=1, **kw)
    assert (plain.weights, plain.excluded_modules, plain.kept_format) == ("nvfp4", [], None)
    f = llmcost.frontier("DeepSeek-V3", "B200", ttft=5, tpot=0.2, batch=[1, 8],
                         excluded_modules="attention_kv_b,attention_out", kept_format="fp8", **kw).to_dict()
    n = len(f["weights"])
    assert n > 0 and f["weights"] == ["nvfp4"] * n
    assert f["excluded_modules"] == [kept] * n and f["kept_format"] == ["fp8"] * n
    p = llmcost.plan("DeepSeek-V3", "B200", rate=1, mix=[(1000, 100, 1)], ttft=5, tpot=0.2, weights="nvfp4", kv="fp8",
                     excluded_modules=kept)
    assert p.options and all((o["weights"], o["excluded_modules"], o["kept_format"]) == ("nvfp4", kept, "bf16")
                             for o in p.options)
    s = llmcost.sweep("DeepSeek-V3", "B200", tp=8, weights="nvfp4", kv="fp8", input=[1000], output=[100], batch=[1],
                      excluded_modules="attention_kv_b,attention_out")
    assert s.formats == [("nvfp4", "fp8")]


def test_sweep_to_pandas_gives_the_kept_modules_apart():
    pd = pytest.importorskip("pandas")
    s = llmcost.sweep("DeepSeek-V3", "B200", tp=8, weights=["nvfp4", "fp8"], kv="fp8", input=[1000], output=[100],
                      batch=[1, 8], excluded_modules="attention_kv_b")
    df = s.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    assert sorted(set(df["formats"].astype(str))) == ["fp8/fp8", "nvfp4/fp8"]
    assert list(df["excluded_modules"]) == [["attention_kv_b"]] * 4 and list(df["kept_format"]) == ["bf16"] * 4
    none = llmcost.sweep("Llama-3.1-8B", "H100", input=[128], output=[128], batch=[1]).to_pandas()
    assert list(none["excluded_modules"]) == [[]] and list(none["kept_format"]) == [None]


def test_estimate_defaults_are_the_librarys():
    a = llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128)
    b = llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, saturate=True, tp=1, pp=1, ep=1)
    assert a.to_dict() == b.to_dict()
    assert (a.tp, a.pp, a.ep, a.dp, a.gpus) == (1, 1, 1, 1, 1)
    assert a.weights == llmcost.Model.named("Llama-3.1-8B").weights


def test_cost_unknown_is_none_and_a_given_price_is_used():
    priced = llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=8, usd_per_gpu_hour=2.0)
    assert priced.usd_per_gpu_hour == pytest.approx(2.0)
    unpriced = [h for h in llmcost.hardware() if h.capex_usd == 0]
    if unpriced:
        e = llmcost.estimate("Llama-3.1-8B", unpriced[0], input=128, output=128, batch=1)
        assert e.usd_per_gpu_hour is None and e.usd_per_million_output_tokens is None



def test_a_price_past_the_bound_or_an_overflowing_cost_is_refused_not_inf():
    # Before session 53 usd_per_gpu_hour=1e308 answered usd_per_million_output_tokens = inf; the tool's bound
    # ($10^12 a GPU-hour) is the library's now, and a utilisation that overflows $/M is refused naming it.
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=8, usd_per_gpu_hour=1e308)
    assert e.value.id == "llmcost.cost.gpu_hour_range"
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=8, usd_per_gpu_hour=1e12,
                         utilisation=1e-300)
    assert e.value.field == "utilisation" and e.value.id == "llmcost.cost.overflow"


# ---- catalogs and descriptors ----------------------------------------------------------------------

def test_catalogs():
    models = llmcost.models()
    gpus = llmcost.hardware()
    assert len(models) >= 5 and all(isinstance(m, llmcost.Model) for m in models)
    assert len(gpus) >= 5 and all(isinstance(h, llmcost.Hardware) for h in gpus)
    assert len({m.name for m in models}) == len(models)
    names = [f["name"] for f in llmcost.formats()]
    assert {"bf16", "fp8", "nvfp4"} <= set(names)
    assert next(f for f in llmcost.formats() if f["name"] == "fp8")["bits_per_element"] == 8


def test_loose_names():
    h = llmcost.Hardware.named("h100-sxm5")
    assert h == llmcost.Hardware.named("H100 SXM5") == llmcost.Hardware.named("h100")
    assert h.name == "H100 SXM5"
    assert llmcost.Model.named("llama-3.1-70b").name == "Llama-3.1-70B"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Hardware.named("H1OO")
    assert "closest: H100 SXM5" in str(err.value)
    assert err.value.id == "llmcost.catalog.unknown_name" and err.value.value == "H1OO"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Hardware.named("H")
    assert err.value.id == "llmcost.catalog.ambiguous_name" and "H100 SXM5" in err.value.rule


def test_descriptors_are_frozen_with_replace():
    m = llmcost.Model.named("Llama-3.1-8B")
    with pytest.raises(AttributeError):
        m.layers = 3
    shallow = m.replace(layers=16, name="Llama-3.1-8B-half")
    assert shallow.layers == 16 and m.layers == 32
    assert shallow.name == "Llama-3.1-8B-half"
    assert shallow.parameters < m.parameters
    assert shallow != m and m == llmcost.Model.named("Llama-3.1-8B")
    assert hash(m) == hash(llmcost.Model.named("Llama-3.1-8B"))
    # the replaced model prices like any other
    e = llmcost.estimate(shallow, "H100", input=128, output=128, batch=8)
    assert e.model == "Llama-3.1-8B-half"
    # a keyword constructor, checked by the library
    derived = ("attention", "parameters", "active_parameters", "kv_bytes_per_token", "layer_counts", "moe_layers",
               "state_bytes_per_sequence")
    mine = llmcost.Model(**{k: v for k, v in m.to_dict().items() if k not in derived})
    assert mine == m
    h = llmcost.Hardware.named("H100").replace(hbm_bandwidth_B_per_s=6.7e12, name="H100 doubled")
    fast = llmcost.estimate("Llama-3.1-8B", h, input=128, output=128, batch=1)
    slow = llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1)
    assert fast.tpot_s < slow.tpot_s
    assert "H100 doubled" in repr(h)


def test_from_hf_config_file_folder_and_dict():
    folder = FIXTURES / "hf" / "Llama-3.1-8B"
    a = llmcost.Model.from_hf_config(folder / "config.json")
    b = llmcost.Model.from_hf_config(str(folder))
    c = llmcost.Model.from_hf_config(json.loads((folder / "config.json").read_text()), name=a.name)
    assert a == b == c
    assert a.layers == 32 and a.kv_heads == 8
    assert llmcost.Model.from_hf_config(FIXTURES / "hf" / "DeepSeek-V3").attention == "latent"


# ---- errors: every class of bad input raises the mapped exception with field, value and rule ------

BASE = dict(input=2000, output=500, batch=32, tp=8)


def refused(exc_type=llmcost.InvalidInput, *args, **kwargs):
    call = dict(BASE)
    call.update(kwargs)
    model = call.pop("model", "Llama-3.1-70B")
    hw = call.pop("hardware", "H100")
    with pytest.raises(exc_type) as err:
        llmcost.estimate(model, hw, **call)
    e = err.value
    assert isinstance(e, ValueError)
    assert e.field and e.rule and str(e).startswith("llmcost: ")
    return e


def test_exceptions_are_value_errors():
    assert issubclass(llmcost.InvalidInput, ValueError)
    assert issubclass(llmcost.LoadError, ValueError)
    assert not issubclass(llmcost.InvalidInput, RuntimeError)


@pytest.mark.parametrize("field,value", [("tp", "eight"), ("input", "2000"), ("batch", [32]), ("tp", True),
                                         ("weights", 8), ("saturate", 1), ("input", 1j)])
def test_wrong_types(field, value):
    e = refused(**{field: value})
    assert e.field == field and e.value == value and e.id == "llmcost.argument.type"


def test_wrong_type_for_a_model_or_gpu():
    assert refused(model=70).field == "model"
    assert refused(hardware=None).field == "hardware"


def test_unknown_names():
    e = refused(model="llama-70b")
    assert e.field == "model" and e.value == "llama-70b" and "Llama-3.1-70B" in e.rule
    e = refused(weights="fp7")
    assert e.field == "weights" and e.id == "llmcost.format.unknown_name" and "nvfp4" in e.rule


@pytest.mark.parametrize("field,value,rule_field", [("input", -1, "input (tokens)"), ("output", 0, "output (tokens)"),
                                                    ("batch", -4, "batch"), ("utilisation", 0, "utilisation"),
                                                    ("max_tokens", -1, "max_tokens_per_step")])
def test_negative_numbers(field, value, rule_field):
    call = {field: value}
    if field == "max_tokens":
        call.update(batch=None)
    e = refused(**call)
    assert e.field == rule_field and e.value == value


@pytest.mark.parametrize("field", ["input", "output", "batch", "prefill_chunk"])
def test_nan(field):
    e = refused(**{field: float("nan")})
    assert math.isnan(e.value)


def test_infinity():
    assert refused(input=float("inf")).value == math.inf


@pytest.mark.parametrize("kwargs,field,rule_id", [
    (dict(tp=3), "layout.tp", "llmcost.layout.tp_divides_heads"),
    (dict(ep=2), "layout.ep", None),
    (dict(tp=0), "tp", "llmcost.argument.whole_number"),
    (dict(tp=2.5), "tp", "llmcost.argument.whole_number"),
    (dict(tp=4, gpus=6), "gpus", "llmcost.layout.gpus_multiple_of_replica"),
    (dict(tp=2, dp=2, gpus=8), "gpus", "llmcost.layout.gpus_match"),
])
def test_impossible_layouts(kwargs, field, rule_id):
    e = refused(**kwargs)
    assert e.field == field
    if rule_id:
        assert e.id == rule_id


def test_impossible_loads():
    assert "does not fit" in refused(batch=100000).rule
    assert "does not fit" in str(refused(model="Llama-3.1-405B", tp=2, batch=1))
    e = refused(input=199000, output=1000)
    assert "max_position" in e.rule and "ignore_max_position=True" in e.rule
    ok = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=199000, output=1000, batch=1, ignore_max_position=True)
    assert ok.ttft_s > 0
    e = refused(saturate=True)
    assert e.field == "batch" and e.id == "llmcost.argument.excludes"
    e = refused(max_batch=64)
    assert e.field == "max_batch"


# Token, sequence and request counts are whole, as `llmcost` reads --input, --batch … (audit 40, F8):
# a fraction is refused naming the argument, in every function that takes one.
@pytest.mark.parametrize("field,value", [("input", 1000.5), ("output", 200.7), ("batch", 2.5),
                                         ("max_tokens", 8192.5), ("prefill_chunk", 512.25)])
def test_fractional_counts_refused_by_estimate(field, value):
    call = {field: value}
    if field == "max_tokens":
        call.update(batch=None)
    e = refused(**call)
    assert e.field == field and e.id == "llmcost.argument.whole_number" and e.value == value


@pytest.mark.parametrize("call,field", [
    (lambda: llmcost.kv("Llama-3.1-8B", "H100", context=4096, batch=2.5), "batch"),
    (lambda: llmcost.kv("Llama-3.1-8B", "H100", context=4096.5, batch=2), "context"),
    (lambda: llmcost.spec("Llama-3.1-70B", "H100", tp=8, input=1000, output=200, batch=2.5, acceptance=0.8,
                          draft_tokens=3, drafter="eagle"), "batch"),
    (lambda: llmcost.spec("Llama-3.1-70B", "H100", tp=8, input=1000.5, output=200, batch=1, acceptance=0.8,
                          draft_tokens=3, drafter="eagle"), "input"),
    (lambda: llmcost.disagg("Llama-3.1-70B", "H100", tp=8, input=4000, output=300.5, ttft=1, tpot=0.05), "output"),
    (lambda: llmcost.disagg("Llama-3.1-70B", "H100", tp=8, input=4000, output=300, ttft=1, tpot=0.05, chunk=511.5),
     "chunk"),
    (lambda: llmcost.simulate("Llama-3.1-8B", "H100", rate=1, requests=10.5), "requests"),
    (lambda: llmcost.simulate("Llama-3.1-8B", "H100", concurrency=2.5, requests=10), "concurrency"),
    (lambda: llmcost.simulate("Llama-3.1-8B", "H100", rate=1, requests=10, max_batch=7.5), "max_batch"),
    (lambda: llmcost.sweep("Llama-3.1-8B", ["H100"], input=[1000, 1000.5], output=[200], batch=[1]), "input"),
    (lambda: llmcost.sweep("Llama-3.1-8B", ["H100"], input=[1000], output=[200], batch=[1, 2.5]), "batch"),
    (lambda: llmcost.frontier("Llama-3.1-8B", "H100", input=1000, output=200.5, ttft=1, tpot=0.05), "output"),
    (lambda: llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(1000.5, 200, 1.0)], ttft=1, tpot=0.05),
     "mix input"),
    (lambda: llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(1000, 200, 1.0)], ttft=1, tpot=0.05,
                          max_gpus=8.5), "max_gpus"),
])
def test_fractional_counts_refused_everywhere(call, field):
    with pytest.raises(llmcost.InvalidInput) as err:
        call()
    assert err.value.field == field and err.value.id == "llmcost.argument.whole_number"


def test_whole_counts_still_accepted_as_floats():
    a = llmcost.estimate("Llama-3.1-8B", "H100", input=1000.0, output=200.0, batch=2.0)
    b = llmcost.estimate("Llama-3.1-8B", "H100", input=1000, output=200, batch=2)
    assert a.output_tokens_per_s == b.output_tokens_per_s


# batch=0 is not a way to ask for saturation (audit 40, F9): the CLI refuses --batch 0; saturation is
# batch=None or saturate=True.
def test_batch_zero_refused():
    e = refused(batch=0)
    assert e.field == "batch" and e.id == "llmcost.argument.range" and "saturate=True" in e.rule
    assert llmcost.estimate("Llama-3.1-8B", "H100", input=1000, output=200, batch=None).batch > 1


# rate= takes the one bound every command's --rate takes, 10^6 requests/s (review s40c: Python ran rate=1e300).
@pytest.mark.parametrize("call", [
    lambda r: llmcost.simulate("Llama-3.1-8B", "H100", rate=r, requests=10),
    lambda r: llmcost.plan("Llama-3.1-8B", ["H100"], rate=r, mix=[(1000, 200, 1.0)], ttft=1, tpot=0.05),
])
def test_rate_above_the_tools_bound_refused(call):
    with pytest.raises(llmcost.InvalidInput) as err:
        call(1e300)
    assert err.value.field == "rate" and err.value.id == "llmcost.argument.range" and "1e6" in err.value.rule
    with pytest.raises(llmcost.InvalidInput) as err:
        call(2e6)
    assert err.value.id == "llmcost.argument.range"


# simulate(ignore_max_position=True) lifts the context rule, as `llmcost simulate --ignore-max-position` (review s40c):
# Llama-3.1-8B's max_position is 131,072; 140,000 + 200 tokens is past it.
def test_simulate_ignore_max_position():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.simulate("Llama-3.1-8B", "H100", rate=0.01, requests=2, input_dist="140000", output_dist="200")
    assert "max_position" in str(err.value)
    r = llmcost.simulate("Llama-3.1-8B", "H100", rate=0.01, requests=2, input_dist="140000", output_dist="200",
                         ignore_max_position=True)
    assert r.requests == 2
    # The refusal names the switch that lifts it, in the library's one wording (`sim::simulate_naming_lift`), as
    # `llmcost simulate` names --ignore-max-position.
    assert err.value.id == "llmcost.model.context_within_max_position"
    assert err.value.rule.endswith("; pass ignore_max_position=True to simulate it anyway")


def test_estimate_rate_above_what_the_deployment_sustains_states_that_rate():
    # As `llmcost estimate --input 2000 --output 300 --max-batch 8 --rate 10` (cli.bad.rate_above_max_batch): B = 8
    # sequences in steps of t(B) emit 925.5 tokens/s, so at most 925.5 / 300 = 3.085 requests/s (online_rate_cap);
    # the library's one message (`serve_online_latency_at_rate`) names rate where the tool names --rate.
    base = dict(input=2000, output=300, max_batch=8)
    with pytest.raises(llmcost.InvalidInput) as e:
        llmcost.estimate("Llama-3.1-8B", "H100", rate=10, **base)
    assert e.value.id == "llmcost.serving.online_cap"
    assert "B = 8 sequences (max batch)" in e.value.rule
    assert "the deployment sustains rate below 3.085 requests/s (λ* = B ÷ (O·t̄(B)))" in e.value.rule
    # Two attention ranks: rate is the whole deployment's, twice one rank's.
    with pytest.raises(llmcost.InvalidInput, match=r"sustains rate below 6\.17 requests/s .* = 3\.085 per attention rank × 2"):
        llmcost.estimate("Llama-3.1-8B", "H100", rate=10, gpus=2, dp=2, **base)
    # Below the ceiling it is priced: the arrivals' λ·O is the output rate (3 × 300 = 900 tokens/s).
    ok = llmcost.estimate("Llama-3.1-8B", "H100", rate=3, **base)
    assert ok.limited_by == "arrival rate" and ok.output_tokens_per_s == pytest.approx(900, rel=1e-12)
    for bad in (dict(rate=0), dict(rate=float("nan")), dict(rate=1, batch=4), dict(rate=1, saturate=True)):
        with pytest.raises(llmcost.InvalidInput) as e:
            llmcost.estimate("Llama-3.1-8B", "H100", **dict(base, **bad))
        assert e.value.field == "rate"


def test_malformed_config_file_names_file_line_and_column():
    with pytest.raises(llmcost.LoadError) as err:
        llmcost.Model.from_hf_config(FIXTURES / "bad" / "syntax_error.json")
    e = err.value
    assert e.path.endswith("syntax_error.json") and e.line == 4 and e.column > 0
    assert f"syntax_error.json:{e.line}:{e.column}" in str(e)
    with pytest.raises(llmcost.LoadError) as err:
        llmcost.Model.from_hf_config(FIXTURES / "no-such-dir" / "config.json")
    assert "no such file" in err.value.rule


def test_malformed_config_dict_names_the_key():
    good = json.loads((FIXTURES / "hf" / "Llama-3.1-8B" / "config.json").read_text())
    with pytest.raises(llmcost.LoadError) as err:
        llmcost.Model.from_hf_config({**good, "num_attention_heads": "thirty-two"})
    assert err.value.field == "num_attention_heads" and "string" in err.value.rule
    with pytest.raises(llmcost.LoadError) as err:
        llmcost.Model.from_hf_config({**good, "num_key_value_heads": 7})
    assert err.value.field == "num_key_value_heads"
    with pytest.raises(llmcost.InvalidInput):
        llmcost.Model.from_hf_config(42)


def test_bad_descriptor_fields():
    m = llmcost.Model.named("Llama-3.1-8B")
    with pytest.raises(llmcost.InvalidInput) as err:
        m.replace(colour="blue")
    assert err.value.field == "colour" and err.value.id == "llmcost.argument.unknown_field"
    with pytest.raises(llmcost.InvalidInput) as err:
        m.replace(parameters=1)
    assert err.value.field == "parameters"
    with pytest.raises(llmcost.InvalidInput) as err:
        m.replace(layers=-1)
    assert err.value.field == "layers"
    with pytest.raises(llmcost.InvalidInput) as err:
        m.replace(kv_heads=7)  # the library's rule: KV heads divide the query heads
    assert "kv_heads" in err.value.field
    with pytest.raises(llmcost.InvalidInput):
        llmcost.Model()  # nothing given: the library's validate() says what is missing
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Hardware.named("H100").replace(hbm_bandwidth_B_per_s=float("nan"))
    assert math.isnan(err.value.value)


def test_errors_in_the_other_commands():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.kv("Llama-3.1-70B", "H100", tp=8, context=-5, batch=1)
    assert err.value.field == "context (tokens)"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.spec("Llama-3.1-70B", "H100", tp=8, input=1000, output=200, batch=1, acceptance=0.8,
                     draft_tokens=3, drafter="mtp")
    assert err.value.field == "mtp_modules"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.disagg("Llama-3.1-70B", "H100", tp=8, input=4000, output=300, ttft=1, tpot=0.05, path="carrier pigeon")
    assert err.value.field == "path"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.sweep("Llama-3.1-70B", ["H100"], input=[1000], output=[200], batch=[0.5])
    assert err.value.field == "batch"


# ---- sweeps and NumPy ------------------------------------------------------------------------------

def test_sweep_shapes_dtypes_and_zero_copy():
    s = llmcost.sweep("Llama-3.1-70B", ["H100", "B200"], tp=[2, 3, 4, 8], weights=[None, "fp8"],
                      input=[1000, 4000], output=[200], batch=np.arange(1, 65, dtype=float))
    n = 2 * 2 * 4 * 2 * 1 * 64
    assert len(s) == n
    for name in ("ttft_s", "tpot_s", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user", "e2e_s",
                 "requests_per_s_per_gpu", "prefill_per_decode"):
        a = getattr(s, name)
        assert a.shape == (n,) and a.dtype == np.float64, name
    assert s.status.dtype == np.uint8 and s.fits.dtype == np.bool_
    assert s.ttft_s.base is not None and not s.ttft_s.flags.writeable, "a read-only view, not a copy"
    assert s.tpot_s.ctypes.data == s.tpot_s.ctypes.data
    c = s.coordinates()
    assert set(c) == {"gpu", "format", "tp", "pp", "ep", "dp", "disaggregated", "input_tokens", "output_tokens", "batch"}
    assert all(v.shape == (n,) for v in c.values())
    invalid = s.status == s.status_names.index("invalid deployment")
    assert np.array_equal(invalid, c["tp"] == 3), "tp 3 breaks tp_divides_heads, and only it"
    assert np.all(np.isnan(s.ttft_s[invalid]))
    assert s.gpus == ["H100 SXM5", "B200 (HGX)"] or s.gpus[0] == "H100 SXM5"
    assert s.formats == [(None, None), ("fp8", None)]


def test_sweep_point_equals_the_scalar_estimate():
    s = llmcost.sweep("Llama-3.1-70B", "H100", tp=[8], input=[2000], output=[500], batch=[1, 32])
    for i, b in enumerate((1, 32)):
        e = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=b)
        assert s.tpot_s[i] == e.tpot_s and s.ttft_s[i] == e.ttft_s
        assert s.output_tokens_per_s_per_gpu[i] == e.output_tokens_per_s_per_gpu


def test_sweep_keeps_the_result_alive_through_its_arrays():
    a = llmcost.sweep("Llama-3.1-8B", "H100", input=[128], output=[128], batch=[1, 2, 3]).tpot_s
    import gc
    gc.collect()
    assert a.shape == (3,) and np.all(a > 0)


def test_sweep_to_pandas():
    pd = pytest.importorskip("pandas")
    s = llmcost.sweep("Llama-3.1-8B", ["H100", "H200"], input=[128], output=[128], batch=[1, 8])
    df = s.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    assert list(df["hardware"].astype(str)) == ["H100 SXM5"] * 2 + ["H200 SXM"] * 2


# ---- frontier, plan, calibrate -----------------------------------------------------------------------

def test_frontier_matches_the_tools_table():
    # llmcost frontier --hardware H100,B200 --tp 2,4,8 --weights fp8 --max-batch 128  (input 1000, output 200, 2 s, 50 ms)
    f = llmcost.frontier("Llama-3.1-70B", ["H100", "B200"], tp=[2, 4, 8], weights="fp8", input=1000, output=200,
                         ttft=2, tpot=0.05, max_batch=128)
    assert f.kind == "frontier"
    first = {k: v[0] for k, v in f.to_dict().items()}
    assert (first["hardware"], first["weights"], first["kv"], first["tp"], first["batch"]) == ("B200 (HGX)", "fp8", "bf16", 2, 128)
    assert shown(first["ttft_s"]) == 49.48e-3 and shown(first["tpot_s"]) == 36.29e-3
    assert shown(first["output_tokens_per_s_per_gpu"]) == 1755
    per_user = f.tokens_per_s_per_user
    per_gpu = f.output_tokens_per_s_per_gpu
    assert per_user == sorted(per_user) and per_gpu == sorted(per_gpu, reverse=True), "a Pareto frontier"


def test_sweep_frontier_indices():
    s = llmcost.sweep("Llama-3.1-70B", ["H100", "B200"], tp=[2, 4, 8], weights="fp8", input=1000, output=200,
                      batch=list(range(1, 65)) + list(range(72, 129, 8)))
    front = s.frontier(ttft=2, tpot=0.05)
    assert front.dtype == np.int64 and front.ndim == 1 and len(front) > 0
    assert np.all(s.fits[front]) and np.all(s.tpot_s[front] <= 0.05)
    assert np.all(np.diff(s.tokens_per_s_per_user[front]) > 0)
    f = llmcost.frontier("Llama-3.1-70B", ["H100", "B200"], tp=[2, 4, 8], weights="fp8", input=1000, output=200,
                         ttft=2, tpot=0.05, max_batch=128)
    assert list(s.tpot_s[front]) == f.tpot_s


def test_plan_matches_the_tools_json():
    # llmcost plan --model Llama-3.1-8B --hardware H100,H200 --rate 20 --input 2000 --output 500 --ttft 1 --tpot 0.05 --format json
    golden = json.loads((EXPECTED / "plan.json").read_text())["rows"]
    p = llmcost.plan("Llama-3.1-8B", ["H100", "H200"], rate=20, mix=[(2000, 500, 1)], ttft=1, tpot=0.05)
    assert len(p.options) == len(golden)
    assert p.best == p.options[0]
    for got, want in zip(p.options, golden):
        for key, v in want.items():
            if key == "layout":
                continue
            if isinstance(v, (str, bool, list)) or v is None:  # a list: words (excluded_modules)
                assert got[key] == v, key
            else:
                assert printed(got[key]) == v, key
    assert p.points > 0


def test_plan_bad_input():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.plan("Llama-3.1-8B", ["H100"], rate=-1, mix=[(2000, 500, 1)], ttft=1, tpot=0.05)
    assert err.value.field == "requests_per_second"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(2000, 500)], ttft=1, tpot=0.05)
    assert err.value.field == "mix"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(2000, 500, 1)], ttft=1, tpot=0.05, prices={"H1OO": 2})
    assert err.value.field == "prices" and err.value.id == "llmcost.catalog.unknown_name"


def test_calibrate_matches_the_tools_table():
    # llmcost calibrate examples/cli/measurements_example.csv --with-uncertainty  (--free hbm,matmul, coverage 0.8)
    c = llmcost.calibrate(SOURCE / "examples" / "cli" / "measurements_example.csv", free=["hbm", "matmul"], coverage=0.8)
    assert (c.hardware, c.rows, c.dof, c.converged) == ("H100 SXM5", 5, 3, True)
    # The golden examples/cli/expected/calibrate.txt (refitted in session 52: the H100's runtime total moves T05's batch).
    assert shown(c.rss) == 0.0643 and shown(c.sigma) == 0.1464
    assert shown(c.parameters["hbm"]["value"]) == 0.8663
    assert shown(c.parameters["matmul"]["standard_error"]) == 0.08263
    assert c.correlation.shape == (2, 2) and shown(c.correlation[0, 1]) == -0.3518
    t01 = next(r for r in c.predictions if r["id"] == "T01")
    assert shown(t01["predicted"]) == 2.669e4 and shown(100 * t01["error"], 3) == -7.45
    assert t01["low"] < t01["predicted"] < t01["high"]


def test_calibrate_bad_input():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.calibrate(SOURCE / "examples" / "cli" / "measurements_example.csv", free=["speed"])
    assert err.value.field == "free" and "hbm" in err.value.rule
    with pytest.raises(llmcost.LoadError) as err:
        llmcost.calibrate(SOURCE / "no-such.csv", free=["hbm"])
    assert err.value.path.endswith("no-such.csv")


def test_estimate_call_mistakes_are_type_errors_naming_the_argument():
    with pytest.raises(TypeError, match="missing required argument 'output'"):
        llmcost.estimate("Llama-3.1-70B", "H100", input=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        llmcost.estimate("Llama-3.1-70B", "H100", input=1, output=1, colour=2)
    with pytest.raises(TypeError, match="2 positional arguments"):
        llmcost.estimate("Llama-3.1-70B", "H100", 2000)
    with pytest.raises(TypeError, match="multiple values for argument 'model'"):
        llmcost.estimate("Llama-3.1-70B", "H100", model="x", input=1, output=1)
    by_keyword = llmcost.estimate(model="Llama-3.1-8B", hardware="H100", input=128, output=128, batch=4)
    assert by_keyword.to_dict() == llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=4).to_dict()
    import inspect
    assert list(inspect.signature(llmcost.estimate).parameters)[:4] == ["model", "hardware", "input", "output"]


def test_estimate_names_one_list_in_the_binding_its_docstring_and_the_stub():
    # The binding's one list (estimate_spec, held to estimate()'s arity in C++) gives its keyword names, its defaults
    # and the docstring's signature; the .pyi stub's names, in the same order, and its defaults must be the
    # docstring's, and each default the docstring shows is one the binding accepts and prices as the default.
    import ast
    import inspect
    import pathlib
    documented = inspect.signature(llmcost.estimate).parameters
    stub = ast.parse((pathlib.Path(llmcost.__file__).parent / "__init__.pyi").read_text())
    (node,) = [n for n in stub.body if isinstance(n, ast.FunctionDef) and n.name == "estimate"]
    stubbed = [a.arg for a in node.args.args + node.args.kwonlyargs]
    assert list(documented) == stubbed
    # The stub's defaults (positional ones aligned to the end of args; keyword-only ones, None where required).
    positional = node.args.args
    stub_defaults = dict(zip([a.arg for a in positional[len(positional) - len(node.args.defaults):]], node.args.defaults))
    stub_defaults.update({a.arg: d for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None})
    for name, p in documented.items():
        if p.default is inspect.Parameter.empty:
            assert name not in stub_defaults, name
        else:
            assert name in stub_defaults and ast.literal_eval(stub_defaults[name]) == p.default, name
    assert [p.kind for p in documented.values()][:3] == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * 2 + [
        inspect.Parameter.KEYWORD_ONLY]
    base = {"input": 128, "output": 128, "batch": 4}
    plain = llmcost.estimate("Llama-3.1-8B", "H100", **base).to_dict()
    for name, p in list(documented.items())[2:]:
        if p.default is inspect.Parameter.empty or name in base:
            continue
        assert llmcost.estimate("Llama-3.1-8B", "H100", **base, **{name: p.default}).to_dict() == plain, name


def test_estimate_docstring_states_the_sglang_cdna4_long_context_factor_with_its_source():
    # SGLang's aiter backend (CDNA4) scales mem_fraction_static above a context threshold, the launch's fraction
    # included (server_args.py l.1419-1422 @7ae368efd): a user who passes kv_memory_fraction= reads it. The docstring
    # names where the figures live (the engines.csv column, the C++ constant), not copies of them.
    doc = " ".join(llmcost.estimate.__doc__.split())
    assert "long_context_fraction_scale (tables/engines.csv)" in doc
    assert "llmcost::long_context_fraction_tokens" in doc
    assert "0.85" not in doc and "8,192" not in doc
    assert "server_args.py l.1419-1422 @7ae368efd" in doc


def test_a_new_sweep_never_writes_into_arrays_still_held():
    # the module reuses the memory of a result Python has let go of; a view keeps its result alive
    a = llmcost.sweep("Llama-3.1-8B", "H100", input=[128], output=[128], batch=[1, 2, 3]).tpot_s
    before = a.copy()
    for _ in range(3):
        b = llmcost.sweep("Llama-3.1-70B", "H100", tp=8, input=[4000], output=[500], batch=[5, 6, 7]).tpot_s
        assert np.array_equal(a, before) and not np.array_equal(a, b)
    again = llmcost.sweep("Llama-3.1-70B", "H100", tp=8, input=[4000], output=[500], batch=[5, 6, 7])
    assert np.array_equal(again.tpot_s, b)


# ---- per-layer patterns, and a prefix hit and speculation on sweeps (issue 19) ------------------------

CONFIGS = SOURCE / "tables" / "configs"


def test_the_per_layer_pattern_fields_read_list_and_build():
    # Llama-4-Maverick's config.json: chunked RoPE layers, every 4th full; MoE in every other layer.
    m = llmcost.Model.from_hf_config(CONFIGS / "Llama-4-Maverick-17B-128E-Instruct", name="Llama-4-Maverick")
    assert m == llmcost.Model.named("Llama-4-Maverick")
    assert (m.layer_pattern, m.attention_chunk, m.moe_layer_step, m.moe_layers) == ("CCCF", 8192, 2, 24)
    assert m.layer_counts == {"full": 12, "window": 0, "chunked": 36, "state": 0, "ffn_only": 0}
    # 48·62,924,800 + 24·(129·125,829,120 + 655,360) + 24·251,658,240 + 2·202048·5120 + 5120 (hand-worked)
    assert m.parameters == 400_711_848_960
    assert m.kv_bytes_per_token == 48 * 4096 and m.state_bytes_per_sequence == 0
    # Nemotron-H: a Mamba2 state in 24 of 52 blocks, split mixer / FFN blocks.
    n = llmcost.Model.named("Nemotron-H-8B")
    assert n.split_blocks and n.norms_per_layer == 1 and n.state_kind == "mamba2"
    assert (n.state_heads, n.state_head_dim, n.state_dim, n.state_groups, n.state_conv_kernel) == (128, 64, 128, 8, 4)
    assert n.layer_counts == {"full": 4, "window": 0, "chunked": 0, "state": 24, "ffn_only": 24}
    # state: 128·64·128 recurrent + 3·(8192 + 2·8·128) convolution = 1,079,296 elements, 2 B, 24 layers
    assert n.state_bytes_per_sequence == (128 * 64 * 128 + 3 * (8192 + 2 * 8 * 128)) * 2 * 24
    q = llmcost.Model.named("Qwen3-Next-80B-A3B")
    assert (q.state_kind, q.output_gate, q.qk_norm, q.shared_expert_gate) == ("gated_delta_net", True, True, True)
    # Listing: every catalog model carries its pattern (empty: the older full/window form).
    by_name = {x.name: x for x in llmcost.models()}
    assert by_name["gemma-3-27b"].layer_pattern == "WWWWWF" and by_name["Llama-3.1-70B"].layer_pattern == ""
    assert by_name["gpt-oss-20b"].sinks
    # Built from the fields: a Scout-like model with all layers full keeps every token in every layer.
    scout = llmcost.Model.named("Llama-4-Scout")
    full = scout.replace(layer_pattern="F", attention_chunk=0, name="Scout, all full")
    assert full.layer_counts["full"] == 48 and full.parameters == scout.parameters
    assert llmcost.Model(**{k: v for k, v in q.to_dict().items()
                            if k not in ("attention", "parameters", "active_parameters", "kv_bytes_per_token",
                                         "layer_counts", "moe_layers", "state_bytes_per_sequence")}) == q


def test_the_per_layer_pattern_fields_refuse_what_breaks_a_rule():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Model.named("Llama-4-Scout").replace(layer_pattern="CCXF")
    assert err.value.field == "pattern.kinds"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Model.named("Nemotron-H-8B").replace(state_kind="lstm")
    assert err.value.field == "state_kind"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.Model.named("Llama-4-Maverick").replace(moe_layer_step=0)
    assert err.value.field == "ffn.moe_layer_step"


def test_sweep_prefix_hit_and_speculation_colocated_and_disaggregated():
    kw = dict(tp=[1], input=[4000], output=[300], batch=[8], disaggregated=[False, True])
    plain = llmcost.sweep("Llama-3.1-8B", "H100", **kw)
    hit = llmcost.sweep("Llama-3.1-8B", "H100", prefix_hit=0.5, **kw)
    spec = llmcost.sweep("Llama-3.1-8B", "H100", acceptance=0.7, draft_tokens=3, **kw)
    # Colocated (point 0) and disaggregated (point 1): a hit shortens the first token; speculation
    # (E = 2.533 tokens a step) shortens TPOT.
    assert np.all(hit.ttft_s < plain.ttft_s)
    assert np.all(spec.tpot_s < plain.tpot_s)
    assert hit.tpot_s[1] == plain.tpot_s[1], "the decode pool does not see the prefix cache"
    # Colocated, the sweep is estimate's figure to the last bit.
    e = llmcost.estimate("Llama-3.1-8B", "H100", input=4000, output=300, batch=8)
    assert plain.tpot_s[0] == e.tpot_s
    # frontier and plan take the same arguments.
    f = llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], input=4000, output=300, ttft=2, tpot=0.05, max_batch=16,
                         disaggregated=[False, True], prefix_hit=0.5, acceptance=0.7, draft_tokens=3)
    assert len(f.tpot_s) > 0 and max(f.tpot_s) <= 0.05
    p = llmcost.plan("Llama-3.1-70B", "H200", rate=20, mix=[(4000, 300, 1)], ttft=2, tpot=0.05, prefix_hit=0.5,
                     acceptance=0.7, draft_tokens=3)
    assert p.best is not None and {o["mode"] for o in p.options} == {"colocated", "disaggregated"}
    q = llmcost.plan("Llama-3.1-70B", "H200", rate=20, mix=[(4000, 300, 1)], ttft=2, tpot=0.05)
    assert p.best["usd_per_million_output_tokens"] < q.best["usd_per_million_output_tokens"]


def test_sweep_speculation_and_prefix_hit_bad_input():
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.sweep("Llama-3.1-8B", "H100", input=[100], output=[10], batch=[1], prefix_hit=1.0)
    assert err.value.field == "prefix_hit" and err.value.value == 1.0
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.sweep("Llama-3.1-8B", "H100", input=[100], output=[10], batch=[1], draft_tokens=3)
    assert err.value.field == "acceptance"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.sweep("Llama-3.1-8B", "H100", input=[100], output=[10], batch=[1], acceptance=0.5)
    assert err.value.field == "acceptance"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.frontier("Llama-3.1-8B", "H100", input=100, output=10, ttft=1, tpot=0.1, acceptance=0.5,
                         draft_tokens=2, drafter="Llama-3.1-8B")
    assert err.value.field == "drafter"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.plan("Llama-3.1-8B", "H100", rate=1, mix=[(100, 10, 1)], ttft=1, tpot=0.1, acceptance=0.5,
                     draft_tokens=2, drafter="mtp")
    assert err.value.field == "mtp_modules"
    with pytest.raises(llmcost.InvalidInput) as err:
        llmcost.sweep("Llama-3.1-8B", "H100", input=[100], output=[10], batch=[1], acceptance=1.5, draft_tokens=2)
    assert err.value.field == "acceptance"


# ---- kv_memory_fraction= (a launch's KV memory fraction, as `llmcost … --kv-memory-fraction`) ----------------

def test_kv_memory_fraction_matches_the_tools_json():
    # llmcost estimate --model Llama-3.1-8B --hardware H100 --engine vllm --kv-memory-fraction 0.5 --input 1000
    #                  --output 200 --saturate --format json
    golden = json.loads((EXPECTED / "estimate_kv_memory_fraction.json").read_text())
    e = llmcost.estimate("Llama-3.1-8B", "H100", input=1000, output=200, saturate=True, engine="vllm",
                         kv_memory_fraction=0.5)
    assert_matches_golden(e, golden)


def test_kv_memory_fraction_sizes_the_pool_by_the_engines_rule_by_hand():
    # Llama-3.1-8B BF16 on one H100: H = 85,045,477,376 B (CUDA's total, session 52), W = 16,060,522,496 B, 131,072 B
    # of KV a token; vLLM and TensorRT-LLM on Hopper: X = 738,197,504 B activations + 3,758,096,384 B runtime.
    H, W, X, per_token = 85_045_477_376, 16_060_522_496, 738_197_504 + 3_758_096_384, 131_072
    base = dict(input=128, output=128, batch=1)

    def room(engine, f):
        return llmcost.estimate("Llama-3.1-8B", "H100", engine=engine, kv_memory_fraction=f, **base).kv_capacity_tokens

    # The room is shown in whole KV blocks, floor(K / B) * B (`kv_capacity_whole_blocks`): vLLM's block_size 16,
    # SGLang's page_size 1, TensorRT-LLM's tokens_per_block 32, the reference engine's 1 (not paged).
    def blocks(k, b):
        return math.floor(k / b) * b

    assert (0.5 * H - W - X) / per_token == 21_965_922_304 / per_token == 167_586.6875
    assert room("vllm", 0.5) == blocks((0.5 * H - W - X) / per_token, 16) == 167_584          # f·H − W − X
    R = 2175 * 2**20  # SGLang on Hopper's memory resident at init, 2,280,652,800 B (engines.csv init_resident_MiB)
    assert room("sglang", 0.5) == blocks((0.5 * (H - R) - W) / per_token, 1)                  # f·(H − R) − W
    assert room("trtllm", 0.5) == blocks(0.5 * (H - W - X) / per_token, 32)                   # f·(H − W − X)
    assert room(None, 0.5) == blocks((0.5 * H - 2e9 - W) / per_token, 1)                      # the reference engine
    # None is the engine's own default (vLLM's 0.9): the same as saying it.
    assert room("vllm", None) == room("vllm", 0.9)


def test_kv_memory_fraction_grows_the_pool_and_reaches_sweep_and_simulate():
    for engine in (None, "vllm", "sglang", "trtllm"):
        rooms = [llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, engine=engine,
                                  kv_memory_fraction=f).kv_capacity_tokens for f in (0.3, 0.5, 0.7, 0.9, 1.0)]
        assert rooms == sorted(rooms) and len(set(rooms)) == len(rooms)
    # The sweep prices the same deployment. 64 sequences of 4,500 tokens in use (vLLM admits on the KV in use,
    # I + O/2: 37.7 GB of KV; the reference engine reserves 5,000, 41.9 GB) fit vLLM's pool at
    # its 0.9 (55.98 GB) and not at 0.5 (21.97 GB); the reference engine's likewise (62.73 GB at 0.95, 24.46 GB; the
    # H100 at CUDA's 85,045,477,376 B, session 52).
    s = llmcost.sweep("Llama-3.1-8B", "H100", input=[4000], output=[1000], batch=[1, 64], engine="vllm",
                      kv_memory_fraction=0.5)
    e = llmcost.estimate("Llama-3.1-8B", "H100", input=4000, output=1000, batch=1, engine="vllm", kv_memory_fraction=0.5)
    assert s.tpot_s[0] == e.tpot_s and s.ttft_s[0] == e.ttft_s
    assert list(s.fits) == [True, False]
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", input=[4000], output=[1000], batch=[1, 64], engine="vllm").fits) == [True, True]
    # Without an engine, the sweep's reference engine takes the fraction.
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", input=[4000], output=[1000], batch=[64], kv_memory_fraction=0.5).fits) == [False]
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", input=[4000], output=[1000], batch=[64]).fits) == [True]
    r = llmcost.simulate("Llama-3.1-8B", "H100", rate=1, requests=20, engine="vllm", kv_memory_fraction=0.5)
    assert r.requests == 20


def test_kv_block_tokens_prices_whole_blocks_by_hand():
    # TensorRT-LLM reserves each whole sequence: 1,000 -> 1,000 tokens in 32-token blocks hold ceil(2000/32)*32 =
    # 2,016 slots, so the KV-bound batch is floor(K / 2,016) rather than floor(K / 2,000) (PagedAttention §4.2-4.3).
    base = dict(input=1000, output=1000, engine="trtllm")
    for b, slots in ((32, 2016), (1, 2000), (16, 2000), (48, 2016), (64, 2048)):
        e = llmcost.estimate("Llama-3.1-8B", "H100", kv_block_tokens=b, **base)
        assert e.limited_by == "KV capacity"
        assert e.batch == math.floor(e.kv_capacity_tokens / slots)
    # None is the engine's own block (TensorRT-LLM's tokens_per_block 32): the same as saying it.
    assert llmcost.estimate("Llama-3.1-8B", "H100", **base).batch == \
        llmcost.estimate("Llama-3.1-8B", "H100", kv_block_tokens=32, **base).batch
    for bad in (0, 1.5, -16, 65537, float("nan")):
        with pytest.raises(llmcost.InvalidInput, match="a whole number of tokens per KV block") as e:
            llmcost.estimate("Llama-3.1-8B", "H100", kv_block_tokens=bad, **base)
        assert e.value.field == "kv_block_tokens" and e.value.id == "llmcost.engine.kv_block_tokens"


def test_kv_admission_in_use_by_hand():
    # NVIDIA's MLPerf v5.1 B200 Llama-2-70B Offline launch (docs/paged-kv-blocks.md, "Admission on the KV in use"):
    # a whole-sequence reserve holds ceil(495 / 32) * 32 = 512 slots a sequence, floor(K / 512) = 1,728 (K ≈ 884,892 on
    # the B200's runtime total, session 52: tests/unit/unit-kv-blocks.cpp); on the KV in
    # use (TensorRT-LLM MAX_UTILIZATION, batch_scheduler_policy max_util) 222 + 273/2 + 31/2 = 374 slots leave room
    # for more than the step's token budget runs: 3,584 * 273 / 495 = 1,976.7 -> 1,977.
    base = dict(input=222, output=273, gpus=8, dp=8, weights="fp4", kv="fp8", engine="trtllm", kv_memory_fraction=0.95,
                saturate=True, max_batch=2048, max_tokens=3584)
    whole = llmcost.estimate("Llama-2-70B", "B200 (HGX)", **base)
    assert whole.limited_by == "KV capacity" and whole.batch == 1728
    assert whole.batch == math.floor(whole.kv_capacity_tokens / 512)
    assert llmcost.estimate("Llama-2-70B", "B200 (HGX)", kv_admission="reserve", **base).batch == 1728
    in_use = llmcost.estimate("Llama-2-70B", "B200 (HGX)", kv_admission="in_use", **base)
    assert in_use.limited_by == "max tokens per step" and in_use.batch == 1977
    assert math.floor(whole.kv_capacity_tokens / 374) > 1977
    with pytest.raises(llmcost.InvalidInput, match="reserve or in_use") as e:
        llmcost.estimate("Llama-2-70B", "B200 (HGX)", kv_admission="max_util", **base)
    assert e.value.field == "kv_admission" and e.value.id == "llmcost.serving.kv_admission"
    # An empty word is the engine's rule, as the CLI's --kv-admission "" and the table's empty cell read it.
    assert llmcost.estimate("Llama-2-70B", "B200 (HGX)", kv_admission="", **base).batch == 1728


def test_kv_memory_fraction_refusals_use_the_tools_words():
    for bad in (0, -0.5, 1.5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"must be in \(0, 1\]") as e:
            llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, engine="vllm", kv_memory_fraction=bad)
        assert isinstance(e.value, llmcost.InvalidInput) and e.value.field == "kv_memory_fraction"
    with pytest.raises(llmcost.InvalidInput, match="kv_memory_fraction = '0.5': must be a number, got str"):
        llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, kv_memory_fraction="0.5")
    with pytest.raises(ValueError, match=r"must be in \(0, 1\]"):
        llmcost.sweep("Llama-3.1-8B", "H100", input=[128], output=[128], batch=[1], kv_memory_fraction=2)
    with pytest.raises(ValueError, match=r"must be in \(0, 1\]"):
        llmcost.simulate("Llama-3.1-8B", "H100", rate=1, kv_memory_fraction=0)
    # A fraction that leaves no pool: the library's does-not-fit, naming the rule and the fraction.
    with pytest.raises(llmcost.InvalidInput,
                       match="does not fit.*share_of_total at kv_memory_fraction 0.2 leaves -3.548 GB for KV") as e:
        llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, engine="vllm", kv_memory_fraction=0.2)
    assert e.value.id == "llmcost.fit.weights"


# ---- engine= and kv_memory_fraction= on kv, spec, disagg, frontier and plan (as the commands' flags) --------

def test_kv_with_an_engine_matches_the_tools_json():
    # llmcost kv --model Llama-3.1-8B --hardware H100 --engine vllm --kv-memory-fraction 0.5 --context 8192 --format json
    golden = json.loads((EXPECTED / "kv_memory_fraction.json").read_text())
    r = llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine="vllm", kv_memory_fraction=0.5)
    assert_matches_golden(r, golden)


def test_kv_block_tokens_on_every_deployment_surface():
    # kv_block_tokens= reaches every function that builds a deployment (one helper, `deployment_of` / `engines_arg`),
    # as `llmcost kv|simulate|spec|disagg|frontier|plan --kv-block-tokens`: a bad block is refused by the library's rule,
    # naming kv_block_tokens, on each.
    calls = {
        "kv": lambda b: llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine="trtllm", kv_block_tokens=b),
        "simulate": lambda b: llmcost.simulate("Llama-3.1-8B", "H100", rate=1, requests=5, engine="trtllm",
                                               kv_block_tokens=b),
        "spec": lambda b: llmcost.spec("Llama-3.1-8B", "H100", engine="trtllm", kv_block_tokens=b),
        "disagg": lambda b: llmcost.disagg("Llama-3.1-8B", "H100", input=1000, output=200, ttft=2, tpot=0.05,
                                           engine="trtllm", kv_block_tokens=b),
        "sweep": lambda b: llmcost.sweep("Llama-3.1-8B", "H100", input=[1000], output=[1000], batch=[1],
                                         engine="trtllm", kv_block_tokens=b),
        "frontier": lambda b: llmcost.frontier("Llama-3.1-8B", "H100", input=1000, output=200, ttft=2, tpot=0.05, tp=[1],
                                               engine="trtllm", kv_block_tokens=b),
        "plan": lambda b: llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(1000, 200, 1)], ttft=2, tpot=0.05,
                                       engine="trtllm", kv_block_tokens=b),
    }
    for name, call in calls.items():
        assert call(64) is not None, name
        with pytest.raises(llmcost.InvalidInput, match="a whole number of tokens per KV block") as e:
            call(0)
        assert e.value.field == "kv_block_tokens" and e.value.id == "llmcost.engine.kv_block_tokens", name
    # By hand, as estimate: TensorRT-LLM reserves 1,000 + 1,000 tokens, 2,000 slots in blocks of 1 or 16 and
    # ceil(2000/64)*64 = 2,048 in blocks of 64; the batch of floor(K / 2,000) sequences fits under 1 and not under 64.
    base = dict(input=1000, output=1000, engine="trtllm")
    b1 = llmcost.estimate("Llama-3.1-8B", "H100", kv_block_tokens=1, **base)
    b64 = llmcost.estimate("Llama-3.1-8B", "H100", kv_block_tokens=64, **base)
    assert b1.batch == math.floor(b1.kv_capacity_tokens / 2000) > b64.batch == math.floor(b64.kv_capacity_tokens / 2048)
    grid = dict(input=[1000], output=[1000], batch=[b1.batch], engine="trtllm")
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", kv_block_tokens=1, **grid).fits) == [True]
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", kv_block_tokens=64, **grid).fits) == [False]
    # Without an engine the sweep's reference engine takes the block (its own is 1).
    ref = dict(input=[1000], output=[1000], batch=[b1.batch])
    assert list(llmcost.sweep("Llama-3.1-8B", "H100", **ref).fits) == \
        list(llmcost.sweep("Llama-3.1-8B", "H100", kv_block_tokens=1, **ref).fits)
    # kv: the room for one sequence in whole blocks, floor(K / B) * B.
    for b in (1, 64, 256):
        k = llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine="trtllm", kv_block_tokens=b)
        assert k.max_context_tokens_at_batch_1 % b == 0
    # disagg: the block reaches the priced decode pool, not only the validator. 1,000 + 200 tokens hold 1,200 slots in
    # 1-token blocks and one 4,096-token block; the same pool K fits floor(K / 1,200) and floor(K / 4,096) sequences, so
    # the second is floor(b1 * 1,200 / 4,096) here (373 -> 109).
    dis = dict(input=1000, output=200, ttft=2, tpot=1.0, engine="trtllm")
    d1 = llmcost.disagg("Llama-3.1-8B", "H100", kv_block_tokens=1, **dis).disaggregated_decode_batch
    d4096 = llmcost.disagg("Llama-3.1-8B", "H100", kv_block_tokens=4096, **dis).disaggregated_decode_batch
    assert d4096 == math.floor(d1 * 1200 / 4096) < d1
    # simulate: blocks of 64 waste more of the pool than blocks of 1 on the same requests.
    sim = dict(rate=2, requests=50, engine="trtllm", input_dist="1000", output_dist="100")
    assert llmcost.simulate("Llama-3.1-8B", "H100", kv_block_tokens=64, **sim).mean_kv_share > \
        llmcost.simulate("Llama-3.1-8B", "H100", kv_block_tokens=1, **sim).mean_kv_share


def test_kv_pool_at_two_fractions_by_hand():
    # Llama-3.1-8B BF16 on one H100 (docs/kv-pool.md): H = 85,045,477,376 B, the total CUDA reports (session 52),
    # W = 16,060,522,496 B of weights, X = 738,197,504 B of activations + 3,758,096,384 B of runtime (vLLM and
    # TensorRT-LLM on Hopper).
    H, W, X = 85_045_477_376, 16_060_522_496, 738_197_504 + 3_758_096_384
    per_sequence = 8192 * 131_072  # 8,192 tokens × 131,072 B of KV a token = 1,073,741,824 B

    def pool(engine, f):
        return llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine=engine,
                          kv_memory_fraction=f).kv_budget_bytes_per_gpu

    # vLLM, f·H − W − X: 0.5 × H − W − X = 21,965,922,304 B (20 sequences); 0.9 × H − W − X = 55,984,113,254.4 B (52).
    assert pool("vllm", 0.5) == 21_965_922_304
    assert pool("vllm", 0.9) == pytest.approx(55_984_113_254.4, rel=1e-15)
    assert llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine="vllm",
                      kv_memory_fraction=0.5).max_sequences_at_context == 21_965_922_304 // per_sequence == 20
    # The difference between two fractions is Δf × H under vLLM, Δf × (H − R) under SGLang (R its 2,175 MiB resident
    # at init; W and X do not move) and
    # Δf × (H − W − X) under TensorRT-LLM, whose fraction is of the memory left after the weights and X.
    assert pool("vllm", 0.9) - pool("vllm", 0.5) == pytest.approx(0.4 * H, rel=1e-12)
    assert pool("sglang", 0.9) - pool("sglang", 0.5) == pytest.approx(0.4 * (H - 2175 * 2**20), rel=1e-12)  # f·(H − R) − W
    assert pool("trtllm", 0.9) - pool("trtllm", 0.5) == pytest.approx(0.4 * (H - W - X), rel=1e-12)
    assert pool(None, 0.9) - pool(None, 0.5) == pytest.approx(0.4 * H, rel=1e-12)  # the reference engine, f·H − 2 GB − W
    assert pool(None, 0.5) == 0.5 * H - 2e9 - W == 24_462_216_192
    # None: the engine's own fraction (vLLM's 0.9); no engine: the reference engine's 0.95.
    assert pool("vllm", None) == pool("vllm", 0.9)
    assert llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1).kv_budget_bytes_per_gpu == pool(None, 0.95)


def test_an_unknown_engine_is_refused_by_name_everywhere():
    calls = {
        "kv": lambda e: llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine=e),
        "spec": lambda e: llmcost.spec("Llama-3.1-8B", "H100", input=1000, output=200, batch=1, acceptance=0.8,
                                       draft_tokens=3, drafter="eagle", engine=e),
        "disagg": lambda e: llmcost.disagg("Llama-3.1-8B", "H100", input=1000, output=200, ttft=1, tpot=0.05, engine=e),
        "frontier": lambda e: llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=[1], input=1000, output=200,
                                               ttft=1, tpot=0.05, engine=e),
        "plan": lambda e: llmcost.plan("Llama-3.1-8B", "H100", rate=1, mix=[(1000, 200, 1)], ttft=1, tpot=0.05, engine=e),
    }
    for name, call in calls.items():
        with pytest.raises(llmcost.InvalidInput, match="engine = 'tgi': is not an engine; the engines are trtllm, vllm, sglang") as e:
            call("tgi")
        assert e.value.field == "engine" and e.value.value == "tgi", name
        # An engine with no profile for the GPU's architecture: the library's refusal, naming the alternatives.
        with pytest.raises(llmcost.InvalidInput, match="vllm has no profile for ampere GPUs; engines with a profile there: none"):
            {"kv": lambda: llmcost.kv("Llama-3.1-8B", "A100 SXM 80GB", context=8192, batch=1, engine="vllm"),
             "spec": lambda: llmcost.spec("Llama-3.1-8B", "A100 SXM 80GB", input=1000, output=200, batch=1,
                                          acceptance=0.8, draft_tokens=3, drafter="eagle", engine="vllm"),
             "disagg": lambda: llmcost.disagg("Llama-3.1-8B", "H100", decode_hardware="A100 SXM 80GB", input=1000,
                                              output=200, ttft=1, tpot=0.05, engine="vllm"),  # the decode pool's GPU
             "frontier": lambda: llmcost.frontier("Llama-3.1-8B", ["H100", "A100 SXM 80GB"], tp=[1], batch=[1],
                                                  input=1000, output=200, ttft=1, tpot=0.05, engine="vllm"),
             "plan": lambda: llmcost.plan("Llama-3.1-8B", ["H100", "A100 SXM 80GB"], rate=1, mix=[(1000, 200, 1)],
                                          ttft=1, tpot=0.05, engine="vllm")}[name]()
        with pytest.raises(llmcost.InvalidInput, match=r"must be in \(0, 1\]"):
            {"kv": lambda: llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, kv_memory_fraction=1.5),
             "spec": lambda: llmcost.spec("Llama-3.1-8B", "H100", input=1000, output=200, batch=1, acceptance=0.8,
                                          draft_tokens=3, drafter="eagle", kv_memory_fraction=0),
             "disagg": lambda: llmcost.disagg("Llama-3.1-8B", "H100", input=1000, output=200, ttft=1, tpot=0.05,
                                              kv_memory_fraction=float("nan")),
             "frontier": lambda: llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=[1], input=1000, output=200,
                                                  ttft=1, tpot=0.05, kv_memory_fraction=-0.5),
             "plan": lambda: llmcost.plan("Llama-3.1-8B", "H100", rate=1, mix=[(1000, 200, 1)], ttft=1, tpot=0.05,
                                          kv_memory_fraction=2)}[name]()


def test_spec_and_disagg_price_with_the_engine():
    base = dict(input=1000, output=200, batch=1, acceptance=0.8, draft_tokens=3, drafter="eagle")
    ref = llmcost.spec("Llama-3.1-8B", "H100", **base)
    vllm = llmcost.spec("Llama-3.1-8B", "H100", engine="vllm", **base)
    # vLLM's profile on Hopper adds its launch cost per kernel to every pass (tables/engines.csv): a longer
    # plain step than the reference engine's.
    assert vllm.plain_step_s > ref.plain_step_s
    assert llmcost.spec("Llama-3.1-8B", "H100", engine=None, **base).to_dict() == ref.to_dict()
    # A draft model runs on the same engine: its drafting takes longer too.
    draft = dict(base, drafter="Llama-3.1-8B", tp=8)
    assert (llmcost.spec("Llama-3.1-70B", "H100", engine="vllm", **draft).draft_s >
            llmcost.spec("Llama-3.1-70B", "H100", **draft).draft_s)
    # As `llmcost spec`: the batch must fit the engine's pool at the launch's fraction (vLLM at 0.2 leaves
    # 0.2 × 85.05 GB − 16.06 GB − 4.50 GB = −3.548 GB, the H100 at CUDA's total).
    with pytest.raises(llmcost.InvalidInput, match="share_of_total at kv_memory_fraction 0.2 leaves -3.548 GB for KV"):
        llmcost.spec("Llama-3.1-8B", "H100", engine="vllm", kv_memory_fraction=0.2, **base)
    d = dict(input=4000, output=300, ttft=2, tpot=0.05)
    small = llmcost.disagg("Llama-3.1-8B", "H100", engine="vllm", kv_memory_fraction=0.4, **d)
    large = llmcost.disagg("Llama-3.1-8B", "H100", engine="vllm", kv_memory_fraction=0.9, **d)
    # A smaller pool holds fewer sequences in either mode, both pools sized by the one fraction.
    assert small.disaggregated_decode_batch < large.disaggregated_decode_batch
    assert large.to_dict() == llmcost.disagg("Llama-3.1-8B", "H100", engine="vllm", **d).to_dict()  # vLLM's own 0.9
    assert large.disaggregated_tpot_s != llmcost.disagg("Llama-3.1-8B", "H100", **d).disaggregated_tpot_s


def test_frontier_and_plan_price_with_the_engine():
    kw = dict(input=4000, output=1000, ttft=5, tpot=0.1)
    batches = [1, 16, 64]
    f = llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=batches, engine="vllm", kv_memory_fraction=0.5, **kw)
    s = llmcost.sweep("Llama-3.1-8B", "H100", tp=[1], input=[4000], output=[1000], batch=batches, engine="vllm",
                      kv_memory_fraction=0.5)
    # The frontier's points are the sweep's, priced by the same engine at the same fraction.
    assert len(f.index) > 0
    for i, tpot, ttft in zip(f.index, f.tpot_s, f.ttft_s):
        assert (s.tpot_s[i], s.ttft_s[i]) == (tpot, ttft)
    # 64 sequences of 5,000 tokens (41.9 GB of KV) do not fit vLLM's pool at 0.5 (21.97 GB), and do at its own 0.9.
    assert 64 not in f.batch
    assert 64 in llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=batches, engine="vllm", **kw).batch
    ref = llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=batches, **kw)
    assert ref.tpot_s != llmcost.frontier("Llama-3.1-8B", "H100", tp=[1], batch=batches, engine="vllm", **kw).tpot_s
    # plan: every GPU type named runs the engine; its figures are the engine's.
    p = dict(rate=5, mix=[(2000, 500, 1)], ttft=1, tpot=0.05)
    vllm = llmcost.plan("Llama-3.1-8B", ["H100"], engine="vllm", **p)
    plain = llmcost.plan("Llama-3.1-8B", ["H100"], **p)
    assert vllm.best is not None and plain.best is not None
    assert vllm.best["tpot_s"] != plain.best["tpot_s"]
    assert llmcost.plan("Llama-3.1-8B", ["H100"], engine="vllm", kv_memory_fraction=0.9, **p).to_dict() == vllm.to_dict()


# ---- host_loop= (vLLM's V0 LLMEngine loop), as the tool's --host-loop v0 -----------------------------------------

def v0_figures_us():
    """vLLM on Hopper's fitted V0 pass figures a0, a1, h (µs) as tables/engines.csv holds them."""
    with open(SOURCE / "tables" / "engines.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["name"] == "vLLM on Hopper")
    return float(row["v0_pass_us"]), float(row["v0_pass_rank_us"]), float(row["v0_pass_sequence_us"])


def test_host_loop_v0_adds_the_pass_to_every_step_by_hand():
    # vLLM V0 pays its scheduler pass t_host = a0 + a1 (tp - 1) + h n on the host every step, serial with the GPU, n
    # the sequences the step schedules (docs/vllm-v0-host-loop.md); at TP1 the a1 term is 0. tables/engines.csv:
    # a0 = 934.3, h = 72.33 µs. A fixed batch of n opens with one prompt step of its n prompts, so its TTFT grows by
    # a0 + h n: n = 1, 1,006.63 µs; n = 16, 934.3 + 1,157.28 = 2,091.58 µs. At batch 1 each decode step schedules the
    # one sequence, so the TPOT grows by a0 + h = 1,006.63 µs too.
    a0, _, h = v0_figures_us()
    base = dict(input=128, output=128, engine="vllm")
    for n in (1, 16):
        v1 = llmcost.estimate("Llama-3.1-8B", "H100", batch=n, **base)
        v0 = llmcost.estimate("Llama-3.1-8B", "H100", batch=n, host_loop="v0", **base)
        assert v0.ttft_s - v1.ttft_s == pytest.approx((a0 + h * n) * 1e-6, rel=1e-9), n
        if n == 1:
            assert v0.tpot_s - v1.tpot_s == pytest.approx((a0 + h) * 1e-6, rel=1e-9)
        else:  # a steady decode step of 16 also schedules its share of the next prompts: at least the 16 sequences
            assert v0.tpot_s - v1.tpot_s >= (a0 + h * n) * 1e-6 * (1 - 1e-9)
    # None is the engine's own loop (V1 for vllm): the same as not saying it.
    assert llmcost.estimate("Llama-3.1-8B", "H100", batch=4, host_loop=None, **base).tpot_s == \
        llmcost.estimate("Llama-3.1-8B", "H100", batch=4, **base).tpot_s


def test_host_loop_v0_at_tp2_adds_a1_by_hand():
    # TP2, a fixed batch of 8: its prompt step pays a0 + a1 + 8 h = 934.3 + 349.1 + 578.64 = 1,862.04 µs.
    a0, a1, h = v0_figures_us()
    base = dict(input=128, output=128, engine="vllm", tp=2, batch=8)
    v1 = llmcost.estimate("Llama-3.1-8B", "H100", **base)
    v0 = llmcost.estimate("Llama-3.1-8B", "H100", host_loop="v0", **base)
    assert v0.ttft_s - v1.ttft_s == pytest.approx((a0 + a1 + 8 * h) * 1e-6, rel=1e-9)


def test_host_loop_refusals_name_the_field_and_the_word():
    base = dict(input=128, output=128, batch=1)
    # Another engine (or none: the reference engine): only vLLM runs the V0 loop, naming engine and its word.
    for engine, word in (("trtllm", "trtllm"), ("sglang", "sglang"), (None, "reference")):
        with pytest.raises(llmcost.InvalidInput, match="only vLLM runs the V0 LLMEngine loop") as e:
            llmcost.estimate("Llama-3.1-8B", "H100", engine=engine, host_loop="v0", **base)
        assert e.value.field == "engine" and word in str(e.value), engine
    # A vLLM profile with no V0 pass figures (CDNA3's): refused, not priced as V1, naming host_loop = v0.
    with pytest.raises(llmcost.InvalidInput, match="host_loop = v0: this profile has no V0 scheduler-pass figures") as e:
        llmcost.estimate("Llama-3.1-8B", "MI300X", engine="vllm", host_loop="v0", **base)
    assert e.value.field == "host_loop"
    # A word the tool does not take (--host-loop takes v0 only).
    for bad in ("v1", "V0", "none", ""):
        with pytest.raises(llmcost.InvalidInput, match="one of 'v0'") as e:
            llmcost.estimate("Llama-3.1-8B", "H100", engine="vllm", host_loop=bad, **base)
        assert e.value.field == "host_loop", bad


def test_host_loop_on_every_deployment_surface():
    # host_loop= reaches every function that takes engine= (`deployment_of` / `engines_arg`): 'v0' on vLLM Hopper
    # prices, and on TensorRT-LLM it is refused by the library's rule naming engine, on each.
    calls = {
        "estimate": lambda e: llmcost.estimate("Llama-3.1-8B", "H100", input=128, output=128, batch=1, engine=e,
                                               host_loop="v0"),
        "simulate": lambda e: llmcost.simulate("Llama-3.1-8B", "H100", rate=1, requests=5, engine=e, host_loop="v0"),
        "spec": lambda e: llmcost.spec("Llama-3.1-8B", "H100", engine=e, host_loop="v0"),
        "disagg": lambda e: llmcost.disagg("Llama-3.1-8B", "H100", input=1000, output=200, ttft=2, tpot=0.05, engine=e,
                                           host_loop="v0"),
        "sweep": lambda e: llmcost.sweep("Llama-3.1-8B", "H100", input=[1000], output=[1000], batch=[1], engine=e,
                                         host_loop="v0"),
        "frontier": lambda e: llmcost.frontier("Llama-3.1-8B", "H100", input=1000, output=200, ttft=2, tpot=0.05, tp=[1],
                                               engine=e, host_loop="v0"),
        "plan": lambda e: llmcost.plan("Llama-3.1-8B", ["H100"], rate=1, mix=[(1000, 200, 1)], ttft=2, tpot=0.05,
                                       engine=e, host_loop="v0"),
    }
    for name, call in calls.items():
        assert call("vllm") is not None, name
        with pytest.raises(llmcost.InvalidInput, match="only vLLM runs the V0 LLMEngine loop") as e:
            call("trtllm")
        assert e.value.field == "engine", name
    # kv prices memory, not a step: host_loop= is refused saying so, as `llmcost kv --host-loop v0` and as its
    # eager_prompt= is, on vLLM Hopper (which estimate takes it on) and on any other engine alike; None is accepted.
    why = ("kv prices memory (the KV footprint and where it spills), not a step, so no scheduler pass's host time "
           "enters it; estimate, simulate, spec, cost and disagg read it (in Python also sweep, frontier and plan)")
    assert llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine="vllm", host_loop=None) is not None
    for engine in ("vllm", "trtllm"):
        with pytest.raises(llmcost.InvalidInput) as refused:
            llmcost.kv("Llama-3.1-8B", "H100", context=8192, batch=1, engine=engine, host_loop="v0")
        assert (refused.value.field, refused.value.value, refused.value.rule) == ("host_loop", "v0", why), engine
        assert refused.value.id == "llmcost.argument.not_taken"
        assert "host_loop = 'v0': " + why in str(refused.value)
    # The sweep prices the pass too: a decode step of 1 sequence at TP1, a0 + h longer than V1's.
    a0, _, h = v0_figures_us()
    grid = dict(input=[1000], output=[1000], batch=[1], engine="vllm")
    v1 = llmcost.sweep("Llama-3.1-8B", "H100", **grid).tpot_s[0]
    v0 = llmcost.sweep("Llama-3.1-8B", "H100", host_loop="v0", **grid).tpot_s[0]
    assert v0 - v1 == pytest.approx((a0 + h) * 1e-6, rel=1e-9)


def test_a2a_dispatch_cap_sizes_the_padded_moe_grid_by_hand():
    # MORI-EP's padded receive buffer (docs/mi355x-disagg-decode.md section 6): SGLang on MI355X runs each of
    # DeepSeek-V3's 58 MoE layers over N_blk = ceil((W C k + 32 E - k) / 32) m-blocks at c = 7.504 ns a block
    # (tables/engines.csv padded_moe_block_ns), W = 8 ranks (DEP8), k = 8, E = 256, C the per-rank dispatch cap:
    #   C = 16384: (1,048,576 + 8,192 - 8) / 32 = 33,023.75 -> 33,024
    #   C = 4096 (SGLang's default: a2a_dispatch_cap=None): (262,144 + 8,184) / 32 = 8,447.75 -> 8,448
    #   C = 1024: (65,536 + 8,184) / 32 = 2,303.75 -> 2,304
    # Every step pays 58 c N_blk, so against the default a step is 58 x 24,576 x 7.504 ns = 10.696261632 ms longer at
    # C = 16384 and 58 x 6,144 x 7.504 ns = 2.674065408 ms shorter at C = 1024 (eager_prompt='0': no prompt launch
    # that could hide part of it; the batch fixed, so the steps' mixture is the same).
    kw = dict(engine="sglang", ep=8, dp=8, input=1000, output=1000, batch=16, eager_prompt="0")
    base = llmcost.estimate("DeepSeek-V3", "MI355X", **kw)
    big = llmcost.estimate("DeepSeek-V3", "MI355X", a2a_dispatch_cap=16384, **kw)
    small = llmcost.estimate("DeepSeek-V3", "MI355X", a2a_dispatch_cap=1024, **kw)
    assert big.decode_step_s - base.decode_step_s == pytest.approx(10.696261632e-3, rel=1e-9)
    assert base.decode_step_s - small.decode_step_s == pytest.approx(2.674065408e-3, rel=1e-9)
    assert llmcost.estimate("DeepSeek-V3", "MI355X", a2a_dispatch_cap=4096, **kw).decode_step_s == base.decode_step_s
    # TEP8 runs no all-to-all: no buffer, whatever the cap.
    tep = dict(kw, ep=8, dp=None, tp=8)
    assert llmcost.estimate("DeepSeek-V3", "MI355X", a2a_dispatch_cap=16384, **tep).decode_step_s == \
        llmcost.estimate("DeepSeek-V3", "MI355X", **tep).decode_step_s
    # sweep (so frontier and plan, through the same engines): the same 10.696 ms on the step at batch 16.
    grid = dict(input=[1000], output=[1000], batch=[16], ep=[8], dp=[8], engine="sglang", eager_prompt="0")
    s0 = llmcost.sweep("DeepSeek-V3", "MI355X", **grid)
    s1 = llmcost.sweep("DeepSeek-V3", "MI355X", a2a_dispatch_cap=16384, **grid)
    assert s1.tpot_s[0] - s0.tpot_s[0] == pytest.approx(10.696261632e-3, rel=1e-9)
    front = dict(input=1000, output=1000, ttft=100, tpot=10, ep=[8], dp=[8], engine="sglang")
    assert llmcost.frontier("DeepSeek-V3", "MI355X", a2a_dispatch_cap=16384, **front) is not None
    assert llmcost.plan("DeepSeek-V3", ["MI355X"], rate=1, mix=[(1000, 1000, 1)], ttft=100, tpot=10, engine="sglang",
                        a2a_dispatch_cap=16384) is not None
    # A bad cap is refused by the library's rule on every surface; kv refuses any, as `llmcost kv` does.
    for call in (lambda c: llmcost.estimate("DeepSeek-V3", "MI355X", a2a_dispatch_cap=c, **kw),
                 lambda c: llmcost.sweep("DeepSeek-V3", "MI355X", a2a_dispatch_cap=c, **grid),
                 lambda c: llmcost.simulate("DeepSeek-V3", "MI355X", rate=1, requests=5, engine="sglang", ep=8, dp=8,
                                            a2a_dispatch_cap=c)):
        for bad in (16.5, 0, 1048577):
            with pytest.raises(llmcost.InvalidInput, match="a whole number of tokens a rank may dispatch") as e:
                call(bad)
            assert e.value.field == "a2a_dispatch_cap"
    with pytest.raises(llmcost.InvalidInput, match="kv prices memory") as e:
        llmcost.kv("DeepSeek-V3", "MI355X", context=2000, batch=1, engine="sglang", ep=8, dp=8, a2a_dispatch_cap=16384)
    assert e.value.field == "a2a_dispatch_cap"
