#!/usr/bin/env node
// The pack schema (exercises/schema/pack.schema.json) against the engine, with an independent
// validator (ajv, strict draft 2020-12):
//   1. the schema compiles strictly; every property has a description and examples, every
//      example and editor snippet is valid, every pattern has a message an editor can show;
//   2. its widget part is what `dtx sim --inputs-json` says (else: run scripts/schema-widgets.mjs),
//      and its type part is what the types declare (`dtx types --json` and
//      types/*/schema.json; else: run scripts/schema-types.mjs), with a described
//      property for every field a type adds and none it does not;
//   3. every shipped pack names the schema in "$schema" (resolved relative to the pack, as
//      editors do) and is accepted by the schema and by `dtx lint --no-run`;
//   4. every pack in tests/malformed/ is rejected by both, except the ones listed below that no
//      schema can see (the engine must still reject those);
//   5. probes (tests/schema/probes.mjs): small packs changing one thing each, where schema and
//      engine must agree with each other and with the probe's stated verdict.
//
//   node tests/schema/check.mjs path/to/dtx [--verbose]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

import {
  ROOT, SCHEMA_PATH, SCHEMA_URL, clip, compileSchema, describeErrors, engineLint, parseJson,
  printTable, schemaVerdict, validatorFor,
} from './lib.mjs';
import { allProbes } from './probes.mjs';
import { isWidgetDef, readInputTables, widgetDefs } from '../../scripts/schema-widgets.mjs';
import { readTypeTables, withTypeParts } from '../../scripts/schema-types.mjs';

// Malformed packs whose problem JSON Schema cannot express, and why. The engine must reject
// each; the schema accepts it (if it starts rejecting one, remove it from this list).
export const SCHEMA_BLIND_MALFORMED = {
  'answer-division-by-zero.json': 'the answer divides by zero only at a corner of the parameter ranges (N=2): finding it means evaluating the expression',
  'derived-division-by-zero.json': 'a derived value divides by zero at N=4: finding it means evaluating the expression',
  'mistake-equals-answer.json': 'the known mistake is a different expression with the same value: finding it means evaluating both',
  'placeholder-unknown-param.json': 'the prompt\'s {B} is text inside Markdown, and which names exist depends on "params"',
  'duplicate-exercise-id.json': 'two exercises share an id: uniqueItems compares whole items, no keyword compares one member across items',
  'glossary-duplicate-term.json': 'an alias repeats another entry\'s term: no keyword compares strings across two members of different items',
  'duplicate-key.json': 'a key appears twice in one object: a validator sees the parsed data, where the second value has already replaced the first',
  'param-default-not-in-choices.json': 'the default must be one of the choices: a relation between two members\' values',
  'param-default-out-of-range.json': 'the default must lie in [min, max]: a relation between members\' values',
  'param-min-greater-than-max.json': 'min must not exceed max: a relation between two members\' values',
  'link-javascript-scheme.json': 'the link is Markdown inside a prose string: finding its target means parsing Markdown (code spans, escapes, entities), which no pattern keyword does reliably',
  'image-format.json': 'the image is Markdown inside a prose string: finding its source means parsing Markdown (brackets, escapes, reference definitions), which no pattern keyword does reliably',
  'image-missing.json': 'whether a file exists next to the pack is a fact of the disk, not of the JSON',
  'maths-frac-missing-argument.json': 'maths is a LaTeX subset inside a prose string: its grammar (arguments, groups, commands) is beyond a pattern keyword, and where a span starts depends on Markdown (code spans, escapes)',
  'maths-placeholder-not-expression.json': 'whether a brace inside $...$ is a placeholder depends on what precedes it in the maths, and whether it holds an expression needs the expression parser',
  'maths-too-deep.json': 'nesting depth inside a $...$ span needs the maths parser; regular expressions cannot count balanced braces',
  'maths-unbalanced-brace.json': 'balanced braces inside a $...$ span cannot be checked by a regular expression',
  'maths-unclosed-dollar.json': 'a $ that nothing closes depends on Markdown paragraphs, code spans and \\$ escapes',
  'maths-unknown-command.json': 'maths is a LaTeX subset inside a prose string: telling commands apart means finding the spans in Markdown first',
  'answer-zero-relative-tolerance.json': 'the answer N - 4 is 0 only at N=4, where a relative tolerance cannot grade it: finding it means evaluating the expression',
  'constraint-fails-at-default.json': 'the default parameters break the constraint M >= N: finding it means evaluating the constraint',
  'constraints-too-tight.json': 'the constraints admit almost no parameter values: finding it means drawing instances',
  'widget-input-out-of-range.json': 'the widget input {N*100} leaves the widget\'s range only for some parameter values: finding it means evaluating it',
  'code-reference-fails.json': 'the reference solution fails its own cases: finding it means running the code',
  'code-wrong-passes.json': 'a wrong implementation passes every case: finding it means running the code',
  'parts-collide-over-seeds.json': 'two parts\' answers come within the tolerance of each other only for some drawn parameters: finding it means making the instances',
  'negative-answer-over-seeds.json': 'the answer M - 4 is negative only for some drawn parameters: finding it means making the instances',
  'not-integer.json': 'the answer N/3 is whole only for some N: finding it means evaluating the expression',
  'implausible-mfu.json': 'the MFU leaves 0-100 % only at some corners of the ranges: finding it means evaluating the expression',
  'slip-graded-right.json': 'a 10 % tolerance swallows the 7.4 % of GiB vs GB: which slips apply depends on the unit and the engine\'s diagnoses',
  'mistakes-collide-over-seeds.json': 'two known mistakes coincide only where CF = k: finding it means making the instances',
  'simulation-refuses-over-seeds.json': 'the pipeline simulator refuses m < p only for some drawn parameters: finding it means making the instances and running the simulator',
  'over-limit-over-seeds.json': 'the per-GPU memory exceeds the pack\'s limit only for some drawn parameters: finding it means making the instances',
  'limit-unknown.json': 'the binding names a limit the pack does not declare: a relation between two members\' keys',
  'article-over-seeds.json': 'the article is wrong only where the drawn number reads with a vowel: finding it means filling in the prose',
  'numeric-unknown-source.json': 'which formula ids exist is the engine\'s table (`dtx sim --formulas`), which grows with the engine',
  'file-too-large.json': 'the limit is on the file\'s bytes (the test pads it past 10 MB); a validator sees only the parsed data',
};

