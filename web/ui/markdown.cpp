#include "ui/markdown.h"

#include <cstring>
#include <unordered_map>

#include "imgui_internal.h"
#include "markdown_links.h"
#include "search.h"
#include "md4c.h"
#include "ui/images.h"
#include "ui/maths_layout.h"
#include "ui/text_layer.h"

namespace dtx::web {
namespace {

struct ListLevel {
  bool ordered = false;
  int next = 1;
};

struct Parser {
  MdDoc doc;
  std::vector<ListLevel> lists;
  std::string pending_bullet;
  bool in_quote = false;
  unsigned style = 0;
  std::vector<std::string> urls;
  MdBlock* current = nullptr;  // the block receiving inline text
  bool in_code = false;
  // $maths$: md4c hands its source over in pieces, kept here until the span ends
  bool in_math = false;
  std::string math_src;
  // tables
  bool in_table = false, in_head = false;
  std::vector<MdRun>* cell = nullptr;
  // ![alt](src): md4c hands the alt over as text inside the span (an image inside the alt of
  // another is only words of that alt)
  int in_image = 0;
  std::string image_alt, image_src;

  MdBlock& open(MdBlock::Kind k) {
    doc.blocks.push_back({});
    MdBlock& b = doc.blocks.back();
    b.kind = k;
    b.indent = static_cast<int>(lists.size());
    b.quote = in_quote;
    b.bullet = pending_bullet;
    pending_bullet.clear();
    current = &b;
    return b;
  }

  void text(const std::string& t) {
    if (in_code) {
      if (current) current->code += t;
      return;
    }
    std::vector<MdRun>* runs = cell;
    if (!runs) {
      if (!current || current->kind == MdBlock::Code || current->kind == MdBlock::Table) open(MdBlock::Para);
      runs = &current->runs;
    }
    if (!runs->empty() && runs->back().style == style && runs->back().url == (urls.empty() ? "" : urls.back()))
      runs->back().text += t;
    else
      runs->push_back({t, style, urls.empty() ? "" : urls.back(), nullptr, ""});
  }

  // A maths span is a run of its own: it is laid out as one box and never merged.
  void math(bool display) {
    std::vector<MdRun>* runs = cell;
    if (!runs) {
      if (!current || current->kind == MdBlock::Code || current->kind == MdBlock::Table) open(MdBlock::Para);
      runs = &current->runs;
    }
    MdRun r;
    r.text = math_src;
    r.style = (style & ~static_cast<unsigned>(kBold | kItalic)) | kMath | (display ? static_cast<unsigned>(kMathDisplay) : 0u);
    r.url = urls.empty() ? "" : urls.back();
    if (auto node = parse_math(math_src, nullptr)) r.math = std::make_shared<const MathNode>(std::move(*node));
    runs->push_back(std::move(r));
  }

