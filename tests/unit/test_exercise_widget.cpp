// The "widget" member of an exercise: inputs from the instance, and the errors an author
// gets for a wrong kind, input, option or range.
#include <gtest/gtest.h>

#include "helpers.h"
#include "lint.h"
#include "sim/widget.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kPipelineExercise = R"J({"id": "w", "type": "numeric", "title": "W", "prompt": "p={p}",
  "params": {"p": {"default": 4, "choices": [2, 4, 8]}},
  "widget": {"kind": "pipeline", "schedule": "gpipe", "p": "{p}", "m": "{2*p}", "f": 1.5},
  "parts": [{"id": "b", "answer": "(p-1)/(2*p+p-1)", "unit": ""}]})J";

std::string messages(const LoadResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += format_diagnostic(d) + "\n";
  return s;
}

}  // namespace

TEST(ExerciseWidget, ValuesComeFromTheInstance) {
  LoadResult r = load_pack(pack_with(kPipelineExercise), "w.json");
  ASSERT_TRUE(r.ok()) << messages(r);
  const Exercise& ex = r.pack->exercises[0];
  ASSERT_TRUE(ex.widget.has_value());
  for (uint64_t seed : {0, 1, 2, 3, 4, 5}) {
    std::string err;
    auto inst = make_instance(ex, seed, &err);
    ASSERT_TRUE(inst) << err;
    auto v = widget_values(*inst, &err);
    ASSERT_TRUE(v) << err;
    EXPECT_EQ(err, "");
    double p = *inst->value("p");
    EXPECT_EQ(v->get("p"), p);
    EXPECT_EQ(v->get("m"), 2 * p);
    EXPECT_EQ(v->get("f"), 1.5);
    EXPECT_STREQ(v->option("schedule"), "gpipe");
    // Inputs the exercise does not set keep the kind's defaults.
    EXPECT_EQ(v->get("v"), sim::pipeline_widget_kind().input("v")->def);
  }
}

TEST(ExerciseWidget, NoWidgetNoValues) {
  LoadResult r = load_pack(pack_with(R"J({"id": "n", "type": "numeric", "title": "N", "prompt": "p",
    "parts": [{"id": "a", "answer": "1", "unit": ""}]})J"), "n.json");
  ASSERT_TRUE(r.ok());
  auto inst = make_instance(r.pack->exercises[0], 0, nullptr);
  ASSERT_TRUE(inst);
  EXPECT_FALSE(widget_values(*inst, nullptr).has_value());
}

TEST(ExerciseWidget, ErrorsNameThePlaceAndTheExpectation) {
  struct Case {
    const char* widget;
    const char* pointer;
    const char* says;
  } cases[] = {
      {R"({"kind": "pipline"})", "/exercises/0/widget/kind", "expected one of: ring, pipeline, plan"},
      {R"({"kind": "pipline"})", "/exercises/0/widget/kind", "(did you mean \"pipeline\"?)"},
      {R"({"p": 4})", "/exercises/0/widget", "missing required field \"kind\""},
      {R"({"kind": "pipeline", "pp": 4})", "/exercises/0/widget/pp", "did you mean \"p\""},
      {R"({"kind": "pipeline", "schedule": "1F1B"})", "/exercises/0/widget/schedule", "expected one of: naive, gpipe, 1f1b"},
      {R"({"kind": "pipeline", "schedule": 2})", "/exercises/0/widget/schedule", "expected one of the strings"},
      {R"({"kind": "pipeline", "p": 999})", "/exercises/0/widget/p", "between 1 and 32"},
      {R"({"kind": "pipeline", "p": 2.5})", "/exercises/0/widget/p", "whole number"},
      {R"({"kind": "pipeline", "p": "p"})", "/exercises/0/widget/p", "\"{expression}\""},
      {R"({"kind": "pipeline", "p": "{p+}"})", "/exercises/0/widget/p", "invalid expression"},
      {R"({"kind": "pipeline", "p": true})", "/exercises/0/widget/p", "got true"},
      {R"(["pipeline"])", "/exercises/0/widget", "expected an object"},
  };
  for (const auto& c : cases) {
    std::string ex = std::string(R"J({"id": "w", "type": "numeric", "title": "W", "prompt": "p",
      "params": {"p": {"default": 4, "choices": [2, 4]}}, "widget": )J") + c.widget +
                     R"J(, "parts": [{"id": "b", "answer": "p", "unit": ""}]})J";
    LoadResult r = load_pack(pack_with(ex), "w.json");
    EXPECT_FALSE(r.ok()) << c.widget;
    bool found = false;
    for (const auto& d : r.diagnostics)
      found |= d.pointer == c.pointer && d.message.find(c.says) != std::string::npos && d.line > 0;
    EXPECT_TRUE(found) << c.widget << "\n" << messages(r);
  }
}

