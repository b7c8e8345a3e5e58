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

// ---- limits: the parser and evaluator recurse, so depth and length are bounded (expr.h)

namespace {
std::string nested(int levels, const std::string& inner = "1") {
  return std::string(levels, '(') + inner + std::string(levels, ')');
}
}  // namespace

TEST(ExprLimits, NestingUpToTheLimitWorks) {
  // The whole expression is the first level, so 63 parentheses reach 64.
  EXPECT_DOUBLE_EQ(ev(nested(kMaxExprNesting - 1)), 1);
  EXPECT_DOUBLE_EQ(ev(std::string(kMaxExprNesting - 1, '-') + "1"), -1);
}

TEST(ExprLimits, NestingPastTheLimitIsAPositionedError) {
  ExprError e = fails(nested(kMaxExprNesting));
  EXPECT_NE(e.message.find("nested deeper than 64 levels"), std::string::npos) << e.message;
  EXPECT_EQ(e.column, 65);  // the 65th level opens after the 64th '('
  // Signs, powers and calls open levels too.
  EXPECT_NE(fails(std::string(100, '-') + "1").message.find("nested deeper"), std::string::npos);
  std::string powers;
  for (int i = 0; i < 100; ++i) powers += "2^";
  EXPECT_NE(fails(powers + "1").message.find("nested deeper"), std::string::npos);
  std::string calls;
  for (int i = 0; i < 100; ++i) calls += "abs(";
  EXPECT_NE(fails(calls + "1" + std::string(100, ')')).message.find("nested deeper"), std::string::npos);
}

TEST(ExprLimits, TenThousandParenthesesFailWithoutCrashing) {
  ExprError e = fails(nested(10000));
  EXPECT_NE(e.message.find("longer than 1000 characters"), std::string::npos) << e.message;
  EXPECT_EQ(e.column, 1001);
  size_t used = 0;
  ExprError pe;
  EXPECT_FALSE(Expr::parse_prefix(nested(10000), false, &used, &pe).valid());
  EXPECT_EQ(used, 0u);
  EXPECT_EQ(pe.column, 1001);
}

TEST(ExprLimits, LengthUpToTheLimitWorks) {
  std::string sum = "1";
  while (sum.size() + 2 <= kMaxExprLength) sum += "+1";
  ASSERT_LE(sum.size(), kMaxExprLength);
  EXPECT_DOUBLE_EQ(ev(sum), static_cast<double>((sum.size() + 1) / 2));
  ExprError e = fails(sum + "+1+1");
  EXPECT_NE(e.message.find("longer than 1000"), std::string::npos) << e.message;
}

TEST(ExprLimits, TheLimitNeverSplitsACharacter) {
  // "×" is two bytes: the error column counts characters, and the cut is on a boundary.
  std::string s = "1";
  while (s.size() < 2000) s += "\xC3\x97" "1";
  ExprError e = fails(s);
  EXPECT_GT(e.column, 600);
  EXPECT_LE(e.column, 1001);
}

TEST(ExprLimits, NumbersTooLargeForADoubleAreErrors) {
  // Found by fuzzing: strtod turns 1e400 into infinity, which was accepted as an answer.
  ExprError e = fails("2*1e400");
  EXPECT_EQ(e.column, 3);
  EXPECT_NE(e.message.find("too large"), std::string::npos) << e.message;
  EXPECT_DOUBLE_EQ(ev("1.7e308"), 1.7e308);
}

// Written out for a derivation: parentheses only where the value needs them, and the result
// reads back to the same number (test_derivation.cpp does this for every shipped answer).
TEST(ExprWritten, KeepsOnlyTheParenthesesPrecedenceNeeds) {
  auto w = [](const char* text) {
    dtx::ExprError err;
    auto e = dtx::Expr::parse(text, &err);
    return e.written([](std::string_view n) { return std::string(n); });
  };
  EXPECT_EQ(w("2*M*(N-1)/N"), "2 × M × (N − 1) / N");
  EXPECT_EQ(w("a-(b-c)"), "a − (b − c)");
  EXPECT_EQ(w("(a-b)-c"), "a − b − c");
  EXPECT_EQ(w("a/(b*c)"), "a / (b × c)");
  EXPECT_EQ(w("a*(b*c)"), "a × b × c");
  EXPECT_EQ(w("-(a+b)"), "−(a + b)");
  EXPECT_EQ(w("2^-1"), "2^(−1)");
  EXPECT_EQ(w("(2^3)^2"), "(2^3)^2");
  EXPECT_EQ(w("max(a, b+1)"), "max(a, b + 1)");
  EXPECT_EQ(w("x/1e15"), "x / 10^15");
  EXPECT_EQ(w("x/9.89e14"), "x / (9.89 × 10^14)");
  EXPECT_EQ(w("1e6*x"), "1000000 × x");
}

TEST(ExprWritten, ShowsTheBranchAnIfTakes) {
  dtx::ExprError err;
  auto e = dtx::Expr::parse("if(m >= p, (p-1)/m, 1)", &err);
  auto scope = [](std::string_view n) -> std::optional<double> { return n == "m" ? 8.0 : 4.0; };
  EXPECT_EQ(e.written([](std::string_view n) { return std::string(n); }, scope), "(p − 1) / m");
  EXPECT_EQ(e.written([](std::string_view n) { return std::string(n); }), "if(m ≥ p, (p − 1) / m, 1)");
}
