// The course map in HTML (scripts/first-screen.mjs, web/shell/first-screen/): what the page
// shows from its first paint until the engine's first frame.
// - it lists every exercise of the outline as a link to its address, with the stored progress
//   marked as the engine's map marks it, in the theme chosen in Settings;
// - a link followed before the engine runs opens that exercise once it does;
// - an address other than the map never shows it; the engine's first frame removes it;
// - without JavaScript it is a readable outline of the course;
// - a link to an exercise shows that exercise in HTML (scripts/first-views.mjs) with the
//   engine's own text, never its answer, until the engine draws it.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, waitFor, shot, typeModules, waitForLayer } from './lib.mjs';

// A record as the engine writes it (engine/progress.cpp write_progress): ring.volume solved in
// two tries, ring.latency tried once, the last exercise ring.latency (chapter 0).
const PROGRESS = {
  format: 'dtx-progress', version: 2,
  exercises: {
    'ring.volume': { attempts: 2, by_writer: { '1700000000-aaaa': 2 }, best: 1, solved_at: 1700000100, last_at: 1700000100 },
    'ring.latency': { attempts: 1, by_writer: { '1700000000-aaaa': 1 }, best: 0.5, solved_at: 0, last_at: 1700000200 },
    'zero.stages': { attempts: 3, by_writer: { '1700000000-aaaa': 3 }, best: 1, solved_at: 1700000050, last_at: 1700000050 },
  },
  streak: { current: 0, best: 1, last_day: '2020-01-01' },
  last_exercise: 'ring.latency', last_exercise_at: 1700000200,
};

// Holds dtx.wasm until release(): the page stays on what it shows before the engine runs.
async function holdEngine(page) {
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route('**/dtx.wasm', async (route) => { await gate; await route.continue(); });
  return release;
}

// Holds one pack until release(): the engine runs, a link to one of its exercises waits.
async function holdPack(page, file) {
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route('**/exercises/' + file, async (route) => { await gate; await route.continue(); });
  return release;
}

// What the HTML map shows: visible or not, its rows (id, mark, type label), chapter counts.
function readFirstScreen(page) {
  return page.evaluate(() => {
    const root = document.getElementById('first-screen');
    if (!root) return null;
    const visible = getComputedStyle(root).display !== 'none';
    const rows = [...root.querySelectorAll('li[data-ex]')].map((li) => ({
      id: li.getAttribute('data-ex'), mark: li.querySelector('.fs-mark').textContent,
      href: li.querySelector('a').getAttribute('href'), title: li.querySelector('a').textContent,
      right: li.querySelector('.fs-type').textContent,
    }));
    const chapters = [...root.querySelectorAll('.fs-chapter')].map((d) => ({
      chapter: Number(d.dataset.chapter), open: d.open, count: d.querySelector('.fs-count').textContent }));
    return { visible, rows, chapters, stats: document.getElementById('fs-stats').textContent,
      continueText: document.getElementById('fs-continue').hidden ? null : document.getElementById('fs-continue').textContent,
      theme: document.documentElement.getAttribute('data-theme'), background: getComputedStyle(root).backgroundColor,
      loadingShown: getComputedStyle(document.getElementById('loading')).display !== 'none' };
  });
}

// The linked exercise in HTML (first-screen.js, exercises/first/ID.html), or null.
function readFirstView(page) {
  return page.evaluate(() => {
    const el = document.getElementById('first-exercise');
    if (!el) return null;
    const main = el.querySelector('main');
    return { id: main && main.getAttribute('data-ex'), title: el.querySelector('h1').textContent,
      prompt: el.querySelector('.fx-prompt').innerText, answer: el.querySelector('.fx-answer').innerText,
      visible: getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0,
      loadingShown: getComputedStyle(document.getElementById('loading')).display !== 'none',
      background: getComputedStyle(el).backgroundColor };
  });
}

