#!/usr/bin/env node
// Writes what the page's first paint needs into the built page (run by scripts/build-dist.sh
// once the HTML map is in DIR/index.html):
//
//   node scripts/inline-first-paint.mjs DIR
//
// Every <link rel="stylesheet" href="F" data-inline> becomes <style>F's text</style>, and every
// <script src="F" data-inline> becomes <script>F's text</script>; F is then dropped from DIR (the
// page no longer asks for it). Then the SHA-256 of every inline <script> and <style> block of the
// page goes into its Content-Security-Policy <meta> (script-src, style-src), so the policy
// allows exactly that code and no other inline code.
//
// Why: as files, dtx.css and first-screen.js are the two requests the first paint would wait
// for, 10-25 ms each even from the service worker's cache by a static route (make bench;
// docs/performance.md).
//
// Each file is minified (esbuild, from build/node: comments and spaces out, as for
// sandbox-worker.js) before it goes in: the page's first paint parses every byte of it (the
// sources' comments were more than half of them).
//
// An inline block must not contain what would end it early or change how the HTML parser reads
// it ("</script", "<!--" or "<script" in a script, "</style" in a style): such a file is an
// error naming it, never a page that breaks in the browser.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { minifyInline } from './minify-inline.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/inline-first-paint.mjs DIR');
  process.exit(2);
}
const indexPath = path.join(dir, 'index.html');
let html = fs.readFileSync(indexPath, 'utf8');
const fail = (msg) => { console.error(`inline-first-paint: ${msg}`); process.exit(1); };

function minify(text, file, loader) {
  try {
    return minifyInline(text, loader);
  } catch (e) {
    fail(`${path.join(dir, file)}: cannot minify (esbuild from build/node; run scripts/deps.sh native): ${e.message.split('\n').slice(0, 3).join(' ')}`);
  }
}

const inlined = new Set();
function read(file, tag) {
  if (!/^[A-Za-z0-9._-]+$/.test(file)) fail(`${indexPath}: ${tag} data-inline names "${file}": expected a file name in the site's folder`);
  const p = path.join(dir, file);
  if (!fs.existsSync(p)) fail(`${indexPath}: ${tag} data-inline names ${file}, which is not in ${dir}`);
  inlined.add(p);
  return fs.readFileSync(p, 'utf8');
}
function check(text, file, kind) {
  const bad = kind === 'script' ? /<\/script|<!--|<script/i : /<\/style/i;
  const m = bad.exec(text);
  if (!m) return;
  const line = text.slice(0, m.index).split('\n').length;
  fail(`${path.join(dir, file)}:${line}: "${m[0]}" would end or change the inline <${kind}> block; write it otherwise (e.g. '<\\/' + 'script')`);
}

let styles = 0, scripts = 0;
html = html.replace(/<link rel="stylesheet" href="([^"]*)" data-inline>/g, (_, file) => {
  const source = read(file, '<link>');
  check(source, file, 'style');
  const css = minify(source, file, 'css');
  check(css, file + ' (minified)', 'style');
  styles++;
  return `<style>${css}</style>`;
});
html = html.replace(/<script src="([^"]*)"( [^>]*)? data-inline><\/script>/g, (_, file, attrs) => {
  const source = read(file, '<script>');
  check(source, file, 'script');
  const js = minify(source, file, 'js');
  check(js, file + ' (minified)', 'script');
  scripts++;
  return `<script${attrs || ''}>${js}</script>`;
});
if (/<[a-z]+\b[^>]*\sdata-inline\b/i.test(html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, ''))) fail(`${indexPath}: a data-inline element this script does not know (expected <link rel="stylesheet" href="F" data-inline> or <script src="F" data-inline></script>)`);

// Every inline block of the page, ours or not (index.html's one-line call after the map).
const hash = (text) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const hashes = { script: new Set(), style: new Set() };
for (const m of html.matchAll(/<(script|style)(\s[^>]*)?>([\s\S]*?)<\/\1>/g)) {
  if (m[1] === 'script' && /\ssrc=/.test(m[2] || '')) continue;
  hashes[m[1]].add(hash(m[3]));
}
const CSP_RE = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)/;
const csp = CSP_RE.exec(html);
if (!csp) fail(`${indexPath} has no Content-Security-Policy <meta>`);
let policy = csp[2];
for (const kind of ['script', 'style']) {
  if (!hashes[kind].size) continue;
  const re = new RegExp(`(^|;\\s*)(${kind}-src)([^;]*)`);
  if (!re.test(policy)) fail(`${indexPath}: the policy has no ${kind}-src for the inline ${kind} blocks`);
  policy = policy.replace(re, (_, pre, name, list) => `${pre}${name}${list.replace(/\s+'sha256-[^']*'/g, '')} ${[...hashes[kind]].join(' ')}`);
}
html = html.replace(CSP_RE, (_, a, __, c) => a + policy + c);
fs.writeFileSync(indexPath, html);
for (const p of inlined) fs.rmSync(p);
console.log(`inline-first-paint: ${styles} style sheet(s) and ${scripts} script(s) written into index.html; ` +
  `${hashes.script.size} script and ${hashes.style.size} style hash(es) in its policy`);
