#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "content_util.h"
#include "helpers.h"
#include "lint.h"
#include "markdown_links.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

// Lint of a one-exercise pack (which must load) with `options`; lint_text: errors only.
std::vector<Diagnostic> lint_with(const std::string& exercises, const LintOptions& options) {
  LoadResult r = load_pack(pack_with(exercises), "l.json");
  EXPECT_TRUE(r.ok());
  Library lib;
  if (r.pack) lib.packs.push_back(*r.pack);
  return lint_library(lib, options);
}
std::vector<Diagnostic> lint_text(const std::string& exercises) { return lint_with(exercises, {}); }

std::string joined(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += format_diagnostic(d) + "\n";
  return s;
}

}  // namespace

TEST(Lint, CleanExercise) {
  EXPECT_EQ(joined(lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [2, 8]}}, "hints": ["{2*(N-1)} steps"],
    "parts": [{"id": "v", "answer": "2*(N-1)/N", "unit": "", "mistakes": [{"answer": "(N-1)/N", "message": "m"}]}],
    "explanation": "{answer.v}"})J")), "");
}

TEST(Lint, AnswerFailingAtACorner) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {"N": {"default": 8, "choices": [2, 4, 8]}},
    "parts": [{"id": "v", "answer": "1/(N-2)", "unit": ""}]})J");
  ASSERT_GE(ds.size(), 1u);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/answer");
  EXPECT_NE(ds[0].message.find("at N=2"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("division by zero"), std::string::npos) << ds[0].message;
}

TEST(Lint, MistakeEqualToAnswer) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "v", "answer": "2*4", "unit": "", "mistakes": [{"answer": "8", "message": "m"}]}]})J");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/mistakes/0/answer");
}

TEST(Lint, UnknownPlaceholder) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "with {Nn} GPUs",
    "params": {"N": {"default": 8, "choices": [8]}},
    "parts": [{"id": "v", "answer": "N", "unit": ""}]})J");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/prompt");
  EXPECT_NE(ds[0].message.find("parameter 'Nn' is used in the placeholder {Nn} in the prompt but not declared "
                               "(did you mean 'N'?); declared: N"),
            std::string::npos)
      << ds[0].message;
}

TEST(Lint, OtherTypes) {
  EXPECT_NE(joined(lint_text(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
    "options": [{"text": "a"}, {"text": "b"}]})J")).find("no option is marked"), std::string::npos);
  EXPECT_NE(joined(lint_text(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
    "options": [{"text": "a", "correct": true}, {"text": "b", "correct": true}]})J")).find("single-answer"), std::string::npos);
  EXPECT_NE(joined(lint_text(R"J({"id": "o", "type": "ordering", "title": "O", "prompt": "p",
    "items": ["a", "b", "a"]})J")).find("duplicates item 1"), std::string::npos);
  EXPECT_NE(joined(lint_text(R"J({"id": "b", "type": "buggy-line", "title": "B", "prompt": "p",
    "code": ["x", "y"], "bugs": [{"line": 3, "message": "m"}]})J")).find("out of range"), std::string::npos);
  EXPECT_NE(joined(lint_text(R"J({"id": "b", "type": "buggy-line", "title": "B", "prompt": "p",
    "code": ["x", "y"], "bugs": [{"line": 1, "message": "m"}], "decoys": [{"line": 1, "message": "d"}]})J")).find("both a bug and a decoy"), std::string::npos);
  EXPECT_NE(joined(lint_text(R"J({"id": "n", "type": "numeric", "title": "N", "prompt": "p",
    "params": {"p": {"default": 4, "choices": [4]}}, "constraints": ["p > 4"],
    "parts": [{"id": "v", "answer": "p", "unit": ""}]})J")).find("do not satisfy"), std::string::npos);
}

TEST(Lint, PlaceholdersInMessagesAndOptions) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {"N": {"default": 8, "choices": [8]}},
    "parts": [{"id": "v", "answer": "N", "unit": "", "mistakes": [{"answer": "N/2", "message": "half of {NN}"}]}]},
    {"id": "c", "type": "choice", "title": "C", "prompt": "p",
    "options": [{"text": "{x} GPUs", "correct": true}, {"text": "b"}]})J");
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/mistakes/0/message");
  EXPECT_EQ(ds[1].pointer, "/exercises/1/options/0/text");
}

// ---------------------------------------------------------------- suggestions

namespace {

// Loader diagnostics of a one-exercise pack (which must fail to load).
std::string load_errors(const std::string& exercises) {
  LoadResult r = load_pack(pack_with(exercises), "l.json");
  EXPECT_FALSE(r.ok());
  return joined(r.diagnostics);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<Diagnostic> lint_with_warnings(const std::string& exercises) {
  LintOptions options;
  options.warnings = true;
  return lint_with(exercises, options);
}

std::vector<Diagnostic> of_severity(const std::vector<Diagnostic>& ds, Severity s) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.severity == s) out.push_back(d);
  return out;
}

// A numeric exercise that passes lint with warnings on; tests change one thing at a time.
const char* kCleanNumeric = R"J({"id": "a", "type": "numeric", "title": "A",
    "prompt": "{N} GPUs each hold {M} GB.",
    "params": {"N": {"default": 8, "choices": [4, 8]}, "M": {"default": 2, "min": 1, "max": 4}},
    "parts": [{"id": "v", "answer": "2*M*(N-1)/N", "unit": "GB",
               "mistakes": [{"answer": "M*(N-1)/N", "message": "one phase"}]}],
    "hints": ["two phases"], "explanation": "{answer} GB"})J";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST(LintSuggest, ClosestMatch) {
  EXPECT_EQ(closest_match("tolerence", {"unit", "tolerance"}), "tolerance");
  EXPECT_EQ(closest_match("n", {"N", "M"}), "N");        // case only
  EXPECT_EQ(closest_match("n", {"M", "K"}), "");         // one letter: no guessing
  EXPECT_EQ(closest_match("Nn", {"N", "M"}), "N");
  EXPECT_EQ(closest_match("ceiling", {"ceil", "floor"}), "ceil");   // prefix
  EXPECT_EQ(closest_match("number", {"numeric", "choice"}), "numeric");
  EXPECT_EQ(closest_match("relative", {"rel", "abs"}), "rel");
  EXPECT_EQ(closest_match("bandwidth", {"N", "M"}), "");
}

// Every object of a pack reports a near-miss field with its likely spelling.
TEST(LintSuggest, UnknownFieldsInNestedObjects) {
  struct Case {
    const char* exercise;
    const char* pointer;
    const char* suggestion;
  } cases[] = {
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
           "params": {"N": {"defualt": 8, "choices": [8]}}, "parts": [{"id": "v", "answer": "1", "unit": ""}]})J",
       "/exercises/0/params/N/defualt", "(did you mean \"default\"?)"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
           "parts": [{"id": "v", "answer": "1", "unit": "", "tolerence": {"rel": 0.01}}]})J",
       "/exercises/0/parts/0/tolerence", "(did you mean \"tolerance\"?)"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
           "parts": [{"id": "v", "answer": "1", "unit": "", "tolerance": {"relative": 0.01}}]})J",
       "/exercises/0/parts/0/tolerance/relative", "(did you mean \"rel\"?)"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
           "parts": [{"id": "v", "answer": "1", "unit": "", "mistakes": [{"answer": "2", "mesage": "m"}]}]})J",
       "/exercises/0/parts/0/mistakes/0/mesage", "(did you mean \"message\"?)"},
      {R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
           "options": [{"text": "a", "correct": true}, {"text": "b", "feedbak": "no"}]})J",
       "/exercises/0/options/1/feedbak", "(did you mean \"feedback\"?)"},
      {R"J({"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f", "args": ["x"],
           "expected": "x", "cases": [{"args": [1], "nots": "one"}]})J",
       "/exercises/0/cases/0/nots", "(did you mean \"note\"?)"},
      {R"J({"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f", "args": ["x"],
           "expected": "x", "generate": {"cuont": 2, "ranges": {"x": {"min": 1, "max": 2}}}})J",
       "/exercises/0/generate/cuont", "(did you mean \"count\"?)"},
      {R"J({"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f", "args": ["size"],
           "expected": "size", "generate": {"count": 2, "ranges": {"sise": {"min": 1, "max": 2}}}})J",
       "/exercises/0/generate/ranges/sise", "(did you mean \"size\"?)"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p", "hint": ["h"],
           "parts": [{"id": "v", "answer": "1", "unit": ""}]})J",
       "/exercises/0/hint", "(did you mean \"hints\"?)"},
  };
  for (const auto& c : cases) {
    LoadResult r = load_pack(pack_with(c.exercise), "l.json");
    bool found = false;
    for (const auto& d : r.diagnostics)
      found |= d.pointer == c.pointer && contains(d.message, c.suggestion);
    EXPECT_TRUE(found) << c.pointer << " " << c.suggestion << "\n" << joined(r.diagnostics);
  }
}

