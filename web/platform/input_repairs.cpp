#include "platform/input_repairs.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <GLFW/glfw3.h>

#include "imgui_impl_glfw.h"
#include "imgui_internal.h"

namespace dtx::web {
namespace {

constexpr double kLongPressMs = 450;

InputRepairs& repairs_of(GLFWwindow* w) { return *static_cast<InputRepairs*>(glfwGetWindowUserPointer(w)); }
bool contains(const std::vector<int>& v, int k) { return std::find(v.begin(), v.end(), k) != v.end(); }

// ---- Keys: Dear ImGui 1.86 polls key state once per frame. Upstream: the input queue of
// ImGui 1.87 (io.AddKeyEvent) keeps every press, release and character in order; with it
// this whole section goes.
//
// A key pressed and released between two frames (fast typing, Playwright, Ctrl+A) would
// never be seen, so such a release is deferred until one frame has seen the key down. The
// same polling loses order: in one frame ImGui inserts every queued character before it acts
// on any key, and a key pressed twice counts once ("abxy\n" for "ab", Enter, "x", Enter,
// "y"). So when an event would be merged or reordered with input no frame has seen yet, a
// frame is drawn first, there and then. That includes a key pressed again after a release no
// frame has seen: ImGui would read it as held down all along, and the second press was lost
// (two ArrowUps on an ordering row moved it once, about one run in ten of the browser test).
void flush(InputRepairs& r) {
  if (!r.draw_now || r.flushing) return;  // a frame drawn from inside a flush would recurse
  ++r.flushing;
  r.draw_now();
  --r.flushing;
}

// A frame now if input is waiting for one (characters, a key no frame has seen down).
void flush_pending(InputRepairs& r) {
  if (!ImGui::GetIO().InputQueueCharacters.empty() || !r.pressed_since_frame.empty()) flush(r);
}

bool key_not_yet_released(const InputRepairs& r, int key) {
  return contains(r.pressed_since_frame, key) || contains(r.deferred_release, key) || contains(r.release_now, key) ||
         contains(r.released_since_frame, key);
}

void before_key_press(InputRepairs& r, int key) {
  // At most two frames: one to see the earlier press, one to release it.
  for (int i = 0; i < 3 && (!ImGui::GetIO().InputQueueCharacters.empty() || key_not_yet_released(r, key)); ++i) flush(r);
}

bool is_modifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_SHIFT ||
         key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_ALT || key == GLFW_KEY_RIGHT_ALT ||
         key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

const char* action_name(int action) { return action == GLFW_PRESS ? " down" : action == GLFW_RELEASE ? " up" : " repeat"; }

void key_callback(GLFWwindow* w, int key, int scancode, int action, int mods) {
  InputRepairs& r = repairs_of(w);
  if (key < 0) return;
  repairs_log(r, "key " + std::to_string(key) + action_name(action));
  // A modifier released before a frame saw the key it modified is deferred with that key: a
  // frame drawn between Ctrl's and A's keydowns, then both released, read a plain "a" and
  // lost Ctrl+A (a fast shortcut, or Playwright, whose events are separate tasks).
  if (action == GLFW_RELEASE &&
      (contains(r.pressed_since_frame, key) || (is_modifier(key) && !r.pressed_since_frame.empty()))) {
    r.deferred_release.push_back(key);
    return;
  }
  // Tab moves the focus through every control, Escape leaves a field keeping its text
  // (ui/keyboard); ImGui does not see those presses.
  if (action != GLFW_RELEASE && key == GLFW_KEY_TAB && !(mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER))) {
    flush_pending(r);  // what was typed before the Tab lands in the field it was typed in
    if (r.tab && r.tab((mods & GLFW_MOD_SHIFT) != 0)) return r.wake(3);
  }
  if (action == GLFW_PRESS && key == GLFW_KEY_ESCAPE) {
    flush_pending(r);
    if (r.escape_field && r.escape_field()) return r.wake(3);
  }
  if (action == GLFW_PRESS) {
    before_key_press(r, key);
    r.pressed_since_frame.push_back(key);
  }
  if (action == GLFW_RELEASE) r.released_since_frame.push_back(key);
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

void apply_keys(InputRepairs& r) {
  for (int k : r.release_now) ImGui_ImplGlfw_KeyCallback(r.window, k, 0, GLFW_RELEASE, 0);
  r.release_now.swap(r.deferred_release);
  r.deferred_release.clear();
  r.pressed_since_frame.clear();
  r.released_since_frame.clear();
}

void mouse_button_callback(GLFWwindow* w, int button, int action, int mods) {
  repairs_log(repairs_of(w), "mouse " + std::to_string(button) + (action == GLFW_PRESS ? " down" : " up") + " mods=" + std::to_string(mods));
  ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
}

// ---- Clipboard: Emscripten 3.1.6's glfwGetClipboardString/glfwSetClipboardString do
// nothing. Upstream: emscripten#21941 and emscripten#22099 (the fixing release: unknown); the
// system clipboard still needs the page's paste event and navigator.clipboard.
const char* get_clipboard(void* user) { return static_cast<InputRepairs*>(user)->clipboard.c_str(); }
void set_clipboard(void* user, const char* text) {
  InputRepairs& r = *static_cast<InputRepairs*>(user);
  r.clipboard = text ? text : "";
  if (r.clipboard_to_system) r.clipboard_to_system(r.clipboard.c_str());
}

// ---- Wheel: Emscripten 3.1.6's GLFW passes the browser's deltaY straight to the scroll
// callback, the wrong sign for ImGui and about a hundred units a notch. Upstream: unknown
// (docs/browser-repairs.md keeps the state of each). One ImGui wheel unit scrolls this many pixels in 1.86
// (NewFrame's scroll step), so a distance in pixels divides by it to scroll exactly that far.
float wheel_step_px() {
  return std::fmax(std::floor(std::fmin(5 * ImGui::GetFontSize(), ImGui::GetIO().DisplaySize.y * 0.67f)), 1.0f);
}

void apply_wheel(InputRepairs& r) {
  if (r.wheel_px.x == 0 && r.wheel_px.y == 0) return;
  ImGuiIO& io = ImGui::GetIO();
  // Browser: positive deltaY moves the view down. ImGui: positive MouseWheel scrolls up.
  io.MouseWheel -= r.wheel_px.y / wheel_step_px();
  io.MouseWheelH -= r.wheel_px.x / wheel_step_px();
  r.wheel_px = ImVec2(0, 0);
}

// ---- Touch: Emscripten 3.1.6's GLFW doubles a touch's press and drops its moves
// (emscripten#20804, the fixing release: unknown). The swipe-to-scroll rules stay: ImGui has
// no touch scrolling.
// Returns true when the finger is decided for this frame (the mouse state is set).
bool touch_pending(InputRepairs& r, ImGuiIO& io, float dpr, double now_ms) {
  TouchState& t = r.touch;
  ++t.frames;
  const float dx = t.pos.x - t.start.x, dy = t.pos.y - t.start.y;
  const float slop = 10 * dpr;
  // HoveredId is still the last frame's: what the finger rests on. A drag handle is held at
  // once (before the move could be taken for a scroll).
  const ImGuiID hovered = GImGui->HoveredId;
  const bool on_handle = t.frames > 1 && hovered != 0 && r.is_drag_handle && r.is_drag_handle(hovered);
  if (!on_handle && std::fabs(dy) > slop && std::fabs(dy) >= std::fabs(dx)) {
    t.phase = TouchState::Scrolling;  // (a flick lifted within a frame scrolls too)
    t.last_applied = t.start;
    return false;
  }
  if (!t.down) {  // lifted before anything else: a tap where the finger went down
    io.MousePos = t.start;
    io.MouseDown[0] = true;
    t.phase = TouchState::Tapped;
    return true;
  }
  if (on_handle) {
    t.phase = TouchState::Pressed;
  } else if (std::fabs(dx) > slop) {
    io.MousePos = t.start;  // pressed where it started; the next frames follow it
    t.phase = TouchState::Pressed;
  } else if (now_ms - t.start_ms >= kLongPressMs) {
    t.phase = TouchState::Pressed;
    t.long_press = true;
  } else {
    return true;  // undecided: hover only
  }
  io.MouseDown[0] = true;
  return true;
}

void apply_touch(InputRepairs& r, float dpr, double now_ms) {
  TouchState& t = r.touch;
  if (!t.active) return;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = t.pos;
  io.MouseDown[0] = false;
  switch (t.phase) {
    case TouchState::Pending:
      if (touch_pending(r, io, dpr, now_ms)) return;
      break;  // it became a scroll
    case TouchState::Pressed:
      io.MouseDown[0] = t.down;
      if (!t.down) t.phase = TouchState::Lifted;
      return;
    case TouchState::Tapped:
      t.phase = TouchState::Lifted;
      return;
    case TouchState::Lifted:
      t.active = false;  // one frame after lifting: no hover left behind
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      return;
    case TouchState::Scrolling:
      break;
  }
  // Scrolling: the content follows the finger.
  io.MouseWheel += (t.pos.y - t.last_applied.y) / wheel_step_px();
  t.last_applied = t.pos;
  if (!t.down) t.phase = TouchState::Lifted;
}

}  // namespace

void repairs_install(InputRepairs& r, GLFWwindow* window) {
  r.window = window;
  glfwSetWindowUserPointer(window, &r);
  glfwSetKeyCallback(window, key_callback);  // in front of ImGui's, see key_callback
  glfwSetMouseButtonCallback(window, mouse_button_callback);  // logged, then ImGui's
  ImGuiIO& io = ImGui::GetIO();
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  io.ClipboardUserData = &r;
}

TouchFrame repairs_before_frame(InputRepairs& r, float dpr, double now_ms) {
  // The finger as this frame found it (a lift still counts as touch in its last frame); a long
  // press decided in this frame counts at once.
  TouchFrame f{r.touch.active, r.touch.active && r.touch.long_press};
  apply_touch(r, dpr, now_ms);
  f.long_press = f.long_press || (f.pointer && r.touch.long_press);
  apply_wheel(r);
  apply_keys(r);
  return f;
}

bool repairs_want_frame(const InputRepairs& r) { return !r.release_now.empty() || r.touch.active; }

void repairs_log(InputRepairs& r, std::string line) {
  if (r.log.size() >= 48) r.log.erase(r.log.begin());
  r.log.push_back(std::to_string(r.frame) + " " + line);
}

std::string repairs_log_text(const InputRepairs& r) {
  std::string all;
  for (const std::string& l : r.log) all += l + "\n";
  return all;
}

// What a frame saw of the input the log is about: a click, Ctrl held, a key no frame had seen.
void repairs_log_frame(InputRepairs& r) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!(io.MouseDown[0] || io.MouseReleased[0] || io.KeyCtrl || !r.pressed_since_frame.empty())) return;
  repairs_log(r, std::string("frame ctrl=") + (io.KeyCtrl ? "1" : "0") + " down=" + (io.MouseDown[0] ? "1" : "0") +
                     " clicked=" + (io.MouseClicked[0] ? "1" : "0") + " at " + std::to_string(static_cast<int>(io.MousePos.x)) +
                     "," + std::to_string(static_cast<int>(io.MousePos.y)));
}

