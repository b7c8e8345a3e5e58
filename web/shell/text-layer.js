// The text layer: the words the canvas draws, as transparent DOM text laid over the glyphs
// (web/ui/text_layer.h builds the list each time the drawn text changes). The browser's own
// selection, copy, double-click, find in page and links then work on dtx's text, and a screen
// reader reads it. How it is laid out:
//  - #dtx-layer covers the canvas and lets the pointer through, except over prose (so a drag
//    there selects, and a link opens like any link); text inside a control (a button's label,
//    an option) lets it through too, so the control gets the click.
//  - The scrolling page is a box of its own (#dtx-page) holding the whole page's text at page
//    coordinates: its scrollTop is the canvas's scroll. When find in page scrolls it to a word,
//    the canvas follows (engine.layerScrolled).
//  - Each line is a span at its run's rectangle, in the font the canvas uses (Inter, JetBrains
//    Mono), sized so its em box is the canvas's font size, then stretched (scaleX) to the
//    run's exact width.
// An ES module: scripts/build-glue.mjs bundles it into dist/text-layer.js (window.dtxTextLayer).
// Nodes are kept by content: a redraw with the same words changes no DOM (no churn while idle
// or while only the hover changes), and a selection survives a redraw.
const FONT_CLASS = ['f-body', 'f-bold', 'f-italic', 'f-mono', 'f-math'];
const OPENABLE = new Set(['http:', 'https:', 'mailto:']);  // as glue.js openUrl
let layer, fixedBox, pageBox, pageContent;
let lastScroll = 0;
let pointerDown = false;
let engine = null;  // the engine's calls (glue.js hands them over once it runs)
// CSS font-size per canvas font size: ImGui sizes a font by ascent - descent, CSS by the em.
const emPerPx = new Map();

function ensure() {
  if (layer) return;
  layer = document.createElement('div');
  layer.id = 'dtx-layer';
  // Landmarks: the top bar (and what floats over the page: menus, tooltips) and the page.
  fixedBox = document.createElement('nav');
  fixedBox.className = 'dtx-fixed';
  fixedBox.setAttribute('aria-label', 'dtx');
  pageBox = document.createElement('main');
  pageBox.id = 'dtx-page';
  pageContent = document.createElement('div');
  pageContent.className = 'dtx-page-content';
  pageBox.appendChild(pageContent);
  layer.append(fixedBox, pageBox);
  document.body.insertBefore(layer, document.getElementById('dtx-live'));
  pageBox.addEventListener('scroll', () => {
    if (Math.abs(pageBox.scrollTop - lastScroll) > 0.5 && engine) {
      lastScroll = pageBox.scrollTop;
      engine.layerScrolled(pageBox.scrollTop);
    }
  }, { passive: true });
  // The canvas keeps hearing where the mouse is while it is over text (hover, cursor).
  layer.addEventListener('mousemove', (e) => {
    const canvas = document.getElementById('canvas');
    canvas.dispatchEvent(new MouseEvent('mousemove', {
      clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
      movementX: e.movementX, movementY: e.movementY, buttons: e.buttons,
      ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, altKey: e.altKey, metaKey: e.metaKey, bubbles: true,
    }));
  }, true);
  // A press on the words starts a selection, not a click: the canvas's open field (if any)
  // closes, as a click beside it would (else its Ctrl+C would copy the field, not the words).
  layer.addEventListener('mousedown', (e) => {
    if (e.target.closest('a.dtx-ctl')) return;  // a link's press is the control's (onLinkMouse)
    pointerDown = true;
    if (engine) engine.pointerOnText();
  }, true);
  window.addEventListener('mouseup', () => { pointerDown = false; }, true);
  // A selection made without the mouse (window.find, a screen reader's cursor, the keyboard)
  // out of the page's view is scrolled into it; the canvas follows the scroll. (Chromium's
  // window.find selects but does not scroll; its find bar scrolls by itself.)
  document.addEventListener('selectionchange', () => {
    if (pointerDown) return;
    const sel = window.getSelection();
    if (!sel.rangeCount) return;
    const range = sel.getRangeAt(0);
    const node = range.startContainer.nodeType === 1 ? range.startContainer : range.startContainer.parentElement;
    if (!node || !pageContent.contains(node)) return;
    const r = range.getBoundingClientRect(), p = pageBox.getBoundingClientRect();
    if (r.top < p.top || r.bottom > p.bottom) node.scrollIntoView({ block: 'center', inline: 'nearest' });
  });
}