const dtx = process.argv[2];
const verbose = process.argv.includes('--verbose');
if (!dtx || !fs.existsSync(dtx)) {
  console.error('usage: node tests/schema/check.mjs path/to/dtx [--verbose]');
  process.exit(2);
}

const failures = [];
const fail = (what) => failures.push(what);

// ---------------------------------------------------------------- 1. the schema itself
let compiled;
try {
  compiled = compileSchema();
} catch (e) {
  console.error(`FAIL: ${path.relative(ROOT, SCHEMA_PATH)} does not compile in strict mode: ${e.message}`);
  process.exit(1);
}
const { ajv, schema, validate } = compiled;

const seg = (s) => encodeURIComponent(String(s).replace(/~/g, '~0').replace(/\//g, '~1'));
const resolveRef = (ref) => ref.replace(/^#\//, '').split('/').reduce((node, k) => node && node[k.replace(/~1/g, '/').replace(/~0/g, '~')], schema);

// Walks the declarations: the root, every $defs entry, and the property, item and
// additional-property schemas inside them. Constraint clauses (if/then/else, allOf, anyOf,
// not, contains, dependentSchemas) repeat declared properties and are not declarations.
function walkDeclarations(visit) {
  const go = (node, ptr) => {
    if (!node || typeof node !== 'object') return;
    visit(node, ptr);
    for (const map of ['properties', 'patternProperties', '$defs'])
      for (const [k, v] of Object.entries(node[map] || {})) go(v, [...ptr, map, k]);
    if (node.items && typeof node.items === 'object') go(node.items, [...ptr, 'items']);
    if (node.additionalProperties && typeof node.additionalProperties === 'object')
      go(node.additionalProperties, [...ptr, 'additionalProperties']);
  };
  go(schema, []);
}

let propertyCount = 0, exampleCount = 0;
walkDeclarations((node, ptr) => {
  const where = `#/${ptr.join('/')}`;
  const validator = () => ajv.getSchema(`${SCHEMA_URL}#/${ptr.map(seg).join('/')}`);
  const declarations = [];
  for (const map of ['properties', 'patternProperties'])
    for (const [name, prop] of Object.entries(node[map] || {})) declarations.push([`${map}/${name}`, prop]);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    declarations.push(['additionalProperties', node.additionalProperties]);
  {
    for (const [name, prop] of declarations) {
      ++propertyCount;
      const target = prop.$ref ? resolveRef(prop.$ref) : null;
      const description = prop.description || (target && target.description);
      const examples = prop.examples || (target && target.examples);
      if (typeof description !== 'string' || description.trim().length < 10)
        fail(`${where}/${name}: no description (editors show it on hover; docs/AUTHORING.md prints it)`);
      if (!Array.isArray(examples) || !examples.length)
        fail(`${where}/${name}: no "examples" (editors offer them when completing)`);
    }
  }
  if (Array.isArray(node.examples)) {
    const v = validator();
    for (const [i, example] of node.examples.entries()) {
      ++exampleCount;
      if (!v(example)) fail(`${where}/examples/${i} is not valid against its own schema: ${describeErrors(v.errors)}`);
    }
  }
});

// Every name a "required" lists is declared as a property somewhere (a typo would make the
// requirement impossible), and every pattern has the message editors show instead of a regex.
const declared = new Set();
(function collect(node) {
  if (!node || typeof node !== 'object') return;
  for (const k of Object.keys(node.properties || {})) declared.add(k);
  for (const v of Object.values(node)) collect(v);
})(schema);
(function check(node, ptr) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node.required))
    for (const r of node.required) if (!declared.has(r)) fail(`#/${ptr.join('/')}/required: "${r}" is not declared anywhere`);
  if (typeof node.pattern === 'string' && !node.patternErrorMessage && !ptr.includes('if'))
    fail(`#/${ptr.join('/')}: a pattern without "patternErrorMessage" (editors would show the regex)`);
  for (const [k, v] of Object.entries(node)) if (typeof v === 'object') check(v, [...ptr, k]);
})(schema, []);

