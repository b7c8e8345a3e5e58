#!/usr/bin/env bash
# `dtx sim ring` as an instructor and a script use it: the text shows each step's sends and
# the bytes per rank; --json parses and its bytes per rank equal 2(N-1)M/N (worked out
# here in JavaScript, independently of dtx); bad flags exit 2 naming the flag.
#   tests/cli/test_sim_ring.sh path/to/dtx
set -uo pipefail
DTX=$1
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

# js_true "description" 'JS expression over d (the parsed JSON) that must be true' < file
js_true() {
  local what=$1
  if ! node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{let d;try{d=JSON.parse(s)}catch(e){console.log('not JSON: '+e.message);process.exit(1)}
    const r=($2);if(r!==true){console.log('got '+JSON.stringify(r));process.exit(1)}})" >"$tmp/js" 2>&1; then
    echo "FAIL: $what: $(head -c 400 "$tmp/js")"
    fails=$((fails + 1))
  fi
}

# ---- text: the chapter's example (N=8, M=1 GB, 50 GB/s, 5 us)
check "sim ring (defaults)" 0 "$DTX" sim ring
# Step 1 of reduce-scatter: rank r sends chunk r-1 to r+1, so 0 sends chunk 7 to 1.
contains "first step heading" "$tmp/out" "^step 1/14 +reduce-scatter"
contains "first step's sends" "$tmp/out" "0->1 c7, 1->2 c0"
contains "last step" "$tmp/out" "^step 14/14 +all-gather"
# 2(N-1)/N * M = 14/8 * 1e9 = 1750000000 bytes for every rank.
contains "bytes per rank" "$tmp/out" "ranks 0-7 +sent 1750000000 B"
# 14 steps of 5e-6 + 125e6/50e9 s = 0.03507 s.
contains "alpha-beta time" "$tmp/out" "^time +35.07 ms"
# algBw = 1e9 / 0.03507 = 28.51 GB/s; busBw = algBw * 14/8 = 49.9 GB/s.
contains "algBw" "$tmp/out" "^algBw +28.51 GB/s"
contains "busBw" "$tmp/out" "^busBw +49.9 GB/s"
contains "comparison: naive" "$tmp/out" "naive +14 +280.1 ms +14 GB"

# Large N: a few steps, then how many were left out.
check "sim ring --N 1024" 0 "$DTX" sim ring --N 1024 --M 1048576
contains "omitted steps are counted" "$tmp/out" "2042 steps omitted"
contains "sends beyond the first are counted" "$tmp/out" "and 1008 more"
# 2 * 1023 * 1048576 / 1024 = 2095104 bytes.
contains "bytes per rank at N=1024" "$tmp/out" "ranks 0-1023 +sent 2095104 B"

# ---- JSON: bytes per rank equal 2(N-1)M/N exactly when N divides M
for args in "8 1000000000" "64 64000000" "1024 1048576" "3 3000"; do
  set -- $args
  check "sim ring --N $1 --M $2 --json" 0 "$DTX" sim ring --N "$1" --M "$2" --json
  js_true "N=$1 M=$2: bytes_per_rank = 2(N-1)M/N" \
    "d.N===$1 && d.bytes_per_rank.length===$1 && d.bytes_per_rank.every(b => b === 2*($1-1)*$2/$1)" <"$tmp/out"
  js_true "N=$1 M=$2: received the same" "d.bytes_received_per_rank.every(b => b === 2*($1-1)*$2/$1)" <"$tmp/out"
  js_true "N=$1 M=$2: 2(N-1) steps" "d.steps === 2*($1-1) && d.step_list.length === d.steps" <"$tmp/out"
done

# Every send listed (N <= 64) goes from a rank to the next one round the ring, one per rank.
"$DTX" sim ring --N 8 --json >"$tmp/out"
js_true "N=8: sends go to the ring neighbour, one per rank per step" \
  "d.step_list.every(s => s.send_list.length === 8 && s.send_list.every(x => x.to === (x.from+1)%8) && new Set(s.send_list.map(x => x.from)).size === 8)" <"$tmp/out"
js_true "N=8: time 0.03507 s" "Math.abs(d.time_s - 0.03507) < 1e-12" <"$tmp/out"
"$DTX" sim ring --N 1024 --M 1048576 --json >"$tmp/out"
js_true "N=1024: sends omitted with a note, bytes complete" \
  "typeof d.steps_omitted === 'string' && d.step_list[0].send_list === undefined && d.bytes_per_rank.length === 1024" <"$tmp/out"

# N does not divide M: the total is still exactly 2(N-1)M.
"$DTX" sim ring --N 7 --M 1000000007 --json >"$tmp/out"
js_true "N=7 M=1000000007: total 2(N-1)M" \
  "d.bytes_total === 2*6*1000000007 && d.bytes_per_rank.reduce((a,b) => a+b, 0) === 2*6*1000000007" <"$tmp/out"

# One phase alone is half: (N-1)M/N.
"$DTX" sim ring --N 8 --M 8000 --collective reduce_scatter --json >"$tmp/out"
js_true "reduce_scatter: (N-1)M/N per rank" "d.steps === 7 && d.bytes_per_rank.every(b => b === 7000)" <"$tmp/out"
"$DTX" sim ring --N 8 --M 8000 --collective all_gather --json >"$tmp/out"
js_true "all_gather: (N-1)M/N per rank" "d.steps === 7 && d.bytes_per_rank.every(b => b === 7000)" <"$tmp/out"

# Naive: rank 0's port carries 2(N-1)M; tree: ceil(log2 N) rounds each way.
"$DTX" sim ring --N 16 --M 1000 --algorithm naive --json >"$tmp/out"
js_true "naive: rank 0 carries 2(N-1)M" "d.busiest_rank === 0 && d.busiest_port_bytes === 2*15*1000" <"$tmp/out"
"$DTX" sim ring --N 9 --M 1000 --algorithm tree --json >"$tmp/out"
js_true "tree: depth ceil(log2 9) = 4, 8 rounds" "d.tree_depth === 4 && d.steps === 8" <"$tmp/out"

# ---- bad flags: exit 2, message naming the flag
check "--N below range" 2 "$DTX" sim ring --N 1
contains "--N below range names N" "$tmp/err" "--N"
check "--N above range" 2 "$DTX" sim ring --N 2000
contains "--N above range names N" "$tmp/err" "--N.*between 2 and 1024"
check "--M not a number" 2 "$DTX" sim ring --M lots
contains "--M names M" "$tmp/err" "--M"
check "unknown flag" 2 "$DTX" sim ring --ranks 8
contains "unknown flag is named" "$tmp/err" "unknown input --ranks"
check "unknown algorithm" 2 "$DTX" sim ring --algorithm butterfly
contains "algorithm choices listed" "$tmp/err" "ring, naive, tree"

if [[ $fails -ne 0 ]]; then
  echo "$fails check(s) failed"
  exit 1
fi
echo "sim ring: all checks passed"
