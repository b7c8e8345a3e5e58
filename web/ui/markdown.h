// Markdown (prompts, intros, hints, explanations) drawn with ImGui: md4c parses, we lay out
// words ourselves because ImGui's TextWrapped cannot mix fonts within a paragraph.
// Supported: paragraphs, **strong**, *emphasis*, `code`, code blocks, headings, lists
// (nested, ordered), tables, links, block quotes, rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ui/theme.h"

namespace dtx::web {

enum RunStyle : unsigned { kBold = 1, kItalic = 2, kCode = 4, kLink = 8 };

struct MdRun {
  std::string text;
  unsigned style = 0;
  std::string url;
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

struct MdStyle {
  const Fonts* fonts = nullptr;
  ImU32 text_color = color::kText;
  std::function<void(const std::string&)> open_link;
};

// Draws at the cursor using the available width; parsed documents are cached by text.
void draw_markdown(const std::string& text, const MdStyle& style);

// Lays out runs as wrapped lines from `origin` within `width`, drawing when `draw` is set.
// Returns the height used.
float layout_runs(const std::vector<MdRun>& runs, ImVec2 origin, float width, const MdStyle& style, bool draw);

}  // namespace dtx::web
