// Figures for hostile and oversized packs in the page (run by scripts/bench.sh, so by
// `make bench`, after `make dist`). The browser tests check what the page shows; this times it.
//
//   node scripts/bench-limits.mjs [DIST_DIR] [--runs N]        defaults: dist/, 3
//
// 1. ?pack= with five packs the page must refuse (5,000 levels deep, 2,000 nested parentheses,
//    11 MB, a 5 MB title, bad JSON) and one missing: time from the first drawn frame to every
//    error shown in the course map (target: 2 s);
// 2. an exercise with the longest title and a 64 KB prompt: time from the click to its screen,
//    and the time to draw one scroll through the prompt.
// Medians over fresh browser contexts. A benchmark prints figures and never fails on one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, launch, serve, waitFor, click } from '../tests/e2e/lib.mjs';
import { hostilePacks, longPromptPack } from '../tests/e2e/limit-packs.mjs';

const argv = process.argv.slice(2);
let dist = path.join(ROOT, 'dist');
let runs = 3;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Math.max(1, Number(argv[++i]) || 3);
  else dist = path.resolve(argv[i]);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))}, ${xs.length} runs)`;

// The packs are served from a copy of exercises/ (serve.mjs --watch serves that folder).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-bench-limits-'));
fs.cpSync(path.join(dist, 'exercises'), dir, { recursive: true });
const files = { ...hostilePacks(), 'long.json': longPromptPack() };
for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
const refused = [...Object.keys(hostilePacks()), 'nowhere.json'].map((f) => 'exercises/' + f);

const srv = await serve(dist, '/', ['--watch', dir]);
const browser = await launch();
const shown = [], opened = [], scrolled = [];
try {
  for (let r = 0; r < runs; r++) {
    let ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    let page = await ctx.newPage();
    await page.goto(srv.url + '?' + refused.map((u) => 'pack=' + u).join('&'));
    await waitFor(page, `s.screen === 'course' && s.previews.length === ${refused.length} && s.previews.every((p) => !p.loading && (p.errors.length || p.fetch_error))`, 60000);
    shown.push(await page.evaluate(() => performance.now() - window.dtx.firstFrameMs));
    await ctx.close();

    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await ctx.newPage();
    await page.goto(srv.url + '?pack=exercises/long.json');
    await waitFor(page, "s.screen === 'course' && s.previews.length === 1 && !s.previews[0].loading", 60000);
    const t0 = Date.now();
    await click(page, 'ex-l.long');
    let s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'l.long'", 60000);
    opened.push(Date.now() - t0);
    for (let i = 0; i < 3; i++) {
      const f0 = s.frame, t1 = Date.now();
      await page.mouse.wheel(0, 2000);
      s = await waitFor(page, `s.frame > ${f0}`, 60000);
      scrolled.push(Date.now() - t1);
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  srv.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`hostile ?pack= (5 refused + 1 missing): errors shown ${fmt(shown)} after the first frame (target 2000 ms)`);
console.log(`64 KB prompt: opened ${fmt(opened)}; one scroll drawn ${fmt(scrolled)}`);
