// Numeric exercises: one or more named parts, each an expression with a unit and a
// tolerance, plus the wrong answers students are known to give.
#pragma once

#include <string>
#include <vector>

#include "model.h"
#include "units.h"

namespace dtx {

struct NumericMistake {
  Expr answer;
  std::string message, pointer;
};

struct NumericPart {
  std::string id, label, unit_text, pointer;
  Unit unit;
  Expr answer;
  double rel = 0.01, abs = 0;
  // "integer": true: a count (GPUs, messages, steps); graded exactly, and lint checks every
  // instance's answer is whole.
  bool integer = false;
  // "plausible": {"min", "max"}, in the part's unit: where every instance's answer must lie
  // (an MFU under 100 %, a step time a run could have); lint checks it.
  std::optional<double> plausible_min, plausible_max;
  std::vector<NumericMistake> mistakes;
  // "source": the id of the formula in the engine's table (`dtx sim --formulas`,
  // docs/formulas.md) this part's answer follows; its citation is shown with the derivation.
  std::string source;
};

// A numeric answer: the text typed in each part's field, in part order.
struct NumericAnswer : AnswerData {
  std::vector<std::string> parts;
  explicit NumericAnswer(std::vector<std::string> p = {}) : parts(std::move(p)) {}
};

// A numeric instance's own data: the answer of each part, in the parts' order.
struct NumericInstance : InstanceData {
  std::vector<double> part_values;
};

struct NumericSpec : TypeSpec {
  std::vector<NumericPart> parts;
  void lint(const Exercise& ex, LintContext& ctx) const override;
  void warn(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  void lint_instance(const Exercise& ex, const Instance& inst, InstanceProblems& out) const override;
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a,
                 const GradeServices& services) const override;
  void texts(const Exercise& ex, const TextFn& fn) const override;
  std::vector<std::string> answer_names(const Exercise& ex) const override;
  std::optional<double> answer_value(const Instance& inst, std::string_view name) const override;
  std::string answer_unit(const Exercise& ex, std::string_view name) const override;
  std::vector<std::pair<std::string, std::string>> derivations(const Exercise& ex, const Instance& inst) const override;
  void describe(const Exercise& ex, const Instance& inst, bool with_answer, InstanceDescription& out) const override;
  std::vector<std::string> answer_key(const Exercise& ex, const Instance& inst) const override;
  std::optional<Answer> parse_answer(const Exercise& ex, const Instance& inst, const std::vector<std::string>& words,
                                     std::string* error) const override;
  std::vector<std::string> answer_words(const Exercise& ex, const Instance& inst, const Answer& a) const override;
  std::vector<SampleAnswer> sample_answers(const Exercise& ex, const Instance& inst) const override;
};

// The greyed hint in a part's empty field, from the part's own unit: what to type, never a
// number (an example number can be the answer, as "1.75" was in ring.volume).
// "in GB or any size unit", "a percentage", "a plain number" (the field is 16 em wide).
std::string part_input_hint(const NumericPart& part);


}  // namespace dtx
