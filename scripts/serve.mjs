// A small static file server for dist/ (make serve). Any static server works; this one
// needs nothing beyond node, sends the right MIME type for .wasm, never lists folders and
// never serves outside the root.
//
//   node scripts/serve.mjs DIR [--port N] [--base /sub/path/] [--watch EXERCISES_DIR] [--quiet]
//
// --base serves the site under a sub-path (the tests use it to prove there are no absolute
// URLs). PORT in the environment is the default port. A busy port is a clear error.
//
// --watch (make serve uses it) is for writing exercises: the site's exercises/ folder is
// served straight from EXERCISES_DIR, so a saved pack is served at once without a rebuild,
// and the open page is told which file changed (Server-Sent Events on __dtx/events) and
// re-reads it within a second, keeping the student's place. Answers carry `X-Dtx-Dev: 1`,
// which is how the page knows to listen; a plain static host sends neither.
//
// Requests are checked before anything is read: a Host other than localhost, 127.0.0.1 or
// [::1] at this server's port gets 421 (a page on another site could otherwise read the
// served files through a DNS name rebound to 127.0.0.1), a path that does not decode, holds a
// NUL or a backslash, or has a '..' segment gets 400, and a file is served only when its real
// path (symbolic links followed) is inside DIR or EXERCISES_DIR. No request stops the server.
//
// Every file goes out with the page's Content-Security-Policy as a header (read from the
// <meta> in DIR/index.html, so there is one policy), plus frame-ancestors 'none', which a
// <meta> cannot carry. The header matters beyond the page: a dedicated worker
// (sandbox-worker.js) does not inherit the page's <meta> policy but takes the one its own
// script is served with, and the tests should run under the header form a host would send.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const root = path.resolve(args[0] || 'dist');
let port = Number(process.env.PORT || 8080);
let base = '/';
let quiet = false;
let watchDir = null;
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--port') port = Number(args[++i]);
  else if (args[i] === '--base') base = args[++i];
  else if (args[i] === '--watch') watchDir = path.resolve(args[++i]);
  else if (args[i] === '--quiet') quiet = true;
}
if (watchDir && !fs.existsSync(path.join(watchDir, 'index.json'))) {
  console.error(`serve: ${watchDir}/index.json not found; --watch takes the exercises folder`);
  process.exit(1);
}
if (!base.startsWith('/')) base = '/' + base;
if (!base.endsWith('/')) base += '/';
if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error(`serve: ${root}/index.html not found; run \`make dist\` first`);
  process.exit(1);
}

// The policy as docs/self-hosting.md tells hosts to send it.
const metaCsp = fs.readFileSync(path.join(root, 'index.html'), 'utf8')
  .match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
if (!metaCsp) {
  console.error(`serve: ${root}/index.html has no Content-Security-Policy <meta>; run \`make dist\` again`);
  process.exit(1);
}
const CSP = { 'Content-Security-Policy': `${metaCsp[1]}; frame-ancestors 'none'` };

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.otf': 'font/otf', '.ttf': 'font/ttf',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.css': 'text/css; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

// ---- --watch: who listens, and what changed
const listeners = new Set();
const DEV = watchDir ? { 'X-Dtx-Dev': '1' } : {};
if (watchDir) {
  const timers = new Map();
  // Editors save in several writes (or write a temp file and rename): tell the page once,
  // 150 ms after the last event for that file.
  fs.watch(watchDir, (event, name) => {
    if (!name || !name.endsWith('.json')) return;
    clearTimeout(timers.get(name));
    timers.set(name, setTimeout(() => {
      timers.delete(name);
      const msg = `data: ${JSON.stringify({ file: name })}\n\n`;
      for (const res of listeners) res.write(msg);
      if (!quiet) console.log(`changed: ${name} (told ${listeners.size} open page${listeners.size === 1 ? '' : 's'})`);
    }, 150));
  });
}

function sendEvents(req, res) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', ...DEV });
  res.write(': dtx pack changes\n\n');
  listeners.add(res);
  const ping = setInterval(() => res.write(': ping\n\n'), 20000);
  req.on('close', () => { clearInterval(ping); listeners.delete(res); });
}

// The real folders files may come from (symbolic links in their own paths resolved once).
const realRoot = fs.realpathSync(root);
const realWatch = watchDir ? fs.realpathSync(watchDir) : null;
const inside = (file, dir) => file === dir || file.startsWith(dir + path.sep);
let listeningPort = port;

// The Host header names this server: localhost, 127.0.0.1 or [::1], at its port.
function hostAllowed(host) {
  if (typeof host !== 'string') return false;
  const m = host.toLowerCase().match(/^(localhost|127\.0\.0\.1|\[::1\])(?::(\d+))?$/);
  return !!m && Number(m[2] || 80) === listeningPort;
}

