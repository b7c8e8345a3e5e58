// What the page calls in the engine: the bodies of web/bridge/calls.mjs's `toEngine` calls
// (the generated bridge.cpp exports them and converts their strings). Each hands the call to
// the app, the input repairs or the frame loop, and wakes the loop for it.
#include <cmath>

#include <nlohmann/json.hpp>

#include "bridge.h"
#include "imgui.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "web_page.h"

namespace dtx::web::from_page {
namespace {
WebPage& page() { return web_page(); }
App& app() { return web_page().app; }
}  // namespace

void wake() { wake_frames(page(), 3); }

// ---- input
void resize(float css_w, float css_h, float dpr) {
  const bool dpr_changed = std::fabs(dpr - app().ui.dpr) > 1e-3f;
  set_size(page(), css_w, css_h, dpr);
  if (dpr_changed) app().fonts_dirty = true;
  wake();
}

void wheel(float dx, float dy) {
  repairs_wheel(page().input, dx, dy, app().ui.dpr);
  wake();
}

void touch(int phase, float x, float y) {
  repairs_touch(page().input, phase, x, y, app().ui.dpr, page().platform.now_ms());
  wake();
}

void text_input(const std::string& utf8) {
  repairs_text(page().input, utf8);
  wake();
}

void key_tap(int which) {
  repairs_key_tap(page().input, which);
  wake();
}

void paste(const std::string& text) { page().input.clipboard = text; }

void frame_now() { draw_frame(page()); }

bool wants_text() { return ImGui::GetIO().WantTextInput; }

// What the browser says of the student's system: dark colours wanted, motion reduced, a
// finger for a pointer.
void system_prefs(bool dark, bool reduced_motion, bool coarse_pointer) {
  App& a = app();
  a.settings.system_dark = dark;
  a.ui.reduced_motion = reduced_motion;
  app_apply_theme(a);
  if (a.ui.coarse_pointer != coarse_pointer) {  // a tablet's keyboard attached or removed
    a.ui.coarse_pointer = coarse_pointer;
    app_apply_style(a);
  }
  wake();
}

// ---- answers to what the engine asked for
void on_fetch(int id, bool ok, int status, std::string body) {
  app_on_fetched(app(), id, ok, status, std::move(body));
  wake();
}

void on_code_result(int id, const std::string& json) {
  app_on_code_result(app(), id, json);
  wake();
}

// A picture asked for by PackImages arrived (ok: its natural CSS size; fills: an SVG with no
// width and height) or could not be loaded (`reason`).
void on_image(int id, bool ok, double w, double h, bool fills, const std::string& reason) {
  if (ok) app().images.on_loaded(id, static_cast<float>(w), static_cast<float>(h), fills);
  else app().images.on_failed(id, reason);
  wake();
}

void on_file(const std::string& name, const std::string& text) {
  app_on_file(app(), name.empty() ? "file" : name, text);
  wake();
}

// ---- where the page is; instructors' sources
void address(const std::string& fragment) {
  app_on_address(app(), fragment);
  wake();
}

// Where a screen was scrolled before the page was reloaded (glue.js keeps it for the tab, as
// the browser does a page's scroll): that screen opens there.
void remember_scroll(const std::string& address, float css_y) {
  if (css_y >= 0) app().nav.scroll_memory[address] = css_y * app().ui.dpr;
}

void preview_url(const std::string& url) {
  app_preview_url(app(), url);
  wake();
}

void preview_text(const std::string& name, const std::string& text) {
  app_preview_text(app(), name.empty() ? "dropped.json" : name, text);
  wake();
}

void pack_changed(const std::string& file) {
  app_pack_changed(app(), file);
  wake();
}

void assign_url(const std::string& url) {
  app_open_assignment(app(), url);
  wake();
}

void lms_start(const std::string& learner_id, const std::string& suspend_data, double passing) {
  dtx::web::lms_start(app(), learner_id, suspend_data, passing);
  wake();
}

void lms_sent(int reported, const std::string& problem) {
  dtx::web::lms_sent(app(), reported, problem);
  wake();
}

void instructor_allowed(bool on) {
  app().instructor_allowed = on;
  wake();
}

// What the student entered on a linked exercise's HTML view before the engine ran
// (first-screen.js, handed over at the engine's first frame): {"id", "words": [...], "submit"}.
// True when it is in the fields. Limits: 200 words of 64 KB (an answer of the page's own
// making is far smaller; the largest is a code exercise's program).
bool first_view_answer(const std::string& json) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("words") || !j["words"].is_array() ||
      j["words"].size() > 200)
    return false;
  std::vector<std::string> words;
  for (const auto& w : j["words"]) {
    if (!w.is_string() || w.get_ref<const std::string&>().size() > 64 * 1024) return false;
    words.push_back(w.get<std::string>());
  }
  const bool submit = j.contains("submit") && j["submit"].is_boolean() && j["submit"].get<bool>();
  std::string err;
  const bool ok = app_first_view_answer(app(), j["id"].get<std::string>(), words, submit, &err);
  if (!ok) repairs_log(page().input, "first view answer not taken: " + err);
  wake();
  return ok;
}

// ---- the text layer
// The browser scrolled the text layer's page (find in page brought a word into view).
void layer_scrolled(float css_y) {
  TextLayerCadence& layer = page().layer;
  if (std::fabs(css_y - layer.scroll) < 0.5f) return;  // the scroll the layer was given
  layer.scroll = css_y;
  app().nav.scroll_request = css_y * app().ui.dpr;
  wake();
}

// A press on the text layer's words (a selection starting): the field being edited closes.
void pointer_on_text() {
  app().release_field = true;
  wake();
}

// The text layer's proxy of a control took the DOM focus (activate false) or was activated by
// assistive technology (its "click"): the page's keyboard focus follows, and an activation
// presses the control as a click would.
void focus_control(unsigned id, bool activate) {
  if (keyboard_focus_control(id, activate)) wake();
}

void text_layer_enable(bool on) {
  page().layer.on = on;
  wake();
}

// ---- the test hook
std::string input_log() { return repairs_log_text(page().input); }

// The glyph runs the last drawn frame shows, read from its draw data, in CSS pixels of the
// canvas (the alignment test compares the DOM text with them).
std::string drawn_runs() {
  nlohmann::json out = nlohmann::json::array();
  const float d = app().ui.dpr > 0 ? app().ui.dpr : 1;
  for (const DrawnRun& r : text_layer_drawn_runs())
    out.push_back({{"t", r.text}, {"x", r.rect.Min.x / d}, {"y", r.rect.Min.y / d}, {"w", r.rect.GetWidth() / d}, {"h", r.rect.GetHeight() / d}});
  return out.dump();
}

double heap_bytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0; }

}  // namespace dtx::web::from_page
