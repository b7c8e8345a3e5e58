#include <gtest/gtest.h>

#include <string>

#include "helpers.h"
#include "progress.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

Feedback fb(Verdict v, double score) {
  Feedback f;
  f.verdict = v;
  f.score = score;
  return f;
}

}  // namespace

TEST(Progress, RecordsAttemptsBestScoreAndSolvedTime) {
  Progress p;
  EXPECT_TRUE(record_attempt(p, "w", "a", fb(Verdict::Incorrect, 0), 100, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "w", "a", fb(Verdict::Partial, 0.5), 200, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "w", "a", fb(Verdict::Correct, 1), 300, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "w", "a", fb(Verdict::Incorrect, 0), 400, "2026-11-20"));
  const auto& e = p.exercises["a"];
  EXPECT_EQ(e.attempts(), 4);
  EXPECT_DOUBLE_EQ(e.best_score, 1);
  EXPECT_EQ(e.solved_at, 300);
  EXPECT_EQ(e.last_attempt_at, 400);
  EXPECT_EQ(p.last_exercise, "a");
}

TEST(Progress, FormatErrorsAreNotRecorded) {
  Progress p;
  EXPECT_FALSE(record_attempt(p, "w", "a", fb(Verdict::FormatError, 0), 100, "2026-11-20"));
  EXPECT_TRUE(p.exercises.empty());
  EXPECT_EQ(p.streak_days, 0);
}

TEST(Progress, DayStreak) {
  Progress p;
  record_attempt(p, "w", "a", fb(Verdict::Correct, 1), 1, "2026-02-27");
  record_attempt(p, "w", "a", fb(Verdict::Correct, 1), 2, "2026-02-28");
  record_attempt(p, "w", "b", fb(Verdict::Correct, 1), 3, "2026-02-28");
  record_attempt(p, "w", "b", fb(Verdict::Correct, 1), 4, "2026-03-01");  // month boundary
  EXPECT_EQ(p.streak_days, 3);
  EXPECT_EQ(current_streak(p, "2026-03-01"), 3);
  EXPECT_EQ(current_streak(p, "2026-03-02"), 3);  // still alive until the day ends
  EXPECT_EQ(current_streak(p, "2026-03-03"), 0);
  record_attempt(p, "w", "b", fb(Verdict::Incorrect, 0), 5, "2026-03-05");  // gap: restart
  EXPECT_EQ(p.streak_days, 1);
  EXPECT_EQ(p.best_streak_days, 3);
}

TEST(Progress, RoundTrip) {
  Progress p;
  record_attempt(p, "w", "ring.volume", fb(Verdict::Correct, 1), 1763700000, "2026-11-21");
  record_attempt(p, "w", "ring.code", fb(Verdict::Partial, 0.4), 1763700100, "2026-11-21");
  ProgressRead r = read_progress(write_progress(p));
  EXPECT_TRUE(r.problems.empty());
  EXPECT_FALSE(r.unreadable);
  EXPECT_EQ(r.progress.exercises.size(), 2u);
  EXPECT_DOUBLE_EQ(r.progress.exercises["ring.code"].best_score, 0.4);
  EXPECT_EQ(r.progress.exercises["ring.volume"].solved_at, 1763700000);
  EXPECT_EQ(r.progress.streak_days, 1);
  EXPECT_EQ(r.progress.last_active_day, "2026-11-21");
  EXPECT_EQ(r.progress.last_exercise, "ring.code");
  EXPECT_EQ(r.progress, p);
}

TEST(Progress, CorruptDocumentsKeepWhatIsReadable) {
  ProgressRead r = read_progress("{not json");
  EXPECT_TRUE(r.unreadable);
  EXPECT_FALSE(r.problems.empty());

  r = read_progress(R"J({"version": 1, "exercises": {"good": {"attempts": 2, "best": 1, "solved_at": 5},
     "bad": {"attempts": "many"}, "worse": 7}, "streak": {"current": 3, "best": 4, "last_day": "2026-11-20"}})J");
  EXPECT_FALSE(r.unreadable);
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  EXPECT_EQ(r.progress.exercises["good"].attempts(), 2);
  EXPECT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.progress.streak_days, 3);

  r = read_progress(R"J({"version": 1, "exercises": {"a": {"attempts": 1, "best": 0.5}}, "streak": {"current": "x"}})J");
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  EXPECT_EQ(r.progress.streak_days, 0);
  EXPECT_EQ(r.problems.size(), 1u);
}

