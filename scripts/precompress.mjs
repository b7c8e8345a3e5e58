#!/usr/bin/env node
// Writes compressed copies of the static site for servers that send them as they are
// (nginx gzip_static / brotli_static, Caddy's `precompressed`, the Apache rules in
// docs/self-hosting.md):
//
//   node scripts/precompress.mjs DIR
//
// For every file under DIR whose type compresses (COMPRESSIBLE below), FILE.gz (gzip, level 9)
// and FILE.br (brotli, quality 11) go beside it. A copy that is not at least 5% smaller than the
// file is not worth a second request path: it is not written, and an old one is removed.
// FILE.gz and FILE.br whose FILE is gone are removed. Each copy gets its file's modification
// time, which is also how a later run knows it is current: a copy whose mtime equals its file's
// is left alone, so a run over an unchanged folder only reads directories and stats files
// (a file whose copies were not worth keeping is compressed again to find that out).
// Node's built-in zlib only. Prints one line: files, raw KiB, gzip KiB, brotli KiB (a file
// without a copy counts at its raw size, as a server would send it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const FONTS = new Set(['.otf', '.ttf']);
const BINARY = new Set(['.wasm']);  // compresses well, but is neither text nor a font
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.webmanifest',
                              '.otf', '.ttf', '.txt', '.map']);
const ENCODINGS = ['.gz', '.br'];
const MIN_SAVING = 0.05;

const dir = process.argv[2];
if (!dir || process.argv.length > 3) {
  console.error('usage: node scripts/precompress.mjs DIR');
  process.exit(2);
}
if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`precompress: ${dir} is not a directory`);
  process.exit(1);
}

const compressible = (file) => COMPRESSIBLE.has(path.extname(file).toLowerCase());

// Every regular file under `root` (symbolic links are not followed).
function walk(root) {
  const files = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, entry.name);
    if (entry.isDirectory()) files.push(...walk(p));
    else if (entry.isFile()) files.push(p);
  }
  return files;
}

// Node sets times as seconds in a double, which keeps a quarter of a microsecond of the
// file's nanosecond mtime: a copy counts as current when its mtime is within 2 us of its file's
// (the seconds, all that HTTP's Last-Modified shows, are the same).
const sameTime = (a, b) => Math.abs(a.mtimeMs - b.mtimeMs) < 0.002;

const files = walk(dir);
const present = new Set(files);
const removed = [];
const remove = (p) => { fs.rmSync(p, { force: true }); removed.push(p); };

// Copies whose file is gone. Only names this script would write (a compressible type plus
// .gz/.br): a .gz shipped as content in its own right (data.tar.gz) stays.
// Also the temporary files of an interrupted run (FILE.gz.tmp-PID).
for (const f of files) {
  if (/\.(gz|br)\.tmp-\d+$/.test(f)) { remove(f); continue; }
  const enc = path.extname(f);
  if (!ENCODINGS.includes(enc)) continue;
  const original = f.slice(0, -enc.length);
  if (compressible(original) && !present.has(original)) remove(f);
}

const totals = { files: 0, raw: 0, gz: 0, br: 0, written: 0 };

async function precompress(file) {
  const st = fs.statSync(file);
  totals.files++;
  totals.raw += st.size;
  const ext = path.extname(file).toLowerCase();
  let data = null;
  for (const enc of ENCODINGS) {
    const out = file + enc;
    const have = fs.statSync(out, { throwIfNoEntry: false });
    if (have && have.isFile() && sameTime(have, st)) {  // current
      totals[enc.slice(1)] += have.size;
      continue;
    }
    data ??= fs.readFileSync(file);
    const packed = enc === '.gz'
      ? await gzip(data, { level: 9 })
      : await brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [zlib.constants.BROTLI_PARAM_MODE]: FONTS.has(ext) ? zlib.constants.BROTLI_MODE_FONT
              : BINARY.has(ext) ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
          },
        });
    if (packed.length > data.length * (1 - MIN_SAVING)) {
      if (have) remove(out);
      totals[enc.slice(1)] += data.length;
      continue;
    }
    // Written beside its final name with the file's times, then renamed into place: a server
    // never sees a half-written copy, and an interrupted run leaves no copy that looks current.
    const tmp = `${out}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, packed);
    fs.utimesSync(tmp, st.atimeMs / 1000, st.mtimeMs / 1000);
    fs.renameSync(tmp, out);
    totals[enc.slice(1)] += packed.length;
    totals.written++;
  }
}

// zlib's asynchronous calls run on libuv's thread pool: a few files at a time use every core.
const queue = files.filter((f) => compressible(f));
const workers = Array.from({ length: Math.max(1, os.availableParallelism?.() ?? os.cpus().length) }, async () => {
  for (let f; (f = queue.shift()) !== undefined;) await precompress(f);
});
await Promise.all(workers);

const kib = (n) => (n / 1024).toFixed(1);
console.log(`precompress: ${totals.files} files, ${kib(totals.raw)} KiB raw, ${kib(totals.gz)} KiB gzip, ` +
            `${kib(totals.br)} KiB brotli (${totals.written} copies written, ${removed.length} removed)`);
