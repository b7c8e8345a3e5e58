#!/usr/bin/env bash
# The source-named calculators of `dtx sim` (engine/sim/sources.h): the JSON fields that are a
# contract (issue 18), their values for inputs taken from each source, the refusals, and the
# help that names the sources. The figures' derivations are in tests/unit/test_sources.cpp.
#   tests/cli/test_sim_sources.sh path/to/dtx
set -uo pipefail
DTX=$1
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

is() {  # is "description" 'js boolean over d' file
  if [[ $(json "$2" <"$3") != "true" ]]; then
    echo "FAIL: $1: $2 is not true of:"
    head -c 800 "$3" | sed 's/^/    /'
    echo
    fails=$((fails + 1))
  fi
}

# ---- memory: DeepSpeed's documented ZeRO-3 row (memory.rst: 71.69GB per CPU, 0.12GB per GPU)
check "deepspeed zero3" 0 "$DTX" sim memory --source deepspeed --params 2851e6 --zero 3 --largest_layer 32e6 \
  --offload params --gpus_per_node 8 --nodes 1 --json
is "memory contract fields" '["gpu_bytes","cpu_bytes","bytes_per_param"].every(k => typeof d[k] === "number")' "$tmp/out"
is "zero3 gpu = 4 x largest layer" 'd.gpu_bytes === 128000000' "$tmp/out"
is "zero3 host per node 71.69 GiB" '(d.cpu_bytes / 2**30).toFixed(2) === "71.69"' "$tmp/out"
is "names its source" '/stage3\.py/.test(d.formula.source)' "$tmp/out"
# the pre-2024 ZeRO-2 estimate of memory.rst (15.93GB per GPU) and the current one
check "deepspeed-2023 zero2" 0 "$DTX" sim memory --source deepspeed-2023 --params 2851e6 --zero 2 --json
is "4 + 16/N" '(d.gpu_bytes / 2**30).toFixed(2) === "15.93"' "$tmp/out"
check "deepspeed zero2" 0 "$DTX" sim memory --source deepspeed --params 2851e6 --zero 2 --json
is "2 + 18/N" 'd.gpu_bytes === 12116750000' "$tmp/out"
# ZeRO paper table 2, MP = 16 on 1024 GPUs, 32 GB: P_os+g+p holds 2 trillion parameters
check "zero paper max params" 0 "$DTX" sim memory --source zero-paper --params 1e9 --zero 3 --mp 16 --dp 64 \
  --device_mem_gb 32 --json
is "max_params 2.048e12" 'Math.abs(d.max_params - 2.048e12) < 1' "$tmp/out"
is "no host memory in the paper" 'd.cpu_modelled === false && d.cpu_bytes === 0' "$tmp/out"
check "megatron distributed optimizer" 0 "$DTX" sim memory --source megatron --params 1e9 --zero 1 --dp 8 --json
is "6 + 12/8 bytes" 'd.bytes_per_param === 7.5 && d.gpu_bytes === 7.5e9' "$tmp/out"
check "text names the source" 0 "$DTX" sim memory --source megatron --params 1e9
contains "theoretical_memory_usage.py" "$tmp/out" "theoretical_memory_usage\.py"
check "megatron has no zero-3" 1 "$DTX" sim memory --source megatron --params 1e9 --zero 3
contains "megatron refusal" "$tmp/err" "distributed optimizer"
check "paper has no offload" 1 "$DTX" sim memory --source zero-paper --params 1e9 --offload optimizer
contains "offload refusal" "$tmp/err" "use --source deepspeed"
check "unknown source" 2 "$DTX" sim memory --source deepspeed-2022 --params 1e9
contains "sources listed" "$tmp/err" "zero-paper, deepspeed, deepspeed-2023, megatron"

