// Small text helpers shared by the engine: UTF-8 columns (errors point at characters, not
// bytes) and the number formatting used in prompts and feedback.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtx {

// 1-based column of byte offset `byte_pos`, counting UTF-8 code points.
int utf8_column(std::string_view s, size_t byte_pos);
// The (possibly multi-byte) character starting at byte_pos, or "end of input".
std::string_view utf8_char_at(std::string_view s, size_t byte_pos);
// The code point starting at byte i (advancing i past it; a malformed sequence gives some code
// point and moves on, never past the end).
uint32_t utf8_decode(std::string_view s, size_t& i);
// Appends code point `cp` (at most 0x10FFFF) encoded as UTF-8.
void append_utf8(std::string& out, uint32_t cp);


// Formats a number for prose: `sig` significant digits, trailing zeros trimmed, integers in
// full with thousands separators ("16,384"), very large or very small magnitudes as
// "6.1 × 10^-5". Never prints "1e+09".
std::string format_number(double v, int sig = 4);

// Superscript and subscript forms that exist in Unicode (and in our fonts' ranges) of a digit,
// + = ( ), U+2212 minus and some letters; null when there is none.
const char* superscript_of(uint32_t c);
const char* subscript_of(uint32_t c);

// The same number for reading: the power of ten in superscript digits ("6.1 × 10⁻⁵"), as
// prose shows it (format_number's caret is for maths spans and the CLI's plain text).
std::string superscript_power(const std::string& formatted);
// An integer written in superscript digits (⁻ for minus) at byte `pos` of `s`, with its byte
// length; nothing when none starts there. At most 4 digits.
std::optional<int> superscript_integer(std::string_view s, size_t pos, size_t* len);
// format_number for what a student reads (feedback, prompts): superscript_power of it.
inline std::string format_for_reading(double v, int sig = 4) { return superscript_power(format_number(v, sig)); }


// Numbers compared with a tolerance: |given - expected| <= max(abs, rel * |expected|).
bool within(double given, double expected, double rel, double abs);
// "within 1%", "within ±0.5 GB", "within 1% or ±0.5 GB".
std::string describe_tolerance(double rel, double abs, const std::string& unit);

// The first "a 8", "an 16", "A 11-way" in `text`: an indefinite article before a number
// that is read aloud with the other kind of sound ("an eight", "a sixteen"; "an 11", "an 18",
// "an 80", "an 8.5", "a 1,100"). Markdown emphasis between them ("a **8**") is looked through.
// Returns the words as written, or "" when every article agrees.
std::string article_mismatch(std::string_view text);

std::string trim(std::string_view s);
std::string to_lower(std::string_view s);

}  // namespace dtx
