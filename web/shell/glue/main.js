// The page's glue for dtx.js (the Emscripten build of web/), bundled into glue.js by
// scripts/build-glue.mjs. It runs before dtx.js, so its capture listeners come before GLFW's.
// The modules, in the order they start:
//   page.js        the elements, whether the engine runs, the engine's calls (web/bridge/calls.mjs)
//   loading.js     counted downloads and the loading line
//   late-code.js   the engine's second part (dtx.deferred.wasm)
//   start.js       every download the first screen needs, begun now; the WebGL context
//   offline.js     the service worker and the "updated" note
//   input.js       keys, typing, clipboard, mouse, wheel, touch (docs/browser-repairs.md)
//   instructor.js  dropped pack files, live reload under make serve
//   csp.js         what the Content-Security-Policy refused
//   images.js      pictures in pack texts, drawn into textures
//   storage.js     localStorage and other tabs' writes
//   test-hook.js   window.dtx, the read-only view tests and the bench use
//   lms.js         an assignment in an LMS: the SCORM 2004 API (dtx package scorm)
//   host.js        window.dtxGlue, what the engine calls
import { canvas, loading } from './page.js';
import './loading.js';
import { late, loadSplitModule } from './late-code.js';
import { instantiateWasm } from './start.js';
import './offline.js';
import './input.js';
import './instructor.js';
import './csp.js';
import './images.js';
import './storage.js';
import './test-hook.js';
import './host.js';

window.Module = {
  canvas,
  instantiateWasm,
  loadSplitModule,
  print: (s) => console.log(s),
  printErr: (s) => console.warn(s),
  onAbort: (what) => {
    if (late.state === 'failed') return;  // the loading line already says why (lateFailed)
    loading.style.display = 'flex';
    loading.className = 'error';
    loading.textContent = 'dtx stopped: ' + what + '. Reloading the page may help; your progress is saved.';
  },
};
