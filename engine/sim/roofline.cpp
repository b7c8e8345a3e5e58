#include "sim/roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace dtx::sim {

namespace {

constexpr double kGB = 1e9;
constexpr double kTera = 1e12;
constexpr double kBf16Bytes = 2;

// Options of the `gpu` input, from the hardware table so a new preset shows up everywhere.
std::vector<const char*> gpu_options() {
  std::vector<const char*> ids;
  for (const auto& g : gpu_presets()) ids.push_back(g.id);
  return ids;
}

double default_gpu_index() {
  const auto& p = gpu_presets();
  for (size_t i = 0; i < p.size(); ++i)
    if (std::string_view(p[i].id) == "h100") return static_cast<double>(i);
  return 0;
}

std::string fmt(const char* f, double a) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

const GpuSpec* chosen_gpu(const WidgetValues& v, std::string* error) {
  const char* id = v.option("gpu");
  const GpuSpec* g = find_gpu(id);
  if (!g && error) *error = std::string("unknown GPU '") + id + "'";
  return g;
}

Traffic chosen_traffic(const WidgetValues& v) {
  return std::string_view(v.option("traffic")) == "reads" ? Traffic::Reads : Traffic::All;
}

std::string matmul_label(double m, double n, double k) {
  if (m == n && n == k) return fmt("matmul %g³", m);
  return fmt("matmul %g", m) + fmt("×%g", n) + fmt("×%g", k);
}

}  // namespace

// ---- input tables

const WidgetKind& roofline_widget_kind() {
  static const WidgetKind k = {
      "roofline", "Roofline", "where an operation's arithmetic intensity lands against the roof",
      {{"gpu", "GPU", 0, 0, default_gpu_index(), true, false, gpu_options(), "GPU preset (peak FLOP/s and HBM bandwidth)"},
       {"op", "operation", 0, 0, 1, true, false, {kRooflineOps[0], kRooflineOps[1], kRooflineOps[2], kRooflineOps[3], kRooflineOps[4]},
        "the operation whose figures are shown: a custom intensity, a matmul m×n×k, an element-wise op, "
        "a decode step through a d×d weight, or decode attention over a KV cache"},
       {"traffic", "bytes counted", 0, 0, 0, true, false, {"all", "reads"},
        "all: inputs read and outputs written (the course's convention); reads: inputs only"},
       {"m", "matmul m (rows of A)", 1, 65536, 4096, true, true, {}, "matmul: rows of A and C"},
       {"n", "matmul n (columns of B)", 1, 65536, 4096, true, true, {}, "matmul: columns of B and C; relu: the tensor is m×n"},
       {"k", "matmul k (inner)", 1, 65536, 4096, true, true, {}, "matmul: columns of A, rows of B"},
       {"ops", "element-wise ops fused", 1, 1000, 1, true, true, {}, "relu: element-wise operations fused into one kernel"},
       {"d", "model width d", 64, 65536, 16384, true, true, {}, "decode and attention: the d×d weight, the model width"},
       {"batch", "batch (sequences)", 1, 65536, 32, true, true, {}, "decode and attention: sequences decoded together"},
       {"seq", "context / prompt tokens", 1, 1048576, 8192, true, true, {},
        "attention: tokens in each KV cache; also the prompt length of the prefill point"},
       {"group", "query heads per KV head", 1, 128, 8, true, false, {}, "attention: grouped-query attention group (1 = multi-head)"},
       {"intensity", "custom intensity (FLOP/byte)", 0.01, 100000, 100, false, true, {}, "custom: FLOPs per byte of HBM traffic"},
       {"bytes", "custom bytes moved", 1e3, 1e12, 1e9, false, true, {}, "custom: HBM traffic, for the time"}}};
  return k;
}

const WidgetKind& hierarchy_widget_kind() {
  static const WidgetKind k = {
      "hierarchy", "Bandwidth hierarchy", "HBM, NVLink, InfiniBand in a pod and across pods; GPU to cluster",
      {{"gpu", "GPU", 0, 0, default_gpu_index(), true, false, gpu_options(), "GPU preset (memory, peak FLOP/s, link bandwidths)"},
       {"bytes", "bytes to move", 1e3, 1e12, 1e9, false, true, {}, "bytes moved one way at every level"},
       {"level", "zoom level", 0, 0, 0, true, false,
        {kZoomLevelIds[0], kZoomLevelIds[1], kZoomLevelIds[2], kZoomLevelIds[3], kZoomLevelIds[4]},
        "the level shown: a GPU, a server, a rack, a pod or the cluster"},
       {"oversub", "oversubscription above pods (1:k)", 1, 16, 7, true, false, {},
        "the layer between pods carries 1/k of what the GPUs' ports can send (Meta's cluster: 7)"}}};
  return k;
}

