// An assignment packaged for an LMS by `dtx package scorm` (docs/AUTHORING.md, "Running a
// course in an LMS"). The package's index.html carries <meta name="dtx-lms" content="scorm2004">
// and <meta name="dtx-assign" content="assignment.json">. The page finds the LMS's SCORM 2004
// API (API_1484_11, in a parent frame or the opener's), takes the learner, the resume state and
// the passing score from it, and writes what web/course_lms.cpp reports after each attempt:
// score, status, one interaction per attempt, the resume state. Leaving the page commits and
// terminates. An LMS that stops answering changes nothing for the student but a line on the
// screen: the page's own record keeps every attempt, and the next report sends them.
import { engine } from './page.js';

function meta(name) {
  const m = document.querySelector(`meta[name="${name}"]`);
  return m ? m.getAttribute('content') || '' : '';
}

export const lmsMode = meta('dtx-lms');
export const packagedAssignment = meta('dtx-assign');

let api = null;
let startedMs = 0;
// Where the attempts the LMS has not taken yet go: the interactions' count at the last commit
// that succeeded. A report that fails is written again at the same places, never twice.
let base = 0;
let finished = false;

// SCORM 2004 RTE 3.3.6.1: the API object is in the window's parent chain, or the opener's.
function findIn(win) {
  for (let hops = 0; win && hops < 500; hops++) {
    try {
      if (win.API_1484_11) return win.API_1484_11;
    } catch (e) { return null; /* a frame of another origin: the API is not above it */ }
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}

function problemOf(what) {
  const code = String(api.GetLastError());
  return code === '0' ? `${what} was refused` : `${what}: error ${code}, ${api.GetErrorString(code)}`;
}

function set(name, value) {
  if (String(api.SetValue(name, String(value))) !== 'true') throw new Error(problemOf(name));
}

function timespan(ms) { return 'PT' + Math.max(0, Math.round(ms / 10) / 100) + 'S'; }

// Once the engine runs: the LMS's learner and state go to the engine (web/course_lms.cpp).
export function startLms() {
  if (lmsMode !== 'scorm2004') return;
  api = findIn(window.parent !== window ? window.parent : null) || (window.opener && findIn(window.opener)) || findIn(window);
  if (!api || String(api.Initialize('')) !== 'true') {
    console.warn('dtx: packaged for an LMS, but no SCORM 2004 API answered; working as a plain assignment');
    api = null;
    return;
  }
  startedMs = performance.now();
  base = Number(api.GetValue('cmi.interactions._count')) || 0;
  const passing = parseFloat(api.GetValue('cmi.scaled_passing_score'));
  engine.lmsStart(String(api.GetValue('cmi.learner_id')), String(api.GetValue('cmi.suspend_data') || ''),
    Number.isFinite(passing) ? passing : -1);
  const location0 = String(api.GetValue('cmi.location') || '');
  if (String(api.GetValue('cmi.entry')) === 'resume' && location0.startsWith('#/') && (location.hash === '' || location.hash === '#/assignment'))
    location.hash = location0;
  window.addEventListener('pagehide', finish);
}

// What the engine reports after an attempt (and once at the start).
export function lmsReport(json) {
  if (!api || finished) return;
  const r = JSON.parse(json);
  try {
    set('cmi.score.raw', r.score.raw);
    set('cmi.score.min', r.score.min);
    set('cmi.score.max', r.score.max);
    set('cmi.score.scaled', r.score.scaled);
    set('cmi.progress_measure', r.progress);
    set('cmi.completion_status', r.completion);
    set('cmi.success_status', r.success);
    for (const [i, it] of r.interactions.entries()) {
      const at = `cmi.interactions.${base + i}.`;
      set(at + 'id', it.id);
      set(at + 'type', it.type);
      set(at + 'timestamp', it.timestamp);
      set(at + 'weighting', it.weighting);
      set(at + 'learner_response', it.learner_response);
      set(at + 'result', it.result);
      set(at + 'latency', it.latency);
      set(at + 'description', it.description);
    }
    set('cmi.suspend_data', r.suspend);
    if (location.hash.length <= 1000) set('cmi.location', location.hash);
    if (String(api.Commit('')) !== 'true') throw new Error(problemOf('Commit'));
    base += r.interactions.length;
    engine.lmsSent(r.reported, '');
  } catch (e) {
    engine.lmsSent(0, e && e.message ? e.message : String(e));
  }
}

// Leaving the page: the session's time, "suspend" (the next launch resumes), commit, terminate.
function finish() {
  if (!api || finished) return;
  finished = true;
  try {
    api.SetValue('cmi.exit', 'suspend');
    api.SetValue('cmi.session_time', timespan(performance.now() - startedMs));
    api.Commit('');
  } finally {
    api.Terminate('');
  }
}