TEST(Progress, NewerAndOlderVersions) {
  ProgressRead r = read_progress(R"J({"version": 7, "exercises": {"a": {"attempts": 1, "best": 1, "hearts": 3}}, "badges": []})J");
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("newer"), std::string::npos);
  r = read_progress(R"J({"exercises": {"a": {"attempts": 1, "best": 1}}})J");
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  EXPECT_NE(r.problems[0].find("no version"), std::string::npos);
}

TEST(Progress, ChapterMastery) {
  Pack pack = must_load(pack_with(R"J({"id": "a", "type": "ordering", "title": "A", "prompt": "p", "items": ["1", "2", "3"]},
                                     {"id": "b", "type": "ordering", "title": "B", "prompt": "p", "items": ["1", "2", "3"]})J"));
  Progress p;
  record_attempt(p, "w", "a", fb(Verdict::Correct, 1), 1, "2026-11-21");
  record_attempt(p, "w", "b", fb(Verdict::Partial, 0.5), 1, "2026-11-21");
  ChapterProgress c = chapter_progress(p, pack);
  EXPECT_EQ(c.total, 2);
  EXPECT_EQ(c.attempted, 2);
  EXPECT_EQ(c.solved, 1);
  EXPECT_DOUBLE_EQ(c.mastery, 0.75);
}

// ---------------------------------------------------------------- merging (version 2)

namespace {

// Two page loads a second apart, and one from a later day.
const std::string kTabA = "1763700000-aaaa", kTabB = "1763700001-bbbb", kTabC = "1763800000-cccc";

// Three records with something to disagree on in every field.
std::vector<Progress> three_records() {
  Progress a, b, c;
  record_attempt(a, kTabA, "x", fb(Verdict::Incorrect, 0), 100, "2026-11-20");
  record_attempt(a, kTabA, "x", fb(Verdict::Correct, 1), 200, "2026-11-20");
  record_attempt(a, kTabA, "y", fb(Verdict::Partial, 0.25), 210, "2026-11-20");
  b = a;  // b saw a's record, then went on on its own
  record_attempt(b, kTabB, "x", fb(Verdict::Correct, 1), 300, "2026-11-21");
  record_attempt(b, kTabB, "z", fb(Verdict::Partial, 0.5), 310, "2026-11-21");
  record_attempt(c, kTabC, "y", fb(Verdict::Correct, 1), 150, "2026-11-19");
  record_attempt(c, kTabC, "y", fb(Verdict::Correct, 1), 160, "2026-11-19");
  c.best_streak_days = 9;
  c.last_exercise = "zz";
  c.last_exercise_at = 310;  // same second as b's: the larger id wins, whatever the order
  return {a, b, c};
}

std::string json_of(const Progress& p) { return write_progress(p); }

}  // namespace

TEST(ProgressMerge, TwoWritersAttemptsAddUp) {
  Progress stored;
  Progress tab_a = stored, tab_b = stored;
  record_attempt(tab_a, kTabA, "x", fb(Verdict::Incorrect, 0), 100, "2026-11-20");
  record_attempt(tab_a, kTabA, "x", fb(Verdict::Correct, 1), 110, "2026-11-20");
  record_attempt(tab_b, kTabB, "x", fb(Verdict::Partial, 0.5), 105, "2026-11-20");
  record_attempt(tab_b, kTabB, "y", fb(Verdict::Correct, 1), 120, "2026-11-20");
  // Each save is read, merge, write: A saves, then B, then A again.
  stored = read_progress(write_progress(merge_progress(stored, tab_a))).progress;
  stored = read_progress(write_progress(merge_progress(stored, tab_b))).progress;
  stored = read_progress(write_progress(merge_progress(stored, tab_a))).progress;
  const ExerciseProgress& x = stored.exercises.at("x");
  EXPECT_EQ(x.attempts(), 3) << json_of(stored);
  EXPECT_EQ(x.attempts_by_writer.at(kTabA), 2);
  EXPECT_EQ(x.attempts_by_writer.at(kTabB), 1);
  EXPECT_DOUBLE_EQ(x.best_score, 1);
  EXPECT_EQ(x.solved_at, 110);
  EXPECT_EQ(x.last_attempt_at, 110);
  ASSERT_TRUE(stored.exercises.count("y"));  // B's solve survives A's later save
  EXPECT_EQ(stored.exercises.at("y").solved_at, 120);
  EXPECT_EQ(stored.last_exercise, "y");  // opened last (120 > 110)
}

TEST(ProgressMerge, CommutativeIdempotentAssociative) {
  auto r = three_records();
  for (const auto& p : r) EXPECT_EQ(merge_progress(p, p), p) << json_of(p);
  for (const auto& p : r)
    for (const auto& q : r) EXPECT_EQ(merge_progress(p, q), merge_progress(q, p)) << json_of(p) << json_of(q);
  for (const auto& p : r)
    for (const auto& q : r)
      for (const auto& s : r)
        EXPECT_EQ(merge_progress(merge_progress(p, q), s), merge_progress(p, merge_progress(q, s)));
  Progress all = merge_progress(merge_progress(r[0], r[1]), r[2]);
  // x: a's 2 (also in b), b's 1; y: a's 1 (also in b), c's 2; z: b's 1
  EXPECT_EQ(all.exercises.at("x").attempts(), 3);
  EXPECT_EQ(all.exercises.at("y").attempts(), 3);
  EXPECT_EQ(all.exercises.at("z").attempts(), 1);
  EXPECT_EQ(all.exercises.at("y").solved_at, 150);  // the earliest solve
  EXPECT_DOUBLE_EQ(all.exercises.at("y").best_score, 1);
  EXPECT_EQ(all.last_exercise, "zz");
  // merging again what is already in changes nothing (a storage event after our own save)
  EXPECT_EQ(merge_progress(all, r[1]), all);
}

TEST(ProgressMerge, StreakOfTheLaterDayWins) {
  Progress a, b;
  a.streak_days = 5;
  a.best_streak_days = 5;
  a.last_active_day = "2026-11-20";
  b.streak_days = 1;
  b.best_streak_days = 7;
  b.last_active_day = "2026-11-25";
  Progress m = merge_progress(a, b);
  EXPECT_EQ(m.streak_days, 1);
  EXPECT_EQ(m.last_active_day, "2026-11-25");
  EXPECT_EQ(m.best_streak_days, 7);
  b.last_active_day = a.last_active_day;  // same day: the longer streak
  m = merge_progress(b, a);
  EXPECT_EQ(m.streak_days, 5);
  EXPECT_EQ(m.best_streak_days, 7);
  Progress empty;
  EXPECT_EQ(merge_progress(a, empty).streak_days, 5);
  EXPECT_EQ(merge_progress(empty, a).last_active_day, "2026-11-20");
}

TEST(ProgressMerge, VersionOneReadsAsOneLegacyWriterWithoutLoss) {
  const std::string v1 = R"J({"format": "dtx-progress", "version": 1,
    "exercises": {"a": {"attempts": 3, "best": 0.5, "solved_at": 0, "last_at": 100},
                  "b": {"attempts": 1, "best": 1, "solved_at": 90, "last_at": 90}},
    "streak": {"current": 2, "best": 4, "last_day": "2026-11-20"}, "last_exercise": "a"})J";
  ProgressRead r = read_progress(v1);
  EXPECT_TRUE(r.problems.empty()) << r.problems[0];
  ASSERT_EQ(r.progress.exercises.size(), 2u);
  const ExerciseProgress& a = r.progress.exercises.at("a");
  EXPECT_EQ(a.attempts(), 3);
  EXPECT_EQ(a.attempts_by_writer, (std::map<std::string, int>{{kLegacyWriter, 3}}));
  EXPECT_DOUBLE_EQ(a.best_score, 0.5);
  EXPECT_EQ(a.last_attempt_at, 100);
  EXPECT_EQ(r.progress.exercises.at("b").solved_at, 90);
  EXPECT_EQ(r.progress.streak_days, 2);
  EXPECT_EQ(r.progress.best_streak_days, 4);
  EXPECT_EQ(r.progress.last_exercise, "a");
  // a new page counts on top; merging the old document again counts nothing twice
  Progress p = r.progress;
  record_attempt(p, kTabA, "a", fb(Verdict::Correct, 1), 200, "2026-11-21");
  Progress saved = read_progress(write_progress(merge_progress(p, read_progress(v1).progress))).progress;
  EXPECT_EQ(saved.exercises.at("a").attempts(), 4);
  EXPECT_EQ(saved.exercises.at("a").solved_at, 200);
  EXPECT_EQ(saved.streak_days, 3);
  EXPECT_EQ(merge_progress(saved, read_progress(v1).progress), saved);
  // and the version 2 document it is written as says so
  EXPECT_NE(write_progress(saved).find("\"version\": 2"), std::string::npos);
}

