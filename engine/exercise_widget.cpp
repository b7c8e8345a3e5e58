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

namespace {

// Each input the kind knows, into `w.args`; "kind", "reveal" and "$comment" are skipped.
void load_widget_args(const Json& j, const std::string& ptr, LoadContext& ctx, ExerciseWidget& w) {
  const sim::WidgetKind* kind = w.kind;
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
}

// A widget object: "kind", each input (a number, an option name or "{expression}") and, for
// the shown widget only, "reveal". nullopt when it is not usable (errors are in `ctx`).
std::optional<ExerciseWidget> load_widget_object(const Json& j, const std::string& ptr, LoadContext& ctx, bool with_reveal) {
  if (!ctx.expect_object(j, ptr, "an object such as {\"kind\": \"pipeline\", \"p\": \"{p}\"}")) return std::nullopt;
  std::string kinds;
  for (const sim::WidgetKind* k : sim::widget_kinds()) kinds += std::string(kinds.empty() ? "" : ", ") + k->kind;
  if (!j.contains("kind")) {
    ctx.error(DiagCode::MissingField, ptr, "missing required field \"kind\" (the widget: one of " + kinds + ")");
    return std::nullopt;
  }
  auto kind_name = ctx.string_field(j, ptr, "kind", true);
  if (!kind_name) return std::nullopt;
  const sim::WidgetKind* kind = sim::find_widget_kind(*kind_name);
  if (!kind) {
    std::vector<std::string> names;
    for (const sim::WidgetKind* k : sim::widget_kinds()) names.push_back(k->kind);
    ctx.error(DiagCode::UnknownWidget, ptr + "/kind", "unknown widget kind \"" + *kind_name + "\"" + did_you_mean(*kind_name, names) +
                                 "; expected one of: " + kinds);
    return std::nullopt;
  }
  std::vector<std::string> allowed = {"kind", "$comment"};
  if (with_reveal) allowed.push_back("reveal");
  for (const auto& in : kind->inputs) allowed.push_back(in.name);
  ctx.check_fields(j, ptr, allowed, {"kind"});
  ExerciseWidget w;
  w.kind = kind;
  w.pointer = ptr;
  if (with_reveal && j.contains("reveal")) {
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
  load_widget_args(j, ptr, ctx, w);
  return w;
}

}  // namespace

// Called by the loader (model.cpp) for an exercise's "widget" member.
void load_exercise_widget(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  if (auto w = load_widget_object(j, ptr, ctx, true)) ex.widget = std::move(*w);
}

// Called by the loader for "simulations": an array of widget objects without "reveal".
void load_exercise_simulations(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  if (!j.is_array()) {
    ctx.error(DiagCode::WrongKind, ptr, "expected an array of simulator configurations such as "
                                        "[{\"kind\": \"pipeline\", \"p\": \"{p}\", \"m\": \"{m}\"}], got " + describe_json(j));
    return;
  }
  for (size_t i = 0; i < j.size(); ++i)
    if (auto w = load_widget_object(j[i], ptr + "/" + std::to_string(i), ctx, false)) ex.simulations.push_back(std::move(*w));
}

namespace {

// An input's value for an instance: the number written, or the expression evaluated.
std::optional<double> arg_value(const WidgetArg& a, const ExprScope& scope, ExprError* err) {
  if (!a.expr) return a.value;
  return a.expr->eval(scope, err);
}

}  // namespace

std::optional<sim::WidgetValues> widget_values(const Instance& inst, std::string* error) {
  if (!inst.exercise || !inst.exercise->widget) return std::nullopt;
  const ExerciseWidget& w = *inst.exercise->widget;
  sim::WidgetValues v = sim::WidgetValues::defaults(*w.kind);
  auto scope = inst.scope();
  for (const auto& a : w.args) {
    ExprError err;
    auto x = arg_value(a, scope, &err);
    if (!x) {
      if (error) *error = a.pointer + ": " + err.message;
      continue;
    }
    v.set(a.name, *x);
  }
  return v;
}

namespace {

// Every input expression of one widget object, at the defaults and every corner.
void lint_widget_object(const ExerciseWidget& w, LintContext& ctx) {
  for (const auto& a : w.args) {
    if (!a.expr) continue;
    const sim::WidgetInput* in = w.kind->input(a.name);
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

// "pipeline (schedule=interleaved, p=16, m=4, v=2)": the inputs the exercise sets, for messages.
std::string describe_config(const ExerciseWidget& w, const sim::WidgetValues& v) {
  std::string s;
  for (const auto& a : w.args) {
    const sim::WidgetInput* in = w.kind->input(a.name);
    std::string value = in->options.empty() ? format_number(v.get(a.name), 6) : std::string(v.option(a.name));
    s += (s.empty() ? "" : ", ") + a.name + "=" + value;
  }
  return std::string(w.kind->kind) + " (" + s + ")";
}

// One widget object at one instance: its values unclamped in range, then the simulator's word.
void lint_object_instance(const ExerciseWidget& w, const Instance& inst, const char* what, InstanceProblems& out) {
  sim::WidgetValues v = sim::WidgetValues::defaults(*w.kind);
  auto scope = inst.scope();
  for (const auto& a : w.args) {
    ExprError err;
    auto value = arg_value(a, scope, &err);
    if (!value) return;  // lint_exercise_widget reports expressions that fail
    double x = *value;
    const sim::WidgetInput* in = w.kind->input(a.name);
    if (x < in->min || x > in->max || (in->integer && x != std::floor(x))) {
      out.problem(DiagCode::WidgetInputOutOfRange, a.pointer,
                  std::string(what) + " input \"" + a.name + "\" is " + format_number(x, 6) + "; expected " +
                      (in->integer ? "a whole number" : "a number") + " in " + range_text(*in) +
                      " (the simulator cannot take it)");
      return;
    }
    v.set(a.name, x);
  }
  if (!w.kind->refuses) return;
  std::string why = w.kind->refuses(v);
  if (!why.empty())
    out.problem(DiagCode::SimulationRefuses, w.pointer,
                std::string("`dtx sim ") + w.kind->kind + "` refuses this instance's " + describe_config(w, v) + ": " + why);
}

}  // namespace

void lint_exercise_widget(const Exercise& ex, LintContext& ctx) {
  if (ex.widget) lint_widget_object(*ex.widget, ctx);
  for (const auto& w : ex.simulations) lint_widget_object(w, ctx);
}

void lint_simulations_instance(const Exercise& ex, const Instance& inst, InstanceProblems& out) {
  if (ex.widget) lint_object_instance(*ex.widget, inst, "the widget's", out);
  for (const auto& w : ex.simulations) lint_object_instance(w, inst, "the simulation's", out);
}

}  // namespace dtx
