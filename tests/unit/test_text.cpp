#include <gtest/gtest.h>

#include "text.h"

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
