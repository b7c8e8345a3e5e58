#include "ui/maths_layout.h"

#include <algorithm>
#include <cmath>
#include <cfloat>

#include "imgui_internal.h"

namespace dtx::web {

std::vector<MathTraceEntry>* g_math_trace = nullptr;

namespace {

// Sizes of the three TeX styles: text, script (a superscript, an inline fraction's parts),
// scriptscript (a script of a script).
float level_scale(int level) { return level <= 0 ? 1.0f : level == 1 ? 0.78f : 0.62f; }

struct Ctx {
  MathFonts fonts;
  float base = 16;  // body text size
  bool display = false;
};

// How wide and how tall a glyph run's ink is at `size`.
void measure(ImFont* f, float size, const std::string& s, float* w, float* asc, float* desc) {
  const float scale = size / f->FontSize;
  *w = f->CalcTextSizeA(size, FLT_MAX, 0, s.c_str()).x;
  float top = FLT_MAX, bottom = -FLT_MAX;
  const char* p = s.c_str();
  const char* end = p + s.size();
  while (p < end) {
    unsigned int c = 0;
    int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c == ' ') continue;
    const ImFontGlyph* g = f->FindGlyph(static_cast<ImWchar>(c));
    if (!g || !g->Visible) continue;
    top = std::min(top, g->Y0);
    bottom = std::max(bottom, g->Y1);
  }
  if (top == FLT_MAX) {  // only spaces: no ink
    *asc = *desc = 0;
    return;
  }
  *asc = (f->Ascent - top) * scale;
  *desc = (bottom - f->Ascent) * scale;
}

void append(MathBox& into, const MathBox& b, float dx, float dy) {
  for (MathItem it : b.items) {
    it.at.x += dx;
    it.at.y += dy;
    it.to.x += dx;
    it.to.y += dy;
    into.items.push_back(std::move(it));
  }
}

MathBox glyphs(const std::string& text, ImFont* f, float size) {
  MathBox b;
  if (!f || text.empty()) return b;
  measure(f, size, text, &b.width, &b.ascent, &b.descent);
  MathItem it;
  it.kind = MathItem::Glyphs;
  it.text = text;
  it.font = f;
  it.size = size;
  b.items.push_back(it);
  return b;
}

MathBox line(ImVec2 a, ImVec2 z, float t) {
  MathBox b;
  MathItem it;
  it.kind = MathItem::Line;
  it.at = a;
  it.to = z;
  it.thickness = t;
  b.items.push_back(it);
  return b;
}

// The spacing class a laid-out node takes in its row.
MathNode::Class class_of(const MathNode& n) {
  switch (n.kind) {
    case MathNode::Symbol: return n.cls;
    case MathNode::Scripts: return n.kids[0].kind == MathNode::Row && n.kids[0].kids.empty() ? MathNode::Ord : class_of(n.kids[0]);
    case MathNode::Row: return n.kids.size() == 1 ? class_of(n.kids[0]) : MathNode::Ord;
    default: return MathNode::Ord;
  }
}

// TeX's spacing between atoms, in em: thin 3/18, medium 4/18 (around a binary operator),
// thick 5/18 (around a relation). Scripts drop the medium and thick spaces.
float gap_em(MathNode::Class prev, MathNode::Class cur, int level) {
  using C = MathNode::Class;
  const bool text_style = level == 0;
  if (cur == C::Rel && prev != C::Rel && prev != C::Open) return text_style ? 5 / 18.0f : 0;
  if (prev == C::Rel && cur != C::Rel && cur != C::Close && cur != C::Punct) return text_style ? 5 / 18.0f : 0;
  if (cur == C::Bin || prev == C::Bin) return text_style ? 4 / 18.0f : 0;
  if (prev == C::Punct) return text_style ? 3 / 18.0f : 0;
  if (cur == C::Func && (prev == C::Ord || prev == C::Var || prev == C::Num || prev == C::Close)) return 3 / 18.0f;
  if (prev == C::Func && (cur == C::Ord || cur == C::Var || cur == C::Num || cur == C::Func)) return 3 / 18.0f;
  return 0;
}

MathBox lay(const MathNode& n, const Ctx& cx, int level);

MathBox lay_row(const MathNode& r, const Ctx& cx, int level) {
  MathBox out;
  const float size = cx.base * level_scale(level);
  bool have_prev = false;
  MathNode::Class prev = MathNode::Ord;
  bool prev_italic = false;
  float x = 0;
  for (const MathNode& k : r.kids) {
    if (k.kind == MathNode::Space) {
      x += k.space_em * size;
      continue;
    }
    MathNode::Class c = class_of(k);
    // A binary operator with nothing to its left (or after another operator, a relation or
    // an opening bracket) is a sign: -x, (−1), a = −b.
    if (c == MathNode::Bin && (!have_prev || prev == MathNode::Bin || prev == MathNode::Rel ||
                               prev == MathNode::Open || prev == MathNode::Punct))
      c = MathNode::Ord;
    if (have_prev) x += gap_em(prev, c, level) * size;
    // An italic letter leans into an upright neighbour: a little room after it.
    if (prev_italic && c != MathNode::Var) x += 0.04f * size;
    MathBox b = lay(k, cx, level);
    append(out, b, x, 0);
    out.ascent = std::max(out.ascent, b.ascent);
    out.descent = std::max(out.descent, b.descent);
    x += b.width;
    prev = c;
    have_prev = true;
    prev_italic = k.kind == MathNode::Symbol && k.cls == MathNode::Var && !k.upright_capital;
  }
  // A trailing binary operator is a sign too, but nothing follows it to space from.
  out.width = x;
  return out;
}

MathBox lay_scripts(const MathNode& n, const Ctx& cx, int level) {
  const float s = cx.base * level_scale(level);
  MathBox base = lay(n.kids[0], cx, level);
  const bool simple_base = n.kids[0].kind == MathNode::Symbol;
  const int sl = std::min(level + 1, 2);
  MathBox sup, sub;
  if (n.has_sup) sup = lay(n.kids[1], cx, sl);
  if (n.has_sub) sub = lay(n.kids[2], cx, sl);
  // Raise a superscript to about half the base's height, higher over a tall base; lower a
  // subscript below the baseline, further under a deep base.
  float up = simple_base ? 0.42f * s : std::max(0.42f * s, base.ascent - 0.3f * s);
  float down = simple_base ? 0.2f * s : std::max(0.2f * s, base.descent + 0.1f * s);
  if (n.has_sup && n.has_sub) {
    // Keep at least a small gap between the two.
    float gap = (up - sup.descent) - (sub.ascent - down);
    float need = 0.12f * s;
    if (gap < need) {
      up += (need - gap) * 0.5f;
      down += (need - gap) * 0.5f;
    }
  }
  const bool italic_base = simple_base && n.kids[0].cls == MathNode::Var && !n.kids[0].upright_capital;
  MathBox out;
  append(out, base, 0, 0);
  out.ascent = base.ascent;
  out.descent = base.descent;
  float w = 0;
  if (n.has_sup) {
    float dx = base.width + (italic_base ? 0.06f * s : 0.02f * s);
    append(out, sup, dx, -up);
    out.ascent = std::max(out.ascent, up + sup.ascent);
    w = std::max(w, dx + sup.width);
  }
  if (n.has_sub) {
    float dx = base.width + 0.01f * s;
    append(out, sub, dx, down);
    out.descent = std::max(out.descent, down + sub.descent);
    w = std::max(w, dx + sub.width);
  }
  out.width = std::max(base.width, w) + 0.04f * s;
  return out;
}

float rule_thickness(float size) { return std::max(1.0f, std::round(size * 0.06f)); }

MathBox lay_frac(const MathNode& n, const Ctx& cx, int level) {
  const float s = cx.base * level_scale(level);
  // In running text a fraction's parts are script size (TeX's \textstyle fraction), which
  // keeps the line from growing much; $$...$$ keeps them at the size around them.
  const int pl = cx.display && level == 0 ? 0 : std::min(level + 1, 2);
  MathBox num = lay(n.kids[0], cx, pl), den = lay(n.kids[1], cx, pl);
  const float axis = 0.26f * s;  // the height of the minus sign's bar above the baseline
  const float t = rule_thickness(s);
  const float gap = (pl == level ? 0.16f : 0.1f) * s;
  const float pad = 0.12f * s;
  const float w = std::max(num.width, den.width) + 2 * pad;
  const float num_base = -(axis + t * 0.5f + gap + num.descent);
  const float den_base = -axis + t * 0.5f + gap + den.ascent;
  MathBox out;
  append(out, num, (w - num.width) * 0.5f, num_base);
  append(out, den, (w - den.width) * 0.5f, den_base);
  append(out, line(ImVec2(pad * 0.4f, -axis), ImVec2(w - pad * 0.4f, -axis), t), 0, 0);
  out.width = w;
  out.ascent = -num_base + num.ascent;
  out.descent = den_base + den.descent;
  return out;
}

MathBox lay_root(const MathNode& n, const Ctx& cx, int level) {
  const float s = cx.base * level_scale(level);
  MathBox rad = lay(n.kids[0], cx, level);
  const bool has_index = !(n.kids[1].kind == MathNode::Row && n.kids[1].kids.empty());
  MathBox idx;
  if (has_index) idx = lay(n.kids[1], cx, 2);
  const float t = rule_thickness(s);
  // The sign reaches from just under the radicand to a little above it, with the overbar.
  const float asc = std::max(rad.ascent, 0.7f * s) + 0.14f * s;
  const float desc = std::max(rad.descent, 0.0f) + 0.08f * s;
  const float top = -asc, bottom = desc;
  const float h = bottom - top;
  float x0 = 0;
  const float tick_y = top + h * 0.62f;
  if (has_index) x0 = std::max(0.0f, idx.width - 0.28f * s);
  MathBox out;
  ImVec2 p0(x0, tick_y + 0.04f * s), p1(x0 + 0.12f * s, tick_y - 0.04f * s), p2(x0 + 0.3f * s, bottom),
      p3(x0 + 0.52f * s, top + t * 0.5f);
  const float rad_x = x0 + 0.58f * s;
  ImVec2 p4(rad_x + rad.width + 0.08f * s, top + t * 0.5f);
  append(out, line(p0, p1, t), 0, 0);
  append(out, line(p1, p2, t * 1.5f), 0, 0);
  append(out, line(p2, p3, t), 0, 0);
  append(out, line(p3, p4, t), 0, 0);
  if (has_index) append(out, idx, x0 + 0.26f * s - idx.width, tick_y - 0.08f * s - idx.descent);
  append(out, rad, rad_x, 0);
  out.width = p4.x + 0.06f * s;
  out.ascent = std::max(asc, has_index ? -(tick_y - 0.08f * s - idx.descent) + idx.ascent : 0.0f);
  out.descent = desc;
  return out;
}

MathBox lay(const MathNode& n, const Ctx& cx, int level) {
  const float size = cx.base * level_scale(level);
  switch (n.kind) {
    case MathNode::Row: return lay_row(n, cx, level);
    case MathNode::Symbol: {
      bool italic = n.cls == MathNode::Var && !n.upright_capital;
      return glyphs(n.text, italic ? cx.fonts.italic : cx.fonts.upright, size);
    }
    case MathNode::Text: return glyphs(n.text, cx.fonts.upright, size);
    case MathNode::Scripts: return lay_scripts(n, cx, level);
    case MathNode::Frac: return lay_frac(n, cx, level);
    case MathNode::Root: return lay_root(n, cx, level);
    case MathNode::Space: {
      MathBox b;
      b.width = n.space_em * size;
      return b;
    }
  }
  return {};
}

}  // namespace

