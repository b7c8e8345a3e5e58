// Placeholder until the pipeline simulation lands.
#include <iostream>

#include "sim.h"

namespace dtx::cli {

int print_sim_pipeline(const sim::WidgetValues&, bool) {
  std::cerr << "dtx sim pipeline: not built yet\n";
  return 1;
}

}  // namespace dtx::cli
