// Helpers for the browser tests: a static server for dist/, Chromium through playwright-core,
// and actions that go through the real mouse, touch and keyboard at the positions window.dtx
// reports (the hook only reads; it never acts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'build/node/'));
const { chromium } = require('playwright-core');

// Debian's Chromium has no headless shell: `headless` is the whole browser, and every new
// context opens a window whose omnibox popup (a WebUI page, chrome://omnibox-popup.top-chrome)
// is preloaded in its own renderer. That renderer cost 1.5 CPU-s per context, a third of a
// page start, on a 2-core machine that runs two browser suites side by side; these features
// turn it off. Chromium keeps only the last --disable-features, so Playwright's own list
// (chromiumSwitches.ts in playwright-core) is repeated here.
const PLAYWRIGHT_DISABLED_FEATURES = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose',
  'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'OptimizationHints',
  'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch'];
const TOP_CHROME_WEBUI_FEATURES = ['PreloadTopChromeWebUI', 'WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = ['--no-sandbox', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--force-device-scale-factor=1',
  '--disable-features=' + [...PLAYWRIGHT_DISABLED_FEATURES, ...TOP_CHROME_WEBUI_FEATURES].join(',')];

// For the test suites only: V8 keeps dtx.wasm in its baseline tier (Liftoff). With tiering on,
// every new page compiled the hot part of the engine again with TurboFan, 1.5 CPU-s on
// background threads against 1 CPU-s for the rest of a page start, in a suite that starts
// some 50 pages; a test waits on frames, not on the engine's speed. The benchmarks measure
// the browser as students have it, with tiering (launch() without this).
export const TEST_ARGS = ['--js-flags=--liftoff-only'];

export function launch(extraArgs = []) {
  const args = CHROMIUM_ARGS.filter((a) => !extraArgs.some((e) => e.split('=')[0] === a.split('=')[0])).concat(extraArgs);
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args });
}

// A browser on a profile folder of its own (a returning student's: its service worker and
// storage are in the folder); resolves with its one context.
export function launchProfile(dir, extraArgs = [], opts = {}) {
  const args = CHROMIUM_ARGS.filter((a) => !extraArgs.some((e) => e.split('=')[0] === a.split('=')[0])).concat(extraArgs);
  return chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, args, ...opts });
}

// Serves `dir` with scripts/serve.mjs on a free port; resolves with {url, stop}.
export function serve(dir, base = '/', extraArgs = []) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), dir, '--port', '0', '--base', base, '--quiet', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:\d+\S*/);
      if (m) resolve({ url: m[0], stop: () => p.kill() });
    });
    p.stderr.on('data', (d) => { out += d; });
    p.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

// The engine's own answer for an instance, from the CLI (same engine as the page).
// Asked once per instance and run (openExercise asks for every exercise it opens); each
// caller gets its own copy.
const answers = new Map();
export function engineAnswer(id, seed = 0) {
  const key = `${id}#${seed}`;
  if (!answers.has(key)) {
    const dtx = path.join(ROOT, 'build/native/dtx');
    answers.set(key, execFileSync(dtx, ['show', id, '--seed', String(seed), '--answer', '--json'], { cwd: ROOT }).toString());
  }
  return JSON.parse(answers.get(key));
}

export async function state(page) { return page.evaluate(() => window.dtx.state); }

// Waits for a drawn frame whose state satisfies `pred` (a JS expression over `s`).
export async function waitFor(page, pred, timeoutMs = 10000) {
  return page.evaluate(async ([p, t]) => {
    // (a failure names the predicate it waited for, below)
    // (made before any await: the page's policy allows no eval, and only the evaluation's own
    // synchronous part may compile a string)
    const pred = new Function('s', 'return (' + p + ');');
    // (a page the service worker serves runs glue.js, which makes window.dtx, after its first
    // paint, which may come after the load event: web/shell/first-screen/engine-files.js startEngine)
    const until = Date.now() + t;
    while (!(window.dtx && window.dtx.waitFor)) {
      if (Date.now() > until) throw new Error('window.dtx never appeared: glue.js did not run');
      await new Promise((r) => setTimeout(r, 20));
    }
    return window.dtx.waitFor(pred, t);
  }, [pred, timeoutMs]).catch((e) => {
    throw new Error(`waiting for ${pred}: ${e.message}`);
  });
}

