#include <gtest/gtest.h>

#include <functional>

#include "grade/code.h"
#include "helpers.h"
#include "lint.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kCode = R"J({"id": "k", "type": "code", "title": "K", "prompt": "p",
  "function": "ringTime", "args": ["M", "N", "bw"], "returns": "ms",
  "expected": "2*(N-1)*(M/N)/bw*1000",
  "cases": [{"args": [1, 8, 50]}, {"args": [1, 1, 50], "note": "one GPU"}, {"args": [2, 2, 100], "expected": 20}],
  "generate": {"count": 4, "ranges": {"M": {"min": 1, "max": 8, "step": 1}, "N": {"choices": [2, 4, 8]}, "bw": {"min": 25, "max": 100, "step": 25}}}})J";

// A runner that evaluates a C++ stand-in for the student's function, so the grading logic
// is tested without JavaScript.
class FakeRunner : public CodeRunner {
 public:
  std::function<double(double, double, double)> fn;
  CodeRunResult::Kind kind = CodeRunResult::Kind::None;
  CodeRunRequest last;
  CodeRunResult run(const CodeRunRequest& r) override {
    last = r;
    CodeRunResult res;
    res.kind = kind;
    if (kind != CodeRunResult::Kind::None) {
      res.error = "boom";
      res.error_line = 3;
      return res;
    }
    for (const auto& c : r.cases) {
      CodeCaseOutcome o;
      o.ok = true;
      o.value_json = std::to_string(fn(std::stod(c[0]), std::stod(c[1]), std::stod(c[2])));
      res.student.push_back(o);
    }
    return res;
  }
};

}  // namespace

TEST(Code, CasesAndExpectedValues) {
  Pack p = must_load(pack_with(kCode));
  Instance i = must_instance(p.exercises[0]);
  ASSERT_EQ(i.cases.size(), 7u);  // 3 listed + 4 generated
  EXPECT_EQ(*i.cases[0].expected_json, "35");
  EXPECT_EQ(*i.cases[1].expected_json, "0");
  EXPECT_EQ(*i.cases[2].expected_json, "20");  // the case's own value
  EXPECT_EQ(i.cases[1].note, "one GPU");
  // generated cases follow the seed
  EXPECT_EQ(must_instance(p.exercises[0], 5).cases[4].args_json, must_instance(p.exercises[0], 5).cases[4].args_json);
  CodeRunRequest r = make_code_request(i, "src");
  EXPECT_EQ(r.function, "ringTime");
  EXPECT_EQ(r.cases.size(), 7u);
  EXPECT_TRUE(r.reference.empty());  // every case has an expected value
}

