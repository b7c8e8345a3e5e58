#include <gtest/gtest.h>

#include <cmath>

#include "expr.h"

using namespace dtx;

namespace {

double ev(const std::string& s, ExprScope scope = nullptr) {
  ExprError err;
  auto v = eval_expr(s, scope, &err);
  EXPECT_TRUE(v.has_value()) << s << ": " << err.message << " at " << err.column;
  return v.value_or(NAN);
}

ExprError fails(const std::string& s, ExprScope scope = nullptr) {
  ExprError err;
  auto v = eval_expr(s, scope, &err);
  EXPECT_FALSE(v.has_value()) << s << " evaluated to " << v.value_or(0);
  return err;
}

ExprScope vars() {
  return [](std::string_view n) -> std::optional<double> {
    if (n == "N") return 8;
    if (n == "M") return 2;
    if (n == "answer.time") return 70;
    return std::nullopt;
  };
}

}  // namespace

TEST(Expr, ArithmeticAndPrecedence) {
  EXPECT_DOUBLE_EQ(ev("1 + 2 * 3"), 7);
  EXPECT_DOUBLE_EQ(ev("(1 + 2) * 3"), 9);
  EXPECT_DOUBLE_EQ(ev("7 / 2"), 3.5);
  EXPECT_DOUBLE_EQ(ev("10 - 4 - 3"), 3);  // left-associative
  EXPECT_DOUBLE_EQ(ev("2 ^ 3 ^ 2"), 512);  // right-associative
  EXPECT_DOUBLE_EQ(ev("-2 ^ 2"), -4);      // unary minus binds looser than ^
  EXPECT_DOUBLE_EQ(ev("2 ^ -1"), 0.5);
  EXPECT_DOUBLE_EQ(ev("--3"), 3);
  EXPECT_DOUBLE_EQ(ev("6.1e-5 * 1e5"), 6.1);
  EXPECT_DOUBLE_EQ(ev(".5 + 1."), 1.5);
}

TEST(Expr, ParametersAndFunctions) {
  EXPECT_DOUBLE_EQ(ev("2*M*(N-1)/N", vars()), 3.5);
  EXPECT_DOUBLE_EQ(ev("answer.time / 10", vars()), 7);
  EXPECT_DOUBLE_EQ(ev("ceil(2048/(4*8*3))"), 22);
  EXPECT_DOUBLE_EQ(ev("floor(2.7) + round(2.5) + abs(-1)"), 6);
  EXPECT_DOUBLE_EQ(ev("sqrt(16) + log2(1024) + log10(1000)"), 17);
  EXPECT_NEAR(ev("log(exp(2))"), 2, 1e-12);
  EXPECT_DOUBLE_EQ(ev("min(3, 1, 2) + max(3, 9)"), 10);
  EXPECT_DOUBLE_EQ(ev("if(N > 4, 1, 2)", vars()), 1);
  EXPECT_DOUBLE_EQ(ev("(N >= 8) + (N == 8) + (N != 8) + (N < 8 || M == 2) + (N > 1 && M > 5)", vars()), 3);
}

TEST(Expr, ProseMultiplicationSigns) {
  EXPECT_DOUBLE_EQ(ev("2 × 3"), 6);
  EXPECT_DOUBLE_EQ(ev("6.1x10^2"), 610);
  EXPECT_DOUBLE_EQ(ev("3 − 1"), 2);  // U+2212
}

TEST(Expr, ParseErrorsNameTheColumn) {
  ExprError e = fails("2*M*(N-1/N");
  EXPECT_EQ(e.column, 11);
  EXPECT_NE(e.message.find("')'"), std::string::npos) << e.message;

  e = fails("2 + * 3");
  EXPECT_EQ(e.column, 5);

  e = fails("sqroot(4)");
  EXPECT_EQ(e.column, 1);
  EXPECT_NE(e.message.find("unknown function 'sqroot'"), std::string::npos);

  e = fails("max(1)");
  EXPECT_NE(e.message.find("at least 2"), std::string::npos) << e.message;

  e = fails("1 2");
  EXPECT_EQ(e.column, 3);

  e = fails("");
  EXPECT_NE(e.message.find("nothing"), std::string::npos);

  e = fails("min + 1");
  EXPECT_NE(e.message.find("is a function"), std::string::npos);
}

TEST(Expr, EvaluationErrors) {
  ExprError e = fails("M / (N - 8)", vars());
  EXPECT_NE(e.message.find("division by zero"), std::string::npos);
  EXPECT_EQ(e.column, 3);
  e = fails("K * 2", vars());
  EXPECT_NE(e.message.find("unknown name 'K'"), std::string::npos);
  EXPECT_EQ(e.column, 1);
  fails("sqrt(-1)");
  fails("log(0)");
  fails("10 ^ 400");  // not finite
}

TEST(Expr, IfOnlyEvaluatesTheTakenBranch) {
  EXPECT_DOUBLE_EQ(ev("if(N == 8, 1, 1/0)", vars()), 1);
  EXPECT_DOUBLE_EQ(ev("N == 8 || 1/0", vars()), 1);
}

TEST(Expr, NamesAreListedOnce) {
  ExprError err;
  Expr e = Expr::parse("2*M*(N-1)/N + M", &err);
  ASSERT_TRUE(e.valid());
  EXPECT_EQ(e.names(), (std::vector<std::string>{"M", "N"}));
}

TEST(Expr, PrefixParsingStopsBeforeAUnit) {
  size_t used = 0;
  ExprError err;
  Expr e = Expr::parse_prefix("875 MB", false, &used, &err);
  ASSERT_TRUE(e.valid());
  EXPECT_EQ(used, 3u);
  e = Expr::parse_prefix("2*7/8 GB/s", false, &used, &err);
  ASSERT_TRUE(e.valid());
  EXPECT_EQ(used, 5u);
  e = Expr::parse_prefix("5 min", false, &used, &err);
  ASSERT_TRUE(e.valid());
  EXPECT_EQ(used, 1u);
  e = Expr::parse_prefix("2EB", false, &used, &err);  // not an exponent
  ASSERT_TRUE(e.valid());
  EXPECT_EQ(used, 1u);
}