  // An image is a run of its own, laid out as one box (a link around it still opens).
  void image() {
    std::vector<MdRun>* runs = cell;
    if (!runs) {
      if (!current || current->kind == MdBlock::Code || current->kind == MdBlock::Table) open(MdBlock::Para);
      runs = &current->runs;
    }
    MdRun r;
    r.text = image_alt;
    r.style = (style & static_cast<unsigned>(kLink)) | kImage;
    r.url = urls.empty() ? "" : urls.back();
    r.image = image_src;
    runs->push_back(std::move(r));
  }
};

std::string decode_entity(const std::string& e) {
  static const std::unordered_map<std::string, std::string> named = {
      {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&nbsp;", " "},
      {"&times;", "×"}, {"&minus;", "−"}, {"&rarr;", "→"}, {"&asymp;", "≈"}, {"&le;", "≤"}, {"&ge;", "≥"}};
  auto it = named.find(e);
  if (it != named.end()) return it->second;
  if (e.size() > 3 && e[1] == '#') {
    unsigned long cp = e[2] == 'x' || e[2] == 'X' ? std::strtoul(e.c_str() + 3, nullptr, 16) : std::strtoul(e.c_str() + 2, nullptr, 10);
    std::string out;
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    return out;
  }
  return e;
}

// An attribute (a link's destination) as the browser will get it: md4c has resolved
// backslash escapes and leaves character references to us.
std::string attribute_text(const MD_ATTRIBUTE& a) {
  std::string out;
  if (!a.substr_offsets) return std::string(a.text, a.size);
  for (size_t i = 0; a.substr_offsets[i] < a.size; ++i) {
    std::string piece(a.text + a.substr_offsets[i], a.substr_offsets[i + 1] - a.substr_offsets[i]);
    if (a.substr_types[i] == MD_TEXT_ENTITY) out += decode_entity(piece);
    else if (a.substr_types[i] == MD_TEXT_NULLCHAR) out += "\xEF\xBF\xBD";
    else out += piece;
  }
  return out;
}

int enter_block(MD_BLOCKTYPE type, void* detail, void* ud) {
  auto& p = *static_cast<Parser*>(ud);
  switch (type) {
    case MD_BLOCK_UL: p.current = nullptr; p.lists.push_back({false, 1}); break;
    case MD_BLOCK_OL:
      p.current = nullptr;
      p.lists.push_back({true, static_cast<int>(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start)});
      break;
    case MD_BLOCK_LI: {
      p.current = nullptr;
      ListLevel& l = p.lists.back();
      p.pending_bullet = l.ordered ? std::to_string(l.next++) + "." : "•";
      break;
    }
    case MD_BLOCK_QUOTE: p.in_quote = true; p.current = nullptr; break;
    case MD_BLOCK_HR: p.open(MdBlock::Rule); p.current = nullptr; break;
    case MD_BLOCK_H: p.open(MdBlock::Heading).level = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level); break;
    case MD_BLOCK_CODE: p.open(MdBlock::Code); p.in_code = true; break;
    case MD_BLOCK_P: if (!p.in_table) p.open(MdBlock::Para); break;
    case MD_BLOCK_TABLE: p.open(MdBlock::Table); p.in_table = true; break;
    case MD_BLOCK_THEAD: p.in_head = true; break;
    case MD_BLOCK_TR: p.current->rows.push_back({}); if (p.in_head) p.current->header_rows++; break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: p.current->rows.back().push_back({}); p.cell = &p.current->rows.back().back(); break;
    default: break;
  }
  return 0;
}

int leave_block(MD_BLOCKTYPE type, void*, void* ud) {
  auto& p = *static_cast<Parser*>(ud);
  switch (type) {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL: p.lists.pop_back(); p.current = nullptr; break;
    case MD_BLOCK_LI: p.current = nullptr; p.pending_bullet.clear(); break;
    case MD_BLOCK_QUOTE: p.in_quote = false; p.current = nullptr; break;
    case MD_BLOCK_CODE:
      p.in_code = false;
      if (p.current && !p.current->code.empty() && p.current->code.back() == '\n') p.current->code.pop_back();
      p.current = nullptr;
      break;
    case MD_BLOCK_H:
    case MD_BLOCK_P: if (!p.in_table) p.current = nullptr; break;
    case MD_BLOCK_THEAD: p.in_head = false; break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: p.cell = nullptr; break;
    case MD_BLOCK_TABLE: p.in_table = false; p.current = nullptr; break;
    default: break;
  }
  return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* ud) {
  auto& p = *static_cast<Parser*>(ud);
  switch (type) {
    case MD_SPAN_EM: p.style |= kItalic; break;
    case MD_SPAN_STRONG: p.style |= kBold; break;
    case MD_SPAN_CODE: p.style |= kCode; break;
    case MD_SPAN_A: {
      // A link another scheme than http, https or mailto (javascript:, data:, file:...) is
      // pushed as "": its text is drawn as plain text and nothing opens it. `dtx lint`
      // reports it to the author (engine/markdown_links.h).
      std::string href = attribute_text(static_cast<MD_SPAN_A_DETAIL*>(detail)->href);
      p.urls.push_back(link_scheme_allowed(href) ? href : std::string());
      if (p.urls.back().empty()) p.style &= ~kLink;
      else p.style |= kLink;
      break;
    }
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
      p.in_math = true;
      p.math_src.clear();
      break;
    case MD_SPAN_IMG:
      if (p.in_image++ == 0) {
        p.image_alt.clear();
        p.image_src = attribute_text(static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src);
      }
      break;
    default: break;
  }
  return 0;
}

int leave_span(MD_SPANTYPE type, void*, void* ud) {
  auto& p = *static_cast<Parser*>(ud);
  switch (type) {
    case MD_SPAN_EM: p.style &= ~kItalic; break;
    case MD_SPAN_STRONG: p.style &= ~kBold; break;
    case MD_SPAN_CODE: p.style &= ~kCode; break;
    case MD_SPAN_A:
      if (!p.urls.empty()) p.urls.pop_back();
      if (p.urls.empty() || p.urls.back().empty()) p.style &= ~kLink;
      break;
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
      p.in_math = false;
      if (p.in_image) p.image_alt += p.math_src;  // maths in an alt text: its source, as words
      else p.math(type == MD_SPAN_LATEXMATH_DISPLAY);
      break;
    case MD_SPAN_IMG:
      if (p.in_image > 0 && --p.in_image == 0) p.image();
      break;
    default: break;
  }
  return 0;
}

int on_text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* ud) {
  auto& p = *static_cast<Parser*>(ud);
  std::string t(text, size);
  if (p.in_math) {
    p.math_src += type == MD_TEXT_NULLCHAR ? "\xEF\xBF\xBD" : t;
    return 0;
  }
  if (p.in_image) {
    if (type == MD_TEXT_SOFTBR || type == MD_TEXT_BR) p.image_alt += ' ';
    else if (type == MD_TEXT_ENTITY) p.image_alt += decode_entity(t);
    else if (type != MD_TEXT_NULLCHAR) p.image_alt += t;
    return 0;
  }
  switch (type) {
    case MD_TEXT_SOFTBR: p.text(" "); break;
    case MD_TEXT_BR: p.text("\n"); break;
    case MD_TEXT_ENTITY: p.text(decode_entity(t)); break;
    case MD_TEXT_NULLCHAR: break;
    default: p.text(t); break;
  }
  return 0;
}

ImFont* font_for(unsigned style, const Fonts& f) {
  if (style & kCode) return f.mono;
  if (style & kBold) return f.bold;
  if (style & kItalic) return f.italic;
  return f.body;
}

// Length in bytes of the UTF-8 sequence starting with `c`.
int utf8_len(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

}  // namespace

MdDoc parse_markdown(const std::string& text) {
  Parser p;
  MD_PARSER parser{};
  parser.abi_version = 0;
  parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTML | MD_FLAG_LATEXMATHSPANS;
  parser.enter_block = enter_block;
  parser.leave_block = leave_block;
  parser.enter_span = enter_span;
  parser.leave_span = leave_span;
  parser.text = on_text;
  md_parse(text.data(), static_cast<MD_SIZE>(text.size()), &parser, &p);
  return std::move(p.doc);
}

namespace {

struct ImageBox;

// One unit of a line: a word with its trailing spaces, a code span, a maths box, an image or a
// break.
struct Token {
  const MdRun* run = nullptr;
  const char* s = nullptr;
  const char* t = nullptr;
  float w = 0;      // width of s..t (a maths box's width)
  float extra = 0;  // a code span's padding
  bool newline = false;
  bool glued = false;  // text right after maths with no space ("$x$,"): never starts a line
  const MathBox* box = nullptr;
  const ImageBox* image = nullptr;
  float x = 0;
  int line = 0;
};

MathFonts math_fonts(const Fonts& f) { return {f.body, f.italic ? f.italic : f.body}; }

// An image on a line: the picture at the size it is drawn, or, while it loads or when it
// failed, a frame as wide as its words holding the alt text and why the picture is missing.
// Its bottom sits on the baseline (a frame reaches a little below, as text does).
struct ImageBox {
  PackImage* img = nullptr;
  ImVec2 size;           // device pixels
  bool picture = false;  // the picture itself, else the frame
  float descent = 0;     // how far below the baseline the box reaches
  float pad = 0;
  std::string words, reason;
};

ImageBox image_box(const MdRun& run, float width, const MdStyle& st) {
  const Fonts& f = *st.fonts;
  ImageBox b;
  b.img = &st.images->get(st.image_base, run.image);
  if (b.img->state == PackImage::State::Loaded) {
    b.size = st.images->size_for(*b.img, width, st.dpr);
    b.picture = b.size.x > 0;
    if (b.picture) return b;
  }
  ImFont* font = f.body;
  b.pad = std::round(font->FontSize * 0.3f);
  b.words = run.text.empty() ? "Image" : run.text;
  if (b.img->state == PackImage::State::Failed) b.reason = b.img->reason;
  const float inner = std::max(width - 2 * b.pad, font->FontSize);
  ImVec2 words = font->CalcTextSizeA(font->FontSize, FLT_MAX, inner, b.words.c_str());
  float w = words.x, h = words.y;
  if (!b.reason.empty()) {
    ImVec2 why = font->CalcTextSizeA(font->FontSize, FLT_MAX, inner, b.reason.c_str());
    w = std::max(w, why.x);
    h += why.y;
  }
  b.size = ImVec2(std::min(width, std::ceil(w) + 2 * b.pad), std::ceil(h) + 2 * b.pad);
  b.descent = -font->Descent + b.pad * 0.5f;
  return b;
}

// Draws an image's box with its top-left at p0 in a column `width` wide, and puts it in the
// text layer (in reading order where its line's words start, `line_y`).
void draw_image(const ImageBox& b, const MdRun& run, ImVec2 p0, float width, float line_y, const MdStyle& st) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + b.size.x, p0.y + b.size.y);
  std::string note;
  if (b.picture) {
    if (unsigned tex = st.images->texture_for(*b.img, b.size))
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), p0, p1);
    else
      dl->AddRect(p0, p1, color::border());  // it failed just now: the next frame says why
  } else {
    ImFont* font = st.fonts->body;
    const float inner = std::max(b.size.x - 2 * b.pad, font->FontSize);
    dl->AddRect(p0, p1, color::border(), b.pad * 0.5f);
    ImVec2 at(p0.x + b.pad, p0.y + b.pad);
    dl->AddText(font, font->FontSize, at, b.reason.empty() ? color::muted() : st.text_color, b.words.c_str(), nullptr, inner);
    if (!b.reason.empty()) {
      at.y += font->CalcTextSizeA(font->FontSize, FLT_MAX, inner, b.words.c_str()).y;
      dl->AddText(font, font->FontSize, at, color::muted(), b.reason.c_str(), nullptr, inner);
      note = b.reason;
    } else {
      note = "loading";
    }
  }
  st.images->note_drawn(*b.img, b.size, run.text, width);
  text_layer_image(run.text, note, ImRect(p0, p1), line_y);
  if ((run.style & kLink) && st.open_link && ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(p0, p1)) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (ImGui::IsMouseClicked(0)) st.open_link(run.url);
  }
}

}  // namespace

