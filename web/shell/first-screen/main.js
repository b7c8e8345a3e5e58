// The course map in HTML (#first-screen, written into index.html at build time by
// scripts/first-screen.mjs) until the engine draws its first frame, and the start of everything
// else. The build bundles these modules (scripts/build-glue.mjs) and puts the result into index.html at the top of the body, before the map's
// markup (scripts/inline-first-paint.mjs: the page's first paint waits for no other file), and
// a one-line script right after the markup calls window.dtxFirstScreenAfterMap().
//  1. At the top of the body, before the map's markup is parsed:
//     - the theme chosen in Settings (dtx.theme): the first paint is in the student's colours;
//     - on any address but the map's (an exercise, the Lab, settings, ?pack=, ?assign=),
//       html.fs-off: the markup is then never laid out or painted. (Run after the markup
//       only, a deep link would show the whole map for a frame before the loading line, and
//       its layout and paint take about 60 ms of the main thread: docs/performance.md.)
//     - the engine's files are asked for (engine-files.js): at once on a first visit; on a
//       page the service worker serves (every file is on this machine), after the first paint.
//  2. Right after the markup (dtxFirstScreenAfterMap, map.js). The browser may paint what it has
//     parsed of the map before this (it renders while it parses; a trace of a second visit
//     showed parts of the map unmarked for a frame); hiding the map until it is marked made the
//     first paint wait for the engine's scripts instead (216 against 188 ms, make bench), so it
//     is not hidden. This run:
//     - the text size chosen in Settings (dtx.text-scale);
//     - marks the student's progress from the stored record (dtx.progress), as the canvas map
//       does: ✓ solved, ● tried, ○ not tried, the tries, each chapter's count, the totals, and
//       "Continue where you left off". A record it cannot read is left alone: the engine reads
//       it (and keeps a corrupt one aside); this only draws less until then;
//     - opens the chapter of the last exercise, or the one the address names;
//     - makes the closed chapters' rows (written inside <noscript>) into elements after the
//       first paint, or at once for a chapter it opens or the student opens;
//     - when a link leaves the map before the engine runs, shows the loading line with the
//       exercise's title (the engine opens the address when it starts).
// On a link to an exercise (#/ex/ID) part 1 also fetches that exercise in HTML
// (exercises/first/ID.html, scripts/first-views.mjs) and shows it over the loading line: a
// page the student can read and answer while the engine starts (exercise-view.js).
// glue.js calls window.dtxFirstScreen.close() once the engine's first frame is on screen: the
// markup is removed, so find in page and screen readers meet one map, never two (a linked
// exercise's view goes too, after handing the engine what was entered on it).
import { startEngine } from './engine-files.js';
import { firstView, fx } from './exercise-view.js';
import { afterMap } from './map.js';
import { firstPaint, get, html, onMap } from './page.js';

// 1. before the markup
const theme = get('dtx.theme');
if (theme === 'light' || theme === 'dark') html.setAttribute('data-theme', theme);
if (!onMap(location.hash)) {
  html.classList.add('fs-off');  // glue.js says what loads
  if (!firstView(location.hash)) fx.donePainting();
} else {
  fx.donePainting();
}
startEngine();
// The site's icon, after the first paint (index.html says why; its <noscript> names it for
// a page without JavaScript).
firstPaint.then(() => {
  const icon = document.createElement('link');
  icon.rel = 'icon';
  icon.type = 'image/svg+xml';
  icon.href = 'favicon.svg';
  document.head.appendChild(icon);
});

// 2. after it
window.dtxFirstScreenAfterMap = afterMap;
