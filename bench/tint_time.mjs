#!/usr/bin/env node
// tint_time.mjs - Tint's WGSL validation time per file, the baseline of `wgc bench compile`.
//
// Usage: node bench/tint_time.mjs --pkg DIR --out FILE [--runs N] (--list PATHS | FILE...)
//   --pkg DIR   the npm package "webgpu" (dawn.node; tests/oracle/install.sh puts it in build/npm)
//   --out FILE  results, one JSON line per input file, in input order:
//               {"i":k,"ms":best createShaderModule ms,"ms_info":best incl. getCompilationInfo,
//                "ms_median":median createShaderModule ms,"ok":bool}
//               then {"done":true,"files":n,"adapter":"..."}; {"error":"..."} on a setup failure.
//   --runs N    timed runs per file after one warm-up (default 5); the best (and median) reported.
// Results go to a file, not stdout: dawn.node prints shader logs on the native stdout.
//
// Method: Dawn's null backend, one device created once (every adapter feature required, so
// `enable f16;` / `enable subgroups;` validate).  Each run compiles the file's text plus a unique
// trailing comment, so Dawn's shader-module cache (keyed by source) never answers instead of
// Tint.  "ms" times the synchronous createShaderModule call, where Dawn runs Tint's parser,
// resolver and validator; "ms_info" adds awaiting getCompilationInfo (event-loop latency).
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
let pkg = process.env.WEBGPU_PKG || '', out = '', runs = 5;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--pkg') pkg = args[++i];
  else if (a === '--out') out = args[++i];
  else if (a === '--runs') runs = Math.max(1, Number(args[++i]) | 0);
  else if (a === '--list') { for (const l of readFileSync(args[++i], 'utf8').split('\n')) if (l.trim()) files.push(l.trim()); }
  else files.push(a);
}
if (!pkg || !out) { process.stderr.write('usage: node tint_time.mjs --pkg DIR --out FILE [--runs N] (--list PATHS | FILE...)\n'); process.exit(2); }
const fail = (msg) => { writeFileSync(out, JSON.stringify({ error: msg }) + '\n'); process.exit(1); };
process.on('uncaughtException', (e) => fail(String(e && e.stack || e)));
process.on('unhandledRejection', (e) => fail(String(e && e.stack || e)));
writeFileSync(out, '');

const { create, globals } = await import(pathToFileURL(join(resolve(pkg), 'index.js')).href);
Object.assign(globalThis, globals);
const gpu = create(['backend=null']);
const adapter = await gpu.requestAdapter();
if (!adapter) fail('no null-backend adapter');
const device = await adapter.requestDevice({ requiredFeatures: [...adapter.features] });
device.onuncapturederror = () => {};
globalThis.__keepAlive = [gpu, adapter, device]; // dawn.node 0.6.2 misbehaves if these are collected

let salt = 0;
async function once(code) {
  const src = code + `\n// tint_time ${salt++}\n`;
  device.pushErrorScope('validation');
  const t0 = performance.now();
  const m = device.createShaderModule({ code: src });
  const t1 = performance.now();
  const info = await m.getCompilationInfo();
  const t2 = performance.now();
  const e = await device.popErrorScope();
  return { create: t1 - t0, info: t2 - t0, ok: !e && !info.messages.some((x) => x.type === 'error') };
}
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2; };

for (let i = 0; i < files.length; i++) {
  const code = readFileSync(files[i], 'utf8');
  const first = await once(code); // warm-up
  const c = [], t = [];
  for (let r = 0; r < runs; r++) { const x = await once(code); c.push(x.create); t.push(x.info); }
  appendFileSync(out, JSON.stringify({ i, ms: Math.min(...c), ms_info: Math.min(...t), ms_median: median(c), ok: first.ok }) + '\n');
}
const info = adapter.info || {};
appendFileSync(out, JSON.stringify({ done: true, files: files.length, adapter: `Dawn null backend (${info.description || info.device || 'null'})` }) + '\n');
process.exit(0);
