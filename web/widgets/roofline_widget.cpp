// Placeholder until the roofline view lands.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_roofline_widget() { return nullptr; }

}  // namespace dtx::web
