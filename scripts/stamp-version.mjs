#!/usr/bin/env node
// Gives a built site its version (run by scripts/build-dist.sh after everything is in DIR).
//
//   node scripts/stamp-version.mjs DIR
//
// The version is a hash of every file the site serves (their paths and SHA-256), so it
// changes exactly when a file does. It is written into DIR/index.html
// (<meta name="dtx-version">, read by glue.js for the "updated" note) and, with each file's
// SHA-256, into DIR/sw.js from web/shell/sw.js: the service worker caches that list as one
// version and refuses a download that does not match it. Precompressed copies (.gz, .br) and
// sw.js itself are not part of the list. Prints the version.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/stamp-version.mjs DIR');
  process.exit(2);
}
const META_RE = /<meta name="dtx-version" content="[0-9a-f]*">/;
const sha = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

function list(d, base = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...list(d, rel));
    else if (e.isFile() && rel !== 'sw.js' && !/\.(gz|br)$/.test(rel)) out.push(rel);
  }
  return out;
}

const indexPath = path.join(dir, 'index.html');
const html = fs.readFileSync(indexPath, 'utf8');
if (!META_RE.test(html)) {
  console.error(`stamp-version: ${indexPath} has no <meta name="dtx-version" content="">`);
  process.exit(1);
}
const blank = html.replace(META_RE, '<meta name="dtx-version" content="">');
const files = list(dir).sort();
// The version: every file as served, index.html without its own version.
const h = crypto.createHash('sha256');
for (const f of files) h.update(`${f}\0${f === 'index.html' ? sha(blank) : sha(fs.readFileSync(path.join(dir, f)))}\n`);
const version = h.digest('hex').slice(0, 16);
const stamped = blank.replace('<meta name="dtx-version" content="">', `<meta name="dtx-version" content="${version}">`);
if (stamped !== html) fs.writeFileSync(indexPath, stamped);

const sums = {};
for (const f of files) sums[f] = sha(fs.readFileSync(path.join(dir, f)));
const template = fs.readFileSync(path.join(ROOT, 'web/shell/sw.js'), 'utf8');
if (!template.includes("'%%DTX_VERSION%%'") || !template.includes('/*%%DTX_FILES%%*/ {}')) {
  console.error('stamp-version: web/shell/sw.js lacks its %%DTX_VERSION%% or %%DTX_FILES%% place');
  process.exit(1);
}
const sw = template.replace("'%%DTX_VERSION%%'", `'${version}'`).replace('/*%%DTX_FILES%%*/ {}', JSON.stringify(sums, null, 1));
const swPath = path.join(dir, 'sw.js');
if (!fs.existsSync(swPath) || fs.readFileSync(swPath, 'utf8') !== sw) fs.writeFileSync(swPath, sw);
console.log(version);
