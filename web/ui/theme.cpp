#include "ui/theme.h"

#include <cmath>

namespace dtx::web {

const ImWchar* glyph_ranges() {
  static const ImWchar ranges[] = {
#include "glyph_ranges.inc"
      0};
  return ranges;
}

namespace {

// ImGui keeps a pointer to the data: the atlas must not own (and free) our strings.
ImFont* add(ImFontAtlas* atlas, const std::string& data, float px, bool merge = false) {
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;
  cfg.MergeMode = merge;
  // Oversampling sharpens small text at 1x; at 2x and above the pixels are already there,
  // and each oversample step multiplies the atlas size.
  cfg.OversampleH = px < 24 ? 2 : 1;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  return atlas->AddFontFromMemoryTTF(const_cast<char*>(data.data()), static_cast<int>(data.size()), px, &cfg,
                                     glyph_ranges());
}

}  // namespace

Fonts build_fonts(const FontFiles& files, float scale) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  Fonts f;
  if (!files.complete()) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(13.0f * scale);
    f.body = f.bold = f.italic = f.heading = f.mono = atlas->AddFontDefault(&cfg);
    atlas->Build();
    return f;
  }
  const float body = std::round(16.0f * scale), heading = std::round(22.0f * scale), mono = std::round(15.0f * scale);
  // Inter lacks some maths symbols (∈ ∘ ∼ ≡ ⋯ ⌈ ⌉ ⌊ ⌋): JetBrains Mono fills them in.
  f.body = add(atlas, files.regular, body);
  add(atlas, files.mono, body, true);
  f.bold = add(atlas, files.semibold, body);
  f.italic = add(atlas, files.italic, body);
  add(atlas, files.mono, body, true);
  f.heading = add(atlas, files.semibold, heading);
  f.mono = add(atlas, files.mono, mono);
  // JetBrains Mono lacks a few symbols (⁻ ₖ ₙ ∝): Inter fills them in.
  add(atlas, files.regular, mono, true);
  atlas->Build();
  return f;
}

void apply_style(float scale) {
  ImGuiStyle& s = ImGui::GetStyle();
  s = ImGuiStyle();
  ImGui::StyleColorsLight(&s);
  s.WindowPadding = ImVec2(16, 12);
  s.FramePadding = ImVec2(10, 6);
  s.ItemSpacing = ImVec2(10, 8);
  s.ItemInnerSpacing = ImVec2(8, 6);
  s.ScrollbarSize = 14;
  s.GrabMinSize = 14;
  s.FrameRounding = 5;
  s.ChildRounding = 6;
  s.WindowRounding = 0;
  s.PopupRounding = 6;
  s.ScrollbarRounding = 6;
  s.GrabRounding = 4;
  s.FrameBorderSize = 1;
  s.WindowBorderSize = 0;
  s.ChildBorderSize = 1;
  s.TouchExtraPadding = ImVec2(0, 0);
  ImVec4* c = s.Colors;
  c[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(color::kText);
  c[ImGuiCol_TextDisabled] = ImGui::ColorConvertU32ToFloat4(color::kMuted);
  c[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(color::kPage);
  c[ImGuiCol_ChildBg] = ImVec4(1, 1, 1, 1);
  c[ImGuiCol_Border] = ImGui::ColorConvertU32ToFloat4(color::kBorder);
  c[ImGuiCol_FrameBg] = ImVec4(1, 1, 1, 1);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.93f, 0.95f, 0.99f, 1);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.90f, 0.93f, 0.99f, 1);
  c[ImGuiCol_Button] = ImVec4(0.91f, 0.93f, 0.96f, 1);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.84f, 0.89f, 0.97f, 1);
  c[ImGuiCol_ButtonActive] = ImVec4(0.76f, 0.84f, 0.96f, 1);
  c[ImGuiCol_Header] = ImVec4(0.88f, 0.92f, 0.99f, 1);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.84f, 0.89f, 0.98f, 1);
  c[ImGuiCol_HeaderActive] = ImVec4(0.78f, 0.85f, 0.97f, 1);
  c[ImGuiCol_CheckMark] = ImGui::ColorConvertU32ToFloat4(color::kAccent);
  c[ImGuiCol_PlotHistogram] = ImGui::ColorConvertU32ToFloat4(color::kCorrect);
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.93f, 0.94f, 0.96f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(0.97f, 0.98f, 0.99f, 1);
  s.ScaleAllSizes(scale);
}

}  // namespace dtx::web
