// Browser tests of the table type: a cell left whole where it is sharded (the engine names the
// factor), then every cell right, typed as a student would with Tab between cells and Enter to
// submit; and a phone at 360 px, where each row is a list of labelled fields that fit the screen.
import { ready, state, waitFor, press, click, openExercise, submit, shot, engineAnswer, tabUntil, tabToAx } from '../../tests/e2e/lib.mjs';

const ID = 'zero.state-table';

// The right value of each cell with its unit ("6 GB"), by cell id, from `dtx show --answer --json`.
function rightCells(ans) {
  const unit = ans.columns.map((c) => (c.unit ? ' ' + c.unit : ''));
  const out = {};
  for (const row of ans.rows) row.cells.forEach((c, k) => { out[c.id] = `${c.value}${unit[k]}`; });
  return out;
}

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: ID,
  async fill(page, form, a, { eq }) {
    const inputs = await page.$$(form + ' input[data-cell]');
    eq(inputs.length, a.grade_words.length, a.id + ': a field per cell');
    for (const w of a.grade_words) {
      const at = w.indexOf('=');
      await page.fill(`${form} input[data-cell="${w.slice(0, at)}"]`, w.slice(at + 1));
    }
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.phase-table',
  // Tab to the first cell, then Tab from cell to cell, typing each (Enter submits)
  async solve(page, ans) {
    const right = rightCells(ans);
    for (const [k, id] of Object.keys(right).entries()) {
      if (k === 0) await tabUntil(page, `s.text_input && s.active === 'cell-${id}'`, 'the first cell');
      else {
        await press(page, 'Tab');
        await waitFor(page, `s.text_input && s.active === 'cell-${id}'`);
      }
      await page.keyboard.type(right[id]);
    }
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.phase-table',
  // each cell is a textbox named "row, column" and described by its unit; typing goes to it
  async solve(page, cdp, ans, tree, { assert }) {
    const right = rightCells(ans);
    for (const row of ans.rows)
      for (const [k, cell] of row.cells.entries()) {
        const name = `${row.label}, ${ans.columns[k].label}`;
        assert(tree.some((n) => n.role === 'textbox' && n.name === name), `the cell "${name}" is a textbox`);
        await tabToAx(page, cdp, 'textbox', name);
        await page.keyboard.type(right[cell.id]);
      }
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('table: a cell left whole where it is sharded, then every cell right; Tab moves on, Enter submits', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await openExercise(page, ID);
    const ans = engineAnswer(ID);
    const right = rightCells(ans);
    const ids = Object.keys(right);
    // ZeRO-3's weights given whole (as DDP's), the rest right: typed cell by cell, Tab between
    const wrong = { ...right, r4c1: right.r1c1 };
    await click(page, 'cell-r1c1');
    for (const [k, id] of ids.entries()) {
      await waitFor(page, `s.text_input && s.active === 'cell-${id}'`);
      await page.keyboard.type(wrong[id]);
      if (k < ids.length - 1) await press(page, 'Tab');
    }
    let s = await submit(page);
    eq(s.verdict, 'partial', 'one cell wrong: ' + s.message);
    eq(s.message, `${ids.length - 1} of ${ids.length} cells correct.`, 'the count');
    const cell = s.parts.find((p) => p.id === 'r4c1');
    eq(cell.verdict, 'incorrect', 'ZeRO-3, Weights');
    assert(/\bN\b/.test(cell.message), 'the diagnosis names the factor N: ' + cell.message);
    await shot(page, 'table-one-wrong');
    // put right, in the cell itself, and Enter there submits
    await click(page, 'cell-r4c1');
    await press(page, 'Control+A');
    await page.keyboard.type(right.r4c1);
    const before = (await state(page)).graded;
    await press(page, 'Enter');
    s = await waitFor(page, `s.graded > ${before}`);
    eq(s.verdict, 'correct', 'every cell right: ' + s.message);
    await shot(page, 'table-right');
    await page.context().close();
  });

  test('table: a phone at 360 px: each row a list of labelled fields, none past the screen', async () => {
    const page = await newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await page.goto(`${server().url}#/ex/${ID}`);
    let s = await waitFor(page, `s.screen === 'exercise' && s.exercise === '${ID}' && !s.busy`, 20000);
    const cells = s.items.filter((x) => x.id.startsWith('cell-'));
    assert(cells.length >= 3, 'cells drawn: ' + s.items.map((i) => i.id).join(' '));
    for (const it of cells) assert(it.x >= 0 && it.x + it.w <= 360 + 0.5, `${it.id} runs off the screen: x ${it.x}, w ${it.w}`);
    // one field per line: no two cells side by side
    const rows = new Set(cells.map((c) => Math.round(c.y)));
    eq(rows.size, cells.length, 'each cell on a line of its own');
    await shot(page, 'table-phone');
    await page.context().close();
  });
}
