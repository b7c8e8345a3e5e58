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
void draw_search(App& app);
// Practice (screens/practice.cpp): the screen, its line above a practice exercise, the first
// graded answer of the exercise in hand, and how many exercises are due today.
void draw_practice(App& app);
void draw_practice_banner(App& app);
void practice_on_graded(App& app, const Feedback& fb);
int practice_due_count(const App& app);
// A new instance number, not `current` (Try another, practice).
uint64_t fresh_seed(App& app, uint64_t current);
// Search (screens/search.cpp): the screen with `query` in its field, the keyboard there when `focus`.
void open_search(App& app, const std::string& query, bool focus);
// True when the fetch was the search index's (and is handled).
bool search_on_fetched(App& app, int id, bool ok, int status, const std::string& body);
void select_lab_widget(App& app, const std::string& kind);
// Glossary (screens/glossary.cpp): the screen, at `slug` when one is named ("" the top); the
// popover a term link in a prompt opens; the library's glossary kept current.
void open_glossary(App& app, const std::string& slug);
void draw_glossary(App& app);
void draw_term_popover(App& app);
void open_term_popover(App& app, const GlossaryEntry& e, ImRect word);
const Glossary& course_glossary(App& app);
// Review of my mistakes (screens/review.cpp).
void draw_review(App& app);

}  // namespace dtx::web
