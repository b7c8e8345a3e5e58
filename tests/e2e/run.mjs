// Browser end-to-end tests: the built site (dist/) in headless Chromium (SwiftShader WebGL),
// driven through the real mouse, touch and keyboard. Screenshots go to build/e2e/.
//
//   node tests/e2e/run.mjs [DIST_DIR] [--only NAME] [--shard K/N] [--record-durations]
// --shard K/N runs the Kth of N shards of about equal length (by tests/e2e/durations.json,
// which --record-durations rewrites from this run's times), so ctest can run the suite as N
// entries side by side (each with its own server and browser).
// --returning runs every test as a returning student: each page's browser profile holds a
// progress record (an exercise of every type tried) and a setting, and the site's service
// worker, installed by a visit before the test's own, serves the test's pages. A test whose
// subject is a first visit says so (test(name, fn, { fresh: 'why' })) and runs once, fresh;
// one that holds or replaces the site's files with page.route (which never sees what the
// worker answers from its copies) gets the record without the worker ({ worker: 'why' }).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, launch, launchProfile, TEST_ARGS, serve, engineAnswer, state, waitFor, ready, click, tap, press, typeInto, openExercise, submit, shot, setSlider, findItem, layerText, waitForLayer, touchPath, tabUntil, replaceCodeByKeys, axTree, axUntil, axFocused, tabToAx, typeModules } from './lib.mjs';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { limitPack, hostilePacks, longPromptPack } from './limit-packs.mjs';
import { minifyInline } from '../../scripts/minify-inline.mjs';
import { bundles } from '../../scripts/build-glue.mjs';

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const shard = argv.includes('--shard') ? argv[argv.indexOf('--shard') + 1].split('/').map(Number) : [1, 1];
const returning = argv.includes('--returning');
const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--only' && argv[i - 1] !== '--shard');
const dist = path.resolve(positional[0] || path.join(ROOT, 'dist'));
fs.mkdirSync(path.join(ROOT, 'build/e2e'), { recursive: true });

const tests = [];
const test = (name, fn, opts = {}) => tests.push({ name, fn, ...opts });
let current = null;  // the test running (newPage reads how it runs as a returning student)
function assert(cond, msg) { if (!cond) throw new Error(msg); }
function eq(a, b, msg) { if (a !== b) throw new Error(`${msg}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`); }
function near(a, b, tol, msg) { if (!(Math.abs(a - b) <= tol)) throw new Error(`${msg}: expected ${b} ± ${tol}, got ${a}`); }

let server, browser;
let pagesOfTest = [];  // every page a test opened: the runner checks their CSP violations

// A returning student's record, as the engine writes it: an exercise of every type tried once,
// none of those the tests solve (the last of each type in the outline).
function returningRecord() {
  const outline = JSON.parse(fs.readFileSync(path.join(dist, 'exercises/outline.json'), 'utf8'));
  const byType = new Map();
  for (const p of outline.packs) for (const e of p.exercises || []) byType.set(e.type, e.id);
  const exercises = {};
  let t = 1700000000;
  for (const id of byType.values()) exercises[id] = { attempts: 1, by_writer: { '1700000000-back': 1 }, best: 0.5, solved_at: 0, last_at: ++t };
  return JSON.stringify({ format: 'dtx-progress', version: 2, exercises, streak: { current: 0, best: 1, last_day: '2020-01-01' } });
}

// The site's service worker installed in `context` by a visit to the test server, as after a
// student's earlier visit: it controls the next page and holds this build.
async function installWorker(context) {
  const p = await context.newPage();
  await p.goto(server.url);
  const deadline = Date.now() + 60000;
  while (!(await p.evaluate(async () => {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller || !window.dtx) return false;
    const hit = await (await caches.open('dtx-meta')).match('__dtx/current');
    return !!hit && (await hit.text()) === window.dtx.version;
  }).catch(() => false))) {
    if (Date.now() > deadline) throw new Error('returning student: the service worker did not install within 60 s');
    await p.waitForTimeout(100);
  }
  await p.close();
}

// A returning student's browser profile, made once per run: one visit installed the service
// worker and stored the record; each page of a test gets a copy of the folder.
let returningProfileDir = null;
const profileDirs = [];
async function returningProfile() {
  if (returningProfileDir) return returningProfileDir;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-e2e-returning-'));
  const context = await launchProfile(dir, TEST_ARGS, { viewport: { width: 1280, height: 900 }, serviceWorkers: 'allow' });
  await context.addInitScript(seedReturning, returningRecord());
  await installWorker(context);
  await context.close();
  return (returningProfileDir = dir);
}
function seedReturning(record) {
  try {
    if (localStorage.getItem('e2e.returning')) return;
    localStorage.setItem('e2e.returning', '1');
    if (!localStorage.getItem('dtx.progress')) localStorage.setItem('dtx.progress', record);
    if (!localStorage.getItem('dtx.theme')) localStorage.setItem('dtx.theme', 'system');
  } catch (e) { /* a page without storage */ }
}

async function newPage(opts = {}) {
  // No service worker unless a test asks for one (tests/e2e/offline.mjs), or the run is for a
  // returning student: a page it controls is served from its copies, past page.route() and a
  // test's changed files.
  const back = returning && current && !current.fresh;
  const worker = back && !current.worker && opts.serviceWorkers !== 'block';
  let context;
  if (worker) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-e2e-profile-'));
    fs.cpSync(await returningProfile(), dir, { recursive: true });
    context = await launchProfile(dir, TEST_ARGS, { viewport: { width: 1280, height: 900 }, ...opts, serviceWorkers: 'allow' });
    profileDirs.push(dir);  // removed when the run ends (the browser may still be writing as it closes)
  } else {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts, serviceWorkers: opts.serviceWorkers === 'allow' ? 'allow' : 'block' });
  }
  if (back) {
    // Once per origin (a test's own server too): the record and a setting, unless the test
    // stored its own first.
    await context.addInitScript(seedReturning, returningRecord());
  }
  const page = context.pages()[0] || await context.newPage();
  page.errors = [];
  // Whatever the Content-Security-Policy (index.html, scripts/serve.mjs) refuses is a page
  // error, and the runner fails a test whose pages saw any, so every test is also a test that
  // the page runs under the policy. A test that provokes violations on purpose sets
  // page.cspExpected and checks page.csp itself.
  page.csp = [];
  pagesOfTest.push(page);
  await page.exposeFunction('__dtxCspViolation', (v) => { page.csp.push(v); page.errors.push('CSP violation: ' + v.text); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.__dtxCspViolation({
      directive: e.effectiveDirective, blocked: e.blockedURI,
      // which policy: the header carries frame-ancestors, the <meta> cannot
      form: e.originalPolicy.includes('frame-ancestors') ? 'header' : 'meta',
      text: `${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} (${e.sourceFile || 'page'}:${e.lineNumber})`,
    }));
  });
  page.on('pageerror', (e) => page.errors.push(e.message));
  // Failed loads are reported by URL (below); the site's icon is one of its files like any other.
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) page.errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) page.errors.push(`HTTP ${r.status()} ${r.url()}`); });
  return page;
}

// ---------------------------------------------------------------- the tests

test('course map loads every pack', async () => {
  const page = await newPage();
  await page.goto(server.url);
  const s = await ready(page);
  const index = JSON.parse(fs.readFileSync(path.join(dist, 'exercises/index.json'), 'utf8'));
  eq(s.problems.length, 0, 'pack problems: ' + JSON.stringify(s.problems));
  eq(s.packs, index.packs.length, 'packs loaded');
  assert(s.items.some((i) => i.id === 'ex-ring.volume'), 'chapter 0 exercises listed');
  eq(s.id_clashes.length, 0, 'ID clashes');
  await shot(page, 'course-map');
  await page.context().close();
});


// Maths in a prompt (issue 13, point 5): fractions and powers drawn built up, at a desktop
// width and then at a phone's 390 px on the same page. The screenshots are for looking at.
test('maths in a prompt, desktop and phone, light and dark', async () => {
  const page = await newPage();
  await page.goto(server.url.replace(/#.*$/, '') + '#/ex/zero.stage3-traffic');
  let s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'zero.stage3-traffic' && !s.busy", 20000);
  eq(s.id_clashes.length, 0, 'ID clashes');
  const top = async () => {  // the prompt, at the top of the page
    await page.mouse.move(600, 400);
    await page.mouse.wheel(0, -5000);
    const g = (await state(page)).frame;
    await waitFor(page, `s.frame > ${g} + 2`);
  };
  await top();
  await shot(page, 'maths');
  await page.setViewportSize({ width: 390, height: 844 });
  const f = (await state(page)).frame;
  s = await waitFor(page, `s.frame > ${f} + 2`);
  eq(s.screen, 'exercise', 'still on the exercise at phone width');
  await top();
  await shot(page, 'maths-phone');
  // the dark theme (the system's wish: no setting stored)
  await page.emulateMedia({ colorScheme: 'dark' });
  s = await waitFor(page, 's.theme === \'dark\'');
  await top();
  await shot(page, 'maths-phone-dark');
  await page.context().close();
});






test('worker sandbox: no network, no storage, lines of errors', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  const r = await page.evaluate(() => window.dtxCodeRunner.run({
    function: 'f', cases: [[]], time_limit_ms: 2000,
    source: 'function f() { return [typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof importScripts, typeof indexedDB, typeof caches, typeof document, typeof localStorage].join(","); }',
  }));
  eq(r.student[0].value, 'undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined', 'globals in the worker');
  const rt = await page.evaluate(() => window.dtxCodeRunner.run({ function: 'f', cases: [[1]], source: 'function f(x) {\n  const y = null;\n  return y.z;\n}' }));
  assert(/line 3/.test(rt.student[0].error), 'runtime error line: ' + rt.student[0].error);
  // the memory cap: a 400 MB array is refused inside the interpreter, and the next program
  // gets a fresh one
  const mem = await page.evaluate(() => window.dtxCodeRunner.run({ function: 'f', cases: [[1]], source: 'function f() { return new Float64Array(5e7).length; }' }));
  eq(mem.kind, 'memory', 'memory limit: ' + JSON.stringify(mem));
  const after = await page.evaluate(() => window.dtxCodeRunner.run({ function: 'f', cases: [[2]], source: 'function f(x) { return x * 21; }' }));
  eq(after.student[0].value, 42, 'after the memory limit');
  await page.context().close();
});

test('a broken pack is reported and the others still work; the index, not the outline, decides what loads', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-broken-'));
  fs.cpSync(dist, dir, { recursive: true });
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'exercises/index.json'), 'utf8'));
  // edited after the build: one pack dropped (the outline still lists it), two added (not in it)
  const dropped = '13-llama3-case-study.json';
  assert(fs.readFileSync(path.join(dir, 'exercises/outline.json'), 'utf8').includes(dropped), 'the outline lists every pack');
  index.packs = index.packs.filter((f) => f !== dropped);
  index.packs.push('98-broken.json', '99-missing.json');
  fs.writeFileSync(path.join(dir, 'exercises/index.json'), JSON.stringify(index));
  fs.writeFileSync(path.join(dir, 'exercises/98-broken.json'), '{\n  "format": 1,\n  "chapter": 98,\n  "id": "broken",\n  "title": "Broken",\n  "exercises": [\n    {"id": "b.x", "type": "numeric", "title": "x", "prompt": "p", "parts": [{"id": "a", "answer": "1", "unit": "GB", "tolerence": 0.1}]}\n  ]\n}\n');
  const srv = await serve(dir);
  try {
    const page = await newPage();
    const asked = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto(srv.url);
    const s = await ready(page);
    assert(!asked.some((u) => u.endsWith('exercises/' + dropped)), 'a pack the index no longer lists is never asked for');
    assert(!s.items.some((i) => i.id === 'ex-l3.gpu-hours'), 'the outline entry of a pack the index dropped is not drawn');
    assert(!s.problems.some((p) => p.file === dropped), 'the dropped pack is no problem: ' + JSON.stringify(s.problems));
    const broken = s.problems.find((p) => p.file === '98-broken.json');
    assert(broken, 'broken pack listed: ' + JSON.stringify(s.problems));
    assert(/98-broken\.json:7:\d+: error\[E012\]: .*tolerence/.test(broken.messages.join('\n')), 'file:line:col message: ' + broken.messages);
    assert(s.problems.some((p) => p.file === '99-missing.json' && /404/.test(p.messages[0])), 'missing pack listed');
    eq(s.packs, index.packs.length - 2, 'other packs loaded (the dropped one not)');
    await shot(page, 'broken-pack');
    await openExercise(page, 'ring.volume');
    // an exercise of the dropped pack is not in the course
    await page.evaluate(() => { location.hash = '#/ex/l3.gpu-hours'; });
    await waitFor(page, "s.screen === 'not-found'");
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('a corrupt progress record is kept aside, not erased', async () => {
  const page = await newPage();
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('dtx.progress', '{"format": "dtx-progress", "version": 1, "exercises": {"a": ');
    }
  });
  await page.goto(server.url);
  const s = await ready(page);
  assert(s.notices.some((n) => /kept/.test(n)), 'notice about the kept record: ' + JSON.stringify(s.notices));
  const backups = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dtx.progress.')).sort());
  eq(JSON.stringify(await backups()), '["dtx.progress.unreadable"]', 'one backup key');
  eq(await page.evaluate(() => localStorage.getItem('dtx.progress.unreadable')), '{"format": "dtx-progress", "version": 1, "exercises": {"a": ', 'backup content');
  await shot(page, 'corrupt-progress');
  // loading again with the same record makes no second copy (it used to add one a load)
  await page.reload();
  const again = await ready(page);
  assert(again.notices.some((n) => /kept unchanged/.test(n)), 'notice after the reload: ' + JSON.stringify(again.notices));
  eq(JSON.stringify(await backups()), '["dtx.progress.unreadable"]', 'still one backup key after a reload');
  await page.context().close();
});

