// The student's review of mistakes: misconception keys set by grading (engine/misconception.h,
// engine/diagnose.h, the types), the log of mistakes in progress (engine/progress.h: record,
// store, read, merge as a CRDT), unknown top-level fields kept, and the grouping
// (engine/mistake_review.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "code/code.h"
#include "diagnose.h"
#include "helpers.h"
#include "misconception.h"
#include "mistake_review.h"
#include "progress.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

// One numeric part graded: the part's feedback for `given`.
PartFeedback part_for(const std::string& params, const std::string& answer, const std::string& unit,
                      const std::string& given, const std::string& mistakes = "") {
  Pack p = must_load(pack_with(R"J({"id": "x", "type": "numeric", "title": "X", "prompt": "p", "params": {)J" + params +
                               R"J(}, "parts": [{"id": "v", "answer": ")J" + answer + R"J(", "unit": ")J" + unit +
                               "\"" + (mistakes.empty() ? "" : ", \"mistakes\": " + mistakes) + "}]}"));
  Feedback f = grade_parts(must_instance(p.exercises[0]), {given});
  return f.parts.empty() ? PartFeedback{} : f.parts[0];
}

std::string all_of(const std::vector<std::string>& problems) {
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  return all;
}

MistakeRecord rec(const std::string& exercise, int64_t at, const std::string& key, const std::string& part = "v") {
  MistakeRecord m;
  m.exercise = exercise;
  m.seed = 7;
  m.at = at;
  m.writer = "1-w";
  m.part = part;
  m.given = "1 GB";
  m.message = "m";
  m.key = key;
  return m;
}

}  // namespace

// ---------------------------------------------------------------- keys from grading

TEST(MistakeKeys, EveryGenericSlipHasItsKeyThroughNumericGrading) {
  struct Row {
    const char* unit;
    const char* answer;
    const char* given;
    const char* key;
  };
  const Row rows[] = {
      {"GB", "3", "6", "double"},
      {"GB", "3", "1.5", "double"},
      {"GB", "3", "24", "bits-bytes"},
      {"GB", "3", "0.375", "bits-bytes"},
      {"GB", "1.75", "1.75 Gb", "bits-bytes"},  // the unit written in bits: its own message
      {"GB", "3", "3000", "unit-prefix"},
      {"s", "3", "0.003", "unit-prefix"},
      {"GB", "3", "3072", "binary-prefix"},
      {"GB", "1", "1.073741824", "binary-decimal"},
      {"GB", "1", "0.953674", "binary-decimal"},  // MiB vs MB the other way
      {"%", "40", "0.4", "percent-fraction"},
      {"", "0.4", "40", "percent-fraction"},
      {"s", "3", "3000000", "unit-million"},
      {"s", "3", "24", "instance-value"},  // N = 8 and seconds allow no slip of 8
      {"GB", "3", "5", ""},
  };
  for (const Row& r : rows) {
    PartFeedback pf = part_for(R"J("N": {"default": 8})J", r.answer, r.unit, r.given);
    EXPECT_EQ(pf.verdict, Verdict::Incorrect) << r.given;
    EXPECT_EQ(pf.misconception, r.key) << r.given << " for " << r.answer << " " << r.unit << ": " << pf.message;
    EXPECT_NE(find_misconception(r.key), nullptr) << r.key;
  }
  EXPECT_EQ(part_for("", "3", "GB", "3").misconception, "");  // right: no key
  // The message names the byte unit to write: "Gbit" -> "GB" (it said "GBit").
  EXPECT_NE(part_for("", "1.75", "GB", "1.75 Gbit").message.find("write GB."), std::string::npos)
      << part_for("", "1.75", "GB", "1.75 Gbit").message;
}

TEST(MistakeKeys, AListedMistakeGroupsUnderItsSlipOrAsListed) {
  const std::string mistakes = R"J([{"answer": "3*8", "message": "You used bits."},
                                    {"answer": "3+1", "message": "Off by one."},
                                    {"answer": "3*N", "message": "N once too often."}])J";
  PartFeedback bits = part_for(R"J("N": {"default": 5})J", "3", "GB", "24", mistakes);
  EXPECT_EQ(bits.message, "You used bits.");
  EXPECT_EQ(bits.misconception, "bits-bytes");
  PartFeedback off = part_for(R"J("N": {"default": 5})J", "3", "GB", "4", mistakes);
  EXPECT_EQ(off.message, "Off by one.");
  EXPECT_EQ(off.misconception, "listed");
  // A factor that is one of the instance's values is not a generic slip: it stays the author's.
  PartFeedback value = part_for(R"J("N": {"default": 5})J", "3", "GB", "15", mistakes);
  EXPECT_EQ(value.message, "N once too often.");
  EXPECT_EQ(value.misconception, "listed");
}

