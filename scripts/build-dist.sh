#!/usr/bin/env bash
# Assembles the static site from a built build/wasm/dtx.{js,wasm}:
#
#   scripts/build-dist.sh WASM_BUILD_DIR OUTDIR
#
# OUTDIR holds everything the page needs and nothing else: index.html (with dtx.css and
# first-screen.js written into it), glue.js and text-layer.js (bundled by scripts/build-glue.mjs),
# code-runner.js, sandbox-worker.js + quickjs.wasm (the code sandbox), dtx.js, dtx.wasm and
# dtx.deferred.wasm (the engine, in two parts), sw.js
# (the service worker), manifest.webmanifest and icons/,
# fonts/, exercises/index.json, the packs listed in it and their outline (exercises/outline.json),
# each exercise's first view (exercises/first/ID.html),
# and the pictures the packs show
# (every PNG, JPEG and SVG under exercises/, in the same sub-folders).
# Every URL in it is relative, so the folder works from any static server at any sub-path.
set -euo pipefail
wasm_dir=${1:?usage: scripts/build-dist.sh WASM_BUILD_DIR OUTDIR}
out=${2:?usage: scripts/build-dist.sh WASM_BUILD_DIR OUTDIR}
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out/exercises" "$out/fonts"
cp "$wasm_dir/dtx.js" "$wasm_dir/dtx.wasm" "$out/"
cp "$repo_root/web/shell/index.html" "$repo_root/web/shell/dtx.css" "$repo_root/web/shell/code-runner.js" "$repo_root/web/shell/favicon.svg" "$out/"
# The page's glue (web/shell/glue/, with the bridge's JS side from web/bridge/calls.mjs), the
# text layer and the first screen (web/shell/first-screen/), bundled into glue.js,
# text-layer.js and first-screen.js.
node "$repo_root/scripts/build-glue.mjs" "$out"
# The code sandbox: sandbox-worker.js (bundled from sandbox/) and quickjs.wasm.
node "$repo_root/scripts/build-sandbox.mjs" "$out" worker
"$repo_root/scripts/build-fonts.sh" "$wasm_dir/fonts"
cp "$wasm_dir"/fonts/*.otf "$wasm_dir"/fonts/*.ttf "$out/fonts/"
# The packs: exactly those listed in the index (an instructor's unlisted draft stays out).
rm -f "$out"/exercises/*.json
cp "$repo_root/exercises/index.json" "$out/exercises/"
node -e '
  const fs = require("fs"), path = require("path");
  const [src, dst] = process.argv.slice(1);
  const index = JSON.parse(fs.readFileSync(path.join(src, "index.json"), "utf8"));
  for (const f of index.packs) {
    if (!fs.existsSync(path.join(src, f))) { console.error(`build-dist: exercises/index.json lists ${f}, which does not exist`); process.exit(1); }
    fs.copyFileSync(path.join(src, f), path.join(dst, f));
  }' "$repo_root/exercises" "$out/exercises"
# The course outline the map is drawn from before the packs are in (engine/outline.h), by the
# engine itself (build/wasm/dtx-outline.js, node): the same loader as the page.
# With it, what a link to each exercise shows before the engine runs (exercises/first/ID.html),
# and the search index the Search screen reads (engine/search.h), beside index.html: a JSON file
# among the packs would be read as one by `dtx list` and `dtx lint` of the folder.
node "$wasm_dir/dtx-outline.js" "$out/exercises" -o "$out/exercises/outline.json" --first-views "$wasm_dir/first-views.json" \
  --search-index "$out/search-index.json"
node "$repo_root/scripts/first-views.mjs" "$wasm_dir/first-views.json" "$out"
# The accessibility statement, published with the site (Settings links to it).
cp "$repo_root/web/shell/statement.css" "$out/"
node "$wasm_dir/dtx-outline.js" --page "$repo_root/docs/accessibility.md" "$out/accessibility.html"
# The course map as HTML in index.html, from the outline: what the page shows before the engine runs.
node "$repo_root/scripts/first-screen.mjs" "$out"
# What the first paint needs (dtx.css, first-screen.js) into the page itself, with their hashes in
# its Content-Security-Policy: the first paint waits for no other file.
node "$repo_root/scripts/inline-first-paint.mjs" "$out"
# The JSON Schema is for authors' editors (in the repository); the page never reads it.
rm -rf "$out/exercises/schema"
# Pictures in pack texts (![alt](img/ring.svg)) are read next to their pack: copy every image
# file under exercises/, keeping its folder, and drop the ones a previous build copied.
image_files=(-type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.svg' \))
find "$out/exercises" "${image_files[@]}" -delete
(cd "$repo_root/exercises" && find . "${image_files[@]}" -print0) | while IFS= read -r -d '' f; do
  mkdir -p "$out/exercises/$(dirname "$f")"
  cp "$repo_root/exercises/$f" "$out/exercises/$f"
done
# Assignments (docs/AUTHORING.md, "Running a course"): opened with ?assign=exercises/assignments/NAME.json.
rm -rf "$out/exercises/assignments"
if [[ -d $repo_root/exercises/assignments ]]; then cp -r "$repo_root/exercises/assignments" "$out/exercises/"; fi
# Installable: the web app manifest and its icons (drawn from favicon.svg at build time).
cp "$repo_root/web/shell/manifest.webmanifest" "$out/"
"$repo_root/scripts/build-icons.sh" "$out"
# The engine in two parts: what the course map's start runs, and the rest, fetched after the
# first screen (profiled in headless Chromium on the instrumented dtx.wasm; split-wasm.mjs).
node "$repo_root/scripts/split-wasm.mjs" "$wasm_dir" "$out"
# The version (a hash of every file) into index.html and the service worker (sw.js), once
# every other file is in place; then .gz and .br copies beside each file for servers that
# serve them (docs/self-hosting.md).
echo "build-dist: version $(node "$repo_root/scripts/stamp-version.mjs" "$out")"
node "$repo_root/scripts/precompress.mjs" "$out"