test('served from a sub-path', async () => {
  const srv = await serve(dist, '/courses/dtx/');
  try {
    const page = await newPage();
    await page.goto(srv.url);
    const s = await ready(page);
    eq(s.problems.length, 0, 'problems under a sub-path');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('phone: 360 px, HiDPI, touch and the on-screen keyboard path', async () => {
  const page = await newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  await page.goto(server.url);
  let s = await ready(page);
  eq(s.dpr, 2, 'device pixel ratio');
  await shot(page, 'phone-course-map');
  // open an exercise by tapping
  if (!s.items.some((i) => i.id === 'ex-ring.volume')) await tap(page, 'chapter-0');
  await tap(page, 'ex-ring.volume');
  s = await waitFor(page, "s.screen === 'exercise'");
  const ans = engineAnswer('ring.volume');
  // tap a field: the hidden textarea gets the focus (that is what raises a phone keyboard)
  await tap(page, 'part-phase');
  await waitFor(page, 's.text_input === true');
  eq(await page.evaluate(() => document.activeElement && document.activeElement.id), 'dtx-text', 'focused element');
  // text arriving as input events (as from a phone keyboard or IME), then Backspace
  await page.keyboard.insertText(String(ans.parts[0].value) + '9');
  await page.evaluate(() => {
    const ta = document.getElementById('dtx-text');
    ta.dispatchEvent(new InputEvent('input', { inputType: 'deleteContentBackward', bubbles: true }));
  });
  await tap(page, 'part-total');
  await waitFor(page, 's.text_input === true');
  await page.keyboard.insertText(String(ans.parts[1].value));
  await page.evaluate(() => {
    const ta = document.getElementById('dtx-text');
    ta.dispatchEvent(new InputEvent('input', { inputType: 'insertLineBreak', bubbles: true }));  // Enter submits
  });
  s = await waitFor(page, 's.graded >= 1');
  eq(s.verdict, 'correct', 'answer typed through the textarea: ' + JSON.stringify(s.parts));
  await shot(page, 'phone-numeric');
  // a vertical swipe scrolls instead of clicking
  const before = (await state(page)).items.find((i) => i.id === 'submit');
  await page.evaluate(async () => {
    const c = document.getElementById('canvas');
    const touch = (y) => new Touch({ identifier: 1, target: c, clientX: 180, clientY: y });
    c.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(600)], changedTouches: [touch(600)], bubbles: true, cancelable: true }));
    for (let y = 580; y >= 300; y -= 20) {
      c.dispatchEvent(new TouchEvent('touchmove', { touches: [touch(y)], changedTouches: [touch(y)], bubbles: true, cancelable: true }));
      await new Promise((r) => requestAnimationFrame(r));
    }
    c.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(300)], bubbles: true, cancelable: true }));
  });
  const after = await waitFor(page, `(s.items.find(i => i.id === 'submit') || {y: -1e9}).y < ${before ? before.y - 50 : 1e9}`);
  eq(after.screen, 'exercise', 'still on the exercise after the swipe');
  await page.context().close();
});


// Every item of the screen, scrolling down to its end: none cut at a side; with a finger for a
// pointer, every wholly shown one at least 44 CSS px each way, except a word of a sentence that
// is a link or a glossary term (WCAG 2.5.8's inline exception: its size is the text's).
async function checkPhoneScreen(page, where, scroll) {
  const problems = [];
  let last = '';
  for (let step = 0; step < 25; step++) {
    const s = await waitFor(page, 'true');
    for (const i of s.items) {
      if (i.cut) problems.push(`${where}: "${i.id}" is cut at the side (x ${i.x.toFixed(0)}, w ${i.w.toFixed(0)})`);
      const inline = /^(link|term):/.test(i.id);
      if (!i.partial && !inline && (i.w < 44 - 0.5 || i.h < 44 - 0.5)) problems.push(`${where}: "${i.id}" is ${i.w.toFixed(0)} x ${i.h.toFixed(0)} CSS px`);
    }
    const sig = s.items.map((i) => i.id + ':' + Math.round(i.y)).join(',');
    if (!scroll || sig === last) break;
    last = sig;
    const vp = page.viewportSize();
    await page.mouse.move(vp.width / 2, vp.height / 2);
    await page.mouse.wheel(0, vp.height * 0.6);
    await page.waitForTimeout(50);
  }
  return [...new Set(problems)];
}

