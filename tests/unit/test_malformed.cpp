// Malformed packs: every file in tests/malformed has exactly one deliberate problem, and
// tests/malformed/expected.json says which diagnostic the engine must give for it:
//
//   "file.json": {"stage": "load" | "lint" | "warn", "code": "E012", "line": L, "column": C,
//                 "pointer": "/json/pointer", "message_contains": "...", "count": N,
//                 "runs_code": true, "pad_to_bytes": B, "seeds": N, "known_bug": "..."}
//
// stage "load": load_pack fails and reports it; stage "lint": load_pack succeeds and
// lint_library reports it; stage "warn": neither reports an error and lint with style warnings
// (`dtx lint --warn`) gives it as a warning. code, line and column (1-based, UTF-8 characters)
// and pointer must match exactly, the message must contain the substring, and with "count" the
// stage must report exactly that many errors (warnings for "warn"). "runs_code": lint finds it
// only by running the pack's JavaScript, which this engine-only test cannot: tests/cli/
// malformed.mjs checks those (and every other case) through `dtx lint`. "pad_to_bytes": the file
// is read with spaces appended up to that size (a pack over the 10 MB limit is not committed).
// "seeds": lint makes the instances of seeds 0..N-1 (`dtx lint --seeds N`), where the problem is.
// An entry with "known_bug" describes what the engine SHOULD say: the test is skipped with that
// text while the engine disagrees, and fails once the engine agrees, so the marker gets removed
// when the bug is fixed.
//
// Every diagnostic code (diagnostic_codes.h) must be produced by at least one of these packs
// and documented in docs/AUTHORING.md.
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

#include "assignment.h"
#include "diagnostic_codes.h"
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
  std::string file, stage, code, pointer, message_contains, known_bug;
  int line = 0, column = 0;
  int count = -1;  // -1: not checked
  bool runs_code = false;
  long long pad_to_bytes = 0;
  int seeds = 0;
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
    static const std::set<std::string> kKeys = {"stage", "code", "line", "column", "pointer", "message_contains",
                                                "count", "known_bug", "runs_code", "pad_to_bytes", "seeds"};
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
      str("code", &x.code, true);
      str("pointer", &x.pointer, true);
      str("message_contains", &x.message_contains, true);
      str("known_bug", &x.known_bug, false);
      num("line", &x.line, true);
      num("column", &x.column, true);
      num("count", &x.count, false);
      num("seeds", &x.seeds, false);
      if (ok && (x.seeds < 0 || x.seeds > 10000)) bad("\"seeds\" must be from 1 to 10000"), ok = false;
      if (auto f = e.find("runs_code"); f != e.end()) {
        if (!f->is_boolean()) bad("\"runs_code\" must be true or false"), ok = false;
        else x.runs_code = f->get<bool>();
      }
      if (auto f = e.find("pad_to_bytes"); f != e.end()) {
        if (!f->is_number_integer() || f->get<long long>() < 1 || f->get<long long>() > 64ll << 20)
          bad("\"pad_to_bytes\" must be a size in bytes up to 64 MB"), ok = false;
        else x.pad_to_bytes = f->get<long long>();
      }
      if (ok && x.stage != "load" && x.stage != "lint" && x.stage != "warn")
        bad("\"stage\" must be \"load\", \"lint\" or \"warn\""), ok = false;
      if (ok && !find_diag_code(x.code)) bad("\"code\" " + x.code + " is not a diagnostic code"), ok = false;
      if (ok && find_diag_code(x.code)->id != x.code) bad("\"code\" must be an id such as E012"), ok = false;
      if (ok && (find_diag_code(x.code)->severity() == Severity::Warning) != (x.stage == "warn"))
        bad("warnings (W0xx) are stage \"warn\", errors (E0xx) stage \"load\" or \"lint\""), ok = false;
      if (ok && (x.line < 1 || x.column < 1)) bad("line and column are 1-based"), ok = false;
      if (ok && x.message_contains.empty()) bad("\"message_contains\" must not be empty"), ok = false;
      if (e.contains("known_bug") && x.known_bug.empty()) bad("\"known_bug\" must describe the bug"), ok = false;
      if (ok) out.cases[name] = x;
    }
    return out;
  }();
  return loaded;
}

// The cases this test can check: those lint finds without running code (the others are
// tests/cli/malformed.mjs's, which runs every case through dtx lint).
std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& [name, x] : expectations().cases)
    if (!x.runs_code) names.push_back(name);
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

