// The accessibility statement (issue 42): docs/accessibility.md published by `make dist` as
// accessibility.html and linked from Settings. A click on the link opens it in a new tab; it
// reads as a document (one h1, its tables with header cells, all 50 criteria); a 320 px phone
// scrolls the wide table inside its box, not the page; axe finds nothing serious in either theme.
import { waitFor, click } from './lib.mjs';

export default function register({ test, newPage, assert, eq, server, axeAudit }) {
  test('accessibility statement: Settings links to it; it reads as a document, fits a 320 px phone, and axe finds nothing serious in light and dark', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.goto(server().url + '#/settings');
    await waitFor(page, "s.screen === 'settings' && !s.busy", 20000);
    const href = await page.evaluate(() => [...document.querySelectorAll('#dtx-layer a')].find((a) => /Accessibility statement/.test(a.textContent))?.href);
    eq(href, server().url + 'accessibility.html', 'the text layer has the link (middle-click opens it too)');
    const opened = page.context().waitForEvent('page');
    await click(page, 'accessibility-statement');
    const doc = await opened;
    await doc.waitForLoadState();
    eq(doc.url(), server().url + 'accessibility.html', 'a click opens the statement in a new tab');
    const shape = await doc.evaluate(() => ({
      h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
      th: document.querySelectorAll('th').length,
      criteria: [...document.querySelectorAll('td:first-child')].filter((td) => /^\d\.\d\.\d+ /.test(td.textContent)).length,
      back: document.querySelector('main a')?.getAttribute('href'),
      lang: document.documentElement.lang,
    }));
    eq(shape.h1.join('|'), 'Accessibility statement', 'one h1, the title');
    assert(shape.th >= 9, `header cells in its tables: ${shape.th}`);
    eq(shape.criteria, 50, 'every WCAG 2.1 A and AA criterion has its row');
    eq(shape.back, './', 'a way back to the course');
    eq(shape.lang, 'en', 'its language');
    await axeAudit(doc, 'the accessibility statement, light');
    await doc.emulateMedia({ colorScheme: 'dark' });
    await axeAudit(doc, 'the accessibility statement, dark');
    await doc.setViewportSize({ width: 320, height: 640 });
    const overflow = await doc.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    eq(overflow, 0, 'at 320 px the page does not scroll sideways (the table scrolls in its box)');
    await doc.screenshot({ path: 'build/e2e/statement-phone.png' });
    await page.context().close();
  });
}
