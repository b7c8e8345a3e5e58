// The service worker: dtx works offline after one visit, and a new deployment is taken in whole
// or not at all. scripts/stamp-version.mjs writes the built copy (dist/sw.js) with VERSION, a
// hash of every file of the site, and FILES, each file's SHA-256; a new build changes this
// script's bytes, which is how the browser notices it on the next visit.
//
// Why not "cache what is fetched" or "replace files as they change": a page of one build that
// gets a file of another (a pack the outline no longer matches, a dtx.js for another dtx.wasm)
// breaks in ways nobody can reproduce; JupyterLite turned its worker off over that trap. Here:
//  - install downloads every file of the new build into its own cache, dtx-VERSION, and checks
//    each against FILES; one that differs (the server was half-way through a deployment) fails
//    the install, and the old version stays until a later visit finds the server consistent;
//  - a page is pinned to the version it was opened with: everything it (and its code sandbox)
//    asks for later comes from that version's cache, also after a newer version activates;
//  - a navigation opens the newest complete version; the page says "updated" (glue.js);
//  - a version is deleted once no open page uses it;
//  - the page itself (which holds what its first paint needs: scripts/inline-first-paint.mjs)
//    comes from the version's cache by a static route (InstallEvent.addRoutes, Chrome 123 and
//    later): the browser answers it without starting this worker, which cost a second visit
//    40-60 ms before its first paint (make bench). The page's later requests come here and pin it to
//    the version its routes served; should a newer version have activated in between (its
//    install finishing in those few milliseconds), glue.js sees that its page and its pin
//    differ and reloads once. Browsers without static routes get the same answers from the
//    fetch handler below;
//  - `?pack=` previews (an instructor's draft, re-read as it is saved) go to the network first,
//    falling back to the cache offline; `make serve --watch` serves a script that removes the
//    worker (scripts/serve.mjs), so live reload never sees a cached file.
'use strict';
const VERSION = '%%DTX_VERSION%%';
const FILES = /*%%DTX_FILES%%*/ {};
const PREFIX = 'dtx-v-';
const META_CACHE = 'dtx-meta';         // '__dtx/current': the newest version; '__dtx/pin/ID': a page's
const PARALLEL = 4;                  // downloads at a time while installing
const KEPT_HEADERS = ['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy',
  'Cross-Origin-Opener-Policy', 'Cross-Origin-Embedder-Policy', 'Cross-Origin-Resource-Policy', 'X-Frame-Options'];

const scope = new URL(self.registration.scope);

// The path of a URL inside the site ("" is index.html), or null outside it.
function sitePath(url) {
  const u = new URL(url);
  if (u.origin !== scope.origin || !u.pathname.startsWith(scope.pathname)) return null;
  let p = u.pathname.slice(scope.pathname.length);
  try { p = decodeURIComponent(p); } catch (e) { return null; }
  return p === '' ? 'index.html' : p;
}

function hex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---- which version is newest, and which page uses which. Kept in the Cache API (a worker is
// stopped and started at will; memory does not survive), one entry each: two workers (the old
// one still serving its pages, the new one activating) never overwrite each other's entries.
const metaKey = (name) => new URL('__dtx/' + name, scope);
async function metaGet(name) {
  const hit = await (await caches.open(META_CACHE)).match(metaKey(name));
  return hit ? hit.text() : null;
}
async function metaPut(name, value) {
  await (await caches.open(META_CACHE)).put(metaKey(name), new Response(value));
}
const currentVersion = () => metaGet('current');
const pinOf = (clientId) => (clientId ? metaGet('pin/' + clientId) : Promise.resolve(null));
const pin = (clientId, version) => metaPut('pin/' + clientId, version);

// URLPattern syntax characters in the site's own path (a folder named "dtx (copy)") are literal.
const literal = (s) => s.replace(/[\\:*(){}+?]/g, '\\$&');

// ---- install: the whole build, checked, or nothing
self.addEventListener('install', (event) => {
  if (event.addRoutes) {
    const source = { cacheName: PREFIX + VERSION };
    const base = literal(scope.pathname);
    // (a navigation with a query, ?pack= or ?assign=, is the fetch handler's; a miss in the
    // cache goes to the network)
    event.waitUntil(event.addRoutes([
      { condition: { requestMode: 'navigate', requestMethod: 'GET', urlPattern: { pathname: base + '{index.html}?', search: '' } }, source },
    ]).catch(() => { /* the fetch handler answers it */ }));
  }
  event.waitUntil((async () => {
    const cache = await caches.open(PREFIX + VERSION);
    const have = new Set((await cache.keys()).map((r) => sitePath(r.url)));
    const todo = Object.keys(FILES).filter((p) => !have.has(p));
    let next = 0;
    async function worker() {
      while (next < todo.length) {
        const path = todo[next++];
        // no-cache: revalidated with the server (a 304 costs nothing), never a stale HTTP copy
        const res = await fetch(new Request(new URL(path, scope), { cache: 'no-cache', credentials: 'same-origin' }));
        if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
        const body = await res.arrayBuffer();
        const sum = hex(await crypto.subtle.digest('SHA-256', body));
        if (sum !== FILES[path]) throw new Error(`${path} is not the file of version ${VERSION} (a deployment under way?)`);
        const headers = { 'Content-Type': res.headers.get('Content-Type') || 'application/octet-stream', 'X-Dtx-Version': VERSION };
        // The host's security headers stay with the copy: a page or the sandbox's worker served
        // from it keeps the policy the server gave (a CSP header is the only one a worker has).
        for (const h of KEPT_HEADERS) if (res.headers.has(h)) headers[h] = res.headers.get(h);
        await cache.put(new URL(path, scope), new Response(body, { headers }));
        // The page under the site's own address too: a static route looks a navigation up by
        // its URL, and "/" missed "/index.html" (it then went to the network; offline, nowhere).
        if (path === 'index.html') await cache.put(scope, new Response(body, { headers }));
      }
    }
    try {
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    } catch (e) {
      await caches.delete(PREFIX + VERSION);  // never a half version
      throw e;
    }
    // Pages open on an older version keep it (they are pinned), so the new one may start now.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    await metaPut('current', VERSION);
    await self.clients.claim();
    await cleanUp();
  })());
});

// Versions no open page uses, and pins of pages that are gone, are dropped.
async function cleanUp() {
  const open = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id));
  const meta = await caches.open(META_CACHE);
  const keep = new Set([PREFIX + (await currentVersion())]);
  for (const req of await meta.keys()) {
    const m = /\/__dtx\/pin\/(.+)$/.exec(new URL(req.url).pathname);
    if (!m) continue;
    if (!open.has(decodeURIComponent(m[1]))) { await meta.delete(req); continue; }
    const hit = await meta.match(req);
    if (hit) keep.add(PREFIX + (await hit.text()));
  }
  for (const name of await caches.keys())
    if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
}

