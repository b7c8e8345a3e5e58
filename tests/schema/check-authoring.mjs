#!/usr/bin/env node
// docs/AUTHORING.md cannot rot:
//   1. its field reference is what scripts/authoring-reference.mjs writes from the schema, and its
//      list of diagnostic codes what scripts/authoring-codes.mjs writes from `dtx codes` and the
//      malformed packs' `dtx lint` output;
//   2. every ```json block is a pack, an exercise (checked inside a pack) or an index.json, and
//      both the schema and `dtx lint` (running code) accept it; a block right after
//      `<!-- check: invalid -->` must be rejected by both, one after `<!-- check: lint-error -->`
//      by lint only (the guide shows it as a mistake the schema cannot see);
//   3. every ```console block is run: each `$ build/native/dtx ...` command runs in a fresh
//      folder whose exercises/my-course.json holds the JSON block above it, and every output
//      line the guide shows must appear in what the command prints (a line ending in " ..."
//      only has to start a printed line).
//
//   node tests/schema/check-authoring.mjs path/to/dtx
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ROOT, clip, compileSchema, engineLint, parseJson, printTable, schemaVerdict } from './lib.mjs';
import { DOC_PATH, expectedDoc } from '../../scripts/authoring-reference.mjs';
import { generateCodes, withCodes } from '../../scripts/authoring-codes.mjs';

const dtx = process.argv[2];
if (!dtx || !fs.existsSync(dtx)) {
  console.error('usage: node tests/schema/check-authoring.mjs path/to/dtx');
  process.exit(2);
}
const DTX = path.resolve(dtx);
const failures = [];
const fail = (what) => failures.push(what);
const rel = path.relative(ROOT, DOC_PATH);

const doc = fs.readFileSync(DOC_PATH, 'utf8');
if (doc !== expectedDoc()) fail(`${rel}: the field reference differs from the schema; run \`node scripts/authoring-reference.mjs\``);
try {
  if (doc !== withCodes(doc, generateCodes(DTX)))
    fail(`${rel}: the list of diagnostic codes is out of date; run \`node scripts/authoring-codes.mjs ${dtx}\``);
} catch (e) {
  fail(`${rel}: cannot write the list of diagnostic codes: ${e.message}`);
}

// Fenced blocks with their info string, first line number, and whether the marker precedes them.
function fencedBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; ++i) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && lines[j] !== '```') ++j;
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') --k;
    const marker = k >= 0 ? /^<!-- check: (invalid|lint-error) -->$/.exec(lines[k].trim()) : null;
    blocks.push({ lang: open[1], line: i + 1, body: lines.slice(i + 1, j).join('\n'), marker: marker ? marker[1] : '' });
    i = j;
  }
  return blocks;
}

