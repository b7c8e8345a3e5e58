// Malformed packs: every file in tests/malformed has exactly one deliberate problem, and
// tests/malformed/expected.json says which diagnostic the engine must give for it:
//
//   "file.json": {"stage": "load" | "lint", "line": L, "column": C, "pointer": "/json/pointer",
//                 "message_contains": "...", "count": N, "known_bug": "..."}
//
// stage "load": load_pack fails and reports it; stage "lint": load_pack succeeds and
// lint_library reports it. line and column (1-based, UTF-8 characters) and pointer must match
// exactly, the message must contain the substring, and with "count" the stage must report
// exactly that many errors. An entry with "known_bug" describes what the engine SHOULD say:
// the test is skipped with that text while the engine disagrees, and fails once the engine
// agrees, so the marker gets removed when the bug is fixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lint.h"
#include "model.h"

using namespace dtx;

namespace {

namespace fs = std::filesystem;

std::string malformed_dir() { return std::string(DTX_SOURCE_DIR) + "/tests/malformed"; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);  // binary: a CRLF file must stay CRLF
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Expectation {
  std::string file, stage, pointer, message_contains, known_bug;
  int line = 0, column = 0;
  int count = -1;  // -1: not checked
};

struct ExpectationFile {
  std::map<std::string, Expectation> cases;
  std::vector<std::string> problems;  // anything wrong with expected.json itself
};

// Reads expected.json once. Never throws: this also runs while tests are being registered,
// and a broken expected.json must show up as a failing test, not as a crash.
const ExpectationFile& expectations() {
  static const ExpectationFile loaded = [] {
    ExpectationFile out;
    std::string path = malformed_dir() + "/expected.json";
    nlohmann::json doc = nlohmann::json::parse(read_file(path), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      out.problems.push_back(path + " is missing or is not a JSON object");
      return out;
    }
    static const std::set<std::string> kKeys = {"stage",   "line",             "column", "pointer",
                                                "message_contains", "count", "known_bug"};
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      const std::string& name = it.key();
      const nlohmann::json& e = it.value();
      auto bad = [&](const std::string& why) { out.problems.push_back(name + ": " + why); };
      if (!e.is_object()) {
        bad("expected an object");
        continue;
      }
      for (auto k = e.begin(); k != e.end(); ++k)
        if (!kKeys.count(k.key())) bad("unknown key \"" + k.key() + "\"");
      Expectation x;
      x.file = name;
      bool ok = true;
      auto str = [&](const char* key, std::string* dst, bool required) {
        auto f = e.find(key);
        if (f == e.end()) {
          if (required) bad(std::string("missing \"") + key + "\""), ok = false;
        } else if (!f->is_string()) {
          bad(std::string("\"") + key + "\" must be a string"), ok = false;
        } else {
          *dst = f->get<std::string>();
        }
      };
      auto num = [&](const char* key, int* dst, bool required) {
        auto f = e.find(key);
        if (f == e.end()) {
          if (required) bad(std::string("missing \"") + key + "\""), ok = false;
        } else if (!f->is_number_integer()) {
          bad(std::string("\"") + key + "\" must be an integer"), ok = false;
        } else {
          *dst = f->get<int>();
        }
      };
      str("stage", &x.stage, true);
      str("pointer", &x.pointer, true);
      str("message_contains", &x.message_contains, true);
      str("known_bug", &x.known_bug, false);
      num("line", &x.line, true);
      num("column", &x.column, true);
      num("count", &x.count, false);
      if (ok && x.stage != "load" && x.stage != "lint") bad("\"stage\" must be \"load\" or \"lint\""), ok = false;
      if (ok && (x.line < 1 || x.column < 1)) bad("line and column are 1-based"), ok = false;
      if (ok && x.message_contains.empty()) bad("\"message_contains\" must not be empty"), ok = false;
      if (e.contains("known_bug") && x.known_bug.empty()) bad("\"known_bug\" must describe the bug"), ok = false;
      if (ok) out.cases[name] = x;
    }
    return out;
  }();
  return loaded;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& [name, x] : expectations().cases) names.push_back(name);
  return names;
}

std::vector<std::string> pack_files_on_disk() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(malformed_dir(), ec))
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().filename() != "expected.json")
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Diagnostic> errors_of(const std::vector<Diagnostic>& ds) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.severity == Severity::Error) out.push_back(d);
  return out;
}

std::string dump(const std::vector<Diagnostic>& ds) {
  if (ds.empty()) return "  (no diagnostics)\n";
  std::string s;
  for (const auto& d : ds) s += "  " + format_diagnostic(d) + "\n";
  return s;
}

