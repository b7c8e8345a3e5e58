// Our own JSON syntax scan (engine/json_syntax.h): it accepts exactly what nlohmann's parser
// accepts (shipped packs, and thousands of one-byte mutations of them), and says what is
// wrong, and where, in an author's words.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "content_util.h"
#include "json_syntax.h"
#include "rng.h"
#include "model.h"

using namespace dtx;

namespace {

bool nlohmann_accepts(const std::string& text) { return nlohmann::json::accept(text); }

std::string message_of(const std::string& text) {
  auto e = find_json_syntax_error(text);
  return e ? e->message : "";
}
size_t offset_of(const std::string& text) {
  auto e = find_json_syntax_error(text);
  return e ? e->offset : std::string::npos;
}

}  // namespace

TEST(JsonSyntax, AcceptsWhatNlohmannAcceptsAndRejectsWhatItRejects) {
  std::vector<std::string> texts;
  for (const auto& s : dtx::testing::shipped_pack_sources()) texts.push_back(s.text);
  ASSERT_FALSE(texts.empty());
  Rng rng(7);
  int mutations = 0, invalid = 0;
  const std::string alphabet = "{}[],:\"'\\ \n0123456789-+.eEtrufalsn/\x01\xC3\xA9\xFF";
  for (const auto& full : texts) {
    EXPECT_FALSE(find_json_syntax_error(full).has_value()) << message_of(full);
    const std::string text = full.substr(0, 1500);  // a prefix is (almost always) invalid: closers missing
#ifdef __EMSCRIPTEN__
    // Under node the page's -Oz build parses about four times slower than native: 60 mutations
    // a pack check the platform (25 s at 300); the native run keeps all 300.
    constexpr int kMutations = 60;
#else
    constexpr int kMutations = 300;
#endif
    for (int k = 0; k < kMutations; ++k) {
      std::string m = full;
      size_t at = rng.below(m.size());
      switch (rng.below(3)) {
        case 0: m.erase(at, 1); break;
        case 1: m.insert(at, 1, alphabet[rng.below(alphabet.size())]); break;
        default: m[at] = alphabet[rng.below(alphabet.size())]; break;
      }
      const bool ours = !find_json_syntax_error(m).has_value();
      ASSERT_EQ(ours, nlohmann_accepts(m)) << "mutation at byte " << at << ": ours says " << (ours ? "valid" : message_of(m));
      ++mutations;
      invalid += !ours;
    }
    EXPECT_EQ(find_json_syntax_error(text).has_value(), !nlohmann_accepts(text));
  }
  EXPECT_GT(invalid, mutations / 4) << "the mutations should mostly break the JSON";
}

TEST(JsonSyntax, SaysWhatIsWrongWhereTheFixGoes) {
  // A trailing comma: at the '}' or ']' it stands before.
  EXPECT_EQ(message_of("{\"a\": 1,\n}"), "a comma before '}': JSON allows no comma after the last member");
  EXPECT_EQ(offset_of("{\"a\": 1,\n}"), 9u);
  EXPECT_EQ(message_of("[1, 2,]"), "a comma before ']': JSON allows no comma after the last item");
  // Names and texts without double quotes, at the word's start.
  EXPECT_EQ(message_of("{\"a\": 1, title: 2}"), "member names need double quotes: write \"title\"");
  EXPECT_EQ(offset_of("{\"a\": 1, title: 2}"), 9u);
  EXPECT_EQ(message_of("{'a': 1}"), "member names use double quotes (\"name\"), not single quotes");
  EXPECT_EQ(message_of("{\"a\": 'x'}"), "JSON strings use double quotes (\"...\"), not single quotes");
  EXPECT_EQ(message_of("{\"a\": ring}"), "'ring' is not a JSON value: text goes in double quotes (\"ring\")");
  EXPECT_EQ(message_of("{\"a\": True}"), "JSON writes true in lower case: 'True' is not a value");
  EXPECT_EQ(message_of("{\"a\": NaN}"), "'NaN' is not a JSON number: JSON has no NaN or infinity");
  // Missing punctuation.
  EXPECT_EQ(message_of("{\"a\" 1}"), "a ':' is missing between the member's name and its value");
  EXPECT_EQ(message_of("{\"a\": 1 \"b\": 2}"), "a comma is missing before this member");
  EXPECT_EQ(offset_of("{\"a\": 1 \"b\": 2}"), 8u);
  EXPECT_EQ(message_of("[1 2]"), "a comma is missing before this value");
  EXPECT_EQ(message_of("{\"a\": [1}"), "'}' closes an object here, but the open array needs ']' first");
  EXPECT_EQ(message_of("[1,,2]"), "a value is missing in this array: two commas, or a comma with nothing before it");
  // Strings.
  EXPECT_EQ(message_of("{\"a\": \"one\ntwo\"}"),
            "this string runs past the end of its line: a closing '\"' is missing, or write \\n for a line break inside it");
  EXPECT_EQ(offset_of("{\"a\": \"one\ntwo\"}"), 10u);
  EXPECT_EQ(message_of("{\"a\": \"x\\q\"}").rfind("\\q is not an escape JSON knows", 0), 0u);
  EXPECT_NE(message_of("{\"a\": \"\\ud800\"}").find("is the first half of a surrogate pair"), std::string::npos);
  EXPECT_EQ(message_of("{\"a\": \"caf\xE9\"}"), "a byte that is not UTF-8 (byte 0xE9) inside a string: save the file as UTF-8");
  EXPECT_EQ(message_of("{\"a\": \"open"), "the file ends inside this string (it opened at byte 7): a closing '\"' is missing");
  EXPECT_EQ(offset_of("{\"a\": \"open"), 11u);
  // Numbers, comments, the ends of the text.
  EXPECT_EQ(message_of("[01]"), "'01': a JSON number does not start with 0 followed by a digit");
  EXPECT_EQ(message_of("[1.]"), "'1.': a JSON number needs digits after its '.' (write 1.0, not 1.)");
  EXPECT_EQ(message_of("[.5]"), "'.5': a JSON number starts with a digit (write 0.5)");
  EXPECT_EQ(message_of("{\"a\": 1 // note\n}"), "expected ',' or '}', got '/'");
  EXPECT_EQ(message_of("{\"a\": // note\n1}"), "JSON has no comments; write notes in a \"$comment\" member");
  EXPECT_EQ(message_of("{\"a\": [1, {\"b\": 2"), "the file ends before the JSON does: 3 brackets are still open (missing: }]})");
  EXPECT_EQ(message_of(""), "the file is empty: a pack is one JSON object, { ... }");
  EXPECT_EQ(message_of("{} }").rfind("text after the end of the JSON", 0), 0u);
  // A byte order mark is allowed, as nlohmann allows it.
  EXPECT_FALSE(find_json_syntax_error("\xEF\xBB\xBF{\"a\": 1}").has_value());
}

TEST(JsonSyntax, TheLoaderReportsItsMessagesAtItsPositions) {
  LoadResult r = load_pack("{\n  \"format\": 1,\n  \"id\": \"x\",\n}\n", "t.json");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 4);
  EXPECT_EQ(r.diagnostics[0].column, 1);
  EXPECT_EQ(r.diagnostics[0].message, "invalid JSON: a comma before '}': JSON allows no comma after the last member");
}
