#!/usr/bin/env node
// Checks that README.md stays a short front door whose every command, label, flag and link
// still exists. Run from the repository root, or give the root:
//   node tests/docs/check-readme.mjs [ROOT]
// It fails (exit 1), naming the file and line, when:
//   - README.md is longer than 200 lines;
//   - `make TARGET` names a target with no rule `TARGET:` in the Makefile;
//   - `dtx COMMAND` (or build/native/dtx COMMAND) names a command the CLI does not dispatch
//     (the names are read from the `cmd == "..."` tests in cli/*.cpp);
//   - a path under scripts/, tests/, engine/, web/, cli/, exercises/, docs/ or assets/ in
//     code, or a relative Markdown link target, does not exist (http(s) and mailto links and
//     #anchors are not checked);
//   - `ctest ... -L LABEL` names a label no test in tests/CMakeLists.txt has;
//   - a --flag given to tests/e2e/run.mjs is not one that run.mjs reads
//     (`argv.includes('--flag')`).
// Only code (`spans` and fenced blocks) is read for commands and paths: "make" or "dtx" in
// prose is not a command. The docs below get the link check too.
// No dependencies: node's fs and path only.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(process.argv[2] || '.');
const MAX_LINES = 200;
// The docs split out of the README: each relative link in them must exist as well.
const DOCS = ['docs/architecture.md', 'docs/performance.md', 'docs/self-hosting.md', 'docs/testing.md', 'docs/browser-repairs.md'];
// Top-level folders whose paths, written in code, must exist.
const TREES = ['scripts', 'tests', 'engine', 'web', 'sandbox', 'cli', 'exercises', 'docs', 'assets'];

const failures = [];
let checks = 0;
const fail = (file, line, msg) => failures.push({ file, line, msg });
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const exists = (rel) => fs.existsSync(path.join(ROOT, rel));
// The ctest labels tests/CMakeLists.txt gives (`LABELS unit`, `LABELS "cli;security"`).
const LABELS = new Set([...read('tests/CMakeLists.txt').matchAll(/LABELS\s+(?:"([^"]+)"|(\w+))/g)]
  .flatMap((m) => (m[1] || m[2]).split(';')));

// ---- what the repository offers -------------------------------------------------------------

// Makefile: rule names (`name:` at the start of a line, not `name :=`) and .PHONY names.
function makeTargets() {
  const rules = new Set();
  const phony = new Set();
  for (const line of read('Makefile').split('\n')) {
    const p = line.match(/^\.PHONY\s*:(.*)$/);
    if (p) { for (const n of p[1].trim().split(/\s+/)) if (n) phony.add(n); continue; }
    const r = line.match(/^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*)\s*:(?!=)/);
    if (r) for (const n of r[1].split(/\s+/)) rules.add(n);
  }
  return { rules, phony };
}

// The CLI's commands, from how cli/*.cpp dispatches them: `if (cmd == "lint") ...`.
function cliCommands() {
  const names = new Set();
  const dir = path.join(ROOT, 'cli');
  for (const f of fs.readdirSync(dir)) {
    if (!/\.(cpp|h)$/.test(f)) continue;
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const m of src.matchAll(/\bcmd\s*==\s*"([a-z][a-z0-9-]*)"/g)) names.add(m[1]);
  }
  return names;
}

