// Training-plan explorer: for a model, a cluster and a parallel plan (TP, PP, DP, CP, ZeRO,
// microbatching, recomputation), the memory one GPU needs by bucket, the bytes each parallel
// dimension sends per step and over which link, and an estimate of step time and MFU.
//
// Conventions (the course's, see exercises/ERRATA.md): GB = 10^9 bytes; mixed-precision Adam
// at 16 bytes/param (2 BF16 weights + 2 BF16 gradients + 12 FP32 master, m, v) by default,
// or the model-state memory of another source (DeepSpeed's estimators, Megatron-LM's
// theoretical memory) through engine/sim/sources.h, the same functions `dtx sim memory` runs;
// activations by Korthikanti et al. 2022; model FLOPs 6·N per token; 1F1B bubble
// (PP-1)/(m+PP-1). Every assumption behind the estimate is listed by plan_assumptions().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hardware.h"
#include "sim/sources.h"
#include "sim/widget.h"

namespace dtx::sim {

// A transformer's architecture. Counts ignore norms and biases (under 0.01 % of a layer).
struct ModelSpec {
  const char* id;           // "405b": what the `model` input names
  const char* name;         // "Llama 3 405B"
  double nominal_params_b;  // the advertised size, for comparison with the computed count
  int layers, hidden, heads, kv_heads, ffn, vocab, seq;
  bool swiglu;              // gated MLP with three h x ffn matrices (Llama); else two (GPT)
  bool tied_embeddings;     // the output head reuses the input embedding (GPT-3)
  bool learned_positions;   // a seq x hidden position table (GPT-3); Llama uses RoPE
};

const std::vector<ModelSpec>& model_presets();
const ModelSpec* find_model(std::string_view id);  // nullptr when unknown

// Parameters from the architecture.
double layer_params(const ModelSpec& m);      // attention (GQA-aware) + MLP, one layer
double embedding_params(const ModelSpec& m);  // vocabulary matrices (+ positions)
double model_params(const ModelSpec& m);      // layers x layer_params + embedding_params

enum class Recompute { None, Selective, Full };

// Activation bytes one layer keeps for one microbatch until its backward pass (Korthikanti et
// al. 2022, 16-bit activations, no flash attention unless `flash`): s tokens (already divided
// by CP), microbatch b, hidden h, a heads, TP degree t.
//   no recompute, no SP:  s·b·h·(10 + 24/t + 5·a·s/(h·t))   (t = 1: s·b·h·(34 + 5as/h))
//   no recompute, SP:     s·b·h·(34 + 5·a·s/h)/t
//   selective:            the 5as/h attention-score term is recomputed, so dropped
//   full:                 only the layer's input, 2·s·b·h (divided by t with SP)
// `flash` (a fused attention kernel) never stores the scores either: like selective.
double activation_bytes_per_layer(double s, double b, double h, double a, int t, bool sp,
                                  Recompute r, bool flash);

// Everything the explorer takes, resolved: presets looked up, overrides applied, zeros
// ("the preset's", "the rest of the GPUs") replaced by values.
struct PlanInput {
  ModelSpec model{};
  double params_override = 0;  // total parameters when > 0 (params_b x 10^9)
  GpuSpec gpu{};
  int nodes = 1, gpus_per_node = 8;
  int tp = 1, pp = 1, dp = 1, cp = 1;
  bool dp_derived = false;     // dp was 0: GPUs / (TP·PP·CP)
  int zero = 0;                // ZeRO stage 0-3
  int mbs = 1;                 // sequences per microbatch
  int microbatches = 1;        // per step, per DP replica
  Recompute recompute = Recompute::None;
  bool sp = false, flash = false;
  double efficiency = 0.6;     // fraction of the dense peak the kernels reach
  // Which GPU the memory figures describe. Even: every parameter spread evenly over TP·PP
  // and layers/PP layers of activations (the average GPU, as the exercises count). First: a
  // GPU of the first pipeline stage, the fullest (ceil(layers/PP) layers) plus the input
  // embedding: the one that runs out of memory first.
  bool first_stage = false;
  // Whose count of the model states (weights, gradients, optimizer) the memory follows, and
  // what DeepSpeed offloads to the host (the other conventions have no offload: ignored).
  MemorySource convention = MemorySource::ZeroPaper;
  Offload offload = Offload::None;
};

// Reads the widget inputs (see plan_widget_kind()).
PlanInput plan_input_from(const WidgetValues& v);

enum class Link { None, NVLink, InfiniBand };
const char* link_name(Link l);  // "NVLink", "InfiniBand", "none"

// One parallel dimension's traffic per step, for one GPU.
struct CommRow {
  const char* dim = "";       // "DP", "TP", "PP", "CP"
  std::string what;           // "gradient AllReduce", "2+2 AllReduces per layer per microbatch"
  int group = 1;              // GPUs in the group
  double bytes = 0;           // sent per GPU per step
  Link link = Link::None;
  double link_gbs = 0;        // per direction
  double time_s = 0;          // bytes / link
  double exposed_s = 0;       // the part that adds to the step time
};

struct PlanResult {
  std::string error;  // non-empty: the plan cannot run at all (the reason, in a sentence)

