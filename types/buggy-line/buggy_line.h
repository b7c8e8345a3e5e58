// Buggy-line exercises: code shown with line numbers; the student clicks the line (or
// lines) that are wrong. Known decoys explain why they are fine.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

struct LineNote {
  int line = 0;
  std::string message, pointer;
};

// A buggy-line answer: the lines clicked, numbered from 1 as the code shows them.
struct BuggyLineAnswer : AnswerData {
  std::vector<int> lines;
  explicit BuggyLineAnswer(std::vector<int> l = {}) : lines(std::move(l)) {}
};

struct BuggyLineSpec : TypeSpec {
  std::string language = "javascript";
  std::vector<std::string> code;  // one entry per line
  std::vector<LineNote> bugs, decoys;
  int select = 1;
  void lint(const Exercise& ex, LintContext& ctx) const override;
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
