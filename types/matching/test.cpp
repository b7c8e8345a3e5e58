// The matching type: loading, instances (both columns shuffled per seed), grading with
// credit per pair, the answers `dtx grade` reads, lint and warnings, and its sample answers.
#include <gtest/gtest.h>

#include <set>

#include "matching/matching.h"
#include "helpers.h"
#include "lint.h"
#include "lint_context.h"
#include "type_registry.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kPairs = R"J({"id": "m", "type": "matching", "title": "M", "prompt": "Match them.", "hints": ["h"],
    "params": {"N": {"default": 8, "choices": [4, 8]}},
    "pairs": [{"left": "AllReduce", "right": "2M(N-1)/N", "feedback": "Two phases."},
              {"left": "ReduceScatter", "right": "M(N-1)/N", "feedback": "One phase."},
              {"left": "AllGather", "right": "M(N-1)/N, gathered", "feedback": "One phase, copies."},
              {"left": "Broadcast", "right": "M"}],
    "distractors": ["2M", "M/{N}"]})J";

Feedback grade_matches(const Instance& inst, std::vector<int> choice) {
  return grade(inst, make_answer(MatchingAnswer(std::move(choice))));
}

std::vector<Diagnostic> lint_of(const std::string& exercise, bool warnings = false) {
  LoadResult r = load_pack(pack_with(exercise), "t.json");
  std::vector<Diagnostic> out = r.diagnostics;
  if (!r.pack) return out;
  Library lib;
  lib.packs.push_back(*r.pack);
  LintOptions o;
  o.warnings = warnings;
  auto more = lint_library(lib, o);
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

std::string all_messages(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += format_diagnostic(d) + "\n";
  return s;
}

}  // namespace

TEST(Matching, IsRegisteredWithItsFieldsAndVerb) {
  const TypeEntry* t = find_type("matching");
  ASSERT_NE(t, nullptr);
  EXPECT_STREQ(t->verb, "match");
  EXPECT_EQ(t->fields, (std::vector<std::string>{"pairs", "distractors"}));
  EXPECT_EQ(t->required, std::vector<std::string>{"pairs"});
}

TEST(Matching, RightPairsEarnTheirShare) {
  Pack pk = must_load(pack_with(kPairs));
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_matches(i, {0, 1, 2, 3});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  EXPECT_EQ(f.message, "Correct: all 4 pairs are right.");
  f = grade_matches(i, {1, 0, 2, 3});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.5);
  EXPECT_EQ(f.message, "2 of 4 pairs are right.");
  ASSERT_EQ(f.details.size(), 2u);  // one line per wrong item, with its feedback
  bool said = false;
  for (const auto& d : f.details) said |= d == "“AllReduce” does not go with “M(N-1)/N”. Two phases.";
  EXPECT_TRUE(said) << f.details[0] << " | " << f.details[1];
  f = grade_matches(i, {4, 5, 0, 1});  // distractors and shifted options
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_EQ(f.message, "None of the 4 pairs is right.");
  bool filled = false;
  for (const auto& d : f.details) filled |= d.find("“M/8”") != std::string::npos;
  EXPECT_TRUE(filled) << "a distractor's placeholder is filled: " << f.details[1];
  f = grade_matches(i, {0, 0, 2, 3});  // one option given to two items: a wrong answer, not unreadable
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.75);
}