TEST(ExerciseWidget, LintChecksExpressionsAtEveryCorner) {
  // p*8 is 32 at p=4 (fine) but 64 at p=8, above the pipeline's 32 stages.
  LoadResult r = load_pack(pack_with(R"J({"id": "w", "type": "numeric", "title": "W", "prompt": "p={p}",
    "params": {"p": {"default": 4, "choices": [2, 4, 8]}},
    "widget": {"kind": "pipeline", "p": "{p*8}", "m": "{q}"},
    "parts": [{"id": "b", "answer": "p", "unit": ""}]})J"), "w.json");
  ASSERT_TRUE(r.ok()) << messages(r);
  Library lib;
  lib.packs.push_back(*r.pack);
  auto ds = lint_library(lib, nullptr);
  std::string all;
  for (const auto& d : ds) all += format_diagnostic(d) + "\n";
  EXPECT_NE(all.find("/exercises/0/widget/p: widget input \"p\" is 64 at p=8"), std::string::npos) << all;
  EXPECT_NE(all.find("/exercises/0/widget/m"), std::string::npos) << all;
  EXPECT_NE(all.find("q"), std::string::npos) << all;
}

// "reveal": when the page shows the widget. Absent means "always", so packs written before
// the setting keep their widgets in view.
TEST(ExerciseWidget, RevealIsReadAndDefaultsToAlways) {
  struct Case {
    const char* member;
    WidgetReveal want;
  } cases[] = {{"", WidgetReveal::Always},
               {R"(, "reveal": "always")", WidgetReveal::Always},
               {R"(, "reveal": "after-attempt")", WidgetReveal::AfterAttempt},
               {R"(, "reveal": "after-solve")", WidgetReveal::AfterSolve}};
  for (const auto& c : cases) {
    std::string ex = std::string(R"J({"id": "w", "type": "numeric", "title": "W", "prompt": "p",
      "widget": {"kind": "ring")J") + c.member + R"J(}, "parts": [{"id": "b", "answer": "1", "unit": ""}]})J";
    LoadResult r = load_pack(pack_with(ex), "w.json");
    ASSERT_TRUE(r.ok()) << c.member << "\n" << messages(r);
    ASSERT_TRUE(r.pack->exercises[0].widget.has_value());
    EXPECT_EQ(r.pack->exercises[0].widget->reveal, c.want) << c.member;
    EXPECT_EQ(find_widget_reveal(widget_reveal_name(c.want)), c.want);
  }
}

TEST(ExerciseWidget, RevealErrorsNameThePointerAndTheAllowedValues) {
  struct Case {
    const char* value;
    DiagCode code;
    const char* says;
  } cases[] = {
      {R"("after-attempts")", DiagCode::ValueNotAllowed, "(did you mean \"after-attempt\"?)"},
      {R"("never")", DiagCode::ValueNotAllowed, "expected one of: \"always\", \"after-attempt\", \"after-solve\""},
      {R"("Always")", DiagCode::ValueNotAllowed, "unknown reveal setting \"Always\""},
      {R"(true)", DiagCode::WrongKind, "expected one of the strings \"always\", \"after-attempt\", \"after-solve\", got true"},
  };
  for (const auto& c : cases) {
    std::string ex = std::string(R"J({"id": "w", "type": "numeric", "title": "W", "prompt": "p",
      "widget": {"kind": "ring", "reveal": )J") + c.value + R"J(}, "parts": [{"id": "b", "answer": "1", "unit": ""}]})J";
    LoadResult r = load_pack(pack_with(ex), "w.json");
    EXPECT_FALSE(r.ok()) << c.value;
    bool found = false;
    for (const auto& d : r.diagnostics)
      found |= d.code == c.code && d.pointer == "/exercises/0/widget/reveal" && d.message.find(c.says) != std::string::npos &&
               d.line == 2 && d.column > 30;
    EXPECT_TRUE(found) << c.value << "\n" << messages(r);
  }
}

TEST(ExerciseWidget, RevealDecidesFromAttemptsAndSolves) {
  // attempted, solved -> shown, for always / after-attempt / after-solve
  struct Case {
    bool attempted, solved;
    bool always, after_attempt, after_solve;
  } cases[] = {
      {false, false, true, false, false},
      {true, false, true, true, false},
      {true, true, true, true, true},
      // Solved on an earlier day (progress) without an attempt on this screen.
      {false, true, true, true, true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(widget_revealed(WidgetReveal::Always, c.attempted, c.solved), c.always);
    EXPECT_EQ(widget_revealed(WidgetReveal::AfterAttempt, c.attempted, c.solved), c.after_attempt);
    EXPECT_EQ(widget_revealed(WidgetReveal::AfterSolve, c.attempted, c.solved), c.after_solve);
  }
}

// "kind" and "reveal" sit beside the inputs in one object: no widget may name an input so.
TEST(ExerciseWidget, NoInputIsNamedLikeAWidgetSetting) {
  for (const sim::WidgetKind* k : sim::widget_kinds()) {
    EXPECT_EQ(k->input("kind"), nullptr) << k->kind;
    EXPECT_EQ(k->input("reveal"), nullptr) << k->kind;
  }
}
