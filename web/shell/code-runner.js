// The page's side of the code sandbox. Student code (and a pack's reference, when a case has
// no expected value) runs in sandbox-worker.js: QuickJS compiled to WebAssembly, inside a
// dedicated Worker, with no host functions at all (sandbox/sandbox-core.js says why that
// design and not deleting globals). This file only carries requests and results, and enforces
// the limit nothing inside can delay: when a request outlives its time limit plus a grace
// period, the worker is terminated and a new one is started for the next submission.
//
// Speaks the engine's CodeRunRequest / CodeRunResult JSON (engine/code_runner.h), the same
// protocol as the CLI's host (cli/sandbox-host.js).
'use strict';
(function () {
  const GRACE_MS = 1500;       // past the interpreter's own deadline, before the hard stop
  const START_MS = 20000;      // fetching and compiling quickjs.wasm on a slow connection

  let worker = null;           // {w, ready: Promise}
  let nextId = 1;
  const pending = new Map();   // id -> {resolve, timer}

  function start() {
    const w = new Worker(new URL('sandbox-worker.js', document.baseURI).href);
    const entry = { w };
    entry.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the code sandbox did not start in time')), START_MS);
      entry.onReady = () => { clearTimeout(timer); resolve(); };
      entry.onFail = (msg) => { clearTimeout(timer); reject(new Error(msg)); };
    });
    w.onmessage = (e) => {
      const data = e.data || {};
      if (data.ready) { entry.onReady(); return; }
      if (data.startError) { entry.onFail(data.startError); return; }
      const job = pending.get(data.id);
      if (!job) return;
      pending.delete(data.id);
      clearTimeout(job.timer);
      if (data.broken) stop(entry);
      job.resolve(data.result || { kind: 'runtime', error: 'the code sandbox returned nothing', student: [] });
    };
    w.onerror = (e) => {
      e.preventDefault();
      entry.onFail('the code sandbox failed to load: ' + (e.message || 'error'));
      stop(entry, 'the code sandbox stopped unexpectedly');
    };
    return entry;
  }

  // Ends a worker and answers whatever it still owed.
  function stop(entry, message) {
    entry.w.terminate();
    if (worker === entry) worker = null;
    if (!message) return;
    for (const [id, job] of pending) {
      if (job.entry !== entry) continue;
      pending.delete(id);
      clearTimeout(job.timer);
      job.resolve({ kind: 'runtime', error: message, student: [] });
    }
  }

  async function run(request) {
    if (!worker) worker = start();
    const entry = worker;
    try {
      await entry.ready;
    } catch (e) {
      stop(entry);
      return { kind: 'runtime', error: String(e.message || e), student: [] };
    }
    const limit = Number(request.time_limit_ms) || 2000;
    const budget = limit * (request.reference ? 2 : 1) + GRACE_MS;
    return new Promise((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        stop(entry, 'the code sandbox was restarted');
        resolve({ kind: 'timeout', error: `time limit exceeded (${limit} ms); the code was stopped`, student: [] });
      }, budget);
      pending.set(id, { resolve, timer, entry });
      entry.w.postMessage({ id, request });
    });
  }

  window.dtxCodeRunner = { run };
})();
