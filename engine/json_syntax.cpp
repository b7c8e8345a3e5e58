#include "json_syntax.h"

#include <vector>

namespace dtx {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '$' || c == '-' ||
         c == '+' || c == '.';
}
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// "'w'" + rest, built by appending (GCC 12 warns, wrongly, about `"'" + temporary + "..."`).
std::string quoted(const std::string& w, std::string_view rest) {
  std::string out;
  out.reserve(w.size() + rest.size() + 2);
  out += '\'';
  out += w;
  out += '\'';
  out += rest;
  return out;
}

std::string shown_char(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7f) {
    static const char* kHex = "0123456789ABCDEF";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }
  return std::string("'") + c + "'";
}

// Length of the UTF-8 sequence at `p` (1 to 4), or 0 when it is not well formed.
size_t utf8_sequence(std::string_view s, size_t p) {
  unsigned char c = static_cast<unsigned char>(s[p]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || p + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[p + k]) & 0xC0) != 0x80) return 0;
  unsigned cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[p + k]) & 0x3F);
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

struct Scanner {
  std::string_view s;
  size_t p = 0;
  std::optional<JsonSyntaxError> error;

  bool fail(size_t at, std::string message) {
    if (!error) error = JsonSyntaxError{at, std::move(message)};
    return false;
  }
  void skip_space() {
    while (p < s.size() && is_space(s[p])) ++p;
  }
  std::string word_at(size_t at) const {
    size_t e = at;
    while (e < s.size() && is_word(s[e]) && e - at < 40) ++e;
    return std::string(s.substr(at, e - at));
  }