test('phone: 320, 360 and 430 px: nothing cut at the side, touch targets of 44 CSS px; a swipe over an ordering list scrolls, its grip drags, a long press drags', async () => {
  // the map, one exercise of every type (its keyboard test's), Settings and two Lab widgets
  const exercises = (await typeModules()).map((t) => '#/ex/' + t.module.keyboard.id);
  const screens = ['#/', ...exercises, '#/settings', '#/lab/pipeline', '#/lab/plan'];
  const problems = [];
  let page;
  for (const width of [360, 320, 430]) {
    page = await newPage({ viewport: { width, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    await page.goto(server.url);
    await ready(page);
    for (const hash of screens) {
      await page.evaluate((h) => { location.hash = h; }, hash);
      await waitFor(page, `location.hash === ${JSON.stringify(hash)} && s.screen !== 'loading'` + (hash.startsWith('#/ex/') ? ` && s.exercise === ${JSON.stringify(hash.slice(5))}` : ''));
      // 360 px is walked to the bottom of every screen; 320 and 430 at the top of each
      problems.push(...await checkPhoneScreen(page, `${width} px ${hash}`, width === 360));
    }
    if (width !== 430) await page.context().close();
  }
  assert(problems.length === 0, problems.join('\n'));
  // Ordering, 430 px: a vertical swipe that starts on a row scrolls the page and leaves the order
  await page.evaluate(() => { location.hash = '#/ex/ring.order-steps'; });
  let s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.order-steps'");
  const rowAt = (st, id) => st.items.find((i) => i.id === id);
  const before = s.order.slice();
  let r = rowAt(s, 'order-1');
  assert(r, 'row 2 on screen: ' + s.items.map((i) => i.id));
  const x = r.x + r.w / 2, y0 = r.y + r.h / 2;
  await touchPath(page, [[x, y0], [x, y0 - 15], [x, y0 - 40], [x, y0 - 70], [x, y0 - 100]]);
  s = await waitFor(page, 'true');
  eq(JSON.stringify(s.order), JSON.stringify(before), 'order after a swipe over a row');
  const r2 = rowAt(s, 'order-1');
  assert(r2 && r2.y < r.y - 50, `the page scrolled with the finger (row 2 from y ${r.y.toFixed(0)} to ${r2 ? r2.y.toFixed(0) : 'gone'})`);
  eq(s.grabbed, -1, 'no row picked up by the swipe');
  // the grip: a finger that goes down on row 2's grip and moves up drags row 2 above row 1
  s = await waitFor(page, 'true');
  const g1 = rowAt(s, 'grip-1'), g0 = rowAt(s, 'grip-0');
  assert(g1 && g0 && !g0.partial, 'grips of rows 1 and 2 on screen: ' + s.items.map((i) => i.id + (i.partial ? '(partial)' : '')));
  const gx = g1.x + g1.w / 2, gy = g1.y + g1.h / 2, ty = g0.y + g0.h / 2;
  await touchPath(page, [[gx, gy], ...[1, 2, 3, 4, 5, 6].map((k) => [gx, gy + (ty - 4 - gy) * k / 6])]);
  s = await waitFor(page, `s.order[0] === ${before[1]}`).catch(async (e) => { throw new Error(`grip drag: order ${(await state(page)).order} before ${before}`); });
  eq(s.order[1], before[0], 'the row dragged by its grip swapped with the one above');
  // a long press on row 1's text, then a move down: row 1 goes back below row 2
  const o0 = rowAt(s, 'order-0'), o1 = rowAt(s, 'order-1');
  const lx = o0.x + o0.w / 2, ly = o0.y + o0.h / 2, ly1 = o1.y + o1.h / 2;
  await touchPath(page, [[lx, ly], ...[1, 2, 3, 4, 5, 6].map((k) => [lx, ly + (ly1 + 4 - ly) * k / 6])], 700);
  s = await waitFor(page, `s.order[0] === ${before[0]}`).catch(async (e) => { throw new Error(`long-press drag: order ${(await state(page)).order} before ${before}`); });
  eq(s.order[1], before[1], 'the long-pressed row moved down');
  // a tap on ▼ of row 1 still moves it (the buttons stay)
  await tap(page, 'down-0');
  s = await waitFor(page, `s.order[1] === ${before[0]}`);
  await shot(page, 'phone-ordering-touch');
  await page.context().close();
});

// A chord pressed once counts once, and a field keeps the browser's own shortcuts.
test('keyboard: Ctrl+Enter in a numeric field is one attempt; Ctrl+F and Ctrl+= stay the browser\'s', async () => {
  const page = await newPage();
  await page.goto(server.url + '#/ex/ring.volume');
  await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'", 20000);
  const ans = engineAnswer('ring.volume');
  await typeInto(page, 'part-phase', String(ans.parts[0].value));
  await typeInto(page, 'part-total', String(ans.parts[1].value));
  // whether the page kept each key from the browser (a listener that runs after all of the page's)
  await page.evaluate(() => {
    window.__keys = [];
    window.addEventListener('keydown', (e) => { if (e.key !== 'Control') window.__keys.push([e.key, e.defaultPrevented]); });
  });
  await press(page, 'Control+f');
  await press(page, 'Control+Equal');
  await press(page, 'Control+a');
  const keys = await page.evaluate(() => window.__keys);
  eq(JSON.stringify(keys), JSON.stringify([['f', false], ['=', false], ['a', true]]), 'which shortcuts the field keeps from the browser');
  let s = await waitFor(page, "s.text_input && s.active === 'part-total'");
  const graded = s.graded;
  await press(page, 'Control+Enter');
  s = await waitFor(page, `s.graded > ${graded}`);
  await page.waitForTimeout(300);
  s = await waitFor(page, 'true');
  eq(s.graded, graded + 1, 'submissions for one Ctrl+Enter');
  eq(s.progress.exercises['ring.volume'].attempts, 1, 'attempts counted for one Ctrl+Enter');
  eq(s.verdict, 'correct', 'verdict');
  await page.context().close();
});


test('prefers-reduced-motion: a playing widget moves a whole step at a time; without it, it glides', async () => {
  const sample = async (reducedMotion) => {
    const page = await newPage({ reducedMotion });
    await page.goto(server.url + '#/lab/pipeline?schedule=1f1b&p=4&m=8');
    await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.kind === 'pipeline'", 20000);
    await click(page, 'pipeline-play');
    const seen = [];
    for (let i = 0; i < 40 && seen.length < 25; i++) {
      const s = await waitFor(page, 'true');
      if (s.widget.playing) seen.push(s.widget.pos);
      await page.waitForTimeout(60);
    }
    await page.context().close();
    return seen;
  };
  const still = await sample('reduce');
  assert(still.length >= 10, 'frames sampled while playing (reduced): ' + still.length);
  assert(still.every((p) => Number.isInteger(p)), 'reduced motion: positions between steps drawn: ' + still.join(' '));
  assert(still[still.length - 1] >= still[0] + 1, 'reduced motion still plays: ' + still.join(' '));
  const moving = await sample('no-preference');
  assert(moving.some((p) => !Number.isInteger(p)), 'without reduced motion the widget glides between steps: ' + moving.join(' '));
});

test('keys the page uses do not scroll the browser; idle draws nothing', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  await page.evaluate(() => {
    window.__prevented = [];
    document.addEventListener('keydown', (e) => window.__prevented.push(e.key + ':' + e.defaultPrevented));
  });
  for (const k of ['Space', 'ArrowDown', 'ArrowUp', 'End', 'Home', 'PageDown']) await page.keyboard.press(k);
  const prevented = await page.evaluate(() => window.__prevented);
  assert(prevented.every((p) => p.endsWith(':true')), 'keys not prevented: ' + prevented);
  // (once nothing loads any more: a returning student's packs are still arriving after the
  // first screen, and each one redraws the map)
  await waitFor(page, '!s.busy', 20000);
  await page.mouse.move(5, 5);
  await page.waitForTimeout(500);
  const f0 = (await state(page)).frame;
  // ... and changes no DOM: the text layer is updated only when the drawn text changes.
  await page.evaluate(() => {
    window.__mutations = 0;
    new MutationObserver((l) => { window.__mutations += l.length; })
      .observe(document.getElementById('dtx-layer'), { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.waitForTimeout(2000);
  const f1 = (await state(page)).frame;
  assert(f1 - f0 <= 1, `frames drawn while idle: ${f1 - f0}`);
  eq(await page.evaluate(() => window.__mutations), 0, 'text layer changes while idle');
  // A pointer moving where nothing reacts runs frames but draws none of them again; moving
  // onto a chapter (its row lights up) draws.
  // A page event that lands during the moves (a late pack, the service worker) may draw once
  // by itself: a second round of moves tells it from a move that draws, which draws in both.
  let d1;
  for (let round = 0; round < 2; round++) {
    const d0 = await state(page);
    assert(typeof d0.drawn === 'number', 'the state counts drawn frames');
    for (const x of [6, 7, 8, 7, 6]) {
      await page.mouse.move(x, 5);
      await waitFor(page, `s.frame > ${(await state(page)).frame}`);
    }
    d1 = await state(page);
    assert(d1.frame > d0.frame, 'the pointer moves ran frames');
    if (d1.drawn === d0.drawn) break;
    const log = await page.evaluate(() => window.dtx.inputLog());
    if (round === 1) eq(d1.drawn, d0.drawn, `frames drawn for moves that change nothing, twice (of ${d1.frame - d0.frame} run); input log:\n${log}`);
    console.log(`      round 1 of the pointer moves drew ${d1.drawn - d0.drawn} frame(s); input log:\n${log}`);
  }
  const row = d1.items.find((i) => i.id === 'chapter-0');
  const m0 = await page.evaluate(() => window.__mutations);
  await page.mouse.move(row.x + 20, row.y + row.h / 2);
  const d2 = await waitFor(page, `s.drawn > ${d1.drawn}`);
  assert(d2.drawn > d1.drawn, 'hovering a chapter is drawn');
  // A hover redraws the canvas, not the words.
  eq(await page.evaluate(() => window.__mutations), m0, 'text layer changes for a hover');
  await page.context().close();
});

// ---------------------------------------------------------------- instructors

// A pack with one playable exercise and one that lint rejects (an undeclared name).
const MINE = JSON.stringify({
  format: 1, chapter: 42, id: 'mine', title: 'My course extension',
  exercises: [
    { id: 'mine.good', type: 'numeric', title: 'Ring volume, my way', prompt: 'A ring of {N} GPUs (the Łódź lab): what factor of the gradient does each GPU send?',
      params: { N: { default: 8, min: 2, max: 64, step: 1 } },
      parts: [{ id: 'v', label: 'Factor', answer: '2*(N-1)/N', unit: '' }] },
    { id: 'mine.bad', type: 'numeric', title: 'Typo', prompt: '{N} GPUs', params: { N: { default: 8, min: 2, max: 64, step: 1 } },
      parts: [{ id: 'v', answer: '2*(n-1)', unit: '' }] },
  ],
}, null, 2);

test('instructors: a pack dropped on the page is previewed, its errors shown and its valid exercise playable', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  // What a browser dispatches when a file is dragged in from the desktop and let go.
  await page.evaluate((text) => {
    const c = document.getElementById('canvas');
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'mine.json', { type: 'application/json' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      c.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 600, clientY: 400 }));
  }, MINE);
  let s = await waitFor(page, 's.previews.length === 1 && s.items.some((i) => i.id === "ex-mine.good")');
  const pv = s.previews[0];
  eq(pv.source, 'mine.json', 'preview source');
  eq(JSON.stringify(pv.exercises), '["mine.good"]', 'playable exercises');
  eq(pv.left_out, 1, 'exercises left out');
  // The same message the CLI prints for this file.
  const file = path.join(os.tmpdir(), 'dtx-e2e-mine.json');
  fs.writeFileSync(file, MINE);
  let cli = '';
  try { execFileSync(path.join(ROOT, 'build/native/dtx'), ['lint', file], { stdio: ['ignore', 'pipe', 'pipe'] }); } catch (e) { cli = e.stdout.toString(); }
  const line = pv.errors[0].replace(/^mine\.json/, '');
  assert(cli.includes(line), `page says ${pv.errors[0]}; dtx lint says ${cli}`);
  assert(/did you mean 'N'/.test(pv.errors[0]), 'suggestion shown: ' + pv.errors[0]);
  // At the top: above chapter 0.
  const head = s.items.find((i) => i.id === 'preview-0'), ch0 = s.items.find((i) => i.id === 'chapter-0');
  assert(head && (!ch0 || head.y < ch0.y), 'preview header above the course');
  assert(!s.items.some((i) => i.id === 'ex-mine.bad'), 'the broken exercise is not playable');
  // Ł and ź (Latin Extended-A) are not in the atlas at start: the pack's arrival adds them
  s = await waitFor(page, 's.atlas_extra.includes(0x141) && s.atlas_extra.includes(0x17A) && s.atlas_missing === 0');
  await shot(page, 'preview-dropped');

  await click(page, 'ex-mine.good');
  s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'mine.good'");
  eq(s.preview, true, 'marked as preview');
  eq(s.instructor, true, 'instructor view on in preview');
  await shot(page, 'preview-instructor');
  await typeInto(page, 'part-v', '1.75');  // N = 8 at the default seed: 2*7/8
  s = await submit(page);
  eq(s.verdict, 'correct', 'the preview exercise grades: ' + s.message);
  // Next seed: another instance, its numbers on screen.
  await click(page, 'next-seed');
  s = await waitFor(page, 's.seed === 1');
  eq(s.exercise, 'mine.good', 'same exercise');
  await click(page, 'instructor');
  s = await waitFor(page, 's.instructor === false');
  assert(!s.items.some((i) => i.id === 'next-seed'), 'instructor view off');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

// A copy of the exercises served with --watch, as `make serve` does.
async function watchedSite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-watch-'));
  fs.cpSync(path.join(dist, 'exercises'), dir, { recursive: true });
  const srv = await serve(dist, '/', ['--watch', dir]);
  return { dir, srv };
}

test('instructors: ?pack= with a broken pack shows its errors in the page; a missing one says so', async () => {
  const { dir, srv } = await watchedSite();
  try {
    fs.writeFileSync(path.join(dir, 'draft.json'), '{\n  "format": 1,\n  "chapter": 50,\n  "id": "draft",\n  "title": "Draft",\n  "exercises": [\n    {"id": "d.x", "type": "numeric", "title": "x", "prompt": "p", "parts": [{"id": "a", "answer": "1", "unit": "GB", "tolerence": 0.1}]}\n  ]\n}\n');
    const page = await newPage();
    await page.goto(srv.url + '?pack=exercises/draft.json&pack=exercises/nowhere.json');
    await ready(page);
    const s = await waitFor(page, 's.previews.length === 2 && s.previews.every((p) => !p.loading)');
    const draft = s.previews.find((p) => p.source === 'exercises/draft.json');
    assert(draft, 'draft preview: ' + JSON.stringify(s.previews));
    assert(/^exercises\/draft\.json:7:\d+: error\[E012\]: .*tolerence.*did you mean "tolerance"/.test(draft.errors.join('\n')), 'error with its place: ' + draft.errors);
    eq(draft.exercises.length, 0, 'nothing playable');
    const missing = s.previews.find((p) => p.source === 'exercises/nowhere.json');
    assert(/^exercises\/nowhere\.json: error\[E001\]: could not be fetched \(HTTP 404\)/.test(missing.fetch_error), 'missing: ' + missing.fetch_error);
    eq(s.packs, JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).packs.length, 'the course still loads');
    await shot(page, 'preview-broken-url');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('instructors: under make serve a saved pack reaches the open page, keeping the place', async () => {
  const { dir, srv } = await watchedSite();
  try {
    const page = await newPage();
    await page.goto(srv.url);
    await ready(page);
    await openExercise(page, 'ring.volume');
    await typeInto(page, 'part-phase', '1.5');
    let s = await state(page);
    const before = { seed: s.seed, submit: s.items.find((i) => i.id === 'submit').y, reloads: s.reloads };
    const file = engineAnswer('ring.volume').file || fs.readdirSync(dir).find((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('"ring.volume"'));
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const title = s.title;
    assert(text.includes(JSON.stringify(title)), `title ${title} in ${file}`);
    const t0 = Date.now();
    fs.writeFileSync(path.join(dir, file), text.replace(JSON.stringify(title), JSON.stringify(title + ' (edited)')));
    // 15 s catches a reload that never comes; how fast it comes is a figure (make bench), not a test.
    s = await waitFor(page, `s.reloads > ${before.reloads} && s.title.endsWith('(edited)')`, 15000);
    console.log(`      saved pack shown after ${Date.now() - t0} ms`);
    eq(s.screen, 'exercise', 'still on the exercise');
    eq(s.exercise, 'ring.volume', 'same exercise');
    eq(s.seed, before.seed, 'same instance');
    eq(s.inputs[0], '1.5', 'typed answer kept');
    eq(s.items.find((i) => i.id === 'submit').y, before.submit, 'same scroll position');
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('keys and characters typed faster than frames keep their order', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  await openExercise(page, 'ring.code-time');
  await typeInto(page, 'code', 'ab');
  // All in one task, so no frame falls between them: what a slow device sees of fast typing.
  await page.evaluate(() => {
    const ta = document.getElementById('dtx-text');
    const key = (name, code) => {
      for (const type of ['keydown', 'keyup'])
        ta.dispatchEvent(new KeyboardEvent(type, { key: name, code: name, keyCode: code, which: code, bubbles: true, cancelable: true }));
    };
    const text = (t) => ta.dispatchEvent(new InputEvent('input', { inputType: 'insertText', data: t, bubbles: true }));
    key('Enter', 13); text('x'); key('Enter', 13); key('Enter', 13); text('yz'); key('Backspace', 8); text('w');
  });
  const s = await waitFor(page, 's.code.length >= 7');
  eq(s.code, 'ab\nx\n\nyw', 'the editor text');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

test('the mouse wheel scrolls the course map the way it turns, by the distance it turns', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 700 } });
  await page.goto(server.url);
  await ready(page);
  // (chapter 0's header: on screen at the top and after a notch down; the chapters after it
  // lie below chapter 0's open list on a 700 px screen)
  const y = async () => (await state(page)).items.find((i) => i.id === 'chapter-0').y;
  await page.mouse.move(640, 400);
  const y0 = await y();
  // Frames are drawn on demand: wait for one after the wheel before reading positions.
  const wheel = async (dy) => {
    const f = (await state(page)).frame;
    await page.mouse.wheel(0, dy);
    await waitFor(page, `s.frame > ${f} + 1`);
  };
  await wheel(100);  // one notch down in Chromium: the content moves up by 100 px
  near(await y(), y0 - 100, 1, 'after one notch down');
  await wheel(-40);  // a trackpad's small pixel delta, up
  near(await y(), y0 - 60, 1, 'after 40 px up');
  await wheel(-500);  // past the top: stops there
  near(await y(), y0, 1, 'back at the top');
  // A wheel in lines (Firefox) scrolls too, and the page itself never scrolls.
  await page.evaluate(() => document.getElementById('canvas').dispatchEvent(
    new WheelEvent('wheel', { deltaY: 3, deltaMode: 1, clientX: 640, clientY: 400, bubbles: true, cancelable: true })));
  await waitFor(page, `s.items.find((i) => i.id === 'chapter-0').y < ${y0 - 50}`);
  eq(await page.evaluate(() => window.scrollY), 0, 'the browser page scrolled');
  await page.context().close();
});

test('lab: every widget plays from the engine, sliders re-run the simulation', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  await click(page, 'nav-lab');
  await waitFor(page, "s.screen === 'lab' && s.widget");
  const kinds = JSON.parse(execFileSync(path.join(ROOT, 'build/native/dtx'), ['sim', '--inputs-json'], { encoding: 'utf8' }));
  for (const kind of Object.keys(kinds)) {
    await click(page, `lab-${kind}`);
    let s = await waitFor(page, `s.widget && s.widget.kind === ${JSON.stringify(kind)}`);
    eq(s.id_clashes.length, 0, `${kind}: ID clashes ${JSON.stringify(s.id_clashes)}`);
    if (s.widget.steps > 0) {
      const f0 = s.frame;
      await click(page, `${kind}-play`);
      s = await waitFor(page, 's.widget.playing === true');
      // Playing keeps the page drawing (an idle page draws at most one frame in 2 s: the keys
      // test) and moves the steps on. How many frames a second a loaded machine draws is not
      // the test: 20 s only catches a stop.
      s = await waitFor(page, `s.frame > ${f0 + 12} && s.widget.step > 0`, 20000);
    }
    await shot(page, `lab-${kind}`);
  }
  // The pipeline's figures are the engine's: move m and compare with `dtx sim pipeline`.
  await click(page, 'lab-pipeline');
  await setSlider(page, 'pipeline-m', 16);
  let s = await waitFor(page, 's.widget.m === 16');
  const sim = JSON.parse(execFileSync(path.join(ROOT, 'build/native/dtx'),
    ['sim', 'pipeline', '--schedule', s.widget.schedule, '--p', String(s.widget.p), '--m', '16', '--json'], { encoding: 'utf8' }));
  const bubble = sim.bubble_total ?? sim.bubble?.idle_over_total ?? sim.bubble?.total;
  assert(bubble !== undefined, 'dtx sim pipeline --json has no bubble figure: ' + Object.keys(sim));
  assert(Math.abs(s.widget.bubble_total - bubble) < 1e-9, `page bubble ${s.widget.bubble_total} vs engine ${bubble}`);
  // An element losing focus while Ctrl is held (a field's textarea closing, a DOM proxy) is
  // not the window losing it: Ctrl stays held and Ctrl+click still opens the slider's field.
  // GLFW released every key on such a blur (a rare CI failure of the slider tests).
  const it = await findItem(page, 'pipeline-m');
  await page.keyboard.down('Control');
  await page.evaluate(() => { const t = document.querySelector('textarea'); t.focus(); t.blur(); });
  await page.mouse.click(it.x + it.w / 2, it.y + it.h / 2);
  await page.keyboard.up('Control');
  await waitFor(page, "s.text_input === true && s.active === 'pipeline-m'");
  await press(page, 'Escape');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

test('an exercise drives its embedded widget with the instance numbers', async () => {
  // Tall enough to list chapter 5 without scrolling (see the note on wheel scrolling in lib.mjs).
  const page = await newPage({ viewport: { width: 1280, height: 1500 } });
  await page.goto(server.url);
  await ready(page);
  const id = 'pipe.widget-smallest-m';
  await openExercise(page, id);
  const ans = engineAnswer(id);
  const p = ans.parameters.p;
  let s = await waitFor(page, "s.widget && s.widget.kind === 'pipeline'");
  eq(s.widget.p, p, 'widget p = the instance p');
  eq(s.widget.schedule, '1f1b', 'schedule from the exercise');
  // The student drives m to the answer the engine grades; the viewer shows a bubble under 5%
  // there, and 5% or more one microbatch below.
  const m = ans.parts.find((x) => x.id === 'm').value;
  await setSlider(page, 'pipeline-m', m - 1);
  s = await waitFor(page, `s.widget.m === ${m - 1}`);
  assert(s.widget.bubble_total >= 0.05, `bubble at m-1 = ${s.widget.bubble_total}`);
  await setSlider(page, 'pipeline-m', m);
  s = await waitFor(page, `s.widget.m === ${m}`);
  assert(s.widget.bubble_total < 0.05, `bubble at m = ${s.widget.bubble_total}`);
  await typeInto(page, 'part-m', String(m));
  await typeInto(page, 'part-bubble', (s.widget.bubble_total * 100).toFixed(3) + ' %');
  s = await submit(page);
  eq(s.verdict, 'correct', 'the numbers read off the widget are graded correct: ' + s.message);
  await shot(page, 'exercise-with-widget');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});


test('a widget with "reveal": "after-attempt" opens after the first counted attempt; an instructor always sees it', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 1400 } });
  await page.goto(server.url);
  await ready(page);
  const id = 'ring.widget-phases';
  eq(engineAnswer(id).widget.reveal, 'after-attempt', 'the shipped setting');
  let s = await openExercise(page, id);
  eq(s.instructor, false, 'a student, not an instructor');
  // Held back: no widget drawn, so the test hook publishes none, and one line in its place.
  s = await waitFor(page, `s.frame > ${s.frame}`);
  assert(!s.widget && !s.widget_error, 'no widget before an attempt: ' + JSON.stringify(s.widget));
  const note = 'The Ring AllReduce widget opens after your first attempt.';
  await waitForLayer(page, `t.includes(${JSON.stringify(note)})`, 'the note before an attempt');
  assert(!(await layerText(page)).includes('Reset to this exercise'), 'the widget\'s controls are not drawn');
  await shot(page, 'widget-reveal-before');
  // An answer that cannot be read is not an attempt: still held back.
  await typeInto(page, 'part-steps', 'lots');
  s = await submit(page);
  eq(s.verdict, 'format-error', 'an unreadable answer');
  // The widget is drawn above the Submit button: the frame after the grading shows the result.
  s = await waitFor(page, `s.frame > ${s.frame}`);
  assert(!s.widget, 'no widget after an unreadable answer');
  // A wrong attempt opens it, on the instance's numbers.
  await typeInto(page, 'part-steps', '7');
  await typeInto(page, 'part-rs', '1 GB');
  await typeInto(page, 'part-total', '2 GB');
  s = await submit(page);
  assert(s.verdict === 'incorrect' || s.verdict === 'partial', 'a wrong attempt: ' + s.verdict);
  s = await waitFor(page, "s.widget && s.widget.kind === 'ring'");
  eq(s.widget.N, engineAnswer(id).parameters.N, 'the widget runs the instance');
  await waitForLayer(page, `!t.includes(${JSON.stringify(note)}) && t.includes('Reset to this exercise')`, 'the widget after an attempt');
  // A later unreadable answer does not close it again.
  await typeInto(page, 'part-steps', 'lots');
  s = await submit(page);
  eq(s.verdict, 'format-error', 'an unreadable answer after the attempt');
  s = await waitFor(page, `s.frame > ${s.frame}`);
  assert(s.widget && s.widget.kind === 'ring', 'the widget stays open');
  await shot(page, 'widget-reveal-after');

  // "after-solve", in a dropped pack: the instructor view (on in a preview) shows it; a
  // student does not see it, and reads when it opens.
  const pack = JSON.stringify({ format: 1, chapter: 43, id: 'revealed', title: 'Reveal',
    intro: 'Bubbles of a **GPipe** pipeline, on your own numbers.', exercises: [
    { id: 'revealed.solve', type: 'numeric', title: 'Pipeline idle share', prompt: 'p = {p} stages, m = 8 microbatches.',
      params: { p: { default: 4, choices: [2, 4] } },
      widget: { kind: 'pipeline', reveal: 'after-solve', schedule: 'gpipe', p: '{p}', m: 8 },
      parts: [{ id: 'b', answer: '(p-1)/(8+p-1)', unit: '' }] }] });
  await page.evaluate((text) => {
    const c = document.getElementById('canvas');
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'reveal pack.json', { type: 'application/json' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      c.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 600, clientY: 400 }));
  }, pack);
  await click(page, 'nav-course');
  await waitFor(page, "s.screen === 'course' && s.items.some((i) => i.id === 'ex-revealed.solve')");
  // The preview starts with the pack's intro, drawn as Markdown (bold without its asterisks).
  await waitForLayer(page, "t.includes('Bubbles of a GPipe pipeline, on your own numbers.')", 'the preview\'s intro');
  await click(page, 'ex-revealed.solve');
  s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'revealed.solve' && s.instructor === true");
  s = await waitFor(page, "s.widget && s.widget.kind === 'pipeline'");
  eq(s.widget.p, 4, 'the instructor sees the widget on the instance');
  // The command in the instructor panel names the dropped file, quoted for a shell.
  await waitForLayer(page, `t.includes("dtx show revealed.solve --packs 'reveal pack.json' --seed 0 --answer (the file you dropped)")`,
    'the instructor panel\'s command');
  await shot(page, 'widget-reveal-instructor');
  await click(page, 'instructor');
  s = await waitFor(page, 's.instructor === false');
  s = await waitFor(page, `s.frame > ${s.frame}`);
  assert(!s.widget, 'a student does not see an after-solve widget');
  await waitForLayer(page, "t.includes('The Pipeline schedules widget opens once you have solved this exercise.')", 'the after-solve note');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

// ---------------------------------------------------------------- the page's own policy

// The policy of web/shell/index.html; the build adds the SHA-256 of each inline block
// (scripts/inline-first-paint.mjs: dtx.css, first-screen.js and the call after the map).
const BASE_POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; manifest-src 'self'; " +
  "style-src 'self'; font-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

test('security: the Content-Security-Policy is in the page and the headers; it refuses inline code and other origins', async () => {
  // The <meta>, the header scripts/serve.mjs sends (on the page and on the worker, whose
  // own header is its policy), and the header scripts/csp-header.mjs prints for hosts: one
  // policy, which allows exactly the page's own inline blocks.
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sha = (t) => `'sha256-${crypto.createHash('sha256').update(t, 'utf8').digest('base64')}'`;
  const blocks = { script: [], style: [] };
  for (const m of html.matchAll(/<(script|style)(\s[^>]*)?>([\s\S]*?)<\/\1>/g)) if (!/\ssrc=/.test(m[2] || '')) blocks[m[1]].push(m[3]);
  eq(blocks.style.length, 1, 'inline <style> blocks in index.html');
  // each block is its file minified (scripts/minify-inline.mjs), a fraction of its size
  const cssSource = fs.readFileSync(path.join(ROOT, 'web/shell/dtx.css'), 'utf8');
  const jsSource = (await bundles())['first-screen.js'];  // web/shell/first-screen/, bundled as the build does
  const jsMin = minifyInline(jsSource, 'js');
  eq(blocks.style[0], minifyInline(cssSource, 'css'), 'the <style> block is dtx.css, minified');
  assert(blocks.script.includes(jsMin), 'first-screen.js, minified, is in the page');
  assert(blocks.style[0].length < 0.8 * cssSource.length && jsMin.length < 0.6 * jsSource.length,
    `inline blocks not minified: ${blocks.style[0].length} of ${cssSource.length} and ${jsMin.length} of ${jsSource.length} bytes`);
  const POLICY = BASE_POLICY
    .replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' ${[...new Set(blocks.script.map(sha))].join(' ')}`)
    .replace("style-src 'self'", `style-src 'self' ${sha(blocks.style[0])}`);
  assert(html.includes(`<meta http-equiv="Content-Security-Policy" content="${POLICY}">`), 'meta policy in index.html: ' + /Content-Security-Policy" content="([^"]*)/.exec(html)[1]);
  assert(!/\sstyle=/.test(html), 'no style attribute in index.html');
  assert(!fs.existsSync(path.join(dist, 'dtx.css')) && !fs.existsSync(path.join(dist, 'first-screen.js')), 'inlined files left in dist/');
  // (first-screen.js names it after the first paint; the <noscript> for a page without JavaScript)
  assert(html.includes('<noscript><link rel="icon" href="favicon.svg" type="image/svg+xml"></noscript>'), 'the site names its icon without JavaScript');
  for (const file of ['', 'sandbox-worker.js']) {
    const r = await fetch(server.url + file);
    eq(r.headers.get('content-security-policy'), `${POLICY}; frame-ancestors 'none'`, `header on /${file}`);
  }
  const hostLine = (form) => execFileSync(process.execPath, [path.join(ROOT, 'scripts/csp-header.mjs'), dist, form], { encoding: 'utf8' }).trim();
  eq(hostLine('--nginx'), `add_header Content-Security-Policy "${POLICY}; frame-ancestors 'none'" always;`, 'csp-header.mjs --nginx');
  eq(hostLine('--apache'), `Header always set Content-Security-Policy "${POLICY}; frame-ancestors 'none'"`, 'csp-header.mjs --apache');
  const hosting = fs.readFileSync(path.join(ROOT, 'docs/self-hosting.md'), 'utf8');
  assert(hosting.includes('node scripts/csp-header.mjs dist --nginx'), 'docs/self-hosting.md tells hosts how to print the header');

  const other = await serve(dist);  // another port: another origin
  try {
    const page = await newPage();
    page.cspExpected = true;
    await page.goto(server.url);
    await ready(page);
    // Settings, and an export: the download of a blob: link is not something the policy stops.
    await click(page, 'nav-settings');
    const download = page.waitForEvent('download');
    await click(page, 'export');
    assert(/^dtx-progress-.*\.json$/.test((await download).suggestedFilename()), 'progress exported');
    eq(page.csp.length, 0, 'violations before the attacks: ' + page.csp.map((v) => v.text).join('; '));

    // An injected inline script and inline style do not apply.
    await page.evaluate(() => {
      const sc = document.createElement('script');
      sc.textContent = 'window.__inlineRan = true;';
      document.body.appendChild(sc);
      const st = document.createElement('style');
      st.textContent = 'body { background: red; }';
      document.head.appendChild(st);
    });
    await page.waitForTimeout(100);
    eq(await page.evaluate(() => window.__inlineRan), undefined, 'inline script ran');
    eq(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(247, 248, 250)', 'inline style applied');
    // A fetch to another origin, and a worker from a blob: URL, are refused.
    // no-cors: without the policy this fetch succeeds (an opaque answer), so 'refused' is the
    // policy's doing, not CORS's.
    const fetched = await page.evaluate((u) => fetch(u, { mode: 'no-cors' }).then(() => 'fetched', () => 'refused'), other.url + 'exercises/index.json');
    eq(fetched, 'refused', 'fetch to another origin');
    const blobWorker = await page.evaluate(() => new Promise((resolve) => {
      try {
        const w = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })));
        w.onmessage = () => resolve('started');
        w.onerror = () => resolve('refused');
        setTimeout(() => resolve('refused'), 1000);
      } catch (e) { resolve('refused'); }
    }));
    eq(blobWorker, 'refused', 'worker from a blob: URL');
    await page.waitForTimeout(100);
    // Each is refused by both policies, the <meta> and the header, and nothing else is.
    const kinds = page.csp.map((v) => `${v.directive} ${v.form}`).sort();
    eq(JSON.stringify(kinds), JSON.stringify(['connect-src', 'script-src-elem', 'style-src-elem', 'worker-src'].flatMap((d) => [d + ' header', d + ' meta'])),
      'violations: ' + page.csp.map((v) => v.text).join('; '));

    // The sandbox worker may fetch and compile its own wasm, and nothing else: its policy is
    // the header on sandbox-worker.js (a worker does not take the page's <meta>).
    const workerP = page.waitForEvent('worker');
    await page.evaluate(() => { window.__w = new Worker('sandbox-worker.js'); });
    const worker = await workerP;
    const inWorker = await worker.evaluate(async (u) => {
      const own = await fetch('quickjs.wasm').then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b))
        .then(() => 'compiled', (e) => 'failed: ' + e);
      const away = await fetch(u, { mode: 'no-cors' }).then(() => 'fetched', () => 'refused');
      return { own, away };
    }, other.url + 'exercises/index.json');
    eq(inWorker.own, 'compiled', 'worker fetches and compiles quickjs.wasm');
    eq(inWorker.away, 'refused', 'worker fetch to another origin');
    await page.context().close();

    // ?pack= on another origin: refused by connect-src, and the page says so.
    const pv = await newPage();
    pv.cspExpected = true;
    const index = JSON.parse(fs.readFileSync(path.join(dist, 'exercises/index.json'), 'utf8'));
    await pv.goto(server.url + '?pack=' + encodeURIComponent(other.url + 'exercises/' + index.packs[0]));
    await ready(pv);
    const s = await waitFor(pv, 's.previews.length === 1 && !s.previews[0].loading && s.previews[0].fetch_error');
    assert(/could not be fetched \(blocked by this site's Content-Security-Policy: connect-src/.test(s.previews[0].fetch_error),
      'the error names the policy: ' + s.previews[0].fetch_error);
    assert(pv.csp.length >= 1 && pv.csp.every((v) => v.directive === 'connect-src'), 'only the pack fetch refused: ' + pv.csp.map((v) => v.text));
    await shot(pv, 'preview-refused-by-csp');
    await pv.context().close();
  } finally {
    other.stop();
  }
});

test('links: a javascript: link in a pack is drawn as text and opens nothing; https and relative links open', async () => {
  const { dir, srv } = await watchedSite();
  try {
    // A course pack whose prompt links to javascript: right before an https link, so the
    // refused text sits just left of a link the hooks report.
    const file = path.join(dir, '00-ring-allreduce.json');
    const pack = JSON.parse(fs.readFileSync(file, 'utf8'));
    const ex = pack.exercises.find((e) => e.id === 'ring.volume');
    ex.prompt = '[refusedlinktext](javascript:window.__pwned=1)[docs](https://example.com/docs) and ' +
      '[notes](notes.html) and [mail](mailto:a@example.com).\n\n' + ex.prompt;
    fs.writeFileSync(file, JSON.stringify(pack, null, 2));
    const page = await newPage();
    await page.addInitScript(() => {
      window.__opened = [];
      window.open = (...args) => { window.__opened.push(args); return null; };
    });
    await page.goto(srv.url);
    await ready(page);
    await openExercise(page, 'ring.volume');
    let s = await state(page);
    const links = s.items.filter((i) => i.id.startsWith('link:'));
    eq(JSON.stringify(links.map((i) => i.id)), JSON.stringify(['link:https://example.com/docs', 'link:notes.html', 'link:mailto:a@example.com']),
      'links drawn as links');
    const docs = links[0];
    // The refused link's text: click it, a little left of the https link on the same line.
    await page.mouse.move(docs.x - 20, docs.y + docs.h / 2);
    let f = (await state(page)).frame;
    await waitFor(page, `s.frame > ${f}`);
    await shot(page, 'link-refused-as-text');
    await page.mouse.click(docs.x - 20, docs.y + docs.h / 2);
    f = (await state(page)).frame;
    await waitFor(page, `s.frame > ${f}`);
    eq(JSON.stringify(await page.evaluate(() => window.__opened)), '[]', 'the refused link opened something');
    eq(await page.evaluate(() => window.__pwned), undefined, 'javascript: ran');
    // The glue checks again, whatever C++ passes it.
    await page.evaluate(() => {
      for (const u of ['javascript:window.__pwned=1', ' JaVa\tScRiPt:window.__pwned=1', 'data:text/html,x', 'file:///etc/passwd', 'blob:x'])
        window.dtxGlue.openUrl(u);
    });
    eq(JSON.stringify(await page.evaluate(() => window.__opened)), '[]', 'the glue opened a refused scheme');
    // The allowed ones are real links in the text layer (middle-click and "open in new tab"
    // work), opening in a new tab with no opener and no referrer; the refused one is text.
    // (the prompt's glossary terms are links too: tests/e2e/glossary.mjs)
    const anchors = await page.evaluate(() => [...document.querySelectorAll('#dtx-layer a:not(.dtx-ctl)')]
      .filter((a) => !(a.getAttribute('href') || '').startsWith('#/glossary/'))
      .map((a) => [a.textContent, a.getAttribute('href'), a.target, a.rel]));
    eq(JSON.stringify(anchors), JSON.stringify([['docs', 'https://example.com/docs', '_blank', 'noopener noreferrer'],
      ['notes', srv.url + 'notes.html', '_blank', 'noopener noreferrer'], ['mail', 'mailto:a@example.com', '_blank', 'noopener noreferrer']]),
    'links in the text layer');
    assert(await page.evaluate(() => [...document.querySelectorAll('#dtx-layer .dtx-line')].some((l) => l.tagName !== 'A' && l.textContent.includes('refusedlinktext'))),
      'the refused link is plain text in the layer');
    // A click on a link opens it in a new tab: the browser's own link, not the engine's.
    const popup = page.context().waitForEvent('page');
    await click(page, 'link:notes.html');
    const tab = await popup;
    eq(tab.url(), srv.url + 'notes.html', 'the new tab');
    eq(await tab.evaluate(() => window.opener), null, 'the new tab has no opener');
    await tab.close();
    eq(JSON.stringify(await page.evaluate(() => window.__opened)), '[]', 'opened twice (the engine as well)');
    // Where the canvas gets the press itself (a touch screen: the layer lets touches through),
    // the engine opens the link the same way.
    await page.evaluate(() => { document.getElementById('dtx-layer').style.pointerEvents = 'none'; for (const l of document.querySelectorAll('#dtx-layer .dtx-line')) l.style.pointerEvents = 'none'; });
    for (const id of ['link:https://example.com/docs', 'link:notes.html', 'link:mailto:a@example.com']) await click(page, id);
    const opened = await page.evaluate(() => window.__opened);
    eq(JSON.stringify(opened), JSON.stringify([['https://example.com/docs', '_blank', 'noopener,noreferrer'],
      [srv.url + 'notes.html', '_blank', 'noopener,noreferrer'], ['mailto:a@example.com', '_blank', 'noopener,noreferrer']]), 'opened');
    s = await state(page);
    eq(s.screen, 'exercise', 'still on the exercise');
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  } finally {
    srv.stop();
  }
});

// ---------------------------------------------------------------- progress shared by tabs

// Opens a numeric exercise and submits the engine's own answer.
// ---------------------------------------------------------------- keyboard



// A page that counts every pointer event it gets (window.__pointer): keyboard tests end with 0.
async function keyboardOnlyPage() {
  const page = await newPage();
  await page.addInitScript(() => {
    window.__pointer = 0;
    // (Enter on a focused link is a click with no pointer, detail 0: the keyboard's own)
    for (const ev of ['mousedown', 'mouseup', 'click', 'mousemove', 'touchstart', 'wheel'])
      window.addEventListener(ev, (e) => { if (ev !== 'click' || e.detail > 0) window.__pointer++; }, true);
  });
  return page;
}

test('keyboard: the course map (first Tab, a chapter, an exercise) and a Lab slider, keys alone', async () => {
  const page = await keyboardOnlyPage();
  await page.goto(server.url);
  let s = await ready(page);
  eq(s.focus, '', 'no focus ring before a key');
  await press(page, 'Tab');
  eq((await state(page)).focus, 'nav-course', 'the first Tab focuses the first control');
  // a closed chapter opens with Enter, and its exercises follow it in Tab order
  s = await tabUntil(page, "s.focus === 'chapter-1'", 'the header of chapter 1');
  await press(page, 'Enter');
  const ch1 = JSON.parse(execFileSync(path.join(ROOT, 'build/native/dtx'), ['list', '--json'], { cwd: ROOT }).toString())
    .find((e) => e.chapter === 1);
  s = await tabUntil(page, `s.focus === 'ex-${ch1.id}'`, `the first exercise of chapter 1 (${ch1.id})`);
  await press(page, 'Enter');
  s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(ch1.id)}`);
  // Esc leaves the answer field the exercise opened in (if any), then goes back to the course.
  // (The field starts typing two frames after the exercise is drawn; a person sees it focused
  // before pressing Esc, so the test waits for that, up to half a second.)
  const typing = await waitFor(page, `s.frame > ${s.frame + 1} && s.text_input`, 500).catch(() => null);
  if (typing) await press(page, 'Escape');
  await press(page, 'Escape');
  await waitFor(page, "s.screen === 'course'");
  // the Lab: Tab to a slider, Space takes it, the arrows change it, Space lets it go
  await page.evaluate(() => { location.hash = '#/lab/pipeline?schedule=1f1b&p=4&m=8'; });
  s = await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.p === 4");
  s = await tabUntil(page, "s.focus === 'pipeline-p'", 'the stages slider');
  await press(page, 'Space');
  await press(page, 'ArrowRight');
  await press(page, 'ArrowRight');
  s = await waitFor(page, 's.widget.p > 4');
  s = await waitFor(page, `s.frame > ${s.frame + 2}`);  // both arrows in (each is a frame of its own)
  const p = s.widget.p;
  await press(page, 'Space');
  s = await waitFor(page, "s.active === ''");
  await press(page, 'ArrowRight');  // let go: the arrows move the focus, not the value
  s = await waitFor(page, 'true');
  eq(s.widget.p, p, 'the slider keeps its value once let go');
  assert(/p=\d+/.test(await page.evaluate(() => location.hash)) && (await page.evaluate(() => location.hash)).includes(`p=${p}`), 'the address follows the slider');
  eq(await page.evaluate(() => window.__pointer), 0, 'pointer events');
  await page.context().close();
});

test('keyboard: one exercise of every type solved with keys alone; a visible focus ring; Esc goes back', async () => {
  const page = await keyboardOnlyPage();
  // Presses `key` and waits for the answer it submits to be graded correct.
  const submitsCorrect = async (key, what, timeout = 8000) => {
    const before = (await state(page)).graded;
    await press(page, key);
    const s = await waitFor(page, `s.graded > ${before}`, timeout);
    eq(s.verdict, 'correct', `${what} by keyboard: ${s.message}`);
  };
  const open = async (id) => {
    await page.goto(`${server.url}#/ex/${id}`);
    const s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && !s.busy`, 20000);
    return waitFor(page, `s.frame > ${s.frame + 1}`);  // settled: a first field has taken the focus
  };

  // One exercise of each type, solved by the steps in its folder (types/<type>/e2e.mjs,
  // `keyboard`): Tab to its controls and answer with keys; `submitKey` (Enter unless said)
  // sends it, and `after` checks what follows.
  const types = await typeModules();
  const missing = types.filter((t) => !t.module.keyboard).map((t) => t.type);
  assert(!missing.length, `types with no keyboard steps in their e2e.mjs: ${missing.join(', ')}`);
  for (const { type, module: { keyboard } } of types) {
    const ans = engineAnswer(keyboard.id);
    await open(keyboard.id);
    await keyboard.solve(page, ans, { assert, eq, shot });
    await submitsCorrect(keyboard.submitKey || 'Enter', type, keyboard.timeout);
    if (keyboard.after) await keyboard.after(page, ans, { assert, eq });
  }
  // Esc goes back to the course (a first Esc leaves a field being typed in, keeping its text:
  // the code editor's steps check that)
  let s = await state(page);
  if (s.text_input) {
    await press(page, 'Escape');
    await waitFor(page, "!s.text_input || s.screen === 'course'");
  }
  if ((await state(page)).screen !== 'course') await press(page, 'Escape');
  s = await waitFor(page, "s.screen === 'course'");

  eq(await page.evaluate(() => window.__pointer), 0, 'pointer events during the keyboard-only solves');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

test('addresses: a link opens its instance; Back, Forward and reload keep the place; the title names the screen', async () => {
  const page = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  const hash = () => new URL(page.url()).hash;
  const ring = engineAnswer('ring.volume', 3);
  // a link to instance 3, opened in a new tab
  await page.goto(server.url + '#/ex/ring.volume/3');
  let s = await waitFor(page, "s.screen === 'exercise' && !s.busy", 20000);
  eq(s.exercise, 'ring.volume', 'deep link exercise');
  eq(s.seed, 3, 'deep link instance');
  eq(await page.title(), `${ring.title} · Ring AllReduce · instance 3 · dtx`, 'title of an exercise');
  // Copy link: the address of exactly this instance
  await click(page, 'copy-link');
  eq(await page.evaluate(() => navigator.clipboard.readText()), server.url.replace(/#.*$/, '') + '#/ex/ring.volume/3', 'copied link');
  // to the map with the top bar, then another exercise from the map: two history entries
  await click(page, 'nav-course');
  s = await waitFor(page, "s.screen === 'course'");
  eq(hash(), '#/', 'course map address');
  eq(await page.title(), 'dtx: the arithmetic of distributed training', 'title of the map');
  s = await openExercise(page, 'pipe.bubble-basic');
  eq(hash(), '#/ex/pipe.bubble-basic', 'exercise address');
  // Back: the map; Back: instance 3; Forward: the map (the site is never left)
  await page.goBack();
  s = await waitFor(page, "s.screen === 'course'");
  await page.goBack();
  s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'");
  eq(s.seed, 3, 'Back returns to the instance');
  await page.goForward();
  s = await waitFor(page, "s.screen === 'course'");
  // reload keeps the screen
  await page.goForward();
  s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'pipe.bubble-basic'");
  await page.reload();
  s = await waitFor(page, "s.screen === 'exercise' && !s.busy", 20000);
  eq(s.exercise, 'pipe.bubble-basic', 'reload keeps the exercise');
  // an address edited by hand, to the Lab with inputs, and to an id no pack has
  await page.evaluate(() => { location.hash = '#/lab/pipeline?schedule=1f1b&p=8&m=32'; });
  s = await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.kind === 'pipeline'");
  eq(s.widget.p, 8, 'lab p from the address');
  eq(s.widget.m, 32, 'lab m from the address');
  eq(await page.title(), 'Pipeline schedules · Lab · dtx', 'title of a Lab widget');
  await page.evaluate(() => { location.hash = '#/ex/ring.volme'; });
  s = await waitFor(page, "s.screen === 'not-found'");
  eq(await page.title(), 'No exercise ring.volme · dtx', 'title of a missing exercise');
  await shot(page, 'address-not-found');
  await click(page, 'not-found-course');
  await waitFor(page, "s.screen === 'course'");
  eq(hash(), '#/', 'the way back');
  await page.context().close();
});

test('start: the loading line counts bytes; a slow pack leaves the other chapters usable, and says it is loading', async () => {
  const page = await newPage();
  const details = [];
  page.on('console', () => {});
  // the engine and one pack come slowly (a poor network)
  await page.route('**/dtx.wasm', async (route) => { await new Promise((r) => setTimeout(r, 800)); await route.continue(); });
  // held until the test has seen the map without it (a fixed delay raced a loaded machine)
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/exercises/05-pipeline.json', async (route) => { await held; await route.continue(); });
  const t0 = Date.now();
  await page.goto(server.url);
  // the loading line, from the first paint, says what is loading and how much has arrived
  for (let i = 0; i < 40 && !(await page.evaluate(() => window.dtx && window.dtx.state)); i++) {
    const d = await page.evaluate(() => { const e = document.getElementById('loading-detail'); return e ? e.textContent : ''; });
    if (d && !details.includes(d)) details.push(d);
    await page.waitForTimeout(50);
  }
  assert(details.some((d) => /MB · .*fonts \d of 4/.test(d)), 'loading line with bytes and fonts: ' + JSON.stringify(details));
  // the map comes without waiting for the slow pack
  let s = await waitFor(page, "s.screen === 'course' && s.items.some((i) => i.id.startsWith('ex-'))", 20000);
  const mapMs = Date.now() - t0;
  assert(s.loading.includes('05-pipeline.json'), 'the slow pack is listed as loading: ' + JSON.stringify(s.loading));
  // its chapter is drawn from the outline (exercises/outline.json) while the pack is held
  assert(s.items.some((i) => i.id === 'chapter-5'), 'chapter 5 is drawn from the outline before its pack');
  await shot(page, 'start-chapter-loading');
  // the text layer (the words to select and find, the controls a screen reader reaches) is
  // built a second after the first frame, without waiting for the held pack
  await page.waitForFunction(() => {
    const l = document.getElementById('dtx-layer');
    return l && /Ring AllReduce/.test(l.textContent) && l.querySelector('.dtx-ctl');
  }, null, { timeout: 10000 });
  // meanwhile a chapter that is in works
  await solveNumeric(page, 'ring.volume');
  release();
  s = await waitFor(page, "s.loading.length === 0 && !s.busy", 20000);
  const allMs = Date.now() - t0;
  await click(page, 'nav-course');
  await waitFor(page, "s.screen === 'course'");
  await findItem(page, 'chapter-5');  // (below chapter 0's list on a 900 px screen: scrolled to)
  console.log(`     course map usable ${mapMs} ms after navigation with 05-pipeline.json held back; every pack in at ${allMs} ms`);
  await page.context().close();
}, { worker: 'the engine and a pack are held by page.route, which never sees what the service worker answers' });

test('start: a font file that cannot be loaded leaves the built-in font, whole, and says so; exercises still work', async () => {
  const page = await newPage();
  await page.route('**/fonts/Inter-SemiBold.otf', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(server.url);
  const s = await waitFor(page, "s.screen === 'course' && s.items.some((i) => i.id.startsWith('ex-')) && s.notices.length > 0", 20000);
  assert(s.notices.some((n) => /The font fonts\/Inter-SemiBold\.otf could not be loaded \(HTTP 404\); text uses the built-in font/.test(n)),
    'the notice: ' + JSON.stringify(s.notices));
  // the whole built-in font, not the start's two-glyph placeholder (text drawn as '?')
  assert(s.body_glyphs >= 95, `the body font has ${s.body_glyphs} glyphs`);
  await shot(page, 'start-font-missing');
  await solveNumeric(page, 'ring.volume');  // (asserts the verdict)
  await page.context().close();
}, { worker: 'the font request fails by page.route, which never sees what the service worker answers' });

test('themes: dark follows the system, a choice in Settings wins and is kept', async () => {
  const page = await newPage({ colorScheme: 'dark' });
  await page.goto(server.url + '#/ex/pipe.bubble-basic');
  let s = await waitFor(page, "s.screen === 'exercise' && !s.busy", 20000);
  eq(s.theme, 'dark', 'theme with a dark system');
  await shot(page, 'theme-dark-exercise');
  await page.goto(server.url.replace(/#.*$/, '') + '#/lab/pipeline?schedule=1f1b&p=4&m=8');
  s = await waitFor(page, "s.screen === 'lab' && !s.busy", 20000);
  await shot(page, 'theme-dark-lab');
  await click(page, 'nav-settings');
  await click(page, 'theme-light');
  s = await waitFor(page, "s.theme === 'light'");
  await page.reload();
  s = await waitFor(page, "s.screen === 'settings' && !s.busy", 20000);
  eq(s.theme, 'light', 'the choice outlives a reload');
  await page.context().close();
});

async function solveNumeric(page, id) {
  await openExercise(page, id);
  const ans = engineAnswer(id);
  // the progress tests are about what is stored, not the keys (see typeInto)
  for (const p of ans.parts) await typeInto(page, `part-${p.id}`, String(p.value), { commit: true });
  const s = await submit(page);
  eq(s.verdict, 'correct', `${id}: verdict for the engine's answer (${s.message})`);
  return s;
}

const storedProgress = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('dtx.progress') || 'null'));

test('progress: two tabs solve different exercises; both solves are kept and shown in both', async () => {
  const a = await newPage();
  // Same context: the two pages share localStorage, as two tabs of one browser do.
  const b = await a.context().newPage();
  b.errors = [];
  b.on('pageerror', (e) => b.errors.push(e.message));
  // A tab the student is not looking at draws no frames (Chromium pauses its animation
  // frames), as in any browser: each step brings its tab to the front first, as a click would.
  const front = async (p) => { await p.bringToFront(); return p; };
  await a.goto(server.url);
  await b.goto(server.url);
  await ready(await front(a));
  await ready(await front(b));
  // Interleaved: each tab opens its exercise (a save), then each solves it (another save).
  await openExercise(await front(a), 'ring.volume');
  await openExercise(await front(b), 'ring.time-bandwidth');
  await solveNumeric(await front(a), 'ring.volume');
  await solveNumeric(await front(b), 'ring.time-bandwidth');
  let stored = await storedProgress(a);
  eq(stored.version, 2, 'document version');
  assert(stored.exercises['ring.volume']?.solved_at > 0, "tab A's solve kept after tab B saved: " + JSON.stringify(stored.exercises));
  assert(stored.exercises['ring.time-bandwidth']?.solved_at > 0, "tab B's solve stored");
  eq(stored.exercises['ring.volume'].attempts, 1, 'A: attempts');
  eq(stored.exercises['ring.time-bandwidth'].attempts, 1, 'B: attempts');
  // Each page shows the other's solve without a reload (the storage event).
  const sa = await waitFor(await front(a), "s.progress.exercises['ring.time-bandwidth'] && s.progress.exercises['ring.time-bandwidth'].solved");
  const sb = await waitFor(await front(b), "s.progress.exercises['ring.volume'] && s.progress.exercises['ring.volume'].solved");
  assert(sa.progress.exercises['ring.volume'].solved && sb.progress.exercises['ring.time-bandwidth'].solved, 'own solves');
  assert(sa.progress.writer !== sb.progress.writer, 'each tab counts under its own writer id');
  // A's next save keeps B's solve, and the two tabs' attempts on one exercise add up.
  await solveNumeric(await front(a), 'ring.time-bandwidth');
  stored = await storedProgress(a);
  eq(stored.exercises['ring.time-bandwidth'].attempts, 2, 'attempts of both tabs on one exercise');
  eq(Object.keys(stored.exercises['ring.time-bandwidth'].by_writer).length, 2, 'two writers');
  eq(stored.exercises['ring.volume'].attempts, 1, 'no attempt counted twice');
  await waitFor(await front(b), "s.progress.exercises['ring.time-bandwidth'].attempts === 2");
  // the course map of B lists the solves made in A
  await click(b, 'nav-course');
  const map = await waitFor(b, "s.screen === 'course'");
  assert(map.progress.exercises['ring.volume'].solved, "B's course map knows A's solve");
  await shot(b, 'progress-two-tabs');
  eq(a.errors.length + b.errors.length, 0, 'page errors: ' + a.errors.concat(b.errors).join('; '));
  await a.context().close();
});

test('progress: a full storage loses nothing, says so, and the next save writes everything', async () => {
  const page = await newPage();
  await page.goto(server.url);
  await ready(page);
  await solveNumeric(page, 'ring.volume');
  const before = await storedProgress(page);
  assert(before.exercises['ring.volume'].solved_at > 0, 'first solve stored');
  // Fill the origin's storage to the last character (halving filler sizes down to one).
  const fillers = await page.evaluate(() => {
    let n = 0;
    for (let size = 1 << 22; size >= 1; ) {
      try { localStorage.setItem('filler-' + n, 'x'.repeat(size)); n++; } catch (e) { size >>= 1; }
    }
    return n;
  });
  assert(fillers > 0, 'storage filled');
  await solveNumeric(page, 'ring.time-bandwidth');
  let s = await waitFor(page, 's.progress.saved === false');
  const notice = s.notices.find((n) => /Progress could not be saved: browser storage is full/.test(n));
  assert(notice, 'the page says the save failed: ' + JSON.stringify(s.notices));
  assert(s.progress.exercises['ring.time-bandwidth'].solved, 'the page keeps the unsaved solve');
  let stored = await storedProgress(page);
  eq(JSON.stringify(stored.exercises), JSON.stringify(before.exercises), 'what was stored before is unchanged');
  await shot(page, 'progress-storage-full-exercise');
  await click(page, 'nav-course');
  await waitFor(page, "s.screen === 'course'");
  await shot(page, 'progress-storage-full');
  // Room again: the next save (opening an exercise records where the student is) writes all.
  await page.evaluate((n) => { for (let i = 0; i < n; i++) localStorage.removeItem('filler-' + i); }, fillers);
  await openExercise(page, 'ring.latency');
  s = await waitFor(page, 's.progress.saved === true');
  assert(!s.notices.some((n) => /could not be saved/.test(n)), 'the notice is gone: ' + JSON.stringify(s.notices));
  stored = await storedProgress(page);
  assert(stored.exercises['ring.volume'].solved_at > 0, 'first solve still stored');
  assert(stored.exercises['ring.time-bandwidth']?.solved_at > 0, 'the solve made while full is stored now: ' + JSON.stringify(stored.exercises));
  eq(stored.last_exercise, 'ring.latency', 'last exercise');
  eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
  await page.context().close();
});

test('progress: a stored record with absurd numbers is clamped, listed and kept aside once', async () => {
  const page = await newPage();
  const record = JSON.stringify({ format: 'dtx-progress', version: 1,
    exercises: { 'ring.volume': { attempts: 1e300, best: 1, solved_at: 1763700000, last_at: 1763700000 },
                 'ring.latency': { attempts: 2147483647, best: 0.5, solved_at: 0, last_at: 1763700000 } } });
  await page.addInitScript((r) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('dtx.progress', r);
    }
  }, record);
  await page.goto(server.url);
  let s = await ready(page);
  const notice = s.notices.find((n) => /attempts = 1e\+300 is above 1000000000; read as 1000000000/.test(n));
  assert(notice && /attempts = 2147483647 is above 1000000000/.test(notice), 'numbers listed: ' + JSON.stringify(s.notices));
  eq(s.progress.exercises['ring.volume'].attempts, 1000000000, 'clamped, not undefined');
  eq(s.progress.exercises['ring.latency'].attempts, 1000000000, 'clamped, not wrapped to a negative count and dropped');
  eq(await page.evaluate(() => localStorage.getItem('dtx.progress.unreadable')), record, 'the record as it was is kept aside');
  await shot(page, 'progress-clamped');
  await page.reload();
  s = await ready(page);
  eq(JSON.stringify(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dtx.progress.')))),
    '["dtx.progress.unreadable"]', 'one backup after a reload');
  await page.context().close();
});

