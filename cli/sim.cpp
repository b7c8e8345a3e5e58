// Flag parsing for `dtx sim`, generated from the widget input tables so the page's sliders,
// the pack's "widget" object and the command line take the same names and ranges.
#include "sim.h"

#include "expr.h"
#include "sim/explain.h"
#include "sim/sources.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

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
  if (std::string(k.kind) == "gradscaler")
    s += "  --steps        runs of steps: a count and o (overflow) or c (clean), comma-separated, e.g. 2o,2000c,1o "
         "(required)\n";
  s += "\n--json prints the result as one JSON object.\n"
       "--explain adds how each figure comes out of its source's formula, with this run's inputs (with --json: an "
       "\"explain\" array).\n";
  // The formulas behind this kind's figures, with their sources (the ids' first part).
  const std::string kind = k.kind;
  const char* prefixes[4] = {nullptr, nullptr, nullptr, nullptr};
  if (kind == "memory") prefixes[0] = "memory.";
  else if (kind == "collective") prefixes[0] = "busbw.";
  else if (kind == "ring") prefixes[0] = "ring.", prefixes[1] = "busbw.allreduce";
  else if (kind == "pipeline") prefixes[0] = "pipeline.";
  else if (kind == "plan") prefixes[0] = "memory.", prefixes[1] = "plan.";
  else if (kind == "checkpoint") prefixes[0] = "checkpoint.";
  else if (kind == "gradscaler") prefixes[0] = "gradscaler";
  else if (kind == "scaling") prefixes[0] = "scaling.";
  std::string src;
  for (const sim::SourcedFormula& f : sim::sourced_formulas()) {
    bool match = false;
    for (const char* p : prefixes)
      if (p && std::string(f.id).rfind(p, 0) == 0) match = true;
    if (!match) continue;
    src += "  ";
    src += f.quantity;
    src += ": ";
    src += f.formula;
    src += "\n    source: ";
    src += f.source;
    src += "\n";
  }
  if (!src.empty()) {
    s += "\nformulas and sources:\n";
    s += src;
  }
  return s;
}

std::string main_help() {
  std::string s =
      "usage: dtx sim KIND [--INPUT VALUE]... [--json] [--explain]\n\n"
      "Runs the simulation behind one of the page's widgets, or one of the calculators, and prints its "
      "figures.\n\nwidgets:\n";
  char buf[320];
  for (const sim::WidgetKind* k : sim::widget_kinds()) {
    std::snprintf(buf, sizeof buf, "  %-10s %s\n", k->kind, k->summary);
    s += buf;
  }
  s += "\ncalculators:\n";
  for (const sim::WidgetKind* k : sim::calculator_kinds()) {
    std::snprintf(buf, sizeof buf, "  %-10s %s\n", k->kind, k->summary);
    s += buf;
  }
  s += "\nsources the figures follow (dtx sim --formulas lists every formula with its source):\n"
       "  ZeRO paper       Rajbhandari et al. 2020, section 5 and tables 1-2 (memory --source zero-paper)\n"
       "  DeepSpeed        stage_1_and_2.py and stage3.py memory estimators, current and before June 2024\n"
       "                   (memory --source deepspeed | deepspeed-2023)\n"
       "  Megatron-LM      theoretical_memory_usage.py (memory --source megatron); schedules.py warm-up\n"
       "                   and microbatch groups (pipeline 1f1b, interleaved --group)\n"
       "  nccl-tests       busBw factors of src/*.cu and doc/PERFORMANCE.md (collective, ring)\n"
       "  Zero Bubble PP   Qi et al. 2023, ZB-H1, ZB-H2 and ZB-V; sail-sg's zbv.py for ZB-V's order\n"
       "                   (pipeline --schedule zb-h1 | zb-h2 | zb-v)\n"
       "  DeepSeek-V3      technical report table 2 and deepseek-ai/DualPipe (pipeline --schedule dualpipe)\n"
       "  Young 1974, Daly 2006   checkpoint intervals (checkpoint)\n"
       "  PyTorch          GradScaler, torch/amp/grad_scaler.py (gradscaler)\n"
       "  Kaplan et al. 2020, Hoffmann et al. 2022   6ND and tokens per parameter (scaling)\n"
       "  Korthikanti et al. 2022   activation memory (plan)\n"
       "  Williams et al. 2009   the roofline (roofline); Llama 3 section 3.3.1   oversubscription (hierarchy)\n"
       "\nRun `dtx sim KIND --help` for its inputs.\n";
  return s;
}

