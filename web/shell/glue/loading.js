// Counted downloads: every byte the start receives is shown on the loading line, and what the
// first screen needs is asked for at once (start.js), its answers kept for the engine's own
// requests (host.js fetch). The engine's font files also become the text layer's faces.
import { loading } from './page.js';

export const PACK_LIMIT = 10 * 1024 * 1024;  // engine/model.h kMaxPackBytes

// ---- start: everything the first screen needs is requested at once, while the engine
// downloads and compiles, instead of after it (fonts, the pack index, then every pack).
// The engine asks for the same URLs (web/app.cpp kFontFiles, base_url) and gets these
// answers; what it asks for later (a changed pack, a preview) is fetched then.
// Every byte received is counted for the loading line.
export const files = new Map();    // url -> {kind, got, total, done}
export const early = new Map();    // url -> promise of {ok, status, headers, buf}
export const engineAsked = new Set();  // urls the engine has fetched
// The engine's fonts (web/app.cpp kFontFiles), each with the face the text layer
// (text-layer.js: dtx-sans, dtx-mono) makes of the same bytes (addFace, below).
const FACES = {
  'fonts/Inter-Regular.otf': ['dtx-sans', { weight: '400', style: 'normal' }],
  'fonts/Inter-SemiBold.otf': ['dtx-sans', { weight: '600', style: 'normal' }],
  'fonts/Inter-Italic.otf': ['dtx-sans', { weight: '400', style: 'italic' }],
  'fonts/JetBrainsMono-Regular.ttf': ['dtx-mono', {}],
};
export const FONT_FILES = Object.keys(FACES);
export const MAX_EARLY_PACKS = 200;

export function showProgress() {
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
export async function fetchCounted(url, kind, limit = Infinity) {
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
export function addFace(url, buf) {
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

export function fetchEarly(url, kind) {
  const p = fetchCounted(url, kind, PACK_LIMIT);
  p.catch(() => {});  // the engine's own request reports the failure
  early.set(url, p);
  return p;
}
