#include "app.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "text.h"
#include "imgui_internal.h"
#include "platform/test_hook.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "screens/screens.h"
#include "type_view.h"
#include "app_internal.h"

namespace dtx::web {

const char* screen_name(Screen s) {
  switch (s) {
    case Screen::Loading: return "loading";
    case Screen::CourseMap: return "course";
    case Screen::Exercise: return "exercise";
    case Screen::Settings: return "settings";
    case Screen::Assignment: return "assignment";
    case Screen::Lab: return "lab";
    case Screen::NotFound: return "not-found";
    case Screen::Search: return "search";
    case Screen::Practice: return "practice";
    case Screen::Glossary: return "glossary";
    case Screen::Review: return "review";
  }
  return "?";
}

void app_apply_theme(App& app) {
  bool dark = app.settings.theme_choice == 2 || (app.settings.theme_choice == 0 && app.settings.system_dark);
  if (dark == theme_is_dark()) return;
  apply_theme(dark);
  app_apply_style(app);
}

void app_init(App& app, Platform* platform) {
  app.platform = platform;
  app.images.set_platform(platform);
  if (auto t = platform->storage_get("dtx.theme")) app.settings.theme_choice = *t == "light" ? 1 : *t == "dark" ? 2 : 0;
  if (auto k = platform->storage_get("dtx.single-key-shortcuts")) app.settings.single_key_shortcuts = *k != "off";
  app_apply_theme(app);
  app.store.start(platform);
  request_start_files(app);
}

bool app_busy(const App& app) {
  return !app.load.library_ready || !app.font_requests.empty() || app.ex.code_request != 0 || app.fonts_dirty ||
         app.widgets.widget_animating || app.nav.scroll_restore.has_value() || app.nav.focus_chapter >= 0 ||
         // A newly opened exercise is held at its top for a few frames: they are drawn now, not at
         // the next input, or a phone's first tap lands on the layout before it settles.
         app.nav.top_frames > 0 ||
         app.nav.link_copied_ms >= 0;  // the "Copied" note goes after 4 s
}

std::string last_component(const std::string& url) {
  std::string u = url.substr(0, url.find_first_of("?#"));
  size_t slash = u.find_last_of('/');
  return slash == std::string::npos ? u : u.substr(slash + 1);
}

const Exercise* find_exercise(const App& app, const std::string& id) {
  for (const auto& p : app.previews)
    if (p->result.pack)
      for (const auto& e : p->result.pack->exercises)
        if (e.id == id) return &e;
  return app.lib.find(id);
}

const Preview* preview_of(const App& app, const Exercise* ex) {
  if (!ex) return nullptr;
  for (const auto& p : app.previews)
    if (p->result.pack)
      for (const auto& e : p->result.pack->exercises)
        if (&e == ex) return p.get();
  return nullptr;
}

bool instructor_view(const App& app) {
  // Outside a preview only with `?instructor` in the address: a student on a published
  // exercise has no switch that shows its answers.
  const bool preview = preview_of(app, app.ex.exercise) != nullptr;
  if (!preview && !app.instructor_allowed) return false;
  if (app.instructor >= 0) return app.instructor == 1;
  return preview;
}

void open_exercise(App& app, const std::string& id, uint64_t seed) {
  const Exercise* ex = find_exercise(app, id);
  if (!ex && packs_load_lazily(app) && !app.load.library_ready && !outline_file_of(app, id).empty()) {
    // Listed by the outline, its pack not in yet: it opens when the pack arrives.
    Route r;
    r.kind = Route::Exercise;
    r.id = id;
    r.seed = seed;
    app.nav.route_pending = r;
    request_pack_of(app, id);
    return;
  }
  if (!ex) return;
  ExerciseState st;
  st.id = id;
  st.exercise = ex;
  std::string err;
  st.inst = make_instance(*ex, seed, &err);
  st.instance_error = err;
  st.focus_first = true;
  st.answering_since_ms = app.platform->now_ms();
  app.ex = std::move(st);
  if (app.ex.inst)
    if (const TypeView* v = find_view(ex->type)) app.ex.view = v->fresh(app, app.ex);
  app.screen = Screen::Exercise;
  app.store.opened(id);
}

bool app_first_view_answer(App& app, const std::string& id, const std::vector<std::string>& words, bool submit_it,
                           std::string* error) {
  ExerciseState& st = app.ex;
  if (app.screen != Screen::Exercise || st.id != id || !st.exercise || !st.inst || st.inst->seed != 0 || !st.view) {
    if (error) *error = "the exercise " + id + " is not open at its default numbers";
    return false;
  }
  const TypeView* v = find_view(st.exercise->type);
  std::string err;
  auto a = st.exercise->spec->parse_answer(*st.exercise, *st.inst, words, &err);
  // A field being edited keeps its own copy of the text (ImGui's InputText state) and would
  // write it back over the answer: the first field has the keyboard when an exercise opens.
  if (a && ImGui::GetCurrentContext()) ImGui::ClearActiveID();
  if (!a || !v || !v->set_answer(app, st, *a)) {
    if (error) *error = err.empty() ? "the view cannot show this answer" : err;
    return false;
  }
  if (submit_it) app.submit_requested = true;
  return true;
}

// The answer as `dtx grade` words, with its verdict unless exam mode keeps verdicts back.
static std::string answer_for_report(const ExerciseState& st, const Answer& answer, const Feedback& fb, bool exam) {
  std::string words;
  for (const auto& w : st.exercise->spec->answer_words(*st.exercise, *st.inst, answer))
    words += (words.empty() ? "" : "  ") + w;
  if (exam) return words;
  const char* v = fb.verdict == Verdict::Correct       ? "right"
                  : fb.verdict == Verdict::Partial     ? "partly right"
                  : fb.verdict == Verdict::FormatError ? "could not be read"
                                                       : "not right";
  return words + " (graded: " + v + ")";
}

static void record(App& app, const Answer& answer, const Feedback& fb) {
  ExerciseState& st = app.ex;
  st.graded++;
  st.saved_note.clear();
  st.last_answer = answer_for_report(st, answer, fb, fb.counts_as_attempt() && assignment_hides_verdicts(app));
  if (fb.counts_as_attempt() && assignment_hides_verdicts(app)) {
    // Exam mode: the attempt is kept with its verdict for the record; the student sees that it
    // was saved, and nothing that tells right from wrong (no verdict, no solve, no progress mark).
    assignment_record(app, answer, fb);
    st.feedback.reset();
    st.attempted = true;
    st.saved_note = "Verdicts and worked solutions open after the due date; you can change your answer until then "
                    "(each saved answer is an attempt).";
    return;
  }
  st.feedback = fb;
  if (fb.counts_as_attempt()) {
    // In an assignment the attempt also goes into the student's submission log.
    assignment_record(app, answer, fb);
    st.attempted = true;  // kept when a later answer cannot be read (a widget stays open)
    st.solved |= fb.verdict == Verdict::Correct;
    app.store.record(st.id, st.inst->seed, fb);
    practice_on_graded(app, fb);
    if (fb.verdict == Verdict::Correct) st.revealed = true;
  }
}

void submit(App& app) {
  ExerciseState& st = app.ex;
  if (!st.inst || st.code_request) return;
  // A key press reaches a field (EnterReturnsTrue) and the page's shortcut (Ctrl+Enter) in
  // the same frame: it submits once.
  if (app.submitted_frame == app.frame) return;
  app.submitted_frame = app.frame;
  const TypeView* v = find_view(st.exercise->type);
  if (!v || !st.view) return;
  Answer a;
  if (!v->answer(app, st, a)) return;  // asynchronous (code)
  record(app, a, grade(*st.inst, a));
}

void app_on_code_result(App& app, int request_id, const std::string& json) {
  ExerciseState& st = app.ex;
  if (request_id != st.code_request || !st.inst) return;  // a stale run (student moved on)
  st.code_request = 0;
  const TypeView* v = find_view(st.exercise->type);
  Answer a;
  if (v && v->ran && v->ran(st, json, a)) record(app, a, grade(*st.inst, a));
}

void app_on_file(App& app, const std::string& name, const std::string& text) {
  app.import_message = app.store.import_file(name, text);
}

// ------------------------------------------------------------------ shared helpers

void app_apply_style(App& app) { apply_style(app.ui.dpr * app.settings.text_scale, touch_target(app.ui)); }

std::optional<std::string> pack_image_base(const App& app, const std::string& pack_file, const Preview* preview) {
  if (preview) return preview->from_url ? std::optional<std::string>(preview->source) : std::nullopt;
  return app.base_url + pack_file;
}

MdStyle md_style(App& app) {
  MdStyle s;
  s.fonts = &app.ui.fonts;
  Platform* p = app.platform;
  s.open_link = [p](const std::string& url) { p->open_url(url); };
  s.images = &app.images;
  s.dpr = app.ui.dpr;
  const Exercise* ex = app.screen == Screen::Exercise ? app.ex.exercise : nullptr;
  s.image_base = ex ? pack_image_base(app, ex->file, preview_of(app, ex)) : std::optional<std::string>(app.base_url);
  return s;
}

void markdown(App& app, const std::string& text) { draw_markdown(text, md_style(app)); }

// A prompt: its terms' first uses are linked to the glossary (a popover on a click or tap).
void prompt_markdown(App& app, const std::string& text) {
  MdStyle s = md_style(app);
  const Glossary& g = course_glossary(app);
  if (!g.empty()) {
    s.glossary = &g;
    s.open_term = [&app](const GlossaryEntry& e, ImRect word) { open_term_popover(app, e, word); };
  }
  draw_markdown(text, s);
}

void pack_markdown(App& app, const std::string& text, const std::optional<std::string>& image_base) {
  MdStyle s = md_style(app);
  s.image_base = image_base;
  draw_markdown(text, s);
}

// ------------------------------------------------------------------ the frame

static void top_bar(App& app) {
  ImGuiStyle& s = ImGui::GetStyle();
  ImGui::PushFont(app.ui.fonts.heading);
  ImGui::TextUnformatted("dtx");
  ImGui::PopFont();
  ImGui::SameLine();
  float right_w = 0;
  const char* course = "Course";
  const char* settings = "Settings";
  const char* lab = "Lab";
  const char* find = "Search";
  right_w = ImGui::CalcTextSize(course).x + ImGui::CalcTextSize(lab).x + ImGui::CalcTextSize(settings).x +
            ImGui::CalcTextSize(find).x + s.FramePadding.x * 8 + s.ItemSpacing.x * 3;
  int streak = current_streak(app.store.progress, app.platform->today());
  char buf[96];
  std::snprintf(buf, sizeof buf, "streak %d day%s", streak, streak == 1 ? "" : "s");
  float streak_w = ImGui::CalcTextSize(buf).x + s.ItemSpacing.x;
  float avail = ImGui::GetContentRegionAvail().x;
  if (avail > right_w + streak_w + em(app.ui) * 2) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - right_w - streak_w);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", buf);
    ImGui::SameLine();
  } else if (avail >= right_w) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - right_w);
  } else {
    ImGui::NewLine();  // a narrow phone: the buttons on a row of their own, under the name
  }
  if (touch_button(app.ui, "Course##nav-course")) app.screen = Screen::CourseMap;
  ImGui::SameLine();
  if (touch_button(app.ui, "Lab##nav-lab")) app.screen = Screen::Lab;
  ImGui::SameLine();
  if (touch_button(app.ui, "Search##nav-search")) open_search(app, app.search.input, true);
  ImGui::SameLine();
  if (touch_button(app.ui, "Settings##nav-settings")) app.screen = Screen::Settings;
  ImGui::Separator();
}

