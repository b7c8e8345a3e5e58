#include <gtest/gtest.h>

#include "units.h"

using namespace dtx;

namespace {

Unit unit(const std::string& s) {
  std::string err;
  auto u = parse_unit(s, &err);
  EXPECT_TRUE(u.has_value()) << s << ": " << err;
  return u.value_or(Unit{});
}

QuantityInput qty(const std::string& s) {
  std::string err;
  auto q = parse_quantity(s, &err);
  EXPECT_TRUE(q.has_value()) << s << ": " << err;
  return q.value_or(QuantityInput{});
}

std::string qty_error(const std::string& s) {
  std::string err;
  auto q = parse_quantity(s, &err);
  EXPECT_FALSE(q.has_value()) << s;
  return err;
}

}  // namespace

TEST(Units, BytesDecimalAndBinary) {
  EXPECT_DOUBLE_EQ(unit("GB").factor, 1e9);
  EXPECT_DOUBLE_EQ(unit("PB").factor, 1e15);
  EXPECT_DOUBLE_EQ(unit("kB").factor, 1e3);
  EXPECT_DOUBLE_EQ(unit("GiB").factor, 1073741824.0);
  EXPECT_DOUBLE_EQ(unit("PiB").factor, 1125899906842624.0);
  EXPECT_EQ(unit("GB").family, DataFamily::Bytes);
  EXPECT_TRUE(unit("MiB").binary_prefix);
}

TEST(Units, BitsConvertToBytes) {
  EXPECT_DOUBLE_EQ(unit("Gb").factor, 1e9 / 8);
  EXPECT_EQ(unit("Mb").family, DataFamily::Bits);
  EXPECT_TRUE(unit("Gb") .dim == unit("GB").dim);  // compatible, different family
}

TEST(Units, Rates) {
  EXPECT_DOUBLE_EQ(unit("GB/s").factor, 1e9);
  EXPECT_DOUBLE_EQ(unit("Gb/s").factor, 1e9 / 8);
  EXPECT_DOUBLE_EQ(unit("Gbps").factor, 1e9 / 8);
  EXPECT_DOUBLE_EQ(unit("GB/ms").factor, 1e12);
  EXPECT_TRUE(unit("GB/s").dim == unit("Tb/s").dim);
  EXPECT_FALSE(unit("GB/s").dim == unit("GB").dim);
}

TEST(Units, Time) {
  EXPECT_DOUBLE_EQ(unit("ns").factor, 1e-9);
  EXPECT_DOUBLE_EQ(unit("us").factor, 1e-6);
  EXPECT_DOUBLE_EQ(unit("µs").factor, 1e-6);
  EXPECT_DOUBLE_EQ(unit("μs").factor, 1e-6);  // Greek mu
  EXPECT_DOUBLE_EQ(unit("min").factor, 60);
  EXPECT_DOUBLE_EQ(unit("h").factor, 3600);
  EXPECT_DOUBLE_EQ(unit("day").factor, 86400);
  EXPECT_DOUBLE_EQ(unit("days").factor, 86400);
}

TEST(Units, ComputeAndOthers) {
  EXPECT_DOUBLE_EQ(unit("TFLOP").factor, 1e12);
  EXPECT_DOUBLE_EQ(unit("EFLOP").factor, 1e18);
  EXPECT_DOUBLE_EQ(unit("TFLOP/s").factor, 1e12);
  EXPECT_DOUBLE_EQ(unit("TFLOPS").factor, 1e12);
  EXPECT_TRUE(unit("PFLOP/s").dim == unit("TFLOPS").dim);
  EXPECT_FALSE(unit("TFLOP").dim == unit("TFLOP/s").dim);
  EXPECT_DOUBLE_EQ(unit("%").factor, 0.01);
  EXPECT_TRUE(unit("%").dim == unit("").dim);
  EXPECT_EQ(unit("$").dim.money, 1);
  EXPECT_TRUE(unit("tokens/s").dim == unit("tok/s").dim);
  EXPECT_FALSE(unit("tokens/s").dim == unit("sequences/s").dim);
}

TEST(Units, UnknownUnitsExplain) {
  std::string err;
  EXPECT_FALSE(parse_unit("gb", &err));
  EXPECT_NE(err.find("GB (bytes) or Gb (bits)"), std::string::npos) << err;
  EXPECT_FALSE(parse_unit("furlongs", &err));
  EXPECT_NE(err.find("unknown unit 'furlongs'"), std::string::npos);
}