TEST(LintSuggest, CommentConventionsOfOtherFormatsPointToComment) {
  std::string errs = load_errors(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
      "//": "the answer is 1", "parts": [{"id": "v", "answer": "1", "unit": ""}]})J");
  EXPECT_TRUE(contains(errs, "/exercises/0/~1~1: unknown field \"//\" (JSON has no comments: write \"$comment\""))
      << errs;
}

TEST(LintSuggest, UnknownExerciseType) {
  auto type_error = [](const std::string& type) {
    return load_errors(R"J({"id": "a", "type": ")J" + type + R"J(", "title": "A", "prompt": "p"})J");
  };
  EXPECT_TRUE(contains(type_error("choise"), "unknown exercise type \"choise\" (did you mean \"choice\"?); "
                                             "expected one of: numeric, choice, ordering, buggy-line, code"));
  EXPECT_TRUE(contains(type_error("buggy_line"), "(did you mean \"buggy-line\"?)"));
  EXPECT_TRUE(contains(type_error("multiple-choice"), "(did you mean \"choice\"?)"));
  EXPECT_TRUE(contains(type_error("mcq"), "did you mean \"choice\" with \"multiple\": true?"));
  // Nothing close: the list alone, no wild guess.
  std::string far = type_error("essay");
  EXPECT_TRUE(contains(far, "expected one of: numeric")) << far;
  EXPECT_FALSE(contains(far, "did you mean")) << far;
}

TEST(LintSuggest, UnknownUnit) {
  auto unit_error = [](const std::string& unit) {
    return load_errors(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
        "parts": [{"id": "v", "answer": "1", "unit": ")J" + unit + R"J("}]})J");
  };
  std::string gbb = unit_error("GBB");
  EXPECT_TRUE(contains(gbb, "unknown unit 'GBB' (known: B KB")) << gbb;
  EXPECT_TRUE(contains(gbb, "; did you mean 'GB'?")) << gbb;
  EXPECT_TRUE(contains(unit_error("tokns"), "; did you mean 'tokens'?"));
  // units.cpp's own advice for a lower-case prefix is kept, not doubled.
  std::string gb = unit_error("gb");
  EXPECT_TRUE(contains(gb, "did you mean GB (bytes) or Gb (bits)?")) << gb;
  EXPECT_FALSE(contains(gb, "did you mean 'GB'")) << gb;
}

TEST(LintSuggest, UnknownFunction) {
  auto fn_error = [](const std::string& answer) {
    return load_errors(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
        "parts": [{"id": "v", "answer": ")J" + answer + R"J(", "unit": ""}]})J");
  };
  EXPECT_TRUE(contains(fn_error("ceiling(7/2)"), "unknown function 'ceiling' (did you mean 'ceil'?); known: ceil"));
  EXPECT_TRUE(contains(fn_error("sqr(4)"), "(did you mean 'sqrt'?)"));
  EXPECT_TRUE(contains(fn_error("ln(4)"), "(did you mean 'log'?)"));
  EXPECT_TRUE(contains(fn_error("pow(2, 3)"), "(write a^b for a power)"));
}

TEST(LintSuggest, UndeclaredParameterInTheAnswer) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs, {M} GB",
    "params": {"N": {"default": 8, "choices": [4, 8]}, "M": {"default": 1, "min": 1, "max": 2}},
    "parts": [{"id": "v", "answer": "2*M*(n-1)/N", "unit": "GB"}]})J");
  // One error, at the name, not a failure at every point plus an unmakeable instance.
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/answer");
  EXPECT_EQ(ds[0].message, "parameter 'n' is used in the answer but not declared (did you mean 'N'?); declared: N, M");

  ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [4, 8]}}, "derived": {"steps": "N-1"},
    "parts": [{"id": "v", "answer": "steps*bw", "unit": ""}]})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].message, "parameter 'bw' is used in the answer but not declared; declared: N, steps");

  ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "v", "answer": "2*M", "unit": ""}]})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_TRUE(contains(ds[0].message, "nothing is declared (add it under \"params\")")) << ds[0].message;
}

// The message says where the name is used: each place an expression can appear.
TEST(LintSuggest, UndeclaredNameSaysWhere) {
  struct Case {
    const char* exercise;
    const char* pointer;
    const char* message;
  } cases[] = {
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N}", "params": {"N": {"default": 8}},
           "parts": [{"id": "v", "answer": "N", "unit": "", "mistakes": [{"answer": "N/Two", "message": "m"}]}]})J",
       "/exercises/0/parts/0/mistakes/0/answer", "parameter 'Two' is used in a known mistake but not declared"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N}", "params": {"N": {"default": 8}},
           "derived": {"half": "n/2"}, "parts": [{"id": "v", "answer": "half", "unit": ""}]})J",
       "/exercises/0/derived/half", "parameter 'n' is used in derived value \"half\" but not declared (did you mean 'N'?)"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N}", "params": {"N": {"default": 8}},
           "constraints": ["N >= P"], "parts": [{"id": "v", "answer": "N", "unit": ""}]})J",
       "/exercises/0/constraints/0", "parameter 'P' is used in constraint 1 but not declared"},
      {R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N}", "params": {"N": {"default": 8}},
           "hints": ["{N-1} steps of {chunks}"], "parts": [{"id": "v", "answer": "N", "unit": ""}]})J",
       "/exercises/0/hints/0", "parameter 'chunks' is used in the placeholder {chunks} in hint 1 but not declared; declared: N"},
      {R"J({"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f", "args": ["bytes", "N"],
           "expected": "Bytes/N", "cases": [{"args": [8, 2]}]})J",
       "/exercises/0/expected", "parameter 'Bytes' is used in \"expected\" (it may use the function's args and the exercise's params) but not declared (did you mean 'bytes'?); declared: bytes, N"},
  };
  for (const auto& c : cases) {
    auto ds = lint_text(c.exercise);
    ASSERT_EQ(ds.size(), 1u) << c.pointer << "\n" << joined(ds);
    EXPECT_EQ(ds[0].pointer, c.pointer);
    EXPECT_TRUE(contains(ds[0].message, c.message)) << ds[0].message;
  }
}

