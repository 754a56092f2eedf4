# Type stubs of the llmcost Python module (the extension llmcost._core), for editors and type
# checkers. The docstrings live in the extension (help(llmcost.estimate)).
import os
from typing import Any, Iterable, Literal, Sequence, Union

import numpy as np
import numpy.typing as npt

__all__: list[str]

_Number = Union[int, float, np.floating[Any], np.integer[Any]]
_Numbers = Union[_Number, Iterable[_Number], npt.NDArray[np.float64]]
_ModelArg = Union[str, Model]
_HardwareArg = Union[str, Hardware]

class InvalidInput(ValueError):
    """A value that breaks a rule of the cost model, an argument of the wrong type, or an unknown name."""
    subject: str
    field: str
    value: Any
    rule: str
    id: str  # the rule's stable id (docs/troubleshooting.md), "" where it has none

class LoadError(ValueError):
    """A config.json (file or dict) that cannot be read."""
    path: str
    line: int  # 1-based; 0 when not applicable
    column: int
    field: str  # the JSON key
    value: str
    rule: str
    id: str

class Model:
    """A model descriptor (frozen): keyword constructor, replace(), to_dict()."""
    def __init__(self, *, name: str = ..., layers: int = ..., hidden: int = ..., vocab: int = ...,
                 tied_embeddings: bool = ..., query_heads: int = ..., kv_heads: int = ..., head_dim: int = ...,
                 sliding_window: int = ..., sliding_window_layers: int = ..., intermediate: int = ...,
                 routed_experts: int = ..., shared_experts: int = ..., top_k: int = ..., expert_intermediate: int = ...,
                 first_dense_layers: int = ..., max_position: int = ..., weights: str = ..., kv_cache: str = ...,
                 activations: str = ..., mtp_modules: int = ...) -> None: ...
    def replace(self, *, name: str = ..., layers: int = ..., hidden: int = ..., vocab: int = ...,
                tied_embeddings: bool = ..., query_heads: int = ..., kv_heads: int = ..., head_dim: int = ...,
                sliding_window: int = ..., sliding_window_layers: int = ..., intermediate: int = ...,
                routed_experts: int = ..., shared_experts: int = ..., top_k: int = ..., expert_intermediate: int = ...,
                first_dense_layers: int = ..., max_position: int = ..., weights: str = ..., kv_cache: str = ...,
                activations: str = ..., mtp_modules: int = ...) -> Model: ...
    @staticmethod
    def named(name: str) -> Model: ...
    @staticmethod
    def from_hf_config(path_or_dict: Union[str, os.PathLike[str], dict[str, Any]], name: str | None = None) -> Model: ...
    def to_dict(self) -> dict[str, Any]: ...
    @property
    def name(self) -> str: ...
    @property
    def layers(self) -> int: ...
    @property
    def hidden(self) -> int: ...
    @property
    def vocab(self) -> int: ...
    @property
    def tied_embeddings(self) -> bool: ...
    @property
    def attention(self) -> Literal["standard", "latent"]: ...
    @property
    def query_heads(self) -> int: ...
    @property
    def kv_heads(self) -> int: ...
    @property
    def head_dim(self) -> int: ...
    @property
    def sliding_window(self) -> int: ...
    @property
    def sliding_window_layers(self) -> int: ...
    @property
    def intermediate(self) -> int: ...
    @property
    def routed_experts(self) -> int: ...
    @property
    def shared_experts(self) -> int: ...
    @property
    def top_k(self) -> int: ...
    @property
    def expert_intermediate(self) -> int: ...
    @property
    def first_dense_layers(self) -> int: ...
    @property
    def max_position(self) -> int: ...
    @property
    def weights(self) -> str: ...
    @property
    def kv_cache(self) -> str: ...
    @property
    def activations(self) -> str: ...
    @property
    def mtp_modules(self) -> int: ...
    @property
    def parameters(self) -> float: ...
    @property
    def active_parameters(self) -> float: ...
    @property
    def kv_bytes_per_token(self) -> float: ...

