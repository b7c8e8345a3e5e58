#!/usr/bin/env bash
# Engine timings, native and WebAssembly (run by `make bench` after both builds).
#
#   scripts/bench.sh [EXERCISES_DIR]      default: exercises/
#
# 1. build/native/dtx_bench            Google Benchmark: load, lint, instantiate+grade per type
# 2. build/native/dtx_bench_plain      the same workloads timed with std::chrono (medians)
# 3. build/wasm/dtx_bench_plain.js     the same program compiled by em++, under node
# then a table of the two medians per operation and their ratio wasm/native.
#    scripts/wasm-size.mjs             dtx.wasm's code by source area (engine, ImGui, md4c,
#                                      JSON library, views, simulations), from a names build
# 4. scripts/bench-web.mjs             the web build (dist/): transfer size, page load in
#                                      headless Chromium, idle frames, wasm heap
#    scripts/bench-limits.mjs          hostile ?pack= errors shown, a 64 KB prompt opened
# 5. scripts/bench-sandbox.sh          code sandbox: 1,000 submissions graded in one run,
#                                      dtx lint with code run, one time-out
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

exercises=${1:-exercises}
native_dir=build/native
wasm_dir=build/wasm

for f in "$native_dir/dtx_bench_plain" "$wasm_dir/dtx_bench_plain.js"; do
  if [[ ! -f $f ]]; then
    echo "bench.sh: $f is missing; run \`make bench\` (it builds both first)" >&2
    exit 1
  fi
done
command -v node >/dev/null || { echo "bench.sh: node is needed for the wasm run" >&2; exit 1; }

if [[ -x $native_dir/dtx_bench ]]; then
  echo "== Google Benchmark (native) =="
  # Debian's libbenchmark 1.7 takes the minimum time as plain seconds.
  "$native_dir/dtx_bench" --benchmark_min_time=0.2 "$exercises"
  echo
else
  echo "bench.sh: $native_dir/dtx_bench was not built (Google Benchmark not found); skipping it" >&2
fi

# Runs one dtx_bench_plain, shows its report, and leaves its JSON line in the named variable.
run_plain() {
  local title=$1 var=$2 out
  shift 2
  echo "== dtx_bench_plain ($title) =="
  out=$("$@")
  printf '%s\n' "$out"
  echo
  printf -v "$var" '%s' "$(printf '%s\n' "$out" | grep '^{' | tail -n 1)"
  if [[ -z ${!var} ]]; then
    echo "bench.sh: no JSON line from the $title run" >&2
    exit 1
  fi
}

run_plain native native_json "$native_dir/dtx_bench_plain" "$exercises"
run_plain "wasm, node $(node --version)" wasm_json node "$wasm_dir/dtx_bench_plain.js" "$exercises"

echo "== median per operation, native vs wasm =="
node - "$native_json" "$wasm_json" <<'EOF'
const [nat, wasm] = process.argv.slice(2).map((s) => JSON.parse(s));
const rows = [
  ["load+lint all packs", (j) => j.load_lint_us],
  ["load all packs", (j) => j.load_us],
  ["lint all packs", (j) => j.lint_us],
];
for (const t of Object.keys(nat.grade_us || {}))
  rows.push([`instantiate+grade ${t}`, (j) => (j.grade_us || {})[t]]);
const fmt = (v) => (v == null ? "-" : v < 100 ? v.toFixed(2) : v.toFixed(1));
const w0 = Math.max(9, ...rows.map((r) => r[0].length));
const line = (a, b, c, d) =>
  console.log(a.padEnd(w0) + "  " + b.padStart(14) + "  " + c.padStart(14) + "  " + d.padStart(11));
line("operation", "native (us)", "wasm (us)", "wasm/native");
line("-".repeat(w0), "-".repeat(14), "-".repeat(14), "-".repeat(11));
for (const [name, get] of rows) {
  const n = get(nat), w = get(wasm);
  const ratio = n > 0 && w != null ? (w / n).toFixed(2) + "x" : "-";
  line(name, fmt(n), fmt(w), ratio);
}
EOF
echo

echo "== wasm code by source area =="
if [[ -f $wasm_dir/dtx-names.wasm ]]; then
  node scripts/wasm-size.mjs "$wasm_dir/dtx-names.wasm" "$wasm_dir/dtx.wasm"
else
  echo "bench.sh: $wasm_dir/dtx-names.wasm is missing (make bench builds it: target dtx_web_names); skipping" >&2
fi
echo

echo "== web build (dist/) =="
# exits non-zero (with the reason) only if dist/ is missing or the page cannot be loaded
node scripts/bench-web.mjs dist
echo
node scripts/bench-widgets.mjs dist
echo
echo "== hostile and oversized packs in the page =="
node scripts/bench-limits.mjs dist
echo
scripts/bench-sandbox.sh "$native_dir/dtx"
echo
echo "bench.sh: done in ${SECONDS}s"
