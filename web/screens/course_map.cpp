// The course map: chapters with their exercises and progress, the streak, where the student
// left off, and any pack that failed to load with its errors.
#include <algorithm>
#include <cstdio>
#include <set>

#include "type_registry.h"
#include "route.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "type_view.h"

namespace dtx::web {

static void notice_box(App& app, ImU32 col, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// What the student does, as the type says it ("derive", "find the bug").
static const char* type_label(const std::string& t) {
  const TypeEntry* e = find_type(t);
  return e ? e->verb : t.c_str();
}

// Loader and lint messages ("file:line:col: error[E012]: ..."), monospaced, wrapped to the column.
static void message_lines(App& app, const std::vector<std::string>& lines) {
  ImGui::PushFont(app.ui.fonts.mono);
  for (const auto& m : lines) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
    ImGui::TextUnformatted(m.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PopFont();
}

// One row per exercise: progress mark, title (opens it), type and tries on the right.
// `pack` may be an outline entry (web/app.h, map_packs): ids, titles and types only.
static void exercise_rows(App& app, const Pack& pack, const std::string& last_id) {
  const float e = em(app.ui);
  for (const auto& ex : pack.exercises) {
    auto it = app.store.progress.exercises.find(ex.id);
    const ExerciseProgress* ep = it == app.store.progress.exercises.end() ? nullptr : &it->second;
    const char* mark = !ep ? "○" : ep->solved_at ? "✓" : "●";
    ImU32 mark_col = !ep ? color::muted() : ep->solved_at ? color::correct() : color::partial();
    std::string label = ex.title + "##ex-" + ex.id;
    const float text_h = ImGui::GetTextLineHeight();
    const float h = std::max(text_h, touch_target(app.ui));  // a finger's height on a touch screen
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(pos.x, pos.y + (h - text_h) * 0.5f), mark_col, mark);
    std::string right = std::string(type_label(ex.type)) + (ep ? "  ·  " + std::to_string(ep->attempts()) + (ep->attempts() == 1 ? " try" : " tries") : "");
    float rw = ImGui::CalcTextSize(right.c_str()).x;
    float title_w = ImGui::CalcTextSize(ex.title.c_str()).x;
    bool show_right = e * 1.4f + title_w + rw + e < app.content_width;
    ImGui::SetCursorScreenPos(ImVec2(pos.x + e * 1.4f, pos.y));
    ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(0, 0.5f));
    // The row's link ends before the type and tries (drawn beside it, said in its description):
    // its visible words are its name (WCAG 2.5.3, label in name).
    const float link_w = app.content_width - e * 1.4f - (show_right ? rw + e : 0);
    if (ImGui::Selectable(label.c_str(), last_id == ex.id, 0, ImVec2(link_w, h))) open_exercise(app, ex.id, 0);
    if (app.nav.return_focus == ex.id) {  // back from this exercise by the keyboard
      focus_last_item();
      app.nav.return_focus.clear();
    }
    {
      Access a;
      a.role = Role::Link;
      a.name = ex.title;
      a.href = exercise_address(ex.id);
      a.desc = std::string(!ep ? "not tried" : ep->solved_at ? "solved" : "tried, not solved yet") + ", " + type_label(ex.type);
      access_item(std::move(a));
    }
    ImGui::PopStyleVar();
    if (show_right) dl->AddText(ImVec2(pos.x + app.content_width - rw, pos.y + (h - text_h) * 0.5f), color::muted(), right.c_str());
  }
}

// Packs opened for preview, above the course: marked as such, with the same messages
// `dtx lint` gives for what is wrong, and every exercise that passed playable.
static void preview_section(App& app, const std::string& last_id) {
  const float e = em(app.ui);
  for (size_t i = 0; i < app.previews.size(); ++i) {
    const Preview& pv = *app.previews[i];
    const PreviewPack& r = pv.result;
    ImGui::PushID(static_cast<int>(i));
    std::string title = r.pack && !r.pack->title.empty() ? r.pack->title : pv.source;
    // Not a fixed buffer: a long title or URL would cut off the "###preview-N" id.
    std::string head = "PREVIEW · " + title + "###preview-" + std::to_string(i);
    ImGui::PushStyleColor(ImGuiCol_Header, ImGui::ColorConvertU32ToFloat4(color::preview()));
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    bool open = ImGui::CollapsingHeader(head.c_str());
    ImGui::PopStyleColor();
    if (open) {
      std::string where = pv.from_url ? "opened from " + pv.source : "dropped file " + pv.source;
      if (pv.request && !pv.fetched) {
        ImGui::TextDisabled("Loading %s…", pv.source.c_str());
      } else if (!pv.fetch_error.empty()) {
        notice_box(app, color::wrong(), pv.fetch_error);
      }
      if (pv.fetched) {
        // The pack's intro first, as the chapter will show it: the author sees it rendered.
        if (r.pack && !r.pack->intro.empty()) pack_markdown(app, r.pack->intro, pack_image_base(app, pv.source, &pv));
        int playable = r.pack ? static_cast<int>(r.pack->exercises.size()) : 0;
        char buf[512];
        std::snprintf(buf, sizeof buf, "Not part of the course: %s. %d of %d exercise%s playable%s", where.c_str(), playable,
                      r.authored, r.authored == 1 ? "" : "s",
                      r.errors.empty() ? "; dtx lint finds nothing wrong." : "; what dtx lint reports:");
        notice_box(app, color::muted(), buf);
        if (!r.errors.empty()) {
          std::vector<std::string> lines;
          for (const auto& d : r.errors) lines.push_back(format_diagnostic(d));
          ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::wrong()));
          message_lines(app, lines);
          ImGui::PopStyleColor();
        }
        if (r.pack) exercise_rows(app, *r.pack, last_id);
      }
      if (small_button(app.ui, "Close this preview##preview-close")) {
        if (preview_of(app, app.ex.exercise) == &pv) app.ex = ExerciseState{};
        app.previews.erase(app.previews.begin() + static_cast<long>(i));
        ImGui::PopID();
        return;
      }
      (void)e;
    }
    ImGui::PopID();
    ImGui::Spacing();
  }
}