// Markdown as the CLI prints it (maths plain) -> the words a reader sees: no emphasis marks,
// no list markers, one space between words.
const words = (s) => s.replace(/\*\*|`/g, '').replace(/^\s*(\d+\.|[-*])\s+/gm, '').replace(/\s+/g, ' ').trim();
const dtxShow = (...args) => JSON.parse(execFileSync(path.join(ROOT, 'build/native/dtx'), ['show', ...args, '--json'], { encoding: 'utf8', cwd: ROOT }));
const dtxShown = (id) => execFileSync(path.join(ROOT, 'build/native/dtx'), ['show', id], { encoding: 'utf8', cwd: ROOT });

export default function register({ test, newPage, assert, eq, server, dist, axeAudit }) {
  const outline = () => JSON.parse(fs.readFileSync(path.join(dist, 'exercises/outline.json'), 'utf8'));

  test('first screen: the course map in HTML before the engine runs, with progress, theme and working links; axe finds nothing serious', async () => {
    // (bypassCSP: axe is injected with eval; the other test's pages run under the policy)
    const page = await newPage({ bypassCSP: true });
    const release = await holdEngine(page);
    await page.addInitScript((p) => {
      if (sessionStorage.getItem('seeded')) return;  // once: the engine writes the record after
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('dtx.progress', p);
      localStorage.setItem('dtx.theme', 'dark');
    }, JSON.stringify(PROGRESS));
    await page.goto(server().url);
    await page.waitForSelector('#first-screen li[data-ex]');
    // The closed chapters' rows come as <noscript> text (nothing to lay out before the first
    // paint) and are elements after it, marked like the others.
    const served = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    eq((served.match(/<noscript class="fs-rows">/g) || []).length, outline().packs.filter((p) => !p.error).length - 1, 'chapters whose rows the page holds as <noscript>');
    await page.waitForFunction(() => !document.querySelector('#first-screen .fs-chapter > noscript'), null, { timeout: 10000 });
    const fs0 = await readFirstScreen(page);
    assert(fs0 && fs0.visible, 'the HTML map is not shown on #/');
    assert(!fs0.loadingShown, 'the loading line shows over the HTML map');
    // every exercise of the outline, in the engine's chapter order, each a link to its address
    const o = outline();
    const want = o.packs.slice().sort((a, b) => a.chapter - b.chapter).flatMap((p) => p.exercises.map((e) => e.id));
    eq(fs0.rows.map((r) => r.id).join(' '), want.join(' '), 'rows of the HTML map against the outline');
    assert(fs0.rows.every((r) => r.href === '#/ex/' + encodeURIComponent(r.id).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())),
      'a row links elsewhere than its exercise: ' + JSON.stringify(fs0.rows.find((r) => !r.href.startsWith('#/ex/'))));
    const row = (id) => fs0.rows.find((r) => r.id === id);
    eq(row('ring.volume').mark, '✓', 'ring.volume (solved)');
    eq(row('ring.latency').mark, '●', 'ring.latency (tried)');
    eq(row('ring.crossover').mark, '○', 'ring.crossover (not tried)');
    eq(row('ring.volume').right, `${o.verbs.numeric} · 2 tries`, 'ring.volume type and tries');
    eq(row('ring.latency').right, `${o.verbs.numeric} · 1 try`, 'ring.latency type and tries');
    // a row of a chapter made after the first paint
    const zeroChapter = o.packs.find((p) => p.exercises.some((e) => e.id === 'zero.stages'));
    assert(zeroChapter && zeroChapter.chapter !== 0, 'zero.stages should be outside chapter 0');
    eq(row('zero.stages').mark, '✓', 'zero.stages (solved, in a closed chapter)');
    assert(/ · 3 tries$/.test(row('zero.stages').right), 'zero.stages tries: ' + row('zero.stages').right);
    eq(fs0.chapters.find((c) => c.chapter === zeroChapter.chapter).count, `1/${zeroChapter.exercises.length} solved`, 'the count of zero.stages\'s chapter');
    const total = want.length;
    eq(fs0.stats, `Solved 2 of ${total} · attempted 3`, 'totals');
    const ch0 = fs0.chapters.find((c) => c.chapter === 0);
    eq(ch0.count, `1/${o.packs.find((p) => p.chapter === 0).exercises.length} solved`, 'chapter 0 count');
    assert(ch0.open && fs0.chapters.filter((c) => c.open).length === 1, 'the last exercise\'s chapter alone is open: ' + JSON.stringify(fs0.chapters));
    assert(/Continue where you left off: Latency term/.test(fs0.continueText || ''), 'continue link: ' + fs0.continueText);
    eq(fs0.theme, 'dark', 'theme from Settings');
    // the site's icon, named after the first paint (a <noscript> in index.html otherwise)
    eq(await page.evaluate(() => [...document.querySelectorAll('head > link[rel="icon"]')].map((l) => l.getAttribute('href') + ' ' + l.type).join()),
      'favicon.svg image/svg+xml', 'the icon the page names');
    eq(fs0.background, 'rgb(21, 24, 29)', 'dark page colour');
    await shot(page, 'first-screen-dark');
    await axeAudit(page, 'the HTML map (dark)');

    // The keyboard reaches the links: Tab from the top lands on one, then on the next.
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.closest('#first-screen') ? document.activeElement.textContent : null);
    assert(focused, 'Tab did not reach the HTML map');

    // A link followed before the engine runs: the loading line names it, and the engine,
    // once in, opens that exercise (a chapter the HTML map opened: chapter 1's first).
    const target = o.packs.find((p) => p.chapter === 1).exercises[0];
    await page.click('#fs-chapter-1 summary');
    await page.click(`#first-screen li[data-ex="${target.id}"] a`);
    // (the hashchange event is a task of its own, after the click's)
    await page.waitForFunction(() => getComputedStyle(document.getElementById('loading')).display !== 'none', null, { timeout: 3000 }).catch(() => {});
    const hidden = await readFirstScreen(page);
    assert(hidden && !hidden.visible && hidden.loadingShown, 'after a link: the HTML map should give way to the loading line');
    const what = await page.textContent('#loading-what');
    assert(what.includes(target.title), 'the loading line should name the exercise: ' + what);
    release();
    await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(target.id)}`, 30000);
    eq(await page.evaluate(() => !!document.getElementById('first-screen')), false, 'the HTML map is removed once the engine draws');
    // The text layer's faces are made from the engine's font files: each file comes once.
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      const names = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/fonts\//.test(n));
      return { names, sans: [...document.fonts].filter((f) => f.family === 'dtx-sans' && f.status === 'loaded').length,
        mono: [...document.fonts].filter((f) => f.family === 'dtx-mono' && f.status === 'loaded').length };
    });
    eq(fonts.names.length, new Set(fonts.names).size, 'font files fetched more than once: ' + fonts.names.join(' '));
    assert(fonts.sans === 3 && fonts.mono === 1, 'the text layer\'s faces: ' + JSON.stringify(fonts));
    // Back: the engine's map, which agrees with what the HTML map said.
    await page.goBack();
    await waitFor(page, "s.screen === 'course' && s.items.some((i) => i.id === 'chapter-0')", 20000);
    await waitForLayer(page, `t.includes('Solved 2 of ${total}')`, 'the engine\'s map').catch(() => {});  // (the assert says what differs)
    const layerText = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
    assert(layerText.includes(`Solved 2 of ${total}`) && layerText.includes('attempted 3'), 'the engine\'s totals differ from the HTML map\'s: ' + layerText.slice(0, 300));
    await page.context().close();
  }, { worker: 'holds the engine back with page.route, which never sees what the service worker answers' });

  test('first screen: a link to an exercise shows it in HTML, in the engine\'s words and never with its answer, until the engine draws it', async () => {
    // (bypassCSP: axe is injected with eval)
    const page = await newPage({ bypassCSP: true });
    const release = await holdEngine(page);
    await page.goto(server().url + '#/ex/ring.volume');
    await page.waitForSelector('#first-exercise h1');
    let v = await readFirstView(page);
    const shown = dtxShow('ring.volume');
    eq(v.id, 'ring.volume', 'the exercise shown');
    eq(v.title, shown.title, 'its title');
    eq(v.prompt.replace(/\s+/g, ' ').trim(), words(dtxShown('ring.volume').split('\n').slice(2).join('\n').split('\n\n  [')[0]),
      'its prompt, the words `dtx show` prints (maths as text: 10⁹)');
    for (const p of shown.parts) assert(v.answer.includes(p.label) && v.answer.includes(p.unit), `its answer line "${p.label}" (${p.unit}): ${v.answer}`);
    assert(v.visible && !v.loadingShown, 'shown, over the loading line: ' + JSON.stringify(v));
    assert(!(await readFirstScreen(page)).visible, 'the HTML map stays hidden');
    eq(v.background, 'rgb(247, 248, 250)', 'the page colour (light)');
    await shot(page, 'first-view-numeric');
    await axeAudit(page, 'a linked exercise in HTML');
    // the engine's first frame takes over: one exercise on the page, never two
    release();
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'", 30000);
    await page.waitForFunction(() => !document.getElementById('first-exercise') && !document.documentElement.classList.contains('fx-on'), null, { timeout: 5000 });
    await page.context().close();

    // a choice in the dark: the options as the engine words them, none marked
    const p2 = await newPage({ colorScheme: 'dark' });
    const release2 = await holdEngine(p2);
    await p2.goto(server().url + '#/ex/quiz.plan-70b');
    await p2.waitForSelector('#first-exercise h1');
    v = await readFirstView(p2);
    const choice = dtxShow('quiz.plan-70b');
    eq(v.title, choice.title, 'the choice\'s title');
    for (const o of choice.options) assert(v.answer.includes(o.text), 'option missing: ' + o.text);
    assert(/Select every option that applies\./.test(v.answer), 'the engine\'s instruction: ' + v.answer);
    eq(v.background, 'rgb(21, 24, 29)', 'the page colour (dark)');
    await shot(p2, 'first-view-choice-dark');
    release2();
    await p2.context().close();

    // the numbers of another instance (#/ex/ID/SEED) are not the default's: the loading line
    const p3 = await newPage();
    const release3 = await holdEngine(p3);
    await p3.goto(server().url + '#/ex/ring.volume/3');
    await p3.waitForSelector('#loading');
    await p3.evaluate(() => fetch('exercises/first/ring.volume.html'));  // (a request's time: the page's own would be in)
    eq(await readFirstView(p3), null, 'a first view for a seeded link');
    release3();
    await p3.context().close();

    // the address changes before the engine runs: the first view goes
    const p4 = await newPage();
    const release4 = await holdEngine(p4);
    await p4.goto(server().url + '#/ex/ring.volume');
    await p4.waitForSelector('#first-exercise h1');
    await p4.evaluate(() => { location.hash = '#/'; });
    await p4.waitForFunction(() => !document.getElementById('first-exercise'), null, { timeout: 5000 });
    assert((await readFirstScreen(p4)).visible, 'the HTML map after going back to it');
    release4();
    await p4.context().close();

    // never the answer: no first view holds a code exercise's reference solution (its longest
    // line that is not in the starter code)
    const files = fs.readdirSync(path.join(dist, 'exercises/first')).filter((f) => f.endsWith('.html'));
    eq(files.length, outline().packs.reduce((n, p) => n + (p.exercises ? p.exercises.length : 0), 0), 'a first view per exercise of the outline');
    let codeChecked = 0;
    for (const p of outline().packs) for (const e of p.exercises || []) {
      if (e.type !== 'code') continue;
      const a = dtxShow(e.id, '--answer');
      const line = a.reference.split('\n').map((l) => l.trim()).filter((l) => l && !a.starter.includes(l)).sort((x, y) => y.length - x.length)[0];
      const html = fs.readFileSync(path.join(dist, 'exercises/first', e.id + '.html'), 'utf8');
      const escaped = line.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
      assert(!html.includes(line) && !html.includes(escaped), `${e.id}: its first view holds the reference's line ${line}`);
      codeChecked++;
    }
    assert(codeChecked >= 10, `only ${codeChecked} code exercises checked`);
  }, { worker: 'holds the engine back with page.route, which never sees what the service worker answers' });

  test('first screen: an answer entered on a linked exercise\'s HTML view, of each type, carries over to the engine and its Submit is graded', async () => {
    // one exercise of each type, answered with the engine's own right answer (dtx show --answer)
    // one exercise of each type (types/<type>/e2e.mjs, firstView), answered with the engine's
    // own right answer (dtx show --answer)
    const types = await typeModules();
    const missing = types.filter((t) => !t.module.firstView).map((t) => t.type);
    assert(!missing.length, `types with no firstView in their e2e.mjs: ${missing.join(', ')}`);
    const fillers = types.map((t) => t.module.firstView);
    for (const { id, fill } of fillers) {
      const a = dtxShow(id, '--answer');
      const page = await newPage({ bypassCSP: true });  // (axe is injected with eval)
      // ring.volume: its pack held instead, so the engine runs (GLFW listens to the keys) while
      // the HTML view is still what the student uses
      const release = id === 'ring.volume' ? await holdPack(page, '00-ring-allreduce.json') : await holdEngine(page);
      await page.goto(server().url + '#/ex/' + id);
      await page.waitForSelector('#first-exercise form.fx-answer');
      // (main() has run: GLFW's listeners are in)
      if (id === 'ring.volume') await page.waitForFunction(() => performance.getEntriesByName('dtx:engine-running').length > 0, null, { timeout: 20000 });
      const form = '#first-exercise form.fx-answer';
      await axeAudit(page, `${id} (${a.type}) in HTML`);
      await fill(page, form, { ...a, id }, { eq });
      await page.click(form + ' .fx-submit');
      assert(/checked as soon as the grader is in/.test(await page.textContent('#fx-status')), id + ': the status line after Submit');
      release();
      const st = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && s.verdict`, 30000);
      eq(st.verdict, 'correct', `${id}: the answer entered in HTML, graded by the engine (${st.message || ''})`);
      await page.waitForFunction(() => !document.getElementById('first-exercise'), null, { timeout: 5000 });
      if (id === 'ring.volume') await shot(page, 'first-view-answer-carried');
      await page.context().close();
    }

    // entered without Submit: in the engine's fields, not graded
    const page = await newPage();
    const release = await holdEngine(page);
    await page.goto(server().url + '#/ex/ring.volume');
    await page.waitForSelector('#first-exercise input[data-part]');
    await page.type('#fx-part-0', '0.5 GB');
    release();
    const st = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume' && s.inputs && s.inputs[0] === '0.5 GB'", 30000);
    assert(!st.verdict, 'graded without Submit: ' + st.verdict);
    await page.context().close();
  }, { worker: 'holds the engine back with page.route, which never sees what the service worker answers' });

  test('first screen: other addresses keep the loading line; without JavaScript the outline reads as a page', async () => {
    // a deep link: never the map, not even for a frame the test can see
    const page = await newPage();
    const release = await holdEngine(page);
    await page.goto(server().url + '#/ex/ring.volume');
    await page.waitForSelector('#loading', { state: 'attached' });
    let f = await readFirstScreen(page);
    // (the loading line, or the exercise itself in HTML: the test "a link to an exercise")
    assert(f && !f.visible && (f.loadingShown || await readFirstView(page)), 'a deep link showed the HTML map: ' + JSON.stringify(f && { visible: f.visible, loading: f.loadingShown }));
    // nor in a frame before that: no link of the map was ever painted (Element Timing; the map
    // is hidden before its markup is parsed, the top of first-screen.js)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const painted = await page.evaluate(() => new Promise((resolve) => {
      const seen = [];
      const o = new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.identifier === 'dtx-map') seen.push(e); });
      o.observe({ type: 'element', buffered: true });
      setTimeout(() => { o.disconnect(); resolve(seen.length); }, 100);
    }));
    eq(painted, 0, 'links of the HTML map painted on a deep link');
    release();
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'", 30000);
    await page.context().close();

    // #/chapter/N: the map, that chapter open
    const p2 = await newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    const release2 = await holdEngine(p2);
    await p2.goto(server().url + '#/chapter/5');
    await p2.waitForSelector('#first-screen li[data-ex]');
    f = await readFirstScreen(p2);
    assert(f.visible && f.chapters.find((c) => c.chapter === 5).open, 'chapter 5 open on #/chapter/5');
    // its rows made at once (they were <noscript> text in the page)
    const ch5 = outline().packs.find((p) => p.chapter === 5).exercises.map((e) => e.id);
    assert(ch5.every((id) => f.rows.some((r) => r.id === id)) && await p2.isVisible(`#first-screen li[data-ex="${ch5[0]}"] a`), 'chapter 5\'s rows on #/chapter/5');
    eq(f.background, 'rgb(21, 24, 29)', 'dark page colour from the system');
    const inView = await p2.evaluate(() => {
      // below the top bar, which stays
      const r = document.querySelector('#fs-chapter-5 summary').getBoundingClientRect();
      const bar = document.querySelector('.fs-top').getBoundingClientRect();
      return r.top >= bar.bottom - 1 && r.bottom <= innerHeight;
    });
    assert(inView, 'chapter 5 is not scrolled into view');
    // no sideways scrolling on a phone
    const wide = await p2.evaluate(() => document.getElementById('first-screen').scrollWidth - innerWidth);
    assert(wide <= 0, `the HTML map is ${wide} px wider than the phone's screen`);
    await shot(p2, 'first-screen-phone-dark');
    release2();
    await waitFor(p2, "s.screen === 'course'", 30000);
    await p2.context().close();

    // the light theme, for axe and a look
    const p4 = await newPage({ bypassCSP: true });
    const release4 = await holdEngine(p4);
    await p4.goto(server().url);
    await p4.waitForSelector('#first-screen li[data-ex]');
    eq((await readFirstScreen(p4)).background, 'rgb(247, 248, 250)', 'light page colour');
    await shot(p4, 'first-screen-light');
    await axeAudit(p4, 'the HTML map (light)');
    release4();
    await p4.context().close();

    // the engine cannot be loaded: its error shows over the HTML map, not behind it
    const p5 = await newPage();
    await p5.route('**/dtx.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    p5.errors.length = 0;
    await p5.goto(server().url);
    await p5.waitForSelector('#loading.error');
    const top = await p5.evaluate(() => {
      const el = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
      return el && el.closest('#loading') ? document.getElementById('loading').textContent : null;
    });
    assert(top && /could not load its engine/.test(top), 'the engine\'s error is not on top of the HTML map: ' + top);
    p5.errors = p5.errors.filter((e) => !/dtx\.wasm/.test(e));  // the 404 itself is the point
    await p5.context().close();

    // no JavaScript: the outline, readable, no loading line
    const p3 = await newPage({ javaScriptEnabled: false });
    await p3.goto(server().url);
    f = await readFirstScreen(p3);
    assert(f && f.visible && !f.loadingShown, 'without JavaScript the HTML map should show, and no loading line');
    const said = await p3.evaluate(() => {
      const visible = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      return { status: visible(document.getElementById('fs-status')), needs: visible(document.querySelector('#first-screen .fs-error')) };
    });
    assert(!said.status && said.needs, 'without JavaScript: no "loading" line, and the need for JavaScript said on the map: ' + JSON.stringify(said));
    eq(f.rows.length, outline().packs.reduce((n, p) => n + p.exercises.length, 0), 'rows without JavaScript');
    eq(await p3.evaluate(() => [...document.querySelectorAll('link[rel="icon"]')].map((l) => l.getAttribute('href')).join()), 'favicon.svg', 'the icon without JavaScript');
    await p3.context().close();
  }, { worker: 'holds the engine back with page.route, which never sees what the service worker answers' });
}
