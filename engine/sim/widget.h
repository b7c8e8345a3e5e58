// What each animated widget takes as input, so packs can embed a widget with values from an
// exercise instance ("widget": {"kind": "pipeline", "p": "{p}", "m": 8}) and the engine can
// check those values like any other field. Each simulation file declares its own kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::sim {

// One input of a widget. Numeric inputs have a range; an input with `options` is a choice
// whose value is the index of the option (packs write the option's name).
struct WidgetInput {
  const char* name;   // key in the pack's "widget" object and in `dtx sim` flags
  const char* label;  // slider label in the page
  double min = 0, max = 1, def = 0;
  bool integer = true;
  bool log_scale = false;              // slider moves in powers (bytes, FLOP/s...)
  std::vector<const char*> options;    // non-empty: a choice
  const char* help = "";               // one sentence for the schema and the docs
  bool zero_is_auto = false;           // 0 means "work it out" (shown as "0 (auto)")
};

struct WidgetKind {
  const char* kind;     // "ring", "pipeline", "plan", "hierarchy", "roofline"
  const char* title;    // "Ring AllReduce"
  const char* summary;  // one line for the Lab's list
  std::vector<WidgetInput> inputs;
  // Why the simulation cannot run these values (an interleaved pipeline with fewer
  // microbatches than stages), in a sentence; empty when it can. Lint asks it for every
  // instance of an exercise's widget and "simulations" (exercise_widget.h). Null: any values
  // in the inputs' ranges run.
  std::string (*refuses)(const struct WidgetValues& v) = nullptr;
  const WidgetInput* input(std::string_view name) const;
};

// Declared by each simulation file.
const WidgetKind& ring_widget_kind();
const WidgetKind& pipeline_widget_kind();
const WidgetKind& plan_widget_kind();
const WidgetKind& hierarchy_widget_kind();
const WidgetKind& roofline_widget_kind();

// All of them, in the Lab's order.
const std::vector<const WidgetKind*>& widget_kinds();
const WidgetKind* find_widget_kind(std::string_view kind);

// Concrete values for every input of a kind (defaults where nothing was given).
struct WidgetValues {
  const WidgetKind* kind = nullptr;
  std::vector<double> values;  // one per kind->inputs, same order; choices as the index

  static WidgetValues defaults(const WidgetKind& k);
  double get(std::string_view name) const;  // 0 when the kind has no such input
  int get_int(std::string_view name) const { return static_cast<int>(get(name)); }
  const char* option(std::string_view name) const;  // name of the chosen option, "" if none
  void set(std::string_view name, double v);         // clamped to the input's range
};

// Parses a value written in a pack or on the command line for `in`: a number, or an option
// name for choices. Returns nullopt with `error` set ("expected one of: gpipe, 1f1b ...").
std::optional<double> parse_widget_value(const WidgetInput& in, std::string_view text,
                                         std::string* error);

}  // namespace dtx::sim
