// What every part of the glue shares: the page's elements, whether the engine runs, and the
// engine's calls (generated from web/bridge/calls.mjs; each does nothing before the engine runs).
import { engineCalls } from 'dtx:bridge';

export const canvas = document.getElementById('canvas');
export const ta = document.getElementById('dtx-text');  // the hidden textarea that takes typing
export const loading = document.getElementById('loading');
export const live = document.getElementById('dtx-live');
export const t0 = performance.now();
export const state = {
  ready: false,      // main() has run: the engine takes calls
  devServer: false,  // `make serve --watch` (X-Dtx-Dev): never cached, never a worker
};
export const engine = engineCalls(() => window.Module, () => state.ready);
export function wake() { engine.wake(); }


// CSS size of the drawing area. Emscripten 3.1.6's glfwSetWindowSize goes fullscreen when
// the size equals the screen's (emscripten#20699): stay one pixel short of that.
export function cssSize() {
  const r = canvas.getBoundingClientRect();
  let w = r.width || window.innerWidth, h = r.height || window.innerHeight;
  const dpr = window.devicePixelRatio || 1;
  if (Math.round(w * dpr) === screen.width && Math.round(h * dpr) === screen.height) h -= 1 / dpr;
  return [w, h];
}