TEST(Matching, UnmatchedOrImpossibleAnswersAreNotAttempts) {
  Pack pk = must_load(pack_with(kPairs));
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_matches(i, {0, 1, -1, 3});
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_EQ(f.message, "One item has no option yet: match every item.");
  EXPECT_FALSE(f.counts_as_attempt());
  EXPECT_EQ(grade_matches(i, {-1, -1, -1, -1}).message, "4 items have no option yet: match every item.");
  EXPECT_EQ(grade_matches(i, {0, 1, 2}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_matches(i, {0, 1, 2, 6}).message, "There are only 6 options, A to F.");
  EXPECT_EQ(grade(i, Answer{}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade(i, make_answer(ChoiceAnswer({0}))).verdict, Verdict::FormatError) << "another type's answer";
}

TEST(Matching, BothColumnsAreShuffledPerInstanceAndNeverGiveAPairAway) {
  Pack pk = must_load(pack_with(kPairs));
  std::set<std::vector<int>> items, options;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Instance i = must_instance(pk.exercises[0], seed);
    std::vector<int> opt = matching_option_order(i, 6);
    items.insert(i.data_or_empty<MatchingInstance>().order);
    options.insert(opt);
    std::vector<int> identity = {0, 1, 2, 3, 4, 5};
    EXPECT_NE(opt, identity) << "seed " << seed << ": options in the authored order";
    bool diagonal = true;  // the answer would be A, B, C, D in the order shown
    for (size_t k = 0; k < i.data_or_empty<MatchingInstance>().order.size(); ++k) diagonal &= opt[k] == i.data_or_empty<MatchingInstance>().order[k];
    EXPECT_FALSE(diagonal) << "seed " << seed << ": every item sits beside its option";
    EXPECT_EQ(std::set<int>(opt.begin(), opt.end()).size(), 6u);
    // the same seed makes the same instance
    EXPECT_EQ(must_instance(pk.exercises[0], seed).data_or_empty<MatchingInstance>().order, i.data_or_empty<MatchingInstance>().order);
    EXPECT_EQ(matching_option_order(must_instance(pk.exercises[0], seed), 6), opt);
  }
  EXPECT_GT(items.size(), 10u);
  EXPECT_GT(options.size(), 10u);
  // Two pairs and no distractor: only one arrangement gives nothing away, at every seed.
  Pack two = must_load(pack_with(R"J({"id": "t", "type": "matching", "title": "T", "prompt": "p",
    "pairs": [{"left": "a", "right": "b"}, {"left": "c", "right": "d"}]})J"));
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Instance i = must_instance(two.exercises[0], seed);
    std::vector<int> opt = matching_option_order(i, 2);
    EXPECT_FALSE(opt[0] == i.data_or_empty<MatchingInstance>().order[0] && opt[1] == i.data_or_empty<MatchingInstance>().order[1]) << "seed " << seed;
  }
}

