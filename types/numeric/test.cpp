#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "content_util.h"
#include "diagnose.h"
#include "numeric/numeric.h"
#include "helpers.h"
#include "text.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

// Ring AllReduce volume: N=8, M=1 GB -> 1.75 GB.
Pack ring_pack(const std::string& tolerance = "") {
  return must_load(pack_with(R"J({"id": "ring.volume", "type": "numeric", "title": "Volume", "prompt": "p",
    "params": {"N": {"default": 8, "choices": [4, 8, 16]}, "M": {"default": 1, "min": 1, "max": 4, "step": 1}},
    "parts": [{"id": "v", "label": "Volume", "answer": "2*M*(N-1)/N", "unit": "GB")J" + tolerance + R"J(,
       "mistakes": [{"answer": "M*(N-1)/N", "message": "One phase only: the all-gather moves {M*(N-1)/N} GB too."},
                    {"answer": "2*M", "message": "Missing (N-1)/N."}]}]})J"));
}

}  // namespace

TEST(Numeric, RightAnswerInTheQuestionsUnit) {
  Pack p = ring_pack();
  Instance i = must_instance(p.exercises[0]);
  Feedback f = grade_parts(i, {"1.75"});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  EXPECT_DOUBLE_EQ(f.score, 1);
  EXPECT_NE(f.message.find("within 1%"), std::string::npos) << f.message;  // tolerance stated
  EXPECT_EQ(grade_parts(i, {"1.75 GB"}).verdict, Verdict::Correct);
}

TEST(Numeric, OtherCompatibleUnits) {
  Pack pk = ring_pack();
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_parts(i, {"1750 MB"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"1,750,000 KB"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"0.00175 TB"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"1.6298 GiB"}).verdict, Verdict::Correct);  // 1.75e9 / 2^30
  EXPECT_EQ(grade_parts(i, {"14 Gb"}).verdict, Verdict::Correct);       // 14 gigabits = 1.75 GB
}

TEST(Numeric, JustInsideAndJustOutsideTolerance) {
  Pack pk = ring_pack();
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_parts(i, {"1.7675"}).verdict, Verdict::Correct);    // +1.0%
  EXPECT_EQ(grade_parts(i, {"1.7325"}).verdict, Verdict::Correct);    // -1.0%
  EXPECT_EQ(grade_parts(i, {"1.7680"}).verdict, Verdict::Incorrect);  // +1.03%
  EXPECT_EQ(grade_parts(i, {"1.7320"}).verdict, Verdict::Incorrect);
}

TEST(Numeric, AbsoluteTolerance) {
  Pack pk = ring_pack(R"J(, "tolerance": {"abs": 0.1})J");
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_parts(i, {"1.84"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"1.86"}).verdict, Verdict::Incorrect);
  Feedback f = grade_parts(i, {"1.8"});
  EXPECT_NE(f.message.find("±0.1 GB"), std::string::npos) << f.message;
}

TEST(Numeric, KnownMistakesGiveTheirMessage) {
  Pack pk = ring_pack();
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_parts(i, {"0.875"});
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_EQ(f.message, "One phase only: the all-gather moves 0.875 GB too.");
  EXPECT_EQ(grade_parts(i, {"875 MB"}).message, f.message);
  EXPECT_EQ(grade_parts(i, {"2 GB"}).message, "Missing (N-1)/N.");
}

TEST(Numeric, BitsVersusBytes) {
  Pack pk = ring_pack();
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_parts(i, {"1750 Mb"});  // right number, bits instead of bytes
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("bits"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("write MB"), std::string::npos) << f.message;
  f = grade_parts(i, {"3 Mb"});
  EXPECT_NE(f.message.find("(bits)"), std::string::npos) << f.message;
}

TEST(Numeric, EngineDiagnosesFactors) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p",
    "parts": [{"id": "v", "answer": "3", "unit": "GB"}]})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_NE(grade_parts(i, {"6"}).message.find("2x"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"1.5"}).message.find("half"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"24"}).message.find("bits vs bytes"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"0.375"}).message.find("bits vs bytes"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"3000"}).message.find("1000x"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"0.003"}).message.find("1/1000"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"3072"}).message.find("1024x"), std::string::npos);
  EXPECT_NE(grade_parts(i, {"3.2212"}).message.find("GiB vs GB"), std::string::npos);
  // Percent vs fraction is for percentages and plain numbers, not for gigabytes.
  EXPECT_EQ(grade_parts(i, {"300"}).message.find("percent"), std::string::npos);
  Feedback plain = grade_parts(i, {"5"});
  EXPECT_NE(plain.message.find("not within 1%"), std::string::npos) << plain.message;
}

