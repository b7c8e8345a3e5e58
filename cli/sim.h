// `dtx sim KIND --input value ... [--json]`: the widgets' simulations from the command line.
// Flags are the widget's inputs (engine/sim/*: *_widget_kind()), parsed in one place; each
// kind prints its own result in cli/sim_<kind>.cpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/widget.h"

namespace dtx::cli {

int cmd_sim(const std::vector<std::string>& args);

// Print the result for these inputs; return the exit status (0, or 1 when the simulation
// reports the inputs impossible, with the reason on stderr).
int print_sim_ring(const sim::WidgetValues& v, bool json);
int print_sim_pipeline(const sim::WidgetValues& v, bool json);
int print_sim_plan(const sim::WidgetValues& v, bool json);
int print_sim_hierarchy(const sim::WidgetValues& v, bool json);
int print_sim_roofline(const sim::WidgetValues& v, bool json);
// The calculators of engine/sim/sources.h (cli/sim_sources.cpp).
int print_sim_memory(const sim::WidgetValues& v, bool json);
int print_sim_collective(const sim::WidgetValues& v, bool json);
int print_sim_checkpoint(const sim::WidgetValues& v, bool json);
int print_sim_gradscaler(const sim::WidgetValues& v, const std::string& steps, bool json);
int print_sim_scaling(const sim::WidgetValues& v, bool json);
// --explain (cli/sim_explain.cpp): runs `run` (which prints the kind's figures) and adds how
// each figure comes out of its source's formula; with --json, as an "explain" array.
int print_explained(const sim::WidgetValues& v, bool json, const std::function<int()>& run);

}  // namespace dtx::cli
