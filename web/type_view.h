// One view per exercise type (types/<type>/view.cpp), found by find_view in a table the build
// writes from the types' folders (generated/view_registry.cpp). A view owns the
// answer being entered (its own ViewState struct, in its own file), draws the answer area of
// its type and the feedback that belongs next to the inputs; the exercise screen draws the
// rest. Nothing outside a view's file knows what its state holds: the app resets, carries
// over, fills (tests) and reports (test hook) it through this table.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>

#include "app.h"

namespace dtx::web {

struct TypeView {
  const char* type;
  // Fresh answer state for a new instance (st.exercise and st.inst are set).
  std::shared_ptr<ViewState> (*fresh)(App& app, const ExerciseState& st);
  // The answer area.
  void (*draw)(App& app, ExerciseState& st);
  // Builds the answer to grade; false (with nothing graded) when the answer runs first (code:
  // in the worker; the result comes back through `ran`).
  bool (*answer)(App& app, ExerciseState& st, Answer& out);
  // Puts an answer into the fields, as if the student had entered it (the headless-UI tests
  // fill the view with the engine's sample answers). False when this view cannot show it.
  bool (*set_answer)(App& app, ExerciseState& st, const Answer& a);
  // The exercise was loaded again (another pack arrived, `make serve` reloaded it): keep
  // what the student had entered where it still fits the new instance.
  void (*carry_over)(const ViewState& old, ExerciseState& st);
  // The fields as the browser tests read them from the test hook's state (members of `out`).
  void (*hook_state)(const ExerciseState& st, nlohmann::json& out);
  // Answers that run first: the runner's result (JSON) -> the answer to grade. Null for
  // answers graded as they are.
  bool (*ran)(ExerciseState& st, const std::string& result_json, Answer& out);
  // True while the view uses Escape itself (a row picked up to move): Escape then does not
  // leave the exercise.
  bool (*holds_escape)(const ExerciseState& st);
};

const TypeView* find_view(const std::string& type);

// The view's state of the open exercise as its own type (null before the view made it).
template <class T>
T* view_state(ExerciseState& st) {
  return dynamic_cast<T*>(st.view.get());
}
template <class T>
const T* view_state(const ExerciseState& st) {
  return dynamic_cast<const T*>(st.view.get());
}

}  // namespace dtx::web
