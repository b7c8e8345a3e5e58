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
    const rowLinked = () => page.evaluate((t) => [...document.querySelectorAll('#dtx-layer a.dtx-ctl[href]')].some((n) => n.getAttribute('aria-label') === t), closedTitle);
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
      // The text layer comes a second after the first frame, or later on a loaded machine.
      await page.waitForFunction((t) => [...document.querySelectorAll('#dtx-page h1, #dtx-page .dtx-block')]
        .some((e) => e.textContent.includes(t)), title, { timeout: 10000 }).catch(() => {});
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

  test('links: map rows, Next and an in-text reference are <a href>: middle-click and Ctrl+click open another tab, a click opens here', async () => {
    const page = await newPage();
    await page.goto(server().url);
    await ready(page);
    const context = page.context();
    const center = (selector) => page.evaluate((sel) => {
      const n = document.querySelector(sel);
      if (!n) return null;
      const r = n.getBoundingClientRect();
      const x = r.x + Math.min(r.width / 2, 40), y = r.y + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      return { x, y, hit: hit && hit.closest('a') ? hit.closest('a').getAttribute('href') : null, tag: n.tagName };
    }, selector);
    const newTab = async (how) => {
      const opened = context.waitForEvent('page', { timeout: 5000 });
      await how();
      const tab = await opened;
      await tab.waitForLoadState('domcontentloaded');
      const url = tab.url();
      await tab.close();
      return url;
    };
    // A row of the map: the element under the pointer is the link (the browser's context menu
    // offers "Open link in new tab" for what is under it).
    const row = 'a.dtx-ctl[href="#/ex/ring.latency"]';
    const at = await center(row);
    assert(at, 'the row of ring.latency is an <a href> in the layer');
    eq(at.hit, '#/ex/ring.latency', 'the element under the pointer on the row');
    const label = await page.evaluate((sel) => document.querySelector(sel).getAttribute('aria-label'), row);
    assert(label === null || label.includes(engineAnswer('ring.latency').title), 'label in name: ' + label);
    let url = await newTab(() => page.mouse.click(at.x, at.y, { button: 'middle' }));
    assert(url.endsWith('#/ex/ring.latency'), 'middle-click opened ' + url);
    url = await newTab(async () => {
      await page.keyboard.down('Control');
      await page.mouse.click(at.x, at.y);
      await page.keyboard.up('Control');
    });
    assert(url.endsWith('#/ex/ring.latency'), 'Ctrl+click opened ' + url);
    let s = await state(page);
    eq(s.screen, 'course', 'this tab stays on the map');
    eq(context.pages().length, 1, 'tabs open');
    // a plain click opens the exercise in this tab (the engine's press)
    await page.mouse.click(at.x, at.y);
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.latency'");
    // Next
    const next = await page.evaluate(() => {
      const a = [...document.querySelectorAll('#dtx-layer a.dtx-ctl[href]')].find((n) => (n.getAttribute('aria-label') || '').startsWith('Next'));
      return a ? a.getAttribute('href') : null;
    });
    eq(next, '#/ex/ring.crossover', "Next's address");
    const n = await center(`a.dtx-ctl[href="${next}"]`);
    if (n && n.y > 0 && n.y < 900) {
      url = await newTab(() => page.mouse.click(n.x, n.y, { button: 'middle' }));
      assert(url.endsWith(next), 'middle-click on Next opened ' + url);
    }
    // An exercise's words referring to another: solved, the explanation links ring.busbw.
    await page.evaluate(() => { location.hash = '#/ex/coll.busbw'; });
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'coll.busbw'");
    const ans = engineAnswer('coll.busbw');
    for (const p of ans.parts) await typeInto(page, `part-${p.id}`, String(p.value), { commit: true });
    eq((await submit(page)).verdict, 'correct', 'coll.busbw');
    const ref = 'a.dtx-line[href="#/ex/ring.busbw"]';
    let shown = null;
    for (let i = 0; i < 30 && !shown; i++) {
      await page.evaluate((sel) => { const a = document.querySelector(sel); if (a) a.scrollIntoView({ block: 'center' }); }, ref);
      await page.waitForTimeout(150);
      shown = await page.evaluate((sel) => {
        const a = document.querySelector(sel);
        if (!a) return null;
        const r = a.getBoundingClientRect();
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        return y > 0 && y < innerHeight && document.elementFromPoint(x, y) === a ? { x, y, target: a.target } : null;
      }, ref);
    }
    assert(shown, 'the reference to ring.busbw is a link in view');
    eq(shown.target, '', 'an address of dtx opens in this tab');
    url = await newTab(() => page.mouse.click(shown.x, shown.y, { button: 'middle' }));
    assert(url.endsWith('#/ex/ring.busbw'), 'middle-click on the reference opened ' + url);
    await page.mouse.click(shown.x, shown.y);
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.busbw'");
    await shot(page, 'links-reference-followed');
    await context.close();
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
