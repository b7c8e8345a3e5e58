// Browser tests of the matching type: by mouse (a wrong pair, then all right) and by touch on a
// 360 px phone, where no letter button may run off the screen and each is a finger's size. By
// keys alone (Tab to a letter, Space picks it, Enter submits) and by the accessibility tree it
// is solved in tests/e2e/run.mjs's tests of every type, with the steps below.
import { ready, state, waitFor, press, click, tap, findItem, openExercise, submit, shot, engineAnswer, tabUntil, tabToAx } from '../../tests/e2e/lib.mjs';

const ID = 'coll.match-results';

// [[item position, option position], ...] from `dtx show --answer --json` ("1-C" -> [0, 2]).
function rightPairs(ans) {
  return ans.answer.map((p) => {
    const [num, letter] = p.split('-');
    return [Number(num) - 1, letter.charCodeAt(0) - 65];
  });
}

// Finds an item and scrolls (a finger's swipe) until it is wholly on screen: an item at the
// bottom edge is reported clipped.
async function wholeItem(page, id) {
  for (let i = 0; i < 20; i++) {
    const it = await findItem(page, id);
    if (it.y + it.h + 60 <= page.viewportSize().height) return it;
    await page.mouse.move(180, 370);
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(60);
  }
  return findItem(page, id);
}

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.match-bytes',
  async fill(page, form, a, { eq }) {
    for (const w of a.grade_words) { const [item, letter] = w.split('-'); await page.selectOption(`${form} select[data-item="${item}"]`, letter); }
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: ID,
  // Tab to the right letter of each item, Space picks it (Enter submits)
  async solve(page, ans) {
    for (const [k, [item, option]] of rightPairs(ans).entries()) {
      await tabUntil(page, `s.focus === 'match-${item}-${option}'`, `letter ${String.fromCharCode(65 + option)} of item ${item + 1}`, 120);
      await press(page, 'Space');
      await waitFor(page, `s.matches.filter((m) => m >= 0).length > ${k}`);
    }
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'coll.match-results',
  // each item's letters are radios "A. option text" in a group named by the item; Tab goes item
  // by item, letter by letter, so the next "A. " after a pick is the next item's first letter
  async solve(page, cdp, ans, tree, { assert }) {
    assert(tree.some((n) => n.role === 'radiogroup' && n.name.startsWith('Item 1: ')), 'each item is a radio group');
    for (const [k, [, option]] of rightPairs(ans).entries()) {
      const letter = String.fromCharCode(65 + option);
      if (k > 0) await press(page, 'Tab');  // off the letter just picked (it may be an A)
      await tabToAx(page, cdp, 'radio', 'A. ', 160);
      if (letter !== 'A') await tabToAx(page, cdp, 'radio', `${letter}. `, 40);
      await press(page, 'Space');
      await waitFor(page, `s.matches.filter((m) => m >= 0).length > ${k}`);
    }
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('matching: a wrong pair, then every pair right, by mouse', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, ID);
    const ans = engineAnswer(ID);
    const pairs = rightPairs(ans);
    eq(pairs.length, ans.items.length, 'one answer per item');
    // Item 1 gets item 2's option; the rest are right.
    for (const [item, option] of pairs) await click(page, `match-${item}-${item === 0 ? pairs[1][1] : option}`);
    let s = await state(page);
    eq(s.matches.filter((m) => m >= 0).length, pairs.length, 'every item has an option');
    s = await submit(page);
    eq(s.verdict, 'partial', 'one pair wrong: ' + s.message);
    eq(s.message, `${pairs.length - 1} of ${pairs.length} pairs are right.`, 'the score in words');
    assert(s.details.length === 1 && s.details[0].includes('does not go with'), 'the wrong pair is named: ' + s.details.join(' | '));
    await click(page, `match-0-${pairs[0][1]}`);
    s = await submit(page);
    eq(s.verdict, 'correct', 'every pair right: ' + s.message);
    await shot(page, 'matching');
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  });

  test('matching: a phone at 360 px, by touch; nothing runs off the screen', async () => {
    const page = await newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await page.goto(`${server().url}#/ex/${ID}`);
    let s = await waitFor(page, `s.screen === 'exercise' && s.exercise === '${ID}' && !s.busy`, 20000);
    const pairs = rightPairs(engineAnswer(ID));
    for (const [item, option] of pairs) {
      const it = await wholeItem(page, `match-${item}-${option}`);
      assert(it.w >= 43.5 && it.h >= 43.5, `letter buttons are a finger's size: ${it.w} x ${it.h}`);
      await tap(page, `match-${item}-${option}`);
    }
    s = await waitFor(page, 'true');
    for (const it of s.items.filter((x) => x.id.startsWith('match-')))
      assert(it.x >= 0 && it.x + it.w <= 360 + 0.5, `${it.id} runs off the screen: x ${it.x}, w ${it.w}`);
    s = await waitFor(page, `s.matches.every((m) => m >= 0)`);
    s = await submit(page);
    eq(s.verdict, 'correct', 'by touch: ' + s.message);
    await shot(page, 'matching-phone');
    await page.context().close();
  });
}