float prose_width(const Fonts& f) {
  ImFont* b = f.body;
  if (!b) return FLT_MAX;
  const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz ";
  return b->CalcTextSizeA(b->FontSize, FLT_MAX, 0, kAlphabet).x / 27.0f * 75.0f;
}

namespace {

// 1. Tokens: each image and maths box is one, text is cut into words (with the spaces after
// them), code into lines; a newline is a token of its own.
void text_tokens(const MdRun& run, ImFont* font, bool as_code, float pad, bool& after_math, std::vector<Token>& toks) {
  const char* s = run.text.data();
  const char* end = s + run.text.size();
  while (s < end) {
    Token k;
    k.run = &run;
    if (*s == '\n') {
      k.newline = true;
      toks.push_back(k);
      ++s;
      after_math = false;
      continue;
    }
    const char* t = s;
    if (as_code) {
      while (t < end && *t != '\n') ++t;
    } else {
      while (t < end && *t != ' ' && *t != '\n') t += utf8_len(static_cast<unsigned char>(*t));
      while (t < end && *t == ' ') ++t;
    }
    k.s = s;
    k.t = t;
    k.w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, s, t).x;
    k.extra = as_code ? pad * 2 : 0;
    k.glued = after_math && *s != ' ';
    after_math = false;
    toks.push_back(k);
    s = t;
  }
}

