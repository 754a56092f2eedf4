"""llmcost: LLM inference priced from first principles — the C++ cost model, from Python.

    >>> import llmcost
    >>> e = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=32)
    >>> e.tpot_s, e.output_tokens_per_s_per_gpu, e.usd_per_million_output_tokens

Every figure comes from the C++ library (the extension ``llmcost._core``), the same functions the
``llmcost`` tool calls, with its field names: SI values, the unit in the name (``ttft_s``,
``kv_bytes_per_token``, ``usd_per_million_output_tokens``). Bad input raises
:class:`InvalidInput` or :class:`LoadError` (both ``ValueError``) with ``field``, ``value``,
``rule`` and the rule's stable ``id`` (docs/troubleshooting.md).
"""

from ._core import (
    Estimate,
    Hardware,
    InvalidInput,
    LoadError,
    Model,
    Result,
    SweepResult,
    disagg,
    estimate,
    calibrate,
    formats,
    frontier,
    hardware,
    kv,
    models,
    plan,
    simulate,
    spec,
    sweep,
)

__all__ = [
    "Estimate",
    "Hardware",
    "InvalidInput",
    "LoadError",
    "Model",
    "Result",
    "SweepResult",
    "disagg",
    "estimate",
    "calibrate",
    "formats",
    "frontier",
    "hardware",
    "kv",
    "models",
    "plan",
    "simulate",
    "spec",
    "sweep",
]
