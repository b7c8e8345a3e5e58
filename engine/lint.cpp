#include "lint.h"
#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "json_fields.h"
#include "lint_context.h"
#include "markdown_links.h"
#include "maths.h"
#include "text.h"
#include "text_functions.h"

namespace dtx {

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool is_answer_name(const std::string& n) { return n == "answer" || n.rfind("answer.", 0) == 0; }

}  // namespace

ExprScope LintContext::scope_at(size_t point) const {
  const auto* vals = point < points.size() ? &points[point] : nullptr;
  return [vals](std::string_view name) -> std::optional<double> {
    if (!vals) return std::nullopt;
    for (const auto& [n, v] : *vals)
      if (n == name) return v;
    return std::nullopt;
  };
}

std::string LintContext::describe_point(size_t point) const {
  if (point == 0) return "at the default parameters";
  std::string s = "at ";
  if (!exercise || point >= points.size()) return s + "a corner of the parameter ranges";
  size_t shown = 0;
  for (const auto& p : exercise->params) {
    for (const auto& [n, v] : points[point])
      if (n == p.name) {
        s += (shown++ ? ", " : "") + n + "=" + format_number(v, 6);
        break;
      }
  }
  return s;
}

bool LintContext::check_names(const Expr& e, const std::string& pointer, const std::string& where,
                              const std::vector<std::string>& visible,
                              const std::vector<std::string>& later, int column_offset) {
  for (const auto& n : e.names()) {
    if (has(visible, n)) continue;
    std::string msg;
    if (has(later, n)) {
      msg = "'" + n + "' is used in " + where + " before it is computed (" +
            (is_answer_name(n) ? "parts are computed in order: a part can use the answers of the parts above it"
                               : "derived values are computed in order: each can use the params and the "
                                 "derived values above it") +
            ")";
    } else if (is_answer_name(n)) {
      // The answers this type names ("answer.<part>"): their part ids.
      std::vector<std::string> parts;
      bool has_answers = false;
      if (exercise && exercise->spec)
        for (const auto& a : exercise->spec->answer_names(*exercise)) {
          has_answers = true;
          if (a.size() > 7 && a.compare(0, 7, "answer.") == 0) parts.push_back(a.substr(7));
        }
      std::string part = n.size() > 7 ? n.substr(7) : "";
      if (!has_answers) {
        msg = "'" + n + "' is used in " + where + ", but a " + (exercise ? exercise->type : std::string("")) +
              " exercise has no numeric answers to refer to";
      } else if (!part.empty() && !has(parts, part)) {
        msg = "'" + n + "' is used in " + where + ", but this exercise has no part '" + part + "'" +
              did_you_mean(part, parts, '\'') + "; parts: " + join_names(parts);
      } else {
        msg = "'" + n + "' is used in " + where +
              ", where answers are not known yet (they are computed from the params and derived "
              "values; use them in known mistakes and texts)";
      }
    } else {
      std::vector<std::string> names;
      for (const auto& v : visible)
        if (!is_answer_name(v)) names.push_back(v);
      msg = "parameter '" + n + "' is used in " + where + " but not declared" +
            did_you_mean(n, names, '\'') +
            (names.empty() ? "; nothing is declared (add it under \"params\")" : "; declared: " + join_names(names));
    }
    int col = e.column_of(n);
    error(DiagCode::UndeclaredName, pointer, msg, false, col > 0 ? col + column_offset : 0);
    return false;
  }
  return true;
}

std::vector<std::optional<double>> LintContext::eval_everywhere(const Expr& e,
                                                                const std::string& pointer,
                                                                const std::string& what) {
  std::vector<std::optional<double>> out;
  if (!points.empty()) {
    std::vector<std::string> visible;
    for (const auto& nv : points[0]) visible.push_back(nv.first);
    if (!check_names(e, pointer, what, visible)) return std::vector<std::optional<double>>(points.size());
  }
  bool reported = false;
  for (size_t i = 0; i < points.size(); ++i) {
    ExprError err;
    auto v = e.eval(scope_at(i), &err);
    if (!v && !reported) {
      error(DiagCode::EvaluationFails, pointer, what + " fails " + describe_point(i) + ": " + err.message +
                         " (column " + std::to_string(err.column) + ")",
            false, err.column);
      reported = true;
    }
    out.push_back(v);
  }
  return out;
}

