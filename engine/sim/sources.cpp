#include "sim/sources.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dtx::sim {

// ---------------------------------------------------------------------------------------
namespace {

// Memory
std::vector<SourcedFormula> memory_formulas() {
  return {
    {"memory.zero-paper", "model-state bytes per parameter per GPU (ZeRO paper)",
     "stage 0: 2+2+K; 1: 2+2+K/Nd; 2: 2+(2+K)/Nd; 3: (2+2+K)/Nd; per GPU ×P/MP",
     "Rajbhandari et al. 2020, ZeRO, section 5 and figure 1 (K = 12 for mixed-precision Adam)",
     "https://arxiv.org/abs/1910.02054"},
    {"memory.zero-paper.max-params", "largest model that fits (ZeRO paper)",
     "MP × device memory / bytes per parameter",
     "Rajbhandari et al. 2020, ZeRO, table 2 (32 GB V100, K = 12)", "https://arxiv.org/abs/1910.02054"},
    {"memory.deepspeed.zero2", "GPU and host bytes, ZeRO-1/2 (DeepSpeed estimator, current)",
     "GPU: 2P + 18P/N (offload: 2P); host per node: P·4·G·B (offload: P·max(4N, 16)·B)",
     "DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs (since PR #5099, "
     "June 2024)",
     "https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/stage_1_and_2.py"},
    {"memory.deepspeed-2023.zero2", "GPU and host bytes, ZeRO-1/2 (DeepSpeed estimator before June 2024)",
     "GPU: 4P + 16P/N (offload: 2P); host per node as the current estimator",
     "DeepSpeed stage_1_and_2.py, estimate_zero2_model_states_mem_needs before PR #5099; "
     "docs/code-docs/source/memory.rst",
     "https://github.com/microsoft/DeepSpeed/pull/5099"},
    {"memory.deepspeed.zero3", "GPU and host bytes, ZeRO-3 (DeepSpeed estimator)",
     "GPU: 4L + 18P/N (optimizer offload: 4L + 2P/N; parameter offload: 4L); host per node: zero_init ? "
     "L·4·G·B : P·4·G·B (offload: P·16/nodes·B or P·18/nodes·B with zero_init, else P·max(4G, 16 or 18/nodes)·B)",
     "DeepSpeed deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs",
     "https://github.com/microsoft/DeepSpeed/blob/master/deepspeed/runtime/zero/stage3.py"},
    {"memory.megatron", "weight and optimizer bytes per parameter (Megatron-LM)",
     "18 (2 BF16 weights + 4 FP32 main grads + 12 FP32 Adam); distributed optimizer: 6 + 12/d; per GPU ×P/MP",
     "Megatron-LM megatron/training/theoretical_memory_usage.py, num_bytes_per_parameter",
     "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/theoretical_memory_usage.py"},
    {"memory.activations", "activation bytes per layer per microbatch (plan explorer)",
     "s·b·h·(10 + 24/t + 5·a·s/(h·t)); with sequence parallelism s·b·h·(34 + 5·a·s/h)/t; selective "
     "recomputation drops the 5as/h term; full keeps the layer's input, 2·s·b·h (2·s·b·h/t with sequence "
     "parallelism)",
     "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, table 2",
     "https://arxiv.org/abs/2205.05198"},
    {"ring.allreduce-bytes", "bytes each rank sends in a ring AllReduce", "2(N-1)/N × M, in 2(N-1) steps of M/N",
     "Patarasuk and Yuan 2009, Bandwidth optimal all-reduce algorithms for clusters of workstations, JPDC 69(2)",
     "https://doi.org/10.1016/j.jpdc.2008.09.002"},
    {"plan.mfu", "model FLOPs utilisation", "(6·N + 12·L·H·Q·T)·tokens / (step time × GPUs × peak FLOP/s); L layers, "
     "H·Q the hidden size, T the sequence length: the attention term is the scores and their weighted sum",
     "Chowdhery et al. 2022, PaLM, appendix B (540B: 46.2 % at 238.3K tokens/s on 6,144 TPU v4)",
     "https://arxiv.org/abs/2204.02311"},
    {"plan.mfu-6n", "model FLOPs utilisation, the 6N approximation", "6·N·tokens / (step time × GPUs × peak FLOP/s)",
     "Kaplan et al. 2020, Scaling Laws for Neural Language Models, section 2.1 (C ≈ 6N per token, attention "
     "left out); PaLM appendix B adds it back", "https://arxiv.org/abs/2001.08361"},
    {"plan.hfu", "hardware FLOPs utilisation", "model FLOPs plus the recomputed forward (2·N + 4·L·H·Q·T per token "
     "with full recomputation) / (step time × GPUs × peak FLOP/s)",
     "Chowdhery et al. 2022, PaLM, appendix B; Korthikanti et al. 2022, section 6 (HFU counts recomputation)",
     "https://arxiv.org/abs/2204.02311"},
  };
}

// Collectives
std::vector<SourcedFormula> collective_formulas() {
  return {
    {"busbw.allreduce", "bus bandwidth of AllReduce", "busBw = algBw × 2(n-1)/n",
     "nccl-tests src/all_reduce.cu AllReduceGetBw; doc/PERFORMANCE.md",
     "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.reduce_scatter", "bus bandwidth of ReduceScatter", "busBw = algBw × (n-1)/n",
     "nccl-tests src/reduce_scatter.cu ReduceScatterGetBw", "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.all_gather", "bus bandwidth of AllGather", "busBw = algBw × (n-1)/n",
     "nccl-tests src/all_gather.cu AllGatherGetBw", "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.broadcast", "bus bandwidth of Broadcast", "busBw = algBw × 1",
     "nccl-tests src/broadcast.cu BroadcastGetBw", "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.reduce", "bus bandwidth of Reduce", "busBw = algBw × 1", "nccl-tests src/reduce.cu ReduceGetBw",
     "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.alltoall", "bus bandwidth of AlltoAll", "busBw = algBw × (n-1)/n",
     "nccl-tests src/alltoall.cu AlltoAllGetBw", "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.sendrecv", "bus bandwidth of SendRecv", "busBw = algBw × 1", "nccl-tests src/sendrecv.cu SendRecvGetBw",
     "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    {"busbw.allreduce.in-network", "link bytes per algBw byte of an in-network (SHARP/NVLS) AllReduce",
     "factor 1 in the ideal model: each rank sends its buffer into the switch once and receives the sum once "
     "(NCCL's NVLS implementation moves about (n+1)/n; nccl-tests still prints algBw × 2(n-1)/n)",
     "nccl-tests issue #366 (maintainer's answer: busBw keeps the ring formula for comparison)",
     "https://github.com/NVIDIA/nccl-tests/issues/366"},
  };
}

// Pipeline
std::vector<SourcedFormula> pipeline_formulas() {
  return {
    {"pipeline.naive", "bubble without microbatching", "(p-1)/p of the step: one stage works at a time",
     "Huang et al. 2019, GPipe, section 2.3 (the unpipelined baseline of its figure 2)", "https://arxiv.org/abs/1811.06965"},
    {"pipeline.gpipe", "GPipe bubble", "(p-1)/(m+p-1) of the step; all m forwards before any backward",
     "Huang et al. 2019, GPipe, section 2.3", "https://arxiv.org/abs/1811.06965"},
    {"pipeline.1f1b", "1F1B bubble and warm-up", "bubble (p-1)/(m+p-1) of the step; warm-up min(p-r-1, m)",
     "Megatron-LM megatron/core/pipeline_parallel/schedules.py, get_pp_rank_microbatches (non-interleaved)",
     "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/pipeline_parallel/schedules.py"},
    {"pipeline.interleaved", "interleaved warm-up with microbatch group G",
     "warm-up min(2(p-r-1) + (v-1)·G, m·v); G in [p, m], default p; m mod G = 0 or ≥ p",
     "Megatron-LM schedules.py, get_pp_rank_microbatches and get_schedule_table "
     "(microbatch_group_size_per_vp_stage)",
     "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/pipeline_parallel/schedules.py"},
    {"pipeline.zb-h1", "ZB-H1 bubble", "(p-1)(f+b-w) per stage; peak memory p microbatches",
     "Qi et al. 2023, Zero Bubble Pipeline Parallelism, section 2 and table 2", "https://arxiv.org/abs/2401.10241"},
    {"pipeline.zb-h2", "ZB-H2 bubble", "(p-1)(f+b-2w) per stage; peak memory 2p-1 microbatches",
     "Qi et al. 2023, Zero Bubble Pipeline Parallelism, section 2.2, figure 3 and table 2",
     "https://arxiv.org/abs/2401.10241"},
    {"pipeline.zb-v", "ZB-V bubble and memory",
     "2 chunks per stage in a V (stage s holds chunks s and 2p-1-s); no idle inside a stage's span when f = b = w "
     "and m ≥ 2p-1; peak memory p microbatches, as 1F1B",
     "Qi et al. 2023, Zero Bubble Pipeline Parallelism, section 6; sail-sg/zero-bubble-pipeline-parallelism "
     "README.md (table of schedules, T_F = T_B = T_W) and megatron/core/pipeline_parallel/zerobubble/scheduler/"
     "zbv.py, PipelineGraph.try_v_schedule (the order)",
     "https://github.com/sail-sg/zero-bubble-pipeline-parallelism"},
    {"pipeline.dualpipe", "DualPipe bubble and memory",
     "(PP/2-1)(F&B+B-3W) per stage with F&B = f+b+w, B = b+w, W = w: (p/2-1)(f+2b-w); parameters 2x, "
     "activations PP+1 microbatches; p even, m even and ≥ 2p",
     "DeepSeek-AI 2024, DeepSeek-V3 Technical Report, section 3.2.1 and table 2; deepseek-ai/DualPipe "
     "dualpipe/dualpipe.py, DualPipe.step (the order)",
     "https://arxiv.org/abs/2412.19437"},
  };
}

// Checkpointing
std::vector<SourcedFormula> checkpoint_formulas() {
  return {
    {"checkpoint.young", "checkpoint interval (Young)", "sqrt(2·C·M)",
     "Young 1974, A first order approximation to the optimum checkpoint interval, CACM 17(9)",
     "https://doi.org/10.1145/361147.361115"},
    {"checkpoint.daly", "checkpoint interval (Daly, higher order)",
     "sqrt(2CM)·[1 + (1/3)·sqrt(C/(2M)) + (1/9)·C/(2M)] - C when C < 2M, else M",
     "Daly 2006, A higher order estimate of the optimum checkpoint interval for restart dumps, FGCS 22(3)",
     "https://doi.org/10.1016/j.future.2004.11.016"},
  };
}

// Mixed precision
std::vector<SourcedFormula> mixed_precision_formulas() {
  return {
    {"gradscaler", "dynamic loss scale",
     "overflow: scale × backoff_factor, tracker 0; clean: tracker + 1, and at growth_interval scale × "
     "growth_factor (if finite), tracker 0; defaults 2^16, 2.0, 0.5, 2000",
     "PyTorch torch/amp/grad_scaler.py and aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp "
     "(_amp_update_scale_cpu_kernel)",
     "https://github.com/pytorch/pytorch/blob/main/torch/amp/grad_scaler.py"},
  };
}

// Roofline and the bandwidth hierarchy (engine/sim/roofline.h)
std::vector<SourcedFormula> roofline_formulas() {
  return {
    {"roofline.attainable", "attainable FLOP/s and time of an operation",
     "min(peak, I × HBM bandwidth) for intensity I in FLOP/byte; time max(FLOPs/peak, bytes/bandwidth); ridge at "
     "peak/bandwidth",
     "Williams, Waterman and Patterson 2009, Roofline: an insightful visual performance model for multicore "
     "architectures, CACM 52(4)",
     "https://doi.org/10.1145/1498765.1498785"},
    {"hierarchy.nvlink-direction", "NVLink bandwidth per GPU per direction",
     "the datasheet's NVLink figure / 2 (it counts both directions together: 900 GB/s on an H100 is 450 each way)",
     "NVIDIA H100 Tensor Core GPU datasheet (NVLink 900 GB/s, bidirectional); NVLink 4 is 18 links of 25 GB/s "
     "each way",
     "https://www.nvidia.com/en-us/data-center/h100/"},
    {"hierarchy.cross-pod", "bandwidth per GPU between pods under oversubscription",
     "network port / k above a 1:k oversubscribed layer, when every GPU crosses at once; a transfer takes bytes / "
     "bandwidth",
     "Dubey et al. 2024, The Llama 3 Herd of Models, section 3.3.1 (24K GPUs, 1:7 oversubscription between pods)",
     "https://arxiv.org/abs/2407.21783"},
  };
}

// Scaling
std::vector<SourcedFormula> scaling_formulas() {
  return {
    {"scaling.flops", "training compute", "C = 6·N·D FLOPs",
     "Kaplan et al. 2020, Scaling Laws for Neural Language Models, section 2.1", "https://arxiv.org/abs/2001.08361"},
    {"scaling.tokens-per-param", "tokens per parameter", "D/N (compute-optimal about 20)",
     "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models (Chinchilla), table 3",
     "https://arxiv.org/abs/2203.15556"},
  };
}

}  // namespace

