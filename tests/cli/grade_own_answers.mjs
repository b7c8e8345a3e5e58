// Every exercise, at the default seed (and one drawn seed when it has parameters), graded by `dtx grade` with the answer
// `dtx show --answer` prints: what an instructor's script does, for each kind of exercise.
// One node process drives the ~850 dtx runs (two at a time on the 2-core machine) instead
// of spawning a JSON reader per instance.
//
//   node tests/cli/grade_own_answers.mjs DTX [EXERCISES_DIR]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dtx = process.argv[2];
const exercisesDir = process.argv[3] || 'exercises';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-own-'));
const run = (args) => new Promise((resolve) => {
  execFile(dtx, args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr }));
});

// The right answer as `dtx show --answer --json` gives it for `dtx grade`: words, or for a
// program (code) its text, written to a file. No exercise type is named here.
function answerArgs(d, n) {
  if (!Array.isArray(d.grade_words) || !d.grade_words.length) return null;
  if (!d.answer_is_program) return d.grade_words;
  const f = path.join(tmp, `ref-${n}.js`);
  fs.writeFileSync(f, d.grade_words[0]);
  return [f];
}

const list = JSON.parse((await run(['list', '--json'])).stdout);
// Each instance is shown and graded from its own pack (--packs FILE): the round trip is the
// same, and reading one pack instead of all fifteen makes each run a fifth as long. `dtx list`
// above, and test_cli.sh's own show and grade checks, read the whole course.
const packFile = {};
for (const f of fs.readdirSync(exercisesDir).filter((f) => /^\d.*\.json$/.test(f)))
  packFile[JSON.parse(fs.readFileSync(path.join(exercisesDir, f), 'utf8')).id] = path.join(exercisesDir, f);
const jobs = [];
// What this checks is the CLI's text round trip (show's numbers and letters read back by
// grade). An exercise without parameters shows the same text at every seed, so it is checked
// at seed 0 only; one with parameters at its default and one drawn seed. The engine itself is graded over 20 seeds
// in process (Content.EveryTypesSampleAnswersGetTheirVerdicts, and
// SandboxRunner.ShippedCodeExercisesReferenceAndWrongImplementations for the generated cases
// of code exercises).
for (const e of list) for (const seed of e.parameters.length ? [0, 3] : [0]) jobs.push({ id: e.id, seed, pack: e.pack });
const failures = [];
let next = 0, graded = 0;
async function worker() {
  while (next < jobs.length) {
    const n = next++;
    const { id, seed, pack } = jobs[n];
    const packs = ['--packs', packFile[pack]];
    if (!packFile[pack]) { failures.push(`${id}: pack ${pack} not found in ${exercisesDir}`); continue; }
    const show = await run(['show', id, '--seed', String(seed), '--answer', '--json', ...packs]);
    if (show.code !== 0) { failures.push(`show ${id} seed ${seed}: exit ${show.code} ${show.stderr}`); continue; }
    const d = JSON.parse(show.stdout);
    const args = answerArgs(d, n);
    if (!args) { failures.push(`${id}: \`dtx show --answer --json\` gave no grade_words (${d.type})`); continue; }
    const g = await run(['grade', id, '--seed', String(seed), ...packs, ...args]);
    if (g.code !== 0) failures.push(`grade ${id} seed ${seed} with the engine's answer (${args.join(' | ')}): exit ${g.code}\n${(g.stdout + g.stderr).split('\n').slice(0, 12).map((l) => '    ' + l).join('\n')}`);
    graded++;
  }
}
await Promise.all([worker(), worker()]);
fs.rmSync(tmp, { recursive: true, force: true });
for (const f of failures) console.log('FAIL: ' + f);
console.log(`graded ${graded} instances with their own answers`);
process.exit(failures.length ? 1 : 0);
