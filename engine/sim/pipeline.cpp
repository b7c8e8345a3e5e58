#include "sim/pipeline.h"

namespace dtx::sim {

const WidgetKind& pipeline_widget_kind() {
  static const WidgetKind k = {
      "pipeline", "Pipeline schedules", "a Gantt chart of stages and microbatches with the bubble",
      {{"schedule", "schedule", 0, 4, 2, true, false, {"naive", "gpipe", "1f1b", "interleaved", "zb-h1"}, "pipeline schedule"},
       {"p", "stages p", 1, 32, 4, true, false, {}, "pipeline stages"},
       {"m", "microbatches m", 1, 128, 8, true, false, {}, "microbatches per step"},
       {"v", "chunks per stage v", 1, 8, 2, true, false, {}, "model chunks per stage (interleaved only)"},
       {"f", "forward time", 0.1, 10, 1, false, false, {}, "time of one forward of one microbatch on one stage"},
       {"b", "backward time", 0.1, 10, 1, false, false, {}, "time of the input-gradient backward"},
       {"w", "weight-grad time", 0, 10, 1, false, false, {}, "time of the weight-gradient backward"}}};
  return k;
}

}  // namespace dtx::sim
