#!/usr/bin/env bash
# `dtx sim plan`: the text table, the --json object (parsed with node, figures checked against
# hand computations), and the exit codes for bad flags (2) and impossible plans (1).
#   tests/cli/test_sim_plan.sh path/to/dtx
set -uo pipefail
DTX=$1
source "$(dirname "$0")/lib.sh"  # tmp, fails, check, contains, json

expect_json() {  # expect_json "description" file 'js boolean expression over d'
  local got
  got=$(json "$3" <"$2" 2>&1)
  if [[ $got != "true" ]]; then
    echo "FAIL: $1: ($3) is $got"
    fails=$((fails + 1))
  fi
}

# The 405B capstone: Llama 3 405B on 2,048 nodes of 8 H100 (16,384 GPUs), TP 8, PP 16, DP the
# rest (128), ZeRO-1, 16 microbatches.
capstone=(sim plan --model 405b --nodes 2048 --tp 8 --pp 16 --zero 1 --microbatches 16)

# ---- text
check "plan text" 0 "$DTX" "${capstone[@]}"
contains "names model and cluster" "$tmp/out" "^Training-plan explorer: Llama 3 405B on 2048 × 8 H100 SXM 80GB \(an estimate"
contains "derived DP and GPUs" "$tmp/out" "TP 8 × PP 16 × DP 128 \(the rest\) × CP 1 = 16,384 GPUs"
contains "layers per stage" "$tmp/out" "^stages    8 layers in the fullest of 16 stage"
contains "memory heading" "$tmp/out" "^Memory per GPU"
for b in weights gradients optimizer activations; do contains "bucket $b" "$tmp/out" "^  $b +[0-9.]+ GB"; done
contains "capacity verdict" "$tmp/out" "^  total +[0-9.]+ GB of 80 GB: (fits|over by)"
contains "traffic heading" "$tmp/out" "^Communication per GPU per step"
contains "DP row over InfiniBand" "$tmp/out" "^  DP +128 +[0-9.]+ GB +InfiniBand 50 GB/s"
contains "TP row over NVLink" "$tmp/out" "^  TP +8 +[0-9.]+ GB +NVLink 450 GB/s"
contains "step time says estimate" "$tmp/out" "^step time .*\(estimate\)"
contains "MFU" "$tmp/out" "^MFU +[0-9.]+%"
contains "uneven stages warning" "$tmp/out" "126 layers do not divide by PP=16"
contains "assumptions listed" "$tmp/out" "^Assumptions"

# ---- JSON
check "plan --json" 0 "$DTX" "${capstone[@]}" --json
cp "$tmp/out" "$tmp/capstone.json"
expect_json "json kind and degrees" "$tmp/capstone.json" 'd.kind==="plan" && d.tp===8 && d.pp===16 && d.dp===128 && d.plan_gpus===16384'
# The average GPU (the default view): 405,849,243,648 parameters (computed from the
# architecture) spread evenly over TP x PP = 128 is 3,170,697,216 per GPU; ZeRO-1 over DP 128:
# (2 + 2 + 12/128) x that = 12,980,041,728 bytes of model state, 6,341,394,432 of weights.
expect_json "ZeRO-1 state by hand" "$tmp/capstone.json" \
  'Math.abs(d.memory_gb.weights + d.memory_gb.gradients + d.memory_gb.optimizer - 12.980041728) < 1e-6'
expect_json "weights by hand" "$tmp/capstone.json" 'Math.abs(d.memory_gb.weights - 6.341394432) < 1e-9'
expect_json "total is the sum of buckets" "$tmp/capstone.json" \
  'Math.abs(d.memory_gb.total - (d.memory_gb.weights + d.memory_gb.gradients + d.memory_gb.optimizer + d.memory_gb.activations)) < 1e-9'
expect_json "capacity 80 GB and fits flag" "$tmp/capstone.json" 'd.memory_gb.capacity===80 && d.fits===(d.memory_gb.total<=80)'
# DP: 2 x 127/128 x 2 x 3,170,697,216 = 12,583,704,576 bytes over InfiniBand.
expect_json "DP row by hand" "$tmp/capstone.json" \
  'd.comm[0].dim==="DP" && d.comm[0].link==="InfiniBand" && Math.abs(d.comm[0].bytes - 12583704576) < 1'
expect_json "four dimensions" "$tmp/capstone.json" 'd.comm.map(c=>c.dim).join()==="DP,TP,PP,CP"'
expect_json "step time, MFU, warnings" "$tmp/capstone.json" \
  'd.step_time_s>0 && d.mfu>0 && d.mfu<1 && Array.isArray(d.warnings) && d.warnings.some(w=>w.includes("126 layers"))'

# A GPU of the first stage: 8 layers x 3,187,671,040 / 8 + 128,256 x 16,384 / 8 (input
# embedding) = 3,450,339,328 params; ZeRO-1: 4.09375 x that = 14,124,826,624 bytes.
check "first stage --json" 0 "$DTX" "${capstone[@]}" --stage first --json
expect_json "first-stage ZeRO-1 state by hand" "$tmp/out" \
  'Math.abs(d.memory_gb.weights + d.memory_gb.gradients + d.memory_gb.optimizer - 14.124826624) < 1e-6'

# The ZeRO paper's Figure 1 (7.5B, 64 GPUs, ZeRO-1): 2Ψ + 2Ψ + 12Ψ/64 = 31.4 GB.
check "ZeRO paper --json" 0 "$DTX" sim plan --params_b 7.5 --nodes 8 --dp 64 --zero 1 --json
expect_json "ZeRO-1 31.4 GB" "$tmp/out" \
  'Math.abs(d.memory_gb.weights + d.memory_gb.gradients + d.memory_gb.optimizer - 31.40625) < 1e-9'

