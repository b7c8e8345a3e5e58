#!/usr/bin/env bash
# `dtx sim roofline` and `dtx sim hierarchy`: text output, --json figures checked against hand
# computations, and exit codes for bad flags.
#   tests/cli/test_sim_roofline.sh path/to/dtx
set -uo pipefail
DTX=$1
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

# near "description" 'js expression over d (the parsed JSON)' expected [relative tolerance]
near() {
  local got
  got=$(node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);process.stdout.write(String($2))})" <"$tmp/out")
  if ! node -e "const g=Number('$got'), w=Number($3), t=${4:-1e-9}; process.exit(Number.isFinite(g) && Math.abs(g-w) <= t*Math.abs(w) ? 0 : 1)"; then
    echo "FAIL: $1: $2 = $got, expected $3"
    fails=$((fails + 1))
  fi
}

is() {  # is "description" 'js expression over d' expected_string
  local got
  got=$(node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);process.stdout.write(String($2))})" <"$tmp/out")
  [[ "$got" == "$3" ]] || { echo "FAIL: $1: $2 = '$got', expected '$3'"; fails=$((fails + 1)); }
}

# ---- roofline, text
check "roofline help" 0 "$DTX" sim roofline --help
contains "roofline help lists op choices" "$tmp/out" "--op +custom\|matmul\|relu\|decode\|attention"
check "roofline matmul" 0 "$DTX" sim roofline --gpu h100 --op matmul --m 4096 --n 4096 --k 4096
contains "peak" "$tmp/out" "peak +989 TFLOP/s"
contains "bandwidth" "$tmp/out" "HBM bandwidth +3352 GB/s"
# 989e12 / 3352e9 = 295.05 FLOP/byte
contains "ridge" "$tmp/out" "ridge point +295\.05 FLOP/byte"
# 2·4096³ / (3 · 4096² · 2 B) = 4096/3 = 1365.3 FLOP/byte
contains "matmul intensity" "$tmp/out" "intensity +1365 FLOP/byte"
contains "matmul bound" "$tmp/out" "bound +compute"
# 137.4e9 FLOP / 989e12 FLOP/s = 139.0 µs
contains "matmul time" "$tmp/out" "time +139 µs"

# ---- roofline, JSON
check "roofline relu --json" 0 "$DTX" sim roofline --op relu --json
is "kind" 'd.kind' roofline
is "relu is memory-bound" 'd.bound' memory
near "ridge" 'd.ridge_flop_per_byte' '989e12/3352e9'
# ReLU: 1 FLOP over 2 B read + 2 B written per element
near "relu intensity" 'd.intensity' '1/4'
# 4096² × 4 B / 3352e9 B/s = 20.02 µs
near "relu time" 'd.time_s' '4096*4096*4/3352e9'
near "relu attainable" 'd.attainable_flops' '0.25*3352e9'
check "roofline reads-only" 0 "$DTX" sim roofline --op relu --traffic reads --json
near "relu reads-only intensity" 'd.intensity' '0.5'

check "decode on an A100" 0 "$DTX" sim roofline --gpu a100 --op decode --batch 32 --d 16384 --json
# b·d/(d + 2b) = 32·16384/16448
near "decode intensity" 'd.intensity' '32*16384/(16384+64)'
# R·d/(d − 2R) with R = 312/2.039
near "decode batch at the ridge" 'd.decode_batch_at_ridge' '(312/2.039)*16384/(16384-2*312/2.039)'
is "decode selected point" 'd.points.filter(p=>p.selected).map(p=>p.id).join()' decode
check "decode that never reaches the ridge" 0 "$DTX" sim roofline --op decode --d 256 --json
is "no ridge batch is null" 'd.decode_batch_at_ridge' null

# ---- hierarchy, text
check "hierarchy" 0 "$DTX" sim hierarchy --gpu h100 --bytes 1e9
contains "HBM row" "$tmp/out" "GPU ↔ its HBM +HBM +3352 +1 +298\.3 µs"
# 900 GB/s both ways = 450 one way; 1e9 / 450e9 = 2.222 ms
contains "NVLink row" "$tmp/out" "NVLink / NVSwitch +450 +0\.134 +2\.222 ms"
contains "network row" "$tmp/out" "InfiniBand.* +50 +0\.0149 +20 ms"
# 50 / 7 = 7.143 GB/s; 1e9 / 7.143e9 = 140 ms
contains "cross-pod row" "$tmp/out" "pod ↔ pod .* +7\.143 .* +140 ms"
contains "the seeds' 18x explained" "$tmp/out" "9× slower per direction \(18×"
# 24,576 × 80 GB = 1.966 PB; × 989 TFLOP/s = 24.31 EFLOP/s
contains "cluster totals" "$tmp/out" "cluster +8 pods +24576 +1\.966 PB +24\.31 EFLOP/s"

# ---- hierarchy, JSON
check "hierarchy --json" 0 "$DTX" sim hierarchy --gpu h100 --bytes 1e9 --level pod --json
is "level" 'd.level' pod
is "link ids" 'd.links.map(l=>l.id).join()' 'hbm,nvlink,network,cross-pod'
near "NVLink / HBM" 'd.links[1].ratio_to_hbm' '450/3352'
near "quoted NVLink / HBM (the seeds' 0.27)" 'd.links[1].quoted_ratio_to_hbm' '900/3352'
near "NVLink / network" 'd.nvlink_over_network' 9
near "network time" 'd.links[2].time_s' '1e9/50e9'
near "pod GPUs" 'd.zoom[3].gpus' '8*2*192'
near "cluster memory" 'd.zoom[4].memory_bytes' '8*2*192*8*80e9'
near "cluster peak" 'd.zoom[4].peak_flops' '24576*989e12'
check "hierarchy b200, 1:1" 0 "$DTX" sim hierarchy --gpu b200 --oversub 1 --bytes 4e9 --json
# B200: 100 GB/s per port, non-blocking above the pods: 4e9 / 100e9 = 40 ms
near "b200 cross-pod time" 'd.links[3].time_s' '4e9/100e9'

# ---- bad input: exit 2 with a message naming what was expected
check "unknown roofline flag" 2 "$DTX" sim roofline --intensty 5
contains "suggests the right flag" "$tmp/err" "did you mean --intensity"
check "unknown op" 2 "$DTX" sim roofline --op conv
contains "lists the ops" "$tmp/err" "expected one of: custom, matmul, relu, decode, attention"
check "batch out of range" 2 "$DTX" sim roofline --batch 0
contains "names the range" "$tmp/err" "batch must be between 1 and 65536"
check "unknown level" 2 "$DTX" sim hierarchy --level row
contains "lists the levels" "$tmp/err" "expected one of: gpu, server, rack, pod, cluster"
check "bytes not a number" 2 "$DTX" sim hierarchy --bytes lots
contains "expects a number" "$tmp/err" "expected a number for bytes"
check "missing value" 2 "$DTX" sim hierarchy --gpu

if [[ $fails -ne 0 ]]; then
  echo "$fails check(s) failed"
  exit 1
fi
echo "sim roofline/hierarchy: all checks passed"
