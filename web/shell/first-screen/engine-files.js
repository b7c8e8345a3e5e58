import { firstPaint, onMap } from './page.js';
import { storedState } from '../stored-state.js';

// The engine's files. On a first visit they are asked for at once, from here (the top of
// the body: as early as links in the head would be), and run once the page is parsed. On a
// page the service worker serves, every file is on this machine already, and fetching and
// compiling them (dtx.wasm out of the cache, glue.js and dtx.js parsed on the browser's
// threads) only compete with the first paint for the cores: in a trace of a second visit the
// map's raster takes 55 ms beside them instead of 13 (docs/performance.md). There they wait for the
// first contentful paint, or 400 ms, or a tab that is not shown (it paints nothing).
// In this order: glue.js's capture listeners go in ahead of GLFW's (dtx.js).
const ENGINE_SCRIPTS = ['glue.js', 'text-layer.js', 'code-runner.js', 'dtx.js'];
export function startEngine() {
  let local = false;
  try { local = !!(navigator.serviceWorker && navigator.serviceWorker.controller); } catch (e) { /* no workers here */ }
  const painted = local ? firstPaint : Promise.resolve();
  const preload = (href, as, high) => {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = as;
    link.href = href;
    // glue.js's fetch takes such an answer: same URL, CORS mode, same-origin credentials
    if (as === 'fetch') link.crossOrigin = 'anonymous';
    if (high) link.fetchPriority = 'high';
    document.head.appendChild(link);
  };
  painted.then(() => {
    preload('dtx.wasm', 'fetch', true);
    for (const src of ENGINE_SCRIPTS) preload(src, 'script', src === 'glue.js' || src === 'dtx.js');
    // An address but the map's, or a returning student, needs the engine's second part at
    // start (glue.js lateAtStart).
    if (!onMap(location.hash) || storedState()) preload('dtx.deferred.wasm', 'fetch', false);
  });
  // (run in order once loaded, not before the page is parsed: glue.js finds #loading below the map)
  const parsed = new Promise((resolve) => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
    else resolve();
  });
  Promise.all([painted, parsed]).then(() => {
    for (const src of ENGINE_SCRIPTS) {
      const el = document.createElement('script');
      el.src = src;
      el.async = false;
      document.body.appendChild(el);
    }
  });
}
