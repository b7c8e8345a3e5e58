// Browser tests of the choice type: a wrong option's feedback, then the right one.
import { ready, click, openExercise, submit, shot, engineAnswer, tabUntil, press, tabToAx, axFocused, waitFor } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'quiz.plan-70b',
  async fill(page, form, a, { eq }) {
    for (const w of a.grade_words) await page.check(`${form} input[value="${w}"]`);
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.why-ring',
  // Tab to each right option, Space picks it (Enter submits)
  async solve(page, ans, { shot }) {
    for (const [pos, o] of ans.options.entries()) {
      if (!o.correct) continue;
      await tabUntil(page, `s.focus === 'choice-${pos}'`, `option ${o.label}`);
      await press(page, 'Space');
    }
    await shot(page, 'keyboard-focus-ring');
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.why-ring',
  // every option is a radio in a group; Space checks the focused one
  async solve(page, cdp, ans, tree, { assert, eq, names }) {
    const radios = names(tree, 'radio');
    eq(radios.length, ans.options.length, 'one radio per option');
    for (const o of ans.options) assert(radios.some((r) => r.endsWith(o.text)), `the option "${o.text}" is a radio: ${radios}`);
    assert(tree.some((n) => n.role === 'radiogroup' && n.name === 'Options'), 'the options are a radio group');
    for (const o of ans.options.filter((x) => x.correct)) {
      await tabToAx(page, cdp, 'radio', (n) => n.endsWith(o.text));
      // the DOM focus is where the canvas draws the focus ring: on the option's rectangle
      const ring = await page.evaluate(() => {
        const r = document.activeElement.getBoundingClientRect();
        const it = window.dtx.item(window.dtx.state.focus);
        return { dom: [r.x, r.y, r.width, r.height], item: it && [it.x, it.y, it.w, it.h] };
      });
      assert(ring.item && ring.dom.every((v, k) => Math.abs(v - ring.item[k]) <= 1), `the focused proxy lies on its control: ${JSON.stringify(ring)}`);
      await press(page, 'Space');
      await waitFor(page, 's.picks.length > 0');
      const f = await axFocused(cdp);
      eq(f.checked, 'true', 'the picked option is checked');
    }
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('choice: wrong option then right', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, 'ring.why-ring');
    const ans = engineAnswer('ring.why-ring');
    const wrong = ans.options.findIndex((o) => !o.correct);
    const right = ans.options.findIndex((o) => o.correct);
    await click(page, `choice-${wrong}`);
    let s = await submit(page);
    eq(s.verdict, 'incorrect', 'wrong option');
    assert(s.message.length > 0, 'feedback for the wrong option');
    await click(page, `choice-${right}`);
    s = await submit(page);
    eq(s.verdict, 'correct', 'right option');
    await shot(page, 'choice');
    await page.context().close();
  });
}
