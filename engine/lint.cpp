#include "lint.h"

#include <algorithm>
#include <set>

#include "grade/buggy_line.h"
#include "grade/choice.h"
#include "grade/numeric.h"
#include "grade/ordering.h"
#include "load_ctx.h"
#include "text.h"

namespace dtx {

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

std::vector<std::optional<double>> LintContext::eval_everywhere(const Expr& e,
                                                                const std::string& pointer,
                                                                const std::string& what) {
  std::vector<std::optional<double>> out;
  bool reported = false;
  for (size_t i = 0; i < points.size(); ++i) {
    ExprError err;
    auto v = e.eval(scope_at(i), &err);
    if (!v && !reported) {
      error(pointer, what + " fails " + describe_point(i) + ": " + err.message +
                         " (column " + std::to_string(err.column) + ")",
            false, err.column);
      reported = true;
    }
    out.push_back(v);
  }
  return out;
}

namespace {

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
          ctx.error(ex.pointer + "/derived/" + json_pointer_escape(name),
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
          ctx.error(ex.pointer + "/constraints/" + std::to_string(c),
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

void check_placeholders(const std::string& text, const std::string& pointer,
                        const std::set<std::string>& known, LintContext& ctx) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      ++i;
      continue;
    }
    if (text[i] != '{') continue;
    size_t close = text.find('}', i + 1);
    size_t nl = text.find('\n', i + 1);
    if (close == std::string::npos || (nl != std::string::npos && nl < close)) continue;
    std::string inner = text.substr(i + 1, close - i - 1);
    size_t colon = inner.rfind(':');
    if (colon != std::string::npos) {
      std::string d = trim(inner.substr(colon + 1));
      if (!d.empty() && d.size() <= 2 && std::all_of(d.begin(), d.end(), ::isdigit))
        inner = inner.substr(0, colon);
    }
    ExprError err;
    Expr e = Expr::parse(inner, &err);
    if (!e.valid()) continue;  // not a placeholder (code braces, set notation)
    for (const auto& n : e.names()) {
      if (!known.count(n)) {
        ctx.error(pointer, "placeholder {" + inner + "} names \"" + n +
                               "\", which is not a parameter, a derived value or an answer "
                               "(write {{ and }} for literal braces)");
        break;
      }
    }
    i = close;
  }
}

}  // namespace

std::vector<Diagnostic> lint_library(const Library& lib, CodeRunner* runner) {
  std::vector<Diagnostic> out;
  for (const auto& pack : lib.packs) {
    for (const auto& ex : pack.exercises) {
      LintContext ctx;
      ctx.file = ex.file;
      ctx.text = ex.source;
      ctx.positions = ex.positions;
      ctx.out = &out;
      ctx.exercise = &ex;
      ctx.runner = runner;
      build_points(ex, ctx);
      if (ctx.points.empty()) continue;

      std::set<std::string> known;
      for (const auto& p : ex.params) known.insert(p.name);
      for (const auto& d : ex.derived) known.insert(d.first);
      auto parts = numeric_part_ids(ex);
      if (!parts.empty()) known.insert("answer");
      for (const auto& id : parts) known.insert("answer." + id);
      check_placeholders(ex.prompt, ex.pointer + "/prompt", known, ctx);
      check_placeholders(ex.explanation, ex.pointer + "/explanation", known, ctx);
      for (size_t i = 0; i < ex.hints.size(); ++i)
        check_placeholders(ex.hints[i], ex.pointer + "/hints/" + std::to_string(i), known, ctx);

      // Every other text the engine fills in.
      if (const auto* s = ex.spec_as<NumericSpec>()) {
        for (const auto& part : s->parts)
          for (const auto& m : part.mistakes) check_placeholders(m.message, m.pointer + "/message", known, ctx);
      } else if (const auto* s = ex.spec_as<ChoiceSpec>()) {
        for (const auto& o : s->options) {
          check_placeholders(o.text, o.pointer + "/text", known, ctx);
          check_placeholders(o.feedback, o.pointer + "/feedback", known, ctx);
        }
      } else if (const auto* s = ex.spec_as<OrderingSpec>()) {
        for (size_t i = 0; i < s->items.size(); ++i)
          check_placeholders(s->items[i], ex.pointer + "/items/" + std::to_string(i), known, ctx);
        for (size_t i = 0; i < s->feedback.size(); ++i)
          check_placeholders(s->feedback[i], ex.pointer + "/feedback/" + std::to_string(i), known, ctx);
      } else if (const auto* s = ex.spec_as<BuggyLineSpec>()) {
        for (const auto* notes : {&s->bugs, &s->decoys})
          for (const auto& n : *notes) check_placeholders(n.message, n.pointer + "/message", known, ctx);
      }

      if (ex.spec) ex.spec->lint(ex, ctx);

      // Every instance the default seed and a few others produce must be makeable.
      for (uint64_t seed : {0ull, 1ull, 7ull}) {
        std::string err;
        if (!make_instance(ex, seed, &err)) {
          ctx.error(ex.pointer, "cannot make the instance for seed " + std::to_string(seed) + ": " + err);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace dtx
