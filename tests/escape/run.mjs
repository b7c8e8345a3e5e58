// The escape suite: every attack in payloads.mjs, run the three ways untrusted code reaches
// dtx, against the real runners:
//   1. students' files through `dtx grade`, all attacks in one run per exercise as when an
//      instructor grades a class (on an exercise with expected values, and on one whose cases
//      are decided by the pack's reference, so the reference runs alongside), with an honest
//      file last that must still grade correct;
//   2. pack code through `dtx lint`, one run with every attack as a wrong implementation and
//      one with each as the reference of its own exercise;
//   3. the page's runner (window.dtxCodeRunner: the worker with QuickJS) in headless Chromium,
//      one attack at a time.
// After each run: no file was written ({{MARK}}), no connection reached the listener on
// another port ({{URL}}), no attack's result is "correct" (nothing was forged), and it ended
// within its limits (generous bounds: this is not a timing test). `--only NAME` runs one
// attack alone, to pin a connection on it.
//
//   node tests/escape/run.mjs DTX_BINARY DIST_DIR [--only TEXT] [--no-browser]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import { payloads } from './payloads.mjs';
import { ROOT, launch, TEST_ARGS, serve } from '../e2e/lib.mjs';

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--only');
const dtx = path.resolve(positional[0] || path.join(ROOT, 'build/native/dtx'));
const dist = path.resolve(positional[1] || path.join(ROOT, 'dist'));
const packFile = path.join(ROOT, 'tests/escape/pack.json');
const pack = JSON.parse(fs.readFileSync(packFile, 'utf8'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-escape-'));
const TIME_LIMIT_MS = 250;  // the limits are the same at any value; a short one keeps the suite quick
// Student + reference each get the limit, then the hard stop's grace and a host restart.
const BOUND_MS = 2 * TIME_LIMIT_MS + 1500 + 5000;

// Any TCP connection counts, whatever protocol the attack tried.
const connections = [];
const listener = net.createServer((sock) => {
  connections.push(new Date().toISOString());
  sock.destroy();
});
await new Promise((r) => listener.listen(0, '127.0.0.1', r));
const URL_BASE = `http://127.0.0.1:${listener.address().port}`;

const failures = [];
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) failures.push(what);
}

function fill(source, mark) {
  return source.replaceAll('{{URL}}', URL_BASE).replaceAll('{{MARK}}', mark);
}

function runDtx(args, timeoutMs) {
  const t0 = Date.now();
  const r = spawnSync(dtx, args, { encoding: 'utf8', timeout: timeoutMs + 10000, cwd: scratch });
  console.log(`      dtx ${args[0]} ${path.basename(args[1])}: ${Date.now() - t0} ms`);
  return { status: r.status, out: (r.stdout || '') + (r.stderr || ''), ms: Date.now() - t0 };
}

const selected = payloads.filter((p) => !only || p.name.includes(only));
const marks = selected.map((p, i) => path.join(scratch, `mark-${i + 1}`));
const sources = selected.map((p, i) => fill(p.source, marks[i]));
const names = selected.map((p) => p.name).join('; ');

// Every attack that wrote its file or reached the listener since the last look. One dtx run
// serves all the attacks (as when an instructor grades a class), so a connection cannot be
// pinned on one attack: `--only NAME` runs one alone.
function afterRun(how) {
  selected.forEach((p, i) => check(!fs.existsSync(marks[i]), `${p.name} [${how}]: wrote ${marks[i]}`));
  check(connections.length === 0, `[${how}]: ${connections.length} connection(s) to ${URL_BASE} during the run of: ${names}`);
}

// 1. students' files, graded in one run per exercise like a class's submissions, with an
//    honest submission last: it must still grade correct after every attack before it.
const HONEST = 'function add(a, b) { return a + b; }';
const files = sources.map((source, i) => {
  const f = path.join(scratch, `student-${i + 1}.js`);
  fs.writeFileSync(f, source);
  return f;
});
const honest = path.join(scratch, 'honest.js');
fs.writeFileSync(honest, HONEST);
// Each submission may take its limit (student + reference) and a hard stop with a host restart.
const batchBound = (count) => (count + 1) * BOUND_MS;
for (const id of ['escape.add', 'escape.add-ref']) {
  const how = `dtx grade ${id}`;
  const r = runDtx(['grade', id, ...files, honest, '--packs', packFile, '--json', '--time-limit', String(TIME_LIMIT_MS)], batchBound(files.length));
  let results = [];
  try { results = JSON.parse(r.out.slice(r.out.indexOf('['))); } catch (e) { /* reported below */ }
  check(r.status === 1 || r.status === 3, `[${how}]: exit ${r.status}: ${r.out.slice(0, 300)}`);
  check(results.length === files.length + 1, `[${how}]: ${results.length} results for ${files.length + 1} files: ${r.out.slice(0, 300)}`);
  selected.forEach((p, i) => {
    const v = results[i] || {};
    check(v.file === files[i] && v.verdict && v.verdict !== 'correct', `${p.name} [${how}]: ${JSON.stringify(v)}`);
  });
  const last = results[files.length] || {};
  check(last.file === honest && last.verdict === 'correct', `[${how}]: the honest submission after the attacks: ${JSON.stringify(last)}`);
  check(r.ms < batchBound(files.length), `[${how}]: took ${r.ms} ms`);
  afterRun(how);
}

