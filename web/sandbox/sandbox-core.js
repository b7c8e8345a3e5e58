// The one sandbox for untrusted JavaScript (a student's submission, a pack's reference and
// wrong implementations), used by the page's worker (web/sandbox/worker.js) and by the CLI's
// host process (cli/sandbox-host.js).
//
// Why QuickJS compiled to WebAssembly: the code runs inside an interpreter that has no host
// functions at all. There is no fetch, import(), FontFace, postMessage, require, process or
// file system to reach, not because we deleted them but because they never existed in that
// realm; code written after this file cannot find what is not there. Node's `vm` and
// "delete the globals in a worker" both failed for that reason (see WEB-PITFALLS.md). The other
// candidates: SES compartments run in the host realm (one bug in lockdown and the host is
// exposed, and SES has no memory or CPU limit of its own); an opaque-origin iframe cannot run
// in the CLI, so the two runners would differ.
//
// The grader's side of the boundary is this file. It keeps expected values entirely (they are
// never sent here); it passes each case's arguments in only for the call in progress; it reads
// each result back through the interpreter's API as plain data, so code under test has no
// channel to report an outcome it did not return.
//
// Limits per program (the student's and the reference each get their own):
//   time    an interrupt handler polled by the interpreter (loops, calls, regex backtracking)
//           stops the program at the deadline; built-ins that never poll (sorting a 4-billion
//           element sparse array) are stopped from outside: the page terminates the worker,
//           the CLI kills the host process (SIGKILL) — neither is a signal code can catch;
//   memory  the interpreter's whole WebAssembly memory is a WebAssembly.Memory we create with
//           a maximum of MEMORY_LIMIT_BYTES, so an allocation past it fails inside the
//           interpreter ("out of memory"). QuickJS's own JS_SetMemoryLimit is not used: this
//           build has no malloc_usable_size, so it counts 8 bytes per allocation whatever
//           its size (measured: 2 GB of strings passed a 64 MB limit). An interpreter
//           instance that ran out of memory, threw into the host, or grew past
//           KEEP_INSTANCE_BYTES is discarded and the next program gets a fresh one (about
//           3 ms to instantiate from the compiled module);
//   stack   MAX_STACK_BYTES, small enough that QuickJS reports the overflow before the
//           host's own stack runs out;
//   output  a returned value is read back only up to MAX_VALUE_CHARS of JSON, an error
//           message up to MAX_ERROR_CHARS.
// Promise jobs (microtasks) are never run: the host never calls executePendingJobs, so a
// loop scheduled with .then() does not execute at all.
'use strict';

const MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;
const WASM_PAGE = 64 * 1024;
const INITIAL_BYTES = 16 * 1024 * 1024;  // the interpreter build's own INITIAL_MEMORY
const KEEP_INSTANCE_BYTES = 64 * 1024 * 1024;
const MAX_STACK_BYTES = 256 * 1024;
const MAX_VALUE_CHARS = 64 * 1024;
const MAX_TOTAL_CHARS = 1024 * 1024;
const MAX_ERROR_CHARS = 400;
const MAX_SOURCE_CHARS = 256 * 1024;
const MAX_CASES = 1000;
const FILE = 'solution.js';

const LIMITS = {
  memory_mb: MEMORY_LIMIT_BYTES / (1024 * 1024),
  stack_kb: MAX_STACK_BYTES / 1024,
  value_kb: MAX_VALUE_CHARS / 1024,
  source_kb: MAX_SOURCE_CHARS / 1024,
};

