// Physical limits a pack declares once and its exercises bind their values to, so lint holds
// every instance to them:
//
//   "limits": {"gpu-memory": {"max": "80 GB", "source": "NVIDIA H100 SXM datasheet: 80 GB HBM3"}}
//   (in the pack), and in an exercise
//   "limits": {"gpu-memory": ["answer.stage3"]}
//
// An instance whose bound value lies outside the limit describes a machine or a run that
// cannot exist (2,000 GB of model state on one 80 GB GPU); `dtx lint --seeds N` reports it
// with the seed (E067), and a binding to an undeclared limit or name is an error (E068).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "units.h"

namespace dtx {

struct PackLimit {
  std::string id, source, pointer;
  // Bounds in base units (bytes, seconds...) of `unit`'s dimension; "min"/"max" as written.
  std::optional<double> min, max;
  std::string min_text, max_text;
  Unit unit;  // the unit the bounds were written in ("" for plain numbers and fractions)
};

// One exercise value held to one pack limit: a parameter, a derived value or an answer
// ("answer.PART"). A value with a unit of its own (a part's, a parameter's) is converted; a
// derived value or a parameter without one is read in the limit's unit.
struct LimitBinding {
  std::string limit, name, pointer;
};

}  // namespace dtx

// Loading, lint and instance checks (engine/pack_limits.cpp), with the loader's and lint's types
// named only.
#include <nlohmann/json_fwd.hpp>

namespace dtx {

struct LoadContext;
struct LintContext;
struct InstanceProblems;
struct Exercise;
struct Instance;

// A pack's "limits" object.
std::vector<PackLimit> load_pack_limits(const nlohmann::ordered_json& j, LoadContext& ctx);
// An exercise's "limits": {"LIMIT": ["NAME", ...]}.
std::vector<LimitBinding> load_limit_bindings(const nlohmann::ordered_json& j, const std::string& ptr, LoadContext& ctx);

// Each binding names a declared limit and a value the exercise has, of the limit's dimension.
void lint_limit_bindings(const Exercise& ex, const std::vector<PackLimit>& limits, LintContext& ctx);
// One instance: every bound value within its limit.
void lint_limits_instance(const Exercise& ex, const Instance& inst, const std::vector<PackLimit>& limits,
                          InstanceProblems& out);

}  // namespace dtx
