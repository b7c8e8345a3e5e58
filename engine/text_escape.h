// Strings from students and packs, made safe to print on a terminal. A submission file or a
// pack can hold bytes a terminal obeys instead of showing: ESC [2K and a carriage return
// redraw a line ("correct (score 100%)" over a 0), C1 controls (U+0080..U+009F, among them
// the one-byte CSI) do the same on some terminals, and bidi overrides (U+202E) reorder what
// follows so a row reads other than it is. Each such character is shown as a visible escape
// (\x1b, \u202e) instead; everything else, accents and symbols included, is left alone.
//
// The escapes are chosen so the result is still the same text inside a JSON string:
// characters that are not ASCII controls become \uXXXX, which JSON reads back as the same
// character, and JSON never carries raw ASCII controls. Invalid UTF-8 bytes become \xNN
// (a lone 0x9B is CSI on an 8-bit terminal).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace dtx {

// True for the code points a terminal or a bidi algorithm acts on rather than shows:
// C1 controls, the bidi embeddings, overrides and isolates (U+202A..U+202E,
// U+2066..U+2069), the marks LRM, RLM and ALM, and the line and paragraph separators.
inline bool is_terminal_active_code_point(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 || cp == 0x2029;
}

// The length of the valid UTF-8 sequence at s[i] (its code point in *cp), or 0 when the
// bytes there are not one (overlong forms, surrogates and values past U+10FFFF included).
inline size_t utf8_sequence_at(std::string_view s, size_t i, uint32_t* cp) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  size_t len = (b >= 0xC2 && b <= 0xDF) ? 2 : (b >= 0xE0 && b <= 0xEF) ? 3 : (b >= 0xF0 && b <= 0xF4) ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  uint32_t v = b & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < len; ++k) {
    unsigned char c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    v = (v << 6) | (c & 0x3F);
  }
  if ((len == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)))
    return 0;
  *cp = v;
  return len;
}

// `s` with every control a terminal would act on shown as an escape. `keep_layout` keeps
// newlines and tabs (a prompt, a multi-line message); without it they are escaped too, for
// a value that must stay on its line (an identifier, an answer, a cell of a table).
inline std::string terminal_safe(std::string_view s, bool keep_layout = false) {
  std::string out;
  out.reserve(s.size());
  char buf[16];
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      bool control = b < 0x20 || b == 0x7F;
      if (control && !(keep_layout && (b == '\n' || b == '\t'))) {
        std::snprintf(buf, sizeof buf, "\\x%02x", b);
        out += buf;
      } else {
        out += static_cast<char>(b);
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = utf8_sequence_at(s, i, &cp);
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      out += buf;
      ++i;
    } else if (is_terminal_active_code_point(cp)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
      i += len;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

// True when terminal_safe would change nothing.
inline bool is_terminal_safe(std::string_view s, bool keep_layout = false) { return terminal_safe(s, keep_layout) == s; }

}  // namespace dtx
