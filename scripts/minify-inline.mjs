// How scripts/inline-first-paint.mjs minifies a file before writing it into index.html
// (esbuild from build/node: comments and spaces out, names shortened). Shared with the browser
// tests, which check that the page's inline blocks are exactly its files so minified.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let esbuild = null;

// text: a file's text; loader: 'js' or 'css'. Throws when esbuild is missing or cannot read it.
export function minifyInline(text, loader) {
  if (!esbuild) esbuild = createRequire(path.join(root, 'build/node/package.json'))('esbuild');
  // (charset utf8: the marks ✓ ● ○ stay characters, not escapes)
  return esbuild.transformSync(text, {
    loader, minify: true, legalComments: 'none', charset: 'utf8', target: loader === 'js' ? 'es2020' : 'chrome90',
  }).code.trim();
}
