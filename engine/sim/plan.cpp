#include "sim/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "figures.h"
#include "text.h"

namespace dtx::sim {

// Published architectures. Llama 2 (Touvron et al. 2023, and the released configs: 7B/13B
// MHA, 70B GQA with 8 KV heads), Llama 3 405B (Llama 3 paper, Table 3), GPT-3 175B (Brown
// et al. 2020, Table 2.1: 96 layers, d = 12,288, 96 heads, 2,048 context; 4d MLP; GPT-2's
// tokenizer with 50,257 tokens; tied input/output embedding and learned positions as GPT-2).
const std::vector<ModelSpec>& model_presets() {
  static const std::vector<ModelSpec> presets = {
      {"7b", "Llama 2 7B", 7, 32, 4096, 32, 32, 11008, 32000, 4096, true, false, false},
      {"13b", "Llama 2 13B", 13, 40, 5120, 40, 40, 13824, 32000, 4096, true, false, false},
      {"70b", "Llama 2 70B", 70, 80, 8192, 64, 8, 28672, 32000, 4096, true, false, false},
      {"405b", "Llama 3 405B", 405, 126, 16384, 128, 8, 53248, 128256, 8192, true, false, false},
      {"175b", "GPT-3 175B", 175, 96, 12288, 96, 96, 49152, 50257, 2048, false, true, true},
  };
  return presets;
}

const ModelSpec* find_model(std::string_view id) {
  for (const auto& m : model_presets())
    if (id == m.id) return &m;
  return nullptr;
}

double layer_params(const ModelSpec& m) {
  const double h = m.hidden, head_dim = static_cast<double>(m.hidden) / m.heads;
  // Q and O are h x h; K and V map h to the KV heads only (GQA).
  const double attention = 2 * h * h + 2 * h * (m.kv_heads * head_dim);
  const double mlp = (m.swiglu ? 3.0 : 2.0) * h * m.ffn;
  return attention + mlp;
}

namespace {

double input_embedding_params(const ModelSpec& m) {
  return static_cast<double>(m.vocab) * m.hidden + (m.learned_positions ? static_cast<double>(m.seq) * m.hidden : 0);
}

}  // namespace

double embedding_params(const ModelSpec& m) {
  return input_embedding_params(m) + (m.tied_embeddings ? 0 : static_cast<double>(m.vocab) * m.hidden);
}

double model_params(const ModelSpec& m) { return m.layers * layer_params(m) + embedding_params(m); }

double activation_bytes_per_layer(double s, double b, double h, double a, int t, bool sp, Recompute r,
                                  bool flash) {
  const double sbh = s * b * h;
  if (r == Recompute::Full) return 2 * sbh / (sp ? t : 1);
  // The attention scores, their softmax and dropout mask: 5as/h per s·b·h. Selective
  // recomputation and fused (flash) attention both avoid storing them.
  const double scores = (r == Recompute::Selective || flash) ? 0 : 5 * a * s / h;
  // 24 of the 34 sit inside the attention and MLP blocks (split by TP); the other 10
  // (LayerNorm inputs, dropout masks, residual) are replicated unless SP splits them too.
  if (sp) return sbh * (34 + scores) / t;
  return sbh * (10 + 24.0 / t + scores / t);
}

const char* link_name(Link l) {
  switch (l) {
    case Link::NVLink: return "NVLink";
    case Link::InfiniBand: return "InfiniBand";
    default: return "none";
  }
}

PlanInput plan_input_from(const WidgetValues& v) {
  PlanInput in;
  const ModelSpec* m = find_model(v.option("model"));
  in.model = m ? *m : model_presets().front();
  const GpuSpec* g = find_gpu(v.option("gpu"));
  in.gpu = g ? *g : gpu_presets().front();
  // Overrides: 0 keeps the preset's value. A model with as many KV heads as heads (MHA)
  // keeps MHA when only the heads are changed.
  const bool mha = in.model.kv_heads == in.model.heads;
  if (v.get_int("layers") > 0) in.model.layers = v.get_int("layers");
  if (v.get_int("hidden") > 0) in.model.hidden = v.get_int("hidden");
  if (v.get_int("heads") > 0) in.model.heads = v.get_int("heads");
  if (v.get_int("kv_heads") > 0) in.model.kv_heads = v.get_int("kv_heads");
  else if (mha) in.model.kv_heads = in.model.heads;
  if (v.get_int("ffn") > 0) in.model.ffn = v.get_int("ffn");
  if (v.get_int("vocab") > 0) in.model.vocab = v.get_int("vocab");
  if (v.get_int("seq") > 0) in.model.seq = v.get_int("seq");
  in.params_override = v.get("params_b") * 1e9;

  in.nodes = std::max(1, v.get_int("nodes"));
  in.gpus_per_node = v.get_int("gpus_per_node") > 0 ? v.get_int("gpus_per_node") : in.gpu.gpus_per_node;
  in.tp = std::max(1, v.get_int("tp"));
  in.pp = std::max(1, v.get_int("pp"));
  in.cp = std::max(1, v.get_int("cp"));
  in.dp = v.get_int("dp");
  if (in.dp <= 0) {
    in.dp_derived = true;
    const int64_t gpus = static_cast<int64_t>(in.nodes) * in.gpus_per_node;
    in.dp = static_cast<int>(std::max<int64_t>(1, gpus / (static_cast<int64_t>(in.tp) * in.pp * in.cp)));
  }
  in.zero = std::clamp(v.get_int("zero"), 0, 3);
  in.mbs = std::max(1, v.get_int("mbs"));
  in.microbatches = std::max(1, v.get_int("microbatches"));
  const std::string r = v.option("recompute");
  in.recompute = r == "full" ? Recompute::Full : r == "selective" ? Recompute::Selective : Recompute::None;
  in.sp = v.get_int("sp") != 0;
  in.flash = v.get_int("flash") != 0;
  in.efficiency = v.get("eff") > 0 ? v.get("eff") : 0.6;
  in.first_stage = std::string(v.option("stage")) == "first";
  // By name, so the option lists and the enums cannot drift apart unnoticed.
  const std::string conv = v.option("convention"), off = v.option("offload");
  for (MemorySource s : {MemorySource::ZeroPaper, MemorySource::DeepSpeed, MemorySource::DeepSpeed2023, MemorySource::Megatron})
    if (conv == memory_source_name(s)) in.convention = s;
  for (Offload o : {Offload::None, Offload::Optimizer, Offload::Params})
    if (off == offload_name(o)) in.offload = o;
  return in;
}

namespace {

std::string count(double x) { return format_number(x); }

// Ranks are laid out TP innermost, then CP, PP, DP (Llama 3's order). A group whose members
// span `block` consecutive ranks stays inside a node when whole blocks fit in one node.
bool inside_node(int64_t block, int gpus_per_node) {
  return block <= gpus_per_node && gpus_per_node % block == 0;
}

CommRow make_row(const char* dim, std::string what, int group, double bytes, int64_t block, const PlanInput& in) {
  CommRow row;
  row.dim = dim;
  row.what = std::move(what);
  row.group = group;
  if (group <= 1 || bytes <= 0) return row;
  row.bytes = bytes;
  const bool nvlink = inside_node(block, in.gpus_per_node);
  row.link = nvlink ? Link::NVLink : Link::InfiniBand;
  row.link_gbs = nvlink ? nvlink_per_direction_gbs(in.gpu) : in.gpu.network_gbs;
  row.time_s = bytes / (row.link_gbs * 1e9);
  row.exposed_s = row.time_s;
  return row;
}

std::string check_model(const PlanInput& in) {
  const ModelSpec& m = in.model;
  if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.kv_heads < 1 || m.ffn < 1 || m.vocab < 1 || m.seq < 1)
    return "the model needs at least one layer, head, KV head, token of vocabulary and of sequence";
  if (m.hidden % m.heads != 0)
    return "hidden size " + count(m.hidden) + " does not split into " + count(m.heads) +
           " heads of equal size; expected a multiple of the head count";
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    return count(m.kv_heads) + " KV heads cannot serve " + count(m.heads) +
           " query heads; expected a divisor of the head count (grouped-query attention)";
  if (in.pp > m.layers)
    return "PP=" + count(in.pp) + " is more than the " + count(m.layers) + " layers: some stages would hold no layer";
  if (in.tp > m.heads)
    return "TP=" + count(in.tp) + " is more than the " + count(m.heads) + " attention heads: some GPUs would hold no head";
  if (in.cp > m.seq)
    return "CP=" + count(in.cp) + " is more than the " + count(m.seq) + " tokens of a sequence";
  return "";
}

void add_warnings(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  auto& w = r.warnings;
  const int gpn = in.gpus_per_node;
  if (in.tp > gpn) {
    const int nodes = (in.tp + gpn - 1) / gpn;
    w.push_back("TP=" + count(in.tp) + " spans " + count(nodes) + " nodes: its AllReduces leave NVLink for InfiniBand (" +
                count(in.gpu.network_gbs) + " instead of " + count(nvlink_per_direction_gbs(in.gpu)) +
                " GB/s per direction).");
  } else if (gpn % in.tp != 0) {
    w.push_back("TP=" + count(in.tp) + " does not divide the " + count(gpn) +
                " GPUs of a node: some TP groups straddle two nodes and their AllReduces leave NVLink.");
  }
  const int64_t model_group = static_cast<int64_t>(in.tp) * in.pp * in.cp;
  if (in.dp_derived && model_group <= r.gpus && r.gpus % model_group != 0) {
    w.push_back("The " + count(r.gpus) + " GPUs do not divide by TP×PP×CP = " + count(static_cast<double>(model_group)) +
                ": DP = " + count(in.dp) + " uses " + count(static_cast<double>(r.plan_gpus)) + " and leaves " +
                count(static_cast<double>(r.gpus - r.plan_gpus)) + " idle.");
  } else if (r.plan_gpus != r.gpus) {
    w.push_back("TP×PP×DP×CP = " + count(in.tp) + "×" + count(in.pp) + "×" + count(in.dp) + "×" + count(in.cp) + " = " +
                count(static_cast<double>(r.plan_gpus)) + " GPUs, but the cluster has " + count(in.nodes) + " × " +
                count(gpn) + " = " + count(r.gpus) + ".");
  }
  if (m.heads % in.tp != 0)
    w.push_back("TP=" + count(in.tp) + " does not divide the " + count(m.heads) +
                " attention heads: some GPUs would get more heads than others.");
  if (m.kv_heads % in.tp != 0) {
    if (in.tp % m.kv_heads == 0)
      w.push_back("TP=" + count(in.tp) + " is more than the " + count(m.kv_heads) + " KV heads: each KV head is replicated on " +
                  count(in.tp / m.kv_heads) + " GPUs (its K and V weights and activations are stored twice or more).");
    else
      w.push_back("TP=" + count(in.tp) + " does not divide the " + count(m.kv_heads) + " KV heads evenly.");
  }
  if (m.layers % in.pp != 0)
    w.push_back(count(m.layers) + " layers do not divide by PP=" + count(in.pp) + ": stages hold " +
                count(m.layers / in.pp) + " or " + count(r.layers_per_stage) + " layers and the fullest (" +
                count(r.layers_per_stage) + ") sets the pace.");
  if (r.bubble > 0.2)
    w.push_back("Pipeline bubble " + format_percent(r.bubble) + " (PP=" + count(in.pp) + ", " +
                count(in.microbatches) +
                " microbatches): (PP-1)/(m+PP-1) is above 20%; more microbatches per step (or an interleaved "
                "schedule) shrink it.");
  if (!r.fits)
    w.push_back("Memory per GPU is " + format_gb(r.total_bytes) + ", " + format_gb(r.total_bytes - r.capacity_bytes) +
                " over the " + count(in.gpu.memory_gb) +
                " GB of an " + in.gpu.name + ".");
  if (in.cp > 1 && m.seq < 32768)
    w.push_back("CP=" + count(in.cp) + " at " + count(m.seq) +
                " tokens: context parallelism is meant for long sequences (Llama 3 used it only for its 128K-token "
                "stage); at this length it mostly adds K/V traffic.");
  if (in.cp > 1 && m.seq % in.cp != 0)
    w.push_back("CP=" + count(in.cp) + " does not divide the " + count(m.seq) + "-token sequence.");
  if (in.zero > 0 && r.shard_group == 1)
    w.push_back("ZeRO-" + count(in.zero) + " with DP=1 shards nothing: there is no data-parallel group to shard over.");
  if (in.sp && in.tp == 1) w.push_back("Sequence parallelism works inside the TP group: with TP=1 it changes nothing.");
}

// Model-state bytes per GPU (and host bytes per node) by the plan's convention, through
// estimate_memory(): the code path of `dtx sim memory`, asked about the parameters this GPU
// holds (already split by TP and PP) sharded over the plan's DP·CP group. Inputs a source
// has no formula for are mapped to the nearest it has, with a warning saying so.
void apply_memory_convention(const PlanInput& in, PlanResult& r, std::vector<std::string>& w) {
  const int n = r.shard_group;
  const bool deepspeed = in.convention == MemorySource::DeepSpeed || in.convention == MemorySource::DeepSpeed2023;
  MemoryQuery q;
  q.source = in.convention;
  q.params = r.gpu_params;
  q.k = 12;
  q.mp = 1;
  q.zero = in.zero;
  q.largest_layer = r.largest_layer_params;
  r.convention = in.convention;
  r.offload = deepspeed ? in.offload : Offload::None;
  if (!deepspeed && in.offload != Offload::None)
    w.push_back(std::string("Offload ") + offload_name(in.offload) + " is ignored: the " +
                (in.convention == MemorySource::Megatron ? "Megatron-LM estimator" : "ZeRO paper's count") +
                " has no host memory; choose the deepspeed or deepspeed-2023 convention for offload.");
  bool cpu_possible = true;
  if (deepspeed) {
    if (in.zero == 0) {
      // Nothing sharded: the stage 1/2 formula over one GPU, 2 + 18 (before June 2024 4 + 16)
      // bytes per parameter. DeepSpeed gives no host figure for it.
      w.push_back("DeepSpeed has no estimator for ZeRO stage 0: the figure is its stage 1/2 formula with nothing "
                  "sharded (20 bytes per parameter), and host memory is not modelled.");
      if (r.offload != Offload::None)
        w.push_back(std::string("Offload ") + offload_name(r.offload) + " is ignored: DeepSpeed offloads only with ZeRO 1 to 3.");
      r.offload = Offload::None;
      q.zero = 1;
      q.gpus_per_node = 1;
      q.nodes = 1;
      cpu_possible = false;
    } else {
      if (r.offload == Offload::Params && in.zero < 3) {
        w.push_back("Parameter offload needs ZeRO-3: with ZeRO-" + std::to_string(in.zero) +
                    " only the optimizer states are offloaded (ZeRO-Offload).");
        r.offload = Offload::Optimizer;
      }
      // DeepSpeed's estimators count nodes × GPUs per node GPUs, all sharding one model. Here
      // that is the shard group; its GPUs fill whole nodes when G divides it (host memory per
      // node is then DeepSpeed's own figure). Otherwise only the GPU figure is meaningful.
      const int g = in.gpus_per_node;
      if (n % g == 0) {
        q.gpus_per_node = g;
        q.nodes = n / g;
      } else {
        q.gpus_per_node = n;
        q.nodes = 1;
        cpu_possible = false;
        w.push_back("The " + count(n) + " GPUs of a ZeRO shard group (DP×CP) do not fill whole nodes of " + count(g) +
                    ": DeepSpeed's host memory per node is not modelled for this plan (its GPU figure is).");
      }
    }
    q.offload = r.offload;
  } else {
    q.dp = n;
    if (in.convention == MemorySource::Megatron && in.zero >= 2) {
      w.push_back("Megatron-LM's estimator knows only the distributed optimizer (ZeRO-1 like): the memory figures use "
                  "ZeRO-1, not ZeRO-" + std::to_string(in.zero) + ".");
      q.zero = 1;
    }
  }
  r.memory_zero = q.zero;
  const MemoryEstimate e = estimate_memory(q);
  if (!e.error.empty()) {
    // Every query above is one the sources answer; keep the plan readable if one does not.
    r.error = "the " + std::string(memory_source_name(in.convention)) + " convention cannot count this plan: " + e.error;
    return;
  }
  r.memory_formula_id = e.formula_id;
  r.memory_split = !deepspeed;
  if (deepspeed && in.zero == 0) r.memory_zero = 0;
  r.weights_bytes = e.weights_bytes;
  r.grads_bytes = e.grads_bytes;
  r.optimizer_bytes = e.optimizer_bytes;
  r.largest_layer_bytes = e.largest_layer_bytes;
  // The split's own sum for the split conventions, so today's figures add up as before.
  r.model_states_bytes = r.memory_split ? r.weights_bytes + r.grads_bytes + r.optimizer_bytes : e.gpu_bytes;
  r.cpu_modelled = e.cpu_modelled && cpu_possible;
  r.cpu_bytes_per_node = r.cpu_modelled ? e.cpu_bytes : 0;
}

// The plan's shape on its GPUs: sequence, layers per stage and microbatches in flight.
void set_layout(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  r.seq = m.seq;
  r.seq_per_gpu = m.seq / in.cp;
  r.layers_per_stage = (m.layers + in.pp - 1) / in.pp;
  r.in_flight = std::min(in.pp, in.microbatches);
  r.shard_group = in.dp * in.cp;
}

// Parameters. An override rescales the architecture's count, keeping its split between
// layers and vocabulary matrices.
void count_params(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  const int tp = in.tp, pp = in.pp;
  const double arch = model_params(m);
  const double scale = in.params_override > 0 ? in.params_override / arch : 1;
  r.params = arch * scale;
  r.layer_params = layer_params(m) * scale;
  r.embedding_params = embedding_params(m) * scale;
  if (in.first_stage) {
    // Stage 0 holds the input embedding; with one stage it also holds the output head.
    r.memory_layers = r.layers_per_stage;
    r.gpu_layer_params = r.layers_per_stage * r.layer_params / tp;
    r.gpu_embedding_params = (pp == 1 ? embedding_params(m) : input_embedding_params(m)) * scale / tp;
  } else {
    r.memory_layers = static_cast<double>(m.layers) / pp;
    r.gpu_layer_params = m.layers * r.layer_params / (static_cast<double>(tp) * pp);
    r.gpu_embedding_params = r.embedding_params / (static_cast<double>(tp) * pp);
  }
  r.gpu_params = r.gpu_layer_params + r.gpu_embedding_params;

  // The largest single module on this GPU: the vocabulary embedding (vocab × hidden), an
  // MLP matrix (hidden × ffn), a Q or O projection (hidden × hidden) or the learned position
  // table (seq × hidden), TP splitting each. DeepSpeed's model_to_params takes the module
  // with the most parameters of its own, and in these architectures that is one of them.
  r.largest_layer_params =
      std::max({static_cast<double>(m.vocab) * m.hidden, static_cast<double>(m.hidden) * m.ffn,
                static_cast<double>(m.hidden) * m.hidden,
                m.learned_positions ? static_cast<double>(m.seq) * m.hidden : 0.0}) *
      scale / tp;
}

// Activation bytes on this GPU, and whether everything fits in its memory.
void add_activations(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  const double s_local = static_cast<double>(m.seq) / in.cp;
  r.activation_layer_bytes =
      activation_bytes_per_layer(s_local, in.mbs, m.hidden, m.heads, in.tp, in.sp, in.recompute, in.flash);
  r.activations_bytes = r.activation_layer_bytes * r.memory_layers * r.in_flight;
  r.total_bytes = r.model_state_bytes() + r.activations_bytes;
  r.capacity_bytes = in.gpu.memory_gb * 1e9;
  r.fits = r.total_bytes <= r.capacity_bytes;
}

// Traffic per GPU per step, one row per dimension: DP, TP, PP, CP.
void add_traffic(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  const int tp = in.tp, pp = in.pp, dp = in.dp, cp = in.cp, micro = in.microbatches;
  const double s_local = static_cast<double>(m.seq) / cp;
  const bool full = in.recompute == Recompute::Full;
  const double act_bytes = s_local * in.mbs * m.hidden * 2;  // one [s, b, h] BF16 tensor
  const int g = r.shard_group;
  const double dp_factor = in.zero == 3 ? 3.0 : 2.0;
  std::string dp_what = in.zero == 0 ? "gradient AllReduce"
                        : in.zero < 3 ? "gradient ReduceScatter + weight AllGather"
                                      : "weight AllGather (fwd, bwd) + gradient ReduceScatter";
  if (cp > 1) dp_what += " over DP×CP";
  const int64_t dp_block = dp > 1 ? r.plan_gpus : static_cast<int64_t>(tp) * cp;
  r.comm.push_back(make_row("DP", dp_what, g, dp_factor * (g - 1) / g * 2 * r.gpu_params, dp_block, in));

  const int tp_collectives = full ? 6 : 4;  // 2 forward + 2 backward (+2 recomputed forward)
  const double tp_bytes = static_cast<double>(r.layers_per_stage) * micro * tp_collectives * 2.0 * (tp - 1) / tp * act_bytes;
  std::string tp_what = in.sp ? "AllGather + ReduceScatter" : "AllReduce";
  tp_what += full ? ", 3+3 per layer per microbatch" : ", 2+2 per layer per microbatch";
  r.comm.push_back(make_row("TP", tp_what, tp, tp_bytes, tp, in));

  const double boundary_bytes = act_bytes / (in.sp ? tp : 1);
  const double pp_bytes = micro * boundary_bytes * (pp > 2 ? 2 : 1);
  r.comm.push_back(make_row("PP", "activations forward, gradients back, per microbatch", pp, pp_bytes,
                            static_cast<int64_t>(tp) * cp * pp, in));

  const double head_dim = static_cast<double>(m.hidden) / m.heads;
  const double kv_heads_per_gpu = std::ceil(static_cast<double>(m.kv_heads) / tp);
  const double kv_block_bytes = 2 * s_local * in.mbs * kv_heads_per_gpu * head_dim * 2;  // K and V, BF16
  const int cp_passes = full ? 4 : 3;  // forward; backward passes K, V and dK, dV
  const double cp_bytes = static_cast<double>(r.layers_per_stage) * micro * cp_passes * (cp - 1) * kv_block_bytes;
  r.comm.push_back(make_row("CP", "K and V blocks around the ring, per layer per microbatch", cp, cp_bytes,
                            static_cast<int64_t>(tp) * cp, in));
}

// Time: compute stretched by the bubble and the fullest stage, plus the traffic not hidden.
void add_step_time(const PlanInput& in, PlanResult& r) {
  const ModelSpec& m = in.model;
  const int pp = in.pp, dp = in.dp, micro = in.microbatches;
  const bool full = in.recompute == Recompute::Full;
  r.tokens_per_step = static_cast<double>(in.mbs) * micro * dp * m.seq;
  // PaLM appendix B: 6N per token for the weights' matrix products, plus 12·L·h·s for the
  // attention scores and their weighted sum (forward 4·L·h·s, backward twice that). Full
  // recomputation runs the forward again: 2N + 4·L·h·s more.
  const double attention = palm_model_flops_per_token(0, m.layers, m.hidden, m.seq);
  r.model_flops_6n = 6 * r.params * r.tokens_per_step;
  r.model_flops = palm_model_flops_per_token(r.params, m.layers, m.hidden, m.seq) * r.tokens_per_step;
  r.hardware_flops = r.model_flops + (full ? (2 * r.params + attention / 3) * r.tokens_per_step : 0);
  const double peak = in.gpu.dense_tflops * 1e12;
  const double imbalance = static_cast<double>(r.layers_per_stage) * pp / m.layers;
  r.compute_s = r.hardware_flops / static_cast<double>(r.plan_gpus) * imbalance / (peak * in.efficiency);
  r.bubble = static_cast<double>(pp - 1) / (micro + pp - 1);
  // DP traffic hides behind the last microbatch's backward (ZeRO-3: its forward too, where
  // the weights are gathered); the rest of every dimension's traffic adds to the step.
  const double last_micro_s = r.compute_s / micro;
  const double window = in.zero == 3 ? last_micro_s : last_micro_s * (full ? 6.0 / 8 : 4.0 / 6);
  r.comm[0].exposed_s = std::max(0.0, r.comm[0].time_s - window);
  r.step_s = r.compute_s / (1 - r.bubble);
  for (const auto& row : r.comm) r.step_s += row.exposed_s;
  const double capacity = r.step_s * static_cast<double>(r.plan_gpus) * peak;
  r.mfu = r.model_flops / capacity;
  r.mfu_6n = r.model_flops_6n / capacity;
  r.hfu = r.hardware_flops / capacity;
}

}  // namespace

