// The text layer: every word the canvas draws, as text the browser can select, copy, find and
// read aloud. The page (web/shell/text-layer.js) lays the words out as transparent DOM text
// exactly over the glyphs, the way PDF.js lays a text layer over a PDF page.
//
// Two sources, so that nothing is drawn without its words and nothing is said twice:
//  - Markdown (prompts, hints, explanations, intros, feedback, options) reports its laid-out
//    runs and blocks while it draws (report_*), for the whole document, also the part
//    scrolled out of view that ImGui clips away: browser find reaches it.
//  - Every other glyph (titles, labels, buttons, widgets, code) is read back from the frame's
//    draw data (build): a glyph quad's texture coordinates name the font and the character,
//    its corners give the pen position. Only what is on screen can be read this way.
// Positions in the scrolling page are page coordinates (the page's scroll added back), so the
// layer changes when the text changes, not when the page scrolls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"

namespace dtx::web {

enum class TextBlock { Para, Heading, ListItem, Code, Cell };

// The scrolling page (the "##page" child): set each frame before the screens draw.
void text_layer_set_page(ImGuiWindow* page);

// A Markdown block begins (its runs follow) and ends (its rectangle, screen pixels).
// `level`: the heading level; `row`/`col`: a table cell's place (row 0 is the header when the
// table has one); `bullet`: a list item's marker.
void text_layer_begin_block(TextBlock kind, int level = 0, const std::string& bullet = "", int table = -1, int row = -1,
                            int col = -1);
void text_layer_end_block();
// Draws `text` at the cursor in the current font, as a heading of `level` in the layer (the
// exercise's title, "Worked solution"), wrapped at `wrap_width` pixels (0: one line).
void heading_text(const std::string& text, int level, float wrap_width = 0);

// A widget's description (Widget::describe), laid over the widget's rectangle (screen
// pixels): read by a screen reader where the widget is, found by find in page. Not drawn.
void text_layer_description(const std::string& text, ImRect rect);

// A Markdown image drawn in `rect` (screen pixels): in the layer an element with the image
// role, named by its alt text, whose words find in page finds; `note` is said after the name
// ("loading", or why the picture is not shown). Glyphs drawn inside the rectangle (a missing
// picture's frame of words) belong to it and are not read back again. `line_y`: the top of
// the words on its line, where it goes in reading order (a taller picture beside a shorter
// one on the same line still comes after it).
void text_layer_image(const std::string& alt, const std::string& note, ImRect rect, float line_y);

// A number for the next table's cells, unique within the frame.
int text_layer_new_table();

// One laid-out piece of a Markdown line: its text (maths as its plain-text rendering), the
// rectangle its glyphs occupy (pen start to pen end, line top to line top + font size), its
// font and the link it belongs to. `math`: a formula's box, whose glyphs are set apart.
// `desc`: said after a link's name (a glossary term's definition, aria-description).
void text_layer_report_run(const std::string& text, ImRect rect, ImFont* font, const std::string& url, bool math = false,
                           const std::string& desc = "");

// Starts a frame's record (before the frame's ImGui::NewFrame).
void text_layer_begin_frame();

struct TextLayerUpdate {
  bool changed = false;  // the words or their places changed: `json` is the new layer
  std::string json;
  float scroll_css = 0;  // the page's scroll, CSS pixels
  int runs = 0;          // text runs in the layer (for the bench and tests)
};

// After ImGui::Render: reads the drawn glyphs back, joins them with the reported Markdown runs
// and returns the layer if it differs from the last one built. `dpr`: device pixels per CSS
// pixel (the layer is in CSS pixels).
TextLayerUpdate text_layer_build(const ImDrawData* dd, float dpr);

// The runs of the last build read from the draw data, screen pixels: for the alignment test.
struct DrawnRun {
  std::string text;
  ImRect rect;
};
const std::vector<DrawnRun>& text_layer_drawn_runs();

}  // namespace dtx::web
