// Figures for the web build (run by scripts/bench.sh, so by `make bench`, after `make dist`).
//
//   node scripts/bench-web.mjs [DIST_DIR] [--runs N] [--idle-ms MS]     defaults: dist/, 5, 5000
//
// 1. transfer size of dist/ per file, raw, gzip -9 and brotli -11 (node's zlib), and totals;
// 2. in headless Chromium, one fresh browser context (cold cache) per run: time from
//    navigation start to the first paint (the loading line), the first drawn frame, the first
//    complete frame (fonts and pack index ready, the loading text hidden), the course map
//    usable (screen 'course', at least one "ex-" item) and every pack in; then as many cold
//    loads of a link to an exercise of the last pack, to that exercise drawn with its Submit
//    button: median, min and max of the runs;
//    then a second visit (the service worker installed), and a returning student (stored
//    progress on an exercise of every type, a setting) on a first visit of the day (the
//    browser started again on the same profile), a second visit and an offline start;
// 3. frames drawn in 5 s of idleness on the course map (the page should draw none);
// 4. the wasm heap size once every pack is loaded.
//
// Times are read in the page with performance.now(), which counts from navigation start.
// A benchmark reports figures and never fails on one: the exit status is non-zero only
// when the page cannot be loaded at all.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
// The browser tests' flags (tests/e2e/lib.mjs): among them, no omnibox WebUI renderer per
// context, which headless Debian Chromium starts and which would be counted in every load.
import { CHROMIUM_ARGS } from '../tests/e2e/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- arguments
const argv = process.argv.slice(2);
let distDir = path.join(ROOT, 'dist');
let runs = 5;
let idleMs = 5000;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Math.max(1, Number(argv[++i]) || 5);
  else if (argv[i] === '--idle-ms') idleMs = Math.max(0, Number(argv[++i]) || 0);
  else distDir = path.resolve(argv[i]);
}
const SETTLE_MS = 1000;       // after the map is usable, before the idle window opens
const LOAD_TIMEOUT_MS = 30000;
const VIEWPORT = { width: 1280, height: 800 };

function fail(msg) {
  console.error(`bench-web: ${msg}`);
  process.exit(1);
}
// Thrown inside main() so that the browser and the server are stopped before the exit.
class Fatal extends Error {}

if (!fs.existsSync(path.join(distDir, 'index.html'))) fail(`${distDir}/index.html not found; run \`make dist\` first`);

let chromium;
try {
  ({ chromium } = createRequire(path.join(ROOT, 'build/node/'))('playwright-core'));
} catch (e) {
  fail(`playwright-core not found under ${path.join(ROOT, 'build/node/node_modules')} (${e.code || e.message}); run \`make dist\` (deps-browser installs it)`);
}

const t_start = Date.now();

// ---- formatting
const kb = (n) => (n / 1024).toFixed(1);
const ms = (v) => (v == null ? '-' : v.toFixed(0));
function table(header, rows, alignLeft = [0]) {
  const all = [header, ...rows.filter((r) => r !== null)];
  const w = header.map((_, c) => Math.max(...all.map((r) => String(r[c]).length)));
  const fmt = (r) => r.map((v, c) => (alignLeft.includes(c) ? String(v).padEnd(w[c]) : String(v).padStart(w[c]))).join('  ');
  console.log(fmt(header));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) console.log(r === null ? w.map((n) => '-'.repeat(n)).join('  ') : fmt(r));
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ---- 1. transfer size
function listFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (e.isFile() && !/\.(gz|br)$/.test(e.name)) out.push(p);  // the precompressed copies are the same files
  }
  return out;
}

