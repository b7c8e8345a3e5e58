// Review of my mistakes (#/review): the wrong answers the progress record keeps (the newest
// kMaxMistakes, engine/progress.h), grouped by the misconception the engine diagnosed
// (engine/mistake_review.h): one group per slip across exercises ("Bits vs bytes: 3 times"),
// one per exercise for a step its author listed and for what nothing diagnosed. Each group
// says what the slip is, shows its newest answers as the student saw them, and offers a fresh
// instance of each exercise in it: the method is practised again, not the number. Answers in
// an exam-mode assignment are not logged (their feedback was never shown).
#include <cstdio>
#include <ctime>

#include "misconception.h"
#include "mistake_review.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/controls.h"
#include "ui/text_layer.h"
#include "ui/theme.h"
#include "route.h"

namespace dtx::web {

namespace {

constexpr size_t kShownPerGroup = 3;  // answers shown; the rest counted
constexpr size_t kFreshPerGroup = 4;  // "try a fresh one" links

std::string title_of(const App& app, const std::string& id) {
  std::string t = map_exercise_title(app, id);
  return t.empty() ? id : t;
}

std::string group_heading(const App& app, const MistakeGroup& g) {
  const Misconception* m = find_misconception(g.key);
  std::string name = m && m->across_exercises ? m->name : title_of(app, g.exercise);
  size_t n = g.records.size();
  return name + ": " + std::to_string(n) + (n == 1 ? " time" : " times");
}

std::string group_explanation(const MistakeGroup& g) {
  const Misconception* m = find_misconception(g.key);
  if (m && m->across_exercises) return m->explanation;
  if (g.key == kListedMisconception) return "A wrong step the exercise's author names: the feedback says which.";
  return "Answers the engine could not put down to a known slip: the feedback compares them with the answer.";
}

// "2026-12-07": the local date of a record.
std::string date_of(int64_t at) {
  std::time_t t = static_cast<std::time_t>(at);
  std::tm tm{};
  if (!localtime_r(&t, &tm)) return "";
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

void record_block(App& app, const MistakeRecord& r, bool across) {
  std::string where = across ? title_of(app, r.exercise) : std::string();
  if (!r.part.empty()) where += (where.empty() ? "" : " · ") + r.part;
  where += (where.empty() ? "" : " · ") + date_of(r.at);
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  ImGui::TextWrapped("%s", where.c_str());
  ImGui::PopStyleColor();
  if (!r.given.empty()) ImGui::TextWrapped("You gave %s", r.given.c_str());
  if (!r.message.empty()) markdown(app, r.message);
}

// A fresh instance of each exercise in the group, newest first. True when one was opened.
bool fresh_links(App& app, const MistakeGroup& g, size_t group_no) {
  std::vector<std::string> ids = exercises_of(g);
  for (size_t i = 0; i < ids.size() && i < kFreshPerGroup; ++i) {
    std::string label = "Try a fresh one: " + title_of(app, ids[i]) + "##fresh-" + std::to_string(group_no) + "-" + ids[i];
    bool go = small_button(app.ui, label.c_str());
    Access a;
    a.role = Role::Link;
    a.name = "Try a fresh one: " + title_of(app, ids[i]);
    a.href = exercise_address(ids[i]);
    a.desc = "new numbers";
    access_item(std::move(a));
    if (go) {
      open_exercise(app, ids[i], fresh_seed(app, 0));
      return true;
    }
  }
  return false;
}

}  // namespace

void draw_review(App& app) {
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("My mistakes", 1);
  ImGui::PopFont();
  const std::vector<MistakeRecord>& log = app.store.progress.mistakes;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  if (log.empty()) {
    ImGui::TextWrapped("Nothing here yet. Each wrong answer you submit is kept here with what the engine made of it, "
                       "grouped by the slip behind it (bits for bytes, a factor of 2, percent for a fraction), so you "
                       "can see what goes wrong most and try it again with new numbers.");
    ImGui::PopTextWrapPos();
    return;
  }
  const std::vector<MistakeGroup> groups = group_mistakes(log);
  ImGui::TextWrapped("%zu wrong answer%s, grouped by what went wrong, most frequent first. The newest %zu are kept, "
                     "in this browser.",
                     log.size(), log.size() == 1 ? "" : "s", kMaxMistakes);
  ImGui::PopTextWrapPos();
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const MistakeGroup& g = groups[gi];
    const Misconception* m = find_misconception(g.key);
    const bool across = m && m->across_exercises;
    ImGui::Separator();
    ImGui::PushFont(app.ui.fonts.bold);
    heading_text(group_heading(app, g), 2, app.content_width);
    ImGui::PopFont();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
    ImGui::TextWrapped("%s", group_explanation(g).c_str());
    for (size_t i = 0; i < g.records.size() && i < kShownPerGroup; ++i) {
      ImGui::Spacing();
      record_block(app, *g.records[i], across);
    }
    if (g.records.size() > kShownPerGroup)
      ImGui::TextDisabled("and %zu older", g.records.size() - kShownPerGroup);
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (fresh_links(app, g, gi)) return;
    ImGui::Spacing();
  }
}

}  // namespace dtx::web