std::vector<Token> tokens_of(const std::vector<MdRun>& runs, const std::vector<MathBox>& boxes,
                             const std::vector<ImageBox>& images, const MdStyle& st, float pad) {
  const Fonts& f = *st.fonts;
  std::vector<Token> toks;
  size_t box_i = 0, image_i = 0;
  bool after_math = false;
  for (const MdRun& run : runs) {
    if ((run.style & kImage) && st.images) {
      Token k;
      k.run = &run;
      k.image = &images[image_i++];
      k.w = k.image->size.x;
      toks.push_back(k);
      after_math = false;
      continue;
    }
    if ((run.style & kMath) && run.math) {
      Token k;
      k.run = &run;
      k.box = &boxes[box_i++];
      k.w = k.box->width;
      toks.push_back(k);
      after_math = true;
      continue;
    }
    const bool as_code = (run.style & kCode) || (run.style & kMath);  // maths that does not parse: its source, as code
    text_tokens(run, as_code ? f.mono : font_for(run.style, f), as_code, pad, after_math, toks);
  }
  return toks;
}

// A word longer than the room left on its line (`room`), cut where it stops fitting: the rest
// becomes the next token.
void cut_long_token(std::vector<Token>& toks, size_t i, float room, const Fonts& f) {
  Token& k = toks[i];
  ImFont* font = ((k.run->style & kCode) || (k.run->style & kMath)) ? f.mono : font_for(k.run->style, f);
  const char* cut = k.s;
  float w = 0;
  while (cut < k.t) {
    const char* nx = cut + utf8_len(static_cast<unsigned char>(*cut));
    float cw = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, cut, nx).x;
    if (w + cw + k.extra > room && cut > k.s) break;
    w += cw;
    cut = nx;
  }
  if (cut < k.t) {
    Token rest = k;
    rest.s = cut;
    rest.w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, cut, k.t).x;
    rest.glued = false;
    k.t = cut;
    k.w = w;
    toks.insert(toks.begin() + static_cast<long>(i) + 1, rest);
  }
}