namespace {

// Names before values: an undeclared name in a derived value or a constraint would make
// every point fail, so say which name it is instead. Returns false after reporting.
bool check_declarations(const Exercise& ex, LintContext& ctx) {
  std::vector<std::string> visible, later;
  for (const auto& p : ex.params) visible.push_back(p.name);
  for (const auto& d : ex.derived) later.push_back(d.first);
  bool ok = true;
  for (const auto& [name, e] : ex.derived) {
    later.erase(later.begin());
    ok &= ctx.check_names(e, ex.pointer + "/derived/" + json_pointer_escape(name),
                          "derived value \"" + name + "\"", visible, later);
    visible.push_back(name);
  }
  for (size_t c = 0; c < ex.constraints.size(); ++c)
    ok &= ctx.check_names(ex.constraints[c], ex.pointer + "/constraints/" + std::to_string(c),
                          "constraint " + std::to_string(c + 1), visible);
  return ok;
}

// Defaults first, then the corners of the parameter ranges (all of them up to 10
// parameters, one parameter at a time beyond that), each with derived values filled in.
void build_points(const Exercise& ex, LintContext& ctx) {
  std::vector<std::vector<double>> extremes;
  for (const auto& p : ex.params) {
    if (!p.choices.empty()) {
      auto [mn, mx] = std::minmax_element(p.choices.begin(), p.choices.end());
      extremes.push_back({*mn, *mx});
    } else {
      double hi = p.max;
      if (p.step > 0) hi = p.min + std::floor((p.max - p.min) / p.step + 1e-9) * p.step;
      extremes.push_back({p.min, hi});
    }
  }
  std::vector<std::vector<double>> raw;
  std::vector<double> defaults;
  for (const auto& p : ex.params) defaults.push_back(p.default_value);
  raw.push_back(defaults);
  size_t k = ex.params.size();
  if (k <= 10) {
    for (size_t mask = 0; mask < (size_t{1} << k); ++mask) {
      std::vector<double> v(k);
      for (size_t i = 0; i < k; ++i) v[i] = extremes[i][(mask >> i) & 1];
      raw.push_back(v);
    }
  } else {
    for (size_t i = 0; i < k; ++i)
      for (int side = 0; side < 2; ++side) {
        std::vector<double> v = defaults;
        v[i] = extremes[i][side];
        raw.push_back(v);
      }
  }
  std::set<std::vector<double>> seen;
  std::set<std::string> reported_derived;  // one report per derived name is enough
  for (size_t r = 0; r < raw.size(); ++r) {
    if (r > 0 && !seen.insert(raw[r]).second) continue;
    if (r == 0) seen.insert(raw[r]);
    std::vector<std::pair<std::string, double>> vals;
    for (size_t i = 0; i < k; ++i) vals.emplace_back(ex.params[i].name, raw[r][i]);
    ctx.points.push_back(vals);
    size_t idx = ctx.points.size() - 1;
    bool ok = true;
    for (const auto& [name, e] : ex.derived) {
      ExprError err;
      auto v = e.eval(ctx.scope_at(idx), &err);
      if (!v) {
        if ((r == 0 || ex.constraints.empty()) && reported_derived.insert(name).second)
          ctx.error(DiagCode::EvaluationFails, ex.pointer + "/derived/" + json_pointer_escape(name),
                    "\"" + name + "\" fails " + ctx.describe_point(idx) + ": " + err.message +
                        " (column " + std::to_string(err.column) + ")",
                    false, err.column);
        ok = false;
        break;
      }
      ctx.points[idx].emplace_back(name, *v);
    }
    // Corners that the constraints rule out are never instantiated: skip them. The default
    // must satisfy them.
    for (size_t c = 0; ok && c < ex.constraints.size(); ++c) {
      ExprError err;
      auto v = ex.constraints[c].eval(ctx.scope_at(idx), &err);
      if (!v || *v == 0) {
        if (r == 0)
          ctx.error(DiagCode::ConstraintFails, ex.pointer + "/constraints/" + std::to_string(c),
                    "the default parameters do not satisfy this constraint" +
                        (v ? std::string() : ": " + err.message));
        ok = false;
      }
    }
    if (!ok) {
      if (r == 0) {
        ctx.points.clear();  // nothing sensible to evaluate at
        return;
      }
      ctx.points.pop_back();
    }
  }
}

// The inside of a placeholder without its ":NN" digits.
std::string placeholder_expression(std::string inner) {
  size_t colon = inner.rfind(':');
  if (colon != std::string::npos) {
    std::string d = trim(inner.substr(colon + 1));
    if (!d.empty() && d.size() <= 2 && std::all_of(d.begin(), d.end(), ::isdigit)) inner = inner.substr(0, colon);
  }
  return inner;
}

// Calls `fn(expression, inner_expression_text, byte offset of the '{')` for every
// {placeholder} of a text, the way Instance::render finds them (inside $...$ by the maths
// brace rule, engine/maths.h).
// A text function ({plural(m, 'micro-batch')}) calls `fn` with its expression; a malformed one
// calls `on_error(byte offset in text, message)`.
template <class Fn, class OnError>
void for_each_placeholder(const std::string& text, Fn fn, OnError on_error) {
  const MathScan maths = find_math_spans(text);
  size_t next_span = 0;
  // The next '}' or newline after the current '{', found once and reused until passed: a
  // text of many '{' without a '}' on their line is scanned once, not once per '{'.
  size_t stop = 0, next_open = 0, next_quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    while (next_span < maths.spans.size() && maths.spans[next_span].begin < i) ++next_span;
    if (next_span < maths.spans.size() && maths.spans[next_span].begin == i) {
      const MathSpan& sp = maths.spans[next_span++];
      std::string_view src = std::string_view(text).substr(sp.begin, sp.end - sp.begin);
      for (const auto& p : scan_math_braces(src).placeholders) {
        if (p.close == std::string::npos) continue;  // check_maths reports it
        std::string inner = placeholder_expression(std::string(src.substr(p.brace + 1, p.close - p.brace - 1)));
        ExprError err;
        Expr e = Expr::parse(inner, &err);
        if (e.valid()) fn(e, inner, sp.begin + p.brace);
      }
      i = sp.end - 1;
      continue;
    }
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      ++i;
      continue;
    }
    if (text[i] != '{') continue;
    if (stop <= i) stop = text.find_first_of("}\n", i + 1);
    if (stop == std::string::npos) break;  // no '}' or newline follows: no placeholder either
    if (text[stop] != '}') continue;
    size_t close = stop;
    // Another '{' before the '}' and no quote (a text function's string) in between: not an
    // expression, which has no braces. Decided without copying the inside, so a line of
    // 20,000 "{a " before one '}' is not 20,000 copies of the rest of the line.
    if (next_open <= i) next_open = text.find('{', i + 1);
    if (next_quote <= i) next_quote = text.find_first_of("'\"", i + 1);
    if (next_open < close && !(next_quote < close)) continue;
    std::string raw = text.substr(i + 1, close - i - 1);
    TextFunctionError terr;
    if (auto tf = parse_text_function(raw, &terr)) {
      fn(tf->expr, raw, i);
      i = close;
      continue;
    }
    if (!terr.message.empty()) {
      on_error(i + 1 + terr.offset, terr.message);
      i = close;
      continue;
    }
    std::string inner = placeholder_expression(raw);
    ExprError err;
    Expr e = Expr::parse(inner, &err);
    if (!e.valid()) continue;  // not a placeholder (code braces, set notation)
    fn(e, inner, i);
    i = close;
  }
}