// Limits (docs/AUTHORING.md "Limits"): hostile or oversized packs are refused with their
// place, quickly, and the course goes on working. Inputs are generated here, not committed.
test('limits: ?pack= too deep, over 10 MB, with 2,000 nested parentheses, a 5 MB title or bad JSON shows its error; the course still works', async () => {
  const { dir, srv } = await watchedSite();
  try {
    const files = hostilePacks();
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
    const sources = [...Object.keys(files), 'nowhere.json'].map((f) => 'exercises/' + f);
    // Tall enough for the six previews and the first chapter without scrolling.
    const page = await newPage({ viewport: { width: 1280, height: 1800 } });
    await page.goto(srv.url + '?' + sources.map((u) => 'pack=' + u).join('&'));
    // every pack of the course in as well (the map is drawn before they all are). The wait only
    // catches a hang: the 5 MB title alone takes ~20 s here, where the test browser keeps wasm
    // in its baseline compiler (TEST_ARGS) and the engine is built for size (-Oz: nlohmann's
    // lexer is not inlined); with the browser's own tiering it is ~2 s (make bench's browser).
    const s = await waitFor(page, `s.screen === 'course' && !s.busy && s.loading.length === 0 && s.previews.length === ${sources.length} && s.previews.every((p) => !p.loading && (p.errors.length || p.fetch_error))`, 60000);
    // From the page's first frame to every pack refused (issue 12 wants this within 2 s).
    const firstFrame = await page.evaluate(() => window.dtx.firstFrameMs);
    const shown = await page.evaluate(() => performance.now());
    // The 20 s wait above catches a page that hangs; the time is a figure (make bench measures it).
    console.log(`      errors of ${sources.length} packs shown ${Math.round(shown - firstFrame)} ms after the first frame`);
    const errors = (f) => s.previews.find((p) => p.source === 'exercises/' + f).errors.join('\n');
    assert(/^exercises\/deep\.json:3:\d+: error\[E004\]: nested deeper than 256 levels of arrays and objects$/.test(errors('deep.json')), 'deep: ' + errors('deep.json'));
    assert(/^exercises\/parens\.json:4:\d+: error\[E030\]: \/exercises\/0\/parts\/0\/answer: invalid expression at column 1001: the expression is longer than 1000 characters/.test(errors('parens.json')), 'parens: ' + errors('parens.json'));
    assert(/^exercises\/huge\.json:1:1: error\[E002\]: the file is larger than 10 MB \(10,485,760 bytes\)/.test(errors('huge.json')), 'huge: ' + errors('huge.json'));
    assert(/^exercises\/title\.json:3:\d+: error\[E007\]: \/exercises\/0\/title: this title is 5,242,880 characters long; a title may be at most 200/.test(errors('title.json')), 'title: ' + errors('title.json'));
    assert(/^exercises\/bad\.json:3:\d+: error\[E003\]: invalid JSON/.test(errors('bad.json')), 'bad: ' + errors('bad.json'));
    assert(/could not be fetched \(HTTP 404\)/.test(s.previews.find((p) => p.source === 'exercises/nowhere.json').fetch_error), 'missing pack');
    for (const p of s.previews) eq(p.exercises.length, 0, p.source + ': nothing playable');
    eq(s.packs, JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).packs.length, 'the course still loads');
    await shot(page, 'limits-preview-errors');
    // and works: an exercise opens and grades
    await openExercise(page, 'ring.volume');
    const ans = engineAnswer('ring.volume');
    await typeInto(page, 'part-phase', String(ans.parts[0].value), { commit: true });
    await typeInto(page, 'part-total', String(ans.parts[1].value), { commit: true });
    eq((await submit(page)).verdict, 'correct', 'a course exercise after the refused packs');
    eq(page.errors.filter((e) => !/HTTP 404/.test(e)).join('; '), '', 'page errors');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('limits: a course pack nested too deep is listed with its place; the other packs work', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-limits-'));
  fs.cpSync(dist, dir, { recursive: true });
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'exercises/index.json'), 'utf8'));
  index.packs.push('97-deep.json');
  fs.writeFileSync(path.join(dir, 'exercises/index.json'), JSON.stringify(index));
  const text = limitPack(97, '[{"id": "l.deep", "widget": ' + '{"a": '.repeat(30000) + '1' + '}'.repeat(30000) + '}]');
  fs.writeFileSync(path.join(dir, 'exercises/97-deep.json'), text);
  // Level 1 opens on line 1; level 257 is the 256th bracket of line 3.
  let col = 0;
  for (let n = 0; n < 256; col++) if ('[{'.includes(text.split('\n')[2][col])) n++;
  const srv = await serve(dir);
  try {
    const page = await newPage();
    await page.goto(srv.url);
    const s = await ready(page);
    const deep = s.problems.find((p) => p.file === '97-deep.json');
    assert(deep, 'deep pack listed: ' + JSON.stringify(s.problems));
    eq(deep.messages.join('\n'), `97-deep.json:3:${col}: error[E004]: nested deeper than 256 levels of arrays and objects`, 'message');
    eq(s.packs, index.packs.length - 1, 'the other packs loaded');
    await openExercise(page, 'ring.volume');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('limits: an exercise with the longest title and a 64 KB prompt opens and scrolls', async () => {
  const { dir, srv } = await watchedSite();
  try {
    fs.writeFileSync(path.join(dir, 'long.json'), longPromptPack());
    const page = await newPage();
    await page.goto(srv.url + '?pack=exercises/long.json');
    // (the course's packs too: while they are parsed a few a frame, the rows below them move)
    let s = await waitFor(page, "s.screen === 'course' && s.previews.length === 1 && !s.previews[0].loading && s.loading.length === 0 && !s.busy", 20000);
    eq(s.previews[0].errors.join('\n'), '', 'the longest allowed texts load');
    const t0 = Date.now();
    await click(page, 'ex-l.long');
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'l.long'", 20000);
    const ms = Date.now() - t0;
    // and each scroll through the prompt is drawn (every frame renders all of it)
    const scrolls = [];
    for (let i = 0; i < 3; i++) {
      const f0 = s.frame, t1 = Date.now();
      await page.mouse.wheel(0, 2000);
      s = await waitFor(page, `s.frame > ${f0}`);
      scrolls.push(Date.now() - t1);
    }
    // The waits above catch a page that hangs; the times are figures (make bench), not tests.
    console.log(`      64 KB prompt opened in ${ms} ms; a scroll drawn in ${scrolls.join(', ')} ms`);
    await shot(page, 'limits-long-prompt');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

// ---------------------------------------------------------------- the text layer (issue 14)

// The DOM lines of the text layer that are on screen, with their text's own rectangle.
async function layerLines(page) {
  return page.evaluate(() => {
    const out = [];
    const page = document.getElementById('dtx-page');
    const pr = page ? page.getBoundingClientRect() : null;
    for (const l of document.querySelectorAll('#dtx-layer .dtx-line')) {
      const range = document.createRange();
      range.selectNodeContents(l);
      const r = range.getBoundingClientRect();
      const inPage = page && page.contains(l);
      // on screen: inside the viewport, and inside the page's box for the page's lines
      const cy = r.y + r.height / 2;
      if (r.width <= 0 || cy < 0 || cy > innerHeight) continue;
      if (inPage && (cy < pr.top || cy > pr.bottom)) continue;
      out.push({ t: l.textContent, x: r.x, y: r.y, w: r.width, h: r.height, math: l.classList.contains('f-math'), link: l.tagName === 'A' ? l.href : null });
    }
    return out;
  });
}

// The DOM text lies on the drawn glyphs: every line's text rectangle is within 2 CSS px of the
// glyphs the frame drew for it (read back from the draw data), and every drawn run on screen
// has its words in the layer.
async function checkAlignment(page, what) {
  const lines = await layerLines(page);
  const drawn = await page.evaluate(() => window.dtx.drawnRuns());
  const vh = page.viewportSize().height;
  assert(lines.length > 5, `${what}: ${lines.length} lines in the text layer`);
  const squash = (t) => t.replace(/\s+/g, '');
  const used = new Set();
  let worst = 0;
  // Each drawn run belongs to the nearest line whose rectangle (2 px around it) holds its
  // centre: a full stop drawn right after a term link is the next line's, not the link's.
  const away = (d, l) => {
    const cx = d.x + d.w / 2, cy = d.y + d.h / 2;
    if (cx < l.x - 2 || cx > l.x + l.w + 2 || cy < l.y - 2 || cy > l.y + l.h + 2) return Infinity;
    return Math.max(0, l.x - cx, cx - (l.x + l.w)) + Math.max(0, l.y - cy, cy - (l.y + l.h));
  };
  const owner = drawn.map((d) => {
    let best = -1, dist = Infinity;
    lines.forEach((l, li) => { const a = away(d, l); if (a < dist) { dist = a; best = li; } });
    return best;
  });
  for (const [li, l] of lines.entries()) {
    const mine = drawn.filter((d, i) => {
      const inside = owner[i] === li;
      if (inside) used.add(i);
      return inside;
    });
    assert(mine.length > 0, `${what}: no drawn glyphs under "${l.t}" at (${l.x}, ${l.y})`);
    if (l.math) continue;  // a formula's glyphs rise and sink around its line; its text is plain
    eq(squash(mine.map((d) => d.t).join('')), squash(l.t), `${what}: the drawn text under the line at (${l.x.toFixed(1)}, ${l.y.toFixed(1)})`);
    const x0 = Math.min(...mine.map((d) => d.x)), x1 = Math.max(...mine.map((d) => d.x + d.w));
    const y0 = Math.min(...mine.map((d) => d.y)), y1 = Math.max(...mine.map((d) => d.y + d.h));
    const off = Math.max(Math.abs(x0 - l.x), Math.abs(x1 - (l.x + l.w)), Math.abs(y0 - l.y), Math.abs(y1 - (l.y + l.h)));
    worst = Math.max(worst, off);
    assert(off <= 2, `${what}: "${l.t}" is ${off.toFixed(2)} px from its glyphs (DOM ${l.x.toFixed(1)},${l.y.toFixed(1)} ${l.w.toFixed(1)}×${l.h.toFixed(1)}; drawn ${x0.toFixed(1)},${y0.toFixed(1)} ${(x1 - x0).toFixed(1)}×${(y1 - y0).toFixed(1)})`);
  }
  const missing = drawn.filter((d, i) => !used.has(i) && d.y >= 0 && d.y + d.h <= vh);
  assert(missing.length === 0, `${what}: drawn text with no words in the layer: ${missing.slice(0, 5).map((d) => `"${d.t}" at (${d.x.toFixed(0)}, ${d.y.toFixed(0)})`).join(', ')}`);
  return { lines: lines.length, worst };
}

// ---- images in pack texts: a PNG is written here (no image library in the tests) and the
// screenshot's pixels are read back (Playwright gives PNG bytes).
function crc32(buf) {
  let c, crc = 0xffffffff;
  for (const b of buf) {
    c = (crc ^ b) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
// A w x h PNG, every pixel [r, g, b, a].
function solidPng(w, h, rgba) {
  const head = Buffer.alloc(13);
  head.writeUInt32BE(w, 0);
  head.writeUInt32BE(h, 4);
  head.set([8, 6, 0, 0, 0], 8);  // 8 bits, RGBA
  const rows = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set(rgba, y * (w * 4 + 1) + 1 + x * 4);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), pngChunk('IHDR', head),
    pngChunk('IDAT', zlib.deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}
// The pixels of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are): {w, h, at(x, y)}.
function readPng(buf) {
  const w = buf.readUInt32BE(16), h = buf.readUInt32BE(20), bpp = buf[25] === 6 ? 4 : 3;
  const idat = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at), type = buf.toString('ascii', at + 4, at + 8);
    if (type === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp, px = Buffer.alloc(stride * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? px[y * stride + i - bpp] : 0, b = y > 0 ? px[(y - 1) * stride + i] : 0;
      const c = i >= bpp && y > 0 ? px[(y - 1) * stride + i - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + i] = (line[i] + pred) & 0xff;
    }
  }
  return { w, h, at: (x, y) => [...px.subarray(y * stride + x * bpp, y * stride + x * bpp + 3)] };
}

test('images: a PNG and SVGs from the pack\'s folder are drawn at their size within the column; a missing one and a dropped pack\'s say why; the alt text is in the text layer', async () => {
  const { dir, srv } = await watchedSite();
  try {
    const svg = (attrs, fill) => `<svg xmlns="http://www.w3.org/2000/svg" ${attrs}><rect width="100%" height="100%" fill="${fill}"/></svg>\n`;
    fs.mkdirSync(path.join(dir, 'img/e2e'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'img/e2e/red.png'), solidPng(40, 20, [208, 48, 47, 255]));
    fs.writeFileSync(path.join(dir, 'img/e2e/sized.svg'), svg('width="160" height="48" viewBox="0 0 160 48"', '#2f64c4'));
    fs.writeFileSync(path.join(dir, 'img/e2e/wide.svg'), svg('width="3000" height="300"', '#1e7a46'));
    fs.writeFileSync(path.join(dir, 'img/e2e/unsized.svg'), svg('viewBox="0 0 400 100"', '#b4530a'));
    const file = path.join(dir, '00-ring-allreduce.json');
    const pack = JSON.parse(fs.readFileSync(file, 'utf8'));
    const ex = pack.exercises.find((e) => e.id === 'ring.volume');
    ex.prompt = '![A red bar](img/e2e/red.png) ![A blue band](img/e2e/sized.svg)\n\n![A green strip](img/e2e/wide.svg)\n\n' +
      '![An orange band](img/e2e/unsized.svg)\n\n![The ring that is not there](img/e2e/nowhere.svg)\n\n' + ex.prompt;
    fs.writeFileSync(file, JSON.stringify(pack, null, 2));
    const want = ['A red bar', 'A blue band', 'A green strip', 'An orange band', 'The ring that is not there'];

    for (const [dpr, width, scheme] of [[1, 1280, 'light'], [2, 360, 'dark']]) {
      const page = await newPage({ viewport: { width, height: 900 }, deviceScaleFactor: dpr, colorScheme: scheme });
      await page.goto(srv.url);
      await ready(page);
      await openExercise(page, 'ring.volume');
      const s = await waitFor(page, `s.images.length === 5 && s.images.every((i) => i.state !== 'loading')`, 15000)
        .catch(async (e) => { throw new Error(e.message + ' images ' + JSON.stringify((await state(page)).images)); });
      const by = Object.fromEntries(s.images.map((i) => [i.alt, i]));
      eq(JSON.stringify(Object.keys(by).sort()), JSON.stringify([...want].sort()), 'the images drawn');
      const where = `at ${width} px, dpr ${dpr}`;
      // Read from the pack's folder, and drawn at natural size (CSS pixels), from a texture of
      // natural size x dpr: never larger.
      const red = by['A red bar'], blue = by['A blue band'], green = by['A green strip'], orange = by['An orange band'];
      assert(red.url === `${srv.url}exercises/img/e2e/red.png`, 'resolved next to the pack: ' + red.url);
      for (const [img, w, h] of [[red, 40, 20], [blue, 160, 48]]) {
        eq(img.state, 'loaded', `${img.alt} ${where}`);
        eq(`${img.w}x${img.h}`, `${w}x${h}`, `${img.alt}: its own size ${where}`);
        eq(img.texture.join('x'), `${w * dpr}x${h * dpr}`, `${img.alt}: texture ${where}`);
      }
      // Wider than the column: scaled down to it, aspect kept; an SVG without a size fills it.
      assert(green.column > 200 && green.column < width, `a column ${green.column} ${where}`);
      near(green.w, green.column, 1, `the 3000 px picture fills the column ${where}`);
      near(green.h, green.w / 10, 1, `its aspect ${where}`);
      eq(orange.fills_column, true, 'an SVG without width and height');
      near(orange.w, orange.column, 1, `the unsized SVG fills the column ${where}`);
      near(orange.h, orange.w / 4, 1, `its aspect from the viewBox ${where}`);
      assert(green.texture[0] <= green.column * dpr + 1, `no texture wider than drawn: ${green.texture} ${where}`);
      // The missing one: its alt text and why, drawn in a frame where the picture would be.
      const gone = by['The ring that is not there'];
      eq(gone.state, 'failed', 'the missing picture');
      eq(gone.reason, `image could not be loaded: ${srv.url}exercises/img/e2e/nowhere.svg`, 'why');
      assert(gone.w > 100 && gone.h > 20, 'a frame with words: ' + JSON.stringify(gone));
      // The text layer: each image is an image to a screen reader, named by its alt text; find
      // in page finds the alt text and the reason.
      await page.waitForFunction((n) => document.querySelectorAll('#dtx-layer [role="img"]').length === n, want.length, { timeout: 5000 });
      const layer = await page.evaluate(() => [...document.querySelectorAll('#dtx-layer [role="img"]')].map((n) => ({
        label: n.getAttribute('aria-label'), desc: n.getAttribute('aria-description'), text: n.textContent, r: n.getBoundingClientRect().toJSON() })));
      eq(JSON.stringify(layer.map((l) => l.label)), JSON.stringify(want), 'image elements in reading order');
      const missing = layer[4];
      eq(missing.desc, gone.reason, 'the reason is the missing image\'s description');
      assert(missing.text.includes('The ring that is not there') && missing.text.includes('could not be loaded'), 'its words: ' + missing.text);
      eq(await page.evaluate(() => window.find('The ring that is not there', false, false, true)), true, 'find in page finds the alt text');
      eq(await page.evaluate(() => window.find('A green strip', false, false, true)), true, 'and a drawn image\'s alt text');
      // The red PNG is on the canvas, where its element is: the screenshot's pixels there are red.
      await page.evaluate(() => window.getSelection().removeAllRanges());
      await page.evaluate(() => document.querySelector('#dtx-layer [role="img"]').scrollIntoView({ block: 'center' }));
      // (The scroll reaches the canvas a frame or two after the layer moves; on a loaded machine
      // the first look can come before that draw, so the pixel is looked at again, frame by
      // frame, for at least 20 frames and 20 seconds. The red must be where the element is in
      // the end.)
      let r, mid;
      const until = Date.now() + 20000;
      for (let tries = 0; tries < 20 || Date.now() < until; tries++) {
        await waitFor(page, `s.frame > ${(await state(page)).frame + 1}`);
        r = await page.evaluate(() => document.querySelector('#dtx-layer [role="img"][aria-label="A red bar"]').getBoundingClientRect().toJSON());
        const shotPng = readPng(await page.screenshot({ clip: { x: Math.round(r.x), y: Math.round(r.y), width: 40, height: 20 } }));
        mid = shotPng.at(Math.floor(shotPng.w / 2), Math.floor(shotPng.h / 2));
        if (Math.abs(mid[0] - 208) <= 6 && Math.abs(mid[1] - 48) <= 6 && Math.abs(mid[2] - 47) <= 6) break;
        await page.mouse.move(5 + (tries % 2), 5);  // an input event: the page draws frames only when something changes
      }
      near(r.width, 40, 1, 'the element covers the picture');
      assert(Math.abs(mid[0] - 208) <= 6 && Math.abs(mid[1] - 48) <= 6 && Math.abs(mid[2] - 47) <= 6, `the PNG's red on the canvas ${where}: ${mid}`);
      await shot(page, `images-${scheme}-${width}`);
      eq(page.errors.filter((e) => !e.endsWith('/exercises/img/e2e/nowhere.svg')).join('; '), '', 'page errors (the missing picture\'s 404 aside)');
      await page.context().close();
    }

    // axe (which needs eval: the policy is bypassed for it) finds nothing serious in the layer's
    // image elements, the missing one's included.
    {
      const page = await newPage({ bypassCSP: true });
      await page.goto(srv.url);
      await ready(page);
      await openExercise(page, 'ring.volume');
      await waitFor(page, `s.images.length === 5 && s.images.every((i) => i.state !== 'loading')`, 15000);
      await page.waitForFunction(() => document.querySelectorAll('#dtx-layer [role="img"]').length === 5, null, { timeout: 5000 });
      await axeAudit(page, 'an exercise with pictures, one missing');
      await page.context().close();
    }

    // A dropped pack has no folder: its relative picture says so; an https one is still asked for.
    const page = await newPage();
    page.cspExpected = true;  // the https picture is another origin: img-src refuses it
    await page.goto(srv.url);
    await ready(page);
    const dropped = JSON.stringify({ format: 1, chapter: 60, id: 'dropped', title: 'Dropped', exercises: [{ id: 'dropped.pic', type: 'numeric',
      title: 'Pictures', prompt: '![A local picture](img/e2e/red.png)\n\n![A picture elsewhere](https://example.com/ring.png)\n\nHow many?',
      parts: [{ id: 'n', answer: '2', unit: '' }] }] });
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        document.getElementById('canvas').dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, dropped);
    await waitFor(page, 's.items.some((i) => i.id === "ex-dropped.pic")');
    await click(page, 'ex-dropped.pic');
    const s = await waitFor(page, `s.exercise === 'dropped.pic' && s.images.length === 2 && s.images.every((i) => i.state === 'failed')`, 15000)
      .catch(async (e) => { throw new Error(e.message + ' images ' + JSON.stringify((await state(page)).images)); });
    const local = s.images.find((i) => i.alt === 'A local picture'), far = s.images.find((i) => i.alt === 'A picture elsewhere');
    assert(/img\/e2e\/red\.png is a path relative to the pack's folder, and a dropped file has no folder/.test(local.reason), 'dropped: ' + local.reason);
    assert(/^image could not be loaded: https:\/\/example\.com\/ring\.png \(blocked by this site's Content-Security-Policy: img-src/.test(far.reason),
      'another origin: ' + far.reason);
    assert(page.csp.length > 0 && page.csp.every((v) => v.directive === 'img-src' && v.blocked.startsWith('https://example.com/')),
      'only the other origin\'s picture was refused: ' + JSON.stringify(page.csp));
    await shot(page, 'images-dropped');
    await page.context().close();
  } finally {
    srv.stop();
  }
});

test('text layer: a drag copies a prompt sentence exactly; a double-click selects a word; find reaches a scrolled-out explanation and the canvas shows it', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 560 }, permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(server.url);
  await ready(page);
  const id = 'ring.volume';
  await openExercise(page, id);
  await waitFor(page, 's.layer_runs > 10');
  // Before: the page's text is in the document (a canvas alone has none).
  const body = await page.evaluate(() => document.body.innerText);
  assert(body.includes('Bytes each GPU sends'), 'the title is in the document: ' + body.slice(0, 200));
  // 1. The prompt's first sentence, as the CLI prints it (maths as readable text), is dragged
  // over from its first to its last character and copied with Ctrl+C.
  const shown = execFileSync(path.join(ROOT, 'build/native/dtx'), ['show', id], { encoding: 'utf8', cwd: ROOT }).split('\n');
  const sentence = shown[2];
  assert(sentence.startsWith('8 GPUs') && sentence.includes('10⁹'), 'the first paragraph: ' + sentence);
  const ends = await page.evaluate((sentence) => {
    const p = [...document.querySelectorAll('#dtx-page p')].find((e) => e.textContent.replace(/\s+/g, ' ').trim().startsWith(sentence.slice(0, 20)));
    const lines = [...p.querySelectorAll('.dtx-line')];
    const a = lines[0].getBoundingClientRect(), b = lines[lines.length - 1].getBoundingClientRect();
    return { a: { x: a.x, y: a.y + a.height / 2 }, b: { x: b.x + b.width, y: b.y + b.height / 2 } };
  }, sentence);
  await page.mouse.move(ends.a.x + 1, ends.a.y);
  await page.mouse.down();
  await page.mouse.move(ends.b.x - 1, ends.b.y, { steps: 10 });
  await page.mouse.up();
  eq(await page.evaluate(() => window.getSelection().toString()), sentence, 'selected text');
  await page.keyboard.press('Control+C');
  eq(await page.evaluate(() => navigator.clipboard.readText()), sentence, 'clipboard after Ctrl+C');
  await shot(page, 'text-layer-selection');
  // 2. A double-click selects one word.
  const word = await page.evaluate(() => {
    const l = [...document.querySelectorAll('#dtx-page .dtx-line')].find((e) => e.textContent.includes('gradient'));
    const i = l.textContent.indexOf('gradient');
    const range = document.createRange();
    range.setStart(l.firstChild, i + 2);
    range.setEnd(l.firstChild, i + 3);
    const r = range.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.mouse.dblclick(word.x, word.y);
  eq((await page.evaluate(() => window.getSelection().toString())).trim(), 'gradient', 'double-clicked word');
  await page.evaluate(() => window.getSelection().removeAllRanges());
  // 3. Solved, the explanation is drawn below the fold; find locates a word of it, and the
  // canvas scrolls to where it is (the drawn glyphs then include it, on screen).
  const ans = engineAnswer(id);
  for (const p of ans.parts) await typeInto(page, `part-${p.id}`, String(p.value), { commit: true });
  let s = await submit(page);
  eq(s.verdict, 'correct', 'verdict');
  s = await waitFor(page, 's.explanation === true');
  const phrase = 'creeps';
  assert(ans.explanation.includes(phrase), 'the explanation has the phrase');
  const onScreen = async () => (await page.evaluate(() => window.dtx.drawnRuns()))
    .some((d) => d.t.includes('creeps') && d.y >= 0 && d.y + d.h <= page.viewportSize().height);
  assert(!(await onScreen()), 'the explanation starts out of view (a taller window would not test find)');
  eq(await page.evaluate((w) => window.find(w, false, false, true), phrase), true, 'window.find');
  const f0 = (await state(page)).frame;
  await waitFor(page, `s.frame > ${f0 + 1}`);
  for (let i = 0; i < 20 && !(await onScreen()); i++) await new Promise((r) => setTimeout(r, 100));
  assert(await onScreen(), 'the canvas shows the found words');
  const sel = await page.evaluate(() => { const r = window.getSelection().getRangeAt(0).getBoundingClientRect(); return { y: r.y, h: r.height, t: window.getSelection().toString() }; });
  eq(sel.t, phrase, 'found text selected');
  const run = (await page.evaluate(() => window.dtx.drawnRuns())).find((d) => d.t.includes('creeps'));
  near(sel.y, run.y, 2, 'the highlight sits on the drawn words');
  await shot(page, 'text-layer-find');
  // (Links are real links: the links test.)
  await page.context().close();
});

test('text layer: DOM text lies within 2 CSS px of the drawn glyphs on three screens at dpr 1, 2 and 3', async () => {
  const figures = [];
  for (const dpr of [1, 2, 3]) {
    const page = await newPage({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: dpr });
    await page.goto(server.url);
    await ready(page);
    await waitFor(page, 's.layer_runs > 10');
    let r = await checkAlignment(page, `course map at dpr ${dpr}`);
    figures.push(`course ${r.lines} lines ≤ ${r.worst.toFixed(2)} px`);
    await openExercise(page, 'ring.volume');
    await waitFor(page, "s.layer_runs > 10");
    await new Promise((res) => setTimeout(res, 200));
    r = await checkAlignment(page, `ring.volume at dpr ${dpr}`);
    figures.push(`exercise ${r.lines} ≤ ${r.worst.toFixed(2)}`);
    await page.goto(server.url + '#/lab/pipeline');
    await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.kind === 'pipeline'");
    await new Promise((res) => setTimeout(res, 300));
    r = await checkAlignment(page, `Lab pipeline at dpr ${dpr}`);
    figures.push(`lab ${r.lines} ≤ ${r.worst.toFixed(2)}`);
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  }
  console.log('      ' + figures.join('; '));
});

// ---------------------------------------------------------------- screen readers (issue 14)


// axe-core, injected by the test (its context allows it: bypassCSP), on the whole document:
// the violations of impact serious or critical, and the others for the note. Label in name
// (a control's spoken name holds its visible words) is checked too.
const AXE_SOURCE = () => fs.readFileSync(path.join(ROOT, 'build/node/node_modules/axe-core/axe.min.js'), 'utf8');
const axeMinor = new Map();
async function axeAudit(page, where) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const found = await page.evaluate(async (src) => {
    if (!window.axe) (0, eval)(src);
    // (label-content-name-mismatch, WCAG 2.5.3 label in name, is experimental in axe: asked for)
    const r = await window.axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, html: v.nodes[0].html.slice(0, 160), why: v.nodes[0].failureSummary }));
  }, AXE_SOURCE());
  const bad = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of found) if (!bad.includes(v)) axeMinor.set(`${v.id} (${v.impact})`, where);
  assert(bad.length === 0, `axe on ${where}: ${bad.map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes, e.g. ${v.html}): ${v.why}`).join('; ')}`);
  return found.length;
}

test('screen reader: every exercise type solved with the accessibility tree to find and the keyboard to act; axe finds nothing serious before or after', async () => {
  const page = await newPage({ bypassCSP: true });
  const cdp = await page.context().newCDPSession(page);
  // (The text layer follows the engine's state a frame or more later, so the tree is read once
  // it holds the exercise's title, not at a fixed frame.)
  const open = async (id, title) => {
    await page.goto(`${server.url}#/ex/${id}`);
    const s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && !s.busy`, 20000);
    await waitFor(page, `s.frame > ${s.frame + 1}`);
    await axUntil(cdp, (t) => t.some((n) => n.role === 'heading' && n.name === title), `${id}: the title is a heading`);
    await axeAudit(page, `${id} before grading`);
    return axTree(cdp);
  };
  // Submits with Enter; the grade is read where a screen reader hears it: the live region's
  // sentence, the same words as the engine's spoken feedback.
  const submitsCorrect = async (key, id, timeout = 8000) => {
    const before = (await state(page)).graded;
    await press(page, key);
    const s = await waitFor(page, `s.graded > ${before}`, timeout);
    await waitFor(page, `s.frame > ${s.frame + 1}`);
    const tree = await axUntil(cdp, (t) => t.some((n) => n.name === s.spoken) && t.some((n) => n.role === 'heading' && n.name.endsWith('Correct')),
      `${id}: the verdict in the tree`).catch(() => axTree(cdp));  // (the asserts below say what is missing)
    const said = tree.filter((n) => n.name.startsWith('Correct.')).map((n) => n.name);
    assert(said.length > 0, `${id}: no "Correct." in the accessibility tree (the verdict was ${s.verdict}: ${s.spoken})`);
    assert(said.some((t) => t === s.spoken), `${id}: the live region says the engine's sentence "${s.spoken}"; the tree has ${JSON.stringify(said)}`);
    assert(tree.some((n) => n.role === 'heading' && n.name.endsWith('Correct')), `${id}: the verdict is a heading`);
    await axeAudit(page, `${id} after grading`);
    return tree;
  };
  const names = (tree, role) => tree.filter((n) => n.role === role).map((n) => n.name);

  // One exercise of each type, solved by the steps in its folder (types/<type>/e2e.mjs,
  // `screenReader`): find its controls in the accessibility tree, act with keys; `submitKey`
  // (Enter unless said) sends it, and `heard` checks the tree after the grade.
  const types = await typeModules();
  const missing = types.filter((t) => !t.module.screenReader).map((t) => t.type);
  assert(!missing.length, `types with no screen-reader steps in their e2e.mjs: ${missing.join(', ')}`);
  for (const { type, module: { screenReader: sr } } of types) {
    const ans = engineAnswer(sr.id);
    const tree = await open(sr.id, ans.title);
    assert(tree.some((n) => n.role === 'heading' && n.name === ans.title), `${type}: the title is a heading`);
    await sr.solve(page, cdp, ans, tree, { assert, eq, names });
    const after = await submitsCorrect(sr.submitKey || 'Enter', type, sr.timeout);
    if (sr.heard) sr.heard(after, ans, { assert, eq });
  }
  await page.context().close();
});

