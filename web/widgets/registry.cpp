// Widget kind -> view. Adding a widget = one sim file, one view file, one line here.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_widget(std::string_view kind) {
  if (kind == "ring") return make_ring_widget();
  if (kind == "pipeline") return make_pipeline_widget();
  if (kind == "plan") return make_plan_widget();
  if (kind == "hierarchy") return make_hierarchy_widget();
  if (kind == "roofline") return make_roofline_widget();
  return nullptr;
}

}  // namespace dtx::web