function transferSizes() {
  console.log(`== transfer size of ${path.relative(ROOT, distDir) || distDir}/ (gzip -9 and brotli -11 by node's zlib) ==`);
  const files = listFiles(distDir).map((f) => {
    const buf = fs.readFileSync(f);
    return {
      name: path.relative(distDir, f).split(path.sep).join('/'),
      raw: buf.length,
      gz: zlib.gzipSync(buf, { level: 9 }).length,
      br: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  }).sort((a, b) => b.raw - a.raw || a.name.localeCompare(b.name));
  const rows = files.map((f) => [f.name, f.raw, kb(f.raw), f.gz, kb(f.gz), (f.gz / f.raw * 100).toFixed(0) + '%', f.br, kb(f.br)]);
  const sum = (k) => files.reduce((s, f) => s + f[k], 0);
  const raw = sum('raw'), gz = sum('gz'), br = sum('br');
  rows.push(null, [`total (${files.length} files)`, raw, kb(raw), gz, kb(gz), (gz / raw * 100).toFixed(0) + '%', br, kb(br)]);
  // What the first visit downloads: the page, its scripts, the wasm, the fonts and every pack.
  table(['file', 'raw (B)', 'raw (KiB)', 'gzip (B)', 'gzip (KiB)', 'gz/raw', 'brotli (B)', 'brotli (KiB)'], rows);
  console.log();
  return files;
}

// ---- the server
function startServer(dir = distDir) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), dir, '--port', '0', '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:\d+\/\S*/);
      if (m && !done) { done = true; resolve({ url: m[0], proc: p }); }
    });
    p.stderr.on('data', (d) => { out += d; });
    p.on('error', (e) => { if (!done) { done = true; reject(e); } });
    p.on('exit', (code) => { if (!done) { done = true; reject(new Error(`server exited (${code}): ${out.trim()}`)); } });
  });
}

// Installed before any page script: glue.js assigns window.dtx, and at that moment (before
// the wasm runs) this wraps it to note, in navigation-start milliseconds, the first drawn
// frame, the first complete frame (when glue.js sets firstFrameMs) and the first frame with
// a usable course map. dtx.waitFor only wakes the frame loop once the engine is ready, which
// it is not yet here, so this changes nothing the page does.
function pageProbe() {
  const B = (window.__dtxBench = { firstDrawn: null, firstComplete: null, usable: null, usableFrame: null, htmlMap: null, engineMap: null });
  // The run is over: a console message, which the bench waits for without touching the page
  // (a waitForFunction injects Playwright's script while the page loads: 27 ms of its main
  // thread in a trace, which the plain page never paid). A link to an exercise is done when
  // the exercise is usable; the map when it is drawn by the engine with every pack in; either
  // as soon as the page shows its own error (onAbort, no WebGL 2).
  const deep = !/^(#\/?)?(chapter\/\d+\/?)?$/.test(location.hash);
  let said = false;
  const check = () => {
    if (said) return;
    const l = document.getElementById('loading');
    const failed = !!l && l.className === 'error';
    const done = B.firstComplete != null && (deep ? B.exerciseUsable != null : B.engineMap != null && B.allPacks != null);
    if (!done && !failed) return;
    said = true;
    clearInterval(timer);
    console.debug('dtx-bench-done');
  };
  const timer = setInterval(check, 100);  // (the error line; the rest also calls check)
  B.check = check;
  // The HTML first screen (scripts/first-screen.mjs): when its first exercise link was painted
  // (each carries elementtiming="dtx-map"; a hidden one, on another address, never paints).
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        // a linked exercise in HTML (scripts/first-views.mjs), answer controls and Submit with
        // it: usable, as the engine's takes what is entered there (app_first_view_answer)
        if (e.identifier === 'dtx-exercise' && B.htmlExercise == null) {
          B.htmlExercise = e.renderTime || e.loadTime;
          if (B.deepUsable == null || B.htmlExercise < B.deepUsable) B.deepUsable = B.htmlExercise;
        }
        if (e.identifier !== 'dtx-map' || B.htmlMap != null) continue;
        B.htmlMap = e.renderTime || e.loadTime;
        if (B.usable == null || B.htmlMap < B.usable) B.usable = B.htmlMap;
      }
    }).observe({ type: 'element', buffered: true });
  } catch (e) { /* no Element Timing: the engine's map only */ }
  let hook;
  Object.defineProperty(window, 'dtx', {
    configurable: true,
    enumerable: true,
    get() { return hook; },
    set(v) {
      hook = v;
      let ff = v.firstFrameMs;
      Object.defineProperty(v, 'firstFrameMs', {
        configurable: true,
        enumerable: true,
        get() { return ff; },
        set(x) { if (B.firstComplete == null && x != null) { B.firstComplete = performance.now(); setTimeout(check, 0); } ff = x; },
      });
      v.waitFor(() => true, 600000).then(() => { B.firstDrawn = performance.now(); }, () => {});
      // usable: the map lists a chapter's exercises (others may still be loading), in HTML
      // (above) or drawn by the engine, whichever comes first
      v.waitFor((s) => s.screen === 'course' && s.items.some((i) => i.id.startsWith('ex-')), 600000)
        .then((s) => {
          B.engineMap = performance.now();
          B.usableFrame = s.frame;
          if (B.usable == null) B.usable = B.engineMap;
          check();
        }, () => {});
      // a deep link: the exercise is drawn with its Submit button
      v.waitFor((s) => s.screen === 'exercise' && s.items.some((i) => i.id === 'submit'), 600000)
        .then(() => {
          B.exerciseUsable = performance.now();
          if (B.deepUsable == null) B.deepUsable = B.exerciseUsable;
          check();
        }, () => {});
      // every pack in, nothing loading
      v.waitFor((s) => s.screen !== 'loading' && !s.busy && Array.isArray(s.loading) && s.loading.length === 0, 600000)
        .then((s) => { B.allPacks = performance.now(); B.allPacksFrame = s.frame; check(); }, () => {});
    },
  });
}

