// The one sandbox for untrusted JavaScript (a student's submission, a pack's reference and
// wrong implementations), used by the page's worker (sandbox/worker.js) and by the CLI's
// host process (cli/sandbox-host.js).
//
// Why QuickJS compiled to WebAssembly: the code runs inside an interpreter that has no host
// functions at all. There is no fetch, import(), FontFace, postMessage, require, process or
// file system to reach, not because we deleted them but because they never existed in that
// realm; code written after this file cannot find what is not there. Node's `vm` and
// "delete the globals in a worker" both failed for that reason (see docs/browser-repairs.md, "The code sandbox"). The other
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
//   output  a returned value is serialised inside the sandbox by the prelude's serialiser
//           (PRELUDE below), which stops at MAX_VALUE_CHARS of JSON or MAX_VALUE_DEPTH levels
//           of nesting and writes lone surrogates as U+FFFD, so what leaves the interpreter
//           is small, shallow, well-formed JSON that node, the browser and the engine all
//           read; an error message is cut inside the sandbox too, then to MAX_ERROR_CHARS on
//           a code-point boundary.
// Sorting without a comparator (Array and typed arrays) is given a comparator written in
// JavaScript, so the interrupt is polled while it sorts and the deadline stops it; the
// built-in's C comparison never polls. Loops inside other built-ins (indexOf over a sparse
// array of 4e9 slots) still only end with the hard stop from outside.
// Promise jobs (microtasks) are never run: the host never calls executePendingJobs, so a
// loop scheduled with .then() does not execute at all.
'use strict';

const MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;
const WASM_PAGE = 64 * 1024;
const INITIAL_BYTES = 16 * 1024 * 1024;  // the interpreter build's own INITIAL_MEMORY
const KEEP_INSTANCE_BYTES = 64 * 1024 * 1024;
const MAX_STACK_BYTES = 256 * 1024;
const MAX_VALUE_CHARS = 64 * 1024;
const MAX_VALUE_DEPTH = 64;
const MAX_TOTAL_CHARS = 1024 * 1024;
const MAX_ERROR_CHARS = 400;
const MAX_SOURCE_CHARS = 256 * 1024;
const MAX_CASES = 1000;
const FILE = 'solution.js';

const LIMITS = {
  memory_mb: MEMORY_LIMIT_BYTES / (1024 * 1024),
  stack_kb: MAX_STACK_BYTES / 1024,
  value_kb: MAX_VALUE_CHARS / 1024,
  value_depth: MAX_VALUE_DEPTH,
  source_kb: MAX_SOURCE_CHARS / 1024,
};

// Lone surrogates become U+FFFD: the engine reads results as UTF-8 and cannot hold them.
// (A loop, not a regular expression with lookbehind, which older Safari cannot parse.)
function wellFormed(s) {
  s = String(s);
  let out = '', from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = s.charCodeAt(i + 1);
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      i++;
      continue;
    }
    out += s.slice(from, i) + '\ufffd';
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

// Cuts to at most n UTF-16 units without splitting a surrogate pair.
function clip(s, n) {
  s = wellFormed(s);
  if (s.length <= n) return s;
  const last = s.charCodeAt(n - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n) + '…';
}