TEST(ProgressMerge, SavedTotalsAreSaturating) {
  Progress p;
  ExerciseProgress& e = p.exercises["x"];
  for (int i = 0; i < 5; ++i) e.attempts_by_writer["176370000" + std::to_string(i) + "-w"] = kMaxAttempts;
  EXPECT_EQ(e.attempts(), kMaxAttempts);
  record_attempt(p, "1763700000-w", "x", fb(Verdict::Incorrect, 0), 1, "2026-11-20");
  EXPECT_EQ(p.exercises["x"].attempts_by_writer["1763700000-w"], kMaxAttempts);
  ProgressRead r = read_progress(write_progress(p));
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.progress.exercises["x"].attempts(), kMaxAttempts);
}

// ---------------------------------------------------------------- numbers out of range

TEST(ProgressNumbers, OutOfRangeIsReportedAndClampedNeverDropped) {
  ProgressRead r = read_progress(R"J({"version": 2, "exercises": {
    "huge": {"attempts": 1e300, "best": 1},
    "negative": {"attempts": -5, "best": -0.25, "solved_at": -1, "last_at": -7},
    "int-max": {"attempts": 2147483647, "best": 1.5},
    "fraction": {"attempts": 2.5, "solved_at": 12.75},
    "far": {"attempts": 1, "solved_at": 1e300, "last_at": 9223372036854775807},
    "uint-max": {"by_writer": {"1763700000-a": 18446744073709551615, "1763700001-b": -3, "1763700002-c": 1}},
    "fine": {"attempts": 4, "best": 0.5, "solved_at": 1763700000, "last_at": 1763700000}},
    "streak": {"current": 1e300, "best": -2, "last_day": "2026-11-20"},
    "last_exercise": "fine", "last_exercise_at": -1e300})J");
  EXPECT_FALSE(r.unreadable);
  std::string all;
  for (const auto& p : r.problems) all += p + "\n";
  const auto& ex = r.progress.exercises;
  ASSERT_EQ(ex.size(), 7u) << all;  // every record kept
  EXPECT_EQ(ex.at("huge").attempts(), kMaxAttempts);
  EXPECT_EQ(ex.at("negative").attempts(), 0);
  EXPECT_EQ(ex.at("negative").best_score, 0);
  EXPECT_EQ(ex.at("negative").solved_at, 0);
  EXPECT_EQ(ex.at("negative").last_attempt_at, 0);
  EXPECT_EQ(ex.at("int-max").attempts(), kMaxAttempts);  // not a wrapped negative count
  EXPECT_EQ(ex.at("int-max").best_score, 1);
  EXPECT_EQ(ex.at("fraction").attempts(), 2);
  EXPECT_EQ(ex.at("fraction").solved_at, 12);
  EXPECT_EQ(ex.at("far").solved_at, kMaxTimestamp);  // still solved
  EXPECT_EQ(ex.at("far").last_attempt_at, kMaxTimestamp);
  EXPECT_EQ(ex.at("uint-max").attempts(), kMaxAttempts);  // saturating: 1e9 + 0 + 1
  EXPECT_EQ(ex.at("uint-max").attempts_by_writer.at("1763700001-b"), 0);
  EXPECT_EQ(ex.at("fine").attempts(), 4);
  EXPECT_EQ(r.progress.streak_days, kMaxStreakDays);
  EXPECT_EQ(r.progress.best_streak_days, kMaxStreakDays);  // never below the current streak
  EXPECT_EQ(r.progress.last_exercise_at, 0);
  // one line per clamped number, naming the record and the value
  for (const char* expect : {"\"huge\": attempts = 1e+300 is above 1000000000; read as 1000000000",
                             "\"negative\": attempts = -5 is below 0; read as 0", "\"negative\": best = -0.25",
                             "\"negative\": solved_at = -1", "\"negative\": last_at = -7",
                             "\"int-max\": attempts = 2147483647 is above 1000000000", "\"int-max\": best = 1.5",
                             "\"fraction\": attempts = 2.5 is not a whole number; read as 2",
                             "\"fraction\": solved_at = 12.75", "\"far\": solved_at = 1e+300",
                             "\"far\": last_at = 9223372036854775807",
                             "attempts of writer \"1763700000-a\" = 18446744073709551615",
                             "attempts of writer \"1763700001-b\" = -3", "the streak = 1e+300", "the best streak = -2",
                             "last_exercise_at = -1e+300"})
    EXPECT_NE(all.find(expect), std::string::npos) << "missing: " << expect << "\nin:\n" << all;
  EXPECT_EQ(r.problems.size(), 16u) << all;
  EXPECT_EQ(all.find("\"fine\""), std::string::npos) << all;
  // what is written back is in range and reads without a problem
  ProgressRead again = read_progress(write_progress(r.progress));
  EXPECT_TRUE(again.problems.empty()) << again.problems[0];
  EXPECT_EQ(again.progress, r.progress);
}

