#include "ui/text_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "platform/test_hook.h"
#include "text.h"
#include "ui/access.h"
#include "ui/keyboard.h"

namespace dtx::web {
namespace {

struct MdRunRec {
  std::string text;
  ImRect rect;  // screen pixels
  float font_px = 0;
  int font = 0;
  std::string url;
  std::string desc;  // a link's description (aria-description)
  int block = -1;
  bool in_page = false;
};

struct BlockRec {
  TextBlock kind = TextBlock::Para;
  int level = 0;
  std::string bullet;
  int table = -1, row = -1, col = -1;
};

struct Glyph {
  ImFont* font;
  const ImFontGlyph* glyph;
};

struct Frame {  // what one frame records for the layer; emptied by text_layer_begin_frame
  ImGuiWindow* page = nullptr;
  std::string page_name;
  ImRect page_clip;
  float page_scroll = 0, page_scroll_max = 0;
  std::vector<MdRunRec> runs;
  std::vector<BlockRec> blocks;
  struct Desc {
    std::string text;
    ImRect rect;
    bool in_page;
  };
  std::vector<Desc> descs;
  struct Image {
    std::string alt, note;
    ImRect rect;
    float line_y;
    bool in_page;
  };
  std::vector<Image> images;
  int open_block = -1;
  int tables = 0;
} recorded;  // what this frame drew into the page: runs, blocks, descriptions, images

// What the last built layer was, across frames.
struct LayerState {
  std::vector<DrawnRun> drawn;
  uint64_t last_hash = 0;
  int version = 0;
} g_layer;

// (U0, V0) of every glyph in the atlas -> its font and glyph. Rebuilt when the atlas changes.
struct GlyphsByUv {
  std::unordered_map<uint64_t, Glyph> map;
  ImTextureID tex = nullptr;
  int count = -1;
  uint64_t where = 0;
} g_uv;

uint64_t uv_key(float u, float v) {
  uint32_t a, b;
  std::memcpy(&a, &u, 4);
  std::memcpy(&b, &v, 4);
  return (static_cast<uint64_t>(a) << 32) | b;
}

void refresh_uv_map() {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  // The atlas is the same when its texture, its glyph count and where its glyphs live are
  // (a rebuilt atlas, after a text-size change, may get the old texture's name back from GL).
  int count = 0;
  uint64_t where = reinterpret_cast<uintptr_t>(atlas);
  for (ImFont* f : atlas->Fonts) {
    count += f->Glyphs.Size;
    where = where * 1099511628211ull ^ reinterpret_cast<uintptr_t>(f->Glyphs.Data);
  }
  if (atlas->TexID == g_uv.tex && count == g_uv.count && where == g_uv.where) return;
  g_uv.map.clear();
  g_uv.tex = atlas->TexID;
  g_uv.count = count;
  g_uv.where = where;
  for (ImFont* f : atlas->Fonts)
    for (const ImFontGlyph& gl : f->Glyphs)
      if (gl.Visible) g_uv.map.emplace(uv_key(gl.U0, gl.V0), Glyph{f, &gl});
}

// Rectangles looked up by the row bands they cross, so that thousands of glyphs each test a
// handful of rectangles instead of all of them.
class RectIndex {
 public:
  explicit RectIndex(float band) : band_(band) {}
  void add(const ImRect& r, int value) {
    rects_.push_back({r, value});
    for (int b = key(r.Min.y); b <= key(r.Max.y); ++b) bands_[b].push_back(static_cast<int>(rects_.size()) - 1);
  }
  // The value of the first rectangle holding p, or -1.
  int find(ImVec2 p) const {
    auto it = bands_.find(key(p.y));
    if (it == bands_.end()) return -1;
    for (int i : it->second)
      if (rects_[i].first.Contains(p)) return rects_[i].second;
    return -1;
  }

