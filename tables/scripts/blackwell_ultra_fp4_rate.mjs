// Blackwell Ultra's sustained NVFP4 GEMM rate (tables/hardware.csv fp4_sustained_fraction; docs/blackwell-ultra-fp4.md).
//
// Reads NVIDIA aiconfigurator's measured TensorRT-LLM 1.3.0rc20 GEMM tables for B200, B300, GB200 and GB300 from a
// clone of github.com/ai-dynamo/aiconfigurator by commit and path (the four tables came in commit dec5f4cd2), and
// prints, by a rule fixed before any figure was computed:
//   - each GPU's pure NVFP4 GEMM rate at the Llama-2-70B TP1 layer (QKV k 8192 -> n 10240, O 8192 -> 8192,
//     gate+up 8192 -> 57344, down 28672 -> 8192), FLOP-weighted: R(m) = sum 2mnk / sum (T(m, n, k) - T(m, 128, k)),
//     T a row's latency and T(m, 128, k) the same table's n = 128 row, taken as the activations' fp4_quantize kernel
//     (the collector times quantize + GEMM) with a negligible GEMM;
//   - the geometric mean over m in {2048, 2560, 3072, 4096, 8192} of R(m) and of R(m) / R_B200(m);
//   - the fraction of the datasheet FP4 peak: s = (ratio to B200) x P_B200 / P_gpu, the peaks read from
//     tables/hardware.csv's fp4_dense_TFLOPS.
// Off the table's grid (n 57344 between 51200 and 65536; k 28672 between 16384 and 51200) the rate is interpolated
// linearly in log(TFLOPS) against log(size), both n and k (bilinear); between m rows, linearly in latency.
//
// Install and run (Node >= 18; hyparquet reads Parquet in plain JavaScript):
//   npm install --prefix /tmp/hyparquet hyparquet@1.33.0 hyparquet-compressors@1.1.2
//   git clone https://github.com/ai-dynamo/aiconfigurator /tmp/aiconfigurator   (or a bare mirror)
//   HYPARQUET_DIR=/tmp/hyparquet node tables/scripts/blackwell_ultra_fp4_rate.mjs /tmp/aiconfigurator/.git
// The git directory defaults to /work/.mirror/ai-dynamo+aiconfigurator/repo. Run from the repository root.

import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const COMMIT = '095f58a51c4ca8e61b66ec108d86f223f8d559ce'
const DATA = 'aic-core/src/aiconfigurator_core/systems/data'
const VERSION = '1.3.0rc20'
const GPUS = [ // aiconfigurator system -> tables/hardware.csv name
  ['b200_sxm', 'B200 (HGX)'], ['b300_sxm', 'B300 (HGX)'], ['gb200', 'GB200 (NVL72)'], ['gb300', 'GB300 (NVL72)']]
const LAYER = [[10240, 8192], [8192, 8192], [57344, 8192], [8192, 28672]] // (n, k): Llama-2-70B TP1
const M_SET = [2048, 2560, 3072, 4096, 8192]
const QUANT_N = 128

const gitDir = process.argv[2] ?? '/work/.mirror/ai-dynamo+aiconfigurator/repo'
const req = createRequire(pathToFileURL((process.env.HYPARQUET_DIR ?? process.cwd()) + '/'))
const { parquetReadObjects } = await import(pathToFileURL(req.resolve('hyparquet')))
const { compressors } = await import(pathToFileURL(req.resolve('hyparquet-compressors')))

function table(system) {
  const path = `${DATA}/${system}/gemm/trtllm/${VERSION}/gemm_perf.parquet`
  const buf = execFileSync('git', ['--git-dir', gitDir, 'show', `${COMMIT}:${path}`], { maxBuffer: 1 << 30 })
  return { path, buf }
}

async function rows(system, dtype) {
  const { path, buf } = table(system)
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
  const rows = await parquetReadObjects({ file, compressors })
  const lat = new Map() // "m,n,k" -> latency ms
  const ms = new Map()  // "n,k" -> sorted m
  const ns = new Set(), ks = new Set()
  let device = ''
  for (const r of rows) {
    if (r.gemm_dtype !== dtype) continue
    const m = Number(r.m), n = Number(r.n), k = Number(r.k)
    lat.set(`${m},${n},${k}`, Number(r.latency))
    if (!ms.has(`${n},${k}`)) ms.set(`${n},${k}`, [])
    ms.get(`${n},${k}`).push(m)
    ns.add(n); ks.add(k); device = r.device
  }
  for (const v of ms.values()) v.sort((a, b) => a - b)
  return { path, device, lat, ms, ns: [...ns].sort((a, b) => a - b), ks: [...ks].sort((a, b) => a - b) }
}

