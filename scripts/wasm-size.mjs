#!/usr/bin/env node
// Where dtx.wasm's bytes go, by source area (run by `make bench`; a measurement, never a test).
//
//   node scripts/wasm-size.mjs [build/wasm/dtx-names.wasm] [build/wasm/dtx.wasm]
//
// The first file is the page linked with --profiling-funcs (CMake target dtx_web_names): the
// same code as the shipped dtx.wasm plus a name section. Each function body of its code section
// is given to an area by its (demangled) name; data segments and the other sections are listed
// apart. The shipped file's size is printed next to it, so a mismatch would show.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const namesPath = process.argv[2] || path.join(ROOT, 'build/wasm/dtx-names.wasm');
// The whole engine: dtx.wasm.orig where the page is linked with SPLIT_MODULE (build/wasm/dtx.wasm
// is then the instrumented module the split is profiled on; scripts/split-wasm.mjs).
const origPath = path.join(ROOT, 'build/wasm/dtx.wasm.orig');
const shippedPath = process.argv[3] || (fs.existsSync(origPath) ? origPath : path.join(ROOT, 'build/wasm/dtx.wasm'));
const buf = fs.readFileSync(namesPath);

let pos = 8;  // magic + version
const u32 = () => {
  let r = 0, shift = 0, b;
  do {
    b = buf[pos++];
    r += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return r;
};
const str = () => {
  const n = u32();
  const s = buf.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

const sections = [];  // {id, name, start, end}
const SECTION = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'];
while (pos < buf.length) {
  const id = buf[pos++];
  const size = u32();
  const start = pos;
  let name = SECTION[id] || `section ${id}`;
  if (id === 0) name = 'custom:' + str();
  sections.push({ id, name, start, end: start + size, size: start + size - start });
  pos = start + size;
}

// Imported functions come first in the function index space.
let importedFuncs = 0;
const imp = sections.find((s) => s.id === 2);
if (imp) {
  pos = imp.start;
  for (let n = u32(), i = 0; i < n; i++) {
    str();
    str();
    const kind = buf[pos++];
    if (kind === 0) { u32(); importedFuncs++; }
    else if (kind === 1) { pos++; const f = buf[pos++]; u32(); if (f & 1) u32(); }
    else if (kind === 2) { const f = buf[pos++]; u32(); if (f & 1) u32(); }
    else if (kind === 3) { pos += 2; }
  }
}

const names = new Map();
const nameSec = sections.find((s) => s.name === 'custom:name');
if (nameSec) {
  pos = nameSec.start + 5;  // after the section's own name ("name", length 1 + 4)
  while (pos < nameSec.end) {
    const sub = buf[pos++];
    const len = u32();
    const end = pos + len;
    if (sub === 1) {
      for (let n = u32(), i = 0; i < n; i++) {
        const idx = u32();
        names.set(idx, str());
      }
    }
    pos = end;
  }
}
if (names.size === 0) {
  console.error(`${namesPath} has no function names: link it with --profiling-funcs (make bench builds dtx_web_names)`);
  process.exit(1);
}

// Bodies, and a demangled name for each.
const code = sections.find((s) => s.id === 10);
pos = code.start;
const bodies = [];
for (let n = u32(), i = 0; i < n; i++) {
  const size = u32();
  bodies.push({ index: importedFuncs + i, size: size + 1 });  // + its size byte(s), about
  pos += size;
}
const raw = bodies.map((b) => names.get(b.index) || '');
let demangled = raw;
try {
  const out = execFileSync('c++filt', [], { input: raw.join('\n'), encoding: 'utf8', maxBuffer: 64 << 20 });
  demangled = out.split('\n').slice(0, raw.length);
} catch {
  // Without c++filt the mangled names still carry the namespaces the rules below look for.
}

// The function's own qualified name: template arguments, the parameter list and a template's
// return type taken away, so "dtx::load_code(nlohmann::json const&)" counts as dtx's and
// "std::vector<dtx::sim::PipeOp>::push_back" as the standard library's.
function ownName(nm) {
  let s = nm.replace(/\(anonymous namespace\)::/g, '');
  for (let guard = 0; guard < 50 && /<[^<>]*>/.test(s); guard++) s = s.replace(/<[^<>]*>/g, '');
  const paren = s.indexOf('(');
  if (paren >= 0) s = s.slice(0, paren);
  const parts = s.trim().split(/\s+/);
  return parts[parts.length - 1] || nm;
}

// Areas, first match wins, tested against the start of the own name. dtx's own code is split
// by namespace: dtx::sim (the widgets' simulations), dtx::web (views, screens, widgets' views,
// browser glue), the rest of dtx:: (the engine: packs, grading, expressions, lint).
const AREAS = [
  ['ImGui (and its stb_truetype, stb_rect_pack)', /^(ImGui|Im[A-Z]|stbtt|stbrp|stb_)/],
  ['GLFW/GL glue (Emscripten)', /^(glfw|_glfw|gl[A-Z]|emscripten_gl)/],
  ['md4c (Markdown parser)', /^(md_|MD_)/],
  ['JSON library (nlohmann)', /^nlohmann::/],
  ['widgets\' simulations (engine/sim)', /^dtx::sim::/],
  ['page: views, screens, widgets (web/)', /^(dtx::web::|draw_frame$|main$)/],
  ['engine (grading, expressions, lint, packs)', /^dtx::/],
  ['C++ standard library', /^(std::|__cxxabiv1|operator new|operator delete|__cxa|__gxx|typeinfo|vtable)/],
  ['C library and runtime', /^(mem|str|__|_|printf|snprintf|vsnprintf|fmt_|pop_arg|malloc|free|dl|sbrk|emscripten|qsort|strto|frexp|fmod|pow|log|exp|sin|cos|sqrt|floor|ceil|round|scalbn|wc|mb|fwrite|fputs|out|pad|decfloat|hexfloat|vfscanf|scanexp|dispose_chunk|tmalloc|prepend_alloc|init_|sys_)/],
];
const totals = new Map(AREAS.map(([a]) => [a, { bytes: 0, funcs: 0 }]));
const other = { bytes: 0, funcs: 0 };
const biggest = [];
demangled.forEach((nm, i) => {
  const b = bodies[i];
  const own = ownName(nm);
  const area = AREAS.find(([, re]) => re.test(own));
  const t = area ? totals.get(area[0]) : other;
  t.bytes += b.size;
  t.funcs++;
  biggest.push({ nm, size: b.size, area: area ? area[0] : 'other' });
});
const otherNames = biggest.filter((f) => f.area === 'other').sort((a, b) => b.size - a.size).slice(0, 5);

const kib = (n) => (n / 1024).toFixed(1).padStart(8) + ' KiB';
const codeBytes = code.end - code.start;
console.log(`wasm size by source area: ${path.relative(ROOT, namesPath)} (names kept), ${bodies.length} functions`);
console.log(`shipped ${path.relative(ROOT, shippedPath)}: ${kib(fs.statSync(shippedPath).size)}; this file without its name section: ${kib(buf.length - (nameSec ? nameSec.end - nameSec.start + 6 : 0))}`);
for (const [f, what] of [['dist/dtx.wasm', 'before the course map'], ['dist/dtx.deferred.wasm', 'after the first screen']]) {
  const p = path.join(ROOT, f);
  if (f.endsWith('deferred.wasm') && !fs.existsSync(p)) break;
  if (fs.existsSync(p)) console.log(`split: ${f.padEnd(24)} ${kib(fs.statSync(p).size)}  (${what})`);
}
console.log('');
console.log('area                                            functions        code   share of code');
const rows = [...totals.entries(), ['other (unnamed or unmatched)', other]].sort((a, b) => b[1].bytes - a[1].bytes);
for (const [a, t] of rows)
  console.log(`${a.padEnd(46)}  ${String(t.funcs).padStart(9)}  ${kib(t.bytes)}  ${(100 * t.bytes / codeBytes).toFixed(1).padStart(6)} %`);
console.log(`${'code section'.padEnd(46)}  ${String(bodies.length).padStart(9)}  ${kib(codeBytes)}`);
console.log('');
console.log('other sections:');
for (const s of sections.filter((s) => s.id !== 10 && s.name !== 'custom:name').sort((a, b) => b.size - a.size).slice(0, 6))
  console.log(`  ${s.name.padEnd(20)} ${kib(s.size)}`);
console.log('');
console.log('largest unmatched: ' + otherNames.map((f) => `${f.nm.slice(0, 40)} (${f.size} B)`).join(', '));
console.log('');
console.log('largest functions:');
for (const f of biggest.sort((a, b) => b.size - a.size).slice(0, 12))
  console.log(`  ${kib(f.size)}  ${f.area.split(' (')[0].padEnd(28)} ${f.nm.slice(0, 90)}`);
