// The start: importing this module begins every download the first screen needs, the engine
// first (dtx.wasm, and its second part when the address or stored state will need it), then the
// index, the outline, the fonts and the packs the outline does not stand in for; it makes the
// WebGL context after the first paint, and hands Emscripten the counted engine
// (instantiateWasm).
import { canvas, cssSize, loading, state } from './page.js';
import { early, engineAsked, fetchEarly, files, FONT_FILES, MAX_EARLY_PACKS, showProgress } from './loading.js';
import { compileLate, late, loadLateCode, setPrimary } from './late-code.js';
import { storedState } from '../stored-state.js';

// The engine comes first: nothing runs until it is compiled, and a browser opens only six
// connections to an HTTP/1.1 host, so fifteen packs asked for ahead of it queued it
// (dtx.wasm was asked for 370 ms after navigation start, behind the packs; now at 130 ms).
const engineResponse = fetch('dtx.wasm', { priority: 'high' });
// The engine's second part, at once for an address that opens more than the course map: an
// exercise, the Lab, a preview (?pack=) or a course (?assign=).
const startQuery = new URLSearchParams(location.search);
const everyPack = startQuery.has('pack') || startQuery.has('assign');
const onMap = (hash) => /^(#\/?)?(chapter\/\d+\/?)?$/.test(hash);
const lateAtStart = everyPack ? 'a preview or a course' : !onMap(location.hash) ? 'the address ' + location.hash
  : storedState() ? 'a returning student' : '';
// A site whose outline is missing or does not list every pack parses packs for its map:
// known once the outline is in (asked for below), before the engine starts.
let lateForSite = Promise.resolve('');
if (lateAtStart) compileLate();
engineResponse.catch(() => {});  // instantiateWasm reports the failure
// A Playwright test or a bench may set window.dtxNoEarlyFetch to see the engine fetch alone.
if (!window.dtxNoEarlyFetch) {
  // The index and the outline (exercises/outline.json, a few KB): the course map is drawn
  // from the outline, and a pack is asked for only when it is needed (web/app.cpp,
  // plan_pack_requests). Here, before the engine runs, the packs it will ask for at once:
  // those the outline does not cover, and a linked exercise's or chapter's. A ?pack= preview
  // or an ?assign= course reads every pack, and so does a site without an outline.
  // Not a pack the engine has asked for itself already: an early answer nobody takes would be
  // handed to a later request for the same file (a pack re-read after `make serve` saw it change).
  const askPack = (n) => { const u = 'exercises/' + n; if (!early.has(u) && !engineAsked.has(u)) fetchEarly(u, 'pack'); };
  const readJson = (r) => {
    if (!r.ok) return null;
    try { return JSON.parse(new TextDecoder().decode(r.buf)); } catch (e) { return null; }
  };
  let covered = null, names = [];
  // The pack of the exercise or chapter an address names (at start, and for a link followed
  // on the HTML map before the engine runs).
  const packsFor = (hash) => {
    if (!covered) return;
    const ex = /^#\/ex\/([^/?]+)/.exec(hash);
    const ch = /^#\/chapter\/(\d+)/.exec(hash);
    let exId = null;
    try { exId = ex && decodeURIComponent(ex[1]); } catch (e) { /* the engine says what is wrong with it */ }
    for (const [file, e] of covered) {
      if (!names.includes(file)) continue;
      if (exId && Array.isArray(e.exercises) && e.exercises.some((x) => x && x.id === exId)) askPack(file);
      if (ch && e.chapter === Number(ch[1])) askPack(file);
    }
  };
  window.addEventListener('hashchange', () => {
    if (state.ready) return;  // the engine's own requests from here
    packsFor(location.hash);
    if (!onMap(location.hash)) compileLate();
  });
  lateForSite = Promise.all([fetchEarly('exercises/index.json', 'index').then(readJson, () => null),
    fetchEarly('exercises/outline.json', 'outline').then(readJson, () => null)]).then(([index, outline]) => {
    names = index && Array.isArray(index.packs) ? index.packs.filter((n) => typeof n === 'string') : [];
    const entries = outline && outline.dtx_outline === 1 && Array.isArray(outline.packs) ? outline.packs : null;
    if (!entries || everyPack) {
      names.slice(0, MAX_EARLY_PACKS).forEach(askPack);
      return entries ? '' : 'a site without an outline';
    }
    covered = new Map();
    for (const e of entries) if (e && typeof e.file === 'string' && !e.error) covered.set(e.file, e);
    const uncovered = names.filter((n) => !covered.has(n));
    uncovered.slice(0, MAX_EARLY_PACKS).forEach(askPack);
    packsFor(location.hash);
    return uncovered.length ? 'packs the outline does not list' : '';
  }, () => '');
  for (const f of FONT_FILES) fetchEarly(f, 'font');
}

// The WebGL context is made now, while the engine downloads: creating it costs 80 ms with
// software GL, and GLFW's createWindow later gets this same context back from getContext
// (a canvas has one context; the attributes are GLFW's defaults for our hints).
// The canvas gets its size first (what main() will ask for), so the drawing buffer is not
// made at 300 x 150 and made again (a 30 ms wait on the GPU process) when the engine starts.
// Not before the page's first paint: those 80 ms on this thread held back the HTML map
// (first-screen.js) or the loading line, whichever the page shows (make bench). Made once the
// first frame is out, or when the engine is in, whichever is first; this also tells whether
// the browser has WebGL 2 at all (one context: a second, for a test, cost as much again).
let glMade = false;
function makeContext() {
  if (glMade) return;
  glMade = true;
  let gl = null;
  try {
    const [w, h] = cssSize(), dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(Math.round(w * dpr), 1);
    canvas.height = Math.max(Math.round(h * dpr), 1);
    gl = canvas.getContext('webgl2', { alpha: true, depth: true, stencil: true, antialias: false });
  } catch (e) { gl = null; }
  if (!gl) {
    loading.className = 'error';
    loading.textContent = 'dtx needs WebGL 2, which this browser does not provide.';
  }
}
// A linked exercise's HTML view (first-screen.js) is painted first: the context's 30 ms
// would otherwise come between its fetch and its paint.
const fxPainted = (window.dtxFirstExercise && window.dtxFirstExercise.painted) || Promise.resolve();
const viewPainted = () => Promise.race([fxPainted, new Promise((r) => setTimeout(r, Math.max(0, 400 - performance.now())))]);
viewPainted().then(() => requestAnimationFrame(() => setTimeout(makeContext, 0)));
// The engine's download, counted: Emscripten calls this instead of fetching dtx.wasm itself,
// and compiling still streams (the counted bytes are handed on as they arrive).
export function instantiateWasm(imports, receive) {
  const url = 'dtx.wasm';
  engineResponse.then((r) => {
    if (!r.ok) throw new Error('HTTP ' + r.status);
    const entry = { kind: 'engine', got: 0, total: Number(r.headers.get('Content-Length')) || 0, done: false };
    files.set(url, entry);
    showProgress();
    const reader = r.body.getReader();
    const counted = new ReadableStream({
      async pull(ctrl) {
        const { done, value } = await reader.read();
        if (done) { entry.done = true; performance.mark('dtx:engine-downloaded'); showProgress(); ctrl.close(); return; }
        entry.got += value.length;
        showProgress();
        ctrl.enqueue(value);
      },
    });
    return WebAssembly.instantiateStreaming(new Response(counted, { status: r.status, headers: { 'Content-Type': 'application/wasm' } }), imports);
  }).then((res) => {
    performance.mark('dtx:engine-compiled');
    return viewPainted().then(() => res);
  }).then((res) => {
    makeContext();  // (made already, unless the engine came before the first paint's frame)
    setPrimary(res.instance.exports, res.module);
    // The instrumented build split-wasm.mjs profiles (it exports __write_profile) is "split"
    // too, so the engine parses no pack there (late_code_ready): its profile holds no pack
    // parsing.
    late.split = WebAssembly.Module.imports(res.module).some((i) => i.module === 'placeholder') ||
      WebAssembly.Module.exports(res.module).some((e) => e.name === '__write_profile');
    // An address that opens more than the map: the engine starts with both parts (the second
    // was fetched beside the first), so its first screen never waits in the middle of a frame.
    // Every start has both parts before main(): a path of the map's start the profile did
    // not run (a font or a pack that failed, a site without an outline) would call into the
    // second part, which cannot be waited for inside a call. A fresh visitor reads the HTML
    // map (first-screen.js) meanwhile.
    // (The instrumented build scripts/split-wasm.mjs profiles starts at once and never gets
    // the second part: its profile holds what the map's start runs before any pack is parsed.)
    const profiling = !WebAssembly.Module.imports(res.module).some((i) => i.module === 'placeholder');
    return lateForSite.then((site) => {
      if (!late.split || profiling) return receive(res.instance, res.module);
      return loadLateCode(lateAtStart || site || 'the start').then(() => receive(res.instance, res.module));
    });
  }, (e) => {
    loading.className = 'error';
    loading.textContent = 'dtx could not load its engine (dtx.wasm): ' + e.message;
  });
  return {};
}