template <class Fn>
void for_each_placeholder(const std::string& text, Fn fn) {
  for_each_placeholder(text, fn, [](size_t, const std::string&) {});
}

// Errors about one text's placeholders. A name is reported at its first use only (the
// message says how often it is used), and past kMaxDiagnosticsPerPack problems in one text
// the rest are counted, not checked: a prompt that repeats an undeclared {x} 20,000 times is
// one error, found in one pass over the text.
struct PlaceholderErrors {
  const std::string& text;
  LintContext& ctx;
  std::map<std::string, std::pair<size_t, int>> reported;  // name -> (its diagnostic in ctx.out, or npos; uses)
  size_t problems = 0, unchecked = 0;
  size_t column_at = 0;  // utf8 column of `text` up to byte `column_at`, counted once
  int column = 1;

  int column_of(size_t byte) {
    for (; column_at < byte && column_at < text.size(); ++column_at)
      if ((static_cast<unsigned char>(text[column_at]) & 0xC0) != 0x80) ++column;
    return column;
  }
  // Reports through `report` (which returns false when it reported) and remembers where the
  // diagnostic went, so a later use of the same name only adds to its count.
  template <class Report>
  void check(const std::string& first_unknown, bool literal_hint, Report report) {
    if (first_unknown.empty()) return;
    if (auto it = reported.find(first_unknown); it != reported.end()) {
      it->second.second++;
      return;
    }
    if (problems >= kMaxDiagnosticsPerPack) {
      ++unchecked;
      return;
    }
    ++problems;
    size_t before = ctx.out ? ctx.out->size() : 0;
    report();
    bool stored = ctx.out && ctx.out->size() > before;
    if (stored && literal_hint) ctx.out->back().message += " (for literal braces write {{ and }})";
    reported[first_unknown] = {stored ? ctx.out->size() - 1 : std::string::npos, 1};
  }
  void finish(const std::string& pointer, const std::string& where) {
    for (const auto& [name, at] : reported)
      if (at.first != std::string::npos && at.second > 1)
        (*ctx.out)[at.first].message += "; '" + name + "' is used " + std::to_string(at.second) + " times in " + where;
    if (unchecked)
      ctx.error(DiagCode::TooManyProblems, pointer,
                std::to_string(unchecked) + " more placeholders in " + where + " were not checked (the first " +
                    std::to_string(kMaxDiagnosticsPerPack) + " problems are listed)");
  }
};

// The first name `e` uses that is not known here, or "" when all are.
std::string first_unknown_name(const Expr& e, const std::vector<std::string>& known) {
  for (const auto& n : e.names())
    if (std::find(known.begin(), known.end(), n) == known.end()) return n;
  return "";
}

