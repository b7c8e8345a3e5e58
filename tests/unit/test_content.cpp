// Every shipped exercise, over 20 seeds: the engine's own answer grades correct and each
// known mistake grades incorrect with its own message. Runs natively and under node (wasm).
#include <gtest/gtest.h>

#include <map>

#include "content_util.h"
#include "grade/buggy_line.h"
#include "grade/choice.h"
#include "grade/numeric.h"
#include "grade/ordering.h"
#include "helpers.h"
#include "lint.h"
#include "text.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

constexpr uint64_t kSeeds = 20;

const Library& library() {
  static Library lib = load_library(shipped_pack_sources());
  return lib;
}

}  // namespace

TEST(Content, EveryPackLoadsAndLintsClean) {
  const Library& lib = library();
  ASSERT_FALSE(lib.packs.empty());
  std::string all;
  for (const auto& d : lib.diagnostics) all += format_diagnostic(d) + "\n";
  for (const auto& d : lint_library(lib, nullptr)) all += format_diagnostic(d) + "\n";
  EXPECT_EQ(all, "");
}

TEST(Content, NumericAnswersAndKnownMistakes) {
  int checked = 0;
  for (const auto& pack : library().packs)
    for (const auto& ex : pack.exercises) {
      const auto* spec = ex.spec_as<NumericSpec>();
      if (!spec) continue;
      for (uint64_t seed = 0; seed < kSeeds; ++seed) {
        Instance inst = must_instance(ex, seed);
        std::vector<std::string> right;
        for (size_t i = 0; i < spec->parts.size(); ++i)
          right.push_back(format_number(inst.part_values[i], 12) + " " + spec->parts[i].unit_text);
        Feedback f = grade_parts(inst, right);
        EXPECT_EQ(f.verdict, Verdict::Correct) << ex.id << " seed " << seed << ": " << f.message;
        for (size_t i = 0; i < spec->parts.size(); ++i) {
          const NumericPart& part = spec->parts[i];
          for (const auto& m : part.mistakes) {
            ExprError err;
            auto mv = m.answer.eval(inst.scope(), &err);
            ASSERT_TRUE(mv) << ex.id << ": " << err.message;
            // A mistake that coincides with the answer for this instance is graded right, as
            // it should be; lint keeps it from coinciding at the default.
            if (within(*mv, inst.part_values[i], part.rel, part.abs)) continue;
            std::vector<std::string> answer = right;
            answer[i] = format_number(*mv, 12) + " " + part.unit_text;
            Feedback g = grade_parts(inst, answer);
            EXPECT_NE(g.verdict, Verdict::Correct) << ex.id << " seed " << seed;
            EXPECT_EQ(g.parts[i].verdict, Verdict::Incorrect) << ex.id << " seed " << seed;
            // An earlier listed mistake may share the value; the first match wins.
            bool ok = g.parts[i].message == inst.render(m.message);
            for (const auto& other : part.mistakes) {
              if (&other == &m) break;
              auto ov = other.answer.eval(inst.scope(), &err);
              ok |= ov && within(*mv, *ov, part.rel, part.abs) && g.parts[i].message == inst.render(other.message);
            }
            EXPECT_TRUE(ok) << ex.id << " seed " << seed << " mistake " << m.answer.text() << ": got \""
                            << g.parts[i].message << "\"";
            ++checked;
          }
        }
      }
    }
  EXPECT_GT(checked, 0);
}

TEST(Content, ChoiceOrderingAndBuggyLineAnswers) {
  for (const auto& pack : library().packs)
    for (const auto& ex : pack.exercises)
      for (uint64_t seed = 0; seed < kSeeds; ++seed) {
        Instance inst = must_instance(ex, seed);
        Answer a;
        if (const auto* s = ex.spec_as<ChoiceSpec>()) {
          for (size_t i = 0; i < s->options.size(); ++i)
            if (s->options[i].correct) a.picks.push_back(static_cast<int>(i));
          EXPECT_EQ(grade(inst, a).verdict, Verdict::Correct) << ex.id;
          // every wrong option alone is graded wrong
          for (size_t i = 0; i < s->options.size(); ++i)
            if (!s->options[i].correct)
              EXPECT_NE(grade_picks(inst, {static_cast<int>(i)}).verdict, Verdict::Correct) << ex.id;
        } else if (const auto* s = ex.spec_as<OrderingSpec>()) {
          for (size_t i = 0; i < s->items.size(); ++i) a.picks.push_back(static_cast<int>(i));
          EXPECT_EQ(grade(inst, a).verdict, Verdict::Correct) << ex.id;
          EXPECT_NE(grade_picks(inst, inst.order).verdict, Verdict::Correct) << ex.id << ": shown solved";
        } else if (const auto* s = ex.spec_as<BuggyLineSpec>()) {
          for (int k = 0; k < s->select; ++k) a.picks.push_back(s->bugs[k].line);
          EXPECT_EQ(grade(inst, a).verdict, Verdict::Correct) << ex.id;
          for (const auto& d : s->decoys) {
            if (s->select != 1) break;
            Feedback f = grade_picks(inst, {d.line});
            EXPECT_EQ(f.verdict, Verdict::Incorrect) << ex.id;
            EXPECT_NE(f.message.find(inst.render(d.message)), std::string::npos) << ex.id;
          }
        }
      }
}

TEST(Content, ChapterZeroHasEveryType) {
  std::map<std::string, int> types;
  for (const auto& pack : library().packs)
    if (pack.chapter == 0)
      for (const auto& ex : pack.exercises) types[ex.type]++;
  int total = 0;
  for (const auto& [t, n] : types) total += n;
  EXPECT_GE(total, 8);
  for (const char* t : {"numeric", "choice", "ordering", "buggy-line", "code"}) EXPECT_GE(types[t], 1) << t;
}