  // derived plan
  int gpus = 0;            // in the cluster: nodes x gpus_per_node
  int64_t plan_gpus = 0;   // TP·PP·DP·CP
  int seq = 0;             // tokens per sequence
  int seq_per_gpu = 0;     // seq / CP
  int layers_per_stage = 0;  // the fullest stage: ceil(layers / PP); it sets the pace
  double memory_layers = 0;  // layers whose activations the described GPU keeps
  int in_flight = 0;       // microbatches whose activations stage 0 holds: min(PP, m)
  int shard_group = 1;     // ZeRO shards and gradients reduce over DP·CP GPUs

  // parameters
  double params = 0;               // whole model (computed, or the override)
  double layer_params = 0;         // one layer
  double embedding_params = 0;     // whole model's vocabulary (+ position) matrices
  double gpu_layer_params = 0;     // the described GPU's share of the layers
  double gpu_embedding_params = 0; // and of the vocabulary matrices
  double gpu_params = 0;           // the sum: what the 16 bytes/param apply to

  // memory per GPU (the GPU PlanInput::first_stage describes)
  // The split into weights, gradients and optimizer states, when the convention makes one
  // (ZeRO paper, Megatron-LM); DeepSpeed's estimators give one lump (memory_split false,
  // the three are 0 and model_states_bytes holds it).
  double weights_bytes = 0, grads_bytes = 0, optimizer_bytes = 0, activations_bytes = 0;
  double model_states_bytes = 0;  // weights + gradients + optimizer, or DeepSpeed's lump
  bool memory_split = true;
  double activation_layer_bytes = 0;  // one layer, one microbatch
  double total_bytes = 0, capacity_bytes = 0;
  bool fits = false;
  double model_state_bytes() const { return model_states_bytes; }

  // The convention as applied: the offload and ZeRO stage its formula was evaluated with
  // (a convention without offload ignores it; Megatron-LM knows ZeRO 0 or 1 only; DeepSpeed
  // has no stage-0 estimator), and the sources.h entry behind the model-state figure.
  MemorySource convention = MemorySource::ZeroPaper;
  Offload offload = Offload::None;
  int memory_zero = 0;
  const char* memory_formula_id = "memory.zero-paper";
  // Parameters of the largest single module on this GPU (what DeepSpeed's ZeRO-3 gathers
  // whole), and the 4 bytes per parameter its estimator adds for it (ZeRO-3 with DeepSpeed).
  double largest_layer_params = 0, largest_layer_bytes = 0;
  // Host (CPU) memory per node, as DeepSpeed's estimators count it; 0 with cpu_modelled
  // false when the convention has no host figure (ZeRO paper, Megatron-LM, DeepSpeed
  // stage 0, or a shard group that does not fill whole nodes).
  double cpu_bytes_per_node = 0;
  bool cpu_modelled = false;

  // traffic, always DP, TP, PP, CP in that order (rows for degree 1 have zero bytes)
  std::vector<CommRow> comm;

  // time
  double tokens_per_step = 0;
  double model_flops = 0;     // (6·N + 12·L·h·s)·tokens, PaLM appendix B
  double model_flops_6n = 0;  // 6·N·tokens, the approximation that leaves attention out
  double hardware_flops = 0;  // model FLOPs plus the recomputed forward with full recomputation
  double compute_s = 0;       // one GPU's share of the FLOPs at peak x efficiency
  double bubble = 0;          // idle/total, (PP-1)/(m+PP-1)
  double step_s = 0;
  double mfu = 0;             // model FLOPs / (step x plan GPUs x dense peak)
  double mfu_6n = 0;          // the same with 6·N·tokens
  double hfu = 0;             // hardware FLOPs / (step x plan GPUs x dense peak)

  std::vector<std::string> warnings;
};

PlanResult simulate_plan(const PlanInput& in);

// The assumptions behind the figures, one sentence each, for the CLI and the view. The
// memory line follows the plan's convention and names its source.
std::vector<std::string> plan_assumptions(const PlanInput& in);

// The formula behind one memory figure of a plan, with its numbers and its source, for the
// view's hover text: bucket 0..2 weights, gradients, optimizer (or, with a lumped
// convention, 0 the model states), 3 activations, 4 host memory per node.
std::string plan_memory_formula(const PlanInput& in, const PlanResult& r, int bucket);

}  // namespace dtx::sim
