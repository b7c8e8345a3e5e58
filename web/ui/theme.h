// Fonts, colours and sizes. Everything scales with the device pixel ratio (and the student's
// text-size setting): ImGui works in framebuffer pixels, so a 2x screen gets fonts
// rasterised at twice the size instead of blurry upscaled ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"

namespace dtx::web {

struct FontFiles {  // raw font files as fetched (empty until they arrive)
  std::string regular, semibold, italic, mono;
  bool complete() const { return !regular.empty() && !semibold.empty() && !italic.empty() && !mono.empty(); }
};

struct Fonts {
  ImFont* body = nullptr;
  ImFont* bold = nullptr;
  ImFont* italic = nullptr;
  ImFont* heading = nullptr;
  ImFont* mono = nullptr;
};

// Fills io.Fonts from the font files at `scale` (device pixels per CSS pixel times the text
// size setting). Without files (headless test) every slot is ImGui's built-in font.
Fonts build_fonts(const FontFiles& files, float scale);

// Resets the style to dtx's look at `scale`. With `min_target` (pixels; a finger's 44 CSS
// px), buttons, fields, headers and check boxes are at least that tall.
void apply_style(float scale, float min_target = 0);

// Every glyph the fonts carry (assets/glyph-ranges.txt), zero-terminated.
const ImWchar* glyph_ranges();
// The atlas: the "atlas" lines of that file, plus what note_text_glyphs() has found since.
const ImWchar* atlas_ranges();
// Notes the characters of `text` (UTF-8, and JSON's \uXXXX escapes) that the fonts carry but
// the atlas lacks; true when there were any: the atlas must be built again to show them.
bool note_text_glyphs(std::string_view text);
// The code points added to the atlas beyond its "atlas" lines (for tests and the state).
const std::vector<ImWchar>& atlas_extra_glyphs();

// A theme's colours: the light and the dark palette; apply_theme() picks the one in use, and
// everything that draws reads it each frame (color:: below). Every text colour has a
// WCAG 2.1 AA contrast of at least 4.5:1 on the backgrounds it is drawn on, and every chart
// colour at least 3:1 against the page (the headless-UI test measures both palettes).
struct Palette {
  ImU32 text, muted, accent, correct, partial, wrong;
  ImU32 preview;    // header of a pack opened for preview: amber, never a course chapter
  ImU32 code_bg, panel, page, border, highlight;
  ImU32 on_accent;  // text on the accent colour (primary buttons)
  // ImGui's own surfaces
  ImU32 button, button_hovered, button_active, frame, frame_hovered, frame_active;
  ImU32 header, header_hovered, header_active, table_header, table_row_alt;
  // code
  ImU32 code_text, keyword, number, string, comment, function;
  // charts: pipeline blocks (with white labels), idle time, what has not run yet
  ImU32 chart_f, chart_b, chart_w, idle, hatch, future;
  ImU32 level[5];  // hierarchy widget: GPU, server, rack, pod, cluster
  ImU32 level_text;  // labels drawn inside the GPU level
  ImU32 gpu_die, hbm, hbm_text;  // hierarchy widget: a GPU up close (die labelled in level_text)
  ImU32 bucket[4];   // plan widget: weights, gradients, optimizer state, activations
  float series_s, series_v;  // series_color(): saturation and value of its hues
};
const Palette& light_palette();
const Palette& dark_palette();

// Makes `dark` (or light) the palette in use: color:: reads it from now on, ImGui's style
// colours take it at the next apply_style().
void apply_theme(bool dark);
const Palette& palette();  // the one in use
bool theme_is_dark();

// The colours most drawing uses, read from the palette in use each time they are asked for.
namespace color {
inline ImU32 text() { return palette().text; }
inline ImU32 muted() { return palette().muted; }
inline ImU32 accent() { return palette().accent; }
inline ImU32 correct() { return palette().correct; }
inline ImU32 partial() { return palette().partial; }
inline ImU32 wrong() { return palette().wrong; }
inline ImU32 preview() { return palette().preview; }
inline ImU32 code_bg() { return palette().code_bg; }
inline ImU32 panel() { return palette().panel; }
inline ImU32 page() { return palette().page; }
inline ImU32 border() { return palette().border; }
inline ImU32 highlight() { return palette().highlight; }
inline ImU32 on_accent() { return palette().on_accent; }
}  // namespace color

// Colour `i` of `n` told apart by hue (ring widget's chunks): hues spread round the wheel,
// each at least 3:1 against the page and panels of the theme in use.
ImU32 series_color(int i, int n, float alpha = 1);

// WCAG 2.1 contrast ratio of two opaque colours (1..21).
double contrast_ratio(ImU32 a, ImU32 b);

}  // namespace dtx::web
