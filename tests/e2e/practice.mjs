// Practice (issue 42): a returning student whose record says two exercises are due (SM-2,
// engine/practice.h) sees "2 due today" on the map, starts a session, answers each at new
// numbers (one wrong, one right), and gets the summary: what was right, what the engine
// diagnosed, and when each comes back (the wrong one tomorrow, the right one 15 days on:
// round(6 x 2.5)). Then the map says nothing is due. Desktop light, a 360 px phone in dark by
// touch, axe on the screen and the summary; and keys alone with the accessibility tree, in dark.
import { waitFor, click, tap, press, submit, typeInto, engineAnswer, layerText, waitForLayer, state, axUntil, tabUntil } from './lib.mjs';

const DAY = 86400000;
const date = (t) => new Date(t).toISOString().slice(0, 10);

// The page's local date is the browser's: the test runs in UTC (TZ unset), as the page's today() reads it.
function record(now) {
  return JSON.stringify({
    format: 'dtx-progress', version: 2, exercises: {
      'ring.why-ring': { attempts: 1, by_writer: { '1700000000-back': 1 }, best: 0, solved_at: 0, last_at: Math.floor(now / 1000) - 2 * 86400 },
      'ring.volume': { attempts: 3, by_writer: { '1700000000-back': 3 }, best: 1, solved_at: Math.floor(now / 1000) - 9 * 86400, last_at: Math.floor(now / 1000) - 7 * 86400 },
    },
    review: {
      'ring.why-ring': { ease: 2.5, reps: 0, interval: 1, lapses: 1, due: date(now - 1 * DAY), last: date(now - 2 * DAY) },
      'ring.volume': { ease: 2.5, reps: 2, interval: 6, lapses: 0, due: date(now - 1 * DAY), last: date(now - 7 * DAY) },
    },
  });
}

// One exercise due (ring.volume, answered right a week ago).
function oneDue(now) {
  return JSON.stringify({
    format: 'dtx-progress', version: 2, exercises: {
      'ring.volume': { attempts: 1, by_writer: { '1700000000-back': 1 }, best: 1, solved_at: Math.floor(now / 1000) - 8 * 86400, last_at: Math.floor(now / 1000) - 7 * 86400 },
    },
    review: { 'ring.volume': { ease: 2.5, reps: 1, interval: 1, lapses: 0, due: date(now - 6 * DAY), last: date(now - 7 * DAY) } },
  });
}