TEST(ProgressNumbers, InfinityIsAnUnreadableDocument) {
  // JSON has no NaN or Infinity; a number too large for a double is as close as a file gets,
  // and nlohmann refuses it rather than reading inf. The page keeps such a record aside.
  for (const char* text : {R"J({"version": 2, "exercises": {"a": {"attempts": 1e999}}})J",
                           R"J({"version": 2, "exercises": {"a": {"attempts": 1, "best": -1e999}}})J",
                           R"J({"version": 2, "exercises": {"a": {"attempts": NaN}}})J"}) {
    ProgressRead r = read_progress(text);
    EXPECT_TRUE(r.unreadable) << text;
    ASSERT_FALSE(r.problems.empty());
    EXPECT_TRUE(r.progress.exercises.empty());
  }
}

TEST(ProgressNumbers, BadWritersAndFoldsAreReported) {
  std::string long_id(kMaxWriterIdLength + 1, 'w');
  ProgressRead r = read_progress(R"J({"version": 2, "exercises": {
    "a": {"by_writer": {"": 3, ")J" + long_id + R"J(": 4, "1763700000-a": "three", "1763700001-b": 2}},
    "b": {"by_writer": {"1763700001-b": 2}, "folded": {"through": 5}},
    "c": {"by_writer": []}}})J");
  std::string all;
  for (const auto& p : r.problems) all += p + "\n";
  EXPECT_EQ(r.progress.exercises.at("a").attempts(), 2) << all;
  EXPECT_EQ(r.progress.exercises.at("b").attempts(), 2) << all;
  EXPECT_FALSE(r.progress.exercises.count("c"));
  EXPECT_NE(all.find("a writer id of 0 characters"), std::string::npos) << all;
  EXPECT_NE(all.find("a writer id of 65 characters"), std::string::npos) << all;
  EXPECT_NE(all.find("\"1763700000-a\" are not a number"), std::string::npos) << all;
  EXPECT_NE(all.find("\"folded\" is not"), std::string::npos) << all;
  EXPECT_NE(all.find("the record for \"c\" is malformed"), std::string::npos) << all;
}

