// Preview packs: the valid exercises of a broken pack stay playable, the broken ones are
// listed with `dtx lint`'s messages, and ids the course owns are refused.
#include <gtest/gtest.h>

#include "helpers.h"
#include "lint.h"
#include "preview.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kGood = R"J({"id": "good", "type": "numeric", "title": "Good", "prompt": "{N} GPUs",
    "params": {"N": {"default": 8, "choices": [2, 8]}},
    "parts": [{"id": "v", "answer": "2*(N-1)/N", "unit": ""}]})J";
// Loads, but lint finds the answer divides by zero at N = 2.
const char* kLintBad = R"J({"id": "lint-bad", "type": "numeric", "title": "Lint bad", "prompt": "{N}",
    "params": {"N": {"default": 8, "choices": [2, 8]}},
    "parts": [{"id": "v", "answer": "1/(N-2)", "unit": ""}]})J";
// Does not load: a misspelt field.
const char* kLoadBad = R"J({"id": "load-bad", "type": "numeric", "title": "Load bad", "prompt": "p",
    "parts": [{"id": "v", "answer": "1", "unit": "", "tolerence": 0.1}]})J";

std::string all(const PreviewPack& p) {
  std::string s;
  for (const auto& d : p.errors) s += format_diagnostic(d) + "\n";
  return s;
}

std::vector<std::string> ids(const PreviewPack& p) {
  std::vector<std::string> out;
  if (p.pack)
    for (const auto& e : p.pack->exercises) out.push_back(e.id);
  return out;
}

}  // namespace

TEST(Preview, CleanPackIsWhole) {
  PreviewPack p = load_preview(pack_with(kGood), "mine.json", Library{});
  EXPECT_EQ(all(p), "");
  EXPECT_EQ(ids(p), std::vector<std::string>{"good"});
  EXPECT_EQ(p.authored, 1);
  EXPECT_EQ(p.left_out(), 0);
}

TEST(Preview, BrokenExercisesLeftOutWithLintsMessagesTheRestPlayable) {
  std::string text = pack_with(std::string(kLoadBad) + "," + kGood + "," + kLintBad);
  PreviewPack p = load_preview(text, "mine.json", Library{});
  EXPECT_EQ(ids(p), std::vector<std::string>{"good"});
  EXPECT_EQ(p.authored, 3);
  EXPECT_EQ(p.left_out(), 2);
  // The course refuses the whole file; the preview says why with the same messages.
  EXPECT_FALSE(load_pack(text, "mine.json").ok());
  std::string msgs = all(p);
  EXPECT_NE(msgs.find("mine.json:"), std::string::npos) << msgs;
  EXPECT_NE(msgs.find("did you mean \"tolerance\"?"), std::string::npos) << msgs;
  EXPECT_NE(msgs.find("/exercises/2"), std::string::npos) << msgs;
  // Exactly what lint reports for the loadable part, plus what the loader reported.
  LoadResult r = load_pack(text, "mine.json");
  Library lib;
  lib.packs.push_back(*r.partial);
  size_t expected = lint_library(lib, nullptr).size();
  for (const auto& d : r.diagnostics) expected += d.severity == Severity::Error;
  EXPECT_EQ(p.errors.size(), expected) << msgs;
  // In file order, so the list reads top to bottom like the file.
  for (size_t i = 1; i < p.errors.size(); ++i) EXPECT_LE(p.errors[i - 1].line, p.errors[i].line);
}

TEST(Preview, ErrorsInExercise1DoNotRemoveExercise10) {
  std::string ex;
  for (int i = 0; i <= 10; ++i) {
    std::string e = kGood;
    e.replace(e.find("\"good\""), 6, "\"g" + std::to_string(i) + "\"");
    if (i == 1) e.replace(e.find("2*(N-1)/N"), 9, "2*(M-1)/N");  // undeclared M
    ex += (i ? "," : "") + e;
  }
  PreviewPack p = load_preview(pack_with(ex), "mine.json", Library{});
  EXPECT_EQ(p.left_out(), 1) << all(p);
  auto got = ids(p);
  EXPECT_EQ(got.size(), 10u);
  EXPECT_EQ(std::count(got.begin(), got.end(), "g10"), 1);
  EXPECT_EQ(std::count(got.begin(), got.end(), "g1"), 0);
}