TEST(Numeric, FormatErrorsAreNotAttempts) {
  Pack pk = ring_pack();
  Instance i = must_instance(pk.exercises[0]);
  for (const char* bad : {"", "abc", "1,75", "3 ms", "1.75 GBs", "2 +"}) {
    Feedback f = grade_parts(i, {bad});
    EXPECT_EQ(f.verdict, Verdict::FormatError) << bad;
    EXPECT_FALSE(f.counts_as_attempt()) << bad;
    EXPECT_FALSE(f.message.empty()) << bad;
  }
  Feedback f = grade_parts(i, {"3 ms"});
  EXPECT_NE(f.message.find("is a time"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("data size"), std::string::npos) << f.message;
  EXPECT_EQ(grade_parts(i, {"1", "2"}).verdict, Verdict::FormatError);
}

TEST(Numeric, InputSyntaxes) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p",
    "parts": [{"id": "v", "answer": "6.1e-5", "unit": ""}]})J"));
  Instance i = must_instance(p.exercises[0]);
  for (const char* ok : {"6.1e-5", "6.1 × 10^-5", "6.1x10^-5", "6.1 * 10^-5", "0.000061", "61/1000000", "0.0061%"})
    EXPECT_EQ(grade_parts(i, {ok}).verdict, Verdict::Correct) << ok;
  Pack q = must_load(pack_with(R"J({"id": "y", "type": "numeric", "title": "Y", "prompt": "p",
    "parts": [{"id": "v", "answer": "16384", "unit": "GPUs"}]})J"));
  Instance j = must_instance(q.exercises[0]);
  EXPECT_EQ(grade_parts(j, {"16,384"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(j, {"16384 GPUs"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(j, {"2^14"}).verdict, Verdict::Correct);
}

TEST(Numeric, SeveralPartsGivePartialCredit) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p",
    "params": {"mb": {"default": 120, "choices": [120]}, "k": {"default": 64, "choices": [64]}},
    "parts": [{"id": "step", "label": "Step time", "answer": "mb*k + 50", "unit": "ms"},
              {"id": "tput", "label": "Throughput", "answer": "4*k*8/((mb*k+50)/1000)", "unit": "sequences/s"}]})J"));
  Instance i = must_instance(p.exercises[0]);
  Feedback f = grade_parts(i, {"7.73 s", "265 seq/s"});
  EXPECT_EQ(f.verdict, Verdict::Correct);
  f = grade_parts(i, {"7730 ms", "1"});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.5);
  EXPECT_EQ(f.parts[0].verdict, Verdict::Correct);
  EXPECT_EQ(f.parts[1].verdict, Verdict::Incorrect);
  // one unreadable part makes the whole submission a format error
  EXPECT_EQ(grade_parts(i, {"7730 ms", "lots"}).verdict, Verdict::FormatError);
  EXPECT_EQ(grade_parts(i, {"7730 ms", "265 tokens/s"}).verdict, Verdict::FormatError);
}

// Issue 13: a format error in one field names that field and judges no other field: a
// wrong or right neighbour is "not graded yet", never "not right".
TEST(Numeric, FormatErrorNamesTheFieldAndMarksNoOtherField) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p",
    "params": {"mb": {"default": 120, "choices": [120]}, "k": {"default": 64, "choices": [64]}},
    "parts": [{"id": "step", "label": "Step time", "answer": "mb*k + 50", "unit": "ms"},
              {"id": "tput", "label": "Throughput", "answer": "4*k*8/((mb*k+50)/1000)", "unit": "sequences/s"},
              {"id": "third", "answer": "k", "unit": ""}]})J"));
  Instance i = must_instance(p.exercises[0]);
  Feedback f = grade_parts(i, {"1 ms", "lots", "64"});
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_FALSE(f.counts_as_attempt());
  EXPECT_EQ(f.message.rfind("Throughput: ", 0), 0u) << f.message;
  ASSERT_EQ(f.parts.size(), 3u);
  EXPECT_TRUE(f.parts[1].graded);
  EXPECT_EQ(f.parts[1].verdict, Verdict::FormatError);
  for (int k : {0, 2}) {
    EXPECT_FALSE(f.parts[k].graded) << k;  // the wrong "1 ms" is not called wrong, the right "64" not right
    EXPECT_NE(f.parts[k].verdict, Verdict::Incorrect) << k;
    EXPECT_NE(f.parts[k].verdict, Verdict::Correct) << k;
    EXPECT_TRUE(f.parts[k].expected.empty()) << k;
  }
  // A second unreadable field is listed too (a part with no label is named by its id).
  f = grade_parts(i, {"1 ms", "lots", "many"});
  EXPECT_EQ(f.message.rfind("Throughput: ", 0), 0u) << f.message;
  ASSERT_FALSE(f.details.empty());
  EXPECT_EQ(f.details[0].rfind("third: ", 0), 0u) << f.details[0];
}