// The error points at the name itself inside the JSON string, not at the string's start.
TEST(LintSuggest, UndeclaredNameColumn) {
  std::string text = "{\"format\": 1, \"chapter\": 0, \"id\": \"t\", \"title\": \"T\", \"exercises\": [\n"
                     "{\"id\": \"a\", \"type\": \"numeric\", \"title\": \"A\", \"prompt\": \"{N} and {K}\",\n"
                     "\"params\": {\"N\": {\"default\": 8}},\n"
                     "\"parts\": [{\"id\": \"v\", \"answer\": \"N + k\", \"unit\": \"\"}]}]}";
  LoadResult r = load_pack(text, "l.json");
  ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
  Library lib;
  lib.packs.push_back(*r.pack);
  auto ds = lint_library(lib, nullptr);
  ASSERT_EQ(ds.size(), 2u) << joined(ds);
  // Line 2: `"prompt": "{N} and {K}"` opens its string at column 56; K is the 10th character.
  EXPECT_EQ(ds[0].pointer, "/exercises/0/prompt");
  EXPECT_EQ(ds[0].line, 2);
  EXPECT_EQ(ds[0].column, 66);
  // Line 4: `"answer": "N + k"` opens its string at column 33; k is the 5th character.
  EXPECT_EQ(ds[1].pointer, "/exercises/0/parts/0/answer");
  EXPECT_EQ(ds[1].line, 4);
  EXPECT_EQ(ds[1].column, 38);
}

TEST(LintSuggest, AnswersOfParts) {
  // A part may use the parts above it, and a known mistake any part: both are graded that way.
  const char* chained = R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "phase", "answer": "7/8", "unit": "GB"},
              {"id": "total", "answer": "2*answer.phase", "unit": "GB",
               "mistakes": [{"answer": "answer", "message": "that is {answer.phase} GB, one phase"}]}]})J";
  EXPECT_EQ(joined(lint_text(chained)), "");
  Pack pack = must_load(pack_with(chained));
  Instance inst = must_instance(pack.exercises[0]);
  ASSERT_EQ(part_values(inst).size(), 2u);
  EXPECT_DOUBLE_EQ(part_values(inst)[1], 1.75);  // 2 * 7/8
  Feedback fb = grade_parts(inst, {"0.875 GB", "0.875 GB"});  // one phase given as the total
  ASSERT_EQ(fb.parts.size(), 2u);
  EXPECT_EQ(fb.parts[1].message, "that is 0.875 GB, one phase");
  // ...but not a part below it.
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "total", "answer": "2*answer.phase", "unit": "GB"},
              {"id": "phase", "answer": "7/8", "unit": "GB"}]})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].message, "'answer.phase' is used in the answer of part \"total\" before it is computed (parts are "
                           "computed in order: a part can use the answers of the parts above it)");
  // A part id that does not exist.
  ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "volume", "answer": "7/4", "unit": "GB"}], "explanation": "{answer.volumes} GB"})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_TRUE(contains(ds[0].message, "but this exercise has no part 'volumes' (did you mean 'volume'?); parts: volume"))
      << ds[0].message;
  // `answer` means nothing outside numeric exercises.
  ds = lint_text(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
    "options": [{"text": "a", "correct": true, "feedback": "{answer}"}, {"text": "b"}]})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_TRUE(contains(ds[0].message, "exercise has no numeric answers to refer to")) << ds[0].message;
}

TEST(LintSuggest, DerivedValueUsedBeforeItIsComputed) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N}",
    "params": {"N": {"default": 8}}, "derived": {"total": "2*chunk", "chunk": "1/N"},
    "parts": [{"id": "v", "answer": "total", "unit": ""}]})J");
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/derived/total");
  EXPECT_TRUE(contains(ds[0].message, "'chunk' is used in derived value \"total\" before it is computed")) << ds[0].message;
}

TEST(LintSuggest, InvalidId) {
  std::string errs = load_errors(R"J({"id": "Ring_Volume", "type": "numeric", "title": "A", "prompt": "p",
      "parts": [{"id": "v", "answer": "1", "unit": ""}]})J");
  EXPECT_TRUE(contains(errs, "/exercises/0/id: expected an id of lower-case letters, digits, '-' and '.', got "
                             "\"Ring_Volume\" (did you mean \"ring-volume\"?)")) << errs;
}

TEST(LintSuggest, BooleanWrittenAsString) {
  std::string errs = load_errors(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
    "options": [{"text": "a", "correct": "true"}, {"text": "b"}]})J");
  EXPECT_TRUE(contains(errs, "/exercises/0/options/0/correct: expected true or false, got the string \"true\" "
                             "(write true without quotes)")) << errs;
}

// ---------------------------------------------------------------- $comment

TEST(LintComment, AcceptedInEveryObject) {
  std::string text = R"J({
    "$comment": ["a pack-level note", "in two lines"], "format": 1, "chapter": 0, "id": "t", "title": "T",
    "exercises": [
      {"$comment": "exercise", "id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs, {M} GB",
       "params": {"$comment": "params map", "N": {"$comment": "one param", "default": 8, "choices": [4, 8]},
                  "M": {"default": 1}},
       "derived": {"$comment": "derived map", "chunk": "M/N"},
       "parts": [{"$comment": "part", "id": "v", "answer": "2*(N-1)*chunk", "unit": "GB",
                  "tolerance": {"$comment": "1%", "rel": 0.01},
                  "mistakes": [{"$comment": "one phase", "answer": "(N-1)*chunk", "message": "m"}]}]},
      {"id": "c", "type": "choice", "title": "C", "prompt": "p",
       "options": [{"$comment": "right", "text": "a", "correct": true}, {"text": "b"}]},
      {"id": "b", "type": "buggy-line", "title": "B", "prompt": "p", "code": ["x", "y"],
       "bugs": [{"$comment": "bug", "line": 1, "message": "m"}], "decoys": [{"$comment": "decoy", "line": 2, "message": "d"}]},
      {"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f", "args": ["x"], "expected": "2*x",
       "cases": [{"$comment": "case", "args": [1]}],
       "generate": {"$comment": "gen", "count": 2, "ranges": {"$comment": "ranges map", "x": {"$comment": "range", "min": 1, "max": 9, "step": 1}}},
       "wrong": [{"$comment": "wrong", "note": "n", "code": "function f(x) { return x; }"}]}
    ]})J";
  LoadResult r = load_pack(text, "c.json");
  ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
  EXPECT_EQ(joined(r.diagnostics), "");
  const Exercise& ex = r.pack->exercises[0];
  // Ignored, not read as a parameter, a derived value or a generated argument.
  ASSERT_EQ(ex.params.size(), 2u);
  EXPECT_EQ(ex.params[0].name, "N");
  ASSERT_EQ(ex.derived.size(), 1u);
  Library lib;
  lib.packs.push_back(*r.pack);
  EXPECT_EQ(joined(lint_library(lib, nullptr)), "");
}

TEST(LintComment, NonStringRejected) {
  for (const char* bad : {"7", "{\"note\": \"x\"}", "[\"ok\", 3]", "true"}) {
    std::string errs = load_errors(std::string(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
        "parts": [{"id": "v", "answer": "1", "unit": "", "$comment": )J") + bad + "}]}");
    EXPECT_TRUE(contains(errs, "/exercises/0/parts/0/$comment: expected \"$comment\" to be a string (or an array "
                               "of strings)")) << bad << "\n" << errs;
  }
  // In a map of names too, where it would otherwise be taken for a parameter.
  std::string errs = load_errors(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
      "params": {"$comment": 1, "N": {"default": 8}}, "parts": [{"id": "v", "answer": "N", "unit": ""}]})J");
  EXPECT_TRUE(contains(errs, "/exercises/0/params/$comment: expected \"$comment\" to be a string")) << errs;
  EXPECT_FALSE(contains(errs, "parameter name")) << errs;
}

// ---------------------------------------------------------------- --warn

TEST(LintWarn, CleanExerciseHasNoWarnings) {
  EXPECT_EQ(joined(lint_with_warnings(kCleanNumeric)), "");
}

