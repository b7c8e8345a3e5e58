// The table type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back): a group per row, named by the
// row, with a labelled text field per cell, read as CELL=VALUE (r1c2: row 1, column 2). Not
// an HTML table: a list of fields fits a 320 px phone with any number of columns.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const cols = Array.isArray(a.columns) ? a.columns : [], rows = Array.isArray(a.rows) ? a.rows : [];
  return rows.map((r) => `<fieldset class="fx-row"><legend>${esc(r.label)}</legend>` +
    (Array.isArray(r.cells) ? r.cells : []).map((cell, k) => {
      const c = cols[k] || {};
      return `<p class="fx-part"><label for="fx-cell-${esc(cell.id)}">${esc(c.label || '')}</label><br>` +
        `<input id="fx-cell-${esc(cell.id)}" data-cell="${esc(cell.id)}" data-word="${esc(cell.id)}=" data-keep-empty ` +
        `type="text" inputmode="decimal" autocomplete="off" spellcheck="false"${c.unit ? ` placeholder="in ${esc(c.unit)}"` : ''}>` +
        (c.unit ? ` <span class="fx-unit">${esc(c.unit)}</span>` : '') + '</p>';
    }).join('') + '</fieldset>').join('');
}