# ---- memory conventions
# The default is the ZeRO paper's, named in the JSON with its source; the capstone's figures
# above are unchanged by it. Host memory is DeepSpeed's only.
expect_json "default convention" "$tmp/capstone.json" \
  'd.convention==="zero-paper" && d.offload==="none" && d.memory_formula.id==="memory.zero-paper" && d.cpu_modelled===false && d.cpu_bytes_per_node===0 && Math.abs(d.memory_gb.model_states - 12.980041728) < 1e-6'
expect_json "assumptions name the source" "$tmp/capstone.json" 'd.assumptions.some(a=>a.includes("Rajbhandari et al. 2020"))'

# One code path with `dtx sim memory`: 7.5B on 2 nodes of 8 (TP = PP = CP = 1, so a GPU holds
# the whole model and DeepSpeed's N is the 16 GPUs). Each convention's model-state bytes and
# host bytes per node must be the calculator's for the same inputs.
for conv in "zero-paper 2 none" "megatron 1 none" "deepspeed 2 optimizer" "deepspeed 3 params" "deepspeed-2023 1 none"; do
  read -r src zero off <<<"$conv"
  check "plan --convention $src --zero $zero --offload $off" 0 "$DTX" sim plan --params_b 7.5 --nodes 2 --zero "$zero" \
    --convention "$src" --offload "$off" --json
  cp "$tmp/out" "$tmp/plan.json"
  layer=$(json 'd.largest_layer_params' <"$tmp/plan.json")
  check "sim memory --source $src --zero $zero --offload $off" 0 "$DTX" sim memory --source "$src" --params 7.5e9 \
    --zero "$zero" --gpus_per_node 8 --nodes 2 --largest_layer "$layer" --offload "$off" --json
  cp "$tmp/out" "$tmp/memory.json"
  gpu=$(json 'd.gpu_bytes' <"$tmp/memory.json")
  cpu=$(json 'd.cpu_bytes' <"$tmp/memory.json")
  expect_json "$src ZeRO-$zero offload $off: GPU bytes as dtx sim memory ($gpu)" "$tmp/plan.json" \
    "d.convention===\"$src\" && Math.abs(d.model_states_bytes - $gpu) <= 2 && Math.abs(d.memory_gb.model_states*1e9 - $gpu) <= 2"
  expect_json "$src ZeRO-$zero offload $off: host bytes as dtx sim memory ($cpu)" "$tmp/plan.json" \
    "Math.abs(d.cpu_bytes_per_node - $cpu) <= 2"
done
# DeepSpeed lumps the model states: no split in the JSON, one figure; by hand, ZeRO-3 with
# parameter offload keeps only the largest layer, 4 bytes × its parameters.
expect_json "DeepSpeed has no split" "$tmp/plan.json" \
  'd.memory_gb.weights===null && d.memory_gb.gradients===null && d.memory_gb.optimizer===null'
check "deepspeed zero 3 params" 0 "$DTX" sim plan --params_b 7.5 --nodes 2 --zero 3 --convention deepspeed --offload params --json
expect_json "params offload keeps 4·L" "$tmp/out" \
  'd.model_states_bytes===Math.trunc(4*d.largest_layer_params) && d.cpu_modelled===true && d.memory_formula.id==="memory.deepspeed.zero3"'
# Megatron by hand, distributed optimizer on 16 GPUs: (6 + 12/16) × 7.5e9 = 50.625 GB; the
# text names the convention and says host memory is not modelled.
check "megatron text" 0 "$DTX" sim plan --params_b 7.5 --nodes 2 --zero 1 --convention megatron
contains "convention line" "$tmp/out" "^  convention +megatron \(Megatron-LM megatron/training/theoretical_memory_usage.py"
contains "FP32 main gradients" "$tmp/out" "^  gradients +30 GB"
contains "no host figure" "$tmp/out" "^  host/node +not modelled"
check "offload ignored" 0 "$DTX" sim plan --params_b 7.5 --zero 1 --offload optimizer --json
expect_json "offload warning" "$tmp/out" 'd.offload==="none" && d.warnings.some(w=>w.startsWith("Offload optimizer is ignored"))'
check "bad convention" 2 "$DTX" sim plan --convention zero
contains "lists conventions" "$tmp/err" "expected one of: zero-paper, deepspeed, deepspeed-2023, megatron"

# ---- errors
check "unknown flag" 2 "$DTX" sim plan --tpp 8
contains "suggests the flag" "$tmp/err" "unknown input --tpp \(did you mean --tp\?\)"
check "bad choice" 2 "$DTX" sim plan --recompute sometimes
contains "lists the choices" "$tmp/err" "expected one of: none, selective, full"
check "out of range" 2 "$DTX" sim plan --tp 0
contains "names the range" "$tmp/err" "tp must be between 1 and 64"
check "flag without value" 2 "$DTX" sim plan --pp
check "impossible plan" 1 "$DTX" sim plan --pp 64 --nodes 8
contains "says why" "$tmp/err" "PP=64 is more than the 32 layers"
check "help" 0 "$DTX" sim plan --help
contains "help lists inputs" "$tmp/out" "--microbatches"

if [[ $fails -ne 0 ]]; then
  echo "$fails check(s) failed"
  exit 1
fi
echo "sim plan: all checks passed"
