// TypeSpec::answer_words, the inverse of parse_answer: an attempt saved as words (a submission
// file) and graded again later by the CLI gets the verdict and score it got when it was made.
// Every shipped exercise, every type, through the registry: no type is named in the first test.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "content_util.h"
#include "figures.h"
#include "code/code.h"
#include "helpers.h"
#include "json_fields.h"
#include "type_registry.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const Library& library() {
  static Library lib = load_library(shipped_pack_sources());
  return lib;
}

// Grades `words` as `dtx grade` does: words that do not read are a format error.
Feedback grade_words(const Exercise& ex, const Instance& inst, const std::vector<std::string>& words, bool* read) {
  std::string error;
  auto answer = ex.spec->parse_answer(ex, inst, words, &error);
  *read = answer.has_value();
  if (answer) return grade(inst, *answer);
  Feedback fb;
  fb.verdict = Verdict::FormatError;
  fb.message = error;
  return fb;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "[" : ", [") + w + "]";
  return s.empty() ? "(no words)" : s;
}

}  // namespace

TEST(AnswerWords, EverySampleAnswerReadsBackToTheSameVerdictAndScore) {
  std::map<std::string, int> checked;
  for (const auto& pack : library().packs)
    for (const auto& ex : pack.exercises)
      // The default instance and two drawn ones: choices and orderings are shuffled per seed,
      // so the letters differ from one to the next.
      for (uint64_t seed : {0ull, 3ull, 4711ull}) {
        Instance inst = must_instance(ex, seed);
        for (const auto& sample : ex.spec->sample_answers(ex, inst)) {
          const std::string where = ex.id + " seed " + std::to_string(seed) + ", " + sample.kind;
          const std::vector<std::string> words = ex.spec->answer_words(ex, inst, sample.answer);
          if (ex.spec->answer_is_program()) {
            // A program is graded by running it: the words must give back the same source.
            const auto* program = sample.answer.as<CodeAnswer>();
            ASSERT_NE(program, nullptr) << where;
            ASSERT_EQ(words, std::vector<std::string>{program->source}) << where;
            std::string error;
            auto back = ex.spec->parse_answer(ex, inst, words, &error);
            ASSERT_TRUE(back.has_value()) << where << ": " << error;
            ASSERT_NE(back->as<CodeAnswer>(), nullptr) << where;
            EXPECT_EQ(back->as<CodeAnswer>()->source, program->source) << where;
            ++checked[ex.type];
            continue;
          }
          const Feedback before = grade(inst, sample.answer);
          bool read = false;
          const Feedback after = grade_words(ex, inst, words, &read);
          EXPECT_EQ(verdict_name(after.verdict), std::string(verdict_name(before.verdict)))
              << where << ": words " << joined(words) << " graded \"" << after.message << "\", the answer \""
              << before.message << "\"";
          EXPECT_DOUBLE_EQ(after.score, before.score) << where << ": words " << joined(words);
          // An answer that can be graded must read back; only one grading refuses may fail to.
          if (before.verdict != Verdict::FormatError) EXPECT_TRUE(read) << where << ": words " << joined(words);
          ++checked[ex.type];
        }
      }
  for (const auto& t : exercise_types()) EXPECT_GT(checked[t.name], 0) << t.name;
}

// The numeric texts a student can type that no sample has: the words keep each one exactly,
// so a format error stays a format error with the same message, and spaces survive.
TEST(AnswerWords, NumericTextsRoundTripExactly) {
  Pack p = must_load(pack_with(R"J({"id": "n", "type": "numeric", "title": "N", "prompt": "p",
    "parts": [{"id": "phase", "answer": "875", "unit": "MB"}, {"id": "total", "answer": "1.75", "unit": "GB"}]})J"));
  const Exercise& ex = p.exercises[0];
  Instance inst = must_instance(ex);
  const std::vector<std::vector<std::string>> answers = {
      {"875 MB", "1.75 GB"}, {"", "1.75 GB"}, {" 875  MB ", ""}, {"a=b", "total=3"}, {"about twelve", "=="}};
  for (const auto& texts : answers) {
    Answer a = make_answer(NumericAnswer(texts));
    std::vector<std::string> words = ex.spec->answer_words(ex, inst, a);
    EXPECT_EQ(words, (std::vector<std::string>{"phase=" + texts[0], "total=" + texts[1]}));
    std::string error;
    auto back = ex.spec->parse_answer(ex, inst, words, &error);
    ASSERT_TRUE(back.has_value()) << error;
    EXPECT_EQ(back->as<NumericAnswer>()->parts, texts) << joined(words);
    EXPECT_EQ(grade(inst, *back).message, grade(inst, a).message) << joined(words);
  }
  // One text for two parts (only `dtx grade` makes such an answer): still one text.
  Answer fewer = make_answer(NumericAnswer({"875 MB"}));
  std::string error;
  auto back = ex.spec->parse_answer(ex, inst, ex.spec->answer_words(ex, inst, fewer), &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(back->as<NumericAnswer>()->parts, std::vector<std::string>{"875 MB"});
}

// The letters are those of the instance's display order, not the authored one.
TEST(AnswerWords, ChoiceAndOrderingUseTheLettersShown) {
  Pack p = must_load(pack_with(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p", "multiple": true,
    "options": [{"text": "a", "correct": true}, {"text": "b"}, {"text": "c", "correct": true}, {"text": "d"}]},
    {"id": "o", "type": "ordering", "title": "O", "prompt": "p", "items": ["a", "b", "c", "d"]})J"));
  for (const auto& ex : p.exercises) {
    for (uint64_t seed : {0ull, 1ull, 2ull, 3ull}) {
      Instance inst = must_instance(ex, seed);
      const std::vector<int> authored = {2, 0};  // picks (choice) or the start of an order
      std::vector<int> order = authored;
      if (ex.type == "ordering") order = {2, 0, 3, 1};
      Answer a = ex.type == "choice" ? make_answer(ChoiceAnswer(order)) : make_answer(OrderingAnswer(order));
      std::string expect;
      for (int index : order) {
        size_t pos = std::find(shown_order(inst).begin(), shown_order(inst).end(), index) - shown_order(inst).begin();
        expect += std::string(ex.type == "choice" && !expect.empty() ? "," : "") + option_letter(pos);
      }
      std::string got;
      for (const auto& w : ex.spec->answer_words(ex, inst, a)) got += w;
      EXPECT_EQ(got, expect) << ex.id << " seed " << seed;
    }
  }
}