TEST(LintWarn, OffUnlessAsked) {
  std::string bare = R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
      "parts": [{"id": "v", "answer": "1-2", "unit": "GB"}]})J";
  EXPECT_EQ(joined(lint_text(bare)), "");
  auto ds = lint_with_warnings(bare);
  // no hints, no explanation, no mistakes, negative answer
  EXPECT_EQ(of_severity(ds, Severity::Warning).size(), 4u) << joined(ds);
  EXPECT_TRUE(of_severity(ds, Severity::Error).empty());
  EXPECT_TRUE(contains(format_diagnostic(ds[0]), ": warning[W002]: /exercises/0")) << format_diagnostic(ds[0]);
}

TEST(LintWarn, NoHints) {
  auto ds = lint_with_warnings(replaced(kCleanNumeric, R"J("hints": ["two phases"], )J", ""));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].pointer, "/exercises/0");
  EXPECT_TRUE(contains(ds[0].message, "no hints")) << ds[0].message;

  // A choice question guides through its options' feedback: hints are needed only when a
  // wrong option has none.
  std::string choice = R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p", "explanation": "e",
      "options": [{"text": "a", "correct": true}, {"text": "b", "feedback": "why not b"}, {"text": "c"FEEDBACK}]})J";
  EXPECT_EQ(joined(lint_with_warnings(replaced(choice, "FEEDBACK", R"J(, "feedback": "why not c")J"))), "");
  ds = lint_with_warnings(replaced(choice, "FEEDBACK", ""));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/options/2");
  EXPECT_TRUE(contains(ds[0].message, "no \"feedback\" and the exercise has no hints")) << ds[0].message;

  std::string ordering = R"J({"id": "o", "type": "ordering", "title": "O", "prompt": "p", "explanation": "e",
      "items": ["a", "b", "c"]FEEDBACK})J";
  EXPECT_EQ(joined(lint_with_warnings(replaced(ordering, "FEEDBACK", R"J(, "feedback": ["1", "2", "3"])J"))), "");
  ds = lint_with_warnings(replaced(ordering, "FEEDBACK", ""));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_TRUE(contains(ds[0].message, "no hints and no \"feedback\"")) << ds[0].message;
}

TEST(LintWarn, NoExplanation) {
  auto ds = lint_with_warnings(replaced(kCleanNumeric, R"J(, "explanation": "{answer} GB")J", ""));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0");
  EXPECT_TRUE(contains(ds[0].message, "no explanation")) << ds[0].message;
}

TEST(LintWarn, NumericPartWithoutKnownMistakes) {
  auto ds = lint_with_warnings(replaced(kCleanNumeric, R"J(,
               "mistakes": [{"answer": "M*(N-1)/N", "message": "one phase"}])J", ""));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0");
  EXPECT_TRUE(contains(ds[0].message, "no known mistakes")) << ds[0].message;
}

TEST(LintWarn, NegativeAnswerAtACorner) {
  // 2*M*(N-1)/N - 3 at N=4, M=1 is 2*1*3/4 - 3 = -1.5; at the defaults (N=8, M=2) it is 0.5.
  auto ds = lint_with_warnings(replaced(kCleanNumeric, R"J("answer": "2*M*(N-1)/N")J",
                                        R"J("answer": "2*M*(N-1)/N - 3")J"));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/answer");
  EXPECT_TRUE(contains(ds[0].message, "the answer is negative (-1.5 GB) at N=4, M=1")) << ds[0].message;
}

TEST(LintWarn, AbsurdlyLargeAnswer) {
  // 2^N GB at N = 64 is 1.8e19 GB = 1.8e28 bytes: no run moves that much.
  std::string big = R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} bits", "hints": ["h"],
      "explanation": "e", "params": {"N": {"default": 8, "choices": [8, 64]}},
      "parts": [{"id": "v", "answer": "2^N", "unit": "UNIT", "mistakes": [{"answer": "2^(N-1)", "message": "m"}]}]})J";
  auto ds = lint_with_warnings(replaced(big, "UNIT", "GB"));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_TRUE(contains(ds[0].message, "the answer is absurdly large")) << ds[0].message;
  EXPECT_TRUE(contains(ds[0].message, "at N=64")) << ds[0].message;
  // A plain number has no scale to judge by: 2^64 is a fair answer.
  EXPECT_EQ(joined(lint_with_warnings(replaced(big, "UNIT", ""))), "");
  // A training budget of 6 * 405e9 parameters * 15.6e12 tokens = 3.8e25 FLOP is real.
  std::string flop = R"J({"id": "f", "type": "numeric", "title": "F", "prompt": "p", "hints": ["h"], "explanation": "e",
      "parts": [{"id": "v", "answer": "6*405e9*15.6e12", "unit": "FLOP", "mistakes": [{"answer": "2*405e9*15.6e12", "message": "m"}]}]})J";
  EXPECT_EQ(joined(lint_with_warnings(flop)), "");
}

TEST(LintWarn, PromptMustShowAVaryingParameterTheAnswerUses) {
  auto ds = lint_with_warnings(replaced(kCleanNumeric, "{N} GPUs each hold {M} GB.", "{N} GPUs each hold a buffer."));
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/prompt");
  EXPECT_TRUE(contains(ds[0].message, "never shows parameter 'M'")) << ds[0].message;
  EXPECT_TRUE(contains(ds[0].message, "from 1 to 4")) << ds[0].message;
  // Shown through a derived value it is part of: fine.
  EXPECT_EQ(joined(lint_with_warnings(replaced(
                replaced(kCleanNumeric, "{N} GPUs each hold {M} GB.", "{N} GPUs each hold {half*2} GB."),
                R"J("parts")J", R"J("derived": {"half": "M/2"}, "parts")J"))),
            "");
  // A parameter with one value may be written out in the prompt as a plain number.
  EXPECT_EQ(joined(lint_with_warnings(replaced(
                replaced(kCleanNumeric, "{N} GPUs each hold {M} GB.", "{N} GPUs each hold 2 GB."),
                R"J("M": {"default": 2, "min": 1, "max": 4})J", R"J("M": {"default": 2})J"))),
            "");
}

// The shipped packs are lint-clean, and no style warning fires on a large share of them: a
// warning that fires everywhere is noise authors learn to ignore.
TEST(LintWarn, ShippedPacksAreNotFlooded) {
  Library lib = load_library(shipped_pack_sources());
  size_t exercises = 0;
  for (const auto& p : lib.packs) exercises += p.exercises.size();
  ASSERT_GT(exercises, 0u);
  LintOptions options;
  options.warnings = true;
  auto ds = lint_library(lib, options);
  EXPECT_TRUE(of_severity(ds, Severity::Error).empty()) << joined(of_severity(ds, Severity::Error));
  std::map<std::string, size_t> by_kind;  // the message up to its first ':' or '('
  for (const auto& d : of_severity(ds, Severity::Warning))
    by_kind[d.message.substr(0, d.message.find_first_of(":("))]++;
  for (const auto& [kind, n] : by_kind)
    EXPECT_LT(n * 4, exercises) << "\"" << kind << "\" fires " << n << " times over " << exercises << " exercises";
}

TEST(Lint, PlaceholderInAPartLabelIsAnError) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [2, 8]}},
    "parts": [{"id": "v", "label": "Time for {N} GPUs", "answer": "N", "unit": ""}]})J");
  std::string all = joined(ds);
  EXPECT_NE(all.find("/exercises/0/parts/0/label: a part's label is shown as written"), std::string::npos) << all;
  EXPECT_EQ(lint_text(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [2, 8]}},
    "parts": [{"id": "v", "label": "Time for all GPUs", "answer": "N", "unit": ""}]})J").size(), 0u);
}

// ---------------------------------------------------------------- links (engine/markdown_links.h)

