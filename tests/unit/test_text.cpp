#include <gtest/gtest.h>

#include "helpers.h"
#include "text.h"
#include "text_functions.h"

using namespace dtx;

TEST(FormatNumber, ProseFriendly) {
  EXPECT_EQ(format_number(1.75), "1.75");
  EXPECT_EQ(format_number(0.875), "0.875");
  EXPECT_EQ(format_number(29.3125), "29.31");
  EXPECT_EQ(format_number(2048), "2048");
  EXPECT_EQ(format_number(16384), "16,384");
  EXPECT_EQ(format_number(405e9), "405,000,000,000");
  EXPECT_EQ(format_number(1e9), "1,000,000,000");
  EXPECT_EQ(format_number(6.1e-5), "6.1 × 10^-5");
  EXPECT_EQ(format_number(3.8e25), "3.8 × 10^25");
  // prose shows the power in superscript digits
  EXPECT_EQ(superscript_power(format_number(6.1e-5)), "6.1 × 10\u207B\u2075");
  EXPECT_EQ(superscript_power(format_number(3.8e25)), "3.8 × 10\u00B2\u2075");
  EXPECT_EQ(superscript_power("16,384"), "16,384");
  size_t len = 0;
  auto e = superscript_integer("10\u207B\u2075 s", 2, &len);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, -5);
  EXPECT_EQ(len, 6u);
  EXPECT_FALSE(superscript_integer("10^5", 2, &len).has_value());
  EXPECT_FALSE(superscript_integer("10\u2075\u2075\u2075\u2075\u2075", 2, &len).has_value()) << "at most 4 digits";
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(-0.5), "-0.5");
  EXPECT_EQ(format_number(999.99), "1000");
  EXPECT_EQ(format_number(2.0 / 3.0, 3), "0.667");
  EXPECT_EQ(format_number(0.001), "0.001");
}

TEST(FormatNumber, NeverPrintsCExponents) {
  for (double v : {1e9, 1.5e12, 7e14, 2e15, 1e-7, 123456789.0})
    EXPECT_EQ(format_number(v).find("e+"), std::string::npos) << v;
}

TEST(Tolerance, Within) {
  EXPECT_TRUE(within(1.01, 1.0, 0.01, 0));
  EXPECT_TRUE(within(0.99, 1.0, 0.01, 0));
  EXPECT_FALSE(within(1.0101, 1.0, 0.01, 0));
  EXPECT_TRUE(within(0.4, 0.0, 0.01, 0.5));
  EXPECT_EQ(describe_tolerance(0.01, 0, "GB"), "within 1%");
  EXPECT_EQ(describe_tolerance(0, 0.5, "GB"), "within ±0.5 GB");
}

TEST(Utf8, ColumnsCountCharacters) {
  EXPECT_EQ(utf8_column("µs x", 3), 3);  // µ is two bytes but one column
  EXPECT_EQ(utf8_column("abc", 0), 1);
}

// ---------------------------------------------------------------- text functions

TEST(TextFunctions, PluralAndIfFollowTheInstance) {
  auto render_at = [](uint64_t seed) {
    Pack p = dtx::testing::must_load(dtx::testing::pack_with(R"J({"id": "t.f", "type": "numeric", "title": "T",
      "prompt": "{plural(m, 'micro-batch')} on {if(p >= 16, 'a deep', 'a shallow')} pipeline; {plural(m, 'copy')}, {plural(m, 'matrix', 'matrices')}.",
      "params": {"p": {"default": 16, "choices": [4, 16]}, "m": {"default": 1, "choices": [1, 3]}},
      "parts": [{"id": "b", "answer": "(p-1)/m", "unit": ""}]})J"));
    Instance i = dtx::testing::must_instance(p.exercises[0], seed);
    return std::make_pair(i, i.render(p.exercises[0].prompt));
  };
  auto [def, text] = render_at(0);
  EXPECT_EQ(text, "1 micro-batch on a deep pipeline; 1 copy, 1 matrix.");
  bool saw_other = false;
  for (uint64_t seed = 1; seed < 40; ++seed) {
    auto [inst, t] = render_at(seed);
    double p = *inst.value("p"), m = *inst.value("m");
    std::string want = (m == 1 ? std::string("1 micro-batch") : "3 micro-batches") + " on " +
                       (p >= 16 ? "a deep" : "a shallow") + " pipeline; " + (m == 1 ? "1 copy, 1 matrix." : "3 copies, 3 matrices.");
    EXPECT_EQ(t, want) << "seed " << seed;
    saw_other |= m == 3 && p == 4;
  }
  EXPECT_TRUE(saw_other);
}

TEST(TextFunctions, EnglishPluralsAndParsing) {
  EXPECT_EQ(english_plural("GPU"), "GPUs");
  EXPECT_EQ(english_plural("micro-batch"), "micro-batches");
  EXPECT_EQ(english_plural("pass"), "passes");
  EXPECT_EQ(english_plural("copy"), "copies");
  EXPECT_EQ(english_plural("day"), "days");
  TextFunctionError err;
  // The expression language's numeric if() is not a text function.
  EXPECT_FALSE(parse_text_function("if(p > 2, 1, 0)", &err));
  EXPECT_TRUE(err.message.empty());
  EXPECT_FALSE(parse_text_function("N-1", &err));
  EXPECT_TRUE(err.message.empty());
  auto f = parse_text_function(" plural ( n , \"it\\\"s\" ) ", &err);
  ASSERT_TRUE(f) << err.message;
  EXPECT_EQ(f->texts[0], "it\"s");
  // Malformed: each says what is wrong, at the place.
  for (const char* bad : {"if(p > 2, 'a')", "plural(m, 'x)", "plural(m 'x')", "plural('x', m)", "if(p >, 'a', 'b')",
                          "plural(m, 'x', 'y', 'z')", "plural(m, 'x') extra"}) {
    EXPECT_FALSE(parse_text_function(bad, &err)) << bad;
    EXPECT_FALSE(err.message.empty()) << bad;
    EXPECT_LE(err.offset, std::string(bad).size()) << bad;
  }
}