export async function ready(page) {
  return waitFor(page, "s.screen === 'course' && !s.busy", 20000);
}

export async function findItem(page, id, { scroll = true } = {}) {
  for (let i = 0; i < 120; i++) {
    const s = await waitFor(page, 'true');
    const vp = page.viewportSize();
    const it = s.items.find((x) => x.id === id);
    if (it && it.y >= 0 && it.y + Math.min(it.h, 20) <= vp.height) return it;
    if (!scroll) break;
    // Not visible: scroll the page with the wheel toward it (down unless it is above).
    const dir = it && it.y < 0 ? -1 : 1;
    await page.mouse.move(vp.width / 2, vp.height / 2);
    await page.mouse.wheel(0, dir * 300);
    await page.waitForTimeout(60);
  }
  const s = await state(page);
  throw new Error(`item "${id}" not found on screen; items: ${s.items.map((x) => x.id).join(', ')}`);
}

// Clicks an item and waits until a frame after the click has been drawn, so what follows
// (typing, another click) reaches the page in a later frame, as a person's would.
export async function click(page, id) {
  const it = await findItem(page, id);
  let x = it.x + Math.min(it.w / 2, 40), y = it.y + it.h / 2;
  let f = (await state(page)).frame;
  await page.mouse.move(x, y);  // the pointer arrives before it presses
  const s = await waitFor(page, `s.frame > ${f}`);
  // The item may have moved in that frame (a chapter parsed above it): press where it is now.
  const now = (s.items || []).find((i) => i.id === id);
  if (now && (now.x !== it.x || now.y !== it.y)) {
    x = now.x + Math.min(now.w / 2, 40);
    y = now.y + now.h / 2;
    await page.mouse.move(x, y);
    f = (await state(page)).frame;
    await waitFor(page, `s.frame > ${f}`);
  }
  await page.mouse.click(x, y);
  f = (await state(page)).frame;
  await waitFor(page, `s.frame > ${f}`);
  return it;
}

export async function tap(page, id) {
  const it = await findItem(page, id);
  await page.touchscreen.tap(it.x + Math.min(it.w / 2, 40), it.y + it.h / 2);
  return it;
}

// Presses a key (or chord) and lets a frame see it before the next one, as a person would.
export async function press(page, key) {
  const f = (await state(page)).frame;
  await page.keyboard.press(key);
  await waitFor(page, `s.frame > ${f + 1}`);
}

// { commit: true } enters each line as one input event, the way a phone keyboard or an IME
// commits text, instead of a key press per character (each of which the page draws: about 70 ms a
// character on the test machine). Tests whose subject is the text, not the keys, use it; the
// keys themselves are tested by the numeric, ordering and "typed faster than frames" tests.
export async function typeInto(page, id, text, { commit = false } = {}) {
  const it = await click(page, id);
  await afterClick(page, id, it, `s.text_input === true && s.active === ${JSON.stringify(id)}`);
  await press(page, 'Control+A');
  await press(page, 'Backspace');
  if (commit) {
    // a keyboard commits a line at a time; Enter is a key
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) await page.keyboard.press('Enter');
      if (lines[i]) await page.keyboard.insertText(lines[i]);
    }
  } else {
    await page.keyboard.type(text);
  }
  // let the typed characters reach the field before anything else happens
  const f = (await state(page)).frame;
  await waitFor(page, `s.frame > ${f + 1}`);
}

// Waits for what a click on item `id` (where `it` was when clicked) should bring; when it does
// not come, says where the item is now and what the page made of the input (a rare failure
// under load is then a report, not a guess).
export async function afterClick(page, id, it, pred, timeoutMs) {
  try {
    return await waitFor(page, pred, timeoutMs);
  } catch (e) {
    const now = await state(page);
    const at = (now.items || []).find((x) => x.id === id);
    throw new Error(`${e.message}\n     the click on ${id}: item then ${JSON.stringify(it)}, now ${JSON.stringify(at)}; ` +
      `active ${JSON.stringify(now.active)}, text_input ${now.text_input}, frame ${now.frame}, busy ${now.busy}; ` +
      `input log (frame event):\n${await page.evaluate(() => window.dtx.inputLog())}`);
  }
}

