#include "sim/plan.h"

namespace dtx::sim {

const WidgetKind& plan_widget_kind() {
  static const WidgetKind k = {
      "plan", "Training-plan explorer", "memory per GPU, traffic and step time for a parallel plan",
      {{"model", "model", 0, 4, 0, true, false, {"7b", "13b", "70b", "405b", "175b"}, "model preset"},
       {"gpu", "GPU", 0, 2, 1, true, false, {"a100", "h100", "b200"}, "GPU preset"},
       {"nodes", "nodes", 1, 4096, 1, true, true, {}, "servers"},
       {"tp", "TP", 1, 64, 1, true, false, {}, "tensor-parallel degree"},
       {"pp", "PP", 1, 64, 1, true, false, {}, "pipeline-parallel degree"},
       {"dp", "DP", 1, 16384, 8, true, true, {}, "data-parallel degree"},
       {"zero", "ZeRO stage", 0, 3, 0, true, false, {}, "ZeRO stage 0-3"}}};
  return k;
}

}  // namespace dtx::sim
