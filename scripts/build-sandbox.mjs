// Bundles the code sandbox (sandbox/) with esbuild:
//
//   node scripts/build-sandbox.mjs OUTDIR [worker|host|both]
//
//   worker  OUTDIR/sandbox-worker.js   the page's Web Worker (an IIFE script, browser build)
//   host    OUTDIR/dtx-sandbox-host.cjs the CLI's long-lived node host (CommonJS, node build)
//   both    (default)
// and OUTDIR/quickjs.wasm, the interpreter both load. The npm packages come from build/node/
// (scripts/deps.sh installs them); nothing is committed.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeDir = path.join(root, 'build/node');
const out = path.resolve(process.argv[2] || path.join(root, 'build/sandbox'));
const which = process.argv[3] || 'both';
const require = createRequire(path.join(nodeDir, 'package.json'));

let esbuild;
try {
  esbuild = require('esbuild');
} catch (e) {
  console.error('build-sandbox: esbuild is not in build/node (run scripts/deps.sh native): ' + e.message);
  process.exit(1);
}
fs.mkdirSync(out, { recursive: true });
const common = { bundle: true, nodePaths: [path.join(nodeDir, 'node_modules')], logLevel: 'warning', legalComments: 'none', minify: true };
const jobs = [];
if (which === 'worker' || which === 'both') {
  jobs.push(esbuild.build({ ...common, entryPoints: [path.join(root, 'sandbox/worker.js')], outfile: path.join(out, 'sandbox-worker.js'),
    platform: 'browser', format: 'iife', target: 'es2020' }));
}
if (which === 'host' || which === 'both') {
  jobs.push(esbuild.build({ ...common, entryPoints: [path.join(root, 'cli/sandbox-host.js')], outfile: path.join(out, 'dtx-sandbox-host.cjs'),
    platform: 'node', format: 'cjs', target: 'node18',
    // The interpreter's ESM loader asks for import.meta.url, which a CommonJS bundle lacks.
    define: { 'import.meta.url': '__dtx_import_meta_url' },
    banner: { js: 'const __dtx_import_meta_url = require("url").pathToFileURL(__filename).href;' } }));
}
await Promise.all(jobs);
const wasm = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
fs.copyFileSync(wasm, path.join(out, 'quickjs.wasm'));