// ---------------------------------------------------------------- many writers

TEST(ProgressWriters, OrderedByTheirPageLoadTime) {
  EXPECT_TRUE(writer_older(kLegacyWriter, "1763700000-a"));  // no time: the oldest
  EXPECT_TRUE(writer_older("999-z", "1000-a"));               // by number, not by text
  EXPECT_TRUE(writer_older("1000-a", "1000-b"));
  EXPECT_FALSE(writer_older("1000-a", "1000-a"));
  EXPECT_TRUE(writer_older("9", "99999999999999999999999999-x"));  // saturates, no overflow
}

TEST(ProgressWriters, BeyondTheCapTheOldestAreFoldedAndNeverCountedTwice) {
  // A record with 10000 writers (an imported file, or years of page loads) of one attempt each.
  std::string text = R"J({"version": 2, "exercises": {"x": {"by_writer": {)J";
  for (int i = 0; i < 10000; ++i) text += (i ? "," : "") + ("\"" + std::to_string(1700000000 + i) + "-w\": 1");
  text += "}}}}";
  ProgressRead r = read_progress(text);
  EXPECT_TRUE(r.problems.empty());
  const ExerciseProgress& x = r.progress.exercises.at("x");
  EXPECT_EQ(x.attempts_by_writer.size(), kMaxWritersPerExercise);
  EXPECT_EQ(x.attempts(), 10000);
  EXPECT_EQ(x.folded_attempts, 10000 - static_cast<int>(kMaxWritersPerExercise));
  EXPECT_EQ(x.folded_through, std::to_string(1700000000 + 10000 - 65) + "-w");
  EXPECT_EQ(x.attempts_by_writer.begin()->first, std::to_string(1700000000 + 10000 - 64) + "-w");
  // the fold survives a round trip, and merging with itself or with a tab that still lists
  // a folded writer (with the count it had) adds nothing
  ProgressRead again = read_progress(write_progress(r.progress));
  EXPECT_TRUE(again.problems.empty());
  EXPECT_EQ(again.progress, r.progress);
  Progress old_tab;
  old_tab.exercises["x"].attempts_by_writer["1700000005-w"] = 1;
  EXPECT_EQ(merge_progress(r.progress, old_tab), r.progress);
  EXPECT_EQ(merge_progress(old_tab, r.progress), r.progress);
  // a new writer is listed and the oldest listed one folded, keeping the total exact
  Progress new_tab;
  record_attempt(new_tab, "1800000000-n", "x", fb(Verdict::Incorrect, 0), 5, "2027-01-15");
  Progress m = merge_progress(r.progress, new_tab);
  EXPECT_EQ(m.exercises.at("x").attempts(), 10001);
  EXPECT_EQ(m.exercises.at("x").attempts_by_writer.size(), kMaxWritersPerExercise);
  EXPECT_EQ(merge_progress(new_tab, r.progress), m);
  // two folds: the later one wins and the listed writers it covers are dropped
  EXPECT_EQ(merge_progress(m, r.progress), m);
  // a page whose own writer was folded counts into the fold, never as a listed writer
  Progress p = m;
  record_attempt(p, "1700000005-w", "x", fb(Verdict::Incorrect, 0), 6, "2027-01-15");
  EXPECT_EQ(p.exercises.at("x").attempts(), 10002);
  EXPECT_FALSE(p.exercises.at("x").attempts_by_writer.count("1700000005-w"));
  EXPECT_TRUE(writer_folded(p.exercises.at("x"), "1700000005-w"));
  EXPECT_FALSE(writer_folded(p.exercises.at("x"), "1800000000-n"));
}

// Another JSON document is not an empty record: importing it is refused, and a stored one is
// kept aside, never read as "no progress".
TEST(Progress, AJsonDocumentThatIsNotProgressIsUnreadable) {
  for (const char* text : {R"J({"hello": 1})J", R"J({})J", R"J({"format": "dtx-submission", "exercises": {}})J",
                           R"J({"format": 3, "version": 2, "exercises": {}})J"}) {
    ProgressRead r = read_progress(text);
    EXPECT_TRUE(r.unreadable) << text;
    ASSERT_EQ(r.problems.size(), 1u) << text;
    EXPECT_NE(r.problems[0].find("dtx-progress"), std::string::npos) << r.problems[0];
  }
  // a record of an older version without "format" is still read
  EXPECT_FALSE(read_progress(R"J({"version": 1, "exercises": {}})J").unreadable);
  EXPECT_FALSE(read_progress(R"J({"format": "dtx-progress", "version": 2})J").unreadable);
}