// Every class is measured in one layout pass, before the lines it sizes are in the layer:
// a probe measured between new lines laid out the whole layer once per class (150 ms of the
// first layer on the test machine).
function emRatio(fontClass) {
  let k = emPerPx.get(fontClass);
  if (k) return k;
  const probes = FONT_CLASS.map((fc) => {
    const probe = document.createElement('span');
    probe.className = `dtx-line ${fc} dtx-probe`;
    probe.style.fontSize = '100px';
    probe.textContent = 'Hg';
    return probe;
  });
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;contain:strict;width:1px;height:1px';
  box.append(...probes);
  layer.appendChild(box);  // the font classes' rules are the layer's
  const heights = probes.map((probe) => {
    const range = document.createRange();
    range.selectNodeContents(probe);
    return range.getBoundingClientRect().height;
  });
  box.remove();
  FONT_CLASS.forEach((fc, i) => emPerPx.set(fc, heights[i] > 0 ? 100 / heights[i] : 1));
  return emPerPx.get(fontClass) || 1;
}

function safeHref(url) {
  if (isAddress(url)) return url;
  try {
    const u = new URL(url, document.baseURI);
    return OPENABLE.has(u.protocol) ? u.href : null;
  } catch (e) { return null; }
}
// An address inside dtx (#/ex/ID, #/chapter/N): opened in this tab, as the page's own links.
function isAddress(url) { return /^#\/[^\s]*$/.test(url); }

function size(node) {
  const fc = FONT_CLASS.find((c) => node.classList.contains(c)) || 'f-body';
  node.style.fontSize = `${(Number(node.dataset.fs) * emRatio(fc)).toFixed(3)}px`;
}

function lineNode(l) {
  const fc = FONT_CLASS[l.f] || 'f-body';
  let node;
  const href = l.a ? safeHref(l.a) : null;
  if (href) {
    node = document.createElement('a');
    node.href = href;
    if (!isAddress(href)) {
      node.target = '_blank';
      node.rel = 'noopener noreferrer';
    }
  } else {
    node = document.createElement('span');
  }
  // A glossary term: its definition is said after the link's name. A press with the mouse, a
  // finger or a pen is the canvas's (it opens the term's popover where the word is); the
  // browser's own ways with a link (middle button, modifiers, a screen reader's activation)
  // follow the href to the Glossary screen.
  if (href && l.d) {
    node.setAttribute('aria-description', l.d);
    if (/^#\/glossary\//.test(href)) {
      node.classList.add('dtx-term');
      for (const type of ['mousedown', 'mouseup']) node.addEventListener(type, onLinkMouse);
      node.addEventListener('click', (e) => {
        if (e.button === 0 && !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) && e.detail > 0) e.preventDefault();
      });
    }
  }
  node.className = `dtx-line ${fc}${l.i ? ' in-item' : ''}`;
  node.textContent = l.t;
  const [x, y, w, h] = l.r;
  node.style.left = `${x}px`;
  node.style.top = `${y}px`;
  node.style.height = `${h}px`;
  node.style.lineHeight = `${h}px`;
  node.dataset.fs = l.fs;
  node.dataset.w = w;
  size(node);
  return node;
}

