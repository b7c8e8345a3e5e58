// Choice exercises: one or several correct options, shuffled per instance, with feedback
// for each option.
#pragma once

#include <string>
#include <vector>

#include "../model.h"

namespace dtx {

struct ChoiceOption {
  std::string text, feedback, pointer;
  bool correct = false, fixed = false;
};

struct ChoiceSpec : TypeSpec {
  bool multiple = false, shuffle = true;
  std::vector<ChoiceOption> options;
  void lint(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a) const override;
};

}  // namespace dtx
