// Matching exercises: pair each item on the left with one option on the right (collective
// with the bytes each GPU sends, ZeRO stage with what it shards). Options may outnumber the
// items (distractors); both columns are shuffled per instance; each right pair earns its
// share of the credit.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

struct MatchingPair {
  std::string left, right, feedback, pointer;
};

// A matching answer: for each item, in authored order, the authored index of the option
// chosen for it (the pairs' right-hand sides first, then the distractors); -1 for none.
struct MatchingAnswer : AnswerData {
  std::vector<int> choice;
  explicit MatchingAnswer(std::vector<int> c = {}) : choice(std::move(c)) {}
};

// The instance's option order (the items' order is Instance::order): the authored option
// shown at each letter.
struct MatchingInstance : InstanceData {
  std::vector<int> order;         // the authored index of the item shown at each position
  std::vector<int> option_order;
};

struct MatchingSpec : TypeSpec {
  std::vector<MatchingPair> pairs;
  std::vector<std::string> distractors;  // options that match no item
  std::string pointer;

  size_t option_count() const { return pairs.size() + distractors.size(); }
  // The text of authored option `i`.
  const std::string& option_text(size_t i) const { return i < pairs.size() ? pairs[i].right : distractors[i - pairs.size()]; }

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

// The option order of a matching instance (identity when the instance is not one).
std::vector<int> matching_option_order(const Instance& inst, size_t options);

}  // namespace dtx
