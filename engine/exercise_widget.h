// An animated widget embedded in an exercise, with inputs taken from the instance:
//   "widget": {"kind": "pipeline", "schedule": "1f1b", "p": "{p}", "m": "{2*p}"}
// Each input is a number, an option name (for choices) or "{expression}" over the
// exercise's parameters and derived values, evaluated for every instance, so the widget a
// student sees runs on the same numbers the exercise grades.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expr.h"

namespace dtx {

// The simulator's widget table (sim/widget.h) is named here, not included: this header
// reaches every file that includes model.h, and few of them draw or compute a widget.
namespace sim {
struct WidgetKind;
struct WidgetValues;
}  // namespace sim

struct WidgetArg {
  std::string name;          // input name (checked against the kind's table)
  std::optional<Expr> expr;  // "{...}" values; otherwise `value` is the number or option index
  double value = 0;
  std::string pointer;
};

// When the page shows the widget ("reveal" in the pack). Some widgets print figures an
// exercise grades (a roofline's attainable FLOP/s, a ring's bytes per rank); an author can
// hold such a widget back until the student has tried, or solved, the exercise.
enum class WidgetReveal {
  Always,        // "always" (the default): shown from the start
  AfterAttempt,  // "after-attempt": once the student has submitted an answer that counts
  AfterSolve,    // "after-solve": once the student has answered it right
};

// "always", "after-attempt", "after-solve": the names packs write.
const char* widget_reveal_name(WidgetReveal r);
std::optional<WidgetReveal> find_widget_reveal(std::string_view name);
const std::vector<std::string>& widget_reveal_names();

// Whether a widget with setting `r` is shown to a student who has (`attempted`) submitted an
// answer that counts as an attempt and (`solved`) answered right. The page passes what it
// knows of this exercise; the instructor view shows the widget whatever this says.
bool widget_revealed(WidgetReveal r, bool attempted, bool solved);

struct ExerciseWidget {
  const sim::WidgetKind* kind = nullptr;
  std::vector<WidgetArg> args;
  WidgetReveal reveal = WidgetReveal::Always;
  std::string pointer;
};

struct Instance;
struct Exercise;
struct LintContext;

// The widget's inputs for this instance: the kind's defaults, then the exercise's values,
// clamped to each input's range. nullopt when the exercise has no widget; `error` is set
// when an expression fails to evaluate.
std::optional<sim::WidgetValues> widget_values(const Instance& inst, std::string* error);

// Lint: every expression evaluates inside the input's range at the defaults and at every
// corner of the parameter ranges.
void lint_exercise_widget(const Exercise& ex, LintContext& ctx);

// "simulations": configurations of `dtx sim` that the exercise's numbers describe, written
// like a widget without "reveal" and never shown:
//   "simulations": [{"kind": "pipeline", "schedule": "interleaved", "p": "{p}", "m": "{m}", "v": "{v}"}]
// They let lint hold every instance to the rules the simulator already knows.
//
// Lint, for one instance: the widget's and each simulation's inputs, unclamped, lie in their
// ranges, and the simulator accepts them (WidgetKind::refuses). Problems go to `out`.
struct InstanceProblems;
void lint_simulations_instance(const Exercise& ex, const Instance& inst, InstanceProblems& out);

}  // namespace dtx