// The first exercise of the last pack in exercises/index.json.
function lastPackExercise() {
  try {
    const index = JSON.parse(fs.readFileSync(path.join(distDir, 'exercises/index.json'), 'utf8'));
    const pack = JSON.parse(fs.readFileSync(path.join(distDir, 'exercises', index.packs[index.packs.length - 1]), 'utf8'));
    return pack.exercises[0].id;
  } catch { return null; }
}

// One cold load; with `idle`, also the idle frame count and the heap size.
async function oneRun(browser, url, packCount, idle) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const errors = [];
  try {
    await context.addInitScript(pageProbe);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e.message || e)));
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text()); });
    page.on('response', (res) => {
      if (res.status() >= 400) errors.push(`HTTP ${res.status()} for ${res.url()}`);
    });
    // (listening before the navigation: the page says when it is done, pageProbe)
    const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'dtx-bench-done', timeout: LOAD_TIMEOUT_MS });
    done.catch(() => {});
    const resp = await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    if (!resp || !resp.ok()) throw new Error(`GET ${url}: HTTP ${resp ? resp.status() : 'no response'}`);
    try {
      await done;
    } catch (e) {
      const s = await page.evaluate(() => window.dtx && window.dtx.state && { screen: window.dtx.state.screen, busy: window.dtx.state.busy, packs: window.dtx.state.packs, frame: window.dtx.state.frame }).catch(() => null);
      throw new Error(`the course map was not usable within ${LOAD_TIMEOUT_MS / 1000} s; last state: ${JSON.stringify(s)}`);
    }
    const pageError = await page.evaluate(() => {
      const l = document.getElementById('loading');
      return l && l.className === 'error' ? l.textContent : null;
    });
    if (pageError) throw new Error(`the page reports: ${pageError}`);
    const r = await page.evaluate(() => {
      const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
      const mark = (n) => { const m = performance.getEntriesByName(n)[0]; return m ? m.startTime : null; };
      return { ...window.__dtxBench, glueFirstFrameMs: window.dtx.firstFrameMs, firstPaint: fcp ? fcp.startTime : null,
        engineDownloaded: mark('dtx:engine-downloaded'), engineCompiled: mark('dtx:engine-compiled'), engineRunning: mark('dtx:engine-running'),
        fontsIn: mark('dtx:fonts-in'), fontsBuilt: mark('dtx:fonts-built'), indexIn: mark('dtx:index-in'), firstPackIn: mark('dtx:first-pack-in'),
        screenLaidOut: mark('dtx:first-screen-laid-out'), screenDrawn: mark('dtx:first-screen-drawn'),
        outlineIn: mark('dtx:outline-in'),
        // every file and when it was in; the stretches of pack parsing (web/main_web.cpp)
        resources: performance.getEntriesByType('resource').map((e) => ({ name: e.name, end: e.responseEnd })),
        parses: performance.getEntriesByName('dtx:packs-parsed').map((e) => ({ start: e.startTime, ms: e.duration })) };
    });
    if (idle) {
      // Nothing touches the page from here: page.evaluate reads dtx.state without waking it.
      await page.waitForTimeout(SETTLE_MS);
      const a = await page.evaluate(() => ({ frame: window.dtx.state.frame, t: performance.now() }));
      await page.waitForTimeout(idleMs);
      const b = await page.evaluate(() => ({ frame: window.dtx.state.frame, t: performance.now(), screen: window.dtx.state.screen }));
      r.settleFrames = a.frame - r.usableFrame;
      r.idleFrames = b.frame - a.frame;
      r.idleWindowMs = b.t - a.t;
      r.idleScreen = b.screen;
      r.idleFrameRange = [a.frame, b.frame];
      // heap once every pack is loaded (waitFor wakes the page; the idle window is over)
      const h = await page.evaluate(async (n) => {
        const s = await window.dtx.waitFor((st) => !st.busy && st.packs >= n, 10000).catch(() => window.dtx.state);
        return { heap: window.dtx.heapBytes(), packs: s.packs };
      }, packCount);
      r.heapBytes = h.heap;
      r.packs = h.packs;
    }
    return { ...r, errors };
  } catch (e) {
    e.pageErrors = errors;
    throw e;
  } finally {
    await context.close().catch(() => {});
  }
}

