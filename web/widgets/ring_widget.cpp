// Placeholder until the ring view lands.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_ring_widget() { return nullptr; }

}  // namespace dtx::web