TEST(LintLinks, SchemesAsABrowserReadsThem) {
  EXPECT_EQ(link_scheme("https://example.com/a"), "https");
  EXPECT_EQ(link_scheme("JavaScript:alert(1)"), "javascript");
  // A URL parser trims controls and spaces and drops tabs and line breaks anywhere.
  EXPECT_EQ(link_scheme(" \x01javascript:alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("java\tscript:alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("java\nscr\ript:alert(1)"), "javascript");
  // Markdown decodes references and escapes before the browser sees the address.
  EXPECT_EQ(link_scheme("javascript&#58;alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("javascript&#x3A;alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("javascript&colon;alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("&#106;avascript:alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("java&Tab;script:alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("javascript\\:alert(1)"), "javascript");
  EXPECT_EQ(link_scheme("data:text/html,<b>"), "data");
  // Relative: no scheme.
  EXPECT_EQ(link_scheme("notes.html#ring"), "");
  EXPECT_EQ(link_scheme("//example.com/x"), "");
  EXPECT_EQ(link_scheme("a/b:c"), "");
  EXPECT_EQ(link_scheme("javascript%3Aalert(1)"), "");
  EXPECT_EQ(link_scheme(""), "");

  for (const char* ok : {"http://a", "HTTPS://a", "mailto:x@y.z", "notes.html", "#top", "?pack=x.json"})
    EXPECT_TRUE(link_scheme_allowed(ok)) << ok;
  for (const char* bad : {"javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:x", "blob:https://a/b",
                          "ftp://a", "tel:123", " java\tscript:x", "c:\\\\x"})
    EXPECT_FALSE(link_scheme_allowed(bad)) << bad;
}

TEST(LintLinks, FindsInlineLinksAutolinksAndDefinitions) {
  auto dests = [](const std::string& text) {
    std::string s;
    for (const auto& l : find_markdown_links(text)) s += l.destination + "@" + std::to_string(l.offset) + " ";
    return s;
  };
  EXPECT_EQ(dests("see [a](http://x) and [b]( <y z> ) and [c](f(1)(2)) end"), "http://x@8 y z@28 f(1)(2)@43 ");
  EXPECT_EQ(dests("<javascript:alert(1)> <a@b.c> <x> < y:z>"), "javascript:alert(1)@1 ");
  EXPECT_EQ(dests("[r]: javascript:x\n> - [s]:\n  <data:y> \"title\""), "javascript:x@5 data:y@30 ");
  // Not links: escaped, in code, prose that only looks like a definition.
  EXPECT_EQ(dests("\\[a\\](javascript:x) `[a](javascript:x)` ``a`[b](c)`` "), "");
  EXPECT_EQ(dests("```\n[a](javascript:x)\n```\n~~~~\n<data:x>\n~~~~\n[b](ok)"), "ok@49 ");
  EXPECT_EQ(dests("[Note]: remember: the ring"), "");
}

TEST(LintLinks, OtherSchemesAreErrorsAtTheLink) {
  auto ds = lint_text(R"J({"id": "a", "type": "choice", "title": "A",
    "prompt": "Read [the notes](https://example.com/n) or <mailto:t@example.com>, then [this](javascript:alert(1)).",
    "hints": ["[x]( Java\tScript:alert(2))"], "explanation": "[y]: data:text/html,hi\n\n[z][y]",
    "options": [{"text": "<vbscript:msgbox>", "correct": true}, {"text": "[relative](notes.html)", "feedback": "[f](file:///etc/passwd)"}]})J");
  std::string all = joined(ds);
  ASSERT_EQ(ds.size(), 5u) << all;
  EXPECT_EQ(ds[0].pointer, "/exercises/0/prompt");
  EXPECT_EQ(ds[0].message, "link to javascript:alert(1) uses the scheme javascript:; only http, https and mailto links are allowed");
  // The column of the destination: the string's opening quote is at line 2, column 15, and
  // the destination starts at the string's 80th character.
  EXPECT_EQ(ds[0].line, 2);
  EXPECT_EQ(ds[0].column, 15 + 80);
  EXPECT_EQ(ds[1].pointer, "/exercises/0/hints/0");
  EXPECT_NE(ds[1].message.find("link to Java\\tScript:alert(2) uses the scheme javascript:"), std::string::npos) << all;
  EXPECT_EQ(ds[2].pointer, "/exercises/0/explanation");
  EXPECT_NE(ds[2].message.find("scheme data:"), std::string::npos) << all;
  EXPECT_EQ(ds[3].pointer, "/exercises/0/options/0/text");
  EXPECT_NE(ds[3].message.find("scheme vbscript:"), std::string::npos) << all;
  EXPECT_EQ(ds[4].pointer, "/exercises/0/options/1/feedback");
  EXPECT_NE(ds[4].message.find("scheme file:"), std::string::npos) << all;
}

// A reference to another exercise (#/ex/ID) is a link the page opens in the same tab: it
// must name an exercise of the packs linted, or the one the page's preview has beside them.
TEST(LintLinks, AnExerciseReferenceNamesAnExercise) {
  const std::string two = R"J({"id": "a", "type": "choice", "title": "A",
    "prompt": "As in [the ring](#/ex/b) and [its instance](#/ex/b/7), not [this](#/ex/nowhere).",
    "options": [{"text": "x", "correct": true}, {"text": "y"}]},
    {"id": "b", "type": "choice", "title": "B", "prompt": "p", "options": [{"text": "x", "correct": true}, {"text": "y"}]})J";
  auto ds = lint_text(two);
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(std::string(diag_info(ds[0].code).id), "E071");
  EXPECT_EQ(ds[0].pointer, "/exercises/0/prompt");
  EXPECT_NE(ds[0].message.find("link to #/ex/nowhere names the exercise 'nowhere', which no pack linted here has"),
            std::string::npos) << ds[0].message;
  LintOptions options;
  options.exercise_exists = [](const std::string& id) { return id == "nowhere"; };
  auto other = lint_with(two, options);
  EXPECT_EQ(other.size(), 2u) << "with another library, b is the unknown one: " << joined(other);
}

TEST(LintLinks, EveryMarkdownFieldIsChecked) {
  const std::string bad = "[x](javascript:alert(1))";
  auto pointers = [&](const std::string& ex) {
    std::string s;
    for (const auto& d : lint_text(ex)) s += d.pointer + " ";
    return s;
  };
  EXPECT_EQ(pointers(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "v", "label": ")J" + bad + R"J(", "answer": "2", "unit": "",
               "mistakes": [{"answer": "3", "message": ")J" + bad + R"J("}]}]})J"),
            "/exercises/0/parts/0/label /exercises/0/parts/0/mistakes/0/message ");
  EXPECT_EQ(pointers(R"J({"id": "a", "type": "ordering", "title": "A", "prompt": "p",
    "items": ["one", ")J" + bad + R"J(", "three"], "feedback": ["a", "b", ")J" + bad + R"J("]})J"),
            "/exercises/0/items/1 /exercises/0/feedback/2 ");
  EXPECT_EQ(pointers(R"J({"id": "a", "type": "buggy-line", "title": "A", "prompt": "p", "code": ["a", "b", "c"],
    "bugs": [{"line": 2, "message": ")J" + bad + R"J("}], "decoys": [{"line": 3, "message": ")J" + bad + R"J("}]})J"),
            "/exercises/0/bugs/0/message /exercises/0/decoys/0/message ");
  // The chapter intro.
  LoadResult r = load_pack(R"({"format": 1, "chapter": 0, "id": "t", "title": "T", "intro": "Before.\n\n)" + bad +
                               R"(", "exercises": [{"id": "a", "type": "numeric", "title": "A", "prompt": "p",
                               "parts": [{"id": "v", "answer": "2", "unit": ""}]}]})",
                           "i.json");
  ASSERT_TRUE(r.ok());
  Library lib;
  lib.packs.push_back(*r.pack);
  auto ds = lint_library(lib, nullptr);
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(format_diagnostic(ds[0]).substr(0, 32), "i.json:1:79: error[E041]: /intro");
}

// ---------------------------------------------------------------- images

