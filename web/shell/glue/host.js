// window.dtxGlue: what the engine calls in the page, one method per `toPage` call of
// web/bridge/calls.mjs (the generated EM_JS side converts the arguments and results). A method
// missing here stops the page at once (checked below), not at the first call.
import { PAGE_CALLS } from 'dtx:bridge';
import { blockedByCsp, CSP_FETCH_ERROR, OPENABLE } from './csp.js';
import { freeTexture, forgetImage, loadImage, rasterImage } from './images.js';
import { resetTextarea, resize, watchDpr } from './input.js';
import { listenForChanges } from './instructor.js';
import { late, loadLateCode } from './late-code.js';
import { lmsReport, packagedAssignment, startLms } from './lms.js';
import { addFace, early, engineAsked, fetchCounted, PACK_LIMIT } from './loading.js';
import { noteUpdate, startServiceWorker } from './offline.js';
import { cssSize, engine, loading, state, t0, ta } from './page.js';
import { storageChanged, storageGet, storageSet } from './storage.js';
import { publishState } from './test-hook.js';

// What the address says at start: ?pack=URL previews, ?assign=URL a course, ?instructor.
function openFromQuery() {
  const query = new URLSearchParams(location.search);
  // ?pack=URL (may repeat): packs to preview above the course, fetched by the engine.
  // Reversed: each is put on top, so they end up in the address's order.
  for (const url of query.getAll('pack').reverse()) if (url) engine.previewUrl(url);
  // Course mode (docs/AUTHORING.md, "Running a course"): ?assign=URL opens an assignment,
  // and lands on it when the address names no other screen; ?instructor allows the
  // instructor view outside a preview.
  if (query.has('instructor')) engine.instructorAllowed(true);
  const assign = query.get('assign') || packagedAssignment;
  if (assign) {
    engine.assignUrl(assign);
    if (location.hash === '' || location.hash === '#' || location.hash === '#/')
      history.replaceState(history.state, '', location.pathname + location.search + '#/assignment');
  }
}

// prefers-color-scheme and prefers-reduced-motion, now and when the system changes them, and
// (pointer: coarse), a finger: controls grow to 44 CSS px.
function followSystemPrefs() {
  const dark = matchMedia('(prefers-color-scheme: dark)'), still = matchMedia('(prefers-reduced-motion: reduce)');
  const coarse = matchMedia('(pointer: coarse)');
  const prefs = () => engine.systemPrefs(dark.matches, still.matches, coarse.matches);
  for (const q of [dark, still, coarse]) q.addEventListener('change', prefs);
  prefs();
}

// A reload lands where the screen was scrolled (kept for this tab, as a browser keeps a page's
// scroll; the text layer's page box scrolls with the canvas).
function keepScroll() {
  try {
    const kept = JSON.parse(sessionStorage.getItem('dtx.scroll') || 'null');
    if (kept && kept.hash === location.hash && Number.isFinite(kept.y)) engine.rememberScroll(kept.hash, kept.y);
  } catch (e) { /* nothing kept */ }
  window.addEventListener('pagehide', () => {
    const box = document.getElementById('dtx-page');
    try { sessionStorage.setItem('dtx.scroll', JSON.stringify({ hash: location.hash, y: box ? box.scrollTop : 0 })); } catch (e) { /* no storage */ }
  });
}

// The address names the screen (web/route.h): the engine shows it, and hears of every change
// the browser makes (Back, Forward, an edited address). Its own writes (setAddress) fire
// neither event.
function followAddress() {
  const address = () => engine.address(location.hash);
  window.addEventListener('popstate', address);
  window.addEventListener('hashchange', address);
  address();
}

function ready() {
  performance.mark('dtx:engine-running');  // main() has run: the bench reads these marks
  state.ready = true;
  window.dtxTextLayer.init(engine);
  // ?layer=0 turns the text layer off: only to measure what it costs (make bench).
  if (new URLSearchParams(location.search).get('layer') === '0') engine.textLayerEnable(false);
  resetTextarea();
  resize();
  watchDpr();
  openFromQuery();
  startLms();
  followSystemPrefs();
  keepScroll();
  followAddress();
}