// 2. Lines: each token's x and line, wrapping before a token that does not fit. Returns the
// number of lines.
int place_tokens(std::vector<Token>& toks, float width, const Fonts& f) {
  float x = 0;
  int line = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    Token& k = toks[i];
    if (k.newline) {
      x = 0;
      ++line;
      continue;
    }
    // Maths keeps the punctuation after it on its line.
    float unit = k.w + k.extra;
    if (k.box && i + 1 < toks.size() && toks[i + 1].glued) unit += toks[i + 1].w;
    if (x > 0 && !k.glued && x + unit > width) {
      // Wrap before the token; trailing spaces never start a line.
      x = 0;
      ++line;
    }
    // Longer than a whole line: cut it where it stops fitting.
    if (!k.box && !k.image && k.w + k.extra > width) cut_long_token(toks, i, width - x, f);
    Token& kk = toks[i];
    kk.x = x;
    kk.line = line;
    x += kk.w + kk.extra;
  }
  return line + 1;
}

// 3. Line heights: a line holding maths taller or deeper than text (a fraction) grows by
// the difference, so its ink never meets the lines around it. Every other line keeps the
// text's height, and every line's baseline sits at the same place within its line. Returns
// each line's top; `height` gets the whole height.
std::vector<float> line_tops(const std::vector<Token>& toks, int lines, const Fonts& f, float line_h, float* height) {
  std::vector<float> above(lines, 0), below(lines, 0);
  const float room_above = f.body->Ascent;
  const float room_below = -f.body->Descent + (line_h - f.body->FontSize) * 0.25f;
  for (const Token& k : toks)
    if (k.box) {
      above[k.line] = std::max(above[k.line], k.box->ascent - room_above);
      below[k.line] = std::max(below[k.line], k.box->descent - room_below);
    } else if (k.image) {
      above[k.line] = std::max(above[k.line], k.image->size.y - k.image->descent - room_above);
      below[k.line] = std::max(below[k.line], k.image->descent - room_below);
    }
  std::vector<float> top(lines, 0);
  float y = 0;
  for (int l = 0; l < lines; ++l) {
    top[l] = y + above[l];
    y += line_h + above[l] + below[l];
  }
  *height = y;
  return top;
}

const GlossaryEntry* term_entry(const MdRun& run, const MdStyle& st) {
  return st.glossary ? st.glossary->find(term_slug(run.url)) : nullptr;
}

// A glossary term's word: a dotted underline (a definition, not a way elsewhere), its
// definition in a tooltip while hovered, and a click or tap hands it to open_term (the page's
// popover, which a touch screen needs: it has no hover).
void draw_term_word(const MdRun& run, ImRect word, ImFont* font, ImU32 col, const MdStyle& st) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float y = word.Max.y, dash = std::max(2.0f, font->FontSize * 0.15f);
  for (float x = word.Min.x; x < word.Max.x; x += dash * 2) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + dash, word.Max.x), y), col, 1.0f);
#ifdef IMGUI_ENABLE_TEST_ENGINE
  {
    ImGuiContext& g = *GImGui;  // (the hook macros use it)
    ImGuiID id = ImHashData(&word, sizeof word, ImHashStr(run.url.c_str()));
    std::string label = run.text + "##term:" + run.url;
    IMGUI_TEST_ENGINE_ITEM_ADD(word, id);
    IMGUI_TEST_ENGINE_ITEM_INFO(id, label.c_str(), 0);
  }