void check_placeholders(const std::string& text, const std::string& pointer, const std::string& where,
                        const std::vector<std::string>& known, LintContext& ctx) {
  PlaceholderErrors errors{text, ctx, {}};
  for_each_placeholder(
      text,
      [&](const Expr& e, const std::string& inner, size_t brace) {
        errors.check(first_unknown_name(e, known), true, [&] {
          // The name's column counts from the character after the brace.
          int offset = errors.column_of(brace);
          if (inner.find_first_of("'\"") != std::string::npos) {
            // A text function: its expression starts after "plural(" or "if(".
            offset += static_cast<int>(inner.find('(') + 1);
          }
          ctx.check_names(e, pointer, "the placeholder {" + excerpt(inner, 80) + "} in " + where, known, {}, offset);
        });
      },
      [&](size_t offset, const std::string& message) {
        errors.check("\x1f" + message, false, [&] {
          ctx.error(DiagCode::InvalidExpression, pointer, "in " + where + ": " + message, false, errors.column_of(offset));
        });
      });
  errors.finish(pointer, where);
}

// ---------------------------------------------------------------- links

// A destination for a message: control characters made visible (they are how a scheme
// hides: "java\tscript:"), and a long data: address cut short.
std::string shown_destination(const std::string& d) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : d) {
    if (out.size() >= 80) return out + "...";
    if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    else out += static_cast<char>(c);
  }
  return out;
}

// The page opens only http, https, mailto and relative links and draws any other link as
// text (engine/markdown_links.h says why); the author hears about it here, at the link.
// The exercise an in-text reference #/ex/ID (or #/ex/ID/SEED) names, or "" for other links.
std::string referenced_exercise(const std::string& destination) {
  const std::string prefix = "#/ex/";
  std::string d = trim(destination);
  if (d.compare(0, prefix.size(), prefix) != 0) return "";
  std::string id = d.substr(prefix.size());
  return id.substr(0, id.find_first_of("/?"));  // (ids need no percent-encoding)
}

void check_links(const std::string& text, const std::string& pointer, const ExerciseExists& exists, const Reporter& rep) {
  // An image's source is checked as an image (E044), which allows fewer schemes than a link.
  std::set<size_t> image_sources;
  for (const auto& img : find_markdown_images(text)) image_sources.insert(img.source_offset);
  for (const auto& link : find_markdown_links(text)) {
    if (image_sources.count(link.offset)) continue;
    if (!link_scheme_allowed(link.destination)) {
      rep.error(DiagCode::LinkScheme, pointer,
                "link to " + shown_destination(trim(link.destination)) + " uses the scheme " +
                    link_scheme(link.destination) + ":; only http, https and mailto links are allowed",
                false, utf8_column(text, link.offset));
      continue;
    }
    // A reference to another exercise opens it in the page: it must name one.
    std::string id = referenced_exercise(link.destination);
    if (!id.empty() && !exists(id))
      rep.error(DiagCode::UnknownExercise, pointer,
                "link to " + shown_destination(trim(link.destination)) + " names the exercise '" + id +
                    "', which no pack linted here has (an exercise reference is #/ex/ID; lint the packs it refers to together, or give the course with --course DIR)",
                false, utf8_column(text, link.offset));
  }
}

// Every text of an exercise the page draws as Markdown, with its pointer and what it is.
template <class Fn>
void for_each_markdown_text(const Exercise& ex, Fn fn) {
  fn(ex.prompt, ex.pointer + "/prompt", "the prompt");
  for (size_t i = 0; i < ex.hints.size(); ++i)
    fn(ex.hints[i], ex.pointer + "/hints/" + std::to_string(i), "hint " + std::to_string(i + 1));
  fn(ex.explanation, ex.pointer + "/explanation", "the explanation");
  if (ex.spec) ex.spec->texts(ex, fn);
}

void check_exercise_links(const Exercise& ex, const ExerciseExists& exists, const Reporter& rep) {
  for_each_markdown_text(ex, [&](const std::string& text, const std::string& pointer, const std::string&) {
    check_links(text, pointer, exists, rep);
  });
}

// ---------------------------------------------------------------- images