// Everything in which the engine's answer for `x` differs from the expectation.
std::vector<std::string> mismatches(const Expectation& x) {
  std::vector<std::string> out;
  std::string text = read_file(malformed_dir() + "/" + x.file);
  if (text.empty()) return {"the file is missing or empty"};

  LoadResult r = load_pack(text, x.file);
  std::vector<Diagnostic> got;  // the errors of the stage under test
  if (x.stage == "load") {
    if (r.ok()) out.push_back("load_pack succeeded; expected it to fail");
    got = errors_of(r.diagnostics);
  } else {
    if (!r.ok() || !errors_of(r.diagnostics).empty())
      return {"a lint case must load without errors, but load_pack reported:\n" + dump(r.diagnostics)};
    Library lib;
    lib.packs.push_back(std::move(*r.pack));
    got = errors_of(lint_library(lib, nullptr));
  }

  if (x.count >= 0 && static_cast<int>(got.size()) != x.count)
    out.push_back("expected exactly " + std::to_string(x.count) + " " + x.stage + " error(s), got " +
                  std::to_string(got.size()) + ":\n" + dump(got));

  auto d = std::find_if(got.begin(), got.end(), [&](const Diagnostic& g) {
    return g.pointer == x.pointer && g.message.find(x.message_contains) != std::string::npos;
  });
  if (d == got.end()) {
    out.push_back("no " + x.stage + " error with pointer \"" + x.pointer + "\" and a message containing \"" +
                  x.message_contains + "\"; got:\n" + dump(got));
    return out;
  }
  std::string where = "  " + format_diagnostic(*d) + "\n";
  if (d->file != x.file) out.push_back("file is \"" + d->file + "\", expected \"" + x.file + "\"\n" + where);
  if (d->line != x.line || d->column != x.column)
    out.push_back("position is " + std::to_string(d->line) + ":" + std::to_string(d->column) + ", expected " +
                  std::to_string(x.line) + ":" + std::to_string(x.column) + "\n" + where);
  return out;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

class MalformedPack : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(MalformedPack, ReportsTheExpectedDiagnostic) {
  const Expectation& x = expectations().cases.at(GetParam());
  std::vector<std::string> problems = mismatches(x);
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  if (!x.known_bug.empty()) {
    if (problems.empty())
      ADD_FAILURE() << x.file << ": the engine now reports what expected.json asks for, so this "
                    << "known bug looks fixed; remove its \"known_bug\" marker. It was: " << x.known_bug;
    else
      GTEST_SKIP() << "known engine bug: " << x.known_bug << "\n" << all;
    return;
  }
  EXPECT_TRUE(problems.empty()) << x.file << " (" << x.stage << "):\n" << all;
}

INSTANTIATE_TEST_SUITE_P(Malformed, MalformedPack, ::testing::ValuesIn(case_names()), test_name);

// A case can't drop out silently: every pack file has an expectation and every expectation
// has its file.
TEST(MalformedPacks, ExpectationsMatchTheFilesOnDisk) {
  const ExpectationFile& exp = expectations();
  for (const auto& p : exp.problems) ADD_FAILURE() << "expected.json: " << p;
  std::vector<std::string> files = pack_files_on_disk();
  std::set<std::string> on_disk(files.begin(), files.end());
  for (const auto& f : files)
    EXPECT_TRUE(exp.cases.count(f)) << f << " is in tests/malformed but has no (valid) entry in expected.json";
  for (const auto& [name, x] : exp.cases)
    EXPECT_TRUE(on_disk.count(name)) << "expected.json has an entry for " << name << " but there is no such file";
  EXPECT_GE(files.size(), 24u) << "fewer malformed packs than the suite is meant to cover";
}

// The suite exercises both the loader and lint.
TEST(MalformedPacks, BothStagesAreCovered) {
  int load = 0, lint = 0;
  for (const auto& [name, x] : expectations().cases) (x.stage == "load" ? load : lint)++;
  EXPECT_GT(load, 0);
  EXPECT_GT(lint, 0);
}

// Two packs that share an exercise id: the second is rejected whole, with an error in the
// second file that names the first; the first still loads.
TEST(MalformedLibrary, DuplicateIdAcrossPacksRejectsTheSecond) {
  const std::string first = R"({
  "format": 1,
  "chapter": 0,
  "id": "first",
  "title": "First",
  "exercises": [
    {
      "id": "shared.volume",
      "type": "numeric",
      "title": "Volume",
      "prompt": "How much does one GPU send?",
      "parts": [ { "id": "volume", "answer": "2*7/8", "unit": "GB" } ]
    }
  ]
}
)";
  const std::string second = R"({
  "format": 1,
  "chapter": 1,
  "id": "second",
  "title": "Second",
  "exercises": [
    {
      "id": "second.only",
      "type": "numeric",
      "title": "Phase",
      "prompt": "How much does one GPU send in one phase?",
      "parts": [ { "id": "volume", "answer": "7/8", "unit": "GB" } ]
    },
    {
      "id": "shared.volume",
      "type": "numeric",
      "title": "Volume again",
      "prompt": "How much does one GPU send?",
      "parts": [ { "id": "volume", "answer": "2*7/8", "unit": "GB" } ]
    }
  ]
}
)";
  // Each pack is fine on its own.
  ASSERT_TRUE(load_pack(first, "packs/00-first.json").ok());
  ASSERT_TRUE(load_pack(second, "packs/01-second.json").ok());

  Library lib = load_library({{"packs/00-first.json", first}, {"packs/01-second.json", second}});
  std::vector<Diagnostic> errs = errors_of(lib.diagnostics);
  ASSERT_EQ(errs.size(), 1u) << dump(lib.diagnostics);
  const Diagnostic& d = errs[0];
  EXPECT_EQ(d.file, "packs/01-second.json");
  EXPECT_EQ(d.pointer, "/exercises/1/id");
  EXPECT_EQ(d.line, 15);  //       "id": "shared.volume",   (the value's opening quote)
  EXPECT_EQ(d.column, 13);
  EXPECT_NE(d.message.find("duplicate exercise id \"shared.volume\""), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("already used in packs/00-first.json"), std::string::npos) << d.message;

  // The first pack loads; the second is left out whole (none of its exercises appear).
  ASSERT_EQ(lib.packs.size(), 1u);
  EXPECT_EQ(lib.packs[0].file, "packs/00-first.json");
  ASSERT_NE(lib.find("shared.volume"), nullptr);
  EXPECT_EQ(lib.find("shared.volume")->file, "packs/00-first.json");
  EXPECT_EQ(lib.find("second.only"), nullptr);
  EXPECT_EQ(dump(errors_of(lint_library(lib, nullptr))), dump({}));
}