std::string formulas_text() {
  std::string s;
  for (const sim::SourcedFormula& f : sim::sourced_formulas()) {
    s += f.id;
    s += "\n  ";
    s += f.quantity;
    s += "\n  ";
    s += f.formula;
    for (const auto& e : sim::formula_exprs())
      if (std::string_view(e.id) == f.id)
        s += std::string("\n  as dtx computes it: ") + e.figure + " = " + e.expr + (*e.when ? std::string(", exact when ") + e.when : "");
    for (const auto& e : sim::simulated_formulas())
      if (std::string_view(e.id) == f.id) s += std::string("\n  an event simulation, checked by ") + e.checked_by;
    s += "\n  source: ";
    s += f.source;
    s += "\n  ";
    s += f.url;
    s += "\n\n";
  }
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

std::string formulas_json() {
  std::string o = "[";
  bool first = true;
  for (const sim::SourcedFormula& f : sim::sourced_formulas()) {
    if (!first) o += ',';
    o += "{\"id\":";
    o += jstr(f.id);
    o += ",\"quantity\":";
    o += jstr(f.quantity);
    o += ",\"formula\":";
    o += jstr(f.formula);
    o += ",\"source\":";
    o += jstr(f.source);
    o += ",\"url\":";
    o += jstr(f.url);
    // The formula in dtx's expression language, as the simulator computes each figure
    // (tests/unit/test_sim_explain.cpp compares the two), or the test of its event simulation.
    o += ",\"computed\":[";
    bool first_expr = true;
    for (const auto& e : sim::formula_exprs()) {
      if (std::string_view(e.id) != f.id) continue;
      o += std::string(first_expr ? "" : ",") + "{\"figure\":" + jstr(e.figure) + ",\"expr\":" + jstr(e.expr) +
           ",\"when\":" + jstr(e.when) + "}";
      first_expr = false;
    }
    o += "]";
    for (const auto& e : sim::simulated_formulas())
      if (std::string_view(e.id) == f.id) o += ",\"checked_by\":" + jstr(e.checked_by);
    o += '}';
    first = false;
  }
  return o + "]";
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

// `dtx sim --formulas` and the other listings that take no kind; nullopt for anything else.
std::optional<int> print_listing(const std::string& arg) {
  if (arg == "--formulas") {
    std::cout << formulas_text();
    return 0;
  }
  if (arg == "--formulas-json") {
    std::cout << formulas_json() << "\n";
    return 0;
  }
  if (arg == "--inputs-json") {
    // Every kind and its inputs, for the schema test and for scripts.
    std::cout << inputs_json() << "\n";
    return 0;
  }
  return std::nullopt;
}

// The widget or calculator named `name`, or nullptr after saying which names there are.
const sim::WidgetKind* find_kind(const std::string& name) {
  const sim::WidgetKind* kind = sim::find_widget_kind(name);
  if (!kind) kind = sim::find_calculator_kind(name);
  if (!kind) {
    std::string names;
    for (const sim::WidgetKind* k : sim::widget_kinds()) names += std::string(names.empty() ? "" : ", ") + k->kind;
    for (const sim::WidgetKind* k : sim::calculator_kinds()) {
      names += ", ";
      names += k->kind;
    }
    std::cerr << "dtx sim: unknown simulation '" << name << "'; expected one of: " << names << "\n";
  }
  return kind;
}

// The flags after the kind.
struct SimFlags {
  sim::WidgetValues values;
  bool json = false;
  bool explain = false;
  std::string steps;  // gradscaler's text input
  bool have_steps = false;
};

// Sets input `name` of `kind` from its text; false after saying what is wrong with it.
bool set_input(const sim::WidgetKind& kind, const std::string& name, const std::string& value, sim::WidgetValues& v) {
  const sim::WidgetInput* in = kind.input(name);
  if (!in) {
    std::vector<std::string> names;
    for (const auto& cand : kind.inputs) names.push_back(cand.name);
    std::string best = closest_match(name, names);  // the engine's near-miss rule
    std::cerr << "dtx sim " << kind.kind << ": unknown input --" << name;
    if (!best.empty()) std::cerr << " (did you mean --" << best << "?)";
    std::cerr << "\n\n" << kind_help(kind);
    return false;
  }
  std::string err;
  auto x = sim::parse_widget_value(*in, value, &err);
  if (!x) {
    std::cerr << "dtx sim " << kind.kind << ": --" << name << ": " << err << "\n";
    return false;
  }
  v.set(name, *x);
  return true;
}

// Reads args[1...] into `flags`; an exit code when the command ends here (--help, a bad flag).
std::optional<int> parse_flags(const sim::WidgetKind& kind, const std::vector<std::string>& args, SimFlags& flags) {
  for (size_t i = 1; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kind_help(kind);
      return 0;
    }
    if (a == "--json") {
      flags.json = true;
      continue;
    }
    if (a == "--explain") {
      flags.explain = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      std::cerr << "dtx sim " << kind.kind << ": unexpected argument '" << a << "'; inputs are given as --NAME VALUE\n";
      return 2;
    }
    std::string name(a.begin() + 2, a.end()), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      std::cerr << "dtx sim " << kind.kind << ": --" << name << " needs a value\n";
      return 2;
    }
    if (std::string(kind.kind) == "gradscaler" && name == "steps") {
      flags.steps = value;
      flags.have_steps = true;
      continue;
    }
    if (!set_input(kind, name, value, flags.values)) return 2;
  }
  return std::nullopt;
}

