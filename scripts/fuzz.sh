#!/usr/bin/env bash
# Fuzzes the engine's parsers with libFuzzer + AddressSanitizer + UBSan (clang), one target
# after another, FUZZ_SECONDS each. Not part of `make test`: run it with `make fuzz`.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: pack expr answer progress host_result
#                                              (default: all)
#
# Seeds: exercises/*.json and tests/malformed/*.json for packs, tests/fuzz/seeds/<target>/ for
# the others, plus every regression input. What the fuzzer learns is kept in
# build/fuzz/corpus/<target>/ for the next run; crashes land in build/fuzz/artifacts/<target>/.
# A crash, once fixed, becomes a regression: copy the file to tests/fuzz/regressions/<target>/
# and the unit test FuzzRegressions replays it in `make test`.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(pack expr answer progress host_result)

# clang and its libFuzzer/sanitizer runtimes from Debian (bookworm: clang 14), installed only
# when missing, the way scripts/deps.sh does it.
is_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}
missing=()
for pkg in clang libclang-rt-14-dev cmake ninja-build nlohmann-json3-dev; do
  is_installed "$pkg" || missing+=("$pkg")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  echo "fuzz: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

out=build/fuzz
if [[ ! -f $out/build.ninja ]]; then
  cmake -S tests/fuzz -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
cmake --build "$out" -j2 $(printf -- '--target fuzz_%s ' "${targets[@]}")

# Besides the whole packs (100 KB, a few runs a second under the sanitizers), each shipped
# exercise alone in a pack of its own: small valid inputs of every type mutate much faster.
split=$out/seeds/pack-split
if [[ ! -d $split ]]; then
  mkdir -p "$split"
  node -e '
    const fs = require("fs"), path = require("path");
    const [dir, out] = process.argv.slice(1);
    for (const f of fs.readdirSync(dir).filter((f) => /^\d.*\.json$/.test(f))) {
      const pack = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      (pack.exercises || []).forEach((ex, i) =>
        fs.writeFileSync(path.join(out, `${f.replace(/\.json$/, "")}-${i}.json`),
                         JSON.stringify({ ...pack, intro: undefined, exercises: [ex] }, null, 1)));
    }' exercises "$split"
fi

seeds_for() {
  case $1 in
    pack) echo exercises tests/malformed "$split" ;;
    *) echo "tests/fuzz/seeds/$1" ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  corpus=$out/corpus/$t
  artifacts=$out/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  # Regressions are seeds too: the fuzzer starts from what once broke.
  dirs=("$corpus" $(seeds_for "$t"))
  [[ -n "$(ls -A "tests/fuzz/regressions/$t" 2>/dev/null)" ]] && dirs+=("tests/fuzz/regressions/$t")
  log=$out/$t.log
  echo "fuzz: $t for ${seconds}s (log: $log)"
  # -timeout: an input slower than 10 s is a hang (the page must answer within 2 s);
  # -max_len: packs up to the largest seed (100 KB), the small parsers up to 4 KB.
  max_len=4096
  [[ $t == pack ]] && max_len=131072
  rc=0
  "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
    -dict="tests/fuzz/$t.dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "${dirs[@]}" >"$log" 2>&1 || rc=$?
  # The last status line: executions, coverage, corpus size, exec/s.
  grep -E '^#[0-9]+' "$log" | tail -n 1 | sed "s/^/  $t: /" || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | sed "s/^/  $t: /" || true
  if [[ $rc -ne 0 ]]; then
    echo "  $t: FAILED (exit $rc): see $log; the input is in $artifacts/" >&2
    grep -E 'ERROR: |property failed|SUMMARY' "$log" | head -n 5 | sed 's/^/    /' >&2 || true
    status=1
  fi
done
exit $status
