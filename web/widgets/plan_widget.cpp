// Placeholder until the plan view lands.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_plan_widget() { return nullptr; }

}  // namespace dtx::web
