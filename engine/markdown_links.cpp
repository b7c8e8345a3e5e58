#include "markdown_links.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "text.h"

namespace dtx {

namespace {

bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_punct(char c) { return c > 0x20 && c < 0x7f && !std::isalnum(static_cast<unsigned char>(c)); }
bool is_space_or_control(char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }

// A numeric character reference's code point, as HTML reads it: NUL, surrogates and values
// past Unicode become U+FFFD.
void append_reference_codepoint(std::string& out, uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  append_utf8(out, cp);
}

// A character reference at s[i] ('&'): appends what it stands for and returns its length, or
// 0 when it is not one. Named references: only those that can hide a scheme (a colon, the
// characters a URL parser removes) or are common; an unknown name stays as written, which
// leaves a '&' in the scheme, and the browser reads that as a relative link.
size_t decode_reference(std::string_view s, size_t i, std::string& out) {
  size_t semi = s.find(';', i + 1);
  if (semi == std::string_view::npos || semi - i > 34) return 0;
  std::string_view body = s.substr(i + 1, semi - i - 1);
  if (body.size() >= 2 && body[0] == '#') {
    bool hex = body[1] == 'x' || body[1] == 'X';
    std::string_view digits = body.substr(hex ? 2 : 1);
    if (digits.empty() || digits.size() > (hex ? 6u : 7u)) return 0;
    for (char c : digits)
      if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)))) return 0;
    append_reference_codepoint(out, static_cast<uint32_t>(std::strtoul(std::string(digits).c_str(), nullptr, hex ? 16 : 10)));
    return semi - i + 1;
  }
  static const struct { const char* name; const char* text; } kNamed[] = {
      {"colon", ":"}, {"Tab", "\t"}, {"NewLine", "\n"}, {"amp", "&"}, {"AMP", "&"}, {"sol", "/"},
      {"quot", "\""}, {"apos", "'"}, {"lt", "<"}, {"gt", ">"}, {"nbsp", "\xC2\xA0"}, {"lpar", "("}, {"rpar", ")"},
      {"period", "."}, {"plus", "+"}, {"hyphen", "-"}, {"dash", "-"}};
  for (const auto& n : kNamed)
    if (body == n.name) {
      out += n.text;
      return semi - i + 1;
    }
  return 0;
}

// What the browser receives for a destination written in Markdown.
std::string decode_destination(std::string_view d) {
  std::string out;
  for (size_t i = 0; i < d.size();) {
    if (d[i] == '\\' && i + 1 < d.size() && is_ascii_punct(d[i + 1])) {
      out += d[i + 1];
      i += 2;
    } else if (d[i] == '&') {
      size_t n = decode_reference(d, i, out);
      if (n == 0) out += d[i++];
      else i += n;
    } else {
      out += d[i++];
    }
  }
  return out;
}

// ---------------------------------------------------------------- the scanner