TEST(Code, CorrectFunctionPasses) {
  Pack p = must_load(pack_with(kCode));
  Instance i = must_instance(p.exercises[0]);
  FakeRunner run;
  run.fn = [](double M, double N, double bw) { return 2 * (N - 1) * (M / N) / bw * 1000; };
  Feedback f = grade_code(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
  EXPECT_EQ(f.cases.size(), 7u);
}

TEST(Code, WrongFunctionGetsPerCaseResultsAndADiagnosis) {
  Pack p = must_load(pack_with(kCode));
  Instance i = must_instance(p.exercises[0]);
  FakeRunner run;
  run.fn = [](double M, double N, double bw) { return 4 * (N - 1) * (M / N) / bw * 1000; };  // phases twice
  Feedback f = grade_code(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::Partial);  // the N=1 case still passes (0 = 0)
  EXPECT_FALSE(f.cases[0].pass);
  EXPECT_EQ(f.cases[0].args, "M=1, N=8, bw=50");
  EXPECT_EQ(f.cases[0].expected, "35");
  EXPECT_EQ(f.cases[0].got, "70");
  EXPECT_NE(f.cases[0].message.find("2x"), std::string::npos);
  EXPECT_TRUE(f.cases[1].pass);
  EXPECT_NE(f.message.find("In every failing case"), std::string::npos) << f.message;
}

TEST(Code, SyntaxErrorsAndMissingFunctionsAreFormatErrors) {
  Pack p = must_load(pack_with(kCode));
  Instance i = must_instance(p.exercises[0]);
  FakeRunner run;
  run.kind = CodeRunResult::Kind::Syntax;
  Feedback f = grade_code(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_NE(f.message.find("line 3"), std::string::npos);
  run.kind = CodeRunResult::Kind::Missing;
  EXPECT_EQ(grade_code(i, "src", run).verdict, Verdict::FormatError);
  run.kind = CodeRunResult::Kind::Timeout;
  f = grade_code(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("time limit"), std::string::npos);
}

TEST(Code, ReferenceSolutionProvidesExpectations) {
  Pack p = must_load(pack_with(R"J({"id": "r", "type": "code", "title": "R", "prompt": "p",
    "function": "f", "args": ["x"], "reference": "function f(x) { return [x, x * 2]; }",
    "cases": [{"args": [1]}, {"args": [2]}]})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_FALSE(i.cases[0].expected_json.has_value());
  CodeRunRequest r = make_code_request(i, "src");
  EXPECT_FALSE(r.reference.empty());
  auto res = std::make_shared<const CodeRunResult>(code_result_from_json(
      R"J({"student": [{"ok": true, "value": [1, 2]}, {"ok": true, "value": [2, 5]}],
          "reference": [{"ok": true, "value": [1, 2]}, {"ok": true, "value": [2, 4]}]})J"));
  Feedback f = grade(i, make_answer(CodeAnswer("src", res)));
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_TRUE(f.cases[0].pass);
  EXPECT_FALSE(f.cases[1].pass);
}

// Lint runs the reference and each wrong implementation on seeds 0, 1 and 2 to catch a case
// list that only some instances get right, but only where the cases differ: an exercise with
// fixed cases runs each program once (a wrong implementation that loops costs its whole time
// limit on every run: `dtx lint` of 19 such programs took 20 s instead of 7).
TEST(Code, LintRunsEachProgramOncePerDistinctSetOfCases) {
  struct CountingRunner : CodeRunner {
    int runs = 0;
    CodeRunResult run(const CodeRunRequest& r) override {
      ++runs;
      CodeRunResult res;  // every case returns 0: wrong for both exercises below
      for (size_t i = 0; i < r.cases.size(); ++i) res.student.push_back({true, "0", ""});
      return res;
    }
  };
  auto lint_runs = [](const std::string& exercise) {
    Library lib;
    lib.packs.push_back(must_load(pack_with(exercise)));
    CountingRunner runner;
    LintOptions options;
    options.runner = &runner;
    lint_library(lib, options);
    return runner.runs;
  };
  // fixed cases, two wrong implementations: one run each
  EXPECT_EQ(lint_runs(R"J({"id": "f", "type": "code", "title": "F", "prompt": "p", "function": "f", "args": ["x"],
    "expected": "x + 1", "cases": [{"args": [1]}, {"args": [2]}],
    "wrong": [{"note": "a", "code": "function f(x) { return 0; }"}, {"note": "b", "code": "function f(x) { while (true) {} }"}]})J"), 2);
  // generated cases differ by seed: three runs each
  EXPECT_EQ(lint_runs(R"J({"id": "g", "type": "code", "title": "G", "prompt": "p", "function": "f", "args": ["x"],
    "expected": "x + 1", "cases": [{"args": [1]}],
    "generate": {"count": 3, "ranges": {"x": {"min": 1, "max": 1000, "step": 1}}},
    "wrong": [{"note": "a", "code": "function f(x) { return 0; }"}, {"note": "b", "code": "function f(x) { while (true) {} }"}]})J"), 6);
}

TEST(Code, ValueComparison) {
  EXPECT_TRUE(json_values_match("1.0000001", "1", 1e-6, 0));
  EXPECT_FALSE(json_values_match("1.001", "1", 1e-6, 0));
  EXPECT_TRUE(json_values_match("[1, [2, 3]]", "[1, [2, 3.0]]", 1e-6, 0));
  EXPECT_FALSE(json_values_match("[1, 2]", "[1, 2, 3]", 1e-6, 0));
  EXPECT_TRUE(json_values_match(R"J({"a": 1})J", R"J({"a": 1.0})J", 1e-6, 0));
  EXPECT_FALSE(json_values_match("\"NaN\"", "1", 1e-6, 0));
  EXPECT_TRUE(json_values_match("true", "true", 0, 0));
}

TEST(Code, UnreadableRunnerOutputIsAnError) {
  CodeRunResult r = code_result_from_json("Segmentation fault");
  EXPECT_EQ(r.kind, CodeRunResult::Kind::Runtime);
  EXPECT_FALSE(r.error.empty());
}
