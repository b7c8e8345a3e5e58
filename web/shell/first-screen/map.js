// Part 2 of the first screen, run right after the map's markup (window.dtxFirstScreenAfterMap):
// the text size, the student's progress marked from the stored record, the chapter of the last
// exercise (or the one the address names) open, the closed chapters' rows made after the first
// paint, and the loading line with an exercise's title when a link leaves the map before the
// engine runs. window.dtxFirstScreen lets glue.js close it all at the engine's first frame.
import { fx } from './exercise-view.js';
import { firstPaint, get, html, onMap, textScale } from './page.js';

const unesc = (t) => t.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
const num = (v) => (typeof v === 'number' && isFinite(v) ? v : 0);

// The chapters' rows. scripts/first-screen.mjs writes every chapter's rows but the first's
// inside <noscript class="fs-rows">: with JavaScript on, each is one text node until made into
// elements here (expand): a chapter that must show (the last exercise's, the one the address
// names, one the student opens) at once, every other one after the first paint. Until then a
// chapter's exercise ids are read off its text (for the counts and the marks). `onRow` is
// called with each row made.
function chapterRows(root, onRow) {
  const pending = new Map();  // chapter element -> its <noscript>
  const pendingIds = new Map();  // exercise id -> its chapter, for rows not made yet
  const pendingSize = new Map();  // chapter element -> how many rows it holds
  if (root) {
    for (const ns of root.querySelectorAll('.fs-chapter > noscript.fs-rows')) {
      const ch = ns.parentNode;
      pending.set(ch, ns);
      let n = 0;
      for (const m of ns.textContent.matchAll(/<li data-ex="([^"]*)"/g)) { pendingIds.set(unesc(m[1]), ch); n++; }
      pendingSize.set(ch, n);
    }
  }
  let rows = null;  // exercise id -> its <li> (made elements only), made when first needed
  function madeRows() {
    if (!rows) {
      rows = new Map();
      for (const li of root.querySelectorAll('li[data-ex]')) rows.set(li.getAttribute('data-ex'), li);
    }
    return rows;
  }
  const madeRow = (id) => madeRows().get(id) || null;
  function expand(ch) {
    const ns = pending.get(ch);
    if (!ns) return;
    pending.delete(ch);
    const made = madeRows();  // (before these rows are in the page: they join it here)
    const t = document.createElement('template');
    t.innerHTML = ns.textContent;  // the build's own markup, escaped there
    for (const li of t.content.querySelectorAll('li[data-ex]')) {
      const id = li.getAttribute('data-ex');
      pendingIds.delete(id);
      made.set(id, li);
      onRow(li);
    }
    ns.replaceWith(t.content);
  }
  // An exercise's row, its chapter's made into elements first if need be.
  function row(id) {
    if (!madeRow(id) && pendingIds.has(id)) expand(pendingIds.get(id));
    return madeRow(id);
  }
  return {
    madeRow,
    expand,
    row,
    titleOf: (id) => { const li = row(id); return li ? li.querySelector('a').textContent : null; },
    // The chapter of exercise `id` without making its rows; null for an exercise no pack has.
    chapterOf: (id) => { const li = madeRow(id); return li ? li.closest('.fs-chapter') : pendingIds.get(id) || null; },
    size: (ch) => (pending.has(ch) ? pendingSize.get(ch) : ch.querySelectorAll('li[data-ex]').length),
    expandAll: () => { for (const ch of [...pending.keys()]) expand(ch); },
  };
}

