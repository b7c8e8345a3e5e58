// Search (issue 42): "/" opens it from anywhere with the keyboard in the field; results come
// as the student types, from search-index.json (built by `make dist`); each is a
// link (<a href>) to its exercise or to its chapter's notes, with the words around the match;
// #/search?q= is an address; keys alone reach and open a result; the accessibility tree names
// the field and the results; axe finds nothing serious in light and dark; a 320 px phone keeps
// the top bar and the results on the screen; with the network off the search still works.
import { waitFor, click, tap, press, state, layerText, findItem, axUntil, tabUntil } from './lib.mjs';
import { offlineReady } from './offline.mjs';

async function results(page) {
  return page.evaluate(() => [...document.querySelectorAll('#dtx-layer a')].filter((a) => /#\/(ex|chapter)\//.test(a.getAttribute('href') || ''))
    .map((a) => ({ text: a.textContent, href: a.getAttribute('href') })));
}

export default function register({ test, newPage, assert, eq, server, axeAudit }) {
  test('search: "/" from the map, typed words, Tab and Enter open a result; the address, the accessibility tree and axe in both themes', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.addInitScript(() => {
      window.__pointer = 0;
      for (const ev of ['mousedown', 'mouseup', 'mousemove', 'touchstart', 'wheel']) window.addEventListener(ev, () => { window.__pointer++; }, true);
    });
    await page.goto(server().url);
    await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    await page.keyboard.press('/');
    let s = await waitFor(page, "s.screen === 'search' && s.text_input === true");
    await page.keyboard.type('dualpipe bubble');
    await waitFor(page, "s.frame > 0");
    await page.waitForFunction(() => /result/.test(document.getElementById('dtx-layer').textContent));
    let found = await results(page);
    assert(found.length >= 1 && /DualPipe/i.test(found[0].text), 'the first result is a DualPipe exercise: ' + JSON.stringify(found.slice(0, 3)));
    assert(found[0].href.startsWith('#/ex/'), 'a result is a link to its exercise');
    const words = await layerText(page);
    assert(/dualpipe/i.test(words.split('result')[1] || ''), 'the words around the match are shown');
    eq(new URL(page.url()).hash, '#/search?q=dualpipe%20bubble', 'the address holds the words');
    // The accessibility tree: the field by its name, the results as links.
    const cdp = await page.context().newCDPSession(page);
    const tree = await axUntil(cdp, (t) => t.some((n) => n.role === 'textbox' && n.name === 'Search the course'), 'the field is named');
    assert(tree.some((n) => n.role === 'link' && /DualPipe/i.test(n.name)), 'the results are links');
    await axeAudit(page, 'search results, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(page, "s.theme === 'dark'");
    await axeAudit(page, 'search results, dark');
    await page.screenshot({ path: 'build/e2e/search-results.png' });
    // Keys alone: Escape leaves the field, Tab reaches the first result, Enter opens it.
    await press(page, 'Escape');
    const first = found[0].href.slice('#/ex/'.length);
    s = await tabUntil(page, "s.focus === 'result-0'", 'the first result');
    await press(page, 'Enter');
    s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(first)}`);
    eq(await page.evaluate(() => window.__pointer), 0, 'no pointer event: keys alone');
    // An address with words: the chapter notes are among the results, and open on the map.
    await page.goto(server().url + '#/search?q=ring%20algorithm');
    await waitFor(page, "s.screen === 'search'");
    await page.waitForFunction(() => /result/.test(document.getElementById('dtx-layer').textContent));
    found = await results(page);
    const notes = found.findIndex((r) => r.href === '#/chapter/0/notes');
    assert(notes >= 0, 'the chapter notes are found: ' + JSON.stringify(found.slice(0, 5)));
    await click(page, `result-${notes}`);
    await waitFor(page, "s.screen === 'course'");
    await page.waitForFunction(() => /About this chapter/.test(document.getElementById('dtx-layer').textContent));
    assert(/What an AllReduce does/.test(await layerText(page)), 'the notes are open on the map');
    await page.context().close();
  });

  test('search: 320, 360 and 430 px phones by touch keeps the top bar and the results on the screen; with the network off it still finds', async () => {
    for (const width of [320, 360, 430]) {
      const page = await newPage({ viewport: { width, height: 760 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await page.goto(server().url);
      let s = await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
      for (const id of ['nav-course', 'nav-lab', 'nav-search', 'nav-settings']) {
        const it = s.items.find((i) => i.id === id);
        assert(it && it.x >= 0 && it.x + it.w <= width, `${width} px: ${id} on the screen: ${JSON.stringify(it)}`);
      }
      await tap(page, 'nav-search');
      s = await waitFor(page, "s.screen === 'search' && s.text_input === true");
      await page.keyboard.insertText('zero');
      await page.waitForFunction(() => /\d+ results?/.test(document.getElementById('dtx-layer').textContent));
      s = await state(page);
      for (const it of s.items.filter((i) => /^result-/.test(i.id) && i.y < 760))
        assert(it.x >= 0 && it.x + it.w <= width + 1, `${width} px: a result within the screen: ${JSON.stringify(it)}`);
      await page.screenshot({ path: `build/e2e/search-phone-${width}.png` });
      await page.context().close();
    }
    // Offline: after one visit the service worker has the index with the rest of the site.
    const page = await newPage({ serviceWorkers: 'allow' });
    await page.goto(server().url);
    await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    await offlineReady(page);
    await page.context().setOffline(true);
    await page.goto(server().url + '#/search?q=bubble');
    await waitFor(page, "s.screen === 'search'", 20000);
    await page.waitForFunction(() => /\d+ results?/.test(document.getElementById('dtx-layer').textContent), null, { timeout: 15000 });
    assert((await results(page)).length > 3, 'offline: bubble finds exercises');
    await page.context().close();
  });
}
