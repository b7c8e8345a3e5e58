// What a link to an exercise (#/ex/ID) shows before the engine runs: one HTML file per
// exercise, dist/exercises/first/ID.html, made at build time (scripts/build-dist.sh) from
// what the engine wrote (build/wasm/dtx-outline.js --first-views FILE: each exercise's default
// instance, its prompt already HTML, its answer area described, never its answer):
//
//   node scripts/first-views.mjs VIEWS_JSON DIST_DIR
//
// Why: on a link to an exercise the engine (both parts of the wasm, fonts, WebGL, the pack)
// drew it 450-650 ms after navigation on the bench machine, while a plain page paints in
// 80-100 ms (make bench). web/shell/first-screen.js fetches the exercise's file at the top of
// the page and shows it until the engine's first frame: the student reads the exercise while
// the engine starts. The answer area is shown as text (the options, the steps, the code), not
// as controls: answering is the engine's, a moment later, and a control that did nothing
// would mislead.
//
// The exercise's title carries elementtiming="dtx-exercise": make bench reads when it was
// painted (Element Timing). Every text is HTML-escaped here; the prompt and option texts come
// as HTML from the engine's Markdown renderer (cli/first_views.cpp), which escapes raw HTML.
import fs from 'node:fs';
import path from 'node:path';

const [viewsPath, dist] = process.argv.slice(2);
if (!viewsPath || !dist) {
  console.error('usage: node scripts/first-views.mjs VIEWS_JSON DIST_DIR');
  process.exit(2);
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const ID = /^[a-z0-9][a-z0-9.-]*$/;  // engine/model.cpp valid_id: a file name as it is

// The answer area of each type (engine/grade/*.cpp describe), as the student will meet it.
const AREAS = {
  numeric(a) {
    const parts = Array.isArray(a.parts) ? a.parts : [];
    return '<ul class="fx-parts">' + parts.map((p) =>
      `<li><span class="fx-label">${esc(p.label || p.id || '')}</span> <span class="fx-blank" aria-hidden="true"></span>` +
      (p.unit ? ` <span class="fx-unit">${esc(p.unit)}</span>` : '') + '</li>').join('') + '</ul>';
  },
  choice(a) {
    const opts = Array.isArray(a.options) ? a.options : [];
    // (the engine's words, web/views/choice_view.cpp; it shows no letters)
    return `<p class="fx-how">${a.multiple ? 'Select every option that applies.' : 'Select one option.'}</p>` +
      '<ul class="fx-options">' + opts.map((o) =>
        `<li><span class="fx-box" aria-hidden="true">${a.multiple ? '☐' : '○'}</span> ${o.html}</li>`).join('') + '</ul>';
  },
  ordering(a) {
    const items = Array.isArray(a.items) ? a.items : [];
    return '<p class="fx-how">Put these in order.</p><ul class="fx-options">' +
      items.map((o) => `<li><b>${esc(o.label)})</b> ${o.html}</li>`).join('') + '</ul>';
  },
  matching(a) {
    const items = Array.isArray(a.items) ? a.items : [], opts = Array.isArray(a.options) ? a.options : [];
    return '<p class="fx-how">Match each of these</p><ul class="fx-options">' +
      items.map((o) => `<li><b>${esc(o.number)}.</b> ${o.html}</li>`).join('') + '</ul>' +
      '<p class="fx-how">with one of these</p><ul class="fx-options">' +
      opts.map((o) => `<li><b>${esc(o.label)})</b> ${o.html}</li>`).join('') + '</ul>';
  },
  'buggy-line'(a) {
    const lines = Array.isArray(a.code) ? a.code : [];
    const n = Number(a.select) > 1 ? `the ${Number(a.select)} lines that are wrong` : 'the line that is wrong';
    return `<p class="fx-how">Find ${n}.</p><pre class="fx-code"><code>` +
      lines.map((l, i) => `<span class="fx-ln">${i + 1}</span>${esc(l)}`).join('\n') + '</code></pre>';
  },
  code(a) {
    const cases = Array.isArray(a.cases) ? a.cases.length : 0, hidden = Number(a.hidden_cases) || 0;
    return `<p class="fx-how">Write <code>${esc(a.function || '')}(${(Array.isArray(a.args) ? a.args : []).map(esc).join(', ')})</code>` +
      `${a.returns ? ` (it returns ${esc(a.returns)})` : ''}; it is run on ${cases + hidden} cases` +
      `${hidden ? `, ${hidden} of them hidden` : ''}.</p>` +
      (a.starter ? `<pre class="fx-code"><code>${esc(a.starter)}</code></pre>` : '');
  },
};

function page(id, v) {
  const area = AREAS[v.type] ? AREAS[v.type](v.area || {}) : '';
  return [
    '<header class="fs-top"><a class="fs-home" href="#/">dtx</a>' +
      '<nav aria-label="dtx"><a class="fs-btn" href="#/">Course</a><a class="fs-btn" href="#/lab">Lab</a>' +
      '<a class="fs-btn" href="#/settings">Settings</a></nav></header>',
    `<main class="fs-page fx" data-ex="${esc(id)}">`,
    `<p class="fs-muted"><a href="#/chapter/${esc(v.chapter)}">Chapter ${esc(v.chapter)}</a></p>`,
    `<h1 elementtiming="dtx-exercise">${esc(v.title)}</h1>`,
    `<div class="fx-prompt">${v.prompt_html}</div>`,
    v.widget ? '<p class="fs-muted fx-how">(An interactive figure goes with this exercise.)</p>' : '',
    `<section class="fx-answer" aria-label="Answer">${area}</section>`,
    '<p class="fs-muted fs-status" role="status">Opening the exercise: you can answer in a moment…</p>',
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