// The student's progress. The markup is written as for a student with no record
// (scripts/first-screen.mjs: ○, "not tried", 0/N solved): only the rows of exercises the
// record holds are touched. Setting every row (295) costs about 7 ms of the main thread before
// a second visit's first paint.
function progressMarks() {
  let exs = {};  // the record's exercises
  const entry = (id) => (Object.prototype.hasOwnProperty.call(exs, id) && exs[id] && typeof exs[id] === 'object' ? exs[id] : null);
  function markRow(li) {
    const e = entry(li.getAttribute('data-ex'));
    if (!e) return;
    const tries = Math.floor(num(e.attempts));
    const done = num(e.solved_at) > 0;
    const m = li.querySelector('.fs-mark');
    m.textContent = done ? '✓' : '●';
    m.className = 'fs-mark' + (done ? ' fs-solved' : ' fs-tried');
    const type = li.querySelector('.fs-type');
    li.querySelector('a').setAttribute('aria-description', (done ? 'solved' : 'tried, not solved yet') + ', ' + type.textContent.split(' · ')[0]);
    type.textContent += ` · ${tries} ${tries === 1 ? 'try' : 'tries'}`;
  }
  // The counts: each chapter's solved, the totals.
  function count(rows) {
    let solved = 0, attempted = 0, changed = false;
    const chSolved = new Map();  // chapter element -> solved in it
    for (const id of Object.keys(exs)) {
      const e = entry(id);
      const ch = e && rows.chapterOf(id);
      if (!ch) continue;  // (an exercise no pack has any more)
      changed = true;
      if (!chSolved.has(ch)) chSolved.set(ch, 0);
      if (num(e.solved_at) > 0) { solved++; chSolved.set(ch, chSolved.get(ch) + 1); }
      if (Math.floor(num(e.attempts)) > 0) attempted++;
      const li = rows.madeRow(id);
      if (li) markRow(li);
    }
    for (const [ch, n] of chSolved) ch.querySelector('.fs-count').textContent = `${n}/${rows.size(ch)} solved`;
    const stats = document.getElementById('fs-stats');
    if (stats && changed) stats.textContent = `Solved ${solved} of ${stats.getAttribute('data-total')} · attempted ${attempted}`;
  }
  // "Continue where you left off", and the last exercise's chapter open.
  function continueAt(root, rows, last) {
    const lastRow = last ? rows.row(last) : null;
    if (!lastRow) return;
    lastRow.classList.add('fs-last');
    const lastChapter = lastRow.closest('.fs-chapter');
    for (const ch of root.querySelectorAll('.fs-chapter')) ch.open = ch === lastChapter;
    const c = document.getElementById('fs-continue');
    const a = c.querySelector('a');
    a.href = '#/ex/' + encodeURIComponent(last);
    a.textContent = 'Continue where you left off: ' + rows.titleOf(last);
    c.hidden = false;
  }
  function mark(root, rows) {
    let rec = null;
    try { rec = JSON.parse(get('dtx.progress') || 'null'); } catch (e) { rec = null; }
    exs = rec && typeof rec === 'object' && rec.exercises && typeof rec.exercises === 'object' && !Array.isArray(rec.exercises)
      ? rec.exercises : {};
    count(rows);
    continueAt(root, rows, rec && typeof rec.last_exercise === 'string' ? rec.last_exercise : '');
  }
  return { markRow, mark };
}

// #/chapter/N: that chapter open, at the top.
function toChapter(rows, hash) {
  const m = /^#\/chapter\/(\d+)/.exec(hash);
  const ch = m && document.getElementById('fs-chapter-' + Number(m[1]));
  if (!ch) return;
  rows.expand(ch);
  ch.open = true;
  ch.scrollIntoView({ block: 'start' });
}

export function afterMap() {
  const root = document.getElementById('first-screen');
  textScale(root);
  let closed = !root;
  // html.fs-off: the loading line instead (dtx.css). Without this script (no JavaScript) the
  // HTML map stays: a readable course outline.
  function hide(why) {
    if (closed) return;
    html.classList.add('fs-off');
    const what = document.getElementById('loading-what');
    if (what && why) what.textContent = why;
  }
  const marks = progressMarks();
  const rows = chapterRows(root, marks.markRow);

  function follow() {
    if (fx.el) fx.close();  // another address: the loading line, then the engine
    if (closed) return;
    if (onMap(location.hash)) { html.classList.remove('fs-off'); toChapter(rows, location.hash); return; }
    const ex = /^#\/ex\/([^/?]+)/.exec(location.hash);
    let id = '';
    try { id = ex ? decodeURIComponent(ex[1]) : ''; } catch (e) { id = ''; }
    const title = id && root ? rows.titleOf(id) : null;
    hide(title ? `Opening “${title}”…` : 'Loading dtx…');
  }

  if (root) {
    const status = document.getElementById('fs-status');
    if (status) status.hidden = false;
    marks.mark(root, rows);
    if (onMap(location.hash)) toChapter(rows, location.hash);
    else html.classList.add('fs-off');  // (part 1 has, unless the address changed since)
    // a chapter the student opens (its summary) before its rows were made
    root.addEventListener('toggle', (e) => { if (e.target.open) rows.expand(e.target); }, true);
    firstPaint.then(() => { if (!closed) rows.expandAll(); });
  }
  window.addEventListener('hashchange', follow);

  window.dtxFirstScreen = {
    // True while the HTML map or a linked exercise in HTML is what the student sees.
    get shown() { return (!closed && !html.classList.contains('fs-off')) || !!fx.el; },
    close() {
      fx.close();
      window.removeEventListener('hashchange', follow);
      if (closed) return;
      closed = true;
      html.classList.remove('fs-off');
      root.remove();
    },
  };
}
