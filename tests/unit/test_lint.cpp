#include <gtest/gtest.h>

#include "helpers.h"
#include "lint.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

std::vector<Diagnostic> lint_text(const std::string& exercises) {
  LoadResult r = load_pack(pack_with(exercises), "l.json");
  EXPECT_TRUE(r.ok());
  Library lib;
  if (r.pack) lib.packs.push_back(*r.pack);
  return lint_library(lib, nullptr);
}

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
  EXPECT_NE(ds[0].message.find("\"Nn\""), std::string::npos);
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
