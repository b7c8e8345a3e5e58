#include <gtest/gtest.h>

#include <chrono>
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
  EXPECT_EQ(format_diagnostic(d).rfind("x.json:3:55: error[E012]: /exercises/0/parts/0/tolerence: unknown field", 0), 0u)
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

// The wasm build has no exceptions (CMakeLists.txt): there a throw aborts the whole run, which
// fails it just the same.
#if defined(__cpp_exceptions)
#define DTX_EXPECT_RETURNS(statement) EXPECT_NO_THROW(statement)
#else
#define DTX_EXPECT_RETURNS(statement) (void)(statement)
#endif

TEST(Loader, NeverThrowsOnGarbage) {
  // Truncations and byte flips of a valid pack: loading must return, not throw or crash.
  std::string base = pack_with(kNumeric);
  for (size_t cut = 0; cut < base.size(); cut += 3) {
    DTX_EXPECT_RETURNS(load_pack(base.substr(0, cut), "cut.json"));
  }
  for (size_t i = 0; i < base.size(); i += 2) {
    std::string s = base;
    s[i] = static_cast<char>(s[i] ^ 0x5A);
    DTX_EXPECT_RETURNS(load_pack(s, "flip.json"));
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
  EXPECT_DOUBLE_EQ(part_values(d)[0], 1.75);
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
  EXPECT_DOUBLE_EQ(part_values(i)[0], 16384);
  EXPECT_EQ(grade_parts(i, {"12,345.5"}).message, "m");
}

// ---- limits (model.h, json_pos.h): checked before anything recursive reads the document,
// each reported once with its place.

namespace {

// `levels` nested arrays as the first exercise; the brackets start at column 17 of line 2.
std::string deep_pack(int levels) {
  return "{\"format\": 1, \"chapter\": 0, \"id\": \"t\", \"title\": \"T\",\n"
         "  \"exercises\": [" + std::string(levels, '[') + std::string(levels, ']') + "]}";
}

}  // namespace

TEST(LoaderLimits, APackLargerThan10MBIsRefusedByName) {
  std::string text = pack_with(kNumeric);
  text.append(kMaxPackBytes + 1 - text.size(), ' ');
  LoadResult r = load_pack(text, "exercises/huge.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(format_diagnostic(d).rfind("exercises/huge.json:1:1: error[E002]: the file is larger than 10 MB (10,485,760 bytes), "
                                       "the most a pack may be", 0), 0u)
      << format_diagnostic(d);
  // Exactly at the limit it loads.
  text.pop_back();
  EXPECT_TRUE(load_pack(text, "exercises/huge.json").ok());
}

TEST(LoaderLimits, JsonNestedDeeperThan256LevelsIsAPositionedError) {
  // "exercises" is level 2 of the document, so 254 more levels are still fine ...
  LoadResult ok = load_pack(deep_pack(254), "deep.json");
  for (const auto& d : ok.diagnostics) EXPECT_EQ(d.message.find("nested deeper"), std::string::npos) << d.message;
  // ... and the 255th opens level 257, at line 2, column 16 + 255.
  for (int levels : {255, 5000, 30000}) {
    LoadResult r = load_pack(deep_pack(levels), "deep.json");
    ASSERT_EQ(r.diagnostics.size(), 1u) << levels;
    EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
              "deep.json:2:271: error[E004]: nested deeper than 256 levels of arrays and objects");
  }
}

TEST(LoaderLimits, DeepObjectsTooAndNoCrashOnMillionsOfLevels) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(100000, '}');
  LoadResult r = load_pack(deep, "objects.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].column, 5 * 256 + 1);
  // Unbalanced and deep: the syntax error is found first, still without recursion.
  r = load_pack(std::string(1000000, '['), "open.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("invalid JSON"), std::string::npos) << r.diagnostics[0].message;
}

TEST(LoaderLimits, ObjectsWithTooManyMembersAndLongNames) {
  std::string params;
  for (int i = 0; i < 300; ++i) params += (i ? ", \"p" : "\"p") + std::to_string(i) + "\": {\"default\": 1}";
  LoadResult r = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {)J" + params + R"J(}, "parts": [{"id": "v", "answer": "1", "unit": ""}]})J"), "wide.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "this object has more than 256 members");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  std::string text = pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {)J" + params + "}}");
  size_t key = text.find("\"p256\"");
  EXPECT_EQ(r.diagnostics[0].column, static_cast<int>(key - text.rfind('\n', key)));
  std::string name(201, 'n');
  r = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "params": {")J" + name + R"J(": {"default": 1}}, "parts": [{"id": "v", "answer": "1", "unit": ""}]})J"), "name.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "a member name of 201 characters; names are limited to 200");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 16);
}