// Editor snippets: "${1:text}" placeholders replaced by their text must give a valid exercise.
function expandSnippet(value) {
  if (typeof value === 'string')
    return value.replace(/\$\{\d+:((?:[^}\\]|\\.)*)\}/g, (_, text) => text).replace(/\$\d+/g, '').replace(/\\([}$\\])/g, '$1');
  if (Array.isArray(value)) return value.map(expandSnippet);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandSnippet(v)]));
  return value;
}
const snippets = (schema.$defs.exercise.defaultSnippets || []).map((s, i) => ({ label: s.label, exercise: { ...expandSnippet(s.body), id: `snippet${i}.exercise` } }));
const typeTables = readTypeTables(dtx);
if (snippets.length !== typeTables.types.length)
  fail(`$defs/exercise/defaultSnippets: expected a starting snippet for each of the ${typeTables.types.length} exercise types, got ${snippets.length}`);

// ---------------------------------------------------------------- 2. widgets vs the engine
const tables = readInputTables(dtx);
const expectedWidgets = widgetDefs(tables);
const actualWidgets = Object.fromEntries(Object.entries(schema.$defs).filter(([k]) => isWidgetDef(k)));
if (JSON.stringify(expectedWidgets) !== JSON.stringify(actualWidgets)) {
  const names = new Set([...Object.keys(expectedWidgets), ...Object.keys(actualWidgets)]);
  const differ = [...names].filter((n) => JSON.stringify(expectedWidgets[n]) !== JSON.stringify(actualWidgets[n]));
  fail(`the schema's widget part differs from \`dtx sim --inputs-json\` (${differ.join(', ')}): run \`node scripts/schema-widgets.mjs ${dtx}\``);
}

// ---------------------------------------------------------------- 2b. exercise types vs the engine
const expectedTypes = withTypeParts(schema, typeTables);
if (JSON.stringify(expectedTypes) !== JSON.stringify(schema)) {
  const names = new Set([...Object.keys(expectedTypes.$defs), ...Object.keys(schema.$defs)]);
  const differ = [...names].filter((n) => JSON.stringify(expectedTypes.$defs[n]) !== JSON.stringify(schema.$defs[n]));
  fail(`the schema's type part differs from \`dtx types --json\` and types/*/schema.json (${differ.join(', ') || 'order'}): run \`node scripts/schema-types.mjs ${dtx}\``);
}
for (const t of typeTables.types) {
  const props = Object.keys(t.schema.defs[t.name].properties || {});
  const missing = t.fields.filter((f) => !props.includes(f));
  const extra = props.filter((p) => !t.fields.includes(p));
  if (missing.length) fail(`types/${t.name}/schema.json: no "properties" entry for ${missing.join(', ')}, which the "${t.name}" loader reads`);
  if (extra.length) fail(`types/${t.name}/schema.json: "properties" describes ${extra.join(', ')}, which the "${t.name}" loader does not read`);
}

// ---------------------------------------------------------------- helpers
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-schema-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

function engineAccepts(file, { run = false, seeds = 0 } = {}) {
  const args = ['lint', ...(run ? [] : ['--no-run']), ...(seeds ? ['--seeds', String(seeds)] : []), file];
  const r = spawnSync(dtx, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${dtx} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ok: r.status === 0, why: r.stdout.split('\n').filter(Boolean).map((l) => l.replace(/^[^:]*:\d+:\d+: error\[E\d{3}\]: /, '')).join('; ') };
}
const word = (ok) => (ok ? 'accepts' : 'rejects');