namespace {

// Lint with images looked up in `files` (paths relative to the pack's folder), as `dtx lint`
// looks them up on disk; `asked` records every lookup.
LintOptions with_files(std::vector<std::string> files, std::vector<std::string>* asked = nullptr, bool warnings = false) {
  LintOptions options;
  options.warnings = warnings;
  options.image_exists = [files, asked](const std::string& pack_file, const std::string& path) {
    if (asked) asked->push_back(pack_file + "|" + path);
    return std::find(files.begin(), files.end(), path) != files.end();
  };
  return options;
}

const char* kImageExercise = R"J({"id": "a", "type": "choice", "title": "A",
    "prompt": "The ring:\n\n![Four GPUs in a ring](img/ring.svg)\n\nand ![Its steps](img/steps%20one.svg?v=2).",
    "hints": ["![A tree](img/tree.png)"], "explanation": "![Data][d]\n\n[d]: img/data.jpg",
    "options": [{"text": "![Option one](img/one.svg)", "correct": true}, {"text": "Two", "feedback": "![f](https://x.org/f.svg)"}]})J";

}  // namespace

TEST(LintImages, AMissingFileIsAnErrorAtItsPath) {
  std::vector<std::string> asked;
  auto ds = lint_with(kImageExercise, with_files({"img/ring.svg", "img/steps one.svg", "img/data.jpg", "img/one.svg"}, &asked));
  std::string all = joined(ds);
  ASSERT_EQ(ds.size(), 1u) << all;
  EXPECT_EQ(diag_info(ds[0].code).id, std::string("E043"));
  EXPECT_EQ(ds[0].pointer, "/exercises/0/hints/0");
  EXPECT_EQ(ds[0].message, "image img/tree.png not found: no such file in the folder the pack file is in (a relative path starts there)");
  // The hint's string opens at line 3, column 15; the path is its 11th character.
  EXPECT_EQ(ds[0].line, 3);
  EXPECT_EQ(ds[0].column, 15 + 11);
  // Every relative image of every text is looked up, by its decoded path; absolute ones are not.
  EXPECT_EQ(asked, (std::vector<std::string>{"l.json|img/ring.svg", "l.json|img/steps one.svg", "l.json|img/tree.png",
                                             "l.json|img/data.jpg", "l.json|img/one.svg"}));
  // Every file there: clean. A lookup that says "missing" for an encoded path names the file.
  EXPECT_EQ(joined(lint_with(kImageExercise, with_files({"img/ring.svg", "img/steps one.svg", "img/tree.png", "img/data.jpg",
                                                        "img/one.svg"}))), "");
  auto encoded = lint_with(kImageExercise, with_files({"img/ring.svg", "img/tree.png", "img/data.jpg", "img/one.svg"}));
  ASSERT_EQ(encoded.size(), 1u) << joined(encoded);
  EXPECT_NE(encoded[0].message.find("image img/steps%20one.svg?v=2 not found: no file \"img/steps one.svg\""), std::string::npos)
      << encoded[0].message;
  // Without a way to look (the page's preview): nothing is reported.
  EXPECT_EQ(joined(lint_text(kImageExercise)), "");
}

TEST(LintImages, OtherFormatsAndSchemesAreErrors) {
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A",
    "prompt": "![a](img/a.gif) ![b](data:image/png;base64,iVBORw0KGgo=) ![c](img/c) ![d]() ![e](mailto:x@y.svg)",
    "explanation": "![f][g]\n\n[g]: file:///tmp/f.png",
    "parts": [{"id": "v", "answer": "2", "unit": ""}]})J");
  std::string all = joined(ds);
  ASSERT_EQ(ds.size(), 6u) << all;
  for (const auto& d : ds) EXPECT_EQ(diag_info(d.code).id, std::string("E044")) << all;
  EXPECT_EQ(ds[0].message, "image img/a.gif is a .gif file; the page shows PNG, JPEG and SVG images (.png, .jpg, .jpeg, .svg)");
  EXPECT_EQ(ds[0].column, 15 + 6);
  // A data: image is an image error, not also a link error (E041).
  EXPECT_EQ(ds[1].message, "image data:image/png;base64,iVBORw0KGgo= uses the scheme data:; images load only from a path "
                           "relative to the pack (img/figure.svg) or an http or https address");
  EXPECT_NE(ds[2].message.find("image img/c has no file extension"), std::string::npos) << all;
  EXPECT_NE(ds[3].message.find("image with no address"), std::string::npos) << all;
  EXPECT_EQ(ds[3].column, 15 + 70) << "at the image's \"![\"";
  EXPECT_NE(ds[4].message.find("uses the scheme mailto:"), std::string::npos) << "a link may mail, an image may not: " << all;
  // A reference image: at its definition, where the source is written.
  EXPECT_EQ(ds[5].pointer, "/exercises/0/explanation");
  EXPECT_NE(ds[5].message.find("image file:///tmp/f.png (by its reference definition) uses the scheme file:"), std::string::npos) << all;
  EXPECT_EQ(ds[5].line, 3);
  EXPECT_EQ(ds[5].column, 20 + 17) << "the file's column: each \\n is two characters there";
}

TEST(LintImages, NoAltTextIsAWarning) {
  const std::string ex = R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "![](img/a.svg) and ![ ](img/b.svg) and ![B](img/b.svg)",
    "hints": ["h"], "explanation": "e", "parts": [{"id": "v", "answer": "2", "unit": "", "mistakes": [{"answer": "3", "message": "m"}]}]})J";
  auto warned = lint_with(ex, with_files({"img/a.svg", "img/b.svg"}, nullptr, true));
  std::string all = joined(warned);
  ASSERT_EQ(warned.size(), 2u) << all;
  for (const auto& d : warned) {
    EXPECT_EQ(diag_info(d.code).id, std::string("W010")) << all;
    EXPECT_EQ(d.severity, Severity::Warning);
  }
  // The prompt's text starts at column 127 of the pack's one line (pack_with adds its head).
  EXPECT_EQ(warned[0].column, 127);
  EXPECT_EQ(warned[1].column, 127 + 19);
  EXPECT_EQ(warned[0].message, "image img/a.svg has no alt text: a student using a screen reader hears nothing of it; "
                               "say what it shows between ![ and ]");
  // Errors only (no --warn): nothing.
  EXPECT_EQ(joined(lint_with(ex, with_files({"img/a.svg", "img/b.svg"}))), "");
}

TEST(LintImages, TheChapterIntroIsChecked) {
  LoadResult r = load_pack(R"J({"format": 1, "chapter": 0, "id": "t", "title": "T", "intro": "![](img/gone.svg)\n\n![x](y.bmp)",
                               "exercises": [{"id": "a", "type": "numeric", "title": "A", "prompt": "p",
                               "parts": [{"id": "v", "answer": "2", "unit": ""}]}]})J",
                           "ch/i.json");
  ASSERT_TRUE(r.ok());
  Library lib;
  lib.packs.push_back(*r.pack);
  std::vector<std::string> asked;
  std::vector<Diagnostic> ds;
  for (const auto& d : lint_library(lib, with_files({}, &asked, true)))
    if (d.pointer == "/intro") ds.push_back(d);
  ASSERT_EQ(ds.size(), 3u) << joined(ds);
  EXPECT_EQ(format_diagnostic(ds[0]).substr(0, 35), "ch/i.json:1:68: error[E043]: /intro");
  EXPECT_EQ(format_diagnostic(ds[1]).substr(0, 37), "ch/i.json:1:64: warning[W010]: /intro");
  EXPECT_EQ(format_diagnostic(ds[2]).substr(0, 35), "ch/i.json:1:90: error[E044]: /intro");
  EXPECT_EQ(asked, (std::vector<std::string>{"ch/i.json|img/gone.svg"}));
}

// ---------------------------------------------------------------- --seeds N

