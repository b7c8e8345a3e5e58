// Shared by the schema tests: ajv from build/node/, the pack schema compiled strictly, and the
// engine's verdict on the same files (`dtx lint`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMA_PATH = path.join(ROOT, 'exercises/schema/pack.schema.json');
export const SCHEMA_URL = pathToFileURL(SCHEMA_PATH).href;

// Keywords that editors read and validators ignore: VS Code's message for a failed pattern and
// its completion snippets. Strict mode refuses unknown keywords unless they are declared.
const EDITOR_KEYWORDS = ['patternErrorMessage', 'defaultSnippets'];

export function loadAjv2020() {
  const nodeDir = path.join(ROOT, 'build/node/');
  try {
    return createRequire(nodeDir)('ajv/dist/2020').default;
  } catch (e) {
    throw new Error(`ajv not found under ${nodeDir}node_modules (${e.code || e.message}); ` +
                    'run `scripts/deps.sh browser` (`make test` does)');
  }
}

// Strict draft 2020-12, with two documented relaxations: union types ("type": ["string",
// "number"]) are how the engine's "expression or number" fields are written, and
// strictRequired cannot see properties declared beside an anyOf (it reports
// {"anyOf": [{"required": ["rel"]}, ...]} though "rel" is declared); check.mjs checks instead
// that every required name is declared in the schema.
export function compileSchema() {
  const Ajv2020 = loadAjv2020();
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    strictRequired: false,
    allErrors: true,
    verbose: true,
  });
  ajv.addVocabulary(EDITOR_KEYWORDS);
  const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8'));
  // Registered under its file URL, so a pack's relative "$schema" resolves to it (see
  // validatorFor) the way an editor resolves it relative to the pack file.
  ajv.addSchema(schema, SCHEMA_URL);
  const validate = ajv.getSchema(SCHEMA_URL);
  return { ajv, schema, validate };
}

// The validator a pack names in "$schema", resolved relative to the pack's own path.
export function validatorFor(ajv, packFile, ref) {
  if (typeof ref !== 'string') return null;
  const url = pathToFileURL(path.resolve(path.dirname(packFile), ref)).href;
  return ajv.getSchema(url) || null;
}

// JSON text -> value, as an editor reads it: a UTF-8 byte-order mark is not content.
export function parseJson(text) {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (e) {
    return { syntaxError: e.message };
  }
}

// ajv's errors in words: the pointer, then the message an editor would show.
export function describeErrors(errors, limit = 3) {
  // propertyNames reports twice (the name's enum, then "property name must be valid").
  const shown = (errors || []).filter((e) => !['if', 'anyOf', 'allOf', 'propertyNames'].includes(e.keyword)).slice(0, limit);
  return shown.map((e) => {
    if (e.params && e.params.propertyName !== undefined && e.keyword === 'enum')
      return `${e.instancePath || '/'}: unknown field "${e.params.propertyName}"`;
    const msg = e.keyword === 'pattern' && e.parentSchema && e.parentSchema.patternErrorMessage
      ? e.parentSchema.patternErrorMessage
      : e.keyword === 'additionalProperties' ? `unknown field "${e.params.additionalProperty}"`
      : e.keyword === 'unevaluatedProperties' ? `unknown field "${e.params.unevaluatedProperty}"`
      : e.message;
    return `${e.instancePath || '/'}: ${msg}`;
  }).join('; ');
}

// The schema's verdict on JSON text: rejected when it does not parse or does not validate.
export function schemaVerdict(validate, text) {
  const parsed = parseJson(text);
  if (parsed.syntaxError) return { ok: false, why: `not JSON: ${parsed.syntaxError}` };
  const ok = validate(parsed.value);
  return { ok, why: ok ? '' : describeErrors(validate.errors) };
}

// `dtx lint --no-run --json PATH...`: exit status and the error diagnostics by file.
export function engineLint(dtx, paths, { run = false } = {}) {
  const args = ['lint', ...(run ? [] : ['--no-run']), '--json', ...paths];
  const r = spawnSync(dtx, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`could not run ${dtx}: ${r.error.message}`);
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${dtx} ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
  let diagnostics;
  try {
    diagnostics = JSON.parse(r.stdout);
  } catch (e) {
    throw new Error(`${dtx} lint --json printed something that is not JSON: ${r.stdout.slice(0, 200)}`);
  }
  const errorsByFile = new Map();
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const key = path.resolve(d.file);
    if (!errorsByFile.has(key)) errorsByFile.set(key, []);
    errorsByFile.get(key).push(`${d.code} ${d.pointer || '/'}: ${d.message}`);
  }
  return { status: r.status, errorsByFile, stderr: r.stderr };
}

// Prints rows as an aligned table.
export function printTable(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === r.length - 1 ? String(c) : String(c).padEnd(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function clip(s, n = 90) {
  s = String(s).replace(/\s+/g, ' ');
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
