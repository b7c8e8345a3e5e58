// Markdown (prompts, intros, hints, explanations) drawn with ImGui: md4c parses, we lay out
// words ourselves because ImGui's TextWrapped cannot mix fonts within a paragraph.
// Supported: paragraphs, **strong**, *emphasis*, `code`, code blocks, headings, lists
// (nested, ordered), tables, links, block quotes, rules, $maths$ (engine/maths.h, drawn
// by ui/maths_layout.h) and images (ui/images.h). Prose is at most about 75 characters wide
// (prose_width); code blocks and tables take the whole width.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "glossary.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "maths.h"
#include "ui/theme.h"

namespace dtx::web {

// kTerm: a glossary term's first use (with kLink; its url is the term's address, #/glossary/SLUG).
enum RunStyle : unsigned { kBold = 1, kItalic = 2, kCode = 4, kLink = 8, kMath = 16, kMathDisplay = 32, kImage = 64, kTerm = 128 };

struct MdRun {
  std::string text;  // kMath: the maths source, between the $; kImage: the alt text
  unsigned style = 0;
  std::string url;
  // kMath: the parsed maths, parsed once with the document; null when it does not parse
  // (the source is then drawn as code, so nothing vanishes; lint names the error).
  std::shared_ptr<const MathNode> math;
  std::string image;  // kImage: the source, as md4c read it
};

struct MdBlock {
  enum Kind { Para, Heading, Code, Rule, Table } kind = Para;
  int level = 0;   // heading level
  int indent = 0;  // list depth
  bool quote = false;
  std::string bullet;  // "•" or "3." for the first block of a list item
  std::vector<MdRun> runs;
  std::string code;
  std::vector<std::vector<std::vector<MdRun>>> rows;  // table: rows of cells of runs
  int header_rows = 0;
};

struct MdDoc {
  std::vector<MdBlock> blocks;
};

MdDoc parse_markdown(const std::string& text);

class PackImages;

struct MdStyle {
  const Fonts* fonts = nullptr;
  ImU32 text_color = color::text();
  std::function<void(const std::string&)> open_link;
  // Images: where they are loaded and kept, and the address of the pack the text belongs to
  // (its relative sources are read against it; nullopt: a dropped file, which has no folder).
  // Without `images` an image is drawn as its alt text.
  PackImages* images = nullptr;
  std::optional<std::string> image_base;
  float dpr = 1;  // device pixels per CSS pixel: an image is never drawn beyond natural size x dpr
  // With a glossary, the first use of each of its terms is a term link (kTerm): hovering it
  // shows the definition, a click or tap calls open_term (the page opens a popover there).
  const Glossary* glossary = nullptr;
  std::function<void(const GlossaryEntry&, ImRect word)> open_term;
};

// The first use of each glossary term in the document's prose (paragraphs and list items,
// not code, maths, links or headings) becomes a run of its own, kLink | kTerm.
void link_terms(MdDoc& doc, const Glossary& glossary);

// The glossary address of a term link's url ("#/glossary/SLUG" -> "SLUG"); "" for another url.
std::string term_slug(const std::string& url);

// The prose measure: 75 characters of body text (75 average advances of the alphabet and a
// space), the longest line that still reads comfortably.
float prose_width(const Fonts& fonts);

// Draws at the cursor using the available width (prose at most prose_width); parsed
// documents are cached by text.
void draw_markdown(const std::string& text, const MdStyle& style);

// Lays out runs as wrapped lines from `origin` within `width`, drawing when `draw` is set.
// Returns the height used.
float layout_runs(const std::vector<MdRun>& runs, ImVec2 origin, float width, const MdStyle& style, bool draw);

}  // namespace dtx::web
