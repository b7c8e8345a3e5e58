#include "text_functions.h"

#include <cctype>
#include <cstring>

#include "text.h"

namespace dtx {

namespace {

bool starts_call(std::string_view s, std::string_view name, size_t* after) {
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  if (s.compare(i, name.size(), name) != 0) return false;
  i += name.size();
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  if (i >= s.size() || s[i] != '(') return false;
  *after = i + 1;
  return true;
}

}  // namespace

std::optional<TextFunction> parse_text_function(std::string_view inner, TextFunctionError* error) {
  TextFunctionError none;
  if (!error) error = &none;
  *error = {};
  TextFunction f;
  size_t at = 0;
  if (starts_call(inner, "plural", &at)) f.kind = TextFunction::Kind::Plural;
  else if (starts_call(inner, "if", &at)) f.kind = TextFunction::Kind::If;
  else return std::nullopt;
  // Without a quoted text, if(...) is the expression language's own numeric if.
  if (inner.find('\'') == std::string_view::npos && inner.find('"') == std::string_view::npos) return std::nullopt;
  const char* name = f.kind == TextFunction::Kind::If ? "if" : "plural";
  auto fail = [&](size_t offset, std::string msg) -> std::optional<TextFunction> {
    *error = {offset, std::string(name) + "(...): " + std::move(msg)};
    return std::nullopt;
  };
  // The expression: up to the first comma outside parentheses.
  size_t depth = 0, i = at;
  for (; i < inner.size(); ++i) {
    char c = inner[i];
    if (c == '\'' || c == '"') return fail(i, "expected an expression before the first text");
    if (c == '(') ++depth;
    else if (c == ')') {
      if (depth == 0) break;
      --depth;
    } else if (c == ',' && depth == 0) break;
  }
  if (i >= inner.size() || inner[i] != ',') return fail(i, "expected a comma after the expression");
  ExprError err;
  f.expr = Expr::parse(inner.substr(at, i - at), &err);
  if (!f.expr.valid()) return fail(at + (err.column > 0 ? err.column - 1 : 0), "invalid expression: " + err.message);
  // Then quoted texts, separated by commas, and the closing parenthesis.
  ++i;
  for (;;) {
    while (i < inner.size() && std::isspace(static_cast<unsigned char>(inner[i]))) ++i;
    if (i >= inner.size() || (inner[i] != '\'' && inner[i] != '"'))
      return fail(i, "expected a text in quotes ('...' or \"...\")");
    char q = inner[i++];
    std::string text;
    bool closed = false;
    for (; i < inner.size(); ++i) {
      char c = inner[i];
      if (c == '\\' && i + 1 < inner.size() && (inner[i + 1] == q || inner[i + 1] == '\\')) {
        text += inner[++i];
      } else if (c == q) {
        closed = true;
        ++i;
        break;
      } else {
        text += c;
      }
    }
    if (!closed) return fail(inner.size(), std::string("the text has no closing ") + q);
    f.texts.push_back(std::move(text));
    while (i < inner.size() && std::isspace(static_cast<unsigned char>(inner[i]))) ++i;
    if (i < inner.size() && inner[i] == ',') {
      ++i;
      continue;
    }
    if (i < inner.size() && inner[i] == ')') {
      ++i;
      break;
    }
    return fail(i, "expected ',' or ')' after the text");
  }
  while (i < inner.size() && std::isspace(static_cast<unsigned char>(inner[i]))) ++i;
  if (i != inner.size()) return fail(i, "unexpected text after ')'");
  size_t want_min = f.kind == TextFunction::Kind::If ? 2 : 1, want_max = 2;
  if (f.texts.size() < want_min || f.texts.size() > want_max)
    return fail(0, f.kind == TextFunction::Kind::If
                       ? "expected a condition and two texts: if(p >= 16, 'deep', 'shallow')"
                       : "expected a count and a word, and optionally its plural: plural(m, 'micro-batch')");
  return f;
}

std::string english_plural(const std::string& w) {
  if (w.empty()) return w;
  auto ends = [&](const char* s) {
    std::string e = s;
    return w.size() >= e.size() && w.compare(w.size() - e.size(), e.size(), e) == 0;
  };
  if (ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh")) return w + "es";
  if (w.size() >= 2 && w.back() == 'y' && !std::strchr("aeiouAEIOU", w[w.size() - 2])) return w.substr(0, w.size() - 1) + "ies";
  return w + "s";
}

std::string apply_text_function(const TextFunction& f, double value) {
  if (f.kind == TextFunction::Kind::If) return value != 0 ? f.texts[0] : f.texts[1];
  std::string n = format_number(value, 4);
  bool one = n == "1";
  return n + " " + (one ? f.texts[0] : f.texts.size() > 1 ? f.texts[1] : english_plural(f.texts[0]));
}

}  // namespace dtx