// The course's title and what it is about, any notices, and in course mode the assignment
// this address opened.
static void course_heading(App& app) {
  const float e = em(app.ui);
  ImGui::Dummy(ImVec2(1, e * 0.3f));
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("The arithmetic of distributed training", 1, ImGui::GetContentRegionAvail().x);
  ImGui::PopFont();
  markdown(app, "Derive the numbers behind ring AllReduce, ZeRO, pipeline bubbles, tensor parallelism and "
                "405B-scale plans. Every answer is checked at once; progress stays in this browser.");

  for (const auto& n : app.notices) notice_box(app, color::partial(), n);
  // Course mode: the assignment this address opened is one click away.
  if (app.course && app.course->a) {
    ImGui::Spacing();
    ImGui::TextWrapped("Assignment: %s", app.course->a->title.c_str());
    same_line_if_fits("Open the assignment##open-assignment");
    if (small_button(app.ui, "Open the assignment##open-assignment")) app.screen = Screen::Assignment;
  }
}

// totals and streak
static void progress_summary(App& app, const std::vector<MapPack>& course) {
  int total = 0, solved = 0, attempted = 0;
  for (const auto& mp : course) {
    ChapterProgress cp = chapter_progress(app.store.progress, *mp.pack);
    total += cp.total;
    solved += cp.solved;
    attempted += cp.attempted;
  }
  int streak = current_streak(app.store.progress, app.platform->today());
  char buf[256];
  std::snprintf(buf, sizeof buf, "Solved %d of %d · attempted %d · streak %d day%s (best %d)", solved, total, attempted,
                streak, streak == 1 ? "" : "s", app.store.progress.best_streak_days);
  ImGui::TextDisabled("%s", buf);
  // What the figures mean, one click or tap away (a hover tooltip never shows on a phone).
  const char* what = app.explain_progress ? "Hide##what-progress" : "What do these mean?##what-progress";
  same_line_if_fits(what);
  if (small_button(app.ui, what))
    app.explain_progress = !app.explain_progress;
  if (app.explain_progress)
    markdown(app, "**Solved**: exercises you have answered right at least once. **Attempted**: exercises you have "
                  "submitted an answer to (an answer that could not be read does not count). **Streak**: days in a "
                  "row, by your own calendar, on which you submitted at least one answer; it still runs if your "
                  "last such day was yesterday. **Mastery** of a chapter: the average over its exercises of your "
                  "best score on each, where an exercise you have not tried counts as 0 and partial credit counts "
                  "in part; the bar under each chapter shows it.");
}

// Chapters still on their way (a slow network) that the outline does not show: said at the
// top, with their files, until they arrive (the totals above count the chapters listed).
static void chapters_loading(App& app, const std::vector<MapPack>& course) {
  if (!app.load.library_ready) {
    std::set<std::string> shown;
    for (const auto& mp : course)
      if (!mp.loaded) shown.insert(mp.pack->file);
    std::vector<std::string> waiting;
    for (const auto& [id, file] : app.load.pending)
      if (file != "index.json" && !shown.count(file)) waiting.push_back(file);
    std::sort(waiting.begin(), waiting.end());
    if (!waiting.empty()) {
      std::string line = "Loading " + std::to_string(waiting.size()) + (waiting.size() == 1 ? " more chapter: " : " more chapters: ");
      for (size_t i = 0; i < waiting.size(); ++i) line += (i ? ", " : "") + waiting[i];
      notice_box(app, color::muted(), line + "…");
    }
  }
}

