#!/usr/bin/env node
// Every malformed pack through `dtx lint`, as an author runs it: the line it prints for the
// expected diagnostic of tests/malformed/expected.json has the code, the position, the pointer
// and the message, in the documented format, and `dtx lint --json` gives the same code. Unlike
// the engine's test (tests/unit/test_malformed.cpp) this runs the packs' JavaScript, so the
// cases only the code runner finds ("runs_code") are checked here.
//
//   node tests/cli/malformed.mjs path/to/dtx
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = path.join(ROOT, 'tests/malformed');
const dtx = process.argv[2];
if (!dtx || !fs.existsSync(dtx)) {
  console.error('usage: node tests/cli/malformed.mjs path/to/dtx');
  process.exit(2);
}
const DTX = path.resolve(dtx);
const entries = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-malformed-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const failures = [];
const lint = (args, cwd) => spawnSync(DTX, ['lint', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
// The format `dtx lint --help` documents: file:line:col: severity[CODE]: /pointer: message
const LINE = /^(.+?):(\d+):(\d+): (error|warning)\[([EW]\d{3})\]: (?:(\/[^:]*): )?(.*)$/;

let checked = 0;
for (const [file, e] of Object.entries(entries)) {
  let cwd = DIR;
  if (e.pad_to_bytes) {
    const text = fs.readFileSync(path.join(DIR, file));
    fs.writeFileSync(path.join(tmp, file), Buffer.concat([text, Buffer.alloc(Math.max(0, e.pad_to_bytes - text.length), ' ')]));
    cwd = tmp;
  }
  const flags = [...(e.stage === 'warn' ? ['--warn'] : []), ...(e.seeds ? ['--seeds', String(e.seeds)] : [])];
  const text = lint([...flags, file], cwd);
  const json = lint([...flags, '--json', file], cwd);
  const fail = (why) => failures.push(`${file}: ${why}\n    printed:\n      ${text.stdout.trim().split('\n').slice(0, 6).join('\n      ')}`);
  const severity = e.stage === 'warn' ? 'warning' : 'error';
  const wantStatus = e.stage === 'warn' ? 0 : 1;
  if (text.status !== wantStatus) fail(`exit status ${text.status}, expected ${wantStatus}`);
  const lines = text.stdout.split('\n').filter(Boolean);
  const bad = lines.filter((l) => !LINE.test(l));
  if (bad.length) fail(`lines not in the file:line:col: severity[CODE]: format: ${bad.slice(0, 2).join(' | ')}`);
  const match = lines.map((l) => LINE.exec(l)).find((m) => m && m[1] === file && m[4] === severity &&
    (m[6] || '') === e.pointer && m[7].includes(e.message_contains));
  if (!match) {
    fail(`no ${severity} at ${e.pointer || '(the file)'} containing ${JSON.stringify(e.message_contains)}`);
    continue;
  }
  if (match[5] !== e.code) fail(`code ${match[5]}, expected ${e.code}`);
  if (`${match[2]}:${match[3]}` !== `${e.line}:${e.column}`) fail(`at ${match[2]}:${match[3]}, expected ${e.line}:${e.column}`);
  let parsed = [];
  try {
    parsed = JSON.parse(json.stdout);
  } catch {
    fail('dtx lint --json printed something that is not JSON');
  }
  if (!parsed.some((d) => d.code === e.code && d.line === e.line && d.column === e.column && d.pointer === e.pointer && d.severity === severity))
    fail(`dtx lint --json has no ${e.code} at ${e.line}:${e.column} ${e.pointer}`);
  ++checked;
}

// The one code no pack can produce: a file that is not there.
const missing = lint(['no-such-pack.json'], tmp);
if (missing.status !== 1 || !missing.stdout.includes('no-such-pack.json: error[E001]: no such file or folder'))
  failures.push(`dtx lint no-such-pack.json: expected "no-such-pack.json: error[E001]: no such file or folder" and exit 1, got exit ${missing.status}: ${missing.stdout}`);

if (failures.length) {
  console.log(`${failures.length} FAILURE${failures.length === 1 ? '' : 'S'}:`);
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
console.log(`All good: ${checked} malformed packs give their code, position and message through dtx lint, and a missing file gives E001.`);
