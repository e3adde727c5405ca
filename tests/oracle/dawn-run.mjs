#!/usr/bin/env node
// dawn-run.mjs - run WGSL compute kernels on Dawn (npm package "webgpu", dawn.node) and write
// every binding's final bytes, so that wgc's own runtime can be compared with an
// implementation nobody here wrote.
//
// Backend: Dawn's OpenGL ES backend on Mesa llvmpipe (create(['backend=opengles']),
// EGL_PLATFORM=surfaceless, requestAdapter({featureLevel:'compatibility'})).  Measured here
// (webgpu 0.6.2, Mesa 22.3.6): "OpenGL ES 3.2", no "shader-f16", no "subgroups" feature,
// maxComputeWorkgroupStorageSize 32768, maxStorageBuffersPerShaderStage 16,
// maxStorageBufferBindingSize 128 MiB, minStorageBufferOffsetAlignment 16, and a default
// maxComputeInvocationsPerWorkgroup of 128 in compatibility mode (we request the adapter's 1024).
// llvmpipe ends any loop after 65535 iterations (a kernel spinning on a flag stops there), so
// keep loops shorter.  Dawn's Vulkan backend refuses lavapipe 22.3 ("Vulkan
// shaderUniform*ArrayDynamicIndexing required"), so GL is the only backend here; on a machine
// with a real Vulkan GPU, --backend vulkan should work too.
// A kernel whose @requires names a feature the adapter lacks is reported "unsupported".
//
// Usage: node tests/oracle/dawn-run.mjs [--pkg DIR] [--out DIR] [--backend opengles|vulkan|...]
//                                       [--timeout S] KERNEL.wgsl...
//   --pkg DIR   the "webgpu" package directory (default: $WEBGPU_PKG, else build/npm/...).
//   --out DIR   write DIR/<stem>/<g>_<b>.in.bin (initial bytes) and .out.bin (final bytes),
//               and DIR/results.json (the array of per-kernel results below).
//   --timeout S per-kernel limit (default 60); a kernel past it ends the whole run with an error.
// Prints one line per kernel to stderr ("ok|unsupported|skip|ERROR name ms message") and
// one JSON object per kernel to stdout:
//   {"file","name","status":"ok"|"unsupported"|"skip"|"error","message","ms",
//    "bindings":{"G:B":{"size":N,"escaped":bool}}}
// Exit status: 0 when no kernel errored, 1 otherwise, 2 on usage/setup errors.
//
// ---- The spec format (shared with tests/oracle/expect.py and tests/wgsl/test_parity.c) ----
// The spec is the leading block of `//` comment lines of the kernel's .wgsl file (it stops at
// the first line that is neither a comment nor blank).  Lines of the form `// @word rest`:
//   @dispatch X[,Y[,Z]]          workgroup counts (required)
//   @entry NAME                  entry point (default "main")
//   @override NAME=VALUE         pipeline-overridable constant (number or true/false); NAME may
//                                be the numeric @id
//   @requires FEATURE            "shader-f16" or "subgroups": needs that adapter feature
//   @dawn-skip REASON            do not run on Dawn (must say why); the parity driver still runs it
//   @bind G:B KIND SIZE [init=INIT] [fill=0xWORD] [pad=P]
//       KIND: "storage rw" | "storage read" | "uniform".  SIZE in bytes (multiple of 4).
//       The buffer is first filled with the u32 word of fill= (default 0), then INIT applies:
//         zero                   nothing more
//         fill:0xWORD            every u32 word = WORD (a canary or byte pattern)
//         ramp:T[:START[:STEP]]  element i = START + i*STEP, T in u32|i32|f32 (f32: the
//                                double START+i*STEP rounded to f32; ints wrap mod 2^32)
//         rand:T:SEED            xorshift32 words (below); u32/i32: the raw word; f32: the
//                                word w mapped to (w >> 8) * 2^-23 - 1.0, exact, in [-1, 1)
//         vals:T:V,V,...         literal elements from element 0, the rest keeps fill=.
//                                f32 values: decimal (parsed as a double, then rounded to
//                                nearest f32), nan (0x7FC00000), inf, -inf, or 0xBITS (raw)
//       xorshift32: x = SEED (SEED 0 means 0x9E3779B9); for each u32 word in order:
//         x ^= x << 13; x ^= x >> 17; x ^= x << 5 (all mod 2^32); word = x.
//       pad=P (multiple of 256): the binding sits at offset P inside a buffer of
//       P + SIZE + P bytes whose pads hold the canary word 0xCAFEBABE; after the run the
//       pads must be intact, otherwise the kernel wrote outside its binding ("escaped").
//   @compare G:B MODE [words=A..B,C..D]   how the parity driver compares wgc's output with
//       Dawn's: exact (default for every binding: identical bytes) | ulp:N (f32 words within
//       N ulp; +0.0 and -0.0 are equal, since WGSL may ignore the sign of a zero, so ulp:0 is
//       "exact up to zero sign") | abs:X (f32) | ignore (WGSL leaves the result unspecified).
//       words= limits the compare to those u32 word ranges (inclusive), e.g. to skip a slot
//       whose value WGSL leaves open.
//   @expect G:B T [at=K] [ulp:N|abs:X] V,V,...        expected output elements from index K
//       (default 0); "_" skips an element; f32 "nan" matches any NaN.  Checked by expect.py.
//   @expect-py G:B T [at=K] [ulp:N|abs:X] EXPR        the same with a python3 expression
//       giving the list; names: inp(g,b,T), out(g,b,T), f32(x) (round to f32), i32(x),
//       u32(x) (wrap), math, struct.
//   @assert-py EXPR              a python3 expression over the same names that must be true.
//   @let-py NAME = EXPR          binds NAME for the later python expressions of this kernel.
//   @note TEXT                   free text.
// Unknown @words are errors, so a typo cannot silently drop an expectation.

