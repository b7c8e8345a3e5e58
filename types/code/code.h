// Code exercises: the student writes a JavaScript function; the engine makes the cases and
// the expected results and grades what a runner returns (engine/code_runner.h: the request,
// the result, and the two runners that speak them). Expected values never leave the engine: a
// request carries the code and the cases' arguments only.
#pragma once

#include <string>
#include <vector>

#include "code_runner.h"
#include "model.h"

namespace dtx {

struct CodeArgRange {
  std::string name;
  std::vector<double> choices;
  double min = 0, max = 0, step = 0;
};

struct CodeCaseSpec {
  std::vector<std::string> args_json;
  std::optional<std::string> expected_json;
  std::string note, pointer;
  bool hidden = false;  // "hidden": true
};

struct WrongImplementation {
  std::string note, code, pointer;
};

struct CodeCase {
  std::vector<std::string> args_json;  // each argument as JSON text
  std::vector<double> args_num;        // numeric view, when every argument is a number
  bool numeric_args = true;
  std::optional<std::string> expected_json;  // from the case, the expression; or the reference
  std::string note;
  // "hidden": true (on the case or on "generate"): graded, but the student's feedback gives
  // only whether it passed, so a solution cannot be a table of the shown answers.
  bool hidden = false;
};

// A code instance's own data: its cases, listed and generated, with their expected values.
struct CodeInstance : InstanceData {
  std::vector<CodeCase> cases;
};

struct CodeSpec : TypeSpec {
  std::string language = "javascript", function, returns, starter, reference;
  std::vector<std::string> args;
  std::optional<Expr> expected;
  std::vector<CodeCaseSpec> cases;
  int generate_count = 0;
  bool generate_hidden = false;  // "generate": {"hidden": true}: every drawn case is hidden
  std::vector<CodeArgRange> ranges;
  double rel = 1e-6, abs = 0;
  std::vector<WrongImplementation> wrong;
  std::string pointer;

  void lint(const Exercise& ex, LintContext& ctx) const override;
  void warn(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  // Grades what the runner returned; an answer not run yet is run with services.runner.
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a,
                 const GradeServices& services) const override;
  void describe(const Exercise& ex, const Instance& inst, bool with_answer, InstanceDescription& out) const override;
  std::vector<std::string> answer_key(const Exercise& ex, const Instance& inst) const override;
  bool answer_is_program() const override { return true; }
  std::optional<Answer> parse_answer(const Exercise& ex, const Instance& inst, const std::vector<std::string>& words,
                                     std::string* error) const override;
  std::vector<std::string> answer_words(const Exercise& ex, const Instance& inst, const Answer& a) const override;
  std::vector<SampleAnswer> sample_answers(const Exercise& ex, const Instance& inst) const override;
};

// A code answer: the student's program and, once a runner has run it, what came back.
struct CodeAnswer : AnswerData {
  std::string source;
  std::shared_ptr<const CodeRunResult> run;
  explicit CodeAnswer(std::string src = {}, std::shared_ptr<const CodeRunResult> r = nullptr)
      : source(std::move(src)), run(std::move(r)) {}
};

CodeRunRequest make_code_request(const Instance& inst, const std::string& source);
// Runs the student's code with `runner` and grades it.
Feedback grade_code(const Instance& inst, const std::string& source, CodeRunner& runner);
// The same for the pack's author (lint): hidden cases are reported in full, like the others.
Feedback grade_code_for_author(const Instance& inst, const std::string& source, CodeRunner& runner);

// Compares a returned value with the expected one: numbers with tolerance, arrays element
// by element, anything else exactly.
bool json_values_match(const std::string& got, const std::string& expected, double rel, double abs);

}  // namespace dtx