test('screen reader: a proxy activated as assistive technology does (its click) presses its control; a widget describes its state; axe on the map, the Lab, Settings and every type in both themes', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await newPage({ bypassCSP: true, colorScheme: scheme });
    const cdp = await page.context().newCDPSession(page);
    await page.goto(server.url);
    await ready(page);
    await axeAudit(page, `the course map (${scheme})`);
    if (scheme === 'light') {
      // A chapter is a heading holding a button that expands it; a screen reader's "click"
      // (the default action, a click event on the proxy) opens it, as a click on the canvas does.
      const tree = await axTree(cdp);
      const ch = tree.find((n) => n.role === 'button' && /^Chapter 3: /.test(n.name));
      assert(ch && ch.expanded === 'false', 'chapter 3 is a collapsed expander: ' + JSON.stringify(ch));
      await page.evaluate(() => [...document.querySelectorAll('#dtx-layer .dtx-ctl')].find((e) => /^Chapter 3: /.test(e.getAttribute('aria-label'))).click());
      await waitFor(page, "s.items.some((i) => i.id.startsWith('ex-') && i.id.includes('batch'))").catch(() => null);
      const isOpen = (n) => n.role === 'button' && /^Chapter 3: /.test(n.name) && n.expanded === 'true';
      const after = (await axUntil(cdp, (t) => t.some(isOpen), 'the chapter opened by its proxy')).find(isOpen);
      eq((await axFocused(cdp) || {}).name, after.name, 'the activated control has the focus');
      // A screen reader moving its focus (DOM focus on a proxy) moves the page's focus ring.
      await page.evaluate(() => document.querySelector('#dtx-layer .dtx-ctl[aria-label="Settings"]').focus());
      await waitFor(page, "s.focus === 'nav-settings'");
    }
    for (const id of (await typeModules()).map((t) => t.module.screenReader.id)) {  // one of every type
      await page.goto(`${server.url}#/ex/${id}`);
      const s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && !s.busy`, 20000);
      await waitFor(page, `s.frame > ${s.frame + 1}`);
      await axeAudit(page, `${id} (${scheme})`);
      // graded: an empty answer (a numeric part empty, no option...) is answered with words
      const g = (await state(page)).graded;
      await press(page, 'Control+Enter');
      await waitFor(page, `s.graded > ${g}`, 15000);
      await axeAudit(page, `${id} after grading (${scheme})`);
    }
    for (const kind of ['ring', 'pipeline', 'plan', 'hierarchy', 'roofline']) {
      await page.goto(`${server.url}#/lab/${kind}`);
      const s = await waitFor(page, `s.screen === 'lab' && s.widget && s.widget.kind === '${kind}'`, 20000);
      await waitFor(page, `s.frame > ${s.frame + 1}`);
      await axeAudit(page, `the ${kind} widget (${scheme})`);
      if (scheme !== 'light') continue;
      // its description: read from the tree, found by find in page
      const desc = await page.evaluate(() => { const d = document.querySelector('#dtx-layer .dtx-desc'); return d && d.textContent; });
      assert(desc && desc.length > 40, `the ${kind} widget has a description: ${desc}`);
      assert((await axTree(cdp)).some((n) => n.role === 'StaticText' && n.name === desc), `the ${kind} description is in the tree`);
    }
    // the ring's description follows its steps: step 2 after two presses of Step
    if (scheme === 'light') {
      await page.goto(`${server.url}#/lab/ring`);
      await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.kind === 'ring'", 20000);
      await click(page, 'ring-step');
      await click(page, 'ring-step');
      const s = await waitFor(page, 's.widget.step === 2');
      const desc = await page.evaluate(() => new Promise((resolve) => {
        const t0 = performance.now();
        const poll = () => {
          const d = document.querySelector('#dtx-layer .dtx-desc');
          if ((d && d.textContent.includes('Step 2 of')) || performance.now() - t0 > 3000) resolve(d && d.textContent);
          else setTimeout(poll, 50);
        };
        poll();
      }));
      assert(desc.includes(`Step 2 of ${s.widget.steps}, reduce-scatter next`), 'the ring description at step 2: ' + desc);
      assert(await page.evaluate(() => window.find('chunks are fully summed', false, false, true)), 'find in page finds the description');
      // the Lab and dtx sim print the same figure the same way (engine/figures.h): same inputs
      // (the defaults), same words for the bytes each rank sends and the time
      const cli = execFileSync(path.join(ROOT, 'build/native/dtx'), ['sim', 'ring'], { encoding: 'utf8' });
      const perRank = cli.match(/sent \d+ B \(([^)]+)\)/)[1], time = cli.match(/^time +(\S+ \S+)/m)[1];
      assert(desc.includes(`Whole collective: ${perRank} sent per rank, ${time}.`), `the ring description and dtx sim ring (${perRank}, ${time}): ${desc}`);
      // pipeline: what each stage does at the cursor
      await page.goto(`${server.url}#/lab/pipeline?schedule=1f1b&p=4&m=8`);
      await waitFor(page, "s.screen === 'lab' && s.widget && s.widget.p === 4", 20000);
      await page.waitForTimeout(300);
      const pd = await page.evaluate(() => document.querySelector('#dtx-layer .dtx-desc').textContent);
      assert(/Bubble: idle over total [\d.]+%/.test(pd) && pd.includes('stage 0 runs F1 (forward), stage 1 is idle'), 'the pipeline description: ' + pd);
    }
    await page.goto(`${server.url}#/settings`);
    await waitFor(page, "s.screen === 'settings'", 20000);
    await axeAudit(page, `Settings (${scheme})`);
    await page.context().close();
  }
  console.log(`      axe, minor violations left: ${[...axeMinor.entries()].map(([k, w]) => `${k} on ${w}`).join('; ') || 'none'}`);
});