std::vector<Diagnostic> of_severity(const std::vector<Diagnostic>& ds, Severity sev) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.severity == sev) out.push_back(d);
  return out;
}
std::vector<Diagnostic> errors_of(const std::vector<Diagnostic>& ds) { return of_severity(ds, Severity::Error); }

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
  if (x.pad_to_bytes > static_cast<long long>(text.size())) text.append(x.pad_to_bytes - text.size(), ' ');

  std::vector<Diagnostic> got;  // the errors (warnings for "warn") of the stage under test
  if (looks_like_assignment(text)) {
    // An assignment file: "load" is load_assignment, "lint" checks it against a course (none
    // here, as for `dtx lint` run in tests/malformed).
    AssignmentLoad a = load_assignment(text, x.file);
    if (x.stage == "load") {
      if (a.assignment) out.push_back("load_assignment succeeded; expected it to fail");
      got = errors_of(a.diagnostics);
    } else if (!a.assignment) {
      return {"a " + x.stage + " case must load without errors, but load_assignment reported:\n" + dump(a.diagnostics)};
    } else {
      got = errors_of(lint_assignment(*a.assignment, text, Library{}));
    }
  } else if (LoadResult r = load_pack(text, x.file); x.stage == "load") {
    if (r.ok()) out.push_back("load_pack succeeded; expected it to fail");
    got = errors_of(r.diagnostics);
  } else {
    if (!r.ok() || !errors_of(r.diagnostics).empty())
      return {"a " + x.stage + " case must load without errors, but load_pack reported:\n" + dump(r.diagnostics)};
    Library lib;
    lib.packs.push_back(std::move(*r.pack));
    LintOptions options;
    options.warnings = x.stage == "warn";
    options.seeds = x.seeds;
    // As `dtx lint` run from tests/malformed: an image's path is looked up next to the pack.
    options.image_exists = [](const std::string& pack_file, const std::string& path) {
      std::error_code ec;
      return fs::is_regular_file(fs::path(malformed_dir()) / fs::path(pack_file).parent_path() / path, ec);
    };
    std::vector<Diagnostic> all = lint_library(lib, options);
    got = errors_of(all);
    if (x.stage == "warn") {
      if (!got.empty()) return {"a warn case must lint without errors, but lint reported:\n" + dump(got)};
      got = of_severity(all, Severity::Warning);
    }
  }

  const char* what = x.stage == "warn" ? " warning(s)" : " error(s)";
  if (x.count >= 0 && static_cast<int>(got.size()) != x.count)
    out.push_back("expected exactly " + std::to_string(x.count) + " " + x.stage + what + ", got " +
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
  if (diag_info(d->code).id != x.code)
    out.push_back("the code is " + std::string(diag_info(d->code).id) + ", expected " + x.code + "\n" + where);
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

// The suite exercises the loader, lint and lint's warnings.
TEST(MalformedPacks, EveryStageIsCovered) {
  std::map<std::string, int> n;
  for (const auto& [name, x] : expectations().cases) n[x.stage]++;
  EXPECT_GT(n["load"], 0);
  EXPECT_GT(n["lint"], 0);
  EXPECT_GT(n["warn"], 0);
}

// ---------------------------------------------------------------- the codes

// Each enumerator has exactly one row, ids are E or W and three digits, unique, in order.
TEST(DiagnosticCodes, EveryCodeHasOneWellFormedRow) {
  const auto& codes = diagnostic_codes();
  EXPECT_EQ(codes.size(), static_cast<size_t>(DiagCode::Count_));
  std::set<std::string> ids, names;
  std::string previous;
  for (const auto& c : codes) {
    std::string id = c.id;
    EXPECT_TRUE(id.size() == 4 && (id[0] == 'E' || id[0] == 'W') && std::isdigit(static_cast<unsigned char>(id[1])) &&
                std::isdigit(static_cast<unsigned char>(id[2])) && std::isdigit(static_cast<unsigned char>(id[3])))
        << id;
    EXPECT_TRUE(ids.insert(id).second) << "two codes are " << id;
    EXPECT_TRUE(names.insert(c.name).second) << "two codes are named " << c.name;
    EXPECT_LT(previous, id) << "codes out of order at " << id;
    previous = id;
    EXPECT_EQ(&diag_info(c.code), &c) << id;
    EXPECT_EQ(find_diag_code(id), &c) << id;
    EXPECT_EQ(find_diag_code(c.name), &c) << c.name;
    EXPECT_GT(std::string(c.summary).size(), 20u) << id << " needs a summary";
  }
  EXPECT_EQ(find_diag_code("e012"), find_diag_code("E012"));
  EXPECT_EQ(find_diag_code("E999"), nullptr);
}

// The issue's promise: every code is produced by at least one malformed pack (whose own test
// checks that it is), and is documented in the authoring guide.
TEST(DiagnosticCodes, EveryCodeIsProducedByAMalformedPackAndDocumented) {
  std::map<std::string, std::vector<std::string>> packs_of;
  for (const auto& [name, x] : expectations().cases) packs_of[x.code].push_back(name);
  std::string guide = read_file(std::string(DTX_SOURCE_DIR) + "/docs/AUTHORING.md");
  ASSERT_FALSE(guide.empty()) << "docs/AUTHORING.md is missing";
  for (const auto& c : diagnostic_codes()) {
    // A missing file is a problem of the command line, not of a pack: tests/cli/malformed.mjs
    // checks that `dtx lint` gives it.
    if (!c.file_system)
      EXPECT_FALSE(packs_of[c.id].empty()) << c.id << " " << c.name << ": no pack in tests/malformed produces it; "
                                              "add one and its entry in expected.json";
    std::string heading = std::string("### ") + c.id + " " + c.name + "\n";
    EXPECT_NE(guide.find(heading), std::string::npos)
        << c.id << ": docs/AUTHORING.md has no \"" << heading.substr(0, heading.size() - 1)
        << "\"; run node scripts/authoring-codes.mjs build/native/dtx";
  }
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