// Per-frame bookkeeping before anything is drawn: another tab's progress, the widgets' clock
// (after an idle pause the first frame must not jump), a field let go of.
static void begin_frame(App& app) {
  app.store.take_in_other_tabs();
  double now = app.platform->now_ms();
  app.stats.frame_dt = app.stats.last_frame_ms > 0 ? std::clamp((now - app.stats.last_frame_ms) / 1000.0, 0.0, 0.1) : 0.0;
  app.stats.last_frame_ms = now;
  app.widgets.widget_animating = false;
  app.widgets.drawn_widget = nullptr;
  app.images.begin_frame(app.frame);
  if (app.release_field) {
    app.release_field = false;
    ImGui::ClearActiveID();
  }
}

// Where the page is scrolled. A new screen, exercise or instance starts at its top, not where
// the last one was scrolled; Back and Forward return to where that screen was scrolled (the
// target is set again for a few frames: ImGui clamps it to the previous frame's content
// height, which on the first frame of a new screen is the old screen's).
static void scroll_page(App& app) {
  std::string place = std::string(screen_name(app.screen)) + "|" + app.ex.id + "|" +
                      std::to_string(app.ex.inst ? app.ex.inst->seed : 0);
  if (place != app.last_place) {
    // Back on the map from an exercise: the keyboard's focus returns to that exercise's row.
    if (app.screen == Screen::CourseMap && app.last_place.rfind("exercise|", 0) == 0 && keyboard_focus_id() != 0)
      app.nav.return_focus = app.last_place.substr(9, app.last_place.find('|', 9) - 9);
    app.last_place = place;
    app.nav.scroll_frames = app.nav.scroll_restore ? 4 : 0;
    app.nav.scroll_wait = 0;
    if (!app.nav.scroll_restore) ImGui::SetScrollY(0.0f);
    app.nav.top_frames = !app.nav.scroll_restore && app.screen == Screen::Exercise ? 3 : 0;
  }
  // (Not on the loading screen: a reloaded page's exercise or map is restored once it is up,
  // and held while the content is still shorter than the place, as packs arrive.)
  if (app.nav.scroll_restore && app.screen != Screen::Loading) {
    const bool short_yet = ImGui::GetScrollMaxY() + 1 < *app.nav.scroll_restore && ++app.nav.scroll_wait < 120;
    if (app.nav.scroll_frames > 0 || short_yet) {
      ImGui::SetScrollY(*app.nav.scroll_restore);
      if (!short_yet) --app.nav.scroll_frames;
    } else {
      app.nav.scroll_restore.reset();
    }
  }
  if (app.nav.scroll_request) {
    ImGui::SetScrollY(*app.nav.scroll_request);
    app.nav.scroll_request.reset();
  }
}

