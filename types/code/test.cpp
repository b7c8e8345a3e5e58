#include <gtest/gtest.h>

#include <functional>

#include "code/code.h"
#include "helpers.h"
#include "lint.h"
#include "lint_context.h"

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
  ASSERT_EQ(i.data_or_empty<CodeInstance>().cases.size(), 7u);  // 3 listed + 4 generated
  EXPECT_EQ(*i.data_or_empty<CodeInstance>().cases[0].expected_json, "35");
  EXPECT_EQ(*i.data_or_empty<CodeInstance>().cases[1].expected_json, "0");
  EXPECT_EQ(*i.data_or_empty<CodeInstance>().cases[2].expected_json, "20");  // the case's own value
  EXPECT_EQ(i.data_or_empty<CodeInstance>().cases[1].note, "one GPU");
  // generated cases follow the seed
  EXPECT_EQ(must_instance(p.exercises[0], 5).data_or_empty<CodeInstance>().cases[4].args_json, must_instance(p.exercises[0], 5).data_or_empty<CodeInstance>().cases[4].args_json);
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
  EXPECT_FALSE(i.data_or_empty<CodeInstance>().cases[0].expected_json.has_value());
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

// ---------------------------------------------------------------- hidden cases

namespace {

// A visible case, two hidden ones with arguments no other case has (7777, 4242), and three
// hidden generated ones.
const char* kHidden = R"J({"id": "h", "type": "code", "title": "H", "prompt": "p",
  "function": "ringTime", "args": ["M", "N", "bw"], "returns": "ms",
  "expected": "2*(N-1)*(M/N)/bw*1000",
  "cases": [{"args": [1, 8, 50]},
            {"args": [7777, 8, 50], "hidden": true, "note": "secret note"},
            {"args": [4242, 4, 25], "hidden": true}],
  "generate": {"count": 3, "hidden": true, "ranges": {"M": {"choices": [3131]}, "N": {"choices": [2, 4, 8]}, "bw": {"min": 25, "max": 100, "step": 25}}}})J";

std::string number_text(double v) { return std::to_string(v); }

double ring_time(const CodeCase& c) { return 2 * (c.args_num[1] - 1) * (c.args_num[0] / c.args_num[1]) / c.args_num[2] * 1000; }

// Every text of a feedback a student can see, together.
std::string all_text(const Feedback& f) {
  std::string s = f.message + "\n" + spoken_feedback(f);
  for (const auto& d : f.details) s += "\n" + d;
  for (const auto& c : f.cases) s += "\n" + c.args + "|" + c.expected + "|" + c.got + "|" + c.note + "|" + c.message;
  return s;
}

}  // namespace

TEST(Code, HiddenCasesAreMarkedOnTheInstance) {
  Pack p = must_load(pack_with(kHidden));
  Instance i = must_instance(p.exercises[0]);
  ASSERT_EQ(i.data_or_empty<CodeInstance>().cases.size(), 6u);
  std::vector<bool> hidden;
  for (const auto& c : i.data_or_empty<CodeInstance>().cases) hidden.push_back(c.hidden);
  EXPECT_EQ(hidden, (std::vector<bool>{false, true, true, true, true, true}));
  // the sandbox still gets every case: it must run them
  EXPECT_EQ(make_code_request(i, "src").cases.size(), 6u);
}