class Hardware:
    """A GPU descriptor (frozen): replace(), to_dict(); SI figures, the unit in the name."""
    def __init__(self, *, name: str = ..., hbm_capacity_B: float = ..., hbm_bandwidth_B_per_s: float = ...,
                 bf16_flop_per_s: float = ..., fp8_flop_per_s: float = ..., fp4_flop_per_s: float = ...,
                 int8_flop_per_s: float = ..., board_power_W: float = ..., idle_power_W: float = ...,
                 scale_up_B_per_s: float = ..., scale_up_domain: int = ..., scale_out_B_per_s: float = ...,
                 gpus_per_node: int = ..., capex_usd: float = ..., status: str = ...) -> None: ...
    def replace(self, *, name: str = ..., hbm_capacity_B: float = ..., hbm_bandwidth_B_per_s: float = ...,
                bf16_flop_per_s: float = ..., fp8_flop_per_s: float = ..., fp4_flop_per_s: float = ...,
                int8_flop_per_s: float = ..., board_power_W: float = ..., idle_power_W: float = ...,
                scale_up_B_per_s: float = ..., scale_up_domain: int = ..., scale_out_B_per_s: float = ...,
                gpus_per_node: int = ..., capex_usd: float = ..., status: str = ...) -> Hardware: ...
    @staticmethod
    def named(name: str) -> Hardware: ...
    def to_dict(self) -> dict[str, Any]: ...
    @property
    def name(self) -> str: ...
    @property
    def hbm_capacity_B(self) -> float: ...
    @property
    def hbm_bandwidth_B_per_s(self) -> float: ...
    @property
    def bf16_flop_per_s(self) -> float: ...
    @property
    def fp8_flop_per_s(self) -> float: ...
    @property
    def fp4_flop_per_s(self) -> float: ...
    @property
    def int8_flop_per_s(self) -> float: ...
    @property
    def board_power_W(self) -> float: ...
    @property
    def idle_power_W(self) -> float: ...
    @property
    def scale_up_B_per_s(self) -> float: ...
    @property
    def scale_up_domain(self) -> int: ...
    @property
    def scale_out_B_per_s(self) -> float: ...
    @property
    def gpus_per_node(self) -> int: ...
    @property
    def capex_usd(self) -> float: ...
    @property
    def status(self) -> str: ...

class Estimate:
    """The fields of `llmcost estimate --format json`."""
    model: str
    hardware: str
    gpus: int
    tp: int
    pp: int
    ep: int
    dp: int
    weights: str  # the format name, as weights= takes it back
    excluded_modules: list[str]  # the modules kept out of it (excluded_modules= words); [] when none
    kept_format: str | None  # their format; None when none is kept
    kv: str
    input_tokens: float
    output_tokens: float
    batch: float
    limited_by: str
    ttft_s: float
    tpot_s: float
    e2e_s: float
    prefill_s: float
    decode_step_s: float
    step_memory_bound: bool
    output_tokens_per_s: float
    output_tokens_per_s_per_gpu: float
    tokens_per_s_per_user: float
    kv_bytes_per_token: float
    weight_bytes_per_gpu: float
    kv_capacity_tokens: float
    energy_j_per_output_token: float
    wall_energy_j_per_output_token: float
    wh_per_request: float
    wall_wh_per_request: float
    usd_per_gpu_hour: float | None
    pricing: str  # "market", "committed", "tco" (no price listed, or asked for) or "given"
    usd_basis: str  # the GPU-hour price with its source and date, or "unknown"
    usd_per_million_output_tokens: float | None
    def to_dict(self) -> dict[str, Any]: ...

class Result:
    """A command's figures (kv, spec, disagg): attributes, r["key"], to_dict()."""
    kind: str
    def to_dict(self) -> dict[str, Any]: ...
    def keys(self) -> Iterable[str]: ...
    def __getitem__(self, key: str) -> Any: ...
    def __getattr__(self, key: str) -> Any: ...

class SweepResult:
    """Every grid point's figures as NumPy arrays."""
    status_names: list[str]
    def __len__(self) -> int: ...
    @property
    def ttft_s(self) -> npt.NDArray[np.float64]: ...
    @property
    def tpot_s(self) -> npt.NDArray[np.float64]: ...
    @property
    def output_tokens_per_s_per_gpu(self) -> npt.NDArray[np.float64]: ...
    @property
    def status(self) -> npt.NDArray[np.uint8]: ...
    @property
    def tokens_per_s_per_user(self) -> npt.NDArray[np.float64]: ...
    @property
    def e2e_s(self) -> npt.NDArray[np.float64]: ...
    @property
    def requests_per_s_per_gpu(self) -> npt.NDArray[np.float64]: ...
    @property
    def prefill_per_decode(self) -> npt.NDArray[np.float64]: ...
    @property
    def fits(self) -> npt.NDArray[np.bool_]: ...
    @property
    def gpus(self) -> list[str]: ...
    @property
    def formats(self) -> list[tuple[str | None, str | None]]: ...
    def coordinates(self) -> dict[str, npt.NDArray[Any]]: ...
    def frontier(self, *, ttft: _Number, tpot: _Number, shape: int | None = None,
                 disaggregated: bool | None = None) -> npt.NDArray[np.int64]: ...
    def to_pandas(self) -> Any: ...

def models() -> list[Model]: ...
def hardware() -> list[Hardware]: ...
def formats() -> list[dict[str, Any]]: ...