// ---------------------------------------------------------------- one file per exercise type
// types/<type>/e2e.mjs: a type's browser tests, registered with the same helpers.
for (const { module } of await typeModules())
  if (module.default) module.default({ test, newPage, keyboardOnlyPage, tabUntil, assert, eq, near, server: () => server });

// Course mode: an assignment solved by three students and graded by `dtx report`.
(await import(path.join(ROOT, 'tests/e2e/course.mjs'))).default({ test, newPage, assert, eq, server: () => server, checkPhoneScreen });
(await import(path.join(ROOT, 'tests/e2e/scorm.mjs'))).default({ test, newPage, assert, eq, dist });
(await import(path.join(ROOT, 'tests/e2e/sources.mjs'))).default({ test, newPage, assert, eq, server: () => server });
(await import(path.join(ROOT, 'tests/e2e/offline.mjs'))).default({ test, newPage, assert, eq, server: () => server, dist });
(await import(path.join(ROOT, 'tests/e2e/report.mjs'))).default({ test, newPage, assert, eq, server: () => server, dist });
(await import(path.join(ROOT, 'tests/e2e/statement.mjs'))).default({ test, newPage, assert, eq, server: () => server, axeAudit });
(await import(path.join(ROOT, 'tests/e2e/orientation.mjs'))).default({ test, newPage, assert, eq, server: () => server });
(await import(path.join(ROOT, 'tests/e2e/search.mjs'))).default({ test, newPage, assert, eq, server: () => server, axeAudit });
(await import(path.join(ROOT, 'tests/e2e/practice.mjs'))).default({ test, newPage, assert, eq, server: () => server, axeAudit });
(await import(path.join(ROOT, 'tests/e2e/glossary.mjs'))).default({ test, newPage, assert, eq, server: () => server, axeAudit });
(await import(path.join(ROOT, 'tests/e2e/review.mjs'))).default({ test, newPage, assert, eq, server: () => server, axeAudit });
(await import(path.join(ROOT, 'tests/e2e/page.mjs'))).default({ test, newPage, assert, eq, server: () => server });
(await import(path.join(ROOT, 'tests/e2e/first-screen.mjs'))).default({ test, newPage, assert, eq, server: () => server, dist, axeAudit });

