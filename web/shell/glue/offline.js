// Offline and updates (web/shell/sw.js): the service worker keeps the whole site, one
// version at a time; this page says so when it runs a version other than the last visit's.
// Importing this module checks the version the worker pins the page to (checkPin).
import { lmsMode } from './lms.js';
import { state } from './page.js';

const versionMeta = document.querySelector('meta[name="dtx-version"]');
export const builtVersion = versionMeta ? versionMeta.content : '';
export function noteUpdate() {
  if (!builtVersion) return;
  let last = null;
  try { last = localStorage.getItem('dtx.version'); localStorage.setItem('dtx.version', builtVersion); } catch (e) { return; }
  if (!last || last === builtVersion) return;
  // Quiet: a line at the foot of the page, gone after a few seconds or at a click.
  const note = document.getElementById('dtx-note');
  if (!note) return;
  note.textContent = 'dtx was updated since your last visit.';
  note.hidden = false;
  const hide = () => { note.hidden = true; };
  note.addEventListener('click', hide, { once: true });
  setTimeout(hide, 8000);
  window.dtx.updatedFrom = last;
}
// The page may come from the worker's cache by a static route
// (sw.js), and its other files from the version it is then pinned to: should a newer version
// have activated in those few milliseconds, the page would run files of two builds. It asks
// which version serves it and, if that is not its own, reloads (once for that version).
function checkPin() {
  const sw = navigator.serviceWorker;
  if (!builtVersion || !sw || !sw.controller) return;
  sw.addEventListener('message', (e) => {
    const pinned = e.data && e.data.dtxVersion;
    if (!pinned || pinned === 'network' || pinned === builtVersion) return;
    try {
      if (sessionStorage.getItem('dtx.reloaded-for') === pinned) return;
      sessionStorage.setItem('dtx.reloaded-for', pinned);
    } catch (err) { return; }
    location.reload();
  });
  sw.controller.postMessage('dtx-version');
}
checkPin();
export function startServiceWorker() {
  // In an LMS (lms.js) the package's files are the LMS's to serve, often at signed addresses
  // that change per launch: an offline copy would only go stale.
  if (state.devServer || window.dtxNoServiceWorker || lmsMode || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').then(nudgeWaiting, () => { /* no offline copy: the site works as before */ });
}
// A new version's worker asks to activate as soon as it is installed (skipWaiting in sw.js).
// In Chromium that activation stops the old worker first, and when an event of this page
// restarts the old worker in that moment (a file fetched, a message), the new one stays
// "waiting" until every tab of the site is closed: the next reload still gets the old build.
// Seen with CDP in the update test on a loaded machine (2 runs of 8). Asking the waiting
// worker again starts the activation again, so the page asks while one waits: now, when an
// install finishes, and every few seconds after (the race can come back).
function nudgeWaiting(reg) {
  if (!reg) return;
  let tries = 0;
  const nudge = () => {
    if (!reg.waiting || tries++ >= 20) return;
    reg.waiting.postMessage('dtx-skip-waiting');
    setTimeout(nudge, 3000);
  };
  const watch = (w) => {
    if (w) w.addEventListener('statechange', () => { if (w.state === 'installed') { tries = 0; setTimeout(nudge, 1000); } });
  };
  nudge();
  watch(reg.installing);
  reg.addEventListener('updatefound', () => watch(reg.installing));
}
