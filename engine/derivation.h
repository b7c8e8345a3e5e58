// A keyed number worked out with the instance's own values, written from the expression the
// engine grades with, so it can never disagree with the key:
//
//   per_gpu = 16 × P / N = 16 × 70 / 64 = 17.5 GB
//
// Each derived value the expression uses (directly or through another) comes first, on a line
// of its own, in the order the exercise declares them. Parameters show their unit when they
// declare one; the result shows the unit it is asked in.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "expr.h"

namespace dtx {

struct Exercise;
struct Instance;

struct DerivationStep {
  std::string name;         // "chunk", or the part's id
  std::string formula;      // "M / N"; empty when the expression is one name or number
  std::string substituted;  // "8 GB / 4"; empty when it is the formula itself (no names)
  std::string value;        // "2 GB" (the result with `unit`, or a derived value's number)
};

std::vector<DerivationStep> derive(const Exercise& ex, const Instance& inst, const std::string& name, const Expr& e,
                                   const std::string& unit);

// One line for `e` under `scope`: the formula with its names, then with each name's value as
// `written` gives it (a number, perhaps with a unit), then `value`. Exercises and `dtx sim
// --explain` (engine/sim/explain.h) write their lines with it.
DerivationStep derive_line(const std::string& name, const Expr& e, const ExprScope& scope,
                           const std::function<std::string(std::string_view, double)>& written, const std::string& value);

// "name = formula = substituted = value", one line per step.
std::string derivation_text(const std::vector<DerivationStep>& steps);

}  // namespace dtx
