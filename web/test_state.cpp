// The state the browser tests read after each frame (window.dtx.state in the page, through
// Platform::publish_state): the screen, the open exercise and its feedback, loading, previews,
// course mode, progress, and every item with its place. Tests wait on it instead of on
// pixels; nothing in the page reads it.
#include <nlohmann/json.hpp>

#include "app.h"
#include "imgui_internal.h"
#include "mistake_review.h"
#include "platform/test_hook.h"
#include "screens/screens.h"
#include "type_view.h"
#include "ui/keyboard.h"
#include "ui/theme.h"

namespace dtx::web {

namespace {

using Json = nlohmann::json;

// The screen, the display and the fonts.
void page_state(const App& app, Json& j) {
  j["frame"] = app.frame;
  j["screen"] = screen_name(app.screen);
  j["dpr"] = app.ui.dpr;
  j["busy"] = app_busy(app);
  j["theme"] = theme_is_dark() ? "dark" : "light";
  j["atlas_extra"] = atlas_extra_glyphs();  // code points added to the font atlas for the packs
  int missing = 0;  // ... that the atlas in use does not have yet (it is rebuilt at the next frame)
  if (app.font_files.complete() && app.ui.fonts.body)
    for (ImWchar c : atlas_extra_glyphs()) missing += app.ui.fonts.body->FindGlyphNoFallback(c) == nullptr;
  j["atlas_missing"] = missing;
  // glyphs the body font has in the atlas (a test checks that a failed font file leaves the
  // whole built-in font, not a stand-in of a few glyphs)
  j["body_glyphs"] = app.ui.fonts.body ? app.ui.fonts.body->Glyphs.Size : 0;
}

// The feedback of the last grade, as the page shows and speaks it.
void feedback_state(const Feedback& fb, Json& j) {
  j["verdict"] = verdict_name(fb.verdict);
  j["message"] = fb.message;
  Json parts = Json::array();
  for (const auto& p : fb.parts) parts.push_back({{"id", p.id}, {"verdict", verdict_name(p.verdict)}, {"message", p.message}});
  j["parts"] = parts;
  Json cases = Json::array();
  for (const auto& c : fb.cases) cases.push_back({{"pass", c.pass}, {"got", c.got}, {"message", c.message}, {"hidden", c.hidden}});
  j["cases"] = cases;
  j["details"] = fb.details;
  j["spoken"] = spoken_feedback(fb);  // the live region's words
}

// The open exercise: its instance, feedback, the fields as its view names them ("inputs",
// "picks", "order"...), hints and the worked solution.
void exercise_state(const App& app, Json& j) {
  if (app.screen != Screen::Exercise) return;
  j["exercise"] = app.ex.id;
  j["seed"] = app.ex.inst ? app.ex.inst->seed : 0;
  j["type"] = app.ex.exercise ? app.ex.exercise->type : "";
  j["title"] = app.ex.exercise ? app.ex.exercise->title : "";
  j["running"] = app.ex.code_request != 0;
  if (app.ex.feedback) feedback_state(*app.ex.feedback, j);
  else if (!app.ex.saved_note.empty()) j["saved"] = j["spoken"] = "Answer saved. " + app.ex.saved_note;  // exam mode
  j["graded"] = app.ex.graded;
  if (const TypeView* v = app.ex.exercise ? find_view(app.ex.exercise->type) : nullptr; v && app.ex.view)
    v->hook_state(app.ex, j);
  j["hints_shown"] = app.ex.hints_shown;
  j["explanation"] = app.ex.revealed;
  if (!app.widgets.ex_widget_error.empty()) j["widget_error"] = app.widgets.ex_widget_error;
  j["instructor"] = instructor_view(app);
  j["preview"] = preview_of(app, app.ex.exercise) != nullptr;
  j["report_address"] = app.ex.report_address;
}

// What the frame cost, and what it drew.
void frame_state(App& app, Json& j) {
  if (app.widgets.drawn_widget) {
    auto w = Json::parse(app.widgets.drawn_widget->state_json(), nullptr, false);
    j["widget"] = w.is_discarded() ? Json(app.widgets.drawn_widget->state_json()) : w;
  }
  j["frame_ms"] = app.stats.frame_cpu_ms;
  j["drawn"] = app.stats.frames_drawn;
  j["frame_parts_ms"] = {app.stats.frame_parts_ms[0], app.stats.frame_parts_ms[1], app.stats.frame_parts_ms[2]};
  j["layer_runs"] = app.stats.layer_runs;
  j["layer_ms"] = app.stats.layer_ms;
  j["images"] = app.images.state(app.ui.dpr);  // pictures in pack texts drawn in this frame
  if (const ImDrawData* dd = ImGui::GetDrawData()) {
    int cmds = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) cmds += dd->CmdLists[i]->CmdBuffer.Size;
    j["draw"] = {{"lists", dd->CmdListsCount}, {"cmds", cmds}, {"vtx", dd->TotalVtxCount}, {"idx", dd->TotalIdxCount}};
  }
}

// The keyboard: typing, the item being edited or held, and the one with the focus ring, each
// by its stable id (tests wait on them before typing; "" after pointer use).
void input_state(const HookFrame& hf, Json& j) {
  j["text_input"] = ImGui::GetIO().WantTextInput;
  std::string active;
  for (const auto& it : hf.items)
    if (it.id == GImGui->ActiveId) active = it.key;
  j["active"] = active;
  std::string focus;
  if (ImGuiID f = keyboard_focus_id())
    for (const auto& it : hf.items)
      if (it.id == f) focus = it.key;
  j["focus"] = focus;
}

// Packs: how many are in, which are on their way or (lazy loading) not asked for yet, the
// outline, reloads, and the packs dropped on the page or named by ?pack= (previews).
void packs_state(const App& app, Json& j) {
  j["packs"] = app.lib.packs.size();
  Json loading = Json::array();
  for (const auto& [id, file] : app.load.pending)
    if (file != "index.json") loading.push_back(file);
  if (!app.load.library_ready)
    for (const auto& f : app.load.index_files)
      if (!app.load.requested.count(f)) loading.push_back(f);
  j["loading"] = loading;
  j["outline"] = {{"used", packs_load_lazily(app)}, {"error", app.load.outline_error}, {"packs", app.load.outline.packs.size()},
                  {"requested", app.load.requested.size()}, {"prefetch", app.load.prefetch_started}};
  j["reloads"] = app.reloads;
  Json previews = Json::array();
  for (const auto& p : app.previews) {
    Json ids = Json::array(), errors = Json::array();
    if (p->result.pack)
      for (const auto& e : p->result.pack->exercises) ids.push_back(e.id);
    for (const auto& d : p->result.errors) errors.push_back(format_diagnostic(d));
    previews.push_back({{"source", p->source}, {"title", p->result.pack ? p->result.pack->title : ""},
                        {"exercises", ids}, {"errors", errors}, {"left_out", p->result.left_out()},
                        {"fetch_error", p->fetch_error}, {"loading", p->request != 0}});
  }
  j["previews"] = previews;
  Json probs = Json::array();
  for (const auto& p : app.load.problems) probs.push_back({{"file", p.file}, {"messages", p.messages}});
  j["problems"] = probs;
  j["notices"] = app.notices;
  {
    const PracticeSession& p = app.practice;
    Json outcomes = Json::array();
    for (const auto& o : p.outcomes) outcomes.push_back(o.done ? verdict_name(o.verdict) : "");
    j["practice"] = {{"due", practice_due_count(app)}, {"active", p.active}, {"finished", p.finished},
                     {"at", p.at}, {"items", p.items}, {"outcomes", outcomes}};
  }
  j["glossary"] = {{"terms", app.glossary.terms.entries.size()}, {"popover", app.glossary.popover},
                   {"selected", app.glossary.selected}};
  {
    Json groups = Json::array();
    for (const auto& g : group_mistakes(app.store.progress.mistakes)) groups.push_back({g.key, g.exercise, g.records.size()});
    j["mistakes"] = {{"count", app.store.progress.mistakes.size()}, {"groups", groups}};
  }
}

// Course mode: the assignment as read, the student, their own seed per exercise and how many
// attempts the log holds.
void course_state(const App& app, Json& j) {
  if (!app.course) return;
  const CourseAssignment& c = *app.course;
  Json seeds = Json::object();
  if (c.a && !c.student.empty())
    for (const auto& item : c.a->exercises)
      if (c.a->given(item, c.student)) seeds[item.id] = assignment_seed(*c.a, item, c.student);
  j["assignment"] = {{"id", c.a ? c.a->id : ""}, {"loading", c.request != 0}, {"error", c.fetch_error},
                     {"problems", c.problems}, {"student", c.student}, {"seeds", seeds},
                     {"attempts", c.log.attempts.size()}, {"attempts_left", assignment_attempts_left(app)}};
  if (c.lms)
    j["assignment"]["lms"] = {{"learner_id", c.lms->learner_id}, {"resumed", c.lms->resumed},
                              {"reported", c.lms->reported}, {"problem", c.lms->problem}};
}

// The records of the course's exercises (looked up from the course: a record of 100,000
// exercises no pack has costs this nothing each frame), and how many others are kept.
void progress_state(const App& app, Json& j) {
  Json progress = Json::object();
  size_t course_records = 0;
  for (const MapPack& mp : map_packs(app))
    for (const auto& ex : mp.pack->exercises)
      if (auto it = app.store.progress.exercises.find(ex.id); it != app.store.progress.exercises.end()) {
        const ExerciseProgress& e = it->second;
        progress[ex.id] = {{"attempts", e.attempts()}, {"best", e.best_score}, {"solved", e.solved_at != 0}};
        ++course_records;
      }
  j["progress"] = {{"exercises", progress},
                   {"other_records", app.store.progress.exercises.size() - std::min(course_records, app.store.progress.exercises.size())},
                   {"writer", app.store.writer_id},
                   {"saved", app.store.save_error.empty()}};
  j["import_message"] = app.import_message;
}

// Every item the hooks saw, by its stable id, with its label and place in CSS pixels.
void items_state(const App& app, const HookFrame& hf, Json& j) {
  Json items = Json::array();
  for (const auto& it : hf.items) {
    items.push_back({{"id", it.key}, {"label", it.label}, {"x", it.min.x / app.ui.dpr}, {"y", it.min.y / app.ui.dpr},
                     {"w", (it.max.x - it.min.x) / app.ui.dpr}, {"h", (it.max.y - it.min.y) / app.ui.dpr}});
    if (it.cut) items.back()["cut"] = true;
    if (it.partial) items.back()["partial"] = true;
  }
  j["items"] = items;
  j["id_clashes"] = hf.id_clashes;
}

}  // namespace

void app_after_frame(App& app) {
  ++app.frame;
  const HookFrame& hf = hook_frame();
  Json j;
  page_state(app, j);
  exercise_state(app, j);
  frame_state(app, j);
  input_state(hf, j);
  packs_state(app, j);
  course_state(app, j);
  progress_state(app, j);
  items_state(app, hf, j);
  app.platform->publish_state(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace dtx::web