TEST(LoaderLimits, LongTextsTitlesAndIdsAreErrorsAtTheirPlace) {
  auto ex = [](const std::string& title, const std::string& prompt, const std::string& id) {
    return pack_with("{\"id\": \"" + id + "\", \"type\": \"numeric\", \"title\": \"" + title +
                     "\",\n \"prompt\": \"" + prompt + "\", \"parts\": [{\"id\": \"v\", \"answer\": \"1\", \"unit\": \"\"}]}");
  };
  EXPECT_TRUE(load_pack(ex(std::string(kMaxTitleChars, 't'), std::string(kMaxTextBytes, 'p'), std::string(kMaxIdChars, 'i')),
                        "ok.json").ok());
  LoadResult r = load_pack(ex(std::string(kMaxTitleChars + 1, 't'), "p", "a"), "title.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "title.json:1:111: error[E007]: /exercises/0/title: this title is 201 characters long; a title may be at most 200 "
            "(put the rest in the prompt)");
  EXPECT_FALSE(r.partial.has_value());  // nothing of the pack is used, not even in a preview
  r = load_pack(ex("T", std::string(kMaxTextBytes + 1, 'p'), "a"), "prompt.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "prompt.json:2:12: error[E007]: /exercises/0/prompt: this text is 65,537 bytes long; a text may be at most 65,536 "
            "bytes (64 KB)");
  r = load_pack(ex("T", "p", std::string(kMaxIdChars + 1, 'i')), "id.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("this id is 101 characters long"), std::string::npos);
  EXPECT_EQ(r.diagnostics[0].pointer, "/exercises/0/id");
  // A pack's own title, and any other string of the document (a hint, a code line).
  std::string t = R"({"format": 1, "chapter": 0, "id": "t", "title": ")" + std::string(300, 'T') + R"(", "exercises": []})";
  EXPECT_EQ(load_pack(t, "pt.json").diagnostics.at(0).pointer, "/title");
  r = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p", "hints": ["h", ")J" +
                          std::string(kMaxTextBytes + 1, 'h') + R"J("], "parts": [{"id": "v", "answer": "1", "unit": ""}]})J"),
                "hint.json");
  EXPECT_EQ(r.diagnostics.at(0).pointer, "/exercises/0/hints/1");
  // "title" elsewhere (a part's label named title would be another field) is only a text.
  EXPECT_TRUE(load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": "A", "prompt": "p",
    "widget": {"$comment": ")J" + std::string(300, 'c') + R"J("}, "parts": [{"id": "v", "answer": "1", "unit": ""}]})J"),
                        "x.json").diagnostics.at(0).message.find("characters long") == std::string::npos);
}

TEST(LoaderLimits, ManyMistakesListTheFirst200AndCountTheRest) {
  std::string many;
  for (int i = 0; i < 1000; ++i) many += i ? ",1" : "1";
  std::string text = R"({"format": 1, "chapter": 0, "id": "t", "title": "T", "exercises": [)" + many + "]}";
  LoadResult r = load_pack(text, "many.json");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), kMaxDiagnosticsPerPack + 1);
  EXPECT_EQ(r.diagnostics[0].pointer, "/exercises/0");
  EXPECT_EQ(r.diagnostics.back().message, "... and 800 more problems not listed (the first 200 are)");
  EXPECT_EQ(r.authored, 1000);
  EXPECT_TRUE(r.partial && r.partial->exercises.empty());
}

