// The CLI's code host: one long-lived node process per `dtx` run that runs every submission
// (and every pack reference or wrong implementation `dtx lint` tries) in the QuickJS sandbox
// of web/sandbox/sandbox-core.js. Bundled by scripts/build-sandbox.mjs into
// build/sandbox/dtx-sandbox-host.cjs, next to quickjs.wasm.
//
// Protocol (cli/sandbox_runner.cpp): one CodeRunRequest as JSON per line on stdin, one
// CodeRunResult as JSON per line on stdout, in order; "ready" first, once the interpreter is
// loaded. The parent kills this process with SIGKILL when a request outlives its hard
// deadline and starts a new one, so nothing here has to be interruptible.
//
// Untrusted code never runs in this process's JavaScript realm: it is a string handed to the
// interpreter inside WebAssembly. The parent starts node with its permission model on (no
// file writes, no child processes, no workers; reads only where this file and the wasm are)
// so even a flaw in the interpreter would find little to reach.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { newQuickJSWASMModuleFromVariant, newVariant } = require('quickjs-emscripten-core');
const baseVariant = require('@jitl/quickjs-wasmfile-release-sync').default;
const { runRequest, createProvider } = require('../web/sandbox/sandbox-core.js');

const MAX_LINE_CHARS = 8 * 1024 * 1024;

async function main() {
  const wasmPath = path.join(__dirname, 'quickjs.wasm');
  const wasmModule = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const provider = createProvider({ wasmModule, newQuickJSWASMModuleFromVariant, newVariant, baseVariant });
  await provider.get();
  const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  out({ ready: true });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let request;
    try {
      if (line.length > MAX_LINE_CHARS) throw new Error('request too large');
      request = JSON.parse(line);
    } catch (e) {
      out({ kind: 'runtime', error: 'the code runner could not read its request: ' + e.message, student: [] });
      continue;
    }
    let result;
    try {
      result = await runRequest(provider, request);
    } catch (e) {
      // Not the code under test (that is caught per program): a fault of this host. Answer,
      // and exit so the parent starts a fresh one.
      out({ kind: 'runtime', error: 'the code runner failed: ' + String(e && e.message).slice(0, 200), student: [] });
      process.exit(3);
    }
    out(result);
  }
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ kind: 'runtime', error: 'the code runner could not start: ' + String(e && e.message), student: [] }) + '\n');
  process.exit(2);
});
