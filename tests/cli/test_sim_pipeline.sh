#!/usr/bin/env bash
# `dtx sim pipeline`: the bubble figures in the text, the JSON a script reads (checked with
# node against the textbook formulas), and exit codes for bad flags (2) and impossible
# inputs (1).
#   tests/cli/test_sim_pipeline.sh path/to/dtx
set -uo pipefail
DTX=$1
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

js() {  # js "description" 'boolean expression over d (the parsed JSON)' < file
  local what=$1
  if ! node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const d=JSON.parse(s);
    const ok=($2); if(!ok){console.error(JSON.stringify({bubble_total:d.bubble_total,bubble_ideal:d.bubble_ideal,makespan:d.makespan,ideal:d.ideal}));process.exit(1)}})"; then
    echo "FAIL: $what"
    fails=$((fails + 1))
  fi
}

# ---- text: p = 4, m = 8 (the defaults), 1F1B: idle/total 3/11 = 0.272727, idle/ideal 3/8
check "default run" 0 "$DTX" sim pipeline
contains "idle/total in the text" "$tmp/out" "idle/total = 0\.272727 \(27\.27%\)"
contains "idle/ideal in the text" "$tmp/out" "idle/ideal = 0\.375 \(37\.5%\)"
contains "formula shown" "$tmp/out" "formula \(p-1\)/\(m\+p-1\) = 0\.272727"
# f = b = w = 10 ms: a slot is 30 ms and the step 11 slots; each stage idles 3 slots.
contains "makespan" "$tmp/out" "makespan +330 ms"
contains "stage 0 row: idle 90 ms, 4 microbatches in flight, 3 warm-up forwards, 5 remaining" "$tmp/out" "^ +0 +90 +240 +4 +3 +5$"
contains "Gantt row of stage 0" "$tmp/out" "^ +0 \|F1 F2 F3 F4 \. "
contains "Gantt row of the last stage" "$tmp/out" "^ +3 \|\. +\. +\. +F1 B1 "

# ---- the zero-bubble schedule in text: stage 0's order from the paper's figure 3
check "zb-h1 text" 0 "$DTX" sim pipeline --schedule zb-h1 --f 1 --b 1 --w 1
contains "zb-h1 stage 0" "$tmp/out" "^ +0 \|F1 F2 F3 F4 \. +\. +\. +B1 W1 F5 B2 W2"

# ---- DualPipe, p = 4, m = 8, f = b = w = 1 (DeepSeek-V3 report, table 2): every stage idles
# (p/2-1)(F&B+B-3W) = 1·(3+2-3) = 2 ms, holds p+1 = 5 microbatches, keeps 2x the parameters.
# Rank 0 runs DualPipe.step's order; "F4&" opens an F&B block.
check "dualpipe text" 0 "$DTX" sim pipeline --schedule dualpipe --f 1 --b 1 --w 1
contains "dualpipe stage 0 row" "$tmp/out" "^ +0 +2 +24 +5 +4 +4$"
contains "dualpipe parameters" "$tmp/out" "^  parameters +2x"
contains "dualpipe table 2 named" "$tmp/out" "table 2's \(PP/2-1\)\(F&B\+B-3W\) = 2 ms"
contains "dualpipe Gantt row of stage 0" "$tmp/out" "^ +0 \|F1 +F2 +F3 +F5 +B5 +W5 +F6 +F4& B6 "
check "json dualpipe" 0 "$DTX" sim pipeline --schedule dualpipe --p 8 --m 16 --f 1 --b 1 --w 1 --json
js "dualpipe p=8: idle 6 per stage, peak 9, params 2x, F&B blocks" \
  "d.idle_per_stage.every(x=>Math.abs(x-6)<1e-9) && d.peak_activations_per_stage.every(x=>x===9) && d.params_per_stage===2 && d.ops.some(o=>o.overlapped) && d.chunks===2" <"$tmp/out"
# ---- ZB-V, p = 4, m = 8, f = b = w = 1: no idle inside any stage's span (sail-sg's README
# table: bubble 0), p = 4 microbatches in flight on every stage (1x 1F1B)
check "json zb-v" 0 "$DTX" sim pipeline --schedule zb-v --p 4 --m 8 --f 1 --b 1 --w 1 --json
js "zb-v span idle 0, peak p" "d.span_idle_per_stage.every(x=>Math.abs(x)<1e-9) && d.peak_activations_per_stage.every(x=>x===4) && d.ops[0].label==='F1c1'" <"$tmp/out"
check "zb-v text" 0 "$DTX" sim pipeline --schedule zb-v --p 4 --m 8 --f 1 --b 1 --w 1
contains "zb-v span line" "$tmp/out" "most idle within one stage's own span 0 ms; the repo's table: 0"

