// engine/figures.h: every figure dtx prints (dtx sim, the Lab widgets, feedback) has 4
// significant digits, trailing zeros trimmed, and the prefix that keeps it under 1000.
#include "figures.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dtx {
namespace {

TEST(Figures, BytesUseDecimalPrefixesAndFourDigits) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1750000000), "1.75 GB");
  EXPECT_EQ(format_bytes(14e9), "14 GB");
  EXPECT_EQ(format_bytes(3.255e9), "3.255 GB");
  EXPECT_EQ(format_bytes(123456789), "123.5 MB");
  EXPECT_EQ(format_bytes(-2.5e6), "-2.5 MB");
  // Rounding to 4 digits that reaches 1000 takes the next prefix, never "1000 MB".
  EXPECT_EQ(format_bytes(999.96e6), "1 GB");
  EXPECT_EQ(format_bytes(999.94e6), "999.9 MB");
  EXPECT_EQ(format_bytes(2e21), "2000 EB");  // past the last prefix: the number grows
}

TEST(Figures, BinaryPrefixesCountBy1024) {
  EXPECT_EQ(format_bytes_binary(1024), "1 KiB");
  EXPECT_EQ(format_bytes_binary(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
  EXPECT_EQ(format_bytes_binary(1000), "1000 B");
}

TEST(Figures, FixedGigabytesForTablesWhoseRowsAreCompared) {
  EXPECT_EQ(format_gb(13.476e9), "13.48 GB");
  EXPECT_EQ(format_gb(212e9), "212 GB");
  EXPECT_EQ(format_gb(5e6), "0.005 GB");
}

TEST(Figures, SecondsPickTheirUnit) {
  EXPECT_EQ(format_seconds(0), "0 s");
  EXPECT_EQ(format_seconds(0.03507), "35.07 ms");
  EXPECT_EQ(format_seconds(139e-6), "139 µs");
  EXPECT_EQ(format_seconds(20e-9), "20 ns");
  EXPECT_EQ(format_seconds(2.5), "2.5 s");
  EXPECT_EQ(format_seconds(9000), "2.5 h");
  EXPECT_EQ(format_seconds(3 * 86400), "3 days");
}

TEST(Figures, RatesAndCountsTakeSiPrefixes) {
  EXPECT_EQ(format_si(28.51e9, "B/s"), "28.51 GB/s");
  EXPECT_EQ(format_si(989e12, "FLOP/s"), "989 TFLOP/s");
  EXPECT_EQ(format_si(1.374e11, "FLOP"), "137.4 GFLOP");
  EXPECT_EQ(format_si(12, "FLOP"), "12 FLOP");
}

TEST(Figures, PercentagesOfFractions) {
  EXPECT_EQ(format_percent(0.4521), "45.2%");
  EXPECT_EQ(format_percent(0.272727, 4), "27.27%");
  EXPECT_EQ(format_percent(0.6), "60%");
}

TEST(Figures, NotFiniteValuesStillPrint) {
  EXPECT_FALSE(format_bytes(NAN).empty());
  EXPECT_FALSE(format_seconds(INFINITY).empty());
}

TEST(Figures, OptionLettersAToZ) {
  EXPECT_EQ(option_letter(0), "A");
  EXPECT_EQ(option_letter(25), "Z");
  EXPECT_EQ(option_letter(26), "?");
}

}  // namespace
}  // namespace dtx