PlanResult simulate_plan(const PlanInput& in) {
  PlanResult r;
  r.gpus = in.nodes * in.gpus_per_node;
  r.plan_gpus = static_cast<int64_t>(in.tp) * in.pp * in.dp * in.cp;
  r.error = check_model(in);
  if (!r.error.empty()) return r;
  set_layout(in, r);
  count_params(in, r);

  // Model states: the convention's formula for the GPU's parameters, sharded by ZeRO over
  // the DP·CP GPUs that hold the same parameters.
  std::vector<std::string> convention_notes;  // listed after the plan's own warnings
  apply_memory_convention(in, r, convention_notes);
  if (!r.error.empty()) return r;
  add_activations(in, r);
  add_traffic(in, r);
  add_step_time(in, r);

  add_warnings(in, r);
  r.warnings.insert(r.warnings.end(), convention_notes.begin(), convention_notes.end());
  return r;
}

namespace {

const char* memory_formula_id_for(const PlanInput& in) {
  switch (in.convention) {
    case MemorySource::ZeroPaper: return "memory.zero-paper";
    case MemorySource::Megatron: return "memory.megatron";
    case MemorySource::DeepSpeed: return in.zero == 3 ? "memory.deepspeed.zero3" : "memory.deepspeed.zero2";
    case MemorySource::DeepSpeed2023: return in.zero == 3 ? "memory.deepspeed.zero3" : "memory.deepspeed-2023.zero2";
  }
  return "memory.zero-paper";
}

// The memory line of the assumptions, one per convention.
const char* memory_assumption(MemorySource s) {
  switch (s) {
    case MemorySource::ZeroPaper: break;
    case MemorySource::Megatron:
      return "Model states as Megatron-LM's theoretical memory counts them: 2 (BF16 weights) + 4 (FP32 main "
             "gradients, never sharded) + 12 (FP32 master weights, m, v) bytes per parameter. With ZeRO 1 or more the "
             "distributed optimizer shards the 12 over the DP×CP GPUs (6 + 12/d); ZeRO-2/3 are not in its estimator, "
             "so they count as ZeRO-1. Communication buffers are not counted.";
    case MemorySource::DeepSpeed:
    case MemorySource::DeepSpeed2023:
      return "Model states as DeepSpeed's estimators count them (one figure, no split): ZeRO-1/2 2 + 18/N bytes per "
             "parameter per GPU (deepspeed-2023, the formula before June 2024: 4 + 16/N), ZeRO-3 18/N plus 4 bytes per "
             "parameter of the largest module, which is gathered whole; N = the DP×CP GPUs. Offload keeps 2 bytes "
             "(ZeRO-1/2), 2/N (ZeRO-3 optimizer) or none (ZeRO-3 parameters) per parameter on the GPU; its PCIe "
             "traffic and CPU time are not counted. Host memory per node: DeepSpeed's formula with zero_init on and "
             "its buffer factor 1.5.";
  }
  return "Mixed-precision Adam: 2 (BF16 weights) + 2 (BF16 gradients) + 12 (FP32 master, m, v) bytes per parameter. "
         "ZeRO-1 shards the 12 optimizer bytes, ZeRO-2 also the gradients, ZeRO-3 also the weights, over the DP×CP "
         "GPUs (as Megatron does with CP). ZeRO-3's gathered layer and all communication buffers are not counted.";
}

}  // namespace

