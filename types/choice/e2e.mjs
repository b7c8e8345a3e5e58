// Browser tests of the choice type: a wrong option's feedback, then the right one.
import { ready, click, openExercise, submit, shot, engineAnswer } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'quiz.plan-70b',
  async fill(page, form, a, { eq }) {
    for (const w of a.grade_words) await page.check(`${form} input[value="${w}"]`);
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
