// Runs a student's function in a Web Worker: no DOM, no network (fetch, XMLHttpRequest,
// WebSocket, importScripts and friends are removed before the code runs), no storage, and a
// time limit after which the worker is terminated, so an infinite loop cannot freeze the
// page. Speaks the engine's CodeRunRequest / CodeRunResult JSON (engine/grade/code.h), the
// same protocol as cli/run_code.js.
'use strict';
(function () {
  // Everything a submission could use to reach outside the worker. Each name is shadowed on
  // the global object and every prototype above it.
  const BLOCKED = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'WebTransport', 'EventSource',
    'importScripts', 'indexedDB', 'caches', 'BroadcastChannel', 'Worker', 'SharedWorker', 'Request', 'Response',
    'Headers', 'navigator', 'location', 'postMessage', 'close', 'onmessage', 'addEventListener', 'localStorage',
    'sessionStorage', 'FileReaderSync', 'RTCPeerConnection', 'WebAssembly'];

  // One line, so student line L is line L + 1 of the worker script.
  const PRELUDE = "const __dtx_post = self.postMessage.bind(self); const __dtx_href = String(self.location.href); " +
    "(function () { for (const k of " + JSON.stringify(BLOCKED) + ") { let o = self; while (o) { " +
    "try { Object.defineProperty(o, k, { value: undefined, writable: false, configurable: false }); } catch (e) {} " +
    "o = Object.getPrototypeOf(o); } } })();";

  function epilogue(fn, cases, studentLines) {
    return `
;(function () {
  function lineOf(e) {
    const s = String((e && e.stack) || '');
    const i = s.indexOf(__dtx_href + ':');
    if (i < 0) return 0;
    const m = s.slice(i + __dtx_href.length).match(/^:(\\d+):/);
    const line = m ? Number(m[1]) - 1 : 0;
    return line >= 1 && line <= ${studentLines} ? line : 0;
  }
  const fn = (typeof ${fn} === 'function') ? ${fn} : undefined;
  if (!fn) { __dtx_post({ kind: 'missing', error: 'Define a function named ${fn}.' }); return; }
  const cases = ${JSON.stringify(cases)};
  const outcomes = [];
  for (const args of cases) {
    try {
      const r = fn(...JSON.parse(JSON.stringify(args)));
      let v;
      if (typeof r === 'number' && !Number.isFinite(r)) v = String(r);
      else if (r === undefined) v = null;
      else v = JSON.parse(JSON.stringify(r));
      outcomes.push({ ok: true, value: v });
    } catch (e) {
      const line = lineOf(e);
      outcomes.push({ ok: false, error: (e && e.message ? e.message : String(e)) + (line ? ' (line ' + line + ')' : '') });
    }
  }
  __dtx_post({ kind: 'none', outcomes });
})();
`;
  }

  // Runs one program; resolves with {kind, error, line, outcomes}.
  function runProgram(source, fn, cases, limitMs) {
    return new Promise((resolve) => {
      if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(fn)) {
        resolve({ kind: 'missing', error: 'The exercise names no valid function.' });
        return;
      }
      const lines = source.split('\n').length;
      const text = PRELUDE + '\n' + source + epilogue(fn, cases, lines);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
      const worker = new Worker(url);
      let done = false;
      const finish = (r) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.terminate();
        URL.revokeObjectURL(url);
        resolve(r);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout', error: 'time limit exceeded' }), limitMs);
      worker.onmessage = (e) => finish(e.data || { kind: 'runtime', error: 'no result' });
      worker.onerror = (e) => {
        e.preventDefault();
        const msg = String(e.message || 'error').replace(/^Uncaught /, '');
        const line = e.lineno ? e.lineno - 1 : 0;
        const kind = /SyntaxError/.test(msg) ? 'syntax' : 'runtime';
        finish({ kind, error: msg, line: line >= 1 && line <= lines ? line : 0 });
      };
    });
  }

  async function run(request) {
    const limit = request.time_limit_ms || 2000;
    const cases = request.cases || [];
    const jobs = [runProgram(request.source || '', request.function, cases, limit)];
    if (request.reference) jobs.push(runProgram(request.reference, request.function, cases, limit));
    const [student, ref] = await Promise.all(jobs);
    const result = {};
    if (student.kind !== 'none') {
      result.kind = student.kind;
      result.error = student.error;
      if (student.line) result.line = student.line;
    }
    result.student = student.outcomes || [];
    if (ref) result.reference = ref.outcomes || [];
    return result;
  }

  window.dtxCodeRunner = { run };
})();