std::vector<std::string> plan_assumptions(const PlanInput& in) {
  const SourcedFormula* f = find_formula(memory_formula_id_for(in));
  std::string source = std::string("Memory convention ") + memory_source_name(in.convention) + ": ";
  if (f) {
    source += f->formula;
    source += ". Source: ";
    source += f->source;
    source += " (";
    source += f->url;
    source += ").";
  }
  std::vector<std::string> notes = {
      "An estimate from formulas, not a measurement.",
      "Memory is for the average GPU (stage = even: all parameters spread evenly over TP×PP, layers/PP layers of "
      "activations) or for a GPU of the first pipeline stage (stage = first: ceil(layers/PP) layers and the input "
      "embedding). Either way min(PP, m) microbatches of activations are in flight, as on stage 0 under 1F1B.",
      memory_assumption(in.convention),
      source,
      "Activations: Korthikanti et al. 2022, 16-bit, without flash attention unless it is on (5as/h is the "
      "attention-score term). CP divides the sequence.",
      "Parameters: per layer Q and O (h×h), K and V (h × KV heads × head size), the MLP (3 matrices with SwiGLU, "
      "2 otherwise), plus the vocabulary matrices; norms and biases ignored. params_b rescales that count.",
      "Traffic is bytes sent per GPU per step. A group inside one node rides NVLink at half the bidirectional "
      "figure; a group spanning nodes rides InfiniBand at the per-GPU in-pod figure (a flat ring).",
      "DP: ring AllReduce, 2(d-1)/d of the BF16 gradients, once per step (ZeRO-1/2 the same bytes; ZeRO-3 1.5× "
      "that, counted once per step: frameworks that re-gather for every microbatch send it m times).",
      "TP: 2 AllReduces forward and 2 backward per layer per microbatch (2 more with full recomputation) of "
      "s·b·h·2 bytes; SP sends the same bytes as AllGather + ReduceScatter. PP: s·b·h·2 bytes (/TP with SP) "
      "each way per microbatch. CP: K and V blocks around the ring, once forward, twice backward.",
      "Time: (6·N + 12·L·h·s)·tokens model FLOPs (PaLM appendix B; full recomputation runs the forward again, "
      "2·N + 4·L·h·s more per token; selective recomputation's extra attention FLOPs are not counted) shared by "
      "the GPUs at the dense BF16 peak × efficiency, stretched by the "
      "bubble (PP-1)/(m+PP-1) and by the fullest stage. TP, PP and CP traffic is that of the fullest stage.",
      "Overlap: DP traffic hides behind the last microbatch's backward pass (ZeRO-3: its forward and backward); "
      "TP, PP and CP traffic is not overlapped.",
  };
  return notes;
}