function clip(s, n) {
  s = String(s);
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function lineOf(stack) {
  const m = /solution\.js:(\d+)/.exec(String(stack || ''));
  return m ? Number(m[1]) : 0;
}

// The host's hard stop (terminate / SIGKILL) needs this to be reported as a result too.
function timeoutResult(limitMs) {
  return { kind: 'timeout', error: `time limit exceeded (${Math.round(limitMs)} ms)` };
}

// Reads an error thrown inside the sandbox as {name, message, line} without trusting it:
// every property is read through the API, its type checked, its length capped. Getters the
// code defined may run here; they run inside the same limits.
function describeError(vm, handle) {
  const out = { name: '', message: '', line: 0, isNull: false };
  try {
    const t = vm.typeof(handle);
    if (t === 'object' && vm.dump(handle) === null) {
      out.isNull = true;
      out.message = 'null';
      return out;
    }
    if (t !== 'object') {
      out.message = clip(t === 'string' ? vm.getString(handle) : t === 'number' ? String(vm.getNumber(handle)) : 'a thrown ' + t, MAX_ERROR_CHARS);
      return out;
    }
    const read = (key) => {
      const h = vm.getProp(handle, key);
      try {
        const ht = vm.typeof(h);
        if (ht === 'string') return vm.getString(h);
        if (ht === 'number') return vm.getNumber(h);
        return undefined;
      } finally {
        h.dispose();
      }
    };
    const name = read('name'), message = read('message'), stack = read('stack'), line = read('lineNumber');
    out.name = typeof name === 'string' ? clip(name, 60) : '';
    out.message = typeof message === 'string' ? clip(message, MAX_ERROR_CHARS) : '';
    out.line = lineOf(typeof stack === 'string' ? stack.slice(0, 2000) : '') || 0;
    // A syntax error's position is the compiler's: lineNumber, set on the error itself.
    if (!out.line && out.name === 'SyntaxError' && typeof line === 'number' && line > 0) out.line = line;
  } catch (e) {
    // Reading the error failed (the deadline hit inside a getter, say): the message is unknown.
    out.message = out.message || 'an error that could not be read';
  }
  return out;
}

function errorText(d) {
  if (!d.name) return d.message;
  return d.message ? `${d.name}: ${d.message}` : d.name;
}

// Runs one program (source defining `fn`) on every case in a fresh runtime, and disposes it.
// Returns {kind: 'none'|'syntax'|'missing'|'runtime'|'timeout'|'memory', error, line, outcomes}.
function runProgram(QuickJS, source, fn, cases, limitMs, memoryNearlyFull = () => false) {
  // The caller discards the interpreter instance when `discard` is set on the result.
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(fn)) return { kind: 'missing', error: 'The exercise names no valid function.', outcomes: [] };
  if (typeof source !== 'string') source = '';
  if (source.length > MAX_SOURCE_CHARS) {
    return { kind: 'syntax', error: `the code is longer than ${LIMITS.source_kb} KB`, outcomes: [] };
  }
  const rt = QuickJS.newRuntime();
  rt.setMaxStackSize(MAX_STACK_BYTES);
  const deadline = Date.now() + limitMs;
  rt.setInterruptHandler(() => Date.now() >= deadline);
  const vm = rt.newContext();
  const handles = [];
  const keep = (h) => (handles.push(h), h);
  const outcomes = [];
  // Classifies a failure of the whole program or of one call: the limits first, then errors.
  const failure = (d) => {
    if (Date.now() >= deadline) return timeoutResult(limitMs);
    // When memory is so short that the error object itself cannot be made, QuickJS throws null.
    if ((d.name === 'InternalError' && /out of memory/.test(d.message)) || (d.isNull && memoryNearlyFull())) {
      return { kind: 'memory', error: `memory limit exceeded (${LIMITS.memory_mb} MB)`, discard: true };
    }
    return null;
  };
  try {
    // Captured before any submitted code runs: the code may replace JSON.parse/stringify in its
    // own realm, but these handles keep pointing at the built-ins.
    const json = keep(vm.getProp(vm.global, 'JSON'));
    const parse = keep(vm.getProp(json, 'parse'));
    const stringify = keep(vm.getProp(json, 'stringify'));

    const compiled = vm.evalCode(source, FILE, { compileOnly: true });
    if (compiled.error) {
      const d = describeError(vm, compiled.error);
      compiled.error.dispose();
      const limit = failure(d);
      if (limit) return { ...limit, outcomes };
      return { kind: 'syntax', error: errorText(d), line: d.line, outcomes };
    }
    compiled.value.dispose();
    const top = vm.evalCode(source, FILE);
    if (top.error) {
      const d = describeError(vm, top.error);
      top.error.dispose();
      const limit = failure(d);
      if (limit) return { ...limit, outcomes };
      return { kind: 'runtime', error: errorText(d), line: d.line, outcomes };
    }
    top.value.dispose();
    // let/const/class declarations are not properties of the global object: look the name up
    // with a script in the same global scope.
    const found = vm.evalCode(`(typeof ${fn} === 'function') ? ${fn} : undefined`, 'dtx-lookup.js');
    if (found.error) {
      const d = describeError(vm, found.error);
      found.error.dispose();
      const limit = failure(d);
      if (limit) return { ...limit, outcomes };
      return { kind: 'runtime', error: errorText(d), line: d.line, outcomes };
    }
    const fnHandle = keep(found.value);
    if (vm.typeof(fnHandle) !== 'function') return { kind: 'missing', error: `Define a function named ${fn}.`, outcomes };

    let total = 0;
    for (const args of cases.slice(0, MAX_CASES)) {
      const text = keep(vm.newString(JSON.stringify(Array.isArray(args) ? args : [])));
      const parsed = vm.callFunction(parse, vm.undefined, text);
      if (parsed.error) {
        parsed.error.dispose();
        const limit = failure({ name: '', message: '' });
        return { ...(limit || { kind: 'runtime', error: 'the arguments could not be passed in' }), outcomes };
      }
      const arr = keep(parsed.value);
      const argv = [];
      for (let i = 0; i < (Array.isArray(args) ? args.length : 0); i++) argv.push(keep(vm.getProp(arr, i)));
      const res = vm.callFunction(fnHandle, vm.undefined, ...argv);
      if (res.error) {
        const d = describeError(vm, res.error);
        res.error.dispose();
        const limit = failure(d);
        if (limit) return { ...limit, outcomes };
        const msg = d.name === 'InternalError' && /stack overflow/.test(d.message)
          ? `too much recursion (the stack limit is ${LIMITS.stack_kb} KB)` : errorText(d);
        outcomes.push({ ok: false, error: msg + (d.line ? ` (line ${d.line})` : '') });
        continue;
      }
      const r = keep(res.value);
      const t = vm.typeof(r);
      if (t === 'number') {
        const v = vm.getNumber(r);
        outcomes.push({ ok: true, value: Number.isFinite(v) ? v : String(v) });
        continue;
      }
      if (t === 'undefined') {
        outcomes.push({ ok: true, value: null });
        continue;
      }
      const s = vm.callFunction(stringify, vm.undefined, r);
      if (s.error) {
        const d = describeError(vm, s.error);
        s.error.dispose();
        const limit = failure(d);
        if (limit) return { ...limit, outcomes };
        outcomes.push({ ok: false, error: 'the returned value cannot be read as JSON: ' + errorText(d) });
        continue;
      }
      const sh = keep(s.value);
      if (vm.typeof(sh) !== 'string') {  // a function or symbol: JSON.stringify gives undefined
        outcomes.push({ ok: true, value: null });
        continue;
      }
      const json = vm.getString(sh);
      total += json.length;
      if (json.length > MAX_VALUE_CHARS || total > MAX_TOTAL_CHARS) {
        outcomes.push({ ok: false, error: `the returned value is larger than ${LIMITS.value_kb} KB as JSON` });
        continue;
      }
      outcomes.push({ ok: true, value: JSON.parse(json) });
    }
    return { kind: 'none', outcomes };
  } finally {
    for (const h of handles.reverse()) if (h.alive) h.dispose();
    vm.dispose();
    rt.dispose();
  }
}

