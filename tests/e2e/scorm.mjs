// An assignment as a SCORM 2004 package (dtx package scorm), run as an LMS runs it: the zip is
// opened with Debian's unzip, its manifest checked with xmllint, and the launch page shown in a
// frame under a page whose window.API_1484_11 is scorm-again's runtime (tests/e2e/lms/), served
// by a plain file server as an LMS serves a package (no dtx headers). Two learners of the LMS,
// each with their own numbers: a wrong answer then a right one, the LMS out of reach for an
// attempt (the page says so and sends it later), a pool that gives each learner their own
// exercise, a new session on another computer (no local
// storage) that resumes from cmi.suspend_data alone, every cmi value the page reports, and an
// exam-mode package whose page keeps verdicts back until its moved clock passes the due date.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, engineAnswer, waitFor, click, afterClick, typeInto, submit, shot } from './lib.mjs';

const ASSIGNMENT = path.join(ROOT, 'tests/course/scorm-assignment.json');
const dtx = path.join(ROOT, 'build/native/dtx');

// The package, unzipped beside the stand-in LMS's page and scorm-again's runtime.
function buildLms(dist) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-scorm-'));
  const pack = (assignment, name) => {
    const zip = path.join(dir, name + '.zip');
    const said = execFileSync(dtx, ['package', 'scorm', assignment, '-o', zip, '--site', dist, '--packs', path.join(ROOT, 'exercises')], { cwd: ROOT }).toString();
    execFileSync('unzip', ['-q', zip, '-d', path.join(dir, name)]);
    return said;
  };
  const out = pack(ASSIGNMENT, 'package');
  // The same assignment in exam mode (policies.feedback "after-due"), a package of its own.
  const exam = JSON.parse(fs.readFileSync(ASSIGNMENT, 'utf8'));
  exam.id = 'e2e-scorm-exam';
  exam.policies.feedback = 'after-due';
  fs.writeFileSync(path.join(dir, 'exam.json'), JSON.stringify(exam));
  pack(path.join(dir, 'exam.json'), 'package-exam');
  for (const f of ['host.html', 'lms-host.js']) fs.copyFileSync(path.join(ROOT, 'tests/e2e/lms', f), path.join(dir, f));
  // the classic-script build, which defines window.Scorm2004API (the package's exports name
  // only its modules)
  const runtime = path.join(ROOT, 'build/node/node_modules/scorm-again/dist/scorm2004.js');
  fs.copyFileSync(runtime, path.join(dir, 'scorm2004.js'));
  return { dir, out };
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ttf': 'font/ttf', '.otf': 'font/otf', '.woff2': 'font/woff2', '.css': 'text/css' };

// The LMS's file server: the package's files as they are, nothing else.
function serveLms(dir) {
  const srv = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${srv.address().port}/`, stop: () => srv.close() })));
}

// The manifest: well-formed XML with what SCORM 2004 4th edition's content packaging requires
// (CAM 3.4.1): the metadata's schema and version, an organization with an item for the SCO,
// the SCO's resource with its launch file, every file of the zip listed.
function checkManifest(dir, assert, eq) {
  const file = path.join(dir, 'package/imsmanifest.xml');
  execFileSync('xmllint', ['--noout', file]);
  const x = (xpath) => execFileSync('xmllint', ['--xpath', xpath, file]).toString().trim();
  const ns = (name) => `*[local-name()='${name}']`;
  eq(x(`string(/${ns('manifest')}/${ns('metadata')}/${ns('schema')})`), 'ADL SCORM', 'metadata/schema');
  eq(x(`string(/${ns('manifest')}/${ns('metadata')}/${ns('schemaversion')})`), '2004 4th Edition', 'metadata/schemaversion');
  const org = x(`string(/${ns('manifest')}/${ns('organizations')}/@default)`);
  eq(x(`string(//${ns('organization')}/@identifier)`), org, 'the default organization exists');
  const ref = x(`string(//${ns('organization')}/${ns('item')}/@identifierref)`);
  eq(x(`string(//${ns('resource')}[@identifier='${ref}']/@*[local-name()='scormType'])`), 'sco', 'the item launches a SCO');
  eq(x(`string(//${ns('resource')}[@identifier='${ref}']/@href)`), 'index.html', 'the launch page');
  eq(x(`string(//${ns('organization')}/${ns('title')})`), 'Test assignment in an LMS', 'the title');
  const listed = new Set(x(`//${ns('file')}/@href`).split(/\s+/).map((a) => a.replace(/^href="|"$/g, '')));
  const inZip = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(path.join(d, e.name)) : inZip.push(path.relative(path.join(dir, 'package'), path.join(d, e.name))); };
  walk(path.join(dir, 'package'));
  for (const f of inZip) if (f !== 'imsmanifest.xml') assert(listed.has(f), `the manifest lists ${f}`);
  assert(!inZip.some((f) => /\.(br|gz)$/.test(f)), 'no precompressed copies');
  const packs = JSON.parse(fs.readFileSync(path.join(dir, 'package/exercises/index.json'), 'utf8')).packs;
  eq(packs.join(','), '00-ring-allreduce.json', 'only the pack the assignment uses');
  return Number(x(`string(//${ns('primaryObjective')}/${ns('minNormalizedMeasure')})`));
}