TEST(LoaderLimits, ArraysOfMoreThan1000ItemsAreRefusedAtTheFirstItemTooMany) {
  std::string many;
  for (int i = 0; i < 100000; ++i) many += i ? ", 1" : "1";
  std::string text = R"({"format": 1, "chapter": 0, "id": "t", "title": "T", "exercises": [)" + many + "]}";
  LoadResult r = load_pack(text, "many.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "many.json:1:" + std::to_string(text.find('[') + 1 + 1000 * 3 + 1) +
                ": error[E004]: this array has more than 1,000 items");
}

TEST(JsonPos, ColumnsOnAMegabyteLineMatchCountingFromTheLineStart) {
  std::string text = "[\n";
  while (text.size() < 1000000) text += "\"\xC3\xA9t\xC3\xA9\", ";
  text += "1]";
  JsonPosIndex idx = JsonPosIndex::build(text);
  for (size_t off : {size_t{2}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{70001}, text.size() - 1, text.size()}) {
    TextPos p = idx.at_offset(text, off);
    EXPECT_EQ(p.line, 2) << off;
    int naive = 1;
    for (size_t i = 2; i < off; ++i) naive += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    EXPECT_EQ(p.column, naive) << off;
  }
}

TEST(JsonPos, PointersFindEscapedKeysDuplicatesAndArrayItems) {
  std::string text = R"({"a/b": {"x": [10, 20, {"~k": 3}]}, "\u00e9": 1, "d": 1, "d": [2]})";
  JsonPosIndex idx = JsonPosIndex::build(text);
  EXPECT_EQ(idx.offset_of(text, "/a~1b/x/1"), text.find("20"));
  EXPECT_EQ(idx.offset_of(text, "/a~1b/x/2/~0k"), text.find("3}"));
  EXPECT_EQ(idx.offset_of(text, "/a~1b/x/2/~0k", true), text.find("\"~k\""));
  EXPECT_EQ(idx.offset_of(text, "/\xC3\xA9"), text.find("1,"));
  EXPECT_EQ(idx.offset_of(text, "/d"), text.find("[2]"));  // the later of two, as nlohmann keeps
  EXPECT_EQ(idx.offset_of(text, "/a~1b/x/7"), text.find("[10"));  // nearest ancestor
  EXPECT_EQ(idx.offset_of(text, "/nothing"), 0u);
  ASSERT_EQ(idx.duplicate_keys.size(), 1u);
  EXPECT_EQ(idx.pointer_of(text, idx.duplicate_keys[0]), "/d");
  for (uint32_t i = 0; i < idx.nodes.size(); ++i)
    if (idx.nodes[i].value_offset == text.find("3}")) EXPECT_EQ(idx.pointer_of(text, i), "/a~1b/x/2/~0k");
  EXPECT_EQ(idx.pointer_of(text, static_cast<uint32_t>(idx.nodes.size() - 1)), "/d/0");
}

TEST(RenderLimits, A64KBPromptOfOpenBracesRendersInLinearTime) {
  // Drawn every frame: each '{' used to search to the far '}' and copy everything between,
  // 1.2 s for this prompt.
  Instance inst;
  inst.values = {{"N", 8}};
  std::string braces;
  while (braces.size() < kMaxTextBytes - 8) braces += "{a";
  std::string text = braces + "{N}";
  auto t0 = std::chrono::steady_clock::now();
  std::string out = inst.render(text);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(out, braces + "8");
  EXPECT_LT(ms, 100) << ms << " ms";
  // A placeholder longer than any expression is left as written.
  std::string long_one = "{" + std::string(kMaxExprLength + 10, '1') + "}";
  EXPECT_EQ(inst.render(long_one), long_one);
}

TEST(LoaderLimits, AHugeTitleIsNamedAsATitle) {
  // The 5 MB title that froze the page: refused, and the message names the title's limit.
  std::string title(5 * 1024 * 1024, 'T');
  LoadResult r = load_pack(pack_with(R"J({"id": "a", "type": "numeric", "title": ")J" + title +
                                     R"J(", "prompt": "p", "parts": [{"id": "v", "answer": "1", "unit": ""}]})J"),
                           "t.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message,
            "this title is 5,242,880 characters long; a title may be at most 200 (put the rest in the prompt)");
}
