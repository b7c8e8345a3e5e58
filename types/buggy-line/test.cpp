#include <gtest/gtest.h>

#include "helpers.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

Pack bug_pack(int select = 0, bool two_bugs = false) {
  std::string bugs = R"J([{"line": 4, "message": "steps already counts both phases."})J" +
                     std::string(two_bugs ? R"J(, {"line": 2, "message": "N, not N-1."}])J" : "]");
  return must_load(pack_with(R"J({"id": "b", "type": "buggy-line", "title": "B", "prompt": "p",
    "code": ["function t(M, N, BW) {", "  const chunk = M / N;", "  const steps = 2 * (N - 1);", "  return 2 * steps * chunk / BW;", "}"],
    "bugs": )J" + bugs + R"J(, "decoys": [{"line": 3, "message": "2(N-1) steps is right."}])J" +
                             (select ? ", \"select\": " + std::to_string(select) : "") + "}"));
}

}  // namespace

TEST(BuggyLine, TheBug) {
  Pack pk = bug_pack();
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_lines(i, {4});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  EXPECT_NE(f.message.find("both phases"), std::string::npos);
}

TEST(BuggyLine, DecoysExplainThemselves) {
  Pack pk = bug_pack();
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_lines(i, {3});
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("2(N-1) steps is right."), std::string::npos) << f.message;
  f = grade_lines(i, {1});
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("Line 1"), std::string::npos);
}

TEST(BuggyLine, SeveralBugs) {
  Pack pk = bug_pack(0, true);
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_lines(i, {2, 4}).verdict, Verdict::Correct);
  Feedback f = grade_lines(i, {4, 3});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.5);
  EXPECT_EQ(grade_lines(i, {4}).verdict, Verdict::FormatError);  // must click two lines
}

TEST(BuggyLine, OutOfRangeIsAFormatError) {
  Pack pk = bug_pack();
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_lines(i, {9}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_lines(i, {0}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_lines(i, {}).verdict, Verdict::FormatError);
}
