// One exercise: prompt, the type's answer view, submit, feedback, hints, worked explanation,
// "try another" for parameterised exercises, and the way back to the course map.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "report_link.h"
#include "maths.h"
#include "text.h"

#include "route.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/text_layer.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const char* verdict_title(Verdict v) {
  switch (v) {
    case Verdict::Correct: return "✓ Correct";
    case Verdict::Partial: return "Partly right";
    case Verdict::Incorrect: return "✗ Not yet";
    case Verdict::FormatError: return "Can't read that answer (not counted as an attempt)";
  }
  return "";
}

ImU32 verdict_color(Verdict v) {
  switch (v) {
    case Verdict::Correct: return color::correct();
    case Verdict::Partial: return color::partial();
    case Verdict::Incorrect: return color::wrong();
    case Verdict::FormatError: return color::partial();
  }
  return color::text();
}

// Neighbours in course order, for "previous" and "next"; in a preview, within the preview.
const Exercise* neighbour(App& app, const std::string& id, int dir) {
  std::vector<const Exercise*> all;
  std::vector<const Pack*> packs;
  if (const Preview* pv = preview_of(app, app.ex.exercise)) packs.push_back(&*pv->result.pack);
  else
    for (const auto& mp : map_packs(app)) packs.push_back(mp.pack);  // outline entries too: they open by id
  std::stable_sort(packs.begin(), packs.end(), [](const Pack* a, const Pack* b) { return a->chapter < b->chapter; });
  for (const Pack* p : packs)
    for (const auto& e : p->exercises) all.push_back(&e);
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i]->id == id) {
      long j = static_cast<long>(i) + dir;
      if (j >= 0 && j < static_cast<long>(all.size())) return all[j];
    }
  return nullptr;
}


// Whether the student sees the exercise's widget yet (its "reveal" setting): an instructor
// always does; a student once this screen has graded an attempt, or a right answer, or the
// exercise was solved before (another instance, another day: progress keeps solved_at).
bool widget_shown(const App& app, const Exercise& ex) {
  if (instructor_view(app)) return true;
  auto it = app.store.progress.exercises.find(ex.id);
  const bool solved_before = it != app.store.progress.exercises.end() && it->second.solved_at != 0;
  return widget_revealed(ex.widget->reveal, app.ex.attempted, app.ex.solved || solved_before);
}

// The exercise's widget, built for this instance (a new seed gets a new widget with the new
// numbers). The student may move its sliders; "Reset" goes back to the instance's values.
void draw_embedded_widget(App& app, const Exercise& ex, const Instance& inst) {
  if (!widget_shown(app, ex)) {
    // Held back: one muted line where it will be, and nothing built, drawn or published to
    // the test hook (a widget kept from before would still show its figures there).
    app.widgets.ex_widget.reset();
    app.widgets.ex_widget_for.clear();
    app.widgets.ex_widget_error.clear();
    std::string note = std::string("The ") + ex.widget->kind->title +
                       (ex.widget->reveal == WidgetReveal::AfterSolve ? " widget opens once you have solved this exercise."
                                                                      : " widget opens after your first attempt.");
    text_colored(color::muted(), note.c_str());
    ImGui::Spacing();
    return;
  }
  std::string key = ex.id + "|" + std::to_string(inst.seed);
  bool reset = false;
  if (app.widgets.ex_widget_for != key || !app.widgets.ex_widget) {
    app.widgets.ex_widget_for = key;
    reset = true;
  }
  ImGui::PushFont(app.ui.fonts.bold);
  ImGui::TextUnformatted(ex.widget->kind->title);
  ImGui::PopFont();
  ImGui::SameLine();
  if (small_button(app.ui, "Reset to this exercise's numbers##widget-reset")) reset = true;
  if (reset) {
    app.widgets.ex_widget_error.clear();
    app.widgets.ex_widget = make_widget(ex.widget->kind->kind);
    auto values = widget_values(inst, &app.widgets.ex_widget_error);
    if (app.widgets.ex_widget && values) app.widgets.ex_widget->set_inputs(*values);
  }
  if (!app.widgets.ex_widget) {
    text_colored(color::wrong(), "This widget is not available in this build.");
    return;
  }
  if (!app.widgets.ex_widget_error.empty()) text_colored(color::wrong(), ("Widget input: " + app.widgets.ex_widget_error).c_str());
  ImGui::PushID("widget");
  const ImVec2 top = ImGui::GetCursorScreenPos();
  app.widgets.widget_animating |= app.widgets.ex_widget->draw(app.ui, app.stats.frame_dt);
  text_layer_description(app.widgets.ex_widget->describe(),
                         ImRect(top, ImVec2(top.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y)));
  ImGui::PopID();
  app.widgets.drawn_widget = app.widgets.ex_widget.get();
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
}

