#!/usr/bin/env node
// Property: one student's file never changes another's grade. For each class of hostile file
// (a value node or JSON cannot hold, an error text that breaks the protocol, a program that
// never ends, exhausts memory or the stack) and for every position among K correct files,
// `dtx grade` over the class must grade every correct file correct and the hostile one not
// correct. The same through `dtx lint`: a hostile wrong implementation listed first must not
// hide the next one, a "wrong" implementation that passes every case (error E056).
//
//   node tests/cli/hostile_class.mjs path/to/dtx [--only NAME]
// DTX_HOSTILE_LIMIT_MS sets the time limit (500 ms), DTX_HOSTILE_TIMES=1 prints each run's time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const dtx = argv[0] && path.resolve(argv[0]);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
if (!dtx || !fs.existsSync(dtx)) {
  console.error('usage: node tests/cli/hostile_class.mjs path/to/dtx [--only NAME]');
  process.exit(2);
}
const TIME_LIMIT_MS = Number(process.env.DTX_HOSTILE_LIMIT_MS) || 500;  // the limits hold at any value; a short one keeps the run quick
const PARALLEL = 2;

// Each body is the function's; `add(a, b)` should return a + b.
const HOSTILE = {
  'deep-20000': 'let x = []; for (let i = 0; i < 20000; i++) x = [x]; return x;',
  'deep-4500 (past node JSON)': 'let x = []; for (let i = 0; i < 4500; i++) x = [x]; return x;',
  'deep-object': 'let x = {}; for (let i = 0; i < 4500; i++) x = { x }; return x;',
  'huge-string': "return 'x'.repeat(1e7);",
  'huge-array': 'return new Array(1e6).fill(1.5);',
  'sparse-array': 'const x = []; x.length = 4e9; return x;',
  'bigint': 'return [a, 10n];',
  'lone-surrogate': "return ['\\ud800', { ['\\udc00']: 'x\\ud83d' }];",
  'cyclic': 'const o = {}; o.o = o; return o;',
  'throwing-getter': "return { get v() { throw new Error('boom'); } };",
  'symbol': "return [Symbol('s'), { s: Symbol('t') }];",
  'proxy': "return new Proxy([], { get(t, k) { return k === 'length' ? 1e9 : 1; } });",
  'proxy-traps-throw': 'return new Proxy({}, { ownKeys() { throw 1; } });',
  'toJSON-loop': 'return { toJSON() { for (;;) {} } };',
  'error-huge': "throw new Error('x'.repeat(2e6));",
  'error-cut-surrogate': "throw new Error('x'.repeat(399) + '\\ud83d\\ude00');",
  'error-lone-surrogate': "const e = new Error('m\\udc00'); e.name = '\\ud800'; throw e;",
  'error-control-chars': "throw new Error('\\u0000\\u001b[2J\\u001b]0;owned\\u0007\\r\\n{\"ok\":true}');",
  'throw-non-error': 'throw { toString() { for (;;) {} } };',
  'infinite-loop': 'for (;;) {}',
  'sort-no-comparator': 'const x = []; for (let i = 0; i < 3e6; i++) x.push(String(i)); x.sort(); return a + b;',
  'memory': 'const x = []; for (;;) x.push(new Array(1e6).fill(1.5));',
  'stack-overflow': 'return add(a, b) + 1;',
  'top-level-throw': null,  // the whole file throws before add exists
};
const CORRECT = [
  'function add(a, b) { return a + b; }',
  'const add = (a, b) => b + a;',
  'function add(x, y) {\n  let s = x;\n  s += y;\n  return s;\n}',
  'var add = function (a, b) { return [a, b].reduce((p, q) => p + q, 0); };',
];
const K = CORRECT.length;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-hostile-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
const cases = [[1, 2], [3, 4], [10, 20], [-5, 5.5]].map((args) => ({ args }));
const exercise = (id, extra) => ({ id, type: 'code', title: 'Add', prompt: 'Write `add(a, b)`.', function: 'add', args: ['a', 'b'], cases, ...extra });
const pack = { format: 1, chapter: 91, id: 'hostile', title: 'Hostile classes', exercises: [
  exercise('hostile.add', { expected: 'a + b' }),
  exercise('hostile.add-ref', { reference: CORRECT[0] }),  // the reference runs beside each file
] };
fs.mkdirSync(path.join(scratch, 'packs'));
fs.writeFileSync(path.join(scratch, 'packs/hostile.json'), JSON.stringify(pack, null, 1));
const sourceOf = (name) => (HOSTILE[name] === null ? "throw new Error('top');\nfunction add(a, b) { return a + b; }"
                                                    : `function add(a, b) { ${HOSTILE[name]} }`);
CORRECT.forEach((src, i) => fs.writeFileSync(path.join(scratch, `good${i}.js`), src + '\n'));

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(dtx, args, { cwd: scratch });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300000);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, err }); });
  });
}

const failures = [];
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) failures.push(what);
}