// Markdown images: a source the page cannot show (another scheme, another format) is an
// error at the source; a relative one whose file is missing next to the pack too, when lint
// can look (options.image_exists); an image without alt text is a warning at its "![", since
// a student with a screen reader gets nothing from it.
void check_images(const std::string& text, const std::string& pointer, const std::string& pack_file,
                  const LintOptions& options, const Reporter& rep) {
  for (const auto& img : find_markdown_images(text)) {
    const int at_source = utf8_column(text, img.source_offset);
    const std::string shown = shown_destination(trim(img.source));
    const std::string via = img.reference ? " (by its reference definition)" : "";
    if (trim(img.source).empty()) {
      rep.error(DiagCode::ImageFormat, pointer,
                "image with no address: write the file's path, e.g. ![what it shows](img/figure.svg)", false,
                utf8_column(text, img.offset));
    } else if (!image_scheme_allowed(img.source)) {
      rep.error(DiagCode::ImageFormat, pointer,
                "image " + shown + via + " uses the scheme " + link_scheme(img.source) +
                    ":; images load only from a path relative to the pack (img/figure.svg) or an http or https address",
                false, at_source);
    } else if (!image_format_allowed(img.source)) {
      std::string ext = image_extension(img.source);
      rep.error(DiagCode::ImageFormat, pointer,
                "image " + shown + via + (ext.empty() ? " has no file extension" : " is a " + ext + " file") +
                    "; the page shows PNG, JPEG and SVG images (.png, .jpg, .jpeg, .svg)",
                false, at_source);
    } else if (options.image_exists) {
      std::string path = image_relative_path(img.source);
      if (!path.empty() && !options.image_exists(pack_file, path))
        rep.error(DiagCode::ImageMissing, pointer,
                  "image " + shown + via + " not found: " +
                      (path == trim(img.source) ? std::string("no such file") : "no file \"" + path + "\"") +
                      " in the folder the pack file is in (a relative path starts there)",
                  false, at_source);
    }
    if (options.warnings && trim(img.alt).empty())
      rep.report(DiagCode::ImageAlt, pointer,
                 "image " + shown + " has no alt text: a student using a screen reader hears nothing of it; "
                 "say what it shows between ![ and ]",
                 false, utf8_column(text, img.offset));
  }
}

// ---------------------------------------------------------------- maths

// Malformed $...$: a '$' nothing closes, braces the maths rule cannot pair, a placeholder
// that is not an expression, and anything the maths parser refuses. Each error points at
// the character in the file and says where it is in the text.
void check_maths(const std::string& text, const std::string& pointer, const Reporter& rep) {
  const MathScan maths = find_math_spans(text);
  auto at = [&](size_t offset) {
    return " (at character " + std::to_string(utf8_column(text, offset)) + " of the text)";
  };
  auto report = [&](size_t offset, const std::string& msg) { rep.error(DiagCode::Maths, pointer, msg + at(offset), false, utf8_column(text, offset)); };
  for (size_t u : maths.unclosed)
    report(u, "this '$' opens maths that no '$' closes in its paragraph; for a dollar sign write \\$ "
              "(\"\\\\$\" in JSON), for maths close it with a second $");
  for (const MathSpan& sp : maths.spans) {
    std::string_view src = std::string_view(text).substr(sp.begin, sp.end - sp.begin);
    if (src.find_first_not_of(" \t\n") == std::string_view::npos) {
      report(sp.open, "empty maths $$: for dollar signs write \\$");
      continue;
    }
    MathBraces braces = scan_math_braces(src);
    bool bad = false;
    for (const auto& p : braces.problems) {
      report(sp.begin + p.offset, "maths: " + p.message);
      bad = true;
    }
    for (const auto& p : braces.placeholders) {
      if (p.close == std::string::npos) {
        report(sp.begin + p.brace, "maths: this '{' starts a placeholder (it is not right after ^, _ or a "
                                   "command) and no '}' closes it on its line");
        bad = true;
        continue;
      }
      std::string inner = placeholder_expression(std::string(src.substr(p.brace + 1, p.close - p.brace - 1)));
      ExprError err;
      if (!Expr::parse(inner, &err).valid() || trim(inner).empty()) {
        report(sp.begin + p.brace,
               "maths: {" + inner + "} is a placeholder, since its '{' is not right after ^, _ or a command, "
               "but it is not an expression (" + (trim(inner).empty() ? std::string("it is empty") : err.message) +
               "); for a group write it right after ^, _ or the command, e.g. x^{" + inner + "}");
        bad = true;
      }
    }
    if (bad) continue;
    MathError err;
    if (!parse_math(src, &err, MathMode::Source)) report(sp.begin + err.offset, "maths: " + err.message);
  }
}

// ---------------------------------------------------------------- style warnings

// The params each name depends on, through derived values.
std::set<std::string> params_behind(const std::vector<std::string>& names, const Exercise& ex) {
  std::set<std::string> out;
  std::vector<std::string> todo = names;
  std::set<std::string> seen;
  while (!todo.empty()) {
    std::string n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& p : ex.params)
      if (p.name == n) out.insert(n);
    for (const auto& [name, e] : ex.derived)
      if (name == n)
        for (const auto& m : e.names()) todo.push_back(m);
  }
  return out;
}

bool varies(const ParamSpec& p) {
  return p.choices.size() > 1 || (p.choices.empty() && p.max > p.min);
}

std::string describe_values(const ParamSpec& p) {
  if (p.choices.empty()) return "from " + format_number(p.min, 6) + " to " + format_number(p.max, 6);
  std::string s = "one of ";
  for (size_t i = 0; i < p.choices.size(); ++i) s += (i ? ", " : "") + format_number(p.choices[i], 6);
  return s;
}

