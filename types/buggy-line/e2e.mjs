// Browser tests of the buggy-line type: a decoy line, then the bug.
import { ready, click, openExercise, submit, shot, engineAnswer } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.buggy-double-count',
  async fill(page, form, a, { eq }) {
    for (const w of a.grade_words) await page.check(`${form} input[value="${w}"]`);
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