// For authors: the instance's numbers and answers, its seed, and the next seed one click
// away, so several instances can be checked in a row. Off by default, on in a preview.
// The box is drawn behind the group once its size is known (1.86 children cannot size
// themselves to their content).
void instructor_panel(App& app, const Exercise& ex, const Instance& inst) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float pad = em(app.ui) * 0.4f;
  dl->ChannelsSplit(2);
  dl->ChannelsSetCurrent(1);
  ImGui::Dummy(ImVec2(0, pad));
  ImGui::Indent(pad);
  ImGui::BeginGroup();
  const float wrap_x = ImGui::GetCursorPosX() + app.content_width - em(app.ui) * 1.5f;  // the panel's right edge
  bool next = false;
  ImGui::Text("Seed %llu", static_cast<unsigned long long>(inst.seed));
  ImGui::SameLine();
  if (small_button(app.ui, "Next seed →##next-seed")) next = true;
  ImGui::SameLine();
  // The same instance from the command line, ready to paste (a preview's pack is named by
  // its path, fetched from its URL first, or is the file dropped).
  const Preview* pv = preview_of(app, &ex);
  ShowCommand cmd = show_command(ex.id, inst.seed, pv ? pv->source : "", pv && pv->from_url);
  std::string line = cmd.command + (cmd.note.empty() ? "" : "  " + cmd.note);
  // Beside the button when it fits, else on a line of its own, wrapped (a long URL).
  if (ImGui::CalcTextSize(line.c_str()).x > wrap_x - ImGui::GetCursorPosX()) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(wrap_x);
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::PushFont(app.ui.fonts.mono);
  if (!inst.values.empty()) {
    std::string vals;  // parameters, then derived values, in declaration order
    for (const auto& [name, v] : inst.values) vals += (vals.empty() ? "" : ",  ") + name + " = " + format_number(v, 6);
    ImGui::PushTextWrapPos(wrap_x);
    ImGui::TextUnformatted(vals.c_str());
    ImGui::PopTextWrapPos();
  }
  for (const auto& line : instance_answer_lines(inst)) ImGui::TextUnformatted(line.c_str());
  ImGui::PopFont();
  ImGui::EndGroup();
  ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
  ImGui::Unindent(pad);
  ImGui::Dummy(ImVec2(0, pad));
  dl->ChannelsSetCurrent(0);
  dl->AddRectFilled(ImVec2(a.x - pad, a.y - pad), ImVec2(std::max(z.x, a.x + app.content_width - 2 * pad) + pad, z.y + pad),
                    color::preview(), 4);
  dl->ChannelsMerge();
  // After the panel is complete: the new instance replaces the one drawn here.
  if (next) open_exercise(app, ex.id, inst.seed + 1);
}

void feedback_box(App& app, const Feedback& fb) {
  ImGui::Spacing();
  ImGui::PushFont(app.ui.fonts.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, verdict_color(fb.verdict));
  heading_text(verdict_title(fb.verdict), 2);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  // An unreadable answer's message quotes what the student typed ("$5", "2*3"): plain text,
  // or a typed $ would open maths.
  if (!fb.message.empty()) {
    if (fb.verdict == Verdict::FormatError) text_colored(color::text(), fb.message.c_str());
    else markdown(app, fb.message);
  }
  // Numeric parts show their own verdicts beside their fields; other types list them here.
  if (fb.parts.empty())
    for (const auto& d : fb.details) markdown(app, d);
}

