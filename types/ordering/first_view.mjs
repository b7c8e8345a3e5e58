// The ordering type's answer area in a linked exercise's HTML first view (scripts/first-views.mjs
// writes the page; web/shell/first-screen/exercise-view.js reads it back). The steps as a list, each moved by its up and down buttons, read as the letters in order.
// Every control says how it is read as a `dtx grade` word: see first-screen.js, `wordsOf`.

export default function area(a, { esc, plain }) {
  const items = Array.isArray(a.items) ? a.items : [];
  return '<p class="fx-how" id="fx-order-how">Put the steps in order: move one with its ▲ ▼ buttons.</p>' +
    '<ol class="fx-steps" aria-describedby="fx-order-how">' + items.map((o) =>
      `<li data-label="${esc(o.label)}" data-word="${esc(o.label)}" data-movable><span class="fx-step">${o.html}</span>` +
      `<span class="fx-moves"><button type="button" class="fx-up" data-move="up" aria-label="Move up: ${esc(plain(o.html))}">▲</button>` +
      `<button type="button" class="fx-down" data-move="down" aria-label="Move down: ${esc(plain(o.html))}">▼</button></span></li>`).join('') + '</ol>';
}
