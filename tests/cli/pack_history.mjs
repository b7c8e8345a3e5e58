// Grading on the version students saw (dtx report --packs-history): a class answered ring.volume
// on one version of its pack; the instructor then widened a tolerance (bo's answer, 2.9 % off,
// becomes right) or fixed a typo. With the earlier version in a folder or in a git repository's
// history, each attempt is graded on the version its student saw, and the report says once per
// pack whose score the current version would change. Without it, the report says the version is
// missing and whether the current one gives the page's scores. A course pack `dtx lint` rejects
// is refused with its error.
//   node tests/cli/pack_history.mjs build/native/dtx [SOURCE_DIR]
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, check, dtx, failed } from './lib.mjs';

const sha = (t) => crypto.createHash('sha256').update(t).digest('hex');
const PACK = '00-ring-allreduce.json';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-history-'));
try {
  const original = JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises', PACK), 'utf8'));
  const version = (edit) => { const p = structuredClone(original); edit(p.exercises.find((e) => e.id === 'ring.volume')); return JSON.stringify(p, null, 2) + '\n'; };
  const v1 = version(() => {});
  const wider = version((e) => { e.parts[0].tolerance = { rel: 0.1 }; });
  const typo = version((e) => { e.title = e.title + ' (typo fixed)'; });
  const course = path.join(tmp, 'course'), history = path.join(tmp, 'history'), subs = path.join(tmp, 'subs');
  for (const d of [course, history, subs]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(history, 'ring-v1.json'), v1);
  fs.writeFileSync(path.join(tmp, 'hw.json'), JSON.stringify({ format: 'dtx-assignment/1', id: 'hw-hist', title: 'History',
    due: '2030-01-01T12:00:00Z', hand_in: 'h', exercises: ['ring.volume'], policies: { per_student_numbers: false } }));
  const attempt = (answer, verdict, score) => ({ exercise: 'ring.volume', seed: 0, answer, verdict, score, at: '2029-12-01T10:00:00Z',
    pack: PACK, pack_sha256: sha(v1) });
  const sub = (student, a) => fs.writeFileSync(path.join(subs, student + '.json'),
    JSON.stringify({ format: 'dtx-submission/1', assignment: 'hw-hist', student, attempts: [a] }));
  sub('ana@uni.example', attempt(['0.875 GB', '1.75 GB'], 'correct', 1));
  sub('bo@uni.example', attempt(['0.9 GB', '1.75 GB'], 'partial', 0.5));
  const report = (pack, extra = []) => {
    fs.writeFileSync(path.join(course, PACK), pack);
    const r = spawnSync(dtx, ['report', path.join(tmp, 'hw.json'), subs, '--packs', course, '--now', '2030-01-03T00:00:00Z', ...extra]);
    return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
  };
  const row = (out, who) => (out.split('\n').find((l) => l.startsWith(who)) || '').replace(/\s+/g, ' ');

  let r = report(wider, ['--packs-history', history]);
  check(r.out.includes(`PACK CHANGED: ${PACK} changed since 2 students answered: graded on the version each saw (--packs-history). ` +
    "Re-graded under the current version, 1 student's scores would change: bo@uni.example 0.5 -> 1"), 'history: graded on the version seen; the change under the current one listed, once', r.out + r.err);
  check(row(r.out, 'bo@uni.example').startsWith('bo@uni.example 0.5 0.5 / 1'), "history: bo keeps the score of the version he saw", row(r.out, 'bo@uni.example'));
  check((r.out.match(/PACK CHANGED/g) || []).length === 1 && !/another version/.test(r.out), 'one line for the pack, none per student', r.out);

  r = report(wider);
  check(r.out.includes(`PACK CHANGED: ${PACK} changed since 2 attempts by 2 students were made, and the version they saw is not in the history: ` +
    'graded with the current version, which scores 1 of them differently from the page: bo@uni.example on ring.volume: 0.5 in the page, 1 now'), 'no history: the missing version said once, with the scores that differ', r.out);

  r = report(typo);
  check(r.out.includes('which gives every one of those attempts the score the page showed'), 'a typo fix: every score as the page showed it', r.out);

  // The same history from git: v1 committed, then the wider tolerance.
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(path.join(repo, 'exercises'), { recursive: true });
  const git = (...args) => spawnSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
  git('init', '-q');
  for (const [text, msg] of [[v1, 'v1'], [wider, 'wider']]) {
    fs.writeFileSync(path.join(repo, 'exercises', PACK), text);
    git('add', '-A');
    git('commit', '-qm', msg);
  }
  r = report(wider, ['--packs-history', repo, '--git']);
  check(r.out.includes("1 student's scores would change: bo@uni.example 0.5 -> 1") && /2 earlier pack texts/.test(r.err),
    'git history: the same', r.out + r.err);
  r = report(wider, ['--git']);
  check(r.status === 2 && /--git reads the history of --packs-history REPO/.test(r.err), '--git alone is a usage error', r.err);

  // A course pack lint rejects (an undeclared name in an answer): refused, with its error.
  r = report(version((e) => { e.parts[0].answer = 'M*(N-1)/Q'; }));
  check(r.status === 2 && /00-ring-allreduce\.json:\d+:\d+: error\[E0\d\d\]: .*Q/.test(r.err) && /nothing graded/.test(r.err),
    'a pack lint rejects is refused with its error', `status ${r.status}\n${r.err}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failed() ? `${failed()} failure(s)` : 'pack history: all passed');
process.exit(failed() ? 1 : 0);
