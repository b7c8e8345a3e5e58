// The test hook, window.dtx: a read-only view of the last drawn frame (the state the engine
// publishes each frame: screen, exercise, seed, items with their rectangles), and a way to wait
// for a frame that satisfies a test. The engine's feedback goes to the live region from here.
import { engine, live, wake } from './page.js';
import { late } from './late-code.js';
import { builtVersion } from './offline.js';

let latest = null;
let waiters = [];
let lastSpoken = '';

// Each frame's state, from the engine (window.dtxGlue.publishState).
export function publishState(json) {
  latest = JSON.parse(json);
  // The feedback, for screen readers: the engine's sentences (spoken_feedback), once per
  // graded submission (the same words again for a new submission are spoken again).
  const spoken = latest.spoken ? `${latest.graded}\u0000${latest.spoken}` : '';
  if (spoken !== lastSpoken) { lastSpoken = spoken; live.textContent = latest.spoken || ''; }
  const still = [];
  for (const w of waiters) {
    let ok = false;
    try { ok = w.pred(latest); } catch (e) { ok = false; }
    if (ok) w.resolve(latest); else still.push(w);
  }
  waiters = still;
}

window.dtx = {
  get state() { return latest; },
  version: builtVersion,  // the build this page runs (scripts/stamp-version.mjs)
  get frame() { return latest ? latest.frame : 0; },
  item(id) { return latest ? latest.items.find((i) => i.id === id) || null : null; },
  items(prefix) { return latest ? latest.items.filter((i) => i.id.startsWith(prefix)) : []; },
  // Resolves with the state of the first drawn frame for which pred(state) is true.
  waitFor(pred, timeoutMs = 10000) {
    if (latest) { try { if (pred(latest)) return Promise.resolve(latest); } catch (e) { /* not yet */ } }
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      waiters.push(w);
      wake();
      setTimeout(() => {
        if (waiters.includes(w)) {
          waiters = waiters.filter((x) => x !== w);
          reject(new Error('dtx.waitFor: timed out; last state: ' + JSON.stringify(latest && { screen: latest.screen, exercise: latest.exercise, verdict: latest.verdict, frame: latest.frame })));
        }
      }, timeoutMs);
    });
  },
  heapBytes() { return engine.heapBytes(); },
  // The last key and mouse events and the frames that saw them (for a failing test's report).
  inputLog() { return engine.inputLog() || ''; },
  // The glyph runs the last drawn frame shows, read from its draw data (CSS pixels).
  drawnRuns() {
    const runs = engine.drawnRuns();
    return runs ? JSON.parse(runs) : [];
  },
  firstFrameMs: null,
  // The engine's second part: split or not, its state, why it was asked for and how it came in.
  lateCode() { return { split: late.split, state: late.state, why: late.why, how: late.how, error: late.error }; },
};