self.addEventListener('message', (event) => {
  // A page asks again when this worker is stuck waiting (glue.js, nudgeWaiting).
  if (event.data === 'dtx-skip-waiting') { event.waitUntil(self.skipWaiting()); return; }
  // glue.js asks which version serves it (the "updated" note, the tests).
  if (event.data === 'dtx-version' && event.source) {
    Promise.all([pinOf(event.source.id), currentVersion()])
      .then(([mine, current]) => event.source.postMessage({ dtxVersion: mine, current }));
  }
});

// ---- fetch
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const path = sitePath(req.url);
  if (path === null || path === 'sw.js' || path.startsWith('__dtx/')) return;  // the network's
  event.respondWith(answer(event, path));
});

async function fromCache(version, path) {
  if (!version || version === 'network') return null;
  const cache = await caches.open(PREFIX + version);
  return cache.match(new URL(path, scope));
}

async function networkFirst(req, version, path) {
  try {
    return await fetch(req);
  } catch (e) {
    const hit = await fromCache(version, path);
    if (hit) return hit;
    throw e;
  }
}

// The version a request belongs to: its page's (or worker's) pin; else that of the page whose
// address is the request's referrer; else the newest, to which the page is then pinned (a page
// whose navigation a static route answered comes here first with its later requests).
async function versionOf(event) {
  const own = await pinOf(event.clientId);
  if (own) return own;
  const v = await unpinnedVersion(event);
  if (v && event.clientId) pin(event.clientId, v).catch(() => {});
  return v;
}
async function unpinnedVersion(event) {
  const ref = event.request.referrer;
  if (ref) {
    for (const c of await self.clients.matchAll({ type: 'all' })) {
      if (c.url !== ref) continue;
      const v = await pinOf(c.id);
      if (v) return v;
    }
  }
  return currentVersion();
}

async function answer(event, path) {
  const req = event.request;
  const current = await currentVersion();
  if (req.mode === 'navigate') {
    const url = new URL(req.url);
    const preview = url.searchParams.has('pack');
    const version = preview || !current ? 'network' : current;
    if (event.resultingClientId) pin(event.resultingClientId, version).then(cleanUp, () => {});
    // A navigation is the page itself, whatever its query (?assign=, ?instructor), unless it
    // names another page of the site (accessibility.html): then that page.
    const page = path && path !== 'index.html' && path.endsWith('.html') ? path : 'index.html';
    if (version === 'network') return networkFirst(req, current, page);
    return (await fromCache(version, page)) || fetch(req);
  }
  const version = await versionOf(event);
  // A worker the page starts (the code sandbox) is pinned with it: its own requests
  // (quickjs.wasm) come from the same version.
  if (req.destination === 'worker' && event.resultingClientId && version) pin(event.resultingClientId, version).catch(() => {});
  if (version === 'network') return networkFirst(req, current, path);
  // Files of the build come from its cache; anything else (a ?pack= URL, an assignment added
  // after the build) from the network.
  return (await fromCache(version, path)) || fetch(req);
}