std::string plan_memory_formula(const PlanInput& in, const PlanResult& r, int bucket) {
  const std::string P = count(r.gpu_params), N = count(r.shard_group);
  const bool deepspeed = !r.memory_split;
  const bool megatron = r.convention == MemorySource::Megatron;
  std::string t;
  auto share = [&](const char* what, double bytes_per_param, bool sharded, const char* why) {
    t = std::string(what) + ": " + count(bytes_per_param) + " bytes × " + P + " parameters on this GPU";
    if (sharded) t += " ÷ " + N + " (" + why + ")";
  };
  if (bucket == 3) {
    t = "activations: " + format_gb(r.activation_layer_bytes) + " per layer per microbatch × " + count(r.memory_layers) +
        " layers × " + count(r.in_flight) + " microbatches in flight = " + format_gb(r.activations_bytes);
    const std::string src = formula_with_source("memory.activations");
    if (!src.empty()) t += "\n" + src;
    return t;
  }
  if (bucket == 4) {
    if (!r.cpu_modelled) {
      t = std::string("host memory: not modelled by the ") + memory_source_name(r.convention) + " convention";
      if (deepspeed) t += " for this plan (see the warnings)";
      return t;
    }
    const std::string G = count(in.gpus_per_node), nodes = count(static_cast<double>(r.shard_group) / in.gpus_per_node);
    const std::string L = count(r.largest_layer_params);
    if (r.memory_zero < 3)
      t = r.offload == Offload::None ? "host per node: " + P + " × 4 × " + G + " GPUs × 1.5"
                                     : "host per node: " + P + " × max(4 × " + N + " GPUs, 16) × 1.5";
    else if (r.offload == Offload::None)
      t = "host per node: " + L + " (largest layer) × 4 × " + G + " GPUs × 1.5 (zero_init)";
    else
      t = "host per node: " + P + " × " + (r.offload == Offload::Params ? "18" : "16") + " ÷ " + nodes +
          " nodes × 1.5 (zero_init)";
    t += " = " + format_gb(r.cpu_bytes_per_node);
  } else if (deepspeed) {
    const std::string L = count(r.largest_layer_params);
    const std::string n1 = r.memory_zero == 0 ? "1" : N;
    if (r.memory_zero < 3) {
      if (r.offload == Offload::Optimizer) t = "model states: 2 × " + P + " (optimizer offloaded)";
      else if (r.convention == MemorySource::DeepSpeed2023) t = "model states: 4 × " + P + " + 16 × " + P + " ÷ " + n1;
      else t = "model states: 2 × " + P + " + 18 × " + P + " ÷ " + n1;
    } else {
      t = "model states: 4 × " + L + " (largest layer)";
      if (r.offload == Offload::None) t += " + 18 × " + P + " ÷ " + N;
      else if (r.offload == Offload::Optimizer) t += " + 2 × " + P + " ÷ " + N + " (optimizer offloaded)";
      else t += " (parameters and optimizer offloaded)";
    }
    t += " = " + format_gb(r.model_states_bytes);
  } else if (bucket == 0) {
    share("weights", 2, !megatron && r.memory_zero >= 3, "ZeRO-3 over DP×CP");
    t += " = " + format_gb(r.weights_bytes);
  } else if (bucket == 1) {
    if (megatron) share("gradients", 4, false, "");
    else share("gradients", 2, r.memory_zero >= 2, "ZeRO-2 over DP×CP");
    if (megatron) t += " (FP32 main gradients, never sharded)";
    t += " = " + format_gb(r.grads_bytes);
  } else {
    share("optimizer", 12, r.memory_zero >= 1, megatron ? "distributed optimizer over DP×CP" : "ZeRO-1 over DP×CP");
    t += " = " + format_gb(r.optimizer_bytes);
  }
  const std::string src = formula_with_source(r.memory_formula_id);
  if (!src.empty()) t += "\n" + src;
  return t;
}

