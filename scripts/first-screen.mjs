// The course map as plain HTML, written into dist/index.html at build time (run by
// scripts/build-dist.sh once exercises/outline.json is written):
//
//   node scripts/first-screen.mjs DIST_DIR
//
// Why: the engine (wasm, fonts, WebGL) takes 300-400 ms to draw its first frame on the bench
// machine, while a plain page paints in 60-70 ms (make bench). The map's content is known at
// build time (the outline: chapters, exercise titles and types, with the engine's own verbs),
// so the page carries it as HTML: it paints with the page, reads, finds, selects and is read
// aloud like any page, works without JavaScript, and each exercise is a link to its address
// (#/ex/ID), which the engine opens once it runs. first-screen.js (in the page) marks the
// student's progress on it and the engine's first frame replaces it.
//
// Each exercise link carries elementtiming="dtx-map": make bench reads when the first of them
// was painted (Element Timing), the moment the map could be used.
//
// Titles come from packs, which instructors write: every text is HTML-escaped, every address
// percent-encoded. The markup goes where index.html has <!-- dtx:first-screen -->.
import fs from 'node:fs';
import path from 'node:path';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node scripts/first-screen.mjs DIST_DIR');
  process.exit(2);
}
const MARK = '<!-- dtx:first-screen -->';
const indexPath = path.join(dist, 'index.html');
const outlinePath = path.join(dist, 'exercises/outline.json');

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
// As web/route.cpp percent_encode: everything but unreserved characters.
const enc = (s) => Array.from(new TextEncoder().encode(String(s)), (b) => {
  const c = String.fromCharCode(b);
  return /[A-Za-z0-9\-._~]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
}).join('');

function build(outline) {
  const verbs = outline.verbs && typeof outline.verbs === 'object' ? outline.verbs : {};
  const entries = Array.isArray(outline.packs) ? outline.packs : [];
  const good = entries.filter((p) => p && !p.error && Array.isArray(p.exercises));
  const broken = entries.filter((p) => p && p.error);
  // The engine's order: by chapter, ties in the index's order (web/screens/course_map.cpp).
  const packs = good.map((p, i) => [p, i]).sort((a, b) => (a[0].chapter - b[0].chapter) || (a[1] - b[1])).map((x) => x[0]);
  const total = packs.reduce((n, p) => n + p.exercises.length, 0);
  const out = [];
  out.push('<div id="first-screen" class="fs">');
  out.push('<header class="fs-top"><a class="fs-home" href="#/">dtx</a>' +
    '<nav aria-label="dtx"><a class="fs-btn" href="#/">Course</a><a class="fs-btn" href="#/lab">Lab</a>' +
    '<a class="fs-btn" href="#/settings">Settings</a></nav></header>');
  out.push('<main class="fs-page">');
  out.push('<h1>The arithmetic of distributed training</h1>');
  out.push('<p>Derive the numbers behind ring AllReduce, ZeRO, pipeline bubbles, tensor parallelism and 405B-scale plans. ' +
    'Every answer is checked at once; progress stays in this browser.</p>');
  out.push(`<p class="fs-muted" id="fs-stats" data-total="${total}">Solved 0 of ${total} · attempted 0</p>`);
  // (first-screen.js shows the status line; without JavaScript the page says what it needs)
  out.push('<p class="fs-muted fs-status" id="fs-status" hidden>Loading the exercise engine…</p>');
  out.push('<noscript><p class="fs-error">The exercises need JavaScript and WebGL 2; this is the course\'s outline.</p></noscript>');
  out.push('<p class="fs-continue" id="fs-continue" hidden><a href="#/"></a></p>');
  for (const p of broken)
    out.push(`<p class="fs-error">Could not load ${esc(p.file)} (the other packs are fine): ${esc(p.error)}</p>`);
  packs.forEach((p, i) => {
    // Each row as for a student with no record (○, "not tried"): first-screen.js changes only the
    // rows its record holds.
    // The first chapter is open until first-screen.js knows better (the last exercise's chapter,
    // an address naming one).
    out.push(`<details class="fs-chapter" id="fs-chapter-${esc(p.chapter)}" data-chapter="${esc(p.chapter)}"${i === 0 ? ' open' : ''}>`);
    out.push(`<summary><h2>Chapter ${esc(p.chapter)}: ${esc(p.title)} <span class="fs-count">0/${p.exercises.length} solved</span></h2></summary>`);
    // Every chapter's rows but the first's inside <noscript class="fs-rows">: with JavaScript on,
    // the parser keeps them as one text node (nothing to build, style or lay out before the first
    // paint; first-screen.js makes them into elements after it, or at once for a chapter it must
    // open); without JavaScript they are the ordinary list. Parsing them as elements costs a
    // second visit's first paint 4-16 ms (an A/B against the same page). Every text in
    // them is escaped, so no title can end the <noscript> early.
    out.push(i === 0 ? '<ul>' : '<noscript class="fs-rows"><ul>');
    for (const ex of p.exercises) {
      const verb = verbs[ex.type] || ex.type;
      out.push(`<li data-ex="${esc(ex.id)}"><span class="fs-mark" aria-hidden="true">○</span>` +
        `<a href="#/ex/${esc(enc(ex.id))}" elementtiming="dtx-map" aria-description="not tried, ${esc(verb)}">${esc(ex.title)}</a><span class="fs-type">${esc(verb)}</span></li>`);
    }
    out.push(i === 0 ? '</ul></details>' : '</ul></noscript></details>');
  });
  if (!packs.length) out.push('<p class="fs-error">No exercise pack could be loaded.</p>');
  out.push('</main></div>');
  return out.join('\n');
}

const html = fs.readFileSync(indexPath, 'utf8');
if (!html.includes(MARK)) {
  console.error(`first-screen: ${indexPath} has no ${MARK}`);
  process.exit(1);
}
let outline;
try {
  outline = JSON.parse(fs.readFileSync(outlinePath, 'utf8'));
} catch (e) {
  // No outline (it failed to build): the page starts as before, on its loading line.
  console.error(`first-screen: warning: ${outlinePath}: ${e.message}; the page has no HTML first screen`);
  fs.writeFileSync(indexPath, html.replace(MARK, ''));
  process.exit(0);
}
const markup = build(outline);
fs.writeFileSync(indexPath, html.replace(MARK, () => markup));
console.log(`first-screen: ${(markup.length / 1024).toFixed(1)} KiB of HTML into ${indexPath}`);