TEST(Matching, ReadsAnswersAsLettersOrNumberedPairs) {
  Pack pk = must_load(pack_with(kPairs));
  const Exercise& ex = pk.exercises[0];
  Instance i = must_instance(ex, 3);
  const std::vector<int> opt = matching_option_order(i, 6);
  // The right answer as letters, one per item in the order shown.
  std::string letters;
  for (int item : i.data_or_empty<MatchingInstance>().order) letters += static_cast<char>('A' + (std::find(opt.begin(), opt.end(), item) - opt.begin()));
  std::string err;
  auto a = ex.spec->parse_answer(ex, i, {letters}, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(grade(i, *a).verdict, Verdict::Correct);
  std::vector<std::string> numbered;
  for (size_t pos = 0; pos < letters.size(); ++pos) numbered.push_back(std::to_string(pos + 1) + "=" + letters[pos]);
  a = ex.spec->parse_answer(ex, i, numbered, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(grade(i, *a).verdict, Verdict::Correct);
  a = ex.spec->parse_answer(ex, i, {"1=" + letters.substr(0, 1)}, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(grade(i, *a).verdict, Verdict::FormatError) << "three items left unmatched";
  EXPECT_FALSE(ex.spec->parse_answer(ex, i, {"ABZ"}, &err));
  EXPECT_EQ(err, "expected 4 letters, one per item in the order shown; got 'ABZ'");
  EXPECT_FALSE(ex.spec->parse_answer(ex, i, {"ABCZ"}, &err));
  EXPECT_EQ(err, "there is no option Z (options are A to F)");
  EXPECT_FALSE(ex.spec->parse_answer(ex, i, {"9=A"}, &err));
  EXPECT_NE(err.find("expected item=letter pairs"), std::string::npos) << err;
}

TEST(Matching, DescribesTheInstanceAndItsKey) {
  Pack pk = must_load(pack_with(kPairs));
  const Exercise& ex = pk.exercises[0];
  Instance i = must_instance(ex);
  InstanceDescription d;
  ex.spec->describe(ex, i, true, d);
  EXPECT_EQ(d.json["items"].size(), 4u);
  EXPECT_EQ(d.json["options"].size(), 6u);
  EXPECT_EQ(d.json["options"][0]["label"], "A");
  ASSERT_EQ(d.json["answer"].size(), 4u);
  EXPECT_NE(d.text.find("M/8"), std::string::npos) << d.text;
  auto key = ex.spec->answer_key(ex, i);
  ASSERT_EQ(key.size(), 1u);
  EXPECT_EQ(key[0].rfind("pairs: 1-", 0), 0u) << key[0];
  InstanceDescription hidden;
  ex.spec->describe(ex, i, false, hidden);
  EXPECT_FALSE(hidden.json.contains("answer"));
  EXPECT_EQ(hidden.text.find("answer:"), std::string::npos);
}

TEST(Matching, SampleAnswersGetTheirVerdicts) {
  Pack pk = must_load(pack_with(kPairs));
  const Exercise& ex = pk.exercises[0];
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Instance i = must_instance(ex, seed);
    auto samples = ex.spec->sample_answers(ex, i);
    ASSERT_GE(samples.size(), 5u);
    for (const auto& s : samples) {
      std::string why;
      EXPECT_TRUE(sample_answer_holds(s, grade(i, s.answer), &why)) << why;
    }
  }
}

TEST(Matching, LoaderAndLintSayWhereAndWhat) {
  auto ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "pairs": [{"left": "a", "right": "b"}]})J");
  ASSERT_EQ(ds.size(), 1u) << all_messages(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/pairs");
  EXPECT_NE(ds[0].message.find("at least 2 pairs"), std::string::npos);
  ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "pairs": [{"left": "a", "right": "b"}, {"left": "c"}]})J");
  ASSERT_EQ(ds.size(), 1u) << all_messages(ds);
  EXPECT_EQ(ds[0].pointer, "/exercises/0/pairs/1");
  EXPECT_NE(ds[0].message.find("right"), std::string::npos) << ds[0].message;
  ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p",
    "pairs": [{"left": "a", "right": "b"}, {"left": "a", "right": "b"}], "distractors": ["b"]})J");
  EXPECT_EQ(ds.size(), 3u) << all_messages(ds);
  EXPECT_NE(all_messages(ds).find("two items have the same text \"a\""), std::string::npos) << all_messages(ds);
  EXPECT_NE(all_messages(ds).find("each option belongs with one item"), std::string::npos);
  EXPECT_NE(all_messages(ds).find("/exercises/0/distractors/0: the distractor \"b\""), std::string::npos);
  std::string many = R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "pairs": [)J";
  for (int k = 0; k < 27; ++k) many += std::string(k ? "," : "") + "{\"left\": \"l" + std::to_string(k) + "\", \"right\": \"r" + std::to_string(k) + "\"}";
  ds = lint_of(many + "]}");
  ASSERT_EQ(ds.size(), 1u) << all_messages(ds);
  EXPECT_NE(ds[0].message.find("at most 26 options"), std::string::npos);
  ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "pairs": [{"left": "a", "right": "b", "hint": "x"}, {"left": "c", "right": "d"}]})J");
  ASSERT_EQ(ds.size(), 1u) << all_messages(ds);
  EXPECT_NE(ds[0].message.find("unknown field"), std::string::npos) << ds[0].message;
  // Placeholders and maths in every text are checked like the prompt's.
  ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "pairs": [{"left": "{B}", "right": "b"}, {"left": "c", "right": "$x^{$"}]})J");
  EXPECT_EQ(ds.size(), 2u) << all_messages(ds);
}

TEST(Matching, WarnsWhenTheLastPairFallsOutByElimination) {
  auto ds = lint_of(R"J({"id": "m", "type": "matching", "title": "M", "prompt": "p", "explanation": "e",
    "pairs": [{"left": "a", "right": "b"}, {"left": "c", "right": "d"}, {"left": "e", "right": "f"}]})J", true);
  std::string all = all_messages(ds);
  EXPECT_NE(all.find("found by elimination"), std::string::npos) << all;
  EXPECT_NE(all.find("no hints and no \"feedback\""), std::string::npos) << all;
  EXPECT_EQ(lint_of(kPairs, true).size(), 1u) << "only the missing explanation: " << all_messages(lint_of(kPairs, true));
}
