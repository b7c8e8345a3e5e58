// Placeholder until the hierarchy view lands.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_hierarchy_widget() { return nullptr; }

}  // namespace dtx::web