export default function register({ test, newPage, assert, eq, server, axeAudit }) {
  test('practice: keys alone from the map to the summary, the accessibility tree names the screen, axe in dark', async () => {
    const page = await newPage({ bypassCSP: true, colorScheme: 'dark' });
    const now = Date.now();
    await page.addInitScript((r) => {
      localStorage.setItem('dtx.progress', r);
      window.__pointer = 0;
      for (const ev of ['mousedown', 'mouseup', 'touchstart', 'wheel']) window.addEventListener(ev, () => { window.__pointer++; }, true);
    }, oneDue(now));
    await page.goto(server().url);
    let s = await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    eq(s.practice.due, 1, 'one due today');
    await tabUntil(page, "s.focus === 'practice'", 'Practice on the map');
    await press(page, 'Enter');
    s = await waitFor(page, "s.screen === 'practice'");
    const cdp = await page.context().newCDPSession(page);
    let tree = await axUntil(cdp, (t) => t.some((n) => n.role === 'heading' && n.name === 'Practice'), 'the screen has its heading');
    assert(tree.some((n) => n.role === 'button' && /^Start a session of 1/.test(n.name)), 'the start is a named button');
    await axeAudit(page, 'practice, dark');
    await tabUntil(page, "s.focus === 'practice-start'", 'Start a session');
    await press(page, 'Enter');
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume' && !s.busy");
    assert(s.seed !== 0, 'new numbers');
    const ans = engineAnswer('ring.volume', s.seed);
    for (const p of ans.parts) {
      await tabUntil(page, `s.text_input && s.active === 'part-${p.id}'`, `field ${p.id}`);
      await page.keyboard.type(`${p.value} ${p.unit}`);
    }
    await press(page, 'Enter');
    s = await waitFor(page, "s.verdict === 'correct'");
    await tabUntil(page, "s.focus === 'practice-next'", 'the way to the summary');
    await press(page, 'Enter');
    s = await waitFor(page, "s.screen === 'practice' && s.practice.finished");
    await axUntil(cdp, (t) => t.some((n) => n.role === 'heading' && n.name === 'Session done: 1 of 1 right the first time'), 'the summary is a heading');
    await axeAudit(page, 'practice summary, dark');
    eq(await page.evaluate(() => window.__pointer), 0, 'no pointer event: keys alone');
    await page.context().close();
  });

  test('practice: two exercises due, a session at new numbers (one wrong, one right), the summary with diagnoses and when each comes back', async () => {
    for (const phone of [false, true]) {
      const page = await newPage({ bypassCSP: true, ...(phone ? { viewport: { width: 360, height: 760 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' } : {}) });
      const now = Date.now();
      await page.addInitScript((r) => { localStorage.setItem('dtx.progress', r); }, record(now));
      const press = phone ? tap : click;
      await page.goto(server().url);
      let s = await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
      eq(s.practice.due, 2, 'two due today');
      await waitForLayer(page, '/Practice: 2 due today/.test(t)', 'the map says so');
      // the open chapter too (chapter 0 starts open): what is due, and what was tried and not solved
      await page.waitForFunction(() => /2 due for practice today · 1 tried, not solved yet/.test(document.getElementById('dtx-layer').textContent), null, { timeout: 10000 });
      await press(page, 'practice');
      s = await waitFor(page, "s.screen === 'practice'");
      if (!phone) await axeAudit(page, 'practice, before a session');
      await press(page, 'practice-start');
      // most overdue first, then by id: both were due yesterday, so ring.volume, then ring.why-ring
      s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume' && !s.busy");
      assert(s.seed !== 0, 'new numbers, not the default instance');
      await waitForLayer(page, '/Practice · 1 of 2/.test(t)', 'the banner says where the session is');
      const ans = engineAnswer('ring.volume', s.seed);
      await typeInto(page, 'part-phase', `${ans.parts[0].value} ${ans.parts[0].unit}`, { commit: true });
      await typeInto(page, 'part-total', `${ans.parts[1].value} ${ans.parts[1].unit}`, { commit: true });
      s = await submit(page);
      eq(s.verdict, 'correct', 'the first is right');
      await press(page, 'practice-next');
      s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.why-ring' && !s.busy");
      const why = engineAnswer('ring.why-ring', s.seed);
      // the wrong option whose feedback has maths in it, which the summary draws as maths
      const wrong = why.options.findIndex((o) => !o.correct && /fewer bytes per GPU/.test(o.text));
      assert(wrong >= 0, 'the option is there: ' + JSON.stringify(why.options));
      await press(page, `choice-${wrong}`);
      await waitFor(page, 's.picks && s.picks.length === 1');  // (a tap reaches the engine a frame later)
      s = await submit(page);
      eq(s.verdict, 'incorrect', 'the second is wrong');
      await press(page, 'practice-next');
      s = await waitFor(page, "s.screen === 'practice' && s.practice.finished");
      eq(s.practice.outcomes.join(' '), 'correct incorrect', 'the session kept each first answer');
      await waitForLayer(page, '/Session done/.test(t)', 'the summary');
      const words = await layerText(page);
      assert(/Session done: 1 of 2 right the first time/.test(words), 'the summary counts: ' + words.slice(0, 300));
      assert(/The engine: Not this one\. Per-GPU bytes/.test(words) && /grow slightly with N/.test(words), 'the wrong answer has its diagnosis: ' + words.slice(0, 600));
      assert(!/\$|\\frac/.test(words), 'its maths is drawn as maths, not as TeX: ' + words.slice(0, 600));
      assert(words.includes(`Comes back on ${date(now + 15 * DAY)}`), `the right one comes back in 15 days: ${words.slice(0, 600)}`);
      assert(words.includes(`Comes back on ${date(now + DAY)}`), 'the wrong one tomorrow');
      if (!phone) await axeAudit(page, 'practice summary');
      await page.screenshot({ path: `build/e2e/practice-summary${phone ? '-phone' : ''}.png` });
      s = await state(page);
      for (const it of s.items) assert(it.x >= 0 && it.x + it.w <= (phone ? 361 : 1280), `on the screen: ${JSON.stringify(it)}`);
      await press(page, 'practice-done');
      await click(page, 'nav-course');
      s = await waitFor(page, "s.screen === 'course'");
      eq(s.practice.due, 0, 'nothing due after the session');
      await page.context().close();
    }
  });
}