# ---- collective: nccl-tests factors; n = 1; in-network
for pair in allreduce:1.75 reduce_scatter:0.875 all_gather:0.875 broadcast:1 reduce:1 alltoall:0.875 sendrecv:1; do
  op=${pair%%:*} f=${pair##*:}
  check "collective $op" 0 "$DTX" sim collective --op "$op" --N 8 --algbw_gbs 100 --json
  is "$op factor $f" "d.busbw_factor === $f && Math.abs(d.busbw_gbs - 100 * $f) < 1e-9" "$tmp/out"
done
check "allreduce n = 1" 0 "$DTX" sim collective --op allreduce --N 1 --json
is "busBw factor 0 at n = 1" 'd.busbw_factor === 0' "$tmp/out"
check "in-network" 0 "$DTX" sim collective --op allreduce --N 8 --in_network 1 --algbw_gbs 275 --json
is "in-network factor 1, nccl-tests 1.75" 'd.busbw_factor === 1 && d.busbw_gbs === 275 && d.nccl_tests_busbw_gbs === 481.25' "$tmp/out"
check "in-network only for allreduce" 1 "$DTX" sim collective --op alltoall --N 8 --in_network 1

# ---- pipeline: zb-h2, --group, remaining_per_stage, idle_per_stage
check "zb-h2" 0 "$DTX" sim pipeline --schedule zb-h2 --p 4 --m 8 --f 1 --b 1 --w 1 --json
is "pipeline contract fields" '["warmup_forwards_per_stage","remaining_per_stage","idle_per_stage"].every(k => Array.isArray(d[k]) && d[k].length === 4)' "$tmp/out"
is "zb-h2 warm-up 2(p-1-r)+1" 'JSON.stringify(d.warmup_forwards_per_stage) === "[7,5,3,1]"' "$tmp/out"
is "zb-h2 peak 2p-1" 'd.peak_activations_per_stage.every(x => x === 7)' "$tmp/out"
is "zb-h2 no idle inside a stage" 'd.span_idle_per_stage.every(x => x === 0)' "$tmp/out"
check "interleaved m = p" 0 "$DTX" sim pipeline --schedule interleaved --p 4 --m 4 --v 2 --json
is "current Megatron warm-up at m = p" 'JSON.stringify(d.warmup_forwards_per_stage) === "[8,8,6,4]" && JSON.stringify(d.remaining_per_stage) === "[0,0,2,4]"' "$tmp/out"
check "interleaved group" 0 "$DTX" sim pipeline --schedule interleaved --p 2 --m 5 --v 2 --group 3 --json
is "group 3 warm-up" 'd.group === 3 && JSON.stringify(d.warmup_forwards_per_stage) === "[5,3]"' "$tmp/out"

# ---- checkpoint, gradscaler, scaling
check "checkpoint" 0 "$DTX" sim checkpoint --cost_s 300 --mtbf_s 3600 --json
is "young and daly" 'Math.abs(d.young_s - 1469.694) < 1e-3 && Math.abs(d.daly_s - 1276.498) < 1e-3' "$tmp/out"
check "gradscaler" 0 "$DTX" sim gradscaler --steps "2o,2000c,1o" --json
is "scale and tracker" 'd.scale === 16384 && d.growth_tracker === 0 && d.trace.length === 3' "$tmp/out"
check "gradscaler options" 0 "$DTX" sim gradscaler --steps "1c,1c,1o" --init_scale 4 --growth_interval 2 --backoff_factor 0.25 --json
is "PyTorch's own test" 'd.trace.map(t => t.scale).join() === "4,8,2"' "$tmp/out"
check "gradscaler needs steps" 2 "$DTX" sim gradscaler
check "gradscaler bad steps" 1 "$DTX" sim gradscaler --steps "2o,x"
contains "bad item named" "$tmp/err" "item 2 'x'"
check "scaling" 0 "$DTX" sim scaling --params 70e9 --tokens 1.4e12 --json
is "flops and tokens per param" 'd.flops === 5.88e23 && d.tokens_per_param === 20' "$tmp/out"

# ---- help names the sources; --formulas lists each with its source
check "help" 0 "$DTX" sim --help
for src in "ZeRO paper" DeepSpeed Megatron-LM nccl-tests "Zero Bubble" "Daly 2006" PyTorch; do
  contains "help names $src" "$tmp/out" "$src"
done
for k in memory collective checkpoint gradscaler scaling; do contains "help lists $k" "$tmp/out" "^  $k "; done
check "formulas" 0 "$DTX" sim --formulas
contains "formulas give sources" "$tmp/out" "source: DeepSpeed deepspeed/runtime/zero/stage3.py"
check "memory help" 0 "$DTX" sim memory --help
for flag in source params K zero dp mp gpus_per_node nodes largest_layer offload zero_init buffer_factor device_mem_gb; do
  contains "memory help lists --$flag" "$tmp/out" "^  --$flag "
done

# ---- --explain: each figure worked out from its source's formula with the run's inputs
check "ring --explain" 0 "$DTX" sim ring --explain
contains "the ring's bytes written out" "$tmp/out" "max_bytes_sent = 2 × .N − 1. / N × M = 2 × .8 − 1. / 8 × 10.9 B = 1,750,000,000 B .1.75 GB.$"
contains "the formula's source" "$tmp/out" "ring.allreduce-bytes: Patarasuk and Yuan 2009"
check "memory --explain --json" 0 "$DTX" sim memory --params 70e9 --zero 3 --nodes 4 --explain --json
is "the kind's own figures are still there" 'd.gpu_bytes === 35e9' "$tmp/out"
is "one explained figure, agreeing" 'd.explain.length === 1 && d.explain[0].agrees && d.explain[0].from_formula === 35e9' "$tmp/out"
is "its derivation" 'd.explain[0].derivation === "gpu_bytes = (2 + 2 + K) / Nd × P / MP = (2 + 2 + 12) / 32 × 7 × 10^10 / 1 = 35,000,000,000 B (35 GB)"' "$tmp/out"
check "zb-h1 outside its formula's assumption" 0 "$DTX" sim pipeline --schedule zb-h1 --p 8 --m 4 --explain
contains "says when the formula is exact" "$tmp/out" "exact when f == b && b == w && m >= p; not here"
check "a refused run explains nothing" 1 "$DTX" sim memory --source deepspeed --zero 0 --explain
check "formulas json: each closed form as computed" 0 "$DTX" sim --formulas-json
is "every formula has its expression or its test" 'd.every(f => f.computed.length > 0 || /tests\//.test(f.checked_by))' "$tmp/out"

if [[ $fails -ne 0 ]]; then
  echo "$fails check(s) failed"
  exit 1
fi
echo "all sim calculator checks passed"
