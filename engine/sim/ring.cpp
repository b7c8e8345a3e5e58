#include "sim/ring.h"

namespace dtx::sim {

const WidgetKind& ring_widget_kind() {
  static const WidgetKind k = {
      "ring", "Ring AllReduce", "ranks on a circle pass chunks; watch partial sums fill in",
      {{"N", "ranks", 2, 1024, 8, true, true, {}, "number of ranks in the ring"},
       {"M", "bytes per rank", 1e3, 1e12, 1e9, false, true, {}, "bytes of the buffer each rank reduces"},
       {"algorithm", "algorithm", 0, 2, 0, true, false, {"ring", "naive", "tree"}, "ring, naive (gather to rank 0 and broadcast) or binary tree"},
       {"collective", "collective", 0, 2, 0, true, false, {"allreduce", "reduce_scatter", "all_gather"}, "which collective"},
       {"alpha_us", "latency per step (us)", 0, 100, 5, false, false, {}, "alpha: fixed cost of one send"},
       {"bw_gbs", "link bandwidth (GB/s)", 1, 1000, 50, false, true, {}, "beta^-1: per-direction link bandwidth"}}};
  return k;
}

}  // namespace dtx::sim