TEST(MistakeKeys, DiagnoseGivesTheSameMessageAsDiagnoseFactor) {
  FactorContext ctx;
  ctx.values = {{"N", 8}};
  for (double given : {2.0, 0.5, 8.0, 3.0, 0.125, 100.0}) {
    Diagnosis d = diagnose(given, 1, 1e-6, 0, ctx);
    EXPECT_EQ(d.message, diagnose_factor(given, 1, 1e-6, 0, ctx));
    EXPECT_EQ(d.key.empty(), d.message.empty()) << given;
    EXPECT_NE(find_misconception(d.key), nullptr) << d.key;
  }
}

TEST(MistakeKeys, TheTableIsWrittenForStudents) {
  ASSERT_GE(misconceptions().size(), 10u);
  for (const Misconception& m : misconceptions()) {
    EXPECT_EQ(find_misconception(m.key), &m);
    EXPECT_FALSE(std::string(m.name).empty()) << m.key;
    const std::string e = m.explanation;
    EXPECT_EQ(e.find('!'), std::string::npos) << m.key;
    EXPECT_EQ(e.back(), '.') << m.key;
  }
  EXPECT_EQ(find_misconception("nonsense"), nullptr);
  EXPECT_TRUE(find_misconception("bits-bytes")->across_exercises);
  EXPECT_FALSE(find_misconception("listed")->across_exercises);
  EXPECT_FALSE(find_misconception("")->across_exercises);
}

TEST(MistakeKeys, ACodeCaseAndItsCommonDiagnosisCarryTheKey) {
  Pack p = must_load(pack_with(R"J({"id": "k", "type": "code", "title": "K", "prompt": "p", "function": "f",
      "args": ["x"], "expected": "x * 3", "cases": [{"args": [1]}, {"args": [2]}, {"args": [5], "hidden": true}]})J"));
  Instance i = must_instance(p.exercises[0]);
  auto run = std::make_shared<CodeRunResult>();
  for (const char* v : {"6", "12", "30"}) {
    CodeCaseOutcome o;
    o.ok = true;
    o.value_json = v;
    run->student.push_back(o);
  }
  Feedback f = grade(i, make_answer(CodeAnswer("src", run)));
  ASSERT_EQ(f.cases.size(), 3u);
  EXPECT_EQ(f.cases[0].misconception, "double") << f.cases[0].message;
  EXPECT_EQ(f.cases[1].misconception, "double");
  EXPECT_EQ(f.cases[2].misconception, "");  // a hidden case keeps only its verdict
  EXPECT_EQ(f.misconception, "double") << f.message;
}

TEST(MistakeKeys, AnExplainedWrongOptionIsListed) {
  Pack p = must_load(pack_with(R"J({"id": "c", "type": "choice", "title": "C", "prompt": "p",
      "options": [{"text": "Ring", "correct": true}, {"text": "Tree", "feedback": "Few steps, not bandwidth."},
                  {"text": "Naive"}]})J"));
  Instance i = must_instance(p.exercises[0]);
  EXPECT_EQ(grade_picks(i, {1}).misconception, "listed");
  EXPECT_EQ(grade_picks(i, {2}).misconception, "");
  EXPECT_EQ(grade_picks(i, {0}).misconception, "");
}

// ---------------------------------------------------------------- recording

