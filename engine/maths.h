// Maths in pack Markdown: `$...$` spans written in a small subset of LaTeX.
//
// Three things live here, all pure C++:
// - where a Markdown text's maths spans are (find_math_spans). The page parses Markdown with
//   md4c and its MD_FLAG_LATEXMATHSPANS; the engine has no Markdown parser, so this is a
//   scanner that follows md4c 0.4.8's rules: any run of one or two `$` opens a span and the
//   next run of the same length closes it, within one paragraph, outside code; `\$` is a
//   literal dollar. A headless-UI test checks the two agree on every shipped text.
// - which braces of a span are LaTeX groups and which are {placeholders}
//   (scan_math_braces; docs/AUTHORING.md, "Maths", states the rule for authors).
// - the maths itself: a parser to a small tree (parse_math) with depth and size limits and
//   positioned errors, and a plain-text rendering of the tree (math_to_plain) for the CLI
//   and for the page's text layer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {

// ---------------------------------------------------------------- spans in Markdown

struct MathSpan {
  size_t open = 0;    // byte offset of the opening `$`
  size_t begin = 0;   // first byte of the maths source
  size_t end = 0;     // one past its last byte (the closing `$`)
  size_t close = 0;   // one past the closing `$` (or `$$`)
  bool display = false;  // `$$...$$`
};

struct MathScan {
  std::vector<MathSpan> spans;
  // `$` runs that open no span (nothing closes them in their paragraph): md4c draws them as
  // dollars, but an author who meant a price should write `\$` and one who meant maths has
  // lost the closing `$`, so lint reports them.
  std::vector<size_t> unclosed;
};

MathScan find_math_spans(std::string_view markdown);

// ---------------------------------------------------------------- braces in a span

// The brace rule: inside `$...$`, a `{` opens a LaTeX group when it comes directly (no space)
// after `^`, `_`, a command such as `\frac`, or the `}` / `]` that ends one argument of a
// command that takes more (`\frac{a}{b}`, `\sqrt[3]{x}`). Any other `{` starts a placeholder
// `{expression}`, which runs to the next `}` as outside maths. `{{` and `}}` are not escapes
// inside maths (`\{` and `\}` are literal braces there).
struct MathBraces {
  struct Placeholder {
    size_t brace = 0;  // offset of `{` in the span source
    size_t close = 0;  // offset of its `}` (npos: none on the same line)
  };
  std::vector<Placeholder> placeholders;
  // Problems the rule can see without parsing: a `}` that closes nothing, a group never
  // closed, and a group right after a command that takes no argument (`\cdot{N}`), which
  // LaTeX reads as a group but an author most likely meant as a placeholder.
  struct Problem {
    size_t offset = 0;
    std::string message;
  };
  std::vector<Problem> problems;
};

MathBraces scan_math_braces(std::string_view source);

// A number from format_number written as maths ("6.1 × 10^-5" -> "6.1\times 10^{-5}").
std::string math_number(const std::string& formatted);

// ---------------------------------------------------------------- the maths tree

struct MathNode {
  enum Kind { Row, Symbol, Scripts, Frac, Root, Text, Space };
  // How a symbol spaces (TeX's atom classes): ordinary, variable (italic), number, binary
  // operator, relation, opening and closing delimiters, punctuation, a function name (log).
  enum Class { Ord, Var, Num, Bin, Rel, Open, Close, Punct, Func };
  Kind kind = Row;
  Class cls = Ord;
  std::string text;        // Symbol: the character(s) shown; Text: the text
  float space_em = 0;      // Space: width in em (negative for \!)
  bool space_before = false;  // whitespace before it in the source (plain text keeps it)
  bool upright_capital = false;  // Symbol: a capital Greek letter (drawn upright)
  size_t offset = 0;       // where it starts in the source
  // Row: the items. Scripts: base, superscript, subscript (empty rows when absent).
  // Frac: numerator, denominator. Root: radicand, index (empty row when absent).
  std::vector<MathNode> kids;
  bool has_sup = false, has_sub = false;
};

struct MathError {
  size_t offset = 0;  // byte offset in the span's source
  std::string message;
};

// Limits, well above any formula in a prompt (the longest shipped span is ~60 bytes, 3 deep).
constexpr size_t kMaxMathBytes = 1000;  // one span's source
constexpr int kMaxMathDepth = 12;       // groups, scripts, fractions and roots inside each other

enum class MathMode {
  // The text the page draws: placeholders are already filled (as `{value}` groups), so any
  // `{` where an atom is expected is a group.
  Rendered,
  // A pack's source, as lint reads it: a `{` where an atom is expected is a placeholder, kept
  // as one atom.
  Source,
};

std::optional<MathNode> parse_math(std::string_view source, MathError* error,
                                   MathMode mode = MathMode::Rendered);

// "10⁹", "2M(N−1)/N", "√x", "a × b", "x_(i+1)": Unicode where a character exists, `^` and
// `_` with parentheses where none does. Spaces are the author's.
std::string math_to_plain(const MathNode& node);

// A Markdown text with every maths span replaced by its plain-text rendering (a span that does
// not parse keeps its source) and `\$` by `$`: what the CLI prints.
std::string markdown_math_to_plain(std::string_view markdown);

// What a screen reader should say for a formula: "2 M times (N minus 1) over N", "x squared",
// "the square root of (2 C F)". For the page's spoken feedback (engine/model.h spoken_feedback).
std::string math_to_words(const MathNode& node);
// A Markdown text with every maths span said in words (a span that does not parse keeps its
// source).
std::string markdown_math_to_words(std::string_view markdown);

}  // namespace dtx