 private:
  int key(float y) const { return static_cast<int>(std::floor(y / band_)); }
  float band_;
  std::vector<std::pair<ImRect, int>> rects_;
  std::unordered_map<int, std::vector<int>> bands_;
};

struct GlyphRun {
  std::string text;
  ImRect rect;
  float font_px = 0;
  int font = 0;
  bool in_page = false;
  // while joining
  ImFont* imfont = nullptr;
  float scale = 1, next_pen = 0;
  int md = -1;    // the Markdown run its glyphs lie in
  int item = -1;  // the item (hook) they lie in
};

int font_class(ImFont* f) {
  // The atlas holds body, bold, italic, heading and mono (ui/theme.cpp build_fonts); the
  // layer only needs to know monospace from proportional, and bold or italic for the eye of
  // a selection. Font names from the config say which.
  const char* n = f && f->ConfigData ? f->ConfigData->Name : "";
  if (std::strstr(n, "Mono")) return 3;
  if (std::strstr(n, "Italic")) return 2;
  if (std::strstr(n, "SemiBold") || std::strstr(n, "Bold")) return 1;
  return 0;
}

double r2(float v) { return std::round(static_cast<double>(v) * 100.0) / 100.0; }

}  // namespace

void text_layer_begin_frame() {
  access_begin_frame();
  recorded.page = nullptr;
  recorded.page_name.clear();
  recorded.runs.clear();
  recorded.blocks.clear();
  recorded.descs.clear();
  recorded.images.clear();
  recorded.open_block = -1;
  recorded.tables = 0;
}

void text_layer_set_page(ImGuiWindow* page) {
  recorded.page = page;
  recorded.page_name = page ? page->Name : "";
  recorded.page_clip = page ? page->InnerClipRect : ImRect();
  recorded.page_scroll = page ? page->Scroll.y : 0;
  recorded.page_scroll_max = page ? page->ScrollMax.y : 0;
}

static bool current_in_page() {
  ImGuiWindow* w = ImGui::GetCurrentWindowRead();
  if (!w || recorded.page_name.empty()) return false;
  return std::strncmp(w->Name, recorded.page_name.c_str(), recorded.page_name.size()) == 0;
}

void text_layer_begin_block(TextBlock kind, int level, const std::string& bullet, int table, int row, int col) {
  BlockRec b;
  b.kind = kind;
  b.level = level;
  b.bullet = bullet;
  b.table = table;
  b.row = row;
  b.col = col;
  recorded.blocks.push_back(std::move(b));
  recorded.open_block = static_cast<int>(recorded.blocks.size()) - 1;
}

void text_layer_end_block() { recorded.open_block = -1; }

void heading_text(const std::string& text, int level, float wrap_width) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const char* s = text.c_str();
  const char* end = s + text.size();
  text_layer_begin_block(TextBlock::Heading, level);
  while (s < end) {
    // One line at a time (as TextWrapped would break it), each reported where it is drawn.
    const char* stop = wrap_width > 0 ? font->CalcWordWrapPositionA(size / font->FontSize, s, end, wrap_width) : end;
    if (stop == s) stop = s + 1;
    const char* line_end = stop;
    while (line_end > s && line_end[-1] == ' ') --line_end;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::TextUnformatted(s, line_end);
    const float w = ImGui::CalcTextSize(s, line_end).x;
    text_layer_report_run(std::string(s, line_end), ImRect(p, ImVec2(p.x + w, p.y + size)), font, "");
    s = stop;
    while (s < end && (*s == ' ' || *s == '\n')) ++s;
  }
  text_layer_end_block();
}

int text_layer_new_table() { return recorded.tables++; }

void text_layer_image(const std::string& alt, const std::string& note, ImRect rect, float line_y) {
  recorded.images.push_back({alt, note, rect, line_y, current_in_page()});
}

void text_layer_description(const std::string& text, ImRect rect) {
  if (!text.empty()) recorded.descs.push_back({text, rect, current_in_page()});
}

void text_layer_report_run(const std::string& text, ImRect rect, ImFont* imfont, const std::string& url, bool math,
                           const std::string& desc) {
  if (text.empty() || !imfont) return;
  const float font_px = imfont->FontSize;
  const int font = math ? 4 : font_class(imfont);
  const bool in_page = current_in_page();
  // Pieces of one line in one style join into one run (a line of a paragraph is one span).
  if (!recorded.runs.empty()) {
    MdRunRec& last = recorded.runs.back();
    if (last.block == recorded.open_block && last.font == font && font != 4 && last.url == url && last.desc == desc && last.in_page == in_page &&
        std::fabs(last.rect.Min.y - rect.Min.y) < 0.5f && std::fabs(last.font_px - font_px) < 0.01f &&
        rect.Min.x >= last.rect.Max.x - 0.5f && rect.Min.x - last.rect.Max.x < font_px * 0.6f) {
      last.text += ' ';
      last.text += text;
      last.rect.Max.x = rect.Max.x;
      return;
    }
  }
  MdRunRec r;
  r.text = text;
  r.rect = rect;
  r.font_px = font_px;
  r.font = font;
  r.url = url;
  r.desc = desc;
  r.block = recorded.open_block;
  r.in_page = in_page;
  recorded.runs.push_back(std::move(r));
}

