#include <gtest/gtest.h>

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
  EXPECT_TRUE(record_attempt(p, "a", fb(Verdict::Incorrect, 0), 100, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "a", fb(Verdict::Partial, 0.5), 200, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "a", fb(Verdict::Correct, 1), 300, "2026-11-20"));
  EXPECT_TRUE(record_attempt(p, "a", fb(Verdict::Incorrect, 0), 400, "2026-11-20"));
  const auto& e = p.exercises["a"];
  EXPECT_EQ(e.attempts, 4);
  EXPECT_DOUBLE_EQ(e.best_score, 1);
  EXPECT_EQ(e.solved_at, 300);
  EXPECT_EQ(e.last_attempt_at, 400);
  EXPECT_EQ(p.last_exercise, "a");
}

TEST(Progress, FormatErrorsAreNotRecorded) {
  Progress p;
  EXPECT_FALSE(record_attempt(p, "a", fb(Verdict::FormatError, 0), 100, "2026-11-20"));
  EXPECT_TRUE(p.exercises.empty());
  EXPECT_EQ(p.streak_days, 0);
}

TEST(Progress, DayStreak) {
  Progress p;
  record_attempt(p, "a", fb(Verdict::Correct, 1), 1, "2026-02-27");
  record_attempt(p, "a", fb(Verdict::Correct, 1), 2, "2026-02-28");
  record_attempt(p, "b", fb(Verdict::Correct, 1), 3, "2026-02-28");
  record_attempt(p, "b", fb(Verdict::Correct, 1), 4, "2026-03-01");  // month boundary
  EXPECT_EQ(p.streak_days, 3);
  EXPECT_EQ(current_streak(p, "2026-03-01"), 3);
  EXPECT_EQ(current_streak(p, "2026-03-02"), 3);  // still alive until the day ends
  EXPECT_EQ(current_streak(p, "2026-03-03"), 0);
  record_attempt(p, "b", fb(Verdict::Incorrect, 0), 5, "2026-03-05");  // gap: restart
  EXPECT_EQ(p.streak_days, 1);
  EXPECT_EQ(p.best_streak_days, 3);
}

TEST(Progress, RoundTrip) {
  Progress p;
  record_attempt(p, "ring.volume", fb(Verdict::Correct, 1), 1763700000, "2026-11-21");
  record_attempt(p, "ring.code", fb(Verdict::Partial, 0.4), 1763700100, "2026-11-21");
  ProgressRead r = read_progress(write_progress(p));
  EXPECT_TRUE(r.problems.empty());
  EXPECT_FALSE(r.unreadable);
  EXPECT_EQ(r.progress.exercises.size(), 2u);
  EXPECT_DOUBLE_EQ(r.progress.exercises["ring.code"].best_score, 0.4);
  EXPECT_EQ(r.progress.exercises["ring.volume"].solved_at, 1763700000);
  EXPECT_EQ(r.progress.streak_days, 1);
  EXPECT_EQ(r.progress.last_active_day, "2026-11-21");
  EXPECT_EQ(r.progress.last_exercise, "ring.code");
}

TEST(Progress, CorruptDocumentsKeepWhatIsReadable) {
  ProgressRead r = read_progress("{not json");
  EXPECT_TRUE(r.unreadable);
  EXPECT_FALSE(r.problems.empty());

  r = read_progress(R"J({"version": 1, "exercises": {"good": {"attempts": 2, "best": 1, "solved_at": 5},
     "bad": {"attempts": "many"}, "worse": 7}, "streak": {"current": 3, "best": 4, "last_day": "2026-11-20"}})J");
  EXPECT_FALSE(r.unreadable);
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  EXPECT_EQ(r.progress.exercises["good"].attempts, 2);
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
  record_attempt(p, "a", fb(Verdict::Correct, 1), 1, "2026-11-21");
  record_attempt(p, "b", fb(Verdict::Partial, 0.5), 1, "2026-11-21");
  ChapterProgress c = chapter_progress(p, pack);
  EXPECT_EQ(c.total, 2);
  EXPECT_EQ(c.attempted, 2);
  EXPECT_EQ(c.solved, 1);
  EXPECT_DOUBLE_EQ(c.mastery, 0.75);
}