TEST(MistakeLog, RecordsEachWrongPartAndNothingElse) {
  Progress p;
  Feedback f;
  f.verdict = Verdict::Partial;
  f.score = 0.5;
  f.message = "1 of 2 parts correct.";
  PartFeedback right, wrong;
  right.id = "a";
  right.verdict = Verdict::Correct;
  wrong.id = "b";
  wrong.verdict = Verdict::Incorrect;
  wrong.given = "24 GB";
  wrong.message = "bits vs bytes";
  wrong.misconception = "bits-bytes";
  f.parts = {right, wrong};
  record_mistakes(p, "100-w", "ring.volume", 42, f, 1000);
  ASSERT_EQ(p.mistakes.size(), 1u);
  const MistakeRecord& m = p.mistakes[0];
  EXPECT_EQ(m.exercise, "ring.volume");
  EXPECT_EQ(m.seed, 42u);
  EXPECT_EQ(m.at, 1000);
  EXPECT_EQ(m.writer, "100-w");
  EXPECT_EQ(m.part, "b");
  EXPECT_EQ(m.given, "24 GB");
  EXPECT_EQ(m.message, "bits vs bytes");
  EXPECT_EQ(m.key, "bits-bytes");

  Feedback ok;
  ok.verdict = Verdict::Correct;
  record_mistakes(p, "100-w", "ring.volume", 42, ok, 1001);
  Feedback unreadable;
  unreadable.verdict = Verdict::FormatError;
  unreadable.message = "not a number";
  unreadable.parts = {wrong};
  record_mistakes(p, "100-w", "ring.volume", 42, unreadable, 1002);
  record_mistakes(p, "100-w", "", 42, f, 1003);  // no exercise: nothing to read back
  EXPECT_EQ(p.mistakes.size(), 1u);
}

TEST(MistakeLog, RecordsFailingVisibleCasesAndWholeAnswers) {
  Progress p;
  Feedback code;
  code.verdict = Verdict::Partial;
  code.message = "1 of 3 cases pass.";
  CaseFeedback pass, fail, noted, hidden;
  pass.pass = true;
  fail.args = "f(1)";
  fail.got = "6";
  fail.message = "twice";
  fail.misconception = "double";
  noted.args = "f(2)";
  noted.got = "error";
  noted.note = "two GPUs";
  hidden.hidden = true;
  code.cases = {pass, fail, noted, hidden};
  record_mistakes(p, "w", "k", 1, code, 10);
  ASSERT_EQ(p.mistakes.size(), 2u);
  EXPECT_EQ(p.mistakes[0].part, "f(1)");  // same second: then by the other fields
  EXPECT_EQ(p.mistakes[0].given, "6");
  EXPECT_EQ(p.mistakes[0].key, "double");
  EXPECT_EQ(p.mistakes[1].part, "f(2)");
  EXPECT_EQ(p.mistakes[1].message, "two GPUs");

  Progress q;
  Feedback choice;
  choice.verdict = Verdict::Incorrect;
  choice.message = "Not this one.";
  choice.details = {"Tree: few steps.", "ignored"};
  choice.misconception = "listed";
  record_mistakes(q, "w", "c", 2, choice, 20);
  ASSERT_EQ(q.mistakes.size(), 1u);
  EXPECT_EQ(q.mistakes[0].part, "");
  EXPECT_EQ(q.mistakes[0].given, "");
  EXPECT_EQ(q.mistakes[0].message, "Not this one. Tree: few steps.");
  EXPECT_EQ(q.mistakes[0].key, "listed");

  // Every failing case hidden: the answer as a whole, with the common diagnosis.
  Progress h;
  Feedback secret;
  secret.verdict = Verdict::Incorrect;
  secret.message = "0 of 1 cases pass. In every failing case: twice.";
  secret.misconception = "double";
  secret.cases = {hidden};
  record_mistakes(h, "w", "k", 3, secret, 30);
  ASSERT_EQ(h.mistakes.size(), 1u);
  EXPECT_EQ(h.mistakes[0].key, "double");
}

TEST(MistakeLog, TextsAreCutAtACharacterAndTheLogKeepsTheNewest) {
  Progress p;
  Feedback f;
  f.verdict = Verdict::Incorrect;
  std::string euros;
  for (int k = 0; k < 400; ++k) euros += "€";  // 3 bytes each
  f.message = euros;
  f.misconception = "no-such-key";
  record_mistakes(p, std::string(100, 'w'), "e", 0, f, -5);
  ASSERT_EQ(p.mistakes.size(), 1u);
  EXPECT_EQ(p.mistakes[0].message.size(), 999u);  // 333 whole characters
  EXPECT_EQ(p.mistakes[0].writer.size(), kMaxWriterIdLength);
  EXPECT_EQ(p.mistakes[0].key, "");
  EXPECT_EQ(p.mistakes[0].at, 0);
  // Invalid UTF-8 is recorded as it will be written, so it reads back the same.
  f.message = "bad \xff byte";
  record_mistakes(p, "w", "e", 0, f, 1);
  EXPECT_EQ(p.mistakes[0].message, "bad \xEF\xBF\xBD byte");
  for (int t = 0; t < 250; ++t) {
    f.message = "m" + std::to_string(t);
    record_mistakes(p, "w", "e", 0, f, 100 + t);
  }
  ASSERT_EQ(p.mistakes.size(), kMaxMistakes);
  EXPECT_EQ(p.mistakes.front().at, 349);
  EXPECT_EQ(p.mistakes.back().at, 150);
  EXPECT_EQ(read_progress(write_progress(p)).progress, p);
}