// The type's own warnings (hints it needs, parameters its answers use) come first.
void style_warnings(const Exercise& ex, LintContext& ctx) {
  if (ex.spec) ex.spec->warn(ex, ctx);
  if (ex.explanation.empty())
    ctx.warn(DiagCode::NoExplanation, ex.pointer, "no explanation: add \"explanation\", the worked solution shown after an "
                         "answer (use {placeholders} so it shows the instance's numbers)");
}

// "p=2, m=126": an instance's parameters (not its derived values), for messages.
std::string instance_values(const Exercise& ex, const Instance& inst) {
  std::string s;
  for (const auto& p : ex.params)
    for (const auto& [n, v] : inst.values)
      if (n == p.name) {
        s += (s.empty() ? "" : ", ") + n + "=" + format_number(v, 6);
        break;
      }
  return s;
}

// Whether an article stands right before a placeholder ("a {N}", "an **{P}"): only there can
// the instance's number change which article is right.
bool article_before_placeholder(const std::string& text) {
  for (size_t i = text.find('{'); i != std::string::npos; i = text.find('{', i + 1)) {
    size_t j = i;
    while (j > 0 && (text[j - 1] == '*' || text[j - 1] == '_')) --j;
    if (j == 0 || text[j - 1] != ' ') continue;
    size_t w = j - 1;
    while (w > 0 && std::isalpha(static_cast<unsigned char>(text[w - 1]))) --w;
    std::string word = to_lower(std::string_view(text).substr(w, j - 1 - w));
    if (word == "a" || word == "an") return true;
  }
  return false;
}

// "a 8 GB" in a text as this instance fills it in. Seed 0 reads every text; the others only
// those where an article meets a placeholder.
void check_articles(const Exercise& ex, const Instance& inst, InstanceProblems& found) {
  for_each_markdown_text(ex, [&](const std::string& text, const std::string& pointer, const std::string&) {
    if (found.seed != 0 && !article_before_placeholder(text)) return;
    std::string bad = article_mismatch(inst.render(text));
    if (!bad.empty())
      found.problem(DiagCode::ArticleMismatch, pointer,
                    "\"" + bad + "\": the article does not agree with how the number is read aloud (\"an 8\", \"a 16\")");
  });
}

// A per-instance warning (W011) is shown when at least this share of the seeds has it: one
// student in ten meeting the same ambiguous feedback is worth an author's look, while a value
// a wide range hits now and then is not (N from five choices is 8 in a fifth of the seeds; one
// value of a range of twenty steps, in a twentieth).
constexpr int kNotableSharePercent = 10;

// `--seeds N`: the instances students get, not only the defaults and corners. Each problem is
// reported once, at its first seed, with how many of the N seeds have it; a warning only where
// a notable share of the seeds has it.
void lint_seeds(const Exercise& ex, const std::vector<PackLimit>& limits, int n, LintContext& ctx) {
  InstanceProblems found;
  long long draws = 0;
  int drawn = 0;  // seeds whose parameters are drawn (not 0, the defaults)
  for (int seed = 0; seed < n; ++seed) {
    std::string err;
    int d = 0;
    auto inst = make_instance(ex, static_cast<uint64_t>(seed), &err, &d);
    if (seed > 0) draws += d, ++drawn;
    found.seed = static_cast<uint64_t>(seed);
    if (!inst) {
      found.values.clear();
      found.problem(DiagCode::CannotMakeInstance, ex.pointer, "cannot make the instance: " + err);
      continue;
    }
    found.values = instance_values(ex, *inst);
    if (ex.spec) ex.spec->lint_instance(ex, *inst, found);
    lint_simulations_instance(ex, *inst, found);  // engine/exercise_widget.cpp
    lint_limits_instance(ex, *inst, limits, found);  // engine/pack_limits.cpp
    check_articles(ex, *inst, found);
  }
  for (const auto& p : found.found) {
    // A warning an instance shows matters where many students meet it; an error, in any one.
    bool warning = diag_info(p.code).severity() == Severity::Warning;
    if (warning && p.seeds * 100 < n * kNotableSharePercent) continue;
    std::string where = "seed " + std::to_string(p.first_seed) + (p.first_values.empty() ? "" : " (" + p.first_values + ")");
    std::string how_many = p.seeds == 1 ? "only that seed of " + std::to_string(n)
                                        : std::to_string(p.seeds) + " of " + std::to_string(n) + " seeds";
    std::string message = p.message + ", at " + where + "; " + how_many + " (dtx show " + ex.id + " --seed " +
                          std::to_string(p.first_seed) + ")";
    if (warning) ctx.warn(p.code, p.pointer, message);
    else ctx.report(p.code, p.pointer, message);
  }
  // Most draws thrown away: the constraints fight the ranges, and the instances students get
  // are the few corners of the ranges that survive.
  if (drawn > 0 && !ex.constraints.empty() && draws > 2ll * drawn) {
    double rejected = 1.0 - static_cast<double>(drawn) / static_cast<double>(draws);
    ctx.warn(DiagCode::ConstraintsRejectMost, ex.pointer + "/constraints",
             "the constraints reject " + format_number(100 * rejected, 2) + "% of the parameter draws (" +
                 format_number(static_cast<double>(draws)) + " draws for " + std::to_string(drawn) +
                 " instances): narrow the ranges to what the constraints allow, or derive the dependent values");
  }
}

}  // namespace

