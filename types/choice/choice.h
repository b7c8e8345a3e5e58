// Choice exercises: one or several correct options, shuffled per instance, with feedback
// for each option.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

struct ChoiceOption {
  std::string text, feedback, pointer;
  bool correct = false, fixed = false;
};

// A choice answer: the options ticked, as authored indices (0-based, whatever order the
// student saw them in).
struct ChoiceAnswer : AnswerData {
  std::vector<int> picks;
  explicit ChoiceAnswer(std::vector<int> p = {}) : picks(std::move(p)) {}
};

// A choice instance's own data: the authored index of the option shown at each position.
struct ChoiceInstance : InstanceData {
  std::vector<int> order;
};

struct ChoiceSpec : TypeSpec {
  bool multiple = false, shuffle = true;
  std::vector<ChoiceOption> options;
  void lint(const Exercise& ex, LintContext& ctx) const override;
  void warn(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a,
                 const GradeServices& services) const override;
  void texts(const Exercise& ex, const TextFn& fn) const override;
  void describe(const Exercise& ex, const Instance& inst, bool with_answer, InstanceDescription& out) const override;
  std::vector<std::string> answer_key(const Exercise& ex, const Instance& inst) const override;
  std::optional<Answer> parse_answer(const Exercise& ex, const Instance& inst, const std::vector<std::string>& words,
                                     std::string* error) const override;
  std::vector<std::string> answer_words(const Exercise& ex, const Instance& inst, const Answer& a) const override;
  std::vector<SampleAnswer> sample_answers(const Exercise& ex, const Instance& inst) const override;
};

}  // namespace dtx