// Classes graded back to back in one `dtx grade` run: for each [name, pos], the hostile file
// `name` at position `pos` among the K correct files. One run per class would add a node
// start each; back to back is the stricter test, since each class also follows the last.
async function gradeClasses(classes, exerciseId) {
  const files = [], hostileAt = new Map();
  for (const [name, pos] of classes) {
    const cls = CORRECT.map((_, i) => `good${i}.js`);
    cls.splice(pos, 0, `hostile-${Object.keys(HOSTILE).indexOf(name)}.js`);
    hostileAt.set(files.length + pos, name);
    files.push(...cls);
  }
  const r = await run(['grade', exerciseId, '--packs', 'packs', '--json', '--time-limit', String(TIME_LIMIT_MS), ...files]);
  let rows;
  try {
    rows = JSON.parse(r.out);
  } catch (e) {
    check(false, `${exerciseId}: output is not JSON (exit ${r.code}): ${r.out.slice(0, 200)} ${r.err.slice(0, 200)}`);
    return;
  }
  check(Array.isArray(rows) && rows.length === files.length, `${exerciseId}: ${files.length} rows expected`);
  (rows || []).forEach((row, i) => {
    const [name, pos] = classes[Math.floor(i / (K + 1))];
    const at = `${name} at position ${pos} (${exerciseId}), file ${(i % (K + 1)) + 1}`;
    if (hostileAt.has(i)) check(row.verdict !== 'correct', `${at}: the hostile file graded correct`);
    else check(row.verdict === 'correct', `${at}: ${row.file} graded ${row.verdict}: ${row.message}`);
    // The hostile file's own verdict is readable: no interpreter internals, no lost result.
    check(!/Assertion|unreadable|Aborted/.test(row.message || ''), `${at}: message ${JSON.stringify(row.message).slice(0, 200)}`);
  });
}

// dtx lint, one exercise per hostile file: its code first among the wrong implementations,
// then one that passes every case, which lint must report (E056) and the hostile one not.
async function lintClasses(names, chunk) {
  const doc = JSON.parse(JSON.stringify(pack));
  doc.exercises = names.map((name, i) => ({ ...pack.exercises[0], id: `hostile.lint-${i}`,
    wrong: [{ note: 'hostile', code: sourceOf(name) }, { note: 'passes', code: CORRECT[1] }] }));
  const file = `lint-${chunk}.json`;
  fs.writeFileSync(path.join(scratch, file), JSON.stringify(doc, null, 1));
  const r = await run(['lint', '--json', '--time-limit', String(TIME_LIMIT_MS), file]);
  let diags = [];
  try {
    diags = JSON.parse(r.out);
  } catch (e) {
    check(false, `lint: output is not JSON: ${r.out.slice(0, 200)}`);
  }
  names.forEach((name, i) => {
    const flagged = (w) => diags.some((d) => d.code === 'E056' && d.pointer === `/exercises/${i}/wrong/${w}`);
    check(flagged(1), `lint ${name}: the passing wrong implementation after it is not reported (E056)`);
    check(!flagged(0), `lint ${name}: the hostile wrong implementation is reported as passing`);
  });
}

const names = Object.keys(HOSTILE).filter((n) => !only || n.includes(only));
names.forEach((n, i) => fs.writeFileSync(path.join(scratch, `hostile-${Object.keys(HOSTILE).indexOf(n)}.js`), sourceOf(n) + '\n'));
const jobs = [];
// The longest runs first: every hostile file before the correct ones with the reference
// deciding the cases (it runs beside each file), and lint; then each hostile file at every
// position, one run per hostile file.
for (let i = 0; i < names.length; i += 6) jobs.push(() => gradeClasses(names.slice(i, i + 6).map((n) => [n, 0]), 'hostile.add-ref'));
for (let i = 0; i < names.length; i += 6) jobs.push(() => lintClasses(names.slice(i, i + 6), i));
for (const name of names) jobs.push(() => gradeClasses(Array.from({ length: K + 1 }, (_, pos) => [name, pos]), 'hostile.add'));
const t0 = Date.now();
let next = 0;
await Promise.all(Array.from({ length: PARALLEL }, async () => {
  while (next < jobs.length) {
    const i = next++, t = Date.now();
    await jobs[i]();
    if (process.env.DTX_HOSTILE_TIMES) console.log(`  job ${i}: ${Date.now() - t} ms`);
  }
}));
const classes = names.length * (K + 2);
console.log(`hostile classes: ${names.length} hostile files x ${K + 1} positions among ${K} correct files ` +
            `(+1 each with a reference) = ${classes} classes, ${classes * (K + 1)} files graded in ` +
            `${names.length + Math.ceil(names.length / 6)} dtx grade runs; ${names.length} hostile wrong implementations through dtx lint; ` +
            `${checks} checks, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (failures.length) {
  console.error(`FAILED: ${failures.length} of ${checks} checks`);
  for (const f of failures.slice(0, 40)) console.error('  ' + f);
  process.exit(1);
}
console.log('ok   every correct file stayed correct, every hostile file was not');