// Exam mode: the attempt was saved; no verdict.
void saved_box(App& app, const std::string& note) {
  ImGui::Spacing();
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text("Answer saved", 2);
  ImGui::PopFont();
  ImGui::TextWrapped("%s", note.c_str());
}

// Shortcuts (listed in Settings), except while a field is being typed in: Escape back to
// the course (a row a view holds by the keys, in an ordering, is put down first), h the next hint, n the
// next exercise. Enter and Ctrl+Enter submit (ui/keyboard sets submit_requested).
// True when a shortcut left this exercise.
bool handle_shortcuts(App& app, ExerciseState& st, const Exercise& ex) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput && !io.KeyCtrl && !io.KeyAlt && !io.KeySuper) {
    const TypeView* v = find_view(ex.type);
    // (a term's popover open: Escape closes it, not the exercise)
    const bool view_holds_escape =
        (v && v->holds_escape && st.view && v->holds_escape(st)) || !app.glossary.popover.empty();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) && !view_holds_escape) {
      app.screen = Screen::CourseMap;
      return true;
    }
    const bool letters = app.settings.single_key_shortcuts;
    if (letters && ImGui::IsKeyPressed('H', false) && st.inst && st.hints_shown < static_cast<int>(ex.hints.size())) st.hints_shown++;
    if (letters && ImGui::IsKeyPressed('N', false)) {
      if (const Exercise* next = neighbour(app, ex.id, +1)) {
        open_exercise(app, next->id, 0);
        return true;
      }
    }
  }
  return false;
}

// The way back to the course map; true when it was taken.
bool back_to_course(App& app) {
  const bool back = small_button(app.ui, "← Course##back");
  link_item("Back to the course map", "#/");
  if (back) {
    app.screen = Screen::CourseMap;
    return true;
  }
  return false;
}

// The instructor switch exists in a preview and with `?instructor` in the address only.
void instructor_switch(App& app, const Preview* pv) {
  if (pv || app.instructor_allowed) {
    ImGui::SameLine();
    bool on = instructor_view(app);
    if (app.ui.coarse_pointer) {
      // A finger-sized toggle (a 44 px check box would dwarf everything near it).
      if (button(on ? "✓ Instructor##instructor" : "Instructor##instructor", on)) app.instructor = on ? 0 : 1;
    } else {
      // As tall as the small "Course" button beside it.
      ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0));
      if (ImGui::Checkbox("Instructor##instructor", &on)) app.instructor = on ? 1 : 0;
      ImGui::PopStyleVar();
    }
  }
}

// Where the exercise is (chapter or preview, type, difficulty), its title and the student's
// record on it.
// The course pack that holds an exercise, and where in it ("3 of 16"); null in a preview.
struct ChapterPlace {
  const Pack* pack = nullptr;
  int index = 0, count = 0;  // 1-based
};
ChapterPlace chapter_place(const App& app, const Exercise& ex) {
  for (const Pack& p : app.lib.packs)
    for (size_t i = 0; i < p.exercises.size(); ++i)
      if (&p.exercises[i] == &ex) return {&p, static_cast<int>(i) + 1, static_cast<int>(p.exercises.size())};
  return {};
}

// The way to the chapter's notes ("About this chapter", #/chapter/N/notes), or to the chapter
// on the map when it has none: one step from any exercise. True when it was taken.
bool chapter_notes_link(App& app, const ChapterPlace& at) {
  if (!at.pack) return false;
  Route r;
  r.kind = Route::Course;
  r.chapter = at.pack->chapter;
  r.notes = !at.pack->intro.empty();
  const std::string label = r.notes ? "Chapter notes" : "Chapter " + std::to_string(r.chapter) + " on the map";
  same_line_if_fits((label + "##chapter-notes").c_str());
  const bool go = small_button(app.ui, (label + "##chapter-notes").c_str());
  link_item(label, format_route(r));
  if (!go) return false;
  app.screen = Screen::CourseMap;
  app.nav.course_chapter = app.nav.focus_chapter = r.chapter;
  app.nav.focus_notes = r.notes;
  app.nav.focus_frames = 0;
  return true;
}