// Every formula, group by group, in the order `dtx sim --formulas` lists them.
const std::vector<SourcedFormula>& sourced_formulas() {
  static const std::vector<SourcedFormula> f = [] {
    std::vector<SourcedFormula> all;
    for (auto group : {&memory_formulas, &collective_formulas, &pipeline_formulas, &checkpoint_formulas,
                       &mixed_precision_formulas, &roofline_formulas, &scaling_formulas}) {
      const std::vector<SourcedFormula> part = group();
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return f;
}

const SourcedFormula* find_formula(std::string_view id) {
  for (const auto& f : sourced_formulas())
    if (id == f.id) return &f;
  return nullptr;
}

std::string formula_with_source(std::string_view id) {
  const SourcedFormula* f = find_formula(id);
  if (!f) return "";
  std::string s = f->formula;
  s += "\nSource: ";
  s += f->source;
  return s;
}

// ---------------------------------------------------------------------------------------
const char* memory_source_name(MemorySource s) {
  switch (s) {
    case MemorySource::ZeroPaper: return "zero-paper";
    case MemorySource::DeepSpeed: return "deepspeed";
    case MemorySource::DeepSpeed2023: return "deepspeed-2023";
    case MemorySource::Megatron: return "megatron";
  }
  return "?";
}

const char* offload_name(Offload o) {
  switch (o) {
    case Offload::None: return "none";
    case Offload::Optimizer: return "optimizer";
    case Offload::Params: return "params";
  }
  return "?";
}

double zero_paper_bytes_per_param(double k, int stage, int dp) {
  const double nd = std::max(1, dp);
  const double w = 2, g = 2;
  switch (stage) {
    case 0: return w + g + k;
    case 1: return w + g + k / nd;
    case 2: return w + (g + k) / nd;
    default: return (w + g + k) / nd;
  }
}

// Python's int() truncates toward zero; every operand here is non-negative.
static double py_int(double x) { return std::trunc(x); }

DeepSpeedEstimate deepspeed_zero2_estimate(double params, int gpus_per_node, int nodes, bool cpu_offload,
                                           double buffer_factor, bool before_2024) {
  const double total_gpus = static_cast<double>(nodes) * gpus_per_node;
  DeepSpeedEstimate e;
  if (cpu_offload) {
    e.gpu_bytes = 2 * params;
    e.cpu_bytes = params * std::max(4 * total_gpus, 16.0) * buffer_factor;
  } else {
    // 2 BF16 weights, then 2 BF16 grads + 4 FP32 grads + 4 FP32 weights + 8 Adam sharded;
    // before June 2024 DeepSpeed counted 4 + 16/N.
    e.gpu_bytes = before_2024 ? 4 * params + py_int(16 * params / total_gpus)
                              : 2 * params + py_int(18 * params / total_gpus);
    e.cpu_bytes = params * 4 * gpus_per_node * buffer_factor;
  }
  e.cpu_bytes = py_int(e.cpu_bytes);
  e.gpu_bytes = py_int(e.gpu_bytes);
  return e;
}

DeepSpeedEstimate deepspeed_zero3_estimate(double params, double largest_layer, int gpus_per_node, int nodes,
                                           bool cpu_offload, bool cpu_offload_params, bool zero_init,
                                           double buffer_factor) {
  const double total_gpus = static_cast<double>(nodes) * gpus_per_node;
  const double gpus_factor = 1.0 / nodes;
  DeepSpeedEstimate e;
  e.largest_layer_bytes = 4 * largest_layer;  // the gathered layer, FP32 as DeepSpeed counts it
  if (cpu_offload) {
    if (cpu_offload_params) {
      e.gpu_bytes = e.largest_layer_bytes;
      e.cpu_bytes = zero_init ? params * 18 * gpus_factor * buffer_factor
                              : params * std::max(4.0 * gpus_per_node, 18 * gpus_factor) * buffer_factor;
    } else {
      e.gpu_bytes = e.largest_layer_bytes + py_int(2 * params / total_gpus);
      e.cpu_bytes = zero_init ? params * 16 * gpus_factor * buffer_factor
                              : params * std::max(4.0 * gpus_per_node, 16 * gpus_factor) * buffer_factor;
    }
  } else {
    e.gpu_bytes = e.largest_layer_bytes + py_int(18 * params / total_gpus);
    e.cpu_bytes = zero_init ? largest_layer * 4 * gpus_per_node * buffer_factor
                            : params * 4 * gpus_per_node * buffer_factor;
  }
  e.cpu_bytes = py_int(e.cpu_bytes);
  e.gpu_bytes = py_int(e.gpu_bytes);
  return e;
}

double megatron_bytes_per_param(bool distributed_optimizer, int dp) {
  return distributed_optimizer ? 6 + 12.0 / std::max(1, dp) : 18;
}

namespace {

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// DeepSpeed's estimators: one GPU figure and a host figure per node, sharded over every GPU.
MemoryEstimate deepspeed_memory(const MemoryQuery& q, int64_t gpus, double device_bytes, MemoryEstimate r) {
  auto fail = [&](std::string why) {
    r.error = std::move(why);
    return r;
  };
  const char* name = memory_source_name(q.source);
  if (q.mp > 1)
    return fail(std::string("DeepSpeed's estimators (source ") + name +
                ") have no model-parallel input: drop --mp, or use --source zero-paper or megatron");
  if (q.dp > 0 && q.dp != gpus)
    return fail("DeepSpeed's estimators shard over every GPU: --dp " + num(q.dp) + " is not nodes × gpus_per_node = " +
                num(static_cast<double>(gpus)));
  if (q.zero == 0)
    return fail("DeepSpeed's estimators cover ZeRO stages 1-2 (stage_1_and_2.py) and 3 (stage3.py); give --zero 1, 2 or 3");
  r.dp = static_cast<int>(gpus);
  r.cpu_modelled = true;
  DeepSpeedEstimate e;
  double per_param = 0, fixed = 0;  // gpu_bytes ≈ per_param·P + fixed, for max_params
  if (q.zero <= 2) {
    if (q.offload == Offload::Params)
      return fail("ZeRO-1/2 cannot offload parameters (only the optimizer); parameter offload needs --zero 3");
    const bool old = q.source == MemorySource::DeepSpeed2023;
    e = deepspeed_zero2_estimate(q.params, q.gpus_per_node, q.nodes, q.offload == Offload::Optimizer,
                                 q.buffer_factor, old);
    r.formula_id = old ? "memory.deepspeed-2023.zero2" : "memory.deepspeed.zero2";
    per_param = q.offload == Offload::Optimizer ? 2 : old ? 4 + 16.0 / gpus : 2 + 18.0 / gpus;
  } else {
    if (!(q.largest_layer > 0))
      return fail("ZeRO-3's estimate needs --largest_layer: the parameters of the largest single module "
                  "(DeepSpeed gathers it whole on every GPU)");
    e = deepspeed_zero3_estimate(q.params, q.largest_layer, q.gpus_per_node, q.nodes, q.offload != Offload::None,
                                 q.offload == Offload::Params, q.zero_init, q.buffer_factor);
    r.formula_id = "memory.deepspeed.zero3";
    r.largest_layer_bytes = e.largest_layer_bytes;
    per_param = q.offload == Offload::Params ? 0 : q.offload == Offload::Optimizer ? 2.0 / gpus : 18.0 / gpus;
    fixed = e.largest_layer_bytes;
  }
  r.gpu_bytes = e.gpu_bytes;
  r.cpu_bytes = e.cpu_bytes;
  r.bytes_per_param = r.gpu_bytes / q.params;
  if (device_bytes > 0)
    r.max_params = per_param > 0 ? std::max(0.0, (device_bytes - fixed) / per_param)
                                 : (fixed <= device_bytes ? INFINITY : 0);
  return r;
}

// The ZeRO paper's and Megatron-LM's counts: weights, gradients and optimizer states apart,
// on GPUs only.
MemoryEstimate split_memory(const MemoryQuery& q, double device_bytes, MemoryEstimate r) {
  auto fail = [&](std::string why) {
    r.error = std::move(why);
    return r;
  };
  if (q.offload != Offload::None)
    return fail(std::string("the ") + (q.source == MemorySource::Megatron ? "Megatron-LM estimator" : "ZeRO paper") +
                " does not model offload; use --source deepspeed for host memory and offload");
  const double per_gpu_params = q.params / q.mp;
  if (q.source == MemorySource::ZeroPaper) {
    r.formula_id = "memory.zero-paper";
    const double nd = r.dp;
    r.weights_bytes = 2 * per_gpu_params / (q.zero >= 3 ? nd : 1);
    r.grads_bytes = 2 * per_gpu_params / (q.zero >= 2 ? nd : 1);
    r.optimizer_bytes = q.k * per_gpu_params / (q.zero >= 1 ? nd : 1);
    const double bpp = zero_paper_bytes_per_param(q.k, q.zero, r.dp);
    r.gpu_bytes = per_gpu_params * bpp;
    if (device_bytes > 0) r.max_params = q.mp * device_bytes / bpp;
  } else {
    if (q.zero >= 2)
      return fail("Megatron-LM's estimator knows the distributed optimizer (like ZeRO-1: --zero 1) or none (--zero 0); "
                  "ZeRO-2/3 are not in it");
    r.formula_id = "memory.megatron";
    const bool dist = q.zero == 1;
    r.weights_bytes = 2 * per_gpu_params;
    r.grads_bytes = 4 * per_gpu_params;  // FP32 main gradients, never sharded
    r.optimizer_bytes = 12 * per_gpu_params / (dist ? r.dp : 1);
    const double bpp = megatron_bytes_per_param(dist, r.dp);
    r.gpu_bytes = per_gpu_params * bpp;
    if (device_bytes > 0) r.max_params = q.mp * device_bytes / bpp;
  }
  r.bytes_per_param = r.gpu_bytes / q.params;
  return r;
}

}  // namespace

MemoryEstimate estimate_memory(const MemoryQuery& q) {
  MemoryEstimate r;
  auto fail = [&](std::string why) {
    r.error = std::move(why);
    return r;
  };
  if (!(q.params > 0) || !std::isfinite(q.params)) return fail("--params must be a positive number of parameters");
  if (q.zero < 0 || q.zero > 3) return fail("--zero must be a ZeRO stage from 0 to 3");
  if (q.gpus_per_node < 1 || q.nodes < 1 || q.mp < 1) return fail("--gpus_per_node, --nodes and --mp must be at least 1");
  const int64_t gpus = static_cast<int64_t>(q.gpus_per_node) * q.nodes;
  const bool deepspeed = q.source == MemorySource::DeepSpeed || q.source == MemorySource::DeepSpeed2023;
  if (q.dp > 0) {
    r.dp = q.dp;
  } else {
    if (gpus % q.mp != 0)
      return fail("the " + num(static_cast<double>(gpus)) + " GPUs (nodes × gpus_per_node) do not divide by --mp " +
                  num(q.mp) + "; give --dp");
    r.dp = static_cast<int>(gpus / q.mp);
  }
  const double device_bytes = q.device_mem_gb * 1e9;
  if (deepspeed) return deepspeed_memory(q, gpus, device_bytes, r);
  return split_memory(q, device_bytes, r);
}

// ---------------------------------------------------------------------------------------
const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> c = {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather,
                                            Collective::Broadcast, Collective::Reduce,        Collective::AllToAll,
                                            Collective::SendRecv};
  return c;
}

const char* collective_op_name(Collective c) {
  switch (c) {
    case Collective::AllReduce: return "allreduce";
    case Collective::ReduceScatter: return "reduce_scatter";
    case Collective::AllGather: return "all_gather";
    case Collective::Broadcast: return "broadcast";
    case Collective::Reduce: return "reduce";
    case Collective::AllToAll: return "alltoall";
    case Collective::SendRecv: return "sendrecv";
  }
  return "?";
}

const char* collective_op_label(Collective c) {
  switch (c) {
    case Collective::AllReduce: return "AllReduce";
    case Collective::ReduceScatter: return "ReduceScatter";
    case Collective::AllGather: return "AllGather";
    case Collective::Broadcast: return "Broadcast";
    case Collective::Reduce: return "Reduce";
    case Collective::AllToAll: return "AlltoAll";
    case Collective::SendRecv: return "SendRecv";
  }
  return "?";
}

double nccl_tests_busbw_factor(Collective c, int n) {
  const double nn = n;
  switch (c) {
    case Collective::AllReduce: return 2 * (nn - 1) / nn;
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll: return (nn - 1) / nn;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv: return 1;
  }
  return 1;
}

double busbw_factor(Collective c, int n, bool in_network) {
  if (in_network && c == Collective::AllReduce) return 1;
  return nccl_tests_busbw_factor(c, n);
}

const char* collective_formula_id(Collective c, bool in_network) {
  switch (c) {
    case Collective::AllReduce: return in_network ? "busbw.allreduce.in-network" : "busbw.allreduce";
    case Collective::ReduceScatter: return "busbw.reduce_scatter";
    case Collective::AllGather: return "busbw.all_gather";
    case Collective::Broadcast: return "busbw.broadcast";
    case Collective::Reduce: return "busbw.reduce";
    case Collective::AllToAll: return "busbw.alltoall";
    case Collective::SendRecv: return "busbw.sendrecv";
  }
  return "";
}

// ---------------------------------------------------------------------------------------
double young_interval_s(double cost_s, double mtbf_s) { return std::sqrt(2 * cost_s * mtbf_s); }

double daly_interval_s(double cost_s, double mtbf_s) {
  if (cost_s >= 2 * mtbf_s) return mtbf_s;
  const double x = cost_s / (2 * mtbf_s);
  return std::sqrt(2 * cost_s * mtbf_s) * (1 + std::sqrt(x) / 3 + x / 9) - cost_s;
}

// ---------------------------------------------------------------------------------------
bool parse_gradscaler_steps(std::string_view text, std::vector<GradScalerRun>* out, std::string* error) {
  out->clear();
  int64_t total = 0;
  size_t i = 0, item = 0;
  auto bad = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (text.size() > 4096) return bad("--steps is longer than 4096 characters");
  while (i <= text.size()) {
    size_t j = text.find(',', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view tok = text.substr(i, j - i);
    ++item;
    while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
    while (!tok.empty() && tok.back() == ' ') tok.remove_suffix(1);
    const std::string where = "--steps item " + std::to_string(item) + " '" + std::string(tok) + "'";
    if (tok.empty()) return bad(where + ": expected a count and o (overflow) or c (clean), like 3o or 2000c");
    const char kind = tok.back();
    if (kind != 'o' && kind != 'c')
      return bad(where + ": ends in '" + std::string(1, kind) + "'; expected o (overflow) or c (clean)");
    tok.remove_suffix(1);
    int64_t count = 1;
    if (!tok.empty()) {
      if (tok.size() > 10 || tok.find_first_not_of("0123456789") != std::string_view::npos)
        return bad(where + ": expected a whole count before the letter, like 3o or 2000c");
      count = std::strtoll(std::string(tok).c_str(), nullptr, 10);
    }
    if (count < 1) return bad(where + ": a run needs at least one step");
    total += count;
    if (total > 1000000000) return bad("--steps adds up to more than 10^9 steps");
    out->push_back({kind, count});  // kept as written: the trace has one line per item
    if (out->size() > 1000) return bad("--steps has more than 1000 items");
    i = j + 1;
    if (j == text.size()) break;
  }
  return true;
}

std::vector<GradScalerPoint> run_gradscaler(const GradScalerConfig& cfg, const std::vector<GradScalerRun>& runs) {
  std::vector<GradScalerPoint> trace;
  float scale = static_cast<float>(cfg.init_scale);
  int64_t tracker = 0, step = 0, skipped = 0;
  for (const GradScalerRun& run : runs) {
    if (run.kind == 'o') {
      // Each overflow multiplies by backoff in float32, as the kernel stores it.
      for (int64_t k = 0; k < run.count; ++k) scale = static_cast<float>(scale * cfg.backoff_factor);
      tracker = 0;
      skipped += run.count;
    } else {
      // Clean steps only matter when the tracker reaches the interval: jump there.
      int64_t left = run.count;
      while (left > 0) {
        const int64_t to_growth = cfg.growth_interval - tracker;
        if (cfg.growth_interval <= 0 || left < to_growth) {
          tracker += left;
          left = 0;
        } else {
          left -= to_growth;
          const float grown = static_cast<float>(scale * cfg.growth_factor);
          if (std::isfinite(grown)) scale = grown;
          tracker = 0;
          // Once a growth would overflow float32 or round back to the same float, every later
          // interval leaves the scale as it is: skip them (10^9 steps stay instant).
          const float next = static_cast<float>(scale * cfg.growth_factor);
          if (!std::isfinite(next) || next == scale) {
            tracker = left % cfg.growth_interval;
            left = 0;
          }
        }
      }
    }
    step += run.count;
    trace.push_back({step, run.kind, run.count, scale, tracker, skipped});
  }
  return trace;
}

// ---------------------------------------------------------------------------------------
double training_flops(double params, double tokens) { return 6 * params * tokens; }

// ---------------------------------------------------------------------------------------
namespace {

const WidgetKind& memory_kind() {
  static const WidgetKind k = {
      "memory",
      "Model-state memory by source",
      "GPU and host bytes of weights, gradients and optimizer states, as the ZeRO paper, DeepSpeed or Megatron-LM count them",
      {
          {"source", "source", 0, 3, 0, true, false, {"zero-paper", "deepspeed", "deepspeed-2023", "megatron"},
           "zero-paper (2+2+K), deepspeed (estimators since June 2024), deepspeed-2023 (before), megatron "
           "(theoretical_memory_usage.py)"},
          {"params", "parameters", 1, 1e15, 7.5e9, false, true, {}, "P, the whole model's parameters"},
          {"K", "K", 0, 64, 12, false, false, {}, "ZeRO paper: optimizer bytes per parameter (Adam 12)"},
          {"zero", "ZeRO stage", 0, 3, 0, true, false, {}, "0..3"},
          {"dp", "DP", 0, 1048576, 0, true, true, {}, "data-parallel degree (ZeRO shards); 0 = nodes·gpus_per_node/mp", true},
          {"mp", "MP", 1, 65536, 1, true, true, {}, "model-parallel degree: each GPU holds P/MP (zero-paper, megatron)"},
          {"gpus_per_node", "GPUs per node", 1, 1024, 8, true, false, {}, "GPUs per node"},
          {"nodes", "nodes", 1, 1048576, 1, true, true, {}, "nodes"},
          {"largest_layer", "largest layer", 0, 1e13, 0, false, true, {},
           "DeepSpeed ZeRO-3: parameters of the largest single module"},
          {"offload", "offload", 0, 2, 0, true, false, {"none", "optimizer", "params"},
           "DeepSpeed: none, optimizer (ZeRO-Offload), params (ZeRO-3 parameter and optimizer offload)"},
          {"zero_init", "zero_init", 0, 1, 1, true, false, {}, "DeepSpeed ZeRO-3: 1 = parameters partitioned as built"},
          {"buffer_factor", "buffer factor", 0, 16, 1.5, false, false, {}, "DeepSpeed's additional_buffer_factor (host memory)"},
          {"device_mem_gb", "device memory (GB)", 0, 1e6, 0, false, false, {},
           "> 0: also the largest model that fits in this much GPU memory (10^9 bytes)", true},
      }};
  return k;
}

const WidgetKind& collective_kind() {
  static const WidgetKind k = {
      "collective",
      "Bus bandwidth",
      "nccl-tests' busBw factor of each collective, and the in-network AllReduce's",
      {
          {"op", "collective", 0, 6, 0, true, false,
           {"allreduce", "reduce_scatter", "all_gather", "broadcast", "reduce", "alltoall", "sendrecv"},
           "the collective, as nccl-tests names its tests"},
          {"N", "ranks n", 1, 1048576, 8, true, true, {}, "ranks taking part"},
          {"algbw_gbs", "algBw (GB/s)", 0, 1e6, 0, false, false, {}, "measured algorithm bandwidth (bytes / time), 10^9 B/s", true},
          {"in_network", "in-network", 0, 1, 0, true, false, {}, "1 = reduction in the switch (SHARP / NVLS); AllReduce only"},
      }};
  return k;
}

const WidgetKind& checkpoint_kind() {
  static const WidgetKind k = {
      "checkpoint",
      "Checkpoint interval",
      "Young's and Daly's optimum checkpoint intervals",
      {
          {"cost_s", "checkpoint cost (s)", 0, 1e9, 60, false, true, {}, "C: seconds to write one checkpoint"},
          {"mtbf_s", "MTBF (s)", 1e-3, 1e12, 86400, false, true, {}, "M: mean time between failures of the job, seconds"},
      }};
  return k;
}

const WidgetKind& gradscaler_kind() {
  static const WidgetKind k = {
      "gradscaler",
      "Dynamic loss scale",
      "PyTorch GradScaler's scale and growth tracker over a run of overflow and clean steps",
      {
          {"init_scale", "initial scale", 1e-30, 3.4e38, 65536, false, true, {}, "init_scale (PyTorch default 2^16)"},
          {"growth_factor", "growth factor", 1, 1e6, 2, false, false, {}, "growth_factor (default 2.0)"},
          {"backoff_factor", "backoff factor", 1e-6, 0.999999, 0.5, false, false, {}, "backoff_factor (default 0.5)"},
          {"growth_interval", "growth interval", 1, 1e9, 2000, true, true, {}, "growth_interval (default 2000)"},
      }};
  return k;
}

const WidgetKind& scaling_kind() {
  static const WidgetKind k = {
      "scaling",
      "Training compute",
      "6·N·D training FLOPs and tokens per parameter",
      {
          {"params", "parameters N", 1, 1e16, 7e9, false, true, {}, "N, model parameters"},
          {"tokens", "tokens D", 1, 1e18, 2e12, false, true, {}, "D, training tokens"},
      }};
  return k;
}

}  // namespace

const std::vector<const WidgetKind*>& calculator_kinds() {
  static const std::vector<const WidgetKind*> k = {&memory_kind(), &collective_kind(), &checkpoint_kind(),
                                                   &gradscaler_kind(), &scaling_kind()};
  return k;
}

const WidgetKind* find_calculator_kind(std::string_view kind) {
  for (const WidgetKind* k : calculator_kinds())
    if (kind == k->kind) return k;
  return nullptr;
}

MemoryQuery memory_query_from(const WidgetValues& v) {
  MemoryQuery q;
  q.source = static_cast<MemorySource>(std::clamp(v.get_int("source"), 0, 3));
  q.params = v.get("params");
  q.k = v.get("K");
  q.zero = v.get_int("zero");
  q.dp = v.get_int("dp");
  q.mp = v.get_int("mp");
  q.gpus_per_node = v.get_int("gpus_per_node");
  q.nodes = v.get_int("nodes");
  q.largest_layer = v.get("largest_layer");
  q.offload = static_cast<Offload>(std::clamp(v.get_int("offload"), 0, 2));
  q.zero_init = v.get_int("zero_init") != 0;
  q.buffer_factor = v.get("buffer_factor");
  q.device_mem_gb = v.get("device_mem_gb");
  return q;
}

double palm_model_flops_per_token(double params, int layers, int hidden, int seq) {
  return 6 * params + 12.0 * layers * hidden * seq;
}

}  // namespace dtx::sim
