#!/usr/bin/env node
// Rewrites the widget part of exercises/schema/pack.schema.json from the engine's own input
// tables (`dtx sim --inputs-json`), so an editor offers exactly the widget kinds and inputs
// the engine reads, with their ranges, options and help.
//
//   node scripts/schema-widgets.mjs [path/to/dtx]        (default: build/native/dtx)
//
// It replaces `$defs.widget` and every `$defs["widget-<kind>"]`, and leaves the rest of the
// schema as written. tests/schema/check.mjs fails when the schema's widget part differs from
// what this script would write, so the two cannot drift.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_PATH = path.join(ROOT, 'exercises/schema/pack.schema.json');

// A value written by the engine's expression language inside braces: "{p}", "{2*p}". The
// engine parses the inside; the schema checks the shape so a typo like "p" or "{}" shows as
// the author types.
export const BRACED = '^[ \\t\\n\\u000b\\f\\r]*\\{[^{}]*[0-9A-Za-z][^{}]*\\}[ \\t\\n\\u000b\\f\\r]*$';

export function readInputTables(dtx) {
  let text;
  try {
    text = execFileSync(dtx, ['sim', '--inputs-json'], { encoding: 'utf8' });
  } catch (e) {
    throw new Error(`could not run \`${dtx} sim --inputs-json\`: ${e.message.split('\n')[0]}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`\`${dtx} sim --inputs-json\` did not print JSON: ${e.message}`);
  }
}

// When the page shows the widget; the names are the engine's (engine/exercise_widget.h).
export const REVEAL = {
  description:
    'When a student sees the widget: "always" (the default) from the start; "after-attempt" once they have submitted an answer that counts (an unreadable one does not); "after-solve" once they have answered right (or solved the exercise before). Until then the page shows a line saying when it opens. Use it when the widget prints a figure the exercise grades. The instructor view always shows the widget.',
  enum: ['always', 'after-attempt', 'after-solve'],
  default: 'always',
  examples: ['after-attempt'],
};

function rangeText(input) {
  return `${input.integer ? 'a whole number' : 'a number'} from ${input.min} to ${input.max}`;
}

function inputSchema(input) {
  const help = input.help ? `${input.help[0].toUpperCase()}${input.help.slice(1)}` : input.label;
  if (input.options) {
    return {
      description: `${help} ("${input.label}" in the page). One of: ${input.options.join(', ')}; the widget's default is ${input.default}.`,
      enum: input.options,
      examples: [input.default],
    };
  }
  return {
    description: `${help} ("${input.label}" in the page): ${rangeText(input)}, or "{expression}" over the exercise's parameters, evaluated for each instance. The widget's default is ${input.default}.`,
    type: [input.integer ? 'integer' : 'number', 'string'],
    minimum: input.min,
    maximum: input.max,
    pattern: BRACED,
    patternErrorMessage: `Write a number, or an expression over the parameters in braces such as "{${input.name}}".`,
    examples: [input.default, `{${input.name}}`],
  };
}

// The `$defs` entries for widgets, in the engine's order of kinds.
export function widgetDefs(tables) {
  const kinds = Object.keys(tables);
  const defs = {};
  defs.widget = {
    description:
      'An animated widget shown beside the prompt, running the same simulation as the Widget Lab with inputs taken from this exercise. `kind` picks the widget; every other member sets one of its inputs (unset inputs keep the widget\'s defaults). A numeric input takes a number or "{expression}" over the exercise\'s parameters and derived values, so the widget shows the student\'s own instance; a choice takes the option\'s name.',
    type: 'object',
    required: ['kind'],
    properties: {
      $comment: { $ref: '#/$defs/comment' },
      kind: {
        description: `Which widget: ${kinds.map((k) => `${k} (${tables[k].title}: ${tables[k].summary})`).join('; ')}.`,
        enum: kinds,
        examples: [kinds[0]],
      },
      reveal: REVEAL,
    },
    allOf: kinds.map((k) => ({
      if: { properties: { kind: { const: k } }, required: ['kind'] },
      then: { $ref: `#/$defs/widget-${k}` },
    })),
    examples: [examplesFor(tables, kinds[0])],
  };
  for (const k of kinds) {
    const properties = {};
    for (const input of tables[k].inputs) properties[input.name] = inputSchema(input);
    // The allowed names are listed rather than left to "unevaluatedProperties", which would
    // also call an input unknown whenever its value is out of range.
    defs[`widget-${k}`] = {
      description: `Inputs of the "${k}" widget (${tables[k].title}): ${tables[k].summary}.`,
      type: 'object',
      propertyNames: { enum: ['$comment', 'kind', 'reveal', ...tables[k].inputs.map((i) => i.name)] },
      properties,
    };
  }
  return defs;
}

function examplesFor(tables, kind) {
  const ex = { kind };
  const numeric = tables[kind].inputs.find((i) => !i.options);
  if (numeric) ex[numeric.name] = `{${numeric.name}}`;
  return ex;
}

// The schema with its widget `$defs` replaced by `defs`; every other member keeps its place.
export function withWidgetDefs(schema, defs) {
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== '$defs') {
      out[key] = value;
      continue;
    }
    const kept = {};
    for (const [name, def] of Object.entries(value))
      if (!isWidgetDef(name)) kept[name] = def;
    out.$defs = { ...kept, ...defs };
  }
  return out;
}

export function isWidgetDef(name) {
  return name === 'widget' || name.startsWith('widget-');
}

// JSON with two-space indentation where a value that fits on one line within `width`
// columns is written on one line: enums, examples and small objects stay readable.
export function formatJson(value, width = 120) {
  const inline = (v) => {
    if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
    if (v && typeof v === 'object')
      return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')}}`;
    return JSON.stringify(v);
  };
  const write = (v, indent, prefix) => {
    const flat = inline(v);
    if (typeof v !== 'object' || v === null || indent.length + prefix.length + flat.length <= width)
      return flat;
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (!v.length) return '[]';
      return `[\n${v.map((x) => inner + write(x, inner, '')).join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(v);
    if (!entries.length) return '{}';
    const lines = entries.map(([k, x]) => {
      const key = `${JSON.stringify(k)}: `;
      return inner + key + write(x, inner, key);
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  };
  return `${write(value, '', '')}\n`;
}

function main() {
  const dtx = process.argv[2] || path.join(ROOT, 'build/native/dtx');
  const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8'));
  const next = withWidgetDefs(schema, widgetDefs(readInputTables(dtx)));
  const text = formatJson(next);
  if (text === fs.readFileSync(SCHEMA_PATH, 'utf8')) {
    console.log(`${path.relative(ROOT, SCHEMA_PATH)}: widget part already matches ${dtx}`);
    return;
  }
  fs.writeFileSync(SCHEMA_PATH, text);
  console.log(`${path.relative(ROOT, SCHEMA_PATH)}: widget part rewritten from \`${dtx} sim --inputs-json\``);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`schema-widgets: ${e.message}`);
    process.exit(1);
  }
}
