#include <gtest/gtest.h>

#include <set>

#include "choice/choice.h"
#include "helpers.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

Pack choice_pack(bool multiple) {
  return must_load(pack_with(std::string(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p", "multiple": )J") +
                             (multiple ? "true" : "false") + R"J(,
    "options": [{"text": "Ring", "correct": true, "feedback": "Every link busy."},
                {"text": "Tree", "correct": )J" + (multiple ? "true" : "false") + R"J(, "feedback": "Few steps."},
                {"text": "Naive", "feedback": "Rank 0 is the bottleneck."},
                {"text": "None of the above", "fixed": true, "feedback": "No."}]})J"));
}

}  // namespace

TEST(Choice, SingleAnswer) {
  Pack pk = choice_pack(false);
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_picks(i, {0});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  EXPECT_NE(f.message.find("Every link busy."), std::string::npos);
  f = grade_picks(i, {2});
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("Rank 0 is the bottleneck."), std::string::npos) << f.message;
}

TEST(Choice, SingleAnswerFormatErrors) {
  Pack pk = choice_pack(false);
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_picks(i, {}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_picks(i, {0, 1}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_picks(i, {9}).verdict, Verdict::FormatError);
}

TEST(Choice, MultipleAnswersScoreEachOption) {
  Pack pk = choice_pack(true);
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_picks(i, {0, 1}).verdict, Verdict::Correct);
  Feedback f = grade_picks(i, {0});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.75);  // 3 of 4 options judged rightly
  EXPECT_NE(f.message.find("1 correct option was left out"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.rfind("Your choice is right, and", 0), 0u) << f.message;
  f = grade_picks(i, {0, 2});
  EXPECT_DOUBLE_EQ(f.score, 0.5);
  EXPECT_EQ(f.message.rfind("1 of your 2 choices is right", 0), 0u) << f.message;
  EXPECT_EQ(grade_picks(i, {2}).message.rfind("Your choice is not right", 0), 0u);
  EXPECT_EQ(grade_picks(i, {2, 3}).message.rfind("None of your 2 choices is right", 0), 0u);
  ASSERT_EQ(f.details.size(), 2u);  // per-option feedback for each chosen option
  EXPECT_EQ(grade_picks(i, {0, 0}).verdict, Verdict::FormatError);
}

TEST(Choice, ShuffledPerInstanceFixedOptionsStay) {
  Pack p = choice_pack(false);
  std::set<std::vector<int>> orders;
  for (uint64_t s = 0; s < 30; ++s) {
    Instance i = must_instance(p.exercises[0], s);
    ASSERT_EQ(i.data_or_empty<ChoiceInstance>().order.size(), 4u);
    EXPECT_EQ(i.data_or_empty<ChoiceInstance>().order[3], 3);  // "None of the above" keeps its place
    orders.insert(i.data_or_empty<ChoiceInstance>().order);
    EXPECT_EQ(must_instance(p.exercises[0], s).data_or_empty<ChoiceInstance>().order, i.data_or_empty<ChoiceInstance>().order);  // deterministic
  }
  EXPECT_GT(orders.size(), 3u);
}