TEST(QuantityInput, EverySyntax) {
  EXPECT_DOUBLE_EQ(qty("0.875").value, 0.875);
  EXPECT_DOUBLE_EQ(qty("6.1e-5").value, 6.1e-5);
  EXPECT_DOUBLE_EQ(qty("6.1 × 10^-5").value, 6.1e-5);
  EXPECT_DOUBLE_EQ(qty("6.1x10^-5").value, 6.1e-5);
  EXPECT_DOUBLE_EQ(qty("6.1 x 10^-5").value, 6.1e-5);
  // pasted from a prompt, where the page writes the power in superscript digits
  EXPECT_DOUBLE_EQ(qty("6.1 × 10\u207B\u2075").value, 6.1e-5);
  EXPECT_DOUBLE_EQ(qty("3.8 × 10\u00B2\u2075 FLOP").value, 3.8e25);
  EXPECT_DOUBLE_EQ(qty("6.1*10^-5").value, 6.1e-5);
  EXPECT_DOUBLE_EQ(qty("16,384").value, 16384);
  EXPECT_DOUBLE_EQ(qty("1,000,000 tokens").value, 1e6);
  EXPECT_DOUBLE_EQ(qty("2*7/8").value, 1.75);
  EXPECT_DOUBLE_EQ(qty("  −3 ").value, -3);
  EXPECT_DOUBLE_EQ(qty("$2.5").value, 2.5);
  EXPECT_EQ(qty("$2.5").unit->symbol, "$");
  EXPECT_FALSE(qty("42").unit.has_value());
}

TEST(QuantityInput, WithUnits) {
  auto q = qty("875 MB");
  EXPECT_DOUBLE_EQ(q.value, 875);
  ASSERT_TRUE(q.unit);
  EXPECT_EQ(q.unit->symbol, "MB");
  EXPECT_EQ(qty("875MB").unit->symbol, "MB");
  EXPECT_EQ(qty("2 * 7 / 8 GB").unit->symbol, "GB");
  EXPECT_EQ(qty("70 ms").unit->factor, 1e-3);
  EXPECT_EQ(qty("12%").unit->symbol, "%");
  EXPECT_EQ(qty("5 min").unit->factor, 60);
  EXPECT_EQ(qty("400 Gbps").unit->symbol, "Gb/s");
}

TEST(QuantityInput, MalformedInputExplains) {
  EXPECT_NE(qty_error("").find("empty"), std::string::npos);
  EXPECT_NE(qty_error("1,5").find("thousands separator"), std::string::npos);
  EXPECT_NE(qty_error("abc").find("could not read"), std::string::npos);
  EXPECT_NE(qty_error("1.75 GBs").find("unknown unit"), std::string::npos);
  EXPECT_NE(qty_error("2 +").find("could not read"), std::string::npos);
  EXPECT_NE(qty_error("1/0").find("division by zero"), std::string::npos);
  EXPECT_NE(qty_error("$5 GB").find("not both"), std::string::npos);
}

// ---- limits: a student's answer is refused past kMaxAnswerLength characters (units.h)

TEST(QuantityLimits, LongAnswersAreRefusedBeforeParsing) {
  std::string ok = "1";
  while (ok.size() + 2 <= kMaxAnswerLength) ok += "+1";
  EXPECT_DOUBLE_EQ(qty(ok).value, static_cast<double>((ok.size() + 1) / 2));
  std::string err = qty_error(std::string(kMaxAnswerLength + 1, '1'));
  EXPECT_NE(err.find("201 characters long; answers are limited to 200 characters"), std::string::npos) << err;
  // The message does not repeat a huge answer back.
  std::string huge = std::string(10000, '(') + "1" + std::string(10000, ')');
  err = qty_error(huge);
  EXPECT_LT(err.size(), 200u) << err;
  EXPECT_NE(err.find("20,001 characters"), std::string::npos) << err;
  // Characters, not bytes: 200 "×" signs are 400 bytes and still within the limit's count.
  std::string times;
  for (size_t i = 0; i < kMaxAnswerLength; ++i) times += "\xC3\x97";
  EXPECT_EQ(qty_error(times).find("characters long"), std::string::npos);
}

TEST(QuantityLimits, DeepAnswersWithinTheLengthAreAFormatError) {
  std::string deep = std::string(70, '(') + "1" + std::string(70, ')');
  std::string err = qty_error(deep);
  EXPECT_NE(err.find("nested deeper than 64 levels"), std::string::npos) << err;
  EXPECT_NE(err.find("at character 65"), std::string::npos) << err;
}
