// What a wrong number most likely is: the engine's own diagnosis, used by numeric parts and by
// code cases after the author's listed mistakes (which always win). Twice or half comes first,
// then the generic slips, each only where it can happen: bits vs bytes for data, binary
// prefixes where the unit has a prefix, unit prefixes where there is a unit, percent vs
// fraction for percentages and plain numbers. Only then a ratio that is one of the instance's
// own values ("8 is TP here"); where a slip and a value both fit, the slip is named and the
// value mentioned ("...bits vs bytes (1 byte = 8 bits). 8 is also N here, so ...").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "units.h"

namespace dtx {

struct FactorContext {
  // The part's unit; nullptr for a value without one (a code case's return value).
  const Unit* unit = nullptr;
  // The instance's parameters (a code case: its arguments), by name, in order.
  std::vector<std::pair<std::string, double>> values;
};

// `given` is `expected` times k, within the tolerance (abs scaled by k).
bool near_factor(double given, double expected, double k, double rel, double abs);

// The generic slips that can happen to a quantity in `unit` (nullptr: a value without a unit),
// each as its factor and a short name ("bits vs bytes"): for lint, which checks that a part's
// tolerance does not grade a slip as right.
std::vector<std::pair<double, std::string>> slips_for(const Unit* unit);

// The instance's single values that the ratio given/expected equals, as the note after a slip
// names them ("8 is also N here"); empty when none does. For lint, which warns where a slip's
// factor is often one of the instance's values.
std::vector<std::string> values_beside_slip(double given, double expected, double rel, double abs,
                                            const FactorContext& ctx);

// What explains `given` against `expected` (within rel/abs of the factor): the misconception
// key (misconception.h: a generic slip's, or "instance-value") and the message for the student.
// Both empty when nothing does.
struct Diagnosis {
  std::string key, message;
};
Diagnosis diagnose(double given, double expected, double rel, double abs, const FactorContext& ctx);

// The message alone: diagnose(...).message.
std::string diagnose_factor(double given, double expected, double rel, double abs, const FactorContext& ctx);

}  // namespace dtx