const WidgetKind& plan_widget_kind() {
  static const WidgetKind k = {
      "plan",
      "Training-plan explorer",
      "memory per GPU, traffic and step time for a parallel plan",
      {
          {"model", "model", 0, 4, 0, true, false, {"7b", "13b", "70b", "405b", "175b"},
           "model preset: Llama 2 7B, 13B, 70B, Llama 3 405B, GPT-3 175B"},
          {"gpu", "GPU", 0, 2, 1, true, false, {"a100", "h100", "b200"}, "GPU preset: A100 80GB, H100 SXM, B200"},
          {"nodes", "nodes", 1, 4096, 1, true, true, {}, "servers in the cluster"},
          {"gpus_per_node", "GPUs per node", 0, 72, 0, true, false, {}, "GPUs sharing NVLink; 0 = the GPU preset's (8)", true},
          {"seq", "sequence length", 0, 1048576, 0, true, true, {}, "tokens per sequence; 0 = the model's", true},
          {"tp", "TP", 1, 64, 1, true, false, {}, "tensor-parallel degree"},
          {"pp", "PP", 1, 128, 1, true, false, {}, "pipeline-parallel degree (stages)"},
          {"dp", "DP", 0, 65536, 0, true, true, {}, "data-parallel degree; 0 = the rest of the GPUs, GPUs/(TP·PP·CP)", true},
          {"cp", "CP", 1, 64, 1, true, false, {}, "context-parallel degree (splits the sequence)"},
          {"zero", "ZeRO stage", 0, 3, 0, true, false, {}, "0 none, 1 optimizer, 2 + gradients, 3 + weights"},
          {"sp", "sequence parallel", 0, 1, 0, true, false, {}, "1 = Megatron sequence parallelism inside the TP group"},
          {"mbs", "microbatch size", 1, 64, 1, true, false, {}, "sequences per microbatch"},
          {"microbatches", "microbatches", 1, 1024, 1, true, true, {}, "microbatches per step, per DP replica"},
          {"recompute", "recomputation", 0, 2, 0, true, false, {"none", "selective", "full"},
           "activation recomputation"},
          {"flash", "flash attention", 0, 1, 0, true, false, {}, "1 = fused attention: the score matrix is never stored"},
          {"stage", "memory of", 0, 1, 0, true, false, {"even", "first"},
           "even: the average GPU, parameters spread evenly over TP·PP; first: a GPU of the fullest, first pipeline "
           "stage with the input embedding"},
          {"eff", "kernel efficiency", 0.05, 1, 0.6, false, false, {},
           "fraction of the dense peak the kernels reach (an assumption)"},
          {"params_b", "parameters (B)", 0, 2000, 0, false, true, {}, "total parameters in billions; 0 = from the architecture", true},
          {"layers", "layers", 0, 512, 0, true, false, {}, "0 = the model's", true},
          {"hidden", "hidden size", 0, 65536, 0, true, true, {}, "0 = the model's", true},
          {"heads", "heads", 0, 512, 0, true, false, {}, "attention heads; 0 = the model's", true},
          {"kv_heads", "KV heads", 0, 512, 0, true, false, {}, "key/value heads (GQA); 0 = the model's", true},
          {"ffn", "FFN size", 0, 262144, 0, true, true, {}, "MLP inner size; 0 = the model's", true},
          {"vocab", "vocabulary", 0, 1048576, 0, true, true, {}, "0 = the model's", true},
          // Appended last: packs and the page address inputs by name, the tests also by index.
          {"convention", "convention", 0, 3, 0, true, false, {"zero-paper", "deepspeed", "deepspeed-2023", "megatron"},
           "whose count of weights, gradients and optimizer states: zero-paper (2+2+12, sharded by ZeRO), deepspeed "
           "(DeepSpeed's estimators), deepspeed-2023 (before June 2024), megatron (theoretical_memory_usage.py)"},
          {"offload", "offload", 0, 2, 0, true, false, {"none", "optimizer", "params"},
           "DeepSpeed conventions only: none, optimizer (ZeRO-Offload) or params (ZeRO-3 parameters and optimizer) to "
           "host memory"},
      },
      // A plan the simulator cannot lay out. One that does not fit the GPU still runs: the
      // widget shows it in red, which some exercises ask for (a pack's "limits" hold memory).
      [](const WidgetValues& v) -> std::string { return simulate_plan(plan_input_from(v)).error; }};
  return k;
}

}  // namespace dtx::sim