// One interpreter instance at a time, made from the compiled module with a memory of our own
// (the memory cap), replaced after anything that may have left it in a bad state.
function createProvider({ wasmModule, newQuickJSWASMModuleFromVariant, newVariant, baseVariant }) {
  let current = null, memory = null;
  return {
    async get() {
      if (!current) {
        memory = new WebAssembly.Memory({ initial: INITIAL_BYTES / WASM_PAGE, maximum: MEMORY_LIMIT_BYTES / WASM_PAGE });
        current = await newQuickJSWASMModuleFromVariant(newVariant(baseVariant, { wasmModule, wasmMemory: memory }));
      }
      return current;
    },
    discard() {
      current = null;
      memory = null;
    },
    bytes() {
      return memory ? memory.buffer.byteLength : 0;
    },
  };
}

async function runIsolated(provider, source, fn, cases, limitMs) {
  const QuickJS = await provider.get();
  let r;
  try {
    r = runProgram(QuickJS, source, fn, cases, limitMs, () => provider.bytes() > 0.9 * MEMORY_LIMIT_BYTES);
  } catch (e) {
    // The interpreter threw into the host (its wasm stack, a trap): nothing in it can be
    // trusted now. The program's result is an error; the next program gets a new instance.
    provider.discard();
    const msg = String(e && e.message);
    if (/out of memory|memory access out of bounds|Cannot enlarge memory/i.test(msg)) {
      return { kind: 'memory', error: `memory limit exceeded (${LIMITS.memory_mb} MB)`, outcomes: [] };
    }
    if (/call stack/i.test(msg)) return { kind: 'runtime', error: `too much recursion (the stack limit is ${LIMITS.stack_kb} KB)`, outcomes: [] };
    return { kind: 'runtime', error: 'the code runner failed: ' + msg.slice(0, 200), outcomes: [] };
  }
  if (r.discard || provider.bytes() > KEEP_INSTANCE_BYTES) provider.discard();
  return r;
}

// The engine's CodeRunRequest -> CodeRunResult (engine/grade/code.h). The reference runs in a
// runtime of its own, never in the same realm as the student's code.
async function runRequest(provider, request) {
  const limit = Math.max(1, Math.min(Number(request.time_limit_ms) || 2000, 60000));
  const cases = Array.isArray(request.cases) ? request.cases : [];
  const student = await runIsolated(provider, request.source, String(request.function || ''), cases, limit);
  const result = {};
  if (student.kind !== 'none') {
    result.kind = student.kind;
    result.error = student.error;
    if (student.line) result.line = student.line;
  }
  result.student = student.outcomes || [];
  if (request.reference) {
    const ref = await runIsolated(provider, request.reference, String(request.function || ''), cases, limit);
    result.reference = ref.outcomes || [];
  }
  return result;
}

module.exports = { runRequest, createProvider, timeoutResult, LIMITS };