// Runs the simulation and prints its figures; the command's exit code.
int run_sim(const sim::WidgetKind& kind, const SimFlags& flags) {
  const sim::WidgetValues& v = flags.values;
  const bool json = flags.json;
  std::string k = kind.kind;
  if (k == "ring") return print_sim_ring(v, json);
  if (k == "pipeline") return print_sim_pipeline(v, json);
  if (k == "plan") return print_sim_plan(v, json);
  if (k == "hierarchy") return print_sim_hierarchy(v, json);
  if (k == "roofline") return print_sim_roofline(v, json);
  if (k == "memory") return print_sim_memory(v, json);
  if (k == "collective") return print_sim_collective(v, json);
  if (k == "checkpoint") return print_sim_checkpoint(v, json);
  if (k == "scaling") return print_sim_scaling(v, json);
  if (k == "gradscaler") {
    if (!flags.have_steps) {
      std::cerr << "dtx sim gradscaler: --steps is required, e.g. --steps \"2o,2000c,1o\" (o overflow, c clean)\n";
      return 2;
    }
    return print_sim_gradscaler(v, flags.steps, json);
  }
  return 2;
}

}  // namespace

int cmd_sim(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << main_help();
    return args.empty() ? 2 : 0;
  }
  if (auto code = print_listing(args[0])) return *code;
  const sim::WidgetKind* kind = find_kind(args[0]);
  if (!kind) return 2;
  SimFlags flags;
  flags.values = sim::WidgetValues::defaults(*kind);
  if (auto code = parse_flags(*kind, args, flags)) return *code;
  if (flags.explain) return print_explained(flags.values, flags.json, [&] { return run_sim(*kind, flags); });
  return run_sim(*kind, flags);
}

}  // namespace dtx::cli
