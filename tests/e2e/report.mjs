// "Report a problem" (issue 42): off by default; with exercises/index.json "report" set to an
// issue tracker's new-issue address, a link under every exercise opens it with the exercise,
// its numbers, the student's last answer with its verdict and the build filled in, as a click
// and as a real <a href> (middle-click, Ctrl+click); a mailto: works the same; a destination
// the page must not open is refused with a notice on the map naming index.json. A phone at
// 360 px keeps the link on the screen.
import fs from 'node:fs';
import path from 'node:path';
import { serve, waitFor, ready, typeInto, submit, engineAnswer, shot, click, tap, findItem, layerText } from './lib.mjs';
import { copyDist, restamp } from './offline.mjs';

const TRACKER = 'https://tracker.example/acme/course/issues/new?title={title}&body={body}';

function siteWithReport(dist, destination) {
  const dir = copyDist(dist, 'report');
  const file = path.join(dir, 'exercises/index.json');
  const index = JSON.parse(fs.readFileSync(file, 'utf8'));
  index.report = destination;
  fs.writeFileSync(file, JSON.stringify(index, null, 2));
  restamp(dir);
  const version = /<meta name="dtx-version" content="([0-9a-f]*)">/.exec(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'))[1];
  return { dir, version };
}

// The body and title an issue tracker receives from the link.
function readReport(href) {
  const u = new URL(href);
  return { title: u.searchParams.get('title'), body: u.searchParams.get('body') };
}

async function openAt(page, url, id, seed) {
  await page.goto(`${url}#/ex/${id}/${seed}`);
  return waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && s.seed === ${seed} && !s.busy`, 30000);
}

export default function register({ test, newPage, assert, eq, server, dist }) {
  test('report a problem: off by default; configured, a click opens the tracker with the exercise, its numbers, the last answer and the build', async () => {
    // The course as built: no destination, no link.
    let page = await newPage();
    let s = await openAt(page, server().url, 'ring.volume', 7);
    eq(s.report_address, '', 'no destination by default');
    assert(!s.items.some((i) => i.id === 'report'), 'no link by default');
    assert(!(await layerText(page)).includes('Report a problem'), 'no words about it either');
    await page.context().close();

    const { dir, version } = siteWithReport(dist, TRACKER);
    const srv = await serve(dir);
    try {
      page = await newPage();
      const opened = [];
      await page.context().route('https://tracker.example/**', (r) => { opened.push(r.request().url()); r.fulfill({ status: 200, contentType: 'text/html', body: '<title>tracker</title>ok' }); });
      s = await openAt(page, srv.url, 'ring.volume', 7);
      let report = readReport(s.report_address);
      assert(report.body.includes('My last answer: (nothing submitted yet)'), 'before any answer: ' + report.body);
      // A wrong answer, then the report carries it with its verdict.
      const ans = engineAnswer('ring.volume', 7);
      await typeInto(page, 'part-phase', `${ans.parts[0].value * 2} GB`);
      await typeInto(page, 'part-total', `${ans.parts[1].value * 2} GB`);
      s = await submit(page);
      eq(s.verdict, 'incorrect', 'the answer is wrong');
      s = await waitFor(page, "s.report_address.includes('graded')");
      report = readReport(s.report_address);
      eq(report.title, 'Problem with exercise ring.volume (Bytes each GPU sends)', 'the title names the exercise');
      const lines = report.body.split('\n');
      eq(lines[0], 'Exercise: ring.volume (Bytes each GPU sends)', 'body: the exercise');
      eq(lines[1], 'Numbers: instance 7', 'body: its numbers');
      eq(lines[2], `Address: ${srv.url}#/ex/ring.volume/7`, 'body: the address of this instance');
      eq(lines[3], `My last answer: phase=${ans.parts[0].value * 2} GB  total=${ans.parts[1].value * 2} GB (graded: not right)`, 'body: the answer as dtx grade reads it, with its verdict');
      eq(lines[4], `Build: ${version}`, "body: the site's build");
      // The link is a real <a href> to the same address (middle-click and Ctrl+click work).
      const href = await page.evaluate(() => [...document.querySelectorAll('#dtx-layer a')].find((a) => /Report a problem/.test(a.textContent))?.href);
      eq(href, s.report_address, 'the text layer has the link with the same address');
      await shot(page, 'report-link');
      // A click opens the tracker in a new tab, as a person's would.
      const popup = page.context().waitForEvent('page');
      await click(page, 'report');
      const tab = await popup;
      await tab.waitForLoadState();
      eq(tab.url(), s.report_address, 'the new tab is the tracker with the report filled in');
      eq(opened.length, 1, 'one report opened');
      await tab.close();
      await page.context().close();
      // A phone at 360 px: the link is on the screen (scrolled to) and a tap opens the report.
      page = await newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await page.context().route('https://tracker.example/**', (r) => { opened.push(r.request().url()); r.fulfill({ status: 200, contentType: 'text/html', body: 'ok' }); });
      s = await openAt(page, srv.url, 'ring.volume', 7);
      const it = await findItem(page, 'report');
      assert(it.x >= 0 && it.x + it.w <= 360, `the link fits a 360 px phone: ${JSON.stringify(it)}`);
      await shot(page, 'report-link-phone');
      const phoneTab = page.context().waitForEvent('page');
      await tap(page, 'report');
      eq(new URL((await phoneTab).url()).hostname, 'tracker.example', 'a tap opens the report too');
      await page.context().close();
    } finally {
      srv.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('report a problem: a mailto: destination works the same; one the page must not open is refused on the map', async () => {
    for (const [destination, ok] of [['mailto:course@uni.example?subject={title}&body={body}', true], ['javascript:alert(1)//{title}', false]]) {
      const { dir } = siteWithReport(dist, destination);
      const srv = await serve(dir);
      try {
        const page = await newPage();
        await page.goto(srv.url);
        let s = await ready(page);
        const notice = s.notices.join(' ') + ' ' + (await layerText(page));
        if (ok) {
          assert(!/"report"/.test(notice), 'a good destination gives no notice');
          s = await openAt(page, srv.url, 'ring.why-ring', 0);
          assert(s.report_address.startsWith('mailto:course@uni.example?subject=Problem%20with%20exercise%20ring.why-ring'), 'mailto: ' + s.report_address);
          assert(decodeURIComponent(s.report_address).includes('Numbers: the default (instance 0)'), 'the default numbers');
        } else {
          assert(/exercises\/index\.json: "report" must start with https:\/\/ .*or mailto:/.test(notice), 'the map says what is wrong and where: ' + notice.slice(0, 400));
          s = await openAt(page, srv.url, 'ring.why-ring', 0);
          eq(s.report_address, '', 'no link from a refused destination');
        }
        await page.context().close();
      } finally {
        srv.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
}