// The plain reference page (tests/bench/plain/index.html; scripts/serve.mjs serves a folder with an index.html): its first contentful paint, cold.
async function plainRun(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    const fcp = await page.waitForFunction(() => {
      const e = performance.getEntriesByType('paint').find((x) => x.name === 'first-contentful-paint');
      return e ? e.startTime : null;
    }, null, { timeout: LOAD_TIMEOUT_MS, polling: 20 });
    return fcp.jsonValue();
  } finally {
    await context.close().catch(() => {});
  }
}

// Resolves once `page` has loaded every pack and the service worker controls it with this
// build installed (polled: waitForFunction takes an async predicate's promise for a true answer).
async function workerInstalled(page) {
  const installed = () => page.evaluate(async () => {
    const B = window.__dtxBench;
    if (!B || B.allPacks == null || !navigator.serviceWorker.controller) return false;
    const hit = await (await caches.open('dtx-meta')).match('__dtx/current');
    return !!hit && (await hit.text()) === window.dtx.version;
  });
  const deadline = Date.now() + 60000;
  while (!(await installed())) {
    if (Date.now() > deadline) throw new Error('the service worker did not install this build within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

// A second visit: one visit in a context (the service worker installs the site), then the
// same address opened again in it, timed like a first visit.
async function secondVisit(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, serviceWorkers: 'allow' });
  try {
    await context.addInitScript(pageProbe);
    const first = await context.newPage();
    await first.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await workerInstalled(first);
    await first.close();
    const page = await context.newPage();
    const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'dtx-bench-done', timeout: LOAD_TIMEOUT_MS });
    done.catch(() => {});
    await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await done;
    return await page.evaluate(() => ({ usable: window.__dtxBench.usable, htmlMap: window.__dtxBench.htmlMap,
      engineMap: window.__dtxBench.engineMap, fromWorker: !!navigator.serviceWorker.controller }));
  } finally {
    await context.close().catch(() => {});
  }
}

