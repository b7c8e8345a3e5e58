// The engine's side of the page: the app, the browser's platform, the GLFW window, the input
// repairs and the frame loop's state, in one struct (main_web.cpp owns the one instance).
// The frame loop is main_web.cpp; what the page calls into is page_calls.cpp
// (web/bridge/calls.mjs declares those calls).
#pragma once

#include <cstdint>

#include "app.h"
#include "platform/input_repairs.h"
#include "platform/platform_web.h"

struct GLFWwindow;

namespace dtx::web {

// When the text layer was last built and what it showed (main_web.cpp, follow_text_layer).
struct TextLayerCadence {
  bool on = true;        // off only to measure what it costs: ?layer=0
  float scroll = -1;     // the page scroll the layer was last given, CSS pixels
  bool stale = false;    // a frame was drawn since the layer was last built
  double built_ms = 0;
  unsigned focus = 0;    // the keyboard focus when the layer was last built
  unsigned typing = 0;   // and the field being typed in
};

// Start milestones for `make bench` (performance marks, read back by scripts/bench-web.mjs).
struct StartMarks {
  bool fonts = false, index = false, outline = false, pack = false, screen = false;
};

struct WebPage {
  App app;
  WebPlatform platform;
  GLFWwindow* window = nullptr;
  InputRepairs input;
  int wake = 3;                // frames still to draw without new input
  uint64_t last_drawn = 0;     // digest of what the canvas shows (draw_data_hash)
  bool fonts_uploaded = false; // a new font texture: the next frame is drawn whatever its digest
  double last_caret_ms = 0;
  bool text_focus = false;     // the page's textarea has the focus (a field is typed in)
  bool first_frame_sent = false;
  TextLayerCadence layer;
  StartMarks marks;
};

WebPage& web_page();
// At least `frames` more frames, even without input.
void wake_frames(WebPage& page, int frames);
void draw_frame(WebPage& page);
void set_size(WebPage& page, float css_w, float css_h, float dpr);

}  // namespace dtx::web