TEST(Preview, IdsTheCourseOwnsAreRefused) {
  Library course = load_library({{"course.json", pack_with(kGood)}});
  ASSERT_EQ(course.packs.size(), 1u);
  PreviewPack p = load_preview(pack_with(std::string(kGood) + "," + R"J({"id": "fresh", "type": "choice",
      "title": "Fresh", "prompt": "p", "options": [{"text": "a", "correct": true}, {"text": "b"}]})J"),
                               "mine.json", course);
  EXPECT_EQ(ids(p), std::vector<std::string>{"fresh"});
  EXPECT_NE(all(p).find("duplicate exercise id \"good\": already used in course.json"), std::string::npos) << all(p);
}

TEST(Preview, NotJsonGivesThePlaceAndNoPack) {
  PreviewPack p = load_preview("{\"format\": 1,\n  \"id\": oops}", "https://example.org/p.json", Library{});
  EXPECT_FALSE(p.pack.has_value());
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0].line, 2);
  EXPECT_NE(format_diagnostic(p.errors[0]).find("https://example.org/p.json:2:"), std::string::npos);
}

TEST(Preview, AnswerLinesForEveryKind) {
  PreviewPack p = load_preview(pack_with(std::string(kGood) + "," + R"J(
    {"id": "c", "type": "choice", "title": "C", "prompt": "p", "shuffle": false,
     "options": [{"text": "a"}, {"text": "b", "correct": true}]},
    {"id": "o", "type": "ordering", "title": "O", "prompt": "p", "items": ["first", "second", "third"]},
    {"id": "b", "type": "buggy-line", "title": "B", "prompt": "p", "code": ["x = 1", "y = 2"],
     "bugs": [{"line": 2, "message": "m"}]})J"),
                               "k.json", Library{});
  ASSERT_EQ(p.left_out(), 0) << all(p);
  auto lines = [&](const std::string& id, uint64_t seed) {
    for (const auto& e : p.pack->exercises)
      if (e.id == id) return instance_answer_lines(*make_instance(e, seed, nullptr));
    return std::vector<std::string>{};
  };
  // N = 8 at seed 0 (the default): 2*7/8.
  EXPECT_EQ(lines("good", 0).at(0).rfind("v = 1.75", 0), 0u) << lines("good", 0).at(0);
  EXPECT_EQ(lines("c", 0), std::vector<std::string>{"correct: B"});
  EXPECT_EQ(lines("b", 0), std::vector<std::string>{"bug on line 2"});
  // The ordering's letters follow the shuffled positions: reading them back gives the items in order.
  const Exercise* o = nullptr;
  for (const auto& e : p.pack->exercises)
    if (e.id == "o") o = &e;
  auto inst = make_instance(*o, 3, nullptr);
  std::string seq = instance_answer_lines(*inst).at(0);
  ASSERT_EQ(seq.rfind("order: ", 0), 0u);
  std::string rebuilt;
  for (size_t i = 7; i < seq.size(); i += 2) rebuilt += std::to_string(dtx::testing::shown_order(*inst)[seq[i] - 'A']);
  EXPECT_EQ(rebuilt, "012");
}

// The instructor panel's command, one an instructor can paste into a POSIX shell.
TEST(Preview, ShowCommandForTheCourse) {
  ShowCommand c = show_command("ring.volume", 3, "", false);
  EXPECT_EQ(c.command, "dtx show ring.volume --seed 3 --answer");
  EXPECT_EQ(c.note, "");
}

