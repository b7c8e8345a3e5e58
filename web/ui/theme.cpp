#include "ui/theme.h"

#include "imgui_internal.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "text.h"

namespace dtx::web {

const ImWchar* glyph_ranges() {
  static const ImWchar ranges[] = {
#include "glyph_ranges.inc"
      0};
  return ranges;
}

namespace {

const ImWchar kAtlasCore[] = {
#include "atlas_ranges.inc"
    0};

bool in_ranges(const ImWchar* r, uint32_t cp) {
  for (; r[0]; r += 2)
    if (cp >= r[0] && cp <= r[1]) return true;
  return false;
}

std::vector<ImWchar> g_extra;         // sorted, beyond kAtlasCore
std::vector<ImWchar> g_atlas_ranges;  // kAtlasCore + g_extra, zero-terminated (ImGui keeps the pointer)

}  // namespace

const ImWchar* atlas_ranges() {
  g_atlas_ranges.assign(kAtlasCore, kAtlasCore + (sizeof kAtlasCore / sizeof kAtlasCore[0]) - 1);
  for (ImWchar c : g_extra) {
    g_atlas_ranges.push_back(c);
    g_atlas_ranges.push_back(c);
  }
  g_atlas_ranges.push_back(0);
  return g_atlas_ranges.data();
}

const std::vector<ImWchar>& atlas_extra_glyphs() { return g_extra; }

bool note_text_glyphs(std::string_view s) {
  bool added = false;
  auto note = [&](uint32_t cp) {
    // ImWchar is 16 bits: the list holds nothing above U+FFFF anyway.
    if (cp < 0x80 || cp > 0xFFFF || in_ranges(kAtlasCore, cp) || !in_ranges(glyph_ranges(), cp)) return;
    auto it = std::lower_bound(g_extra.begin(), g_extra.end(), static_cast<ImWchar>(cp));
    if (it != g_extra.end() && *it == cp) return;
    g_extra.insert(it, static_cast<ImWchar>(cp));
    added = true;
  };
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\\' && i + 5 < s.size() && s[i + 1] == 'u') {  // a JSON escape, \u00e9
      uint32_t cp = 0;
      bool hex = true;
      for (size_t k = i + 2; k < i + 6 && hex; ++k) {
        const char h = s[k];
        cp = cp * 16 + (h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : (hex = false, 0));
      }
      if (hex) note(cp);
      i += 2;
      continue;
    }
    note(utf8_decode(s, i));
  }
  return added;
}

