// Flag parsing for `dtx sim`, generated from the widget input tables so the page's sliders,
// the pack's "widget" object and the command line take the same names and ranges.
#include "sim.h"

#include "expr.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace dtx::cli {

namespace {

std::string describe_input(const sim::WidgetInput& in) {
  char buf[512];
  if (!in.options.empty()) {
    std::string opts;
    for (size_t i = 0; i < in.options.size(); ++i) opts += (i ? "|" : "") + std::string(in.options[i]);
    std::snprintf(buf, sizeof buf, "  --%-12s %s (default %s): %s\n", in.name, opts.c_str(),
                  in.options[static_cast<size_t>(in.def)], in.help);
  } else {
    std::snprintf(buf, sizeof buf, "  --%-12s %g..%g (default %g): %s\n", in.name, in.min, in.max, in.def, in.help);
  }
  return buf;
}

std::string kind_help(const sim::WidgetKind& k) {
  std::string s = std::string("usage: dtx sim ") + k.kind + " [--INPUT VALUE]... [--json]\n\n" + k.title + ": " +
                  k.summary + "\n\ninputs:\n";
  for (const auto& in : k.inputs) s += describe_input(in);
  s += "\n--json prints the result as one JSON object.\n";
  return s;
}

std::string main_help() {
  std::string s =
      "usage: dtx sim KIND [--INPUT VALUE]... [--json]\n\n"
      "Runs the simulation behind one of the page's widgets and prints its figures.\n\nkinds:\n";
  for (const sim::WidgetKind* k : sim::widget_kinds()) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-10s %s\n", k->kind, k->summary);
    s += buf;
  }
  s += "\nRun `dtx sim KIND --help` for its inputs.\n";
  return s;
}

std::string jstr(const char* s) {
  std::string o = "\"";
  for (const char* c = s; *c; ++c) {
    if (*c == '"' || *c == '\\') o += '\\';
    o += *c;
  }
  return o + "\"";
}

std::string inputs_json() {
  std::string o = "{";
  bool first_kind = true;
  for (const sim::WidgetKind* k : sim::widget_kinds()) {
    o += (first_kind ? "" : ",") + jstr(k->kind) + ":{\"title\":" + jstr(k->title) + ",\"summary\":" + jstr(k->summary) + ",\"inputs\":[";
    first_kind = false;
    for (size_t i = 0; i < k->inputs.size(); ++i) {
      const auto& in = k->inputs[i];
      char nums[160];
      std::snprintf(nums, sizeof nums, "\"min\":%.17g,\"max\":%.17g,\"default\":%.17g,\"integer\":%s", in.min, in.max, in.def,
                    in.integer ? "true" : "false");
      o += std::string(i ? "," : "") + "{\"name\":" + jstr(in.name) + ",\"label\":" + jstr(in.label) + ",\"help\":" + jstr(in.help) + ",";
      if (!in.options.empty()) {
        o += "\"options\":[";
        for (size_t j = 0; j < in.options.size(); ++j) o += (j ? "," : "") + jstr(in.options[j]);
        o += "],\"default\":" + jstr(in.options[static_cast<size_t>(in.def)]) + "}";
      } else {
        o += std::string(nums) + "}";
      }
    }
    o += "]}";
  }
  return o + "}";
}

}  // namespace

int cmd_sim(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << main_help();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--inputs-json") {
    // Every kind and its inputs, for the schema test and for scripts.
    std::cout << inputs_json() << "\n";
    return 0;
  }
  const sim::WidgetKind* kind = sim::find_widget_kind(args[0]);
  if (!kind) {
    std::string names;
    for (const sim::WidgetKind* k : sim::widget_kinds()) names += std::string(names.empty() ? "" : ", ") + k->kind;
    std::cerr << "dtx sim: unknown simulation '" << args[0] << "'; expected one of: " << names << "\n";
    return 2;
  }
  sim::WidgetValues v = sim::WidgetValues::defaults(*kind);
  bool json = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kind_help(*kind);
      return 0;
    }
    if (a == "--json") {
      json = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      std::cerr << "dtx sim " << kind->kind << ": unexpected argument '" << a << "'; inputs are given as --NAME VALUE\n";
      return 2;
    }
    std::string name(a.begin() + 2, a.end()), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      std::cerr << "dtx sim " << kind->kind << ": --" << name << " needs a value\n";
      return 2;
    }
    const sim::WidgetInput* in = kind->input(name);
    if (!in) {
      std::vector<std::string> names;
      for (const auto& cand : kind->inputs) names.push_back(cand.name);
      std::string best = closest_match(name, names);  // the engine's near-miss rule
      std::cerr << "dtx sim " << kind->kind << ": unknown input --" << name;
      if (!best.empty()) std::cerr << " (did you mean --" << best << "?)";
      std::cerr << "\n\n" << kind_help(*kind);
      return 2;
    }
    std::string err;
    auto x = sim::parse_widget_value(*in, value, &err);
    if (!x) {
      std::cerr << "dtx sim " << kind->kind << ": --" << name << ": " << err << "\n";
      return 2;
    }
    v.set(name, *x);
  }
  std::string k = kind->kind;
  if (k == "ring") return print_sim_ring(v, json);
  if (k == "pipeline") return print_sim_pipeline(v, json);
  if (k == "plan") return print_sim_plan(v, json);
  if (k == "hierarchy") return print_sim_hierarchy(v, json);
  if (k == "roofline") return print_sim_roofline(v, json);
  return 2;
}

}  // namespace dtx::cli
