// Lays out a maths tree (engine/maths.h) as positioned glyphs and strokes, TeX-like:
// superscripts and subscripts smaller and raised or lowered, built-up fractions with a rule,
// a radical sign with an overbar, operator and relation spacing. Boxes are measured from the
// glyphs' own ink (ImFontGlyph Y0/Y1), so a fraction sits tight around its digits.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "maths.h"

namespace dtx::web {

struct MathFonts {
  ImFont* upright = nullptr;  // numbers, operators, function names, \text
  ImFont* italic = nullptr;   // variables
};

// One thing to draw. Coordinates are relative to the box's origin: x from its left edge, y
// from its baseline (negative is up).
struct MathItem {
  enum Kind { Glyphs, Line } kind = Glyphs;
  std::string text;
  ImFont* font = nullptr;
  float size = 0;      // Glyphs: font size in pixels
  ImVec2 at;           // Glyphs: left end of the baseline; Line: start
  ImVec2 to;           // Line: end
  float thickness = 1;
};

struct MathBox {
  float width = 0, ascent = 0, descent = 0;  // ink above and below the baseline
  std::vector<MathItem> items;
};

// `size` is the body text size; `display` keeps fractions at full size ($$...$$).
MathBox layout_math(const MathNode& root, const MathFonts& fonts, float size, bool display);

// Draws at `baseline_left` (the box's origin in screen coordinates).
void draw_math(const MathBox& box, ImDrawList* dl, ImVec2 baseline_left, ImU32 color);

// Every glyph run drawn by draw_math while set (headless tests check positions and sizes).
struct MathTraceEntry {
  std::string text;
  float size = 0;
  ImVec2 top_left;  // where AddText drew it
  float baseline = 0;
};
extern std::vector<MathTraceEntry>* g_math_trace;

}  // namespace dtx::web