// 2. pack code, one lint run each way: every attack as a wrong implementation of one exercise
//    (forged success would be "passes every case"), and as the reference of its own copy of the
//    exercise with expected values (forged success would hide "fails its own cases"; where a
//    pack has no expected values the reference defines them).
{
  const asWrong = structuredClone(pack);
  asWrong.exercises[0].wrong = sources.map((code, i) => ({ note: `attack ${i + 1}`, code }));
  const asRef = structuredClone(pack);
  asRef.exercises = sources.map((code, i) => ({ ...structuredClone(pack.exercises[0]), id: `escape.ref-${i + 1}`, reference: code }));
  for (const [how, doc] of [['dtx lint, wrong', asWrong], ['dtx lint, reference', asRef]]) {
    const f = path.join(scratch, `pack-${how.split(', ')[1]}.json`);
    fs.writeFileSync(f, JSON.stringify(doc, null, 1));
    const r = runDtx(['lint', f, '--time-limit', String(TIME_LIMIT_MS)], 3 * batchBound(sources.length));
    check(/code not run/.test(r.out) === false, `[${how}]: lint did not run the code: ${r.out.slice(0, 200)}`);
    if (how.endsWith('wrong')) {
      check(r.status === 0 && !/passes every case/.test(r.out), `[${how}]: exit ${r.status}: ${r.out.slice(0, 600)}`);
    } else {
      check(r.status === 1, `[${how}]: exit ${r.status}: ${r.out.slice(0, 600)}`);
      selected.forEach((p, i) => check(new RegExp(`/exercises/${i}/reference: the reference solution fails its own cases`).test(r.out),
        `${p.name} [${how}]: not reported as failing its own cases: ${r.out.slice(0, 600)}`));
    }
    check(r.ms < 3 * batchBound(sources.length), `[${how}]: took ${r.ms} ms`);
    afterRun(how);
  }
}
console.log(`ok   ${selected.length} attacks through dtx grade (two batches) and dtx lint (wrong, reference)`);

// 3. the page's runner
if (!argv.includes('--no-browser')) {
  const server = await serve(dist);
  const browser = await launch(TEST_ARGS);
  try {
    const page = await browser.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => window.dtxCodeRunner && window.dtx && window.dtx.state && window.dtx.state.screen === 'course', null, { timeout: 30000 });
    // Warm the worker, then every request the page or its workers make is an attack's.
    const warm = await page.evaluate(() => window.dtxCodeRunner.run({ function: 'add', source: 'function add(a, b) { return a + b; }', cases: [[1, 2]] }));
    check(warm.student && warm.student[0] && warm.student[0].value === 3, 'browser: the runner works: ' + JSON.stringify(warm));
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const cases = pack.exercises[0].cases.map((c) => c.args);
    const expected = cases.map(([a, b]) => a + b);
    let n = 0;
    for (const p of selected) {
      n++;
      const source = fill(p.source, path.join(scratch, `mark-b${n}`));
      for (const reference of ['', 'function add(a, b) { return a + b; }']) {
        const t0 = Date.now();
        const r = await page.evaluate((req) => window.dtxCodeRunner.run(req), { function: 'add', source, cases, time_limit_ms: TIME_LIMIT_MS, reference });
        const ms = Date.now() - t0;
        const got = (r.student || []).map((o) => (o.ok ? o.value : undefined));
        const forged = got.length === expected.length && got.every((v, i) => v === expected[i]);
        check(!forged, `${p.name} [browser${reference ? ', with reference' : ''}]: returned the expected values ${JSON.stringify(r)}`);
        const hardStop = r.kind === 'timeout' && !r.reference;  // the worker was terminated
        if (reference && !hardStop) check(JSON.stringify((r.reference || []).map((o) => o.value)) === JSON.stringify(expected), `${p.name} [browser]: the reference's own results were disturbed: ${JSON.stringify(r.reference)}`);
        check(ms < BOUND_MS, `${p.name} [browser]: took ${ms} ms`);
        // the page itself stays responsive (a frame comes; 10 s is a hang, not a timing)
        const t1 = Date.now();
        await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => res())));
        check(Date.now() - t1 < 10000, `${p.name} [browser]: the page was blocked ${Date.now() - t1} ms`);
      }
      check(connections.length === 0, `${p.name} [browser]: ${connections.length} connection(s) to ${URL_BASE}`);
      const extra = requests.filter((u) => !/sandbox-worker\.js$|quickjs\.wasm$/.test(u));
      check(extra.length === 0, `${p.name} [browser]: requests made: ${extra.join(', ')}`);
      console.log(`ok   ${p.name} (browser)`);
    }
    check(pageErrors.length === 0, 'browser: page errors: ' + pageErrors.join('; '));
  } finally {
    await browser.close();
    server.stop();
  }
}

listener.close();
fs.rmSync(scratch, { recursive: true, force: true });
if (failures.length) {
  console.error(`\nescape suite: ${failures.length} of ${checks} checks failed:`);
  for (const f of failures) console.error('  FAIL ' + f);
  process.exit(1);
}
console.log(`escape suite: ${selected.length} attacks, ${checks} checks, all held`);