const PACK_FIELDS = { $schema: 'schema/pack.schema.json', format: 1, chapter: 20, id: 'my-course', title: 'My course' };
const { ajv, validate } = compileSchema();
const validateAssignment = ajv.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises/schema/assignment.schema.json'), 'utf8')));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-authoring-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let current = null;  // the text of exercises/my-course.json for the console blocks that follow
const rows = [];
let n = 0;
for (const b of fencedBlocks(doc)) {
  const where = `${rel}:${b.line}`;
  if (b.lang === 'json') {
    const parsed = parseJson(b.body);
    if (parsed.syntaxError) {
      fail(`${where}: the JSON example does not parse: ${parsed.syntaxError}`);
      continue;
    }
    const v = parsed.value;
    let kind, text;
    if (v && typeof v === 'object' && typeof v.format === 'string' && v.format.startsWith('dtx-assignment')) {
      // An assignment: its own schema, and `dtx lint` against the shipped course.
      const file = path.join(tmp, `block-${++n}.json`);
      fs.writeFileSync(file, b.body);
      const ok = validateAssignment(v);
      const r = spawnSync(DTX, ['lint', '--json', '--packs', path.join(ROOT, 'exercises'), file], { encoding: 'utf8' });
      const errors = (JSON.parse(r.stdout || '[]')).filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`);
      if (!ok) fail(`${where}: the assignment schema rejects this assignment: ${JSON.stringify(validateAssignment.errors)}`);
      if (r.status !== 0 || errors.length) fail(`${where}: dtx lint rejects this assignment: ${errors.join('; ') || r.stderr}`);
      rows.push([where, 'assignment', ok ? 'accepts' : 'rejects', r.status === 0 ? 'accepts' : 'rejects', clip(errors.join('; '), 60)]);
      continue;
    } else if (v && typeof v === 'object' && 'format' in v) {
      kind = 'pack';
      text = b.body;
    } else if (v && typeof v === 'object' && 'type' in v && 'id' in v) {
      kind = 'exercise';
      text = JSON.stringify({ ...PACK_FIELDS, exercises: [v] }, null, 2);
    } else if (v && typeof v === 'object' && Array.isArray(v.packs)) {
      kind = 'index';
      const real = JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises/index.json'), 'utf8'));
      const ok = v.packs.every((p) => typeof p === 'string' && p.endsWith('.json')) &&
                 Object.keys(v).every((k) => k in real) && Array.isArray(real.packs);
      if (!ok) fail(`${where}: the index.json example does not have the shape of exercises/index.json`);
      rows.push([where, 'index', ok ? 'ok' : 'wrong shape', '', '']);
      continue;
    } else {
      fail(`${where}: a json block must be a whole pack, an exercise or an index.json (use another language tag for fragments)`);
      continue;
    }
    const file = path.join(tmp, `block-${++n}.json`);
    fs.writeFileSync(file, text);
    const s = schemaVerdict(validate, text);
    const lint = engineLint(DTX, [file], { run: true });
    const errors = lint.errorsByFile.get(path.resolve(file)) || [];
    const engineOk = lint.status === 0 && errors.length === 0;
    // "invalid": both reject it; "lint-error": a mistake only lint can find (the schema accepts it).
    const wantSchema = b.marker !== 'invalid', wantEngine = !b.marker;
    const marked = b.marker ? `, marked ${b.marker}` : '';
    if (s.ok !== wantSchema) fail(`${where}: the schema ${s.ok ? 'accepts' : 'rejects'} this ${kind}${marked}${s.why ? `: ${s.why}` : ''}`);
    if (engineOk !== wantEngine) fail(`${where}: dtx lint ${engineOk ? 'accepts' : 'rejects'} this ${kind}${marked}${errors.length ? `: ${errors.join('; ')}` : ''}`);
    rows.push([where, kind + (b.marker ? ` (${b.marker})` : ''), s.ok ? 'accepts' : 'rejects', engineOk ? 'accepts' : 'rejects', clip(s.why || errors.join('; '), 60)]);
    current = text;
  } else if (b.lang === 'console') {
    if (current === null) {
      fail(`${where}: a console block before any JSON example`);
      continue;
    }
    const site = fs.mkdtempSync(path.join(tmp, 'site-'));
    fs.mkdirSync(path.join(site, 'exercises'));
    fs.writeFileSync(path.join(site, 'exercises/my-course.json'), current);
    const steps = [];
    for (const line of b.body.split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expect: [] });
      else if (steps.length && line.trim() && line.trim() !== '...') steps.at(-1).expect.push(line.trimEnd());
      else if (!steps.length && line.trim()) fail(`${where}: output before any "$ " command`);
    }
    for (const step of steps) {
      if (!step.command.startsWith('build/native/dtx ')) {
        fail(`${where}: only build/native/dtx commands can be checked: ${step.command}`);
        continue;
      }
      const command = `"$DTX" ${step.command.slice('build/native/dtx '.length)}`;
      const env = { ...process.env, DTX };
      delete env.DTX_EXERCISES;  // the commands read exercises/ in the folder, as the guide says
      const r = spawnSync('bash', ['-c', command], { cwd: site, encoding: 'utf8', env });
      // A shown line ending in " ..." is the start of a longer line.
      const printed = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trimEnd());
      const shows = (l) => (l.endsWith(' ...') ? printed.some((p) => p.startsWith(l.slice(0, -3))) : printed.includes(l));
      const missing = step.expect.filter((l) => !shows(l));
      if (missing.length)
        fail(`${where}: \`${step.command}\` does not print what the guide shows:\n      missing: ${missing.map((l) => JSON.stringify(l)).join('\n               ')}\n      printed: ${`${r.stdout}${r.stderr}`.trim().split('\n').join('\n               ')}`);
      rows.push([where, 'console', missing.length ? 'differs' : 'matches', `exit ${r.status}`, clip(step.command, 60)]);
    }
  }
}

console.log(`${rel}: field reference ${failures.some((f) => f.includes('field reference')) ? 'OUT OF DATE' : 'matches the schema'}; examples and commands:\n`);
printTable(['where', 'block', 'schema / output', 'engine', 'note'], rows);
if (failures.length) {
  console.log(`\n${failures.length} FAILURE${failures.length === 1 ? '' : 'S'}:`);
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
console.log(`\nAll good: ${rows.length} examples and commands checked.`);