// The flags tests/e2e/run.mjs reads.
function runFlags() {
  const src = read('tests/e2e/run.mjs');
  return new Set([...src.matchAll(/argv\.includes\(\s*['"](--[a-z0-9-]+)['"]\s*\)/g)].map((m) => m[1]));
}

// ---- reading Markdown -------------------------------------------------------------------------

// Each piece of code in a Markdown text, with its line: inline `spans` (a span may wrap onto
// the next line) and each line of a fenced block.
function codePieces(text) {
  const lines = text.split('\n');
  const pieces = [];
  const prose = [];  // [line number, text] outside fenced blocks
  let fenced = false;
  lines.forEach((l, i) => {
    if (/^\s*```/.test(l)) { fenced = !fenced; return; }
    if (fenced) pieces.push({ line: i + 1, code: l, block: true });
    else prose.push([i + 1, l]);
  });
  // Inline spans, over the prose joined back (keeping line numbers by offset).
  let joined = '';
  const starts = [];
  for (const [n, l] of prose) { starts.push([joined.length, n]); joined += l + '\n'; }
  const lineAt = (off) => { let n = 1; for (const [s, ln] of starts) { if (s > off) break; n = ln; } return n; };
  for (const m of joined.matchAll(/(`+)([^`]+?)\1/g)) {
    if (m[2].split('\n').length > 2) continue;  // an unbalanced backtick, not a span
    pieces.push({ line: lineAt(m.index), code: m[2].replace(/\n/g, ' '), block: false, index: m.index });
  }
  return { pieces, joined, lineAt };
}

// Relative link targets: [text](target) and ![alt](target), outside code.
function checkLinks(file, text) {
  const dir = path.dirname(file);
  const lines = text.split('\n');
  let fenced = false;
  lines.forEach((l, i) => {
    if (/^\s*```/.test(l)) { fenced = !fenced; return; }
    if (fenced) return;
    const outside = l.replace(/`[^`]*`/g, '');
    for (const m of outside.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const rel = path.normalize(path.join(dir, decodeURIComponent(target.split('#')[0])));
      checks++;
      if (!exists(rel)) fail(file, i + 1, `link target ${target} does not exist (${rel})`);
    }
  });
}

// A path written in code: up to the folder before its first placeholder (<type>, {h,cpp}, *).
function checkPath(file, line, token) {
  let p = token.replace(/[.,;:)'"]+$/, '');
  const cut = p.search(/[<{*]/);
  if (cut >= 0) p = p.slice(0, cut).replace(/[^/]*$/, '');
  if (!p) return;
  checks++;
  if (!exists(p)) fail(file, line, `${token} does not exist`);
}

// ---- the checks -------------------------------------------------------------------------------

function checkReadme() {
  const file = 'README.md';
  if (!exists(file)) { fail(file, 1, 'README.md is missing'); return; }
  const text = read(file);
  const lineCount = text.replace(/\n$/, '').split('\n').length;
  checks++;
  if (lineCount > MAX_LINES) fail(file, MAX_LINES + 1, `README.md has ${lineCount} lines; the limit is ${MAX_LINES} (move detail to docs/)`);

  const { rules, phony } = makeTargets();
  const commands = cliCommands();
  if (commands.size === 0) fail('cli/main.cpp', 1, 'no `cmd == "..."` dispatch found in cli/: the checker cannot read the commands');
  const flags = runFlags();
  const { pieces, joined, lineAt } = codePieces(text);

  for (const { line, code } of pieces) {
    // Everything after a shell comment is words, not commands.
    const cmd = code.replace(/(^|\s)#.*$/, '');

    // A command starts the code or follows a separator (;, &&, |, $( ): "the dtx command" in
    // the layout's fenced block is a description, not a command.
    // make TARGET...: the words after `make` up to a separator, skipping VAR=value and -options.
    for (const m of cmd.matchAll(/(?:^\s*|[;&|(]\s*)make((?:\s+[^\s;&|)]+)*)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        if (!word || word.includes('=') || word.startsWith('-')) continue;
        checks++;
        if (!rules.has(word)) {
          fail(file, line, `\`make ${word}\`: the Makefile has no rule \`${word}:\`` + (phony.has(word) ? ' (it is only listed in .PHONY)' : ''));
        }
      }
    }

    // dtx COMMAND, or build/native/dtx COMMAND.
    for (const m of cmd.matchAll(/(?:^\s*|[;&|(]\s*)(?:[\w./-]*\/)?dtx\s+([^\s;&|)]+)/g)) {
      const word = m[1];
      if (!/^[a-z]/.test(word)) continue;  // --help, <command>
      checks++;
      if (!commands.has(word)) fail(file, line, `\`dtx ${word}\`: not a command of the CLI (it has ${[...commands].sort().join(', ')})`);
    }

    // ctest ... -L LABEL (a regex: each alternative must be a label).
    for (const m of cmd.matchAll(/\bctest\b[^;&|]*?\s-L\s+(\S+)/g)) {
      for (const label of m[1].replace(/^['"]|['"]$/g, '').split('|')) {
        checks++;
        if (!LABELS.has(label)) fail(file, line, `\`ctest -L ${label}\`: not a label (${[...LABELS].join(', ')})`);
      }
    }

    // tests/e2e/run.mjs --flag.
    const run = cmd.indexOf('tests/e2e/run.mjs');
    if (run >= 0) {
      for (const f of cmd.slice(run).matchAll(/(?:^|\s)(--[a-z0-9-]+)/g)) {
        checks++;
        if (!flags.has(f[1])) fail(file, line, `\`tests/e2e/run.mjs ${f[1]}\`: run.mjs does not read ${f[1]}`);
      }
    }

    // Paths in the repository's folders (not build/ or dist/, which a build makes).
    const trees = TREES.join('|');
    for (const m of cmd.matchAll(new RegExp(`(?:^|[\\s(=])((?:${trees})\\/[^\\s\`'")]*)`, 'g'))) {
      checkPath(file, line, m[1]);
    }
  }

  // A flag alone in a span, in the same paragraph or list item as a run.mjs command
  // ("... run.mjs dist --only NAME; with `--returning`, ...").
  const blocks = joined.split(/\n(?=\s*\n|\s*[-*] |\s*\d+\. )/);
  let offset = 0;
  for (const block of blocks) {
    if (block.includes('tests/e2e/run.mjs')) {
      for (const m of block.matchAll(/`(--[a-z0-9-]+)`/g)) {
        checks++;
        if (!flags.has(m[1])) fail(file, lineAt(offset + m.index), `\`${m[1]}\` (for tests/e2e/run.mjs): run.mjs does not read it`);
      }
    }
    offset += block.length + 1;
  }

  checkLinks(file, text);
}

checkReadme();
for (const doc of DOCS) {
  if (!exists(doc)) { fail(doc, 1, 'missing'); continue; }
  checkLinks(doc, read(doc));
}

if (failures.length) {
  const files = [...new Set(failures.map((f) => f.file))];
  failures.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line);
  for (const f of failures) console.error(`${f.file}:${f.line}: ${f.msg}`);
  console.error(`check-readme: ${failures.length} problem(s) in ${checks} checks`);
  process.exit(1);
}
console.log(`check-readme: ok (${checks} checks)`);
