// Gradebooks for the LMS (dtx report --format canvas|moodle --roster), and the course policies
// (a pool, an extension, late work, exam mode) in the report: a class of files made
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
import { ROOT, check, dtx, failed } from './lib.mjs';

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
  // Course policies in one class: a pool, an extension, late work at 25 % less per day begun,
  // exam mode (the report grades as usual). ana: ring.volume 25 h late (two days begun: half),
  // her pool pick on time; bo: ring.volume 36 h late inside his extension (full), and the pool
  // member he was not given; cy: ring.volume after the late window (not counted).
  const due = Date.parse('2030-01-01T12:00:00Z');
  const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const pol = path.join(tmp, 'policies');
  fs.mkdirSync(pol);
  const polHw = path.join(tmp, 'hw-policies.json');
  fs.writeFileSync(polHw, JSON.stringify({ format: 'dtx-assignment/1', id: 'hw-pol', title: 'Policies', due: iso(due), hand_in: 'h',
    exercises: ['ring.volume', { pool: 'p', pick: 1, from: ['ring.why-ring', 'ring.buggy-double-count'], points: 2 }],
    extensions: { 'bo@uni.example': iso(due + 2 * 86400e3) },
    policies: { per_student_numbers: false, feedback: 'after-due', late: { until: iso(due + 3 * 86400e3), penalty_per_day: 0.25 } } }));
  const pickOf = (student) => ['ring.why-ring', 'ring.buggy-double-count'].find((id) =>
    run(['show', id, '--assignment', polHw, '--student', student]).status === 0);
  const polSub = (student, attempts) => fs.writeFileSync(path.join(pol, student + '.json'),
    JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-pol', student, attempts }));
  const anaPick = pickOf('ana@uni.example'), boPick = pickOf('bo@uni.example');
  const boOther = ['ring.why-ring', 'ring.buggy-double-count'].find((id) => id !== boPick);
  polSub('ana@uni.example', [attempt('ring.volume', iso(due + 25 * 3600e3)), attempt(anaPick, iso(due - 60e3))]);
  polSub('bo@uni.example', [attempt('ring.volume', iso(due + 36 * 3600e3)), attempt(boOther, iso(due - 60e3))]);
  polSub('cy@uni.example', [attempt('ring.volume', iso(due + 4 * 86400e3))]);
  const polCsv = path.join(tmp, 'policies.csv');
  const pr = run(['report', polHw, pol, '--now', iso(due + 5 * 86400e3), '--csv', polCsv]);
  const rows = fs.readFileSync(polCsv, 'utf8').split('\r\n');
  const cells = (who) => (rows.find((r) => r.startsWith(who)) || '').split(',').slice(1, 5).join(',');
  // the pool's two columns (why-ring first): the student's pick holds `v`, the other is empty
  const picked = (p, v) => (p === 'ring.why-ring' ? `${v},` : `,${v}`);
  check(rows[0] === 'student,ring.volume,ring.why-ring,ring.buggy-double-count,total,flag', 'policies: the columns', rows[0]);
  check(cells('ana@uni.example') === `0.5,${picked(anaPick, 2)},2.5`, 'policies: ana 25 h late at half, her pick in full',
    rows.join('\n') + pr.stdout);
  check(cells('bo@uni.example') === `1,${picked(boPick, 0)},1`, "policies: bo's extension counts in full; the member not his counts nothing", rows.join('\n'));
  check(cells('cy@uni.example') === `0,${picked(pickOf('cy@uni.example'), 0)},0`, 'policies: cy after the window: nothing', rows.join('\n'));
  const polOut = pr.stdout.toString();
  check(/1 attempt counted late, at a penalty: ring\.volume .*\(25 h late: its score times 0\.5\)/.test(polOut) &&
    new RegExp(`1 attempt on pool exercises this student was not given \\(not counted, not run\\): ${boOther.replace('.', '\\.')}`).test(polOut) &&
    /1 attempt after the due date \(not counted, not run\): ring\.volume/.test(polOut) &&
    /Extensions: bo@uni\.example until 2030-01-03 12:00 \+00:00/.test(polOut),
    'policies: the penalty, the pool member not given, the attempt after the window, the extension, in the report', polOut);
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
console.log(failed() ? `${failed()} failure(s)` : 'gradebook: all passed');
process.exit(failed() ? 1 : 0);
