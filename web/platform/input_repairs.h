// The repairs our pinned versions need to take a browser's input: Dear ImGui 1.86 polls keys
// once a frame, and Emscripten 3.1.6's GLFW doubles touches, flips the wheel and has no
// clipboard. Each repair is one section of input_repairs.cpp, saying what makes it go away
// upstream; docs/browser-repairs.md lists what a user saw without it. The page's half (the
// hidden textarea, the capture listeners) is web/shell/glue/input.js.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "imgui.h"

struct GLFWwindow;

namespace dtx::web {

// A finger on the canvas. Nothing is pressed until the finger says what it wants (the "touch
// slop" of native scroll views): a vertical move scrolls, wherever it starts, and never
// presses what was under it; a sideways move presses where it started and drags (sliders);
// lifting first is a tap; holding still presses and holds (a long press lifts an ordering
// row); a drag handle is pressed at once.
struct TouchState {
  enum Phase { Pending, Pressed, Scrolling, Tapped, Lifted } phase = Pending;
  bool active = false, down = false, long_press = false;
  int frames = 0;  // frames seen while pending (the hover under the finger needs one)
  double start_ms = 0;
  ImVec2 pos, start, last_applied;
};

struct InputRepairs {
  GLFWwindow* window = nullptr;
  // Keys pressed since the last frame, releases held back for a frame, releases due now, and
  // keys released since the last frame (no frame has seen them up yet).
  std::vector<int> pressed_since_frame, deferred_release, release_now, released_since_frame;
  TouchState touch;
  ImVec2 wheel_px{0, 0};  // wheel movement in physical pixels since the last frame
  std::string clipboard;  // the system clipboard's last paste, or what ImGui last copied
  // The last input events and what the frames after them saw, for a failing browser test.
  std::vector<std::string> log;
  int frame = 0;     // the frame the log lines are stamped with
  int flushing = 0;  // inside a frame drawn for input (draw_now)
  // Set by the frame loop: draw a frame now (input must not be merged with input no frame
  // saw), ask for `n` more frames, and keyboard moves (Tab, Escape) the app takes itself.
  std::function<void()> draw_now;
  std::function<void(int)> wake;
  std::function<bool(bool back)> tab;
  std::function<bool()> escape_field;
  std::function<void(const char*)> clipboard_to_system;
  bool (*is_drag_handle)(unsigned id) = nullptr;
};

// What the finger does this frame, for the app (touch targets, a long press lifting a row).
struct TouchFrame {
  bool pointer = false, long_press = false;
};

// GLFW's key and mouse callbacks (ahead of ImGui's) and ImGui's clipboard.
void repairs_install(InputRepairs& r, GLFWwindow* window);
// Before ImGui::NewFrame: the finger, the wheel and the held-back key releases.
TouchFrame repairs_before_frame(InputRepairs& r, float dpr, double now_ms);
// After the frame: another one is needed soon (a release due, a finger down).
bool repairs_want_frame(const InputRepairs& r);
void repairs_log(InputRepairs& r, std::string line);
std::string repairs_log_text(const InputRepairs& r);
void repairs_log_frame(InputRepairs& r);

// From the page (web/bridge/calls.mjs): CSS pixels, converted with the pixel ratio.
void repairs_wheel(InputRepairs& r, float dx_css, float dy_css, float dpr);
void repairs_touch(InputRepairs& r, int phase, float x_css, float y_css, float dpr, double now_ms);
void repairs_text(InputRepairs& r, const std::string& utf8);
void repairs_key_tap(InputRepairs& r, int which);

}  // namespace dtx::web
