// Placeholder until the roofline and hierarchy simulations land.
#include <iostream>

#include "sim.h"

namespace dtx::cli {

int print_sim_hierarchy(const sim::WidgetValues&, bool) {
  std::cerr << "dtx sim hierarchy: not built yet\n";
  return 1;
}
int print_sim_roofline(const sim::WidgetValues&, bool) {
  std::cerr << "dtx sim roofline: not built yet\n";
  return 1;
}

}  // namespace dtx::cli