def estimate(model: _ModelArg, hardware: _HardwareArg, *, input: _Number, output: _Number,
             batch: _Number | None = None, saturate: bool = False, tp: int = 1, pp: int = 1, ep: int = 1,
             dp: int | None = None, gpus: int | None = None, weights: str | None = None, kv: str | None = None,
             max_batch: _Number = 0, max_tokens: _Number = 0, prefill_chunk: _Number = 0,
             usd_per_gpu_hour: _Number | None = None, utilisation: _Number = 1.0,
             ignore_max_position: bool = False,
             engine: Literal["trtllm", "vllm", "sglang"] | None = None,
             kv_memory_fraction: _Number | None = None,
             excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
             eager_prompt: Literal["overlap", "serial", "0"] | None = None,
             gemm_table: Literal["mi325x-llama2-70b-server", "mi325x-llama2-70b-spx1700"] | None = None,
             clock_MHz: _Number | None = None, quick_reduce: Literal["int4", "none"] | None = None,
             kv_block_tokens: _Number | None = None, rate: _Number | None = None,
             host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None,
             kv_admission: Literal["reserve", "in_use"] | None = None) -> Estimate: ...

def kv(model: _ModelArg, hardware: _HardwareArg, *, context: _Number, batch: _Number, tp: int = 1, pp: int = 1,
       ep: int = 1, dp: int | None = None, gpus: int | None = None, weights: str | None = None,
       kv: str | None = None, ignore_max_position: bool = False,
       engine: Literal["trtllm", "vllm", "sglang"] | None = None,
       kv_memory_fraction: _Number | None = None,
       excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
       eager_prompt: None = None,  # any other value is refused (InvalidInput)
       kv_block_tokens: _Number | None = None, host_loop: Literal["v0"] | None = None,
       a2a_dispatch_cap: _Number | None = None) -> Result: ...

def spec(model: _ModelArg, hardware: _HardwareArg, *, input: _Number, output: _Number, batch: _Number,
         acceptance: _Number, draft_tokens: int, drafter: Union[Literal["eagle", "mtp"], str, Model],
         target: _Number | None = None, tp: int = 1, pp: int = 1, ep: int = 1, dp: int | None = None,
         gpus: int | None = None, weights: str | None = None, kv: str | None = None,
         ignore_max_position: bool = False, engine: Literal["trtllm", "vllm", "sglang"] | None = None,
         kv_memory_fraction: _Number | None = None,
         excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
         eager_prompt: Literal["overlap", "serial", "0"] | None = None,
         gemm_table: str | None = None, clock_MHz: _Number | None = None,
         quick_reduce: Literal["int4", "none"] | None = None, kv_block_tokens: _Number | None = None,
         host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None) -> Result: ...

def simulate(model: _ModelArg, hardware: _HardwareArg, *, rate: _Number | None = None,
             concurrency: _Number | None = None, arrivals: Literal["poisson", "gamma"] = "poisson", cv: _Number = 1.0,
             input_dist: str = "1000", output_dist: str = "200", trace: str | None = None, requests: int = 1000,
             seed: int = 1, max_batch: _Number = 0, max_tokens: _Number = 0, prefill_chunk: _Number = 0,
             optimistic: bool = False, ttft: _Number | None = None, tpot: _Number | None = None, tp: int = 1,
             pp: int = 1, ep: int = 1, dp: int | None = None, gpus: int | None = None, weights: str | None = None,
             kv: str | None = None, dataset: str | None = None, preemption: Literal["recompute", "swap"] = "recompute",
             prefix_hit_rate: _Number = 0.0, prefill_servers: int = 0,
             engine: Literal["trtllm", "vllm", "sglang"] | None = None,
             kv_memory_fraction: _Number | None = None,
             excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
             eager_prompt: Literal["overlap", "serial", "0"] | None = None,
             gemm_table: str | None = None, clock_MHz: _Number | None = None,
             quick_reduce: Literal["int4", "none"] | None = None, ignore_max_position: bool = False,
             kv_block_tokens: _Number | None = None, host_loop: Literal["v0"] | None = None,
             a2a_dispatch_cap: _Number | None = None) -> Result:
    """The engine simulated request by request: TTFT/TPOT/ITL/E2E/queue percentiles as groups (`r.ttft_s["p90"]`), throughput, goodput (`llmcost simulate`)."""
    ...