namespace {

// ImGui keeps a pointer to the data: the atlas must not own (and free) our strings.
// `name` tells the text layer (ui/text_layer.cpp) which face a glyph it reads back is in.
ImFont* add(ImFontAtlas* atlas, const char* name, const std::string& data, float px, const ImWchar* ranges,
            bool merge = false) {
  ImFontConfig cfg;
  ImFormatString(cfg.Name, IM_ARRAYSIZE(cfg.Name), "%s", name);
  cfg.FontDataOwnedByAtlas = false;
  cfg.MergeMode = merge;
  // Oversampling sharpens small text at 1x; at 2x and above the pixels are already there,
  // and each oversample step multiplies the atlas size.
  cfg.OversampleH = px < 24 ? 2 : 1;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  return atlas->AddFontFromMemoryTTF(const_cast<char*>(data.data()), static_cast<int>(data.size()), px, &cfg,
                                     ranges);
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
  const ImWchar* ranges = atlas_ranges();
  // Inter lacks some maths symbols (∈ ∘ ∼ ≡ ⋯ ⌈ ⌉ ⌊ ⌋): JetBrains Mono fills them in.
  f.body = add(atlas, "Regular", files.regular, body, ranges);
  add(atlas, "Mono", files.mono, body, ranges, true);
  f.bold = add(atlas, "SemiBold", files.semibold, body, ranges);
  f.italic = add(atlas, "Italic", files.italic, body, ranges);
  add(atlas, "Mono", files.mono, body, ranges, true);
  f.heading = add(atlas, "SemiBold", files.semibold, heading, ranges);
  f.mono = add(atlas, "Mono", files.mono, mono, ranges);
  // JetBrains Mono lacks a few symbols (⁻ ₖ ₙ ∝): Inter fills them in.
  add(atlas, "Regular", files.regular, mono, ranges, true);
  atlas->Build();
  return f;
}

namespace {

constexpr ImU32 rgb(unsigned v) { return IM_COL32((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff, 0xff); }

Palette make_light() {
  Palette p{};
  p.text = rgb(0x1f2328);
  p.muted = rgb(0x5b636e);
  p.accent = rgb(0x1d5fd1);
  p.correct = rgb(0x1a7f37);
  p.partial = rgb(0x8a5c00);
  p.wrong = rgb(0xc22b2b);
  p.preview = rgb(0xfbe3a8);
  p.code_bg = rgb(0xf3f4f6);
  p.panel = rgb(0xffffff);
  p.page = rgb(0xf7f8fa);
  p.border = rgb(0x858d98);  // field and button edges: 3:1 on the page (WCAG 1.4.11)
  p.highlight = rgb(0xfff1c2);
  p.on_accent = rgb(0xffffff);
  p.button = rgb(0xe8edf5);
  p.button_hovered = rgb(0xd6e3f7);
  p.button_active = rgb(0xc2d6f5);
  p.frame = rgb(0xffffff);
  p.frame_hovered = rgb(0xedf2fc);
  p.frame_active = rgb(0xe5edfc);
  p.header = rgb(0xe0ebfc);
  p.header_hovered = rgb(0xd6e3fa);
  p.header_active = rgb(0xc7d9f7);
  p.table_header = rgb(0xedf0f5);
  p.table_row_alt = rgb(0xf7f9fc);
  p.code_text = rgb(0x24292f);
  p.keyword = rgb(0x9a1f98);
  p.number = rgb(0x855a00);
  p.string = rgb(0x2f7a2e);
  p.comment = rgb(0x5f6670);
  p.function = rgb(0x1f5fc8);
  p.chart_f = rgb(0x2f6fd6);
  p.chart_b = rgb(0xb4530a);
  p.chart_w = rgb(0x1e7a46);
  p.idle = rgb(0xf6dede);
  p.hatch = rgb(0xb86a6a);
  p.future = IM_COL32(0xff, 0xff, 0xff, 0xa8);
  p.level[0] = rgb(0x2f64c4);
  p.level[1] = rgb(0xc4d5ee);
  p.level[2] = rgb(0xd9e3f2);
  p.level[3] = rgb(0xe8eef7);
  p.level[4] = rgb(0xf4f6fa);
  p.level_text = rgb(0xffffff);
  p.gpu_die = rgb(0x1f2a44);
  p.hbm = rgb(0xf0c35a);
  p.hbm_text = rgb(0x1f2328);
  // Four hues that stay apart for the common colour-vision deficiencies, 3:1 on the page.
  p.bucket[0] = rgb(0x1d5fd1);
  p.bucket[1] = rgb(0x1f7a70);
  p.bucket[2] = rgb(0xb5650a);
  p.bucket[3] = rgb(0x8e44ad);
  p.series_s = 0.62f;
  p.series_v = 0.54f;  // dark enough for 3:1 on white at every hue (yellow is the lightest)
  return p;
}

Palette make_dark() {
  Palette p{};
  p.text = rgb(0xe6e8eb);
  p.muted = rgb(0xa3abb6);
  p.accent = rgb(0x78aeff);
  p.correct = rgb(0x57c983);
  p.partial = rgb(0xe3ac45);
  p.wrong = rgb(0xff8a85);
  p.preview = rgb(0x5c4714);
  p.code_bg = rgb(0x23272e);
  p.panel = rgb(0x1d2127);
  p.page = rgb(0x15181d);
  p.border = rgb(0x6b7380);
  p.highlight = rgb(0x4d4220);
  p.on_accent = rgb(0x0d1420);
  p.button = rgb(0x2a3039);
  p.button_hovered = rgb(0x343c48);
  p.button_active = rgb(0x3f4958);
  p.frame = rgb(0x1d2127);
  p.frame_hovered = rgb(0x262c35);
  p.frame_active = rgb(0x2c333e);
  p.header = rgb(0x1f2c42);
  p.header_hovered = rgb(0x27374f);
  p.header_active = rgb(0x2f415d);
  p.table_header = rgb(0x232831);
  p.table_row_alt = rgb(0x1a1e24);
  p.code_text = rgb(0xe6e8eb);
  p.keyword = rgb(0xd69cf5);
  p.number = rgb(0xe8bd6a);
  p.string = rgb(0x8fd18b);
  p.comment = rgb(0x9aa3ad);
  p.function = rgb(0x82b8ff);
  p.chart_f = rgb(0x2f6fd6);
  p.chart_b = rgb(0xb4530a);
  p.chart_w = rgb(0x1e7a46);
  p.idle = rgb(0x4a2b2e);
  p.hatch = rgb(0xb86a6a);
  p.future = IM_COL32(0x15, 0x18, 0x1d, 0xb0);
  p.level[0] = rgb(0x2f64c4);
  p.level[1] = rgb(0x2c3b55);
  p.level[2] = rgb(0x253248);
  p.level[3] = rgb(0x1f293b);
  p.level[4] = rgb(0x1a212e);
  p.level_text = rgb(0xffffff);
  p.gpu_die = rgb(0x1f2a44);
  p.hbm = rgb(0xf0c35a);
  p.hbm_text = rgb(0x1f2328);
  p.bucket[0] = rgb(0x5b8def);
  p.bucket[1] = rgb(0x3fb3a3);
  p.bucket[2] = rgb(0xf0a020);
  p.bucket[3] = rgb(0xb57fd6);
  p.series_s = 0.62f;
  p.series_v = 0.92f;  // light enough for 3:1 on the dark page at every hue (blue is the darkest)
  return p;
}

bool g_dark = false;
const Palette* g_palette = nullptr;
// Light until told otherwise: the colour variables are never read empty.
const bool g_light_at_start = (apply_theme(false), true);

ImVec4 v4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

double linear(unsigned c8) {
  double c = c8 / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double luminance(ImU32 c) {
  return 0.2126 * linear((c >> IM_COL32_R_SHIFT) & 0xff) + 0.7152 * linear((c >> IM_COL32_G_SHIFT) & 0xff) +
         0.0722 * linear((c >> IM_COL32_B_SHIFT) & 0xff);
}

}  // namespace

const Palette& light_palette() {
  static const Palette p = make_light();
  return p;
}
const Palette& dark_palette() {
  static const Palette p = make_dark();
  return p;
}

void apply_theme(bool dark) {
  g_dark = dark;
  g_palette = dark ? &dark_palette() : &light_palette();
}

const Palette& palette() {
  if (!g_palette) apply_theme(false);
  return *g_palette;
}
bool theme_is_dark() { return g_dark; }

ImU32 series_color(int i, int n, float alpha) {
  const Palette& p = palette();
  const float h = std::fmod(static_cast<float>(i) / static_cast<float>(std::max(n, 1)) + 0.58f, 1.0f);
  ImColor c = ImColor::HSV(h, p.series_s, p.series_v);
  c.Value.w = alpha;
  return c;
}

double contrast_ratio(ImU32 a, ImU32 b) {
  double la = luminance(a), lb = luminance(b);
  if (la < lb) std::swap(la, lb);
  return (la + 0.05) / (lb + 0.05);
}

void apply_style(float scale, float min_target) {
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
  const Palette& p = palette();
  if (theme_is_dark()) ImGui::StyleColorsDark(&s);  // popups, sliders, scrollbars not set below
  ImVec4* c = s.Colors;
  c[ImGuiCol_Text] = v4(p.text);
  c[ImGuiCol_TextDisabled] = v4(p.muted);
  c[ImGuiCol_WindowBg] = v4(p.page);
  c[ImGuiCol_ChildBg] = v4(p.panel);
  c[ImGuiCol_PopupBg] = v4(p.panel);
  c[ImGuiCol_Border] = v4(p.border);
  c[ImGuiCol_Separator] = v4(p.border);
  c[ImGuiCol_FrameBg] = v4(p.frame);
  c[ImGuiCol_FrameBgHovered] = v4(p.frame_hovered);
  c[ImGuiCol_FrameBgActive] = v4(p.frame_active);
  c[ImGuiCol_Button] = v4(p.button);
  c[ImGuiCol_ButtonHovered] = v4(p.button_hovered);
  c[ImGuiCol_ButtonActive] = v4(p.button_active);
  c[ImGuiCol_Header] = v4(p.header);
  c[ImGuiCol_HeaderHovered] = v4(p.header_hovered);
  c[ImGuiCol_HeaderActive] = v4(p.header_active);
  c[ImGuiCol_CheckMark] = v4(p.accent);
  c[ImGuiCol_SliderGrab] = v4(p.accent);
  c[ImGuiCol_SliderGrabActive] = v4(p.accent);
  c[ImGuiCol_PlotHistogram] = v4(p.correct);
  c[ImGuiCol_TableHeaderBg] = v4(p.table_header);
  c[ImGuiCol_TableRowBgAlt] = v4(p.table_row_alt);
  c[ImGuiCol_NavHighlight] = v4(p.accent);
  s.ScaleAllSizes(scale);
  // A frame is the font plus twice the vertical padding (the body font is 16 px at scale 1).
  const float font = std::round(16.0f * scale);
  if (min_target > 0) s.FramePadding.y = std::max(s.FramePadding.y, std::ceil((min_target - font) / 2));
}

}  // namespace dtx::web
