// Browser tests of the numeric type: an unreadable answer (not an attempt), a known mistake's
// message, the right answer with units, hints, and progress kept over a reload.
import { ready, waitFor, click, press, typeInto, openExercise, submit, shot, engineAnswer, tabUntil, tabToAx } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.volume',
  async fill(page, form, a, { eq }) {
    const inputs = await page.$$(form + ' input[data-part]');
    eq(inputs.length, a.grade_words.length, a.id + ': a field per part');
    for (let i = 0; i < inputs.length; i++) await inputs[i].type(a.grade_words[i]);
    // Backspace and Tab are the field's and the page's (GLFW would cancel both)
    await inputs[0].press('End');
    await inputs[0].type('9');
    await inputs[0].press('Backspace');
    await inputs[0].press('Tab');
    eq(await page.evaluate(() => document.activeElement && document.activeElement.id), inputs.length > 1 ? 'fx-part-1' : null, a.id + ': Tab moved on');
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.volume',
  // Tab reaches the first field, which takes the typing; Tab to the next; Enter submits
  async solve(page, ans, { assert }) {
    for (const [i, p] of ans.parts.entries()) {
      await tabUntil(page, `s.text_input && s.active === 'part-${p.id}'`, `field ${p.id}`);
      await page.keyboard.type(`${p.value} ${p.unit}`);
      if (i === 0) {
        const s = await waitFor(page, 'true');
        assert(s.text_input, 'typing in the first field');
      }
    }
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.volume',
  // each part is a textbox named by its label; typing goes to it
  async solve(page, cdp, ans, tree, { assert, names }) {
    for (const b of ['Submit', 'Try another', 'Hint 1 of 2', 'Copy link']) assert(names(tree, 'button').includes(b), `numeric: the button "${b}": ${names(tree, 'button')}`);
    // ("GPUs" is a glossary term: a link of its own between the prompt's words)
    assert(tree.some((n) => n.role === 'StaticText' && n.name.includes('each hold a gradient buffer of 1 GB')), 'the prompt is in the tree');
    assert(tree.some((n) => n.role === 'link' && n.name === 'GPUs'), 'its first GPUs is a glossary link');
    for (const p of ans.parts) {
      await tabToAx(page, cdp, 'textbox', p.label);
      await page.keyboard.type(`${p.value} ${p.unit}`);
    }
  },
  heard(tree, ans, { assert }) {
    assert(tree.some((n) => n.name.includes(`Part 2, ${ans.parts[1].label}: `)), 'the feedback names each part');
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  // Issue 41: under the worked solution, each keyed number worked out by the engine from its
  // own expression with the instance's values, the same text `dtx show --answer --json` gives.
  test('numeric: the worked solution shows how each number comes out, desktop and a 360 px phone in the dark', async () => {
    const ans = engineAnswer('zero.stages');
    const want = ans.parts.map((p) => p.derivation);
    assert(want.every((d) => typeof d === 'string' && d.includes(' = ')), 'dtx show --answer --json gives each part a derivation: ' + JSON.stringify(want));
    for (const [opts, name] of [[{}, 'derivation'], [{ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' }, 'derivation-phone']]) {
      const page = await newPage(opts);
      await page.goto(server().url.replace(/#.*$/, '') + '#/ex/zero.stages');
      await waitFor(page, "s.screen === 'exercise' && s.exercise === 'zero.stages' && !s.busy", 20000);
      for (const p of ans.parts) await typeInto(page, 'part-' + p.id, '1 GB');
      let s = await submit(page);
      eq(s.verdict, 'incorrect', name + ': a wrong answer first');
      await click(page, 'explain');
      s = await waitFor(page, 's.explanation');
      // scrolled to the end of the page, where the derivations are
      for (let i = 0; i < 12; i++) { await page.mouse.move(180, 400); await page.mouse.wheel(0, 600); await page.waitForTimeout(50); }
      const f = (await waitFor(page, 'true')).frame;
      await waitFor(page, `s.frame > ${f} + 1`);
      await page.waitForFunction(() => /How each number comes out/.test(document.getElementById('dtx-layer').textContent), null, { timeout: 8000 }).catch(() => {});
      const text = await page.evaluate(() => document.getElementById('dtx-layer').textContent.replace(/\s+/g, ' '));
      assert(text.includes('How each number comes out'), name + ': the heading is in the text layer');
      // every derivation's last step, as the engine wrote it (the page writes powers of ten raised)
      for (const d of want) {
        const last = d.split('\n').pop().split(' = ').slice(-2).join(' = ');
        assert(text.replace(/\s+/g, '').includes(last.replace(/\s+/g, '')), `${name}: "${last}" is on the page`);
      }
      await shot(page, name);
      await page.context().close();
    }
  });

  test('numeric: wrong, unreadable, then right; progress survives a reload', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, 'ring.volume');
    const ans = engineAnswer('ring.volume');
    // an unreadable answer is a format error, shown beside the field, not an attempt
    await typeInto(page, 'part-phase', 'lots');
    await typeInto(page, 'part-total', '1.75');
    let s = await submit(page);
    eq(s.verdict, 'format-error', 'verdict for "lots"');
    assert(s.parts[0].message.length > 0, 'format error message beside the field');
    // the live region speaks sentences, never the verdict's code
    let live = await page.evaluate(() => document.getElementById('dtx-live').textContent);
    assert(live.startsWith('Not graded: part of the answer could not be read') && !live.includes('format-error') &&
      live.includes('Part 1, Sent during reduce-scatter: '), 'live region after an unreadable answer: ' + live);
    let prog = await page.evaluate(() => localStorage.getItem('dtx.progress'));
    assert(!prog || !JSON.parse(prog).exercises?.['ring.volume'], 'format error was recorded as an attempt: ' + prog);
    // one phase only for the total: the known mistake's own message
    await typeInto(page, 'part-phase', String(ans.parts[0].value));
    await typeInto(page, 'part-total', String(ans.parts[0].value) + ' GB');
    s = await submit(page);
    eq(s.verdict, 'partial', 'verdict with one part wrong ' + JSON.stringify(s.parts));
    assert(s.parts[1].message.length > 10, 'specific message for the wrong part');
    await shot(page, 'numeric-wrong');
    // right, typed with a unit in MB for one part
    await typeInto(page, 'part-total', String(ans.parts[1].value * 1000) + ' MB');
    await page.keyboard.press('Enter');  // Enter in a field submits
    s = await waitFor(page, 's.graded >= 3');
    eq(s.verdict, 'correct', 'verdict for the right answer');
    assert(s.explanation, 'worked explanation shown after a correct answer');
    live = await page.evaluate(() => document.getElementById('dtx-live').textContent);
    assert(live.startsWith('Correct.') && live.includes('Part 2, Sent over the whole AllReduce: Correct: '), 'live region after the right answer: ' + live);
    await shot(page, 'numeric-right');
    // hints one at a time
    await click(page, 'hint');
    s = await waitFor(page, 's.hints_shown === 1');
    // reload: the same exercise (its address), and the progress is still there
    await page.reload();
    s = await waitFor(page, "s.screen === 'exercise' && !s.busy", 20000);
    eq(s.exercise, 'ring.volume', 'reload keeps the exercise');
    prog = JSON.parse(await page.evaluate(() => localStorage.getItem('dtx.progress')));
    assert(prog.exercises['ring.volume'].solved_at > 0, 'solved after reload');
    eq(prog.exercises['ring.volume'].attempts, 2, 'attempts (format error not counted)');
    // a new visit to the site's address: the map offers to continue
    await page.goto(server().url.replace(/#.*$/, '') + '#/');
    s = await ready(page);
    assert(s.items.some((i) => i.id === 'continue'), '"continue where you left off" offered');
    await page.context().close();
  });
}
