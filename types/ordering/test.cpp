#include <gtest/gtest.h>

#include "ordering/ordering.h"
#include "helpers.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

Pack order_pack() {
  return must_load(pack_with(R"J({"id": "o", "type": "ordering", "title": "O", "prompt": "p",
    "items": ["forward", "backward", "allreduce", "optimizer step", "zero grads"],
    "feedback": ["f", "b", "The AllReduce needs every gradient.", "o", "z"]})J"));
}

}  // namespace

TEST(Ordering, LongestIncreasingSubsequence) {
  std::vector<size_t> m;
  EXPECT_EQ(longest_increasing_subsequence({0, 1, 2, 3}, &m), 4u);
  EXPECT_EQ(longest_increasing_subsequence({3, 2, 1, 0}, &m), 1u);
  EXPECT_EQ(longest_increasing_subsequence({1, 2, 3, 0}, &m), 3u);
  EXPECT_EQ(m, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(longest_increasing_subsequence({2, 0, 1, 4, 3}, &m), 3u);
}

TEST(Ordering, CorrectOrder) {
  Pack pk = order_pack();
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_order(i, {0, 1, 2, 3, 4});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  EXPECT_DOUBLE_EQ(f.score, 1);
}

TEST(Ordering, PartialCreditAndFirstMisplacedItem) {
  Pack pk = order_pack();
  Instance i = must_instance(pk.exercises[0]);
  // allreduce moved to the end: 4 of 5 in the right relative order.
  Feedback f = grade_order(i, {0, 1, 3, 4, 2});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.8);
  EXPECT_NE(f.message.find("“allreduce”"), std::string::npos) << f.message;
  ASSERT_EQ(f.details.size(), 1u);
  EXPECT_EQ(f.details[0], "The AllReduce needs every gradient.");
  // forward moved last: the misplaced item is forward, though it is the first mismatch too
  f = grade_order(i, {1, 2, 3, 4, 0});
  EXPECT_NE(f.message.find("“forward”"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("position 5"), std::string::npos) << f.message;
  f = grade_order(i, {4, 3, 2, 1, 0});
  EXPECT_DOUBLE_EQ(f.score, 0.2);
}

TEST(Ordering, MalformedOrders) {
  Pack pk = order_pack();
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_order(i, {0, 1, 2}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_order(i, {0, 1, 2, 3, 3}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_order(i, {0, 1, 2, 3, 7}).verdict, Verdict::FormatError);
}

TEST(Ordering, NeverShownAlreadySolved) {
  Pack p = order_pack();
  for (uint64_t s = 0; s < 200; ++s) {
    Instance i = must_instance(p.exercises[0], s);
    EXPECT_NE(i.data_or_empty<OrderingInstance>().order, (std::vector<int>{0, 1, 2, 3, 4})) << "seed " << s;
  }
}
