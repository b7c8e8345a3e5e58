// Ordering exercises: items authored in the right order, shown shuffled, graded with
// PrairieLearn's ranking credit (longest subsequence in the right relative order / items).
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

// An ordering answer: the authored item indices in the student's order.
struct OrderingAnswer : AnswerData {
  std::vector<int> order;
  explicit OrderingAnswer(std::vector<int> o = {}) : order(std::move(o)) {}
};

// An ordering instance's own data: the authored index of the item shown at each position.
struct OrderingInstance : InstanceData {
  std::vector<int> order;
};

struct OrderingSpec : TypeSpec {
  std::vector<std::string> items;
  std::vector<std::string> feedback;  // optional, one per item
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

// Length of the longest strictly increasing subsequence; `members` receives the positions
// (in `seq`) of one such subsequence.
size_t longest_increasing_subsequence(const std::vector<int>& seq, std::vector<size_t>* members);

}  // namespace dtx