std::optional<Dim> dimension_of(const Expr& e, const Exercise& ex) {
  for (const auto& n : e.names())
    if (is_answer_name(n)) return std::nullopt;
  // Numbers alone (no parameter) tell nothing: they count as plain.
  std::set<std::string> behind = params_behind(e.names(), ex);
  if (behind.empty()) return std::nullopt;
  for (const auto& n : behind)
    for (const auto& p : ex.params)
      if (p.name == n && !p.unit) return std::nullopt;
  // The value with every parameter of dimension `which` scaled by lambda (to its power).
  auto value_with = [&](int which, double lambda) -> std::optional<double> {
    std::vector<std::pair<std::string, double>> vals;
    for (const auto& p : ex.params) {
      double v = p.default_value;
      if (p.unit) {
        const Dim& d = p.unit->dim;
        v *= std::pow(lambda, which == 0 ? d.data : which == 1 ? d.time : which == 2 ? d.flop : d.money);
      }
      vals.emplace_back(p.name, v);
    }
    auto scope = [&](std::string_view name) -> std::optional<double> {
      for (const auto& [n, v] : vals)
        if (n == name) return v;
      return std::nullopt;
    };
    for (const auto& [name, d] : ex.derived) {
      ExprError err;
      auto v = d.eval(scope, &err);
      if (!v) return std::nullopt;
      vals.emplace_back(name, *v);
    }
    ExprError err;
    return e.eval(scope, &err);
  };
  auto base = value_with(0, 1);
  if (!base || *base == 0) return std::nullopt;
  Dim dim;
  for (int which = 0; which < 4; ++which) {
    int k = 0;
    for (double lambda : {2.0, 3.0}) {
      auto v = value_with(which, lambda);
      if (!v || *v == 0 || (*v > 0) != (*base > 0)) return std::nullopt;
      double exponent = std::log(*v / *base) / std::log(lambda);
      if (std::fabs(exponent - std::round(exponent)) > 1e-6) return std::nullopt;
      if (lambda == 3.0 && static_cast<int>(std::round(exponent)) != k) return std::nullopt;
      k = static_cast<int>(std::round(exponent));
    }
    (which == 0 ? dim.data : which == 1 ? dim.time : which == 2 ? dim.flop : dim.money) = k;
  }
  return dim;
}

void InstanceProblems::problem(DiagCode code, const std::string& pointer, const std::string& message) {
  for (auto& p : found)
    if (p.code == code && p.pointer == pointer) {
      if (p.last_seed != seed) ++p.seeds;
      p.last_seed = seed;
      return;
    }
  found.push_back({code, pointer, message, seed, values, 1, seed});
}

void warn_no_hints(const Exercise& ex, LintContext& ctx) {
  if (ex.hints.empty())
    ctx.warn(DiagCode::NoHints, ex.pointer, "no hints: a student who is stuck gets no nudge; add \"hints\": [\"...\"] "
                         "(shown one at a time, first a gentle one)");
}

// A varying parameter the answer depends on must be visible in the prompt, or students
// cannot know the number they are asked to compute with.
void warn_unshown_params(const Exercise& ex, const std::vector<std::string>& used, const std::string& text,
                         const std::string& text_pointer, LintContext& ctx) {
  std::vector<std::string> shown;
  for_each_placeholder(text, [&](const Expr& e, const std::string&, size_t) {
    for (const auto& n : e.names()) shown.push_back(n);
  });
  std::set<std::string> needed = params_behind(used, ex), visible = params_behind(shown, ex);
  for (const auto& p : ex.params)
    if (needed.count(p.name) && !visible.count(p.name) && varies(p))
      ctx.warn(DiagCode::ParamNotShown, text_pointer,
               "the prompt never shows parameter '" + p.name + "', which the answer uses and which "
               "varies (" + describe_values(p) + "); write {" + p.name + "} where the prompt "
               "states it, or the student cannot know its value");
}

