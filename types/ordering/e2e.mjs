// Browser tests of the ordering type: rows dragged (mouse, a finger on the grip, a long press)
// and moved by keys, over one row and over four.
import { ready, state, waitFor, click, press, openExercise, submit, shot, engineAnswer, touchPath, tabUntil, tabToAx, axFocused } from '../../tests/e2e/lib.mjs';

// A linked exercise's HTML first view (before the engine runs), answered as a student would with
// the engine's right answer `a` (`dtx show --answer --json`); tests/e2e/first-screen.mjs submits it.
export const firstView = {
  id: 'ring.order-steps',
  async fill(page, form, a, { eq }) {
    // the steps put in order with their ▲ buttons, as a student would
    for (let i = 0; i < a.grade_words.length; i++) {
      let at = await page.$$eval(form + ' li[data-label]', (lis, w) => lis.findIndex((li) => li.dataset.label === w), a.grade_words[i]);
      for (; at > i; at--) await page.click(`${form} li[data-label="${a.grade_words[i]}"] .fx-up`);
    }
    eq(JSON.stringify(await page.$$eval(form + ' li[data-label]', (lis) => lis.map((li) => li.dataset.label))), JSON.stringify(a.grade_words), a.id + ': the order');
  },
};

// Solved with keys alone in tests/e2e/run.mjs's keyboard test, on `id`: the steps after the
// exercise is open (`ans` is `dtx show --answer --json`).
export const keyboard = {
  id: 'ring.order-steps',
  // Tab to a row, Space picks it up, arrows move it (the focus follows), Space puts it down
  async solve(page, ans) {
    let s = await state(page);
    const before = s.order.slice();
    const labels = ans.items.map((i) => i.label);
    const target = ans.answer.map((l) => before[labels.indexOf(l)]);
    for (let t = 0; t < target.length; t++) {
      s = await state(page);
      const pos = s.order.indexOf(target[t]);
      if (pos === t) continue;
      await tabUntil(page, `s.focus === 'order-${pos}'`, `row ${pos + 1}`);
      await press(page, 'Space');
      for (let k = 0; k < pos - t; k++) {
        const from = (await state(page)).order.indexOf(target[t]);
        await press(page, 'ArrowUp');
        if (!(await waitFor(page, `s.order.indexOf(${target[t]}) < ${from}`, 3000).catch(() => null))) {
          // Seen once under load (the row stayed): said here with what the page saw, and the
          // key pressed again, so the rest of the test still runs. To be run down.
          console.log(`      note: ArrowUp did not move the held row from ${from}; pressed again. Input log:\n` +
            (await page.evaluate(() => window.dtx.inputLog())).split('\n').slice(-12).map((l) => '        ' + l).join('\n'));
          await press(page, 'ArrowUp');
        }
      }
      // the focus goes with the row (set in the frame after the move)
      s = await waitFor(page, `s.order[${t}] === ${target[t]} && s.focus === 'order-${t}'`).catch(async () => {
        const now = await state(page);
        throw new Error(`row for place ${t}: order ${now.order}, want ${target}; focus ${now.focus}, grabbed ${now.grabbed}; input log:\n` +
          await page.evaluate(() => window.dtx.inputLog()));
      });
      await press(page, 'Space');
    }
  },
};

// Solved with the accessibility tree to find and the keyboard to act, in tests/e2e/run.mjs's
// screen-reader test: the steps after the exercise is open (`tree` is what a screen reader has).
export const screenReader = {
  id: 'ring.order-steps',
  // a list of steps "k. text" (described "Step k of n"); Space selects one, the arrows move it
  // and the screen reader's focus goes with it, saying its new place
  async solve(page, cdp, ans, tree, { assert, eq }) {
    assert(tree.some((n) => n.role === 'list' && n.name === 'Steps, in your order'), 'the steps are a list');
    const n = ans.items.length;
    const text = (label) => ans.items.find((i) => i.label === label).text;
    for (let t = 0; t < n; t++) {
      const want = text(ans.answer[t]);
      let f = await tabToAx(page, cdp, 'button', (name) => /^\d+\. /.test(name) && name.endsWith(want));
      let at = Number(/^(\d+)\./.exec(f.name)[1]) - 1;
      if (at === t) continue;
      await press(page, 'Space');
      while (at > t) {
        await press(page, 'ArrowUp');
        f = await waitFor(page, `s.grabbed === ${at - 1}`).then(() => page.waitForTimeout(50)).then(() => axFocused(cdp));
        at--;
        eq(f && f.name, `${at + 1}. ${want}`, 'the focus follows the moved step');
      }
      await press(page, 'Space');
    }
  },
};

