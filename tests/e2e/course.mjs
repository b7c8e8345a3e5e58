// Course mode, end to end: an assignment of four exercises (tests/course/assignment.json)
// opened with ?assign= in the real page by three students, each with their own identifier
// and numbers. ana solves everything (one wrong try first); bo copies: he opens ana's numbers
// from her link and types her answers, then types her answer into his own instance; cy solves
// one exercise in time and one after the due date (the page's clock is moved). Each downloads
// their submission; `dtx report` then grades the files natively, and its gradebook must equal
// tests/course/expected-grades.csv, with the copy, the late attempt and a broken file flagged.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, state, waitFor, click, typeInto, submit, shot, engineAnswer, waitForLayer } from './lib.mjs';

const ASSIGNMENT = path.join(ROOT, 'tests/course/assignment.json');
const DUE_MS = Date.parse('2030-01-01T12:00:00+01:00');
const OUT = path.join(ROOT, 'build/e2e/course');

// A page whose clock reads `clockMs` now (Date.now only: the page's attempt times come from
// it); window.__dtxClock moves it later.
async function studentPage(newPage, server, clockMs) {
  const page = await newPage({ acceptDownloads: true });
  await page.addInitScript((t) => {
    const real = Date.now.bind(Date), start = real();
    window.__dtxClock = t;
    Date.now = () => window.__dtxClock + (real() - start);
  }, clockMs);
  const body = fs.readFileSync(ASSIGNMENT, 'utf8');
  await page.route('**/e2e-assignment.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
  await page.goto(server().url + '?assign=e2e-assignment.json');
  await waitFor(page, "s.screen === 'assignment' && !s.busy && s.assignment && !s.assignment.loading", 20000);
  return page;
}

async function signIn(page, id, eq, exercises = 4) {
  await typeInto(page, 'student-id', id);
  await click(page, 'student-start');
  const s = await waitFor(page, `s.assignment.student === ${JSON.stringify(id.toLowerCase())}`);
  eq(Object.keys(s.assignment.seeds).length, exercises, 'a seed for each exercise');
  return s.assignment.seeds;
}

// The right answer of `id` at `seed`, entered through the exercise's own controls.
async function answer(page, id, seed, { wrong = false } = {}) {
  const ans = engineAnswer(id, seed);
  if (id === 'ring.volume') {
    for (const p of ans.parts) await typeInto(page, `part-${p.id}`, `${wrong ? p.value * 2 : p.value} ${p.unit}`);
  } else if (id === 'ring.why-ring') {
    await click(page, `choice-${ans.options.findIndex((o) => wrong ? !o.correct : o.correct)}`);
  } else if (id === 'ring.buggy-double-count') {
    await click(page, `line-${ans.bugs[0]}`);
  } else if (id === 'ring.code-time') {
    await typeInto(page, 'code', ans.reference, { commit: true });
  }
  return submit(page);
}

async function openFromAssignment(page, id, seed) {
  await click(page, `open-${id}`);
  return waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && s.seed === ${seed}`);
}

async function backToAssignment(page) {
  await click(page, 'to-assignment');
  await waitFor(page, "s.screen === 'assignment'");
}

async function download(page, student) {
  const [dl] = await Promise.all([page.waitForEvent('download'), click(page, 'download-submission')]);
  const file = path.join(OUT, `${student}.json`);
  await dl.saveAs(file);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

export default function register({ test, newPage, assert, eq, server, checkPhoneScreen }) {
  // A phone from 320 to 430 px: the identifier field and its Start button are on the screen
  // (beside each other where they fit, one above the other where not), and Start starts.
  test('course: on a phone, the assignment\'s Start button is on the screen and starts', async () => {
    const body = fs.readFileSync(ASSIGNMENT, 'utf8');
    for (const width of [320, 375, 430]) {
      const page = await newPage({ viewport: { width, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
      await page.route('**/e2e-assignment.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
      await page.goto(server().url + '?assign=e2e-assignment.json');
      const s = await waitFor(page, "s.screen === 'assignment' && !s.busy && s.assignment && !s.assignment.loading", 20000);
      const start = s.items.find((i) => i.id === 'student-start'), field = s.items.find((i) => i.id === 'student-id');
      assert(start && field, `${width} px: the field and Start listed: ` + s.items.map((i) => i.id));
      assert(start.x >= 0 && start.x + start.w <= width && !start.cut, `${width} px: Start at x ${start.x.toFixed(0)}, w ${start.w.toFixed(0)}`);
      assert(field.x + field.w <= width, `${width} px: the field at x ${field.x.toFixed(0)}, w ${field.w.toFixed(0)}`);
      if (width === 320) await shot(page, 'phone-assignment-320');
      await page.context().close();
    }
  }, { worker: 'the assignment file is served by page.route, which never sees what the service worker fetches' });

  // Inside the assignment (here with a pool, 2 of 3, and in exam mode), Previous and Next go
  // through the student's exercises at their own numbers ("exercise 2 of 3"), and the last one
  // leads back to the assignment; every screen of it, "Answer saved" included, fits a phone from
  // 320 to 430 px, each control inside the screen and 44 CSS px or more.
  test('course: Next and Previous go through the assignment (a pool, exam mode) at the student\'s numbers and back; its screens fit 320-430 px phones', async () => {
    const assignment = JSON.parse(fs.readFileSync(ASSIGNMENT, 'utf8'));
    assignment.exercises = ['ring.volume', { pool: 'p', pick: 2, from: ['ring.why-ring', 'ring.buggy-double-count', 'ring.code-time'] }];
    assignment.policies.feedback = 'after-due';
    const body = JSON.stringify(assignment);
    const order = ['ring.volume', 'ring.why-ring', 'ring.buggy-double-count', 'ring.code-time'];
    const problems = [];
    for (const width of [320, 360, 390, 430]) {
      const page = await newPage({ viewport: { width, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
      await page.route('**/e2e-assignment.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
      await page.goto(server().url + '?assign=e2e-assignment.json');
      await waitFor(page, "s.screen === 'assignment' && !s.busy && s.assignment && !s.assignment.loading", 20000);
      problems.push(...await checkPhoneScreen(page, `${width} px, the identifier`, false));
      const seeds = await signIn(page, `phone${width}@uni.example`, eq, 3);
      const ids = order.filter((id) => id in seeds);  // the student's picks, in the assignment's order
      problems.push(...await checkPhoneScreen(page, `${width} px, the assignment`, true));
      await page.mouse.wheel(0, -5000);
      await openFromAssignment(page, ids[0], seeds[ids[0]]);
      const layer = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
      // (the layer's words run on where the canvas wraps a line)
      assert(/exercise 1\s*of\s*3/.test(layer), `${width} px: "exercise 1 of 3" on the first: ` + layer.slice(0, 300));
      problems.push(...await checkPhoneScreen(page, `${width} px, ${ids[0]}`, true));
      const saved = await answer(page, ids[0], seeds[ids[0]], { wrong: true });
      assert(/^Answer saved/.test(saved.saved || ''), `${width} px: exam mode saves the answer`);
      problems.push(...await checkPhoneScreen(page, `${width} px, ${ids[0]} saved`, true));
      const walk = width === 360 ? ids.length - 1 : 0;  // the whole walk once
      for (let i = 1; i <= walk; i++) {
        await click(page, 'next');
        await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(ids[i])} && s.seed === ${seeds[ids[i]]}`);
      }
      if (walk) {
        problems.push(...await checkPhoneScreen(page, `${width} px, the last exercise`, true));
        await click(page, 'prev');
        await waitFor(page, `s.exercise === ${JSON.stringify(ids[ids.length - 2])} && s.seed === ${seeds[ids[ids.length - 2]]}`);
        await click(page, 'next');
        await waitFor(page, `s.exercise === ${JSON.stringify(ids[ids.length - 1])}`);
        const s = await waitFor(page, 'true');
        assert(!s.items.some((x) => x.id === 'next'), 'no Next after the assignment\'s last exercise');
        await click(page, 'assignment-end');
        await waitFor(page, "s.screen === 'assignment'");
        await shot(page, 'phone-assignment-walk-360');
      }
      await page.context().close();
    }
    eq(problems.join('\n'), '', 'controls cut or under 44 CSS px');
  }, { worker: 'the assignment file is served by page.route, which never sees what the service worker fetches' });

  // Exam mode (policies.feedback "after-due"): an attempt says "Answer saved" and nothing that
  // tells right from wrong (no verdict, no worked solution, no standing), to the eye and the
  // screen reader; once the page's clock passes the due date, the verdicts and standing show.
  test('course: exam mode saves answers without verdicts until the due date, then shows them', async () => {
    const exam = JSON.parse(fs.readFileSync(ASSIGNMENT, 'utf8'));
    exam.id = 'e2e-exam';
    exam.policies.feedback = 'after-due';
    const body = JSON.stringify(exam);
    const page = await newPage();
    await page.addInitScript((t) => {
      const real = Date.now.bind(Date), start = real();
      window.__dtxClock = t;
      Date.now = () => window.__dtxClock + (real() - start);
    }, DUE_MS - 86400e3);
    await page.route('**/e2e-exam.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
    await page.goto(server().url + '?assign=e2e-exam.json');
    await waitFor(page, "s.screen === 'assignment' && !s.busy && s.assignment && !s.assignment.loading", 20000);
    const seeds = await signIn(page, 'exam@uni.example', eq);
    await openFromAssignment(page, 'ring.volume', seeds['ring.volume']);
    let s = await answer(page, 'ring.volume', seeds['ring.volume'], { wrong: true });
    eq(s.verdict, undefined, 'no verdict in the state');
    assert(/^Answer saved/.test(s.saved || ''), 'the page says the answer was saved: ' + s.saved);
    eq(s.spoken, s.saved, 'the live region says the same, and nothing more');
    assert(!s.items.some((x) => x.id === 'explain'), 'no worked solution');
    let layer = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
    assert(!/incorrect|correct|wrong/i.test(layer.replace(/Answer saved[^]*?attempt\)/, '')), 'no verdict on the screen: ' + layer.slice(0, 600));
    assert(/1\s*of\s*3\s*answers\s*saved/.test(layer), 'the banner counts answers saved: ' + layer.slice(0, 400));
    await shot(page, 'course-exam-saved');
    await backToAssignment(page);
    layer = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
    assert(/1 answer saved/.test(layer) && !/best|solved|standing:/i.test(layer), 'the list says saved, not how it went: ' + layer.slice(0, 600));
    // After the due date: the verdicts and the standing.
    await page.evaluate((t) => { window.__dtxClock = t; }, DUE_MS + 3600e3);
    await openFromAssignment(page, 'ring.volume', seeds['ring.volume']);
    await backToAssignment(page);
    layer = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
    assert(/best 0 %/.test(layer) && /Your standing: 0 of 5 points/.test(layer), 'after the due date the standing shows: ' + layer.slice(0, 600));
    const file = await download(page, 'exam');
    eq(file.attempts.map((a) => a.verdict).join(','), 'incorrect', 'the file keeps the verdict for the report');
    await page.context().close();
  }, { worker: 'the assignment file is served by page.route, which never sees what the service worker fetches' });

  // A course pack that `dtx lint` rejects (a known mistake equal to the answer: loadable, but
  // no grade on it means anything) stops the assignment with the error, as dtx report refuses it.
  test('course: an assignment whose pack dtx lint rejects is refused with the error', async () => {
    const body = fs.readFileSync(ASSIGNMENT, 'utf8');
    const pack = JSON.parse(fs.readFileSync(path.join(ROOT, 'exercises/00-ring-allreduce.json'), 'utf8'));
    const volume = pack.exercises.find((e) => e.id === 'ring.volume');
    volume.parts[0].mistakes = [{ answer: volume.parts[0].answer, message: 'the same as the answer' }];
    const page = await newPage();
    await page.route('**/e2e-assignment.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
    await page.route('**/exercises/00-ring-allreduce.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(pack, null, 2) }));
    await page.goto(server().url + '?assign=e2e-assignment.json');
    const s = await waitFor(page, "s.screen === 'assignment' && !s.busy && s.assignment && !s.assignment.loading", 20000);
    await waitForLayer(page, '/could not be opened/.test(t)', 'the refusal');
    const layer = await page.evaluate(() => document.getElementById('dtx-layer').textContent);
    assert(/could not be opened/.test(layer) && /error\[E050\]: \/exercises\/0\/parts\/0\/mistakes\/0\/answer: this known mistake equals the answer/.test(layer),
      'the refusal names the lint error: ' + layer.slice(0, 800));
    assert(!s.items.some((i) => i.id === 'student-id' || i.id.startsWith('open-')), 'nothing to start');
    await page.context().close();
  }, { worker: 'the files are served by page.route, which never sees what the service worker fetches' });

  test('course: three students, an assignment, dtx report', async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(OUT, { recursive: true });
    const before = DUE_MS - 10 * 86400e3;

    // ana: every exercise, one wrong try first; no worked solution until she solves it.
    const ana = await studentPage(newPage, server, before);
    await shot(ana, 'course-identifier');
    const anaSeeds = await signIn(ana, 'Ana@Uni.example', eq);  // kept as ana@uni.example
    await shot(ana, 'course-assignment');
    await openFromAssignment(ana, 'ring.volume', anaSeeds['ring.volume']);
    let s = await answer(ana, 'ring.volume', anaSeeds['ring.volume'], { wrong: true });
    eq(s.verdict, 'incorrect', 'ana: twice the answer');
    assert(!s.items.some((x) => x.id === 'explain'), 'no worked solution before solving (after-solve)');
    eq(s.assignment.attempts_left, 2, 'attempts left after one of three');
    s = await answer(ana, 'ring.volume', anaSeeds['ring.volume']);
    eq(s.verdict, 'correct', 'ana: ring.volume');
    await shot(ana, 'course-exercise');
    for (const id of ['ring.why-ring', 'ring.buggy-double-count', 'ring.code-time']) {
      await backToAssignment(ana);
      await openFromAssignment(ana, id, anaSeeds[id]);
      s = await answer(ana, id, anaSeeds[id]);
      eq(s.verdict, 'correct', `ana: ${id}`);
    }
    await backToAssignment(ana);
    await shot(ana, 'course-standing');
    const anaFile = await download(ana, 'ana');
    eq(anaFile.format, 'dtx-submission/1', 'the submission format');
    eq(anaFile.attempts.length, 5, 'ana: five attempts in her file');
    assert(anaFile.attempts.every((a) => /^[0-9a-f]{64}$/.test(a.pack_sha256)), 'each attempt names its pack by hash');

    // bo: ana's numbers from her link, with her answers (right there, but not his); then her
    // answer in his own instance (wrong for his numbers); the buggy line on his own.
    const bo = await studentPage(newPage, server, before);
    const boSeeds = await signIn(bo, 'bo@uni.example', eq);
    assert(boSeeds['ring.volume'] !== anaSeeds['ring.volume'], 'another student, other numbers');
    await bo.evaluate((h) => { location.hash = h; }, `#/ex/ring.volume/${anaSeeds['ring.volume']}`);
    await waitFor(bo, `s.screen === 'exercise' && s.seed === ${anaSeeds['ring.volume']}`);
    s = await answer(bo, 'ring.volume', anaSeeds['ring.volume']);
    eq(s.verdict, 'correct', "bo on ana's numbers: right for them");
    assert(s.items.some((x) => x.id === 'own-numbers'), 'the page says these are not his numbers');
    await shot(bo, 'course-not-your-numbers');
    await click(bo, 'own-numbers');
    await waitFor(bo, `s.screen === 'exercise' && s.seed === ${boSeeds['ring.volume']}`);
    s = await answer(bo, 'ring.volume', anaSeeds['ring.volume']);
    eq(s.verdict, 'incorrect', "ana's answer in bo's instance");
    await backToAssignment(bo);
    await openFromAssignment(bo, 'ring.buggy-double-count', boSeeds['ring.buggy-double-count']);
    s = await answer(bo, 'ring.buggy-double-count', boSeeds['ring.buggy-double-count']);
    eq(s.verdict, 'correct', 'bo: the buggy line');
    await backToAssignment(bo);
    await download(bo, 'bo');

    // cy: ring.volume the day before the due date, ring.why-ring two hours after it.
    const cy = await studentPage(newPage, server, DUE_MS - 86400e3);
    const cySeeds = await signIn(cy, 'cy@uni.example', eq);
    await openFromAssignment(cy, 'ring.volume', cySeeds['ring.volume']);
    eq((await answer(cy, 'ring.volume', cySeeds['ring.volume'])).verdict, 'correct', 'cy: ring.volume');
    await backToAssignment(cy);
    await cy.evaluate((t) => { window.__dtxClock = t; }, DUE_MS + 2 * 3600e3);
    await openFromAssignment(cy, 'ring.why-ring', cySeeds['ring.why-ring']);
    eq((await answer(cy, 'ring.why-ring', cySeeds['ring.why-ring'])).verdict, 'correct', 'cy: ring.why-ring (late)');
    await backToAssignment(cy);
    await download(cy, 'cy');

    // A file that is not a submission: named in the report, the others still graded.
    fs.writeFileSync(path.join(OUT, 'broken.json'), '{"format": "dtx-submission/1", "attempts": [\n');

    const dtx = path.join(ROOT, 'build/native/dtx');
    const csv = path.join(OUT, 'grades.csv');
    const run = spawnSync(dtx, ['report', ASSIGNMENT, OUT, '--csv', csv, '--items', '--now', '2030-01-15T00:00:00Z'], { cwd: ROOT, encoding: 'utf8' });
    const report = run.stdout;
    fs.writeFileSync(path.join(OUT, 'report.txt'), report + run.stderr);
    console.log(report.split('\n').map((l) => '      ' + l).join('\n'));
    eq(run.status, 1, 'exit status 1: one file could not be read');
    const expected = fs.readFileSync(path.join(ROOT, 'tests/course/expected-grades.csv'), 'utf8');
    eq(fs.readFileSync(csv, 'utf8'), expected, 'the gradebook');
    const flags = (student) => {
      const m = report.match(new RegExp(`\\n  ${student.replace('.', '\\.')}:\\n((?:    - .*\\n)+)`));
      return m ? m[1] : '';
    };
    assert(/1 attempt on another student's numbers .*ring\.volume seed \d+ is ana@uni\.example's/.test(flags('bo@uni.example')),
      "bo's copied numbers are flagged: " + flags('bo@uni.example'));
    assert(/1 attempt after the due date .*ring\.why-ring/.test(flags('cy@uni.example')), "cy's late attempt is flagged: " + flags('cy@uni.example'));
    eq(flags('ana@uni.example'), '', 'ana: no flags');
    assert(/broken\.json:2:1: error\[E003\]/.test(report), 'the broken file is named with its error');
    assert(/ring\.volume[^\n]*\n  \d+ attempts by 3 students; solved by 2 \(67 %\)/.test(report), 'item statistics for ring.volume');
    assert(/most common wrong answers:\n    \d attempts? by \d students?, e\.g\./.test(report), 'wrong answers with a diagnosis');
    for (const p of [ana, bo, cy]) await p.context().close();
  }, { worker: 'the assignment file is served by page.route, which never sees what the service worker fetches' });
}