// ---------------------------------------------------------------- storing and reading

TEST(MistakeLog, RoundTripsWithSeedsAsDecimalText) {
  Progress p;
  MistakeRecord m = rec("ring.volume", 1763700000, "bits-bytes");
  m.seed = 18446744073709551615ull;  // no double holds it
  m.message = "Your answer is 8x: bits vs bytes (1 byte = 8 bits). “quoted” \n line";
  p.mistakes = {m, rec("a", 5, "")};
  const std::string text = write_progress(p);
  EXPECT_NE(text.find("\"18446744073709551615\""), std::string::npos) << text;
  ProgressRead r = read_progress(text);
  EXPECT_TRUE(r.problems.empty()) << all_of(r.problems);
  EXPECT_EQ(r.progress, p);
  // A seed stored as a JSON number reads too.
  r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {},
      "mistakes": [{"exercise": "a", "seed": 12, "at": 3}]})J");
  ASSERT_EQ(r.progress.mistakes.size(), 1u);
  EXPECT_EQ(r.progress.mistakes[0].seed, 12u);
  EXPECT_EQ(r.progress.mistakes[0].part, "");
}

TEST(MistakeLog, ADocumentWithoutALogReadsAsEmpty) {
  ProgressRead r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {"a": {"attempts": 1}}})J");
  EXPECT_TRUE(r.problems.empty()) << all_of(r.problems);
  EXPECT_TRUE(r.progress.mistakes.empty());
  EXPECT_TRUE(r.progress.unknown_fields.empty());
  EXPECT_EQ(r.progress.exercises.size(), 1u);
}

TEST(MistakeLog, BadEntriesAreReportedAndSkippedTheRestKept) {
  const std::string long_given(kMaxMistakeGivenBytes + 1, 'x');
  ProgressRead r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {}, "mistakes": [
      {"exercise": "good", "seed": "1", "at": 10, "key": "double"},
      "not an object",
      {"seed": "1", "at": 10},
      {"exercise": "a", "seed": "-1", "at": 10},
      {"exercise": "a", "seed": "18446744073709551616", "at": 10},
      {"exercise": "a", "seed": 1.5, "at": 10},
      {"exercise": "a", "seed": "1", "at": -1},
      {"exercise": "a", "seed": "1", "at": 32503680001},
      {"exercise": "a", "seed": "1", "at": 10.5},
      {"exercise": "a", "seed": "1", "at": 10, "given": ")J" + long_given + R"J("},
      {"exercise": "a", "seed": "1", "at": 10, "message": 3},
      {"exercise": "newer", "seed": "2", "at": 11, "key": "from-a-newer-build"},
      {"exercise": "odd", "seed": "3", "at": 9, "key": "Not A Key!"}]})J");
  EXPECT_FALSE(r.unreadable);
  ASSERT_EQ(r.progress.mistakes.size(), 3u) << all_of(r.problems);
  EXPECT_EQ(r.progress.mistakes[0].exercise, "newer");
  EXPECT_EQ(r.progress.mistakes[0].key, "from-a-newer-build") << "a later build's key is kept, so merges keep one record";
  EXPECT_EQ(r.progress.mistakes[1].exercise, "good");
  EXPECT_EQ(r.progress.mistakes[2].key, "");
  EXPECT_EQ(r.problems.size(), 11u) << all_of(r.problems);
  EXPECT_NE(all_of(r.problems).find("mistake 3 of the log is malformed (\"exercise\" is missing)"), std::string::npos)
      << all_of(r.problems);
  EXPECT_NE(all_of(r.problems).find("\"at\" = 32503680001 is outside"), std::string::npos) << all_of(r.problems);
  EXPECT_NE(all_of(r.problems).find("the key \"Not A Key!\", which is not a key"), std::string::npos);

  r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {"a": {"attempts": 1}}, "mistakes": {}})J");
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("not a list"), std::string::npos);
}

