#!/usr/bin/env bash
# The code sandbox's costs (issue 12's targets), run by `make bench`:
#   1. `dtx grade` of 1,000 submissions of one code exercise in one run (one sandbox host):
#      a class's worth of files, mixed as a real folder is (right, wrong, a runtime error, a
#      syntax error); target <= 10 s on the 2-core machine.
#   2. `dtx lint exercises/` with every pack's reference and wrong implementations run;
#      target <= 10 s.
#   3. one submission that loops for ever: the time limit (2 s) plus the stop, what each such
#      file adds to a batch.
#
#   scripts/bench-sandbox.sh [DTX]     default: build/native/dtx
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
dtx=${1:-build/native/dtx}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ex=ring.code-time
ref=$("$dtx" show "$ex" --answer --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).reference))')
sig=$(printf '%s' "$ref" | grep -o 'function [A-Za-z_$]*([^)]*)' | head -n 1)
mkdir -p "$work/subs"
for i in $(seq 1 1000); do
  case $((i % 10)) in
    0) printf '%s {\n  return 0;\n}\n' "$sig" ;;                          # wrong
    1) printf '%s {\n  const x = null;\n  return x.y;\n}\n' "$sig" ;;     # runtime error
    2) printf '%s {\n  return 1 +* 2;\n}\n' "$sig" ;;                     # syntax error
    *) printf '// student %d\n%s\n' "$i" "$ref" ;;                        # right
  esac > "$work/subs/s$i.js"
done

now() { date +%s.%N; }
echo "== code sandbox =="
t0=$(now)
"$dtx" grade "$ex" "$work"/subs/*.js > "$work/grades.txt" || true
t1=$(now)
right=$(grep -c ': correct' "$work/grades.txt" || true)
echo "grade 1000 submissions of $ex (one run): $(node -e "console.log((($t1)-($t0)).toFixed(2))") s  [$right graded correct, expected 700]"

t0=$(now)
"$dtx" lint exercises/ > "$work/lint.txt" 2>&1 || true
t1=$(now)
echo "dtx lint exercises/ (code run):       $(node -e "console.log((($t1)-($t0)).toFixed(2))") s  [$(tail -n 1 "$work/lint.txt")]"

printf '%s {\n  for (;;) {}\n}\n' "$sig" > "$work/loop.js"
t0=$(now)
"$dtx" grade "$ex" "$work/loop.js" > /dev/null || true
t1=$(now)
echo "one infinite loop (2 s limit):        $(node -e "console.log((($t1)-($t0)).toFixed(2))") s  (includes starting the host)"
