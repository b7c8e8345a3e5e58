// Placeholder errors stay few however often a text repeats its mistake: an undeclared {x}
// repeated 13,000 times in a prompt used to be 13,000 errors, each costing a walk over the
// text to find its column (a 48 KB pack took minutes in the page's preview). Now a name is
// reported once, with how often it is used, and a text's problems stop at the listed 200.
// These tests count errors, never time.
#include <gtest/gtest.h>

#include <string>

#include "helpers.h"
#include "lint.h"
#include "json_fields.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

std::vector<Diagnostic> lint_prompt(const std::string& prompt, std::string* pack_text = nullptr) {
  Json ex = {{"id", "t.a"}, {"type", "choice"}, {"title", "A"}, {"prompt", prompt},
             {"options", Json::array({{{"text", "x"}, {"correct", true}}, {{"text", "y"}}})}};
  Library lib;
  std::string text = pack_with(ex.dump());
  if (pack_text) *pack_text = text;
  lib.packs.push_back(must_load(text));
  return lint_library(lib, nullptr);
}

}  // namespace

TEST(PlaceholderErrors, AnUndeclaredNameIsReportedOnceWithItsCount) {
  std::string prompt;
  for (int i = 0; i < 13000; ++i) prompt += "{zz} ";
  std::string text;
  auto d = lint_prompt(prompt, &text);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(std::string(diag_info(d[0].code).id), "E031");
  EXPECT_EQ(d[0].column, static_cast<int>(text.find("{zz}") + 2)) << "at the name in its first use";
  EXPECT_NE(d[0].message.find("parameter 'zz' is used in the placeholder {zz} in the prompt but not declared"),
            std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("'zz' is used 13000 times in the prompt"), std::string::npos) << d[0].message;
}

TEST(PlaceholderErrors, ATextListsAtMost200ProblemsAndCountsTheRest) {
  std::string prompt;
  for (int i = 0; i < 8000; ++i) prompt += "{a" + std::to_string(i) + "} ";
  auto d = lint_prompt(prompt);
  ASSERT_EQ(d.size(), kMaxDiagnosticsPerPack + 1);
  EXPECT_NE(d[0].message.find("'a0'"), std::string::npos) << d[0].message;
  EXPECT_NE(d[199].message.find("'a199'"), std::string::npos) << d[199].message;
  EXPECT_NE(d.back().message.find("7800 more placeholders in the prompt were not checked (the first 200 problems are listed)"),
            std::string::npos) << d.back().message;
  // Columns of the listed ones are still right (counted once, forward).
  EXPECT_EQ(d[1].column - d[0].column, static_cast<int>(std::string("{a0} ").size()));
}

TEST(PlaceholderErrors, ManyOpenBracesWithoutACloseAreNotPlaceholders) {
  std::string prompt;
  for (int i = 0; i < 20000; ++i) prompt += "{a ";
  EXPECT_TRUE(lint_prompt(prompt).empty());
  auto last = lint_prompt(prompt + "}");
  ASSERT_EQ(last.size(), 1u) << "one '}' after them all closes only the last, {a }";
  EXPECT_NE(last[0].message.find("parameter 'a' is used in the placeholder {a }"), std::string::npos) << last[0].message;
  auto d = lint_prompt("{a {zz} {plural(zz, '{')}");
  ASSERT_EQ(d.size(), 1u) << "the inner {zz} and the text function are still checked";
  EXPECT_NE(d[0].message.find("'zz' is used 2 times"), std::string::npos) << d[0].message;
  EXPECT_TRUE(lint_prompt("{N} and {{literal}}\n{x\n}").size() == 1u) << "a '}' on the next line closes nothing";
}

TEST(PlaceholderErrors, APackListsAtMost200ProblemsAndStopsCheckingItsExercises) {
  std::string exercises;
  for (int i = 0; i < 300; ++i) {
    Json ex = {{"id", "t.e" + std::to_string(i)}, {"type", "choice"}, {"title", "A"}, {"prompt", "{zz}"},
               {"options", Json::array({{{"text", "x"}, {"correct", true}}, {{"text", "y"}}})}};
    exercises += (i ? "," : "") + ex.dump();
  }
  Library lib;
  lib.packs.push_back(must_load(pack_with(exercises)));
  auto d = lint_library(lib, nullptr);
  ASSERT_EQ(d.size(), kMaxDiagnosticsPerPack + 1);
  EXPECT_NE(d[199].pointer.find("/exercises/199"), std::string::npos) << d[199].pointer;
  EXPECT_EQ(std::string(diag_info(d.back().code).id), std::string(diag_info(DiagCode::TooManyProblems).id));
  EXPECT_NE(d.back().message.find("lint stopped after the first 200 problems in this pack; 100 exercises not checked"),
            std::string::npos) << d.back().message;
}
