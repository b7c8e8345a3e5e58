#!/usr/bin/env node
// Rewrites the exercise-type part of exercises/schema/pack.schema.json from the types
// themselves: the engine's registry (`dtx types --json`: names, the fields each type adds,
// the required ones, in registry order) and each type's schema file in its folder
// (types/<type>/schema.json: a one-line summary, the editor snippet, its $defs). So
// the schema offers exactly the types and fields the loader accepts, and a new type brings
// its schema with it.
//
//   node scripts/schema-types.mjs [path/to/dtx]        (default: build/native/dtx)
//
// It writes the description and enum of an exercise's "type", the if/then branch of each
// type, the editor snippets, and each type's $defs (the main one gets "required" and
// "propertyNames" from the registry); the rest of the schema is left as written.
// tests/schema/check.mjs fails when the schema's type part differs from what this writes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SCHEMA_PATH, formatJson } from './schema-widgets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// types/buggy-line/schema.json for "buggy-line": the type's folder.
export function typeSchemaPath(name) {
  return path.join(ROOT, 'types', name, 'schema.json');
}

export function readTypeTables(dtx) {
  let text;
  try {
    text = execFileSync(dtx, ['types', '--json'], { encoding: 'utf8' });
  } catch (e) {
    throw new Error(`could not run \`${dtx} types --json\`: ${e.message.split('\n')[0]}`);
  }
  const tables = JSON.parse(text);
  for (const t of tables.types) {
    const file = typeSchemaPath(t.name);
    if (!fs.existsSync(file)) throw new Error(`type "${t.name}" has no schema file ${path.relative(ROOT, file)}`);
    try {
      t.schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${path.relative(ROOT, file)}: ${e.message}`);
    }
    if (!t.schema.defs || !t.schema.defs[t.name]) throw new Error(`${path.relative(ROOT, file)}: no "defs"."${t.name}"`);
  }
  return tables;
}

// A type's main def with "required" and "propertyNames" from the registry, placed right
// after "type" (where a hand-written def has them).
function mainDef(tables, t) {
  const out = {};
  const insert = () => {
    if (t.required.length) out.required = t.required;
    out.propertyNames = { enum: ['$comment', ...tables.common, ...t.fields] };
  };
  let placed = false;
  for (const [k, v] of Object.entries(t.schema.defs[t.name])) {
    out[k] = v;
    if (k === 'type') {
      insert();
      placed = true;
    }
  }
  if (!placed) insert();
  return out;
}

// Every type's $defs, in registry order, each type's main def first.
export function typeDefs(tables) {
  const defs = {};
  for (const t of tables.types) {
    defs[t.name] = mainDef(tables, t);
    for (const [k, v] of Object.entries(t.schema.defs)) if (k !== t.name) defs[k] = v;
  }
  return defs;
}

// The parts of $defs.exercise that list the types.
export function exerciseTypeParts(tables) {
  const types = tables.types;
  return {
    type: {
      description: `The kind of exercise: ${types.map((t) => `${t.name} (${t.schema.summary})`).join(', ')}.`,
      enum: types.map((t) => t.name),
      examples: [types[0].name],
    },
    allOf: types.map((t) => ({
      if: { properties: { type: { const: t.name } }, required: ['type'] },
      then: { $ref: `#/$defs/${t.name}` },
    })),
    defaultSnippets: types.map((t) => t.schema.snippet),
  };
}

// The schema with its type part replaced; every other member keeps its place. The type defs
// go right after $defs.exercise.
export function withTypeParts(schema, tables) {
  const defs = typeDefs(tables);
  const parts = exerciseTypeParts(tables);
  const owned = new Set(Object.keys(defs));
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== '$defs') {
      out[key] = value;
      continue;
    }
    out.$defs = {};
    for (const [name, def] of Object.entries(value)) {
      if (owned.has(name) || isOldTypeDef(value, name, tables)) continue;
      if (name !== 'exercise') {
        out.$defs[name] = def;
        continue;
      }
      const ex = { ...def, properties: { ...def.properties, type: parts.type }, allOf: parts.allOf, defaultSnippets: parts.defaultSnippets };
      out.$defs.exercise = ex;
      Object.assign(out.$defs, defs);
    }
  }
  return out;
}

// A def the schema still has from a type that is gone (a branch of $defs.exercise.allOf
// names it and no type owns it): dropped with the type.
function isOldTypeDef(defs, name, tables) {
  const branches = (defs.exercise && defs.exercise.allOf) || [];
  const named = branches.some((b) => b.then && b.then.$ref === `#/$defs/${name}`);
  return named && !tables.types.some((t) => t.name === name);
}

function main() {
  const dtx = process.argv[2] || path.join(ROOT, 'build/native/dtx');
  const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8'));
  const text = formatJson(withTypeParts(schema, readTypeTables(dtx)));
  if (text === fs.readFileSync(SCHEMA_PATH, 'utf8')) {
    console.log(`${path.relative(ROOT, SCHEMA_PATH)}: type part already matches ${dtx}`);
    return;
  }
  fs.writeFileSync(SCHEMA_PATH, text);
  console.log(`${path.relative(ROOT, SCHEMA_PATH)}: type part rewritten from \`${dtx} types --json\` and types/*/schema.json`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`schema-types: ${e.message}`);
    process.exit(1);
  }
}
