// Browser entry point: GLFW window on the canvas, ImGui with the OpenGL3 (WebGL2) backend,
// and the fixes our versions need (web/shell/dtx.js does the DOM half):
//  - HiDPI: the backbuffer is CSS size x devicePixelRatio, fonts and style scale with it;
//  - power: a frame is drawn only after input, while loading/running, or for the caret;
//  - touch: fed to ImGui here (GLFW of 3.1.6 doubles presses and ignores moves): a vertical
//    swipe scrolls wherever it starts, a tap clicks, a sideways drag or a long press presses;
//  - text: characters come from a hidden textarea (mobile keyboards, IME), Enter and
//    Backspace from it too; the clipboard is the system's.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include "app.h"
#include <nlohmann/json.hpp>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "platform/platform_web.h"
#include "platform/test_hook.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"

using namespace dtx::web;

namespace {

App g_app;
WebPlatform g_platform;
GLFWwindow* g_window = nullptr;
int g_wake = 3;
uint64_t g_last_drawn = 0;     // digest of what the canvas shows (draw_data_hash)
bool g_fonts_uploaded = false;  // a new font texture: the next frame is drawn whatever its digest
double g_last_caret_ms = 0;
bool g_text_focus = false;
bool g_first_frame_sent = false;
bool g_layer_on = true;       // the text layer (off only to measure what it costs: ?layer=0)
float g_layer_scroll = -1;    // the page scroll the text layer was last given, CSS pixels
bool g_layer_stale = false;   // a frame was drawn since the text layer was last built
double g_layer_built_ms = 0;
ImGuiID g_layer_focus = 0;    // the keyboard focus when the text layer was last built
ImGuiID g_layer_typing = 0;   // and the field being typed in
std::string g_clipboard;

// A finger on the canvas. Nothing is pressed until the finger says what it wants (the
// "touch slop" of native scroll views): a vertical move scrolls, wherever it starts, and never
// presses what was under it; a sideways move presses where it started and drags (sliders);
// lifting first is a tap; holding still for kLongPressMs presses and holds (a long press lifts
// an ordering row); a drag handle (mark_draggable) is pressed at once.
struct TouchState {
  enum Phase { Pending, Pressed, Scrolling, Tapped, Lifted } phase = Pending;
  bool active = false, down = false, long_press = false;
  int frames = 0;  // frames seen while pending (the hover under the finger needs one)
  double start_ms = 0;
  ImVec2 pos, start, last_applied;
} g_touch;
constexpr double kLongPressMs = 450;

// Dear ImGui 1.86 polls key state once per frame (the input queue came in 1.87). A key pressed
// and released between two frames (fast typing, Playwright, Ctrl+A) would never be seen, so
// such a release is deferred until one frame has seen the key down.
std::vector<int> g_pressed_since_frame, g_deferred_release, g_release_now;

bool contains(const std::vector<int>& v, int k) { return std::find(v.begin(), v.end(), k) != v.end(); }

// The same polling loses order: in one frame ImGui inserts every queued character before it
// acts on any key, and a key pressed twice counts once. Input faster than frames (a slow
// device, a fast typist, Playwright) came out as "abxy\n" for "ab", Enter, "x", Enter, "y".
// So when an event would be merged or reordered with input no frame has seen yet, a frame
// is drawn first, there and then, as dtx_frame_now does for taps.
void draw_frame();
bool g_running = false;  // the main loop is set up: frames may be drawn
int g_flushing = 0;

// The last input events and what the frames after them saw, for a failing browser test to
// print (window.dtx.inputLog()): which frame saw a key or a click, with which modifiers.
std::vector<std::string> g_input_log;
void log_input(std::string line) {
  if (g_input_log.size() >= 48) g_input_log.erase(g_input_log.begin());
  g_input_log.push_back(std::to_string(g_app.frame) + " " + line);
}

void flush_input() {
  if (!g_running || g_flushing) return;
  ++g_flushing;
  draw_frame();
  --g_flushing;
}

// A frame now if input is waiting for one (characters, a key no frame has seen down).
void flush_pending() {
  if (!ImGui::GetIO().InputQueueCharacters.empty() || !g_pressed_since_frame.empty()) flush_input();
}

bool key_not_yet_released(int key) {
  return contains(g_pressed_since_frame, key) || contains(g_deferred_release, key) || contains(g_release_now, key);
}

void before_key_press(int key) {
  // At most two frames: one to see the earlier press, one to release it.
  for (int i = 0; i < 3 && (!ImGui::GetIO().InputQueueCharacters.empty() || key_not_yet_released(key)); ++i) flush_input();
}

void before_text() {
  if (!g_pressed_since_frame.empty()) flush_input();
}

bool is_modifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_SHIFT ||
         key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_ALT || key == GLFW_KEY_RIGHT_ALT ||
         key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

void key_callback(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (key < 0) return;
  log_input("key " + std::to_string(key) + (action == GLFW_PRESS ? " down" : action == GLFW_RELEASE ? " up" : " repeat"));
  // A modifier released before a frame saw the key it modified is deferred with that key: a
  // frame drawn between Ctrl's and A's keydowns, then both released, read a plain "a" and
  // lost Ctrl+A (a fast shortcut, or Playwright, whose events are separate tasks).
  if (action == GLFW_RELEASE &&
      (contains(g_pressed_since_frame, key) || (is_modifier(key) && !g_pressed_since_frame.empty()))) {
    g_deferred_release.push_back(key);
    return;
  }
  // Tab moves the focus through every control, Escape leaves a field keeping its text
  // (ui/keyboard); ImGui does not see those presses.
  if (action != GLFW_RELEASE && key == GLFW_KEY_TAB && !(mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER))) {
    flush_pending();  // what was typed before the Tab lands in the field it was typed in
    if (keyboard_tab((mods & GLFW_MOD_SHIFT) != 0)) {
      g_wake = std::max(g_wake, 3);
      return;
    }
  }
  if (action == GLFW_PRESS && key == GLFW_KEY_ESCAPE) {
    flush_pending();
    if (keyboard_escape_field()) {
      g_wake = std::max(g_wake, 3);
      return;
    }
  }
  if (action == GLFW_PRESS) {
    before_key_press(key);
    g_pressed_since_frame.push_back(key);
  }
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

void mouse_button_callback(GLFWwindow* w, int button, int action, int mods) {
  log_input("mouse " + std::to_string(button) + (action == GLFW_PRESS ? " down" : " up") + " mods=" + std::to_string(mods));
  ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
}

void press_key_once(int key) {  // from the on-screen keyboard path
  before_key_press(key);
  ImGui_ImplGlfw_KeyCallback(g_window, key, 0, GLFW_PRESS, 0);
  g_pressed_since_frame.push_back(key);
  g_deferred_release.push_back(key);
}

const char* get_clipboard(void*) { return g_clipboard.c_str(); }
void set_clipboard(void*, const char* text) {
  g_clipboard = text ? text : "";
  web_clipboard_set(g_clipboard.c_str());
}

void rebuild_fonts() {
  float scale = g_app.dpr * g_app.text_scale;
  g_app.fonts = build_fonts(g_app.font_files, scale);
  app_apply_style(g_app);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  g_fonts_uploaded = true;
  g_app.fonts_dirty = false;
}

// Wheel movement in physical pixels since the last frame (see dtx_wheel).
ImVec2 g_wheel_px(0, 0);

// One ImGui wheel unit scrolls this many pixels in 1.86 (NewFrame's scroll step), so a
// distance in pixels divides by it to scroll exactly that far.
float wheel_step_px() {
  return std::fmax(std::floor(std::fmin(5 * ImGui::GetFontSize(), ImGui::GetIO().DisplaySize.y * 0.67f)), 1.0f);
}

void apply_wheel() {
  if (g_wheel_px.x == 0 && g_wheel_px.y == 0) return;
  ImGuiIO& io = ImGui::GetIO();
  // Browser: positive deltaY moves the view down. ImGui: positive MouseWheel scrolls up.
  io.MouseWheel -= g_wheel_px.y / wheel_step_px();
  io.MouseWheelH -= g_wheel_px.x / wheel_step_px();
  g_wheel_px = ImVec2(0, 0);
}

void apply_touch() {
  ImGuiIO& io = ImGui::GetIO();
  g_app.touch_pointer = g_touch.active;
  g_app.touch_long_press = g_touch.active && g_touch.long_press;
  if (!g_touch.active) return;
  io.MousePos = g_touch.pos;
  io.MouseDown[0] = false;
  const ImGuiContext& g = *GImGui;
  switch (g_touch.phase) {
    case TouchState::Pending: {
      ++g_touch.frames;
      const float dx = g_touch.pos.x - g_touch.start.x, dy = g_touch.pos.y - g_touch.start.y;
      const float slop = 10 * g_app.dpr;
      // g.HoveredId is still the last frame's: what the finger rests on. A drag handle is
      // held at once (before the move could be taken for a scroll).
      const bool on_handle = g_touch.frames > 1 && g.HoveredId != 0 && is_draggable(g.HoveredId);
      if (!on_handle && std::fabs(dy) > slop && std::fabs(dy) >= std::fabs(dx)) {
        g_touch.phase = TouchState::Scrolling;  // (a flick lifted within a frame scrolls too)
        g_touch.last_applied = g_touch.start;
        break;
      }
      if (!g_touch.down) {  // lifted before anything else: a tap where the finger went down
        io.MousePos = g_touch.start;
        io.MouseDown[0] = true;
        g_touch.phase = TouchState::Tapped;
        return;
      }
      if (on_handle) {
        g_touch.phase = TouchState::Pressed;
      } else if (std::fabs(dx) > slop) {
        io.MousePos = g_touch.start;  // pressed where it started; the next frames follow it
        g_touch.phase = TouchState::Pressed;
      } else if (g_platform.now_ms() - g_touch.start_ms >= kLongPressMs) {
        g_touch.phase = TouchState::Pressed;
        g_touch.long_press = g_app.touch_long_press = true;
      } else {
        return;  // undecided: hover only
      }
      io.MouseDown[0] = true;
      return;
    }
    case TouchState::Pressed:
      io.MouseDown[0] = g_touch.down;
      if (!g_touch.down) g_touch.phase = TouchState::Lifted;
      return;
    case TouchState::Tapped:
      g_touch.phase = TouchState::Lifted;
      return;
    case TouchState::Lifted:
      g_touch.active = false;  // one frame after lifting: no hover left behind
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      return;
    case TouchState::Scrolling:
      break;
  }
  // Scrolling: the content follows the finger.
  io.MouseWheel += (g_touch.pos.y - g_touch.last_applied.y) / wheel_step_px();
  g_touch.last_applied = g_touch.pos;
  if (!g_touch.down) g_touch.phase = TouchState::Lifted;
}

void apply_keys() {
  for (int k : g_release_now) ImGui_ImplGlfw_KeyCallback(g_window, k, 0, GLFW_RELEASE, 0);
  g_release_now.swap(g_deferred_release);
  g_deferred_release.clear();
  g_pressed_since_frame.clear();
}

// What a frame draws, as a 64-bit digest: every vertex, index and command of the draw lists,
// the framebuffer size and the clear colour.
uint64_t draw_data_hash(const ImDrawData* dd, int fw, int fh, ImU32 clear) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  auto mix = [&h](const void* p, size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, b + i, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    for (; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  };
  int dims[3] = {fw, fh, static_cast<int>(clear)};
  mix(dims, sizeof dims);
  for (int l = 0; l < dd->CmdListsCount; ++l) {
    const ImDrawList* list = dd->CmdLists[l];
    mix(list->VtxBuffer.Data, static_cast<size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(list->IdxBuffer.Data, static_cast<size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : list->CmdBuffer) {
      mix(&c.ClipRect, sizeof c.ClipRect);
      mix(&c.TextureId, sizeof c.TextureId);
      unsigned counts[3] = {c.VtxOffset, c.IdxOffset, c.ElemCount};
      mix(counts, sizeof counts);
    }
  }
  return h;
}

// Start milestones for `make bench` (performance marks, read back by scripts/bench-web.mjs).
EM_JS(void, web_mark, (const char* name), { performance.mark(UTF8ToString(name)); });
EM_JS(void, web_measure, (const char* name, double start, double end), {
  try { performance.measure(UTF8ToString(name), { start: start, end: end }); } catch (e) { /* old browser */ }
});
struct StartMarks {
  bool fonts = false, index = false, outline = false, pack = false, screen = false;
} g_marks;

// The loading line gives way once the course map (or a linked exercise) can be drawn with its
// fonts; packs still on their way are shown loading in the map itself.
bool first_screen_ready() {
  return g_app.screen != Screen::Loading && !g_app.fonts_dirty && g_app.font_requests.empty();
}

// Before a frame: fonts rebuilt when they changed, the start marks, and the packs that arrived
// (a frame's worth at a time, one or two at ~30 ms each: the map is drawn with the first
// chapters while the others load).
void take_in_arrivals() {
  if (g_app.fonts_dirty) {
    const bool first = !g_marks.fonts && g_app.font_files.complete();
    if (first) web_mark("dtx:fonts-in");
    rebuild_fonts();
    if (first) web_mark("dtx:fonts-built"), g_marks.fonts = true;
  }
  if (!g_marks.index && g_app.index_loaded) web_mark("dtx:index-in"), g_marks.index = true;
  if (!g_marks.outline && g_app.outline_done) web_mark("dtx:outline-in"), g_marks.outline = true;
  const double t = emscripten_get_now();
  if (app_load_arrived_packs(g_app, 20.0)) {
    // each stretch of pack parsing, for the bench's start breakdown
    web_measure("dtx:packs-parsed", t, emscripten_get_now());
    if (!g_marks.pack) web_mark("dtx:first-pack-in"), g_marks.pack = true;
  }
}

// ImGui's frame: the input repairs (touch, wheel, keys), the keyboard's focus, the app.
void build_ui() {
  hook_begin_frame();
  text_layer_begin_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  apply_touch();
  apply_wheel();
  apply_keys();
  keyboard_before_frame(g_app);
  ImGui::NewFrame();
  {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseDown[0] || io.MouseReleased[0] || io.KeyCtrl || !g_pressed_since_frame.empty())
      log_input(std::string("frame ctrl=") + (io.KeyCtrl ? "1" : "0") + " down=" + (io.MouseDown[0] ? "1" : "0") +
                " clicked=" + (io.MouseClicked[0] ? "1" : "0") + " at " + std::to_string(static_cast<int>(io.MousePos.x)) + "," +
                std::to_string(static_cast<int>(io.MousePos.y)));
  }
  app_frame(g_app);
  ImGui::Render();
}

// The GL work, skipped for a frame that would draw exactly what the canvas shows (a wake for
// a key that changed nothing, the frames that let ImGui settle after a hover): WebGL keeps
// showing the last drawn buffer when a frame draws nothing, and the GL work is most of a
// frame's cost (two thirds of the browser's CPU per frame with software GL). `mark_screen`:
// this is the first frame that shows a screen with a pack in.
void render(bool mark_screen) {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(g_window, &fw, &fh);
  uint64_t drawn = draw_data_hash(ImGui::GetDrawData(), fw, fh, color::page());
  if (drawn == g_last_drawn && !g_fonts_uploaded) return;
  g_last_drawn = drawn;
  g_fonts_uploaded = false;
  glViewport(0, 0, fw, fh);
  ImVec4 bg = ImGui::ColorConvertU32ToFloat4(color::page());
  glClearColor(bg.x, bg.y, bg.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (mark_screen) web_mark("dtx:first-screen-drawn"), g_marks.screen = true;
  ++g_app.frames_drawn;
  g_layer_stale = true;
}

// The text layer follows what was drawn (a frame that draws nothing new changes no DOM).
// While a widget plays, its words change every frame, faster than anyone reads them: the
// layer follows once a second (a frame that builds it costs ~3-6 ms more), and at once when the
// widget stops.
// The same holds while the packs arrive at the start: each one redraws the course map, and
// the first layer (a few hundred DOM nodes, ~150 ms of a phone's main thread) would hold back
// the first frame a student sees. The layer is first built a second after the first frame, or
// as soon as every pack is in, never in the first frame (docs/performance.md, "What each part
// of the start saves").
// A moved keyboard focus, or a field starting or ending typing, is followed at once (the DOM
// focus goes with it), also when nothing else was drawn differently.
void follow_text_layer() {
  g_app.layer_ms = 0;
  const ImGuiID typing = ImGui::GetIO().WantTextInput ? GImGui->ActiveId : 0;
  const bool focus_moved = keyboard_focus_id() != g_layer_focus || typing != g_layer_typing;
  if (!g_layer_on || !(g_layer_stale || focus_moved)) return;
  double t = emscripten_get_now();
  const bool starting = !g_app.library_ready;
  if (starting && g_layer_built_ms == 0) g_layer_built_ms = t;  // counts from the first frame
  // The first screen (the map, or a linked exercise with every pack in) is shown before the
  // layer is built, at the next frame.
  const bool first_screen = !g_first_frame_sent;
  const bool due = !(g_app.widget_animating || starting) || t - g_layer_built_ms >= 1000 || focus_moved;
  if (!due || first_screen) {
    g_wake = std::max(g_wake, 1);  // a frame soon builds it
    return;
  }
  g_layer_stale = false;
  g_layer_focus = keyboard_focus_id();
  g_layer_typing = typing;
  g_layer_built_ms = t;
  TextLayerUpdate up = text_layer_build(ImGui::GetDrawData(), g_app.dpr);
  if (up.changed) web_text_layer(up.json.c_str(), up.scroll_css);
  else if (std::fabs(up.scroll_css - g_layer_scroll) > 0.01f) web_layer_scroll(up.scroll_css);
  g_layer_scroll = up.scroll_css;
  g_app.layer_runs = up.runs;
  g_app.layer_ms = emscripten_get_now() - t;
}

// After a frame: the page told whether a field is being typed in, that the first screen is up
// (and, the frame after, the packs the outline stood in for asked for: each goes in within a
// frame's budget as it arrives; opening one of them asks first), and whether another frame is
// needed soon.
void after_frame() {
  bool want = ImGui::GetIO().WantTextInput;
  if (want != g_text_focus) {
    g_text_focus = want;
    web_text_focus(want);
  }
  if (!g_first_frame_sent && first_screen_ready()) {
    g_first_frame_sent = true;
    web_first_frame();
  } else if (g_first_frame_sent && !g_app.prefetch_started) {
    app_prefetch_packs(g_app);
  }
  if (!g_release_now.empty() || g_touch.active) g_wake = std::max(g_wake, 1);
}

void draw_frame() {
  // CPU time of a whole frame (input, ImGui, GL submission, test-hook state), reported in
  // the next frame's state so the bench can check animation stays cheap.
  double frame_start = emscripten_get_now();
  if (g_wake > 0) --g_wake;
  take_in_arrivals();
  // Until the first screen can be shown (its fonts and its pack in), the loading line covers
  // the canvas: a frame would draw nothing anyone sees, and its GL work (software GL builds its
  // pipelines at the first draw, ~100 ms) held the main thread while the packs' bytes waited to
  // be read. Such frames only take in what arrived (above).
  if (!g_first_frame_sent && !first_screen_ready()) return;
  build_ui();
  double ui_end = emscripten_get_now();
  // The first frame that shows a screen with a pack in: when its layout is done, and when its
  // GL work is handed over (the browser waits for software GL there, in the first frame).
  const bool mark_screen = !g_marks.screen && g_app.screen != Screen::Loading && first_screen_ready();
  if (mark_screen) web_mark("dtx:first-screen-laid-out");
  render(mark_screen);
  follow_text_layer();
  double gl_end = emscripten_get_now();
  app_after_frame(g_app);
  keyboard_after_frame();
  double hook_end = emscripten_get_now();
  after_frame();
  g_app.frame_cpu_ms = emscripten_get_now() - frame_start;
  g_app.frame_parts_ms[0] = ui_end - frame_start;
  g_app.frame_parts_ms[1] = gl_end - ui_end;
  g_app.frame_parts_ms[2] = hook_end - gl_end;
}

void loop() {
  // The caret blinks about twice a second while a field is being edited.
  double now = g_platform.now_ms();
  bool caret = ImGui::GetIO().WantTextInput && now - g_last_caret_ms > 500;
  if (g_wake <= 0 && !app_busy(g_app) && !caret) return;
  if (caret) g_last_caret_ms = now;
  draw_frame();
}

void set_size(float css_w, float css_h, float dpr) {
  g_app.dpr = dpr;
  int w = static_cast<int>(std::lround(css_w * dpr)), h = static_cast<int>(std::lround(css_h * dpr));
  glfwSetWindowSize(g_window, std::max(w, 1), std::max(h, 1));
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void dtx_wake() { g_wake = std::max(g_wake, 3); }

EMSCRIPTEN_KEEPALIVE void dtx_on_fetch(int id, int ok, int status, char* data, int len) {
  std::string body = data ? std::string(data, static_cast<size_t>(len)) : std::string();
  std::free(data);
  app_on_fetched(g_app, id, ok != 0, status, std::move(body));
  dtx_wake();
}

// A picture asked for by PackImages arrived (ok: its natural CSS size; fills: an SVG with no
// width and height) or could not be loaded (`reason`, freed by the caller).
EMSCRIPTEN_KEEPALIVE void dtx_on_image(int id, int ok, double w, double h, int fills, const char* reason) {
  if (ok) g_app.images.on_loaded(id, static_cast<float>(w), static_cast<float>(h), fills != 0);
  else g_app.images.on_failed(id, reason ? reason : "");
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_on_code_result(int id, const char* json) {
  app_on_code_result(g_app, id, json ? json : "");
  dtx_wake();
}

// Instructors: a `?pack=` URL, a dropped pack file, a pack `make serve` saw change.
EMSCRIPTEN_KEEPALIVE void dtx_preview_url(const char* url) {
  app_preview_url(g_app, url ? url : "");
  dtx_wake();
}

// Course mode: `?assign=URL` opens an assignment; `?instructor` allows the instructor view
// outside a preview.
EMSCRIPTEN_KEEPALIVE void dtx_assign_url(const char* url) {
  app_open_assignment(g_app, url ? url : "");
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_instructor_allowed(int on) {
  g_app.instructor_allowed = on != 0;
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_preview_text(const char* name, const char* text) {
  app_preview_text(g_app, name ? name : "dropped.json", text ? text : "");
  dtx_wake();
}

// What the browser says of the student's system: dark colours wanted, motion reduced, a
// finger for a pointer.
EMSCRIPTEN_KEEPALIVE void dtx_system_prefs(int dark, int reduced_motion, int coarse_pointer) {
  g_app.system_dark = dark != 0;
  g_app.reduced_motion = reduced_motion != 0;
  app_apply_theme(g_app);
  if (g_app.coarse_pointer != (coarse_pointer != 0)) {  // a tablet's keyboard attached or removed
    g_app.coarse_pointer = coarse_pointer != 0;
    app_apply_style(g_app);
  }
  dtx_wake();
}

// The address bar changed: at load, Back, Forward, or an address edited by hand.
EMSCRIPTEN_KEEPALIVE void dtx_address(const char* fragment) {
  app_on_address(g_app, fragment ? fragment : "");
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_pack_changed(const char* file) {
  app_pack_changed(g_app, file ? file : "");
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_on_file(const char* name, const char* text) {
  app_on_file(g_app, name ? name : "file", text ? text : "");
  dtx_wake();
}

// The mouse wheel, in CSS pixels (glue.js converts lines and pages). Emscripten 3.1.6's GLFW
// passes the browser's deltaY straight to the scroll callback: the wrong sign for ImGui
// (wheel down scrolled up) and a hundred units per notch, so glue.js keeps wheel events
// over the canvas from GLFW and sends them here.
EMSCRIPTEN_KEEPALIVE void dtx_wheel(float dx, float dy) {
  g_wheel_px.x += dx * g_app.dpr;
  g_wheel_px.y += dy * g_app.dpr;
  dtx_wake();
}

// phase: 0 start, 1 move, 2 end/cancel; coordinates in CSS pixels of the canvas.
EMSCRIPTEN_KEEPALIVE void dtx_touch(int phase, float x, float y) {
  ImVec2 p(x * g_app.dpr, y * g_app.dpr);
  if (phase == 0) {
    g_touch = TouchState{};
    g_touch.active = g_touch.down = true;
    g_touch.start_ms = g_platform.now_ms();
    g_touch.pos = g_touch.start = g_touch.last_applied = p;
  } else if (phase == 1) {
    g_touch.pos = p;
  } else {
    g_touch.pos = p;
    g_touch.down = false;
  }
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_text_input(const char* utf8) {
  before_text();
  ImGui::GetIO().AddInputCharactersUTF8(utf8);
  dtx_wake();
}

// 0: Backspace, 1: Enter (from the on-screen keyboard, which sends no usable key codes).
EMSCRIPTEN_KEEPALIVE void dtx_key_tap(int which) {
  press_key_once(which == 0 ? GLFW_KEY_BACKSPACE : GLFW_KEY_ENTER);
  dtx_wake();
}

EMSCRIPTEN_KEEPALIVE void dtx_paste(const char* text) { g_clipboard = text ? text : ""; }

EMSCRIPTEN_KEEPALIVE void dtx_resize(float css_w, float css_h, float dpr) {
  bool dpr_changed = std::fabs(dpr - g_app.dpr) > 1e-3f;
  set_size(css_w, css_h, dpr);
  if (dpr_changed) g_app.fonts_dirty = true;
  dtx_wake();
}

// Draws a frame now, inside a DOM event handler: a text field activated by this tap can then
// focus the textarea within the user gesture, which mobile browsers require for the keyboard.
EMSCRIPTEN_KEEPALIVE void dtx_frame_now() { draw_frame(); }
EMSCRIPTEN_KEEPALIVE char* dtx_input_log() {  // freed by the caller (glue.js)
  std::string all;
  for (const std::string& l : g_input_log) all += l + "\n";
  return strdup(all.c_str());
}
// The browser scrolled the text layer's page (find in page brought a word into view).
EMSCRIPTEN_KEEPALIVE void dtx_layer_scrolled(float css_y) {
  if (std::fabs(css_y - g_layer_scroll) < 0.5f) return;  // the scroll the layer was given
  g_layer_scroll = css_y;
  g_app.scroll_request = css_y * g_app.dpr;
  dtx_wake();
}
// Where a screen was scrolled before the page was reloaded (glue.js keeps it for the tab, as
// the browser does a page's scroll): that screen opens there.
EMSCRIPTEN_KEEPALIVE void dtx_remember_scroll(const char* address, float css_y) {
  if (address && css_y >= 0) g_app.scroll_memory[address] = css_y * g_app.dpr;
}
// A press on the text layer's words (a selection starting): the field being edited closes.
EMSCRIPTEN_KEEPALIVE void dtx_pointer_on_text() {
  g_app.release_field = true;
  dtx_wake();
}
// The text layer's proxy of a control took the DOM focus (focus = 1) or was activated by
// assistive technology (its "click"): the page's keyboard focus follows, and an activation
// presses the control as a click would.
EMSCRIPTEN_KEEPALIVE void dtx_focus_control(unsigned id, int activate) {
  if (keyboard_focus_control(id, activate != 0)) {
    g_wake = std::max(g_wake, 3);
    dtx_wake();
  }
}
EMSCRIPTEN_KEEPALIVE void dtx_text_layer_enable(int on) {
  g_layer_on = on != 0;
  dtx_wake();
}
// The glyph runs the last drawn frame shows, read from its draw data, in CSS pixels of the
// canvas (the alignment test compares the DOM text with them). Freed by the caller.
EMSCRIPTEN_KEEPALIVE char* dtx_drawn_runs() {
  std::string out = "[";
  const float d = g_app.dpr > 0 ? g_app.dpr : 1;
  for (const DrawnRun& r : text_layer_drawn_runs()) {
    if (out.size() > 1) out += ",";
    nlohmann::json j = {{"t", r.text}, {"x", r.rect.Min.x / d}, {"y", r.rect.Min.y / d}, {"w", r.rect.GetWidth() / d}, {"h", r.rect.GetHeight() / d}};
    out += j.dump();
  }
  out += "]";
  return strdup(out.c_str());
}
EMSCRIPTEN_KEEPALIVE int dtx_wants_text() { return ImGui::GetIO().WantTextInput ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE int dtx_wants_keys() { return ImGui::GetIO().WantCaptureKeyboard ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE double dtx_heap_bytes() { return static_cast<double>(EM_ASM_DOUBLE({ return HEAP8.length; })); }
// What the student entered on a linked exercise's HTML view before the engine ran
// (first-screen.js, via glue.js at the engine's first frame): {"id", "words": [...], "submit"}.
// 1 when it is in the fields. Limits: 200 words of 64 KB (an answer of the page's own making
// is far smaller; the largest is a code exercise's program).
EMSCRIPTEN_KEEPALIVE int dtx_first_view_answer(const char* json) {
  auto j = nlohmann::json::parse(json ? json : "", nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("words") || !j["words"].is_array() ||
      j["words"].size() > 200)
    return 0;
  std::vector<std::string> words;
  for (const auto& w : j["words"]) {
    if (!w.is_string() || w.get_ref<const std::string&>().size() > 64 * 1024) return 0;
    words.push_back(w.get<std::string>());
  }
  const bool submit = j.contains("submit") && j["submit"].is_boolean() && j["submit"].get<bool>();
  std::string err;
  const bool ok = app_first_view_answer(g_app, j["id"].get<std::string>(), words, submit, &err);
  if (!ok) log_input("first view answer not taken: " + err);
  dtx_wake();
  return ok ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void dtx_set_text_scale(float s) {
  g_app.text_scale = s;
  g_app.fonts_dirty = true;
  dtx_wake();
}

}  // extern "C"

EM_JS(double, js_css_width, (), { return dtxGlue.cssSize()[0]; });
EM_JS(double, js_css_height, (), { return dtxGlue.cssSize()[1]; });
EM_JS(double, js_dpr, (), { return window.devicePixelRatio || 1; });
EM_JS(void, js_ready, (), { dtxGlue.ready(); });

int main() {
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  g_app.dpr = static_cast<float>(js_dpr());
  int w = static_cast<int>(std::lround(js_css_width() * g_app.dpr));
  int h = static_cast<int>(std::lround(js_css_height() * g_app.dpr));
  g_window = glfwCreateWindow(std::max(w, 1), std::max(h, 1), "dtx", nullptr, nullptr);
  if (!g_window) return 1;
  glfwMakeContextCurrent(g_window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  GImGui->TestEngineHookItems = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // nothing to save: layout is fixed, progress goes to localStorage
  keyboard_init();
  io.LogFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  glfwSetKeyCallback(g_window, key_callback);  // in front of ImGui's, see key_callback
  glfwSetMouseButtonCallback(g_window, mouse_button_callback);  // logged, then ImGui's
  ImGui_ImplOpenGL3_Init("#version 300 es");
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  io.ClipboardUserData = nullptr;

  if (auto s = g_platform.storage_get("dtx.text-scale")) {
    float v = static_cast<float>(std::atof(s->c_str()));
    if (v >= 0.75f && v <= 2.0f) g_app.text_scale = v;
  }
  app_init(g_app, &g_platform);
  rebuild_fonts();  // the built-in font until Inter and JetBrains Mono arrive
  g_app.fonts_dirty = false;
  // The shaders now, not in the first frame's NewFrame: there their status query waited for
  // the GPU process to finish uploading the new font atlas (66 ms with software GL), while
  // here it costs 10 ms and the atlas upload later overlaps with loading the first pack.
  ImGui_ImplOpenGL3_CreateDeviceObjects();
  js_ready();
  g_running = true;
  emscripten_set_main_loop(loop, 0, false);
  return 0;
}
