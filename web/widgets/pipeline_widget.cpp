// Placeholder until the pipeline view lands.
#include "widgets/widgets.h"

namespace dtx::web {

std::unique_ptr<Widget> make_pipeline_widget() { return nullptr; }

}  // namespace dtx::web
