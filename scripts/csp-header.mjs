#!/usr/bin/env node
// The built page's Content-Security-Policy as an HTTP header, for a host that sends it
// (docs/self-hosting.md): the policy of DIR/index.html's <meta>, which holds the SHA-256 of
// the page's inline blocks and so changes when they do, plus frame-ancestors 'none', which a
// <meta> cannot carry. scripts/serve.mjs sends the same.
//
//   node scripts/csp-header.mjs DIR [--nginx | --apache | --caddy]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const form = process.argv[3] || '';
if (!dir || !['', '--nginx', '--apache', '--caddy'].includes(form)) {
  console.error('usage: node scripts/csp-header.mjs DIR [--nginx | --apache | --caddy]');
  process.exit(2);
}
const indexPath = path.join(dir, 'index.html');
let html;
try { html = fs.readFileSync(indexPath, 'utf8'); } catch (e) {
  console.error(`csp-header: cannot read ${indexPath}: ${e.message}`);
  process.exit(1);
}
const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
if (!m) {
  console.error(`csp-header: ${indexPath} has no Content-Security-Policy <meta>; run \`make dist\` again`);
  process.exit(1);
}
const policy = `${m[1]}; frame-ancestors 'none'`;
if (form === '--nginx') console.log(`add_header Content-Security-Policy "${policy}" always;`);
else if (form === '--apache') console.log(`Header always set Content-Security-Policy "${policy}"`);
else if (form === '--caddy') console.log(`header Content-Security-Policy "${policy}"`);
else console.log(`Content-Security-Policy: ${policy}`);
