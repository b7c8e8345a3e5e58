// The page behaves as a web page does once the engine runs: Ctrl+P prints the screen's
// words, find in page reaches every title of the map, a reload keeps the scroll, the keyboard
// comes back to the row it left, a phone shows the assignment's Start button, and a file that
// is not progress is refused on import without changing what is stored.
import { state, waitFor, ready, click, press, typeInto, submit, shot, engineAnswer, findItem } from './lib.mjs';

// The layer's words (all of its text, as find in page and a screen reader have them).
const layerText = (page) => page.evaluate(() => (document.getElementById('dtx-layer') || {}).textContent || '');

export default function register({ test, newPage, assert, eq, server }) {
  test('print: Ctrl+P gives the prompt, the answers, the feedback and the worked solution as text', async () => {
    const page = await newPage();
    await page.goto(server().url + '#/ex/ring.volume');
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'", 20000);
    const ans = engineAnswer('ring.volume');
    await typeInto(page, 'part-phase', String(ans.parts[0].value));
    await typeInto(page, 'part-total', '12345');
    let s = await submit(page);
    assert(s.verdict !== 'correct', 'a wrong second part');
    await typeInto(page, 'part-total', String(ans.parts[1].value));
    s = await submit(page);
    eq(s.verdict, 'correct', 'then right');
    await page.waitForTimeout(300);
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const canvas = getComputedStyle(document.getElementById('canvas')).display;
      const line = document.querySelector('#dtx-page .dtx-line');
      return { canvas, color: line ? getComputedStyle(line).color : '', text: document.body.innerText };
    });
    eq(printed.canvas, 'none', 'the canvas in print');
    eq(printed.color, 'rgb(0, 0, 0)', "the layer's words in print");
    const words = printed.text.replace(/\s+/g, ' ');
    for (const want of [ans.title, String(ans.parts[0].value), String(ans.parts[1].value), 'Correct'])
      assert(words.includes(want), `the printed page has "${want}": ${words.slice(0, 600)}`);
    await page.pdf({ path: 'build/e2e/print-exercise.pdf' });
    await page.context().close();
  });

  test('find in page: every chapter and exercise title of the map, closed or out of view', async () => {
    const page = await newPage();
    await page.goto(server().url);
    let s = await ready(page);
    const outline = await page.evaluate(() => fetch('exercises/outline.json').then((r) => r.json()));
    const packs = outline.packs.slice().sort((a, b) => a.chapter - b.chapter);
    const last = packs[packs.length - 1];
    const closedTitle = last.exercises[last.exercises.length - 1].title;
    const closedId = last.exercises[last.exercises.length - 1].id;
    assert(!s.items.some((i) => i.id === `ex-${closedId}`), 'the last chapter starts closed');
    const text = await layerText(page);
    for (const p of packs) assert(text.includes(`Chapter ${p.chapter}: ${p.title}`) || text.includes(p.title), `chapter ${p.chapter} in the layer`);
    // A title in a closed chapter is in the layer hidden until found (find in page searches
    // such text and, on a match, fires beforematch on it before revealing it; window.find does
    // not search it, so the browser's part is done here by hand): the chapter opens.
    const box = await page.evaluateHandle((t) => [...document.querySelectorAll('#dtx-layer [hidden=until-found]')]
      .find((b) => [...b.children].some((d) => d.textContent === t)) || null, closedTitle);
    assert(await box.evaluate((b) => !!b), `"${closedTitle}" is in the layer, hidden until found`);
    await box.evaluate((b) => b.dispatchEvent(new Event('beforematch')));
    const rowLinked = () => page.evaluate((t) => [...document.querySelectorAll('#dtx-layer .dtx-ctl[role=link]')].some((n) => n.getAttribute('aria-label') === t), closedTitle);
    const until = Date.now() + 5000;
    while (!(await rowLinked()) && Date.now() < until) await page.waitForTimeout(100);
    assert(await rowLinked(), `the chapter of ${closedId} opened on find (its row is in the layer)`);
    eq(await page.evaluate(() => history.length), 2, 'history entries (finding a word adds none)');
    // a title out of view in an open chapter (the map scrolled back to the top)
    await page.evaluate(() => { window.getSelection().removeAllRanges(); });
    const first = packs[0];
    const far = first.exercises[first.exercises.length - 1];
    await page.goto(server().url + '#/chapter/' + first.chapter);
    await waitFor(page, "s.screen === 'course'");
    assert(await page.evaluate((t) => window.find(t, false, false, true), far.title), `find in page found "${far.title}"`);
    await page.context().close();
  });

  test('reload keeps the scroll; leaving an exercise by the keyboard brings the focus back to its row', async () => {
    const page = await newPage({ viewport: { width: 480, height: 500 } });
    await page.goto(server().url + '#/ex/ring.volume');
    let s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'", 20000);
    await page.mouse.move(240, 250);
    for (let i = 0; i < 6; i++) { await page.mouse.wheel(0, 200); await page.waitForTimeout(150); }
    await page.waitForTimeout(500);
    const scrolled = await page.evaluate(() => document.getElementById('dtx-page').scrollTop);
    assert(scrolled > 60, 'scrolled down: ' + scrolled);
    await page.reload();
    await waitFor(page, "s.screen === 'exercise'", 20000);
    await page.waitForTimeout(500);
    const after = await page.evaluate(() => document.getElementById('dtx-page').scrollTop);
    assert(Math.abs(after - scrolled) < 30, `after a reload the page is scrolled to ${after}, was ${scrolled}`);
    // the map, a row opened by the keyboard, Escape back: the focus is on that row again
    await page.goto(server().url + '#/');
    await ready(page);
    await page.evaluate(() => { location.hash = '#/ex/ring.latency'; });
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.latency'");
    await press(page, 'Tab');
    for (let i = 0; i < 3 && (await state(page)).screen !== 'course'; i++) await press(page, 'Escape');  // (the first may leave a field)
    s = await waitFor(page, "s.screen === 'course'");
    s = await waitFor(page, "s.focus === 'ex-ring.latency'", 3000).catch(async () => {
      throw new Error('focus after Escape: ' + (await state(page)).focus);
    });
    await page.context().close();
  });

  // 200 % zoom of a 1280 x 900 window: 640 x 450 CSS px at 2 device pixels each.
  test('zoom: a link to an exercise at 200 % lands with its title and numbers in view', async () => {
    const page = await newPage({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
    for (const id of ['ring.volume', 'ring.time-bandwidth']) {
      await page.goto(server().url + '#/ex/' + id);
      await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)}`, 20000);
      await page.waitForTimeout(400);
      const title = engineAnswer(id).title;
      const where = await page.evaluate((t) => {
        const h = [...document.querySelectorAll('#dtx-page h1, #dtx-page .dtx-block')].find((e) => e.textContent.includes(t));
        if (!h) return null;
        const r = h.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, scroll: document.getElementById('dtx-page').scrollTop };
      }, title);
      assert(where && where.top >= 0 && where.bottom <= 450, `the title of ${id} in view at 200 %: ${JSON.stringify(where)}`);
    }
    await shot(page, 'zoom-200-deep-link');
    await page.context().close();
  });

  test('import: a JSON file that is not progress is refused by name, and nothing stored changes', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    await page.evaluate(() => { location.hash = '#/settings'; });
    await waitFor(page, "s.screen === 'settings'");
    const before = await page.evaluate(() => JSON.stringify(Object.entries(localStorage).filter(([k]) => k.startsWith('dtx.') && k !== 'dtx.version').sort()));
    const chooser = page.waitForEvent('filechooser');
    await click(page, 'import');
    await (await chooser).setFiles({ name: 'hello.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
    await waitFor(page, 'true');
    const deadline = Date.now() + 5000;
    let text = '';
    while (Date.now() < deadline && !(text = await layerText(page)).includes('hello.json is not a dtx progress file')) await page.waitForTimeout(100);
    assert(text.includes('hello.json is not a dtx progress file') && text.includes('Nothing was changed'), 'the import message: ' + text.slice(-400));
    const after = await page.evaluate(() => JSON.stringify(Object.entries(localStorage).filter(([k]) => k.startsWith('dtx.') && k !== 'dtx.version').sort()));
    eq(after, before, 'what is stored');
    await shot(page, 'import-refused');
    await page.context().close();
  });
}
