#include "maths.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "text.h"

namespace dtx {

namespace {

constexpr size_t npos = std::string::npos;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_punct(char c) { return c > 0x20 && c < 0x7f && !is_alpha(c) && !is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
size_t utf8_len(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

// ---------------------------------------------------------------- Markdown blocks

struct Line {
  size_t begin, end;  // without the newline
  size_t indent;      // leading spaces (a tab counts 4)
  size_t text;        // first non-blank byte
};

bool is_blank(std::string_view s, const Line& l) { return l.text >= l.end; }

// A line that starts a block of its own whatever precedes it: a list item, a heading, a
// quote, a thematic break or setext underline. Tables are found separately.
bool starts_block(std::string_view s, const Line& l) {
  if (l.indent >= 4) return false;
  std::string_view r = s.substr(l.text, l.end - l.text);
  char c = r[0];
  if (c == '#' || c == '>') return true;
  if ((c == '-' || c == '*' || c == '+') && (r.size() == 1 || r[1] == ' ' || r[1] == '\t')) return true;
  size_t d = 0;
  while (d < r.size() && d < 9 && is_digit(r[d])) ++d;
  if (d > 0 && d < r.size() && (r[d] == '.' || r[d] == ')') && (d + 1 == r.size() || r[d + 1] == ' ')) return true;
  // ---, ***, ___, === (breaks and setext underlines end the paragraph above)
  if (c == '-' || c == '*' || c == '_' || c == '=') {
    size_t n = 0;
    for (char x : r) {
      if (x == c) ++n;
      else if (x != ' ' && x != '\t') return false;
    }
    return n >= (c == '=' ? 1u : 3u);
  }
  return false;
}

bool is_fence(std::string_view s, const Line& l, char* ch, size_t* len) {
  if (l.indent >= 4) return false;
  std::string_view r = s.substr(l.text, l.end - l.text);
  if (r.size() < 3 || (r[0] != '`' && r[0] != '~')) return false;
  size_t n = 0;
  while (n < r.size() && r[n] == r[0]) ++n;
  if (n < 3) return false;
  *ch = r[0];
  *len = n;
  return true;
}

bool is_table_delimiter(std::string_view s, const Line& l) {
  std::string_view r = s.substr(l.text, l.end - l.text);
  bool dash = false, pipe = false;
  for (char c : r) {
    if (c == '-') dash = true;
    else if (c == '|') pipe = true;
    else if (c != ':' && c != ' ' && c != '\t') return false;
  }
  return dash && (pipe || r.find(':') != std::string_view::npos);
}

// One inline context: md4c pairs `$` within a paragraph, a heading or a table row.
void scan_block(std::string_view s, size_t b, size_t e, MathScan& out) {
  size_t open = npos;
  size_t open_len = 0;
  for (size_t p = b; p < e;) {
    char c = s[p];
    if (c == '\\' && p + 1 < e && is_ascii_punct(s[p + 1])) {
      p += 2;
      continue;
    }
    if (c == '`') {
      size_t n = 0;
      while (p + n < e && s[p + n] == '`') ++n;
      // The next run of exactly n backticks closes the code span; without one the
      // backticks are literal.
      size_t q = p + n, close = npos;
      while (q < e) {
        if (s[q] != '`') {
          ++q;
          continue;
        }
        size_t m = 0;
        while (q + m < e && s[q + m] == '`') ++m;
        if (m == n) {
          close = q + m;
          break;
        }
        q += m;
      }
      p = close == npos ? p + n : close;
      continue;
    }
    if (c == '$') {
      size_t n = 0;
      while (p + n < e && s[p + n] == '$') ++n;
      if (n <= 2) {
        if (open == npos) {
          open = p;
          open_len = n;
        } else if (open_len == n) {
          out.spans.push_back({open, open + n, p, p + n, n == 2});
          open = npos;
        } else {
          // md4c drops the opener and lets this run open instead.
          out.unclosed.push_back(open);
          open = p;
          open_len = n;
        }
      }
      p += n;
      continue;
    }
    ++p;
  }
  if (open != npos) out.unclosed.push_back(open);
}

std::vector<Line> split_lines(std::string_view s) {
  std::vector<Line> lines;
  for (size_t i = 0; i <= s.size();) {
    size_t nl = s.find('\n', i);
    size_t end = nl == std::string_view::npos ? s.size() : nl;
    size_t e = end;
    if (e > i && s[e - 1] == '\r') --e;
    Line l{i, e, 0, i};
    while (l.text < e && (s[l.text] == ' ' || s[l.text] == '\t')) {
      l.indent += s[l.text] == '\t' ? 4 : 1;
      ++l.text;
    }
    lines.push_back(l);
    if (nl == std::string_view::npos) break;
    i = nl + 1;
  }
  return lines;
}

// Table rows: the line above a delimiter row, the delimiter row and the lines after it
// until a blank line; each row is an inline context of its own.
std::vector<bool> table_rows(std::string_view s, const std::vector<Line>& lines) {
  std::vector<bool> table(lines.size(), false);
  for (size_t k = 1; k < lines.size(); ++k)
    if (is_table_delimiter(s, lines[k]) && !is_blank(s, lines[k - 1]) &&
        s.substr(lines[k - 1].text, lines[k - 1].end - lines[k - 1].text).find('|') != std::string_view::npos) {
      table[k - 1] = true;
      for (size_t j = k; j < lines.size() && !is_blank(s, lines[j]); ++j) table[j] = true;
    }
  return table;
}

}  // namespace

MathScan find_math_spans(std::string_view s) {
  MathScan out;
  if (s.find('$') == std::string_view::npos) return out;
  const std::vector<Line> lines = split_lines(s);
  const std::vector<bool> table = table_rows(s, lines);
  size_t block_begin = npos, block_end = 0;
  auto flush = [&]() {
    if (block_begin != npos) scan_block(s, block_begin, block_end, out);
    block_begin = npos;
  };
  char fence_ch = 0;
  size_t fence_len = 0;
  bool in_fence = false;
  for (size_t k = 0; k < lines.size(); ++k) {
    const Line& l = lines[k];
    char ch;
    size_t len;
    if (in_fence) {
      if (is_fence(s, l, &ch, &len) && ch == fence_ch && len >= fence_len &&
          s.substr(l.text + len, l.end - l.text - len).find_first_not_of(" \t") == std::string_view::npos)
        in_fence = false;
      continue;
    }
    if (is_fence(s, l, &ch, &len)) {
      flush();
      in_fence = true;
      fence_ch = ch;
      fence_len = len;
      continue;
    }
    if (is_blank(s, l)) {
      flush();
      continue;
    }
    // An indented line after a blank line (or at the start) is a code block, unless it
    // continues a list item.
    bool after_blank = k == 0 || is_blank(s, lines[k - 1]);
    if (l.indent >= 4 && block_begin == npos && after_blank) {
      bool in_list = false;
      for (size_t j = k; j-- > 0;)
        if (!is_blank(s, lines[j])) {
          in_list = lines[j].indent > 0 || starts_block(s, lines[j]);
          break;
        }
      if (!in_list) continue;
    }
    if (table[k] || starts_block(s, l)) {
      flush();
      block_begin = l.text;
      block_end = l.end;
      bool own = table[k] || s[l.text] == '#';
      if (own) flush();
      continue;
    }
    if (block_begin == npos) block_begin = l.text;
    block_end = l.end;
  }
  flush();
  std::sort(out.unclosed.begin(), out.unclosed.end());
  return out;
}

// ---------------------------------------------------------------- braces

namespace {

std::vector<std::string> known_commands();  // below, with the parser's tables

int command_arity(std::string_view name) {
  if (name == "frac" || name == "dfrac" || name == "tfrac") return 2;
  if (name == "sqrt" || name == "text" || name == "textrm" || name == "mathrm" || name == "mathit" ||
      name == "operatorname")
    return 1;
  return 0;
}

// scan_math_braces' state between characters: the groups still open and what the last
// token was, which decides what a '{' opens.
struct BraceScanner {
  struct Frame {
    char closer;
    size_t at;
    int args_after;  // arguments the command still takes once this one is closed
  };
  std::string_view src;
  MathBraces out;
  std::vector<Frame> stack;
  enum { Other, Script, Command, ArgEnd } prev = Other;
  std::string_view cmd;
  int pending = 0;  // ArgEnd: arguments still to come

  // A '\' at i: a command name or an escaped character. Returns where the scan goes on.
  size_t backslash(size_t i) {
    if (i + 1 < src.size() && is_alpha(src[i + 1])) {
      size_t j = i + 1;
      while (j < src.size() && is_alpha(src[j])) ++j;
      cmd = src.substr(i + 1, j - i - 1);
      prev = Command;
      return j;
    }
    prev = Other;
    return i + (i + 1 < src.size() ? 1 + utf8_len(static_cast<unsigned char>(src[i + 1])) : 1);
  }

  // A '{' at i: a group after ^, _ or a command, else a placeholder. Returns where the scan
  // goes on.
  size_t open_brace(size_t i) {
    if (prev == Script) {
      stack.push_back({'}', i, 0});
    } else if (prev == Command) {
      int arity = command_arity(cmd);
      const auto known = known_commands();
      // An unknown command is the parser's to report.
      if (arity == 0 && std::find(known.begin(), known.end(), std::string(cmd)) != known.end())
        out.problems.push_back({i, "'{' right after \\" + std::string(cmd) +
                                       " opens a group, since it comes straight after a command; \\" +
                                       std::string(cmd) +
                                       " takes no argument, so for a placeholder put a space before the "
                                       "brace (\\" + std::string(cmd) + " {N}), or drop the braces"});
      stack.push_back({'}', i, arity > 0 ? arity - 1 : 0});
    } else if (prev == ArgEnd) {
      stack.push_back({'}', i, pending - 1});
    } else {
      // A placeholder: to the next '}' on the same line, as outside maths.
      size_t close = src.find_first_of("}\n", i + 1);
      if (close != npos && src[close] != '}') close = npos;
      out.placeholders.push_back({i, close});
      prev = Other;
      return close == npos ? i + 1 : close + 1;
    }
    prev = Other;
    return i + 1;
  }

  // A '}' at i.
  void close_brace(size_t i) {
    if (stack.empty() || stack.back().closer != '}') {
      out.problems.push_back({i, "'}' closes no group (groups open with '{' right after ^, _ or a command)"});
      prev = Other;
    } else {
      int after = stack.back().args_after;
      stack.pop_back();
      prev = after > 0 ? ArgEnd : Other;
      pending = after;
    }
  }
};

}  // namespace

MathBraces scan_math_braces(std::string_view src) {
  BraceScanner scan;
  scan.src = src;
  for (size_t i = 0; i < src.size();) {
    char c = src[i];
    if (c == '\\') {
      i = scan.backslash(i);
      continue;
    }
    if (c == '^' || c == '_') {
      scan.prev = BraceScanner::Script;
      ++i;
      continue;
    }
    if (c == '{') {
      i = scan.open_brace(i);
      continue;
    }
    if (c == '}') {
      scan.close_brace(i);
      ++i;
      continue;
    }
    if (c == '[' && scan.prev == BraceScanner::Command && scan.cmd == "sqrt") {
      scan.stack.push_back({']', i, 1});
      scan.prev = BraceScanner::Other;
      ++i;
      continue;
    }
    if (c == ']' && !scan.stack.empty() && scan.stack.back().closer == ']') {
      scan.stack.pop_back();
      scan.prev = BraceScanner::ArgEnd;
      scan.pending = 1;
      ++i;
      continue;
    }
    scan.prev = BraceScanner::Other;
    i += utf8_len(static_cast<unsigned char>(c));
  }
  MathBraces& out = scan.out;
  for (const BraceScanner::Frame& f : scan.stack)
    out.problems.push_back({f.at, std::string(f.closer == '}' ? "'{'" : "'['") + " is never closed"});
  std::sort(out.problems.begin(), out.problems.end(),
            [](const MathBraces::Problem& a, const MathBraces::Problem& b) { return a.offset < b.offset; });
  return out;
}

std::string math_number(const std::string& f) {
  std::string out = f;
  size_t x = out.find(" × 10^");
  if (x != npos) {
    std::string exp = out.substr(x + std::strlen(" × 10^"));
    out = out.substr(0, x) + " \\times 10^{" + exp + "}";
  }
  return out;
}

// ---------------------------------------------------------------- parser

namespace {

struct SymbolDef {
  const char* name;
  const char* text;
  MathNode::Class cls;
};

// Commands that stand for one symbol. Capital Greek letters that look like Latin ones (A, B,
// E...) are written as Latin letters, as in LaTeX. Only symbols the page's fonts draw (Inter,
// with JetBrains Mono filling in ∈ ∘ ∼ ≡ ↦ ⋯ ⌈ ⌉ ⌊ ⌋): \mp, \propto, \ll, \gg and \nabla
// have no glyph there, so they are unknown commands rather than boxes.
const SymbolDef kSymbols[] = {
    {"alpha", "α", MathNode::Var},   {"beta", "β", MathNode::Var},     {"gamma", "γ", MathNode::Var},
    {"delta", "δ", MathNode::Var},   {"epsilon", "ε", MathNode::Var},  {"varepsilon", "ε", MathNode::Var},
    {"zeta", "ζ", MathNode::Var},    {"eta", "η", MathNode::Var},      {"theta", "θ", MathNode::Var},
    {"vartheta", "ϑ", MathNode::Var}, {"iota", "ι", MathNode::Var},    {"kappa", "κ", MathNode::Var},
    {"lambda", "λ", MathNode::Var},  {"mu", "μ", MathNode::Var},       {"nu", "ν", MathNode::Var},
    {"xi", "ξ", MathNode::Var},      {"omicron", "ο", MathNode::Var},  {"pi", "π", MathNode::Var},
    {"rho", "ρ", MathNode::Var},     {"sigma", "σ", MathNode::Var},    {"tau", "τ", MathNode::Var},
    {"upsilon", "υ", MathNode::Var}, {"phi", "φ", MathNode::Var},      {"varphi", "φ", MathNode::Var},
    {"chi", "χ", MathNode::Var},     {"psi", "ψ", MathNode::Var},      {"omega", "ω", MathNode::Var},
    {"Gamma", "Γ", MathNode::Ord},   {"Delta", "Δ", MathNode::Ord},    {"Theta", "Θ", MathNode::Ord},
    {"Lambda", "Λ", MathNode::Ord},  {"Xi", "Ξ", MathNode::Ord},       {"Pi", "Π", MathNode::Ord},
    {"Sigma", "Σ", MathNode::Ord},   {"Upsilon", "Υ", MathNode::Ord},  {"Phi", "Φ", MathNode::Ord},
    {"Psi", "Ψ", MathNode::Ord},     {"Omega", "Ω", MathNode::Ord},
    {"times", "×", MathNode::Bin},   {"cdot", "·", MathNode::Bin},     {"pm", "±", MathNode::Bin},
    {"div", "÷", MathNode::Bin},      {"ast", "*", MathNode::Bin},
    {"circ", "∘", MathNode::Bin},
    {"le", "≤", MathNode::Rel},      {"leq", "≤", MathNode::Rel},      {"ge", "≥", MathNode::Rel},
    {"geq", "≥", MathNode::Rel},     {"approx", "≈", MathNode::Rel},   {"ne", "≠", MathNode::Rel},
    {"neq", "≠", MathNode::Rel},     {"to", "→", MathNode::Rel},       {"rightarrow", "→", MathNode::Rel},
    {"leftarrow", "←", MathNode::Rel}, {"Rightarrow", "⇒", MathNode::Rel}, {"sim", "∼", MathNode::Rel},
    {"equiv", "≡", MathNode::Rel},    {"in", "∈", MathNode::Rel},       {"mapsto", "↦", MathNode::Rel},
    {"infty", "∞", MathNode::Ord},   {"ldots", "…", MathNode::Ord},    {"dots", "…", MathNode::Ord},
    {"cdots", "⋯", MathNode::Ord},   {"partial", "∂", MathNode::Ord},  {"sum", "∑", MathNode::Ord},     {"prod", "∏", MathNode::Ord},     {"prime", "′", MathNode::Ord},
    {"lceil", "⌈", MathNode::Open},  {"rceil", "⌉", MathNode::Close},  {"lfloor", "⌊", MathNode::Open},
    {"rfloor", "⌋", MathNode::Close}, {"percent", "%", MathNode::Ord},
};

const char* const kFunctions[] = {"log", "ln", "exp", "sin", "cos", "tan", "max", "min", "lim",
                                  "det", "gcd", "arg", "sup", "inf"};

struct SpaceDef {
  const char* name;
  float em;
};
const SpaceDef kSpaces[] = {{"quad", 1.0f}, {"qquad", 2.0f}, {"thinspace", 3 / 18.0f}, {"enspace", 0.5f}};

std::vector<std::string> known_commands() {
  std::vector<std::string> v;
  for (const auto& s : kSymbols) v.push_back(s.name);
  for (const auto* f : kFunctions) v.push_back(f);
  for (const auto& s : kSpaces) v.push_back(s.name);
  for (const char* c : {"frac", "dfrac", "tfrac", "sqrt", "text", "textrm", "mathrm", "mathit", "operatorname", "left", "right"})
    v.push_back(c);
  return v;
}

// Edit distance, for "did you mean" on a misspelt command.
size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// Classes of characters typed directly (ASCII and the Unicode operators authors paste).
MathNode::Class class_of(std::string_view ch) {
  if (ch.size() == 1) {
    switch (ch[0]) {
      case '+': case '-': case '*': return MathNode::Bin;
      case '=': case '<': case '>': case ':': return MathNode::Rel;
      case '(': case '[': return MathNode::Open;
      case ')': case ']': case '!': return MathNode::Close;
      case ',': case ';': return MathNode::Punct;
      default: return is_alpha(ch[0]) ? MathNode::Var : MathNode::Ord;
    }
  }
  static const char* const kBin[] = {"×", "·", "⋅", "−", "±", "÷", "∘"};
  static const char* const kRel[] = {"≤", "≥", "≈", "≠", "→", "←", "⇒", "∼", "≡", "∈", "↦"};
  for (const char* b : kBin)
    if (ch == b) return MathNode::Bin;
  for (const char* r : kRel)
    if (ch == r) return MathNode::Rel;
  // Greek letters typed as characters: lower case is a variable.
  unsigned char c0 = static_cast<unsigned char>(ch[0]);
  if (ch.size() == 2 && (c0 == 0xCE || c0 == 0xCF)) {
    uint32_t cp = ((c0 & 0x1F) << 6) | (static_cast<unsigned char>(ch[1]) & 0x3F);
    if (cp >= 0x3B1 && cp <= 0x3C9) return MathNode::Var;
  }
  return MathNode::Ord;
}

struct Parser {
  std::string_view s;
  MathMode mode;
  size_t i = 0;
  int depth = 0;
  MathError err;
  bool failed = false;
  std::vector<MathBraces::Placeholder> placeholders;  // Source mode

  bool fail(size_t at, std::string msg) {
    if (!failed) {
      failed = true;
      err.offset = at;
      err.message = std::move(msg);
    }
    return false;
  }

  bool skip_space() {
    bool any = false;
    while (i < s.size() && is_space(s[i])) {
      ++i;
      any = true;
    }
    return any;
  }

  bool enter(size_t at) {
    if (++depth > kMaxMathDepth)
      return fail(at, "nested deeper than " + std::to_string(kMaxMathDepth) +
                          " levels (groups, scripts, fractions and roots inside each other)");
    return true;
  }

  const MathBraces::Placeholder* placeholder_at(size_t at) const {
    if (mode != MathMode::Source) return nullptr;
    for (const auto& p : placeholders)
      if (p.brace == at) return &p;
    return nullptr;
  }

  MathNode symbol(std::string text, MathNode::Class cls, size_t at) {
    MathNode n;
    n.kind = MathNode::Symbol;
    n.text = std::move(text);
    n.cls = cls;
    n.offset = at;
    return n;
  }

  // `{` ... `}` as a row; i is at the `{`.
  bool group(MathNode& out) {
    size_t at = i;
    if (!enter(at)) return false;
    ++i;
    out = MathNode{};
    out.kind = MathNode::Row;
    out.offset = at;
    if (!row(out, '}')) return false;
    if (i >= s.size()) return fail(at, "'{' is never closed");
    ++i;
    --depth;
    return true;
  }

  bool placeholder(const MathBraces::Placeholder& p, MathNode& out) {
    if (p.close == npos) return fail(p.brace, "the placeholder '{' is never closed on its line");
    out = symbol(std::string(s.substr(p.brace, p.close + 1 - p.brace)), MathNode::Num, p.brace);
    i = p.close + 1;
    return true;
  }

  bool row(MathNode& r, char stop) {
    while (true) {
      bool sp = skip_space();
      if (i >= s.size()) return true;
      char c = s[i];
      if (stop && c == stop) return true;
      if (c == '}') return fail(i, "'}' closes no group");
      if (c == '^' || c == '_') {
        size_t at = i;
        bool sup = c == '^';
        MathNode* base = r.kids.empty() ? nullptr : &r.kids.back();
        if (!base || base->kind != MathNode::Scripts || (sup ? base->has_sup : base->has_sub)) {
          MathNode sc;
          sc.kind = MathNode::Scripts;
          sc.offset = at;
          sc.kids.resize(3);
          for (auto& k : sc.kids) k.kind = MathNode::Row;
          if (base && base->kind != MathNode::Space) {
            if (base->kind == MathNode::Scripts)
              return fail(at, sup ? "a second superscript on the same base: group the first one, {x^{a}}^{b}"
                                  : "a second subscript on the same base: group the first one, {x_{a}}_{b}");
            sc.space_before = base->space_before;
            sc.offset = base->offset;
            base->space_before = false;
            sc.kids[0] = std::move(*base);
            r.kids.pop_back();
          } else {
            sc.space_before = sp;
          }
          r.kids.push_back(std::move(sc));
          base = &r.kids.back();
        }
        ++i;
        if (!enter(at)) return false;
        MathNode arg;
        if (!argument(arg, sup ? "'^' needs a superscript after it" : "'_' needs a subscript after it")) return false;
        --depth;
        base = &r.kids.back();
        (sup ? base->has_sup : base->has_sub) = true;
        base->kids[sup ? 1 : 2] = std::move(arg);
        continue;
      }
      MathNode a;
      if (!atom(a)) return false;
      a.space_before = sp;
      r.kids.push_back(std::move(a));
    }
  }

  // What follows ^, _ or a command: a group, a command, or one character (one digit: x^23
  // is x² then 3, as in LaTeX).
  bool argument(MathNode& out, const std::string& missing) {
    skip_space();
    if (i >= s.size() || s[i] == '}' || s[i] == '^' || s[i] == '_' || s[i] == ']') return fail(i, missing);
    if (s[i] == '{') {
      if (const auto* p = placeholder_at(i)) return placeholder(*p, out);
      // The script, fraction or root owning this argument counted the level already.
      --depth;
      bool ok = group(out);
      ++depth;
      return ok;
    }
    if (s[i] == '\\') return command(out);
    if (is_digit(s[i])) {
      out = symbol(std::string(1, s[i]), MathNode::Num, i);
      ++i;
      return true;
    }
    return atom(out);
  }

  bool atom(MathNode& out) {
    size_t at = i;
    char c = s[i];
    if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      size_t j = i;
      while (j < s.size() && (is_digit(s[j]) || ((s[j] == '.' || s[j] == ',') && j + 1 < s.size() && is_digit(s[j + 1])))) ++j;
      out = symbol(std::string(s.substr(i, j - i)), MathNode::Num, at);
      i = j;
      return true;
    }
    if (c == '\\') return command(out);
    if (c == '{') {
      if (const auto* p = placeholder_at(i)) return placeholder(*p, out);
      return group(out);
    }
    if (c == '\'') {
      out = symbol("′", MathNode::Ord, at);
      ++i;
      return true;
    }
    if (c == '~') {
      out = MathNode{};
      out.kind = MathNode::Space;
      out.space_em = 0.25f;
      out.offset = at;
      ++i;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return fail(at, "a control character in maths");
    size_t n = std::min(utf8_len(static_cast<unsigned char>(c)), s.size() - i);
    std::string ch(s.substr(i, n));
    MathNode::Class cls = class_of(ch);
    if (ch == "-") ch = "−";
    out = symbol(ch, cls, at);
    if (n == 2) {  // capital Greek typed as a character: upright, like \Delta
      unsigned char c0 = static_cast<unsigned char>(s[i]);
      uint32_t cp = ((c0 & 0x1F) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      if (cp >= 0x391 && cp <= 0x3A9) out.upright_capital = true;
    }
    i += n;
    return true;
  }

  // \text{...}: raw text up to the matching brace; inner braces group, \{ \} \$ are literal.
  bool text_arg(MathNode& out, std::string_view name, size_t at) {
    skip_space();
    if (i >= s.size() || s[i] != '{') return fail(i, "\\" + std::string(name) + " needs its text in braces: \\" + std::string(name) + "{...}");
    size_t open = i++;
    int level = 1;
    std::string t;
    while (i < s.size()) {
      char c = s[i];
      if (c == '\\' && i + 1 < s.size() && !is_alpha(s[i + 1])) {
        char n = s[i + 1];
        if (n == ',' || n == ';' || n == ':' || n == ' ') t += ' ';
        else t += n;
        i += 2;
        continue;
      }
      if (c == '{') {
        if (const auto* p = placeholder_at(i)) {
          if (p->close == npos) return fail(i, "the placeholder '{' is never closed on its line");
          t += std::string(s.substr(i, p->close + 1 - i));
          i = p->close + 1;
          continue;
        }
        ++level;
        ++i;
        continue;
      }
      if (c == '}') {
        if (--level == 0) break;
        ++i;
        continue;
      }
      t += c;
      ++i;
    }
    if (i >= s.size()) return fail(open, "'{' is never closed");
    ++i;
    out = MathNode{};
    out.kind = MathNode::Text;
    out.text = t;
    out.offset = at;
    if (name != "text" && name != "textrm") {  // \mathrm{d}, \operatorname{softmax}: upright, spaced like a function name
      out.kind = MathNode::Symbol;
      out.cls = name == "mathit" ? MathNode::Var : MathNode::Func;
    }
    return true;
  }

  bool command(MathNode& out) {
    size_t at = i;
    ++i;
    if (i >= s.size()) return fail(at, "a lone '\\' at the end of the maths");
    if (!is_alpha(s[i])) return escaped(out, at);
    size_t j = i;
    while (j < s.size() && is_alpha(s[j])) ++j;
    std::string name(s.substr(i, j - i));
    i = j;
    if (table_command(out, name, at)) return true;
    if (name == "text" || name == "textrm" || name == "mathrm" || name == "mathit" || name == "operatorname")
      return text_arg(out, name, at);
    if (name == "frac" || name == "dfrac" || name == "tfrac") return fraction(out, name, at);
    if (name == "sqrt") return root(out, at);
    if (name == "left" || name == "right") return delimiter(out, name, at);
    return unknown_command(name, at);
  }

  // `\` and one character that is not a letter: a space, an escaped symbol or an error; i is
  // at that character.
  bool escaped(MathNode& out, size_t at) {
    char c = s[i];
    ++i;
    float em = 0;
    switch (c) {
      case ',': em = 3 / 18.0f; break;
      case ':': case '>': em = 4 / 18.0f; break;
      case ';': em = 5 / 18.0f; break;
      case '!': em = -3 / 18.0f; break;
      case ' ': em = 0.25f; break;
      case '{': out = symbol("{", MathNode::Open, at); return true;
      case '}': out = symbol("}", MathNode::Close, at); return true;
      case '$': case '%': case '&': case '#': case '_': out = symbol(std::string(1, c), MathNode::Ord, at); return true;
      case '|': out = symbol("‖", MathNode::Ord, at); return true;
      case '\\': return fail(at, "line breaks (\\\\) do not exist in inline maths");
      default:
        return fail(at, "unknown command \\" + std::string(utf8_char_at(s, i - 1)));
    }
    out = MathNode{};
    out.kind = MathNode::Space;
    out.space_em = em;
    out.offset = at;
    return true;
  }

  // A command of the symbol, function or space tables; false when `name` is in none of them.
  bool table_command(MathNode& out, const std::string& name, size_t at) {
    for (const auto& d : kSymbols)
      if (name == d.name) {
        out = symbol(d.text, d.cls, at);
        out.upright_capital = d.cls == MathNode::Ord && std::isupper(static_cast<unsigned char>(name[0]));
        return true;
      }
    for (const char* f : kFunctions)
      if (name == f) {
        out = symbol(name, MathNode::Func, at);
        return true;
      }
    for (const auto& sp : kSpaces)
      if (name == sp.name) {
        out = MathNode{};
        out.kind = MathNode::Space;
        out.space_em = sp.em;
        out.offset = at;
        return true;
      }
    return false;
  }

  // \frac, \dfrac, \tfrac and their two arguments.
  bool fraction(MathNode& out, const std::string& name, size_t at) {
    if (!enter(at)) return false;
    out = MathNode{};
    out.kind = MathNode::Frac;
    out.offset = at;
    out.kids.resize(2);
    const std::string usage = "\\" + name + " needs two arguments: \\" + name + "{numerator}{denominator}";
    if (!argument(out.kids[0], usage) || !argument(out.kids[1], usage)) return false;
    --depth;
    return true;
  }

  // \sqrt, its optional [index] and its argument.
  bool root(MathNode& out, size_t at) {
    if (!enter(at)) return false;
    out = MathNode{};
    out.kind = MathNode::Root;
    out.offset = at;
    out.kids.resize(2);
    out.kids[1].kind = MathNode::Row;
    skip_space();
    if (i < s.size() && s[i] == '[') {
      size_t open = i++;
      out.kids[1].offset = open;
      if (!row(out.kids[1], ']')) return false;
      if (i >= s.size()) return fail(open, "'[' is never closed");
      ++i;
    }
    if (!argument(out.kids[0], "\\sqrt needs an argument: \\sqrt{x}")) return false;
    --depth;
    return true;
  }

  // \left and \right with their delimiter.
  bool delimiter(MathNode& out, const std::string& name, size_t at) {
    // Delimiters are not stretched: \left( is drawn as (.
    skip_space();
    if (i >= s.size()) return fail(at, "\\" + name + " needs a delimiter after it, such as ( or [");
    if (s[i] == '.') {
      ++i;
      out = MathNode{};
      out.kind = MathNode::Row;
      out.offset = at;
      return true;
    }
    if (!atom(out)) return false;
    out.cls = name == "left" ? MathNode::Open : MathNode::Close;
    return true;
  }

  // The error for a command no table knows, with the nearest known one if it is close.
  bool unknown_command(const std::string& name, size_t at) {
    std::string msg = "unknown command \\" + name;
    std::string best;
    size_t best_d = 3;
    for (const auto& k : known_commands()) {
      size_t d = distance(name, k);
      if (d < best_d || (d == best_d && !best.empty() && k.size() < best.size())) {
        best_d = d;
        best = k;
      }
    }
    if (!best.empty() && best_d <= std::max<size_t>(1, name.size() / 3)) msg += " (did you mean \\" + best + "?)";
    return fail(at, msg);
  }
};

}  // namespace

std::optional<MathNode> parse_math(std::string_view source, MathError* error, MathMode mode) {
  Parser p;
  p.s = source;
  p.mode = mode;
  if (source.size() > kMaxMathBytes) {
    p.fail(kMaxMathBytes, "the maths is longer than " + std::to_string(kMaxMathBytes) +
                              " bytes; split it, or write the words outside the $...$");
  } else {
    if (mode == MathMode::Source) p.placeholders = scan_math_braces(source).placeholders;
    MathNode root;
    root.kind = MathNode::Row;
    if (p.row(root, 0) && !p.failed) return root;
  }
  if (error) *error = p.err;
  return std::nullopt;
}

// ---------------------------------------------------------------- plain text

namespace {

// "⁻⁵" when every character has a script form, else nothing.
std::optional<std::string> as_script_chars(const std::string& plain, bool sup) {
  std::string out;
  for (size_t i = 0; i < plain.size();) {
    const char* m = (sup ? superscript_of : subscript_of)(utf8_decode(plain, i));
    if (!m) return std::nullopt;
    out += m;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

void plain(const MathNode& n, std::string& out);

std::string plain_of(const MathNode& n) {
  std::string s;
  plain(n, s);
  return s;
}

// Counts the items of a row that are not spaces, looking through one-item groups.
const MathNode& unwrap(const MathNode& n) {
  if (n.kind == MathNode::Row && n.kids.size() == 1) return unwrap(n.kids[0]);
  return n;
}
bool single_atom(const MathNode& n) {
  const MathNode& u = unwrap(n);
  if (u.kind == MathNode::Symbol || u.kind == MathNode::Text) return true;
  if (u.kind == MathNode::Scripts) return true;
  return u.kind == MathNode::Row && u.kids.empty();
}
// An operator or relation at the top level: a numerator needs parentheses before "/".
// Brackets are symbols in the row, so only what is outside them counts.
bool has_operator(const MathNode& n) {
  const MathNode& u = unwrap(n);
  if (u.kind == MathNode::Frac) return true;
  if (u.kind != MathNode::Row) return false;
  int depth = 0;
  for (const auto& k : u.kids) {
    if (k.kind == MathNode::Symbol && k.cls == MathNode::Open) ++depth;
    if (k.kind == MathNode::Symbol && k.cls == MathNode::Close && depth > 0) --depth;
    if (depth > 0) continue;
    if ((k.kind == MathNode::Symbol && (k.cls == MathNode::Bin || k.cls == MathNode::Rel || k.cls == MathNode::Punct)) ||
        k.kind == MathNode::Frac || k.space_before)
      return true;
  }
  return false;
}

std::string script(const MathNode& arg, bool sup) {
  std::string p = plain_of(arg);
  if (auto s = as_script_chars(p, sup)) return *s;
  std::string mark = sup ? "^" : "_";
  size_t i = 0;
  if (!p.empty()) utf8_decode(p, i);
  if (i == p.size() && !p.empty()) return mark + p;
  return mark + "(" + p + ")";
}

void plain(const MathNode& n, std::string& out) {
  if (n.space_before && !out.empty() && out.back() != ' ') out += ' ';
  switch (n.kind) {
    case MathNode::Row:
      for (const auto& k : n.kids) plain(k, out);
      break;
    case MathNode::Symbol:
    case MathNode::Text:
      out += n.text;
      break;
    case MathNode::Space:
      if (n.space_em > 0 && !out.empty() && out.back() != ' ') out += ' ';
      break;
    case MathNode::Scripts:
      plain(n.kids[0], out);
      if (n.has_sub) out += script(n.kids[2], false);
      if (n.has_sup) out += script(n.kids[1], true);
      break;
    case MathNode::Frac: {
      std::string num = plain_of(n.kids[0]), den = plain_of(n.kids[1]);
      if (has_operator(n.kids[0])) num = "(" + num + ")";
      if (!single_atom(n.kids[1])) den = "(" + den + ")";
      out += num + "/" + den;
      break;
    }
    case MathNode::Root: {
      std::string idx = plain_of(n.kids[1]);
      if (!idx.empty()) {
        if (auto s = as_script_chars(idx, true)) out += *s;
        else out += "(" + idx + ")";
      }
      std::string r = plain_of(n.kids[0]);
      out += single_atom(n.kids[0]) ? "√" + r : "√(" + r + ")";
      break;
    }
  }
}

// ---- words: what a screen reader says for a formula ("2 M times (N minus 1) over N"), so
// the page's spoken feedback never spells out symbols or LaTeX.

std::string words_of(const MathNode& n);

std::string symbol_words(const std::string& t) {
  static const std::pair<const char*, const char*> kSaid[] = {
      {"−", "minus"}, {"-", "minus"}, {"+", "plus"}, {"×", "times"}, {"·", "times"}, {"⋅", "times"},
      {"=", "equals"}, {"≈", "is about"}, {"≤", "is at most"}, {"≥", "is at least"}, {"<", "is less than"},
      {">", "is greater than"}, {"≠", "is not"}, {"/", "over"}, {"÷", "divided by"}, {"→", "to"},
      {"∞", "infinity"}, {"%", "percent"}, {"±", "plus or minus"}, {"∝", "is proportional to"}};
  for (const auto& [sym, said] : kSaid)
    if (t == sym) return said;
  return t;
}

std::string power_words(const MathNode& sup) {
  const std::string p = plain_of(sup);
  if (p == "2") return " squared";
  if (p == "3") return " cubed";
  return " to the power " + words_of(sup) + (has_operator(sup) ? ", end power" : "");
}

void words(const MathNode& n, std::string& out) {
  auto add = [&](const std::string& w) {
    if (w.empty()) return;
    if (!out.empty() && out.back() != ' ' && out.back() != '(' && w.front() != ')' && w.front() != ',') out += ' ';
    out += w;
  };
  switch (n.kind) {
    case MathNode::Row:
      for (const auto& k : n.kids) words(k, out);
      break;
    case MathNode::Symbol:
    case MathNode::Text:
      add(symbol_words(n.text));
      break;
    case MathNode::Space:
      break;
    case MathNode::Scripts:
      words(n.kids[0], out);
      if (n.has_sub) add("sub " + words_of(n.kids[2]));
      if (n.has_sup) out += power_words(n.kids[1]);
      break;
    case MathNode::Frac: {
      std::string num = words_of(n.kids[0]), den = words_of(n.kids[1]);
      // (grouped wherever a side is more than one atom: said aloud, "2 M (N minus 1) over N"
      // would not tell where the numerator ends)
      if (!single_atom(n.kids[0])) num = "(" + num + ")";
      if (!single_atom(n.kids[1])) den = "(" + den + ")";
      add(num + " over " + den);
      break;
    }
    case MathNode::Root: {
      const std::string idx = plain_of(n.kids[1]);
      const std::string which = idx.empty() || idx == "2" ? "the square root of " : idx == "3" ? "the cube root of " : "the root " + idx + " of ";
      add(which + (single_atom(n.kids[0]) ? words_of(n.kids[0]) : "(" + words_of(n.kids[0]) + ")"));
      break;
    }
  }
}

std::string words_of(const MathNode& n) {
  std::string out;
  words(n, out);
  return out;
}

}  // namespace

std::string math_to_words(const MathNode& node) { return words_of(node); }

std::string math_to_plain(const MathNode& node) {
  std::string out;
  plain(node, out);
  while (!out.empty() && out[0] == ' ') out.erase(0, 1);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A Markdown text with every maths span rendered by `render` (a span that does not parse
// keeps its source) and `\$` written `$`.
static std::string markdown_math_rendered(std::string_view md, std::string (*render)(const MathNode&)) {
  MathScan scan = find_math_spans(md);
  std::string out;
  size_t at = 0;
  auto copy_text = [&](size_t from, size_t to) {
    // `\$` is how a literal dollar is written once `$` opens maths.
    for (size_t k = from; k < to; ++k) {
      if (md[k] == '\\' && k + 1 < to && md[k + 1] == '$') continue;
      out += md[k];
    }
  };
  for (const MathSpan& sp : scan.spans) {
    copy_text(at, sp.open);
    std::string_view src = md.substr(sp.begin, sp.end - sp.begin);
    if (auto node = parse_math(src, nullptr)) out += render(*node);
    else out += std::string(md.substr(sp.open, sp.close - sp.open));
    at = sp.close;
  }
  copy_text(at, md.size());
  return out;
}

std::string markdown_math_to_plain(std::string_view md) { return markdown_math_rendered(md, math_to_plain); }

std::string markdown_math_to_words(std::string_view md) { return markdown_math_rendered(md, math_to_words); }

}  // namespace dtx