TEST(Preview, ShowCommandForAPathOnTheSiteIsThePathInTheRepository) {
  EXPECT_EQ(show_command("my.first", 0, "exercises/new.json", true).command,
            "dtx show my.first --packs exercises/new.json --seed 0 --answer");
  EXPECT_EQ(show_command("my.first", 7, "my/pack.json", true).command, "dtx show my.first --packs my/pack.json --seed 7 --answer");
  // "./", the site's root and a query or fragment name nothing in a checkout.
  EXPECT_EQ(show_command("a", 0, "./my/pack.json?v=2#x", true).command, "dtx show a --packs my/pack.json --seed 0 --answer");
  EXPECT_EQ(show_command("a", 0, "/exercises/new.json", true).command, "dtx show a --packs exercises/new.json --seed 0 --answer");
  // Percent escapes are what the server decodes; a space then needs quotes.
  EXPECT_EQ(show_command("a", 0, "my%20packs/it's.json", true).command,
            "dtx show a --packs 'my packs/it'\\''s.json' --seed 0 --answer");
  EXPECT_EQ(show_command("a", 0, "-x.json", true).command, "dtx show a --packs ./-x.json --seed 0 --answer");
  EXPECT_EQ(show_command("a", 0, "exercises/new.json", true).note, "");
}

TEST(Preview, ShowCommandForAUrlDownloadsItFirst) {
  ShowCommand c = show_command("my.first", 2, "https://example.org/packs/new.json", true);
  EXPECT_EQ(c.command,
            "curl -sSo new.json 'https://example.org/packs/new.json' && dtx show my.first --packs new.json --seed 2 --answer");
  EXPECT_EQ(c.note, "");
  // A quote, spaces and shell syntax stay inside the quotes, and the saved name is plain.
  c = show_command("a", 0, "HTTP://h/o'k $(x)/my pack.json?a=1&b=2", true);
  EXPECT_EQ(c.command,
            "curl -sSo my-pack.json 'HTTP://h/o'\\''k $(x)/my pack.json?a=1&b=2' && dtx show a --packs my-pack.json --seed 0 --answer");
  // No usable name in the URL: a fixed one (never a hidden file or an option).
  EXPECT_EQ(show_command("a", 0, "https://h/", true).command, "curl -sSo pack.json 'https://h/' && dtx show a --packs pack.json --seed 0 --answer");
  EXPECT_EQ(show_command("a", 0, "https://h/..", true).command.substr(0, 21), "curl -sSo pack.json '");
  EXPECT_EQ(show_command("a", 0, "https://h/%2e%2e%2fx", true).command.substr(0, 21), "curl -sSo pack.json '");
  EXPECT_EQ(show_command("a", 0, "https://h/a%2Fb.json", true).command.substr(0, 21), "curl -sSo a-b.json 'h");
  EXPECT_EQ(show_command("a", 0, "https://h/get?id=3", true).command.substr(0, 21), "curl -sSo pack.json '");
}

TEST(Preview, ShowCommandForADroppedFileOrAnUnfetchableUrl) {
  ShowCommand c = show_command("a", 5, "my pack.json", false);
  EXPECT_EQ(c.command, "dtx show a --packs 'my pack.json' --seed 5 --answer");
  EXPECT_EQ(c.note, "(the file you dropped)");
  c = show_command("a", 5, "data:application/json,{}", true);
  EXPECT_EQ(c.command, "dtx show a --packs pack.json --seed 5 --answer");
  EXPECT_EQ(c.note, "(save the pack as pack.json first)");
  c = show_command("a", 5, "//host/x.json", true);
  EXPECT_EQ(c.command, "dtx show a --packs x.json --seed 5 --answer");
  EXPECT_EQ(c.note, "(save the pack as x.json first)");
}

TEST(Preview, ShellQuote) {
  EXPECT_EQ(shell_quote("exercises/new-1.json"), "exercises/new-1.json");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$HOME;rm"), "'$HOME;rm'");
  EXPECT_EQ(shell_quote("*"), "'*'");
}
