// What every part of the first screen shares: the document, stored settings, the address,
// and the page's first paint.
export const html = document.documentElement;
export const get = (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } };
export const query = new URLSearchParams(location.search);
// An assignment (?assign=, or a package's <meta name="dtx-assign">, lms.js) lands on itself.
const assigned = query.has('assign') || document.querySelector('meta[name="dtx-assign"]') !== null;
export const onMap = (hash) => !query.has('pack') && !assigned && /^(#\/?)?(chapter\/\d+\/?)?$/.test(hash);

// The text size chosen in Settings (dtx.text-scale).
export function textScale(el) {
  const scale = Number(get('dtx.text-scale'));
  if (scale >= 0.5 && scale <= 3 && el) el.style.fontSize = (16 * scale).toFixed(2) + 'px';
}

// Resolves after the page's first contentful paint, or 400 ms into it, or at once in a tab
// that is not shown (it paints nothing).
export const firstPaint = new Promise((resolve) => {
  if (document.visibilityState === 'hidden') { resolve(); return; }
  document.addEventListener('visibilitychange', () => resolve(), { once: true });
  setTimeout(resolve, 400);
  try {
    new PerformanceObserver((list, obs) => {
      if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) { obs.disconnect(); resolve(); }
    }).observe({ type: 'paint', buffered: true });
  } catch (e) { resolve(); }
});
