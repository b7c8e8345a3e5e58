// Fonts, colours and sizes. Everything scales with the device pixel ratio (and the student's
// text-size setting): ImGui works in framebuffer pixels, so a 2x screen gets fonts
// rasterised at twice the size instead of blurry upscaled ones.
#pragma once

#include <string>

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

// Resets the style to dtx's look at `scale`.
void apply_style(float scale);

// Glyph ranges for the atlas (assets/glyph-ranges.txt), zero-terminated.
const ImWchar* glyph_ranges();

namespace color {
constexpr ImU32 kText = IM_COL32(0x1f, 0x23, 0x28, 0xff);
constexpr ImU32 kMuted = IM_COL32(0x5b, 0x63, 0x6e, 0xff);
constexpr ImU32 kAccent = IM_COL32(0x1d, 0x5f, 0xd1, 0xff);
constexpr ImU32 kCorrect = IM_COL32(0x1a, 0x7f, 0x37, 0xff);
constexpr ImU32 kPartial = IM_COL32(0x9a, 0x67, 0x00, 0xff);
// Header of a pack opened for preview: amber, so it never passes for a course chapter.
constexpr ImU32 kPreview = IM_COL32(0xfb, 0xe3, 0xa8, 0xff);
constexpr ImU32 kWrong = IM_COL32(0xc2, 0x2b, 0x2b, 0xff);
constexpr ImU32 kCodeBg = IM_COL32(0xf3, 0xf4, 0xf6, 0xff);
constexpr ImU32 kPanel = IM_COL32(0xff, 0xff, 0xff, 0xff);
constexpr ImU32 kPage = IM_COL32(0xf7, 0xf8, 0xfa, 0xff);
constexpr ImU32 kBorder = IM_COL32(0xd5, 0xd9, 0xde, 0xff);
constexpr ImU32 kHighlight = IM_COL32(0xff, 0xf1, 0xc2, 0xff);
}  // namespace color

}  // namespace dtx::web
