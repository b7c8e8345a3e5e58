// A linked exercise in HTML, shown over the loading line while the engine starts: its file
// (exercises/first/ID.html, scripts/first-views.mjs) fetched, its answer area wired, and what
// the student enters read back as `dtx grade` words for the engine's first frame (glue.js).
import { html, query, textScale } from './page.js';

// A link to an exercise's default numbers (#/ex/ID: no seed, no ?pack=, no ?assign=): the
// exercise in HTML (exercises/first/ID.html, scripts/first-views.mjs), fetched from the top of
// the page and shown over the loading line until the engine's first frame, or until the
// address changes. glue.js reads it as window.dtxFirstExercise.
export const fx = window.dtxFirstExercise = { el: null, closed: false, changed: false, submitted: false, answer: null };
// fx.painted: resolves once the view is on screen, or at once when there is none to wait for.
// glue.js makes the WebGL context and starts the engine (together 80-120 ms of this thread)
// after it, or 400 ms into the page's life at the latest: before, the view waited for them.
fx.painted = new Promise((resolve) => { fx.donePainting = resolve; });
export function firstView(hash) {
  const m = /^#\/ex\/([a-z0-9][a-z0-9.-]*)\/?$/.exec(hash);
  if (!m || query.has('pack') || query.has('assign')) return false;
  fetch('exercises/first/' + m[1] + '.html').then((r) => (r.ok ? r.text() : null)).then((text) => {
    if (!text || fx.closed || location.hash !== hash || !document.body) { fx.donePainting(); return; }
    const el = document.createElement('div');
    el.id = 'first-exercise';
    el.className = 'fs';
    el.innerHTML = text;  // the build's own file, escaped there
    textScale(el);
    document.body.appendChild(el);
    fx.el = el;
    wire(el, m[1]);
    html.classList.add('fx-on');
    // (the next frame's callback: this one has been committed to the screen)
    requestAnimationFrame(() => requestAnimationFrame(fx.donePainting));
  }).catch(() => fx.donePainting());  // the loading line stays
  return true;
}
// Its answer area: ordinary controls. What the student enters, and a Submit pressed, are read
// as `dtx grade` words (fx.answer) and handed to the engine at its first frame (glue.js).
function wire(el, id) {
  const form = el.querySelector('form.fx-answer');
  if (!form) return;
  const status = el.querySelector('#fx-status');
  const changed = () => { fx.changed = true; };
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  // A button with data-move="up"/"down" moves its [data-movable] element one place among its
  // siblings (a step of a list put in order); the button keeps the keyboard.
  form.addEventListener('click', (e) => {
    const b = e.target.closest && e.target.closest('button[data-move]');
    if (!b) return;
    const li = b.closest('[data-movable]');
    if (!li) return;
    const up = b.getAttribute('data-move') === 'up';
    const other = up ? li.previousElementSibling : li.nextElementSibling;
    if (!other) return;
    if (up) li.parentNode.insertBefore(li, other);
    else li.parentNode.insertBefore(other, li);
    b.focus();
    changed();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    fx.submitted = true;
    if (status) status.textContent = 'Your answer is checked as soon as the grader is in…';
  });
  fx.answer = () => ({ id, words: wordsOf(form), submit: !!fx.submitted });
}
// The answer as `dtx grade` words, from the controls that carry data-word (each type's
// types/<type>/first_view.mjs writes them), in document order: a box or radio button gives
// its value when it is ticked; a field, text area or list gives data-word then its value
// (an empty one only with data-keep-empty); any other element gives data-word itself.
function wordsOf(form) {
  const words = [];
  for (const el of form.querySelectorAll('[data-word]')) {
    const word = el.getAttribute('data-word');
    if (el.type === 'checkbox' || el.type === 'radio') {
      if (el.checked) words.push(el.value);
    } else if (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) {
      if (el.value || el.hasAttribute('data-keep-empty')) words.push(word + el.value);
    } else {
      words.push(word);
    }
  }
  return words;
}
fx.close = () => {
  fx.closed = true;
  html.classList.remove('fx-on');
  if (fx.el) fx.el.remove();
  fx.el = null;
};