const std::vector<DrawnRun>& text_layer_drawn_runs() { return g_layer.drawn; }

namespace {

// ---- 1. Glyphs read back from the draw data, joined into runs along their baselines.

// The runs of one draw list as they are drawn: `drawn` (every glyph, Markdown's too: the
// alignment test reads them, and they break where Markdown's runs do, so the test can pair
// them) and `cur` (the glyphs Markdown did not report, for the layer).
struct GlyphJoiner {
  GlyphJoiner(std::vector<GlyphRun>& runs, bool page) : glyph_runs(runs), in_page(page) {}
  std::vector<GlyphRun>& glyph_runs;
  bool in_page;
  GlyphRun cur, drawn;
  bool open = false, drawn_open = false;

  void close() {
    if (open && !cur.text.empty()) glyph_runs.push_back(cur);
    open = false;
  }
  void close_drawn() {
    if (drawn_open && !drawn.text.empty()) g_layer.drawn.push_back({drawn.text, drawn.rect});
    drawn_open = false;
  }
  // One glyph at `pen` (its origin) and `top`, drawn `scale` times its atlas size, in the
  // Markdown run `md` and the item `item` it lies in (-1: none).
  void add(ImFont* font, const ImFontGlyph& gl, float pen, float top, float scale, int md, int item) {
    for (int pass = 0; pass < 2; ++pass) {
      GlyphRun& r = pass == 0 ? drawn : cur;
      bool& is_open = pass == 0 ? drawn_open : open;
      if (pass == 1 && md >= 0) {
        close();  // Markdown reported these words already
        continue;
      }
      bool joins = is_open && r.imfont == font && std::fabs(r.scale - scale) < 1e-3f && std::fabs(r.rect.Min.y - top) < 0.5f &&
                   r.item == item && (pass == 1 || r.md == md);
      int spaces = 0;
      if (joins) {
        const float gap = pen - r.next_pen;
        const ImFontGlyph* sp = font->FindGlyphNoFallback(' ');
        const float space = (sp ? sp->AdvanceX : font->FontSize * 0.25f) * scale;
        if (gap < -0.5f || gap > space * 4.5f) joins = false;
        else if (gap > space * 0.5f) spaces = std::max(1, static_cast<int>(std::lround(gap / space)));
      }
      if (!joins) {
        if (pass == 0) close_drawn();
        else close();
        r = GlyphRun();
        r.imfont = font;
        r.scale = scale;
        r.font_px = font->FontSize * scale;
        r.font = font_class(font);
        r.in_page = in_page;
        r.rect = ImRect(pen, top, pen, top + r.font_px);
        r.md = md;
        r.item = item;
        is_open = true;
      }
      r.text.append(static_cast<size_t>(spaces), ' ');
      append_utf8(r.text, gl.Codepoint);
      r.next_pen = pen + gl.AdvanceX * scale;
      r.rect.Max.x = r.next_pen;
    }
  }
};

// The glyph a quad (vertices v0 and v2 of its two triangles) draws, or null: its top-left
// texture corner is a glyph's, and its far corner lies inside the glyph's (a glyph cut at the
// right or bottom by a clip rectangle keeps its top-left corner: ImGui clips text on the CPU,
// as a small button's descenders are).
const Glyph* glyph_of(const ImDrawVert& v0, const ImDrawVert& v2) {
  auto it = g_uv.map.find(uv_key(v0.uv.x, v0.uv.y));
  const ImFontGlyph* cand = it != g_uv.map.end() ? it->second.glyph : nullptr;
  if (cand && v2.uv.x > cand->U0 && v2.uv.x <= cand->U1 && v2.uv.y > cand->V0 && v2.uv.y <= cand->V1) return &it->second;
  return nullptr;
}

// The glyphs of one draw command: each textured quad (six indices a, a+1, a+2, a, a+2, a+3)
// of the atlas whose centre its clip rectangle shows.
// Whether the Markdown run or image `md` (md_index's numbering: runs, then images) is the page's.
bool md_in_page(int md) {
  const size_t i = static_cast<size_t>(md);
  return i < recorded.runs.size() ? recorded.runs[i].in_page : recorded.images[i - recorded.runs.size()].in_page;
}

// Whether the hook item `item` (item_index's numbering) is in the page's window or one inside it.
bool item_in_page(int item) {
  const std::string& w = hook_frame().items[static_cast<size_t>(item)].window;
  return !recorded.page_name.empty() && w.compare(0, recorded.page_name.size(), recorded.page_name) == 0;
}

void read_command(const ImDrawList* dl, const ImDrawCmd& cmd, const RectIndex& md_index, const RectIndex& item_index,
                  GlyphJoiner& join) {
  const ImDrawIdx* idx = dl->IdxBuffer.Data + cmd.IdxOffset;
  const ImDrawVert* vtx = dl->VtxBuffer.Data + cmd.VtxOffset;
  const unsigned n = cmd.ElemCount;
  unsigned i = 0;
  while (i + 3 <= n) {
    const unsigned a = idx[i];
    const bool quad = i + 6 <= n && idx[i + 1] == a + 1 && idx[i + 2] == a + 2 && idx[i + 3] == a && idx[i + 4] == a + 2 &&
                      idx[i + 5] == a + 3;
    const Glyph* g = quad ? glyph_of(vtx[a], vtx[a + 2]) : nullptr;
    if (!g) {
      i += 3;
      continue;
    }
    const ImDrawVert& v0 = vtx[a];
    const ImDrawVert& v2 = vtx[a + 2];
    const ImFontGlyph& gl = *g->glyph;
    const float shown_w = (gl.X1 - gl.X0) * (v2.uv.x - gl.U0) / (gl.U1 - gl.U0);
    const float scale = shown_w > 0 ? (v2.pos.x - v0.pos.x) / shown_w : 1.0f;
    const ImVec2 centre((v0.pos.x + v2.pos.x) * 0.5f, (v0.pos.y + v2.pos.y) * 0.5f);
    const bool shown = cmd.ClipRect.x <= centre.x && centre.x <= cmd.ClipRect.z && cmd.ClipRect.y <= centre.y &&
                       centre.y <= cmd.ClipRect.w;
    // (labels of two buttons are two runs: the item a glyph lies in is part of its run)
    // A Markdown run reported these words only if it is in the same layer: a popover's glyphs
    // over the page's prose are the popover's.
    int md = md_index.find(centre), item = item_index.find(centre);
    if (!join.in_page && md >= 0 && md_in_page(md)) md = -1;
    if (!join.in_page && item >= 0 && item_in_page(item)) item = -1;
    if (shown) join.add(g->font, gl, v0.pos.x - gl.X0 * scale, v0.pos.y - gl.Y0 * scale, scale, md, item);
    i += 6;
  }
}

// Every glyph of the frame into runs: the layer's (those Markdown did not report) in
// `glyph_runs`, every drawn one in g_layer.drawn.
std::vector<GlyphRun> read_glyph_runs(const ImDrawData* dd, const RectIndex& md_index, const RectIndex& item_index) {
  std::vector<GlyphRun> glyph_runs;
  g_layer.drawn.clear();
  const ImTextureID atlas_tex = ImGui::GetIO().Fonts->TexID;
  for (int li = 0; dd && li < dd->CmdListsCount; ++li) {
    const ImDrawList* dl = dd->CmdLists[li];
    const bool in_page = !recorded.page_name.empty() && dl->_OwnerName &&
                         std::strncmp(dl->_OwnerName, recorded.page_name.c_str(), recorded.page_name.size()) == 0;
    GlyphJoiner join(glyph_runs, in_page);
    for (const ImDrawCmd& cmd : dl->CmdBuffer)
      if (!cmd.UserCallback && cmd.TextureId == atlas_tex) read_command(dl, cmd, md_index, item_index, join);
    join.close();
    join.close_drawn();
  }
  return glyph_runs;
}

// ---- 2. The layer's elements: controls, Markdown blocks with their lines, the other runs,
// descriptions and images, each in page or screen coordinates, in CSS pixels.

struct El {
  bool in_page;
  float y, x;
  nlohmann::json j;
};

struct LayerElements {
  LayerElements(float d, float s, const RectIndex& items) : dpr(d), scroll(s), item_index(items) {}
  float dpr, scroll;
  const RectIndex& item_index;
  std::vector<El> els;
  RectIndex ctl_index{64};

