// Practice (#/practice): what the spaced-review schedule says is due today (engine/practice.h,
// SM-2 over the student's own history in the progress record), as a session of up to
// kSessionSize exercises, each at fresh numbers so the method is practised, not a number.
// The first graded answer of each is the session's; at the end, a summary: what was right,
// what the engine diagnosed in each wrong answer, and when each comes back. Like all progress
// it is in the browser: offline, and merged across tabs.
#include <algorithm>
#include <cstdio>

#include "practice.h"
#include "progress.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/controls.h"
#include "ui/text_layer.h"
#include "ui/theme.h"

namespace dtx::web {

namespace {

constexpr size_t kSessionSize = 5;

long today_day(const App& app) { return days_from_date(app.platform->today()); }

const char* verdict_words(Verdict v) {
  switch (v) {
    case Verdict::Correct: return "right";
    case Verdict::Partial: return "partly right";
    default: return "not right";
  }
}

void open_item(App& app) {
  PracticeSession& p = app.practice;
  open_exercise(app, p.items[p.at], fresh_seed(app, 0));
}

// The map's title of an exercise, or its id while its pack is not in.
std::string title_of(const App& app, const std::string& id) {
  std::string t = map_exercise_title(app, id);
  return t.empty() ? id : t;
}

void start_session(App& app, const std::vector<std::string>& due) {
  PracticeSession& p = app.practice;
  p = PracticeSession{};
  p.active = true;
  p.items.assign(due.begin(), due.begin() + std::min(due.size(), kSessionSize));
  p.outcomes.assign(p.items.size(), {});
  open_item(app);
}

void due_list(App& app) {
  const ReviewMap& reviews = app.store.progress.review;
  const long today = today_day(app);
  const std::vector<std::string> due = due_exercises(reviews, today, 1000);
  if (reviews.empty()) {
    ImGui::TextWrapped("Nothing to practise yet. Each exercise you answer comes back here on a schedule: the next day, "
                       "then after longer and longer gaps while you keep getting it right (SM-2), each time with new "
                       "numbers.");
    return;
  }
  char line[160];
  std::snprintf(line, sizeof line, "%zu exercise%s due today", due.size(), due.size() == 1 ? "" : "s");
  ImGui::TextUnformatted(line);
  if (due.empty()) {
    if (auto next = next_due(reviews, today))
      ImGui::TextWrapped("Nothing is due today. The next comes back on %s.", date_from_days(*next).c_str());
    return;
  }
  char label[96];
  std::snprintf(label, sizeof label, "Start a session of %zu##practice-start", std::min(due.size(), kSessionSize));
  if (button(label, true)) {
    start_session(app, due);
    return;
  }
  for (const auto& id : due) ImGui::BulletText("%s", title_of(app, id).c_str());
}

void summary(App& app) {
  PracticeSession& p = app.practice;
  int right = 0;
  for (const auto& o : p.outcomes) right += o.verdict == Verdict::Correct;
  char line[96];
  std::snprintf(line, sizeof line, "Session done: %d of %zu right the first time", right, p.items.size());
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text(line, 2);
  ImGui::PopFont();
  for (size_t i = 0; i < p.items.size(); ++i) {
    const PracticeOutcome& o = p.outcomes[i];
    ImGui::Spacing();
    ImGui::TextUnformatted(title_of(app, p.items[i]).c_str());
    text_colored(!o.done ? color::muted() : o.verdict == Verdict::Correct ? color::correct() : color::wrong(),
                 !o.done ? "skipped" : verdict_words(o.verdict));
    // (the feedback's own words, maths included, drawn as the exercise screen drew them)
    if (!o.diagnosis.empty()) markdown(app, "The engine: " + o.diagnosis);
    auto it = app.store.progress.review.find(p.items[i]);
    if (it != app.store.progress.review.end())
      ImGui::TextDisabled("Comes back on %s", date_from_days(it->second.due_day).c_str());
  }
  ImGui::Spacing();
  if (button("Done##practice-done", true)) p = PracticeSession{};
}

}  // namespace

void practice_on_graded(App& app, const Feedback& fb) {
  PracticeSession& p = app.practice;
  if (!p.active || p.finished || p.at >= p.items.size() || app.ex.id != p.items[p.at]) return;
  PracticeOutcome& o = p.outcomes[p.at];
  if (o.done || !fb.counts_as_attempt()) return;
  o.done = true;
  o.verdict = fb.verdict;
  std::string d;
  if (fb.verdict != Verdict::Correct)
    for (const auto& part : fb.parts)
      if (part.graded && part.verdict != Verdict::Correct && !part.message.empty())
        d += (d.empty() ? "" : " ") + (part.label.empty() ? "" : part.label + ": ") + part.message;
  o.diagnosis = d.empty() && fb.verdict != Verdict::Correct ? fb.message : d;
}

void draw_practice_banner(App& app) {
  PracticeSession& p = app.practice;
  if (!p.active || p.finished || p.at >= p.items.size() || app.ex.id != p.items[p.at]) return;
  char line[96];
  std::snprintf(line, sizeof line, "Practice · %zu of %zu · new numbers", p.at + 1, p.items.size());
  text_colored(color::accent(), line);
  if (!p.outcomes[p.at].done) return;
  const bool last = p.at + 1 == p.items.size();
  if (small_button(app.ui, last ? "See the session's summary##practice-next" : "Next in practice##practice-next")) {
    if (last) {
      p.finished = true;
      app.screen = Screen::Practice;
    } else {
      ++p.at;
      open_item(app);
    }
  }
}

void draw_practice(App& app) {
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("Practice", 1);
  ImGui::PopFont();
  PracticeSession& p = app.practice;
  if (p.active && p.finished) {
    summary(app);
    return;
  }
  if (p.active) {
    char line[96];
    std::snprintf(line, sizeof line, "A session is under way: exercise %zu of %zu.", p.at + 1, p.items.size());
    ImGui::TextUnformatted(line);
    if (button("Continue##practice-continue", true)) open_item(app);
    ImGui::SameLine();
    if (button("End it here##practice-end")) p.finished = true;
    return;
  }
  due_list(app);
}

int practice_due_count(const App& app) {
  return static_cast<int>(due_exercises(app.store.progress.review, today_day(app), 100000).size());
}

}  // namespace dtx::web
