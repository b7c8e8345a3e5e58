// What `dtx` prints when students' files are hostile: control sequences (ESC [2K and a
// carriage return redraw a line; a C1 CSI; a right-to-left override) in answers, verdicts,
// exercise ids, a file name and a program's error, and a forged file that claims another
// student. The bytes printed hold none of them (they are shown as \x1b, \u202e), the forged
// file is flagged in the terminal and in the CSV, and the honest student's grade is unchanged.
//
//   node tests/cli/report_hostile.mjs build/native/dtx [SOURCE_DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, check, dtx, failed } from './lib.mjs';


const EVIL = '\u001b[2K\rcorrect (score 100%)\u202e\u0085\u009b31m\u2066';
// Bytes a terminal would act on: C0 controls but newline and tab, DEL, C1 (as UTF-8), bidi.
function terminalActive(buf) {
  const found = [];
  const s = buf.toString('utf8');
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if ((c < 0x20 && c !== 0x0a && c !== 0x09) || c === 0x7f || (c >= 0x80 && c <= 0x9f) ||
        (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || c === 0xfffd) {
      found.push('U+' + c.toString(16).padStart(4, '0'));
    }
  }
  return found;
}
const run = (args) => spawnSync(dtx, args, { cwd: ROOT, env: { ...process.env, DTX_EXERCISES: path.join(ROOT, 'exercises') } });
const shownRun = (r) => `status ${r.status}\n${r.stdout}${r.stderr}`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-hostile-'));
try {
  const answer = (id) => JSON.parse(run(['show', id, '--seed', '0', '--answer', '--json']).stdout).grade_words;
  const due = '2030-01-01T12:00:00Z';
  fs.writeFileSync(path.join(tmp, 'hw.json'), JSON.stringify({
    format: 'dtx-assignment/1', id: 'hw-term', title: 'Terminal test', due, hand_in: 'h',
    exercises: ['ring.volume', 'ring.why-ring'],
    policies: { per_student_numbers: false, max_attempts: 2 },
  }));
  const files = path.join(tmp, 'class');
  fs.mkdirSync(files);
  const at = (minute) => `2029-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
  const attempt = (exercise, words, minute, verdict = 'correct') => ({ exercise, seed: 0, answer: words, verdict, score: 1, at: at(minute) });
  const sub = (student, attempts) => JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-term', student, attempts });
  // ana: right at the first try on both.
  fs.writeFileSync(path.join(files, 'ana.json'), sub('ana@uni.example', [
    attempt('ring.volume', answer('ring.volume'), 30), attempt('ring.why-ring', answer('ring.why-ring'), 31)]));
  // A forged file in ana's name: wrong attempts dated before hers, enough to use up her limit.
  const wrongs = [];
  for (const ex of ['ring.volume', 'ring.why-ring'])
    for (let i = 0; i < 2; i++) wrongs.push(attempt(ex, ex === 'ring.volume' ? ['phase=1 GB', 'total=1 GB'] : ['C'], i, EVIL));
  fs.writeFileSync(path.join(files, 'forged.json'), sub('ANA@uni.example', wrongs));
  // mal: control sequences everywhere a file can put text, and a file name holding them too.
  fs.writeFileSync(path.join(files, `mal${EVIL.replace(/\//g, '')}.json`), sub('mal', [
    attempt('ring.volume', [`phase=${EVIL}`, `total=${EVIL}`], 1, EVIL),
    attempt('ring.why-ring', ['B'], 2, EVIL),
    attempt(`ring.volume${EVIL}`, ['A'], 3),
  ]));
  fs.writeFileSync(path.join(files, 'wrong-assignment.json'),
    JSON.stringify({ format: 'dtx-submission/1', assignment: `hw-term${EVIL}`, student: 'cy', attempts: [] }));
  fs.writeFileSync(path.join(files, 'bad-id.json'),
    JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-term', student: `dee${EVIL}`, attempts: [] }));

  const csv = path.join(tmp, 'grades.csv');
  const r = run(['report', path.join(tmp, 'hw.json'), files, '--csv', csv, '--items', '--now', '2030-01-15T00:00:00Z']);
  const printed = Buffer.concat([r.stdout, r.stderr]);
  check(terminalActive(printed).length === 0, `dtx report prints no terminal control (found ${terminalActive(printed).join(' ')})`, shownRun(r));
  check(printed.includes('\\x1b[2K\\x0dcorrect'), 'the control sequences are shown as escapes', shownRun(r));
  check(printed.includes('\\u202e'), 'the right-to-left override is shown as \\u202e');
  check(/WARNING: more than one file claims ana@uni\.example/.test(printed), 'the forged identity is announced above the table', shownRun(r));
  check(/2 FILES CLAIM THIS STUDENT: .*ana\.json.*forged\.json/.test(printed), 'and flagged with both file names');
  check(r.status === 1, `exit status 1: some files could not be read (got ${r.status})`);
  const grades = fs.readFileSync(csv, 'utf8');
  check(terminalActive(Buffer.from(grades.replace(/\r\n/g, '\n'))).length === 0, 'the CSV holds no control either', grades);
  check(grades.startsWith('student,ring.volume,ring.why-ring,total,flag\r\n'), 'the CSV header names the flag column', grades);
  check(grades.includes('\r\nana@uni.example,1,1,2,"2 files claim this student: ana.json; forged.json"\r\n'),
    "ana keeps her grade, and the CSV row says two files claim her", grades);
  check(grades.includes('\r\nmal,0,0,0,\r\n'), 'mal gets nothing for answers that are not answers', grades);

  // dtx grade: a typed answer and a file name full of controls.
  const g = run(['grade', 'ring.volume', `phase=${EVIL}`, `total=${EVIL}`]);
  const gp = Buffer.concat([g.stdout, g.stderr]);
  check(terminalActive(gp).length === 0, `dtx grade prints no terminal control (found ${terminalActive(gp).join(' ')})`, shownRun(g));
  // dtx lint: a pack whose texts and field names hold them.
  const pack = path.join(tmp, `pack${EVIL.replace(/\//g, '')}.json`);
  fs.writeFileSync(pack, JSON.stringify({ format: 1, chapter: 0, id: 'p', title: `T${EVIL}`, exercises: [
    { id: 'p.a', type: 'choice', title: `A${EVIL}`, prompt: `{x${EVIL}} {y}`, [`field${EVIL}`]: 1,
      options: [{ text: 'x', correct: true }, { text: 'y' }] }] }));
  const l = run(['lint', '--no-run', pack]);
  const lp = Buffer.concat([l.stdout, l.stderr]);
  check(l.status === 1 && terminalActive(lp).length === 0, `dtx lint prints no terminal control (found ${terminalActive(lp).join(' ')})`, shownRun(l));
  const lj = run(['lint', '--no-run', '--json', pack]);
  let parsed = null;
  try { parsed = JSON.parse(lj.stdout.toString()); } catch { /* reported below */ }
  check(Array.isArray(parsed) && parsed.some((d) => d.message.includes('\u001b[2K')),
    'dtx lint --json stays valid JSON and keeps the text (escaped as JSON escapes)', shownRun(lj));
  check(terminalActive(lj.stdout).length === 0, 'and prints no terminal control either');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
if (failed()) {
  console.log(`${failed()} check(s) failed`);
  process.exit(1);
}
console.log('hostile class: nothing a terminal obeys was printed; grades right');