import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { basename, join, resolve, dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CANARY = 0xCAFEBABE;

function fail(msg) { process.stderr.write(`dawn-run: ${msg}\n`); process.exit(2); }

// ------------------------------------------------------------------ spec parsing
const KNOWN = new Set(['dispatch', 'entry', 'override', 'requires', 'dawn-skip', 'bind', 'compare',
                       'expect', 'expect-py', 'assert-py', 'let-py', 'note']);

export function parseSpec(text) {
  const spec = { dispatch: null, entry: 'main', overrides: {}, requires: [], skip: null, binds: [],
                 errors: [] };
  const lines = text.split('\n');
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln].trim();
    if (line === '') continue;
    if (!line.startsWith('//')) break;
    const m = /^\/\/\s*@([a-z][a-z0-9-]*)\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, word, rest] = m;
    const where = `line ${ln + 1}`;
    if (!KNOWN.has(word)) { spec.errors.push(`${where}: unknown spec word @${word}`); continue; }
    if (word === 'dispatch') {
      const d = rest.split(',').map(s => Number(s.trim()));
      if (d.length < 1 || d.length > 3 || d.some(v => !Number.isInteger(v) || v < 0))
        spec.errors.push(`${where}: bad @dispatch '${rest}'`);
      while (d.length < 3) d.push(1);
      spec.dispatch = d;
    } else if (word === 'entry') spec.entry = rest.trim();
    else if (word === 'override') {
      const o = /^([A-Za-z_][A-Za-z0-9_]*|\d+)\s*=\s*(\S+)$/.exec(rest.trim());
      if (!o) { spec.errors.push(`${where}: bad @override '${rest}'`); continue; }
      spec.overrides[o[1]] = o[2] === 'true' ? 1 : o[2] === 'false' ? 0 : Number(o[2]);
    } else if (word === 'requires') spec.requires.push(rest.trim());
    else if (word === 'dawn-skip') {
      if (!rest.trim()) spec.errors.push(`${where}: @dawn-skip needs a reason`);
      spec.skip = rest.trim();
    } else if (word === 'bind') {
      const b = parseBind(rest);
      if (typeof b === 'string') spec.errors.push(`${where}: ${b}`); else spec.binds.push(b);
    }
    // compare / expect / expect-py / assert-py / let-py / note: read by expect.py and test_parity.c
  }
  if (!spec.dispatch) spec.errors.push('no @dispatch line');
  const seen = new Set();
  for (const b of spec.binds) {
    const k = `${b.group}:${b.binding}`;
    if (seen.has(k)) spec.errors.push(`binding ${k} declared twice`);
    seen.add(k);
  }
  return spec;
}