namespace {

std::vector<Diagnostic> lint_seeds(const std::string& exercises, int seeds, bool warnings = false) {
  LintOptions options;
  options.seeds = seeds;
  options.warnings = warnings;
  return lint_with(exercises, options);
}

std::vector<Diagnostic> with_code(const std::vector<Diagnostic>& ds, DiagCode code) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.code == code) out.push_back(d);
  return out;
}

// (N-1)/N is within 1 % of 1 from N = 100 on: forgetting it only shows on small rings.
const char* kRing = R"J({"id": "ring.v", "type": "numeric", "title": "V", "prompt": "{N} GPUs, {M} GB",
  "params": {"N": {"default": 8, "choices": [8, 256, 512]}, "M": {"default": 1, "min": 1, "max": 4, "step": 1}},
  "parts": [{"id": "v", "answer": "2*M*(N-1)/N", "unit": "GB",
             "mistakes": [{"answer": "2*M", "message": "Missing (N-1)/N."}]}]})J";

}  // namespace

// The defaults and corners see N = 8 and N = 512 at M = 1 and 4; a drawn N = 256 is one more
// instance where the mistake grades right. One report per problem, with its first seed.
TEST(LintSeeds, AMistakeThatGradesRightForSomeInstance) {
  EXPECT_TRUE(with_code(lint_seeds(kRing, 0), DiagCode::MistakeEqualsAnswer).empty());
  auto ds = with_code(lint_seeds(kRing, 200), DiagCode::MistakeEqualsAnswer);
  ASSERT_EQ(ds.size(), 1u) << joined(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/parts/0/mistakes/0/answer");
  EXPECT_NE(ds[0].message.find("grades as right against the answer"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("of 200 seeds (dtx show ring.v --seed "), std::string::npos) << ds[0].message;
  // The seed it names has the problem: its N is 256 or 512.
  size_t at = ds[0].message.find("at seed ");
  ASSERT_NE(at, std::string::npos);
  uint64_t seed = std::stoull(ds[0].message.substr(at + 8));
  LoadResult r = load_pack(pack_with(kRing), "s.json");
  Instance inst = must_instance(r.pack->exercises[0], seed);
  EXPECT_GE(inst.values[0].second, 256) << ds[0].message;
  // Only small rings: nothing to report.
  std::string small = kRing;
  small.replace(small.find("[8, 256, 512]"), 13, "[4, 8, 16]");
  EXPECT_TRUE(with_code(lint_seeds(small, 200), DiagCode::MistakeEqualsAnswer).empty()) << joined(lint_seeds(small, 200));
}

// Idle time over the ideal time and over the total time: 0.79 % and 0.79 % at p = 2, m = 126.
TEST(LintSeeds, TwoPartsThatAToleranceCannotTellApart) {
  const char* bubble = R"J({"id": "pipe.b", "type": "numeric", "title": "B", "prompt": "{p} stages, {m} micro-batches",
    "params": {"p": {"default": 4, "choices": [2, 4]}, "m": {"default": 8, "min": 4, "max": 128, "step": 2}},
    "parts": [{"id": "ideal", "answer": "(p-1)/m*100", "unit": "%"},
              {"id": "total", "answer": "(p-1)/(m+p-1)*100", "unit": "%"}]})J";
  auto ds = with_code(lint_seeds(bubble, 200), DiagCode::PartsCollide);
  ASSERT_EQ(ds.size(), 2u) << joined(ds);  // each part, once
  EXPECT_NE(ds[0].message.find("part \"total\"'s answer"), std::string::npos) << ds[0].message;
  // Parts with equal answers (sent and received) are one quantity asked twice, not a collision.
  const char* same = R"J({"id": "ring.sr", "type": "numeric", "title": "S", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [4, 8, 16]}},
    "parts": [{"id": "sent", "answer": "2*(N-1)/N", "unit": "GB"}, {"id": "received", "answer": "2*(N-1)/N", "unit": "GB"}]})J";
  EXPECT_TRUE(with_code(lint_seeds(same, 200), DiagCode::PartsCollide).empty());
}

TEST(LintSeeds, NegativeAmountsIntegersAndPlausibleRanges) {
  auto neg = with_code(lint_seeds(R"J({"id": "a.b", "type": "numeric", "title": "A", "prompt": "{M} GB",
    "params": {"M": {"default": 16, "min": 2, "max": 80, "step": 2}},
    "parts": [{"id": "spare", "answer": "M - 4", "unit": "GB"}]})J", 200), DiagCode::ImpossibleAnswer);
  ASSERT_EQ(neg.size(), 1u);
  EXPECT_NE(neg[0].message.find("cannot be negative"), std::string::npos) << neg[0].message;
  // A percentage may be negative (a change); a plain number too.
  EXPECT_TRUE(with_code(lint_seeds(R"J({"id": "a.c", "type": "numeric", "title": "A", "prompt": "{M}",
    "params": {"M": {"default": 16, "min": 2, "max": 80, "step": 2}},
    "parts": [{"id": "d", "answer": "M - 40", "unit": "%", "tolerance": {"abs": 0.5}}]})J", 200), DiagCode::ImpossibleAnswer).empty());
  // Whole at every corner (L = 8, 64 with p = 2, 4) but not for a drawn L = 10, p = 4.
  auto whole = with_code(lint_seeds(R"J({"id": "a.d", "type": "numeric", "title": "A", "prompt": "{L} layers, {p} stages",
    "params": {"L": {"default": 32, "min": 8, "max": 64, "step": 2}, "p": {"default": 4, "choices": [2, 4]}},
    "parts": [{"id": "per", "answer": "L/p", "unit": "layers", "integer": true}]})J", 200), DiagCode::NotInteger);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_NE(whole[0].message.find("not a whole number"), std::string::npos) << whole[0].message;
  EXPECT_NE(whole[0].message.find("at seed "), std::string::npos) << whole[0].message;
}

// Constraints that throw most draws away: a warning, with the share.
TEST(LintSeeds, ConstraintsThatRejectMostDraws) {
  const char* tight = R"J({"id": "a.e", "type": "numeric", "title": "A", "prompt": "{L} {p}",
    "params": {"L": {"default": 32, "min": 2, "max": 128, "step": 1}, "p": {"default": 4, "choices": [2, 4, 8]}},
    "constraints": ["L / p == floor(L / p)", "L >= 4 * p"],
    "parts": [{"id": "per", "answer": "L/p", "unit": "layers"}]})J";
  auto ds = with_code(lint_seeds(tight, 200, true), DiagCode::ConstraintsRejectMost);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_NE(ds[0].message.find("% of the parameter draws"), std::string::npos) << ds[0].message;
  EXPECT_TRUE(with_code(lint_seeds(tight, 200, false), DiagCode::ConstraintsRejectMost).empty());  // a warning
}

// Every shipped exercise's instances can be made and checked in one pass over 200 seeds.
TEST(LintSeeds, ShippedPacksLoadAndSweepWithoutCrashing) {
  Library lib = load_library(shipped_pack_sources());
  ASSERT_FALSE(lib.packs.empty());
  LintOptions options;
  options.seeds = 20;
  auto ds = lint_library(lib, options);
  EXPECT_TRUE(with_code(ds, DiagCode::CannotMakeInstance).empty()) << joined(with_code(ds, DiagCode::CannotMakeInstance));
}

