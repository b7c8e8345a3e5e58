#include "sim/roofline.h"

namespace dtx::sim {

const WidgetKind& roofline_widget_kind() {
  static const WidgetKind k = {
      "roofline", "Roofline", "where an operation's arithmetic intensity lands against the roof",
      {{"gpu", "GPU", 0, 2, 1, true, false, {"a100", "h100", "b200"}, "GPU preset"},
       {"intensity", "arithmetic intensity (FLOP/byte)", 0.1, 10000, 295, false, true, {}, "FLOPs per byte of an operation"}}};
  return k;
}

const WidgetKind& hierarchy_widget_kind() {
  static const WidgetKind k = {
      "hierarchy", "Bandwidth hierarchy", "HBM, NVLink, InfiniBand in a pod and across pods",
      {{"gpu", "GPU", 0, 2, 1, true, false, {"a100", "h100", "b200"}, "GPU preset"},
       {"bytes", "bytes to move", 1e3, 1e12, 1e9, false, true, {}, "message size"}}};
  return k;
}

}  // namespace dtx::sim