// "Continue where you left off", and any exercise still opening; then what failed to load.
static void continue_and_problems(App& app) {
  // (from the outline when its pack is not in yet: the button opens it once it is)
  if (std::string t = map_exercise_title(app, app.store.progress.last_exercise); !t.empty()) {
    std::string label = "Continue where you left off: " + t + "##continue";
    if (button(label.c_str(), true)) open_exercise(app, app.store.progress.last_exercise, 0);
  }
  // What the spaced-review schedule brings back today (screens/practice.cpp).
  if (!app.store.progress.review.empty()) {
    const int due = practice_due_count(app);
    const std::string label = due > 0 ? "Practice: " + std::to_string(due) + " due today##practice"
                                      : std::string("Practice: nothing due today##practice");
    same_line_if_fits(label.c_str());
    if (small_button(app.ui, label.c_str())) app.screen = Screen::Practice;
    link_item(label.substr(0, label.find("##")), "#/practice");
  }
  // The wrong answers kept, grouped by slip (screens/review.cpp), once there are any.
  if (const size_t n = app.store.progress.mistakes.size()) {
    const std::string label = "My mistakes: " + std::to_string(n) + "##review";
    same_line_if_fits(label.c_str());
    if (small_button(app.ui, label.c_str())) app.screen = Screen::Review;
    link_item(label.substr(0, label.find("##")), "#/review");
  }
  same_line_if_fits("Glossary##glossary");
  if (small_button(app.ui, "Glossary##glossary")) open_glossary(app, "");
  link_item("Glossary", "#/glossary");
  // An exercise opened from the outline whose pack is still on its way.
  if (app.screen == Screen::CourseMap && app.nav.route_pending && app.nav.route_pending->kind == Route::Exercise)
    notice_box(app, color::muted(), "Opening " + map_exercise_title(app, app.nav.route_pending->id) + ": its chapter is loading…");

  if (!app.load.index_error.empty()) notice_box(app, color::wrong(), app.load.index_error);
  if (!app.load.report_error.empty()) notice_box(app, color::partial(), app.load.report_error);
  for (const auto& pr : app.load.problems) {
    ImGui::Spacing();
    notice_box(app, color::wrong(), "Could not load " + pr.file + " (the other packs are fine):");
    message_lines(app, pr.messages);
  }
}

// The chapter header's entry in the accessibility tree: a closed chapter still names its
// exercises and links to its address.
static void chapter_access(const Pack& p, const ChapterProgress& cp, bool open) {
  Access a;
  a.role = Role::Expander;
  a.name = "Chapter " + std::to_string(p.chapter) + ": " + p.title + ", " + std::to_string(cp.solved) + " of " +
           std::to_string(cp.total) + " solved";
  a.checked = open ? 1 : 0;
  a.heading = 2;
  if (!open) {
    for (const auto& ex : p.exercises) a.hidden_words.push_back(ex.title);
    a.href = "#/chapter/" + std::to_string(p.chapter);
  }
  access_item(std::move(a));
}

// What of an open chapter wants the student back: exercises the practice schedule has due
// today and exercises tried but not solved yet, with the way to Practice.
static void chapter_due_and_missed(App& app, const Pack& p) {
  const long today = days_from_date(app.platform->today());
  int due = 0, missed = 0;
  for (const auto& ex : p.exercises) {
    auto r = app.store.progress.review.find(ex.id);
    due += r != app.store.progress.review.end() && r->second.due_day <= today;
    auto e = app.store.progress.exercises.find(ex.id);
    missed += e != app.store.progress.exercises.end() && e->second.attempts() > 0 && !e->second.solved_at;
  }
  if (!due && !missed) return;
  std::string line;
  if (due) line = std::to_string(due) + " due for practice today";
  if (missed) line += (line.empty() ? "" : " · ") + std::to_string(missed) + " tried, not solved yet";
  ImGui::TextDisabled("%s", line.c_str());
  if (!due) return;
  same_line_if_fits("Practice##chapter-practice");
  if (small_button(app.ui, "Practice##chapter-practice")) app.screen = Screen::Practice;
  link_item("Practice", "#/practice");
}