// Asked for at start (start.js), or now. no-cache: revalidate, so a pack an instructor just
// edited is picked up.
function fetchForEngine(id, url) {
  engineAsked.add(url);
  const got = early.get(url) || fetchCounted(url, /^exercises\//.test(url) ? 'pack' : 'file', PACK_LIMIT);
  early.delete(url);
  const failed = (status, why) => engine.onFetch(id, false, status, new TextEncoder().encode(why));
  got.then((r) => {
    // `make serve` marks its answers: then listen for changed packs (never on a plain host).
    if (r.headers.get('X-Dtx-Dev')) state.devServer = true;
    if (r.headers.get('X-Dtx-Dev') && /index\.json$/.test(url)) listenForChanges();
    if (!r.ok) return failed(r.status, '');
    addFace(url, r.buf);
    // The engine refuses packs over 10 MB (kMaxPackBytes) by their size alone: one byte more
    // than that tells it so, and a huge file never has to fit in the wasm heap.
    const buf = r.buf.length > PACK_LIMIT + 1 ? r.buf.subarray(0, PACK_LIMIT + 1) : r.buf;
    try {
      engine.onFetch(id, true, r.status, buf);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      failed(0, 'the file does not fit in the memory of this page');  // status 0 with a body: the reason
    }
  }).catch(() => {
    // The violation event is queued as its own task: give it one before deciding.
    setTimeout(() => failed(0, blockedByCsp(url) ? CSP_FETCH_ERROR : ''), 50);
  });
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function pickFile() {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.onchange = () => {
    const f = input.files && input.files[0];
    if (f) f.text().then((text) => engine.onFile(f.name, text));
  };
  input.click();
}

// Links from pack Markdown. The engine already refused other schemes (web/ui/markdown.cpp);
// this is the browser's own reading of the address, so nothing the C++ check and the URL
// parser disagree on can run script in the page. Relative links resolve against the page.
// noopener,noreferrer: the opened page gets no handle on this one and no Referer.
function openUrl(url) {
  // A reference to another exercise (#/ex/ID) opens here, as a click on its words does.
  if (/^#\/\S*$/.test(url)) { location.hash = url; return; }
  let href;
  try { href = new URL(url, document.baseURI); } catch (e) { return; }
  if (!OPENABLE.has(href.protocol)) { console.warn(`dtx: not opening ${href.protocol} link`); return; }
  window.open(href.href, '_blank', 'noopener,noreferrer');
}

function firstFrame() {
  // The rest of the engine now, while the map is read: a pack or an exercise needs it.
  setTimeout(() => loadLateCode('after the first screen'), 0);
  loading.style.display = 'none';
  // The HTML map (first-screen.js) gives way to the canvas's. A linked exercise's HTML view
  // first hands the engine what the student entered there (and a Submit pressed), then
  // stays up for the frames in which the engine draws it filled in.
  const fx = window.dtxFirstExercise;
  const handed = fx && fx.el && fx.answer && (fx.changed || fx.submitted);
  if (handed) engine.firstViewAnswer(JSON.stringify(fx.answer()));
  if (handed) requestAnimationFrame(() => requestAnimationFrame(() => window.dtxFirstScreen.close()));
  else if (window.dtxFirstScreen) window.dtxFirstScreen.close();
  window.dtx.firstFrameMs = performance.now() - t0;
  noteUpdate();
  // Offline copies are made once the first screen is up, so they never compete with it.
  setTimeout(startServiceWorker, 1000);
}

function today() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

window.dtxGlue = {
  ready,
  firstFrame,
  cssWidth: () => cssSize()[0],
  cssHeight: () => cssSize()[1],
  devicePixelRatio: () => window.devicePixelRatio || 1,
  nowMs: () => performance.now(),
  nowUnix: () => Math.floor(Date.now() / 1000),
  today,
  randomToken() {
    const a = crypto.getRandomValues(new Uint32Array(2));
    return Array.from(a, (x) => x.toString(16).padStart(8, '0')).join('');
  },
  mark: (name) => performance.mark(name),
  measure(name, start, end) {
    try { performance.measure(name, { start, end }); } catch (e) { /* old browser */ }
  },
  storageGet,
  storageSet,
  storageChanged,
  fetch: fetchForEngine,
  download,
  pickFile,
  runCode(id, json) {
    window.dtxCodeRunner.run(JSON.parse(json)).then((result) => engine.onCodeResult(id, JSON.stringify(result)));
  },
  lmsReport,
  lateCodeReady: () => !late.split || late.state === 'ready',
  wantLateCode: () => { loadLateCode('a pack arrived'); },
  setAddress(fragment, title, push) {
    if (title) document.title = title;
    const url = location.pathname + location.search + fragment;
    try {
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    } catch (e) { /* a sandboxed frame may refuse history: the page works without it */ }
  },
  linkTo: (fragment) => location.href.split('#')[0] + fragment,
  buildVersion: () => { const m = document.querySelector('meta[name="dtx-version"]'); return m ? m.content : ''; },
  openUrl,
  resolveUrl(base, source) {
    try { return new URL(source, new URL(base, document.baseURI)).href; } catch (e) { return null; }
  },
  loadImage,
  forgetImage,
  rasterImage,
  freeTexture,
  clipboardSet(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(() => {});
  },
  textFocus(on) {
    if (on) ta.focus({ preventScroll: true });
    else if (document.activeElement === ta) ta.blur();
  },
  textLayer: (json, scroll) => window.dtxTextLayer.update(json, scroll),
  layerScroll: (scroll) => window.dtxTextLayer.scroll(scroll),
  publishState,
};

const missing = PAGE_CALLS.filter((name) => typeof window.dtxGlue[name] !== 'function');
if (missing.length) throw new Error('dtx: window.dtxGlue lacks ' + missing.join(', ') + ' (web/bridge/calls.mjs)');
