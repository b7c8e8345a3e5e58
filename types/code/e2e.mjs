// Browser tests of the code type: wrong code, an endless loop stopped, a syntax error, the
// clipboard both ways, the right code; hidden cases that tell only how many pass.
import { ready, state, waitFor, click, press, typeInto, openExercise, submit, shot, engineAnswer, layerText, waitForLayer, tabUntil, replaceCodeByKeys, tabToAx } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.code-time',
  async fill(page, form, a, { eq }) {
    await page.fill(form + ' textarea', a.grade_words[0]);
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.code-time',
  // Tab into the editor, type (Tab indents there), Ctrl+Enter submits from inside it
  submitKey: 'Control+Enter',
  timeout: 15000,
  async solve(page, ans) {
    await tabUntil(page, "s.text_input && s.active === 'code'", 'the code editor');
    await replaceCodeByKeys(page, ans.reference);
    await waitFor(page, `s.code === ${JSON.stringify(ans.reference)}`).catch(async () => {
      throw new Error('the editor holds ' + JSON.stringify((await state(page)).code));
    });
  },
  // Back in the editor (running the code took it out), Esc leaves it with the code kept and
  // the focus on it
  async after(page, ans, { eq }) {
    await tabUntil(page, "s.text_input && s.active === 'code'", 'the code editor again');
    await press(page, 'Escape');
    const s = await waitFor(page, '!s.text_input');
    eq(s.screen, 'exercise', 'the first Esc only leaves the editor');
    eq(s.focus, 'code', 'the focus stays on the editor');
    eq(s.code, ans.reference, 'the code is kept');
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.code-time',
  // the editor is a multi-line textbox; the code is typed there
  submitKey: 'Control+Enter',
  timeout: 15000,
  async solve(page, cdp, ans) {
    await tabToAx(page, cdp, 'textbox', 'Your code (JavaScript)');
    await replaceCodeByKeys(page, ans.reference);
    await waitFor(page, `s.code === ${JSON.stringify(ans.reference)}`);
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('code: wrong, infinite loop, syntax error, clipboard both ways, right', async () => {
    const page = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, 'ring.code-time');
    const ans = engineAnswer('ring.code-time');
    const sig = ans.reference.match(/function\s+(\w+)\s*\(([^)]*)\)/);
    const head = `function ${sig[1]}(${sig[2]}) {`;
    // wrong: per-case results
    await typeInto(page, 'code', `${head}\n  return 0;\n}`, { commit: true });
    let s = await submit(page);
    assert(s.verdict === 'incorrect' || s.verdict === 'partial', `return 0 graded ${s.verdict}: ${s.message}; the editor held ${JSON.stringify(s.code)}`);
    assert(s.cases.length > 0 && s.cases.some((c) => !c.pass), 'per-case results');
    await shot(page, 'code-wrong');
    // an infinite loop is stopped; the page keeps drawing meanwhile
    await typeInto(page, 'code', `${head}\n  while (true) {}\n}`, { commit: true });
    const t0 = Date.now();
    const f0 = (await state(page)).frame;
    await click(page, 'submit');
    await page.mouse.move(10, 10);
    // Frames are drawn while the loop runs (before its verdict): the page is not blocked.
    const mid = await waitFor(page, `s.frame > ${f0 + 3}`, 15000);
    assert(mid.graded < 2, 'page responsive while the code runs: no frame drawn until the verdict');
    // The bound only catches a limit that does not hold (a hang); the time is a figure, not a test.
    s = await waitFor(page, `s.graded >= 2`, 3000 + 12000);
    console.log(`      the loop was stopped ${Date.now() - t0} ms after the click`);
    assert(/time limit/i.test(s.message + JSON.stringify(s.details)), 'time limit reported: ' + s.message);
    // a syntax error names the student's line and is not an attempt
    await typeInto(page, 'code', `${head}\n  return 1 +* 2;\n}`, { commit: true });
    s = await submit(page);
    eq(s.verdict, 'format-error', 'syntax error');
    assert(/line 2/.test(s.message + JSON.stringify(s.details)), 'syntax error line: ' + s.message + ' in ' + JSON.stringify(s.code));
    // paste from the system clipboard
    await page.evaluate((t) => navigator.clipboard.writeText(t), ans.reference);
    await click(page, 'code');
    await waitFor(page, 's.text_input === true');
    await press(page, 'Control+A');
    await press(page, 'Control+V');
    s = await waitFor(page, `s.code === ${JSON.stringify(ans.reference)}`, 5000).catch(async (e) => { throw new Error('paste: editor holds ' + JSON.stringify((await state(page)).code) + ' expected ' + JSON.stringify(ans.reference)); });
    // copy to the system clipboard
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await press(page, 'Control+A');
    await press(page, 'Control+C');
    await page.waitForTimeout(200);
    eq(await page.evaluate(() => navigator.clipboard.readText()), ans.reference, 'clipboard after Ctrl+C');
    s = await submit(page);
    eq(s.verdict, 'correct', 'reference solution');
    await shot(page, 'code-right');
    await page.context().close();
  });

  // ring.code-time hides its generated cases: a solution that is a table of the shown cases
  // passes those and fails the hidden ones, and the page tells only how many of those pass.
  test('code: hidden cases show only how many pass, never their inputs', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, 'ring.code-time');
    const ans = engineAnswer('ring.code-time');
    const shown = ans.cases.filter((c) => !c.hidden), hidden = ans.cases.filter((c) => c.hidden);
    assert(hidden.length > 0 && shown.length > 0, `shown and hidden cases: ${shown.length}, ${hidden.length}`);
    const sig = ans.reference.match(/function\s+(\w+)\s*\(([^)]*)\)/);
    const names = sig[2].split(',').map((s) => s.trim());
    // The student's "solution": the shown cases' expected values, and an error that quotes the
    // arguments of any other case.
    const table = Object.fromEntries(shown.map((c) => [c.args.join(), c.expected]));
    await typeInto(page, 'code', `function ${sig[1]}(${sig[2]}) {\n  const t = ${JSON.stringify(table)};\n` +
      `  const k = [${sig[2]}].join();\n  if (k in t) return t[k];\n  throw new Error('leaked ' + k);\n}`, { commit: true });
    const s = await submit(page);
    eq(s.verdict, 'partial', 'a table of the shown cases');
    const line = `Hidden cases: 0 of ${hidden.length} pass; a hidden case threw an error.`;
    eq(s.details.join('|'), line, 'the details');
    assert(s.spoken.includes(line), 'the live region says it: ' + s.spoken);
    eq(s.cases.filter((c) => c.hidden).length, hidden.length, 'hidden cases in the hook state');
    for (const c of s.cases.filter((c) => c.hidden))
      assert(!c.pass && c.got === '' && c.message === 'a hidden case threw an error', 'a hidden case: ' + JSON.stringify(c));
    await waitForLayer(page, `t.includes(${JSON.stringify(line)})`, 'the hidden line');
    await waitForLayer(page, `t.includes('${hidden.length} hidden cases')`, 'the table row');
    const text = await layerText(page);
    // Neither the case's arguments as the table would show them ("M_gb=3.5, N=64, ...") nor as
    // the student's error quoted them ("3.5,64,..."), nor the error's words.
    for (const c of hidden) {
      const asShown = c.args.map((v, i) => `${names[i]}=${v}`).join(', ');
      assert(!text.includes(asShown), `hidden arguments ${asShown} in the page: ${text.slice(0, 400)}`);
      assert(!text.includes(c.args.join()), `hidden arguments ${c.args.join()} in the page`);
    }
    // (the editor's text is in the layer too: it holds 'leaked ', but never "Error: leaked")
    assert(!text.includes('Error: leaked'), 'the error text of a hidden case is in the page');
    // the shown cases are listed as before
    assert(text.includes(shown[0].args.map((v, i) => `${names[i]}=${v}`).join(', ')), 'a shown case is listed');
    await shot(page, 'code-hidden-cases');
    await page.context().close();
  });
}
