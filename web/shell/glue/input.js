// The page's input for the engine, taken before GLFW's listeners (this runs first): the
// canvas's size, the keys the page must not act on, typing through the hidden textarea, the
// clipboard, the mouse, the wheel and touch. Importing this module adds the listeners; the
// engine's half of each repair is web/platform/input_repairs.cpp (docs/browser-repairs.md).
import { canvas, cssSize, engine, ta, wake } from './page.js';

let pasteByShortcut = 0;

export function resize() {
  const [w, h] = cssSize();
  engine.resize(w, h, window.devicePixelRatio || 1);
}

export function watchDpr() {
  // fires when the page moves to a screen with another pixel ratio, or on browser zoom
  const mq = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
  mq.addEventListener('change', () => { resize(); watchDpr(); }, { once: true });
}

// ---- keyboard
const PAGE_KEYS = new Set([' ', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'Tab']);
const EDIT_KEYS = new Set(['Enter', 'Backspace', 'Delete', 'Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
  'Home', 'End', 'PageUp', 'PageDown', 'Escape']);
const FIELD_SHORTCUTS = new Set(['a', 'z', 'y']);
window.addEventListener('keypress', (e) => { e.stopImmediatePropagation(); }, true);
// GLFW (3.1.6) releases every held key on any blur its window-level capture listener sees,
// and a blur of an element (the text field's textarea when a field closes, a DOM proxy)
// reaches it too: a Ctrl held for Ctrl+click was released a frame before the click when a
// slider's field had just closed. Only the window losing focus releases keys.
window.addEventListener('blur', (e) => { if (e.target !== window) { e.stopImmediatePropagation(); wake(); } }, true);
window.addEventListener('keydown', (e) => {
  wake();
  if (e.keyCode === 229 || e.isComposing) return;  // IME or phone keyboard: the textarea handles it
  // The HTML map or a linked exercise's HTML view (first-screen.js) until the engine draws:
  // an ordinary page, whose keys are the browser's. GLFW (listening from main() on) would
  // take Backspace and Tab from its fields and links (it cancels both): it never hears them.
  if (window.dtxFirstScreen && window.dtxFirstScreen.shown) { e.stopImmediatePropagation(); return; }
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.key === 'v' || e.key === 'V')) pasteByShortcut = performance.now();
  if (e.target === ta) {
    // Editing keys go to ImGui (GLFW sees this event); the textarea must not act on them.
    if (EDIT_KEYS.has(e.key)) e.preventDefault();
    // The shortcuts a field of ImGui's acts on are kept from the textarea (select all, undo,
    // redo); every other one stays the browser's (find, zoom, print, a new tab), and
    // copy/cut/paste fire their events.
    if (mod && FIELD_SHORTCUTS.has(e.key.toLowerCase())) e.preventDefault();
  } else if (PAGE_KEYS.has(e.key)) {
    e.preventDefault();  // the page is the app: these keys never scroll the browser
  }
}, true);
window.addEventListener('keyup', (e) => {
  wake();
  if (window.dtxFirstScreen && window.dtxFirstScreen.shown) e.stopImmediatePropagation();  // (as keydown)
}, true);
window.addEventListener('keypress', (e) => {
  if (window.dtxFirstScreen && window.dtxFirstScreen.shown) e.stopImmediatePropagation();
}, true);

function sendText(s) { if (s) engine.textInput(s); }
export function resetTextarea() { ta.value = ' '; ta.setSelectionRange(1, 1); }
let composing = false;
ta.addEventListener('compositionstart', () => { composing = true; });
ta.addEventListener('compositionend', (e) => { composing = false; sendText(e.data); resetTextarea(); });
ta.addEventListener('input', (e) => {
  if (composing || e.isComposing || e.inputType === 'insertCompositionText') return;
  const t = e.inputType;
  if (t === 'deleteContentBackward') engine.keyTap(0);
  else if (t === 'insertLineBreak' || t === 'insertParagraph') engine.keyTap(1);
  else if (t === 'insertText' || t === 'insertReplacementText') sendText(e.data != null ? e.data : ta.value.slice(1));
  resetTextarea();
});

// ---- clipboard
window.addEventListener('paste', (e) => {
  // (into a field of a linked exercise's HTML view: the browser's own paste)
  if (window.dtxFirstScreen && window.dtxFirstScreen.shown) return;
  const text = (e.clipboardData && e.clipboardData.getData('text/plain')) || '';
  e.preventDefault();
  engine.paste(text);
  // Ctrl/Cmd+V reaches ImGui as a key and it reads the clipboard we just set; a paste from
  // a phone's menu has no key, so it is typed in directly.
  if (performance.now() - pasteByShortcut > 1000) sendText(text);
  wake();
}, true);

// ---- pointer and touch
function focusIfTyping() {
  // Runs inside the gesture: phones only raise the keyboard for a focus() made there.
  for (let i = 0; i < 3; i++) engine.frameNow();
  if (engine.wantsText()) ta.focus({ preventScroll: true });
}
window.addEventListener('mousedown', (e) => {
  wake();
  // Keep the focus on the textarea while a field is being edited (a canvas click would
  // blur it and typing would go nowhere).
  if (e.target === canvas) e.preventDefault();
}, true);
window.addEventListener('mouseup', (e) => { if (e.target === canvas) focusIfTyping(); else wake(); });
for (const ev of ['mousemove', 'focus', 'blur', 'visibilitychange']) window.addEventListener(ev, wake, true);
// The wheel over the canvas goes to the engine, never to GLFW (3.1.6 flips its sign and
// gives ~100 units a notch): stopped here, on the window in the capture phase, before it
// reaches the canvas. Lines and pages become CSS pixels. Ctrl+wheel stays the browser's zoom.
window.addEventListener('wheel', (e) => {
  // (Over the text layer's words too: they lie on the canvas.)
  const layer = window.dtxTextLayer.element;
  const overCanvas = e.target === canvas || (layer && layer.contains(e.target));
  if (!overCanvas || e.ctrlKey) { wake(); return; }
  e.stopPropagation();
  e.preventDefault();
  const unit = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? canvas.clientHeight : 1;
  engine.wheel(e.deltaX * unit, e.deltaY * unit);
}, { capture: true, passive: false });
function touchPos(t) {
  const r = canvas.getBoundingClientRect();
  return [t.clientX - r.left, t.clientY - r.top];
}
function onTouch(phase) {
  return (e) => {
    if (e.target !== canvas) return;
    e.preventDefault();
    e.stopPropagation();
    const t = e.changedTouches[0];
    if (!t) return;
    const [x, y] = touchPos(t);
    engine.touch(phase, x, y);
    if (phase === 2) focusIfTyping();
  };
}
window.addEventListener('touchstart', onTouch(0), { capture: true, passive: false });
window.addEventListener('touchmove', onTouch(1), { capture: true, passive: false });
window.addEventListener('touchend', onTouch(2), { capture: true, passive: false });
window.addEventListener('touchcancel', onTouch(2), { capture: true, passive: false });
window.addEventListener('resize', () => { resize(); wake(); });