// A text function's names are checked like a placeholder's, and a malformed call is an error
// at the character where it goes wrong.
TEST(Lint, TextFunctionsAreChecked) {
  EXPECT_EQ(joined(lint_text(R"J({"id": "a", "type": "numeric", "title": "A",
    "prompt": "{plural(m, 'micro-batch')} on {if(p >= 16, 'a deep', 'a shallow')} pipeline",
    "params": {"p": {"default": 16, "choices": [4, 16]}, "m": {"default": 2, "choices": [1, 2]}},
    "parts": [{"id": "v", "answer": "p/m", "unit": ""}]})J")), "");
  auto ds = lint_text(R"J({"id": "a", "type": "numeric", "title": "A",
    "prompt": "{plural(q, 'x')} and {if(p > 2, 'a')}",
    "params": {"p": {"default": 16, "choices": [4, 16]}},
    "parts": [{"id": "v", "answer": "p", "unit": ""}]})J");
  ASSERT_EQ(ds.size(), 2u) << joined(ds);
  EXPECT_EQ(ds[0].code, DiagCode::UndeclaredName);
  EXPECT_NE(ds[0].message.find("parameter 'q'"), std::string::npos) << ds[0].message;
  EXPECT_EQ(ds[1].code, DiagCode::InvalidExpression);
  EXPECT_NE(ds[1].message.find("expected a condition and two texts"), std::string::npos) << ds[1].message;
  // Columns: 'q' is 8 characters after the first brace; the if's inside starts 22 after it.
  EXPECT_EQ(ds[1].column - ds[0].column, 14) << joined(ds);
}

// Parameters with units: the answer's dimension against the part's unit (W009, --warn).
TEST(LintWarn, AnswerDimensionAgainstItsUnit) {
  auto w009 = [](const std::string& answer, const std::string& unit, const std::string& bw_unit = R"J(, "unit": "GB/s")J") {
    std::string out;
    for (const auto& d : with_code(lint_with_warnings(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "{N} {M} {BW}",
      "params": {"N": {"default": 8, "choices": [4, 8], "unit": "GPUs"}, "M": {"default": 2, "min": 1, "max": 4, "unit": "GB"},
                 "BW": {"default": 50, "choices": [25, 50])J" + bw_unit + R"J(}},
      "parts": [{"id": "t", "answer": ")J" + answer + R"J(", "unit": ")J" + unit + R"J("}]})J"), DiagCode::UnitMismatch))
      out += d.message + "\n";
    return out;
  };
  EXPECT_EQ(w009("2*M*(N-1)/N/BW*1000", "ms"), "");  // a time, in ms
  EXPECT_EQ(w009("2*M*(N-1)/N", "GB"), "");
  EXPECT_EQ(w009("M/N/(M/BW)", "GB/s"), "");  // a rate
  EXPECT_EQ(w009("(M/BW)/(M/BW)*100", "%"), "");  // a ratio
  EXPECT_NE(w009("2*M*(N-1)/N*BW*1000", "ms").find("the answer is data^2/time, but the unit \"ms\" is a time"), std::string::npos);
  EXPECT_NE(w009("2*M*(N-1)/N", "ms").find("is a data size, but the unit \"ms\" is a time"), std::string::npos);
  // Where it cannot tell: a parameter without a unit, a sum of unlike terms, numbers alone.
  EXPECT_EQ(w009("2*M*(N-1)/N/BW*1000", "GB", ""), "");
  EXPECT_EQ(w009("M + BW", "GB"), "");
  EXPECT_EQ(w009("6*405e9", "GB"), "");
  // A unit the engine does not know is an error at the parameter.
  LoadResult bad = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {"M": {"default": 2, "unit": "GBB"}}, "parts": [{"id": "t", "answer": "M", "unit": "GB"}]})J"), "u.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.diagnostics[0].code, DiagCode::UnknownUnit);
  EXPECT_EQ(bad.diagnostics[0].pointer, "/exercises/0/params/M/unit");
}

// A tolerance that grades a known slip as right: GiB for GB under 10 %; twice the answer under an
// absolute tolerance larger than the answer. A plain number has no GiB slip.
TEST(LintSeeds, ASlipTheToleranceGradesRight) {
  auto e064 = [](const std::string& unit, const std::string& tol) {
    auto ds = with_code(lint_seeds(R"J({"id": "a.s", "type": "numeric", "title": "A", "prompt": "{N} {M}",
      "params": {"N": {"default": 8, "choices": [4, 8]}, "M": {"default": 1, "min": 1, "max": 4, "step": 1}},
      "parts": [{"id": "v", "answer": "2*M*(N-1)/N", "unit": ")J" + unit + R"J(", "tolerance": )J" + tol + "}]}", 200),
      DiagCode::SlipGradedRight);
    return ds.empty() ? std::string() : ds[0].message;
  };
  EXPECT_EQ(e064("GB", R"J({"rel": 0.01})J"), "");
  EXPECT_NE(e064("GB", R"J({"rel": 0.1})J").find("(GiB vs GB)"), std::string::npos) << e064("GB", R"J({"rel": 0.1})J");
  EXPECT_NE(e064("GB", R"J({"abs": 20})J").find("off by 2x"), std::string::npos) << e064("GB", R"J({"abs": 20})J");
  EXPECT_EQ(e064("", R"J({"rel": 0.1})J"), "");
  std::string once = e064("GB", R"J({"rel": 0.1})J");
  EXPECT_NE(once.find("200 of 200 seeds"), std::string::npos) << once;  // each seed counted once
}

// W011: a parameter that is a factor of the answer and often equals a slip's factor (N = 8 and
// bits vs bytes for M/N GB) is a warning with --warn --seeds; a range that rarely hits 8, a
// listed mistake with that value, a unit without the slip and the ring's 2M(N-1)/N (N is not a
// factor of it) are not.
TEST(LintSeeds, AParameterOftenEqualToASlipFactor) {
  auto w011 = [](const std::string& n_param, const std::string& answer, const std::string& unit,
                 const std::string& mistakes, bool warnings = true) {
    auto ds = with_code(lint_seeds(R"J({"id": "a.w", "type": "numeric", "title": "A", "prompt": "{N} {M}",
      "params": {"N": )J" + n_param + R"J(, "M": {"default": 4, "min": 4, "max": 64, "step": 4}},
      "hints": ["h"], "explanation": "e",
      "parts": [{"id": "v", "answer": ")J" + answer + R"J(", "unit": ")J" + unit + R"J(", "mistakes": )J" + mistakes + "}]}",
                                       200, warnings),
                           DiagCode::AmbiguousSlip);
    return joined(ds);
  };
  const std::string often = R"J({"default": 8, "choices": [4, 8]})J";
  const std::string other = R"J([{"answer": "M*N", "message": "m"}])J";
  std::string w = w011(often, "M/N", "GB", other);
  EXPECT_NE(w.find("warning[W011]: /exercises/0/params/N: N = 8 equals the factor of a slip the feedback names for "
                   "part \"v\" (8x the answer: bits vs bytes)"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find(" of 200 seeds"), std::string::npos) << w;
  EXPECT_EQ(w011(often, "M/N", "GB", other, false), "");  // a warning: only with --warn
  // 8 in 1 seed of 57 or so: under the 10 % share.
  EXPECT_EQ(w011(R"J({"default": 9, "min": 4, "max": 60, "step": 1})J", "M/N", "GB", other), "");
  // The author listed the answers off by N both ways: the feedback says what the author wrote.
  EXPECT_EQ(w011(often, "M/N", "GB", R"J([{"answer": "M", "message": "m"}, {"answer": "M/N^2", "message": "m"}])J"), "");
  // Seconds have no factor-8 slip; N is no factor of 2M(N-1)/N.
  EXPECT_EQ(w011(often, "M/N", "s", other), "");
  EXPECT_EQ(w011(often, "2*M*(N-1)/N", "GB", other), "");
  // Percent vs fraction: a utilisation over a link of 100 GB/s.
  std::string pct = w011(R"J({"default": 100, "choices": [100, 200]})J", "M/N", "", other);
  EXPECT_NE(pct.find("N = 100 equals the factor of a slip the feedback names for part \"v\" (100x the answer: "
                     "percent vs fraction)"),
            std::string::npos)
      << pct;
}
