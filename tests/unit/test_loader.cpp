#include <gtest/gtest.h>

#include <cmath>

#include "helpers.h"
#include "model.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kNumeric = R"J({"id": "a.one", "type": "numeric", "title": "One", "prompt": "N={N}",
  "params": {"N": {"default": 8, "choices": [4, 8]}},
  "parts": [{"id": "v", "answer": "2*(N-1)", "unit": ""}]})J";

}  // namespace

TEST(Loader, ValidPackLoads) {
  Pack p = must_load(pack_with(kNumeric));
  ASSERT_EQ(p.exercises.size(), 1u);
  EXPECT_EQ(p.exercises[0].id, "a.one");
  EXPECT_EQ(p.exercises[0].params.size(), 1u);
  EXPECT_EQ(p.chapter, 0);
}

TEST(Loader, UnknownFieldNamesPositionAndSuggestion) {
  std::string text =
      "{\"format\": 1, \"chapter\": 0, \"id\": \"t\", \"title\": \"T\", \"exercises\": [\n"
      "  {\"id\": \"a\", \"type\": \"numeric\", \"title\": \"A\", \"prompt\": \"p\",\n"
      "   \"parts\": [{\"id\": \"v\", \"answer\": \"1\", \"unit\": \"GB\", \"tolerence\": {\"rel\": 0.1}}]}]}";
  LoadResult r = load_pack(text, "x.json");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.file, "x.json");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 55);
  EXPECT_EQ(d.pointer, "/exercises/0/parts/0/tolerence");
  EXPECT_NE(d.message.find("did you mean \"tolerance\""), std::string::npos) << d.message;
  EXPECT_EQ(format_diagnostic(d).rfind("x.json:3:55: error: /exercises/0/parts/0/tolerence: unknown field", 0), 0u)
      << format_diagnostic(d);
}

TEST(Loader, ExpressionErrorsPointInsideTheString) {
  std::string text = pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
  "parts": [{"id": "v", "answer": "2*(3-1", "unit": ""}]})J");
  LoadResult r = load_pack(text, "x.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  // The answer string opens (its quote) at column 35 of line 2; the error is at its 7th character.
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 35 + 7);
  EXPECT_NE(r.diagnostics[0].message.find("column 7"), std::string::npos);
}

TEST(Loader, ABrokenExerciseDoesNotHideTheOthers) {
  std::string text = pack_with(std::string(kNumeric) + R"J(, {"id": "b", "type": "numeric", "title": "B", "prompt": "p", "parts": 3})J");
  LoadResult r = load_pack(text, "x.json");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].pointer, "/exercises/1/parts");
}

TEST(Loader, DuplicateIdsAcrossPacksAreErrorsAndTheFirstPackStays) {
  std::string a = pack_with(kNumeric);
  std::string b = R"J({"format": 1, "chapter": 1, "id": "u", "title": "U", "exercises": [)J" + std::string(kNumeric) + "]}";
  std::string c = R"J({"format": 1, "chapter": 2, "id": "v", "title": "V", "exercises": []})J";
  Library lib = load_library({{"a.json", a}, {"b.json", b}, {"c.json", c}});
  ASSERT_EQ(lib.packs.size(), 2u);
  EXPECT_EQ(lib.packs[0].file, "a.json");
  EXPECT_EQ(lib.packs[1].file, "c.json");
  ASSERT_EQ(lib.diagnostics.size(), 1u);
  EXPECT_EQ(lib.diagnostics[0].file, "b.json");
  EXPECT_NE(lib.diagnostics[0].message.find("already used in a.json"), std::string::npos);
}

TEST(Loader, PacksAreOrderedByChapter) {
  std::string two = R"J({"format": 1, "chapter": 2, "id": "two", "title": "T", "exercises": []})J";
  std::string one = R"J({"format": 1, "chapter": 1, "id": "one", "title": "O", "exercises": []})J";
  Library lib = load_library({{"2.json", two}, {"1.json", one}});
  ASSERT_EQ(lib.packs.size(), 2u);
  EXPECT_EQ(lib.packs[0].id, "one");
}