TEST(Code, HiddenCaseFeedbackCarriesOnlyItsVerdict) {
  Pack p = must_load(pack_with(kHidden));
  Instance i = must_instance(p.exercises[0]);
  // Case 0 (visible) right; case 1 (N = 8) 8 times too large, which unhidden would be
  // diagnosed as "8 is N here"; case 2 throws an error quoting its argument; the generated
  // ones right.
  auto run = std::make_shared<CodeRunResult>();
  for (size_t k = 0; k < i.data_or_empty<CodeInstance>().cases.size(); ++k) run->student.push_back({true, number_text(ring_time(i.data_or_empty<CodeInstance>().cases[k])), ""});
  run->student[1].value_json = number_text(8 * ring_time(i.data_or_empty<CodeInstance>().cases[1]));
  run->student[2] = {false, "", "RangeError: M=4242 is too large (line 2)"};
  Feedback f = grade(i, make_answer(CodeAnswer("src", run)));
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 4.0 / 6);  // hidden cases count in the score like the others
  ASSERT_EQ(f.cases.size(), 6u);
  EXPECT_FALSE(f.cases[0].hidden);
  EXPECT_EQ(f.cases[0].args, "M=1, N=8, bw=50");
  for (size_t k = 1; k < f.cases.size(); ++k) {
    const CaseFeedback& c = f.cases[k];
    EXPECT_TRUE(c.hidden) << k;
    EXPECT_EQ(c.args, "") << k;
    EXPECT_EQ(c.expected, "") << k;
    EXPECT_EQ(c.got, "") << k;
    EXPECT_EQ(c.note, "") << k;
    EXPECT_EQ(c.pass, k >= 3) << k;
  }
  EXPECT_EQ(f.cases[1].message, "");
  EXPECT_EQ(f.cases[2].message, "a hidden case threw an error");
  ASSERT_EQ(f.details.size(), 1u);
  EXPECT_EQ(f.details[0], "Hidden cases: 3 of 5 pass; a hidden case threw an error.");
  const std::string text = all_text(f);
  for (const char* secret : {"7777", "4242", "3131", "secret note", "RangeError", "N here", "line 2"})
    EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in: " << text;
  // The screen reader hears the shown cases and the hidden line.
  EXPECT_NE(spoken_feedback(f).find("1 of 1 shown test cases pass"), std::string::npos) << spoken_feedback(f);
  EXPECT_NE(spoken_feedback(f).find("Hidden cases: 3 of 5 pass"), std::string::npos) << spoken_feedback(f);
}

// The summary of failing cases ("In every failing case: ...") may stand for a hidden case,
// but never with what only its arguments explain: "8 is N here" would tell N.
TEST(Code, ASummaryOfHiddenFailuresNamesNoArgument) {
  Pack p = must_load(pack_with(kHidden));
  Instance i = must_instance(p.exercises[0]);
  auto run = std::make_shared<CodeRunResult>();
  for (size_t k = 0; k < i.data_or_empty<CodeInstance>().cases.size(); ++k) run->student.push_back({true, number_text(ring_time(i.data_or_empty<CodeInstance>().cases[k])), ""});
  run->student[1].value_json = number_text(8 * ring_time(i.data_or_empty<CodeInstance>().cases[1]));  // N = 8 in this case
  Feedback f = grade(i, make_answer(CodeAnswer("src", run)));
  EXPECT_EQ(f.message, "5 of 6 cases pass.");
  EXPECT_EQ(all_text(f).find("N here"), std::string::npos) << all_text(f);
  // twice the expected value names no argument: that summary stays
  run->student[1].value_json = number_text(2 * ring_time(i.data_or_empty<CodeInstance>().cases[1]));
  f = grade(i, make_answer(CodeAnswer("src", run)));
  EXPECT_NE(f.message.find("In every failing case: Your answer is 2x the expected value"), std::string::npos) << f.message;
}

