// Placeholder until the plan simulation lands.
#include <iostream>

#include "sim.h"

namespace dtx::cli {

int print_sim_plan(const sim::WidgetValues&, bool) {
  std::cerr << "dtx sim plan: not built yet\n";
  return 1;
}

}  // namespace dtx::cli