// The page's column: centred and at most ~50 em wide so lines stay readable on wide screens,
// the full width on a phone. Returns the margin left of it.
static float page_column(App& app) {
  // In 1.86 a child without padding reports its scrollbar's width as content region: stop
  // before the scrollbar (with a small gap), or on a phone the right edge of every line is
  // drawn under it and clipped.
  ImGuiWindow* page = ImGui::GetCurrentWindow();
  float full = ImGui::GetContentRegionAvail().x;
  if (page->ScrollbarY)
    full = std::min(full, page->InnerRect.Max.x - ImGui::GetCursorScreenPos().x - em(app.ui) * 0.5f);
  float width = std::min(full, em(app.ui) * 50);
  float margin = (full - width) * 0.5f;
  app.content_width = width;
  // Full-width widgets (collapsing headers, selectables, tables) end at the column's right
  // edge, not the window's: narrow the window's work rectangle to the column.
  page->WorkRect.Max.x = page->WorkRect.Min.x + margin + width;
  page->ContentRegionRect.Max.x = page->WorkRect.Max.x;
  return margin;
}

static void draw_screen(App& app) {
  switch (app.screen) {
    case Screen::Loading: {
      ImGui::Dummy(ImVec2(1, em(app.ui) * 2));
      ImGui::TextUnformatted("Loading exercises…");
      break;
    }
    case Screen::CourseMap: draw_course_map(app); break;
    case Screen::Exercise: draw_exercise_screen(app); break;
    case Screen::Settings: draw_settings(app); break;
    case Screen::Assignment: draw_assignment(app); break;
    case Screen::Lab: draw_lab(app); break;
    case Screen::NotFound: draw_not_found(app); break;
    case Screen::Search: draw_search(app); break;
    case Screen::Practice: draw_practice(app); break;
    case Screen::Glossary: draw_glossary(app); break;
    case Screen::Review: draw_review(app); break;
  }
  app.submit_requested = false;  // an Enter that no exercise took
}

