// engine/glossary: reading entries, addresses, matching terms in text by the documented
// rules, the acronyms W012 looks at, and the shipped course: every entry loads, no form is
// defined twice, the issue's core terms are defined, and every prompt's acronyms have entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "content_util.h"
#include "glossary.h"
#include "lint.h"

using namespace dtx;
using dtx::testing::shipped_pack_sources;

namespace {

Library pack_with(const std::string& glossary) {
  std::string text = R"({"format": 1, "chapter": 0, "id": "g", "title": "G", "glossary": )" + glossary +
                     R"(, "exercises": [{"id": "g.one", "type": "choice", "title": "One", "prompt": "Pick.",
                     "options": [{"text": "A", "correct": true, "feedback": "Yes."}, {"text": "B", "feedback": "No."}]}]})";
  return load_library({{"g.json", text}});
}

Glossary three() {
  return library_glossary(pack_with(R"([
    {"term": "ZeRO", "definition": "Sharding."},
    {"term": "ZeRO-3", "aliases": ["FSDP"], "definition": "Full sharding."},
    {"term": "pipeline bubble", "aliases": ["bubble"], "definition": "Idle time."},
    {"term": "GPU", "definition": "A graphics processor."}])"));
}

std::vector<std::string> matched(const std::string& text, const Glossary& g) {
  std::vector<std::string> out;
  for (const auto& u : find_terms(text, g)) out.push_back(g.entries[u.entry].term + "=" + text.substr(u.begin, u.end - u.begin));
  return out;
}

}  // namespace

TEST(Glossary, SlugsAreLowerCaseAddressesThatKeepPlus) {
  EXPECT_EQ(glossary_slug("ZeRO-3"), "zero-3");
  EXPECT_EQ(glossary_slug("ZeRO++"), "zero-plus-plus");
  EXPECT_EQ(glossary_slug("Young's interval"), "young-s-interval");
  EXPECT_EQ(glossary_slug("  busBw "), "busbw");
  EXPECT_EQ(glossary_slug("TFLOP/s"), "tflop-s");
  EXPECT_EQ(glossary_slug("%%"), "");
}

TEST(Glossary, MatchesWholeWordsLongestFirstWithPlurals) {
  Glossary g = three();
  EXPECT_EQ(matched("ZeRO-3 on 8 GPUs beats ZeRO.", g),
            (std::vector<std::string>{"ZeRO-3=ZeRO-3", "GPU=GPUs", "ZeRO=ZeRO"}));
  // Case: a form with a capital is exact, a lower-case form is not.
  EXPECT_EQ(matched("gpu zero Pipeline bubbles", g), (std::vector<std::string>{"pipeline bubble=Pipeline bubbles"}));
  // Word boundaries on both sides: no match inside a longer word.
  EXPECT_TRUE(matched("GPUX xGPU bubbled", g).empty());
  EXPECT_EQ(matched("FSDP, the bubble.", g), (std::vector<std::string>{"ZeRO-3=FSDP", "pipeline bubble=bubble"}));
}

TEST(Glossary, AcronymsSkipCodeMathsPlaceholdersLinksAndUnits) {
  auto words = [](const std::string& md) {
    std::vector<std::string> out;
    for (const auto& [at, w] : acronyms_in(md)) out.push_back(w + "@" + std::to_string(at));
    return out;
  };
  EXPECT_EQ(words("MFU and HSDPs over 80 GB, `FULL_SHARD`, $TP$, {NN}, [x](HTTP), TFLOP, Ok, A100, BF16"),
            (std::vector<std::string>{"MFU@0", "HSDP@8", "BF16@80"}));
}

TEST(Glossary, EntriesAreCheckedWhereTheyAre) {
  std::vector<Diagnostic> d = load_library({{"g.json", R"({"format": 1, "chapter": 0, "id": "g", "title": "G",
    "glossary": [{"term": "MFU"}, {"term": "%%", "definition": "x"}, {"term": "X", "definition": "d", "colour": 1}],
    "exercises": []})"}}).diagnostics;
  std::set<std::string> where;
  for (const auto& x : d) where.insert(x.pointer);
  EXPECT_TRUE(where.count("/glossary/0")) << "a missing definition";
  EXPECT_TRUE(where.count("/glossary/1/term")) << "a term with no letter";
  EXPECT_TRUE(where.count("/glossary/2/colour")) << "an unknown field";
}

TEST(Glossary, ATermOrAddressDefinedTwiceIsAnError) {
  Library lib = pack_with(R"([{"term": "MFU", "definition": "a"}, {"term": "Mfu", "definition": "b"},
                              {"term": "HFU", "aliases": ["MFU"], "definition": "c"}])");
  std::vector<Diagnostic> d = lint_library(lib, nullptr);
  std::vector<std::string> where;
  for (const auto& x : d) where.push_back(x.pointer);
  EXPECT_EQ(where, (std::vector<std::string>{"/glossary/1/term", "/glossary/2/aliases/0"}));
  EXPECT_EQ(library_glossary(lib).entries.size(), 2u) << "Mfu shares mfu's address and is left out";
}

// W013: a lower-case form that is a common word or shorter than three letters and digits would
// link ordinary words all over the course; capitals (an acronym) and longer phrases do not.
TEST(Glossary, ALowerCaseFormThatIsAnOrdinaryWordIsAWarning) {
  Library lib = pack_with(R"([{"term": "pipeline stage", "aliases": ["stage", "the", "pp", "PP"], "definition": "a"},
                              {"term": "each", "aliases": ["Each GPU"], "definition": "b"}])");
  LintOptions o;
  o.warnings = true;
  std::vector<std::string> where;
  for (const auto& x : lint_library(lib, o))
    if (std::string(diag_info(x.code).id) == "W013") where.push_back(x.pointer + " " + x.message.substr(0, x.message.find(',')));
  EXPECT_EQ(where, (std::vector<std::string>{"/glossary/0/aliases/1 \"the\" is a common English word",
                                             "/glossary/0/aliases/2 \"pp\" has fewer than three letters and digits",
                                             "/glossary/1/term \"each\" is a common English word"}));
  EXPECT_TRUE(std::none_of(lint_library(lib, nullptr).begin(), lint_library(lib, nullptr).end(),
                           [](const Diagnostic& d) { return std::string(diag_info(d.code).id) == "W013"; }))
      << "a warning: only with --warn";
}

TEST(Glossary, TheShippedCourseDefinesItsTermsOnce) {
  Library lib = load_library(shipped_pack_sources());
  Glossary g = library_glossary(lib);
  size_t defined = 0;
  for (const auto& p : lib.packs) defined += p.glossary.size();
  EXPECT_EQ(g.entries.size(), defined) << "every entry has an address of its own";
  EXPECT_GE(g.entries.size(), 150u);
  for (const char* core : {"busBw", "algBw", "MFU", "HFU", "ZeRO-1", "ZeRO-2", "ZeRO-3", "1F1B", "interleaving", "SP", "CP", "EP",
                           "TP", "PP", "DP", "pipeline bubble"}) {
    auto uses = find_terms(core, g);
    EXPECT_EQ(uses.size(), 1u) << core << " has no entry";
  }
  LintOptions o;
  o.warnings = true;
  for (const auto& d : lint_library(lib, o)) {
    std::string id = diag_info(d.code).id;
    EXPECT_TRUE(id != "E072" && id != "W012" && id != "W013") << d.file << " " << d.pointer << ": " << d.message;
  }
  std::printf("glossary: %zu terms\n", g.entries.size());
}
