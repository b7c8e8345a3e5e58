// A small static file server for dist/ (make serve). Any static server works; this one
// needs nothing beyond node, sends the right MIME type for .wasm, never lists folders and
// never serves outside the root.
//
//   node scripts/serve.mjs DIR [--port N] [--base /sub/path/] [--quiet]
//
// --base serves the site under a sub-path (the tests use it to prove there are no absolute
// URLs). PORT in the environment is the default port. A busy port is a clear error.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const root = path.resolve(args[0] || 'dist');
let port = Number(process.env.PORT || 8080);
let base = '/';
let quiet = false;
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--port') port = Number(args[++i]);
  else if (args[i] === '--base') base = args[++i];
  else if (args[i] === '--quiet') quiet = true;
}
if (!base.startsWith('/')) base = '/' + base;
if (!base.endsWith('/')) base += '/';
if (!fs.existsSync(path.join(root, 'index.html'))) {
  console.error(`serve: ${root}/index.html not found; run \`make dist\` first`);
  process.exit(1);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.otf': 'font/otf', '.ttf': 'font/ttf',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.css': 'text/css; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
};

const server = http.createServer((req, res) => {
  let url;
  try { url = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { res.writeHead(400).end(); return; }
  if (!url.startsWith(base)) {
    if (url === base.slice(0, -1)) { res.writeHead(301, { Location: base }).end(); return; }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  let rel = url.slice(base.length);
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const file = path.resolve(root, rel);
  if (file !== root && !file.startsWith(root + path.sep)) { res.writeHead(403).end(); return; }
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': st.size,
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') { res.end(); return; }
    fs.createReadStream(file).pipe(res);
  });
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
  if (!quiet) console.log(`dtx is served from ${root}\nopen http://localhost:${addr.port}${base}  (Ctrl+C stops)`);
  else console.log(`http://localhost:${addr.port}${base}`);
});