// ---------------------------------------------------------------- 3. shipped packs
const shippedRows = [];
const shipped = fs.readdirSync(path.join(ROOT, 'exercises')).filter((f) => /^\d\d-.*\.json$/.test(f)).sort();
if (!shipped.length) fail('no shipped packs found in exercises/');
for (const f of shipped) {
  const file = path.join(ROOT, 'exercises', f);
  const text = fs.readFileSync(file, 'utf8');
  const parsed = parseJson(text);
  const first = parsed.value && Object.keys(parsed.value)[0];
  const ref = parsed.value && parsed.value.$schema;
  const v = parsed.value && validatorFor(ajv, file, ref);
  let schemaOk = false, why = '';
  if (parsed.syntaxError) why = parsed.syntaxError;
  else if (first !== '$schema' || ref !== 'schema/pack.schema.json') why = `first member should be "$schema": "schema/pack.schema.json" (is ${JSON.stringify(first)}: ${JSON.stringify(ref)})`;
  else if (!v) why = `"$schema" ${JSON.stringify(ref)} does not resolve to ${path.relative(ROOT, SCHEMA_PATH)}`;
  else {
    schemaOk = v(parsed.value);
    why = schemaOk ? '' : describeErrors(v.errors);
  }
  const engine = engineAccepts(file);
  shippedRows.push([f, word(schemaOk), word(engine.ok), clip(why || engine.why || '')]);
  if (!schemaOk) fail(`exercises/${f}: the schema rejects a shipped pack: ${why}`);
  if (!engine.ok) fail(`exercises/${f}: dtx lint rejects a shipped pack: ${engine.why}`);
}

// ---------------------------------------------------------------- 4. malformed packs
const malformedDir = path.join(ROOT, 'tests/malformed');
const malformed = fs.readdirSync(malformedDir).filter((f) => f.endsWith('.json') && f !== 'expected.json').sort();
const malformedRows = [];
// expected.json says how each is broken: "warn" packs are valid and only lint --warn speaks
// (no schema can judge style); "runs_code" ones need lint to run their code; "pad_to_bytes"
// ones are too large only once padded with spaces.
const malformedExpected = JSON.parse(fs.readFileSync(path.join(malformedDir, 'expected.json'), 'utf8'));
for (const f of malformed) {
  const x = malformedExpected[f] || {};
  if (x.stage === 'warn') {
    malformedRows.push([f, '', '', `a style warning (${x.code}), not an error: both accept it; dtx lint --warn warns`]);
    continue;
  }
  let file = path.join(malformedDir, f);
  let text = fs.readFileSync(file, 'utf8');
  if (x.pad_to_bytes) {
    text += ' '.repeat(Math.max(0, x.pad_to_bytes - Buffer.byteLength(text)));
    file = path.join(tmp, f);
    fs.writeFileSync(file, text);
  }
  const s = schemaVerdict(validate, text);
  const engine = engineAccepts(file, { run: !!x.runs_code, seeds: x.seeds || 0 });
  const blind = SCHEMA_BLIND_MALFORMED[f];
  if (engine.ok) fail(`tests/malformed/${f}: dtx lint accepts it`);
  if (blind && s.ok === false) fail(`tests/malformed/${f}: the schema now rejects it (${s.why}); remove it from SCHEMA_BLIND_MALFORMED`);
  if (!blind && s.ok) fail(`tests/malformed/${f}: the schema accepts a malformed pack (and it is not listed as one no schema can express)`);
  malformedRows.push([f, word(s.ok), word(engine.ok), clip(blind ? `schema cannot see: ${blind}` : s.why, 100)]);
}
for (const f of Object.keys(SCHEMA_BLIND_MALFORMED))
  if (!malformed.includes(f)) fail(`SCHEMA_BLIND_MALFORMED lists ${f}, which is not in tests/malformed/`);

// ---------------------------------------------------------------- 5. probes and snippets
const probes = allProbes(tables);
for (const [i, s] of snippets.entries())
  probes.push({ group: 'snippet', name: s.label, valid: true, pack: { format: 1, chapter: 0, id: 'snippets', title: 'Snippets', exercises: [s.exercise] } });
// The starting packs `dtx new` writes, with "$comment" notes everywhere, as an author gets them.
for (const kind of ['numeric', 'choice', 'ordering', 'buggy-line', 'code']) {
  const r = spawnSync(dtx, ['new', kind, `xnew.${kind}`], { encoding: 'utf8' });
  if (r.status !== 0) fail(`\`dtx new ${kind} xnew.${kind}\` exited ${r.status}: ${r.stderr.trim()}`);
  else probes.push({ group: 'dtx new', name: kind, valid: true, text: r.stdout });
}