  nlohmann::json place(const ImRect& r, bool in_page) const {
    ImVec2 o = in_page ? ImVec2(recorded.page_clip.Min.x, recorded.page_clip.Min.y - scroll) : ImVec2(0, 0);
    return nlohmann::json::array({r2((r.Min.x - o.x) / dpr), r2((r.Min.y - o.y) / dpr), r2(r.GetWidth() / dpr),
                                  r2(r.GetHeight() / dpr)});
  }
  bool inside_item(const ImRect& r) const { return item_index.find(r.GetCenter()) >= 0; }
  void push(bool in_page, float y, float x, nlohmann::json j) {
    els.push_back({in_page, y + (in_page ? scroll : 0), x, std::move(j)});
  }
  // A line inside a control becomes its content.
  // A control in the same layer only: a popover's button over the page's prose is not
  // where that prose's words belong.
  bool into_control(nlohmann::json& line, const ImRect& r, bool in_page) {
    const int ci = ctl_index.find(r.GetCenter());
    if (ci < 0 || (in_page && !els[static_cast<size_t>(ci)].in_page)) return false;
    line.erase("i");
    els[static_cast<size_t>(ci)].j["lines"].push_back(std::move(line));
    return true;
  }
  nlohmann::json line_of(const std::string& text, const ImRect& r, bool in_page, float font_px, int font) const {
    return {{"t", text}, {"r", place(r, in_page)}, {"fs", r2(font_px / dpr)}, {"f", font}};
  }
};

// A focusable item's accessibility note, completed from what the hooks saw: its role (a text
// field, a checkbox, an expander or a button when nobody said), state and name.
Access access_of(const FocusItem& fi, const HookItem* seen) {
  const Access* note = access_find(fi.id);
  Access a = note ? *note : Access();
  const ImGuiItemStatusFlags st = seen ? seen->status : 0;
  if (a.role == Role::Auto) {
    if (fi.text_field || hook_is_text_field(fi.id)) a.role = Role::Textbox;
    else if (st & ImGuiItemStatusFlags_Checkable) a.role = Role::Checkbox;
    else if (st & ImGuiItemStatusFlags_Openable) a.role = Role::Expander;
    else a.role = Role::Button;
  }
  if (a.checked < 0 && a.role == Role::Checkbox) a.checked = (st & ImGuiItemStatusFlags_Checked) ? 1 : 0;
  if (a.checked < 0 && a.role == Role::Expander) a.checked = (st & ImGuiItemStatusFlags_Opened) ? 1 : 0;
  if (a.name.empty() && seen) a.name = seen->label;
  while (!a.name.empty() && a.name.back() == ' ') a.name.pop_back();
  return a;
}

// The element of a control: role, name, state, value, and where it is.
nlohmann::json control_element(const LayerElements& L, const FocusItem& fi, const HookItem* seen, const Access& a, bool in_page) {
  nlohmann::json c = {{"k", "ctl"},       {"id", fi.id}, {"role", access_role_name(a.role)}, {"name", a.name},
                      {"page", in_page}, {"r", L.place(fi.rect, in_page)}, {"lines", nlohmann::json::array()}};
  if (seen) c["key"] = seen->key;
  if (!a.desc.empty()) c["desc"] = a.desc;
  if (!a.group.empty()) c["group"] = a.group;
  if (a.role == Role::Row) c["kind"] = "row";
  if (a.heading > 0) c["heading"] = a.heading;
  if (a.role == Role::Textarea) c["multi"] = 1;
  if (a.role == Role::Link && !a.href.empty()) c["href"] = a.href;
  if (a.role == Role::Expander && a.checked == 0 && !a.hidden_words.empty()) {
    c["uf"] = a.hidden_words;
    c["ufh"] = a.href;
  }
  if (a.checked >= 0) {
    const char* state = a.role == Role::Checkbox || a.role == Role::Radio ? "checked"
                        : a.role == Role::Expander                        ? "expanded"
                                                                          : "pressed";
    c[state] = a.checked != 0;
  }
  if (a.role == Role::Textbox || a.role == Role::Textarea) {
    c["vt"] = a.value_text;
    if (!a.placeholder.empty()) c["ph"] = a.placeholder;
  }
  if (a.has_value) {
    c["vnow"] = a.value;
    c["vmin"] = a.min;
    c["vmax"] = a.max;
    if (!a.value_text.empty()) c["vt"] = a.value_text;
  }
  return c;
}

// Controls: every item the keyboard reaches (also scrolled out of view), with its role, name
// and state; the words drawn inside one are its content (a button's label, an option's text).
// Returns the focused control's id when it is listed (0 otherwise).
ImGuiID add_controls(LayerElements& L, const HookFrame& hf) {
  const ImGuiID focus = keyboard_focus_id();
  ImGuiID focus_listed = 0;
  for (const FocusItem& fi : hf.focusables) {
    const HookItem* seen = hook_last_seen(fi.id);
    const Access a = access_of(fi, seen);
    if (a.name.empty()) continue;  // never drawn and never described: nothing to call it yet
    const bool in_page = !recorded.page_name.empty() && fi.window &&
                         std::strncmp(fi.window->Name, recorded.page_name.c_str(), recorded.page_name.size()) == 0;
    if (fi.id == focus) focus_listed = focus;
    L.ctl_index.add(fi.rect, static_cast<int>(L.els.size()));
    L.push(in_page, fi.rect.Min.y, fi.rect.Min.x, control_element(L, fi, seen, a, in_page));
  }
  return focus_listed;
}

// A Markdown block's element (paragraph, heading, list item, code, table cell), lines to come.
nlohmann::json block_element(const BlockRec* b, bool in_page) {
  nlohmann::json e;
  static const char* kKinds[] = {"p", "h", "li", "pre", "cell"};
  e["k"] = b ? kKinds[static_cast<int>(b->kind)] : "p";
  if (b && b->kind == TextBlock::Heading) e["level"] = b->level;
  if (b && !b->bullet.empty()) e["bullet"] = b->bullet;
  if (b && b->kind == TextBlock::Cell) e["cell"] = {b->table, b->row, b->col};
  e["page"] = in_page;
  e["lines"] = nlohmann::json::array();
  return e;
}

// Markdown's runs, each a line of its block (a block goes where its first line is) or the
// content of the control it lies in.
void add_markdown_runs(LayerElements& L) {
  std::vector<int> block_el(recorded.blocks.size(), -1);
  for (const MdRunRec& r : recorded.runs) {
    nlohmann::json line = L.line_of(r.text, r.rect, r.in_page, r.font_px, r.font);
    if (!r.desc.empty()) line["d"] = r.desc;
    if (!r.url.empty()) line["a"] = r.url;  // a link takes its own clicks (its words are its hook item)
    else if (L.inside_item(r.rect)) line["i"] = 1;
    if (r.url.empty() && L.into_control(line, r.rect, r.in_page)) continue;
    const int bi = r.block;
    int ei = bi >= 0 ? block_el[static_cast<size_t>(bi)] : -1;
    if (ei < 0) {
      const BlockRec* b = bi >= 0 ? &recorded.blocks[static_cast<size_t>(bi)] : nullptr;
      L.push(r.in_page, r.rect.Min.y, r.rect.Min.x, block_element(b, r.in_page));
      ei = static_cast<int>(L.els.size()) - 1;
      if (bi >= 0) block_el[static_cast<size_t>(bi)] = ei;
    }
    L.els[static_cast<size_t>(ei)].j["lines"].push_back(std::move(line));
  }
}

// The other drawn runs, each an element of its own unless it lies in a control. A widget's
// drawn labels (GPU names, figures on bars) are what its description says in order: a screen
// reader hears the description once, not the labels in the order they lie on the canvas
// (they stay for selection and find).
void add_glyph_runs(LayerElements& L, const std::vector<GlyphRun>& glyph_runs) {
  auto described = [&](const GlyphRun& r) {
    return std::any_of(recorded.descs.begin(), recorded.descs.end(),
                       [&](const Frame::Desc& d) { return d.in_page == r.in_page && d.rect.Contains(r.rect.GetCenter()); });
  };
  for (const GlyphRun& r : glyph_runs) {
    nlohmann::json line = L.line_of(r.text, r.rect, r.in_page, r.font_px, r.font);
    if (L.inside_item(r.rect)) line["i"] = 1;
    if (L.into_control(line, r.rect, r.in_page)) continue;
    nlohmann::json e = {{"k", "text"}, {"page", r.in_page}, {"lines", nlohmann::json::array({std::move(line)})}};
    if (described(r)) e["ah"] = 1;
    L.push(r.in_page, r.rect.Min.y, r.rect.Min.x, std::move(e));
  }
}

// Widgets' descriptions and pictures' alt texts.
void add_descriptions_and_images(LayerElements& L) {
  for (const auto& d : recorded.descs)
    L.push(d.in_page, d.rect.Min.y, d.rect.Min.x - 1,
           {{"k", "desc"}, {"t", d.text}, {"page", d.in_page}, {"r", L.place(d.rect, d.in_page)}, {"lines", nlohmann::json::array()}});
  for (const auto& im : recorded.images) {
    nlohmann::json e = {{"k", "img"}, {"t", im.alt}, {"page", im.in_page}, {"r", L.place(im.rect, im.in_page)},
                        {"lines", nlohmann::json::array()}};
    if (!im.note.empty()) e["d"] = im.note;
    L.push(im.in_page, im.line_y, im.rect.Min.x, std::move(e));
  }
}

// ---- 3. The layer's JSON: the elements in reading order, the page's frame and the focus.

// Reading order: what sits outside the page (the top bar) first, then top to bottom, left
// to right. Counts the lines into `runs`.
nlohmann::json layer_json(std::vector<El>& els, float dpr, ImGuiID focus_listed, int* runs) {
  std::stable_sort(els.begin(), els.end(), [](const El& a, const El& b) {
    if (a.in_page != b.in_page) return !a.in_page;
    if (std::fabs(a.y - b.y) > 1.0f) return a.y < b.y;
    return a.x < b.x;
  });
  nlohmann::json list = nlohmann::json::array();
  *runs = 0;
  for (El& e : els) {
    *runs += static_cast<int>(e.j["lines"].size());
    list.push_back(std::move(e.j));
  }
  nlohmann::json layer;
  layer["els"] = std::move(list);
  layer["page"] = {r2(recorded.page_clip.Min.x / dpr), r2(recorded.page_clip.Min.y / dpr), r2(recorded.page_clip.GetWidth() / dpr),
                   r2(recorded.page_clip.GetHeight() / dpr)};
  layer["height"] = r2((recorded.page_scroll_max + recorded.page_clip.GetHeight()) / dpr);
  // The control with the keyboard's focus (DOM focus follows it), and the field being typed in.
  layer["focus"] = focus_listed;
  layer["typing"] = ImGui::GetIO().WantTextInput ? GImGui->ActiveId : 0;
  return layer;
}

}  // namespace

