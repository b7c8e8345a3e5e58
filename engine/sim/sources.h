// Formulas as the primary sources state them, each named after the source it follows, so a
// figure in `dtx sim`, a widget or an exercise can say where it comes from and be checked
// against it. One small function per convention; tests/unit/test_sources.cpp checks each
// against figures taken from its source (a paper's table, a documented output, a value the
// source's own function returns for given inputs).
//
// Units: bytes, seconds, parameters as plain counts; GB = 10^9 bytes unless a source says
// otherwise (DeepSpeed's estimators print GiB and call them "GB": the byte counts here are
// theirs, the tests divide by 2^30 where the source's printout does).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/widget.h"

namespace dtx::sim {

// ---------------------------------------------------------------------------------------
// Every formula with its source, for `dtx sim --formulas`, docs/formulas.md and the page's
// hover text. `id` is stable: views look formulas up by it.
struct SourcedFormula {
  const char* id;        // "memory.deepspeed.zero3"
  const char* quantity;  // "GPU bytes per GPU, ZeRO-3 (DeepSpeed estimator)"
  const char* formula;   // "4·L + 18·P/N"
  const char* source;    // "DeepSpeed deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs"
  const char* url;       // where to read it
};
const std::vector<SourcedFormula>& sourced_formulas();
const SourcedFormula* find_formula(std::string_view id);  // nullptr when unknown
// "4·L + 18·P/N (DeepSpeed stage3.py ...)", for tooltips; "" for an unknown id.
std::string formula_with_source(std::string_view id);

// ---------------------------------------------------------------------------------------
// Memory of the model states (weights, gradients, optimizer states) per GPU.
enum class MemorySource { ZeroPaper, DeepSpeed, DeepSpeed2023, Megatron };
enum class Offload { None, Optimizer, Params };
const char* memory_source_name(MemorySource s);  // "zero-paper", "deepspeed", "deepspeed-2023", "megatron"
const char* offload_name(Offload o);             // "none", "optimizer", "params"

struct MemoryQuery {
  MemorySource source = MemorySource::ZeroPaper;
  double params = 0;          // P: the whole model
  double k = 12;              // ZeRO paper's K: optimizer bytes per parameter (Adam: 12)
  int zero = 0;               // stage 0..3
  int dp = 0;                 // data-parallel degree; 0 = nodes·gpus_per_node / mp
  int mp = 1;                 // model-parallel degree (ZeRO paper, Megatron): P/mp per GPU
  int gpus_per_node = 8;
  int nodes = 1;
  double largest_layer = 0;   // DeepSpeed ZeRO-3: parameters of the largest single module
  Offload offload = Offload::None;
  bool zero_init = true;      // DeepSpeed ZeRO-3: parameters partitioned as they are built
  double buffer_factor = 1.5; // DeepSpeed's additional_buffer_factor on host memory
  double device_mem_gb = 0;   // > 0: also the largest model that fits (10^9 bytes)
};

struct MemoryEstimate {
  std::string error;          // non-empty: the source has no formula for this query (why)
  int dp = 1;                 // resolved data-parallel degree (the ZeRO shard count)
  double gpu_bytes = 0;       // per GPU
  double cpu_bytes = 0;       // per node (DeepSpeed's "per CPU"); 0 when not modelled
  bool cpu_modelled = false;  // the source gives host memory (DeepSpeed only)
  double bytes_per_param = 0; // gpu_bytes / params (the per-GPU share of one parameter)
  double max_params = 0;      // with device_mem_gb: largest P whose gpu_bytes fit
  // The split the source makes, per GPU (zero-paper and megatron; DeepSpeed lumps them).
  double weights_bytes = 0, grads_bytes = 0, optimizer_bytes = 0, largest_layer_bytes = 0;
  const char* formula_id = "";  // the sourced_formulas() entry behind gpu_bytes
};

MemoryEstimate estimate_memory(const MemoryQuery& q);

// The pieces, as each source writes them.
// ZeRO paper (Rajbhandari et al. 2020, section 5.1 and figure 1): 2Ψ + 2Ψ + KΨ over Nd.
double zero_paper_bytes_per_param(double k, int stage, int dp);
// DeepSpeed estimate_zero2_model_states_mem_needs (stages 1 and 2): {cpu per node, gpu}.
// `before_2024`: the formula before DeepSpeed PR #5099 (June 2024): 4·P + 16·P/N.
struct DeepSpeedEstimate {
  double cpu_bytes = 0, gpu_bytes = 0, largest_layer_bytes = 0;
};
DeepSpeedEstimate deepspeed_zero2_estimate(double params, int gpus_per_node, int nodes, bool cpu_offload,
                                           double buffer_factor, bool before_2024);
// DeepSpeed estimate_zero3_model_states_mem_needs.
DeepSpeedEstimate deepspeed_zero3_estimate(double params, double largest_layer, int gpus_per_node, int nodes,
                                           bool cpu_offload, bool cpu_offload_params, bool zero_init,
                                           double buffer_factor);
// Megatron-LM megatron/training/theoretical_memory_usage.py: 18 bytes per parameter, or
// 6 + 12/d with the distributed optimizer.
double megatron_bytes_per_param(bool distributed_optimizer, int dp);

// Model FLOPs per token, PaLM appendix B (`plan.mfu`): 6N + 12·L·h·s, where h = H·Q is the
// hidden size and s the sequence length. The 6N approximation (`plan.mfu-6n`) is its first term.
double palm_model_flops_per_token(double params, int layers, int hidden, int seq);

// ---------------------------------------------------------------------------------------
// Collectives: nccl-tests' bus bandwidth (doc/PERFORMANCE.md, src/*.cu GetBw).
enum class Collective { AllReduce, ReduceScatter, AllGather, Broadcast, Reduce, AllToAll, SendRecv };
const std::vector<Collective>& all_collectives();
const char* collective_op_name(Collective c);    // "allreduce", "reduce_scatter", ... (the CLI's)
const char* collective_op_label(Collective c);   // "AllReduce", "ReduceScatter", ...
// busBw = algBw × factor. nccl-tests: 2(n-1)/n AllReduce; (n-1)/n ReduceScatter, AllGather,
// AlltoAll; 1 Broadcast, Reduce, SendRecv. n = 1 gives 0 for the (n-1)/n family, as there.
double nccl_tests_busbw_factor(Collective c, int n);
// What one rank's link really carries per byte of algBw. Equal to nccl-tests' factor except
// for an in-network (SHARP / NVLS) AllReduce, where each rank sends its buffer once into the
// switch and receives the result once: 1, whatever n, in the ideal model (NCCL's NVLS moves
// about (n+1)/n per GPU; nccl-tests still prints 2(n-1)/n,
// nccl-tests issue #366).
double busbw_factor(Collective c, int n, bool in_network);
const char* collective_formula_id(Collective c, bool in_network);

// ---------------------------------------------------------------------------------------
// Checkpoint interval for a checkpoint that costs C seconds on a job whose mean time between
// failures is M seconds.
double young_interval_s(double cost_s, double mtbf_s);  // Young 1974: sqrt(2·C·M)
// Daly 2006, the higher-order estimate: sqrt(2CM)·[1 + (1/3)·sqrt(C/(2M)) + (1/9)·(C/(2M))] - C for C < 2M,
// else M.
double daly_interval_s(double cost_s, double mtbf_s);

// ---------------------------------------------------------------------------------------
// PyTorch's GradScaler (torch/amp/grad_scaler.py; the update is _amp_update_scale_ in
// aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp): on an overflow the scale is multiplied
// by backoff_factor and the tracker reset; on a clean step the tracker counts up, and when it
// reaches growth_interval the scale is multiplied by growth_factor (kept only if finite) and
// the tracker reset. The scale is a float32 tensor.
struct GradScalerConfig {
  double init_scale = 65536.0;  // 2^16
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
};
struct GradScalerRun {  // "2o,2000c,1o": 2 overflows, 2000 clean steps, 1 overflow
  char kind = 'c';      // 'o' overflow (step skipped), 'c' clean
  int64_t count = 0;
};
struct GradScalerPoint {  // the state after a run of steps
  int64_t step = 0;       // steps taken so far
  char kind = 'c';
  int64_t count = 0;
  float scale = 0;
  int64_t growth_tracker = 0;
  int64_t skipped = 0;    // optimizer steps skipped so far (one per overflow)
};
// Parses "2o,2000c,1o" (runs of o/c, at most 10^9 steps in all); error names the bad item.
bool parse_gradscaler_steps(std::string_view text, std::vector<GradScalerRun>* out, std::string* error);
std::vector<GradScalerPoint> run_gradscaler(const GradScalerConfig& cfg, const std::vector<GradScalerRun>& runs);

// ---------------------------------------------------------------------------------------
// Training compute: 6·N·D FLOPs (Kaplan et al. 2020, section 2.1) and D/N tokens per
// parameter (Hoffmann et al. 2022 find about 20 compute-optimal).
double training_flops(double params, double tokens);

// The `dtx sim` calculators that are not widgets: memory, collective, checkpoint, gradscaler,
// scaling. Their flags come from these tables like the widgets'; `gradscaler`'s --steps is a
// text input read by the CLI.
const std::vector<const WidgetKind*>& calculator_kinds();
const WidgetKind* find_calculator_kind(std::string_view kind);

MemoryQuery memory_query_from(const WidgetValues& v);

}  // namespace dtx::sim