// Exercise ids must differ across all the files of one lint run.
const uniqueIds = (text, i) => text.replace(/("id":\s*")(x[^"]*")/g, `$1p${i}$2`);
probes.forEach((p, i) => {
  const text = p.text !== undefined ? p.text : JSON.stringify(p.pack, null, 2);
  p.file = path.join(tmp, `probe-${String(i).padStart(3, '0')}.json`);
  p.body = uniqueIds(text, i);
  fs.writeFileSync(p.file, p.body);
});
const lint = engineLint(dtx, probes.map((p) => p.file));
const groups = new Map();
const exceptionRows = [];
for (const p of probes) {
  const s = schemaVerdict(validate, p.body);
  const engineErrors = lint.errorsByFile.get(path.resolve(p.file)) || [];
  const e = { ok: engineErrors.length === 0, why: engineErrors.join('; ') };
  const wantSchema = p.stricter ? false : p.blind ? true : p.valid;
  const wantEngine = p.finding ? true : p.valid;
  const label = `${p.group}: ${p.name}`;
  const g = groups.get(p.group) || { total: 0, valid: 0, invalid: 0, exceptions: 0, bad: 0 };
  groups.set(p.group, g);
  ++g.total;
  ++g[p.valid ? 'valid' : 'invalid'];
  let ok = true;
  if (s.ok !== wantSchema) {
    ok = false;
    fail(`probe ${label}: the schema ${word(s.ok)} it, expected it to ${word(wantSchema).replace(/s$/, '')}${s.why ? ` (${s.why})` : ''}` +
         (p.blind && !s.ok ? '; remove "blind" from the probe' : '') + (p.stricter && s.ok ? '; remove "stricter" from the probe' : ''));
  }
  if (e.ok !== wantEngine) {
    ok = false;
    fail(`probe ${label}: dtx lint ${word(e.ok)} it, expected it to ${word(wantEngine).replace(/s$/, '')}${e.why ? ` (${e.why})` : ''}` +
         (p.finding && !e.ok ? '; the engine is fixed: remove "finding" from the probe' : ''));
  }
  if (!ok) ++g.bad;
  const note = p.blind ? `schema cannot see: ${p.blind}` : p.stricter ? `schema stricter: ${p.stricter}` : p.finding ? `ENGINE FINDING: ${p.finding}` : '';
  if (note) {
    ++g.exceptions;
    exceptionRows.push([label, word(s.ok), word(e.ok), note]);
  }
  if (verbose) console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: schema ${word(s.ok)}, engine ${word(e.ok)}${s.why ? ` | schema: ${clip(s.why, 80)}` : ''}${e.why ? ` | engine: ${clip(e.why, 80)}` : ''}`);
}

// ---------------------------------------------------------------- report
console.log(`\nSchema ${path.relative(ROOT, SCHEMA_PATH)}: strict draft 2020-12 compile ok; ${propertyCount} properties with descriptions and examples; ${exampleCount} examples valid; ${snippets.length} snippets; widget part from dtx sim --inputs-json: ${Object.keys(tables).join(', ')}\n`);
console.log('Shipped packs (schema via the pack\'s own "$schema"; engine: dtx lint --no-run FILE)');
printTable(['pack', 'schema', 'engine', 'note'], shippedRows);
console.log('\nMalformed packs (tests/malformed/; JSON syntax errors count as rejected)');
printTable(['file', 'schema', 'engine', 'why the schema rejects it / why it cannot'], malformedRows);
console.log('\nProbes (tests/schema/probes.mjs): schema and engine against each probe\'s stated verdict');
printTable(['group', 'probes', 'valid', 'invalid', 'listed exceptions', 'failing'],
  [...groups].map(([name, g]) => [name, g.total, g.valid, g.invalid, g.exceptions, g.bad]));
console.log('\nListed exceptions: rules only lint can check, where the schema is stricter, engine findings');
printTable(['probe', 'schema', 'engine', 'why'], exceptionRows);

if (failures.length) {
  console.log(`\n${failures.length} FAILURE${failures.length === 1 ? '' : 'S'}:`);
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
const broken = malformed.filter((f) => (malformedExpected[f] || {}).stage !== 'warn').length;
console.log(`\nAll good: ${shipped.length} shipped packs accepted by both, ${broken} malformed packs rejected by the engine (${broken - Object.keys(SCHEMA_BLIND_MALFORMED).length} also by the schema) and ${malformed.length - broken} that only warn, ${probes.length} probes agree.`);
