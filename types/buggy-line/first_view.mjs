// The buggy-line type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). The listing with a radio button (or check box) per line, read as the line numbers ticked.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const lines = Array.isArray(a.code) ? a.code : [];
  const many = Number(a.select) > 1;
  return `<fieldset><legend>${many ? `Pick the ${Number(a.select)} lines that are wrong.` : 'Pick the line that is wrong.'}</legend><div class="fx-code">` +
    lines.map((l, i) => `<label class="fx-line"><input type="${many ? 'checkbox' : 'radio'}" name="fx-line" value="${i + 1}" data-word>` +
      `<span class="fx-ln">${i + 1}</span><code>${esc(l) || ' '}</code></label>`).join('') + '</div></fieldset>';
}
