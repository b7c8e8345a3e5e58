// Review of my mistakes (issue 42): wrong answers are kept with the engine's diagnosis and
// grouped by misconception across exercises. A student answers two exercises in bits where
// bytes are asked (three parts wrong: two in one, one in the other) and picks a wrong option
// in a third; the map offers "My mistakes", the screen says "Bits vs bytes: 3 times" with
// both exercises, the wrong option in a group of its own, each with "Try a fresh one", which
// opens the exercise at new numbers. Keys alone from the map; the accessibility tree names the
// links; axe in light and dark; a 360 px phone by touch.
import { waitFor, click, tap, press, submit, typeInto, engineAnswer, layerText, waitForLayer, state, axUntil, tabUntil } from './lib.mjs';

async function answerInBits(page, id, parts, inBits) {
  await page.goto(page.url().split('#')[0] + '#/ex/' + id);
  let s = await waitFor(page, `s.screen === 'exercise' && s.exercise === ${JSON.stringify(id)} && !s.busy`, 20000);
  const ans = engineAnswer(id, s.seed);
  for (const p of ans.parts.filter((x) => parts.includes(x.id))) {
    const wrong = inBits.includes(p.id);
    // The number right in bytes, written in bits: 1/8 of the answer (the engine says so).
    await typeInto(page, `part-${p.id}`, `${p.value} ${wrong ? p.unit.replace('GB', 'Gbit') : p.unit}`, { commit: true });
  }
  s = await submit(page);
  return s;
}

export default function register({ test, newPage, assert, eq, server, axeAudit }) {
  test('review: wrong answers grouped by misconception across exercises, each with a fresh instance; keys alone, the accessibility tree, axe in both themes, a phone by touch', async () => {
    const page = await newPage({ bypassCSP: true });
    await page.goto(server().url);
    let s = await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    const before = s.mistakes.count;
    s = await answerInBits(page, 'ring.volume', ['phase', 'total'], ['phase', 'total']);
    eq(s.verdict, 'incorrect', 'both parts in bits');
    s = await answerInBits(page, 'zero.ddp-states', ['weights', 'optim', 'total', 'ratio'], ['weights']);
    assert(s.verdict !== 'correct', 'one part in bits');
    // A wrong option.
    await page.goto(server().url + '#/ex/ring.why-ring');
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.why-ring' && !s.busy");
    const why = engineAnswer('ring.why-ring', s.seed);
    await click(page, `choice-${why.options.findIndex((o) => !o.correct)}`);
    await waitFor(page, 's.picks && s.picks.length === 1');
    s = await submit(page);
    eq(s.verdict, 'incorrect', 'a wrong option');
    eq(s.mistakes.count, before + 4, 'four mistakes kept');
    const bits = s.mistakes.groups.find((g) => g[0] === 'bits-bytes');
    assert(bits && bits[2] >= 3, 'one group for bits vs bytes, across exercises: ' + JSON.stringify(s.mistakes.groups));
    assert(s.mistakes.groups.some((g) => g[1] === 'ring.why-ring'), 'the wrong option has a group of its own');
    // Keys alone: from the map to the review.
    await page.goto(server().url + '#/');
    s = await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    await waitForLayer(page, '/My mistakes: \\d+/.test(t)', 'the map offers the review');
    await tabUntil(page, "s.focus === 'review'", 'My mistakes');
    await press(page, 'Enter');
    s = await waitFor(page, "s.screen === 'review'");
    eq(new URL(page.url()).hash, '#/review', 'the address');
    await waitForLayer(page, "/Bits vs bytes: [3-9] times/.test(t)", 'the group is counted');
    const words = await layerText(page);
    assert(/Bits vs bytes: [3-9] times/.test(words), 'the group is counted: ' + words.slice(0, 500));
    assert(/Bytes each GPU sends/.test(words) && /16 bytes per parameter/.test(words), 'both exercises are in it');
    assert(/You gave/.test(words), 'what was given is shown');
    const cdp = await page.context().newCDPSession(page);
    const tree = await axUntil(cdp, (t) => t.some((n) => n.role === 'heading' && /^Bits vs bytes: \d+ times$/.test(n.name)), 'each group is a heading');
    assert(tree.some((n) => n.role === 'link' && n.name === 'Try a fresh one: Bytes each GPU sends'), 'a fresh instance is a link');
    await axeAudit(page, 'review, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(page, "s.theme === 'dark'");
    await axeAudit(page, 'review, dark');
    await page.screenshot({ path: 'build/e2e/review-groups.png', fullPage: false });
    // Try a fresh one: new numbers.
    s = await state(page);
    const fresh = s.items.find((i) => /^fresh-\d+-ring\.volume$/.test(i.id));
    assert(fresh, 'a fresh instance of ring.volume is offered');
    await tabUntil(page, `s.focus === ${JSON.stringify(fresh.id)}`, 'Try a fresh one');
    await press(page, 'Enter');
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'");
    assert(s.seed !== 0, 'a fresh instance, not the default');
    await page.context().close();
  });

  test('review: on a 360 px phone in dark, the groups and their links stay on the screen and a tap opens a fresh one', async () => {
    const width = 360;
    const page = await newPage({ viewport: { width, height: 760 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark' });
    await page.goto(server().url);
    await waitFor(page, "s.screen === 'course' && !s.busy", 20000);
    await answerInBits(page, 'ring.volume', ['phase', 'total'], ['phase']);
    await page.goto(server().url + '#/review');
    let s = await waitFor(page, "s.screen === 'review'", 20000);
    await page.waitForFunction(() => /Bits vs bytes/.test(document.getElementById('dtx-layer').textContent));
    for (const it of s.items) assert(it.x >= 0 && it.x + it.w <= width + 1, `on the screen: ${JSON.stringify(it)}`);
    await page.screenshot({ path: 'build/e2e/review-phone.png' });
    const fresh = s.items.find((i) => /^fresh-\d+-ring\.volume$/.test(i.id));
    await tap(page, fresh.id);
    s = await waitFor(page, "s.screen === 'exercise' && s.exercise === 'ring.volume'");
    assert(s.seed !== 0, 'new numbers');
    await page.context().close();
  });
}