def disagg(model: _ModelArg, hardware: _HardwareArg, *, input: _Number, output: _Number, ttft: _Number,
           tpot: _Number, every_token: bool = False, path: Literal["scale-out", "scale-up"] = "scale-out",
           chunk: _Number = 0, decode_hardware: _HardwareArg | None = None, decode_tp: int | None = None,
           tp: int = 1, pp: int = 1, ep: int = 1, dp: int | None = None, gpus: int | None = None,
           weights: str | None = None, kv: str | None = None, ignore_max_position: bool = False,
           engine: Literal["trtllm", "vllm", "sglang"] | None = None,
           kv_memory_fraction: _Number | None = None, prefix_hit: _Number = 0.0,
           acceptance: _Number | None = None, draft_tokens: int | None = None,
           drafter: Union[Literal["eagle", "mtp"], str, Model] = "eagle",
           excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
           eager_prompt: Literal["overlap", "serial", "0"] | None = None,
           gemm_table: str | None = None, clock_MHz: _Number | None = None,
           quick_reduce: Literal["int4", "none"] | None = None, kv_block_tokens: _Number | None = None,
           host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None) -> Result: ...

def sweep(model: _ModelArg, hardware: Union[_HardwareArg, Sequence[_HardwareArg]], *, input: _Numbers,
          output: _Numbers, batch: _Numbers, tp: int | Sequence[int] | None = None,
          pp: int | Sequence[int] | None = None, ep: int | Sequence[int] | None = None,
          dp: int | Sequence[int] | None = None, weights: str | None | Sequence[str | None] = None,
          kv: str | None | Sequence[str | None] = None,
          formats: Sequence[tuple[str | None, str | None]] | None = None,
          disaggregated: bool | Sequence[bool] = False, max_batch: _Number = 0,
          ignore_max_position: bool = False, prefix_hit: _Number = 0.0, acceptance: _Number | None = None,
          draft_tokens: int | None = None, drafter: Literal["eagle", "mtp"] = "eagle",
          engine: Literal["trtllm", "vllm", "sglang"] | None = None,
          kv_memory_fraction: _Number | None = None,
          excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
          eager_prompt: Literal["overlap", "serial", "0"] | None = None,
          gemm_table: str | None = None, clock_MHz: _Number | None = None,
          quick_reduce: Literal["int4", "none"] | None = None, kv_block_tokens: _Number | None = None,
          host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None) -> SweepResult: ...

def frontier(model: _ModelArg, hardware: Union[_HardwareArg, Sequence[_HardwareArg]], *, input: _Number,
             output: _Number, ttft: _Number, tpot: _Number, batch: _Numbers | None = None,
             max_batch: _Number | None = None, tp: int | Sequence[int] | None = None,
             pp: int | Sequence[int] | None = None, ep: int | Sequence[int] | None = None,
             dp: int | Sequence[int] | None = None, weights: str | None | Sequence[str | None] = None,
             kv: str | None | Sequence[str | None] = None, disaggregated: bool | Sequence[bool] = False,
             ignore_max_position: bool = False, prefix_hit: _Number = 0.0, acceptance: _Number | None = None,
             draft_tokens: int | None = None, drafter: Literal["eagle", "mtp"] = "eagle",
             engine: Literal["trtllm", "vllm", "sglang"] | None = None,
             kv_memory_fraction: _Number | None = None,
             excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
             eager_prompt: Literal["overlap", "serial", "0"] | None = None,
             gemm_table: str | None = None, clock_MHz: _Number | None = None,
             quick_reduce: Literal["int4", "none"] | None = None, kv_block_tokens: _Number | None = None,
          host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None) -> Result: ...

def plan(model: _ModelArg, hardware: Union[_HardwareArg, Sequence[_HardwareArg]], *, rate: _Number,
         mix: Sequence[tuple[_Number, _Number, _Number]], ttft: _Number, tpot: _Number,
         weights: str | None | Sequence[str | None] = None, kv: str | None | Sequence[str | None] = None,
         max_gpus: _Number = 0, max_instance_gpus: int = 8, usd_per_gpu_hour: _Number | None = None,
         prices: dict[str, _Number] | None = None, utilisation: _Number = 1.0, colocated_only: bool = False,
         ignore_max_position: bool = False, prefix_hit: _Number = 0.0, acceptance: _Number | None = None,
         draft_tokens: int | None = None, drafter: Literal["eagle", "mtp"] = "eagle",
         engine: Literal["trtllm", "vllm", "sglang"] | None = None,
         kv_memory_fraction: _Number | None = None,
         excluded_modules: str | Sequence[str] | None = None, kept_format: str | None = None,
         eager_prompt: Literal["overlap", "serial", "0"] | None = None,
         gemm_table: str | None = None, clock_MHz: _Number | None = None,
         quick_reduce: Literal["int4", "none"] | None = None, kv_block_tokens: _Number | None = None,
          host_loop: Literal["v0"] | None = None, a2a_dispatch_cap: _Number | None = None) -> Result: ...

def calibrate(measurements: Union[str, os.PathLike[str]], *, free: Sequence[str] | None = None,
              include_check_rows: bool = False, coverage: _Number | None = None) -> Result: ...