// The page's child window: scrolled to its place, the screen drawn in the column.
static void draw_page(App& app) {
  ImGui::BeginChild("##page", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  scroll_page(app);
  text_layer_set_page(ImGui::GetCurrentWindow());
  const float margin = page_column(app);
  // Indent(0) would indent by the style's IndentSpacing (1.86): on a phone, where the margin
  // is 0, that pushed every line 21 px right of the column and under the right edge.
  if (margin > 0) ImGui::Indent(margin);
  ImGui::PushItemWidth(app.content_width);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  draw_screen(app);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::PopItemWidth();
  if (margin > 0) ImGui::Unindent(margin);
  ImGui::Dummy(ImVec2(1, em(app.ui) * 3));
  // A new exercise opens at its top (title and numbers in view), also where its first field,
  // focused for typing, is below the fold (a phone, a zoomed page): ImGui scrolls to a field
  // it focuses, and this later target wins.
  if (app.nav.top_frames > 0) {
    --app.nav.top_frames;
    ImGui::SetScrollY(0.0f);
  }
  if (!app.nav.scroll_restore && app.screen != Screen::Loading) {
    if (app.nav.scroll_memory.size() > 1000) app.nav.scroll_memory.clear();  // every slider value is an address
    app.nav.scroll_memory[app.nav.address] = ImGui::GetScrollY();
  }
  ImGui::EndChild();
}

constexpr int kKeySlash = 47;  // GLFW_KEY_SLASH (US layout; other layouts send the character)

// "/" opens Search with the keyboard in its field, from any screen, unless a field is being
// typed in or single-key shortcuts are off (Settings; WCAG 2.1.4). The key where the layout
// has it, else the character it types.
static void search_shortcut(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper || !app.settings.single_key_shortcuts) return;
  if (app.screen == Screen::Loading) return;
  bool slash = ImGui::IsKeyPressed(kKeySlash, false) && !io.KeyShift;
  for (ImWchar c : io.InputQueueCharacters) slash |= c == '/';
  if (slash) open_search(app, app.search.input, true);
}

void app_frame(App& app) {
  begin_frame(app);
  search_shortcut(app);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  // No background: the frame starts cleared to the page colour, and a full-screen quad blended
  // over it costs software-GL browsers as much as the clear again, every frame.
  ImGui::Begin("##root", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoBackground);
  top_bar(app);
  draw_page(app);
  ImGui::End();
  sync_address(app);
}

}  // namespace dtx::web