TEST(Code, AllHiddenCasesPassingIsCorrect) {
  Pack p = must_load(pack_with(kHidden));
  Instance i = must_instance(p.exercises[0]);
  FakeRunner run;
  run.fn = [](double M, double N, double bw) { return 2 * (N - 1) * (M / N) / bw * 1000; };
  Feedback f = grade_code(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
  EXPECT_EQ(f.details, std::vector<std::string>{"Hidden cases: 5 of 5 pass."});
}

TEST(Code, TheAuthorSeesHiddenCasesInFull) {
  Pack p = must_load(pack_with(kHidden));
  Instance i = must_instance(p.exercises[0]);
  FakeRunner run;
  run.fn = [](double M, double N, double bw) { return M > 4000 ? 0 : 2 * (N - 1) * (M / N) / bw * 1000; };
  // lint names the failing hidden case, as it names any other
  Feedback f = grade_code_for_author(i, "src", run);
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_EQ(f.cases[1].args, "M=7777, N=8, bw=50");
  EXPECT_EQ(f.cases[1].got, "0");
  EXPECT_TRUE(f.details.empty());
  struct Wrong : CodeRunner {
    CodeRunResult run(const CodeRunRequest& r) override {
      CodeRunResult res;
      for (const auto& c : r.cases) res.student.push_back({true, c[0] == "7777" ? "0" : "1", ""});
      return res;
    }
  };
  Pack q = must_load(pack_with(R"J({"id": "r", "type": "code", "title": "R", "prompt": "p", "function": "f", "args": ["x"],
    "expected": "1", "reference": "function f(x) { return x === 7777 ? 0 : 1; }",
    "cases": [{"args": [1]}, {"args": [7777], "hidden": true}]})J"));
  Library lq;
  lq.packs.push_back(q);
  Wrong wrong;
  LintOptions options;
  options.runner = &wrong;
  std::string all;
  for (const auto& d : lint_library(lq, options)) all += format_diagnostic(d) + "\n";
  EXPECT_NE(all.find("first failing case: x=7777 expected 1, got 0"), std::string::npos) << all;
}

TEST(Code, ShowWithoutTheAnswerCountsHiddenCasesAndListsTheirInputsWithIt) {
  Pack p = must_load(pack_with(kHidden));
  const Exercise& ex = p.exercises[0];
  Instance i = must_instance(ex);
  InstanceDescription student;
  ex.spec->describe(ex, i, false, student);
  for (const char* secret : {"7777", "4242", "3131", "secret note"}) {
    EXPECT_EQ(student.text.find(secret), std::string::npos) << secret << " in: " << student.text;
    EXPECT_EQ(student.json.dump().find(secret), std::string::npos) << secret << " in: " << student.json.dump();
  }
  EXPECT_NE(student.text.find("ringTime(1, 8, 50)"), std::string::npos) << student.text;
  EXPECT_NE(student.text.find("and 5 hidden cases"), std::string::npos) << student.text;
  EXPECT_EQ(student.json["cases"].size(), 1u);
  EXPECT_EQ(student.json["hidden_cases"], 5);
  InstanceDescription instructor;
  ex.spec->describe(ex, i, true, instructor);
  EXPECT_NE(instructor.text.find("ringTime(7777, 8, 50) = "), std::string::npos) << instructor.text;
  EXPECT_NE(instructor.text.find("(hidden)"), std::string::npos) << instructor.text;
  EXPECT_EQ(instructor.json["cases"].size(), 6u);
  EXPECT_EQ(instructor.json["cases"][1]["hidden"], true);
  // the instructor panel's key lists them too
  std::string key;
  for (const auto& l : ex.spec->answer_key(ex, i)) key += l + "\n";
  EXPECT_NE(key.find("6 test cases (5 hidden)"), std::string::npos) << key;
  EXPECT_NE(key.find("hidden: ringTime(7777, 8, 50) = "), std::string::npos) << key;
}

TEST(Code, HiddenMustBeTrueOrFalse) {
  auto diagnostics = [](const std::string& text) {
    LoadResult r = load_pack(pack_with(text), "h.json");
    std::string all;
    for (const auto& d : r.diagnostics) all += format_diagnostic(d) + "\n";
    EXPECT_FALSE(r.ok()) << text;
    return all;
  };
  std::string d = diagnostics(R"J({"id": "h", "type": "code", "title": "H", "prompt": "p", "function": "f", "args": ["x"],
    "expected": "x", "cases": [{"args": [1]}, {"args": [2], "hidden": "yes"}]})J");
  EXPECT_NE(d.find("error[E010]: /exercises/0/cases/1/hidden: expected true or false, got"), std::string::npos) << d;
  d = diagnostics(R"J({"id": "h", "type": "code", "title": "H", "prompt": "p", "function": "f", "args": ["x"],
    "expected": "x", "generate": {"count": 2, "hidden": 1, "ranges": {"x": {"min": 1, "max": 9, "step": 1}}}})J");
  EXPECT_NE(d.find("error[E010]: /exercises/0/generate/hidden: expected true or false, got"), std::string::npos) << d;
}
