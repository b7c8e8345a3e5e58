// The matching type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). A list of letters for each item, read as ITEM-LETTER for each one chosen.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc, plain }) {
  const items = Array.isArray(a.items) ? a.items : [], opts = Array.isArray(a.options) ? a.options : [];
  const choices = '<option value="">–</option>' + opts.map((o) => `<option value="${esc(o.label)}">${esc(o.label)}) ${esc(plain(o.html))}</option>`).join('');
  return '<p class="fx-how">Pick the letter of the option that goes with each item.</p>' +
    items.map((o) => `<p class="fx-part"><label for="fx-match-${esc(o.number)}"><b>${esc(o.number)}.</b> ${o.html}</label><br>` +
      `<select id="fx-match-${esc(o.number)}" data-item="${esc(o.number)}" data-word="${esc(o.number)}-">${choices}</select></p>`).join('') +
    '<ul class="fx-options">' + opts.map((o) => `<li><b>${esc(o.label)})</b> ${o.html}</li>`).join('') + '</ul>';
}