TEST(Numeric, PercentAnswers) {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p",
    "parts": [{"id": "v", "answer": "(8-1)/(32+8-1)*100", "unit": "%"}]})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_EQ(grade_parts(i, {"17.95%"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"17.95"}).verdict, Verdict::Correct);
  Feedback f = grade_parts(i, {"0.1795"});
  EXPECT_NE(f.message.find("percent vs fraction"), std::string::npos) << f.message;
}

// The empty field's hint names what to type from the part's own unit and holds no number: the
// old fixed hint "e.g. 1.75 or 1.75 GB" was the answer to ring.volume's second part.
TEST(Numeric, InputHintComesFromThePartsUnitAndHasNoNumber) {
  auto hint_for = [](const std::string& unit) {
    Pack p = must_load(pack_with(R"J({"id": "h.x", "type": "numeric", "title": "T", "prompt": "p",
      "parts": [{"id": "a", "answer": "1.75", "unit": ")J" + unit + R"J("}]})J"));
    return part_input_hint(p.exercises[0].spec_as<NumericSpec>()->parts[0]);
  };
  EXPECT_EQ(hint_for("GB"), "in GB or any size unit");
  EXPECT_EQ(hint_for("GB/s"), "in GB/s or any bandwidth unit");
  EXPECT_EQ(hint_for("ms"), "in ms or any time unit");
  EXPECT_EQ(hint_for("TFLOP/s"), "in TFLOP/s or any FLOP/s unit");
  EXPECT_EQ(hint_for("EFLOP"), "in EFLOP or any FLOP unit");
  EXPECT_EQ(hint_for("%"), "a percentage");
  EXPECT_EQ(hint_for("$"), "an amount in $");
  EXPECT_EQ(hint_for(""), "a plain number");
  for (const char* u : {"GB", "GB/s", "ms", "TFLOP/s", "EFLOP", "%", "$", "", "MB", "h", "day", "us", "TB", "FLOP"})
    EXPECT_EQ(hint_for(u).find_first_of("0123456789"), std::string::npos) << u;
}

// What the page's live region says: sentences with the part's number and label, never a code.
TEST(Numeric, SpokenFeedbackNamesEachPartInWords) {
  Pack p = ring_pack();
  Instance i = must_instance(p.exercises[0]);
  std::string right = spoken_feedback(grade_parts(i, {"1.75 GB"}));
  EXPECT_EQ(right.rfind("Correct.", 0), 0u) << right;
  EXPECT_NE(right.find("Part 1, Volume: Correct: 1.75 GB matches 1.75 GB (within 1%)."), std::string::npos) << right;
  std::string mistake = spoken_feedback(grade_parts(i, {"0.875"}));
  EXPECT_EQ(mistake.rfind("Not right yet.", 0), 0u) << mistake;
  EXPECT_NE(mistake.find("Part 1, Volume: One phase only"), std::string::npos) << mistake;
  std::string unreadable = spoken_feedback(grade_parts(i, {"lots"}));
  EXPECT_EQ(unreadable.rfind("Not graded: part of the answer could not be read", 0), 0u) << unreadable;
  EXPECT_EQ(unreadable.find("format-error"), std::string::npos) << unreadable;
  EXPECT_NE(unreadable.find("Part 1, Volume: "), std::string::npos) << unreadable;
}

