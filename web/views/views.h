// One view per exercise type, registered in one table (views.cpp is not needed: each view
// file defines its entry; find_view lists them). A view draws the answer area of its type
// and the feedback that belongs next to the inputs; the exercise screen draws the rest.
#pragma once

#include "app.h"

namespace dtx::web {

struct TypeView {
  const char* type;
  // Fresh answer state for a new instance.
  void (*reset)(App& app, ExerciseState& st);
  // The answer area.
  void (*draw)(App& app, ExerciseState& st);
  // Builds the answer to grade; false (with nothing graded) when the type submits
  // asynchronously (code: runs in the worker first).
  bool (*answer)(App& app, ExerciseState& st, Answer& out);
};

extern const TypeView kNumericView, kChoiceView, kOrderingView, kBuggyLineView, kCodeView;
const TypeView* find_view(const std::string& type);

// code_view.cpp: starts the run in the worker; the result is graded in app_on_code_result.
void start_code_run(App& app, ExerciseState& st);

}  // namespace dtx::web