MathBox layout_math(const MathNode& root, const MathFonts& fonts, float size, bool display) {
  Ctx cx;
  cx.fonts = fonts;
  if (!cx.fonts.italic) cx.fonts.italic = cx.fonts.upright;
  cx.base = size;
  cx.display = display;
  if (!cx.fonts.upright) return {};
  return lay(root, cx, 0);
}

void draw_math(const MathBox& box, ImDrawList* dl, ImVec2 o, ImU32 col) {
  for (const MathItem& it : box.items) {
    if (it.kind == MathItem::Glyphs) {
      // Whole pixels: a glyph drawn between pixels is blurred by the atlas's filtering.
      float baseline = std::round(o.y + it.at.y);
      ImVec2 top(std::round(o.x + it.at.x), baseline - std::round(it.font->Ascent * it.size / it.font->FontSize));
      dl->AddText(it.font, it.size, top, col, it.text.c_str(), it.text.c_str() + it.text.size());
      if (g_math_trace) g_math_trace->push_back({it.text, it.size, top, baseline});
    } else {
      ImVec2 a(o.x + it.at.x, o.y + it.at.y), z(o.x + it.to.x, o.y + it.to.y);
      if (a.y == z.y) {
        // A horizontal rule on whole pixels, as a filled rectangle: crisp at any thickness.
        float y0 = std::round(a.y - it.thickness * 0.5f);
        dl->AddRectFilled(ImVec2(a.x, y0), ImVec2(z.x, y0 + it.thickness), col);
      } else {
        dl->AddLine(a, z, col, it.thickness);
      }
    }
  }
}

}  // namespace dtx::web
