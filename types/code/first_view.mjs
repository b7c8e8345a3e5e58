// The code type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). A text area holding the starter code, read as the program (one word).
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc }) {
  const cases = Array.isArray(a.cases) ? a.cases.length : 0, hidden = Number(a.hidden_cases) || 0;
  const rows = Math.min(Math.max(String(a.starter || '').split('\n').length + 2, 6), 24);
  return `<p class="fx-how">Write <code>${esc(a.function || '')}(${(Array.isArray(a.args) ? a.args : []).map(esc).join(', ')})</code>` +
    `${a.returns ? ` (it returns ${esc(a.returns)})` : ''}; it is run on ${cases + hidden} cases` +
    `${hidden ? `, ${hidden} of them hidden` : ''}.</p>` +
    `<label for="fx-code">Your code (JavaScript)</label><br><textarea id="fx-code" rows="${rows}" wrap="off" spellcheck="false" ` +
    `autocapitalize="off" autocomplete="off" data-word data-keep-empty>${esc(a.starter || '')}</textarea>`;
}