void repairs_wheel(InputRepairs& r, float dx_css, float dy_css, float dpr) {
  r.wheel_px.x += dx_css * dpr;
  r.wheel_px.y += dy_css * dpr;
}

void repairs_touch(InputRepairs& r, int phase, float x_css, float y_css, float dpr, double now_ms) {
  const ImVec2 p(x_css * dpr, y_css * dpr);
  TouchState& t = r.touch;
  if (phase == 0) {
    t = TouchState{};
    t.active = t.down = true;
    t.start_ms = now_ms;
    t.pos = t.start = t.last_applied = p;
  } else {
    t.pos = p;
    if (phase != 1) t.down = false;
  }
}

// Characters from the page's textarea (phone keyboards, IME): after any key no frame has seen.
void repairs_text(InputRepairs& r, const std::string& utf8) {
  if (!r.pressed_since_frame.empty()) flush(r);
  ImGui::GetIO().AddInputCharactersUTF8(utf8.c_str());
}

// 0: Backspace, 1: Enter (an on-screen keyboard sends no usable key codes): pressed and
// released over two frames, like a key from GLFW.
void repairs_key_tap(InputRepairs& r, int which) {
  const int key = which == 0 ? GLFW_KEY_BACKSPACE : GLFW_KEY_ENTER;
  before_key_press(r, key);
  ImGui_ImplGlfw_KeyCallback(r.window, key, 0, GLFW_PRESS, 0);
  r.pressed_since_frame.push_back(key);
  r.deferred_release.push_back(key);
}

}  // namespace dtx::web
