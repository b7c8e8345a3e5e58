#!/usr/bin/env node
// docs/accessibility.md stays true to the tests it cites: its summary counts match its table
// (every WCAG 2.1 A and AA criterion once, 30 A and 20 AA), and every test it names as evidence
// exists: a browser test quoted after its file (`run.mjs` "keyboard: one exercise…") is a test
// of that file whose name starts with the quoted words, and a unit or headless-UI test
// (`HeadlessUi.X`, `Theme.X`) is a TEST() of that suite and name. Renaming or removing a test
// the statement relies on fails here, so the statement is updated in the same change.
//   node tests/docs/accessibility-statement.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/accessibility.md'), 'utf8');
const problems = [];

// The criteria table: | 1.1.1 Non-text Content | A | Partially supports | how | gaps |
const rows = doc.split('\n').filter((l) => /^\| \d\.\d\.\d+ /.test(l)).map((l) => {
  const cells = l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
  return { id: cells[0].split(' ')[0], level: cells[1], status: cells[2], how: cells[3] };
});
const WCAG21 = ['1.1.1', '1.2.1', '1.2.2', '1.2.3', '1.2.4', '1.2.5', '1.3.1', '1.3.2', '1.3.3', '1.3.4', '1.3.5', '1.4.1',
  '1.4.2', '1.4.3', '1.4.4', '1.4.5', '1.4.10', '1.4.11', '1.4.12', '1.4.13', '2.1.1', '2.1.2', '2.1.4', '2.2.1', '2.2.2',
  '2.3.1', '2.4.1', '2.4.2', '2.4.3', '2.4.4', '2.4.5', '2.4.6', '2.4.7', '2.5.1', '2.5.2', '2.5.3', '2.5.4', '3.1.1',
  '3.1.2', '3.2.1', '3.2.2', '3.2.3', '3.2.4', '3.3.1', '3.3.2', '3.3.3', '3.3.4', '4.1.1', '4.1.2', '4.1.3'];
const ids = rows.map((r) => r.id);
if (ids.join(' ') !== WCAG21.join(' ')) problems.push(`the table's criteria are not WCAG 2.1 A and AA, once each and in order: ${ids.join(' ')}`);

// The summary: | Supports | 32 | 20 | 12 |
const STATUSES = ['Supports', 'Partially supports', 'Does not support', 'Not applicable'];
for (const status of STATUSES) {
  const m = new RegExp(`^\\| ${status} \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|`, 'm').exec(doc);
  if (!m) { problems.push(`the summary has no row "${status}"`); continue; }
  const of = (level) => rows.filter((r) => r.status === status && (!level || r.level === level)).length;
  const want = [of(), of('A'), of('AA')];
  if (m.slice(1).map(Number).join() !== want.join()) problems.push(`summary "${status}" says ${m.slice(1).join('/')}, the table has ${want.join('/')}`);
}
for (const r of rows) if (!STATUSES.includes(r.status)) problems.push(`${r.id}: unknown status "${r.status}"`);

// Browser tests: `FILE.mjs` "name…" (and further "name…" in the same parentheses-free run).
const fileOf = (f) => (f.includes('/') ? path.join(ROOT, 'types', f) : path.join(ROOT, 'tests/e2e', f));
const testNames = new Map();
const namesIn = (file) => {
  if (!testNames.has(file)) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    testNames.set(file, [...text.matchAll(/test\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2].replace(/\\'/g, "'")));
  }
  return testNames.get(file);
};
let cited = 0;
for (const r of rows) {
  for (const m of r.how.matchAll(/`([\w/-]+\.mjs)` "([^"]+)"/g)) {
    const file = fileOf(m[1]);
    const words = m[2].replace(/…$/, '');
    cited++;
    if (!fs.existsSync(file)) problems.push(`${r.id}: cites ${m[1]}, which does not exist`);
    else if (!namesIn(file).some((n) => n.startsWith(words))) problems.push(`${r.id}: no test in ${m[1]} is named "${words}…"`);
  }
  for (const m of r.how.matchAll(/`([A-Z]\w+)\.(\w+)`/g)) {
    cited++;
    const pattern = new RegExp(`TEST(_F)?\\(\\s*${m[1]}\\s*,\\s*${m[2]}\\s*\\)`);
    const found = ['tests', 'types'].some((d) => {
      const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).some((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : /\.(cpp|h)$/.test(e.name) && pattern.test(fs.readFileSync(path.join(dir, e.name), 'utf8')));
      return walk(path.join(ROOT, d));
    });
    if (!found) problems.push(`${r.id}: cites ${m[1]}.${m[2]}, which is no TEST() of the repository`);
  }
}
if (cited < 40) problems.push(`only ${cited} tests cited: the parser no longer reads the table`);

if (problems.length) {
  console.error('docs/accessibility.md:\n  ' + problems.join('\n  '));
  process.exit(1);
}
const count = (s) => rows.filter((r) => r.status === s).length;
console.log(`docs/accessibility.md: ${rows.length} criteria (${STATUSES.map((s) => `${count(s)} ${s.toLowerCase()}`).join(', ')}); ${cited} cited tests all exist`);