#endif
  const GlossaryEntry* e = term_entry(run, st);
  if (!e || !ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(word.Min, word.Max)) return;
  ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (ImGui::IsMouseClicked(0) && st.open_term) {
    st.open_term(*e, word);
  } else if (!ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(font->FontSize * 24);
    ImGui::PushFont(st.fonts->bold);
    ImGui::TextUnformatted(e->term.c_str());
    ImGui::PopFont();
    ImGui::TextUnformatted(plain_text(e->definition).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// A link's word: underlined, reported to the item hooks ("link:URL", so tests and the DOM
// mirror find where a link is), and opened on a click.
void draw_link_word(const Token& k, ImVec2 pos, ImFont* font, ImU32 col, const MdStyle& st) {
  const MdRun& run = *k.run;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 a(pos.x, pos.y + font->FontSize), b(pos.x + k.w, pos.y + font->FontSize);
  if (run.style & kTerm) {
    draw_term_word(run, ImRect(pos, b), font, col, st);
    return;
  }
  dl->AddLine(a, b, col, 1.0f);
#ifdef IMGUI_ENABLE_TEST_ENGINE
  // Straight to the hooks, not ItemAdd: the word is no ImGui item, and the caller's last
  // item (a choice's Selectable) must stay last.
  {
    ImGuiContext& g = *GImGui;  // (the hook macros use it)
    ImRect bb(pos, ImVec2(pos.x + k.w, pos.y + font->FontSize));
    ImGuiID id = ImHashData(&bb, sizeof bb, ImHashStr(run.url.c_str()));
    std::string word(k.s, k.t);
    while (!word.empty() && word.back() == ' ') word.pop_back();
    std::string label = word + "##link:" + run.url;
    IMGUI_TEST_ENGINE_ITEM_ADD(bb, id);
    IMGUI_TEST_ENGINE_ITEM_INFO(id, label.c_str(), 0);
  }
#endif
  if (st.open_link && ImGui::IsWindowHovered() &&
      ImGui::IsMouseHoveringRect(ImVec2(pos.x, pos.y), ImVec2(pos.x + k.w, pos.y + font->FontSize))) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (ImGui::IsMouseClicked(0)) st.open_link(run.url);
  }
}

// A word (or a line of code, shaded) at the line whose top is `line_top`, reported to the
// text layer without the spaces after it, over exactly the glyphs drawn.
void draw_text_token(const Token& k, float x, float line_top, float line_h, float pad, const MdStyle& st) {
  const Fonts& f = *st.fonts;
  const MdRun& run = *k.run;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool as_code = (run.style & kCode) || (run.style & kMath);
  ImFont* font = as_code ? f.mono : font_for(run.style, f);
  ImU32 col = (run.style & kLink) ? color::accent() : as_code ? palette().code_text : st.text_color;
  ImVec2 pos(x, line_top + (line_h - font->FontSize) * 0.5f);
  if (as_code) {
    // trim trailing spaces from the shaded box
    dl->AddRectFilled(ImVec2(pos.x, pos.y - pad * 0.5f), ImVec2(pos.x + k.w + k.extra, pos.y + font->FontSize + pad * 0.5f),
                      color::code_bg(), pad);
    pos.x += pad;
  }
  dl->AddText(font, font->FontSize, pos, col, k.s, k.t);
  const char* e = k.t;
  while (e > k.s && e[-1] == ' ') --e;
  if (e > k.s) {
    float w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, k.s, e).x;
    const GlossaryEntry* term = (run.style & kTerm) ? term_entry(run, st) : nullptr;
    text_layer_report_run(std::string(k.s, e), ImRect(pos.x, pos.y, pos.x + w, pos.y + font->FontSize), font,
                          (run.style & kLink) ? run.url : std::string(), false,
                          term ? "glossary: " + plain_text(term->definition) : std::string());
  }
  if (run.style & kLink) draw_link_word(k, pos, font, col, st);
}

// 4. Drawing: images, maths (with its plain text for the layer, "2(N − 1)/N"), and words.
void draw_tokens(const std::vector<Token>& toks, const std::vector<float>& top, ImVec2 origin, float width, float line_h,
                 float pad, const MdStyle& st) {
  const Fonts& f = *st.fonts;
  ImFont* bf = f.body;
  for (const Token& k : toks) {
    if (k.newline) continue;
    const MdRun& run = *k.run;
    const float line_top = origin.y + top[k.line];
    const float baseline = line_top + (line_h - bf->FontSize) * 0.5f + bf->Ascent;
    if (k.image) {
      draw_image(*k.image, run, ImVec2(origin.x + k.x, baseline + k.image->descent - k.image->size.y), width,
                 baseline - bf->Ascent, st);
    } else if (k.box) {
      ImU32 col = (run.style & kLink) ? color::accent() : st.text_color;
      draw_math(*k.box, ImGui::GetWindowDrawList(), ImVec2(origin.x + k.x, baseline), col);
      text_layer_report_run(math_to_plain(*run.math),
                            ImRect(origin.x + k.x, baseline - k.box->ascent, origin.x + k.x + k.box->width, baseline + k.box->descent),
                            bf, (run.style & kLink) ? run.url : std::string(), true);
    } else {
      draw_text_token(k, origin.x + k.x, line_top, line_h, pad, st);
    }
  }
}

}  // namespace

float layout_runs(const std::vector<MdRun>& runs, ImVec2 origin, float width, const MdStyle& st, bool draw) {
  const Fonts& f = *st.fonts;
  const float line_h = f.body->FontSize * 1.45f;
  const float pad = f.body->FontSize * 0.2f;
  if (width < f.body->FontSize * 4) width = f.body->FontSize * 4;

  // Maths boxes for this frame's font size (the tree is parsed once, with the document).
  std::vector<MathBox> boxes;
  for (const MdRun& run : runs)
    if ((run.style & kMath) && run.math) boxes.push_back(layout_math(*run.math, math_fonts(f), f.body->FontSize, run.style & kMathDisplay));
  // Images likewise (without an image store, an image is its alt text, drawn as words).
  std::vector<ImageBox> images;
  for (const MdRun& run : runs)
    if ((run.style & kImage) && st.images) images.push_back(image_box(run, width, st));

  std::vector<Token> toks = tokens_of(runs, boxes, images, st, pad);
  const int lines = place_tokens(toks, width, f);
  float height = 0;
  const std::vector<float> top = line_tops(toks, lines, f, line_h, &height);
  if (draw) draw_tokens(toks, top, origin, width, line_h, pad, st);
  return height;
}

