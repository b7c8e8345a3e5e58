#!/usr/bin/env node
// Splits the page's engine in two (run by scripts/build-dist.sh):
//
//   node scripts/split-wasm.mjs WASM_BUILD_DIR DIST
//
// dtx_web is linked with -sSPLIT_MODULE (CMakeLists.txt): WASM_BUILD_DIR/dtx.wasm comes out
// instrumented (it counts which functions run) and dtx.wasm.orig is the plain module. This
// opens the course map's start on the instrumented module in headless Chromium, a few ways a
// student sees it first (a desktop window, a phone, dark mode, the keyboard, scrolling, the
// text layer a second later), with its second part held back, so the profile holds what the
// first screen runs and nothing parsing a pack or opening an exercise needs. wasm-split then writes:
//   DIST/dtx.wasm           what those starts ran: fetched before the map is usable;
//   DIST/dtx.deferred.wasm  the rest (packs' parsing, grading, the exercise views, the
//                           widgets): fetched after the first screen (web/shell/glue/late-code.js).
// The profile is kept in WASM_BUILD_DIR/split-profile/ under a hash of the module and the
// page's scripts, so a `make dist` with nothing changed does not start Chromium again.
//
// Without dtx.wasm.orig (a build without SPLIT_MODULE) the page stays in one piece.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [wasmDir, dist] = process.argv.slice(2);
if (!wasmDir || !dist) {
  console.error('usage: node scripts/split-wasm.mjs WASM_BUILD_DIR DIST');
  process.exit(2);
}
const orig = path.join(wasmDir, 'dtx.wasm.orig');
const deferredOut = path.join(dist, 'dtx.deferred.wasm');
if (!fs.existsSync(orig)) {
  fs.rmSync(deferredOut, { force: true });
  console.log('split-wasm: no dtx.wasm.orig (linked without SPLIT_MODULE): dtx.wasm stays whole');
  process.exit(0);
}

const sha = (...files) => {
  const h = crypto.createHash('sha256');
  for (const f of files) h.update(fs.readFileSync(f));
  return h.digest('hex').slice(0, 16);
};
const instrumented = path.join(wasmDir, 'dtx.wasm');
const profileDir = path.join(wasmDir, 'split-profile');
const key = sha(instrumented, path.join(wasmDir, 'dtx.js'), path.join(dist, 'glue.js'),
  path.join(ROOT, 'web/shell/index.html'), path.join(dist, 'exercises/outline.json'));
const profile = path.join(profileDir, `${key}.data`);

// The ways the first screen is seen: each a fresh page, its profile merged with the others.
const STARTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone, dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'dark' },
  { name: 'narrow window, large text', viewport: { width: 700, height: 900 }, deviceScaleFactor: 1.5 },
  { name: 'a link to a chapter', viewport: { width: 1280, height: 800 }, address: '#/chapter/2' },
];

async function collect() {
  const { launch, serve } = await import(path.join(ROOT, 'tests/e2e/lib.mjs'));
  // The instrumented module is what the page loads while the profile is taken.
  fs.copyFileSync(instrumented, path.join(dist, 'dtx.wasm'));
  fs.rmSync(deferredOut, { force: true });
  fs.mkdirSync(profileDir, { recursive: true });
  const srv = await serve(dist);
  const browser = await launch();
  const parts = [];
  try {
    for (const start of STARTS) {
      const { name, address = '', ...options } = start;
      const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // The second part is held back (never answered): the page takes in the packs that arrive
      // but parses none (glue.js treats this build as split), as a student's page does until
      // dtx.deferred.wasm is in.
      await page.route(/\/dtx\.deferred\.wasm$/, () => {});
      await page.goto(srv.url + address);
      const wait = (pred, ms = 30000) => page.evaluate(([p, t]) => window.dtx.waitFor(new Function('s', 'return (' + p + ');'), t), [pred, ms]);
      let s = await wait("s.screen === 'course' && s.outline && s.outline.used");
      // What a student does first: points at rows, scrolls, tabs through, and the text layer
      // is built a second after the first frame.
      const rows = s.items.filter((i) => i.id.startsWith('ex-') || i.id.startsWith('chapter-')).slice(0, 8);
      for (const r of rows) {
        await page.mouse.move(r.x + 10, r.y + r.h / 2);
        s = await wait(`s.frame > ${s.frame}`);
      }
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(200);
      await page.mouse.wheel(0, -600);
      for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
      await page.waitForTimeout(1500);
      await wait('true');
      const bytes = await page.evaluate(() => {
        const write = window.Module.asm.__write_profile;
        const n = write(0, 0);
        const p = window.Module._malloc(n);
        write(p, n);
        const out = Array.from(new Uint8Array(HEAPU8.buffer, p, n));  // dtx.js's own view (a page global)
        window.Module._free(p);
        return out;
      });
      if (errors.length) throw new Error(`the ${name} start failed: ${errors.join('; ')}`);
      const file = path.join(profileDir, `${key}.${parts.length}.part`);
      fs.writeFileSync(file, Buffer.from(bytes));
      parts.push(file);
      await context.close();
    }
  } finally {
    await browser.close();
    srv.stop();
  }
  execFileSync('wasm-split', ['--merge-profiles', ...parts, '-o', profile]);
  for (const f of parts) fs.rmSync(f);
  // Older profiles (another module) go.
  for (const f of fs.readdirSync(profileDir)) if (f !== path.basename(profile)) fs.rmSync(path.join(profileDir, f));
}

if (!fs.existsSync(profile)) {
  try {
    await collect();
  } catch (e) {
    // No profile (Chromium missing or the start failed): the page still works whole, only
    // slower to start. Said loudly; the browser test "split engine: ..." fails on such a build.
    fs.copyFileSync(orig, path.join(dist, 'dtx.wasm'));
    fs.rmSync(deferredOut, { force: true });
    console.error(`split-wasm: WARNING: could not profile the start (${e.message.split('\n')[0]}); dtx.wasm ships whole`);
    process.exit(0);
  }
}
execFileSync('wasm-split', ['--enable-mutable-globals', '--export-prefix=%', orig,
  '-o1', path.join(dist, 'dtx.wasm'), '-o2', deferredOut, `--profile=${profile}`], { stdio: ['ignore', 'ignore', 'inherit'] });

// Both parts carry the same id (a custom section "dtx-pair": the second part's hash): glue.js
// refuses a second part from another build, which a half-updated server or cache could hand
// out, instead of linking code against exports it was not built for.
const pairId = sha(deferredOut);
const leb = (n) => {
  const out = [];
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n);
  return Buffer.from(out);
};
for (const f of [path.join(dist, 'dtx.wasm'), deferredOut]) {
  const name = Buffer.from('dtx-pair'), payload = Buffer.from(pairId);
  const body = Buffer.concat([leb(name.length), name, payload]);
  fs.appendFileSync(f, Buffer.concat([Buffer.from([0]), leb(body.length), body]));
}

const kib = (n) => (n / 1024).toFixed(1) + ' KiB';
const size = (f) => {
  const b = fs.readFileSync(f);
  return `${kib(b.length)} (${kib(zlib.gzipSync(b, { level: 9 }).length)} gzip)`;
};
console.log(`split-wasm: dtx.wasm ${size(path.join(dist, 'dtx.wasm'))} before the map, dtx.deferred.wasm ${size(deferredOut)} after; whole: ${size(orig)}`);