// Types a value into an ImGui slider: Ctrl+click turns it into a text field.
export async function setSlider(page, id, value) {
  const it = await findItem(page, id);
  const x = it.x + it.w / 2, y = it.y + it.h / 2;
  await page.mouse.move(x, y);
  await page.keyboard.down('Control');
  let f = (await state(page)).frame;
  await waitFor(page, `s.frame > ${f}`);
  await page.mouse.click(x, y);
  f = (await state(page)).frame;
  await waitFor(page, `s.frame > ${f}`);
  await page.keyboard.up('Control');
  try {
    await waitFor(page, `s.text_input === true && s.active === ${JSON.stringify(id)}`);
  } catch (e) {
    // Say where the click went and what the page made of it (a rare failure under load).
    const now = await state(page);
    const at = now.items.find((x) => x.id === id);
    throw new Error(`Ctrl+click at (${x}, ${y}) on slider ${id} did not start its text field: item then ${JSON.stringify(it)}, ` +
      `now ${JSON.stringify(at)}; active ${JSON.stringify(now.active)}, text_input ${now.text_input}, frame ${now.frame}, busy ${now.busy}; ` +
      `input log (frame event):\n${await page.evaluate(() => window.dtx.inputLog())}`);
  }
  await press(page, 'Control+A');
  await press(page, 'Backspace');
  await page.keyboard.type(String(value));
  await press(page, 'Enter');
}