// Latency (s) at a grid (n, k), m interpolated linearly in latency between the table's m rows.
function gridSeconds(t, m, n, k) {
  const ms = t.ms.get(`${n},${k}`)
  if (!ms) throw new Error(`${t.path}: no rows at n ${n}, k ${k}`)
  const exact = t.lat.get(`${m},${n},${k}`)
  if (exact !== undefined) return exact * 1e-3
  const i = ms.findIndex((x) => x > m)
  if (i <= 0) throw new Error(`${t.path}: m ${m} is outside the rows at n ${n}, k ${k}`)
  const a = ms[i - 1], b = ms[i], ta = t.lat.get(`${a},${n},${k}`), tb = t.lat.get(`${b},${n},${k}`)
  return (ta + (tb - ta) * (m - a) / (b - a)) * 1e-3
}

// The grid points around x and x's log-linear position between them.
function bracket(grid, x) {
  if (grid.includes(x)) return [x, x, 0]
  const j = grid.findIndex((g) => g > x)
  if (j <= 0) throw new Error(`${x} is outside the grid ${grid[0]}..${grid.at(-1)}`)
  const a = grid[j - 1], b = grid[j]
  return [a, b, Math.log(x / a) / Math.log(b / a)]
}

// Latency (s) of an m x n x k GEMM as the table times it: the rate bilinear in log(TFLOPS) over log(n), log(k).
function seconds(t, m, n, k) {
  const [na, nb, fn] = bracket(t.ns, n), [ka, kb, fk] = bracket(t.ks, k)
  const lr = (nn, kk) => Math.log(2 * m * nn * kk / gridSeconds(t, m, nn, kk))
  const l = (1 - fn) * (1 - fk) * lr(na, ka) + fn * (1 - fk) * lr(nb, ka) + (1 - fn) * fk * lr(na, kb) + fn * fk * lr(nb, kb)
  return 2 * m * n * k / Math.exp(l)
}

// The layer's pure-GEMM rate (TFLOP/s) at m rows: sum 2mnk / sum (T(m, n, k) - T(m, 128, k)); pure = false keeps
// the quantize kernel in (the FP8 check below).
function layerRate(t, m, pure = true) {
  let flops = 0, time = 0
  for (const [n, k] of LAYER) {
    flops += 2 * m * n * k
    time += seconds(t, m, n, k) - (pure ? seconds(t, m, QUANT_N, k) : 0)
  }
  return flops / time / 1e12
}

function fp4Peaks() {
  const lines = readFileSync('tables/hardware.csv', 'utf8').split('\n')
  const head = lines[0].split(','), col = head.indexOf('fp4_dense_TFLOPS')
  const peaks = new Map()
  for (const line of lines.slice(1)) {
    const cells = line.split(',')
    if (GPUS.some(([, name]) => name === cells[0])) peaks.set(cells[0], Number(cells[col]))
  }
  return peaks
}

const gm = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length)
const peaks = fp4Peaks()
const tabs = new Map()
for (const [system] of GPUS) tabs.set(system, await rows(system, 'nvfp4'))
const base = tabs.get('b200_sxm'), baseName = 'B200 (HGX)'
console.log(`aiconfigurator @${COMMIT}, TensorRT-LLM ${VERSION} nvfp4 rows, Llama-2-70B TP1 layer, m in {${M_SET}}`)
console.log('gpu | device | table | R(m) TFLOP/s per m | geomean R | ratio to B200 (geomean) | datasheet FP4 | s = ratio x P_B200 / P | effective TFLOP/s')
for (const [system, name] of GPUS) {
  const t = tabs.get(system)
  const rates = M_SET.map((m) => layerRate(t, m))
  const ratio = gm(M_SET.map((m, i) => rates[i] / layerRate(base, m)))
  const s = ratio * peaks.get(baseName) / peaks.get(name)
  console.log(`${name} | ${t.device} | ${t.path} | ${rates.map((r) => r.toFixed(0)).join(' ')} | ${gm(rates).toFixed(0)} | ` +
    `${ratio.toFixed(4)} | ${peaks.get(name)} | ${s.toFixed(4)} | ${(s * peaks.get(name)).toFixed(0)}`)
}

// A check, not part of the rule: the same layer and m set on the `fp8` rows (FP8 per-tensor Linear, its quantize
// kept in), whose datasheet peaks are B200's on B300 and GB200's on GB300.
const fp8 = new Map()
for (const [system] of GPUS) fp8.set(system, await rows(system, 'fp8'))
for (const [num, den] of [['b300_sxm', 'b200_sxm'], ['gb300', 'gb200'], ['gb200', 'b200_sxm']]) {
  const r = M_SET.map((m) => layerRate(fp8.get(num), m, false) / layerRate(fp8.get(den), m, false))
  console.log(`check: fp8 ${num}/${den} geomean ${gm(r).toFixed(3)} (per m ${r.map((x) => x.toFixed(3)).join(' ')})`)
}
