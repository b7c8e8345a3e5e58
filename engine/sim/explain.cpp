#include "sim/explain.h"

#include <algorithm>
#include <cmath>

#include "expr.h"
#include "sim/pipeline.h"
#include "sim/plan.h"
#include "sim/ring.h"
#include "sim/roofline.h"
#include "sim/sources.h"
#include "text.h"

namespace dtx::sim {

// The formulas of sources.cpp, term for term, over the names each kind binds below (the
// memory names follow the ZeRO paper and DeepSpeed: P parameters, K optimizer bytes per
// parameter, Nd the data-parallel degree, N every GPU, G GPUs per node, L the largest layer's
// parameters, B the host buffer factor; offload 0 none, 1 optimizer, 2 parameters).
const std::vector<FormulaExpr>& formula_exprs() {
  static const std::vector<FormulaExpr> f = {
      {"memory.zero-paper", "gpu_bytes", "B",
       "if(stage >= 3, (2 + 2 + K) / Nd, if(stage == 2, 2 + (2 + K) / Nd, if(stage == 1, 2 + 2 + K / Nd, 2 + 2 + K))) * P / MP",
       ""},
      {"memory.zero-paper.max-params", "max_params", "",
       "MP * device / if(stage >= 3, (2 + 2 + K) / Nd, if(stage == 2, 2 + (2 + K) / Nd, if(stage == 1, 2 + 2 + K / Nd, 2 + 2 + K)))",
       "device > 0"},
      {"memory.deepspeed.zero2", "gpu_bytes", "B", "floor(if(offload == 1, 2 * P, 2 * P + floor(18 * P / N)))", ""},
      {"memory.deepspeed.zero2", "cpu_bytes", "B", "floor(if(offload == 1, P * max(4 * N, 16) * B, P * 4 * G * B))", ""},
      {"memory.deepspeed-2023.zero2", "gpu_bytes", "B", "floor(if(offload == 1, 2 * P, 4 * P + floor(16 * P / N)))", ""},
      {"memory.deepspeed-2023.zero2", "cpu_bytes", "B", "floor(if(offload == 1, P * max(4 * N, 16) * B, P * 4 * G * B))",
       ""},
      {"memory.deepspeed.zero3", "gpu_bytes", "B",
       "floor(4 * L + if(offload == 2, 0, if(offload == 1, floor(2 * P / N), floor(18 * P / N))))", ""},
      {"memory.deepspeed.zero3", "cpu_bytes", "B",
       "floor(if(offload == 2, if(zero_init == 1, P * 18 / nodes * B, P * max(4 * G, 18 / nodes) * B), "
       "if(offload == 1, if(zero_init == 1, P * 16 / nodes * B, P * max(4 * G, 16 / nodes) * B), "
       "if(zero_init == 1, L * 4 * G * B, P * 4 * G * B))))",
       ""},
      {"memory.megatron", "gpu_bytes", "B", "if(stage == 1, 6 + 12 / Nd, 18) * P / MP", ""},
      {"memory.activations", "activation_layer_bytes", "B",
       "if(full == 1, 2 * s * b * h / if(sp == 1, t, 1), "
       "if(sp == 1, s * b * h * (34 + if(selective + flash > 0, 0, 5 * a * s / h)) / t, "
       "s * b * h * (10 + 24 / t + if(selective + flash > 0, 0, 5 * a * s / h) / t)))",
       ""},
      {"ring.allreduce-bytes", "max_bytes_sent", "B", "2 * (N - 1) / N * M", "floor(M / N) * N == M"},
      {"plan.mfu", "mfu", "", "(6 * N + 12 * L * h * T) * tokens / (step * GPUs * peak)", ""},
      {"plan.mfu-6n", "mfu_6n", "", "6 * N * tokens / (step * GPUs * peak)", ""},
      {"plan.hfu", "hfu", "",
       "(6 * N + 12 * L * h * T + if(full == 1, 2 * N + 4 * L * h * T, 0)) * tokens / (step * GPUs * peak)", ""},
      {"busbw.allreduce", "busbw_factor", "", "2 * (n - 1) / n", ""},
      {"busbw.reduce_scatter", "busbw_factor", "", "(n - 1) / n", ""},
      {"busbw.all_gather", "busbw_factor", "", "(n - 1) / n", ""},
      {"busbw.broadcast", "busbw_factor", "", "1", ""},
      {"busbw.reduce", "busbw_factor", "", "1", ""},
      {"busbw.alltoall", "busbw_factor", "", "(n - 1) / n", ""},
      {"busbw.sendrecv", "busbw_factor", "", "1", ""},
      {"busbw.allreduce.in-network", "busbw_factor", "", "1", ""},
      {"pipeline.naive", "bubble_total", "", "(p - 1) / p", ""},
      {"pipeline.gpipe", "bubble_total", "", "(p - 1) / (m + p - 1)", ""},
      {"pipeline.1f1b", "bubble_total", "", "(p - 1) / (m + p - 1)", ""},
      {"pipeline.1f1b", "warmup_first_stage", "", "min(p - 1, m)", ""},
      {"pipeline.interleaved", "warmup_first_stage", "", "min(2 * (p - 1) + (v - 1) * G, m * v)", "v >= 2"},
      {"pipeline.zb-h1", "idle_per_stage", "ms", "(p - 1) * (f + b - w)", "f == b && b == w && m >= p"},
      {"pipeline.zb-h2", "span_idle_per_stage", "ms", "(p - 1) * (f + b - 2 * w)", "f == b && b == w && m >= 2 * p - 1"},
      {"pipeline.zb-v", "span_idle_per_stage", "ms", "0", "f == b && b == w && m >= 2 * p - 1"},
      {"pipeline.dualpipe", "idle_per_stage", "ms", "(p / 2 - 1) * (f + 2 * b - w)", "f == b && w <= b"},
      {"checkpoint.young", "young_s", "s", "sqrt(2 * C * M)", ""},
      {"checkpoint.daly", "daly_s", "s",
       "if(C < 2 * M, sqrt(2 * C * M) * (1 + sqrt(C / (2 * M)) / 3 + C / (2 * M) / 9) - C, M)", ""},
      {"roofline.attainable", "attainable_flops", "FLOP/s", "min(peak, I * bw)", ""},
      {"roofline.attainable", "time_s", "s", "max(F / peak, bytes / bw)", ""},
      {"roofline.attainable", "ridge_flop_per_byte", "", "peak / bw", ""},
      {"hierarchy.nvlink-direction", "nvlink_gbs", "GB/s", "quoted / 2", ""},
      {"hierarchy.cross-pod", "cross_pod_gbs", "GB/s", "port / k", ""},
      {"hierarchy.cross-pod", "cross_pod_time_s", "s", "bytes / (port / k * 10^9)", ""},
      {"scaling.flops", "flops", "FLOP", "6 * N * D", ""},
      {"scaling.tokens-per-param", "tokens_per_param", "", "D / N", ""},
  };
  return f;
}

const std::vector<SimulatedFormula>& simulated_formulas() {
  static const std::vector<SimulatedFormula> f = {
      {"gradscaler", "tests/unit/test_sources.cpp (GradScaler against torch/amp/grad_scaler.py's update rule)"},
  };
  return f;
}

namespace {

// What a kind's run binds: the names its formulas use, the simulator's figures, and the
// formulas behind them.
struct Bindings {
  std::string error;
  std::vector<std::pair<std::string, double>> names;
  std::vector<std::pair<std::string, double>> figures;
  std::vector<std::string> ids;
  std::vector<std::pair<std::string, std::string>> units;  // name -> unit, for the written values
};

void bind_memory(const WidgetValues& v, Bindings& b) {
  const MemoryQuery q = memory_query_from(v);
  const MemoryEstimate e = estimate_memory(q);
  if (!e.error.empty()) {
    b.error = e.error;
    return;
  }
  b.names = {{"P", q.params},
             {"K", q.k},
             {"stage", q.zero},
             {"Nd", e.dp},
             {"MP", q.mp},
             {"N", static_cast<double>(q.gpus_per_node) * q.nodes},
             {"G", q.gpus_per_node},
             {"nodes", q.nodes},
             {"L", q.largest_layer},
             {"B", q.buffer_factor},
             {"offload", static_cast<double>(q.offload)},
             {"zero_init", q.zero_init ? 1 : 0},
             {"device", q.device_mem_gb * 1e9}};
  b.units = {{"device", "B"}};
  b.figures = {{"gpu_bytes", e.gpu_bytes}};
  if (e.cpu_modelled) b.figures.push_back({"cpu_bytes", e.cpu_bytes});
  if (q.device_mem_gb > 0) b.figures.push_back({"max_params", e.max_params});
  b.ids = {e.formula_id};
  if (q.source == MemorySource::ZeroPaper) b.ids.push_back("memory.zero-paper.max-params");
}

void bind_collective(const WidgetValues& v, Bindings& b) {
  const std::string op = v.option("op");
  const int n = v.get_int("N");
  const bool in_network = v.get_int("in_network") == 1;
  for (Collective c : all_collectives()) {
    if (op != collective_op_name(c)) continue;
    if (in_network && c != Collective::AllReduce) {
      b.error = "an in-network reduction is an AllReduce's";
      return;
    }
    b.names = {{"n", n}};
    b.figures = {{"busbw_factor", busbw_factor(c, n, in_network)}};
    b.ids = {collective_formula_id(c, in_network)};
  }
}

void bind_ring(const WidgetValues& v, Bindings& b) {
  const RingInputs in = ring_inputs_from(v);
  std::string err;
  auto r = simulate_ring(in, &err);
  if (!r) {
    b.error = err;
    return;
  }
  b.names = {{"N", in.ranks}, {"M", static_cast<double>(in.bytes)}};
  b.units = {{"M", "B"}};
  b.figures = {{"max_bytes_sent", static_cast<double>(r->max_bytes_sent)}};
  if (in.algorithm == CollectiveAlgorithm::Ring && in.collective == CollectiveKind::AllReduce)
    b.ids = {"ring.allreduce-bytes"};
}

double max_of(const std::vector<double>& xs) { return xs.empty() ? 0 : *std::max_element(xs.begin(), xs.end()); }

void bind_pipeline(const WidgetValues& v, Bindings& b) {
  const PipelineInputs in = pipeline_inputs(v);
  const PipelineResult r = simulate_pipeline(in);
  if (!r.error.empty()) {
    b.error = r.error;
    return;
  }
  b.names = {{"p", in.p}, {"m", in.m}, {"v", r.chunks}, {"G", r.group}, {"f", in.f_ms}, {"b", in.b_ms}, {"w", in.w_ms}};
  b.units = {{"f", "ms"}, {"b", "ms"}, {"w", "ms"}};
  b.figures = {{"bubble_total", r.bubble_total},
               {"warmup_first_stage", r.warmup_forwards.empty() ? 0 : r.warmup_forwards[0]},
               {"idle_per_stage", max_of(r.idle_ms)},
               {"span_idle_per_stage", max_of(r.span_idle_ms)}};
  b.ids = {pipe_schedule_formula_id(in.schedule)};
}

void bind_plan(const WidgetValues& v, Bindings& b) {
  const PlanInput in = plan_input_from(v);
  const PlanResult r = simulate_plan(in);
  if (!r.error.empty()) {
    b.error = r.error;
    return;
  }
  const ModelSpec& m = in.model;
  b.names = {{"N", r.params},
             {"L", m.layers},
             {"h", m.hidden},
             {"a", m.heads},
             {"T", m.seq},
             {"s", static_cast<double>(m.seq) / in.cp},
             {"b", in.mbs},
             {"t", in.tp},
             {"sp", in.sp ? 1 : 0},
             {"full", in.recompute == Recompute::Full ? 1 : 0},
             {"selective", in.recompute == Recompute::Selective ? 1 : 0},
             {"flash", in.flash ? 1 : 0},
             {"tokens", r.tokens_per_step},
             {"step", r.step_s},
             {"GPUs", static_cast<double>(r.plan_gpus)},
             {"peak", in.gpu.dense_tflops * 1e12}};
  b.units = {{"step", "s"}, {"peak", "FLOP/s"}};
  b.figures = {{"activation_layer_bytes", r.activation_layer_bytes}, {"mfu", r.mfu}, {"mfu_6n", r.mfu_6n}, {"hfu", r.hfu}};
  b.ids = {"memory.activations", "plan.mfu", "plan.mfu-6n", "plan.hfu"};
}

void bind_checkpoint(const WidgetValues& v, Bindings& b) {
  const double c = v.get("cost_s"), m = v.get("mtbf_s");
  b.names = {{"C", c}, {"M", m}};
  b.units = {{"C", "s"}, {"M", "s"}};
  b.figures = {{"young_s", young_interval_s(c, m)}, {"daly_s", daly_interval_s(c, m)}};
  b.ids = {"checkpoint.young", "checkpoint.daly"};
}

void bind_scaling(const WidgetValues& v, Bindings& b) {
  const double n = v.get("params"), d = v.get("tokens");
  b.names = {{"N", n}, {"D", d}};
  b.figures = {{"flops", training_flops(n, d)}, {"tokens_per_param", d / n}};
  b.ids = {"scaling.flops", "scaling.tokens-per-param"};
}

void bind_roofline(const WidgetValues& v, Bindings& b) {
  const RooflineResult r = run_roofline(v);
  if (!r.error.empty()) {
    b.error = r.error;
    return;
  }
  const OpCost& c = r.selected;
  b.names = {{"peak", r.roof.peak_flops}, {"bw", r.roof.hbm_bytes_per_s}, {"F", c.flops}, {"bytes", c.bytes},
             {"I", c.intensity}};
  b.units = {{"peak", "FLOP/s"}, {"bw", "B/s"}, {"F", "FLOP"}, {"bytes", "B"}, {"I", "FLOP/B"}};
  b.figures = {{"attainable_flops", c.attainable_flops}, {"time_s", c.time_s}, {"ridge_flop_per_byte", r.roof.ridge_flop_per_byte}};
  b.ids = {"roofline.attainable"};
}

void bind_hierarchy(const WidgetValues& v, Bindings& b) {
  const Hierarchy h = run_hierarchy(v);
  if (!h.error.empty()) {
    b.error = h.error;
    return;
  }
  b.names = {{"quoted", h.links[1].quoted_gbs}, {"port", h.links[2].bw_gbs}, {"k", h.oversubscription}, {"bytes", h.bytes}};
  b.units = {{"quoted", "GB/s"}, {"port", "GB/s"}, {"bytes", "B"}};
  b.figures = {{"nvlink_gbs", h.links[1].bw_gbs}, {"cross_pod_gbs", h.links[3].bw_gbs}, {"cross_pod_time_s", h.links[3].time_s}};
  b.ids = {"hierarchy.nvlink-direction", "hierarchy.cross-pod"};
}

Bindings bind(const WidgetValues& v) {
  Bindings b;
  const std::string kind = v.kind ? v.kind->kind : "";
  if (kind == "memory") bind_memory(v, b);
  else if (kind == "collective") bind_collective(v, b);
  else if (kind == "ring") bind_ring(v, b);
  else if (kind == "pipeline") bind_pipeline(v, b);
  else if (kind == "plan") bind_plan(v, b);
  else if (kind == "checkpoint") bind_checkpoint(v, b);
  else if (kind == "scaling") bind_scaling(v, b);
  else if (kind == "roofline") bind_roofline(v, b);
  else if (kind == "hierarchy") bind_hierarchy(v, b);
  return b;
}

template <class T>
const T* lookup(const std::vector<std::pair<std::string, T>>& xs, std::string_view name) {
  for (const auto& [n, x] : xs)
    if (n == name) return &x;
  return nullptr;
}

// One figure: the formula written with the run's values, its value and the simulator's.
ExplainedFigure explain_figure(const FormulaExpr& f, const Bindings& b, double simulated) {
  ExplainedFigure out;
  out.formula = &f;
  out.simulated = simulated;
  ExprScope scope = [&](std::string_view n) -> std::optional<double> {
    if (const double* x = lookup(b.names, n)) return *x;
    return std::nullopt;
  };
  if (*f.when) out.applies = eval_expr(f.when, scope, nullptr).value_or(0) != 0;
  ExprError err;
  Expr e = Expr::parse(f.expr, &err);
  out.from_formula = e.eval(scope, nullptr).value_or(NAN);
  const double tol = 1e-9 * std::max(1.0, std::fabs(simulated));
  out.agrees = std::fabs(out.from_formula - simulated) <= tol;
  auto written = [&](std::string_view n, double x) {
    const std::string* u = lookup(b.units, n);
    return expr_number(x) + (u ? " " + *u : "");
  };
  std::string value = format_number(out.from_formula, 6) + (*f.unit ? std::string(" ") + f.unit : "");
  if (std::string_view(f.unit) == "B" && out.from_formula >= 1e6) value += " (" + format_number(out.from_formula / 1e9, 4) + " GB)";
  out.step = derive_line(f.figure, e, scope, written, value);
  return out;
}

}  // namespace

Explanation explain_run(const WidgetValues& v) {
  Explanation out;
  Bindings b = bind(v);
  out.error = b.error;
  out.bound = b.names;
  if (!b.error.empty()) return out;
  for (const auto& id : b.ids)
    for (const auto& f : formula_exprs()) {
      if (id != f.id) continue;
      const double* simulated = lookup(b.figures, f.figure);
      if (simulated) out.figures.push_back(explain_figure(f, b, *simulated));
    }
  return out;
}

}  // namespace dtx::sim
