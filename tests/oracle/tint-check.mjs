#!/usr/bin/env node
// tint-check.mjs - the project's Tint oracle: asks Tint (the WGSL compiler inside dawn.node, npm
// package "webgpu", installed into $BUILD/npm by tests/oracle/install.sh) whether WGSL files are
// valid, and prints its verdict and messages as JSON, one line per file.  Used by
// tests/oracle/tint_diff.py (wgc check vs Tint over the repository's .wgsl files),
// tests/wgsl/syntax_diff.py (parser errors on mutants) and tests/wgsl/test_parity_dawn.sh.
//
// Design.  Dawn runs on its null backend (no GPU needed); one device with every feature the
// adapter offers (so `enable f16;` and `enable subgroups;` validate) checks all files in turn:
// createShaderModule inside a validation error scope, then getCompilationInfo().  A file is
// valid when the scope caught nothing and no message is an error.  Two things about dawn.node
// shape the rest: it writes compiler logs to the process's native stdout, and it can crash or
// hang on odd input.  So the checks run in a child process (this same script, started with
// TINT_CHECK_WORKER=1) whose stdout is thrown away; the parent sends it one file's source at a
// time over IPC, prints the answers, and when the worker dies or overruns --timeout it records
// that file as a crash and starts a fresh worker for the files after it.
//
// Usage: node tests/oracle/tint-check.mjs [--pkg DIR] [--unsafe] [--quiet-info] [--timeout S]
//                                         (FILE... | --list PATHS)
//   --pkg DIR      the "webgpu" package directory (the one holding index.js); default
//                  $WEBGPU_PKG, else build/npm/node_modules/webgpu in this checkout.
//   --unsafe       enable Dawn's allow_unsafe_apis (experimental chromium_* extensions).
//   --quiet-info   leave out "info" messages (Tint's uniformity notes).
//   --timeout S    seconds one file may take before its worker is killed (default 60).
//   --list PATHS   read the files to check from PATHS, one per line (added to any FILE given).
// Output, one JSON line per file, in the order given:
//   {"ok":true|false, "file":PATH, "messages":[{"type","line","col","offset","length","message"}]}
//   (line and col 1-based; col, offset and length in UTF-16 code units, as GPUCompilationMessage
//   counts them), or {"ok":null, "file":PATH, "crash":WHY, "messages":[]} when the worker died.
// Exit status: 0 every file valid, 1 some file invalid or crashed, 2 usage or setup error.

import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);

function die(msg) {
  process.stderr.write(`tint-check: ${msg}\n`);
  process.exit(2);
}

function errorMessage(message) {
  return { type: 'error', line: 0, col: 0, offset: 0, length: 0, message };
}

// ------------------------------------------------------------------------------ the worker
async function worker() {
  process.on('disconnect', () => process.exit(0)); // the parent is done, or gone
  const { pkg, unsafe, quietInfo } = JSON.parse(process.env.TINT_CHECK_OPTIONS);
  const { create } = await import(pathToFileURL(join(pkg, 'index.js')).href);
  const gpu = create(unsafe ? ['backend=null', 'enable-dawn-features=allow_unsafe_apis'] : ['backend=null']);
  const adapter = await gpu.requestAdapter();
  if (!adapter) {
    process.send({ fatal: 'Dawn offers no null-backend adapter' });
    return;
  }
  const device = await adapter.requestDevice({ requiredFeatures: [...adapter.features] });
  // Every dawn.node object stays referenced for the worker's whole life: when V8 collected
  // the GPU object while the device was still in use, dawn.node 0.6.2 aborted or hung after
  // a few hundred shaders.
  globalThis.tintCheckAlive = { gpu, adapter, device };
  device.onuncapturederror = () => {};
  device.lost.then(() => process.exit(4)); // the parent sees the exit and records a crash

  process.on('message', async ({ code }) => {
    let answer, module, thrown = null;
    try {
      device.pushErrorScope('validation');
      try { module = device.createShaderModule({ code }); } catch (e) { thrown = e; }
      const scopeError = await device.popErrorScope(); // popped even when creation threw
      if (thrown) throw thrown;
      const info = await module.getCompilationInfo();
      const messages = info.messages
        .filter((m) => !(quietInfo && m.type === 'info'))
        .map((m) => ({ type: m.type, line: m.lineNum, col: m.linePos, offset: m.offset,
                       length: m.length, message: m.message }));
      if (scopeError && !messages.some((m) => m.type === 'error'))
        messages.push(errorMessage(scopeError.message.trim()));
      answer = { ok: !scopeError && !messages.some((m) => m.type === 'error'), messages };
    } catch (e) {
      answer = { ok: false, messages: [errorMessage(`exception: ${e.message}`)] };
    }
    process.send(answer);
  });
  process.send({ ready: true });
}