namespace {

// Where a block is drawn: its top-left corner, the width the column has, and its left margin
// (indent, quote, list marker).
struct BlockPlace {
  ImVec2 origin;
  float avail, left;
};

// A paragraph, heading or list item: its marker (the item's first words in the layer, not a
// stray "1."), its words, and a quote's bar. Returns its height.
float draw_text_block(const MdBlock& b, const BlockPlace& at, const MdStyle& st) {
  const Fonts& f = *st.fonts;
  const float indent_w = f.body->FontSize * 1.4f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  MdStyle s2 = st;
  Fonts hf = f;
  if (b.kind == MdBlock::Heading) {
    hf.body = hf.bold = b.level <= 1 ? f.heading : f.bold;
    s2.fonts = &hf;
  }
  text_layer_begin_block(b.kind == MdBlock::Heading ? TextBlock::Heading : !b.bullet.empty() ? TextBlock::ListItem : TextBlock::Para,
                         b.level, b.bullet);
  if (!b.bullet.empty()) {
    ImFont* bf = f.body;
    float bw = bf->CalcTextSizeA(bf->FontSize, FLT_MAX, 0, b.bullet.c_str()).x;
    const ImVec2 p(at.origin.x + at.left - bw - f.body->FontSize * 0.45f, at.origin.y + (f.body->FontSize * 1.45f - bf->FontSize) * 0.5f);
    dl->AddText(bf, bf->FontSize, p, color::muted(), b.bullet.c_str());
    text_layer_report_run(b.bullet, ImRect(p, ImVec2(p.x + bw, p.y + bf->FontSize)), bf, "");
  }
  const float h = layout_runs(b.runs, ImVec2(at.origin.x + at.left, at.origin.y), std::min(at.avail - at.left, prose_width(f)), s2, true);
  text_layer_end_block();
  if (b.quote)
    dl->AddRectFilled(ImVec2(at.origin.x + at.left - indent_w * 0.6f, at.origin.y),
                      ImVec2(at.origin.x + at.left - indent_w * 0.45f, at.origin.y + h), color::border());
  return h;
}

// A code block: a shaded child window that scrolls sideways. Returns its height.
float draw_code_block(const MdBlock& b, size_t bi, const BlockPlace& at, const MdStyle& st) {
  ImFont* m = st.fonts->mono;
  ImGui::SetCursorScreenPos(ImVec2(at.origin.x + at.left, at.origin.y));
  ImVec2 tsz = m->CalcTextSizeA(m->FontSize, FLT_MAX, 0, b.code.c_str());
  float padv = m->FontSize * 0.6f;
  ImVec2 size(at.avail - at.left, tsz.y + padv * 2);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, color::code_bg());
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(padv, padv));
  ImGui::BeginChild(ImGui::GetID(reinterpret_cast<void*>(static_cast<intptr_t>(bi + 1))),
                    ImVec2(size.x, size.y + (tsz.x + padv * 2 > size.x ? ImGui::GetStyle().ScrollbarSize : 0)), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushFont(m);
  ImGui::TextUnformatted(b.code.c_str());
  ImGui::PopFont();
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  const float h = ImGui::GetCursorScreenPos().y - at.origin.y - ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetCursorScreenPos(at.origin);
  return h;
}

