// GPUs and the links between them, as the simulations and widgets use them. One table, so
// the plan explorer, the roofline and the bandwidth hierarchy agree on every figure.
#pragma once

#include <string_view>
#include <vector>

namespace dtx::sim {

// Figures are per GPU. GB = 10^9 bytes; TFLOP/s = 10^12 FLOP/s.
struct GpuSpec {
  const char* id;        // "h100": what flags and exercise parameters name
  const char* name;      // "H100 SXM 80GB"
  double memory_gb;      // HBM capacity
  double dense_tflops;   // BF16 dense tensor-core peak (not the 2x "sparse" figure)
  double hbm_gbs;        // HBM bandwidth
  double nvlink_gbs;     // NVLink per GPU, bidirectional aggregate (the vendors' figure)
  double network_gbs;    // InfiniBand per GPU within a pod, per direction
  double cross_pod_gbs;  // per GPU between pods (oversubscribed spine), per direction
  int gpus_per_node;     // GPUs on one NVLink domain (a server)
};

const std::vector<GpuSpec>& gpu_presets();
// nullptr when unknown.
const GpuSpec* find_gpu(std::string_view id);

// NVLink per direction: what one GPU can send while it also receives (ring collectives).
inline double nvlink_per_direction_gbs(const GpuSpec& g) { return g.nvlink_gbs / 2; }

}  // namespace dtx::sim
