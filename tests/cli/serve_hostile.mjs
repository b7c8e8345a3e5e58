// The dev server (scripts/serve.mjs) against requests any open page or local program can
// send: a NUL in the path, broken percent-encoding, '..' segments, a Host that is not this
// server (DNS rebinding), a symbolic link out of the served folder, a request that is not
// HTTP. Each gets its 4xx answer, nothing outside the folders is sent, and the server still
// serves a good request afterwards.
//
//   node tests/cli/serve_hostile.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};

// A site folder, a watched exercises folder, and a secret beside them that links point at.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dtx-serve-'));
const site = path.join(tmp, 'site');
const packs = path.join(tmp, 'packs');
fs.mkdirSync(site);
fs.mkdirSync(packs);
fs.writeFileSync(path.join(site, 'index.html'),
  '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'"><p>dtx test page</p>');
fs.writeFileSync(path.join(packs, 'index.json'), '{"packs": []}');
fs.writeFileSync(path.join(tmp, 'secret.txt'), 'SECRET-OUTSIDE');
fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(site, 'leak.txt'));
fs.symlinkSync(tmp, path.join(site, 'up'));
fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(packs, 'leak.json'));
fs.writeFileSync(path.join(site, 'inner.txt'), 'INSIDE');
fs.symlinkSync(path.join(site, 'inner.txt'), path.join(site, 'alias.txt'));  // a link that stays inside

const server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), site, '--port', '0', '--quiet', '--watch', packs],
  { stdio: ['ignore', 'pipe', 'pipe'] });
let exited = null;
server.on('exit', (code) => { exited = code; });
const port = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/localhost:(\d+)/);
    if (m) resolve(Number(m[1]));
  });
  server.stderr.on('data', (d) => { out += d; });
  server.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
});

// One request written byte for byte (a client library would refuse a NUL or fix the path);
// resolves with the status and the body.
function raw(requestLine, host = `localhost:${port}`) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    sock.on('data', (d) => { data += d; });
    sock.on('error', () => resolve({ status: 0, body: '' }));
    sock.on('close', () => {
      const m = data.match(/^HTTP\/1\.1 (\d+)/);
      resolve({ status: m ? Number(m[1]) : 0, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    const hostLine = host === null ? '' : `Host: ${host}\r\n`;
    sock.write(`${requestLine}\r\n${hostLine}Connection: close\r\n\r\n`);
  });
}
const get = (p, host) => raw(`GET ${p} HTTP/1.1`, host);

try {
  let r = await get('/');
  check(r.status === 200 && r.body.includes('dtx test page'), 'the page is served to Host localhost:PORT');
  check((await get('/', `127.0.0.1:${port}`)).status === 200, 'and to Host 127.0.0.1:PORT');
  check((await get('/', `[::1]:${port}`)).status === 200, 'and to Host [::1]:PORT');

  r = await get('/index.html%00.txt');
  check(r.status === 400, `a %00 in the path: 400 (got ${r.status})`);
  r = await get('/index.html\u0000');
  check(r.status === 400, `a raw NUL in the path: 400 (got ${r.status})`);
  check((await get('/%E0%A4%A')).status === 400, 'broken percent-encoding: 400');
  check((await get('/%2e%2e/secret.txt')).status === 400, 'an encoded ".." segment: 400');
  check((await get('/exercises/%2e%2e/%2e%2e/secret.txt')).status === 400, 'an encoded ".." under exercises/: 400');
  check((await get('/..%5csecret.txt')).status === 400, 'an encoded backslash: 400');

  r = await get('/', 'evil.example');
  check(r.status === 421, `Host evil.example: 421 (got ${r.status})`);
  check((await get('/', 'localhost')).status === 421, 'Host localhost without the port (port 80 is not this server): 421');
  check((await get('/', `localhost:${port + 1}`)).status === 421, 'Host localhost at another port: 421');
  check((await get('/', `attacker.example:${port}`)).status === 421, 'a rebound name at this port: 421');
  check((await get('/', null)).status === 400, 'no Host at all: 400');
  check((await get('/exercises/index.json', 'evil.example')).status === 421, 'the watched folder checks Host too');

  for (const p of ['/leak.txt', '/up/secret.txt', '/exercises/leak.json']) {
    r = await get(p);
    check(r.status === 403 && !r.body.includes('SECRET'), `${p}, a link out of the folder: 403, nothing sent (got ${r.status})`);
  }
  r = await get('/alias.txt');
  check(r.status === 200 && r.body.includes('INSIDE'), 'a link that stays inside the folder is served');

  r = await raw('NOT HTTP AT ALL');
  check(r.status === 400, `a request that is not HTTP: 400 (got ${r.status})`);

  r = await get('/exercises/index.json');
  check(r.status === 200 && r.body.includes('packs'), 'after all of that the server still serves');
  check(exited === null, 'the server is still running');
} finally {
  server.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
}
if (failures) {
  console.log(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('dev server: every hostile request refused, still serving');