// ---- roofline

Roof roof_of(const GpuSpec& g) {
  Roof r;
  r.peak_flops = g.dense_tflops * kTera;
  r.hbm_bytes_per_s = g.hbm_gbs * kGB;
  r.ridge_flop_per_byte = r.hbm_bytes_per_s > 0 ? r.peak_flops / r.hbm_bytes_per_s : 0;
  return r;
}

double attainable_flops(const Roof& r, double intensity) {
  return std::min(r.peak_flops, intensity * r.hbm_bytes_per_s);
}

const char* bound_name(Bound b) { return b == Bound::Memory ? "memory" : "compute"; }

Work matmul_work(double m, double n, double k, Traffic t) {
  Work w;
  w.flops = 2 * m * n * k;
  w.bytes = (m * k + k * n) * kBf16Bytes;
  if (t == Traffic::All) w.bytes += m * n * kBf16Bytes;
  return w;
}

Work elementwise_work(double elements, double ops, Traffic t) {
  Work w;
  w.flops = elements * ops;
  w.bytes = elements * kBf16Bytes * (t == Traffic::All ? 2 : 1);
  return w;
}

Work projection_work(double d, double batch, Traffic t) {
  Work w;
  w.flops = 2 * batch * d * d;
  w.bytes = (d * d + batch * d) * kBf16Bytes;
  if (t == Traffic::All) w.bytes += batch * d * kBf16Bytes;
  return w;
}

Work attention_decode_work(double seq, double d, double group, double batch, Traffic t) {
  Work w;
  w.flops = batch * 4 * seq * d;
  const double kv_values = 2 * seq * d / group;
  w.bytes = batch * (kv_values + d) * kBf16Bytes;
  if (t == Traffic::All) w.bytes += batch * d * kBf16Bytes;
  return w;
}

OpCost op_cost(const Roof& r, std::string label, const Work& w) {
  OpCost c;
  c.label = std::move(label);
  c.flops = w.flops;
  c.bytes = w.bytes;
  c.intensity = w.bytes > 0 ? w.flops / w.bytes : std::numeric_limits<double>::infinity();
  c.attainable_flops = attainable_flops(r, c.intensity);
  c.bound = c.intensity < r.ridge_flop_per_byte ? Bound::Memory : Bound::Compute;
  c.compute_time_s = r.peak_flops > 0 ? w.flops / r.peak_flops : 0;
  c.memory_time_s = r.hbm_bytes_per_s > 0 ? w.bytes / r.hbm_bytes_per_s : 0;
  c.time_s = std::max(c.compute_time_s, c.memory_time_s);
  return c;
}

double projection_batch_at_ridge(double d, double ridge, Traffic t) {
  // Intensity 2bd²/(2d² + c·2bd) = bd/(d + c·b), with c = 2 outputs+inputs or 1 inputs only.
  const double c = t == Traffic::All ? 2 : 1;
  const double denom = d - c * ridge;
  if (denom <= 0) return std::numeric_limits<double>::infinity();
  return ridge * d / denom;
}

RooflineResult run_roofline(const WidgetValues& v) {
  RooflineResult res;
  res.gpu = chosen_gpu(v, &res.error);
  if (!res.gpu) return res;
  res.roof = roof_of(*res.gpu);
  res.traffic = chosen_traffic(v);
  res.op = v.option("op");
  const Traffic t = res.traffic;
  const double m = v.get("m"), n = v.get("n"), k = v.get("k"), d = v.get("d"), batch = v.get("batch");
  const double seq = v.get("seq"), group = v.get("group"), ops = v.get("ops");
  const Roof& r = res.roof;

  auto add = [&](const char* id, const char* selects, std::string label, const Work& w) {
    RooflinePoint p{id, op_cost(r, std::move(label), w), res.op == selects};
    res.points.push_back(p);
  };
  add("matmul", "matmul", matmul_label(m, n, k), matmul_work(m, n, k, t));
  add("relu", "relu",
      ops == 1 ? fmt("ReLU on %g", m) + fmt("×%g", n) : fmt("%g element-wise ops fused on ", ops) + fmt("%g", m) + fmt("×%g", n),
      elementwise_work(m * n, ops, t));
  // At b = 1 the chosen decode point is this one: drawing it twice would hide nothing new.
  if (batch != 1) add("decode-b1", "", fmt("decode b=1, d=%g", d), projection_work(d, 1, t));
  add("decode", "decode", fmt("decode b=%g", batch) + fmt(", d=%g", d), projection_work(d, batch, t));
  add("prefill", "", fmt("prefill %g tokens", seq) + fmt(", d=%g", d), projection_work(d, seq, t));
  add("attention", "attention", fmt("decode attention, %g-token cache", seq) + fmt(", group %g", group),
      attention_decode_work(seq, d, group, batch, t));
  const double custom_bytes = v.get("bytes");
  add("custom", "custom", fmt("custom %g FLOP/byte", v.get("intensity")),
      Work{v.get("intensity") * custom_bytes, custom_bytes});

  for (const auto& p : res.points)
    if (p.selected) res.selected = p.cost;
  res.batch_at_ridge = projection_batch_at_ridge(d, r.ridge_flop_per_byte, t);
  return res;
}

