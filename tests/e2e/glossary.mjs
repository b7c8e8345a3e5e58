// Glossary (issue 42): a term's first use in a prompt is a link to its definition. Pointing
// at it shows the definition; a click or a tap opens a popover (Escape or Close shuts it,
// "In the glossary" goes to #/glossary/TERM, where the term is marked). The screen lists
// every term the packs define, a field filters them, keys alone reach the field; in the
// accessibility tree the term is a link whose description is the definition; axe finds
// nothing serious in light and dark; on a 360 px phone the popover stays on the screen; Search
// finds a term and opens it in the glossary.
import { waitFor, click, tap, press, state, layerText, findItem, axUntil, tabUntil } from './lib.mjs';

const GPU = 'term:#/glossary/gpu';

export default function register({ test, newPage, assert, eq, server, axeAudit }) {
  test('glossary: a prompt term shows its definition on hover, a popover on a click, Escape shuts it; the screen, the address, the accessibility tree and axe in both themes', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.goto(server().url + '#/ex/ring.volume');
    let s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume' && !s.busy && s.glossary.terms > 100", 20000);
    // The first use only: "8 GPUs" is a term link, the later "one GPU" is not.
    const terms = s.items.filter((i) => i.id === GPU);
    eq(terms.length, 1, 'one link for GPU in the prompt');
    const it = await findItem(page, GPU);
    await page.mouse.move(it.x + it.w / 2, it.y + it.h / 2);
    await page.waitForFunction(() => /graphics processing unit/i.test((document.getElementById('dtx-layer') || {}).textContent || ''), null, { timeout: 5000 });
    eq((await state(page)).glossary.popover, '', 'hovering opens no popover');
    await click(page, GPU);
    s = await waitFor(page, "s.glossary.popover === 'gpu'");
    assert(s.items.some((i) => i.id === 'term-glossary'), 'the popover has its way to the glossary');
    await axeAudit(page, 'a term popover, light');
    await press(page, 'Escape');
    s = await waitFor(page, "s.glossary.popover === ''");
    eq(s.screen, 'exercise', 'Escape shuts the popover and stays on the exercise');
    // The accessibility tree: the term is a link, its definition its description.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const link = nodes.find((n) => !n.ignored && n.role && n.role.value === 'link' && n.name && /^GPUs?$/.test(n.name.value));
    assert(link, 'the term is a link in the accessibility tree');
    const desc = (link.description && link.description.value) || '';
    assert(/^glossary: .*graphics processing unit/i.test(desc), 'its description is the definition: ' + desc);
    // To the glossary from the popover.
    await click(page, GPU);
    await waitFor(page, "s.glossary.popover === 'gpu'");
    await click(page, 'term-glossary');
    s = await waitFor(page, "s.screen === 'glossary' && s.glossary.selected === 'gpu'");
    eq(new URL(page.url()).hash, '#/glossary/gpu', 'the address names the term');
    assert(/Glossary/.test(await page.title()) && /GPU/.test(await page.title()), 'the title names the term: ' + await page.title());
    const tree = await axUntil(cdp, (t) => t.some((n) => n.role === 'textbox' && n.name === 'Filter the glossary'), 'the field is named');
    assert(tree.some((n) => n.role === 'heading' && n.name === 'MFU'), 'each term is a heading');
    await axeAudit(page, 'glossary, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(page, "s.theme === 'dark'");
    await axeAudit(page, 'glossary, dark');
    await page.screenshot({ path: 'build/e2e/glossary-screen.png' });
    // Back returns to the exercise.
    await page.goBack();
    await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'");
    await page.context().close();
  });

  test('glossary: keys alone reach the filter and narrow the list; an address with an unknown term says so', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.addInitScript(() => {
      window.__pointer = 0;
      for (const ev of ['mousedown', 'mouseup', 'touchstart', 'wheel']) window.addEventListener(ev, () => { window.__pointer++; }, true);
    });
    await page.goto(server().url + '#/glossary');
    await waitFor(page, "s.screen === 'glossary' && s.glossary.terms > 100", 20000);
    await page.waitForFunction(() => /\d{3} terms the exercises use/.test((document.getElementById('dtx-layer') || {}).textContent || ''), null, { timeout: 10000 });
    // The list starts with 1F1B (terms sort by their letters and digits).
    await page.waitForFunction(() => /One-forward-one-backward/.test((document.getElementById('dtx-layer') || {}).textContent || ''));
    await tabUntil(page, "s.focus === 'glossary-filter'", 'the filter field');
    await page.keyboard.type('bubble');
    await page.waitForFunction(() => !/One-forward-one-backward/.test((document.getElementById('dtx-layer') || {}).textContent || ''));
    const words = await layerText(page);
    assert(/pipeline bubble/i.test(words), 'the bubble is listed: ' + words.slice(0, 400));
    assert(!/Graphics processing unit/.test(words), 'unrelated terms are not: ' + words.slice(0, 400));
    eq(await page.evaluate(() => window.__pointer), 0, 'no pointer event: keys alone');
    // Search finds terms too: a result that opens the term in the glossary.
    await page.goto(server().url + '#/search?q=busbw');
    await waitFor(page, "s.screen === 'search'", 20000);
    await page.waitForFunction(() => [...document.querySelectorAll('#dtx-layer a')].some((a) => a.getAttribute('href') === '#/glossary/busbw'), null, { timeout: 15000 });
    await page.goto(server().url + '#/glossary/no-such-term');
    await waitFor(page, "s.screen === 'glossary'", 20000);
    await page.waitForFunction(() => /has no term "no-such-term"/.test((document.getElementById('dtx-layer') || {}).textContent || ''), null, { timeout: 15000 });
    await page.context().close();
  });

  test('glossary: on a 360 px phone in dark, a tap on a term opens the popover on the screen and Close shuts it', async () => {
    const width = 360;
    const page = await newPage({ viewport: { width, height: 760 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    await page.goto(server().url + '#/ex/ring.volume');
    await waitFor(page, "s.screen === 'exercise' && !s.busy && s.glossary.terms > 100", 20000);
    await tap(page, GPU);
    let s = await waitFor(page, "s.glossary.popover === 'gpu'");
    await page.waitForFunction(() => /graphics processing unit/i.test((document.getElementById('dtx-layer') || {}).textContent || ''));
    for (const id of ['term-glossary', 'term-close']) {
      const it = s.items.find((i) => i.id === id);
      assert(it && it.x >= 0 && it.x + it.w <= width, `${id} on the screen: ${JSON.stringify(it)}`);
    }
    await page.screenshot({ path: 'build/e2e/glossary-popover-phone.png' });
    await tap(page, 'term-close');
    s = await waitFor(page, "s.glossary.popover === ''");
    eq(s.screen, 'exercise', 'still on the exercise');
    await page.context().close();
  });
}
