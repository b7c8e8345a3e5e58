// Orientation (issue 42): every exercise says where it is in its chapter ("exercise 3 of 16")
// and has its chapter's notes one step away: a link (a real <a href="#/chapter/N/notes">) that
// opens the map with the chapter and its "About this chapter" open; on a 360 px phone by a tap.
import { waitFor, click, tap, layerText, engineAnswer } from './lib.mjs';

async function open(page, url, id) {
  await page.goto(`${url}#/ex/${id}`);
  return waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && !s.busy`, 30000);
}

export default function register({ test, newPage, assert, eq, server }) {
  test('orientation: an exercise says "exercise N of M" of its chapter, and its chapter notes are a click or a tap away', async () => {
    for (const phone of [false, true]) {
      const page = await newPage(phone ? { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {});
      const id = 'ring.order-steps';
      const ex = engineAnswer(id);
      await open(page, server().url, id);
      const words = await layerText(page);
      const m = /Chapter (\d+) · exercise (\d+) of (\d+)/.exec(words);
      assert(m, 'the header says where the exercise is: ' + words.slice(0, 200));
      eq(Number(m[1]), ex.chapter, 'its chapter');
      const href = await page.evaluate(() => [...document.querySelectorAll('#dtx-layer a')].find((a) => a.textContent === 'Chapter notes')?.getAttribute('href'));
      eq(href, `#/chapter/${ex.chapter}/notes`, 'the notes link is an address (middle-click, Ctrl+click)');
      if (phone) await tap(page, 'chapter-notes');
      else await click(page, 'chapter-notes');
      const s = await waitFor(page, "s.screen === 'course' && !s.busy");
      eq(s.screen, 'course', 'the map');
      await page.waitForFunction(() => /About this chapter/.test(document.getElementById('dtx-layer').textContent));
      const map = await layerText(page);
      assert(/What an AllReduce does/.test(map), 'the chapter notes are open: ' + map.slice(0, 400));
      await page.screenshot({ path: `build/e2e/orientation-notes${phone ? '-phone' : ''}.png` });
      await page.context().close();
    }
  });
}
