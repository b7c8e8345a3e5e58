// Instructors: a pack file dropped on the page is previewed; under `make serve` a changed pack
// is read again (listenForChanges, once the server says it is the dev server). Importing this
// module adds the drop listeners.
import { engine } from './page.js';

// Capture phase on the window, so GLFW's own canvas drop handler (which writes dropped
// files into its virtual file system) never sees it.
window.addEventListener('dragover', (e) => {
  if (!e.dataTransfer || !Array.from(e.dataTransfer.types || []).includes('Files')) return;
  e.preventDefault();
  e.stopPropagation();
  e.dataTransfer.dropEffect = 'copy';
}, true);
window.addEventListener('drop', (e) => {
  const files = e.dataTransfer ? Array.from(e.dataTransfer.files || []) : [];
  if (!files.length) return;
  e.preventDefault();
  e.stopPropagation();
  for (const f of files)
    f.text().then((text) => engine.previewText(f.name, text));
}, true);
let events = null;
export function listenForChanges() {
  if (events || typeof EventSource === 'undefined') return;
  events = new EventSource(new URL('__dtx/events', document.baseURI).href);
  events.onmessage = (m) => {
    let file = '';
    try { file = JSON.parse(m.data).file || ''; } catch (e) { return; }
    if (file) engine.packChanged(file);
  };
}
