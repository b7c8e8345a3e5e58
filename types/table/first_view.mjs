// The table type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen.js reads it back). An HTML table with a text field
// per cell, read as CELL=VALUE (r1c2: row 1, column 2).
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const cols = Array.isArray(a.columns) ? a.columns : [], rows = Array.isArray(a.rows) ? a.rows : [];
  const heading = (c) => esc(c.label) + (c.unit ? ` (${esc(c.unit)})` : '');
  return '<table class="fx-table"><thead><tr><td></td>' +
    cols.map((c) => `<th scope="col">${heading(c)}</th>`).join('') + '</tr></thead><tbody>' +
    rows.map((r) => `<tr><th scope="row">${esc(r.label)}</th>` + (Array.isArray(r.cells) ? r.cells : []).map((cell, k) => {
      const c = cols[k] || {};
      return `<td><input id="fx-cell-${esc(cell.id)}" data-cell="${esc(cell.id)}" data-word="${esc(cell.id)}=" data-keep-empty ` +
        `type="text" inputmode="decimal" size="7" autocomplete="off" spellcheck="false" ` +
        `aria-label="${esc(r.label)}, ${esc(c.label || '')}${c.unit ? ` in ${esc(c.unit)}` : ''}"></td>`;
    }).join('') + '</tr>').join('') + '</tbody></table>';
}