// ---------------------------------------------------------------- runner

// Shards of equal length: each test's time from the last recorded run (tests/e2e/durations.json,
// rewritten by --record-durations), the longest placed first, each on the shard with the least
// so far; a test with no record counts as the median. Every shard computes the same split.
// (Round robin put 231 s in one shard and 178 s in the other.)
const durationsPath = path.join(ROOT, 'tests/e2e/durations.json');
const recorded = fs.existsSync(durationsPath) ? JSON.parse(fs.readFileSync(durationsPath, 'utf8')) : {};
const known = Object.values(recorded).sort((a, b) => a - b);
const median = known.length ? known[known.length >> 1] : 1000;
const shardOf = new Map();
{
  const load = new Array(shard[1]).fill(0);
  const order = tests.map((t, i) => ({ i, ms: recorded[t.name] ?? median })).sort((a, b) => b.ms - a.ms || a.i - b.i);
  for (const { i, ms } of order) {
    const k = load.indexOf(Math.min(...load));
    shardOf.set(i, k);
    load[k] += ms;
  }
}
const record = argv.includes('--record-durations');
const took = {};

server = await serve(dist);
browser = await launch(TEST_ARGS);
let failed = 0, ran = 0;
for (const [i, t] of tests.entries()) {
  if (only && !t.name.includes(only)) continue;
  if (shardOf.get(i) !== shard[0] - 1) continue;
  if (returning && t.fresh) {
    console.log(`-    ${t.name} (fresh profile only: ${t.fresh})`);
    continue;
  }
  current = t;
  ran++;
  const t0 = Date.now();
  pagesOfTest = [];
  try {
    await t.fn();
    const refused = pagesOfTest.filter((p) => !p.cspExpected).flatMap((p) => p.csp.map((v) => v.text));
    if (refused.length) throw new Error('Content-Security-Policy violations: ' + refused.join('; '));
    console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    took[t.name] = Date.now() - t0;
  } catch (e) {
    failed++;
    // The whole message (some carry a log), then where it was thrown.
    const where = String(e.stack || '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 3);
    console.log(`FAIL ${t.name} (${Date.now() - t0} ms)\n     ${[String(e.message || e), ...where.map((l) => l.trim())].join('\n     ')}`);
  }
}
await browser.close();
server.stop();
for (const d of [...profileDirs, returningProfileDir].filter(Boolean)) {
  try { fs.rmSync(d, { recursive: true, force: true, maxRetries: 3 }); } catch (e) { /* a temporary folder */ }
}
if (record) {  // merged into the file, so shards run one after another each add theirs
  const now = fs.existsSync(durationsPath) ? JSON.parse(fs.readFileSync(durationsPath, 'utf8')) : {};
  const names = new Set(tests.map((t) => t.name));
  const merged = Object.fromEntries(Object.entries({ ...now, ...took }).filter(([n]) => names.has(n)).sort());
  fs.writeFileSync(durationsPath, JSON.stringify(merged, null, 1) + '\n');
}
console.log(failed ? `${failed} of ${ran} browser tests failed` : `all ${ran} browser tests run passed (of ${tests.length}); screenshots in build/e2e/`);
process.exit(failed ? 1 : 0);