SweepPoint roofline_sweep(const WidgetValues& v, const Roof& r, double pos, int steps) {
  const double f = steps > 0 ? std::clamp(pos / steps, 0.0, 1.0) : 0;
  const Traffic t = chosen_traffic(v);
  const std::string_view op = v.option("op");
  if (op == "decode") {
    const double b = std::pow(2.0, 12 * f);
    return {"batch", b, op_cost(r, fmt("decode b=%.0f", b), projection_work(v.get("d"), b, t))};
  }
  if (op == "matmul") {
    const double n = std::pow(2.0, 4 + 12 * f);
    return {"n", n, op_cost(r, fmt("matmul %.0f³", n), matmul_work(n, n, n, t))};
  }
  const double i = std::pow(10.0, -1 + 5 * f);
  return {"intensity", i, op_cost(r, fmt("%.3g FLOP/byte", i), Work{i * kGB, kGB})};
}

// ---- bandwidth hierarchy

const ClusterShape& meta_cluster_shape() {
  static const ClusterShape shape;
  return shape;
}

Hierarchy run_hierarchy(const GpuSpec& g, const ClusterShape& shape, double bytes, double oversub, int level) {
  Hierarchy h;
  h.gpu = &g;
  h.bytes = bytes;
  h.oversubscription = oversub;
  h.level = std::clamp(level, 0, kZoomLevels - 1);
  if (!(bytes > 0)) {
    h.error = "bytes must be positive, got " + fmt("%g", bytes);
    return h;
  }
  if (!(oversub >= 1)) {
    h.error = "oversubscription must be at least 1 (1:1 is a non-blocking fabric), got " + fmt("%g", oversub);
    return h;
  }
  const double hbm = g.hbm_gbs;
  auto link = [&](const char* id, const char* name, const char* what, double bw, double quoted) {
    LinkLevel l{id, name, what, bw, quoted, bw / hbm, quoted / hbm, bytes / (bw * kGB)};
    h.links.push_back(l);
  };
  link("hbm", "GPU ↔ its HBM", "HBM", hbm, hbm);
  link("nvlink", "GPU ↔ GPU in a server", "NVLink / NVSwitch", nvlink_per_direction_gbs(g), g.nvlink_gbs);
  link("network", "server ↔ server in a pod", "InfiniBand, one port per GPU", g.network_gbs, g.network_gbs);
  // With every GPU crossing pods at once the aggregation layer gives each 1/k of its port.
  link("cross-pod", "pod ↔ pod", "oversubscribed aggregation layer", g.network_gbs / oversub, g.network_gbs / oversub);
  h.nvlink_over_network = h.links[1].bw_gbs / h.links[2].bw_gbs;
  h.quoted_nvlink_over_network = h.links[1].quoted_gbs / h.links[2].bw_gbs;

  const long per_server = g.gpus_per_node;
  const long per_rack = per_server * shape.servers_per_rack;
  const long per_pod = per_rack * shape.racks_per_pod;
  const long per_cluster = per_pod * shape.pods_per_cluster;
  auto zoom = [&](const char* id, const char* name, int children, const char* child, long gpus, int link_index) {
    ZoomCounts z{id, name, children, child, gpus, gpus * g.memory_gb * kGB, gpus * g.dense_tflops * kTera, link_index};
    h.zoom.push_back(z);
  };
  zoom(kZoomLevelIds[0], "GPU", 0, "", 1, 0);
  zoom(kZoomLevelIds[1], "Server", g.gpus_per_node, "GPU", per_server, 1);
  zoom(kZoomLevelIds[2], "Rack", shape.servers_per_rack, "server", per_rack, 2);
  zoom(kZoomLevelIds[3], "Pod", shape.racks_per_pod, "rack", per_pod, 2);
  zoom(kZoomLevelIds[4], "Cluster", shape.pods_per_cluster, "pod", per_cluster, 3);
  return h;
}

Hierarchy run_hierarchy(const WidgetValues& v) {
  std::string err;
  const GpuSpec* g = chosen_gpu(v, &err);
  if (!g) {
    Hierarchy h;
    h.error = err;
    return h;
  }
  return run_hierarchy(*g, meta_cluster_shape(), v.get("bytes"), v.get("oversub"), v.get_int("level"));
}

}  // namespace dtx::sim