// ------------------------------------------------------------------------------ the parent
function parseArgs(args) {
  const o = { pkg: process.env.WEBGPU_PKG || '', unsafe: false, quietInfo: false, timeout: 60, files: [] };
  const value = (i, what) => (i < args.length ? args[i] : die(`${args[i - 1]} needs ${what}`));
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--pkg') o.pkg = value(++i, 'a directory');
    else if (a === '--unsafe') o.unsafe = true;
    else if (a === '--quiet-info') o.quietInfo = true;
    else if (a === '--timeout') o.timeout = Number(value(++i, 'seconds'));
    else if (a === '--list') {
      const list = value(++i, 'a file');
      let text;
      try { text = readFileSync(list, 'utf8'); } catch (e) { die(`cannot read ${list}: ${e.message}`); }
      o.files.push(...text.split('\n').map((l) => l.trim()).filter((l) => l));
    } else if (a.startsWith('-')) die(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (!o.pkg) o.pkg = join(dirname(self), '..', '..', 'build', 'npm', 'node_modules', 'webgpu');
  o.pkg = resolve(o.pkg);
  if (!existsSync(join(o.pkg, 'index.js')))
    die(`no webgpu package at ${o.pkg} (sh tests/oracle/install.sh installs it; pass --pkg DIR)`);
  if (!(o.timeout > 0)) die('--timeout needs a positive number of seconds');
  if (o.files.length === 0) die('no files to check');
  return o;
}

// Starts a worker and checks files[from...] with it until the list ends (resolves with
// files.length) or the worker dies or overruns on a file (resolves with the index after it).
function runWorker(o, from, print) {
  return new Promise((done) => {
    const child = fork(self, [], {
      env: { ...process.env, TINT_CHECK_WORKER: '1',
             TINT_CHECK_OPTIONS: JSON.stringify({ pkg: o.pkg, unsafe: o.unsafe, quietInfo: o.quietInfo }) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-2000); });
    let cur = -1, timer = null, finished = false;
    const finish = (next) => {
      finished = true;
      clearTimeout(timer);
      done(next);
    };
    const sendNext = () => {
      cur = cur < 0 ? from : cur + 1;
      if (cur >= o.files.length) {
        child.disconnect();
        finish(cur);
        return;
      }
      let code;
      try {
        code = readFileSync(o.files[cur], 'utf8');
      } catch (e) {
        print(cur, { ok: false, messages: [errorMessage(`cannot read: ${e.message}`)] });
        sendNext();
        return;
      }
      timer = setTimeout(() => {
        print(cur, { ok: null, crash: `no answer after ${o.timeout}s`, messages: [] });
        finished = true; // the exit that follows is ours
        child.kill('SIGKILL');
        done(cur + 1);
      }, o.timeout * 1000);
      child.send({ code });
    };
    child.on('message', (m) => {
      if (finished) return; // a late answer from a worker given up on
      if (m.fatal) die(m.fatal);
      if (m.ready) return sendNext();
      clearTimeout(timer);
      print(cur, m);
      sendNext();
    });
    child.on('exit', (status, signal) => {
      if (finished) return;
      const how = signal ? `signal ${signal}` : `status ${status}`;
      if (cur < 0) die(`the worker ended before it was ready (${how}): ${stderr.trim()}`);
      print(cur, { ok: null, crash: `worker died (${how})`, messages: [] });
      finish(cur + 1);
    });
  });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  let allValid = true;
  const print = (i, r) => {
    if (r.ok !== true) allValid = false;
    const line = { ok: r.ok, file: o.files[i], ...(r.crash ? { crash: r.crash } : {}), messages: r.messages };
    process.stdout.write(JSON.stringify(line) + '\n');
  };
  for (let next = 0; next < o.files.length;) next = await runWorker(o, next, print);
  process.exitCode = allValid ? 0 : 1;
}

if (process.env.TINT_CHECK_WORKER === '1') await worker();
else await main();