TEST(MistakeLog, AStoredLogBeyondTheCapKeepsTheNewest) {
  std::string list;
  for (int t = 0; t < 230; ++t)
    list += std::string(t ? "," : "") + R"J({"exercise": "e", "seed": "0", "at": )J" + std::to_string(t) + "}";
  ProgressRead r = read_progress(R"J({"format": "dtx-progress", "version": 2, "mistakes": [)J" + list + "]}");
  ASSERT_EQ(r.progress.mistakes.size(), kMaxMistakes);
  EXPECT_EQ(r.progress.mistakes.front().at, 229);
  EXPECT_EQ(r.progress.mistakes.back().at, 30);
  EXPECT_EQ(r.problems.size(), 1u) << all_of(r.problems);
}

// ---------------------------------------------------------------- unknown fields

TEST(UnknownFields, SurviveReadWriteAndMerge) {
  const std::string newer = R"J({"format": "dtx-progress", "version": 3, "exercises": {},
      "badges": [{"id": "first", "at": 5}], "notes": {"x": "y"}})J";
  ProgressRead r = read_progress(newer);
  EXPECT_FALSE(r.unreadable);
  ASSERT_EQ(r.progress.unknown_fields.size(), 2u);
  EXPECT_EQ(r.progress.unknown_fields["badges"], R"J([{"at":5,"id":"first"}])J");
  ProgressRead again = read_progress(write_progress(r.progress));
  EXPECT_EQ(again.progress, r.progress);

  Progress other;
  other.unknown_fields = {{"badges", R"J([])J"}, {"theme", R"J("dark")J"}};
  Progress m = merge_progress(r.progress, other);
  EXPECT_EQ(m, merge_progress(other, r.progress));
  ASSERT_EQ(m.unknown_fields.size(), 3u);
  EXPECT_EQ(m.unknown_fields["badges"], R"J([{"at":5,"id":"first"}])J");  // the larger text
  EXPECT_EQ(m.unknown_fields["theme"], R"J("dark")J");
}

TEST(UnknownFields, BeyondTheCapsAreReportedAndDropped) {
  std::string doc = R"J({"format": "dtx-progress", "version": 2)J";
  for (int k = 0; k < 40; ++k) doc += ", \"f" + std::string(k < 10 ? "0" : "") + std::to_string(k) + "\": " + std::to_string(k);
  doc += ", \"big\": \"" + std::string(kMaxUnknownFieldBytes, 'x') + "\"";
  // Nested deeper than the cap (written JSON recurses per level): dropped before it is written.
  doc += ", \"deep\": " + std::string(10000, '[') + std::string(10000, ']') + "}";
  ProgressRead r = read_progress(doc);
  EXPECT_EQ(r.progress.unknown_fields.size(), kMaxUnknownFields);
  EXPECT_EQ(r.progress.unknown_fields.count("big"), 0u);
  EXPECT_EQ(r.progress.unknown_fields.count("f00"), 1u);
  EXPECT_EQ(r.progress.unknown_fields.count("f31"), 1u);
  EXPECT_EQ(r.progress.unknown_fields.count("f32"), 0u);
  EXPECT_EQ(r.progress.unknown_fields.count("deep"), 0u);
  EXPECT_EQ(r.problems.size(), 10u) << all_of(r.problems);  // "big", "deep" and f32..f39
  // Just within the depth cap: kept.
  r = read_progress(R"J({"format": "dtx-progress", "x": )J" + std::string(kMaxUnknownFieldDepth, '[') +
                    std::string(kMaxUnknownFieldDepth, ']') + "}");
  EXPECT_EQ(r.progress.unknown_fields.count("x"), 1u) << all_of(r.problems);
}

