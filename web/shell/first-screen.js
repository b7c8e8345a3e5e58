// The course map in HTML (#first-screen, written into index.html at build time by
// scripts/first-screen.mjs) until the engine draws its first frame, and the start of everything
// else. The build puts this file into index.html at the top of the body, before the map's
// markup (scripts/inline-first-paint.mjs: the page's first paint waits for no other file), and
// a one-line script right after the markup calls window.dtxFirstScreenAfterMap().
//  1. At the top of the body, before the map's markup is parsed:
//     - the theme chosen in Settings (dtx.theme): the first paint is in the student's colours;
//     - on any address but the map's (an exercise, the Lab, settings, ?pack=, ?assign=),
//       html.fs-off: the markup is then never laid out or painted. (Run after the markup
//       only, a deep link would show the whole map for a frame before the loading line, and
//       its layout and paint take about 60 ms of the main thread: docs/performance.md.)
//     - the engine's files are asked for (startEngine below): at once on a first visit; on a
//       page the service worker serves (every file is on this machine), after the first paint.
//  2. Right after the markup (dtxFirstScreenAfterMap). The browser may paint what it has
//     parsed of the map before this (it renders while it parses; a trace of a second visit
//     showed parts of the map unmarked for a frame); hiding the map until it is marked made the
//     first paint wait for the engine's scripts instead (216 against 188 ms, make bench), so it
//     is not hidden. This run:
//     - the text size chosen in Settings (dtx.text-scale);
//     - marks the student's progress from the stored record (dtx.progress), as the canvas map
//       does: ✓ solved, ● tried, ○ not tried, the tries, each chapter's count, the totals, and
//       "Continue where you left off". A record it cannot read is left alone: the engine reads
//       it (and keeps a corrupt one aside); this only draws less until then;
//     - opens the chapter of the last exercise, or the one the address names;
//     - makes the closed chapters' rows (written inside <noscript>) into elements after the
//       first paint, or at once for a chapter it opens or the student opens;
//     - when a link leaves the map before the engine runs, shows the loading line with the
//       exercise's title (the engine opens the address when it starts).
// On a link to an exercise (#/ex/ID) part 1 also fetches that exercise in HTML
// (exercises/first/ID.html, scripts/first-views.mjs) and shows it over the loading line: a
// page the student can read and answer while the engine starts (firstView, wire below).
// glue.js calls window.dtxFirstScreen.close() once the engine's first frame is on screen: the
// markup is removed, so find in page and screen readers meet one map, never two (a linked
// exercise's view goes too, after handing the engine what was entered on it).
'use strict';
(function () {
  const html = document.documentElement;
  const get = (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } };
  const query = new URLSearchParams(location.search);
  const onMap = (hash) => !query.has('pack') && !query.has('assign') && /^(#\/?)?(chapter\/\d+\/?)?$/.test(hash);

  // A link to an exercise's default numbers (#/ex/ID: no seed, no ?pack=, no ?assign=): the
  // exercise in HTML (exercises/first/ID.html, scripts/first-views.mjs), fetched from the top of
  // the page and shown over the loading line until the engine's first frame, or until the
  // address changes. glue.js reads it as window.dtxFirstExercise.
  const fx = window.dtxFirstExercise = { el: null, closed: false, changed: false, submitted: false, answer: null };
  // fx.painted: resolves once the view is on screen, or at once when there is none to wait for.
  // glue.js makes the WebGL context and starts the engine (together 80-120 ms of this thread)
  // after it, or 400 ms into the page's life at the latest: before, the view waited for them.
  fx.painted = new Promise((resolve) => { fx.donePainting = resolve; });
  function textScale(el) {
    const scale = Number(get('dtx.text-scale'));
    if (scale >= 0.5 && scale <= 3 && el) el.style.fontSize = (16 * scale).toFixed(2) + 'px';
  }
  function firstView(hash) {
    const m = /^#\/ex\/([a-z0-9][a-z0-9.-]*)\/?$/.exec(hash);
    if (!m || query.has('pack') || query.has('assign')) return false;
    fetch('exercises/first/' + m[1] + '.html').then((r) => (r.ok ? r.text() : null)).then((text) => {
      if (!text || fx.closed || location.hash !== hash || !document.body) { fx.donePainting(); return; }
      const el = document.createElement('div');
      el.id = 'first-exercise';
      el.className = 'fs';
      el.innerHTML = text;  // the build's own file, escaped there
      textScale(el);
      document.body.appendChild(el);
      fx.el = el;
      wire(el, m[1]);
      html.classList.add('fx-on');
      // (the next frame's callback: this one has been committed to the screen)
      requestAnimationFrame(() => requestAnimationFrame(fx.donePainting));
    }).catch(() => fx.donePainting());  // the loading line stays
    return true;
  }
  // Its answer area: ordinary controls. What the student enters, and a Submit pressed, are read
  // as `dtx grade` words (fx.answer) and handed to the engine at its first frame (glue.js).
  function wire(el, id) {
    const form = el.querySelector('form.fx-answer');
    if (!form) return;
    const status = el.querySelector('#fx-status');
    const changed = () => { fx.changed = true; };
    form.addEventListener('input', changed);
    form.addEventListener('change', changed);
    // A button with data-move="up"/"down" moves its [data-movable] element one place among its
    // siblings (a step of a list put in order); the button keeps the keyboard.
    form.addEventListener('click', (e) => {
      const b = e.target.closest && e.target.closest('button[data-move]');
      if (!b) return;
      const li = b.closest('[data-movable]');
      if (!li) return;
      const up = b.getAttribute('data-move') === 'up';
      const other = up ? li.previousElementSibling : li.nextElementSibling;
      if (!other) return;
      if (up) li.parentNode.insertBefore(li, other);
      else li.parentNode.insertBefore(other, li);
      b.focus();
      changed();
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      fx.submitted = true;
      if (status) status.textContent = 'Your answer is checked as soon as the grader is in…';
    });
    fx.answer = () => ({ id, words: wordsOf(form), submit: !!fx.submitted });
  }
  // The answer as `dtx grade` words, from the controls that carry data-word (each type's
  // types/<type>/first_view.mjs writes them), in document order: a box or radio button gives
  // its value when it is ticked; a field, text area or list gives data-word then its value
  // (an empty one only with data-keep-empty); any other element gives data-word itself.
  function wordsOf(form) {
    const words = [];
    for (const el of form.querySelectorAll('[data-word]')) {
      const word = el.getAttribute('data-word');
      if (el.type === 'checkbox' || el.type === 'radio') {
        if (el.checked) words.push(el.value);
      } else if (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) {
        if (el.value || el.hasAttribute('data-keep-empty')) words.push(word + el.value);
      } else {
        words.push(word);
      }
    }
    return words;
  }
  fx.close = () => {
    fx.closed = true;
    html.classList.remove('fx-on');
    if (fx.el) fx.el.remove();
    fx.el = null;
  };

  // ---- the engine's files. On a first visit they are asked for at once, from here (the top of
  // the body: as early as links in the head would be), and run once the page is parsed. On a
  // page the service worker serves, every file is on this machine already, and fetching and
  // compiling them (dtx.wasm out of the cache, glue.js and dtx.js parsed on the browser's
  // threads) only compete with the first paint for the cores: in a trace of a second visit the
  // map's raster takes 55 ms beside them instead of 13 (docs/performance.md). There they wait for the
  // first contentful paint, or 400 ms, or a tab that is not shown (it paints nothing).
  // In this order: glue.js's capture listeners go in ahead of GLFW's (dtx.js).
  const ENGINE_SCRIPTS = ['glue.js', 'text-layer.js', 'code-runner.js', 'dtx.js'];
  // Resolves after the page's first contentful paint, or 400 ms into it, or at once in a tab
  // that is not shown (it paints nothing).
  const firstPaint = new Promise((resolve) => {
    if (document.visibilityState === 'hidden') { resolve(); return; }
    document.addEventListener('visibilitychange', () => resolve(), { once: true });
    setTimeout(resolve, 400);
    try {
      new PerformanceObserver((list, obs) => {
        if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) { obs.disconnect(); resolve(); }
      }).observe({ type: 'paint', buffered: true });
    } catch (e) { resolve(); }
  });
  // Anything of a returning student's stored (as glue.js's storedState).
  function storedState() {
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith('dtx.') && k !== 'dtx.version') return true;
      }
    } catch (e) { /* no storage: nothing stored */ }
    return false;
  }
  function startEngine() {
    let local = false;
    try { local = !!(navigator.serviceWorker && navigator.serviceWorker.controller); } catch (e) { /* no workers here */ }
    const painted = local ? firstPaint : Promise.resolve();
    const preload = (href, as, high) => {
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = as;
      link.href = href;
      // glue.js's fetch takes such an answer: same URL, CORS mode, same-origin credentials
      if (as === 'fetch') link.crossOrigin = 'anonymous';
      if (high) link.fetchPriority = 'high';
      document.head.appendChild(link);
    };
    painted.then(() => {
      preload('dtx.wasm', 'fetch', true);
      for (const src of ENGINE_SCRIPTS) preload(src, 'script', src === 'glue.js' || src === 'dtx.js');
      // An address but the map's, or a returning student, needs the engine's second part at
      // start (glue.js lateAtStart).
      if (!onMap(location.hash) || storedState()) preload('dtx.deferred.wasm', 'fetch', false);
    });
    // (run in order once loaded, not before the page is parsed: glue.js finds #loading below the map)
    const parsed = new Promise((resolve) => {
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
      else resolve();
    });
    Promise.all([painted, parsed]).then(() => {
      for (const src of ENGINE_SCRIPTS) {
        const el = document.createElement('script');
        el.src = src;
        el.async = false;
        document.body.appendChild(el);
      }
    });
  }

  // 1. before the markup
  const theme = get('dtx.theme');
  if (theme === 'light' || theme === 'dark') html.setAttribute('data-theme', theme);
  if (!onMap(location.hash)) {
    html.classList.add('fs-off');  // glue.js says what loads
    if (!firstView(location.hash)) fx.donePainting();
  } else {
    fx.donePainting();
  }
  startEngine();
  // The site's icon, after the first paint (index.html says why; its <noscript> names it for
  // a page without JavaScript).
  firstPaint.then(() => {
    const icon = document.createElement('link');
    icon.rel = 'icon';
    icon.type = 'image/svg+xml';
    icon.href = 'favicon.svg';
    document.head.appendChild(icon);
  });

  // 2. after it
  window.dtxFirstScreenAfterMap = afterMap;
  function afterMap() {
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
    function show() { if (!closed) html.classList.remove('fs-off'); }

    // ---- the closed chapters' rows
    // scripts/first-screen.mjs writes every chapter's rows but the first's inside <noscript
    // class="fs-rows">: with JavaScript on, each is one text node until made into elements here
    // (expand): a chapter that must show (the last exercise's, the one the address names, one the
    // student opens) at once, every other one after the first paint. Until then a chapter's
    // exercise ids are read off its text (for the counts and the marks).
    const pending = new Map();  // chapter element -> its <noscript>
    const pendingIds = new Map();  // exercise id -> its chapter, for rows not made yet
    const pendingSize = new Map();  // chapter element -> how many rows it holds
    const unesc = (t) => t.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
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
        markRow(li);
      }
      ns.replaceWith(t.content);
    }
    // An exercise's row, its chapter's made into elements first if need be.
    function row(id) {
      if (!madeRow(id) && pendingIds.has(id)) expand(pendingIds.get(id));
      return madeRow(id);
    }
    const titleOf = (id) => { const li = row(id); return li ? li.querySelector('a').textContent : null; };

    // ---- progress
    // The markup is written as for a student with no record (scripts/first-screen.mjs: ○, "not
    // tried", 0/N solved): only the rows of exercises the record holds are touched. Setting
    // every row (295) costs about 7 ms of the main thread before a second visit's first paint.
    let exs = {};  // the record's exercises
    const num = (v) => (typeof v === 'number' && isFinite(v) ? v : 0);
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
    function mark() {
      let rec = null;
      try { rec = JSON.parse(get('dtx.progress') || 'null'); } catch (e) { rec = null; }
      exs = rec && typeof rec === 'object' && rec.exercises && typeof rec.exercises === 'object' && !Array.isArray(rec.exercises)
        ? rec.exercises : {};
      let solved = 0, attempted = 0, changed = false;
      const chSolved = new Map();  // chapter element -> solved in it
      for (const id of Object.keys(exs)) {
        const e = entry(id);
        const li = e && madeRow(id);
        const ch = li ? li.closest('.fs-chapter') : e && pendingIds.get(id);
        if (!ch) continue;  // (an exercise no pack has any more)
        changed = true;
        if (!chSolved.has(ch)) chSolved.set(ch, 0);
        if (num(e.solved_at) > 0) { solved++; chSolved.set(ch, chSolved.get(ch) + 1); }
        if (Math.floor(num(e.attempts)) > 0) attempted++;
        if (li) markRow(li);
      }
      for (const [ch, n] of chSolved) {
        const size = pending.has(ch) ? pendingSize.get(ch) : ch.querySelectorAll('li[data-ex]').length;
        ch.querySelector('.fs-count').textContent = `${n}/${size} solved`;
      }
      const stats = document.getElementById('fs-stats');
      if (stats && changed) stats.textContent = `Solved ${solved} of ${stats.getAttribute('data-total')} · attempted ${attempted}`;
      const last = rec && typeof rec.last_exercise === 'string' ? rec.last_exercise : '';
      const lastRow = last ? row(last) : null;
      if (lastRow) {
        lastRow.classList.add('fs-last');
        const lastChapter = lastRow.closest('.fs-chapter');
        for (const ch of root.querySelectorAll('.fs-chapter')) ch.open = ch === lastChapter;
        const c = document.getElementById('fs-continue');
        const a = c.querySelector('a');
        a.href = '#/ex/' + encodeURIComponent(last);
        a.textContent = 'Continue where you left off: ' + titleOf(last);
        c.hidden = false;
      }
    }

    // #/chapter/N: that chapter open, at the top.
    function toChapter(hash) {
      const m = /^#\/chapter\/(\d+)/.exec(hash);
      const ch = m && document.getElementById('fs-chapter-' + Number(m[1]));
      if (!ch) return;
      expand(ch);
      ch.open = true;
      ch.scrollIntoView({ block: 'start' });
    }

    function follow() {
      if (fx.el) fx.close();  // another address: the loading line, then the engine
      if (closed) return;
      if (onMap(location.hash)) { show(); toChapter(location.hash); return; }
      const ex = /^#\/ex\/([^/?]+)/.exec(location.hash);
      let id = '';
      try { id = ex ? decodeURIComponent(ex[1]) : ''; } catch (e) { id = ''; }
      const title = id && root ? titleOf(id) : null;
      hide(title ? `Opening “${title}”…` : 'Loading dtx…');
    }

    if (root) {
      const status = document.getElementById('fs-status');
      if (status) status.hidden = false;
      mark();
      if (onMap(location.hash)) toChapter(location.hash);
      else html.classList.add('fs-off');  // (part 1 has, unless the address changed since)
      // a chapter the student opens (its summary) before its rows were made
      root.addEventListener('toggle', (e) => { if (e.target.open) expand(e.target); }, true);
      firstPaint.then(() => { if (!closed) for (const ch of [...pending.keys()]) expand(ch); });
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
})();