// One chapter: its header with the mastery bar, and when open its intro and exercises.
// Returns whether an address named this chapter.
static bool chapter_section(App& app, const Pack* p, bool open_default, const std::string& last_id) {
  ChapterProgress cp = chapter_progress(app.store.progress, *p);
  std::string head = "Chapter " + std::to_string(p->chapter) + ": " + p->title + "   " + std::to_string(cp.solved) +
                     " of " + std::to_string(cp.total) + " solved###chapter-" + std::to_string(p->chapter);
  // An address naming a chapter (#/chapter/N) opens it and brings it to the top.
  bool focus = app.nav.focus_chapter == p->chapter;
  if (focus) ImGui::SetNextItemOpen(true);
  else ImGui::SetNextItemOpen(open_default, ImGuiCond_Once);
  bool open = ImGui::CollapsingHeader(head.c_str());
  chapter_access(*p, cp, open);
  if (ImGui::IsItemToggledOpen()) app.nav.course_chapter = open ? p->chapter : -1;
  // An open chapter drawn from the outline: its pack (with "About this chapter") comes first.
  if (open) app_request_pack(app, p->file);
  if (focus) {
    ImGui::SetScrollHereY(0.0f);
    // ImGui clamps the target to the last frame's height: hold it until the header is up.
    if (ImGui::GetItemRectMin().y - ImGui::GetWindowPos().y < em(app.ui) || ++app.nav.focus_frames > 5) {
      app.nav.focus_chapter = -1;
      app.nav.focus_frames = 0;
    }
  }
  // mastery bar under the header
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(a.x, b.y - 3), ImVec2(a.x + (b.x - a.x) * static_cast<float>(cp.mastery), b.y),
                                           color::correct());
  if (!open) return focus;
  ImGui::PushID(p->id.c_str());
  // "Chapter notes" from an exercise (#/chapter/N/notes): the notes open with the chapter, once
  // its pack (which holds them) is in.
  if (app.nav.focus_notes && app.nav.course_chapter == p->chapter && !p->intro.empty()) {
    ImGui::SetNextItemOpen(true);
    app.nav.focus_notes = false;
  }
  if (!p->intro.empty() && ImGui::TreeNodeEx("##intro", app.ui.coarse_pointer ? ImGuiTreeNodeFlags_FramePadding : 0, "About this chapter")) {
    pack_markdown(app, p->intro, pack_image_base(app, p->file, nullptr));
    ImGui::TreePop();
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "Mastery %.0f%% · attempted %d of %d", cp.mastery * 100, cp.attempted, cp.total);
  ImGui::TextDisabled("%s", buf);
  chapter_due_and_missed(app, *p);
  exercise_rows(app, *p, last_id);
  ImGui::PopID();
  ImGui::Spacing();
  return focus;
}

// The chapters in order; the one with the exercise last opened starts open (else the first).
static void chapter_list(App& app, const std::vector<MapPack>& course) {
  std::vector<const Pack*> packs;
  for (const auto& mp : course) packs.push_back(mp.pack);
  std::stable_sort(packs.begin(), packs.end(), [](const Pack* a, const Pack* b) { return a->chapter < b->chapter; });
  const std::string& last_id = app.store.progress.last_exercise;
  std::string last_pack;  // the pack of the exercise last opened: its chapter starts open
  for (const Pack* p : packs)
    for (const auto& ex : p->exercises)
      if (ex.id == last_id) last_pack = p->id;
  bool focus_seen = false;
  for (const Pack* p : packs) {
    bool open_default = !last_pack.empty() ? last_pack == p->id : p == packs.front();
    focus_seen |= chapter_section(app, p, open_default, last_id);
  }
  if (!focus_seen && app.load.library_ready) app.nav.focus_chapter = -1;  // no such chapter: the map from the top
  app.nav.return_focus.clear();  // (its row is drawn in the first frame back, or not at all: a closed chapter)
}

void draw_course_map(App& app) {
  course_heading(app);
  const std::vector<MapPack> course = map_packs(app);
  progress_summary(app, course);
  chapters_loading(app, course);
  preview_section(app, app.store.progress.last_exercise);
  continue_and_problems(app);
  ImGui::Spacing();
  chapter_list(app, course);
  if (course.empty() && app.load.library_ready) notice_box(app, color::wrong(), "No exercise pack could be loaded.");
  ImGui::Spacing();
  notice_box(app, color::muted(),
             "Writing exercises? Drop a pack file (.json) on this page, or add ?pack=URL to its address, to preview it "
             "here with its lint errors. docs/AUTHORING.md shows how.");
}

}  // namespace dtx::web
