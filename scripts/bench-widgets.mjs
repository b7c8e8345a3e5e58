// Frame cost of the animated widgets in the page (run by scripts/bench.sh after `make dist`).
//
//   node scripts/bench-widgets.mjs [DIST_DIR] [--seconds S]     defaults: dist/, 3
//
// For each widget, at the inputs the issue names as the heavy cases (ring N = 64; pipeline
// p = 16, m = 64, v = 4 interleaved; the plan explorer for 405B; the hierarchy and the
// roofline at their defaults), the Lab plays it for S seconds in headless Chromium and we
// read the CPU time of every frame the page drew (measured in main_web.cpp around the whole
// frame: input, ImGui, the widget, GL submission and the test-hook state). Prints median,
// 95th percentile and maximum per widget. A benchmark: it prints figures and fails only when
// the page cannot be driven. SwiftShader does the GL work on the CPU, but in other threads'
// time at submission; numbers on a real GPU are lower, not higher.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve, ready, click, state, waitFor, setSlider } from '../tests/e2e/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
let dist = path.join(ROOT, 'dist'), seconds = 3;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--seconds') seconds = Number(argv[++i]) || 3;
  else dist = path.resolve(argv[i]);
}

const cases = [
  { kind: 'ring', label: 'ring N=64', inputs: { N: 64 } },
  { kind: 'pipeline', label: 'pipeline interleaved p=16 m=64 v=4', inputs: { p: 16, m: 64, v: 4 }, schedule: 'interleaved' },
  { kind: 'pipeline', label: 'pipeline zb-h1 p=16 m=64', inputs: { p: 16, m: 64 }, schedule: 'zb-h1' },
  { kind: 'plan', label: 'plan explorer (defaults)', inputs: {} },
  { kind: 'hierarchy', label: 'bandwidth hierarchy', inputs: {} },
  { kind: 'roofline', label: 'roofline', inputs: {} },
];

const server = await serve(dist);
const browser = await launch();
const rows = [];
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(server.url);
  await ready(page);
  await click(page, 'nav-lab');
  for (const c of cases) {
    await click(page, `lab-${c.kind}`);
    await waitFor(page, `s.widget && s.widget.kind === ${JSON.stringify(c.kind)}`);
    if (c.schedule) {
      await click(page, `${c.kind}-schedule`);
      await click(page, `${c.kind}-schedule-${c.schedule}`);
    }
    for (const [k, v] of Object.entries(c.inputs)) await setSlider(page, `${c.kind}-${k}`, v);
    const s0 = await state(page);
    const samples = [];
    if (s0.widget.steps > 0) {
      await click(page, `${c.kind}-restart`);
      await click(page, `${c.kind}-play`);
    }
    // Collect one sample per drawn frame, in the page, for `seconds`.
    const got = await page.evaluate((ms) => new Promise((resolve) => {
      const out = [];
      let last = -1;
      const t0 = performance.now();
      const tick = () => {
        const st = window.dtx.state;
        if (st && st.frame !== last) { last = st.frame; out.push(st.frame_ms); }
        if (performance.now() - t0 < ms) requestAnimationFrame(tick); else resolve(out);
      };
      requestAnimationFrame(tick);
    }), seconds * 1000);
    samples.push(...got.slice(2));  // the first frames include the click's work
    const s1 = await state(page);
    samples.sort((a, b) => a - b);
    const q = (p) => samples.length ? samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] : NaN;
    rows.push([c.label, String(samples.length), q(0.5).toFixed(2), q(0.95).toFixed(2), (samples.at(-1) ?? NaN).toFixed(2),
      s0.widget.steps > 0 ? `${s1.widget.step}/${s1.widget.steps}` : '-']);
  }
  await ctx.close();
} catch (e) {
  console.error('bench-widgets: ' + (e.stack || e));
  process.exitCode = 1;
} finally {
  await browser.close();
  server.stop();
}
const header = ['widget (playing in the Lab, 1280x900)', 'frames', 'median ms', 'p95 ms', 'max ms', 'step reached'];
const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((v, i) => (i === 0 ? v.padEnd(w[i]) : v.padStart(w[i]))).join('  ');
console.log(`== widget frame cost: CPU ms per drawn frame (target < 4 ms) ==`);
console.log(line(header));
console.log(w.map((n) => '-'.repeat(n)).join('  '));
for (const r of rows) console.log(line(r));
