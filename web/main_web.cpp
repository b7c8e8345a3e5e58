// The browser entry point and the frame loop: GLFW's window on the canvas, ImGui with the
// OpenGL3 (WebGL 2) backend, and a frame drawn only when something changed (input, loading,
// a running widget, the caret). The DOM half is web/shell/glue/; the calls between the two are
// web/bridge/calls.mjs (their C++ bodies: page_calls.cpp); the input repairs our ImGui and
// GLFW versions need are platform/input_repairs.cpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include "bridge.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "platform/test_hook.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "web_page.h"

namespace dtx::web {
namespace {

WebPage g_page;  // the one page: GLFW's and Emscripten's callbacks carry no context

void rebuild_fonts(WebPage& page) {
  App& app = page.app;
  app.ui.fonts = build_fonts(app.font_files, app.ui.dpr * app.settings.text_scale);
  app_apply_style(app);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  page.fonts_uploaded = true;
  app.fonts_dirty = false;
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

// The loading line gives way once the course map (or a linked exercise) can be drawn with its
// fonts; packs still on their way are shown loading in the map itself.
bool first_screen_ready(const App& app) {
  return app.screen != Screen::Loading && !app.fonts_dirty && app.font_requests.empty();
}

// Before a frame: fonts rebuilt when they changed, the start marks, and the packs that arrived
// (a frame's worth at a time, one or two at ~30 ms each: the map is drawn with the first
// chapters while the others load).
void take_in_arrivals(WebPage& page) {
  App& app = page.app;
  StartMarks& marks = page.marks;
  if (app.fonts_dirty) {
    const bool first = !marks.fonts && app.font_files.complete();
    if (first) to_page::mark("dtx:fonts-in");
    rebuild_fonts(page);
    if (first) to_page::mark("dtx:fonts-built"), marks.fonts = true;
  }
  if (!marks.index && app.load.index_loaded) to_page::mark("dtx:index-in"), marks.index = true;
  if (!marks.outline && app.load.outline_done) to_page::mark("dtx:outline-in"), marks.outline = true;
  const double t = emscripten_get_now();
  if (app_load_arrived_packs(app, 20.0)) {
    // each stretch of pack parsing, for the bench's start breakdown
    to_page::measure("dtx:packs-parsed", t, emscripten_get_now());
    if (!marks.pack) to_page::mark("dtx:first-pack-in"), marks.pack = true;
  }
}

// ImGui's frame: the input repairs (touch, wheel, keys), the keyboard's focus, the app.
void build_ui(WebPage& page) {
  App& app = page.app;
  hook_begin_frame();
  text_layer_begin_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  page.input.frame = app.frame;
  const TouchFrame touch = repairs_before_frame(page.input, app.ui.dpr, page.platform.now_ms());
  app.touch_pointer = touch.pointer;
  app.touch_long_press = touch.long_press;
  if (keyboard_before_frame()) app.submit_requested = true;
  ImGui::NewFrame();
  repairs_log_frame(page.input);
  app_frame(app);
  ImGui::Render();
}

// The GL work, skipped for a frame that would draw exactly what the canvas shows (a wake for
// a key that changed nothing, the frames that let ImGui settle after a hover): WebGL keeps
// showing the last drawn buffer when a frame draws nothing, and the GL work is most of a
// frame's cost (two thirds of the browser's CPU per frame with software GL). `mark_screen`:
// this is the first frame that shows a screen with a pack in.
void render(WebPage& page, bool mark_screen) {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(page.window, &fw, &fh);
  uint64_t drawn = draw_data_hash(ImGui::GetDrawData(), fw, fh, color::page());
  if (drawn == page.last_drawn && !page.fonts_uploaded) return;
  page.last_drawn = drawn;
  page.fonts_uploaded = false;
  glViewport(0, 0, fw, fh);
  ImVec4 bg = ImGui::ColorConvertU32ToFloat4(color::page());
  glClearColor(bg.x, bg.y, bg.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (mark_screen) to_page::mark("dtx:first-screen-drawn"), page.marks.screen = true;
  ++page.app.stats.frames_drawn;
  page.layer.stale = true;
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
void follow_text_layer(WebPage& page) {
  App& app = page.app;
  TextLayerCadence& layer = page.layer;
  app.stats.layer_ms = 0;
  const ImGuiID typing = ImGui::GetIO().WantTextInput ? GImGui->ActiveId : 0;
  const bool focus_moved = keyboard_focus_id() != layer.focus || typing != layer.typing;
  if (!layer.on || !(layer.stale || focus_moved)) return;
  double t = emscripten_get_now();
  const bool starting = !app.load.library_ready;
  if (starting && layer.built_ms == 0) layer.built_ms = t;  // counts from the first frame
  // The first screen (the map, or a linked exercise with every pack in) is shown before the
  // layer is built, at the next frame.
  const bool first_screen = !page.first_frame_sent;
  const bool due = !(app.widgets.widget_animating || starting) || t - layer.built_ms >= 1000 || focus_moved;
  if (!due || first_screen) {
    wake_frames(page, 1);  // a frame soon builds it
    return;
  }
  layer.stale = false;
  layer.focus = keyboard_focus_id();
  layer.typing = typing;
  layer.built_ms = t;
  TextLayerUpdate up = text_layer_build(ImGui::GetDrawData(), app.ui.dpr);
  if (up.changed) to_page::text_layer(up.json, up.scroll_css);
  else if (std::fabs(up.scroll_css - layer.scroll) > 0.01f) to_page::layer_scroll(up.scroll_css);
  layer.scroll = up.scroll_css;
  app.stats.layer_runs = up.runs;
  app.stats.layer_ms = emscripten_get_now() - t;
}

// After a frame: the page told whether a field is being typed in, that the first screen is up
// (and, the frame after, the packs the outline stood in for asked for: each goes in within a
// frame's budget as it arrives; opening one of them asks first), and whether another frame is
// needed soon.
void after_frame(WebPage& page) {
  const bool want = ImGui::GetIO().WantTextInput;
  if (want != page.text_focus) {
    page.text_focus = want;
    to_page::text_focus(want);
  }
  if (!page.first_frame_sent && first_screen_ready(page.app)) {
    page.first_frame_sent = true;
    to_page::first_frame();
  } else if (page.first_frame_sent && !page.app.load.prefetch_started) {
    app_prefetch_packs(page.app);
  }
  if (repairs_want_frame(page.input)) wake_frames(page, 1);
}

void loop() {
  WebPage& page = g_page;
  // The caret blinks about twice a second while a field is being edited.
  const double now = page.platform.now_ms();
  const bool caret = ImGui::GetIO().WantTextInput && now - page.last_caret_ms > 500;
  if (page.wake <= 0 && !app_busy(page.app) && !caret) return;
  if (caret) page.last_caret_ms = now;
  draw_frame(page);
}

// GLFW's window on the canvas, ImGui on it, and the input repairs in front of ImGui's callbacks.
bool open_window(WebPage& page) {
  if (!glfwInit()) return false;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  page.app.ui.dpr = static_cast<float>(to_page::device_pixel_ratio());
  const int w = static_cast<int>(std::lround(to_page::css_width() * page.app.ui.dpr));
  const int h = static_cast<int>(std::lround(to_page::css_height() * page.app.ui.dpr));
  page.window = glfwCreateWindow(std::max(w, 1), std::max(h, 1), "dtx", nullptr, nullptr);
  if (!page.window) return false;
  glfwMakeContextCurrent(page.window);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  GImGui->TestEngineHookItems = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // nothing to save: layout is fixed, progress goes to localStorage
  io.LogFilename = nullptr;
  keyboard_init();
  ImGui_ImplGlfw_InitForOpenGL(page.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  InputRepairs& input = page.input;
  input.wake = [&page](int frames) { wake_frames(page, frames); };
  input.tab = [](bool back) { return keyboard_tab(back); };
  input.escape_field = [] { return keyboard_escape_field(); };
  input.clipboard_to_system = [](const char* text) { to_page::clipboard_set(text); };
  input.is_drag_handle = is_draggable;
  repairs_install(input, page.window);
  return true;
}

}  // namespace

WebPage& web_page() { return g_page; }

void wake_frames(WebPage& page, int frames) { page.wake = std::max(page.wake, frames); }

void set_size(WebPage& page, float css_w, float css_h, float dpr) {
  page.app.ui.dpr = dpr;
  const int w = static_cast<int>(std::lround(css_w * dpr)), h = static_cast<int>(std::lround(css_h * dpr));
  glfwSetWindowSize(page.window, std::max(w, 1), std::max(h, 1));
}

// One frame, as a table of contents: what arrived, the UI, the GL work, the text layer, the
// app's and the keyboard's after-frame work, then what the page is told.
void draw_frame(WebPage& page) {
  App& app = page.app;
  // CPU time of a whole frame (input, ImGui, GL submission, test-hook state), reported in
  // the next frame's state so the bench can check animation stays cheap.
  const double frame_start = emscripten_get_now();
  if (page.wake > 0) --page.wake;
  take_in_arrivals(page);
  // Until the first screen can be shown (its fonts and its pack in), the loading line covers
  // the canvas: a frame would draw nothing anyone sees, and its GL work (software GL builds its
  // pipelines at the first draw, ~100 ms) held the main thread while the packs' bytes waited to
  // be read. Such frames only take in what arrived (above).
  if (!page.first_frame_sent && !first_screen_ready(app)) return;
  build_ui(page);
  const double ui_end = emscripten_get_now();
  // The first frame that shows a screen with a pack in: when its layout is done, and when its
  // GL work is handed over (the browser waits for software GL there, in the first frame).
  const bool mark_screen = !page.marks.screen && app.screen != Screen::Loading && first_screen_ready(app);
  if (mark_screen) to_page::mark("dtx:first-screen-laid-out");
  render(page, mark_screen);
  follow_text_layer(page);
  const double gl_end = emscripten_get_now();
  app_after_frame(app);
  keyboard_after_frame();
  const double hook_end = emscripten_get_now();
  after_frame(page);
  app.stats.frame_cpu_ms = emscripten_get_now() - frame_start;
  app.stats.frame_parts_ms[0] = ui_end - frame_start;
  app.stats.frame_parts_ms[1] = gl_end - ui_end;
  app.stats.frame_parts_ms[2] = hook_end - gl_end;
}

}  // namespace dtx::web

int main() {
  using namespace dtx::web;
  WebPage& page = web_page();
  if (!open_window(page)) return 1;
  if (auto s = page.platform.storage_get("dtx.text-scale")) {
    const float v = static_cast<float>(std::atof(s->c_str()));
    if (v >= 0.75f && v <= 2.0f) page.app.settings.text_scale = v;
  }
  app_init(page.app, &page.platform);
  rebuild_fonts(page);  // the built-in font until Inter and JetBrains Mono arrive
  page.app.fonts_dirty = false;
  // The shaders now, not in the first frame's NewFrame: there their status query waited for
  // the GPU process to finish uploading the new font atlas (66 ms with software GL), while
  // here it costs 10 ms and the atlas upload later overlaps with loading the first pack.
  ImGui_ImplOpenGL3_CreateDeviceObjects();
  to_page::ready();
  // From here input may draw a frame of its own (input_repairs.cpp, flush).
  page.input.draw_now = [&page] { draw_frame(page); };
  emscripten_set_main_loop(loop, 0, false);
  return 0;
}