function blockNode(el) {
  let tag = 'div';
  if (el.k === 'p') tag = 'p';
  else if (el.k === 'h') tag = `h${Math.min(Math.max(el.level || 2, 1), 6)}`;
  else if (el.k === 'li') tag = 'li';
  else if (el.k === 'pre') tag = 'pre';
  const node = document.createElement(tag);
  node.className = 'dtx-block';
  if (el.ah) node.setAttribute('aria-hidden', 'true');  // a described widget's drawn label
  el.lines.forEach((l, i) => {
    // Words on consecutive lines are one sentence: a space between lines (not in a line's
    // box, so it is not stretched), none before punctuation glued to maths.
    if (i > 0) {
      const prev = el.lines[i - 1];
      const sameLine = Math.abs(prev.r[1] - l.r[1]) < 1;
      const gap = l.r[0] - (prev.r[0] + prev.r[2]);
      if (!sameLine || gap > l.fs * 0.15) {
        const sp = document.createElement('span');
        sp.className = 'dtx-space';
        sp.textContent = ' ';
        sp.style.left = `${prev.r[0] + prev.r[2]}px`;
        sp.style.top = `${prev.r[1]}px`;
        sp.style.height = `${prev.r[3]}px`;
        node.appendChild(sp);
      }
    }
    node.appendChild(lineNode(l));
  });
  return node;
}

// Consecutive list items become one list, consecutive cells of one table one table,
// consecutive controls of one group (the options, the steps, the lines) one named group.
function groups(els) {
  const out = [];
  for (const el of els) {
    const last = out[out.length - 1];
    if (el.k === 'desc' || el.k === 'img') {
      out.push({ kind: el.k, page: el.page, els: [el] });
      continue;
    }
    if (el.k === 'ctl') {
      if (el.group && last && last.kind === 'cgroup' && last.name === el.group && last.page === el.page) last.els.push(el);
      else if (el.group) out.push({ kind: 'cgroup', name: el.group, page: el.page, els: [el] });
      else out.push({ kind: 'ctl', page: el.page, els: [el] });
      continue;
    }
    if (el.k === 'li' && last && last.kind === 'ul' && last.page === el.page) last.els.push(el);
    else if (el.k === 'cell' && last && last.kind === 'table' && last.table === el.cell[0] && last.page === el.page) last.els.push(el);
    else if (el.k === 'li') out.push({ kind: 'ul', page: el.page, els: [el] });
    else if (el.k === 'cell') out.push({ kind: 'table', table: el.cell[0], page: el.page, els: [el] });
    else out.push({ kind: 'one', page: el.page, els: [el] });
  }
  // A node is kept for the same words (its key); a move (a float rounding the other way
  // after a scroll, a reflow) updates its place without replacing it, so a selection in it
  // survives.
  for (const g of out) {
    if (g.kind === 'desc' || g.kind === 'img') {
      g.key = g.kind + g.els[0].t + (g.kind === 'img' ? '\u0000' + (g.els[0].d || '') : '');
      g.geometry = JSON.stringify(g.els[0].r);
      continue;
    }
    if (g.kind === 'ctl' || g.kind === 'cgroup') {
      // A control keeps its node while its state, name and place change (its node may have
      // the focus): kept by its ID; the rest is brought up to date in place (syncControls).
      g.key = g.kind + g.name + JSON.stringify(g.els.map((el) => [el.id, el.role, el.heading || 0, !!el.href]));
      g.geometry = '';
      continue;
    }
    g.key = g.kind + JSON.stringify(g.els.map((el) => [el.k, el.level, el.bullet, el.cell, el.ah, el.lines.map((l) => [l.t, l.f, l.a, l.i, l.d])]));
    g.geometry = JSON.stringify(g.els.map((el) => el.lines.map((l) => [l.r, l.fs])));
  }
  return out;
}

