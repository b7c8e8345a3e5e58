// Every shipped exercise, over 200 seeds: lint finds nothing in any of those instances, the
// engine's own answer grades correct and each known mistake grades incorrect with its own
// message. Runs natively and under node (wasm).
#include <gtest/gtest.h>

#include <map>

#include "content_util.h"
#include "helpers.h"
#include "lint.h"
#include "json_fields.h"
#include "type_registry.h"
#include "text.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

constexpr uint64_t kSeeds = 200;

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
  // `dtx lint --seeds 200`: no instance a student can get has a mistake or another part's
  // answer that grades right, a negative amount, or an answer outside what its part declares.
  LintOptions options;
  options.seeds = static_cast<int>(kSeeds);
  for (const auto& d : lint_library(lib, options)) all += format_diagnostic(d) + "\n";
  EXPECT_EQ(all, "");
}

// Every type's sample answers (TypeSpec::sample_answers): the engine's own answer grades
// correct, each known mistake (numeric), wrong option (choice), decoy (buggy line), shown order
// (ordering) and failing run (code) grades wrong with its own message, and unreadable input
// is a format error, not an attempt.
TEST(Content, EveryTypesSampleAnswersGetTheirVerdicts) {
#ifdef __EMSCRIPTEN__
  // Under node (wasm_engine_tests) the engine is the page's -Oz build, four times slower than
  // native: 40 seeds check the platform (30 s at 200); the native run keeps all 200.
  constexpr uint64_t kSampleSeeds = 40;
#else
  constexpr uint64_t kSampleSeeds = kSeeds;
#endif
  std::map<std::string, int> checked;
  for (const auto& pack : library().packs)
    for (const auto& ex : pack.exercises)
      for (uint64_t seed = 0; seed < kSampleSeeds; ++seed) {
        Instance inst = must_instance(ex, seed);
        auto samples = ex.spec->sample_answers(ex, inst);
        ASSERT_FALSE(samples.empty()) << ex.id;
        EXPECT_EQ(samples[0].expect, SampleAnswer::Expect::Correct) << ex.id << ": the first sample is the right answer";
        for (const auto& sample : samples) {
          std::string why;
          EXPECT_TRUE(sample_answer_holds(sample, grade(inst, sample.answer), &why)) << ex.id << " seed " << seed << ": " << why;
          ++checked[ex.type];
        }
      }
  for (const auto& t : exercise_types()) EXPECT_GT(checked[t.name], 0) << t.name;
}

TEST(Content, ChapterZeroHasEveryType) {
  std::map<std::string, int> types;
  for (const auto& pack : library().packs)
    if (pack.chapter == 0)
      for (const auto& ex : pack.exercises) types[ex.type]++;
  int total = 0;
  for (const auto& [t, n] : types) total += n;
  EXPECT_GE(total, 8);
  for (const auto& t : exercise_types()) EXPECT_GE(types[t.name], 1) << t.name;
}