// A table: header rows in bold, each cell a block of the text layer. Returns its height.
float draw_table_block(const MdBlock& b, int& table_no, const BlockPlace& at, const MdStyle& st) {
  size_t cols = 0;
  for (const auto& r : b.rows) cols = std::max(cols, r.size());
  if (cols == 0) return 0;
  ImGui::SetCursorScreenPos(ImVec2(at.origin.x + at.left, at.origin.y));
  ImGui::PushID(table_no++);
  if (ImGui::BeginTable("##md-table", static_cast<int>(std::min<size_t>(cols, 64)),
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp,
                        ImVec2(at.avail - at.left, 0))) {
    const int layer_table = text_layer_new_table();
    for (size_t ri = 0; ri < b.rows.size(); ++ri) {
      ImGui::TableNextRow(ri < static_cast<size_t>(b.header_rows) ? ImGuiTableRowFlags_Headers : 0);
      for (size_t ci = 0; ci < cols; ++ci) {
        ImGui::TableSetColumnIndex(static_cast<int>(ci));
        if (ci >= b.rows[ri].size()) continue;
        std::vector<MdRun> runs = b.rows[ri][ci];
        if (ri < static_cast<size_t>(b.header_rows))
          for (auto& r : runs) r.style |= kBold;
        float cw = ImGui::GetContentRegionAvail().x;
        ImVec2 o = ImGui::GetCursorScreenPos();
        text_layer_begin_block(TextBlock::Cell, 0, "", layer_table, static_cast<int>(ri), static_cast<int>(ci));
        float ch = layout_runs(runs, o, cw, st, true);
        text_layer_end_block();
        ImGui::Dummy(ImVec2(cw, ch));
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopID();
  const float h = ImGui::GetCursorScreenPos().y - at.origin.y - ImGui::GetStyle().ItemSpacing.y;
  ImGui::SetCursorScreenPos(at.origin);
  return h;
}

}  // namespace

std::string term_slug(const std::string& url) {
  static const std::string kPrefix = "#/glossary/";
  return url.rfind(kPrefix, 0) == 0 ? url.substr(kPrefix.size()) : std::string();
}

void link_terms(MdDoc& doc, const Glossary& glossary) {
  std::vector<bool> linked(glossary.entries.size(), false);
  constexpr unsigned kNotProse = kCode | kLink | kMath | kImage;
  for (MdBlock& b : doc.blocks) {
    if (b.kind != MdBlock::Para) continue;
    std::vector<MdRun> out;
    for (MdRun& run : b.runs) {
      if (run.style & kNotProse) {
        out.push_back(std::move(run));
        continue;
      }
      size_t from = 0;
      for (const TermUse& u : find_terms(run.text, glossary)) {
        if (linked[u.entry]) continue;
        linked[u.entry] = true;
        MdRun before = run, term = run;
        before.text = run.text.substr(from, u.begin - from);
        term.text = run.text.substr(u.begin, u.end - u.begin);
        term.style |= kLink | kTerm;
        term.url = "#/glossary/" + glossary.entries[u.entry].slug;
        if (!before.text.empty()) out.push_back(std::move(before));
        out.push_back(std::move(term));
        from = u.end;
      }
      if (from < run.text.size()) {
        run.text = run.text.substr(from);
        out.push_back(std::move(run));
      }
    }
    b.runs = std::move(out);
  }
}

void draw_markdown(const std::string& text, const MdStyle& st) {
  static std::unordered_map<std::string, MdDoc> cache;
  if (cache.size() > 256) cache.clear();
  // (a text with its terms linked is another document than the same text without)
  const std::string key = st.glossary ? text + "\x1f#glossary" + std::to_string(st.glossary->entries.size()) : text;
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, parse_markdown(text)).first;
    if (st.glossary) link_terms(it->second, *st.glossary);
  }
  const MdDoc& doc = it->second;
  const Fonts& f = *st.fonts;
  const float indent_w = f.body->FontSize * 1.4f;
  const float gap = f.body->FontSize * 0.55f;
  int table_no = 0;
  ImGui::PushID(&doc);
  for (size_t bi = 0; bi < doc.blocks.size(); ++bi) {
    const MdBlock& b = doc.blocks[bi];
    BlockPlace at{ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x,
                  b.indent * indent_w + (b.quote ? indent_w * 0.8f : 0)};
    if (!b.bullet.empty()) at.left = std::max(at.left, indent_w);
    float h = 0;
    switch (b.kind) {
      case MdBlock::Para:
      case MdBlock::Heading: h = draw_text_block(b, at, st); break;
      case MdBlock::Code: h = draw_code_block(b, bi, at, st); break;
      case MdBlock::Rule:
        ImGui::GetWindowDrawList()->AddLine(ImVec2(at.origin.x, at.origin.y + gap), ImVec2(at.origin.x + at.avail, at.origin.y + gap),
                                            color::border(), 1.0f);
        h = gap * 2;
        break;
      case MdBlock::Table: h = draw_table_block(b, table_no, at, st); break;
    }
    ImGui::Dummy(ImVec2(at.avail, h));
    if (bi + 1 < doc.blocks.size()) {
      const MdBlock& next = doc.blocks[bi + 1];
      // list items sit close together; paragraphs and headings get air
      bool tight = !b.bullet.empty() || (next.indent > 0 && b.indent > 0);
      if (!tight) ImGui::Dummy(ImVec2(1, gap * 0.4f));
    }
  }
  ImGui::PopID();
}

}  // namespace dtx::web
