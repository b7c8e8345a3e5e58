#include "ui/code_text.h"

#include <cctype>
#include <string>

#include "ui/theme.h"

namespace dtx::web {
namespace {

bool is_keyword(std::string_view w) {
  static const char* const kw[] = {"function", "return", "const", "let", "var", "if", "else", "for", "while", "do",
                                   "break", "continue", "new", "typeof", "class", "this", "null", "undefined",
                                   "true", "false", "of", "in", "switch", "case", "default", "throw", "try", "catch"};
  for (const char* k : kw)
    if (w == k) return true;
  return false;
}

ImU32 color_of(TokenKind k) {
  switch (k) {
    case TokenKind::Keyword: return palette().keyword;
    case TokenKind::Number: return palette().number;
    case TokenKind::String: return palette().string;
    case TokenKind::Comment: return palette().comment;
    case TokenKind::Function: return palette().function;
    default: return palette().code_text;
  }
}

}  // namespace

std::vector<CodeToken> tokenize_js_line(std::string_view s, bool* in_block) {
  std::vector<CodeToken> out;
  size_t i = 0, n = s.size();
  auto push = [&](size_t b, size_t e, TokenKind k) {
    if (e > b) out.push_back({b, e, k});
  };
  while (i < n) {
    size_t b = i;
    if (*in_block) {
      size_t e = s.find("*/", i);
      if (e == std::string_view::npos) { push(b, n, TokenKind::Comment); return out; }
      *in_block = false;
      i = e + 2;
      push(b, i, TokenKind::Comment);
      continue;
    }
    char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') { push(b, n, TokenKind::Comment); return out; }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') { *in_block = true; i += 2; size_t e = s.find("*/", i);
      if (e == std::string_view::npos) { push(b, n, TokenKind::Comment); return out; }
      *in_block = false; i = e + 2; push(b, i, TokenKind::Comment); continue; }
    if (c == '"' || c == '\'' || c == '`') {
      ++i;
      while (i < n && s[i] != c) i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
      if (i < n) ++i;
      push(b, i, TokenKind::String);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '_' ||
                       ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      push(b, i, TokenKind::Number);
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$')) ++i;
      std::string_view w = s.substr(b, i - b);
      size_t j = i;
      while (j < n && s[j] == ' ') ++j;
      TokenKind k = is_keyword(w) ? TokenKind::Keyword : (j < n && s[j] == '(') ? TokenKind::Function : TokenKind::Plain;
      push(b, i, k);
      continue;
    }
    ++i;
    while (i < n && !std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '"' && s[i] != '\'' && s[i] != '`' &&
           s[i] != '/' && s[i] != '_' && s[i] != '$')
      ++i;
    push(b, i, TokenKind::Plain);
  }
  return out;
}

void draw_code_line(ImDrawList* dl, ImFont* font, ImVec2 pos, std::string_view line, bool* in_block) {
  float x = pos.x;
  for (const CodeToken& t : tokenize_js_line(line, in_block)) {
    const char* a = line.data() + t.begin;
    const char* e = line.data() + t.end;
    dl->AddText(font, font->FontSize, ImVec2(x, pos.y), color_of(t.kind), a, e);
    x += font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, a, e).x;
  }
}

}  // namespace dtx::web
