// JavaScript syntax colouring for code shown to students (buggy-line listings, reference
// solutions). A line tokenizer is enough: the snippets are short functions.
#pragma once

#include <string_view>
#include <vector>

#include "imgui.h"

namespace dtx::web {

enum class TokenKind { Plain, Keyword, Number, String, Comment, Function };

struct CodeToken {
  size_t begin, end;
  TokenKind kind;
};

// `in_block_comment` carries a /* ... */ comment from one line to the next.
std::vector<CodeToken> tokenize_js_line(std::string_view line, bool* in_block_comment);

// Draws one coloured line at `pos` with `font`.
void draw_code_line(ImDrawList* dl, ImFont* font, ImVec2 pos, std::string_view line, bool* in_block_comment);

}  // namespace dtx::web