  // A string starting at the '"' at p.
  bool string(const char* what) {
    const size_t open = p++;
    while (p < s.size()) {
      char c = s[p];
      if (c == '"') {
        ++p;
        return true;
      }
      if (c == '\\') {
        if (p + 1 >= s.size()) break;
        char e = s[p + 1];
        if (e == 'u') {
          for (size_t k = 2; k < 6; ++k)
            if (p + k >= s.size() || !is_hex(s[p + k]))
              return fail(p, "\\u in a string must be followed by 4 hexadecimal digits, as in \\u00e9");
          unsigned v = static_cast<unsigned>(std::stoul(std::string(s.substr(p + 2, 4)), nullptr, 16));
          if (v >= 0xDC00 && v <= 0xDFFF)
            return fail(p, "\\u" + std::string(s.substr(p + 2, 4)) + " is the second half of a surrogate pair with no first half");
          if (v >= 0xD800 && v <= 0xDBFF) {
            bool pair = p + 11 < s.size() && s[p + 6] == '\\' && s[p + 7] == 'u' && is_hex(s[p + 8]) && is_hex(s[p + 9]) &&
                        is_hex(s[p + 10]) && is_hex(s[p + 11]);
            unsigned low = pair ? static_cast<unsigned>(std::stoul(std::string(s.substr(p + 8, 4)), nullptr, 16)) : 0;
            if (!pair || low < 0xDC00 || low > 0xDFFF)
              return fail(p, "\\u" + std::string(s.substr(p + 2, 4)) +
                                 " is the first half of a surrogate pair, and no second half (\\uDC00 to \\uDFFF) follows it");
            p += 12;
            continue;
          }
          p += 6;
          continue;
        }
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          p += 2;
          continue;
        }
        {
          std::string msg = "\\";
          msg += e;
          msg += " is not an escape JSON knows: write \\\\ for a backslash (\\\\";
          msg += e;
          msg += "), or use \\n, \\t, \\\" or \\uXXXX";
          return fail(p, msg);
        }
      }
      if (c == '\n' || c == '\r')
        return fail(p, std::string("this ") + what + " runs past the end of its line: a closing '\"' is missing, or "
                                                    "write \\n for a line break inside it");
      if (static_cast<unsigned char>(c) < 0x20)
        return fail(p, std::string("a control character (") + shown_char(c) + ") inside a " + what +
                           (c == '\t' ? ": write \\t for a tab" : ": write it as \\u00XX"));
      size_t n = utf8_sequence(s, p);
      if (n == 0) return fail(p, std::string("a byte that is not UTF-8 (") + shown_char(c) + ") inside a " + what +
                                     ": save the file as UTF-8");
      p += n;
    }
    return fail(s.size(), std::string("the file ends inside this ") + what + " (it opened at byte " +
                              std::to_string(open + 1) + "): a closing '\"' is missing");
  }

  // `w` as a whole word at p (true, false, null), consumed.
  bool literal(std::string_view w) {
    if (s.substr(p, w.size()) != w || (p + w.size() < s.size() && is_word(s[p + w.size()]))) return false;
    p += w.size();
    return true;
  }

  bool number() {
    const size_t start = p;
    if (s[p] == '-') ++p;
    if (p >= s.size() || !is_digit(s[p]))
      return fail(start, quoted(word_at(start), " is not a number JSON knows (write digits after '-')"));
    if (s[p] == '0' && p + 1 < s.size() && is_digit(s[p + 1]))
      return fail(start, quoted(word_at(start), ": a JSON number does not start with 0 followed by a digit"));
    while (p < s.size() && is_digit(s[p])) ++p;
    if (p < s.size() && s[p] == '.') {
      ++p;
      if (p >= s.size() || !is_digit(s[p]))
        return fail(start, quoted(word_at(start), ": a JSON number needs digits after its '.' (write 1.0, not 1.)"));
      while (p < s.size() && is_digit(s[p])) ++p;
    }
    if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
      ++p;
      if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
      if (p >= s.size() || !is_digit(s[p]))
        return fail(start, quoted(word_at(start), ": a JSON number needs digits after its exponent 'e'"));
      while (p < s.size() && is_digit(s[p])) ++p;
    }
    if (p < s.size() && is_word(s[p]))
      return fail(start, quoted(word_at(start), " is not a JSON number; text goes in double quotes"));
    return true;
  }

  // Anything that is not a value where one belongs.
  bool not_a_value(const char* where) {
    char c = s[p];
    if (c == '\'') return fail(p, "JSON strings use double quotes (\"...\"), not single quotes");
    if (c == '/') return fail(p, "JSON has no comments; write notes in a \"$comment\" member");
    if (c == '.' && p + 1 < s.size() && is_digit(s[p + 1]))
      return fail(p, quoted(word_at(p), ": a JSON number starts with a digit (write 0" + word_at(p) + ")"));
    if (is_word(c)) {
      std::string w = word_at(p);
      std::string lower = w;
      for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      if (lower == "true" || lower == "false" || lower == "null")
        return fail(p, "JSON writes " + lower + " in lower case: '" + w + "' is not a value");
      if (lower == "nan" || lower == "infinity" || lower == "-infinity")
        return fail(p, quoted(w, " is not a JSON number: JSON has no NaN or infinity"));
      return fail(p, quoted(w, " is not a JSON value: text goes in double quotes (\"" + w + "\")"));
    }
    if (c == ',') return fail(p, std::string("a value is missing ") + where + ": two commas, or a comma with nothing before it");
    return fail(p, std::string("expected a value ") + where + ", got " + shown_char(c));
  }

  // Returns true when the whole text is one JSON value.
  bool scan() {
    if (s.substr(0, 3) == "\xEF\xBB\xBF") p = 3;  // a byte order mark, as nlohmann allows
    std::vector<char> stack;  // '{' or '['
    enum class Want { Value, FirstValue, Key, FirstKey, Colon, CommaOrEnd, End } want = Want::Value;
    while (true) {
      skip_space();
      if (p >= s.size()) {
        if (want == Want::End) return true;
        if (stack.empty() && want == Want::Value) return fail(p, "the file is empty: a pack is one JSON object, { ... }");
        std::string closers;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) closers += *it == '{' ? '}' : ']';
        return fail(p, "the file ends before the JSON does: " + std::to_string(stack.size()) + " bracket" +
                           (stack.size() == 1 ? " is" : "s are") + " still open (missing: " + closers + ")");
      }
      const char c = s[p];
      switch (want) {
        case Want::End:
          return fail(p, "text after the end of the JSON: the top-level " +
                             std::string(s[0] == '[' ? "array" : "value") + " closed before this (an extra '}' or ']'?)");
        case Want::Colon:
          if (c != ':') return fail(p, "a ':' is missing between the member's name and its value");
          ++p;
          want = Want::Value;
          continue;
        case Want::FirstKey:
        case Want::Key:
          if (c == '}' && want == Want::FirstKey) {
            ++p;
            stack.pop_back();
            want = stack.empty() ? Want::End : Want::CommaOrEnd;
            continue;
          }
          if (c == '}') return fail(p, "a comma before '}': JSON allows no comma after the last member");
          if (c == '"') {
            if (!string("member name")) return false;
            want = Want::Colon;
            continue;
          }
          if (c == '\'') return fail(p, "member names use double quotes (\"name\"), not single quotes");
          if (is_word(c)) {
            std::string w = word_at(p);
            return fail(p, "member names need double quotes: write \"" + w + "\"");
          }
          if (c == ',') return fail(p, "a member is missing: two commas in a row");
          return fail(p, "expected a member name in double quotes, got " + shown_char(c));
        case Want::CommaOrEnd: {
          const char close = stack.back() == '{' ? '}' : ']';
          if (c == ',') {
            ++p;
            want = stack.back() == '{' ? Want::Key : Want::Value;
            continue;
          }
          if (c == close) {
            ++p;
            stack.pop_back();
            want = stack.empty() ? Want::End : Want::CommaOrEnd;
            continue;
          }
          if (c == '}' || c == ']')
            return fail(p, std::string("'") + c + "' closes " + (c == '}' ? "an object" : "an array") + " here, but the open " +
                               (close == '}' ? "object" : "array") + " needs '" + close + "' first");
          if (c == '"' || c == '{' || c == '[' || is_word(c))
            return fail(p, std::string("a comma is missing before this ") + (stack.back() == '{' ? "member" : "value"));
          return fail(p, std::string("expected ',' or '") + close + "', got " + shown_char(c));
        }
        case Want::FirstValue:
          if (c == ']') {
            ++p;
            stack.pop_back();
            want = stack.empty() ? Want::End : Want::CommaOrEnd;
            continue;
          }
          [[fallthrough]];
        case Want::Value: {
          const bool in_array = !stack.empty() && stack.back() == '[';
          if (c == ']' && in_array) return fail(p, "a comma before ']': JSON allows no comma after the last item");
          if (c == '{' || c == '[') {
            stack.push_back(c);
            ++p;
            want = c == '{' ? Want::FirstKey : Want::FirstValue;
            continue;
          }
          bool ok;
          if (c == '"') ok = string("string");
          else if (c == '-' || is_digit(c)) ok = number();
          else if (literal("true") || literal("false") || literal("null")) ok = true;
          else
            ok = not_a_value(stack.empty() ? "at the start" : in_array ? "in this array" : "after this ':'");
          if (!ok) return false;
          want = stack.empty() ? Want::End : Want::CommaOrEnd;
          continue;
        }
      }
    }
  }
};

}  // namespace

std::optional<JsonSyntaxError> find_json_syntax_error(std::string_view text) {
  Scanner sc;
  sc.s = text;
  if (sc.scan()) return std::nullopt;
  return sc.error;
}

}  // namespace dtx