// "integer": true: a count is right or wrong, with no tolerance, and the feedback says so.
TEST(Numeric, IntegerPartsAreGradedExactly) {
  Pack pk = must_load(pack_with(R"J({"id": "pipe.steps", "type": "numeric", "title": "Steps", "prompt": "p",
    "params": {"p": {"default": 4, "choices": [2, 4, 8]}, "m": {"default": 100, "min": 8, "max": 128, "step": 4}},
    "parts": [{"id": "steps", "answer": "m + p - 1", "unit": "steps", "integer": true}]})J"));
  Instance i = must_instance(pk.exercises[0]);  // 100 + 4 - 1 = 103
  EXPECT_EQ(grade_parts(i, {"103"}).verdict, Verdict::Correct);
  EXPECT_EQ(grade_parts(i, {"103 steps"}).verdict, Verdict::Correct);
  // 102 is within 1 % of 103: a tolerance would call it right.
  Feedback f = grade_parts(i, {"102"});
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.parts[0].message.find("graded exactly"), std::string::npos) << f.parts[0].message;
  EXPECT_EQ(grade_parts(i, {"103.5"}).verdict, Verdict::Incorrect);
  // The instructor's key says so too.
  auto key = pk.exercises[0].spec->answer_key(pk.exercises[0], i);
  ASSERT_EQ(key.size(), 1u);
  EXPECT_NE(key[0].find("= 103 steps  (exactly)"), std::string::npos) << key[0];
  // Without "integer", the same 102 is within the default 1 %.
  Pack loose = must_load(pack_with(R"J({"id": "pipe.steps", "type": "numeric", "title": "Steps", "prompt": "p",
    "params": {"p": {"default": 4, "choices": [2, 4, 8]}, "m": {"default": 100, "min": 8, "max": 128, "step": 4}},
    "parts": [{"id": "steps", "answer": "m + p - 1", "unit": "steps"}]})J"));
  EXPECT_EQ(grade_parts(must_instance(loose.exercises[0]), {"102"}).verdict, Verdict::Correct);
}

// "plausible" and "integer" are read as declared, and refused when malformed.
TEST(Numeric, PlausibleRangeIsReadAndChecked) {
  Pack pk = must_load(pack_with(R"J({"id": "hw.mfu", "type": "numeric", "title": "MFU", "prompt": "p",
    "parts": [{"id": "mfu", "answer": "40", "unit": "%", "plausible": {"min": 0, "max": 100}}]})J"));
  const auto* spec = dynamic_cast<const NumericSpec*>(pk.exercises[0].spec.get());
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->parts[0].plausible_min, 0.0);
  EXPECT_EQ(spec->parts[0].plausible_max, 100.0);
  for (const char* bad : {R"J({})J", R"J({"min": 5, "max": 1})J", R"J({"low": 0})J", R"J([0, 100])J"}) {
    LoadResult r = load_pack(pack_with(std::string(R"J({"id": "hw.mfu", "type": "numeric", "title": "MFU", "prompt": "p",
      "parts": [{"id": "mfu", "answer": "40", "unit": "%", "plausible": )J") + bad + "}]}"), "x.json");
    EXPECT_FALSE(r.ok()) << bad;
  }
  LoadResult r = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "n", "answer": "4", "unit": "GPUs", "integer": "yes"}]})J"), "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::WrongKind);
}

