// What lint hands a type when it checks an exercise (TypeSpec::lint, lint_instance, warn):
// the reporter with the exercise and its parameter points, the problems found per seed, the
// style warnings every type shares, and the dimension of an expression. Also how a type tells
// an instance (TypeSpec::describe, for dtx show).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_fields.h"
#include "model.h"

namespace dtx {

// An instance told as text and JSON (TypeSpec::describe; `dtx show`).
struct InstanceDescription {
  std::string text;
  Json json = Json::object();
  // With the answer: the right answer as `dtx grade` reads it (for a program, the text of the
  // reference solution, which `dtx grade` reads from a file).
  std::vector<std::string> answer_words;
};

// Lint needs the same reporter plus the exercise being checked.
class CodeRunner;

struct LintContext : Reporter {
  const Exercise* exercise = nullptr;
  CodeRunner* runner = nullptr;  // when set, code exercises run their reference and wrongs
  bool warnings = false;         // style warnings (`dtx lint --warn`) are wanted
  // Parameter points to evaluate at: the defaults first, then every corner of the ranges
  // (params and derived values, in order; numeric exercises add their answers once known).
  std::vector<std::vector<std::pair<std::string, double>>> points;
  // The exercise's params then derived names, in order: what messages list as "declared".
  std::vector<std::string> declared;

  ExprScope scope_at(size_t point) const;
  std::string describe_point(size_t point) const;  // "at N=2, M=0.5"
  // Evaluates `e` at every point; reports the first failure at `pointer` and returns the
  // values (nullopt where it failed). A name that no point knows is reported as undeclared
  // (see check_names) instead of failing at every point.
  std::vector<std::optional<double>> eval_everywhere(const Expr& e, const std::string& pointer,
                                                     const std::string& what);
  // Reports the first name of `e` that is not in `visible` ("parameter 'n' is used in the
  // answer but not declared (did you mean 'N'?); declared: N, M"), or that is in `later`
  // (defined, but after this use). `where` says where the expression is ("the answer",
  // "derived value \"chunk\""). `column_offset` is added to the name's column when the
  // expression sits inside a longer string (a placeholder). Returns true when all are known.
  bool check_names(const Expr& e, const std::string& pointer, const std::string& where,
                   const std::vector<std::string>& visible,
                   const std::vector<std::string>& later = {}, int column_offset = 0);
  // A style warning; dropped unless `warnings` is set.
  void warn(DiagCode code, const std::string& pointer, const std::string& message, bool at_key = false) {
    if (warnings) report(code, pointer, message, at_key);
  }
};

// What TypeSpec::lint_instance finds in one instance. Lint gathers the same problem (code and
// pointer) over every seed and reports it once, with the first seed and how many had it.
struct InstanceProblems {
  struct Problem {
    DiagCode code;
    std::string pointer, message;  // the message of the first seed that had it
    uint64_t first_seed = 0;
    std::string first_values;  // "p=2, m=126"
    int seeds = 0;
    uint64_t last_seed = 0;  // a problem found twice in one instance counts that seed once
  };
  std::vector<Problem> found;
  uint64_t seed = 0;          // the instance being checked
  std::string values;         // its parameters, for messages
  void problem(DiagCode code, const std::string& pointer, const std::string& message);
};

// Shared by lint and the types' style warnings (TypeSpec::warn).
// "no hints: a student who is stuck gets no nudge ...", at the exercise.
void warn_no_hints(const Exercise& ex, LintContext& ctx);
// Warns about each parameter that `used` names (through derived values), that varies, and
// that `text` never shows in a placeholder: the student cannot know its value.
void warn_unshown_params(const Exercise& ex, const std::vector<std::string>& used, const std::string& text,
                         const std::string& text_pointer, LintContext& ctx);

// The dimension of `e` (over the exercise's params and derived values) in data, time, FLOP and
// money, from the units the params declare ("unit": "GB"): each is scaled in turn and the change
// of the result read off (a quantity of dimension data^k grows by 2^k when every data amount
// doubles). Numbers written into an expression count as plain numbers. nullopt when it cannot
// tell: a parameter `e` depends on declares no unit, or the result does not scale as a power
// (ceil, a sum of unlike terms). Counts (GPUs, tokens) are left out: "per GPU" is rarely
// written into a unit.
std::optional<Dim> dimension_of(const Expr& e, const Exercise& ex);

}  // namespace dtx
