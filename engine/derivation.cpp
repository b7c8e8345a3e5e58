#include "derivation.h"

#include <algorithm>
#include <set>

#include "expr.h"
#include "model.h"
#include "text.h"

namespace dtx {

namespace {

// The derived values `e` reaches, directly or through other derived values.
void derived_used(const Exercise& ex, const Expr& e, std::set<std::string>& out) {
  for (const auto& n : e.names())
    for (const auto& [name, d] : ex.derived)
      if (name == n && out.insert(name).second) derived_used(ex, d, out);
}

const ParamSpec* find_param(const Exercise& ex, std::string_view name) {
  for (const auto& p : ex.params)
    if (p.name == name) return &p;
  return nullptr;
}

DerivationStep step(const Exercise& ex, const Instance& inst, const std::string& name, const Expr& e,
                    const std::string& unit, bool is_result) {
  auto scope = inst.scope();
  auto written = [&](std::string_view n, double v) {
    const ParamSpec* p = find_param(ex, n);
    std::string num = expr_number(v);
    // Sizes, times, FLOP and money carry their unit; counts ("8 GPUs") read better bare.
    bool measured = p && p->unit && (p->unit->dim.data || p->unit->dim.time || p->unit->dim.flop || p->unit->dim.money);
    return measured ? num + " " + p->unit->symbol : num;
  };
  auto v = e.eval(scope, nullptr);
  // The key's value as the key line prints it; a derived value in a form the parser reads.
  std::string value = !v ? "?" : unit.empty() && !is_result ? expr_number(*v) : format_number(*v, 6) + (unit.empty() ? "" : " " + unit);
  return derive_line(name, e, scope, written, value);
}

}  // namespace

DerivationStep derive_line(const std::string& name, const Expr& e, const ExprScope& scope,
                           const std::function<std::string(std::string_view, double)>& written, const std::string& value) {
  DerivationStep s;
  s.name = name;
  bool has_names = !e.names().empty();
  std::string formula = e.written([](std::string_view n) { return std::string(n); }, scope);
  std::string substituted = e.written(
      [&](std::string_view n) {
        auto v = scope(n);
        return v ? written(n, *v) : std::string(n);
      },
      scope);
  if (has_names && formula != name) s.formula = formula;
  if (has_names) s.substituted = substituted;
  else if (substituted != expr_number(e.eval(scope, nullptr).value_or(0))) s.formula = substituted;
  s.value = value;
  return s;
}

std::vector<DerivationStep> derive(const Exercise& ex, const Instance& inst, const std::string& name, const Expr& e,
                                   const std::string& unit) {
  std::set<std::string> used;
  derived_used(ex, e, used);
  std::vector<DerivationStep> out;
  for (const auto& [n, d] : ex.derived)
    if (used.count(n)) out.push_back(step(ex, inst, n, d, "", false));
  out.push_back(step(ex, inst, name, e, unit, true));
  return out;
}

std::string derivation_text(const std::vector<DerivationStep>& steps) {
  std::string s;
  for (const auto& st : steps) {
    if (!s.empty()) s += "\n";
    s += st.name;
    if (!st.formula.empty()) s += " = " + st.formula;
    if (!st.substituted.empty() && st.substituted != st.formula) s += " = " + st.substituted;
    s += " = " + st.value;
  }
  return s;
}

}  // namespace dtx