// Each generic diagnosis only where it can happen, and before the instance's own values: an
// answer 8x too small in GB with TP = 8 is bits vs bytes, with TP mentioned; without a slip
// for the unit (seconds, a plain number), TP is the diagnosis.
TEST(Numeric, DiagnosesFollowTheUnitAndTheInstance) {
  auto msg = [](const std::string& unit, const std::string& params, const std::string& given) {
    Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p", "params": {)J" + params +
                                 R"J(}, "parts": [{"id": "v", "answer": "3", "unit": ")J" + unit + R"J("}]})J"));
    return grade_parts(must_instance(p.exercises[0]), {given}).parts[0].message;
  };
  const std::string none = R"J("Z": {"default": 1})J", tp = R"J("TP": {"default": 8, "choices": [4, 8]})J";
  // Bits vs bytes: data only.
  EXPECT_NE(msg("GB", none, "0.375").find("bits vs bytes"), std::string::npos);
  EXPECT_EQ(msg("ms", none, "0.375").find("bits vs bytes"), std::string::npos) << msg("ms", none, "0.375");
  EXPECT_EQ(msg("", none, "24").find("bits vs bytes"), std::string::npos);
  // Binary prefixes: a data unit with a prefix.
  EXPECT_NE(msg("GB", none, "3.2212").find("GiB vs GB"), std::string::npos);
  EXPECT_EQ(msg("", none, "3.2212").find("GiB"), std::string::npos) << msg("", none, "3.2212");
  EXPECT_EQ(msg("B", none, "3072").find("1024"), std::string::npos) << msg("B", none, "3072");
  // Unit prefixes need a unit; percent vs fraction needs a percentage or a plain number.
  EXPECT_EQ(msg("", none, "3000").find("unit prefix"), std::string::npos) << msg("", none, "3000");
  EXPECT_NE(msg("%", none, "0.03").find("percent vs fraction"), std::string::npos);
  EXPECT_NE(msg("", none, "300").find("percent vs fraction"), std::string::npos);
  // The instance's values: TP = 8 explains 1/8 and 8x where no slip does (seconds, a plain
  // number); in GB the slip comes first and TP is mentioned after it.
  std::string small = msg("s", tp, "0.375");
  EXPECT_NE(small.find("8 is TP here"), std::string::npos) << small;
  EXPECT_NE(small.find("divide by TP"), std::string::npos) << small;
  EXPECT_NE(msg("", tp, "24").find("multiply by TP"), std::string::npos) << msg("", tp, "24");
  std::string data = msg("GB", tp, "0.375");
  EXPECT_EQ(data.find("Your answer is 1/8 of the expected value: bits vs bytes"), 0u) << data;
  EXPECT_NE(data.find("8 is also TP here, so dividing by TP"), std::string::npos) << data;
  // Twice is still "counted twice", whatever the parameters.
  EXPECT_NE(msg("GB", R"J("N": {"default": 2, "choices": [2, 4]})J", "6").find("2x"), std::string::npos);
  // A product of two values: 32 = TP x PP.
  std::string both = msg("s", R"J("TP": {"default": 8, "choices": [4, 8]}, "PP": {"default": 4, "choices": [4, 8]})J", "96");
  EXPECT_NE(both.find("32 is TP×PP here"), std::string::npos) << both;
}

// Every shipped numeric exercise over 10 seeds: an answer off by exactly one of the instance's
// values (other than 2, which stays "counted twice") is told which value: as the diagnosis
// ("8 is TP here: did you...") or, where a slip the unit allows has the same factor (bits vs
// bytes when N = 8), after the slip ("8 is also N here").
TEST(Numeric, AnAnswerOffByAnInstanceValueIsToldWhichValue) {
  Library lib = load_library(shipped_pack_sources());
  int checked = 0;
  for (const auto& pk : lib.packs)
    for (const auto& ex : pk.exercises) {
      const auto* spec = dynamic_cast<const NumericSpec*>(ex.spec.get());
      if (!spec) continue;
      for (uint64_t seed = 0; seed < 10; ++seed) {
        Instance inst = must_instance(ex, seed);
        for (size_t i = 0; i < spec->parts.size(); ++i) {
          const NumericPart& part = spec->parts[i];
          for (const auto& p : ex.params) {
            double v = *inst.value(p.name);
            if (!(std::fabs(v) > 1) || v == 2 || std::fabs(v - 1) <= 2 * part.rel) continue;
            for (double k : {v, 1 / v}) {
              std::vector<std::string> answers;
              for (size_t j = 0; j < spec->parts.size(); ++j)
                answers.push_back(format_number(inst.data_or_empty<NumericInstance>().part_values[j] * (j == i ? k : 1), 12));
              Feedback f = grade_parts(inst, answers);
              const std::string& m = f.parts[i].message;
              // A listed mistake may explain it first; otherwise the value is named.
              bool listed = std::any_of(part.mistakes.begin(), part.mistakes.end(),
                                        [&](const NumericMistake& mk) { return m == inst.render(mk.message); });
              if (listed || f.parts[i].verdict == Verdict::Correct) continue;
              const auto slips = slips_for(&part.unit);
              bool slip = std::any_of(slips.begin(), slips.end(), [&](const auto& s) {
                return s.first != 2 && s.first != 0.5 && near_factor(k, 1, s.first, part.rel, 0);
              });
              bool named = slip ? m.find(" is also ") != std::string::npos : m.find(" here: did you") != std::string::npos;
              EXPECT_TRUE(named)
                  << ex.id << " seed " << seed << " part " << part.id << ", off by " << p.name << " = " << v << ": " << m;
              ++checked;
            }
          }
        }
      }
    }
  EXPECT_GT(checked, 1000);
}