// The request's path decoded, or null when it is malformed: bad percent-encoding, a NUL or
// other control character, a backslash, or a '.' or '..' segment (raw or encoded).
function decodedPath(reqUrl) {
  if (typeof reqUrl !== 'string' || !reqUrl.startsWith('/')) return null;
  const raw = reqUrl.split(/[?#]/, 1)[0];
  let decoded;
  try { decoded = decodeURIComponent(raw); } catch { return null; }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return null;
  if (decoded.split('/').some((seg) => seg === '..' || seg === '.')) return null;
  return decoded;
}

function refuse(res, status, why) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(why + '\n');
}

// Serves `file` (under `dir`) when its real path is still inside the real `dir`.
function sendFile(req, res, file, dir) {
  fs.realpath(file, (rerr, real) => {
    if (rerr) { refuse(res, 404, 'not found'); return; }
    if (!inside(real, dir === watchDir ? realWatch : realRoot)) { refuse(res, 403, 'outside the served folder'); return; }
    fs.stat(real, (err, st) => {
      if (err || !st.isFile()) { refuse(res, 404, 'not found'); return; }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Content-Length': st.size,
        'Cache-Control': 'no-cache',
        ...CSP,
        ...DEV,
      });
      if (req.method === 'HEAD') { res.end(); return; }
      const stream = fs.createReadStream(real);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    });
  });
}

const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (e) {
    // A bug here answers one request with 500; the server goes on serving the others.
    if (!quiet) console.error(`serve: ${req.url}: ${e && e.message}`);
    if (!res.headersSent) refuse(res, 500, 'server error');
    else res.destroy();
  }
});

function handle(req, res) {
  if (!hostAllowed(req.headers.host)) {
    refuse(res, req.headers.host ? 421 : 400, 'this server answers only to localhost, 127.0.0.1 and [::1] at its port');
    return;
  }
  const url = decodedPath(req.url);
  if (url === null) { refuse(res, 400, 'malformed path'); return; }
  if (!url.startsWith(base)) {
    if (url === base.slice(0, -1)) { res.writeHead(301, { Location: base }).end(); return; }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  let rel = url.slice(base.length);
  if (watchDir && rel === '__dtx/events') { sendEvents(req, res); return; }
  // With --watch nothing may come from a cache: a service worker this origin registered
  // before (a `make dist` site served here) is replaced by one that removes itself.
  if (watchDir && rel === 'sw.js') {
    const body = "'use strict';\n// make serve --watch: no offline copy; this removes the worker a built site registered here.\n" +
      "self.addEventListener('install', () => self.skipWaiting());\n" +
      "self.addEventListener('activate', (e) => e.waitUntil(self.registration.unregister().then(() => caches.keys())" +
      ".then((names) => Promise.all(names.filter((n) => n.startsWith('dtx-')).map((n) => caches.delete(n))))));\n";
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store', ...DEV }).end(body);
    return;
  }
  // With --watch the built outline (dist/exercises/outline.json) would lag behind the packs
  // being edited: the page is told there is none it may use, and reads every pack as saved.
  if (watchDir && rel === 'exercises/outline.json') {
    const body = JSON.stringify({ dtx_outline: 0, note: 'make serve --watch: no outline, every pack is read as saved' });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...DEV }).end(body);
    return;
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  // With --watch, exercises/ comes from the folder being edited.
  const from = watchDir && rel.startsWith('exercises/') ? watchDir : root;
  if (from === watchDir) rel = rel.slice('exercises/'.length);
  const file = path.resolve(from, rel);
  if (!inside(file, from)) { refuse(res, 400, 'malformed path'); return; }
  sendFile(req, res, file, from);
}

// A request that is not HTTP at all: answered 400 and closed, the server goes on.
server.on('clientError', (err, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  else socket.destroy();
});

server.on('error', (e) => {
  if (e.code === 'EADDRINUSE') {
    console.error(`serve: port ${port} is already in use. Stop what runs there, or pick another port: make serve PORT=8081`);
  } else {
    console.error(`serve: ${e.message}`);
  }
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  listeningPort = addr.port;
  if (!quiet) {
    console.log(`dtx is served from ${root}\nopen http://localhost:${addr.port}${base}  (Ctrl+C stops)`);
    if (watchDir) console.log(`exercises/ is served from ${watchDir} and watched: a pack you save is reloaded in the open page.\n` +
      `preview a pack that is not in index.json yet: http://localhost:${addr.port}${base}?pack=exercises/YOUR-PACK.json`);
  }
  else console.log(`http://localhost:${addr.port}${base}`);
});
