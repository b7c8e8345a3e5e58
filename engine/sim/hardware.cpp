#include "sim/hardware.h"

namespace dtx::sim {

// Sources: vendor datasheets as quoted in the seeds (A100 2,039 GB/s and H100 3,352 GB/s
// HBM, 989 TFLOP/s H100 dense BF16, NVLink 600/900 GB/s bidirectional, 8x400G InfiniBand
// = 50 GB/s per H100). A100 nodes of the same era had 8x200G HDR (25 GB/s per GPU), B200
// nodes 8x800G (100 GB/s). Cross-pod links are the in-pod figure over Meta's 1:7
// oversubscribed spine, as exercises/ERRATA.md (chapter 12) and the hierarchy widget use.
const std::vector<GpuSpec>& gpu_presets() {
  static const std::vector<GpuSpec> presets = {
      {"a100", "A100 SXM 80GB", 80, 312, 2039, 600, 25, 25.0 / 7, 8},
      {"h100", "H100 SXM 80GB", 80, 989, 3352, 900, 50, 50.0 / 7, 8},
      {"b200", "B200 192GB", 192, 2250, 8000, 1800, 100, 100.0 / 7, 8},
  };
  return presets;
}

const GpuSpec* find_gpu(std::string_view id) {
  for (const auto& g : gpu_presets())
    if (id == g.id) return &g;
  return nullptr;
}

}  // namespace dtx::sim
