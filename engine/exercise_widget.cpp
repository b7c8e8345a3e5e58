#include "exercise_widget.h"

#include <cmath>
#include <cstdio>

#include "json_fields.h"
#include "lint_context.h"
#include "model.h"
#include "sim/widget.h"
#include "text.h"

namespace dtx {

namespace {

std::string range_text(const sim::WidgetInput& in) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%g..%g", in.min, in.max);
  return buf;
}

std::string option_list(const sim::WidgetInput& in) {
  std::string s;
  for (size_t i = 0; i < in.options.size(); ++i) s += (i ? ", " : "") + std::string(in.options[i]);
  return s;
}

constexpr WidgetReveal kReveals[] = {WidgetReveal::Always, WidgetReveal::AfterAttempt, WidgetReveal::AfterSolve};

}  // namespace

const char* widget_reveal_name(WidgetReveal r) {
  switch (r) {
    case WidgetReveal::Always: return "always";
    case WidgetReveal::AfterAttempt: return "after-attempt";
    case WidgetReveal::AfterSolve: return "after-solve";
  }
  return "always";
}

std::optional<WidgetReveal> find_widget_reveal(std::string_view name) {
  for (WidgetReveal r : kReveals)
    if (name == widget_reveal_name(r)) return r;
  return std::nullopt;
}

const std::vector<std::string>& widget_reveal_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (WidgetReveal r : kReveals) v.push_back(widget_reveal_name(r));
    return v;
  }();
  return names;
}

bool widget_revealed(WidgetReveal r, bool attempted, bool solved) {
  switch (r) {
    case WidgetReveal::Always: return true;
    case WidgetReveal::AfterAttempt: return attempted || solved;  // a solve is an attempt too
    case WidgetReveal::AfterSolve: return solved;
  }
  return true;
}