// True when the student left for the chapter's notes.
bool exercise_header(App& app, const Exercise& ex, const Preview* pv) {
  char where[600];
  const ChapterPlace at = pv ? ChapterPlace{} : chapter_place(app, ex);
  if (pv)
    std::snprintf(where, sizeof where, "PREVIEW (%s) · %s · difficulty %d", pv->source.c_str(), ex.type.c_str(), ex.difficulty);
  else if (at.pack)
    std::snprintf(where, sizeof where, "Chapter %d · exercise %d of %d · %s · difficulty %d", ex.chapter, at.index, at.count,
                  ex.type.c_str(), ex.difficulty);
  else
    std::snprintf(where, sizeof where, "Chapter %d · %s · difficulty %d", ex.chapter, ex.type.c_str(), ex.difficulty);
  // Beside the buttons when it fits (a phone gets it on its own line).
  ImGui::SameLine();
  if (ImGui::CalcTextSize(where).x > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", where);
  ImGui::PopStyleColor();
  if (chapter_notes_link(app, at)) return true;
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text(ex.title, 1, ImGui::GetContentRegionAvail().x);
  ImGui::PopFont();
  auto pit = app.store.progress.exercises.find(ex.id);
  if (pit != app.store.progress.exercises.end()) {
    const ExerciseProgress& ep = pit->second;
    ImGui::TextDisabled("%d attempt%s · best %.0f%%%s", ep.attempts(), ep.attempts() == 1 ? "" : "s",
                        ep.best_score * 100, ep.solved_at ? " · solved" : "");
  }
  return false;
}

// Submit, "Try another" and the next hint, and the sandbox's progress while code runs.
// True when "Try another" opened another instance.
bool answer_buttons(App& app, ExerciseState& st, const Exercise& ex, const Instance& inst) {
  bool running = st.code_request != 0;
  // An assignment's attempt limit: once used up on the student's own numbers, nothing more
  // is graded here (practice on other numbers stays open).
  const bool used_up = assignment_attempts_left(app) == 0;
  if (app.submit_requested && !running && !used_up) submit(app);
  app.submit_requested = false;
  if (running || used_up) ImGui::BeginDisabled();
  if (button(running ? "Running…##submit" : used_up ? "No attempts left##submit" : "Submit##submit", true)) submit(app);
  if (running || used_up) ImGui::EndDisabled();
  if (!ex.params.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Try another##try-another")) {
      open_exercise(app, ex.id, fresh_seed(app, inst.seed));
      return true;
    }
  }
  if (!ex.hints.empty() && st.hints_shown < static_cast<int>(ex.hints.size())) {
    ImGui::SameLine();
    char hb[64];
    std::snprintf(hb, sizeof hb, "Hint %d of %zu##hint", st.hints_shown + 1, ex.hints.size());
    if (ImGui::Button(hb)) st.hints_shown++;
  }
  if (running) {
    double secs = (app.platform->now_ms() - st.code_started_ms) / 1000.0;
    ImGui::TextDisabled("Running your code in a sandbox… %.1f s (stopped after 2 s)", secs);
  }
  return false;
}

// Which numbers these are, and a link that opens exactly them (for a classmate, a forum
// post, an instructor).
void instance_link(App& app, const Exercise& ex, const Instance& inst) {
  if (inst.seed == 0) ImGui::TextDisabled("The default numbers");
  else ImGui::TextDisabled("Numbers of instance %llu", static_cast<unsigned long long>(inst.seed));
  same_line_if_fits("Copy link##copy-link");
  if (small_button(app.ui, "Copy link##copy-link")) {
    Route r;
    r.kind = Route::Exercise;
    r.id = ex.id;
    r.seed = inst.seed;
    app.nav.link_copied = app.platform->link_to(format_route(r));
    ImGui::SetClipboardText(app.nav.link_copied.c_str());
    app.nav.link_copied_ms = app.platform->now_ms();
  }
  if (app.nav.link_copied_ms >= 0 && app.platform->now_ms() - app.nav.link_copied_ms < 4000) {
    text_colored(color::muted(), ("Copied " + app.nav.link_copied).c_str());
  } else if (app.nav.link_copied_ms >= 0) {
    app.nav.link_copied_ms = -1;
  }
}