TEST(Loader, NeverThrowsOnGarbage) {
  // Truncations and byte flips of a valid pack: loading must return, not throw or crash.
  std::string base = pack_with(kNumeric);
  for (size_t cut = 0; cut < base.size(); cut += 3) {
    EXPECT_NO_THROW(load_pack(base.substr(0, cut), "cut.json"));
  }
  for (size_t i = 0; i < base.size(); i += 2) {
    std::string s = base;
    s[i] = static_cast<char>(s[i] ^ 0x5A);
    EXPECT_NO_THROW(load_pack(s, "flip.json"));
  }
  EXPECT_FALSE(load_pack("", "empty.json").ok());
  EXPECT_FALSE(load_pack("[]", "arr.json").ok());
  EXPECT_FALSE(load_pack("\xff\xfe", "bin.json").ok());
}

TEST(Instances, DefaultSeedUsesDefaultsAndSeedsAreDeterministic) {
  Pack p = must_load(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "N={N}, M={M}",
    "params": {"N": {"default": 8, "choices": [4, 8, 16, 32]}, "M": {"default": 1, "min": 0.5, "max": 8, "step": 0.5}},
    "derived": {"steps": "2*(N-1)"},
    "parts": [{"id": "v", "answer": "steps*M/N", "unit": "GB"}]})J"));
  const Exercise& ex = p.exercises[0];
  Instance d = must_instance(ex, 0);
  EXPECT_EQ(*d.value("N"), 8);
  EXPECT_EQ(*d.value("steps"), 14);
  EXPECT_DOUBLE_EQ(d.part_values[0], 1.75);
  bool varied = false;
  for (uint64_t s = 1; s < 20; ++s) {
    Instance a = must_instance(ex, s), b = must_instance(ex, s);
    EXPECT_EQ(a.values, b.values);
    double m = *a.value("M");
    EXPECT_GE(m, 0.5);
    EXPECT_LE(m, 8);
    EXPECT_DOUBLE_EQ(m * 2, std::round(m * 2));  // on the step grid
    varied |= a.values != d.values;
  }
  EXPECT_TRUE(varied);
}

TEST(Instances, ConstraintsAreRespected) {
  Pack p = must_load(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {"p": {"default": 4, "choices": [2, 4, 8, 16]}, "m": {"default": 8, "choices": [1, 2, 4, 8, 16]}},
    "constraints": ["m >= p"],
    "parts": [{"id": "v", "answer": "(p-1)/m", "unit": ""}]})J"));
  for (uint64_t s = 1; s < 50; ++s) {
    Instance i = must_instance(p.exercises[0], s);
    EXPECT_GE(*i.value("m"), *i.value("p"));
  }
}

TEST(Render, PlaceholdersAndLiteralBraces) {
  Pack p = must_load(pack_with(R"J({"id": "a", "type": "numeric", "title": "A",
    "prompt": "N={N}, steps {2*(N-1)}, share {1/3:2}, big {N*1e9}, code `f() { return 1; }`, set {{N}}",
    "params": {"N": {"default": 8, "choices": [8]}},
    "parts": [{"id": "v", "answer": "N/2", "unit": ""}], "explanation": "= {answer} and {answer.v}"})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_EQ(i.render(p.exercises[0].prompt),
            "N=8, steps 14, share 0.33, big 8,000,000,000, code `f() { return 1; }`, set {N}");
  EXPECT_EQ(i.render(p.exercises[0].explanation), "= 4 and 4");
}

TEST(Loader, BareNumbersAreConstantExpressions) {
  // Numbers of any size are accepted where an expression is expected (no "16,384" slips).
  Pack p = must_load(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "parts": [{"id": "v", "answer": 16384, "unit": "", "mistakes": [{"answer": 12345.5, "message": "m"}]}]})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_DOUBLE_EQ(i.part_values[0], 16384);
  EXPECT_EQ(grade_parts(i, {"12,345.5"}).message, "m");
}