export async function openExercise(page, id) {
  await waitFor(page, "['course', 'exercise', 'settings', 'lab'].includes(s.screen)");
  const s = await state(page);
  if (s.screen !== 'course') await click(page, 'nav-course');
  const ex = engineAnswer(id);
  const chapter = `chapter-${ex.chapter}`;
  // open the chapter if its exercises are not listed
  const listed = (await state(page)).items.some((x) => x.id === `ex-${id}`);
  if (!listed) await click(page, chapter);
  try {
    await click(page, `ex-${id}`);
  } catch (e) {
    // Only visible items are reported: the chapter was open with the exercise off screen,
    // and the click above closed it. Open it again; scrolling then finds the exercise.
    await click(page, chapter);
    await click(page, `ex-${id}`);
  }
  return waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)}`);
}

export async function submit(page) {
  const before = (await state(page)).graded;
  const it = await click(page, 'submit');
  return afterClick(page, 'submit', it, `s.graded > ${before}`, 8000);
}

export async function shot(page, name) {
  const dir = path.join(ROOT, 'build/e2e');
  await page.screenshot({ path: path.join(dir, name + '.png') });
}

// The words of the text layer (what the canvas draws, as DOM text), spaces normalised.
export async function layerText(page) {
  return page.evaluate(() => (document.getElementById('dtx-layer') || document.body).textContent.replace(/\s+/g, ' '));
}

export async function waitForLayer(page, pred, what) {
  try {
    await page.waitForFunction((p) => new Function('t', 'return (' + p + ');')(
      (document.getElementById('dtx-layer') || document.body).textContent.replace(/\s+/g, ' ')), pred, { timeout: 8000 });
  } catch (e) {
    throw new Error(`text layer: ${what}: ${(await layerText(page)).slice(0, 600)}`);
  }
}

// A finger on the canvas: down at the first point, through the others a frame apart, up at the
// last; `holdMs` still at the first point before moving (a long press).
export async function touchPath(page, points, holdMs = 0) {
  await page.evaluate(async ([pts, hold]) => {
    const c = document.getElementById('canvas');
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const t = ([x, y]) => new Touch({ identifier: 7, target: c, clientX: x, clientY: y });
    const send = (type, p, down) => c.dispatchEvent(new TouchEvent(type, { touches: down ? [t(p)] : [], changedTouches: [t(p)], bubbles: true, cancelable: true }));
    send('touchstart', pts[0], true);
    await frame();
    await frame();
    if (hold) await new Promise((r) => setTimeout(r, hold));
    for (const p of pts.slice(1)) { send('touchmove', p, true); await frame(); }
    send('touchend', pts[pts.length - 1], false);
    await frame();
    await frame();
  }, [points, holdMs]);
}

// Each exercise type's browser module (types/<type>/e2e.mjs), by type name, in the engine's
// order (`dtx types`: numeric first), so tests that solve one of each go as a student would.
export async function typeModules() {
  const dir = path.join(ROOT, 'types');
  const out = [];
  let order = [];
  try {
    order = JSON.parse(execFileSync(path.join(ROOT, 'build/native/dtx'), ['types', '--json']).toString()).types.map((t) => t.name);
  } catch (e) { /* folder order */ }
  const rank = (t) => (order.indexOf(t) < 0 ? order.length : order.indexOf(t));
  for (const type of fs.readdirSync(dir).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))) {
    const file = path.join(dir, type, 'e2e.mjs');
    if (fs.existsSync(path.join(dir, type)) && fs.statSync(path.join(dir, type)).isDirectory())
      out.push({ type, module: fs.existsSync(file) ? await import(file) : {} });
  }
  return out;
}

// Tab (no more than `max` presses) until the state satisfies `pred`; each press lets a frame
// see it, as a person's would.
export async function tabUntil(page, pred, what, max = 60) {
  const trail = [];
  const ok = new Function('s', 'return (' + pred + ');');
  for (let i = 0; i < max; i++) {
    let s = await state(page);
    if (ok(s)) return s;
    // A field reached by Tab starts typing a frame or two after the focus lands on it: two
    // more frames before the next Tab (which, typed into the code editor, would indent). A Tab
    // wakes the page for three frames, so both come.
    for (let k = 0; k < 2; k++) {
      s = await waitFor(page, `s.frame > ${s.frame}`, 2000).catch(() => s);
      if (ok(s)) return s;
    }
    trail.push(s.focus || s.active || '-');
    await press(page, 'Tab');
  }
  throw new Error(`Tab never reached ${what}; focus went ${trail.join(' > ')}`);
}

// Replaces the text of the code editor being typed in: Ctrl+A, Backspace, then a line at a
// time, as a keyboard commits it (Enter is a key; the per-key path is the numeric part's).
export async function replaceCodeByKeys(page, code) {
  await press(page, 'Control+A');
  await press(page, 'Backspace');
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) await page.keyboard.press('Enter');
    if (lines[i]) await page.keyboard.insertText(lines[i]);
  }
}

// Chromium's accessibility tree (what a screen reader reads), through CDP: the nodes that are
// not ignored, as {role, name, focused, checked, pressed, expanded}.
export async function axTree(cdp) {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  return nodes.filter((n) => !n.ignored).map((n) => {
    const o = { role: n.role ? n.role.value : '', name: n.name ? String(n.name.value) : '' };
    for (const p of n.properties || []) if (['focused', 'checked', 'pressed', 'expanded'].includes(p.name)) o[p.name] = p.name === 'focused' ? p.value.value : String(p.value.value);
    return o;
  });
}

// The tree once `pred(tree)` holds: the text layer is rebuilt on the frame after the engine's
// state changes, so a screen's nodes arrive a frame or two after the hook names the screen.
export async function axUntil(cdp, pred, what, timeoutMs = 8000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const tree = await axTree(cdp);
    if (pred(tree)) return tree;
    if (Date.now() > end) throw new Error(`accessibility tree: ${what}: ` + JSON.stringify(tree.filter((n) => n.role === 'heading' || n.role === 'link' || n.role === 'textbox').slice(0, 30)));
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function axFocused(cdp) {
  return (await axTree(cdp)).find((n) => n.focused && n.role !== 'RootWebArea') || null;
}

// Tab (keys only) until the node with the screen reader's focus is `role` named by `name`
// (a string it starts with, or a test).
export async function tabToAx(page, cdp, role, name, max = 80) {
  const ok = (n) => n && n.role === role && (typeof name === 'string' ? n.name.startsWith(name) : name(n.name));
  const trail = [];
  for (let i = 0; i < max; i++) {
    const f = await axFocused(cdp);
    if (ok(f)) return f;
    trail.push(f ? `${f.role} "${f.name.slice(0, 30)}"` : '-');
    await press(page, 'Tab');
    await page.waitForTimeout(30);  // the layer follows the focus in the frame after the key
  }
  throw new Error(`Tab never put the screen reader on ${role} "${name}"; it went ${trail.slice(-12).join(' > ')}`);
}
