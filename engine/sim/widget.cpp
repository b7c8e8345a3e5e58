#include "sim/widget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dtx::sim {

const WidgetInput* WidgetKind::input(std::string_view name) const {
  for (const auto& in : inputs)
    if (name == in.name) return &in;
  return nullptr;
}

const std::vector<const WidgetKind*>& widget_kinds() {
  static const std::vector<const WidgetKind*> kinds = {
      &ring_widget_kind(), &pipeline_widget_kind(), &plan_widget_kind(),
      &hierarchy_widget_kind(), &roofline_widget_kind()};
  return kinds;
}

const WidgetKind* find_widget_kind(std::string_view kind) {
  for (const WidgetKind* k : widget_kinds())
    if (kind == k->kind) return k;
  return nullptr;
}

WidgetValues WidgetValues::defaults(const WidgetKind& k) {
  WidgetValues v;
  v.kind = &k;
  for (const auto& in : k.inputs) v.values.push_back(in.def);
  return v;
}

double WidgetValues::get(std::string_view name) const {
  if (!kind) return 0;
  for (size_t i = 0; i < kind->inputs.size() && i < values.size(); ++i)
    if (name == kind->inputs[i].name) return values[i];
  return 0;
}

const char* WidgetValues::option(std::string_view name) const {
  if (!kind) return "";
  const WidgetInput* in = kind->input(name);
  if (!in || in->options.empty()) return "";
  int i = std::clamp(static_cast<int>(get(name)), 0, static_cast<int>(in->options.size()) - 1);
  return in->options[i];
}

void WidgetValues::set(std::string_view name, double v) {
  if (!kind) return;
  for (size_t i = 0; i < kind->inputs.size() && i < values.size(); ++i) {
    const WidgetInput& in = kind->inputs[i];
    if (name != in.name) continue;
    if (!in.options.empty()) {
      v = std::clamp(std::round(v), 0.0, static_cast<double>(in.options.size() - 1));
    } else {
      v = std::clamp(v, in.min, in.max);
      if (in.integer) v = std::round(v);
    }
    values[i] = v;
  }
}

std::optional<double> parse_widget_value(const WidgetInput& in, std::string_view text,
                                         std::string* error) {
  if (!in.options.empty()) {
    std::string names;
    for (size_t i = 0; i < in.options.size(); ++i) {
      if (text == in.options[i]) return static_cast<double>(i);
      names += (i ? ", " : "") + std::string(in.options[i]);
    }
    if (error) *error = "'" + std::string(text) + "' is not a choice of " + in.name + "; expected one of: " + names;
    return std::nullopt;
  }
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {
    if (error) *error = "expected a number for " + std::string(in.name) + ", got '" + s + "'";
    return std::nullopt;
  }
  if (v < in.min || v > in.max) {
    if (error) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s must be between %g and %g, got %g", in.name, in.min, in.max, v);
      *error = buf;
    }
    return std::nullopt;
  }
  if (in.integer && v != std::floor(v)) {
    if (error) *error = std::string(in.name) + " must be a whole number, got " + s;
    return std::nullopt;
  }
  return v;
}

}  // namespace dtx::sim