// A returning student's record: an exercise of every type tried, a theme chosen.
function returningRecord() {
  const outline = JSON.parse(fs.readFileSync(path.join(distDir, 'exercises/outline.json'), 'utf8'));
  const byType = new Map();
  for (const p of outline.packs) for (const e of p.exercises || []) if (!byType.has(e.type)) byType.set(e.type, e.id);
  const exercises = {};
  let t = 1700000000;
  for (const id of byType.values()) exercises[id] = { attempts: 1, by_writer: { '1700000000-bench': 1 }, best: 0.5, solved_at: 0, last_at: ++t };
  return { format: 'dtx-progress', version: 2, exercises, streak: { current: 0, best: 1, last_day: '2020-01-01' },
    last_exercise: [...byType.values()].pop(), last_exercise_at: t };
}

// A returning student on a profile of its own: one visit installs the site and stores the
// record; then, by `mode`, the browser is started again on that profile ('day': the first
// visit of a day, no worker running, nothing in memory), or the same browser opens the site
// again ('second'), or opens it with the network off ('offline'). Timed like a first visit.
async function returningVisit(url, mode) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-bench-profile-'));
  const open = async () => {
    const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true,
      args: CHROMIUM_ARGS, viewport: VIEWPORT, deviceScaleFactor: 1, serviceWorkers: 'allow' });
    await ctx.addInitScript(pageProbe);
    return ctx;
  };
  let ctx = await open();
  try {
    const first = await ctx.newPage();
    await first.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await workerInstalled(first);
    await first.evaluate((r) => { localStorage.setItem('dtx.progress', JSON.stringify(r)); localStorage.setItem('dtx.theme', 'light'); }, returningRecord());
    if (mode === 'day') {
      await ctx.close();
      ctx = await open();
    } else {
      await first.close();
    }
    if (mode === 'offline') await ctx.setOffline(true);
    const page = await ctx.newPage();
    const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'dtx-bench-done', timeout: LOAD_TIMEOUT_MS });
    done.catch(() => {});
    await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    await done;
    return await page.evaluate(() => ({ usable: window.__dtxBench.usable, htmlMap: window.__dtxBench.htmlMap,
      engineMap: window.__dtxBench.engineMap, fromWorker: !!navigator.serviceWorker.controller,
      late: window.dtx.lateCode().state + ' ' + window.dtx.lateCode().how }));
  } finally {
    await ctx.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Bytes a gzip server sends before `until` (ms from navigation start): each file whose answer
// was complete by then, at its gzip -9 size from the transfer table.
function gzipBefore(r, until, sizes, origin) {
  let total = sizes.get('index.html') || 0;
  const names = ['index.html'];
  for (const e of r.resources || []) {
    if (e.end > until || !e.name.startsWith(origin)) continue;
    const rel = decodeURIComponent(new URL(e.name).pathname.slice(1)) || 'index.html';
    if (!sizes.has(rel) || names.includes(rel)) continue;
    names.push(rel);
    total += sizes.get(rel);
  }
  return { total, names };
}

async function main() {
  const sizeTable = transferSizes();
  const gzSize = new Map(sizeTable.map((f) => [f.name, f.gz]));

  let packCount = 0;
  try { packCount = JSON.parse(fs.readFileSync(path.join(distDir, 'exercises/index.json'), 'utf8')).packs.length; } catch { /* unknown */ }

  let server, plainServer;
  try {
    server = await startServer();
    plainServer = await startServer(path.join(ROOT, 'tests/bench/plain'));
  } catch (e) { fail(`cannot start scripts/serve.mjs: ${e.message}`); }
  const stopServer = () => {
    for (const s of [server, plainServer]) if (s && s.proc.exitCode == null) s.proc.kill();
  };
  process.on('exit', stopServer);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stopServer(); process.exit(130); });

  let browser;
  try {
    try {
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    } catch (e) {
      throw new Fatal(`cannot launch /usr/bin/chromium: ${e.message.split('\n')[0]}`);
    }
    const version = browser.version();
    console.log(`== page load, headless Chromium ${version} (swiftshader), ${VIEWPORT.width}x${VIEWPORT.height}, ` +
      `${runs} runs, each in a fresh context (cold cache), ${server.url} ==`);

    const results = [];
    const failures = [];
    const plain = [];
    for (let i = 0; i < runs; i++) {
      const last = i === runs - 1;
      // the plain page just before each dtx run, so both see the same machine
      try { plain.push(await plainRun(browser, plainServer.url)); } catch (e) { console.log(`plain page run ${i + 1}: FAILED: ${e.message.split('\n')[0]}`); }
      try {
        const r = await oneRun(browser, server.url, packCount, last);
        results.push(r);
        console.log(`run ${i + 1}: first paint ${ms(r.firstPaint)} ms, course map usable ${ms(r.usable)} ms ` +
          `(HTML ${ms(r.htmlMap)}, engine's ${ms(r.engineMap)}), every pack in ${ms(r.allPacks)} ms`);
        for (const pe of r.errors.slice(0, 3)) console.log(`    page console error: ${pe.split('\n')[0]}`);
      } catch (e) {
        failures.push(e);
        console.log(`run ${i + 1}: FAILED: ${e.message.split('\n')[0]}`);
        for (const pe of (e.pageErrors || []).slice(0, 5)) console.log(`    page: ${pe}`);
        if (results.length === 0 && i === 0) {
          // The first load failed: the page cannot be loaded; more runs would only wait longer.
          throw new Fatal(`the page at ${server.url} could not be loaded in headless Chromium (see above)`);
        }
      }
    }
    if (results.length === 0) throw new Fatal('no run loaded the page');
    // A link to an exercise of the last pack listed: it opens as soon as that pack is in.
    const deepId = lastPackExercise();
    const deep = [];
    if (deepId) {
      for (let i = 0; i < runs; i++) {
        try {
          const r = await oneRun(browser, server.url + '#/ex/' + deepId, packCount, false);
          deep.push(r);
          console.log(`deep link #/ex/${deepId}, run ${i + 1}: first paint ${ms(r.firstPaint)} ms, exercise usable ${ms(r.deepUsable)} ms (HTML ${ms(r.htmlExercise)}, engine's ${ms(r.exerciseUsable)})`);
        } catch (e) {
          console.log(`deep link run ${i + 1}: FAILED: ${e.message.split('\n')[0]}`);
        }
      }
    }
    const second = [];
    for (let i = 0; i < runs; i++) {
      try {
        const r = await secondVisit(browser, server.url);
        second.push(r);
        console.log(`second visit, run ${i + 1}: course map usable ${ms(r.usable)} ms (HTML ${ms(r.htmlMap)}, engine's ${ms(r.engineMap)})` +
          `${r.fromWorker ? ' (from the service worker)' : ' (NOT from the service worker)'}`);
      } catch (e) {
        console.log(`second visit run ${i + 1}: FAILED: ${e.message.split('\n')[0]}`);
      }
    }
    const returning = { day: [], second: [], offline: [] };
    const returningNames = { day: 'first visit of the day', second: 'second visit', offline: 'offline start' };
    for (let i = 0; i < runs; i++) {
      for (const mode of Object.keys(returning)) {
        try {
          const r = await returningVisit(server.url, mode);
          returning[mode].push(r);
          console.log(`returning student, ${returningNames[mode]}, run ${i + 1}: course map usable ${ms(r.usable)} ms ` +
            `(HTML ${ms(r.htmlMap)}, engine's ${ms(r.engineMap)}); second part ${r.late}${r.fromWorker ? '' : ' (NOT from the service worker)'}`);
        } catch (e) {
          console.log(`returning student, ${returningNames[mode]}, run ${i + 1}: FAILED: ${e.message.split('\n')[0]}`);
        }
      }
    }
    console.log();

    const rows = [
      ['plain reference page: first contentful paint', (r) => r, plain],
      ['first paint (the HTML map, or the loading line)', (r) => r.firstPaint],
      ['  HTML map: first exercise link painted', (r) => r.htmlMap],
      ['  engine downloaded (dtx.wasm)', (r) => r.engineDownloaded],
      ['  engine compiled', (r) => r.engineCompiled],
      ['  engine running (main done)', (r) => r.engineRunning],
      ['  pack index in (exercises/index.json)', (r) => r.indexIn],
      ['  all four fonts in', (r) => r.fontsIn],
      ['  font atlas built', (r) => r.fontsBuilt],
      ['  first pack in the library', (r) => r.firstPackIn],
      ['  first screen laid out (ImGui)', (r) => r.screenLaidOut],
      ['  first screen drawn (GL handed over)', (r) => r.screenDrawn],
      ['first drawn frame (any screen)', (r) => r.firstDrawn],
      ['first complete frame (loading text hidden)', (r) => r.firstComplete],
      ["engine's course map drawn (a chapter listed)", (r) => r.engineMap],
      ['course map usable (HTML or engine, the first)', (r) => r.usable],
      ['every pack in', (r) => r.allPacks],
      ['  dtx.firstFrameMs (from glue.js start)', (r) => r.glueFirstFrameMs],
      [`exercise usable from a deep link (#/ex/${deepId || '-'}; HTML or engine)`, (r) => r.deepUsable, deep],
      ['  its HTML view painted', (r) => r.htmlExercise, deep],
      ["  the engine's exercise drawn", (r) => r.exerciseUsable, deep],
      ['second visit: course map usable', (r) => r.usable, second],
      ["second visit: engine's course map drawn", (r) => r.engineMap, second],
      ...Object.keys(returning).flatMap((m) => [
        [`returning student, ${returningNames[m]}: course map usable`, (r) => r.usable, returning[m]],
        [`returning student, ${returningNames[m]}: engine's course map drawn`, (r) => r.engineMap, returning[m]],
      ]),
    ].map(([name, get, from = results]) => {
      const xs = from.map(get).filter((v) => typeof v === 'number');
      if (!xs.length) return [name, '-', '-', '-'];
      return [name, ms(median(xs)), ms(Math.min(...xs)), ms(Math.max(...xs))];
    });
    console.log(`time from navigation start (ms), ${results.length} of ${runs} runs:`);
    table(['milestone', 'median', 'min', 'max'], rows);
    console.log();

    // What the start is made of (medians): each phase as the span between its milestones.
    const med = (get, from = results) => {
      const xs = from.map(get).filter((v) => typeof v === 'number');
      return xs.length ? median(xs) : null;
    };
    const parseBefore = (r) => (r.parses || []).filter((p) => p.start < r.engineMap).reduce((a, p) => a + p.ms, 0);
    const phases = [
      ['fetch: navigation to dtx.wasm downloaded', (r) => r.engineDownloaded],
      ['wasm compile (streamed; after the last byte)', (r) => r.engineCompiled - r.engineDownloaded],
      ['engine start (main)', (r) => r.engineRunning - r.engineCompiled],
      ['font atlas build', (r) => r.fontsBuilt - r.fontsIn],
      ["pack parse before the engine's map", parseBefore],
      ['pack parse, all packs', (r) => (r.parses || []).reduce((a, p) => a + p.ms, 0)],
      ['first layout (ImGui)', (r) => r.screenLaidOut - r.fontsBuilt],
      ['first draw (GL)', (r) => r.screenDrawn - r.screenLaidOut],
    ].map(([n, get]) => [n, ms(med(get))]);
    console.log('the start in phases (median ms):');
    table(['phase', 'ms'], phases);
    console.log();

    // The targets of issue 19, against the plain page measured in the same runs.
    const p = med((x) => x, plain);
    const origin = new URL(server.url).origin;
    const gz = results.map((r) => gzipBefore(r, r.usable, gzSize, origin));
    const gzMed = med((g) => g.total, gz);
    const gzEngine = results.map((r) => gzipBefore(r, r.engineMap, gzSize, origin));
    const engineMed = med((r) => r.engineMap), secondEngine = med((r) => r.engineMap, second);
    const usable = med((r) => r.usable), deepMed = med((r) => r.deepUsable, deep), secondMed = med((r) => r.usable, second);
    const ratio = (v) => (v != null && p ? (v / p).toFixed(2) + 'x' : '-');
    const verdict = (ok) => (ok == null ? '-' : ok ? 'met' : 'NOT met');
    console.log(`targets (medians; the plain page's first contentful paint: ${ms(p)} ms):`);
    table(['target', 'measured', 'limit', ''], [
      ['course map usable <= 3 x plain page', `${ms(usable)} ms = ${ratio(usable)}`, p ? `${ms(3 * p)} ms` : '-', verdict(usable != null && p ? usable <= 3 * p : null)],
      ['gzip transferred before the map is usable', `${kb(gzMed || 0)} KiB`, '400.0 KiB', verdict(gzMed != null ? gzMed <= 400 * 1024 : null)],
      ['deep link to an exercise usable <= 3.5 x plain', `${ms(deepMed)} ms = ${ratio(deepMed)}`, p ? `${ms(3.5 * p)} ms` : '-', verdict(deepMed != null && p ? deepMed <= 3.5 * p : null)],
      ['second visit usable <= 1.5 x plain', `${ms(secondMed)} ms = ${ratio(secondMed)}`, p ? `${ms(1.5 * p)} ms` : '-', verdict(secondMed != null && p ? secondMed <= 1.5 * p : null)],
    ]);
    // A returning student beside today's visitors (no target of its own): the HTML map stands
    // in until the engine, which starts with both parts for a stored record, draws its own.
    for (const m of Object.keys(returning)) {
      const u = med((r) => r.usable, returning[m]), en = med((r) => r.engineMap, returning[m]);
      console.log(`returning student, ${returningNames[m]}: map usable ${ms(u)} ms = ${ratio(u)}, the engine's map ${ms(en)} ms = ${ratio(en)}`);
    }
    // The engine's own exercise, for the record: the HTML view stands in for it until then.
    const deepEngine = med((r) => r.exerciseUsable, deep);
    console.log(`the engine's exercise drawn from a deep link: ${ms(deepEngine)} ms = ${ratio(deepEngine)}`);
    // The engine's own map, for the record: no target of its own, the HTML map stands in for it.
    console.log(`the engine's map drawn: ${ms(engineMed)} ms = ${ratio(engineMed)} (first visit), ` +
      `${ms(secondEngine)} ms = ${ratio(secondEngine)} (second visit), after ${kb(med((g) => g.total, gzEngine) || 0)} KiB gzip`);
    if (gz.length) {
      const g = gz[gz.length - 1];
      console.log(`files in before the map was usable (last run, gzip -9 KiB): ` +
        g.names.map((n) => `${n} ${kb(gzSize.get(n))}`).join(', '));
    }
    console.log();

    const r = results[results.length - 1];
    if (r.idleFrames != null) {
      console.log(`== idle on the course map (last run) ==`);
      console.log(`frames drawn in the ${(SETTLE_MS / 1000).toFixed(0)} s after the map became usable: ${r.settleFrames}`);
      console.log(`frames drawn in ${(r.idleWindowMs / 1000).toFixed(2)} s of idleness that followed: ${r.idleFrames}` +
        `  (frame counter ${r.idleFrameRange[0]} -> ${r.idleFrameRange[1]}, screen '${r.idleScreen}'; expected 0)`);
      console.log();
      console.log(`== wasm heap (last run, ${r.packs} of ${packCount || '?'} packs loaded) ==`);
      const hb = Number(r.heapBytes);
      console.log(Number.isFinite(hb)
        ? `heap: ${hb} bytes = ${(hb / 1048576).toFixed(2)} MiB (${(hb / 1e6).toFixed(2)} MB)`
        : `heap: unknown (dtx.heapBytes() returned ${r.heapBytes})`);
      console.log();
    } else {
      console.log('(the last run failed: no idle frame count, no heap size)\n');
    }
  } finally {
    if (browser) await browser.close().catch(() => {});
    stopServer();
  }
  console.log(`bench-web: done in ${((Date.now() - t_start) / 1000).toFixed(1)} s`);
}

main().catch((e) => fail(e instanceof Fatal ? e.message : e.stack || e.message));
