// The order of the engine's own diagnoses (engine/diagnose.h): a slip the part's unit allows is
// named before a coincidence with one of the instance's values, and a part that asks for a
// fraction takes a fraction or a percentage written with its sign.
#include <gtest/gtest.h>

#include "content_util.h"
#include "diagnose.h"
#include "numeric/numeric.h"
#include "helpers.h"
#include "text.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

// The message for `given` against a one-part exercise with these params, answer and unit.
std::string message_for(const std::string& params, const std::string& answer, const std::string& unit,
                        const std::string& given) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p", "params": {)J" + params +
                               R"J(}, "parts": [{"id": "v", "answer": ")J" + answer + R"J(", "unit": ")J" + unit +
                               R"J("}]})J"));
  return grade_parts(must_instance(p.exercises[0]), {given}).parts[0].message;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const char* kRingParams = R"J("N": {"default": 8, "choices": [4, 8, 16]}, "M": {"default": 1, "min": 1, "max": 4})J";

}  // namespace

// M(N-1)/N = 0.875 GB with N = 8: 7 GB is 8x, bits read as bytes, and N = 8 is mentioned.
TEST(Diagnose, BitsForBytesWithEightGpusNamesBitsAndBytes) {
  std::string big = message_for(kRingParams, "M*(N-1)/N", "GB", "7");
  EXPECT_EQ(big.find("Your answer is 8x the expected value: bits vs bytes"), 0u) << big;
  EXPECT_TRUE(has(big, "8 is also N here, so multiplying by N once too often, or forgetting to divide by N, gives "
                       "the same number."))
      << big;
  std::string small = message_for(kRingParams, "M*(N-1)/N", "GB", "0.109375");
  EXPECT_EQ(small.find("Your answer is 1/8 of the expected value: bits vs bytes"), 0u) << small;
  EXPECT_TRUE(has(small, "8 is also N here, so dividing by N")) << small;
}

// A utilisation of 40 % with BW = 100: 0.4 is a fraction where a percentage is asked.
TEST(Diagnose, PercentSlipWithAParameterOfAHundredNamesPercent) {
  const std::string params = R"J("BW": {"default": 100, "choices": [100, 200]}, "got": {"default": 40})J";
  std::string m = message_for(params, "100*got/BW", "%", "0.4");
  EXPECT_EQ(m.find("Your answer is 1/100 of the expected value: percent vs fraction"), 0u) << m;
  EXPECT_TRUE(has(m, "100 is also BW here")) << m;
  // And the other way, in a part that asks for a fraction.
  std::string f = message_for(params, "got/BW", "", "40");
  EXPECT_EQ(f.find("Your answer is 100x the expected value: percent vs fraction"), 0u) << f;
}

// Where the unit allows no slip of that size, the value is still the diagnosis: 8x in seconds,
// 1/8 of a plain number; a product of two values is named as before.
TEST(Diagnose, WithoutASlipTheValueIsTheDiagnosis) {
  std::string s = message_for(kRingParams, "M*(N-1)/N", "s", "7");
  EXPECT_EQ(s, "Your answer is 8x the expected value; 8 is N here: did you multiply by N once too often, or forget to "
               "divide by N?");
  std::string plain = message_for(kRingParams, "M*(N-1)/N", "", "0.109375");
  EXPECT_TRUE(has(plain, "1/8 of the expected value; 8 is N here: did you divide by N")) << plain;
  // Twice stays "counted twice" with N = 2.
  std::string twice = message_for(R"J("N": {"default": 2, "choices": [2, 4]})J", "3", "GB", "6");
  EXPECT_EQ(twice.find("Your answer is 2x the expected value: something is counted twice"), 0u) << twice;
}

// A product of two values beside a slip is noise, not a step the student took: the slip alone.
TEST(Diagnose, AProductBesideASlipIsNotMentioned) {
  const std::string params = R"J("M": {"default": 2}, "BW": {"default": 50}, "u": {"default": 0.7})J";
  std::string m = message_for(params, "u", "", "70");
  EXPECT_EQ(m, "Your answer is 100x the expected value: percent vs fraction (50% = 0.5).");
}

// A code case's value has no unit: no generic slip but twice applies, so its values come first.
TEST(Diagnose, ACodeCaseValueIsToldTheValue) {
  FactorContext ctx;
  ctx.values = {{"N", 8}};
  std::string m = diagnose_factor(8, 1, 1e-6, 0, ctx);
  EXPECT_TRUE(has(m, "8 is N here: did you multiply by N")) << m;
}

// ring.busbw part 3 asks for a fraction: 0.778 and 77.8 % are both right at seed 0 (77.78 %),
// and 77.8 without its sign is percent vs fraction, not "100 is M×BW here".
TEST(Diagnose, RingBusbwTakesAFractionOrAPercentage) {
  Library lib = load_library(shipped_pack_sources());
  const Exercise* ex = lib.find("ring.busbw");
  ASSERT_NE(ex, nullptr);
  Instance inst = must_instance(*ex, 0);
  ASSERT_EQ(part_values(inst).size(), 3u);
  std::string algbw = format_number(part_values(inst)[0], 6) + " GB/s";
  std::string busbw = format_number(part_values(inst)[1], 6) + " GB/s";
  for (const std::string util : {"0.778", "77.8 %", "77.8%", "0.7778"}) {
    Feedback f = grade_parts(inst, {algbw, busbw, util});
    EXPECT_EQ(f.parts[2].verdict, Verdict::Correct) << util << ": " << f.parts[2].message;
  }
  Feedback bare = grade_parts(inst, {algbw, busbw, "77.8"});
  EXPECT_EQ(bare.parts[2].verdict, Verdict::Incorrect);
  EXPECT_EQ(bare.parts[2].message, "Your answer is 100x the expected value: percent vs fraction (50% = 0.5).");
}

// pipe.efficiency part 2 asks for a fraction too (64/79 = 0.8101 at seed 0).
TEST(Diagnose, PipelineEfficiencyTakesAFractionOrAPercentage) {
  Library lib = load_library(shipped_pack_sources());
  const Exercise* ex = lib.find("pipe.efficiency");
  ASSERT_NE(ex, nullptr);
  Instance inst = must_instance(*ex, 0);
  for (const std::string eff : {"0.8101", "81.01 %"}) {
    Feedback f = grade_parts(inst, {"23.44", eff, "1.234"});
    EXPECT_EQ(f.parts[1].verdict, Verdict::Correct) << eff << ": " << f.parts[1].message;
  }
}
