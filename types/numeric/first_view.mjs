// The numeric type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). One text field per part, read as id=VALUE.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const parts = Array.isArray(a.parts) ? a.parts : [];
  return parts.map((p, i) =>
    `<p class="fx-part"><label for="fx-part-${i}">${esc(p.label || (parts.length > 1 ? `Part ${i + 1}` : 'Your answer'))}</label><br>` +
    `<input id="fx-part-${i}" data-part="${esc(p.id)}" data-word="${esc(p.id)}=" data-keep-empty type="text" inputmode="decimal" autocomplete="off" spellcheck="false"` +
    `${p.unit ? ` placeholder="in ${esc(p.unit)}"` : ''}>` + (p.unit ? ` <span class="fx-unit">${esc(p.unit)}</span>` : '') + '</p>').join('');
}