// Past kMaxDiagnosticsPerPack problems in one pack the rest of its exercises are not checked
// and the list is cut there, with one line saying so: a pack of 200 broken exercises costs
// the same as one with 200 problems, and its author reads the first ones. A text's own
// "n more were not checked" lines stay (one per text, of the exercises checked).
void cap_pack_problems(std::vector<Diagnostic>& out, size_t pack_start, size_t unchecked, const std::string& file) {
  auto tail = out.begin() + static_cast<std::ptrdiff_t>(pack_start);
  auto is_problem = [](const Diagnostic& d) { return d.code != DiagCode::TooManyProblems; };
  size_t listed = static_cast<size_t>(std::count_if(tail, out.end(), is_problem));
  if (listed <= kMaxDiagnosticsPerPack && unchecked == 0) return;
  size_t dropped = listed > kMaxDiagnosticsPerPack ? listed - kMaxDiagnosticsPerPack : 0;
  size_t kept = 0;
  out.erase(std::remove_if(tail, out.end(), [&](const Diagnostic& d) { return is_problem(d) && ++kept > kMaxDiagnosticsPerPack; }),
            out.end());
  std::string message = "lint stopped after the first " + std::to_string(kMaxDiagnosticsPerPack) + " problems in this pack";
  if (dropped) message += " (" + std::to_string(dropped) + " more not listed)";
  if (unchecked) message += "; " + std::to_string(unchecked) + (unchecked == 1 ? " exercise" : " exercises") + " not checked";
  out.push_back(make_diagnostic(DiagCode::TooManyProblems, file, 1, 1, "", message));
}

std::vector<Diagnostic> lint_library(const Library& lib, const LintOptions& options) {
  std::vector<Diagnostic> out;
  ExerciseExists exists = options.exercise_exists;
  if (!exists) exists = [&lib](const std::string& id) { return lib.find(id) != nullptr; };
  for (const auto& pack : lib.packs) {
    size_t pack_start = out.size(), unchecked = 0;
    // The chapter intro: positions come from an exercise, which carries the file's text.
    Reporter pack_rep{pack.file, nullptr, nullptr, &out};
    if (!pack.exercises.empty()) {
      pack_rep.text = pack.exercises[0].source;
      pack_rep.positions = pack.exercises[0].positions;
    }
    check_links(pack.intro, "/intro", exists, pack_rep);
    check_images(pack.intro, "/intro", pack.file, options, pack_rep);
    check_maths(pack.intro, "/intro", pack_rep);
    for (size_t i = 0; i < pack.exercises.size(); ++i) {
      if (out.size() - pack_start >= kMaxDiagnosticsPerPack) {
        unchecked = pack.exercises.size() - i;
        break;
      }
      const Exercise& ex = pack.exercises[i];
      LintContext ctx;
      ctx.file = ex.file;
      ctx.text = ex.source;
      ctx.positions = ex.positions;
      ctx.out = &out;
      ctx.exercise = &ex;
      ctx.runner = options.runner;
      ctx.warnings = options.warnings;
      for (const auto& p : ex.params) ctx.declared.push_back(p.name);
      for (const auto& d : ex.derived) ctx.declared.push_back(d.first);
      size_t exercise_start = out.size();

      style_warnings(ex, ctx);
      check_exercise_links(ex, exists, ctx);
      for_each_markdown_text(ex, [&](const std::string& text, const std::string& pointer, const std::string&) {
        check_images(text, pointer, pack.file, options, ctx);
      });
      for_each_markdown_text(ex, [&](const std::string& text, const std::string& pointer, const std::string&) {
        check_maths(text, pointer, ctx);
      });
      if (!check_declarations(ex, ctx)) continue;
      build_points(ex, ctx);
      if (ctx.points.empty()) continue;

      std::vector<std::string> known = ctx.declared;
      if (ex.spec)
        for (const auto& n : ex.spec->answer_names(ex)) known.push_back(n);
      lint_exercise_widget(ex, ctx);  // engine/exercise_widget.cpp
      lint_limit_bindings(ex, pack.limits, ctx);  // engine/pack_limits.cpp
      // Every text the engine fills in: the prompt, hints, explanation and the type's own.
      for_each_markdown_text(ex, [&](const std::string& text, const std::string& pointer, const std::string& what) {
        check_placeholders(text, pointer, what, known, ctx);
      });

      if (ex.spec) ex.spec->lint(ex, ctx);

      // Every instance the default seed and a few others produce must be makeable. When
      // something is already reported, the failure would only repeat it.
      if (std::any_of(out.begin() + static_cast<std::ptrdiff_t>(exercise_start), out.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Error; }))
        continue;
      bool makeable = true;
      for (uint64_t seed : {0ull, 1ull, 7ull}) {
        std::string err;
        if (!make_instance(ex, seed, &err)) {
          ctx.error(DiagCode::CannotMakeInstance, ex.pointer, "cannot make the instance for seed " + std::to_string(seed) + ": " + err);
          makeable = false;
          break;
        }
      }
      if (makeable && options.seeds > 0) lint_seeds(ex, pack.limits, options.seeds, ctx);
    }
    cap_pack_problems(out, pack_start, unchecked, pack.file);
  }
  lint_glossary(lib, options.warnings, out);  // across packs: a term is defined once in the course
  return out;
}

std::vector<Diagnostic> lint_library(const Library& lib, CodeRunner* runner) {
  LintOptions options;
  options.runner = runner;
  return lint_library(lib, options);
}

}  // namespace dtx