// A newer build's field inside an exercise's record (a hint count, say) is kept by this one:
// read, written back, merged, and bounded like the top level's, with smaller caps.
TEST(UnknownFields, InsideAnExerciseRecordSurviveReadWriteAndMerge) {
  const std::string newer = R"J({"format": "dtx-progress", "version": 2, "exercises": {
      "ring.volume": {"attempts": 2, "by_writer": {"1700000000-a": 2}, "best": 1, "solved_at": 5, "last_at": 6,
                      "hints_seen": 3, "notes": {"x": "y"}}}})J";
  ProgressRead r = read_progress(newer);
  ASSERT_TRUE(r.problems.empty()) << all_of(r.problems);
  const ExerciseProgress& e = r.progress.exercises.at("ring.volume");
  ASSERT_EQ(e.unknown_fields.size(), 2u);
  EXPECT_EQ(e.unknown_fields.at("hints_seen"), "3");
  EXPECT_EQ(e.unknown_fields.at("notes"), R"J({"x":"y"})J");
  EXPECT_EQ(e.attempts(), 2);
  // Written back inside the record, not at the top.
  const std::string text = write_progress(r.progress);
  EXPECT_EQ(read_progress(text).progress, r.progress);
  EXPECT_NE(text.find("\"hints_seen\": 3"), std::string::npos) << text;
  EXPECT_TRUE(read_progress(text).progress.unknown_fields.empty());
  // An older tab's record of the same exercise (no such field) merges without losing it, in
  // either order; a name both have keeps the larger text.
  Progress older;
  older.exercises["ring.volume"].attempts_by_writer["1700000001-b"] = 1;
  older.exercises["ring.volume"].unknown_fields["hints_seen"] = "10";
  Progress m = merge_progress(r.progress, older);
  EXPECT_EQ(m, merge_progress(older, r.progress));
  EXPECT_EQ(m.exercises.at("ring.volume").unknown_fields.at("hints_seen"), "3");  // "3" > "10" as text
  EXPECT_EQ(m.exercises.at("ring.volume").unknown_fields.at("notes"), R"J({"x":"y"})J");
  EXPECT_EQ(m.exercises.at("ring.volume").attempts(), 3);
}

TEST(UnknownFields, InsideAnExerciseRecordBeyondTheCapsAreReportedAndDropped) {
  std::string rec = R"J("best": 0)J";
  for (size_t k = 0; k < kExerciseUnknownCaps.fields + 3; ++k) rec += ", \"f" + std::to_string(k) + "\": " + std::to_string(k);
  rec += ", \"big\": \"" + std::string(kExerciseUnknownCaps.bytes, 'x') + "\"";
  rec += ", \"deep\": " + std::string(kExerciseUnknownCaps.depth + 1, '[') + std::string(kExerciseUnknownCaps.depth + 1, ']');
  ProgressRead r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {"ring.volume": {)J" + rec + "}}}");
  const ExerciseProgress& e = r.progress.exercises.at("ring.volume");
  EXPECT_EQ(e.unknown_fields.size(), kExerciseUnknownCaps.fields);
  EXPECT_EQ(e.unknown_fields.count("big"), 0u);
  EXPECT_EQ(e.unknown_fields.count("deep"), 0u);
  EXPECT_EQ(r.problems.size(), 5u) << all_of(r.problems);  // "big", "deep" and three beyond the count
  for (const std::string& p : r.problems) EXPECT_EQ(p.rfind("the record for \"ring.volume\": the field", 0), 0u) << p;
  // Known fields are never taken for unknown ones, and a kept field never overwrites one.
  ExerciseProgress crafted;
  crafted.unknown_fields["best"] = "0.5";
  Progress p;
  p.exercises["ring.volume"] = crafted;
  p.exercises["ring.volume"].best_score = 1;
  EXPECT_EQ(read_progress(write_progress(p)).progress.exercises.at("ring.volume").best_score, 1);
}

// ---------------------------------------------------------------- merge

namespace {

// A random log, small alphabets so that two logs share records and tie on `at`.
Progress random_progress(std::mt19937_64& rng) {
  Progress p;
  const char* keys[] = {"", "double", "bits-bytes", "listed"};
  const size_t n = rng() % 140;
  for (size_t i = 0; i < n; ++i) {
    MistakeRecord m = rec(std::string(1, static_cast<char>('a' + rng() % 3)), static_cast<int64_t>(rng() % 60),
                          keys[rng() % 4], std::string(1, static_cast<char>('p' + rng() % 2)));
    m.seed = rng() % 3;
    p.mistakes.push_back(m);
  }
  std::sort(p.mistakes.begin(), p.mistakes.end(), mistake_before);
  p.mistakes.erase(std::unique(p.mistakes.begin(), p.mistakes.end()), p.mistakes.end());
  if (p.mistakes.size() > kMaxMistakes) p.mistakes.resize(kMaxMistakes);
  if (rng() % 2) p.unknown_fields["u" + std::to_string(rng() % 3)] = std::to_string(rng() % 5);
  // An exercise record with a newer build's fields: more names than its cap across three
  // sides, so the merge's cut is exercised too.
  if (rng() % 2) {
    ExerciseProgress& e = p.exercises[std::string(1, static_cast<char>('a' + rng() % 2))];
    for (int k = static_cast<int>(rng() % 5); k > 0; --k) e.unknown_fields["x" + std::to_string(rng() % 12)] = std::to_string(rng() % 5);
  }
  return p;
}

}  // namespace