// ---- controls: a proxy per control, with its role, name and state, where the control is.
// The canvas takes the pointer (a proxy lets it through); the proxies take the focus (a
// screen reader's, the keyboard's) and a screen reader's activation.
let focusing = false;
let lastFocus = null;  // the focus and typing of the last update (for tests)  // the engine moved the focus here: no echo back to it
function onControlFocus(e) {
  if (focusing || !engine) return;
  engine.focusControl(Number(e.currentTarget.dataset.id), false);
}
// A key just pressed (Enter on a focused link clicks it: the engine has the key already).
let keyAt = -1e9;
window.addEventListener('keydown', () => { keyAt = performance.now(); }, true);
function onControlClick(e) {
  // Assistive technology clicks a proxy: the same press a click on the canvas makes. A
  // link's mouse click was the canvas's already (onLinkMouse), unless it was the browser's:
  // with a modifier (another tab or window) it follows its href.
  const link = e.currentTarget.tagName === 'A';
  if (link && (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0)) return;
  e.preventDefault();
  if (link && (e.detail > 0 || performance.now() - keyAt < 100)) return;
  if (engine) engine.focusControl(Number(e.currentTarget.dataset.id), true);
}
// A link's proxy takes a mouse's presses where the link is drawn, so that the browser's
// own ways with a link work on it: the middle button, Ctrl/Cmd/Shift+click and the context
// menu (open in a new tab, copy the address). A plain press, and every move, goes on to the
// canvas, which draws the link's hover and opens it as before; the press starts no drag of
// the link and no selection.
function onLinkMouse(e) {
  const plain = e.button === 0 && !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey);
  if (!plain) return;
  e.preventDefault();
  e.stopPropagation();
  document.getElementById('canvas').dispatchEvent(new MouseEvent(e.type, {
    clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
    button: e.button, buttons: e.buttons, detail: e.detail, bubbles: true, cancelable: true,
  }));
}
function setAttr(node, name, value) {
  if (value === undefined || value === null) { if (node.hasAttribute(name)) node.removeAttribute(name); return; }
  const v = String(value);
  if (node.getAttribute(name) !== v) node.setAttribute(name, v);
}
// A closed chapter's exercise titles, hidden until find in page matches one: then the
// chapter opens (the press its header gets from a click) and its rows are drawn.
function syncHidden(node, c) {
  const want = c.uf ? JSON.stringify([c.uf, c.ufh]) : '';
  let box = node.querySelector(':scope > .dtx-found');
  if (box && box.dataset.words === want) return;
  if (box) box.remove();
  if (!want) return;
  box = document.createElement('div');
  box.className = 'dtx-found';
  box.dataset.words = want;
  box.setAttribute('hidden', 'until-found');
  // (not part of the control's name: a screen reader hears the chapter, and its rows once open)
  box.setAttribute('aria-hidden', 'true');
  for (const t of c.uf) {
    const d = document.createElement('div');
    d.textContent = t;
    box.appendChild(d);
  }
  // (the address replaced, not pushed: finding a word makes no history entry)
  const href = c.ufh;
  box.addEventListener('beforematch', () => {
    if (!href) return;
    history.replaceState(history.state, '', location.pathname + location.search + href);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  node.appendChild(box);
}
function syncControl(node, c) {
  const link = node.tagName === 'A';
  setAttr(node, 'role', link ? null : c.role);  // (an <a href> is a link)
  if (link) setAttr(node, 'href', safeHref(c.href));
  setAttr(node, 'aria-label', c.name);
  setAttr(node, 'aria-description', c.desc);
  setAttr(node, 'aria-checked', c.checked === undefined ? null : c.checked);
  setAttr(node, 'aria-pressed', c.pressed === undefined ? null : c.pressed);
  setAttr(node, 'aria-expanded', c.expanded === undefined ? null : c.expanded);
  const slider = c.role === 'slider';
  setAttr(node, 'aria-valuenow', slider ? c.vnow : null);
  setAttr(node, 'aria-valuemin', slider ? c.vmin : null);
  setAttr(node, 'aria-valuemax', slider ? c.vmax : null);
  setAttr(node, 'aria-valuetext', slider ? c.vt : null);
  setAttr(node, 'aria-orientation', slider ? 'horizontal' : null);
  syncHidden(node, c);
  const text = c.role === 'textbox';
  setAttr(node, 'aria-multiline', text ? (c.multi ? 'true' : 'false') : null);
  setAttr(node, 'aria-placeholder', text && c.ph ? c.ph : null);
  const [x, y, w, h] = c.r;
  node.style.left = `${x}px`;
  node.style.top = `${y}px`;
  node.style.width = `${w}px`;
  node.style.height = `${h}px`;
  // Its words: the drawn ones (for find), placed relative to the control. A text field's
  // drawn words may be its placeholder: its value is said from the text it holds instead.
  const words = JSON.stringify([c.lines.map((l) => [l.t, l.r, l.fs, l.f]), text ? c.vt : null, x, y]);
  if (node.dataset.words !== words) {
    node.dataset.words = words;
    node.textContent = '';
    // In reading order (a row's number is drawn after its words, left of them).
    const lines = c.lines.slice().sort((a, b) =>
      Math.abs(a.r[1] - b.r[1]) < Math.min(a.r[3], b.r[3]) / 2 ? a.r[0] - b.r[0] : a.r[1] - b.r[1]);
    lines.forEach((l, i) => {
      const ln = lineNode({ ...l, r: [l.r[0] - x, l.r[1] - y, l.r[2], l.r[3]] });
      if (text) ln.setAttribute('aria-hidden', 'true');
      // A label wrapped over lines is one sentence: a space between them (its words are the
      // control's name, which a screen reader and label-in-name compare).
      const prev = lines[i - 1];
      if (prev && (Math.abs(prev.r[1] - l.r[1]) >= 1 || l.r[0] - (prev.r[0] + prev.r[2]) > l.fs * 0.15)) {
        const sp = document.createElement('span');
        sp.className = 'dtx-space';
        sp.textContent = ' ';
        node.appendChild(sp);
      }
      node.appendChild(ln);
    });
    if (text) {
      const v = document.createElement('span');
      v.className = 'dtx-value';
      v.textContent = c.vt || '';
      node.appendChild(v);
    }
    // A link or a chapter scrolled out of the canvas draws no words: its name stands in, so
    // find in page reaches every title of the map (a match scrolls the page to it).
    if (!c.lines.length && (c.role === 'link' || c.role === 'button' && c.expanded !== undefined)) {
      const o = document.createElement('span');
      o.className = 'dtx-unseen';
      o.textContent = c.name;
      node.appendChild(o);
    }
    syncHidden(node, c);
    return true;
  }
  return false;
}
function controlNode(c) {
  const link = c.role === 'link' && c.href && safeHref(c.href);
  const node = document.createElement(link ? 'a' : 'div');
  node.className = 'dtx-ctl';
  node.dataset.id = c.id;
  node.tabIndex = -1;
  node.addEventListener('focus', onControlFocus);
  node.addEventListener('click', onControlClick);
  if (link) {
    node.draggable = false;
    for (const type of ['mousedown', 'mouseup']) node.addEventListener(type, onLinkMouse);
  }
  syncControl(node, c);
  if (!c.heading) return node;
  const hn = document.createElement(`h${Math.min(Math.max(c.heading, 1), 6)}`);
  hn.className = 'dtx-block';
  hn.appendChild(node);
  return hn;
}
const GROUP_ROLE = { radio: 'radiogroup' };
function controlGroupNode(g) {
  const box = document.createElement('div');
  box.className = 'dtx-block';
  const rows = g.els.some((c) => c.kind === 'row');
  setAttr(box, 'role', rows ? 'list' : GROUP_ROLE[g.els[0].role] || 'group');
  setAttr(box, 'aria-label', g.name);
  let item = null;
  for (const c of g.els) {
    // A list of steps: each step (its row and its move buttons) is one list item.
    if (rows && (c.kind === 'row' || !item)) {
      item = document.createElement('div');
      item.setAttribute('role', 'listitem');
      item.className = 'dtx-block';
      box.appendChild(item);
    }
    (rows ? item : box).appendChild(controlNode(c));
  }
  return box;
}
// Brings a kept control group's proxies up to date; returns the nodes whose words changed.
function syncControls(node, g) {
  const changed = [];
  const byId = new Map();
  for (const n of node.querySelectorAll('.dtx-ctl')) byId.set(n.dataset.id, n);
  if (node.classList.contains('dtx-ctl')) byId.set(node.dataset.id, node);
  for (const c of g.els) {
    const n = byId.get(String(c.id));
    if (n && syncControl(n, c)) changed.push(n);
  }
  if (g.kind === 'cgroup') setAttr(node, 'aria-label', g.name);
  return changed;
}

// A widget's description: not drawn, so not over glyphs; over the widget, where a screen
// reader's cursor and find in page point to it.
function descNode(d) {
  const p = document.createElement('p');
  p.className = 'dtx-block dtx-desc';
  p.textContent = d.t;
  placeBox(p, d.r);
  return p;
}

// A picture from a pack text: an image to a screen reader, named by its alt text, with why
// it is not shown (or that it loads) as its description. The same words are its content, for
// find in page (transparent, over the picture). An image without alt text and with nothing
// to say is decoration, as <img alt=""> is: hidden from screen readers.
function imgNode(d) {
  const n = document.createElement('div');
  n.className = 'dtx-block dtx-img';
  n.setAttribute('role', 'img');
  if (d.t) n.setAttribute('aria-label', d.t);
  else if (d.d) n.setAttribute('aria-label', 'Image');
  else n.setAttribute('aria-hidden', 'true');
  if (d.d) n.setAttribute('aria-description', d.d);
  n.textContent = d.d && d.d !== 'loading' ? `${d.t} ${d.d}`.trim() : d.t;
  placeBox(n, d.r);
  return n;
}
function placeBox(n, [x, y, w, h]) {
  n.style.left = `${x}px`;
  n.style.top = `${y}px`;
  n.style.width = `${w}px`;
  n.style.maxHeight = `${h}px`;
}

function groupNode(g) {
  if (g.kind === 'desc') return descNode(g.els[0]);
  if (g.kind === 'img') return imgNode(g.els[0]);
  if (g.kind === 'ctl') return controlNode(g.els[0]);
  if (g.kind === 'cgroup') return controlGroupNode(g);
  if (g.kind === 'one') return blockNode(g.els[0]);
  if (g.kind === 'ul') {
    const ul = document.createElement('ul');
    ul.className = 'dtx-block';
    for (const el of g.els) ul.appendChild(blockNode(el));
    return ul;
  }
  const table = document.createElement('table');
  table.className = 'dtx-block';
  let tr = null, row = -1;
  for (const el of g.els) {
    const [, r] = el.cell;
    if (r !== row) { tr = document.createElement('tr'); table.appendChild(tr); row = r; }
    const td = document.createElement('td');
    for (const child of [...blockNode(el).childNodes]) td.appendChild(child);
    tr.appendChild(td);
  }
  return table;
}

// Stretches each new line to its run's width (one layout for all of them).
function fit(nodes) {
  const lines = [];
  for (const n of nodes) for (const l of n.querySelectorAll('.dtx-line')) lines.push(l);
  const widths = lines.map((l) => l.getBoundingClientRect().width);
  lines.forEach((l, i) => {
    const want = Number(l.dataset.w);
    const s = widths[i] > 0 ? want / widths[i] : 1;
    l.style.transform = `scaleX(${s.toFixed(4)})`;
  });
}

function remeasureAll() {
  if (!layer) return;
  emRatio('f-body');  // every class measured in one pass, before the lines change
  for (const l of layer.querySelectorAll('.dtx-line')) {
    l.style.transform = '';
    size(l);
  }
  fit([layer]);
}

// Puts a kept node's lines (and the spaces between them) at their new places; false when
// the new places need other spaces (a line joined or split), and the node is rebuilt.
function move(node, g) {
  const fresh = groupNode(g);
  const a = node.querySelectorAll('.dtx-line, .dtx-space'), b = fresh.querySelectorAll('.dtx-line, .dtx-space');
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].className !== b[i].className) return false;
    for (const p of ['left', 'top', 'height', 'lineHeight', 'fontSize']) a[i].style[p] = b[i].style[p];
    if (b[i].dataset.w) { a[i].dataset.w = b[i].dataset.w; a[i].dataset.fs = b[i].dataset.fs; a[i].style.transform = ''; }
  }
  return true;
}