// Called by the loader (model.cpp) for an exercise's "widget" member.
void load_exercise_widget(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  if (!ctx.expect_object(j, ptr, "an object such as {\"kind\": \"pipeline\", \"p\": \"{p}\"}")) return;
  std::string kinds;
  for (const sim::WidgetKind* k : sim::widget_kinds()) kinds += std::string(kinds.empty() ? "" : ", ") + k->kind;
  if (!j.contains("kind")) {
    ctx.error(DiagCode::MissingField, ptr, "missing required field \"kind\" (the widget: one of " + kinds + ")");
    return;
  }
  auto kind_name = ctx.string_field(j, ptr, "kind", true);
  if (!kind_name) return;
  const sim::WidgetKind* kind = sim::find_widget_kind(*kind_name);
  if (!kind) {
    std::vector<std::string> names;
    for (const sim::WidgetKind* k : sim::widget_kinds()) names.push_back(k->kind);
    ctx.error(DiagCode::UnknownWidget, ptr + "/kind", "unknown widget kind \"" + *kind_name + "\"" + did_you_mean(*kind_name, names) +
                                 "; expected one of: " + kinds);
    return;
  }
  std::vector<std::string> allowed = {"kind", "reveal", "$comment"};
  for (const auto& in : kind->inputs) allowed.push_back(in.name);
  ctx.check_fields(j, ptr, allowed, {"kind"});
  ExerciseWidget w;
  w.kind = kind;
  w.pointer = ptr;
  if (j.contains("reveal")) {
    const Json& v = j["reveal"];
    const std::string rptr = ptr + "/reveal";
    const std::string names = "\"" + join_names(widget_reveal_names(), "\", \"") + "\"";
    if (!v.is_string()) {
      ctx.error(DiagCode::WrongKind, rptr, "expected one of the strings " + names + ", got " + describe_json(v));
    } else if (auto r = find_widget_reveal(v.get<std::string>())) {
      w.reveal = *r;
    } else {
      const std::string got = v.get<std::string>();
      ctx.error(DiagCode::ValueNotAllowed, rptr,
                "unknown reveal setting \"" + excerpt(got, 40) + "\"" + did_you_mean(got, widget_reveal_names()) +
                    "; expected one of: " + names + " (when the page shows the widget: from the start, after the "
                    "student's first attempt, once the student has solved the exercise)");
    }
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    const sim::WidgetInput* in = kind->input(it.key());
    if (!in) continue;  // "kind", "$comment" or already reported
    WidgetArg a;
    a.name = it.key();
    a.pointer = ptr + "/" + json_pointer_escape(it.key());
    const Json& v = it.value();
    if (!in->options.empty()) {
      if (!v.is_string()) {
        ctx.error(DiagCode::WrongKind, a.pointer, "expected one of the strings " + option_list(*in) + ", got " + describe_json(v));
        continue;
      }
      std::string err;
      auto idx = sim::parse_widget_value(*in, v.get<std::string>(), &err);
      if (!idx) {
        ctx.error(DiagCode::ValueNotAllowed, a.pointer, err);
        continue;
      }
      a.value = *idx;
    } else if (v.is_number()) {
      std::string err;
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
      auto x = sim::parse_widget_value(*in, buf, &err);
      if (!x) {
        ctx.error(DiagCode::ValueNotAllowed, a.pointer, err);
        continue;
      }
      a.value = *x;
    } else if (v.is_string()) {
      std::string s = trim(v.get<std::string>());
      if (s.size() < 2 || s.front() != '{' || s.back() != '}') {
        ctx.error(DiagCode::ValueNotAllowed, a.pointer, std::string("expected a number in ") + range_text(*in) +
                                 " or \"{expression}\" over the parameters (e.g. \"{p}\"), got \"" + s + "\"");
        continue;
      }
      ExprError err;
      Expr e = Expr::parse(s.substr(1, s.size() - 2), &err);
      if (!e.valid()) {
        ctx.error(DiagCode::InvalidExpression, a.pointer, "invalid expression at column " + std::to_string(err.column + 1) + ": " + err.message,
                  false, err.column + 1);
        continue;
      }
      a.expr = e;
    } else {
      ctx.error(DiagCode::WrongKind, a.pointer, std::string("expected a number in ") + range_text(*in) + " or \"{expression}\", got " +
                               describe_json(v));
      continue;
    }
    w.args.push_back(std::move(a));
  }
  ex.widget = std::move(w);
}

std::optional<sim::WidgetValues> widget_values(const Instance& inst, std::string* error) {
  if (!inst.exercise || !inst.exercise->widget) return std::nullopt;
  const ExerciseWidget& w = *inst.exercise->widget;
  sim::WidgetValues v = sim::WidgetValues::defaults(*w.kind);
  auto scope = inst.scope();
  for (const auto& a : w.args) {
    double x = a.value;
    if (a.expr) {
      ExprError err;
      auto r = a.expr->eval(scope, &err);
      if (!r) {
        if (error) *error = a.pointer + ": " + err.message;
        continue;
      }
      x = *r;
    }
    v.set(a.name, x);
  }
  return v;
}

void lint_exercise_widget(const Exercise& ex, LintContext& ctx) {
  if (!ex.widget) return;
  for (const auto& a : ex.widget->args) {
    if (!a.expr) continue;
    const sim::WidgetInput* in = ex.widget->kind->input(a.name);
    auto values = ctx.eval_everywhere(*a.expr, a.pointer, std::string("widget input \"") + a.name + "\"");
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i]) break;  // eval_everywhere reported it
      double x = *values[i];
      bool bad = x < in->min || x > in->max || (in->integer && x != std::floor(x));
      if (bad) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "widget input \"%s\" is %g %s; expected %s in %g..%g (the widget would clamp it)",
                      a.name.c_str(), x, ctx.describe_point(i).c_str(), in->integer ? "a whole number" : "a number",
                      in->min, in->max);
        ctx.error(DiagCode::WidgetInputOutOfRange, a.pointer, buf);
        break;
      }
    }
  }
}

}  // namespace dtx