// "Report a problem": a link to the site's destination (index.json "report") with the
// exercise, its numbers, the answer and the build filled in; none until the site sets one.
// The address is worked out when the link is drawn, so a middle-click on its text opens the
// same report as a click.
void report_link(App& app, ExerciseState& st, const Exercise& ex, const Instance& inst) {
  if (app.load.report_destination.empty() || preview_of(app, &ex)) return;
  Route r;
  r.kind = Route::Exercise;
  r.id = ex.id;
  r.seed = inst.seed;
  ReportFields f{ex.id, ex.title, static_cast<unsigned long long>(inst.seed), app.platform->link_to(format_route(r)),
                 st.last_answer, app.platform->build_version()};
  st.report_address = report_address(app.load.report_destination, f);
  if (small_button(app.ui, "Report a problem with this exercise##report")) app.platform->open_url(st.report_address);
  link_item("Report a problem with this exercise", st.report_address);
}

void shown_hints(App& app, const ExerciseState& st, const Exercise& ex, const Instance& inst) {
  for (int i = 0; i < st.hints_shown && i < static_cast<int>(ex.hints.size()); ++i) {
    ImGui::Spacing();
    ImGui::PushFont(app.ui.fonts.bold);
    heading_text("Hint " + std::to_string(i + 1), 2);
    ImGui::PopFont();
    markdown(app, inst.render(ex.hints[i]));
  }
}

// Text shown as written inside Markdown: its punctuation escaped.
std::string markdown_literal(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::strchr("\\`*_[]<>#|$~", c)) out += '\\';
    out += c;
  }
  return out;
}

// The engine's own arithmetic under the author's prose: each keyed number's expression with
// this instance's values (engine/derivation.h), so the worked solution can be checked by hand.
void derivations(App& app, const Exercise& ex, const Instance& inst) {
  auto list = ex.spec ? ex.spec->derivations(ex, inst) : std::vector<std::pair<std::string, std::string>>{};
  if (list.empty()) return;
  ImGui::Spacing();
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text("How each number comes out", 3);
  ImGui::PopFont();
  std::string md;
  for (const auto& [label, lines] : list) {
    md += "**" + markdown_literal(markdown_math_to_plain(label)) + "**\n\n";
    for (size_t a = 0, b; a <= lines.size(); a = b + 1) {
      b = std::min(lines.find('\n', a), lines.size());
      md += "- " + markdown_literal(superscript_power(lines.substr(a, b - a))) + "\n";
    }
    md += "\n";
  }
  markdown(app, md);
}

void worked_solution(App& app, ExerciseState& st, const Exercise& ex, const Instance& inst) {
  if (st.feedback && st.feedback->counts_as_attempt() && !ex.explanation.empty() &&
      assignment_allows_explanation(app, st.feedback->verdict == Verdict::Correct)) {
    ImGui::Spacing();
    if (!st.revealed) {
      if (ImGui::Button("Show the worked solution##explain")) st.revealed = true;
    } else {
      ImGui::Separator();
      ImGui::PushFont(app.ui.fonts.bold);
      heading_text("Worked solution", 2);
      ImGui::PopFont();
      markdown(app, inst.render(ex.explanation));
      derivations(app, ex, inst);
    }
  }
}

// A neighbour to open: the exercise and the seed it opens at.
struct Neighbour {
  const Exercise* ex = nullptr;
  uint64_t seed = 0;
};

// In the student's assignment, its exercises in its order at their own numbers; elsewhere the
// course's order at the default numbers.
Neighbour neighbour_of(App& app, const std::string& id, int dir) {
  if (auto place = assignment_place(app, id)) {
    const AssignmentItem* item = dir < 0 ? place->prev : place->next;
    if (!item) return {};
    return {find_exercise(app, item->id), assignment_own_seed(app, *item)};
  }
  return {neighbour(app, id, dir), 0};
}

std::string address_of(const Neighbour& n) {
  Route r;
  r.kind = Route::Exercise;
  r.id = n.ex->id;
  r.seed = n.seed;
  return format_route(r);
}

