// Placeholder until the ring simulation lands.
#include <iostream>

#include "sim.h"

namespace dtx::cli {

int print_sim_ring(const sim::WidgetValues&, bool) {
  std::cerr << "dtx sim ring: not built yet\n";
  return 1;
}

}  // namespace dtx::cli