function reconcile(box, wanted) {
  const old = new Map();
  for (const n of [...box.children]) {
    const list = old.get(n.dataset.key) || [];
    list.push(n);
    old.set(n.dataset.key, list);
  }
  // Which old node each wanted group keeps; the others go first, so that kept nodes are
  // never moved (moving a node drops a selection in it).
  const kept = wanted.map((g) => { const list = old.get(g.key); return list && list.length ? list.shift() : null; });
  for (const list of old.values()) for (const n of list) n.remove();
  const created = [];
  let ref = box.firstChild;
  wanted.forEach((g, i) => {
    let node = kept[i];
    if (node && (g.kind === 'desc' || g.kind === 'img') && node.dataset.geometry !== g.geometry) {
      placeBox(node, g.els[0].r);
      node.dataset.geometry = g.geometry;
    } else if (node && (g.kind === 'ctl' || g.kind === 'cgroup')) {
      created.push(...syncControls(node, g));
    } else if (node && node.dataset.geometry !== g.geometry && !move(node, g)) {
      if (node === ref) ref = ref.nextSibling;
      node.remove();
      node = null;
    }
    if (!node) {
      node = groupNode(g);
      node.dataset.key = g.key;
      node.dataset.geometry = g.geometry;
      created.push(node);
    } else if (node.dataset.geometry !== g.geometry) {
      node.dataset.geometry = g.geometry;
      created.push(node);  // measured again
    }
    if (node === ref) ref = ref.nextSibling;
    else box.insertBefore(node, ref);
  });
  return created;
}