export default function register({ test, newPage, assert, eq, server }) {
  test('ordering: by drag and by keyboard', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    let s = await openExercise(page, 'ring.order-steps');
    const ans = engineAnswer('ring.order-steps');
    const n = ans.items.length;
    // as shown: wrong (the engine never shows it solved)
    s = await submit(page);
    assert(s.verdict !== 'correct', 'initial order graded correct');
    // drag the second row above the first with the mouse
    const before = (await state(page)).order.slice();
    const rows = (await state(page)).items;
    const r1 = rows.find((i) => i.id === 'order-1');
    const r0 = rows.find((i) => i.id === 'order-0');
    await page.mouse.move(r1.x + 30, r1.y + r1.h / 2);
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) {  // a person's drag lasts several frames
      await page.mouse.move(r1.x + 30, r1.y + r1.h / 2 + (r0.y + r0.h / 2 - 4 - (r1.y + r1.h / 2)) * k / 6);
      const f = (await state(page)).frame;
      await waitFor(page, `s.frame > ${f}`);
    }
    await page.mouse.up();
    s = await waitFor(page, `s.order[0] === ${before[1]}`).catch(async (e) => { throw new Error(e.message + ' order ' + JSON.stringify((await state(page)).order) + ' before ' + JSON.stringify(before)); });
    eq(s.order[1], before[0], 'dragged row swapped');
    // now sort with the keyboard: select a row, Home / arrow keys move it
    const labels = ans.items.map((i) => i.label);           // display order of the original instance
    const target = ans.answer.map((l) => before[labels.indexOf(l)]);  // authored index wanted at each place
    for (let t = 0; t < n; t++) {
      s = await state(page);
      const pos = s.order.indexOf(target[t]);
      if (pos === t) continue;
      await click(page, `order-${pos}`);
      await waitFor(page, 'true');
      const seen = [];  // each key's frame and the order after it, for a failure's message
      const after = async (key) => { const st = await state(page); seen.push(`${key}@${st.frame}: ${st.order} grabbed ${st.grabbed}`); };
      await after('click');
      if (t === 0) { await press(page, 'Home'); await after('Home'); }
      else for (let k = 0; k < pos - t; k++) { await press(page, 'ArrowUp'); await after('ArrowUp'); }
      await waitFor(page, `s.order[${t}] === ${target[t]}`).catch(async (e) => { const st = await state(page); throw new Error(`keyboard move to ${t}: order ${st.order} target ${target} grabbed from ${pos} active ${st.active} grabbed ${st.grabbed}; ${seen.join(' | ')}\ninput log:\n${await page.evaluate(() => window.dtx.inputLog())}`); });
    }
    s = await submit(page);
    eq(s.verdict, 'correct', 'ordering after keyboard moves');
    await shot(page, 'ordering');
    await page.context().close();
  });

  // A row held and dragged over four rows lands four places away, with the button (or finger)
  // held all along: by the mouse on its text, by a finger on its grip, and by a long press.
  test('ordering: a row dragged over four rows lands there (mouse, touch grip, long press)', async () => {
    const moved = (order, from, to) => { const a = order.slice(); const [v] = a.splice(from, 1); a.splice(to, 0, v); return a; };
    const rowAt = (st, id) => st.items.find((i) => i.id === id);
    const open = async (page) => {
      await page.goto(server().url + '#/ex/ring.order-steps');
      return waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.order-steps' && s.items.some((i) => i.id === 'order-5')", 20000);
    };
    // the mouse, on the row's text, in ten moves of one frame each
    let page = await newPage({ viewport: { width: 1280, height: 1100 } });
    let s = await open(page);
    let before = s.order.slice();
    let a = rowAt(s, 'order-0'), b = rowAt(s, 'order-4');
    const x = a.x + a.w / 2, y0 = a.y + a.h / 2, y1 = b.y + b.h / 2 + 2;
    await page.mouse.move(x, y0);
    await page.mouse.down();
    for (let k = 1; k <= 10; k++) {
      const f = (await state(page)).frame;
      await page.mouse.move(x, y0 + (y1 - y0) * k / 10);
      await waitFor(page, `s.frame > ${f}`);
    }
    s = await waitFor(page, 'true');
    eq(s.grabbed, 4, 'the row is still held, four places down, before the button is released');
    await page.mouse.up();
    const want = JSON.stringify(moved(before, 0, 4));
    s = await waitFor(page, `JSON.stringify(s.order) === ${JSON.stringify(want)}`).catch(async () => {
      throw new Error(`mouse drag: order ${JSON.stringify((await state(page)).order)}, wanted ${want} (from ${JSON.stringify(before)})`);
    });
    await page.context().close();
    // a finger: on the grip at once, then on the text after a long press; each four rows up
    page = await newPage({ viewport: { width: 430, height: 1600 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    s = await open(page);
    for (const [by, hold] of [['grip', 0], ['order', 700]]) {
      before = s.order.slice();
      a = rowAt(s, `${by}-4`);
      b = rowAt(s, 'order-0');
      assert(a && b, `${by}-4 and row 1 on screen: ` + s.items.map((i) => i.id));
      const tx = a.x + a.w / 2, ty0 = a.y + a.h / 2, ty1 = b.y + b.h / 2 - 2;
      await touchPath(page, [[tx, ty0], ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => [tx, ty0 + (ty1 - ty0) * k / 10])], hold);
      const w = JSON.stringify(moved(before, 4, 0));
      s = await waitFor(page, `JSON.stringify(s.order) === ${JSON.stringify(w)}`).catch(async () => {
        throw new Error(`${by} drag by finger: order ${JSON.stringify((await state(page)).order)}, wanted ${w} (from ${JSON.stringify(before)})`);
      });
    }
    await shot(page, 'phone-ordering-dragged-four');
    await page.context().close();
  });
}