// A reference label as CommonMark matches it: letter case and runs of white space do not count.
std::string normalize_label(std::string_view label) {
  std::string out;
  bool space = false;
  for (char c : label) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

struct Scanner {
  std::string_view s;
  std::vector<MarkdownLink> found;

  // Images: the '[' not yet closed (innermost last), each with whether a '!' opened it, and
  // reference images waiting for their definitions (which may come later in the text).
  struct Opener {
    size_t at;
    bool image;
  };
  std::vector<Opener> open;
  size_t last_bang = std::string_view::npos;  // where the last unescaped '!' outside code was
  std::vector<MarkdownImage> images;
  std::vector<std::string> image_labels;  // per image: its normalized label ("" inline)

  void add(size_t begin, size_t end, std::string label = {}) {
    if (end > begin) found.push_back({std::string(s.substr(begin, end - begin)), begin, std::move(label)});
  }

  // Spaces, tabs and at most one line break, as between "](" and a destination.
  size_t skip_blank(size_t i) const {
    bool newline = false;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || (s[i] == '\n' && !newline))) {
      if (s[i] == '\n') newline = true;
      ++i;
    }
    return i;
  }

  // A destination at i: <...> or a run without spaces in which parentheses balance. Records
  // it and returns the index after it.
  size_t destination(size_t i, bool stop_at_paren, std::string label = {}) {
    if (i < s.size() && s[i] == '<') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != '>' && s[j] != '\n' && s[j] != '<') j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
      add(i + 1, std::min(j, s.size()), std::move(label));
      return j < s.size() ? j + 1 : j;
    }
    // Ends at a space or line break. CommonMark also ends it at a tab or another control
    // character, but then md4c makes no link of it at all: reading on reports "java\tscript:"
    // rather than "java", erring towards the report.
    size_t j = i;
    int depth = 0;
    while (j < s.size() && s[j] != ' ' && s[j] != '\n' && s[j] != '\r') {
      if (s[j] == '\\' && j + 1 < s.size()) {
        j += 2;
        continue;
      }
      if (s[j] == '(') ++depth;
      if (s[j] == ')' && depth-- == 0 && stop_at_paren) break;
      ++j;
    }
    add(i, j, std::move(label));
    return j;
  }

  // <scheme:...> at i ('<'), as CommonMark defines autolinks (a scheme of 2 to 32 characters,
  // then no spaces or angle brackets).
  size_t autolink(size_t i) {
    size_t j = i + 1;
    if (j >= s.size() || !is_ascii_alpha(s[j])) return 0;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '+' || s[j] == '-' || s[j] == '.')) ++j;
    if (j >= s.size() || s[j] != ':' || j - i - 1 < 2 || j - i - 1 > 32) return 0;
    while (j < s.size() && s[j] != '>' && s[j] != '<' && !is_space_or_control(s[j])) ++j;
    if (j >= s.size() || s[j] != '>') return 0;
    add(i + 1, j);
    return j + 1;
  }

  // A reference definition "[label]: dest" starting at i (a line's first '['). Only records
  // the destination when what follows it can end a definition (end of line or a title), so
  // prose such as "[Note]: remember: ..." is not taken for one.
  // Returns the index after the destination when it recorded one, else 0.
  size_t definition(size_t i) {
    size_t j = i + 1;
    while (j < s.size() && s[j] != ']' && s[j] != '[' && s[j] != '\n') j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
    if (j + 1 >= s.size() || s[j] != ']' || s[j + 1] != ':' || j == i + 1) return 0;
    size_t d = skip_blank(j + 2);
    if (d >= s.size() || s[d] == '\n') return 0;
    size_t before = found.size();
    size_t end = destination(d, false, std::string(s.substr(i + 1, j - i - 1)));
    size_t e = end;
    while (e < s.size() && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r')) ++e;
    if (e >= s.size() || s[e] == '\n' || s[e] == '"' || s[e] == '\'' || s[e] == '(') return found.size() > before ? end : 0;
    found.resize(before);
    return 0;
  }

  // Where a line's content starts: after up to 3 spaces, block quote markers and list
  // markers, any of which a definition may sit behind.
  size_t line_content(size_t i) const {
    for (bool more = true; more;) {
      more = false;
      size_t sp = 0;
      while (i < s.size() && s[i] == ' ' && sp < 3) ++i, ++sp;
      if (i < s.size() && s[i] == '>') {
        ++i;
        if (i < s.size() && s[i] == ' ') ++i;
        more = true;
      } else if (i + 1 < s.size() && (s[i] == '-' || s[i] == '*' || s[i] == '+') && (s[i + 1] == ' ' || s[i + 1] == '\t')) {
        i += 2;
        more = true;
      } else {
        size_t j = i;
        while (j < s.size() && j - i < 9 && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        if (j > i && j + 1 < s.size() && (s[j] == '.' || s[j] == ')') && (s[j + 1] == ' ' || s[j + 1] == '\t')) {
          i = j + 2;
          more = true;
        }
      }
    }
    return i;
  }

  // A code fence (``` or ~~~, 3 or more) at a line's content start: its character and length.
  std::pair<char, size_t> fence_at(size_t i) const {
    if (i >= s.size() || (s[i] != '`' && s[i] != '~')) return {0, 0};
    size_t j = i;
    while (j < s.size() && s[j] == s[i]) ++j;
    return j - i >= 3 ? std::make_pair(s[i], j - i) : std::make_pair('\0', size_t{0});
  }

  void run() {
    char fence_char = 0;
    size_t fence_len = 0;
    size_t i = 0;
    bool line_start = true;
    while (i < s.size()) {
      if (line_start) {
        line_start = false;
        // A blank line ends the paragraph: no bracket opened before it closes after it.
        size_t b = i;
        while (b < s.size() && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
        if (b >= s.size() || s[b] == '\n') open.clear();
        size_t c = line_content(i);
        auto [fc, fl] = fence_at(c);
        if (fence_char) {
          // Inside a fenced block nothing is a link: skip the line (it may close the fence).
          if (fc == fence_char && fl >= fence_len) fence_char = 0;
          size_t nl = s.find('\n', i);
          i = nl == std::string_view::npos ? s.size() : nl + 1;
          line_start = true;
          continue;
        }
        if (fc) {
          open.clear();
          fence_char = fc;
          fence_len = fl;
          size_t nl = s.find('\n', i);
          i = nl == std::string_view::npos ? s.size() : nl + 1;
          line_start = true;
          continue;
        }
        if (c < s.size() && s[c] == '[') {
          // Past the definition, so a <destination> is not also read as an autolink.
          if (size_t end = definition(c)) {
            i = end;
            continue;
          }
        }
      }
      char ch = s[i];
      if (ch == '\n') {
        line_start = true;
        ++i;
      } else if (ch == '\\' && i + 1 < s.size() && s[i + 1] != '\n') {
        i += 2;
      } else if (ch == '`') {
        // A code span: a run of n backticks up to the next run of exactly n.
        size_t n = 0;
        while (i + n < s.size() && s[i + n] == '`') ++n;
        size_t j = i + n, close = std::string_view::npos;
        while (j < s.size()) {
          if (s[j] != '`') {
            ++j;
            continue;
          }
          size_t m = 0;
          while (j + m < s.size() && s[j + m] == '`') ++m;
          if (m == n) {
            close = j;
            break;
          }
          j += m;
        }
        i = close == std::string_view::npos ? i + n : close + n;
      } else if (ch == '[') {
        open.push_back({i, last_bang != std::string_view::npos && last_bang + 1 == i});
        ++i;
      } else if (ch == ']') {
        i = close_bracket(i);
      } else if (ch == '<') {
        size_t next = autolink(i);
        i = next ? next : i + 1;
      } else {
        if (ch == '!') last_bang = i;
        ++i;
      }
    }
    resolve_references();
  }

  // A ']' at i: closes the innermost open '[' (if any). Before "(", what follows is a link's
  // or an inline image's destination; an image's "[label]", "[]" or nothing names a
  // definition. Returns where scanning goes on.
  size_t close_bracket(size_t i) {
    std::optional<Opener> o;
    if (!open.empty()) {
      o = open.back();
      open.pop_back();
    }
    const bool image = o && o->image;
    std::string alt = image ? std::string(s.substr(o->at + 1, i - o->at - 1)) : std::string();
    if (i + 1 < s.size() && s[i + 1] == '(') {
      const size_t d = skip_blank(i + 2);
      const size_t before = found.size();
      const size_t next = destination(d, true);
      if (image) {
        MarkdownImage img;
        if (found.size() > before) {
          img.source = found.back().destination;
          img.source_offset = found.back().offset;
        } else {
          img.source_offset = d;  // ![alt](): an image with no address
        }
        img.alt = std::move(alt);
        img.offset = o->at - 1;
        images.push_back(std::move(img));
        image_labels.emplace_back();
      }
      return next;
    }
    if (!image) return i + 1;
    // By reference: the label in the brackets after it, or (collapsed "[]", or none) the alt.
    std::string label = alt;
    size_t next = i + 1;
    if (next < s.size() && s[next] == '[') {
      size_t j = next + 1;
      // CommonMark labels hold at most 999 characters and no unescaped brackets.
      while (j < s.size() && j - next <= 1000 && s[j] != ']' && s[j] != '[') j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
      if (j < s.size() && s[j] == ']') {
        if (j > next + 1) label = std::string(s.substr(next + 1, j - next - 1));
        next = j + 1;
      }
    }
    MarkdownImage img;
    img.alt = std::move(alt);
    img.offset = o->at - 1;
    img.reference = true;
    images.push_back(std::move(img));
    image_labels.push_back(normalize_label(label));
    return next;
  }

  // Reference images take their source from the first definition of their label; one whose
  // label has none is no image (md4c leaves the text as written).
  void resolve_references() {
    std::unordered_map<std::string, const MarkdownLink*> defined;
    for (const MarkdownLink& d : found)
      if (!d.label.empty()) defined.emplace(normalize_label(d.label), &d);
    std::vector<MarkdownImage> kept;
    for (size_t k = 0; k < images.size(); ++k) {
      MarkdownImage& img = images[k];
      if (img.reference) {
        auto it = image_labels[k].empty() ? defined.end() : defined.find(image_labels[k]);
        if (it == defined.end()) continue;
        img.source = it->second->destination;
        img.source_offset = it->second->offset;
      }
      kept.push_back(std::move(img));
    }
    images = std::move(kept);
  }
};

}  // namespace

std::string link_scheme(std::string_view destination) {
  std::string url = decode_destination(destination);
  // What the WHATWG URL parser does first: trim C0 controls and spaces at both ends, drop
  // every tab and line break inside. So " java\tscript:" is still javascript:.
  size_t b = 0, e = url.size();
  while (b < e && static_cast<unsigned char>(url[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(url[e - 1]) <= 0x20) --e;
  std::string cleaned;
  for (size_t i = b; i < e; ++i)
    if (url[i] != '\t' && url[i] != '\n' && url[i] != '\r') cleaned += url[i];
  // A scheme is a letter, then letters, digits, '+', '-', '.', up to a ':'; anything else
  // first makes the address relative.
  if (cleaned.empty() || !is_ascii_alpha(cleaned[0])) return "";
  for (size_t i = 0; i < cleaned.size(); ++i) {
    char c = cleaned[i];
    if (c == ':') {
      std::string scheme = cleaned.substr(0, i);
      for (char& x : scheme) x = static_cast<char>(std::tolower(static_cast<unsigned char>(x)));
      return scheme;
    }
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return "";
  }
  return "";
}

bool link_scheme_allowed(std::string_view destination) {
  std::string scheme = link_scheme(destination);
  return scheme.empty() || scheme == "http" || scheme == "https" || scheme == "mailto";
}

std::vector<MarkdownLink> find_markdown_links(std::string_view text) {
  Scanner sc{text, {}};
  sc.run();
  return std::move(sc.found);
}

std::vector<MarkdownImage> find_markdown_images(std::string_view text) {
  Scanner sc{text, {}};
  sc.run();
  return std::move(sc.images);
}

namespace {

// A source as the browser reads it: decoded, trimmed, tabs and line breaks dropped.
std::string cleaned_source(std::string_view source) {
  std::string url = decode_destination(source);
  size_t b = 0, e = url.size();
  while (b < e && static_cast<unsigned char>(url[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(url[e - 1]) <= 0x20) --e;
  std::string out;
  for (size_t i = b; i < e; ++i)
    if (url[i] != '\t' && url[i] != '\n' && url[i] != '\r') out += url[i];
  return out;
}

// The part before any ?query or #fragment.
std::string without_query(const std::string& url) { return url.substr(0, url.find_first_of("?#")); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string image_extension(std::string_view source) {
  std::string path = without_query(cleaned_source(source));
  size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = name.find_last_of('.');
  if (dot == std::string::npos) return "";
  std::string ext = name.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool image_format_allowed(std::string_view source) {
  std::string ext = image_extension(source);
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".svg";
}

bool image_scheme_allowed(std::string_view source) {
  std::string scheme = link_scheme(source);
  return scheme.empty() || scheme == "http" || scheme == "https";
}

std::string image_relative_path(std::string_view source) {
  if (!link_scheme(source).empty()) return "";
  std::string url = cleaned_source(source);
  if (url.empty() || url[0] == '/' || url[0] == '\\' || url.find('{') != std::string::npos) return "";
  std::string path = without_query(url), out;
  for (size_t i = 0; i < path.size(); ++i) {
    int hi = path[i] == '%' && i + 2 < path.size() ? hex_value(path[i + 1]) : -1;
    int lo = hi >= 0 ? hex_value(path[i + 2]) : -1;
    if (hi >= 0 && lo >= 0) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += path[i];
    }
  }
  return out;
}

}  // namespace dtx