// The DOM focus follows the page's keyboard focus (Tab, a click that the keys go on from):
// the proxy of the focused control gets it. While a field is typed in, the text arrives
// through glue.js's textarea, which takes the field's name meanwhile.
function followFocus(d) {
  const ta = document.getElementById('dtx-text');
  // The typing textarea belongs to the page's landmark (moved while it has no focus: a move
  // would blur it).
  if (ta && ta.parentNode !== pageBox && document.activeElement !== ta) pageBox.appendChild(ta);
  const typing = d.typing ? layer.querySelector(`.dtx-ctl[data-id="${d.typing}"]`) : null;
  if (typing) {
    setAttr(ta, 'aria-label', typing.getAttribute('aria-label'));
    setAttr(ta, 'aria-description', typing.getAttribute('aria-description'));
    setAttr(ta, 'aria-hidden', null);
    return;
  }
  setAttr(ta, 'aria-hidden', 'true');
  if (!d.focus) return;
  const node = layer.querySelector(`.dtx-ctl[data-id="${d.focus}"]`);
  if (!node || document.activeElement === node) return;
  focusing = true;
  try { node.focus({ preventScroll: true }); } finally { focusing = false; }
}

window.dtxTextLayer = {
  init(calls) {
    engine = calls;
    // Sizes are measured in the canvas's own faces, which glue.js makes from the bytes it
    // fetched for the engine (addFace); a face that comes in after the layer is built has
    // every line measured again (fontsChanged).
  },
  fontsChanged() { emPerPx.clear(); remeasureAll(); },
  update(json, scroll) {
    ensure();
    emRatio('f-body');  // measured now, while the layer is laid out (a no-op once known)
    const d = JSON.parse(json);
    const [px, py, pw, ph] = d.page;
    pageBox.style.left = `${px}px`;
    pageBox.style.top = `${py}px`;
    pageBox.style.width = `${pw}px`;
    pageBox.style.height = `${ph}px`;
    pageContent.style.height = `${Math.max(d.height, ph)}px`;
    const all = groups(d.els);
    const created = reconcile(fixedBox, all.filter((g) => !g.page))
      .concat(reconcile(pageContent, all.filter((g) => g.page)));
    fit(created);
    this.scroll(scroll);
    followFocus(d);
    lastFocus = { focus: d.focus, typing: d.typing, v: d.v };
    layer.dataset.version = d.v;
  },
  scroll(y) {
    if (!pageBox) return;
    lastScroll = y;
    pageBox.scrollTop = y;
    lastScroll = pageBox.scrollTop;
  },
  get element() { return layer; },
  get focusState() { return lastFocus; },
};