TextLayerUpdate text_layer_build(const ImDrawData* dd, float dpr) {
  TextLayerUpdate out;
  if (dpr <= 0) dpr = 1;
  refresh_uv_map();
  // Markdown runs and the items the hooks saw, looked up by position; an image's frame of
  // words is its element's (numbered after the runs).
  RectIndex md_index(64);
  for (size_t i = 0; i < recorded.runs.size(); ++i) md_index.add(recorded.runs[i].rect, static_cast<int>(i));
  for (size_t i = 0; i < recorded.images.size(); ++i) md_index.add(recorded.images[i].rect, static_cast<int>(recorded.runs.size() + i));
  RectIndex item_index(64);
  const HookFrame& hf = hook_frame();
  for (size_t i = 0; i < hf.items.size(); ++i) item_index.add(ImRect(hf.items[i].min, hf.items[i].max), static_cast<int>(i));

  const std::vector<GlyphRun> glyph_runs = read_glyph_runs(dd, md_index, item_index);
  LayerElements L(dpr, recorded.page_scroll, item_index);
  const ImGuiID focus_listed = add_controls(L, hf);
  add_markdown_runs(L);
  add_glyph_runs(L, glyph_runs);
  add_descriptions_and_images(L);
  int runs = 0;
  nlohmann::json layer = layer_json(L.els, dpr, focus_listed, &runs);

  // Sent only when it changed: a hash of its text against the last one sent.
  std::string body = layer.dump();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : body) h = (h ^ c) * 1099511628211ull;
  out.runs = runs;
  out.scroll_css = L.scroll / dpr;
  if (h != g_layer.last_hash) {
    g_layer.last_hash = h;
    layer["v"] = ++g_layer.version;
    out.changed = true;
    out.json = layer.dump();
  }
  return out;
}

}  // namespace dtx::web