# ---- a long timeline falls back to a list of ops
check "long gpipe" 0 "$DTX" sim pipeline --schedule gpipe --p 8 --m 64
contains "list fallback" "$tmp/out" "^stage 7: \(idle 70\) F1 70-80 F2 80-90"

# ---- JSON: 1F1B with f = b and w = 0 has idle/total (p-1)/(m+p-1) and idle/ideal (p-1)/m
for pm in "4 8" "6 10" "16 64" "32 5"; do
  set -- $pm
  check "json p=$1 m=$2" 0 "$DTX" sim pipeline --schedule 1f1b --p "$1" --m "$2" --f 2 --b 2 --w 0 --json
  js "json bubble p=$1 m=$2" "Math.abs(d.bubble_total-($1-1)/($2+$1-1))<1e-12 && Math.abs(d.bubble_ideal-($1-1)/$2)<1e-12" <"$tmp/out"
  js "json ops p=$1 m=$2: 2pm ops with every field" \
    "d.ops.length===2*$1*$2 && d.ops.every(o=>['stage','microbatch','chunk','kind','start','end','label'].every(k=>k in o))" <"$tmp/out"
done
check "json peak" 0 "$DTX" sim pipeline --schedule gpipe --p 4 --m 12 --json
js "gpipe holds m = 12 on stage 0" "d.peak_activations_per_stage[0]===12" <"$tmp/out"
# ZB-H1, p = 8, m = 16, f = 1, b = 2, w = 0.5: idle per stage (p-1)(f+b-w) = 17.5 (Qi et al. table 2)
check "json zb-h1" 0 "$DTX" sim pipeline --schedule zb-h1 --p 8 --m 16 --f 1 --b 2 --w 0.5 --json
js "zb-h1 idle per stage" "d.idle_per_stage.every(x=>Math.abs(x-17.5)<1e-9) && Math.abs(d.makespan-d.ideal-17.5)<1e-9" <"$tmp/out"
# Interleaved p = 4, m = 8, v = 2: idle/ideal (p-1)/(m v) = 3/16
check "json interleaved" 0 "$DTX" sim pipeline --schedule interleaved --p 4 --m 8 --v 2 --json
js "interleaved idle/ideal" "Math.abs(d.bubble_ideal-3/16)<1e-12 && d.ops.some(o=>o.chunk===1)" <"$tmp/out"

# ---- bad flags: exit 2, naming the flag
check "unknown flag" 2 "$DTX" sim pipeline --q 3
contains "unknown flag named" "$tmp/err" "unknown input --q"
check "p out of range" 2 "$DTX" sim pipeline --p 0
contains "p range named" "$tmp/err" "--p: p must be between 1 and 32"
check "m not whole" 2 "$DTX" sim pipeline --m 2.5
contains "m whole named" "$tmp/err" "--m: m must be a whole number"
check "unknown schedule" 2 "$DTX" sim pipeline --schedule zb-h3
contains "schedule choices named" "$tmp/err" "--schedule: .*expected one of: naive, gpipe, 1f1b, interleaved, zb-h1, zb-h2, zb-v, dualpipe"
check "flag without value" 2 "$DTX" sim pipeline --f
contains "missing value named" "$tmp/err" "--f needs a value"

# ---- impossible inputs: exit 1 with the reason
check "interleaved needs m a multiple of p" 1 "$DTX" sim pipeline --schedule interleaved --p 4 --m 10 --v 2
contains "interleaved reason" "$tmp/err" "m = 10, G = 4, p = 4 leave 2 .*m must be a multiple of p"
check "dualpipe needs an even p" 1 "$DTX" sim pipeline --schedule dualpipe --p 3 --m 12
contains "dualpipe p reason" "$tmp/err" "dualpipe needs an even number of stages p"
check "dualpipe needs m >= 2p" 1 "$DTX" sim pipeline --schedule dualpipe --p 4 --m 6
contains "dualpipe m reason" "$tmp/err" "dualpipe needs m even and at least 2p.*try m = 8"
check "zb-v needs m >= 2p-1" 1 "$DTX" sim pipeline --schedule zb-v --p 4 --m 6
contains "zb-v reason" "$tmp/err" "zb-v needs m >= 2p-1.*try m = 7"

# ---- help lists the inputs
check "help" 0 "$DTX" sim pipeline --help
for flag in schedule p m v group f b w; do contains "help lists --$flag" "$tmp/out" "^  --$flag "; done
contains "help lists the new schedules" "$tmp/out" "^  --schedule .*zb-v\|dualpipe"
contains "help names DualPipe's source" "$tmp/out" "DeepSeek-V3 Technical Report, section 3.2.1 and table 2"

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "dtx sim pipeline: all checks passed"