// "Previous" and "Next" (in an assignment, through its exercises), each also a link for the
// accessibility tree.
void previous_next(App& app, const Exercise& ex) {
  ImGui::Spacing();
  ImGui::Separator();
  const Neighbour prev = neighbour_of(app, ex.id, -1);
  if (prev.ex && ImGui::Button("← Previous##prev")) {
    open_exercise(app, prev.ex->id, prev.seed);
    return;
  }
  if (prev.ex) link_item("Previous: " + prev.ex->title, address_of(prev));
  const Neighbour nb = neighbour_of(app, ex.id, +1);
  if (const Exercise* next = nb.ex) {
    // "Next: <title> →" beside "Previous" when it fits, under it when not, and without the
    // title when even a line of its own is too narrow (a phone).
    std::string label = "Next: " + next->title + " →##next";
    const float pad = ImGui::GetStyle().FramePadding.x * 2;
    if (ImGui::CalcTextSize(label.c_str(), nullptr, true).x + pad > ImGui::GetContentRegionAvail().x) label = "Next exercise →##next";
    if (prev.ex) same_line_if_room(ImGui::CalcTextSize(label.c_str(), nullptr, true).x + pad);
    if (ImGui::Button(label.c_str())) {
      open_exercise(app, next->id, nb.seed);
      return;
    }
    link_item("Next: " + next->title, address_of(nb));
  } else if (assignment_place(app, ex.id)) {
    // The assignment's last exercise: the way back, where Next would be.
    if (prev.ex) same_line_if_room(ImGui::CalcTextSize("Back to the assignment").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::Button("Back to the assignment##assignment-end")) app.screen = Screen::Assignment;
  }
}

}  // namespace

uint64_t fresh_seed(App& app, uint64_t current) {
  uint64_t s = static_cast<uint64_t>(app.platform->now_ms() * 1000.0) ^ (current * 0x9E3779B97F4A7C15ull);
  s = (s ^ (s >> 31)) % 1000000 + 1;  // short enough to read out and type into the CLI
  return s == current ? s + 1 : s;
}

void draw_exercise_screen(App& app) {
  ExerciseState& st = app.ex;
  if (!st.exercise) {
    app.screen = Screen::CourseMap;
    return;
  }
  const Exercise& ex = *st.exercise;
  if (handle_shortcuts(app, st, ex)) return;
  if (back_to_course(app)) return;
  const Preview* pv = preview_of(app, &ex);
  instructor_switch(app, pv);
  if (exercise_header(app, ex, pv)) return;
  draw_assignment_banner(app);
  draw_practice_banner(app);
  // Saves happen here (after each answer): a failed one is said where the student is.
  if (!app.store.save_error.empty()) text_colored(color::wrong(), app.store.save_error.c_str());
  if (!st.inst) {
    text_colored(color::wrong(), ("This exercise could not be set up: " + st.instance_error).c_str());
    return;
  }
  const Instance& inst = *st.inst;
  if (instructor_view(app)) {
    uint64_t seed = inst.seed;
    instructor_panel(app, ex, inst);
    if (!st.inst || st.inst->seed != seed) return;  // "next seed" opened another instance
  }
  ImGui::Spacing();
  prompt_markdown(app, inst.render(ex.prompt));
  draw_term_popover(app);
  ImGui::Spacing();
  if (ex.widget) draw_embedded_widget(app, ex, inst);

  const TypeView* view = find_view(ex.type);
  if (!view || !st.view) {
    text_colored(color::wrong(), ("No view for exercise type " + ex.type).c_str());
    return;
  }
  view->draw(app, st);
  ImGui::Spacing();

  if (answer_buttons(app, st, ex, inst)) return;
  instance_link(app, ex, inst);
  shown_hints(app, st, ex, inst);
  if (st.feedback) feedback_box(app, *st.feedback);
  else if (!st.saved_note.empty()) saved_box(app, st.saved_note);
  worked_solution(app, st, ex, inst);
  report_link(app, st, ex, inst);
  previous_next(app, ex);
}

}  // namespace dtx::web
