// Bundles the page's ES modules into classic scripts:
//
//   node scripts/build-glue.mjs OUTDIR     OUTDIR/glue.js from web/shell/glue/*.js,
//                                          OUTDIR/text-layer.js from web/shell/text-layer.js,
//                                          OUTDIR/first-screen.js from web/shell/first-screen/*.js
//                                          (scripts/inline-first-paint.mjs then puts it into index.html)
//
// The bridge's JS side (the engine's calls and the list of what window.dtxGlue defines) is
// generated from web/bridge/calls.mjs here, as the import 'dtx:bridge'. One file, not one per
// module: the page asks for it at start beside dtx.js (first-screen.js), and each further
// request would be one more on the start's path. Not minified: it is small and its stack
// traces stay readable.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bridgeJs } from './bridge.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'build/node/package.json'));

const BUNDLES = [
  { file: 'glue.js', entry: 'web/shell/glue/main.js', what: 'dtx page glue, from web/shell/glue/ (see main.js there)' },
  { file: 'text-layer.js', entry: 'web/shell/text-layer.js', what: 'dtx text layer, from web/shell/text-layer.js' },
  { file: 'first-screen.js', entry: 'web/shell/first-screen/main.js', what: 'dtx first screen, from web/shell/first-screen/ (see main.js there)' },
];

const bridge = {
  name: 'dtx-bridge',
  setup(b) {
    b.onResolve({ filter: /^dtx:bridge$/ }, () => ({ path: 'bridge', namespace: 'dtx-bridge' }));
    b.onLoad({ filter: /.*/, namespace: 'dtx-bridge' }, () => ({ contents: bridgeJs(), loader: 'js' }));
  },
};

// { 'glue.js': text, ... }: each bundle's text (the browser tests compare the page with these).
export async function bundles() {
  const esbuild = require('esbuild');
  const out = {};
  for (const b of BUNDLES) {
    const r = await esbuild.build({
      entryPoints: [path.join(root, b.entry)],
      write: false,
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      plugins: [bridge],
      // (strict, as the modules are)
      banner: { js: `// ${b.what}: bundled by scripts/build-glue.mjs.\n'use strict';` },
      legalComments: 'none',
      logLevel: 'warning',
    });
    out[b.file] = r.outputFiles[0].text;
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: node scripts/build-glue.mjs OUTDIR');
    process.exit(2);
  }
  let texts;
  try {
    texts = await bundles();
  } catch (e) {
    console.error('build-glue: ' + (e.code === 'MODULE_NOT_FOUND' ? 'esbuild is not in build/node (run scripts/deps.sh native)' : e.message));
    process.exit(1);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const [file, text] of Object.entries(texts)) fs.writeFileSync(path.join(outDir, file), text);
}
