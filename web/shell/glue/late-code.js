import { loading, wake } from './page.js';

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
export const late = { split: false, state: 'idle', module: null, compiled: null, how: '', why: '', error: '', promise: null };
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
export function setPrimary(exports, module) {
  primaryExports = exports;
  primaryModule = module;
}
// The second part, compiled while it downloads (compileStreaming; on a background thread).
// For an address that needs it at start this begins with glue.js, beside the first part's
// compile: begun only once dtx.wasm is compiled, its compile would be the longest wait of a
// deep link (about 80 ms of a mostly idle main thread in make bench's trace).
let lateCompile = null;
export function compileLate() {
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
export function loadLateCode(why) {
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
export function loadSplitModule(file, imports, placeholder) {
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