function parseBind(rest) {
  const t = rest.trim().split(/\s+/);
  const gb = /^(\d+):(\d+)$/.exec(t[0] || '');
  if (!gb) return `bad @bind group:binding '${t[0]}'`;
  const b = { group: +gb[1], binding: +gb[2], kind: '', size: 0, init: 'zero', fill: 0, pad: 0 };
  let i = 1;
  if (t[i] === 'storage' && (t[i + 1] === 'rw' || t[i + 1] === 'read')) { b.kind = t[i + 1] === 'rw' ? 'storage' : 'read-only-storage'; i += 2; }
  else if (t[i] === 'uniform') { b.kind = 'uniform'; i++; }
  else return `bad @bind kind '${t.slice(1, 3).join(' ')}' (storage rw | storage read | uniform)`;
  b.size = Number(t[i++]);
  if (!Number.isInteger(b.size) || b.size <= 0 || b.size % 4) return `bad @bind size '${t[i - 1]}'`;
  for (; i < t.length; i++) {
    const kv = /^(init|fill|pad)=(.+)$/.exec(t[i]);
    if (!kv) return `bad @bind option '${t[i]}'`;
    if (kv[1] === 'init') b.init = kv[2];
    else if (kv[1] === 'fill') b.fill = Number(kv[2]) >>> 0;
    else { b.pad = Number(kv[2]); if (!Number.isInteger(b.pad) || b.pad % 256) return `pad must be a multiple of 256`; }
  }
  const err = checkInit(b.init);
  return err ? err : b;
}

const TYPES = new Set(['u32', 'i32', 'f32']);
function checkInit(init) {
  const p = init.split(':');
  switch (p[0]) {
    case 'zero': return p.length === 1 ? null : `bad init '${init}'`;
    case 'fill': return p.length === 2 && /^0x[0-9a-fA-F]{1,8}$/.test(p[1]) ? null : `bad init '${init}' (fill:0xWORD)`;
    case 'ramp': return TYPES.has(p[1]) && p.length <= 4 && p.slice(2).every(v => isFinite(Number(v))) ? null : `bad init '${init}' (ramp:T[:start[:step]])`;
    case 'rand': return TYPES.has(p[1]) && p.length === 3 && /^\d+$|^0x[0-9a-fA-F]+$/.test(p[2]) ? null : `bad init '${init}' (rand:T:SEED)`;
    case 'vals': return TYPES.has(p[1]) && p.length === 3 ? null : `bad init '${init}' (vals:T:v,v,...)`;
    default: return `unknown init '${init}'`;
  }
}

// Fills an ArrayBuffer of b.size bytes with the binding's initial contents.
export function makeInit(b) {
  const buf = new ArrayBuffer(b.size);
  const u = new Uint32Array(buf), i32 = new Int32Array(buf), f = new Float32Array(buf);
  u.fill(b.fill >>> 0);
  const p = b.init.split(':');
  const n = u.length;
  if (p[0] === 'fill') u.fill(Number(p[1]) >>> 0);
  else if (p[0] === 'ramp') {
    const start = p.length > 2 ? Number(p[2]) : 0, step = p.length > 3 ? Number(p[3]) : 1;
    for (let k = 0; k < n; k++) {
      if (p[1] === 'f32') f[k] = start + k * step;   // double, then one rounding to f32
      else u[k] = Number(BigInt.asUintN(32, BigInt(start) + BigInt(k) * BigInt(step)));
    }
  } else if (p[0] === 'rand') {
    let x = Number(p[2]) >>> 0;
    if (x === 0) x = 0x9E3779B9;
    for (let k = 0; k < n; k++) {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      if (p[1] === 'f32') f[k] = (x >>> 8) * 2 ** -23 - 1.0; else u[k] = x;
    }
  } else if (p[0] === 'vals') {
    const vals = p[2].split(',');
    if (vals.length > n) throw new Error(`init has ${vals.length} values, binding holds ${n}`);
    vals.forEach((v, k) => {
      v = v.trim();
      if (p[1] === 'f32') {
        if (/^0x/i.test(v)) u[k] = Number(v) >>> 0;
        else f[k] = v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v);
      } else if (p[1] === 'i32') i32[k] = Number(v);
      else u[k] = Number(v) >>> 0;
      if (p[1] !== 'f32' && !Number.isInteger(Number(v))) throw new Error(`bad ${p[1]} value '${v}'`);
    });
  }
  return new Uint8Array(buf);
}

