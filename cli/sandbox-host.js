// The CLI's code host: one long-lived node process per `dtx` run that runs every submission
// (and every pack reference or wrong implementation `dtx lint` tries) in the QuickJS sandbox
// of sandbox/sandbox-core.js. Bundled by scripts/build-sandbox.mjs into
// build/sandbox/dtx-sandbox-host.cjs, next to quickjs.wasm.
//
// Protocol (cli/sandbox_runner.cpp): one CodeRunRequest as JSON per line on stdin, one
// CodeRunResult as JSON per line on stdout, in order; "ready" first, once the interpreter is
// loaded. The parent kills this process with SIGKILL when a request outlives its hard
// deadline and starts a new one, so nothing here has to be interruptible. After a fault of
// its own this process answers the request in progress as failed and exits; the parent
// also restarts it after any result that is not a clean answer (cli/sandbox_runner.cpp).
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
const { runRequest, createProvider, wellFormed } = require('../sandbox/sandbox-core.js');

const MAX_LINE_CHARS = 8 * 1024 * 1024;
const WARM_UP = 'function f(a) { try { null.x; } catch (e) {} return [{ a }, String(a), [3, 1, 2].sort()]; }';

// Anything that goes wrong in this process (not in the code under test) is answered with this
// result, after which the process exits; the parent restarts it for the next request.
const HOST_FAILED = { kind: 'runtime', error: 'the code runner failed while running this program', student: [] };

// One result as one line. The sandbox returns well-formed, capped values; this guards the
// protocol anyway: a result that cannot be written as JSON becomes HOST_FAILED and the
// process exits, so the next request never meets a process in an unknown state.
function send(result) {
  let text;
  try {
    text = JSON.stringify(result, (key, value) => (typeof value === 'string' ? wellFormed(value) : value));
  } catch (e) {
    text = undefined;
  }
  if (typeof text !== 'string' || text.length > MAX_LINE_CHARS) {
    process.stdout.write(JSON.stringify(HOST_FAILED) + '\n');
    process.exit(3);
  }
  process.stdout.write(text + '\n');
}

async function answer(provider, line) {
  let request;
  try {
    if (line.length > MAX_LINE_CHARS) throw new Error('request too large');
    request = JSON.parse(line);
  } catch (e) {
    return { kind: 'runtime', error: 'the code runner could not read its request', student: [] };
  }
  return runRequest(provider, request);
}

async function main() {
  const wasmPath = path.join(__dirname, 'quickjs.wasm');
  const wasmModule = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const provider = createProvider({ wasmModule, newQuickJSWASMModuleFromVariant, newVariant, baseVariant });
  await provider.get();
  // One small program before "ready": the interpreter's code is compiled on first use, which
  // on a loaded machine takes hundreds of milliseconds; without this the first program after
  // every (re)start would pay it inside its own time limit.
  await runRequest(provider, { function: 'f', source: WARM_UP, cases: [[1]], time_limit_ms: 10000 });
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let result;
    try {
      result = await answer(provider, line);
    } catch (e) {
      // Not the code under test (that is caught per program): a fault of this host.
      send(HOST_FAILED);
      process.exit(3);
    }
    send(result);
  }
}

// Whatever escapes main (an exception in a stream, say) ends the process with one answer, so
// the parent never waits on a line that will not come.
process.on('uncaughtException', () => {
  send(HOST_FAILED);
  process.exit(3);
});

main().catch((e) => {
  process.stdout.write(JSON.stringify({ kind: 'runtime', error: 'the code runner could not start: ' + String(e && e.message).slice(0, 300), student: [] }) + '\n');
  process.exit(2);
});
