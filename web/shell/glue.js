// Browser glue for dtx.js (the Emscripten build of web/). It runs first, so its capture
// listeners come before GLFW's. What it does and why (see docs/browser-repairs.md):
//  - size: canvas backbuffer = CSS size x devicePixelRatio, updated on resize and zoom;
//  - power: every input event wakes the frame loop, which otherwise draws nothing;
//  - keys: Space, arrows, Home/End, PageUp/Down never scroll the page;
//  - text: typed characters arrive through a hidden textarea (the only thing that raises a
//    phone's keyboard and receives IME input); GLFW's keypress path is switched off;
//  - clipboard: copies go to navigator.clipboard, pastes come from the DOM paste event;
//  - touch: fed to the engine ourselves (GLFW of Emscripten 3.1.6 doubles presses);
//  - window.dtx: the test hook (screen, exercise, seed, items with their rectangles).
'use strict';
(function () {
  const canvas = document.getElementById('canvas');
  const ta = document.getElementById('dtx-text');
  const loading = document.getElementById('loading');
  const live = document.getElementById('dtx-live');
  let ready = false;
  let latest = null;
  let waiters = [];
  let lastSpoken = '';
  let pasteByShortcut = 0;
  const t0 = performance.now();

  const PACK_LIMIT = 10 * 1024 * 1024;  // engine/model.h kMaxPackBytes

  // ---- start: everything the first screen needs is requested at once, while the engine
  // downloads and compiles, instead of after it (fonts, the pack index, then every pack).
  // The engine asks for the same URLs (web/app.cpp kFontFiles, base_url) and gets these
  // answers; what it asks for later (a changed pack, a preview) is fetched then.
  // Every byte received is counted for the loading line.
  const files = new Map();    // url -> {kind, got, total, done}
  const early = new Map();    // url -> promise of {ok, status, headers, buf}
  const engineAsked = new Set();  // urls the engine has fetched
  // The engine's fonts (web/app.cpp kFontFiles), each with the face the text layer
  // (text-layer.js: dtx-sans, dtx-mono) makes of the same bytes (addFace, below).
  const FACES = {
    'fonts/Inter-Regular.otf': ['dtx-sans', { weight: '400', style: 'normal' }],
    'fonts/Inter-SemiBold.otf': ['dtx-sans', { weight: '600', style: 'normal' }],
    'fonts/Inter-Italic.otf': ['dtx-sans', { weight: '400', style: 'italic' }],
    'fonts/JetBrainsMono-Regular.ttf': ['dtx-mono', {}],
  };
  const FONT_FILES = Object.keys(FACES);
  const MAX_EARLY_PACKS = 200;

  function showProgress() {
    if (loading.className === 'error' || loading.style.display === 'none') return;
    let got = 0, total = 0, packs = 0, packsDone = 0, fonts = 0, fontsDone = 0, engine = null;
    for (const f of files.values()) {
      got += f.got;
      total += Math.max(f.total, f.got);
      if (f.kind === 'pack') { packs++; if (f.done) packsDone++; }
      if (f.kind === 'font') { fonts++; if (f.done) fontsDone++; }
      if (f.kind === 'engine') engine = f;
    }
    const mb = (n) => (n / 1048576).toFixed(1);
    const what = [];
    if (engine) what.push(engine.done ? 'engine ✓' : `engine ${mb(engine.got)} of ${engine.total ? mb(engine.total) : '?'} MB`);
    if (fonts) what.push(`fonts ${fontsDone} of ${fonts}`);
    if (packs) what.push(`chapters ${packsDone} of ${packs}`);
    const bar = document.getElementById('loading-bar');
    const detail = document.getElementById('loading-detail');
    if (bar && total) { bar.max = total; bar.value = got; }
    if (detail) detail.textContent = `${mb(got)} of ${mb(total)} MB · ${what.join(' · ')}`;
  }

  // A GET read to the end (or to `limit` bytes), counting as it arrives.
  async function fetchCounted(url, kind, limit = Infinity) {
    const r = await fetch(url, { cache: 'no-cache' });
    const entry = { kind, got: 0, total: Number(r.headers.get('Content-Length')) || 0, done: false };
    files.set(url, entry);
    showProgress();
    const chunks = [];
    // A file of known, small size (fonts, packs: under 1 MB) is taken whole: read chunk by
    // chunk, each chunk waited for a turn of this thread, which the engine's start and first
    // frames keep busy, and the first pack came in 100-150 ms later (make bench). Anything
    // larger, compressed (its size unknown until read), or of unknown size, is read in chunks,
    // counted and cut at `limit`.
    // (A browser without body streams takes every file whole.)
    const whole = entry.total > 0 && entry.total <= Math.min(limit, 1 << 20) && !r.headers.get('Content-Encoding');
    if (whole || !(r.body && r.body.getReader)) {
      chunks.push(new Uint8Array(await r.arrayBuffer()));
      entry.got = chunks[0].length;
    } else {
      const reader = r.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        entry.got += value.length;
        showProgress();
        if (entry.got > limit) { reader.cancel().catch(() => {}); break; }
      }
    }
    entry.done = true;
    showProgress();
    const buf = new Uint8Array(entry.got);
    let at = 0;
    for (const c of chunks) { buf.set(c, at); at += c.length; }
    return { ok: r.ok, status: r.status, headers: r.headers, buf };
  }

  // The text layer's faces are the engine's own font files, made from the bytes fetched for the
  // engine: as @font-face URLs in dtx.css the browser downloaded all four again (a second
  // 200 KB, at the moment the engine started; make bench).
  const facesAdded = new Set();
  function addFace(url, buf) {
    url = (/fonts\/[^/?#]+$/.exec(url) || [''])[0];  // as the engine names it, relative or not
    const f = FACES[url];
    if (!f || facesAdded.has(url) || typeof FontFace === 'undefined' || !document.fonts) return;
    facesAdded.add(url);
    try {
      const face = new FontFace(f[0], buf.slice().buffer, f[1]);
      document.fonts.add(face);
      // the layer's lines are measured again in the face, once it is in
      face.load().then(() => { if (window.dtxTextLayer && window.dtxTextLayer.fontsChanged) window.dtxTextLayer.fontsChanged(); }, () => {});
    } catch (e) { /* the layer keeps the fallback face: its lines are still stretched to the runs */ }
  }

  function fetchEarly(url, kind) {
    const p = fetchCounted(url, kind, PACK_LIMIT);
    p.catch(() => {});  // the engine's own request reports the failure
    early.set(url, p);
    return p;
  }
  // ---- the engine's second part (scripts/split-wasm.mjs). dtx.wasm holds what the course map's
  // start runs for a fresh visitor; dtx.deferred.wasm the rest (packs' parsing, grading, the
  // exercise views, the widgets, reading a stored record). Both are fetched by every start and
  // awaited before main(); for a start that needs more than a fresh map (an exercise, the Lab,
  // a preview, a course, or a returning student: anything stored, progress, an assignment, a
  // setting) the second is asked for at once, beside the first, else once the first is
  // compiled. Every part comes by fetch, which the service worker answers from the build the
  // page was opened with; there is no synchronous request (a service worker never sees one, so
  // it failed offline: docs/browser-repairs.md). Should the engine call into the second part before it
  // is in all the same, the page says so and stops, instead of waiting for ever.
  const late = { split: false, state: 'idle', module: null, compiled: null, how: '', why: '', error: '', promise: null };
  const LATE_FILE = 'dtx.deferred.wasm';
  function lateFailed(e) {
    late.state = 'failed';
    late.error = String(e && e.message || e);
    loading.style.display = 'flex';
    loading.className = 'error';
    loading.textContent = 'dtx could not load the rest of its engine (' + LATE_FILE + '): ' + late.error +
      '. Reloading the page may help; your progress is saved.';
  }
  let primaryExports = null;  // dtx.wasm's exports, which the second part imports
  // The second part, compiled while it downloads (compileStreaming; on a background thread).
  // For an address that needs it at start this begins with glue.js, beside the first part's
  // compile: begun only once dtx.wasm is compiled, its compile would be the longest wait of a
  // deep link (about 80 ms of a mostly idle main thread in make bench's trace).
  let lateCompile = null;
  function compileLate() {
    if (!lateCompile) {
      lateCompile = fetch(LATE_FILE).then((r) => {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        // (served with any Content-Type: compileStreaming insists on application/wasm)
        if (WebAssembly.compileStreaming && r.body)
          return WebAssembly.compileStreaming(new Response(r.body, { headers: { 'Content-Type': 'application/wasm' } }));
        return r.arrayBuffer().then((buf) => WebAssembly.compile(buf));
      });
      lateCompile.then((m) => { late.compiled = m; }, () => {});  // (failures: reported by loadLateCode)
    }
    return lateCompile;
  }
  // Resolves once the second part is in (or failed, which the loading line says).
  function loadLateCode(why) {
    if (late.promise) return late.promise;
    if (!late.split || late.state !== 'idle') return Promise.resolve();  // linked already, or failed
    late.state = 'loading';
    late.why = why;
    performance.mark('dtx:late-code-asked');
    late.promise = compileLate().then((m) => {
      if (late.state === 'ready') return null;  // linked by a placeholder meanwhile
      checkPair(m);
      late.module = m;
      return WebAssembly.instantiate(m, { primary: primaryExports });
    }).then((inst) => {
      if (!inst || late.state === 'ready') return;
      late.state = 'ready';
      late.how = 'ahead';
      performance.mark('dtx:late-code-in');
      wake();
    }).catch((e) => { if (late.state !== 'ready') lateFailed(e); });
    return late.promise;
  }
  // Both parts of one build carry the same id (scripts/split-wasm.mjs): a second part from
  // another build (a half-updated server or cache) is refused, never linked.
  let primaryModule = null;
  function checkPair(m) {
    const id = (mod) => {
      const s = mod ? WebAssembly.Module.customSections(mod, 'dtx-pair') : [];
      return s.length ? new TextDecoder().decode(s[0]) : '';
    };
    const a = id(primaryModule), b = id(m);
    if (!a || a !== b) throw new Error('it is from another build than dtx.wasm');
  }
  // Emscripten's hook (SPLIT_MODULE): returns [instance, module] for the second part, at once.
  // It can only hand over a module compiled already (loadLateCode): a placeholder called
  // earlier is a start path that should have awaited it, reported as such.
  function loadSplitModule(file, imports, placeholder) {
    if (late.state === 'failed') throw new Error('the rest of the engine is missing: ' + late.error);
    const m = late.module || late.compiled;
    if (!m) {
      const e = new Error('the engine needed its second part (placeholder ' + placeholder + ') before it had arrived');
      lateFailed(e);
      throw e;
    }
    try { checkPair(m); } catch (e) { lateFailed(e); throw e; }
    const inst = new WebAssembly.Instance(m, imports);
    late.state = 'ready';
    late.how = 'linked when first called, placeholder ' + placeholder;
    return [inst, m];
  }

  // Something of a returning student is stored (progress, an assignment's log, a setting):
  // reading it runs the engine's second part, so the engine starts with both parts.
  function storedState() {
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith('dtx.') && k !== 'dtx.version') return true;
      }
    } catch (e) { /* no storage here: nothing stored */ }
    return false;
  }

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
      if (ready) return;  // the engine's own requests from here
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
  function instantiateWasm(imports, receive) {
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
      primaryExports = res.instance.exports;
      primaryModule = res.module;
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
  // ---- offline and updates (web/shell/sw.js): the service worker keeps the whole site, one
  // version at a time; this page says so when it runs a version other than the last visit's.
  let devServer = false;  // `make serve --watch` (X-Dtx-Dev): never cached, never a worker
  const versionMeta = document.querySelector('meta[name="dtx-version"]');
  const builtVersion = versionMeta ? versionMeta.content : '';
  function noteUpdate() {
    if (!builtVersion) return;
    let last = null;
    try { last = localStorage.getItem('dtx.version'); localStorage.setItem('dtx.version', builtVersion); } catch (e) { return; }
    if (!last || last === builtVersion) return;
    // Quiet: a line at the foot of the page, gone after a few seconds or at a click.
    const note = document.getElementById('dtx-note');
    if (!note) return;
    note.textContent = 'dtx was updated since your last visit.';
    note.hidden = false;
    const hide = () => { note.hidden = true; };
    note.addEventListener('click', hide, { once: true });
    setTimeout(hide, 8000);
    window.dtx.updatedFrom = last;
  }
  // The page may come from the worker's cache by a static route
  // (sw.js), and its other files from the version it is then pinned to: should a newer version
  // have activated in those few milliseconds, the page would run files of two builds. It asks
  // which version serves it and, if that is not its own, reloads (once for that version).
  function checkPin() {
    const sw = navigator.serviceWorker;
    if (!builtVersion || !sw || !sw.controller) return;
    sw.addEventListener('message', (e) => {
      const pinned = e.data && e.data.dtxVersion;
      if (!pinned || pinned === 'network' || pinned === builtVersion) return;
      try {
        if (sessionStorage.getItem('dtx.reloaded-for') === pinned) return;
        sessionStorage.setItem('dtx.reloaded-for', pinned);
      } catch (err) { return; }
      location.reload();
    });
    sw.controller.postMessage('dtx-version');
  }
  checkPin();
  function startServiceWorker() {
    if (devServer || window.dtxNoServiceWorker || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register('sw.js').then(nudgeWaiting, () => { /* no offline copy: the site works as before */ });
  }
  // A new version's worker asks to activate as soon as it is installed (skipWaiting in sw.js).
  // In Chromium that activation stops the old worker first, and when an event of this page
  // restarts the old worker in that moment (a file fetched, a message), the new one stays
  // "waiting" until every tab of the site is closed: the next reload still gets the old build.
  // Seen with CDP in the update test on a loaded machine (2 runs of 8). Asking the waiting
  // worker again starts the activation again, so the page asks while one waits: now, when an
  // install finishes, and every few seconds after (the race can come back).
  function nudgeWaiting(reg) {
    if (!reg) return;
    let tries = 0;
    const nudge = () => {
      if (!reg.waiting || tries++ >= 20) return;
      reg.waiting.postMessage('dtx-skip-waiting');
      setTimeout(nudge, 3000);
    };
    const watch = (w) => {
      if (w) w.addEventListener('statechange', () => { if (w.state === 'installed') { tries = 0; setTimeout(nudge, 1000); } });
    };
    nudge();
    watch(reg.installing);
    reg.addEventListener('updatefound', () => watch(reg.installing));
  }

  function M() { return window.Module; }
  function call(name, ...args) { if (ready && M()[name]) return M()[name](...args); }
  function wake() { call('_dtx_wake'); }

  function withCString(s, fn) {
    const n = M().lengthBytesUTF8(s) + 1;
    const p = M()._malloc(n);
    M().stringToUTF8(s, p, n);
    try { return fn(p); } finally { M()._free(p); }
  }
  function allocString(s) {  // returned to C++, which frees it
    const n = M().lengthBytesUTF8(s) + 1;
    const p = M()._malloc(n);
    M().stringToUTF8(s, p, n);
    return p;
  }

  // CSS size of the drawing area. Emscripten 3.1.6's glfwSetWindowSize goes fullscreen when
  // the size equals the screen's (emscripten#20699): stay one pixel short of that.
  function cssSize() {
    const r = canvas.getBoundingClientRect();
    let w = r.width || window.innerWidth, h = r.height || window.innerHeight;
    const dpr = window.devicePixelRatio || 1;
    if (Math.round(w * dpr) === screen.width && Math.round(h * dpr) === screen.height) h -= 1 / dpr;
    return [w, h];
  }

  function resize() {
    const [w, h] = cssSize();
    call('_dtx_resize', w, h, window.devicePixelRatio || 1);
  }

  function watchDpr() {
    // fires when the page moves to a screen with another pixel ratio, or on browser zoom
    const mq = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    mq.addEventListener('change', () => { resize(); watchDpr(); }, { once: true });
  }

  // ---- keyboard
  const PAGE_KEYS = new Set([' ', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'Tab']);
  const EDIT_KEYS = new Set(['Enter', 'Backspace', 'Delete', 'Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
    'Home', 'End', 'PageUp', 'PageDown', 'Escape']);
  const FIELD_SHORTCUTS = new Set(['a', 'z', 'y']);
  window.addEventListener('keypress', (e) => { e.stopImmediatePropagation(); }, true);
  // GLFW (3.1.6) releases every held key on any blur its window-level capture listener sees,
  // and a blur of an element (the text field's textarea when a field closes, a DOM proxy)
  // reaches it too: a Ctrl held for Ctrl+click was released a frame before the click when a
  // slider's field had just closed. Only the window losing focus releases keys.
  window.addEventListener('blur', (e) => { if (e.target !== window) { e.stopImmediatePropagation(); wake(); } }, true);
  window.addEventListener('keydown', (e) => {
    wake();
    if (e.keyCode === 229 || e.isComposing) return;  // IME or phone keyboard: the textarea handles it
    // The HTML map or a linked exercise's HTML view (first-screen.js) until the engine draws:
    // an ordinary page, whose keys are the browser's. GLFW (listening from main() on) would
    // take Backspace and Tab from its fields and links (it cancels both): it never hears them.
    if (window.dtxFirstScreen && window.dtxFirstScreen.shown) { e.stopImmediatePropagation(); return; }
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === 'v' || e.key === 'V')) pasteByShortcut = performance.now();
    if (e.target === ta) {
      // Editing keys go to ImGui (GLFW sees this event); the textarea must not act on them.
      if (EDIT_KEYS.has(e.key)) e.preventDefault();
      // The shortcuts a field of ImGui's acts on are kept from the textarea (select all, undo,
      // redo); every other one stays the browser's (find, zoom, print, a new tab), and
      // copy/cut/paste fire their events.
      if (mod && FIELD_SHORTCUTS.has(e.key.toLowerCase())) e.preventDefault();
    } else if (PAGE_KEYS.has(e.key)) {
      e.preventDefault();  // the page is the app: these keys never scroll the browser
    }
  }, true);
  window.addEventListener('keyup', (e) => {
    wake();
    if (window.dtxFirstScreen && window.dtxFirstScreen.shown) e.stopImmediatePropagation();  // (as keydown)
  }, true);
  window.addEventListener('keypress', (e) => {
    if (window.dtxFirstScreen && window.dtxFirstScreen.shown) e.stopImmediatePropagation();
  }, true);

  function sendText(s) { if (s) withCString(s, (p) => call('_dtx_text_input', p)); }
  function resetTextarea() { ta.value = ' '; ta.setSelectionRange(1, 1); }
  let composing = false;
  ta.addEventListener('compositionstart', () => { composing = true; });
  ta.addEventListener('compositionend', (e) => { composing = false; sendText(e.data); resetTextarea(); });
  ta.addEventListener('input', (e) => {
    if (composing || e.isComposing || e.inputType === 'insertCompositionText') return;
    const t = e.inputType;
    if (t === 'deleteContentBackward') call('_dtx_key_tap', 0);
    else if (t === 'insertLineBreak' || t === 'insertParagraph') call('_dtx_key_tap', 1);
    else if (t === 'insertText' || t === 'insertReplacementText') sendText(e.data != null ? e.data : ta.value.slice(1));
    resetTextarea();
  });

  // ---- clipboard
  window.addEventListener('paste', (e) => {
    // (into a field of a linked exercise's HTML view: the browser's own paste)
    if (window.dtxFirstScreen && window.dtxFirstScreen.shown) return;
    const text = (e.clipboardData && e.clipboardData.getData('text/plain')) || '';
    e.preventDefault();
    withCString(text, (p) => call('_dtx_paste', p));
    // Ctrl/Cmd+V reaches ImGui as a key and it reads the clipboard we just set; a paste from
    // a phone's menu has no key, so it is typed in directly.
    if (performance.now() - pasteByShortcut > 1000) sendText(text);
    wake();
  }, true);

  // ---- pointer and touch
  function focusIfTyping() {
    // Runs inside the gesture: phones only raise the keyboard for a focus() made there.
    for (let i = 0; i < 3; i++) call('_dtx_frame_now');
    if (call('_dtx_wants_text')) ta.focus({ preventScroll: true });
  }
  window.addEventListener('mousedown', (e) => {
    wake();
    // Keep the focus on the textarea while a field is being edited (a canvas click would
    // blur it and typing would go nowhere).
    if (e.target === canvas) e.preventDefault();
  }, true);
  window.addEventListener('mouseup', (e) => { if (e.target === canvas) focusIfTyping(); else wake(); });
  for (const ev of ['mousemove', 'focus', 'blur', 'visibilitychange']) window.addEventListener(ev, wake, true);
  // The wheel over the canvas goes to the engine, never to GLFW (3.1.6 flips its sign and
  // gives ~100 units a notch): stopped here, on the window in the capture phase, before it
  // reaches the canvas. Lines and pages become CSS pixels. Ctrl+wheel stays the browser's zoom.
  window.addEventListener('wheel', (e) => {
    // (Over the text layer's words too: they lie on the canvas.)
    const layer = window.dtxTextLayer.element;
    const overCanvas = e.target === canvas || (layer && layer.contains(e.target));
    if (!overCanvas || e.ctrlKey) { wake(); return; }
    e.stopPropagation();
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? canvas.clientHeight : 1;
    call('_dtx_wheel', e.deltaX * unit, e.deltaY * unit);
  }, { capture: true, passive: false });
  function touchPos(t) {
    const r = canvas.getBoundingClientRect();
    return [t.clientX - r.left, t.clientY - r.top];
  }
  function onTouch(phase) {
    return (e) => {
      if (e.target !== canvas) return;
      e.preventDefault();
      e.stopPropagation();
      const t = e.changedTouches[0];
      if (!t) return;
      const [x, y] = touchPos(t);
      call('_dtx_touch', phase, x, y);
      if (phase === 2) focusIfTyping();
    };
  }
  window.addEventListener('touchstart', onTouch(0), { capture: true, passive: false });
  window.addEventListener('touchmove', onTouch(1), { capture: true, passive: false });
  window.addEventListener('touchend', onTouch(2), { capture: true, passive: false });
  window.addEventListener('touchcancel', onTouch(2), { capture: true, passive: false });
  window.addEventListener('resize', () => { resize(); wake(); });

  // ---- instructors: drop a pack file to preview it; live reload under `make serve`
  // Capture phase on the window, so GLFW's own canvas drop handler (which writes dropped
  // files into its virtual file system) never sees it.
  window.addEventListener('dragover', (e) => {
    if (!e.dataTransfer || !Array.from(e.dataTransfer.types || []).includes('Files')) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = 'copy';
  }, true);
  window.addEventListener('drop', (e) => {
    const files = e.dataTransfer ? Array.from(e.dataTransfer.files || []) : [];
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    for (const f of files)
      f.text().then((text) => withCString(f.name, (n) => withCString(text, (t) => call('_dtx_preview_text', n, t))));
  }, true);
  let events = null;
  function listenForChanges() {
    if (events || typeof EventSource === 'undefined') return;
    events = new EventSource(new URL('__dtx/events', document.baseURI).href);
    events.onmessage = (m) => {
      let file = '';
      try { file = JSON.parse(m.data).file || ''; } catch (e) { return; }
      if (file) withCString(file, (f) => call('_dtx_pack_changed', f));
    };
  }

  // ---- Content-Security-Policy (index.html): connect-src allows this site only, so a
  // ?pack= URL on another origin is refused by the browser. fetch() then fails like a network
  // error; the violation event says why, and the preview's error names the policy.
  const OPENABLE = new Set(['http:', 'https:', 'mailto:']);
  const cspBlocked = [], cspImagesBlocked = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    if (e.effectiveDirective === 'connect-src') cspBlocked.push(e.blockedURI);
    if (e.effectiveDirective === 'img-src' && cspImagesBlocked.length < 256) cspImagesBlocked.push(e.blockedURI);
  });
  function blockedByCsp(url, list = cspBlocked) {
    let u;
    try { u = new URL(url, document.baseURI); } catch (e) { return false; }
    // Chromium reports the whole address; a report may also carry only the origin.
    return list.some((b) => b === u.href || b === u.origin || (b && u.href.startsWith(b)));
  }
  const CSP_FETCH_ERROR = "blocked by this site's Content-Security-Policy: connect-src allows only the site's own " +
    'address; to preview a pack from another origin, add that origin to connect-src, see docs/self-hosting.md';

  // ---- pictures in pack texts (web/ui/images.h): the browser loads each image once and keeps
  // it while the engine does; the engine asks for it drawn at the size it shows it
  // (platform_web.cpp makes the texture). crossOrigin 'anonymous': an image from another
  // origin that allows it (CORS) can be drawn into a texture; one that does not, fails to load
  // instead of tainting the canvas.
  const images = new Map();  // request id -> HTMLImageElement
  let imageCanvas = null;
  function reportImage(id, ok, w, h, fills, why) {
    if (!ready) return;
    if (ok) call('_dtx_on_image', id, 1, w, h, fills ? 1 : 0, 0);
    else withCString(why, (p) => call('_dtx_on_image', id, 0, 0, 0, 0, p));
  }
  // An SVG's own width, height and viewBox (its root tag), when the page may read it (the same
  // origin: connect-src): an SVG without a width and height has no size of its own (browsers
  // make one up: 300 x 150 in Chromium, 0 in others) and fills the text column instead.
  function svgSize(url) {
    let u;
    try { u = new URL(url); } catch (e) { return Promise.resolve(null); }
    if (!/\.svg$/i.test(u.pathname) || u.origin !== location.origin) return Promise.resolve(null);
    return fetch(u.href).then((r) => (r.ok ? r.text() : null)).then((text) => {
      const root = text && /<svg\b[^>]*>/i.exec(text.slice(0, 65536));
      if (!root) return null;
      const attr = (name) => {
        const m = new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root[0]);
        return m ? m[1].trim() : '';
      };
      const length = (v) => (v && !v.endsWith('%') && parseFloat(v) > 0 ? parseFloat(v) : 0);
      const box = attr('viewBox').split(/[\s,]+/).map(Number);
      return { width: length(attr('width')), height: length(attr('height')), box: box.length === 4 && box[2] > 0 && box[3] > 0 ? box : null };
    }).catch(() => null);
  }
  function loadImage(id, url) {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.decoding = 'async';
    images.set(id, img);
    const loaded = new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; });
    img.src = url;
    Promise.all([loaded, svgSize(url)]).then(([, svg]) => {
      if (images.get(id) !== img) return;  // forgotten meanwhile
      let w = img.naturalWidth, h = img.naturalHeight, fills = false;
      if (svg && !svg.width && !svg.height) {
        fills = true;
        if (svg.box) [w, h] = [svg.box[2], svg.box[3]];
      }
      if (!(w > 0 && h > 0)) { reportImage(id, false, 0, 0, false, `image could not be loaded: ${url} (it has no size)`); return; }
      reportImage(id, true, w, h, fills, '');
    }, () => {
      if (images.get(id) !== img) return;
      // The violation event is queued as its own task: give it one before deciding.
      setTimeout(() => {
        const csp = blockedByCsp(url, cspImagesBlocked);
        reportImage(id, false, 0, 0, false, `image could not be loaded: ${url}` + (csp
          ? " (blocked by this site's Content-Security-Policy: img-src allows only the site's own address; see docs/self-hosting.md)"
          : ''));
      }, 50);
    });
  }

  // ---- other tabs' writes to localStorage (the storage event fires only in the other tabs):
  // remembered until the next frame asks for them (the progress record is merged then).
  const changedKeys = new Set();
  window.addEventListener('storage', (e) => {
    if (e.storageArea !== localStorage) return;
    changedKeys.add(e.key === null ? '*' : e.key);  // null: the storage was cleared
    wake();
  });

  // ---- what C++ calls (web/platform/platform_web.cpp)
  window.dtxGlue = {
    cssSize,
    ready() {
      performance.mark('dtx:engine-running');  // main() has run: the bench reads these marks
      ready = true;
      window.dtxTextLayer.init(call);
      // ?layer=0 turns the text layer off: only to measure what it costs (make bench).
      if (new URLSearchParams(location.search).get('layer') === '0') call('_dtx_text_layer_enable', 0);
      resetTextarea();
      resize();
      watchDpr();
      // ?pack=URL (may repeat): packs to preview above the course, fetched by the engine.
      // Reversed: each is put on top, so they end up in the address's order.
      for (const url of new URLSearchParams(location.search).getAll('pack').reverse())
        if (url) withCString(url, (u) => call('_dtx_preview_url', u));
      // Course mode (docs/AUTHORING.md, "Running a course"): ?assign=URL opens an assignment,
      // and lands on it when the address names no other screen; ?instructor allows the
      // instructor view outside a preview.
      const query = new URLSearchParams(location.search);
      if (query.has('instructor')) call('_dtx_instructor_allowed', 1);
      const assign = query.get('assign');
      if (assign) {
        withCString(assign, (u) => call('_dtx_assign_url', u));
        if (location.hash === '' || location.hash === '#' || location.hash === '#/')
          history.replaceState(history.state, '', location.pathname + location.search + '#/assignment');
      }
      // The address names the screen (web/route.h): the engine shows it, and hears of every
      // change the browser makes (Back, Forward, an edited address). Its own writes
      // (setAddress) fire neither event.
      // prefers-color-scheme and prefers-reduced-motion, now and when the system changes them
      // and (pointer: coarse), a finger: controls grow to 44 CSS px
      const dark = matchMedia('(prefers-color-scheme: dark)'), still = matchMedia('(prefers-reduced-motion: reduce)');
      const coarse = matchMedia('(pointer: coarse)');
      const prefs = () => call('_dtx_system_prefs', dark.matches ? 1 : 0, still.matches ? 1 : 0, coarse.matches ? 1 : 0);
      for (const q of [dark, still, coarse]) q.addEventListener('change', prefs);
      prefs();
      // A reload lands where the screen was scrolled (kept for this tab, as a browser keeps a
      // page's scroll; the text layer's page box scrolls with the canvas).
      try {
        const kept = JSON.parse(sessionStorage.getItem('dtx.scroll') || 'null');
        if (kept && kept.hash === location.hash && Number.isFinite(kept.y)) withCString(kept.hash, (h) => call('_dtx_remember_scroll', h, kept.y));
      } catch (e) { /* nothing kept */ }
      window.addEventListener('pagehide', () => {
        const box = document.getElementById('dtx-page');
        try { sessionStorage.setItem('dtx.scroll', JSON.stringify({ hash: location.hash, y: box ? box.scrollTop : 0 })); } catch (e) { /* no storage */ }
      });
      const address = () => withCString(location.hash, (h) => call('_dtx_address', h));
      window.addEventListener('popstate', address);
      window.addEventListener('hashchange', address);
      address();
    },
    setAddress(fragment, title, push) {
      if (title) document.title = title;
      const url = location.pathname + location.search + fragment;
      try {
        if (push) history.pushState(null, '', url);
        else history.replaceState(null, '', url);
      } catch (e) { /* a sandboxed frame may refuse history: the page works without it */ }
    },
    linkTo(fragment) { return allocString(location.href.split('#')[0] + fragment); },
    storageGet(key) {
      let v = null;
      try { v = localStorage.getItem(key); } catch (e) { v = null; }
      return v === null ? 0 : allocString(v);
    },
    storageSet(key, value) {
      // A full storage (QuotaExceededError) throws and leaves the key as it was.
      try { localStorage.setItem(key, value); return true; } catch (e) { return false; }
    },
    storageChanged(key) {
      const hit = changedKeys.has(key) || changedKeys.has('*');
      // Another tab's record is read by the engine's second part: kept until it is in.
      if (hit && late.split && late.state !== 'ready') { loadLateCode('another tab saved'); return false; }
      changedKeys.delete(key);
      changedKeys.delete('*');
      return hit;
    },
    randomToken() {
      const a = crypto.getRandomValues(new Uint32Array(2));
      return allocString(Array.from(a, (x) => x.toString(16).padStart(8, '0')).join(''));
    },
    fetch(id, url) {
      // Asked for at start (above), or now. no-cache: revalidate, so a pack an instructor just
      // edited is picked up.
      engineAsked.add(url);
      const got = early.get(url) || fetchCounted(url, /^exercises\//.test(url) ? 'pack' : 'file', PACK_LIMIT);
      early.delete(url);
      got.then(async (r) => {
        // `make serve` marks its answers: then listen for changed packs (never on a plain host).
        if (r.headers.get('X-Dtx-Dev')) devServer = true;
        if (r.headers.get('X-Dtx-Dev') && /index\.json$/.test(url)) listenForChanges();
        let buf = r.buf;
        if (!r.ok) { call('_dtx_on_fetch', id, 0, r.status, 0, 0); return; }
        addFace(url, buf);
        // The engine refuses packs over 10 MB (kMaxPackBytes) by their size alone: one byte
        // more than that tells it so, and a huge file never has to fit in the wasm heap.
        if (buf.length > PACK_LIMIT + 1) buf = buf.subarray(0, PACK_LIMIT + 1);
        const p = M()._malloc(Math.max(buf.length, 1));
        if (!p) {  // status 0 with a body: the body is the reason (web/app.cpp)
          const why = 'the file does not fit in the memory of this page';
          call('_dtx_on_fetch', id, 0, 0, allocString(why), M().lengthBytesUTF8(why));
          return;
        }
        HEAPU8.set(buf, p);
        call('_dtx_on_fetch', id, 1, r.status, p, buf.length);
      }).catch(() => {
        // The violation event is queued as its own task: give it one before deciding.
        setTimeout(() => {
          if (!blockedByCsp(url)) { call('_dtx_on_fetch', id, 0, 0, 0, 0); return; }
          // status 0 with a body: the body is the reason (web/app.cpp)
          const p = allocString(CSP_FETCH_ERROR);
          call('_dtx_on_fetch', id, 0, 0, p, M().lengthBytesUTF8(CSP_FETCH_ERROR));
        }, 50);
      });
    },
    runCode(id, json) {
      window.dtxCodeRunner.run(JSON.parse(json)).then((result) => {
        withCString(JSON.stringify(result), (p) => call('_dtx_on_code_result', id, p));
      });
    },
    download(name, text) {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      a.download = name;
      document.body.appendChild(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    },
    pickFile() {
      const input = document.createElement('input');
      input.type = 'file';
      input.accept = '.json,application/json';
      input.onchange = () => {
        const f = input.files && input.files[0];
        if (!f) return;
        f.text().then((text) => withCString(f.name, (n) => withCString(text, (t) => call('_dtx_on_file', n, t))));
      };
      input.click();
    },
    // Links from pack Markdown. The engine already refused other schemes (web/ui/markdown.cpp);
    // this is the browser's own reading of the address, so nothing the C++ check and the URL
    // parser disagree on can run script in the page. Relative links resolve against the page.
    // noopener,noreferrer: the opened page gets no handle on this one and no Referer.
    openUrl(url) {
      // A reference to another exercise (#/ex/ID) opens here, as a click on its words does.
      if (/^#\/\S*$/.test(url)) { location.hash = url; return; }
      let href;
      try { href = new URL(url, document.baseURI); } catch (e) { return; }
      if (!OPENABLE.has(href.protocol)) { console.warn(`dtx: not opening ${href.protocol} link`); return; }
      window.open(href.href, '_blank', 'noopener,noreferrer');
    },
    today() {
      const d = new Date();
      const pad = (n) => String(n).padStart(2, '0');
      return allocString(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`);
    },
    resolveUrl(base, source) {
      try { return allocString(new URL(source, new URL(base, document.baseURI)).href); } catch (e) { return 0; }
    },
    loadImage,
    forgetImage(id) {
      const img = images.get(id);
      if (!img) return;
      images.delete(id);
      img.onload = img.onerror = null;
      img.removeAttribute('src');
    },
    // A canvas holding image `id` drawn at w x h pixels (an SVG rasterised at that size), or null.
    drawImage(id, w, h) {
      const img = images.get(id);
      if (!img || !img.complete || !img.naturalWidth) return null;
      imageCanvas = imageCanvas || document.createElement('canvas');
      imageCanvas.width = w;
      imageCanvas.height = h;
      const ctx = imageCanvas.getContext('2d');
      ctx.clearRect(0, 0, w, h);
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, w, h);
      return imageCanvas;
    },
    clipboardSet(text) {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(() => {});
    },
    textLayer(json, scroll) { window.dtxTextLayer.update(json, scroll); },
    layerScroll(scroll) { window.dtxTextLayer.scroll(scroll); },
    textFocus(on) {
      if (on) ta.focus({ preventScroll: true });
      else if (document.activeElement === ta) ta.blur();
    },
    lateCodeReady() { return !late.split || late.state === 'ready'; },
    loadLateCode,
    firstFrame() {
      // The rest of the engine now, while the map is read: a pack or an exercise needs it.
      setTimeout(() => loadLateCode('after the first screen'), 0);
      loading.style.display = 'none';
      // The HTML map (first-screen.js) gives way to the canvas's. A linked exercise's HTML view
      // first hands the engine what the student entered there (and a Submit pressed), then
      // stays up for the frames in which the engine draws it filled in.
      const fx = window.dtxFirstExercise;
      const handed = fx && fx.el && fx.answer && (fx.changed || fx.submitted);
      if (handed) withCString(JSON.stringify(fx.answer()), (p) => call('_dtx_first_view_answer', p));
      if (handed) requestAnimationFrame(() => requestAnimationFrame(() => window.dtxFirstScreen.close()));
      else if (window.dtxFirstScreen) window.dtxFirstScreen.close();
      window.dtx.firstFrameMs = performance.now() - t0;
      noteUpdate();
      // Offline copies are made once the first screen is up, so they never compete with it.
      setTimeout(startServiceWorker, 1000);
    },
    publishState(json) {
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
    },
  };

  // ---- the test hook: read-only view of the last drawn frame
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
    heapBytes() { return call('_dtx_heap_bytes'); },
    // The last key and mouse events and the frames that saw them (for a failing test's report).
    inputLog() {
      const p = call('_dtx_input_log');
      if (!p) return '';
      try { return M().UTF8ToString(p); } finally { M()._free(p); }
    },
    // The glyph runs the last drawn frame shows, read from its draw data (CSS pixels).
    drawnRuns() {
      const p = call('_dtx_drawn_runs');
      if (!p) return [];
      try { return JSON.parse(M().UTF8ToString(p)); } finally { M()._free(p); }
    },
    firstFrameMs: null,
    // The engine's second part: split or not, its state, why it was asked for and how it came in.
    lateCode() { return { split: late.split, state: late.state, why: late.why, how: late.how, error: late.error }; },
  };

  window.Module = {
    canvas,
    instantiateWasm,
    loadSplitModule,
    print: (s) => console.log(s),
    printErr: (s) => console.warn(s),
    onAbort: (what) => {
      if (late.state === 'failed') return;  // the loading line already says why (lateFailed)
      loading.style.display = 'flex';
      loading.className = 'error';
      loading.textContent = 'dtx stopped: ' + what + '. Reloading the page may help; your progress is saved.';
    },
  };
})();
