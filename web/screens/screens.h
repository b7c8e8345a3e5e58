// One file per screen.
#pragma once

#include "app.h"

namespace dtx::web {

void draw_course_map(App& app);
void draw_exercise_screen(App& app);
void draw_settings(App& app);
void draw_lab(App& app);
void draw_not_found(App& app);
void draw_assignment(App& app);
void select_lab_widget(App& app, const std::string& kind);

}  // namespace dtx::web
