// `dtx sim KIND --explain`: each figure a simulation reports, worked out again from the formula
// of its source (sources.h, sourced_formulas()) with the run's own inputs, step by step, the way
// an exercise's derivation is written (derivation.h):
//
//   gpu_bytes = (2 + 2 + K) / Nd × P / MP = (2 + 2 + 12) / 32 × 7 × 10^10 / 1 = 3.5 × 10^10 B
//
// Every closed-form formula of docs/formulas.md is also written here in dtx's expression
// language (formula_exprs()), so a test can evaluate it over many inputs and compare it with
// what the simulator computes (tests/unit/test_sim_explain.cpp): the document and the simulator
// cannot drift apart. A formula that holds only under an assumption (ZB-H1's bubble with
// f = b = w) says so in `when`; the explanation then says the simulation's figure is its own.
#pragma once

#include <string>
#include <vector>

#include "derivation.h"
#include "sim/widget.h"

namespace dtx::sim {

// One figure of a formula, in the expression language: `figure` names the simulator's output
// ("gpu_bytes"), `expr` computes it from the names the kind binds, `when` (may be empty) is the
// condition under which the source's formula is exact.
struct FormulaExpr {
  const char* id;      // a sourced_formulas() id
  const char* figure;  // "gpu_bytes"
  const char* unit;    // "B", "s", "FLOP", "" for a ratio or a count
  const char* expr;
  const char* when;
};
const std::vector<FormulaExpr>& formula_exprs();

// Formulas whose figure is worked out by an event simulation, with no closed form to compare:
// the test file that checks them against their source's tables instead.
struct SimulatedFormula {
  const char* id;
  const char* checked_by;  // "tests/unit/test_sim_pipeline_two_chunk.cpp"
};
const std::vector<SimulatedFormula>& simulated_formulas();

struct ExplainedFigure {
  const FormulaExpr* formula = nullptr;
  DerivationStep step;      // figure = formula = with the run's values = value
  double from_formula = 0;  // the expression's value
  double simulated = 0;     // the simulator's own figure
  bool applies = true;      // `when` holds for these inputs
  bool agrees = true;       // within 1e-9 relative (only meaningful when it applies)
};

struct Explanation {
  std::string error;  // non-empty: the simulation refuses these inputs (its reason)
  std::vector<ExplainedFigure> figures;
  // Names bound for this run and their values, in the order the kind binds them.
  std::vector<std::pair<std::string, double>> bound;
};

// The run's figures explained; an empty `figures` for a kind with no sourced closed form.
Explanation explain_run(const WidgetValues& v);

}  // namespace dtx::sim
