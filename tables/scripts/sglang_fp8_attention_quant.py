#!/usr/bin/env python3
"""Session 28 (docs/sglang-fp8-activation-quant.md): the kernels an FP8 block-scaled checkpoint adds to a
latent-attention layer in SGLang (`engine_kernels::fp8_attention_quant_kernels`, per layer):

  SGLang on CDNA3 (ROCm), SGLang on CDNA4 (ROCm): 7 = 3 activation quantizations (fused q_a/kv_a, q_b,
      o_proj: sgl-project/sglang python/sglang/srt/layers/quantization/fp8_utils.py
      `aiter_w8a8_block_fp8_linear`: aiter_per1x128_quant + gemm_a8w8_blockscale, in the stored v0.5-era copy
      (code-index id 53620064362, whose commit the index does not give) and @002ed7e465ec774f9332987798b855eb73d5e830) + 2 x 2 for the absorbed BMMs (python/sglang/srt/models/deepseek_v2.py
      @3e4a39ee73308590c5c753108bdcb8d333f7f1c6, `_is_hip` branches of forward_absorb_prepare/core:
      `w_kc.to(torch.bfloat16) * self.w_scale` and the same for w_vc, a cast and a multiply each before
      the BF16 torch.bmm; post_load_weights: block_quant_to_tensor_quant on HIP);
  SGLang on Blackwell: 2 (the FP8 checkpoint's q_a/kv_a and q_b quantizations; the profile's
      mla_attention_kernels 11 is the NVFP4-v2 checkpoint's block, BF16 projections but o_proj;
      docs/sglang-batch1-moe-decode.md section 8.1 counts the FP8 block at 13).

Also sets, by column name, the launch and front-end refits named in FITS (old -> new stated in the
appended source sentence); SGLang on Blackwell's launch and front end, refitted with its cold opening
priced too, are set by tables/scripts/sglang_blackwell_cold_opening.py. Adds the column `fp8_attention_quant_kernels` (before `source`) if absent.
Idempotent: re-running changes nothing. Run from the repository root:

  python3 tables/scripts/sglang_fp8_attention_quant.py

The catalog (include/llmcost/catalog/engines.hpp, hand-kept) must carry the same values: the unit test
"tables/engines.csv equals catalog::all_engines, row for row" checks it.
"""



from csv_rows import insert_columns, load, row_named, save, set_field, set_once

PATH = "tables/engines.csv"
COLUMN = "fp8_attention_quant_kernels"
COUNT = {
    "SGLang on CDNA3 (ROCm)": "7",
    "SGLang on CDNA4 (ROCm)": "7",
    "SGLang on Blackwell": "2",
}
# (profile, column): (old, new) -- the refits by the validation tool's unchanged rules (tables/validation.md
# "Engine fits"), filled in after the count changed.
FITS = {
    ("SGLang on CDNA3 (ROCm)", "launch_graph_us"): ("22.4", "13.51"),
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("8.976", "6.776"),
    ("SGLang on CDNA3 (ROCm)", "request_overhead_us"): ("74010", "74050"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("24780", "39980"),
}
# (profile, column): (old, new, why) -- figures derived by an existing rule from the new count, not fitted.
DERIVED = {
    ("SGLang on CDNA3 (ROCm)", "prefill_launch_us"): ("97.8", "64.97", "82.64 ms / 1,272"),
    ("SGLang on CDNA4 (ROCm)", "prefill_launch_us"): ("97.8", "64.97", "82.64 ms / 1,272"),
}
DERIVED_SENTENCE = (
    "; {field} {old} -> {new} (session 28): the eager prompt step's host time re-derived by its rule "
    "(sgl-project/sglang PR 12160's 82.64 ms DeepSeek-V3 eager forward over the library's count of a "
    "DeepSeek-V3 pass, as SGLang on Hopper's 59.28 us = 82.64 ms / 1,394): the catalog's DeepSeek-V3, the FP8 "
    "checkpoint, now launches 845 + 7 x 61 = 1,272 kernels here, so {why} = {new} us, and an FP8 DeepSeek-V3 "
    "prompt step's host time stays 82.64 ms (the MXFP4-Preview checkpoint's 845 kernels: 54.9 ms)")
SENTENCE = (
    "; fp8_attention_quant_kernels {k} (session 28, docs/sglang-fp8-activation-quant.md): on an FP8 "
    "block-scaled checkpoint (W8A8 FP8) a latent-attention layer launches {k} kernels more than the "
    "profile's count{why}")
FIT_SENTENCE = ("; {field} {old} -> {new} (session 28): refitted by the unchanged rule (tables/validation.md, "
                "Engine fits) with fp8_attention_quant_kernels {k}")
WHY = {
    "7": (": the three block-FP8 linears (fused q_a/kv_a, q_b, o_proj) each quantize their activation per "
          "1 x 128 token group in a kernel of their own before the GEMM (sgl-project/sglang "
          "python/sglang/srt/layers/quantization/fp8_utils.py aiter_w8a8_block_fp8_linear: aiter_per1x128_quant + "
          "gemm_a8w8_blockscale, in a stored v0.5-era copy and @002ed7e465ec774f9332987798b855eb73d5e830), and each absorbed BMM "
          "casts its per-tensor FP8 weight to BF16 and scales it before a BF16 torch.bmm (2 x 2; "
          "python/sglang/srt/models/deepseek_v2.py @3e4a39ee73308590c5c753108bdcb8d333f7f1c6, _is_hip: "
          "w_kc.to(torch.bfloat16) * self.w_scale; post_load_weights block_quant_to_tensor_quant), where "
          "amd/DeepSeek-R1-0528-MXFP4-Preview (exclude_layers *self_attn* *mlp.gate.* *lm_head) runs BF16 "
          "projections and MXFP4 BMMs with the quantization inside (quark_post_load_weights, "
          "batched_gemm_afp4wfp4_pre_quant); torch.compile (the MI355X FP8 rows' --enable-torch-compile) may "
          "fuse each cast with its multiply (5), not verified"),
    "2": (": the FP8 checkpoint's q_a/kv_a and q_b projections quantize their activation per token group "
          "before the GEMM (sglang_per_token_group_quant_fp8 + the block-FP8 GEMM), where the "
          "NVFP4-v2 checkpoint's run BF16 (the profile's mla_attention_kernels 11 is that checkpoint's "
          "block; the FP8 block is 13, docs/sglang-batch1-moe-decode.md section 8.1)"),
}


def main():
    rows = load(PATH)
    head = rows[0]
    changed = bool(insert_columns(rows, [COLUMN]))
    col = {name: i for i, name in enumerate(head)}
    for name, k in COUNT.items():
        r = row_named(rows, name, PATH)
        changed |= set_field(r, col, COLUMN, k, SENTENCE.format(k=k, why=WHY[k]), PATH, name)
        # the refits (FITS) and the re-derived figures (DERIVED), each set once (a later refit may move them)
        updates = [(field, old, new, FIT_SENTENCE.format(field=field, old=old, new=new, k=k))
                   for (profile, field), (old, new) in FITS.items() if profile == name]
        updates += [(field, old, new, DERIVED_SENTENCE.format(field=field, old=old, new=new, why=why))
                    for (profile, field), (old, new, why) in DERIVED.items() if profile == name]
        for field, old, new, text in updates:
            changed |= set_once(r, col, field, old, new, text, PATH, name)
    if changed:
        save(PATH, rows)
    print(f"{PATH}: " + ", ".join(f"{n}: {COLUMN} = {k}" for n, k in COUNT.items()) + (" (set)" if changed else " (already set)"))


if __name__ == "__main__":
    main()
