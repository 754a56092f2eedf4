// Blackwell and Blackwell Ultra MLA kernel rates at DeepSeek-R1's attention-DP shape (128 heads a rank, FP8 KV)
// (docs/mlperf-v60-out-of-sample.md, "Session 53: why llmcost prices B300 = GB200 on DeepSeek-R1").
//
// Reads NVIDIA aiconfigurator's measured TensorRT-LLM 1.3.0rc20 MLA tables (mla/trtllm/1.3.0rc20/
// generation_mla_perf.parquet and context_mla_perf.parquet) for B200, GB200, B300 and GB300 from a clone of
// github.com/ai-dynamo/aiconfigurator by commit and path, and prints, for num_heads 128 and kv_cache_dtype fp8:
//   - decode (op mla_generation, one query token a sequence, context c = isl + step): each GPU's latency and its
//     rate in llmcost's FLOPs, 2 x (576 + 512) = 2,176 FLOP a (head, key) pair (absorbed MLA: QK over the
//     512 + 64 latent dims, PV over the 512), i.e. R = 2,176 x 128 x batch x c / latency;
//   - prompt (op mla_context, causal, whole prompts of isl tokens, mla_dtype bfloat16 as the table holds it):
//     latency and R = 2 x (192 + 128) x 128 x batch x isl^2 / 2 / latency (QK over 128 + 64 dims, PV over 128);
//   - the latency ratios B300/GB200 (GB200's latency over B300's: > 1 means B300 faster), GB300/GB200, B300/B200.
// No row of tables/measurements.csv is read: the tables are kernel measurements, the rows stay out of sample.
//
// Install and run (Node >= 18; hyparquet reads Parquet in plain JavaScript):
//   npm install --prefix /tmp/hyparquet hyparquet@1.33.0 hyparquet-compressors@1.1.2
//   HYPARQUET_DIR=/tmp/hyparquet node tables/scripts/blackwell_mla_kernel_rates.mjs [aiconfigurator git dir]
// The git directory defaults to /work/.mirror/ai-dynamo+aiconfigurator/repo.

import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const COMMIT = '095f58a51c4ca8e61b66ec108d86f223f8d559ce'
const DATA = 'aic-core/src/aiconfigurator_core/systems/data'
const VERSION = '1.3.0rc20'
const GPUS = ['b200_sxm', 'gb200', 'b300_sxm', 'gb300']
const HEADS = 128
const DECODE_PAIR_FLOP = 2 * (576 + 512)
const PROMPT_PAIR_FLOP = 2 * (192 + 128)

const gitDir = process.argv[2] ?? '/work/.mirror/ai-dynamo+aiconfigurator/repo'
const req = createRequire(pathToFileURL((process.env.HYPARQUET_DIR ?? process.cwd()) + '/'))
const { parquetReadObjects } = await import(pathToFileURL(req.resolve('hyparquet')))
const { compressors } = await import(pathToFileURL(req.resolve('hyparquet-compressors')))

async function read(system, file) {
  const path = `${DATA}/${system}/mla/trtllm/${VERSION}/${file}.parquet`
  const buf = execFileSync('git', ['--git-dir', gitDir, 'show', `${COMMIT}:${path}`], { maxBuffer: 1 << 30 })
  return parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), compressors })
}

// (batch, tokens) -> { system: latency ms }, for the rows at 128 heads and an FP8 KV cache
async function grid(file, tokensOf, keep) {
  const out = new Map()
  for (const system of GPUS) {
    for (const r of await read(system, file)) {
      if (Number(r.num_heads) !== HEADS || r.kv_cache_dtype !== 'fp8' || !keep(r)) continue
      const key = `${Number(r.batch_size)},${tokensOf(r)}`
      if (!out.has(key)) out.set(key, {})
      out.get(key)[system] = Number(r.latency)
    }
  }
  return out
}

function print(title, table, flopOf, show) {
  console.log(`\n${title}`)
  console.log('batch tokens | latency us: B200 GB200 B300 GB300 | TFLOP/s: B200 GB200 B300 GB300 | B300/GB200 GB300/GB200 B300/B200')
  for (const [key, v] of table) {
    const [b, t] = key.split(',').map(Number)
    if (!show(b, t) || GPUS.some(s => v[s] === undefined)) continue
    const f = flopOf(b, t)
    const lat = GPUS.map(s => v[s])
    console.log(`${b} ${t} | ${lat.map(x => (x * 1e3).toFixed(0)).join(' ')} | ` +
      `${lat.map(x => (f / (x * 1e-3) / 1e12).toFixed(0)).join(' ')} | ` +
      `${(v.gb200 / v.b300_sxm).toFixed(3)} ${(v.gb200 / v.gb300).toFixed(3)} ${(v.b200_sxm / v.b300_sxm).toFixed(3)}`)
  }
}

const decode = await grid('generation_mla_perf', r => Number(r.isl) + Number(r.step), () => true)
print('MLA decode (mla_generation), 128 heads, FP8 KV; tokens = context', decode,
  (b, c) => DECODE_PAIR_FLOP * HEADS * b * c, (b, c) => b >= 256 && c >= 2048 && c <= 16384)
const prompt = await grid('context_mla_perf', r => Number(r.isl), r => r.mla_dtype === 'bfloat16')
print('MLA prompt (mla_context), 128 heads, FP8 KV, mla_dtype bfloat16; tokens = prompt length', prompt,
  (b, s) => PROMPT_PAIR_FLOP * HEADS * b * s * s / 2, (b, s) => s >= 1024 && b * s >= 4096)