// The page in the LMS's frame, for lib.mjs's helpers: evaluate in the frame, input through the
// page (the frame fills the window, so the frame's coordinates are the page's).
async function scoFrame(page) {
  for (let i = 0; i < 100; i++) {
    const f = page.frames().find((x) => /\/package(-exam)?\/index\.html/.test(x.url()));
    if (f) {
      const sco = { evaluate: (fn, arg) => f.evaluate(fn, arg), mouse: page.mouse, keyboard: page.keyboard,
        viewportSize: () => page.viewportSize(), waitForTimeout: (ms) => page.waitForTimeout(ms), screenshot: (o) => page.screenshot(o) };
      await waitFor(sco, "!s.busy && s.assignment && !s.assignment.loading && s.assignment.lms && s.assignment.lms.resumed", 30000);
      return sco;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('the package did not open in the frame');
}

async function launch(page, learner, saved, passing, src) {
  await page.evaluate(([l, s, p, f]) => window.lms.launch(l, s, p, f), [learner, saved, passing, src]);
  return scoFrame(page);
}

async function answerIn(sco, id, seed, wrong) {
  await click(sco, `open-${id}`);
  await waitFor(sco, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && s.seed === ${seed}`);
  const ans = engineAnswer(id, seed);
  if (ans.parts) for (const p of ans.parts) await typeInto(sco, `part-${p.id}`, `${wrong ? p.value * 2 : p.value} ${p.unit}`);
  else await click(sco, `choice-${ans.options.findIndex((o) => wrong ? !o.correct : o.correct)}`);
  const s = await submit(sco);
  const it = await click(sco, 'to-assignment');
  await afterClick(sco, 'to-assignment', it, "s.screen === 'assignment'");
  return s;
}

const cmiTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\dZ$/;
const timespan = /^PT(\d+H)?(\d+M)?\d+(\.\d{1,2})?S$/;

function checkInteraction(it, { id, seed, result, answer }, assert, eq) {
  eq(it.id, id, 'interaction id');
  eq(it.type, 'other', 'interaction type');
  eq(it.result, result, `${id}: result`);
  const r = JSON.parse(it.learner_response);
  eq(r.seed, seed, `${id}: the seed in the response`);
  if (answer) eq(JSON.stringify(r.answer), JSON.stringify(answer), `${id}: the answer in dtx grade's words`);
  assert(cmiTime.test(it.timestamp), `${id}: timestamp ${it.timestamp}`);
  assert(timespan.test(it.latency), `${id}: latency ${it.latency}`);
  assert(it.description.length > 0, `${id}: description`);
}

export default function register({ test, newPage, assert, eq, dist }) {
  test('SCORM: a packaged assignment under scorm-again: two learners and a pool, wrong then right, the LMS out of reach, a resume from suspend_data, exam mode, every cmi value', async () => {
    const { dir, out } = buildLms(dist);
    assert(/SCORM 2004 4th edition, \d+ files/.test(out), 'dtx package says what it wrote: ' + out);
    const passing = checkManifest(dir, assert, eq);
    eq(passing, 0.6, "the manifest's passing score (the assignment's policies.passing_score)");
    const lms = await serveLms(dir);
    try {
      const page = await newPage();
      // Every frame's clock can be moved (window.__dtxClock); it runs as the real one until then.
      await page.addInitScript(() => {
        const real = Date.now.bind(Date);
        let offset = 0;
        Object.defineProperty(window, '__dtxClock', { set: (t) => { offset = t - real(); }, get: () => real() + offset });
        Date.now = () => real() + offset;
      });
      await page.goto(lms.url + 'host.html');
      // ana's first session: ring.volume wrong, then right.
      let sco = await launch(page, 'Ana-01', null, passing);
      let s = await waitFor(sco, 'true');
      eq(s.assignment.student, 'ana-01', "the LMS's learner id is the student (lower-cased)");
      assert(!s.items.some((i) => i.id === 'student-id'), 'no identifier to type');
      const seeds = s.assignment.seeds;
      eq(Object.keys(seeds).sort().join(' '), 'ring.volume ring.why-ring', "ana's exercises: one of the pool's two");
      assert(!s.items.some((i) => i.id === 'open-ring.buggy-double-count'), "the pool's other exercise is not on her list");
      await shot(sco, 'scorm-assignment');
      s = await answerIn(sco, 'ring.volume', seeds['ring.volume'], true);
      eq(s.verdict, 'incorrect', 'twice the answer is wrong');
      s = await answerIn(sco, 'ring.volume', seeds['ring.volume'], false);
      eq(s.verdict, 'correct', 'the answer is right');
      let cmi = await page.evaluate(() => window.lms.kept());
      eq(cmi.learner_id, 'Ana-01', 'cmi.learner_id');
      eq(Object.keys(cmi.interactions.childArray || cmi.interactions).length >= 0, true, 'interactions present');
      const list = (c) => (c.interactions.childArray || Object.values(c.interactions));
      eq(list(cmi).length, 2, 'one interaction per attempt');
      const words = engineAnswer('ring.volume', seeds['ring.volume']).parts;
      checkInteraction(list(cmi)[0], { id: 'ring.volume', seed: seeds['ring.volume'], result: 'incorrect' }, assert, eq);
      checkInteraction(list(cmi)[1], { id: 'ring.volume', seed: seeds['ring.volume'], result: 'correct' }, assert, eq);
      eq(list(cmi)[1].weighting, '1', 'weighting: the points');
      eq(JSON.parse(list(cmi)[1].learner_response).answer.length, words.length, 'a word per part');
      eq([cmi.score.raw, cmi.score.min, cmi.score.max, cmi.score.scaled].join(' '), '1 0 3 0.3333', 'score after ring.volume');
      eq([cmi.completion_status, cmi.success_status, cmi.progress_measure].join(' '), 'incomplete failed 0.5', 'status after one of two');
      assert(cmi.suspend_data.startsWith('{"v":1'), 'suspend_data: ' + cmi.suspend_data.slice(0, 60));
      eq(cmi.location, `#/ex/ring.volume/${seeds['ring.volume']}`, 'cmi.location: where the attempt was made');
      // The LMS out of reach: a wrong try on ring.why-ring is kept and said to be.
      await page.evaluate(() => { window.lms.down = true; });
      s = await answerIn(sco, 'ring.why-ring', seeds['ring.why-ring'], true);
      assert(s.assignment.lms.problem.includes('did not take'), 'the page says the LMS did not take it: ' + s.assignment.lms.problem);
      const layer = await sco.evaluate(() => document.getElementById('dtx-layer').textContent);
      assert(layer.includes('Your LMS did not take your latest work'), 'the line is on the screen');
      await shot(sco, 'scorm-lms-down');
      eq(list(await page.evaluate(() => window.lms.kept())).length, 2, 'the LMS took nothing while down');
      // Back: leaving commits and terminates; the LMS keeps what it has.
      await page.evaluate(() => { window.lms.down = false; });
      s = await answerIn(sco, 'ring.why-ring', seeds['ring.why-ring'], false);
      eq(s.assignment.lms.problem, '', 'the problem line goes when the LMS answers again');
      cmi = await page.evaluate(() => window.lms.kept());
      eq(list(cmi).length, 4, 'the attempt made while the LMS was down went with the next one');
      checkInteraction(list(cmi)[2], { id: 'ring.why-ring', seed: seeds['ring.why-ring'], result: 'incorrect' }, assert, eq);
      checkInteraction(list(cmi)[3], { id: 'ring.why-ring', seed: seeds['ring.why-ring'], result: 'correct' }, assert, eq);
      eq([cmi.score.raw, cmi.score.max, cmi.score.scaled, cmi.completion_status, cmi.success_status, cmi.progress_measure].join(' '),
        '3 3 1 completed passed 1', 'everything solved');
      await page.evaluate(() => document.querySelector('iframe').remove());  // the learner leaves
      cmi = await page.evaluate(() => window.lms.kept());
      console.log('      ana-01 at the end of her session: ' + JSON.stringify({ score: cmi.score, completion_status: cmi.completion_status,
        success_status: cmi.success_status, progress_measure: cmi.progress_measure, exit: cmi.exit, session_time: cmi.session_time,
        location: cmi.location, interactions: list(cmi).length, last_interaction: list(cmi)[3], suspend_data: cmi.suspend_data }));
      eq(await page.evaluate(() => window.lms.terminated()), true, 'the page terminated the session');
      eq(cmi.exit, 'suspend', 'cmi.exit');
      assert(timespan.test(cmi.session_time), 'cmi.session_time ' + cmi.session_time);
      // A new session on another computer: no local storage, the LMS's record only.
      await page.evaluate(() => localStorage.clear());
      sco = await launch(page, 'Ana-01', cmi, passing);
      s = await waitFor(sco, 's.assignment.attempts === 4');
      eq(s.assignment.lms.reported, 4, 'nothing sent twice');
      eq(`${s.screen} ${s.exercise} ${s.seed}`, `exercise ring.why-ring ${seeds['ring.why-ring']}`, 'back where the last session was (cmi.location)');
      await click(sco, 'to-assignment');
      await waitFor(sco, "s.screen === 'assignment'");
      const labels = await sco.evaluate(() => document.getElementById('dtx-layer').textContent);
      assert(labels.includes('3 of 3 points'), 'the standing is back: ' + labels.slice(0, 400));
      eq(list(await page.evaluate(() => window.lms.kept())).length, 4, 'no interaction repeated on resume');
      await shot(sco, 'scorm-resumed');
      // bo: another learner, other numbers.
      await page.evaluate(() => localStorage.clear());
      sco = await launch(page, 'bo-02', null, passing);
      s = await waitFor(sco, 'true');
      eq(s.assignment.student, 'bo-02', 'the second learner');
      assert(s.assignment.seeds['ring.volume'] !== seeds['ring.volume'], 'other numbers for another learner');
      eq(Object.keys(s.assignment.seeds).sort().join(' '), 'ring.buggy-double-count ring.volume', "bo's pool pick is the other one");
      assert(s.items.some((i) => i.id === 'open-ring.buggy-double-count') && !s.items.some((i) => i.id === 'open-ring.why-ring'), 'his list shows his pick');
      s = await answerIn(sco, 'ring.volume', s.assignment.seeds['ring.volume'], false);
      eq(s.verdict, 'correct', 'bo: his own numbers');
      cmi = await page.evaluate(() => window.lms.kept());
      eq([cmi.score.raw, cmi.score.scaled, cmi.success_status, cmi.completion_status].join(' '), '1 0.3333 failed incomplete', "bo's score");
      eq(list(cmi).length, 1, "bo's one interaction");
      // cy, in the exam-mode package, a day before the due date (the frames' clock is moved):
      // "Answer saved" in the page, the verdict in the LMS's interaction for the instructor;
      // after the due date the page shows the standing.
      await page.evaluate(() => localStorage.clear());
      sco = await launch(page, 'cy-03', null, passing, 'package-exam/index.html');
      await sco.evaluate((t) => { window.__dtxClock = t; }, Date.parse('2030-01-01T12:00:00+01:00') - 86400e3);
      s = await waitFor(sco, 'true');
      s = await answerIn(sco, 'ring.volume', s.assignment.seeds['ring.volume'], true);
      eq(s.verdict, undefined, 'exam mode: no verdict in the page');
      assert(/^Answer saved/.test(s.saved || ''), 'exam mode: the answer is saved: ' + s.saved);
      cmi = await page.evaluate(() => window.lms.kept());
      eq(list(cmi).length, 1, 'exam mode: the attempt is reported');
      eq(list(cmi)[0].result, 'incorrect', "exam mode: the LMS has the verdict, for the instructor");
      let screen = await sco.evaluate(() => document.getElementById('dtx-layer').textContent);
      assert(/1 answer saved/.test(screen) && !/best|solved/.test(screen), 'exam mode: the list says saved: ' + screen.slice(0, 400));
      await sco.evaluate((t) => { window.__dtxClock = t; }, Date.parse('2030-01-01T12:00:00+01:00') + 3600e3);
      // (the screen is drawn again at the next input: a pointer moving over it)
      for (let i = 0; i < 50 && !/best 0 %/.test(screen); i++) {
        await page.mouse.move(100 + (i % 2), 300);
        await page.waitForTimeout(100);
        screen = await sco.evaluate(() => document.getElementById('dtx-layer').textContent);
      }
      assert(/best 0 %/.test(screen), 'exam mode: after the due date the standing shows: ' + screen.slice(0, 400));
      const failures = page.errors.filter((e) => !/Failed to load resource/.test(e));
      eq(failures.length, 0, 'page errors: ' + failures.join('; '));
      await page.context().close();
    } finally {
      lms.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, { worker: 'the LMS serves the package from its own origin; the site\'s service worker is not in it' });
}