// An error message is one line of prose: line breaks become spaces and other control
// characters (terminal escapes, NUL) U+FFFD.
function oneLine(s) {
  return s.replace(/[\r\n\t]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}

function lineOf(stack) {
  const m = /solution\.js:(\d+)/.exec(String(stack || ''));
  return m ? Number(m[1]) : 0;
}

// Evaluated in each fresh context before any submitted code. It captures every built-in it
// uses first, so code that later replaces Object.keys, JSON or a prototype's methods in its
// own realm changes nothing here; it builds its output by string concatenation and object
// literals only (no array writes or property sets a prototype setter could intercept).
// Returns [serialise, text]:
//   serialise(value) -> the JSON text, undefined (nothing to serialise: a function, symbol
//     or undefined), or a number: 1 too large, 2 too deeply nested, 3 circular, 4 a BigInt.
//     It follows JSON.stringify (toJSON, boxed primitives, holes and non-finite numbers as
//     null) and writes lone surrogates as U+FFFD. Errors thrown by the value's own code
//     (getters, toJSON, proxy traps) propagate.
//   text(value, n) -> a string cut to n + 1 units and made well-formed, else undefined.
// It also gives sort() without a comparator a JavaScript comparator, so the interrupt is
// polled while sorting.
const PRELUDE = String.raw`(function (maxChars, maxDepth) {
  'use strict';
  const apply = Reflect.apply, keys = Object.keys, isArray = Array.isArray, quote = JSON.stringify;
  const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf;
  const charCodeAt = String.prototype.charCodeAt, slice = String.prototype.slice, toString = String;
  const unbox = [Number.prototype.valueOf, String.prototype.toString, Boolean.prototype.valueOf,
                 typeof BigInt === 'function' ? BigInt.prototype.valueOf : undefined];
  const STOP = {};
  let code = 0;
  const stop = (c) => { code = c; throw STOP; };

  function wellFormed(s) {
    let out = '', from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = apply(charCodeAt, s, [i]);
      if (c < 0xd800 || c > 0xdfff) continue;
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = apply(charCodeAt, s, [i + 1]);
        if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      }
      out += apply(slice, s, [from, i]) + '\ufffd';
      from = i + 1;
    }
    return from === 0 ? s : out + apply(slice, s, [from]);
  }

  // JSON.stringify's SerializeJSONProperty steps 2-4: toJSON, then boxed primitives.
  function resolve(v, key) {
    if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
      const toJSON = v.toJSON;
      if (typeof toJSON === 'function') v = apply(toJSON, v, [key]);
    }
    if (typeof v === 'object' && v !== null) {
      for (let k = 0; k < 4; k++) {
        if (!unbox[k]) continue;
        try { return apply(unbox[k], v, []); } catch (e) { /* not that kind of box */ }
      }
    }
    return v;
  }

  const skipped = (v) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

  function write(v, out, depth, up) {
    if (v === null) return out + 'null';
    switch (typeof v) {
      case 'boolean': return out + (v ? 'true' : 'false');
      case 'number': return out + (v === v && v !== Infinity && v !== -Infinity ? quote(v) : 'null');
      case 'bigint': return stop(4);
      case 'string':
        if (out.length + v.length + 2 > maxChars) stop(1);
        return out + quote(wellFormed(v));
    }
    if (depth >= maxDepth) stop(2);
    for (let p = up; p; p = p.up) if (p.v === v) stop(3);
    const here = { v, up };
    if (isArray(v)) {
      const n = v.length;
      out += '[';
      for (let i = 0; i < n; i++) {
        if (i) out += ',';
        const item = resolve(v[i], '' + i);
        out = skipped(item) ? out + 'null' : write(item, out, depth + 1, here);
        if (out.length > maxChars) stop(1);
      }
      return out + ']';
    }
    const names = keys(v);
    let first = true;
    out += '{';
    for (let i = 0; i < names.length; i++) {
      const item = resolve(v[names[i]], names[i]);
      if (skipped(item)) continue;
      out += (first ? '' : ',') + quote(wellFormed(names[i])) + ':';
      first = false;
      if (out.length > maxChars) stop(1);
      out = write(item, out, depth + 1, here);
    }
    return out + '}';
  }

  function serialise(value) {
    try {
      const v = resolve(value, '');
      return skipped(v) ? undefined : write(v, '', 0, null);
    } catch (e) {
      if (e === STOP) return code;
      throw e;
    }
  }

  function text(v, n) {
    if (typeof v !== 'string') return undefined;
    return wellFormed(v.length > n + 1 ? apply(slice, v, [0, n + 1]) : v);
  }

  // The specification's default orders: strings by UTF-16 code units, typed arrays
  // numerically with -0 before +0 and NaN last.
  // ToString, which String() is except that it converts a Symbol instead of throwing.
  const toText = (x) => {
    if (typeof x === 'symbol') throw new TypeError('cannot convert a Symbol to a string');
    return toString(x);
  };
  const byString = (x, y) => {
    const a = toText(x), b = toText(y);
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const byNumber = (x, y) => {
    if (x !== x) return y !== y ? 0 : 1;
    if (y !== y || x < y) return -1;
    if (x > y) return 1;
    if (x === 0 && y === 0 && typeof x === 'number') return (1 / x < 0 ? 0 : 1) - (1 / y < 0 ? 0 : 1);
    return 0;
  };
  const withDefault = (proto, name, compare) => {
    const builtin = proto && proto[name];
    if (typeof builtin !== 'function') return;
    const wrapped = { [name](cmp) { return apply(builtin, this, [cmp === undefined ? compare : cmp]); } }[name];
    defineProperty(proto, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  };
  const typed = getPrototypeOf(Int8Array.prototype);
  withDefault(Array.prototype, 'sort', byString);
  withDefault(Array.prototype, 'toSorted', byString);
  withDefault(typed, 'sort', byNumber);
  withDefault(typed, 'toSorted', byNumber);
  return [serialise, text];
})`;

// The host's hard stop (terminate / SIGKILL) needs this to be reported as a result too.
function timeoutResult(limitMs) {
  return { kind: 'timeout', error: `time limit exceeded (${Math.round(limitMs)} ms)` };
}

// Reads an error thrown inside the sandbox as {name, message, line} without trusting it:
// every property is read through the API and cut inside the sandbox by the prelude's text()
// (a 10 MB message never leaves it), its type checked. Getters the code defined may run
// here; they run inside the same limits.
function describeError(vm, handle, text) {
  const out = { name: '', message: '', line: 0, isNull: false };
  // A string cut to n units inside the sandbox, else undefined.
  const cut = (h, n) => {
    const limit = vm.newNumber(n);
    const r = vm.callFunction(text, vm.undefined, h, limit);
    limit.dispose();
    if (r.error) {
      r.error.dispose();
      return undefined;
    }
    const s = vm.typeof(r.value) === 'string' ? vm.getString(r.value) : undefined;
    r.value.dispose();
    return s;
  };
  try {
    const t = vm.typeof(handle);
    if (t === 'object' && vm.dump(handle) === null) {
      out.isNull = true;
      out.message = 'null';
      return out;
    }
    if (t !== 'object') {
      const shown = t === 'string' ? cut(handle, MAX_ERROR_CHARS) : t === 'number' ? String(vm.getNumber(handle)) : 'a thrown ' + t;
      out.message = oneLine(clip(shown || '', MAX_ERROR_CHARS));
      return out;
    }
    const read = (key, n) => {
      const h = vm.getProp(handle, key);
      try {
        return vm.typeof(h) === 'number' ? vm.getNumber(h) : cut(h, n);
      } finally {
        h.dispose();
      }
    };
    const name = read('name', 60), message = read('message', MAX_ERROR_CHARS), stack = read('stack', 2000);
    const line = read('lineNumber', 0);
    out.name = typeof name === 'string' ? oneLine(clip(name, 60)) : '';
    out.message = typeof message === 'string' ? oneLine(clip(message, MAX_ERROR_CHARS)) : '';
    out.line = lineOf(typeof stack === 'string' ? stack : '') || 0;
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

const VALUE_LIMITS = {
  1: `the returned value is larger than ${LIMITS.value_kb} KB as JSON`,
  2: `the returned value is nested more than ${MAX_VALUE_DEPTH} levels deep`,
  3: 'the returned value cannot be read as JSON: it contains itself (a circular reference)',
  4: 'the returned value cannot be read as JSON: it holds a BigInt',
};

// Evaluates `source` after the prelude and finds `fn`: {fn: handle} or {result} when the
// program cannot run (syntax error, top-level throw, no such function).
function loadProgram(run, source, fn) {
  const { vm, keep } = run;
  const fail = (handle, kind) => {
    const d = describeError(vm, handle, run.text);
    handle.dispose();
    const limit = run.failure(d);
    return { result: limit ? { ...limit, outcomes: [] } : { kind, error: errorText(d), line: d.line, outcomes: [] } };
  };
  const prelude = vm.evalCode(`${PRELUDE}(${MAX_VALUE_CHARS}, ${MAX_VALUE_DEPTH})`, 'dtx-prelude.js');
  if (prelude.error) return fail(prelude.error, 'runtime');
  const helpers = keep(prelude.value);
  run.serialise = keep(vm.getProp(helpers, 0));
  run.text = keep(vm.getProp(helpers, 1));
  // Captured before any submitted code runs, like the prelude's built-ins.
  run.parse = keep(vm.getProp(keep(vm.getProp(vm.global, 'JSON')), 'parse'));

  const compiled = vm.evalCode(source, FILE, { compileOnly: true });
  if (compiled.error) return fail(compiled.error, 'syntax');
  compiled.value.dispose();
  const top = vm.evalCode(source, FILE);
  if (top.error) return fail(top.error, 'runtime');
  top.value.dispose();
  // let/const/class declarations are not properties of the global object: look the name up
  // with a script in the same global scope.
  const found = vm.evalCode(`(typeof ${fn} === 'function') ? ${fn} : undefined`, 'dtx-lookup.js');
  if (found.error) return fail(found.error, 'runtime');
  const fnHandle = keep(found.value);
  if (vm.typeof(fnHandle) !== 'function') return { result: { kind: 'missing', error: `Define a function named ${fn}.`, outcomes: [] } };
  return { fn: fnHandle };
}

// One case's returned value as an outcome, read through the prelude's serialiser: {ok,
// value} or {ok: false, error}; or {limit} when a limit of the whole program was hit.
function readValue(run, r) {
  const { vm } = run;
  const t = vm.typeof(r);
  if (t === 'number') {
    const v = vm.getNumber(r);
    return { ok: true, value: Number.isFinite(v) ? v : String(v) };
  }
  if (t === 'undefined') return { ok: true, value: null };
  const s = vm.callFunction(run.serialise, vm.undefined, r);
  if (s.error) {
    const d = describeError(vm, s.error, run.text);
    s.error.dispose();
    const limit = run.failure(d);
    return limit ? { limit } : { ok: false, error: 'the returned value cannot be read as JSON: ' + errorText(d) };
  }
  const sh = run.keep(s.value);
  const st = vm.typeof(sh);
  if (st === 'number') return { ok: false, error: VALUE_LIMITS[vm.getNumber(sh)] || VALUE_LIMITS[1] };
  if (st !== 'string') return { ok: true, value: null };  // a function or symbol: nothing to read
  const json = vm.getString(sh);
  run.total += json.length;
  if (json.length > MAX_VALUE_CHARS || run.total > MAX_TOTAL_CHARS) return { ok: false, error: VALUE_LIMITS[1] };
  return { ok: true, value: JSON.parse(json) };
}

// Calls `fnHandle` on every case; returns the program's result.
function runCases(run, fnHandle, cases) {
  const { vm, keep } = run;
  const outcomes = [];
  for (const args of cases.slice(0, MAX_CASES)) {
    const argList = Array.isArray(args) ? args : [];
    const parsed = vm.callFunction(run.parse, vm.undefined, keep(vm.newString(JSON.stringify(argList))));
    if (parsed.error) {
      parsed.error.dispose();
      const limit = run.failure({ name: '', message: '' });
      return { ...(limit || { kind: 'runtime', error: 'the arguments could not be passed in' }), outcomes };
    }
    const arr = keep(parsed.value);
    const argv = argList.map((_, i) => keep(vm.getProp(arr, i)));
    const res = vm.callFunction(fnHandle, vm.undefined, ...argv);
    if (res.error) {
      const d = describeError(vm, res.error, run.text);
      res.error.dispose();
      const limit = run.failure(d);
      if (limit) return { ...limit, outcomes };
      const msg = d.name === 'InternalError' && /stack overflow/.test(d.message)
        ? `too much recursion (the stack limit is ${LIMITS.stack_kb} KB)` : errorText(d);
      outcomes.push({ ok: false, error: msg + (d.line ? ` (line ${d.line})` : '') });
      continue;
    }
    const outcome = readValue(run, keep(res.value));
    if (outcome.limit) return { ...outcome.limit, outcomes };
    outcomes.push(outcome);
  }
  return { kind: 'none', outcomes };
}

// Runs one program (source defining `fn`) on every case in a fresh runtime, and disposes it.
// Returns {kind: 'none'|'syntax'|'missing'|'runtime'|'timeout'|'memory', error, line, outcomes}.
// The caller discards the interpreter instance when `discard` is set on the result.
function runProgram(QuickJS, source, fn, cases, limitMs, memoryNearlyFull = () => false) {
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
  const run = {
    vm,
    total: 0,
    keep: (h) => (handles.push(h), h),
    // Classifies a failure of the whole program or of one call: the limits first, then errors.
    failure: (d) => {
      if (Date.now() >= deadline) return timeoutResult(limitMs);
      // When memory is so short that the error object itself cannot be made, QuickJS throws null.
      if ((d.name === 'InternalError' && /out of memory/.test(d.message)) || (d.isNull && memoryNearlyFull())) {
        return { kind: 'memory', error: `memory limit exceeded (${LIMITS.memory_mb} MB)`, discard: true };
      }
      return null;
    },
  };
  try {
    const loaded = loadProgram(run, source, fn);
    return loaded.result || runCases(run, loaded.fn, cases);
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

const INTERPRETER_FAILED = 'the program made the sandbox\'s interpreter fail (an internal error), so it was stopped';

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
    // The interpreter's own message (an internal assertion, a wasm trap) means nothing to a
    // student: a plain sentence instead.
    return { kind: 'runtime', error: INTERPRETER_FAILED, outcomes: [] };
  }
  if (r.discard || provider.bytes() > KEEP_INSTANCE_BYTES) provider.discard();
  return r;
}

// The engine's CodeRunRequest -> CodeRunResult (engine/code_runner.h). The reference runs in a
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

module.exports = { runRequest, createProvider, timeoutResult, wellFormed, LIMITS };
