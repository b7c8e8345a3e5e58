// Browser tests of the buggy-line type: a decoy line, then the bug.
import { ready, click, openExercise, submit, shot, engineAnswer, tabUntil, press, waitFor, tabToAx, axFocused } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.buggy-double-count',
  async fill(page, form, a, { eq }) {
    for (const w of a.grade_words) await page.check(`${form} input[value="${w}"]`);
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.buggy-double-count',
  // Tab into the listing, arrows to the bug, Space (Enter submits)
  async solve(page, ans, { assert }) {
    const s = await tabUntil(page, "s.focus.startsWith('line-')", 'a line of the listing');
    let line = Number(s.focus.slice(5));
    while (line !== ans.bugs[0]) {
      await press(page, line < ans.bugs[0] ? 'ArrowDown' : 'ArrowUp');
      // ImGui moves the focus in the frame after the one that saw the key
      const moved = await waitFor(page, `s.focus !== 'line-${line}'`).catch(() => null);
      if (!moved) {
        const st = await page.evaluate(() => window.dtx.state);
        throw new Error(`the arrow key did not move the focus from line ${line}: focus ${st.focus}, active ${st.active}, text_input ${st.text_input}, dom ${await page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.className || document.activeElement.tagName))}; input log:\n` + await page.evaluate(() => window.dtx.inputLog()));
      }
      const now = Number(moved.focus.slice(5));
      assert(Math.abs(now - line) === 1, `one arrow press moved the focus from line ${line} to ${moved.focus}`);
      line = now;
    }
    await press(page, 'Space');
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.buggy-double-count',
  // each line is a toggle button "Line N: code"
  async solve(page, cdp, ans, tree, { eq, names }) {
    eq(names(tree, 'button').filter((n) => /^Line \d+: /.test(n)).length, ans.code.length, 'a button per line');
    await tabToAx(page, cdp, 'button', `Line ${ans.bugs[0]}: `);
    await press(page, 'Space');
    await waitFor(page, `s.lines.includes(${ans.bugs[0]})`);
    eq((await axFocused(cdp)).pressed, 'true', 'the picked line is pressed');
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('buggy line: a decoy, then the bug', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, 'ring.buggy-double-count');
    const ans = engineAnswer('ring.buggy-double-count');
    const bug = ans.bugs[0];
    const decoy = bug === 1 ? 2 : 1;
    await click(page, `line-${decoy}`);
    let s = await submit(page);
    eq(s.verdict, 'incorrect', 'decoy line');
    await click(page, `line-${bug}`);
    s = await submit(page);
    eq(s.verdict, 'correct', 'bug line');
    await shot(page, 'buggy-line');
    await page.context().close();
  });
}
