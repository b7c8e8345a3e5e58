// The Content-Security-Policy (index.html): connect-src allows this site only, so a
// ?pack= URL on another origin is refused by the browser. fetch() then fails like a network
// error; the violation event says why, and the preview's error names the policy.
export const OPENABLE = new Set(['http:', 'https:', 'mailto:']);
const cspBlocked = [];
export const cspImagesBlocked = [];
document.addEventListener('securitypolicyviolation', (e) => {
  if (e.effectiveDirective === 'connect-src') cspBlocked.push(e.blockedURI);
  if (e.effectiveDirective === 'img-src' && cspImagesBlocked.length < 256) cspImagesBlocked.push(e.blockedURI);
});
export function blockedByCsp(url, list = cspBlocked) {
  let u;
  try { u = new URL(url, document.baseURI); } catch (e) { return false; }
  // Chromium reports the whole address; a report may also carry only the origin.
  return list.some((b) => b === u.href || b === u.origin || (b && u.href.startsWith(b)));
}
export const CSP_FETCH_ERROR = "blocked by this site's Content-Security-Policy: connect-src allows only the site's own " +
  'address; to preview a pack from another origin, add that origin to connect-src, see docs/self-hosting.md';
