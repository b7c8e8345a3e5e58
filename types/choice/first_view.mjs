// The choice type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). Radio buttons, or check boxes for "multiple", read as the letters ticked.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const opts = Array.isArray(a.options) ? a.options : [];
  const kind = a.multiple ? 'checkbox' : 'radio';
  return `<fieldset><legend>${a.multiple ? 'Select every option that applies.' : 'Select one option.'}</legend>` +
    opts.map((o) => `<label class="fx-option"><input type="${kind}" name="fx-choice" value="${esc(o.label)}" data-word> <span>${o.html}</span></label>`).join('') +
    '</fieldset>';
}