TEST(MistakeMerge, CommutativeAssociativeIdempotentAndBounded) {
  std::mt19937_64 rng(20260321);
  int cut = 0;  // trials where the union is beyond the cap, so the cut is tested too
  for (int trial = 0; trial < 300; ++trial) {
    Progress a = random_progress(rng), b = random_progress(rng), c = random_progress(rng);
    Progress ab = merge_progress(a, b);
    cut += merge_progress(ab, c).mistakes.size() == kMaxMistakes;
    EXPECT_EQ(ab, merge_progress(b, a)) << "trial " << trial;
    EXPECT_EQ(merge_progress(ab, c), merge_progress(a, merge_progress(b, c))) << "trial " << trial;
    EXPECT_EQ(merge_progress(a, a), a) << "trial " << trial;
    EXPECT_EQ(merge_progress(ab, b), ab) << "trial " << trial;
    EXPECT_LE(merge_progress(ab, c).mistakes.size(), kMaxMistakes);
    EXPECT_TRUE(std::is_sorted(ab.mistakes.begin(), ab.mistakes.end(), mistake_before));
    EXPECT_EQ(read_progress(write_progress(ab)).progress, ab) << "trial " << trial;
  }
  EXPECT_GT(cut, 30);
}

TEST(MistakeMerge, TwoTabsMistakesBothStay) {
  Progress a, b;
  a.mistakes = {rec("x", 10, "double")};
  b.mistakes = {rec("y", 20, "bits-bytes"), rec("x", 10, "double")};
  Progress m = merge_progress(a, b);
  ASSERT_EQ(m.mistakes.size(), 2u);
  EXPECT_EQ(m.mistakes[0].exercise, "y");
  EXPECT_EQ(m.mistakes[1].exercise, "x");
}

// ---------------------------------------------------------------- grouping

TEST(MistakeGroups, SlipsGroupAcrossExercisesListedPerExercise) {
  std::vector<MistakeRecord> log = {
      rec("ring", 100, "bits-bytes"), rec("tree", 90, "bits-bytes"),  rec("ring", 80, "bits-bytes"),
      rec("ring", 70, "listed"),      rec("tree", 60, "listed"),      rec("tree", 50, "listed"),
      rec("ring", 40, ""),            rec("tree", 30, "unknown-key"), rec("zero", 95, "double"),
  };
  std::sort(log.begin(), log.end(), mistake_before);
  std::vector<MistakeGroup> g = group_mistakes(log);
  ASSERT_EQ(g.size(), 6u);
  EXPECT_EQ(g[0].key, "bits-bytes");
  EXPECT_EQ(g[0].exercise, "");
  ASSERT_EQ(g[0].records.size(), 3u);
  EXPECT_EQ(g[0].records[0]->at, 100);
  EXPECT_EQ(g[0].records[2]->at, 80);
  EXPECT_EQ(exercises_of(g[0]), (std::vector<std::string>{"ring", "tree"}));
  EXPECT_EQ(g[1].key, "listed");  // two records, the latest at 60
  EXPECT_EQ(g[1].exercise, "tree");
  EXPECT_EQ(exercises_of(g[1]), (std::vector<std::string>{"tree"}));
  // One record each: the most recent first.
  EXPECT_EQ(g[2].key, "double");
  EXPECT_EQ(g[3].key, "listed");
  EXPECT_EQ(g[3].exercise, "ring");
  EXPECT_EQ(g[4].key, "");
  EXPECT_EQ(g[4].exercise, "ring");
  EXPECT_EQ(g[5].key, "");  // an unknown key counts as not diagnosed
  EXPECT_EQ(g[5].exercise, "tree");
  EXPECT_TRUE(group_mistakes({}).empty());
}

TEST(MistakeGroups, TiesGoToTheKeyThenTheExercise) {
  std::vector<MistakeRecord> log = {rec("b", 10, "listed"), rec("a", 10, "listed"), rec("c", 10, "double")};
  std::vector<MistakeGroup> g = group_mistakes(log);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].key, "double");
  EXPECT_EQ(g[1].exercise, "a");
  EXPECT_EQ(g[2].exercise, "b");
}