// ------------------------------------------------------------------ running
function parseArgs(argv) {
  const o = { pkg: process.env.WEBGPU_PKG || '', out: '', backend: 'opengles', timeout: 60, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pkg') o.pkg = argv[++i];
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--backend') o.backend = argv[++i];
    else if (a === '--timeout') o.timeout = Number(argv[++i]);
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (!o.files.length) fail('usage: node dawn-run.mjs [--pkg DIR] [--out DIR] [--backend B] KERNEL.wgsl...');
  if (!o.pkg) o.pkg = join(here, '..', '..', process.env.BUILD || 'build', 'npm', 'node_modules', 'webgpu');
  if (!existsSync(join(o.pkg, 'index.js'))) fail(`no webgpu package at ${o.pkg} (run sh tests/oracle/install.sh)`);
  return o;
}

async function main() {
  const opt = parseArgs(process.argv.slice(2));
  if (!process.env.EGL_PLATFORM) process.env.EGL_PLATFORM = 'surfaceless';
  const { create, globals } = await import(pathToFileURL(join(resolve(opt.pkg), 'index.js')).href);
  Object.assign(globalThis, globals);
  const gpu = create([`backend=${opt.backend}`]);
  const adapter = await gpu.requestAdapter({ featureLevel: 'compatibility' });
  if (!adapter) fail(`no ${opt.backend} adapter (EGL_PLATFORM=${process.env.EGL_PLATFORM})`);
  // dawn.node aborts if the GPU object is collected while the device is in use.
  globalThis.__dawnRunKeep = [gpu, adapter];
  const wanted = new Set();
  const kernels = opt.files.map(file => {
    let text = '', spec;
    try { text = readFileSync(file, 'utf8'); spec = parseSpec(text); }
    catch (e) { spec = { errors: [`cannot read: ${e.message}`], requires: [], binds: [] }; }
    for (const r of spec.requires) if (adapter.features.has(r)) wanted.add(r);
    return { file, name: basename(file).replace(/\.wgsl$/, ''), text, spec };
  });
  // Compatibility mode's default limits are small (128 invocations per workgroup); ask for what
  // the adapter has, so kernels written for core WebGPU limits (256) run unchanged.
  const requiredLimits = {};
  for (const name of ['maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX',
                      'maxComputeWorkgroupSizeY', 'maxComputeWorkgroupSizeZ',
                      'maxComputeWorkgroupStorageSize', 'maxStorageBuffersPerShaderStage',
                      'maxStorageBufferBindingSize', 'maxBufferSize'])
    requiredLimits[name] = adapter.limits[name];
  const device = await adapter.requestDevice({ requiredFeatures: [...wanted], requiredLimits });
  globalThis.__dawnRunKeep.push(device);
  let lost = null;
  device.lost.then(info => { lost = info.message || 'device lost'; });
  device.onuncapturederror = () => {};
  const results = [];
  let anyError = false;
  for (const k of kernels) {
    const t0 = performance.now();
    let r;
    if (lost) r = { status: 'error', message: `device lost: ${lost}` };
    else {
      // A kernel that never finishes (an endless loop on the GPU) cannot be interrupted; after
      // --timeout seconds the run ends here, with what it has, and fails.
      const timer = setTimeout(() => {
        const r = { file: k.file, name: k.name, status: 'error', message: `timeout after ${opt.timeout}s; run stopped` };
        results.push(r);
        process.stdout.write(JSON.stringify(r) + '\n');
        process.stderr.write(`ERROR ${k.name} ${r.message}\n`);
        if (opt.out) writeFileSync(join(opt.out, 'results.json'), JSON.stringify(results, null, 1) + '\n');
        process.exit(1);
      }, opt.timeout * 1000);
      try { r = await runKernel(device, adapter, k, opt.out); }
      catch (e) { r = { status: 'error', message: String(e && e.message || e) }; }
      clearTimeout(timer);
    }
    r = { file: k.file, name: k.name, ...r, ms: Math.round(performance.now() - t0) };
    if (r.status === 'error') anyError = true;
    results.push(r);
    process.stdout.write(JSON.stringify(r) + '\n');
    process.stderr.write(`${r.status === 'error' ? 'ERROR' : r.status} ${k.name} ${r.ms}ms${r.message ? ' ' + r.message : ''}\n`);
  }
  if (opt.out) writeFileSync(join(opt.out, 'results.json'), JSON.stringify(results, null, 1) + '\n');
  device.destroy();
  process.exit(anyError ? 1 : 0);
}

async function runKernel(device, adapter, k, outDir) {
  const { spec } = k;
  if (spec.errors.length) return { status: 'error', message: `spec: ${spec.errors.join('; ')}` };
  const missing = spec.requires.filter(f => !adapter.features.has(f));
  if (missing.length) return { status: 'unsupported', message: `adapter lacks ${missing.join(', ')}` };
  if (spec.skip) return { status: 'skip', message: spec.skip };

  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const popAll = async () => {
    const msgs = [];
    for (let i = 0; i < 3; i++) { const e = await device.popErrorScope(); if (e) msgs.push(e.message.trim()); }
    return msgs;
  };
  const module = device.createShaderModule({ code: k.text, label: k.name });
  const info = await module.getCompilationInfo();
  const cerr = info.messages.filter(m => m.type === 'error');
  if (cerr.length) {
    await popAll();
    return { status: 'error', message: `shader: ${cerr.map(m => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; ')}` };
  }
  // Explicit layout from the @bind lines, so a binding the shader declares but the spec
  // forgot (or the other way round) is an error rather than a silent default.
  const maxGroup = spec.binds.reduce((m, b) => Math.max(m, b.group), -1);
  const bgls = [];
  for (let g = 0; g <= maxGroup; g++) {
    bgls.push(device.createBindGroupLayout({ entries: spec.binds.filter(b => b.group === g).map(b => ({
      binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: b.kind } })) }));
  }
  const layout = device.createPipelineLayout({ bindGroupLayouts: bgls });
  const pipeline = device.createComputePipeline({ layout, label: k.name,
    compute: { module, entryPoint: spec.entry, constants: spec.overrides } });
  const bufs = spec.binds.map(b => {
    const init = makeInit(b);
    const total = b.pad * 2 + b.size;
    const usage = (b.kind === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
                  GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const buffer = device.createBuffer({ size: total, usage, mappedAtCreation: true });
    const all = new Uint8Array(buffer.getMappedRange());
    new Uint32Array(all.buffer).fill(CANARY);
    all.set(init, b.pad);
    buffer.unmap();
    const read = device.createBuffer({ size: total, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    return { b, init, buffer, read, total };
  });
  const groups = bgls.map((bgl, g) => device.createBindGroup({ layout: bgl, entries: bufs.filter(x => x.b.group === g)
    .map(x => ({ binding: x.b.binding, resource: { buffer: x.buffer, offset: x.b.pad, size: x.b.size } })) }));
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  groups.forEach((g, i) => pass.setBindGroup(i, g));
  pass.dispatchWorkgroups(...spec.dispatch);
  pass.end();
  for (const x of bufs) enc.copyBufferToBuffer(x.buffer, 0, x.read, 0, x.total);
  device.queue.submit([enc.finish()]);
  const errs = await popAll();
  if (errs.length) return { status: 'error', message: errs.join('; ') };
  const bindings = {};
  if (outDir) mkdirSync(join(outDir, k.name), { recursive: true });
  let escaped = false;
  for (const x of bufs) {
    await x.read.mapAsync(GPUMapMode.READ);
    const all = new Uint8Array(x.read.getMappedRange().slice(0));
    x.read.unmap(); x.read.destroy(); x.buffer.destroy();
    const w = new Uint32Array(all.buffer);
    let esc = false;
    for (let i = 0; i < x.b.pad / 4; i++) if (w[i] !== CANARY || w[w.length - 1 - i] !== CANARY) esc = true;
    escaped ||= esc;
    const key = `${x.b.group}:${x.b.binding}`;
    bindings[key] = { size: x.b.size, escaped: esc };
    if (outDir) {
      writeFileSync(join(outDir, k.name, `${x.b.group}_${x.b.binding}.in.bin`), x.init);
      writeFileSync(join(outDir, k.name, `${x.b.group}_${x.b.binding}.out.bin`), all.subarray(x.b.pad, x.b.pad + x.b.size));
    }
  }
  if (escaped) return { status: 'error', message: 'a write escaped its binding (pad canary changed)', bindings };
  return { status: 'ok', bindings };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.on('unhandledRejection', e => fail(`unhandled: ${e && e.stack || e}`));
  await main();
}
