// Gradebooks for the LMS (dtx report --format canvas|moodle --roster): a class of files made
// from the engine's own answers (ana right, bo late on one exercise, a file whose identifier
// is misspelt, a second file claiming ana) graded against a Canvas gradebook export and a
// Moodle participants export (tests/course/*-roster.csv). The gradebooks must equal
// tests/course/expected-{canvas,moodle}.csv byte for byte; the roster student with no file gets
// 0 (or a blank cell), the misspelt file is named with the closest roster identifier, and the
// flags go to their own CSV.
//   node tests/cli/gradebook.mjs build/native/dtx [SOURCE_DIR]   (DTX_UPDATE_EXPECTED=1 rewrites them)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dtx = path.resolve(process.argv[2] || 'build/native/dtx');
const ROOT = path.resolve(process.argv[3] || path.join(path.dirname(fileURLToPath(import.meta.url)), '../..'));
let failures = 0;
const check = (ok, what, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || !detail ? '' : '\n' + detail}`);
  if (!ok) failures++;
};
const run = (args) => spawnSync(dtx, args, { cwd: ROOT, env: { ...process.env, DTX_EXERCISES: path.join(ROOT, 'exercises') } });
const course = (f) => path.join(ROOT, 'tests/course', f);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-gradebook-'));
try {
  const answer = (id) => JSON.parse(run(['show', id, '--seed', '0', '--answer', '--json']).stdout).grade_words;
  fs.writeFileSync(path.join(tmp, 'hw.json'), JSON.stringify({
    format: 'dtx-assignment/1', id: 'hw-gb', title: 'Homework GB', due: '2030-01-01T12:00:00Z', hand_in: 'h',
    exercises: ['ring.volume', { id: 'ring.why-ring', points: 2 }],
    policies: { per_student_numbers: false, max_attempts: 2 },
  }));
  const files = path.join(tmp, 'class');
  fs.mkdirSync(files);
  const attempt = (exercise, at, words = answer(exercise)) => ({ exercise, seed: 0, answer: words, verdict: 'correct', score: 1, at });
  const sub = (name, student, attempts) => fs.writeFileSync(path.join(files, name),
    JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-gb', student, attempts }));
  sub('ana.json', 'ana@uni.example', [attempt('ring.volume', '2029-12-01T10:00:00Z'), attempt('ring.why-ring', '2029-12-01T10:05:00Z')]);
  sub('ana-again.json', 'Ana@uni.example', [attempt('ring.volume', '2029-12-02T10:00:00Z')]);
  sub('bo.json', 'bo@uni.example', [attempt('ring.volume', '2029-12-01T11:00:00Z'), attempt('ring.why-ring', '2030-01-02T09:00:00Z')]);
  sub('dan.json', 'dan@uni.exampel', [attempt('ring.volume', '2029-12-01T12:00:00Z')]);
  const report = (format, extra = []) => run(['report', path.join(tmp, 'hw.json'), files, '--now', '2030-01-03T00:00:00Z',
    '--format', format, '--roster', course(`${format}-roster.csv`), '--csv', path.join(tmp, `${format}.csv`), ...extra]);
  for (const format of ['canvas', 'moodle']) {
    const r = report(format);
    const out = r.stdout.toString();
    check(r.status === 1, `${format}: exit 1 (a file matches no roster row)`, `status ${r.status}\n${out}${r.stderr}`);
    const got = fs.readFileSync(path.join(tmp, `${format}.csv`), 'utf8');
    const expected = course(`expected-${format}.csv`);
    if (process.env.DTX_UPDATE_EXPECTED) fs.writeFileSync(expected, got);
    check(got === fs.readFileSync(expected, 'utf8'), `${format}: the gradebook equals ${path.relative(ROOT, expected)}`, got);
    check(/No file from 2 roster students: cy@uni\.example dan@uni\.example/.test(out), `${format}: the roster students with no file (cy; dan, whose file is misspelt) are listed`, out);
    check(/NOT IN THE ROSTER: dan@uni\.exampel \(their grade is in no row; closest roster identifier: dan@uni\.example\)/.test(out),
      `${format}: the misspelt identifier is named with the closest`, out);
    const flags = fs.readFileSync(path.join(tmp, `${format}-flags.csv`), 'utf8');
    check(flags.startsWith('student,flag\r\n') && /ana@uni\.example,"2 FILES CLAIM THIS STUDENT/.test(flags) && /bo@uni\.example,"1 attempt after the due date/.test(flags),
      `${format}: the flags CSV has the two files claiming ana and bo's late attempt`, flags);
  }
  // --items: the engine's diagnoses as plain text (maths as Unicode, no Markdown or LaTeX):
  // ring.time-bandwidth's known mistake 2M/BW (80 ms at seed 0) is explained with a fraction.
  const items = path.join(tmp, 'items');
  fs.mkdirSync(items);
  fs.writeFileSync(path.join(tmp, 'hw-items.json'), JSON.stringify({ format: 'dtx-assignment/1', id: 'hw-items', title: 'Items',
    due: '2030-01-01T12:00:00Z', hand_in: 'h', exercises: ['ring.time-bandwidth'], policies: { per_student_numbers: false } }));
  fs.writeFileSync(path.join(items, 'eve.json'), JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-items', student: 'eve@uni.example',
    attempts: [{ ...attempt('ring.time-bandwidth', '2029-12-01T10:00:00Z', ['80 ms', '140 ms']), verdict: 'partial', score: 0.5 }] }));
  const section = run(['report', path.join(tmp, 'hw-items.json'), items, '--now', '2030-01-03T00:00:00Z', '--items']).stdout.toString();
  check(/the engine: .*dropped the \(N-1\)\/N factor/.test(section) && !/\$|\\[a-z]+\{|\*\*|`/.test(section), '--items prints plain text', section);
  const blank = report('canvas', ['--missing', 'blank', '--column', 'HW (99)']);
  const csv = fs.readFileSync(path.join(tmp, 'canvas.csv'), 'utf8');
  check(/^Student,ID,SIS User ID,SIS Login ID,Section,HW \(99\)\r\n/.test(csv) && /"Chan, Cy",103,S1003,cy@uni\.example,Section B,\r\n/.test(csv),
    '--missing blank leaves the cell empty; --column names the column', csv + blank.stderr);
  const wrong = run(['report', path.join(tmp, 'hw.json'), files, '--format', 'canvas', '--roster', course('moodle-roster.csv'), '--csv', path.join(tmp, 'x.csv')]);
  check(wrong.status === 2 && /moodle-roster\.csv:1:1: error\[E011\]: expected a Canvas gradebook export/.test(wrong.stderr.toString()),
    'a Moodle export given as a Canvas one is refused by name', `status ${wrong.status}\n${wrong.stderr}`);
  const noRoster = run(['report', path.join(tmp, 'hw.json'), files, '--format', 'moodle', '--csv', path.join(tmp, 'x.csv')]);
  check(noRoster.status === 2 && /give --roster/.test(noRoster.stderr.toString()), '--format moodle without a roster is a usage error', String(noRoster.stderr));
  const bad = path.join(tmp, 'bad.csv');
  fs.writeFileSync(bad, 'Student,ID,SIS Login ID\n"Ana,101,ana@uni.example\n');
  const unclosed = run(['report', path.join(tmp, 'hw.json'), files, '--format', 'canvas', '--roster', bad, '--csv', path.join(tmp, 'x.csv')]);
  check(unclosed.status === 2 && /bad\.csv:2:1: error\[E003\]: a quoted cell is never closed/.test(unclosed.stderr.toString()),
    'an unclosed quote in the roster is named at its line and column', String(unclosed.stderr));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failures ? `${failures} failure(s)` : 'gradebook: all passed');
process.exit(failures ? 1 : 0);
