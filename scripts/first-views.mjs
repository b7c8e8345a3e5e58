// What a link to an exercise (#/ex/ID) shows before the engine runs: one HTML file per
// exercise, dist/exercises/first/ID.html, made at build time (scripts/build-dist.sh) from
// what the engine wrote (build/wasm/dtx-outline.js --first-views FILE: each exercise's default
// instance, its prompt already HTML, its answer area described, never its answer):
//
//   node scripts/first-views.mjs VIEWS_JSON DIST_DIR
//
// Why: on a link to an exercise the engine (both parts of the wasm, fonts, WebGL, the pack)
// drew it 450-650 ms after navigation on the bench machine, while a plain page paints in
// 80-100 ms (make bench). web/shell/first-screen/ fetches the exercise's file at the top of
// the page and shows it until the engine's first frame: the student reads the exercise while
// the engine starts. Its answer area is made of ordinary controls: what the student enters
// (and a Submit pressed) is handed to the engine at its first frame (glue.js,
// app_first_view_answer), which grades it.
//
// The exercise's title carries elementtiming="dtx-exercise": make bench reads when it was
// painted (Element Timing). Every text is HTML-escaped here; the prompt and option texts come
// as HTML from the engine's Markdown renderer (cli/first_views.cpp), which escapes raw HTML.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [viewsPath, dist] = process.argv.slice(2);
if (!viewsPath || !dist) {
  console.error('usage: node scripts/first-views.mjs VIEWS_JSON DIST_DIR');
  process.exit(2);
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const ID = /^[a-z0-9][a-z0-9.-]*$/;  // engine/model.cpp valid_id: a file name as it is

// The answer area of each type (its `describe`) as HTML controls: types/<type>/first_view.mjs,
// in the engine's words (its view.cpp). first-screen.js reads them back as `dtx grade` words
// (data-word on each control) and glue.js hands them to the engine at its first frame.
// The words of an inline HTML text (an <option> and an aria-label hold text only), to be
// escaped again where they go.
const plain = (html) => String(html).replace(/<[^>]*>/g, '').replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|#39);/gi, (m, e) => {
  const named = { amp: '&', lt: '<', gt: '>', quot: '"' };
  if (named[e.toLowerCase()]) return named[e.toLowerCase()];
  const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
  return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
});
const TYPES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'types');
const AREAS = {};
for (const type of fs.readdirSync(TYPES_DIR).sort()) {
  const file = path.join(TYPES_DIR, type, 'first_view.mjs');
  if (fs.existsSync(file)) AREAS[type] = (await import(pathToFileURL(file).href)).default;
}

function page(id, v) {
  const area = AREAS[v.type] ? AREAS[v.type](v.area || {}, { esc, plain }) : '';
  return [
    '<header class="fs-top"><a class="fs-home" href="#/">dtx</a>' +
      '<nav aria-label="dtx"><a class="fs-btn" href="#/">Course</a><a class="fs-btn" href="#/lab">Lab</a>' +
      '<a class="fs-btn" href="#/settings">Settings</a></nav></header>',
    `<main class="fs-page fx" data-ex="${esc(id)}">`,
    `<p class="fs-muted"><a href="#/chapter/${esc(v.chapter)}">Chapter ${esc(v.chapter)}</a></p>`,
    `<h1 elementtiming="dtx-exercise">${esc(v.title)}</h1>`,
    `<div class="fx-prompt">${v.prompt_html}</div>`,
    v.widget ? '<p class="fs-muted fx-how">(An interactive figure goes with this exercise.)</p>' : '',
    `<form class="fx-answer" data-type="${esc(v.type)}" aria-label="Your answer">${area}`,
    '<p><button type="submit" class="fs-btn fx-submit">Submit</button></p></form>',
    // (first-screen.js says when an answer waits for the grader)
    '<p class="fs-muted fs-status" role="status" id="fx-status">The grader is loading; what you enter here carries over.</p>',
    '</main>',
  ].filter(Boolean).join('\n');
}

let views;
try {
  views = JSON.parse(fs.readFileSync(viewsPath, 'utf8'));
} catch (e) {
  // No first views (the tool failed): a link to an exercise shows the loading line, as before.
  console.error(`first-views: warning: ${viewsPath}: ${e.message}; links to exercises start on the loading line`);
  process.exit(0);
}
const outDir = path.join(dist, 'exercises', 'first');
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
let n = 0, bytes = 0;
for (const [id, v] of Object.entries(views.exercises || {})) {
  if (!ID.test(id) || !v || typeof v !== 'object') continue;
  const html = page(id, v);
  fs.writeFileSync(path.join(outDir, id + '.html'), html);
  n++;
  bytes += html.length;
}
console.log(`first-views: ${n} exercises, ${(bytes / 1024).toFixed(1)} KiB of HTML in ${outDir}`);
